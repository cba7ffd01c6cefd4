//! The body's delay behind the other real-time classes' flits on the
//! links a message crosses before the ejection: the term that
//! "R2's cube tail and the cube variant's overshoot, measured (issue 22)"
//! (docs/reproduction.md) found R2's tail to be made of, and that Eq. (20)
//! charges only at the ejection channel ((B + M) S_{c,n}). Used by the row
//! `kim2005_cube_vcq_body` (`cube_vcq_ports.rs`); every term from the
//! configuration and the solved model, none from a run.
//!
//! The loss comes in lumps of a message, not flit by flit: a class loses
//! cycles only while another class's message overlaps its own on the
//! link, and then loses up to that whole message. So on each link the
//! delay is compound Poisson: a Poisson number of overlapping messages,
//! each costing a lump, with the mean set by the model:
//!
//! * **The injection link** (node to router) runs our network interface's
//!   per-flit priority (the highest class first, as `onoff_source.rs`
//!   takes it): each message of a higher class that arrives while class
//!   c's M_c flits are being sent preempts them for its M_o flits, and
//!   the preemptions' own arrivals extend the span, so the count has mean
//!   Σ_{o<c} λ_o M_c/(1 − ρ_hi), ρ_hi = Σ_{o<c} λ_o M_o, and the lump is
//!   M_o: the preemptive-resume mean M_c ρ_hi/(1 − ρ_hi). The highest
//!   class loses nothing there.
//! * **A dimension's link** runs VirtualClock: the chain of Eqs (6)–(8)
//!   gives the class M_c(S̄ − 1) cycles lost per message, S̄ counted per
//!   flit (`cycles_per_flit_by_flit`, the form the links' losses follow in
//!   "Why the chain's S̄ is too large for R2"). A message of another class
//!   that takes the link while r of class c's flits are left shares it
//!   with S_c(both) − 1 cycles lost per flit of c (Eq. 7) until its M_o
//!   flits are sent, so it costs min(M_o, (S_c − 1) r), r uniform on
//!   1..=M_c; the count is the mean over the lump's mean.
//! * **The ejection link** runs VirtualClock as a dimension's does, with
//!   its own chain (the ejection chain): the row takes Eq. (20)'s
//!   ejection term as B S_{c,n} + M and charges the M flits' sharing
//!   here, in lumps, instead of flit by flit.
//! * **Dimension 0** is fed by the injection port alone: its flits come
//!   through one link, one a cycle, so no two classes' flits compete for
//!   it and it adds nothing (its share of its headers from the injection
//!   port is 1, `injection_share(0)`).
//!
//! The message's body delay is the largest of its links' delays, not
//! their sum: a body slowed on one link reaches the next with gaps, in
//! which that link sends the other classes' flits at no cost to it (in
//! the simulation R2's mean body excess is 10.5 cycles for 2-hop messages
//! and 10.8 for 5-hop ones at R1 + R2 = 0.006, `cube_vcq_hops`). The
//! links' delays are taken independent of each other, of the VC waits and
//! of Eqs (20)–(23)'s latency, as the waits are.

use super::cube_vcq_ports::{cycles_per_flit_by_flit, injection_share};
use super::kim2005::sharing_cycles;
use super::kim2005_cube::{hop_probability, CubeModel, CubeSolution};

/// A compound Poisson delay on whole cycles: a Poisson(`count`) number of
/// lumps, each with p.m.f. `lump` (index = cycles).
#[derive(Clone, Debug, PartialEq)]
pub struct Lumps {
    pub count: f64,
    pub lump: Vec<f64>,
}

impl Lumps {
    /// No delay.
    pub fn none() -> Self {
        Lumps { count: 0.0, lump: vec![1.0] }
    }

    /// A lump's mean, cycles.
    pub fn lump_mean(&self) -> f64 {
        self.lump.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
    }

    /// The delay's mean: count × lump mean.
    pub fn mean(&self) -> f64 {
        self.count * self.lump_mean()
    }

    /// The delay's p.m.f. on 0..=top (Panjer's recursion for a compound
    /// Poisson sum: g_0 = e^{−a(1 − f_0)}, g_x = a/x Σ_y y f_y g_{x−y}).
    pub fn pmf(&self, top: usize) -> Vec<f64> {
        let f0 = self.lump.first().copied().unwrap_or(0.0);
        let mut g = vec![0.0; top + 1];
        g[0] = (-self.count * (1.0 - f0)).exp();
        for x in 1..=top {
            let s: f64 = (1..=x.min(self.lump.len() - 1)).map(|y| y as f64 * self.lump[y] * g[x - y]).sum();
            g[x] = self.count / x as f64 * s;
        }
        g
    }
}

/// The p.m.f. of a value `v` ≥ 0 on whole cycles, split between ⌊v⌋ and
/// ⌈v⌉ so that its mean is v, added with weight `w` to `pmf`.
fn add_split(pmf: &mut Vec<f64>, v: f64, w: f64) {
    let lo = v.floor() as usize;
    let frac = v - lo as f64;
    if pmf.len() < lo + 2 {
        pmf.resize(lo + 2, 0.0);
    }
    pmf[lo] += w * (1.0 - frac);
    pmf[lo + 1] += w * frac;
}

/// The lump of a VirtualClock link: min(M_o, k r), r uniform on 1..=M_c,
/// k = S_c(both) − 1 (cycles class c loses per flit beside the other).
pub fn shared_lump(msg_flits: f64, other_flits: f64, lost_per_flit: f64) -> Vec<f64> {
    let m = msg_flits.round() as usize;
    let mut pmf = vec![0.0];
    for r in 1..=m {
        add_split(&mut pmf, other_flits.min(lost_per_flit * r as f64), 1.0 / m as f64);
    }
    while pmf.len() > 1 && pmf.last() == Some(&0.0) {
        pmf.pop();
    }
    pmf
}

/// The body delays of one real-time class on the injection link and on
/// each dimension's link.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDelays {
    pub injection: Lumps,
    /// Index s: the link of dimension s.
    pub hops: Vec<Lumps>,
    /// The ejection link (router to node), in place of Eq. (20)'s sharing
    /// of the M flits in (B + M) S_{c,n}.
    pub ejection: Lumps,
}

impl BodyDelays {
    /// Class `c` of a solved cube model (the real-time classes in
    /// priority order, index 0 the highest).
    pub fn of(model: &CubeModel, sol: &CubeSolution, c: usize) -> Self {
        let r = &model.router;
        let (rates, flits) = (&r.rt_rates, &r.msg_flits);
        let mc = flits[c];
        // Injection: preemptive-resume priority of the classes above c.
        let rho_hi: f64 = (0..c).map(|o| rates[o] * flits[o]).sum();
        let injection = if c == 0 || rho_hi <= 0.0 {
            Lumps::none()
        } else {
            let count: f64 = (0..c).map(|o| rates[o]).sum::<f64>() * mc / (1.0 - rho_hi);
            let mut lump = vec![0.0];
            let total: f64 = (0..c).map(|o| rates[o]).sum();
            for o in 0..c {
                add_split(&mut lump, flits[o], rates[o] / total);
            }
            Lumps { count, lump }
        };
        // The other real-time classes as one: their rate-weighted length,
        // and class c's cycles lost per flit with all of them holding a VC.
        let others: Vec<usize> = (0..rates.len()).filter(|&o| o != c).collect();
        let other_rate: f64 = others.iter().map(|&o| rates[o]).sum();
        let link = |s: usize| {
                let mean = mc * (cycles_per_flit_by_flit(&r.vticks, &sol.occupancy[s], c) - 1.0);
                if (s < model.n && injection_share(s) >= 1.0) || other_rate <= 0.0 || mean <= 0.0 {
                    return Lumps::none();
                }
                let other_flits = others.iter().map(|&o| rates[o] * flits[o]).sum::<f64>() / other_rate;
                let all = (1usize << rates.len()) - 1;
                let lump = shared_lump(mc, other_flits, sharing_cycles(&r.vticks, all, c) - 1.0);
                let l = Lumps { count: 0.0, lump };
                Lumps { count: mean / l.lump_mean(), ..l }
            };
        BodyDelays { injection, hops: (0..model.n).map(link).collect(), ejection: link(model.n) }
    }

    /// The delay's p.m.f. (0..=top) of a message whose path crosses the
    /// dimensions of `set`: the largest of the injection link's, each
    /// crossed link's and the ejection link's (a body slowed on one link
    /// reaches the next with gaps, in which that link sends the other
    /// classes' flits at no cost to it: the delays do not add).
    pub fn path_pmf(&self, set: usize, top: usize) -> Vec<f64> {
        let cdf = |l: &Lumps| -> Vec<f64> {
            let mut acc = 0.0;
            l.pmf(top).into_iter().map(|p| {
                acc += p;
                acc
            }).collect()
        };
        let mut all = cdf(&self.injection);
        let links = std::iter::once(&self.ejection).chain((0..self.hops.len()).filter(|s| set >> s & 1 == 1).map(|s| &self.hops[s]));
        for l in links {
            all.iter_mut().zip(cdf(l)).for_each(|(a, b)| *a *= b);
        }
        let mut prev = 0.0;
        all.into_iter()
            .map(|f| {
                let p = f - prev;
                prev = f;
                p
            })
            .collect()
    }

    /// Mean delay over all messages: the mean of [`Self::path_pmf`]'s
    /// largest delay, Σ_x P{max > x}, averaged over the C(n, h) paths of
    /// each hop count h and weighted by P_h.
    pub fn mean(&self) -> f64 {
        let n = self.hops.len();
        // Past every link's mean by far: a few lumps of at most 2M cycles.
        let top = 64 * self.injection.lump.len().max(self.ejection.lump.len()).max(self.hops.iter().map(|l| l.lump.len()).max().unwrap_or(1));
        let mut mean = 0.0;
        for h in 1..=n {
            let sets: Vec<usize> = (0usize..1 << n).filter(|s| s.count_ones() as usize == h).collect();
            let per_path: f64 = sets.iter().map(|&set| self.path_pmf(set, top).iter().enumerate().map(|(k, p)| k as f64 * p).sum::<f64>()).sum();
            mean += hop_probability(n, h) * per_path / sets.len() as f64;
        }
        mean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// M_c = M_o = 4, S_c − 1 = 2: r = 1..4 costs 2, 4, 4, 4, so the lump
    /// is 2 w.p. ¼ and 4 w.p. ¾ (mean 3.5). With 1.4 cycles lost per
    /// message (S̄ = 1.35) the count is 0.4: P{0} = e^{−0.4} = 0.670320,
    /// P{2} = e^{−0.4} · 0.4 · ¼ = 0.067032, P{4} = e^{−0.4}(0.4 · ¾ +
    /// 0.4²/2 · ¼²) = e^{−0.4} · 0.305 = 0.204448, P{1} = P{3} = 0.
    #[test]
    fn compound_lumps_by_hand() {
        let lump = shared_lump(4.0, 4.0, 2.0);
        assert_eq!(lump, vec![0.0, 0.0, 0.25, 0.0, 0.75]);
        let l = Lumps { count: 1.4 / 3.5, lump };
        assert!((l.mean() - 1.4).abs() < 1e-12);
        let g = l.pmf(4);
        for (got, want) in g.iter().zip([0.670320, 0.0, 0.067032, 0.0, 0.204448]) {
            assert!((got - want).abs() < 1e-6, "{g:?}");
        }
        // Half a cycle per flit (R1 beside R2): r = 1..4 costs 0.5, 1,
        // 1.5, 2, split to whole cycles: 0: ⅛, 1: ½, 2: ⅜ (mean 1.25).
        let half = shared_lump(4.0, 4.0, 0.5);
        for (got, want) in half.iter().zip([0.125, 0.5, 0.375]) {
            assert!((got - want).abs() < 1e-12, "{half:?}");
        }
        assert_eq!(half.len(), 3);
        assert_eq!(Lumps::none().pmf(3), vec![1.0, 0.0, 0.0, 0.0]);
    }

    /// fig7_000_cube6's classes at R1 + R2 = 0.006 (R1 0.004, R2 0.002
    /// msgs/cycle/node, M = 32, Vticks 8 and 16): at the injection R2 is
    /// preempted by R1, ρ_hi = 0.004 · 32 = 0.128, count 0.004 · 32/0.872
    /// = 0.146789 lumps of 32: mean 4.697248; R1 loses nothing there. On a
    /// dimension's link R2 loses min(32, 2r): mean (2 · 136 + 16 · 32)/32
    /// = 24.5, and R1 min(32, r/2) = r/2: mean 8.25. Dimension 0 adds
    /// nothing; the others' means are M(S̄ per flit − 1).
    #[test]
    fn six_cube_terms_by_hand() {
        let mut router = super::super::kim2005::RouterModel::table1(0.004, 0.002, 0.002);
        router.vticks = vec![8.0, 16.0];
        let model = CubeModel { n: 6, router };
        let sol = model.solve().unwrap();
        let (r1, r2) = (BodyDelays::of(&model, &sol, 0), BodyDelays::of(&model, &sol, 1));
        for (c, d) in [(0, &r1), (1, &r2)] {
            let want = 32.0 * (cycles_per_flit_by_flit(&model.router.vticks, &sol.occupancy[6], c) - 1.0);
            assert!(want > 0.0 && (d.ejection.mean() - want).abs() < 1e-9, "class {c} ejection: {} vs {want}", d.ejection.mean());
        }
        assert_eq!(r1.injection, Lumps::none());
        assert!((r2.injection.count - 0.004 * 32.0 / 0.872).abs() < 1e-12);
        assert!((r2.injection.mean() - 4.697248).abs() < 1e-6, "{}", r2.injection.mean());
        assert!((r2.hops[3].lump_mean() - 24.5).abs() < 1e-12);
        assert!((r1.hops[3].lump_mean() - 8.25).abs() < 1e-12);
        for (c, d) in [(0, &r1), (1, &r2)] {
            assert_eq!(d.hops[0], Lumps::none());
            for s in 1..6 {
                let want = 32.0 * (cycles_per_flit_by_flit(&model.router.vticks, &sol.occupancy[s], c) - 1.0);
                assert!(want > 0.0 && (d.hops[s].mean() - want).abs() < 1e-9, "class {c} link {s}: {} vs {want}", d.hops[s].mean());
            }
        }
        // A path's p.m.f. sums to 1 far enough out, and its mean lies
        // between its largest link's and the sum of its links'.
        let pmf = r2.path_pmf(0b000110, 2000);
        let mean: f64 = pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let links = [r2.injection.mean(), r2.hops[1].mean(), r2.hops[2].mean(), r2.ejection.mean()];
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(links.iter().all(|&m| m < mean) && mean < links.iter().sum::<f64>(), "{mean} {links:?}");
    }

    /// The largest of the links' delays, by hand: injection and ejection
    /// lumps of 2 cycles, counts a = 0.1 and b = 0.2, no dimension link
    /// (all Lumps::none()). P{max = 0} = e^{−0.3} = 0.740818; P{max ≤ 2}
    /// = e^{−0.1}(1.1) · e^{−0.2}(1.2) = 0.977880, so P{max = 2} =
    /// 0.237062; P{max ≤ 4} = e^{−0.1}(1.105) · e^{−0.2}(1.22) = 0.998697,
    /// P{max = 4} = 0.020817. The mean over all messages is the path's
    /// (every path alike): 2 × 0.237062 + 4 × 0.020817 + 6 × P{max = 6}...
    /// = Σ_x P{max > x} = 2(0.259182 + 0.022120 + ...).
    #[test]
    fn largest_delay_by_hand() {
        let two = |a: f64| Lumps { count: a, lump: vec![0.0, 0.0, 1.0] };
        let d = BodyDelays { injection: two(0.1), hops: vec![Lumps::none(); 2], ejection: two(0.2) };
        let pmf = d.path_pmf(0b11, 8);
        for (got, want) in pmf.iter().zip([0.740818, 0.0, 0.237062, 0.0, 0.020817]) {
            assert!((got - want).abs() < 1e-6, "{pmf:?}");
        }
        // Σ_x P{max > x}: P{max ≤ 2k} = Π_a P{Poisson(a) ≤ k}.
        let cdf = |a: f64, k: i32| (0..=k).map(|i| (-a as f64).exp() * a.powi(i) / (1..=i).product::<i32>() as f64).sum::<f64>();
        let want: f64 = (0..20).map(|k| 2.0 * (1.0 - cdf(0.1, k) * cdf(0.2, k))).sum();
        assert!((d.mean() - want).abs() < 1e-9, "{} vs {want}", d.mean());
        assert!(d.mean() < d.injection.mean() + d.ejection.mean());
    }
}

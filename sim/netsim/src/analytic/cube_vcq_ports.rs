//! `kim2005_cube_vcq_ports`: the 6-cube's wait for a class's one output
//! VC with the two corrections that "R2's cube tail and the cube
//! variant's overshoot, measured (issue 22)" (docs/reproduction.md)
//! measured for `kim2005_cube_vcq` (`vc_queue_tail.rs`), both taken from
//! the configuration and the model, not from a measurement:
//!
//! * **The hold.** The router releases an output VC when the message's
//!   tail crosses its switch. The header has its VC; the body follows one
//!   flit a cycle, unless the flits reach the router slower than that —
//!   which they do only where a link before it shared its cycles with the
//!   other classes' flits (a 32-flit input buffer holds the whole message,
//!   so nothing downstream holds the tail back). The model's Eqs (6)–(8)
//!   say how much: on a link whose occupancy chain gives class c S̄ cycles
//!   per flit, a message's M flits take M S̄ cycles, M(S̄ − 1) more than one
//!   a cycle. So the hold at a link is M plus these delays summed over the
//!   links the message crossed before it: the injection link (it carries
//!   every class at the node's rates λ_c, the rates of the ejection
//!   link's chain, so S̄_{c,n} is its sharing) and the hop links of lower
//!   dimension on its e-cube path (each of which a message on link s
//!   crossed with probability ½, on the ejection link with probability
//!   2^{n−1}/(2^n − 1)). Summing assumes no later link absorbs an earlier
//!   delay (a later link could send other flits in the gaps instead).
//! * **The ports.** A class has one VC per input port, so the next
//!   message of an input port cannot be routed before the last one's tail
//!   has left, and then its output VC is free: a header waits only behind
//!   the other input ports' messages. With uniform destinations and
//!   e-cube routing the share of link s's headers from the injection port
//!   is 2^{−s} and from the link of dimension j < s is 2^{j−s}; of the
//!   ejection link's, 2^j/(2^n − 1) from dimension j. A header from a port
//!   with share f waits as the link's M/D/1 queue with probability 1 − f
//!   and not at all with probability f: its mean is (1 − f) ρT/(2(1 − ρ)),
//!   the M/G/1 residual of the other ports' share of ρ (an approximation
//!   that follows the measured "M/G/1, other input ports only" row).
//!
//! The waits are independent of each other and of Eqs (20)–(23)'s latency,
//! as in `kim2005_cube_vcq`.

use super::cube_body_behind::BodyDelays;
use super::kim2005::sharing_cycles;
use super::kim2005_cube::{hop_probability, CubeModel, CubeSolution};
use super::vc_queue_tail::{convolve, md1_wait_pmf, tail_with_wait};

/// Share of the headers of link `s` (0..n−1) that come from the node's
/// injection port (uniform destinations, e-cube routing): 2^{−s}.
pub fn injection_share(s: usize) -> f64 {
    0.5f64.powi(s as i32)
}

/// Share of the headers of link `s` that come from the link of dimension
/// `j` < s: 2^{j−s}.
pub fn hop_port_share(s: usize, j: usize) -> f64 {
    assert!(j < s, "e-cube: a message on link {s} came from a lower dimension, not {j}");
    0.5f64.powi((s - j) as i32)
}

/// Share of the ejection link's headers that come from dimension `j`:
/// 2^j/(2^n − 1) (the highest dimension in which source and destination
/// differ is the last one crossed).
pub fn ejection_port_share(n: usize, j: usize) -> f64 {
    (1u64 << j) as f64 / ((1u64 << n) - 1) as f64
}

/// The VC queues of one real-time class in the n-cube.
#[derive(Clone, Debug, PartialEq)]
pub struct PortQueues {
    pub n: usize,
    /// M_c, flits.
    pub msg_flits: f64,
    /// λ_c, messages per cycle per node.
    pub rate: f64,
    /// S̄_{c,n}: cycles per flit on the ejection (and injection) link.
    pub ejection_cycles_per_flit: f64,
    /// S̄_{c,s}, s = 0..n−1: cycles per flit on the link of dimension s.
    pub hop_cycles_per_flit: Vec<f64>,
}

impl PortQueues {
    /// Class `c` of a solved cube model.
    pub fn of(model: &CubeModel, sol: &CubeSolution, c: usize) -> Self {
        let spf = &sol.classes[c].cycles_per_flit;
        PortQueues {
            n: model.n,
            msg_flits: model.router.msg_flits[c],
            rate: model.router.rt_rates[c],
            ejection_cycles_per_flit: spf[model.n],
            hop_cycles_per_flit: spf[..model.n].to_vec(),
        }
    }

    /// Class `c` with each link's S̄ taken per flit instead of Eq. (6)'s
    /// per cycle ([`cycles_per_flit_by_flit`] over the same chains): the
    /// row `kim2005_cube_vcq_flit`.
    pub fn of_by_flit(model: &CubeModel, sol: &CubeSolution, c: usize) -> Self {
        let spf: Vec<f64> = sol.occupancy.iter().map(|pi| cycles_per_flit_by_flit(&model.router.vticks, pi, c)).collect();
        PortQueues { ejection_cycles_per_flit: spf[model.n], hop_cycles_per_flit: spf[..model.n].to_vec(), ..Self::of(model, sol, c) }
    }

    /// M(S̄ − 1): the cycles a link's sharing adds to a message's body.
    fn body_delay(&self, cycles_per_flit: f64) -> f64 {
        self.msg_flits * (cycles_per_flit - 1.0)
    }

    /// Share of a message's headers at a dimension's link: 2^{n−1}/(2^n − 1).
    fn crossing(&self) -> f64 {
        (1u64 << (self.n - 1)) as f64 / ((1u64 << self.n) - 1) as f64
    }

    /// Mean hold of the VC of each link, dimensions 0..n−1 then the
    /// ejection: M, plus the injection link's body delay, plus the lower
    /// dimensions' weighted by the chance that the message crossed them.
    pub fn holds(&self) -> Vec<f64> {
        let base = self.msg_flits + self.body_delay(self.ejection_cycles_per_flit);
        let delays: Vec<f64> = self.hop_cycles_per_flit.iter().map(|&s| self.body_delay(s)).collect();
        let mut holds: Vec<f64> = (0..self.n).map(|s| base + 0.5 * delays[..s].iter().sum::<f64>()).collect();
        holds.push(base + self.crossing() * delays.iter().sum::<f64>());
        holds
    }

    /// Header rate of each link's VC: λ 2^{n−1}/(2^n − 1) at a dimension's,
    /// λ at the ejection.
    pub fn rates(&self) -> Vec<f64> {
        let mut r = vec![self.rate * self.crossing(); self.n];
        r.push(self.rate);
        r
    }

    /// Utilisation λT of each link's VC, `None` if one is ≥ 1.
    fn utilisations(&self) -> Option<Vec<f64>> {
        let rho: Vec<f64> = self.rates().iter().zip(self.holds()).map(|(l, t)| l * t).collect();
        rho.iter().all(|&r| (0.0..1.0).contains(&r)).then_some(rho)
    }

    /// Mean wait per message, over all messages: each link's M/D/1 mean
    /// times 1 − Σ_p f_p² (a header from port p waits with probability
    /// 1 − f_p), times the link's headers per message.
    pub fn mean_wait(&self) -> Option<f64> {
        let rho = self.utilisations()?;
        let holds = self.holds();
        let md1 = |i: usize| rho[i] * holds[i] / (2.0 * (1.0 - rho[i]));
        let n = self.n;
        let hops: f64 = (0..n)
            .map(|s| {
                let same: f64 = injection_share(s).powi(2) + (0..s).map(|j| hop_port_share(s, j).powi(2)).sum::<f64>();
                (1.0 - same) * md1(s)
            })
            .sum();
        let same_ej: f64 = (0..n).map(|j| ejection_port_share(n, j).powi(2)).sum();
        Some(self.crossing() * hops + (1.0 - same_ej) * md1(n))
    }

    /// The wait's p.m.f. (whole cycles 0..=top) of a message whose path
    /// crosses the dimensions of `set` (bit s = dimension s): at each link
    /// the M/D/1 wait with probability 1 − f of its own port, nothing with
    /// probability f.
    pub fn path_wait_pmf(&self, set: usize, top: usize) -> Option<Vec<f64>> {
        let rho = self.utilisations()?;
        let (holds, rates) = (self.holds(), self.rates());
        let mixed = |i: usize, own: f64| -> Vec<f64> {
            let mut pmf: Vec<f64> = md1_wait_pmf(rates[i], holds[i], top).into_iter().map(|p| (1.0 - own) * p).collect();
            pmf[0] += own;
            debug_assert!(rho[i] < 1.0);
            pmf
        };
        let mut wait = vec![1.0];
        let mut from: Option<usize> = None;
        for s in (0..self.n).filter(|s| set >> s & 1 == 1) {
            let own = from.map_or(injection_share(s), |j| hop_port_share(s, j));
            wait = convolve(&wait, &mixed(s, own), top);
            from = Some(s);
        }
        // A message to its own node never reaches the ejection link here.
        let last = from.expect("a path crosses at least one dimension");
        Some(convolve(&wait, &mixed(self.n, ejection_port_share(self.n, last)), top))
    }
}

/// Cycles per flit of real-time class `c` on a link whose occupancy chain
/// (Eqs 6–8) has stationary distribution `pi`, counted per flit: in state
/// z the class sends a flit every S_c(z) cycles, so over the states where
/// its VC is held it sends Σ π(z)/S_c(z) flits per cycle, and a flit takes
/// the inverse, (Σ π(z)) / Σ π(z)/S_c(z). Eq. (6) averages S_c(z) itself
/// with the time weights π(z), which counts each cycle of a slow shared
/// state as if a flit were sent in it (`cube_r2_body`: R2's losses on the
/// links follow this form, not Eq. 6's). 1 if the VC is never held.
pub fn cycles_per_flit_by_flit(vticks: &[f64], pi: &[f64], c: usize) -> f64 {
    let (mut held, mut flits) = (0.0, 0.0);
    for (z, &p) in pi.iter().enumerate().filter(|(z, _)| z >> c & 1 == 1) {
        held += p;
        flits += p / sharing_cycles(vticks, z, c);
    }
    if flits > 0.0 {
        held / flits
    } else {
        1.0
    }
}

/// `kim2005_cube_vcq_ports`, real-time class c: the model's h-hop tail
/// (Eqs 20–23) with the path's waits added, averaged over the C(n, h)
/// dimension sets; over all messages weighted by P_h. Returns the mean
/// wait over all messages and P{L + W > D} per deadline; `None` if a VC
/// queue has ρ ≥ 1.
pub fn cube_vcq_ports_miss(model: &CubeModel, sol: &CubeSolution, c: usize, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    queues_miss(model, sol, c, &PortQueues::of(model, sol, c), None, hops, deadlines)
}

/// `kim2005_cube_vcq_flit`: [`cube_vcq_ports_miss`] with the holds from the
/// links' S̄ per flit ([`PortQueues::of_by_flit`]).
pub fn cube_vcq_flit_miss(model: &CubeModel, sol: &CubeSolution, c: usize, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    queues_miss(model, sol, c, &PortQueues::of_by_flit(model, sol, c), None, hops, deadlines)
}

/// `kim2005_cube_vcq_body`: [`cube_vcq_flit_miss`] with the body's delay
/// behind the other classes' flits on the injection link, the path's
/// dimension links and the ejection link added to each path's wait
/// ([`BodyDelays`]), Eq. (20)'s ejection term without its M flits'
/// sharing; the mean returned is the wait's plus the body's less that
/// sharing's M(S̄_{c,n} − 1).
pub fn cube_vcq_body_miss(model: &CubeModel, sol: &CubeSolution, c: usize, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    cube_vcq_body_miss_with(model, sol, c, &BodyDelays::of(model, sol, c), hops, deadlines)
}

/// [`cube_vcq_body_miss`] with the body's delays `body` in place of the
/// model's: what the row's tail becomes if some link's delay were another
/// (`examples/cube_r2_body.rs` puts the measured lumps in).
pub fn cube_vcq_body_miss_with(model: &CubeModel, sol: &CubeSolution, c: usize, body: &BodyDelays, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    queues_miss(model, sol, c, &PortQueues::of_by_flit(model, sol, c), Some(body), hops, deadlines)
}

/// The mean wait and the tails of class `c` with the VC queues `queues`,
/// and with `body` the body's delays on the path added to the wait.
fn queues_miss(model: &CubeModel, sol: &CubeSolution, c: usize, queues: &PortQueues, body: Option<&BodyDelays>, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    let n = model.n;
    // The body's mean in place of the M(S̄_{c,n} − 1) of Eq. (10)'s
    // ejection term that the base row's latency holds.
    let ejection_shared = sol.classes[c].cycles_per_flit[n] - 1.0;
    let mean = queues.mean_wait()? + body.map_or(0.0, |b| b.mean() - model.router.msg_flits[c] * ejection_shared);
    let top = deadlines.iter().fold(0.0f64, |a, &d| a.max(d)).max(0.0) as usize;
    let miss_h = |h: usize| -> Option<Vec<f64>> {
        // With the body's delays apart, Eq. (20)'s ejection term leaves out
        // its M flits' sharing, which `body` charges.
        let shared = body.is_none();
        let tail: Vec<f64> = (0..=top).map(|x| model.hops_miss_probability_with(sol, c, h, x as f64, shared)).collect();
        let (mut sum, mut count) = (vec![0.0; deadlines.len()], 0usize);
        for set in (0usize..1 << n).filter(|set| set.count_ones() as usize == h) {
            let mut wait = queues.path_wait_pmf(set, top)?;
            if let Some(b) = body {
                wait = convolve(&wait, &b.path_pmf(set, top), top);
            }
            for (acc, &d) in sum.iter_mut().zip(deadlines) {
                *acc += tail_with_wait(|x| tail[(x.max(0.0) as usize).min(top)], &wait, d);
            }
            count += 1;
        }
        Some(sum.into_iter().map(|x| x / count as f64).collect())
    };
    let miss = match hops {
        Some(h) => miss_h(h)?,
        None => {
            let mut acc = vec![0.0; deadlines.len()];
            for h in 1..=n {
                let p = hop_probability(n, h);
                for (a, m) in acc.iter_mut().zip(miss_h(h)?) {
                    *a += p * m;
                }
            }
            acc
        }
    };
    Some((mean, miss))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The port shares against a count of every (source, destination) pair's
    /// e-cube route in the 4-cube: at router 0, which input port each
    /// header of each output link came through.
    #[test]
    fn port_shares_count_the_e_cube_routes() {
        let n = 4usize;
        let nodes = 1usize << n;
        // counts[out][port]: out 0..n−1 a dimension, n the ejection; port n
        // the injection.
        let mut counts = vec![vec![0u32; n + 1]; n + 1];
        for src in 0..nodes {
            for dst in (0..nodes).filter(|&d| d != src) {
                let (mut at, mut port) = (src, n);
                for s in (0..n).filter(|s| (src ^ dst) >> s & 1 == 1) {
                    if at == 0 {
                        counts[s][port] += 1;
                    }
                    at ^= 1 << s;
                    port = s;
                }
                if at == 0 {
                    counts[n][port] += 1;
                }
            }
        }
        for out in 0..=n {
            let total: u32 = counts[out].iter().sum();
            for port in 0..=n {
                let counted = counts[out][port] as f64 / total as f64;
                let formula = match (out == n, port == n) {
                    (false, true) => injection_share(out),
                    (false, false) if port < out => hop_port_share(out, port),
                    (true, false) => ejection_port_share(n, port),
                    _ => 0.0,
                };
                assert!((counted - formula).abs() < 1e-12, "link {out}, port {port}: counted {counted}, formula {formula}");
            }
        }
        // By hand for n = 3: link 2 from the injection ¼, dimension 0 ¼,
        // dimension 1 ½; the ejection 1/7, 2/7, 4/7.
        assert_eq!([injection_share(2), hop_port_share(2, 0), hop_port_share(2, 1)], [0.25, 0.25, 0.5]);
        assert_eq!([ejection_port_share(3, 0), ejection_port_share(3, 2)], [1.0 / 7.0, 4.0 / 7.0]);
    }

    /// S̄ per flit by hand: π = (0.7, 0.1, 0.1, 0.1) over the states
    /// (none, R1, R2, both), Vticks 8 and 16 (R2 at half R1's rate). R2
    /// sends a flit a cycle alone and one in 3 cycles beside R1 (Eq. 7:
    /// 16 (1/8 + 1/16) = 3): per flit 0.2/(0.1 + 0.1/3) = 1.5 cycles, where
    /// Eq. (6)'s (0.1 · 1 + 0.1 · 3)/0.2 = 2. R1: 1.5 cycles beside R2,
    /// 0.2/(0.1 + 0.1/1.5) = 1.2 (Eq. 6: 1.25). A class never held: 1.
    #[test]
    fn cycles_per_flit_by_flit_by_hand() {
        let (pi, vticks) = ([0.7, 0.1, 0.1, 0.1], [8.0, 16.0]);
        assert!((cycles_per_flit_by_flit(&vticks, &pi, 1) - 1.5).abs() < 1e-12);
        assert!((cycles_per_flit_by_flit(&vticks, &pi, 0) - 1.2).abs() < 1e-12);
        assert_eq!(cycles_per_flit_by_flit(&vticks, &[0.9, 0.1, 0.0, 0.0], 1), 1.0);
        // One class alone always sends a flit a cycle.
        assert_eq!(cycles_per_flit_by_flit(&vticks, &[0.6, 0.4, 0.0, 0.0], 0), 1.0);
    }

    /// `cube_vcq_body_miss_with` takes the delays it is given: with the
    /// model's own it is `cube_vcq_body_miss` exactly; with no delay on any
    /// link R2's tail is lower at every deadline (the body's delays only
    /// add), and with the ejection's lumps doubled in number higher.
    #[test]
    fn body_miss_with_takes_its_delays() {
        use super::super::cube_body_behind::Lumps;
        let mut router = super::super::kim2005::RouterModel::table1(0.004, 0.002, 0.002);
        router.vticks = vec![8.0, 16.0];
        let model = CubeModel { n: 6, router };
        let sol = model.solve().unwrap();
        let ds = [55.0, 70.0];
        let own = BodyDelays::of(&model, &sol, 1);
        let base = cube_vcq_body_miss(&model, &sol, 1, Some(2), &ds).unwrap().1;
        assert_eq!(cube_vcq_body_miss_with(&model, &sol, 1, &own, Some(2), &ds).unwrap().1, base);
        let none = BodyDelays { injection: Lumps::none(), hops: vec![Lumps::none(); 6], ejection: Lumps::none() };
        let more = BodyDelays { ejection: Lumps { count: 2.0 * own.ejection.count, ..own.ejection.clone() }, ..own.clone() };
        let (lo, hi) = (cube_vcq_body_miss_with(&model, &sol, 1, &none, Some(2), &ds).unwrap().1, cube_vcq_body_miss_with(&model, &sol, 1, &more, Some(2), &ds).unwrap().1);
        for i in 0..2 {
            assert!(lo[i] < base[i] && base[i] < hi[i], "D = {}: {} {} {}", ds[i], lo[i], base[i], hi[i]);
        }
    }

    /// On the solved 6-cube of fig7_000_cube6 at R1 + R2 = 0.006 (the
    /// Vticks 8 and 16 cycles the simulator rounds to), every link's S̄ per
    /// flit lies in [1, Eq. (6)'s] (a harmonic mean is at most the
    /// arithmetic one), strictly below it where the classes share, so the
    /// row's holds are at most the ports row's.
    #[test]
    fn by_flit_holds_lie_between_m_and_the_ports_rows() {
        let mut router = super::super::kim2005::RouterModel::table1(0.004, 0.002, 0.002);
        router.vticks = vec![8.0, 16.0];
        let model = CubeModel { n: 6, router };
        let sol = model.solve().unwrap();
        for c in 0..2 {
            let (eq6, flit) = (PortQueues::of(&model, &sol, c), PortQueues::of_by_flit(&model, &sol, c));
            for (a, b) in eq6.hop_cycles_per_flit.iter().chain([&eq6.ejection_cycles_per_flit]).zip(flit.hop_cycles_per_flit.iter().chain([&flit.ejection_cycles_per_flit])) {
                assert!(1.0 <= *b && *b < *a, "class {c}: per flit {b}, Eq. (6) {a}");
            }
            for (a, b) in eq6.holds().iter().zip(flit.holds()) {
                assert!(32.0 < b && b < *a, "class {c}: hold per flit {b}, ports row {a}");
            }
            assert_eq!((flit.rate, flit.msg_flits, flit.n), (eq6.rate, eq6.msg_flits, eq6.n));
        }
    }

    fn two_cube() -> PortQueues {
        PortQueues { n: 2, msg_flits: 32.0, rate: 0.004, ejection_cycles_per_flit: 1.1, hop_cycles_per_flit: vec![1.05, 1.2] }
    }

    /// 2-cube, M = 32, S̄ = 1.1 at the ejection (and injection), 1.05 and
    /// 1.2 at dimensions 0 and 1: body delays 3.2, 1.6, 6.4 cycles. Holds:
    /// dimension 0: 32 + 3.2 = 35.2; dimension 1: 35.2 + ½ 1.6 = 36.0;
    /// ejection: 35.2 + ⅔ (1.6 + 6.4) = 40.5333.
    #[test]
    fn holds_by_hand() {
        let h = two_cube().holds();
        for (got, want) in h.iter().zip([35.2, 36.0, 35.2 + 16.0 / 3.0]) {
            assert!((got - want).abs() < 1e-12, "{h:?}");
        }
        assert_eq!(two_cube().rates(), vec![0.004 * 2.0 / 3.0, 0.004 * 2.0 / 3.0, 0.004]);
    }

    /// The same 2-cube's mean wait. Dimension 0 is fed by the injection
    /// only (f = 1): no wait. Dimension 1: λ = 0.008/3, T = 36, ρ = 0.096,
    /// M/D/1 mean 0.096 × 36/1.808 = 1.911504; ports ½, ½ so a header waits
    /// ½ of it: 0.955752, crossed by ⅔ of the messages: 0.637168. Ejection:
    /// λ = 0.004, T = 40.5333, ρ = 0.162133, M/D/1 mean 0.162133 × 40.5333 /
    /// 1.675733 = 3.921729; ports ⅓, ⅔: 1 − 5/9 = 4/9 of it, 1.742991.
    /// Sum 2.380159 (2.3801674 unrounded).
    #[test]
    fn mean_wait_by_hand() {
        let w = two_cube().mean_wait().unwrap();
        assert!((w - 2.3801674).abs() < 1e-6, "{w}");
    }

    /// 1-cube: each link has one input port feeding it (the injection for
    /// dimension 0, dimension 0 for the ejection), so no header waits: the
    /// wait is 0 with probability 1, the mean 0.
    #[test]
    fn one_cube_never_waits() {
        let q = PortQueues { n: 1, msg_flits: 32.0, rate: 0.01, ejection_cycles_per_flit: 1.3, hop_cycles_per_flit: vec![1.2] };
        assert_eq!(q.mean_wait(), Some(0.0));
        let pmf = q.path_wait_pmf(1, 40).unwrap();
        assert!((pmf[0] - 1.0).abs() < 1e-15 && pmf[1..].iter().all(|&p| p.abs() < 1e-15), "{pmf:?}");
    }

    /// The 2-cube's 2-hop path: dimension 0 from the injection (no wait),
    /// dimension 1 from dimension 0 (f = ½), the ejection from dimension 1
    /// (f = ⅔). P{W ≤ ½} (cycle 0) is the product of the two links': at
    /// dimension 1, ½ + ½ (1 − ρ) e^{λ/2} = ½ + ½ × 0.904 × 1.0013342 =
    /// 0.952603; at the ejection, ⅔ + ⅓ × 0.837867 × e^{0.002} = 0.946515;
    /// product 0.901653. Saturation: no answer at ρ ≥ 1.
    #[test]
    fn path_wait_by_hand() {
        let pmf = two_cube().path_wait_pmf(0b11, 60).unwrap();
        assert!((pmf[0] - 0.901653).abs() < 1e-6, "{}", pmf[0]);
        let mut hot = two_cube();
        hot.rate = 0.03; // ρ = 0.03 × 40.5 > 1 at the ejection
        assert_eq!(hot.mean_wait(), None);
        assert_eq!(hot.path_wait_pmf(0b11, 60), None);
    }
}

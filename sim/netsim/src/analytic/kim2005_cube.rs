//! 000_… §3.2: the QoS router model in a binary n-cube with e-cube routing
//! (Eqs 10–15 and Appendix A), per class and per first channel s.
//!
//! How the text is read where it leaves a term open:
//! * The ejection channel's blocking probability P^n_{b,c} uses Eq. (3)
//!   with the ejection rate λ'_c and the ejection holding time
//!   L_{c,n} = P − 1 + (O_{c,n} + M) S̄_{c,n} (the single router's Eq. 2).
//! * The VC occupancy chain of channel s (Eqs 6–8) has arrivals λ_{c,s}
//!   (Appendix A's total per-channel rate) and holding times L_{c,s}(k),
//!   Eq. (10) with S_c(k) for S̄_{c,s}; the ejection chain has arrivals λ'_c
//!   and holding times L_{c,n}(k).
//! * Best effort: Eq. (13) per channel; at the ejection the effective length
//!   M_s and S_m(n) depend on s, so S̄_{C,n} is taken per first channel.
//! * B_middle, d_{c,s}, P_{t,s}, H{j|s}, S(j) exactly as Appendix A.2.

use super::kim2005::{beta_cdf, blocking_exponent, sharing_combinations, sharing_cycles, stationary, RouterModel};

pub fn binom(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// P_k: probability that a message takes k hops, C(n, k)/(N − 1).
pub fn hop_probability(n: usize, k: usize) -> f64 {
    if k == 0 || k > n {
        return 0.0;
    }
    binom(n, k) / ((1u64 << n) - 1) as f64
}

/// h̄ = Σ k P_k.
pub fn mean_hops(n: usize) -> f64 {
    (1..=n).map(|k| k as f64 * hop_probability(n, k)).sum()
}

/// h_s: mean hops of a message whose first channel is s.
pub fn hops_from_first(n: usize, s: usize) -> f64 {
    let r = n - s - 1;
    (0..=r).map(|k| (k + 1) as f64 * binom(r, k)).sum::<f64>() / (1u64 << r) as f64
}

/// λ^g_{c,s} / λ'_c (Appendix A): Σ_k P_k C(n−s−1, k−1)/C(n, k).
pub fn first_channel_share(n: usize, s: usize) -> f64 {
    (1..=n - s).map(|k| hop_probability(n, k) * binom(n - s - 1, k - 1) / binom(n, k)).sum()
}

/// Appendix A.2 for one class: B_middle(c, s) for every s, given the
/// channel blocking probabilities `pb[j]`, the 1-hop share of messages
/// starting at s (P_1 λ'_c / (n λ'_{c,s})) and max(b_s, M), M.
pub fn b_middle(n: usize, pb: &[f64], one_hop: &[f64], big: f64, m: f64) -> Vec<f64> {
    // P_k / C(n, k), 0 outside 1..=n (where both are 0).
    let q = |k: usize| if k >= 1 && k <= n { 1.0 / ((1u64 << n) - 1) as f64 } else { 0.0 };
    // S(j) depends on s too (Appendix A's S(j) is for the channel s at hand).
    let s_of = |j: usize, s: usize| -> f64 {
        (j..=n - s - 1).map(|mm| binom(n - s - 1, mm) * (0..=s).map(|k| q(mm + k + 1) * binom(s, k)).sum::<f64>()).sum()
    };
    let pt = |s: usize| (0..=s).map(|k| q(k + 1) * binom(s, k)).sum::<f64>() / s_of(0, s);
    let h = |j: usize, s: usize| -> f64 {
        let s1 = s_of(1, s);
        if s1 <= 0.0 {
            return 0.0;
        }
        (0..n - j)
            .map(|mm| (0..=s).map(|k| q(mm + k + 2) * binom(n - j - 1, mm) * binom(s, k) * (mm + 1) as f64).sum::<f64>())
            .sum::<f64>()
            / s1
    };
    // d_{c,s} from the highest channel down.
    let mut d = vec![0.0; n];
    for s in (0..n).rev() {
        let tail: f64 = (s + 1..n).map(|j| pb[j] * (d[j] + big) * h(j, s)).sum();
        d[s] = 0.5 * (big + m + (1.0 - pt(s)) * tail);
    }
    (0..n)
        .map(|s| {
            let den: f64 = (0..n - s).map(|mm| q(mm + 2) * binom(n - s - 1, mm + 1)).sum();
            if den <= 0.0 {
                return 0.0;
            }
            let sum: f64 = (s + 1..n)
                .map(|j| {
                    let w: f64 = (0..n - j).map(|mm| q(mm + 2) * (mm + 1) as f64 * binom(n - j - 1, mm)).sum();
                    pb[j] * (big + d[j]) * w / den
                })
                .sum();
            (1.0 - one_hop[s]).clamp(0.0, 1.0) * sum
        })
        .collect()
}

#[derive(Clone, Debug)]
pub struct CubeModel {
    /// Dimension n (N = 2^n nodes).
    pub n: usize,
    /// The router and workload (rates per node) as in the single-router model.
    pub router: RouterModel,
}

/// Per class: index 0..C−1 real time, the last best effort.
#[derive(Clone, Debug)]
pub struct CubeClass {
    /// L̄_c (Eq. 10 averaged with λ'_{c,s}/λ'_c).
    pub network_latency: f64,
    /// W̄_c, Eq. (15) with S̄_c of Eq. (14); infinite if λL̄ ≥ 1.
    pub source_wait: f64,
    /// L_{c,s}, s = 0..n−1.
    pub channel_latency: Vec<f64>,
    /// P^s_{b,c}, s = 0..n−1, and the ejection channel last.
    pub blocking_prob: Vec<f64>,
    /// S̄_{c,s}, s = 0..n−1, and the ejection channel last (best effort:
    /// averaged over the first channels).
    pub cycles_per_flit: Vec<f64>,
    /// λ'_{c,s} / λ'_c.
    pub first_channel_weight: Vec<f64>,
    /// Eq. (10)'s terms per first channel s, which add up to
    /// `channel_latency[s]`: the parts of a message's latency that
    /// docs/reproduction.md sets against the simulated ones.
    pub parts: Vec<LatencyParts>,
}

/// The terms of Eq. (10) for one first channel s:
/// L_{c,s} = pipeline + (O + M) S_n + (I + B_middle) S_s, the blocking
/// lengths in flits, S_n and S_s in cycles per flit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatencyParts {
    /// P − 1 + P h_s: the header without contention, cycles.
    pub pipeline: f64,
    /// M_c, O_{c,n}, I_{c,s}, B_middle(c, s), flits.
    pub message: f64,
    pub ejection_blocking: f64,
    pub input_blocking: f64,
    pub middle_blocking: f64,
    /// S_{c,n} (best effort: of first channel s) and S_{c,s}.
    pub ejection_cycles_per_flit: f64,
    pub channel_cycles_per_flit: f64,
}

impl LatencyParts {
    /// L_{c,s}, Eq. (10) (summed in its order: `channel_latency` bit for bit).
    pub fn total(&self) -> f64 {
        self.pipeline + (self.ejection_blocking + self.message) * self.ejection_cycles_per_flit + (self.input_blocking + self.middle_blocking) * self.channel_cycles_per_flit
    }

    /// The parts in cycles: M S_n, O S_n, I S_s, B_middle S_s.
    pub fn ejection_transfer_cycles(&self) -> f64 {
        self.message * self.ejection_cycles_per_flit
    }
    pub fn ejection_blocking_cycles(&self) -> f64 {
        self.ejection_blocking * self.ejection_cycles_per_flit
    }
    pub fn input_blocking_cycles(&self) -> f64 {
        self.input_blocking * self.channel_cycles_per_flit
    }
    pub fn middle_blocking_cycles(&self) -> f64 {
        self.middle_blocking * self.channel_cycles_per_flit
    }
}

#[derive(Clone, Debug)]
pub struct CubeSolution {
    pub classes: Vec<CubeClass>,
    /// Real-time VC occupancy of each channel's chain, s = 0..n−1, then
    /// the ejection channel's (bit j = real-time class j).
    pub occupancy: Vec<Vec<f64>>,
    pub iterations: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CubeError {
    /// Class `class` on channel `channel` (n = the ejection) has no steady state.
    Saturated { class: usize, channel: usize },
    NoConvergence,
    BadInput(&'static str),
}

/// Mean occupied-state sharing factor of class c (Eqs 6, 8) from a chain's π.
fn mean_sharing(vticks: &[f64], pi: &[f64], c: usize) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (z, &pz) in pi.iter().enumerate() {
        if z >> c & 1 == 1 {
            num += pz * sharing_cycles(vticks, z, c);
            den += pz;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        1.0
    }
}

/// Eq. (13) and its ejection form: cycles per best-effort message given the
/// real-time idle probability Π_0 and total real-time rate λ_r (`len` the
/// message's length M, or at the ejection its effective length M_s; `m`
/// its M). Public so that a measured Π_0 and λ_r can be put in
/// (`examples/cube_be_parts.rs`).
pub fn be_message_cycles(len: f64, m: f64, pi0: f64, lam_r: f64, ejection: bool) -> f64 {
    let rho = 1.0 - pi0;
    let busy = if lam_r > 0.0 && pi0 > 0.0 { (1.0 / lam_r) * rho / pi0 } else { 0.0 };
    let busy_len = if ejection { len / 2.0 + busy + m / 2.0 } else { len + busy };
    (len + len * rho) * pi0 + (busy_len + busy_len * rho) * (1.0 - pi0)
}

impl CubeModel {
    /// T̄ = P − 1 + P h̄ + M_c of class `c`.
    pub fn transfer_time(&self, c: usize) -> f64 {
        self.router.stages - 1.0 + self.router.stages * mean_hops(self.n) + self.router.msg_flits[c]
    }

    /// Iterates Eqs (10)–(14) with Appendix A to a fixed point in the
    /// blocking probabilities (Jacobi: every class and channel from the
    /// previous iterate, so the order does not matter; damped by 1/2).
    pub fn solve(&self) -> Result<CubeSolution, CubeError> {
        let (n, p, m) = (self.n, self.router.stages, &self.router.msg_flits);
        let nrt = self.router.rt_rates.len();
        let classes = nrt + 1;
        if m.len() != classes || m.iter().any(|&mc| !(mc >= 1.0)) {
            return Err(CubeError::BadInput("need one message length ≥ 1 flit per class, best effort last"));
        }
        let lam_g: Vec<f64> = self.router.rt_rates.iter().copied().chain([self.router.be_rate]).collect();
        // Each class's own length M_c (kim2005.rs, `RouterModel::msg_flits`).
        let big: Vec<f64> = m.iter().map(|&mc| self.router.buffer_flits.max(mc)).collect();
        let expo: Vec<f64> = m.iter().map(|&mc| blocking_exponent(self.router.buffer_flits, mc)).collect();
        let hbar = mean_hops(n);
        let share: Vec<f64> = (0..n).map(|s| first_channel_share(n, s)).collect();
        let hs: Vec<f64> = (0..n).map(|s| hops_from_first(n, s)).collect();
        let p1 = hop_probability(n, 1);
        let mut pb = vec![vec![0.0f64; n + 1]; classes];
        for it in 1..=100_000 {
            // Appendix A rates from the current blocking probabilities.
            let lam_cs: Vec<Vec<f64>> = (0..classes).map(|c| (0..n).map(|s| (1.0 - pb[c][s]) * lam_g[c] * share[s]).collect()).collect();
            let lam_c: Vec<f64> = lam_cs.iter().map(|v| v.iter().sum()).collect();
            let lam_chan: Vec<f64> = lam_c.iter().map(|l| l * hbar / n as f64).collect();
            let bmid: Vec<Vec<f64>> = (0..classes)
                .map(|c| {
                    let one_hop: Vec<f64> = (0..n).map(|s| if lam_cs[c][s] > 0.0 { p1 * lam_c[c] / (n as f64 * lam_cs[c][s]) } else { 0.0 }).collect();
                    b_middle(n, &pb[c][..n], &one_hop, big[c], m[c])
                })
                .collect();
            let inp: Vec<Vec<f64>> = (0..classes).map(|c| (0..n).map(|s| pb[c][s] * big[c] / 2.0).collect()).collect();
            let out: Vec<f64> = (0..classes).map(|c| pb[c][n] * (big[c] / 2.0 + m[c] / 2.0)).collect();
            // Ejection chain: arrivals λ'_c, holding P − 1 + (O + M) S_c(k).
            let chain = |arr: &dyn Fn(usize) -> f64, hold: &dyn Fn(usize, usize) -> f64| -> Result<Vec<f64>, usize> {
                let mut bad = None;
                let pi = stationary(nrt, |z, c| {
                    if z >> c & 1 == 0 {
                        arr(c)
                    } else {
                        let mu = 1.0 / hold(c, z) - arr(c);
                        if mu <= 0.0 {
                            bad.get_or_insert(c);
                        }
                        mu.max(1e-300)
                    }
                });
                bad.map_or(Ok(pi), Err)
            };
            let pi_n = chain(&|c| lam_c[c], &|c, z| p - 1.0 + (out[c] + m[c]) * sharing_cycles(&self.router.vticks, z, c))
                .map_err(|class| CubeError::Saturated { class, channel: n })?;
            let mut s_n: Vec<f64> = (0..nrt).map(|c| mean_sharing(&self.router.vticks, &pi_n, c)).collect();
            let mut pis = Vec::with_capacity(n + 1);
            let mut s_ch = vec![vec![1.0f64; n]; classes];
            for s in 0..n {
                let pi = chain(&|c| lam_chan[c], &|c, z| {
                    p - 1.0 + p * hs[s] + (out[c] + m[c]) * s_n[c] + (inp[c][s] + bmid[c][s]) * sharing_cycles(&self.router.vticks, z, c)
                })
                .map_err(|class| CubeError::Saturated { class, channel: s })?;
                for c in 0..nrt {
                    s_ch[c][s] = mean_sharing(&self.router.vticks, &pi, c);
                }
                pis.push(pi);
            }
            // Best effort, Eq. (13) per channel and its ejection form per s.
            let be = nrt;
            // Eq. (13)'s M is the best-effort message's length.
            let mb = m[be];
            let lam_r_ch: f64 = lam_chan[..nrt].iter().sum();
            let lam_r_n: f64 = lam_c[..nrt].iter().sum();
            let mut s_n_be = vec![1.0; n];
            for s in 0..n {
                let pi0 = pis[s][0];
                if pi0 <= 0.0 {
                    return Err(CubeError::Saturated { class: be, channel: s });
                }
                s_ch[be][s] = be_message_cycles(mb, mb, pi0, lam_r_ch, false) / mb;
                let ms = mb.max((mb - 1.0) * s_ch[be][s] + 1.0 - bmid[be][s]);
                if pi_n[0] <= 0.0 {
                    return Err(CubeError::Saturated { class: be, channel: n });
                }
                s_n_be[s] = be_message_cycles(ms, mb, pi_n[0], lam_r_n, true) / mb;
            }
            pis.push(pi_n.clone());
            // Eq. (10) per first channel; ejection holding time per class.
            let parts: Vec<Vec<LatencyParts>> = (0..classes)
                .map(|c| {
                    (0..n)
                        .map(|s| LatencyParts {
                            pipeline: p - 1.0 + p * hs[s],
                            message: m[c],
                            ejection_blocking: out[c],
                            input_blocking: inp[c][s],
                            middle_blocking: bmid[c][s],
                            ejection_cycles_per_flit: if c == be { s_n_be[s] } else { s_n[c] },
                            channel_cycles_per_flit: s_ch[c][s],
                        })
                        .collect()
                })
                .collect();
            let lat: Vec<Vec<f64>> = parts.iter().map(|v| v.iter().map(LatencyParts::total).collect()).collect();
            let weight: Vec<Vec<f64>> =
                (0..classes).map(|c| (0..n).map(|s| if lam_c[c] > 0.0 { lam_cs[c][s] / lam_c[c] } else { share[s] }).collect()).collect();
            s_n.push((0..n).map(|s| weight[be][s] * s_n_be[s]).sum());
            let mut next = vec![vec![0.0; n + 1]; classes];
            let mut delta = 0.0f64;
            for c in 0..classes {
                for s in 0..n {
                    let rho = lat[c][s] * lam_chan[c];
                    if rho >= 1.0 {
                        return Err(CubeError::Saturated { class: c, channel: s });
                    }
                    next[c][s] = rho.powf(expo[c]);
                }
                let rho_n = (p - 1.0 + (out[c] + m[c]) * s_n[c]) * lam_c[c];
                if rho_n >= 1.0 {
                    return Err(CubeError::Saturated { class: c, channel: n });
                }
                next[c][n] = rho_n.powf(expo[c]);
                for s in 0..=n {
                    delta = delta.max((next[c][s] - pb[c][s]).abs());
                }
            }
            if delta < 1e-13 {
                let out_classes = (0..classes)
                    .map(|c| {
                        let t = self.transfer_time(c);
                        let l: f64 = (0..n).map(|s| weight[c][s] * lat[c][s]).sum();
                        let sbar: f64 = (0..n).map(|s| weight[c][s] * s_ch[c][s]).sum();
                        let util = lam_g[c] * l;
                        let var = (l - t) * (l - t);
                        let wait = if util >= 1.0 { f64::INFINITY } else { lam_g[c] * l * l * (1.0 + var / (l * l)) / (2.0 * (1.0 - util)) + sbar };
                        let mut spf = s_ch[c].clone();
                        spf.push(s_n[c]);
                        CubeClass {
                            network_latency: l,
                            source_wait: wait,
                            channel_latency: lat[c].clone(),
                            blocking_prob: pb[c].clone(),
                            cycles_per_flit: spf,
                            first_channel_weight: weight[c].clone(),
                            parts: parts[c].clone(),
                        }
                    })
                    .collect();
                return Ok(CubeSolution { classes: out_classes, occupancy: pis, iterations: it });
            }
            for c in 0..classes {
                for s in 0..=n {
                    pb[c][s] = 0.5 * pb[c][s] + 0.5 * next[c][s];
                }
            }
        }
        Err(CubeError::NoConvergence)
    }
}

impl CubeModel {
    /// p.m.f. of β_{c,s} on 0..=top for every channel s and the ejection
    /// channel (index n): P_h(D) = P{β ≤ D} − P{β ≤ D − 1}, with the
    /// c.d.f. of Eqs (22), (23) (the ejection's X ranging over B + M).
    fn hop_pmfs(&self, sol: &CubeSolution, c: usize, top: usize) -> Vec<Vec<f64>> {
        self.hop_pmfs_with(sol, c, top, true)
    }

    /// [`Self::hop_pmfs`]; with `ejection_body_shared` false the ejection's
    /// β is B S + M, its body's M flits one a cycle (the row
    /// `kim2005_cube_vcq_body` charges their sharing apart).
    fn hop_pmfs_with(&self, sol: &CubeSolution, c: usize, top: usize, ejection_body_shared: bool) -> Vec<Vec<f64>> {
        let m = self.router.msg_flits[c];
        let bu = (2.0 * self.router.buffer_flits.max(m) + m).round() as usize;
        (0..=self.n)
            .map(|ch| {
                let (s, pk) = sharing_combinations(&self.router.vticks, &sol.occupancy[ch], c);
                let pb = sol.classes[c].blocking_prob[ch];
                let extra = if ch == self.n && ejection_body_shared { m as usize } else { 0 };
                let mut prev = 0.0;
                let mut pmf: Vec<f64> = (0..=top)
                    .map(|d| {
                        let f = beta_cdf(d as f64, pb, bu, extra, &s, &pk);
                        let x = f - prev;
                        prev = f;
                        x
                    })
                    .collect();
                // β ≥ M at the ejection (§3.4.1; Eq. 21's sum starts at M):
                // Eq. 19's independent uniform X put mass below M, which
                // belongs at M (a message needs M flit times to leave).
                if extra > 0 {
                    let low: f64 = pmf.iter().take(extra).sum();
                    pmf.iter_mut().take(extra).for_each(|x| *x = 0.0);
                    if let Some(x) = pmf.get_mut(extra) {
                        *x += low;
                    }
                }
                if ch == self.n && !ejection_body_shared {
                    // β = B S + M: the p.m.f. of B S moved up by M.
                    let shift = (m as usize).min(top + 1);
                    pmf.truncate(top + 1 - shift);
                    pmf.splice(0..0, std::iter::repeat(0.0).take(shift));
                }
                pmf
            })
            .collect()
    }

    /// Eqs (20)–(23): P{L_c > D} of real-time class `c` for messages of
    /// `hops` hops, averaged over their C(n, hops) channel sets (e-cube
    /// paths cross their channels in increasing order; the hops are
    /// independent, Eq. 21, so the order does not matter).
    pub fn hops_miss_probability(&self, sol: &CubeSolution, c: usize, hops: usize, deadline: f64) -> f64 {
        self.hops_miss_probability_with(sol, c, hops, deadline, true)
    }

    /// [`Self::hops_miss_probability`] with the ejection's β as
    /// [`Self::hop_pmfs_with`] takes it.
    pub fn hops_miss_probability_with(&self, sol: &CubeSolution, c: usize, hops: usize, deadline: f64, ejection_body_shared: bool) -> f64 {
        let budget = deadline - (self.router.stages - 1.0 + self.router.stages * hops as f64);
        if budget < 0.0 {
            return 1.0;
        }
        let top = budget.floor() as usize;
        let pmf = self.hop_pmfs_with(sol, c, top, ejection_body_shared);
        self.paths_miss(&pmf, hops, top)
    }

    fn paths_miss(&self, pmf: &[Vec<f64>], hops: usize, top: usize) -> f64 {
        let n = self.n;
        let (mut sum, mut count) = (0.0, 0usize);
        for set in 0usize..1 << n {
            if set.count_ones() as usize != hops {
                continue;
            }
            let mut conv: Vec<f64> = pmf[n][..=top].to_vec();
            for ch in (0..n).filter(|ch| set >> ch & 1 == 1) {
                let mut next = vec![0.0; top + 1];
                for (a, &pa) in conv.iter().enumerate() {
                    if pa == 0.0 {
                        continue;
                    }
                    for (b, &pbv) in pmf[ch][..=top - a].iter().enumerate() {
                        next[a + b] += pa * pbv;
                    }
                }
                conv = next;
            }
            sum += (1.0 - conv.iter().sum::<f64>()).clamp(0.0, 1.0);
            count += 1;
        }
        sum / count.max(1) as f64
    }

    /// P{L_c > D} over all messages of class `c`: Σ_h P_h × the h-hop value.
    pub fn miss_probability(&self, sol: &CubeSolution, c: usize, deadline: f64) -> f64 {
        self.miss_probabilities(sol, c, &[deadline])[0]
    }

    /// `miss_probability` for several deadlines, the hop p.m.f.s computed once.
    pub fn miss_probabilities(&self, sol: &CubeSolution, c: usize, deadlines: &[f64]) -> Vec<f64> {
        let top = deadlines.iter().map(|d| d - (2.0 * self.router.stages - 1.0)).fold(-1.0, f64::max);
        if top < 0.0 {
            return vec![1.0; deadlines.len()];
        }
        let pmf = self.hop_pmfs(sol, c, top.floor() as usize);
        deadlines
            .iter()
            .map(|&deadline| {
                (1..=self.n)
                    .map(|h| {
                        let b = deadline - (self.router.stages - 1.0 + self.router.stages * h as f64);
                        let miss = if b < 0.0 { 1.0 } else { self.paths_miss(&pmf, h, b.floor() as usize) };
                        hop_probability(self.n, h) * miss
                    })
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_statistics_of_a_3_cube_by_hand() {
        // 7 destinations: 3 at 1 hop, 3 at 2, 1 at 3; h̄ = 12/7.
        assert!((hop_probability(3, 2) - 3.0 / 7.0).abs() < 1e-12);
        assert!((mean_hops(3) - 12.0 / 7.0).abs() < 1e-12);
        // First channel 0: 2 free higher bits, h_0 = 1 + 2/2 = 2; h_1 = 1.5; h_2 = 1.
        assert!((hops_from_first(3, 0) - 2.0).abs() < 1e-12);
        assert!((hops_from_first(3, 1) - 1.5).abs() < 1e-12);
        assert!((hops_from_first(3, 2) - 1.0).abs() < 1e-12);
        // λ^g_{c,s}/λ: 4/7, 2/7, 1/7 (destinations whose lowest differing bit is s).
        for (s, want) in [4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0].into_iter().enumerate() {
            assert!((first_channel_share(3, s) - want).abs() < 1e-12, "s={s}");
        }
    }

    #[test]
    fn b_middle_of_a_2_cube_by_hand() {
        // n = 2, s = 0: half the messages starting on channel 0 go 2 hops
        // (1 − P_1 λ'/(n λ'_0) = 1 − (2/3)/(2 · 2/3) = 1/2); they meet channel 1
        // with blocking P^1_b and length max(b_s, M) + d_1, d_1 = (32 + 32)/2:
        // B_middle(0) = 1/2 · P^1_b · 64. Channel 1 is always the last hop.
        let b = b_middle(2, &[0.3, 0.1], &[0.5, 1.0], 32.0, 32.0);
        assert!((b[0] - 0.5 * 0.1 * 64.0).abs() < 1e-12, "{b:?}");
        assert_eq!(b[1], 0.0);
    }

    #[test]
    fn one_cube_reduces_to_two_scalar_equations() {
        // n = 1, one real-time class, no best effort: one hop, no middle
        // nodes, S = 1 everywhere. With M = b_s = 32 (max/2 = 16):
        // L_0 = 4 + 5 + (O + 32) + I, O = 32 p_n, I = 16 p_0,
        // ejection L_n = 4 + O + 32, p_0 = (L_0 λ')³, p_n = (L_n λ')³,
        // λ' = (1 − p_0) λ. Solved by plain substitution here.
        let lam = 0.012;
        let (mut p0, mut pn) = (0.0f64, 0.0f64);
        for _ in 0..2000 {
            let l = (1.0 - p0) * lam;
            let l0 = 9.0 + 32.0 * pn + 32.0 + 16.0 * p0;
            let ln = 36.0 + 32.0 * pn;
            (p0, pn) = (0.5 * p0 + 0.5 * (l0 * l).powi(3), 0.5 * pn + 0.5 * (ln * l).powi(3));
        }
        let want = 9.0 + 32.0 * pn + 32.0 + 16.0 * p0;
        let m = CubeModel { n: 1, router: RouterModel { stages: 5.0, msg_flits: vec![32.0; 2], buffer_flits: 32.0, rt_rates: vec![lam], vticks: vec![1.0 / (lam * 32.0)], be_rate: 0.0 } };
        let s = m.solve().unwrap();
        let c = &s.classes[0];
        assert!((c.network_latency - want).abs() < 1e-9, "{} vs {want}", c.network_latency);
        assert!((c.blocking_prob[0] - p0).abs() < 1e-9 && (c.blocking_prob[1] - pn).abs() < 1e-9);
        // Eq. (10)'s terms as written above: 9, 32 + 32 p_n at the
        // ejection, 16 p_0 at the input, no middle nodes, S = 1.
        let t = &c.parts[0];
        assert_eq!((t.pipeline, t.message, t.middle_blocking), (9.0, 32.0, 0.0));
        assert!((t.ejection_blocking - 32.0 * pn).abs() < 1e-9 && (t.input_blocking - 16.0 * p0).abs() < 1e-9, "{t:?}");
        assert_eq!((t.ejection_cycles_per_flit, t.channel_cycles_per_flit), (1.0, 1.0));
        assert_eq!(t.total(), c.channel_latency[0]);
    }

    #[test]
    fn zero_load_latency_is_the_pipelined_transfer_time() {
        // T̄ = P − 1 + P h̄ + M: 6-cube, h̄ = 6·32/63.
        let m = CubeModel { n: 6, router: RouterModel { stages: 5.0, msg_flits: vec![32.0; 3], buffer_flits: 32.0, rt_rates: vec![1e-9, 5e-10], vticks: vec![1e6, 2e6], be_rate: 1e-9 } };
        let s = m.solve().unwrap();
        let t = 4.0 + 5.0 * 192.0 / 63.0 + 32.0;
        for c in &s.classes {
            assert!((c.network_latency - t).abs() < 1e-5, "{} vs {t}", c.network_latency);
        }
    }

    #[test]
    fn one_hop_miss_probability_by_hand() {
        // 1-cube, one real-time class (S = 1, one combination with P = 1):
        // β = X_0 + X_n, X_0 = 0 w.p. 1 − p_0 else uniform on 1..=B_0, X_n
        // uniform on 1..=B_n + 32 but at least M = 32 (β ≥ M). With no
        // blocking (λ → 0), β = 32 and D' = D − (P − 1 + P·1) = D − 9: the
        // deadline is met iff D ≥ 41.
        let m = CubeModel { n: 1, router: RouterModel { stages: 5.0, msg_flits: vec![32.0; 2], buffer_flits: 32.0, rt_rates: vec![1e-12], vticks: vec![1e6], be_rate: 0.0 } };
        let s = m.solve().unwrap();
        for (d, want) in [(20.0, 1.0), (40.0, 1.0), (41.0, 0.0), (80.0, 0.0)] {
            assert!((m.hops_miss_probability(&s, 0, 1, d) - want).abs() < 1e-9, "D={d}");
            assert!((m.miss_probability(&s, 0, d) - want).abs() < 1e-9);
        }
        // With blocking on the ejection channel only (p_n = P{B_n > 0}), a
        // deadline of 41 is missed exactly when B_n > 0 and X_n > 32:
        // p_n · Σ_B (B/(B + 32))/96, B = 1..=96.
        let lam = 0.012;
        let m = CubeModel { router: RouterModel { rt_rates: vec![lam], vticks: vec![1.0 / (lam * 32.0)], ..m.router }, ..m };
        let s = m.solve().unwrap();
        let (p0, pn) = (s.classes[0].blocking_prob[0], s.classes[0].blocking_prob[1]);
        let tail: f64 = (1..=96).map(|b| b as f64 / (b as f64 + 32.0) / 96.0).sum();
        // Channel 0 blocks too: then X_0 ≥ 1 and β > 32 whatever X_n is.
        let want = 1.0 - (1.0 - p0) * (1.0 - pn * tail);
        assert!((m.hops_miss_probability(&s, 0, 1, 41.0) - want).abs() < 1e-9, "{want}");
        // The ejection's β as B S + M (`kim2005_cube_vcq_body`): its M
        // flits no longer spread over 1..=B + M, so D = 41 (β ≤ 32) is met
        // only when neither channel blocks: 1 − (1 − p_0)(1 − p_n); one
        // more cycle also passes X = 1 on either, X uniform on 1..=B:
        // P{β ≤ 33} = (1 − p_0)(1 − p_n) + [(1 − p_0) p_n + p_0 (1 − p_n)] Σ_B (1/B)/96.
        let apart = 1.0 - (1.0 - p0) * (1.0 - pn);
        assert!((m.hops_miss_probability_with(&s, 0, 1, 41.0, false) - apart).abs() < 1e-9, "{apart}");
        let one: f64 = (1..=96).map(|b| 1.0 / b as f64 / 96.0).sum();
        let met = (1.0 - p0) * (1.0 - pn) + ((1.0 - p0) * pn + p0 * (1.0 - pn)) * one;
        assert!((m.hops_miss_probability_with(&s, 0, 1, 42.0, false) - (1.0 - met)).abs() < 1e-9, "{}", 1.0 - met);
        assert_eq!(m.hops_miss_probability_with(&s, 0, 1, 41.0, true), m.hops_miss_probability(&s, 0, 1, 41.0));
    }

    #[test]
    fn longer_paths_miss_more_in_a_6_cube() {
        // 000_… Fig. 14 setting: 2-hop messages against D = 55, 5-hop against
        // D = 70 (transfer times 46 and 61), R1 = 0.002.
        let r1 = 0.002;
        let m = CubeModel { n: 6, router: RouterModel { stages: 5.0, msg_flits: vec![32.0; 3], buffer_flits: 32.0, rt_rates: vec![r1, r1 / 2.0], vticks: vec![1.0 / (r1 * 32.0), 2.0 / (r1 * 32.0)], be_rate: 0.002 } };
        let s = m.solve().unwrap();
        let (two, five) = (m.hops_miss_probability(&s, 0, 2, 55.0), m.hops_miss_probability(&s, 0, 5, 70.0));
        assert!(two > 0.0 && five > two && five < 1.0, "{two} {five}");
        // A later deadline is missed less; R2 (larger Vtick) misses more.
        assert!(m.hops_miss_probability(&s, 0, 2, 60.0) < two);
        assert!(m.hops_miss_probability(&s, 1, 2, 55.0) > two);
    }

    #[test]
    fn classes_order_and_saturation() {
        // 000_… Fig. 7 setting (6-cube, BE 0.002): R1 < R2, latency grows with load.
        let at = |r1: f64| {
            let m = CubeModel { n: 6, router: RouterModel { stages: 5.0, msg_flits: vec![32.0; 3], buffer_flits: 32.0, rt_rates: vec![r1, r1 / 2.0], vticks: vec![1.0 / (r1 * 32.0), 2.0 / (r1 * 32.0)], be_rate: 0.002 } };
            m.solve()
        };
        let a = at(0.002).unwrap();
        let b = at(0.004).unwrap();
        assert!(a.classes[0].network_latency < a.classes[1].network_latency);
        assert!(b.classes[0].network_latency > a.classes[0].network_latency);
        assert!(matches!(at(0.05), Err(CubeError::Saturated { .. })));
    }
}

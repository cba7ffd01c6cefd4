//! Single-router latency model of Kim, Yum and Das (000_… §3.1, Eqs (1)–(9)
//! and (15)): a P-stage pipelined wormhole router, one VC per class,
//! C − 1 real-time classes sharing the output link by VirtualClock and one
//! best-effort class served only when no real-time VC is occupied.
//!
//! Rates are messages per cycle per input port; with uniform destinations
//! the same rate arrives at each output port. Latencies are in cycles.

/// Inputs of the model (000_… Table 1 defaults in [`RouterModel::table1`]).
#[derive(Clone, Debug)]
pub struct RouterModel {
    /// Pipeline stages P (5 in the paper's router and in ours).
    pub stages: f64,
    /// Message length M_c in flits of each class: real time in the order
    /// of `rt_rates`, best effort last (000_… Fig. 10: best effort 64 beside
    /// real time 32). The paper's M is one length; each class's own length
    /// enters its transfer time, its blocking exponent and length (Eqs 3,
    /// 5: the messages ahead in its own VC are of its class) and its VC
    /// occupancy (Eqs 2, 8); best effort's Eq. (9) sees the real-time
    /// residual Σ λ'_c M_c²/2 ([`best_effort_cycles_with_lengths`]).
    pub msg_flits: Vec<f64>,
    /// Input / output VC buffer depth b_s in flits.
    pub buffer_flits: f64,
    /// Generation rate λ^g of each real-time class, messages/cycle/port.
    pub rt_rates: Vec<f64>,
    /// Vtick of each real-time class, cycles per flit.
    pub vticks: Vec<f64>,
    /// Generation rate of the best-effort class.
    pub be_rate: f64,
}

/// Per-class outputs; index `0..C-1` real time in the order of
/// `rt_rates`, the last entry best effort.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassResult {
    /// λ'_c, Eq. (4).
    pub rate_effective: f64,
    /// P_{b,c}, Eq. (3).
    pub blocking_prob: f64,
    /// B̄_c in flits, Eq. (5).
    pub blocking_flits: f64,
    /// S̄_c in cycles per flit, Eqs (6)–(9).
    pub cycles_per_flit: f64,
    /// L̄_c, Eq. (2).
    pub network_latency: f64,
    /// W̄_c, Eq. (15) with the single router's S̄_c.
    pub source_wait: f64,
}

impl ClassResult {
    /// Message latency, Eq. (1).
    pub fn latency(&self) -> f64 {
        self.network_latency + self.source_wait
    }
}

#[derive(Clone, Debug)]
pub struct Solution {
    pub classes: Vec<ClassResult>,
    /// ρ_r = 1 − Π_0: probability that some real-time output VC is occupied.
    pub rt_utilization: f64,
    /// Stationary distribution of the real-time VC occupancy chain (bit j
    /// of the state = class j occupied) at the fixed point.
    pub occupancy: Vec<f64>,
    pub iterations: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// A real-time class's rate out of its busy state, 1/L_c(k) − λ'_c, or
    /// the best-effort server (1 − ρ_r) is not positive: the model has no
    /// steady state at this load. (An unstable source queue is not an
    /// error: its W̄_c is infinite.)
    Saturated { class: usize },
    /// The iteration did not settle while this class's utilisation λ'L̄
    /// kept reaching 1 (Eq. 3's P_b = 1): no fixed point below saturation.
    Overloaded { class: usize },
    NoConvergence,
    BadInput(&'static str),
}

/// Eq. (7): cycles per flit of class `c` when the real-time VCs in `busy`
/// (bit j = class j, which includes c) share the link in proportion to 1/Vtick.
pub fn sharing_cycles(vticks: &[f64], busy: usize, c: usize) -> f64 {
    let total: f64 = (0..vticks.len()).filter(|j| busy >> j & 1 == 1).map(|j| 1.0 / vticks[j]).sum();
    total * vticks[c]
}

/// Eq. (9): cycles per best-effort flit when real time occupies the link
/// with probability ρ_r (preemptive-resume priority).
pub fn best_effort_cycles(rho_r: f64) -> f64 {
    (2.0 - rho_r) / (2.0 * (1.0 - rho_r) * (1.0 - rho_r))
}

/// Eq. (9) before the paper's simplification, for real-time messages of
/// mean residual length `residual_ratio` · M_C: S_m = M_C + R_r/(1 − ρ_r) +
/// ρ_r S_m with R_r = Σ λ'_c M_c²/2 = ρ_r M̄_r/2, M̄_r = Σ λ'_c M_c² / Σ λ'_c M_c
/// (the M/G/1 residual), so S̄_C = S_m/M_C = (1 + ρ_r r / (2(1 − ρ_r)))/(1 − ρ_r)
/// with r = M̄_r/M_C, i.e. (2 − ρ_r + ρ_r(r − 1))/(2(1 − ρ_r)²): with one
/// length (r = 1) exactly Eq. (9).
pub fn best_effort_cycles_with_lengths(rho_r: f64, residual_ratio: f64) -> f64 {
    (2.0 - rho_r + rho_r * (residual_ratio - 1.0)) / (2.0 * (1.0 - rho_r) * (1.0 - rho_r))
}

/// M̄_r / M_C of [`best_effort_cycles_with_lengths`]: the real-time
/// classes' length-weighted mean length (rates `rt_rates`, lengths
/// `rt_flits`) over best effort's length `be_flits`; exactly 1 without
/// real time or with one length for all.
pub fn residual_ratio(rt_rates: &[f64], rt_flits: &[f64], be_flits: f64) -> f64 {
    let first: f64 = rt_rates.iter().zip(rt_flits).map(|(l, m)| l * m).sum();
    let second: f64 = rt_rates.iter().zip(rt_flits).map(|(l, m)| l * m * m).sum();
    if first > 0.0 && rt_flits.iter().any(|&m| m != be_flits) {
        second / first / be_flits
    } else {
        1.0
    }
}

/// Exponent of Eq. (3): 1 + 2 max(b_s, M)/M messages fit in the input and
/// output buffers plus the one in service.
pub fn blocking_exponent(buffer_flits: f64, msg_flits: f64) -> f64 {
    1.0 + 2.0 * buffer_flits.max(msg_flits) / msg_flits
}

/// Stationary distribution of a continuous-time Markov chain on the 2^n
/// occupancy states of n VCs, where `rate(z, c)` is the rate of flipping
/// bit c of state z. Solved by Gaussian elimination of πQ = 0 with one
/// balance equation replaced by Σπ = 1.
pub fn stationary(n: usize, mut rate: impl FnMut(usize, usize) -> f64) -> Vec<f64> {
    let s = 1usize << n;
    // a[i][j] = Q[j][i] (transpose), so that a·π = 0.
    let mut a = vec![vec![0.0f64; s + 1]; s];
    for z in 0..s {
        for c in 0..n {
            let r = rate(z, c);
            let to = z ^ (1 << c);
            a[to][z] += r;
            a[z][z] -= r;
        }
    }
    for j in 0..s {
        a[s - 1][j] = 1.0;
    }
    a[s - 1][s] = 1.0;
    for col in 0..s {
        let piv = (col..s).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap();
        a.swap(col, piv);
        let p = a[col][col];
        for j in col..=s {
            a[col][j] /= p;
        }
        for r in 0..s {
            if r != col && a[r][col] != 0.0 {
                let f = a[r][col];
                for j in col..=s {
                    a[r][j] -= f * a[col][j];
                }
            }
        }
    }
    (0..s).map(|i| a[i][s]).collect()
}

impl RouterModel {
    /// 000_… Table 1: 16-port router, P = 5, M = 32, b_s = 32, two real-time
    /// classes (R1 at `r1` messages/cycle, R2 at half that rate) with
    /// Vtick = 1/(λM), best effort at `be`.
    pub fn table1(r1: f64, r2: f64, be: f64) -> Self {
        let m = 32.0;
        RouterModel {
            stages: 5.0,
            msg_flits: vec![m; 3],
            buffer_flits: 32.0,
            rt_rates: vec![r1, r2],
            vticks: vec![1.0 / (r1 * m), 1.0 / (r2 * m)],
            be_rate: be,
        }
    }

    /// Transfer time of class `c` without contention, P − 1 + M_c.
    pub fn transfer_time(&self, c: usize) -> f64 {
        self.stages - 1.0 + self.msg_flits[c]
    }

    /// Iterates Eqs (2)–(9) to their fixed point (the paper: "the solution
    /// becomes iterative"), damped because P_b is a steep power of L.
    pub fn solve(&self) -> Result<Solution, ModelError> {
        let n = self.rt_rates.len();
        if n == 0 || n > 16 || self.vticks.len() != n {
            return Err(ModelError::BadInput("need 1..=16 real-time classes, one Vtick each"));
        }
        if self.msg_flits.len() != n + 1 || self.msg_flits.iter().any(|&m| !(m >= 1.0)) {
            return Err(ModelError::BadInput("need one message length ≥ 1 flit per class, best effort last"));
        }
        if self.rt_rates.iter().chain([&self.be_rate]).any(|&r| !(r >= 0.0)) || self.vticks.iter().any(|&v| !(v > 0.0)) {
            return Err(ModelError::BadInput("rates must be ≥ 0 and Vticks > 0"));
        }
        let (p, m, bs) = (self.stages, &self.msg_flits, self.buffer_flits);
        let lam_g: Vec<f64> = self.rt_rates.iter().copied().chain([self.be_rate]).collect();
        let expo: Vec<f64> = m.iter().map(|&mc| blocking_exponent(bs, mc)).collect();
        let mut pb = vec![0.0f64; n + 1];
        // A class whose utilisation λ'L̄ reached 1 in the last iterations:
        // when the iteration does not settle, that is saturation.
        let mut busy_at_cap = None;
        for it in 1..=100_000 {
            if it % 1000 == 0 {
                busy_at_cap = None;
            }
            let lam: Vec<f64> = (0..=n).map(|c| (1.0 - pb[c]) * lam_g[c]).collect();
            let blk: Vec<f64> = pb.iter().zip(m).map(|(&b, &mc)| b * (bs.max(mc) + mc / 2.0)).collect();
            let lat_k = |c: usize, z: usize| p - 1.0 + (blk[c] + m[c]) * sharing_cycles(&self.vticks, z, c);
            let mut bad = None;
            let pi = stationary(n, |z, c| {
                if z >> c & 1 == 0 {
                    lam[c]
                } else {
                    let mu = 1.0 / lat_k(c, z) - lam[c];
                    if mu <= 0.0 {
                        bad.get_or_insert(c);
                    }
                    mu.max(1e-300)
                }
            });
            if let Some(class) = bad {
                return Err(ModelError::Saturated { class });
            }
            let mut s = vec![0.0f64; n + 1];
            for c in 0..n {
                let (mut num, mut den) = (0.0, 0.0);
                for (z, &pz) in pi.iter().enumerate() {
                    if z >> c & 1 == 1 {
                        num += pz * sharing_cycles(&self.vticks, z, c);
                        den += pz;
                    }
                }
                s[c] = if den > 0.0 { num / den } else { 1.0 };
            }
            let rho_r = 1.0 - pi[0];
            if rho_r >= 1.0 {
                return Err(ModelError::Saturated { class: n });
            }
            s[n] = best_effort_cycles_with_lengths(rho_r, residual_ratio(&lam[..n], &m[..n], m[n]));
            let lat: Vec<f64> = (0..=n).map(|c| p - 1.0 + (m[c] + blk[c]) * s[c]).collect();
            let mut delta = 0.0f64;
            let mut next = vec![0.0; n + 1];
            for c in 0..=n {
                let rho = (lat[c] * lam[c]).min(1.0);
                if rho >= 1.0 {
                    busy_at_cap.get_or_insert(c);
                }
                next[c] = rho.powf(expo[c]);
                delta = delta.max((next[c] - pb[c]).abs());
            }
            if delta < 1e-13 {
                let classes = (0..=n)
                    .map(|c| {
                        let t = self.transfer_time(c);
                        let l = lat[c];
                        let util = lam_g[c] * l;
                        let var = (l - t) * (l - t);
                        // The source queue (M/G/1 with service L̄) can be unstable
                        // while the router itself still has a fixed point.
                        let wait = if util >= 1.0 { f64::INFINITY } else { lam_g[c] * l * l * (1.0 + var / (l * l)) / (2.0 * (1.0 - util)) + s[c] };
                        ClassResult {
                            rate_effective: lam[c],
                            blocking_prob: pb[c],
                            blocking_flits: blk[c],
                            cycles_per_flit: s[c],
                            network_latency: l,
                            source_wait: wait,
                        }
                    })
                    .collect();
                return Ok(Solution { classes, rt_utilization: rho_r, occupancy: pi, iterations: it });
            }
            for c in 0..=n {
                pb[c] = 0.5 * pb[c] + 0.5 * next[c];
            }
        }
        Err(busy_at_cap.map_or(ModelError::NoConvergence, |class| ModelError::Overloaded { class }))
    }
}

impl RouterModel {
    /// Deadline missing probability of real-time class `c` for a network
    /// latency deadline `deadline` (cycles), Eqs (16)–(19): β = L − (P − 1)
    /// is Σ_k X_k S_c(k) over the 2^(C−2) sharing combinations k, with the
    /// blocking length B uniform on 1..=2max(b_s,M)+M with total probability
    /// P_b (Eq. 18) and each X_k uniform on 1..=B+M with total probability
    /// P_c(k) (Eq. 19), all independent as the paper assumes.
    pub fn deadline_miss_probability(&self, sol: &Solution, c: usize, deadline: f64) -> f64 {
        assert!(c < self.rt_rates.len(), "real-time classes only");
        let m = self.msg_flits[c];
        let (s, pk) = sharing_combinations(&self.vticks, &sol.occupancy, c);
        let bu = (2.0 * self.buffer_flits.max(m) + m).round() as usize;
        let ok = beta_cdf(deadline - (self.stages - 1.0), sol.classes[c].blocking_prob, bu, m as usize, &s, &pk);
        (1.0 - ok).clamp(0.0, 1.0)
    }
}

/// S_c(k) and P_c(k) (Eqs 7, 8) of real-time class `c` from a chain's
/// stationary distribution, k numbered by ν (bit i = the i-th other class).
pub fn sharing_combinations(vticks: &[f64], occupancy: &[f64], c: usize) -> (Vec<f64>, Vec<f64>) {
    let others: Vec<usize> = (0..vticks.len()).filter(|&j| j != c).collect();
    let combos = 1usize << others.len();
    let state = |k: usize| others.iter().enumerate().fold(1usize << c, |z, (i, &j)| z | ((k >> i & 1) << j));
    let s: Vec<f64> = (0..combos).map(|k| sharing_cycles(vticks, state(k), c)).collect();
    let busy: f64 = (0..combos).map(|k| occupancy[state(k)]).sum();
    let pk = (0..combos).map(|k| if busy > 0.0 { occupancy[state(k)] / busy } else { (k == 0) as u8 as f64 }).collect();
    (s, pk)
}

/// P{β ≤ budget} of Eqs (17)–(19) (single router, `extra` = M) and (22),
/// (23) (a middle hop, `extra` = 0): β = Σ_k X_k S_k, the blocking length B
/// is 0 with probability 1 − P_b and uniform on 1..=`bu` otherwise, each
/// X_k is 0 with probability 1 − P(k) and uniform on 1..=B + extra
/// otherwise, all independent as the paper assumes.
pub fn beta_cdf(budget: f64, pb: f64, bu: usize, extra: usize, s: &[f64], pk: &[f64]) -> f64 {
    // P{Σ_{k ≥ i} X_k S_k ≤ budget | B}, by recursion over k.
    fn within(i: usize, budget: f64, len: usize, s: &[f64], pk: &[f64]) -> f64 {
        if budget < 0.0 {
            return 0.0;
        }
        if i == s.len() || len == 0 {
            return 1.0;
        }
        let mut p = (1.0 - pk[i]) * within(i + 1, budget, len, s, pk);
        let top = ((budget / s[i]).floor() as usize).min(len);
        if i + 1 == s.len() {
            return p + pk[i] * top as f64 / len as f64;
        }
        for x in 1..=top {
            p += pk[i] / len as f64 * within(i + 1, budget - x as f64 * s[i], len, s, pk);
        }
        p
    }
    let mut ok = (1.0 - pb) * within(0, budget, extra, s, pk);
    for b in 1..=bu {
        ok += pb / bu as f64 * within(0, budget, b + extra, s, pk);
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq9_matches_unsimplified_preemptive_resume_form() {
        // S_m = M + R_r/(1-ρ) + ρ S_m with R_r = ρ M / 2; at ρ = 0.5:
        // 0.5 S_m = M + 0.5 M  =>  S_m = 3 M.
        assert!((best_effort_cycles(0.5) - 3.0).abs() < 1e-12);
        assert_eq!(best_effort_cycles(0.0), 1.0);
        // ρ = 0.2: (1.8)/(2·0.64) = 1.40625.
        assert!((best_effort_cycles(0.2) - 1.40625).abs() < 1e-12);
    }

    #[test]
    fn eq9_with_per_class_lengths_by_hand() {
        // Real time M = 32 at λ' = 0.01 (ρ = 0.32 if alone), best effort M_C = 64:
        // M̄_r = 32, r = 0.5. At ρ_r = 0.5: S_m = 64 + (0.5·32/2)/0.5 + 0.5 S_m,
        // so S_m = 2·(64 + 16) = 160 and S̄_C = 160/64 = 2.5 (3 with r = 1).
        let r = residual_ratio(&[0.01], &[32.0], 64.0);
        assert_eq!(r, 0.5);
        assert!((best_effort_cycles_with_lengths(0.5, r) - 2.5).abs() < 1e-12);
        assert_eq!(best_effort_cycles_with_lengths(0.5, residual_ratio(&[0.01, 0.02], &[32.0, 32.0], 32.0)), best_effort_cycles(0.5));
        // Two real-time lengths 16 and 48 at equal rates: M̄_r = (256 + 2304)/64 = 40.
        assert!((residual_ratio(&[0.01, 0.01], &[16.0, 48.0], 32.0) - 40.0 / 32.0).abs() < 1e-12);
    }

    #[test]
    fn longer_best_effort_messages_leave_real_time_alone_and_take_longer() {
        // 000_… Fig. 10's claim in the model: best effort M = 64 instead of
        // 32 at the same message rate changes no real-time term (the real-time
        // equations do not contain best effort), best effort's transfer time
        // P − 1 + M doubles its length part.
        let base = RouterModel::table1(0.004, 0.002, 0.005);
        let long = RouterModel { msg_flits: vec![32.0, 32.0, 64.0], ..base.clone() };
        let (a, b) = (base.solve().unwrap(), long.solve().unwrap());
        for c in 0..2 {
            // (The same fixed point, reached in a different number of iterations.)
            assert!((a.classes[c].network_latency - b.classes[c].network_latency).abs() < 1e-9);
        }
        assert_eq!(long.transfer_time(2), 68.0);
        assert!(b.classes[2].network_latency > a.classes[2].network_latency + 32.0, "{:?} vs {:?}", a.classes[2], b.classes[2]);
        // Eq. (3)'s exponent for the 64-flit class: 1 + 2·64/64 = 3 (b_s = 32 < M).
        assert_eq!(blocking_exponent(32.0, 64.0), 3.0);
    }

    #[test]
    fn eq7_sharing_factors_of_the_two_class_example() {
        let vt = [50.0, 100.0];
        assert_eq!(sharing_cycles(&vt, 0b01, 0), 1.0);
        assert_eq!(sharing_cycles(&vt, 0b10, 1), 1.0);
        assert!((sharing_cycles(&vt, 0b11, 0) - 1.5).abs() < 1e-12);
        assert!((sharing_cycles(&vt, 0b11, 1) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn eq3_exponent() {
        assert_eq!(blocking_exponent(32.0, 32.0), 3.0);
        // b_s < M: a new message waits for the whole previous one.
        assert_eq!(blocking_exponent(4.0, 32.0), 3.0);
        assert_eq!(blocking_exponent(64.0, 32.0), 5.0);
    }

    #[test]
    fn stationary_of_independent_vcs_is_the_product_form() {
        // Flip rates that do not depend on the other bits: each VC is an
        // independent on/off chain with P[on] = a/(a+b).
        let (a, b) = ([0.3, 1.0, 0.2], [0.7, 1.0, 0.6]);
        let pi = stationary(3, |z, c| if z >> c & 1 == 0 { a[c] } else { b[c] });
        for z in 0..8 {
            let want: f64 = (0..3).map(|c| if z >> c & 1 == 1 { a[c] / (a[c] + b[c]) } else { b[c] / (a[c] + b[c]) }).product();
            assert!((pi[z] - want).abs() < 1e-12, "z={z}: {} vs {want}", pi[z]);
        }
    }

    #[test]
    fn zero_load_gives_the_pipeline_transfer_time() {
        let s = RouterModel::table1(1e-12, 5e-13, 1e-12).solve().unwrap();
        for c in &s.classes {
            assert!((c.network_latency - 36.0).abs() < 1e-6, "{c:?}");
            // Eq. (15): an empty source queue leaves only the header's one cycle.
            assert!((c.source_wait - 1.0).abs() < 1e-6, "{c:?}");
        }
    }

    #[test]
    fn one_real_time_class_busy_probability_is_its_utilization() {
        // Two-state chain: π1 = λ'/(λ' + 1/L − λ') = λ' L.
        let m = RouterModel { stages: 5.0, msg_flits: vec![32.0; 2], buffer_flits: 32.0, rt_rates: vec![0.01], vticks: vec![1.0 / 0.32], be_rate: 0.005 };
        let s = m.solve().unwrap();
        let rt = &s.classes[0];
        assert!((s.rt_utilization - rt.rate_effective * rt.network_latency).abs() < 1e-9);
        // Alone on its VC class 0 never shares: S = 1, so L = 36 + B.
        assert!((rt.cycles_per_flit - 1.0).abs() < 1e-12);
        assert!((rt.network_latency - (36.0 + rt.blocking_flits)).abs() < 1e-9);
        // Fixed point of Eqs (3)-(5): P_b = (λ'L)^3, λ' = (1 − P_b) λ.
        let want_pb = (rt.rate_effective * rt.network_latency).powi(3);
        assert!((rt.blocking_prob - want_pb).abs() < 1e-9);
        assert!((rt.rate_effective - (1.0 - rt.blocking_prob) * 0.01).abs() < 1e-12);
        // Best effort sees (2 − ρ)/(2(1 − ρ)^2) cycles per flit.
        assert!((s.classes[1].cycles_per_flit - best_effort_cycles(s.rt_utilization)).abs() < 1e-12);
    }

    #[test]
    fn virtualclock_orders_the_classes_as_the_paper_reports() {
        // 000_… §4.1: R1 (smaller Vtick) below R2 below best effort.
        for r1 in [0.002, 0.004, 0.006] {
            let s = RouterModel::table1(r1, r1 / 2.0, 0.01).solve().unwrap();
            let l: Vec<f64> = s.classes.iter().map(|c| c.network_latency).collect();
            assert!(l[0] < l[1] && l[1] < l[2], "r1={r1}: {l:?}");
        }
    }

    #[test]
    fn deadline_miss_probability_of_a_single_real_time_class() {
        // One real-time class: a single combination with S = 1 and P = 1, so
        // Eq. (17) reduces to P{β ≤ D'} = Σ_B P_m(B) min(B + M, D')/(B + M).
        let m = RouterModel { stages: 5.0, msg_flits: vec![32.0; 2], buffer_flits: 32.0, rt_rates: vec![0.01], vticks: vec![1.0 / 0.32], be_rate: 0.005 };
        let sol = m.solve().unwrap();
        let pb = sol.classes[0].blocking_prob;
        for d in [36.0f64, 42.0, 47.0, 80.0] {
            let dp = d - 4.0;
            let mut ok = (1.0 - pb) * (32.0f64.min(dp.floor()) / 32.0);
            for b in 1..=96 {
                let len = (b + 32) as f64;
                ok += pb / 96.0 * (len.min(dp.floor()) / len);
            }
            let got = m.deadline_miss_probability(&sol, 0, d);
            assert!((got - (1.0 - ok)).abs() < 1e-12, "D={d}: {got} vs {}", 1.0 - ok);
        }
        // A deadline beyond the worst case (B = 96, β = 128) is never missed.
        assert_eq!(m.deadline_miss_probability(&sol, 0, 4.0 + 128.0), 0.0);
    }

    #[test]
    fn deadline_miss_probability_falls_with_the_deadline() {
        let m = RouterModel::table1(0.005, 0.0025, 0.01);
        let sol = m.solve().unwrap();
        for c in 0..2 {
            let p: Vec<f64> = [38.0, 42.0, 47.0, 60.0, 100.0].iter().map(|&d| m.deadline_miss_probability(&sol, c, d)).collect();
            assert!(p.windows(2).all(|w| w[1] <= w[0]) && p[0] > p[4], "class {c}: {p:?}");
        }
        // R1 (smaller Vtick, smaller sharing factor) misses less than R2.
        assert!(m.deadline_miss_probability(&sol, 0, 42.0) < m.deadline_miss_probability(&sol, 1, 42.0));
    }

    #[test]
    fn fig3_two_class_chain_solved_by_hand() {
        // 000_… Fig. 3 with bit 0 = d_1 (class 1), bit 1 = d_2 (class 2):
        // arrivals a = λ'_1 = 1, b = λ'_2 = 2; departures u = 1/L_1(0) − λ'_1
        // = 3 from (1,0), v = 1/L_2(0) − λ'_2 = 4 from (0,1), x = 1/L_1(1) − λ'_1
        // = 5 and y = 1/L_2(1) − λ'_2 = 6 from (1,1). Balance:
        //   (a + b) π00 = u π10 + v π01,  (u + b) π10 = a π00 + y π11,
        //   (v + a) π01 = b π00 + x π11,  Σ π = 1.
        // Eliminating π10 = (π00 + 6 π11)/5 and π01 = (2 π00 + 5 π11)/5 from the
        // first two gives π11 = (10/95) π00, so π00 = 95/184, π10 = 31/184,
        // π01 = 48/184 = 6/23, π11 = 10/184 = 5/92.
        let (a, b, u, v, x, y) = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
        let pi = stationary(2, |z, c| match (z, c) {
            (0b00 | 0b10, 0) => a,
            (0b00 | 0b01, 1) => b,
            (0b01, 0) => u,
            (0b10, 1) => v,
            (0b11, 0) => x,
            (0b11, 1) => y,
            _ => unreachable!(),
        });
        for (got, want) in pi.iter().zip([95.0 / 184.0, 31.0 / 184.0, 6.0 / 23.0, 5.0 / 92.0]) {
            assert!((got - want).abs() < 1e-12, "{pi:?}");
        }
    }

    #[test]
    fn eq7_with_three_real_time_classes() {
        // Vticks 10, 20, 40: all three busy share 1/10 + 1/20 + 1/40 = 7/40,
        // so S = 1.75, 3.5, 7 cycles per flit; classes 1 and 3 alone: 1.25, 5.
        let vt = [10.0, 20.0, 40.0];
        assert!((sharing_cycles(&vt, 0b111, 0) - 1.75).abs() < 1e-12);
        assert!((sharing_cycles(&vt, 0b111, 1) - 3.5).abs() < 1e-12);
        assert!((sharing_cycles(&vt, 0b111, 2) - 7.0).abs() < 1e-12);
        assert!((sharing_cycles(&vt, 0b101, 0) - 1.25).abs() < 1e-12);
        assert!((sharing_cycles(&vt, 0b101, 2) - 5.0).abs() < 1e-12);
    }

    #[test]
    fn two_class_fixed_point_satisfies_eqs_2_to_9() {
        // Table 1 at R1 = 0.004, R2 = 0.002, BE = 0.01: the solution must
        // satisfy each equation written out for C − 1 = 2 (bit 0 = R1).
        let m = RouterModel::table1(0.004, 0.002, 0.01);
        let s = m.solve().unwrap();
        let pi = &s.occupancy;
        let (v1, v2) = (m.vticks[0], m.vticks[1]);
        // Eq. 7: both busy -> S_1(1) = 1 + v1/v2, S_2(1) = 1 + v2/v1.
        let (s1, s2) = (1.0 + v1 / v2, 1.0 + v2 / v1);
        // Eqs 6, 8: S̄_1 = (π10·1 + π11·S_1(1)) / (π10 + π11).
        let sbar1 = (pi[0b01] + pi[0b11] * s1) / (pi[0b01] + pi[0b11]);
        let sbar2 = (pi[0b10] + pi[0b11] * s2) / (pi[0b10] + pi[0b11]);
        assert!((s.classes[0].cycles_per_flit - sbar1).abs() < 1e-9);
        assert!((s.classes[1].cycles_per_flit - sbar2).abs() < 1e-9);
        // Eq. 9 with ρ_r = 1 − π00.
        let rho = 1.0 - pi[0];
        assert!((s.classes[2].cycles_per_flit - (2.0 - rho) / (2.0 * (1.0 - rho) * (1.0 - rho))).abs() < 1e-9);
        for (c, lam) in [(0, 0.004), (1, 0.002), (2, 0.01)] {
            let k = &s.classes[c];
            // Eq. 5: B = P_b (max(32, 32) + 16); Eq. 2: L = 4 + (32 + B) S̄.
            assert!((k.blocking_flits - k.blocking_prob * 48.0).abs() < 1e-9);
            assert!((k.network_latency - (4.0 + (32.0 + k.blocking_flits) * k.cycles_per_flit)).abs() < 1e-9);
            // Eq. 4 and Eq. 3 with exponent 1 + 2·32/32 = 3.
            assert!((k.rate_effective - (1.0 - k.blocking_prob) * lam).abs() < 1e-12);
            assert!((k.blocking_prob - (k.network_latency * k.rate_effective).powi(3)).abs() < 1e-9);
        }
        // Fig. 3's balance at state (1,1): in = λ'_2 π10 + λ'_1 π01, out = π11 (μ_1(1) + μ_2(1)).
        let lk = |c: usize, sc: f64| 4.0 + (s.classes[c].blocking_flits + 32.0) * sc;
        let (l1, l2) = (s.classes[0].rate_effective, s.classes[1].rate_effective);
        let out = pi[0b11] * ((1.0 / lk(0, s1) - l1) + (1.0 / lk(1, s2) - l2));
        assert!((out - (l2 * pi[0b01] + l1 * pi[0b10])).abs() < 1e-12);
    }

    #[test]
    fn three_real_time_classes_order_by_vtick_and_tie_when_equal() {
        // 000_… §4 with three types: R2 and R3 at 1.5 and 2 times R1's gap.
        let r1 = 0.003;
        let m = RouterModel {
            stages: 5.0,
            msg_flits: vec![32.0; 4],
            buffer_flits: 32.0,
            rt_rates: vec![r1, r1 / 1.5, r1 / 2.0],
            vticks: vec![1.0 / (r1 * 32.0), 1.5 / (r1 * 32.0), 2.0 / (r1 * 32.0)],
            be_rate: 0.002,
        };
        let l: Vec<f64> = m.solve().unwrap().classes.iter().map(|c| c.network_latency).collect();
        // (Best effort at 0.002 can sit below R3: its blocking term is small.)
        assert!(l[0] < l[1] && l[1] < l[2], "{l:?}");
        // Identical classes are interchangeable: identical latencies.
        let sym = RouterModel { rt_rates: vec![0.002; 3], vticks: vec![15.625; 3], ..m };
        let l: Vec<f64> = sym.solve().unwrap().classes.iter().map(|c| c.network_latency).collect();
        assert!((l[0] - l[1]).abs() < 1e-9 && (l[1] - l[2]).abs() < 1e-9, "{l:?}");
    }

    #[test]
    fn the_answer_does_not_depend_on_the_order_the_classes_are_listed() {
        // Issue 22 item 2: every class is updated from the previous iterate,
        // so listing the real-time classes in another order permutes the
        // answer and changes nothing else (to the fixed point's tolerance).
        let r1 = 0.003;
        let (rates, vticks) = (vec![r1, r1 / 1.5, r1 / 2.0], vec![1.0 / (r1 * 32.0), 1.5 / (r1 * 32.0), 2.0 / (r1 * 32.0)]);
        let model = |order: [usize; 3]| RouterModel {
            stages: 5.0,
            msg_flits: vec![32.0; 4],
            buffer_flits: 32.0,
            rt_rates: order.iter().map(|&i| rates[i]).collect(),
            vticks: order.iter().map(|&i| vticks[i]).collect(),
            be_rate: 0.002,
        };
        let base = model([0, 1, 2]).solve().unwrap();
        for order in [[2, 0, 1], [1, 2, 0], [2, 1, 0]] {
            let sol = model(order).solve().unwrap();
            for (k, &i) in order.iter().enumerate() {
                let (a, b) = (&sol.classes[k], &base.classes[i]);
                assert!((a.network_latency - b.network_latency).abs() < 1e-6 && (a.source_wait - b.source_wait).abs() < 1e-6, "{order:?}: {a:?} vs {b:?}");
            }
            let (a, b) = (&sol.classes[3], &base.classes[3]);
            assert!((a.network_latency - b.network_latency).abs() < 1e-6, "{order:?} best effort: {a:?} vs {b:?}");
        }
    }

    #[test]
    fn overloaded_best_effort_is_saturation_not_an_endless_iteration() {
        // 0.03 best-effort messages of 32 flits per cycle: about 1 flit per
        // cycle on top of real time; λ'L̄ of best effort reaches 1.
        let r = RouterModel::table1(0.005, 0.0025, 0.03).solve();
        assert!(matches!(r, Err(ModelError::Overloaded { class: 2 }) | Err(ModelError::Saturated { .. })), "{r:?}");
    }

    #[test]
    fn heavy_real_time_load_saturates() {
        assert!(matches!(RouterModel::table1(0.03, 0.015, 0.01).solve(), Err(ModelError::Saturated { .. })));
    }
}

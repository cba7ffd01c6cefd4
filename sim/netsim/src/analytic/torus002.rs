//! The combinatorial model of Najaf-abadi and Sarbazi-azad (002_…) for a
//! unidirectional n-D torus (radix k_i per dimension) with dimension-order
//! routing and L ≥ 2 VCs per channel: L − 2 shared VCs plus two escape VCs,
//! v1 when c_i < d_i and v2 otherwise.
//!
//! Our copy garbles some formulas; how they are read:
//! * The combinatorial path probabilities (P_{t,d_i}, P_{d_j,s|d_i},
//!   P_{d_j,s|d_i,first}, the first-dimension weights) are what the text
//!   says they are, computed exactly by enumerating the destination offsets
//!   (x_0, …, x_{n−1}), x_i ∈ 0..k_i − 1, of a uniform destination; the
//!   counts C_m^{d,(…)} of the paper are the same enumeration grouped by m.
//! * P_{d_i} keeps the three cases the text describes (all L busy and the
//!   unusable escape VC's holder terminating; all L busy and none
//!   terminating; L − 1 busy, the free one the wrong escape VC, none
//!   terminating); the printed tail after the third product is dropped.
//! * The maximum number of waiting messages (2d_i − 1)L uses the 1-based
//!   dimension number: (2i + 1)L for dimension i = 0, 1, ….
//! * Ñ_{d_i,waiting} = Σ_{j ≥ L} (j − L + 1) P_{d_i,j,waiting}: with j
//!   messages wanting the hop, L hold its VCs and a newcomer is the
//!   (j − L + 1)-th waiting. The printed Σ_{j ≥ L} j P_j counts the L
//!   holders as waiting too; it makes W L times too large at light load and
//!   the 16 × 16, L = 3, M = 32 torus saturate below a quarter of its
//!   channel bandwidth (λ_g ≈ 0.0008), far left of the paper's Fig. 1.
//! * Channel rates per dimension are λ_g E[x_i] (equal to h λ_g / n when all
//!   k_i are equal, the paper's λ_c).
//! * Time unit t_c = one flit per cycle per channel; the paper's router adds
//!   nothing per hop. `router_delay` adds a pipeline's extra cycles per
//!   router on the path (0 reproduces the paper).

#[derive(Clone, Debug)]
pub struct TorusModel {
    /// Radix of each dimension, in routing order.
    pub radix: Vec<usize>,
    /// L, VCs per physical channel (≥ 2).
    pub vcs: usize,
    /// M, flits per message.
    pub msg_flits: f64,
    /// λ_g, messages per cycle per node.
    pub rate: f64,
    /// Extra cycles per router on the path (h + 1 routers).
    pub router_delay: f64,
}

#[derive(Clone, Debug)]
pub struct TorusSolution {
    /// T̄ = S̄ l̄ + W̄_s + h l̄ (+ the router delay): creation to last flit.
    pub latency: f64,
    /// S̄ l̄ + h l̄ (+ router delay): header injection to last flit.
    pub network_latency: f64,
    /// W̄_s.
    pub source_wait: f64,
    /// W_{d_i}, blocking time per hop of each dimension.
    pub blocking: Vec<f64>,
    /// l̄, the mean VC multiplexing degree.
    pub multiplexing: f64,
    pub mean_hops: f64,
    pub iterations: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TorusError {
    /// λ_c D_{d_i} ≥ 1 in dimension `dim`, or the ejection / source queue.
    Saturated(String),
    NoConvergence,
}

/// Path statistics of a uniform destination, by enumeration.
#[derive(Clone, Debug)]
pub struct PathStats {
    /// P_m, m = 0..=max hops (P_0 = 0).
    pub hops: Vec<f64>,
    /// E[x_i]: hops in dimension i per message.
    pub per_dim: Vec<f64>,
    /// P(first hop in dimension i).
    pub first: Vec<f64>,
    /// τ_i = P_{t,d_i}/(k_i/2): a message crossing a channel of dimension i
    /// terminates at the next node.
    pub terminate: Vec<f64>,
    /// rest[i][j]: mean further hops in dimension j (≥ i) after crossing a
    /// channel of dimension i (the blocker's remaining path).
    pub rest: Vec<Vec<f64>>,
    /// after_first[i][j]: mean hops in dimension j after the first hop, for
    /// messages whose first hop is in dimension i.
    pub after_first: Vec<Vec<f64>>,
}

pub fn path_stats(radix: &[usize]) -> PathStats {
    let n = radix.len();
    let nodes: usize = radix.iter().product();
    let others = (nodes - 1) as f64;
    let max_h: usize = radix.iter().map(|k| k - 1).sum();
    let mut hops = vec![0.0; max_h + 1];
    let mut per_dim = vec![0.0; n];
    let mut first = vec![0.0; n];
    let mut term_num = vec![0.0; n];
    let mut cross = vec![0.0; n];
    let mut rest = vec![vec![0.0; n]; n];
    let mut after_first = vec![vec![0.0; n]; n];
    for idx in 1..nodes {
        let mut x = vec![0usize; n];
        let mut r = idx;
        for (i, &k) in radix.iter().enumerate() {
            x[i] = r % k;
            r /= k;
        }
        hops[x.iter().sum::<usize>()] += 1.0 / others;
        let top = (0..n).rev().find(|&i| x[i] > 0).unwrap();
        let f = (0..n).find(|&i| x[i] > 0).unwrap();
        first[f] += 1.0 / others;
        for j in 0..n {
            per_dim[j] += x[j] as f64 / others;
            after_first[f][j] += if j == f { x[j] as f64 - 1.0 } else { x[j] as f64 } / others;
        }
        for i in 0..n {
            // Each of the x_i hops in dimension i, t = 1..=x_i.
            for t in 1..=x[i] {
                cross[i] += 1.0;
                if i == top && t == x[i] {
                    term_num[i] += 1.0;
                }
                rest[i][i] += (x[i] - t) as f64;
                for j in i + 1..n {
                    rest[i][j] += x[j] as f64;
                }
            }
        }
    }
    for f in 0..n {
        if first[f] > 0.0 {
            let w = first[f];
            after_first[f].iter_mut().for_each(|v| *v /= w);
        }
    }
    for i in 0..n {
        if cross[i] > 0.0 {
            let c = cross[i];
            rest[i].iter_mut().for_each(|v| *v /= c);
        }
    }
    let terminate = (0..n).map(|i| if cross[i] > 0.0 { term_num[i] / cross[i] } else { 0.0 }).collect();
    PathStats { hops, per_dim, first, terminate, rest, after_first }
}

/// P_{d_i,j}: truncated geometric occupancy with ρ = λ_c D (j = 0..=L).
fn occupancy(rho: f64, vcs: usize) -> Vec<f64> {
    (0..=vcs).map(|j| if j < vcs { (1.0 - rho) * rho.powi(j as i32) } else { rho.powi(vcs as i32) }).collect()
}

impl TorusModel {
    pub fn solve(&self) -> Result<TorusSolution, TorusError> {
        let n = self.radix.len();
        let l = self.vcs;
        let m = self.msg_flits;
        let ps = path_stats(&self.radix);
        let lam_c: Vec<f64> = ps.per_dim.iter().map(|e| e * self.rate).collect();
        let h: f64 = ps.hops.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        if m * self.rate >= 1.0 {
            return Err(TorusError::Saturated("ejection channel (M λ_g ≥ 1)".into()));
        }
        let w_ej = m * m * self.rate / (2.0 * (1.0 - m * self.rate));
        let mut w = vec![0.0f64; n];
        for it in 1..=100_000 {
            // D_{d_i}: the rest of the path's blocking, M t_c, the ejection wait.
            let d: Vec<f64> = (0..n).map(|i| (0..n).map(|j| w[j] * ps.after_first[i][j]).sum::<f64>() + m + w_ej).collect();
            let mut next = vec![0.0; n];
            for i in 0..n {
                let rho = lam_c[i] * d[i];
                if rho >= 1.0 {
                    return Err(TorusError::Saturated(format!("dimension {i}: λ_c D = {rho:.3} ≥ 1")));
                }
                let p = occupancy(rho, l);
                let pb = p[l] + p[l - 1] / l as f64;
                let tau = ps.terminate[i];
                let lf = l as f64;
                let p_none = tau * (1.0 - tau).powi(l as i32 - 1) * p[l] / lf
                    + (1.0 - tau).powi(l as i32) * p[l]
                    + (1.0 - tau).powi(l as i32 - 1) * p[l - 1] / lf;
                let rest: f64 = (0..n).map(|j| w[j] * ps.rest[i][j]).sum();
                let w_hat = if pb > 0.0 { p_none / pb * rest } else { 0.0 } + m;
                // Ñ_waiting: geometric in ρ up to (2i + 1)L messages; with
                // j ≥ L present a newcomer is the (j − L + 1)-th in line.
                let top = (2 * i + 1) * l;
                let waiting: f64 = (l..=top).map(|j| (j - l + 1) as f64 * if j < top { (1.0 - rho) * rho.powi(j as i32) } else { rho.powi(j as i32) }).sum();
                next[i] = w_hat * waiting;
            }
            let delta = (0..n).map(|i| (next[i] - w[i]).abs()).fold(0.0, f64::max);
            if delta < 1e-10 {
                w = next;
                let d: Vec<f64> = (0..n).map(|i| (0..n).map(|j| w[j] * ps.after_first[i][j]).sum::<f64>() + m + w_ej).collect();
                let s: f64 = (0..n).map(|i| ps.first[i] * (d[i] + w[i])).sum();
                let radix_sum: f64 = self.radix.iter().sum::<usize>() as f64;
                let lbar: f64 = (0..n)
                    .map(|i| {
                        let p = occupancy(lam_c[i] * d[i], l);
                        let (num, den) = p.iter().enumerate().fold((0.0, 0.0), |(a, b), (j, &x)| (a + (j * j) as f64 * x, b + j as f64 * x));
                        self.radix[i] as f64 * if den > 0.0 { num / den } else { 1.0 }
                    })
                    .sum::<f64>()
                    / radix_sum;
                let lam_s = self.rate / l as f64;
                if lam_s * s >= 1.0 {
                    return Err(TorusError::Saturated(format!("source queue (λ_g/L) S̄ = {:.3} ≥ 1", lam_s * s)));
                }
                let ws = lam_s * s * s * (1.0 + (s - m) * (s - m) / (s * s)) / (2.0 * (1.0 - lam_s * s));
                let net = s * lbar + h * lbar + self.router_delay * (h + 1.0);
                return Ok(TorusSolution { latency: net + ws, network_latency: net, source_wait: ws, blocking: w, multiplexing: lbar, mean_hops: h, iterations: it });
            }
            for i in 0..n {
                w[i] = 0.5 * w[i] + 0.5 * next[i];
            }
        }
        Err(TorusError::NoConvergence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_statistics_of_small_tori_by_hand() {
        // 2-ary 1-cube (two nodes): one destination, one hop, which ends the path.
        let p = path_stats(&[2]);
        assert_eq!(p.hops, vec![0.0, 1.0]);
        assert_eq!((p.per_dim[0], p.first[0], p.terminate[0]), (1.0, 1.0, 1.0));
        assert_eq!(p.rest[0][0], 0.0);
        // 4-ary 1-cube: destinations at 1, 2, 3 hops, h = 2; of the 6 channel
        // crossings 3 are last hops (τ = 1/2 = 2/k); after a crossing 2/3
        // further hops on average ((0 + 1 + 0 + 2 + 1 + 0)/6).
        let p = path_stats(&[4]);
        assert!((p.per_dim[0] - 2.0).abs() < 1e-12);
        assert!((p.terminate[0] - 0.5).abs() < 1e-12);
        assert!((p.rest[0][0] - 2.0 / 3.0).abs() < 1e-12);
        // 3 × 3: 8 destinations; first hop in dim 0 for the 6 with x_0 > 0.
        let p = path_stats(&[3, 3]);
        assert!((p.first[0] - 0.75).abs() < 1e-12 && (p.first[1] - 0.25).abs() < 1e-12);
        // Hops: 1 (x = (1,0),(2,0)... ) P_1 = 2/8, P_2 = 3/8, P_3 = 2/8, P_4 = 1/8.
        for (m, want) in [(1, 0.25), (2, 0.375), (3, 0.25), (4, 0.125)] {
            assert!((p.hops[m] - want).abs() < 1e-12, "P_{m}");
        }
    }

    #[test]
    fn two_node_torus_by_hand() {
        // 2-ary 1-cube, L = 2, M = 4, λ_g = 0.05: one hop, which always ends
        // the path (τ = 1), so the blockers never hold on beyond M:
        // Ŵ = 0 + M = 4. W_ej = 16·0.05/(2·0.8) = 0.5; D = 4 + 0.5 = 4.5;
        // ρ = λ_c D = 0.05·4.5 = 0.225 (λ_c = λ_g: every message crosses the
        // one channel). Dimension 0 has at most (2·1 − 1)L = 2 messages:
        // Ñ = Σ_{j=2}^{2} (j − 2 + 1) P_j = ρ² (the truncated tail); W = 4 Ñ.
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve().unwrap();
        let rho: f64 = 0.225;
        let w = 4.0 * rho * rho;
        assert!((s.blocking[0] - w).abs() < 1e-9, "{} vs {w}", s.blocking[0]);
        // S̄ = D + W; l̄ from P = ((1−ρ), (1−ρ)ρ, ρ²): Σj²P/ΣjP.
        let sbar = 4.5 + w;
        let p = [1.0 - rho, (1.0 - rho) * rho, rho * rho];
        let lbar = (p[1] + 4.0 * p[2]) / (p[1] + 2.0 * p[2]);
        assert!((s.multiplexing - lbar).abs() < 1e-9);
        // W_s: M/G/1 at λ_g/L = 0.025 with mean S̄, variance (S̄ − M)².
        let ls = 0.025;
        let ws = ls * sbar * sbar * (1.0 + (sbar - 4.0) * (sbar - 4.0) / (sbar * sbar)) / (2.0 * (1.0 - ls * sbar));
        assert!((s.latency - (sbar * lbar + ws + lbar)).abs() < 1e-9);
    }

    #[test]
    fn latency_grows_with_load_and_saturates() {
        // 002_… Fig. 1 setting: 16 × 16, L = 3, M = 32.
        let at = |rate: f64| TorusModel { radix: vec![16, 16], vcs: 3, msg_flits: 32.0, rate, router_delay: 0.0 }.solve();
        let a = at(0.0003).unwrap();
        let b = at(0.0006).unwrap();
        // Zero-load limit: M + h = 32 + 15.
        let z = at(1e-9).unwrap();
        assert!((z.latency - (32.0 + 15.0 * 256.0 / 255.0)).abs() < 1e-3, "{}", z.latency);
        assert!(b.latency > a.latency && a.latency > z.latency);
        // The model's saturation (the blocking feedback through D) comes
        // before the channels' flit capacity 1/(M E[x_i]) ≈ 0.0042.
        assert!(matches!(at(0.002), Err(TorusError::Saturated(_))));
    }
}

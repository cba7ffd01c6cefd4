//! The exact M/D/c queue (Poisson arrivals, c servers, one fixed service
//! time D), to hold the approximations of `ring.rs` (Cosmetatos' mean
//! wait) and `multilink_ring.rs` (004_… Eq. (11)'s delay probability,
//! 0.94 × Erlang C) against (issue 22).
//!
//! Method: Crommelin's embedded chain of the number in system at the
//! instants kD. Every customer in service at t has started before t and
//! leaves by t + D; every customer waiting at t, and every arrival in
//! (t, t + D], is still there at t + D. So N(t + D) = max(N(t) − c, 0) +
//! A with A ~ Poisson(λD), for any t: the chain's stationary law is the
//! time-stationary law of N, which Poisson arrivals see (PASTA). An
//! arrival waits iff it finds ≥ c customers; L_q = Σ (j − c) p_j and, by
//! Little, W_q = L_q / λ. The chain is truncated at `states` (the tail of
//! p_j decays geometrically, like z₀^−j with z₀ > 1 the root of
//! z = e^{ρ(z − 1)}) and solved directly.

/// The exact M/D/c figures in units of the service time D.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MdcExact {
    /// Mean wait in queue W_q / D.
    pub wait: f64,
    /// P(an arrival waits) = P(N ≥ c).
    pub p_wait: f64,
    /// p of the truncation's last state: the mass the truncation may have
    /// misplaced (callers check it is negligible).
    pub tail: f64,
}

/// The truncation used for utilisation `rho`: past the c servers, enough
/// states for the geometric tail (rate ≈ 2(1 − ρ) per customer near
/// saturation) to fall below 1e-20.
fn states_for(servers: u32, rho: f64) -> usize {
    servers as usize * 4 + 50 + (60.0 / (1.0 - rho)).ceil() as usize
}

/// Exact M/D/c with `servers` servers at utilisation `rho` = λD/c; None
/// unless 0 < ρ < 1 and c ≥ 1. Cost grows as (1 − ρ)^−3: ρ = 0.95 takes
/// about a second in a release build.
pub fn mdc_exact(servers: u32, rho: f64) -> Option<MdcExact> {
    if servers == 0 || !(rho > 0.0 && rho < 1.0) {
        return None;
    }
    mdc_exact_truncated(servers, rho, states_for(servers, rho))
}

/// `mdc_exact` with the chain cut at `states` states (0..states), the
/// overflow of each row lumped into the last.
pub fn mdc_exact_truncated(servers: u32, rho: f64, states: usize) -> Option<MdcExact> {
    let c = servers as usize;
    let lambda = rho * c as f64;
    if states <= c + 1 {
        return None;
    }
    // Poisson(λ) probabilities a_k, k < states.
    let mut a = vec![(-lambda).exp(); states];
    for k in 1..states {
        a[k] = a[k - 1] * lambda / k as f64;
    }
    // Row-major m = Pᵀ − I: m[j][i] = P(i → j).
    let mut m = vec![vec![0.0; states]; states];
    for i in 0..states {
        let base = i.saturating_sub(c);
        let mut left = 1.0;
        for j in base..states - 1 {
            m[j][i] += a[j - base];
            left -= a[j - base];
        }
        m[states - 1][i] += left.max(0.0);
        m[i][i] -= 1.0;
    }
    // The balance equations are dependent: the first is replaced by Σ p = 1.
    let mut b = vec![0.0; states];
    m[0].iter_mut().for_each(|x| *x = 1.0);
    b[0] = 1.0;
    let p = solve(m, b)?;
    let p_wait: f64 = p[c..].iter().sum();
    let lq: f64 = p.iter().enumerate().skip(c + 1).map(|(j, x)| (j - c) as f64 * x).sum();
    Some(MdcExact { wait: lq / lambda, p_wait, tail: p[states - 1] })
}

/// Gaussian elimination with partial pivoting; None if singular.
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&r, &s| m[r][col].abs().total_cmp(&m[s][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let row = &top[col];
        for (k, r) in rest.iter_mut().enumerate() {
            let f = r[col] / row[col];
            if f != 0.0 {
                for (x, y) in r[col..].iter_mut().zip(&row[col..]) {
                    *x -= f * y;
                }
                b[col + 1 + k] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| m[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / m[r][r];
    }
    Some(x)
}

//! Distributions of integer waits shared by the 6-cube trace examples
//! (`cube_wait_trace`, `cube_source_split`).

/// Cumulative distribution of integer waits: `cdf[t]` = P(X ≤ t).
pub fn cdf(x: &[u64]) -> Vec<f64> {
    let top = x.iter().copied().max().unwrap_or(0) as usize;
    let mut hist = vec![0u64; top + 1];
    x.iter().for_each(|&v| hist[v as usize] += 1);
    let mut acc = 0u64;
    hist.iter().map(|&h| {
        acc += h;
        acc as f64 / x.len().max(1) as f64
    }).collect()
}

/// E[max(X, Y)] for X and Y drawn independently from the two samples'
/// distributions: Σ_{t ≥ 0} P(max > t) = Σ_t (1 − F_X(t)·F_Y(t)).
pub fn independent_max(x: &[u64], y: &[u64]) -> f64 {
    let (fx, fy) = (cdf(x), cdf(y));
    let at = |f: &[f64], t: usize| f.get(t).copied().unwrap_or(1.0);
    (0..fx.len().max(fy.len())).map(|t| 1.0 - at(&fx, t) * at(&fy, t)).sum()
}

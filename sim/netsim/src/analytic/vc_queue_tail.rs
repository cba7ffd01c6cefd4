//! The wait for a class's one output VC as an M/D/1 queue, and the
//! deadline missing probability with that wait added (issue 22,
//! docs/reproduction.md "Why the DMP model is below the simulated tail").
//!
//! 000_…'s Eqs (16)–(23) take the latency as the pipeline plus a blocking
//! term that Eq. (3) makes small (a message counts as blocked only when
//! 2b_s/M + 1 messages are ahead of it). With one VC per class, a header
//! waits for the VC whenever it is held: messages of the class arrive at
//! the VC at rate λ and hold it for T cycles, the queue of an M/D/1
//! server. Its waiting time is added to the model's latency as an
//! independent term (`kim2005_vcq` and `kim2005_cube_vcq` rows).

/// P{W ≤ x} of the M/D/1 queue with arrival rate `lambda` and service time
/// `t` (Erlang's formula, e.g. Gross & Harris, *Fundamentals of Queueing
/// Theory*, §6.1): (1 − ρ) Σ_{k=0}^{⌊x/t⌋} (λ(kt − x))^k / k! · e^{−λ(kt − x)}.
/// The alternating sum loses precision for x ≫ t; the latencies here stay
/// below 10 t. Panics unless 0 ≤ ρ = λt < 1.
pub fn md1_wait_cdf(lambda: f64, t: f64, x: f64) -> f64 {
    let rho = lambda * t;
    assert!((0.0..1.0).contains(&rho) && t > 0.0, "M/D/1 needs 0 ≤ λt < 1 (λ = {lambda}, t = {t})");
    if x < 0.0 {
        return 0.0;
    }
    let kmax = (x / t).floor() as i32;
    let mut sum = 0.0;
    let mut fact = 1.0;
    for k in 0..=kmax {
        if k > 0 {
            fact *= k as f64;
        }
        let a = lambda * (k as f64 * t - x);
        sum += a.powi(k) / fact * (-a).exp();
    }
    ((1.0 - rho) * sum).clamp(0.0, 1.0)
}

/// The wait's p.m.f. on whole cycles 0..=top: cycle k takes the mass of
/// (k − ½, k + ½] (cycle 0 the atom at 0 and (0, ½]); what lies above
/// top + ½ is left out (the caller counts it as a miss).
pub fn md1_wait_pmf(lambda: f64, t: f64, top: usize) -> Vec<f64> {
    let mut prev = 0.0;
    (0..=top)
        .map(|k| {
            let f = md1_wait_cdf(lambda, t, k as f64 + 0.5);
            let p = f - prev;
            prev = f;
            p
        })
        .collect()
}

/// The p.m.f. of the sum of independent waits (each on whole cycles),
/// truncated at `top`.
pub fn convolve(a: &[f64], b: &[f64], top: usize) -> Vec<f64> {
    let mut out = vec![0.0; top + 1];
    for (i, &pa) in a.iter().enumerate().take(top + 1) {
        for (j, &pb) in b.iter().enumerate().take(top + 1 - i) {
            out[i + j] += pa * pb;
        }
    }
    out
}

/// P{L + W > d} for L with tail `tail(x) = P{L > x}` and W independent of
/// it with p.m.f. `wait` (whole cycles; mass missing from it is a wait
/// beyond every deadline, so a miss).
pub fn tail_with_wait(tail: impl Fn(f64) -> f64, wait: &[f64], d: f64) -> f64 {
    let mut met = 0.0;
    for (k, &p) in wait.iter().enumerate() {
        if d - (k as f64) < 0.0 {
            break;
        }
        met += p * (1.0 - tail(d - k as f64));
    }
    (1.0 - met).clamp(0.0, 1.0)
}

use super::kim2005::{RouterModel, Solution};
use super::kim2005_cube::{hop_probability, CubeModel, CubeSolution};

/// M/D/1 wait p.m.f. and mean, or `None` when ρ = λt ≥ 1 (no steady state).
fn wait_of(lambda: f64, t: f64, top: usize) -> Option<(Vec<f64>, f64)> {
    let rho = lambda * t;
    (rho < 1.0).then(|| (md1_wait_pmf(lambda, t, top), rho * t / (2.0 * (1.0 - rho))))
}

/// `kim2005_vcq`, real-time class c of the single router: the class's
/// output VC as an M/D/1 queue with the model's own arrival rate λ'_c and
/// holding time L̄_c (the utilisation λ'_c L̄_c of Eq. 3), its wait added
/// to Eqs (16)–(19)'s latency. Returns the mean wait and P{L + W > D} per
/// deadline; `None` if λ'_c L̄_c ≥ 1.
pub fn router_vcq_miss(model: &RouterModel, sol: &Solution, c: usize, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    let top = deadlines.iter().fold(0.0f64, |a, &d| a.max(d)).max(0.0) as usize;
    let k = &sol.classes[c];
    let (pmf, mean) = wait_of(k.rate_effective, k.network_latency, top)?;
    Some((mean, deadlines.iter().map(|&d| tail_with_wait(|x| model.deadline_miss_probability(sol, c, x), &pmf, d)).collect()))
}

/// `kim2005_cube_vcq`, real-time class c of the n-cube: at each channel
/// of its e-cube path an M/D/1 wait for the class's one VC (a link of
/// dimension s carries λ_c 2^{n−1}/(2^n − 1) of uniformly addressed
/// messages and is held L_{c,s}, Eq. 10), and at the ejection channel one
/// with rate λ_c held P − 1 + M_c S̄_{c,n}; the waits independent of each
/// other and of Eqs (20)–(23)'s latency. Per hop count h the sum is taken
/// over each of the C(n, h) sets of dimensions and added to the model's
/// h-hop tail; over all messages weighted by P_h. Returns the mean wait
/// (over all messages) and P{L + W > D} per deadline; `None` if a queue
/// has ρ ≥ 1.
pub fn cube_vcq_miss(model: &CubeModel, sol: &CubeSolution, c: usize, hops: Option<usize>, deadlines: &[f64]) -> Option<(f64, Vec<f64>)> {
    let n = model.n;
    let r = &model.router;
    let top = deadlines.iter().fold(0.0f64, |a, &d| a.max(d)).max(0.0) as usize;
    let k = &sol.classes[c];
    let share = (1u64 << (n - 1)) as f64 / ((1u64 << n) - 1) as f64;
    let lambda = r.rt_rates[c];
    let channels: Vec<(Vec<f64>, f64)> = (0..n).map(|s| wait_of(lambda * share, k.channel_latency[s], top)).collect::<Option<_>>()?;
    let ejection = wait_of(lambda, r.stages - 1.0 + r.msg_flits[c] * k.cycles_per_flit[n], top)?;
    // A message crosses dimension s with probability 2^{n−1}/(2^n − 1).
    let mean = ejection.1 + share * channels.iter().map(|w| w.1).sum::<f64>();
    let miss_h = |h: usize| -> Vec<f64> {
        // The model's h-hop tail at whole cycles 0..=top (it depends on
        // the deadline through ⌊D − P + 1 − P h⌋ only).
        let tail: Vec<f64> = (0..=top).map(|x| model.hops_miss_probability(sol, c, h, x as f64)).collect();
        let (mut sum, mut count) = (vec![0.0; deadlines.len()], 0usize);
        for set in 0usize..1 << n {
            if set.count_ones() as usize != h {
                continue;
            }
            let wait = (0..n).filter(|s| set >> s & 1 == 1).fold(ejection.0.clone(), |w, s| convolve(&w, &channels[s].0, top));
            for (acc, &d) in sum.iter_mut().zip(deadlines) {
                *acc += tail_with_wait(|x| tail[(x.max(0.0) as usize).min(top)], &wait, d);
            }
            count += 1;
        }
        sum.into_iter().map(|x| x / count as f64).collect()
    };
    let miss = match hops {
        Some(h) => miss_h(h),
        None => (1..=n).fold(vec![0.0; deadlines.len()], |acc, h| {
            let p = hop_probability(n, h);
            acc.iter().zip(miss_h(h)).map(|(a, m)| a + p * m).collect()
        }),
    };
    Some((mean, miss))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// λ = 0.01, t = 30 (ρ = 0.3), by hand: F(0) = 1 − ρ = 0.7; for
    /// x < t, F(x) = 0.7 e^{λx}: F(10) = 0.7 × 1.105171 = 0.773620; for
    /// t ≤ x < 2t, F(x) = 0.7 (e^{λx} − λ(x − t) e^{λ(x − t)}):
    /// F(40) = 0.7 × (1.491825 − 0.1 × 1.105171) = 0.966916.
    #[test]
    fn md1_wait_cdf_by_hand() {
        assert!((md1_wait_cdf(0.01, 30.0, 0.0) - 0.7).abs() < 1e-12);
        assert!((md1_wait_cdf(0.01, 30.0, 10.0) - 0.773620).abs() < 1e-6);
        assert!((md1_wait_cdf(0.01, 30.0, 40.0) - 0.966916).abs() < 1e-6);
        // Its mean ρt/(2(1 − ρ)) = 6.4286 (the M/D/1 Pollaczek–Khinchine
        // mean), summed from the p.m.f.
        let pmf = md1_wait_pmf(0.01, 30.0, 600);
        let mean: f64 = pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((mean - 0.3 * 30.0 / 1.4).abs() < 0.02, "mean {mean}");
    }

    /// A fixed latency L0 = 40 plus the wait misses d = 50 when the wait
    /// exceeds 10, which on whole cycles is the mass above 10.5:
    /// 1 − 0.7 e^{0.105} = 1 − 0.7 × 1.110711 = 0.222502.
    #[test]
    fn a_fixed_latency_misses_when_the_wait_exceeds_the_slack() {
        let pmf = md1_wait_pmf(0.01, 30.0, 200);
        let tail = |x: f64| if x < 40.0 { 1.0 } else { 0.0 };
        assert!((tail_with_wait(tail, &pmf, 50.0) - 0.222502).abs() < 1e-6);
        // No wait at all (ρ → 0): the latency's own tail.
        let none = [1.0];
        assert_eq!(tail_with_wait(tail, &none, 50.0), 0.0);
        assert_eq!(tail_with_wait(tail, &none, 39.0), 1.0);
    }

    /// Two waits of one cycle with probability ½ each: the sum is 0, 1, 2
    /// with ¼, ½, ¼.
    #[test]
    fn convolution_by_hand() {
        let c = convolve(&[0.5, 0.5], &[0.5, 0.5], 5);
        assert_eq!(c, vec![0.25, 0.5, 0.25, 0.0, 0.0, 0.0]);
        assert_eq!(convolve(&[0.5, 0.5], &[0.5, 0.5], 1), vec![0.25, 0.5]);
    }

    /// The single router's row against bounds that hold whatever the
    /// model's tail: adding W ≥ 0 can only raise P{L > D}, and only for
    /// messages that wait, so by at most P{W > 0} = ρ = λ'L̄; and a
    /// message with L > 36 misses D whenever W ≥ D − 36.
    #[test]
    fn router_row_within_the_bounds_of_an_added_wait() {
        use crate::analytic::kim2005::RouterModel;
        let model = RouterModel::table1(0.005, 0.0025, 0.01);
        let sol = model.solve().unwrap();
        let ds = [38.0, 42.0, 47.0, 60.0];
        for c in 0..2 {
            let k = &sol.classes[c];
            let rho = k.rate_effective * k.network_latency;
            assert!(rho > 0.05, "class {c}: ρ = {rho}, the bounds would be loose");
            let (mean, miss) = router_vcq_miss(&model, &sol, c, &ds).unwrap();
            assert!((mean - rho * k.network_latency / (2.0 * (1.0 - rho))).abs() < 1e-9);
            for (&d, &m) in ds.iter().zip(&miss) {
                let base = model.deadline_miss_probability(&sol, c, d);
                assert!(m >= base - 1e-12 && m <= base + rho + 1e-12, "class {c}, D = {d}: {m} against {base} + ρ {rho}");
                // L > 36 and W ≥ D − 36 miss D (W on whole cycles; the
                // model's L may fall below the transfer time 36, Eq. 19's
                // X being uniform from 1 flit, so P{L > 36} is its own).
                let wait_beyond = (1.0 - md1_wait_cdf(k.rate_effective, k.network_latency, d - 36.0 - 0.5)) * model.deadline_miss_probability(&sol, c, 36.0);
                assert!(m >= wait_beyond - 1e-12, "class {c}, D = {d}: {m} < P{{W ≥ D − 36}} P{{L > 36}} = {wait_beyond}");
            }
            // The wait matters: at D = 47 it adds more than a tenth of ρ.
            assert!(miss[2] - model.deadline_miss_probability(&sol, c, 47.0) > 0.1 * rho);
        }
    }

    /// The 6-cube's row: never below the model's, above it by at most the
    /// chance that some queue on the path is busy (at most the sum of the
    /// ρ of the ejection queue and of every dimension's), for 2-hop
    /// messages and over all messages.
    #[test]
    fn cube_row_within_the_bounds_of_an_added_wait() {
        use crate::analytic::kim2005::RouterModel;
        use crate::analytic::kim2005_cube::CubeModel;
        let rt = 0.006;
        let mut router = RouterModel::table1(rt * 2.0 / 3.0, rt / 3.0, 0.002);
        router.buffer_flits = 32.0;
        let model = CubeModel { n: 6, router };
        let sol = model.solve().unwrap();
        let ds = [55.0, 60.0];
        for c in 0..2 {
            let k = &sol.classes[c];
            let lambda = model.router.rt_rates[c];
            let bound = lambda * (4.0 + 32.0 * k.cycles_per_flit[6]) + lambda * 32.0 / 63.0 * k.channel_latency.iter().sum::<f64>();
            for hops in [Some(2), None] {
                let (_, miss) = cube_vcq_miss(&model, &sol, c, hops, &ds).unwrap();
                for (&d, &m) in ds.iter().zip(&miss) {
                    let base = match hops {
                        Some(h) => model.hops_miss_probability(&sol, c, h, d),
                        None => model.miss_probability(&sol, c, d),
                    };
                    assert!(m >= base - 1e-9 && m <= base + bound, "class {c}, {hops:?}, D = {d}: {m} against {base} + {bound}");
                    assert!(m > base + 0.01, "class {c}, {hops:?}, D = {d}: the waits add nothing ({m} against {base})");
                }
            }
        }
    }

    /// The cube row keeps its ejection wait (the check the row's bounds
    /// above lack: they hold with the ejection queue dropped). Two checks
    /// computed here from the row's stated form, not from its code:
    ///
    /// - the mean, by Pollaczek–Khinchine ρT/(2(1 − ρ)) for each queue: the
    ///   ejection at λ_c held T = P − 1 + M S̄_{c,n} = 4 + 32 S̄_{c,n}, plus
    ///   each dimension's queue (λ_c 32/63, held L_{c,s}) crossed with
    ///   probability 32/63;
    /// - the 1-hop tail from below: W = W_s + W_ej ≥ max(W_s, W_ej) on
    ///   whole cycles, whose c.d.f. is the product of the two (independent)
    ///   M/D/1 c.d.f.s at k + ½, so P{L + W > D} ≥ the average over s of
    ///   Σ_k P{max = k} P{L > D − k}. Without W_ej the row is
    ///   P{L + W_s > D}, below this bound by P{W_ej > k} P{W_s ≤ k} weighted.
    #[test]
    fn cube_row_includes_the_ejection_wait() {
        use crate::analytic::kim2005::RouterModel;
        use crate::analytic::kim2005_cube::CubeModel;
        let rt = 0.006;
        let mut router = RouterModel::table1(rt * 2.0 / 3.0, rt / 3.0, 0.002);
        router.buffer_flits = 32.0;
        let model = CubeModel { n: 6, router };
        let sol = model.solve().unwrap();
        let pk = |lambda: f64, t: f64| lambda * t * t / (2.0 * (1.0 - lambda * t));
        let share = 32.0 / 63.0;
        for c in 0..2 {
            let k = &sol.classes[c];
            let lambda = model.router.rt_rates[c];
            let t_ej = 4.0 + 32.0 * k.cycles_per_flit[6];
            let expected_mean = pk(lambda, t_ej) + share * k.channel_latency.iter().map(|&l| pk(lambda * share, l)).sum::<f64>();
            let (mean, _) = cube_vcq_miss(&model, &sol, c, None, &[55.0]).unwrap();
            assert!((mean - expected_mean).abs() < 1e-9, "class {c}: mean wait {mean}, by hand {expected_mean}");
            assert!(pk(lambda, t_ej) > 0.2 * expected_mean, "class {c}: the ejection's share is too small to matter");
            for d in [50.0, 55.0, 60.0] {
                let (_, miss) = cube_vcq_miss(&model, &sol, c, Some(1), &[d]).unwrap();
                let mut bound = 0.0;
                for &l_s in &k.channel_latency {
                    let f_max = |x: f64| md1_wait_cdf(lambda * share, l_s, x + 0.5) * md1_wait_cdf(lambda, t_ej, x + 0.5);
                    let mut b = 1.0 - f_max(d); // a wait beyond D misses
                    for y in 0..=d as usize {
                        let p = f_max(y as f64) - if y == 0 { 0.0 } else { f_max(y as f64 - 1.0) };
                        b += p * model.hops_miss_probability(&sol, c, 1, d - y as f64);
                    }
                    bound += b / 6.0;
                }
                assert!(miss[0] >= bound - 1e-9, "class {c}, D = {d}: the 1-hop row {} is below the bound with the ejection wait {bound}", miss[0]);
            }
        }
    }
}

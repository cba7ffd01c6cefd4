//! The blocking a header meets at one channel of 002_…'s VC arrangement
//! when the escape VC it may take depends on where the channel is
//! (docs/reproduction.md, "The wait for a VC, term by term"). Not the paper.
//!
//! A header crossing the channel at position c of a dimension (c = the
//! digit of the channel's router) takes v1 (VC 0) while c < d_i, v2 (VC 1)
//! otherwise, or one of the shared VCs 2..L; our routers grant the
//! lowest-numbered free VC of that set, so the escape VC before a shared
//! one. 002_…'s P_B = P_L + P_{L−1}/L treats every header alike; here a
//! channel next to the wrap link (c = 0) carries v1 headers only, which may
//! take L − 1 of its L VCs and never its v2.

/// Per channel position c = 0..k − 1 of a dimension of radix k: the share
/// of the messages crossing it that take v1. A crossing at c has its source
/// a ≥ 0 hops behind and its destination b ≥ 1 hops ahead, a + b ≤ k − 1,
/// every such (a, b) once under a uniform destination; it takes v1 iff
/// c + b ≤ k − 1 (no wrap ahead): Σ_{b ≤ k−1−c} (k − b) / (k (k − 1)/2).
pub fn v1_share(k: usize) -> Vec<f64> {
    let total = (k * (k - 1) / 2) as f64;
    (0..k).map(|c| (1..k - c).map(|b| (k - b) as f64).sum::<f64>() / total).collect()
}

/// The stationary distribution of the channel's busy VCs (bit u for VC
/// u), headers arriving at rate `offered` (per mean hold), a share `v1` of
/// them allowed VC 0 and the shared VCs, the rest VC 1 and the shared VCs,
/// each taking its set's lowest free VC; a header that finds its set held
/// takes none (a loss chain); each VC held for an exponential time of
/// mean 1, independently.
fn busy_sets(offered: f64, vcs: usize, v1: f64) -> Vec<f64> {
    let states = 1usize << vcs;
    let shared = (states - 1) & !3;
    let sets = [(v1, 1 | shared), (1.0 - v1, 2 | shared)];
    // Generator Q (row = from), then solve π Q = 0, Σ π = 1, by Gaussian
    // elimination with the last balance equation replaced by Σ π = 1.
    let mut q = vec![vec![0.0; states]; states];
    for b in 0..states {
        for &(share, set) in &sets {
            let free = set & !b;
            if free != 0 && share > 0.0 {
                q[b][b | (free & free.wrapping_neg())] += offered * share;
            }
        }
        for u in 0..vcs {
            if b >> u & 1 == 1 {
                q[b][b & !(1 << u)] += 1.0;
            }
        }
        let out: f64 = q[b].iter().sum();
        q[b][b] = -out;
    }
    // a[i][j] = Q[j][i] (equations are columns of Q), last row all ones.
    let mut a: Vec<Vec<f64>> = (0..states).map(|i| (0..states).map(|j| q[j][i]).collect()).collect();
    let mut rhs = vec![0.0; states];
    a[states - 1] = vec![1.0; states];
    rhs[states - 1] = 1.0;
    for col in 0..states {
        let pivot = (col..states).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap();
        a.swap(col, pivot);
        rhs.swap(col, pivot);
        for row in 0..states {
            if row != col && a[row][col] != 0.0 {
                let f = a[row][col] / a[col][col];
                for j in col..states {
                    a[row][j] -= f * a[col][j];
                }
                rhs[row] -= f * rhs[col];
            }
        }
    }
    (0..states).map(|i| rhs[i] / a[i][i]).collect()
}

/// The share of arriving headers (Poisson: the time average) that find
/// every VC they may take held, at a channel with `offered` headers per
/// mean hold ([`busy_sets`]), and the mean busy VCs.
fn loss_and_carried(offered: f64, vcs: usize, v1: f64) -> (f64, f64) {
    let pi = busy_sets(offered, vcs, v1);
    let shared = ((1usize << vcs) - 1) & !3;
    let held = |set: usize| pi.iter().enumerate().filter(|&(b, _)| b & set == set).map(|(_, p)| p).sum::<f64>();
    let blocked = v1 * held(1 | shared) + (1.0 - v1) * held(2 | shared);
    let carried = pi.iter().enumerate().map(|(b, p)| b.count_ones() as f64 * p).sum();
    (blocked, carried)
}

/// The offered load x (headers per mean hold) whose carried load x (1 −
/// P_B(x)) of [`busy_sets`] is `busy`. `None` if no offered load carries
/// that much (a channel whose headers can use fewer than `busy` VCs).
fn offered_for(busy: f64, vcs: usize, v1: f64) -> Option<f64> {
    let (mut lo, mut hi) = (busy, busy);
    while loss_and_carried(hi, vcs, v1).1 < busy {
        hi *= 2.0;
        if hi > 1e9 {
            return None;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if loss_and_carried(mid, vcs, v1).1 < busy {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// P_B at a channel whose VCs are busy `busy` on average (λ_c × the
/// mean hold, as Little's law gives on the routers: every header takes a
/// VC in the end), a share `v1` of its headers v1's: the loss chain's
/// blocking at the offered load x whose carried load x (1 − P_B(x)) is
/// `busy`. `None` if no offered load carries that much (a channel whose
/// headers can use fewer than `busy` VCs).
pub fn escape_blocking(busy: f64, vcs: usize, v1: f64) -> Option<f64> {
    if busy <= 0.0 {
        return Some(0.0);
    }
    Some(loss_and_carried(offered_for(busy, vcs, v1)?, vcs, v1).0)
}

/// At one channel position, per header arriving (both shares): the
/// blocked arrivals β (= [`escape_blocking`]'s P_B) and the joins J, the
/// mean number of headers blocked as well among those arriving while a
/// blocked one waits, per unit of their rate and of its wait. A v1 header
/// is blocked in the sets holding VC 0 and the shared VCs (probability
/// π_1), a v2 header in those holding VC 1 and the shared VCs (π_2), and
/// both where all L are held (π_all). While a blocked header waits, the
/// VCs it may take stay held (a release goes to a waiting header or ends
/// its wait); VC 1 (for a v1 header; VC 0 for v2) is taken as it found
/// it. So behind a blocked v1 header every v1 arrival joins and a v2
/// arrival only if VC 1 was held too (π_all / π_1 of the v1 header's
/// blocked moments), and alike for v2: J = s (s π_1 + (1 − s) π_all) +
/// (1 − s) ((1 − s) π_2 + s π_all), s = `v1`.
fn blocked_and_joining(busy: f64, vcs: usize, v1: f64) -> Option<(f64, f64)> {
    if busy <= 0.0 {
        return Some((0.0, 0.0));
    }
    let pi = busy_sets(offered_for(busy, vcs, v1)?, vcs, v1);
    let shared = ((1usize << vcs) - 1) & !3;
    let held = |set: usize| pi.iter().enumerate().filter(|&(b, _)| b & set == set).map(|(_, p)| p).sum::<f64>();
    let (p1, p2, all) = (held(1 | shared), held(2 | shared), held(3 | shared));
    let (s, t) = (v1, 1.0 - v1);
    Some((s * p1 + t * p2, s * (s * p1 + t * all) + t * (t * p2 + s * all)))
}

/// The share q of the headers arriving at a channel of a dimension of
/// radix k while a blocked header waits there that are blocked too and
/// join the line behind it (docs/reproduction.md, "The line of headers
/// built into the model"): [`blocked_and_joining`]'s joins over its
/// blocked arrivals, both summed over the k positions (each carries the
/// same λ_c under a uniform destination, so the positions' blocked headers
/// weigh in by their own blocking). 1 next to the wrap link, where every
/// header may take the same VCs; below 1 where v1 and v2 headers mix.
/// `None` as [`escape_blocking`]; 1 where nothing is blocked (the limit of
/// a lone class).
pub fn mean_line_joining(busy: f64, vcs: usize, k: usize) -> Option<f64> {
    let (mut blocked, mut joining) = (0.0, 0.0);
    for v1 in v1_share(k) {
        let (b, j) = blocked_and_joining(busy, vcs, v1)?;
        blocked += b;
        joining += j;
    }
    Some(if blocked > 0.0 { joining / blocked } else { 1.0 })
}

/// The mean of [`escape_blocking`] over the k channel positions of a
/// dimension (each carries the same λ_c under a uniform destination).
pub fn mean_escape_blocking(busy: f64, vcs: usize, k: usize) -> Option<f64> {
    let shares = v1_share(k);
    let mut sum = 0.0;
    for &v1 in &shares {
        sum += escape_blocking(busy, vcs, v1)?;
    }
    Some(sum / k as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_share_by_hand() {
        // k = 4 (worked in the module's terms): the channel 0 → 1 has 6
        // crossings, all with d ≥ 1 > 0; 1 → 2: (1,2),(1,3),(1,0),(0,2),
        // (0,3),(3,2): 5 of 6 with d > 1; 2 → 3: (2,3),(1,3),(0,3) of 6;
        // 3 → 0: none (d > 3 impossible).
        let s = v1_share(4);
        for (got, want) in s.iter().zip([1.0, 5.0 / 6.0, 0.5, 0.0]) {
            assert!((got - want).abs() < 1e-12, "{s:?}");
        }
    }

    #[test]
    fn escape_blocking_by_hand() {
        // L = 2, all v1: VC 0 alone, an M/M/1/1 loss system; carried
        // x/(1 + x) = busy and P_B = x/(1 + x) = busy.
        assert!((escape_blocking(0.3, 2, 1.0).unwrap() - 0.3).abs() < 1e-9);
        // L = 3, all v1: VCs 0 and 2, Erlang's loss formula with 2 servers:
        // offered 1 gives B = (1/2)/(1 + 1 + 1/2) = 0.2, carried 1 − 0.2 = 0.8.
        assert!((escape_blocking(0.8, 3, 1.0).unwrap() - 0.2).abs() < 1e-9);
        // All v2 alike (VCs 1 and 2).
        assert!((escape_blocking(0.8, 3, 0.0).unwrap() - 0.2).abs() < 1e-9);
        // Two of three VCs usable can carry at most 2.
        assert_eq!(escape_blocking(2.0, 3, 1.0), None);
        // L = 2, half v1, half v2: two independent M/M/1/1 queues of offered
        // x/2 each; carried x/(2 + x) each, so busy 0.5 = 2·x/(2 + x) gives
        // x = 2/3 and P_B = (x/2)/(1 + x/2) = 0.25.
        assert!((escape_blocking(0.5, 2, 0.5).unwrap() - 0.25).abs() < 1e-9);
    }

    /// L = 3, a quarter v1: the chain by uniformised power iteration,
    /// written out state by state (an independent solve of the same
    /// rules), at offered x = 1.2.
    #[test]
    fn loss_chain_by_power_iteration() {
        let (x, f) = (1.2, 0.25);
        let mut pi = [1.0 / 8.0; 8];
        let rate = 3.0 + x; // at most 3 departures + one arrival per unit time
        for _ in 0..20_000 {
            let mut next = [0.0; 8];
            for b in 0..8usize {
                let mut stay = 1.0;
                // v1 takes VC 0, else VC 2; v2 takes VC 1, else VC 2.
                for (share, first) in [(f, 1usize), (1.0 - f, 2usize)] {
                    let to = if b & first == 0 { Some(b | first) } else if b & 4 == 0 { Some(b | 4) } else { None };
                    if let Some(t) = to {
                        next[t] += pi[b] * x * share / rate;
                        stay -= x * share / rate;
                    }
                }
                for u in 0..3 {
                    if b >> u & 1 == 1 {
                        next[b & !(1 << u)] += pi[b] / rate;
                        stay -= 1.0 / rate;
                    }
                }
                next[b] += pi[b] * stay;
            }
            pi = next;
        }
        let blocked = f * (pi[5] + pi[7]) + (1.0 - f) * (pi[6] + pi[7]);
        let carried: f64 = (0..8).map(|b: usize| b.count_ones() as f64 * pi[b]).sum();
        let (b2, c2) = loss_and_carried(x, 3, f);
        assert!((blocked - b2).abs() < 1e-9 && (carried - c2).abs() < 1e-9, "{blocked} {carried} vs {b2} {c2}");
        assert!((escape_blocking(carried, 3, f).unwrap() - blocked).abs() < 1e-7);
        // The joins behind a blocked header, state by state: a v1 header
        // is blocked in {0, 2} (5) and {0, 1, 2} (7); a v1 arrival joins it
        // in both, a v2 one only in 7 (in 5 it takes VC 1); alike for v2
        // ({1, 2} = 6 and 7).
        let joining = f * (f * (pi[5] + pi[7]) + (1.0 - f) * pi[7]) + (1.0 - f) * ((1.0 - f) * (pi[6] + pi[7]) + f * pi[7]);
        let (b3, j3) = blocked_and_joining(carried, 3, f).unwrap();
        assert!((b3 - blocked).abs() < 1e-7 && (j3 - joining).abs() < 1e-7, "{b3} {j3} vs {blocked} {joining}");
    }

    #[test]
    fn line_joining_by_hand() {
        // L = 2, half v1 (escape_blocking_by_hand): VC 0 and VC 1 two
        // independent M/M/1/1 queues, each held with p = 0.25 at busy 0.5.
        // A blocked v1 header (VC 0 held) is joined by every v1 arrival
        // and by a v2 arrival when VC 1 is held too (p): J = ½ (½ p + ½ p²)
        // + ½ (½ p + ½ p²) = (p + p²)/2 per unit rate, β = p, so J/β =
        // (1 + p)/2 = 0.625.
        let (b, j) = blocked_and_joining(0.5, 2, 0.5).unwrap();
        assert!((b - 0.25).abs() < 1e-9 && (j - 0.25 * 0.625).abs() < 1e-9, "{b} {j}");
        // A lone class: every arrival behind a blocked header joins.
        let (b, j) = blocked_and_joining(0.8, 3, 1.0).unwrap();
        assert!((b - 0.2).abs() < 1e-9 && (j - 0.2).abs() < 1e-9, "{b} {j}");
        // k = 2: one position all v1, one all v2: q = 1.
        assert!((mean_line_joining(0.8, 3, 2).unwrap() - 1.0).abs() < 1e-9);
        // k = 4, L = 2: positions with v1 shares 1, 5/6, 1/2, 0 (v1_share);
        // at each the two VCs are independent M/M/1/1 queues offered x s
        // and x (1 − s), x set so the carried load is 0.5, so VC 0 is held
        // with a = x s/(1 + x s) and VC 1 with b = x (1 − s)/(1 + x(1 − s)):
        // β = s a + (1 − s) b, J = s² a + (1 − s)² b + 2 s (1 − s) a b.
        let (mut bsum, mut jsum) = (0.0, 0.0);
        for s in [1.0, 5.0 / 6.0, 0.5, 0.0] {
            let carried = |x: f64| x * s / (1.0 + x * s) + x * (1.0 - s) / (1.0 + x * (1.0 - s));
            let (mut lo, mut hi) = (0.0, 100.0);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if carried(mid) < 0.5 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let x = 0.5 * (lo + hi);
            let (a, b) = (x * s / (1.0 + x * s), x * (1.0 - s) / (1.0 + x * (1.0 - s)));
            bsum += s * a + (1.0 - s) * b;
            jsum += s * s * a + (1.0 - s) * (1.0 - s) * b + 2.0 * s * (1.0 - s) * a * b;
        }
        let q = mean_line_joining(0.5, 2, 4).unwrap();
        assert!((q - jsum / bsum).abs() < 1e-9, "{q} vs {}", jsum / bsum);
        assert!(q < 1.0);
        assert_eq!(mean_line_joining(2.0, 3, 4), None);
    }
}

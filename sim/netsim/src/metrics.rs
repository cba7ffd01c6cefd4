//! Metric calculators, kept free of the simulator so they can be checked on
//! hand-built traces.

use serde::{Deserialize, Serialize};

/// Mean and (population) standard deviation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeanSd {
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
}

pub fn mean_sd(xs: &[f64]) -> MeanSd {
    if xs.is_empty() {
        return MeanSd { n: 0, mean: f64::NAN, sd: f64::NAN };
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    MeanSd { n: xs.len() as u64, mean, sd: var.sqrt() }
}

/// Two-sided 95 % Student t quantiles for 1..=30 degrees of freedom.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
    2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// The two-sided 95 % Student t quantile for `df` >= 1 degrees of freedom
/// (the normal's 1.96 beyond 30).
pub fn t95(df: usize) -> f64 {
    T95.get(df.max(1) - 1).copied().unwrap_or(1.96)
}

/// Batch means: the samples (in time order) are cut into `batches` equal
/// consecutive batches (the remainder dropped); returns the grand mean and
/// the half-width of its 95 % confidence interval. NaN half-width with fewer
/// than two batches' worth of samples.
pub fn batch_means(xs: &[f64], batches: usize) -> (f64, f64) {
    let b = batches.max(2);
    let per = xs.len() / b;
    if per == 0 {
        return (mean_sd(xs).mean, f64::NAN);
    }
    let means: Vec<f64> = (0..b).map(|i| xs[i * per..(i + 1) * per].iter().sum::<f64>() / per as f64).collect();
    let grand = means.iter().sum::<f64>() / b as f64;
    let s2 = means.iter().map(|m| (m - grand) * (m - grand)).sum::<f64>() / (b - 1) as f64;
    (grand, t95(b - 1) * (s2 / b as f64).sqrt())
}

/// Sorts time-stamped samples `(t, x)` into `batches` equal consecutive time
/// batches of [start, end); samples outside the window are dropped.
pub fn time_batches(samples: &[(f64, f64)], start: f64, end: f64, batches: usize) -> Vec<Vec<f64>> {
    let b = batches.max(1);
    let mut out = vec![Vec::new(); b];
    let span = end - start;
    if !(span > 0.0) {
        return out;
    }
    for &(t, x) in samples {
        if t >= start && t < end {
            let i = (((t - start) / span) * b as f64) as usize;
            out[i.min(b - 1)].push(x);
        }
    }
    out
}

/// 95 % half-width for a metric estimated once per batch (batch means
/// applied to the per-batch values: Student t with b − 1 degrees of
/// freedom); batches where the metric is undefined (NaN) are left out.
/// NaN with fewer than two usable batches.
pub fn batch_ci95(per_batch: &[f64]) -> f64 {
    let v: Vec<f64> = per_batch.iter().copied().filter(|x| x.is_finite()).collect();
    if v.len() < 2 {
        return f64::NAN;
    }
    batch_means(&v, v.len()).1
}

/// Per-batch CIs of the frame and throughput metrics: d̄ and σ_d from the
/// frame intervals (stamped with the later frame's delivery), the deadline
/// missing probability from the per-frame lateness (stamped with the
/// frame's arrival), throughput from per-batch delivered flits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameCis {
    pub frame_interval_mean: f64,
    pub frame_interval_sd: f64,
    pub deadline_miss_probability: f64,
    pub accepted_throughput: f64,
}

pub fn frame_cis(
    intervals: &[(f64, f64)],
    lateness: &[(f64, f64)],
    flits_per_batch: &[u64],
    start: f64,
    end: f64,
    endpoints: usize,
) -> FrameCis {
    let b = flits_per_batch.len().max(2);
    let ib = time_batches(intervals, start, end, b);
    let lb = time_batches(lateness, start, end, b);
    let mean_of = |xs: &Vec<f64>| if xs.is_empty() { f64::NAN } else { mean_sd(xs).mean };
    // σ_d of a batch needs two intervals to mean anything.
    let sd_of = |xs: &Vec<f64>| if xs.len() < 2 { f64::NAN } else { mean_sd(xs).sd };
    let miss_of = |xs: &Vec<f64>| if xs.is_empty() { f64::NAN } else { xs.iter().filter(|l| **l > 0.0).count() as f64 / xs.len() as f64 };
    let width = (end - start) / flits_per_batch.len().max(1) as f64;
    let thr: Vec<f64> = flits_per_batch.iter().map(|&f| f as f64 / width / endpoints.max(1) as f64).collect();
    FrameCis {
        frame_interval_mean: batch_ci95(&ib.iter().map(mean_of).collect::<Vec<_>>()),
        frame_interval_sd: batch_ci95(&ib.iter().map(sd_of).collect::<Vec<_>>()),
        deadline_miss_probability: batch_ci95(&lb.iter().map(miss_of).collect::<Vec<_>>()),
        accepted_throughput: batch_ci95(&thr),
    }
}

/// Differences between successive delivery times.
pub fn intervals(times: &[f64]) -> Vec<f64> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

/// Deadline rule of 003_… §4.2: frame i's deadline is frame i-1's deadline
/// plus `period`, except that after a miss it is frame i-1's arrival plus
/// `period`. The first frame sets the reference (deadline of frame 1 =
/// arrival of frame 0 + period) and is not counted. Returns (frames judged,
/// misses, total missing time).
pub fn deadline_misses(arrivals: &[f64], period: f64) -> (u64, u64, f64) {
    let per = deadline_lateness(arrivals, period);
    let misses = per.iter().filter(|l| **l > 0.0).count() as u64;
    (per.len() as u64, misses, per.iter().sum())
}

/// Per judged frame (frames 1..): how late it was (0 when on time).
pub fn deadline_lateness(arrivals: &[f64], period: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let Some(&first) = arrivals.first() else { return out };
    let mut deadline = first + period;
    for &a in &arrivals[1..] {
        if a > deadline {
            out.push(a - deadline);
            deadline = a + period;
        } else {
            out.push(0.0);
            deadline += period;
        }
    }
    out
}

/// Expected misses of the deadline rule ([`deadline_lateness`]) among a
/// stream's frames `frames` (0-based frame numbers; frame 0 is never
/// judged) when the frames' latencies are independent and identically
/// distributed with a continuous distribution.
///
/// Why it counts records: write frame j's arrival a_j = s + jT + L_j, with
/// `slot_end` putting every frame's last message at the end of its frame
/// time s + jT and L_j its latency. Let r be the last late frame (frame 0
/// before any). The deadline of frame j is a_r + (j - r)T (+T per frame
/// since r, and a late frame resets it to its own arrival + T), so frame j
/// is late iff L_j > L_r. By induction L_r = max(L_0..L_{j-1}): a late
/// frame beats the running maximum and becomes it; an on-time frame does not
/// change it. So frame j misses iff it is a strict record of L_0..L_j,
/// which for exchangeable continuous latencies has probability 1/(j + 1),
/// whatever L's distribution and whether or not L exceeds T. The reset to
/// the late frame's arrival therefore gives exactly the record rate, with
/// frame 0 as the reference instead of a judged frame.
pub fn expected_record_misses(frames: std::ops::Range<u64>) -> f64 {
    (frames.start.max(1)..frames.end).map(|j| 1.0 / (j + 1) as f64).sum()
}

/// Expected deadline missing probability of one stream's first `frames`
/// frames under [`expected_record_misses`]: (H_n - 1) / (n - 1), the
/// records among frames 1..n over the n - 1 frames judged; it falls like
/// ln n / n. NaN for fewer than two frames (nothing judged).
pub fn record_miss_probability(frames: u64) -> f64 {
    if frames < 2 {
        return f64::NAN;
    }
    expected_record_misses(0..frames) / (frames - 1) as f64
}

/// Latency histogram with power-of-two bucket edges: bucket 0 is [0, 1),
/// bucket i >= 1 is [2^(i-1), 2^i) cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub counts: Vec<u64>,
}

impl Histogram {
    pub fn add(&mut self, x: u64) {
        let i = if x == 0 { 0 } else { 64 - x.leading_zeros() as usize };
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }
    /// Lower edge of bucket i.
    pub fn lower(i: usize) -> u64 {
        if i == 0 {
            0
        } else {
            1 << (i - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_sd_by_hand() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population sd 2.
        let m = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m.n, 8);
        assert!((m.mean - 5.0).abs() < 1e-12 && (m.sd - 2.0).abs() < 1e-12);
    }

    #[test]
    fn batch_means_by_hand() {
        // Batches [1,3] [5,7] [9,11] [0,2] -> means 2, 6, 10, 1; grand 4.75;
        // sample variance of the means = (7.5625+1.5625+27.5625+14.0625)/3 = 16.9167;
        // half-width = t(3) 3.182 * sqrt(16.9167/4) = 6.5438.
        let xs = [1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 0.0, 2.0, 100.0];
        let (m, h) = batch_means(&xs, 4);
        assert!((m - 4.75).abs() < 1e-12);
        assert!((h - 6.5438).abs() < 1e-3, "{h}");
    }

    #[test]
    fn frame_cis_on_a_hand_built_trace() {
        // Window [0, 40), 2 batches of 20 cycles.
        // Intervals (t, ms): batch 0 {30, 34} -> mean 32, sd 2;
        //                    batch 1 {33, 33, 36} -> mean 34, sd √2.
        // Per-batch means 32, 34: s² = 2, half-width 12.706·√(2/2) = 12.706.
        // Per-batch sds 2, √2: s² = (2 − √2)²/2, half-width 12.706·(2 − √2)/2 = 3.7215.
        let iv = [(1.0, 30.0), (19.0, 34.0), (20.0, 33.0), (25.0, 33.0), (39.0, 36.0), (40.0, 99.0)];
        // Lateness: batch 0: 1 of 4 late (0.25), batch 1: 3 of 4 (0.75):
        // s² = 0.125, half-width 12.706·√(0.125/2) = 3.1765.
        let late = [(0.0, 0.0), (5.0, 2.0), (6.0, 0.0), (7.0, 0.0), (21.0, 1.0), (22.0, 1.0), (23.0, 0.0), (24.0, 5.0)];
        // 2 endpoints, flits 40 and 80 per 20-cycle batch: throughput 1.0 and 2.0,
        // half-width 12.706·√(0.5/2) = 6.353.
        let c = frame_cis(&iv, &late, &[40, 80], 0.0, 40.0, 2);
        assert!((c.frame_interval_mean - 12.706).abs() < 1e-9, "{c:?}");
        assert!((c.frame_interval_sd - 3.7215).abs() < 1e-3, "{c:?}");
        assert!((c.deadline_miss_probability - 3.1765).abs() < 1e-3, "{c:?}");
        assert!((c.accepted_throughput - 6.353).abs() < 1e-9, "{c:?}");
        // One usable batch: no interval.
        assert!(frame_cis(&iv[..2], &late, &[40, 80], 0.0, 40.0, 2).frame_interval_mean.is_nan());
    }

    #[test]
    fn jitter_free_stream_has_zero_sigma() {
        let t: Vec<f64> = (0..10).map(|i| 100.0 + 33.0 * i as f64).collect();
        let d = mean_sd(&intervals(&t));
        assert_eq!(d.n, 9);
        assert!((d.mean - 33.0).abs() < 1e-12 && d.sd.abs() < 1e-12);
    }

    #[test]
    fn deadline_rule_by_hand() {
        // period 10; arrivals 0, 9, 21, 29, 45, 50:
        // deadlines 10 (9 ok), 20 (21 miss by 1 -> next deadline 31),
        // 31 (29 ok -> 41), 41 (45 miss by 4 -> 55), 55 (50 ok).
        let (j, m, late) = deadline_misses(&[0.0, 9.0, 21.0, 29.0, 45.0, 50.0], 10.0);
        assert_eq!((j, m), (5, 2));
        assert!((late - 5.0).abs() < 1e-12);
    }

    /// Latencies with a continuous distribution spread over two frame
    /// times, so arrivals even overtake each other: the derivation of
    /// `expected_record_misses` does not need L < T.
    fn iid_arrivals(rng: &mut rand::rngs::SmallRng, frames: u64, period: f64) -> (Vec<f64>, Vec<f64>) {
        use rand::Rng;
        let lat: Vec<f64> = (0..frames).map(|_| rng.gen::<f64>() * 2.0 * period).collect();
        let arr = lat.iter().enumerate().map(|(j, l)| 1_000.0 + j as f64 * period + l).collect();
        (lat, arr)
    }

    #[test]
    fn the_rule_misses_exactly_the_latency_records() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(23);
        for _ in 0..2_000 {
            let (lat, arr) = iid_arrivals(&mut rng, 18, 100.0);
            let late: Vec<bool> = deadline_lateness(&arr, 100.0).iter().map(|l| *l > 0.0).collect();
            // Strict records of L_1.. against the running maximum from L_0.
            let mut best = lat[0];
            let records: Vec<bool> = lat[1..]
                .iter()
                .map(|&l| {
                    let rec = l > best;
                    best = best.max(l);
                    rec
                })
                .collect();
            assert_eq!(late, records, "latencies {lat:?}");
        }
    }

    #[test]
    fn record_miss_probability_by_hand() {
        // n = 2: frame 1 misses iff L_1 > L_0, probability 1/2.
        assert!((record_miss_probability(2) - 0.5).abs() < 1e-12);
        // n = 3: (1/2 + 1/3) / 2 = 5/12.
        assert!((record_miss_probability(3) - 5.0 / 12.0).abs() < 1e-12);
        // Frames 18..36 of an older stream: sum 1/19 .. 1/36 = H_36 - H_18
        // = 4.1746 - 3.4951 = 0.6794 (H_18 = 3.495108, H_36 = 4.174559).
        assert!((expected_record_misses(18..36) - 0.679451).abs() < 1e-5);
        assert!(record_miss_probability(1).is_nan());
    }

    #[test]
    fn monte_carlo_deadline_misses_match_the_record_rate() {
        use rand::SeedableRng;
        // 20,000 streams of 18 frames: the rule's missing probability against
        // (H_18 - 1) / 17 = (3.4951081 - 1) / 17 = 0.146771 (H_18 summed by
        // hand: H_10 = 2.9289683, + 1/11 .. 1/18 = 0.5661399). Per stream
        // the misses have variance sum p(1-p) = sum 1/(j+1) - sum 1/(j+1)^2
        // over j = 1..17 = 2.4951 - 0.5909 = 1.90, so the estimate's standard
        // error is sqrt(1.90 / 20000) / 17 = 0.00057; allow 5 of them. H_n / n
        // (0.194) or a rule without the reset (every frame against L_0: 0.5)
        // would be far outside.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(2023);
        let (mut judged, mut missed) = (0u64, 0u64);
        for _ in 0..20_000 {
            let (_, arr) = iid_arrivals(&mut rng, 18, 100.0);
            let (j, m, _) = deadline_misses(&arr, 100.0);
            judged += j;
            missed += m;
        }
        let p = missed as f64 / judged as f64;
        assert_eq!(judged, 20_000 * 17);
        assert!((p - 0.146771).abs() < 5.0 * 0.00057, "Monte-Carlo {p}");
        assert!((record_miss_probability(18) - 0.146771).abs() < 1e-6);
    }

    #[test]
    fn histogram_buckets() {
        let mut h = Histogram::default();
        for x in [0, 1, 2, 3, 4, 7, 8, 1000] {
            h.add(x);
        }
        // [0,1):1  [1,2):1  [2,4):2  [4,8):2  [8,16):1 ... [512,1024):1
        assert_eq!(&h.counts[..5], &[1, 1, 2, 2, 1]);
        assert_eq!(h.counts[10], 1);
        assert_eq!(Histogram::lower(10), 512);
    }
}

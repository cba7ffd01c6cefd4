//! Metric calculators, kept free of the simulator so they can be checked on
//! hand-built traces.

use serde::Serialize;

/// Mean and (population) standard deviation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
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
    let t = T95.get(b - 2).copied().unwrap_or(1.96);
    (grand, t * (s2 / b as f64).sqrt())
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

/// Latency histogram with power-of-two bucket edges: bucket 0 is [0, 1),
/// bucket i >= 1 is [2^(i-1), 2^i) cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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

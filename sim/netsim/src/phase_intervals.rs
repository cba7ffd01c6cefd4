//! 95 % intervals of two per-phase figures of a dynamic workload (issue 23):
//! the mean deadline missing time, over groups of streams, and a class's
//! mean message latency, over its messages. Kept free of the simulator so
//! they can be checked on hand-built cases.

use crate::metrics::t95;

/// One group of streams' judged frames in one phase (stream k in group
/// k mod groups, as for the missing probability's half-width in
/// `network.rs`): frames judged, frames that missed, and their summed
/// lateness (cycles).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GroupMisses {
    pub judged: u64,
    pub misses: u64,
    pub late: f64,
}

impl GroupMisses {
    /// Counts one judged frame, `lateness` > 0 when it missed.
    pub fn judge(&mut self, lateness: f64) {
        self.judged += 1;
        if lateness > 0.0 {
            self.misses += 1;
            self.late += lateness;
        }
    }

    /// The group's missing probability; NaN with nothing judged.
    pub fn miss_probability(&self) -> f64 {
        if self.judged > 0 {
            self.misses as f64 / self.judged as f64
        } else {
            f64::NAN
        }
    }
}

/// 95 % half-width (cycles) of the mean missing time Σ late / Σ misses over
/// the groups that judged a frame.
///
/// Why a ratio estimator: the figure reported is the pooled mean R = ΣL/ΣM
/// over all missed frames, which is a ratio of two group totals. The mean
/// of per-group means would be a different figure, and undefined for a
/// group with no miss (common: a group holds a few frames per phase). The
/// ratio estimator keeps such a group as an observation (L = M = 0) and is
/// centred on R: with d_g = L_g − R·M_g, its variance is s_d² / (G·M̄²)
/// (first-order delta method, s_d² the sample variance of d over the G
/// groups, M̄ the mean misses per group), and the half-width uses Student t
/// with G − 1 degrees of freedom, as the batch means of the probability do.
/// NaN when fewer than two groups missed a frame: with one, every d_g is 0
/// and the interval would claim an exactness the data do not have.
pub fn missing_time_ci95(groups: &[GroupMisses]) -> f64 {
    let used: Vec<&GroupMisses> = groups.iter().filter(|g| g.judged > 0).collect();
    if used.iter().filter(|g| g.misses > 0).count() < 2 {
        return f64::NAN;
    }
    let g = used.len() as f64;
    let misses: f64 = used.iter().map(|x| x.misses as f64).sum();
    let ratio = used.iter().map(|x| x.late).sum::<f64>() / misses;
    let s2 = used.iter().map(|x| (x.late - ratio * x.misses as f64).powi(2)).sum::<f64>() / (g - 1.0);
    let mean_misses = misses / g;
    t95(used.len() - 1) * (s2 / g).sqrt() / mean_misses
}

/// Running count, mean and sum of squared deviations of a sample (Welford's
/// update: latencies reach 10⁶ cycles while control's spread in a phase
/// can be a fraction of a cycle, where Σx² − n·x̄² would cancel).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// 95 % Student t half-width of the mean, t(n − 1)·s/√n, treating the
    /// samples as independent; NaN with fewer than two.
    pub fn ci95(&self) -> f64 {
        if self.n < 2 {
            return f64::NAN;
        }
        let s2 = self.m2 / (self.n - 1) as f64;
        t95(self.n as usize - 1) * (s2 / self.n as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Judged frames' lateness (cycles, 0 = on time) per stream, grouped
    /// stream k -> group k mod `groups`.
    fn grouped(streams: &[&[f64]], groups: usize) -> Vec<GroupMisses> {
        let mut g = vec![GroupMisses::default(); groups];
        for (k, s) in streams.iter().enumerate() {
            for &l in s.iter() {
                g[k % groups].judge(l);
            }
        }
        g
    }

    #[test]
    fn missing_time_interval_by_hand() {
        // Six streams in three groups:
        //   g0 = streams 0, 3: [0, 4, 0], [0, 2]    -> judged 5, misses 2, late 6
        //   g1 = streams 1, 4: [0, 0], [1, 0]       -> judged 4, misses 1, late 1
        //   g2 = streams 2, 5: [2, 0, 6], [0, 0, 0] -> judged 6, misses 2, late 8
        // R = 15 / 5 = 3; d = 6 − 6, 1 − 3, 8 − 6 = 0, −2, 2; s_d² = 8 / 2 = 4;
        // M̄ = 5/3; half-width = t(2) 4.303 · √(4/3) / (5/3) = 2.98121.
        let streams: [&[f64]; 6] = [&[0.0, 4.0, 0.0], &[0.0, 0.0], &[2.0, 0.0, 6.0], &[0.0, 2.0], &[1.0, 0.0], &[0.0, 0.0, 0.0]];
        let g = grouped(&streams, 3);
        assert_eq!(g[0], GroupMisses { judged: 5, misses: 2, late: 6.0 });
        assert_eq!(g[1], GroupMisses { judged: 4, misses: 1, late: 1.0 });
        assert_eq!(g[2], GroupMisses { judged: 6, misses: 2, late: 8.0 });
        let h = missing_time_ci95(&g);
        assert!((h - 2.98121).abs() < 1e-4, "{h}");
        // A group with nothing judged is no observation: the same interval.
        let mut with_empty = g.clone();
        with_empty.push(GroupMisses::default());
        assert_eq!(missing_time_ci95(&with_empty), h);
    }

    #[test]
    fn a_group_without_misses_counts() {
        // Stream 4 on time: g1 = judged 4, misses 0, late 0. R = 14 / 4 = 3.5;
        // d = 6 − 7, 0, 8 − 7 = −1, 0, 1; s_d² = 1; M̄ = 4/3;
        // half-width = 4.303 · √(1/3) / (4/3) = 1.86325. (The mean of the
        // two defined group means, 3 and 4, would give 12.706 · 0.5 = 6.353.)
        let streams: [&[f64]; 6] = [&[0.0, 4.0, 0.0], &[0.0, 0.0], &[2.0, 0.0, 6.0], &[0.0, 2.0], &[0.0, 0.0], &[0.0, 0.0, 0.0]];
        let h = missing_time_ci95(&grouped(&streams, 3));
        assert!((h - 1.86325).abs() < 1e-4, "{h}");
        // Only one group missed: no interval.
        let one: [&[f64]; 3] = [&[0.0, 4.0], &[0.0], &[0.0, 0.0]];
        assert!(missing_time_ci95(&grouped(&one, 3)).is_nan());
    }

    #[test]
    fn latency_interval_by_hand() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x − 5)² = 32, s² = 32/7;
        // half-width = t(7) 2.365 · √(32/7/8) = 2.365 · 0.755929 = 1.78777.
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.add(x));
        assert!((m.ci95() - 1.78777).abs() < 1e-4, "{}", m.ci95());
        // The same spread a billion cycles up: the same interval.
        let mut far = Moments::default();
        xs.iter().for_each(|&x| far.add(x + 1e9));
        assert!((far.ci95() - 1.78777).abs() < 1e-4, "{}", far.ci95());
        let mut one = Moments::default();
        one.add(3.0);
        assert!(one.ci95().is_nan());
    }
}

//! Best effort behind two or more real-time streams ON at once at one link
//! (issue 22, docs/reproduction.md "Best effort behind the cube's
//! overlapping bursts"): a variant of the link-side model (`be_prio_wait`)
//! for the hop and ejection links where bursts are long against a
//! best-effort message (g = 64 and 128 in the 6-cube).
//!
//! `BePrioWait` (like the leak model) lets real time take r = M/g of the
//! link whenever at least one stream is ON, however many are. With k
//! streams ON real time takes min(1, k·r), best effort keeps max(0, 1 −
//! k·r) and, at k·r ≥ 1, none. The variant adds, to the fresh-streams count
//! of `BePrioWait`, the excess of the states with k ≥ 2 streams ON among
//! every stream on the link (the number ON is binomial(trials, q·p), p a
//! stream's ON share; a stream met upstream counts here, as its burst now
//! shares the link with another's). Bursts last N·g cycles, long against
//! best effort's service, so each state is taken as steady (quasi-static):
//!
//! - with j·r < 1 streams' worth of real time, best effort is an M/D/1
//!   queue of service F/(1 − j·r) and is present a share
//!   P_j = min(1, λ·F/(1 − j·r)) of the time;
//! - with k·r ≥ 1 best effort cannot send. The state lasts a mean
//!   D = N·g/k (k streams each ending at rate 1/(N·g)); best effort is
//!   present from its start with probability P_1 or from its first
//!   arrival (rate λ) on, a share 1 − (1 − P_1)·μ/(λ + μ), μ = 1/D;
//! - the base model counts such a state as one stream ON, r·P_1 a cycle;
//!   the state adds min(1, k·r)·P_k − r·P_1 a cycle, per best-effort
//!   message 1/λ of that.
//!
//! Left out: the real-time backlog a state with k·r > 1 leaves behind, the
//! best-effort backlog it leaves, and which streams the message met before
//! (every stream of a state with two or more ON counts).

use super::be_prio_wait::BePrioWait;
use super::onoff_fluid::FluidError;

/// The link-side model with the overlap term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeOverlapWait {
    pub prio: BePrioWait,
}

impl BeOverlapWait {
    /// P_j, the share of time best effort (`lambda` messages a cycle) is
    /// present while j streams' worth of real time leave it 1 − j·r < 1.
    fn present(&self, j: f64, lambda: f64) -> f64 {
        let c = &self.prio.link;
        (lambda * c.be_flits / (1.0 - j * c.peak)).min(1.0)
    }

    /// The excess a cycle of the state with exactly k streams ON (k ≥ 2)
    /// over what the base model counts for it.
    fn state_excess(&self, k: usize, lambda: f64) -> f64 {
        let c = &self.prio.link;
        let r = c.peak;
        let base = r * self.present(1.0, lambda);
        if k < 2 {
            return 0.0;
        }
        let load = k as f64 * r;
        if load < 1.0 {
            return load * self.present(k as f64, lambda) - base;
        }
        let leave = k as f64 / c.on_mean;
        let present = 1.0 - (1.0 - self.present(1.0, lambda)) * leave / (lambda + leave);
        present - base
    }

    /// The overlap term, cycles per best-effort message, at a link whose
    /// stream count is binomial(trials, q) and that carries `lambda`
    /// best-effort messages a cycle.
    pub fn overlap_with(&self, trials: usize, q: f64, lambda: f64) -> Result<f64, FluidError> {
        let c = &self.prio.link;
        if c.peak >= 1.0 {
            return Err(FluidError::Saturated { load: c.peak, capacity: 1.0 });
        }
        let share = lambda * c.be_flits;
        if !(lambda > 0.0 && share < 1.0 - c.peak) {
            return Err(FluidError::Saturated { load: share + c.peak, capacity: 1.0 });
        }
        let on = c.on_mean / (c.on_mean + c.off_mean);
        Ok(c.binomial(trials, q * on, |k| Ok(self.state_excess(k, lambda)))?.0 / lambda)
    }

    /// The share of time two or more streams are ON at a link whose stream
    /// count is binomial(trials, q).
    pub fn overlap_share(&self, trials: usize, q: f64) -> f64 {
        let c = &self.prio.link;
        let on = q * c.on_mean / (c.on_mean + c.off_mean);
        1.0 - (1.0 - on).powi(trials as i32) - trials as f64 * on * (1.0 - on).powi(trials as i32 - 1)
    }

    /// (overlap term, variant: the fresh count plus it) at the hop link of
    /// dimension d.
    pub fn hop(&self, d: usize) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.prio.link.hop_streams(d);
        let overlap = self.overlap_with(trials, q, self.prio.hop_rate())?;
        Ok((overlap, self.prio.hop_fresh(d)?.0 + overlap))
    }

    /// The same at a destination's ejection link.
    pub fn ejection(&self) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.prio.link.ejection_streams();
        let overlap = self.overlap_with(trials, q, self.prio.be_rate)?;
        Ok((overlap, self.prio.ejection_fresh()?.0 + overlap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::be_burst_wait::BeBurstWait;

    /// The leak model's hand link (ON 10 cycles, OFF 30, so p = 1/4; F = 4)
    /// at real-time rate `peak`, with λ = 0.05.
    fn tiny(peak: f64) -> BeOverlapWait {
        BeOverlapWait { prio: BePrioWait { link: BeBurstWait { n: 1, streams: 1, on_mean: 10.0, off_mean: 30.0, peak, be_flits: 4.0 }, be_rate: 0.05 } }
    }

    /// By hand. Two streams surely on the link (trials 2, q = 1): both ON
    /// with probability (1/4)² = 1/16.
    /// r = 1/2: P_1 = min(1, 0.05·4/0.5) = 0.4; k·r = 1, so D = 10/2 = 5,
    /// μ = 0.2, present 1 − 0.6·0.2/0.25 = 0.52; excess 0.52 − 0.5·0.4
    /// = 0.32; term (1/16)·0.32/0.05 = 0.4.
    /// r = 1/4: P_1 = 0.2/0.75 = 0.266667; k·r = 1/2, P_2 = 0.2/0.5 = 0.4;
    /// excess 0.5·0.4 − 0.25·0.266667 = 0.133333; term (1/16)·0.133333/0.05
    /// = 0.166667.
    #[test]
    fn two_streams_by_hand() {
        let w = tiny(0.5).overlap_with(2, 1.0, 0.05).unwrap();
        assert!((w - 0.4).abs() < 1e-9, "{w}");
        let w = tiny(0.25).overlap_with(2, 1.0, 0.05).unwrap();
        assert!((w - 1.0 / 6.0).abs() < 1e-6, "{w}");
        assert!((tiny(0.5).overlap_share(2, 1.0) - 1.0 / 16.0).abs() < 1e-12);
    }

    /// One stream on the link never overlaps; neither does the 1-cube's
    /// dimension-0 link at K = 1.
    #[test]
    fn one_stream_adds_nothing() {
        assert_eq!(tiny(0.5).overlap_with(1, 1.0, 0.05).unwrap(), 0.0);
        assert_eq!(tiny(0.5).overlap_share(1, 1.0), 0.0);
        assert_eq!(tiny(0.5).hop(0).unwrap().0, 0.0);
    }

    #[test]
    fn a_saturated_link_is_an_error() {
        assert!(tiny(1.0).overlap_with(2, 1.0, 0.05).is_err());
        assert!(tiny(0.5).overlap_with(2, 1.0, 0.2).is_err(), "λF = 0.8 > 1 − r");
        assert!(tiny(0.5).overlap_with(2, 1.0, 0.0).is_err());
    }
}

//! Best effort behind an ON/OFF real-time class, link by link (issue 22,
//! docs/reproduction.md "Best effort behind the cube's bursts"): the
//! cycles a best-effort message of F flits waits at one link while the
//! link carries real-time flits, from the fluid model's link quantities
//! (`onoff_fluid`: the m streams a link carries, each ON for a mean N·g
//! cycles at r = M/g flits a cycle and OFF for a mean I).
//!
//! Real time goes first, flit by flit (its own VC, the source sending the
//! highest class with a credit, VirtualClock's best-effort Vtick all ones),
//! so best effort passes only in the cycles real time leaves free. The
//! model ("leak"):
//!
//! - the link is *busy* while at least one of its m streams is ON:
//!   P_busy = 1 − (1 − p)^m with p = N·g/(N·g + I); a busy period lasts a
//!   mean B = P_busy / ((1 − P_busy)·m/I) (it starts at rate m/I from
//!   idle), taken exponential (exact for m = 1), so the part left when a
//!   message arrives has the same mean B;
//! - while busy the link carries r of real time (one stream ON; g ≥ M + 1,
//!   so r < 1) and leaks f = 1 − r to best effort, which needs F/f cycles
//!   for its F flits; a message arriving busy waits r·E[min(R, F/f)] =
//!   r·B·(1 − e^(−F/(f·B))) cycles (R the busy period's remainder; after
//!   it the rest of the flits pass freely);
//! - a message arriving idle sends its F flits in F cycles unless a busy
//!   period starts meanwhile (rate m/I, first order): one that starts u
//!   cycles in leaves F − u flits and costs r·B·(1 − e^(−(F − u)/(f·B))),
//!   whose integral over u in 0..F is r·B·(F − f·B·(1 − e^(−F/(f·B)))).
//!
//! Left out: two or more streams ON at once (the link then saturates and
//! real time queues; the fluid queue's backlog lengthens the busy period),
//! a second busy period during the same message, and waits behind real
//! time anywhere but at the link's output (crossbar, upstream links).

use super::onoff_fluid::{cube_hop_link_streams, BurstClass, CubeBurstClass, FluidError};

/// One real-time class's streams and one best-effort message length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeBurstWait {
    /// n, the cube's dimension (2^n nodes).
    pub n: usize,
    /// K, real-time streams per node.
    pub streams: usize,
    /// N·g, I: mean ON and OFF times of one stream, cycles.
    pub on_mean: f64,
    pub off_mean: f64,
    /// r, a stream's flits per cycle while ON.
    pub peak: f64,
    /// F, a best-effort message's flits.
    pub be_flits: f64,
}

impl BeBurstWait {
    /// The class of `cube` and best-effort messages as long as its own.
    pub fn for_cube(cube: &CubeBurstClass) -> BeBurstWait {
        let c: &BurstClass = &cube.class;
        BeBurstWait { n: cube.n, streams: c.streams, on_mean: c.mean_burst * c.gap, off_mean: c.off_mean, peak: c.flits / c.gap, be_flits: c.flits }
    }

    /// The busy periods (at least one stream ON) of a link that carries m
    /// streams: (P_idle, m/I the rate one starts from idle, B their mean
    /// length P_busy/(P_idle·m/I)). Shared with `be_prio_wait`.
    pub fn busy_periods(&self, m: usize) -> (f64, f64, f64) {
        let p = self.on_mean / (self.on_mean + self.off_mean);
        let idle = (1.0 - p).powi(m as i32);
        let start_rate = m as f64 / self.off_mean;
        (idle, start_rate, (1.0 - idle) / (idle * start_rate))
    }

    /// The wait at a link that carries exactly m streams, cycles.
    pub fn wait_with(&self, m: usize) -> Result<f64, FluidError> {
        if self.peak >= 1.0 {
            return Err(FluidError::Saturated { load: self.peak, capacity: 1.0 });
        }
        if m == 0 {
            return Ok(0.0);
        }
        let (idle, start_rate, busy_mean) = self.busy_periods(m);
        let (r, f, big_f) = (self.peak, 1.0 - self.peak, self.be_flits);
        let leak = 1.0 - (-big_f / (f * busy_mean)).exp();
        let arriving_busy = r * busy_mean * leak;
        let arriving_idle = start_rate * r * busy_mean * (big_f - f * busy_mean * leak);
        Ok((1.0 - idle) * arriving_busy + idle * arriving_idle)
    }

    /// The mean of `wait_with` and the real-time load (flits a cycle) at a
    /// link whose stream count is binomial(trials, q). Shared with the
    /// link-side model (`be_prio_wait`), which waits differently per m.
    pub fn binomial(&self, trials: usize, q: f64, wait_with: impl Fn(usize) -> Result<f64, FluidError>) -> Result<(f64, f64), FluidError> {
        let (mut wait, mut ln_choose) = (0.0, 0.0f64);
        for m in 0..=trials {
            if m > 0 {
                ln_choose += ((trials - m + 1) as f64 / m as f64).ln();
            }
            let ln_w = ln_choose + if m == 0 { 0.0 } else { m as f64 * q.ln() } + if m == trials { 0.0 } else { (trials - m) as f64 * (1.0 - q).ln() };
            wait += ln_w.exp() * wait_with(m)?;
        }
        let p = self.on_mean / (self.on_mean + self.off_mean);
        Ok((wait, trials as f64 * q * p * self.peak))
    }

    /// (trials, q) of the stream count at a source's injection link: its
    /// own K streams.
    pub fn injection_streams(&self) -> (usize, f64) {
        (self.streams, 1.0)
    }

    /// At the hop link of dimension d: each of the 2^d·K streams that may
    /// cross it does with probability q (`cube_hop_link_streams`, whose
    /// trials leave out a tagged stream; a best-effort message tags none).
    pub fn hop_streams(&self, d: usize) -> (usize, f64) {
        let (others, q) = cube_hop_link_streams(self.n, d, self.streams);
        (others + 1, q)
    }

    /// At a destination's ejection link: each of the (2^n − 1)·K streams
    /// of the other nodes with probability 1/(2^n − 1).
    pub fn ejection_streams(&self) -> (usize, f64) {
        let others = (1usize << self.n) - 1;
        (others * self.streams, 1.0 / others as f64)
    }

    /// (wait, real-time load) at a source's injection link.
    pub fn injection(&self) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.injection_streams();
        self.binomial(trials, q, |m| self.wait_with(m))
    }

    /// At the hop link of dimension d.
    pub fn hop(&self, d: usize) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.hop_streams(d);
        self.binomial(trials, q, |m| self.wait_with(m))
    }

    /// At a destination's ejection link.
    pub fn ejection(&self) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.ejection_streams();
        self.binomial(trials, q, |m| self.wait_with(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny case worked by hand: one stream ON 10 cycles at r = 1/2,
    /// OFF 30 (p = 1/4), F = 4 flits. m = 1: idle = 3/4, start rate 1/30,
    /// B = (1/4)/((3/4)/30) = 10, f = 1/2, F/(f·B) = 0.8,
    /// leak = 1 − e^−0.8 = 0.550671; busy: (1/2)·10·leak = 2.753355;
    /// idle: (1/30)·(1/2)·10·(4 − 5·leak) = (1/6)·1.246645 = 0.207774;
    /// wait = (1/4)·2.753355 + (3/4)·0.207774 = 0.688339 + 0.155831
    /// = 0.844169.
    fn tiny() -> BeBurstWait {
        BeBurstWait { n: 1, streams: 1, on_mean: 10.0, off_mean: 30.0, peak: 0.5, be_flits: 4.0 }
    }

    #[test]
    fn one_stream_by_hand() {
        let w = tiny().wait_with(1).unwrap();
        assert!((w - 0.844169).abs() < 1e-5, "{w}");
        assert_eq!(tiny().wait_with(0).unwrap(), 0.0);
    }

    /// The 1-cube (two nodes, K = 1): the injection link carries its own
    /// stream (m = 1 surely), the one hop link (d = 0) the stream of the
    /// one node whose bit 0 matches with probability 1 (2^0 sources,
    /// q = 2^0/(2^1 − 1) = 1), the ejection link the other node's stream
    /// with probability 1: all three the hand case, load 1/4 · 1/2 = 1/8.
    #[test]
    fn one_cube_links_carry_one_stream() {
        for (w, load) in [tiny().injection().unwrap(), tiny().hop(0).unwrap(), tiny().ejection().unwrap()] {
            assert!((w - 0.844169).abs() < 1e-5, "{w}");
            assert!((load - 0.125).abs() < 1e-12, "{load}");
        }
    }

    /// A binomial count by hand: 2 trials at q = 1/2 give m = 0, 1, 2 with
    /// 1/4, 1/2, 1/4. m = 2 (p = 1/4): idle = 9/16, rate 2/30, B = (7/16)/
    /// ((9/16)(1/15)) = 35/3, F/(f·B) = 24/35, leak = 1 − e^(−24/35)
    /// = 0.496269; busy: (1/2)(35/3)leak = 2.894903; idle: (1/15)(1/2)(35/3)
    /// (4 − (35/6)leak) = (7/18)(1.105097) = 0.429760; w(2) = (7/16)2.894903
    /// + (9/16)0.429760 = 1.266520 + 0.241740 = 1.508260. Mean: (1/2)
    /// 0.844169 + (1/4)1.508260 = 0.799150 (a Python check of the same
    /// formulas gives 0.7991499).
    #[test]
    fn binomial_count_by_hand() {
        let (w, load) = tiny().binomial(2, 0.5, |m| tiny().wait_with(m)).unwrap();
        assert!((w - 0.799150).abs() < 1e-5, "{w}");
        assert!((load - 0.125).abs() < 1e-12, "{load}");
    }

    #[test]
    fn a_saturating_stream_is_an_error() {
        let mut c = tiny();
        c.peak = 1.0;
        assert!(matches!(c.wait_with(1), Err(FluidError::Saturated { .. })));
    }
}

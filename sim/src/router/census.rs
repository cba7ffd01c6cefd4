//! The opt-in point-A census of the single-pass switch allocation (model
//! only; no RTL): how often an input port's candidate at point A is of a
//! lower class than another ready VC of the same port, by what the
//! candidate was chosen (§9.5 acceleration, or the configured order or a
//! §9.3 hold), and whether it then won at point B (took the port's crossbar
//! slot) or lost (the port moved nothing). It measures the claim of
//! docs/reproduction.md, 003_… Fig. 7, that accelerated lower-class flits
//! take real time's crossbar slots; it reads the router's state and never
//! changes it.

use super::state::GrantSource;
use super::{bits, Router};
use crate::ports::{PortSet, Width};

/// Counts of [`Router::point_a_census`], summed over the input ports and
/// cycles since the census was enabled (or the last reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointACensus {
    /// Port-cycles in which point A had a candidate.
    pub candidates: u64,
    /// Of them, the candidates chosen by acceleration (§9.5).
    pub accelerated: u64,
    /// Accelerated candidates of a class below some other ready VC of the
    /// port, which won at B: the lower class took the port's crossbar slot.
    pub accelerated_over_higher_won: u64,
    /// The same, lost at B: the port moved nothing in that cycle.
    pub accelerated_over_higher_lost: u64,
    /// Candidates by the configured order or a hold of a class below some
    /// other ready VC of the port, which won at B.
    pub ordered_over_higher_won: u64,
    /// The same, lost at B.
    pub ordered_over_higher_lost: u64,
}

impl<X: Width> Router<X> {
    /// Starts (or stops) the census. It counts in the single-pass switch
    /// allocation of the multiplexed crossbar only (not the iterative
    /// allocator, maximum matching, the split stage or the full crossbar).
    pub fn set_point_a_census(&mut self, on: bool) {
        self.census_on = on;
    }

    /// The census counts (all zero unless enabled).
    pub fn point_a_census(&self) -> PointACensus {
        self.census
    }

    /// Point A of input port p picked candidate v among `ready`: counts it,
    /// and returns whether v is of a lower class than another ready VC of p
    /// (its outcome at B is counted by [`Router::census_point_b`]).
    #[inline(never)]
    pub(super) fn census_point_a(&mut self, p: usize, v: usize, src: GrantSource, ready: u32) -> bool {
        let m = self.m;
        let class_of = |r: &Self, k: usize| r.cls(r.hdr[(p * m + k) & X::VC_MASK].class);
        let top = bits(ready).map(|k| class_of(self, k)).max().unwrap_or(0);
        let below = class_of(self, v) < top;
        self.census.candidates += 1;
        self.census.accelerated += (src == GrantSource::Acceleration) as u64;
        below
    }

    /// After point B: for each input port of `below` (its candidate was
    /// below a ready VC of a higher class), whether it won (`won`).
    #[inline(never)]
    pub(super) fn census_point_b(&mut self, below: X::Ports, won: X::Ports) {
        for p in below.iter() {
            let acc = self.inp[p & X::PORT_MASK].cand_src == GrantSource::Acceleration;
            let c = &mut self.census;
            match (acc, won.contains(p)) {
                (true, true) => c.accelerated_over_higher_won += 1,
                (true, false) => c.accelerated_over_higher_lost += 1,
                (false, true) => c.ordered_over_higher_won += 1,
                (false, false) => c.ordered_over_higher_lost += 1,
            }
        }
    }
}

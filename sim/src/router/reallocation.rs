//! Atomic output-VC reallocation (`router.vc_reallocation = "atomic"`,
//! docs/microarchitecture.md §6 stage 3, *Output-VC reallocation*): a VC
//! whose tail has crossed stays allocated, `draining`, until its buffer is
//! empty and every credit is back at the start of a cycle; it is released
//! at the end of that cycle. With `"tail_crossed"` nothing here runs.

use super::{bits, Router};
use crate::ports::{PortSet, Width};

impl<X: Width> Router<X> {
    /// Start of the cycle: the releases of the ports with a draining VC
    /// (none with `"tail_crossed"`); returns those ports, which the cycle's
    /// output-side end must visit.
    #[inline]
    pub(super) fn atomic_start_of_cycle(&mut self) -> X::Ports {
        let drain = self.drain_ports;
        if !drain.is_empty() {
            self.atomic_releases(drain);
        }
        drain
    }

    /// Start of the cycle, before any stage changes a count: marks in
    /// `release` the draining output VCs of the ports in `drain` whose
    /// buffer is empty (`ob_count == 0`) and whose credits are all back
    /// (`credits == DD`).
    #[inline(never)]
    pub(super) fn atomic_releases(&mut self, drain: X::Ports) {
        let m = self.m;
        for o in drain.iter() {
            let op = &mut self.outp[o & X::PORT_MASK];
            let mut release = 0;
            for u in bits(op.draining & !op.nonempty) {
                release |= ((self.credits[(o * m + u) & X::VC_MASK] == self.dd) as u32) << u;
            }
            op.release = release;
        }
    }

    /// End of the cycle, before the frees are applied, for the output ports
    /// in `touched` (which include every port with a draining VC): the VCs
    /// whose tail crossed in this cycle start draining instead of being
    /// freed, and the released VCs become the frees; `drain_ports` is
    /// brought up to date.
    #[inline(never)]
    pub(super) fn atomic_end_of_cycle(&mut self, touched: X::Ports) {
        let mut drain = self.drain_ports;
        for o in touched.iter() {
            let op = &mut self.outp[o & X::PORT_MASK];
            debug_assert_eq!(op.release & op.alloc_clear, 0, "a tail crossed into a VC released in the same cycle");
            op.draining = (op.draining & !op.release) | op.alloc_clear;
            op.alloc_clear = op.release;
            op.release = 0;
            drain.set_to(o, op.draining != 0);
        }
        self.drain_ports = drain;
    }
}

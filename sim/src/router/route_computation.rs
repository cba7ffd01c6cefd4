//! Stage 2, route computation (RC, docs/microarchitecture.md §6), with the
//! parallel-link choice (§2 `route_links`), the allowed output VCs (§2
//! `route_vcs`, §9.2 partition) and the preemptive RC from the history
//! stack (§9.4 "Stage 2").

use super::{bits, Router};
use crate::ports::{PortSet, Width};

impl<X: Width> Router<X> {
    /// RC for every input VC that was IDLE with a header at the start of the
    /// cycle: loads the header register, computes the route and makes the VC
    /// a VA requester of that port. `free_start` holds the free output VCs of
    /// each port at the start of the cycle (only with `route_links`).
    /// Returns the input ports touched.
    #[inline(always)]
    pub(super) fn route_computation<const P: bool>(&mut self, free_start: &X::PerPort<u8>) -> X::Ports {
        let m = self.m;
        let mut touched = X::Ports::EMPTY;
        for p in self.rc_ports.iter() {
            let rc = if P {
                self.pin[p & X::PORT_MASK].rc
            } else {
                let ip = &self.inp[p & X::PORT_MASK];
                ip.idle & ip.nonempty
            };
            touched |= X::Ports::single(p);
            for v in bits(rc) {
                let i = p * m + v;
                let h = self.rc_header::<P>(i);
                let code = h.dest as usize;
                let mut o = self.route_lut[code] as usize;
                if !self.links_lut.is_empty() {
                    // Most free output VCs; a later port must have strictly more.
                    let base = o;
                    for q in base + 1..base + self.links_lut[code] as usize {
                        if free_start[q & X::PORT_MASK] > free_start[o & X::PORT_MASK] {
                            o = q;
                        }
                    }
                }
                self.hdr[i & X::VC_MASK] = h;
                let avc = self.avc_lut[code] & self.class_vcs[self.cls(h.class) as usize];
                let d = &mut self.ivc[i & X::VC_MASK];
                d.route = o as u8;
                d.avc = avc;
                self.va_req[o * self.va_words + i / 64] |= 1u64 << (i % 64);
                self.outp[o & X::PORT_MASK].va_req_count += 1;
                self.va_ports |= X::Ports::single(o);
                self.stats.routed += 1;
            }
            self.inp[p & X::PORT_MASK].idle &= !rc;
        }
        touched
    }
}

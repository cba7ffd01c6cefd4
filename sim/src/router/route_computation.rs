//! Stage 2, route computation (RC, docs/microarchitecture.md §6), with the
//! parallel-link choice (§2 `route_links`), the allowed output VCs (§2
//! `route_vcs`, §9.2 partition) and the preemptive RC from the history
//! stack (§9.4 "Stage 2").

use super::{bits, Router, MAX_PORTS};

impl Router {
    /// RC for every input VC that was IDLE with a header at the start of the
    /// cycle: loads the header register, computes the route and makes the VC
    /// a VA requester of that port. `free_start` holds the free output VCs of
    /// each port at the start of the cycle (only with `route_links`).
    /// Returns the input ports touched.
    #[inline(always)]
    pub(super) fn route_computation<const P: bool>(&mut self, free_start: &[u8; MAX_PORTS]) -> u32 {
        let m = self.m;
        let mut touched = 0u32;
        for p in bits(self.rc_ports) {
            let rc = if P {
                self.pin[p & 31].rc
            } else {
                let ip = &self.inp[p & 31];
                ip.idle & ip.nonempty
            };
            touched |= 1 << p;
            for v in bits(rc) {
                let i = p * m + v;
                let h = self.rc_header::<P>(i);
                let code = h.dest as usize;
                let mut o = self.route_lut[code] as usize;
                if !self.links_lut.is_empty() {
                    // Most free output VCs; a later port must have strictly more.
                    let base = o;
                    for q in base + 1..base + self.links_lut[code] as usize {
                        if free_start[q] > free_start[o] {
                            o = q;
                        }
                    }
                }
                self.hdr[i & 511] = h;
                let avc = self.avc_lut[code] & self.class_vcs[self.cls(h.class) as usize];
                let d = &mut self.ivc[i & 511];
                d.route = o as u8;
                d.avc = avc;
                self.va_req[o * self.va_words + i / 64] |= 1u64 << (i % 64);
                self.outp[o & 31].va_req_count += 1;
                self.va_ports |= 1 << o;
                self.stats.routed += 1;
            }
            self.inp[p & 31].idle &= !rc;
        }
        touched
    }
}

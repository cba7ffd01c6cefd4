//! Stage 3, output-VC allocation (VA, docs/microarchitecture.md §6), with the
//! allowed output VCs (§2 `route_vcs`), the static partition (§9.2), the
//! caps on output VCs held by best effort and by real time (§9.4 stage 3)
//! and the victims of
//! flit acceleration (§9.5).

use super::{inc_mod, Router};
use crate::ports::{PortSet, Width};
use crate::arbiter::rr_pick_wide;

impl<X: Width> Router<X> {
    /// VA of every output port with a requester, on the start-of-cycle
    /// `allocated` (output VCs freed this cycle are applied at its end).
    /// Returns the input ports touched.
    #[inline(always)]
    pub(super) fn vc_allocation(&mut self) -> X::Ports {
        let vw = self.va_words;
        let mut touched_in = X::Ports::EMPTY;
        for o in self.va_ports.iter() {
            let free = !self.outp[o & X::PORT_MASK].allocated & self.vc_all;
            if free == 0 {
                if self.preempt.is_some_and(|p| p.acceleration) {
                    self.accelerate_victim(o);
                }
                continue;
            }
            let req = &self.va_req[o * vw..o * vw + vw];
            let va_ptr = self.outp[o & X::PORT_MASK].va_ptr as usize;
            // §9.4 stage 3: best effort (class 0) and real time (class 1)
            // at their caps are not satisfiable; `capped` has bit c set
            // when class c is refused.
            let capped = self.capped_classes(o);
            let i = if !self.restricted && capped == 0 {
                rr_pick_wide(req, va_ptr).unwrap()
            } else {
                // Only satisfiable requesters compete: a free VC in their
                // allowed set (every VC without one), and not capped.
                let sat = self.requests_where(req, |i| {
                    self.ivc[i & X::VC_MASK].avc & free != 0 && (capped >> self.cls(self.hdr[i & X::VC_MASK].class).min(2)) & 1 == 0
                });
                if capped & 2 != 0 && self.realtime_refused(req, free) {
                    self.rt_refusals += 1;
                }
                match rr_pick_wide(&sat[..][..vw], va_ptr) {
                    Some(i) => i,
                    None => continue,
                }
            };
            touched_in |= X::Ports::single(i / self.m);
            self.grant_output_vc(o, i, free & self.ivc[i & X::VC_MASK].avc);
        }
        touched_in
    }

    /// The requests of `req` (a VA request mask) from the input VCs `ok`
    /// accepts.
    #[inline(always)]
    fn requests_where(&self, req: &[u64], ok: impl Fn(usize) -> bool) -> X::VcWords {
        let mut sat = X::vc_words();
        for (k, &word) in req.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                sat[k & (X::VC_MASK >> 6)] |= (ok(k * 64 + b) as u64) << b;
            }
        }
        sat
    }

    /// §9.4 stage 3: bit 0 set when best effort holds
    /// `best_effort_output_vcs` output VCs of port o at the start of the
    /// cycle (allocated, last granted to a class-0 header), so no
    /// best-effort header may take another; bit 1 the same for real time
    /// (class 1) and `realtime_output_vcs`. 0 without caps.
    #[inline(always)]
    fn capped_classes(&self, o: usize) -> u32 {
        let m = self.m as u32;
        let allocated = self.outp[o & X::PORT_MASK].allocated;
        let at_cap = |granted: u32, cap: u32| cap < m && (allocated & granted).count_ones() >= cap;
        at_cap(self.be_granted[o & X::PORT_MASK], self.be_cap) as u32
            | (at_cap(self.rt_granted[o & X::PORT_MASK], self.rt_cap) as u32) << 1
    }

    /// Whether some class-1 requester of `req` has a free output VC
    /// (`free`) in its allowed set: one the real-time cap refuses
    /// (`Router::realtime_cap_refusals`).
    fn realtime_refused(&self, req: &[u64], free: u32) -> bool {
        let refused = self.requests_where(req, |i| {
            self.ivc[i & X::VC_MASK].avc & free != 0 && self.cls(self.hdr[i & X::VC_MASK].class) == 1
        });
        refused[..][..self.va_words].iter().any(|&w| w != 0)
    }

    /// The grant of VA at output port o to input VC i: it gets the
    /// lowest-numbered free output VC among `allowed`, and both enter the
    /// age orders (§6 stage 3).
    fn grant_output_vc(&mut self, o: usize, i: usize, allowed: u32) {
        let m = self.m;
        self.withdraw_va_request(i);
        let u = allowed.trailing_zeros() as usize;
        let stamp = self.cycle + 1;
        let op = &mut self.outp[o & X::PORT_MASK];
        op.allocated |= 1 << u;
        op.va_ptr = inc_mod(i, self.nm) as u16;
        let (p, v) = (i / m, i % m);
        self.inp[p & X::PORT_MASK].active |= 1 << v;
        self.ivc[i & X::VC_MASK].ovc = u as u8;
        self.in_stamp[i] = stamp;
        self.out_stamp[o * m + u] = stamp;
        self.owner[(o * m + u) & X::VC_MASK] = i as u16;
        if self.be_cap < m as u32 || self.rt_cap < m as u32 {
            let class = self.cls(self.hdr[i & X::VC_MASK].class);
            let mark = |granted: u32, of_class: bool| granted & !(1 << u) | (of_class as u32) << u;
            self.be_granted[o & X::PORT_MASK] = mark(self.be_granted[o & X::PORT_MASK], class == 0);
            self.rt_granted[o & X::PORT_MASK] = mark(self.rt_granted[o & X::PORT_MASK], class == 1);
        }
        self.stats.vc_grants += 1;
        if self.partitioned {
            self.stats.partition_grants[self.cls(self.hdr[i & X::VC_MASK].class) as usize] += 1;
        }
    }

    /// Input VC i stops requesting VA at its route (granted, or §9.4
    /// preempted while ROUTED); nothing if it was not requesting.
    pub(super) fn withdraw_va_request(&mut self, i: usize) {
        let o = self.ivc[i & X::VC_MASK].route as usize;
        let word = &mut self.va_req[o * self.va_words + i / 64];
        let bit = 1u64 << (i % 64);
        if *word & bit == 0 {
            return;
        }
        *word &= !bit;
        let op = &mut self.outp[o & X::PORT_MASK];
        op.va_req_count -= 1;
        if op.va_req_count == 0 {
            self.va_ports &= !X::Ports::single(o);
        }
    }

    /// §9.5 set: port o has VA requesters and no free output VC; the lowest
    /// output VC whose owner's class is below the requesters' highest class
    /// c* gives the victim, whose `acc` is set unless its tail crossed in
    /// this cycle (the clear wins). Start-of-cycle classes (§9.7).
    fn accelerate_victim(&mut self, o: usize) {
        let m = self.m;
        let vw = self.va_words;
        let mut cstar = 0;
        for k in 0..vw {
            let mut w = self.va_req[o * vw + k];
            while w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                cstar = cstar.max(self.cls(self.hdr[i & X::VC_MASK].class));
            }
        }
        let victim = (0..m)
            .map(|u| self.owner[(o * m + u) & X::VC_MASK])
            .find(|&w| self.cls(self.hdr[w as usize & X::VC_MASK].class) < cstar);
        let Some(w) = victim.map(usize::from) else { return };
        let freed = self.inp[(w / m) & X::PORT_MASK].freed >> (w % m) & 1 == 1;
        if !freed && !self.lane_regs[w].acc {
            self.lane_regs[w].acc = true;
            self.stats.accelerations += 1;
        }
    }
}

//! Stage 4, switch traversal (ST, docs/microarchitecture.md §6): readiness,
//! point A (one VC per input port: the configured order §5/§8, the §9.3
//! block hold, §9.5 acceleration) and point B (one input port per output
//! port) of the multiplexed crossbar, or every ready VC through the full
//! crossbar; then the moves into the output VC buffers.

use super::state::{GrantSource, AGE, ROUND_ROBIN, VIRTUAL_CLOCK};
use super::{bits, inc_mod, Router};
use crate::ports::{PortSet, Width};
use crate::arbiter::{age_pick, rr_pick};
use crate::vclock::is_realtime;

impl<X: Width> Router<X> {
    /// Stage 4 of every input port with an offer. Returns the input and
    /// output ports touched.
    #[inline(always)]
    pub(super) fn switch_traversal<const P: bool, const O: u8>(&mut self) -> (X::Ports, X::Ports) {
        self.clear_credit_outputs();
        let st = self.st_ports;
        let m = self.m;
        let mut touched_out = X::Ports::EMPTY;
        if self.full() {
            for p in st.iter() {
                for v in bits(self.offers::<P>(p)) {
                    let d = self.ivc[(p * m + v) & X::VC_MASK];
                    let (o, u) = (d.route as usize, d.ovc as usize);
                    if self.ob.count(o * m + u) < self.dout {
                        touched_out |= X::Ports::single(o);
                        self.move_flit::<P, O, false>(p, v, o, u);
                    }
                }
            }
            return (st, touched_out);
        }
        (st, self.switch_allocation::<P, O, false>(st))
    }

    /// The `in_credit` registers return to 0 (the cycle's moves, or with
    /// the registered stage its grants, set them again).
    #[inline(always)]
    pub(super) fn clear_credit_outputs(&mut self) {
        for p in self.credit_ports.iter() {
            self.outputs.credits[p] = 0;
        }
        self.credit_ports = X::Ports::EMPTY;
    }

    /// The multiplexed crossbar's switch allocation over the input ports
    /// `st` (single pass, or the iterative allocator): readiness, points A
    /// and B, and every match taking effect. `R`: the switch stage is
    /// registered, so a match is written into the grant registers and
    /// crosses in the next cycle, instead of moving now. Returns the output
    /// ports touched.
    #[inline(always)]
    pub(super) fn switch_allocation<const P: bool, const O: u8, const R: bool>(&mut self, st: X::Ports) -> X::Ports {
        let m = self.m;
        if self.switch_rounds != 0 {
            return self.iterative_allocation::<P, O, R>(st);
        }
        if self.max_matching {
            return self.maximum_matching_allocation::<P, O, R>(st);
        }
        let mut touched_out = X::Ports::EMPTY;
        // The opt-in census (`census.rs`) reads the preemptive router only.
        let census = P && self.census_on;
        let mut below = X::Ports::EMPTY;
        // (A)
        let mut out_req = X::Ports::EMPTY;
        for p in st.iter() {
            let present = self.offers::<P>(p);
            let ready = self.ready_of(p, present);
            if self.block > 1 {
                self.inp[p & X::PORT_MASK].ready = ready;
            }
            let Some((v, src)) = self.point_a_pick::<P, O>(p, present, ready) else { continue };
            if census && self.census_point_a(p, v, src, ready) {
                below |= X::Ports::single(p);
            }
            let ip = &mut self.inp[p & X::PORT_MASK];
            ip.cand = v as u8;
            if P || self.block > 1 {
                ip.cand_src = src;
            }
            let o = self.ivc[(p * m + v) & X::VC_MASK].route as usize;
            self.outp[o & X::PORT_MASK].xb_req |= X::Ports::single(p);
            out_req |= X::Ports::single(o);
        }
        // (B): the grants at A take effect only for the winners.
        touched_out |= out_req;
        let mut won = X::Ports::EMPTY;
        for o in out_req.iter() {
            let p = self.point_b_round_robin(o);
            let v = self.inp[p & X::PORT_MASK].cand as usize;
            let u = self.ivc[(p * m + v) & X::VC_MASK].ovc as usize;
            won |= X::Ports::single(p);
            self.point_a_granted::<P, O>(p, v);
            self.match_takes_effect::<P, O, R>(p, v, o, u);
        }
        if census {
            self.census_point_b(below, won);
        }
        self.point_a_unmatched::<O>(st, won);
        touched_out
    }

    /// Point B of output port o (single pass, split stage): the round-robin
    /// pick among the requesting input ports `xb_req`, which it clears, and
    /// the pointer past the winner. Returns the winner.
    #[inline(always)]
    pub(super) fn point_b_round_robin(&mut self, o: usize) -> usize {
        let op = &mut self.outp[o & X::PORT_MASK];
        let p = op.xb_req.round_robin_pick(op.xb_ptr as usize).unwrap();
        op.xb_req = X::Ports::EMPTY;
        op.xb_ptr = inc_mod(p, self.n) as u8;
        p
    }

    /// A match (p, v) -> output VC (o, u) of the switch allocation: the
    /// flit moves now (single-cycle stage), or is granted and moves in the
    /// next cycle (registered stage, `registered.rs`).
    #[inline(always)]
    pub(super) fn match_takes_effect<const P: bool, const O: u8, const R: bool>(&mut self, p: usize, v: usize, o: usize, u: usize) {
        if R {
            self.register_grant::<P>(p, v);
        } else {
            self.move_flit::<P, O, false>(p, v, o, u);
        }
    }

    /// Point A's registers at the end of stage 4 for the input ports of
    /// `st` not in `won`, and the ports with a running hold.
    #[inline(always)]
    pub(super) fn point_a_unmatched<const O: u8>(&mut self, st: X::Ports, won: X::Ports) {
        // Only a VirtualClock point or a hold has registers to update
        // without a grant.
        if O == VIRTUAL_CLOCK || self.block > 1 {
            for p in (st & !won).iter() {
                self.point_a_not_granted::<O>(p);
            }
        }
        if self.block > 1 {
            // A hold ends at a point with no ready VC (not visited).
            for p in (self.hold_ports & !st).iter() {
                self.blk[p & X::PORT_MASK].left = 0;
            }
            self.hold_ports =
                st.iter().fold(X::Ports::EMPTY, |h, p| h | X::Ports::single_if(p, self.blk[p & X::PORT_MASK].left > 0));
        }
    }

    /// The VCs of `present` (of input port p) that are ready (§6): their
    /// output VC buffer has room at the start of the cycle.
    #[inline(always)]
    pub(super) fn ready_of(&self, p: usize, present: u32) -> u32 {
        let m = self.m;
        let mut ready = 0u32;
        for v in bits(present) {
            let d = self.ivc[(p * m + v) & X::VC_MASK];
            let room = self.ob.count(d.route as usize * m + d.ovc as usize) < self.dout;
            ready |= (room as u32) << v;
        }
        ready
    }

    /// The iterative switch allocator (§6, *Switch allocation*): up to
    /// `switch_rounds` rounds of A then B over the unmatched input ports
    /// (MI) and output ports (MO), on start-of-cycle values; then every
    /// matched pair takes effect as a winner at B of the single pass.
    /// Returns the output ports touched.
    #[inline(never)]
    fn iterative_allocation<const P: bool, const O: u8, const R: bool>(&mut self, st: X::Ports) -> X::Ports {
        let m = self.m;
        let mut present = X::per_port_value(0u32);
        for p in st.iter() {
            present[p & X::PORT_MASK] = self.offers::<P>(p);
            self.inp[p & X::PORT_MASK].ready = self.ready_of(p, present[p & X::PORT_MASK]);
        }
        let (mut mi, mut mo) = (X::Ports::EMPTY, X::Ports::EMPTY);
        let mut matched_out = X::per_port_value(0u8);
        for round in 0..self.switch_rounds {
            // (A_r) on R_r(p): the ready VCs whose route is not in MO.
            let mut out_req = X::Ports::EMPTY;
            for p in (st & !mi).iter() {
                let ready = self.inp[p & X::PORT_MASK].ready;
                let eligible = bits(ready).fold(ready, |e, v| {
                    let o = self.ivc[(p * m + v) & X::VC_MASK].route as usize;
                    e & !((mo.contains(o) as u32) << v)
                });
                let pick = if round == 0 {
                    // R_1(p) is the ready set: the single pass's pick, stamps included.
                    self.point_a_pick::<P, O>(p, present[p & X::PORT_MASK], eligible)
                } else {
                    let vc_choice = if O == VIRTUAL_CLOCK { self.vclk[p].sched.repick(eligible) } else { None };
                    self.point_a_choose::<P, O>(p, present[p & X::PORT_MASK], eligible, vc_choice)
                };
                let Some((v, src)) = pick else { continue };
                let o = self.ivc[(p * m + v) & X::VC_MASK].route as usize;
                // B_r is made only at outputs not in MO (R_r(p) keeps
                // every candidate away from them; this keeps a match unique).
                if mo.contains(o) {
                    continue;
                }
                let ip = &mut self.inp[p & X::PORT_MASK];
                ip.cand = v as u8;
                ip.cand_src = src;
                self.outp[o & X::PORT_MASK].xb_req |= X::Ports::single(p);
                out_req |= X::Ports::single(o);
            }
            if out_req.is_empty() {
                // MI and MO are unchanged: no later round has a candidate.
                break;
            }
            // (B_r)
            for o in out_req.iter() {
                let req = std::mem::take(&mut self.outp[o & X::PORT_MASK].xb_req);
                let p = self.point_b_pick::<O>(o, req);
                mi |= X::Ports::single(p);
                mo |= X::Ports::single(o);
                matched_out[p & X::PORT_MASK] = o as u8;
            }
        }
        for p in mi.iter() {
            let o = matched_out[p & X::PORT_MASK] as usize;
            let v = self.inp[p & X::PORT_MASK].cand as usize;
            let u = self.ivc[(p * m + v) & X::VC_MASK].ovc as usize;
            self.outp[o & X::PORT_MASK].xb_ptr = inc_mod(p, self.n) as u8;
            self.point_a_granted::<P, O>(p, v);
            self.match_takes_effect::<P, O, R>(p, v, o, u);
        }
        self.point_a_unmatched::<O>(st, mi);
        mo
    }

    /// Point B of the iterative allocator for output port o among the input
    /// ports `req` whose candidate routes to it: with `virtualclock` the
    /// real-time candidate with the smallest relative stamp (lowest port on
    /// ties), else (and for `fifo`, `round_robin`) round robin from `xb_ptr`.
    #[inline(always)]
    fn point_b_pick<const O: u8>(&self, o: usize, req: X::Ports) -> usize {
        if O == VIRTUAL_CLOCK {
            let m = self.m;
            let mut best: Option<(i64, usize)> = None;
            for p in req.iter() {
                let v = self.inp[p & X::PORT_MASK].cand as usize;
                if is_realtime(self.hdr[(p * m + v) & X::VC_MASK].vtick as u64, self.vtick_width) {
                    let rel = self.vclk[p].sched.relative_stamp(v);
                    if best.is_none_or(|(b, _)| rel < b) {
                        best = Some((rel, p));
                    }
                }
            }
            if let Some((_, p)) = best {
                return p;
            }
        }
        req.round_robin_pick(self.outp[o & X::PORT_MASK].xb_ptr as usize).unwrap()
    }

    /// The input VCs of port p with something to offer to stage 4 (§6:
    /// ACTIVE and non-empty; §9.4: a lane flit or a dummy flit).
    #[inline(always)]
    pub(super) fn offers<const P: bool>(&self, p: usize) -> u32 {
        if P {
            let pp = &self.pin[p & X::PORT_MASK];
            pp.offer_lane | pp.offer_dhead | pp.offer_dtail
        } else {
            let ip = &self.inp[p & X::PORT_MASK];
            ip.active & ip.nonempty
        }
    }

    /// Point A of input port p: an accelerated ready VC (§9.5), else the
    /// VC a block hold keeps (§9.3), else the configured order. A
    /// VirtualClock point stamps every present slot whatever grants.
    #[inline(always)]
    pub(super) fn point_a_pick<const P: bool, const O: u8>(&mut self, p: usize, present: u32, ready: u32) -> Option<(usize, GrantSource)> {
        let vc_choice = if O == VIRTUAL_CLOCK {
            let m = self.m;
            let hdr = &self.hdr[..][p * m..p * m + m];
            let vtw = self.vtick_width;
            let rt = bits(present).fold(0, |a, v| a | (is_realtime(hdr[v].vtick as u64, vtw) as u32) << v);
            let pt = &mut self.vclk[p];
            pt.sync(self.cycle);
            pt.sched.grant_lit(present, rt, ready, |v| hdr[v].vtick as u64)
        } else {
            None
        };
        self.point_a_choose::<P, O>(p, present, ready, vc_choice)
    }

    /// Point A's choice among `eligible` (the ready VCs, or a later round's
    /// R_r(p)), `vc_choice` being the VirtualClock order's pick among them.
    #[inline(always)]
    fn point_a_choose<const P: bool, const O: u8>(
        &self,
        p: usize,
        present: u32,
        eligible: u32,
        vc_choice: Option<usize>,
    ) -> Option<(usize, GrantSource)> {
        let m = self.m;
        if P && self.preempt.is_some_and(|pr| pr.acceleration) {
            let dtail = self.pin[p & X::PORT_MASK].offer_dtail;
            let acc = bits(present).fold(dtail, |a, v| a | (self.lane_regs[p * m + v].acc as u32) << v);
            let acc_ready = eligible & acc;
            if acc_ready != 0 {
                let acc_ptr = self.inp[p & X::PORT_MASK].acc_ptr as u32;
                return Some((rr_pick(acc_ready as u64, acc_ptr).unwrap() as usize, GrantSource::Acceleration));
            }
        }
        if self.block > 1 && self.blk[p & X::PORT_MASK].holds(eligible) {
            return Some((self.blk[p & X::PORT_MASK].slot as usize, GrantSource::Hold));
        }
        if eligible == 0 {
            return None;
        }
        let v = match O {
            AGE => age_pick(eligible as u64, &self.in_stamp[p * m..p * m + m]).unwrap() as usize,
            ROUND_ROBIN => rr_pick(eligible as u64, self.inp[p & X::PORT_MASK].xa_ptr as u32).unwrap() as usize,
            _ => vc_choice.unwrap(),
        };
        Some((v, GrantSource::Order))
    }

    /// Point A's registers after its candidate v won at B (§5, §8.4 steps
    /// 3-4, §9.3 step 3-4, §9.5).
    #[inline(always)]
    fn point_a_granted<const P: bool, const O: u8>(&mut self, p: usize, v: usize) {
        self.point_a_granted_at::<P, O>(p, v, 0);
    }

    /// [`Router::point_a_granted`] for a granted flit at position `pos` of
    /// the VC's buffer (foundation input port; the split stage's pick behind
    /// a candidate in flight, §6 *Split switch allocation*; else 0).
    #[inline(always)]
    pub(super) fn point_a_granted_at<const P: bool, const O: u8>(&mut self, p: usize, v: usize, pos: usize) {
        if O == VIRTUAL_CLOCK {
            self.vclk[p].update(Some(v), self.cycle);
        }
        if O == ROUND_ROBIN {
            self.inp[p & X::PORT_MASK].xa_ptr = inc_mod(v, self.m) as u8;
        }
        // Only acceleration (P) and a hold (b > 1) grant other than by the order.
        if P || self.block > 1 {
            self.point_a_granted_by_qos::<P>(p, v, pos);
        }
    }

    /// The §9.3 and §9.5 registers of point A after a grant of v took effect.
    #[inline(never)]
    fn point_a_granted_by_qos<const P: bool>(&mut self, p: usize, v: usize, pos: usize) {
        let ip = &mut self.inp[p & X::PORT_MASK];
        match ip.cand_src {
            GrantSource::Acceleration => ip.acc_ptr = inc_mod(v, self.m) as u8,
            GrantSource::Hold => self.stats.block_holds += 1,
            GrantSource::Order => {}
        }
        if self.block > 1 {
            let tail = if pos == 0 { self.offer_is_tail::<P>(p, v) } else { self.ib.get(p * self.m + v, pos).tail };
            self.blk[p & X::PORT_MASK].granted(v, tail, self.block);
        }
    }

    /// Point A's registers when nothing it granted took effect: the
    /// VirtualClock cycle ends without a grant, and a hold whose VC is not
    /// ready ends (§9.3).
    #[inline]
    fn point_a_not_granted<const O: u8>(&mut self, p: usize) {
        if O == VIRTUAL_CLOCK {
            self.vclk[p].update(None, self.cycle);
        }
        let blk = &mut self.blk[p & X::PORT_MASK];
        if blk.left > 0 && self.inp[p & X::PORT_MASK].ready >> blk.slot & 1 == 0 {
            blk.left = 0;
        }
    }

    /// Stage 4 move of the offer of input VC (p, v) into output VC (o, u).
    /// `R`: the crossing of a registered grant (`registered.rs`), which
    /// returns no credit (the grant did) and leaves `nonempty` as the
    /// start-of-cycle count less this flit, for the allocation that follows
    /// in the same cycle (this cycle's BW write is visible only at its end).
    #[inline(always)]
    pub(super) fn move_flit<const P: bool, const O: u8, const R: bool>(&mut self, p: usize, v: usize, o: usize, u: usize) {
        let m = self.m;
        let f = match P {
            true => self.take_preemptive_offer(p, v, o, u),
            false => {
                let i = p * m + v;
                let mut f = self.ib.pop(i);
                // §8.2: the input VC's Vtick register travels with the flit
                // (read only by a VirtualClock point C); a tail clears it.
                if O == VIRTUAL_CLOCK {
                    let h = &mut self.hdr[i & X::VC_MASK];
                    f.vtick = h.vtick;
                    h.vtick &= !((f.tail as u32).wrapping_neg());
                }
                let ip = &mut self.inp[p & X::PORT_MASK];
                // Whether a VC (or credit count) just ran out varies from flit
                // to flit and mispredicts as a branch; here and in stage 5 the
                // mask update is branch-free.
                let left = if R { self.ib.count(i) - (ip.pushed >> v & 1) as u16 } else { self.ib.count(i) };
                ip.nonempty &= !(((left == 0) as u32) << v);
                if f.tail {
                    ip.active &= !(1 << v);
                    ip.freed |= 1 << v;
                    self.outp[o & X::PORT_MASK].alloc_clear |= 1 << u;
                }
                if !R {
                    self.outputs.credits[p] |= 1 << v;
                    self.credit_ports |= X::Ports::single(p);
                }
                self.stats.crossbar_moves += 1;
                f
            }
        };
        self.push_output(o, u, f);
    }

    /// A flit crossing the crossbar enters output VC buffer (o, u).
    #[inline(always)]
    pub(super) fn push_output(&mut self, o: usize, u: usize, f: crate::fifo::Flit) {
        self.ob.push(o * self.m + u, f);
        self.outp[o & X::PORT_MASK].nonempty |= 1 << u;
    }
}

//! The preemptive input port (docs/microarchitecture.md §9.4): what each
//! input VC offers to stage 4 and wants of RC on its lanes, the preemption
//! step (cases (b) and (c)), lane release, and the stage 4 move of a lane
//! flit or a dummy flit with the history stack.
//!
//! Every decision is taken on the registers at the start of the cycle, in
//! [`Router::preemption_decisions`], before any stage updates them; the
//! decisions are kept as masks of the input port (`offer_*`, `rc`,
//! `silent`, `release`).

use super::state::MAX_LANES;
use super::{bits, HeaderFields, Router};
use crate::ports::{PortSet, Width};
use crate::fifo::Flit;
use crate::link::credit_lane_word;
use crate::link::MAX_FLIT_WORDS;

/// What an input VC offers to stage 4 (§9.4 "Stage 4").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Offer {
    /// The front flit of its serving lane.
    #[default]
    Lane,
    /// A dummy header resuming a suspended part.
    DummyHead,
    /// A dummy tail ending the part of a preempted message (case (a)).
    DummyTail,
}

impl<X: Width> Router<X> {
    /// The §9.4 decisions of every busy input port on the start-of-cycle
    /// registers (case (a) is the dummy-tail offer).
    pub(super) fn preemption_decisions(&mut self) {
        let m = self.m;
        for p in 0..self.n {
            let ip = self.inp[p & X::PORT_MASK];
            let mut pp = self.pin[p & X::PORT_MASK];
            (pp.offer_lane, pp.offer_dhead, pp.offer_dtail) = (0, 0, 0);
            (pp.rc, pp.silent, pp.release) = (0, 0, 0);
            if self.st_ports.contains(p) {
                // The VC whose granted offer crosses now (registered switch
                // allocation only).
                let pend = if self.sg_ports.contains(p) { Some(ip.sg_vc as usize) } else { None };
                for v in 0..m {
                    let i = p * m + v;
                    let d = self.lane_regs[i];
                    let bit = 1u32 << v;
                    let lane = self.lane_ring(i, d.sl as usize);
                    let lane_empty = self.ib.count(lane) == 0;
                    let susp = d.susp >> d.sl & 1 == 1;
                    if pend == Some(v) {
                        // §6 *Registered switch allocation in P mode*: no
                        // preemption step while an offer crosses; behind a
                        // lane flit or a dummy header that is not a tail,
                        // the lane flit at position q (the front once the
                        // crossing has popped, read so by SA).
                        let q = match pp.sg_offer {
                            Offer::Lane if !self.ib.front(lane).tail => Some(1),
                            Offer::DummyHead => Some(0),
                            _ => None,
                        };
                        if q.is_some_and(|q| d.sl == d.top && self.ib.count(lane) > q) {
                            pp.offer_lane |= bit;
                        }
                        continue;
                    }
                    if d.sl < d.top {
                        if ip.active & bit != 0 && d.sent {
                            pp.offer_dtail |= bit;
                        } else {
                            pp.silent |= bit;
                        }
                    } else if ip.active & bit != 0 {
                        if susp {
                            pp.offer_dhead |= bit;
                        } else if !lane_empty {
                            pp.offer_lane |= bit;
                        }
                    } else if ip.idle & bit != 0 {
                        if susp || !lane_empty {
                            pp.rc |= bit;
                        }
                        if d.sl > 0 && lane_empty {
                            pp.release |= bit;
                        }
                    }
                }
            }
            self.pin[p & X::PORT_MASK] = pp;
        }
    }

    /// The stage 4 offer of input VC (p, v), which must have one.
    #[inline]
    pub(super) fn offer(&self, p: usize, v: usize) -> Offer {
        let pp = &self.pin[p & X::PORT_MASK];
        if pp.offer_dhead >> v & 1 == 1 {
            Offer::DummyHead
        } else if pp.offer_dtail >> v & 1 == 1 {
            Offer::DummyTail
        } else {
            Offer::Lane
        }
    }

    /// Whether the offered flit of input VC (p, v) is a tail (real or dummy).
    #[inline]
    pub(super) fn offer_is_tail<const P: bool>(&self, p: usize, v: usize) -> bool {
        let i = p * self.m + v;
        match P {
            false => self.ib.front(i).tail,
            true => match self.offer(p, v) {
                Offer::Lane => self.ib.front(self.lane_ring(i, self.lane_regs[i].sl as usize)).tail,
                Offer::DummyTail => true,
                Offer::DummyHead => false,
            },
        }
    }

    /// §9.4 preemption step, cases (b) and (c): the VC switches to lane
    /// `sl + 1` without a dummy tail, releasing its output VC if it held one
    /// (free for VA from the next cycle). Returns the output ports touched.
    pub(super) fn preemption_step(&mut self) -> X::Ports {
        let m = self.m;
        let mut touched_out = X::Ports::EMPTY;
        for p in 0..self.n {
            let silent = self.pin[p & X::PORT_MASK].silent;
            for v in bits(silent) {
                let i = p * m + v;
                let bit = 1u32 << v;
                if self.inp[p & X::PORT_MASK].active & bit != 0 {
                    let d = self.ivc[i & X::VC_MASK];
                    self.outp[d.route as usize & X::PORT_MASK].alloc_clear |= 1 << d.ovc;
                    touched_out |= X::Ports::single(d.route as usize);
                }
                let ip = &mut self.inp[p & X::PORT_MASK];
                ip.active &= !bit;
                ip.idle |= bit;
                self.lane_regs[i].sl += 1;
                self.stats.silent_preemptions += 1;
            }
        }
        touched_out
    }

    /// §9.4 lane release: an IDLE VC serving an empty lane above 0 that
    /// received no flit this cycle goes back to the lane below.
    pub(super) fn lane_release(&mut self) {
        let m = self.m;
        for p in 0..self.n {
            let pushed = self.inp[p & X::PORT_MASK].pushed;
            for v in bits(self.pin[p & X::PORT_MASK].release & !pushed) {
                let d = &mut self.lane_regs[p * m + v];
                d.top -= 1;
                d.sl -= 1;
                self.pin[p & X::PORT_MASK].extra -= 1;
            }
        }
    }

    /// The header RC reads for input VC i (§9.4 "Stage 2"): the stack top
    /// of a suspended lane, else the front flit of the serving lane.
    #[inline]
    pub(super) fn rc_header<const P: bool>(&self, i: usize) -> HeaderFields {
        match P {
            false => self.header_of(&self.ib.front(i).data),
            true => {
                let d = &self.lane_regs[i];
                if d.susp >> d.sl & 1 == 1 {
                    // (hsp > 0 whenever susp is set, except after protocol violations.)
                    self.hs[i][(d.hsp as usize).saturating_sub(1)]
                } else {
                    self.header_of(&self.ib.front(self.lane_ring(i, d.sl as usize)).data)
                }
            }
        }
    }

    /// §9.4 stage 4 of the preemptive input port: input VC (p, v) moves its
    /// offer towards output VC (o, u); the flit to push is returned (with
    /// the Vtick register it carries, §8.2).
    pub(super) fn take_preemptive_offer(&mut self, p: usize, v: usize, o: usize, u: usize) -> Flit {
        let offer = self.offer(p, v);
        self.lane_credit(p, v, offer);
        self.take_offer(p, v, o, u, offer)
    }

    /// The credit of an offer of input VC (p, v) that leaves a lane: on
    /// `in_credit` in the next cycle, with the lane it frees (`sl`). A
    /// dummy flit has none. Stage 4 of the single-cycle pipeline, or the
    /// grant of the registered one (§6: the credit leaves with the flit).
    pub(super) fn lane_credit(&mut self, p: usize, v: usize, offer: Offer) {
        if offer != Offer::Lane {
            return;
        }
        self.outputs.credits[p] |= 1 << v;
        if self.per_lane {
            let sl = self.lane_regs[p * self.m + v].sl as usize;
            self.outputs.credit_lanes[p] |= credit_lane_word(v, sl);
        }
        self.credit_ports |= X::Ports::single(p);
    }

    /// Input VC (p, v) moves its offer of kind `offer` towards output VC
    /// (o, u), with every §9.4 effect of its crossing (the credit is
    /// [`Router::lane_credit`]'s).
    pub(super) fn take_offer(&mut self, p: usize, v: usize, o: usize, u: usize, offer: Offer) -> Flit {
        let i = p * self.m + v;
        let d = self.lane_regs[i];
        let hdr = self.hdr[i & X::VC_MASK];
        let f = match offer {
            Offer::Lane => {
                let f = self.ib.pop(self.lane_ring(i, d.sl as usize));
                self.pin[p & X::PORT_MASK].lane_flits -= 1;
                self.stats.crossbar_moves += 1;
                f
            }
            Offer::DummyHead => {
                self.stats.dummy_headers += 1;
                let mut data = [0; MAX_FLIT_WORDS];
                data[0] = hdr.dest as u64
                    | (hdr.class as u64) << self.dest_width
                    | (hdr.vtick as u64) << (self.dest_width + self.class_width);
                Flit { data, head: true, tail: false, dummy: true, vtick: 0 }
            }
            Offer::DummyTail => {
                self.stats.preemptions += 1;
                if d.hsp > 0 {
                    self.stats.nested_preemptions += 1;
                }
                Flit { data: [0; MAX_FLIT_WORDS], head: false, tail: true, dummy: true, vtick: 0 }
            }
        };
        let ip = &mut self.inp[p & X::PORT_MASK];
        let bit = 1u32 << v;
        let dm = &mut self.lane_regs[i];
        match offer {
            Offer::DummyHead => {
                // The stack saturates (only reachable after protocol violations).
                if dm.hsp > 0 {
                    self.pin[p & X::PORT_MASK].extra -= 1;
                }
                dm.hsp = dm.hsp.saturating_sub(1);
                dm.susp &= !(1 << dm.sl);
                dm.sent = true;
            }
            Offer::DummyTail => {
                if (dm.hsp as usize) < MAX_LANES {
                    self.pin[p & X::PORT_MASK].extra += 1;
                    self.hs[i][dm.hsp as usize] = hdr;
                    dm.hsp += 1;
                }
                dm.susp |= 1 << dm.sl;
                dm.sl += 1;
                dm.sent = false;
                dm.acc = false;
                ip.active &= !bit;
                ip.freed |= bit;
                self.outp[o & X::PORT_MASK].alloc_clear |= 1 << u;
                self.hdr[i & X::VC_MASK].vtick = 0;
            }
            Offer::Lane => {
                dm.sent = !f.tail;
                if f.tail {
                    dm.acc = false;
                    ip.active &= !bit;
                    ip.freed |= bit;
                    self.outp[o & X::PORT_MASK].alloc_clear |= 1 << u;
                        self.hdr[i & X::VC_MASK].vtick = 0;
                }
            }
        }
        // §8.2: the Vtick register travels with the flit.
        Flit { vtick: hdr.vtick, ..f }
    }
}

//! Stage 5, the output VC buffers and the VC multiplexer (point C,
//! docs/microarchitecture.md §6): the pick (round robin; with the full
//! crossbar the configured order §5/§8 and the §9.3 block hold), the output
//! registers and the credit counters.

use super::state::{AGE, ROUND_ROBIN, VIRTUAL_CLOCK};
use super::{bits, inc_mod, Router};
use crate::ports::{PortSet, Width};
use crate::arbiter::{age_pick, rr_pick};
use crate::link::{credit_lane, LinkFlit};
use crate::vclock::is_realtime;

impl<X: Width> Router<X> {
    /// The stage 5 pick of every output port with an eligible VC (non-empty,
    /// with a credit), on the start-of-cycle counts. Every grant at C takes
    /// effect, so the scheduler and the hold are updated here.
    #[inline(always)]
    pub(super) fn point_c_pick<const O: u8>(&mut self) {
        let m = self.m;
        if !self.full() {
            for o in self.c_ports.iter() {
                let op = &mut self.outp[o & X::PORT_MASK];
                op.picked = rr_pick((op.nonempty & op.credit_ok) as u64, op.oc_ptr as u32).unwrap() as u8;
            }
            return;
        }
        // A VirtualClock point stamps present slots even when none is eligible.
        let visit = if O == VIRTUAL_CLOCK { self.c_present } else { self.c_ports };
        for o in visit.iter() {
            let op = self.outp[o & X::PORT_MASK];
            let elig = op.nonempty & op.credit_ok;
            let vc_choice = if O == VIRTUAL_CLOCK {
                let ob = &self.ob;
                let vtick = |u: usize| ob.front(o * m + u).vtick as u64;
                let vtw = self.vtick_width;
                let rt = bits(op.nonempty).fold(0, |a, u| a | (is_realtime(vtick(u), vtw) as u32) << u);
                let pt = &mut self.vclk[o];
                pt.sync(self.cycle);
                pt.sched.grant_lit(op.nonempty, rt, elig, vtick)
            } else {
                None
            };
            let hold = self.blk[o & X::PORT_MASK].holds(elig);
            let pick = if hold {
                Some(self.blk[o & X::PORT_MASK].slot as usize)
            } else if elig == 0 {
                None
            } else {
                match O {
                    AGE => age_pick(elig as u64, &self.out_stamp[o * m..o * m + m]).map(|u| u as usize),
                    ROUND_ROBIN => rr_pick(elig as u64, op.oc_ptr as u32).map(|u| u as usize),
                    _ => vc_choice,
                }
            };
            if O == VIRTUAL_CLOCK {
                self.vclk[o].update(pick, self.cycle);
            }
            match pick {
                Some(u) => {
                    self.stats.block_holds += hold as u64;
                    self.outp[o & X::PORT_MASK].picked = u as u8;
                    if self.block > 1 {
                        let tail = self.ob.front(o * m + u).tail;
                        self.blk[o & X::PORT_MASK].granted(u, tail, self.block);
                    }
                }
                // The hold's VC is not eligible: the hold ends (§9.3).
                None => self.blk[o & X::PORT_MASK].left = 0,
            }
        }
        if self.block > 1 {
            for o in (self.hold_ports & !visit).iter() {
                self.blk[o & X::PORT_MASK].left = 0;
            }
            self.hold_ports =
                visit.iter().fold(X::Ports::EMPTY, |h, o| h | X::Ports::single_if(o, self.blk[o & X::PORT_MASK].left > 0));
        }
    }

    /// Stage 5 at the rising edge: the picked flits leave their buffers into
    /// the output registers (all 0 where nothing was picked), and the credit
    /// counters take `- sent + returned`, saturating at DD. Returns the
    /// output ports touched.
    #[inline(always)]
    pub(super) fn output_registers<const P: bool>(&mut self, in_credits: &[u32], ret_ports: X::Ports) -> X::Ports {
        let m = self.m;
        let c_ports = self.c_ports;
        for o in (self.out_valid_ports & !c_ports).iter() {
            self.outputs.flits[o] = LinkFlit::IDLE;
        }
        self.out_valid_ports = c_ports;
        for o in c_ports.iter() {
            let op = &mut self.outp[o & X::PORT_MASK];
            let u = op.picked as usize;
            let j = o * m + u;
            let f = self.ob.pop(j);
            op.nonempty &= !(((self.ob.count(j) == 0) as u32) << u);
            let lane = if P && self.per_lane {
                // §9.4 *Credits*: the lane was chosen on the start-of-cycle
                // sender state; `credit_ok` is recomputed at the end of the cycle.
                let c = if f.head { self.cls(self.header_of(&f.data).class) as u8 } else { 0 };
                let pick = self.lane_tx[j].pick(f.head, c);
                self.lane_tx[j].send(pick, f.head, c);
                pick.lane
            } else {
                self.credits[j & X::VC_MASK] -= 1;
                op.credit_ok &= !(((self.credits[j & X::VC_MASK] == 0) as u32) << u);
                0
            };
            let op = &mut self.outp[o & X::PORT_MASK];
            // Read only by the round-robin orders.
            op.oc_ptr = inc_mod(u, m) as u8;
            self.outputs.flits[o] = LinkFlit { lane, valid: true, dummy: f.dummy, vc: u as u8, head: f.head, tail: f.tail, data: f.data };
            self.stats.tails_forwarded += (f.tail && !(P && f.dummy)) as u64;
            self.stats.flits_forwarded += 1;
        }
        if P && self.per_lane {
            for o in ret_ports.iter() {
                for u in bits(in_credits[o] & self.vc_all) {
                    self.lane_tx[o * m + u].credit(credit_lane(self.in_lanes[o], u));
                }
            }
            return c_ports | ret_ports;
        }
        for o in ret_ports.iter() {
            for u in bits(in_credits[o] & self.vc_all) {
                let j = o * m + u;
                if self.credits[j & X::VC_MASK] < self.dd {
                    self.credits[j & X::VC_MASK] += 1;
                    self.outp[o & X::PORT_MASK].credit_ok |= 1 << u;
                }
            }
        }
        c_ports | ret_ports
    }

    /// §9.4 *Credits* (`per_lane`): the lane the front flit of output VC j
    /// takes (the open lane when the buffer is empty).
    pub(super) fn front_lane(&self, j: usize) -> u8 {
        let tx = &self.lane_tx[j];
        if self.ob.count(j) == 0 {
            return tx.pick(false, 0).lane;
        }
        let f = self.ob.front(j);
        let c = if f.head { self.cls(self.header_of(&f.data).class) as u8 } else { 0 };
        tx.pick(f.head, c).lane
    }

    /// §9.4 *Credits* (`per_lane`), at the end of the cycle: `credit_ok` of
    /// the output ports touched is whether each front flit's lane has a
    /// credit (a pop, a push into an empty buffer or a returned credit can
    /// change it).
    pub(super) fn lane_credit_ok(&mut self, touched_out: X::Ports) {
        let m = self.m;
        for o in (touched_out & self.port_all).iter() {
            let mut ok = 0u32;
            for u in bits(self.outp[o & X::PORT_MASK].nonempty) {
                let j = o * m + u;
                ok |= ((self.lane_tx[j].credits(self.front_lane(j)) > 0) as u32) << u;
            }
            self.outp[o & X::PORT_MASK].credit_ok = ok;
        }
    }
}

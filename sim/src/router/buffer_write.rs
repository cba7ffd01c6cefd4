//! Stage 1, buffer write (BW, docs/microarchitecture.md §6), with the lane
//! choice of the preemptive input port (§9.4 "BW").

use super::state::{LaneChoice, LaneWrite};
use super::Router;
use crate::ports::{PortSet, Width};
use crate::fifo::Flit;
use crate::link::LinkFlit;

impl<X: Width> Router<X> {
    /// §6 stage 1: each valid input flit is admitted on the start-of-cycle
    /// count of its buffer (lane) and pushed at once; it becomes visible to
    /// the other stages only at the end of the cycle (`pushed`), and every
    /// pop of this cycle takes an older flit from the front. Returns the
    /// input ports written.
    #[inline(always)]
    pub(super) fn buffer_write<const P: bool>(&mut self, in_flits: &[LinkFlit], valid: X::Ports) -> X::Ports {
        let m = self.m;
        let mut accepted = X::Ports::EMPTY;
        for p in valid.iter() {
            let f = &in_flits[p];
            let v = (f.vc & self.vc_id_mask) as usize;
            if !f.valid {
                continue;
            }
            if v >= m {
                self.stats.dropped_bad_vc += 1;
                continue;
            }
            let i = p * m + v;
            let mut data = f.data;
            for (d, w) in data.iter_mut().zip(self.word_mask) {
                *d &= w;
            }
            // In the non-preemptive modes the links have no `dummy` wire (§9.7).
            let flit = Flit { data, head: f.head, tail: f.tail, dummy: P && f.dummy, vtick: 0 };
            let ring = if P {
                let w = if self.per_lane { self.named_lane(i, &flit, f.lane) } else { self.lane_choice(i, &flit) };
                if w.lane as usize >= self.lanes {
                    self.stats.dropped_bad_vc += 1;
                    continue;
                }
                // Applied at the end of the cycle only if the flit is accepted.
                self.pin[p & X::PORT_MASK].bw = w;
                self.lane_ring(i, w.lane as usize)
            } else {
                i
            };
            if self.ib.count(ring) >= self.di {
                self.stats.dropped_full += 1;
                continue;
            }
            accepted |= X::Ports::single(p);
            self.ib.push(ring, flit);
            self.inp[p & X::PORT_MASK].pushed = 1 << v;
            if P {
                self.pin[p & X::PORT_MASK].lane_flits += 1;
            }
            self.stats.flits_accepted += 1;
        }
        accepted
    }

    /// §9.4 BW: the lane of input VC i that `flit` goes to, on the
    /// start-of-cycle registers.
    fn lane_choice(&self, i: usize, flit: &Flit) -> LaneWrite {
        let d = &self.lane_regs[i];
        let v = (i % self.m) as u8;
        if !flit.head {
            return LaneWrite { v, lane: d.wl, class: 0, head: false, choice: LaneChoice::Body };
        }
        let c = self.cls(self.header_of(&flit.data).class) as u8;
        let idle = self.inp[(i / self.m) & X::PORT_MASK].idle >> v & 1 == 1;
        let (lane, choice) = if d.top == 0 && self.ib.count(self.lane_ring(i, 0)) == 0 && d.sl == 0 && idle {
            (0, LaneChoice::Fresh)
        } else if let Some(l) = (0..=d.top as usize).find(|&l| d.lmax[l] >= c) {
            (l as u8, LaneChoice::Open)
        } else if (d.top as usize) < self.lanes - 1 {
            (d.top + 1, LaneChoice::Preempting)
        } else {
            (d.top, LaneChoice::Open)
        };
        LaneWrite { v, lane, class: c, head: true, choice }
    }

    /// §9.4 *Credits*, receiver's stage 1 (`per_lane`): the flit goes to the
    /// lane its sender named; a header above `top` opens it (and the empty
    /// lanes between), into an entirely idle VC's lane 0 it sets `lmax[0]`.
    fn named_lane(&self, i: usize, flit: &Flit, lane: u8) -> LaneWrite {
        let d = &self.lane_regs[i];
        let v = (i % self.m) as u8;
        if !flit.head {
            return LaneWrite { v, lane, class: 0, head: false, choice: LaneChoice::Body };
        }
        let c = self.cls(self.header_of(&flit.data).class) as u8;
        let idle = self.inp[(i / self.m) & X::PORT_MASK].idle >> v & 1 == 1;
        let choice = if lane > d.top {
            LaneChoice::Preempting
        } else if lane == 0 && d.top == 0 && self.ib.count(self.lane_ring(i, 0)) == 0 && d.sl == 0 && idle {
            LaneChoice::Fresh
        } else {
            LaneChoice::Open
        };
        LaneWrite { v, lane, class: c, head: true, choice }
    }

    /// §9.4 BW at the end of the cycle: the lane registers of this cycle's
    /// writes (`lmax`, `top`, `wl`). A header that opens lane `top + 1`
    /// stops a ROUTED VC from requesting VA (its `sl < top` from the next
    /// cycle: the preemption step (c) follows).
    pub(super) fn lane_registers_of_bw(&mut self) {
        let m = self.m;
        for p in 0..self.n {
            if self.inp[p & X::PORT_MASK].pushed == 0 {
                continue;
            }
            let w = self.pin[p & X::PORT_MASK].bw;
            let i = p * m + w.v as usize;
            let d = &mut self.lane_regs[i];
            match w.choice {
                LaneChoice::Fresh => d.lmax[0] = w.class,
                LaneChoice::Preempting => {
                    // `lane == top + 1` with per-VC credits; a sender naming
                    // its lanes may skip empty ones (§9.4 *Credits*).
                    self.pin[p & X::PORT_MASK].extra += (w.lane - d.top) as u32;
                    d.top = w.lane;
                    d.lmax[w.lane as usize] = w.class;
                    self.withdraw_va_request(i);
                }
                LaneChoice::Body | LaneChoice::Open => {}
            }
            if w.head {
                self.lane_regs[i].wl = w.lane;
            }
        }
    }
}

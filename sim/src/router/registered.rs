//! Stage 4 with `router.switch_stage = "registered"` (docs/microarchitecture.md
//! §6, *Registered switch allocation*): ST, the crossing of the flits SA
//! granted in the previous cycle, then SA, the switch allocation of this
//! cycle into the grant registers `sg_valid` / `sg_vc` (`sg_tail` is the
//! front flit's tail bit when it crosses, so it is not stored).
//!
//! SA's readiness is that of the single-cycle stage evaluated on the state
//! the crossing leaves: `ACTIVE` (a crossing tail has made its VC leave
//! `active`), `ib_count - pend > 0` (`nonempty` after the pop, without this
//! cycle's BW write) and `ob_count + pend < DO` (the output VC buffer after
//! the push, before point C's pop). So the single pass and the iterative
//! allocator of `switch.rs` run unchanged on it, the granted flit being the
//! front flit after the crossing, and only the taking effect of a match
//! differs ([`Router::register_grant`]). RV (RC then VA in one cycle) is the
//! order of the stages in `step.rs`.
//!
//! In P mode (§6 *Registered switch allocation in P mode*) the grant also
//! keeps the kind of the granted offer (`sg_kind`: lane flit, dummy header,
//! dummy tail), the crossing is §9.4's move of that offer, and SA's offers
//! are those `preemption_decisions` takes on the start-of-cycle registers
//! (with no preemption step, and the lane flit behind, for a VC whose offer
//! crosses).

use super::Router;
use crate::ports::{PortSet, Width};

impl<X: Width> Router<X> {
    /// ST then SA of every input port. Returns the input and output ports
    /// touched.
    #[inline(always)]
    pub(super) fn registered_switch<const P: bool, const O: u8>(&mut self) -> (X::Ports, X::Ports) {
        let (crossed, st_out) = self.registered_crossing::<P, O>();
        self.clear_credit_outputs();
        // A port with no ACTIVE non-empty VC at the start of the cycle has
        // none after the crossing either (P: with no offer).
        let st = self.st_ports;
        let sa_out = self.switch_allocation::<P, O, true>(st);
        (crossed | st, st_out | sa_out)
    }

    /// Stage ST: for every input port with `sg_valid`, the front flit of VC
    /// `sg_vc` moves into its output VC buffer (a tail frees both VCs at
    /// the end of the cycle). Returns the input ports that crossed and the
    /// output ports written.
    #[inline(always)]
    pub(super) fn registered_crossing<const P: bool, const O: u8>(&mut self) -> (X::Ports, X::Ports) {
        let m = self.m;
        let crossed = std::mem::take(&mut self.sg_ports);
        let mut touched_out = X::Ports::EMPTY;
        for p in crossed.iter() {
            let v = self.inp[p & X::PORT_MASK].sg_vc as usize;
            let d = self.ivc[(p * m + v) & X::VC_MASK];
            let (o, u) = (d.route as usize, d.ovc as usize);
            touched_out |= X::Ports::single(o);
            if P {
                // The granted offer, whatever the lanes look like now (its
                // credit left with the grant).
                let offer = self.pin[p & X::PORT_MASK].sg_offer;
                let f = self.take_offer(p, v, o, u, offer);
                self.push_output(o, u, f);
            } else {
                self.move_flit::<false, O, true>(p, v, o, u);
            }
        }
        (crossed, touched_out)
    }

    /// A match of SA takes effect: `sg_valid[p] := 1`, `sg_vc[p] := v` at
    /// the end of the cycle, and the credit of (p, v) leaves in the next
    /// cycle, with the flit (§6: the `in_credit` register is written at the
    /// end of the SA cycle).
    /// In P mode the kind of the granted offer is kept, and only a lane
    /// flit has a credit.
    #[inline(always)]
    pub(super) fn register_grant<const P: bool>(&mut self, p: usize, v: usize) {
        self.inp[p & X::PORT_MASK].sg_vc = v as u8;
        self.sg_ports |= X::Ports::single(p);
        if P {
            let offer = self.offer(p, v);
            self.pin[p & X::PORT_MASK].sg_offer = offer;
            self.lane_credit(p, v, offer);
        } else {
            self.outputs.credits[p] |= 1 << v;
            self.credit_ports |= X::Ports::single(p);
        }
    }
}

//! One cycle: the stages in the order that lets every decision read the
//! state at the start of the cycle (§6) while updating in place.
//!
//! 0. (preemptive) the start-of-cycle decisions of §9.4 for every busy
//!    input port: stage 4 offers, RC, preemption step, lane release;
//! 1. BW (stage 1): admission on the start-of-cycle counts and the write,
//!    which becomes visible to the other stages only at the end of the cycle;
//! 2. stage 5 picks at point C (start-of-cycle `ob_count`, `credits`);
//! 3. ST (stage 4): readiness on start-of-cycle `ob_count` (stage 5 has not
//!    popped yet, and each output VC is pushed only by its single owner),
//!    points A and B, the moves; a tail's input VC goes to a transient
//!    `freed` set and its output VC to a pending-free mask;
//! 4. stage 5 pops, output registers, credits;
//! 5. VA (stage 3) on the start-of-cycle `allocated` (pending frees not yet
//!    applied), and the §9.5 acceleration flags;
//! 6. (preemptive) the preemption step (b)/(c);
//! 7. RC (stage 2) for the VCs IDLE at the start of the cycle;
//! 8. (preemptive) lane release and the lane registers of BW;
//! 9. end of cycle: pending output-VC frees, freed input VCs become IDLE,
//!    the BW writes become visible, the summary masks are brought up to date.
//!
//! With `switch_stage = "registered"` (`registered_cycle`, §6 *Registered
//! switch allocation*) step 3 is ST (last cycle's grants cross, on the
//! start-of-cycle buffers) and then SA on the state the crossing leaves
//! (`registered.rs`), and steps 5 and 7 swap: RC, then VA over the ROUTED
//! VCs and the ones RC has just routed (stage RV); in P mode
//! (`registered_preemptive_cycle`) the preemption step comes before RV. With `"split"` the same
//! cycle runs ST, then SA-B over last cycle's candidates, then SA-A
//! (`split.rs`, §6 *Split switch allocation*).

use super::state::{AGE, ROUND_ROBIN, VIRTUAL_CLOCK};
use super::{active_ports, Router};
use crate::ports::{PortSet, Width};
use crate::link::LinkFlit;

impl<X: Width> Router<X> {
    /// [`Router::step`] for a caller that already knows which inputs are
    /// not idle, on the input wires `flits` and `credits` (one entry per
    /// port, or more: the rest is not read): bit p of `valid` must be set if
    /// `flits[p]` is valid, bit o of `returning` if `credits[o]` is nonzero.
    /// The model reads no other port (extra bits cost time but change
    /// nothing), which saves a network of mostly idle links from reading
    /// them all. The slices, not a [`crate::RouterInputs`], let a network
    /// keep every router's inputs in one array (measured: docs/benchmarks.md,
    /// "Netsim speed: per-port state split").
    /// With `preemption_credits = "per_lane"` the lanes of the credits are
    /// given first by [`Router::set_credit_lanes`].
    pub fn step_active(&mut self, flits: &[LinkFlit], credits: &[u32], valid: X::Ports, returning: X::Ports) {
        let n = self.n;
        let in_flits = &flits[..n];
        let in_credits = &credits[..n];
        debug_assert!(
            {
                let (f, c) = active_ports::<X::Ports>(in_flits, in_credits);
                (f & !valid).is_empty() && (c & !returning).is_empty()
            },
            "a non-idle input outside `valid` / `returning`"
        );
        let valid = valid & self.port_all;
        let ret_ports = returning & self.port_all;

        // A split stage's candidate needs no bit of its own: its VC is
        // ACTIVE and holds its flit (§6 *Split switch allocation*), so its
        // port is in `st_ports`.
        debug_assert!((self.ca_ports & !self.st_ports).is_empty(), "a candidate outside st_ports");

        // Nothing to do (no input, no flit that can move, no VA request, no
        // running hold, all output registers already 0): only the cycle
        // count changes. VirtualClock points catch up when next visited.
        let busy = valid
            | ret_ports
            | self.st_ports
            | self.rc_ports
            | self.sg_ports
            | self.c_ports
            | self.va_ports
            | self.credit_ports
            | self.out_valid_ports
            | self.hold_ports
            | self.drain_ports
            | self.c_present & self.c_present_wakes;
        if busy.is_empty() {
            self.cycle += 1;
            return;
        }

        // Free output VCs per port at the start of the cycle, for RC's choice
        // among parallel links (VA changes `allocated` before RC runs).
        let mut free_start = X::per_port_value(0u8);
        if !self.links_lut.is_empty() && !self.rc_ports.is_empty() {
            for (o, f) in free_start[..].iter_mut().enumerate().take(n) {
                *f = (!self.outp[o].allocated & self.vc_all).count_ones() as u8;
            }
        }

        // The input port's kind is a compile-time switch: the foundation
        // router's cycle then carries no trace of the lanes (§9.4).
        // So is the flit order.
        let f = &free_start;
        // So is the switch stage (split never preemptive).
        const P_AGE: u8 = 3 + AGE;
        const P_ROUND_ROBIN: u8 = 3 + ROUND_ROBIN;
        const P_VIRTUAL_CLOCK: u8 = 3 + VIRTUAL_CLOCK;
        const R_AGE: u8 = 6 + AGE;
        const R_ROUND_ROBIN: u8 = 6 + ROUND_ROBIN;
        const R_VIRTUAL_CLOCK: u8 = 6 + VIRTUAL_CLOCK;
        const RP_AGE: u8 = 9 + AGE;
        const RP_ROUND_ROBIN: u8 = 9 + ROUND_ROBIN;
        const RP_VIRTUAL_CLOCK: u8 = 9 + VIRTUAL_CLOCK;
        const S_AGE: u8 = 12 + AGE;
        const S_ROUND_ROBIN: u8 = 12 + ROUND_ROBIN;
        match self.variant {
            AGE => self.busy_cycle::<false, AGE>(in_flits, in_credits, valid, ret_ports, f),
            ROUND_ROBIN => self.busy_cycle::<false, ROUND_ROBIN>(in_flits, in_credits, valid, ret_ports, f),
            VIRTUAL_CLOCK => self.busy_cycle::<false, VIRTUAL_CLOCK>(in_flits, in_credits, valid, ret_ports, f),
            P_AGE => self.busy_cycle::<true, AGE>(in_flits, in_credits, valid, ret_ports, f),
            P_ROUND_ROBIN => {
                self.busy_cycle::<true, ROUND_ROBIN>(in_flits, in_credits, valid, ret_ports, f)
            }
            P_VIRTUAL_CLOCK => {
                self.busy_cycle::<true, VIRTUAL_CLOCK>(in_flits, in_credits, valid, ret_ports, f)
            }
            R_AGE => self.registered_cycle::<AGE, false>(in_flits, in_credits, valid, ret_ports, f),
            R_ROUND_ROBIN => self.registered_cycle::<ROUND_ROBIN, false>(in_flits, in_credits, valid, ret_ports, f),
            R_VIRTUAL_CLOCK => self.registered_cycle::<VIRTUAL_CLOCK, false>(in_flits, in_credits, valid, ret_ports, f),
            RP_AGE => self.registered_preemptive_cycle::<AGE>(in_flits, in_credits, valid, ret_ports, f),
            RP_ROUND_ROBIN => self.registered_preemptive_cycle::<ROUND_ROBIN>(in_flits, in_credits, valid, ret_ports, f),
            RP_VIRTUAL_CLOCK => {
                self.registered_preemptive_cycle::<VIRTUAL_CLOCK>(in_flits, in_credits, valid, ret_ports, f)
            }
            S_AGE => self.registered_cycle::<AGE, true>(in_flits, in_credits, valid, ret_ports, f),
            S_ROUND_ROBIN => self.registered_cycle::<ROUND_ROBIN, true>(in_flits, in_credits, valid, ret_ports, f),
            _ => self.registered_cycle::<VIRTUAL_CLOCK, true>(in_flits, in_credits, valid, ret_ports, f),
        }
        self.cycle += 1;
    }

    /// The stages of a cycle with work; `P`: the input ports are
    /// preemptive; `O`: the flit order (`state::order_code`). Not inlined:
    /// each variant is a function of its own, which the compiler optimizes
    /// apart from the eight others (measured: docs/benchmarks.md).
    #[inline(never)]
    fn busy_cycle<const P: bool, const O: u8>(
        &mut self,
        in_flits: &[LinkFlit],
        in_credits: &[u32],
        valid: X::Ports,
        ret_ports: X::Ports,
        free_start: &X::PerPort<u8>,
    ) {
        if P {
            self.preemption_decisions();
        }
        let drain = self.atomic_start_of_cycle();
        let mut touched_in = self.buffer_write::<P>(in_flits, valid);
        self.point_c_pick::<O>();
        if P {
            self.clear_credit_lanes();
        }
        let (st_in, st_out) = self.switch_traversal::<P, O>();
        touched_in |= st_in;
        let mut touched_out = drain | st_out | self.output_registers::<P>(in_credits, ret_ports);
        touched_in |= self.vc_allocation();
        if P {
            touched_out |= self.preemption_step();
        }
        touched_in |= self.route_computation::<P>(free_start);
        if P {
            self.lane_end_of_cycle(touched_out);
        }
        self.end_of_cycle::<P>(touched_in, touched_out);
    }

    /// The stages of a cycle with work with `switch_stage = "registered"`
    /// (§6, *Registered switch allocation*; foundation input ports only);
    /// `O`: the flit order. Differs from [`Router::busy_cycle`] in two
    /// places: stage 4 is ST (last cycle's grants cross, on the
    /// start-of-cycle buffers) followed by SA on the state the crossing
    /// leaves, and RC runs before VA so that a header routed in this
    /// cycle requests an output VC in it (RV). `SPLIT`: `switch_stage =
    /// "split"` (§6, *Split switch allocation*), whose stage 4 is ST, then
    /// SA-B over last cycle's candidates, then SA-A (`split.rs`).
    #[inline(never)]
    fn registered_cycle<const O: u8, const SPLIT: bool>(
        &mut self,
        in_flits: &[LinkFlit],
        in_credits: &[u32],
        valid: X::Ports,
        ret_ports: X::Ports,
        free_start: &X::PerPort<u8>,
    ) {
        let drain = self.atomic_start_of_cycle();
        let mut touched_in = self.buffer_write::<false>(in_flits, valid);
        self.point_c_pick::<O>();
        let (sw_in, sw_out) = if SPLIT { self.split_switch::<O>() } else { self.registered_switch::<false, O>() };
        touched_in |= sw_in;
        let touched_out = drain | sw_out | self.output_registers::<false>(in_credits, ret_ports);
        touched_in |= self.route_computation::<false>(free_start);
        touched_in |= self.vc_allocation();
        self.end_of_cycle::<false>(touched_in, touched_out);
    }

    /// The stages of a cycle with work with `switch_stage = "registered"`
    /// in P mode (§6, *Registered switch allocation in P mode*); `O`: the
    /// flit order. The preemptive cycle of [`Router::busy_cycle`] with its
    /// stage 4 replaced by ST then SA (`registered.rs`; the §9.4 decisions
    /// know the crossing offer) and RC before VA (RV), after the preemption
    /// step, which takes a ROUTED VC out of VA.
    #[inline(never)]
    fn registered_preemptive_cycle<const O: u8>(
        &mut self,
        in_flits: &[LinkFlit],
        in_credits: &[u32],
        valid: X::Ports,
        ret_ports: X::Ports,
        free_start: &X::PerPort<u8>,
    ) {
        self.preemption_decisions();
        let mut touched_in = self.buffer_write::<true>(in_flits, valid);
        self.point_c_pick::<O>();
        self.clear_credit_lanes();
        let (sw_in, sw_out) = self.registered_switch::<true, O>();
        touched_in |= sw_in;
        let mut touched_out = sw_out | self.output_registers::<true>(in_credits, ret_ports);
        touched_out |= self.preemption_step();
        touched_in |= self.route_computation::<true>(free_start);
        touched_in |= self.vc_allocation();
        self.lane_end_of_cycle(touched_out);
        self.end_of_cycle::<true>(touched_in, touched_out);
    }

    /// The preemptive input port's last steps of a cycle: lane release,
    /// the lane registers of BW, and (per-lane credits) which output VCs
    /// have a credit for their front flit's lane.
    #[inline(always)]
    fn lane_end_of_cycle(&mut self, touched_out: X::Ports) {
        self.lane_release();
        self.lane_registers_of_bw();
        if self.per_lane {
            self.lane_credit_ok(touched_out);
        }
    }

    /// With per-lane credits the credit-lane wires return to 0 with the
    /// credit wires (`clear_credit_outputs`, stage 4 or ST).
    #[inline(always)]
    fn clear_credit_lanes(&mut self) {
        if self.per_lane {
            for p in self.credit_ports.iter() {
                self.outputs.credit_lanes[p] = 0;
            }
        }
    }

    /// Stage 9: pending output-VC frees (nothing after VA reads `allocated`),
    /// freed input VCs become IDLE and BW writes visible (nothing after RC
    /// reads `idle` or `nonempty`), with the summary sets for the next cycle.
    /// Only the ports touched this cycle can change their summary bits.
    #[inline(always)]
    fn end_of_cycle<const P: bool>(&mut self, touched_in: X::Ports, touched_out: X::Ports) {
        // In locals: the compiler cannot tell the port arrays from `self`'s
        // fields and would otherwise store the sets on every iteration.
        let (mut st, mut rc) = (self.st_ports, self.rc_ports);
        if P {
            // The preemptive input port is busy while it holds a lane flit,
            // an open extra lane or a stack entry (otherwise every VC is IDLE
            // without a flit, or ACTIVE waiting for flits with nothing to offer).
            for p in 0..self.n {
                let ip = &mut self.inp[p & X::PORT_MASK];
                ip.idle |= ip.freed;
                ip.freed = 0;
                ip.pushed = 0;
                let pp = &self.pin[p & X::PORT_MASK];
                st.set_to(p, pp.lane_flits | pp.extra != 0);
            }
            rc = st;
        } else {
            for p in touched_in.iter() {
                let ip = &mut self.inp[p & X::PORT_MASK];
                ip.idle |= ip.freed;
                ip.freed = 0;
                ip.nonempty |= ip.pushed;
                ip.pushed = 0;
                st.set_to(p, ip.active & ip.nonempty != 0);
                rc.set_to(p, ip.idle & ip.nonempty != 0);
            }
        }
        (self.st_ports, self.rc_ports) = (st, rc);
        if self.atomic {
            // Turns this cycle's tail frees into drains and its releases
            // into the frees applied below.
            self.atomic_end_of_cycle(touched_out);
        }
        let (mut c, mut present) = (self.c_ports, self.c_present);
        for o in touched_out.iter() {
            let op = &mut self.outp[o & X::PORT_MASK];
            op.allocated &= !op.alloc_clear;
            op.alloc_clear = 0;
            c.set_to(o, op.nonempty & op.credit_ok != 0);
            present.set_to(o, op.nonempty != 0);
        }
        (self.c_ports, self.c_present) = (c, present);
    }
}

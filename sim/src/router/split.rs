//! Stages 4 and 5 of the pipeline with `router.switch_stage = "split"`
//! (docs/microarchitecture.md §6, *Split switch allocation*): ST, the
//! crossing of the flits SA-B granted in the previous cycle (as in
//! `registered.rs`), SA-B, point B over the candidates SA-A picked in the
//! previous cycle into the grant registers, and SA-A, readiness and point A
//! into the candidate registers `ca_valid` / `ca_vc`.
//!
//! The model keeps no `ca_tail` or `sg_tail`: the spec proves that they are
//! always the tail bits of the flits they stand for, and the model reads
//! those flits. After the crossing, a candidate stands for the front flit
//! of its VC (the next flit not crossing), so A's readiness is the
//! registered stage's on the state the crossing leaves (a crossing tail
//! has made its VC leave `active`, `nonempty` counts the flits after the
//! pop, `ob_count` includes the push) with one more flit in flight on the
//! candidate's VC: it must not be a tail, a second flit must remain behind
//! it, and the output VC buffer must have room for one more.

use super::Router;
use crate::ports::{PortSet, Width};

impl<X: Width> Router<X> {
    /// ST, then SA-B, then SA-A of every input port. Returns the input and
    /// output ports touched.
    #[inline(always)]
    pub(super) fn split_switch<const O: u8>(&mut self) -> (X::Ports, X::Ports) {
        let (crossed, st_out) = self.registered_crossing::<false, O>();
        self.clear_credit_outputs();
        let (b_won, b_out) = self.split_point_b();
        // A port with no ACTIVE non-empty VC at the start of the cycle has
        // none after the crossing either.
        let st = self.st_ports;
        self.split_point_a::<O>(st, b_won);
        (crossed | st, st_out | b_out)
    }

    /// SA-B: each output port picks round robin (`xb_ptr`) one input port
    /// among those whose registered candidate routes to it; the winners'
    /// candidates become the grants that cross in the next cycle. Reads
    /// `ca_ports` as at the start of the cycle (SA-A writes it after).
    /// Returns the input ports granted and the output ports requested.
    #[inline(always)]
    fn split_point_b(&mut self) -> (X::Ports, X::Ports) {
        let m = self.m;
        let mut out_req = X::Ports::EMPTY;
        for p in self.ca_ports.iter() {
            let v = self.inp[p & X::PORT_MASK].ca_vc as usize;
            let o = self.ivc[(p * m + v) & X::VC_MASK].route as usize;
            self.outp[o & X::PORT_MASK].xb_req |= X::Ports::single(p);
            out_req |= X::Ports::single(o);
        }
        let mut won = X::Ports::EMPTY;
        for o in out_req.iter() {
            let p = self.point_b_round_robin(o);
            won |= X::Ports::single(p);
            let v = self.inp[p & X::PORT_MASK].ca_vc as usize;
            self.register_grant::<false>(p, v);
        }
        (won, out_req)
    }

    /// SA-A over the input ports `st`: readiness counting the candidate in
    /// flight, point A's pick, its grant taking effect at once (§6: whatever
    /// B does with it in the next cycle), and the candidate registers.
    /// `b_won`: the ports whose candidate B granted in this cycle (a lost
    /// candidate is dropped; the pick behind it then stands for its flit).
    #[inline(always)]
    fn split_point_a<const O: u8>(&mut self, st: X::Ports, b_won: X::Ports) {
        let m = self.m;
        let in_flight = self.ca_ports;
        let mut picked = X::Ports::EMPTY;
        for p in st.iter() {
            let cand_vc = in_flight.contains(p).then(|| self.inp[p & X::PORT_MASK].ca_vc as usize);
            let mut present = self.offers::<false>(p);
            if let Some(v) = cand_vc {
                present &= !((!self.candidate_leaves_a_flit(p, v) as u32) << v);
            }
            let mut ready = self.ready_of(p, present);
            if let Some(v) = cand_vc.filter(|&v| ready >> v & 1 == 1) {
                let d = self.ivc[(p * m + v) & X::VC_MASK];
                let room = self.ob.count(d.route as usize * m + d.ovc as usize) + 1 < self.dout;
                ready &= !((!room as u32) << v);
            }
            if self.block > 1 {
                self.inp[p & X::PORT_MASK].ready = ready;
            }
            let Some((v, src)) = self.point_a_pick::<false, O>(p, present, ready) else { continue };
            self.inp[p & X::PORT_MASK].cand_src = src;
            // The picked flit: behind the candidate in flight on its VC.
            let pos = (cand_vc == Some(v)) as usize;
            self.point_a_granted_at::<false, O>(p, v, pos);
            self.inp[p & X::PORT_MASK].ca_vc = v as u8;
            picked |= X::Ports::single(p);
        }
        // Every pick took effect: the ports without one end their cycle.
        self.point_a_unmatched::<O>(st, picked);
        debug_assert!((in_flight & !b_won).iter().all(|p| self.ib.count(p * m + self.inp[p & X::PORT_MASK].ca_vc as usize) > 0));
        self.ca_ports = picked;
    }

    /// Whether a flit of input VC (p, v) remains for point A behind the
    /// candidate in flight on v: the candidate's flit (the front after
    /// this cycle's crossing) is not a tail and another flit, written
    /// before this cycle, follows it.
    #[inline(always)]
    fn candidate_leaves_a_flit(&self, p: usize, v: usize) -> bool {
        let i = p * self.m + v;
        let written_now = (self.inp[p & X::PORT_MASK].pushed >> v & 1) as u16;
        self.ib.count(i) - written_now >= 2 && !self.ib.front(i).tail
    }
}

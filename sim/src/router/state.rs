//! The registers of the router (§4, §8.3, §9.1, §9.3, §9.4) that are kept per
//! port and per VC, and the two pieces of scheduling-point bookkeeping that
//! point A and point C share (the §9.3 hold, the lazily advanced
//! VirtualClock).

use super::preemption::Offer;
use crate::vclock::VirtualClockScheduler;
use wormqos_config::FlitOrder;

/// The flit order (§5, §8) as a compile-time parameter of a cycle, so that
/// the hot loops of each order carry no test of the others: the variant of
/// [`FlitOrder`] without its widths (those are the header's Vtick field and
/// the scheduler's own).
pub(super) const AGE: u8 = 0;
pub(super) const ROUND_ROBIN: u8 = 1;
pub(super) const VIRTUAL_CLOCK: u8 = 2;

/// The compile-time code of a flit order.
pub(super) const fn order_code(order: &FlitOrder) -> u8 {
    match order {
        FlitOrder::Age => AGE,
        FlitOrder::RoundRobin => ROUND_ROBIN,
        FlitOrder::VirtualClock(_) => VIRTUAL_CLOCK,
    }
}

/// Most lanes per input VC: E + 1 with E = s - 1 <= 7.
pub(crate) use crate::lane_credits::MAX_LANES;

/// The header register (§9.1): raw destination, class and Vtick fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeaderFields {
    pub dest: u32,
    /// The class code as carried (a code >= s means class 0, see `cls`).
    pub class: u32,
    pub vtick: u32,
}

/// The §9.4 registers of one input VC (see [`crate::Router::lane_regs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRegs {
    /// Highest lane in use.
    pub top: usize,
    /// Serving lane.
    pub sl: usize,
    /// Lane of the message being received.
    pub wl: usize,
    /// Highest class opened in each lane (`lmax[l]`, meaningful for l <= top).
    pub lmax: [u8; MAX_LANES],
    /// Bit l: `susp[l]`.
    pub susp: u8,
    /// History stack entries `hs[0..depth]` (bottom first).
    pub stack: [HeaderFields; MAX_LANES],
    /// `hsp`.
    pub depth: usize,
    pub sent: bool,
    pub acc: bool,
}

/// Input port p: bit v of each mask is input VC (p, v).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct InPort {
    /// State IDLE (neither bit: ROUTED).
    pub idle: u32,
    /// State ACTIVE.
    pub active: u32,
    /// `ib_count > 0` (foundation input port only; the preemptive one reads
    /// its lanes, see `preemption.rs`).
    pub nonempty: u32,
    /// Scratch: a tail (real or dummy) crossed in this cycle (IDLE from the
    /// end of the cycle).
    pub freed: u32,
    /// Scratch: VCs written by BW this cycle (the flit is pushed at once but
    /// becomes visible only at the end of the cycle).
    pub pushed: u32,
    /// Scratch: the VCs ready at point (A) (offer and output room).
    pub ready: u32,
    pub xa_ptr: u8,
    /// `sg_vc[p]` of the registered switch allocation (meaningful while
    /// bit p of `Router::sg_ports`, `sg_valid[p]`, is set).
    pub sg_vc: u8,
    /// `ca_vc[p]` of the split switch allocation (meaningful while bit p of
    /// `Router::ca_ports`, `ca_valid[p]`, is set).
    pub ca_vc: u8,
    /// §9.5 `acc_ptr`.
    pub acc_ptr: u8,
    /// Scratch: the candidate at point (A) and where its grant came from.
    pub cand: u8,
    pub cand_src: GrantSource,
}

/// The §9.4 registers and scratch of preemptive input port p, kept apart
/// from its [`InPort`]: the foundation router's cycle never reads them, and
/// without them a router's `InPort`s fill fewer cache lines (measured:
/// docs/benchmarks.md, "Netsim speed: per-port state split").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PreemptPort {
    /// Scratch: the start-of-cycle decisions of §9.4, see `preemption.rs`.
    pub offer_lane: u32,
    pub offer_dhead: u32,
    pub offer_dtail: u32,
    pub rc: u32,
    pub silent: u32,
    pub release: u32,
    /// Flits in the lanes of this port's VCs, and open extra
    /// lanes plus history-stack entries (the port is busy while either is
    /// non-zero).
    pub lane_flits: u32,
    pub extra: u32,
    /// Scratch: this cycle's BW write, applied to the lane
    /// registers at the end of the cycle (valid when `pushed != 0`).
    pub bw: LaneWrite,
    /// `sg_kind[p]` of the registered switch allocation in P mode (§6
    /// *Registered switch allocation in P mode*): the kind of the granted
    /// offer of `InPort::sg_vc` (meaningful while `sg_valid[p]`).
    pub sg_offer: Offer,
}

/// Output port o: bit u of each mask is output VC (o, u).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct OutPort<S> {
    pub allocated: u32,
    /// `ob_count > 0`.
    pub nonempty: u32,
    /// `credits > 0`.
    pub credit_ok: u32,
    /// Scratch: output VCs freed in this cycle (free for VA from the next;
    /// with atomic reallocation they start draining instead).
    pub alloc_clear: u32,
    /// Atomic reallocation (§4 `draining`): tail crossed, not yet released.
    pub draining: u32,
    /// Scratch: draining VCs released at the end of this cycle.
    pub release: u32,
    /// Scratch: input ports whose (A) candidate routes here.
    pub xb_req: S,
    pub va_req_count: u16,
    pub va_ptr: u16,
    pub xb_ptr: u8,
    pub oc_ptr: u8,
    /// Scratch: the stage 5 pick.
    pub picked: u8,
}

/// Input VC i = p*M+v: where it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct InVc {
    pub route: u8,
    pub ovc: u8,
    /// Output VCs its header may be allocated: `A(dest)` (§2) within its
    /// class's partition (§9.2), loaded at RC.
    pub avc: u32,
}

/// §9.4 registers of one input VC (preemptive mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Lanes {
    pub top: u8,
    pub sl: u8,
    pub wl: u8,
    pub lmax: [u8; MAX_LANES],
    /// Bit l: `susp[l]`.
    pub susp: u8,
    pub hsp: u8,
    pub sent: bool,
    pub acc: bool,
}

/// How a BW write of the preemptive input port changes the lane registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum LaneChoice {
    /// A body or tail flit, into lane `wl`.
    #[default]
    Body,
    /// A header into an idle VC with nothing buffered: lane 0, `lmax[0] := c`.
    Fresh,
    /// A header into an open lane (`lmax[l] >= c`, or the top lane when no
    /// lane is left).
    Open,
    /// A header opening lane `top + 1` (a preemption).
    Preempting,
}

/// The BW write of one input port in this cycle (§9.4 lane choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LaneWrite {
    pub v: u8,
    pub lane: u8,
    pub class: u8,
    pub head: bool,
    pub choice: LaneChoice,
}

/// Where a grant at a scheduling point came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum GrantSource {
    /// The configured order (round robin, age, VirtualClock).
    #[default]
    Order,
    /// A §9.3 block hold.
    Hold,
    /// §9.5 acceleration.
    Acceleration,
}

/// §9.3 hold register of one scheduling point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Blk {
    pub slot: u8,
    pub left: u8,
}

impl Blk {
    /// Whether a running hold grants `slot` among `eligible` this cycle.
    #[inline(always)]
    pub fn holds(&self, eligible: u32) -> bool {
        self.left > 0 && eligible >> self.slot & 1 == 1
    }
    /// §9.3 step 3 after a grant of `slot` took effect with block size `b`;
    /// a tail ends the block.
    #[inline]
    pub fn granted(&mut self, slot: usize, tail: bool, b: u8) {
        if slot == self.slot as usize && self.left > 0 {
            self.left -= 1;
        } else {
            self.slot = slot as u8;
            self.left = b - 1;
        }
        if tail {
            self.left = 0;
        }
    }
}

/// A VirtualClock scheduling point, updated lazily: in cycles in which no
/// slot is present the point is not visited, and it is caught up on the
/// next visit (or introspection).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VcPoint {
    pub sched: VirtualClockScheduler,
    /// The cycle at whose start `sched` holds the registers.
    pub synced: u64,
}

impl VcPoint {
    /// Brings the registers to the start of `cycle`, as if each missed cycle
    /// had been an explicit cycle with no slot present.
    #[inline(always)]
    pub fn sync(&mut self, cycle: u64) {
        let d = cycle - self.synced;
        if d != 0 {
            if self.sched.has_stamps() {
                // A stamp outlives its slot's absence (§9.7), and rebasing
                // reads it: replay the cycles one by one.
                for _ in 0..d {
                    self.sched.grant_lit(0, 0, 0, |_| 0);
                    self.sched.update_granted(None);
                }
            } else {
                self.sched.advance_idle(d);
            }
            self.synced = cycle;
        }
    }
    /// Steps 3 and 4 of §8.4 with the grant that took effect in `cycle`.
    #[inline(always)]
    pub fn update(&mut self, granted: Option<usize>, cycle: u64) {
        self.sched.update_granted(granted);
        self.synced = cycle + 1;
    }
}

//! Where a best-effort holder's next flit is (issue 23 item 1,
//! docs/reproduction.md "Which of P's mechanisms makes its excursions"):
//! of the output VCs [`out_vcs`](super::out_vcs) finds held by best effort
//! with no flit in their output buffer or on the link
//! ([`OutVcHold::BestEffortEmpty`](super::out_vcs::OutVcHold::BestEffortEmpty)),
//! each goes to one [`HolderPlace`]: its message's next flit (or the dummy
//! flit that comes next on its input VC) still in the router's input VC,
//! or not yet there, at its source (one router: the input VC's only
//! upstream is its source), and then what the source did with the VC.
//! A holder whose next flit is in the router (its lane flit or a dummy
//! flit of its input VC, waiting for the crossbar) also goes to one
//! [`HolderSwitch`]: the class of the flit of another VC of its input
//! port that crossed in the cycle (a multiplexed crossbar passes one flit
//! of an input port a cycle), or none.
//! Read only from the router's registers after the cycle and from what the
//! sources noted in it; the run is unchanged.

use super::SourceVcNow;
use super::dummy_tail::DummyWait;
use wormqos_sim::{Router, VcState, Width};

/// Where the next flit of a best-effort holder with none past the crossbar
/// was in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HolderPlace {
    /// In the router: a higher lane of its input VC holds a message (§9.4
    /// preemption step, `sl < top`), so the part ends with the router's
    /// dummy tail, not yet through the crossbar.
    RouterDummyTail,
    /// In the router: its resumed part's dummy header (`susp[sl]`), not yet
    /// through the crossbar.
    RouterDummyHeader,
    /// In the router: flits of it in its input lane, none through the
    /// crossbar in the cycle (the crossbar given to other flits, or a flit
    /// in its write and switch stages).
    InLane,
    /// Its input lane empty; at its source, on its VC, the next flit left
    /// in the cycle (on its way into the lane).
    SourceSent,
    /// ... the next flit without a credit (credits on their way back).
    SourceNoCredit,
    /// ... with a credit, the source's link given to a flit of another VC
    /// holding real time / best effort / control (a source sends one flit
    /// a cycle, the highest class first).
    SourceLinkRealTime,
    SourceLinkBestEffort,
    SourceLinkControl,
    /// Its input lane empty; suspended at its source by a higher-class
    /// message on its VC (§9.4 *A source preempting its own best effort*),
    /// its dummy tail owed and without a credit / with one, the link to
    /// another VC / leaving in the cycle.
    SuspendedDummyNoCredit,
    SuspendedDummyLink,
    SuspendedDummySent,
    /// ... its dummy tail gone (on its way in), the VC carrying the
    /// message that suspended it.
    Suspended,
    /// None of the above (its source VC idle or carrying another class).
    Other,
}

pub const HOLDER_PLACES: usize = 13;

impl HolderPlace {
    pub const ALL: [HolderPlace; HOLDER_PLACES] = [
        HolderPlace::RouterDummyTail,
        HolderPlace::RouterDummyHeader,
        HolderPlace::InLane,
        HolderPlace::SourceSent,
        HolderPlace::SourceNoCredit,
        HolderPlace::SourceLinkRealTime,
        HolderPlace::SourceLinkBestEffort,
        HolderPlace::SourceLinkControl,
        HolderPlace::SuspendedDummyNoCredit,
        HolderPlace::SuspendedDummyLink,
        HolderPlace::SuspendedDummySent,
        HolderPlace::Suspended,
        HolderPlace::Other,
    ];

    /// Its column name in a CSV.
    pub fn name(self) -> &'static str {
        match self {
            HolderPlace::RouterDummyTail => "holder_router_dummy_tail",
            HolderPlace::RouterDummyHeader => "holder_router_dummy_header",
            HolderPlace::InLane => "holder_in_lane",
            HolderPlace::SourceSent => "holder_source_sent",
            HolderPlace::SourceNoCredit => "holder_source_no_credit",
            HolderPlace::SourceLinkRealTime => "holder_source_link_rt",
            HolderPlace::SourceLinkBestEffort => "holder_source_link_be",
            HolderPlace::SourceLinkControl => "holder_source_link_ctl",
            HolderPlace::SuspendedDummyNoCredit => "holder_suspended_dummy_no_credit",
            HolderPlace::SuspendedDummyLink => "holder_suspended_dummy_link",
            HolderPlace::SuspendedDummySent => "holder_suspended_dummy_sent",
            HolderPlace::Suspended => "holder_suspended",
            HolderPlace::Other => "holder_other",
        }
    }
}

/// Of a holder whose next flit is in the router: which flit its input
/// port passed through the crossbar in the cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HolderSwitch {
    /// A lane flit of another VC of its input port, of a lane opened by
    /// real time / best effort / control (`lmax`, §9.4).
    InputRealTime,
    InputBestEffort,
    InputControl,
    /// No lane flit of another VC of its input port (the crossbar lost at
    /// the output port, a dummy flit of another VC crossed, or its flit not
    /// yet ready).
    NoInput,
}

pub const HOLDER_SWITCHES: usize = 4;

impl HolderSwitch {
    pub const ALL: [HolderSwitch; HOLDER_SWITCHES] = [HolderSwitch::InputRealTime, HolderSwitch::InputBestEffort, HolderSwitch::InputControl, HolderSwitch::NoInput];

    /// Its column name in a CSV.
    pub fn name(self) -> &'static str {
        match self {
            HolderSwitch::InputRealTime => "holder_xbar_input_rt",
            HolderSwitch::InputBestEffort => "holder_xbar_input_be",
            HolderSwitch::InputControl => "holder_xbar_input_ctl",
            HolderSwitch::NoInput => "holder_xbar_no_input",
        }
    }

    /// Whether a holder in `place` has its next flit in the router.
    pub fn applies(place: HolderPlace) -> bool {
        matches!(place, HolderPlace::RouterDummyTail | HolderPlace::RouterDummyHeader | HolderPlace::InLane)
    }
}

/// Which flit input port p passed through the crossbar in the cycle, for
/// a holder on its VC v: the lane flits that crossed return their credits
/// (§9.4 *Receiver, credit*: with the lane they left) after the cycle;
/// with per-lane credits `per_lane`, else lane 0.
pub fn switch<X: Width>(router: &Router<X>, p: usize, v: usize, per_lane: bool) -> HolderSwitch {
    let out = router.outputs();
    let word = out.credits[p];
    let m = router.config().vcs();
    let classes = router.config().traffic_classes();
    let Some(u) = (0..m).find(|&u| u != v && word >> u & 1 == 1) else { return HolderSwitch::NoInput };
    let lane = if per_lane { wormqos_sim::credit_lane(out.credit_lanes[p], u) } else { 0 };
    let r = router.lane_regs(p, u).expect("an input VC has lane registers");
    let code = r.lmax[lane] as u32;
    match if code >= classes { 0 } else { code } as u8 {
        BEST_EFFORT => HolderSwitch::InputBestEffort,
        REAL_TIME => HolderSwitch::InputRealTime,
        _ => HolderSwitch::InputControl,
    }
}

/// What a source VC carried in the cycle, beside what it did
/// ([`SourceVcNow`]): the class of its message (`None`: none) and whether
/// a best-effort message is suspended on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceVcCarries {
    pub class: Option<u8>,
    pub suspended: bool,
}

/// The source feeding a holder's input VC, as noted in the cycle: what its
/// VC did, what the VC carried, and the class of the VC whose flit the
/// source sent (`None`: no flit).
#[derive(Clone, Copy, Debug)]
pub struct SourceView {
    pub now: SourceVcNow,
    pub carries: SourceVcCarries,
    pub picked_class: Option<u8>,
}

/// The classes as the workload codes them (`out_vcs.rs`).
const BEST_EFFORT: u8 = 0;
const REAL_TIME: u8 = 1;

/// Where the next flit of the best-effort message holding an output VC
/// from input VC (p, v) is, its output buffer and link empty; `source`:
/// the source feeding (p, v) on VC v.
pub fn place<X: Width>(router: &Router<X>, p: usize, v: usize, source: SourceView) -> HolderPlace {
    let r = router.lane_regs(p, v).expect("an input VC has lane registers");
    if r.sl < r.top {
        return HolderPlace::RouterDummyTail;
    }
    if r.susp >> r.sl & 1 == 1 && matches!(router.vc_state(p, v), VcState::Active { .. }) {
        return HolderPlace::RouterDummyHeader;
    }
    if router.lane_occupancy(p, v, r.sl) > 0 {
        return HolderPlace::InLane;
    }
    match (source.carries.class, source.carries.suspended, source.now) {
        (Some(BEST_EFFORT), _, SourceVcNow::Sent) => HolderPlace::SourceSent,
        (Some(BEST_EFFORT), _, SourceVcNow::NoCredit) => HolderPlace::SourceNoCredit,
        (Some(BEST_EFFORT), _, SourceVcNow::Link) => match source.picked_class {
            Some(BEST_EFFORT) => HolderPlace::SourceLinkBestEffort,
            Some(REAL_TIME) => HolderPlace::SourceLinkRealTime,
            Some(_) => HolderPlace::SourceLinkControl,
            None => HolderPlace::Other,
        },
        (Some(c), true, SourceVcNow::Dummy { wait, .. }) if c != BEST_EFFORT => match wait {
            DummyWait::NoCredit => HolderPlace::SuspendedDummyNoCredit,
            DummyWait::Link => HolderPlace::SuspendedDummyLink,
            DummyWait::Sent => HolderPlace::SuspendedDummySent,
        },
        (Some(c), true, _) if c != BEST_EFFORT => HolderPlace::Suspended,
        _ => HolderPlace::Other,
    }
}

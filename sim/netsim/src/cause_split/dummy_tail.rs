//! The dummy tail's share of a [`CauseSplit`](super::CauseSplit) split by
//! what the dummy tail itself waited for in that cycle (issue 23 item 2,
//! docs/reproduction.md "Which of P's mechanisms makes its excursions"):
//! a source that suspends its own best effort (§9.4 *A source preempting
//! its own best effort*) owes a dummy tail in the suspended message's lane
//! before the preempting header, and every cycle a real-time message is
//! held by it ([`Cause::QueueHolderDummy`](super::Cause::QueueHolderDummy)
//! behind a holder owing it, [`Cause::HeaderDummy`](super::Cause::HeaderDummy)
//! owing it itself) goes to one [`DummyPart`]: no credit in that lane, the
//! link given to another VC, or the dummy flit's own cycle. A no-credit
//! cycle is further given to one [`LaneHold`]: what the suspended lane's
//! flits in the router's input VC wait for (the lane's credits come back
//! only as they leave it).

use super::holders::{HolderPlace, HolderSwitch, HOLDER_PLACES, HOLDER_SWITCHES};
use super::out_vcs::{OutVcHold, OUT_VC_HOLDS};

/// What the owed dummy tail did in one cycle (set by the source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DummyWait {
    /// No credit in the suspended message's lane.
    NoCredit,
    /// A credit, the link given to another VC's flit.
    Link,
    /// It left.
    Sent,
}

/// A dummy-tail cycle of a followed message, by whose dummy tail (the VC's
/// holder's while the message queues, its own after it took the VC) and
/// by [`DummyWait`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DummyPart {
    QueueNoCredit,
    QueueLink,
    QueueSent,
    HeaderNoCredit,
    HeaderLink,
    HeaderSent,
}

pub const DUMMY_PARTS: usize = 6;

impl DummyPart {
    pub const ALL: [DummyPart; DUMMY_PARTS] = [DummyPart::QueueNoCredit, DummyPart::QueueLink, DummyPart::QueueSent, DummyPart::HeaderNoCredit, DummyPart::HeaderLink, DummyPart::HeaderSent];

    /// The part of a queue (`queued`) or header cycle.
    pub fn of(queued: bool, wait: DummyWait) -> DummyPart {
        match (queued, wait) {
            (true, DummyWait::NoCredit) => DummyPart::QueueNoCredit,
            (true, DummyWait::Link) => DummyPart::QueueLink,
            (true, DummyWait::Sent) => DummyPart::QueueSent,
            (false, DummyWait::NoCredit) => DummyPart::HeaderNoCredit,
            (false, DummyWait::Link) => DummyPart::HeaderLink,
            (false, DummyWait::Sent) => DummyPart::HeaderSent,
        }
    }

    /// Its column name in a CSV (the cause's name, then the wait's).
    pub fn name(self) -> &'static str {
        match self {
            DummyPart::QueueNoCredit => "queue_holder_dummy_no_credit",
            DummyPart::QueueLink => "queue_holder_dummy_link",
            DummyPart::QueueSent => "queue_holder_dummy_sent",
            DummyPart::HeaderNoCredit => "header_dummy_no_credit",
            DummyPart::HeaderLink => "header_dummy_link",
            DummyPart::HeaderSent => "header_dummy_sent",
        }
    }
}

/// In a [`DummyWait::NoCredit`] cycle (of either [`DummyPart`]), what the
/// suspended lane of the source's input VC in the router held: the
/// router's state of that input VC, looked up as the probe does for a
/// followed message's frontier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneHold {
    /// No flit of the lane in the router: its flits crossed, their credits
    /// not yet back at the source (a credit counts from two cycles after
    /// the crossing), or flits on the way in.
    Empty,
    /// Another lane of the VC is being served (the suspended lane
    /// preempted in the router too).
    OtherLane,
    /// Its message's header not yet routed.
    Unrouted,
    /// Routed, waiting for an output VC (the first VC-allocation cycle
    /// included).
    VcWait,
    /// Holding an output VC another input VC now owns (preempted there).
    OutputPreempted,
    /// Holding its output VC, whose buffer is full.
    OutputFull,
    /// Holding its output VC with room, a flit of the lane through the
    /// crossbar in this cycle (its credit reaches the source later).
    Crossed,
    /// Holding its output VC with room, no flit of the lane through the
    /// crossbar: the crossbar given to other flits.
    SwitchLost,
}

pub const LANE_HOLDS: usize = 8;

impl LaneHold {
    pub const ALL: [LaneHold; LANE_HOLDS] = [LaneHold::Empty, LaneHold::OtherLane, LaneHold::Unrouted, LaneHold::VcWait, LaneHold::OutputPreempted, LaneHold::OutputFull, LaneHold::Crossed, LaneHold::SwitchLost];

    pub fn name(self) -> &'static str {
        match self {
            LaneHold::Empty => "dummy_lane_empty",
            LaneHold::OtherLane => "dummy_lane_other_lane",
            LaneHold::Unrouted => "dummy_lane_unrouted",
            LaneHold::VcWait => "dummy_lane_vc_wait",
            LaneHold::OutputPreempted => "dummy_lane_output_preempted",
            LaneHold::OutputFull => "dummy_lane_output_full",
            LaneHold::Crossed => "dummy_lane_crossed",
            LaneHold::SwitchLost => "dummy_lane_switch_lost",
        }
    }
}

/// One message's dummy-tail cycles by [`DummyPart`], its no-credit
/// cycles by [`LaneHold`], and in its [`LaneHold::VcWait`] cycles the
/// wanted port's output VCs by [`OutVcHold`] (M a cycle; each indexed by
/// position in `ALL`), and of those output VCs held by best effort with
/// no flit past the crossbar, where the holder's next flit was by
/// [`HolderPlace`], and of those with it in the router, by [`HolderSwitch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DummySplit {
    pub parts: [u32; DUMMY_PARTS],
    pub lane: [u32; LANE_HOLDS],
    pub out_vcs: [u32; OUT_VC_HOLDS],
    pub holders: [u32; HOLDER_PLACES],
    pub switches: [u32; HOLDER_SWITCHES],
}

impl DummySplit {
    pub fn get(&self, p: DummyPart) -> u32 {
        self.parts[p as usize]
    }
    pub fn lane(&self, h: LaneHold) -> u32 {
        self.lane[h as usize]
    }
    pub fn out_vc(&self, h: OutVcHold) -> u32 {
        self.out_vcs[h as usize]
    }
    pub fn holder(&self, h: HolderPlace) -> u32 {
        self.holders[h as usize]
    }
    pub fn switch(&self, h: HolderSwitch) -> u32 {
        self.switches[h as usize]
    }
    /// The queue's parts, the header's parts, and the lane holds (which
    /// split the two no-credit parts together).
    pub fn sums(&self) -> (u32, u32, u32) {
        let p = &self.parts;
        (p[0] + p[1] + p[2], p[3] + p[4] + p[5], self.lane.iter().sum())
    }
}

//! Per message, every cycle from its release to its tail's delivery given
//! to one [`Cause`] (issue 23 item 2, docs/reproduction.md "Which of P's
//! mechanisms makes its excursions"): what held back the message's
//! *frontier*, the flit of it that is delivered next, in that cycle. The
//! causes add up to `delivered - created`; at zero load a message of F
//! flits spends F cycles [`Cause::Crossing`] and 4 [`Cause::Pipeline`]
//! (`zero_load.rs`: route, VC allocation, crossbar, output register), so
//! the other causes plus `Pipeline - 4` are its latency beyond zero load.
//!
//! Opt-in ([`Sim::run_cause_split`]); one router (`topology.kind =
//! "single_switch"`), the plain sources. Where the frontier is follows from
//! counts, no flit is searched for:
//!
//! - flits the source sent of the message, and the lane each went into
//!   (with per-lane credits the source names it; else lane 0);
//! - flits that left its input lane through the crossbar: each lane of a
//!   source-fed input VC is a FIFO of the flits the source wrote into it,
//!   and the router returns one credit, naming the lane, for every flit
//!   that leaves it (§9.4 *Credits*), so a message's crossed flits are the
//!   lane's credits beyond those of the flits written before its header;
//! - flits on its output link: the flit there after a cycle is the one the
//!   sink takes in the next, named as the sink names it (a header by its
//!   (destination, tag), a body flit by its tag at that destination).
//!
//! The dummy-tail causes are split further by what the dummy tail waited
//! for ([`dummy_tail`]), and while it waits on best effort routed ahead of
//! it, by who holds the output VCs that best effort wants ([`out_vcs`]),
//! and for best-effort holders with no flit past the crossbar, by where
//! their next flit is ([`holders`]).
//!
//! [`Sim::run_cause_split`]: crate::network::Sim::run_cause_split

pub mod dummy_tail;
pub mod holders;
pub mod out_vcs;

use dummy_tail::{DummyPart, DummySplit, DummyWait, LaneHold};
use holders::{SourceVcCarries, SourceView};
use wormqos_sim::{LinkFlit, Router, VcState, Width};

/// What held a message's frontier back in one cycle. Before its header
/// leaves the source it is waiting there; after, the frontier is in the
/// output buffer (some of its flits crossed the crossbar and are not
/// delivered), in its input lane, or still at the source, checked in that
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// In its source queue, its VC held by another message that sent a
    /// flit in this cycle (queueing behind the VC's holder).
    QueueHolderSends,
    /// ... whose next flit had no credit (the router's input VC full).
    QueueHolderNoCredit,
    /// ... that owes the dummy tail of the best effort it suspended (§9.4
    /// *A source preempting its own best effort*) and did not send it.
    QueueHolderDummy,
    /// ... whose next flit had a credit and the link went to another VC.
    QueueHolderLink,
    /// In its source queue with no holder on its VC (no tag free, or its
    /// stream not bound to a VC).
    QueueOther,
    /// On its source VC, its own owed dummy tail not yet gone.
    HeaderDummy,
    /// On its source VC, its header without a credit.
    HeaderNoCredit,
    /// On its source VC, its header with a credit, the link to another VC.
    HeaderLink,
    /// Frontier at the source (every flit it sent has crossed the
    /// crossbar), the next flit with a credit, the link to another VC.
    SourceLink,
    /// ... the next flit without a credit: its input VC's buffer holds
    /// other lanes' flits (a suspended message's).
    SourceNoCredit,
    /// Frontier in its input lane behind an earlier message's flits there.
    BehindEarlier,
    /// Frontier in its input lane, another lane of the VC serving (its lane
    /// suspended by a higher class's header, §9.4).
    Preempted,
    /// Frontier in its input lane, routed, waiting for an output VC beyond
    /// the first VC-allocation cycle.
    VcWait,
    /// Frontier in its input lane, holding an output VC that another input
    /// VC now owns (its output VC preempted, §9.4 stage 3).
    OutputPreempted,
    /// Frontier in its input lane, holding its output VC, not through the
    /// crossbar, that output VC's buffer full.
    OutputFull,
    /// ... with room: the crossbar given to another flit (switch sharing).
    SwitchLost,
    /// Frontier in the output buffer, the link carrying another VC's flit.
    LinkShared,
    /// ... carrying a dummy flit.
    LinkDummy,
    /// A zero-load stage: route computation, the first VC-allocation
    /// cycle, the crossing of the crossbar, a flit in the output buffer
    /// with the link idle.
    Pipeline,
    /// A flit of it on the output link.
    Crossing,
    /// None of the above (0 in a sound run: the tests assert it).
    Other,
}

pub const CAUSES: usize = 21;

impl Cause {
    pub const ALL: [Cause; CAUSES] = [
        Cause::QueueHolderSends,
        Cause::QueueHolderNoCredit,
        Cause::QueueHolderDummy,
        Cause::QueueHolderLink,
        Cause::QueueOther,
        Cause::HeaderDummy,
        Cause::HeaderNoCredit,
        Cause::HeaderLink,
        Cause::SourceLink,
        Cause::SourceNoCredit,
        Cause::BehindEarlier,
        Cause::Preempted,
        Cause::VcWait,
        Cause::OutputPreempted,
        Cause::OutputFull,
        Cause::SwitchLost,
        Cause::LinkShared,
        Cause::LinkDummy,
        Cause::Pipeline,
        Cause::Crossing,
        Cause::Other,
    ];

    /// Its column name in a CSV.
    pub fn name(self) -> &'static str {
        match self {
            Cause::QueueHolderSends => "queue_holder_sends",
            Cause::QueueHolderNoCredit => "queue_holder_no_credit",
            Cause::QueueHolderDummy => "queue_holder_dummy",
            Cause::QueueHolderLink => "queue_holder_link",
            Cause::QueueOther => "queue_other",
            Cause::HeaderDummy => "header_dummy",
            Cause::HeaderNoCredit => "header_no_credit",
            Cause::HeaderLink => "header_link",
            Cause::SourceLink => "source_link",
            Cause::SourceNoCredit => "source_no_credit",
            Cause::BehindEarlier => "behind_earlier",
            Cause::Preempted => "preempted",
            Cause::VcWait => "vc_wait",
            Cause::OutputPreempted => "output_preempted",
            Cause::OutputFull => "output_full",
            Cause::SwitchLost => "switch_lost",
            Cause::LinkShared => "link_shared",
            Cause::LinkDummy => "link_dummy",
            Cause::Pipeline => "pipeline",
            Cause::Crossing => "crossing",
            Cause::Other => "other",
        }
    }
}

/// Zero-load cycles of [`Cause::Pipeline`] on one router (derived in the
/// tests from the golden model's hand-derived timing).
pub const ZERO_LOAD_PIPELINE: u32 = 4;

/// What a source VC did in one cycle (set by the source, read by
/// [`CauseProbe::observe`] after the routers stepped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceVcNow {
    /// No message on it.
    #[default]
    Idle,
    /// A flit of its message left.
    Sent,
    /// An owed dummy tail left or waited (`wait`); `lane`: the suspended
    /// message's lane, the one it goes into.
    Dummy { wait: DummyWait, lane: u8 },
    /// Its next flit had no credit.
    NoCredit,
    /// Its next flit had a credit, the link went to another VC.
    Link,
}

/// One message's cycles per cause (indexed by the position in `Cause::ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CauseSplit {
    pub cycles: [u32; CAUSES],
    /// Of [`Cause::QueueHolderDummy`] and [`Cause::HeaderDummy`]: what the
    /// dummy tail waited for.
    pub dummy: DummySplit,
    /// Cycles in which the counts disagreed with the router (a flit of it
    /// crossing the crossbar beyond those its source sent, on the link
    /// beyond those crossed, or fewer than its flits crossed or delivered
    /// at its delivery): 0 in a sound measurement.
    pub mismatches: u32,
}

impl CauseSplit {
    pub fn total(&self) -> u32 {
        self.cycles.iter().sum()
    }
    pub fn get(&self, c: Cause) -> u32 {
        self.cycles[c as usize]
    }
}

/// A message followed from its release.
#[derive(Clone, Copy, Debug)]
struct Followed {
    idx: u32,
    src: usize,
    /// The source VC its stream is bound to (`None`: any), then the one it
    /// took.
    vc: Option<usize>,
    started: bool,
    /// Its destination's output port.
    out_port: usize,
    flits: u64,
    /// Sent by its source; the lane its header went into and the lane's
    /// flits written before it; crossed the crossbar (after the last
    /// cycle); on its output link so far.
    sent: u64,
    lane: usize,
    start: u64,
    crossed: u64,
    on_link: u64,
    /// Its frontier was routed after the cycle before (the first routed
    /// cycle is the VC-allocation stage's own).
    was_routed: bool,
    /// The cycles its last two flits left the source (last first).
    writes: [u64; 2],
    /// Cycles its source held back a flit behind the frontier, by why
    /// (the link to another VC, no credit), not yet charged.
    owed_link: u32,
    owed_no_credit: u32,
    split: CauseSplit,
}

impl Followed {
    /// A cycle its frontier spends in a body flit's own stages (written,
    /// through the crossbar, in the output buffer) after the flit before
    /// it has left: the flit came late from the source, so the cycle goes
    /// to a source wait owed to it (the link first given to another VC,
    /// or no credit), else to the pipeline.
    fn transit(&mut self) -> Cause {
        if self.owed_no_credit > 0 {
            self.owed_no_credit -= 1;
            Cause::SourceNoCredit
        } else if self.owed_link > 0 {
            self.owed_link -= 1;
            Cause::SourceLink
        } else {
            Cause::Pipeline
        }
    }
}

/// The running counts ([`crate::network::Sim`] owns one while recording).
pub(crate) struct CauseProbe {
    class: u8,
    vcs: usize,
    depth: usize,
    /// Per endpoint: its router input port.
    in_port: Vec<usize>,
    /// Per (endpoint, VC): what the source did with it this cycle, and per
    /// lane the flits written into it and the credits returned from it.
    now: Vec<SourceVcNow>,
    /// Per (endpoint, VC): what it carried this cycle; per endpoint: the
    /// class of the VC whose flit it sent (read by [`holders`]).
    carries: Vec<SourceVcCarries>,
    picked_class: Vec<Option<u8>>,
    /// Per router input port: the endpoint feeding it.
    endpoint_at: Vec<usize>,
    /// The router's credits name their lanes (set by `observe`).
    per_lane: bool,
    written: Vec<[u64; wormqos_sim::lane_credits::MAX_LANES]>,
    returned: Vec<[u64; wormqos_sim::lane_credits::MAX_LANES]>,
    /// Per (endpoint, VC) and lane: the last cycle a credit returned
    /// (`u64::MAX`: none yet).
    last_credit: Vec<[u64; wormqos_sim::lane_credits::MAX_LANES]>,
    followed: Vec<Followed>,
    /// Slab index -> position in `followed` + 1 (0: not followed).
    pos: Vec<u32>,
    /// Per output port: the followed message whose flit is on the link.
    on_link: Vec<Option<u32>>,
}

impl CauseProbe {
    /// Follows messages of class `class` on a router of `vcs` VCs and
    /// output buffers of `depth` flits fed by endpoints at `in_port`.
    pub fn new(class: u8, vcs: usize, depth: usize, in_port: Vec<usize>, ports: usize) -> CauseProbe {
        let n = in_port.len() * vcs;
        let mut endpoint_at = vec![usize::MAX; ports];
        in_port.iter().enumerate().for_each(|(e, &p)| endpoint_at[p] = e);
        CauseProbe {
            carries: vec![SourceVcCarries::default(); n],
            picked_class: vec![None; in_port.len()],
            endpoint_at,
            per_lane: false,
            class,
            vcs,
            depth,
            in_port,
            now: vec![SourceVcNow::Idle; n],
            written: vec![[0; wormqos_sim::lane_credits::MAX_LANES]; n],
            returned: vec![[0; wormqos_sim::lane_credits::MAX_LANES]; n],
            last_credit: vec![[u64::MAX; wormqos_sim::lane_credits::MAX_LANES]; n],
            followed: Vec::new(),
            pos: Vec::new(),
            on_link: vec![None; ports],
        }
    }

    fn get(&mut self, idx: u32) -> Option<&mut Followed> {
        let k = *self.pos.get(idx as usize)? as usize;
        (k > 0).then(|| &mut self.followed[k - 1])
    }

    /// Message `idx` of class `class` released at source `src` (`vc`: the
    /// VC its stream is bound to), to the endpoint at output port
    /// `out_port`.
    pub fn released(&mut self, idx: u32, class: u8, src: usize, vc: Option<usize>, out_port: usize, flits: u32) {
        if class != self.class {
            return;
        }
        let i = idx as usize;
        if self.pos.len() <= i {
            self.pos.resize(i + 1, 0);
        }
        self.followed.push(Followed { idx, src, vc, started: false, out_port, flits: flits as u64, sent: 0, lane: 0, start: 0, crossed: 0, on_link: 0, was_routed: false, writes: [0; 2], owed_link: 0, owed_no_credit: 0, split: CauseSplit::default() });
        self.pos[i] = self.followed.len() as u32;
    }

    /// Message `idx` took source VC v.
    pub fn started(&mut self, idx: u32, v: usize) {
        if let Some(f) = self.get(idx) {
            f.vc = Some(v);
            f.started = true;
        }
    }

    /// Source `src`'s VC v did `what` this cycle.
    #[inline]
    pub fn source_vc(&mut self, src: usize, v: usize, what: SourceVcNow) {
        self.now[src * self.vcs + v] = what;
    }

    /// Source `src`'s VC v carried `carries` this cycle.
    #[inline]
    pub fn source_vc_carries(&mut self, src: usize, v: usize, carries: SourceVcCarries) {
        self.carries[src * self.vcs + v] = carries;
    }

    /// Source `src` sent a flit of a VC holding class `class` this cycle
    /// (`None`: no flit).
    #[inline]
    pub fn source_picked(&mut self, src: usize, class: Option<u8>) {
        self.picked_class[src] = class;
    }

    /// What the source feeding router input VC (p, v) noted this cycle.
    fn source_view(&self, p: usize, v: usize) -> SourceView {
        let e = self.endpoint_at[p];
        let k = e * self.vcs + v;
        SourceView { now: self.now[k], carries: self.carries[k], picked_class: self.picked_class[e] }
    }

    /// A flit (real: of message `idx`; dummy: `None`) left source `src` on
    /// VC v into lane `lane` in cycle `now`.
    pub fn written(&mut self, now: u64, src: usize, v: usize, lane: usize, idx: Option<u32>) {
        let k = src * self.vcs + v;
        let before = self.written[k][lane];
        self.written[k][lane] += 1;
        if let Some(f) = idx.and_then(|i| self.get(i)) {
            if f.sent == 0 {
                f.lane = lane;
                f.start = before;
            }
            f.sent += 1;
            f.writes = [now, f.writes[0]];
        }
    }

    /// After cycle `now`: the router's credits to the sources counted,
    /// every followed message's cycle given to a cause. `link_message(o,
    /// flit)` names the message a valid, non-dummy flit on output link o
    /// belongs to.
    pub fn observe<X: Width>(&mut self, now: u64, router: &Router<X>, per_lane: bool, link_message: impl Fn(usize, &LinkFlit) -> Option<u32>) {
        let m = self.vcs;
        self.per_lane = per_lane;
        let out = router.outputs();
        for (e, &p) in self.in_port.iter().enumerate() {
            let word = out.credits[p];
            if word == 0 {
                continue;
            }
            for v in (0..m).filter(|&v| word >> v & 1 == 1) {
                let lane = if per_lane { wormqos_sim::credit_lane(out.credit_lanes[p], v) } else { 0 };
                self.returned[e * m + v][lane] += 1;
                self.last_credit[e * m + v][lane] = now;
            }
        }
        for (o, f) in out.flits.iter().enumerate().take(self.on_link.len()) {
            self.on_link[o] = (f.valid && !f.dummy).then(|| link_message(o, f)).flatten();
        }
        for k in 0..self.followed.len() {
            let mut f = self.followed[k];
            let crossed = self.crossed(&f);
            let (cause, routed) = self.cause_of(&mut f, crossed, now, router);
            f.split.cycles[cause as usize] += 1;
            f.on_link += (cause == Cause::Crossing) as u64;
            f.was_routed = routed;
            if crossed > f.sent || f.on_link > crossed {
                f.split.mismatches += 1;
            }
            f.crossed = crossed;
            self.followed[k] = f;
        }
    }

    /// Flits of `f` through the crossbar after this cycle's credits.
    fn crossed(&self, f: &Followed) -> u64 {
        let Some(v) = f.vc.filter(|_| f.sent > 0) else { return 0 };
        self.returned[f.src * self.vcs + v][f.lane].saturating_sub(f.start).min(f.flits)
    }

    /// The cause of `f`'s cycle (and whether its frontier is routed); a
    /// source wait of a flit behind the frontier is owed to `f` for later.
    fn cause_of<X: Width>(&self, f: &mut Followed, crossed: u64, now: u64, router: &Router<X>) -> (Cause, bool) {
        let m = self.vcs;
        if !f.started {
            let Some(v) = f.vc else { return (Cause::QueueOther, false) };
            let cause = match self.now[f.src * m + v] {
                SourceVcNow::Idle => Cause::QueueOther,
                SourceVcNow::Sent => Cause::QueueHolderSends,
                SourceVcNow::Dummy { wait, lane } => {
                    self.dummy_cycle(f, true, wait, v, lane, now, router);
                    Cause::QueueHolderDummy
                }
                SourceVcNow::NoCredit => Cause::QueueHolderNoCredit,
                SourceVcNow::Link => Cause::QueueHolderLink,
            };
            return (cause, false);
        }
        let v = f.vc.expect("a started message has a VC");
        let at_source = self.now[f.src * m + v];
        if f.sent == 0 {
            let cause = match at_source {
                SourceVcNow::Dummy { wait, lane } => {
                    self.dummy_cycle(f, false, wait, v, lane, now, router);
                    Cause::HeaderDummy
                }
                SourceVcNow::NoCredit => Cause::HeaderNoCredit,
                SourceVcNow::Link => Cause::HeaderLink,
                SourceVcNow::Idle | SourceVcNow::Sent => Cause::Other,
            };
            return (cause, false);
        }
        let frontier = f.on_link;
        let header = frontier == 0;
        // The source holding back a flit behind the frontier: owed to the
        // cycle the frontier, arrived, waits for that flit (below).
        let frontier_at_source = frontier >= f.sent;
        if !frontier_at_source {
            match at_source {
                SourceVcNow::Link => f.owed_link += 1,
                SourceVcNow::NoCredit => f.owed_no_credit += 1,
                _ => {}
            }
        }
        if self.on_link[f.out_port] == Some(f.idx) {
            return (Cause::Crossing, false);
        }
        if crossed > frontier {
            // Through the crossbar in this cycle: the output buffer's
            // stage, whatever the link carried (it could not have left).
            if frontier >= f.crossed {
                return (if header { Cause::Pipeline } else { f.transit() }, false);
            }
            let link = &router.outputs().flits[f.out_port];
            let cause = match (link.valid, link.dummy) {
                (true, true) => Cause::LinkDummy,
                (true, false) => Cause::LinkShared,
                (false, _) => Cause::Other,
            };
            return (cause, false);
        }
        if !frontier_at_source {
            let p = self.in_port[f.src];
            if self.returned[f.src * m + v][f.lane] < f.start {
                return (Cause::BehindEarlier, false);
            }
            if router.lane_regs(p, v).is_some_and(|r| r.top > 0 && r.sl != f.lane) {
                return (Cause::Preempted, false);
            }
            // A body flit's buffer write and switch stages (it crosses the
            // crossbar two cycles after its write at the earliest).
            if !header && frontier + 2 >= f.sent && f.writes[(f.sent - 1 - frontier) as usize] + 2 > now {
                return (f.transit(), false);
            }
            return match router.vc_state(p, v) {
                VcState::Idle => (Cause::Pipeline, false),
                VcState::Routed { .. } if !f.was_routed => (Cause::Pipeline, true),
                VcState::Routed { .. } => (Cause::VcWait, true),
                VcState::Active { .. } if f.was_routed => (Cause::Pipeline, false),
                VcState::Active { route, ovc } => (self.holding_output(router, p, v, route, ovc), false),
            };
        }
        let cause = match at_source {
            SourceVcNow::Link => Cause::SourceLink,
            SourceVcNow::NoCredit => Cause::SourceNoCredit,
            _ => Cause::Other,
        };
        (cause, false)
    }

    /// An input VC (p, v) holding output VC `ovc` of port `route`, its
    /// flit not through the crossbar: that output VC owned by another input
    /// VC now, full, or with room (the crossbar lost).
    fn holding_output<X: Width>(&self, router: &Router<X>, p: usize, v: usize, route: usize, ovc: usize) -> Cause {
        if router.owner(route, ovc) != Some(p * self.vcs + v) {
            Cause::OutputPreempted
        } else if router.output_occupancy(route, ovc) >= self.depth {
            Cause::OutputFull
        } else {
            Cause::SwitchLost
        }
    }

    /// A dummy-tail cycle of `f` (`queued`: its VC's holder owes it; else
    /// `f` itself) on source VC v, the dummy tail's lane `lane`: its part,
    /// and without a credit what holds that lane in the router.
    #[allow(clippy::too_many_arguments)]
    fn dummy_cycle<X: Width>(&self, f: &mut Followed, queued: bool, wait: DummyWait, v: usize, lane: u8, now: u64, router: &Router<X>) {
        f.split.dummy.parts[DummyPart::of(queued, wait) as usize] += 1;
        if wait == DummyWait::NoCredit {
            let crossed_now = self.last_credit[f.src * self.vcs + v][lane as usize] == now;
            let p = self.in_port[f.src];
            let hold = self.lane_hold(router, p, v, lane as usize, crossed_now);
            f.split.dummy.lane[hold as usize] += 1;
            if let (LaneHold::VcWait, VcState::Routed { route }) = (hold, router.vc_state(p, v)) {
                let d = &mut f.split.dummy;
                out_vcs::count(router, route, &mut d.out_vcs, &mut d.holders, &mut d.switches, self.per_lane, |p, v| self.source_view(p, v));
            }
        }
    }

    /// What lane `lane` of input VC (p, v) waits for in the router
    /// (`crossed_now`: a flit of it crossed the crossbar in this cycle).
    fn lane_hold<X: Width>(&self, router: &Router<X>, p: usize, v: usize, lane: usize, crossed_now: bool) -> LaneHold {
        if router.lane_occupancy(p, v, lane) == 0 {
            return LaneHold::Empty;
        }
        if router.lane_regs(p, v).is_some_and(|r| r.top > 0 && r.sl != lane) {
            return LaneHold::OtherLane;
        }
        match router.vc_state(p, v) {
            VcState::Idle => LaneHold::Unrouted,
            VcState::Routed { .. } => LaneHold::VcWait,
            VcState::Active { route, ovc } => match self.holding_output(router, p, v, route, ovc) {
                Cause::OutputPreempted => LaneHold::OutputPreempted,
                Cause::OutputFull => LaneHold::OutputFull,
                _ if crossed_now => LaneHold::Crossed,
                _ => LaneHold::SwitchLost,
            },
        }
    }

    /// Message `idx` was delivered: its split (`None` if not followed).
    pub fn finish(&mut self, idx: u32) -> Option<CauseSplit> {
        let k = std::mem::take(self.pos.get_mut(idx as usize)?) as usize;
        if k == 0 {
            return None;
        }
        let f = self.followed.swap_remove(k - 1);
        if let Some(moved) = self.followed.get(k - 1) {
            self.pos[moved.idx as usize] = k as u32;
        }
        let mut split = f.split;
        if f.crossed != f.flits || f.on_link != f.flits {
            split.mismatches += 1;
        }
        Some(split)
    }
}

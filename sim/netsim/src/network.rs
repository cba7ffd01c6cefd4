//! The engine: golden-model routers wired by links, endpoints with source
//! queues and credit-respecting injection, sinks that return credits at once.
//!
//! Timing: in cycle t every router's registered outputs (`outputs()`) are on
//! its links; each router's inputs for cycle t are its neighbours' outputs
//! and the endpoints' injected flits; then every router steps. With
//! `topology.link_latency` = L = 0 links add no delay beyond the routers'
//! own output registers, which is what the RTL routers wired port to port
//! do; with L >= 1 every router-to-router link has L registers for flits and
//! L for credits ([`LinkPipes`]): a router's input in cycle t is its
//! neighbour's output of cycle t - L, as in the generated network top with
//! L pipeline registers per link (`composed.rs` is held equal to this).

use crate::experiment::{BestEffort, ModelScheduler, RealTime, SourcePreemption, SourceVcChoice, Validated};
use crate::metrics::{self, Histogram, MeanSd};
use crate::phase_intervals;
use crate::segmentation::SegmentationQueues;
use crate::topology::Peer;
use crate::workload::{self, FlowKind, Message};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use wormqos_config::RouterConfig;
use crate::source_lanes::SourceLanes;
use wormqos_sim::{credit_lane_word, ComparisonScheduler, LinkFlit, Narrow, PortSet, Router, VcState, Wide, Width};

/// Tag bits available per spec §9.6: IDW = min(32, W - HW, W - 16).
pub fn tag_bits(flit_width: u32, header_width: u32) -> u32 {
    32u32.min(flit_width.saturating_sub(header_width)).min(flit_width.saturating_sub(16))
}

/// Cycles between two deadlock checks (`deadlock::find`); a deadlocked set
/// is reported when it is still deadlocked at the next check.
pub const DEADLOCK_CHECK: u64 = 4096;

/// Tag values used (per destination): at most 2^12 messages in flight to one
/// endpoint; a source whose next tag to that endpoint is still in use waits.
const MAX_TAG_BITS: u32 = 12;

#[derive(Clone, Debug)]
struct MsgRec {
    m: Message,
    flow: u32,
    #[allow(dead_code)]
    src: u32,
    created: u64,
    injected: u64,
    received: u32,
    tag: u32,
    measured: bool,
    /// Until the header leaves: its NI's `credit_stalled` count of its class
    /// at creation; then the cycles of its source wait in which its class
    /// was held for credits (the difference).
    stalled: u64,
    /// Where the source put it ([`MessageLog`]): set when it takes a VC.
    at_source: SourceVc,
    /// Its source queue: the class, or with `workload.source_queues =
    /// "per_direction_*"` its direction ([`SegmentationQueues`]).
    queue: u8,
}

/// The source VC a message took and what it found there: read only by
/// [`Sim::run_logged`]'s log, stored for every message because it costs a
/// few writes when the VC is taken (all zero with a `[nic]` section, whose
/// model picks VCs itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceVc {
    /// The cycle it took the VC (left the class's source queue), the VC,
    /// the VC's credits then (the router's free input buffer slots; fewer
    /// than the buffer's depth: earlier flits still wait in the router),
    /// and the class of the message the source sent on that VC before it
    /// (`u8::MAX`: none since the start).
    pub started: u64,
    pub vc: u8,
    pub credits: u32,
    pub prev_class: u8,
    /// The source's VCs holding a message (this one included) when it took
    /// its VC: the messages its flits are interleaved with on the link.
    pub vcs_held: u32,
    /// The cycle its tail left the source.
    pub tail_sent: u64,
    /// When it was created: the source's VCs holding a message of a lower
    /// class than its own (logged runs only).
    pub lower_held: u32,
    /// Cycles from taking its VC to its tail leaving in which that VC had no
    /// credit (its router input buffer full; logged runs only).
    pub no_credit: u64,
    /// When its header left: flits in the router's buffer of its input VC,
    /// all of them and those in lanes opened by a lower class than its own
    /// (docs/microarchitecture.md §9.4 `lmax`; always 0 without preemption,
    /// where the buffer has one lane; logged runs only).
    pub ahead: u32,
    pub lower_ahead: u32,
    /// When its header left, on one router: the output VCs of its
    /// destination's port allocated to messages (§6 VA), and those of them
    /// held by a message of a lower class than its own (the owner input
    /// VC's header register, §9.1; logged runs only).
    pub out_vcs_held: u32,
    pub out_vcs_lower: u32,
    /// `workload.source_preemption = "best_effort"`: the times its source
    /// suspended it for a higher-class message on its VC, and the cycle of
    /// the first (its hold of the VC then ended until it resumed).
    pub preempted: u32,
    pub first_suspended: u64,
    /// Cycles from taking its VC to its header leaving, by what held the
    /// header back (logged runs only).
    pub before_header: HeaderWait,
    /// Cycles from its creation to its header leaving in which its class at
    /// its source held a VC with flits to send and no credit on any (the
    /// network holding the source back): its own share of
    /// `ClassStats::source_credit_stall`, set when it is delivered (logged
    /// runs only; 0 with a `[nic]` section).
    pub credit_stalled: u64,
}

/// What a message's header waited for in each cycle from the message taking
/// its source VC to the header leaving (the cycle it leaves not counted):
/// under `workload.source_preemption`, the dummy tail owed to the best-effort
/// message it suspended (§9.4) without a credit, with a credit but the link
/// given to another VC's flit, and the cycle the dummy tail leaves; then the
/// header itself without a credit, or with one but the link given to another
/// VC. The five add up to `injected - started` for a message never
/// suspended itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HeaderWait {
    pub dummy_no_credit: u32,
    pub dummy_link: u32,
    pub dummy_sent: u32,
    pub header_no_credit: u32,
    pub header_link: u32,
}

/// A dummy flit a source owes on one of its VCs before the next flit of the
/// message there (§9.4 *A source preempting its own best effort*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OwedDummy {
    None,
    /// Ends the part of the best-effort message just suspended, before the
    /// preempting message's header.
    Tail,
    /// Starts the resumed part of a suspended message whose header had left.
    Header,
}

impl Ni {
    /// Whether VC v of this source may take a message of class c: no
    /// message on it and, for best effort, none suspended there (a higher
    /// class may take a VC whose best effort is suspended).
    #[inline]
    fn idle_for(&self, c: usize, v: usize) -> bool {
        self.vc_cur[v].is_none() && (c > 0 || self.vc_susp[v].is_none())
    }

    /// Credits VC v has for its next flit, a header or not, of class c
    /// (with per-lane credits those of the lane the flit would take).
    #[inline]
    fn next_flit_credits<const LANES: bool>(&self, v: usize, head: bool, c: u8) -> u32 {
        if LANES {
            self.lanes.credits_for(v, head, c)
        } else {
            self.credits[v]
        }
    }

    /// The router's credits of this cycle (bit v = VC v; with per-lane
    /// credits `lanes` holds each one's lane), counting from the next cycle.
    #[inline]
    fn return_credits<const LANES: bool>(&mut self, ret: u32, lanes: u64) {
        if !LANES {
            for (v, c) in self.credits.iter_mut().enumerate() {
                *c += ret >> v & 1;
            }
        } else {
            self.lanes.credit(ret, lanes);
        }
    }
}

struct Ni {
    router: usize,
    port: usize,
    /// Source queue per class (slab indices), or per direction with
    /// `workload.source_queues = "per_direction_*"`.
    queues: Vec<VecDeque<u32>>,
    /// Per direction queue: serving a message (`per_direction_*` only).
    serving: u64,
    /// Message being sent on each VC: (slab index, flits sent).
    vc_cur: Vec<Option<(u32, u32)>>,
    /// Class of the message in `vc_cur[v]`, so that picking a VC needs no
    /// look-up of the message records.
    vc_class: Vec<u8>,
    /// `workload.source_preemption = "best_effort"`: per VC, the best-effort
    /// message suspended there (slab index, flits sent), the source's
    /// one-entry history (§9.4); and the dummy flit owed before the next
    /// flit of `vc_cur[v]`. Always `None` without source preemption.
    vc_susp: Vec<Option<(u32, u32)>>,
    vc_owed: Vec<OwedDummy>,
    /// VCs that have carried a message (so `vc_class` is meaningful).
    vc_used: u64,
    credits: Vec<u32>,
    /// `preemption_credits = "per_lane"`: the sender state of each source VC
    /// (§9.4 *Credits*; `credits` is then not read); empty otherwise.
    lanes: SourceLanes,
    rr: usize,
    /// Messages in `vc_cur`, `vc_susp` and `queues` (fast idle check).
    active: u32,
    queued: u32,
    /// Per class: cycles in which the class held a VC here with a message
    /// to send and every such VC had no credit (the router's input buffer
    /// full: the network holding the class back), counted since the start.
    credit_stalled: Vec<u64>,
}

/// The sender state of a source's `vcs` VCs with per-lane credits
/// (`router.preemption_credits = "per_lane"`), empty with per-VC credits.
fn source_lanes(cfg: &RouterConfig, vcs: usize) -> SourceLanes {
    match lanes_per_vc(cfg) {
        0 => SourceLanes::default(),
        lanes => SourceLanes::new(vcs, cfg.input_buffer_depth() as u16, lanes),
    }
}

/// E + 1 with per-lane credits, 0 with per-VC credits.
fn lanes_per_vc(cfg: &RouterConfig) -> usize {
    if cfg.per_lane_credits() {
        cfg.extra_lanes() + 1
    } else {
        0
    }
}

/// One router's link bookkeeping, bit masks over its ports, in one place
/// because the engine reads them together for every router every cycle.
/// Below saturation most links are idle; these let a cycle skip them
/// without reading either end.
#[derive(Clone, Copy, Default)]
struct LinkState<S> {
    /// `Router::output_activity` after the router's last step: output ports
    /// with a valid flit, input ports returning credits.
    out_flits: S,
    out_credits: S,
    /// Router links to visit in the next cycle even if their source is
    /// idle then. With no link latency: the router-link part of `out_flits`
    /// / `out_credits` as last copied downstream / upstream (a link that was
    /// busy must be copied once more to carry the idle value). With link
    /// registers: the links whose registers, or the input they drive, still
    /// hold a flit / a nonzero credit word.
    revisit_flits: S,
    revisit_credits: S,
    /// The inputs that are non-idle in `Sim::in_flits` / `Sim::in_credits`:
    /// input ports with a valid flit, output ports with a nonzero credit
    /// word. The router reads only these (`Router::step_active`), and an
    /// idle value on an idle endpoint port needs no write.
    in_flits: S,
    in_credits: S,
    /// Output / input ports wired to another router.
    to_router_out: S,
    to_router_in: S,
    /// Index of port 0 in `Sim::flit_to` and `Sim::credit_to`.
    port_base: u32,
}

/// The registers of the router-to-router links when `topology.link_latency`
/// = L >= 1, L per link and direction, as one ring per link: in cycle t every
/// link's slot `t mod L` holds what its source drove in cycle t - L; it is
/// read onto the link's far end and then takes the source's value of cycle t.
/// Links are indexed like `Sim::flit_to` (flits, by the driving output port)
/// and `Sim::credit_to` (credits, by the driving input port). A flit register
/// holds the flit with its lane (`LinkFlit::lane`); with per-lane credits a
/// credit register holds the credit word's lanes beside it (§9.4 *Credits*).
#[derive(Default)]
struct LinkPipes {
    /// L (0: no registers, nothing below is used).
    latency: usize,
    /// t mod L.
    slot: usize,
    /// `flits[link * L + k]`, `credits[link * L + k]`.
    flits: Vec<LinkFlit>,
    credits: Vec<u32>,
    /// `credit_lanes[link * L + k]`: the lanes of `credits[link * L + k]`
    /// (`router.preemption_credits = "per_lane"` only, else empty).
    credit_lanes: Vec<u64>,
    /// Per link: valid flits / nonzero credit words in its registers.
    live_flits: Vec<u8>,
    live_credits: Vec<u8>,
}

impl LinkPipes {
    fn new(latency: usize, links: usize, per_lane: bool) -> LinkPipes {
        LinkPipes {
            latency,
            slot: 0,
            flits: vec![LinkFlit::IDLE; links * latency],
            credits: vec![0; links * latency],
            credit_lanes: vec![0; if per_lane { links * latency } else { 0 }],
            live_flits: vec![0; if latency > 0 { links } else { 0 }],
            live_credits: vec![0; if latency > 0 { links } else { 0 }],
        }
    }

    /// Flits (not dummies) held in the registers, for the conservation check.
    fn flits_held(&self) -> u64 {
        self.flits.iter().filter(|f| f.valid && !f.dummy).count() as u64
    }
}

#[derive(Default)]
struct FlowState {
    /// (frame index, messages still to arrive, first message created at).
    open: VecDeque<(u32, u32, u64)>,
    /// (frame, delivery time, creation of its first message) of every measured frame.
    delivered: Vec<(u32, u64, u64)>,
    flits_delivered: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("deadlock: no flit moved for {cycles} cycles (at cycle {at}) with {buffered} flits buffered; waiting channels:\n{report}")]
    Deadlock { cycles: u64, at: u64, buffered: usize, report: String },
    /// Part of the network can never move again (`deadlock.rs`), found by
    /// the check every `DEADLOCK_CHECK` cycles while other flits may still move.
    #[error("deadlocked at cycle {at}: {vcs} input VCs can never move again (found at two checks {DEADLOCK_CHECK} cycles apart, formed after cycle {after}); a cycle of waits:\n{report}")]
    Deadlocked { at: u64, after: u64, vcs: usize, report: String },
    /// The `[reconfigure]` procedure could not complete (did not drain in
    /// time, or the run ended before it resumed the sources).
    #[error("reconfiguration: {0}")]
    Reconfigure(String),
    #[error("flit conservation violated: {0}")]
    Conservation(String),
    #[error("{0}")]
    Setup(String),
}

/// Per-class results.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ClassStats {
    pub class: u8,
    pub messages: u64,
    /// Creation to tail delivery (cycles).
    pub latency: f64,
    /// 95 % batch-means half-width of `latency`.
    pub latency_ci95: f64,
    /// Header injection to tail delivery.
    pub network_latency: f64,
    /// Creation to header injection.
    pub source_latency: f64,
    /// The part of `source_latency` in which the message's class, at its
    /// source's NI, held VCs with flits to send and no credit on any of
    /// them (the router's input buffer full: the network, not the link,
    /// holding the source back), mean cycles per message; `None` (not
    /// measured: JSON `null`, read back as `None`, as is a results file
    /// written before the field existed) with the NIC model, whose sources
    /// are not the simple NI's, and for a model's row.
    #[serde(default)]
    pub source_credit_stall: Option<f64>,
    /// Mean over the measured messages of their no-contention network
    /// latency (`zero_load.rs`: route and length, no other message), 000_…
    /// §3.2.1's transfer time T; `network_latency − transfer_time` is what
    /// contention (blocking and sharing) added. For a model's row the
    /// model's T. `None` where not known: the NIC model, a network of more
    /// than 512 endpoints (no hop table), output buffers below 4 flits, or a
    /// results file written before the field existed.
    #[serde(default)]
    pub transfer_time: Option<f64>,
    pub histogram: Histogram,
    /// Messages by network latency in cycles (index = cycles; the last
    /// entry counts every latency ≥ its index), for deadline tails such
    /// as P{L > D} of 000_… §3.4.
    pub network_latency_counts: Vec<u64>,
    /// The same per hop count (index = router-to-router links crossed;
    /// each list cut after its last nonzero entry), for the h-hop
    /// deadline tails of 000_… §3.4.2; empty on one router or above 512
    /// endpoints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network_latency_counts_by_hops: Vec<Vec<u64>>,
}

/// Length of `ClassStats::network_latency_counts`.
pub const NET_LATENCY_BINS: usize = 1024;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PhaseStats {
    pub mix: [f64; 2],
    pub frames_judged: u64,
    pub deadline_miss_probability: f64,
    pub deadline_missing_time_ms: f64,
    /// 95 % half-width of `deadline_miss_probability`: batch means over
    /// `run.batches` groups of streams (stream k in group k mod batches).
    /// Groups, not time batches: a stream's misses are correlated frame to
    /// frame through the deadline rule's reference, and a phase holds only
    /// a few frames per stream. NaN with fewer than two groups judged.
    #[serde(default = "nan")]
    pub deadline_miss_probability_ci95: f64,
    /// 95 % half-width of `deadline_missing_time_ms` (ms), over the same
    /// groups of streams: the ratio estimator of
    /// `phase_intervals::missing_time_ci95`. NaN when fewer than two groups
    /// missed a frame.
    #[serde(default = "nan")]
    pub deadline_missing_time_ci95_ms: f64,
    /// Message latency of each class whose messages were created in this
    /// phase (measured window only), split into the wait at the source and
    /// the time in the network (003_… Fig. 5's "queueing time" and network
    /// latency).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_latency: Vec<PhaseClassLatency>,
}

/// One class's messages created in one phase: their count and mean
/// latencies in cycles. `latency = source_latency + network_latency` for
/// every message: creation to header injection, header injection to tail
/// delivery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseClassLatency {
    pub class: u8,
    pub messages: u64,
    pub latency: f64,
    /// 95 % half-width of `latency` (cycles): Student t over the messages,
    /// taken as independent (`phase_intervals::Moments`). NaN with one
    /// message.
    #[serde(default = "nan")]
    pub latency_ci95: f64,
    pub source_latency: f64,
    pub network_latency: f64,
}

fn nan() -> f64 {
    f64::NAN
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Results {
    pub name: String,
    pub cycles: u64,
    pub warmup_cycles: u64,
    pub cycle_ns: f64,
    pub endpoints: usize,
    pub routers: usize,
    /// `topology.link_latency`: registers per router-to-router link and direction.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub link_latency: u32,
    /// Flits per cycle per endpoint the sources offer in the measured window
    /// (real-time streams come whole; control messages included): what was
    /// actually offered, which `workload.load` only approximates.
    pub offered_load: f64,
    /// `workload.load` as written.
    pub requested_load: f64,
    pub realtime_streams: usize,
    /// Flits delivered per endpoint per cycle in the measured window.
    pub accepted_throughput: f64,
    pub classes: Vec<ClassStats>,
    /// Frame delivery interval d̄ and σ_d (milliseconds).
    pub frame_interval_ms: MeanSd,
    /// 95 % batch-means half-widths of d̄, σ_d (ms), the deadline missing
    /// probability and the accepted throughput (`run.batches` time batches).
    pub ci95: metrics::FrameCis,
    pub frames_judged: u64,
    pub deadline_miss_probability: f64,
    pub deadline_missing_time_ms: f64,
    /// Bandwidth share per real-time flow: delivered flits / window cycles.
    pub flow_bandwidth: Vec<f64>,
    /// Dynamic workloads: metrics per phase (frames and messages by creation time).
    pub phases: Vec<PhaseStats>,
    pub messages_created: u64,
    pub messages_delivered: u64,
    pub flits_injected: u64,
    pub flits_ejected: u64,
    /// Flits carried by every router-to-router link over the whole run:
    /// (source router, its output port, flits).
    pub link_flits: Vec<(usize, usize, u64)>,
    /// The `[reconfigure]` section's safe procedure as run (cycles, per
    /// stretch counters, link use before and after).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconfiguration: Option<crate::reconfigure::ReconfigReport>,
    /// The routers' QoS event counters (docs/microarchitecture.md §9),
    /// summed over all routers and the whole run (warm-up included).
    pub router_events: RouterEvents,
    /// `workload.source_preemption = "best_effort"`: best-effort messages
    /// the sources suspended for a higher-class one on their VC (whole run;
    /// absent when 0, so the runs before it keep their output).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub source_preemptions: u64,
    /// `model.point_a_census`: the routers' point-A census, summed over all
    /// routers and the whole run (warm-up included); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point_a_census: Option<PointACensusTotals>,
    pub wall_seconds: f64,
    pub router_cycles_per_second: f64,
}

/// Whole-network totals of the golden model's §9 event counters, so that a
/// QoS experiment shows how often preemption and acceleration actually fired.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct RouterEvents {
    pub preemptions: u64,
    pub nested_preemptions: u64,
    pub dummy_headers: u64,
    pub silent_preemptions: u64,
    pub accelerations: u64,
    pub block_holds: u64,
}

/// The fields of `wormqos_sim::PointACensus`, summed over the routers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointACensusTotals {
    pub candidates: u64,
    pub accelerated: u64,
    pub accelerated_over_higher_won: u64,
    pub accelerated_over_higher_lost: u64,
    pub ordered_over_higher_won: u64,
    pub ordered_over_higher_lost: u64,
}

impl PointACensusTotals {
    fn add(mut self, c: wormqos_sim::PointACensus) -> Self {
        self.candidates += c.candidates;
        self.accelerated += c.accelerated;
        self.accelerated_over_higher_won += c.accelerated_over_higher_won;
        self.accelerated_over_higher_lost += c.accelerated_over_higher_lost;
        self.ordered_over_higher_won += c.ordered_over_higher_won;
        self.ordered_over_higher_lost += c.ordered_over_higher_lost;
        self
    }
}

/// Every flit that crossed an endpoint link: (cycle, endpoint, flit), for
/// holding other compositions of the same routers (`composed.rs`) to this
/// engine's wiring.
#[derive(Clone, Debug, Default)]
pub struct FlitTrace {
    pub injected: Vec<(u64, usize, LinkFlit)>,
    pub ejected: Vec<(u64, usize, LinkFlit)>,
}

/// One delivered message of a logged flow ([`Sim::run_logged`]), in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MessageLog {
    /// Its flow, source and destination endpoints, class and length.
    pub flow: u32,
    pub src: u32,
    pub dest: u32,
    pub class: u8,
    pub flits: u32,
    /// Its source VC (`started` lies between `created` and `injected`).
    pub source: SourceVc,
    /// Frame index within the stream, and messages in that frame.
    pub frame: u32,
    pub frame_msgs: u32,
    /// Released by the source (regulator), header injected, tail delivered.
    pub created: u64,
    pub injected: u64,
    pub delivered: u64,
}

/// An observer of the routers between two cycles ([`Sim::run_probed`]).
pub type Probe<'a, X = Narrow> = &'a mut dyn FnMut(u64, &[Router<X>]);

/// A network of routers of width `X` (`wormqos_sim::Width`): [`run`]
/// takes [`Wide`] routers only for a network with more than 32 ports at a
/// router, so that every other one runs the `u32` port sets.
pub struct Sim<'a, X: Width = Narrow> {
    v: &'a Validated,
    /// Recorded only by [`Sim::run_logged`] / [`Sim::run_logged_all`]:
    /// (the flow, or every flow, its delivered messages).
    msg_log: Option<(Option<u32>, Vec<MessageLog>)>,
    /// Recorded only by [`Sim::run_traced`].
    trace: Option<Box<FlitTrace>>,
    /// Set only by [`Sim::run_probed`]: sees the routers after every cycle.
    probe: Option<Probe<'a, X>>,
    /// Set only by [`Sim::run_router_split`]: each followed message's
    /// cycles in the router, and the splits of the delivered ones (index
    /// into the message log).
    router_split: Option<Box<crate::router_split::RouterSplitter>>,
    split_log: Vec<(usize, crate::router_split::RouterSplit)>,
    /// Set only by [`Sim::run_vc_waits`]: each message's wait for output
    /// VCs, and those of the delivered ones (parallel to the message log).
    vc_waits: Option<Box<crate::vc_wait::VcWaitProbe>>,
    vc_wait_log: Vec<crate::vc_wait::VcWait>,
    /// Set only by [`Sim::run_hop_parts`]: each message's held-VC cycles
    /// per link, and those of the delivered ones (parallel to the log).
    hop_parts: Option<Box<crate::hop_parts::HopPartsProbe>>,
    hop_parts_log: Vec<crate::hop_parts::HopParts>,
    /// Set only by [`Sim::run_header_parts`]: each message's header cycles
    /// by part ([`crate::header_parts`]).
    header_parts: Option<Box<crate::header_parts::HeaderPartsProbe>>,
    header_parts_log: Vec<crate::header_parts::HeaderParts>,
    /// Set only by [`Sim::run_hop_trace`]: each message's routers, and
    /// those of the delivered ones (parallel to the message log).
    hop_trace: Option<Box<crate::hop_trace::HopTraceProbe>>,
    hop_trace_log: Vec<crate::hop_trace::HopTrace>,
    /// Set only by [`Sim::run_cause_split`]: each followed message's cycles
    /// by cause, and those of the delivered ones (index into the log).
    causes: Option<Box<crate::cause_split::CauseProbe>>,
    cause_log: Vec<(usize, crate::cause_split::CauseSplit)>,
    routers: Vec<Router<X>>,
    /// Every router's input wires in one array each, router r's port p at
    /// `LinkState::port_base + p`: the links and the sinks write them and
    /// the router reads them without a `Vec` per router to go through.
    in_flits: Vec<LinkFlit>,
    in_credits: Vec<u32>,
    /// The lane of each credit in `in_credits` (`per_lane` only, else 0).
    in_credit_lanes: Vec<u64>,
    /// `router.preemption_credits = "per_lane"` (§9.4 *Credits*).
    per_lane: bool,
    nis: Vec<Ni>,
    /// `workload.source_queues = "per_direction_*"`: the queue of each
    /// message; `None`: one queue per class.
    segmentation: Option<SegmentationQueues>,
    /// The `[nic]` model at every endpoint (empty without a `[nic]` section:
    /// then `nis` queue and inject as they always have).
    nic: Option<crate::nic::NicParams>,
    nics: Vec<crate::nic::Nic>,
    flows: Vec<workload::Flow>,
    flow_state: Vec<FlowState>,
    events: BinaryHeap<Reverse<(u64, u32)>>,
    /// The cycle of each flow's one live event in `events`; an entry of
    /// `events` at another cycle is stale (a restarted flow's old draw) and
    /// is dropped when it comes up.
    event_at: Vec<u64>,
    next_time: Vec<f64>,
    slab: Vec<MsgRec>,
    free: Vec<u32>,
    /// `inflight[dest][tag]` = slab index + 1 (0 = free).
    inflight: Vec<Vec<u32>>,
    next_tag: Vec<u32>,
    tag_mask: u32,
    tag_bits: u32,
    rng: SmallRng,
    cycle: u64,
    /// Router-to-router links by their driving port: router r's port k is
    /// entry `links[r].port_base + k` of `flit_to` (output port k: the
    /// downstream (router, input port)) and of `credit_to` (input port k:
    /// the upstream (router, output port) its credits go to).
    flit_to: Vec<(u32, u8)>,
    credit_to: Vec<(u32, u8)>,
    /// Per router: which ports are busy, so a cycle visits only those.
    links: Vec<LinkState<X::Ports>>,
    /// Flits moved over router-to-router links, indexed like `flit_to`.
    link_count: Vec<u64>,
    /// The link registers (`topology.link_latency`).
    pipes: LinkPipes,
    /// Per class: mask of the VCs a source may inject it on.
    class_vcs: Vec<u32>,
    /// `workload.source_vc_choice = "per_stream"`: per flow, the VC its
    /// messages take (`ANY_VC`: any idle VC of its class); empty otherwise.
    stream_vc: Vec<u8>,
    /// `workload.source_preemption = "best_effort"`, and the suspensions the
    /// sources made (whole run).
    source_preemption: bool,
    source_preemptions: u64,
    classes: u8,
    vtick_be: u32,
    vtick_max: u32,
    // Measurement.
    warmup: u64,
    class_acc: Vec<ClassAcc>,
    /// `hops[s * endpoints + d]`: links from endpoint s to d (empty when
    /// not recorded: one router, or more than 512 endpoints).
    hops: Vec<u8>,
    /// The zero-load timing of every route (`None`: not derived for this
    /// network, see `zero_load.rs`, or the NIC model's sources).
    zero_load: Option<crate::zero_load::ZeroLoad>,
    flits_injected: u64,
    flits_ejected: u64,
    window_flits: u64,
    /// Flits delivered per time batch of the measured window.
    flit_batches: Vec<u64>,
    created: u64,
    delivered: u64,
    pending_msgs: usize,
    last_move: u64,
    streams: usize,
    /// Flits per cycle per endpoint the sources offer in the measured window.
    offered_load: f64,
    period_cycles: f64,
    phase_cycles: f64,
    phase: usize,
    /// Per phase: (streams active per endpoint, best-effort msgs/cycle per endpoint).
    phase_params: Vec<(usize, f64)>,
    stream_flows: Vec<Vec<u32>>,
    be_flows: Vec<u32>,
    /// The `[reconfigure]` section's safe procedure, if any, and whether
    /// the sources may start messages in this cycle.
    reconf: Option<crate::reconfigure::Procedure>,
    quiesced: bool,
}

#[derive(Default, Clone)]
struct ClassAcc {
    n: u64,
    lat: f64,
    net: f64,
    src: f64,
    hist: Histogram,
    net_counts: Vec<u64>,
    net_counts_by_hops: Vec<Vec<u64>>,
    /// Sum of the messages' credit-stalled source-wait cycles.
    stalled: f64,
    /// Sum and count of the messages' no-contention network latencies
    /// (`zero_load.rs`), where the route's hop count is known.
    transfer: f64,
    transfer_n: u64,
    /// Per batch (by creation time): (sum, count).
    batches: Vec<(f64, u64)>,
    /// Per phase (by creation time): (count, latency, source, network sums).
    phases: Vec<(u64, f64, f64, f64)>,
    /// Per phase: the latencies' moments, for their interval (the sums
    /// above stay the means' source, so the means are unchanged).
    phase_moments: Vec<phase_intervals::Moments>,
}

impl<'a> Sim<'a> {
    /// A network whose routers have at most 32 ports.
    pub fn new(v: &'a Validated) -> Result<Self, SimError> {
        Self::with_width(v)
    }
}

impl<'a, X: Width> Sim<'a, X> {
    /// A network of routers of width `X`; a setup error if a router has
    /// more ports than `X` holds.
    pub fn with_width(v: &'a Validated) -> Result<Self, SimError> {
        if let Some(c) = v.configs.iter().find(|c| c.ports() > X::PORTS) {
            return Err(SimError::Setup(format!(
                "{}: a router of {} ports in a network of routers of at most {} ports",
                v.file,
                c.ports(),
                X::PORTS
            )));
        }
        let cfg0: &RouterConfig = &v.configs[0];
        let e = &v.exp;
        let w = &e.workload;
        let m = cfg0.vcs();
        let mut routers: Vec<Router<X>> = match v.exp.model.scheduler {
            ModelScheduler::Router => v.configs.iter().map(Router::with_width).collect(),
            ModelScheduler::Fgfq | ModelScheduler::Wrr => {
                let (which, name) = if v.exp.model.scheduler == ModelScheduler::Fgfq {
                    (ComparisonScheduler::FineGrainedFairQueueing, "fgfq")
                } else {
                    (ComparisonScheduler::WeightedRoundRobin, "wrr")
                };
                v.configs
                    .iter()
                    .map(|c| Router::comparison_with_width(c, which))
                    .collect::<Result<_, _>>()
                    .map_err(|e| SimError::Setup(format!("{}: model.scheduler = \"{name}\": {e}", v.file)))?
            }
        };
        for r in &mut routers {
            r.set_point_a_census(e.model.point_a_census);
        }
        let classes = cfg0.traffic_classes() as u8;
        let segmentation = w.source_queues.per_direction().map(|until_delivered| SegmentationQueues::new(&v.net, until_delivered));
        let nis: Vec<Ni> = v
            .net
            .endpoint_at
            .iter()
            .enumerate()
            .map(|(s, &(r, p))| Ni {
                router: r,
                port: p,
                queues: vec![VecDeque::new(); segmentation.as_ref().map_or(classes as usize, |q| q.queues_at(&v.net, s))],
                serving: 0,
                vc_cur: vec![None; m],
                vc_class: vec![0; m],
                vc_susp: vec![None; m],
                vc_owed: vec![OwedDummy::None; m],
                vc_used: 0,
                credits: vec![cfg0.input_buffer_depth() as u32; m],
                lanes: source_lanes(cfg0, m),
                rr: 0,
                active: 0,
                queued: 0,
                credit_stalled: vec![0; classes as usize],
            })
            .collect();
        let n_ep = nis.len();
        let idw = tag_bits(cfg0.flit_width(), cfg0.header().width()).min(MAX_TAG_BITS);
        let vtw = cfg0.header().vtick.width;
        let vtick_be = ((1u64 << vtw) - 1) as u32;
        let run = &e.run;
        let (_, warmup) = v.run_cycles();
        let period_cycles = v.period_cycles();
        let offered = v.offered().map_err(|e| SimError::Setup(e.to_string()))?;
        let mut rng = SmallRng::seed_from_u64(run.seed);

        // Classes: 0 best effort, 1 real time, top = control (with >= 3 classes).
        let rt_class = 1.min(classes - 1);
        let ctl_class = classes - 1;
        let flit_bits = cfg0.flit_width();
        let msg = w.class_flits(rt_class);
        let gop = workload::parse_gop(&w.gop).map_err(SimError::Setup)?;
        let mixes: Vec<[f64; 2]> = if w.phases.is_empty() { vec![w.mix] } else { w.phases.clone() };
        // Source VCs per class. Partitioned modes: the router's partition.
        // Otherwise 001_… §IV-B.3: x/(x+y) of the VCs (from the first mix)
        // for real time and control, the rest for best effort.
        let all = if m >= 32 { u32::MAX } else { (1u32 << m) - 1 };
        let class_vcs: Vec<u32> = match cfg0.vc_classes() {
            Some(vcc) => (0..classes as u32)
                .map(|c| vcc.iter().enumerate().filter(|(_, &k)| k == c).fold(0, |acc, (v, _)| acc | 1 << v))
                .collect(),
            // 000_…: a separate VC (group) per class, highest class first.
            None if w.realtime == RealTime::Poisson && m >= classes as usize => {
                let per = m / classes as usize;
                (0..classes as usize)
                    .map(|c| {
                        let first = (classes as usize - 1 - c) * per;
                        let n = if c == 0 { m - first } else { per };
                        (((1u64 << n) - 1) << first) as u32
                    })
                    .collect()
            }
            None => {
                let [x, y] = mixes[0];
                let rt_on = x > 0.0 && w.realtime != RealTime::None;
                let be_on = y > 0.0 && w.best_effort != BestEffort::None;
                let n_rt = if rt_on && be_on && m > 1 {
                    ((m as f64 * x / (x + y)).round() as usize).clamp(1, m - 1)
                } else if be_on {
                    0
                } else {
                    m
                };
                let rt_mask = if n_rt >= 32 { all } else { (1u32 << n_rt) - 1 };
                let be_mask = if n_rt == 0 { all } else { all & !rt_mask };
                // Preemptive mode (003_… §4.2): real time and control may use
                // any VC (the router preempts best effort in its input buffers).
                // `workload.realtime_source_vcs` keeps them on the lowest n;
                // with `workload.control_source_vcs` every class has its own.
                let preemptive = cfg0.qos().preemption().is_some();
                let rt_any = w.realtime_source_vcs.map_or(all, lowest_vcs);
                match (w.control_source_vcs, w.realtime_source_vcs) {
                    (Some(c), Some(n)) => exclusive_source_vcs(c, n, m, classes),
                    _ => (0..classes).map(|c| if c == 0 { be_mask } else if rt_mask == 0 || preemptive { rt_any } else { rt_mask }).collect(),
                }
            }
        };
        let phase_cycles = offered.phase_cycles;

        let mut flows = Vec::new();
        let mut stream_flows = vec![Vec::new(); n_ep];
        let mut be_flows = Vec::new();
        // Per phase: streams per endpoint and best-effort messages per cycle.
        let phase_params: Vec<(usize, f64)> = offered.phases.iter().map(|p| (p.streams, p.best_effort / w.class_flits(0) as f64)).collect();
        let max_streams = phase_params.iter().map(|p| p.0).max().unwrap_or(0);
        let n_phases = phase_params.len().max(1);
        let dests = workload::stream_destinations(n_ep, max_streams, w.max_streams_per_destination, &mut rng);
        for ep in 0..n_ep {
            for s in 0..max_streams {
                let dest = dests[ep][s];
                // ON/OFF: streams 0..onoff_streams of the first class, then the next class's.
                let onoff = offered.onoff.get(s / w.onoff_streams as usize);
                let kind = if let Some(o) = onoff {
                    FlowKind::OnOff { mean_msgs: w.onoff_mean_messages, gap: o.gap, mean_off: o.off, msg_flits: o.flits, left: 0 }
                } else {
                    FlowKind::Stream {
                        sizer: v.sizer(s, &gop),
                        period: period_cycles,
                        msg_flits: msg,
                        flit_bits,
                        regulator: w.regulator,
                        cur_msgs: 0,
                        cur_idx: 0,
                        cur_vtick: 1,
                        frame_start: 0.0,
                    }
                };
                let vt = onoff.map_or(vtick_be, |o| o.vtick);
                stream_flows[ep].push(flows.len() as u32);
                flows.push(workload::Flow {
                    src: ep as u32,
                    dest: Some(dest),
                    class: onoff.map_or(rt_class, |o| o.class),
                    vtick: vt,
                    kind,
                    active: s < phase_params[0].0,
                    frame: 0,
                });
            }
            if w.best_effort != BestEffort::None && phase_params.iter().any(|p| p.1 > 0.0) {
                be_flows.push(flows.len() as u32);
                flows.push(workload::Flow {
                    src: ep as u32,
                    dest: None,
                    class: 0,
                    vtick: vtick_be,
                    kind: FlowKind::Random { rate: phase_params[0].1.max(1e-12), bernoulli: w.best_effort == BestEffort::Bernoulli, msg_flits: w.class_flits(0) },
                    active: phase_params[0].1 > 0.0,
                    frame: 0,
                });
            }
            if w.realtime == RealTime::Poisson {
                // R1 is the top class, R2 the next, …; with fewer classes the rest share the lowest real-time one.
                for (class, rate, flits) in v.realtime_class_rates(offered.phases[0].realtime) {
                    if rate <= 0.0 {
                        continue;
                    }
                    let vt = workload::realtime_vtick(e.model.vtick_scale.unwrap_or(1.0), rate, flits, v.vtick_max());
                    flows.push(workload::Flow {
                        src: ep as u32,
                        dest: None,
                        class,
                        vtick: vt,
                        kind: FlowKind::Random { rate, bernoulli: false, msg_flits: flits },
                        active: true,
                        frame: 0,
                    });
                }
            }
            if w.control {
                flows.push(workload::Flow {
                    src: ep as u32,
                    dest: None,
                    class: ctl_class,
                    vtick: 1,
                    kind: FlowKind::Periodic { period: period_cycles, msg_flits: w.control_flits },
                    active: true,
                    frame: 0,
                });
            }
        }
        // Streams start at random phases within a frame time.
        let mut events = BinaryHeap::new();
        let mut next_time = Vec::with_capacity(flows.len());
        let mut event_at = Vec::with_capacity(flows.len());
        for (i, f) in flows.iter().enumerate() {
            let t = match f.kind {
                FlowKind::Stream { .. } | FlowKind::Periodic { .. } => rng.gen::<f64>() * period_cycles,
                FlowKind::Random { rate, .. } => workload::exponential(&mut rng, 1.0 / rate.max(1e-12)),
                FlowKind::OnOff { mean_off, .. } => workload::exponential(&mut rng, mean_off),
            };
            next_time.push(t);
            events.push(Reverse((t.ceil() as u64, i as u32)));
            event_at.push(t.ceil() as u64);
        }
        let stream_vc = if w.source_vc_choice == SourceVcChoice::PerStream { bind_streams(&flows, &class_vcs, m, run.seed) } else { Vec::new() };
        let mut flit_to = Vec::new();
        let mut credit_to = Vec::new();
        let mut links = vec![LinkState::default(); v.net.routers];
        for (r, l) in links.iter_mut().enumerate() {
            let ports = v.net.out_link[r].len().max(v.net.in_link[r].len()).max(v.configs[r].ports());
            let base = flit_to.len();
            l.port_base = base as u32;
            flit_to.resize(base + ports, (0, 0));
            credit_to.resize(base + ports, (0, 0));
            for (o, peer) in v.net.out_link[r].iter().enumerate() {
                if let Peer::Router { router, port } = *peer {
                    flit_to[base + o] = (router as u32, port as u8);
                    l.to_router_out |= X::Ports::single(o);
                }
            }
            for (p, peer) in v.net.in_link[r].iter().enumerate() {
                if let Peer::Router { router, port } = *peer {
                    credit_to[base + p] = (router as u32, port as u8);
                    l.to_router_in |= X::Ports::single(p);
                }
            }
        }
        let batches = run.batches;
        let nflows = flows.len();
        let nic = e.nic.as_ref().map(|n| {
            let credits = cfg0.input_buffer_depth() as u32;
            n.params(m, credits, lanes_per_vc(cfg0), cfg0.clock_width(), vtw, v.cycle_s * 1e9, e.physical.link_mbps)
        });
        let nics = nic.map_or_else(Vec::new, |p| (0..n_ep).map(|_| crate::nic::Nic::new(&p, classes as usize)).collect());
        if let Some(why) = crate::reconfigure::unsupported(v) {
            return Err(SimError::Setup(why));
        }
        let reconf = v.reconfigure.as_ref().zip(v.reconfigure_at()).map(|(t, at)| {
            crate::reconfigure::Procedure::new(at, t.drain_limit, e.topology.link_latency, t.writes(&v.configs))
        });
        Ok(Sim {
            v,
            trace: None,
            probe: None,
            router_split: None,
            split_log: Vec::new(),
            vc_waits: None,
            vc_wait_log: Vec::new(),
            hop_parts: None,
            hop_parts_log: Vec::new(),
            header_parts: None,
            header_parts_log: Vec::new(),
            hop_trace: None,
            hop_trace_log: Vec::new(),
            causes: None,
            cause_log: Vec::new(),
            msg_log: None,
            routers,
            in_flits: vec![LinkFlit::IDLE; flit_to.len()],
            in_credits: vec![0; flit_to.len()],
            in_credit_lanes: vec![0; flit_to.len()],
            per_lane: cfg0.per_lane_credits(),
            nis,
            segmentation,
            nic,
            nics,
            flows,
            flow_state: (0..nflows).map(|_| FlowState::default()).collect(),
            events,
            event_at,
            next_time,
            slab: Vec::new(),
            free: Vec::new(),
            inflight: vec![vec![0; 1 << idw]; n_ep],
            next_tag: vec![0; n_ep],
            tag_mask: (1 << idw) - 1,
            tag_bits: idw,
            rng,
            cycle: 0,
            class_vcs,
            stream_vc,
            source_preemption: w.source_preemption == SourcePreemption::BestEffort,
            source_preemptions: 0,
            link_count: vec![0; flit_to.len()],
            pipes: LinkPipes::new(e.topology.link_latency as usize, flit_to.len(), cfg0.per_lane_credits()),
            flit_to,
            credit_to,
            links,
            classes,
            vtick_be,
            vtick_max: vtick_be - 1,
            warmup,
            class_acc: vec![
                ClassAcc {
                    batches: vec![(0.0, 0); batches],
                    phases: vec![(0, 0.0, 0.0, 0.0); n_phases],
                    phase_moments: vec![phase_intervals::Moments::default(); n_phases],
                    ..Default::default()
                };
                classes as usize
            ],
            hops: hop_table(&v.net),
            zero_load: zero_load_of(v),
            flits_injected: 0,
            flits_ejected: 0,
            window_flits: 0,
            flit_batches: vec![0; batches.max(2)],
            created: 0,
            delivered: 0,
            pending_msgs: 0,
            last_move: 0,
            streams: max_streams * n_ep,
            offered_load: offered.mean_load(warmup, v.run_cycles().0),
            period_cycles,
            phase_cycles,
            phase: 0,
            phase_params,
            stream_flows,
            be_flows,
            reconf,
            quiesced: false,
        })
    }

    fn total_cycles(&self) -> u64 {
        self.v.run_cycles().0
    }

    /// [`Sim::run`], also returning every flit injected and ejected.
    pub fn run_traced(mut self) -> Result<(Results, FlitTrace), SimError> {
        self.trace = Some(Box::default());
        let mut trace = FlitTrace::default();
        let results = self.run_with(&mut trace)?;
        Ok((results, trace))
    }

    /// [`Sim::run`], also returning every delivered message of flow `flow`
    /// (flow 0 is endpoint 0's first real-time stream), in delivery order:
    /// the trace of one stream that explains its frames' deadlines.
    pub fn run_logged(self, flow: u32) -> Result<(Results, Vec<MessageLog>), SimError> {
        self.run_logging(Some(flow))
    }

    /// [`Sim::run_logged`] for every flow: where each message waited, for
    /// tracing which frames of which streams are late and why.
    pub fn run_logged_all(self) -> Result<(Results, Vec<MessageLog>), SimError> {
        self.run_logging(None)
    }

    /// [`Sim::run_logged_all`] with [`Sim::run_probed`]'s probe: router
    /// state after every cycle beside every message's log, in one run
    /// (`cube_be_links` charges best effort's waits to links with both).
    pub fn run_logged_all_probed(mut self, probe: Probe<'a, X>) -> Result<(Results, Vec<MessageLog>), SimError> {
        self.probe = Some(probe);
        self.run_logging(None)
    }

    fn run_logging(mut self, flow: Option<u32>) -> Result<(Results, Vec<MessageLog>), SimError> {
        self.msg_log = Some((flow, Vec::new()));
        let results = self.run_to_end()?;
        Ok((results, self.msg_log.take().map(|l| l.1).unwrap_or_default()))
    }

    /// [`Sim::run_logged_all`], also splitting the cycles each message of
    /// class `class` created in cycles `from..to` spends in the router, from
    /// its header entering to its tail leaving, by what it did
    /// ([`crate::router_split`]); each split comes with the index of its
    /// message in the log. One router only (`topology.kind =
    /// "single_switch"`), sources without a `[nic]` section.
    pub fn run_router_split(mut self, class: u8, from: u64, to: u64) -> Result<(Results, Vec<MessageLog>, Vec<(usize, crate::router_split::RouterSplit)>), SimError> {
        if self.routers.len() != 1 || self.nic.is_some() {
            return Err(SimError::Setup(format!("{}: the router split follows messages through one router fed by the plain sources; this network has {} routers{}", self.v.file, self.routers.len(), if self.nic.is_some() { " and a [nic] section" } else { "" })));
        }
        let cfg = &self.v.configs[0];
        let splitter = crate::router_split::RouterSplitter::new(class, from, to, cfg.ports(), cfg.vcs(), cfg.output_buffer_depth(), cfg.header());
        self.router_split = Some(Box::new(splitter));
        self.msg_log = Some((None, Vec::new()));
        let results = self.run_to_end()?;
        Ok((results, self.msg_log.take().map(|l| l.1).unwrap_or_default(), std::mem::take(&mut self.split_log)))
    }

    /// [`Sim::run_logged_all`], also splitting every cycle of each message
    /// of class `class` by what held it back ([`crate::cause_split`]); each
    /// split comes with the index of its message in the log. One router
    /// (`topology.kind = "single_switch"`), the plain sources, and with
    /// preemption per-lane credits (the probe counts a lane's flits by the
    /// lanes the sources name).
    pub fn run_cause_split(mut self, class: u8) -> Result<(Results, Vec<MessageLog>, Vec<(usize, crate::cause_split::CauseSplit)>), SimError> {
        let cfg = &self.v.configs[0];
        let lanes_unnamed = cfg.qos().preemption().is_some() && !cfg.per_lane_credits();
        if self.routers.len() != 1 || self.nic.is_some() || lanes_unnamed {
            return Err(SimError::Setup(format!(
                "{}: the cause split follows messages through one router fed by the plain sources, with per-lane credits under preemption; this network has {} routers{}{}",
                self.v.file,
                self.routers.len(),
                if self.nic.is_some() { " and a [nic] section" } else { "" },
                if lanes_unnamed { " and preemption with per-VC credits" } else { "" }
            )));
        }
        let in_port = self.nis.iter().map(|n| n.port).collect();
        let probe = crate::cause_split::CauseProbe::new(class, cfg.vcs(), cfg.output_buffer_depth(), in_port, cfg.ports());
        self.causes = Some(Box::new(probe));
        self.msg_log = Some((None, Vec::new()));
        let results = self.run_to_end()?;
        Ok((results, self.msg_log.take().map(|l| l.1).unwrap_or_default(), std::mem::take(&mut self.cause_log)))
    }

    /// [`Sim::run_logged_all`], also returning for each logged message (in
    /// the same order) the cycles its header waited for an output VC at the
    /// routers of its path ([`crate::vc_wait`]).
    pub fn run_vc_waits(mut self) -> Result<(Results, Vec<MessageLog>, crate::vc_wait::VcWaits), SimError> {
        self.vc_waits_to_end()
    }

    fn vc_waits_to_end(&mut self) -> Result<(Results, Vec<MessageLog>, crate::vc_wait::VcWaits), SimError> {
        self.vc_waits = Some(Box::new(crate::vc_wait::VcWaitProbe::new(&self.routers, self.warmup)));
        self.msg_log = Some((None, Vec::new()));
        let results = self.run_to_end()?;
        if let Some(w) = self.vc_waits.as_ref().filter(|w| w.unmatched > 0) {
            return Err(SimError::Setup(format!("{}: {} cycles of routed headers named no message in flight (the VC-wait probe reads lane 0 only)", self.v.file, w.unmatched)));
        }
        let w = self.vc_waits.take().unwrap();
        let waits = crate::vc_wait::VcWaits { messages: std::mem::take(&mut self.vc_wait_log), cycles: w.cycles, held: w.held, vcs: self.v.configs[0].vcs(), routers: self.routers.len() };
        Ok((results, self.msg_log.take().map(|l| l.1).unwrap_or_default(), waits))
    }

    /// [`Sim::run_vc_waits`], also returning for each logged message (in
    /// the same order) its held-VC cycles per link ([`crate::hop_parts`]).
    pub fn run_hop_parts(mut self) -> Result<(Results, Vec<MessageLog>, crate::vc_wait::VcWaits, Vec<crate::hop_parts::HopParts>), SimError> {
        self.hop_parts = Some(Box::new(crate::hop_parts::HopPartsProbe::new(&self.routers, &self.v.net.out_link)));
        let (results, log, waits) = self.vc_waits_to_end()?;
        let unmatched = self.hop_parts.as_ref().map_or(0, |h| h.unmatched);
        if unmatched > 0 {
            return Err(SimError::Setup(format!("{}: {unmatched} link crossings named no message in flight (the hop-parts probe reads lane 0 only)", self.v.file)));
        }
        Ok((results, log, waits, std::mem::take(&mut self.hop_parts_log)))
    }

    /// [`Sim::run_hop_parts`], also returning for each logged message (in
    /// the same order) its header's cycles by part ([`crate::header_parts`]).
    pub fn run_header_parts(mut self) -> Result<(Results, Vec<MessageLog>, crate::vc_wait::VcWaits, Vec<crate::hop_parts::HopParts>, Vec<crate::header_parts::HeaderParts>), SimError> {
        self.header_parts = Some(Box::new(crate::header_parts::HeaderPartsProbe::new(&self.routers, &self.v.net.out_link)));
        self.hop_parts = Some(Box::new(crate::hop_parts::HopPartsProbe::new(&self.routers, &self.v.net.out_link)));
        let (results, log, waits) = self.vc_waits_to_end()?;
        let unmatched = self.hop_parts.as_ref().map_or(0, |h| h.unmatched) + self.header_parts.as_ref().map_or(0, |h| h.unmatched);
        if unmatched > 0 {
            return Err(SimError::Setup(format!("{}: {unmatched} headers or link crossings named no message in flight (the probes read lane 0 only)", self.v.file)));
        }
        Ok((results, log, waits, std::mem::take(&mut self.hop_parts_log), std::mem::take(&mut self.header_parts_log)))
    }

    /// [`Sim::run_vc_waits`] with `probe` also seeing the routers after
    /// every cycle (one run for both, docs/reproduction.md "R2's cube tail
    /// and the cube variant's overshoot, measured").
    pub fn run_vc_waits_probed(mut self, probe: Probe<'a, X>) -> Result<(Results, Vec<MessageLog>, crate::vc_wait::VcWaits), SimError> {
        self.probe = Some(probe);
        self.run_vc_waits()
    }

    /// [`Sim::run_logged_all`], also returning for each logged message (in
    /// the same order) its routers in path order: when its header and tail
    /// left each, its ROUTED cycles there and the flits its output link
    /// carried while its header waited ([`crate::hop_trace`]).
    pub fn run_hop_trace(self) -> Result<(Results, Vec<MessageLog>, Vec<crate::hop_trace::HopTrace>), SimError> {
        self.hop_trace_with(None)
    }

    /// [`Sim::run_hop_trace`] with [`Sim::run_probed`]'s probe: router
    /// state after every cycle beside every message's routers
    /// (`cube_be_ejection` reads the ejection ports' real-time VCs).
    pub fn run_hop_trace_probed(self, probe: Probe<'a, X>) -> Result<(Results, Vec<MessageLog>, Vec<crate::hop_trace::HopTrace>), SimError> {
        self.hop_trace_with(Some(probe))
    }

    fn hop_trace_with(mut self, probe: Option<Probe<'a, X>>) -> Result<(Results, Vec<MessageLog>, Vec<crate::hop_trace::HopTrace>), SimError> {
        self.probe = probe;
        self.hop_trace = Some(Box::new(crate::hop_trace::HopTraceProbe::new(&self.routers)));
        self.msg_log = Some((None, Vec::new()));
        let results = self.run_to_end()?;
        if let Some(t) = self.hop_trace.as_ref().filter(|t| t.unmatched > 0) {
            return Err(SimError::Setup(format!("{}: {} traced flits named no message in flight (the hop trace reads lane 0 only)", self.v.file, t.unmatched)));
        }
        Ok((results, self.msg_log.take().map(|l| l.1).unwrap_or_default(), std::mem::take(&mut self.hop_trace_log)))
    }

    /// [`Sim::run`] of an experiment with a `[nic]` section, also returning
    /// where the headers waited in the NICs after the warm-up (summed over
    /// every endpoint; docs/reproduction.md, 003_… Fig. 9).
    pub fn run_with_nic_waits(mut self) -> Result<(Results, crate::nic::NicWaits), SimError> {
        let (classes, from) = (self.classes as usize, self.warmup);
        self.nics.iter_mut().for_each(|n| n.record_waits(classes, from));
        let results = self.run_to_end()?;
        let mut w = crate::nic::NicWaits { from, ..Default::default() };
        self.nics.iter().filter_map(|n| n.waits()).for_each(|x| w.add(x));
        Ok((results, w))
    }

    /// [`Sim::run`], calling `probe(cycle, routers)` after every cycle (the
    /// routers as they are between that cycle and the next): measurements
    /// of router state the metrics do not keep (`channel_probe`).
    pub fn run_probed(mut self, probe: Probe<'a, X>) -> Result<Results, SimError> {
        self.probe = Some(probe);
        self.run_to_end()
    }

    /// Runs the experiment to the end and returns its metrics.
    pub fn run(self) -> Result<Results, SimError> {
        self.run_with(&mut FlitTrace::default())
    }

    fn run_with(mut self, trace: &mut FlitTrace) -> Result<Results, SimError> {
        let results = self.run_to_end();
        if let Some(t) = self.trace.take() {
            *trace = *t;
        }
        results
    }

    fn run_to_end(&mut self) -> Result<Results, SimError> {
        let start = std::time::Instant::now();
        let total = self.total_cycles();
        let drain = self.v.exp.run.drain_cycles;
        let stall = self.v.exp.run.stall_cycles.max(1);
        let mut suspect: Option<(u64, crate::deadlock::Deadlock)> = None;
        while self.cycle < total || (self.cycle < total + drain && self.pending_msgs > 0) {
            let write = self.reconfiguration_cycle()?;
            self.step(self.cycle < total);
            if let Some(p) = self.probe.as_mut() {
                p(self.cycle, &self.routers);
            }
            if let Some(w) = write {
                // At the end of the cycle, as the RTL's write port (§2).
                self.routers[w.router as usize].write_route(w);
            }
            if let Some(mut p) = self.reconf.take() {
                p.end_cycle(self.cycle - 1, self.counters(), || self.link_flits());
                self.reconf = Some(p);
            }
            if self.cycle % DEADLOCK_CHECK == 0 {
                suspect = self.check_deadlock(suspect)?;
            }
            if self.cycle - self.last_move > stall {
                let buffered: usize = self.routers.iter().map(|r| r.buffered_flits()).sum();
                if buffered > 0 {
                    return Err(SimError::Deadlock { cycles: stall, at: self.cycle, buffered, report: self.wait_report() });
                }
                self.last_move = self.cycle;
            }
        }
        self.check_conservation()?;
        let reconfiguration = match self.reconf.take() {
            Some(p) if !p.finished() => {
                return Err(SimError::Reconfigure(format!(
                    "the run ended at cycle {} while {} (quiesced at cycle {}); allowed: a run that lasts until the sources resume: raise run.cycles or run.drain_cycles, or lower reconfigure.at_cycle",
                    self.cycle,
                    p.stage_name(),
                    self.v.reconfigure_at().unwrap_or(0)
                )))
            }
            Some(p) => Some(p.finish(self.counters(), &self.link_flits())),
            None => None,
        };
        let wall = start.elapsed().as_secs_f64();
        let mut r = self.results(total, wall);
        r.reconfiguration = reconfiguration;
        Ok(r)
    }

    /// The start of a cycle for the `[reconfigure]` procedure: whether the
    /// sources are quiesced, and the table write at the end of this cycle.
    fn reconfiguration_cycle(&mut self) -> Result<Option<wormqos_sim::RouteWrite>, SimError> {
        let Some(mut p) = self.reconf.take() else { return Ok(None) };
        let now = self.cycle;
        let state = p.needs_state(now).then(|| crate::reconfigure::NetworkState {
            counters: self.counters(),
            flits_in_network: self.flits_in_network(),
            busy_sources: self.nis.iter().filter(|n| n.active > 0).count(),
            link_flits: self.link_flits(),
        });
        let action = p.start_cycle(now, state.as_ref()).map_err(|t| {
            SimError::Reconfigure(format!(
                "the network did not drain within reconfigure.drain_limit = {} cycles after the quiesce at cycle {} ({} flits still in the network, {} sources with a begun message); allowed: a larger reconfigure.drain_limit (1..={}) or a network that drains (a deadlock shows in the run's wait report)",
                t.limit,
                t.quiesce_cycle,
                t.flits_in_network,
                t.busy_sources,
                crate::experiment::bounds::MAX_CYCLES
            ))
        })?;
        self.quiesced = action.quiesced;
        self.reconf = Some(p);
        Ok(action.write)
    }

    fn counters(&self) -> crate::reconfigure::Counters {
        crate::reconfigure::Counters {
            messages_created: self.created,
            messages_delivered: self.delivered,
            flits_injected: self.flits_injected,
            flits_ejected: self.flits_ejected,
        }
    }

    /// Flits (and dummy flits) in routers' buffers, on their outputs and in
    /// link registers.
    fn flits_in_network(&self) -> u64 {
        let routers: u64 = self.routers.iter().map(|r| r.buffered_flits() as u64 + r.outputs().flits.iter().filter(|f| f.valid).count() as u64).sum();
        routers + self.pipes.live_flits.iter().map(|&n| n as u64).sum::<u64>()
    }

    /// Flits carried by every router-to-router link so far: (source router,
    /// its output port, flits).
    fn link_flits(&self) -> Vec<(usize, usize, u64)> {
        self.links
            .iter()
            .enumerate()
            .flat_map(|(sr, l)| {
                let base = l.port_base as usize;
                l.to_router_out.iter().map(move |o| (sr, o, self.link_count[base + o]))
            })
            .collect()
    }

    fn generate(&mut self, now: u64) {
        // Dynamic phases switch stream activity and best-effort rate.
        if self.phase_params.len() > 1 {
            let ph = ((now as f64 / self.phase_cycles) as usize).min(self.phase_params.len() - 1);
            if ph != self.phase {
                self.phase = ph;
                let (ns, be) = self.phase_params[ph];
                for ep in 0..self.stream_flows.len() {
                    for (s, &f) in self.stream_flows[ep].iter().enumerate() {
                        self.flows[f as usize].active = s < ns;
                    }
                }
                for &f in &self.be_flows {
                    let fl = &mut self.flows[f as usize];
                    let was_active = fl.active;
                    fl.active = be > 0.0;
                    if let FlowKind::Random { rate, bernoulli, .. } = &mut fl.kind {
                        *rate = be.max(1e-12);
                        // A source switched on after a phase without best
                        // effort: its pending draw was made at the idle rate
                        // (about 1e12 cycles away), so it starts afresh
                        // from now (memoryless, so no bias).
                        if !was_active && fl.active {
                            let gap = if *bernoulli { workload::geometric(&mut self.rng, be) } else { workload::exponential(&mut self.rng, 1.0 / be) };
                            let t = now as f64 + gap;
                            self.next_time[f as usize] = t;
                            self.event_at[f as usize] = t.ceil() as u64;
                            self.events.push(Reverse((t.ceil() as u64, f)));
                        }
                    }
                }
            }
        }
        let n_ep = self.nis.len() as u32;
        while let Some(&Reverse((t, f))) = self.events.peek() {
            if t > now {
                break;
            }
            self.events.pop();
            let fi = f as usize;
            if t != self.event_at[fi] {
                continue;
            }
            let (msg, next) = self.flows[fi].fire(self.next_time[fi], n_ep, self.vtick_max, &mut self.rng);
            self.next_time[fi] = next;
            let at = next.ceil().max(now as f64 + if next <= now as f64 { 1.0 } else { 0.0 }) as u64;
            self.event_at[fi] = at;
            self.events.push(Reverse((at, f)));
            if let Some(mut m) = msg {
                m.flow = f;
                self.enqueue(f, m, now);
            }
        }
    }

    /// Message `m` of flow `f`, created in cycle `now`, joins its source's
    /// queue (or its NIC's doorbells).
    fn enqueue(&mut self, f: u32, m: Message, now: u64) {
        let fi = f as usize;
        let measured = now >= self.warmup;
        if m.frame != u32::MAX {
            let st = &mut self.flow_state[fi];
            if st.open.back().map_or(true, |b| b.0 != m.frame) {
                st.open.push_back((m.frame, m.frame_msgs, now));
            }
        }
        let stalled = self.nis.get(self.flows[fi].src as usize).map_or(0, |ni| ni.credit_stalled[m.class as usize]);
        let src = self.flows[fi].src as usize;
        let queue = self.segmentation.as_ref().map_or(m.class, |q| q.queue(&self.v.net, src, m.dest as usize));
        let mut rec = MsgRec { m, flow: f, src: src as u32, created: now, injected: 0, received: 0, tag: 0, measured, stalled, at_source: SourceVc::default(), queue };
        if let (Some(_), Some(ni)) = (&self.msg_log, self.nis.get(rec.src as usize)) {
            let held = ni.vc_cur.iter().zip(&ni.vc_class).filter(|(cur, &c)| cur.is_some() && c < m.class).count();
            rec.at_source.lower_held = held as u32;
        }
        let idx = if let Some(i) = self.free.pop() {
            self.slab[i as usize] = rec;
            i
        } else {
            self.slab.push(rec);
            (self.slab.len() - 1) as u32
        };
        if let Some(c) = self.causes.as_mut() {
            let vc = self.stream_vc.get(f as usize).filter(|&&v| v != ANY_VC).map(|&v| v as usize);
            c.released(idx, m.class, src, vc, self.nis[m.dest as usize].port, m.flits);
        }
        if let Some(p) = &self.nic {
            let nic = &mut self.nics[src];
            let vc = nic.pick_vc(p, m.class, self.class_vcs[m.class as usize]);
            let vtick = if m.class == 0 { self.vtick_be } else { m.vtick };
            nic.ring(p, crate::nic::Doorbell { msg: idx, class: m.class, vc, flits: m.flits, vtick });
        } else {
            self.nis[src].queues[queue as usize].push_back(idx);
            self.nis[src].queued += 1;
        }
        self.created += 1;
        self.pending_msgs += 1;
    }

    fn step(&mut self, generating: bool) {
        let now = self.cycle;
        if generating {
            self.generate(now);
        }
        let hdr = self.v.configs[0].header();
        let hw = hdr.width();
        let n_routers = self.routers.len();
        // A flit in a link register is moving (`run.stall_cycles`).
        let mut moved = if self.pipes.latency == 0 {
            if self.per_lane {
                self.move_through_links::<true>();
            } else {
                self.move_through_links::<false>();
            }
            false
        } else if self.per_lane {
            self.move_through_link_registers::<true>()
        } else {
            self.move_through_link_registers::<false>()
        };
        // Sinks: every flit is consumed at once and its credit returned in
        // the same cycle.
        for e in 0..self.nis.len() {
            let (r, p) = (self.nis[e].router, self.nis[e].port);
            let l = &mut self.links[r];
            let at = l.port_base as usize + p;
            if !l.out_flits.contains(p) {
                if l.in_credits.contains(p) {
                    l.in_credits &= !X::Ports::single(p);
                    self.in_credits[at] = 0;
                }
                continue;
            }
            l.in_credits |= X::Ports::single(p);
            let f = self.routers[r].outputs().flits[p];
            self.in_credits[at] = 1 << f.vc;
            if self.per_lane {
                self.in_credit_lanes[at] = credit_lane_word(f.vc as usize, f.lane as usize);
            }
            moved = true;
            if let Some(t) = &mut self.trace {
                t.ejected.push((now, e, f));
            }
            if f.dummy {
                continue;
            }
            self.flits_ejected += 1;
            if now >= self.warmup {
                self.window_flits += 1;
                let span = (self.total_cycles() - self.warmup).max(1);
                let b = ((now - self.warmup) as u128 * self.flit_batches.len() as u128 / span as u128) as usize;
                if let Some(x) = self.flit_batches.get_mut(b) {
                    *x += 1;
                }
            }
            let tag = if f.head { field(&f.data, hw, self.tag_bits) as u32 } else { body_tag(&f) } & self.tag_mask;
            let slot = self.inflight[e][tag as usize];
            if slot == 0 {
                continue; // unknown tag: caught by the conservation check
            }
            let idx = slot - 1;
            let rec = &mut self.slab[idx as usize];
            rec.received += 1;
            if rec.received == rec.m.flits {
                self.inflight[e][tag as usize] = 0;
                self.complete(idx, now);
            }
        }
        // Sources.
        for e in 0..self.nis.len() {
            if self.nic.is_some() {
                self.inject_nic(e, now, hdr, hw, &mut moved);
            } else {
                if self.per_lane {
                    self.inject::<true>(e, now, hdr, hw, &mut moved);
                } else {
                    self.inject::<false>(e, now, hdr, hw, &mut moved);
                }
            }
        }
        for r in 0..n_routers {
            let l = &mut self.links[r];
            if !moved && !l.out_flits.is_empty() {
                moved = true;
            }
            let router = &mut self.routers[r];
            let base = l.port_base as usize;
            if self.per_lane {
                router.set_credit_lanes(&self.in_credit_lanes[base..]);
            }
            router.step_active(&self.in_flits[base..], &self.in_credits[base..], l.in_flits, l.in_credits);
            (l.out_flits, l.out_credits) = router.output_activity();
        }
        if let Some(s) = self.router_split.as_mut() {
            s.observe(&self.routers[0]);
        }
        // The message a flit belongs to (its destination's in-flight tag), for
        // the per-message probes: one lookup, however many probes are on.
        let (n, bits, mask, inflight) = (self.nis.len(), self.tag_bits, self.tag_mask, &self.inflight);
        let message_at = |dest: usize, tag: u32| inflight.get(dest).and_then(|t| t.get((tag & mask) as usize)).filter(|&&s| s > 0).map(|s| s - 1);
        let message_of = |f: &LinkFlit| message_at(hdr.dest.extract(&f.data) as usize % n, field(&f.data, hw, bits) as u32);
        if let Some(c) = self.causes.as_mut() {
            // One router: output port o leads to the endpoint at port o, so
            // a body flit there is named by its tag at that endpoint.
            let nis = &self.nis;
            let link_message = |o: usize, f: &LinkFlit| if f.head { message_of(f) } else { nis.iter().position(|ni| ni.port == o).and_then(|e| message_at(e, body_tag(f))) };
            c.observe(now, &self.routers[0], self.per_lane, link_message);
        }
        if let Some(w) = self.vc_waits.as_mut() {
            w.observe(now, &self.routers, message_of);
        }
        if let Some(h) = self.hop_parts.as_mut() {
            h.observe(now, &self.routers, message_of);
        }
        if let Some(h) = self.header_parts.as_mut() {
            h.observe(now, &self.routers, message_of);
        }
        if let Some(t) = self.hop_trace.as_mut() {
            t.observe(now, &self.routers, message_of);
        }
        if moved {
            self.last_move = now;
        }
        self.cycle += 1;
    }

    /// The router-to-router links without registers (`topology.link_latency`
    /// = 0): every router's input is its neighbour's output of this cycle.
    #[inline(always)]
    fn move_through_links<const LANES: bool>(&mut self) {
            // Router-to-router links (unused ports keep their idle inputs).
            // An idle output is `LinkFlit::IDLE` / 0, so a link that was idle in
            // the last cycle and is idle now already holds its value.
            for sr in 0..self.routers.len() {
                let l = &mut self.links[sr];
                let flits = l.out_flits & l.to_router_out;
                let credits = l.out_credits & l.to_router_in;
                let todo_f = flits | l.revisit_flits;
                let todo_c = credits | l.revisit_credits;
                if (todo_f | todo_c).is_empty() {
                    continue;
                }
                l.revisit_flits = flits;
                l.revisit_credits = credits;
                let base = l.port_base as usize;
                let out = self.routers[sr].outputs();
                for o in todo_f.iter() {
                    let (r, p) = self.flit_to[base + o];
                    let (r, p) = (r as usize, p as usize);
                    self.link_count[base + o] += out.flits[o].valid as u64;
                    let l = &mut self.links[r];
                    self.in_flits[l.port_base as usize + p] = out.flits[o];
                    l.in_flits.set_to(p, flits.contains(o));
                }
                for p in todo_c.iter() {
                    let (r, o) = self.credit_to[base + p];
                    let (r, o) = (r as usize, o as usize);
                    let l = &mut self.links[r];
                    self.in_credits[l.port_base as usize + o] = out.credits[p];
                    if LANES {
                        self.in_credit_lanes[l.port_base as usize + o] = out.credit_lanes[p];
                    }
                    l.in_credits.set_to(o, credits.contains(p));
                }
            }
    }

    /// The router-to-router links with L = `topology.link_latency` >= 1
    /// registers ([`LinkPipes`]): every link's far end gets what its source
    /// drove L cycles ago, and its registers take the source's output of
    /// this cycle. Visits only links whose source is busy or whose registers
    /// or far end still hold something (`LinkState::revisit_*`). Returns
    /// whether a flit is still on a link (a flit in flight is moving).
    /// `LANES`: per-lane credits, each credit register also carries its
    /// lanes (compiled apart, as `move_through_links`).
    fn move_through_link_registers<const LANES: bool>(&mut self) -> bool {
        let lat = self.pipes.latency;
        let k = self.pipes.slot;
        self.pipes.slot = if k + 1 == lat { 0 } else { k + 1 };
        let mut in_flight = false;
        for sr in 0..self.routers.len() {
            let l = &self.links[sr];
            let todo_f = (l.out_flits & l.to_router_out) | l.revisit_flits;
            let todo_c = (l.out_credits & l.to_router_in) | l.revisit_credits;
            if (todo_f | todo_c).is_empty() {
                continue;
            }
            let base = l.port_base as usize;
            let (mut revisit_f, mut revisit_c) = (X::Ports::EMPTY, X::Ports::EMPTY);
            let out = self.routers[sr].outputs();
            for o in todo_f.iter() {
                let link = base + o;
                let new = out.flits[o];
                let old = std::mem::replace(&mut self.pipes.flits[link * lat + k], new);
                self.link_count[link] += new.valid as u64;
                let live = &mut self.pipes.live_flits[link];
                *live = *live + new.valid as u8 - old.valid as u8;
                let (r, p) = self.flit_to[link];
                let (r, p) = (r as usize, p as usize);
                let d = &mut self.links[r];
                self.in_flits[d.port_base as usize + p] = old;
                d.in_flits.set_to(p, old.valid);
                if *live > 0 || old.valid {
                    revisit_f |= X::Ports::single(o);
                    in_flight = true;
                }
            }
            for p in todo_c.iter() {
                let link = base + p;
                let new = out.credits[p];
                let old = std::mem::replace(&mut self.pipes.credits[link * lat + k], new);
                let live = &mut self.pipes.live_credits[link];
                *live = *live + (new != 0) as u8 - (old != 0) as u8;
                let (r, o) = self.credit_to[link];
                let (r, o) = (r as usize, o as usize);
                let d = &mut self.links[r];
                self.in_credits[d.port_base as usize + o] = old;
                if LANES {
                    let lanes = std::mem::replace(&mut self.pipes.credit_lanes[link * lat + k], out.credit_lanes[p]);
                    self.in_credit_lanes[d.port_base as usize + o] = lanes;
                }
                d.in_credits.set_to(o, old != 0);
                if *live > 0 || old != 0 {
                    revisit_c |= X::Ports::single(p);
                }
            }
            let l = &mut self.links[sr];
            l.revisit_flits = revisit_f;
            l.revisit_credits = revisit_c;
        }
        in_flight
    }

    /// `LANES`: `preemption_credits = "per_lane"` (§9.4 *Credits*), the
    /// sources name the lanes (compiled apart, so the default path has no test).
    fn inject<const LANES: bool>(&mut self, e: usize, now: u64, hdr: wormqos_config::HeaderLayout, hw: u32, moved: &mut bool) {
        let m = self.nis[e].vc_cur.len();
        // Credits returned by the router during this cycle count from the next.
        let (r, p) = (self.nis[e].router, self.nis[e].port);
        let ret = if self.links[r].out_credits.contains(p) { self.routers[r].outputs().credits[p] } else { 0 };
        let ret_lanes = if LANES && ret != 0 { self.routers[r].outputs().credit_lanes[p] } else { 0 };
        let ni = &mut self.nis[e];
        if ni.active == 0 && ni.queued == 0 {
            if ret != 0 {
                ni.return_credits::<LANES>(ret, ret_lanes);
            }
            if self.causes.is_some() {
                // An idle source's VCs read as idle, not as they were
                // when it last sent (`cause_split::holders` reads any source).
                self.note_source_vcs::<LANES>(e, None);
            }
            self.drive_flit(r, p, LinkFlit::IDLE);
            return;
        }
        // Start queued messages on idle VCs, highest class first (none while
        // a reconfiguration has quiesced the sources).
        if self.nis[e].queued != 0 && !self.quiesced {
            if self.segmentation.is_some() {
                self.start_per_direction(e, now);
            } else {
                for c in (0..self.classes as usize).rev() {
                    if !self.stream_vc.is_empty() && c != 0 {
                        self.start_per_stream(e, c, now);
                        continue;
                    }
                    while let Some(&idx) = self.nis[e].queues[c].front() {
                        if !self.start_message(e, c, c, 0, idx, now) {
                            break;
                        }
                    }
                }
            }
        }
        // Suspended messages resume on the VCs the start step left idle
        // (also while quiesced: they had started).
        if self.source_preemption {
            self.resume_suspended(e);
        }
        // Send one flit: highest class first, round-robin within it.
        let ni = &self.nis[e];
        let mut pick: Option<(usize, u8)> = None;
        // Classes with a message on a VC here, and those of them with a
        // credit on one of those VCs (classes < 8).
        let (mut holding, mut can_send) = (0u32, 0u32);
        let logging = self.msg_log.is_some();
        for k in 0..m {
            // ni.rr + k < 2m: a subtraction rather than a division.
            let v = if ni.rr + k >= m { ni.rr + k - m } else { ni.rr + k };
            if let Some((idx, sent)) = ni.vc_cur[v] {
                let c = ni.vc_class[v];
                // A header goes next: the message's own, or an owed dummy one.
                let head = match ni.vc_owed[v] {
                    OwedDummy::None => sent == 0,
                    OwedDummy::Tail => false,
                    OwedDummy::Header => true,
                };
                let credits = ni.next_flit_credits::<LANES>(v, head, c);
                if logging && credits == 0 {
                    self.slab[idx as usize].at_source.no_credit += 1;
                }
                holding |= 1 << c;
                if credits > 0 {
                    can_send |= 1 << c;
                    if pick.map_or(true, |(_, pc)| c > pc) {
                        pick = Some((v, c));
                    }
                }
            }
        }
        let mut stalled = holding & !can_send;
        while stalled != 0 {
            let c = stalled.trailing_zeros() as usize;
            self.nis[e].credit_stalled[c] += 1;
            stalled &= stalled - 1;
        }
        if logging {
            self.log_header_waits::<LANES>(e, pick.map(|(v, _)| v));
        }
        if self.causes.is_some() {
            self.note_source_vcs::<LANES>(e, pick.map(|(v, _)| v));
        }
        let mut flit = LinkFlit::IDLE;
        if let Some((v, c)) = pick.filter(|&(v, _)| self.nis[e].vc_owed[v] != OwedDummy::None) {
            let (idx, _) = self.nis[e].vc_cur[v].unwrap();
            flit = self.dummy_flit(idx, self.nis[e].vc_owed[v], v as u8, hdr);
            self.take_credit::<LANES>(e, v, c, &mut flit);
            if let Some(p) = self.causes.as_mut() {
                p.written(now, e, v, flit.lane as usize, None);
            }
            if let Some(s) = self.router_split.as_mut() {
                s.written(p, v, None);
            }
            let ni = &mut self.nis[e];
            ni.vc_owed[v] = OwedDummy::None;
            ni.rr = if v + 1 == m { 0 } else { v + 1 };
            *moved = true;
            if let Some(t) = &mut self.trace {
                t.injected.push((now, e, flit));
            }
        } else if let Some((v, c)) = pick {
            let (idx, sent) = self.nis[e].vc_cur[v].unwrap();
            if sent == 0 {
                let rec = &mut self.slab[idx as usize];
                rec.stalled = self.nis[e].credit_stalled[c as usize] - rec.stalled;
                if logging {
                    rec.at_source.ahead = self.routers[r].input_occupancy(p, v) as u32;
                    rec.at_source.lower_ahead = lower_class_flits(&self.routers[r], p, v, c, hdr);
                    if self.routers.len() == 1 {
                        let o = self.nis[rec.m.dest as usize].port;
                        let router = &self.routers[0];
                        let held: Vec<usize> = (0..m).filter(|&u| router.allocated(o, u)).collect();
                        rec.at_source.out_vcs_held = held.len() as u32;
                        let class_of = |i: usize| router.header_register(i / m, i % m).map_or(0, |h| h.class);
                        rec.at_source.out_vcs_lower = held.iter().filter_map(|&u| router.owner(o, u)).filter(|&i| class_of(i) < c as u32).count() as u32;
                    }
                }
            }
            flit = self.flit(idx, sent, v as u8, now, hdr, hw);
            self.take_credit::<LANES>(e, v, c, &mut flit);
            if let Some(p) = self.causes.as_mut() {
                p.written(now, e, v, flit.lane as usize, Some(idx));
            }
            if let Some(s) = self.router_split.as_mut() {
                let rec = &self.slab[idx as usize];
                s.written(p, v, (sent == 0).then_some((idx, rec.m.flits, rec.m.class, rec.created)));
            }
            let last = flit.tail;
            if last {
                self.slab[idx as usize].at_source.tail_sent = now;
                if self.segmentation.as_ref().is_some_and(|q| !q.until_delivered) {
                    self.nis[e].serving &= !(1 << self.slab[idx as usize].queue);
                }
            }
            let ni = &mut self.nis[e];
            ni.vc_cur[v] = if last { None } else { Some((idx, sent + 1)) };
            ni.active -= last as u32;
            ni.rr = if v + 1 == m { 0 } else { v + 1 };
            self.flits_injected += 1;
            *moved = true;
            if let Some(t) = &mut self.trace {
                t.injected.push((now, e, flit));
            }
        }
        if ret != 0 {
            self.nis[e].return_credits::<LANES>(ret, ret_lanes);
        }
        self.drive_flit(r, p, flit);
    }

    /// Logged runs: one cycle of [`HeaderWait`] for every message on one of
    /// endpoint e's source VCs whose header has not left, given the VC whose
    /// flit (or owed dummy flit) the source sends this cycle.
    fn log_header_waits<const LANES: bool>(&mut self, e: usize, picked: Option<usize>) {
        for v in 0..self.nis[e].vc_cur.len() {
            let ni = &self.nis[e];
            // A message with flits sent, or resumed behind an owed dummy
            // header, has sent its header before.
            let (Some((idx, 0)), false) = (ni.vc_cur[v], ni.vc_owed[v] == OwedDummy::Header) else { continue };
            let dummy = ni.vc_owed[v] == OwedDummy::Tail;
            let credited = ni.next_flit_credits::<LANES>(v, !dummy, ni.vc_class[v]) > 0;
            let w = &mut self.slab[idx as usize].at_source.before_header;
            match (dummy, credited, picked == Some(v)) {
                (false, true, true) => {} // the header leaves now
                (true, true, true) => w.dummy_sent += 1,
                (true, false, _) => w.dummy_no_credit += 1,
                (true, true, false) => w.dummy_link += 1,
                (false, false, _) => w.header_no_credit += 1,
                (false, true, false) => w.header_link += 1,
            }
        }
    }

    /// [`Sim::run_cause_split`]: what each of endpoint e's source VCs does
    /// this cycle, given the VC whose flit (or owed dummy flit) it sends
    /// (read before the flit goes, as `log_header_waits`).
    fn note_source_vcs<const LANES: bool>(&mut self, e: usize, picked: Option<usize>) {
        use crate::cause_split::SourceVcNow;
        let Some(probe) = self.causes.as_mut() else { return };
        use crate::cause_split::dummy_tail::DummyWait;
        let ni = &self.nis[e];
        for v in 0..ni.vc_cur.len() {
            let what = match ni.vc_cur[v] {
                None => SourceVcNow::Idle,
                Some((_, sent)) => {
                    let head = match ni.vc_owed[v] {
                        OwedDummy::None => sent == 0,
                        OwedDummy::Header => true,
                        OwedDummy::Tail => false,
                    };
                    let credited = ni.next_flit_credits::<LANES>(v, head, ni.vc_class[v]) > 0;
                    if ni.vc_owed[v] == OwedDummy::Tail {
                        // The dummy tail goes into the suspended message's lane.
                        let lane = if LANES { ni.lanes.lane_for(v, false, ni.vc_class[v]) } else { 0 };
                        let wait = if picked == Some(v) {
                            DummyWait::Sent
                        } else if credited {
                            DummyWait::Link
                        } else {
                            DummyWait::NoCredit
                        };
                        SourceVcNow::Dummy { wait, lane }
                    } else if picked == Some(v) {
                        SourceVcNow::Sent
                    } else if credited {
                        SourceVcNow::Link
                    } else {
                        SourceVcNow::NoCredit
                    }
                }
            };
            probe.source_vc(e, v, what);
            let carries = crate::cause_split::holders::SourceVcCarries { class: ni.vc_cur[v].map(|_| ni.vc_class[v]), suspended: ni.vc_susp[v].is_some() };
            probe.source_vc_carries(e, v, carries);
        }
        probe.source_picked(e, picked.map(|v| ni.vc_class[v]));
    }

    /// Flit `flit` of class c leaves endpoint e's source on VC v: one credit
    /// used, with per-lane credits that of the lane it names (set here).
    #[inline]
    fn take_credit<const LANES: bool>(&mut self, e: usize, v: usize, c: u8, flit: &mut LinkFlit) {
        if LANES {
            flit.lane = self.nis[e].lanes.send(v, flit.head, c);
        } else {
            self.nis[e].credits[v] -= 1;
        }
    }

    /// Starts message `idx`, at position `pos` of endpoint e's source queue
    /// `q` (0: its front), of class c, on an idle VC of its class, if there
    /// is one and a tag to its destination (else it stays queued and this
    /// returns false).
    #[inline]
    fn start_message(&mut self, e: usize, q: usize, c: usize, pos: usize, idx: u32, now: u64) -> bool {
        let (v, preempts) = match self.pick_source_vc(e, c, idx) {
            Some(v) => (v, false),
            None => match self.preemptible_vc(e, c, idx) {
                Some(v) => (v, true),
                None => return false,
            },
        };
        if !take_tag(&mut self.inflight, &mut self.next_tag, self.tag_mask, &mut self.slab, idx) {
            return false; // tag space to this endpoint exhausted: wait
        }
        if preempts {
            self.suspend(e, v, now);
        }
        let ni = &mut self.nis[e];
        ni.queues[q].remove(pos);
        ni.queued -= 1;
        ni.vc_cur[v] = Some((idx, 0));
        let prev_class = if ni.vc_used >> v & 1 == 1 { ni.vc_class[v] } else { u8::MAX };
        ni.vc_used |= 1 << v;
        ni.vc_class[v] = c as u8;
        ni.active += 1;
        // With per-lane credits: those of the lane its header will take.
        let credits = if ni.lanes.is_empty() { ni.credits[v] } else { ni.lanes.credits_for(v, true, c as u8) };
        let (credits, vcs_held) = (credits, ni.active);
        self.slab[idx as usize].at_source = SourceVc { started: now, vc: v as u8, credits, prev_class, vcs_held, ..self.slab[idx as usize].at_source };
        if let Some(p) = self.causes.as_mut() {
            p.started(idx, v);
        }
        true
    }

    /// `workload.source_queues = "per_direction_*"`: every direction queue
    /// of endpoint e not serving a message starts its front message (004_…
    /// §4.1.1: one segmentation queue per direction, M/D/1).
    fn start_per_direction(&mut self, e: usize, now: u64) {
        for q in 0..self.nis[e].queues.len() {
            if self.nis[e].serving >> q & 1 == 1 {
                continue;
            }
            let Some(&idx) = self.nis[e].queues[q].front() else { continue };
            let c = self.slab[idx as usize].m.class as usize;
            if self.start_message(e, q, c, 0, idx, now) {
                self.nis[e].serving |= 1 << q;
            }
        }
    }

    /// `workload.source_vc_choice = "per_stream"`: starts, in queue order,
    /// every message of endpoint e's class-c queue whose VC is idle, so that
    /// each VC serves its streams' messages first come first served; stops
    /// when no VC of the class is idle.
    fn start_per_stream(&mut self, e: usize, c: usize, now: u64) {
        let mut pos = 0;
        while pos < self.nis[e].queues[c].len() {
            let ni = &self.nis[e];
            if !(0..ni.vc_cur.len()).any(|v| self.class_vcs[c] >> v & 1 == 1 && (ni.idle_for(c, v) || self.can_preempt(e, c, v))) {
                return;
            }
            let idx = ni.queues[c][pos];
            if !self.start_message(e, c, c, pos, idx, now) {
                pos += 1;
            }
        }
    }

    /// The idle VC of class c at endpoint e's source that message `idx`
    /// takes (`workload.source_vc_choice`), if any.
    fn pick_source_vc(&mut self, e: usize, c: usize, idx: u32) -> Option<usize> {
        let ni = &self.nis[e];
        if let Some(v) = self.bound_vc(idx) {
            return ni.idle_for(c, v).then_some(v);
        }
        let mut idle = (0..ni.vc_cur.len()).filter(|&v| ni.idle_for(c, v) && self.class_vcs[c] >> v & 1 == 1);
        match self.v.exp.workload.source_vc_choice {
            SourceVcChoice::Lowest | SourceVcChoice::PerStream => idle.next(),
            // With per-lane credits: those of the lane the header would take.
            SourceVcChoice::MostCredits if !ni.lanes.is_empty() => idle.rev().max_by_key(|&v| ni.lanes.credits_for(v, true, c as u8)),
            SourceVcChoice::MostCredits => idle.rev().max_by_key(|&v| ni.credits[v]),
            SourceVcChoice::Uniform => {
                let n = idle.clone().count();
                (n > 0).then(|| self.rng.gen_range(0..n)).and_then(|k| idle.nth(k))
            }
        }
    }

    /// The VC message `idx`'s stream is bound to (`"per_stream"`), if any.
    fn bound_vc(&self, idx: u32) -> Option<usize> {
        self.stream_vc.get(self.slab[idx as usize].flow as usize).filter(|&&v| v != ANY_VC).map(|&v| v as usize)
    }

    /// Whether a class-c message may preempt VC v of endpoint e's source
    /// (`workload.source_preemption = "best_effort"`, §9.4 *A source
    /// preempting its own best effort*): c is above best effort, a
    /// best-effort message is on v and none is suspended there.
    fn can_preempt(&self, e: usize, c: usize, v: usize) -> bool {
        let ni = &self.nis[e];
        self.source_preemption && c > 0 && ni.vc_cur[v].is_some() && ni.vc_class[v] == 0 && ni.vc_susp[v].is_none()
    }

    /// The VC message `idx` of class c preempts when none of its VCs is
    /// idle: its stream's VC, else the lowest VC of its class it may preempt.
    fn preemptible_vc(&self, e: usize, c: usize, idx: u32) -> Option<usize> {
        if !self.source_preemption || c == 0 {
            return None;
        }
        match self.bound_vc(idx) {
            Some(v) => self.can_preempt(e, c, v).then_some(v),
            None => (0..self.nis[e].vc_cur.len()).find(|&v| self.class_vcs[c] >> v & 1 == 1 && self.can_preempt(e, c, v)),
        }
    }

    /// Suspends the best-effort message on VC v of endpoint e's source: it
    /// owes a dummy tail if a flit of its current part has left (§9.4 case
    /// (a)), none otherwise (case (b): its part has not started, including a
    /// resumed part whose dummy header is still owed).
    fn suspend(&mut self, e: usize, v: usize, now: u64) {
        let ni = &mut self.nis[e];
        let (idx, sent) = ni.vc_cur[v].take().expect("a message to suspend");
        let part_started = sent > 0 && ni.vc_owed[v] != OwedDummy::Header;
        ni.vc_owed[v] = if part_started { OwedDummy::Tail } else { OwedDummy::None };
        ni.vc_susp[v] = Some((idx, sent));
        let at = &mut self.slab[idx as usize].at_source;
        if at.preempted == 0 {
            at.first_suspended = now;
        }
        at.preempted += 1;
        self.source_preemptions += 1;
    }

    /// Every VC of endpoint e's source with no message and a suspended one
    /// resumes it, behind a dummy header if its header had left.
    fn resume_suspended(&mut self, e: usize) {
        for v in 0..self.nis[e].vc_cur.len() {
            let ni = &mut self.nis[e];
            if ni.vc_cur[v].is_some() {
                continue;
            }
            if let Some((idx, sent)) = ni.vc_susp[v].take() {
                ni.vc_cur[v] = Some((idx, sent));
                ni.vc_class[v] = self.slab[idx as usize].m.class;
                ni.vc_owed[v] = if sent > 0 { OwedDummy::Header } else { OwedDummy::None };
            }
        }
    }

    /// The header fields of message `rec` (destination, class, Vtick) at
    /// their §2 positions.
    fn insert_header_fields(&self, rec: &MsgRec, data: &mut [u64; wormqos_sim::MAX_FLIT_WORDS], hdr: wormqos_config::HeaderLayout) {
        hdr.dest.insert(data, self.v.net.dest_code(rec.src as usize, rec.m.dest as usize) as u64);
        hdr.class.insert(data, rec.m.class as u64);
        let vt = if rec.m.class == 0 { self.vtick_be } else { rec.m.vtick };
        hdr.vtick.insert(data, vt as u64);
    }

    /// The dummy flit owed on VC v before the next flit of message `idx`:
    /// a dummy tail `{tail, dummy, data 0}`, or a dummy header carrying
    /// `idx`'s header fields and nothing else (as a router's, §9.4 Stage 4).
    fn dummy_flit(&self, idx: u32, owed: OwedDummy, v: u8, hdr: wormqos_config::HeaderLayout) -> LinkFlit {
        let mut data = [0u64; wormqos_sim::MAX_FLIT_WORDS];
        let head = owed == OwedDummy::Header;
        if head {
            self.insert_header_fields(&self.slab[idx as usize], &mut data, hdr);
        }
        LinkFlit { lane: 0, valid: true, dummy: true, vc: v, head, tail: !head, data }
    }

    /// Flit `sent` (0 = header) of message `idx` on VC v; a header stamps
    /// the message's injection time.
    fn flit(&mut self, idx: u32, sent: u32, v: u8, now: u64, hdr: wormqos_config::HeaderLayout, hw: u32) -> LinkFlit {
        let mut data = [0u64; wormqos_sim::MAX_FLIT_WORDS];
        if sent == 0 {
            self.insert_header_fields(&self.slab[idx as usize], &mut data, hdr);
        }
        let rec = &mut self.slab[idx as usize];
        if sent == 0 {
            wormqos_config::Field { lsb: hw, width: self.tag_bits }.insert(&mut data, rec.tag as u64);
            rec.injected = now;
        } else {
            data[0] = (sent as u64 & 0xffff) | ((rec.tag as u64) << 16);
        }
        LinkFlit { lane: 0, valid: true, dummy: false, vc: v, head: sent == 0, tail: sent + 1 == rec.m.flits, data }
    }

    /// Endpoint e's `[nic]` model for one cycle: credits back, then one flit
    /// (or none) onto the router's input link.
    fn inject_nic(&mut self, e: usize, now: u64, hdr: wormqos_config::HeaderLayout, hw: u32, moved: &mut bool) {
        let (r, p) = (self.nis[e].router, self.nis[e].port);
        // Credits returned by the router during this cycle count from the next.
        let ret = if self.links[r].out_credits.contains(p) { self.routers[r].outputs().credits[p] } else { 0 };
        let ret_lanes = if self.per_lane && ret != 0 { self.routers[r].outputs().credit_lanes[p] } else { 0 };
        let params = self.nic.expect("a [nic] section");
        let nic = &mut self.nics[e];
        let sent = if nic.idle() {
            None
        } else {
            let (inflight, next_tag, slab, mask) = (&mut self.inflight, &mut self.next_tag, &mut self.slab, self.tag_mask);
            nic.step(&params, now, |idx| take_tag(inflight, next_tag, mask, slab, idx))
        };
        nic.credit(ret, ret_lanes);
        let flit = match sent {
            Some(s) => {
                self.flits_injected += 1;
                *moved = true;
                LinkFlit { lane: s.lane, ..self.flit(s.msg, s.index, s.vc, now, hdr, hw) }
            }
            None => LinkFlit::IDLE,
        };
        self.drive_flit(r, p, flit);
    }

    /// Puts `f` on input port p of router r (an endpoint's injection link),
    /// keeping `LinkState::in_flits`; an idle flit on an idle port needs no write.
    #[inline]
    fn drive_flit(&mut self, r: usize, p: usize, f: LinkFlit) {
        let l = &mut self.links[r];
        if f.valid || l.in_flits.contains(p) {
            l.in_flits.set_to(p, f.valid);
            self.in_flits[l.port_base as usize + p] = f;
        }
    }

    fn complete(&mut self, idx: u32, now: u64) {
        let rec = self.slab[idx as usize].clone();
        if self.segmentation.as_ref().is_some_and(|q| q.until_delivered) {
            self.nis[rec.src as usize].serving &= !(1 << rec.queue);
        }
        self.free.push(idx);
        self.delivered += 1;
        self.pending_msgs -= 1;
        let fi = rec.flow as usize;
        self.flow_state[fi].flits_delivered += if now >= self.warmup { rec.m.flits as u64 } else { 0 };
        if let Some((flow, log)) = &mut self.msg_log {
            if flow.map_or(true, |f| f == rec.flow) {
                log.push(MessageLog { flow: rec.flow, src: rec.src, dest: rec.m.dest, class: rec.m.class, flits: rec.m.flits, source: SourceVc { credit_stalled: if self.nic.is_some() { 0 } else { rec.stalled }, ..rec.at_source }, frame: rec.m.frame, frame_msgs: rec.m.frame_msgs, created: rec.created, injected: rec.injected, delivered: now });
                if let Some(split) = self.router_split.as_mut().and_then(|s| s.finish(idx)) {
                    self.split_log.push((log.len() - 1, split));
                }
                if let Some(w) = self.vc_waits.as_mut() {
                    self.vc_wait_log.push(w.finish(idx));
                }
                if let Some(h) = self.hop_parts.as_mut() {
                    self.hop_parts_log.push(h.finish(idx));
                }
                if let Some(h) = self.header_parts.as_mut() {
                    self.header_parts_log.push(h.finish(idx));
                }
                if let Some(t) = self.hop_trace.as_mut() {
                    self.hop_trace_log.push(t.finish(idx));
                }
                if let Some(split) = self.causes.as_mut().and_then(|c| c.finish(idx)) {
                    self.cause_log.push((log.len() - 1, split));
                }
            }
        }
        if rec.m.frame != u32::MAX {
            let st = &mut self.flow_state[fi];
            if let Some(pos) = st.open.iter().position(|o| o.0 == rec.m.frame) {
                st.open[pos].1 -= 1;
                if st.open[pos].1 == 0 {
                    let (frame, _, created) = st.open.remove(pos).unwrap();
                    if created >= self.warmup {
                        st.delivered.push((frame, now, created));
                    }
                }
            }
        }
        if !rec.measured {
            return;
        }
        let total = self.total_cycles();
        let c = &mut self.class_acc[rec.m.class as usize];
        let lat = (now - rec.created) as f64;
        c.n += 1;
        c.lat += lat;
        c.net += (now - rec.injected) as f64;
        c.src += (rec.injected - rec.created) as f64;
        c.stalled += rec.stalled as f64;
        c.hist.add(now - rec.created);
        if c.net_counts.is_empty() {
            c.net_counts = vec![0; NET_LATENCY_BINS];
        }
        c.net_counts[((now - rec.injected) as usize).min(NET_LATENCY_BINS - 1)] += 1;
        // One router: no router-to-router link (the hop table is empty).
        let route_hops = if self.routers.len() == 1 {
            Some(0)
        } else {
            self.hops.get(rec.src as usize * self.nis.len() + rec.m.dest as usize).map(|&h| h as u64)
        };
        if let (Some(z), Some(h)) = (self.zero_load, route_hops) {
            c.transfer += z.latency(h, rec.m.flits as u64) as f64;
            c.transfer_n += 1;
        }
        if !self.hops.is_empty() {
            let h = self.hops[rec.src as usize * self.nis.len() + rec.m.dest as usize] as usize;
            if c.net_counts_by_hops.len() <= h {
                c.net_counts_by_hops.resize(h + 1, Vec::new());
            }
            let counts = &mut c.net_counts_by_hops[h];
            if counts.is_empty() {
                *counts = vec![0; NET_LATENCY_BINS];
            }
            counts[((now - rec.injected) as usize).min(NET_LATENCY_BINS - 1)] += 1;
        }
        let span = (total - self.warmup).max(1);
        let b = (((rec.created - self.warmup) as u128 * c.batches.len() as u128) / span as u128) as usize;
        let b = b.min(c.batches.len() - 1);
        c.batches[b].0 += lat;
        c.batches[b].1 += 1;
        let ph = ((rec.created as f64 / self.phase_cycles) as usize).min(c.phases.len() - 1);
        let acc = &mut c.phases[ph];
        acc.0 += 1;
        acc.1 += lat;
        acc.2 += (rec.injected - rec.created) as f64;
        acc.3 += (now - rec.injected) as f64;
        c.phase_moments[ph].add(lat);
    }

    /// [`PhaseClassLatency`] of every class with messages created in phase
    /// `ph`; empty for a workload without phases.
    fn phase_class_latency(&self, ph: usize) -> Vec<PhaseClassLatency> {
        if self.phase_params.len() < 2 {
            return Vec::new();
        }
        self.class_acc
            .iter()
            .enumerate()
            .filter_map(|(class, c)| {
                let &(n, lat, src, net) = c.phases.get(ph)?;
                (n > 0).then(|| PhaseClassLatency {
                    class: class as u8,
                    messages: n,
                    latency: lat / n as f64,
                    latency_ci95: c.phase_moments[ph].ci95(),
                    source_latency: src / n as f64,
                    network_latency: net / n as f64,
                })
            })
            .collect()
    }

    fn check_conservation(&self) -> Result<(), SimError> {
        let dropped: u64 = self.routers.iter().map(|r| r.stats().flits_dropped()).sum();
        if dropped > 0 {
            return Err(SimError::Conservation(format!("{dropped} flits dropped by routers (credit protocol broken)")));
        }
        let buffered: u64 = self.routers.iter().map(|r| r.buffered_flits() as u64).sum();
        let on_links: u64 = self.routers.iter().map(|r| r.outputs().flits.iter().filter(|f| f.valid && !f.dummy).count() as u64).sum::<u64>()
            + self.pipes.flits_held();
        if self.v.configs[0].qos().preemption().is_none() {
            if self.flits_injected != self.flits_ejected + buffered + on_links {
                return Err(SimError::Conservation(format!(
                    "injected {} != ejected {} + buffered {} + on links {}",
                    self.flits_injected, self.flits_ejected, buffered, on_links
                )));
            }
        } else if self.flits_injected < self.flits_ejected {
            return Err(SimError::Conservation(format!("ejected {} > injected {}", self.flits_ejected, self.flits_injected)));
        }
        Ok(())
    }

    /// One deadlock check: `Err` if the set found at the previous check
    /// (`suspect`: its cycle and set) is still deadlocked, else the set
    /// found now, if any.
    fn check_deadlock(&self, suspect: Option<(u64, crate::deadlock::Deadlock)>) -> Result<Option<(u64, crate::deadlock::Deadlock)>, SimError> {
        let Some(now) = crate::deadlock::find(&self.routers, &self.v.configs, &self.v.net) else { return Ok(None) };
        match suspect {
            Some((at, first)) if first.vcs.iter().all(|x| now.vcs.binary_search(x).is_ok()) => Err(SimError::Deadlocked {
                at,
                after: at.saturating_sub(DEADLOCK_CHECK),
                vcs: now.vcs.len(),
                report: first.report(),
            }),
            _ => Ok(Some((self.cycle, now))),
        }
    }

    fn wait_report(&self) -> String {
        let mut lines = Vec::new();
        for (r, router) in self.routers.iter().enumerate() {
            let cfg = &self.v.configs[r];
            for p in 0..cfg.ports() {
                for v in 0..cfg.vcs() {
                    let occ = router.input_occupancy(p, v);
                    if occ == 0 {
                        continue;
                    }
                    let st = router.vc_state(p, v);
                    let what = match st {
                        VcState::Active { route, ovc } => {
                            let next = match self.v.net.out_link[r][route] {
                                Peer::Router { router, port } => format!("router {router} input {port} VC {ovc}"),
                                Peer::Endpoint(e) => format!("endpoint {e}"),
                                Peer::Unused => "an unused port".into(),
                            };
                            format!(
                                "holds output {route} VC {ovc} (credits {}, output buffer {}) -> {next}",
                                router.credits(route, ovc),
                                router.output_occupancy(route, ovc)
                            )
                        }
                        other => format!("{other:?}, waiting for an output VC"),
                    };
                    lines.push(format!("  router {r} input {p} VC {v} ({occ} flits): {what}"));
                }
            }
        }
        let n = lines.len();
        lines.truncate(40);
        if n > 40 {
            lines.push(format!("  ... {} more", n - 40));
        }
        lines.join("\n")
    }

    fn results(&self, total: u64, wall: f64) -> Results {
        let window = (total - self.warmup).max(1) as f64;
        let cycle_ms = self.v.cycle_s * 1e3;
        let mut intervals = Vec::new();
        let mut stamped_intervals = Vec::new();
        let mut stamped_lateness = Vec::new();
        let mut judged = 0;
        let mut misses = 0;
        let mut late = 0.0;
        let mut flow_bw = Vec::new();
        let nph = self.phase_params.len();
        let mut ph_acc = vec![(0u64, 0u64, 0.0f64); nph];
        let groups = self.v.exp.run.batches.max(2);
        // Per phase and stream group: frames judged, missed, their lateness.
        let mut ph_groups = vec![vec![phase_intervals::GroupMisses::default(); groups]; nph];
        let mut stream_no = 0usize;
        for (fi, st) in self.flow_state.iter().enumerate() {
            if !matches!(self.flows[fi].kind, FlowKind::Stream { .. }) {
                continue;
            }
            let group = stream_no % groups;
            stream_no += 1;
            flow_bw.push(st.flits_delivered as f64 / window);
            let mut d = st.delivered.clone();
            d.sort_unstable();
            // Intervals only between consecutive frame numbers.
            for w in d.windows(2) {
                if w[1].0 == w[0].0 + 1 {
                    let iv = (w[1].1 as f64 - w[0].1 as f64) * cycle_ms;
                    intervals.push(iv);
                    stamped_intervals.push((w[1].1 as f64, iv));
                }
            }
            let arrivals: Vec<f64> = d.iter().map(|x| x.1 as f64).collect();
            let (j, mi, l) = metrics::deadline_misses(&arrivals, self.period_cycles);
            judged += j;
            misses += mi;
            late += l;
            for (k, lateness) in metrics::deadline_lateness(&arrivals, self.period_cycles).into_iter().enumerate() {
                stamped_lateness.push((arrivals[k + 1], lateness));
                let ph = ((d[k + 1].2 as f64 / self.phase_cycles) as usize).min(nph - 1);
                ph_acc[ph].0 += 1;
                ph_groups[ph][group].judge(lateness);
                if lateness > 0.0 {
                    ph_acc[ph].1 += 1;
                    ph_acc[ph].2 += lateness;
                }
            }
        }
        let classes = self
            .class_acc
            .iter()
            .enumerate()
            .filter(|(_, c)| c.n > 0)
            .map(|(i, c)| {
                let bm: Vec<f64> = c.batches.iter().filter(|b| b.1 > 0).map(|b| b.0 / b.1 as f64).collect();
                let ci = if bm.len() >= 2 { metrics::batch_means(&bm, bm.len()).1 } else { f64::NAN };
                ClassStats {
                    class: i as u8,
                    messages: c.n,
                    latency: c.lat / c.n as f64,
                    latency_ci95: ci,
                    network_latency: c.net / c.n as f64,
                    source_latency: c.src / c.n as f64,
                    // The NIC model's sources are not the simple NI's.
                    source_credit_stall: if self.nic.is_some() { None } else { Some(c.stalled / c.n as f64) },
                    transfer_time: (c.transfer_n == c.n).then(|| c.transfer / c.n as f64),
                    histogram: c.hist.clone(),
                    network_latency_counts: c.net_counts.clone(),
                    network_latency_counts_by_hops: c
                        .net_counts_by_hops
                        .iter()
                        .map(|v| v[..v.iter().rposition(|&x| x > 0).map_or(0, |i| i + 1)].to_vec())
                        .collect(),
                }
            })
            .collect();
        let rc = self.routers.len() as f64 * self.cycle as f64;
        Results {
            name: self.v.exp.name.clone(),
            cycles: self.cycle,
            warmup_cycles: self.warmup,
            cycle_ns: self.v.cycle_s * 1e9,
            endpoints: self.nis.len(),
            routers: self.routers.len(),
            link_latency: self.pipes.latency as u32,
            offered_load: self.offered_load,
            requested_load: self.v.exp.workload.load,
            realtime_streams: self.streams,
            accepted_throughput: self.window_flits as f64 / window / self.nis.len() as f64,
            classes,
            frame_interval_ms: metrics::mean_sd(&intervals),
            ci95: metrics::frame_cis(&stamped_intervals, &stamped_lateness, &self.flit_batches, self.warmup as f64, total as f64, self.nis.len()),
            frames_judged: judged,
            deadline_miss_probability: if judged > 0 { misses as f64 / judged as f64 } else { f64::NAN },
            deadline_missing_time_ms: if misses > 0 { late / misses as f64 * cycle_ms } else { 0.0 },
            flow_bandwidth: flow_bw,
            phases: ph_acc
                .iter()
                .enumerate()
                .map(|(i, &(j, m, l))| PhaseStats {
                    mix: if self.v.exp.workload.phases.is_empty() { self.v.exp.workload.mix } else { self.v.exp.workload.phases[i] },
                    frames_judged: j,
                    deadline_miss_probability: if j > 0 { m as f64 / j as f64 } else { f64::NAN },
                    deadline_missing_time_ms: if m > 0 { l / m as f64 * cycle_ms } else { 0.0 },
                    deadline_miss_probability_ci95: metrics::batch_ci95(&ph_groups[i].iter().map(|g| g.miss_probability()).collect::<Vec<_>>()),
                    deadline_missing_time_ci95_ms: phase_intervals::missing_time_ci95(&ph_groups[i]) * cycle_ms,
                    class_latency: self.phase_class_latency(i),
                })
                .collect(),
            messages_created: self.created,
            messages_delivered: self.delivered,
            flits_injected: self.flits_injected,
            flits_ejected: self.flits_ejected,
            router_events: self.routers.iter().fold(RouterEvents::default(), |mut e, r| {
                let st = r.stats();
                e.preemptions += st.preemptions;
                e.nested_preemptions += st.nested_preemptions;
                e.dummy_headers += st.dummy_headers;
                e.silent_preemptions += st.silent_preemptions;
                e.accelerations += st.accelerations;
                e.block_holds += st.block_holds;
                e
            }),
            link_flits: self.link_flits(),
            reconfiguration: None,
            source_preemptions: self.source_preemptions,
            point_a_census: self
                .v
                .exp
                .model
                .point_a_census
                .then(|| self.routers.iter().fold(PointACensusTotals::default(), |t, r| t.add(r.point_a_census()))),
            wall_seconds: wall,
            router_cycles_per_second: rc / wall.max(1e-9),
        }
    }
}

/// Flits of messages of a class below `class` in the buffer of input VC
/// (p, v) of a preemptive router (0 elsewhere). Each lane is read front to
/// back: its flits belong to the message whose header (real or dummy) came
/// last before them; the front message of the serving lane has its class
/// in the header register, that of a suspended lane is taken as the lane's
/// `lmax` (docs/microarchitecture.md §9.4).
fn lower_class_flits<X: Width>(router: &Router<X>, p: usize, v: usize, class: u8, hdr: wormqos_config::HeaderLayout) -> u32 {
    if router.config().qos().preemption().is_none() {
        return 0;
    }
    let Some(regs) = router.lane_regs(p, v) else { return 0 };
    let mut n = 0;
    for l in 0..=regs.top {
        let mut c = if l == regs.sl { router.header_register(p, v).map_or(0, |h| h.class) } else { regs.lmax[l] as u32 };
        for k in 0..router.lane_occupancy(p, v, l) {
            let Some(f) = router.lane_flit(p, v, l, k) else { break };
            if f.head {
                c = hdr.class.extract(&f.data) as u32;
            }
            n += (c < class as u32) as u32;
        }
    }
    n
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// The tag a body flit of a source's message carries (above its index in
/// the low 16 bits, `Sim::flit`), before masking to the tag bits.
#[inline]
fn body_tag(f: &LinkFlit) -> u32 {
    (f.data[0] >> 16) as u32
}

/// `width`-bit field at bit `lsb` of flit data (width <= 32).
pub fn field(data: &[u64; wormqos_sim::MAX_FLIT_WORDS], lsb: u32, width: u32) -> u64 {
    wormqos_config::Field { lsb, width }.extract(data)
}

/// Gives message `idx` the first tag towards its destination, from the
/// destination's counter on, that no message in flight holds (§9.6 *Ids at
/// the network simulator's sources*); false when all 2^tag_bits are in
/// flight. Skipping a held tag rather than waiting for it keeps one
/// long-lived message (a best-effort one its source keeps suspending) from
/// stopping every source's messages to its destination.
fn take_tag(inflight: &mut [Vec<u32>], next_tag: &mut [u32], mask: u32, slab: &mut [MsgRec], idx: u32) -> bool {
    let dest = slab[idx as usize].m.dest as usize;
    let from = next_tag[dest];
    let Some(tag) = (0..=mask).map(|k| (from + k) & mask).find(|&t| inflight[dest][t as usize] == 0) else {
        return false;
    };
    inflight[dest][tag as usize] = idx + 1;
    next_tag[dest] = (tag + 1) & mask;
    slab[idx as usize].tag = tag;
    true
}

/// Links crossed from every endpoint to every other (0 for itself), or
/// nothing on one router or beyond 512 endpoints (the table's size).
/// The zero-load timing when every router has the same buffers and the
/// sources are the simple NI's (the NIC model's are not).
fn zero_load_of(v: &Validated) -> Option<crate::zero_load::ZeroLoad> {
    let c0 = &v.configs[0];
    let same = v.configs.iter().all(|c| c.input_buffer_depth() == c0.input_buffer_depth() && c.output_buffer_depth() == c0.output_buffer_depth());
    if !same || v.exp.nic.is_some() {
        return None;
    }
    crate::zero_load::ZeroLoad::new(v.exp.topology.link_latency as u64, c0.input_buffer_depth() as u64, c0.output_buffer_depth() as u64)
}

fn hop_table(net: &crate::topology::Network) -> Vec<u8> {
    let n = net.endpoints();
    if net.routers < 2 || n > 512 {
        return Vec::new();
    }
    (0..n * n).map(|i| net.path(i / n, i % n).map_or(0, |p| (p.len() - 1).min(255) as u8)).collect()
}

/// Runs an experiment.
/// Runs an experiment, on [`Wide`] routers if a router has more than 32
/// ports (simulation only: the RTL holds 32).
pub fn run(v: &Validated) -> Result<Results, SimError> {
    if v.configs.iter().any(|c| c.ports() > Narrow::PORTS) {
        return Sim::<Wide>::with_width(v)?.run();
    }
    Sim::new(v)?.run()
}

#[cfg(test)]
mod segmentation_tests;
#[cfg(test)]
mod hop_parts_tests;
#[cfg(test)]
mod header_parts_tests;

#[cfg(test)]
mod tag_tests;

#[cfg(test)]
mod source_preemption_tests;

#[cfg(test)]
mod cause_split_tests;

/// The mask of VCs 0..n (all 32 from n = 32).
fn lowest_vcs(n: u32) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// Source VC masks per class (0 best effort, 1 real time, top control)
/// with `workload.control_source_vcs = ctl` and `realtime_source_vcs = rt`:
/// control on VCs 0..ctl, real time on ctl..ctl + rt, best effort on the
/// rest of the `m`, no VC shared, as the non-preemptive partition
/// (`partition_from_ratio`) puts control lowest and real time next.
/// Validation keeps ctl + rt below m and 3 classes.
fn exclusive_source_vcs(ctl: u32, rt: u32, m: usize, classes: u8) -> Vec<u32> {
    let all = lowest_vcs(m as u32);
    let (ctl_mask, below_be) = (lowest_vcs(ctl), lowest_vcs(ctl + rt));
    (0..classes).map(|c| if c == 0 { all & !below_be } else if c == classes - 1 { ctl_mask } else { below_be & !ctl_mask }).collect()
}

/// `stream_vc`'s entry of a flow that may take any idle VC of its class.
const ANY_VC: u8 = u8::MAX;

/// `workload.source_vc_choice = "per_stream"`: per flow, the VC of a
/// real-time stream (video or ON/OFF), drawn uniformly from the `m` VCs its
/// class may use (`class_vcs`), or `ANY_VC`. The draws use an RNG of their
/// own, so the traffic is the same as with the other choices.
fn bind_streams(flows: &[workload::Flow], class_vcs: &[u32], m: usize, seed: u64) -> Vec<u8> {
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5354_5245_414d);
    flows
        .iter()
        .map(|f| match f.kind {
            FlowKind::Stream { .. } | FlowKind::OnOff { .. } => {
                let vcs: Vec<u8> = (0..m.min(32)).filter(|&v| class_vcs[f.class as usize] >> v & 1 == 1).map(|v| v as u8).collect();
                vcs[rng.gen_range(0..vcs.len())]
            }
            _ => ANY_VC,
        })
        .collect()
}

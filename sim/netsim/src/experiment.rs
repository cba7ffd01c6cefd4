//! The experiment file (TOML): router, topology, physical units, workload,
//! run length. Unknown keys are errors; every error names the file and field.

use crate::topology::TopologySpec;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use wormqos_config::{ConfigFile, RouterConfig, RouterParams, SynthesisParams, Topology};

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub name: String,
    pub router: RouterParams,
    pub topology: TopologySection,
    #[serde(default)]
    pub physical: Physical,
    pub workload: Workload,
    #[serde(default)]
    pub run: Run,
    #[serde(default)]
    pub model: Model,
    /// The NIC at every endpoint (`crate::nic`); none: the original sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic: Option<crate::nic::NicSpec>,
    /// New routing tables for a programmable network (`router.routing =
    /// "programmable"`): checked (`crate::cdg`) and turned into the write
    /// sequence of the routers' write ports (docs/integration.md, "Changing
    /// routes at run time").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconfigure: Option<Reconfigure>,
    /// Only in sweep files: dotted key -> list of values (see `sweep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<toml::Table>,
}

/// The `[reconfigure]` section: the routing tables to write at run time,
/// either another topology's (`topology = { kind = … }`, built on this
/// network's wiring, which must be the same) or written out (`routes`:
/// one row per router, an output port per destination code; `route_vcs`:
/// optional, the allowed output VC masks, default every VC).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reconfigure {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<TopologySpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routes: Option<Vec<Vec<u32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_vcs: Option<Vec<Vec<u32>>>,
    /// The cycle at which the safe procedure starts (its quiesce: from this
    /// cycle on no source starts a message), for `sim` and `cosim` alike;
    /// default: half of the run's injection cycles (`sim`: `run.cycles`,
    /// `cosim`: `--cycles`). Allowed range 0..=`run.cycles` − 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_cycle: Option<u64>,
    /// Cycles the network may take to drain after `at_cycle` before the
    /// simulator gives up with an error (a deadlock or a source that never
    /// finishes its message must not hang the run).
    #[serde(default = "default_drain_limit")]
    pub drain_limit: u64,
}

fn default_drain_limit() -> u64 {
    100_000
}

/// Cycles the safe procedure waits after the drain for the last credits to
/// come home before the first table write (docs/integration.md, step 3):
/// the same for the simulator's engine and the lockstep of `cosim`.
pub fn settle_cycles(link_latency: u32) -> u64 {
    16 + 2 * link_latency as u64
}

/// Checked tables of a `[reconfigure]` section: per router and destination
/// code, the output port and the allowed output VCs.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTables {
    pub routes: Vec<Vec<u32>>,
    pub avc: Vec<Vec<u32>>,
    /// `reconfigure.at_cycle` as written (`None`: half of the run).
    pub at_cycle: Option<u64>,
    /// `reconfigure.drain_limit`.
    pub drain_limit: u64,
}

impl NewTables {
    /// The writes that turn the routers' configured tables (`configs`) into
    /// these: one per entry that differs, router by router, code by code.
    pub fn writes(&self, configs: &[RouterConfig]) -> Vec<wormqos_sim::RouteWrite> {
        let mut w = Vec::new();
        for (r, c) in configs.iter().enumerate() {
            for (code, (&port, &avc)) in self.routes[r].iter().zip(&self.avc[r]).enumerate() {
                if c.route(code as u64) as u32 != port || c.route_vcs(code as u64) != avc {
                    w.push(wormqos_sim::RouteWrite { router: r as u32, code: code as u32, port, avc });
                }
            }
        }
        w
    }
}

/// The `[topology]` section: the network (`kind` and its fields) and the
/// latency of its router-to-router links, which the simulator, the composed
/// model and the generated network top all take from here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopologySection {
    /// Pipeline registers on every router-to-router link, for the flits
    /// going forward and, separately, for the credits coming back
    /// (0..=`bounds::LINK_LATENCY`, default 0): a flit on a router's output
    /// in cycle t is on its neighbour's input in cycle t + link_latency, and
    /// a credit likewise. Endpoint links have none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub link_latency: u32,
    /// What the generated network top (`wormqos generate --experiment`)
    /// has at each endpoint: the raw flit/credit port of a router top, or
    /// the NIC of docs/nic.md with its host ports brought out (configured
    /// by the `[nic]` section, which `"nic"` requires). The simulator's
    /// endpoints are chosen by the `[nic]` section alone.
    #[serde(default, skip_serializing_if = "EndpointPorts::is_raw")]
    pub endpoint_ports: EndpointPorts,
    /// `kind` and its fields; unknown keys are refused by `TopologySpec`.
    #[serde(flatten)]
    pub spec: TopologySpec,
}

/// `topology.endpoint_ports`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndpointPorts {
    /// The router port's flit and credit wires (docs/integration.md).
    #[default]
    Raw,
    /// A NIC per endpoint, its AXI host ports brought out (docs/nic.md §16).
    Nic,
}

impl EndpointPorts {
    pub fn is_raw(&self) -> bool {
        *self == EndpointPorts::Raw
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Simulator-only choices that are not router configurations: nothing here
/// reaches the RTL generator.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    #[serde(default)]
    pub scheduler: ModelScheduler,
    /// `realtime = "poisson"`: relative message rates of the real-time
    /// classes R1, R2, … (R1 = the top class, each class its own VCs);
    /// with `realtime = "on_off"`: one set of `workload.onoff_streams`
    /// ON/OFF streams per class at these relative rates (000_… Fig. 12),
    /// without it one ON/OFF class;
    /// default [2, 1], 000_… §4's R2 at half R1's rate. 000_… §4 with three
    /// classes: [1, 0.6667, 0.5] (R2, R3 at 1.5 and 2 times R1's gap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_rates: Option<Vec<f64>>,
    /// `realtime = "poisson"` (or per-class ON/OFF): each class's Vtick is this times 1/(λ_c M)
    /// (default 1; < 1 reserves more bandwidth than the class uses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vtick_scale: Option<f64>,
    /// 004_…: the paper's packet length in bits (2 KB = 16384), so that
    /// `wormqos model` reports times in its units: one flit time =
    /// packet_bits / (best effort's) message length / physical.link_mbps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_bits: Option<f64>,
    /// 004_…'s ring models (`wormqos model` only): the form of Eq. (8)'s
    /// source segmentation queue, `"md1"` (default, the paper's) or
    /// `"mg1"` (Pollaczek–Khinchine with the service's spread over the hop
    /// count, `analytic::multilink_ring`).
    #[serde(default, skip_serializing_if = "SourceQueueModel::is_md1")]
    pub source_queue: SourceQueueModel,
    /// `"pcs"`: the model-only pipelined-circuit-switching set-up model of
    /// 001_… Table VI (`crate::pcs`) instead of the wormhole routers.
    #[serde(default, skip_serializing_if = "Switching::is_wormhole")]
    pub switching: Switching,
    /// `switching = "pcs"`: independent replications (`crate::pcs::PCS_REPLICATIONS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcs_replications: Option<u32>,
    /// `switching = "pcs"`: VCs per link of the PCS switch (one per
    /// connection; 001_… Table IV: 24), not bound by the wormhole router's
    /// `router.vcs` range (`crate::pcs::PCS_VCS`); default `router.vcs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcs_vcs: Option<u32>,
    /// Count the routers' point-A census (`wormqos_sim::PointACensus`:
    /// lower-class candidates over a ready higher class, by acceleration
    /// or order, won or lost at B) into `Results::point_a_census`. The
    /// preemptive router with the single-pass allocator only; model only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub point_a_census: bool,
}

/// `model.switching`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Switching {
    /// The wormhole routers of the golden model.
    #[default]
    Wormhole,
    /// Model-only pipelined circuit switching (`crate::pcs`): no RTL.
    Pcs,
}

impl Switching {
    pub fn is_wormhole(&self) -> bool {
        *self == Switching::Wormhole
    }
}

impl Model {
    /// Shares of the real-time messages per class R1, R2, … (sum 1).
    pub fn realtime_shares(&self) -> Vec<f64> {
        let r = self.realtime_rates.clone().unwrap_or_else(|| vec![2.0, 1.0]);
        let total: f64 = r.iter().sum();
        r.iter().map(|x| x / total).collect()
    }
}

/// `model.source_queue`: Eq. (8) of 004_… as the paper writes it (M/D/1)
/// or as M/G/1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceQueueModel {
    /// Every packet served for the mean t̄_s (the paper's M/D/1).
    #[default]
    Md1,
    /// The service spread over the ring's hop counts (M/G/1).
    Mg1,
}

impl SourceQueueModel {
    pub fn is_md1(&self) -> bool {
        *self == SourceQueueModel::Md1
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelScheduler {
    /// The routers run `router.scheduler`, as the RTL would.
    #[default]
    Router,
    /// Fine-Grained Fair Queueing (docs/microarchitecture.md §10) in place of
    /// the configured Fine-Grained VirtualClock: a model-only comparison
    /// (001_… Table II), never lockstep-checked.
    Fgfq,
    /// Flit-level Weighted Round Robin (docs/microarchitecture.md §10.4) in
    /// place of Fine-Grained VirtualClock: a model-only comparison (000_…
    /// Fig. 6), never lockstep-checked.
    Wrr,
}

/// Physical units: the cycle time is one flit time on a link.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Physical {
    /// Link bandwidth in Mbit/s (one flit of `router.flit_width` bits per cycle).
    #[serde(default = "default_link_mbps")]
    pub link_mbps: f64,
}

fn default_link_mbps() -> f64 {
    400.0
}

impl Default for Physical {
    fn default() -> Self {
        Physical { link_mbps: default_link_mbps() }
    }
}

/// How a source without a `[nic]` section picks the VC of a message among
/// the idle VCs its class may use (`workload.source_vc_choice`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceVcChoice {
    /// The lowest-numbered idle VC (every run before issue 23's trace).
    #[default]
    Lowest,
    /// One of them drawn uniformly, 003_… §4.2 ("assigned from among the
    /// available VCs using a uniform distribution").
    Uniform,
    /// The one with the most credits (the emptiest router input buffer),
    /// the lowest-numbered among equals.
    MostCredits,
    /// Each real-time stream is bound when the run starts to one VC drawn
    /// uniformly from its class's VCs and sends only on it, 003_… §4.2
    /// ("Once the input VC for a connection is determined, … the destination
    /// VC is also assigned from among the available VCs using a uniform
    /// distribution"); a source starts, in queue order, every queued message
    /// whose VC is idle, so each VC is a FCFS queue of its streams'
    /// messages (§4.3: "The NIC buffer behaves as FCFS queues for the
    /// different VCs"). Other messages take the lowest idle VC of their class.
    PerStream,
}

impl SourceVcChoice {
    fn is_lowest(&self) -> bool {
        *self == SourceVcChoice::Lowest
    }
}

/// What a source without a `[nic]` section does when a real-time or control
/// message needs a source VC that its own best-effort message holds
/// (`workload.source_preemption`, docs/microarchitecture.md §9.4 *A source
/// preempting its own best effort*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourcePreemption {
    /// The message waits until the best-effort message's tail has left
    /// (every run before this option).
    #[default]
    None,
    /// Preemptive router only: the source suspends the best-effort message
    /// (a dummy tail if its header has left), sends the higher-class
    /// message, then resumes it behind a dummy header, as a P router's
    /// input buffer does.
    BestEffort,
}

impl SourcePreemption {
    fn is_none(&self) -> bool {
        *self == SourcePreemption::None
    }
}

/// The queues a source without a `[nic]` section keeps in front of the
/// network (`workload.source_queues`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceQueues {
    /// One FIFO per traffic class; its front message takes any idle VC of
    /// its class, so a source sends several messages at once, interleaved
    /// flit by flit (every run before issue 22's Fig. 9 rerun).
    #[default]
    PerClass,
    /// 004_… §4.1.1's segmentation queues: one FIFO per direction (the
    /// neighbour router the message's first hop leads to; messages to an
    /// endpoint of the source's own router share one more), all classes in
    /// creation order, each serving one message at a time from taking its
    /// VC until its tail flit has left the source.
    PerDirectionUntilTailSent,
    /// The same queues, each message served until its tail is delivered
    /// (Eq. 7's t̄_s: "the delay the header flit takes to reach the
    /// destination plus the time required to receive the rest of the flits").
    PerDirectionUntilDelivered,
}

impl SourceQueues {
    fn is_default(&self) -> bool {
        *self == SourceQueues::PerClass
    }

    /// One queue per direction, and whether a message holds it until its
    /// tail is delivered (else until its tail has been sent).
    pub fn per_direction(&self) -> Option<bool> {
        match self {
            SourceQueues::PerClass => None,
            SourceQueues::PerDirectionUntilTailSent => Some(false),
            SourceQueues::PerDirectionUntilDelivered => Some(true),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RealTime {
    None,
    Cbr,
    Vbr,
    Mpeg2,
    Trace,
    OnOff,
    /// 000_… §4: two real-time types R1 (2/3 of the real-time messages) and
    /// R2 (1/3, twice the inter-generation time), Poisson arrivals, uniform
    /// destinations, Vtick = 1/(λ M) for each type; with >= 3 classes R1 is
    /// the top class and R2 the next, and each class gets its own VCs.
    Poisson,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BestEffort {
    None,
    Poisson,
    Bernoulli,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Offered load per endpoint as a fraction of link bandwidth (0..=1),
    /// header flits included.
    pub load: f64,
    /// Real-time : best-effort split of the load (x:y, 001_… §IV-B.3).
    #[serde(default = "default_mix", deserialize_with = "mix_pair")]
    pub mix: [f64; 2],
    #[serde(default = "default_rt")]
    pub realtime: RealTime,
    #[serde(default = "default_be")]
    pub best_effort: BestEffort,
    /// Flits per message, header included (001_…: 20 or 40).
    #[serde(default = "default_msg")]
    pub message_flits: u32,
    /// Flits per message of each traffic class (index = class, 0 = best
    /// effort), replacing `message_flits` for that class's sources (000_…
    /// Fig. 10: best effort M = 64 beside real time M = 32). Control
    /// messages keep `control_flits`. Default: `message_flits` for every class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_flits_by_class: Option<Vec<u32>>,
    #[serde(default = "default_frame_bytes")]
    pub frame_bytes: f64,
    /// Standard deviation of the synthetic VBR frame size.
    #[serde(default = "default_frame_sd")]
    pub frame_sd_bytes: f64,
    #[serde(default = "default_fps")]
    pub frames_per_second: f64,
    /// MPEG-2 sequences (1..=7 of 001_… Table III) assigned to streams in turn.
    #[serde(default = "default_seqs")]
    pub mpeg2_sequences: Vec<u32>,
    #[serde(default = "default_gop")]
    pub gop: String,
    /// Where each MPEG-2 stream starts its GOP (`"aligned"`, the default:
    /// at its I frame; `"staggered"`: a source's stream s at position
    /// s mod the GOP's length); only with `realtime = "mpeg2"`
    /// (`workload::GopPhase`).
    #[serde(default, skip_serializing_if = "crate::workload::GopPhase::is_aligned")]
    pub gop_phase: crate::workload::GopPhase,
    /// Frame-size trace for `realtime = "trace"`, relative to the experiment
    /// file; a source's stream s replays it cyclically from frame 7s mod its
    /// length (`offered::TRACE_START_STRIDE`).
    #[serde(default)]
    pub trace_file: Option<PathBuf>,
    /// Input regulator (001_… §IV-B.1): a frame's messages spaced evenly
    /// over the frame time, starting at its start (`"slot_start"` or `true`,
    /// the default) or ending at its end (`"slot_end"`); `"none"` or `false`
    /// releases them all at the frame start (`workload::Regulator`).
    #[serde(default)]
    pub regulator: crate::workload::Regulator,
    /// Most fixed-destination real-time streams (video or ON/OFF) one
    /// endpoint receives, 001_… §IV-B.3 ("at most 6 × 8 = 48
    /// outstanding/incoming streams at each node"); none: no cap, each
    /// stream's destination drawn independently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_streams_per_destination: Option<u32>,
    /// Preemptive router only: real time and control enter the network on
    /// the lowest this many VCs of their source (default: on any VC, the
    /// router preempting best effort, 003_… §4.2). For tracing how much of
    /// P's behaviour comes from spreading real time over every VC (issue
    /// 23: docs/reproduction.md, 003_… Fig. 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_source_vcs: Option<u32>,
    /// Preemptive router only, with `realtime_source_vcs`: the classes get
    /// source VCs of their own, as the non-preemptive router's partition
    /// gives them: control alone on the lowest this many, real time on the
    /// next `realtime_source_vcs`, best effort on the rest (default:
    /// control shares real time's VCs and best effort keeps the first mix's
    /// share, which may overlap them). For matching NP's source binding
    /// exactly (issue 23: docs/reproduction.md, "Why real time on 3 source
    /// VCs queues in 80:20").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_source_vcs: Option<u32>,
    /// Which idle VC of its class a source gives a message (`lowest`, the
    /// default; `uniform`; `most_credits`; `per_stream`): see [`SourceVcChoice`].
    #[serde(default, skip_serializing_if = "SourceVcChoice::is_lowest")]
    pub source_vc_choice: SourceVcChoice,
    /// Whether a source preempts its own best-effort message for a
    /// higher-class one that needs its VC (`none`, the default;
    /// `best_effort`): see [`SourcePreemption`].
    #[serde(default, skip_serializing_if = "SourcePreemption::is_none")]
    pub source_preemption: SourcePreemption,
    /// The sources' queues (`per_class`, the default;
    /// `per_direction_until_tail_sent`; `per_direction_until_delivered`):
    /// see [`SourceQueues`]. Not with a `[nic]` section.
    #[serde(default, skip_serializing_if = "SourceQueues::is_default")]
    pub source_queues: SourceQueues,
    /// One control message (highest class) per frame time per endpoint.
    #[serde(default)]
    pub control: bool,
    #[serde(default = "default_control_flits")]
    pub control_flits: u32,
    /// ON/OFF real-time sources: mean messages per ON burst and mean OFF time.
    #[serde(default = "default_onoff_msgs")]
    pub onoff_mean_messages: f64,
    #[serde(default = "default_onoff_off")]
    pub onoff_mean_off_us: f64,
    #[serde(default = "default_onoff_streams")]
    pub onoff_streams: u32,
    /// Dynamic workload: a list of x:y mixes, each held for `phase_seconds`
    /// (003_… §4.2: 20:80 -> 30:70 -> 50:50 -> 70:30 -> 80:20).
    #[serde(default, deserialize_with = "mix_pairs")]
    pub phases: Vec<[f64; 2]>,
    #[serde(default)]
    pub phase_seconds: Option<f64>,
}

/// A mix is exactly two numbers (real time, best effort): a third value
/// would otherwise be dropped without a word.
fn pair<E: serde::de::Error>(v: Vec<f64>) -> Result<[f64; 2], E> {
    <[f64; 2]>::try_from(v.as_slice()).map_err(|_| {
        E::custom(format!("{v:?} has {} values: a mix is exactly 2, [real time, best effort]", v.len()))
    })
}

fn mix_pair<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
    pair(Vec::<f64>::deserialize(d)?)
}

fn mix_pairs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<[f64; 2]>, D::Error> {
    Vec::<Vec<f64>>::deserialize(d)?.into_iter().map(pair).collect()
}

impl Workload {
    /// Flits per message of traffic class `class` (`message_flits_by_class`,
    /// else `message_flits`).
    pub fn class_flits(&self, class: u8) -> u32 {
        self.message_flits_by_class.as_ref().and_then(|v| v.get(class as usize)).copied().unwrap_or(self.message_flits)
    }
}

fn default_mix() -> [f64; 2] {
    [100.0, 0.0]
}
fn default_rt() -> RealTime {
    RealTime::Vbr
}
fn default_be() -> BestEffort {
    BestEffort::Poisson
}
fn default_msg() -> u32 {
    20
}
fn default_frame_bytes() -> f64 {
    16_666.0
}
fn default_frame_sd() -> f64 {
    3_333.0
}
fn default_fps() -> f64 {
    30.0
}
fn default_seqs() -> Vec<u32> {
    (1..=7).collect()
}
fn default_gop() -> String {
    "IBBPBBPBBPBB".into()
}
fn default_control_flits() -> u32 {
    20
}
fn default_onoff_msgs() -> f64 {
    10.0
}
fn default_onoff_off() -> f64 {
    1000.0
}
fn default_onoff_streams() -> u32 {
    14
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Simulated time; `cycles` wins when both are given.
    #[serde(default)]
    pub seconds: Option<f64>,
    #[serde(default)]
    pub cycles: Option<u64>,
    /// Warm-up discarded from every metric (messages created before it).
    #[serde(default)]
    pub warmup_seconds: Option<f64>,
    #[serde(default)]
    pub warmup_cycles: Option<u64>,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default = "default_batches")]
    pub batches: usize,
    /// The stall watchdog fires when flits are buffered but none moved for
    /// this many cycles.
    #[serde(default = "default_stall")]
    pub stall_cycles: u64,
    /// After the measured time, keep simulating (no new messages) up to this
    /// many cycles so that in-flight messages drain; 0 = stop at once.
    #[serde(default)]
    pub drain_cycles: u64,
}

fn default_seed() -> u64 {
    1
}
fn default_batches() -> usize {
    10
}
fn default_stall() -> u64 {
    100_000
}

impl Default for Run {
    fn default() -> Self {
        Run {
            seconds: None,
            cycles: Some(100_000),
            warmup_seconds: None,
            warmup_cycles: None,
            seed: 1,
            batches: 10,
            stall_cycles: default_stall(),
            drain_cycles: 0,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    #[error("{file}: {field} = {value}: {why}")]
    Field { file: String, field: String, value: String, why: String },
    /// A frame-size trace is malformed; the message names its file and line.
    #[error("{0}")]
    Trace(String),
    /// The file cannot be read (or is too large); the message names it.
    #[error("{0}")]
    Read(String),
}

/// Documented bounds of the experiment's numbers (README, "Network simulator").
pub mod bounds {
    /// Longest run (warm-up + measured + drain), in cycles.
    pub const MAX_CYCLES: u64 = 10_000_000_000;
    /// Link bandwidth, Mbit/s.
    pub const LINK_MBPS: (f64, f64) = (0.001, 1e7);
    /// Frame rate of the video streams, frames/s.
    pub const FPS: (f64, f64) = (0.001, 1e4);
    /// Mean (and standard deviation of the) frame size, bytes.
    pub const FRAME_BYTES: (f64, f64) = (1.0, 1e9);
    /// ON/OFF sources: mean messages per burst, mean OFF time in µs, streams per endpoint.
    pub const ONOFF_MESSAGES: (f64, f64) = (1.0, 1e6);
    pub const ONOFF_OFF_US: (f64, f64) = (0.001, 1e9);
    pub const ONOFF_STREAMS: (u32, u32) = (1, 1024);
    /// Phases of a dynamic workload.
    pub const PHASES: usize = 64;
    /// MPEG-2 sequence list and GOP pattern lengths.
    pub const LIST: usize = 1024;
    /// Pipeline registers per router-to-router link and direction
    /// (`topology.link_latency`), as the network top can generate them.
    pub const LINK_LATENCY: u32 = 16;
    /// Largest network: routers x endpoints routing-table entries (each
    /// router holds one entry per endpoint, 4 bytes, several copies).
    pub const ROUTE_ENTRIES: u64 = 4 << 20;
}

/// A validated experiment: the router configuration per router is derived
/// from it (`router_config`).
#[derive(Clone, Debug)]
pub struct Validated {
    pub exp: Experiment,
    pub file: String,
    /// Directory that relative paths in the file are resolved against.
    pub dir: PathBuf,
    pub net: crate::topology::Network,
    pub configs: Vec<RouterConfig>,
    /// Seconds per cycle.
    pub cycle_s: f64,
    /// The frame sizes (bits) of `workload.trace_file`, read once.
    pub trace: Option<std::sync::Arc<Vec<f64>>>,
    /// The checked `[reconfigure]` tables, if any.
    pub reconfigure: Option<NewTables>,
}

impl ExperimentError {
    /// Adds the line of the offending field (`file:line`) when `text` has it.
    pub fn located(self, text: &str) -> ExperimentError {
        match self {
            ExperimentError::Field { file, field, value, why } => {
                let file = wormqos_config::files::at(&file, text, &field);
                ExperimentError::Field { file, field, value, why }
            }
            other => other,
        }
    }
}

impl Validated {
    /// Total cycles of the injection window and warm-up cycles within it:
    /// `run.cycles` (else `run.seconds`, else 0.01 s) and `run.warmup_cycles`
    /// (else `run.warmup_seconds`, else a tenth), as the simulator runs them.
    pub fn run_cycles(&self) -> (u64, u64) {
        let run = &self.exp.run;
        let total = run.cycles.unwrap_or_else(|| (run.seconds.unwrap_or(0.01) / self.cycle_s).round() as u64);
        let warmup = run.warmup_cycles.or(run.warmup_seconds.map(|s| (s / self.cycle_s).round() as u64)).unwrap_or(total / 10).min(total);
        (total, warmup)
    }

    /// The cycle at which the engine starts the safe procedure of the
    /// `[reconfigure]` section: `reconfigure.at_cycle`, else half of the
    /// injection cycles.
    pub fn reconfigure_at(&self) -> Option<u64> {
        self.reconfigure.as_ref().map(|t| t.at_cycle.unwrap_or(self.run_cycles().0 / 2))
    }

    /// `reconfigure.at_cycle` falls in the injection window and
    /// `reconfigure.drain_limit` is a bounded, nonzero wait.
    fn check_reconfigure_timing(&self) -> Result<(), ExperimentError> {
        let Some(t) = &self.reconfigure else { return Ok(()) };
        let ferr = |field: &str, value: u64, why: String| ExperimentError::Field { file: self.file.clone(), field: field.to_string(), value: value.to_string(), why };
        let (total, _) = self.run_cycles();
        if let Some(at) = t.at_cycle {
            if at >= total {
                return Err(ferr("reconfigure.at_cycle", at, format!("the cycle the sources stop starting messages, within the run's {total} injection cycles: allowed range 0..={}", total - 1)));
            }
        }
        let max = bounds::MAX_CYCLES;
        if !(1..=max).contains(&t.drain_limit) {
            return Err(ferr("reconfigure.drain_limit", t.drain_limit, format!("cycles the network may take to drain: allowed range 1..={max}")));
        }
        Ok(())
    }

    /// `workload.realtime_source_vcs` within 1..=router.vcs, and only where
    /// real time may use any VC (the preemptive mode).
    fn check_realtime_source_vcs(&self) -> Result<(), ExperimentError> {
        let Some(n) = self.exp.workload.realtime_source_vcs else { return Ok(()) };
        let err = |why: String| ExperimentError::Field { file: self.file.clone(), field: "workload.realtime_source_vcs".into(), value: n.to_string(), why };
        let cfg = &self.configs[0];
        if cfg.qos().preemption().is_none() {
            return Err(err("only with router.mode = \"preemptive\" (the other modes fix the source VCs by their partition or the mix): allowed values: none".into()));
        }
        if self.exp.workload.realtime == RealTime::Poisson {
            return Err(err("not with workload.realtime = \"poisson\" (000_…'s sources keep one VC group per class): allowed values: none".into()));
        }
        let vcs = cfg.vcs() as u32;
        if !(1..=vcs).contains(&n) {
            return Err(err(format!("source VCs for real time and control: allowed range 1..={vcs} (router.vcs)")));
        }
        Ok(())
    }

    /// `workload.control_source_vcs` only under the preemptive router, with
    /// control messages, a control class of their own and
    /// `workload.realtime_source_vcs`, and leaving best effort one VC or more:
    /// within 1..=router.vcs - realtime_source_vcs - 1.
    fn check_control_source_vcs(&self) -> Result<(), ExperimentError> {
        let w = &self.exp.workload;
        let Some(c) = w.control_source_vcs else { return Ok(()) };
        let err = |why: String| ExperimentError::Field { file: self.file.clone(), field: "workload.control_source_vcs".into(), value: c.to_string(), why };
        let cfg = &self.configs[0];
        if cfg.qos().preemption().is_none() {
            return Err(err("only with router.mode = \"preemptive\" (the other modes fix the source VCs by their partition): allowed values: none".into()));
        }
        if !w.control || cfg.traffic_classes() < 3 {
            return Err(err("only with workload.control = true and a control class of its own (3 traffic classes): allowed values: none".into()));
        }
        let Some(n) = w.realtime_source_vcs else {
            return Err(err("needs workload.realtime_source_vcs (real time's VCs, above control's): allowed values: none without it".into()));
        };
        let vcs = cfg.vcs() as u32;
        let most = vcs.saturating_sub(n + 1);
        if !(1..=most).contains(&c) {
            return Err(err(format!("source VCs for control alone, below real time's {n} and leaving best effort one or more: allowed range 1..={most} (router.vcs {vcs} - workload.realtime_source_vcs {n} - 1)")));
        }
        Ok(())
    }

    /// `workload.source_queues` other than `per_class` only where the
    /// sources queue without the `[nic]` model (which has its own queues).
    fn check_source_queues(&self) -> Result<(), ExperimentError> {
        let q = self.exp.workload.source_queues;
        if q.per_direction().is_none() || self.exp.nic.is_none() {
            return Ok(());
        }
        let value = serde_json::to_value(q).map_or_else(|_| format!("{q:?}"), |v| v.to_string());
        Err(ExperimentError::Field {
            file: self.file.clone(),
            field: "workload.source_queues".into(),
            value,
            why: "a [nic] section models the sources' queues itself: allowed values with [nic]: \"per_class\" (or remove [nic])".into(),
        })
    }

    /// `workload.source_vc_choice = "per_stream"` only where there are
    /// streams to bind and the sources queue per class without the `[nic]`
    /// model (which picks VCs itself, `nic.vc_choice`).
    fn check_source_vc_choice(&self) -> Result<(), ExperimentError> {
        let w = &self.exp.workload;
        if w.source_vc_choice != SourceVcChoice::PerStream {
            return Ok(());
        }
        let err = |why: &str| ExperimentError::Field { file: self.file.clone(), field: "workload.source_vc_choice".into(), value: "\"per_stream\"".into(), why: why.into() };
        if matches!(w.realtime, RealTime::None | RealTime::Poisson) {
            return Err(err("binds real-time streams to VCs: needs workload.realtime = \"cbr\", \"vbr\", \"mpeg2\", \"trace\" or \"on_off\"; allowed values here: \"lowest\", \"uniform\", \"most_credits\""));
        }
        if self.exp.nic.is_some() || w.source_queues.per_direction().is_some() {
            return Err(err("only with one source queue per class and no [nic] section (the [nic] model picks VCs itself: nic.vc_choice); allowed values here: \"lowest\", \"uniform\", \"most_credits\""));
        }
        Ok(())
    }

    /// `workload.source_preemption = "best_effort"` only where best effort
    /// shares source VCs with the higher classes and a router takes a
    /// preempting header (the preemptive mode), and only with one source
    /// queue per class and no `[nic]` model (which sends on its own rules).
    fn check_source_preemption(&self) -> Result<(), ExperimentError> {
        let w = &self.exp.workload;
        if w.source_preemption == SourcePreemption::None {
            return Ok(());
        }
        let err = |why: &str| ExperimentError::Field { file: self.file.clone(), field: "workload.source_preemption".into(), value: "\"best_effort\"".into(), why: why.into() };
        if self.configs[0].qos().preemption().is_none() {
            return Err(err("only with router.mode = \"preemptive\" (the other modes keep the classes on disjoint VCs and their routers take no preempting header): allowed values here: \"none\""));
        }
        if self.exp.nic.is_some() || w.source_queues.per_direction().is_some() {
            return Err(err("only with one source queue per class and no [nic] section (the [nic] model sends on its own rules); allowed values here: \"none\""));
        }
        Ok(())
    }

    /// Run lengths are finite, bounded and leave something to measure.
    fn check_run_length(&self) -> Result<(), ExperimentError> {
        let r = &self.exp.run;
        let ferr = |field: &str, value: String, why: String| ExperimentError::Field { file: self.file.clone(), field: field.to_string(), value, why };
        let max = bounds::MAX_CYCLES;
        let max_s = max as f64 * self.cycle_s;
        for (field, v) in [("run.seconds", r.seconds), ("run.warmup_seconds", r.warmup_seconds)] {
            if let Some(s) = v {
                let warm = field == "run.warmup_seconds";
                if !(s.is_finite() && s <= max_s && (s > 0.0 || (warm && s == 0.0))) {
                    let lo = if warm { "0" } else { "above 0 " };
                    return Err(ferr(field, s.to_string(), format!("allowed range {lo}..= {max_s:.4e} s ({max} cycles of {:.3} ns)", self.cycle_s * 1e9)));
                }
            }
        }
        for (field, v, lo) in [("run.cycles", r.cycles, 1), ("run.warmup_cycles", r.warmup_cycles, 0)] {
            if let Some(c) = v {
                if !(lo..=max).contains(&c) {
                    return Err(ferr(field, c.to_string(), format!("allowed range {lo}..={max}")));
                }
            }
        }
        if !(1..=max).contains(&r.stall_cycles) {
            return Err(ferr("run.stall_cycles", r.stall_cycles.to_string(), format!("allowed range 1..={max}")));
        }
        if r.drain_cycles > max {
            return Err(ferr("run.drain_cycles", r.drain_cycles.to_string(), format!("allowed range 0..={max}")));
        }
        let (total, warmup) = self.run_cycles();
        if total == 0 {
            let (f, v) = if r.cycles.is_some() { ("run.cycles", "0".to_string()) } else { ("run.seconds", r.seconds.map_or("0.01 (default)".into(), |s| s.to_string())) };
            return Err(ferr(f, v, format!("the run is shorter than one cycle ({:.3} ns)", self.cycle_s * 1e9)));
        }
        // Every batch of the 95 % intervals needs at least one measured cycle.
        if total - warmup < r.batches as u64 {
            let f = if r.warmup_cycles.is_some() { "run.warmup_cycles" } else { "run.warmup_seconds" };
            return Err(ferr(
                f,
                format!("{warmup} cycles of a {total}-cycle run"),
                format!("the warm-up must leave at least run.batches = {} measured cycles: allowed range 0..={}", r.batches, total - r.batches as u64),
            ));
        }
        Ok(())
    }
}

impl Experiment {
    /// Reads (at most `wormqos_config::files::MAX_INPUT_BYTES`) and validates an experiment file.
    pub fn from_file(path: &Path) -> Result<Validated, ExperimentError> {
        let file = path.display().to_string();
        let text = wormqos_config::files::read_capped(path).map_err(|message| ExperimentError::Read(message))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::from_str(&text, &file, dir)
    }

    pub fn from_str(text: &str, file: &str, dir: PathBuf) -> Result<Validated, ExperimentError> {
        let exp: Experiment =
            toml::from_str(text).map_err(|e| ExperimentError::Parse { file: file.to_string(), message: e.to_string() })?;
        exp.validate(file, dir).map_err(|e| e.located(text))
    }

    pub fn validate(self, file: &str, dir: PathBuf) -> Result<Validated, ExperimentError> {
        let ferr = |field: &str, value: String, why: String| ExperimentError::Field {
            file: file.to_string(),
            field: field.to_string(),
            value,
            why,
        };
        let w = &self.workload;
        let real = |field: &str, v: f64, (lo, hi): (f64, f64)| -> Result<(), ExperimentError> {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(ferr(field, v.to_string(), format!("allowed range {lo}..={hi}")))
            }
        };
        if !(w.load.is_finite() && w.load > 0.0 && w.load <= 1.0) && !(w.load == 0.0 && w.control) {
            return Err(ferr(
                "workload.load",
                w.load.to_string(),
                "a fraction of link bandwidth: allowed range 0..=1, above 0 (0 injects nothing) unless workload.control is on".into(),
            ));
        }
        if w.phases.len() > bounds::PHASES {
            return Err(ferr("workload.phases", format!("{} phases", w.phases.len()), format!("allowed 1..={} phases", bounds::PHASES)));
        }
        let mixes: Vec<[f64; 2]> = if w.phases.is_empty() { vec![w.mix] } else { w.phases.clone() };
        for (i, m) in mixes.iter().enumerate() {
            let f = if w.phases.is_empty() { "workload.mix".to_string() } else { format!("workload.phases[{i}]") };
            if m.iter().any(|v| !v.is_finite() || *v < 0.0) || m[0] + m[1] <= 0.0 {
                return Err(ferr(&f, format!("{m:?}"), "x:y with x, y >= 0 and x + y > 0".into()));
            }
            // A share that no source carries would vanish from the load while
            // the summary still reports it as offered.
            if m[0] > 0.0 && w.realtime == RealTime::None {
                return Err(ferr(&f, format!("{m:?}"), format!("{}% of the load is real time but workload.realtime = \"none\": give a real-time source or x = 0", pct(m, 0))));
            }
            if m[1] > 0.0 && w.best_effort == BestEffort::None {
                return Err(ferr(&f, format!("{m:?}"), format!("{}% of the load is best effort but workload.best_effort = \"none\": give a best-effort source or y = 0", pct(m, 1))));
            }
        }
        if !w.phases.is_empty() {
            match w.phase_seconds {
                Some(s) if s.is_finite() && s > 0.0 && s <= 1e6 => {}
                other => return Err(ferr("workload.phase_seconds", format!("{other:?}"), "required when workload.phases is given: allowed range above 0 ..= 1e6 s".into())),
            }
        }
        if !(2..=4096).contains(&w.message_flits) {
            return Err(ferr("workload.message_flits", w.message_flits.to_string(), "allowed range 2..=4096".into()));
        }
        if !(1..=4096).contains(&w.control_flits) {
            return Err(ferr("workload.control_flits", w.control_flits.to_string(), "allowed range 1..=4096".into()));
        }
        real("physical.link_mbps", self.physical.link_mbps, bounds::LINK_MBPS)?;
        real("workload.frames_per_second", w.frames_per_second, bounds::FPS)?;
        real("workload.frame_bytes", w.frame_bytes, bounds::FRAME_BYTES)?;
        real("workload.frame_sd_bytes", w.frame_sd_bytes, (0.0, bounds::FRAME_BYTES.1))?;
        real("workload.onoff_mean_messages", w.onoff_mean_messages, bounds::ONOFF_MESSAGES)?;
        real("workload.onoff_mean_off_us", w.onoff_mean_off_us, bounds::ONOFF_OFF_US)?;
        let (lo, hi) = bounds::ONOFF_STREAMS;
        if !(lo..=hi).contains(&w.onoff_streams) {
            return Err(ferr("workload.onoff_streams", w.onoff_streams.to_string(), format!("allowed range {lo}..={hi}")));
        }
        if w.mpeg2_sequences.len() > bounds::LIST || w.gop.len() > bounds::LIST {
            return Err(ferr("workload.mpeg2_sequences", format!("{} sequences, GOP of {}", w.mpeg2_sequences.len(), w.gop.len()), format!("at most {} of each", bounds::LIST)));
        }
        if w.realtime == RealTime::Mpeg2 {
            if w.mpeg2_sequences.is_empty() {
                return Err(ferr("workload.mpeg2_sequences", "[]".into(), "at least one of 1..=7".into()));
            }
            for (i, s) in w.mpeg2_sequences.iter().enumerate() {
                if !(1..=7).contains(s) {
                    return Err(ferr(&format!("workload.mpeg2_sequences[{i}]"), s.to_string(), "allowed range 1..=7 (001_… Table III)".into()));
                }
            }
            crate::workload::parse_gop(&w.gop).map_err(|e| ferr("workload.gop", format!("{:?}", w.gop), e))?;
        }
        if !w.gop_phase.is_aligned() && w.realtime != RealTime::Mpeg2 {
            return Err(ferr(
                "workload.gop_phase",
                "\"staggered\"".into(),
                format!("GOP phases exist only with realtime = \"mpeg2\" (is {:?}): {}", w.realtime, crate::workload::GopPhase::ALLOWED),
            ));
        }
        let mut trace = None;
        if w.realtime == RealTime::Trace {
            let Some(t) = &w.trace_file else {
                return Err(ferr("workload.trace_file", "missing".into(), "required with realtime = \"trace\"".into()));
            };
            trace = Some(std::sync::Arc::new(crate::workload::read_trace(&dir.join(t)).map_err(ExperimentError::Trace)?));
        }
        let comparison = match self.model.scheduler {
            ModelScheduler::Router => None,
            ModelScheduler::Fgfq => Some(("\"fgfq\"", "FGFQ")),
            ModelScheduler::Wrr => Some(("\"wrr\"", "WRR")),
        };
        if let Some((value, name)) = comparison.filter(|_| self.router.scheduler != wormqos_config::Scheduler::Virtualclock) {
            return Err(ferr(
                "model.scheduler",
                value.into(),
                format!(
                    "{name} replaces Fine-Grained VirtualClock at its scheduling points and needs router.scheduler = \"virtualclock\" (is {:?})",
                    self.router.scheduler
                ),
            ));
        }
        if self.model.point_a_census {
            let single_pass = self.router.switch_allocator.unwrap_or_default() == wormqos_config::SwitchAllocatorKind::SinglePass;
            if self.router.mode != wormqos_config::RouterMode::Preemptive || self.router.crossbar != wormqos_config::Crossbar::Multiplexed || !single_pass {
                return Err(ferr(
                    "model.point_a_census",
                    "true".into(),
                    format!(
                        "the census counts the single-pass allocation of the preemptive router: needs router.mode = \"preemptive\", crossbar = \"multiplexed\" and switch_allocator = \"single_pass\" (are {:?}, {:?}, {:?})",
                        self.router.mode, self.router.crossbar, self.router.switch_allocator.unwrap_or_default()
                    ),
                ));
            }
        }
        if let Some(x) = self.model.vtick_scale {
            if !(x.is_finite() && x > 0.0 && x <= 100.0) {
                return Err(ferr("model.vtick_scale", x.to_string(), "allowed range (0, 100]".into()));
            }
        }
        if let Some(x) = self.model.packet_bits {
            if !(x.is_finite() && (8.0..=1e9).contains(&x)) {
                return Err(ferr("model.packet_bits", x.to_string(), "allowed range 8..=1e9".into()));
            }
        }
        crate::pcs::validate(&self).map_err(|(field, value, why)| ferr(&field, value, why))?;
        if let Some(n) = &self.nic {
            n.validate().map_err(|(field, value, why)| ferr(&field, value, why))?;
            n.validate_hardware(self.topology.endpoint_ports).map_err(|(field, value, why)| ferr(&field, value, why))?;
        }
        if self.topology.endpoint_ports == EndpointPorts::Nic && self.nic.is_none() {
            return Err(ferr(
                "topology.endpoint_ports",
                "\"nic\"".into(),
                "a NIC at every endpoint needs the [nic] section that configures it: add one, or allowed values: \"raw\" (the default), \"nic\" with [nic]".into(),
            ));
        }
        let latency = self.topology.link_latency;
        if latency > bounds::LINK_LATENCY {
            return Err(ferr("topology.link_latency", latency.to_string(), format!("pipeline registers per link: allowed range 0..={}", bounds::LINK_LATENCY)));
        }
        if latency > 0 && matches!(self.topology.spec, TopologySpec::SingleSwitch) {
            return Err(ferr("topology.link_latency", latency.to_string(), "a single switch has no router-to-router links: allowed range 0..=0".into()));
        }
        let r = &self.run;
        if !(2..=32).contains(&r.batches) {
            return Err(ferr("run.batches", r.batches.to_string(), "allowed range 2..=32".into()));
        }
        // The router fields and the network's size are checked before the
        // network (one routing table per router over all endpoints) is built.
        let (routers, endpoints) = self.topology.spec.size();
        // Destination codes: endpoints, times the links of a source-block ring.
        let codes = endpoints.saturating_mul(self.topology.spec.codes_per_endpoint());
        let entries = routers.saturating_mul(codes);
        if entries > bounds::ROUTE_ENTRIES {
            return Err(ferr(
                "topology",
                format!("{routers} routers x {codes} destination codes"),
                format!(
                    "needs {entries} routing-table entries (about {} MiB); allowed up to {} entries (about 64 MiB)",
                    entries * 16 >> 20,
                    bounds::ROUTE_ENTRIES
                ),
            ));
        }
        let probe = ConfigFile {
            name: sanitize(&self.name, 0),
            router: self.router.clone(),
            topology: match self.topology.spec {
                TopologySpec::SingleSwitch => Topology::SingleSwitch { routes: None, route_vcs: None },
                _ => Topology::Network { routes: vec![0; codes.max(1) as usize], route_vcs: None, route_links: None },
            },
            synthesis: SynthesisParams::default(),
            nic: None,
        };
        let probe = RouterConfig::new_simulated(probe).map_err(|e| match e {
            wormqos_config::ConfigError::Field { field, value, allowed } => ferr(&field, value, allowed),
            other => ExperimentError::Parse { file: file.to_string(), message: other.to_string() },
        })?;
        let hw = probe.header().width();
        if crate::network::tag_bits(probe.flit_width(), hw) < 8 {
            return Err(ferr(
                "router.flit_width",
                self.router.flit_width.to_string(),
                format!("the simulator tags messages (spec §9.6) and needs flit_width >= header ({hw}) + 8 and >= 24"),
            ));
        }
        if let Some(by_class) = &w.message_flits_by_class {
            let classes = probe.traffic_classes() as usize;
            if by_class.len() != classes {
                return Err(ferr(
                    "workload.message_flits_by_class",
                    format!("{by_class:?}"),
                    format!("one length per traffic class (index 0 = best effort): exactly router.traffic_classes = {classes} entries, each 2..=4096"),
                ));
            }
            if let Some(i) = by_class.iter().position(|f| !(2..=4096).contains(f)) {
                return Err(ferr(&format!("workload.message_flits_by_class[{i}]"), by_class[i].to_string(), "allowed range 2..=4096".into()));
            }
        }
        if let Some(rates) = &self.model.realtime_rates {
            let classes = (probe.traffic_classes() as usize).max(2);
            if rates.is_empty() || rates.len() + 1 > classes || rates.iter().any(|x| !(x.is_finite() && *x > 0.0 && *x <= 1e6)) {
                return Err(ferr(
                    "model.realtime_rates",
                    format!("{rates:?}"),
                    format!("1..={} relative rates (router.traffic_classes − 1, best effort takes class 0), each in (0, 1e6]", classes - 1),
                ));
            }
        }
        let ports = self.router.ports as usize;
        let net = self.topology.spec.build(ports).map_err(|e| match e {
            crate::topology::TopologyError::Field { field, value, why } => ferr(&format!("topology.{field}"), value, why),
        })?;
        if net.ports_needed > ports {
            return Err(ferr("router.ports", ports.to_string(), format!("the topology needs {} ports", net.ports_needed)));
        }
        let mut configs = Vec::with_capacity(net.routers);
        for (i, routes) in net.routes.iter().enumerate() {
            let topology = if matches!(self.topology.spec, TopologySpec::SingleSwitch) {
                Topology::SingleSwitch { routes: None, route_vcs: None }
            } else {
                Topology::Network { routes: routes.clone(), route_vcs: None, route_links: net.route_links.get(i).cloned() }
            };
            let mut cf = ConfigFile { name: sanitize(&self.name, i), router: self.router.clone(), topology, synthesis: SynthesisParams::default(), nic: None };
            let parse = |e: wormqos_config::ConfigError| ExperimentError::Parse { file: file.to_string(), message: e.to_string() };
            let mut cfg = RouterConfig::new_simulated(cf.clone()).map_err(parse)?;
            // The dateline classes become allowed VC sets, split within the
            // (validated) partition of the router configured above.
            let masks = net.route_vcs(i, cfg.vcs(), cfg.vc_classes()).map_err(|fewest| {
                ferr(
                    "router.vcs",
                    self.router.vcs.to_string(),
                    format!(
                        "the dateline VC classes of the torus and ring (docs/microarchitecture.md §11) need 2 VCs{} (here {fewest}): allowed range 2..=16{}",
                        if cfg.vc_classes().is_some() { " of every traffic class" } else { "" },
                        if cfg.vc_classes().is_some() { " with router.vc_classes / vc_ratio giving each class 2 or more" } else { "" }
                    ),
                )
            })?;
            if let (Some(m), Topology::Network { route_vcs, .. }) = (masks, &mut cf.topology) {
                *route_vcs = Some(m);
                cfg = RouterConfig::new_simulated(cf).map_err(parse)?;
            }
            configs.push(cfg);
        }
        let cycle_s = self.router.flit_width as f64 / (self.physical.link_mbps * 1e6);
        let reconfigure = match &self.reconfigure {
            Some(r) => Some(r.check(&self, &net, &configs).map_err(|(field, value, why)| ferr(&field, value, why))?),
            None => None,
        };
        let v = Validated { exp: self, file: file.to_string(), dir, net, configs, cycle_s, trace, reconfigure };
        v.check_run_length()?;
        v.check_reconfigure_timing()?;
        v.check_realtime_source_vcs()?;
        v.check_control_source_vcs()?;
        v.check_source_queues()?;
        v.check_source_vc_choice()?;
        v.check_source_preemption()?;
        v.check_offered()?;
        Ok(v)
    }
}

fn pct(m: &[f64; 2], i: usize) -> f64 {
    (1000.0 * m[i] / (m[0] + m[1])).round() / 10.0
}

fn sanitize(name: &str, i: usize) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert(0, 'x');
    }
    s.truncate(36);
    format!("{s}_r{i}")
}

impl Reconfigure {
    /// The new tables, checked: programmable routers, one table source, the
    /// shape of the network's tables, ports that exist, and the deadlock
    /// checks of `crate::cdg` (missing link, wrong endpoint, a VC of every
    /// class, an acyclic channel dependency graph). Errors as (field, value, why).
    fn check(&self, exp: &Experiment, net: &crate::topology::Network, configs: &[RouterConfig]) -> Result<NewTables, (String, String, String)> {
        let err = |f: &str, v: String, w: String| (f.to_string(), v, w);
        // A table names output ports; only where a port leads matters (the
        // input port it enters at the next router does not).
        fn same_next(a: crate::topology::Peer, b: Option<crate::topology::Peer>) -> bool {
            use crate::topology::Peer;
            match (a, b) {
                (Peer::Unused, _) => true,
                (Peer::Router { router, .. }, Some(Peer::Router { router: q, .. })) => router == q,
                (x, y) => Some(x) == y,
            }
        }
        if exp.router.routing != wormqos_config::Routing::Programmable {
            return Err(err("reconfigure", "a new table".into(), "the routers' tables are constants: needs router.routing = \"programmable\" (allowed values: \"programmable\")".into()));
        }
        let (routers, codes) = (net.routers, net.routes.first().map_or(0, Vec::len));
        let ports = exp.router.ports as usize;
        let vcs = configs[0].vcs();
        let all = ((1u64 << vcs) - 1) as u32;
        let (routes, avc) = match (&self.topology, &self.routes) {
            (Some(spec), None) => {
                if self.route_vcs.is_some() {
                    return Err(err("reconfigure.route_vcs", "given".into(), "with reconfigure.topology the VC classes are the topology's: allowed values: none".into()));
                }
                let other = spec.build(ports).map_err(|e| err("reconfigure.topology", format!("{spec:?}"), e.to_string()))?;
                // Its links must be links of this network (it may use fewer:
                // a unidirectional ring on a bidirectional one).
                let embeds = other.routers == net.routers
                    && other.endpoint_at == net.endpoint_at
                    && other.source_groups == net.source_groups
                    && other.out_link.iter().zip(&net.out_link).all(|(a, b)| a.iter().enumerate().all(|(p, l)| same_next(*l, b.get(p).copied())));
                if !embeds {
                    return Err(err("reconfigure.topology", format!("{spec:?}"), "not embeddable: allowed only a topology with the same routers and endpoints whose every output port with a link leads where topology's does".into()));
                }
                if other.route_links.iter().flatten().any(|&g| g > 1) {
                    return Err(err("reconfigure.topology", format!("{spec:?}"), "uses parallel-link groups, which a programmable table does not hold: allowed route_links range 1..=1".into()));
                }
                let avc = (0..routers)
                    .map(|r| Ok(other.route_vcs(r, vcs, configs[0].vc_classes())?.unwrap_or_else(|| vec![all; codes])))
                    .collect::<Result<Vec<_>, usize>>()
                    .map_err(|fewest| err("router.vcs", vcs.to_string(), format!("the new tables' dateline VC classes need 2 VCs of every class (here {fewest}): allowed range 2..=16")))?;
                (other.routes, avc)
            }
            (None, Some(routes)) => {
                if routes.len() != routers || routes.iter().any(|r| r.len() != codes) {
                    return Err(err("reconfigure.routes", format!("{} rows", routes.len()), format!("one row per router with one port per destination code: exactly {routers} rows of {codes} entries")));
                }
                for (r, row) in routes.iter().enumerate() {
                    if let Some(c) = row.iter().position(|&p| p as usize >= ports) {
                        return Err(err(&format!("reconfigure.routes[{r}][{c}]"), row[c].to_string(), format!("an output port: allowed range 0..={}", ports - 1)));
                    }
                }
                let avc = match &self.route_vcs {
                    None => vec![vec![all; codes]; routers],
                    Some(t) => {
                        if t.len() != routers || t.iter().any(|r| r.len() != codes) {
                            return Err(err("reconfigure.route_vcs", format!("{} rows", t.len()), format!("one row per router with one VC mask per destination code: exactly {routers} rows of {codes} entries")));
                        }
                        for (r, row) in t.iter().enumerate() {
                            if let Some(c) = row.iter().position(|&m| m == 0 || m > all) {
                                return Err(err(&format!("reconfigure.route_vcs[{r}][{c}]"), row[c].to_string(), format!("a non-empty mask of output VCs: allowed range 1..={all}")));
                            }
                        }
                        t.clone()
                    }
                };
                (routes.clone(), avc)
            }
            _ => return Err(err("reconfigure", "both or neither of topology, routes".into(), "exactly one source of the new tables: allowed values: topology = { kind = … } or routes = [[…], …]".into())),
        };
        let class_vcs = crate::cdg::class_vc_sets(&configs[0]);
        crate::cdg::check(net, &crate::cdg::Tables { routes: &routes, links: &[], avc: &avc, vcs, class_vcs: &class_vcs })
            .map_err(|e| err("reconfigure", "the new tables".into(), format!("{e}; allowed: tables that pass the deadlock checks (docs/integration.md)")))?;
        Ok(NewTables { routes, avc, at_cycle: self.at_cycle, drain_limit: self.drain_limit })
    }
}

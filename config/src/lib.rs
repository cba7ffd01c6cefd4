//! The single configuration type shared by the Verilog generator, the golden
//! model and the simulators.
//!
//! A [`RouterConfig`] is only obtainable through [`RouterConfig::from_toml_str`],
//! [`RouterConfig::from_file`] or [`RouterConfig::new`], all of which validate, so
//! every consumer may rely on the invariants documented on each accessor.
//! Validation errors name the offending field and its allowed range.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

pub mod files;
pub mod nic;
pub mod shard;
mod qos;

pub use qos::{
    FlitOrder, Partition, Preemption, Qos, Scheduling, SchedulingPoint, SwitchAllocator, SwitchStage, VirtualClock,
};

/// Credit round trip of the pipeline (docs/microarchitecture.md, "Credit loop"):
/// the smallest input buffer that lets one VC stream at one flit per cycle.
pub const CREDIT_ROUND_TRIP: u32 = 4;
/// Smallest output VC buffer that sustains one flit per cycle through stage 5.
pub const MIN_OUTPUT_BUFFER_DEPTH: u32 = 2;

/// Ports of a router the RTL generator builds (`generate`, `cosim`,
/// `synth`, `dse`, and a network's RTL).
pub const PORTS_RANGE: (u32, u32) = (2, 32);
/// Ports of a router in simulation only (`sim`, `sweep`, `model
/// --with-sim`: the golden model's wide port sets, `wormqos_sim::Wide`):
/// 129 = 1 + 2·64, the node of 004_… Fig. 6(a)'s N = 256 ring with the
/// paper's l = N/4 = 64 links to each neighbour; the largest router a
/// reproduced figure needs, and every size up to it is a tested path.
pub const SIM_PORTS_RANGE: (u32, u32) = (2, 129);
/// Largest routing table of a network router (destination field <= 16 bits).
pub const MAX_NETWORK_ENDPOINTS: u32 = 1 << 16;
pub const VCS_RANGE: (u32, u32) = (1, 16);
pub const FLIT_WIDTH_RANGE: (u32, u32) = (8, 256);
pub const INPUT_DEPTH_RANGE: (u32, u32) = (CREDIT_ROUND_TRIP, 256);
pub const OUTPUT_DEPTH_RANGE: (u32, u32) = (MIN_OUTPUT_BUFFER_DEPTH, 256);
pub const CLASSES_RANGE: (u32, u32) = (1, 8);
pub const VTICK_WIDTH_RANGE: (u32, u32) = (8, 32);
pub const CLOCK_WIDTH_RANGE: (u32, u32) = (8, 32);
pub const BLOCK_SIZE_RANGE: (u32, u32) = (1, 64);
pub const TARGET_MHZ_RANGE: (u32, u32) = (1, 1000);
/// Rounds of the iterative switch allocator (`switch_iterations`).
pub const SWITCH_ITERATIONS_RANGE: (u32, u32) = (1, 4);
/// Default rounds: 3 carries >= 0.9 flits/port/cycle on the 8-port 16-VC
/// switch (docs/benchmarks.md, switch allocation).
pub const DEFAULT_SWITCH_ITERATIONS: u32 = 3;
/// Parallel output ports a destination may choose among (`route_links`).
pub const ROUTE_LINKS_RANGE: (u32, u32) = (1, 8);

/// Crossbar organisation (MediaWorm §III-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossbar {
    /// n×n crossbar with a VC multiplexer at each crossbar input (contention points A, B, C).
    Multiplexed,
    /// nm×nm crossbar: every input VC reaches its output VC directly (contention point C only).
    Full,
}

/// Stage-4 switch allocator of the multiplexed crossbar (file format; the
/// validated form is [`SwitchAllocator`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchAllocatorKind {
    /// Point A then point B once (the original MediaWorm-style allocator).
    #[default]
    SinglePass,
    /// Input-first iterative matching with `switch_iterations` rounds.
    Iterative,
    /// A maximum-size matching each cycle: a model-only bound, no RTL.
    MaximumMatching,
}

/// Where stage 4's allocation sits (file format; the validated form is
/// [`SwitchStage`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchStageKind {
    /// Allocation and traversal in one cycle (the original pipeline).
    #[default]
    SingleCycle,
    /// RC+VA merged, allocation registered, traversal in the next cycle.
    Registered,
    /// As `registered`, with point B in a cycle of its own (six stages).
    Split,
}

/// `router.preemption_credits` (preemptive mode only,
/// docs/microarchitecture.md §9.4 *Credits*): one credit count per link VC
/// for all its lanes (`per_vc`, the default), or one per (VC, lane) with the
/// lane named on the flit and on the credit (`per_lane`, model only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreemptionCredits {
    #[default]
    PerVc,
    PerLane,
}

impl PreemptionCredits {
    pub fn as_str(self) -> &'static str {
        match self {
            PreemptionCredits::PerVc => "per_vc",
            PreemptionCredits::PerLane => "per_lane",
        }
    }
}

impl SwitchStageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SwitchStageKind::SingleCycle => "single_cycle",
            SwitchStageKind::Registered => "registered",
            SwitchStageKind::Split => "split",
        }
    }
}

/// When an output VC whose message's tail has crossed the crossbar becomes
/// allocatable again (docs/microarchitecture.md §6 stage 3, *Output-VC
/// reallocation*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VcReallocation {
    /// In the cycle after the tail crosses (the original router): a VC's
    /// downstream buffer may then hold flits of two messages.
    #[default]
    TailCrossed,
    /// Only once the tail has left the downstream buffer (output VC buffer
    /// empty, every credit returned): one message per VC buffer, as
    /// Duato's methodology assumes (§11).
    Atomic,
}

impl VcReallocation {
    pub fn as_str(self) -> &'static str {
        match self {
            VcReallocation::TailCrossed => "tail_crossed",
            VcReallocation::Atomic => "atomic",
        }
    }
}

/// Where RC's routing table lives (docs/microarchitecture.md §2, *Programmable
/// routing*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// Constants fixed at generation time (the original router).
    #[default]
    Fixed,
    /// Registers reset to the configured table and written through the
    /// router's configuration port (`cfg_we_i`, `cfg_addr_i`, `cfg_port_i`,
    /// `cfg_avc_i`).
    Programmable,
}

impl Routing {
    pub fn is_fixed(&self) -> bool {
        *self == Routing::Fixed
    }
}

/// Most destination codes of a programmable table (its entries are registers).
pub const PROGRAMMABLE_CODES_MAX: u32 = 256;

/// Flit scheduler at the router's scheduling point: (A) for the multiplexed
/// crossbar, (C) for the full crossbar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheduler {
    /// The traditional router: messages are served in the order they were
    /// granted their output VC (oldest first).
    Fifo,
    /// Rotating priority among eligible VCs.
    RoundRobin,
    /// Fine-Grained VirtualClock (MediaWorm §III-D, `003_…` §3.1): every flit
    /// is stamped `max(now, auxVC) + Vtick` of its message; smallest stamp wins;
    /// best effort only when no real-time flit is eligible.
    Virtualclock,
}

/// QoS organisation of the router (`003_…` §3.2; docs/microarchitecture.md §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouterMode {
    /// The foundation router: any message may use any VC, no preemption,
    /// any scheduler.
    #[default]
    Unpartitioned,
    /// TR: VCs statically partitioned among the classes, FIFO scheduler.
    Traditional,
    /// NP (MediaWorm): VCs statically partitioned among the classes,
    /// VirtualClock scheduler.
    NonPreemptive,
    /// P: any VC carries any class; a higher-priority header preempts a
    /// lower-priority message in the input buffer (extra buffers, history
    /// stack, dummy tail/header). VirtualClock scheduler.
    Preemptive,
}

impl RouterMode {
    fn is_unpartitioned(&self) -> bool {
        *self == RouterMode::Unpartitioned
    }
    pub fn as_str(&self) -> &'static str {
        match self {
            RouterMode::Unpartitioned => "unpartitioned",
            RouterMode::Traditional => "traditional",
            RouterMode::NonPreemptive => "non_preemptive",
            RouterMode::Preemptive => "preemptive",
        }
    }
    /// Whether the VCs are statically divided among the classes.
    pub fn is_partitioned(&self) -> bool {
        matches!(self, RouterMode::Traditional | RouterMode::NonPreemptive)
    }
}

/// Synthesis targets (used by the constraint and report generators).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SynthesisParams {
    /// Target clock frequency in MHz (the XDC's `create_clock` period).
    #[serde(default = "default_target_mhz")]
    pub target_mhz: u32,
}

fn default_target_mhz() -> u32 {
    100
}

impl Default for SynthesisParams {
    fn default() -> Self {
        SynthesisParams { target_mhz: default_target_mhz() }
    }
}

fn is_default_synthesis(s: &SynthesisParams) -> bool {
    *s == SynthesisParams::default()
}

/// Where the router sits; decides the routing table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    /// One switch with one endpoint on every port. `routes`, when given, lists
    /// for every destination (endpoint id) the output port; by default
    /// destination d leaves on port d. `route_vcs`: see [`Topology::Network`].
    SingleSwitch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        routes: Option<Vec<u32>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route_vcs: Option<Vec<u32>>,
    },
    /// A router inside a network (built by `wormqos-netsim` from an
    /// experiment file): `routes` lists the output port for every endpoint
    /// id of the whole network, so its length is the number of endpoints and
    /// sets the header's destination width.
    ///
    /// `route_vcs`, when given, lists for every destination the set of
    /// output VCs its header may be allocated (bit u = output VC u), e.g.
    /// the dateline VC classes of a torus (docs/microarchitecture.md §6,
    /// stage 3); by default every VC.
    ///
    /// `route_links`, when given, lists for every destination the number g
    /// of parallel output ports `routes[d] .. routes[d] + g - 1` it may
    /// leave on; RC picks the one with the most free output VCs
    /// (docs/microarchitecture.md §2). By default 1.
    Network {
        routes: Vec<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route_vcs: Option<Vec<u32>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route_links: Option<Vec<u32>>,
    },
}

impl Default for Topology {
    fn default() -> Self {
        Topology::SingleSwitch { routes: None, route_vcs: None }
    }
}

/// Router parameters as written in a configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouterParams {
    pub ports: u32,
    pub vcs: u32,
    pub flit_width: u32,
    pub input_buffer_depth: u32,
    pub output_buffer_depth: u32,
    /// Depth of the neighbour's input VC buffers, i.e. the initial credit count
    /// of each output VC. Defaults to `input_buffer_depth` (a network of equal routers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downstream_buffer_depth: Option<u32>,
    pub crossbar: Crossbar,
    /// Multiplexed crossbar only: how stage 4 matches inputs to outputs
    /// (default `single_pass`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch_allocator: Option<SwitchAllocatorKind>,
    /// `switch_allocator = "iterative"` only: rounds per cycle, 1..=4 (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch_iterations: Option<u32>,
    /// Multiplexed crossbar only: `registered` registers the switch
    /// allocation (RC and VA share a stage; in P mode with per-VC
    /// credits), `split` also point B (modes without
    /// preemption); default `single_cycle`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch_stage: Option<SwitchStageKind>,
    /// When a released output VC becomes allocatable again (default
    /// `tail_crossed`; `atomic` needs a mode without preemption).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vc_reallocation: Option<VcReallocation>,
    pub scheduler: Scheduler,
    /// Number of traffic classes, which are also the priority levels s of
    /// the QoS modes: class s-1 is the highest priority. Default 2, or 3
    /// (control > real time > best effort) when `mode` is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic_classes: Option<u32>,
    #[serde(default, skip_serializing_if = "RouterMode::is_unpartitioned")]
    pub mode: RouterMode,
    /// Traditional / non-preemptive: weights per class (index = class) from
    /// which the VC partition is derived (e.g. an x:y ratio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vc_ratio: Option<Vec<u32>>,
    /// Traditional / non-preemptive: the class of every VC (index = VC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vc_classes: Option<Vec<u32>>,
    /// Preemptive, multiplexed crossbar: flit acceleration (`003_…` §3.2.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub acceleration: bool,
    /// Preemptive only: the most output VCs of one output port that
    /// best-effort (class 0) messages may hold at once, 1..=vcs (default:
    /// no cap, i.e. vcs); the rest stay free for the higher classes
    /// (docs/microarchitecture.md §9.4, stage 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_effort_output_vcs: Option<u32>,
    /// Preemptive only: the most output VCs of one output port that
    /// real-time (class 1) messages may hold at once, 1..=vcs (default: no
    /// cap, i.e. vcs); the rest stay free for best effort and control
    /// (docs/microarchitecture.md §9.4, stage 3, *Real-time cap*).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_output_vcs: Option<u32>,
    /// Preemptive only: credits per VC (default) or per (VC, lane)
    /// (docs/microarchitecture.md §9.4 *Credits*).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemption_credits: Option<PreemptionCredits>,
    /// Block-level multiplexing: the scheduler keeps a granted slot for up to
    /// this many flits (1 = flit-level).
    #[serde(default = "default_block_size", skip_serializing_if = "is_one")]
    pub block_size: u32,
    #[serde(default = "default_vtick_width")]
    pub vtick_width: u32,
    /// `programmable`: the routing table is held in registers written at run
    /// time (default `fixed`: constants).
    #[serde(default, skip_serializing_if = "Routing::is_fixed")]
    pub routing: Routing,
    /// Width of the VirtualClock counters (`now`, auxVC, stamps); see
    /// docs/microarchitecture.md §8 for the rebasing rule it bounds.
    #[serde(default = "default_clock_width")]
    pub clock_width: u32,
}

fn default_block_size() -> u32 {
    1
}
fn is_one(v: &u32) -> bool {
    *v == 1
}
fn default_vtick_width() -> u32 {
    16
}
fn default_clock_width() -> u32 {
    16
}

/// The file format: `name`, `[router]`, optional `[topology]`, optional `[synthesis]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub name: String,
    pub router: RouterParams,
    #[serde(default)]
    pub topology: Topology,
    #[serde(default, skip_serializing_if = "is_default_synthesis")]
    pub synthesis: SynthesisParams,
    /// The NIC attached to a router port (docs/nic.md), when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic: Option<nic::NicParams>,
}

/// A field's value is outside what the router supports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    /// `message` names the file.
    #[error("{message}")]
    Io { file: String, message: String },
    #[error("invalid configuration: field `{field}` = {value}: {allowed}")]
    Field {
        field: String,
        value: String,
        allowed: String,
    },
    /// A [`ConfigError::Field`] located in its file (`file:line`).
    #[error("{at}: {source}")]
    In { at: String, source: Box<ConfigError> },
}

impl ConfigError {
    fn field(field: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        ConfigError::Field {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

/// Bit position and width of one header field inside the flit data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Field {
    pub lsb: u32,
    pub width: u32,
}

impl Field {
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// Extracts this field from flit data stored as little-endian 64-bit words.
    pub fn extract(&self, data: &[u64]) -> u64 {
        let mut v = 0u64;
        for i in 0..self.width {
            let bit = self.lsb + i;
            let w = data[(bit / 64) as usize];
            v |= ((w >> (bit % 64)) & 1) << i;
        }
        v
    }
    /// Writes `value` (truncated to the field width by the caller's contract) into `data`.
    pub fn insert(&self, data: &mut [u64], value: u64) {
        for i in 0..self.width {
            let bit = self.lsb + i;
            let word = &mut data[(bit / 64) as usize];
            let mask = 1u64 << (bit % 64);
            if (value >> i) & 1 == 1 {
                *word |= mask;
            } else {
                *word &= !mask;
            }
        }
    }
}

/// Layout of the header flit's data: destination, traffic class, Vtick, from bit 0 up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HeaderLayout {
    pub dest: Field,
    pub class: Field,
    pub vtick: Field,
}

impl HeaderLayout {
    pub fn width(&self) -> u32 {
        self.dest.width + self.class.width + self.vtick.width
    }
}

/// Number of bits needed to represent values 0..n-1, at least 1.
pub fn index_width(n: u32) -> u32 {
    if n <= 1 {
        1
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// A validated router configuration.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RouterConfig {
    file: ConfigFile,
    header: HeaderLayout,
    routes: Vec<u32>,
    /// Allowed output VCs per destination (bitmask), empty when not given.
    route_vcs: Vec<u32>,
    /// Parallel output ports per destination, empty when not given.
    route_links: Vec<u32>,
    classes: u32,
    /// Class of every VC in the partitioned modes, empty otherwise.
    vc_class: Vec<u32>,
    /// The mode's meaning as a type (derived from the fields above).
    qos: Qos,
    /// The flit scheduler as a type.
    scheduling: Scheduling,
}

fn check_range(field: &str, v: u32, (lo, hi): (u32, u32)) -> Result<(), ConfigError> {
    if v < lo || v > hi {
        Err(ConfigError::field(field, v, format!("allowed range {lo}..={hi}")))
    } else {
        Ok(())
    }
}

impl RouterConfig {
    /// Validates a parsed file, for a router the RTL generator may build
    /// (`router.ports` within [`PORTS_RANGE`]).
    pub fn new(file: ConfigFile) -> Result<Self, ConfigError> {
        let ports = file.router.ports;
        if ports > PORTS_RANGE.1 && ports <= SIM_PORTS_RANGE.1 {
            return Err(ConfigError::field(
                "router.ports",
                ports,
                format!(
                    "allowed range {}..={} (up to {} only in an experiment for `wormqos sim`, `sweep` or `model --with-sim`: the RTL holds {})",
                    PORTS_RANGE.0, PORTS_RANGE.1, SIM_PORTS_RANGE.1, PORTS_RANGE.1
                ),
            ));
        }
        Self::with_ports_range(file, PORTS_RANGE)
    }

    /// Validates a parsed file for the golden model and the network
    /// simulator only (`router.ports` within [`SIM_PORTS_RANGE`]); a command
    /// that builds RTL must refuse more than [`PORTS_RANGE`] ports itself.
    pub fn new_simulated(file: ConfigFile) -> Result<Self, ConfigError> {
        Self::with_ports_range(file, SIM_PORTS_RANGE)
    }

    fn with_ports_range(file: ConfigFile, ports_range: (u32, u32)) -> Result<Self, ConfigError> {
        let name = &file.name;
        let name_ok = !name.is_empty()
            && name.len() <= 48
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            return Err(ConfigError::field(
                "name",
                format!("{name:?}"),
                "1 to 48 characters, a letter followed by letters, digits or '_' (it prefixes Verilog module names)",
            ));
        }
        let r = &file.router;
        check_range("router.ports", r.ports, ports_range)?;
        check_range("router.vcs", r.vcs, VCS_RANGE)?;
        check_range("router.flit_width", r.flit_width, FLIT_WIDTH_RANGE)?;
        if r.input_buffer_depth < CREDIT_ROUND_TRIP {
            return Err(ConfigError::field(
                "router.input_buffer_depth",
                r.input_buffer_depth,
                format!(
                    "allowed range {}..={} (below {CREDIT_ROUND_TRIP}, the credit round trip, a VC cannot stream)",
                    INPUT_DEPTH_RANGE.0, INPUT_DEPTH_RANGE.1
                ),
            ));
        }
        check_range("router.input_buffer_depth", r.input_buffer_depth, INPUT_DEPTH_RANGE)?;
        check_range("router.output_buffer_depth", r.output_buffer_depth, OUTPUT_DEPTH_RANGE)?;
        if let Some(d) = r.downstream_buffer_depth {
            check_range("router.downstream_buffer_depth", d, INPUT_DEPTH_RANGE)?;
        }
        let classes = r.traffic_classes.unwrap_or(if r.mode.is_unpartitioned() { 2 } else { 3 });
        check_range("router.traffic_classes", classes, CLASSES_RANGE)?;
        let vc_class = validate_mode(r, classes)?;
        check_range("router.block_size", r.block_size, BLOCK_SIZE_RANGE)?;
        let switch = validate_switch_allocator(r)?;
        let stage = validate_switch_stage(r)?;
        validate_vc_reallocation(r)?;
        validate_best_effort_output_vcs(r)?;
        validate_realtime_output_vcs(r)?;
        validate_preemption_credits(r)?;
        check_range("synthesis.target_mhz", file.synthesis.target_mhz, TARGET_MHZ_RANGE)?;
        check_range("router.vtick_width", r.vtick_width, VTICK_WIDTH_RANGE)?;
        check_range("router.clock_width", r.clock_width, CLOCK_WIDTH_RANGE)?;
        if r.vtick_width > r.clock_width {
            return Err(ConfigError::field(
                "router.vtick_width",
                r.vtick_width,
                format!(
                    "a Vtick must fit the VirtualClock counters: allowed range {}..={} (router.clock_width)",
                    VTICK_WIDTH_RANGE.0, r.clock_width
                ),
            ));
        }

        let endpoints = match &file.topology {
            Topology::SingleSwitch { .. } => r.ports,
            Topology::Network { routes, .. } => {
                if routes.is_empty() || routes.len() > MAX_NETWORK_ENDPOINTS as usize {
                    return Err(ConfigError::field(
                        "topology.routes",
                        format!("{} entries", routes.len()),
                        format!("one output port per network endpoint: 1..={MAX_NETWORK_ENDPOINTS} entries"),
                    ));
                }
                routes.len() as u32
            }
        };
        let dest = Field { lsb: 0, width: index_width(endpoints) };
        let class = Field { lsb: dest.lsb + dest.width, width: index_width(classes) };
        let vtick = Field { lsb: class.lsb + class.width, width: r.vtick_width };
        let header = HeaderLayout { dest, class, vtick };
        nic::validate(&file, &header)?;
        if header.width() > r.flit_width {
            return Err(ConfigError::field(
                "router.flit_width",
                r.flit_width,
                format!(
                    "the header needs {} bits (destination {} + class {} + vtick {}); allowed range {}..={}",
                    header.width(),
                    dest.width,
                    class.width,
                    vtick.width,
                    header.width().max(FLIT_WIDTH_RANGE.0),
                    FLIT_WIDTH_RANGE.1
                ),
            ));
        }

        let routes = match &file.topology {
            Topology::SingleSwitch { routes: None, .. } => (0..endpoints).collect(),
            Topology::SingleSwitch { routes: Some(t), .. } | Topology::Network { routes: t, .. } => {
                if t.len() as u32 != endpoints {
                    return Err(ConfigError::field(
                        "topology.routes",
                        format!("{} entries", t.len()),
                        format!("one output port per destination: exactly {endpoints} entries"),
                    ));
                }
                for (d, &p) in t.iter().enumerate() {
                    if p >= r.ports {
                        return Err(ConfigError::field(
                            format!("topology.routes[{d}]"),
                            p,
                            format!("an output port: allowed range 0..={}", r.ports - 1),
                        ));
                    }
                }
                t.clone()
            }
        };
        let route_vcs = match &file.topology {
            Topology::SingleSwitch { route_vcs, .. } | Topology::Network { route_vcs, .. } => route_vcs.clone(),
        };
        let route_vcs = match route_vcs {
            None => Vec::new(),
            Some(t) => {
                validate_route_vcs(&t, endpoints, r.vcs, &vc_class, classes)?;
                t
            }
        };
        let route_links = match &file.topology {
            Topology::Network { route_links: Some(g), .. } => {
                if g.len() != routes.len() {
                    return Err(ConfigError::field(
                        "topology.route_links",
                        format!("{} entries", g.len()),
                        format!("one group size per destination: exactly {} entries", routes.len()),
                    ));
                }
                for (d, (&n, &p)) in g.iter().zip(&routes).enumerate() {
                    let most = ROUTE_LINKS_RANGE.1.min(r.ports - p);
                    if n < ROUTE_LINKS_RANGE.0 || n > most {
                        return Err(ConfigError::field(
                            format!("topology.route_links[{d}]"),
                            n,
                            format!(
                                "the parallel ports routes[{d}] = {p} .. {p} + g - 1 must exist (router.ports = {}) and g <= {}: allowed range 1..={most}",
                                r.ports, ROUTE_LINKS_RANGE.1
                            ),
                        ));
                    }
                }
                g.clone()
            }
            _ => Vec::new(),
        };
        if r.routing == Routing::Programmable {
            let codes = 1u64 << dest.width;
            if codes > PROGRAMMABLE_CODES_MAX as u64 {
                return Err(ConfigError::field(
                    "router.routing",
                    "\"programmable\"",
                    format!(
                        "a programmable table has one register entry per destination code: {codes} codes (destination field {} bits); allowed range 1..={PROGRAMMABLE_CODES_MAX} codes, else allowed values \"fixed\"",
                        dest.width
                    ),
                ));
            }
            if route_links.iter().any(|&g| g > 1) {
                return Err(ConfigError::field(
                    "router.routing",
                    "\"programmable\"",
                    "a programmable table holds one output port per destination: topology.route_links allowed range 1..=1 with it, else allowed values \"fixed\"",
                ));
            }
        }
        let qos = match file.router.mode {
            RouterMode::Preemptive => Qos::Preemptive(Preemption {
                extra_lanes: classes - 1,
                acceleration: file.router.acceleration,
                // a cap of every VC caps nothing: the same router as none
                best_effort_output_vcs: file.router.best_effort_output_vcs.filter(|&k| k < file.router.vcs),
                realtime_output_vcs: file.router.realtime_output_vcs.filter(|&k| k < file.router.vcs),
                credits: file.router.preemption_credits.unwrap_or_default(),
            }),
            RouterMode::Traditional | RouterMode::NonPreemptive if classes > 1 => {
                Qos::Partitioned(Partition { vc_class: vc_class.clone() })
            }
            _ => Qos::Shared,
        };
        let scheduling = Scheduling {
            point: match switch {
                Some(switch) => SchedulingPoint::InputPort { switch, stage },
                None => SchedulingPoint::OutputPort,
            },
            order: match file.router.scheduler {
                Scheduler::Fifo => FlitOrder::Age,
                Scheduler::RoundRobin => FlitOrder::RoundRobin,
                Scheduler::Virtualclock => {
                    FlitOrder::VirtualClock(VirtualClock { vtick, clock_width: file.router.clock_width })
                }
            },
            block_size: file.router.block_size,
        };
        Ok(RouterConfig { file, header, routes, route_vcs, route_links, classes, vc_class, qos, scheduling })
    }

    pub fn from_toml_str(text: &str, origin: &str) -> Result<Self, ConfigError> {
        Self::parse_with(text, origin, Self::new)
    }

    /// [`RouterConfig::from_toml_str`] for the golden model only
    /// ([`RouterConfig::new_simulated`]: up to [`SIM_PORTS_RANGE`] ports).
    pub fn from_toml_str_simulated(text: &str, origin: &str) -> Result<Self, ConfigError> {
        Self::parse_with(text, origin, Self::new_simulated)
    }

    fn parse_with(text: &str, origin: &str, validate: fn(ConfigFile) -> Result<Self, ConfigError>) -> Result<Self, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| ConfigError::Parse {
            file: origin.to_string(),
            message: e.to_string(),
        })?;
        validate(file).map_err(|e| match e {
            ConfigError::Field { ref field, .. } => ConfigError::In { at: files::at(origin, text, field), source: Box::new(e) },
            other => other,
        })
    }

    /// Reads (at most [`files::MAX_INPUT_BYTES`]) and validates a configuration file.
    pub fn from_file(path: &Path) -> Result<Self, ConfigError> {
        let text = files::read_capped(path).map_err(|message| ConfigError::Io { file: path.display().to_string(), message })?;
        Self::from_toml_str(&text, &path.display().to_string())
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(&self.file).expect("a validated configuration serialises")
    }

    pub fn file(&self) -> &ConfigFile {
        &self.file
    }
    pub fn name(&self) -> &str {
        &self.file.name
    }
    /// Number of physical ports, 2..=32 (2..=129 for [`RouterConfig::new_simulated`]).
    pub fn ports(&self) -> usize {
        self.file.router.ports as usize
    }
    /// VCs per physical port, 1..=16.
    pub fn vcs(&self) -> usize {
        self.file.router.vcs as usize
    }
    /// Flit data width in bits, 8..=256, at least the header width.
    pub fn flit_width(&self) -> u32 {
        self.file.router.flit_width
    }
    /// Number of 64-bit words that hold one flit's data.
    pub fn flit_words(&self) -> usize {
        self.file.router.flit_width.div_ceil(64) as usize
    }
    pub fn input_buffer_depth(&self) -> usize {
        self.file.router.input_buffer_depth as usize
    }
    pub fn output_buffer_depth(&self) -> usize {
        self.file.router.output_buffer_depth as usize
    }
    /// Initial credit count of every output VC.
    pub fn downstream_buffer_depth(&self) -> usize {
        self.file
            .router
            .downstream_buffer_depth
            .unwrap_or(self.file.router.input_buffer_depth) as usize
    }
    pub fn crossbar(&self) -> Crossbar {
        self.file.router.crossbar
    }
    pub fn scheduler(&self) -> Scheduler {
        self.file.router.scheduler
    }
    /// Number of traffic classes = priority levels s, 1..=8; class s-1 is the highest priority.
    pub fn traffic_classes(&self) -> u32 {
        self.classes
    }
    /// The mode as the user named it (labels, reports). Behaviour should
    /// match on [`RouterConfig::qos`] instead.
    pub fn mode(&self) -> RouterMode {
        self.file.router.mode
    }
    /// What the mode means for allocation and the input ports, as a type.
    pub fn qos(&self) -> &Qos {
        &self.qos
    }
    /// The flit scheduler (point, order, block size), as a type.
    pub fn scheduling(&self) -> &Scheduling {
        &self.scheduling
    }
    /// When a released output VC becomes allocatable again (§6 stage 3);
    /// `Atomic` only in a mode without preemption.
    pub fn vc_reallocation(&self) -> VcReallocation {
        self.file.router.vc_reallocation.unwrap_or_default()
    }
    /// Extra input buffers (lanes) per input VC: s-1 in the preemptive mode, else 0.
    pub fn extra_lanes(&self) -> usize {
        self.qos.extra_lanes() as usize
    }
    /// The class each VC is reserved for (index = VC), in the partitioned
    /// modes; `None` when any class may use any VC.
    pub fn vc_classes(&self) -> Option<&[u32]> {
        if self.vc_class.is_empty() {
            None
        } else {
            Some(&self.vc_class)
        }
    }
    /// Flit acceleration (preemptive mode, multiplexed crossbar only).
    pub fn acceleration(&self) -> bool {
        self.file.router.acceleration
    }
    /// The most output VCs of one port that best effort may hold (preemptive
    /// mode, §9.4 stage 3); `None` when uncapped (a cap of every VC included).
    pub fn best_effort_output_vcs(&self) -> Option<u32> {
        self.qos.preemption().and_then(|p| p.best_effort_output_vcs)
    }
    /// The most output VCs of one port that real time (class 1) may hold
    /// (preemptive mode, §9.4 stage 3); `None` when uncapped (a cap of every
    /// VC included).
    pub fn realtime_output_vcs(&self) -> Option<u32> {
        self.qos.preemption().and_then(|p| p.realtime_output_vcs)
    }
    /// Whether the links count credits per (VC, lane) (`router.preemption_credits
    /// = "per_lane"`, preemptive mode only, §9.4 *Credits*).
    pub fn per_lane_credits(&self) -> bool {
        self.qos.preemption().is_some_and(|p| p.credits == PreemptionCredits::PerLane)
    }
    /// Block size b of block-level multiplexing, 1..=64 (1 = flit level).
    pub fn block_size(&self) -> u32 {
        self.file.router.block_size
    }
    /// Target clock frequency for synthesis constraints, MHz.
    pub fn target_mhz(&self) -> u32 {
        self.file.synthesis.target_mhz
    }
    /// Width of the VirtualClock counters, 8..=32, at least `header().vtick.width`.
    pub fn clock_width(&self) -> u32 {
        self.file.router.clock_width
    }
    pub fn header(&self) -> HeaderLayout {
        self.header
    }
    /// Width of the `vc` field on a link.
    pub fn vc_width(&self) -> u32 {
        index_width(self.file.router.vcs)
    }
    /// Number of destinations (endpoints) the routing table covers.
    pub fn endpoints(&self) -> usize {
        self.routes.len()
    }
    /// Output port for each destination id 0..endpoints(). Destination codes
    /// at or above `endpoints()` route to port 0 (docs/microarchitecture.md).
    pub fn routes(&self) -> &[u32] {
        &self.routes
    }
    /// Output port for a destination code as carried in a header.
    pub fn route(&self, dest: u64) -> usize {
        self.routes.get(dest as usize).copied().unwrap_or(0) as usize
    }
    /// The routing table is registers with a write port (`router.routing`).
    pub fn programmable(&self) -> bool {
        self.file.router.routing == Routing::Programmable
    }
    /// `topology.route_links` as validated (group size 1..=8 per
    /// destination), `None` when every destination has one output port.
    pub fn route_link_table(&self) -> Option<&[u32]> {
        if self.route_links.is_empty() {
            None
        } else {
            Some(&self.route_links)
        }
    }
    /// Number of parallel output ports `route(dest) ..` a destination code
    /// may leave on: its `route_links` entry, 1 without the table or for a
    /// code at or above `endpoints()`.
    pub fn route_links(&self, dest: u64) -> usize {
        self.route_links.get(dest as usize).copied().unwrap_or(1) as usize
    }
    /// `topology.route_vcs` as validated (one non-empty mask of output VCs
    /// per destination), `None` when every destination may use every VC.
    pub fn route_vc_table(&self) -> Option<&[u32]> {
        if self.route_vcs.is_empty() {
            None
        } else {
            Some(&self.route_vcs)
        }
    }
    /// Output VCs (bit u = VC u) a header with this destination code may be
    /// allocated: its `topology.route_vcs` entry, or every VC when there is
    /// no table or the code is at or above `endpoints()`.
    pub fn route_vcs(&self, dest: u64) -> u32 {
        let all = ((1u64 << self.vcs()) - 1) as u32;
        self.route_vcs.get(dest as usize).copied().unwrap_or(all)
    }
}

/// Checks `topology.route_vcs`: one entry per destination, each a non-empty
/// set of existing VCs that, in the partitioned modes, holds a VC of every
/// class (a header of any class may go to any destination, and a header
/// whose allowed set has no VC of its class would wait forever).
fn validate_route_vcs(t: &[u32], endpoints: u32, vcs: u32, vc_class: &[u32], classes: u32) -> Result<(), ConfigError> {
    let all = ((1u64 << vcs) - 1) as u32;
    if t.len() as u32 != endpoints {
        return Err(ConfigError::field(
            "topology.route_vcs",
            format!("{} entries", t.len()),
            format!("one output VC mask per destination: exactly {endpoints} entries, each 1..={all}"),
        ));
    }
    for (d, &mask) in t.iter().enumerate() {
        if mask == 0 || mask > all {
            return Err(ConfigError::field(
                format!("topology.route_vcs[{d}]"),
                mask,
                format!("a non-empty set of output VCs, bit u = VC u of router.vcs = {vcs}: allowed range 1..={all}"),
            ));
        }
        if vc_class.is_empty() || classes < 2 {
            continue;
        }
        for c in 0..classes {
            let of_c = vc_class.iter().enumerate().filter(|(_, &x)| x == c).fold(0u32, |a, (u, _)| a | 1 << u);
            if mask & of_c == 0 {
                return Err(ConfigError::field(
                    format!("topology.route_vcs[{d}]"),
                    mask,
                    format!(
                        "the set has no VC of class {c} (router.vc_classes: class {c} owns mask {of_c}); allowed values: masks in 1..={all} that meet the VCs of every class 0..={}",
                        classes - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The switch allocator: `Some` for the multiplexed crossbar, `None` for
/// the full crossbar (which has none, so naming one there is an error).
fn validate_switch_allocator(r: &RouterParams) -> Result<Option<SwitchAllocator>, ConfigError> {
    if r.crossbar == Crossbar::Full {
        if let Some(kind) = r.switch_allocator {
            return Err(ConfigError::field(
                "router.switch_allocator",
                kind.as_str(),
                "the full crossbar has no switch allocation (allowed values: none, omit the field; single_pass or iterative need crossbar = \"multiplexed\")",
            ));
        }
    }
    let kind = r.switch_allocator.unwrap_or_default();
    if kind == SwitchAllocatorKind::MaximumMatching {
        validate_maximum_matching(r)?;
    }
    if let Some(k) = r.switch_iterations {
        if kind != SwitchAllocatorKind::Iterative {
            return Err(ConfigError::field(
                "router.switch_iterations",
                k,
                format!(
                    "only the iterative allocator has rounds (allowed values: none, omit the field; {}..={} with switch_allocator = \"iterative\")",
                    SWITCH_ITERATIONS_RANGE.0, SWITCH_ITERATIONS_RANGE.1
                ),
            ));
        }
        check_range("router.switch_iterations", k, SWITCH_ITERATIONS_RANGE)?;
    }
    Ok(match (r.crossbar, kind) {
        (Crossbar::Full, _) => None,
        (Crossbar::Multiplexed, SwitchAllocatorKind::SinglePass) => Some(SwitchAllocator::SinglePass),
        (Crossbar::Multiplexed, SwitchAllocatorKind::Iterative) => Some(SwitchAllocator::Iterative {
            iterations: r.switch_iterations.unwrap_or(DEFAULT_SWITCH_ITERATIONS),
        }),
        (Crossbar::Multiplexed, SwitchAllocatorKind::MaximumMatching) => Some(SwitchAllocator::MaximumMatching),
    })
}

/// The maximum-matching bound (§6, *Maximum matching*) is specified for the
/// modes without preemption, without a block hold, in the single-cycle
/// stage: there its choice of VC per matched port is the order's pick.
fn validate_maximum_matching(r: &RouterParams) -> Result<(), ConfigError> {
    let why = if r.mode == RouterMode::Preemptive {
        Some("mode = \"preemptive\"")
    } else if r.block_size > 1 {
        Some("router.block_size > 1")
    } else if r.switch_stage.is_some_and(|s| s != SwitchStageKind::SingleCycle) {
        Some("switch_stage other than single_cycle")
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(w) => Err(ConfigError::field(
            "router.switch_allocator",
            "maximum_matching",
            format!("the maximum-matching bound (model only) is not defined with {w} (allowed values: single_pass, iterative; maximum_matching needs mode without preemption, block_size = 1, switch_stage = single_cycle)"),
        )),
    }
}

/// The switch stage: `registered` needs the multiplexed crossbar (the full
/// crossbar has no allocation to register); in P mode only `registered`
/// with per-VC credits is specified (§6 *Registered switch allocation in
/// P mode*; with or without acceleration).
fn validate_switch_stage(r: &RouterParams) -> Result<SwitchStage, ConfigError> {
    let Some(kind) = r.switch_stage else { return Ok(SwitchStage::SingleCycle) };
    if kind != SwitchStageKind::SingleCycle {
        if r.crossbar == Crossbar::Full {
            return Err(ConfigError::field(
                "router.switch_stage",
                kind.as_str(),
                "the full crossbar has no switch allocation to register (allowed values: single_cycle; registered and split need crossbar = \"multiplexed\")",
            ));
        }
        if r.mode == RouterMode::Preemptive {
            validate_preemptive_switch_stage(kind)?;
        }
    }
    // §6 *Split switch allocation*: the iterative allocator's rounds need
    // points A and B in one cycle.
    if kind == SwitchStageKind::Split && r.switch_allocator == Some(SwitchAllocatorKind::Iterative) {
        return Err(ConfigError::field(
            "router.switch_stage",
            kind.as_str(),
            "the split switch stage puts point B in a cycle of its own, which the iterative allocator's rounds cannot (allowed values with switch_allocator = \"iterative\": single_cycle, registered; split needs switch_allocator = \"single_pass\")",
        ));
    }
    Ok(match kind {
        SwitchStageKind::SingleCycle => SwitchStage::SingleCycle,
        SwitchStageKind::Registered => SwitchStage::Registered,
        SwitchStageKind::Split => SwitchStage::Split,
    })
}

/// `switch_stage` other than `single_cycle` in P mode: `registered`, with or
/// without acceleration, with per-VC or per-lane credits (golden model and
/// RTL); `split` is defined only for the modes without preemption.
fn validate_preemptive_switch_stage(kind: SwitchStageKind) -> Result<(), ConfigError> {
    if kind != SwitchStageKind::Split {
        return Ok(());
    }
    Err(ConfigError::field(
        "router.switch_stage",
        kind.as_str(),
        "the split switch stage is defined for the modes without preemption (allowed values with mode = \"preemptive\": single_cycle or registered; registered or split with unpartitioned, traditional or non_preemptive)",
    ))
}

/// `atomic` reallocation is specified for the modes without preemption: a
/// suspended message's output VC (§9.4 case (b)) is released before its
/// tail, which the atomic rule does not cover.
fn validate_vc_reallocation(r: &RouterParams) -> Result<(), ConfigError> {
    if r.vc_reallocation == Some(VcReallocation::Atomic) && r.mode == RouterMode::Preemptive {
        return Err(ConfigError::field(
            "router.vc_reallocation",
            VcReallocation::Atomic.as_str(),
            "allowed values: tail_crossed with mode = \"preemptive\"; atomic with unpartitioned, traditional or non_preemptive",
        ));
    }
    Ok(())
}

/// The cap on best-effort output VCs exists where any class may take any
/// output VC and a higher class may take a VC from a lower one: the
/// preemptive mode. In the partitioned modes best effort already has its own
/// VCs (§9.2); in the unpartitioned mode no class preempts another, and the
/// cap is not specified there (the mode keeps §6's allocation).
fn validate_best_effort_output_vcs(r: &RouterParams) -> Result<(), ConfigError> {
    validate_output_vc_cap(r, "router.best_effort_output_vcs", "best effort", r.best_effort_output_vcs)
}

/// The cap on real-time output VCs, for the same reason only in the
/// preemptive mode: in the partitioned modes real time has its own VCs.
fn validate_realtime_output_vcs(r: &RouterParams) -> Result<(), ConfigError> {
    validate_output_vc_cap(r, "router.realtime_output_vcs", "real time", r.realtime_output_vcs)
}

/// A cap `cap` on the output VCs one class (`who`) holds at a port: P mode
/// only, 1..=vcs.
fn validate_output_vc_cap(r: &RouterParams, field: &'static str, who: &str, cap: Option<u32>) -> Result<(), ConfigError> {
    let Some(k) = cap else { return Ok(()) };
    if r.mode != RouterMode::Preemptive {
        return Err(ConfigError::field(
            field,
            k,
            format!(
                "a cap on the output VCs {who} holds is defined for mode = \"preemptive\" only; mode is `{}` (allowed values: leave it out)",
                r.mode.as_str()
            ),
        ));
    }
    check_range(field, k, (1, r.vcs))
}

/// Lane credits exist where there are lanes: the preemptive mode.
fn validate_preemption_credits(r: &RouterParams) -> Result<(), ConfigError> {
    let Some(c) = r.preemption_credits else { return Ok(()) };
    if r.mode != RouterMode::Preemptive && c == PreemptionCredits::PerLane {
        return Err(ConfigError::field(
            "router.preemption_credits",
            format!("\"{}\"", c.as_str()),
            format!(
                "credits per lane exist only where a VC has lanes, mode = \"preemptive\"; mode is `{}` (allowed values: \"per_vc\" or leave it out)",
                r.mode.as_str()
            ),
        ));
    }
    Ok(())
}

impl SwitchAllocatorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SwitchAllocatorKind::SinglePass => "single_pass",
            SwitchAllocatorKind::Iterative => "iterative",
            SwitchAllocatorKind::MaximumMatching => "maximum_matching",
        }
    }
}

/// Checks the mode-dependent fields and returns the VC partition (class of
/// each VC) for the partitioned modes, empty otherwise.
fn validate_mode(r: &RouterParams, classes: u32) -> Result<Vec<u32>, ConfigError> {
    let need_scheduler = match r.mode {
        RouterMode::Unpartitioned => None,
        RouterMode::Traditional => Some(Scheduler::Fifo),
        RouterMode::NonPreemptive | RouterMode::Preemptive => Some(Scheduler::Virtualclock),
    };
    if let Some(s) = need_scheduler {
        if r.scheduler != s {
            let name = |s: Scheduler| match s {
                Scheduler::Fifo => "fifo",
                Scheduler::RoundRobin => "round_robin",
                Scheduler::Virtualclock => "virtualclock",
            };
            return Err(ConfigError::field(
                "router.scheduler",
                name(r.scheduler),
                format!("mode `{}` needs scheduler `{}` (allowed values: {})", r.mode.as_str(), name(s), name(s)),
            ));
        }
    }
    if r.mode == RouterMode::Preemptive && classes < 2 {
        return Err(ConfigError::field(
            "router.traffic_classes",
            classes,
            format!("the preemptive mode needs at least two priority levels: allowed range 2..={}", CLASSES_RANGE.1),
        ));
    }
    if r.acceleration && (r.mode != RouterMode::Preemptive || r.crossbar != Crossbar::Multiplexed) {
        return Err(ConfigError::field(
            "router.acceleration",
            "true",
            "acceleration acts at the input-port scheduler (point A): it needs mode = \"preemptive\" and crossbar = \"multiplexed\" (allowed values: false otherwise)",
        ));
    }
    let m = r.vcs;
    if !r.mode.is_partitioned() {
        for (field, given) in [("router.vc_ratio", r.vc_ratio.is_some()), ("router.vc_classes", r.vc_classes.is_some())] {
            if given {
                return Err(ConfigError::field(
                    field,
                    "(given)",
                    format!(
                        "a static VC partition only exists in the traditional and non_preemptive modes; mode is `{}` (allowed values: leave it out)",
                        r.mode.as_str()
                    ),
                ));
            }
        }
        return Ok(Vec::new());
    }
    if m < classes {
        return Err(ConfigError::field(
            "router.vcs",
            m,
            format!("a static partition gives every class at least one VC: allowed range {classes}..={} (router.traffic_classes = {classes})", VCS_RANGE.1),
        ));
    }
    match (&r.vc_ratio, &r.vc_classes) {
        (Some(_), Some(_)) | (None, None) => Err(ConfigError::field(
            "router.vc_ratio",
            if r.vc_ratio.is_some() { "(given together with router.vc_classes)" } else { "(missing)" },
            format!("mode `{}` needs exactly one of router.vc_ratio (one weight per class) or router.vc_classes (one class per VC) (allowed values: one of the two)", r.mode.as_str()),
        )),
        (Some(w), None) => {
            if w.len() as u32 != classes {
                return Err(ConfigError::field(
                    "router.vc_ratio",
                    format!("{} entries", w.len()),
                    format!("one weight per class: exactly {classes} entries, each 0..=1000000"),
                ));
            }
            if let Some((c, &x)) = w.iter().enumerate().find(|(_, &x)| x > 1_000_000) {
                return Err(ConfigError::field(format!("router.vc_ratio[{c}]"), x, "allowed range 0..=1000000"));
            }
            Ok(partition_from_ratio(w, m))
        }
        (None, Some(map)) => {
            if map.len() as u32 != m {
                return Err(ConfigError::field(
                    "router.vc_classes",
                    format!("{} entries", map.len()),
                    format!("one class per VC: exactly {m} entries, each 0..={}", classes - 1),
                ));
            }
            if let Some((v, &c)) = map.iter().enumerate().find(|(_, &c)| c >= classes) {
                return Err(ConfigError::field(format!("router.vc_classes[{v}]"), c, format!("a class: allowed range 0..={}", classes - 1)));
            }
            if let Some(c) = (0..classes).find(|c| !map.contains(c)) {
                return Err(ConfigError::field(
                    "router.vc_classes",
                    format!("{map:?}"),
                    format!("class {c} has no VC; every class 0..={} needs at least one", classes - 1),
                ));
            }
            Ok(map.clone())
        }
    }
}

/// Every class gets one VC; the other `m - s` VCs are split in proportion to
/// the weights by largest remainder (ties to the higher class). Classes take
/// consecutive VCs in descending class order from VC 0, so the highest class
/// (control) owns VC 0, as in `003_…` §4.2.
pub fn partition_from_ratio(weights: &[u32], m: u32) -> Vec<u32> {
    let s = weights.len() as u32;
    let spare = (m - s) as u64;
    let total: u64 = weights.iter().map(|&w| w as u64).sum();
    let mut count: Vec<u64> = vec![1; s as usize];
    if spare > 0 {
        if total == 0 {
            // No preference: everything spare goes to the lowest class.
            count[0] += spare;
        } else {
            let mut rem: Vec<(u64, usize)> = Vec::new();
            let mut given = 0;
            for (c, &w) in weights.iter().enumerate() {
                let share = spare * w as u64;
                count[c] += share / total;
                given += share / total;
                rem.push((share % total, c));
            }
            rem.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
            for &(_, c) in rem.iter().take((spare - given) as usize) {
                count[c] += 1;
            }
        }
    }
    let mut map = Vec::with_capacity(m as usize);
    for c in (0..s as usize).rev() {
        map.extend(std::iter::repeat(c as u32).take(count[c] as usize));
    }
    map
}

impl fmt::Display for RouterConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_toml())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> String {
        r#"
name = "t"
[router]
ports = 5
vcs = 4
flit_width = 32
input_buffer_depth = 8
output_buffer_depth = 8
crossbar = "multiplexed"
scheduler = "round_robin"
"#
        .to_string()
    }

    fn err(text: &str) -> ConfigError {
        RouterConfig::from_toml_str(text, "t.toml").unwrap_err()
    }

    #[test]
    fn base_is_valid_and_derives_the_header() {
        let c = RouterConfig::from_toml_str(&base(), "t.toml").unwrap();
        let h = c.header();
        assert_eq!((h.dest.lsb, h.dest.width), (0, 3));
        assert_eq!((h.class.lsb, h.class.width), (3, 1));
        assert_eq!((h.vtick.lsb, h.vtick.width), (4, 16));
        assert_eq!(c.routes(), &[0, 1, 2, 3, 4]);
        assert_eq!(c.vc_width(), 2);
        assert_eq!(c.route(7), 0);
    }

    /// The typed view of each mode (§9.1): written from the spec's table of
    /// modes, not from `RouterConfig::new`.
    #[test]
    fn modes_become_typed_qos_and_scheduling() {
        let with = |extra: &str, sched: &str, xbar: &str| {
            let t = base().replace("scheduler = \"round_robin\"", &format!("scheduler = \"{sched}\"\n{extra}"));
            RouterConfig::from_toml_str(&t.replace("\"multiplexed\"", &format!("\"{xbar}\"")), "t.toml").unwrap()
        };
        let found = with("", "round_robin", "full");
        assert_eq!(found.qos(), &Qos::Shared);
        assert_eq!(found.scheduling().point, SchedulingPoint::OutputPort);
        assert_eq!(found.scheduling().order, FlitOrder::RoundRobin);
        assert!(found.scheduling().virtual_clock().is_none());

        let tr = with("mode = \"traditional\"\ntraffic_classes = 2\nvc_classes = [0, 0, 1, 1]", "fifo", "multiplexed");
        assert_eq!(tr.qos(), &Qos::Partitioned(Partition { vc_class: vec![0, 0, 1, 1] }));
        assert_eq!(tr.scheduling().point, SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::SingleCycle });
        assert_eq!(tr.scheduling().order, FlitOrder::Age);
        assert!(tr.qos().allocation_reads_class());

        // one class: every VC is class 0's, so allocation is the foundation's
        let tr1 = with("mode = \"traditional\"\ntraffic_classes = 1\nvc_classes = [0, 0, 0, 0]", "fifo", "multiplexed");
        assert_eq!(tr1.qos(), &Qos::Shared);

        let p = with("mode = \"preemptive\"\ntraffic_classes = 3\nacceleration = true", "virtualclock", "multiplexed");
        assert_eq!(p.qos(), &Qos::Preemptive(Preemption { extra_lanes: 2, acceleration: true, best_effort_output_vcs: None, realtime_output_vcs: None, credits: PreemptionCredits::PerVc }));
        assert_eq!(p.extra_lanes(), 2);
        let vc = p.scheduling().virtual_clock().expect("virtualclock order");
        assert_eq!((vc.vtick.lsb, vc.vtick.width, vc.clock_width), (3 + 2, 16, 16));
    }

    #[test]
    fn zero_ports_names_the_field_and_range() {
        let e = err(&base().replace("ports = 5", "ports = 0"));
        let msg = e.to_string();
        assert!(msg.contains("router.ports") && msg.contains("2..=32"), "{msg}");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let e = err(&base().replace("vcs = 4", "vcs = 4\nbogus = 1"));
        assert!(matches!(e, ConfigError::Parse { .. }));
        assert!(e.to_string().contains("bogus"), "{e}");
    }

    #[test]
    fn header_must_fit() {
        let e = err(&base().replace("flit_width = 32", "flit_width = 16"));
        let msg = e.to_string();
        assert!(msg.contains("router.flit_width") && msg.contains("20 bits"), "{msg}");
        // 20 bits is exactly enough
        RouterConfig::from_toml_str(&base().replace("flit_width = 32", "flit_width = 20"), "t").unwrap();
    }

    #[test]
    fn shallow_input_buffer_is_rejected_for_the_credit_loop() {
        let e = err(&base().replace("input_buffer_depth = 8", "input_buffer_depth = 3"));
        assert!(e.to_string().contains("credit round trip"), "{e}");
        RouterConfig::from_toml_str(&base().replace("input_buffer_depth = 8", "input_buffer_depth = 4"), "t").unwrap();
    }

    #[test]
    fn route_to_missing_port_is_rejected() {
        let text = base() + "[topology]\nkind = \"single_switch\"\nroutes = [0, 1, 2, 3, 5]\n";
        let msg = err(&text).to_string();
        assert!(msg.contains("topology.routes[4]") && msg.contains("0..=4"), "{msg}");
        let text = base() + "[topology]\nkind = \"single_switch\"\nroutes = [4, 3, 2, 1, 0]\n";
        let c = RouterConfig::from_toml_str(&text, "t").unwrap();
        assert_eq!(c.route(0), 4);
    }

    #[test]
    fn vtick_must_fit_the_clock() {
        let e = err(&base().replace("vcs = 4", "vcs = 4\nvtick_width = 20\nclock_width = 16"));
        let msg = e.to_string();
        assert!(msg.contains("router.vtick_width") && msg.contains("8..=16"), "{msg}");
        let e = err(&base().replace("vcs = 4", "vcs = 4\nclock_width = 40"));
        assert!(e.to_string().contains("router.clock_width") && e.to_string().contains("8..=32"), "{e}");
        let text = base().replace("vcs = 4", "vcs = 4\nvtick_width = 8\nclock_width = 8").replace("round_robin", "virtualclock");
        let c = RouterConfig::from_toml_str(&text, "t").unwrap();
        assert_eq!((c.clock_width(), c.scheduler()), (8, Scheduler::Virtualclock));
    }

    #[test]
    fn switch_allocator_is_typed_and_checked() {
        let point = |t: &str| RouterConfig::from_toml_str(&(base() + t), "t").unwrap().scheduling().point;
        assert_eq!(point(""), SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::SingleCycle });
        assert_eq!(
            point("switch_allocator = \"iterative\"\n"),
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 3 }, stage: SwitchStage::SingleCycle }
        );
        assert_eq!(
            point("switch_allocator = \"iterative\"\nswitch_iterations = 1\n"),
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 1 }, stage: SwitchStage::SingleCycle }
        );
        let msg = err(&(base() + "switch_allocator = \"iterative\"\nswitch_iterations = 5\n")).to_string();
        assert!(msg.contains("router.switch_iterations") && msg.contains("1..=4"), "{msg}");
        let msg = err(&(base() + "switch_iterations = 2\n")).to_string();
        assert!(msg.contains("router.switch_iterations") && msg.contains("iterative"), "{msg}");
        let full = base().replace("multiplexed", "full");
        let msg = err(&(full.clone() + "switch_allocator = \"single_pass\"\n")).to_string();
        assert!(msg.contains("router.switch_allocator") && msg.contains("full crossbar"), "{msg}");
        assert_eq!(point("").switch_allocator(), Some(SwitchAllocator::SinglePass));
        let c = RouterConfig::from_toml_str(&full, "t").unwrap();
        assert_eq!(c.scheduling().point.switch_allocator(), None);
        assert!(err(&(base() + "switch_allocator = \"wavefront\"\n")).to_string().contains("switch_allocator"));
    }

    #[test]
    fn vc_reallocation_defaults_to_tail_crossed_and_refuses_atomic_with_preemption() {
        let c = |extra: &str| RouterConfig::from_toml_str(&(base() + extra), "t").unwrap().vc_reallocation();
        assert_eq!(c(""), VcReallocation::TailCrossed);
        assert_eq!(c("vc_reallocation = \"tail_crossed\"\n"), VcReallocation::TailCrossed);
        assert_eq!(c("vc_reallocation = \"atomic\"\n"), VcReallocation::Atomic);
        let p = base().replace("round_robin", "virtualclock") + "mode = \"preemptive\"\n";
        RouterConfig::from_toml_str(&(p.clone() + "vc_reallocation = \"tail_crossed\"\n"), "t").unwrap();
        let msg = err(&(p + "vc_reallocation = \"atomic\"\n")).to_string();
        assert!(msg.contains("field `router.vc_reallocation`") && msg.contains("allowed values") && msg.contains("t.toml:"), "{msg}");
        let msg = err(&(base() + "vc_reallocation = \"eventually\"\n")).to_string();
        assert!(msg.contains("eventually") && msg.contains("tail_crossed") && msg.contains("atomic"), "{msg}");
    }

    #[test]
    fn switch_stage_is_typed_and_checked() {
        let point = |extra: &str| RouterConfig::from_toml_str(&(base() + extra), "t").unwrap().scheduling().point;
        assert_eq!(point("").switch_stage(), SwitchStage::SingleCycle);
        assert_eq!(point("switch_stage = \"single_cycle\"\n").switch_stage(), SwitchStage::SingleCycle);
        assert_eq!(
            point("switch_stage = \"registered\"\nswitch_allocator = \"iterative\"\n"),
            SchedulingPoint::InputPort {
                switch: SwitchAllocator::Iterative { iterations: 3 },
                stage: SwitchStage::Registered
            }
        );
        let full = base().replace("multiplexed", "full");
        let msg = err(&(full.clone() + "switch_stage = \"registered\"\n")).to_string();
        assert!(msg.contains("router.switch_stage") && msg.contains("allowed values"), "{msg}");
        let c = RouterConfig::from_toml_str(&(full + "switch_stage = \"single_cycle\"\n"), "t").unwrap();
        assert_eq!(c.scheduling().point.switch_stage(), SwitchStage::SingleCycle);
        let p = base().replace("round_robin", "virtualclock") + "mode = \"preemptive\"\n";
        RouterConfig::from_toml_str(&p, "t").unwrap();
        // P mode: registered (golden model and RTL), with or without
        // acceleration, never with per-lane credits.
        let pr = p + "switch_stage = \"registered\"\n";
        let rtl = RouterConfig::from_toml_str(&pr, "t").unwrap();
        assert_eq!(rtl.scheduling().point.switch_stage(), SwitchStage::Registered);
        let sim = RouterConfig::from_toml_str_simulated(&pr, "t").unwrap();
        assert_eq!(sim.scheduling().point.switch_stage(), SwitchStage::Registered);
        let acc = RouterConfig::from_toml_str(&(pr.clone() + "acceleration = true\n"), "t").unwrap();
        assert_eq!(acc.scheduling().point.switch_stage(), SwitchStage::Registered);
        assert!(acc.acceleration());
        // per-lane credits: the credit carries the SA cycle's lane (§6), lockstep-checked
        let lanes = RouterConfig::from_toml_str(&(pr.clone() + "preemption_credits = \"per_lane\"\n"), "t").unwrap();
        assert!(lanes.per_lane_credits() && lanes.scheduling().point.switch_stage() == SwitchStage::Registered);
        let both = RouterConfig::from_toml_str(&(pr + "acceleration = true\npreemption_credits = \"per_lane\"\n"), "t").unwrap();
        assert!(both.acceleration() && both.per_lane_credits());
        let np = base().replace("round_robin", "virtualclock") + "mode = \"non_preemptive\"\nvc_ratio = [1, 1, 2]\nswitch_stage = \"registered\"\n";
        assert_eq!(RouterConfig::from_toml_str(&np, "t").unwrap().scheduling().point.switch_stage(), SwitchStage::Registered);
        assert!(err(&(base() + "switch_stage = \"pipelined\"\n")).to_string().contains("switch_stage"));
        // §6 *Split switch allocation*: the single-pass allocator only, the
        // multiplexed crossbar, the modes without preemption.
        assert_eq!(
            point("switch_stage = \"split\"\n"),
            SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::Split }
        );
        let np = np.replace("\"registered\"", "\"split\"");
        assert_eq!(RouterConfig::from_toml_str(&np, "t").unwrap().scheduling().point.switch_stage(), SwitchStage::Split);
        let msg = err(&(base() + "switch_stage = \"split\"\nswitch_allocator = \"iterative\"\n")).to_string();
        assert!(msg.contains("field `router.switch_stage`") && msg.contains("allowed values") && msg.contains("single_pass"), "{msg}");
        let msg = err(&(base().replace("multiplexed", "full") + "switch_stage = \"split\"\n")).to_string();
        assert!(msg.contains("field `router.switch_stage`") && msg.contains("multiplexed"), "{msg}");
        let p = base().replace("round_robin", "virtualclock") + "mode = \"preemptive\"\nswitch_stage = \"split\"\n";
        assert!(err(&p).to_string().contains("preempt"));
        let msg = RouterConfig::from_toml_str_simulated(&p, "t").unwrap_err().to_string();
        assert!(msg.contains("split switch stage is defined for the modes without preemption"), "{msg}");
    }

    #[test]
    fn seventy_two_bit_flits_are_fine() {
        let c = RouterConfig::from_toml_str(&base().replace("flit_width = 32", "flit_width = 72"), "t").unwrap();
        assert_eq!(c.flit_words(), 2);
    }

    #[test]
    fn field_extract_insert_roundtrip_across_words() {
        let f = Field { lsb: 60, width: 10 };
        let mut d = [0u64; 2];
        f.insert(&mut d, 0x3a5);
        assert_eq!(f.extract(&d), 0x3a5);
        assert_eq!(d[0] >> 60, 0x5);
        assert_eq!(d[1], 0x3a);
    }

    #[test]
    fn modes_default_to_three_classes_and_need_their_scheduler() {
        let c = RouterConfig::from_toml_str(&base(), "t").unwrap();
        assert_eq!((c.mode(), c.traffic_classes(), c.extra_lanes()), (RouterMode::Unpartitioned, 2, 0));
        let p = base().replace("round_robin", "virtualclock") + "mode = \"preemptive\"\n";
        let c = RouterConfig::from_toml_str(&p, "t").unwrap();
        assert_eq!((c.traffic_classes(), c.extra_lanes(), c.header().class.width), (3, 2, 2));
        assert!(c.vc_classes().is_none());
        let msg = err(&(base() + "mode = \"preemptive\"\n")).to_string();
        assert!(msg.contains("router.scheduler") && msg.contains("virtualclock"), "{msg}");
        let msg = err(&(base() + "mode = \"traditional\"\nvc_ratio = [1, 1, 1]\n")).to_string();
        assert!(msg.contains("router.scheduler") && msg.contains("fifo"), "{msg}");
        let msg = err(&(p.clone() + "traffic_classes = 1\n")).to_string();
        assert!(msg.contains("router.traffic_classes") && msg.contains("2..=8"), "{msg}");
    }

    #[test]
    fn partition_from_ratio_gives_every_class_a_vc_and_control_vc0() {
        // 16 VCs, BE:RT:control = 80:20:0 -> control 1, the 13 spare split 80:20.
        let map = partition_from_ratio(&[80, 20, 0], 16);
        let count = |c| map.iter().filter(|&&x| x == c).count();
        assert_eq!((count(0), count(1), count(2)), (1 + 10, 1 + 3, 1));
        assert_eq!(map[0], 2);
        assert_eq!(&map[1..5], &[1, 1, 1, 1]);
        assert_eq!(partition_from_ratio(&[1, 1], 2), vec![1, 0]);
        // 3 spare VCs, equal weights: the remainder tie goes to the higher class.
        assert_eq!(partition_from_ratio(&[1, 1], 5), vec![1, 1, 1, 0, 0]);
        assert_eq!(partition_from_ratio(&[0, 0], 4), vec![1, 0, 0, 0]);
    }

    #[test]
    fn partitions_are_checked() {
        let np = base().replace("round_robin", "virtualclock") + "mode = \"non_preemptive\"\n";
        let msg = err(&np).to_string();
        assert!(msg.contains("router.vc_ratio") && msg.contains("exactly one"), "{msg}");
        let c = RouterConfig::from_toml_str(&(np.clone() + "vc_classes = [2, 1, 0, 0]\n"), "t").unwrap();
        assert_eq!(c.vc_classes(), Some(&[2, 1, 0, 0][..]));
        let msg = err(&(np.clone() + "vc_classes = [2, 1, 1, 1]\n")).to_string();
        assert!(msg.contains("class 0 has no VC"), "{msg}");
        let msg = err(&(np.clone() + "vc_classes = [2, 1, 3, 0]\n")).to_string();
        assert!(msg.contains("router.vc_classes[2]") && msg.contains("0..=2"), "{msg}");
        let msg = err(&(np.clone() + "vc_ratio = [1, 2]\n")).to_string();
        assert!(msg.contains("exactly 3 entries"), "{msg}");
        let msg = err(&(np.replace("vcs = 4", "vcs = 2") + "vc_ratio = [1, 1, 1]\n")).to_string();
        assert!(msg.contains("router.vcs") && msg.contains("3..=16"), "{msg}");
        let msg = err(&(base() + "vc_ratio = [1, 1]\n")).to_string();
        assert!(msg.contains("router.vc_ratio") && msg.contains("only exists"), "{msg}");
    }

    /// The cap's range is 1..=vcs (here 4) in the preemptive mode and it is
    /// refused in the others; a cap of every VC is no cap (§9.4 stage 3).
    #[test]
    fn preemption_credits_are_checked() {
        let p = base().replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"");
        let c = |v: &str| RouterConfig::from_toml_str(&format!("{p}preemption_credits = \"{v}\"\n"), "t");
        assert!(c("per_lane").unwrap().per_lane_credits());
        assert!(!c("per_vc").unwrap().per_lane_credits());
        assert!(!RouterConfig::from_toml_str(&p, "t").unwrap().per_lane_credits());
        assert!(c("per_flit").is_err());
        let e = RouterConfig::from_toml_str(&format!("{}preemption_credits = \"per_lane\"\n", base()), "t").unwrap_err().to_string();
        assert!(e.contains("field `router.preemption_credits`") && e.contains("allowed values"), "{e}");
    }

    #[test]
    fn best_effort_output_vcs_is_checked() {
        let p = base().replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"");
        let c = |k: u32| RouterConfig::from_toml_str(&format!("{p}best_effort_output_vcs = {k}\n"), "t").unwrap();
        assert_eq!(c(1).best_effort_output_vcs(), Some(1));
        assert_eq!(c(3).best_effort_output_vcs(), Some(3));
        assert!(c(3).qos().allocation_reads_class());
        assert_eq!(c(4).best_effort_output_vcs(), None);
        assert_eq!(RouterConfig::from_toml_str(&p, "t").unwrap().best_effort_output_vcs(), None);
        for k in [0, 5] {
            let msg = err(&format!("{p}best_effort_output_vcs = {k}\n")).to_string();
            assert!(msg.contains("field `router.best_effort_output_vcs`") && msg.contains("1..=4"), "{msg}");
            assert!(msg.contains("t.toml:") && msg.contains(&k.to_string()), "{msg}");
        }
        let np = base().replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 1]");
        for other in [base(), np] {
            let msg = err(&format!("{other}best_effort_output_vcs = 2\n")).to_string();
            assert!(msg.contains("field `router.best_effort_output_vcs`") && msg.contains("allowed values"), "{msg}");
        }
    }

    /// As the best-effort cap: 1..=vcs (4 here) in P mode, `vcs` is no cap,
    /// and any value is refused in the other modes.
    #[test]
    fn realtime_output_vcs_is_checked() {
        let p = base().replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"");
        let c = |k: u32| RouterConfig::from_toml_str(&format!("{p}realtime_output_vcs = {k}\n"), "t").unwrap();
        assert_eq!(c(1).realtime_output_vcs(), Some(1));
        assert_eq!(c(3).realtime_output_vcs(), Some(3));
        assert_eq!(c(3).best_effort_output_vcs(), None);
        assert!(c(3).qos().allocation_reads_class());
        assert_eq!(c(4).realtime_output_vcs(), None);
        assert!(!c(4).qos().allocation_reads_class());
        assert_eq!(RouterConfig::from_toml_str(&p, "t").unwrap().realtime_output_vcs(), None);
        for k in [0, 5] {
            let msg = err(&format!("{p}realtime_output_vcs = {k}\n")).to_string();
            assert!(msg.contains("field `router.realtime_output_vcs`") && msg.contains("1..=4"), "{msg}");
            assert!(msg.contains("t.toml:") && msg.contains(&k.to_string()), "{msg}");
        }
        let np = base().replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 1]");
        for other in [base(), np] {
            let msg = err(&format!("{other}realtime_output_vcs = 2\n")).to_string();
            assert!(msg.contains("field `router.realtime_output_vcs`") && msg.contains("allowed values") && msg.contains("real time"), "{msg}");
        }
    }

    #[test]
    fn acceleration_and_block_size_are_checked() {
        let p = base().replace("round_robin", "virtualclock") + "mode = \"preemptive\"\n";
        let c = RouterConfig::from_toml_str(&(p.clone() + "acceleration = true\nblock_size = 5\n"), "t").unwrap();
        assert!(c.acceleration());
        assert_eq!(c.block_size(), 5);
        let msg = err(&(p.replace("multiplexed", "full") + "acceleration = true\n")).to_string();
        assert!(msg.contains("router.acceleration") && msg.contains("multiplexed"), "{msg}");
        let msg = err(&(base() + "acceleration = true\n")).to_string();
        assert!(msg.contains("router.acceleration"), "{msg}");
        let msg = err(&(base() + "block_size = 0\n")).to_string();
        assert!(msg.contains("router.block_size") && msg.contains("1..=64"), "{msg}");
        let msg = err(&(base() + "[synthesis]\ntarget_mhz = 0\n")).to_string();
        assert!(msg.contains("synthesis.target_mhz") && msg.contains("1..=1000"), "{msg}");
        let c = RouterConfig::from_toml_str(&(base() + "[synthesis]\ntarget_mhz = 250\n"), "t").unwrap();
        assert_eq!(c.target_mhz(), 250);
        assert_eq!(RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap(), c);
    }

    #[test]
    fn network_topology_sets_destination_width() {
        let rest = |routes: &str| base().split("[topology]").next().unwrap().to_string() + "[topology]\nkind = \"network\"\nroutes = " + routes + "\n";
        // 9 endpoints need 4 destination bits; unknown codes go to port 0.
        let c = RouterConfig::from_toml_str(&rest("[0, 1, 2, 3, 4, 4, 4, 3, 1]"), "t").unwrap();
        assert_eq!(c.endpoints(), 9);
        assert_eq!(c.header().dest.width, 4);
        assert_eq!(c.route(8), 1);
        assert_eq!(c.route(12), 0);
        assert_eq!(RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap(), c);
        let msg = err(&rest("[0, 9]")).to_string();
        assert!(msg.contains("topology.routes[1]"), "{msg}");
        let msg = err(&rest("[]")).to_string();
        assert!(msg.contains("topology.routes"), "{msg}");
    }

    #[test]
    fn route_vcs_are_checked() {
        let net = |extra: &str| base() + "[topology]\nkind = \"network\"\nroutes = [0, 1, 2]\n" + extra;
        // Destination 0: VCs 0-1, 1: VC 3 only, 2: all four.
        let c = RouterConfig::from_toml_str(&net("route_vcs = [3, 8, 15]\n"), "t").unwrap();
        assert_eq!(c.route_vc_table(), Some(&[3, 8, 15][..]));
        assert_eq!((c.route_vcs(0), c.route_vcs(1), c.route_vcs(2)), (0b0011, 0b1000, 0b1111));
        // Code 3 is no endpoint (3 endpoints, 2 destination bits): every VC, like its route to port 0.
        assert_eq!(c.route_vcs(3), 0b1111);
        assert_eq!(RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap(), c);
        // Without a table every destination may use every VC.
        let plain = RouterConfig::from_toml_str(&net(""), "t").unwrap();
        assert_eq!((plain.route_vc_table(), plain.route_vcs(1)), (None, 15));

        let msg = err(&net("route_vcs = [3, 8]\n")).to_string();
        assert!(msg.contains("topology.route_vcs") && msg.contains("exactly 3 entries") && msg.contains("1..=15"), "{msg}");
        let msg = err(&net("route_vcs = [3, 0, 15]\n")).to_string();
        assert!(msg.contains("topology.route_vcs[1]") && msg.contains("= 0") && msg.contains("1..=15"), "{msg}");
        let msg = err(&net("route_vcs = [3, 16, 15]\n")).to_string();
        assert!(msg.contains("topology.route_vcs[1]") && msg.contains("= 16") && msg.contains("1..=15"), "{msg}");
        // Parallel links: destination 1 may use ports 1 and 2, destination 2 ports 2..=4.
        let c = RouterConfig::from_toml_str(&net("route_links = [1, 2, 3]\n"), "t").unwrap();
        assert_eq!((c.route_links(0), c.route_links(1), c.route_links(2), c.route_links(3)), (1, 2, 3, 1));
        assert_eq!(RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap(), c);
        assert_eq!(plain.route_link_table(), None);
        // Port 2 + 4 links would need port 5 of 5 ports (0..=4).
        let msg = err(&net("route_links = [1, 2, 4]\n")).to_string();
        assert!(msg.contains("topology.route_links[2]") && msg.contains("1..=3"), "{msg}");
        let msg = err(&net("route_links = [1, 0, 1]\n")).to_string();
        assert!(msg.contains("topology.route_links[1]") && msg.contains("1..=4"), "{msg}");
        let msg = err(&net("route_links = [1, 1]\n")).to_string();
        assert!(msg.contains("topology.route_links") && msg.contains("exactly 3 entries"), "{msg}");
        // Also on a single switch, whose endpoints are its ports.
        let ss = base() + "[topology]\nkind = \"single_switch\"\nroute_vcs = [1, 2, 4, 8, 15]\n";
        assert_eq!(RouterConfig::from_toml_str(&ss, "t").unwrap().route_vcs(3), 8);
        let msg = err(&(base() + "[topology]\nkind = \"single_switch\"\nroute_vcs = [1, 2, 4, 8]\n")).to_string();
        assert!(msg.contains("exactly 5 entries"), "{msg}");
    }

    #[test]
    fn route_vcs_must_meet_every_class_of_a_partition() {
        // NP, 4 VCs owned by classes [2, 1, 0, 0]: class 0 owns VCs 2-3 (mask 12),
        // class 1 VC 1 (mask 2), class 2 VC 0 (mask 1).
        let np = base().replace("round_robin", "virtualclock") + "mode = \"non_preemptive\"\nvc_classes = [2, 1, 0, 0]\n";
        let net = |masks: &str| np.clone() + "[topology]\nkind = \"network\"\nroutes = [0, 1]\nroute_vcs = " + masks + "\n";
        let c = RouterConfig::from_toml_str(&net("[7, 11]"), "t").unwrap();
        assert_eq!(c.route_vcs(1), 11);
        // Mask 3 = VCs 0-1 leaves class 0 without a VC for destination 1.
        let msg = err(&net("[7, 3]")).to_string();
        assert!(msg.contains("topology.route_vcs[1]") && msg.contains("class 0") && msg.contains("mask 12"), "{msg}");
        // Mask 13 = VCs 0, 2, 3 has no VC of class 1.
        let msg = err(&net("[13, 15]")).to_string();
        assert!(msg.contains("topology.route_vcs[0]") && msg.contains("class 1") && msg.contains("mask 2"), "{msg}");
    }

    #[test]
    fn toml_roundtrip() {
        let c = RouterConfig::from_toml_str(&base(), "t").unwrap();
        let again = RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap();
        assert_eq!(c, again);
    }
}

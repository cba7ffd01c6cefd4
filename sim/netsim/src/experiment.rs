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
    pub topology: TopologySpec,
    #[serde(default)]
    pub physical: Physical,
    pub workload: Workload,
    #[serde(default)]
    pub run: Run,
    #[serde(default)]
    pub model: Model,
    /// Only in sweep files: dotted key -> list of values (see `sweep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<toml::Table>,
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
    /// default [2, 1], 000_… §4's R2 at half R1's rate. 000_… §4 with three
    /// classes: [1, 0.6667, 0.5] (R2, R3 at 1.5 and 2 times R1's gap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_rates: Option<Vec<f64>>,
    /// `realtime = "poisson"`: each class's Vtick is this times 1/(λ_c M)
    /// (default 1; < 1 reserves more bandwidth than the class uses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vtick_scale: Option<f64>,
}

impl Model {
    /// Shares of the real-time messages per class R1, R2, … (sum 1).
    pub fn realtime_shares(&self) -> Vec<f64> {
        let r = self.realtime_rates.clone().unwrap_or_else(|| vec![2.0, 1.0]);
        let total: f64 = r.iter().sum();
        r.iter().map(|x| x / total).collect()
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
    #[serde(default = "default_mix")]
    pub mix: [f64; 2],
    #[serde(default = "default_rt")]
    pub realtime: RealTime,
    #[serde(default = "default_be")]
    pub best_effort: BestEffort,
    /// Flits per message, header included (001_…: 20 or 40).
    #[serde(default = "default_msg")]
    pub message_flits: u32,
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
    /// Frame-size trace for `realtime = "trace"`, relative to the experiment file.
    #[serde(default)]
    pub trace_file: Option<PathBuf>,
    /// Input regulator: a frame's messages spaced evenly over the frame time.
    #[serde(default = "yes")]
    pub regulator: bool,
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
    #[serde(default)]
    pub phases: Vec<[f64; 2]>,
    #[serde(default)]
    pub phase_seconds: Option<f64>,
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
fn yes() -> bool {
    true
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
}

impl Experiment {
    pub fn from_file(path: &Path) -> Result<Validated, ExperimentError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ExperimentError::Parse { file: file.clone(), message: e.to_string() })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::from_str(&text, &file, dir)
    }

    pub fn from_str(text: &str, file: &str, dir: PathBuf) -> Result<Validated, ExperimentError> {
        let exp: Experiment =
            toml::from_str(text).map_err(|e| ExperimentError::Parse { file: file.to_string(), message: e.to_string() })?;
        exp.validate(file, dir)
    }

    pub fn validate(self, file: &str, dir: PathBuf) -> Result<Validated, ExperimentError> {
        let ferr = |field: &str, value: String, why: String| ExperimentError::Field {
            file: file.to_string(),
            field: field.to_string(),
            value,
            why,
        };
        let w = &self.workload;
        if !(w.load.is_finite() && (0.0..=1.0).contains(&w.load)) {
            return Err(ferr("workload.load", w.load.to_string(), "a fraction of link bandwidth: allowed range 0..=1".into()));
        }
        let mixes: Vec<[f64; 2]> = if w.phases.is_empty() { vec![w.mix] } else { w.phases.clone() };
        for (i, m) in mixes.iter().enumerate() {
            if m.iter().any(|v| !v.is_finite() || *v < 0.0) || m[0] + m[1] <= 0.0 {
                let f = if w.phases.is_empty() { "workload.mix".to_string() } else { format!("workload.phases[{i}]") };
                return Err(ferr(&f, format!("{m:?}"), "x:y with x, y >= 0 and x + y > 0".into()));
            }
        }
        if !w.phases.is_empty() && w.phase_seconds.map_or(true, |s| !(s > 0.0)) {
            return Err(ferr("workload.phase_seconds", format!("{:?}", w.phase_seconds), "required (> 0) when workload.phases is given".into()));
        }
        if !(2..=4096).contains(&w.message_flits) {
            return Err(ferr("workload.message_flits", w.message_flits.to_string(), "allowed range 2..=4096".into()));
        }
        if !(1..=4096).contains(&w.control_flits) {
            return Err(ferr("workload.control_flits", w.control_flits.to_string(), "allowed range 1..=4096".into()));
        }
        if !(self.physical.link_mbps.is_finite() && self.physical.link_mbps > 0.0) {
            return Err(ferr("physical.link_mbps", self.physical.link_mbps.to_string(), "must be > 0".into()));
        }
        if !(w.frames_per_second > 0.0) || !(w.frame_bytes > 0.0) || !(w.frame_sd_bytes >= 0.0) {
            return Err(ferr("workload.frame_bytes", format!("{} / sd {} / fps {}", w.frame_bytes, w.frame_sd_bytes, w.frames_per_second), "frame size and rate must be positive".into()));
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
        if w.realtime == RealTime::Trace {
            let Some(t) = &w.trace_file else {
                return Err(ferr("workload.trace_file", "missing".into(), "required with realtime = \"trace\"".into()));
            };
            crate::workload::read_trace(&dir.join(t)).map_err(ExperimentError::Trace)?;
        }
        if self.model.scheduler == ModelScheduler::Fgfq && self.router.scheduler != wormqos_config::Scheduler::Virtualclock {
            return Err(ferr(
                "model.scheduler",
                "\"fgfq\"".into(),
                format!(
                    "FGFQ replaces Fine-Grained VirtualClock at its scheduling points and needs router.scheduler = \"virtualclock\" (is {:?})",
                    self.router.scheduler
                ),
            ));
        }
        if let Some(x) = self.model.vtick_scale {
            if !(x.is_finite() && x > 0.0 && x <= 100.0) {
                return Err(ferr("model.vtick_scale", x.to_string(), "allowed range (0, 100]".into()));
            }
        }
        let r = &self.run;
        if !(2..=32).contains(&r.batches) {
            return Err(ferr("run.batches", r.batches.to_string(), "allowed range 2..=32".into()));
        }
        let ports = self.router.ports as usize;
        let net = self.topology.build(ports).map_err(|e| match e {
            crate::topology::TopologyError::Field { field, value, why } => ferr(&format!("topology.{field}"), value, why),
        })?;
        if net.ports_needed > ports {
            return Err(ferr("router.ports", ports.to_string(), format!("the topology needs {} ports", net.ports_needed)));
        }
        let mut configs = Vec::with_capacity(net.routers);
        for (i, routes) in net.routes.iter().enumerate() {
            let topology = if matches!(self.topology, TopologySpec::SingleSwitch) {
                Topology::SingleSwitch { routes: None, route_vcs: None }
            } else {
                Topology::Network { routes: routes.clone(), route_vcs: None, route_links: net.route_links.get(i).cloned() }
            };
            let mut cf = ConfigFile { name: sanitize(&self.name, i), router: self.router.clone(), topology, synthesis: SynthesisParams::default() };
            let parse = |e: wormqos_config::ConfigError| ExperimentError::Parse { file: file.to_string(), message: e.to_string() };
            let mut cfg = RouterConfig::new(cf.clone()).map_err(parse)?;
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
                cfg = RouterConfig::new(cf).map_err(parse)?;
            }
            configs.push(cfg);
        }
        if let Some(rates) = &self.model.realtime_rates {
            let classes = configs[0].traffic_classes() as usize;
            if rates.is_empty() || rates.len() + 1 > classes.max(2) || rates.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                return Err(ferr(
                    "model.realtime_rates",
                    format!("{rates:?}"),
                    format!("1..={} relative rates (router.traffic_classes − 1, best effort takes class 0), each > 0", classes.max(2) - 1),
                ));
            }
        }
        let header = configs[0].header();
        let hw = header.width();
        let idw = crate::network::tag_bits(configs[0].flit_width(), hw);
        if idw < 8 {
            return Err(ferr(
                "router.flit_width",
                self.router.flit_width.to_string(),
                format!("the simulator tags messages (spec §9.6) and needs flit_width >= header ({hw}) + 8 and >= 24"),
            ));
        }
        let cycle_s = self.router.flit_width as f64 / (self.physical.link_mbps * 1e6);
        Ok(Validated { exp: self, file: file.to_string(), dir, net, configs, cycle_s })
    }
}

fn sanitize(name: &str, i: usize) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert(0, 'x');
    }
    s.truncate(36);
    format!("{s}_r{i}")
}

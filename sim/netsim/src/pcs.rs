//! Model-only pipelined circuit switching (PCS) on a single switch: the
//! connection set-up of 001_… §III-F, §IV-B.1 and §V-F (Table VI), with a
//! VC and bandwidth reserved per connection on the path, or the connection
//! dropped. No RTL implements it (`generate`, `cosim` and `synth` refuse an
//! experiment with `model.switching = "pcs"`); `wormqos sim` runs it.
//!
//! The rules, as read from the paper (docs/reproduction.md, "001_… Fig. 10
//! and Table VI", says where the text is ambiguous):
//! - one connection per stream, one VC per connection on every link of its
//!   path ("each connection (and hence a stream) also needs a distinct VC"),
//!   and the stream's bandwidth reserved on every link ("reserving the
//!   required bandwidth at the intermediate switches"); on a single switch
//!   the path is the source's input link and the destination's output link;
//! - the source picks its input VC (its lowest free real-time VC: the
//!   source knows its own VCs), then the destination uniformly among the
//!   other endpoints and the destination VC uniformly among the real-time
//!   VCs ("the destination VC is also drawn randomly from a uniform
//!   distribution of the VCs available for VBR traffic");
//! - no adaptive routing and no backtracking (§III-F: "we do not assume
//!   any adaptive routing capability"): a probe whose destination VC is
//!   held, or whose output link lacks the bandwidth, is dropped (a negative
//!   acknowledgment); the source does not retry that probe but makes a
//!   new attempt with a new draw;
//! - connections are dropped only at set-up, and a connection holds its VCs
//!   and bandwidth until torn down (`tear_down`);
//! - Table VI counts the attempts needed to reach an input load: the
//!   sources take turns, each attempting until its share of the streams is
//!   established; the streams last the whole run (none is torn down).

use crate::experiment::{Experiment, Switching};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Why a probe was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Drop {
    /// The source has no free real-time VC on its input link.
    NoInputVc,
    /// The drawn VC of the destination's output link is held.
    VcBusy,
    /// The output (or input) link's free bandwidth is below the stream's.
    NoBandwidth,
}

/// A connection's reservations, kept for its tear-down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connection {
    pub source: usize,
    pub input_vc: usize,
    pub dest: usize,
    pub output_vc: usize,
    /// Reserved bandwidth, in the switch's bandwidth units.
    pub rate: u64,
}

/// One link direction's reservations.
#[derive(Clone, Debug)]
struct Link {
    vc_held: Vec<bool>,
    reserved: u64,
}

impl Link {
    fn new(vcs: usize) -> Link {
        Link { vc_held: vec![false; vcs], reserved: 0 }
    }
    fn has_room(&self, rate: u64, capacity: u64) -> bool {
        self.reserved + rate <= capacity
    }
}

/// The reservations of an N-port switch: per input link and per output link,
/// which real-time VCs are held and how much bandwidth is reserved.
/// Bandwidth is an integer (kbit/s) so that "fits exactly" is exact.
#[derive(Clone, Debug)]
pub struct PcsSwitch {
    inputs: Vec<Link>,
    outputs: Vec<Link>,
    capacity: u64,
}

impl PcsSwitch {
    /// `ports` links each way, `vcs` real-time VCs per link, `capacity` per link.
    pub fn new(ports: usize, vcs: usize, capacity: u64) -> PcsSwitch {
        PcsSwitch { inputs: vec![Link::new(vcs); ports], outputs: vec![Link::new(vcs); ports], capacity }
    }

    /// The source's lowest free input VC.
    pub fn free_input_vc(&self, source: usize) -> Option<usize> {
        self.inputs[source].vc_held.iter().position(|h| !h)
    }

    /// A probe from `source` on `input_vc` to `dest`'s `output_vc` reserving
    /// `rate`: either every reservation is made (the acknowledgment) or none
    /// (the negative acknowledgment, with the reason).
    pub fn set_up(&mut self, source: usize, input_vc: usize, dest: usize, output_vc: usize, rate: u64) -> Result<Connection, Drop> {
        let (i, o) = (&self.inputs[source], &self.outputs[dest]);
        if i.vc_held[input_vc] {
            return Err(Drop::NoInputVc);
        }
        if o.vc_held[output_vc] {
            return Err(Drop::VcBusy);
        }
        if !i.has_room(rate, self.capacity) || !o.has_room(rate, self.capacity) {
            return Err(Drop::NoBandwidth);
        }
        self.inputs[source].vc_held[input_vc] = true;
        self.inputs[source].reserved += rate;
        self.outputs[dest].vc_held[output_vc] = true;
        self.outputs[dest].reserved += rate;
        Ok(Connection { source, input_vc, dest, output_vc, rate })
    }

    /// Releases a connection's VCs and bandwidth.
    pub fn tear_down(&mut self, c: Connection) {
        self.inputs[c.source].vc_held[c.input_vc] = false;
        self.inputs[c.source].reserved -= c.rate;
        self.outputs[c.dest].vc_held[c.output_vc] = false;
        self.outputs[c.dest].reserved -= c.rate;
    }

    /// Bandwidth reserved on `dest`'s output link.
    pub fn output_reserved(&self, dest: usize) -> u64 {
        self.outputs[dest].reserved
    }

    /// Connections on `dest`'s output link (its held VCs).
    pub fn output_streams(&self, dest: usize) -> u64 {
        self.outputs[dest].vc_held.iter().filter(|h| **h).count() as u64
    }

    /// Whether `dest`'s output VC is held.
    pub fn output_vc_held(&self, dest: usize, vc: usize) -> bool {
        self.outputs[dest].vc_held[vc]
    }
}

/// The set-up counts of one replication.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SetUpCounts {
    pub attempts: u64,
    pub established: u64,
    pub dropped_vc_busy: u64,
    pub dropped_bandwidth: u64,
    /// Streams on the busiest output link once all are established: a probe
    /// is dropped for a held VC with probability at most this / VCs.
    pub busiest_output: u64,
}

impl SetUpCounts {
    pub fn dropped(&self) -> u64 {
        self.dropped_vc_busy + self.dropped_bandwidth
    }
}

/// The parameters of Table VI's procedure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetUpPlan {
    pub ports: usize,
    /// Real-time VCs per link.
    pub vcs: usize,
    /// Link and stream bandwidth, kbit/s.
    pub link_kbps: u64,
    pub stream_kbps: u64,
    /// Streams to establish in all.
    pub streams: u64,
}

/// Attempts per replication before the procedure gives up (a share that no
/// free output can take any more: near full load every other output may be full).
pub const MAX_ATTEMPTS: u64 = 10_000_000;

/// Table VI's procedure: sources take turns (round robin), each attempting
/// while its share (`streams / ports`, the first `streams % ports` sources
/// one more) is not established. `None` if `MAX_ATTEMPTS` did not suffice.
pub fn establish_streams(p: &SetUpPlan, seed: u64) -> Option<SetUpCounts> {
    establish(p, seed).map(|(c, _)| c)
}

/// `establish_streams` with the connections it made, in set-up order.
pub fn establish(p: &SetUpPlan, seed: u64) -> Option<(SetUpCounts, Vec<Connection>)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut sw = PcsSwitch::new(p.ports, p.vcs, p.link_kbps);
    let n = p.ports as u64;
    let share: Vec<u64> = (0..n).map(|s| p.streams / n + u64::from(s < p.streams % n)).collect();
    let mut got = vec![0u64; p.ports];
    let mut c = SetUpCounts::default();
    let mut s = 0usize;
    let mut made = Vec::with_capacity(p.streams as usize);
    while c.established < p.streams {
        if c.attempts >= MAX_ATTEMPTS {
            return None;
        }
        while got[s] >= share[s] {
            s = (s + 1) % p.ports;
        }
        c.attempts += 1;
        // The share is at most the VCs per link (checked by `validate`).
        let input_vc = sw.free_input_vc(s).expect("share <= VCs per link");
        let dest = (s + 1 + rng.gen_range(0..p.ports - 1)) % p.ports;
        let output_vc = rng.gen_range(0..p.vcs);
        match sw.set_up(s, input_vc, dest, output_vc, p.stream_kbps) {
            Ok(conn) => {
                made.push(conn);
                got[s] += 1;
                c.established += 1;
            }
            Err(Drop::VcBusy) => c.dropped_vc_busy += 1,
            Err(Drop::NoBandwidth) => c.dropped_bandwidth += 1,
            Err(Drop::NoInputVc) => unreachable!("the source picked a free input VC"),
        }
        s = (s + 1) % p.ports;
    }
    c.busiest_output = (0..p.ports).map(|d| sw.output_streams(d)).max().unwrap_or(0);
    Some((c, made))
}

/// Mean and 95 % half-width (Student t over the replications).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub ci95: f64,
}

fn estimate(xs: &[f64]) -> Estimate {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Estimate { mean, ci95: crate::metrics::t95(xs.len() - 1) * (var / n).sqrt() }
}

/// What `wormqos sim` reports for a PCS experiment.
#[derive(Clone, Debug, Serialize)]
pub struct PcsResults {
    pub name: String,
    pub switching: &'static str,
    pub load: f64,
    pub ports: usize,
    pub realtime_vcs: usize,
    pub link_kbps: u64,
    pub stream_kbps: u64,
    /// Streams established in each replication (the load's).
    pub streams: u64,
    /// The established load: streams × stream rate / (ports × link rate).
    pub established_load: f64,
    pub replications: usize,
    pub attempts: Estimate,
    pub dropped: Estimate,
    pub dropped_vc_busy: Estimate,
    pub dropped_bandwidth: Estimate,
    pub busiest_output: Estimate,
    /// The most streams any output held in any replication.
    pub busiest_output_max: u64,
    /// Dropped / attempted, over all replications.
    pub drop_fraction: f64,
    pub per_replication: Vec<SetUpCounts>,
    /// The data phase over the established circuits (`run.seconds` or
    /// `run.cycles` given), else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<DataSummary>,
}

/// The data phase over the replications (`crate::pcs_data`).
#[derive(Clone, Debug, Serialize)]
pub struct DataSummary {
    pub cycles: u64,
    pub warmup_cycles: u64,
    pub frame_interval_mean_ms: Estimate,
    pub frame_interval_sd_ms: Estimate,
    pub busiest_offered_load: Estimate,
    pub busiest_carried_load: Estimate,
    pub busiest_streams: Estimate,
    pub busiest_backlog_flits: Estimate,
    pub long_intervals: Estimate,
    pub per_replication: Vec<crate::pcs_data::DataCounts>,
}

/// The PCS plan of a validated experiment (`validate` accepted it).
pub fn plan(exp: &Experiment) -> SetUpPlan {
    let ports = exp.router.ports as usize;
    let w = &exp.workload;
    let vcs = realtime_vcs(exp);
    let link_kbps = (exp.physical.link_mbps * 1e3).round() as u64;
    // The stream's mean payload rate, as the paper reserves it ("each with
    // 4Mbps bandwidth requirement"): header flits are not reserved.
    let stream_kbps = (w.frame_bytes * 8.0 * w.frames_per_second / 1e3).round() as u64;
    let streams = (w.load * ports as f64 * link_kbps as f64 / stream_kbps as f64).round() as u64;
    SetUpPlan { ports, vcs, link_kbps, stream_kbps, streams }
}

/// Real-time VCs per link: x/(x+y) of the VCs (001_… §IV-B.3), at least one.
fn realtime_vcs(exp: &Experiment) -> usize {
    let m = exp.workload.mix;
    let vcs = exp.model.pcs_vcs.unwrap_or(exp.router.vcs);
    ((vcs as f64 * m[0] / (m[0] + m[1])).round() as usize).max(1)
}

/// The PCS fields' checks: (field, value, why) of the first bad one.
pub fn validate(exp: &Experiment) -> Result<(), (String, String, String)> {
    let m = &exp.model;
    if m.switching != Switching::Pcs {
        let only = |f: &str, n: u32| Err((f.to_string(), n.to_string(), "only with model.switching = \"pcs\"".to_string()));
        return match (m.pcs_replications, m.pcs_vcs) {
            (Some(n), _) => only("model.pcs_replications", n),
            (_, Some(n)) => only("model.pcs_vcs", n),
            (None, None) => Ok(()),
        };
    }
    let bad = |f: &str, v: String, why: &str| Err((f.to_string(), v, why.to_string()));
    if !matches!(exp.topology.spec, crate::topology::TopologySpec::SingleSwitch) {
        return bad("model.switching", "\"pcs\"".into(), "the PCS set-up model is for topology.kind = \"single_switch\" (001_… Table VI); allowed values: \"wormhole\", or \"pcs\" on a single switch");
    }
    if let Some(n) = m.pcs_replications {
        if !(PCS_REPLICATIONS.0..=PCS_REPLICATIONS.1).contains(&n) {
            return bad("model.pcs_replications", n.to_string(), &format!("allowed range {}..={}", PCS_REPLICATIONS.0, PCS_REPLICATIONS.1));
        }
    }
    if let Some(n) = m.pcs_vcs {
        if !(PCS_VCS.0..=PCS_VCS.1).contains(&n) {
            return bad("model.pcs_vcs", n.to_string(), &format!("allowed range {}..={}", PCS_VCS.0, PCS_VCS.1));
        }
    }
    if exp.workload.mix[0] <= 0.0 || !exp.workload.phases.is_empty() {
        return bad("workload.mix", format!("{:?}", exp.workload.mix), "PCS sets up real-time streams: x > 0 and no workload.phases");
    }
    if exp.workload.realtime != crate::experiment::RealTime::Vbr && exp.workload.realtime != crate::experiment::RealTime::Cbr {
        let value = toml::Value::try_from(exp.workload.realtime).map_or_else(|_| format!("{:?}", exp.workload.realtime), |v| v.to_string());
        return bad("workload.realtime", value, "allowed values with model.switching = \"pcs\": \"vbr\", \"cbr\"");
    }
    let p = plan(exp);
    if p.stream_kbps == 0 || p.stream_kbps > p.link_kbps {
        return bad("workload.frame_bytes", exp.workload.frame_bytes.to_string(), "a stream's rate (frame_bytes × 8 × frames_per_second) must be 1 kbit/s ..= physical.link_mbps");
    }
    let per_source = p.streams.div_ceil(p.ports as u64);
    let fits = (p.link_kbps / p.stream_kbps).min(p.vcs as u64);
    if p.streams == 0 || per_source > fits {
        let why = format!(
            "needs {} streams ({per_source} per source) but a link holds at most {fits} (its real-time VCs and bandwidth): allowed range {:.4}..={:.4}",
            p.streams,
            0.5 * p.stream_kbps as f64 / (p.ports as f64 * p.link_kbps as f64),
            fits as f64 * p.stream_kbps as f64 / p.link_kbps as f64
        );
        return Err(("workload.load".into(), exp.workload.load.to_string(), why));
    }
    Ok(())
}

/// `model.pcs_replications`: allowed range and default.
pub const PCS_REPLICATIONS: (u32, u32) = (2, 100_000);
pub const DEFAULT_REPLICATIONS: u32 = 20;
/// `model.pcs_vcs`: allowed range (001_…: "up to 100 VCs" at 400 Mbps).
pub const PCS_VCS: (u32, u32) = (1, 1024);

/// Runs the validated PCS experiment: `model.pcs_replications` independent
/// replications (seeds `run.seed`, `run.seed + 1`, …). With `run.seconds`
/// or `run.cycles`, each replication's circuits then carry their streams
/// (`crate::pcs_data`) and the frame delivery intervals are measured.
pub fn run(v: &crate::Validated) -> Result<PcsResults, String> {
    let exp = &v.exp;
    let p = plan(exp);
    let n = exp.model.pcs_replications.unwrap_or(DEFAULT_REPLICATIONS) as u64;
    let with_data = exp.run.seconds.is_some() || exp.run.cycles.is_some();
    let mut reps = Vec::with_capacity(n as usize);
    let mut data = Vec::new();
    for k in 0..n {
        let seed = exp.run.seed.wrapping_add(k);
        let (c, conns) = establish(&p, seed).ok_or_else(|| {
            format!("replication {k} (seed {seed}): {} streams not established after {MAX_ATTEMPTS} attempts (every output a source may use is full); lower workload.load", p.streams)
        })?;
        reps.push(c);
        if with_data {
            data.push(crate::pcs_data::replicate(v, &p, &conns, seed));
        }
    }
    let data = with_data.then(|| {
        let col = |f: fn(&crate::pcs_data::DataCounts) -> f64| estimate(&data.iter().map(f).collect::<Vec<_>>());
        let (cycles, warmup_cycles) = v.run_cycles();
        DataSummary {
            cycles,
            warmup_cycles,
            frame_interval_mean_ms: col(|d| d.frame_interval_mean_ms),
            frame_interval_sd_ms: col(|d| d.frame_interval_sd_ms),
            busiest_offered_load: col(|d| d.busiest_offered_load),
            busiest_carried_load: col(|d| d.busiest_carried_load),
            busiest_streams: col(|d| d.busiest_streams as f64),
            busiest_backlog_flits: col(|d| d.busiest_backlog_flits as f64),
            long_intervals: col(|d| d.long_intervals as f64),
            per_replication: data.clone(),
        }
    });
    let col = |f: fn(&SetUpCounts) -> u64| estimate(&reps.iter().map(|c| f(c) as f64).collect::<Vec<_>>());
    let attempts: u64 = reps.iter().map(|c| c.attempts).sum();
    let dropped: u64 = reps.iter().map(|c| c.dropped()).sum();
    Ok(PcsResults {
        name: exp.name.clone(),
        switching: "pcs",
        load: exp.workload.load,
        ports: p.ports,
        realtime_vcs: p.vcs,
        link_kbps: p.link_kbps,
        stream_kbps: p.stream_kbps,
        streams: p.streams,
        established_load: p.streams as f64 * p.stream_kbps as f64 / (p.ports as f64 * p.link_kbps as f64),
        replications: reps.len(),
        attempts: col(|c| c.attempts),
        dropped: col(|c| c.dropped()),
        dropped_vc_busy: col(|c| c.dropped_vc_busy),
        dropped_bandwidth: col(|c| c.dropped_bandwidth),
        busiest_output: col(|c| c.busiest_output),
        busiest_output_max: reps.iter().map(|c| c.busiest_output).max().unwrap_or(0),
        drop_fraction: dropped as f64 / attempts as f64,
        per_replication: reps,
        data,
    })
}

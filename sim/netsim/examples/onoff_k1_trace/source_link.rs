//! How the K ON/OFF streams of one endpoint share its real-time class's VC
//! on the source link, measured over several seeds (`--seeds S --cycles C`
//! of `onoff_k1_trace`). Every real-time message endpoint 0 sends, taken in
//! the order its NI gave them the class's VC (`SourceVc::started`), is
//! compared with its predecessor there:
//!
//! - **back to back**: it was created before its predecessor's tail was
//!   delivered less the one-VC turnaround (created + L0 < delivered_prev +
//!   S, L0 = M + 4 the latency of a message alone: P − 1 = 4 pipeline
//!   cycles and M flits; S = M + 2 the VC's cycles per message when they
//!   follow each other, docs/microarchitecture.md §6 "Back-to-back messages
//!   on one input VC": RC and VA again after the previous tail);
//! - its **delivery spacing** from the predecessor when back to back (S if
//!   the VC serves one message per M + 2 cycles whatever stream it is of);
//! - whether the predecessor is of **another stream** (the streams
//!   interleave on the one VC message by message);
//! - the **replay**: delivered = max(created + L0, delivered_prev + S) over
//!   the log in VC order, a FIFO server of constant service S fed by the
//!   simulated creation times; the share of messages it reproduces exactly
//!   and its mean latency.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::onoff_fluid::{BurstClass, BurstDelay};
use wormqos_netsim::analytic::predict;
use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::Experiment;

/// `--seeds S --cycles C`.
pub struct Repeat {
    seeds: u64,
    cycles: u64,
}

/// One point's measurement, summed over the seeds.
pub struct Row {
    streams: usize,
    gap: f64,
    seeds: u64,
    cycles: u64,
    /// Per seed: the real-time mean total (source wait + network latency)
    /// over every endpoint, and endpoint 0's.
    sim_total: Vec<f64>,
    ep0_total: Vec<f64>,
    messages: u64,
    back_to_back: u64,
    spacing_sum: f64,
    spacing_is_s: u64,
    other_stream: u64,
    vcs: BTreeSet<u8>,
    replay_exact: u64,
    replay_total_sum: f64,
    own_place_sum: f64,
    kim2005_network: f64,
    /// `BurstClass::delay` (links added, c = 1 at both) and
    /// `BurstClass::tandem_delay`; `None` where not modelled.
    added: Option<BurstDelay>,
    tandem: Option<BurstDelay>,
    dest_pairs: u64,
    dest_spacing_min: u64,
    dest_spacing_is_s: u64,
    dest_spacing_is_s1: u64,
}

impl Repeat {
    /// Removes `--seeds S --cycles C` from `args` (both or neither).
    pub fn take_from(args: &mut Vec<String>) -> anyhow::Result<Option<Repeat>> {
        let mut take = |flag: &str| -> anyhow::Result<Option<u64>> {
            let Some(i) = args.iter().position(|a| a == flag) else { return Ok(None) };
            anyhow::ensure!(i + 1 < args.len(), "{flag} needs a value");
            let v = args[i + 1].parse().map_err(|e| anyhow::anyhow!("{flag} {}: {e}", args[i + 1]))?;
            args.drain(i..=i + 1);
            Ok(Some(v))
        };
        match (take("--seeds")?, take("--cycles")?) {
            (None, None) => Ok(None),
            (Some(seeds), Some(cycles)) if seeds >= 1 && cycles > 40_000 => Ok(Some(Repeat { seeds, cycles })),
            _ => anyhow::bail!("--seeds S (≥ 1) and --cycles C (> 40000) go together"),
        }
    }

    /// Runs point `K:I_us` of the experiment text `base` for every seed.
    pub fn point(&self, base: &str, file: &str, point: &str) -> anyhow::Result<Row> {
        let (k, off) = point.split_once(':').ok_or_else(|| anyhow::anyhow!("{point}: not K:I_us"))?;
        let streams: usize = k.parse()?;
        let mut v = Experiment::from_str(base, file, PathBuf::new())?;
        v.exp.workload.onoff_streams = streams as u32;
        v.exp.workload.onoff_mean_off_us = off.parse()?;
        v.exp.run.cycles = Some(self.cycles);
        let o = v.offered()?.onoff[0].clone();
        let kim = predict::plan(&v)?.evaluate(&[]).into_iter().find(|n| n.name == "kim2005").ok_or_else(|| anyhow::anyhow!("no kim2005 row"))?.result?;
        let class = BurstClass {
            ports: v.exp.router.ports as usize,
            streams,
            mean_burst: v.exp.workload.onoff_mean_messages,
            gap: o.gap,
            off_mean: o.off,
            flits: o.flits as f64,
            capacity: 1.0,
        };
        let mut row = Row {
            streams,
            gap: o.gap,
            seeds: self.seeds,
            cycles: self.cycles,
            sim_total: Vec::new(),
            ep0_total: Vec::new(),
            messages: 0,
            back_to_back: 0,
            spacing_sum: 0.0,
            spacing_is_s: 0,
            other_stream: 0,
            vcs: BTreeSet::new(),
            replay_exact: 0,
            replay_total_sum: 0.0,
            own_place_sum: 0.0,
            kim2005_network: kim.iter().find(|c| c.class == 1).unwrap().network_latency,
            added: class.delay().ok(),
            tandem: class.tandem_delay().ok(),
            dest_pairs: 0,
            dest_spacing_min: u64::MAX,
            dest_spacing_is_s: 0,
            dest_spacing_is_s1: 0,
        };
        for seed in 1..=self.seeds {
            v.exp.run.seed = seed;
            let (r, log) = Sim::new(&v)?.run_logged_all()?;
            let warm = v.run_cycles().1;
            let mut rt: Vec<MessageLog> = log.into_iter().filter(|x| x.class == 1 && x.created >= warm).collect();
            row.add_destination_side(&mut rt, o.flits as u64);
            let mut log: Vec<MessageLog> = rt.into_iter().filter(|x| x.src == 0).collect();
            log.sort_by_key(|x| (x.source.started, x.created));
            let rt = r.classes.iter().find(|c| c.class == 1).unwrap();
            row.sim_total.push(rt.network_latency + rt.source_latency);
            row.add(&log, o.flits as u64, o.gap);
        }
        Ok(row)
    }
}

impl Row {
    /// At every destination: real-time deliveries in order, each pair of
    /// messages from different sources where the later one was waiting for
    /// the output (created + L0 < the previous delivery + M + 2): how far
    /// apart the output delivered them: M + 2 if the output's one VC paid
    /// RC and VA again, M + 1 if only VA (the waiting header did RC
    /// already and does VA in the cycle after the previous tail's ST).
    fn add_destination_side(&mut self, rt: &mut [MessageLog], flits: u64) {
        let (l0, s) = (flits + 4, flits + 2);
        rt.sort_by_key(|x| (x.dest, x.delivered));
        for w in rt.windows(2) {
            let (p, x) = (&w[0], &w[1]);
            if p.dest == x.dest && p.src != x.src && x.created + l0 < p.delivered + s {
                let spacing = x.delivered - p.delivered;
                self.dest_pairs += 1;
                self.dest_spacing_min = self.dest_spacing_min.min(spacing);
                self.dest_spacing_is_s += u64::from(spacing == s);
                self.dest_spacing_is_s1 += u64::from(spacing == s - 1);
            }
        }
    }

    fn add(&mut self, log: &[MessageLog], flits: u64, gap: f64) {
        let (l0, s) = (flits + 4, flits + 2);
        let mut replay_prev: Option<u64> = None;
        // Place of each message in its own stream's burst: created within
        // 2 g of the same stream's previous message.
        let mut last_of_flow: std::collections::HashMap<u32, (u64, u64)> = Default::default();
        let mut total = 0.0;
        for (j, x) in log.iter().enumerate() {
            self.vcs.insert(x.source.vc);
            total += (x.delivered - x.created) as f64;
            let place = match last_of_flow.get(&x.flow) {
                Some(&(created, place)) if ((x.created - created) as f64) < 2.0 * gap => place + 1,
                _ => 0,
            };
            last_of_flow.insert(x.flow, (x.created, place));
            self.own_place_sum += place as f64;
            let replay = replay_prev.map_or(x.created + l0, |p| (x.created + l0).max(p + s));
            replay_prev = Some(replay);
            self.replay_exact += u64::from(replay == x.delivered);
            self.replay_total_sum += (replay - x.created) as f64;
            if j > 0 {
                let p = &log[j - 1];
                if x.created + l0 < p.delivered + s {
                    self.back_to_back += 1;
                    let spacing = x.delivered as f64 - p.delivered as f64;
                    self.spacing_sum += spacing;
                    self.spacing_is_s += u64::from(spacing == s as f64);
                    self.other_stream += u64::from(p.flow != x.flow);
                }
            }
        }
        self.messages += log.len() as u64;
        self.ep0_total.push(total / log.len().max(1) as f64);
    }
}

/// Mean and standard error over the seeds.
fn mean_se(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() > 1 { x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, (var / n).sqrt())
}

pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "streams,gap,seeds,cycles,sim_total,sim_total_se,ep0_total,ep0_total_se,ep0_messages,back_to_back,spacing_mean,spacing_is_m_plus_2,\
         back_to_back_other_stream,source_vcs,replay_exact,replay_total,own_burst_place,kim2005_network,\
         added_source,added_destination,added_total,added_error,tandem_source,tandem_destination,tandem_total,tandem_error,\
         dest_other_input_pairs,dest_spacing_min,dest_spacing_is_m_plus_1,dest_spacing_is_m_plus_2\n",
    );
    for r in rows {
        let (sim, sim_se) = mean_se(&r.sim_total);
        let (ep0, ep0_se) = mean_se(&r.ep0_total);
        let n = r.messages.max(1) as f64;
        let b = r.back_to_back.max(1) as f64;
        writeln!(
            out,
            "{},{:.1},{},{},{sim:.4},{sim_se:.4},{ep0:.4},{ep0_se:.4},{},{:.4},{:.4},{:.4},{:.4},{},{:.4},{:.4},{:.4},{:.4},{},{},{},{},{:.4},{:.4}",
            r.streams,
            r.gap,
            r.seeds,
            r.cycles,
            r.messages,
            r.back_to_back as f64 / n,
            r.spacing_sum / b,
            r.spacing_is_s as f64 / b,
            r.other_stream as f64 / b,
            r.vcs.len(),
            r.replay_exact as f64 / n,
            r.replay_total_sum / n,
            r.own_place_sum / n,
            r.kim2005_network,
            model_columns(&r.added, r.kim2005_network, sim),
            model_columns(&r.tandem, r.kim2005_network, sim),
            r.dest_pairs,
            if r.dest_pairs > 0 { r.dest_spacing_min.to_string() } else { "none".into() },
            r.dest_spacing_is_s1 as f64 / r.dest_pairs.max(1) as f64,
            r.dest_spacing_is_s as f64 / r.dest_pairs.max(1) as f64
        )
        .unwrap();
    }
    out
}

/// source, destination, total (`kim2005`'s network latency + both links)
/// and its error relative to the simulated total; "not modelled" where the
/// model gives no number.
fn model_columns(d: &Option<BurstDelay>, network: f64, sim: f64) -> String {
    match d {
        Some(d) => {
            let total = network + d.source_link + d.destination_link;
            format!("{:.4},{:.4},{total:.4},{:+.2}%", d.source_link, d.destination_link, 100.0 * (total / sim - 1.0))
        }
        None => "not modelled,not modelled,not modelled,not modelled".into(),
    }
}

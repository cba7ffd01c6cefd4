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
//!
//! Over every source's real-time messages (`Row::add_split`): each one's
//! exact split into L0, its wait behind its own VC and its blocking at the
//! destination's output. And per seed (`Row::drawn_model`): the simulated
//! total less each model's total for the destinations that seed drew (a
//! paired difference without the draw's variance).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::onoff_fluid::{BurstClass, BurstDelay};
use wormqos_netsim::analytic::predict;
use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::Experiment;
use crate::replay::{self, SourceFifo};

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
    /// `BurstClass::coupled_delay` and its blocking B̄.
    coupled: Option<BurstDelay>,
    blocking: Option<f64>,
    dest_pairs: u64,
    dest_spacing_min: u64,
    dest_spacing_is_s: u64,
    dest_spacing_is_s1: u64,
    /// Every source's real-time messages in VC order, each split exactly
    /// (`add_split`) into L0, its wait behind its own VC's predecessors
    /// (`wait`) and its blocking at the destination's output (`block`).
    split: Split,
    /// Per seed: the simulated total less the forward tandem model's for
    /// that seed's own draw of the streams' destinations (`drawn_model`);
    /// `None` for a seed where a drawn link is not modelled.
    tandem_drawn_gap: Vec<Option<f64>>,
    coupled_drawn_gap: Vec<Option<f64>>,
    /// Per seed: the model's destination link for that seed's draw
    /// (`drawn_destination`), the fluid counterpart of `dest_fifo_created`.
    drawn_destination: Vec<Option<f64>>,
    /// Per seed: the coupled model's total for that seed's draw.
    coupled_drawn_total: Vec<Option<f64>>,
    class: BurstClass,
}

/// Sums over every real-time message of every source (`Row::add_split`).
#[derive(Default)]
struct Split {
    messages: u64,
    wait_sum: f64,
    block_sum: f64,
    blocked: u64,
    /// Back-to-back messages (created before their predecessor on the VC
    /// could have handed it over): their count, blocking and the VC's
    /// service time for them (delivery spacing from the predecessor).
    b2b: u64,
    b2b_block_sum: f64,
    b2b_service_sum: f64,
    /// Per seed: the mean wait and blocking over every source.
    wait_per_seed: Vec<f64>,
    block_per_seed: Vec<f64>,
    /// Per seed, the wait split by stream (`own_stream_replay`): each
    /// message's own stream replayed alone on the VC at the constant
    /// service S (`own_alone`), and alone with every message's measured
    /// blocking (`own_blocked`, wait and own blocking), and the rest of
    /// its wait + blocking, behind the source's other streams (`others`).
    own_alone_per_seed: Vec<f64>,
    own_blocked_per_seed: Vec<f64>,
    others_per_seed: Vec<f64>,
    /// The packet-scale replays of `replay.rs`, per seed: the source VC
    /// at a constant blocking per message, every stream together and each
    /// alone, at the seed's measured mean blocking (`_at_block`) and at
    /// the model's B̄ (`_at_model`); the destination outputs as FIFO
    /// servers fed at created + L0 (`dest_fifo_created`) and at the
    /// cycle each message could have been delivered behind its VC
    /// predecessor (`dest_fifo_free`); and the mean blocking of the
    /// messages another waits behind on the VC (`ahead`), all of them and
    /// those with a waiting successor of another stream (`ahead_other`).
    /// The destination replays' input: created + L0 unshaped, `free` the
    /// real arrivals (after the real source waits).
    const_all_at_block: Vec<f64>,
    const_own_at_block: Vec<f64>,
    const_all_at_model: Vec<f64>,
    const_own_at_model: Vec<f64>,
    dest_fifo_created: Vec<f64>,
    dest_fifo_free: Vec<f64>,
    /// The forward packet tandem (no coupling): the source VC at the
    /// constant service S, its mean wait, and the destination FIFOs fed
    /// at its deliveries (the destination's input shaped by the source's
    /// other streams).
    forward_source: Vec<f64>,
    dest_fifo_shaped: Vec<f64>,
    ahead_per_seed: Vec<f64>,
    ahead_other_per_seed: Vec<f64>,
    /// The coupled packet replay (`replay::coupled_deliveries`): its mean
    /// total, wait behind the VC predecessor and blocking, and the
    /// measured mean total over the same messages.
    coupled_replay_total: Vec<f64>,
    coupled_replay_wait: Vec<f64>,
    coupled_replay_block: Vec<f64>,
    measured_total: Vec<f64>,
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
            coupled: class.coupled_delay().ok(),
            blocking: class.destination_blocking().ok(),
            dest_pairs: 0,
            dest_spacing_min: u64::MAX,
            dest_spacing_is_s: 0,
            dest_spacing_is_s1: 0,
            split: Split::default(),
            tandem_drawn_gap: Vec::new(),
            coupled_drawn_gap: Vec::new(),
            drawn_destination: Vec::new(),
            coupled_drawn_total: Vec::new(),
            class,
        };
        for seed in 1..=self.seeds {
            v.exp.run.seed = seed;
            let (r, log) = Sim::new(&v)?.run_logged_all()?;
            let warm = v.run_cycles().1;
            let mut rt: Vec<MessageLog> = log.into_iter().filter(|x| x.class == 1 && x.created >= warm).collect();
            row.add_destination_side(&mut rt, o.flits as u64);
            row.add_split(&mut rt, o.flits as u64);
            let total = r.classes.iter().find(|c| c.class == 1).unwrap();
            let sim = total.network_latency + total.source_latency;
            row.tandem_drawn_gap.push(row.drawn_model(&rt, row.tandem.as_ref()).map(|m| sim - m));
            row.coupled_drawn_gap.push(row.drawn_model(&rt, row.coupled.as_ref()).map(|m| sim - m));
            row.drawn_destination.push(row.drawn_destination(&rt));
            row.coupled_drawn_total.push(row.drawn_model(&rt, row.coupled.as_ref()));
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

    /// The tandem model's total (`kim2005`'s network latency, `model`'s
    /// source link, the destination link) for the destinations this seed
    /// drew: every stream (flow) meets at its destination the streams that
    /// drew the same one, so its destination link has that many sources;
    /// the mean over the streams (equal rates) replaces the binomial mean.
    fn drawn_model(&self, rt: &[MessageLog], model: Option<&BurstDelay>) -> Option<f64> {
        let source = model?.source_link;
        Some(self.kim2005_network + source + self.drawn_destination(rt)?)
    }

    /// The forward tandem's destination link (`tandem_destination_link`,
    /// also the coupled model's) for the destinations this seed drew: each
    /// stream's link with the streams that drew the same destination,
    /// averaged over the streams; `None` if a drawn link is not modelled.
    fn drawn_destination(&self, rt: &[MessageLog]) -> Option<f64> {
        let flows: std::collections::BTreeMap<u32, u32> = rt.iter().map(|x| (x.flow, x.dest)).collect();
        let mut at: std::collections::BTreeMap<u32, usize> = Default::default();
        for d in flows.values() {
            *at.entry(*d).or_default() += 1;
        }
        let mut dest = 0.0;
        for d in flows.values() {
            dest += self.class.tandem_destination_link(at[d]).ok()?;
        }
        Some(dest / flows.len() as f64)
    }

    /// Every source's real-time messages in the order they took its one
    /// VC, each message j split exactly into L0 = M + 4 (alone in the
    /// router), its **wait** w_j = max(created_j + L0, delivered_{j−1} + S)
    /// − created_j − L0 behind the VC's predecessor (S = M + 2, the VC's
    /// turnaround: the earliest it could be delivered if its header met a
    /// free output) and its **blocking** b_j = delivered_j − (created_j +
    /// L0 + w_j): the cycles its header waited for the destination's output
    /// while it held the source's VC (plus best effort's per-flit
    /// interference, which the 2-port replay bounds to 0.02 % of the
    /// messages). A back-to-back message's VC service time is S + b_j.
    fn add_split(&mut self, rt: &mut [MessageLog], flits: u64) {
        let (l0, s) = (flits + 4, flits + 2);
        rt.sort_by_key(|x| (x.src, x.source.started, x.created));
        let (mut wait, mut block, mut n) = (0.0, 0.0, 0u64);
        let (mut blocks, mut frees) = (Vec::with_capacity(rt.len()), Vec::with_capacity(rt.len()));
        for (j, x) in rt.iter().enumerate() {
            let (prev, free) = behind_predecessor(rt, j, l0, s);
            let (w, b) = ((free - x.created - l0) as f64, x.delivered as f64 - free as f64);
            blocks.push(b);
            frees.push(free as f64);
            wait += w;
            block += b;
            n += 1;
            self.split.blocked += u64::from(b > 0.0);
            if let Some(p) = prev.filter(|&p| x.created + l0 < p + s) {
                self.split.b2b += 1;
                self.split.b2b_block_sum += b;
                self.split.b2b_service_sum += (x.delivered - p) as f64;
            }
        }
        self.own_stream_replay(rt, flits);
        self.packet_replays(rt, flits, &blocks, &frees, block / n.max(1) as f64);
        self.split.messages += n;
        self.split.wait_sum += wait;
        self.split.block_sum += block;
        self.split.wait_per_seed.push(wait / n.max(1) as f64);
        self.split.block_per_seed.push(block / n.max(1) as f64);
    }

    /// Every source's messages (sorted in VC order by `add_split`), each
    /// stream replayed alone on its source's VC: at the constant service S,
    /// d_j = max(created_j + L0, d_prev + S), the counterpart of the
    /// model's own-stream part W_1(c_s); and with each message's measured
    /// blocking b_j added to its service, d'_j = max(created_j + L0,
    /// d'_prev + S) + b_j, the own stream's wait with its own blocking (the
    /// model's own-stream part plus its destination link). The rest,
    /// delivered_j − d'_j, is the wait behind the source's other streams
    /// (the model's K-stream link less the one-stream link at c_b). The
    /// b_j are those of the real run, where the message came at another
    /// time than in the replay: an approximation, which the per-seed means
    /// keep exact in sum (own_blocked + others = wait + blocking).
    fn own_stream_replay(&mut self, rt: &[MessageLog], flits: u64) {
        let (l0, s) = (flits + 4, flits + 2);
        let mut last: std::collections::HashMap<u32, (i64, i64)> = Default::default();
        let (mut alone, mut own, mut others) = (0.0, 0.0, 0.0);
        for (j, x) in rt.iter().enumerate() {
            let (_, free) = behind_predecessor(rt, j, l0, s);
            // Signed: the replay need not stay behind the real delivery.
            let (earliest, block) = ((x.created + l0) as i64, x.delivered as i64 - free as i64);
            let (d_alone, d_own) = match last.get(&x.flow) {
                Some(&(a, o)) => (earliest.max(a + s as i64), earliest.max(o + s as i64) + block),
                None => (earliest, earliest + block),
            };
            last.insert(x.flow, (d_alone, d_own));
            alone += (d_alone - earliest) as f64;
            own += (d_own - earliest) as f64;
            others += (x.delivered as i64 - d_own) as f64;
        }
        let n = rt.len().max(1) as f64;
        self.split.own_alone_per_seed.push(alone / n);
        self.split.own_blocked_per_seed.push(own / n);
        self.split.others_per_seed.push(others / n);
    }

    /// The replays of `replay.rs` for one seed (`rt` in VC order, each
    /// message's measured blocking and the cycle it could have been
    /// delivered behind its VC predecessor, the seed's mean blocking).
    fn packet_replays(&mut self, rt: &[MessageLog], flits: u64, blocks: &[f64], frees: &[f64], mean_block: f64) {
        let (l0, s) = (flits + 4, flits + 2);
        let sp = &mut self.split;
        let (all, own) = SourceFifo::replay(rt, l0, s, mean_block).mean_waits(rt, l0, mean_block);
        sp.const_all_at_block.push(all);
        sp.const_own_at_block.push(own);
        if let Some(b) = self.blocking {
            let (all, own) = SourceFifo::replay(rt, l0, s, b).mean_waits(rt, l0, b);
            sp.const_all_at_model.push(all);
            sp.const_own_at_model.push(own);
        }
        let created: Vec<f64> = rt.iter().map(|x| (x.created + l0) as f64).collect();
        sp.dest_fifo_created.push(replay::destination_fifo(rt, &created, flits));
        sp.dest_fifo_free.push(replay::destination_fifo(rt, frees, flits));
        // The forward packet tandem: the source VC at S (no blocking holds
        // it), its deliveries fed to the destination FIFOs.
        let forward = SourceFifo::replay(rt, l0, s, 0.0);
        sp.forward_source.push(forward.mean_waits(rt, l0, 0.0).0);
        sp.dest_fifo_shaped.push(replay::destination_fifo(rt, &forward.all, flits));
        let coupled = replay::coupled_deliveries(rt, l0, s, flits);
        let (mut total, mut wait, mut measured) = (0.0, 0.0, 0.0);
        for (j, (x, d)) in rt.iter().zip(&coupled).enumerate() {
            let free = if j > 0 && rt[j - 1].src == x.src { (x.created + l0).max(coupled[j - 1] + s) } else { x.created + l0 };
            total += (d - x.created) as f64;
            wait += (free - x.created - l0) as f64;
            measured += (x.delivered - x.created) as f64;
        }
        let n = rt.len().max(1) as f64;
        let block = total / n - l0 as f64 - wait / n;
        sp.coupled_replay_total.push(total / n);
        sp.coupled_replay_wait.push(wait / n);
        sp.coupled_replay_block.push(block);
        sp.measured_total.push(measured / n);
        let [any, other] = replay::blocking_ahead(rt, blocks, l0, s);
        sp.ahead_per_seed.push(any.0 / any.1.max(1) as f64);
        sp.ahead_other_per_seed.push(other.0 / other.1.max(1) as f64);
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

/// Message j of `rt` (every source's messages in VC order): its VC
/// predecessor's delivery (none if j is its source's first) and the
/// earliest it could be delivered behind it, max(created + L0,
/// delivered_prev + S).
fn behind_predecessor(rt: &[MessageLog], j: usize, l0: u64, s: u64) -> (Option<u64>, u64) {
    let x = &rt[j];
    let prev = (j > 0 && rt[j - 1].src == x.src).then(|| rt[j - 1].delivered);
    (prev, prev.map_or(x.created + l0, |p| (x.created + l0).max(p + s)))
}

/// The seeds whose draw is modelled, and the mean ± standard error of
/// the simulated total less the model's over them ("none" if none).
fn drawn_columns(gaps: &[Option<f64>]) -> String {
    let g: Vec<f64> = gaps.iter().flatten().copied().collect();
    if g.is_empty() {
        return "0,none,none".into();
    }
    let (m, se) = mean_se(&g);
    format!("{},{m:.4},{se:.4}", g.len())
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
         dest_other_input_pairs,dest_spacing_min,dest_spacing_is_m_plus_1,dest_spacing_is_m_plus_2,\
         all_messages,source_wait,source_wait_se,dest_block,dest_block_se,blocked,b2b_all,b2b_block,b2b_service,\
         tandem_drawn_seeds,tandem_drawn_gap,tandem_drawn_gap_se,\
         blocking_model,coupled_source,coupled_destination,coupled_total,coupled_error,coupled_drawn_seeds,coupled_drawn_gap,coupled_drawn_gap_se,\
         own_alone,own_alone_se,own_blocked,own_blocked_se,others,others_se,model_own,model_others,\
         model_others_at_block,model_total_at_block,model_others_at_b2b_block,model_total_at_b2b_block,\
         ahead_block,ahead_block_se,ahead_other_block,ahead_other_block_se,model_others_at_ahead_other,\
         const_wait_at_block,const_own_at_block,const_others_at_block,const_others_at_block_se,const_others_at_model,const_others_at_model_se,\
         dest_fifo_created,dest_fifo_created_se,dest_fifo_free,dest_fifo_free_se,forward_source,forward_source_se,dest_fifo_shaped,dest_fifo_shaped_se,\
         shaping_gain,shaping_gain_se,coupled_replay_total,coupled_replay_total_se,coupled_replay_wait,coupled_replay_block,\
         measured_total,replay_less_measured,replay_less_measured_se,model_less_replay_seeds,model_less_replay,model_less_replay_se,\
         forward_less_replay,forward_less_replay_se,uncoupled_less_replay,uncoupled_less_replay_se,drawn_destination_seeds,drawn_destination,drawn_destination_se,\
         drawn_destination_less_fifo,drawn_destination_less_fifo_se\n",
    );
    for r in rows {
        let (sim, sim_se) = mean_se(&r.sim_total);
        let (ep0, ep0_se) = mean_se(&r.ep0_total);
        let n = r.messages.max(1) as f64;
        let b = r.back_to_back.max(1) as f64;
        let ((wait, wait_se), (block, block_se)) = (mean_se(&r.split.wait_per_seed), mean_se(&r.split.block_per_seed));
        let (sn, sb) = (r.split.messages.max(1) as f64, r.split.b2b.max(1) as f64);
        writeln!(
            out,
            "{},{:.1},{},{},{sim:.4},{sim_se:.4},{ep0:.4},{ep0_se:.4},{},{:.4},{:.4},{:.4},{:.4},{},{:.4},{:.4},{:.4},{:.4},{},{},{},{},{:.4},{:.4},{},{wait:.4},{wait_se:.4},{block:.4},{block_se:.4},{:.4},{:.4},{:.4},{:.4},{},{},{},{}",
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
            r.dest_spacing_is_s as f64 / r.dest_pairs.max(1) as f64,
            r.split.messages,
            r.split.blocked as f64 / sn,
            r.split.b2b as f64 / sn,
            r.split.b2b_block_sum / sb,
            r.split.b2b_service_sum / sb,
            drawn_columns(&r.tandem_drawn_gap),
            r.blocking.map_or("not modelled".into(), |b| format!("{b:.4}")),
            model_columns(&r.coupled, r.kim2005_network, sim),
            drawn_columns(&r.coupled_drawn_gap)
        )
        .unwrap();
        out.pop();
        writeln!(out, ",{},{}", stream_parts(r, block, r.split.b2b_block_sum / sb), replay_columns(r)).unwrap();
    }
    out
}

/// The measured wait split by stream (`Row::own_stream_replay`, mean ±
/// standard error over the seeds) beside the coupled model's parts
/// (`BurstClass::coupled_source_parts`) at its B̄, and its other streams'
/// part and total at the measured mean blocking of all messages (`block`)
/// and of the back-to-back ones (`b2b_block`, the VC's service less S).
fn stream_parts(r: &Row, block: f64, b2b_block: f64) -> String {
    let s = &r.split;
    let measured = [&s.own_alone_per_seed, &s.own_blocked_per_seed, &s.others_per_seed].map(|x| {
        let (m, se) = mean_se(x);
        format!("{m:.4},{se:.4}")
    });
    let nm = || "not modelled".to_string();
    let model = r.blocking.and_then(|b| r.class.coupled_source_parts(b).ok()).map_or(format!("{},{}", nm(), nm()), |(o, x)| format!("{o:.4},{x:.4}"));
    let at = |b: f64| match (r.class.coupled_source_parts(b), &r.coupled) {
        (Ok((o, x)), Some(d)) => format!("{x:.4},{:.4}", r.kim2005_network + o + x + d.destination_link),
        _ => format!("{},{}", nm(), nm()),
    };
    format!("{},{model},{},{}", measured.join(","), at(block), at(b2b_block))
}

/// The packet-scale replays (`Row::packet_replays`), mean ± standard error
/// over the seeds: the blocking of the messages others wait behind and the
/// fluid other-streams part at that blocking; the source VC at a constant
/// blocking (the seed's measured mean, and B̄), its wait with every stream,
/// each alone and behind the other streams (all − own, per seed); the
/// destination FIFO replays; the model's destination link for each seed's
/// draw, and that less the FIFO fed at created + L0 (paired, over the
/// seeds whose draw is modelled). The forward packet tandem: its source
/// wait, its destination FIFO delay, and how much less that is than the
/// unshaped FIFO's (paired per seed). The coupled packet replay, its
/// total less the measured (paired), the coupled model for each seed's
/// draw less it, and the two packet tandems above less it (paired).
fn replay_columns(r: &Row) -> String {
    let s = &r.split;
    let ms = |x: &[f64]| {
        let (m, se) = mean_se(x);
        format!("{m:.4},{se:.4}")
    };
    let less = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<f64>>();
    let ahead_other = mean_se(&s.ahead_other_per_seed).0;
    let at_ahead = r.class.coupled_source_parts(ahead_other).map_or("not modelled".to_string(), |(_, x)| format!("{x:.4}"));
    let at_model = if s.const_all_at_model.is_empty() { "not modelled,not modelled".to_string() } else { ms(&less(&s.const_all_at_model, &s.const_own_at_model)) };
    let paired: Vec<(f64, f64)> = r.drawn_destination.iter().zip(&s.dest_fifo_created).filter_map(|(d, f)| d.map(|d| (d, *f))).collect();
    let drawn: Vec<f64> = paired.iter().map(|p| p.0).collect();
    let drawn_cols = if drawn.is_empty() {
        "0,none,none,none,none".to_string()
    } else {
        format!("{},{},{}", drawn.len(), ms(&drawn), ms(&paired.iter().map(|(d, f)| d - f).collect::<Vec<f64>>()))
    };
    // Per seed, the packet-scale counterpart of the model's structure
    // (L0 + the source VC at a constant blocking b̄ + the destination FIFO
    // fed at created + L0, links added) and the tandem without coupling
    // (L0 + the source VC at S + the destination FIFO fed by it).
    let l0 = r.class.flits + 4.0;
    let forward: Vec<f64> = s.const_all_at_block.iter().zip(&s.dest_fifo_created).map(|(w, d)| l0 + w + d).collect();
    let uncoupled: Vec<f64> = s.forward_source.iter().zip(&s.dest_fifo_shaped).map(|(w, d)| l0 + w + d).collect();
    let model_less: Vec<f64> = r.coupled_drawn_total.iter().zip(&s.coupled_replay_total).filter_map(|(m, c)| m.map(|m| m - c)).collect();
    let model_less_replay = if model_less.is_empty() { "0,none,none".to_string() } else { format!("{},{}", model_less.len(), ms(&model_less)) };
    format!(
        "{},{},{at_ahead},{:.4},{:.4},{},{at_model},{},{},{},{},{},{},{:.4},{:.4},{:.4},{},{},{},{},{drawn_cols}",
        ms(&s.ahead_per_seed),
        ms(&s.ahead_other_per_seed),
        mean_se(&s.const_all_at_block).0,
        mean_se(&s.const_own_at_block).0,
        ms(&less(&s.const_all_at_block, &s.const_own_at_block)),
        ms(&s.dest_fifo_created),
        ms(&s.dest_fifo_free),
        ms(&s.forward_source),
        ms(&s.dest_fifo_shaped),
        ms(&less(&s.dest_fifo_created, &s.dest_fifo_shaped)),
        ms(&s.coupled_replay_total),
        mean_se(&s.coupled_replay_wait).0,
        mean_se(&s.coupled_replay_block).0,
        mean_se(&s.measured_total).0,
        ms(&less(&s.coupled_replay_total, &s.measured_total)),
        model_less_replay,
        ms(&less(&forward, &s.coupled_replay_total)),
        ms(&less(&uncoupled, &s.coupled_replay_total)),
    )
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

//! The data phase of the model-only PCS router (001_… §III-F, §IV-B.1,
//! §V-F, Fig. 10): the circuits that `pcs::establish_streams` set up carry
//! their streams' frames, and the frame delivery intervals (d̄, σ_d) are
//! measured as `network.rs` measures them on the MediaWorm side.
//!
//! The rules, as read from the paper (docs/reproduction.md, "001_… Fig. 10
//! and Table VI", quotes the words):
//! - a stream's frames are split into messages and released by the same
//!   regulator as the wormhole sources ("each group injected into the
//!   established circuit at a specified rate (similar to how messages are
//!   generated in the wormhole switching case)"), into the connection's
//!   own source queue;
//! - each connection has its own VC on the source's input link and on the
//!   destination's output link ("each connection ... needs a distinct VC");
//!   the flits of a link's VCs share the physical link, one flit per cycle
//!   ("the rest of the flits then move along this path in a pipelined manner
//!   (similar to wormhole switching)");
//! - a link serves its VCs by VirtualClock with the connection's fixed
//!   Vtick, its reserved rate ("when a connection is set up, a fixed Vtick
//!   ... is assigned for the entire duration of the connection", §III): a
//!   flit is stamped on arrival, auxVC = max(auxVC, now) + Vtick, and the
//!   smallest stamp goes first (ties: the connection set up first);
//! - a connection's input VC buffer holds `buffer` flits (credit flow
//!   control, credits back at once); the crossbar is full (a dedicated VC
//!   per connection reaches its output without an input-port conflict), so
//!   the contention points are the two physical links; the destination
//!   always accepts.
//!
//! Timing: a flit the input link sends in cycle t can leave on the output
//! link from cycle t + 1 and is delivered in the cycle after it leaves. A
//! message created in cycle t0 on an idle circuit therefore delivers flit k
//! in cycle t0 + k + 2. Messages created at a fractional time enter the
//! source queue in the cycle that time rounds up to (as in `network.rs`).

use crate::workload::{Flow, FlowKind, FrameSizer, Regulator};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// One established circuit and its stream.
#[derive(Clone, Debug)]
pub struct CircuitSpec {
    pub source: usize,
    pub dest: usize,
    /// Cycles per flit the circuit reserved (its VirtualClock Vtick).
    pub vtick: u64,
    /// Time (cycles) of the stream's first frame.
    pub start: f64,
    pub sizer: FrameSizer,
}

/// The data phase's parameters, in cycles of one flit on a link.
#[derive(Clone, Debug)]
pub struct DataPlan {
    pub ports: usize,
    pub cycles: u64,
    /// Frames created before this cycle are not measured.
    pub warmup: u64,
    /// Frame period, cycles.
    pub period: f64,
    pub msg_flits: u32,
    pub flit_bits: u32,
    pub regulator: Regulator,
    /// Flits per input VC buffer.
    pub buffer: usize,
}

/// What one run of the data phase measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DataOutcome {
    /// Per circuit: (frame, cycle its last flit was delivered, cycle it was
    /// created) for every measured frame that completed.
    #[serde(skip)]
    pub frames: Vec<Vec<(u32, u64, u64)>>,
    /// Per output link: flits it sent after the warm-up.
    pub output_flits: Vec<u64>,
    /// Per output link: flits offered to it after the warm-up (messages
    /// created, headers included).
    pub output_offered_flits: Vec<u64>,
    /// Flits still waiting in source queues at the end, per output link.
    pub output_backlog_flits: Vec<u64>,
}

struct Circuit {
    spec: CircuitSpec,
    flow: Flow,
    /// Source queue: (base stamp, flits, flits sent, frame, created).
    queue: VecDeque<(u64, u32, u32, u32, u64)>,
    src_aux: u64,
    /// Input VC buffer: (cycle available, stamp, tail of frame `Some(f)`).
    buffer: VecDeque<(u64, u64, Option<u32>)>,
    out_aux: u64,
    /// Frames in flight: (frame, messages still to deliver, created).
    open: VecDeque<(u32, u32, u64)>,
}

/// Runs the data phase of `circuits` (in set-up order) under `plan`.
pub fn run_circuits(plan: &DataPlan, circuits: &[CircuitSpec], seed: u64) -> DataOutcome {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cs: Vec<Circuit> = circuits
        .iter()
        .map(|s| Circuit {
            flow: Flow {
                src: s.source as u32,
                dest: Some(s.dest as u32),
                class: 1,
                vtick: 1,
                kind: FlowKind::Stream {
                    sizer: s.sizer.clone(),
                    period: plan.period,
                    msg_flits: plan.msg_flits,
                    flit_bits: plan.flit_bits,
                    regulator: plan.regulator,
                    cur_msgs: 0,
                    cur_idx: 0,
                    cur_vtick: 1,
                    frame_start: 0.0,
                },
                active: true,
                frame: 0,
            },
            spec: s.clone(),
            queue: VecDeque::new(),
            src_aux: 0,
            buffer: VecDeque::new(),
            out_aux: 0,
            open: VecDeque::new(),
        })
        .collect();
    let by_source: Vec<Vec<usize>> = (0..plan.ports).map(|p| (0..cs.len()).filter(|&c| cs[c].spec.source == p).collect()).collect();
    let by_dest: Vec<Vec<usize>> = (0..plan.ports).map(|p| (0..cs.len()).filter(|&c| cs[c].spec.dest == p).collect()).collect();
    let mut events: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut next_time = vec![0.0f64; cs.len()];
    for (i, c) in cs.iter().enumerate() {
        next_time[i] = c.spec.start;
        events.push(Reverse((c.spec.start.ceil() as u64, i)));
    }
    let mut out = DataOutcome {
        frames: vec![Vec::new(); cs.len()],
        output_flits: vec![0; plan.ports],
        output_offered_flits: vec![0; plan.ports],
        output_backlog_flits: vec![0; plan.ports],
    };
    for t in 0..plan.cycles {
        // 1. Messages due by now enter their circuits' source queues.
        while let Some(&Reverse((at, i))) = events.peek() {
            if at > t {
                break;
            }
            events.pop();
            let c = &mut cs[i];
            let (msg, next) = c.flow.fire(next_time[i], plan.ports as u32, u32::MAX, &mut rng);
            if let Some(m) = msg {
                if c.open.back().is_none_or(|b| b.0 != m.frame) {
                    c.open.push_back((m.frame, m.frame_msgs, t));
                }
                let base = c.src_aux.max(t);
                c.src_aux = base + c.spec.vtick * m.flits as u64;
                c.queue.push_back((base, m.flits, 0, m.frame, t));
                if t >= plan.warmup {
                    out.output_offered_flits[c.spec.dest] += m.flits as u64;
                }
            }
            next_time[i] = next;
            events.push(Reverse((next.ceil() as u64, i)));
        }
        // 2. Each output link sends the smallest-stamped flit available.
        for (o, list) in by_dest.iter().enumerate() {
            let pick = list
                .iter()
                .filter(|&&i| cs[i].buffer.front().is_some_and(|f| f.0 <= t))
                .min_by_key(|&&i| (cs[i].buffer.front().unwrap().1, i));
            let Some(&i) = pick else { continue };
            let c = &mut cs[i];
            let (_, _, tail) = c.buffer.pop_front().unwrap();
            if t >= plan.warmup {
                out.output_flits[o] += 1;
            }
            if let Some(frame) = tail {
                let delivered = t + 1;
                if let Some(pos) = c.open.iter().position(|f| f.0 == frame) {
                    c.open[pos].1 -= 1;
                    if c.open[pos].1 == 0 {
                        let (f, _, created) = c.open.remove(pos).unwrap();
                        if created >= plan.warmup {
                            out.frames[i].push((f, delivered, created));
                        }
                    }
                }
            }
        }
        // 3. Each input link sends the smallest-stamped head flit whose VC
        // buffer has room.
        for list in &by_source {
            let pick = list
                .iter()
                .filter(|&&i| !cs[i].queue.is_empty() && cs[i].buffer.len() < plan.buffer)
                .min_by_key(|&&i| {
                    let (base, _, sent, _, _) = cs[i].queue[0];
                    (base + (sent as u64 + 1) * cs[i].spec.vtick, i)
                });
            let Some(&i) = pick else { continue };
            let c = &mut cs[i];
            let head = &mut c.queue[0];
            head.2 += 1;
            let tail = (head.2 == head.1).then_some(head.3);
            if tail.is_some() {
                c.queue.pop_front();
            }
            let arrival = t + 1;
            c.out_aux = c.out_aux.max(arrival) + c.spec.vtick;
            c.buffer.push_back((arrival, c.out_aux, tail));
        }
    }
    for c in &cs {
        out.output_backlog_flits[c.spec.dest] += c.queue.iter().map(|m| (m.1 - m.2) as u64).sum::<u64>();
    }
    out
}

/// Frame delivery intervals (cycles) between consecutive frames of each
/// circuit, as `network.rs` takes them.
pub fn intervals(out: &DataOutcome) -> Vec<f64> {
    let mut iv = Vec::new();
    for frames in &out.frames {
        let mut d = frames.clone();
        d.sort_unstable();
        iv.extend(d.windows(2).filter(|w| w[1].0 == w[0].0 + 1).map(|w| (w[1].1 - w[0].1) as f64));
    }
    iv
}

/// One replication's data-phase measurements (the established streams).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct DataCounts {
    /// Mean and standard deviation of the frame delivery interval, ms.
    pub frame_interval_mean_ms: f64,
    pub frame_interval_sd_ms: f64,
    pub intervals: u64,
    /// The output link with the highest offered flit load (flits offered /
    /// window cycles, headers included): that load, the load it carried,
    /// its streams, and the flits left in its streams' source queues.
    pub busiest_offered_load: f64,
    pub busiest_carried_load: f64,
    pub busiest_streams: u64,
    pub busiest_backlog_flits: u64,
    /// Intervals longer than 1.5 frame periods (frames late by half a period).
    pub long_intervals: u64,
}

/// The data phase of one replication: `conns` (from `pcs::establish`) carry
/// the experiment's streams for `run_cycles()`; start phases are uniform
/// within a frame period, drawn from `seed`.
pub fn replicate(v: &crate::Validated, plan: &crate::pcs::SetUpPlan, conns: &[crate::pcs::Connection], seed: u64) -> DataCounts {
    use rand::Rng;
    let w = &v.exp.workload;
    let (cycles, warmup) = v.run_cycles();
    let period = v.period_cycles();
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    // The reserved rate in cycles per flit (a link sends a flit per cycle).
    let vtick = (plan.link_kbps as f64 / plan.stream_kbps as f64).round().max(1.0) as u64;
    let circuits: Vec<CircuitSpec> = conns
        .iter()
        .enumerate()
        .map(|(k, c)| CircuitSpec { source: c.source, dest: c.dest, vtick, start: rng.gen::<f64>() * period, sizer: v.sizer(k, &[]) })
        .collect();
    let dp = DataPlan {
        ports: plan.ports,
        cycles,
        warmup,
        period,
        msg_flits: w.class_flits(v.realtime_class(0)),
        flit_bits: v.exp.router.flit_width,
        regulator: w.regulator,
        buffer: v.exp.router.input_buffer_depth as usize,
    };
    let out = run_circuits(&dp, &circuits, rng.gen());
    let cycle_ms = v.cycle_s * 1e3;
    let iv: Vec<f64> = intervals(&out).into_iter().map(|x| x * cycle_ms).collect();
    let ms = crate::metrics::mean_sd(&iv);
    let window = (cycles - warmup).max(1) as f64;
    let busiest = (0..plan.ports).max_by_key(|&o| (out.output_offered_flits[o], o)).unwrap_or(0);
    DataCounts {
        frame_interval_mean_ms: ms.mean,
        frame_interval_sd_ms: ms.sd,
        intervals: ms.n,
        busiest_offered_load: out.output_offered_flits[busiest] as f64 / window,
        busiest_carried_load: out.output_flits[busiest] as f64 / window,
        busiest_streams: conns.iter().filter(|c| c.dest == busiest).count() as u64,
        busiest_backlog_flits: out.output_backlog_flits[busiest],
        long_intervals: iv.iter().filter(|&&x| x > 1.5 * period * cycle_ms).count() as u64,
    }
}

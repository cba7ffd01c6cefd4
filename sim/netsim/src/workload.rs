//! Traffic sources of the papers: CBR / synthetic VBR / MPEG-2 / trace video
//! streams with the input regulator (001_… §IV-B), Poisson and Bernoulli best
//! effort, control messages (003_… §4.2), ON/OFF sources (000_… §3).
//!
//! Every source is a `Flow` that produces one message per event; the network
//! keeps the next event time of every flow in a heap, so the cost is per
//! message, not per cycle.

use rand::rngs::SmallRng;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Table III of 001_…: average I, P, B frame sizes in kbit of the seven
/// MPEG-2 sequences (the average bandwidth column follows from these with
/// the 12-frame GOP `IBBPBBPBBPBB` at 30 frames/s).
pub const MPEG2_TABLE_III: [(f64, f64, f64); 7] = [
    (430.2, 295.6, 194.2),
    (839.4, 680.6, 401.0),
    (534.7, 569.4, 387.8),
    (393.3, 340.3, 241.4),
    (350.6, 242.9, 172.9),
    (974.7, 721.9, 529.6),
    (637.6, 536.0, 394.3),
];

/// How a stream's frame sizes are drawn, in bits.
#[derive(Clone, Debug)]
pub enum FrameSizer {
    Constant(f64),
    /// Normal(mean, sd), truncated below at one byte.
    Normal { mean: f64, sd: f64 },
    /// A GOP pattern over I/P/B sizes, starting at `pos`.
    Gop { sizes: [f64; 3], pattern: Vec<u8>, pos: usize },
    /// Frame sizes read from a trace, replayed cyclically from `pos`.
    Trace { bits: std::sync::Arc<Vec<f64>>, pos: usize },
}

impl FrameSizer {
    pub fn next(&mut self, rng: &mut SmallRng) -> f64 {
        match self {
            FrameSizer::Constant(b) => *b,
            FrameSizer::Normal { mean, sd } => (*mean + *sd * std_normal(rng)).max(8.0),
            FrameSizer::Gop { sizes, pattern, pos } => {
                let t = pattern[*pos % pattern.len()];
                *pos += 1;
                sizes[t as usize]
            }
            FrameSizer::Trace { bits, pos } => {
                let b = bits[*pos % bits.len()];
                *pos += 1;
                b
            }
        }
    }
    /// Mean frame size in bits (what the load calculation uses).
    pub fn mean(&self) -> f64 {
        match self {
            FrameSizer::Constant(b) => *b,
            FrameSizer::Normal { mean, .. } => *mean,
            FrameSizer::Gop { sizes, pattern, .. } => {
                pattern.iter().map(|&t| sizes[t as usize]).sum::<f64>() / pattern.len() as f64
            }
            FrameSizer::Trace { bits, .. } => bits.iter().sum::<f64>() / bits.len() as f64,
        }
    }
}

/// Box–Muller; one draw per call keeps the generator stateless.
pub fn std_normal(rng: &mut SmallRng) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>();
    let u2: f64 = rng.gen::<f64>();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Exponential with the given mean.
pub fn exponential(rng: &mut SmallRng, mean: f64) -> f64 {
    -mean * (1.0 - rng.gen::<f64>()).ln()
}

/// Cycles until the next success of a per-cycle Bernoulli(p) process (>= 1).
pub fn geometric(rng: &mut SmallRng, p: f64) -> f64 {
    if p >= 1.0 {
        return 1.0;
    }
    let u: f64 = 1.0 - rng.gen::<f64>();
    (u.ln() / (1.0 - p).ln()).floor() + 1.0
}

/// Parses a GOP pattern of I, P and B letters.
pub fn parse_gop(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Err("empty GOP pattern".into());
    }
    s.chars()
        .map(|c| match c.to_ascii_uppercase() {
            'I' => Ok(0),
            'P' => Ok(1),
            'B' => Ok(2),
            other => Err(format!("'{other}' is not I, P or B")),
        })
        .collect()
}

/// Reads a frame-size trace: one frame per line, `<bytes>` or
/// `<I|P|B> <bytes>`; blank lines and `#` comments are skipped.
/// Returns sizes in bits. Read with the input size cap
/// (`wormqos_config::files::MAX_INPUT_BYTES`); a frame is at most 1 GB.
pub fn read_trace(path: &Path) -> Result<Vec<f64>, String> {
    let text = wormqos_config::files::read_capped(path)?;
    parse_trace(&text, &path.display().to_string())
}

/// Largest frame in a trace, bytes (as `workload.frame_bytes`).
pub const MAX_TRACE_FRAME_BYTES: u64 = 1_000_000_000;

pub fn parse_trace(text: &str, origin: &str) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (size, col) = match fields.as_slice() {
            [b] => (*b, 1),
            [t, b] => {
                if !matches!(*t, "I" | "P" | "B" | "i" | "p" | "b") {
                    return Err(format!("{origin}:{}: field 1 (frame type) = {t:?}: expected I, P or B", i + 1));
                }
                (*b, 2)
            }
            _ => {
                return Err(format!(
                    "{origin}:{}: {} fields: expected `<bytes>` or `<I|P|B> <bytes>`",
                    i + 1,
                    fields.len()
                ))
            }
        };
        let bytes: f64 = match size.parse::<u64>() {
            Ok(b) if b > 0 && b <= MAX_TRACE_FRAME_BYTES => b as f64,
            _ => {
                return Err(format!(
                    "{origin}:{}: field {col} (frame size) = {size:?}: expected a whole number of bytes, allowed range 1..={MAX_TRACE_FRAME_BYTES}",
                    i + 1
                ))
            }
        };
        out.push(bytes * 8.0);
    }
    if out.is_empty() {
        return Err(format!("{origin}: no frames"));
    }
    Ok(out)
}

/// Where the input regulator of 001_… §IV-B.1 ("injects messages of a
/// frame at a regular interval of (33msec/number of messages)") puts the
/// n messages of a frame in its frame time T. The paper gives the interval,
/// not the phase; the phase decides when a frame is complete.
///
/// In an experiment file: `workload.regulator = "slot_start"` (or `true`,
/// the default), `"slot_end"`, or `"none"` (or `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Regulator {
    /// No regulator: all n messages at the frame's start.
    Off,
    /// Message k (0-based) at start + k·T/n: the last leaves (n−1)·T/n after
    /// the start, so a frame's completion moves with its size.
    #[default]
    SlotStart,
    /// Message k at start + (k+1)·T/n: the last leaves at start + T, the
    /// same point of every frame time whatever the frame's size.
    SlotEnd,
}

impl Regulator {
    /// The values `workload.regulator` accepts, for error messages.
    pub const ALLOWED: &'static str = "allowed values \"slot_start\" (or true), \"slot_end\", \"none\" (or false)";
}

/// `true` / `false` keep the files (and the serialized experiments) written
/// before the named phases.
impl Serialize for Regulator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Regulator::Off => s.serialize_bool(false),
            Regulator::SlotStart => s.serialize_bool(true),
            Regulator::SlotEnd => s.serialize_str("slot_end"),
        }
    }
}

impl<'de> Deserialize<'de> for Regulator {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        match &v {
            toml::Value::Boolean(true) => Ok(Regulator::SlotStart),
            toml::Value::Boolean(false) => Ok(Regulator::Off),
            toml::Value::String(x) if x == "slot_start" => Ok(Regulator::SlotStart),
            toml::Value::String(x) if x == "slot_end" => Ok(Regulator::SlotEnd),
            toml::Value::String(x) if x == "none" => Ok(Regulator::Off),
            other => Err(serde::de::Error::custom(format!("field `workload.regulator` = {other}: {}", Regulator::ALLOWED))),
        }
    }
}

/// Where each MPEG-2 stream of a source starts its GOP
/// (`workload.gop_phase`). 001_… §IV-B.1 says each stream "generates 30
/// frames/sec" from the Table III traces and nothing about the streams'
/// GOP phases, so both are readings of the text.
///
/// In an experiment file: `workload.gop_phase = "aligned"` (the default) or
/// `"staggered"`; only with `realtime = "mpeg2"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GopPhase {
    /// Every stream's first frame is the GOP's first (its I frame): a
    /// source's I and P frames coincide (every run before this option).
    #[default]
    Aligned,
    /// The s-th stream of a source (0-based) starts at GOP position
    /// s mod (GOP length): deterministic, so every seed sees the same
    /// phases, and each position holds the same number of a source's
    /// streams give or take one, where phases drawn from the seed would
    /// leave chance clusters of I frames.
    Staggered,
}

impl GopPhase {
    /// The values `workload.gop_phase` accepts, for error messages.
    pub const ALLOWED: &'static str = "allowed values \"aligned\" (the default), \"staggered\"";

    pub fn is_aligned(&self) -> bool {
        *self == GopPhase::Aligned
    }

    /// GOP position of the first frame of a source's stream `s` with a GOP
    /// of `len` frames.
    pub fn first_position(self, s: usize, len: usize) -> usize {
        match self {
            GopPhase::Aligned => 0,
            GopPhase::Staggered => s % len.max(1),
        }
    }
}

impl Serialize for GopPhase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if self.is_aligned() { "aligned" } else { "staggered" })
    }
}

impl<'de> Deserialize<'de> for GopPhase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        match &v {
            toml::Value::String(x) if x == "aligned" => Ok(GopPhase::Aligned),
            toml::Value::String(x) if x == "staggered" => Ok(GopPhase::Staggered),
            other => Err(serde::de::Error::custom(format!("field `workload.gop_phase` = {other}: {}", GopPhase::ALLOWED))),
        }
    }
}

/// A message as generated (before it enters the source queue).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    pub flow: u32,
    pub dest: u32,
    pub class: u8,
    pub vtick: u32,
    pub flits: u32,
    /// Frame index within the flow (real-time streams), else u32::MAX.
    pub frame: u32,
    /// Messages in this frame (streams), else 0.
    pub frame_msgs: u32,
}

#[derive(Clone, Debug)]
pub enum FlowKind {
    /// Video stream: frames every `period` cycles, each split into messages
    /// of `msg_flits` flits (one header + `msg_flits-1` data flits),
    /// released as `regulator` says.
    Stream { sizer: FrameSizer, period: f64, msg_flits: u32, flit_bits: u32, regulator: Regulator, cur_msgs: u32, cur_idx: u32, cur_vtick: u32, frame_start: f64 },
    /// Poisson (exponential gaps, mean `1/rate`) or Bernoulli (geometric gaps).
    Random { rate: f64, bernoulli: bool, msg_flits: u32 },
    /// One message every `period` cycles.
    Periodic { period: f64, msg_flits: u32 },
    /// ON/OFF: ON bursts of Exp(mean_msgs) messages (at least one) at one
    /// message per `gap` cycles, OFF periods Exp(mean_off).
    OnOff { mean_msgs: f64, gap: f64, mean_off: f64, msg_flits: u32, left: u32 },
}

#[derive(Clone, Debug)]
pub struct Flow {
    pub src: u32,
    /// Fixed destination, or None for a uniformly random other endpoint per message.
    pub dest: Option<u32>,
    pub class: u8,
    /// Vtick for non-stream flows (best effort: all ones).
    pub vtick: u32,
    pub kind: FlowKind,
    /// Messages are emitted only while `active` (dynamic phases).
    pub active: bool,
    pub frame: u32,
}

impl Flow {
    /// Produces the message due at `now` (if active) and returns the time of
    /// the next event.
    pub fn fire(&mut self, now: f64, endpoints: u32, vtick_max: u32, rng: &mut SmallRng) -> (Option<Message>, f64) {
        let dest = |rng: &mut SmallRng, src: u32, fixed: Option<u32>| {
            fixed.unwrap_or_else(|| {
                if endpoints <= 1 {
                    return 0;
                }
                let d = rng.gen_range(0..endpoints - 1);
                if d >= src {
                    d + 1
                } else {
                    d
                }
            })
        };
        let active = self.active;
        match &mut self.kind {
            FlowKind::Stream { sizer, period, msg_flits, flit_bits, regulator, cur_msgs, cur_idx, cur_vtick, frame_start } => {
                // A new frame starting at `$start`: its size, messages and
                // Vtick (the regulated gap per flit, 001_… §III).
                macro_rules! begin {
                    ($start:expr) => {{
                        let start = $start;
                        *cur_msgs = frame_messages(sizer.next(rng), *msg_flits, *flit_bits);
                        *cur_idx = 0;
                        *frame_start = start;
                        let per_msg = *period / *cur_msgs as f64;
                        *cur_vtick = ((per_msg / *msg_flits as f64).floor() as u32).clamp(1, vtick_max);
                        self.frame += 1;
                    }};
                }
                if *cur_idx >= *cur_msgs {
                    // A new frame starts now: with its first message, or
                    // (slot_end, only at the stream's first event) with
                    // nothing until T/n later.
                    begin!(now);
                    if *regulator == Regulator::SlotEnd {
                        return (None, *frame_start + *period / *cur_msgs as f64);
                    }
                }
                let m = Message {
                    flow: 0,
                    dest: dest(rng, self.src, self.dest),
                    class: self.class,
                    vtick: *cur_vtick,
                    flits: *msg_flits,
                    frame: self.frame - 1,
                    frame_msgs: *cur_msgs,
                };
                *cur_idx += 1;
                let last = *cur_idx >= *cur_msgs;
                let next = match *regulator {
                    // Message k of n at start + (k+1)·T/n: the last at
                    // start + T, when the next frame starts.
                    Regulator::SlotEnd if last => {
                        begin!(*frame_start + *period);
                        *frame_start + *period / *cur_msgs as f64
                    }
                    Regulator::SlotEnd => *frame_start + (*cur_idx + 1) as f64 * *period / *cur_msgs as f64,
                    // Message k at start + k·T/n (summed gap by gap, as
                    // every run before the named phases), or all at the start.
                    _ if last => *frame_start + *period,
                    Regulator::SlotStart => now + *period / *cur_msgs as f64,
                    Regulator::Off => now,
                };
                (active.then_some(m), next)
            }
            FlowKind::Random { rate, bernoulli, msg_flits } => {
                let m = Message { flow: 0, dest: dest(rng, self.src, self.dest), class: self.class, vtick: self.vtick, flits: *msg_flits, frame: u32::MAX, frame_msgs: 0 };
                let gap = if *bernoulli { geometric(rng, *rate) } else { exponential(rng, 1.0 / *rate) };
                (active.then_some(m), now + gap)
            }
            FlowKind::Periodic { period, msg_flits } => {
                let m = Message { flow: 0, dest: dest(rng, self.src, self.dest), class: self.class, vtick: self.vtick, flits: *msg_flits, frame: u32::MAX, frame_msgs: 0 };
                (active.then_some(m), now + *period)
            }
            FlowKind::OnOff { mean_msgs, gap, mean_off, msg_flits, left } => {
                if *left == 0 {
                    *left = (exponential(rng, *mean_msgs).round() as u32).max(1);
                }
                *left -= 1;
                let m = Message { flow: 0, dest: dest(rng, self.src, self.dest), class: self.class, vtick: self.vtick, flits: *msg_flits, frame: u32::MAX, frame_msgs: 0 };
                let next = if *left == 0 { now + *gap + exponential(rng, *mean_off) } else { now + *gap };
                (active.then_some(m), next)
            }
        }
    }
}

/// The fixed destination of each of `streams` streams of every one of
/// `endpoints` endpoints (`out[src][s]`), uniform over the other endpoints.
/// Without a cap, one draw per stream in source order (the sequence every
/// run before the cap made). With `cap` (001_… §IV-B.3's bound on the
/// streams "outstanding/incoming" at a node), each stream draws among the
/// other endpoints still below the cap; when only the source itself has
/// room left, an earlier stream `e2 -> d2` (e2, d2 not the source) is moved
/// to the source and this stream takes d2, which keeps every count. The cap
/// holds for the first k streams of every endpoint (a phase's active set)
/// because those are a subset. Needs `streams <= cap` (validated before).
pub fn stream_destinations(endpoints: usize, streams: usize, cap: Option<u32>, rng: &mut SmallRng) -> Vec<Vec<u32>> {
    let uniform_other = |rng: &mut SmallRng, src: usize| {
        let d = rng.gen_range(0..(endpoints as u32).max(2) - 1);
        (if d >= src as u32 { d + 1 } else { d }).min(endpoints.saturating_sub(1) as u32)
    };
    let Some(cap) = cap.filter(|_| endpoints >= 2) else {
        return (0..endpoints).map(|src| (0..streams).map(|_| uniform_other(rng, src)).collect()).collect();
    };
    let mut out = vec![Vec::with_capacity(streams); endpoints];
    let mut incoming = vec![0u32; endpoints];
    for src in 0..endpoints {
        for _ in 0..streams {
            let open: Vec<u32> = (0..endpoints as u32).filter(|&d| d as usize != src && incoming[d as usize] < cap).collect();
            let d = if open.is_empty() {
                // Every other endpoint is full, so the source has room (the
                // total is below endpoints x cap) and a full d2 has a sender
                // e2 other than the source (which has sent fewer than cap).
                let (e2, k) = (0..src)
                    .flat_map(|e| (0..out[e].len()).map(move |k| (e, k)))
                    .find(|&(e, k)| e != src && out[e][k] as usize != src)
                    .expect("validated: streams <= cap leaves a stream to move");
                let d2 = out[e2][k];
                out[e2][k] = src as u32;
                incoming[src] += 1;
                incoming[d2 as usize] -= 1;
                d2
            } else {
                open[rng.gen_range(0..open.len())]
            };
            incoming[d as usize] += 1;
            out[src].push(d);
        }
    }
    out
}

/// 000_…'s Vtick of a real-time class: `scale`/(λ_c M) cycles per flit
/// for `rate` = λ_c messages per cycle and `flits` = M, in whole cycles
/// within 1..=`vtick_max` (the header's field; all ones is best effort's).
/// The simulator's sources and the analytical model use the same value.
pub fn realtime_vtick(scale: f64, rate: f64, flits: u32, vtick_max: u32) -> u32 {
    if !(rate > 0.0) {
        return vtick_max;
    }
    (scale / (rate * flits as f64)).round().clamp(1.0, vtick_max as f64) as u32
}

/// Messages a frame of `bits` needs: each message carries `msg_flits - 1`
/// data flits of `flit_bits` bits (the header is overhead, 001_… §V-C).
pub fn frame_messages(bits: f64, msg_flits: u32, flit_bits: u32) -> u32 {
    let data_flits = (bits / flit_bits as f64).ceil();
    let per_msg = (msg_flits.max(2) - 1) as f64;
    ((data_flits / per_msg).ceil() as u32).max(1)
}

/// Offered load (fraction of link bandwidth, counting header flits) of one
/// stream with mean frame size `mean_bits`, `fps` frames per `period` cycles.
pub fn stream_load(mean_bits: f64, period: f64, msg_flits: u32, flit_bits: u32) -> f64 {
    let data_flits = mean_bits / flit_bits as f64;
    let flits = data_flits * msg_flits as f64 / (msg_flits.max(2) - 1) as f64;
    flits / period
}

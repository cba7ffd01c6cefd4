//! Which misses of 003_… §4.2's deadline rule are records of a stream's
//! latency (issue 23): shared by `record_excess_003.rs`,
//! `rt_8020_003.rs` and `stag_records_003.rs`.
//!
//! The rule misses exactly the strict records of L_j + ε_j, where L_j is
//! the latency (cycles) of frame j's last message and ε_j ∈ [0, 1) is how
//! far the cycle that released it lies after its ideal slot end s + jT
//! (the regulator's times are real, the events fire at their ceiling, and
//! T = 416,666.67 cycles is not whole). [`judge`] gives every judged frame
//! its lateness (the library's rule, `metrics::deadline_lateness`) and
//! sorts each miss into a strict record of the whole-cycle latency L_j, a
//! tie of L_j broken by ε_j (late by less than a cycle), or anything else
//! (a gap in the frame numbers, none expected).
//!
//! Each including test uses part of it (`record_excess_003.rs` no frames
//! files, `stag_records_003.rs` no [`Split`]), hence no dead-code lint.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use wormqos_netsim::network::MessageLog;

/// The columns of a frames file (`rt_8020_003.rs`, `write_frames`): one
/// line per frame of [`stream_frames`].
pub const FRAMES_HEADER: &str = "flow,vc,frame,first_created,last_created,arrival";

/// A frames file read back by stream; `writer` names the ignored test that
/// writes it, for the message when it is missing.
pub fn read_frames_csv(path: &Path, writer: &str) -> BTreeMap<u32, Vec<StreamFrame>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e} (run {writer} first)", path.display()));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(FRAMES_HEADER), "{}", path.display());
    let mut out: BTreeMap<u32, Vec<StreamFrame>> = BTreeMap::new();
    for l in lines {
        let c: Vec<u64> = l.split(',').map(|x| x.parse().unwrap()).collect();
        out.entry(c[0] as u32).or_default().push(StreamFrame { times: (c[2] as u32, c[4], c[5]), first_created: c[3], vc: c[1] as u8 });
    }
    out
}

const REAL_TIME: u8 = 1;

/// One frame as the rule sees it: (frame number, last message's release
/// cycle, frame's arrival cycle: its last message delivered).
pub type FrameTimes = (u32, u64, u64);

/// A frame of a stream with what the splits group it by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamFrame {
    pub times: FrameTimes,
    /// Its first message's release: the library puts a judged frame in the
    /// phase this falls in.
    pub first_created: u64,
    /// The source VC its last message left on.
    pub vc: u8,
}

/// Every stream's frames in frame order (by flow): frames whose first
/// message came after the warm-up and that arrived whole, as the library
/// judges them.
pub fn stream_frames(log: &[MessageLog], warmup: u64) -> BTreeMap<u32, Vec<StreamFrame>> {
    // (messages seen, first release, last release, arrival, messages in the frame, VC of the last)
    let mut frames: BTreeMap<(u32, u32), (u32, u64, u64, u64, u32, u8)> = BTreeMap::new();
    for m in log.iter().filter(|m| m.class == REAL_TIME && m.frame != u32::MAX) {
        let e = frames.entry((m.flow, m.frame)).or_insert((0, u64::MAX, 0, 0, m.frame_msgs, m.source.vc));
        e.0 += 1;
        e.1 = e.1.min(m.created);
        if m.created >= e.2 {
            e.2 = m.created;
            e.5 = m.source.vc;
        }
        e.3 = e.3.max(m.delivered);
    }
    let mut out: BTreeMap<u32, Vec<StreamFrame>> = BTreeMap::new();
    for ((flow, frame), (n, first, last, arrival, msgs, vc)) in frames {
        if n == msgs && first >= warmup {
            out.entry(flow).or_default().push(StreamFrame { times: (frame, last, arrival), first_created: first, vc });
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    OnTime,
    /// Late and L_j > every earlier L of the stream.
    Record,
    /// Late and L_j equal to the running maximum: the slot rounding broke the tie.
    Tie,
    /// Late otherwise (after a gap in the frame numbers).
    Other,
}

/// One judged frame (frames 1.. of a stream; frame 0 is the reference).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// Its position in the stream's judged sequence (1..): under
    /// independent, identically distributed latencies it is a record with
    /// probability 1 / (index + 1).
    pub index: usize,
    /// L_j: arrival - last message's release, cycles.
    pub latency: u64,
    /// How late it was (0 when on time), cycles.
    pub lateness: f64,
    pub kind: Kind,
    /// On time although a strict record (none if the rule is the record rule).
    pub missed_record: bool,
}

/// The library's rule over one stream's frames, each judged frame split
/// into on time, record, tie or other.
pub fn judge(s: &[FrameTimes], period: f64) -> Vec<Judged> {
    let arrivals: Vec<f64> = s.iter().map(|f| f.2 as f64).collect();
    let late = wormqos_netsim::metrics::deadline_lateness(&arrivals, period);
    let Some(first) = s.first() else { return Vec::new() };
    let mut max_l = first.2 - first.1;
    let mut out = Vec::with_capacity(late.len());
    for (k, &lateness) in late.iter().enumerate() {
        let f = s[k + 1];
        let l = f.2 - f.1;
        let gap = f.0 != s[k].0 + 1;
        let kind = if lateness <= 0.0 {
            Kind::OnTime
        } else if gap {
            Kind::Other
        } else if l > max_l {
            Kind::Record
        } else if l == max_l {
            Kind::Tie
        } else {
            Kind::Other
        };
        out.push(Judged { index: k + 1, latency: l, lateness, kind, missed_record: lateness <= 0.0 && l > max_l && !gap });
        max_l = max_l.max(l);
    }
    out
}

/// Misses of a set of judged frames by kind, against what records of
/// independent, identically distributed latencies predict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub streams: u64,
    pub judged: u64,
    pub misses: u64,
    pub records: u64,
    pub ties: u64,
    pub other: u64,
    pub missed_records: u64,
    /// Σ 1 / (index + 1) over the judged frames: expected records given
    /// each frame's place in its stream's whole judged history.
    pub predicted: f64,
    /// Σ over streams of H_(m+1) - 1, m the stream's judged frames in the
    /// set: expected records if each stream started afresh with the set.
    pub predicted_fresh: f64,
    /// Sum of the judged frames' latencies L_j (cycles).
    pub latency_sum: f64,
}

impl Split {
    /// Adds one stream's judged frames of the set.
    pub fn add_stream(&mut self, frames: &[Judged]) {
        if frames.is_empty() {
            return;
        }
        self.streams += 1;
        self.predicted_fresh += (2..=frames.len() + 1).map(|k| 1.0 / k as f64).sum::<f64>();
        for j in frames {
            self.judged += 1;
            self.predicted += 1.0 / (j.index + 1) as f64;
            self.latency_sum += j.latency as f64;
            self.missed_records += j.missed_record as u64;
            match j.kind {
                Kind::OnTime => continue,
                Kind::Record => self.records += 1,
                Kind::Tie => self.ties += 1,
                Kind::Other => self.other += 1,
            }
            self.misses += 1;
        }
    }
}

//! What a workload actually offers, computed before the run from the
//! validated experiment: real-time streams per phase, best-effort and
//! control rates. The network builds its sources from this, the summary's
//! offered load is this, and a part of the stated load that no source can
//! carry (a share too small for one stream, more streams than the bound,
//! ON/OFF streams that cannot send fast enough, a per-phase share the
//! sources do not follow) is refused here, naming the field, instead of
//! being dropped silently.

use crate::experiment::{ExperimentError, RealTime, Validated};
use crate::workload::{self, FrameSizer};

/// Most real-time streams per endpoint.
pub const MAX_STREAMS: usize = 100_000;

/// Most real-time streams in the whole network (each is a source with its
/// own state, about 150 bytes with its event: at most about 150 MiB).
pub const MAX_TOTAL_STREAMS: usize = 1 << 20;

/// Fewest messages a run must be expected to measure (all endpoints, the
/// measured window): with fewer its metrics are noise, and with a Poisson
/// count the chance of measuring none at all is below e^-10.
pub const MIN_MEASURED_MESSAGES: f64 = 10.0;

/// One phase of the workload (the whole run without `workload.phases`).
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    pub mix: [f64; 2],
    /// Real-time streams per endpoint (video: cbr, vbr, mpeg2, trace; or ON/OFF).
    pub streams: usize,
    /// Flits per cycle per endpoint offered by real-time sources.
    pub realtime: f64,
    /// Flits per cycle per endpoint offered by best-effort sources.
    pub best_effort: f64,
}

/// The ON/OFF streams of one real-time class.
#[derive(Clone, Debug, PartialEq)]
pub struct OnOffClass {
    pub class: u8,
    pub flits: u32,
    /// Cycles between messages in a burst.
    pub gap: f64,
    /// Mean OFF time, cycles.
    pub off: f64,
    /// Vtick of the class's messages.
    pub vtick: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    pub phases: Vec<Phase>,
    /// ON/OFF sources, one entry per real-time class, each with
    /// `workload.onoff_streams` streams per endpoint (empty without ON/OFF).
    pub onoff: Vec<OnOffClass>,
    /// Flits per cycle per endpoint of the control messages.
    pub control: f64,
    /// Cycles of each phase but the last (which lasts to the end of the run).
    pub phase_cycles: f64,
}

impl Offered {
    /// Offered flits per cycle per endpoint over cycles `from..to` of the
    /// run (phases weighted by their cycles in it), control included.
    pub fn mean_load(&self, from: u64, to: u64) -> f64 {
        let (from, to) = (from as f64, to as f64);
        if to <= from {
            return 0.0;
        }
        let n = self.phases.len();
        let mut sum = 0.0;
        for (i, p) in self.phases.iter().enumerate() {
            let start = i as f64 * self.phase_cycles;
            let end = if i + 1 == n { f64::INFINITY } else { (i + 1) as f64 * self.phase_cycles };
            let overlap = (end.min(to) - start.max(from)).max(0.0);
            sum += overlap * (p.realtime + p.best_effort);
        }
        sum / (to - from) + self.control
    }
}

/// Where a source's real-time stream s starts replaying a frame-size trace
/// (`realtime = "trace"`): at frame (TRACE_START_STRIDE · s) mod the
/// trace's length, so that a source's streams are not all in phase. 7 is
/// coprime with a 12-frame GOP, so the streams of a GOP trace start at every
/// position in turn; with a trace length that 7 divides, every stream
/// starts at frame 0.
pub const TRACE_START_STRIDE: usize = 7;

impl Validated {
    /// The frame sizes of real-time stream `i` (of its source).
    pub fn sizer(&self, i: usize, gop: &[u8]) -> FrameSizer {
        let w = &self.exp.workload;
        match w.realtime {
            RealTime::Cbr => FrameSizer::Constant(w.frame_bytes * 8.0),
            RealTime::Vbr | RealTime::None | RealTime::OnOff | RealTime::Poisson => {
                FrameSizer::Normal { mean: w.frame_bytes * 8.0, sd: w.frame_sd_bytes * 8.0 }
            }
            RealTime::Mpeg2 => {
                let s = w.mpeg2_sequences[i % w.mpeg2_sequences.len()] as usize - 1;
                let (a, b, c) = workload::MPEG2_TABLE_III[s];
                let pos = w.gop_phase.first_position(i, gop.len());
                FrameSizer::Gop { sizes: [a * 1000.0, b * 1000.0, c * 1000.0], pattern: gop.to_vec(), pos }
            }
            RealTime::Trace => {
                let bits = self.trace.clone().expect("validated: a trace with realtime = \"trace\"");
                FrameSizer::Trace { bits, pos: i * TRACE_START_STRIDE }
            }
        }
    }

    /// Simulator class of the i-th real-time class R1, R2, … of
    /// `model.realtime_rates` (R1 the top class, R2 the next; with fewer
    /// classes the rest share the lowest real-time one); streams and
    /// ON/OFF sources without the rates use class 1 (R1 = i = 0).
    pub fn realtime_class(&self, i: usize) -> u8 {
        let top = self.configs[0].traffic_classes() as u8 - 1;
        let poisson_like = self.exp.workload.realtime == RealTime::Poisson || self.per_class_onoff();
        if poisson_like {
            top.saturating_sub(i as u8).max(1.min(top))
        } else {
            1.min(top)
        }
    }

    /// ON/OFF real time with `model.realtime_rates`: one set of
    /// `workload.onoff_streams` ON/OFF streams per real-time class
    /// (000_… §4.2, Fig. 12: 14 sources per class).
    pub fn per_class_onoff(&self) -> bool {
        self.exp.workload.realtime == RealTime::OnOff && self.exp.model.realtime_rates.is_some()
    }

    /// (class, messages per cycle per endpoint, flits per message) of each
    /// real-time class R1, R2, … given `rt_flits` real-time flits per cycle
    /// per endpoint: the message rates are in the ratio of
    /// `model.realtime_rates` and each class has its own length, so
    /// λ_i = share_i · rt_flits / Σ_j share_j M_j.
    /// One class (class 1, `realtime_class(0)`) for streams and ON/OFF
    /// without the rates.
    pub fn realtime_class_rates(&self, rt_flits: f64) -> Vec<(u8, f64, u32)> {
        let w = &self.exp.workload;
        let shares = if w.realtime == RealTime::Poisson || self.per_class_onoff() { self.exp.model.realtime_shares() } else { vec![1.0] };
        let classes: Vec<(u8, u32)> = (0..shares.len()).map(|i| self.realtime_class(i)).map(|c| (c, w.class_flits(c))).collect();
        // (With one length, exactly rt_flits / M: the rates of every file written before per-class lengths.)
        let flits_per_msg: f64 = if classes.iter().all(|c| c.1 == classes[0].1) {
            classes[0].1 as f64
        } else {
            shares.iter().zip(&classes).map(|(s, (_, m))| s * *m as f64).sum()
        };
        let messages = rt_flits / flits_per_msg;
        shares.iter().zip(classes).map(|(s, (c, m))| (c, messages * s, m)).collect()
    }

    /// The ON/OFF sources carrying `rt_load` real-time flits per cycle per
    /// endpoint. Mean rate a = 1/(I/N + g) messages per cycle per stream
    /// (000_… §3): the gap g in a burst follows from the class's rate, N and
    /// I. One class (class 1) with Vtick g/M (its streams' peak rate)
    /// without `model.realtime_rates`; with them one class per rate, each
    /// with 000_…'s Vtick 1/(λ_c M) (× `model.vtick_scale`) as for Poisson
    /// real time.
    fn onoff_sources(&self, rt_load: f64) -> Result<Vec<OnOffClass>, ExperimentError> {
        let w = &self.exp.workload;
        let vtick_max = self.vtick_max();
        let per_class = self.per_class_onoff();
        let classes = self.realtime_class_rates(rt_load);
        let off = w.onoff_mean_off_us * 1e-6 / self.cycle_s;
        let mut out = Vec::with_capacity(classes.len());
        for (class, rate, m) in classes {
            let a = rate / w.onoff_streams as f64;
            let gap = 1.0 / a.max(1e-12) - off / w.onoff_mean_messages;
            // A message takes its length in cycles on the link.
            if rate > 0.0 && gap < m as f64 {
                let most = w.onoff_streams as f64 / (off / w.onoff_mean_messages + m as f64) * m as f64;
                return Err(ExperimentError::Field {
                    file: self.file.clone(),
                    field: "workload.onoff_streams".into(),
                    value: w.onoff_streams.to_string(),
                    why: format!(
                        "{} ON/OFF streams with workload.onoff_mean_off_us = {} and onoff_mean_messages = {} carry at most {most:.3e} flits/cycle per endpoint, less than class {class}'s real-time share {:.4}: raise onoff_streams or shorten the OFF time",
                        w.onoff_streams, w.onoff_mean_off_us, w.onoff_mean_messages, rate * m as f64
                    ),
                });
            }
            let gap = gap.max(m as f64);
            let vtick = if per_class {
                workload::realtime_vtick(self.exp.model.vtick_scale.unwrap_or(1.0), rate, m, vtick_max)
            } else {
                ((gap / m as f64) as u32).clamp(1, vtick_max)
            };
            out.push(OnOffClass { class, flits: m, gap, off, vtick });
        }
        Ok(out)
    }

    /// Largest Vtick of a real-time message (all ones is best effort's).
    pub fn vtick_max(&self) -> u32 {
        ((1u64 << self.configs[0].header().vtick.width) - 2) as u32
    }

    /// Frame time in cycles.
    pub fn period_cycles(&self) -> f64 {
        1.0 / self.exp.workload.frames_per_second / self.cycle_s
    }

    /// What the workload offers; an error names the field whose part of
    /// the load no source would carry.
    pub fn offered(&self) -> Result<Offered, ExperimentError> {
        let w = &self.exp.workload;
        let ferr = |field: &str, value: String, why: String| ExperimentError::Field { file: self.file.clone(), field: field.to_string(), value, why };
        // Streams and ON/OFF sources send on the real-time class.
        let msg = w.class_flits(self.realtime_class(0));
        let flit_bits = self.configs[0].flit_width();
        let period = self.period_cycles();
        let gop = if w.realtime == RealTime::Mpeg2 { workload::parse_gop(&w.gop).map_err(|e| ferr("workload.gop", format!("{:?}", w.gop), e))? } else { vec![] };
        let streamed = matches!(w.realtime, RealTime::Cbr | RealTime::Vbr | RealTime::Mpeg2 | RealTime::Trace);
        let mixes: Vec<[f64; 2]> = if w.phases.is_empty() { vec![w.mix] } else { w.phases.clone() };
        let field = |i: usize| if w.phases.is_empty() { "workload.mix".to_string() } else { format!("workload.phases[{i}]") };
        // ON/OFF and Poisson real-time sources run at one rate for the whole run.
        if !streamed && w.realtime != RealTime::None {
            let share = |m: &[f64; 2]| m[0] / (m[0] + m[1]);
            if let Some(i) = mixes.iter().position(|m| (share(m) - share(&mixes[0])).abs() > 1e-12) {
                return Err(ferr(
                    &field(i),
                    format!("{:?}", mixes[i]),
                    format!(
                        "realtime = \"{}\" sources keep the real-time share of the first phase ({:?}) for the whole run: the phases' real-time shares must be equal, or use stream sources (cbr, vbr, mpeg2, trace)",
                        if w.realtime == RealTime::OnOff { "on_off" } else { "poisson" },
                        mixes[0]
                    ),
                ));
            }
        }
        // Mean frame size of stream i: of sequence i (mpeg2), else of all.
        let distinct = if w.realtime == RealTime::Mpeg2 { w.mpeg2_sequences.len() } else { 1 };
        let stream_loads: Vec<f64> = if streamed {
            (0..distinct).map(|i| workload::stream_load(self.sizer(i, &gop).mean(), period, msg, flit_bits)).collect()
        } else {
            vec![]
        };
        let mut phases = Vec::with_capacity(mixes.len());
        for (i, mix) in mixes.iter().enumerate() {
            let rt_load = w.load * mix[0] / (mix[0] + mix[1]);
            let best_effort = w.load - rt_load;
            let (mut streams, mut realtime) = (0, 0.0);
            if streamed && rt_load > 0.0 {
                // Whole streams while the cumulative mean load stays within
                // the real-time share (+ half a stream).
                loop {
                    let l = stream_loads[streams % distinct];
                    if realtime + l > rt_load + l / 2.0 {
                        if streams == 0 {
                            return Err(ferr(
                                &field(i),
                                format!("{mix:?}"),
                                format!(
                                    "its real-time share of workload.load = {} is {rt_load:.4} flits/cycle per endpoint, less than half of one stream ({l:.4} flits/cycle: frames of {:.0} bytes at workload.frames_per_second = {}): no stream would carry it; raise the share or the load, or make frames smaller",
                                    w.load,
                                    self.sizer(0, &gop).mean() / 8.0,
                                    w.frames_per_second
                                ),
                            ));
                        }
                        break;
                    }
                    if streams == MAX_STREAMS {
                        return Err(ferr(
                            "workload.frame_bytes",
                            w.frame_bytes.to_string(),
                            format!("the real-time share of {:?} ({rt_load:.4} flits/cycle per endpoint) would need more than {MAX_STREAMS} streams per endpoint of {l:.3e} flits/cycle each: make frames larger", mix),
                        ));
                    }
                    realtime += l;
                    streams += 1;
                }
            } else if !streamed {
                realtime = rt_load;
                if w.realtime == RealTime::OnOff {
                    let classes = if self.per_class_onoff() { self.exp.model.realtime_shares().len() } else { 1 };
                    streams = w.onoff_streams as usize * classes;
                }
            }
            phases.push(Phase { mix: *mix, streams, realtime, best_effort });
        }
        let onoff = if w.realtime == RealTime::OnOff { self.onoff_sources(phases[0].realtime)? } else { Vec::new() };
        let control = if w.control { w.control_flits as f64 / period } else { 0.0 };
        let phase_cycles = w.phase_seconds.map(|s| s / self.cycle_s).unwrap_or(f64::INFINITY);
        Ok(Offered { phases, onoff, control, phase_cycles })
    }

    /// `workload.max_streams_per_destination` within 1..=`MAX_STREAMS`, and
    /// no smaller than the most streams an endpoint sends in any phase: the
    /// endpoints receive as many streams as they send, so a smaller cap
    /// leaves some destination above it.
    fn check_stream_cap(&self, o: &Offered) -> Result<(), ExperimentError> {
        let Some(cap) = self.exp.workload.max_streams_per_destination else { return Ok(()) };
        let err = |why: String| ExperimentError::Field {
            file: self.file.clone(),
            field: "workload.max_streams_per_destination".into(),
            value: cap.to_string(),
            why,
        };
        if !(1..=MAX_STREAMS as u32).contains(&cap) {
            return Err(err(format!("allowed range 1..={MAX_STREAMS}")));
        }
        let (phase, most) = o.phases.iter().enumerate().map(|(i, p)| (i, p.streams)).max_by_key(|&(i, s)| (s, std::cmp::Reverse(i))).unwrap_or((0, 0));
        if most > cap as usize {
            let at = if self.exp.workload.phases.is_empty() { "workload.mix".to_string() } else { format!("workload.phases[{phase}]") };
            return Err(err(format!(
                "{at} gives every endpoint {most} real-time streams, so the endpoints receive {most} on average and some destination would exceed a cap of {cap}: allowed range {most}..={MAX_STREAMS} for this workload, or lower the real-time load"
            )));
        }
        Ok(())
    }

    /// Refuses, before the run, a workload whose parts cannot carry the
    /// stated load and a run expected to measure (almost) nothing.
    pub(crate) fn check_offered(&self) -> Result<(), ExperimentError> {
        let o = self.offered()?;
        let endpoints = self.net.endpoint_at.len();
        let per_endpoint = o.phases.iter().map(|p| p.streams).max().unwrap_or(0);
        if per_endpoint.saturating_mul(endpoints) > MAX_TOTAL_STREAMS {
            let (field, value) = match self.exp.workload.realtime {
                RealTime::OnOff => ("workload.onoff_streams", self.exp.workload.onoff_streams.to_string()),
                _ => ("workload.frame_bytes", self.exp.workload.frame_bytes.to_string()),
            };
            return Err(ExperimentError::Field {
                file: self.file.clone(),
                field: field.to_string(),
                value,
                why: format!(
                    "{per_endpoint} real-time streams per endpoint x {endpoints} endpoints = {} sources (about {} MiB): allowed up to {MAX_TOTAL_STREAMS}; make frames larger or the network smaller",
                    per_endpoint * endpoints,
                    per_endpoint * endpoints * 150 >> 20
                ),
            });
        }
        self.check_stream_cap(&o)?;
        let (total, warmup) = self.run_cycles();
        let load = o.mean_load(warmup, total);
        // The longest message of any class: the count is never overstated.
        let w = &self.exp.workload;
        let classes = self.configs[0].traffic_classes() as u8;
        let msg = (0..classes).map(|c| w.class_flits(c)).max().unwrap_or(w.message_flits) as f64;
        let endpoints = endpoints as f64;
        let expected = load / msg * endpoints * (total - warmup) as f64;
        if expected < MIN_MEASURED_MESSAGES {
            let r = &self.exp.run;
            let field = if r.cycles.is_some() { "run.cycles" } else { "run.seconds" };
            let value = if r.cycles.is_some() { total.to_string() } else { r.seconds.map_or("0.01 (default)".into(), |s| s.to_string()) };
            return Err(ExperimentError::Field {
                file: self.file.clone(),
                field: field.to_string(),
                value,
                why: format!(
                    "an empty run: about {expected:.1} messages would be measured ({load:.4} flits/cycle per endpoint offered, {endpoints} endpoints, {} cycles after {warmup} warm-up cycles); at least {MIN_MEASURED_MESSAGES} are needed: raise workload.load or the run length",
                    total - warmup
                ),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::workload::parse_gop;
    use crate::Experiment;

    /// 001_… Fig. 11's single switch with MPEG-2 sources (fig11_001.toml
    /// without its sweep), the given sequences and GOP phase.
    fn text(sequences: &str, phase: &str) -> String {
        format!(
            "name = \"gop\"\n[router]\nports = 8\nvcs = 16\nflit_width = 32\ninput_buffer_depth = 20\n\
             output_buffer_depth = 20\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n\
             [topology]\nkind = \"single_switch\"\n[physical]\nlink_mbps = 1600\n[workload]\n\
             load = 0.8\nmix = [80, 20]\nrealtime = \"mpeg2\"\nbest_effort = \"poisson\"\n\
             message_flits = 20\nmpeg2_sequences = {sequences}\ngop_phase = \"{phase}\"\n\
             [run]\nseconds = 0.01\nseed = 1\n"
        )
    }

    fn mpeg2(sequences: &str, phase: &str) -> crate::experiment::Validated {
        Experiment::from_str(&text(sequences, phase), "gop.toml", ".".into()).expect("a valid experiment")
    }

    /// Kbits of the first `n` frames of a source's stream `s`.
    fn frames(v: &crate::experiment::Validated, s: usize, n: usize) -> Vec<f64> {
        let gop = parse_gop("IBBPBBPBBPBB").unwrap();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(1);
        let mut sizer = v.sizer(s, &gop);
        (0..n).map(|_| sizer.next(&mut rng) / 1000.0).collect()
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    /// Table III's sequence 1 (I 430.2, P 295.6, B 194.2 Kbits), GOP
    /// IBBPBBPBBPBB: staggered, stream s starts at GOP position s mod 12.
    #[test]
    fn staggered_streams_start_at_their_gop_position() {
        let (i, p, b) = (430.2, 295.6, 194.2);
        let v = mpeg2("[1]", "staggered");
        assert!(close(&frames(&v, 0, 4), &[i, b, b, p]), "stream 0: {:?}", frames(&v, 0, 4));
        assert!(close(&frames(&v, 1, 4), &[b, b, p, b]), "stream 1: {:?}", frames(&v, 1, 4));
        assert!(close(&frames(&v, 3, 4), &[p, b, b, p]), "stream 3: {:?}", frames(&v, 3, 4));
        assert!(close(&frames(&v, 11, 3), &[b, i, b]), "stream 11: {:?}", frames(&v, 11, 3));
        assert!(close(&frames(&v, 13, 3), &[b, b, p]), "stream 13 (13 mod 12 = 1): {:?}", frames(&v, 13, 3));
        // Aligned (the default) keeps every stream at its I frame.
        let v = mpeg2("[1]", "aligned");
        assert!(close(&frames(&v, 5, 4), &[i, b, b, p]), "aligned stream 5: {:?}", frames(&v, 5, 4));
    }

    /// A 12-frame trace of sizes 1..=12 kbit (frame k is k + 1 kbit):
    /// stream s starts at frame 7s mod 12, by hand: stream 0 at frame 0
    /// (1 kbit), 1 at 7 (8), 2 at 14 mod 12 = 2 (3), 3 at 21 mod 12 = 9
    /// (10), 12 at 84 mod 12 = 0 (1); each then goes on cyclically.
    #[test]
    fn trace_streams_start_seven_frames_apart() {
        let dir = std::env::temp_dir().join(format!("wormqos_trace_stride_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bytes: String = (1..=12).map(|k| format!("{}\n", k * 125)).collect();
        std::fs::write(dir.join("t.trace"), bytes).unwrap();
        let exp = text("[1]", "aligned").replace("realtime = \"mpeg2\"", "realtime = \"trace\"\ntrace_file = \"t.trace\"");
        let exp = exp.replace("mpeg2_sequences = [1]\ngop_phase = \"aligned\"\n", "");
        let v = Experiment::from_str(&exp, "trace.toml", dir.clone()).expect("a valid trace experiment");
        let _ = std::fs::remove_dir_all(&dir);
        for (s, first) in [(0, [1.0, 2.0, 3.0]), (1, [8.0, 9.0, 10.0]), (2, [3.0, 4.0, 5.0]), (3, [10.0, 11.0, 12.0]), (12, [1.0, 2.0, 3.0])] {
            assert!(close(&frames(&v, s, 3), &first), "stream {s}: {:?}", frames(&v, s, 3));
        }
        let wrapped = frames(&v, 3, 5);
        assert!(close(&wrapped[3..], &[1.0, 2.0]), "stream 3 wraps to frame 0: {wrapped:?}");
    }

    /// Sum over a source's streams of the frame each sends in frame time t.
    fn per_frame_time(v: &crate::experiment::Validated, streams: usize, times: usize) -> Vec<f64> {
        let all: Vec<Vec<f64>> = (0..streams).map(|s| frames(v, s, times)).collect();
        (0..times).map(|t| all.iter().map(|f| f[t]).sum()).collect()
    }

    /// Staggered, the source's frame-time sums are flat. By hand from Table
    /// III, one GOP (1 I + 3 P + 8 B) of each sequence in Kbits:
    /// 1: 430.2 + 886.8 + 1553.6 = 2870.6; 2: 839.4 + 2041.8 + 3208.0 =
    /// 6089.2; 3: 534.7 + 1708.2 + 3102.4 = 5345.3; 4: 393.3 + 1020.9 +
    /// 1931.2 = 3345.4; 5: 350.6 + 728.7 + 1383.2 = 2462.5; 6: 974.7 +
    /// 2165.7 + 4236.8 = 7377.2; 7: 637.6 + 1608.0 + 3154.4 = 5400.0; sum
    /// 32890.2. With 84 = 7 × 12 streams (sequence s mod 7, position s mod
    /// 12) every (sequence, position) pair occurs once, so every frame time
    /// carries exactly that. Aligned, frame time 0 carries 12 I frames of
    /// each sequence: 12 × (430.2 + 839.4 + 534.7 + 393.3 + 350.6 + 974.7
    /// + 637.6) = 12 × 4160.5 = 49926.0, and frame time 1 only B frames:
    /// 12 × (194.2 + 401.0 + 387.8 + 241.4 + 172.9 + 529.6 + 394.3) =
    /// 12 × 2321.2 = 27854.4. One sequence, 12 streams: 2870.6 flat.
    #[test]
    fn staggered_gops_flatten_a_sources_frame_time_sums() {
        let all = "[1, 2, 3, 4, 5, 6, 7]";
        let sums = per_frame_time(&mpeg2(all, "staggered"), 84, 24);
        assert!(close(&sums, &[32890.2; 24]), "staggered, 84 streams: {sums:?}");
        let sums = per_frame_time(&mpeg2("[1]", "staggered"), 12, 24);
        assert!(close(&sums, &[2870.6; 24]), "staggered, 12 streams of sequence 1: {sums:?}");
        let sums = per_frame_time(&mpeg2(all, "aligned"), 84, 2);
        assert!(close(&sums, &[49926.0, 27854.4]), "aligned, 84 streams: {sums:?}");
    }

    /// The field is refused where there are no GOPs.
    #[test]
    fn staggered_needs_mpeg2() {
        // Synthetic VBR (line 17 realtime, line 21 gop_phase).
        let text = text("[1]", "staggered").replace("realtime = \"mpeg2\"", "realtime = \"vbr\"");
        let e = Experiment::from_str(&text, "g.toml", ".".into()).err().expect("refused").to_string();
        assert!(e.contains("workload.gop_phase = \"staggered\"") && e.contains("allowed values"), "{e}");
        assert!(e.contains("g.toml:21"), "names the line: {e}");
    }
}

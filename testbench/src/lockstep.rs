//! RTL-versus-model lockstep runs, and single-device scoreboard runs.
//!
//! Each cycle t: the outputs of both devices are compared signal by signal;
//! the model's outputs go to the conservation [`Scoreboard`] and drive the
//! [`Stimulus`], whose inputs for cycle t are then applied to both devices.
//! After `cycles` cycles the stimulus stops starting messages and the run
//! drains until every injected flit has been delivered.

use std::fmt;
use std::path::PathBuf;

use wormqos_config::{RouterConfig, RouterMode};
use wormqos_config::files::OutDir;
use wormqos_sim::{RouteWrite, RouterInputs, RouterOutputs};

use crate::dut::Dut;
use crate::parts::{PartScoreboard, PartSummary};
use crate::scoreboard::{hex_data, ErrorKind, Scoreboard, ScoreboardError, ScoreboardSummary, Side};
use crate::stimulus::{Stimulus, StimulusError, StimulusStats, TrafficParams};

/// How long and with what traffic to run.
#[derive(Clone, Debug, PartialEq)]
pub struct LockstepOptions {
    /// Cycles with injection enabled (the drain comes on top).
    pub cycles: u64,
    pub seed: u64,
    pub traffic: TrafficParams,
    /// Most cycles allowed for draining after injection stops.
    pub drain_limit: u64,
    /// Where to write a waveform of the RTL around the first mismatch.
    pub waveform_dir: Option<PathBuf>,
    /// Cycles of waveform before the mismatch.
    pub waveform_window: u64,
    /// Stop at the first failed RTL check (simulation-only assertions,
    /// [`LockstepError::Check`]). Tests that show the comparison or the
    /// scoreboard catching a planted bug on their own turn this off.
    pub stop_on_rtl_check: bool,
    /// A change of routes in the middle of the run, by the safe procedure.
    pub reconfigure: Option<Reconfiguration>,
}

/// The safe procedure for changing a programmable router's routes
/// (docs/integration.md, "Changing routes at run time"), run in the middle
/// of a lockstep run: at `quiesce_at` the sources stop starting messages;
/// once every injected flit has been delivered (the first phase's
/// scoreboard is then finished and must balance), `settle` more cycles let
/// the last credits come home; then one table write per cycle, the same on
/// both devices (`RouterInputs::route_write`); then injection resumes with
/// a fresh stimulus and scoreboard that read `after`, the configuration with
/// the new tables, so every later message must leave where `after` says.
#[derive(Clone, Debug, PartialEq)]
pub struct Reconfiguration {
    pub quiesce_at: u64,
    pub settle: u64,
    pub writes: Vec<RouteWrite>,
    pub after: RouterConfig,
}

/// Where a run with a [`Reconfiguration`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Before,
    Draining,
    Settling(u64),
    Writing(usize),
    After,
}

impl Default for LockstepOptions {
    fn default() -> Self {
        LockstepOptions {
            cycles: 10_000,
            seed: 1,
            traffic: TrafficParams::default(),
            drain_limit: 20_000,
            waveform_dir: None,
            waveform_window: 200,
            stop_on_rtl_check: true,
            reconfigure: None,
        }
    }
}

/// What a successful run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunReport {
    pub seed: u64,
    /// Total cycles run after reset (injection plus drain).
    pub cycles: u64,
    pub injection_cycles: u64,
    pub drain_cycles: u64,
    pub flits_injected: u64,
    pub flits_delivered: u64,
    pub messages_injected: u64,
    pub messages_delivered: u64,
    /// Output signal values compared between RTL and model (0 for a single-device run).
    pub values_compared: u64,
    /// Backpressure and traffic counters from the stimulus.
    pub stimulus: StimulusStats,
    pub scoreboard: ScoreboardSummary,
    /// Preemptive mode: how messages were split into parts (seen on the outputs).
    pub parts: Option<PartSummary>,
}

/// The report of [`run_lockstep`].
pub type LockstepReport = RunReport;

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed {}: {} cycles ({} injecting + {} draining), {} flits / {} messages injected and delivered",
            self.seed,
            self.cycles,
            self.injection_cycles,
            self.drain_cycles,
            self.flits_delivered,
            self.messages_delivered
        )?;
        if self.values_compared > 0 {
            write!(f, ", {} output values compared", self.values_compared)?;
        }
        write!(f, "\n  {}\n  {}", self.stimulus, self.scoreboard)
    }
}

/// One output signal that differs between the two devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalDiff {
    /// e.g. `out_data_o[port 3]`, `in_credit_o[port 1 vc 2]`.
    pub signal: String,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for SignalDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: expected (model) {}, actual (RTL) {}", self.signal, self.expected, self.actual)
    }
}

/// The first cycle at which the RTL's outputs differ from the model's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    pub seed: u64,
    /// The first differing signal (ports in order; per port valid, vc, head,
    /// tail, data; then the credit bits).
    pub signal: String,
    pub expected: String,
    pub actual: String,
    /// Every differing signal of that cycle, the first one included.
    pub all: Vec<SignalDiff>,
    /// The VCD written by the rerun, when a waveform directory was given.
    pub waveform: Option<PathBuf>,
    /// First cycle in the waveform.
    pub waveform_from: Option<u64>,
    /// Why there is no waveform, or a caveat about it.
    pub waveform_note: Option<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "RTL differs from the model at cycle {} (seed {}): {}: expected (model) {}, actual (RTL) {}",
            self.cycle, self.seed, self.signal, self.expected, self.actual
        )?;
        if self.all.len() > 1 {
            let rest: Vec<String> = self.all[1..].iter().take(8).map(|d| d.to_string()).collect();
            write!(f, "\n  also differing in that cycle: {}", rest.join("; "))?;
            if self.all.len() > 9 {
                write!(f, "; and {} more", self.all.len() - 9)?;
            }
        }
        if let Some(p) = &self.waveform {
            write!(
                f,
                "\n  waveform: {} (cycles {}..={})",
                p.display(),
                self.waveform_from.unwrap_or(0),
                self.cycle
            )?;
        }
        if let Some(n) = &self.waveform_note {
            write!(f, "\n  waveform: {n}")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LockstepError {
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// The scoreboard rejected the outputs (in a lockstep run: the model's,
    /// which the RTL matched up to that cycle).
    #[error("conservation check failed on the {device}'s outputs: {source}")]
    Conservation {
        device: &'static str,
        #[source]
        source: ScoreboardError,
    },
    /// One of the RTL's simulation-only checks failed (its `ASSERTION
    /// FAILED in <instance>: <what>` line is on standard output).
    #[error(
        "an RTL check failed in cycle {cycle} (the {device}'s `ASSERTION FAILED in <instance>: <what>` \
         line is on standard output)"
    )]
    Check { device: &'static str, cycle: u64 },
    #[error("the {device} broke the link protocol: {source}")]
    Protocol {
        device: &'static str,
        #[source]
        source: StimulusError,
    },
    #[error(
        "deadlock or stall: the {device} did not drain within {drain_limit} cycles after injection \
         stopped at cycle {injection_cycles}: {delivered} of {injected} flits delivered, {outstanding} \
         still inside{sources}\n  {detail}"
    )]
    Drain {
        device: &'static str,
        injection_cycles: u64,
        drain_limit: u64,
        injected: u64,
        delivered: u64,
        outstanding: u64,
        sources: String,
        detail: String,
    },
}

/// Compares two cycles' outputs signal by signal, in a fixed order.
pub fn compare_outputs(cfg: &RouterConfig, expected: &RouterOutputs, actual: &RouterOutputs) -> Vec<SignalDiff> {
    // The common case must not format anything: this runs every cycle.
    if expected == actual {
        return Vec::new();
    }
    let w = cfg.flit_width();
    let mut d = Vec::new();
    let mut push = |signal: String, e: String, a: String| {
        if e != a {
            d.push(SignalDiff { signal, expected: e, actual: a });
        }
    };
    let idle = wormqos_sim::LinkFlit::IDLE;
    for p in 0..cfg.ports() {
        let e = expected.flits.get(p).unwrap_or(&idle);
        let a = actual.flits.get(p).unwrap_or(&idle);
        let b = |x: bool| (x as u8).to_string();
        push(format!("out_valid_o[port {p}]"), b(e.valid), b(a.valid));
        push(format!("out_vc_o[port {p}]"), e.vc.to_string(), a.vc.to_string());
        push(format!("out_head_o[port {p}]"), b(e.head), b(a.head));
        push(format!("out_tail_o[port {p}]"), b(e.tail), b(a.tail));
        push(format!("out_dummy_o[port {p}]"), b(e.dummy), b(a.dummy));
        push(format!("out_lane_o[port {p}]"), e.lane.to_string(), a.lane.to_string());
        push(format!("out_data_o[port {p}]"), hex_data(&e.data, w), hex_data(&a.data, w));
        if e.data != a.data && hex_data(&e.data, w) == hex_data(&a.data, w) {
            push(format!("out_data_o[port {p}] (bits above the flit width)"), format!("{:x?}", e.data), format!("{:x?}", a.data));
        }
    }
    for p in 0..cfg.ports() {
        let e = expected.credits.get(p).copied().unwrap_or(0);
        let a = actual.credits.get(p).copied().unwrap_or(0);
        for v in 0..cfg.vcs() {
            push(
                format!("in_credit_o[port {p} vc {v}]"),
                ((e >> v) & 1).to_string(),
                ((a >> v) & 1).to_string(),
            );
        }
        let high = |x: u32| if cfg.vcs() >= 32 { 0 } else { x >> cfg.vcs() };
        push(format!("in_credit_o[port {p}] (bits above the VCs)"), format!("{:#x}", high(e)), format!("{:#x}", high(a)));
        // Per-lane credits (§9.4 *Credits*): the lane of each credit.
        let e = expected.credit_lanes.get(p).copied().unwrap_or(0);
        let a = actual.credit_lanes.get(p).copied().unwrap_or(0);
        for v in 0..cfg.vcs() {
            let (le, la) = (wormqos_sim::credit_lane(e, v), wormqos_sim::credit_lane(a, v));
            push(format!("in_credit_lane_o[port {p} vc {v}]"), le.to_string(), la.to_string());
        }
    }
    d
}

/// Runs the RTL and the model side by side from reset; see the module docs.
pub fn run_lockstep(
    cfg: &RouterConfig,
    rtl: &mut dyn Dut,
    model: &mut dyn Dut,
    opts: &LockstepOptions,
) -> Result<LockstepReport, LockstepError> {
    match run(cfg, model, Some(&mut *rtl), opts, "model") {
        Err(RunFail::Mismatch(t, diffs)) => {
            let mut m = Mismatch {
                cycle: t,
                seed: opts.seed,
                signal: diffs[0].signal.clone(),
                expected: diffs[0].expected.clone(),
                actual: diffs[0].actual.clone(),
                all: diffs,
                waveform: None,
                waveform_from: None,
                waveform_note: None,
            };
            if let Some(dir) = &opts.waveform_dir {
                match capture_waveform(cfg, rtl, model, opts, dir, t) {
                    Ok((path, from, reproduced)) => {
                        m.waveform = Some(path);
                        m.waveform_from = Some(from);
                        if !reproduced {
                            m.waveform_note = Some(
                                "the rerun from reset did NOT reproduce the mismatch (the RTL is not deterministic?)"
                                    .to_string(),
                            );
                        }
                    }
                    Err(e) => m.waveform_note = Some(format!("not written: {e}")),
                }
            }
            Err(LockstepError::Mismatch(Box::new(m)))
        }
        Err(RunFail::Other(e)) => Err(e),
        Ok(r) => Ok(r),
    }
}

/// Runs one device from reset with the stimulus driven by its own outputs
/// and the conservation scoreboard as the only check.
pub fn run_single(cfg: &RouterConfig, dut: &mut dyn Dut, opts: &LockstepOptions) -> Result<RunReport, LockstepError> {
    match run(cfg, dut, None, opts, "device") {
        Ok(r) => Ok(r),
        Err(RunFail::Other(e)) => Err(e),
        Err(RunFail::Mismatch(..)) => unreachable!("no second device to compare with"),
    }
}

/// The conservation checker for the configuration's mode: whole messages, or
/// parts of messages in the preemptive mode.
enum Checker {
    Whole(Box<Scoreboard>),
    Parts(Box<PartScoreboard>),
}

/// Per-lane credits: the flits without their lane, which is link state
/// (the downstream lane a flit enters at that hop), not part of the
/// message the scoreboards follow across the router.
fn without_lanes(flits: &[wormqos_sim::LinkFlit]) -> Vec<wormqos_sim::LinkFlit> {
    flits.iter().map(|f| wormqos_sim::LinkFlit { lane: 0, ..*f }).collect()
}

impl Checker {
    fn new(cfg: &RouterConfig) -> Self {
        if cfg.mode() == RouterMode::Preemptive {
            Checker::Parts(Box::new(PartScoreboard::new(cfg)))
        } else {
            Checker::Whole(Box::new(Scoreboard::new(cfg)))
        }
    }
    fn observe(&mut self, t: u64, outs: &RouterOutputs) -> Result<(), ScoreboardError> {
        if outs.flits.iter().any(|f| f.lane != 0) {
            let plain = RouterOutputs { flits: without_lanes(&outs.flits), ..outs.clone() };
            return self.observe(t, &plain);
        }
        match self {
            Checker::Whole(s) => s.observe(t, outs),
            Checker::Parts(s) => s.observe(t, outs),
        }
    }
    fn inject_all(&mut self, t: u64, inputs: &RouterInputs) -> Result<(), ScoreboardError> {
        if inputs.flits.iter().any(|f| f.lane != 0) {
            let plain = RouterInputs { flits: without_lanes(&inputs.flits), ..inputs.clone() };
            return self.inject_all(t, &plain);
        }
        match self {
            Checker::Whole(s) => s.inject_all(t, inputs),
            Checker::Parts(s) => s.inject_all(t, inputs),
        }
    }
    fn outstanding_flits(&self) -> u64 {
        match self {
            Checker::Whole(s) => s.outstanding_flits(),
            Checker::Parts(s) => s.outstanding_flits(),
        }
    }
    fn flits_injected(&self) -> u64 {
        match self {
            Checker::Whole(s) => s.flits_injected(),
            Checker::Parts(s) => s.flits_injected(),
        }
    }
    fn flits_delivered(&self) -> u64 {
        match self {
            Checker::Whole(s) => s.flits_delivered(),
            Checker::Parts(s) => s.flits_delivered(),
        }
    }
    fn finish(&self) -> Result<ScoreboardSummary, ScoreboardError> {
        match self {
            Checker::Whole(s) => s.finish(),
            Checker::Parts(s) => s.finish(),
        }
    }
    fn parts(&self) -> Option<PartSummary> {
        match self {
            Checker::Whole(_) => None,
            Checker::Parts(s) => Some(s.parts().clone()),
        }
    }
}

/// Traditional / non-preemptive modes: a header may only leave on an output
/// VC reserved for its class (docs/microarchitecture.md §9.2).
fn check_partition(cfg: &RouterConfig, cycle: u64, outs: &RouterOutputs) -> Result<(), ScoreboardError> {
    let Some(map) = cfg.vc_classes() else { return Ok(()) };
    for (o, f) in outs.flits.iter().enumerate() {
        if !(f.valid && f.head) || f.vc as usize >= map.len() {
            continue;
        }
        let code = cfg.header().class.extract(&f.data);
        let class = if code < cfg.traffic_classes() as u64 { code } else { 0 };
        if map[f.vc as usize] as u64 != class {
            return Err(ScoreboardError {
                cycle,
                side: Side::Output,
                port: o,
                vc: f.vc as usize,
                kind: ErrorKind::WrongClassVc,
                expected: format!("an output VC of class {class}"),
                actual: format!("output VC {} of class {}", f.vc, map[f.vc as usize]),
                detail: "a header left on an output VC reserved for another class".to_string(),
            });
        }
    }
    Ok(())
}

/// `topology.route_vcs`: a header may only leave on an output VC of its
/// destination's allowed set (docs/microarchitecture.md §2, §6 stage 3). The
/// set of a header's own router is what matters: the output VC of this hop
/// is the input VC of the next, which is what the dateline classes rely on.
fn check_route_vcs(cfg: &RouterConfig, cycle: u64, outs: &RouterOutputs) -> Result<(), ScoreboardError> {
    if cfg.route_vc_table().is_none() {
        return Ok(());
    }
    for (o, f) in outs.flits.iter().enumerate() {
        if !(f.valid && f.head) {
            continue;
        }
        let dest = cfg.header().dest.extract(&f.data);
        let allowed = cfg.route_vcs(dest);
        if (f.vc as u32) >= 32 || allowed >> f.vc & 1 == 0 {
            return Err(ScoreboardError {
                cycle,
                side: Side::Output,
                port: o,
                vc: f.vc as usize,
                kind: ErrorKind::DisallowedVc,
                expected: format!("an output VC in mask {allowed:#b} of destination {dest}"),
                actual: format!("output VC {}", f.vc),
                detail: "VA granted a VC outside the header's topology.route_vcs entry".to_string(),
            });
        }
    }
    Ok(())
}

enum RunFail {
    Mismatch(u64, Vec<SignalDiff>),
    Other(LockstepError),
}

impl From<LockstepError> for RunFail {
    fn from(e: LockstepError) -> Self {
        RunFail::Other(e)
    }
}

fn run(
    cfg: &RouterConfig,
    lead: &mut dyn Dut,
    mut other: Option<&mut dyn Dut>,
    opts: &LockstepOptions,
    device: &'static str,
) -> Result<RunReport, RunFail> {
    lead.reset();
    if let Some(o) = other.as_deref_mut() {
        o.reset();
    }
    let mut stim = Stimulus::new(cfg, opts.seed, opts.traffic.clone());
    let mut sb = Checker::new(cfg);
    let lanes = if cfg.per_lane_credits() { 1 + cfg.vcs() } else { 0 };
    let per_cycle = (cfg.ports() * (5 + cfg.vcs() + 1 + lanes)) as u64;
    let mut compared = 0u64;
    let conservation = |source| LockstepError::Conservation { device, source };
    let mut t = 0u64;
    // The configuration the stimulus and the checks read: `cfg`, then the
    // reconfiguration's `after`; and the first phase's totals.
    let mut cur = cfg.clone();
    let mut phase = Phase::Before;
    let mut before: Option<ScoreboardSummary> = None;
    loop {
        if t == opts.cycles {
            stim.stop_injecting();
        }
        let lead_out = lead.outputs().clone();
        if let Some(o) = other.as_deref_mut() {
            let diffs = compare_outputs(cfg, &lead_out, o.outputs());
            if !diffs.is_empty() {
                return Err(RunFail::Mismatch(t, diffs));
            }
            compared += per_cycle;
        }
        sb.observe(t, &lead_out).map_err(conservation)?;
        check_partition(&cur, t, &lead_out).map_err(conservation)?;
        check_route_vcs(&cur, t, &lead_out).map_err(conservation)?;
        let mut write = None;
        if let Some(r) = &opts.reconfigure {
            phase = match phase {
                Phase::Before if t == r.quiesce_at => {
                    stim.stop_injecting();
                    Phase::Draining
                }
                Phase::Draining if stim.sources_idle() && sb.outstanding_flits() == 0 => {
                    before = Some(sb.finish().map_err(conservation)?);
                    Phase::Settling(r.settle)
                }
                Phase::Settling(0) if r.writes.is_empty() => Phase::Writing(0),
                Phase::Settling(0) => {
                    write = Some(r.writes[0]);
                    Phase::Writing(1)
                }
                Phase::Settling(k) => Phase::Settling(k - 1),
                Phase::Writing(i) if i < r.writes.len() => {
                    write = Some(r.writes[i]);
                    Phase::Writing(i + 1)
                }
                p => p,
            };
        }
        let quiet = matches!(phase, Phase::Before | Phase::After);
        if quiet && t >= opts.cycles && stim.sources_idle() && sb.outstanding_flits() == 0 {
            // The sinks take this last cycle's outputs too, as the scoreboard
            // did, so that their counts agree (the inputs are not applied).
            stim.next_inputs(&lead_out).map_err(|source| LockstepError::Protocol { device, source })?;
            break;
        }
        if t >= opts.cycles.saturating_add(opts.drain_limit) {
            let detail = match sb.finish() {
                Err(e) => e.detail,
                Ok(_) => String::new(),
            };
            let sources = if stim.sources_idle() {
                String::new()
            } else {
                " (some sources still hold unsent flits of begun messages: no credits came back)".to_string()
            };
            return Err(LockstepError::Drain {
                device,
                injection_cycles: opts.cycles,
                drain_limit: opts.drain_limit,
                injected: sb.flits_injected(),
                delivered: sb.flits_delivered(),
                outstanding: sb.outstanding_flits(),
                sources,
                detail,
            }
            .into());
        }
        let inputs = stim
            .next_inputs(&lead_out)
            .map_err(|source| LockstepError::Protocol { device, source })?;
        sb.inject_all(t, inputs).map_err(conservation)?;
        let written;
        let inputs = match write {
            Some(w) => {
                written = RouterInputs { route_write: Some(w), ..inputs.clone() };
                &written
            }
            None => inputs,
        };
        lead.step(inputs);
        if opts.stop_on_rtl_check && lead.check_failed() {
            return Err(LockstepError::Check { device, cycle: t }.into());
        }
        if let Some(o) = other.as_deref_mut() {
            o.step(inputs);
            if opts.stop_on_rtl_check && o.check_failed() {
                return Err(LockstepError::Check { device: "RTL", cycle: t }.into());
            }
        }
        if let (Some(r), Phase::Writing(i)) = (&opts.reconfigure, phase) {
            if i == r.writes.len() {
                // Resume: the new tables are in place from the next cycle on.
                cur = r.after.clone();
                stim = Stimulus::new(&cur, opts.seed.wrapping_add(1), opts.traffic.clone());
                if t + 1 >= opts.cycles {
                    stim.stop_injecting();
                }
                sb = Checker::new(&cur);
                phase = Phase::After;
            }
        }
        t += 1;
    }
    let summary = sb.finish().map_err(conservation)?;
    let (b_flits, b_msgs) = before.as_ref().map_or((0, 0), |b| (b.flits_injected, b.messages_injected));
    let (bd_flits, bd_msgs) = before.as_ref().map_or((0, 0), |b| (b.flits_delivered, b.messages_delivered));
    Ok(RunReport {
        seed: opts.seed,
        cycles: t,
        injection_cycles: opts.cycles.min(t),
        drain_cycles: t.saturating_sub(opts.cycles),
        flits_injected: summary.flits_injected + b_flits,
        flits_delivered: summary.flits_delivered + bd_flits,
        messages_injected: summary.messages_injected + b_msgs,
        messages_delivered: summary.messages_delivered + bd_msgs,
        values_compared: compared,
        stimulus: stim.stats().clone(),
        scoreboard: summary,
        parts: sb.parts(),
    })
}

/// Reruns from reset with the same seed and records the RTL from
/// `window` cycles before `mismatch` through the mismatch cycle.
/// Returns the VCD path, its first cycle, and whether the mismatch reappeared.
fn capture_waveform(
    cfg: &RouterConfig,
    rtl: &mut dyn Dut,
    model: &mut dyn Dut,
    opts: &LockstepOptions,
    dir: &std::path::Path,
    mismatch: u64,
) -> anyhow::Result<(PathBuf, u64, bool)> {
    if opts.reconfigure.is_some() {
        anyhow::bail!("the rerun does not replay a reconfiguration");
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create waveform directory {}: {e}", dir.display()))?;
    let name = format!("{}_seed{}_cycle{}.vcd", cfg.name(), opts.seed, mismatch);
    let path = dir.join(&name);
    // The directory's manifest says which waveforms are ours: a user's file
    // of the same name is never overwritten (the name is only known now, at
    // the mismatch, so the refusal is a note on the report, not exit 2).
    let mut out = OutDir::claim(dir, &[(&name, None)], false)?;
    out.begin(&[&name])?;
    let from = mismatch.saturating_sub(opts.waveform_window);
    rtl.prepare_trace()?;
    if from == 0 {
        rtl.start_trace(&path)?;
    }
    rtl.reset();
    model.reset();
    let mut stim = Stimulus::new(cfg, opts.seed, opts.traffic.clone());
    let mut reproduced = false;
    for t in 0..=mismatch {
        if t == from && from > 0 {
            rtl.start_trace(&path)?;
        }
        if t == opts.cycles {
            stim.stop_injecting();
        }
        let out = model.outputs().clone();
        if t == mismatch {
            reproduced = !compare_outputs(cfg, &out, rtl.outputs()).is_empty();
        }
        let inputs = match stim.next_inputs(&out) {
            Ok(i) => i,
            Err(e) => {
                rtl.stop_trace();
                anyhow::bail!("the rerun diverged: {e}");
            }
        };
        // Clock through the mismatch cycle so that its values are in the dump.
        model.step(inputs);
        rtl.step(inputs);
    }
    rtl.stop_trace();
    out.record(&name);
    out.finish(|_| false)?;
    Ok((path, from, reproduced))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::path::Path;
    use wormqos_sim::{LinkFlit, RouterInputs};

    fn cfg() -> RouterConfig {
        RouterConfig::from_toml_str(
            r#"
name = "ls"
[router]
ports = 3
vcs = 2
flit_width = 40
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
"#,
            "t",
        )
        .unwrap()
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Bug {
        None,
        /// Flip data bit 0 of the first flit on `port` at or after cycle `after`.
        FlipData { port: usize, after: u64 },
        /// Suppress the first credit of (port, vc) at or after `after`.
        DropCredit { port: usize, vc: usize, after: u64 },
        /// Lose the first non-head flit sent at or after `after` (credit consumed).
        LoseFlit { after: u64 },
        /// Stop forwarding anything from `after` on.
        Freeze { after: u64 },
    }

    /// A tiny ideal router written for these tests only: wormhole VC
    /// allocation (lowest free output VC), one flit per output port per
    /// cycle, rotating priority, output credits, registered outputs.
    struct Ideal {
        cfg: RouterConfig,
        inq: Vec<VecDeque<LinkFlit>>,
        alloc: Vec<Option<(usize, usize)>>,
        owned: Vec<bool>,
        credits: Vec<usize>,
        out: RouterOutputs,
        cycle: u64,
        bug: Bug,
        fired: Option<u64>,
        can_trace: bool,
        trace: Option<(PathBuf, u64)>,
    }

    impl Ideal {
        fn new(cfg: &RouterConfig, bug: Bug) -> Self {
            let nm = cfg.ports() * cfg.vcs();
            Ideal {
                cfg: cfg.clone(),
                inq: vec![VecDeque::new(); nm],
                alloc: vec![None; nm],
                owned: vec![false; nm],
                credits: vec![cfg.downstream_buffer_depth(); nm],
                out: RouterOutputs::idle(cfg),
                cycle: 0,
                bug,
                fired: None,
                can_trace: false,
                trace: None,
            }
        }
    }

    impl Dut for Ideal {
        fn reset(&mut self) {
            let (bug, can_trace, trace) = (self.bug, self.can_trace, self.trace.take());
            *self = Ideal::new(&self.cfg.clone(), bug);
            self.can_trace = can_trace;
            self.trace = trace.map(|(p, _)| (p, 0));
        }
        fn outputs(&mut self) -> &RouterOutputs {
            &self.out
        }
        fn step(&mut self, inputs: &RouterInputs) {
            let (n, m) = (self.cfg.ports(), self.cfg.vcs());
            let nm = n * m;
            let next_cycle = self.cycle + 1;
            let mut next = RouterOutputs::idle(&self.cfg);
            let frozen = matches!(self.bug, Bug::Freeze { after } if next_cycle >= after);
            for i in 0..nm {
                if self.alloc[i].is_none() {
                    if let Some(h) = self.inq[i].front() {
                        let o = self.cfg.route(self.cfg.header().dest.extract(&h.data));
                        if let Some(u) = (0..m).find(|&u| !self.owned[o * m + u]) {
                            self.owned[o * m + u] = true;
                            self.alloc[i] = Some((o, u));
                        }
                    }
                }
            }
            for o in 0..n {
                if frozen {
                    break;
                }
                for k in 0..nm {
                    let i = (k + self.cycle as usize) % nm;
                    let Some((ro, u)) = self.alloc[i] else { continue };
                    if ro != o || self.inq[i].is_empty() || self.credits[o * m + u] == 0 {
                        continue;
                    }
                    let f = self.inq[i].pop_front().unwrap();
                    self.credits[o * m + u] -= 1;
                    next.credits[i / m] |= 1 << (i % m);
                    if f.tail {
                        self.owned[o * m + u] = false;
                        self.alloc[i] = None;
                    }
                    next.flits[o] = LinkFlit { vc: u as u8, ..f };
                    if let Bug::LoseFlit { after } = self.bug {
                        if self.fired.is_none() && next_cycle >= after && !f.head {
                            self.fired = Some(next_cycle);
                            next.flits[o] = LinkFlit::IDLE;
                        }
                    }
                    break;
                }
            }
            for o in 0..n {
                for u in 0..m {
                    if (inputs.credits[o] >> u) & 1 == 1 {
                        let c = &mut self.credits[o * m + u];
                        *c = (*c + 1).min(self.cfg.downstream_buffer_depth());
                    }
                }
            }
            for (p, f) in inputs.flits.iter().enumerate() {
                if f.valid {
                    self.inq[p * m + f.vc as usize].push_back(*f);
                }
            }
            if self.fired.is_none() && next_cycle >= 1 {
                match self.bug {
                    Bug::FlipData { port, after } if next_cycle >= after && next.flits[port].valid => {
                        next.flits[port].data[0] ^= 1;
                        self.fired = Some(next_cycle);
                    }
                    Bug::DropCredit { port, vc, after } if next_cycle >= after && (next.credits[port] >> vc) & 1 == 1 => {
                        next.credits[port] &= !(1 << vc);
                        self.fired = Some(next_cycle);
                    }
                    _ => {}
                }
            }
            self.out = next;
            self.cycle = next_cycle;
        }
        fn start_trace(&mut self, path: &Path) -> anyhow::Result<()> {
            if !self.can_trace {
                anyhow::bail!("this device cannot write waveforms");
            }
            self.trace = Some((path.to_path_buf(), self.cycle));
            Ok(())
        }
        fn stop_trace(&mut self) {
            if let Some((p, start)) = self.trace.take() {
                std::fs::write(&p, format!("fake vcd from cycle {start} to cycle {}\n", self.cycle)).unwrap();
            }
        }
    }

    fn opts(cycles: u64, seed: u64) -> LockstepOptions {
        LockstepOptions { cycles, seed, drain_limit: 2000, ..Default::default() }
    }

    #[test]
    fn identical_devices_pass_and_show_backpressure() {
        let c = cfg();
        let mut rtl = Ideal::new(&c, Bug::None);
        let mut model = Ideal::new(&c, Bug::None);
        let r = run_lockstep(&c, &mut rtl, &mut model, &opts(3000, 5)).unwrap();
        assert!(r.flits_injected > 2000, "{r}");
        assert_eq!(r.flits_injected, r.flits_delivered);
        assert_eq!(r.messages_injected, r.messages_delivered);
        assert_eq!(r.injection_cycles, 3000);
        assert!(r.drain_cycles > 0 && r.values_compared > 0, "{r}");
        let s = &r.stimulus;
        assert!(s.stall_burst_cycles > 0 && s.sink_full_cycles > 0 && s.source_credit_blocked > 0, "{r}");
        assert_eq!(s.max_sink_occupancy, c.downstream_buffer_depth(), "{r}");
        assert_eq!(s.min_source_credits, 0, "{r}");
    }

    #[test]
    fn data_mismatch_names_cycle_and_signal() {
        let c = cfg();
        let mut rtl = Ideal::new(&c, Bug::FlipData { port: 1, after: 300 });
        let mut model = Ideal::new(&c, Bug::None);
        let e = run_lockstep(&c, &mut rtl, &mut model, &opts(1000, 9)).unwrap_err();
        let fired = rtl.fired.expect("the bug fired");
        let LockstepError::Mismatch(m) = &e else { panic!("{e}") };
        assert_eq!(m.cycle, fired);
        assert!(fired >= 300);
        assert_eq!(m.signal, "out_data_o[port 1]");
        assert_eq!(m.all.len(), 1);
        let (ev, av) = (
            u64::from_str_radix(&m.expected[2..], 16).unwrap(),
            u64::from_str_radix(&m.actual[2..], 16).unwrap(),
        );
        assert_eq!(ev ^ av, 1);
        assert_eq!(m.expected.len(), 2 + 10, "40 bits = 10 hex digits");
        let text = e.to_string();
        assert!(text.contains(&format!("at cycle {fired}")) && text.contains("expected (model) 0x"), "{text}");
        assert!(m.waveform.is_none() && m.waveform_note.is_none());
    }

    #[test]
    fn credit_mismatch_names_port_and_vc() {
        let c = cfg();
        let mut rtl = Ideal::new(&c, Bug::DropCredit { port: 2, vc: 1, after: 100 });
        let mut model = Ideal::new(&c, Bug::None);
        let e = run_lockstep(&c, &mut rtl, &mut model, &opts(1000, 2)).unwrap_err();
        let LockstepError::Mismatch(m) = &e else { panic!("{e}") };
        assert_eq!(Some(m.cycle), rtl.fired);
        assert_eq!((m.signal.as_str(), m.expected.as_str(), m.actual.as_str()), ("in_credit_o[port 2 vc 1]", "1", "0"));
    }

    #[test]
    fn mismatch_rerun_writes_a_waveform_window() {
        let c = cfg();
        let dir = std::env::temp_dir().join(format!("wormqos-lockstep-test-{}", std::process::id()));
        let mut rtl = Ideal::new(&c, Bug::FlipData { port: 0, after: 500 });
        rtl.can_trace = true;
        let mut model = Ideal::new(&c, Bug::None);
        let o = LockstepOptions { waveform_dir: Some(dir.clone()), waveform_window: 200, ..opts(1000, 4) };
        let e = run_lockstep(&c, &mut rtl, &mut model, &o).unwrap_err();
        let LockstepError::Mismatch(m) = &e else { panic!("{e}") };
        let t = m.cycle;
        let path = m.waveform.clone().expect("a waveform");
        assert_eq!(path, dir.join(format!("ls_seed4_cycle{t}.vcd")));
        assert_eq!(m.waveform_from, Some(t - 200));
        assert!(m.waveform_note.is_none(), "{e}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.trim(), format!("fake vcd from cycle {} to cycle {}", t - 200, t + 1));
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        std::fs::remove_dir_all(&dir).ok();

        // A device without waveforms still gets its mismatch report, with a note.
        let mut rtl = Ideal::new(&c, Bug::FlipData { port: 0, after: 50 });
        let mut model = Ideal::new(&c, Bug::None);
        let e = run_lockstep(&c, &mut rtl, &mut model, &o).unwrap_err();
        let LockstepError::Mismatch(m) = &e else { panic!("{e}") };
        assert!(m.waveform.is_none());
        assert!(e.to_string().contains("cannot write waveforms"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The stimulus's link counters and the scoreboard's flit counts agree
    /// (the sinks see every cycle's outputs, the last one included).
    #[test]
    fn link_counters_agree_with_the_scoreboard() {
        let c = cfg();
        for seed in 1..=4 {
            let r = run_lockstep(&c, &mut Ideal::new(&c, Bug::None), &mut Ideal::new(&c, Bug::None), &opts(1500, seed)).unwrap();
            let s = &r.stimulus;
            assert!(r.flits_delivered > 0);
            assert_eq!(s.flits_injected - s.dummy_flits_injected, r.flits_injected, "seed {seed}: {r}");
            assert_eq!(s.flits_received - s.dummy_flits_received, r.flits_delivered, "seed {seed}: {r}");
        }
    }

    #[test]
    fn a_waveform_never_overwrites_a_file_wormqos_did_not_write() {
        let c = cfg();
        let dir = std::env::temp_dir().join(format!("wormqos-lockstep-wave-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let o = LockstepOptions { waveform_dir: Some(dir.clone()), waveform_window: 200, ..opts(1000, 4) };
        let run = || {
            let mut rtl = Ideal::new(&c, Bug::FlipData { port: 0, after: 500 });
            rtl.can_trace = true;
            let mut model = Ideal::new(&c, Bug::None);
            let e = run_lockstep(&c, &mut rtl, &mut model, &o).unwrap_err();
            let LockstepError::Mismatch(m) = e else { panic!("{e}") };
            m
        };
        // Where the first run puts its waveform, a user's file of that name.
        let name = run().waveform.expect("a waveform").file_name().unwrap().to_owned();
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        let user = dir.join(&name);
        std::fs::write(&user, "the user's own waveform\n").unwrap();
        let m = run();
        assert!(m.waveform.is_none());
        let note = m.waveform_note.expect("a note on the missing waveform");
        assert!(note.contains("not written by wormqos") && note.contains(&*name.to_string_lossy()), "{note}");
        assert_eq!(std::fs::read_to_string(&user).unwrap(), "the user's own waveform\n");
        // The tool's own waveform (in the manifest) is replaced by a rerun.
        std::fs::remove_file(&user).unwrap();
        assert!(run().waveform.is_some());
        let m = run();
        assert_eq!(m.waveform.as_deref(), Some(user.as_path()), "{:?}", m.waveform_note);
        assert!(std::fs::read_to_string(&user).unwrap().starts_with("fake vcd"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn single_run_passes_a_good_device_and_catches_a_lost_flit() {
        let c = cfg();
        let r = run_single(&c, &mut Ideal::new(&c, Bug::None), &opts(2000, 3)).unwrap();
        assert_eq!(r.flits_injected, r.flits_delivered);
        assert_eq!(r.values_compared, 0);

        let mut bad = Ideal::new(&c, Bug::LoseFlit { after: 400 });
        let e = run_single(&c, &mut bad, &opts(2000, 3)).unwrap_err();
        assert!(matches!(e, LockstepError::Conservation { device: "device", .. }), "{e}");
    }

    #[test]
    fn a_frozen_device_is_reported_as_a_drain_failure() {
        let c = cfg();
        let mut bad = Ideal::new(&c, Bug::Freeze { after: 300 });
        let o = LockstepOptions { drain_limit: 100, ..opts(500, 1) };
        let e = run_single(&c, &mut bad, &o).unwrap_err();
        let LockstepError::Drain { outstanding, injected, delivered, .. } = &e else { panic!("{e}") };
        assert!(*outstanding > 0 && injected - delivered == *outstanding);
        assert!(e.to_string().contains("deadlock or stall"), "{e}");
    }

    #[test]
    fn the_golden_model_survives_random_traffic_on_the_examples() {
        for name in ["tiny2", "wide72", "mediaworm8", "qos8", "mesh5"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.toml"));
            let c = RouterConfig::from_file(&path).unwrap();
            let mut model = wormqos_sim::Router::new(&c);
            let r = run_single(&c, &mut model, &LockstepOptions { cycles: 3000, seed: 11, ..Default::default() })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(r.flits_delivered > 500, "{name}: {r}");
            // Model against itself: the lockstep plumbing is transparent.
            let mut a = wormqos_sim::Router::new(&c);
            let mut b = wormqos_sim::Router::new(&c);
            let opts = LockstepOptions { cycles: 1000, seed: 12, ..Default::default() };
            run_lockstep(&c, &mut a, &mut b, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn the_golden_model_drains_a_saturating_hotspot() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mediaworm8.toml");
        let c = RouterConfig::from_file(&path).unwrap();
        let traffic = TrafficParams {
            injection_rate: 1.0,
            max_message_flits: 12,
            hotspot: Some((3, 0.5)),
            stall_burst_prob: 0.02,
            ..Default::default()
        };
        let o = LockstepOptions { cycles: 3000, seed: 99, traffic, ..Default::default() };
        let r = run_single(&c, &mut wormqos_sim::Router::new(&c), &o).unwrap();
        assert!(r.stimulus.source_credit_blocked > 1000 && r.stimulus.sink_full_cycles > 0, "{r}");
        // Deterministic: the same seed gives the same run.
        let again = run_single(&c, &mut wormqos_sim::Router::new(&c), &o).unwrap();
        assert_eq!(r, again);
    }
}

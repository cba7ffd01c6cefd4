//! The safe procedure for changing a programmable network's routes
//! (docs/integration.md, "Changing routes at run time"), run by the
//! engine (`network.rs`) for an experiment's `[reconfigure]` section:
//!
//! 1. quiesce at `reconfigure.at_cycle`: from that cycle on no source
//!    starts a message (messages keep being created and wait in the source
//!    queues; begun messages finish as credits allow);
//! 2. drain: wait for the first cycle that begins with no begun message at
//!    any source and no flit in any router, router output or link register
//!    (at most `reconfigure.drain_limit` cycles, else [`DrainTimeout`]);
//! 3. settle: [`settle_cycles`] more cycles for the last credits;
//! 4. rewrite: one table write per cycle, in the order of
//!    `NewTables::writes`, each at the end of its cycle (§2: RC reads the
//!    new entry from the next cycle on);
//! 5. resume: sources start messages again from the cycle after the last
//!    write.
//!
//! This is the sequence of `wormqos_testbench::lockstep::Reconfiguration`
//! too, so `sim` and `cosim` on one file quiesce at the same cycle.

use crate::experiment::settle_cycles;
use serde::{Deserialize, Serialize};
use wormqos_sim::RouteWrite;

/// Where the procedure is at the start of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Before,
    Draining,
    /// Cycles still to wait before the first write.
    Settling(u64),
    /// Index of the next write.
    Writing(usize),
    After,
}

/// Counters of one stretch of the run (whole network).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub messages_created: u64,
    pub messages_delivered: u64,
    pub flits_injected: u64,
    pub flits_ejected: u64,
}

impl Counters {
    fn minus(self, o: Counters) -> Counters {
        Counters {
            messages_created: self.messages_created - o.messages_created,
            messages_delivered: self.messages_delivered - o.messages_delivered,
            flits_injected: self.flits_injected - o.flits_injected,
            flits_ejected: self.flits_ejected - o.flits_ejected,
        }
    }
}

/// What the reconfiguration did, in `Results::reconfiguration`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReconfigReport {
    /// First cycle in which no source starts a message (`at_cycle`).
    pub quiesce_cycle: u64,
    /// First cycle that began with the network empty.
    pub drained_cycle: u64,
    /// `drained_cycle − quiesce_cycle`.
    pub drain_cycles: u64,
    /// Cycles waited after the drain ([`settle_cycles`]).
    pub settle_cycles: u64,
    /// Table writes (entries that change), one per cycle.
    pub writes: u64,
    /// Cycles of the first and the last write (each at the end of its
    /// cycle); with no write, the cycle the procedure resumed in minus 1.
    pub first_write_cycle: u64,
    pub last_write_cycle: u64,
    /// First cycle in which sources start messages again.
    pub resume_cycle: u64,
    /// Cycles 0..quiesce_cycle, quiesce_cycle..resume_cycle and
    /// resume_cycle..end of run.
    pub before: Counters,
    pub during: Counters,
    pub after: Counters,
    /// Flits each router-to-router link carried before the first write and
    /// from the resume on: (source router, output port, flits).
    pub link_flits_before: Vec<(usize, usize, u64)>,
    pub link_flits_after: Vec<(usize, usize, u64)>,
}

/// The network did not drain within `reconfigure.drain_limit` cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainTimeout {
    pub quiesce_cycle: u64,
    pub limit: u64,
    /// Flits still in routers, on router outputs and in link registers.
    pub flits_in_network: u64,
    /// Sources with a begun message.
    pub busy_sources: usize,
}

/// The procedure's state during a run.
pub struct Procedure {
    at: u64,
    drain_limit: u64,
    settle: u64,
    writes: Vec<RouteWrite>,
    stage: Stage,
    report: ReconfigReport,
    /// Counters at quiesce and at resume; link counts at the first write
    /// and at the resume.
    at_quiesce: Counters,
    at_resume: Counters,
    links_at_resume: Vec<(usize, usize, u64)>,
}

/// What the engine must do in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleAction {
    /// No source starts a message in this cycle.
    pub quiesced: bool,
    /// This table write happens at the end of this cycle.
    pub write: Option<RouteWrite>,
}

/// What the engine reports to the procedure at the start of a cycle.
pub struct NetworkState {
    pub counters: Counters,
    /// Flits in routers, on router outputs and in link registers.
    pub flits_in_network: u64,
    /// Sources with a begun message.
    pub busy_sources: usize,
    /// The links' flit counts so far.
    pub link_flits: Vec<(usize, usize, u64)>,
}

impl Procedure {
    pub fn new(at: u64, drain_limit: u64, link_latency: u32, writes: Vec<RouteWrite>) -> Procedure {
        Procedure {
            at,
            drain_limit,
            settle: settle_cycles(link_latency),
            writes,
            stage: Stage::Before,
            report: ReconfigReport::default(),
            at_quiesce: Counters::default(),
            at_resume: Counters::default(),
            links_at_resume: Vec::new(),
        }
    }

    /// Whether the stage this cycle needs the network's state (the engine
    /// computes it only then).
    pub fn needs_state(&self, now: u64) -> bool {
        match self.stage {
            Stage::Before => now == self.at,
            Stage::Draining => true,
            Stage::Settling(_) | Stage::Writing(_) | Stage::After => false,
        }
    }

    /// Advances at the start of cycle `now`; `state` is given when
    /// [`Procedure::needs_state`] said so.
    pub fn start_cycle(&mut self, now: u64, state: Option<&NetworkState>) -> Result<CycleAction, DrainTimeout> {
        let r = &mut self.report;
        let mut write = None;
        self.stage = match self.stage {
            Stage::Before if now == self.at => {
                let s = state.expect("state at the quiesce");
                r.quiesce_cycle = now;
                self.at_quiesce = s.counters;
                r.before = s.counters;
                Stage::Draining
            }
            Stage::Draining => {
                let s = state.expect("state while draining");
                if s.flits_in_network == 0 && s.busy_sources == 0 {
                    r.drained_cycle = now;
                    r.drain_cycles = now - r.quiesce_cycle;
                    r.settle_cycles = self.settle;
                    r.link_flits_before = s.link_flits.clone();
                    Stage::Settling(self.settle)
                } else if now - r.quiesce_cycle >= self.drain_limit {
                    return Err(DrainTimeout {
                        quiesce_cycle: r.quiesce_cycle,
                        limit: self.drain_limit,
                        flits_in_network: s.flits_in_network,
                        busy_sources: s.busy_sources,
                    });
                } else {
                    Stage::Draining
                }
            }
            // As the lockstep's sequence: drained in cycle t, the first
            // write in cycle t + settle + 1.
            Stage::Settling(0) => Stage::Writing(0),
            Stage::Settling(k) => Stage::Settling(k - 1),
            s => s,
        };
        if let Stage::Writing(i) = self.stage {
            if i < self.writes.len() {
                write = Some(self.writes[i]);
                if i == 0 {
                    self.report.first_write_cycle = now;
                }
                self.report.last_write_cycle = now;
                self.report.writes += 1;
                self.stage = Stage::Writing(i + 1);
            }
        }
        Ok(CycleAction { quiesced: matches!(self.stage, Stage::Draining | Stage::Settling(_) | Stage::Writing(_)), write })
    }

    /// At the end of cycle `now`: after the last write, the sources resume
    /// in the next cycle.
    pub fn end_cycle(&mut self, now: u64, counters: Counters, link_flits: impl FnOnce() -> Vec<(usize, usize, u64)>) {
        if self.stage == Stage::Writing(self.writes.len()) {
            self.stage = Stage::After;
            let r = &mut self.report;
            r.resume_cycle = now + 1;
            if r.writes == 0 {
                r.first_write_cycle = now;
                r.last_write_cycle = now;
            }
            r.during = counters.minus(self.at_quiesce);
            self.at_resume = counters;
            self.links_at_resume = link_flits();
        }
    }

    /// Whether the procedure has run to its resume.
    pub fn finished(&self) -> bool {
        self.stage == Stage::After
    }

    /// A description of an unfinished procedure's stage.
    pub fn stage_name(&self) -> &'static str {
        match self.stage {
            Stage::Before => "not started",
            Stage::Draining => "draining",
            Stage::Settling(_) => "settling",
            Stage::Writing(_) => "writing the tables",
            Stage::After => "resumed",
        }
    }

    /// The report at the end of the run (counters and link counts then).
    pub fn finish(mut self, counters: Counters, link_flits: &[(usize, usize, u64)]) -> ReconfigReport {
        self.report.after = counters.minus(self.at_resume);
        self.report.link_flits_after = link_flits
            .iter()
            .zip(&self.links_at_resume)
            .map(|(&(r, o, n), &(_, _, m))| (r, o, n - m))
            .collect();
        self.report
    }
}

/// Why the engine cannot run this experiment's `[reconfigure]` section, if
/// so: with `[nic]` endpoints the NIC models start messages on their own
/// (their doorbell queues and VC choice), and quiescing them is not
/// modelled; `cosim` and `generate` take such a section.
pub fn unsupported(v: &crate::Validated) -> Option<String> {
    (v.reconfigure.is_some() && v.exp.nic.is_some()).then(|| {
        format!(
            "{}: field `reconfigure` with a [nic] section: the simulator's engine quiesces only its own sources, not the NIC models: allowed values: no [nic] section with [reconfigure] in sim and sweep",
            v.file
        )
    })
}

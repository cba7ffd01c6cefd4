//! Registered switch allocation in P mode with flit acceleration
//! (docs/microarchitecture.md §6, *Registered switch allocation in P mode*,
//! *Acceleration*; §9.5) in lockstep with the golden model: `p4_registered`
//! with `acceleration = true` (4 ports, 2 VCs, three classes, VirtualClock),
//! single pass and iterative allocator, on several seeds under traffic built
//! to preempt and to fail VA often. Every run must see at least 1,000 `acc`
//! sets and 500 preemptions and resumptions (asserted; about 2,000 and 700
//! per 30,000 cycles), so that the override at SA, the clear at
//! the tail's ST cycle and `acc_ptr` are exercised. Then the planted bugs of
//! acceleration under the registered stage must each be caught.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_testbench::lockstep::LockstepError;

const CYCLES: u64 = 30_000;

fn registered_acc(iterative: bool) -> RouterConfig {
    let mut edits = vec![("acceleration", "true")];
    if iterative {
        edits.extend([("switch_allocator", "\"iterative\""), ("switch_iterations", "2")]);
    }
    let name = if iterative { "p4_registered_acc_it2" } else { "p4_registered_acc" };
    variant("p4_registered", name, &edits)
}

/// One clean run: RTL == model every cycle, every flit and message
/// delivered, and at least some hundreds of acceleration sets and of
/// preemptions (dummy tails), with resumptions.
fn lockstep(cfg: &RouterConfig, seed: u64) {
    let (report, model) = preemptive_lockstep(cfg, seed, CYCLES, None).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", cfg.name()));
    let s = model.stats();
    eprintln!("{} seed {seed}: {report}\n  model: {s:?}", cfg.name());
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(s.accelerations >= 1000, "too few acc sets: {s:?}");
    assert!(s.preemptions >= 500, "too few preemptions: {s:?}");
    assert!(s.dummy_headers >= 500, "too few resumptions: {s:?}");
    let parts = report.parts.clone().expect("part checker in preemptive mode");
    assert!(parts.dummy_tails_out >= s.preemptions, "{parts:?} vs {s:?}");
}

#[test]
fn registered_preemptive_acceleration_single_pass() {
    let cfg = registered_acc(false);
    for seed in [61, 62, 63] {
        lockstep(&cfg, seed);
    }
}

#[test]
fn registered_preemptive_acceleration_iterative() {
    let cfg = registered_acc(true);
    for seed in [64, 65] {
        lockstep(&cfg, seed);
    }
}

/// With per-lane credits as well (§9.4 *Credits*; §6: a granted lane flit's
/// credit carries the SA cycle's lane): both lifted refusals together.
#[test]
fn registered_preemptive_acceleration_per_lane() {
    let cfg = variant("p4_registered", "p4_registered_acc_pl", &[("acceleration", "true"), ("preemption_credits", "\"per_lane\"")]);
    lockstep(&cfg, 66);
}

/// The planted bugs of acceleration under the registered stage (and the
/// acceleration mutant of the single-cycle stage) are each caught by the
/// comparison with the model.
#[test]
fn lockstep_catches_registered_acceleration_mutants() {
    let cfg = registered_acc(false);
    for &mutant in Mutant::registered_acceleration().iter().chain(&[Mutant::PreAccelNeverCleared]) {
        assert!(mutant.applies_to(&cfg), "{}", mutant.name());
        let err = preemptive_lockstep(&cfg, 7, 30_000, Some(mutant)).err().unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>28}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
    }
}

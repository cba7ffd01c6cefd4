//! The QoS router modes (docs/microarchitecture.md §9) in RTL lockstep with
//! the golden model: traditional (TR), non-preemptive (NP) and preemptive (P)
//! routers, P with and without flit acceleration, block sizes 1 and 5, on the
//! 8-port 16-VC MediaWorm switch and on a small router. Preemptive runs use
//! traffic built to preempt often (three classes on shared VCs, long
//! messages, congested outputs, sources that preempt their own messages) and
//! assert that thousands of preemptions, nested ones included, happened. The
//! checkers: RTL == model on every output every cycle; the tag-based part
//! checker (every flit exactly once, parts contiguous and in order, dummy
//! headers carrying their message's fields, reassembly equal to what was
//! sent); the partition check in TR/NP; a full drain after injection stops
//! (no deadlock, and no preempted best-effort message starves once the
//! higher classes go idle). Then the planted QoS bugs must each be caught.

mod common;

use common::*;
use wormqos_config::{RouterConfig, RouterMode};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions, RunReport};
use wormqos_testbench::stimulus::TrafficParams;

fn qos_traffic(cfg: &RouterConfig) -> TrafficParams {
    if cfg.mode() == RouterMode::Preemptive {
        // Mostly best effort, regularly interrupted by real time and control.
        return preemptive_traffic(cfg);
    }
    traffic_for(cfg)
}

fn run(cfg: &RouterConfig, seed: u64, cycles: u64, mutant: Option<Mutant>) -> (Result<RunReport, LockstepError>, Router) {
    let mut dut = rtl(cfg, mutant);
    let mut model = Router::new(cfg);
    let opts = LockstepOptions {
        cycles,
        seed,
        traffic: qos_traffic(cfg),
        drain_limit: 50_000,
        // A mutant's mismatch is expected: no waveform (which would rebuild
        // the model with --trace); a real mismatch gets one.
        waveform_dir: if mutant.is_none() { Some(waveform_dir()) } else { None },
        ..Default::default()
    };
    (run_lockstep(cfg, &mut dut, &mut model, &opts), model)
}

fn lockstep(cfg: RouterConfig, seed: u64, cycles: u64) -> (RunReport, Router) {
    let (res, model) = run(&cfg, seed, cycles, None);
    let report = res.unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}\n  model: {:?}\n  parts: {:?}", cfg.name(), model.stats(), report.parts);
    assert!(report.cycles >= cycles);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
    let classes = &report.stimulus.messages_per_class;
    assert!(classes.iter().all(|&n| n > 0), "a class sent nothing: {classes:?}");
    let s = model.stats();
    if cfg.block_size() > 1 {
        assert!(s.block_holds > 1000, "block size {} never held a VC: {s:?}", cfg.block_size());
    }
    if cfg.mode() == RouterMode::Preemptive {
        let parts = report.parts.clone().expect("part checker in preemptive mode");
        assert!(s.preemptions >= 1000, "too few preemptions: {s:?}");
        assert!(s.nested_preemptions >= 20, "too few nested preemptions: {s:?}");
        assert!(s.dummy_headers >= 1000, "too few resumptions: {s:?}");
        assert!(parts.split_messages >= 1000 && parts.max_parts >= 3, "{parts:?}");
        // Every dummy tail the router made is on its outputs, plus those the sources made.
        assert!(parts.dummy_tails_out >= s.preemptions, "{parts:?} vs {s:?}");
        if cfg.acceleration() {
            assert!(s.accelerations >= 100, "acceleration never triggered: {s:?}");
        }
    }
    (report, model)
}

fn mw8(mode: &str, b: u32) -> RouterConfig {
    variant(&format!("mw8_{mode}"), &format!("mw8_{mode}_b{b}"), &[("block_size", &b.to_string())])
}

/// A small router in every mode: 4 ports, 3 VCs, 40-bit flits, the shallowest buffers.
const CYCLES: u64 = 100_000;

// CI runs every mode on the small router (4 ports, 3 VCs: TR with the full
// crossbar, NP, P, P with acceleration, block sizes 1 and 5, the
// VirtualClock scheduler in NP and P); the four 8-port 16-VC modes differ
// from those only in size and are opt-in soak runs (each is a multi-minute
// Verilator build: docs/benchmarks.md, "Test-suite wall time" and "CI test
// CPU: soaks opt-in (2026-11-29)"). mw8_p's 16-slot scheduler is run against
// the spec's reference at 16 slots by `hdl/tests/vclock_sched.rs`.

#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC QoS router takes minutes; run with `cargo test --release -p wormqos-testbench --test qos -- --include-ignored`"]
fn mw8_traditional_b1() {
    lockstep(mw8("tr", 1), 41, CYCLES);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC QoS router takes minutes; run with `cargo test --release -p wormqos-testbench --test qos -- --include-ignored`"]
fn mw8_non_preemptive_b5() {
    lockstep(mw8("np", 5), 42, CYCLES);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC QoS router takes minutes; run with `cargo test --release -p wormqos-testbench --test qos -- --ignored mw8_preemptive_b5`"]
fn mw8_preemptive_b5() {
    lockstep(mw8("p", 5), 43, CYCLES);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC QoS router takes minutes; run with `cargo test --release -p wormqos-testbench --test qos -- --include-ignored`"]
fn mw8_preemptive_acceleration_b1() {
    lockstep(mw8("pa", 1), 44, CYCLES);
}
#[test]
fn small_traditional_full_crossbar_b5() {
    lockstep(small_with("traditional", false, 5, "full"), 45, CYCLES);
}
#[test]
fn small_non_preemptive_b1() {
    lockstep(small("non_preemptive", false, 1), 46, CYCLES);
}
#[test]
fn small_preemptive_b1() {
    lockstep(small("preemptive", false, 1), 47, CYCLES);
}
// The same configuration as the mutant tests below, so CI verilates it once.
#[test]
fn small_preemptive_acceleration_b5() {
    lockstep(small("preemptive", true, 5), 48, CYCLES);
}

/// Each planted QoS bug is caught on a configuration where it applies.
#[test]
fn lockstep_catches_every_qos_mutant() {
    // WORMQOS_QOS_MUTANT=<name> runs just one (for debugging a mutant).
    let only = std::env::var("WORMQOS_QOS_MUTANT").ok();
    let mut caught = Vec::new();
    for &mutant in Mutant::qos() {
        if only.as_deref().is_some_and(|n| n != mutant.name()) {
            continue;
        }
        // A tail ends the block hold: at point A the next message of that VC
        // needs RC and VA first, so the VC is not ready and the hold ends
        // anyway (an equivalent mutant there); at C the next message's flits
        // may already wait in the output VC buffer, so the full crossbar shows it.
        let cfg = if mutant.name() == "blk-hold-past-tail" || mutant.name() == "part-ignores-class" {
            small_with("traditional", false, 5, "full")
        } else {
            small("preemptive", true, 5)
        };
        assert!(mutant.applies_to(&cfg), "{} applies to neither small config", mutant.name());
        let (res, _) = run(&cfg, 7, 30_000, Some(mutant));
        let err = res.err().unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>26}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
        caught.push(mutant);
    }
    if only.is_none() {
        assert_eq!(caught.len(), Mutant::qos().len());
        assert!(caught.len() >= 6, "{caught:?}");
    }
}

/// The part checker alone (no model) catches a router that forgets the dummy
/// header or corrupts the stack: what reaches the endpoint cannot be
/// reassembled.
#[test]
fn part_checker_catches_preemption_bugs_without_the_model() {
    use wormqos_testbench::lockstep::run_single;
    // The mutant test's configuration: the Verilator builds are shared.
    let cfg = small("preemptive", true, 5);
    let opts = |seed| LockstepOptions { cycles: 30_000, seed, traffic: qos_traffic(&cfg), drain_limit: 20_000, ..Default::default() };
    run_single(&cfg, &mut rtl(&cfg, None), &opts(3)).unwrap_or_else(|e| panic!("{e}"));
    for name in ["pre-no-dummy-header", "pre-no-dummy-tail"] {
        let mutant = Mutant::qos().iter().copied().find(|m| m.name() == name).unwrap_or_else(|| panic!("no mutant {name}"));
        let err = run_single(&cfg, &mut rtl(&cfg, Some(mutant)), &opts(3)).err().unwrap_or_else(|| panic!("{name} escaped the part checker"));
        assert!(matches!(err, LockstepError::Conservation { .. } | LockstepError::Drain { .. }), "{name}: {err}");
        eprintln!("{name}: {err}");
    }
}

/// Registered switch allocation in P mode (docs/microarchitecture.md §6,
/// *Registered switch allocation in P mode*): `p4_registered` (4 ports, 2
/// VCs, three classes, no acceleration) in lockstep with the model on three
/// seeds, each run with at least 1,000 preemptions, 20 nested ones and
/// 1,000 dummy headers, every dummy tail on the outputs (`lockstep` above).
#[test]
fn small_preemptive_registered() {
    for seed in [49, 50, 51] {
        lockstep(example("p4_registered"), seed, CYCLES);
    }
}

/// Each planted bug of the registered stage in P mode is caught by the
/// comparison with the model on `p4_registered`, and so is
/// `sa-grants-behind-tail`, which the P input VC plants too (SA offers the
/// lane flit behind a crossing tail or dummy tail).
#[test]
fn lockstep_catches_every_registered_preemptive_mutant() {
    let cfg = example("p4_registered");
    for &mutant in Mutant::registered_preemptive().iter().chain(&[Mutant::SaGrantsBehindTail]) {
        assert!(mutant.applies_to(&cfg), "{}", mutant.name());
        let (res, _) = run(&cfg, 7, 30_000, Some(mutant));
        let err = res.err().unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>28}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
    }
}

//! The iterative switch allocator (docs/microarchitecture.md §6, *Switch
//! allocation*) in RTL lockstep with the golden model, in every mode of the
//! multiplexed crossbar: unpartitioned round robin, TR with blocks, NP, P
//! with and without acceleration, VirtualClock with 8-bit counters (so the
//! ports rebase independently and point B's relative stamps differ from the
//! absolute ones), k = 1..4 rounds. Then the planted allocator bugs must each
//! be caught by the comparison.

mod common;

use common::*;
use wormqos_config::{RouterConfig, SwitchAllocator};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions};
use wormqos_testbench::stimulus::TrafficParams;

const CYCLES: u64 = 100_000;

fn iterative(k: u32) -> [(&'static str, String); 2] {
    [("switch_allocator", "\"iterative\"".into()), ("switch_iterations", k.to_string())]
}

/// `base` (an example) with the iterative allocator, k rounds, and `edits`.
fn example_iterative(base: &str, name: &str, k: u32, edits: &[(&str, &str)]) -> RouterConfig {
    let it = iterative(k);
    let mut all: Vec<(&str, &str)> = it.iter().map(|(a, b)| (*a, b.as_str())).collect();
    all.extend_from_slice(edits);
    let cfg = variant(base, name, &all);
    assert_eq!(cfg.scheduling().point.switch_allocator(), Some(SwitchAllocator::Iterative { iterations: k }));
    cfg
}

/// 4 ports, 3 VCs, VirtualClock with 8-bit counters (rebasing every few
/// hundred cycles, at different times on different ports).
fn vc8(k: u32) -> RouterConfig {
    let edits = [("scheduler", "\"virtualclock\""), ("ports", "4"), ("vcs", "3"), ("vtick_width", "8"), ("clock_width", "8")];
    example_iterative("tiny2", &format!("small4_vc8_it{k}"), k, &edits)
}

fn opts(cfg: &RouterConfig, seed: u64, cycles: u64, traced: bool) -> LockstepOptions {
    let mut traffic = traffic_for(cfg);
    if cfg.mode() == wormqos_config::RouterMode::Preemptive {
        // as tests/qos.rs: mostly best effort, interrupted by real time and control
        traffic = TrafficParams { class_weights: vec![6, 3, 1], max_message_flits: 12, source_preempt_prob: 0.05, hotspot: Some((0, 0.3)), ..traffic };
    }
    LockstepOptions { cycles, seed, traffic, drain_limit: 50_000, waveform_dir: if traced { Some(waveform_dir()) } else { None }, ..Default::default() }
}

fn lockstep(cfg: RouterConfig, seed: u64) {
    let report = run_lockstep(&cfg, &mut rtl(&cfg, None), &mut Router::new(&cfg), &opts(&cfg, seed, CYCLES, true))
        .unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}", cfg.name());
    assert!(report.cycles >= CYCLES);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "an output port saw no traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
}

#[test]
fn it_mesh5_round_robin_k3() {
    lockstep(example_iterative("mesh5", "mesh5_it3", 3, &[]), 61);
}
#[test]
fn it_mesh5_round_robin_k1() {
    lockstep(example_iterative("mesh5", "mesh5_it1", 1, &[]), 62);
}
#[test]
fn it_small_traditional_b5_k2() {
    lockstep(small_iterative("traditional", false, 5, 2), 63);
}
#[test]
fn it_small_non_preemptive_k3() {
    lockstep(small_iterative("non_preemptive", false, 1, 3), 64);
}
#[test]
fn it_small_preemptive_k2() {
    lockstep(small_iterative("preemptive", false, 1, 2), 65);
}
#[test]
fn it_small_preemptive_acceleration_b5_k3() {
    lockstep(small_iterative("preemptive", true, 5, 3), 66);
}
#[test]
fn it_vc8_unpartitioned_k3() {
    lockstep(vc8(3), 67);
}
#[test]
fn it_vc8_unpartitioned_k4() {
    lockstep(vc8(4), 68);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC router takes minutes; run with `cargo test --release -p wormqos-testbench --test switch_allocation -- --include-ignored`"]
fn it_mw8_iterative_example() {
    lockstep(example("mw8_iterative"), 69);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC router takes minutes; run with `cargo test --release -p wormqos-testbench --test switch_allocation -- --include-ignored`"]
fn it_mw8_np_iterative_example() {
    lockstep(example("mw8_np_iterative"), 70);
}

/// Each planted allocator bug is caught by the comparison with the model:
/// the VirtualClock one on the 8-bit-counter router with a hot output, the
/// others on mesh5 with 3 rounds (round robin, every port busy).
#[test]
fn lockstep_catches_every_allocator_mutant() {
    // WORMQOS_SA_MUTANT=<name> runs just one (for debugging a mutant).
    let only = std::env::var("WORMQOS_SA_MUTANT").ok();
    let rr = example_iterative("mesh5", "mesh5_it3", 3, &[]);
    let vc = vc8(3);
    // The hot-output traffic of sa-rel-unsigned below, without the mutant:
    // the RTL agrees, so a mismatch there is the mutant's.
    let hot = |cfg: &RouterConfig| {
        let mut o = LockstepOptions { stop_on_rtl_check: false, ..opts(cfg, 7, 100_000, false) };
        o.traffic.hotspot = Some((0, 0.5));
        o.traffic.injection_rate = 0.9;
        o
    };
    run_lockstep(&vc, &mut rtl(&vc, None), &mut Router::new(&vc), &hot(&vc)).unwrap_or_else(|e| panic!("{}: {e}", vc.name()));
    let mut caught = Vec::new();
    for &mutant in Mutant::allocator() {
        if only.as_deref().is_some_and(|n| n != mutant.name()) {
            continue;
        }
        let cfg = if mutant == Mutant::SaRelUnsigned { &vc } else { &rr };
        assert!(mutant.applies_to(cfg), "{} does not apply to {}", mutant.name(), cfg.name());
        // The RTL's own checks stop sa-ignores-mo first (two
        // inputs matched to one output): here the comparison must catch it.
        // sa-rel-unsigned: a hot output, where flits wait until their stamps
        // fall below `now` (negative rel) while newer flits of other ports compete.
        let o = if mutant == Mutant::SaRelUnsigned { hot(cfg) } else { LockstepOptions { stop_on_rtl_check: false, ..opts(cfg, 7, 100_000, false) } };
        let res = run_lockstep(cfg, &mut rtl(cfg, Some(mutant)), &mut Router::new(cfg), &o);
        let err = res.err().unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>28}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
        caught.push(mutant);
    }
    if only.is_none() {
        assert_eq!(caught.len(), Mutant::allocator().len());
        assert!(caught.len() >= 3, "{caught:?}");
    }
}

//! Atomic output-VC reallocation (docs/microarchitecture.md §6 stage 3,
//! *Output-VC reallocation*, `router.vc_reallocation = "atomic"`): the RTL
//! in lockstep with the golden model on four atomic routers (50,000 cycles
//! of random traffic with backpressure each), and the planted bug of the
//! release rule caught by the comparison.

mod common;

use common::*;
use wormqos_config::{RouterConfig, VcReallocation};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions};

const CYCLES: u64 = 50_000;
const ATOMIC: (&str, &str) = ("vc_reallocation", "\"atomic\"");

/// mesh5 (5 ports, 4 VCs of 8 flits, multiplexed crossbar); tiny2 with 2
/// VCs (2 ports, DI = 4, the credit round trip, DO = 2); a 3-port, 3-VC
/// full-crossbar router with DI = DO = 4 like a node of
/// experiments/torus_002.toml; tr5_registered (the registered switch
/// stage, a traditional-mode VC partition, DO = 3).
fn configs() -> Vec<(RouterConfig, u64)> {
    let cfgs = vec![
        (variant("mesh5", "mesh5_atomic", &[ATOMIC]), 41),
        (variant("tiny2", "tiny2_atomic", &[("vcs", "2"), ATOMIC]), 42),
        (
            variant(
                "mesh5",
                "torus3_atomic",
                &[("ports", "3"), ("vcs", "3"), ("input_buffer_depth", "4"), ("output_buffer_depth", "4"), ("crossbar", "\"full\""), ATOMIC],
            ),
            43,
        ),
        (variant("tr5_registered", "tr5_registered_atomic", &[ATOMIC]), 44),
    ];
    for (c, _) in &cfgs {
        assert_eq!(c.vc_reallocation(), VcReallocation::Atomic, "{}", c.name());
    }
    cfgs
}

fn opts(cfg: &RouterConfig, seed: u64) -> LockstepOptions {
    LockstepOptions { cycles: CYCLES, seed, traffic: traffic_for(cfg), drain_limit: 20_000, waveform_dir: Some(waveform_dir()), ..Default::default() }
}

fn lockstep(k: usize) {
    let (cfg, seed) = configs().swap_remove(k);
    let name = cfg.name().to_string();
    let report =
        run_lockstep(&cfg, &mut rtl(&cfg, None), &mut Router::new(&cfg), &opts(&cfg, seed)).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {report}");
    assert!(report.cycles >= CYCLES);
    assert_eq!(report.flits_delivered, report.flits_injected, "{name}");
    assert_eq!(report.messages_delivered, report.messages_injected, "{name}");
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "{name}: an output port saw no traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "{name}: no backpressure: {report}");
    assert!(report.stimulus.sink_full_cycles + report.stimulus.stall_burst_cycles > 0, "{name}: no output backpressure: {report}");
}

#[test]
fn lockstep_mesh5_atomic() {
    lockstep(0);
}
#[test]
fn lockstep_tiny2_two_vcs_atomic() {
    lockstep(1);
}
#[test]
fn lockstep_torus3_full_crossbar_atomic() {
    lockstep(2);
}
#[test]
fn lockstep_tr5_registered_atomic() {
    lockstep(3);
}

/// The planted bug of the release rule (a draining VC released once its
/// buffer is empty, credits still out) is caught by the comparison with the
/// model (the RTL's checks off, so that the comparison must see it).
#[test]
fn lockstep_catches_the_reallocation_mutant() {
    for (cfg, seed) in configs().into_iter().take(2) {
        for &mutant in Mutant::reallocation() {
            assert!(mutant.applies_to(&cfg), "{}", mutant.name());
            let o = LockstepOptions { stop_on_rtl_check: false, waveform_dir: None, ..opts(&cfg, seed) };
            let err = run_lockstep(&cfg, &mut rtl(&cfg, Some(mutant)), &mut Router::new(&cfg), &o)
                .err()
                .unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
            let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
            eprintln!("{:>24}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
        }
    }
}

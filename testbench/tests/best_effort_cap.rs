//! The best-effort cap of the preemptive router (docs/microarchitecture.md
//! §9.4 stage 3, `router.best_effort_output_vcs`): the RTL in lockstep with
//! the golden model on two capped routers (50,000 cycles of best-effort-heavy
//! preemptive traffic each, the part checker on, a full drain), and the
//! planted bug that ignores the cap caught by the comparison.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions, RunReport};
use wormqos_testbench::stimulus::TrafficParams;

const CYCLES: u64 = 50_000;

/// small_p (4 ports, DI = 4, DO = 2, acceleration) with 3 VCs and best
/// effort capped at 1 of them; the same with the full crossbar, no
/// acceleration and a cap of 2.
fn configs() -> Vec<(RouterConfig, u64)> {
    let cfgs = vec![
        (variant("small_p", "small_p_cap1", &[("vcs", "3"), ("best_effort_output_vcs", "1")]), 61),
        (
            variant(
                "small_p",
                "small_pf_cap2",
                &[("vcs", "3"), ("crossbar", "\"full\""), ("acceleration", "false"), ("best_effort_output_vcs", "2")],
            ),
            62,
        ),
    ];
    for (c, k) in cfgs.iter().zip([1, 2]) {
        assert_eq!(c.0.best_effort_output_vcs(), Some(k), "{}", c.0.name());
    }
    cfgs
}

/// Mostly best effort (so that it would take every output VC of the hot
/// port), regularly interrupted by real time and control, sources that
/// preempt their own messages (as tests/qos.rs).
fn traffic(cfg: &RouterConfig) -> TrafficParams {
    preemptive_traffic(cfg)
}

fn opts(cfg: &RouterConfig, seed: u64, cycles: u64) -> LockstepOptions {
    LockstepOptions { cycles, seed, traffic: traffic(cfg), drain_limit: 50_000, waveform_dir: Some(waveform_dir()), ..Default::default() }
}

fn lockstep(k: usize) -> RunReport {
    let (cfg, seed) = configs().swap_remove(k);
    cap_lockstep(&cfg, seed, CYCLES, traffic(&cfg)).0
}

#[test]
fn lockstep_small_p_cap1() {
    lockstep(0);
}
#[test]
fn lockstep_small_p_full_crossbar_cap2() {
    lockstep(1);
}

/// VA that ignores the cap (best effort may take every output VC) is
/// caught by the comparison with the model.
#[test]
fn lockstep_catches_the_cap_mutant() {
    let (cfg, seed) = configs().swap_remove(0);
    for &mutant in Mutant::best_effort_cap() {
        assert!(mutant.applies_to(&cfg), "{}", mutant.name());
        let o = LockstepOptions { waveform_dir: None, ..opts(&cfg, seed, 30_000) };
        let err = run_lockstep(&cfg, &mut rtl(&cfg, Some(mutant)), &mut Router::new(&cfg), &o)
            .err()
            .unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>16}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
    }
}

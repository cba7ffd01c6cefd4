//! The real-time cap of the preemptive router (docs/microarchitecture.md
//! §9.4 stage 3, *Real-time cap*, `router.realtime_output_vcs`): the RTL in
//! lockstep with the golden model on two capped routers (50,000 cycles of
//! real-time-heavy preemptive traffic each, the part checker on, a full
//! drain), with the cap shown to bind (the model's count of port-cycles where
//! it refused a real-time header that had a free output VC), and the planted
//! off-by-one cap caught by the comparison.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions, RunReport};
use wormqos_testbench::stimulus::TrafficParams;

const CYCLES: u64 = 50_000;

/// small_p (4 ports, DI = 4, DO = 2, acceleration) with 3 VCs and real time
/// capped at 1 of them; the same with the full crossbar, no acceleration,
/// real time capped at 2 of 4 VCs and best effort at 1 (both caps).
fn configs() -> Vec<(RouterConfig, u64)> {
    let cfgs = vec![
        (variant("small_p", "small_p_rt1", &[("vcs", "3"), ("realtime_output_vcs", "1")]), 71),
        (
            variant(
                "small_p",
                "small_pf_rt2_be1",
                &[
                    ("vcs", "4"),
                    ("crossbar", "\"full\""),
                    ("acceleration", "false"),
                    ("realtime_output_vcs", "2"),
                    ("best_effort_output_vcs", "1"),
                ],
            ),
            72,
        ),
    ];
    for (c, r) in cfgs.iter().zip([1, 2]) {
        assert_eq!(c.0.realtime_output_vcs(), Some(r), "{}", c.0.name());
    }
    cfgs
}

/// Mostly real time (so that it would take every output VC of the hot
/// port), with best effort and control between, sources that preempt their
/// own messages.
fn traffic(cfg: &RouterConfig) -> TrafficParams {
    let mut t = preemptive_traffic(cfg);
    t.class_weights = vec![2, 6, 1];
    t
}

fn opts(cfg: &RouterConfig, seed: u64, cycles: u64) -> LockstepOptions {
    LockstepOptions { cycles, seed, traffic: traffic(cfg), drain_limit: 50_000, waveform_dir: Some(waveform_dir()), ..Default::default() }
}

fn lockstep(k: usize) -> RunReport {
    let (cfg, seed) = configs().swap_remove(k);
    let (report, model) = cap_lockstep(&cfg, seed, CYCLES, traffic(&cfg));
    let refusals = model.realtime_cap_refusals();
    eprintln!("  real-time cap refusals (port-cycles): {refusals}");
    // the cap binds: in at least 1 % of the cycles some port refused a
    // real-time header a free output VC
    assert!(refusals >= CYCLES / 100, "{}: the cap refused only {refusals} times", cfg.name());
    report
}

#[test]
fn lockstep_small_p_rt1() {
    lockstep(0);
}
#[test]
fn lockstep_small_p_full_crossbar_rt2_be1() {
    lockstep(1);
}

/// VA whose real-time cap is R + 1 is caught by the comparison with the
/// model on both routers.
#[test]
fn lockstep_catches_the_cap_mutant() {
    for (cfg, seed) in configs() {
        for &mutant in Mutant::realtime_cap() {
            assert!(mutant.applies_to(&cfg), "{}", mutant.name());
            let o = LockstepOptions { waveform_dir: None, ..opts(&cfg, seed, 30_000) };
            let err = run_lockstep(&cfg, &mut rtl(&cfg, Some(mutant)), &mut Router::new(&cfg), &o)
                .err()
                .unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
            let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
            eprintln!("{:>18}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
        }
    }
}

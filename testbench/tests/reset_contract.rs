//! docs/integration.md's reset contract: one rising edge with `rst_i` high
//! returns a router to its power-on behaviour from *any* state, not only
//! from power-on. Each test fills the RTL with credit-respecting traffic
//! (flits in every buffer, VCs allocated, credits spent, pointers and stamps
//! moved), stops in the middle of that, then hands it to the lockstep
//! runner, whose single-cycle reset must make it equal, output for output,
//! to a freshly built golden model for the whole following run.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_sim::{Router, RouterOutputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};
use wormqos_testbench::stimulus::Stimulus;

/// Cycles of traffic before the mid-run reset.
const DIRTY_CYCLES: u64 = 3_000;

fn reset_from_busy(cfg: RouterConfig, seed: u64) {
    let mut rtl = rtl(&cfg, None);
    rtl.reset();
    let mut traffic = traffic_for(&cfg);
    traffic.injection_rate = 0.9;
    let mut stim = Stimulus::new(&cfg, seed, traffic.clone());
    for _ in 0..DIRTY_CYCLES {
        let outs: RouterOutputs = rtl.outputs().clone();
        let inputs = stim.next_inputs(&outs).unwrap_or_else(|e| panic!("{}: {e}", cfg.name())).clone();
        rtl.step(&inputs);
    }
    // The router must really be busy when the reset comes, or the test
    // shows nothing: flits in flight (dummy flits of preemption, §9.4, are
    // made inside the router and not counted).
    let received = stim.stats().flits_received - stim.stats().dummy_flits_received;
    let injected = stim.stats().flits_injected;
    assert!(injected > received + cfg.ports() as u64, "{}: router not busy at the reset ({injected} in, {received} out)", cfg.name());

    let mut model = Router::new(&cfg);
    let opts = LockstepOptions { cycles: 5_000, seed: seed + 1, traffic, waveform_dir: Some(waveform_dir()), ..Default::default() };
    let report = run_lockstep(&cfg, &mut rtl, &mut model, &opts).unwrap_or_else(|e| panic!("{}: after a one-cycle reset from a busy state: {e}", cfg.name()));
    assert_eq!(report.messages_delivered, report.messages_injected, "{}: {report}", cfg.name());
    assert!(report.flits_injected > 1_000, "{}: too little traffic after the reset: {report}", cfg.name());
}

#[test]
fn one_cycle_reset_from_busy_multiplexed_round_robin() {
    reset_from_busy(example("mesh5"), 31);
}

#[test]
fn one_cycle_reset_from_busy_full_crossbar_fifo() {
    reset_from_busy(variant("mesh5", "mesh5_full_fifo", &[("crossbar", "\"full\""), ("scheduler", "\"fifo\"")]), 32);
}

#[test]
fn one_cycle_reset_from_busy_preemptive_virtualclock() {
    // the configuration of qos.rs's mutant tests, so CI verilates it once
    reset_from_busy(small("preemptive", true, 5), 33);
}

//! RTL == golden model on every output, every cycle, for at least 100,000
//! cycles of random traffic with backpressure, on configurations covering the
//! corners: 2 ports / 1 VC / the narrowest flit / the smallest buffers, the
//! 5-port default, MediaWorm 8x8x16, the 16-port router, 72- and 128-bit
//! flits, both crossbar kinds and both schedulers. Every run also checks flit
//! conservation and drains completely. The 16-port router and the 128-bit
//! 8-port 16-VC qos8 are opt-in (their crossbar, scheduler and 3-class
//! partition run by default on smaller routers, see each test):
//! `cargo test --release -p wormqos-testbench --test lockstep -- --ignored`.

mod common;

use common::*;
use wormqos_config::{Crossbar, RouterConfig, Scheduler};
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};

const CYCLES: u64 = 100_000;

fn lockstep(cfg: RouterConfig, seed: u64, injection_rate: f64) {
    let mut rtl = rtl(&cfg, None);
    let mut model = Router::new(&cfg);
    let mut opts =
        LockstepOptions { cycles: CYCLES, seed, traffic: traffic_for(&cfg), waveform_dir: Some(waveform_dir()), ..Default::default() };
    opts.traffic.injection_rate = injection_rate;
    let report = run_lockstep(&cfg, &mut rtl, &mut model, &opts).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}", cfg.name());
    assert!(report.cycles >= CYCLES);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    // The run must have exercised the router: traffic on every output port and real backpressure.
    assert!(report.flits_injected as f64 > 0.1 * CYCLES as f64, "too little traffic: {report}");
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "an output port saw no traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "sources never ran out of credits: {report}");
    assert!(report.stimulus.sink_full_cycles + report.stimulus.stall_burst_cycles > 0, "no output backpressure: {report}");
}

#[test]
fn tiny2_smallest_router_multiplexed_round_robin() {
    let cfg = example("tiny2");
    assert_eq!((cfg.ports(), cfg.vcs(), cfg.flit_width()), (2, 1, cfg.header().width()));
    lockstep(cfg, 11, 0.8);
}

#[test]
fn tiny2_smallest_router_full_crossbar_round_robin() {
    let cfg = variant("tiny2", "tiny2_full", &[("crossbar", "\"full\"")]);
    assert_eq!(cfg.crossbar(), Crossbar::Full);
    lockstep(cfg, 12, 0.8);
}

#[test]
fn mesh5_default_multiplexed_round_robin() {
    lockstep(example("mesh5"), 13, 0.6);
}

#[test]
fn mesh5_full_crossbar_fifo() {
    let cfg = variant("mesh5", "mesh5_full_fifo", &[("crossbar", "\"full\""), ("scheduler", "\"fifo\"")]);
    assert_eq!((cfg.crossbar(), cfg.scheduler()), (Crossbar::Full, Scheduler::Fifo));
    lockstep(cfg, 14, 0.7);
}

#[test]
fn mediaworm8_multiplexed_fifo() {
    let cfg = example("mediaworm8");
    assert_eq!((cfg.ports(), cfg.vcs(), cfg.scheduler()), (8, 16, Scheduler::Fifo));
    lockstep(cfg, 15, 0.6);
}

/// Opt-in since 2026-11-29 (docs/benchmarks.md, "CI test CPU: soaks opt-in
/// (2026-11-29)"): it differs only in size from what runs by default, the
/// full crossbar with the FIFO scheduler (`mesh5_full_crossbar_fifo`,
/// `wide72_full_crossbar_fifo_permuted_routes`) and with 3 traffic classes
/// (`qos`'s `small_traditional_full_crossbar_b5`).
#[test]
#[ignore = "soak: a 16-port Verilator build; run with `cargo test --release -p wormqos-testbench --test lockstep -- --ignored paper000_16port`"]
fn paper000_16port_full_crossbar_fifo() {
    let cfg = example("paper000_16port");
    assert_eq!((cfg.ports(), cfg.vcs(), cfg.crossbar()), (16, 3, Crossbar::Full));
    lockstep(cfg, 16, 0.5);
}

#[test]
fn wide72_full_crossbar_fifo_permuted_routes() {
    let cfg = example("wide72");
    assert_eq!(cfg.flit_width(), 72);
    lockstep(cfg, 17, 0.7);
}

/// Opt-in since 2026-11-29 (docs/benchmarks.md, "CI test CPU: soaks opt-in
/// (2026-11-29)"): it differs only in size from what runs by default, the
/// multiplexed crossbar with round robin (`mesh5_default_multiplexed_round_robin`,
/// `tiny2_smallest_router_multiplexed_round_robin`), the 8-port 16-VC
/// multiplexed switch (`mediaworm8_multiplexed_fifo`), flits wider than 64
/// bits (`wide72_full_crossbar_fifo_permuted_routes`) and 3 traffic classes
/// (`qos`'s `small_traditional_full_crossbar_b5`).
#[test]
#[ignore = "soak: an 8-port 16-VC 128-bit Verilator build; run with `cargo test --release -p wormqos-testbench --test lockstep -- --ignored qos8_128bit`"]
fn qos8_128bit_multiplexed_round_robin() {
    let cfg = example("qos8");
    assert_eq!(cfg.flit_width(), 128);
    lockstep(cfg, 18, 0.6);
}

#[test]
#[ignore = "soak: cargo test --release --test lockstep -- --ignored (10^6 cycles per configuration)"]
fn soak_million_cycles() {
    for name in ["mesh5", "mediaworm8", "wide72", "tiny2"] {
        let cfg = example(name);
        let mut rtl = rtl(&cfg, None);
        let opts = LockstepOptions { cycles: 1_000_000, seed: 99, waveform_dir: Some(waveform_dir()), ..Default::default() };
        let report = run_lockstep(&cfg, &mut rtl, &mut Router::new(&cfg), &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.flits_delivered, report.flits_injected);
    }
}

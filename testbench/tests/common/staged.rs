//! What the tests of the registered and the split switch stages
//! (`registered.rs`, `split.rs`; docs/microarchitecture.md §6) share: the
//! zero-load and streaming departures against a stage's own expected
//! cycles, and a clean lockstep run with its traffic and backpressure
//! checks, and a mutant's first mismatch.

use super::{example, rtl, send_message, traffic_for, waveform_dir};
use wormqos_config::{RouterConfig, SwitchStage};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{run_lockstep, run_single, LockstepError, LockstepOptions, Mismatch};

/// The example `name`, which must have switch stage `stage`.
pub fn staged_example(name: &str, stage: SwitchStage) -> RouterConfig {
    let cfg = example(name);
    assert_eq!(cfg.scheduling().point.switch_stage(), stage, "{name}");
    cfg
}

/// The RTL alone for `cycles` cycles of random traffic: every flit
/// delivered once, in order, to the routed port, the router drains, no RTL
/// check fails, with enough traffic and backpressure at the sources.
pub fn rtl_alone_clean(cfg: &RouterConfig, seed: u64, cycles: u64) {
    let name = cfg.name();
    let report = run_single(cfg, &mut rtl(cfg, None), &opts(cfg, seed, cycles)).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {report}");
    assert_eq!(report.flits_delivered, report.flits_injected, "{name}");
    assert!(report.flits_injected as f64 > 0.1 * cycles as f64, "{name}: too little traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "{name}: no backpressure: {report}");
}

/// Random traffic with backpressure for `cycles` cycles, waveforms on a mismatch.
pub fn opts(cfg: &RouterConfig, seed: u64, cycles: u64) -> LockstepOptions {
    LockstepOptions { cycles, seed, traffic: traffic_for(cfg), drain_limit: 20_000, waveform_dir: Some(waveform_dir()), ..Default::default() }
}

/// Single messages of 1, 2, 5 and 16 flits from input port 0, then a
/// 200-flit stream from the last port on the last VC: flit k of each leaves
/// in cycle `expected(cfg, k)` (the sender spends each credit in the cycle
/// after it sees it, see [`send_message`]).
pub fn check_latency_and_streaming(dut: &mut dyn Dut, cfg: &RouterConfig, expected: fn(&RouterConfig, u64) -> u64) {
    for len in [1usize, 2, 5, 16] {
        let arrivals = send_message(dut, cfg, 0, 0, 1, len);
        let want = (0..len as u64).map(|k| expected(cfg, k)).collect::<Vec<_>>();
        assert_eq!(arrivals, want, "{}: DO = {}: zero-load departures of a {len}-flit message", cfg.name(), cfg.output_buffer_depth());
    }
    let src = cfg.ports() - 1;
    let arrivals = send_message(dut, cfg, src, (cfg.vcs() - 1) as u8, 0, 200);
    let want = (0..200).map(|k| expected(cfg, k)).collect::<Vec<_>>();
    assert_eq!(arrivals, want, "{}: DO = {}: a 200-flit stream", cfg.name(), cfg.output_buffer_depth());
}

/// The RTL in lockstep with the model: no mismatch, every flit and message
/// delivered, traffic on every output port, backpressure at the sources and
/// at the sinks.
pub fn lockstep_clean(cfg: &RouterConfig, seed: u64, cycles: u64) {
    let name = cfg.name();
    let report = run_lockstep(cfg, &mut rtl(cfg, None), &mut Router::new(cfg), &opts(cfg, seed, cycles)).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {report}");
    assert!(report.cycles >= cycles);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "an output port saw no traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
    assert!(report.stimulus.sink_full_cycles + report.stimulus.stall_burst_cycles > 0, "no output backpressure: {report}");
}

/// The first mismatch of `mutant`'s RTL against the model (the RTL's own
/// checks off, so that the comparison must see it); panics if it escapes.
pub fn mutant_mismatch(cfg: &RouterConfig, mutant: Mutant, seed: u64, cycles: u64) -> Box<Mismatch> {
    let o = LockstepOptions { stop_on_rtl_check: false, waveform_dir: None, ..opts(cfg, seed, cycles) };
    let err = run_lockstep(cfg, &mut rtl(cfg, Some(mutant)), &mut Router::new(cfg), &o)
        .err()
        .unwrap_or_else(|| panic!("mutant {} escaped on {}", mutant.name(), cfg.name()));
    match err {
        LockstepError::Mismatch(m) => m,
        other => panic!("mutant {}: expected a mismatch, got {other}", mutant.name()),
    }
}

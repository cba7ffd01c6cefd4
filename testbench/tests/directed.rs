//! Directed cycle-count tests from docs/microarchitecture.md §7, run on both
//! the golden model and the verilated RTL. Expected values are the spec's
//! formulas (P - 1 + M with P = 5; one flit per cycle), not model outputs.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::dut::Dut;

const PIPELINE_STAGES: u64 = 5;

fn check_latency_and_throughput(dut: &mut dyn Dut, cfg: &RouterConfig) {
    for &m in &[1usize, 2, 5, 16] {
        let arrivals = send_message(dut, cfg, 0, 0, 1, m);
        // header on the input in cycle 0, tail on the output in cycle P-1+M
        assert_eq!(*arrivals.last().unwrap(), PIPELINE_STAGES - 1 + m as u64, "zero-load latency of a {m}-flit message");
    }
    // A long message from the last port: the output carries one flit per cycle.
    let src = cfg.ports() - 1;
    let arrivals = send_message(dut, cfg, src, (cfg.vcs() - 1) as u8, 0, 200);
    for w in arrivals.windows(2) {
        assert_eq!(w[1], w[0] + 1, "uncontended output idles between flits: {arrivals:?}");
    }
}

fn configs() -> Vec<RouterConfig> {
    vec![
        example("mesh5"),
        example("tiny2"),
        example("wide72"),
        variant("mesh5", "mesh5_full_fifo", &[("crossbar", "\"full\""), ("scheduler", "\"fifo\"")]),
    ]
}

#[test]
fn model_latency_is_p_minus_1_plus_m_and_throughput_is_one_flit_per_cycle() {
    for cfg in configs() {
        check_latency_and_throughput(&mut Router::new(&cfg), &cfg);
    }
}

#[test]
fn rtl_latency_is_p_minus_1_plus_m_and_throughput_is_one_flit_per_cycle() {
    for cfg in configs() {
        check_latency_and_throughput(&mut rtl(&cfg, None), &cfg);
    }
}

/// The directed check has teeth: a router that skips the routing stage is one cycle early.
#[test]
fn latency_check_catches_a_skipped_stage() {
    let cfg = example("mesh5");
    let mut dut = rtl(&cfg, Some(Mutant::SkipRcStage));
    let arrivals = send_message(&mut dut, &cfg, 0, 0, 1, 4);
    assert_eq!(*arrivals.last().unwrap(), PIPELINE_STAGES - 2 + 4);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_latency_and_throughput(&mut dut, &cfg)));
    assert!(caught.is_err(), "the latency check must reject the SkipRcStage mutant");
}

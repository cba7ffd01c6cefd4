//! Directed cycle-count tests from docs/microarchitecture.md §7, run on both
//! the golden model and the verilated RTL. Expected values are the spec's
//! formulas (P - 1 + M with P = 5; one flit per cycle), not model outputs.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::{LinkFlit, RouterInputs, Router};
use wormqos_testbench::dut::Dut;

const PIPELINE_STAGES: u64 = 5;

fn header(cfg: &RouterConfig, dest: u64) -> [u64; 4] {
    let mut data = [0u64; 4];
    cfg.header().dest.insert(&mut data, dest);
    data
}

/// Sends one `len`-flit message from input port `src` (VC `vc`) to `dest`
/// starting in cycle 0, with every output credit returned as soon as the flit
/// arrives. Returns, per flit, the cycle it appeared on the output link, and
/// checks it appeared on the routed port with its data intact.
fn send_message(dut: &mut dyn Dut, cfg: &RouterConfig, src: usize, vc: u8, dest: u64, len: usize) -> Vec<u64> {
    let out_port = cfg.route(dest);
    dut.reset();
    let mut inputs = RouterInputs::idle(cfg);
    let mut credits = cfg.input_buffer_depth();
    let mut sent = 0usize;
    let mut arrivals = Vec::new();
    for cycle in 0..(len as u64 * 4 + 100) {
        inputs.clear();
        let outs = dut.outputs().clone();
        credits += (outs.credits[src] >> vc & 1) as usize;
        for (o, f) in outs.flits.iter().enumerate() {
            if f.valid {
                assert_eq!(o, out_port, "flit left on port {o}, route says {out_port}");
                let k = arrivals.len();
                assert_eq!(f.head, k == 0, "head bit of flit {k}");
                assert_eq!(f.tail, k == len - 1, "tail bit of flit {k}");
                let expect = if k == 0 { header(cfg, dest)[0] } else { 0xA000 + k as u64 };
                assert_eq!(f.data[0] & 0xffff, expect & 0xffff, "data of flit {k}");
                arrivals.push(cycle);
                inputs.credits[o] |= 1 << f.vc;
            }
        }
        if sent < len && credits > 0 {
            let data = if sent == 0 { header(cfg, dest) } else { [0xA000 + sent as u64, 0, 0, 0] };
            inputs.flits[src] = LinkFlit { valid: true, dummy: false, vc, head: sent == 0, tail: sent == len - 1, data };
            sent += 1;
            credits -= 1;
        }
        dut.step(&inputs);
    }
    assert_eq!(arrivals.len(), len, "all flits delivered");
    arrivals
}

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

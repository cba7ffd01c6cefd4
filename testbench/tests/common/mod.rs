//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::{LinkFlit, RouterInputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::verilator::VerilatedRouter;

pub mod cocotb;
pub mod staged;

pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn example(name: &str) -> RouterConfig {
    let path = workspace().join("examples").join(format!("{name}.toml"));
    RouterConfig::from_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// An example with some `key = value` lines of `[router]` replaced and a new name.
pub fn variant(name: &str, new_name: &str, edits: &[(&str, &str)]) -> RouterConfig {
    let path = workspace().join("examples").join(format!("{name}.toml"));
    let mut text = std::fs::read_to_string(path).unwrap();
    text = text.replace(&format!("name = \"{name}\""), &format!("name = \"{new_name}\""));
    for (key, value) in edits {
        match text.lines().find(|l| l.starts_with(&format!("{key} ="))) {
            Some(line) => text = text.replace(line, &format!("{key} = {value}")),
            None => text = text.replacen("[router]\n", &format!("[router]\n{key} = {value}\n"), 1),
        }
    }
    RouterConfig::from_toml_str(&text, new_name).unwrap_or_else(|e| panic!("{e}"))
}

/// The router's model; a mutant's is compiled for a short run
/// ([`VerilatedRouter::build_quick`]): each planted bug is a build of its
/// own that runs only until it is caught.
pub fn rtl(cfg: &RouterConfig, mutant: Option<Mutant>) -> VerilatedRouter {
    build_rtl(cfg, mutant, false)
}

fn build_rtl(cfg: &RouterConfig, mutant: Option<Mutant>, trace: bool) -> VerilatedRouter {
    let files = wormqos_hdl::generate(cfg, mutant).expect("generate");
    let built = match (mutant, trace) {
        (Some(_), _) => VerilatedRouter::build_quick(cfg, &files, trace),
        (None, false) => VerilatedRouter::build(cfg, &files),
        (None, true) => VerilatedRouter::build_traced(cfg, &files),
    };
    built.unwrap_or_else(|e| panic!("verilating {}: {e:#}", cfg.name()))
}

/// [`rtl`] with waveform support from the start (for tests that expect a
/// waveform of every run: one build instead of two).
#[allow(dead_code)]
pub fn rtl_traced(cfg: &RouterConfig, mutant: Option<Mutant>) -> VerilatedRouter {
    build_rtl(cfg, mutant, true)
}

/// Random traffic that fills even deep buffers: a hotspot output and long
/// sink stall bursts for routers whose VC buffers hold more than 16 flits.
pub fn traffic_for(cfg: &RouterConfig) -> wormqos_testbench::stimulus::TrafficParams {
    let mut t = wormqos_testbench::stimulus::TrafficParams::default();
    if cfg.input_buffer_depth() > 16 {
        t.hotspot = Some((0, 0.3));
        t.stall_burst_max = 300;
    }
    t
}

/// Traffic that preempts often (three classes): mostly best effort,
/// regularly interrupted by real time and control, sources that preempt
/// their own messages, a congested output.
pub fn preemptive_traffic(cfg: &RouterConfig) -> wormqos_testbench::stimulus::TrafficParams {
    let mut t = traffic_for(cfg);
    t.class_weights = vec![6, 3, 1];
    t.max_message_flits = 12;
    t.source_preempt_prob = 0.05;
    t.hotspot = Some((0, 0.3));
    t
}

/// One lockstep run of `cfg` (the RTL with `mutant`, if any) against the
/// golden model under [`preemptive_traffic`]; the model is returned for its
/// statistics. A mutant's mismatch is expected: no waveform rebuild for it.
pub fn preemptive_lockstep(
    cfg: &RouterConfig,
    seed: u64,
    cycles: u64,
    mutant: Option<Mutant>,
) -> Result<(wormqos_testbench::lockstep::RunReport, wormqos_sim::Router), wormqos_testbench::lockstep::LockstepError> {
    use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};
    let mut dut = rtl(cfg, mutant);
    let mut model = wormqos_sim::Router::new(cfg);
    let opts = LockstepOptions {
        cycles,
        seed,
        traffic: preemptive_traffic(cfg),
        drain_limit: 50_000,
        waveform_dir: if mutant.is_none() { Some(waveform_dir()) } else { None },
        ..Default::default()
    };
    let report = run_lockstep(cfg, &mut dut, &mut model, &opts)?;
    Ok((report, model))
}

/// One lockstep run of a router with an output-VC cap (§9.4 stage 3:
/// `best_effort_cap.rs`, `realtime_cap.rs`) under `traffic`, `cycles`
/// cycles and a full drain, with the checks both share: every flit and
/// message delivered, every class sent, backpressure, and at least 1,000
/// preemptions and split messages. Returns the report and the model.
pub fn cap_lockstep(
    cfg: &RouterConfig,
    seed: u64,
    cycles: u64,
    traffic: wormqos_testbench::stimulus::TrafficParams,
) -> (wormqos_testbench::lockstep::RunReport, wormqos_sim::Router) {
    use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};
    let name = cfg.name().to_string();
    let mut model = wormqos_sim::Router::new(cfg);
    let opts = LockstepOptions { cycles, seed, traffic, drain_limit: 50_000, waveform_dir: Some(waveform_dir()), ..Default::default() };
    let report = run_lockstep(cfg, &mut rtl(cfg, None), &mut model, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {report}\n  model: {:?}", model.stats());
    assert!(report.cycles >= cycles);
    assert_eq!(report.flits_delivered, report.flits_injected, "{name}");
    assert_eq!(report.messages_delivered, report.messages_injected, "{name}");
    assert!(report.stimulus.messages_per_class.iter().all(|&n| n > 0), "{name}: a class sent nothing: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "{name}: no backpressure: {report}");
    let parts = report.parts.clone().expect("part checker in preemptive mode");
    assert!(model.stats().preemptions >= 1000 && parts.split_messages >= 1000, "{name}: {parts:?}");
    (report, model)
}

pub fn waveform_dir() -> PathBuf {
    workspace().join("target").join("test-waves")
}

/// A 4-port 3-VC QoS router with shallow buffers (preemption and nesting
/// are frequent): `mode`, acceleration, block size b, crossbar.
pub fn small(mode: &str, acceleration: bool, b: u32) -> RouterConfig {
    small_with(mode, acceleration, b, "multiplexed")
}

pub fn small_with(mode: &str, acceleration: bool, b: u32, crossbar: &str) -> RouterConfig {
    RouterConfig::from_toml_str(&small_text(mode, acceleration, b, crossbar), "small").unwrap_or_else(|e| panic!("{e}"))
}

/// [`small`] with the iterative switch allocator, k rounds (§6 *Switch allocation*).
#[allow(dead_code)]
pub fn small_iterative(mode: &str, acceleration: bool, b: u32, k: u32) -> RouterConfig {
    let text = small_text(mode, acceleration, b, "multiplexed").replacen("_mul\"", &format!("_it{k}\""), 1)
        + &format!("switch_allocator = \"iterative\"\nswitch_iterations = {k}\n");
    RouterConfig::from_toml_str(&text, "small").unwrap_or_else(|e| panic!("{e}"))
}

fn small_text(mode: &str, acceleration: bool, b: u32, crossbar: &str) -> String {
    let (scheduler, extra) = match mode {
        "traditional" => ("fifo", "vc_ratio = [1, 1, 1]\n"),
        "non_preemptive" => ("virtualclock", "vc_ratio = [1, 1, 1]\n"),
        _ => ("virtualclock", ""),
    };
    format!(
        "name = \"small_{mode}{}_b{b}_{}\"\n[router]\nports = 4\nvcs = 3\nflit_width = 40\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\nclock_width = 10\n\
         vtick_width = 10\nmode = \"{mode}\"\nblock_size = {b}\nacceleration = {acceleration}\n{extra}",
        if acceleration { "_acc" } else { "" },
        &crossbar[..3]
    )
}

pub fn header(cfg: &RouterConfig, dest: u64) -> [u64; 4] {
    let mut data = [0u64; 4];
    cfg.header().dest.insert(&mut data, dest);
    data
}

/// Sends one `len`-flit message from input port `src` (VC `vc`) to `dest`
/// starting in cycle 0, with every output credit returned as soon as the flit
/// arrives. Returns, per flit, the cycle it appeared on the output link, and
/// checks it appeared on the routed port with its data intact.
pub fn send_message(dut: &mut dyn Dut, cfg: &RouterConfig, src: usize, vc: u8, dest: u64, len: usize) -> Vec<u64> {
    let out_port = cfg.route(dest);
    dut.reset();
    let mut inputs = RouterInputs::idle(cfg);
    let mut credits = cfg.input_buffer_depth();
    let registered = cfg.scheduling().point.switch_stage() != wormqos_config::SwitchStage::SingleCycle;
    let mut late = 0usize;
    let mut sent = 0usize;
    let mut arrivals = Vec::new();
    for cycle in 0..(len as u64 * 4 + 100) {
        inputs.clear();
        let outs = dut.outputs().clone();
        // registered switch allocation (§6): a credit seen in cycle t is
        // spent from cycle t+1 (its slot is freed at the end of t)
        credits += std::mem::replace(&mut late, 0);
        let returned = (outs.credits[src] >> vc & 1) as usize;
        if registered {
            late = returned;
        } else {
            credits += returned;
        }
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
            inputs.flits[src] = LinkFlit { lane: 0, valid: true, dummy: false, vc, head: sent == 0, tail: sent == len - 1, data };
            sent += 1;
            credits -= 1;
        }
        dut.step(&inputs);
    }
    assert_eq!(arrivals.len(), len, "all flits delivered");
    arrivals
}

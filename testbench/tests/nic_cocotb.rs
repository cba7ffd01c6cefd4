//! The NIC (docs/nic.md) against an AXI client the project did not write:
//! the cocotb test `testbench/cocotb/test_nic.py` drives the generated RTL
//! under Icarus Verilog with cocotbext-axi (AXI4-Lite master, AXI RAM with
//! random backpressure) and a behavioural router port, and checks every
//! message, completion and error status. Each planted NIC fault must make
//! it fail. Needs `python3` with `cocotb` and `cocotbext-axi` (`./setup.sh`).

mod common;

use std::path::{Path, PathBuf};

use common::cocotb::CocotbRun;
use wormqos_config::nic::Injection;
use wormqos_config::RouterConfig;
use wormqos_hdl::{generate_nic, nic_module_name, NicFault};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// `examples/nic/<name>.toml`; `qos_p_block` and `qos_p_message` are
/// `qos_p` with block-level (b = 3) and message-level injection.
fn example(name: &str) -> RouterConfig {
    let (file, extra) = match name {
        "qos_p_block" => ("qos_p", "injection = \"block\"\nblock_size = 3\n"),
        "qos_p_message" => ("qos_p", "injection = \"message\"\n"),
        other => (other, ""),
    };
    let path = root().join("examples/nic").join(format!("{file}.toml"));
    let text = std::fs::read_to_string(&path).unwrap() + extra;
    RouterConfig::from_toml_str(&text, &path.display().to_string()).unwrap()
}

/// The sizes the testbench needs, from the configuration alone (docs/nic.md §2, §4).
fn params_json(cfg: &RouterConfig) -> String {
    let n = cfg.nic().unwrap();
    let h = cfg.header();
    let vcc: Vec<String> = cfg.vc_classes().map(|t| t.iter().map(u32::to_string).collect()).unwrap_or_default();
    format!(
        concat!(
            "{{\"top\": \"{}\", \"m\": {}, \"w\": {}, \"s\": {}, \"di\": {}, \"dd\": {}, \"bb\": {}, \"axw\": {}, ",
            "\"ixw\": {}, \"kmax\": {}, \"dw\": {}, \"cw\": {}, \"vtw\": {}, \"hw\": {}, \"endpoints\": {}, ",
            "\"preemptive\": {}, \"qos\": {}, \"message_level\": {}, \"vcc\": [{}], \"q\": {}, \"b\": {}, \"post_depth\": {}, \"rx_contexts\": {}}}"
        ),
        nic_module_name(cfg),
        cfg.vcs(),
        cfg.flit_width(),
        cfg.traffic_classes(),
        cfg.input_buffer_depth(),
        cfg.downstream_buffer_depth(),
        n.beat_bytes(),
        n.axi_data_width,
        n.index_width(),
        n.max_message_flits,
        h.dest.width,
        h.class.width,
        h.vtick.width,
        h.width(),
        cfg.endpoints(),
        cfg.mode() == wormqos_config::RouterMode::Preemptive,
        n.variant == wormqos_config::nic::NicVariant::Qos,
        n.injection == Injection::Message,
        vcc.join(", "),
        n.doorbell_depth,
        n.buffer_depth,
        n.rx_post_depth,
        n.rx_contexts,
    )
}

/// Generates the NIC of `example` (with `fault`) and runs the cocotb test
/// (seed 3); returns whether it passed and its output.
fn run_cocotb(example_name: &str, fault: Option<NicFault>) -> (bool, String) {
    let cfg = example(example_name);
    let files = generate_nic(&cfg, fault).unwrap();
    common::cocotb::run_cocotb(&CocotbRun {
        tag: format!("nic_cocotb_{example_name}-{}", fault.map_or("clean", |f| f.name())),
        files: &files,
        params_json: params_json(&cfg),
        seed: 3,
        extra_args: vec![],
        expect_pass: fault.is_none(),
    })
}

fn tail(text: &str) -> String {
    common::cocotb::tail(text, 60)
}

#[test]
fn cocotb_qos_nic_in_preemptive_mode_delivers_every_message_and_status() {
    let (ok, text) = run_cocotb("qos_p", None);
    assert!(ok, "qos_p:\n{}", tail(&text));
}

#[test]
fn cocotb_qos_nic_with_block_and_message_level_injection() {
    for name in ["qos_p_block", "qos_p_message"] {
        let (ok, text) = run_cocotb(name, None);
        assert!(ok, "{name}:\n{}", tail(&text));
    }
}

#[test]
fn cocotb_traditional_nic_delivers_every_message_and_status() {
    let (ok, text) = run_cocotb("traditional", None);
    assert!(ok, "traditional:\n{}", tail(&text));
}

#[test]
fn cocotb_catches_every_planted_nic_fault() {
    let mut missed = Vec::new();
    for &f in NicFault::every() {
        let (ok, text) = run_cocotb("qos_p", Some(f));
        if ok {
            missed.push(f.name());
        } else {
            eprintln!("{}: caught: {}", f.name(), text.lines().filter(|l| l.contains("cycle ") || l.contains("FAIL")).take(2).collect::<Vec<_>>().join(" | "));
        }
    }
    assert!(missed.is_empty(), "the cocotb test passed with these faults planted: {missed:?}");
}

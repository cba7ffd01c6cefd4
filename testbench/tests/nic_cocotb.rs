//! The NIC (docs/nic.md) against an AXI client the project did not write:
//! the cocotb test `testbench/cocotb/test_nic.py` drives the generated RTL
//! under Icarus Verilog with cocotbext-axi (AXI4-Lite master, AXI RAM with
//! random backpressure) and a behavioural router port, and checks every
//! message, completion and error status. Each planted NIC fault must make
//! it fail. Needs `python3` with `cocotb` and `cocotbext-axi` (`./setup.sh`).

use std::path::{Path, PathBuf};
use std::process::Command;

use wormqos_config::nic::Injection;
use wormqos_config::RouterConfig;
use wormqos_hdl::{generate_nic, nic_module_name, write_files, NicFault};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn example(name: &str) -> RouterConfig {
    RouterConfig::from_file(&root().join("examples/nic").join(format!("{name}.toml"))).unwrap()
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

/// Generates the NIC of `example` (with `fault`) and runs the cocotb test;
/// returns whether it passed and its output. The work directory stays only
/// when the outcome is not the expected one (a pass without a fault), or
/// with `WORMQOS_KEEP_TMP`.
fn run_cocotb(example_name: &str, fault: Option<NicFault>) -> (bool, String) {
    let cfg = example(example_name);
    let tag = format!("{example_name}-{}", fault.map_or("clean", |f| f.name()));
    let dir = std::env::temp_dir().join(format!("wormqos_nic_cocotb_{}_{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rtl = dir.join("rtl");
    write_files(&rtl, &generate_nic(&cfg, fault).unwrap()).unwrap();
    let params = dir.join("params.json");
    std::fs::write(&params, params_json(&cfg)).unwrap();
    let out = Command::new("python3")
        .arg(root().join("testbench/cocotb/run_nic.py"))
        .args(["--rtl", rtl.to_str().unwrap(), "--params", params.to_str().unwrap()])
        .args(["--build", dir.join("build").to_str().unwrap(), "--seed", "3"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 (run ./setup.sh): {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains("run_nic:"),
        "{tag}: the cocotb run did not get to its verdict (are cocotb and cocotbext-axi installed? ./setup.sh):\n{text}"
    );
    if out.status.success() == fault.is_none() && std::env::var_os("WORMQOS_KEEP_TMP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    (out.status.success(), text)
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

#[test]
fn cocotb_qos_nic_in_preemptive_mode_delivers_every_message_and_status() {
    let (ok, text) = run_cocotb("qos_p", None);
    assert!(ok, "qos_p:\n{}", tail(&text));
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

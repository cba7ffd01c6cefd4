//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_testbench::verilator::VerilatedRouter;

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

pub fn rtl(cfg: &RouterConfig, mutant: Option<Mutant>) -> VerilatedRouter {
    let files = wormqos_hdl::generate(cfg, mutant).expect("generate");
    VerilatedRouter::build(cfg, &files).unwrap_or_else(|e| panic!("verilating {}: {e:#}", cfg.name()))
}

/// [`rtl`] with waveform support from the start (for tests that expect a
/// waveform of every run: one build instead of two).
#[allow(dead_code)]
pub fn rtl_traced(cfg: &RouterConfig, mutant: Option<Mutant>) -> VerilatedRouter {
    let files = wormqos_hdl::generate(cfg, mutant).expect("generate");
    VerilatedRouter::build_traced(cfg, &files).unwrap_or_else(|e| panic!("verilating {}: {e:#}", cfg.name()))
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

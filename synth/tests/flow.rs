//! Generated constraints and scripts, and Yosys runs of them.
//!
//! CI synthesizes the small examples for 7-series and iCE40 (latch check and
//! `check -assert` are in the scripts). Every example, and the RAM-inference
//! check on the largest one, are opt-in:
//!   cargo test --release -p wormqos-synth --test flow -- --ignored

use std::path::{Path, PathBuf};
use std::process::Command;
use wormqos_config::RouterConfig;
use wormqos_synth::parse::{yosys_cells, XilinxResources};
use wormqos_synth::scripts::{self, Family};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn example(name: &str) -> RouterConfig {
    RouterConfig::from_file(&root().join("examples").join(format!("{name}.toml"))).unwrap()
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wormqos-synth-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes RTL and scripts; returns the directory and the top.
fn emit(cfg: &RouterConfig, tag: &str) -> (PathBuf, String) {
    let d = tmp(tag);
    let rtl = wormqos_hdl::generate(cfg, None).unwrap();
    let extra = scripts::emit(cfg, &rtl).unwrap();
    let all: Vec<_> = rtl.iter().chain(&extra).cloned().collect();
    wormqos_hdl::write_files(&d, &all).unwrap();
    (d, wormqos_hdl::top_module_name(cfg))
}

#[test]
fn xdc_clock_follows_target_mhz() {
    let mut text = std::fs::read_to_string(root().join("examples/tiny2.toml")).unwrap();
    text.push_str("\n[synthesis]\ntarget_mhz = 250\n");
    let cfg = RouterConfig::from_toml_str(&text, "tiny2+250").unwrap();
    let rtl = wormqos_hdl::generate(&cfg, None).unwrap();
    let ports = scripts::top_ports(&rtl, "tiny2_router").unwrap();
    let x = scripts::xdc(&cfg, &ports);
    assert!(x.contains("create_clock -name clk -period 4.000 [get_ports clk_i]"), "{x}");
    // 20 % of 4 ns on each side; the clock is not an input-delay port.
    assert!(x.contains("set_input_delay -clock clk 0.8 [get_ports {rst_i in_valid_i"), "{x}");
    assert!(x.contains("set_output_delay -clock clk 0.8 [get_ports {in_credit_o"), "{x}");
}

#[test]
fn top_ports_of_mesh5() {
    let rtl = wormqos_hdl::generate(&example("mesh5"), None).unwrap();
    let p = scripts::top_ports(&rtl, "mesh5_router").unwrap();
    let w = |n: &str| p.iter().find(|x| x.name == n).map(|x| (x.output, x.width));
    // rtl_out/mesh5/mesh5_router.v: 5 ports x 32-bit data, 5 x 4 VC credits.
    assert_eq!(w("in_data_i"), Some((false, 160)));
    assert_eq!(w("in_credit_o"), Some((true, 20)));
    assert_eq!(w("clk_i"), Some((false, 1)));
    assert_eq!(p.len(), 14);
}

#[test]
fn emitted_files_are_complete_and_the_wrapper_is_lint_clean() {
    let cfg = example("tiny2");
    let (d, top) = emit(&cfg, "emit");
    for f in [
        format!("{top}.xdc"),
        format!("{top}_vivado.tcl"),
        format!("{top}.core"),
        format!("{top}_xilinx.ys"),
        format!("{top}_ice40.ys"),
        format!("{top}_ecp5.ys"),
    ] {
        assert!(d.join(&f).is_file(), "{f} missing");
    }
    let tcl = std::fs::read_to_string(d.join(format!("{top}_vivado.tcl"))).unwrap();
    for k in ["read_verilog tiny2_fifo.v", "synth_design -top tiny2_router -part $part -mode out_of_context", "report_utilization", "report_timing_summary", "read_xdc"] {
        assert!(tcl.contains(k), "{k} not in the Vivado script:\n{tcl}");
    }
    let core = std::fs::read_to_string(d.join(format!("{top}.core"))).unwrap();
    assert!(core.starts_with("CAPI=2:\n"));
    assert!(core.contains("name: wormqos:router:tiny2:") && core.contains("toplevel: tiny2_router") && core.contains("- tiny2_router.v"), "{core}");
    let mut files: Vec<String> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".v")).collect();
    files.sort();
    let w = scripts::wrapper_name(&top);
    let out = Command::new("verilator").current_dir(&d).args(["--lint-only", "-Wall", "--top-module", &w]).args(&files).output().expect("verilator (./setup.sh)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn yosys(d: &Path, script: &str) {
    let out = Command::new("yosys").current_dir(d).args(["-q", "-s", script]).output().expect("yosys (./setup.sh)");
    assert!(out.status.success(), "{script}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

fn synth_both(name: &str) {
    let cfg = example(name);
    let (d, top) = emit(&cfg, name);
    for f in [Family::Xilinx7, Family::Ice40] {
        yosys(&d, &format!("{top}_{}.ys", f.tag()));
        let stat = std::fs::read_to_string(d.join(format!("{top}_{}_stat.txt", f.tag()))).unwrap();
        let cells = yosys_cells(&stat).unwrap();
        let latches: u64 = cells.iter().filter(|(k, _)| k.contains("LATCH") || k.starts_with("LD")).map(|(_, v)| *v).sum();
        assert_eq!(latches, 0, "{name} {}: {cells:?}", f.tag());
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A latch in the RTL must fail the scripts (the check is not vacuous).
#[test]
fn the_scripts_reject_a_latch() {
    let d = tmp("latch");
    std::fs::write(d.join("l.v"), "module l(input wire e, input wire a, output reg q);\n  always @(*) if (e) q = a;\nendmodule\n").unwrap();
    for f in [Family::Xilinx7, Family::Ice40] {
        std::fs::write(d.join("s.ys"), scripts::yosys_script(f, "l", &["l.v".into()], "stat.txt", None, "")).unwrap();
        let out = Command::new("yosys").current_dir(&d).args(["-q", "-s", "s.ys"]).output().unwrap();
        assert!(!out.status.success(), "{}: a latch passed", f.tag());
    }
}

#[test]
fn small_examples_synthesize_for_xilinx_and_ice40_without_latches() {
    for n in ["tiny2", "small_p"] {
        synth_both(n);
    }
}

#[test]
#[ignore = "slow: synth_xilinx and synth_ice40 of every example (tens of minutes)"]
fn every_example_synthesizes_for_xilinx_and_ice40_without_latches() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for n in names {
        synth_both(&n);
    }
}

/// The buffers of a router are most of its state; they must become LUTRAM,
/// not flip-flops. mesh5: 40 FIFOs x 8 x 34 bits = 10,880 buffer bits.
#[test]
fn mesh5_buffers_become_lutram() {
    let cfg = example("mesh5");
    let (d, top) = emit(&cfg, "mesh5ram");
    yosys(&d, &format!("{top}_xilinx.ys"));
    let r = XilinxResources::from_cells(&yosys_cells(&std::fs::read_to_string(d.join(format!("{top}_xilinx_stat.txt"))).unwrap()).unwrap());
    assert!(r.lutram_luts > 0, "{r:?}");
    assert!(r.flip_flops < 2_000, "{r:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// qos8 (8 ports, 16 VCs, 40-flit, 128-bit buffers: 256 FIFOs, 1.3 M buffer
/// bits) must not become a flip-flop design.
#[test]
#[ignore = "slow: synth_xilinx of qos8 (see docs/benchmarks.md for time and memory)"]
fn qos8_buffers_become_ram() {
    let cfg = example("qos8");
    let (d, top) = emit(&cfg, "qos8ram");
    yosys(&d, &format!("{top}_xilinx.ys"));
    let r = XilinxResources::from_cells(&yosys_cells(&std::fs::read_to_string(d.join(format!("{top}_xilinx_stat.txt"))).unwrap()).unwrap());
    assert!(r.lutram_luts + (r.bram36 as u64) > 0, "{r:?}");
    assert!(r.flip_flops < 40_000, "{r:?}");
    let _ = std::fs::remove_dir_all(&d);
}

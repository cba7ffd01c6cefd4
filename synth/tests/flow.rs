//! Generated constraints and scripts, and Yosys runs of them.
//!
//! CI synthesizes every example but nine large variants (`LARGE_VARIANTS`)
//! for 7-series, qos8 at 3 ports instead of 8 (`qos8_3port`), and one small
//! example of each kind for iCE40 (`ICE40_KINDS`),
//! hierarchically (the latch check and `check -assert`
//! are in the scripts; the 8-port 16-VC preemptive routers take 1-2
//! CPU-minutes per family, most examples seconds) and checks RAM inference
//! on mesh5 and on qos8_3port (0.5 M buffer bits). Every example on
//! both families, and the flattened runs of every example, are opt-in:
//!   cargo test --release -p wormqos-synth --test flow -- --ignored

use std::path::{Path, PathBuf};
use std::process::Command;
use wormqos_config::RouterConfig;
use wormqos_synth::parse::{yosys_cells, XilinxResources};
use wormqos_synth::scripts::{self, Family, Hierarchy};

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
    let extra = scripts::emit(&wormqos_synth::Design::router(cfg).unwrap()).unwrap();
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
    let x = scripts::xdc(&wormqos_synth::Design::router(&cfg).unwrap(), &ports);
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
        format!("{top}_xilinx_hier.ys"),
        format!("{top}_ice40.ys"),
        format!("{top}_ecp5.ys"),
        format!("{top}_ooc_wrap_ice40_ct256.pcf"),
        format!("{top}_ooc_wrap_ecp5_cabga256.lpf"),
        format!("{top}_ooc_wrap_ecp5_cabga381.lpf"),
    ] {
        assert!(d.join(&f).is_file(), "{f} missing");
    }
    let tcl = std::fs::read_to_string(d.join(format!("{top}_vivado.tcl"))).unwrap();
    for k in ["read_verilog tiny2_ib_buffer.v", "synth_design -top tiny2_router -part $part -mode out_of_context", "report_utilization", "report_timing_summary", "read_xdc"] {
        assert!(tcl.contains(k), "{k} not in the Vivado script:\n{tcl}");
    }
    // The LPF carries the configuration's clock (tiny2: the default 100 MHz).
    let lpf = std::fs::read_to_string(d.join(format!("{top}_ooc_wrap_ecp5_cabga381.lpf"))).unwrap();
    assert!(lpf.contains("LOCATE COMP \"clk_i\" SITE \"G2\";") && lpf.contains("FREQUENCY PORT \"clk_i\" 100 MHZ;"), "{lpf}");
    let core = std::fs::read_to_string(d.join(format!("{top}.core"))).unwrap();
    assert!(core.starts_with("CAPI=2:\n"));
    assert!(core.contains("name: wormqos:router:tiny2:") && core.contains("toplevel: tiny2_router") && core.contains("- tiny2_router.v"), "{core}");
    let mut files: Vec<String> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".v")).collect();
    files.sort();
    let w = scripts::wrapper_name(&top);
    let out = Command::new("verilator").current_dir(&d).args(["--lint-only", "-Wall", "--top-module", &w]).args(&files).output().expect("verilator (./setup.sh)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every example's name (stem of `examples/*.toml`), sorted.
fn example_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Synthesizes `cfg` for `family` with the suite's script (latch check
/// after `proc`, `check -assert`); returns an error text instead of
/// panicking so a pool of workers can report every failure at once.
fn synth_check(cfg: &RouterConfig, family: Family, hierarchy: Hierarchy) -> Result<std::collections::BTreeMap<String, u64>, String> {
    let name = cfg.name();
    let tag = format!("{name}-{}-{hierarchy:?}", family.tag());
    let (d, top) = emit(cfg, &tag);
    let rtl: Vec<String> = wormqos_hdl::generate(cfg, None).unwrap().into_iter().map(|f| f.file_name).collect();
    let stat_file = "check_stat.txt";
    std::fs::write(d.join("check.ys"), scripts::yosys_script(family, &top, &rtl, stat_file, None, "", hierarchy)).unwrap();
    let out = Command::new("yosys").current_dir(&d).args(["-q", "-s", "check.ys"]).output().expect("yosys (./setup.sh)");
    if !out.status.success() {
        return Err(format!("{name} {}: yosys failed:\n{}{}", family.tag(), String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    }
    let stat = std::fs::read_to_string(d.join(stat_file)).map_err(|e| format!("{name} {}: no stat: {e}", family.tag()))?;
    let cells = yosys_cells(&stat).map_err(|e| format!("{name} {}: {e}", family.tag()))?;
    let latches: u64 = cells.iter().filter(|(k, _)| is_latch_cell(k)).map(|(_, v)| *v).sum();
    let luts: u64 = cells.iter().filter(|(k, _)| k.starts_with("LUT") || k.starts_with("SB_LUT4")).map(|(_, v)| *v).sum();
    let _ = std::fs::remove_dir_all(&d);
    if latches != 0 {
        return Err(format!("{name} {}: {latches} latch cells after mapping: {cells:?}", family.tag()));
    }
    // A design optimised away to nothing would also pass the checks above.
    if luts == 0 {
        return Err(format!("{name} {}: no LUTs in the mapped design: {cells:?}", family.tag()));
    }
    // The router multiplies nothing: a DSP block means an index expression
    // (`x[i*W +: W]` with W not a power of two) became a multiplier feeding
    // a barrel shifter, at many times the LUTs of a multiplexer.
    let dsps: u64 = cells.iter().filter(|(k, _)| k.starts_with("DSP48") || k.starts_with("SB_MAC16")).map(|(_, v)| *v).sum();
    if dsps != 0 {
        return Err(format!("{name} {}: {dsps} DSP blocks in a router: {cells:?}", family.tag()));
    }
    Ok(cells)
}

/// Latch primitives of the mapped netlists (7-series LDCE/LDPE, Yosys'
/// generic latch cells if a flow left any).
fn is_latch_cell(k: &str) -> bool {
    k.contains("LATCH") || k.starts_with("LD")
}

/// A rough cost of synthesizing `name`, to start the largest jobs first so
/// that the workers finish together (the 8-port 16-VC preemptive routers
/// take 1-2 CPU-minutes per family, most examples seconds): input VCs,
/// times 2 for the VirtualClock scheduler (a stamp comparator per pair of
/// VCs at every input port) and 2 again for preemption's lanes.
fn synth_cost(c: &RouterConfig) -> usize {
    let vc = if c.scheduler() == wormqos_config::Scheduler::Virtualclock { 2 } else { 1 };
    let pre = if c.mode() == wormqos_config::RouterMode::Preemptive { 2 } else { 1 };
    c.ports() * c.vcs() * vc * pre
}

/// Runs every (example, family) job on as many
/// threads as the machine has cores (Yosys is single-threaded), asserts
/// that none failed and returns the mapped cells of each.
fn synth_all(families: &[Family], hierarchy: Hierarchy) -> std::collections::BTreeMap<(String, &'static str), std::collections::BTreeMap<String, u64>> {
    let all = example_names();
    assert!(all.len() >= 12, "examples/ lost configurations: {all:?}");
    let jobs: Vec<(RouterConfig, Family)> = all.into_iter().flat_map(|n| families.iter().map(move |&f| (example(&n), f))).collect();
    synth_jobs(jobs, hierarchy)
}

/// Input VCs (ports x VCs) of the largest example the default suite maps to
/// iCE40. The HX8K's 7,680 logic cells hold the 5-port 2-VC router
/// (docs/benchmarks.md) and nothing with many more VCs, so the 8-port 16-VC
/// examples (128 input VCs, 40-150 s of `synth_ice40` each) are mapped to
/// iCE40 only in the opt-in test; every example is mapped to 7-series.
const ICE40_DEFAULT_MAX_INPUT_VCS: usize = 32;

/// The small examples CI maps to iCE40, one of each kind: the smallest
/// router, its registered and split-stage pipelines, mesh5's routing and
/// LUTRAM buffers, small_p's preemption and wide72's wide flits. Every block
/// of the other small examples is mapped to 7-series by the same test, and
/// to iCE40 by the opt-in `every_example_synthesizes_hierarchical…` (suite
/// time: the eight small examples left out took 72 s of `synth_ice40`,
/// docs/benchmarks.md, "Test suite CPU: the synthesis flow's iCE40 half").
const ICE40_KINDS: [&str; 6] = ["tiny2", "tiny2_registered", "tiny2_split", "mesh5", "small_p", "wide72"];

/// 8-port 16-VC examples whose blocks the default test already maps in
/// `qos8_3port` (qos8's 16-VC ports, multiplexed crossbar and buffers, at
/// 128 bits, on 3 ports) and in a small example of the same kind (suite
/// time: 20-75 s of `synth_xilinx` each): qos8 itself in `qos8_3port`
/// (its 8 ports widen the crossbar and the allocators' request vectors,
/// which mesh5's multiplexed crossbar and paper000_16port's 16 ports map);
/// mw8_p's and mw8_pa's preemption, with and without
/// acceleration, in small_p; mw8_np's VirtualClock non-preemptive router in
/// np4_registered and np4_split (its 16-slot scheduler, 39 CPU-s of
/// `synth_xilinx` alone where the router's job took 72 s, is linted at every
/// size and run against the spec's reference at 16 slots by
/// `hdl/tests/vclock_sched.rs`); mediaworm8's and mw8_tr's FIFO
/// order in paper000_16port and tr5_registered; the iterative and registered
/// allocators in small_p_iterative, np4_registered and tr5_registered. The
/// opt-in tests map them too (`-- --ignored every_example`).
const LARGE_VARIANTS: [&str; 9] = ["qos8", "mediaworm8", "mw8_np", "mw8_p", "mw8_pa", "mw8_tr", "mw8_iterative", "mw8_np_iterative", "mw8_registered"];

fn synth_jobs(
    mut jobs: Vec<(RouterConfig, Family)>,
    hierarchy: Hierarchy,
) -> std::collections::BTreeMap<(String, &'static str), std::collections::BTreeMap<String, u64>> {
    jobs.sort_by_key(|(c, _)| std::cmp::Reverse(synth_cost(c)));
    assert!(!jobs.is_empty());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let results = std::sync::Mutex::new(std::collections::BTreeMap::new());
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(jobs.len());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((cfg, family)) = jobs.get(i) else { break };
                let name = cfg.name();
                let t0 = std::time::Instant::now();
                let r = synth_check(cfg, *family, hierarchy);
                eprintln!("{name} {} ({hierarchy:?}): {} in {:.0} s", family.tag(), if r.is_ok() { "ok" } else { "FAILED" }, t0.elapsed().as_secs_f64());
                match r {
                    Ok(cells) => {
                        results.lock().unwrap().insert((name.to_string(), family.tag()), cells);
                    }
                    Err(e) => failures.lock().unwrap().push(e),
                }
            });
        }
    });
    let f = failures.into_inner().unwrap();
    assert!(f.is_empty(), "{} of {} syntheses failed:\n{}", f.len(), jobs.len(), f.join("\n\n"));
    results.into_inner().unwrap()
}

/// A latch in the RTL must fail the scripts (the check is not vacuous), in
/// the top or inside a submodule, flattened or not.
#[test]
fn the_scripts_reject_a_latch() {
    let d = tmp("latch");
    std::fs::write(d.join("l.v"), "module l(input wire e, input wire a, output reg q);\n  always @(*) if (e) q = a;\nendmodule\n").unwrap();
    std::fs::write(d.join("t.v"), "module t(input wire e, input wire a, output wire q);\n  l u_l (.e(e), .a(a), .q(q));\nendmodule\n").unwrap();
    for f in [Family::Xilinx7, Family::Ice40] {
        for h in [Hierarchy::Flatten, Hierarchy::Keep] {
            for (top, files) in [("l", vec!["l.v".to_string()]), ("t", vec!["l.v".to_string(), "t.v".to_string()])] {
                std::fs::write(d.join("s.ys"), scripts::yosys_script(f, top, &files, "stat.txt", None, "", h)).unwrap();
                let out = Command::new("yosys").current_dir(&d).args(["-q", "-s", "s.ys"]).output().unwrap();
                assert!(!out.status.success(), "{} {h:?} top {top}: a latch passed", f.tag());
            }
        }
    }
    // The same designs without the latch pass (the failure above is the latch).
    std::fs::write(d.join("l.v"), "module l(input wire e, input wire a, output reg q);\n  always @(*) q = e & a;\nendmodule\n").unwrap();
    for f in [Family::Xilinx7, Family::Ice40] {
        std::fs::write(d.join("s.ys"), scripts::yosys_script(f, "t", &["l.v".into(), "t.v".into()], "stat.txt", None, "", Hierarchy::Keep)).unwrap();
        let out = Command::new("yosys").current_dir(&d).args(["-q", "-s", "s.ys"]).output().unwrap();
        assert!(out.status.success(), "{}: {}", f.tag(), String::from_utf8_lossy(&out.stderr));
    }
}

/// The registered router's buffer memories (`ram_1r1w`, docs/microarchitecture.md
/// §6 *Buffers of the registered pipeline*) go to SB_RAM40_4K in the iCE40
/// block-RAM script, every one of them (Yosys alone keeps a small one in
/// flip-flops), and to flip-flops with `-nobram`. tiny2_registered: 2 ports,
/// 1 VC, 18-bit data, so 2 input and 2 output buffer memories of 20-bit
/// words ({head, tail, data}); an SB_RAM40_4K is at most 16 bits wide, so
/// each takes 2 blocks: 8 in all. The ECP5 script maps them to DP16KD.
#[test]
fn the_registered_routers_buffers_map_to_ice40_block_ram() {
    let cfg = example("tiny2_registered");
    let (d, top) = emit(&cfg, "ram-ice40");
    let rtl: Vec<String> = wormqos_hdl::generate(&cfg, None).unwrap().into_iter().map(|f| f.file_name).collect();
    // ECP5: a DP16KD holds a 20-bit word (512 x 36 in its pseudo-dual-port
    // mode), so one block per memory: 4.
    for (family, options, cell, rams) in [(Family::Ice40, "", "SB_RAM40_4K", 8), (Family::Ice40, " -nobram", "SB_RAM40_4K", 0), (Family::Ecp5, "", "DP16KD", 4)] {
        std::fs::write(d.join("r.ys"), scripts::yosys_script(family, &top, &rtl, "r_stat.txt", None, options, Hierarchy::Flatten)).unwrap();
        let out = Command::new("yosys").current_dir(&d).args(["-q", "-s", "r.ys"]).output().expect("yosys (./setup.sh)");
        assert!(out.status.success(), "{options}: {}", String::from_utf8_lossy(&out.stderr));
        let cells = yosys_cells(&std::fs::read_to_string(d.join("r_stat.txt")).unwrap()).unwrap();
        assert_eq!(cells.get(cell).copied().unwrap_or(0), rams, "{} options `{options}`: {cells:?}", family.tag());
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// qos8 with 3 ports instead of 8, named `qos8_3port`: the same 16-VC
/// ports, 40-flit buffers of 130-bit words, 3 classes and round robin, on a
/// 3 x 3 multiplexed crossbar. Its 96 FIFOs of 40 x 130 bits (0.5 M buffer
/// bits) make a flip-flop design as plain as qos8's 256 do.
fn qos8_3port() -> RouterConfig {
    let p = root().join("examples/qos8.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("name = \"qos8\"\n") && text.contains("ports = 8\n"), "examples/qos8.toml changed: update qos8_3port");
    let text = text.replacen("name = \"qos8\"\n", "name = \"qos8_3port\"\n", 1).replacen("ports = 8\n", "ports = 3\n", 1);
    RouterConfig::from_toml_str(&text, "qos8.toml at 3 ports").unwrap()
}

/// RAM inference on the largest buffers: a qos8 router must not become a
/// flip-flop design (its buffers are most of its state).
fn assert_qos8_buffers_are_ram(name: &str, cells: &std::collections::BTreeMap<String, u64>) {
    let r = XilinxResources::from_cells(cells);
    assert!(r.lutram_luts + (r.bram36 as u64) > 0, "{name}: no RAM: {r:?}");
    assert!(r.flip_flops < 40_000, "{name}: {r:?}");
}

/// Every example but `LARGE_VARIANTS` on 7-series, with `qos8_3port`, and
/// `ICE40_KINDS` on iCE40, hierarchical (each module mapped once: see
/// `Hierarchy::Keep`), without errors, latches, DSP blocks or an empty
/// netlist; and RAM inference on the largest buffers: qos8_3port (3 ports,
/// 16 VCs, 40-flit, 128-bit buffers: 96 FIFOs of 40 x 130 bits, 0.5 M
/// buffer bits) must not become a flip-flop design. (qos8 itself, 1.33 M
/// buffer bits, is checked the same way by the opt-in
/// `every_example_synthesizes_hierarchical…`; its 7-series job took 25.0
/// CPU-s against `qos8_3port`'s 14.5, docs/benchmarks.md, "CI test CPU,
/// 2026-11-29 (second)".)
#[test]
fn every_example_synthesizes_for_xilinx_and_ice40_without_latches() {
    let names = example_names();
    assert!(names.len() >= 12, "examples/ lost configurations: {names:?}");
    let small: Vec<String> = ICE40_KINDS.iter().map(|n| n.to_string()).collect();
    for n in &small {
        assert!(names.contains(n), "{n} is not an example any more: update ICE40_KINDS");
        let c = example(n);
        assert!(c.ports() * c.vcs() <= ICE40_DEFAULT_MAX_INPUT_VCS, "{n} has {} input VCs", c.ports() * c.vcs());
    }
    let xilinx: Vec<&String> = names.iter().filter(|n| !LARGE_VARIANTS.contains(&n.as_str())).collect();
    for v in LARGE_VARIANTS {
        assert!(names.iter().any(|n| n == v), "{v} is not an example any more: update LARGE_VARIANTS");
    }
    let jobs: Vec<(RouterConfig, Family)> = xilinx
        .iter()
        .map(|n| (example(n), Family::Xilinx7))
        .chain(std::iter::once((qos8_3port(), Family::Xilinx7)))
        .chain(small.iter().map(|n| (example(n), Family::Ice40)))
        .collect();
    let cells = synth_jobs(jobs, Hierarchy::Keep);
    assert_eq!(cells.len(), xilinx.len() + 1 + small.len(), "{:?}", cells.keys());
    assert_qos8_buffers_are_ram("qos8_3port", &cells[&("qos8_3port".to_string(), "xilinx")]);
    // The buffers of a router are most of its state; they must become
    // LUTRAM, not flip-flops. mesh5: 40 FIFOs x 8 x 34 bits = 10,880 buffer
    // bits (its own flattened run was the suite's slowest synthesis).
    let r = XilinxResources::from_cells(&cells[&("mesh5".to_string(), "xilinx")]);
    assert!(r.lutram_luts > 0, "mesh5: no LUTRAM: {r:?}");
    assert!(r.flip_flops < 2_000, "mesh5: {r:?}");
}

/// Every example flattened, as the per-design scripts are (the reports' figures).
#[test]
#[ignore = "slow: flattened synth_xilinx and synth_ice40 of every example (over an hour of CPU)"]
fn every_example_synthesizes_flattened_for_xilinx_and_ice40_without_latches() {
    synth_all(&[Family::Xilinx7, Family::Ice40], Hierarchy::Flatten);
}

/// Every example on both families, hierarchical (the default test leaves
/// the large examples out of iCE40 and `LARGE_VARIANTS` out of 7-series):
/// `cargo test --release -p wormqos-synth --test flow -- --ignored
/// every_example_synthesizes_hierarchical`.
#[test]
#[ignore = "slow: synth_xilinx and synth_ice40 -noflatten of every example (the 8-port 16-VC ones take 40-150 s each)"]
fn every_example_synthesizes_hierarchical_for_both_families_without_latches() {
    let cells = synth_all(&[Family::Xilinx7, Family::Ice40], Hierarchy::Keep);
    assert_eq!(cells.len(), 2 * example_names().len(), "{:?}", cells.keys());
    assert_qos8_buffers_are_ram("qos8", &cells[&("qos8".to_string(), "xilinx")]);
}

/// `synth --hierarchical`: the 7-series figures from the non-flattening
/// script, marked as such in the report.
#[test]
fn hierarchical_xilinx_report() {
    let cfg = example("tiny2");
    let d = tmp("hier-report");
    let opts = wormqos_synth::FlowOptions { families: vec![Family::Xilinx7], xilinx_hierarchy: Hierarchy::Keep, ..wormqos_synth::FlowOptions::new(&d) };
    let rep = wormqos_synth::synthesize(&wormqos_synth::Design::router(&cfg).unwrap(), &opts).unwrap();
    let x = rep.xilinx.as_ref().unwrap();
    assert!(x.hierarchical && x.resources.luts > 0 && x.resources.flip_flops > 0, "{x:?}");
    assert!(d.join("tiny2_router_xilinx_hier_stat.txt").is_file());
    assert!(!d.join("tiny2_router_xilinx_stat.txt").exists(), "the flattened script ran");
    assert!(rep.markdown().contains("hierarchical"), "{}", rep.markdown());
    let _ = std::fs::remove_dir_all(&d);
}

/// Place and route end to end on the smallest example: both nextpnr flows
/// give an Fmax on the first device tried, with every wrapper pin placed by
/// the generated PCF / LPF (nextpnr runs without `--*-allow-unconstrained`,
/// so an unplaced pin would fail the run), and the report records real tool
/// versions.
#[test]
fn tiny2_places_and_routes_on_ice40_and_ecp5_with_the_pin_files() {
    let cfg = example("tiny2");
    let d = tmp("pnr");
    let opts = wormqos_synth::FlowOptions { families: vec![Family::Ice40, Family::Ecp5], ..wormqos_synth::FlowOptions::new(&d) };
    let rep = wormqos_synth::synthesize(&wormqos_synth::Design::router(&cfg).unwrap(), &opts).unwrap();
    for (tag, r, device, log_of) in [
        ("ice40", rep.ice40.as_ref().unwrap(), "iCE40HX8K-CT256", "tiny2_router_ooc_wrap_ice40_iCE40HX8K-CT256_nextpnr.log"),
        ("ecp5", rep.ecp5.as_ref().unwrap(), "LFE5U-25F-CABGA256", "tiny2_router_ooc_wrap_ecp5_LFE5U-25F-CABGA256_nextpnr.log"),
    ] {
        assert_eq!(r.device.as_deref(), Some(device), "{tag}: {r:?}");
        // A 2-port router clocks far above 10 MHz and below 1 GHz on either part.
        let f = r.fmax_mhz.unwrap();
        assert!((10.0..1000.0).contains(&f), "{tag}: Fmax {f}");
        let log = std::fs::read_to_string(d.join(log_of)).unwrap();
        // The clock pin of each package's file (scripts::Package): J3 is the
        // HX8K breakout's oscillator input, P6 the Colorlight 5A-75B's.
        let (clk_pin, placed) = if tag == "ice40" { ("J3", "constrained 'clk_i' to bel") } else { ("P6", "pin 'clk_i$tr_io' constrained to Bel") };
        assert!(log.contains(placed), "{tag}: clock pin not placed by the constraints:\n{log}");
        let pins = std::fs::read_to_string(d.join(if tag == "ice40" { "tiny2_router_ooc_wrap_ice40_ct256.pcf" } else { "tiny2_router_ooc_wrap_ecp5_cabga256.lpf" })).unwrap();
        assert!(pins.contains(clk_pin), "{pins}");
        assert_eq!(log.matches(if tag == "ice40" { "Info: constrained '" } else { "$tr_io' constrained to Bel" }).count(), 5, "{tag}: not all five pins constrained:\n{log}");
    }
    for (tool, v) in &rep.tools {
        assert!(v.contains('.') && !v.starts_with("Preparing"), "{tool}: version {v:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}


//! `wormqos synth` / `wormqos dse` command-line contract: invalid
//! configurations exit 2 naming the field, a missing tool names the setup
//! command, `--emit-only` writes the RTL and every script, and `dse` sweeps a
//! grid into a CSV and plots, reusing cached synthesis results.

use std::path::PathBuf;
use std::process::Command;

mod common;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wormqos"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = root().join("target").join("cli-tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn synth_and_dse_reject_an_invalid_configuration_with_exit_2() {
    let d = scratch("synth-bad");
    let text = std::fs::read_to_string(root().join("examples/mesh5.toml")).unwrap().replace("vcs = 4", "vcs = 17");
    std::fs::write(d.join("bad.toml"), text).unwrap();
    for sub in ["synth", "dse"] {
        let out = bin().args([sub, "--config"]).arg(d.join("bad.toml")).arg("--out").arg(d.join("out")).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("router.vcs"), "{sub}: {err}");
        assert!(!d.join("out").exists(), "{sub} wrote output");
    }
}

#[test]
fn synth_without_yosys_names_the_setup_command() {
    let d = scratch("synth-notool");
    let out = bin()
        .env("PATH", "/nonexistent")
        .args(["synth", "--config"])
        .arg(root().join("examples/tiny2.toml"))
        .arg("--out")
        .arg(d.join("out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`yosys` is not installed") && err.contains("./setup.sh"), "{err}");
}

#[test]
fn synth_emit_only_writes_rtl_constraints_and_scripts() {
    let d = scratch("synth-emit");
    let out = bin().args(["synth", "--emit-only", "--config"]).arg(root().join("examples/mesh5.toml")).arg("--out").arg(&d).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for f in ["mesh5_router.v", "mesh5_ib_buffer.v", "mesh5_ob_buffer.v", "mesh5_router.xdc", "mesh5_router_vivado.tcl", "mesh5_router.core", "mesh5_router_xilinx.ys", "mesh5_router_ice40.ys", "mesh5_router_ecp5.ys", "mesh5_router_ooc_wrap.v"] {
        assert!(d.join(f).is_file(), "{f} missing");
    }
    // mesh5 has no [synthesis] section: 100 MHz.
    let xdc = std::fs::read_to_string(d.join("mesh5_router.xdc")).unwrap();
    assert!(xdc.contains("create_clock -name clk -period 10.000 [get_ports clk_i]"), "{xdc}");
}

/// `synth --unit nic` writes the NIC's RTL and the same scripts as for a
/// router, with the FuseSoC core in the `nic` library; a configuration
/// without `[nic]` exits 2 naming the file and the section, writing nothing.
#[test]
fn synth_takes_a_nic() {
    let d = scratch("synth-nic");
    let out = bin().args(["synth", "--emit-only", "--unit", "nic", "--config"]).arg(root().join("examples/nic/traditional.toml")).arg("--out").arg(d.join("out")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let name = read_name(&root().join("examples/nic/traditional.toml"));
    let top = format!("{name}_nic");
    let core = std::fs::read_to_string(d.join("out").join(format!("{top}.core"))).unwrap();
    assert!(core.contains(&format!("name: wormqos:nic:{name}:")) && core.contains(&format!("toplevel: {top}")), "{core}");
    let tcl = std::fs::read_to_string(d.join("out").join(format!("{top}_vivado.tcl"))).unwrap();
    assert!(tcl.contains(&format!("read_verilog {top}.v")) && tcl.contains(&format!("synth_design -top {top}")), "{tcl}");
    for f in [format!("{top}.xdc"), format!("{top}_ooc_wrap.v"), format!("{top}_ooc_wrap_ecp5.ys")] {
        assert!(d.join("out").join(&f).is_file(), "{f} missing");
    }
    let out = bin().args(["synth", "--unit", "nic", "--config"]).arg(root().join("examples/tiny2.toml")).arg("--out").arg(d.join("none")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tiny2.toml") && err.contains("[nic]"), "{err}");
    assert!(!d.join("none").exists(), "wrote output");
}

/// `synth --experiment` synthesizes the whole network top; Yosys maps it
/// (7-series, hierarchical: each router module once) and the report names
/// the network's top. A bad experiment exits 2 writing nothing.
#[test]
fn synth_takes_a_network() {
    let d = scratch("synth-network");
    std::fs::write(d.join("e.toml"), common::EXP).unwrap();
    let out = bin()
        .args(["synth", "--families", "xilinx", "--hierarchical", "--no-cache", "--experiment"])
        .arg(d.join("e.toml"))
        .arg("--out")
        .arg(d.join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("out/synth_report.json")).unwrap()).unwrap();
    assert_eq!(report["top"], "cli_network");
    let luts = report["xilinx"]["resources"]["luts"].as_u64().unwrap();
    // Four 5-port routers: more than one router's worth of logic.
    // The experiment's router alone (its `name` and `[router]` sections).
    let router_only = common::EXP.split("[topology]").next().unwrap();
    std::fs::write(d.join("router.toml"), router_only).unwrap();
    let one = bin()
        .args(["synth", "--families", "xilinx", "--hierarchical", "--no-cache", "--config"])
        .arg(d.join("router.toml"))
        .arg("--out")
        .arg(d.join("one"))
        .output()
        .unwrap();
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let one: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("one/synth_report.json")).unwrap()).unwrap();
    let one_luts = one["xilinx"]["resources"]["luts"].as_u64().unwrap();
    assert!(luts > 3 * one_luts && luts < 5 * one_luts, "network {luts} LUTs, one router {one_luts}");
    let core = std::fs::read_to_string(d.join("out/cli_network.core")).unwrap();
    assert!(core.contains("name: wormqos:network:"), "{core}");
    std::fs::write(d.join("bad.toml"), common::EXP.replace("k = 2", "k = 6")).unwrap();
    let out = bin().args(["synth", "--experiment"]).arg(d.join("bad.toml")).arg("--out").arg(d.join("bad")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.toml"));
    assert!(!d.join("bad").exists(), "wrote output");
}

fn read_name(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.trim_start().starts_with("name")).unwrap();
    line.split('"').nth(1).unwrap().to_string()
}

fn dse(cache: &std::path::Path, out: &std::path::Path, base: &str, grid: &[&str]) -> std::process::Output {
    bin().env("WORMQOS_SYNTH_CACHE", cache).args(["dse", "--config"]).arg(root().join(base)).arg("--out").arg(out).args(grid).output().unwrap()
}

/// CSV rows by column name.
fn csv_rows(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines.map(|l| head.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

/// Everything a real synthesis run writes (RTL, scripts, Yosys logs and
/// statistics, reports) is in the directory's manifest, so a rerun replaces
/// exactly those; the user's own file beside them is left as it was.
#[test]
fn synth_records_every_file_it_writes_in_the_manifest() {
    let d = scratch("synth-manifest");
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("my_notes.txt"), "mine\n").unwrap();
    let run = || {
        let o = bin()
            .env("WORMQOS_SYNTH_CACHE", d.join("cache"))
            .args(["synth", "--families", "xilinx", "--hierarchical", "--config"])
            .arg(root().join("examples/tiny2.toml"))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let manifest: std::collections::BTreeSet<String> = std::fs::read_to_string(out.join(".wormqos-manifest"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        let on_disk: std::collections::BTreeSet<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".wormqos-manifest" && n != "my_notes.txt")
            .collect();
        assert_eq!(manifest, on_disk, "files written but not recorded, or recorded but absent");
        for f in ["tiny2_router.v", "tiny2_router_xilinx_hier_yosys.log", "tiny2_router_xilinx_hier_stat.txt", "synth_report.json"] {
            assert!(manifest.contains(f), "{f} not recorded: {manifest:?}");
        }
    };
    // The tools run; then the rerun is answered from the cache.
    run();
    run();
    assert_eq!(std::fs::read_to_string(out.join("my_notes.txt")).unwrap(), "mine\n");
}

/// `wormqos dse` end to end on a small grid, two points at a time: a CSV row
/// per point in grid order with the golden model's throughput and the
/// 7-series figures, both plots, and a rerun answered from the synthesis
/// cache (`WORMQOS_SYNTH_CACHE`) with the same figures.
#[test]
fn dse_sweeps_a_small_grid_and_reruns_from_the_cache() {
    let d = scratch("dse-small");
    let cache = d.join("cache");
    let grid = ["--vcs", "2,1", "--depth", "4", "--crossbar", "multiplexed", "--scheduler", "round_robin,fifo", "--families", "xilinx", "--hierarchical", "--sim-cycles", "3000", "--jobs", "2"];
    let first = dse(&cache, &d.join("a"), "examples/tiny2.toml", &grid);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let a = csv_rows(&std::fs::read_to_string(d.join("a/sweep.csv")).unwrap());
    let names: Vec<&str> = a.iter().map(|r| r["name"].as_str()).collect();
    assert_eq!(names, ["tiny2_v2_d4_w18_mul_round_robin_none", "tiny2_v2_d4_w18_mul_fifo_none", "tiny2_v1_d4_w18_mul_round_robin_none", "tiny2_v1_d4_w18_mul_fifo_none"]);
    for r in &a {
        let t: f64 = r["saturation_throughput"].parse().unwrap();
        assert!(t > 0.0 && t <= 1.0, "{r:?}");
        assert!(r["xilinx_luts"].parse::<u64>().unwrap() > 0 && r["xilinx_ffs"].parse::<u64>().unwrap() > 0, "{r:?}");
        assert_eq!((r["cached"].as_str(), r["error"].as_str()), ("false", "\"\""), "{r:?}");
    }
    // Two VCs cost logic: more LUTs than one VC with the same scheduler.
    assert!(a[0]["xilinx_luts"].parse::<u64>().unwrap() > a[2]["xilinx_luts"].parse::<u64>().unwrap(), "{a:?}");
    // Some point is on the LUT front; without an FPGA Fmax there is no Fmax front.
    assert!(a.iter().any(|r| r["pareto_luts"] == "true") && a.iter().all(|r| r["pareto_fmax"] == "false"), "{a:?}");
    let plot = std::fs::read_to_string(d.join("a/pareto_luts.svg")).unwrap();
    assert_eq!(plot.matches("<circle").count(), 4, "{plot}");
    assert!(std::fs::read_to_string(d.join("a/pareto_fmax.svg")).unwrap().contains("no points with both values"));

    let second = dse(&cache, &d.join("b"), "examples/tiny2.toml", &grid);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    let b = csv_rows(&std::fs::read_to_string(d.join("b/sweep.csv")).unwrap());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(y["cached"], "true", "{y:?}");
        for k in ["name", "saturation_throughput", "xilinx_luts", "xilinx_ffs", "xilinx_lutram_luts"] {
            assert_eq!(x[k], y[k], "{k}");
        }
    }

    // The same grid in two shards (answered from the cache like the rerun),
    // merged: the same CSV, byte for byte, and the same plots.
    for i in 0..2 {
        let spec = format!("{i}/2");
        let shard = [&grid[..], &["--shard", spec.as_str()]].concat();
        let o = dse(&cache, &d.join("shards"), "examples/tiny2.toml", &shard);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(!d.join("shards/sweep.csv").exists(), "a shard run writes its shard file, not the CSV");
    let merged = bin()
        .args(["merge", "--out"])
        .arg(d.join("merged"))
        .arg(d.join("shards/shard-1-of-2.msgpack"))
        .arg(d.join("shards/shard-0-of-2.msgpack"))
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    for f in ["sweep.csv", "pareto_luts.svg", "pareto_fmax.svg"] {
        assert_eq!(std::fs::read_to_string(d.join("merged").join(f)).unwrap(), std::fs::read_to_string(d.join("b").join(f)).unwrap(), "{f}");
    }
}

/// The larger sweep (opt-in; ~20 CPU-minutes with ECP5 place and route):
///   cargo test --release --test synth_cli -- --ignored larger_sweep
#[test]
#[ignore = "slow: 12-point mesh5 sweep with ECP5 place and route; cargo test --release --test synth_cli -- --ignored"]
fn larger_sweep_of_mesh5_with_fmax() {
    let d = scratch("dse-large");
    let grid = ["--vcs", "1,2,4", "--depth", "4,8", "--crossbar", "multiplexed,full", "--scheduler", "round_robin", "--families", "xilinx,ecp5"];
    let out = dse(&d.join("cache"), &d.join("out"), "examples/mesh5.toml", &grid);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = csv_rows(&std::fs::read_to_string(d.join("out/sweep.csv")).unwrap());
    assert_eq!(rows.len(), 12);
    for r in &rows {
        assert_eq!(r["error"], "\"\"", "{r:?}");
        assert!(r["fmax_mhz"].parse::<f64>().unwrap() > 0.0 && r["xilinx_luts"].parse::<u64>().unwrap() > 0, "{r:?}");
    }
    assert!(rows.iter().any(|r| r["pareto_fmax"] == "true") && rows.iter().any(|r| r["pareto_luts"] == "true"));
}

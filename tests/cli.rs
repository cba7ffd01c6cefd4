//! The command-line contract: bad configurations exit with code 2 naming the
//! field and write nothing; the checked-in rtl_out/ is the current generator output.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn mesh5_with(edit: impl Fn(String) -> String) -> String {
    edit(std::fs::read_to_string(root().join("examples/mesh5.toml")).unwrap())
}

/// Runs `generate` on `text`; asserts exit code 2, the field named in the
/// message, and an output directory that was never created.
fn rejected(case: &str, text: String, field: &str, range: &str) {
    let dir = scratch(case);
    let cfg = dir.join("bad.toml");
    std::fs::write(&cfg, text).unwrap();
    let out_dir = dir.join("out");
    let out = bin().args(["generate", "--config"]).arg(&cfg).arg("--out").arg(&out_dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{case}: exit code; stderr: {stderr}");
    assert!(stderr.contains(field), "{case}: message must name `{field}`: {stderr}");
    assert!(stderr.contains(range), "{case}: message must give `{range}`: {stderr}");
    assert!(!out_dir.exists(), "{case}: nothing may be written");
}

#[test]
fn invalid_configurations_exit_2_and_write_nothing() {
    rejected("zero_ports", mesh5_with(|t| t.replace("ports = 5", "ports = 0")), "router.ports", "2..=32");
    rejected("too_many_vcs", mesh5_with(|t| t.replace("vcs = 4", "vcs = 17")), "router.vcs", "1..=16");
    rejected("header_too_wide", mesh5_with(|t| t.replace("flit_width = 32", "flit_width = 12")), "router.flit_width", "20 bits");
    rejected("shallow", mesh5_with(|t| t.replace("input_buffer_depth = 8", "input_buffer_depth = 2")), "router.input_buffer_depth", "credit round trip");
    rejected("unknown_key", mesh5_with(|t| t.replace("vcs = 4", "vcs = 4\nvc_count = 4")), "vc_count", "unknown field");
    rejected("bad_route", mesh5_with(|t| t + "routes = [0, 1, 2, 3, 9]\n"), "topology.routes[4]", "0..=4");
    rejected("bad_crossbar", mesh5_with(|t| t.replace("\"multiplexed\"", "\"banyan\"")), "crossbar", "multiplexed");
}

#[test]
fn missing_config_file_exits_2() {
    let out = bin().args(["check", "--config", "/nonexistent/x.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.toml"));
}

fn verilog_files(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn checked_in_rtl_out_is_fresh() {
    let dir = scratch("fresh");
    let status = bin().args(["generate", "--config", "examples/mesh5.toml", "--out"]).arg(&dir).current_dir(root()).status().unwrap();
    assert!(status.success());
    let fresh = verilog_files(&dir);
    let checked_in = verilog_files(&root().join("rtl_out/mesh5"));
    assert!(!fresh.is_empty());
    assert_eq!(
        fresh.iter().map(|f| &f.0).collect::<Vec<_>>(),
        checked_in.iter().map(|f| &f.0).collect::<Vec<_>>(),
        "rtl_out/mesh5 is stale: run `cargo run --release -- generate --config examples/mesh5.toml --out rtl_out/mesh5`"
    );
    for (a, b) in fresh.iter().zip(&checked_in) {
        assert!(a.1 == b.1, "rtl_out/mesh5/{} is stale: regenerate it", a.0);
    }
}

#[test]
fn generate_is_deterministic_and_rewrites_a_directory() {
    let dir = scratch("twice");
    for _ in 0..2 {
        let st = bin().args(["generate", "--config", "examples/tiny2.toml", "--out"]).arg(&dir).current_dir(root()).status().unwrap();
        assert!(st.success());
    }
    let files = verilog_files(&dir);
    assert!(files.iter().any(|f| f.0 == "tiny2_router.v"), "{:?}", files.iter().map(|f| &f.0).collect::<Vec<_>>());
    for (_, text) in &files {
        assert!(text.contains("`default_nettype none"));
        assert_eq!(text.matches("\nmodule ").count() + usize::from(text.starts_with("module ")), 1, "one module per file");
    }
}

/// `cosim` stopped (SIGTERM) while Verilator builds its model: the build
/// tools are stopped and the half-built directory is removed at once, not
/// left for the next build to clean up; the exit code is the signal's.
#[test]
fn an_interrupted_verilator_build_leaves_nothing_behind() {
    let d = scratch("cosim-interrupted");
    let cache = d.join("verilator-cache");
    let mut child = bin()
        .env("WORMQOS_BUILD_DIR", &cache)
        .args(["cosim", "--cycles", "1000", "--config"])
        .arg(root().join("examples/tiny2.toml"))
        .arg("--waveform-dir")
        .arg(d.join("waves"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let builds = || -> Vec<PathBuf> {
        std::fs::read_dir(&cache)
            .map(|r| r.flatten().map(|e| e.path()).filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("tmp-")).collect())
            .unwrap_or_default()
    };
    let needle = cache.display().to_string();
    // Command lines of the processes working in the cache (verilator, make, the compilers).
    let tools = || -> Vec<String> {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&needle))
            .collect()
    };
    // Until make compiles the model (its compilers would outlive a
    // directory removed under them, so they must be stopped).
    let start = std::time::Instant::now();
    while !tools().iter().any(|c| c.starts_with("make")) {
        if start.elapsed().as_secs() > 120 || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("make never ran in the build directory");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status:?}");
    assert_eq!(builds(), Vec::<PathBuf>::new(), "a half-built directory is left");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(tools(), Vec::<String>::new(), "build tools still running");
}

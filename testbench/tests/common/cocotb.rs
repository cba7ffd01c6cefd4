//! The runner of the cocotb tests (`testbench/cocotb/run_nic.py`), shared by
//! `nic_cocotb.rs` (one NIC) and `nic_network_cocotb.rs` (a network with
//! NICs): writes the generated RTL and the testbench's parameters to a work
//! directory, runs the cocotb test under Icarus Verilog, and returns the
//! verdict with the run's output. Needs `python3` with `cocotb` and
//! `cocotbext-axi` (`./setup.sh`).

use std::path::PathBuf;
use std::process::Command;

use wormqos_hdl::{write_files, GeneratedFile};

/// One cocotb run: what to simulate and how.
pub struct CocotbRun<'a> {
    /// Names the work directory `<temp>/wormqos_<tag>_<pid>` and the messages.
    pub tag: String,
    pub files: &'a [GeneratedFile],
    /// The JSON the cocotb test reads its sizes from.
    pub params_json: String,
    pub seed: u64,
    /// Further `run_nic.py` arguments (`--test NAME`, `--no-rtl-checks`).
    pub extra_args: Vec<&'static str>,
    /// Whether a pass is the expected outcome (no planted fault): the work
    /// directory is kept only when the outcome is not the expected one, or
    /// with `WORMQOS_KEEP_TMP`.
    pub expect_pass: bool,
}

/// Wall-clock limit of one cocotb run, seconds (the slowest default run takes
/// about a minute on 2 cores).
const COCOTB_TIMEOUT_S: u64 = 600;

/// Runs `run`; returns whether the cocotb test passed and its output.
pub fn run_cocotb(run: &CocotbRun) -> (bool, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let dir = std::env::temp_dir().join(format!("wormqos_{}_{}", run.tag, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rtl = dir.join("rtl");
    write_files(&rtl, run.files).unwrap();
    let params = dir.join("params.json");
    std::fs::write(&params, &run.params_json).unwrap();
    let start = std::time::Instant::now();
    // A planted fault can stall the simulated network without ending the
    // simulation; `timeout` turns that into a failed run, never a hung suite.
    let limit = std::env::var("WORMQOS_COCOTB_TIMEOUT_S").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(COCOTB_TIMEOUT_S);
    let out = Command::new("timeout")
        .args(["--kill-after=10", &limit.to_string(), "python3"])
        .arg(root.join("testbench/cocotb/run_nic.py"))
        .args(["--rtl", rtl.to_str().unwrap(), "--params", params.to_str().unwrap()])
        .args(["--build", dir.join("build").to_str().unwrap(), "--seed", &run.seed.to_string()])
        .args(&run.extra_args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 (run ./setup.sh): {e}"));
    let mut text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(124) || out.status.code() == Some(137) {
        // The verdict a stalled run gets: failed, with the reason.
        text.push_str(&format!("\nrun_nic: FAILED: no verdict within {limit} s (WORMQOS_COCOTB_TIMEOUT_S)\n"));
    }
    eprintln!("{}: cocotb run in {:.0} s", run.tag, start.elapsed().as_secs_f64());
    assert!(
        text.contains("run_nic:"),
        "{}: the cocotb run did not get to its verdict (are cocotb and cocotbext-axi installed? ./setup.sh):\n{text}",
        run.tag
    );
    if out.status.success() == run.expect_pass && std::env::var_os("WORMQOS_KEEP_TMP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    (out.status.success(), text)
}

/// The last `n` lines of a run's output (for a failure message).
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

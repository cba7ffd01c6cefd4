//! `experiments/rerun_check.sh` (does a committed results folder still come
//! out of today's code?) is checked by its own script,
//! `experiments/rerun_check_test.sh`: in a throwaway clone of HEAD it reruns a
//! model-only folder (it reproduces), plants a cell, a wall time and a
//! missing output (each caught or ignored as it should be), and feeds the
//! refusals (no command, not a plain run, two commands: exit 2). This runs
//! that script against the binary cargo built, so `cargo test` covers it.

use std::process::Command;

#[test]
fn rerun_check_passes_its_own_test_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/experiments/rerun_check_test.sh"))
        .env("WORMQOS_BIN", env!("CARGO_BIN_EXE_wormqos"))
        .current_dir(root)
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rerun_check_test.sh failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all checks passed"), "no verdict:\n{stdout}\n{stderr}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

//! `wormqos synth` / `wormqos dse` command-line contract: invalid
//! configurations exit 2 naming the field, a missing tool names the setup
//! command, and `--emit-only` writes the RTL and every script.

use std::path::PathBuf;
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

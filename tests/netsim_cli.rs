//! `wormqos sim` / `wormqos sweep` end to end: exit codes, outputs.

use std::process::Command;

fn wormqos(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wormqos")).args(args).output().expect("run wormqos")
}

mod common;
use common::EXP;

#[test]
fn sim_sweep_and_bad_input() {
    let dir = std::env::temp_dir().join(format!("wormqos_netsim_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("e.toml");
    std::fs::write(&f, EXP).unwrap();
    let o = wormqos(&["sim", "--experiment", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("router-cycles/s"));

    std::fs::write(&f, EXP.replace("load = 0.1", "load = 1.2")).unwrap();
    let o = wormqos(&["sim", "--experiment", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("e.toml") && err.contains("workload.load"), "{err}");

    // A grid with an invalid point (load 1.2) is refused before any point runs or any file is written.
    std::fs::write(&f, EXP.to_string() + "[sweep]\n\"workload.load\" = [0.1, 1.2, 0.2]\n").unwrap();
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let o = wormqos(&["sweep", "--experiment", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("workload.load") && err.contains("1.2"), "{err}");
    assert!(!out.exists(), "nothing written for an invalid grid");

    std::fs::write(&f, EXP.to_string() + "[sweep]\n\"workload.load\" = [0.1, 0.2]\n").unwrap();
    let o = wormqos(&["sweep", "--experiment", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(out.join("accepted_throughput.svg").exists());
    std::fs::remove_dir_all(&dir).ok();
}

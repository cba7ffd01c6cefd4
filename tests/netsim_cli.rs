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

/// `topology.link_latency` through `sim` and as a `sweep` axis: on the 2x2
/// mesh every message crosses 1 or 2 links, so at this light load two
/// registers per link add between 2 and 4 cycles of network latency
/// (L per link crossed; docs/integration.md, "Link latency").
#[test]
fn sim_and_sweep_take_the_link_latency_from_the_file() {
    let dir = std::env::temp_dir().join(format!("wormqos_netsim_cli_link_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("e.toml");
    std::fs::write(&f, EXP.replace("k = 2", "k = 2\nlink_latency = 2")).unwrap();
    let o = wormqos(&["sim", "--experiment", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 register(s) per link and direction"), "{}", String::from_utf8_lossy(&o.stdout));

    std::fs::write(&f, EXP.to_string() + "[sweep]\n\"topology.link_latency\" = [0, 2]\n").unwrap();
    let out = dir.join("out");
    let o = wormqos(&["sweep", "--experiment", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}: {head:?}"));
    let (l, net) = (col("topology.link_latency"), col("be_network_latency_cycles"));
    let rows: Vec<(String, f64)> = lines.map(|r| r.split(',').collect::<Vec<_>>()).map(|r| (r[l].to_string(), r[net].parse().unwrap())).collect();
    assert_eq!(rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["0", "2"]);
    let added = rows[1].1 - rows[0].1;
    assert!((2.0..=4.0).contains(&added), "two registers per link added {added} cycles ({rows:?})");
}

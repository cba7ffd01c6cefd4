//! `sweep --shard I/N` + `merge`: the merged outputs equal an unsharded
//! run's (except the timing columns, each machine's own), and every way of
//! getting the shard set wrong exits 2 naming the file and writes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::EXP;

fn wormqos(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wormqos")).args(args).output().expect("run wormqos")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn refused(o: &std::process::Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
}

/// results.csv without the timing columns.
fn csv_without_timing(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    let rows: Vec<Vec<String>> = text.lines().map(|l| l.split(',').map(str::to_string).collect()).collect();
    let timing: Vec<usize> =
        rows[0].iter().enumerate().filter(|(_, h)| *h == "wall_seconds" || *h == "router_cycles_per_second").map(|(i, _)| i).collect();
    assert_eq!(timing.len(), 2, "timing columns present");
    rows.into_iter().map(|r| r.into_iter().enumerate().filter(|(i, _)| !timing.contains(i)).map(|(_, v)| v).collect()).collect()
}

/// results.json without the timing fields.
fn json_without_timing(dir: &Path) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    for p in v["points"].as_array_mut().unwrap() {
        let r = p["results"].as_object_mut().unwrap();
        r.remove("wall_seconds");
        r.remove("router_cycles_per_second");
    }
    v
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wormqos_shard_cli_{}_{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `EXP` + `tail` as `e.toml` in a fresh scratch directory, swept whole
/// into its `whole/`: (directory, experiment file, `whole/`).
fn unsharded_run(test: &str, tail: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(test);
    let f = dir.join("e.toml");
    std::fs::write(&f, EXP.to_string() + tail).unwrap();
    let whole = dir.join("whole");
    ok(&wormqos(&["sweep", "--experiment", s(&f), "--out", s(&whole), "--jobs", "2"]));
    (dir, f, whole)
}

/// Runs `count` shards of experiment `f` under `dir` and merges them
/// (given in reverse order: any order goes); returns the merged directory.
fn sharded_and_merged(dir: &Path, f: &Path, count: usize) -> PathBuf {
    let shards = dir.join(format!("shards{count}"));
    let mut files = Vec::new();
    for i in 0..count {
        ok(&wormqos(&["sweep", "--experiment", s(f), "--out", s(&shards), "--jobs", "1", "--shard", &format!("{i}/{count}")]));
        files.push(shards.join(format!("shard-{i}-of-{count}.msgpack")));
        assert!(files[i].exists());
    }
    assert!(!shards.join("results.csv").exists(), "a shard run writes only its shard file");
    files.reverse();
    let merged = dir.join(format!("merged{count}"));
    let mut args = vec!["merge", "--out", s(&merged)];
    args.extend(files.iter().map(|p| s(p)));
    ok(&wormqos(&args));
    merged
}

#[test]
fn merged_shards_equal_one_run() {
    // 5 points, so 2 shards are uneven (3 + 2) and 3 shards leave one with a single point
    let (dir, f, whole) = unsharded_run("merged", "[sweep]\n\"workload.load\" = [0.05, 0.1, 0.15, 0.2, 0.25]\n");

    for count in [2usize, 3] {
        let merged = sharded_and_merged(&dir, &f, count);
        assert_eq!(csv_without_timing(&merged), csv_without_timing(&whole), "{count} shards: results.csv");
        assert_eq!(json_without_timing(&merged), json_without_timing(&whole), "{count} shards: results.json");
        for plot in ["accepted_throughput.svg", "be_latency_us.svg"] {
            assert!(merged.join(plot).exists(), "{plot}");
        }
    }
}

/// With the NIC model the per-class `source_credit_stall` is not measured
/// (its sources are not the simple NI's): results.json says `null`, the
/// typed `ClassStats` reads it back as `None` and writes the same JSON
/// again, and the merge of shards equals the unsharded run (the shard file
/// carries `None`, not a number).
#[test]
fn merged_shards_of_a_nic_experiment_equal_one_run() {
    let (dir, f, whole) = unsharded_run("nic", "[nic]\nvariant = \"qos\"\n[sweep]\n\"workload.load\" = [0.05, 0.1, 0.15]\n");
    let json = json_without_timing(&whole);
    let mut classes = 0;
    for p in json["points"].as_array().unwrap() {
        for c in p["results"]["classes"].as_array().unwrap() {
            assert!(c["source_credit_stall"].is_null(), "{c}");
            let typed: wormqos_netsim::network::ClassStats = serde_json::from_value(c.clone()).expect("a class of results.json reads back");
            assert_eq!(typed.source_credit_stall, None);
            assert_eq!(&serde_json::to_value(&typed).unwrap(), c, "written back unchanged");
            // A results.json written before the field existed reads as not measured.
            let mut older = c.clone();
            older.as_object_mut().unwrap().remove("source_credit_stall");
            assert_eq!(serde_json::from_value::<wormqos_netsim::network::ClassStats>(older).unwrap().source_credit_stall, None);
            classes += 1;
        }
    }
    assert!(classes >= 3, "every point has a class");
    let merged = sharded_and_merged(&dir, &f, 2);
    assert_eq!(csv_without_timing(&merged), csv_without_timing(&whole), "results.csv");
    assert_eq!(json_without_timing(&merged), json, "results.json");
}

#[test]
fn wrong_shard_sets_are_refused() {
    let dir = scratch("wrong");
    let f = dir.join("e.toml");
    std::fs::write(&f, EXP.to_string() + "[sweep]\n\"workload.load\" = [0.05, 0.1, 0.15]\n").unwrap();
    let shards = dir.join("shards");
    for i in 0..3 {
        ok(&wormqos(&["sweep", "--experiment", s(&f), "--out", s(&shards), "--jobs", "1", "--shard", &format!("{i}/3")]));
    }
    let file = |i: usize| shards.join(format!("shard-{i}-of-3.msgpack"));
    let out = dir.join("out");
    let merge = |extra: &[&Path]| {
        let mut args = vec!["merge", "--out", s(&out)];
        args.extend(extra.iter().map(|p| s(p)));
        wormqos(&args)
    };

    refused(&merge(&[&file(0), &file(2)]), &["missing shard files: 1/3"]);
    refused(&merge(&[&file(0), &file(1), &file(1)]), &["shard-1-of-3.msgpack", "given twice"]);
    // a shard of a split into 2 beside shards of a split into 3
    ok(&wormqos(&["sweep", "--experiment", s(&f), "--out", s(&shards), "--jobs", "1", "--shard", "1/2"]));
    refused(&merge(&[&file(0), &shards.join("shard-1-of-2.msgpack"), &file(2)]), &["shard-1-of-2.msgpack", "split into 2"]);
    // the experiment edited before the last shard ran
    std::fs::write(&f, std::fs::read_to_string(&f).unwrap().replace("message_flits = 4", "message_flits = 5")).unwrap();
    ok(&wormqos(&["sweep", "--experiment", s(&f), "--out", s(&dir.join("edited")), "--jobs", "1", "--shard", "2/3"]));
    refused(&merge(&[&file(0), &file(1), &dir.join("edited").join("shard-2-of-3.msgpack")]), &["shard-2-of-3.msgpack", "another grid"]);
    // not a shard file
    refused(&merge(&[&f]), &["e.toml", "not a wormqos shard file"]);
    // shard specs out of range
    for bad in ["3/3", "0/0", "x"] {
        refused(&wormqos(&["sweep", "--experiment", s(&f), "--out", s(&shards), "--shard", bad]), &[bad]);
    }
    assert!(!out.exists(), "nothing written by a refused merge");
}

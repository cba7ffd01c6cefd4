//! The network engine end to end: zero-load latency against the closed form,
//! conservation, the deadlock watchdog, bad input, and a small sweep.

use std::path::PathBuf;
use wormqos_netsim::{run, sweep, Experiment, SimError};

fn mesh(k: u32, load: f64, cycles: u64) -> String {
    format!(
        r#"
name = "t"
[router]
ports = 5
vcs = 4
flit_width = 32
input_buffer_depth = 8
output_buffer_depth = 4
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "mesh"
k = {k}
[workload]
load = {load}
mix = [0, 100]
realtime = "none"
best_effort = "bernoulli"
message_flits = 20
[run]
cycles = {cycles}
warmup_cycles = 2000
seed = 7
"#
    )
}

#[test]
fn mesh_zero_load_latency_matches_the_pipeline() {
    // Each router adds P = 5 cycles to the header; the tail follows M-1 = 19
    // cycles later. Uniform destinations (not self) in a 4x4 mesh: mean
    // Manhattan distance over ordered pairs s != d = 2(k^2-1)/(3k) * k^2/(k^2-1)
    // = 2*16/12 = 2.6667 hops, i.e. 3.6667 routers. Zero-load network latency
    // = 5 * 3.6667 + 19 = 37.33 cycles.
    let v = Experiment::from_str(&mesh(4, 0.004, 400_000), "t.toml", PathBuf::new()).unwrap();
    let r = run(&v).unwrap();
    let be = &r.classes[0];
    assert!(be.messages > 1000, "{}", be.messages);
    // The sample of ~1,200 destinations has a standard error of ~0.2 cycles.
    assert!(be.network_latency >= 36.7 && be.network_latency < 38.3, "{}", be.network_latency);
    // Accepted = offered at this load.
    assert!((r.accepted_throughput - 0.004).abs() < 0.0008, "{}", r.accepted_throughput);
}

#[test]
fn throughput_interval_covers_the_offered_load_and_frame_intervals_need_frames() {
    // Below saturation the long-run accepted throughput is the offered 0.1;
    // the batch-means interval around the measured value should cover it.
    let v = Experiment::from_str(&mesh(4, 0.1, 60_000), "t.toml", PathBuf::new()).unwrap();
    let r = run(&v).unwrap();
    let h = r.ci95.accepted_throughput;
    assert!(h > 0.0 && h < 0.01, "{h}");
    assert!((r.accepted_throughput - 0.1).abs() <= 1.5 * h, "{} ± {h}", r.accepted_throughput);
    // Best effort only: no frames, so no d̄, σ_d or deadline intervals.
    assert!(r.ci95.frame_interval_mean.is_nan() && r.ci95.frame_interval_sd.is_nan());
    assert!(r.ci95.deadline_miss_probability.is_nan());
}

#[test]
fn ring_without_escape_vcs_deadlocks_and_the_watchdog_says_where() {
    let text = r#"
name = "t"
[router]
ports = 2
vcs = 1
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "ring"
nodes = 4
links = 1
[workload]
load = 0.9
mix = [0, 100]
realtime = "none"
message_flits = 20
[run]
cycles = 200000
stall_cycles = 2000
"#;
    let v = Experiment::from_str(text, "t.toml", PathBuf::new()).unwrap();
    match run(&v) {
        Err(SimError::Deadlock { report, .. }) => {
            assert!(report.contains("router") && report.contains("holds output"), "{report}");
        }
        other => panic!("expected a deadlock, got {:?}", other.map(|r| r.accepted_throughput)),
    }
}

#[test]
fn bad_experiment_files_name_the_field() {
    let base = mesh(2, 0.1, 1000);
    let e = Experiment::from_str(&base.replace("seed = 7", "seed = 7\nsede = 1"), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("x.toml") && e.contains("sede"), "{e}");
    let e = Experiment::from_str(&base.replace("load = 0.1", "load = 1.5"), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("x.toml") && e.contains("workload.load") && e.contains("0..=1"), "{e}");
    let e = Experiment::from_str(&base.replace("ports = 5", "ports = 4"), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("x.toml") && e.contains("router.ports = 4"), "{e}");
    let e = Experiment::from_str(&base.replace("realtime = \"none\"", "realtime = \"trace\""), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("workload.trace_file"), "{e}");
    let dir = std::env::temp_dir().join(format!("netsim_trace_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.trace"), "I 5000\nP 12x\n").unwrap();
    let text = base.replace("realtime = \"none\"", "realtime = \"trace\"\ntrace_file = \"bad.trace\"");
    let e = Experiment::from_str(&text, "x.toml", dir.clone()).unwrap_err().to_string();
    assert!(e.contains("bad.trace:2") && e.contains("field 2"), "{e}");
    std::fs::write(dir.join("good.trace"), "I 5000\nP 3000\nB 1000\n").unwrap();
    let text = base.replace("realtime = \"none\"", "realtime = \"trace\"\ntrace_file = \"good.trace\"");
    assert!(Experiment::from_str(&text, "x.toml", dir).is_ok());
}

#[test]
fn small_sweep_runs_every_point_and_reports_the_failing_one() {
    let text = mesh(2, 0.1, 6000) + "[sweep]\n\"workload.load\" = [0.1, 1.5, 0.3]\n";
    let g = sweep::Grid::from_str(&text, "s.toml", PathBuf::new()).unwrap();
    let pts = g.run(2, &|_, _| {});
    assert_eq!(pts.len(), 3);
    assert!(pts[0].result.is_ok() && pts[2].result.is_ok());
    let e = pts[1].result.as_ref().unwrap_err();
    assert!(e.contains("workload.load"), "{e}");
    let csv = sweep::to_csv(&g, &pts);
    assert_eq!(csv.lines().count(), 4);
    let s = sweep::series(&g, &pts, |r| r.accepted_throughput);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].1.len(), 2);
    assert!(s[0].1[1].1 > s[0].1[0].1, "more offered, more accepted: {s:?}");
}

/// `[model] scheduler = "fgfq"` is a simulator option, not a router
/// configuration: it needs the VirtualClock configuration it replaces, and
/// bad values are errors naming the file and field, not panics.
#[test]
fn fgfq_model_scheduler_is_checked_and_runs() {
    let base = mesh(3, 0.2, 20_000).replace("mix = [0, 100]\nrealtime = \"none\"", "mix = [50, 50]\nrealtime = \"poisson\"");
    let with = |sched: &str, model: &str| base.replace("round_robin", sched) + &format!("[model]\nscheduler = \"{model}\"\n");
    let e = Experiment::from_str(&with("round_robin", "fgfq"), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.starts_with("x.toml: model.scheduler") && e.contains("router.scheduler = \"virtualclock\""), "{e}");
    let e = Experiment::from_str(&with("virtualclock", "wfq"), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.starts_with("x.toml:") && e.contains("wfq"), "{e}");
    let fq = run(&Experiment::from_str(&with("virtualclock", "fgfq"), "x.toml", PathBuf::new()).unwrap()).unwrap();
    let vc = run(&Experiment::from_str(&with("virtualclock", "router"), "x.toml", PathBuf::new()).unwrap()).unwrap();
    // Same offered traffic (same seed), so the same accepted load below saturation;
    // but the schedulers order flits differently, so latencies differ.
    assert!((fq.accepted_throughput - vc.accepted_throughput).abs() < 0.01, "{} {}", fq.accepted_throughput, vc.accepted_throughput);
    assert!(fq.messages_delivered > 500);
    assert_ne!(
        fq.classes.iter().map(|c| c.network_latency).collect::<Vec<_>>(),
        vc.classes.iter().map(|c| c.network_latency).collect::<Vec<_>>()
    );
}

//! The network engine end to end: zero-load latency against the closed form,
//! conservation, the deadlock watchdog, bad input, and a small sweep.

use std::path::PathBuf;
use wormqos_netsim::{run, sweep, Experiment, Results, SimError};

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
dateline = false
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
    // 3000 cycles: the 2000 warm-up cycles leave a measured window (run.warmup_cycles).
    let base = mesh(2, 0.1, 3000);
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
    // Line 25: `scheduler` in the appended [model] table.
    assert!(e.starts_with("x.toml:25: model.scheduler") && e.contains("router.scheduler = \"virtualclock\""), "{e}");
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

fn torus(k: u32, n: u32, dateline: bool, load: f64, vcs: u32) -> String {
    format!(
        r#"
name = "t"
[router]
ports = {ports}
vcs = {vcs}
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "torus"
k = {k}
n = {n}
dateline = {dateline}
[workload]
load = {load}
mix = [0, 100]
realtime = "none"
best_effort = "bernoulli"
message_flits = 16
[run]
cycles = 20000
warmup_cycles = 2000
seed = 3
stall_cycles = 3000
drain_cycles = 1000000
"#,
        ports = 1 + 2 * n
    )
}

/// `with` (dateline classes on) drains completely: every message created
/// arrives, every injected flit is ejected. `without` (the same network,
/// classes off) deadlocks and the stall watchdog reports it.
fn drains_with_datelines_deadlocks_without(what: &str, with: &str, without: &str) -> Results {
    let v = Experiment::from_str(with, "t.toml", PathBuf::new()).unwrap();
    // The builder gave every router a table.
    assert!(v.configs.iter().all(|c| c.route_vc_table().is_some()), "{what}");
    let r = run(&v).unwrap_or_else(|e| panic!("{what} with datelines: {e}"));
    eprintln!("{what}: accepted {:.3}, {} messages", r.accepted_throughput, r.messages_delivered);
    assert!(r.messages_created > 1000, "{what}: {}", r.messages_created);
    assert_eq!(r.messages_delivered, r.messages_created, "{what}");
    assert_eq!(r.flits_ejected, r.flits_injected, "{what}");

    let v = Experiment::from_str(without, "t.toml", PathBuf::new()).unwrap();
    assert!(v.configs.iter().all(|c| c.route_vc_table().is_none()), "{what}");
    match run(&v) {
        Err(SimError::Deadlock { report, .. }) => assert!(report.contains("holds output"), "{report}"),
        Err(SimError::Deadlocked { report, .. }) => assert!(report.contains("holds output"), "{report}"),
        other => panic!("{what} without datelines: expected a deadlock, got {:?}", other.map(|r| r.accepted_throughput)),
    }
    r
}

/// With the dateline VC classes (docs/microarchitecture.md §11) a loaded
/// torus and a ring drain; without them they deadlock.
#[test]
fn torus_with_dateline_classes_drains_and_without_deadlocks() {
    for (k, n) in [(4, 2), (8, 1)] {
        let what = format!("{k}-ary {n}-cube");
        let r = drains_with_datelines_deadlocks_without(&what, &torus(k, n, true, 1.0, 2), &torus(k, n, false, 1.0, 2));
        // Loaded past what uniform traffic on one ring per dimension carries.
        assert!(r.accepted_throughput > 0.2, "{what}: {}", r.accepted_throughput);
    }
}

/// The 004_… multi-link ring: every one of its `links` unidirectional rings
/// is a channel cycle, so loaded it deadlocks without dateline classes and
/// drains with them.
#[test]
fn multi_link_ring_with_dateline_classes_drains_and_without_deadlocks() {
    let ring = |dateline: bool| {
        torus(8, 1, dateline, 1.0, 2)
            .replace("kind = \"torus\"\nk = 8\nn = 1\n", "kind = \"ring\"\nnodes = 8\nlinks = 2\n")
    };
    drains_with_datelines_deadlocks_without("8-node 2-link ring", &ring(true), &ring(false));
}

#[test]
fn torus_datelines_need_two_vcs_per_class() {
    let e = Experiment::from_str(&torus(4, 2, true, 0.1, 1), "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("router.vcs") && e.contains("2..=16") && e.contains("dateline"), "{e}");
    // k = 3 needs no dateline: one VC is enough, and every VC is allowed.
    let v = Experiment::from_str(&torus(3, 2, true, 0.1, 1), "x.toml", PathBuf::new()).unwrap();
    assert!(v.configs.iter().all(|c| c.route_vc_table().is_none()));
    // NP with three classes on 4 VCs leaves a class with one VC.
    let np = torus(4, 2, true, 0.1, 4).replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 1]");
    let e = Experiment::from_str(&np, "x.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("router.vcs") && e.contains("every traffic class"), "{e}");
    // With 6 VCs (two per class) each class splits in two.
    let v = Experiment::from_str(&np.replace("vcs = 4", "vcs = 6"), "x.toml", PathBuf::new()).unwrap();
    let c = &v.configs[0];
    let part = c.vc_classes().unwrap().to_vec();
    for d in 0..16u64 {
        let mask = c.route_vcs(d);
        for class in 0..3u32 {
            let of_class = (0..6).filter(|&u| part[u] == class && mask >> u & 1 == 1).count();
            assert!(of_class >= 1, "destination {d} mask {mask:#b} partition {part:?}");
        }
    }
}

/// 001_… Fig. 4 fat mesh: 2×2 switches of 8 ports, 4 endpoints each, two
/// links between neighbours. The router picks the parallel link with the
/// most free output VCs (docs/microarchitecture.md §2), so under uniform
/// traffic both links of every pair carry traffic and the load splits about
/// evenly; everything drains.
#[test]
fn fat_mesh_splits_the_load_over_both_parallel_links() {
    let text = r#"
name = "fm"
[router]
ports = 8
vcs = 4
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "full"
scheduler = "round_robin"
[topology]
kind = "fat_mesh"
k = 2
links = 2
endpoints = 4
[workload]
load = 0.5
mix = [0, 100]
realtime = "none"
best_effort = "bernoulli"
message_flits = 16
[run]
cycles = 40000
warmup_cycles = 2000
seed = 9
drain_cycles = 200000
"#;
    let v = Experiment::from_str(text, "fm.toml", PathBuf::new()).unwrap();
    assert!(v.configs.iter().all(|c| c.route_links(5) == 2 || c.route_links(5) == 1));
    let r = run(&v).unwrap();
    assert_eq!(r.messages_delivered, r.messages_created);
    // Links between switches: 4 switches x 2 neighbours x 2 links.
    assert_eq!(r.link_flits.len(), 16);
    let mut pairs = 0;
    let mut shares = vec![];
    for &(sr, sp, c) in &r.link_flits {
        // Ports 4,5 go to one neighbour, 6,7 to the other: pair = (4,5) or (6,7).
        if sp % 2 == 1 {
            continue;
        }
        let other = r.link_flits.iter().find(|&&(r2, p2, _)| r2 == sr && p2 == sp + 1).unwrap().2;
        let share = c as f64 / (c + other) as f64;
        eprintln!("router {sr} ports {sp}/{}: {c} / {other} flits (first link {:.1} %)", sp + 1, 100.0 * share);
        assert!(c > 1000 && other > 1000, "router {sr} ports {sp}/{}: {c} / {other}", sp + 1);
        assert!((0.4..=0.6).contains(&share), "router {sr} ports {sp}/{}: {c} / {other}", sp + 1);
        shares.push(share);
        pairs += 1;
    }
    assert_eq!(pairs, 8);
    // docs/reproduction.md (001_… Fig. 13) quotes the first link's share.
    let (lo, hi) = shares.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reproduction.md")).unwrap();
    let quoted = format!("link of every pair carries {:.0}–{:.0} % of the pair's flits", 100.0 * lo, 100.0 * hi);
    assert!(doc.contains(&quoted), "docs/reproduction.md should say \"{quoted}\"");
}

/// The routers' §9 event counters reach the results: a loaded preemptive
/// switch with acceleration preempts and accelerates, the same switch
/// without acceleration never accelerates, and an unpartitioned one never
/// preempts.
#[test]
fn router_event_counters_reach_the_results() {
    let exp = |mode: &str, acc: bool| {
        format!(
            r#"
name = "ev"
[router]
ports = 4
vcs = 4
flit_width = 64
input_buffer_depth = 16
output_buffer_depth = 8
crossbar = "multiplexed"
scheduler = "virtualclock"
{mode}
[topology]
kind = "single_switch"
[workload]
load = 0.8
mix = [50, 50]
realtime = "vbr"
best_effort = "poisson"
message_flits = 40
control = true
control_flits = 20
[run]
cycles = 300000
warmup_cycles = 4000
seed = 5
"#,
            mode = if mode.is_empty() { String::new() } else { format!("mode = \"{mode}\"\nacceleration = {acc}") }
        )
    };
    let run_it = |text: String| run(&Experiment::from_str(&text, "ev.toml", PathBuf::new()).unwrap()).unwrap();
    let pa = run_it(exp("preemptive", true));
    eprintln!("P+acc: {:?}", pa.router_events);
    assert!(pa.router_events.preemptions + pa.router_events.silent_preemptions > 0, "{:?}", pa.router_events);
    assert!(pa.router_events.accelerations > 0, "{:?}", pa.router_events);
    assert!(pa.messages_delivered > 5_000, "{}", pa.messages_delivered);
    let p = run_it(exp("preemptive", false));
    assert!(p.router_events.preemptions + p.router_events.silent_preemptions > 0, "{:?}", p.router_events);
    assert_eq!(p.router_events.accelerations, 0);
    let u = run_it(exp("", false));
    assert_eq!((u.router_events.preemptions, u.router_events.accelerations, u.router_events.dummy_headers), (0, 0, 0));
}

/// Real-time streams come whole, so the load a workload offers differs from
/// `workload.load`: the summary's offered load is what the sources inject
/// (measured here), not the stated figure.
#[test]
fn the_reported_offered_load_is_what_the_sources_inject() {
    let text = mesh(2, 0.3, 400_000).replace("mix = [0, 100]\nrealtime = \"none\"", "mix = [35, 65]\nrealtime = \"cbr\"\nframe_bytes = 1000\nframes_per_second = 3000");
    let r = run(&Experiment::from_str(&text, "x.toml", PathBuf::new()).unwrap()).unwrap();
    let injected = r.flits_injected as f64 / (r.endpoints as f64 * r.cycles as f64);
    assert!((r.offered_load - injected).abs() / injected < 0.03, "reported {} vs injected {injected}", r.offered_load);
    // Whole streams cannot carry the 0.105 real-time share exactly, so the
    // stated load is not what was offered and must not be reported as such.
    assert!((r.requested_load - injected).abs() / injected > 0.05, "stated {} vs injected {injected}", r.requested_load);
    assert_eq!(r.requested_load, 0.3);
}

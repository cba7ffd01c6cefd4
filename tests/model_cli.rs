//! `wormqos model` end to end: bad model inputs exit 2 naming the field and
//! write nothing; a grid writes the sweep's columns with a `source` column,
//! says "saturated" past saturation, runs in well under a second, and
//! `--with-sim` puts the simulation beside it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn wormqos(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wormqos")).args(args).output().expect("run wormqos")
}

/// 000_… Table 1 as in experiments/fig4_000_np.toml (16-port VirtualClock
/// router, 3 VCs, one per class, M = b_s = 32), one light point, short run.
fn table1() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig4_000_np.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let edited = text.split("[sweep]").next().unwrap().replace("load = 0.48", "load = 0.128").replace("mix = [0.16, 0.32]", "mix = [0.064, 0.064]");
    let edited = edited.replace("cycles = 1000000", "cycles = 40000").replace("warmup_cycles = 20000", "warmup_cycles = 4000");
    assert!(edited.contains("load = 0.128") && edited.contains("cycles = 40000"), "fig4_000_np.toml changed: {edited}");
    edited
}

/// Without the partition lines (any class on any VC), or with another one.
fn with_vc_classes(text: &str, line: Option<&str>) -> String {
    text.lines()
        .filter(|l| !l.starts_with("mode =") || line.is_some())
        .map(|l| if l.starts_with("vc_classes =") { line.unwrap_or("") } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wormqos_model_cli_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, text: &str, extra: &[&str]) -> (std::process::Output, PathBuf) {
    let f = dir.join("e.toml");
    std::fs::write(&f, text).unwrap();
    let out = dir.join("out");
    let mut args = vec!["model", "--experiment", f.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    (wormqos(&args), out)
}

#[test]
fn bad_model_inputs_exit_2_naming_the_field_and_write_nothing() {
    let dir = scratch("deadline");
    let (o, out) = run(&dir, &table1(), &["--deadline=-3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--deadline"));
    assert!(!out.exists());
    let t1 = table1();
    // The second ring strategy cannot be simulated: refused with --with-sim.
    let ring = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/multilink_ring_004.toml")).unwrap();
    let dir = scratch("strategy");
    let (o, out) = run(&dir, &ring, &["--ring-strategy", "source-block", "--with-sim"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--ring-strategy"));
    assert!(!out.exists());
    let (o, out) = run(&dir, &table1(), &["--ring-strategy", "source-block"]);
    assert_eq!(o.status.code(), Some(2), "source-block on a single switch");
    assert!(String::from_utf8_lossy(&o.stderr).contains("topology.kind") && !out.exists());
    // --hops only on a hypercube.
    let (o, out) = run(&dir, &table1(), &["--hops", "2", "--deadline", "50"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--hops") && !out.exists());
    // --flit-sharing: a variant of the hypercube's VC-queue rows only.
    let cube = base("fig7_000_cube6.toml");
    let (o, out) = run(&dir, &cube, &["--flit-sharing"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "--flit-sharing without --vc-queue: {err}");
    assert!(err.contains("--flit-sharing") && err.contains("--vc-queue") && err.contains("e.toml") && !out.exists(), "{err}");
    let (o, out) = run(&dir, &table1(), &["--vc-queue", "--flit-sharing"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "--flit-sharing on a single switch: {err}");
    assert!(err.contains("--flit-sharing") && err.contains("hypercube") && !out.exists(), "{err}");
    // --body-behind: a variant of the flit row only.
    let (o, out) = run(&dir, &cube, &["--vc-queue", "--body-behind"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "--body-behind without --flit-sharing: {err}");
    assert!(err.contains("--body-behind") && err.contains("--flit-sharing") && err.contains("e.toml") && !out.exists(), "{err}");
    let cases: [(&str, String, &str); 7] = [
        ("scheduler", with_vc_classes(&t1, None).replace("\"virtualclock\"", "\"round_robin\""), "router.scheduler"),
        // Unpartitioned: any class may take any output VC, not the model's router.
        ("shared", with_vc_classes(&t1, None), "router.mode"),
        ("vcs", with_vc_classes(&t1, Some("vc_classes = [2, 2, 1, 1, 0, 0]")).replace("vcs = 3", "vcs = 6"), "router.vcs"),
        ("buffers", t1.replace("output_buffer_depth = 32", "output_buffer_depth = 16"), "router.output_buffer_depth"),
        ("bernoulli", t1.replace("best_effort = \"poisson\"", "best_effort = \"bernoulli\""), "workload.best_effort"),
        ("rates", t1.clone() + "[model]\nrealtime_rates = [1.0, -1.0]\n", "model.realtime_rates"),
        // A bad value in one sweep point stops the run before any write.
        ("point", t1.clone() + "[sweep]\n\"workload.load\" = [0.1, 1.5]\n", "workload.load"),
    ];
    for (name, text, field) in cases {
        let dir = scratch(name);
        let (o, out) = run(&dir, &text, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(field) && err.contains("e.toml"), "{name}: must name {field} and the file: {err}");
        assert!(!out.exists(), "{name}: nothing may be written");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// An experiment file of `experiments/` without its `[sweep]`.
fn base(name: &str) -> String {
    let text = std::fs::read_to_string(format!("{}/experiments/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.split("[sweep]").next().unwrap().to_string()
}

/// `text` with `from` replaced by `to`, which must be there once.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} not once in the base file");
    text.replacen(from, to, 1)
}

/// The refusals of the torus, ring and workload inputs the models do not
/// cover (002_… and 004_… one Poisson class, 002_…'s shared VCs, no phases,
/// control traffic or link registers; the Vtick scale's range): exit 2,
/// naming the file and the line the field is written on, the field and the
/// value, and nothing written.
#[test]
fn model_refusals_name_the_file_line_field_and_value() {
    let torus = base("torus_002_atomic.toml");
    let ring = base("multilink_ring_004.toml");
    let t1 = table1();
    let cases: Vec<(&str, String, &str, &str, &str)> = vec![
        // (name, file text, field, value as printed, the line's text)
        ("dateline", edit(&torus, "shared_vcs = \"any\"", "shared_vcs = \"after_dateline\""), "topology.shared_vcs", "\"after_dateline\"", "shared_vcs = \"after_dateline\""),
        ("torus_rt", edit(&edit(&torus, "realtime = \"none\"", "realtime = \"poisson\""), "mix = [0, 100]", "mix = [50, 50]"), "workload.realtime", "Poisson", "realtime = \"poisson\""),
        ("ring_rt", edit(&edit(&ring, "realtime = \"none\"", "realtime = \"poisson\""), "mix = [0, 100]", "mix = [50, 50]"), "workload.realtime", "Poisson", "realtime = \"poisson\""),
        ("control", edit(&ring, "message_flits = 10", "message_flits = 10\ncontrol = true"), "workload.control", "true", "control = true"),
        ("link_latency", edit(&ring, "links = 4", "links = 4\nlink_latency = 1"), "topology.link_latency", "1", "link_latency = 1"),
        ("phases", edit(&t1, "[workload]", "[workload]\nphases = [[50, 50], [50, 50]]\nphase_seconds = 0.0001"), "workload.phases", "[50", "phases = [[50, 50], [50, 50]]"),
        ("vtick_zero", t1.clone() + "[model]\nvtick_scale = 0\n", "model.vtick_scale", "0", "vtick_scale = 0"),
        ("vtick_high", t1.clone() + "[model]\nvtick_scale = 101\n", "model.vtick_scale", "101", "vtick_scale = 101"),
        ("torus_vcs", edit(&torus, "vcs = 3", "vcs = 1"), "router.vcs", "1", "vcs = 1"),
    ];
    for (name, text, field, value, line_text) in cases {
        // the line is counted here from the text written, not by the tool
        let line = text.lines().position(|l| l.trim_start().starts_with(line_text)).unwrap_or_else(|| panic!("{name}: no line {line_text:?}")) + 1;
        let dir = scratch(name);
        let (o, out) = run(&dir, &text, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(&format!("e.toml:{line}: {field} = ")), "{name}: must name e.toml:{line} and {field}: {err}");
        assert!(err.contains(value), "{name}: must show the value {value}: {err}");
        assert!(!out.exists(), "{name}: nothing may be written");
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn a_grid_writes_the_sweep_columns_and_says_saturated() {
    let dir = scratch("grid");
    // Real time 0.002 .. 0.03 messages/cycle/port; 0.03 is past the
    // single router's saturation (the VC occupancy chain has no steady state).
    let text = table1()
        + "[sweep]\n\"workload.load+workload.mix\" = [[0.128, [0.064, 0.064]], [0.384, [0.32, 0.064]], [1.0, [0.96, 0.04]]]\n";
    let t = std::time::Instant::now();
    let (o, out) = run(&dir, &text, &[]);
    let secs = t.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(secs < 1.0, "a 3-point grid took {secs} s");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("source,workload.load+workload.mix,") && lines[0].contains("rt_latency_cycles"), "{}", lines[0]);
    assert!(lines[1].starts_with("model:kim2005,"), "{}", lines[1]);
    assert!(lines[3].contains("saturated"), "{}", lines[3]);
    assert!(!lines[1].contains("saturated") && !lines[1].contains("inf"), "{}", lines[1]);
    // Light load: R2's (class 1) network latency is at least P − 1 + M = 36
    // and inflated only by a few cycles of sharing with R1 (S_2(1) = 3).
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("| 1 | model:kim2005 |"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let c1 = &json["points"][0]["results"]["classes"][1];
    assert_eq!(c1["class"], 1);
    let l = c1["network_latency"].as_f64().unwrap();
    assert!((36.0..45.0).contains(&l), "{l}");
    assert!(out.join("network_latency_class2.svg").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn with_sim_overlays_model_and_simulation() {
    let dir = scratch("withsim");
    let text = table1() + "[sweep]\n\"workload.load\" = [0.128]\n";
    let (o, out) = run(&dir, &text, &["--with-sim", "--jobs", "1", "--deadline", "42"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // dmp.csv: P{L > 42} of both real-time classes, model and simulation.
    let dmp = std::fs::read_to_string(out.join("dmp.csv")).unwrap();
    for who in ["model:kim2005", "sim"] {
        for class in [1, 2] {
            let row = dmp.lines().find(|l| l.starts_with(who) && l.contains(&format!(",{class},42,"))).unwrap_or_else(|| panic!("{who} {class}: {dmp}"));
            let p: f64 = row.rsplit(',').next().unwrap().parse().unwrap();
            assert!((0.0..=1.0).contains(&p), "{row}");
        }
    }
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("model:kim2005,")) && csv.lines().any(|l| l.starts_with("sim,")), "{csv}");
    // The comparison table gives the model's error against the simulation.
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("% (sim "), "{stdout}");
    check_latency_components(&out);
    std::fs::remove_dir_all(&dir).ok();
}

/// 000_… Figs 5 and 8's split in `latency_components.csv`, against the
/// same run's `source_queue.csv`: queueing = the source wait; transfer =
/// P − 1 + M = 36 cycles for model and simulation alike (one router, every
/// message 32 flits: by hand); blocking and sharing = network latency − 36;
/// each model row's errors 100 (model − sim) / sim of those parts.
fn check_latency_components(out: &Path) {
    let parts = std::fs::read_to_string(out.join("latency_components.csv")).unwrap();
    let queue = std::fs::read_to_string(out.join("source_queue.csv")).unwrap();
    assert!(
        parts.starts_with("source,point,class,queueing_cycles,transfer_cycles,blocking_sharing_cycles,queueing_error_percent,transfer_error_percent,blocking_sharing_error_percent\n"),
        "{parts}"
    );
    let fields = |text: &str, src: &str, class: u8| -> Vec<f64> {
        let l = text.lines().find(|l| l.starts_with(&format!("{src},")) && l.split(',').nth(2) == Some(&class.to_string())).unwrap_or_else(|| panic!("{src} {class}: {text}"));
        l.split(',').skip(3).map(|x| x.parse().unwrap()).collect()
    };
    for class in 0..3u8 {
        let mut split = Vec::new();
        for src in ["model:kim2005", "sim"] {
            let (p, q) = (fields(&parts, src, class), fields(&queue, src, class));
            // source_queue.csv: network latency, source wait, latency.
            assert_eq!(p[0], q[1], "{src} class {class}: queueing");
            assert_eq!(p[1], 36.0, "{src} class {class}: transfer");
            assert!((p[2] - (q[0] - 36.0)).abs() < 1e-9, "{src} class {class}: blocking {} against {}", p[2], q[0] - 36.0);
            split.push(p);
        }
        let (m, s) = (&split[0], &split[1]);
        for i in 0..3 {
            let want = format!("{:.1}", 100.0 * (m[i] - s[i]) / s[i]);
            assert_eq!(format!("{:.1}", m[3 + i]), want, "class {class} part {i}: error");
            assert!(s[3 + i].is_nan(), "a simulated row has no error");
        }
    }
}

#[test]
fn ring_throughput_bound_of_eq_23_in_the_papers_units() {
    // experiments/fig8_004.toml (004_… Fig. 8(a): 16 nodes, v_c = 4, 2 KB
    // packets of 5 flits at 624 Mbit/s), model only, loads 0.05 and 0.6.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig8_004.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("message_flits = 10", "message_flits = 5") + "[sweep]\n\"workload.load\" = [0.05, 0.6]\n";
    assert!(text.contains("message_flits = 5") && text.contains("packet_bits = 16384") && text.contains("link_mbps = 624"), "fig8_004.toml changed");
    let dir = scratch("eq23");
    let (o, out) = run(&dir, &text, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("throughput.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("source,point,service_cycles,lambda_max_packets_per_cycle,lambda_max_packets_per_s,"), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + 2 * 4, "{csv}");
    let field = |line: &str, i: usize| -> f64 { line.split(',').nth(i).unwrap().parse().unwrap() };
    // One flit time = 16384 bits / 5 / 624 Mbit/s = 5.2513 µs. At light load
    // the M/M/n t̄_s is its zero-load value by hand: the header's t_s^0 = 1
    // plus H_avg = round(64/15) = 4 hops of t_r + t_flt = 5, then M − 1 = 4
    // flits: 25 cycles; λ_max = 1/25 packets per flit time = 7617.2 packets/s.
    let flit_s = 16384.0 / 5.0 / 624e6;
    let mmn = lines.iter().find(|l| l.starts_with("model:mmn,\"workload.load=0.05")).unwrap();
    assert!((field(mmn, 2) - 25.0).abs() < 1e-3, "{mmn}");
    assert!((field(mmn, 3) * field(mmn, 2) - 1.0).abs() < 1e-12, "{mmn}");
    assert!((field(mmn, 4) - 0.04 / flit_s).abs() < 0.5, "{mmn}");
    // Offered per direction: 0.05/5 packets/cycle/node, half each way.
    assert!((field(mmn, 5) - 0.005 / flit_s).abs() < 1e-6, "{mmn}");
    // T in ms from results.csv's message latency (cycles) × the flit time.
    let res = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let head: Vec<&str> = res.lines().next().unwrap().split(',').collect();
    let col = head.iter().position(|h| *h == "be_latency_cycles").unwrap();
    let row = res.lines().find(|l| l.starts_with("model:mmn,0.05,")).unwrap();
    let t_cycles: f64 = row.split(',').nth(col).unwrap().parse().unwrap();
    assert!((field(mmn, 6) - t_cycles * flit_s * 1e3).abs() < 1e-9, "{mmn} vs {t_cycles}");
    // Eq. (8)'s segmentation queue alone (the last two columns): at 0.05
    // ρ = λ_dir t̄_s = 0.005 · 25 = 0.125 and the M/D/1 wait T − t̄_s =
    // t̄_s ρ/(2(1 − ρ)) = 25 · 0.125/1.75 = 1.785714 cycles; the M/M/1 form
    // (`markov_mm1`) waits t̄_s ρ/(1 − ρ), twice M/D/1's at the same t̄_s.
    let (rho, wait) = (field(mmn, 8), field(mmn, 9));
    assert!((rho - 0.125).abs() < 1e-6, "{mmn}");
    assert!((wait - 1.785_714 * flit_s * 1e3).abs() < 1e-5 * wait, "{mmn}: {} cycles", wait / flit_s / 1e3);
    let [md1, mm1] = ["model:markov,\"workload.load=0.05", "model:markov_mm1,\"workload.load=0.05"].map(|p| *lines.iter().find(|l| l.starts_with(p)).unwrap());
    assert_eq!(field(md1, 2), field(mm1, 2), "one t̄_s");
    assert!((field(mm1, 9) - 2.0 * field(md1, 9)).abs() < 1e-9 * field(mm1, 9), "{md1} {mm1}");
    // At 0.6 every model's segmentation queue is saturated (λ_dir > λ_max),
    // but Eq. 23's bound itself is finite and below the offered rate.
    for l in lines.iter().filter(|l| l.contains("load=0.6")) {
        assert!(l.contains("saturated") && field(l, 4) < field(l, 5), "{l}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A simulated point that does not carry its load is reported as such, not
/// by its mean latency: experiments/fig8_004.toml with 5-flit packets and
/// the paper's NI (one segmentation queue per direction held until the tail
/// is delivered) carries 0.05 but not 0.4 flits/node/cycle (a source sends
/// at most one packet per direction per service of ~32 cycles, 2 · 5/32 ≈
/// 0.31; docs/reproduction.md, "Fig. 9 with the paper's NI"): at 0.4 the
/// `sim` row of throughput.csv says "sim saturated" in its `error` cell and
/// comparison.txt gives the Markov model (finite there) no latency error
/// against it, only the network latency's; at 0.05 both errors.
#[test]
fn a_saturated_simulation_is_reported_as_such() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig8_004.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("message_flits = 10", "message_flits = 5\nsource_queues = \"per_direction_until_delivered\"");
    let text = text.replace("cycles = 100000", "cycles = 20000").replace("warmup_cycles = 10000", "warmup_cycles = 2000") + "[sweep]\n\"workload.load\" = [0.05, 0.4]\n";
    assert!(text.contains("cycles = 20000") && text.contains("source_queues"), "fig8_004.toml changed");
    let dir = scratch("simsat");
    let (o, out) = run(&dir, &text, &["--with-sim", "--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("throughput.csv")).unwrap();
    let sim = |load: &str| csv.lines().find(|l| l.starts_with(&format!("sim,\"workload.load={load}\""))).unwrap_or_else(|| panic!("{csv}"));
    assert!(sim("0.4").contains(",\"sim saturated: accepted 0."), "{}", sim("0.4"));
    assert!(sim("0.05").contains(",\"\","), "{}", sim("0.05"));
    let table = std::fs::read_to_string(out.join("comparison.txt")).unwrap();
    let markov = |load: &str| table.lines().find(|l| l.starts_with(&format!("workload.load={load} ")) && l.contains("| model:markov |")).unwrap_or_else(|| panic!("{table}"));
    assert_eq!(markov("0.05").matches("% (sim ").count(), 2, "{}", markov("0.05"));
    assert_eq!(markov("0.4").matches("% (sim ").count(), 1, "{}", markov("0.4"));
    assert!(markov("0.4").contains("| - (sim saturated: accepted 0."), "{}", markov("0.4"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `model.source_queue = "mg1"`: the Eq. (8) rows become `*_mg1` and
/// wait Pollaczek–Khinchine's W = λ E[S²]/(2(1 − ρ)), E[S²] = t̄_s² +
/// 5² Var(h). On experiments/fig8_004.toml (16 nodes, 5-flit packets) at
/// 0.05: t̄_s = 25 (M/M/n by hand, above), λ = 0.005, ρ = 0.125; the 16-node
/// ring's Var(h) = 1064/225 (hops 1..=7 both ways, 8 one way, counted in
/// `multilink_ring.rs`), so E[S²] = 625 + 25 · 1064/225 = 743.2222 and W =
/// 0.005 · 743.2222/1.75 = 2.123492 cycles (M/D/1: 1.785714). Fig. 8's
/// M/M/1 row stays `markov_mm1`.
#[test]
fn ring_mg1_source_queue_by_hand() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig8_004.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("message_flits = 10", "message_flits = 5").replace("packet_bits = 16384", "packet_bits = 16384\nsource_queue = \"mg1\"")
        + "[sweep]\n\"workload.load\" = [0.05]\n";
    assert!(text.contains("message_flits = 5") && text.contains("source_queue = \"mg1\""), "fig8_004.toml changed");
    let dir = scratch("mg1");
    let (o, out) = run(&dir, &text, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("throughput.csv")).unwrap();
    let names: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(names, ["model:mmn_mg1", "model:mdn_mg1", "model:markov_mg1", "model:markov_mm1"], "{csv}");
    let mmn = csv.lines().nth(1).unwrap();
    let field = |i: usize| -> f64 { mmn.split(',').nth(i).unwrap().parse().unwrap() };
    let flit_ms = 16384.0 / 5.0 / 624e6 * 1e3;
    assert!((field(2) - 25.0).abs() < 1e-3 && (field(8) - 0.125).abs() < 1e-6, "{mmn}");
    assert!((field(9) / flit_ms - 2.123_492).abs() < 1e-5, "{mmn}: {} cycles", field(9) / flit_ms);
    std::fs::remove_dir_all(&dir).ok();
}

/// The burst-scale fluid row `model:kim2005_fluid` (`onoff_fluid.rs`) on a
/// case small enough to solve by hand: experiments/fig12_000_onoff_bursts.toml
/// on a 2-port router with K = 2 streams per port, g = 40 cycles (I = N(K/λ
/// − g) = 10·(2/0.004 − 40) = 4,600 cycles = 368 µs): the source link is
/// a fluid queue of n = 2 sources (with two ports every
/// other stream picks the one other endpoint), r = 32/40 = 0.8, c = 1,
/// α = 1/4600, β = 1/400, drifts (−1, −0.2, 0.6), p = 400/5000 = 0.08.
/// Generator diagonal q = (−2α, −(α + β), −2β), off-diagonals 2α, α
/// (up) and β, 2β (down). Expanding the tridiagonal determinant,
/// det(Q − zD) = z(c3 z² + c2 z + c1) with c3 = −d0 d1 d2 = −0.12,
/// c2 = q0 d1 d2 + d0(q1 d2 + q2 d1) = 6.826087e-4 and
/// c1 = q0(−q1 d2 − q2 d1) − d0(q1 q2 − 2αβ) + 2αβ d2 = 1.287807e-5; its
/// negative root z = (−c2 + √(c2² − 4 c3 c1))/(2 c3) = −0.00789855,
/// the left null vector with φ2 = 1: φ1 = −(q2 − 0.6z)/α = 1.2,
/// φ0 = −β φ1/(q0 + z) = 0.36; F_2(0) = 0 gives a = −π_2 = −0.0064;
/// E[Q] = a(φ0 + φ1 + φ2)/z = 0.0064·2.56/0.00789855 = 2.074305 flits;
/// Λ = n p r = 0.128: 16.2055 cycles. The packet-scale source
/// wait (onoff_source.rs with N = 1): R = (K − 1)/K · λ M²/2 = 1.024,
/// W = R/(1 − σ) = 1.024/0.872 = 1.174312. So the real-time class's source
/// wait is 1.174312 + 16.2055; the destination link, in tandem behind
/// it, carries only those two streams at most c: its network latency is
/// `kim2005`'s (the sum of the two links gave `kim2005`'s + 16.2055).
/// A bad ON/OFF input exits 2 naming the field and writes nothing.
#[test]
fn burst_scale_fluid_row_by_hand_and_its_inputs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig12_000_onoff_bursts.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("ports = 16", "ports = 2").replace("onoff_streams = 1\n", "onoff_streams = 2\n").replace("onoff_mean_off_us = 173.6", "onoff_mean_off_us = 368.0");
    assert!(text.contains("ports = 2") && text.contains("onoff_streams = 2\n") && text.contains("= 368.0"), "fig12_000_onoff_bursts.toml changed");
    let dir = scratch("fluid");
    let (o, out) = run(&dir, &text, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let parts = std::fs::read_to_string(out.join("latency_parts.csv")).unwrap();
    assert!(parts.starts_with("source,point,class,source_wait_cycles,source_wait_error_percent,network_latency_cycles,network_latency_error_percent,credit_stall_cycles\n"), "{parts}");
    let row = |src: &str, class: u8| -> Vec<f64> {
        let l = parts.lines().find(|l| l.starts_with(&format!("{src},,{class},"))).unwrap_or_else(|| panic!("{src} {class}: {parts}"));
        l.split(',').skip(3).map(|x| x.parse().unwrap()).collect()
    };
    let (fluid, base) = (row("model:kim2005_fluid", 1), row("model:kim2005", 1));
    let per_link = 16.205_504_6;
    assert!((fluid[0] - (1.174_311_9 + per_link)).abs() < 1e-5, "source wait {}", fluid[0]);
    // In tandem the destination link adds nothing on two ports (it carries
    // only what the source link already limited to c; `onoff_fluid.rs`).
    assert!((fluid[2] - base[2]).abs() < 1e-9, "network latency {} vs kim2005 {}", fluid[2], base[2]);
    // Best effort keeps kim2005's values; no simulation, no errors.
    let (be_fluid, be) = (row("model:kim2005_fluid", 0), row("model:kim2005", 0));
    assert!(be_fluid[0] == be[0] && be_fluid[2] == be[2], "{be_fluid:?} {be:?}");
    assert!(fluid[1].is_nan() && fluid[4].is_nan(), "{parts}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("model:kim2005_fluid,")), "{csv}");
    for (name, bad, field) in [("streams", "onoff_streams = 0\n", "workload.onoff_streams"), ("burst", "onoff_streams = 2\nonoff_mean_messages = 0.5\n", "workload.onoff_mean_messages")] {
        let dir = scratch(name);
        let (o, out) = run(&dir, &text.replace("onoff_streams = 2\n", bad), &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(field) && err.contains("e.toml"), "{name}: {err}");
        assert!(!out.exists(), "{name}: nothing may be written");
        std::fs::remove_dir_all(&dir).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The fluid row where its spectral solution cannot be trusted gives no
/// number, marked as every model marks a point it cannot answer (empty
/// cells, the reason in `error`; exit 0): experiments/fig12_000_onoff.toml
/// at 0.64 (14 streams per port with g = 1400 − 1250 = 150 cycles, so
/// r = 32/150 and a destination link of 19 or more streams overloads
/// enough to leave the f64 system ill-conditioned; those counts weigh
/// about 16 % of binomial(209, 1/15)), while `kim2005_onoff` answers.
#[test]
fn an_unsolvable_fluid_row_is_marked_not_a_number() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig12_000_onoff.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().to_string() + "[sweep]\n\"workload.load+workload.mix\" = [[0.64, [0.32, 0.32]]]\n";
    let dir = scratch("fluid_guard");
    let (o, out) = run(&dir, &text, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let row = |source: &str| csv.lines().find(|l| l.starts_with(source)).unwrap_or_else(|| panic!("{source} in {csv}")).to_string();
    let fluid = row("model:kim2005_fluid,");
    let cells: Vec<&str> = fluid.split(',').collect();
    assert_eq!(cells[col("rt_latency_cycles")], "", "{fluid}");
    assert!(cells[col("error")].starts_with("\"not modelled: class 1's burst-scale fluid queue"), "{fluid}");
    let onoff = row("model:kim2005_onoff,");
    assert!(onoff.split(',').nth(col("rt_latency_cycles")).unwrap().parse::<f64>().unwrap() > 0.0, "{onoff}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The tandem row `model:kim2005_tandem` (`BurstClass::coupled_delay`,
/// which at K = 1 is `BurstClass::tandem_delay`: the one stream's blocking
/// at its destination is its destination link's queue) by hand: experiments/fig12_000_onoff_bursts.toml's first point (K = 1,
/// g = 33, N = 10, I = 173.6 µs = 2,170 cycles, M = 32) on a 3-port router.
/// r = M/g = 32/33, T_on = N g = 330, c = 1 (the only real-time class).
/// Source link, served at c·M/(M + 2) = 16/17 < r: one fluid source,
/// α = 1/2170, β = 1/330; its negative root z = α/c_s − β/(r − c_s)
/// = 4.8963e-4 − 3.0303e-3/(0.969697 − 0.941176) = −0.1057604;
/// φ = (φ0, 1) with φ0 = −β/(−α + z c_s) = 0.0303030; F_ON(0) = 0 gives
/// a = −π_ON = −330/2500 = −0.132; E[Q] = a(φ0 + 1)/z = 1.2859259 flits,
/// Λ = π_ON r = 0.128: 10.0462963 cycles. The packet-scale wait is 0 for
/// K = 1 (R = (K − 1)/K · λM²/2 = 0), so the source wait is 10.0462963.
/// Destination link: the one other stream that may pick the tagged one's
/// destination does so with probability 1/2. Each stream leaves its source
/// link at c_s = 16/17 with ON time 330·r/c_s = 340 and OFF time
/// 2170 − 10 = 2160 (p = 0.136); the link serves c_d = c·M/(M + 1) = 32/33.
/// m = 0: one stream at c_s < c_d never queues. m = 1: two such streams,
/// α = 1/2160, β = 1/340, drifts d = (−c_d, c_s − c_d, 2c_s − c_d),
/// q = (−2α, −(α + β), −2β); det(Q − zD) = m0 m1 m2 − 2αβ(m0 + m2),
/// m_i = q_i − z d_i, is z(c3 z² + c2 z + c1) with c3 = −0.0252406,
/// c2 = 2.87408e-3, c1 = 1.65409e-5: negative root z = −5.4904514e-3.
/// φ with φ2 = 1: column 2 gives φ1 = −m2/α = 1.8823529, column 0
/// φ0 = −βφ1/m0 = 0.8858131; a = −π2 = −p² = −0.018496;
/// E[Q] = a(φ0 + φ1 + 1)/z = 12.6940383 flits, Λ = 2p c_s = 0.256:
/// 49.5860870 cycles; averaged with m = 0: 24.7930435 cycles on top of
/// `kim2005`'s network latency. (`kim2005_fluid` at c = 1 has r < c at the
/// source: a source wait of 0, and a different destination link.)
#[test]
fn tandem_row_by_hand_on_three_ports() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig12_000_onoff_bursts.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("ports = 16", "ports = 3");
    assert!(text.contains("ports = 3") && text.contains("onoff_streams = 1\n") && text.contains("onoff_mean_off_us = 173.6\n"), "fig12_000_onoff_bursts.toml changed");
    let dir = scratch("tandem");
    let (o, out) = run(&dir, &text, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let parts = std::fs::read_to_string(out.join("latency_parts.csv")).unwrap();
    let row = |src: &str, class: u8| -> Vec<f64> {
        let l = parts.lines().find(|l| l.starts_with(&format!("{src},,{class},"))).unwrap_or_else(|| panic!("{src} {class}: {parts}"));
        l.split(',').skip(3).map(|x| x.parse().unwrap()).collect()
    };
    let (tandem, base, fluid) = (row("model:kim2005_tandem", 1), row("model:kim2005", 1), row("model:kim2005_fluid", 1));
    assert!((tandem[0] - 10.046_296_3).abs() < 1e-5, "source wait {}", tandem[0]);
    assert!((tandem[2] - base[2] - 24.793_043_5).abs() < 1e-5, "network latency {} = kim2005's {} + {}", tandem[2], base[2], tandem[2] - base[2]);
    assert_eq!(fluid[0], 0.0, "kim2005_fluid's source wait at c = 1 > r");
    // Best effort keeps kim2005's values; no simulation, no errors.
    let be = (row("model:kim2005_tandem", 0), row("model:kim2005", 0));
    assert!(be.0[0] == be.1[0] && be.0[2] == be.1[2], "{be:?}");
    assert!(tandem[1].is_nan() && tandem[3].is_nan(), "{parts}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("model:kim2005_tandem,")), "{csv}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `model:kim2005_cube_source_backlog` (the tandem row's injection-link
/// wait S and network-link wait N merged as E[max(S, N)] of independent
/// exponentials, S + N − S·N/(S + N)) on two small cubes of
/// experiments/fig12b_000_onoff_cube6_bursts_seeds.toml's routers
/// (g = 33, N = 10, M = 32, c = 1).
///
/// 1-cube, K = 1, I = 173.6 µs = 2,170 cycles: the one hop link is of
/// dimension 0 (never queues: it carries only its own injection link's
/// stream) and the ejection link carries only the other node's one stream,
/// which left its injection VC at c_s = 16/17 < c_d = 32/33: N = 0. The
/// first-hop blocking has no other input (d = 0 only): B̄ = 0, so the
/// injection link is `tandem_row_by_hand_on_three_ports`'s one source at
/// c_s, S = 10.0462963 cycles, packet-scale wait 0 at K = 1. E[max(S, 0)]
/// = S: source wait 10.0462963, network latency `kim2005_cube`'s.
///
/// 2-cube, K = 2, I = 373.6 µs: the packet-scale source wait is the 2-port
/// router's of `burst_scale_fluid_row_by_hand_and_its_inputs` (the same
/// streams at the same NI: R = (K − 1)/K · λM²/2 = 1.024,
/// W = R/(1 − σ) = 1.024/0.872 = 1.1743119). With the tandem row's
/// S = its source wait − W and N = its network latency − `kim2005_cube`'s,
/// the merge by hand: source wait W + S²/(S + N), network latency the
/// tandem row's, and the burst part strictly between max(S, N) and S + N.
#[test]
fn cube_source_backlog_row_by_hand_on_small_cubes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/fig12b_000_onoff_cube6_bursts_seeds.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("[sweep]").next().unwrap().to_string();
    assert!(text.contains("\nn = 6\n") && text.contains("ports = 7\n") && text.contains("onoff_streams = 1\n") && text.contains("onoff_mean_off_us = 173.6\n"), "fig12b_000_onoff_cube6_bursts_seeds.toml changed");
    let cube = |n: u32, k: u32, off: &str| text.replace("\nn = 6\n", &format!("\nn = {n}\n")).replace("ports = 7\n", &format!("ports = {}\n", n + 1)).replace("onoff_streams = 1\n", &format!("onoff_streams = {k}\n")).replace("= 173.6\n", &format!("= {off}\n"));
    for (name, n, k, off) in [("cube1", 1, 1, "173.6"), ("cube2", 2, 2, "373.6")] {
        let dir = scratch(name);
        let (o, out) = run(&dir, &cube(n, k, off), &[]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let parts = std::fs::read_to_string(out.join("latency_parts.csv")).unwrap();
        let row = |src: &str, class: u8| -> Vec<f64> {
            let l = parts.lines().find(|l| l.starts_with(&format!("{src},,{class},"))).unwrap_or_else(|| panic!("{name} {src} {class}: {parts}"));
            l.split(',').skip(3).map(|x| x.parse().unwrap()).collect()
        };
        let (merged, tandem, base) = (row("model:kim2005_cube_source_backlog", 1), row("model:kim2005_cube_tandem", 1), row("model:kim2005_cube", 1));
        if n == 1 {
            assert!((merged[0] - 10.046_296_3).abs() < 1e-5, "{name}: source wait {}", merged[0]);
            assert!((merged[2] - base[2]).abs() < 1e-9, "{name}: network latency {} vs kim2005_cube's {}", merged[2], base[2]);
        } else {
            let w = 1.024 / 0.872;
            let (s, net) = (tandem[0] - w, tandem[2] - base[2]);
            assert!(s > 1.0 && net > 1.0, "{name}: the tandem row's S = {s}, N = {net}");
            assert!((merged[0] - (w + s * s / (s + net))).abs() < 1e-6, "{name}: source wait {} for S = {s}, N = {net}", merged[0]);
            assert!((merged[2] - tandem[2]).abs() < 1e-9, "{name}: network latency {} vs the tandem row's {}", merged[2], tandem[2]);
            let burst = merged[0] - w + net;
            assert!(burst > s.max(net) + 1.0 && burst < s + net - 1.0, "{name}: E[max] {burst} outside ({}, {})", s.max(net), s + net);
        }
        // Best effort keeps kim2005_cube's values; no simulation, no errors.
        let (be, be_base) = (row("model:kim2005_cube_source_backlog", 0), row("model:kim2005_cube", 0));
        assert!(be[0] == be_base[0] && be[2] == be_base[2], "{name}: {be:?} {be_base:?}");
        assert!(merged[1].is_nan() && merged[3].is_nan(), "{name}: {parts}");
        // results.csv: the row with every column the other rows have.
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let line = csv.lines().find(|l| l.starts_with("model:kim2005_cube_source_backlog,")).unwrap_or_else(|| panic!("{name}: {csv}"));
        let cells: Vec<&str> = line.split(',').collect();
        let other: Vec<&str> = csv.lines().find(|l| l.starts_with("model:kim2005_cube_tandem,")).unwrap().split(',').collect();
        assert_eq!(cells.len(), head.len(), "{name}: {line}");
        assert_eq!(cells.len(), other.len(), "{name}: {line}");
        let col = |c: &str| head.iter().position(|h| *h == c).unwrap_or_else(|| panic!("{name}: no {c} in {head:?}"));
        let total: f64 = cells[col("rt_latency_cycles")].parse().unwrap();
        assert!((total - merged[0] - merged[2]).abs() < 1e-6, "{name}: rt_latency_cycles {total}");
        assert_eq!(cells[col("error")], "", "{name}: {line}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

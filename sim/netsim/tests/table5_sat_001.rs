//! 001_… Table V's three "Sat." cells (90:10 at 0.9, 80:20 and 90:10 at
//! 0.96) against our capped runs (issue 23 item 2; docs/reproduction.md,
//! "Table V's "Sat." cells: the paper's criterion and its candidate
//! differences (issue 23)").
//!
//! The ignored writers run `experiments/fig7_001_cap_long.toml`'s setup
//! (0.8 s after 0.05 s warm-up, seed 1, with the per-destination cap) at
//! the three cells and two finite neighbours (80:20 at 0.9, 50:50 at 0.96),
//! each writer one variant of the setup, with every delivered message
//! logged, and write one row per (point, quarter of the measured window)
//! into `experiments/results/table5_sat_001/<variant>.csv`:
//! - `streams`: real-time streams per endpoint; `offered`: flits per cycle
//!   per endpoint the sources offer (the run's summary);
//! - `be_offered`: best effort's share by design (load x y/(x+y));
//! - `be_accepted`, `rt_accepted`: flits per cycle per endpoint of that
//!   class delivered (by tail) in the quarter;
//! - `be_latency_us`: mean latency (creation to tail) of the best-effort
//!   messages created in the quarter (and delivered by the run's end);
//! - `be_in_system`: best-effort messages created before the quarter's
//!   end and delivered after it (queued or in flight at that instant; the
//!   log holds delivered messages only, so 0 at the last quarter's end);
//! - `undelivered_at_end`: messages of any class created and never
//!   delivered (the run's summary: created - delivered).
//!
//! The variants, each a difference between the paper's runs and ours:
//! - `ours`: the setup as it is (output VCs shared by both classes, the
//!   stream count with the header flit's overhead);
//! - `partition`: 001_… §IV-B.2/B.3's disjoint VC groups at the router's
//!   outputs as well (`mode = "non_preemptive"`, x/(x+y) of the 16 VCs,
//!   rounded, to real time: best effort 3, 2, 8 VCs at 80:20, 90:10, 50:50);
//! - `partition_1be`: the same at 90:10 with 15:1 (x/(x+y) = 14.4 rounded up);
//! - `header_free`: the streams counted as 4 Mbps each of a 400 Mbps link
//!   (load x x/(x+y) x 100, rounded), as §IV-B.3's "6 connections per VC"
//!   of 25 Mbps counts them, each still sending its header flits, best
//!   effort at its share of the stated load.

use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::Experiment;

const OUT: &str = "experiments/results/table5_sat_001";
const BEST_EFFORT: u8 = 0;
const CYCLE_US: f64 = 0.08;
const QUARTERS: u64 = 4;
const ENDPOINTS: f64 = 8.0;
/// One 4 Mbps stream with one header flit per 19 payload flits, in flits
/// per cycle of a 400 Mbps link (001_… §IV-B.1).
const STREAM_FLITS_PER_CYCLE: f64 = 0.01 * 20.0 / 19.0;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A point: Table V's (load, x, y) and the per-destination cap our setup
/// gives it (its streams per endpoint, `fig7_001_cap.toml`).
struct Cell {
    load: f64,
    mix: [u32; 2],
    cap: u32,
}

const CELLS: [Cell; 7] = [
    Cell { load: 0.9, mix: [80, 20], cap: 68 },
    Cell { load: 0.9, mix: [90, 10], cap: 77 },
    Cell { load: 0.96, mix: [50, 50], cap: 46 },
    Cell { load: 0.96, mix: [80, 20], cap: 73 },
    Cell { load: 0.96, mix: [90, 10], cap: 82 },
    // Table V's finite cells next to the partition's saturated ones
    // (`write_partition_more`, `write_partition_1be_more`): 90:10 at 0.8
    // (106.2 µs) and 50:50 at 0.9 (56.1 µs); 68 and 43 streams per
    // endpoint, the counts our stream rule gives (68 x 0.01 x 20/19 =
    // 0.716 of the real-time share 0.72).
    Cell { load: 0.8, mix: [90, 10], cap: 68 },
    Cell { load: 0.9, mix: [50, 50], cap: 43 },
];

/// `fig7_001_cap_long.toml` before its sweep, with its base point's load,
/// mix and cap replaced (each replaced line must occur exactly once).
fn base_text(load: f64, mix: [f64; 2], cap: u32) -> String {
    let base = std::fs::read_to_string(root().join("experiments/fig7_001_cap_long.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap().to_string();
    for line in ["load = 0.9\n", "mix = [80, 20]\n", "max_streams_per_destination = 68\n", "seconds = 0.8\n"] {
        assert_eq!(base.matches(line).count(), 1, "{line}");
    }
    base.replace("load = 0.9\n", &format!("load = {load}\n"))
        .replace("mix = [80, 20]\n", &format!("mix = [{}, {}]\n", mix[0], mix[1]))
        .replace("max_streams_per_destination = 68\n", &format!("max_streams_per_destination = {cap}\n"))
}

/// The setup with a static partition: `rt` VCs (the lowest) for real
/// time, the rest for best effort, at the sources and the router's outputs.
fn with_partition(text: String, rt: usize) -> String {
    let line = "scheduler = \"virtualclock\"\n";
    assert_eq!(text.matches(line).count(), 1);
    let classes: Vec<&str> = (0..16).map(|v| if v < rt { "1" } else { "0" }).collect();
    text.replace(line, &format!("{line}mode = \"non_preemptive\"\ntraffic_classes = 2\nvc_classes = [{}]\n", classes.join(", ")))
}

fn variant_text(variant: &str, cell: &Cell) -> String {
    // `<variant>_seed2`: the variant with seed 2 (the writers' only other seed)
    if let Some(v) = variant.strip_suffix("_seed2") {
        let text = variant_text(v, cell);
        assert_eq!(text.matches("seed = 1\n").count(), 1);
        return text.replace("seed = 1\n", "seed = 2\n");
    }
    let [x, y] = cell.mix;
    let share = x as f64 / (x + y) as f64;
    let plain = || base_text(cell.load, [x as f64, y as f64], cell.cap);
    match variant {
        "ours" => plain(),
        "partition" => with_partition(plain(), (16.0 * share).round() as usize),
        "partition_1be" => with_partition(plain(), 15),
        "header_free" => {
            // Streams as the paper's arithmetic counts them; each sends
            // STREAM_FLITS_PER_CYCLE. The stated load may not exceed 1, so
            // a total above it is written as load 1 with the real-time
            // share shortened by the excess: our stream count adds whole
            // streams up to the share + half a stream, which still gives
            // `streams` (asserted on the run's summary).
            let streams = (cell.load * share * 100.0).round();
            let be = cell.load * (1.0 - share);
            let rt = streams * STREAM_FLITS_PER_CYCLE;
            let load = (rt + be).min(1.0);
            let rt = load - be;
            base_text((load * 1e6).round() / 1e6, [(rt * 1e6).round() / 1e6, (be * 1e6).round() / 1e6], streams as u32)
        }
        _ => panic!("unknown variant {variant}"),
    }
}

/// Expected real-time streams per endpoint of a variant's point.
fn expected_streams(variant: &str, cell: &Cell) -> u32 {
    let share = cell.mix[0] as f64 / (cell.mix[0] + cell.mix[1]) as f64;
    if variant.starts_with("header_free") {
        (cell.load * share * 100.0).round() as u32
    } else {
        cell.cap
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (n, s) = xs.fold((0usize, 0.0), |(n, s), x| (n + 1, s + x));
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

const HEAD: &str = "variant,load,mix,streams,offered,be_offered,quarter,be_accepted,rt_accepted,be_latency_us,be_in_system,undelivered_at_end\n";

/// Runs `variant` at `cells` and writes their rows into the variant's
/// file; with `merge`, the file's rows of other points are kept (in
/// `CELLS` order), so a point can be added without rerunning the others.
fn write_variant(variant: &str, cells: &[usize], merge: bool) {
    let path = root().join(OUT).join(format!("{variant}.csv"));
    let kept: Vec<String> = if merge {
        let text = std::fs::read_to_string(&path).unwrap();
        text.lines().skip(1).map(str::to_string).collect()
    } else {
        Vec::new()
    };
    let key = |cell: &Cell| format!("{variant},{},{}:{},", cell.load, cell.mix[0], cell.mix[1]);
    let mut csv = String::from(HEAD);
    for (i, cell) in CELLS.iter().enumerate() {
        if cells.contains(&i) {
            csv += &run_point(variant, cell);
        } else {
            for l in kept.iter().filter(|l| l.starts_with(&key(cell))) {
                csv += &format!("{l}\n");
            }
        }
    }
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    std::fs::write(path, csv).unwrap();
}

/// The four rows (quarters) of one point of `variant`.
fn run_point(variant: &str, cell: &Cell) -> String {
    let mut csv = String::new();
    {
        let [x, y] = cell.mix;
        let v = Experiment::from_str(&variant_text(variant, cell), &format!("table5_sat_{variant}.toml"), root().join("experiments")).unwrap();
        let (total, warmup) = v.run_cycles();
        let q = (total - warmup) / QUARTERS;
        let (results, log) = Sim::new(&v).unwrap().run_logged_all().unwrap();
        // the summary counts the streams of all endpoints
        let streams = results.realtime_streams as f64 / ENDPOINTS;
        assert_eq!(streams, expected_streams(variant, cell) as f64, "{variant} {}", cell.load);
        let undelivered = results.messages_created - results.messages_delivered;
        let be_offered = cell.load * y as f64 / (x + y) as f64;
        let be: Vec<&MessageLog> = log.iter().filter(|m| m.class == BEST_EFFORT).collect();
        for k in 0..QUARTERS {
            let (from, to) = (warmup + k * q, warmup + (k + 1) * q);
            let flits = |be: bool| -> f64 {
                log.iter().filter(|m| (m.class == BEST_EFFORT) == be && m.delivered >= from && m.delivered < to).map(|m| m.flits as f64).sum::<f64>() / (q as f64 * ENDPOINTS)
            };
            let latency = mean(be.iter().filter(|m| m.created >= from && m.created < to).map(|m| (m.delivered - m.created) as f64 * CYCLE_US));
            let in_system = be.iter().filter(|m| m.created < to && m.delivered >= to).count();
            csv += &format!(
                "{variant},{},{x}:{y},{},{:.4},{be_offered:.4},{},{:.4},{:.4},{latency:.1},{in_system},{undelivered}\n",
                cell.load,
                streams,
                results.offered_load,
                k + 1,
                flits(true),
                flits(false),
            );
        }
    }
    csv
}

#[test]
#[ignore]
fn write_ours() {
    write_variant("ours", &[0, 1, 2, 3, 4], false);
}

#[test]
#[ignore]
fn write_partition() {
    write_variant("partition", &[0, 1, 2, 3, 4], false);
}

#[test]
#[ignore]
fn write_partition_1be() {
    write_variant("partition_1be", &[1, 4], false);
}

#[test]
#[ignore]
fn write_partition_more() {
    write_variant("partition", &[6], true);
}

#[test]
#[ignore]
fn write_partition_1be_more() {
    write_variant("partition_1be", &[5], true);
}

/// Seed 2 at the partition's two verdicts that decide the section's
/// reading: 15:1 at 90:10, 0.9 and 8:8 at 50:50, 0.96.
#[test]
#[ignore]
fn write_partition_seed2() {
    write_variant("partition_1be_seed2", &[1], false);
    write_variant("partition_seed2", &[2], false);
}

#[test]
#[ignore]
fn write_header_free() {
    write_variant("header_free", &[0, 1, 2, 3, 4], false);
}

/// One committed row: (variant, load, mix) -> its quarters in order.
type Quarters = Vec<std::collections::BTreeMap<String, f64>>;

fn committed(variant: &str) -> std::collections::BTreeMap<(String, String), Quarters> {
    let text = std::fs::read_to_string(root().join(OUT).join(format!("{variant}.csv"))).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(format!("{}\n", head.join(",")), HEAD);
    let mut out: std::collections::BTreeMap<(String, String), Quarters> = Default::default();
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells[0], variant);
        let row = head.iter().zip(&cells).skip(3).map(|(h, c)| (h.to_string(), c.parse::<f64>().unwrap())).collect();
        out.entry((cells[1].to_string(), cells[2].to_string())).or_default().push(row);
    }
    for (k, q) in &out {
        assert_eq!(q.len(), QUARTERS as usize, "{k:?}");
        for (i, r) in q.iter().enumerate() {
            assert_eq!(r["quarter"], (i + 1) as f64, "{k:?}");
        }
    }
    out
}

/// What the run shows under a saturation criterion the paper could have
/// used (001_… does not define "Sat."): best effort saturates when, in
/// some quarter, it is accepted at less than 0.98 of its share, or its
/// queue grows: the best-effort messages in the system at the end of the
/// third quarter are more than twice those at the end of the first, plus
/// 100. (The log holds delivered messages only, so at the end of the last
/// quarter the count is 0 by construction and is not used; at the others
/// it is exact when the messages created before then are delivered by the
/// run's end, a lower bound otherwise.) Mean latencies per quarter are not
/// used: a long tail makes them swing without a trend.
fn saturated(q: &Quarters) -> bool {
    let short = q.iter().any(|r| r["be_accepted"] < 0.98 * r["be_offered"]);
    let grows = q[2]["be_in_system"] > 2.0 * q[0]["be_in_system"] + 100.0;
    short || grows
}

/// Every variant's point parses, and the sources offer what the paper's
/// arithmetic gives, computed by hand here: our streams carry 4 Mbit/s of
/// payload plus a header flit per 19 payload flits (0.01 x 20/19 of the
/// link each); `header_free` counts them as 0.01 each (load x x/(x+y) x
/// 100, rounded: 72, 81, 48, 77, 86), so it offers more than the stated
/// load, more than the link at 80:20 and 90:10 at 0.96 only.
#[test]
fn the_variants_offer_what_the_paper_arithmetic_gives() {
    let hand_streams = [72.0, 81.0, 48.0, 77.0, 86.0];
    for (cell, streams) in CELLS[..5].iter().zip(hand_streams) {
        let [x, y] = cell.mix;
        let be = cell.load * y as f64 / (x + y) as f64;
        for variant in ["ours", "partition", "header_free"] {
            let v = Experiment::from_str(&variant_text(variant, cell), "t.toml", root().join("experiments")).unwrap();
            let o = v.offered().unwrap();
            let p = &o.phases[0];
            assert!((p.best_effort - be).abs() < 1e-6, "{variant} {}: {}", cell.load, p.best_effort);
            if variant == "header_free" {
                assert_eq!(p.streams as f64, streams, "{}", cell.load);
                let total = streams * 0.01 * 20.0 / 19.0 + be;
                // the last message of a frame is shorter: a few per mille
                assert!((p.realtime + p.best_effort - total).abs() < 0.003, "{} {}: {} against {total}", cell.load, x, p.realtime + p.best_effort);
                assert_eq!(total > 1.0, cell.load == 0.96 && x >= 80, "{} {x}: {total}", cell.load);
            } else {
                // the partition's best-effort VCs (class 0), by hand: 16 -
                // round(16 x/(x+y)) = 3, 2, 8 at 80:20, 90:10, 50:50
                let be_vcs = v.configs[0].vc_classes().map(|c| c.iter().filter(|&&k| k == 0).count());
                let hand = match x {
                    80 => 3,
                    90 => 2,
                    _ => 8,
                };
                assert_eq!(be_vcs, (variant == "partition").then_some(hand), "{variant} {}:{}", x, y);
                assert_eq!(p.streams as u32, cell.cap, "{variant} {}", cell.load);
                assert!(p.realtime + p.best_effort <= cell.load + 0.006, "{variant}");
            }
        }
    }
    // 15:1: one best-effort VC, VC 15
    let v = Experiment::from_str(&variant_text("partition_1be", &CELLS[1]), "t.toml", root().join("experiments")).unwrap();
    let classes = v.configs[0].vc_classes().unwrap();
    assert_eq!(classes.iter().filter(|&&k| k == 0).count(), 1);
    assert_eq!(classes[15], 0);
}

/// The committed runs under [`saturated`], against what the section says
/// of each (variant, load, mix), written by hand: `ours` carries best
/// effort at all five points; with the streams counted at 4 Mbit/s best
/// effort saturates at 0.96 (50:50 too) and not at 0.9; with the VC
/// partition at the outputs too it saturates at 0.96 (50:50 too) and not at
/// 0.9 with 2 VCs (nor at 50:50, 0.9), and with 1 VC at 90:10 also at 0.9
/// (not at 0.8); with seed 2, 15:1 at 90:10, 0.9 saturates again and 8:8
/// at 50:50, 0.96 does not.
#[test]
fn the_committed_runs_meet_the_criterion_as_the_section_says() {
    let expect: [(&str, &str, &str, bool); 21] = [
        ("ours", "0.9", "80:20", false),
        ("ours", "0.9", "90:10", false),
        ("ours", "0.96", "50:50", false),
        ("ours", "0.96", "80:20", false),
        ("ours", "0.96", "90:10", false),
        ("header_free", "0.9", "80:20", false),
        ("header_free", "0.9", "90:10", false),
        ("header_free", "0.96", "50:50", true),
        ("header_free", "0.96", "80:20", true),
        ("header_free", "0.96", "90:10", true),
        ("partition", "0.9", "80:20", false),
        ("partition", "0.9", "90:10", false),
        ("partition", "0.96", "50:50", true),
        ("partition", "0.96", "80:20", true),
        ("partition", "0.96", "90:10", true),
        ("partition", "0.9", "50:50", false),
        ("partition_1be", "0.8", "90:10", false),
        ("partition_1be", "0.9", "90:10", true),
        ("partition_1be", "0.96", "90:10", true),
        // seed 2: 15:1 saturates again, 8:8 at 50:50, 0.96 does not
        ("partition_1be_seed2", "0.9", "90:10", true),
        ("partition_seed2", "0.96", "50:50", false),
    ];
    for (variant, load, mix, sat) in expect {
        let runs = committed(variant);
        let q = runs.get(&(load.to_string(), mix.to_string())).unwrap_or_else(|| panic!("{variant} {load} {mix}: not committed"));
        assert_eq!(saturated(q), sat, "{variant} {load} {mix}: {q:?}");
    }
    // The streams counted at 4 Mbit/s offer more than the link exactly
    // where the arithmetic test says (80:20 and 90:10 at 0.96).
    for ((load, mix), q) in committed("header_free") {
        assert_eq!(q[0]["offered"] > 1.0, load == "0.96" && mix != "50:50", "{load} {mix}");
    }
}

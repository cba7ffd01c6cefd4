//! The section census of 003_… Fig. 4, first part (docs/reproduction.md
//! from "## 003_… Fig. 4: TR / NP / P under the dynamic workload" up to
//! "#### Why P misses by more than NP", `experiments/prose_census.py run
//! --lines`, `experiments/results/prose_census/section_003_fig4_a.csv`):
//! the quoted results of that prose no test noticed when changed, each
//! recomputed here from the committed CSV it comes from (a range's ends
//! from the cells they quote, found as the minimum and maximum of those
//! cells, not picked by hand) or, for the regulator's message intervals,
//! from 001_… Table III's frame sizes, and compared with the number as
//! written (`models::check_derived`).

use super::census_ties::{at, d, num};
use super::models::{check_derived, Derived};
use super::prose_ties::TABLE_III;
use super::records::{predicted, single_phase_runs, Run};
use super::*;

const FIG4: &str = "experiments/results/fig4_003/results.csv";
const FIG4_PHASES: &str = "experiments/results/fig4_003/phases.csv";
const ROUTERS_06: [&str; 3] = ["0.6 traditional", "0.6 non_preemptive", "0.6 preemptive"];
/// The phases the first run's table shows (20:80, phase 0, is omitted).
const TABLE_PHASES: [&str; 4] = ["1", "2", "3", "4"];

fn phase_row<'a>(table: &'a [HashMap<String, String>], point: &str, phase: &str) -> &'a HashMap<String, String> {
    let rows: Vec<_> = table.iter().filter(|r| r["point"] == point && r["phase"] == phase).collect();
    assert_eq!(rows.len(), 1, "one row for {point}, phase {phase}");
    rows[0]
}

/// The first run (`fig4_003`): the frames its 20:80 phase judges at 0.6,
/// best effort's latency per router and load, TR's missing time at 30:70,
/// and NP's and P's ranges of missing time and probability over the
/// table's four phases.
fn first_run() -> Vec<Derived> {
    let phases = read_csv(FIG4_PHASES, &mut HashMap::new());
    let mut v = Vec::new();
    let p = "(the 20:80 phase has only 3\njudged frames after the warm-up and is omitted)";
    for point in ROUTERS_06 {
        v.push(d(p, "3", num(phase_row(&phases, point, "0"), "frames_judged")));
    }
    let be = |load: &'static str, router: &'static str| at(FIG4, &[("workload.load", load), ("router", router)], "be_latency_us");
    let p = "Best-effort latency at 0.6: TR 2,988 µs, NP 1,424 µs, P 1,366 µs (all three\noverloaded in some phase); at 0.5: 31, 26 and 34 µs.";
    v.extend([
        d(p, "2,988", be("0.6", "traditional")),
        d(p, "1,424", be("0.6", "non_preemptive")),
        d(p, "1,366", be("0.6", "preemptive")),
        d(p, "31", be("0.5", "traditional")),
        d(p, "26", be("0.5", "non_preemptive")),
        d(p, "34", be("0.5", "preemptive")),
    ]);
    let p = "misses by milliseconds (9.4 ms at 30:70,\nload 0.6)";
    v.push(d(p, "9.4", num(phase_row(&phases, "0.6 traditional", "1"), "deadline_missing_time_ms")));
    let over_np_p = |column: &str| -> (f64, f64) {
        let cells: Vec<f64> = ["0.6 non_preemptive", "0.6 preemptive"].iter().flat_map(|point| TABLE_PHASES.iter().map(|ph| num(phase_row(&phases, point, ph), column))).collect();
        min_max(&cells)
    };
    let (lo, hi) = over_np_p("deadline_missing_time_ms");
    let p = "while NP and P miss by\n0.05–0.14 ms.";
    v.extend([d(p, "0.05", lo), d(p, "0.14", hi)]);
    let (lo, hi) = over_np_p("deadline_miss_probability");
    let p = "both miss 23–76 % of\ndeadlines";
    v.extend([d(p, "23", 100.0 * lo), d(p, "76", 100.0 * hi)]);
    v
}

/// The regulator's message interval T/n (`slot_start` releases a frame's
/// last message one interval before the end of its frame time), from
/// 001_… Table III's frame sizes with 003_… Fig. 4's messages: 40 flits of
/// 128 bits, 39 of them data (the header is overhead), so a frame of b
/// kbit needs ⌈⌈1000 b / 128⌉ / 39⌉ messages; T = 1/30 s. Written out
/// here, not taken from `workload::frame_messages`.
fn regulator_intervals() -> Vec<Derived> {
    let messages = |kbit: f64| ((1000.0 * kbit / 128.0).ceil() / 39.0).ceil();
    let interval_ms = |kbit: f64| 1000.0 / 30.0 / messages(kbit);
    let i_frames: Vec<f64> = TABLE_III.iter().map(|&(i, _, _)| interval_ms(i)).collect();
    let (lo, hi) = min_max(&i_frames);
    let p = "(released up to one message interval,\n0.17–0.47 ms for MPEG-2 I frames, later than a fixed phase)";
    let mut v = vec![d(p, "0.17", lo), d(p, "0.47", hi)];
    // The largest shift of a frame's end between a sequence's B and I frames.
    let b_to_i: Vec<f64> = TABLE_III.iter().map(|&(i, _, b)| interval_ms(b) - interval_ms(i)).collect();
    let p = "(up to 0.5 ms between MPEG-2 B\nand I frames)";
    v.push(d(p, "0.5", min_max(&b_to_i).1));
    v
}

/// The loaded trace's shift of the 60-message P frame's end against the
/// 39-message frames' under `slot_start`: T/39 − T/60 with T the frame
/// time in 80 ns cycles.
fn trace_shift() -> Vec<Derived> {
    let t = 1.0 / 30.0 / 80e-9;
    vec![d("(T/39 − T/60 = 3,739 cycles)", "3,739", t / 39.0 - t / 60.0)]
}

const RECORDS_0P6: &str = "experiments/results/fig4_003_records_0p6";

/// The two points (NP, P) of a single-phase records run.
fn np_and_p(dir: &str) -> (Run, Run) {
    let mut runs = single_phase_runs(dir);
    assert_eq!(runs.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(), ["non_preemptive", "preemptive"], "{dir}");
    let p = runs.pop().unwrap().1;
    (runs.pop().unwrap().1, p)
}

/// "Records": the streams and n of the single-phase runs as the prose
/// writes them, the 6 s run's messages, the five-phase run's messages
/// repeated, and the counts of the message-by-message rerun
/// (`record_excess_003.rs`) that the committed runs give: frames judged,
/// streams, misses (probability × judged), Σ (H_n − 1) over the streams
/// (the records prediction times the frames judged) and NP's excess over
/// it, all and strict records only (the split into records and ties is
/// that test's, tied to its assertion by
/// `the_record_split_is_the_one_record_excess_003_asserts`).
fn records() -> Vec<Derived> {
    let (np, p) = np_and_p(RECORDS_0P6);
    let mut v = vec![
        d("n is 1 + frames judged / streams (512\nstreams judge the same frames under both routers", "512", np.streams as f64),
        d("the warm-up and the frames\nstill in flight at the end leave n = 16.", "16", 1.0 + np.judged as f64 / np.streams as f64),
    ];
    let (np09, _) = np_and_p("experiments/results/fig4_003_records_09_0p6");
    v.push(d("(`experiments/fig4_003_records_09_0p6.toml`, `_1p5`, `_3p0`; 768\nstreams;", "768", np09.streams as f64));
    let (np6, _) = np_and_p("experiments/results/fig4_003_records_6p0");
    v.push(d("the paper's level, after about 9 M messages.", "9", np6.messages as f64 / 1e6));
    let five_phase = at("experiments/results/fig4_003_slot_end_long/results.csv", &[("workload.load", "0.6"), ("router", "non_preemptive")], "messages_delivered");
    v.push(d("five-phase run of 0.6 s phases delivered 4.5 M messages, and its first", "4.5", five_phase / 1e6));
    let misses = |r: &Run| r.miss * r.judged as f64;
    let iid = predicted(np.streams, np.judged) * np.judged as f64;
    let split = "judges the same 7,662\n  frames of 512 streams as the library, and splits every miss: NP's 1,402\n  are 1,387 strict records";
    v.extend([d(split, "7,662", np.judged as f64), d(split, "512", np.streams as f64), d(split, "1,402", misses(&np))]);
    v.push(d("P's 1,546 are 1,540 and 6;", "1,546", misses(&p)));
    let p_ = "Σ (H_n − 1) over the streams is 1,217.8, so\n  NP's excess (184) is 169 more strict records";
    v.extend([d(p_, "1,217.8", iid), d(p_, "184", misses(&np) - iid), d(p_, "169", RECORD_SPLIT[0].1 as f64 - iid)]);
    v
}

/// The split of each router's misses into strict records and ties, as the
/// prose writes it: (router, strict records, ties).
const RECORD_SPLIT: [(&str, u64, u64); 2] = [("NP", 1387, 15), ("P", 1540, 6)];

fn derived() -> Vec<Derived> {
    [first_run(), regulator_intervals(), trace_shift(), records()].into_iter().flatten().collect()
}

#[test]
fn prose_of_003_fig4_first_part_follows_from_the_committed_runs() {
    let errors = check_derived(&derived());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

/// The record/tie split of the misses comes from the ignored
/// `the_excess_is_strict_latency_records` (sim/netsim/tests/
/// record_excess_003.rs, another binary, about 100 s), whose assertion
/// lists (preemptive?, misses, records, ties) per router: the prose's
/// numbers must be the ones asserted there, and each router's records and
/// ties must add up to its misses as the committed run gives them.
#[test]
fn the_record_split_is_the_one_record_excess_003_asserts() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let flat = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let source = std::fs::read_to_string(root().join("sim/netsim/tests/record_excess_003.rs")).unwrap();
    let (np, p) = np_and_p(RECORDS_0P6);
    let grouped = |n: u64| rounded_like(n as f64, "1,000");
    for ((router, records, ties), (preemptive, run)) in RECORD_SPLIT.into_iter().zip([(false, &np), (true, &p)]) {
        let misses = (run.miss * run.judged as f64).round() as u64;
        assert_eq!(records + ties, misses, "{router}: records and ties are every miss of the committed run");
        let asserted = format!("({preemptive}, {misses}, {records}, {ties})");
        assert!(source.contains(&asserted), "record_excess_003.rs does not assert {asserted} for {router}");
        let written = if router == "NP" {
            format!("NP's {} are {} strict records of the last message's whole-cycle latency and {} ties", grouped(misses), grouped(records), ties)
        } else {
            format!("P's {} are {} and {};", grouped(misses), grouped(records), ties)
        };
        assert!(flat.contains(&written), "not in docs/reproduction.md: {written:?}");
    }
    let written = format!("plus the {} ties;", RECORD_SPLIT[0].2);
    assert!(flat.contains(&written), "not in docs/reproduction.md: {written:?}");
}

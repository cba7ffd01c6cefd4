//! The section census of 003_… Fig. 4, first part (docs/reproduction.md
//! from "## 003_… Fig. 4: TR / NP / P under the dynamic workload" up to
//! "#### Why P misses by more than NP", `experiments/prose_census.py run
//! --lines`, `experiments/results/prose_census/section_003_fig4_a.csv`):
//! the quoted results of that prose no test noticed when changed, each
//! recomputed here from the committed CSV it comes from (a range's ends
//! from the cells they quote, found as the minimum and maximum of those
//! cells, not picked by hand) or, for the regulator's message intervals,
//! from 001_… Table III's frame sizes, and compared with the number as
//! written (`models::check_derived`). Also tied here, found by reading:
//! the results of the lines the census did not reach before the time box
//! (the rest of "Records") and some numbers of formulas it did not catch
//! (the traces' cycles).

use super::models::{check_derived, cv as at, d, Derived, num};
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
    let phases = read_csv(FIG4_PHASES);
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

/// The loaded trace (`stream_trace_003/slot_start.csv`): frame 3 is the
/// 60-message P frame, the other frames have 39 messages, and under
/// `slot_start` the P frame's last message leaves T/39 − T/60 later in its
/// slot (T the frame time in 80 ns cycles), which the trace's release
/// times show to the cycle (they are whole cycles, hence the ± 1).
fn trace_shift() -> Vec<Derived> {
    const TRACE: &str = "experiments/results/stream_trace_003/slot_start.csv";
    let table = read_csv(TRACE);
    let frame = |k: &str| table.iter().find(|r| r["frame"] == k).unwrap_or_else(|| panic!("{TRACE}: no frame {k}"));
    let large = num(frame("3"), "messages");
    let others: Vec<f64> = table.iter().filter(|r| r["frame"] != "3" && r["frame"] != "6").map(|r| num(r, "messages")).collect();
    let small = others[0];
    assert!(others.iter().all(|&n| n == small), "{TRACE}: every frame but the P frames 3 and 6 has {small} messages: {others:?}");
    let t = 1.0 / 30.0 / 80e-9;
    let shift = t / small - t / large;
    let span = |k: &str| num(frame(k), "last_release") - num(frame(k), "first_release");
    assert!((span("3") - span("2") - shift).abs() <= 1.0, "{TRACE}: the P frame's last release moves by {} cycles, not {shift}", span("3") - span("2"));
    let p = "`slot_start` the 60-message P frame 3 ends later in its slot\n  than the 39-message frames (T/39 − T/60 = 3,739 cycles)";
    vec![d(p, "60", large), d(p, "39", small), d(p, "3,739", shift)]
}

/// The idle 2-port switch of `stream_trace.rs` (another binary): its
/// frame time and B, B, I frame sizes as that test's source sets them,
/// the messages they make (39 data flits of 128 bits each), when
/// `slot_start` completes each frame ((n − 1)T/n after its start), the I
/// frame's lateness against the B reference, in cycles and in ms of 80 ns
/// cycles, and that the test asserts that lateness.
fn idle_switch_trace() -> Vec<Derived> {
    let source = std::fs::read_to_string(root().join("sim/netsim/tests/stream_trace.rs")).unwrap();
    let t: f64 = source.split("const T: u64 = ").nth(1).and_then(|r| r.split(';').next()).expect("stream_trace.rs sets T").replace('_', "").parse().unwrap();
    let frames = source.split("\"B ").nth(1).and_then(|r| r.split("\").unwrap();").next()).expect("stream_trace.rs writes its trace");
    let bytes: Vec<f64> = format!("B {frames}").split("\\n").filter(|l| !l.is_empty()).map(|l| l.split(' ').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(bytes.len(), 3, "B, B, I: {bytes:?}");
    let messages = |b: f64| (b * 8.0 / 128.0 / 39.0).ceil();
    let end = |b: f64| (messages(b) - 1.0) * t / messages(b);
    let (b, i) = (end(bytes[0]), end(bytes[2]));
    assert!(source.contains("(r.deadline_missing_time_ms - 0.2).abs() < 1e-9"), "stream_trace.rs asserts the 0.2 ms lateness");
    let p = "frames B, B, I of 2, 2 and 4\n  messages, T = 10,000 cycles, every message the same latency. With\n  `slot_start` the B frames complete 5,000 cycles after their start and the\n  I frame 7,500; the first frame (a B) sets the reference, so the I frame\n  is late by exactly 2,500 cycles (0.2 ms)";
    vec![
        d(p, "2", messages(bytes[0])),
        d(p, "4", messages(bytes[2])),
        d(p, "10,000", t),
        d(p, "5,000", b),
        d(p, "7,500", i),
        d(p, "2,500", i - b),
        d(p, "0.2", (i - b) * 80e-6),
    ]
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
    v.push(d("(18 frames per stream per phase, 3.0 s) already delivered 4.5 M messages at\nload 0.6 (NP)", "4.5", five_phase / 1e6));
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
    [first_run(), regulator_intervals(), trace_shift(), idle_switch_trace(), records()].into_iter().flatten().collect()
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
    let flat = doc_words();
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

/// Issue 23 item 1's forward reference to *NP's static real-time VCs: do
/// they bind?* repeats that section's conclusion (its closing paragraph):
/// the highest load at which they do not bind and the load at which they
/// do must be the same in both, and be the loads of that section's runs
/// (`fig4_003_pnp_08`, `fig4_003_pnp_09`).
#[test]
fn the_binding_loads_repeat_the_binding_sections_conclusion() {
    let flat = doc_words();
    let between = |from: &str, to: &str| -> String {
        flat.split(from).nth(1).and_then(|t| t.split(to).next()).unwrap_or_else(|| panic!("not in docs/reproduction.md: {from:?} … {to:?}")).to_string()
    };
    let binds = between("So the hypothesis was right for the loads run before and is now tested: NP's static real-time VCs bind at load ", " in the phases with the most real time");
    let not_binding = between("the paper's Fig. 4 has it. At ", ", with 16 VCs or 8, they do not");
    let highest_not = not_binding.rsplit(' ').next().unwrap().to_string();
    for load in [&binds, &highest_not] {
        assert!(load.parse::<f64>().is_ok(), "{load:?} is not a load");
    }
    for (load, run) in [(&highest_not, "fig4_003_pnp_08"), (&binds, "fig4_003_pnp_09")] {
        let table = read_csv(&format!("experiments/results/{run}/results.csv"));
        assert!(table.iter().all(|r| r["workload.load"] == *load), "{run} is not run at load {load}");
    }
    let repeat = format!("below tests this: they do not up to load {highest_not}; at {binds} they do, at the sources, and there P beats NP.");
    assert!(flat.contains(&repeat), "not in docs/reproduction.md: {repeat:?}");
}

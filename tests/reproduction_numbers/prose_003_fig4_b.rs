//! The section census of 003_… Fig. 4's second part
//! (`experiments/prose_census.py run --lines`, docs/reproduction.md
//! "Section census, 003_… Fig. 4, second part"): from "Why P misses by
//! more than NP" up to "Why P's per-stream sources queue at 0.9". The
//! quoted results of that prose that no test of this binary noticed when
//! changed (several were checked only by tests of `wormqos-netsim`,
//! `late_frames_003` and `vc_pressure_003`, which the census does not
//! run), each recomputed here from the committed CSV it comes from (a
//! range's ends from the cells they quote, a superseded number from the
//! version of the CSV in git history) and compared with the number as
//! written (`models::check_derived`).

use super::census_ties::committed_csv;
use super::rerun_diff::{changes_since, rerun_changes, RowChange};
use super::models::{check_derived, cv as at, d, Derived, num};
use super::*;

const SUMMARY: &str = "experiments/results/fig4_003_late_frames/summary.csv";
const LATE: &str = "experiments/results/fig4_003_late_frames/late_frames.csv";
const SUMMARY_CAP: &str = "experiments/results/fig4_003_late_frames/summary_cap.csv";
const LATE_CAP: &str = "experiments/results/fig4_003_late_frames/late_frames_cap.csv";
const SUMMARY_CAP_BEFORE_FIX: &str = "experiments/results/fig4_003_late_frames/summary_cap_before_fix.csv";
const SLOT_END: &str = "experiments/results/fig4_003_slot_end/phases.csv";
const SLOT_END_LONG: &str = "experiments/results/fig4_003_slot_end_long/phases.csv";
const CAP: &str = "experiments/results/fig4_003_cap/phases.csv";
const LANE: &str = "experiments/results/fig4_003_lane/phases.csv";
const VC_PRESSURE: &str = "experiments/results/fig4_003_vc_pressure/vc_pressure.csv";
const PNP_8VC_LATENCY: &str = "experiments/results/fig4_003_pnp_8vc/phase_latency.csv";
const PNP_8VC: &str = "experiments/results/fig4_003_pnp_8vc/phases.csv";
const PNP_06_STREAM_LATENCY: &str = "experiments/results/fig4_003_pnp_06_stream/phase_latency.csv";

/// The commit that first wrote the late-frame summary (its `p_rt5` row
/// said 2.98 ms), and the one that reran both traces.
const FIRST_TRACE: &str = "57c2253";
const TRACE_RERUN: &str = "ca9f9c6";

/// Cycles of one 0.15 s phase after the first, and the endpoints.
const PHASE_CYCLES: f64 = 1_875_000.0;
const ENDPOINTS: f64 = 8.0;
/// Cycles per µs (80 ns cycles).
const CYCLES_PER_US: f64 = 12.5;

/// A `summary*.csv` row by its `router` column.
fn run_row(csv: &str, router: &str) -> HashMap<String, String> {
    let t = read_csv(csv);
    let rows: Vec<_> = t.into_iter().filter(|r| r["router"] == router).collect();
    assert_eq!(rows.len(), 1, "{csv}: one row {router}");
    rows.into_iter().next().unwrap()
}

/// A `late_frames*.csv`'s rows of one run.
fn late_frames(csv: &str, router: &str) -> Vec<HashMap<String, String>> {
    let rows: Vec<_> = read_csv(csv).into_iter().filter(|r| r["router"] == router).collect();
    assert!(!rows.is_empty(), "{csv}: no late frames of {router}");
    rows
}

/// The four waits of a late frame's last message, in the order the
/// summaries' `late_mean_*_wait` columns name them.
const WAITS: [&str; 4] = ["queue", "vc", "link", "router"];

fn late_wait(row: &HashMap<String, String>, part: &str) -> f64 {
    num(row, &format!("late_mean_{part}_wait"))
}

/// The share (%) of a run's lateness (late cycles summed over its late
/// frames) in frames whose last header found all 16 output VCs of its
/// destination port allocated.
fn all_held_share(csv: &str, router: &str) -> f64 {
    let rows = late_frames(csv, router);
    let total: f64 = rows.iter().map(|r| num(r, "late_cycles")).sum();
    let held: f64 = rows.iter().filter(|r| num(r, "out_vcs_held") == 16.0).map(|r| num(r, "late_cycles")).sum();
    100.0 * held / total
}

/// "Why P misses by more than NP": the trace's shares and its worst
/// frames, and the row the rerun changed.
fn why_p_misses() -> Vec<Derived> {
    let ratio = |csv: &str| {
        let miss = |point: &'static str| at(csv, &[("point", point), ("phase", "4")], "deadline_missing_time_ms");
        miss("0.6 preemptive") / miss("0.6 non_preemptive")
    };
    let p = "0.6, `slot_end`, cap 64: P's 80:20 missing time is 18 times NP's there\n(38 times with `fig4_003_slot_end_long`'s 0.6 s phases, four times as long))";
    let mut v = vec![d(p, "18", ratio(SLOT_END)), d(p, "38", ratio(SLOT_END_LONG))];
    // Before the tail leaves the source: queue + source VC + link of the
    // four waits; without credit: the share of the time holding the source
    // VC (source VC + link) with no credit.
    let at_source = |router: &str| {
        let r = run_row(SUMMARY, router);
        let [q, vc, link, router_wait] = WAITS.map(|w| late_wait(&r, w));
        (100.0 * (q + vc + link) / (q + vc + link + router_wait), 100.0 * num(&r, "late_mean_no_credit") / (vc + link))
    };
    let (p_source, p_no_credit) = at_source("p");
    let p = "last messages spend 80.7 % of their time before the\n  tail leaves the source (NP: 46.1 %), and during 96.9 % of";
    v.extend([d(p, "80.7", p_source), d(p, "46.1", at_source("np").0), d(p, "96.9", p_no_credit)]);
    let held: Vec<_> = late_frames(LATE, "p").into_iter().filter(|r| num(r, "out_vcs_held") == 16.0).collect();
    let be_held = held.iter().map(|r| num(r, "out_vcs_lower")).sum::<f64>() / held.len() as f64;
    let p = "Most of P's lateness (63.9 %, in cycles) is in frames whose last\n  header left while *every* output VC of its destination port was\n  allocated; on average best effort held 12.4 of those 16.";
    v.extend([d(p, "63.9", all_held_share(LATE, "p")), d(p, "12.4", be_held)]);
    // The four latest frames: all of one source, each waiting for any
    // source VC while every one of them held a message of its own class.
    let mut worst = late_frames(LATE, "p");
    worst.sort_by(|a, b| num(b, "late_cycles").total_cmp(&num(a, "late_cycles")));
    worst.truncate(4);
    assert!(worst.iter().all(|r| r["src"] == worst[0]["src"] && num(r, "vcs_held") == 16.0 && num(r, "lower_held") == 0.0), "the four worst frames: {worst:?}");
    let late: Vec<f64> = worst.iter().map(|r| num(r, "late_cycles")).collect();
    let queued: Vec<f64> = worst.iter().map(|r| num(r, "queue_wait")).collect();
    let ((late_lo, late_hi), (q_lo, q_hi)) = (min_max(&late), min_max(&queued));
    let p = "the four worst frames (all of source 7, 9,023 to\n  12,845 cycles late) waited 9,052 to 10,254 cycles for any source VC while all\n  16 held real-time messages stuck this way.";
    v.extend([d(p, "7", num(&worst[0], "src")), d(p, "9,023", late_lo), d(p, "12,845", late_hi), d(p, "9,052", q_lo), d(p, "10,254", q_hi)]);
    // The row of 5 real-time source VCs as first committed.
    let first = committed_csv(&format!("{FIRST_TRACE}:{SUMMARY}"));
    let rt5 = first.iter().find(|r| r["router"] == "p_rt5").expect("p_rt5 in the first trace");
    v.push(d("(The\n  row as first committed, 2026-11-27 05:21 UTC, said 2.98 ms;", "2.98", num(rt5, "library_missing_time_ms")));
    v.push(d("halves P's missing time\n  (53.0 µs), which stays over five times NP's", "53.0", 1000.0 * num(&run_row(SUMMARY, "p_acc"), "library_missing_time_ms")));
    v
}

/// "the rerun of 2026-11-29 … changes this row only, every other row of
/// both summaries reproducing in every column": each summary against its
/// version before the rerun, in the columns that version has (the rerun
/// added the missing time's half-width).
#[test]
fn the_trace_rerun_changed_only_the_p_rt5_row() {
    let before_rerun = format!("{TRACE_RERUN}^");
    for csv in [SUMMARY, SUMMARY_CAP] {
        let changed: Vec<String> = changes_since(&before_rerun, csv, &["router"]).into_iter().filter(|c| !c.changed.is_empty()).map(|c| c.key[0].clone()).collect();
        let expected: Vec<String> = if csv == SUMMARY { vec!["p_rt5".into()] } else { vec![] };
        assert_eq!(changed, expected, "{csv}: rows the rerun changed");
    }
}

/// "P with best effort capped at the output VCs": the capped trace's
/// waits before the header leaves, the shares of the lateness with every
/// output VC held, and K = 8's part of the wait in the source queue.
fn capped_trace() -> Vec<Derived> {
    let row = |router: &str| run_row(SUMMARY_CAP, router);
    let before_header = |r: &HashMap<String, String>| late_wait(r, "queue") + late_wait(r, "vc");
    let k12 = row("p_cap12");
    let p = "The late frames' last\n  messages wait 52.06 cycles at the source before their header leaves\n  (43.02 + 9.04; without the cap 1,114.48, NP 19.08)";
    let mut v = vec![
        d(p, "52.06", before_header(&k12)),
        d(p, "43.02", late_wait(&k12, "queue")),
        d(p, "9.04", late_wait(&k12, "vc")),
        d(p, "1,114.48", before_header(&row("p"))),
        d(p, "19.08", before_header(&row("np"))),
    ];
    let p = "carry 5.8 %\n  of the lateness (without the cap 63.9 %, NP none)";
    v.extend([d(p, "5.8", all_held_share(LATE_CAP, "p_cap12")), d(p, "63.9", all_held_share(LATE_CAP, "p"))]);
    assert_eq!(all_held_share(LATE_CAP, "np"), 0.0, "NP: no late frame with all 16 output VCs held");
    // K = 12 against NP in 80:20: the missing times' difference.
    let miss = |csv: &str, point: &'static str| 1000.0 * at(csv, &[("point", point), ("phase", "4")], "deadline_missing_time_ms");
    v.push(d("lies above it in 80:20, by 2 µs (7.8 ± 1.0 against 5.8 ± 0.6 µs)", "2", miss(CAP, "0.6 12") - miss(SLOT_END, "0.6 non_preemptive")));
    let total = |r: &HashMap<String, String>| WAITS.iter().map(|w| late_wait(r, w)).sum::<f64>();
    let k8_before = run_row(SUMMARY_CAP_BEFORE_FIX, "p_cap8");
    let p = "with K = 8 a tenth of the late frames' wait (60.01 of 608.80 cycles)\nis in the source queue, before their header met the router's credits\n(before the fix a third: 405.95 of 1,272.48 cycles).";
    v.extend([d(p, "608.80", total(&row("p_cap8"))), d(p, "1,272.48", total(&k8_before))]);
    v
}

/// "P with per-lane credits for the preemption lanes": K = 12 per lane
/// against per VC and NP in 80:20, its missing time's range over the
/// phases; without the cap, per lane against per VC in 80:20; control's
/// source queueing and latency in the three later phases.
fn per_lane_credits() -> Vec<Derived> {
    let cell = |csv: &str, point: &'static str, phase: &'static str, column: &str| at(csv, &[("point", point), ("phase", phase)], column);
    let (pr, half, time) = ("deadline_miss_probability", "deadline_miss_probability_ci95", "deadline_missing_time_ms");
    let p = "(80:20: 0.188 ± 0.021 against 0.179 ±\n  0.022 per VC and 0.170 ± 0.013 for NP)";
    let mut v = vec![
        d(p, "0.188", cell(LANE, "0.6 12", "4", pr)),
        d(p, "0.021", cell(LANE, "0.6 12", "4", half)),
        d(p, "0.179", cell(CAP, "0.6 12", "4", pr)),
        d(p, "0.022", cell(CAP, "0.6 12", "4", half)),
        d(p, "0.170", cell(SLOT_END, "0.6 non_preemptive", "4", pr)),
        d(p, "0.013", cell(SLOT_END, "0.6 non_preemptive", "4", half)),
    ];
    let lane12: Vec<f64> = ["0", "1", "2", "3", "4"].iter().map(|ph| 1000.0 * cell(LANE, "0.6 12", ph, time)).collect();
    let (lo, hi) = min_max(&lane12);
    let p = "NP's few µs (3.7–8.9 µs)";
    v.extend([d(p, "3.7", lo), d(p, "8.9", hi)]);
    let p = "(80:20: 93.7 µs against 102.7 µs per VC;";
    v.extend([d(p, "93.7", 1000.0 * cell(LANE, "0.6 16", "4", time)), d(p, "102.7", 1000.0 * cell(CAP, "0.6 16", "4", time))]);
    let p = "(0.503 ± 0.039 against 0.424 ± 0.045; the intervals";
    v.extend([
        d(p, "0.503", cell(LANE, "0.6 16", "0", pr)),
        d(p, "0.039", cell(LANE, "0.6 16", "0", half)),
        d(p, "0.424", cell(CAP, "0.6 16", "0", pr)),
        d(p, "0.045", cell(CAP, "0.6 16", "0", half)),
    ]);
    // Control (class 2) without the cap, phases 50:50, 70:30, 80:20.
    let control = |csv: &str, phase: &'static str, column: &str| at(csv, &[("point", "0.6 16"), ("phase", phase), ("class", "2")], column);
    let (cap_l, lane_l) = ("experiments/results/fig4_003_cap/phase_latency.csv", "experiments/results/fig4_003_lane/phase_latency.csv");
    let p = "source queueing in the three later phases falls from 15.4 / 11.3 / 10.5\n  µs to 0.7 / 1.9 / 2.0 µs, and its latency from 28.5 / 39.5 / 16.9 to 8.3\n  / 17.1 / 12.2 µs.";
    for (phase, [q_vc, q_lane, l_vc, l_lane]) in [("2", ["15.4", "0.7", "28.5", "8.3"]), ("3", ["11.3", "1.9", "39.5", "17.1"]), ("4", ["10.5", "2.0", "16.9", "12.2"])] {
        v.extend([
            d(p, q_vc, control(cap_l, phase, "queueing_us")),
            d(p, q_lane, control(lane_l, phase, "queueing_us")),
            d(p, l_vc, control(cap_l, phase, "latency_us")),
            d(p, l_lane, control(lane_l, phase, "latency_us")),
        ]);
    }
    v
}

/// A `vc_pressure.csv` row (run, phase).
fn pressure(run: &str, phase: &str) -> HashMap<String, String> {
    let rows: Vec<_> = read_csv(VC_PRESSURE).into_iter().filter(|r| r["run"] == run && r["phase"] == phase).collect();
    assert_eq!(rows.len(), 1, "{VC_PRESSURE}: one row {run} {phase}");
    rows.into_iter().next().unwrap()
}

/// "NP's static real-time VCs: do they bind?": the VC counts
/// (`vc_pressure_003.rs` writes them; its test checks the same numbers in
/// another binary, which the census does not run): cycles per real-time
/// header at VC allocation, shares (%) of the input- or output-port cycles
/// of the 8 ports, best effort's and real time's output VCs held while a
/// header waits.
fn vc_counts() -> Vec<Derived> {
    const PORTS: f64 = 8.0;
    let per_header = |run: &str, column: &str| {
        let r = pressure(run, "4");
        num(&r, column) / num(&r, "rt_headers")
    };
    let per_port = |run: &str, column: &str| {
        let r = pressure(run, "4");
        100.0 * num(&r, column) / (PORTS * num(&r, "cycles"))
    };
    let p = "in the 80:20 phase a header waits 8.1\n  cycles at VC allocation on average, 7.0 of them with its 4 output VCs\n  held (P: 4.0), under a microsecond against a 33.3 ms frame time; its 4\n  input VCs are all taken in 15.2 % of the input-port cycles.";
    let mut v = vec![
        d(p, "8.1", per_header("np_06", "rt_va_cycles")),
        d(p, "7.0", per_header("np_06", "rt_va_static_full")),
        d(p, "4.0", per_header("p_06", "rt_va_cycles")),
        d(p, "15.2", per_port("np_06", "rt_in_at_source_limit")),
    ];
    assert!(per_header("np_06", "rt_va_cycles") < CYCLES_PER_US, "under a microsecond");
    v.push(d("a port are taken in 57.4 % of the input-port cycles", "57.4", per_port("np_09", "rt_in_at_source_limit")));
    let waiting = |column: &str| {
        let r = pressure("p_09", "4");
        num(&r, column) / num(&r, "rt_va_cycles")
    };
    let p = "time is on more than 4 input VCs of a port in 41.2 % of the cycles and\n  holds more than 4 output VCs in 33.2 %. At VC\n  allocation P's real time fares *worse* than NP's: its headers wait 92.2\n  cycles there (NP 28.4), 89.1 of them with all 16 output VCs held, best\n  effort holding 7.70 of them and real time 8.21 on average meanwhile.";
    v.extend([
        d(p, "41.2", per_port("p_09", "rt_in_over_source_limit")),
        d(p, "33.2", per_port("p_09", "rt_out_over_static")),
        d(p, "92.2", per_header("p_09", "rt_va_cycles")),
        d(p, "28.4", per_header("np_09", "rt_va_cycles")),
        d(p, "89.1", per_header("p_09", "rt_va_all_full")),
        d(p, "7.70", waiting("held_at_wait_be")),
        d(p, "8.21", waiting("held_at_wait_rt")),
    ]);
    v
}

/// "Fewer VCs" and "streams bound to VCs": Little's law for NP's real
/// time with 8 VCs at 0.6 in 80:20 (rate per source × network cycles),
/// both routers' missing time in 70:30 and 80:20 there, and NP's source
/// queueing per stream at 0.6 over the phases.
fn fewer_vcs_and_streams() -> Vec<Derived> {
    let r = {
        let rows: Vec<_> = read_csv(PNP_8VC_LATENCY).into_iter().filter(|r| r["point"] == "0.6 non_preemptive" && r["phase"] == "4" && r["class"] == "1").collect();
        assert_eq!(rows.len(), 1);
        rows.into_iter().next().unwrap()
    };
    let in_flight = num(&r, "messages") / PHASE_CYCLES / ENDPOINTS * num(&r, "network_us") * CYCLES_PER_US;
    let mut v = vec![d("96 cycles\neach, 1.2 in flight)", "1.2", in_flight)];
    let late: Vec<f64> = ["0.6 non_preemptive", "0.6 preemptive"]
        .iter()
        .flat_map(|point| ["3", "4"].map(|phase| 1000.0 * at(PNP_8VC, &[("point", point), ("phase", phase)], "deadline_missing_time_ms")))
        .collect();
    let (lo, hi) = min_max(&late);
    let p = "(both miss by 2.7–3.6 µs there, and the";
    v.extend([d(p, "2.7", lo), d(p, "3.6", hi)]);
    let queued: Vec<f64> = read_csv(PNP_06_STREAM_LATENCY).iter().filter(|r| r["point"] == "0.6 non_preemptive" && r["class"] == "1").map(|r| num(r, "queueing_us")).collect();
    assert_eq!(queued.len(), 5, "five phases");
    v.push(d("(its real time\n  queues at most 0.9 µs at the source)", "0.9", min_max(&queued).1));
    v
}

fn derived() -> Vec<Derived> {
    [why_p_misses(), capped_trace(), per_lane_credits(), vc_counts(), fewer_vcs_and_streams()].into_iter().flatten().collect()
}

#[test]
fn prose_of_003_fig4_second_part_follows_from_the_committed_runs() {
    let errors = check_derived(&derived());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

/// "P with per-lane credits": the document's cycles of the hand-derived
/// unit test (`sim/src/lane_credit_tests.rs`, another crate's tests, which
/// the census does not run) must be the ones that test asserts.
#[test]
fn the_lane_credit_cycles_are_the_unit_tests() {
    let flat = doc_words();
    let sentence = "leaves the router in cycle ";
    let tail = flat.split(sentence).nth(1).expect("the lane-credit sentence");
    let words: Vec<&str> = tail.split(' ').take(8).collect();
    // "11 with per-lane credits, in cycle 31 with per-VC credits)."
    assert_eq!(&words[1..6], ["with", "per-lane", "credits,", "in", "cycle"], "{words:?}");
    let (lane, vc) = (words[0], words[6]);
    let source = std::fs::read_to_string(root().join("sim/src/lane_credit_tests.rs")).unwrap();
    let next = |c: &str| c.parse::<u64>().unwrap() + 1;
    for assertion in [
        format!("(Some({lane}), Some({})), \"per lane: C leaves\"", next(lane)),
        format!("(Some({vc}), Some({})), \"per VC: C leaves\"", next(vc)),
    ] {
        assert!(source.contains(&assertion), "sim/src/lane_credit_tests.rs does not assert {assertion:?}");
    }
}

/// The commit that reran `fig4_003_cap` after the message-id fix (§9.6).
const CAP_RERUN: &str = "995f09e";

/// `fig4_003_cap`'s K values whose `phases.csv` rows the rerun after the
/// id fix left as they were, and those it changed, with the phases changed.
fn cap_rerun_split() -> (Vec<String>, Vec<String>, Vec<u32>) {
    let csv = "experiments/results/fig4_003_cap/phases.csv";
    let rows = rerun_changes(CAP_RERUN, csv, &["point", "phase"]);
    let k_of = |c: &RowChange| c.key[0].split(' ').nth(1).expect("point = \"load K\"").to_string();
    let mut ks: Vec<String> = rows.iter().map(k_of).collect();
    ks.dedup();
    let moved: Vec<&RowChange> = rows.iter().filter(|c| !c.changed.is_empty()).collect();
    let phases: Vec<u32> = moved.iter().map(|c| c.key[1].parse().unwrap()).collect();
    let changed: Vec<String> = ks.iter().filter(|k| moved.iter().any(|c| &k_of(c) == *k)).cloned().collect();
    let unchanged = ks.into_iter().filter(|k| !changed.contains(k)).collect();
    (unchanged, changed, phases)
}

/// The capped trace's routers whose rows the rerun after the id fix left
/// as they were (`summary_cap_before_fix.csv` against `summary_cap.csv`,
/// in the columns the file before the fix has), and those it changed.
fn capped_trace_rerun_split() -> (Vec<String>, Vec<String>) {
    let before = read_csv(SUMMARY_CAP_BEFORE_FIX);
    let (mut same, mut moved) = (Vec::new(), Vec::new());
    for old in &before {
        let now = run_row(SUMMARY_CAP, &old["router"]);
        let label = match old["router"].strip_prefix("p_cap") {
            Some(k) => format!("K = {k}"),
            None => old["router"].to_uppercase(),
        };
        if old.iter().all(|(c, x)| &now[c] == x) { same.push(label) } else { moved.push(label) }
    }
    (same, moved)
}

/// "P with best effort capped at the output VCs": which points the
/// reruns after the id fix changed, as the document names them (the
/// sweep's K values; the trace's rows, twice).
#[test]
fn the_cap_reruns_changed_the_points_named() {
    let flat = doc_words();
    let (unchanged, changed, phases) = cap_rerun_split();
    assert!(phases.iter().all(|&p| p >= 2), "changed only in the last phases: {phases:?}");
    let [u1, u2] = <[String; 2]>::try_from(unchanged).expect("two K unchanged");
    let [c1, c2] = <[String; 2]>::try_from(changed).expect("two K changed");
    let sweep = format!("K = {u1} and K = {u2} are unchanged, K = {c1} and K = {c2} changed in the last phases.");
    assert!(flat.contains(&sweep), "docs/reproduction.md should say {sweep:?}");
    // The K whose rows are the uncapped P run of `fig4_003_slot_end`, cell
    // for cell (the point label aside).
    let cap = read_csv(CAP);
    let p_run: Vec<_> = read_csv(SLOT_END).into_iter().filter(|r| r["point"] == "0.6 preemptive").collect();
    let same_as_p: Vec<&str> = ["16", "12", "8", "4"]
        .into_iter()
        .filter(|k| {
            let rows: Vec<_> = cap.iter().filter(|r| r["point"] == format!("0.6 {k}")).collect();
            rows.len() == p_run.len() && rows.iter().zip(&p_run).all(|(a, b)| a.iter().all(|(c, x)| c == "point" || &b[c] == x))
        })
        .collect();
    let [k] = <[&str; 1]>::try_from(same_as_p).expect("one K reproduces the P run");
    let reproduces = format!("K = {k} reproduces the P row above cell for cell");
    assert!(flat.contains(&reproduces), "docs/reproduction.md should say {reproduces:?}");
    // The K at which best effort saturates: its accepted rate more than 2 %
    // below the offered 0.6, every other K's within 1 %.
    let results = read_csv("experiments/results/fig4_003_cap/results.csv");
    let offered = 0.6;
    let saturated: Vec<&str> = results.iter().filter(|r| num(r, "accepted_throughput") < 0.98 * offered).map(|r| r["router.best_effort_output_vcs"].as_str()).collect();
    assert!(results.iter().all(|r| saturated.contains(&r["router.best_effort_output_vcs"].as_str()) || num(r, "accepted_throughput") >= 0.99 * offered), "{results:?}");
    let [k] = <[&str; 1]>::try_from(saturated).expect("one K saturates best effort");
    let saturates = format!("With K = {k} best effort itself saturates:");
    assert!(flat.contains(&saturates), "docs/reproduction.md should say {saturates:?}");
    let (same, moved) = capped_trace_rerun_split();
    let [s1, s2, s3] = <[String; 3]>::try_from(same).expect("three rows unchanged");
    let [m1, m2] = <[String; 2]>::try_from(moved).expect("two rows changed");
    for sentence in [
        format!("its {s1}, {s2} and {s3} rows came out identical, its {m1} and {m2} rows changed"),
        format!("leave the {s1}, {s2} and {s3} rows identical; that the id rule is what moved {m1} and {m2}"),
    ] {
        assert!(flat.contains(&sentence), "docs/reproduction.md should say {sentence:?}");
    }
}

/// "The VC counts were rerun with the fix too …: the load-0.6 rows came
/// out byte for byte, the load-0.9 rows changed from 50:50 on": the
/// loads and the first phase changed, from the CSV before and after that
/// rerun (0b350ef).
#[test]
fn the_vc_count_rerun_changed_the_rows_named() {
    const PHASE_NAMES: [&str; 5] = ["20:80", "30:70", "50:50", "70:30", "80:20"];
    // Keyed by run and phase; the load rides along in the key.
    let rows = rerun_changes("0b350ef", VC_PRESSURE, &["run", "phase", "load"]);
    let changed: Vec<&RowChange> = rows.iter().filter(|c| !c.changed.is_empty()).collect();
    let loads_of = |rows: &[&RowChange]| {
        let mut l: Vec<String> = rows.iter().map(|c| c.key[2].clone()).collect();
        l.sort();
        l.dedup();
        l
    };
    let changed_loads = loads_of(&changed);
    let same_loads: Vec<String> = loads_of(&rows.iter().collect::<Vec<_>>()).into_iter().filter(|l| !changed_loads.contains(l)).collect();
    let [same] = <[String; 1]>::try_from(same_loads).expect("one load unchanged");
    let [moved] = <[String; 1]>::try_from(changed_loads.clone()).expect("one load changed");
    let phase = |c: &RowChange| c.key[1].parse::<usize>().unwrap();
    let first: usize = changed.iter().map(|c| phase(c)).min().unwrap();
    // From that phase on every row of the load changed.
    assert!(rows.iter().filter(|c| c.key[2] == moved && phase(c) >= first).all(|c| !c.changed.is_empty()), "every row from phase {first} on changed");
    let flat = doc_words();
    let sentence = format!("the load-{same} rows came out byte for byte, the load-{moved} rows changed from {} on", PHASE_NAMES[first]);
    assert!(flat.contains(&sentence), "docs/reproduction.md should say {sentence:?}");
}

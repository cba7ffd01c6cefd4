//! "Records with staggered GOPs: why P misses less" (issue 23): every
//! number of that section, formatted here from the committed
//! `experiments/results/fig4_003_stag_records/stag_records.csv` (written by
//! `sim/netsim/tests/stag_records_003.rs`, `summarize_the_stag_records`,
//! from the frames of `rt_8020_003.rs`'s `write_the_80_20_frames_np_stag`
//! and `…_p_selfpre_stag`), must appear in `docs/reproduction.md` as
//! written; the section's comparisons must hold in the file.

use super::rtvcs_8020::grouped;
use super::{read_csv, section_words};

const HEADING: &str = "#### Records with staggered GOPs: why P misses less (issue 23)";
const CSV: &str = "experiments/results/fig4_003_stag_records/stag_records.csv";

fn has(text: String) {
    assert!(section_words(HEADING).contains(&text), "not in the section: {text:?}");
}

#[test]
fn stag_records_section_numbers_follow_from_the_committed_split() {
    let rows = read_csv(CSV);
    let v = |run: &str, stat: &str, key: u64| -> f64 {
        let row = rows.iter().find(|r| r["run"] == run && r["stat"] == stat && r["key"] == key.to_string());
        row.unwrap_or_else(|| panic!("{CSV}: no {run} {stat} {key}"))["value"].parse().unwrap()
    };
    let (np, p) = ("np_stag", "p_selfpre_stag");
    let all = |run: &str, stat: &str| v(run, stat, 0);
    let int = |x: f64| grouped(x, 0);
    let one = |x: f64| grouped(x, 1);

    // Every miss a record.
    has(format!(
        "NP misses {} of its {} judged 80:20 frames, P {} of {}; every miss is a strict record of its stream's latency (no ties, nothing else)",
        int(all(np, "misses")),
        int(all(np, "judged")),
        int(all(p, "misses")),
        int(all(p, "judged"))
    ));
    for run in [np, p] {
        assert_eq!((all(run, "records"), all(run, "ties"), all(run, "other")), (all(run, "misses"), 0.0, 0.0), "{run}");
    }

    // Order within the phase against the carried maximum.
    has(format!(
        "i.i.d. latencies give {} and {} records, the same for both; the same latencies of each stream in a random order after the same M0 give {} for NP and {} for P, within {} and {} of what each set",
        one(all(np, "predicted_iid")),
        one(all(p, "predicted_iid")),
        one(all(np, "exchangeable")),
        one(all(p, "exchangeable")),
        one((all(np, "exchangeable") - all(np, "misses")).abs()),
        one((all(p, "exchangeable") - all(p, "misses")).abs())
    ));
    assert!((all(np, "predicted_iid") - all(p, "predicted_iid")).abs() < 1.0);
    for run in [np, p] {
        assert!((all(run, "exchangeable") - all(run, "misses")).abs() < 0.05 * all(run, "misses"), "{run}: order matters");
    }

    // (b): the tenths.
    let t = |run: &str, k: u64| v(run, "tenth_latency_mean", k);
    has(format!(
        "NP's mean L stays between {} and {} cycles over the eight tenths ({} in the first, {} in the eighth); P's rises from {} in the first to {} in the seventh ({} in the eighth)",
        int((0..8).map(|k| t(np, k)).fold(f64::MAX, f64::min)),
        int((0..8).map(|k| t(np, k)).fold(0.0, f64::max)),
        int(t(np, 0)),
        int(t(np, 7)),
        int(t(p, 0)),
        int(t(p, 6)),
        int(t(p, 7))
    ));
    assert!((0..8).map(|k| t(p, k)).fold(0.0, f64::max) == t(p, 6), "P's highest tenth is not the seventh");
    assert!((8..10).all(|k| !rows.iter().any(|r| r["stat"] == "tenth_judged" && r["key"] == k.to_string())), "frames judged in tenths 9, 10");

    // (a): the carried maximum.
    let ratio = |run: &str| all(run, "carried_mean") / all(run, "latency_mean");
    has(format!(
        "NP carries an M0 of {} cycles on average into the phase, {} times its 80:20 mean L of {}; P {}, {} times its {}",
        int(all(np, "carried_mean")),
        grouped(ratio(np), 2),
        int(all(np, "latency_mean")),
        int(all(p, "carried_mean")),
        grouped(ratio(p), 2),
        int(all(p, "latency_mean"))
    ));
    let frac = |run: &str| all(run, "above_carried") / all(run, "judged");
    has(format!(
        "{} of NP's frames ({}) lie above their stream's M0, and {} of its {} streams have one; of P's, {} ({}) and {}",
        int(all(np, "above_carried")),
        grouped(frac(np), 3),
        int(all(np, "streams_above_carried")),
        int(all(np, "streams")),
        int(all(p, "above_carried")),
        grouped(frac(p), 3),
        int(all(p, "streams_above_carried"))
    ));
    let early = |run: &str| (0..3).map(|k| v(run, "carried_set_in_phase", k)).sum::<f64>();
    has(format!(
        "{} of P's streams set their M0 in 20:80 to 50:50 (NP {}), {} in 70:30 (NP {})",
        int(early(p)),
        int(early(np)),
        int(v(p, "carried_set_in_phase", 3)),
        int(v(np, "carried_set_in_phase", 3))
    ));
    let h = |run: &str, k: u64| int(v(run, "history_latency_mean", k));
    has(format!(
        "NP {}, {}, {} and {} cycles in 20:80 to 70:30, then {} in 80:20; P {}, {}, {} and {}, then {}",
        h(np, 0),
        h(np, 1),
        h(np, 2),
        h(np, 3),
        int(all(np, "latency_mean")),
        h(p, 0),
        h(p, 1),
        h(p, 2),
        h(p, 3),
        int(all(p, "latency_mean"))
    ));
    assert!((0..3).all(|k| v(np, "history_latency_mean", k) < v(np, "history_latency_mean", k + 1)) && all(np, "latency_mean") > v(np, "history_latency_mean", 3));
    assert!(all(p, "latency_mean") < v(p, "history_latency_mean", 3), "P's 80:20 level is not below its 70:30 level");

    // (c): the distribution.
    let q = |run: &str, k: u64| int(v(run, "latency_quantile", k));
    has(format!(
        "median {} against NP's {} cycles, 90th percentile {} against {}, 99th {} against {}, maximum {} against {}",
        q(p, 50),
        q(np, 50),
        q(p, 90),
        q(np, 90),
        q(p, 99),
        q(np, 99),
        q(p, 100),
        q(np, 100)
    ));
    for k in [50, 90, 99, 100] {
        assert!(v(p, "latency_quantile", k) > v(np, "latency_quantile", k), "quantile {k}");
    }
    has(format!(
        "a stream's median averages {} cycles and its maximum {} ({} and {} for NP)",
        int(all(p, "stream_median_mean")),
        int(all(p, "stream_max_mean")),
        int(all(np, "stream_median_mean")),
        int(all(np, "stream_max_mean"))
    ));
    // 80 ns cycles: the mean lateness in µs is the section above's missing time.
    has(format!(
        "P's records beat the running maximum by {} cycles on average, NP's by {} (the missing times {} and {} µs)",
        int(all(p, "miss_increment_mean")),
        int(all(np, "miss_increment_mean")),
        one(all(p, "lateness_mean") * 0.08),
        one(all(np, "lateness_mean") * 0.08)
    ));
}

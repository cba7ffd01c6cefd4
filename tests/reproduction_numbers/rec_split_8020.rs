//! "Which frames miss in 80:20: records and the excess" (issue 23): every
//! number of that section, formatted here from the committed
//! `experiments/results/fig4_003_8020_trace/rec_split.csv` (written by
//! `sim/netsim/tests/rt_8020_003.rs`, `write_the_80_20_frames_<run>` and
//! `summarize_the_record_split`), must appear in `docs/reproduction.md` as
//! written; the section's comparisons must hold in the file.

use super::rtvcs_8020::{grouped, DIR};
use super::{read_csv, section_words};
use std::collections::HashMap;

const HEADING: &str = "#### Which frames miss in 80:20: records and the excess (issue 23)";

/// The cell `col` of `rec_split.csv`'s row `run`, `group`, `key`.
fn cell(rows: &[HashMap<String, String>], run: &str, group: &str, key: u64, col: &str) -> f64 {
    let row = rows.iter().find(|r| r["run"] == run && r["group"] == group && r["key"] == key.to_string());
    row.unwrap_or_else(|| panic!("rec_split.csv: no {run} {group} {key}"))[col].parse().unwrap()
}

/// Fails unless `text` is in the section as written.
fn has(text: String) {
    assert!(section_words(HEADING).contains(&text), "not in the section: {text:?}");
}

fn split_rows() -> Vec<HashMap<String, String>> {
    read_csv(&format!("{DIR}/rec_split.csv"))
}

#[test]
fn rec_split_8020_section_numbers_follow_from_the_committed_split() {
    let rows = split_rows();
    let v = |run: &str, group: &str, key: u64, col: &str| cell(&rows, run, group, key, col);
    let all = |run: &str, col: &str| v(run, "all", 0, col);
    let int = |x: f64| grouped(x, 0);
    let (np, p, cap) = ("np", "p_ctlvc", "p_ctlvc_rt4");
    let excess = |run: &str| all(run, "misses") - all(run, "predicted");

    // Every miss a strict record.
    has(format!(
        "NP misses {} of its {} judged frames, P without the cap {} of {} ({} of them a tie), capped {} of {}; no miss of any other kind and no record on time",
        int(all(np, "misses")),
        int(all(np, "judged")),
        int(all(p, "misses")),
        int(all(p, "judged")),
        int(all(p, "ties")),
        int(all(cap, "misses")),
        int(all(cap, "judged"))
    ));
    for run in [np, p, cap] {
        assert_eq!(all(run, "other") + all(run, "missed_records"), 0.0, "{run}");
        assert_eq!(all(run, "records") + all(run, "ties"), all(run, "misses"), "{run}");
    }
    assert_eq!((all(np, "ties"), all(cap, "ties")), (0.0, 0.0));

    // Afresh against the history, and the excess.
    let streams = all(np, "streams");
    has(format!(
        "{} streams) records would be {} for NP ({} of its frames), {} and {} for the two P runs: more than any of them missed",
        int(streams),
        grouped(all(np, "predicted_fresh"), 1),
        grouped(all(np, "predicted_fresh") / all(np, "judged"), 3),
        grouped(all(p, "predicted_fresh"), 1),
        grouped(all(cap, "predicted_fresh"), 1)
    ));
    for run in [np, p, cap] {
        assert!(all(run, "predicted_fresh") > all(run, "misses"), "{run}: afresh not above the misses");
        assert_eq!(all(run, "streams"), streams, "{run}: streams");
    }
    let younger = v(np, "age", 4, "streams");
    has(format!("But {} of the {} streams began in earlier phases", int(streams - younger), int(streams)));
    has(format!(
        "i.i.d. latencies give {} records for NP ({} of its frames), {} and {} for the two P runs",
        grouped(all(np, "predicted"), 1),
        grouped(all(np, "predicted") / all(np, "judged"), 3),
        grouped(all(p, "predicted"), 1),
        grouped(all(cap, "predicted"), 1)
    ));
    let per_stream = |run: &str| grouped(excess(run) / all(run, "streams"), 2);
    has(format!(
        "The excess over that: NP {} misses ({} a stream), without the cap {} ({}), capped {} ({})",
        grouped(excess(np), 1),
        per_stream(np),
        grouped(excess(p), 1),
        per_stream(p),
        grouped(excess(cap), 1),
        per_stream(cap)
    ));

    // The trend over the tenths.
    let lat = |run: &str, t: u64| int(v(run, "tenth", t, "latency_mean"));
    has(format!(
        "{} cycles in the first, {} in the second, {} in the third, {}, {} and {} in the fourth to sixth, {} and {} in the seventh and eighth",
        lat(np, 0),
        lat(np, 1),
        lat(np, 2),
        lat(np, 3),
        lat(np, 4),
        lat(np, 5),
        lat(np, 6),
        lat(np, 7)
    ));
    let tenths: Vec<u64> = rows.iter().filter(|r| r["run"] == np && r["group"] == "tenth").map(|r| r["key"].parse().unwrap()).collect();
    assert_eq!(tenths, (0..8).collect::<Vec<_>>(), "frames judged in tenths other than the first eight");
    let misses = |run: &str, ts: std::ops::Range<u64>| ts.map(|t| v(run, "tenth", t, "misses")).sum::<f64>();
    let thirds = |run: &str| (misses(run, 0..2), misses(run, 2..6), misses(run, 6..8));
    let ((n0, n1, n2), (c0, c1, c2), (p0, p1, p2)) = (thirds(np), thirds(cap), thirds(p));
    has(format!(
        "of NP's {}, {} in the first two tenths, {} in the middle four, {} in the last two; capped {}, {} and {} of {}",
        int(all(np, "misses")),
        int(n0),
        int(n1),
        int(n2),
        int(c0),
        int(c1),
        int(c2),
        int(all(cap, "misses"))
    ));
    has(format!(
        "({} cycles on average against NP's {}), {}, {} and {} of {}",
        int(all(p, "latency_mean")),
        int(all(np, "latency_mean")),
        int(p0),
        int(p1),
        int(p2),
        int(all(p, "misses"))
    ));
    // "higher throughout": in every tenth
    for t in 0..8 {
        assert!(v(p, "tenth", t, "latency_mean") > v(np, "tenth", t, "latency_mean"), "tenth {t}");
    }

    // The gap.
    let gap = all(cap, "misses") - all(np, "misses");
    let (pc, pn) = (all(cap, "predicted"), all(np, "predicted"));
    has(format!("The capped run misses {} frames more than NP with the same prediction ({} against {})", int(gap), grouped(pc, 1), grouped(pn, 1)));
    assert!((pc - pn).abs() < 1.0, "the predictions differ");
    let excess_gap = excess(cap) - excess(np);
    has(format!("so its excess over NP's is the gap ({} misses, {} of its judged frames)", grouped(excess_gap, 1), grouped(excess_gap / all(cap, "judged"), 3)));
    has(format!("**The {} gap is excess, and sits in the phase's last part.**", grouped(excess_gap / all(cap, "judged"), 2)));
    let prob_gap = all(cap, "misses") / all(cap, "judged") - all(np, "misses") / all(np, "judged");
    assert!((excess_gap / all(cap, "judged") - prob_gap).abs() < 0.001, "the excess is not the gap: {prob_gap}");
    has(format!(
        "{} of them in the first two tenths, {} in the middle four, {} in the last two, where its mean L is {} and {} cycles against NP's {} and {}",
        int(c0 - n0),
        int(c1 - n1),
        int(c2 - n2),
        lat(cap, 6),
        lat(cap, 7),
        lat(np, 6),
        lat(np, 7)
    ));
    assert!(c2 - n2 > (gap / 2.0), "the last two tenths do not carry most of the gap");
    let by = |group: &str, key: u64| v(cap, group, key, "misses") - v(np, group, key, "misses");
    has(format!(
        "VC 2 carries {} more and VC 4 {}, VCs 1 and 3 {} and {} fewer; by age, the streams of the first phase {} more",
        int(by("vc", 2)),
        int(by("vc", 4)),
        ["zero", "one", "two", "three", "four", "five"][-by("vc", 1) as usize],
        ["zero", "one", "two", "three", "four", "five"][-by("vc", 3) as usize],
        int(by("age", 0))
    ));

    // The P frames.
    let gop = |run: &str, pos: u64, col: &str| v(run, "gop", pos, col);
    let positions: Vec<u64> = rows.iter().filter(|r| r["run"] == np && r["group"] == "gop").map(|r| r["key"].parse().unwrap()).collect();
    assert_eq!(positions, (5..10).collect::<Vec<_>>(), "the phase judges GOP positions 5 to 9");
    let glat = |pos: u64| int(gop(np, pos, "latency_mean"));
    let p_misses = gop(np, 6, "misses") + gop(np, 9, "misses");
    has(format!(
        "NP's mean L at positions 6 and 9 is {} and {} cycles, at the B frames 7 and 8 {} and {}; the P frames carry {} of NP's {} misses",
        glat(6),
        glat(9),
        glat(7),
        glat(8),
        int(p_misses),
        int(all(np, "misses"))
    ));
    for pos in [7, 8] {
        assert!(gop(np, pos, "latency_mean") * 5.0 < gop(np, 6, "latency_mean").min(gop(np, 9, "latency_mean")), "position {pos}");
    }
    // The last two GOP positions the phase judges (the P frame 9 and the
    // B frame 8), where the capped run's extra misses fall.
    let late = [positions[positions.len() - 2], positions[positions.len() - 1]];
    let late_gop = |capped: &str, base: &str| late.iter().map(|&k| v(capped, "gop", k, "misses") - v(base, "gop", k, "misses")).sum::<f64>();
    let gap2 = v("p_ctlvc_rt4_seed2", "all", 0, "misses") - v("np_seed2", "all", 0, "misses");
    has(format!(
        "P capped's {} extra misses fall at positions {} and {}: {} of them (seed 2: {} of {})",
        int(gap),
        late[0],
        late[1],
        int(late_gop(cap, np)),
        int(late_gop("p_ctlvc_rt4_seed2", "np_seed2")),
        int(gap2)
    ));
    assert!(late_gop(cap, np) > 0.8 * gap && late_gop("p_ctlvc_rt4_seed2", "np_seed2") > 0.7 * gap2);
    has(format!("why the capped run's streams set more records at positions {} and {} than NP's", late[0], late[1]));
}

/// The section's second-seed bullet: the seed-2 rows of `rec_split.csv`
/// and the runs' `<run>_phases.csv`.
#[test]
fn rec_split_8020_second_seed_follows_from_the_committed_split() {
    let rows = split_rows();
    let v = |run: &str, group: &str, key: u64, col: &str| cell(&rows, run, group, key, col);
    let (np, cap) = ("np_seed2", "p_ctlvc_rt4_seed2");
    let phase_80 = |run: &str, col: &str| -> f64 {
        let t = read_csv(&format!("{DIR}/{run}_phases.csv"));
        t.iter().find(|r| r["realtime_percent"] == "80").unwrap()[col].parse().unwrap()
    };
    let miss = |run: &str| (phase_80(run, "deadline_miss_probability"), phase_80(run, "deadline_miss_probability_ci95"));
    let ((mc, hc), (mn, hn)) = (miss(cap), miss(np));
    has(format!("missing probability {} ± {} capped against NP's {} ± {} (overlapping again)", grouped(mc, 3), grouped(hc, 3), grouped(mn, 3), grouped(hn, 3)));
    assert!((mc - mn).abs() < hc + hn && mc > mn);
    let int = |x: f64| grouped(x, 0);
    let late = |run: &str| v(run, "tenth", 6, "misses") + v(run, "tenth", 7, "misses");
    let gap = v(cap, "all", 0, "misses") - v(np, "all", 0, "misses");
    has(format!(
        "{} frames more with the same prediction ({} against {}), {} of them in the last two tenths",
        int(gap),
        grouped(v(cap, "all", 0, "predicted"), 1),
        grouped(v(np, "all", 0, "predicted"), 1),
        int(late(cap) - late(np))
    ));
    assert!(late(cap) - late(np) > gap / 2.0);
    let lat = |run: &str, t: u64| int(v(run, "tenth", t, "latency_mean"));
    has(format!("mean L is {} and {} cycles against NP's {} and {}", lat(cap, 6), lat(cap, 7), lat(np, 6), lat(np, 7)));
    // "not the latency difference": not higher in both of the last two tenths
    assert!((6..8).any(|t| v(cap, "tenth", t, "latency_mean") < v(np, "tenth", t, "latency_mean")));
    let by_vc = |k: u64| v(cap, "vc", k, "misses") - v(np, "vc", k, "misses");
    has(format!("fall on VCs 1 ({}) and 4 ({}) rather than 2", int(by_vc(1)), int(by_vc(4))));
    assert!(by_vc(2) < by_vc(1).min(by_vc(4)));
}

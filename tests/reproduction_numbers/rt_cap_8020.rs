//! "P with real time capped at 4 output VCs in 80:20" (issue 23): every
//! number of that section, formatted here from the committed
//! `experiments/results/fig4_003_8020_trace/rt_cap4.csv` and
//! `p_ctlvc_rt4_phases.csv` (written by `sim/netsim/tests/rt_8020_003.rs`,
//! `write_the_80_20_log_p_ctlvc_rt4` and `summarize_the_rt_cap_run`) and
//! NP's and `p_ctlvc`'s rows of `hold_split.csv` beside them, must appear in
//! `docs/reproduction.md` as written; the section's comparisons must hold
//! in the files.

use super::rtvcs_8020::{grouped, np_missing_time_half_width_us, CYCLE_US, DIR};
use super::{read_csv, section_words};

#[test]
fn rt_cap_8020_section_numbers_follow_from_the_committed_trace() {
    let flat = section_words("#### P with real time capped at 4 output VCs in 80:20 (issue 23)");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let hold = read_csv(&format!("{DIR}/hold_split.csv"));
    let capped = read_csv(&format!("{DIR}/rt_cap4.csv"));
    let v = |name: &str, col: &str| -> f64 {
        let row = hold.iter().chain(&capped).find(|r| r["run"] == name).unwrap_or_else(|| panic!("no run {name}"));
        row[col].parse().unwrap()
    };
    let phase_80 = |name: &str, col: &str| -> f64 {
        let t = read_csv(&format!("{DIR}/{name}_phases.csv"));
        t.iter().find(|r| r["realtime_percent"] == "80").unwrap()[col].parse().unwrap()
    };
    let (np, p, rt4) = ("np", "p_ctlvc", "p_ctlvc_rt4");
    let above = "out_vcs_higher_above_4";
    let found = |run: &str| (v(run, above) * v(run, "rt_messages")).round();
    has(format!(
        "control for {} of its {} messages (NP {} of {}), where without the cap it did for {} % of them",
        found(rt4),
        grouped(v(rt4, "rt_messages"), 0),
        found(np),
        grouped(v(np, "rt_messages"), 0),
        grouped(100.0 * v(p, above), 1)
    ));
    assert!(v(rt4, above) < v(p, above) / 1000.0, "the cap did not remove the share above 4");
    let t = "after_tail_mean";
    has(format!("tail leaving to delivery {} cycles against NP's {} and {} without the cap", grouped(v(rt4, t), 1), grouped(v(np, t), 1), grouped(v(p, t), 1)));
    let q = "source_queueing_mean";
    has(format!(
        "source queueing {} cycles ({} µs) against NP's {} and {} without the cap",
        grouped(v(rt4, q), 1),
        grouped(v(rt4, q) * CYCLE_US, 1),
        grouped(v(np, q), 1),
        grouped(v(p, q), 1)
    ));
    // "within N %": N is the measured excess over NP's, rounded up.
    let within = (100.0 * (v(rt4, q) / v(np, q) - 1.0)).ceil();
    has(format!("source queueing comes down to within {within} % of NP's"));
    let s = "vc_service_mean";
    has(format!("holds its source VC {} cycles (NP {}, {} without the cap)", grouped(v(rt4, s), 1), grouped(v(np, s), 1), grouped(v(p, s), 1)));
    let miss = |run: &str| (phase_80(run, "deadline_miss_probability"), phase_80(run, "deadline_miss_probability_ci95"));
    let ((m4, h4), (mn, hn), (mp, hp)) = (miss(rt4), miss(np), miss(p));
    has(format!(
        "missing probability {} ± {} against NP's {} ± {} and {} ± {} without the cap",
        grouped(m4, 3),
        grouped(h4, 3),
        grouped(mn, 3),
        grouped(hn, 3),
        grouped(mp, 3),
        grouped(hp, 3)
    ));
    // "the three intervals overlap pairwise"; "does not follow": not lower
    for ((a, ha), (b, hb)) in [((m4, h4), (mn, hn)), ((m4, h4), (mp, hp)), ((mn, hn), (mp, hp))] {
        assert!((a - b).abs() < ha + hb, "{a} ± {ha} and {b} ± {hb} apart");
    }
    assert!(m4 >= mp && m4 >= mn);
    let ms = |run: &str| phase_80(run, "deadline_missing_time_ms") * 1000.0;
    let half = |run: &str| phase_80(run, "deadline_missing_time_ci95_ms") * 1000.0;
    let hn_t = np_missing_time_half_width_us();
    has(format!(
        "by {} ± {} µs on average (NP {} ± {}, overlapping; without the cap {} ± {})",
        grouped(ms(rt4), 1),
        grouped(half(rt4), 1),
        grouped(ms(np), 1),
        grouped(hn_t, 1),
        grouped(ms(p), 1),
        grouped(half(p), 1)
    ));
    assert!((ms(rt4) - ms(np)).abs() < half(rt4) + hn_t, "p_ctlvc_rt4's missing time apart from NP's");
}

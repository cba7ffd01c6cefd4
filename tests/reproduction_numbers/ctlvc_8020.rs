//! "P with NP's source binding in 80:20" (issue 23): every number of that
//! section, formatted here from the committed trace
//! `experiments/results/fig4_003_8020_trace/hold_split.csv` (written by
//! `sim/netsim/tests/rt_8020_003.rs`, `summarize_the_source_vc_holds`) and
//! the runs' `<run>_phases.csv` beside it, must appear in
//! `docs/reproduction.md` as written; the section's comparisons (more,
//! fewer, overlapping, unchanged) must hold in the file.

use super::rtvcs_8020::{grouped, np_missing_time_half_width_us, CYCLE_US, DIR};
use super::{read_csv, section_words};

#[test]
fn ctlvc_8020_section_numbers_follow_from_the_committed_trace() {
    let flat = section_words("#### P with NP's source binding in 80:20 (issue 23)");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let rows = read_csv(&format!("{DIR}/hold_split.csv"));
    let run = |name: &str| rows.iter().find(|r| r["run"] == name).unwrap_or_else(|| panic!("hold_split.csv: no run {name}"));
    let v = |name: &str, col: &str| -> f64 { run(name)[col].parse().unwrap() };
    let phase_80 = |name: &str, col: &str| -> f64 {
        let t = read_csv(&format!("{DIR}/{name}_phases.csv"));
        t.iter().find(|r| r["realtime_percent"] == "80").unwrap()[col].parse().unwrap()
    };
    let (np, p, p11) = ("np", "p_ctlvc", "p_ctlvc_be11");
    let q = "source_queueing_mean";
    has(format!("P still queues more: {} cycles ({} µs) against NP's {} ({} µs)", grouped(v(p, q), 1), grouped(v(p, q) * CYCLE_US, 1), grouped(v(np, q), 1), grouped(v(np, q) * CYCLE_US, 1)));
    assert!(v(p, q) > 1.5 * v(np, q));
    has(format!("{} of them waiting for the stream's VC behind other streams (NP {}), none behind control or best effort", grouped(v(p, "vc_wait_other_stream"), 1), grouped(v(np, "vc_wait_other_stream"), 1)));
    assert_eq!((v(p, "vc_wait_control"), v(p, "vc_wait_best_effort")), (0.0, 0.0), "none behind control or best effort");
    let (pp, ph, np_p, np_h) = (phase_80(p, "deadline_miss_probability"), phase_80(p, "deadline_miss_probability_ci95"), phase_80(np, "deadline_miss_probability"), phase_80(np, "deadline_miss_probability_ci95"));
    let (tp, hp) = (phase_80(p, "deadline_missing_time_ms") * 1000.0, phase_80(p, "deadline_missing_time_ci95_ms") * 1000.0);
    let (tn, hn) = (phase_80(np, "deadline_missing_time_ms") * 1000.0, np_missing_time_half_width_us());
    has(format!(
        "probability {} ± {} (NP {} ± {}, overlapping) by {} ± {} µs on average (NP {} ± {}, the intervals apart)",
        grouped(pp, 3),
        grouped(ph, 3),
        grouped(np_p, 3),
        grouped(np_h, 3),
        grouped(tp, 1),
        grouped(hp, 1),
        grouped(tn, 1),
        grouped(hn, 1)
    ));
    assert!(tp - hp > tn + hn, "p_ctlvc's missing time not above NP's: {tp} ± {hp} against {tn} ± {hn}");
    assert!((pp - np_p).abs() < ph + np_h, "p_ctlvc and NP apart in 80:20");
    // The hold: flits + no credit + link, as the writer splits it.
    let s = "vc_service_mean";
    has(format!("{} cycles a message against NP's {}, all of it in cycles without a credit** ({} against {}; the link given to another VC takes fewer, {} against {})", grouped(v(p, s), 1), grouped(v(np, s), 1), grouped(v(p, "service_no_credit_mean"), 1), grouped(v(np, "service_no_credit_mean"), 1), grouped(v(p, "service_link_mean"), 1), grouped(v(np, "service_link_mean"), 1)));
    assert!(v(p, "service_no_credit_mean") - v(np, "service_no_credit_mean") >= v(p, s) - v(np, s), "not all of it without credit");
    assert!(v(p, "service_link_mean") < v(np, "service_link_mean"));
    assert_eq!((v(p, "service_flits_mean"), v(np, "service_flits_mean")), (40.0, 40.0));
    has(format!("held {} of the phase against NP's {}", grouped(v(p, "vc_busy_mean"), 3), grouped(v(np, "vc_busy_mean"), 3)));
    has(format!("tail leaving to delivery {} against {} cycles", grouped(v(p, "after_tail_mean"), 1), grouped(v(np, "after_tail_mean"), 1)));
    has(format!("{} output VCs of its destination's port were held by real time or control (NP {}), more than 4 for {} % of the messages", grouped(v(p, "out_vcs_higher_mean"), 2), grouped(v(np, "out_vcs_higher_mean"), 2), grouped(100.0 * v(p, "out_vcs_higher_above_4"), 1)));
    let np_n = v(np, "rt_messages");
    has(format!("{} of its {} found 5", (v(np, "out_vcs_higher_above_4") * np_n).round(), grouped(np_n, 0)));
    has(format!("whose header found none held their VC {} cycles against NP's {}", grouped(v(p, "vc_service_mean_out_higher_0"), 1), grouped(v(np, "vc_service_mean_out_higher_0"), 1)));
    has(format!("P delivers {} real-time flits a cycle per endpoint against NP's {} and {} best-effort ones against {}", grouped(v(p, "rt_delivered_per_cycle"), 4), grouped(v(np, "rt_delivered_per_cycle"), 4), grouped(v(p, "be_delivered_per_cycle"), 4), grouped(v(np, "be_delivered_per_cycle"), 4)));
    has(format!(
        "cuts its share to {} but not the queueing: {} cycles, hold {}, missing probability {} ± {}",
        grouped(v(p11, "be_delivered_per_cycle"), 4),
        grouped(v(p11, q), 1),
        grouped(v(p11, s), 1),
        grouped(phase_80(p11, "deadline_miss_probability"), 3),
        grouped(phase_80(p11, "deadline_miss_probability_ci95"), 3)
    ));
    // "Not the queueing": within 1 % of p_ctlvc's, far above NP's.
    assert!((v(p11, q) / v(p, q) - 1.0).abs() < 0.01 && v(p11, "be_delivered_per_cycle") < v(p, "be_delivered_per_cycle"));
    has(format!("{} times as long at the source as NP's, and each message holds its source VC {} cycles longer", grouped(v(p, q) / v(np, q), 2), grouped(v(p, s) - v(np, s), 1)));
}

//! "Why real time on 3 source VCs queues in 80:20" (issue 23): every number
//! of that section, formatted here from the committed trace
//! `experiments/results/fig4_003_8020_trace/rtvcs.csv` (written by
//! `sim/netsim/tests/rt_8020_003.rs`) and the runs' `<run>_phases.csv`
//! beside it, must appear in `docs/reproduction.md` as written.

use super::{read_csv, rounded_like, section_words};
use std::collections::HashMap;

pub(super) const DIR: &str = "experiments/results/fig4_003_8020_trace";
/// One cycle of the 1,600 Mb/s, 128-bit links: 80 ns.
pub(super) const CYCLE_US: f64 = 0.08;

/// `x` with `d` decimals and thousands separators, as the document writes.
pub(super) fn grouped(x: f64, d: usize) -> String {
    // `rounded_like` takes its decimals and grouping from a written number.
    let like = if d == 0 { "1,000".to_string() } else { format!("1,000.{}", "0".repeat(d)) };
    rounded_like(x, &like)
}

/// The 95 % half-width (µs) of NP's 80:20 missing time. NP's trace run
/// (`np_phases.csv`) is its sweep's point (`fig4_003_pnp_09_stream`, 0.9
/// non_preemptive), whose phases.csv carries the half-width the trace's
/// file predates; checked to be the same run in the columns both have.
pub(super) fn np_missing_time_half_width_us() -> f64 {
    let at_80 = |rows: Vec<HashMap<String, String>>, point: Option<&str>| {
        rows.into_iter()
            .find(|r| r["realtime_percent"] == "80" && point.map_or(true, |p| r["point"] == p))
            .expect("an 80:20 row")
    };
    let trace = at_80(read_csv(&format!("{DIR}/np_phases.csv")), None);
    let sweep = at_80(read_csv("experiments/results/fig4_003_pnp_09_stream/phases.csv"), Some("0.9 non_preemptive"));
    for col in ["frames_judged", "deadline_miss_probability", "deadline_miss_probability_ci95", "deadline_missing_time_ms"] {
        assert_eq!(trace[col], sweep[col], "NP's trace and its sweep twin differ in {col}");
    }
    sweep["deadline_missing_time_ci95_ms"].parse::<f64>().unwrap() * 1000.0
}

#[test]
fn rtvcs_8020_section_numbers_follow_from_the_committed_trace() {
    let flat = section_words("#### Why real time on 3 source VCs queues in 80:20 (issue 23)");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let rows = read_csv(&format!("{DIR}/rtvcs.csv"));
    let run = |name: &str| rows.iter().find(|r| r["run"] == name).unwrap_or_else(|| panic!("rtvcs.csv: no run {name}"));
    let v = |name: &str, col: &str| -> f64 { run(name)[col].parse().unwrap() };
    let phase_80 = |name: &str, col: &str| -> f64 {
        let t = read_csv(&format!("{DIR}/{name}_phases.csv"));
        let r = t.iter().find(|r| r["realtime_percent"] == "80").unwrap();
        r[col].parse().unwrap()
    };
    let q = "source_queueing_mean";
    let (np, p3, p4) = ("np", "p_rtvcs", "p_rtvcs4");
    has(format!("queueing (release to header leaving) is {} cycles ({} µs) under `fig4_003_p_09_stream_rtvcs` against {} cycles ({} µs) under NP.", grouped(v(p3, q), 1), grouped(v(p3, q) * CYCLE_US, 1), grouped(v(np, q), 1), grouped(v(np, q) * CYCLE_US, 1)));
    has(format!("P's messages waited {} cycles for their stream's VC while another stream's message held it (NP's: {}), {} cycles behind control and none behind best effort", grouped(v(p3, "vc_wait_other_stream"), 1), grouped(v(np, "vc_wait_other_stream"), 1), grouped(v(p3, "vc_wait_control"), 2)));
    assert_eq!(v(p3, "vc_wait_best_effort"), 0.0, "the section says none behind best effort");
    has(format!("holds its VC about as long under both ({} against {} cycles)", grouped(v(p3, "vc_service_mean"), 1), grouped(v(np, "vc_service_mean"), 1)));
    // 96 streams a source (the 80:20 phase's) over the VCs real time used.
    has(format!("P binds each source's 96 streams to 3 VCs, {} streams a VC, where NP binds them to 4, {} a VC", v(p3, "streams_per_vc"), v(np, "streams_per_vc")));
    assert_eq!((v(p3, "rt_vcs"), v(np, "rt_vcs")), (8.0 * 3.0, 8.0 * 4.0), "8 sources × 3 and × 4 VCs");
    has(format!("P's VCs are held {} of the phase on average against NP's {}", grouped(v(p3, "vc_busy_mean"), 3), grouped(v(np, "vc_busy_mean"), 3)));
    has(format!("a VC; VC 3 is also one of best effort's, 3..=15), queues {} cycles ({} µs)", grouped(v(p4, q), 1), grouped(v(p4, q) * CYCLE_US, 1)));
    assert_eq!(v(p4, "streams_per_vc"), 24.0, "p_rtvcs4: 24 streams a VC");
    let (t4, h4) = (phase_80(p4, "deadline_missing_time_ms") * 1000.0, phase_80(p4, "deadline_missing_time_ci95_ms") * 1000.0);
    let (tn, hn) = (phase_80(np, "deadline_missing_time_ms") * 1000.0, np_missing_time_half_width_us());
    has(format!(
        "misses with probability {} ± {}, within NP's {} ± {}, but by more time, {} ± {} µs on average against NP's {} ± {} (the intervals apart;",
        grouped(phase_80(p4, "deadline_miss_probability"), 3),
        grouped(phase_80(p4, "deadline_miss_probability_ci95"), 3),
        grouped(phase_80(np, "deadline_miss_probability"), 3),
        grouped(phase_80(np, "deadline_miss_probability_ci95"), 3),
        grouped(t4, 1),
        grouped(h4, 1),
        grouped(tn, 1),
        grouped(hn, 1)
    ));
    assert!(t4 - h4 > tn + hn, "p_rtvcs4's missing time not above NP's: {t4} ± {h4} against {tn} ± {hn}");
    // "Within": the two 95 % intervals overlap.
    let (a, ha, b, hb) = (phase_80(p4, "deadline_miss_probability"), phase_80(p4, "deadline_miss_probability_ci95"), phase_80(np, "deadline_miss_probability"), phase_80(np, "deadline_miss_probability_ci95"));
    assert!((a - b).abs() < ha + hb, "p_rtvcs4 and NP apart in 80:20");
    has(format!("explains most of the queueing ({} to {} µs)", grouped(v(p3, q) * CYCLE_US, 1), grouped(v(p4, q) * CYCLE_US, 1)));
    has(format!("the rest of the queueing to NP's {} µs: next section.", grouped(v(np, q) * CYCLE_US, 1)));
    has(format!("NP's ({} against {} cycles) and wait {} cycles a message behind best effort on VC 3", grouped(v(p4, "vc_service_mean"), 1), grouped(v(np, "vc_service_mean"), 1), grouped(v(p4, "vc_wait_best_effort"), 1)));
    has(format!("those on VCs 0..=2 queue {} cycles, those on VC 3 {}.", grouped(v(p4, "source_queueing_mean_on_vcs_0_2"), 1), grouped(v(p4, "source_queueing_mean_on_vcs_3_up"), 1)));
}

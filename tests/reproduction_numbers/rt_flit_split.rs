//! "Where P's router passes real-time flits on later" (issue 23): the
//! table's cells against the committed
//! `experiments/results/fig4_003_8020_trace/router_split.csv` (written by
//! `sim/netsim/tests/rt_8020_003.rs`, `write_the_router_split`), and every
//! number of the section's prose formatted from the same file, with the
//! comparisons the prose draws (more, less, alike, grows) checked on it.

use super::rtvcs_8020::{grouped, DIR};
use super::*;
use models::sel;

const CSV: &str = "experiments/results/fig4_003_8020_trace/router_split.csv";

/// The table's columns, after the row's name.
const COLUMNS: [&str; 8] = [
    "after_tail_mean",
    "vc_allocation_after_tail",
    "crossing_after_tail",
    "link_to_lower_after_tail",
    "link_to_same_after_tail",
    "ready_idle_after_tail",
    "switch_output_taken_after_tail",
    "switch_to_other_vc_after_tail",
];

/// The table's rows: passage, run, group.
fn rows() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        ("| NP, all | 129.8 | 18.0 | 32.3 | 2.5 | 24.9 | 1.9 | 47.6 | 2.5 |", "np", "all"),
        ("| P, all | 143.8 | 7.5 | 33.3 | 2.9 | 25.4 | 1.8 | 70.4 | 2.5 |", "p_ctlvc", "all"),
        ("| P, header found at most 4 | 126.9 | 7.7 | 32.6 | 3.2 | 23.6 | 2.1 | 54.9 | 2.8 |", "p_ctlvc", "not_lower_le4"),
        ("| P, header found more than 4 | 244.0 | 6.3 | 37.5 | 0.6 | 35.9 | 0.4 | 162.5 | 0.8 |", "p_ctlvc", "not_lower_gt4"),
    ]
}

pub(super) fn claims() -> Vec<Claim> {
    rows()
        .into_iter()
        .map(|(passage, run, group)| {
            let row = sel(&[("run", run), ("group", group)]);
            Claim { passage, numbers: row_numbers(passage).into_iter().zip(COLUMNS).map(|(w, c)| n(w, CSV, row, c)).collect() }
        })
        .collect()
}

#[test]
fn rt_flit_split_section_follows_from_the_committed_split() {
    assert!(check(&claims()).is_empty(), "{:#?}", check(&claims()));
    let flat = section_words("#### Where P's router passes real-time flits on later (issue 23)");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let table = read_csv(CSV);
    assert!(CSV.starts_with(DIR));
    let v = |run: &str, group: &str, col: &str| -> f64 {
        let r = table.iter().find(|r| r["run"] == run && r["group"] == group).unwrap_or_else(|| panic!("router_split.csv: no {run} {group}"));
        r[col].parse().unwrap()
    };
    let (np, p) = ("np", "p_ctlvc");
    let f1 = |x: f64| grouped(x, 1);
    // The parts not in the table are below the bound the section states
    // in every row, so the table's columns add up to the first.
    const OTHER_PARTS_BELOW: f64 = 0.05;
    has(format!("(the other parts are below {OTHER_PARTS_BELOW})"));
    for (_, run, group) in rows() {
        let shown: f64 = COLUMNS[1..].iter().map(|c| v(run, group, c)).sum();
        assert!((shown - v(run, group, "after_tail_mean")).abs() < OTHER_PARTS_BELOW, "{run} {group}: the parts shown add to {shown}");
    }
    has(format!("for each of NP's {} and P's {} real-time messages", grouped(v(np, "all", "rt_messages"), 0), grouped(v(p, "all", "rt_messages"), 0)));
    let at = "after_tail_mean";
    let extra = v(p, "all", at) - v(np, "all", at);
    has(format!("P's {} extra cycles are the crossbar", f1(extra)));
    let so = "switch_output_taken_after_tail";
    has(format!("{} cycles against NP's {}. The output link", f1(v(p, "all", so)), f1(v(np, "all", so))));
    assert!(v(p, "all", so) - v(np, "all", so) > extra, "the output port's wait is not all of the extra");
    has(format!("(best effort {} against {}, other real time {} against {})", f1(v(p, "all", "link_to_lower_after_tail")), f1(v(np, "all", "link_to_lower_after_tail")), f1(v(p, "all", "link_to_same_after_tail")), f1(v(np, "all", "link_to_same_after_tail"))));
    has(format!("nor the input port ({} both)", f1(v(p, "all", "switch_to_other_vc_after_tail"))));
    assert_eq!(f1(v(np, "all", "switch_to_other_vc_after_tail")), f1(v(p, "all", "switch_to_other_vc_after_tail")));
    has(format!("shorter ({} against {})", f1(v(p, "all", "vc_allocation_after_tail")), f1(v(np, "all", "vc_allocation_after_tail"))));
    let (gt, le) = ("not_lower_gt4", "not_lower_le4");
    has(format!("{} % of P's messages found more than 4 (NP none", f1(100.0 * v(p, gt, "share"))));
    assert_eq!(v(np, gt, "rt_messages"), 0.0, "an NP message found more than 4");
    has(format!("they take {} cycles from the tail's entry to delivery, {} of them waiting for the output port, the other {} % take {}, less than NP's {}", f1(v(p, gt, at)), f1(v(p, gt, so)), f1(100.0 * v(p, le, "share")), f1(v(p, le, at)), f1(v(np, "all", at))));
    assert!(v(p, le, at) < v(np, "all", at) && v(p, gt, "share") * (v(p, gt, at) - v(p, le, at)) > extra);
    let k = |run: &str, c: u8| v(run, &format!("not_lower_{c}"), at);
    has(format!("(3 found: NP {}, P {})", f1(k(np, 3)), f1(k(p, 3))));
    assert!((k(np, 3) / k(p, 3) - 1.0).abs() < 0.05, "not alike at 3");
    has(format!("(P: 0 found {}, 5 found {}, 8 found {})", f1(k(p, 0)), f1(k(p, 5)), f1(k(p, 8))));
    assert!((0..8).all(|c| k(p, c + 1) > k(p, c)), "P's time does not grow with the count");
    has(format!("({} cycles over the whole stay against P's {})", f1(v(np, "all", "vc_allocation")), f1(v(p, "all", "vc_allocation"))));
    has(format!(
        "spend {} cycles in the router against {}: {} behind an earlier message in their input VC (NP {}) and {} waiting for the output port (NP {})",
        f1(v(p, "all", "in_router_mean")),
        f1(v(np, "all", "in_router_mean")),
        f1(v(p, "all", "behind_in_input")),
        f1(v(np, "all", "behind_in_input")),
        f1(v(p, "all", "switch_output_taken")),
        f1(v(np, "all", "switch_output_taken"))
    ));
    let h = "source_hold_mean";
    has(format!("the source hold is {} against {} cycles, {} for the messages that found more than 4 and {} for the others", f1(v(p, "all", h)), f1(v(np, "all", h)), f1(v(p, gt, h)), f1(v(p, le, h))));
    assert!(v(p, le, h) > v(np, "all", h), "the others' hold is not longer");
    has(format!("longer wait behind earlier messages, {})", f1(v(p, le, "behind_in_input"))));
}

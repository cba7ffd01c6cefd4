//! "The network links without the source's backlog" (issue 22): the
//! numbers of its measured split of the source wait into S and P, formatted
//! here from the committed trace
//! `experiments/results/cube_source_split/cube_source_split.csv` (written by
//! `sim/netsim/examples/cube_source_split.rs`) and the row's S and P from
//! `cube_held.csv`, must appear in `docs/reproduction.md` as written.

use super::{read_csv, section_words};
use std::collections::HashMap;

const SPLIT: &str = "experiments/results/cube_source_split/cube_source_split.csv";
const HELD: &str = "experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_held.csv";
const POINTS: [&str; 4] = ["1:173.6", "2:373.6", "4:773.6", "14:2773.6"];

/// "a, b, c and d" with each value formatted by `f`.
fn listed(values: &[f64], f: &dyn Fn(f64) -> String) -> String {
    let v: Vec<String> = values.iter().map(|&x| f(x)).collect();
    format!("{} and {}", v[..v.len() - 1].join(", "), v[v.len() - 1])
}

#[test]
fn cube_source_split_follows_from_its_csv() {
    let flat = section_words("#### The network links without the source's backlog (issue 22)");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let (split, held) = (read_csv(SPLIT), read_csv(HELD));
    let col = |t: &Vec<HashMap<String, String>>, name: &str| -> Vec<f64> {
        POINTS.iter().map(|p| t.iter().find(|r| r["point"] == *p).unwrap_or_else(|| panic!("no point {p}"))[name].parse().unwrap()).collect()
    };
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let d1 = |x: f64| format!("{x:.1}");
    let d2 = |x: f64| format!("{x:.2}");
    // The split adds up: W = S + P in the means (per message in the example).
    for ((w, s), p) in col(&split, "w_mean").iter().zip(col(&split, "s_mean")).zip(col(&split, "p_mean")) {
        assert!((w - s - p).abs() < 2e-4, "W {w} ≠ S {s} + P {p}");
    }
    for m in col(&split, "messages") {
        assert!(m > 400_000.0, "ten seeds' messages: {m}");
    }
    has(format!("K = 1, 2, 4 and 14 both are positive for {} of the messages", listed(&col(&split, "both_positive"), &pct)));
    let indep: Vec<f64> = col(&split, "s_positive").iter().zip(col(&split, "p_positive")).map(|(s, p)| s * p).collect();
    assert_eq!(indep.iter().map(|&x| pct(x)).collect::<Vec<_>>(), col(&split, "both_if_independent").iter().map(|&x| pct(x)).collect::<Vec<_>>());
    has(format!("where independent parts would be for {} (P(S > 0)·P(P > 0))", listed(&indep, &pct)));
    let of_waiting: Vec<f64> = col(&split, "both_positive").iter().zip(col(&split, "w_positive")).map(|(b, w)| b / w).collect();
    for (a, b) in of_waiting.iter().zip(col(&split, "both_of_waiting")) {
        assert!((a - b).abs() < 1e-3, "both_of_waiting {b} against {a}");
    }
    let pct0 = |x: f64| format!("{:.0} %", 100.0 * x);
    has(format!("of the messages that wait at all ({}), {} wait for both", listed(&col(&split, "w_positive"), &pct), listed(&of_waiting, &pct0)));
    has(format!("corr(S, P) = {}.", listed(&col(&split, "correlation"), &d2)));
    has(format!("S = {} cycles and P = {} (W = {})", listed(&col(&split, "s_mean"), &d1), listed(&col(&split, "p_mean"), &d1), listed(&col(&split, "w_mean"), &d1)));
    let row: Vec<String> = col(&held, "injection_link_cycles").iter().zip(col(&held, "pushed_cycles")).map(|(s, p)| format!("{s:.1} / {p:.1}")).collect();
    has(format!("the row has S / P = {}, {}, {} and {},", row[0], row[1], row[2], row[3]));
    let ratio: Vec<f64> = col(&held, "pushed_cycles").iter().zip(col(&split, "p_mean")).map(|(r, m)| r / m).collect();
    let (lo, hi) = (ratio.iter().cloned().fold(f64::MAX, f64::min), ratio.iter().cloned().fold(f64::MIN, f64::max));
    has(format!("the row's P is {lo:.1}–{hi:.1} times the measured held cycles"));
}

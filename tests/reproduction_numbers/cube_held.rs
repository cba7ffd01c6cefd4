//! "The network links without the source's backlog": the row
//! `kim2005_cube_held` per part against the ten seeds, from
//! `experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_held.csv`
//! (written by the netsim test `cube_held_model_against_ten_seeds`) and the
//! tandem row's `cube_tandem_fluid.csv` beside it.

use super::{check, read_csv, root, Claim, Num};
use std::collections::HashMap;

const CSV: &str = "experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_held.csv";
const TANDEM: &str = "experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_tandem_fluid.csv";

/// A cell of `cube_held.csv` at sweep point `point`, times `scale` (−1
/// for an error the document writes with its "−" sign).
fn held(written: &'static str, column: &'static str, scale: f64, point: &'static str) -> Num {
    Num { written, csv: CSV, row: Box::leak(Box::new([("point", point)])), column, scale }
}

/// The table's columns after K, in order, each a column of `cube_held.csv`
/// (the two-number cells "a / b" give two).
const COLUMNS: [&str; 15] = [
    "gap_cycles",
    "sim_source_wait_cycles",
    "held_source_wait_cycles",
    "source_error_percent",
    "sim_network_cycles",
    "held_network_cycles",
    "network_error_percent",
    "sim_total_cycles",
    "held_total_cycles",
    "total_error_percent",
    "held_links_cycles",
    "pushed_cycles",
    "held_ejection_cycles",
    "measured_ejection_stay_cycles",
    "measured_stays_cycles",
];

/// The table's rows (passage, sweep point): every number of a row tied to
/// its cell in `COLUMNS` order (the census sees them through `all_claims`);
/// an error written with "−" is the cell times −1.
pub(super) fn claims() -> Vec<Claim> {
    let rows: [(&'static str, &'static str); 6] = [
        ("| 1 | 33 | 52.4998 | 72.8754 | +38.8 % | 118.7097 | 108.8584 | −8.3 % | 171.2095 | 181.7338 | +6.1 % | 57.3809 / 62.8291 | 31.1845 / 8.8532 | 43.9077 |", "1:173.6"),
        ("| 1 | 64 | 4.8371 | 8.7912 | +81.7 % | 72.6295 | 65.7719 | −9.4 % | 77.4666 | 74.5631 | −3.7 % | 14.2945 / 8.7912 | 9.2479 / 5.3437 | 15.5263 |", "1:148.8"),
        ("| 1 | 128 | 0.0381 | 0.4534 | +1090.1 % | 56.1964 | 52.1364 | −7.2 % | 56.2345 | 52.5898 | −6.5 % | 0.6589 / 0.4534 | 0.6018 / 2.1808 | 4.5692 |", "1:97.6"),
        ("| 2 | 33 | 63.7585 | 91.2133 | +43.1 % | 113.0563 | 108.9654 | −3.6 % | 176.8148 | 200.1787 | +13.2 % | 57.4879 / 53.7204 | 30.0151 / 8.2390 | 41.3691 |", "2:373.6"),
        ("| 4 | 33 | 75.6999 | 103.9559 | +37.3 % | 108.7626 | 109.1014 | +0.3 % | 184.4625 | 213.0573 | +15.5 % | 57.6239 / 51.4239 | 29.5156 / 7.3863 | 39.2481 |", "4:773.6"),
        ("| 14 | 33 | 83.9142 | 113.7956 | +35.6 % | 109.9288 | 109.0322 | −0.8 % | 193.8431 | 222.8278 | +15.0 % | 57.5547 / 49.9843 | 28.9955 / 7.5607 | 40.0748 |", "14:2773.6"),
    ];
    rows.iter()
        .map(|&(passage, point)| {
            let cells = passage.trim_matches('|').split('|').skip(1).flat_map(|c| c.split(" / ")).map(|c| c.trim().trim_end_matches(" %"));
            let numbers = cells
                .zip(COLUMNS)
                .map(|(cell, column)| match cell.strip_prefix('−') {
                    Some(rest) => held(rest, column, -1.0, point),
                    None => held(cell.trim_start_matches('+'), column, 1.0, point),
                })
                .collect::<Vec<_>>();
            assert_eq!(numbers.len(), COLUMNS.len(), "{passage}");
            Claim { passage, numbers }
        })
        .collect()
}

/// Signed to one decimal, with the document's minus sign.
fn signed(x: f64) -> String {
    format!("{}{:.1}", if x < 0.0 { "−" } else { "+" }, x.abs())
}

/// The table, the ranges and differences the text quotes, and the
/// finding: the total is the tandem row's, the network part within 10 %,
/// the source part carrying the whole excess at g = 33.
#[test]
fn cube_held_follows_from_its_csv() {
    let errors = check(&claims());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let flat = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let has = |text: String| assert!(flat.contains(&text), "not in docs/reproduction.md: {text:?}");
    let (rows, tandem) = (read_csv(CSV, &mut HashMap::new()), read_csv(TANDEM, &mut HashMap::new()));
    let num = |r: &HashMap<String, String>, c: &str| -> f64 { r[c].parse().unwrap() };
    let at = |point: &str| rows.iter().find(|r| r["point"] == point).unwrap();
    let t_at = |point: &str| tandem.iter().find(|r| r["point"] == point).unwrap();
    let range = |xs: &[f64], d: usize, sep: &str| {
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        if sep == "–" { format!("{lo:.d$}–{hi:.d$}") } else { format!("{}{sep}{}", signed(lo), signed(hi)) }
    };
    let all: Vec<&str> = rows.iter().map(|r| r["point"].as_str()).collect();
    assert_eq!(all, ["1:173.6", "1:148.8", "1:97.6", "2:373.6", "4:773.6", "14:2773.6"], "{CSV}");
    let g33 = ["1:173.6", "2:373.6", "4:773.6", "14:2773.6"];
    let col = |points: &[&str], c: &str| -> Vec<f64> { points.iter().map(|p| num(at(p), c)).collect() };
    has(format!("{} % of the simulated network latency at every point", range(&col(&all, "network_error_percent"), 1, " % to ")));
    let t_net: Vec<f64> = g33.iter().map(|p| 100.0 * (num(t_at(p), "tandem_network_cycles") / num(t_at(p), "sim_network_cycles") - 1.0)).collect();
    has(format!("where the tandem row's is {} % at g = 33", range(&t_net, 1, " % to ")));
    let tot = col(&g33, "total_error_percent");
    has(format!("unchanged ({} % at K = 1, g = 33; {} % at K = 2, 4, 14)", signed(tot[0]), range(&tot[1..], 1, " % to ")));
    let src_excess: Vec<String> = g33.iter().map(|p| format!("{:.1}", num(at(p), "held_source_wait_cycles") - num(at(p), "sim_source_wait_cycles"))).collect();
    let tot_excess: Vec<String> = g33.iter().map(|p| format!("{:.1}", num(at(p), "held_total_cycles") - num(at(p), "sim_total_cycles"))).collect();
    has(format!(
        "source part, {} % high at g = 33 ({}, {}, {} and {} cycles at K = 1, 2, 4, 14 against the total's {}, {}, {} and {})",
        range(&col(&g33, "source_error_percent"), 1, " % to "),
        src_excess[0], src_excess[1], src_excess[2], src_excess[3], tot_excess[0], tot_excess[1], tot_excess[2], tot_excess[3]
    ));
    let small = ["1:148.8", "1:97.6"];
    let src_high: Vec<String> = small.iter().map(|p| format!("{:.1}", num(at(p), "held_source_wait_cycles") - num(at(p), "sim_source_wait_cycles"))).collect();
    has(format!("are on waits of {:.1} and {:.2} cycles ({} and {} cycles high)", num(at(small[0]), "sim_source_wait_cycles"), num(at(small[1]), "sim_source_wait_cycles"), src_high[0], src_high[1]));
    has(format!(
        "(the links {} cycles per message against {} at g = 33, the ejection link {} against {})",
        range(&col(&g33, "held_links_cycles"), 1, "–"),
        range(&col(&g33, "measured_stays_cycles"), 1, "–"),
        range(&col(&g33, "held_ejection_cycles"), 1, "–"),
        range(&col(&g33, "measured_ejection_stay_cycles"), 1, "–")
    ));
    // The finding, independent of the wording: the row's total is the
    // tandem row's at every point; at g = 33 the source part carries more
    // than the whole excess at K ≥ 2 (the network part is at or below the
    // simulated one) and every link's held part exceeds its measured stay.
    for p in &all {
        assert!((num(at(p), "held_total_cycles") - num(t_at(p), "tandem_total_cycles")).abs() < 1e-3, "{p}");
    }
    for p in &g33 {
        assert!(num(at(p), "network_error_percent") <= 0.5 && num(at(p), "source_error_percent") > 30.0, "{p}");
        assert!(num(at(p), "held_links_cycles") > num(at(p), "measured_stays_cycles") && num(at(p), "held_ejection_cycles") > 3.0 * num(at(p), "measured_ejection_stay_cycles"), "{p}");
    }
}

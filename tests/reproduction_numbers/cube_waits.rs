//! "The two waits measured": the 6-cube's source wait S and network wait N
//! per message against `kim2005_cube_source_backlog`'s merge, from
//! `experiments/results/cube_wait_trace/cube_waits.csv` (written by the
//! netsim example `cube_wait_trace`).

use super::{doc_words, read_csv};
use std::collections::HashMap;

const CSV: &str = "experiments/results/cube_wait_trace/cube_waits.csv";

/// Signed to one decimal, with the document's minus sign.
fn signed(x: f64, decimals: usize) -> String {
    format!("{}{:.*}", if x < 0.0 { "−" } else { "+" }, decimals, x.abs())
}

fn list(xs: &[f64]) -> String {
    xs.iter().map(|&x| signed(x, 1)).collect::<Vec<_>>().join(", ")
}

/// Both tables row by row, the ranges quoted in the text, and the chain
/// from the row's E[max] to the measured S + N: each step the difference
/// of two of the CSV's columns, their sum the whole difference, and the
/// change of each from K = 1 to K = 14.
#[test]
fn cube_waits_follow_from_the_trace() {
    let flat = doc_words();
    let has = |text: String| assert!(flat.contains(&text), "not in docs/reproduction.md: {text:?}");
    let rows = read_csv(CSV);
    assert_eq!(rows.iter().map(|r| r["streams"].as_str()).collect::<Vec<_>>(), ["1", "2", "4", "14"], "{CSV}");
    let num = |r: &HashMap<String, String>, c: &str| -> f64 { r[c].parse().unwrap() };
    let col = |c: &str| -> Vec<f64> { rows.iter().map(|r| num(r, c)).collect() };
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    // N of the messages that waited at their source: the overall mean
    // less the S = 0 messages' share, over the S > 0 share.
    let n_busy: Vec<f64> = rows.iter().map(|r| (num(r, "n_mean") - num(r, "s_zero") * num(r, "n0_mean")) / (1.0 - num(r, "s_zero"))).collect();
    for (r, busy) in rows.iter().zip(&n_busy) {
        has(format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {busy:.1} |",
            r["streams"], r["messages"], r["s_mean"], r["s_cv"], pct(num(r, "s_zero")), r["n_mean"], r["n_cv"], pct(num(r, "n_zero")), r["correlation"], r["n0_mean"], r["n0_cv"]
        ));
        has(format!(
            "| {} | {} / {} | {} | {} | {} | {} | {} |",
            r["streams"], r["row_s"], r["row_n"], r["row_max"], r["max_formula_means"], r["max_independent"], r["max_paired"], r["sum_mean"]
        ));
    }
    let range = |xs: &[f64], d: usize| {
        let (lo, hi) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        format!("{lo:.d$}–{hi:.d$}")
    };
    has(format!("S's is {}, an atom at 0 ({} % of", range(&col("s_cv"), 1), range(&col("s_zero").iter().map(|x| 100.0 * x).collect::<Vec<_>>(), 0)));
    has(format!("N's {}.", range(&col("n_cv"), 2)));
    let corr = col("correlation");
    has(format!("S and N have +{:.2} to +{:.2}.", corr.iter().cloned().fold(f64::MAX, f64::min), corr.iter().cloned().fold(f64::MIN, f64::max)));
    has(format!("afterwards ({} cycles) than those that found the source free ({}):", range(&n_busy, 1), range(&col("n0_mean"), 1)));
    let diff = |a: &str, b: &str| -> Vec<f64> { col(a).iter().zip(col(b)).map(|(x, y)| x - y).collect() };
    let inputs = diff("max_formula_means", "row_max");
    let shape = diff("max_independent", "max_formula_means");
    let correlation = diff("max_paired", "max_independent");
    let overlap = diff("sum_mean", "max_paired");
    let all = diff("sum_mean", "row_max");
    has(format!("fluid waits) {} cycles;", list(&inputs)));
    has(format!("still independent) {};", list(&shape)));
    has(format!("(the measured pairs) {};", list(&correlation)));
    has(format!("max(S, N)) {}; in all {}.", list(&overlap), list(&all)));
    has(format!("the fluid S, {} cycles, against the measured {}", range(&col("row_s"), 1), range(&col("s_mean"), 1)));
    has(format!("network wait too large ({} against {})", range(&col("row_n"), 1), range(&col("n_mean"), 1)));
    let growth = |xs: &[f64]| xs[3] - xs[0];
    has(format!("residual with K, {} cycles from K = 1 to 14: the inputs account for {}", signed(growth(&all), 1), signed(growth(&inputs), 1)));
    let (s, fs, fnn, mn) = (col("s_mean"), col("row_s"), col("row_n"), col("n_mean"));
    has(format!("(the measured S grows by {:.1} cycles, the fluid S by {:.1}, and the fluid N falls by {:.1} where the measured falls by {:.1})", growth(&s), growth(&fs), -growth(&fnn), -growth(&mn)));
    has(format!("weakening with K for {}, the overlap for {} and the exponential shape for {}.", signed(growth(&correlation), 1), signed(growth(&overlap), 1), signed(growth(&shape), 2)));
    // The totals' shortfall at K = 4 and 14, as "The backlog at the source".
    let sweep = read_csv("experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_tandem_fluid.csv");
    let short: Vec<f64> = ["4", "14"].iter().map(|k| {
        let r = sweep.iter().find(|r| r["streams"] == *k).unwrap();
        num(r, "sim_total_cycles") - num(r, "backlog_total_cycles")
    }).collect();
    has(format!("The K = 4 and 14 shortfall ({:.1} and {:.1} cycles in total,", short[0], short[1]));
    // The finding, independent of the wording: the steps sum to the whole,
    // the waits are far from exponential, positively correlated, and the
    // messages that waited at their source wait longer in the network.
    for i in 0..4 {
        assert!((inputs[i] + shape[i] + correlation[i] + overlap[i] - all[i]).abs() < 1e-9);
        assert!(col("s_cv")[i] > 2.0 && col("n_cv")[i] > 1.5 && corr[i] > 0.2, "{CSV} row {i}");
        assert!(n_busy[i] > 2.0 * col("n0_mean")[i], "{CSV} row {i}: N if S > 0 {} vs S = 0 {}", n_busy[i], col("n0_mean")[i]);
    }
}

//! 000_… Figs 4(a), 4(b) and 13, model beside simulation (issue 23 item 3):
//! every row of the three tables is rebuilt here from committed results and
//! must be the row the document writes, character for character.
//!
//! - The simulated side: network latency and accepted rate from the sweeps'
//!   `results.csv` (`fig4_000_full`, `fig4b_000_full`); Fig. 13's P{L > D}
//!   from `fig4_000_full/results.json`'s per-class `network_latency_counts`.
//! - The model side: `wormqos model`'s rows (`source` = `model:kim2005`) of
//!   `model_fig4_000_np` / `model_fig4b_000_np` (`results.csv`, `dmp.csv`).
//!   Those runs are of `fig4_000_np.toml` / `fig4b_000_np.toml`, which
//!   `wormqos model` accepts (its model gives each class its own VC); the
//!   model's inputs are the same as for the unpartitioned `…_full` files,
//!   which differ only in `name`, `router.mode` and `router.vc_classes`
//!   (checked here: the model reads neither).
//! - Each "(±e %)" is 100 (model − sim) / sim from those two values.
//! - The offered load in brackets is the sweep point's total
//!   (flits/cycle/port); the first cell is its real-time (4(a), 13) or
//!   best-effort (4(b)) field over M = 32 flits.

use super::models::{cell_value, check_derived, sel, typeset_error, Derived};
use super::*;

const H4A: &str = "### 000_… Fig. 4(a): the analytical model (Eqs (1)–(9)) beside the simulation";
const H13: &str = "### 000_… Fig. 13: deadline missing probability in the single router";
const H4B: &str = "### 000_… Fig. 4(b): best-effort load varied, model beside simulation";

const SIM4A: &str = "experiments/results/fig4_000_full/results.csv";
const JSON4A: &str = "experiments/results/fig4_000_full/results.json";
const SIM4B: &str = "experiments/results/fig4b_000_full/results.csv";
pub(super) const MODEL4A: &str = "experiments/results/model_fig4_000_np/results.csv";
const DMP4A: &str = "experiments/results/model_fig4_000_np/dmp.csv";
const MODEL4B: &str = "experiments/results/model_fig4b_000_np/results.csv";

const MIX: &str = "workload.load+workload.mix";
const MODEL: &str = "model:kim2005";
/// R1 is class 2, R2 class 1 (`rt_…`), best effort class 0.
const LATENCY: [&str; 3] = ["class2_network_latency_cycles", "rt_network_latency_cycles", "be_network_latency_cycles"];
const M: f64 = 32.0;

/// The sweep points ("total:rt:be" in flits/cycle/port) of `csv`.
fn points(csv: &str) -> Vec<String> {
    read_csv(csv).iter().map(|r| r[MIX].clone()).collect()
}

fn field(key: &str, i: usize) -> f64 {
    key.split(':').nth(i).unwrap().parse().unwrap()
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `column` of the simulated (`model` false) or model row at `key`.
fn value(csv: &'static str, key: &str, model: bool, column: &str) -> f64 {
    let key = leak(key.to_string());
    let row = if model { sel(&[("source", MODEL), (MIX, key)]) } else { sel(&[(MIX, key)]) };
    cell_value(csv, row, column).unwrap_or_else(|e| panic!("{e}"))
}

/// "sim / model (±e %)", latencies to 0.1 cycle, the error to 1 %.
fn pair(sim: f64, model: f64) -> String {
    format!("{sim:.1} / {model:.1} ({} %)", typeset_error(100.0 * (model - sim) / sim, "0"))
}

/// The network-latency row of `key`: the three classes' pairs, with
/// `accepted` the 4(a) table's last cell.
fn latency_row(x: f64, sim: &'static str, model: &'static str, key: &str, accepted: bool) -> String {
    let mut row = format!("| {x:.3} |");
    for column in LATENCY {
        let (s, m) = (value(sim, key, false, column), value(model, key, true, column));
        row += &format!(" {} |", pair(s, m));
    }
    if accepted {
        row += &format!(" {:.3} ({:.3}) |", value(sim, key, false, "accepted_throughput"), field(key, 0));
    }
    row
}

/// P{L > `deadline`} of `class` from its network-latency histogram.
fn tail(results: &serde_json::Value, class: u64, deadline: usize) -> f64 {
    let c = results["classes"].as_array().unwrap().iter().find(|k| k["class"].as_u64() == Some(class)).unwrap();
    let counts: Vec<f64> = c["network_latency_counts"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    counts.iter().skip(deadline + 1).sum::<f64>() / counts.iter().sum::<f64>()
}

/// The simulated P{L > `deadline`} of `class` at the 4(a) point `key`
/// ("total:rt:be"), from `fig4_000_full/results.json`.
pub(super) fn point_tail(key: &str, class: u64, deadline: usize) -> f64 {
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join(JSON4A)).unwrap()).unwrap();
    let point = json["points"].as_array().unwrap().iter().find(|p| p["params"][MIX][0].as_f64() == Some(field(key, 0))).unwrap_or_else(|| panic!("{JSON4A}: no point {key}"));
    tail(&point["results"], class, deadline)
}

/// The model's P{L > `deadline`} of `class` at `key`, from `dmp.csv`.
fn model_dmp(key: &str, class: u64, deadline: u32) -> f64 {
    let rows = read_csv(DMP4A);
    let point = format!("{MIX}={key}");
    let (class, deadline) = (class.to_string(), deadline.to_string());
    let found: Vec<_> = rows.iter().filter(|r| r["source"] == MODEL && r["point"] == point && r["class"] == class && r["deadline_cycles"] == deadline).collect();
    assert_eq!(found.len(), 1, "{DMP4A}: {} rows for {point}, class {class}, D = {deadline}", found.len());
    found[0]["miss_probability"].parse().unwrap()
}

/// Fig. 13's row of `key`: R1 and R2 at D = 42, then at D = 47.
fn dmp_row(key: &str, json: &serde_json::Value) -> String {
    let point = json["points"].as_array().unwrap().iter().find(|p| p["params"][MIX][0].as_f64() == Some(field(key, 0))).unwrap_or_else(|| panic!("{JSON4A}: no point {key}"));
    let mut row = format!("| {:.3} |", field(key, 1) / M);
    for deadline in [42, 47] {
        for class in [2, 1] {
            row += &format!(" {:.3} / {:.3} |", tail(&point["results"], class, deadline as usize), model_dmp(key, class, deadline));
        }
    }
    row
}

/// Every row the three tables may have, keyed by its first cell, per table
/// heading.
fn expected_rows() -> Vec<(&'static str, Vec<String>)> {
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join(JSON4A)).unwrap()).unwrap();
    let a = points(SIM4A);
    vec![
        (H4A, a.iter().map(|k| latency_row(field(k, 1) / M, SIM4A, MODEL4A, k, true)).collect()),
        (H13, a.iter().map(|k| dmp_row(k, &json)).collect()),
        (H4B, points(SIM4B).iter().map(|k| latency_row(field(k, 2) / M, SIM4B, MODEL4B, k, false)).collect()),
    ]
}

/// The 4(a) keys of R1+R2 = 0.002 … 0.014 messages/cycle/port.
const KEYS4A: [&str; 7] = ["0.384:0.064:0.32", "0.448:0.128:0.32", "0.512:0.192:0.32", "0.576:0.256:0.32", "0.64:0.32:0.32", "0.704:0.384:0.32", "0.768:0.448:0.32"];
const SIM4A_MUX: &str = "experiments/results/fig4_000/results.csv";

/// The numbers the three sections' prose derives from the tables' data:
/// error ranges, the model's R1 against R2, the DMP ratios, the Vticks.
fn prose() -> Vec<Derived> {
    let err = |sim: &'static str, model: &'static str, key: &str, class: usize| {
        let s = value(sim, key, false, LATENCY[class]);
        100.0 * (value(model, key, true, LATENCY[class]) - s) / s
    };
    let d = |passage: &'static str, written: &'static str, value: f64| Derived { passage, written, value };
    let mut v = Vec::new();
    // R2 up to 0.008 (the first four keys), then at 0.010
    let r2: Vec<f64> = KEYS4A[..4].iter().map(|k| err(SIM4A, MODEL4A, k, 1).abs()).collect();
    let p = "R2 is within 4 % up to 0.008 (−7 % at 0.010)";
    v.extend([d(p, "4", min_max(&r2).1), d(p, "−7", err(SIM4A, MODEL4A, KEYS4A[4], 1))]);
    let r1: Vec<f64> = KEYS4A.iter().map(|k| -err(SIM4A, MODEL4A, k, 0)).collect();
    assert!(r1.iter().all(|&x| x > 0.0), "R1's model is low at every point");
    let p = "from below (−24 % → +1 % at 0.012); R1 is the model's worst class, 8–52 %\nlow.";
    v.extend([d(p, "−24", err(SIM4A, MODEL4A, KEYS4A[0], 2)), d(p, "+1", err(SIM4A, MODEL4A, KEYS4A[5], 2)), d(p, "8", min_max(&r1).0), d(p, "52", min_max(&r1).1)]);
    // the multiplexed crossbar's sim against the same model, 0.002–0.010
    let below: Vec<f64> = KEYS4A[..5].iter().flat_map(|k| (0..3).map(|c| -err(SIM4A_MUX, MODEL4A, k, c)).collect::<Vec<_>>()).collect();
    assert!(below.iter().all(|&x| x > 0.0), "the model is below the multiplexed router at every point");
    let p = "the model is 24–60 % below the simulation at every point below\nsaturation (0.002–0.010)";
    v.extend([d(p, "24", min_max(&below).0), d(p, "60", min_max(&below).1)]);
    let model = |csv: &'static str, key: &str, class: usize| value(csv, key, true, LATENCY[class]);
    let p = "R1 far below R2 (42 vs 61 cycles)";
    v.extend([d(p, "42", model(MODEL4A, KEYS4A[4], 0)), d(p, "61", model(MODEL4A, KEYS4A[4], 1))]);
    // 4(b): how far the model is below best effort's simulated latency
    // (relative to the simulation), at all seven loads
    let above: Vec<f64> = points(SIM4B).iter().map(|k| -err(SIM4B, MODEL4B, k, 2)).collect();
    assert!(above.iter().all(|&x| x > 0.0), "4(b): best effort above the model at every load");
    let p = "The model is 10–23 % below best effort's simulated latency throughout.";
    v.extend([d(p, "10", min_max(&above).0), d(p, "23", min_max(&above).1)]);
    let key4b = points(SIM4B)[0].clone();
    let p = "the model's separation of R1 and R2 (39 vs 58 cycles)";
    v.extend([d(p, "39", model(MODEL4B, &key4b, 0)), d(p, "58", model(MODEL4B, &key4b, 1))]);
    // Vtick = 1/(λ_c M): at R1+R2 = 0.010, R1 = 2/3 and R2 = 1/3 of it;
    // in 4(b) R1 = 0.005, R2 = 0.0025 (the simulator rounds half away)
    let vtick = |rate: f64| 1.0 / (rate * M);
    let p = "(4.6875 and 9.375 cycles at 0.010 where the router\nuses 5 and 9)";
    let (a1, a2) = (vtick(0.010 * 2.0 / 3.0), vtick(0.010 / 3.0));
    v.extend([d(p, "4.6875", a1), d(p, "9.375", a2), d(p, "5", a1.round()), d(p, "9", a2.round())]);
    let p = "the router's Vticks 6 and 13 cycles (1/(λ_c M) =\n6.25 and 12.5 rounded)";
    let (b1, b2) = (vtick(0.005), vtick(0.0025));
    v.extend([d(p, "6", b1.round()), d(p, "13", b2.round()), d(p, "6.25", b1), d(p, "12.5", b2)]);
    // Fig. 13: simulated over model P{L > D}, every cell of the table
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join(JSON4A)).unwrap()).unwrap();
    let mut ratios = Vec::new();
    for key in [KEYS4A[0], KEYS4A[2], KEYS4A[4], KEYS4A[6]] {
        let point = json["points"].as_array().unwrap().iter().find(|p| p["params"][MIX][0].as_f64() == Some(field(key, 0))).unwrap();
        for deadline in [42, 47] {
            for class in [2, 1] {
                ratios.push(tail(&point["results"], class, deadline as usize) / model_dmp(key, class, deadline));
            }
        }
    }
    let (lo, hi) = min_max(&ratios);
    for p in ["but is 1.8–5.2× below the\nsimulated tail", "(1.8–5.2× on the unpartitioned router)"] {
        v.extend([d(p, "1.8", lo), d(p, "5.2", hi)]);
    }
    v
}

/// The census ties: each rebuilt row with all its numbers (a row of the
/// document is tied when it is one of these).
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    expected_rows().into_iter().flat_map(|(_, rows)| rows).map(|r| {
        let row = leak(r);
        census::Tie { passage: row, written: census::numbers(row) }
    }).collect()
}

/// The experiment file at `path` as the model reads it: without
/// `name`, `router.mode` and `router.vc_classes`.
fn model_inputs(path: &str) -> toml::Value {
    let mut v: toml::Value = toml::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap();
    let t = v.as_table_mut().unwrap();
    t.remove("name");
    let router = t.get_mut("router").and_then(|r| r.as_table_mut()).unwrap();
    router.remove("mode");
    router.remove("vc_classes");
    v
}

#[test]
fn model000_tables_follow_from_the_committed_runs() {
    for (full, np) in [("experiments/fig4_000_full.toml", "experiments/fig4_000_np.toml"), ("experiments/fig4b_000_full.toml", "experiments/fig4b_000_np.toml")] {
        assert_eq!(model_inputs(full), model_inputs(np), "{full} and {np} must differ only where the model does not read");
    }
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let tables = census::tables(&doc);
    let mut errors = Vec::new();
    for ((heading, rows), count) in expected_rows().into_iter().zip([7, 4, 4]) {
        let found: Vec<&census::Table> = tables.iter().filter(|t| t.heading == heading && t.body.first().is_some_and(|r| r.starts_with("| 0.002 |"))).collect();
        assert_eq!(found.len(), 1, "{heading}: one table starting at 0.002");
        let body = &found[0].body;
        assert_eq!(body.len(), count, "{heading}: {count} rows");
        for written in body {
            let first = written.split('|').nth(1).unwrap_or_default().trim();
            match rows.iter().find(|r| r.starts_with(&format!("| {first} |"))) {
                Some(r) if r == written => {}
                Some(r) => errors.push(format!("{heading}:\n  doc:  {written}\n  data: {r}")),
                None => errors.push(format!("{heading}: no committed point at {first}")),
            }
        }
    }
    errors.extend(check_derived(&prose()));
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

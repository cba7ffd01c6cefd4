//! 000_… Fig. 6's half-width table (issue 23): every 95 % half-width of R1,
//! R2 and best effort under the three schedulers, recomputed from the
//! committed `results.json` of `fig6_000` (R1 is class 2, R2 class 1, best
//! effort class 0; `results.csv` has best effort's half-width alone), must
//! equal the value rounded to the decimals written.

use super::fig7_ties::{committed_json, numbers, rounds_to, section_of};
use super::root;

const HEADING: &str = "## 000_… Fig. 6: VirtualClock, Fair Queueing and Weighted Round Robin";
const SCHEDULERS: [&str; 3] = ["router", "fgfq", "wrr"];

/// The half-widths one row must show, in order, for real-time load `rt`:
/// per scheduler, R1 / R2 / best effort.
fn expected_row(json: &serde_json::Value, rt: f64) -> Vec<f64> {
    let points = json["points"].as_array().expect("points");
    let mut row = Vec::new();
    for scheduler in SCHEDULERS {
        // the sweep couples the total load with the mix [real time, best effort]
        let point = points
            .iter()
            .find(|p| p["params"]["model.scheduler"] == scheduler && p["params"]["workload.load+workload.mix"][1][0].as_f64() == Some(rt))
            .unwrap_or_else(|| panic!("no point {scheduler} at real-time load {rt}"));
        let classes = point["results"]["classes"].as_array().expect("classes");
        for class in [2, 1, 0] {
            let c = classes.iter().find(|c| c["class"].as_u64() == Some(class)).unwrap_or_else(|| panic!("no class {class}"));
            row.push(c["latency_ci95"].as_f64().expect("latency_ci95"));
        }
    }
    row
}

/// The rows of the half-width table in `section` checked against `json`;
/// returns the disagreements.
fn check(section: &str, json: &serde_json::Value) -> Vec<String> {
    let start = section.find("| real-time load (flits/cycle/port) | VirtualClock ± |").expect("the half-width table");
    let mut errors = Vec::new();
    let mut rows = 0;
    for line in section[start..].lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
        let rt: f64 = cells[0].trim().parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let written: Vec<&str> = cells[1..].iter().flat_map(|c| numbers(c)).collect();
        let want = expected_row(json, rt);
        rows += 1;
        if written.len() != want.len() {
            errors.push(format!("{line}: {} numbers written, {} expected", written.len(), want.len()));
            continue;
        }
        for (w, v) in written.iter().zip(&want) {
            if !rounds_to(w, *v) {
                errors.push(format!("real-time load {rt}: {w} is not {v} rounded"));
            }
        }
    }
    if rows != 6 {
        errors.push(format!("{rows} rows checked, 6 expected"));
    }
    errors
}

fn section(doc: &str) -> &str {
    section_of(doc, HEADING)
}

fn committed() -> serde_json::Value {
    committed_json("experiments/results/fig6_000")
}

#[test]
fn fig6_000_half_widths_follow_from_the_committed_run() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let errors = check(section(&doc), &committed());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

/// The check reads the cells it should: a changed digit, R1 and R2
/// swapped, and a missing row are each reported.
#[test]
fn fig6_000_half_width_check_catches_planted_errors() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let json = committed();
    let good = section(&doc).to_string();
    let row = good.lines().find(|l| l.starts_with("| 0.064 | 0.9 / 1.7 /")).expect("the 0.064 row").to_string();
    let digit = good.replace(&row, &row.replacen("0.9 / 1.7", "0.9 / 1.8", 1));
    assert!(check(&digit, &json).iter().any(|e| e.contains("1.8 is not")), "a changed digit passed");
    let swapped = good.replace(&row, &row.replacen("0.9 / 1.7", "1.7 / 0.9", 1));
    assert!(!check(&swapped, &json).is_empty(), "R1 and R2 swapped passed");
    let missing = good.replace(&format!("{row}\n"), "");
    assert!(check(&missing, &json).iter().any(|e| e.contains("5 rows checked")), "a missing row passed");
}

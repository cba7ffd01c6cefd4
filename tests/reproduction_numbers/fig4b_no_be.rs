//! 000_… Fig. 4(b)'s real-time-only baseline (issue 23): R1's and R2's
//! network latency without best effort, quoted in the section from the
//! committed `experiments/results/fig4b_000_no_be/` (runs of 400 k and 1 M
//! cycles of `experiments/fig4b_000_no_be.toml`), and the run's file
//! checked to be `fig4b_000_full.toml`'s router and run with only best
//! effort taken out, so the baseline is the sweep's network without its
//! best effort.

use super::*;
use models::sel;

const CSV: &str = "experiments/results/fig4b_000_no_be/results.csv";
const SWEEP: &str = "experiments/results/fig4b_000_full/results.csv";
const HEADING: &str = "### 000_… Fig. 4(b): best-effort load varied, model beside simulation";
/// R1 is traffic class 2, R2 class 1 (as in `model000_ties.rs`'s columns).
const R1: &str = "class2_network_latency_cycles";
const R2: &str = "rt_network_latency_cycles";

pub(super) fn claims() -> Vec<Claim> {
    let (k400, m1) = (sel(&[("run.cycles", "400000")]), sel(&[("run.cycles", "1000000")]));
    vec![
        Claim {
            passage: "without any best effort R1 and R2 take 44.4 and 49.6\ncycles (400 k-cycle run;",
            numbers: vec![n("44.4", CSV, k400, R1), n("49.6", CSV, k400, R2)],
        },
        Claim {
            passage: "R1 and R2 take 44.4 and 49.6\ncycles in the first, 44.2 and 49.6 in the second.",
            numbers: vec![n("44.4", CSV, k400, R1), n("49.6", CSV, k400, R2), n("44.2", CSV, m1, R1), n("49.6", CSV, m1, R2)],
        },
    ]
}

fn table(path: &str) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
}

#[test]
fn fig4b_real_time_alone_follows_from_its_committed_run() {
    let errors = check(&claims());
    assert!(errors.is_empty(), "{errors:#?}");
    // The baseline's file is the sweep's network with best effort's share 0
    // and real time's 0.24 flits/cycle/port kept.
    let (alone, full) = (table("experiments/fig4b_000_no_be.toml"), table("experiments/fig4b_000_full.toml"));
    for key in ["router", "topology"] {
        assert_eq!(alone[key], full[key], "[{key}] differs from fig4b_000_full.toml");
    }
    assert_eq!(alone["run"].get("warmup_cycles"), full["run"].get("warmup_cycles"));
    assert_eq!(alone["run"].get("seed"), full["run"].get("seed"));
    let w = &alone["workload"];
    let mix: Vec<f64> = w["mix"].as_array().unwrap().iter().map(|v| v.as_float().unwrap()).collect();
    let load = w["load"].as_float().unwrap();
    assert_eq!(mix[1], 0.0, "best effort's share is not 0");
    assert!((load * mix[0] / (mix[0] + mix[1]) - 0.24).abs() < 1e-12, "real time is not the sweep's 0.24 flits/cycle/port");
    // No best-effort message was delivered (its latency is NaN).
    let rows = read_csv(CSV);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["be_network_latency_cycles"] == "NaN"), "best-effort messages in the baseline");
    // "over 1 M cycles within 0.3 cycles of the 0.002 point's": the
    // largest gap of R1 and R2 to the sweep's lightest best-effort point,
    // both runs 1 M cycles.
    let sweep = read_csv(SWEEP);
    let light = sweep.iter().find(|r| r["workload.load+workload.mix"] == "0.304:0.24:0.064").expect("the sweep's 0.002 point");
    let long = rows.iter().find(|r| r["run.cycles"] == "1000000").unwrap();
    let gap = [R1, R2].iter().map(|c| (light[*c].parse::<f64>().unwrap() - long[*c].parse::<f64>().unwrap()).abs()).fold(0.0, f64::max);
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let section = doc.split(HEADING).nth(1).expect("the Fig. 4(b) section").split("\n## ").next().unwrap().split("\n### ").next().unwrap();
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let quoted = format!("over 1 M cycles within {gap:.1} cycles of the 0.002 point's");
    assert!(flat.contains(&quoted), "not in the section: {quoted:?}");
    assert!(full["run"]["cycles"].as_integer() == Some(1_000_000), "the sweep is no longer 1 M cycles");
}

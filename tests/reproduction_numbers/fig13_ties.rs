//! 000_… Fig. 13's simulated side (issue 23 item 3): P{L > D} of R1 (class
//! 2) and R2 (class 1) for D = 42 and 47 cycles, recomputed from the
//! `network_latency_counts` of the committed `fig4_000_full/results.json`,
//! must be the first number of each cell as written. The model side is not
//! checked here (it is still only in the `analytic_000` plot).

use super::root;

const HEADING: &str = "### 000_… Fig. 13: deadline missing probability in the single router";

/// P{L > `deadline`} of `class` from its network-latency histogram.
fn tail(results: &serde_json::Value, class: u64, deadline: usize) -> f64 {
    let c = results["classes"].as_array().unwrap().iter().find(|k| k["class"].as_u64() == Some(class)).unwrap();
    let counts: Vec<f64> = c["network_latency_counts"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    counts.iter().skip(deadline + 1).sum::<f64>() / counts.iter().sum::<f64>()
}

#[test]
fn fig13_000_simulated_dmps_follow_from_the_committed_run() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let start = doc.find(HEADING).expect("Fig. 13 section");
    let section = &doc[start..start + doc[start..].find("**Paper:**").unwrap()];
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join("experiments/results/fig4_000_full/results.json")).unwrap()).unwrap();
    let mut errors = Vec::new();
    let mut rows = 0;
    for p in json["points"].as_array().unwrap() {
        // the sweep's real-time load is in flits/cycle; 32-flit messages
        let rt = p["params"]["workload.load+workload.mix"][1][0].as_f64().unwrap();
        let key = format!("| {:.3} |", rt / 32.0);
        let Some(line) = section.lines().find(|l| l.starts_with(&key)) else { continue };
        rows += 1;
        let cells: Vec<&str> = line.trim_matches('|').split('|').skip(1).collect();
        let r = &p["results"];
        let want = [tail(r, 2, 42), tail(r, 1, 42), tail(r, 2, 47), tail(r, 1, 47)];
        for (cell, v) in cells.iter().zip(want) {
            let sim = cell.split('/').next().unwrap().trim();
            if sim != format!("{v:.3}") {
                errors.push(format!("{key}: {sim} is not {v:.4} rounded"));
            }
        }
    }
    assert_eq!(rows, 4, "the four rows of the table");
    assert!(errors.is_empty(), "{errors:#?}");
}

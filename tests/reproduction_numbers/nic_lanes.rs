//! "P with per-lane credits for the preemption lanes, QoS NIC, load 0.6"
//! (003_… Fig. 9): the per-lane point of
//! `experiments/results/fig9a_003_p_per_lane/` against the committed per-VC
//! P + QoS NIC point of `experiments/results/fig9a_003/`. Cycles are 80 ns,
//! so µs = cycles × 0.08; the latency intervals come from each point's
//! `results.json` (`classes[c].latency_ci95`, cycles).

use super::{check, root, Claim, Num};

const LANES: &str = "experiments/results/fig9a_003_p_per_lane/results.csv";
const VCS: &str = "experiments/results/fig9a_003/results.csv";
const LANES_ROW: &[(&str, &str)] = &[("workload.load", "0.6")];
const VCS_ROW: &[(&str, &str)] = &[("workload.load", "0.6"), ("nic.variant", "qos"), ("router", "preemptive")];
const US: f64 = 0.08;

fn lanes(written: &'static str, column: &'static str, scale: f64) -> Num {
    Num { written, csv: LANES, row: LANES_ROW, column, scale }
}

fn vcs(written: &'static str, column: &'static str, scale: f64) -> Num {
    Num { written, csv: VCS, row: VCS_ROW, column, scale }
}

/// `classes[class].latency_ci95` × 0.08 (µs) of the point of `dir`'s
/// `results.json` that sets no router (the per-lane file's one point) or
/// sets the QoS NIC and the preemptive router (fig9a_003's P + qos point).
fn latency_ci_us(dir: &str, class: u64) -> f64 {
    let text = std::fs::read_to_string(root().join(dir).join("results.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let points: Vec<&serde_json::Value> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| {
            let params = &p["params"];
            params.get("router").is_none() || (params["nic.variant"] == "qos" && params["router"]["mode"] == "preemptive")
        })
        .collect();
    assert_eq!(points.len(), 1, "{dir}: one point expected");
    let c = points[0]["results"]["classes"].as_array().unwrap().iter().find(|c| c["class"] == class).unwrap();
    c["latency_ci95"].as_f64().unwrap() * US
}

#[test]
fn per_lane_nic_point_matches_its_results() {
    let claims = vec![
        Claim {
            passage: "- real-time latency 84.3 ± 36.6 µs (78.1 ± 31.9), of it in the NIC 46.4 µs (40.9);",
            numbers: vec![
                lanes("84.3", "rt_latency_cycles", US),
                vcs("78.1", "rt_latency_cycles", US),
                lanes("46.4", "rt_source_latency_cycles", US),
                vcs("40.9", "rt_source_latency_cycles", US),
            ],
        },
        Claim { passage: "- control latency 38.7 ± 26.1 µs (33.5 ± 19.9);", numbers: vec![lanes("38.7", "class2_latency_cycles", US), vcs("33.5", "class2_latency_cycles", US)] },
        Claim {
            passage: "- deadline missing probability 0.38 ± 0.28 (0.38 ± 0.28), σ_d 0.22 ± 0.04 ms (0.22 ± 0.04);",
            numbers: vec![
                lanes("0.38", "deadline_miss_probability", 1.0),
                vcs("0.38", "deadline_miss_probability", 1.0),
                lanes("0.28", "deadline_miss_probability_ci95", 1.0),
                vcs("0.28", "deadline_miss_probability_ci95", 1.0),
                lanes("0.22", "frame_interval_sd_ms", 1.0),
                vcs("0.22", "frame_interval_sd_ms", 1.0),
                lanes("0.04", "frame_interval_sd_ci95_ms", 1.0),
                vcs("0.04", "frame_interval_sd_ci95_ms", 1.0),
            ],
        },
        Claim { passage: "- preemptions at the router 51,603 (90,170).", numbers: vec![lanes("51,603", "preemptions", 1.0), vcs("90,170", "preemptions", 1.0)] },
    ];
    let errors = check(&claims);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The latency intervals, from results.json (class 1 real time, class 2
    // control), as written in the same passages.
    let (lane_dir, vc_dir) = ("experiments/results/fig9a_003_p_per_lane", "experiments/results/fig9a_003");
    let written = format!(
        "- real-time latency 84.3 ± {:.1} µs (78.1 ± {:.1}),|- control latency 38.7 ± {:.1} µs (33.5 ± {:.1});",
        latency_ci_us(lane_dir, 1),
        latency_ci_us(vc_dir, 1),
        latency_ci_us(lane_dir, 2),
        latency_ci_us(vc_dir, 2)
    );
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    for part in written.split('|') {
        assert!(doc.contains(part), "not in docs/reproduction.md: {part:?}");
    }
}

//! Where real time waits inside the NICs of 003_… Fig. 9(a)
//! (docs/reproduction.md, "003_… Fig. 9"): reruns four of the six points of
//! experiments/fig9a_003.toml with the NIC's wait accounting on
//! (`Sim::run_with_nic_waits`), checks each run reproduces the committed
//! results.json (same source latency, so the accounting changes nothing),
//! and writes experiments/results/fig9a_003/nic_waits.csv (about 10 minutes
//! on two idle cores); the same for the four points of
//! experiments/fig9_003_p_avoid.toml (P + QoS NIC, real time kept out of
//! send queues holding best effort; about 3 minutes):
//!
//!   cargo test --release -p wormqos-netsim --test fig9_nic_waits -- --ignored

use std::path::PathBuf;
use wormqos_netsim::network::Sim;
use wormqos_netsim::sweep::{value_label, Grid};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The points the section discusses: every QoS-NIC point and TR with the
/// traditional NIC (NP and P with the traditional NIC wait in its one FCFS
/// queue, which needs no breakdown).
fn wanted(params: &[(String, toml::Value)]) -> bool {
    let get = |k: &str| params.iter().find(|p| p.0 == k).map(|p| p.1.clone());
    let qos = get("nic.variant").and_then(|v| v.as_str().map(|s| s == "qos")).unwrap_or(false);
    let tr = get("router").and_then(|v| v.get("mode").and_then(|m| m.as_str().map(|m| m == "traditional"))).unwrap_or(false);
    qos || tr
}

type Params = [(String, toml::Value)];

/// A swept value as the CSV labels it (a router by its mode).
fn label(params: &Params, key: &str) -> String {
    match &params.iter().find(|p| p.0 == key).unwrap().1 {
        toml::Value::Table(t) => t["mode"].as_str().unwrap().to_string(),
        v => value_label(v),
    }
}

/// Reruns the points of `experiment` that `wanted` keeps with the NICs'
/// wait accounting on, checks each against the committed
/// `results/<name>/results.json` (same real-time source latency, so the
/// accounting changes nothing) and writes `results/<name>/nic_waits.csv`:
/// one column per `keys` entry (swept key, column name) with the point's
/// value, then the real-time waits per message (cycles; the `doorbell_*`
/// columns are doorbell-cycles before the DMA took it, `NicWaits`, per
/// message whose header left).
fn nic_waits(experiment: &str, results: &str, keys: &[(&str, &str)], wanted: fn(&Params) -> bool) {
    let grid = Grid::from_file(&root().join("experiments").join(experiment)).unwrap();
    let dir = root().join("experiments/results").join(results);
    let committed: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let points = grid.points();
    let rows: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = points
            .iter()
            .enumerate()
            .filter(|(_, params)| wanted(params))
            .map(|(i, params)| {
                let grid = &grid;
                let committed = &committed;
                s.spawn(move || {
                    let v = grid.experiment(params).unwrap();
                    let (r, w) = Sim::new(&v).unwrap().run_with_nic_waits().unwrap();
                    let rt = r.classes.iter().find(|c| c.class == 1).unwrap();
                    let want = committed["points"][i]["results"]["classes"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|c| c["class"] == 1)
                        .unwrap()["source_latency"]
                        .as_f64()
                        .unwrap();
                    // Equal up to the JSON round trip of the last digit.
                    assert!((rt.source_latency - want).abs() <= 1e-9 * want, "point {i}: not the committed run: {} vs {want}", rt.source_latency);
                    let c = 1;
                    let n = w.messages[c].max(1) as f64;
                    let per = |x: u64| format!("{:.1}", x as f64 / n);
                    let labels: Vec<String> = keys.iter().map(|k| label(params, k.0)).collect();
                    let row = format!(
                        "{},{},{},{},{},{},{},{},{},{},{:.1},{},{},{},{},{}",
                        labels.join(","),
                        w.messages[c],
                        per(w.wait[c]),
                        per(w.queue[c]),
                        per(w.queue_behind_be[c]),
                        w.messages_behind_be[c],
                        per(w.no_data[c]),
                        per(w.no_credit[c]),
                        per(w.not_granted[c]),
                        per(w.wait[c] - w.queue[c]),
                        rt.source_latency,
                        per(w.doorbell_dma_busy[c]),
                        per(w.doorbell_dma_stalled[c]),
                        per(w.doorbell_queue_full[c]),
                        per(w.doorbell_not_visible[c]),
                        per(w.doorbell_other_first[c])
                    );
                    eprintln!("point {i}: {row}");
                    row
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let names: Vec<&str> = keys.iter().map(|k| k.1).collect();
    let mut csv = format!(
        "{},rt_messages,wait_cycles,queue_cycles,queue_behind_be_cycles,messages_behind_be,no_data_cycles,no_credit_cycles,not_granted_cycles,at_front_cycles,rt_source_latency_cycles,\
         doorbell_dma_busy_cycles,doorbell_dma_stalled_cycles,doorbell_queue_full_cycles,doorbell_not_visible_cycles,doorbell_other_first_cycles\n",
        names.join(",")
    );
    for r in rows {
        csv.push_str(&r);
        csv.push('\n');
    }
    eprint!("{csv}");
    std::fs::write(dir.join("nic_waits.csv"), csv).unwrap();
}

#[test]
#[ignore = "reruns four points of Fig. 9(a), about 10 minutes; writes experiments/results/fig9a_003/nic_waits.csv"]
fn fig9a_nic_waits() {
    nic_waits("fig9a_003.toml", "fig9a_003", &[("router", "router"), ("nic.variant", "nic")], wanted);
}

#[test]
#[ignore = "reruns the four points of fig9_003_p_avoid.toml, about 3 minutes; writes experiments/results/fig9_003_p_avoid/nic_waits.csv"]
fn fig9_p_avoid_nic_waits() {
    nic_waits("fig9_003_p_avoid.toml", "fig9_003_p_avoid", &[("workload.load", "load")], |_| true);
}

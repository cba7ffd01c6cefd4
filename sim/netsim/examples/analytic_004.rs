//! 004_… multi-link ring: M/M/n and M/D/n VC-access model beside the
//! simulated points of `experiments/ring_004.toml`.
//!
//! cargo run --release -p wormqos-netsim --example analytic_004 -- \
//!     experiments/results/ring_004/results.json experiments/results/ring_004
//!
//! Latency = zero-load latency P − 1 + M + P·H̄ (one router pipeline per
//! extra router; measured 23.8 / 34.9 / 52.7 cycles on 4 / 8 / 16-node
//! rings at load 0.002 against 24 / 34 / 54 from the formula) plus H̄ waits
//! for a VC, one per ring link.

use std::path::PathBuf;
use wormqos_netsim::analytic::ring::{ring_mean_links, ring_vc_wait, Queue};
use wormqos_netsim::plot::line_plot;

const NODES: usize = 16;
const LINKS: usize = 4;
const VCS: u32 = 4;
const M: f64 = 10.0;
const P: f64 = 5.0;

fn model(load: f64, q: Queue) -> Option<f64> {
    let h = ring_mean_links(NODES);
    let w = ring_vc_wait(NODES, LINKS, VCS, M, P, load / M, q)?;
    Some(P - 1.0 + M + P * h + h * w)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = PathBuf::from(args.first().map(String::as_str).unwrap_or("experiments/results/ring_004/results.json"));
    let out = PathBuf::from(args.get(1).map(String::as_str).unwrap_or("experiments/results/ring_004"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json)?)?;
    let mut sim = Vec::new();
    println!("load (flits/node/cycle) | sim network latency ±95 % | M/M/n | M/D/n (cycles) | accepted");
    for p in v["points"].as_array().ok_or_else(|| anyhow::anyhow!("no points"))? {
        let load = p["params"]["workload.load"].as_f64().unwrap_or(f64::NAN);
        let c0 = &p["results"]["classes"][0];
        let (Some(lat), ci) = (c0["network_latency"].as_f64(), c0["latency_ci95"].as_f64().unwrap_or(f64::NAN)) else {
            println!("{load:.3} | (no messages: {})", p["error"]);
            continue;
        };
        sim.push((load, lat));
        let f = |x: Option<f64>| x.map_or("unstable".to_string(), |y| format!("{y:.1} ({:+.0} %)", 100.0 * (y - lat) / lat));
        println!(
            "{load:.3} | {lat:.1} ±{ci:.1} | {} | {} | {:.3}",
            f(model(load, Queue::MMn)),
            f(model(load, Queue::MDn)),
            p["results"]["accepted_throughput"].as_f64().unwrap_or(f64::NAN)
        );
    }
    let xmax = sim.iter().map(|p| p.0).fold(0.0, f64::max);
    let mut series = Vec::new();
    for (name, q) in [("M/M/n model", Queue::MMn), ("M/D/n model", Queue::MDn)] {
        let pts: Vec<(f64, f64)> = (1..=60).map(|i| xmax * i as f64 / 60.0).filter_map(|x| model(x, q).map(|y| (x, y))).collect();
        if let Some(last) = pts.last() {
            if last.0 < xmax {
                println!("{name} unstable beyond {:.3} flits/node/cycle", last.0);
            }
        }
        series.push((name.to_string(), pts));
    }
    series.push(("simulation".to_string(), sim));
    let files = line_plot(
        &out.join("model_vs_sim_latency"),
        "004 ring (16 nodes, 4 links, 4 VCs, 10-flit packets): model vs simulation",
        "offered load (flits/node/cycle)",
        "network latency (cycles)",
        &series,
    )
    .map_err(anyhow::Error::msg)?;
    println!("wrote {}", files.join(", "));
    Ok(())
}

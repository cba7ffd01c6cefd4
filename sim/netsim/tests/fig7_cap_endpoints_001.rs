//! 001_… Fig. 7 / Table V at 0.9 and 0.96, with and without the
//! per-destination stream cap (issue 23 items 1-2; docs/reproduction.md,
//! "Table V at 0.9 and 0.96 with the per-destination cap (issue 23)"):
//! what saturates best effort, per endpoint.
//!
//! `write_the_endpoint_table` (ignored, a few minutes) runs points of
//! `experiments/fig7_001_cap.toml` (seed 1) with every delivered message
//! logged and writes one row per (point, endpoint) into
//! `experiments/results/fig7_001_cap/endpoints.csv`:
//! - `streams_in`: real-time streams whose fixed destination it is;
//! - `offered_in`: flits per cycle offered to its output link by design:
//!   `streams_in` x r + the best-effort share, r = 0.01 x 20/19 (001_…
//!   §IV-B.1's 4 Mbps stream on a 400 Mbps link, one header flit per 19
//!   payload flits; the last message of a frame is shorter, so r is
//!   approximate) and best effort uniform over the other endpoints, so each
//!   receives on average what one sends (load x y/(x+y));
//! - `delivered_in`: flits per cycle its output link delivered in the
//!   measured window (messages of every class delivered there, by tail);
//! - `be_latency_to_us` / `be_latency_from_us`: mean latency (creation to
//!   tail) of the best-effort messages created in the window and delivered,
//!   to it and from it; `be_from_first_us` / `be_from_second_us`: the same
//!   from it for messages created in the first and the second half of the
//!   window (a queue that grows without bound makes the second larger).

use std::collections::BTreeMap;
use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::Experiment;

const OUT: &str = "experiments/results/fig7_001_cap";
const BEST_EFFORT: u8 = 0;
const CYCLE_US: f64 = 0.08;
/// 001_… §IV-B.1: a 4 Mbps stream is 0.01 of a 400 Mbps link in payload;
/// a 20-flit message carries 19 payload flits behind its header.
const STREAM_FLITS_PER_CYCLE: f64 = 0.01 * 20.0 / 19.0;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The points traced: (load, mix, cap), each run with seed 1.
const POINTS: [(&str, [u32; 2], u32); 10] = [
    ("0.9", [80, 20], 100000),
    ("0.9", [80, 20], 68),
    ("0.96", [20, 80], 100000),
    ("0.96", [20, 80], 18),
    ("0.96", [50, 50], 100000),
    ("0.96", [50, 50], 46),
    ("0.96", [80, 20], 100000),
    ("0.96", [80, 20], 73),
    ("0.96", [90, 10], 100000),
    ("0.96", [90, 10], 82),
];

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        f64::NAN
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

#[test]
#[ignore]
fn write_the_endpoint_table() {
    let base = std::fs::read_to_string(root().join("experiments/fig7_001_cap.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap().to_string();
    // The file's base point, so each replacement below hits exactly one line.
    for line in ["load = 0.9\n", "mix = [80, 20]\n", "max_streams_per_destination = 68\n", "seed = 1\n"] {
        assert_eq!(base.matches(line).count(), 1, "{line}");
    }
    let mut csv = String::from("load,mix,cap,endpoint,streams_in,offered_in,delivered_in,be_latency_to_us,be_latency_from_us,be_from_first_us,be_from_second_us\n");
    for (load, [x, y], cap) in POINTS {
        let text = base
            .replace("load = 0.9\n", &format!("load = {load}\n"))
            .replace("mix = [80, 20]\n", &format!("mix = [{x}, {y}]\n"))
            .replace("max_streams_per_destination = 68\n", &format!("max_streams_per_destination = {cap}\n"));
        let v = Experiment::from_str(&text, "fig7_cap_endpoints.toml", root().join("experiments")).unwrap();
        let (total, warmup) = v.run_cycles();
        let window = (total - warmup) as f64;
        let half = warmup + (total - warmup) / 2;
        let (_, log) = Sim::new(&v).unwrap().run_logged_all().unwrap();
        let endpoints = 8u32;
        // Each stream's destination (every stream delivers messages).
        let stream_dest: BTreeMap<u32, u32> = log.iter().filter(|m| m.class != BEST_EFFORT).map(|m| (m.flow, m.dest)).collect();
        let be_share = load.parse::<f64>().unwrap() * y as f64 / (x + y) as f64;
        let in_window = |m: &&MessageLog| m.delivered >= warmup && m.delivered < total;
        for ep in 0..endpoints {
            let streams_in = stream_dest.values().filter(|&&d| d == ep).count();
            let offered_in = streams_in as f64 * STREAM_FLITS_PER_CYCLE + be_share;
            let delivered_in = log.iter().filter(in_window).filter(|m| m.dest == ep).map(|m| m.flits as f64).sum::<f64>() / window;
            let be = |pick: &dyn Fn(&MessageLog) -> bool| -> f64 {
                let lat: Vec<f64> = log.iter().filter(|m| m.class == BEST_EFFORT && m.created >= warmup && pick(m)).map(|m| (m.delivered - m.created) as f64 * CYCLE_US).collect();
                mean(&lat)
            };
            let to = be(&|m| m.dest == ep);
            let from = be(&|m| m.src == ep);
            let first = be(&|m| m.src == ep && m.created < half);
            let second = be(&|m| m.src == ep && m.created >= half);
            csv += &format!("{load},{x}:{y},{cap},{ep},{streams_in},{offered_in:.4},{delivered_in:.4},{to:.1},{from:.1},{first:.1},{second:.1}\n");
        }
    }
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    std::fs::write(root().join(OUT).join("endpoints.csv"), csv).unwrap();
}

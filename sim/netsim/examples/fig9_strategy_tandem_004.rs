//! Does 004_…'s tandem model itself give the paper's first routing strategy
//! the longer t̄_s (docs/reproduction.md "Fig. 9: what the model says of
//! the two strategies")? For the network of `fig9_004.toml` (16 nodes, l =
//! 4, v_c = 4 per header, 5-flit packets, t_r = 4, t_flt = 1), per strategy
//! and load (flits/node/cycle):
//!
//! - `stage_rate_1..4`: the stage rates λ̄_i the model uses (the link rate a
//!   packet meets with i links to go, averaged over packets,
//!   `counted_stage_rates`), in packets per cycle;
//! - `ts_mmn`, `ts_mdn`: t̄_s of Eqs (3)–(7) and (9)–(13) on those rates
//!   with H = 4, as `wormqos model` computes it;
//! - `ts_mmn_per_path`, `ts_mdn_per_path`: the same recursion run on every
//!   (source, destination) path with the rates of the links it actually
//!   crosses (stage i = its link with i to go, H = its own hop count),
//!   averaged over the 240 paths: the model applied link by link;
//! - `link_rate_max`, `link_rate_sd`: the largest link rate and the spread
//!   of the 128 link rates (packets per cycle).
//!
//! Writes `<out>/strategies.csv` and prints it.
//!
//! cargo run --release -p wormqos-netsim --example fig9_strategy_tandem_004 -- experiments/results/fig9_strategy_tandem_004

use wormqos_netsim::analytic::multilink_ring::{counted_stage_rates, multilink_ring_paths, RingModel, VcQueue};

const NODES: usize = 16;
const LINKS: usize = 4;
const VCS: u32 = 4;
const FLITS: f64 = 5.0;
const H: usize = 4;

fn model(stage_rates: Vec<f64>, lambda_n: f64) -> RingModel {
    RingModel { vcs: VCS, msg_flits: FLITS, t_flit: 1.0, t_router: 4.0, stage_rates, source_rate: lambda_n / 2.0, hop_variance: 0.0 }
}

fn service(m: &RingModel, q: VcQueue) -> f64 {
    m.tandem_service(q).unwrap_or(f64::INFINITY)
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("fig9_strategy_tandem_004: usage: fig9_strategy_tandem_004 <out_dir>");
        std::process::exit(2)
    });
    let mut csv = String::from("strategy,load,lambda_n,stage_rate_1,stage_rate_2,stage_rate_3,stage_rate_4,ts_mmn,ts_mdn,ts_mmn_per_path,ts_mdn_per_path,link_rate_max,link_rate_sd\n");
    for (name, source_block) in [("destination_block", false), ("source_block", true)] {
        let paths = multilink_ring_paths(NODES, LINKS, source_block);
        for load in [0.05, 0.2, 0.4, 0.6] {
            let lambda_n = load / FLITS;
            let flow = lambda_n / (NODES - 1) as f64;
            let (rates, _) = counted_stage_rates(&paths, flow, H);
            let stage = model(rates.clone(), lambda_n);
            let mut link_rate = vec![0.0; paths.iter().flatten().max().unwrap() + 1];
            paths.iter().flatten().for_each(|&l| link_rate[l] += flow);
            let per_path = |q: VcQueue| paths.iter().map(|p| service(&model(p.iter().rev().map(|&l| link_rate[l]).collect(), lambda_n), q)).sum::<f64>() / paths.len() as f64;
            let used: Vec<f64> = link_rate.iter().copied().filter(|&r| r > 0.0).collect();
            let mean = used.iter().sum::<f64>() / used.len() as f64;
            let sd = (used.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / used.len() as f64).sqrt();
            let max = used.iter().copied().fold(0.0, f64::max);
            csv += &format!("{name},{load},{lambda_n}");
            for r in &rates {
                csv += &format!(",{r:.6}");
            }
            csv += &format!(
                ",{:.4},{:.4},{:.4},{:.4},{max:.6},{sd:.6}\n",
                service(&stage, VcQueue::MMn),
                service(&stage, VcQueue::MDn),
                per_path(VcQueue::MMn),
                per_path(VcQueue::MDn)
            );
        }
    }
    let dir = std::path::Path::new(&out);
    std::fs::create_dir_all(dir).and_then(|_| std::fs::write(dir.join("strategies.csv"), &csv)).unwrap_or_else(|e| {
        eprintln!("fig9_strategy_tandem_004: {out}: {e}");
        std::process::exit(2)
    });
    print!("{csv}");
}

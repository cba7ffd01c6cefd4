//! 000_… Fig. 4(a): the single-router model (Eqs (1)–(9)) beside the
//! simulated points of `experiments/fig4_000.toml`.
//!
//! cargo run --release -p wormqos-netsim --example analytic_000 -- \
//!     experiments/results/fig4_000/results.json experiments/results/fig4_000
//!
//! The sweep's x value is the total real-time rate (R1 + R2, R1 = 2/3 of
//! it); the model is evaluated at exactly those per-class rates, with the
//! best effort at the sweep's 0.32 flits = 0.01 messages/cycle/port.

use std::path::PathBuf;
use wormqos_netsim::analytic::kim2005::RouterModel;
use wormqos_netsim::plot::line_plot;

const M: f64 = 32.0;

fn model(rt_total: f64, be: f64) -> Option<Vec<f64>> {
    match RouterModel::table1(rt_total * 2.0 / 3.0, rt_total / 3.0, be).solve() {
        Ok(s) => Some(s.classes.iter().map(|c| c.network_latency).collect()),
        Err(e) => {
            eprintln!("model at {rt_total:.5}: {e:?}");
            None
        }
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = PathBuf::from(args.first().map(String::as_str).unwrap_or("experiments/results/fig4_000/results.json"));
    let out = PathBuf::from(args.get(1).map(String::as_str).unwrap_or("experiments/results/fig4_000"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json)?)?;
    // sim[class] = (rt msgs/cycle, network latency); classes: R1 = 2, R2 = 1, BE = 0.
    let mut sim: [Vec<(f64, f64)>; 3] = Default::default();
    let mut be_rate = 0.01;
    println!("rt msgs/cycle/port | R1 sim / model | R2 sim / model | BE sim / model (network latency, cycles)");
    for p in v["points"].as_array().ok_or_else(|| anyhow::anyhow!("no points"))? {
        let mix = &p["params"]["workload.load+workload.mix"][1];
        let rt = mix[0].as_f64().unwrap_or(0.0) / M;
        be_rate = mix[1].as_f64().unwrap_or(0.32) / M;
        let classes = p["results"]["classes"].as_array().cloned().unwrap_or_default();
        let lat = |c: usize| classes.iter().find(|x| x["class"] == c).and_then(|x| x["network_latency"].as_f64());
        let s = [lat(2), lat(1), lat(0)];
        let m = model(rt, be_rate);
        let mut row = format!("{rt:.4}");
        for (i, si) in s.iter().enumerate() {
            if let Some(y) = si {
                sim[i].push((rt, *y));
            }
            let mv = m.as_ref().map(|m| m[i]);
            row += &match (si, mv) {
                (Some(a), Some(b)) => format!(" | {a:.1} / {b:.1} ({:+.0} %)", 100.0 * (b - a) / a),
                (Some(a), None) => format!(" | {a:.1} / saturated"),
                _ => " | - / -".into(),
            };
        }
        println!("{row}");
    }
    let mut curves: [Vec<(f64, f64)>; 3] = Default::default();
    let mut x = 0.0005;
    while x <= 0.0140 + 1e-12 {
        if let Some(m) = model(x, be_rate) {
            for i in 0..3 {
                curves[i].push((x, m[i]));
            }
        } else {
            println!("model saturates at {x:.5} rt msgs/cycle/port");
            break;
        }
        x += 0.00025;
    }
    let names = ["R1", "R2", "BE"];
    for x in [0.002, 0.01] {
        if let Ok(s) = RouterModel::table1(x * 2.0 / 3.0, x / 3.0, be_rate).solve() {
            for (n, c) in names.iter().zip(&s.classes) {
                println!(
                    "model terms at {x}: {n} P_b {:.4} B {:.2} flits S {:.3} cycles/flit L {:.1} W {:.1}",
                    c.blocking_prob, c.blocking_flits, c.cycles_per_flit, c.network_latency, c.source_wait
                );
            }
            println!("model terms at {x}: rho_r {:.3}", s.rt_utilization);
        }
    }
    let mut series = Vec::new();
    for i in 0..3 {
        series.push((format!("{} model", names[i]), curves[i].clone()));
        // Points past saturation would crush the model's scale.
        series.push((format!("{} sim", names[i]), sim[i].iter().copied().filter(|p| p.1 < 300.0).collect()));
    }
    let files = line_plot(
        &out.join("model_vs_sim_network_latency"),
        "000 Fig. 4(a): 16-port router, model (Eqs 1-9) vs simulation",
        "real-time load R1+R2 (msgs/cycle/port)",
        "network latency (cycles)",
        &series,
    )
    .map_err(anyhow::Error::msg)?;
    println!("wrote {}", files.join(", "));
    Ok(())
}

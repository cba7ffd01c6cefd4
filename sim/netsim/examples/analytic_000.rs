//! 000_… Fig. 4: the single-router model (Eqs (1)–(9)) beside the
//! simulated points of `experiments/fig4_000*.toml` (real time varied,
//! Fig. 4(a)) or `experiments/fig4b_000_full.toml` (best effort varied,
//! Fig. 4(b)); which one is read from the sweep.
//!
//! cargo run --release -p wormqos-netsim --example analytic_000 -- \
//!     experiments/results/fig4_000/results.json experiments/results/fig4_000
//!
//! Real time is R1 + R2 with R1 = 2/3 of it (R2 at half R1's rate); the
//! model is evaluated at exactly the simulated per-class rates and with the
//! simulated router's Vticks: the simulator rounds Vtick = 1/(λ_c M) to whole
//! cycles (`workload::realtime_vtick`), as `wormqos model` does, so this
//! example's model is `wormqos model`'s (the committed
//! `model_fig4_000_np` / `model_fig4b_000_np` rows, which
//! `tests/reproduction_numbers/model000_ties.rs` ties to the tables).

use std::path::PathBuf;
use wormqos_netsim::analytic::kim2005::RouterModel;
use wormqos_netsim::plot::line_plot;
use wormqos_netsim::workload::realtime_vtick;

const M: f64 = 32.0;

/// Table 1's router at R1 = 2/3, R2 = 1/3 of `rt_total` and best effort
/// `be` (messages/cycle/port), with the Vticks the simulator gives those
/// rates (whole cycles; these rates give at most 188, below the
/// header field's limit, hence no clamp).
fn table1_as_simulated(rt_total: f64, be: f64) -> RouterModel {
    let mut m = RouterModel::table1(rt_total * 2.0 / 3.0, rt_total / 3.0, be);
    m.vticks = m.rt_rates.iter().map(|&r| realtime_vtick(1.0, r, M as u32, u32::MAX) as f64).collect();
    m
}

fn model(rt_total: f64, be: f64) -> Option<Vec<f64>> {
    match table1_as_simulated(rt_total, be).solve() {
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
    let points = v["points"].as_array().ok_or_else(|| anyhow::anyhow!("no points"))?;
    let mix_of = |p: &serde_json::Value| {
        let m = &p["params"]["workload.load+workload.mix"][1];
        (m[0].as_f64().unwrap_or(0.0) / M, m[1].as_f64().unwrap_or(0.0) / M)
    };
    // x is the real-time rate unless only best effort varies (Fig. 4(b)).
    let be_axis = points.len() > 1 && mix_of(&points[0]).0 == mix_of(&points[1]).0;
    let (fixed_rt, fixed_be) = points.first().map(mix_of).unwrap_or((0.0, 0.01));
    let rates = |x: f64| if be_axis { (fixed_rt, x) } else { (x, fixed_be) };
    let axis = if be_axis { "best-effort load (msgs/cycle/port)" } else { "real-time load R1+R2 (msgs/cycle/port)" };
    // sim[class] = (x, network latency); classes: R1 = 2, R2 = 1, BE = 0.
    let mut sim: [Vec<(f64, f64)>; 3] = Default::default();
    println!("{axis} | R1 sim / model | R2 sim / model | BE sim / model (network latency, cycles)");
    for p in points {
        let (rt, be) = mix_of(p);
        let x = if be_axis { be } else { rt };
        let classes = p["results"]["classes"].as_array().cloned().unwrap_or_default();
        let lat = |c: usize| classes.iter().find(|x| x["class"] == c).and_then(|x| x["network_latency"].as_f64());
        let s = [lat(2), lat(1), lat(0)];
        let m = model(rt, be);
        let mut row = format!("{x:.4}");
        for (i, si) in s.iter().enumerate() {
            if let Some(y) = si {
                sim[i].push((x, *y));
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
        let (rt, be) = rates(x);
        if let Some(m) = model(rt, be) {
            for i in 0..3 {
                curves[i].push((x, m[i]));
            }
        } else {
            println!("model saturates at {x:.5} ({axis})");
            break;
        }
        x += 0.00025;
    }
    let names = ["R1", "R2", "BE"];
    for x in [0.002, 0.01] {
        let (rt, be) = rates(x);
        if let Ok(s) = table1_as_simulated(rt, be).solve() {
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
    // 000_… Fig. 13: deadline missing probability of the real-time classes,
    // P{L > D} for D = 42 and 47 cycles (Eqs (16)–(19) vs the simulated
    // network-latency counts).
    for dl in [42.0f64, 47.0] {
        let mut dseries = Vec::new();
        let mut msim: [Vec<(f64, f64)>; 2] = Default::default();
        println!("deadline {dl} cycles: {axis} | R1 sim / model | R2 sim / model (P{{L > D}})");
        for p in points {
            let (rt, be) = mix_of(p);
            let x = if be_axis { be } else { rt };
            let classes = p["results"]["classes"].as_array().cloned().unwrap_or_default();
            let tail = |c: usize| {
                let counts: Vec<f64> = classes.iter().find(|k| k["class"] == c)?["network_latency_counts"].as_array()?.iter().filter_map(|v| v.as_f64()).collect();
                let n: f64 = counts.iter().sum();
                (n > 0.0).then(|| counts.iter().enumerate().filter(|(i, _)| *i as f64 > dl).map(|(_, v)| v).sum::<f64>() / n)
            };
            let model_p = table1_as_simulated(rt, be).solve().ok().map(|sol| {
                let m = table1_as_simulated(rt, be);
                [m.deadline_miss_probability(&sol, 0, dl), m.deadline_miss_probability(&sol, 1, dl)]
            });
            let mut row = format!("{x:.4}");
            for (i, c) in [2usize, 1].into_iter().enumerate() {
                let sv = tail(c);
                if let Some(v) = sv {
                    msim[i].push((x, v));
                }
                row += &format!(
                    " | {} / {}",
                    sv.map_or("-".into(), |v| format!("{v:.3}")),
                    model_p.map_or("saturated".into(), |m| format!("{:.3}", m[i]))
                );
            }
            println!("{row}");
        }
        for (i, name) in ["R1", "R2"].iter().enumerate() {
            let pts: Vec<(f64, f64)> = curves[0]
                .iter()
                .filter_map(|&(x, _)| {
                    let (rt, be) = rates(x);
                    let m = table1_as_simulated(rt, be);
                    let sol = m.solve().ok()?;
                    Some((x, m.deadline_miss_probability(&sol, i, dl)))
                })
                .collect();
            dseries.push((format!("{name} model"), pts));
            dseries.push((format!("{name} sim"), msim[i].clone()));
        }
        let f = line_plot(
            &out.join(format!("model_vs_sim_dmp_d{dl}")),
            &format!("000 Fig. 13: deadline missing probability, D = {dl} cycles"),
            axis,
            "P{network latency > D}",
            &dseries,
        )
        .map_err(anyhow::Error::msg)?;
        println!("wrote {}", f.join(", "));
    }
    let files = line_plot(
        &out.join("model_vs_sim_network_latency"),
        if be_axis { "000 Fig. 4(b): 16-port router, model (Eqs 1-9) vs simulation" } else { "000 Fig. 4(a): 16-port router, model (Eqs 1-9) vs simulation" },
        axis,
        "network latency (cycles)",
        &series,
    )
    .map_err(anyhow::Error::msg)?;
    println!("wrote {}", files.join(", "));
    Ok(())
}

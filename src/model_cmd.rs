//! `wormqos model`: the papers' analytical models on the experiment files of
//! `sim` / `sweep` (issue 22). Writes the sweep's results.csv / results.json
//! columns and plots with a leading `source` column (`model:<name>` or
//! `sim`), so that `--with-sim` overlays model and simulation in one run.

use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use wormqos_netsim::analytic::predict;
use wormqos_netsim::{sweep, Results};

#[derive(Args)]
pub struct ModelArgs {
    /// Experiment file, with or without a `[sweep]` table.
    #[arg(long)]
    pub experiment: PathBuf,
    /// Output directory for results.csv, results.json and the plots.
    #[arg(long)]
    pub out: PathBuf,
    /// Also simulate every point (as `sweep` does) and put both in the outputs.
    #[arg(long)]
    pub with_sim: bool,
    /// Parallel simulations with --with-sim (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Network-latency deadline D in cycles (repeatable): writes dmp.csv with
    /// P{L > D} per real-time class (000_… §3.4) and, with --with-sim, the
    /// simulated fraction.
    #[arg(long)]
    pub deadline: Vec<f64>,
    /// 004_…'s routing strategy on a multilink_ring: `destination-block`
    /// (the first, what the simulator's routers do) or `source-block` (the
    /// second: model only).
    #[arg(long, value_enum, default_value_t = RingStrategy::DestinationBlock)]
    pub ring_strategy: RingStrategy,
    /// With --deadline on a hypercube: the deadline missing probability of
    /// messages crossing exactly this many links (000_… Fig. 14), model and
    /// simulation; without it, over all messages.
    #[arg(long)]
    pub hops: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RingStrategy {
    DestinationBlock,
    SourceBlock,
}

const EXIT_INVALID_INPUT: u8 = 2;

/// Per-class network latency, for the overlay plots (class 0 = best effort).
const CLASS_NET: [fn(&Results) -> f64; 8] = [
    |r| class_net(r, 0),
    |r| class_net(r, 1),
    |r| class_net(r, 2),
    |r| class_net(r, 3),
    |r| class_net(r, 4),
    |r| class_net(r, 5),
    |r| class_net(r, 6),
    |r| class_net(r, 7),
];

fn class_net(r: &Results, c: u8) -> f64 {
    r.classes.iter().find(|s| s.class == c).map_or(f64::NAN, |s| s.network_latency)
}

pub fn model(a: ModelArgs) -> ExitCode {
    let grid = match sweep::Grid::from_file(&a.experiment) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    };
    if let Some(d) = a.deadline.iter().find(|d| !(d.is_finite() && **d > 0.0 && **d <= 1e6)) {
        eprintln!("error: --deadline {d}: a network latency in cycles, allowed range (0, 1e6]");
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let opts = predict::Options { ring_source_block: a.ring_strategy == RingStrategy::SourceBlock, hops: a.hops };
    if opts.ring_source_block && a.with_sim {
        eprintln!("error: --ring-strategy source-block with --with-sim: the simulator's routers route by destination (the first strategy); the second is model only");
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    // Every point is validated, and its model inputs checked, before any work.
    let mut plans = Vec::new();
    for params in grid.points() {
        let v = match grid.experiment(&params) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        };
        match predict::plan_with(&v, &opts) {
            Ok(p) => plans.push((params, v, p)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
    }
    let start = std::time::Instant::now();
    let mut pts = Vec::new();
    let mut sources: Vec<String> = Vec::new();
    let mut dmp = Vec::new();
    for (params, v, p) in &plans {
        for named in p.evaluate(&a.deadline) {
            let source = format!("model:{}", named.name);
            if !sources.contains(&source) {
                sources.push(source.clone());
            }
            if let Ok(classes) = &named.result {
                for c in classes.iter().filter(|c| c.miss.iter().all(|x| x.is_finite())) {
                    for (d, m) in a.deadline.iter().zip(&c.miss) {
                        dmp.push((source.clone(), label(params), c.class, *d, *m));
                    }
                }
            }
            let result = named.result.map(|c| predict::to_results(v, &c)).map_err(|e| e.to_string());
            pts.push(point(&source, params, result));
        }
    }
    let model_secs = start.elapsed().as_secs_f64();
    let mut sim_failed = 0;
    if a.with_sim {
        let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let progress = |done: usize, total: usize| {
            eprint!("\rsimulating: {done}/{total} points, {:.0} s", start.elapsed().as_secs_f64());
            let _ = std::io::stderr().flush();
        };
        let sim = grid.run(jobs, &progress);
        eprintln!();
        for s in sim {
            if let Err(e) = &s.result {
                sim_failed += 1;
                eprintln!("simulated point {} failed: {e}", label(&s.params));
            }
            if let Ok(r) = &s.result {
                for c in &r.classes {
                    let counts = match a.hops {
                        Some(h) => c.network_latency_counts_by_hops.get(h).map_or(&[][..], |v| &v[..]),
                        None => &c.network_latency_counts[..],
                    };
                    let n: u64 = counts.iter().sum();
                    for &d in &a.deadline {
                        let late: u64 = counts.iter().enumerate().filter(|(i, _)| *i as f64 > d).map(|(_, k)| k).sum();
                        if n > 0 {
                            dmp.push(("sim".into(), label(&s.params), c.class, d, late as f64 / n as f64));
                        }
                    }
                }
            }
            pts.push(point("sim", &s.params, s.result));
        }
        sources.push("sim".into());
    }
    let mut keys = vec![("source".to_string(), sources.iter().map(|s| toml::Value::String(s.clone())).collect())];
    keys.extend(grid.keys.iter().cloned());
    let combined = sweep::Grid { name: grid.name.clone(), file: grid.file.clone(), dir: grid.dir.clone(), base: grid.base.clone(), keys, x: grid.x.clone() };
    let table = comparison(&pts);
    print!("{table}");
    let extra = |out: &std::path::Path| -> anyhow::Result<()> {
        std::fs::write(out.join("comparison.txt"), &table)?;
        if !dmp.is_empty() {
            let mut csv = String::from("source,point,class,deadline_cycles,miss_probability\n");
            for (src, pt, c, d, m) in &dmp {
                csv += &format!("{src},{pt},{c},{d},{m}\n");
                println!("deadline {d}: {pt} class {c} {src}: P{{L > D}} = {m:.4}");
            }
            std::fs::write(out.join("dmp.csv"), csv)?;
        }
        Ok(())
    };
    if let Err(e) = crate::sim_cmd::write_outputs(&combined, &pts, &a.out).and_then(|()| class_plots(&combined, &pts, &a.out)).and_then(|()| extra(&a.out)) {
        eprintln!("error: {e:#}");
        return ExitCode::FAILURE;
    }
    for p in pts.iter().filter(|p| p.result.is_err() && p.params[0].1.as_str() != Some("sim")) {
        eprintln!("{}: {}", label(&p.params), p.result.as_ref().err().unwrap());
    }
    eprintln!("{} points, model {:.1} ms; results in {}", plans.len(), model_secs * 1e3, a.out.display());
    if sim_failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn point(source: &str, params: &[(String, toml::Value)], result: Result<Results, String>) -> sweep::Point {
    let mut p = vec![("source".to_string(), toml::Value::String(source.to_string()))];
    p.extend(params.iter().cloned());
    sweep::Point { params: p, result }
}

fn label(params: &[(String, toml::Value)]) -> String {
    params.iter().map(|(k, v)| format!("{k}={}", sweep::value_label(v))).collect::<Vec<_>>().join(" ")
}

/// Network latency per class at every point: each model beside the
/// simulation, with the model's relative error when both exist.
fn comparison(pts: &[sweep::Point]) -> String {
    let mut s = String::from("point | class | source | network latency (cycles) | source queue | network: model − sim | latency: model − sim\n");
    let sim_of = |params: &[(String, toml::Value)]| pts.iter().find(|q| q.params[0].1.as_str() == Some("sim") && q.params[1..] == params[1..]);
    for p in pts.iter().filter(|p| p.params[0].1.as_str() != Some("sim")) {
        let here = label(&p.params[1..]);
        let sim = sim_of(&p.params).and_then(|q| q.result.as_ref().ok());
        match &p.result {
            Ok(r) => {
                for c in &r.classes {
                    let sv = sim.and_then(|q| q.classes.iter().find(|k| k.class == c.class));
                    let rel = |m: f64, s: f64| if m.is_finite() { format!("{:+.1} % (sim {s:.1})", 100.0 * (m - s) / s) } else { format!("- (sim {s:.1})") };
                    let err = sv.map_or("- | -".into(), |k| format!("{} | {}", rel(c.network_latency, k.network_latency), rel(c.latency, k.latency)));
                    let src = if c.source_latency.is_finite() { format!("{:.2}", c.source_latency) } else { "saturated (λL̄ ≥ 1)".into() };
                    s += &format!("{here} | {} | {} | {:.2} | {src} | {err}\n", c.class, sweep::value_label(&p.params[0].1), c.network_latency);
                }
            }
            Err(e) => s += &format!("{here} | - | {} | {e} | - | - | -\n", sweep::value_label(&p.params[0].1)),
        }
    }
    s
}

fn class_plots(grid: &sweep::Grid, pts: &[sweep::Point], out: &std::path::Path) -> anyhow::Result<()> {
    for (c, f) in CLASS_NET.iter().enumerate() {
        let s = sweep::series(grid, pts, *f);
        if s.is_empty() {
            continue;
        }
        let stem = out.join(format!("network_latency_class{c}"));
        let title = format!("{}: network latency of class {c}{}", grid.name, if c == 0 { " (best effort)" } else { "" });
        for f in wormqos_netsim::plot::line_plot(&stem, &title, &grid.x, "latency (cycles)", &s).map_err(|e| anyhow::anyhow!("plot {}: {e}", stem.display()))? {
            eprintln!("wrote {f}");
        }
    }
    Ok(())
}

//! `wormqos sim` and `wormqos sweep`: the network simulator (issue 5).

use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use wormqos_netsim::{sweep, Experiment};

#[derive(Args)]
pub struct SimArgs {
    /// Experiment file (TOML): router, topology, physical, workload, run.
    #[arg(long)]
    pub experiment: PathBuf,
    /// Write the full results as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write every router's configuration (with its routing table) into this
    /// directory as `<name>_r<i>.toml`, ready for `wormqos generate`, and exit.
    #[arg(long)]
    pub emit_configs: Option<PathBuf>,
}

#[derive(Args)]
pub struct SweepArgs {
    /// Experiment file with a `[sweep]` table of dotted keys and value lists.
    #[arg(long)]
    pub experiment: PathBuf,
    /// Output directory for results.csv, results.json and the plots.
    #[arg(long)]
    pub out: PathBuf,
    /// Parallel simulations (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

const EXIT_INVALID_INPUT: u8 = 2;

pub fn sim(a: SimArgs) -> ExitCode {
    let v = match Experiment::from_file(&a.experiment) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    };
    if let Some(dir) = &a.emit_configs {
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            for c in &v.configs {
                let p = dir.join(format!("{}.toml", c.name()));
                std::fs::write(&p, c.to_toml())?;
                let _ = writeln!(std::io::stdout(), "{}", p.display());
            }
            Ok(())
        };
        return match write() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}: {e}", dir.display());
                ExitCode::FAILURE
            }
        };
    }
    match wormqos_netsim::run(&v) {
        Ok(r) => {
            println!("{}", summary(&r));
            if let Some(p) = a.json {
                let text = serde_json::to_string_pretty(&r).unwrap_or_default();
                if let Err(e) = std::fs::write(&p, text) {
                    eprintln!("error: {}: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", a.experiment.display());
            ExitCode::FAILURE
        }
    }
}

fn summary(r: &wormqos_netsim::Results) -> String {
    let mut s = format!(
        "{}: {} routers, {} endpoints, {} cycles ({} warm-up) of {:.1} ns, {} real-time streams\n",
        r.name, r.routers, r.endpoints, r.cycles, r.warmup_cycles, r.cycle_ns, r.realtime_streams
    );
    s += &format!("offered load {:.3}, accepted {:.4} flits/endpoint/cycle\n", r.offered_load, r.accepted_throughput);
    if r.frame_interval_ms.n > 0 {
        s += &format!(
            "frame delivery interval d = {:.3} ms, sigma_d = {:.3} ms ({} intervals); deadline missing probability {:.4}, mean missing time {:.3} ms\n",
            r.frame_interval_ms.mean, r.frame_interval_ms.sd, r.frame_interval_ms.n, r.deadline_miss_probability, r.deadline_missing_time_ms
        );
    }
    let e = &r.router_events;
    if e.preemptions + e.silent_preemptions + e.accelerations + e.block_holds > 0 {
        s += &format!(
            "router events: {} preemptions ({} nested, {} without dummy tail), {} dummy headers, {} accelerations, {} block-hold grants\n",
            e.preemptions, e.nested_preemptions, e.silent_preemptions, e.dummy_headers, e.accelerations, e.block_holds
        );
    }
    for c in &r.classes {
        s += &format!(
            "class {}: {} messages, latency {:.1} cycles (±{:.1} 95% CI; network {:.1}, source queue {:.1})\n",
            c.class, c.messages, c.latency, c.latency_ci95, c.network_latency, c.source_latency
        );
    }
    s += &format!("{:.0} router-cycles/s ({:.2} s wall)", r.router_cycles_per_second, r.wall_seconds);
    s
}

pub fn sweep(a: SweepArgs) -> ExitCode {
    let grid = match sweep::Grid::from_file(&a.experiment) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    };
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        let w = 30;
        let filled = done * w / total.max(1);
        eprint!("\r[{}{}] {done}/{total} points, {:.0} s", "#".repeat(filled), "-".repeat(w - filled), start.elapsed().as_secs_f64());
        let _ = std::io::stderr().flush();
    };
    let pts = grid.run(jobs, &progress);
    eprintln!();
    if let Err(e) = write_outputs(&grid, &pts, &a.out) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let failed: Vec<_> = pts.iter().filter(|p| p.result.is_err()).collect();
    for p in &failed {
        let label: Vec<String> = p.params.iter().map(|(k, v)| format!("{k}={}", sweep::value_label(v))).collect();
        eprintln!("point {} failed: {}", label.join(" "), p.result.as_ref().err().unwrap());
    }
    eprintln!("{} points, {} failed, {:.1} s wall; results in {}", pts.len(), failed.len(), start.elapsed().as_secs_f64(), a.out.display());
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

pub(crate) fn write_outputs(grid: &sweep::Grid, pts: &[sweep::Point], out: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("results.csv"), sweep::to_csv(grid, pts))?;
    std::fs::write(out.join("results.json"), serde_json::to_string_pretty(&sweep::to_json(grid, pts))?)?;
    let plots: [(&str, &str, &str); 6] = [
        ("frame_interval_mean_ms", "mean frame delivery interval", "d (ms)"),
        ("frame_interval_sd_ms", "std. dev. of frame delivery interval", "sigma_d (ms)"),
        ("be_latency_us", "best-effort message latency", "latency (us)"),
        ("deadline_miss_probability", "deadline missing probability", "probability"),
        ("accepted_throughput", "accepted throughput", "flits/endpoint/cycle"),
        ("rt_latency_cycles", "real-time message latency", "latency (cycles)"),
    ];
    // Dynamic workloads: per-phase deadline metrics against the real-time share.
    let phased: Vec<(String, &wormqos_netsim::Results)> = pts
        .iter()
        .filter_map(|p| {
            let r = p.result.as_ref().ok()?;
            let label: Vec<String> = p.params.iter().map(|(_, v)| sweep::value_label(v)).collect();
            (r.phases.len() > 1).then(|| (label.join(" "), r))
        })
        .collect();
    if !phased.is_empty() {
        let mut csv = String::from("point,phase,realtime_percent,frames_judged,deadline_miss_probability,deadline_missing_time_ms\n");
        for (l, r) in &phased {
            for (i, ph) in r.phases.iter().enumerate() {
                let pct = 100.0 * ph.mix[0] / (ph.mix[0] + ph.mix[1]);
                csv += &format!("{l},{i},{pct},{},{},{}\n", ph.frames_judged, ph.deadline_miss_probability, ph.deadline_missing_time_ms);
            }
        }
        std::fs::write(out.join("phases.csv"), csv)?;
        for (name, title, ylabel, f) in [
            ("phase_deadline_miss_probability", "deadline missing probability per phase", "probability", 0),
            ("phase_deadline_missing_time_ms", "average deadline missing time per phase", "ms", 1),
        ] {
            let s: wormqos_netsim::plot::Series = phased
                .iter()
                .map(|(l, r)| {
                    let pts = r
                        .phases
                        .iter()
                        .filter(|p| p.frames_judged > 0)
                        .map(|p| (100.0 * p.mix[0] / (p.mix[0] + p.mix[1]), if f == 0 { p.deadline_miss_probability } else { p.deadline_missing_time_ms }))
                        .collect();
                    (l.clone(), pts)
                })
                .collect();
            for f in wormqos_netsim::plot::line_plot(&out.join(name), &format!("{}: {title}", grid.name), "real-time share of the load (%)", ylabel, &s)
                .map_err(|e| anyhow::anyhow!("plot {name}: {e}"))?
            {
                eprintln!("wrote {f}");
            }
        }
    }
    let cols = sweep::columns();
    for (col, title, ylabel) in plots {
        let f = cols.iter().find(|c| c.0 == col).unwrap().1;
        let s = sweep::series(grid, pts, f);
        if s.is_empty() {
            continue;
        }
        let files = wormqos_netsim::plot::line_plot(&out.join(col), &format!("{}: {title}", grid.name), &grid.x, ylabel, &s)
            .map_err(|e| anyhow::anyhow!("plot {col}: {e}"))?;
        for f in files {
            eprintln!("wrote {f}");
        }
    }
    Ok(())
}

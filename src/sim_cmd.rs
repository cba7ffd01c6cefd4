//! `wormqos sim` and `wormqos sweep`: the network simulator (issue 5).

use crate::validate::{claim_dir, claim_file, invalid};
use anyhow::Context;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use wormqos_config::files::OutDir;
use wormqos_config::shard::{is_shard_file, ShardSpec};
use wormqos_netsim::experiment::Switching;
use wormqos_netsim::{shard, sweep, Experiment};

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
    /// Overwrite output files that wormqos did not write.
    #[arg(long)]
    pub force: bool,
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
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Overwrite files in --out that wormqos did not write.
    #[arg(long)]
    pub force: bool,
    /// Run only shard I of N (the points whose index is I mod N, from 0)
    /// and write `shard-I-of-N.msgpack` into --out instead of the CSV, JSON
    /// and plots; `wormqos merge` combines the N shard files.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<ShardSpec>,
}

/// `wormqos merge`: the shard files of one `sweep` or `dse` back into one
/// run's outputs.
#[derive(Args)]
pub struct MergeArgs {
    /// Output directory for results.csv, results.json and the plots.
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite files in --out that wormqos did not write.
    #[arg(long)]
    pub force: bool,
    /// The N shard files (`shard-I-of-N.msgpack`), in any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
}

/// Whether `path` holds a `wormqos sim --json` result (which a rerun may replace).
fn is_sim_json(path: &Path) -> bool {
    let Ok(text) = wormqos_config::files::read_capped(path) else { return false };
    serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| {
        let pcs = v.get("switching").and_then(|s| s.as_str()) == Some("pcs");
        pcs || (v.get("router_cycles_per_second").is_some() && v.get("accepted_throughput").is_some())
    })
}

pub fn sim(a: SimArgs) -> anyhow::Result<()> {
    let v = Experiment::from_file(&a.experiment).map_err(|e| invalid(e.to_string()))?;
    if let Some(why) = wormqos_netsim::reconfigure::unsupported(&v) {
        return Err(invalid(why));
    }
    if let Some(dir) = &a.emit_configs {
        let files: Vec<(String, String)> = v.configs.iter().map(|c| (format!("{}.toml", c.name()), c.to_toml())).collect();
        let claims: Vec<(&str, Option<&[u8]>)> = files.iter().map(|(n, t)| (n.as_str(), Some(t.as_bytes()))).collect();
        let mut out = claim_dir(dir, &claims, a.force)?;
        out.begin(&files.iter().map(|f| f.0.as_str()).collect::<Vec<_>>())?;
        for (name, text) in &files {
            let p = out.write(name, text.as_bytes())?;
            let _ = writeln!(std::io::stdout(), "{}", p.display());
        }
        out.finish(|n| n.ends_with(".toml"))?;
        return Ok(());
    }
    if let Some(p) = &a.json {
        claim_file(p, a.force || is_sim_json(p)).context("--json")?;
    }
    if v.exp.model.switching == Switching::Pcs {
        return sim_pcs(&v, a.json.as_deref());
    }
    let r = wormqos_netsim::run(&v).with_context(|| a.experiment.display().to_string())?;
    println!("{}", summary(&r));
    if let Some(why) = sweep::empty_run(&r) {
        return Err(invalid(format!("{}: {why}", a.experiment.display())));
    }
    if let Some(p) = a.json {
        std::fs::write(&p, serde_json::to_string_pretty(&r)?).with_context(|| p.display().to_string())?;
    }
    Ok(())
}

/// `model.switching = "pcs"`: the connection set-up model (`wormqos_netsim::pcs`).
fn sim_pcs(v: &wormqos_netsim::Validated, json: Option<&Path>) -> anyhow::Result<()> {
    let r = wormqos_netsim::pcs::run(v).map_err(|e| invalid(format!("{}: {e}", v.file)))?;
    let ci = |e: &wormqos_netsim::pcs::Estimate| format!("{:.1} ± {:.1}", e.mean, e.ci95);
    let ci3 = |e: &wormqos_netsim::pcs::Estimate| format!("{:.3} ± {:.3}", e.mean, e.ci95);
    println!(
        "{}: PCS set-up, load {} ({} streams, established load {:.4}), {} replications: attempts {}, established {}, dropped {} (VC busy {}, bandwidth {}), drop fraction {:.4}; busiest output {} streams (at most {})",
        r.name,
        r.load,
        r.streams,
        r.established_load,
        r.replications,
        ci(&r.attempts),
        r.streams,
        ci(&r.dropped),
        ci(&r.dropped_vc_busy),
        ci(&r.dropped_bandwidth),
        r.drop_fraction,
        ci(&r.busiest_output),
        r.busiest_output_max
    );
    if let Some(d) = &r.data {
        println!(
            "{}: PCS data phase, {} cycles ({} warm-up): frame delivery interval d = {} ms, sigma_d = {} ms; busiest output offered {} carried {} flits/cycle",
            r.name,
            d.cycles,
            d.warmup_cycles,
            ci3(&d.frame_interval_mean_ms),
            ci3(&d.frame_interval_sd_ms),
            ci3(&d.busiest_offered_load),
            ci3(&d.busiest_carried_load)
        );
    }
    if let Some(p) = json {
        // Compact: the per-replication counts are thousands of small records.
        std::fs::write(p, serde_json::to_string(&r)?).with_context(|| p.display().to_string())?;
    }
    Ok(())
}

fn summary(r: &wormqos_netsim::Results) -> String {
    let registers = if r.link_latency > 0 { format!(", {} register(s) per link and direction", r.link_latency) } else { String::new() };
    let mut s = format!(
        "{}: {} routers, {} endpoints, {} cycles ({} warm-up) of {:.1} ns, {} real-time streams{registers}\n",
        r.name, r.routers, r.endpoints, r.cycles, r.warmup_cycles, r.cycle_ns, r.realtime_streams
    );
    s += &format!("offered load {:.3}, accepted {:.4} flits/endpoint/cycle", r.offered_load, r.accepted_throughput);
    if (r.offered_load - r.requested_load).abs() >= 0.0005 {
        s += &format!(" (workload.load = {:.3}: real-time streams come whole; control messages add to it)", r.requested_load);
    }
    s += "\n";
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
    if let Some(x) = &r.reconfiguration {
        s += &reconfiguration_summary(x);
    }
    s += &format!("{:.0} router-cycles/s ({:.2} s wall)", r.router_cycles_per_second, r.wall_seconds);
    s
}

/// The `[reconfigure]` procedure as run: its cycles and each stretch's flits.
fn reconfiguration_summary(x: &wormqos_netsim::reconfigure::ReconfigReport) -> String {
    let flits = |l: &[(usize, usize, u64)]| l.iter().map(|e| e.2).sum::<u64>();
    format!(
        "reconfiguration: quiesced at cycle {}, drained at {} ({} cycles), {} table writes in cycles {}..={} after {} settle cycles, sources resumed at {}\n\
         flits injected / ejected: before {} / {}, during {} / {}, after {} / {}; router-to-router link flits before the writes {}, after the resume {}\n",
        x.quiesce_cycle,
        x.drained_cycle,
        x.drain_cycles,
        x.writes,
        x.first_write_cycle,
        x.last_write_cycle,
        x.settle_cycles,
        x.resume_cycle,
        x.before.flits_injected,
        x.before.flits_ejected,
        x.during.flits_injected,
        x.during.flits_ejected,
        x.after.flits_injected,
        x.after.flits_ejected,
        flits(&x.link_flits_before),
        flits(&x.link_flits_after)
    )
}

/// The plots a sweep may write: (column, title, y label).
const PLOTS: [(&str, &str, &str); 6] = [
    ("frame_interval_mean_ms", "mean frame delivery interval", "d (ms)"),
    ("frame_interval_sd_ms", "std. dev. of frame delivery interval", "sigma_d (ms)"),
    ("be_latency_us", "best-effort message latency", "latency (us)"),
    ("deadline_miss_probability", "deadline missing probability", "probability"),
    ("accepted_throughput", "accepted throughput", "flits/endpoint/cycle"),
    ("rt_latency_cycles", "real-time message latency", "latency (cycles)"),
];
const PHASE_PLOTS: [&str; 2] = ["phase_deadline_miss_probability", "phase_deadline_missing_time_ms"];
/// Per-phase latency plots of the classes (003_… Fig. 5): (class, file stem, name).
const PHASE_LATENCY_PLOTS: [(u8, &str, &str); 3] = [
    (0, "phase_best_effort_latency_us", "best-effort"),
    (1, "phase_real_time_latency_us", "real-time"),
    (2, "phase_control_latency_us", "control"),
];

/// Every file a sweep may write into its output directory.
pub(crate) fn sweep_outputs() -> Vec<String> {
    let mut v: Vec<String> = ["results.csv", "results.json", "phases.csv", "phase_latency.csv"].iter().map(|s| s.to_string()).collect();
    for stem in PLOTS.iter().map(|p| p.0).chain(PHASE_PLOTS).chain(PHASE_LATENCY_PLOTS.iter().map(|p| p.1)) {
        v.push(format!("{stem}.svg"));
        v.push(format!("{stem}.png"));
    }
    v
}

/// The PCS set-up model (`model.switching = "pcs"`) reports set-up counts,
/// not the sweep's columns: `sim` runs it, one load per file.
fn refuse_pcs(grid: &sweep::Grid) -> anyhow::Result<()> {
    for pt in grid.points() {
        let v = grid.experiment(&pt).map_err(|e| invalid(e.to_string()))?;
        if v.exp.model.switching == Switching::Pcs {
            return Err(invalid(format!(
                "{}: model.switching = \"pcs\": the PCS set-up model runs under `wormqos sim` (one load per run); in a sweep allowed values: \"wormhole\"",
                v.file
            )));
        }
    }
    Ok(())
}

pub fn sweep(a: SweepArgs) -> anyhow::Result<()> {
    let grid = sweep::Grid::from_file(&a.experiment).map_err(|e| invalid(e.to_string()))?;
    refuse_pcs(&grid)?;
    let source = a.shard.map(|_| -> anyhow::Result<shard::Source> {
        Ok(shard::Source {
            file: a.experiment.display().to_string(),
            dir: a.experiment.parent().map(Path::to_path_buf).unwrap_or_default(),
            text: wormqos_config::files::read_capped(&a.experiment).map_err(invalid)?,
        })
    });
    let source = source.transpose()?;
    let names = match a.shard {
        Some(spec) => vec![spec.file_name()],
        None => sweep_outputs(),
    };
    let claims: Vec<(&str, Option<&[u8]>)> = names.iter().map(|n| (n.as_str(), None)).collect();
    let mut out = claim_dir(&a.out, &claims, a.force)?;
    let jobs = a.jobs.map(|j| j as usize).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        let w = 30;
        let filled = done * w / total.max(1);
        eprint!("\r[{}{}] {done}/{total} points, {:.0} s", "#".repeat(filled), "-".repeat(w - filled), start.elapsed().as_secs_f64());
        let _ = std::io::stderr().flush();
    };
    let total = grid.points().len();
    let indices: Vec<usize> = match a.shard {
        Some(spec) => spec.indices(total),
        None => (0..total).collect(),
    };
    let ran = grid.run_indices(&indices, jobs, &progress);
    eprintln!();
    out.begin(&names.iter().map(String::as_str).collect::<Vec<_>>())?;
    let failed: Vec<String> = ran
        .iter()
        .filter_map(|(_, p)| {
            let label: Vec<String> = p.params.iter().map(|(k, v)| format!("{k}={}", sweep::value_label(v))).collect();
            p.result.as_ref().err().map(|e| format!("point {} failed: {e}", label.join(" ")))
        })
        .collect();
    let ran_count = ran.len();
    match a.shard {
        Some(spec) => {
            let source = source.expect("read with the shard");
            out.write(&spec.file_name(), &shard::to_bytes(&grid, source, spec, ran))?;
        }
        None => {
            let pts: Vec<sweep::Point> = ran.into_iter().map(|(_, p)| p).collect();
            write_outputs(&grid, &pts, &mut out)?;
        }
    }
    // The other shards' files in the same directory are results too.
    out.finish(|name| !is_shard_file(name))?;
    for f in &failed {
        eprintln!("{f}");
    }
    let what = match a.shard {
        Some(spec) => format!("shard {spec}: {ran_count} of {total} points"),
        None => format!("{total} points"),
    };
    eprintln!("{what}, {} failed, {:.1} s wall; results in {}", failed.len(), start.elapsed().as_secs_f64(), a.out.display());
    anyhow::ensure!(failed.is_empty(), "{} of {ran_count} points failed", failed.len());
    Ok(())
}

/// `wormqos merge` of `sweep` shards: checks that they are exactly the N
/// shards of one grid, then writes what one unsharded `sweep` writes.
#[allow(dead_code)] // the netsim example shares this file and has no `merge`
pub(crate) fn merge_sweep(files: Vec<(String, Vec<u8>)>, out_dir: &Path, force: bool) -> anyhow::Result<()> {
    let mut decoded = Vec::new();
    for (name, bytes) in files {
        let s: shard::SweepShard = wormqos_config::shard::decode(&name, &bytes).map_err(|e| invalid(e.to_string()))?;
        decoded.push((name, s));
    }
    let count = decoded.len();
    let (grid, pts) = shard::merge(decoded).map_err(|e| invalid(e.to_string()))?;
    let names = sweep_outputs();
    let claims: Vec<(&str, Option<&[u8]>)> = names.iter().map(|n| (n.as_str(), None)).collect();
    let mut out = claim_dir(out_dir, &claims, force)?;
    out.begin(&names.iter().map(String::as_str).collect::<Vec<_>>())?;
    write_outputs(&grid, &pts, &mut out)?;
    out.finish(|name| !is_shard_file(name))?;
    let failed = pts.iter().filter(|p| p.result.is_err()).count();
    eprintln!("{} points from {count} shards, {failed} failed; results in {}", pts.len(), out_dir.display());
    anyhow::ensure!(failed == 0, "{failed} of {} points failed", pts.len());
    Ok(())
}

/// `phase_latency.csv` and its plots: each class's mean message latency per
/// phase (messages by creation time), total and its part spent at the
/// source before the header entered the network ("queueing time", 003_…
/// Fig. 5), in µs, and the latency's 95 % half-width (t over the messages).
fn write_phase_latency(phased: &[(String, &wormqos_netsim::Results)], grid: &sweep::Grid, out: &mut OutDir) -> anyhow::Result<()> {
    let us = |r: &wormqos_netsim::Results, cycles: f64| cycles * r.cycle_ns / 1000.0;
    let pct = |mix: [f64; 2]| 100.0 * mix[0] / (mix[0] + mix[1]);
    let mut csv = String::from("point,phase,realtime_percent,class,messages,latency_us,queueing_us,network_us,latency_ci95_us\n");
    for (l, r) in phased {
        for (i, ph) in r.phases.iter().enumerate() {
            for c in &ph.class_latency {
                csv += &format!(
                    "{l},{i},{},{},{},{},{},{},{}\n",
                    pct(ph.mix),
                    c.class,
                    c.messages,
                    us(r, c.latency),
                    us(r, c.source_latency),
                    us(r, c.network_latency),
                    us(r, c.latency_ci95)
                );
            }
        }
    }
    out.write("phase_latency.csv", csv.as_bytes())?;
    let dir = out.path().to_path_buf();
    for (class, stem, name) in PHASE_LATENCY_PLOTS {
        let mut s: wormqos_netsim::plot::Series = Vec::new();
        for (l, r) in phased {
            let of = |f: fn(&wormqos_netsim::PhaseClassLatency) -> f64| -> Vec<(f64, f64)> {
                r.phases
                    .iter()
                    .filter_map(|ph| ph.class_latency.iter().find(|c| c.class == class).map(|c| (pct(ph.mix), us(r, f(c)))))
                    .collect()
            };
            let total = of(|c| c.latency);
            if !total.is_empty() {
                s.push((l.clone(), total));
                s.push((format!("{l} queueing"), of(|c| c.source_latency)));
            }
        }
        if s.is_empty() {
            continue;
        }
        let title = format!("{}: {name} latency per phase (and its queueing time at the source)", grid.name);
        let files = wormqos_netsim::plot::line_plot(&dir.join(stem), &title, "real-time share of the load (%)", "latency (us)", &s)
            .map_err(|e| anyhow::anyhow!("plot {stem}: {e}"))?;
        record_plots(out, files);
    }
    Ok(())
}

/// Records the files a plot call wrote (it returns their paths).
pub(crate) fn record_plots(out: &mut OutDir, files: Vec<String>) {
    for f in files {
        if let Some(n) = Path::new(&f).file_name().and_then(|n| n.to_str()) {
            out.record(n);
        }
        eprintln!("wrote {f}");
    }
}

pub(crate) fn write_outputs(grid: &sweep::Grid, pts: &[sweep::Point], out: &mut OutDir) -> anyhow::Result<()> {
    out.write("results.csv", sweep::to_csv(grid, pts).as_bytes())?;
    out.write("results.json", serde_json::to_string_pretty(&sweep::to_json(grid, pts))?.as_bytes())?;
    let dir = out.path().to_path_buf();
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
        let mut csv = String::from("point,phase,realtime_percent,frames_judged,deadline_miss_probability,deadline_missing_time_ms,deadline_miss_probability_ci95,deadline_missing_time_ci95_ms\n");
        for (l, r) in &phased {
            for (i, ph) in r.phases.iter().enumerate() {
                let pct = 100.0 * ph.mix[0] / (ph.mix[0] + ph.mix[1]);
                csv += &format!(
                    "{l},{i},{pct},{},{},{},{},{}\n",
                    ph.frames_judged,
                    ph.deadline_miss_probability,
                    ph.deadline_missing_time_ms,
                    ph.deadline_miss_probability_ci95,
                    ph.deadline_missing_time_ci95_ms
                );
            }
        }
        out.write("phases.csv", csv.as_bytes())?;
        for (name, title, ylabel, f) in [
            (PHASE_PLOTS[0], "deadline missing probability per phase", "probability", 0),
            (PHASE_PLOTS[1], "average deadline missing time per phase", "ms", 1),
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
            let files = wormqos_netsim::plot::line_plot(&dir.join(name), &format!("{}: {title}", grid.name), "real-time share of the load (%)", ylabel, &s)
                .map_err(|e| anyhow::anyhow!("plot {name}: {e}"))?;
            record_plots(out, files);
        }
        write_phase_latency(&phased, grid, out)?;
    }
    let cols = sweep::columns();
    for (col, title, ylabel) in PLOTS {
        let f = cols.iter().find(|c| c.0 == col).unwrap().1;
        let s = sweep::series(grid, pts, f);
        if s.is_empty() {
            continue;
        }
        let files = wormqos_netsim::plot::line_plot(&dir.join(col), &format!("{}: {title}", grid.name), &grid.x, ylabel, &s)
            .map_err(|e| anyhow::anyhow!("plot {col}: {e}"))?;
        record_plots(out, files);
    }
    Ok(())
}

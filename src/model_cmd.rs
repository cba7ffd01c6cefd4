//! `wormqos model`: the papers' analytical models on the experiment files of
//! `sim` / `sweep` (issue 22). Writes the sweep's results.csv / results.json
//! columns and plots with a leading `source` column (`model:<name>` or
//! `sim`), so that `--with-sim` overlays model and simulation in one run.

use crate::sim_cmd::{record_plots, sweep_outputs, write_outputs};
use crate::validate::{claim_dir, invalid, real_in};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use wormqos_config::files::OutDir;
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
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Network-latency deadline D in cycles (repeatable): writes dmp.csv with
    /// P{L > D} per real-time class (000_… §3.4) and, with --with-sim, the
    /// simulated fraction.
    #[arg(long)]
    pub deadline: Vec<f64>,
    /// 004_…'s routing strategy on a multilink_ring for the model:
    /// `destination-block` (the file's routes) or `source-block` (the
    /// second strategy, model only; to simulate it set
    /// `topology.strategy = "source_block"` in the file instead).
    #[arg(long, value_enum, default_value_t = RingStrategy::DestinationBlock)]
    pub ring_strategy: RingStrategy,
    /// With --deadline on a hypercube: the deadline missing probability of
    /// messages crossing exactly this many links (000_… Fig. 14), model and
    /// simulation; without it, over all messages.
    #[arg(long)]
    pub hops: Option<usize>,
    /// 000_… models: also the rows `model:kim2005_vcq` /
    /// `model:kim2005_cube_vcq`, the wait for each hop's one VC per class
    /// (an M/D/1 queue at the model's rate and holding time) added to the
    /// latency and to the deadline missing probability (issue 22); on a
    /// hypercube also `model:kim2005_cube_vcq_ports`, the same queues
    /// with the router's hold and a header waiting only behind the other
    /// input ports' messages.
    #[arg(long)]
    pub vc_queue: bool,
    /// With --vc-queue on a hypercube: also `model:kim2005_cube_vcq_flit`,
    /// the `kim2005_cube_vcq_ports` row with each link's cycles per flit
    /// counted per flit instead of Eq. (6)'s per cycle in the VC holds
    /// (issue 22).
    #[arg(long)]
    pub flit_sharing: bool,
    /// With --flit-sharing: also `model:kim2005_cube_vcq_body`, the
    /// `kim2005_cube_vcq_flit` row with the body's delay behind the other
    /// classes' flits on the injection and dimension links added to the
    /// latency and its tail (issue 22).
    #[arg(long)]
    pub body_behind: bool,
    /// Overwrite files in --out that wormqos did not write.
    #[arg(long)]
    pub force: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RingStrategy {
    DestinationBlock,
    SourceBlock,
}

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

/// Every file `model` may write into its output directory: the sweep's,
/// the comparison table, the deadline missing probabilities and the
/// per-class latency plots.
fn model_outputs() -> Vec<String> {
    let mut v = sweep_outputs();
    v.extend(["comparison.txt", "source_queue.csv", "latency_parts.csv", "latency_components.csv", "dmp.csv", "throughput.csv"].map(String::from));
    for c in 0..CLASS_NET.len() {
        v.push(format!("network_latency_class{c}.svg"));
        v.push(format!("network_latency_class{c}.png"));
    }
    v
}

pub fn model(a: ModelArgs) -> anyhow::Result<()> {
    let grid = sweep::Grid::from_file(&a.experiment).map_err(|e| invalid(e.to_string()))?;
    if grid.base.contains_key("reconfigure") {
        return Err(invalid(format!("{}: field `reconfigure` = a section: {}", grid.file, sweep::RECONFIGURE_ELSEWHERE)));
    }
    for &d in &a.deadline {
        real_in("--deadline (a network latency in cycles)", d, 0.0, 1e6, true)?;
    }
    let opts = predict::Options { ring_source_block: a.ring_strategy == RingStrategy::SourceBlock, hops: a.hops, vc_queue: a.vc_queue, flit_sharing: a.flit_sharing, body_behind: a.body_behind };
    if opts.ring_source_block && a.with_sim {
        return Err(invalid(
            "--ring-strategy source-block with --with-sim: the simulation follows the experiment file; to simulate 004_…'s second strategy set topology.strategy = \"source_block\" (the model then follows it without this flag)",
        ));
    }
    // Every point is validated, and its model inputs checked, before any work.
    // The file was read once already; its text only locates a refused field.
    let text = wormqos_config::files::read_capped(&a.experiment).unwrap_or_default();
    let mut plans = Vec::new();
    for params in grid.points() {
        let v = grid.experiment(&params).map_err(|e| invalid(e.located(&text).to_string()))?;
        let p = predict::plan_with(&v, &opts).map_err(|e| invalid(e.located(&text).to_string()))?;
        plans.push((params, v, p));
    }
    let names = model_outputs();
    let claims: Vec<(&str, Option<&[u8]>)> = names.iter().map(|n| (n.as_str(), None)).collect();
    let mut out = claim_dir(&a.out, &claims, a.force)?;
    let start = std::time::Instant::now();
    let mut pts = Vec::new();
    let mut sources: Vec<String> = Vec::new();
    let mut dmp = Vec::new();
    let mut bounds = String::new();
    for (params, v, p) in &plans {
        bounds += &throughput_rows(params, v, p);
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
        let jobs = a.jobs.map(|j| j as usize).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
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
            if let (Ok(r), Some((_, v, p))) = (&s.result, plans.iter().find(|(q, _, _)| *q == s.params)) {
                bounds += &sim_throughput_row(&s.params, v, p, r);
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
    out.begin(&names.iter().map(String::as_str).collect::<Vec<_>>())?;
    write_outputs(&combined, &pts, &mut out)?;
    class_plots(&combined, &pts, &mut out)?;
    out.write("comparison.txt", table.as_bytes())?;
    out.write("source_queue.csv", source_queue(&pts).as_bytes())?;
    out.write("latency_parts.csv", latency_parts(&pts).as_bytes())?;
    out.write("latency_components.csv", latency_components(&pts).as_bytes())?;
    if !dmp.is_empty() {
        let mut csv = String::from("source,point,class,deadline_cycles,miss_probability\n");
        for (src, pt, c, d, m) in &dmp {
            csv += &format!("{src},{pt},{c},{d},{m}\n");
            println!("deadline {d}: {pt} class {c} {src}: P{{L > D}} = {m:.4}");
        }
        out.write("dmp.csv", csv.as_bytes())?;
    }
    if !bounds.is_empty() {
        let head = "source,point,service_cycles,lambda_max_packets_per_cycle,lambda_max_packets_per_s,packets_per_s_per_direction,latency_ms,error,segmentation_rho,segmentation_wait_ms\n";
        out.write("throughput.csv", (head.to_string() + &bounds).as_bytes())?;
    }
    out.finish(|_| true)?;
    for p in pts.iter().filter(|p| p.result.is_err() && p.params[0].1.as_str() != Some("sim")) {
        eprintln!("{}: {}", label(&p.params), p.result.as_ref().err().unwrap());
    }
    eprintln!("{} points, model {:.1} ms; results in {}", plans.len(), model_secs * 1e3, a.out.display());
    anyhow::ensure!(sim_failed == 0, "{sim_failed} of {} simulated points failed", plans.len());
    Ok(())
}

fn point(source: &str, params: &[(String, toml::Value)], result: Result<Results, String>) -> sweep::Point {
    let mut p = vec![("source".to_string(), toml::Value::String(source.to_string()))];
    p.extend(params.iter().cloned());
    sweep::Point { params: p, result }
}

fn label(params: &[(String, toml::Value)]) -> String {
    params.iter().map(|(k, v)| format!("{k}={}", sweep::value_label(v))).collect::<Vec<_>>().join(" ")
}

/// Per point, source and class: network latency, source waiting time
/// (creation to header injection; 000_… Eq. 1's L̄_c and W̄_c) and their
/// sum, so that the source-queue models can be set beside the simulation
/// per class (results.csv has per-class message latency for only some
/// classes). NaN where the model's source queue is saturated.
fn source_queue(pts: &[sweep::Point]) -> String {
    let mut s = String::from("source,point,class,network_latency_cycles,source_wait_cycles,latency_cycles\n");
    for p in pts {
        if let Ok(r) = &p.result {
            for c in &r.classes {
                s += &format!("{},{},{},{},{},{}\n", sweep::value_label(&p.params[0].1), label(&p.params[1..]), c.class, c.network_latency, c.source_latency, c.latency);
            }
        }
    }
    s
}

/// Per point, source and class, the two parts of the latency with each
/// model's relative error against the simulation where both exist, and the
/// simulated part of the source wait in which the class was held at its NI
/// for credits (`ClassStats::source_credit_stall`: the network holding the
/// source back; NaN where not measured: a model, the NIC model).
fn latency_parts(pts: &[sweep::Point]) -> String {
    let mut s = String::from("source,point,class,source_wait_cycles,source_wait_error_percent,network_latency_cycles,network_latency_error_percent,credit_stall_cycles\n");
    for p in pts {
        let Ok(r) = &p.result else { continue };
        for c in &r.classes {
            let sim = sim_class_beside(pts, p, c.class);
            let (src_err, net_err) = (rel(c.source_latency, sim.map(|k| k.source_latency)), rel(c.network_latency, sim.map(|k| k.network_latency)));
            s += &format!(
                "{},{},{},{},{src_err:.1},{},{net_err:.1},{}\n",
                sweep::value_label(&p.params[0].1),
                label(&p.params[1..]),
                c.class,
                c.source_latency,
                c.network_latency,
                // "NaN" where not measured, as the CSVs write every absent value.
                c.source_credit_stall.unwrap_or(f64::NAN)
            );
        }
    }
    s
}

/// The simulated class at a model row's point (`None` for a simulated row
/// or where the simulation has no such class).
fn sim_class_beside<'a>(pts: &'a [sweep::Point], p: &sweep::Point, class: u8) -> Option<&'a wormqos_netsim::network::ClassStats> {
    if p.params[0].1.as_str() == Some("sim") {
        return None;
    }
    pts.iter()
        .find(|q| q.params[0].1.as_str() == Some("sim") && q.params[1..] == p.params[1..])
        .and_then(|q| q.result.as_ref().ok())
        .and_then(|r| r.classes.iter().find(|k| k.class == class))
}

/// Model − simulation relative to the simulation, percent; NaN without one.
fn rel(m: f64, s: Option<f64>) -> f64 {
    s.map_or(f64::NAN, |s| 100.0 * (m - s) / s)
}

/// 000_… Figs 5 and 8: per point, source and class the message latency's
/// three parts — queueing (W̄_c, creation to header injection), transfer
/// (T, the no-contention network latency: the model's P − 1 + P h̄ + M,
/// the simulation's mean over its messages' routes, `zero_load.rs`) and
/// blocking and sharing (L̄_c − T) — with each model part's relative error
/// against the simulated one. NaN where a part is not known.
fn latency_components(pts: &[sweep::Point]) -> String {
    let mut s = String::from(
        "source,point,class,queueing_cycles,transfer_cycles,blocking_sharing_cycles,queueing_error_percent,transfer_error_percent,blocking_sharing_error_percent\n",
    );
    let parts = |c: &wormqos_netsim::network::ClassStats| {
        let t = c.transfer_time.unwrap_or(f64::NAN);
        [c.source_latency, t, c.network_latency - t]
    };
    for p in pts {
        let Ok(r) = &p.result else { continue };
        for c in &r.classes {
            let own = parts(c);
            let sim = sim_class_beside(pts, p, c.class).map(parts);
            let err: Vec<String> = (0..3).map(|i| format!("{:.1}", rel(own[i], sim.map(|k| k[i])))).collect();
            s += &format!("{},{},{},{},{},{},{}\n", sweep::value_label(&p.params[0].1), label(&p.params[1..]), c.class, own[0], own[1], own[2], err.join(","));
        }
    }
    s
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
                    // A saturated simulation's mean latency is no steady-state value: no error against it.
                    let total = |k: &wormqos_netsim::network::ClassStats| match sim.and_then(sim_saturated) {
                        Some(why) => format!("- ({why})"),
                        None => rel(c.latency, k.latency),
                    };
                    let err = sv.map_or("- | -".into(), |k| format!("{} | {}", rel(c.network_latency, k.network_latency), total(k)));
                    let src = if c.source_latency.is_finite() { format!("{:.2}", c.source_latency) } else { "saturated (λL̄ ≥ 1)".into() };
                    s += &format!("{here} | {} | {} | {:.2} | {src} | {err}\n", c.class, sweep::value_label(&p.params[0].1), c.network_latency);
                }
            }
            Err(e) => s += &format!("{here} | - | {} | {e} | - | - | -\n", sweep::value_label(&p.params[0].1)),
        }
    }
    s
}

fn class_plots(grid: &sweep::Grid, pts: &[sweep::Point], out: &mut OutDir) -> anyhow::Result<()> {
    for (c, f) in CLASS_NET.iter().enumerate() {
        let s = sweep::series(grid, pts, *f);
        if s.is_empty() {
            continue;
        }
        let stem = out.path().join(format!("network_latency_class{c}"));
        let title = format!("{}: network latency of class {c}{}", grid.name, if c == 0 { " (best effort)" } else { "" });
        let files = wormqos_netsim::plot::line_plot(&stem, &title, &grid.x, "latency (cycles)", &s).map_err(|e| anyhow::anyhow!("plot {}: {e}", stem.display()))?;
        record_plots(out, files);
    }
    Ok(())
}

/// 004_… Eq. (23) per ring model at one point, in cycles and in the
/// paper's units (`predict::flit_seconds`): t̄_s, λ_max = 1/t̄_s per
/// direction, the offered rate per direction and the model's packet
/// latency T (Eq. 8) in ms; then Eq. (8)'s segmentation queue alone: its
/// utilization ρ = λ_dir t̄_s and its wait T − t̄_s in ms (M/D/1, M/G/1 for
/// the `*_mg1` rows of `model.source_queue = "mg1"`, M/M/1 for
/// `markov_mm1`), to set beside the simulated source wait. Empty for the
/// other models.
fn throughput_rows(params: &[(String, toml::Value)], v: &wormqos_netsim::Validated, p: &predict::Plan) -> String {
    let t = predict::flit_seconds(v);
    let named = p.evaluate(&[]);
    let mut s = String::new();
    for b in p.throughput_bounds() {
        // T (Eq. 8), or why there is none (a saturated VC or segmentation queue).
        // The row's source latency is T − t̄_s: Eq. (8)'s segmentation wait.
        let (lat, seg_wait, err) = match named.iter().find(|n| n.name == b.name).map(|n| &n.result) {
            Some(Ok(c)) => (c[0].network_latency + c[0].source_latency, c[0].source_latency, String::new()),
            Some(Err(e)) => (f64::NAN, f64::NAN, e.to_string()),
            None => (f64::NAN, f64::NAN, String::new()),
        };
        let ts = b.service.as_ref().map_or(f64::NAN, |ts| *ts);
        let lmax = b.lambda_max().unwrap_or(f64::NAN);
        let rho = b.offered * ts;
        s += &format!(
            "model:{},\"{}\",{ts},{lmax},{},{},{},\"{}\",{rho},{}\n",
            b.name,
            label(params),
            lmax / t,
            b.offered / t,
            lat * t * 1e3,
            err.replace('"', "'"),
            seg_wait * t * 1e3
        );
    }
    s
}

/// Why a simulated point's mean message latency is no steady-state value:
/// the network (or its sources) did not carry the load, the accepted
/// throughput plus its 95 % interval below the offered. `None` when it did.
fn sim_saturated(r: &Results) -> Option<String> {
    (r.accepted_throughput + r.ci95.accepted_throughput < r.offered_load)
        .then(|| format!("sim saturated: accepted {:.4} of {:.4} flits/node/cycle", r.accepted_throughput, r.offered_load))
}

/// The simulated counterpart of `throughput_rows`: accepted packets per
/// second per direction, the measured message latency in ms (its `error`
/// cell says "sim saturated" where the load was not carried, `sim_saturated`)
/// and, beside Eq. (8)'s segmentation wait, the measured source wait in ms.
fn sim_throughput_row(params: &[(String, toml::Value)], v: &wormqos_netsim::Validated, p: &predict::Plan, r: &Results) -> String {
    let Some(b) = p.throughput_bounds().into_iter().next() else { return String::new() };
    let t = predict::flit_seconds(v);
    let accepted = b.offered * r.accepted_throughput / v.exp.workload.load;
    let (lat, wait) = r.classes.iter().find(|c| c.class == 0).map_or((f64::NAN, f64::NAN), |c| (c.latency, c.source_latency));
    let saturated = sim_saturated(r).unwrap_or_default();
    format!("sim,\"{}\",NaN,NaN,NaN,{},{},\"{saturated}\",NaN,{}\n", label(params), accepted / t, lat * t * 1e3, wait * t * 1e3)
}

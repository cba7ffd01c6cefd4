//! Design-space sweep: simulator throughput crossed with synthesis results
//! over a parameter grid, CSV output and Pareto-front plots (SVG).

use crate::flow::{synthesize, FlowOptions, SynthReport};
use crate::scripts::{Family, Hierarchy};
use std::path::PathBuf;
use wormqos_config::RouterConfig;
use wormqos_sim::Router;
use wormqos_testbench::stimulus::{Stimulus, TrafficParams};

/// Saturation throughput of the golden model: accepted flits per port per
/// cycle with every source offering a flit every cycle, uniform random
/// destinations, 1..=8-flit messages and sinks that never stall, so the
/// router's own allocation and buffering are the only limit.
///
/// The sources use a returned credit in the cycle it is on `in_credit_o`.
/// With the single-cycle switch stage that is the cycle after its slot was
/// freed; with `switch_stage = "registered"` or `"split"` the credit leaves in the cycle
/// the flit crosses (§6), whose slot is free only at its end, so the sources
/// spend it one cycle later (as a neighbour router, which counts it at the
/// end of that cycle, does): both stages then refill a freed slot in the
/// same cycle. [`Stimulus`] applies that one-cycle delay itself for those
/// stages (with each credit's lane), so the credits are handed to it as the
/// router returns them.
pub fn saturation_throughput(cfg: &RouterConfig, cycles: u64, seed: u64) -> anyhow::Result<f64> {
    let mut model = Router::new(cfg);
    let mut stim = Stimulus::new(cfg, seed, saturation_traffic());
    // Warm-up: the first cycles fill empty buffers and would flatter the figure.
    let warm = cycles / 10;
    let mut received_at_warm = 0;
    for c in 0..cycles {
        if c == warm {
            received_at_warm = stim.stats().flits_received;
        }
        let inp = stim.next_inputs(model.outputs()).map_err(|e| anyhow::anyhow!("{}: {e}", cfg.name()))?;
        model.step(inp);
    }
    // The sources respect credits, so a drop would make the figure meaningless.
    let dropped = model.stats().flits_dropped();
    anyhow::ensure!(dropped == 0, "{}: the router dropped {dropped} flits of credit-respecting sources", cfg.name());
    let got = stim.stats().flits_received - received_at_warm;
    Ok(got as f64 / ((cycles - warm) as f64 * cfg.ports() as f64))
}

/// The traffic of [`saturation_throughput`].
pub fn saturation_traffic() -> TrafficParams {
    TrafficParams {
        injection_rate: 1.0,
        max_message_flits: 8,
        sink_stall_prob: 0.0,
        stall_burst_prob: 0.0,
        bad_dest_prob: 0.0,
        ..TrafficParams::default()
    }
}

/// The parameter grid: every combination of the listed values.
#[derive(Clone, Debug)]
pub struct Grid {
    pub base: RouterConfig,
    pub vcs: Vec<u32>,
    pub depth: Vec<u32>,
    pub flit_width: Vec<u32>,
    pub crossbar: Vec<String>,
    pub scheduler: Vec<String>,
    /// Router modes; "none" keeps the base configuration's (unpartitioned) mode.
    pub mode: Vec<String>,
    /// Switch allocators of the multiplexed crossbar (`single_pass`,
    /// `iterative`); the full crossbar has none and spans one point.
    pub switch_allocator: Vec<String>,
    /// Rounds of each `iterative` point (1..=4).
    pub switch_iterations: Vec<u32>,
    /// Switch stages of the multiplexed crossbar points (`single_cycle`,
    /// `registered`); the full crossbar points have none.
    pub switch_stage: Vec<String>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Point {
    pub name: String,
    pub vcs: u32,
    pub depth: u32,
    pub flit_width: u32,
    pub crossbar: String,
    pub scheduler: String,
    pub mode: String,
    /// `single_pass`, `iterativeK` (K rounds), or `none` (full crossbar).
    #[serde(default)]
    pub switch_allocator: String,
    /// `single_cycle`, `registered`, or `none` (full crossbar).
    #[serde(default)]
    pub switch_stage: String,
    pub throughput: Option<f64>,
    pub report: Option<SynthReport>,
    pub error: Option<String>,
}

impl Point {
    pub fn luts(&self) -> Option<f64> {
        self.report.as_ref()?.xilinx.as_ref().map(|x| (x.resources.luts + x.resources.lutram_luts) as f64)
    }
    pub fn ffs(&self) -> Option<u64> {
        self.report.as_ref()?.xilinx.as_ref().map(|x| x.resources.flip_flops)
    }
    /// Fmax on ECP5 if placed there, else on iCE40.
    pub fn fmax(&self) -> Option<(f64, &'static str)> {
        let r = self.report.as_ref()?;
        if let Some(f) = r.ecp5.as_ref().and_then(|p| p.fmax_mhz) {
            return Some((f, "ecp5"));
        }
        r.ice40.as_ref().and_then(|p| p.fmax_mhz).map(|f| (f, "ice40"))
    }
}

impl Grid {
    /// The grid's configurations (invalid combinations come back as errors).
    pub fn configs(&self) -> Vec<(Point, Result<RouterConfig, String>)> {
        let mut out = vec![];
        for &v in &self.vcs {
            for &d in &self.depth {
                for &w in &self.flit_width {
                    for x in &self.crossbar {
                        for s in &self.scheduler {
                            for m in &self.mode {
                                for (a, stage) in self.allocators(x) {
                                    let name = point_name(self.base.name(), v, d, w, x, s, m, &a, &stage);
                                    let p = Point {
                                        name: name.clone(),
                                        vcs: v,
                                        depth: d,
                                        flit_width: w,
                                        crossbar: x.clone(),
                                        scheduler: s.clone(),
                                        mode: m.clone(),
                                        switch_allocator: a.label(),
                                        switch_stage: stage.clone().unwrap_or_else(|| "none".into()),
                                        throughput: None,
                                        report: None,
                                        error: None,
                                    };
                                    out.push((p, self.make(&name, v, d, w, x, s, m, a, stage.as_deref())));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The switch allocators and switch stages a point with crossbar `x`
    /// spans: none for the full crossbar, else `single_pass` once and
    /// `iterative` once per round count, each with every switch stage.
    fn allocators(&self, x: &str) -> Vec<(Allocator, Option<String>)> {
        if x == "full" {
            return vec![(Allocator::None, None)];
        }
        self.switch_allocator
            .iter()
            .flat_map(|a| match a.as_str() {
                "iterative" => self.switch_iterations.iter().map(|&k| Allocator::Iterative(k)).collect(),
                other => vec![Allocator::Named(other.to_string())],
            })
            .flat_map(|a| self.switch_stage.iter().map(move |st| (a.clone(), Some(st.clone()))))
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn make(&self, name: &str, v: u32, d: u32, w: u32, x: &str, s: &str, m: &str, a: Allocator, stage: Option<&str>) -> Result<RouterConfig, String> {
        let mut t: toml::Table = toml::from_str(&self.base.to_toml()).map_err(|e| e.to_string())?;
        t.insert("name".into(), toml::Value::String(name.to_string()));
        let r = t.get_mut("router").and_then(|r| r.as_table_mut()).ok_or("base configuration has no [router]")?;
        r.insert("vcs".into(), toml::Value::Integer(v as i64));
        r.insert("input_buffer_depth".into(), toml::Value::Integer(d as i64));
        r.insert("output_buffer_depth".into(), toml::Value::Integer(d as i64));
        r.remove("downstream_buffer_depth");
        r.insert("flit_width".into(), toml::Value::Integer(w as i64));
        r.insert("crossbar".into(), toml::Value::String(x.to_string()));
        r.insert("scheduler".into(), toml::Value::String(s.to_string()));
        r.remove("switch_allocator");
        r.remove("switch_iterations");
        r.remove("switch_stage");
        if let Some(stage) = stage {
            r.insert("switch_stage".into(), toml::Value::String(stage.to_string()));
        }
        match a {
            Allocator::None => {}
            Allocator::Named(kind) => {
                r.insert("switch_allocator".into(), toml::Value::String(kind));
            }
            Allocator::Iterative(k) => {
                r.insert("switch_allocator".into(), toml::Value::String("iterative".into()));
                r.insert("switch_iterations".into(), toml::Value::Integer(k as i64));
            }
        }
        if m != "none" {
            r.insert("mode".into(), toml::Value::String(m.to_string()));
            r.remove("vc_classes");
            if m != "preemptive" && !r.contains_key("vc_ratio") {
                // One VC per class at least: an even split over the classes.
                let classes = r.get("traffic_classes").and_then(|c| c.as_integer()).unwrap_or(3);
                r.insert("vc_ratio".into(), toml::Value::Array((0..classes).map(|_| toml::Value::Integer(1)).collect()));
            }
        }
        // The text is made here, not read from a file: an error names the
        // field and value (the caller names the base file and the grid
        // value), not a line of this text.
        RouterConfig::from_toml_str(&toml::to_string(&t).map_err(|e| e.to_string())?, name).map_err(|e| match e {
            wormqos_config::ConfigError::In { source, .. } => source.to_string(),
            wormqos_config::ConfigError::Parse { message, .. } => message,
            other => other.to_string(),
        })
    }
}

/// One value of the switch-allocator axis.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Allocator {
    /// The full crossbar: no switch allocator.
    None,
    /// `switch_allocator = "<name>"` with its default rounds (`single_pass`).
    Named(String),
    /// `switch_allocator = "iterative"` with K rounds.
    Iterative(u32),
}

impl Allocator {
    /// The CSV column.
    fn label(&self) -> String {
        match self {
            Allocator::None => "none".into(),
            Allocator::Named(n) => n.clone(),
            Allocator::Iterative(k) => format!("iterative{k}"),
        }
    }
    /// The point name's suffix: none for the single pass, so that the
    /// names of sweeps without the axis stay as they were.
    fn suffix(&self) -> String {
        match self {
            Allocator::Iterative(k) => format!("_it{k}"),
            Allocator::Named(n) if n != "single_pass" => format!("_{n}"),
            _ => String::new(),
        }
    }
}

/// The longest name a configuration may have (`name` prefixes Verilog
/// module names; config validation holds it to this).
const MAX_NAME: usize = 48;

/// A grid point's name: `<base>_v<V>_d<D>_w<W>_<xbar>_<scheduler>_<mode>`
/// and the allocator's and stage's suffixes. A point whose name would be
/// longer than a configuration's name may be (a long base name, or
/// `virtualclock_preemptive` with a stage) gets the compact form instead:
/// scheduler and mode abbreviated (`vc`, `rr`, `ff`; `tr`, `np`, `p`) and the
/// base name cut to fit. Names that fit stay as they were, and a compact
/// name cannot equal a full one (the abbreviations are no scheduler's name),
/// so the grid's names stay distinct.
#[allow(clippy::too_many_arguments)]
fn point_name(base: &str, v: u32, d: u32, w: u32, x: &str, s: &str, m: &str, a: &Allocator, stage: &Option<String>) -> String {
    let xbar = &x[..3.min(x.len())];
    let tail = format!("{}{}", a.suffix(), stage_suffix(stage));
    let full = format!("{base}_v{v}_d{d}_w{w}_{xbar}_{s}_{m}{tail}");
    if full.len() <= MAX_NAME {
        return full;
    }
    let sched = match s {
        "virtualclock" => "vc",
        "round_robin" => "rr",
        "fifo" => "ff",
        other => other,
    };
    let mode = match m {
        "traditional" => "tr",
        "non_preemptive" => "np",
        "preemptive" => "p",
        other => other,
    };
    let suffix = format!("_v{v}_d{d}_w{w}_{xbar}_{sched}_{mode}{tail}");
    // The base keeps at least its first character (a letter), so the name
    // still starts as a configuration name must; config validation reports
    // a name that is still too long.
    let keep = MAX_NAME.saturating_sub(suffix.len()).max(1).min(base.len());
    format!("{}{suffix}", &base[..keep])
}

/// The point name's suffix of a switch stage: none for `single_cycle` (and
/// the full crossbar), so that the names of sweeps without the axis stay as
/// they were.
fn stage_suffix(stage: &Option<String>) -> String {
    match stage.as_deref() {
        None | Some("single_cycle") => String::new(),
        Some("registered") => "_reg".into(),
        Some(other) => format!("_{other}"),
    }
}

pub struct SweepOptions {
    pub out_dir: PathBuf,
    pub cache_dir: PathBuf,
    pub families: Vec<Family>,
    pub sim_cycles: u64,
    pub xilinx_hierarchy: Hierarchy,
    /// Points evaluated at once (Yosys and nextpnr are single-threaded);
    /// at least 1.
    pub jobs: usize,
    /// Replace files in the work directories that wormqos did not write.
    pub force: bool,
}

impl SweepOptions {
    /// The directory a point's RTL, scripts and tool outputs go to.
    pub fn work_dir(&self, point: &str) -> PathBuf {
        self.out_dir.join("work").join(point)
    }
}

/// Runs the sweep, `opts.jobs` points at a time; progress goes to stderr.
/// The points come back in grid order whatever order they finish in.
pub fn run(grid: &Grid, opts: &SweepOptions) -> anyhow::Result<Vec<Point>> {
    let all: Vec<usize> = (0..grid.configs().len()).collect();
    Ok(run_indices(grid, opts, &all)?.into_iter().map(|(_, p)| p).collect())
}

/// Runs the points with the given indices (grid order) and returns them
/// with their indices, in the order given (a shard of the grid).
pub fn run_indices(grid: &Grid, opts: &SweepOptions, indices: &[usize]) -> anyhow::Result<Vec<(usize, Point)>> {
    anyhow::ensure!(opts.jobs >= 1, "jobs must be at least 1");
    let mut configs: Vec<Option<(Point, Result<RouterConfig, String>)>> = grid.configs().into_iter().map(Some).collect();
    let mine: Vec<(usize, (Point, Result<RouterConfig, String>))> =
        indices.iter().map(|&i| (i, configs[i].take().expect("each index once"))).collect();
    let n = configs.len();
    let queue = std::sync::Mutex::new(mine.into_iter().enumerate());
    let done = std::sync::Mutex::new(Vec::with_capacity(indices.len()));
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.min(indices.len().max(1)) {
            s.spawn(|| loop {
                let Some((order, (k, (p, cfg)))) = queue.lock().unwrap().next() else { break };
                let p = evaluate(p, cfg, opts, k, n);
                done.lock().unwrap().push((order, k, p));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(order, _, _)| *order);
    Ok(done.into_iter().map(|(_, k, p)| (k, p)).collect())
}

/// Simulates and synthesizes one point; failures become the point's error.
fn evaluate(mut p: Point, cfg: Result<RouterConfig, String>, opts: &SweepOptions, k: usize, n: usize) -> Point {
    let cfg = match cfg {
        Err(e) => {
            p.error = Some(e);
            return p;
        }
        Ok(c) => c,
    };
    eprintln!("[{}/{n}] {}", k + 1, p.name);
    match saturation_throughput(&cfg, opts.sim_cycles, 1) {
        Ok(t) => p.throughput = Some(t),
        Err(e) => p.error = Some(format!("simulation: {e:#}")),
    }
    let fo = FlowOptions {
        work_dir: opts.work_dir(&p.name),
        families: opts.families.clone(),
        cache_dir: Some(opts.cache_dir.clone()),
        xilinx_hierarchy: opts.xilinx_hierarchy,
        force: opts.force,
    };
    match crate::Design::router(&cfg).and_then(|d| synthesize(&d, &fo)) {
        Ok(r) => p.report = Some(r),
        Err(e) => p.error = Some(format!("synthesis: {e:#}")),
    }
    p
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

pub fn csv(points: &[Point]) -> String {
    let mut s = String::from("name,vcs,buffer_depth,flit_width,crossbar,scheduler,mode,switch_allocator,switch_stage,saturation_throughput,xilinx_luts,xilinx_lutram_luts,xilinx_ffs,xilinx_bram36,fmax_mhz,fmax_family,pareto_luts,pareto_fmax,cached,error\n");
    let front_l = pareto(points, |p| Some((-p.luts()?, p.throughput?)));
    let front_f = pareto(points, |p| Some((p.fmax()?.0, p.throughput?)));
    for (i, p) in points.iter().enumerate() {
        let x = p.report.as_ref().and_then(|r| r.xilinx.as_ref()).map(|x| &x.resources);
        s += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},\"{}\"\n",
            p.name,
            p.vcs,
            p.depth,
            p.flit_width,
            p.crossbar,
            p.scheduler,
            p.mode,
            p.switch_allocator,
            p.switch_stage,
            opt(p.throughput.map(|t| format!("{t:.4}"))),
            opt(x.map(|x| x.luts)),
            opt(x.map(|x| x.lutram_luts)),
            opt(x.map(|x| x.flip_flops)),
            opt(x.map(|x| x.bram36)),
            opt(p.fmax().map(|f| format!("{:.1}", f.0))),
            opt(p.fmax().map(|f| f.1)),
            front_l.contains(&i),
            front_f.contains(&i),
            p.report.as_ref().map(|r| r.from_cache).unwrap_or(false),
            p.error.clone().unwrap_or_default().replace('"', "'").replace('\n', " ")
        );
    }
    s
}

/// Indices of the points not dominated in both coordinates (larger is better
/// in both), sorted by the first coordinate.
pub fn pareto(points: &[Point], key: impl Fn(&Point) -> Option<(f64, f64)>) -> Vec<usize> {
    let v: Vec<(usize, (f64, f64))> = points.iter().enumerate().filter_map(|(i, p)| key(p).map(|k| (i, k))).collect();
    let mut front: Vec<usize> = v
        .iter()
        .filter(|(_, a)| !v.iter().any(|(_, b)| b.0 >= a.0 && b.1 >= a.1 && (b.0 > a.0 || b.1 > a.1)))
        .map(|(i, _)| *i)
        .collect();
    front.sort_by(|&a, &b| key(&points[a]).unwrap().0.total_cmp(&key(&points[b]).unwrap().0));
    front
}

/// A scatter plot of (x, y) with the Pareto front drawn as a line.
pub fn svg(points: &[Point], title: &str, xlabel: &str, ylabel: &str, xy: impl Fn(&Point) -> Option<(f64, f64)>, x_smaller_better: bool) -> String {
    let (w, h, l, b, r, t) = (760.0, 480.0, 70.0, 50.0, 20.0, 40.0);
    let pts: Vec<(usize, f64, f64)> = points.iter().enumerate().filter_map(|(i, p)| xy(p).map(|(x, y)| (i, x, y))).collect();
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">{title}</text>\n", w / 2.0);
    if pts.is_empty() {
        s += "<text x=\"50\" y=\"100\">no points with both values</text>\n</svg>\n";
        return s;
    }
    let (x0, x1) = pts.iter().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let (y0, y1) = (0.0, pts.iter().fold(0.0f64, |a, p| a.max(p.2)) * 1.1);
    let (x0, x1) = if x1 > x0 { (x0 - 0.05 * (x1 - x0), x1 + 0.05 * (x1 - x0)) } else { (x0 * 0.9, x0 * 1.1 + 1.0) };
    let y1 = if y1 > 0.0 { y1 } else { 1.0 };
    let px = |x: f64| l + (x - x0) / (x1 - x0) * (w - l - r);
    let py = |y: f64| h - b - (y - y0) / (y1 - y0) * (h - b - t);
    s += &format!("<line x1=\"{l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{}\" stroke=\"black\"/>\n", h - b, w - r, h - b, h - b);
    for k in 0..=4 {
        let xv = x0 + (x1 - x0) * k as f64 / 4.0;
        let yv = y0 + (y1 - y0) * k as f64 / 4.0;
        s += &format!("<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{:.0}</text>\n", px(xv), h - b + 15.0, xv);
        s += &format!("<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{:.2}</text>\n", l - 5.0, py(yv) + 4.0, yv);
    }
    s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{xlabel}</text>\n", (l + w - r) / 2.0, h - 12.0);
    s += &format!("<text x=\"15\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 15 {})\">{ylabel}</text>\n", (t + h - b) / 2.0, (t + h - b) / 2.0);
    let front = pareto(points, |p| xy(p).map(|(x, y)| (if x_smaller_better { -x } else { x }, y)));
    let mut line: Vec<(f64, f64)> = front.iter().map(|&i| xy(&points[i]).unwrap()).collect();
    line.sort_by(|a, b| a.0.total_cmp(&b.0));
    let poly: Vec<String> = line.iter().map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y))).collect();
    s += &format!("<polyline points=\"{}\" fill=\"none\" stroke=\"#c33\" stroke-width=\"1.5\"/>\n", poly.join(" "));
    for (i, x, y) in &pts {
        let on = front.contains(i);
        s += &format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{}\" fill=\"{}\"><title>{}: ({x:.1}, {y:.3})</title></circle>\n",
            px(*x),
            py(*y),
            if on { 4 } else { 3 },
            if on { "#c33" } else { "#36c" },
            points[*i].name
        );
        if on {
            s += &format!("<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\">{}</text>\n", px(*x) + 5.0, py(*y) - 5.0, points[*i].name);
        }
    }
    s += "</svg>\n";
    s
}

/// The files a sweep writes into its output directory.
pub const OUTPUTS: [&str; 3] = ["sweep.csv", "pareto_luts.svg", "pareto_fmax.svg"];

/// The contents of [`OUTPUTS`] (the caller writes them, see `wormqos dse`).
pub fn outputs(points: &[Point]) -> [(&'static str, String); 3] {
    [
        (OUTPUTS[0], csv(points)),
        (
            OUTPUTS[1],
            svg(points, "Saturation throughput vs 7-series LUTs (Pareto front in red)", "LUTs (logic + LUTRAM), yosys synth_xilinx", "accepted flits/port/cycle", |p| Some((p.luts()?, p.throughput?)), true),
        ),
        (
            OUTPUTS[2],
            svg(points, "Saturation throughput vs Fmax (Pareto front in red)", "Fmax (MHz), nextpnr", "accepted flits/port/cycle", |p| Some((p.fmax()?.0, p.throughput?)), false),
        ),
    ]
}

#[cfg(test)]
mod point_name_tests {
    use super::*;

    fn named(s: &str) -> Allocator {
        Allocator::Named(s.into())
    }

    #[test]
    fn names_that_fit_stay_as_they_were() {
        // 5 + "_v2" 3 + "_d4" 3 + "_w32" 4 + "_mul" 4 + "_virtualclock" 13
        // + "_preemptive" 11 + "_reg" 4 = 47 characters: the full form.
        let stage = Some("registered".to_string());
        let n = point_name("mesh5", 2, 4, 32, "multiplexed", "virtualclock", "preemptive", &named("single_pass"), &stage);
        assert_eq!(n, "mesh5_v2_d4_w32_mul_virtualclock_preemptive_reg");
    }

    #[test]
    fn a_name_over_48_characters_takes_the_compact_form() {
        // "_split" makes the same point 49 characters: scheduler and mode
        // abbreviated, the base kept whole.
        let stage = Some("split".to_string());
        let n = point_name("mesh5", 2, 4, 32, "multiplexed", "virtualclock", "preemptive", &named("single_pass"), &stage);
        assert_eq!(n, "mesh5_v2_d4_w32_mul_vc_p_split");
    }

    #[test]
    fn a_long_base_name_is_cut_to_fit() {
        // Suffix "_v2_d4_w32_mul_rr_tr" is 20 characters, so 28 of the
        // 40-character base remain: 48 in all.
        let base = "a".repeat(40);
        let n = point_name(&base, 2, 4, 32, "multiplexed", "round_robin", "traditional", &named("single_pass"), &None);
        assert_eq!(n, format!("{}_v2_d4_w32_mul_rr_tr", "a".repeat(28)));
        assert_eq!(n.len(), 48);
    }
}

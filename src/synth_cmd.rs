//! `wormqos synth` (a router, a NIC or a whole network through the open FPGA
//! tools) and
//! `wormqos dse` (design-space sweep: simulator throughput x synthesis).

use crate::validate::{claim_dir, invalid, load_rtl_config, non_empty};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use wormqos_config::{Crossbar, RouterMode, Scheduler, SwitchAllocatorKind, SwitchStageKind};
use wormqos_synth::scripts::{Family, Hierarchy};
use wormqos_config::shard::{is_shard_file, ShardFile, ShardSpec};
use wormqos_synth::{sweep, Design, FlowOptions};

fn families(list: &str) -> Result<Vec<Family>, String> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            Family::all()
                .into_iter()
                .find(|f| f.tag() == s.trim())
                .ok_or_else(|| format!("unknown family `{s}`: allowed xilinx, ice40, ecp5"))
        })
        .collect()
}

#[derive(Args)]
pub struct SynthArgs {
    /// Router configuration; `--unit` picks its router or its NIC.
    #[arg(long, required_unless_present = "experiment", conflicts_with = "experiment")]
    config: Option<PathBuf>,
    /// A network simulator experiment: synthesize its whole network top
    /// (as `generate --experiment` writes it).
    #[arg(long)]
    experiment: Option<PathBuf>,
    /// Replaced by the experiment file's `topology.link_latency`; refused (exit 2).
    #[arg(long, hide = true, requires = "experiment")]
    link_latency: Option<u32>,
    /// With --config: the configuration's router, its NIC, or the system top
    /// (router + one NIC per port); the last two need a `[nic]` section (docs/nic.md).
    #[arg(long, value_enum, default_value_t = UnitArg::Router, conflicts_with = "experiment")]
    unit: UnitArg,
    /// Directory for the RTL, constraints, scripts, tool logs and the reports.
    #[arg(long)]
    out: PathBuf,
    /// Comma-separated subset of xilinx, ice40, ecp5.
    #[arg(long, default_value = "xilinx,ice40,ecp5", value_parser = families)]
    families: std::vec::Vec<Family>,
    /// Write the RTL, XDC, Vivado TCL, Yosys scripts and FuseSoC core; run no tool.
    #[arg(long)]
    emit_only: bool,
    /// Ignore cached results (target/wormqos-synth-cache) and run the tools.
    #[arg(long)]
    no_cache: bool,
    /// 7-series figures without flattening: each module mapped once (several
    /// times faster on large routers; LUT counts ~15 % below flattened).
    #[arg(long)]
    hierarchical: bool,
    /// Overwrite files in --out that wormqos did not write.
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum UnitArg {
    Router,
    Nic,
    /// The router with one NIC per port (docs/nic.md §16).
    System,
}

/// The design `synth` was asked for; bad input (a configuration without
/// `[nic]` for `--unit nic`, a bad experiment) is reported as such (exit 2).
fn design(a: &SynthArgs) -> anyhow::Result<Design> {
    if let Some(e) = &a.experiment {
        return crate::network_cmd::synth_design(e, a.link_latency);
    }
    let path = a.config.as_ref().expect("clap requires --config without --experiment");
    let cfg = load_rtl_config(path)?;
    match a.unit {
        UnitArg::Router => Design::router(&cfg),
        UnitArg::Nic | UnitArg::System if cfg.nic().is_none() => {
            Err(invalid(format!("{}: --unit {}: the configuration has no [nic] section (docs/nic.md)", path.display(), if a.unit == UnitArg::Nic { "nic" } else { "system" })))
        }
        UnitArg::Nic => Design::nic(&cfg),
        UnitArg::System => Design::system(&cfg),
    }
}

/// Environment variable naming the synthesis cache directory.
pub const SYNTH_CACHE_ENV: &str = "WORMQOS_SYNTH_CACHE";

/// The synthesis cache: `$WORMQOS_SYNTH_CACHE`, else
/// `target/wormqos-synth-cache` under the current directory.
pub fn cache_dir() -> PathBuf {
    match std::env::var_os(SYNTH_CACHE_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from("target/wormqos-synth-cache"),
    }
}

const REPORTS: [&str; 2] = ["synth_report.json", "synth_report.md"];

pub fn synth(a: SynthArgs) -> anyhow::Result<()> {
    non_empty("--families", &a.families)?;
    let design = design(&a)?;
    let extra = wormqos_synth::scripts::emit(&design)?;
    let all: Vec<_> = design.rtl.iter().chain(&extra).cloned().collect();
    let mut claims: Vec<(&str, Option<&[u8]>)> = all.iter().map(|f| (f.file_name.as_str(), Some(f.text.as_bytes()))).collect();
    let hierarchy = if a.hierarchical { Hierarchy::Keep } else { Hierarchy::Flatten };
    let tool_outputs = wormqos_synth::flow::tool_outputs(&design.top, &a.families, hierarchy);
    if !a.emit_only {
        claims.extend(REPORTS.iter().map(|r| (*r, None)));
        claims.extend(tool_outputs.iter().map(|n| (n.as_str(), None)));
    }
    let mut out = claim_dir(&a.out, &claims, a.force)?;
    // One call: write_files removes the `.v` files of its earlier runs that it was not given.
    wormqos_hdl::write_files_forced(&a.out, &all, a.force).with_context(|| format!("writing {}", a.out.display()))?;
    if a.emit_only {
        for f in &all {
            println!("{}", a.out.join(&f.file_name).display());
        }
        return Ok(());
    }
    let opts = FlowOptions {
        work_dir: a.out.clone(),
        families: a.families.clone(),
        cache_dir: (!a.no_cache).then(cache_dir),
        xilinx_hierarchy: hierarchy,
        force: a.force,
    };
    let rep = wormqos_synth::synthesize(&design, &opts)?;
    out.begin(&REPORTS)?;
    let j = out.write(REPORTS[0], serde_json::to_string_pretty(&rep)?.as_bytes())?;
    let m = out.write(REPORTS[1], rep.markdown().as_bytes())?;
    out.finish(|_| false)?;
    print!("{}", rep.markdown());
    println!("\nwrote {} and {}{}", j.display(), m.display(), if rep.from_cache { " (from cache)" } else { "" });
    Ok(())
}

fn list_u32(s: &str) -> Result<Vec<u32>, String> {
    s.split(',').map(|x| x.trim().parse::<u32>().map_err(|e| format!("`{x}`: {e}"))).collect()
}

fn list_str(s: &str) -> Result<Vec<String>, String> {
    Ok(s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect())
}

#[derive(Args)]
pub struct DseArgs {
    /// Base configuration; the grid overrides the listed fields.
    #[arg(long)]
    config: PathBuf,
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value = "2,4", value_parser = list_u32)]
    vcs: std::vec::Vec<u32>,
    /// Input and output buffer depth.
    #[arg(long, default_value = "4,8", value_parser = list_u32)]
    depth: std::vec::Vec<u32>,
    /// Flit widths [default: the base configuration's].
    #[arg(long, value_parser = list_u32)]
    flit_width: Option<std::vec::Vec<u32>>,
    #[arg(long, default_value = "multiplexed,full", value_parser = list_str)]
    crossbar: std::vec::Vec<String>,
    #[arg(long, default_value = "fifo,round_robin", value_parser = list_str)]
    scheduler: std::vec::Vec<String>,
    /// Router modes; `none` = the unpartitioned router.
    #[arg(long, default_value = "none", value_parser = list_str)]
    mode: std::vec::Vec<String>,
    /// Switch allocators of the multiplexed crossbar points (`single_pass`,
    /// `iterative`); the full crossbar points have none.
    #[arg(long, default_value = "single_pass", value_parser = list_str)]
    switch_allocator: std::vec::Vec<String>,
    /// Rounds of the `iterative` allocator, one point per value (1..=4).
    #[arg(long, default_value = "3", value_parser = list_u32)]
    switch_iterations: std::vec::Vec<u32>,
    /// Switch stages of the multiplexed crossbar points (`single_cycle`,
    /// `registered`), crossed with every allocator; the full crossbar
    /// points have none.
    #[arg(long, default_value = "single_cycle", value_parser = list_str)]
    switch_stage: std::vec::Vec<String>,
    #[arg(long, default_value = "xilinx,ecp5", value_parser = families)]
    families: std::vec::Vec<Family>,
    /// Cycles of golden-model simulation per point for the saturation throughput.
    #[arg(long, default_value_t = 20_000)]
    sim_cycles: u64,
    /// 7-series figures without flattening (see `synth --hierarchical`).
    #[arg(long)]
    hierarchical: bool,
    /// Points evaluated in parallel [default: the number of CPUs].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Overwrite files in --out that wormqos did not write.
    #[arg(long)]
    force: bool,
    /// Run only shard I of N (the points whose index is I mod N, from 0):
    /// their work directories as usual, and `shard-I-of-N.msgpack` instead
    /// of the CSV and plots; `wormqos merge` combines the N shard files.
    #[arg(long, value_name = "I/N")]
    shard: Option<ShardSpec>,
}

/// The `kind` of a `dse` shard file.
pub const DSE_SHARD_KIND: &str = "dse";

/// Largest `dse --sim-cycles`.
const MAX_SIM_CYCLES: u64 = 100_000_000;
/// Largest DSE grid (each point is a synthesis run).
const MAX_DSE_POINTS: usize = 4096;

/// A flag value that must be one of a configuration enum's names.
fn named<T: serde::de::DeserializeOwned>(flag: &str, field: &str, v: &str) -> anyhow::Result<()> {
    match toml::Value::String(v.to_string()).try_into::<T>() {
        Ok(_) => Ok(()),
        Err(e) => Err(invalid(format!("{flag} {v}: {field} = \"{v}\": {}", e.to_string().trim()))),
    }
}

/// Which grid value made a point invalid: the flag whose value became the
/// field the configuration rejected, else every value of the point (the
/// field then comes from the base configuration).
fn grid_source(p: &sweep::Point, error: &str) -> String {
    let by_flag = [
        ("router.vcs", format!("--vcs {}", p.vcs)),
        ("router.input_buffer_depth", format!("--depth {}", p.depth)),
        ("router.output_buffer_depth", format!("--depth {}", p.depth)),
        ("router.flit_width", format!("--flit-width {}", p.flit_width)),
        ("router.crossbar", format!("--crossbar {}", p.crossbar)),
        ("router.scheduler", format!("--scheduler {}", p.scheduler)),
        ("router.mode", format!("--mode {}", p.mode)),
        ("router.vc_ratio", format!("--mode {}", p.mode)),
        ("router.switch_allocator", format!("--switch-allocator {}", p.switch_allocator)),
        ("router.switch_iterations", format!("--switch-allocator {}", p.switch_allocator)),
        ("router.switch_stage", format!("--switch-stage {}", p.switch_stage)),
    ];
    match by_flag.iter().find(|(field, _)| error.contains(&format!("`{field}`"))) {
        Some((_, flag)) => format!("grid value {flag} (point {})", p.name),
        None => format!(
            "grid point {} (--vcs {} --depth {} --flit-width {} --crossbar {} --scheduler {} --mode {} --switch-allocator {} --switch-stage {}) with the base configuration's other fields",
            p.name, p.vcs, p.depth, p.flit_width, p.crossbar, p.scheduler, p.mode, p.switch_allocator, p.switch_stage
        ),
    }
}

pub fn dse(a: DseArgs) -> anyhow::Result<()> {
    let base = load_rtl_config(&a.config)?;
    let flit_width = a.flit_width.unwrap_or_else(|| vec![base.flit_width()]);
    for (flag, n) in [("--vcs", a.vcs.len()), ("--depth", a.depth.len()), ("--flit-width", flit_width.len())] {
        non_empty(flag, &vec![(); n])?;
    }
    for (flag, v) in [("--crossbar", &a.crossbar), ("--scheduler", &a.scheduler), ("--mode", &a.mode), ("--switch-allocator", &a.switch_allocator), ("--switch-stage", &a.switch_stage)] {
        non_empty(flag, v)?;
    }
    non_empty("--switch-iterations", &a.switch_iterations)?;
    non_empty("--families", &a.families)?;
    // Named values are checked here, so that an unknown one is reported
    // against its flag rather than as a parse error of a generated text.
    for v in &a.crossbar {
        named::<Crossbar>("--crossbar", "router.crossbar", v)?;
    }
    for v in &a.scheduler {
        named::<Scheduler>("--scheduler", "router.scheduler", v)?;
    }
    for v in a.mode.iter().filter(|m| *m != "none") {
        named::<RouterMode>("--mode", "router.mode", v)?;
    }
    for v in &a.switch_allocator {
        named::<SwitchAllocatorKind>("--switch-allocator", "router.switch_allocator", v)?;
        if v == SwitchAllocatorKind::MaximumMatching.as_str() {
            return Err(invalid(format!(
                "--switch-allocator {v}: router.switch_allocator = \"{v}\": {}",
                crate::validate::MAXIMUM_MATCHING_IS_MODEL_ONLY
            )));
        }
    }
    for v in &a.switch_stage {
        named::<SwitchStageKind>("--switch-stage", "router.switch_stage", v)?;
    }
    let (lo, hi) = wormqos_config::SWITCH_ITERATIONS_RANGE;
    for &k in &a.switch_iterations {
        crate::validate::int_in("--switch-iterations", k as u64, lo as u64, hi as u64)?;
    }
    // The saturation throughput skips a tenth as warm-up and measures the rest.
    crate::validate::int_in("--sim-cycles", a.sim_cycles, 100, MAX_SIM_CYCLES)?;
    let grid = sweep::Grid {
        base,
        vcs: a.vcs,
        depth: a.depth,
        flit_width,
        crossbar: a.crossbar,
        scheduler: a.scheduler,
        mode: a.mode,
        switch_allocator: a.switch_allocator,
        switch_iterations: a.switch_iterations,
        switch_stage: a.switch_stage,
    };
    let configs = grid.configs();
    if configs.len() > MAX_DSE_POINTS {
        return Err(invalid(format!("the grid has {} points: allowed range 1..={MAX_DSE_POINTS}", configs.len())));
    }
    for (p, c) in &configs {
        if let Err(e) = c {
            return Err(invalid(format!("{}: {}: {e}", a.config.display(), grid_source(p, e))));
        }
    }
    let total = configs.len();
    let indices: Vec<usize> = match a.shard {
        Some(spec) => spec.indices(total),
        None => (0..total).collect(),
    };
    // Everything that decides the points' results, for the shard file's
    // fingerprint: the base configuration and every grid option.
    let description = format!(
        "{}\nvcs {:?} depth {:?} flit_width {:?} crossbar {:?} scheduler {:?} mode {:?} switch_allocator {:?} switch_iterations {:?} switch_stage {:?} families {:?} sim_cycles {} hierarchical {}",
        grid.base.to_toml(),
        grid.vcs,
        grid.depth,
        grid.flit_width,
        grid.crossbar,
        grid.scheduler,
        grid.mode,
        grid.switch_allocator,
        grid.switch_iterations,
        grid.switch_stage,
        a.families,
        a.sim_cycles,
        a.hierarchical
    );
    let shard_name = a.shard.map(|s| s.file_name());
    let names: Vec<&str> = match &shard_name {
        Some(n) => vec![n.as_str()],
        None => sweep::OUTPUTS.to_vec(),
    };
    let claims: Vec<(&str, Option<&[u8]>)> = names.iter().map(|n| (*n, None)).collect();
    let mut out = claim_dir(&a.out, &claims, a.force)?;
    let opts = sweep::SweepOptions {
        out_dir: a.out.clone(),
        cache_dir: cache_dir(),
        families: a.families,
        sim_cycles: a.sim_cycles,
        xilinx_hierarchy: if a.hierarchical { Hierarchy::Keep } else { Hierarchy::Flatten },
        jobs: a.jobs.map(|j| j as usize).unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
        force: a.force,
    };
    // Every point's work directory (RTL, scripts, tool logs and netlists) is
    // claimed before any point runs.
    for (p, c) in indices.iter().map(|&i| &configs[i]) {
        let Ok(cfg) = c else { continue };
        let design = Design::router(cfg)?;
        let extra = wormqos_synth::scripts::emit(&design)?;
        let tools = wormqos_synth::flow::tool_outputs(&design.top, &opts.families, opts.xilinx_hierarchy);
        let claims: Vec<(&str, Option<&[u8]>)> = design
            .rtl
            .iter()
            .chain(&extra)
            .map(|f| (f.file_name.as_str(), Some(f.text.as_bytes())))
            .chain(tools.iter().map(|n| (n.as_str(), None)))
            .collect();
        claim_dir(&opts.work_dir(&p.name), &claims, a.force)?;
    }
    let labels: Vec<String> = configs.iter().map(|(p, _)| p.name.clone()).collect();
    let ran = sweep::run_indices(&grid, &opts, &indices)?;
    out.begin(&names)?;
    let bad: Vec<String> = ran.iter().filter_map(|(_, p)| p.error.as_ref().map(|e| format!("{}: {e}", p.name))).collect();
    let ran_count = ran.len();
    match a.shard {
        Some(spec) => {
            let file = ShardFile::new(DSE_SHARD_KIND, (), &description, labels, spec, ran);
            println!("{}", out.write(&spec.file_name(), &file.to_bytes())?.display());
        }
        None => {
            let points: Vec<sweep::Point> = ran.into_iter().map(|(_, p)| p).collect();
            write_dse_outputs(&points, &mut out)?;
        }
    }
    out.finish(|_| false)?;
    anyhow::ensure!(bad.is_empty(), "{} of {ran_count} points failed:\n{}", bad.len(), bad.join("\n"));
    Ok(())
}

fn write_dse_outputs(points: &[sweep::Point], out: &mut wormqos_config::files::OutDir) -> anyhow::Result<()> {
    for (name, text) in sweep::outputs(points) {
        println!("{}", out.write(name, text.as_bytes())?.display());
    }
    Ok(())
}

/// `wormqos merge` of `dse` shards: checks that they are exactly the N
/// shards of one grid, then writes what one unsharded `dse` writes (the
/// work directories stay where each shard ran).
pub(crate) fn merge_dse(files: Vec<(String, Vec<u8>)>, out_dir: &std::path::Path, force: bool) -> anyhow::Result<()> {
    let mut decoded = Vec::new();
    for (name, bytes) in files {
        let s: ShardFile<(), sweep::Point> = wormqos_config::shard::decode(&name, &bytes).map_err(|e| invalid(e.to_string()))?;
        decoded.push((name, s));
    }
    let count = decoded.len();
    let ((), points) = wormqos_config::shard::merge(decoded).map_err(|e| invalid(e.to_string()))?;
    let claims: Vec<(&str, Option<&[u8]>)> = sweep::OUTPUTS.iter().map(|n| (*n, None)).collect();
    let mut out = claim_dir(out_dir, &claims, force)?;
    out.begin(&sweep::OUTPUTS)?;
    write_dse_outputs(&points, &mut out)?;
    out.finish(|name| !is_shard_file(name))?;
    let bad = points.iter().filter(|p| p.error.is_some()).count();
    eprintln!("{} points from {count} shards, {bad} failed; results in {}", points.len(), out_dir.display());
    anyhow::ensure!(bad == 0, "{bad} of {} points failed", points.len());
    Ok(())
}

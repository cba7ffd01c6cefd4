//! `wormqos synth` (one configuration through the open FPGA tools) and
//! `wormqos dse` (design-space sweep: simulator throughput x synthesis).

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use wormqos_config::RouterConfig;
use wormqos_synth::scripts::{Family, Hierarchy};
use wormqos_synth::{sweep, FlowOptions};

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
    #[arg(long)]
    config: PathBuf,
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
}

fn load(path: &std::path::Path) -> Result<RouterConfig, ExitCode> {
    RouterConfig::from_file(path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

fn finish(r: anyhow::Result<()>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
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

pub fn synth(a: SynthArgs) -> ExitCode {
    let cfg = match load(&a.config) {
        Ok(c) => c,
        Err(code) => return code,
    };
    finish((|| {
        if a.emit_only {
            let rtl = wormqos_hdl::generate(&cfg, None)?;
            let extra = wormqos_synth::scripts::emit(&cfg, &rtl)?;
            // One call: write_files removes `.v` files it was not given.
            let all: Vec<_> = rtl.iter().chain(&extra).cloned().collect();
            wormqos_hdl::write_files(&a.out, &all)?;
            for f in rtl.iter().chain(&extra) {
                println!("{}", a.out.join(&f.file_name).display());
            }
            return Ok(());
        }
        let opts = FlowOptions {
            work_dir: a.out.clone(),
            families: a.families.clone(),
            cache_dir: (!a.no_cache).then(cache_dir),
            xilinx_hierarchy: if a.hierarchical { Hierarchy::Keep } else { Hierarchy::Flatten },
        };
        let rep = wormqos_synth::synthesize(&cfg, &opts)?;
        std::fs::create_dir_all(&a.out)?;
        let (j, m) = (a.out.join("synth_report.json"), a.out.join("synth_report.md"));
        std::fs::write(&j, serde_json::to_string_pretty(&rep)?)?;
        std::fs::write(&m, rep.markdown())?;
        print!("{}", rep.markdown());
        println!("\nwrote {} and {}{}", j.display(), m.display(), if rep.from_cache { " (from cache)" } else { "" });
        Ok(())
    })())
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
}

pub fn dse(a: DseArgs) -> ExitCode {
    let base = match load(&a.config) {
        Ok(c) => c,
        Err(code) => return code,
    };
    finish((|| {
        let flit_width = a.flit_width.unwrap_or_else(|| vec![base.flit_width()]);
        let grid = sweep::Grid { base, vcs: a.vcs, depth: a.depth, flit_width, crossbar: a.crossbar, scheduler: a.scheduler, mode: a.mode };
        let opts = sweep::SweepOptions {
            out_dir: a.out.clone(),
            cache_dir: cache_dir(),
            families: a.families,
            sim_cycles: a.sim_cycles,
            xilinx_hierarchy: if a.hierarchical { Hierarchy::Keep } else { Hierarchy::Flatten },
            jobs: a.jobs.map(|j| j as usize).unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
        };
        let points = sweep::run(&grid, &opts)?;
        for p in sweep::write_outputs(&a.out, &points)? {
            println!("{}", p.display());
        }
        let bad: Vec<String> = points.iter().filter_map(|p| p.error.as_ref().map(|e| format!("{}: {e}", p.name))).collect();
        if !bad.is_empty() {
            eprintln!("{} of {} points failed:\n{}", bad.len(), points.len(), bad.join("\n"));
        }
        Ok(())
    })())
}

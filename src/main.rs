//! `wormqos`: generate router Verilog, check configurations, and run the RTL
//! against the golden model in lockstep.

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use validate::{invalid, load_config, load_rtl_config};
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};

mod synth_cmd;

mod sim_cmd;

mod model_cmd;

mod network_cmd;

mod validate;

#[derive(Parser)]
#[command(name = "wormqos", version, about = "QoS wormhole router generator, golden model and lockstep testbench")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a configuration and write the router's Verilog (one module per file),
    /// and the NIC's (`<name>_nic*.v`, docs/nic.md) when the configuration has a `[nic]` section;
    /// or with --experiment a whole network's (every router and the top `<name>_network`);
    /// with --system the system top `<name>_system` (router + one NIC per port, docs/nic.md §16).
    Generate {
        #[arg(long, required_unless_present = "experiment", conflicts_with = "experiment")]
        config: Option<PathBuf>,
        /// A network simulator experiment file: generate its whole network as one top
        /// (with `topology.link_latency` pipeline registers per link and direction).
        #[arg(long)]
        experiment: Option<PathBuf>,
        /// Replaced by the experiment file's `topology.link_latency`; refused (exit 2).
        #[arg(long, hide = true, requires = "experiment")]
        link_latency: Option<u32>,
        #[arg(long)]
        out: PathBuf,
        /// Plant a known bug (for testing the test suite); see `wormqos mutants`.
        #[arg(long, conflicts_with = "experiment")]
        mutant: Option<Mutant>,
        /// With --config (which needs a `[nic]` section): also write the system top
        /// `<name>_system` (the router and one NIC per port, every NIC's host ports
        /// brought out as `p<k>_*`), its file list, XDC, Vivado script and FuseSoC core.
        #[arg(long, conflicts_with_all = ["experiment", "mutant"])]
        system: bool,
        /// Overwrite files in --out that wormqos did not write.
        #[arg(long)]
        force: bool,
    },
    /// Validate a configuration and print it with its derived header layout.
    Check {
        #[arg(long)]
        config: PathBuf,
    },
    /// List the bugs `generate --mutant` can plant.
    Mutants,
    /// Verilate the generated RTL and run it in lockstep with the golden model
    /// under random traffic with backpressure, comparing every output every cycle.
    Cosim {
        #[arg(long, required_unless_present = "experiment", conflicts_with = "experiment")]
        config: Option<PathBuf>,
        /// A network simulator experiment file: run its whole network top
        /// against the composed model, one port per endpoint (both with the
        /// file's `topology.link_latency` registers per link).
        #[arg(long)]
        experiment: Option<PathBuf>,
        /// Replaced by the experiment file's `topology.link_latency`; refused (exit 2).
        #[arg(long, hide = true, requires = "experiment")]
        link_latency: Option<u32>,
        /// Cycles of injection (1..=10^9), then the network drains.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Probability that an input port offers a flit in a cycle (0 < p <= 1).
        #[arg(long, default_value_t = 0.6)]
        injection_rate: f64,
        /// Where to write the waveform (VCD) of the cycles before a mismatch
        /// (recorded in the directory's .wormqos-manifest; a file of the same
        /// name that wormqos did not write is left alone and not replaced).
        #[arg(long, default_value = "target/cosim-waves")]
        waveform_dir: PathBuf,
        #[arg(long, conflicts_with = "experiment")]
        mutant: Option<Mutant>,
    },
    /// Run one network experiment (topology of golden-model routers + workload) and print its metrics.
    Sim(sim_cmd::SimArgs),
    /// Run an experiment grid in parallel; write CSV, JSON and plots.
    Sweep(sim_cmd::SweepArgs),
    /// Combine the shard files of `sweep --shard I/N` (or `dse --shard I/N`) runs into the outputs of one run.
    Merge(sim_cmd::MergeArgs),
    /// The papers' analytical models on a sim/sweep experiment file; same CSV, JSON and plots (`--with-sim` overlays the simulation).
    Model(model_cmd::ModelArgs),
    /// Synthesize a configuration with the open FPGA tools (Yosys, nextpnr); JSON and Markdown report.
    Synth(synth_cmd::SynthArgs),
    /// Design-space sweep: golden-model saturation throughput x synthesis over a parameter grid; CSV and Pareto plots.
    Dse(synth_cmd::DseArgs),
}

/// Largest `cosim --cycles` (about a day of lockstep at the slowest measured speed).
const MAX_COSIM_CYCLES: u64 = 1_000_000_000;

fn main() -> ExitCode {
    let cli = Cli::parse();
    validate::exit_code(match cli.command {
        Command::Synth(a) => synth_cmd::synth(a),
        Command::Dse(a) => synth_cmd::dse(a),
        Command::Sim(a) => sim_cmd::sim(a),
        Command::Sweep(a) => sim_cmd::sweep(a),
        Command::Merge(a) => merge(a),
        Command::Model(a) => model_cmd::model(a),
        Command::Generate { config: Some(config), out, mutant, force, system, .. } => generate(&config, &out, mutant, system, force),
        Command::Generate { experiment: Some(e), out, link_latency, force, .. } => network_cmd::generate(&e, &out, link_latency, force),
        Command::Generate { .. } => unreachable!("clap requires --config or --experiment"),
        Command::Check { config } => load_config(&config).map(|c| check(&c)),
        Command::Mutants => {
            // Every planted bug, with where it applies (docs/microarchitecture.md §6, §8, §9).
            for m in Mutant::every() {
                println!("{:<24} {}", m.name(), m.scope());
            }
            Ok(())
        }
        Command::Cosim { config: Some(config), cycles, seed, injection_rate, waveform_dir, mutant, .. } => {
            cosim(&config, cycles, seed, injection_rate, waveform_dir, mutant)
        }
        Command::Cosim { experiment: Some(e), link_latency, cycles, seed, injection_rate, waveform_dir, .. } => {
            let opts = cosim_options(cycles, seed, injection_rate, waveform_dir);
            opts.and_then(|o| network_cmd::cosim(&e, link_latency, o))
        }
        Command::Cosim { .. } => unreachable!("clap requires --config or --experiment"),
    })
}

/// A planted bug that would not change the logic of `cfg` is an error: its
/// RTL would be the clean RTL headed `// MUTANT`, and a pass would mean nothing.
pub fn check_mutant(mutant: Option<Mutant>, cfg: &RouterConfig, file: &Path) -> anyhow::Result<()> {
    match mutant {
        Some(m) if !m.applies_to(cfg) => Err(invalid(format!(
            "--mutant {m} does not apply to {} ({}): it changes the logic only of configurations with {}",
            cfg.name(),
            file.display(),
            m.scope()
        ))),
        _ => Ok(()),
    }
}

fn generate(config: &Path, out: &Path, mutant: Option<Mutant>, system: bool, force: bool) -> anyhow::Result<()> {
    let cfg = load_rtl_config(config)?;
    check_mutant(mutant, &cfg, config)?;
    if system {
        if cfg.nic().is_none() {
            return Err(invalid(format!("{}: --system needs a [nic] section (the NIC on every router port)", config.display())));
        }
        // The system's files include the router's and the NIC's.
        let design = wormqos_synth::Design::system(&cfg)?;
        return network_cmd::write_generated(out, &network_cmd::with_flow_files(&design)?, force);
    }
    // Everything is generated in memory first: a generator error leaves `out` untouched.
    let mut files = wormqos_hdl::generate(&cfg, mutant).context("generating Verilog")?;
    // A `[nic]` section adds the NIC (docs/nic.md) next to the router.
    if cfg.nic().is_some() {
        files.extend(wormqos_hdl::generate_nic(&cfg, None).context("generating the NIC's Verilog")?);
    }
    network_cmd::write_generated(out, &files, force)
}

fn check(cfg: &RouterConfig) {
    let h = cfg.header();
    println!("{cfg}");
    println!("# header: destination [{}:{}], class [{}:{}], vtick [{}:{}] of a {}-bit flit", h.dest.msb(), h.dest.lsb, h.class.msb(), h.class.lsb, h.vtick.msb(), h.vtick.lsb, cfg.flit_width());
    println!("# routes: {:?}", cfg.routes());
}

fn cosim(
    config: &Path,
    cycles: u64,
    seed: u64,
    injection_rate: f64,
    waveform_dir: PathBuf,
    mutant: Option<Mutant>,
) -> anyhow::Result<()> {
    let cfg = load_rtl_config(config)?;
    let opts = cosim_options(cycles, seed, injection_rate, waveform_dir)?;
    check_mutant(mutant, &cfg, config)?;
    let files = wormqos_hdl::generate(&cfg, mutant).context("generating Verilog")?;
    // An interrupted build leaves no half-built directory behind.
    wormqos_testbench::verilator::clean_up_on_signals()?;
    eprintln!("verilating {} ...", wormqos_hdl::top_module_name(&cfg));
    let mut rtl = wormqos_testbench::verilator::VerilatedRouter::build(&cfg, &files)?;
    let mut model = wormqos_sim::Router::new(&cfg);
    run_cosim(&cfg, &mut rtl, &mut model, &opts)
}

/// The validated options of `cosim` (router or network).
fn cosim_options(cycles: u64, seed: u64, injection_rate: f64, waveform_dir: PathBuf) -> anyhow::Result<LockstepOptions> {
    validate::int_in("--cycles", cycles, 1, MAX_COSIM_CYCLES)?;
    // 0 would inject nothing: an empty run that "passes".
    validate::real_in("--injection-rate", injection_rate, 0.0, 1.0, true)?;
    validate::writable_dir("--waveform-dir", &waveform_dir)?;
    let mut opts = LockstepOptions { cycles, seed, waveform_dir: Some(waveform_dir), ..LockstepOptions::default() };
    opts.traffic.injection_rate = injection_rate;
    Ok(opts)
}

/// Runs RTL and model in lockstep and reports; an empty run is an error.
pub(crate) fn run_cosim(cfg: &RouterConfig, rtl: &mut dyn Dut, model: &mut dyn Dut, opts: &LockstepOptions) -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let report = run_lockstep(cfg, rtl, model, opts)?;
    let secs = start.elapsed().as_secs_f64();
    println!("{report}");
    if report.flits_injected == 0 {
        return Err(invalid(format!(
            "empty run: no flit was injected in {} cycles at --injection-rate {}; nothing was compared under traffic (raise --cycles or --injection-rate)",
            opts.cycles, opts.traffic.injection_rate
        )));
    }
    println!("RTL == model on every output for {} cycles ({:.0} cycles/s in lockstep)", report.cycles, report.cycles as f64 / secs);
    Ok(())
}

/// `wormqos merge`: reads every shard file and hands them to the merge of
/// their kind.
fn merge(a: sim_cmd::MergeArgs) -> anyhow::Result<()> {
    let mut files = Vec::new();
    let mut kind = None;
    for path in &a.shards {
        let name = path.display().to_string();
        let (k, bytes) = wormqos_config::shard::read_kind(path).map_err(|e| validate::invalid(e.to_string()))?;
        match &kind {
            None => kind = Some(k),
            Some(first) if *first != k => return Err(validate::invalid(format!("{name}: a `{k}` shard beside `{first}` shards"))),
            Some(_) => {}
        }
        files.push((name, bytes));
    }
    match kind.as_deref() {
        Some(wormqos_netsim::shard::KIND) => sim_cmd::merge_sweep(files, &a.out, a.force),
        Some(synth_cmd::DSE_SHARD_KIND) => synth_cmd::merge_dse(files, &a.out, a.force),
        Some(other) => Err(validate::invalid(format!("{}: shards of kind `{other}`, which this wormqos cannot merge", a.shards[0].display()))),
        None => Err(validate::invalid("no shard files given")),
    }
}

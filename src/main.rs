//! `wormqos`: generate router Verilog, check configurations, and run the RTL
//! against the golden model in lockstep.

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;

mod synth_cmd;

mod sim_cmd;

mod model_cmd;

#[derive(Parser)]
#[command(name = "wormqos", version, about = "QoS wormhole router generator, golden model and lockstep testbench")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a configuration and write the router's Verilog (one module per file).
    Generate {
        #[arg(long)]
        config: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Plant a known bug (for testing the test suite); see `wormqos mutants`.
        #[arg(long)]
        mutant: Option<Mutant>,
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
        #[arg(long)]
        config: PathBuf,
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Probability that an input port offers a flit in a cycle.
        #[arg(long, default_value_t = 0.6)]
        injection_rate: f64,
        /// Where to write the waveform (VCD) of the cycles before a mismatch.
        #[arg(long, default_value = "target/cosim-waves")]
        waveform_dir: PathBuf,
        #[arg(long)]
        mutant: Option<Mutant>,
    },
    /// Run one network experiment (topology of golden-model routers + workload) and print its metrics.
    Sim(sim_cmd::SimArgs),
    /// Run an experiment grid in parallel; write CSV, JSON and plots.
    Sweep(sim_cmd::SweepArgs),
    /// The papers' analytical models on a sim/sweep experiment file; same CSV, JSON and plots (`--with-sim` overlays the simulation).
    Model(model_cmd::ModelArgs),
    /// Synthesize a configuration with the open FPGA tools (Yosys, nextpnr); JSON and Markdown report.
    Synth(synth_cmd::SynthArgs),
    /// Design-space sweep: golden-model saturation throughput x synthesis over a parameter grid; CSV and Pareto plots.
    Dse(synth_cmd::DseArgs),
}

/// Exit code for invalid input (bad configuration), as for command-line misuse.
const EXIT_INVALID_INPUT: u8 = 2;

fn load(path: &std::path::Path) -> Result<RouterConfig, ExitCode> {
    RouterConfig::from_file(path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(EXIT_INVALID_INPUT)
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let cfg_path = match &cli.command {
        Command::Generate { config, .. } | Command::Check { config } | Command::Cosim { config, .. } => Some(config.clone()),
        Command::Mutants => None,
        Command::Synth(_) | Command::Dse(_) => None,
        Command::Sim(_) | Command::Sweep(_) => None,
        Command::Model(_) => None,
    };
    let cfg = match cfg_path.map(|p| load(&p)).transpose() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Synth(a) => return synth_cmd::synth(a),
        Command::Dse(a) => return synth_cmd::dse(a),
        Command::Sim(a) => return sim_cmd::sim(a),
        Command::Sweep(a) => return sim_cmd::sweep(a),
        Command::Model(a) => return model_cmd::model(a),
        Command::Generate { out, mutant, .. } => generate(cfg.as_ref().unwrap(), &out, mutant),
        Command::Check { .. } => check(cfg.as_ref().unwrap()),
        Command::Mutants => {
            // Every planted bug, with where it applies (docs/microarchitecture.md §6, §8, §9).
            for m in Mutant::every() {
                let scope = if m.is_qos() {
                    "QoS modes (see Mutant::applies_to)"
                } else if m.is_routing() {
                    "topology.route_vcs / route_links (see Mutant::applies_to)"
                } else if m.is_virtualclock() {
                    "scheduler = virtualclock"
                } else {
                    "every configuration"
                };
                println!("{:<24} {scope}", m.name());
            }
            Ok(())
        }
        Command::Cosim { cycles, seed, injection_rate, waveform_dir, mutant, .. } => {
            cosim(cfg.as_ref().unwrap(), cycles, seed, injection_rate, waveform_dir, mutant)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn generate(cfg: &RouterConfig, out: &std::path::Path, mutant: Option<Mutant>) -> anyhow::Result<()> {
    // Everything is generated in memory first: a generator error leaves `out` untouched.
    let files = wormqos_hdl::generate(cfg, mutant).context("generating Verilog")?;
    wormqos_hdl::write_files(out, &files).with_context(|| format!("writing {}", out.display()))?;
    for f in &files {
        println!("{}", out.join(&f.file_name).display());
    }
    Ok(())
}

fn check(cfg: &RouterConfig) -> anyhow::Result<()> {
    let h = cfg.header();
    println!("{cfg}");
    println!("# header: destination [{}:{}], class [{}:{}], vtick [{}:{}] of a {}-bit flit", h.dest.msb(), h.dest.lsb, h.class.msb(), h.class.lsb, h.vtick.msb(), h.vtick.lsb, cfg.flit_width());
    println!("# routes: {:?}", cfg.routes());
    Ok(())
}

fn cosim(
    cfg: &RouterConfig,
    cycles: u64,
    seed: u64,
    injection_rate: f64,
    waveform_dir: PathBuf,
    mutant: Option<Mutant>,
) -> anyhow::Result<()> {
    use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};
    if !(0.0..=1.0).contains(&injection_rate) {
        anyhow::bail!("--injection-rate {injection_rate}: allowed range 0..=1");
    }
    let files = wormqos_hdl::generate(cfg, mutant).context("generating Verilog")?;
    eprintln!("verilating {} ...", wormqos_hdl::top_module_name(cfg));
    let mut rtl = wormqos_testbench::verilator::VerilatedRouter::build(cfg, &files)?;
    let mut model = wormqos_sim::Router::new(cfg);
    let mut opts = LockstepOptions { cycles, seed, waveform_dir: Some(waveform_dir), ..LockstepOptions::default() };
    opts.traffic.injection_rate = injection_rate;
    let start = std::time::Instant::now();
    let report = run_lockstep(cfg, &mut rtl, &mut model, &opts)?;
    let secs = start.elapsed().as_secs_f64();
    println!("{report}");
    println!("RTL == model on every output for {} cycles ({:.0} cycles/s in lockstep)", report.cycles, report.cycles as f64 / secs);
    Ok(())
}

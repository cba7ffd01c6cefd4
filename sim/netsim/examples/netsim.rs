//! The `sim` and `sweep` subcommands without the rest of the CLI (same code
//! as `wormqos sim` / `wormqos sweep`): `cargo run --release -p
//! wormqos-netsim --example netsim -- sweep --experiment F --out D`.

#[path = "../../../src/sim_cmd.rs"]
mod sim_cmd;
#[path = "../../../src/validate.rs"]
#[allow(dead_code)]
mod validate;

use clap::{Parser, Subcommand};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Sim(sim_cmd::SimArgs),
    Sweep(sim_cmd::SweepArgs),
}

fn main() -> std::process::ExitCode {
    validate::exit_code(match Cli::parse().command {
        Command::Sim(a) => sim_cmd::sim(a),
        Command::Sweep(a) => sim_cmd::sweep(a),
    })
}

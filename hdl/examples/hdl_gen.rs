//! Generates the router RTL without the full CLI:
//! `cargo run -p wormqos-hdl --example hdl_gen -- <config.toml> <out-dir> [mutant]`.

use wormqos_config::RouterConfig;
use wormqos_hdl::{generate, write_files, Mutant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: hdl_gen <config.toml> <out-dir> [mutant]");
        std::process::exit(2);
    }
    let cfg = RouterConfig::from_file(std::path::Path::new(&args[1])).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let mutant = args.get(3).map(|m| {
        m.parse::<Mutant>().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        })
    });
    let files = generate(&cfg, mutant).unwrap_or_else(|e| {
        eprintln!("generation failed: {e}");
        std::process::exit(1)
    });
    write_files(std::path::Path::new(&args[2]), &files).unwrap();
}

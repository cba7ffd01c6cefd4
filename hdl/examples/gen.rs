//! `cargo run -p wormqos-hdl --example gen -- <config.toml> <out_dir> [mutant]`
use std::path::Path;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: gen <config.toml> <out_dir> [mutant]");
        std::process::exit(2);
    }
    let cfg = wormqos_config::RouterConfig::from_file(Path::new(&args[1])).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let mutant = args.get(3).map(|m| m.parse::<wormqos_hdl::Mutant>().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    }));
    let files = wormqos_hdl::generate(&cfg, mutant).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    wormqos_hdl::write_files(Path::new(&args[2]), &files).unwrap();
    println!("{}", wormqos_hdl::top_module_name(&cfg));
}

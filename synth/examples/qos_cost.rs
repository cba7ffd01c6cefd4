//! Area and timing of the QoS features as deltas against the traditional
//! router, on the 5-port, 2-VC, 32-bit, 8-flit configurations in
//! constraints/bench/. Results are cached (target/wormqos-synth-cache), so a
//! rerun after an RTL change only synthesizes what changed.
//!
//!   cargo run --release -p wormqos-synth --example qos_cost [-- xilinx,ice40,ecp5 [--hierarchical]]
//!
//! `--hierarchical`: 7-series figures with every module mapped once (no
//! `-flatten`); ABC's variation between flattened netlists (a few hundred
//! LUTs) then stays out of the deltas.

use std::path::Path;
use wormqos_config::RouterConfig;
use wormqos_synth::scripts::Family;
use wormqos_synth::{synthesize, Design, FlowOptions, SynthReport};

const ROWS: [(&str, &str); 7] = [
    ("b5_tr", "TR: traditional (partition 1:1, FIFO scheduler) — base"),
    ("b5_np", "NP: partition + VirtualClock"),
    ("b5_p", "P: preemptive (lanes, history stack), VirtualClock"),
    ("b5_pa", "P + flit acceleration"),
    ("b5_fifo", "unpartitioned, FIFO"),
    ("b5_rr", "unpartitioned, round-robin"),
    ("b5_vclock", "unpartitioned, VirtualClock"),
];

fn main() -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let fams: Vec<Family> = match std::env::args().nth(1) {
        Some(s) => s.split(',').map(|t| Family::all().into_iter().find(|f| f.tag() == t).ok_or_else(|| anyhow::anyhow!("unknown family {t}"))).collect::<Result<_, _>>()?,
        None => vec![Family::Xilinx7, Family::Ice40, Family::Ecp5],
    };
    let hierarchy = match std::env::args().nth(2).as_deref() {
        None => wormqos_synth::scripts::Hierarchy::Flatten,
        Some("--hierarchical") => wormqos_synth::scripts::Hierarchy::Keep,
        Some(other) => anyhow::bail!("unknown option {other} (allowed: --hierarchical)"),
    };
    let mut reps: Vec<(&str, &str, SynthReport)> = vec![];
    for (name, what) in ROWS {
        let cfg = RouterConfig::from_file(&root.join("constraints/bench").join(format!("{name}.toml")))?;
        let opts = FlowOptions {
            work_dir: root.join("target/wormqos-synth-work").join(name),
            families: fams.clone(),
            cache_dir: Some(root.join("target/wormqos-synth-cache")),
            xilinx_hierarchy: hierarchy,
            force: false,
        };
        eprintln!("synthesizing {name} ...");
        let t = std::time::Instant::now();
        let r = synthesize(&Design::router(&cfg)?, &opts)?;
        eprintln!("  {:.0} s{}", t.elapsed().as_secs_f64(), if r.from_cache { " (cached)" } else { "" });
        reps.push((name, what, r));
    }
    let x = |r: &SynthReport| r.xilinx.as_ref().map(|x| x.resources.clone()).unwrap_or_default();
    let fmax = |p: &Option<wormqos_synth::flow::PnrResult>| match p {
        Some(p) => match (p.fmax_mhz, &p.device) {
            (Some(f), Some(d)) => format!("{f:.1} ({d})"),
            _ => "does not fit".into(),
        },
        None => "—".into(),
    };
    let base = x(&reps[0].2);
    println!("| configuration | LUTs (logic) | LUTs as RAM | FFs | CARRY4 | ΔLUTs vs TR | ΔFFs vs TR | iCE40 Fmax MHz | ECP5 Fmax MHz |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|---|");
    for (name, what, r) in &reps {
        let v = x(r);
        let d = |a: u64, b: u64| format!("{:+}", a as i64 - b as i64);
        println!(
            "| `{name}` {what} | {} | {} | {} | {} | {} | {} | {} | {} |",
            v.luts,
            v.lutram_luts,
            v.flip_flops,
            v.carry4,
            d(v.luts + v.lutram_luts, base.luts + base.lutram_luts),
            d(v.flip_flops, base.flip_flops),
            fmax(&r.ice40),
            fmax(&r.ecp5)
        );
    }
    println!("| NIC | — | — | — | — | — | — | — | — |");
    println!("\nThe NIC does not exist yet; its row is empty. Tools: {:?}", reps[0].2.tools);
    Ok(())
}

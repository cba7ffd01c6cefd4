//! Cycles per second of the verilated RTL alone, the golden model alone, and
//! both in lockstep (with stimulus, scoreboard and comparison), per configuration.
//!
//! `cargo bench -p wormqos-testbench --bench speed [-- CYCLES]`
//!
//! "Alone" replays an input trace recorded from a closed-loop run of the model,
//! so the device does exactly the work it does in lockstep, without the harness.

use std::time::Instant;
use wormqos_config::RouterConfig;
use wormqos_sim::{Router, RouterInputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions};
use wormqos_testbench::stimulus::{Stimulus, TrafficParams};
use wormqos_testbench::verilator::VerilatedRouter;

fn record(cfg: &RouterConfig, cycles: u64) -> Vec<RouterInputs> {
    let mut model = Router::new(cfg);
    let mut stim = Stimulus::new(cfg, 7, TrafficParams::default());
    let mut trace = Vec::with_capacity(cycles as usize);
    for _ in 0..cycles {
        let inputs = stim.next_inputs(model.outputs()).expect("stimulus").clone();
        model.step(&inputs);
        trace.push(inputs);
    }
    trace
}

/// Replays the trace and returns cycles per second; the checksum keeps the
/// output reads from being optimised away and shows both devices agree.
fn replay(dut: &mut dyn Dut, trace: &[RouterInputs]) -> (f64, u64) {
    dut.reset();
    let mut checksum = 0u64;
    let start = Instant::now();
    for inputs in trace {
        let outs = dut.outputs();
        for f in &outs.flits {
            checksum = checksum.wrapping_mul(31).wrapping_add(f.data[0] ^ f.valid as u64);
        }
        dut.step(inputs);
    }
    (trace.len() as f64 / start.elapsed().as_secs_f64(), checksum)
}

fn main() {
    let cycles: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(200_000);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    println!("| configuration | offered load | RTL alone (cycles/s) | model alone (cycles/s) | model / RTL | lockstep (cycles/s) |");
    println!("|---|---|---|---|---|---|");
    for name in ["mesh5", "mediaworm8"] {
        let cfg = RouterConfig::from_file(&root.join(format!("examples/{name}.toml"))).unwrap();
        let files = wormqos_hdl::generate(&cfg, None).unwrap();
        let mut rtl = VerilatedRouter::build(&cfg, &files).unwrap();
        let trace = record(&cfg, cycles);
        let (rtl_rate, rtl_sum) = replay(&mut rtl, &trace);
        let (model_rate, model_sum) = replay(&mut Router::new(&cfg), &trace);
        assert_eq!(rtl_sum, model_sum, "RTL and model disagree on the replayed trace");
        let opts = LockstepOptions { cycles, seed: 7, ..LockstepOptions::default() };
        let start = Instant::now();
        let report = run_lockstep(&cfg, &mut rtl, &mut Router::new(&cfg), &opts).unwrap();
        let lock_rate = report.cycles as f64 / start.elapsed().as_secs_f64();
        println!(
            "| {name} | {:.2} flits/port/cycle | {rtl_rate:.0} | {model_rate:.0} | {:.1}x | {lock_rate:.0} |",
            TrafficParams::default().injection_rate,
            model_rate / rtl_rate
        );
    }
}

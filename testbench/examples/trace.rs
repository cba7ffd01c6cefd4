//! Prints, cycle by cycle, the lockstep stimulus and the golden model's
//! outputs for a configuration and seed: for debugging a mismatch by hand.
//!
//! `cargo run --release -p wormqos-testbench --example trace -- CONFIG SEED CYCLES`

use wormqos_config::RouterConfig;
use wormqos_sim::Router;
use wormqos_testbench::stimulus::{Stimulus, TrafficParams};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cfg = RouterConfig::from_file(std::path::Path::new(&args[1])).expect("config");
    let seed: u64 = args[2].parse().expect("seed");
    let cycles: u64 = args[3].parse().expect("cycles");
    let h = cfg.header();
    let mut model = Router::new(&cfg);
    let mut stim = Stimulus::new(&cfg, seed, TrafficParams::default());
    for t in 0..cycles {
        let outs = model.outputs().clone();
        for (o, f) in outs.flits.iter().enumerate() {
            if f.valid {
                println!("{t:>5} OUT  port {o} vc {} head {} tail {} data {:#x}", f.vc, f.head as u8, f.tail as u8, f.data[0]);
            }
        }
        for (p, c) in outs.credits.iter().enumerate() {
            if *c != 0 {
                println!("{t:>5} CRED port {p} bits {c:#b}");
            }
        }
        let inputs = stim.next_inputs(&outs).expect("stimulus").clone();
        for (p, f) in inputs.flits.iter().enumerate() {
            if f.valid {
                let extra = if f.head {
                    format!(" dest {} vtick {}", h.dest.extract(&f.data), h.vtick.extract(&f.data))
                } else {
                    String::new()
                };
                println!("{t:>5} IN   port {p} vc {} head {} tail {}{extra}", f.vc, f.head as u8, f.tail as u8);
            }
        }
        for p in 0..cfg.ports() {
            if let Some(s) = model.virtual_clock(p) {
                let aux: Vec<u64> = (0..cfg.vcs()).map(|k| s.aux(k)).collect();
                let st: Vec<String> = (0..cfg.vcs()).map(|k| if s.stamped(k) { s.stamp(k).to_string() } else { "-".into() }).collect();
                if aux.iter().any(|&a| a != 0) || st.iter().any(|x| x != "-") {
                    println!("{t:>5} VCLK point {p}: now {} aux {aux:?} stamps {st:?}", s.now());
                }
            }
        }
        model.step(&inputs);
    }
}

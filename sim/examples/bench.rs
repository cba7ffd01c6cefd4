//! Throughput of the golden model: router-cycles per second.
//!
//! `cargo run --release -p wormqos-sim --example bench -- [config.toml] [offered load 0..1] [cycles]`
//!
//! Every input port has a credit-respecting source sending 4..=8-flit messages
//! to uniformly random destinations on random VCs at the offered load
//! (flits/cycle/port); every output port has a sink that returns each flit's
//! credit in the cycle it arrives. Headers carry a Vtick (real time 1..=64 for
//! 7 messages in 8, else best effort), used only by the `virtualclock` scheduler.
//!
//! Two figures are printed: the closed loop (sources, sinks and router), and
//! the router alone, replaying the first 200 000 cycles of recorded inputs
//! (the model is deterministic, so the replay reproduces the same traffic).

use std::time::Instant;
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs};

struct Source {
    vc: usize,
    left: u32,
    len: u32,
    dest: u64,
    vtick: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| format!("{}/../examples/mesh5.toml", env!("CARGO_MANIFEST_DIR")));
    let load: f64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(0.4);
    let cycles: u64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(20_000_000);
    let cfg = RouterConfig::from_file(std::path::Path::new(&path)).unwrap();
    let (n, m) = (cfg.ports(), cfg.vcs());
    let mut r = Router::new(&cfg);
    let mut inp = RouterInputs::idle(&cfg);
    let mut up_credits = vec![cfg.input_buffer_depth() as u32; n * m];
    let mut src: Vec<Source> = (0..n).map(|_| Source { vc: 0, left: 0, len: 0, dest: 0, vtick: 0 }).collect();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // Messages average 6 flits: start one with probability load/6 per idle cycle
    // (approximately `load` flits/cycle, slightly less because of the idle cycle).
    let start_threshold = ((load / 6.0) * u32::MAX as f64) as u64;
    let endpoints = cfg.endpoints() as u64;
    let vtick_field = cfg.header().vtick;

    const REPLAY: usize = 200_000;
    let mut recorded: Vec<RouterInputs> = Vec::with_capacity(REPLAY);
    let t0 = Instant::now();
    for _ in 0..cycles {
        // Credits returned by the router last cycle (its current outputs).
        let out = r.outputs();
        for p in 0..n {
            let mut c = out.credits[p];
            while c != 0 {
                let v = c.trailing_zeros() as usize;
                c &= c - 1;
                up_credits[p * m + v] += 1;
            }
        }
        for o in 0..n {
            let f = &out.flits[o];
            inp.credits[o] = if f.valid { 1 << f.vc } else { 0 };
        }
        for p in 0..n {
            let s = &mut src[p];
            inp.flits[p] = LinkFlit::IDLE;
            if s.left == 0 {
                let x = rand();
                if (x & 0xffff_ffff) < start_threshold {
                    s.len = 4 + (x >> 32) as u32 % 5;
                    s.left = s.len;
                    s.vc = (x >> 40) as usize % m;
                    s.dest = (x >> 48) % endpoints;
                    // Vtick: 7 in 8 messages real time (1..=64), else best effort (0).
                    s.vtick = if x >> 61 == 0 { 0 } else { 1 + (x >> 52) % 64 };
                }
            }
            if s.left > 0 && up_credits[p * m + s.vc] > 0 {
                up_credits[p * m + s.vc] -= 1;
                let k = s.len - s.left;
                s.left -= 1;
                let mut data = [if k == 0 { s.dest } else { k as u64 }, 0, 0, 0];
                if k == 0 {
                    vtick_field.insert(&mut data, s.vtick);
                }
                inp.flits[p] = LinkFlit {
                lane: 0,
                    valid: true,
                    dummy: false,
                    vc: s.vc as u8,
                    head: k == 0,
                    tail: s.left == 0,
                    data,
                };
            }
        }
        r.step(&inp);
        if recorded.len() < REPLAY {
            recorded.push(inp.clone());
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    let s = r.stats();
    println!(
        "{}: {cycles} cycles in {dt:.3} s = {:.1} M router-cycles/s; accepted {:.3} flits/cycle/port, forwarded {:.3}, dropped {}",
        cfg.name(),
        cycles as f64 / dt / 1e6,
        s.flits_accepted as f64 / cycles as f64 / n as f64,
        s.flits_forwarded as f64 / cycles as f64 / n as f64,
        s.flits_dropped()
    );

    // The router alone.
    let reps = 10;
    let mut check = 0u64;
    let t0 = Instant::now();
    for _ in 0..reps {
        r.reset();
        for inp in &recorded {
            r.step(inp);
        }
        check += r.stats().flits_forwarded;
    }
    let dt = t0.elapsed().as_secs_f64();
    let n_steps = (reps * recorded.len()) as f64;
    println!(
        "{}: router alone, {} replayed cycles in {dt:.3} s = {:.1} M router-cycles/s ({:.0} ns/cycle; {} flits forwarded)",
        cfg.name(),
        n_steps,
        n_steps / dt / 1e6,
        dt / n_steps * 1e9,
        check / reps as u64
    );
}

//! 001_… Table II at 0.7 and 0.8 on the multiplexed crossbar, stream by
//! stream (docs/reproduction.md, "001_… Table II"): whether FGFQ spreads the
//! real-time backlog more evenly across the streams than FGVC. For each
//! load, scheduler (`model.scheduler` = "router", i.e. FGVC, or "fgfq") and
//! seed 1 to S, the experiment (its `[sweep]` dropped) is run with every
//! message logged (`Sim::run_logged_all`); of the real-time messages
//! (those of a stream) created after the warm-up it takes each stream's
//! mean latency (creation to tail delivered) and mean source wait
//! (creation to header injected), and reports their spread across the
//! streams.
//!
//! Writes `<out>/streams.csv`, one row per (load, scheduler, seed), and
//! prints it: `streams`, `messages`; `latency_mean` (over the messages);
//! `stream_latency_sd`, `stream_latency_min`, `stream_latency_max` (of the
//! per-stream means); `stream_latency_cv` (sd / mean of the per-stream
//! means); `source_wait_mean`, `stream_source_wait_sd`; all in cycles.
//!
//! cargo run --release -p wormqos-netsim --example table2_streams -- \
//!     experiments/table2_001.toml experiments/results/table2_001_streams --seeds 3

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

/// Mean and population standard deviation.
fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (mean, (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt())
}

/// `base` with `key = old` replaced by `key = new` (exactly one line).
fn set(base: &str, line: &str, new: &str) -> anyhow::Result<String> {
    anyhow::ensure!(base.matches(line).count() == 1, "the experiment has not exactly one line {line:?}");
    Ok(base.replace(line, new))
}

fn main() -> anyhow::Result<()> {
    let usage = "usage: table2_streams EXPERIMENT OUT_DIR --seeds S";
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(args.len() == 4 && args[2] == "--seeds", "{usage}");
    let seeds: u64 = args[3].parse()?;
    anyhow::ensure!(seeds >= 1, "{usage}");
    let base = std::fs::read_to_string(&args[0])?.split("[sweep]").next().unwrap().to_string();
    let out = PathBuf::from(&args[1]);
    let mut csv = String::from(
        "load,scheduler,seed,streams,messages,latency_mean,stream_latency_sd,stream_latency_min,stream_latency_max,\
         stream_latency_cv,source_wait_mean,stream_source_wait_sd\n",
    );
    for load in ["0.7", "0.8"] {
        for scheduler in ["router", "fgfq"] {
            for seed in 1..=seeds {
                let text = set(&base, "\nload = 0.8\n", &format!("\nload = {load}\n"))?;
                let text = set(&text, "scheduler = \"router\"", &format!("scheduler = \"{scheduler}\""))?;
                let text = set(&text, "\nseed = 1\n", &format!("\nseed = {seed}\n"))?;
                let v = Experiment::from_str(&text, &args[0], PathBuf::new())?;
                let warmup = v.run_cycles().1;
                let (_, log) = Sim::new(&v)?.run_logged_all()?;
                // flow -> (latencies, source waits) of its real-time messages
                let mut per: BTreeMap<u32, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
                for m in log.iter().filter(|m| m.frame != u32::MAX && m.created >= warmup) {
                    let e = per.entry(m.flow).or_default();
                    e.0.push((m.delivered - m.created) as f64);
                    e.1.push((m.injected - m.created) as f64);
                }
                anyhow::ensure!(!per.is_empty(), "load {load}, {scheduler}, seed {seed}: no real-time message");
                let all: Vec<f64> = per.values().flat_map(|p| p.0.iter().copied()).collect();
                let waits: Vec<f64> = per.values().flat_map(|p| p.1.iter().copied()).collect();
                let stream_lat: Vec<f64> = per.values().map(|p| mean_sd(&p.0).0).collect();
                let stream_wait: Vec<f64> = per.values().map(|p| mean_sd(&p.1).0).collect();
                let (sm, ssd) = mean_sd(&stream_lat);
                let min = stream_lat.iter().copied().fold(f64::INFINITY, f64::min);
                let max = stream_lat.iter().copied().fold(0.0, f64::max);
                writeln!(
                    csv,
                    "{load},{scheduler},{seed},{},{},{},{ssd},{min},{max},{},{},{}",
                    per.len(),
                    all.len(),
                    mean_sd(&all).0,
                    ssd / sm,
                    mean_sd(&waits).0,
                    mean_sd(&stream_wait).1
                )?;
            }
        }
    }
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("streams.csv"), &csv)?;
    print!("{csv}");
    Ok(())
}

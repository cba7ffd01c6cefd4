//! One ON/OFF stream of `fig12_000_onoff_2port.toml` at K = 1, g = 33,
//! message by message (docs/reproduction.md, "The K = 1 excess, message by
//! message"): creation, header injection, tail delivery of endpoint 0's
//! real-time stream, with each message's place in its burst.
//!
//! Writes `<out>/by_position.csv` (mean source wait and network latency of
//! the n-th message of a burst) and `<out>/summary.csv` (the stream's mean
//! network latency, the mean place in a burst, and the fluid queue of one
//! source at the class's VC capacity M/(M + 2), the RC and VA cycles a
//! back-to-back header pays again: docs/microarchitecture.md §6).
//!
//! cargo run --release -p wormqos-netsim --example onoff_k1_trace -- experiments/fig12_000_onoff_2port.toml experiments/results/onoff_k1_trace 40

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::onoff_fluid::FluidLink;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&args[0])?;
    let text = text.split("[sweep]").next().unwrap().replace("onoff_streams = 2", "onoff_streams = 1").replace("onoff_mean_off_us = 368.0", "onoff_mean_off_us = 173.6");
    let out = PathBuf::from(&args[1]);
    let show: usize = args.get(2).map_or(Ok(60), |s| s.parse())?;
    let v = Experiment::from_str(&text, &args[0], PathBuf::new())?;
    let (r, log) = Sim::new(&v)?.run_logged(0)?;
    let warm = v.run_cycles().1;
    let log: Vec<_> = log.into_iter().filter(|m| m.created >= warm).collect();
    let rt = r.classes.iter().find(|c| c.class == 1).unwrap().network_latency;
    println!("real-time (class 1) network latency {rt:.2}, stream 0's messages logged {}", log.len());
    println!("{:>9} {:>5} {:>4} {:>6} {:>6} {:>6} {:>6}", "created", "gap", "pos", "wait", "net", "deliv-gap", "start");
    let mut pos = 0;
    let mut by_pos: Vec<(f64, f64, u64)> = Vec::new();
    for (i, m) in log.iter().enumerate() {
        let gap = if i > 0 { m.created - log[i - 1].created } else { 0 };
        pos = if i > 0 && gap <= 40 { pos + 1 } else { 0 };
        let dgap = if i > 0 { m.delivered as i64 - log[i - 1].delivered as i64 } else { 0 };
        if by_pos.len() <= pos {
            by_pos.resize(pos + 1, (0.0, 0.0, 0));
        }
        by_pos[pos].0 += (m.injected - m.created) as f64;
        by_pos[pos].1 += (m.delivered - m.injected) as f64;
        by_pos[pos].2 += 1;
        if i < show {
            println!("{:>9} {:>5} {:>4} {:>6} {:>6} {:>6} {:>6}", m.created, gap, pos, m.injected - m.created, m.delivered - m.injected, dgap, m.source.started - m.created);
        }
    }
    let mut csv = String::from("position,messages,source_wait,network_latency\n");
    for (p, (w, n, c)) in by_pos.iter().enumerate() {
        writeln!(csv, "{p},{c},{:.4},{:.4}", w / *c as f64, n / *c as f64)?;
    }
    let count = log.len() as f64;
    let mean_net = log.iter().map(|m| (m.delivered - m.injected) as f64).sum::<f64>() / count;
    let mean_pos = by_pos.iter().enumerate().map(|(p, x)| p as f64 * x.2 as f64).sum::<f64>() / count;
    let min_net = log.iter().map(|m| m.delivered - m.injected).min().unwrap_or(0);
    // The fluid queue of this one source at the VC's back-to-back capacity.
    let off = v.offered()?;
    let o = &off.onoff[0];
    let m = o.flits as f64;
    let link = |capacity: f64| FluidLink { sources: 1, on_mean: v.exp.workload.onoff_mean_messages * o.gap, off_mean: o.off, peak: m / o.gap, capacity };
    let at_one = link(1.0).mean_delay()?;
    let at_vc = link(m / (m + 2.0)).mean_delay()?;
    let summary = format!(
        "stream_network_latency,class_network_latency,min_network_latency,mean_position,gap,fluid_delay_c1,fluid_delay_vc\n{mean_net:.4},{rt:.4},{min_net},{mean_pos:.4},{},{at_one:.4},{at_vc:.4}\n",
        o.gap
    );
    print!("{summary}");
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("by_position.csv"), csv)?;
    std::fs::write(out.join("summary.csv"), summary)?;
    Ok(())
}

//! `fig12_000_onoff_2port.toml` message by message (docs/reproduction.md,
//! "The K = 1 excess, message by message"): for each point `K:I_us`, the
//! creation, header injection and tail delivery of endpoint 0's first
//! real-time stream, by its messages' place in their burst, and the
//! source-link fluid queue (all a 2-port router has, `onoff_fluid.rs`) at
//! the link's c = 1 and at the class VC's back-to-back capacity M/(M + 2)
//! (the next header's RC and VA: docs/microarchitecture.md §6,
//! "Back-to-back messages on one input VC"). Writes
//! `<out>/by_position.csv` (first point) and `<out>/summary.csv`.
//!
//! cargo run --release -p wormqos-netsim --example onoff_k1_trace -- \
//!     experiments/fig12_000_onoff_2port.toml experiments/results/onoff_k1_trace \
//!     1:173.6 2:368.0 2:373.6 4:773.6

#[path = "onoff_k1_trace/source_link.rs"]
mod source_link;
#[path = "onoff_k1_trace/replay.rs"]
mod replay;

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::onoff_fluid::FluidLink;
use wormqos_netsim::analytic::predict;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let repeat = source_link::Repeat::take_from(&mut args)?;
    anyhow::ensure!(args.len() >= 3, "usage: onoff_k1_trace EXPERIMENT OUT_DIR [--seeds S --cycles C] K:I_US...");
    let out = PathBuf::from(&args[1]);
    let base = std::fs::read_to_string(&args[0])?.split("[sweep]").next().unwrap().to_string();
    if let Some(repeat) = repeat {
        let rows = args[2..].iter().map(|p| repeat.point(&base, &args[0], p)).collect::<anyhow::Result<Vec<_>>>()?;
        let csv = source_link::csv(&rows);
        print!("{csv}");
        std::fs::create_dir_all(&out)?;
        std::fs::write(out.join("source_link.csv"), csv)?;
        return Ok(());
    }
    let mut summary = String::from("streams,off_us,gap,sim_total,sim_network,sim_source_wait,stream_total,stream_mean_position,kim2005_network,fluid_c1,fluid_vc,model_total_c1,model_total_vc\n");
    for (i, point) in args[2..].iter().enumerate() {
        let (k, off) = point.split_once(':').ok_or_else(|| anyhow::anyhow!("{point}: not K:I_us"))?;
        let text = base.replace("onoff_streams = 2", &format!("onoff_streams = {k}")).replace("onoff_mean_off_us = 368.0", &format!("onoff_mean_off_us = {off}"));
        let v = Experiment::from_str(&text, &args[0], PathBuf::new())?;
        let (r, log) = Sim::new(&v)?.run_logged(0)?;
        let warm = v.run_cycles().1;
        let log: Vec<_> = log.into_iter().filter(|m| m.created >= warm).collect();
        let rt = r.classes.iter().find(|c| c.class == 1).unwrap();
        // Place in burst: a message created within 2 g of the previous one
        // follows it in the same burst.
        let o = v.offered()?.onoff[0].clone();
        let mut pos = 0usize;
        let mut by_pos: Vec<(f64, f64, u64)> = Vec::new();
        for (j, m) in log.iter().enumerate() {
            pos = if j > 0 && ((m.created - log[j - 1].created) as f64) < 2.0 * o.gap { pos + 1 } else { 0 };
            if by_pos.len() <= pos {
                by_pos.resize(pos + 1, (0.0, 0.0, 0));
            }
            by_pos[pos].0 += (m.injected - m.created) as f64;
            by_pos[pos].1 += (m.delivered - m.injected) as f64;
            by_pos[pos].2 += 1;
        }
        let count = log.len() as f64;
        let stream_total = log.iter().map(|m| (m.delivered - m.created) as f64).sum::<f64>() / count;
        let mean_pos = by_pos.iter().enumerate().map(|(p, x)| p as f64 * x.2 as f64).sum::<f64>() / count;
        if i == 0 {
            let mut csv = String::from("position,messages,source_wait,network_latency\n");
            for (p, (w, n, c)) in by_pos.iter().enumerate() {
                writeln!(csv, "{p},{c},{:.4},{:.4}", w / *c as f64, n / *c as f64)?;
            }
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("by_position.csv"), csv)?;
        }
        let m = o.flits as f64;
        let link = |capacity: f64| FluidLink { sources: k.parse().unwrap(), on_mean: v.exp.workload.onoff_mean_messages * o.gap, off_mean: o.off, peak: m / o.gap, capacity };
        let (c1, vc) = (link(1.0).mean_delay()?, link(m / (m + 2.0)).mean_delay()?);
        let plan = predict::plan(&v)?;
        let kim = plan.evaluate(&[]).into_iter().find(|n| n.name == "kim2005").ok_or_else(|| anyhow::anyhow!("no kim2005 row"))?.result?;
        let net = kim.iter().find(|c| c.class == 1).unwrap().network_latency;
        writeln!(
            summary,
            "{k},{off},{:.1},{:.4},{:.4},{:.4},{stream_total:.4},{mean_pos:.4},{net:.4},{c1:.4},{vc:.4},{:.4},{:.4}",
            o.gap,
            rt.network_latency + rt.source_latency,
            rt.network_latency,
            rt.source_latency,
            net + c1,
            net + vc
        )?;
    }
    print!("{summary}");
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("summary.csv"), summary)?;
    Ok(())
}

//! The command line and the points shared by the 6-cube trace examples
//! (`cube_link_trace`, `cube_wait_trace`): `EXPERIMENT OUT_DIR --seeds S
//! K:I_US...`, each point the experiment (its `[sweep]` dropped) with
//! K = workload.onoff_streams and I = workload.onoff_mean_off_us.

use std::path::PathBuf;
use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
use wormqos_netsim::{Experiment, Validated};

pub struct Args {
    pub out: PathBuf,
    pub seeds: u64,
    pub points: Vec<String>,
    pub experiment: String,
    /// The experiment's text before its `[sweep]`.
    pub base: String,
}

/// One point: the validated experiment, its K, the gap g between a burst's
/// messages and the class's fluid model on the n-cube.
pub struct Point {
    pub v: Validated,
    pub streams: usize,
    pub gap: f64,
    pub cube: CubeBurstClass,
    /// Best-effort messages a node creates a cycle (read by `cube_be_links`
    /// only).
    #[allow(dead_code)]
    pub be_rate: f64,
}

impl Args {
    pub fn parse(name: &str) -> anyhow::Result<Args> {
        Self::parse_points(name, "K:I_US")
    }

    /// The same command line with points written `syntax` (the usage
    /// line's), for examples whose points are not ON/OFF ones.
    pub fn parse_points(name: &str, syntax: &str) -> anyhow::Result<Args> {
        let usage = format!("usage: {name} EXPERIMENT OUT_DIR --seeds S {syntax}...");
        let mut args: Vec<String> = std::env::args().skip(1).collect();
        let i = args.iter().position(|a| a == "--seeds").ok_or_else(|| anyhow::anyhow!("{usage}"))?;
        anyhow::ensure!(i + 1 < args.len(), "--seeds needs a value");
        let seeds: u64 = args[i + 1].parse()?;
        args.drain(i..=i + 1);
        anyhow::ensure!(args.len() >= 3 && seeds >= 1, "{usage}");
        let base = std::fs::read_to_string(&args[0])?.split("[sweep]").next().unwrap().to_string();
        Ok(Args { out: PathBuf::from(&args[1]), seeds, points: args[2..].to_vec(), experiment: args[0].clone(), base })
    }

    pub fn point(&self, point: &str) -> anyhow::Result<Point> {
        let (k, off) = point.split_once(':').ok_or_else(|| anyhow::anyhow!("{point}: not K:I_us"))?;
        let streams: usize = k.parse()?;
        let mut v = Experiment::from_str(&self.base, &self.experiment, PathBuf::new())?;
        v.exp.workload.onoff_streams = streams as u32;
        v.exp.workload.onoff_mean_off_us = off.parse()?;
        let offered = v.offered()?;
        let o = offered.onoff[0].clone();
        let be_rate = offered.phases[0].best_effort / v.exp.workload.class_flits(0) as f64;
        let n = v.net.ports_needed - 1;
        let class = BurstClass { ports: 1 << n, streams, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        Ok(Point { v, streams, gap: o.gap, cube: CubeBurstClass { n, class }, be_rate })
    }
}

/// A `LOAD:RT:BE` point of the experiment text `base` (its `[sweep]`
/// dropped): workload.load and the two real-time classes' shares of
/// workload.mix (`cube_be_parts`, `cube_be_ejection`, `cube_hop_parts`).
#[allow(dead_code)]
pub fn load_mix_point(base: &str, experiment: &str, point: &str) -> anyhow::Result<Validated> {
    let f: Vec<f64> = point.split(':').map(str::parse).collect::<Result<_, _>>().map_err(|e| anyhow::anyhow!("{point}: {e} (want LOAD:RT:BE)"))?;
    anyhow::ensure!(f.len() == 3, "{point}: want LOAD:RT:BE");
    let mut v = Experiment::from_str(base, experiment, PathBuf::new())?;
    v.exp.workload.load = f[0];
    v.exp.workload.mix = [f[1], f[2]];
    Ok(v)
}

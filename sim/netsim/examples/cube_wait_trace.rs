//! The 6-cube's source-backlog row against the simulated waits, message by
//! message (docs/reproduction.md, "The two waits measured"): for each
//! point `K:I_us` of an ON/OFF hypercube experiment and seeds 1 to S, every
//! delivered real-time message created after the warm-up
//! (`Sim::run_logged_all`) is split into the two waits
//! `kim2005_cube_source_backlog` merges:
//!
//! - S, its wait behind its own source's earlier messages: from its
//!   creation to the cycle it took its source's real-time VC
//!   (`SourceVc::started`; the class has one VC, taken when the previous
//!   message's tail has left);
//! - N, the network's wait once it holds that VC: from `started` to its
//!   tail's delivery, less the fewest cycles any real-time message with
//!   the same number of hops took for that (the pipeline and its 32
//!   flits), so the credits it waited for at the source and every hold-up
//!   in the network.
//!
//! S + N is the message's whole burst- and packet-scale wait (its latency
//! less that minimum). Writes `<out>/cube_waits.csv`, one row per point
//! (the columns are defined where they are written), and prints it.
//!
//! cargo run --release -p wormqos-netsim --example cube_wait_trace -- \
//!     experiments/fig12b_000_onoff_cube6_bursts_seeds.toml \
//!     experiments/results/cube_wait_trace --seeds 10 1:173.6 2:373.6 4:773.6 14:2773.6

#[path = "cube_trace/dist.rs"]
mod dist;
#[path = "cube_trace/points.rs"]
mod points;

use dist::independent_max;
use points::{Args, Point};
use std::fmt::Write as _;
use wormqos_netsim::analytic::onoff_fluid::expected_max_of_exponentials;
use wormqos_netsim::network::Sim;

/// The real-time class (`vc_classes = [1, 0]`).
const RT_CLASS: u8 = 1;

/// One message's two waits, in cycles.
#[derive(Clone, Copy)]
struct Waits {
    s: u64,
    n: u64,
}

/// Mean, coefficient of variation (standard deviation over mean; an
/// exponential wait has 1) and the fraction of exact zeros.
fn shape(x: &[u64]) -> (f64, f64, f64) {
    let len = x.len().max(1) as f64;
    let mean = x.iter().sum::<u64>() as f64 / len;
    let var = x.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / len;
    let zeros = x.iter().filter(|&&v| v == 0).count() as f64 / len;
    (mean, if mean > 0.0 { var.sqrt() / mean } else { 0.0 }, zeros)
}

/// Pearson correlation of S and N over the messages.
fn correlation(w: &[Waits]) -> f64 {
    let len = w.len().max(1) as f64;
    let (ms, mn) = (w.iter().map(|x| x.s as f64).sum::<f64>() / len, w.iter().map(|x| x.n as f64).sum::<f64>() / len);
    let cov = w.iter().map(|x| (x.s as f64 - ms) * (x.n as f64 - mn)).sum::<f64>() / len;
    let vs = w.iter().map(|x| (x.s as f64 - ms).powi(2)).sum::<f64>() / len;
    let vn = w.iter().map(|x| (x.n as f64 - mn).powi(2)).sum::<f64>() / len;
    cov / (vs * vn).sqrt()
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse("cube_wait_trace")?;
    let seeds = args.seeds;
    let mut csv = String::from(
        "point,streams,gap_cycles,seeds,messages,s_mean,s_cv,s_zero,n_mean,n_cv,n_zero,correlation,\
         sum_mean,max_paired,max_independent,max_formula_means,n0_mean,n0_cv,max_independent_n0,\
         max_formula_n0,row_s,row_n,row_max\n",
    );
    for point in &args.points {
        let Point { mut v, streams, gap, cube, .. } = args.point(point)?;
        let n = cube.n;
        let tandem = cube.coupled_delay()?;
        let warmup = v.run_cycles().1;
        // (hops, S, started → delivered) of every measured message.
        let mut raw: Vec<(u32, u64, u64)> = Vec::new();
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let (_, log) = Sim::new(&v)?.run_logged_all()?;
            raw.extend(log.iter().filter(|m| m.class == RT_CLASS && m.created >= warmup).map(|m| {
                ((m.src ^ m.dest).count_ones(), m.source.started - m.created, m.delivered - m.source.started)
            }));
        }
        let mut fewest = vec![u64::MAX; n + 1];
        raw.iter().for_each(|&(h, _, d)| fewest[h as usize] = fewest[h as usize].min(d));
        let waits: Vec<Waits> = raw.iter().map(|&(h, s, d)| Waits { s, n: d - fewest[h as usize] }).collect();
        let s: Vec<u64> = waits.iter().map(|w| w.s).collect();
        let nn: Vec<u64> = waits.iter().map(|w| w.n).collect();
        // N of the messages that found their source idle (S = 0): the
        // network's wait from arrival, unshortened by a wait at the source.
        let n0: Vec<u64> = waits.iter().filter(|w| w.s == 0).map(|w| w.n).collect();
        let ((sm, scv, sz), (nm, ncv, nz), (n0m, n0cv, _)) = (shape(&s), shape(&nn), shape(&n0));
        let len = waits.len().max(1) as f64;
        let sum = waits.iter().map(|w| (w.s + w.n) as f64).sum::<f64>() / len;
        let paired = waits.iter().map(|w| w.s.max(w.n) as f64).sum::<f64>() / len;
        writeln!(
            csv,
            "{point},{streams},{:.1},{seeds},{},{sm:.4},{scv:.4},{sz:.4},{nm:.4},{ncv:.4},{nz:.4},{:.4},{sum:.4},{paired:.4},{:.4},{:.4},{n0m:.4},{n0cv:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
            gap,
            waits.len(),
            correlation(&waits),
            independent_max(&s, &nn),
            expected_max_of_exponentials(sm, nm),
            independent_max(&s, &n0),
            expected_max_of_exponentials(sm, n0m),
            tandem.source_link,
            tandem.destination_link,
            expected_max_of_exponentials(tandem.source_link, tandem.destination_link),
        )?;
    }
    print!("{csv}");
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("cube_waits.csv"), csv)?;
    Ok(())
}

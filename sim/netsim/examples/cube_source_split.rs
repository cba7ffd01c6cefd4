//! The 6-cube's source wait split into its two backlogs, message by message
//! (docs/reproduction.md, "The network links without the source's backlog"):
//! `kim2005_cube_held` takes the source part as E[max(S, P)] of the
//! injection link's own backlog S and the backlog P pushed back from the
//! network. For each point `K:I_us` and seeds 1 to S, every delivered
//! real-time message created after the warm-up (`Sim::run_logged_all`) has
//! its source wait W (creation to its header leaving) split cycle by cycle:
//!
//! - P, the cycles in which its source's real-time VC held a message with
//!   flits to send and no credit (the first router's input buffer full:
//!   the network holding the source back; `SourceVc::credit_stalled`);
//! - S = W − P, the cycles in which that VC had a credit, so (the class is
//!   the highest and has one VC) the source sent a flit of one of its own
//!   earlier messages: its wait behind them on the injection link.
//!
//! Checked per message (else it exits 1): P ≤ W, and P ≥ the cycles its
//! own header waited without a credit (`HeaderWait::header_no_credit`,
//! counted apart from P), equal to them when it found the VC free (S = 0
//! before it took the VC, no earlier message to wait behind).
//!
//! Writes `<out>/cube_source_split.csv`, one row per point (columns below,
//! cycles per message over all seeds' messages), and prints it:
//! `messages`; `w_mean`, `s_mean`, `p_mean`; `w_positive`, `s_positive`,
//! `p_positive`, `both_positive` (fractions of the messages with W, S, P,
//! and S and P both > 0); `both_if_independent` (s_positive·p_positive);
//! `both_of_waiting` (both_positive / w_positive); `correlation` (Pearson,
//! S with P); `max_paired` (mean of max(S, P)), `min_paired` (mean of
//! min(S, P): the overlap of the two, W = max + min);
//! `max_independent` (S and P drawn independently from their measured
//! distributions, Σ_t (1 − F_S(t)·F_P(t))).
//!
//! cargo run --release -p wormqos-netsim --example cube_source_split -- \
//!     experiments/fig12b_000_onoff_cube6_bursts_seeds.toml \
//!     experiments/results/cube_source_split --seeds 10 1:173.6 2:373.6 4:773.6 14:2773.6

#[path = "cube_trace/dist.rs"]
mod dist;
// `Point::cube` (the fluid model) is not read here: the model's S and P
// are in `cube_held.csv`.
#[allow(dead_code)]
#[path = "cube_trace/points.rs"]
mod points;

use dist::independent_max;
use points::{Args, Point};
use std::fmt::Write as _;
use wormqos_netsim::network::{MessageLog, Sim};

/// The real-time class (`vc_classes = [1, 0]`).
const RT_CLASS: u8 = 1;

/// One message's source wait split: (S, P).
fn split(m: &MessageLog) -> anyhow::Result<(u64, u64)> {
    let w = m.injected - m.created;
    let p = m.source.credit_stalled;
    let own = m.source.before_header.header_no_credit as u64;
    anyhow::ensure!(p <= w, "message of flow {} created {}: P = {p} > W = {w}", m.flow, m.created);
    anyhow::ensure!(p >= own, "message of flow {} created {}: P = {p} < its header's {own}", m.flow, m.created);
    anyhow::ensure!(m.source.started != m.created || p == own, "message of flow {} created {} found its VC free: P = {p} ≠ its header's {own}", m.flow, m.created);
    Ok((w - p, p))
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse("cube_source_split")?;
    let seeds = args.seeds;
    let mut csv = String::from(
        "point,streams,gap_cycles,seeds,messages,w_mean,s_mean,p_mean,w_positive,s_positive,p_positive,both_positive,\
         both_if_independent,both_of_waiting,correlation,max_paired,min_paired,max_independent\n",
    );
    for point in &args.points {
        let Point { mut v, streams, gap, .. } = args.point(point)?;
        let warmup = v.run_cycles().1;
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let (_, log) = Sim::new(&v)?.run_logged_all()?;
            for m in log.iter().filter(|m| m.class == RT_CLASS && m.created >= warmup) {
                pairs.push(split(m)?);
            }
        }
        let len = pairs.len().max(1) as f64;
        let mean = |f: &dyn Fn(&(u64, u64)) -> f64| pairs.iter().map(f).sum::<f64>() / len;
        let (sm, pm) = (mean(&|x| x.0 as f64), mean(&|x| x.1 as f64));
        let frac = |f: &dyn Fn(&(u64, u64)) -> bool| pairs.iter().filter(|x| f(x)).count() as f64 / len;
        let (wp, sp, pp, bp) = (frac(&|x| x.0 + x.1 > 0), frac(&|x| x.0 > 0), frac(&|x| x.1 > 0), frac(&|x| x.0 > 0 && x.1 > 0));
        let cov = mean(&|x| (x.0 as f64 - sm) * (x.1 as f64 - pm));
        let (vs, vp) = (mean(&|x| (x.0 as f64 - sm).powi(2)), mean(&|x| (x.1 as f64 - pm).powi(2)));
        let s: Vec<u64> = pairs.iter().map(|x| x.0).collect();
        let p: Vec<u64> = pairs.iter().map(|x| x.1).collect();
        writeln!(
            csv,
            "{point},{streams},{gap:.1},{seeds},{},{:.4},{sm:.4},{pm:.4},{wp:.4},{sp:.4},{pp:.4},{bp:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
            pairs.len(),
            sm + pm,
            sp * pp,
            bp / wp,
            cov / (vs * vp).sqrt(),
            mean(&|x| x.0.max(x.1) as f64),
            mean(&|x| x.0.min(x.1) as f64),
            independent_max(&s, &p),
        )?;
    }
    print!("{csv}");
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("cube_source_split.csv"), csv)?;
    Ok(())
}

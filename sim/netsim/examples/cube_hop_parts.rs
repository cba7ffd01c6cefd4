//! Where in the 6-cube each class's blocking and sharing (network latency
//! less the transfer time T) arises, router by router, beside the model's
//! terms for the same places (docs/reproduction.md, "Where R1's extra
//! blocking arises in the 6-cube (issue 22)"). For each point `LOAD:RT:BE`
//! (workload.load and workload.mix) of a Poisson hypercube experiment with
//! one VC per class, and seeds 1 to S, one run per seed
//! (`Sim::run_hop_trace`) gives every message created after the warm-up
//! its routers in path order: router 0 its source's, router h its
//! destination's (h = Hamming distance), the ones between the middle.
//! Per class, means per message:
//!
//! - `sim_excess`: network latency − T, T = 4 + 5 h + 32 (the message
//!   alone, `tests/transfer_time.rs`); it is the sum of the eight parts
//!   below (checked per message);
//! - `sim_hdr_{source,middle,dest}`: the header's cycles at that router
//!   beyond a lone header's (4 at the source router from the injection,
//!   5 at each later one: `tests/hop_trace.rs`), middle summed over the
//!   middle routers;
//! - `sim_va_*`: of those, the cycles waiting for the class's output VC
//!   (ROUTED beyond its one cycle);
//! - `sim_body_{injection,source,middle,dest}`: the cycles the message's
//!   tail fell further behind its header on that link (the injection link,
//!   and the output link of each router): the gap header → tail less 31 on
//!   the injection link, then each router's gap less the one before it;
//! - `sim_flits_{source,middle,dest}_{c}`: flits of class c's VC the output
//!   link carried while the header waited there (from its first ROUTED
//!   cycle to its crossing): its own class's are the message it waited for
//!   the VC behind, the others those it shared the link with;
//! - `model_*`: the model's (`kim2005_cube`, the experiment's plan) L̄_c − T
//!   and the terms of Eq. (10) at the same places, averaged over the first
//!   channels s with the class's weights λ'_{c,s}/λ'_c: `model_input`
//!   I S_s (the first router), `model_middle` B_middle S_s, and at the
//!   destination `model_ejection_blocking` O S_n and
//!   `model_ejection_sharing` M (S_n − 1) (the body's stretch: the only
//!   place Eq. 10 lets the message's flits be slowed);
//! - `sim_pwait_*`: the share of router visits at that place whose header
//!   waited in ROUTED beyond the VA cycle, beside the model's blocking
//!   probabilities P_b (Eq. 3: ρ^(1 + 2 max(b_s, M)/M)), `model_pb_hop`
//!   averaged over the n hop channels and `model_pb_ejection`.
//!
//! Writes `<out>/cube_hop_parts.csv`, one row per point and class, and
//! prints it.
//!
//! cargo run --release -p wormqos-netsim --example cube_hop_parts -- \
//!     experiments/fig7_000_cube6.toml experiments/results/cube_hop_parts \
//!     --seeds 2 0.112:0.048:0.064 0.256:0.192:0.064

use std::fmt::Write as _;
use wormqos_netsim::analytic::predict::{self, Plan};
use wormqos_netsim::network::Sim;
use wormqos_netsim::topology::Peer;

#[allow(dead_code)]
#[path = "cube_trace/points.rs"]
mod points;
use points::Args;

/// A lone header's cycles at its source router (from its injection) and
/// at each later router (`tests/hop_trace.rs`).
const LONE_FIRST: u64 = 4;
const LONE_LATER: u64 = 5;

/// Where on the path: the source's router, a middle one, the destination's.
const PLACES: [&str; 3] = ["source", "middle", "dest"];

/// Per-class sums over the messages.
#[derive(Default, Clone)]
struct Sums {
    messages: u64,
    excess: i64,
    hdr: [i64; 3],
    va: [i64; 3],
    body_injection: i64,
    body: [i64; 3],
    /// [place][VC]
    flits: [[u64; wormqos_netsim::hop_trace::MAX_TRACED_VCS]; 3],
    /// Router visits at each place, and those whose header waited in
    /// ROUTED beyond the VA cycle.
    visits: [u64; 3],
    waited: [u64; 3],
}

fn main() -> anyhow::Result<()> {
    let Args { out, seeds, points, experiment, base } = Args::parse_points("cube_hop_parts", "LOAD:RT:BE")?;
    let mut csv = String::from("point,class,seeds,messages,sim_excess,sim_hdr_source,sim_hdr_middle,sim_hdr_dest,sim_va_source,sim_va_middle,sim_va_dest,sim_body_injection,sim_body_source,sim_body_middle,sim_body_dest");
    // Flit columns by the class of the VC (one VC per class).
    let mut flit_cols = Vec::new();
    for p in PLACES {
        for c in [2u8, 1, 0] {
            flit_cols.push((p, c));
            write!(csv, ",sim_flits_{p}_{c}")?;
        }
    }
    csv += ",sim_pwait_source,sim_pwait_middle,sim_pwait_dest,model_excess,model_input,model_middle,model_ejection_blocking,model_ejection_sharing,model_pb_hop,model_pb_ejection\n";
    for point in &points {
        let mut v = points::load_mix_point(&base, &experiment, point)?;
        let Plan::Cube { model, classes: model_classes, .. } = predict::plan(&v)? else { anyhow::bail!("{experiment}: not a hypercube") };
        let sol = model.solve().map_err(|e| anyhow::anyhow!("{point}: model {e:?}"))?;
        let cfg = &v.configs[0];
        let vc_class = cfg.vc_classes().ok_or_else(|| anyhow::anyhow!("{experiment}: one VC per class (router.vc_classes)"))?.to_vec();
        anyhow::ensure!(vc_class.len() == cfg.vcs() && vc_class.len() <= wormqos_netsim::hop_trace::MAX_TRACED_VCS, "{experiment}: one VC per class, at most 4");
        for r in 0..v.net.routers {
            anyhow::ensure!(matches!(v.net.out_link[r][0], Peer::Endpoint(e) if e == r), "router {r}: port 0 is not endpoint {r}");
        }
        let warmup = v.run_cycles().1;
        let mut sums = vec![Sums::default(); 3];
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let (_, log, traces) = Sim::new(&v)?.run_hop_trace()?;
            anyhow::ensure!(log.len() == traces.len(), "{} messages, {} traces", log.len(), traces.len());
            for (m, hops) in log.iter().zip(&traces) {
                if m.created < warmup {
                    continue;
                }
                let h = (m.src ^ m.dest).count_ones() as usize;
                anyhow::ensure!(hops.len() == h + 1, "message {} -> {}: {} routers traced, {h} hops", m.src, m.dest, hops.len());
                anyhow::ensure!(m.delivered == hops[h].tail_left + 1, "message {} -> {}: delivered {}, tail left {}", m.src, m.dest, m.delivered, hops[h].tail_left);
                let s = &mut sums[m.class as usize];
                s.messages += 1;
                let t = 4 + 5 * h as i64 + m.flits as i64;
                let excess = (m.delivered - m.injected) as i64 - t;
                s.excess += excess;
                let mut parts = 0;
                // The header's arrival at router k: its injection, or its
                // crossing of router k − 1's output link.
                let (mut arrived, mut gap) = (m.injected, m.source.tail_sent as i64 - m.injected as i64);
                let body = gap - (m.flits as i64 - 1);
                s.body_injection += body;
                parts += body;
                for (k, hop) in hops.iter().enumerate() {
                    let place = if k == 0 { 0 } else if k == h { 2 } else { 1 };
                    let lone = if k == 0 { LONE_FIRST } else { LONE_LATER };
                    let hdr = (hop.header_left - arrived) as i64 - lone as i64;
                    let here = hop.tail_left as i64 - hop.header_left as i64;
                    s.hdr[place] += hdr;
                    s.va[place] += hop.routed as i64 - 1;
                    s.visits[place] += 1;
                    s.waited[place] += (hop.routed > 1) as u64;
                    s.body[place] += here - gap;
                    parts += hdr + here - gap;
                    for (u, &n) in hop.flits_by_vc.iter().enumerate() {
                        s.flits[place][u] += n as u64;
                    }
                    arrived = hop.header_left;
                    gap = here;
                }
                anyhow::ensure!(parts == excess, "message {} -> {}: parts {parts}, excess {excess}", m.src, m.dest);
            }
        }
        for (mi, &class) in model_classes.iter().enumerate() {
            let s = &sums[class as usize];
            let n = s.messages.max(1) as f64;
            let per = |x: i64| x as f64 / n;
            write!(
                csv,
                "{point},{class},{seeds},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}",
                s.messages,
                per(s.excess),
                per(s.hdr[0]),
                per(s.hdr[1]),
                per(s.hdr[2]),
                per(s.va[0]),
                per(s.va[1]),
                per(s.va[2]),
                per(s.body_injection),
                per(s.body[0]),
                per(s.body[1]),
                per(s.body[2])
            )?;
            for &(p, c) in &flit_cols {
                let place = PLACES.iter().position(|&q| q == p).unwrap();
                let u = vc_class.iter().position(|&k| k == c as u32).ok_or_else(|| anyhow::anyhow!("no VC of class {c}"))?;
                write!(csv, ",{:.3}", s.flits[place][u] as f64 / n)?;
            }
            for p in 0..3 {
                write!(csv, ",{:.4}", s.waited[p] as f64 / s.visits[p].max(1) as f64)?;
            }
            let c = &sol.classes[mi];
            let avg = |f: &dyn Fn(usize) -> f64| (0..model.n).map(|s| c.first_channel_weight[s] * f(s)).sum::<f64>();
            let t = &c.parts;
            writeln!(
                csv,
                ",{:.3},{:.3},{:.3},{:.3},{:.3},{:.6},{:.6}",
                c.network_latency - model.transfer_time(mi),
                avg(&|s| t[s].input_blocking_cycles()),
                avg(&|s| t[s].middle_blocking_cycles()),
                avg(&|s| t[s].ejection_blocking_cycles()),
                avg(&|s| t[s].ejection_transfer_cycles() - t[s].message),
                c.blocking_prob[..model.n].iter().sum::<f64>() / model.n as f64,
                c.blocking_prob[model.n],
            )?;
        }
    }
    print!("{csv}");
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("cube_hop_parts.csv"), csv)?;
    Ok(())
}

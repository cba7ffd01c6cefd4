//! Best effort's message term at the ejection, term by term against 000_…'s
//! ejection form (§3.2.1: S_m(n) = (M_s + M_s ρ_r) Π_0 + (M_s/2 + Busy +
//! M/2)(1 + ρ_r)(1 − Π_0), Busy = (1/λ_r)(1 − Π_0)/Π_0), docs/reproduction.md
//! "The ejection form's excess, term by term (issue 22)". For each point
//! `LOAD:RT:BE` of a Poisson hypercube experiment with one VC per class
//! and seeds 1 to S, one run per seed (`Sim::run_hop_trace_probed`)
//! follows every best-effort message created after the warm-up to its
//! destination's router:
//!
//! - `ms`: its effective length as it arrives there, the paper's M_s (the
//!   cycles from its header's crossing of the last hop link to its
//!   tail's, plus one);
//! - `ejection`: the same on the ejection link (the message term M S_n of
//!   Eq. 10: the header's delivery to the tail's, both counted);
//! - `busy`: whether a real-time output VC of the ejection port was
//!   allocated in the cycle its header crossed into the router (the form's
//!   "arrives during a busy period"; the model's Π_0 is the chance none is),
//!   and then `residual`, the cycles until none was;
//! - `rt_flits`: real-time flits the ejection link carried between its
//!   header's and its tail's crossings.
//!
//! Per group (idle and busy arrivals, then all) the means, and the form's
//! terms with the measured inputs: Π_0 and λ_r of the ejection ports
//! (cycles with no real-time VC allocated; real-time headers ejected a
//! port-cycle), ρ_r = 1 − Π_0 as the model takes it, M_s the group's
//! measured mean; for all messages also the form with ρ_r the ejection
//! link's measured real-time flit share (`rt_util_ejection`) in place of
//! 1 − Π_0 (`form_term_link_share`). Writes `<out>/cube_be_ejection.csv`, one row per point and
//! group, and prints it.
//!
//! cargo run --release -p wormqos-netsim --example cube_be_ejection -- \
//!     experiments/fig7_000_cube6.toml experiments/results/cube_be_ejection \
//!     --seeds 2 0.256:0.192:0.064

use std::fmt::Write as _;
use wormqos_netsim::network::Sim;
use wormqos_netsim::topology::Peer;
use wormqos_sim::Router;

#[allow(dead_code)]
#[path = "cube_trace/points.rs"]
mod points;
use points::Args;

const BE_CLASS: u32 = 0;

/// Per router, one bit per cycle.
struct Bits(Vec<Vec<u64>>);

impl Bits {
    fn new(routers: usize, cycles: u64) -> Bits {
        Bits(vec![vec![0; cycles as usize / 64 + 2]; routers])
    }
    fn set(&mut self, r: usize, c: u64) {
        self.0[r][c as usize / 64] |= 1 << (c % 64);
    }
    fn get(&self, r: usize, c: u64) -> bool {
        self.0[r].get(c as usize / 64).is_some_and(|w| w >> (c % 64) & 1 == 1)
    }
}

/// Sums over one group of messages.
#[derive(Default, Clone, Copy)]
struct Group {
    messages: u64,
    ms: u64,
    ejection: u64,
    residual: u64,
    rt_flits: u64,
}

fn main() -> anyhow::Result<()> {
    let Args { out, seeds, points, experiment, base } = Args::parse_points("cube_be_ejection", "LOAD:RT:BE")?;
    let mut csv = String::from("point,seeds,group,messages,share,sim_ms,sim_ejection,sim_residual,sim_rt_flits,pi0_ejection,lambda_r_ejection,form_busy,form_term,form_term_measured_residual,rt_util_ejection,form_term_link_share\n");
    for point in &points {
        let mut v = points::load_mix_point(&base, &experiment, point)?;
        let cfg = &v.configs[0];
        let classes = cfg.vc_classes().ok_or_else(|| anyhow::anyhow!("{experiment}: one VC per class (router.vc_classes)"))?.to_vec();
        anyhow::ensure!(classes.len() == cfg.vcs(), "{experiment}: one VC per class (router.vc_classes)");
        let rt_vcs: Vec<usize> = (0..classes.len()).filter(|&u| classes[u] != BE_CLASS).collect();
        for r in 0..v.net.routers {
            anyhow::ensure!(matches!(v.net.out_link[r][0], Peer::Endpoint(e) if e == r), "router {r}: port 0 is not endpoint {r}");
        }
        let (total, warmup) = v.run_cycles();
        let m_be = v.exp.workload.class_flits(0) as f64;
        let mut groups = [Group::default(); 2];
        let (mut port_cycles, mut idle_cycles, mut rt_headers, mut rt_flits) = (0u64, 0u64, 0u64, 0u64);
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let routers = v.net.routers;
            // The probe's cycle is the one after the step it follows.
            let (mut held, mut rt_flit) = (Bits::new(routers, total + 1), Bits::new(routers, total + 1));
            let mut observe = |c: u64, rs: &[Router]| {
                let now = c - 1;
                for (r, router) in rs.iter().enumerate() {
                    let any = rt_vcs.iter().any(|&u| router.allocated(0, u));
                    if any {
                        held.set(r, now);
                    }
                    let fl = &router.outputs().flits[0];
                    let rt = fl.valid && rt_vcs.contains(&(fl.vc as usize));
                    if rt {
                        rt_flit.set(r, now);
                    }
                    if now >= warmup && now < total {
                        port_cycles += 1;
                        idle_cycles += !any as u64;
                        rt_headers += (rt && fl.head) as u64;
                        rt_flits += rt as u64;
                    }
                }
            };
            let (_, log, traces) = Sim::new(&v)?.run_hop_trace_probed(&mut observe)?;
            for (m, hops) in log.iter().zip(&traces) {
                let h = (m.src ^ m.dest).count_ones() as usize;
                if m.class as u32 != BE_CLASS || m.created < warmup || h == 0 {
                    continue;
                }
                anyhow::ensure!(hops.len() == h + 1, "message {} -> {}: {} routers traced", m.src, m.dest, hops.len());
                let (last, ej) = (hops[h - 1], hops[h]);
                let d = m.dest as usize;
                let arrived = last.header_left;
                let busy = held.get(d, arrived);
                let g = &mut groups[busy as usize];
                g.messages += 1;
                g.ms += last.tail_left - last.header_left + 1;
                g.ejection += ej.tail_left - ej.header_left + 1;
                let mut c = arrived;
                while held.get(d, c) && c <= total {
                    c += 1;
                }
                g.residual += c - arrived;
                g.rt_flits += (ej.header_left..=ej.tail_left).filter(|&t| rt_flit.get(d, t)).count() as u64;
            }
        }
        let pi0 = idle_cycles as f64 / port_cycles.max(1) as f64;
        let lam = rt_headers as f64 / port_cycles.max(1) as f64;
        let rho = 1.0 - pi0;
        let busy_form = if lam > 0.0 { (1.0 / lam) * rho / pi0 } else { 0.0 };
        // The same form with ρ_r the link's measured real-time flit share
        // (Π_0 = 1 − ρ_r): the real-time VCs' holding beyond their flits
        // taken out.
        let util = rt_flits as f64 / port_cycles.max(1) as f64;
        let link_form = |ms: f64| {
            let b = if lam > 0.0 { (1.0 / lam) * util / (1.0 - util) } else { 0.0 };
            (1.0 - util) * ms * (1.0 + util) + util * (ms / 2.0 + b + m_be / 2.0) * (1.0 + util)
        };
        let all = Group {
            messages: groups[0].messages + groups[1].messages,
            ms: groups[0].ms + groups[1].ms,
            ejection: groups[0].ejection + groups[1].ejection,
            residual: groups[0].residual + groups[1].residual,
            rt_flits: groups[0].rt_flits + groups[1].rt_flits,
        };
        let mean = |g: &Group, x: u64| x as f64 / g.messages.max(1) as f64;
        // The form's term for each group with its measured M_s: idle
        // M_s (1 + ρ_r); busy (M_s/2 + Busy + M/2)(1 + ρ_r), with the
        // form's Busy and with the measured residual; all: the form itself,
        // weighted Π_0 and 1 − Π_0, M_s the mean over all messages.
        let idle_term = |ms: f64| ms * (1.0 + rho);
        let busy_term = |ms: f64, b: f64| (ms / 2.0 + b + m_be / 2.0) * (1.0 + rho);
        for (name, g) in [("idle", &groups[0]), ("busy", &groups[1]), ("all", &all)] {
            let ms = mean(g, g.ms);
            let (term, term_measured) = match name {
                "idle" => (idle_term(ms), idle_term(ms)),
                "busy" => (busy_term(ms, busy_form), busy_term(ms, mean(g, g.residual))),
                _ => (pi0 * idle_term(ms) + (1.0 - pi0) * busy_term(ms, busy_form), pi0 * idle_term(ms) + (1.0 - pi0) * busy_term(ms, mean(&groups[1], groups[1].residual))),
            };
            writeln!(
                csv,
                "{point},{seeds},{name},{},{:.4},{ms:.3},{:.3},{:.3},{:.3},{pi0:.4},{lam:.5},{busy_form:.3},{term:.3},{term_measured:.3},{util:.4},{}",
                g.messages,
                g.messages as f64 / all.messages.max(1) as f64,
                mean(g, g.ejection),
                mean(g, g.residual),
                mean(g, g.rt_flits),
                if name == "all" { format!("{:.3}", link_form(ms)) } else { String::new() },
            )?;
        }
    }
    print!("{csv}");
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("cube_be_ejection.csv"), csv)?;
    Ok(())
}

//! The 6-cube's ON/OFF real-time class link by link (docs/reproduction.md,
//! "The hypercube's tandem row link by link"): for each point `K:I_us` of
//! an ON/OFF hypercube experiment and seeds 1 to S, every router's
//! real-time input VCs are watched between cycles (`Sim::run_probed`) and
//! each real-time header's time there is charged to the link it left on:
//! the hop link of dimension d (output port 1 + d) or the ejection link
//! (output port 0). Beside each link, the tandem row's prediction for it
//! (`CubeBurstClass::coupled_network_parts`), and the injection link (the
//! simulated source wait) beside `coupled_delay`'s fluid part.
//! Writes `<out>/cube_links.csv`, one row per point and link:
//!
//! - `sim_total`, `sim_source_wait`, `sim_network`: the real-time means
//!   over the seeds (the sweep's, for the same seeds and cycles);
//! - `headers_per_message`: real-time headers that left on this link per
//!   delivered real-time message (the probability a message crosses it);
//! - `min_routed`, `sim_routed_wait`, `sim_routed_weighted`: the fewest
//!   cycles any header spent in ROUTED (waiting for the output VC), their
//!   mean beyond it, and that mean per message (× the headers per message);
//! - `min_stay`, `sim_stay`, `sim_stay_weighted`: the same for a header's
//!   stay in the input buffer, from the cycle it entered to the cycle it
//!   left (behind the messages ahead of it in the input VC, in ROUTED,
//!   and waiting for credits);
//! - `sim_busy`: the fraction of cycles the link's real-time output VC was
//!   allocated, `sim_hold` the mean cycles of one allocation;
//! - `model_weighted`: the tandem row's cycles per message for the link.
//!
//! cargo run --release -p wormqos-netsim --example cube_link_trace -- \
//!     experiments/fig12b_000_onoff_cube6_bursts_seeds.toml \
//!     experiments/results/cube_link_trace --seeds 10 1:173.6 2:373.6 4:773.6 14:2773.6

#[path = "cube_trace/points.rs"]
mod points;

use points::{Args, Point};
use std::fmt::Write as _;
use wormqos_netsim::network::Sim;
use wormqos_sim::{Router, VcState};

/// The real-time class's VC (`vc_classes = [1, 0]`: VC 0 is class 1).
const RT_VC: usize = 0;

/// Per output port (0 the ejection link, 1 + d the hop link of
/// dimension d), summed over every router.
#[derive(Clone, Default)]
struct LinkCounters {
    /// `waits[c]`: real-time headers that spent c cycles in ROUTED.
    waits: Vec<u64>,
    /// `stays[c]`: real-time headers that left the input buffer c cycles
    /// after they entered it (behind the messages ahead of them in the
    /// same input VC, in ROUTED, and waiting for credits).
    stays: Vec<u64>,
    busy_cycles: u64,
    holds: u64,
    hold_cycles: u64,
}

struct Probe {
    from: u64,
    ports: usize,
    cycles: u64,
    links: Vec<LinkCounters>,
    /// Per (router, input port): the cycle its real-time VC's header
    /// entered ROUTED and the output port it asked for.
    routed: Vec<Option<(u64, usize)>>,
    /// Per (router, output port): the cycle its real-time VC was allocated.
    since: Vec<Option<u64>>,
    /// Per (router, input port): the cycles the real-time headers in its
    /// buffer entered it, oldest first, and the route of the oldest.
    arrivals: Vec<std::collections::VecDeque<u64>>,
    front_route: Vec<Option<usize>>,
    front_was_head: Vec<bool>,
}

fn add(hist: &mut Vec<u64>, c: usize) {
    if hist.len() <= c {
        hist.resize(c + 1, 0);
    }
    hist[c] += 1;
}

impl Probe {
    fn new(routers: usize, ports: usize, from: u64) -> Probe {
        Probe { from, ports, cycles: 0, links: vec![LinkCounters::default(); ports], routed: vec![None; routers * ports], since: vec![None; routers * ports], arrivals: vec![Default::default(); routers * ports], front_route: vec![None; routers * ports], front_was_head: vec![false; routers * ports] }
    }

    fn observe(&mut self, cycle: u64, routers: &[Router]) {
        let counting = cycle >= self.from;
        self.cycles += counting as u64;
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                let i = r * self.ports + p;
                match (router.vc_state(p, RT_VC), self.routed[i]) {
                    (VcState::Routed { route }, None) => self.routed[i] = Some((cycle, route)),
                    (VcState::Routed { .. }, Some(_)) => {}
                    (_, Some((at, o))) => {
                        self.routed[i] = None;
                        if at >= self.from {
                            add(&mut self.links[o].waits, (cycle - at) as usize);
                        }
                    }
                    _ => {}
                }
                self.follow_headers(cycle, router, r, p);
                let held = router.allocated(p, RT_VC);
                if counting && held {
                    self.links[p].busy_cycles += 1;
                }
                match (held, self.since[i]) {
                    (true, None) => self.since[i] = Some(cycle),
                    (false, Some(at)) => {
                        self.since[i] = None;
                        if at >= self.from {
                            self.links[p].holds += 1;
                            self.links[p].hold_cycles += cycle - at;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

impl Probe {
    /// Headers in the real-time input buffer of (router r, port p): the
    /// oldest left it when the buffer's front was a header last cycle and
    /// is not now (a 32-flit message's header is followed by its body,
    /// never by another header), charged to the route it had; the count
    /// beyond those still there entered it now (one flit a cycle per
    /// link, so in one cycle a header may leave and another enter).
    fn follow_headers(&mut self, cycle: u64, router: &Router, r: usize, p: usize) {
        let i = r * self.ports + p;
        let occupancy = router.input_occupancy(p, RT_VC);
        let heads = (0..occupancy).filter(|&k| router.input_flit(p, RT_VC, k).is_some_and(|f| f.head)).count();
        let front_head = router.input_flit(p, RT_VC, 0).is_some_and(|f| f.head) && occupancy > 0;
        let q = &mut self.arrivals[i];
        if self.front_was_head[i] && !front_head {
            let at = q.pop_front().expect("a header left that was seen entering");
            if let (Some(o), true) = (self.front_route[i], at >= self.from) {
                add(&mut self.links[o].stays, (cycle - at) as usize);
            }
            self.front_route[i] = None;
        }
        while heads > q.len() {
            q.push_back(cycle);
        }
        self.front_was_head[i] = front_head;
        if let VcState::Routed { route } | VcState::Active { route, .. } = router.vc_state(p, RT_VC) {
            if front_head {
                self.front_route[i] = Some(route);
            }
        }
    }
}

/// A histogram's count, its lowest value and its mean beyond that value.
fn excess(hist: &[u64]) -> (u64, usize, f64) {
    let count: u64 = hist.iter().sum();
    let min = hist.iter().position(|&x| x > 0).unwrap_or(0);
    let beyond: u64 = hist.iter().enumerate().map(|(c, &x)| (c - min.min(c)) as u64 * x).sum();
    (count, min, beyond as f64 / count.max(1) as f64)
}

/// Adds histogram `hist` into `into`.
fn merge(into: &mut Vec<u64>, hist: &[u64]) {
    if into.len() < hist.len() {
        into.resize(hist.len(), 0);
    }
    for (c, &x) in hist.iter().enumerate() {
        into[c] += x;
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse("cube_link_trace")?;
    let seeds = args.seeds;
    let mut csv = String::from("point,streams,gap_cycles,seeds,link,sim_total,sim_source_wait,sim_network,headers_per_message,min_routed,sim_routed_wait,sim_routed_weighted,min_stay,sim_stay,sim_stay_weighted,sim_busy,sim_hold,model_weighted\n");
    for point in &args.points {
        let Point { mut v, streams, gap, cube, .. } = args.point(point)?;
        let n = cube.n;
        let (model_links, _) = cube.coupled_network_parts()?;
        let model_source = cube.coupled_delay()?.source_link;
        let ports = v.configs[0].ports();
        // Per output port, over the seeds: the ROUTED waits and the
        // buffer stays, the real-time VC's busy fraction, holds.
        let mut all = vec![LinkCounters::default(); ports];
        let mut busy = vec![0.0; ports];
        let (mut total, mut source, mut network) = (0.0, 0.0, 0.0);
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let mut probe = Probe::new(v.net.routers, ports, v.run_cycles().1);
            let mut observe = |c: u64, r: &[Router]| probe.observe(c, r);
            let r = Sim::new(&v)?.run_probed(&mut observe)?;
            let rt = r.classes.iter().find(|c| c.class == 1).ok_or_else(|| anyhow::anyhow!("no real-time class"))?;
            total += rt.network_latency + rt.source_latency;
            source += rt.source_latency;
            network += rt.network_latency;
            for (p, l) in probe.links.iter().enumerate() {
                // One link per router at every output port.
                busy[p] += l.busy_cycles as f64 / probe.cycles as f64 / v.net.routers as f64;
                merge(&mut all[p].waits, &l.waits);
                merge(&mut all[p].stays, &l.stays);
                all[p].holds += l.holds;
                all[p].hold_cycles += l.hold_cycles;
            }
        }
        let s = seeds as f64;
        // Every real-time message ejects once: the ejection port's headers
        // are the messages.
        let messages = excess(&all[0].stays).0.max(1) as f64;
        // The injection link: the source wait, beside the tandem row's.
        writeln!(csv, "{point},{streams},{:.1},{seeds},injection,{:.4},{:.4},{:.4},1.0000,,,,,,{:.4},,,{model_source:.4}", gap, total / s, source / s, network / s, source / s)?;
        for link in 0..=n {
            // Output port 1 + d is dimension d's hop link; port 0 ejects.
            let p = if link == n { 0 } else { 1 + link };
            let name = if link == n { "ejection".to_string() } else { format!("hop{link}") };
            let (headers, min_wait, wait) = excess(&all[p].waits);
            let (stayed, min_stay, stay) = excess(&all[p].stays);
            let per_msg = stayed as f64 / messages;
            let hold = all[p].hold_cycles as f64 / all[p].holds.max(1) as f64;
            writeln!(
                csv,
                "{point},{streams},{:.1},{seeds},{name},{:.4},{:.4},{:.4},{per_msg:.4},{min_wait},{wait:.4},{:.4},{min_stay},{stay:.4},{:.4},{:.4},{hold:.4},{:.4}",
                gap,
                total / s,
                source / s,
                network / s,
                headers as f64 / messages * wait,
                per_msg * stay,
                busy[p] / s,
                model_links[link]
            )?;
        }
    }
    print!("{csv}");
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("cube_links.csv"), csv)?;
    Ok(())
}

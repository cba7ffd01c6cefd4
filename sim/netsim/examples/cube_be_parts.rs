//! The cube's best-effort network latency split into the parts of 000_…'s
//! Eq. (10), simulated beside the model (docs/reproduction.md, "000_… the
//! cube's best effort at heavy load, part by part (issue 22)"). For each
//! point `LOAD:RT:BE` (workload.load and workload.mix) of a Poisson
//! hypercube experiment with one VC per class, and seeds 1 to S, one run
//! per seed (`Sim::run_logged_all_probed`) gives, for the best-effort
//! messages created after the warm-up:
//!
//! - `sim_network`: their network latency (header injected to tail
//!   delivered), and its two halves, which add up to it: `sim_header`,
//!   header injected to the cycle before the header's delivery, and
//!   `sim_body`, the header's delivery to the tail's, both counted (M when
//!   nothing holds the flits behind the header: the paper's M_s, the time
//!   Eq. (10)'s M S_n stands for; the header's own cycle is in M there
//!   too). The header's
//!   delivery is its crossing of the ejection link (output port 0) plus
//!   the constant cycles from a tail's crossing to its delivery, found by
//!   pairing the n-th tail crossing with the n-th delivery at each
//!   destination (one best-effort VC per link: in order);
//! - `sim_pipeline`: the fewest header cycles any message with the same
//!   hop count had (Eq. 10's P − 1 + P h), averaged over the messages;
//! - `sim_wait_source`, `sim_wait_middle`, `sim_wait_ejection`: the cycles
//!   best-effort headers spent in ROUTED (waiting for an output VC) beyond
//!   the fewest any header spent there, per message: at the first router
//!   (input from the endpoint: Eq. 10's I_s S_s), at a middle router
//!   (B_middle S_s) and at the destination (to the ejection port: O S_n);
//! - `sim_header_links`: the header's cycles beyond the pipeline not spent
//!   waiting for a VC (its flit ready behind real-time flits on a link, or
//!   without a credit): no term of Eq. (10);
//! - `sim_hop_transfer`, `sim_ejection_transfer`: per best-effort message
//!   crossing a hop link (output ports 1..=n) or the ejection link, the
//!   cycles from its header's crossing to its tail's plus one (Eq. 13's
//!   S_m(s) and the ejection form S_m(n));
//! - `sim_pi0_hop`, `sim_pi0_ejection`: the share of cycles no real-time
//!   output VC of the port is allocated (the model's Π_0), and
//!   `sim_rt_util_hop`, `sim_rt_util_ejection`: the share the link carries
//!   a real-time flit;
//! - `sim_rt_rate_*`: real-time output VC allocations per port-cycle (the
//!   model's λ_r at a channel), `sim_rt_hold_*`: their mean cycles from
//!   allocation to release (what the model's VC occupancy chain, Eqs 6–8,
//!   takes as L_{c,s}(k));
//! - `eq13_hop_at_sim`, `eq13_ejection_at_sim`: Eq. (13) and its ejection
//!   form (`be_message_cycles`) with the measured Π_0 and λ_r put in, and
//!   at the ejection the measured hop transfer as M_s: how far each form
//!   is off when its inputs are right.
//!
//! Beside them the model's (`kim2005_cube`, the experiment's plan) terms,
//! each averaged over the first channels s with best effort's weights
//! λ'_{C,s}/λ'_C: `model_network`, `model_pipeline`, `model_input`,
//! `model_middle`, `model_ejection_blocking` (the three blocking terms
//! times their S), `model_ejection_transfer` (M S_n), `model_hop_transfer`
//! (M S_s, Eq. 13), `model_pi0_hop` (the channel chains' Π_0),
//! `model_pi0_ejection`, `model_rt_hold` (the real-time classes' L̄_c
//! weighted by their rates: the hold the chains assume). Writes `<out>/cube_be_parts.csv`, one row per
//! point, and prints it.
//!
//! cargo run --release -p wormqos-netsim --example cube_be_parts -- \
//!     experiments/fig7_000_cube6.toml experiments/results/cube_be_parts \
//!     --seeds 4 0.112:0.048:0.064 0.256:0.192:0.064 0.176:0.048:0.128
//!
//! (and `experiments/fig7_000_cube5.toml` into
//! `experiments/results/cube_be_parts_cube5`, --seeds 4 0.256:0.192:0.064)

use std::fmt::Write as _;
use wormqos_netsim::analytic::kim2005_cube::be_message_cycles;
use wormqos_netsim::analytic::predict::{self, Plan};
use wormqos_netsim::network::Sim;
use wormqos_netsim::topology::Peer;
use wormqos_sim::{Router, VcState};

// The command line shared with the 6-cube trace examples (its ON/OFF
// points are not used here).
#[allow(dead_code)]
#[path = "cube_trace/points.rs"]
mod points;
use points::Args;

const BE_CLASS: u8 = 0;

/// Where a best-effort header waits in ROUTED: at its first router, a
/// middle router or its destination.
#[derive(Clone, Copy)]
enum WaitAt {
    Source = 0,
    Middle = 1,
    Ejection = 2,
}

fn add(hist: &mut Vec<u64>, c: usize) {
    if hist.len() <= c {
        hist.resize(c + 1, 0);
    }
    hist[c] += 1;
}

/// A histogram's count and its total beyond its lowest value.
fn excess(hist: &[u64]) -> (u64, u64) {
    let min = hist.iter().position(|&x| x > 0).unwrap_or(0);
    (hist.iter().sum(), hist.iter().enumerate().map(|(c, &x)| (c - min.min(c)) as u64 * x).sum())
}

fn merge(into: &mut Vec<u64>, hist: &[u64]) {
    if into.len() < hist.len() {
        into.resize(hist.len(), 0);
    }
    for (c, &x) in hist.iter().enumerate() {
        into[c] += x;
    }
}

/// Per kind of output port (0: the ejection port, 1: every hop port).
#[derive(Clone, Default)]
struct PortKind {
    /// `transfer[c]`: best-effort messages whose tail crossed c − 1
    /// cycles after their header.
    transfer: Vec<u64>,
    cycles: u64,
    /// Port-cycles with no real-time output VC allocated.
    no_rt: u64,
    /// Port-cycles the link carried a real-time flit.
    rt_flits: u64,
    /// Real-time output VC holds (allocation to release) that began after
    /// the warm-up and ended, and their cycles.
    rt_holds: u64,
    rt_hold_cycles: u64,
}

struct Probe {
    from: u64,
    ports: usize,
    be_vc: usize,
    rt_vcs: Vec<usize>,
    /// Per (router, input port): the best-effort header in ROUTED, the
    /// cycle it entered and the output port it asked for.
    routed: Vec<Option<(u64, usize)>>,
    /// ROUTED histograms by [`WaitAt`].
    waits: [Vec<u64>; 3],
    /// Per (router, output port): the cycle a best-effort header crossed
    /// the link, until its tail does.
    head_at: Vec<Option<u64>>,
    kinds: [PortKind; 2],
    /// Per (router, output port, real-time VC): the cycle it was allocated.
    rt_since: Vec<Option<u64>>,
    /// Per router: (header, tail) crossing cycles of every best-effort
    /// message on its ejection link, in order.
    ejected: Vec<Vec<(u64, u64)>>,
}

impl Probe {
    fn observe(&mut self, cycle: u64, routers: &[Router]) {
        let counting = cycle >= self.from;
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                let i = r * self.ports + p;
                match (router.vc_state(p, self.be_vc), self.routed[i]) {
                    (VcState::Routed { route }, None) => self.routed[i] = Some((cycle, route)),
                    (VcState::Routed { .. }, Some(_)) => {}
                    (_, Some((at, o))) => {
                        self.routed[i] = None;
                        let place = if p == 0 {
                            WaitAt::Source
                        } else if o == 0 {
                            WaitAt::Ejection
                        } else {
                            WaitAt::Middle
                        };
                        if at >= self.from {
                            add(&mut self.waits[place as usize], (cycle - at) as usize);
                        }
                    }
                    _ => {}
                }
                // Output port p (0 ejects, 1 + d is dimension d's link).
                let kind = &mut self.kinds[(p != 0) as usize];
                if counting {
                    kind.cycles += 1;
                    kind.no_rt += self.rt_vcs.iter().all(|&u| !router.allocated(p, u)) as u64;
                }
                for (k, &u) in self.rt_vcs.iter().enumerate() {
                    let slot = &mut self.rt_since[i * self.rt_vcs.len() + k];
                    match (router.allocated(p, u), *slot) {
                        (true, None) => *slot = Some(cycle),
                        (false, Some(at)) => {
                            *slot = None;
                            if at >= self.from {
                                kind.rt_holds += 1;
                                kind.rt_hold_cycles += cycle - at;
                            }
                        }
                        _ => {}
                    }
                }
                let flit = &router.outputs().flits[p];
                if !flit.valid {
                    continue;
                }
                if flit.vc as usize != self.be_vc {
                    kind.rt_flits += counting as u64;
                    continue;
                }
                if flit.head {
                    self.head_at[i] = Some(cycle);
                }
                if flit.tail {
                    let head = self.head_at[i].take().expect("a tail after its header");
                    if head >= self.from {
                        add(&mut kind.transfer, (cycle - head + 1) as usize);
                    }
                    if p == 0 {
                        self.ejected[r].push((head, cycle));
                    }
                }
            }
        }
    }
}

/// Sums over the seeds of the per-message quantities.
#[derive(Default)]
struct Sums {
    messages: u64,
    network: u64,
    header: u64,
    body: u64,
    /// Header cycles per message, by hop count, to find the pipeline.
    header_by_hops: Vec<Vec<u64>>,
}

fn mean(hist: &[u64]) -> f64 {
    let (n, s): (u64, u64) = hist.iter().enumerate().fold((0, 0), |(n, s), (c, &x)| (n + x, s + c as u64 * x));
    s as f64 / n.max(1) as f64
}

fn main() -> anyhow::Result<()> {
    let Args { out, seeds, points, experiment, base } = Args::parse_points("cube_be_parts", "LOAD:RT:BE")?;
    let mut csv = String::from(
        "point,seeds,messages,sim_network,sim_header,sim_body,sim_pipeline,sim_wait_source,sim_wait_middle,sim_wait_ejection,sim_header_links,\
         sim_hop_transfer,sim_ejection_transfer,sim_pi0_hop,sim_pi0_ejection,sim_rt_util_hop,sim_rt_util_ejection,sim_rt_rate_hop,sim_rt_rate_ejection,sim_rt_hold_hop,sim_rt_hold_ejection,\
         model_network,model_pipeline,model_input,model_middle,model_ejection_blocking,model_ejection_transfer,model_hop_transfer,model_pi0_hop,model_pi0_ejection,model_rt_hold,eq13_hop_at_sim,eq13_ejection_at_sim\n",
    );
    for point in &points {
        let mut v = points::load_mix_point(&base, &experiment, point)?;
        let Plan::Cube { model, .. } = predict::plan(&v)? else { anyhow::bail!("{experiment}: not a hypercube") };
        let n = model.n;
        let sol = model.solve().map_err(|e| anyhow::anyhow!("{point}: model {e:?}"))?;
        let cfg = &v.configs[0];
        let (ports, vcs) = (cfg.ports(), cfg.vcs());
        // One VC per class: the VC whose class is best effort.
        let classes = cfg.vc_classes().ok_or_else(|| anyhow::anyhow!("{experiment}: one VC per class (router.vc_classes)"))?;
        anyhow::ensure!(classes.len() == vcs, "{experiment}: one VC per class (router.vc_classes)");
        let be_vc = classes.iter().position(|&c| c == BE_CLASS as u32).ok_or_else(|| anyhow::anyhow!("no best-effort VC"))?;
        let rt_vcs: Vec<usize> = (0..vcs).filter(|&u| u != be_vc).collect();
        for r in 0..v.net.routers {
            anyhow::ensure!(matches!(v.net.out_link[r][0], Peer::Endpoint(e) if e == r), "router {r}: port 0 is not endpoint {r}");
        }
        let warmup = v.run_cycles().1;
        let mut sums = Sums { header_by_hops: vec![Vec::new(); n + 1], ..Default::default() };
        let mut waits: [Vec<u64>; 3] = Default::default();
        let mut kinds: [PortKind; 2] = Default::default();
        for seed in 1..=seeds {
            v.exp.run.seed = seed;
            let mut probe = Probe {
                from: warmup,
                ports,
                be_vc,
                rt_vcs: rt_vcs.clone(),
                routed: vec![None; v.net.routers * ports],
                waits: Default::default(),
                head_at: vec![None; v.net.routers * ports],
                kinds: Default::default(),
                rt_since: vec![None; v.net.routers * ports * rt_vcs.len()],
                ejected: vec![Vec::new(); v.net.routers],
            };
            let mut observe = |c: u64, r: &[Router]| probe.observe(c, r);
            let (_, log) = Sim::new(&v)?.run_logged_all_probed(&mut observe)?;
            // The n-th best-effort delivery at a destination is the n-th
            // tail on its ejection link, a constant number of cycles later.
            let mut delivered: Vec<Vec<&wormqos_netsim::network::MessageLog>> = vec![Vec::new(); v.net.routers];
            for m in log.iter().filter(|m| m.class == BE_CLASS) {
                delivered[m.dest as usize].push(m);
            }
            let mut offset = None;
            for (d, msgs) in delivered.iter_mut().enumerate() {
                msgs.sort_by_key(|m| m.delivered);
                anyhow::ensure!(msgs.len() <= probe.ejected[d].len(), "destination {d}: {} deliveries, {} tails", msgs.len(), probe.ejected[d].len());
                for (m, &(head, tail)) in msgs.iter().zip(&probe.ejected[d]) {
                    let k = m.delivered as i64 - tail as i64;
                    anyhow::ensure!(*offset.get_or_insert(k) == k, "destination {d}: delivery {} cycles after the tail, elsewhere {offset:?}", k);
                    if m.created < warmup {
                        continue;
                    }
                    let head_delivered = (head as i64 + k) as u64;
                    let h = (m.src ^ m.dest).count_ones() as usize;
                    sums.messages += 1;
                    sums.network += m.delivered - m.injected;
                    // The header's delivery cycle goes to the body, as Eq. (10)
                    // counts it in M: the two add up to the network latency.
                    let header = head_delivered - m.injected - 1;
                    sums.header += header;
                    sums.body += m.delivered - head_delivered + 1;
                    add(&mut sums.header_by_hops[h], header as usize);
                }
            }
            for (into, w) in waits.iter_mut().zip(&probe.waits) {
                merge(into, w);
            }
            for (into, k) in kinds.iter_mut().zip(&probe.kinds) {
                merge(&mut into.transfer, &k.transfer);
                into.cycles += k.cycles;
                into.no_rt += k.no_rt;
                into.rt_flits += k.rt_flits;
                into.rt_holds += k.rt_holds;
                into.rt_hold_cycles += k.rt_hold_cycles;
            }
        }
        let msgs = sums.messages.max(1) as f64;
        // The pipeline: each message's hop count's fewest header cycles.
        let pipeline: u64 = sums.header_by_hops.iter().map(|hist| hist.iter().position(|&x| x > 0).unwrap_or(0) as u64 * hist.iter().sum::<u64>()).sum();
        // Waits per message: per ejection header (one per message, the
        // same window as the other two places).
        let per_message = excess(&waits[WaitAt::Ejection as usize]).0.max(1) as f64;
        let wait = |at: WaitAt| excess(&waits[at as usize]).1 as f64 / per_message;
        let (ws, wm, we) = (wait(WaitAt::Source), wait(WaitAt::Middle), wait(WaitAt::Ejection));
        let header_links = (sums.header - pipeline) as f64 / msgs - ws - wm - we;
        let util = |k: &PortKind| (k.no_rt as f64 / k.cycles.max(1) as f64, k.rt_flits as f64 / k.cycles.max(1) as f64);
        let ((pi0_e, util_e), (pi0_h, util_h)) = (util(&kinds[0]), util(&kinds[1]));
        // Real-time VC allocations per port-cycle (λ_r) and their holds.
        let rate = |k: &PortKind| k.rt_holds as f64 / k.cycles.max(1) as f64;
        let hold = |k: &PortKind| k.rt_hold_cycles as f64 / k.rt_holds.max(1) as f64;
        let (rate_e, rate_h) = (rate(&kinds[0]), rate(&kinds[1]));
        let (hop_transfer, ejection_transfer) = (mean(&kinds[1].transfer), mean(&kinds[0].transfer));
        // Eq. (13) and its ejection form with the measured Π_0 and λ_r (and
        // at the ejection the measured hop transfer for M_s).
        let mb = model.router.msg_flits[model.router.msg_flits.len() - 1];
        let eq13_hop = be_message_cycles(mb, mb, pi0_h, rate_h, false);
        let eq13_ejection = be_message_cycles(hop_transfer.max(mb), mb, pi0_e, rate_e, true);
        // The model holds a channel's real-time VC for L_{c,s}(k) (Eqs 6–8):
        // the real-time classes' network latency, weighted by their rates.
        let rt = &sol.classes[..sol.classes.len() - 1];
        let rates = &model.router.rt_rates;
        let model_rt_hold = rt.iter().zip(rates).map(|(c, r)| c.network_latency * r).sum::<f64>() / rates.iter().sum::<f64>();
        // The model's terms, averaged over the first channels.
        let be = sol.classes.len() - 1;
        let c = &sol.classes[be];
        let avg = |f: &dyn Fn(usize) -> f64| (0..n).map(|s| c.first_channel_weight[s] * f(s)).sum::<f64>();
        let t = &c.parts;
        writeln!(
            csv,
            "{point},{seeds},{},{:.3},{:.3},{:.3},{:.3},{ws:.3},{wm:.3},{we:.3},{header_links:.3},{:.3},{:.3},{pi0_h:.4},{pi0_e:.4},{util_h:.4},{util_e:.4},{rate_h:.5},{rate_e:.5},{:.3},{:.3},\
             {:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.4},{:.4},{model_rt_hold:.3},{eq13_hop:.3},{eq13_ejection:.3}",
            sums.messages,
            sums.network as f64 / msgs,
            sums.header as f64 / msgs,
            sums.body as f64 / msgs,
            pipeline as f64 / msgs,
            hop_transfer,
            ejection_transfer,
            hold(&kinds[1]),
            hold(&kinds[0]),
            c.network_latency,
            avg(&|s| t[s].pipeline),
            avg(&|s| t[s].input_blocking_cycles()),
            avg(&|s| t[s].middle_blocking_cycles()),
            avg(&|s| t[s].ejection_blocking_cycles()),
            avg(&|s| t[s].ejection_transfer_cycles()),
            avg(&|s| t[s].message * t[s].channel_cycles_per_flit),
            avg(&|s| sol.occupancy[s][0]),
            sol.occupancy[n][0],
        )?;
    }
    print!("{csv}");
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("cube_be_parts.csv"), csv)?;
    Ok(())
}

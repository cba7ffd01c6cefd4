//! Best effort behind the real-time bursts on the 6-cube, link by link
//! (docs/reproduction.md, "Best effort behind the cube's bursts", issue
//! 22): for each point `K:I_us` of an ON/OFF hypercube experiment and seeds
//! 1 to S, one run per seed (`Sim::run_logged_all_probed`) gives
//!
//! - by hop count h, best effort's (class 0) messages created after the
//!   warm-up: their network latency (header injected to tail delivered)
//!   and source wait (created to header injected);
//! - per link, the cycles best effort's flits were ready at it but the
//!   link carried a real-time flit, per best-effort message crossing it:
//!   at a router's output port o (0 the ejection link, 1 + d the hop link
//!   of dimension d), a cycle counts when before it the best-effort output
//!   VC held a flit and a credit and in it the port sent a real-time flit;
//!   the crossings are the best-effort tails the port sent (cycles and
//!   tails both after the warm-up); `sim_wait_router` counts also the
//!   cycles its flits waited in an input VC holding that output VC (for
//!   the crossbar). At the injection link (the source),
//!   a message's count is its cycles from taking its source VC to its tail
//!   leaving, less the cycles its VC had no credit and its 32 flits' own
//!   cycles (the source sends the highest class with a credit, so the
//!   rest are cycles the link gave a real-time flit); the offset of the
//!   source's first cycle is printed as the fewest any message had;
//! - beside each link, `BeBurstWait`'s prediction from the fluid model's
//!   link quantities (the streams the link carries, their ON/OFF process),
//!   and `BePrioWait`'s count at the link (`prio_wait`: every stream on
//!   it; `fresh_wait`: only those the message did not meet on an earlier
//!   link of its route);
//! - at the injection link, the customer's view (`sim_customer_wait`): a
//!   message's cycles from its creation to its tail leaving, less its own
//!   32 flits', those its VC had no credit, the source's offset and 32 for
//!   each best-effort message of its source still there when it was
//!   created (an upper bound of their flits' cycles after its creation, so
//!   this is a lower bound); `queued_share`, the share of messages created
//!   with such a message there; `rt_no_credit`, per real-time message
//!   created after the warm-up, the cycles its source VC had no credit
//!   (cycles the injection link leaves to best effort in a burst);
//! - at the hop and ejection links, the same count split by the link's
//!   real time over the last g cycles (`cube_be_overlap.csv`, docs
//!   "Best effort behind the cube's overlapping bursts"): `sim_wait_over`
//!   counts the cycles the port had sent more than one message's flits of
//!   real time in the last g (faster than one stream), `sim_wait_two` those
//!   real time from two or more input ports had wanted the port in the
//!   last g (two streams or more, which arrive on different ports); the
//!   shares of all cycles in each state; beside them `BeOverlapWait`
//!   (the share of time two or more streams are ON, its overlap term and
//!   the fresh count plus it).
//!
//! Writes `<out>/cube_be_links.csv` (one row per point and link),
//! `<out>/cube_be_hops.csv` (one row per point and hop count) and
//! `<out>/cube_be_overlap.csv` (one row per point and hop or ejection
//! link) and prints them.
//!
//! cargo run --release -p wormqos-netsim --example cube_be_links -- \
//!     experiments/fig12b_000_onoff_cube6_bursts_seeds.toml \
//!     experiments/results/cube_be_links --seeds 4 \
//!     1:173.6 1:148.8 1:97.6 2:373.6 4:773.6 14:2773.6

#[allow(dead_code)]
#[path = "cube_trace/points.rs"]
mod points;

use points::{Args, Point};
use std::fmt::Write as _;
use wormqos_netsim::analytic::be_burst_wait::BeBurstWait;
use wormqos_netsim::analytic::be_overlap_wait::BeOverlapWait;
use wormqos_netsim::analytic::be_prio_wait::BePrioWait;
use wormqos_netsim::network::Sim;
use wormqos_sim::{Router, VcState};

/// `vc_classes = [1, 0]`: VC 0 carries real time (class 1), VC 1 best
/// effort (class 0), on every link.
const RT_VC: u8 = 0;
const BE_VC: usize = 1;
const BE_CLASS: u8 = 0;

/// Per output port, summed over every router.
#[derive(Clone, Default)]
struct PortCounters {
    /// Cycles best effort was ready and the port sent a real-time flit.
    blocked: u64,
    /// The same with best effort ready anywhere in the router for the
    /// port: at the output, or a flit in an input VC that holds the
    /// port's best-effort output VC (waiting for the crossbar).
    blocked_router: u64,
    /// Best-effort tails the port sent: the messages that crossed it.
    be_tails: u64,
    /// Real-time flits the port sent.
    rt_flits: u64,
    /// `blocked` in cycles the port had sent more than one message's
    /// flits of real time in the last g cycles (over one stream's rate).
    blocked_over: u64,
    /// `blocked` in cycles real time from two or more input ports had
    /// wanted the port in the last g cycles (two streams or more).
    blocked_two: u64,
    /// The port's cycles in those two states.
    cycles_over: u64,
    cycles_two: u64,
}

struct Probe {
    from: u64,
    ports: usize,
    cycles: u64,
    counters: Vec<PortCounters>,
    /// Per (router, output port): best effort's output VC held a flit and a
    /// credit after the previous cycle.
    ready: Vec<bool>,
    /// The same, or a flit in an input VC holding that output VC.
    ready_router: Vec<bool>,
    /// g, the window of the overlap counters (at most 128 cycles), and M,
    /// a real-time message's flits.
    window: u32,
    rt_message: u32,
    /// Per (router, output port): bit i set if the port sent a real-time
    /// flit i cycles ago (bit 0 this cycle).
    rt_sent: Vec<u128>,
    /// Per (router, output port, input port): the last cycle the input's
    /// real-time VC held or waited for the port with a flit.
    rt_wanted: Vec<u64>,
}

impl Probe {
    fn new(routers: usize, ports: usize, from: u64, window: u32, rt_message: u32) -> Probe {
        assert!((1..=128).contains(&window), "window {window} cycles: the history is 128 bits");
        Probe {
            from,
            ports,
            cycles: 0,
            counters: vec![PortCounters::default(); ports],
            ready: vec![false; routers * ports],
            ready_router: vec![false; routers * ports],
            window,
            rt_message,
            rt_sent: vec![0; routers * ports],
            rt_wanted: vec![u64::MAX; routers * ports * ports],
        }
    }

    /// Updates the overlap state of (router r, port o) with this cycle's
    /// flit and returns (over one stream's rate, two inputs or more).
    fn overlap_state(&mut self, cycle: u64, r: usize, o: usize, rt_sent: bool) -> (bool, bool) {
        let i = r * self.ports + o;
        let mask = if self.window == 128 { u128::MAX } else { (1u128 << self.window) - 1 };
        self.rt_sent[i] = ((self.rt_sent[i] << 1) | rt_sent as u128) & mask;
        let wanted = &self.rt_wanted[i * self.ports..(i + 1) * self.ports];
        let inputs = wanted.iter().filter(|&&c| c != u64::MAX && cycle - c < self.window as u64).count();
        (self.rt_sent[i].count_ones() > self.rt_message, inputs >= 2)
    }

    fn observe(&mut self, cycle: u64, routers: &[Router]) {
        let counting = cycle >= self.from;
        self.cycles += counting as u64;
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                let route = match router.vc_state(p, RT_VC as usize) {
                    VcState::Active { route, .. } | VcState::Routed { route } => route,
                    VcState::Idle => continue,
                };
                if router.input_occupancy(p, RT_VC as usize) > 0 {
                    self.rt_wanted[(r * self.ports + route) * self.ports + p] = cycle;
                }
            }
            let flits = &router.outputs().flits;
            for o in 0..self.ports {
                let i = r * self.ports + o;
                let f = &flits[o];
                let (over, two) = self.overlap_state(cycle, r, o, f.valid && f.vc == RT_VC);
                if counting {
                    let c = &mut self.counters[o];
                    c.cycles_over += over as u64;
                    c.cycles_two += two as u64;
                }
                if counting && f.valid {
                    let c = &mut self.counters[o];
                    if f.vc == RT_VC {
                        c.rt_flits += 1;
                        c.blocked += self.ready[i] as u64;
                        c.blocked_router += self.ready_router[i] as u64;
                        c.blocked_over += (self.ready[i] && over) as u64;
                        c.blocked_two += (self.ready[i] && two) as u64;
                    } else if f.tail {
                        c.be_tails += 1;
                    }
                }
                self.ready[i] = router.output_occupancy(o, BE_VC) > 0 && router.credits(o, BE_VC) > 0;
                self.ready_router[i] = self.ready[i];
            }
            for p in 0..self.ports {
                if let VcState::Active { route, ovc: BE_VC } = router.vc_state(p, BE_VC) {
                    if router.input_occupancy(p, BE_VC) > 0 {
                        self.ready_router[r * self.ports + route] = true;
                    }
                }
            }
        }
    }
}

/// Per hop count: best-effort messages, and sums of their network
/// latency, source wait and injection-link wait.
#[derive(Clone, Copy, Default)]
struct HopSums {
    messages: u64,
    network: f64,
    source: f64,
    injection: f64,
    /// The customer's view at the injection link and the messages created
    /// behind another (see the module comment).
    customer: f64,
    queued: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse("cube_be_links")?;
    let mut links_csv = String::from("point,streams,gap_cycles,seeds,link,be_crossings,sim_wait,model_wait,error_pct,sim_wait_router,sim_rt_load,model_rt_load,prio_wait,prio_error_pct,fresh_wait,fresh_error_pct,sim_customer_wait,queued_share,rt_no_credit\n");
    let mut overlap_csv = String::from("point,streams,gap_cycles,seeds,link,be_crossings,sim_wait,sim_wait_over,sim_wait_two,sim_over_share,sim_two_share,model_overlap_share,fresh_wait,overlap_wait,variant_wait,variant_error_pct\n");
    let mut hops_csv = String::from("point,streams,gap_cycles,seeds,hops,messages,network_mean,source_mean,injection_wait\n");
    for point in &args.points {
        let Point { mut v, streams, gap, cube, be_rate } = args.point(point)?;
        let n = cube.n;
        let ports = v.configs[0].ports();
        let warmup = v.run_cycles().1;
        let mut ports_sum = vec![PortCounters::default(); ports];
        let mut hops = vec![HopSums::default(); n + 1];
        let mut cycles = 0u64;
        // The fewest cycles any message's injection count had (the offset
        // of the source's first cycle; see the module comment).
        let mut injection_min = u64::MAX;
        let mut injection_raw = Vec::new();
        let mut customer_raw = Vec::new();
        let (mut rt_messages, mut rt_no_credit) = (0u64, 0u64);
        for seed in 1..=args.seeds {
            v.exp.run.seed = seed;
            let mut probe = Probe::new(v.net.routers, ports, warmup, gap.round() as u32, cube.class.flits as u32);
            let mut observe = |c: u64, r: &[Router]| probe.observe(c, r);
            let (_, log) = Sim::new(&v)?.run_logged_all_probed(&mut observe)?;
            // Per source, the tail-leaving cycles of its best-effort
            // messages in creation order (the source queue is FIFO).
            let mut tails: Vec<Vec<(u64, u64)>> = vec![Vec::new(); v.net.routers];
            for m in log.iter().filter(|m| m.class == BE_CLASS) {
                tails[m.src as usize].push((m.created, m.source.tail_sent));
            }
            for t in &mut tails {
                t.sort_unstable();
            }
            for m in log.iter().filter(|m| m.class != BE_CLASS && m.created >= warmup) {
                rt_messages += 1;
                rt_no_credit += m.source.no_credit;
            }
            for m in log.iter().filter(|m| m.class == BE_CLASS && m.created >= warmup) {
                let h = (m.src ^ m.dest).count_ones() as usize;
                let s = &m.source;
                let raw = (s.tail_sent - s.started).checked_sub(s.no_credit + (m.flits as u64 - 1)).ok_or_else(|| anyhow::anyhow!("message {}->{}: tail left {} cycles after its VC with {} without credit", m.src, m.dest, s.tail_sent - s.started, s.no_credit))?;
                injection_min = injection_min.min(raw);
                injection_raw.push((h, raw));
                let own = &tails[m.src as usize];
                let ahead = own.iter().take_while(|x| x.0 < m.created).filter(|x| x.1 > m.created).count() as u64;
                let waited = (s.tail_sent - m.created).saturating_sub(s.no_credit + (m.flits as u64 - 1) + m.flits as u64 * ahead);
                customer_raw.push((h, waited, ahead > 0));
                let a = &mut hops[h];
                a.messages += 1;
                a.network += (m.delivered - m.injected) as f64;
                a.source += (m.injected - m.created) as f64;
            }
            cycles += probe.cycles;
            for (o, c) in probe.counters.iter().enumerate() {
                ports_sum[o].blocked += c.blocked;
                ports_sum[o].blocked_router += c.blocked_router;
                ports_sum[o].be_tails += c.be_tails;
                ports_sum[o].rt_flits += c.rt_flits;
                ports_sum[o].blocked_over += c.blocked_over;
                ports_sum[o].blocked_two += c.blocked_two;
                ports_sum[o].cycles_over += c.cycles_over;
                ports_sum[o].cycles_two += c.cycles_two;
            }
        }
        for (h, raw) in &injection_raw {
            hops[*h].injection += (raw - injection_min) as f64;
        }
        for (h, waited, queued) in &customer_raw {
            hops[*h].customer += waited.saturating_sub(injection_min) as f64;
            hops[*h].queued += *queued as u64;
        }
        let seeds = args.seeds;
        for (h, a) in hops.iter().enumerate().filter(|x| x.1.messages > 0) {
            let k = a.messages as f64;
            writeln!(hops_csv, "{point},{streams},{gap:.2},{seeds},{h},{},{:.2},{:.2},{:.2}", a.messages, a.network / k, a.source / k, a.injection / k)?;
        }
        let model = BeBurstWait::for_cube(&cube);
        let prio = BePrioWait { link: model, be_rate };
        let all: u64 = hops.iter().map(|a| a.messages).sum();
        let injection = hops.iter().map(|a| a.injection).sum::<f64>() / all.max(1) as f64;
        let customer = hops.iter().map(|a| a.customer).sum::<f64>() / all.max(1) as f64;
        let queued = hops.iter().map(|a| a.queued).sum::<u64>() as f64 / all.max(1) as f64;
        // Link-cycles over the seeds: one link per router at every port.
        let link_cycles = (cycles * v.net.routers as u64) as f64;
        let err = |model: f64, sim: f64| if sim > 0.0 { 100.0 * (model - sim) / sim } else { f64::NAN };
        // `customer`: (sim_customer_wait, queued_share, rt_no_credit), at the
        // injection link only.
        let mut row = |name: &str, crossings: u64, sim: f64, model: (f64, f64), router: f64, rt_load: f64, prio: f64, fresh: f64, customer: (f64, f64, f64)| {
            writeln!(
                links_csv,
                "{point},{streams},{gap:.2},{seeds},{name},{crossings},{sim:.2},{:.2},{:.1},{router:.2},{rt_load:.4},{:.4},{prio:.2},{:.1},{fresh:.2},{:.1},{:.2},{:.4},{:.2}",
                model.0,
                err(model.0, sim),
                model.1,
                err(prio, sim),
                err(fresh, sim),
                customer.0,
                customer.1,
                customer.2
            )
        };
        let none = (f64::NAN, f64::NAN, f64::NAN);
        let per = |c: &PortCounters, x: u64| x as f64 / c.be_tails.max(1) as f64;
        let m = model.injection()?;
        // The injection link's real-time load is not probed; the model's only.
        let p = prio.injection()?.0;
        row("injection", all, injection, m, injection, f64::NAN, p, p, (customer, queued, rt_no_credit as f64 / rt_messages.max(1) as f64))?;
        for d in 0..n {
            let c = &ports_sum[1 + d];
            row(&format!("hop{d}"), c.be_tails, per(c, c.blocked), model.hop(d)?, per(c, c.blocked_router), c.rt_flits as f64 / link_cycles, prio.hop(d)?.0, prio.hop_fresh(d)?.0, none)?;
        }
        let c = &ports_sum[0];
        row("ejection", c.be_tails, per(c, c.blocked), model.ejection()?, per(c, c.blocked_router), c.rt_flits as f64 / link_cycles, prio.ejection()?.0, prio.ejection_fresh()?.0, none)?;
        // The overlap split of the hop and ejection links (see
        // `Probe::overlap_state`) beside `BeOverlapWait`.
        let overlap = BeOverlapWait { prio };
        for (o, name) in (1..=n).map(|o| (o, format!("hop{}", o - 1))).chain([(0, "ejection".to_string())]) {
            let c = &ports_sum[o];
            let ((trials, q), (term, variant), fresh) = if o == 0 {
                (model.ejection_streams(), overlap.ejection()?, prio.ejection_fresh()?.0)
            } else {
                (model.hop_streams(o - 1), overlap.hop(o - 1)?, prio.hop_fresh(o - 1)?.0)
            };
            let sim = per(c, c.blocked);
            writeln!(
                overlap_csv,
                "{point},{streams},{gap:.2},{seeds},{name},{},{sim:.2},{:.2},{:.2},{:.4},{:.4},{:.4},{fresh:.2},{term:.2},{variant:.2},{:.1}",
                c.be_tails,
                per(c, c.blocked_over),
                per(c, c.blocked_two),
                c.cycles_over as f64 / link_cycles,
                c.cycles_two as f64 / link_cycles,
                overlap.overlap_share(trials, q),
                err(variant, sim)
            )?;
        }
        eprintln!("{point}: injection count offset {injection_min} cycles subtracted");
    }
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("cube_be_links.csv"), &links_csv)?;
    std::fs::write(args.out.join("cube_be_hops.csv"), &hops_csv)?;
    std::fs::write(args.out.join("cube_be_overlap.csv"), &overlap_csv)?;
    print!("{hops_csv}\n{links_csv}\n{overlap_csv}");
    Ok(())
}

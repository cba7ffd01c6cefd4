//! What Eqs (6)–(8)'s occupancy chain assumes of a link, beside what the
//! 6-cube does (issue 22, docs/reproduction.md "Why the chain's S̄ is too
//! large for R2"). For each point `load:mix_rt:mix_be` of a
//! one-VC-per-class hypercube experiment (`vc_classes = [2, 1, 0]`), one
//! logged run with a router probe, and the solved `kim2005_cube` model.
//!
//! `links.csv`, per real-time class and link (`injection`: node to router,
//! from the message log; `hop<s>`: output port 1 + s; `ejection`: port 0),
//! summed over the routers (nodes), the measured window less the last
//! `TAIL_MARGIN` cycles:
//!
//! * `held`: share of the cycles the class's VC is held (source: from the
//!   message taking its VC to its tail leaving; router: output VC
//!   allocated), `ready`: it has a flit to send on the link (source: the
//!   same interval; router: a flit in the output buffer), `sent`: the link
//!   carries one of its flits;
//! * `other_held_if_held`: P{the other real-time class's VC is held | this
//!   one's is}, the chain's P_c(k = 1); `other_sent_if_ready`: P{the link
//!   sends the other real-time class's flit | this class has one ready},
//!   the share of its ready cycles it loses to it;
//! * `span`: mean cycles from a message's first flit on the link to its
//!   last, inclusive (M if it is never held up), and `lost_to_other`: the
//!   cycles per message in which it had a flit ready and the link sent the
//!   other real-time class's flit;
//! * the chain's terms for the link (the injection link: the ejection
//!   chain, as `kim2005_cube_vcq_ports` takes it): `model_held` (Σ π over
//!   the states with the class's bit), `model_other_if_held`, S̄ by Eq. (6)
//!   (`model_spf`, the time-weighted mean of S_c(k) over the held states)
//!   and by flit (`model_spf_by_flit`, 1/E[1/S_c(k)] over the same states:
//!   the cycles per flit a message sends at those states' rates).
//!
//! `overlaps.csv`, per router link: R2's `lost_to_other` cut into lumps
//! (`vc_wait_common/lumps.rs`: the cycles one R2 message loses to one R1
//! message): lumps per R2 message and their mean, all and split by which
//! message's first flit crossed the link first, and the pairs in which
//! R1 lost cycles to R2 and R2 none to R1 (`r2_untouched`), per R2
//! message; `lumps.csv` the lumps' histogram (cycles, count with R1
//! first, count with R2 first). `attribution.csv`: R2's deadline-missing
//! probability and mean body delay of its 2- and 5-hop messages in
//! `kim2005_cube_vcq_body` (`row`), and with R2's measured lumps (their
//! number per message and their p.m.f.) in place of the row's at the
//! ejection link (`ejection_measured`) and at every router link
//! (`links_measured`).
//!
//! cargo run --release -p wormqos-netsim --example cube_r2_body -- \
//!     experiments/fig7_000_cube6.toml experiments/results/cube_r2_body \
//!     --cycles 200000 0.112:0.048:0.064 0.256:0.192:0.064

#[path = "vc_wait_common/lumps.rs"]
mod lumps;
#[path = "vc_wait_common/point.rs"]
mod point;

use lumps::{LinkLumps, LumpTracker};
use point::{parse_point, point_text};
use std::fmt::Write as _;
use std::path::Path;
use wormqos_netsim::analytic::cube_body_behind::BodyDelays;
use wormqos_netsim::analytic::cube_vcq_ports::cube_vcq_body_miss_with;
use wormqos_netsim::analytic::kim2005::sharing_cycles;
use wormqos_netsim::analytic::predict::{self, Options, Plan};
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;
use wormqos_sim::Router;

fn usage(why: &str) -> ! {
    eprintln!("cube_r2_body: {why}\nusage: cube_r2_body <experiment.toml> <out_dir> --cycles N load:mix_rt:mix_be...");
    std::process::exit(2);
}

/// The real-time classes' VCs: (VC, class, the model's class index).
const RT: [(usize, u8, usize); 2] = [(0, 2, 0), (1, 1, 1)];

/// Cycles before the run's end left out, so that every message whose
/// interval lies in the counted cycles has been delivered (and logged).
const TAIL_MARGIN: u64 = 2000;

/// Per-cycle state of a link's two real-time classes: bits
/// [held, ready, sent] of R1 (0..3) and of R2 (3..6).
const HELD: u8 = 1;
const READY: u8 = 2;
const SENT: u8 = 4;

fn bits(state: u8, k: usize) -> u8 {
    state >> (3 * k) & 7
}

/// A histogram of the 64 states of one link, and its messages' spans.
#[derive(Clone)]
struct Link {
    states: [u64; 64],
    /// Per class: messages whose span was recorded, Σ span.
    spans: [u64; 2],
    span_sum: [u64; 2],
}

impl Default for Link {
    fn default() -> Self {
        Link { states: [0; 64], spans: [0; 2], span_sum: [0; 2] }
    }
}

impl Link {
    fn share(&self, want: impl Fn(u8) -> bool, given: impl Fn(u8) -> bool) -> f64 {
        let (mut num, mut den) = (0u64, 0u64);
        for (s, &n) in self.states.iter().enumerate() {
            if given(s as u8) {
                den += n;
                num += n * want(s as u8) as u64;
            }
        }
        num as f64 / den.max(1) as f64
    }
    fn count(&self, want: impl Fn(u8) -> bool) -> u64 {
        self.states.iter().enumerate().filter(|(s, _)| want(*s as u8)).map(|(_, &n)| n).sum()
    }
}

/// The router links: per output port, summed over routers; per (router,
/// port, class) the cycle of the current message's first flit and its
/// flits so far.
struct Probe {
    from: u64,
    to: u64,
    ports: usize,
    flits: u64,
    links: Vec<Link>,
    open: Vec<(u64, u64)>,
    /// R2's losses to R1 in lumps: per output port (summed over routers),
    /// and per (router, port) the tracker.
    lumps: Vec<LinkLumps>,
    trackers: Vec<LumpTracker>,
}

impl Probe {
    fn observe(&mut self, cycle: u64, routers: &[Router]) {
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                let f = router.outputs().flits[p];
                let mut state = 0u8;
                for (k, &(vc, _, _)) in RT.iter().enumerate() {
                    let sent = f.valid && f.vc as usize == vc;
                    let b = (router.allocated(p, vc) as u8) * HELD | ((router.output_occupancy(p, vc) > 0) as u8) * READY | (sent as u8) * SENT;
                    state |= b << (3 * k);
                    if sent {
                        let o = &mut self.open[(r * self.ports + p) * 2 + k];
                        if o.1 == 0 {
                            o.0 = cycle;
                        }
                        o.1 += 1;
                        if o.1 == self.flits {
                            if o.0 >= self.from && cycle < self.to {
                                self.links[p].spans[k] += 1;
                                self.links[p].span_sum[k] += cycle - o.0 + 1;
                            }
                            *o = (0, 0);
                        }
                    }
                }
                let counted = (self.from..self.to).contains(&cycle);
                if counted {
                    self.links[p].states[state as usize] += 1;
                }
                let sent = [0, 1].map(|k| (bits(state, k) & SENT != 0).then_some(f.tail));
                let ready = [0, 1].map(|k| bits(state, k) & READY != 0);
                self.trackers[r * self.ports + p].observe(cycle, sent, ready, counted, &mut self.lumps[p]);
            }
        }
    }
}

/// The chain's terms for class `c` (model index) from one chain's π: P{held},
/// P{other held | held}, S̄ by Eq. (6) and by flit.
fn chain_terms(vticks: &[f64], pi: &[f64], c: usize) -> (f64, f64, f64, f64) {
    let (mut held, mut both, mut spf, mut per_cycle) = (0.0, 0.0, 0.0, 0.0);
    for (z, &p) in pi.iter().enumerate() {
        if z >> c & 1 == 1 {
            held += p;
            if z.count_ones() > 1 {
                both += p;
            }
            let s = sharing_cycles(vticks, z, c);
            spf += p * s;
            per_cycle += p / s;
        }
    }
    (held, both / held, spf / held, held / per_cycle)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        usage("missing arguments");
    }
    let (file, out) = (&args[0], Path::new(&args[1]));
    let (mut cycles, mut points) = (None, Vec::new());
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--cycles" => {
                let v = args.get(i + 1).unwrap_or_else(|| usage("--cycles needs a value"));
                cycles = Some(v.parse::<u64>().ok().filter(|&c| c > 4 * TAIL_MARGIN).unwrap_or_else(|| usage(&format!("--cycles = {v:?}: want a whole number > {}", 4 * TAIL_MARGIN))));
                i += 2;
            }
            p => {
                points.push(parse_point(p).unwrap_or_else(|e| usage(&e)));
                i += 1;
            }
        }
    }
    let cycles = cycles.unwrap_or_else(|| usage("--cycles is required"));
    if points.is_empty() {
        usage("want at least one point");
    }
    let path = Path::new(file);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| usage(&format!("{file}: {e}")));
    let dir = path.parent().unwrap().to_path_buf();
    let mut over = String::from("point,link,r2_messages,lost_per_message,lumps_per_message,mean_lump,r1_first_lumps_per_message,r1_first_mean_lump,r2_first_lumps_per_message,r2_first_mean_lump,r2_untouched_per_message\n");
    let mut lumps = String::from("point,link,cycles,r1_first,r2_first\n");
    let mut attr = String::from("point,hops,deadline,variant,r2_miss,r2_body_mean\n");
    let mut csv = String::from("point,class,link,held,ready,sent,other_held_if_held,other_sent_if_ready,messages,span,lost_to_other,model_held,model_other_if_held,model_spf,model_spf_by_flit\n");
    for &(load, mix) in &points {
        let pt = format!("{load}:{}:{}", mix.0, mix.1);
        let v = Experiment::from_str(&point_text(&text, file, load, mix, cycles).unwrap_or_else(|e| usage(&e)), file, dir.clone()).unwrap_or_else(|e| usage(&e.to_string()));
        let plan = predict::plan_with(&v, &Options::default()).unwrap_or_else(|e| usage(&e.to_string()));
        let Plan::Cube { model, classes, .. } = &plan else { usage(&format!("{file}: not a hypercube experiment")) };
        let sol = model.solve().unwrap_or_else(|e| usage(&format!("{file}: the cube model has no solution at {pt}: {e:?}")));
        let n = model.n;
        let ports = v.configs[0].ports();
        if ports != n + 1 || v.configs[0].vc_classes() != Some(&[2, 1, 0][..]) {
            usage(&format!("{file}: want an n-cube of (n + 1)-port routers with vc_classes = [2, 1, 0]"));
        }
        let m = model.router.msg_flits[0];
        if model.router.msg_flits.iter().any(|&x| x != m) {
            usage(&format!("{file}: want one message length for every class"));
        }
        let (total, warmup) = v.run_cycles();
        let to = total - TAIL_MARGIN;
        let routers = v.net.routers;
        let mut probe = Probe {
            from: warmup,
            to,
            ports,
            flits: m as u64,
            links: vec![Link::default(); ports],
            open: vec![(0, 0); routers * ports * 2],
            lumps: vec![LinkLumps::default(); ports],
            trackers: vec![LumpTracker::default(); routers * ports],
        };
        let t0 = std::time::Instant::now();
        let mut observe = |c: u64, r: &[Router]| probe.observe(c, r);
        let (_, log) = Sim::new(&v).unwrap().run_logged_all_probed(&mut observe).unwrap_or_else(|e| usage(&e.to_string()));
        eprintln!("point {pt}: {} messages, {:.1} s", log.len(), t0.elapsed().as_secs_f64());
        for (i, t) in probe.trackers.iter_mut().enumerate() {
            t.flush(&mut probe.lumps[i % ports]);
        }
        // The injection link from the log: per node and counted cycle, the
        // classes' states. The source sends one flit a cycle, highest class
        // first, so a message sends from its header to its tail except for
        // the cycles a higher class sends (or a credit is missing).
        let span_len = (to - warmup) as usize;
        let mut inj = vec![0u8; routers * span_len];
        let mut injection = Link::default();
        for msg in &log {
            let Some(k) = RT.iter().position(|&(_, class, _)| class == msg.class) else { continue };
            let node = msg.src as usize;
            let mark = |inj: &mut Vec<u8>, a: u64, b: u64, bit: u8| {
                for c in a.max(warmup)..=b.min(to - 1) {
                    inj[node * span_len + (c - warmup) as usize] |= bit << (3 * k);
                }
            };
            mark(&mut inj, msg.source.started, msg.source.tail_sent, HELD | READY);
            mark(&mut inj, msg.injected, msg.source.tail_sent, SENT);
            if msg.injected >= warmup && msg.source.tail_sent < to {
                injection.spans[k] += 1;
                injection.span_sum[k] += msg.source.tail_sent - msg.injected + 1;
            }
        }
        // Flits sent: between its header and its tail a message sends unless
        // R1 does (R1 over R2; a missing credit is not seen here).
        for s in inj.iter_mut() {
            if *s & SENT != 0 {
                *s &= !(SENT << 3);
            }
            injection.states[*s as usize] += 1;
        }
        let vticks = &model.router.vticks;
        let names: Vec<String> = std::iter::once("injection".to_string()).chain((0..n).map(|s| format!("hop{s}"))).chain(["ejection".to_string()]).collect();
        for (k, &(_, class, c)) in RT.iter().enumerate() {
            assert_eq!(classes.get(c), Some(&class), "model class {c} is not class {class}");
            let o = 1 - k;
            for (li, name) in names.iter().enumerate() {
                let (link, chain) = match li {
                    0 => (&injection, &sol.occupancy[n]),
                    l if l <= n => (&probe.links[l], &sol.occupancy[l - 1]),
                    _ => (&probe.links[0], &sol.occupancy[n]),
                };
                let cells = (link.count(|_| true)) as f64;
                let frac = |b: u8| link.count(|s| bits(s, k) & b != 0) as f64 / cells;
                let other_held = link.share(|s| bits(s, o) & HELD != 0, |s| bits(s, k) & HELD != 0);
                let other_sent = link.share(|s| bits(s, o) & SENT != 0, |s| bits(s, k) & READY != 0);
                let msgs = link.spans[k];
                let span = link.span_sum[k] as f64 / msgs.max(1) as f64;
                let sent_msgs = link.count(|s| bits(s, k) & SENT != 0) as f64 / m;
                let lost = link.count(|s| bits(s, k) & READY != 0 && bits(s, o) & SENT != 0) as f64 / sent_msgs.max(1.0);
                let (mh, mo, spf, spf_flit) = chain_terms(vticks, chain, c);
                writeln!(csv, "{pt},{class},{name},{:.5},{:.5},{:.5},{other_held:.5},{other_sent:.5},{msgs},{span:.3},{lost:.3},{mh:.5},{mo:.5},{spf:.5},{spf_flit:.5}", frac(HELD), frac(READY), frac(SENT)).unwrap();
            }
        }
        // R2's losses to R1 in lumps, per router link; per R2 message as
        // `lost_to_other` divides (its flits sent over M).
        // Per port (0 the ejection, 1 + s dimension s), R2's measured lumps.
        let mut measured = Vec::new();
        for p in 0..ports {
            let name = if p == 0 { "ejection".to_string() } else { format!("hop{}", p - 1) };
            let sent_msgs = probe.links[p].count(|s| bits(s, 1) & SENT != 0) as f64 / m;
            let l = &probe.lumps[p];
            let per = |w: Option<usize>| {
                let (k, x) = l.totals(w);
                (k as f64 / sent_msgs.max(1.0), x as f64 / k.max(1) as f64)
            };
            let ((all_n, all_x), (a_n, a_x), (b_n, b_x)) = (per(None), per(Some(0)), per(Some(1)));
            let untouched = l.r2_untouched as f64 / sent_msgs.max(1.0);
            writeln!(over, "{pt},{name},{sent_msgs:.0},{:.3},{all_n:.5},{all_x:.3},{a_n:.5},{a_x:.3},{b_n:.5},{b_x:.3},{untouched:.5}", all_n * all_x).unwrap();
            measured.push(l.as_row_delay(sent_msgs));
            for x in 1..l.hist[0].len().max(l.hist[1].len()) {
                let h = |w: usize| l.hist[w].get(x).copied().unwrap_or(0);
                if h(0) + h(1) > 0 {
                    writeln!(lumps, "{pt},{name},{x},{},{}", h(0), h(1)).unwrap();
                }
            }
        }
        // R2's tail in `kim2005_cube_vcq_body` with the row's link delays,
        // with the measured lumps at the ejection link, and at every router
        // link (the injection link's term stays the row's).
        let row = BodyDelays::of(model, &sol, 1);
        let ejection = BodyDelays { ejection: measured[0].clone(), ..row.clone() };
        let links = BodyDelays { ejection: measured[0].clone(), hops: measured[1..].to_vec(), ..row.clone() };
        for (h, ds) in [(2usize, [55.0, 60.0]), (5, [70.0, 75.0])] {
            for (variant, body) in [("row", &row), ("ejection_measured", &ejection), ("links_measured", &links)] {
                let (_, miss) = cube_vcq_body_miss_with(model, &sol, 1, body, Some(h), &ds).unwrap_or_else(|| usage(&format!("{file}: a VC queue has no steady state at {pt}")));
                let sets: Vec<usize> = (0usize..1 << n).filter(|s| s.count_ones() as usize == h).collect();
                let mean = sets.iter().map(|&s| body.path_pmf(s, 2000).iter().enumerate().map(|(k, p)| k as f64 * p).sum::<f64>()).sum::<f64>() / sets.len() as f64;
                for (d, m) in ds.iter().zip(miss) {
                    writeln!(attr, "{pt},{h},{d},{variant},{m:.6},{mean:.4}").unwrap();
                }
            }
        }
    }
    print!("{csv}");
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(out.join("links.csv"), csv).unwrap();
    std::fs::write(out.join("overlaps.csv"), over).unwrap();
    std::fs::write(out.join("lumps.csv"), lumps).unwrap();
    std::fs::write(out.join("attribution.csv"), attr).unwrap();
}

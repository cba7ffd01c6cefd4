//! R2's cube tail and the cube VC-queue variant's overshoot, measured
//! (issue 22, docs/reproduction.md "R2's cube tail and the cube variant's
//! overshoot, measured"). For each point `load:mix_rt:mix_be` of a
//! one-VC-per-class hypercube experiment, one run (`Sim::run_vc_waits_probed`)
//! gives:
//!
//! `hops.csv`, per real-time class and output link (`hop<s>` the link of
//! dimension s, output port 1 + s; `ejection` port 0), summed over the
//! routers, what `kim2005_cube_vcq` assumes of each link's VC beside what
//! the run shows: the headers' arrival rate at the VC (`lambda`, per link
//! and cycle) and the squared coefficient of variation of their
//! inter-arrival times at one link (`arrival_scv`; 1 for Poisson), the VC's
//! utilisation `rho` (allocated share of the cycles), its holding time
//! (VC allocation to release, mean `hold` and `hold_scv`), the headers'
//! mean wait in ROUTED beyond the VA cycle (`wait`, split by headers from
//! the injection port and from other links), and the waits of an M/D/1
//! queue at the model's rate and hold (`model_wait`), at the measured rate
//! and the model's hold (`md1_rate`), at the measured rate and hold
//! (`md1_measured`) and the M/G/1 with the measured hold's spread
//! (`mg1_measured`).
//!
//! `waits.csv`, per class: the same per message (each link's value times
//! its headers per message, summed), beside the measured mean W of
//! `vc_wait` (an independent count, per message).
//!
//! `tail.csv`, per class and `--tail h:D` (messages of h hops, deadline D):
//! over all of them and over those with L > D, the means of L and of its
//! parts beyond the fewest cycles each part took (W at the first router,
//! the middle ones and the last (the ejection VC); `active`: the header at
//! the front of an input VC holding its output VC, i.e. switch, link and
//! credit waits after VC allocation; `queued`: the header's other cycles,
//! behind flits in the input VCs; `body`: tail delivered less the header's
//! last cycle; `body_sd` its standard deviation), and P{L − part > D} for
//! each part.
//!
//! cargo run --release -p wormqos-netsim --example cube_vcq_hops -- \
//!     experiments/fig7_000_cube6.toml experiments/results/cube_vcq_hops \
//!     --cycles 200000 --tail 2:55 --tail 5:70 0.112:0.048:0.064 0.256:0.192:0.064

#[path = "vc_wait_common/point.rs"]
mod point;

use point::{parse_point, point_text};
use std::fmt::Write as _;
use std::path::Path;
use wormqos_netsim::analytic::predict::{self, Options, Plan};
use wormqos_netsim::analytic::vc_queue_tail::cube_vcq_miss;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;
use wormqos_sim::{Router, VcState};

fn usage(why: &str) -> ! {
    eprintln!("cube_vcq_hops: {why}\nusage: cube_vcq_hops <experiment.toml> <out_dir> --cycles N [--tail h:D]... load:mix_rt:mix_be...");
    std::process::exit(2);
}

/// The real-time classes' VCs (`vc_classes = [2, 1, 0]`): (VC, class, the
/// model's class index).
const RT: [(usize, u8, usize); 2] = [(0, 2, 0), (1, 1, 1)];

/// Per real-time VC and output port, summed over the routers.
#[derive(Clone, Default)]
struct Link {
    /// Headers that entered ROUTED for this output, by [from a link, from
    /// the injection port]: count and summed waits (ROUTED cycles − 1).
    arrivals: [u64; 2],
    wait_sum: [u64; 2],
    /// Inter-arrival times of headers at one (router, output): n, Σ, Σ².
    gaps: u64,
    gap_sum: f64,
    gap_sq: f64,
    /// Cycles the output VC was allocated; completed holds, Σ, Σ².
    busy: u64,
    holds: u64,
    hold_sum: f64,
    hold_sq: f64,
    /// Per input port: the headers that asked for this output, and of
    /// them those that found the VC held by a message from the same input
    /// port, and from another (the holder by `Router::owner`).
    by_port: Vec<u64>,
    found_same: u64,
    found_other: u64,
    /// Cycles the output VC's buffer held flits, and in those cycles what
    /// the link sent: a flit of this VC, of VC u (`other[u]`, this VC's
    /// entry unused), nothing (credits, or the pipeline).
    queued: u64,
    sent_self: u64,
    other: [u64; 3],
    idle: u64,
}

struct Probe {
    from: u64,
    ports: usize,
    cycles: u64,
    links: Vec<[Link; 2]>,
    /// Per (router, input port, RT VC): the cycle its header entered ROUTED
    /// and the output it asked for.
    routed: Vec<Option<(u64, usize)>>,
    /// Per (router, output port, RT VC): the last header arrival, and the
    /// cycle the VC was allocated.
    last_arrival: Vec<Option<u64>>,
    since: Vec<Option<u64>>,
}

impl Probe {
    fn new(routers: usize, ports: usize, from: u64) -> Probe {
        let n = routers * ports * RT.len();
        let link = Link { by_port: vec![0; ports], ..Link::default() };
        Probe { from, ports, cycles: 0, links: vec![[link.clone(), link]; ports], routed: vec![None; n], last_arrival: vec![None; n], since: vec![None; n] }
    }

    fn observe(&mut self, cycle: u64, routers: &[Router]) {
        let counting = cycle >= self.from;
        self.cycles += counting as u64;
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                for (k, &(vc, _, _)) in RT.iter().enumerate() {
                    let i = (r * self.ports + p) * RT.len() + k;
                    // Input side: a header's visit to ROUTED is one arrival
                    // at the output VC it asks for.
                    match (router.vc_state(p, vc), self.routed[i]) {
                        (VcState::Routed { route }, None) => {
                            self.routed[i] = Some((cycle, route));
                            let j = (r * self.ports + route) * RT.len() + k;
                            if let Some(prev) = self.last_arrival[j].filter(|&a| a >= self.from) {
                                let g = (cycle - prev) as f64;
                                let l = &mut self.links[route][k];
                                l.gaps += 1;
                                l.gap_sum += g;
                                l.gap_sq += g * g;
                            }
                            self.last_arrival[j] = Some(cycle);
                            if counting {
                                let l = &mut self.links[route][k];
                                l.by_port[p] += 1;
                                if router.allocated(route, vc) {
                                    let holder = router.owner(route, vc).unwrap() / router.config().vcs();
                                    l.found_same += (holder == p) as u64;
                                    l.found_other += (holder != p) as u64;
                                }
                            }
                        }
                        (VcState::Routed { .. }, Some(_)) => {}
                        (_, Some((at, o))) => {
                            self.routed[i] = None;
                            if at >= self.from {
                                let l = &mut self.links[o][k];
                                let b = (p == 0) as usize;
                                l.arrivals[b] += 1;
                                l.wait_sum[b] += cycle - at - 1;
                            }
                        }
                        _ => {}
                    }
                    // Output side: VC (p, vc) allocated, and its holds.
                    let held = router.allocated(p, vc);
                    let l = &mut self.links[p][k];
                    l.busy += (counting && held) as u64;
                    if counting && router.output_occupancy(p, vc) > 0 {
                        let f = router.outputs().flits[p];
                        l.queued += 1;
                        match (f.valid, f.vc as usize) {
                            (false, _) => l.idle += 1,
                            (true, u) if u == vc => l.sent_self += 1,
                            (true, u) => l.other[u.min(2)] += 1,
                        }
                    }
                    match (held, self.since[i]) {
                        (true, None) => self.since[i] = Some(cycle),
                        (false, Some(at)) => {
                            self.since[i] = None;
                            if at >= self.from {
                                let h = (cycle - at) as f64;
                                l.holds += 1;
                                l.hold_sum += h;
                                l.hold_sq += h * h;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

/// The M/G/1 mean wait λE[S²]/(2(1 − λE[S])) (M/D/1: E[S²] = E[S]²);
/// NaN at or beyond saturation.
fn mg1(lambda: f64, es: f64, es2: f64) -> f64 {
    let rho = lambda * es;
    if rho < 1.0 {
        lambda * es2 / (2.0 * (1.0 - rho))
    } else {
        f64::NAN
    }
}

/// One message's parts (cycles), as `tail.csv` defines them.
struct Parts {
    latency: f64,
    w_first: f64,
    w_mid: f64,
    w_last: f64,
    active: f64,
    queued: f64,
    body: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        usage("missing arguments");
    }
    let (file, out) = (&args[0], Path::new(&args[1]));
    let (mut cycles, mut tails, mut points) = (None, Vec::new(), Vec::new());
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--cycles" => {
                let v = args.get(i + 1).unwrap_or_else(|| usage("--cycles needs a value"));
                cycles = Some(v.parse::<u64>().unwrap_or_else(|_| usage(&format!("--cycles = {v:?} is not a whole number"))));
                i += 2;
            }
            "--tail" => {
                let v = args.get(i + 1).unwrap_or_else(|| usage("--tail needs h:D"));
                let (h, d) = v.split_once(':').unwrap_or_else(|| usage(&format!("--tail = {v:?}: want h:D")));
                let h: u32 = h.parse().ok().filter(|h| (1..=16).contains(h)).unwrap_or_else(|| usage(&format!("--tail = {v:?}: hops {h:?} must be a whole number in 1..=16")));
                let d: f64 = d.parse().ok().filter(|d: &f64| *d > 0.0).unwrap_or_else(|| usage(&format!("--tail = {v:?}: deadline {d:?} must be a number > 0")));
                tails.push((h, d));
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
    let mut hops_csv = String::from("point,class,link,headers_per_message,lambda,model_lambda,arrival_scv,rho,lambda_x_hold,model_rho,hold,hold_scv,model_hold,wait,wait_from_link,wait_from_injection,headers_from_injection,model_wait,md1_rate,md1_measured,mg1_measured,found_held,found_held_same_port,mg1_other_ports,lost_to_r1,lost_to_r2,lost_to_be,lost_idle\n");
    let mut waits_csv = String::from("point,class,messages,vc_wait_mean,links_wait,model_wait,model_vcq_mean,md1_rate,md1_measured,mg1_measured,mg1_other_ports,lost_to_r1,lost_to_r2,lost_to_be,lost_idle\n");
    let mut tail_csv = String::from("point,class,hops,deadline,group,messages,latency,latency_min,w_first,w_mid,w_last,active,queued,body,body_sd,p_sim,p_less_w,p_less_w_first,p_less_w_mid,p_less_w_last,p_less_active,p_less_queued,p_less_body\n");
    for &(load, mix) in &points {
        let pt = format!("{load}:{}:{}", mix.0, mix.1);
        let v = Experiment::from_str(&point_text(&text, file, load, mix, cycles).unwrap_or_else(|e| usage(&e)), file, dir.clone()).unwrap_or_else(|e| usage(&e.to_string()));
        let plan = predict::plan_with(&v, &Options { vc_queue: true, ..Options::default() }).unwrap_or_else(|e| usage(&e.to_string()));
        let Plan::Cube { model, classes, .. } = &plan else { usage(&format!("{file}: not a hypercube experiment")) };
        let sol = model.solve().unwrap_or_else(|e| usage(&format!("{file}: the cube model has no solution at {pt}: {e:?}")));
        let n = model.n;
        let ports = v.configs[0].ports();
        if ports != n + 1 || v.configs[0].vc_classes() != Some(&[2, 1, 0][..]) {
            usage(&format!("{file}: want an n-cube of (n + 1)-port routers with vc_classes = [2, 1, 0]"));
        }
        let warmup = v.run_cycles().1;
        let mut probe = Probe::new(v.net.routers, ports, warmup);
        let t0 = std::time::Instant::now();
        let mut observe = |c: u64, r: &[Router]| probe.observe(c, r);
        let (_, log, waits) = Sim::new(&v).unwrap().run_vc_waits_probed(&mut observe).unwrap_or_else(|e| usage(&e.to_string()));
        eprintln!("point {pt}: {} messages, {:.1} s", log.len(), t0.elapsed().as_secs_f64());
        let routers = v.net.routers as f64;
        let share = (1u64 << (n - 1)) as f64 / ((1u64 << n) - 1) as f64;
        for (k, &(_, class, c)) in RT.iter().enumerate() {
            assert_eq!(classes.get(c), Some(&class), "model class {c} is not class {class}");
            let lam_c = model.router.rt_rates[c];
            let kc = &sol.classes[c];
            let messages = log.iter().filter(|m| m.class == class && m.created >= warmup).count();
            // Per message: every message ejects once, so the ejection's
            // headers are the messages (of the probe's window).
            let ej_headers = (probe.links[0][k].arrivals[0] + probe.links[0][k].arrivals[1]) as f64;
            let mut sums = [0.0f64; 6]; // links_wait, model_wait, md1_rate, md1_measured, mg1_measured, mg1_other_ports
            for o in (1..ports).chain([0]) {
                let l = &probe.links[o][k];
                let heads = (l.arrivals[0] + l.arrivals[1]) as f64;
                let per_msg = heads / ej_headers;
                let lambda = heads / (probe.cycles as f64 * routers);
                let gap_mean = l.gap_sum / l.gaps as f64;
                let scv = (l.gap_sq / l.gaps as f64 - gap_mean * gap_mean) / (gap_mean * gap_mean);
                let rho = l.busy as f64 / (probe.cycles as f64 * routers);
                let hold = l.hold_sum / l.holds as f64;
                let hold_sq = l.hold_sq / l.holds as f64;
                let hold_scv = (hold_sq - hold * hold) / (hold * hold);
                let (name, model_lambda, model_hold, model_per_msg) = if o == 0 {
                    ("ejection".to_string(), lam_c, model.router.stages - 1.0 + model.router.msg_flits[c] * kc.cycles_per_flit[n], 1.0)
                } else {
                    (format!("hop{}", o - 1), lam_c * share, kc.channel_latency[o - 1], share)
                };
                let wait = (l.wait_sum[0] + l.wait_sum[1]) as f64 / heads;
                let w_link = l.wait_sum[0] as f64 / l.arrivals[0].max(1) as f64;
                let w_inj = l.wait_sum[1] as f64 / l.arrivals[1].max(1) as f64;
                let model_wait = mg1(model_lambda, model_hold, model_hold * model_hold);
                let md1_rate = mg1(lambda, model_hold, model_hold * model_hold);
                let md1_measured = mg1(lambda, hold, hold * hold);
                let mg1_measured = mg1(lambda, hold, hold_sq);
                // Headers from one input port follow each other at least a
                // message apart: count only the other ports' share of ρ in
                // the residual term (an approximation, beside the measured
                // P{found held} split by the holder's port).
                let mg1_other_ports = l.by_port.iter().map(|&a| {
                    let f = a as f64 / heads.max(1.0);
                    f * rho * (1.0 - f) * hold_sq / (2.0 * hold * (1.0 - rho))
                }).sum::<f64>();
                let counted: u64 = l.by_port.iter().sum();
                let found = (l.found_same + l.found_other) as f64 / counted.max(1) as f64;
                let found_same = l.found_same as f64 / counted.max(1) as f64;
                // Cycles per message (of this class) its flits waited in this
                // output buffer while the link sent another VC's flit or none.
                let lost = |x: u64| x as f64 / ej_headers;
                for (s, x) in sums.iter_mut().zip([wait * per_msg, model_wait * model_per_msg, md1_rate * per_msg, md1_measured * per_msg, mg1_measured * per_msg, mg1_other_ports * per_msg]) {
                    *s += x;
                }
                writeln!(
                    hops_csv,
                    "{pt},{class},{name},{per_msg:.4},{lambda:.6},{model_lambda:.6},{scv:.4},{rho:.5},{:.5},{:.5},{hold:.3},{hold_scv:.4},{model_hold:.3},{wait:.4},{w_link:.4},{w_inj:.4},{},{model_wait:.4},{md1_rate:.4},{md1_measured:.4},{mg1_measured:.4},{found:.5},{found_same:.5},{mg1_other_ports:.4},{:.4},{:.4},{:.4},{:.4}",
                    lambda * hold,
                    model_lambda * model_hold,
                    l.arrivals[1],
                    lost(l.other[0]),
                    lost(l.other[1]),
                    lost(l.other[2]),
                    lost(l.idle),
                )
                .unwrap();
            }
            // Per message, summed over the links it crosses (every link's
            // counts are per message of the class already).
            let lost_all = (0..ports).fold([0.0; 4], |a, o| {
                let l = &probe.links[o][k];
                [a[0] + l.other[0] as f64 / ej_headers, a[1] + l.other[1] as f64 / ej_headers, a[2] + l.other[2] as f64 / ej_headers, a[3] + l.idle as f64 / ej_headers]
            });
            let vc_wait_mean = {
                let w: Vec<f64> = log.iter().zip(&waits.messages).filter(|(m, _)| m.class == class && m.created >= warmup).map(|(_, w)| w.queueing() as f64).collect();
                w.iter().sum::<f64>() / w.len() as f64
            };
            let (model_vcq_mean, _) = cube_vcq_miss(model, &sol, c, None, &[1.0]).unwrap_or((f64::NAN, vec![]));
            writeln!(waits_csv, "{pt},{class},{messages},{vc_wait_mean:.4},{:.4},{:.4},{model_vcq_mean:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}", sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], lost_all[0], lost_all[1], lost_all[2], lost_all[3]).unwrap();
            for &(h, d) in &tails {
                let parts: Vec<Parts> = log
                    .iter()
                    .zip(&waits.messages)
                    .filter(|(m, _)| m.class == class && m.created >= warmup && (m.src ^ m.dest).count_ones() == h)
                    .map(|(m, w)| {
                        let w_first = (w.first_routed - 1) as f64;
                        let w_last = (w.last_routed - 1) as f64;
                        let wq = w.queueing() as f64;
                        let head = (w.head_seen - m.injected) as f64;
                        Parts { latency: (m.delivered - m.injected) as f64, w_first, w_mid: wq - w_first - w_last, w_last, active: w.head_active_cycles as f64, queued: head - w.routed_cycles as f64 - w.head_active_cycles as f64, body: (m.delivered - w.head_seen) as f64 }
                    })
                    .collect();
                if parts.is_empty() {
                    continue;
                }
                let min = |f: &dyn Fn(&Parts) -> f64| parts.iter().map(f).fold(f64::INFINITY, f64::min);
                let (a0, q0, b0, l0) = (min(&|p| p.active), min(&|p| p.queued), min(&|p| p.body), min(&|p| p.latency));
                let excess = |p: &Parts| [p.w_first + p.w_mid + p.w_last, p.w_first, p.w_mid, p.w_last, p.active - a0, p.queued - q0, p.body - b0];
                let all: Vec<&Parts> = parts.iter().collect();
                let over: Vec<&Parts> = parts.iter().filter(|p| p.latency > d).collect();
                for (group, set) in [("all", &all), ("over", &over)] {
                    let nn = set.len().max(1) as f64;
                    let mean = |f: &dyn Fn(&Parts) -> f64| set.iter().map(|p| f(p)).sum::<f64>() / nn;
                    let e: Vec<f64> = (0..7).map(|j| mean(&|p| excess(p)[j])).collect();
                    let body_sd = (mean(&|p| (excess(p)[6] - e[6]).powi(2))).sqrt();
                    let mut row = format!("{pt},{class},{h},{d},{group},{},{:.3},{l0},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{body_sd:.4}", set.len(), mean(&|p| p.latency), e[1], e[2], e[3], e[4], e[5], e[6]);
                    if group == "all" {
                        let p_over = |f: &dyn Fn(&Parts) -> f64| parts.iter().filter(|p| p.latency - f(p) > d).count() as f64 / parts.len() as f64;
                        write!(row, ",{:.4}", p_over(&|_| 0.0)).unwrap();
                        for j in 0..7 {
                            write!(row, ",{:.4}", p_over(&|p| excess(p)[j])).unwrap();
                        }
                    } else {
                        row += ",,,,,,,,";
                    }
                    tail_csv += &row;
                    tail_csv.push('\n');
                }
            }
        }
    }
    print!("{hops_csv}\n{waits_csv}\n{tail_csv}");
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(out.join("hops.csv"), hops_csv).unwrap();
    std::fs::write(out.join("waits.csv"), waits_csv).unwrap();
    std::fs::write(out.join("tail.csv"), tail_csv).unwrap();
}

//! Why 000_…'s deadline missing probability is below the simulated tail
//! (docs/reproduction.md "Why the DMP model is below the simulated tail
//! (issue 22)"): for each point `load:mix_rt:mix_be` of a one-VC-per-class
//! experiment, one run with `Sim::run_vc_waits` gives, per real-time class
//! (over the messages created after the warm-up; with `--hops h` only
//! those crossing h links),
//!
//! - `sim`: P{L > D}, L the network latency (header injected to tail
//!   delivered), as `wormqos model --with-sim` counts it;
//! - `sim_less_wait`: P{L − W > D}, W the cycles the header waited for an
//!   output VC summed over its routers (beyond each router's VA cycle);
//! - `model`, `model_vcq`: the `kim2005` / `kim2005_cube` row and the same
//!   with the M/D/1 VC wait added (`kim2005_vcq` / `kim2005_cube_vcq`);
//! - W's mean, P{W > 0}, P{W > 10}, P{W > 20} and, on the single router,
//!   the class VC's measured utilisation ρ (allocated share of the output
//!   VC's cycles) and the M/D/1 values at that ρ and λ (service ρ/λ).
//!
//! Writes `<out>/dmp_vc_wait.csv` and prints it.
//!
//! cargo run --release -p wormqos-netsim --example dmp_vc_wait -- \
//!     experiments/fig4_000_np.toml experiments/results/dmp_vc_wait_np \
//!     --cycles 300000 --deadline 42 --deadline 47 0.384:0.064:0.32 0.448:0.128:0.32

#[path = "vc_wait_common/point.rs"]
mod point;

use point::{parse_point, point_text};
use std::path::Path;
use wormqos_netsim::analytic::predict::{self, Options};
use wormqos_netsim::analytic::vc_queue_tail::md1_wait_cdf;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

fn usage(why: &str) -> ! {
    eprintln!("dmp_vc_wait: {why}\nusage: dmp_vc_wait <experiment.toml> <out_dir> --cycles N [--hops h] --deadline D... load:mix_rt:mix_be...");
    std::process::exit(2);
}

fn number<T: std::str::FromStr>(what: &str, s: &str) -> T {
    s.parse().unwrap_or_else(|_| usage(&format!("{what} = {s:?} is not a number")))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        usage("missing arguments");
    }
    let (file, out) = (&args[0], Path::new(&args[1]));
    let (mut cycles, mut hops, mut deadlines, mut points) = (None, None, Vec::new(), Vec::new());
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--cycles" | "--hops" | "--deadline" => {
                let v = args.get(i + 1).unwrap_or_else(|| usage(&format!("{} needs a value", args[i])));
                match args[i].as_str() {
                    "--cycles" => cycles = Some(number::<u64>("--cycles", v)),
                    "--hops" => hops = Some(number::<usize>("--hops", v)),
                    _ => deadlines.push(number::<f64>("--deadline", v)),
                }
                i += 2;
            }
            p => {
                points.push(parse_point(p).unwrap_or_else(|e| usage(&e)));
                i += 1;
            }
        }
    }
    let cycles = cycles.unwrap_or_else(|| usage("--cycles is required"));
    if deadlines.is_empty() || points.is_empty() {
        usage("want at least one --deadline and one point");
    }
    let path = Path::new(file);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| usage(&format!("{file}: {e}")));
    let dir = path.parent().unwrap().to_path_buf();
    let mut csv = String::from("point,class,hops,deadline,messages,sim,sim_less_wait,model,model_vcq,wait_mean,wait_p0,wait_p10,wait_p20,vc_rho,md1_p0,md1_mean,md1_p10,md1_p20\n");
    for &(load, mix) in &points {
        let v = Experiment::from_str(&point_text(&text, file, load, mix, cycles).unwrap_or_else(|e| usage(&e)), file, dir.clone()).unwrap_or_else(|e| usage(&e.to_string()));
        let plan = predict::plan_with(&v, &Options { hops, vc_queue: true, ..Options::default() }).unwrap_or_else(|e| usage(&e.to_string()));
        let rows = plan.evaluate(&deadlines);
        let t0 = std::time::Instant::now();
        let (_, log, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap_or_else(|e| usage(&e.to_string()));
        eprintln!("point {load}:{}:{}: {} messages, {:.1} s", mix.0, mix.1, log.len(), t0.elapsed().as_secs_f64());
        let warmup = v.run_cycles().1;
        let ports = v.configs[0].ports();
        let partition = v.configs[0].vc_classes().unwrap_or(&[]).to_vec();
        for class in [2u8, 1] {
            let picked: Vec<(f64, f64)> = log
                .iter()
                .zip(&waits.messages)
                .filter(|(m, _)| m.class == class && m.created >= warmup && hops.map_or(true, |h| (m.src ^ m.dest).count_ones() as usize == h))
                .map(|(m, w)| ((m.delivered - m.injected) as f64, w.queueing() as f64))
                .collect();
            let n = picked.len() as f64;
            let share = |f: &dyn Fn(&(f64, f64)) -> bool| picked.iter().filter(|x| f(x)).count() as f64 / n;
            let wait_mean = picked.iter().map(|x| x.1).sum::<f64>() / n;
            // The class's output VC on the one router: its utilisation
            // over every output port, and the M/D/1 queue at that ρ with
            // the class's per-port rate (uniform destinations).
            let (rho, md1) = if waits.routers == 1 {
                let u = partition.iter().position(|&c| c == class as u32).expect("a VC of the class");
                let held: u64 = (0..ports).map(|o| waits.held[o * waits.vcs + u]).sum();
                let rho = held as f64 / (waits.cycles as f64 * ports as f64);
                let rt = mix.0 / 32.0; // R1 + R2 messages per cycle per port
                let lambda = if class == 2 { rt * 2.0 / 3.0 } else { rt / 3.0 };
                let t = rho / lambda;
                (rho, [rho, rho * t / (2.0 * (1.0 - rho)), 1.0 - md1_wait_cdf(lambda, t, 10.0), 1.0 - md1_wait_cdf(lambda, t, 20.0)])
            } else {
                (f64::NAN, [f64::NAN; 4])
            };
            let model_of = |name: &str, k: usize| -> f64 {
                rows.iter()
                    .find(|r| r.name == name)
                    .and_then(|r| r.result.as_ref().ok())
                    .and_then(|cs| cs.iter().find(|c| c.class == class))
                    .map_or(f64::NAN, |c| c.miss[k])
            };
            let (base, vcq) = if waits.routers == 1 { ("kim2005", "kim2005_vcq") } else { ("kim2005_cube", "kim2005_cube_vcq") };
            for (k, &d) in deadlines.iter().enumerate() {
                csv += &format!(
                    "{load}:{}:{},{class},{},{d},{},{:.4},{:.4},{:.4},{:.4},{:.3},{:.4},{:.4},{:.4},{:.4},{:.4},{:.3},{:.4},{:.4}\n",
                    mix.0,
                    mix.1,
                    hops.map_or("all".to_string(), |h| h.to_string()),
                    picked.len(),
                    share(&|x| x.0 > d),
                    share(&|x| x.0 - x.1 > d),
                    model_of(base, k),
                    model_of(vcq, k),
                    wait_mean,
                    share(&|x| x.1 > 0.0),
                    share(&|x| x.1 > 10.0),
                    share(&|x| x.1 > 20.0),
                    rho,
                    md1[0],
                    md1[1],
                    md1[2],
                    md1[3],
                );
            }
        }
    }
    print!("{csv}");
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(out.join("dmp_vc_wait.csv"), csv).unwrap();
}

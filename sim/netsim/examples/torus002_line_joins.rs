//! Who joins the line behind a blocked header, measured per blocked header
//! (docs/reproduction.md, "Who joins the line behind a blocked header"):
//! the line model's n̄ = q λ_c W_b ("The line of headers built into the
//! model") counts Poisson arrivals at λ_c, each joining with the escape
//! chain's q, over the blocked header's wait. Here, for every header that
//! found all the VCs it may take held (`ChannelProbe`'s
//! `LineCounts`, read-only on the routers): the cycles it waited, the
//! headers that reached its output port meanwhile (and from which input),
//! those that found their VCs held too (joins), and at its grant those it
//! left waiting behind it and those it overtook. Beside them λ_c, q at the
//! measured busy VCs (`escape_vcs::mean_line_joining`) and q λ_c × the
//! measured window, the line model's joins on the measured wait, and the
//! headers ahead that had found their VCs held too (the joins seen from
//! the joiner's side); and the
//! line model's own n̄, W_b and joining rate n̄ / W_b (`line_absorbed` of
//! `torus002_absorbed`, with the light-load extra hold `--hold-extra`;
//! empty where it has no solution).
//!
//! Writes `<out>/joins.csv`, one row per load and dimension. `--seed S`
//! runs the experiment with seed S instead of its own.
//!
//! cargo run --release -p wormqos-netsim --example torus002_line_joins -- \
//!     --hold-extra 9.827631021335328 experiments/torus_002_atomic.toml \
//!     experiments/results/torus_002_line_joins 100000 0.04 0.08 0.1 0.11 0.12 0.125

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::escape_vcs::mean_line_joining;
use wormqos_netsim::analytic::torus002::{blocking_span, HoldGrowth, TorusModel, Variant, VcWait};
use wormqos_netsim::channel_probe::ChannelProbe;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

fn usage(why: &str) -> ! {
    eprintln!("torus002_line_joins: {why}\nusage: torus002_line_joins --hold-extra X [--seed S] <experiment.toml> <out_dir> <cycles> <load>...");
    std::process::exit(2);
}

/// Sets `key = value` on the first line that assigns `key`.
fn set(text: &mut String, file: &str, key: &str, value: &str) {
    let Some(at) = text.find(&format!("\n{key} = ")) else { usage(&format!("{file}: no line `{key} = …` to set")) };
    let at = at + 1;
    let end = at + text[at..].find('\n').unwrap_or(text.len() - at);
    text.replace_range(at..end, &format!("{key} = {value}"));
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 || args[0] != "--hold-extra" {
        usage("too few arguments");
    }
    let extra: f64 = match args[1].parse() {
        Ok(x) if f64::is_finite(x) && x >= 0.0 => x,
        _ => usage(&format!("--hold-extra {:?}: want a finite number of cycles >= 0", args[1])),
    };
    let mut args = &args[2..];
    // `--seed S`: another run of the same experiment (the file's seed
    // otherwise).
    let mut seed: Option<u64> = None;
    if args.first().is_some_and(|a| a == "--seed") {
        match args.get(1).map(|x| x.parse::<u64>()) {
            Some(Ok(x)) => seed = Some(x),
            _ => usage(&format!("--seed {:?}: want a whole number", args.get(1))),
        }
        args = &args[2..];
        if args.len() < 4 {
            usage("too few arguments");
        }
    }
    let (file, out) = (&args[0], PathBuf::from(&args[1]));
    match args[2].parse::<u64>() {
        Ok(c) if (20_000..=10_000_000).contains(&c) => {}
        _ => usage(&format!("cycles = {:?}: want a whole number in [20000, 10000000] (the run's warm-up is 10000)", args[2])),
    }
    for l in &args[3..] {
        match l.parse::<f64>() {
            Ok(x) if x > 0.0 && x <= 1.0 => {}
            _ => usage(&format!("load {l:?}: want a number of flits per node per cycle in (0, 1]")),
        }
    }
    let base = std::fs::read_to_string(file).unwrap_or_else(|e| usage(&format!("{file}: {e}"))).split("[sweep]").next().unwrap().to_string();
    let mut csv = String::from(
        "load,dim,lambda_c,busy,continuing_share,found_held_headers,ahead,wait_found_held,window,arrival_rate_in_window,continuing_share_in_window,q_sim,q_model_at_busy,joins,joins_poisson,left_after,left_before,same_set_share,q_same_set,q_other_set,free_share_of_window,ahead_held,model_ahead,model_wait_blocked,model_joining_rate\n",
    );
    for load in &args[3..] {
        let mut text = base.clone();
        set(&mut text, file, "load", load);
        set(&mut text, file, "cycles", &args[2]);
        if let Some(x) = seed {
            set(&mut text, file, "seed", &x.to_string());
        }
        let v = Experiment::from_str(&text, file, PathBuf::new())?;
        let l = v.configs[0].vcs();
        if l != 3 {
            usage(&format!("{file}: router.vcs = {l}, want 3 (002_…'s escape arrangement the joins are computed for)"));
        }
        let n = v.net.ports_needed - 1;
        let k = (v.net.routers as f64).powf(1.0 / n as f64).round() as usize;
        // Output ports 1..=n are the dimensions; port 0 the endpoint.
        let dims_of: Vec<Option<usize>> = (0..v.configs[0].ports()).map(|o| (1..=n).contains(&o).then(|| o - 1)).collect();
        // The line model as `torus002_absorbed` builds it (`line_absorbed`).
        let cfg = &v.configs[0];
        let m = v.exp.workload.class_flits(0) as f64;
        let span = blocking_span(m as usize, cfg.input_buffer_depth(), cfg.output_buffer_depth());
        let line_model = Variant::corrected(extra, HoldGrowth::SharedChannel).with_span(span).with_wait(VcWait::EscapeLine).with_absorption(cfg.input_buffer_depth() + cfg.output_buffer_depth());
        let model = TorusModel { radix: vec![k; n], vcs: l, msg_flits: m, rate: load.parse::<f64>()? / m, router_delay: 4.0 }.solve_with(line_model).ok();
        let mut probe = ChannelProbe::new(&v.net, l, dims_of, v.run_cycles().1);
        let mut observe = |c: u64, r: &[wormqos_sim::Router]| probe.observe(c, r);
        let res = Sim::new(&v)?.run_probed(&mut observe)?;
        for (i, d) in probe.stats().iter().enumerate() {
            let line = &d.found_held_line;
            let h = d.found_held_headers.max(1) as f64;
            let busy: f64 = d.busy.iter().enumerate().map(|(j, p)| j as f64 * p).sum();
            let q_model = mean_line_joining(busy, l, k).unwrap_or(f64::NAN);
            let window = line.window as f64 / h;
            let rate = line.arrivals as f64 / line.window.max(1) as f64;
            writeln!(
                csv,
                "{load},{i},{:.6},{busy:.4},{:.4},{},{:.4},{:.3},{window:.3},{rate:.6},{:.4},{:.4},{q_model:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{}",
                d.arrival_rate,
                d.continuing,
                d.found_held_headers,
                d.found_held_ahead,
                d.found_held_wait,
                line.arrivals_continuing as f64 / line.arrivals.max(1) as f64,
                line.joins as f64 / line.arrivals.max(1) as f64,
                line.joins as f64 / h,
                q_model * d.arrival_rate * window,
                line.left_after as f64 / h,
                line.left_before as f64 / h,
                line.arrivals_same_set as f64 / line.arrivals.max(1) as f64,
                line.joins_same_set as f64 / line.arrivals_same_set.max(1) as f64,
                (line.joins - line.joins_same_set) as f64 / (line.arrivals - line.arrivals_same_set).max(1) as f64,
                line.free_cycles as f64 / line.window.max(1) as f64,
                d.found_held_ahead_held,
                // W_b = W / P_B, the joining rate n̄ / W_b = q λ_c.
                model.as_ref().map_or(String::from(",,"), |s| {
                    let t = &s.dims[i];
                    format!("{:.4},{:.3},{:.6}", t.ahead, t.blocking / t.p_block, t.ahead * t.p_block / t.blocking)
                }),
            )?;
        }
        eprintln!("load {load}: network latency {:.2}, accepted {:.4}", res.classes[0].network_latency, res.accepted_throughput);
    }
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("joins.csv"), &csv)?;
    print!("{csv}");
    Ok(())
}

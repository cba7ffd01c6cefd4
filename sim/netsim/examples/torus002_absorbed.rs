//! The L = 3 torus model with the hold's downstream term, model only
//! (docs/reproduction.md, "The hold's downstream term"): the escape model
//! of "The wait for a VC, term by term" (`escape_span`: the shared
//! channel, the first-release wait with P_B by channel position, the hold's
//! blocking limited to the span the message's flits reach) and that with
//! each downstream wait's part the buffers absorb left out of the hold
//! (`absorbed_span`, `Variant::with_absorption`, input + output depth of
//! the experiment's router), and that with the queued model's line of
//! headers ahead of a blocked one (`queued_absorbed`, `VcWait::EscapeQueued`;
//! "The line ahead of a blocked header"), and that with the line built
//! into the model (`line_absorbed`, `VcWait::EscapeLine`; "The line of
//! headers built into the model"). No simulation: the simulated
//! rows these are compared with are `torus002_channels`' committed ones,
//! whose light-load extra hold `--hold-extra` takes. Writes
//! `<out>/model.csv`, one row per load, dimension and model (the hold
//! D_{d_i} + extra, P_B, W_{d_i}, the network latency; where it has no
//! solution the solver's reason, `why`), and `<out>/saturation.csv`, each
//! model's largest load with a solution (scanned in steps of 0.0005, then
//! bisected to 10⁻⁶, as
//! `torus002_channels`).
//!
//! cargo run --release -p wormqos-netsim --example torus002_absorbed -- \
//!     --hold-extra 9.827631021335328 experiments/torus_002_atomic.toml \
//!     experiments/results/torus_002_absorbed 0.04 0.08 0.1 0.11 0.12 0.125

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::torus002::{blocking_span, HoldGrowth, TorusError, TorusModel, Variant, VcWait};
use wormqos_netsim::Experiment;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(args.len() >= 5 && args[0] == "--hold-extra", "usage: torus002_absorbed --hold-extra X EXPERIMENT OUT_DIR LOAD...");
    let extra: f64 = args[1].parse().map_err(|e| anyhow::anyhow!("--hold-extra {}: {e}", args[1]))?;
    anyhow::ensure!(extra.is_finite() && extra >= 0.0, "--hold-extra {extra}: must be a finite number of cycles >= 0");
    let (file, out) = (&args[2], PathBuf::from(&args[3]));
    let loads: Vec<f64> = args[4..].iter().map(|l| l.parse::<f64>().map_err(|e| anyhow::anyhow!("load {l}: {e}"))).collect::<Result<_, _>>()?;
    anyhow::ensure!(loads.iter().all(|l| l.is_finite() && *l > 0.0), "loads must be positive flits/node/cycle");
    let base = std::fs::read_to_string(file)?.split("[sweep]").next().unwrap().to_string();
    let v = Experiment::from_str(&base, file, PathBuf::new())?;
    let cfg = &v.configs[0];
    let (l, m) = (cfg.vcs(), v.exp.workload.class_flits(0) as f64);
    let n = v.net.ports_needed - 1;
    let k = (v.net.routers as f64).powf(1.0 / n as f64).round() as usize;
    let span = blocking_span(m as usize, cfg.input_buffer_depth(), cfg.output_buffer_depth());
    let escape = Variant::corrected(extra, HoldGrowth::SharedChannel).with_span(span).with_wait(VcWait::EscapeByPosition);
    let absorbed = escape.with_absorption(cfg.input_buffer_depth() + cfg.output_buffer_depth());
    // The queued model's line (one more first release per header ahead)
    // on the absorbed hold ("The line ahead of a blocked header").
    // And the line built into the model (`line_absorbed`,
    // `VcWait::EscapeLine`; "The line of headers built into the model").
    let models = [("escape_span", escape), ("absorbed_span", absorbed), ("queued_absorbed", absorbed.with_wait(VcWait::EscapeQueued)), ("line_absorbed", absorbed.with_wait(VcWait::EscapeLine))];
    let model_at = |load: f64| TorusModel { radix: vec![k; n], vcs: l, msg_flits: m, rate: load / m, router_delay: 4.0 };
    // `why`: the solver's reason where a model has no solution (commas
    // as semicolons), so which limit ends a model is on record.
    // `ahead`: the model's headers ahead of a blocked one (0 without a line).
    let mut csv = String::from("load,dim,source,status,hold,blocked,wait,network_latency,why,ahead\n");
    for (load, text) in loads.iter().zip(&args[4..]) {
        for (name, var) in models {
            match model_at(*load).solve_with(var) {
                Ok(s) => {
                    for (i, t) in s.dims.iter().enumerate() {
                        writeln!(csv, "{text},{i},{name},ok,{:.3},{:.4},{:.3},{:.2},,{:.4}", t.service, t.p_block, t.blocking, s.network_latency, t.ahead)?;
                    }
                }
                Err(why) => {
                    let why = match why {
                        TorusError::Saturated(s) => s.replace(',', ";"),
                        TorusError::NoConvergence => "no convergence".into(),
                    };
                    (0..n).try_for_each(|i| writeln!(csv, "{text},{i},{name},saturated,,,,,{why},"))?
                }
            }
        }
    }
    let mut sat = String::from("source,saturation_load\n");
    for (name, var) in models {
        let solves = |x: f64| model_at(x).solve_with(var).is_ok();
        match (1..2000).map(|s| s as f64 * 0.0005).find(|&x| !solves(x)) {
            None => writeln!(sat, "{name},")?,
            Some(first_bad) => {
                let (mut lo, mut hi) = (first_bad - 0.0005, first_bad);
                while hi - lo > 1e-6 {
                    let mid = 0.5 * (lo + hi);
                    if solves(mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                writeln!(sat, "{name},{lo:.6}")?;
            }
        }
    }
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("model.csv"), csv)?;
    std::fs::write(out.join("saturation.csv"), sat)?;
    eprintln!("wrote {}", out.join("model.csv").display());
    Ok(())
}

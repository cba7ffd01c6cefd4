//! Which input of the L = 3 model's wait for a VC leaves it short near
//! saturation (docs/reproduction.md, "The line ahead of a blocked header"):
//! the absorbed model of "The hold's downstream term" (`absorbed_span`,
//! solved here as in `torus002_absorbed`) beside the committed simulated
//! terms of `torus002_channels` (`channels.csv` rows `sim`, `vc_wait.csv`
//! rows `all`, of each SIM_DIR), and the model's wait with one measured
//! input put in at a time. No simulation. Per load and dimension:
//!
//! - `model_*`: P_B, the hold D + extra, the first release R, the gap G
//!   from the first to the second release (`second_release_gap`), W, λ_c;
//! - `sim_*`: the share of headers blocked, the hold, the residual to the
//!   first release of a header that found its VCs held, the headers
//!   waiting ahead of it, its wait, W;
//! - `first_release_at_sim_hold`, `gap_at_sim_hold`: R and G of the
//!   measured mean hold (same fixed M + extra, the rest exponential);
//! - the model's W with: the measured P_B (`w_sim_p_block`), the measured
//!   hold (`w_sim_hold`), the queued model's line on its own terms,
//!   R / (1 − λ_c R) (`w_queued_form`), the measured headers ahead at one R
//!   each (`w_sim_ahead`) and at one G each (`w_sim_ahead_gap`);
//! - a found-held header's wait from measured terms only: first release
//!   plus one R each ahead (`wait_line_r`), plus one G each ahead
//!   (`wait_line_gap`), and the measured cost of one header ahead
//!   ((wait − first release) / ahead, `cost_per_ahead`);
//! - the line built into the model ("The line of headers built into the
//!   model"), on the absorbed model's terms without its feedback on the
//!   hold: the share q of the arrivals behind a blocked header that join
//!   its line at the absorbed model's ρ (`model_line_q`) and at the
//!   measured busy VCs (`q_at_sim_busy`, `escape_vcs::mean_line_joining`),
//!   and P_B R / (1 − q λ_c G) (`w_line_form`, empty where q λ_c G ≥ 1).
//!
//! Writes `<out>/inputs.csv`.
//!
//! cargo run --release -p wormqos-netsim --example torus002_wait_inputs -- \
//!     --hold-extra 9.827631021335328 experiments/torus_002_atomic.toml \
//!     experiments/results/torus_002_line experiments/results/torus_002_vcwait/{light,mid,heavy}

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use wormqos_netsim::analytic::escape_vcs::mean_line_joining;
use wormqos_netsim::analytic::torus002::{blocking_span, first_release, line_wait, second_release_gap, HoldGrowth, TorusModel, Variant, VcWait};
use wormqos_netsim::Experiment;

fn usage(why: &str) -> ! {
    eprintln!("torus002_wait_inputs: {why}\nusage: torus002_wait_inputs --hold-extra X <experiment.toml> <out_dir> <sim_dir>...");
    std::process::exit(2);
}

/// The rows of `file` whose `key` column is `value`, as column → text,
/// each with its line number.
fn rows(file: &Path, key: &str, value: &str) -> Vec<(usize, HashMap<String, String>)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| usage(&format!("{}: {e}", file.display())));
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap_or_else(|| usage(&format!("{}: empty", file.display()))).split(',').map(String::from).collect();
    lines
        .enumerate()
        .map(|(i, l)| (i + 2, head.iter().cloned().zip(l.split(',').map(String::from)).collect::<HashMap<_, _>>()))
        .filter(|(_, r)| r.get(key).is_some_and(|v| v == value))
        .collect()
}

/// Column `field` of a row as a number within `range`, or exit 2 naming
/// the file, line, field and value.
fn number(file: &Path, line: usize, row: &HashMap<String, String>, field: &str, range: std::ops::RangeInclusive<f64>) -> f64 {
    let text = row.get(field).map(String::as_str).unwrap_or("");
    match text.parse::<f64>() {
        Ok(x) if range.contains(&x) => x,
        _ => usage(&format!("{} line {line}: {field} = {text:?}, want a number in [{}, {}]", file.display(), range.start(), range.end())),
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 || args[0] != "--hold-extra" {
        usage("too few arguments");
    }
    let extra: f64 = match args[1].parse() {
        Ok(x) if f64::is_finite(x) && x >= 0.0 => x,
        _ => usage(&format!("--hold-extra {:?}: want a finite number of cycles >= 0", args[1])),
    };
    let (file, out) = (&args[2], PathBuf::from(&args[3]));
    let base = std::fs::read_to_string(file).unwrap_or_else(|e| usage(&format!("{file}: {e}"))).split("[sweep]").next().unwrap().to_string();
    let v = Experiment::from_str(&base, file, PathBuf::new())?;
    let cfg = &v.configs[0];
    let (l, m) = (cfg.vcs(), v.exp.workload.class_flits(0) as f64);
    if l < 3 {
        usage(&format!("{file}: router.vcs = {l}, want >= 3 (two usable VCs for a second release)"));
    }
    let n = v.net.ports_needed - 1;
    let k = (v.net.routers as f64).powf(1.0 / n as f64).round() as usize;
    let span = blocking_span(m as usize, cfg.input_buffer_depth(), cfg.output_buffer_depth());
    // The absorbed model of torus002_absorbed, the same construction.
    let absorbed = Variant::corrected(extra, HoldGrowth::SharedChannel).with_span(span).with_wait(VcWait::EscapeByPosition).with_absorption(cfg.input_buffer_depth() + cfg.output_buffer_depth());
    let (fixed, usable) = (m + extra, l - 1);
    let mut csv = String::from(
        "load,dim,model_p_block,model_hold,model_first_release,model_gap,model_wait,model_lambda_c,sim_blocked,sim_hold,sim_first_free,sim_ahead,sim_wait_found_held,sim_wait,first_release_at_sim_hold,gap_at_sim_hold,w_sim_p_block,w_sim_hold,w_queued_form,w_sim_ahead,w_sim_ahead_gap,wait_line_r,wait_line_gap,cost_per_ahead,model_line_q,q_at_sim_busy,w_line_form\n",
    );
    for dir in &args[4..] {
        let (ch_file, vw_file) = (Path::new(dir).join("channels.csv"), Path::new(dir).join("vc_wait.csv"));
        let waits = rows(&vw_file, "position", "all");
        for (line, sim) in rows(&ch_file, "source", "sim") {
            let (load_text, dim_text) = (sim["load"].clone(), sim["dim"].clone());
            let load = number(&ch_file, line, &sim, "load", 1e-6..=1.0);
            let dim = number(&ch_file, line, &sim, "dim", 0.0..=(n - 1) as f64) as usize;
            let Some((wline, w)) = waits.iter().find(|(_, r)| r["load"] == load_text && r["dim"] == dim_text) else {
                usage(&format!("{}: no row load = {load_text}, dim = {dim_text}, position = all (for {} line {line})", vw_file.display(), ch_file.display()))
            };
            let model = TorusModel { radix: vec![k; n], vcs: l, msg_flits: m, rate: load / m, router_delay: 4.0 };
            let Ok(s) = model.solve_with(absorbed) else {
                eprintln!("{load_text} dim {dim_text}: the absorbed model has no solution; skipped");
                continue;
            };
            let t = &s.dims[dim];
            // The model's R and G of its own hold: fixed M + extra, the
            // rest exponential (as `TorusModel::dimension`).
            let (r, g) = (first_release(fixed, t.service - fixed, usable), second_release_gap(fixed, t.service - fixed, usable));
            let blocked = number(&ch_file, line, &sim, "blocked", 0.0..=1.0);
            let hold = number(&ch_file, line, &sim, "hold", 1.0..=1e6);
            let wait = number(&ch_file, line, &sim, "wait", 0.0..=1e6);
            let first = number(&vw_file, *wline, w, "first_free", 0.0..=1e6);
            let ahead = number(&vw_file, *wline, w, "ahead_found_held", 0.0..=1e6);
            let wait_held = number(&vw_file, *wline, w, "wait_found_held", 0.0..=1e6);
            // At 0.01 the mean hold is below M + extra (the extra is the
            // 0.01 hold less the paper's D, which has the ejection wait):
            // no random part then.
            let random = (hold - fixed).max(0.0);
            let (r_sim, g_sim) = (first_release(fixed, random, usable), second_release_gap(fixed, random, usable));
            let queued = if t.arrival_rate * r < 1.0 { format!("{:.3}", t.p_block * r / (1.0 - t.arrival_rate * r)) } else { String::new() };
            let cost = if ahead > 0.0 { format!("{:.2}", (wait_held - first) / ahead) } else { String::new() };
            let busy = number(&vw_file, *wline, w, "busy", 0.0..=l as f64);
            let q_model = mean_line_joining(t.rho, l, k).unwrap_or_else(|| usage(&format!("{load_text} dim {dim_text}: the absorbed model's ρ = {} beyond what the escape VCs carry", t.rho)));
            let q_sim = mean_line_joining(busy, l, k).unwrap_or_else(|| usage(&format!("{} line {wline}: busy = {busy}, beyond what the escape VCs of a position carry", vw_file.display())));
            let line_form = line_wait(r, g, q_model * t.arrival_rate).map_or(String::new(), |(wb, _)| format!("{:.3}", t.p_block * wb));
            writeln!(
                csv,
                "{load_text},{dim_text},{:.4},{:.3},{:.3},{:.3},{:.3},{:.6},{blocked},{hold},{first},{ahead},{wait_held},{wait},{r_sim:.3},{g_sim:.3},{:.3},{:.3},{queued},{:.3},{:.3},{:.2},{:.2},{cost},{q_model:.4},{q_sim:.4},{line_form}",
                t.p_block,
                t.service,
                r,
                g,
                t.blocking,
                t.arrival_rate,
                blocked * r,
                t.p_block * r_sim,
                t.p_block * r * (1.0 + ahead),
                t.p_block * (r + ahead * g),
                first * (1.0 + ahead),
                first + ahead * g_sim,
            )?;
        }
    }
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("inputs.csv"), &csv)?;
    print!("{csv}");
    Ok(())
}

//! 002_…'s channel terms, model beside simulation (docs/reproduction.md,
//! "Why 002_…'s model saturates early"): for each load of an experiment
//! (a `unidirectional_torus` file with `shared_vcs = "any"`), per dimension
//! λ_c, the VC holding time (the model's D), ρ = λ_c D, P_{d_i,j}, the
//! blocking probability, the wait for a VC (W) and the multiplexing degree,
//! measured on the routers ([`ChannelProbe`]) and given by the model: as
//! printed (`paper`), with the L VCs held in parallel (`parallel`, an M/M/L
//! occupancy) and with that and the holding time our routers add
//! (`parallel_hold`: the measured hold minus the model's D at the first,
//! lightest, load), and two corrected models (`Variant::corrected`): that,
//! with the holding time grown by the sharing of the channel's flits among
//! the busy VCs (`busy_vcs`) or as at a processor-sharing server
//! (`shared_channel`), and the shared channel with a header's wait for a VC
//! as the residual hold of the first usable VC to free (`residual`,
//! `VcWait::FirstRelease`), and that with the hold's blocking limited to
//! the hops a message's flits span (`residual_span`,
//! `Variant::with_span`; docs/reproduction.md, "The blocking a hold can
//! see"), and that with P_B by channel position (`escape_span`,
//! `VcWait::EscapeByPosition`) and with the headers waiting ahead
//! (`queued_span`, `VcWait::EscapeQueued`; docs/reproduction.md, "The
//! wait for a VC, term by term").
//! Writes `<out>/channels.csv`, one row per load,
//! dimension and source, `<out>/hold_parts.csv`, the measured VC hold
//! split into its parts (`HoldPart`) beside the residual model's
//! (M + extra, the growth g, the blocking further on, the ejection wait;
//! docs/reproduction.md, "A residual wait for the L = 3 model"), one row
//! per load and dimension (with the span model's parts), `<out>/stalls.csv`,
//! the no-credit and draining cycles per hold by the router further on
//! where the message is held up and why (`StallEnd`), one row per load,
//! dimension and distance, `<out>/vc_wait.csv`, what the headers found on
//! arrival by dimension and channel position (`vc_wait_rows`), and
//! `<out>/saturation.csv`, each model's largest load with a solution.
//! `--hold-extra X` first takes the light-load extra hold of an earlier
//! run instead of measuring it at the first load.
//!
//! cargo run --release -p wormqos-netsim --example torus002_channels -- \
//!     experiments/torus_002_atomic.toml experiments/results/torus_002_channels \
//!     100000 0.01 0.04 0.06 0.07 0.077 0.08 0.09 0.1 0.11 0.12 0.125 0.13

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::escape_vcs::{escape_blocking, v1_share};
use wormqos_netsim::analytic::torus002::{blocking_span, occupancy, path_stats, path_window, parallel_occupancy, HoldGrowth, TorusModel, Variant, VcOccupancy, VcWait};
use wormqos_netsim::channel_probe::{first_release_of_holds, multiplexing_degree, ChannelProbe, HoldPart, StallEnd};
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

/// Sets `key = value` on the first line that assigns `key`.
fn set(text: &mut String, key: &str, value: &str) {
    let at = text.find(&format!("\n{key} = ")).unwrap_or_else(|| panic!("no {key} in the experiment")) + 1;
    let end = at + text[at..].find('\n').unwrap();
    text.replace_range(at..end, &format!("{key} = {value}"));
}

/// The shared channel's holding time with the wait for a VC as the
/// residual hold of the first usable VC to free (`VcWait::FirstRelease`).
fn residual_variant(extra: f64) -> Variant {
    Variant::corrected(extra, HoldGrowth::SharedChannel).with_wait(VcWait::FirstRelease)
}

/// The residual model with the hold's blocking limited to the hops its
/// message's flits can span (`Variant::blocking_span`), from the
/// experiment's message length and buffer depths.
fn span_variant(extra: f64, v: &wormqos_netsim::Validated) -> Variant {
    let cfg = &v.configs[0];
    residual_variant(extra).with_span(blocking_span(v.exp.workload.class_flits(0) as usize, cfg.input_buffer_depth(), cfg.output_buffer_depth()))
}

/// The span model with P_B by channel position (`VcWait::EscapeByPosition`).
fn escape_variant(extra: f64, v: &wormqos_netsim::Validated) -> Variant {
    span_variant(extra, v).with_wait(VcWait::EscapeByPosition)
}

/// That with the blocked headers' line (`VcWait::EscapeQueued`).
fn queued_variant(extra: f64, v: &wormqos_netsim::Validated) -> Variant {
    span_variant(extra, v).with_wait(VcWait::EscapeQueued)
}

/// Each model's saturation load: the largest offered load (flits per node
/// per cycle) with a solution, scanned in steps of 0.0005 from 0.0005 and
/// bisected to 10⁻⁶ between the last load solved and the first not.
fn saturation_csv(base: &str, file: &str, extra: f64) -> anyhow::Result<String> {
    let v = Experiment::from_str(base, file, PathBuf::new())?;
    let (l, m) = (v.configs[0].vcs(), v.exp.workload.class_flits(0) as f64);
    let n = v.net.ports_needed - 1;
    let k = (v.net.routers as f64).powf(1.0 / n as f64).round() as usize;
    let solves = |var: Variant, load: f64| TorusModel { radix: vec![k; n], vcs: l, msg_flits: m, rate: load / m, router_delay: 4.0 }.solve_with(var).is_ok();
    let variants = [
        ("paper", Variant::PAPER),
        ("parallel_hold", Variant { occupancy: VcOccupancy::ParallelVcs, hold_extra: extra, hold_growth: HoldGrowth::None, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None }),
        ("busy_vcs", Variant::corrected(extra, HoldGrowth::BusyVcs)),
        ("shared_channel", Variant::corrected(extra, HoldGrowth::SharedChannel)),
        ("residual", residual_variant(extra)),
        ("residual_span", span_variant(extra, &v)),
        ("escape_span", escape_variant(extra, &v)),
        ("queued_span", queued_variant(extra, &v)),
    ];
    let mut csv = String::from("source,saturation_load\n");
    for (name, var) in variants {
        let Some(first_bad) = (1..2000).map(|s| s as f64 * 0.0005).find(|&x| !solves(var, x)) else {
            writeln!(csv, "{name},")?;
            continue;
        };
        let (mut lo, mut hi) = (first_bad - 0.0005, first_bad);
        while hi - lo > 1e-6 {
            let mid = 0.5 * (lo + hi);
            if solves(var, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        writeln!(csv, "{name},{lo:.6}")?;
    }
    Ok(csv)
}

const VC_WAIT_HEADER: &str = "load,dim,position,headers,share_v1,share_v1_model,busy,found_held,all_held_time,p_block_mm3_at_busy,p_block_escape_at_busy,found_free_blocked,first_free,wait_found_held,ahead_found_held,wait_found_free_blocked\n";

/// `vc_wait.csv` (docs/reproduction.md, "The wait for a VC, term by
/// term"): what the headers of dimension `dim` found on arrival, the whole
/// dimension (position `all`) and per channel position c = digit `dim` of
/// the channel's router (the escape VC a header takes depends on c): the
/// headers, the share that may take VC 0 (v1: the wrap link is behind),
/// the share that found every VC they may take held, the time average of
/// that event weighted by the arrivals' allowed sets, and (whole dimension
/// only) the share blocked with a VC free, the mean residual hold the
/// found-held headers wait out and their and the found-free blocked
/// headers' mean wait beyond the least. Beside them the models' terms at
/// the measured mean busy VCs: the v1 share `escape_vcs::v1_share`
/// gives, 002_…'s P_B = P_3 + P_2/3 of the M/M/3 occupancy and the
/// escape arrangement's `escape_vcs::escape_blocking` (the dimension's
/// row: their means over the positions).
fn vc_wait_rows(csv: &mut String, load: &str, dim: usize, k: usize, d: &wormqos_netsim::channel_probe::DimensionStats, channels: &[wormqos_netsim::channel_probe::ChannelStats]) -> anyhow::Result<()> {
    let stride = k.pow(dim as u32);
    let v1_model = v1_share(k);
    // (headers, of them allowed VC 0, found held, Σ headers × time
    // average, Σ channels' mean busy VCs, channels)
    let mut by_position = vec![(0u64, 0u64, 0u64, 0.0f64, 0.0f64, 0usize); k];
    for ch in channels.iter().filter(|c| c.dim == dim) {
        let at = &mut by_position[(ch.router / stride) % k];
        for &(allowed, n, held) in &ch.arrivals {
            at.0 += n;
            at.1 += if allowed & 1 != 0 { n } else { 0 };
            at.2 += held;
            at.3 += n as f64 * ch.all_held(allowed);
        }
        at.4 += ch.masks.iter().enumerate().map(|(b, p)| b.count_ones() as f64 * p).sum::<f64>();
        at.5 += 1;
    }
    let share = |x: f64, n: u64| x / n.max(1) as f64;
    let mm3 = |a: f64| {
        let p = parallel_occupancy(a, 3);
        p[3] + p[2] / 3.0
    };
    let rows: Vec<(u64, f64, f64, f64, f64, f64, f64, f64)> = by_position
        .iter()
        .zip(&v1_model)
        .map(|(p, &f)| {
            let busy = p.4 / p.5.max(1) as f64;
            (p.0, share(p.1 as f64, p.0), f, busy, share(p.2 as f64, p.0), share(p.3, p.0), mm3(busy), escape_blocking(busy, 3, f).unwrap_or(f64::NAN))
        })
        .collect();
    let total: u64 = rows.iter().map(|r| r.0).sum();
    let mean = |g: fn(&(u64, f64, f64, f64, f64, f64, f64, f64)) -> f64| rows.iter().map(g).sum::<f64>() / k as f64;
    let weighted = |g: fn(&(u64, f64, f64, f64, f64, f64, f64, f64)) -> f64| rows.iter().map(|r| r.0 as f64 * g(r)).sum::<f64>() / total.max(1) as f64;
    writeln!(
        csv,
        "{load},{dim},all,{total},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.3},{:.3},{:.4},{:.3}",
        weighted(|r| r.1),
        mean(|r| r.2),
        mean(|r| r.3),
        weighted(|r| r.4),
        weighted(|r| r.5),
        mean(|r| r.6),
        mean(|r| r.7),
        d.found_free_blocked,
        d.found_held_first_free,
        d.found_held_wait,
        d.found_held_ahead,
        d.found_free_blocked_wait
    )?;
    for (c, r) in rows.iter().enumerate() {
        writeln!(csv, "{load},{dim},{c},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},,,,,", r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7)?;
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--hold-extra X`: the light-load extra hold of an earlier run (its
    // last stderr line), so that a long sweep can run in pieces.
    let mut hold_extra: Option<f64> = None;
    if args.first().is_some_and(|a| a == "--hold-extra") {
        let x = args.get(1).ok_or_else(|| anyhow::anyhow!("--hold-extra needs a value"))?;
        let x: f64 = x.parse().map_err(|e| anyhow::anyhow!("--hold-extra {x}: {e}"))?;
        anyhow::ensure!(x.is_finite() && x >= 0.0, "--hold-extra {x}: must be a finite number of cycles >= 0");
        hold_extra = Some(x);
        args.drain(..2);
    }
    anyhow::ensure!(args.len() >= 4, "usage: torus002_channels [--hold-extra X] EXPERIMENT OUT_DIR CYCLES LOAD...");
    let (file, out, cycles) = (&args[0], PathBuf::from(&args[1]), &args[2]);
    let base = std::fs::read_to_string(file)?.split("[sweep]").next().unwrap().to_string();
    let mut csv = String::from("load,dim,source,status,lambda_c,hold,rho,p_0,p_1,p_2,p_all,blocked,wait,lbar,network_latency,accepted,p_all_paper_at_rho,p_all_parallel_at_rho,first_release_at_holds\n");
    let mut stalls_csv = String::from("load,dim,distance,vc_wait,ejection,moving,left,too_far\n");
    let mut vc_wait_csv = String::from(VC_WAIT_HEADER);
    let mut parts_csv = String::from("load,dim,sim_hold,crossing,shared,ready_idle,no_credit,empty,draining,model_hold,model_m_extra,model_growth,model_blocking_further,model_ejection,model_further_within_span,span_model_hold,span_model_growth,span_model_blocking_further,span_model_ejection\n");
    for load in &args[3..] {
        let mut text = base.clone();
        set(&mut text, "load", load);
        set(&mut text, "cycles", cycles);
        let v = Experiment::from_str(&text, file, PathBuf::new())?;
        let cfg = &v.configs[0];
        let (l, m) = (cfg.vcs(), v.exp.workload.class_flits(0) as f64);
        anyhow::ensure!(l == 3, "the CSV has columns for L = 3");
        let n = v.net.ports_needed - 1;
        let k = (v.net.routers as f64).powf(1.0 / n as f64).round() as usize;
        let model = TorusModel { radix: vec![k; n], vcs: l, msg_flits: m, rate: load.parse::<f64>()? / m, router_delay: 4.0 };
        let dims_of: Vec<Option<usize>> = (0..cfg.ports()).map(|o| (1..=n).contains(&o).then(|| o - 1)).collect();
        let mut probe = ChannelProbe::new(&v.net, l, dims_of, v.run_cycles().1).with_stall_chains(&v.net);
        let mut observe = |c: u64, r: &[wormqos_sim::Router]| probe.observe(c, r);
        let res = Sim::new(&v)?.run_probed(&mut observe)?;
        let sim = probe.stats();
        let channels = probe.channel_stats();
        let paper = model.solve();
        let extra = *hold_extra.get_or_insert_with(|| {
            let p = paper.as_ref().expect("the first load is below the model's saturation");
            (0..n).map(|i| sim[i].mean_hold - p.dims[i].service).sum::<f64>() / n as f64
        });
        let parallel = model.solve_with(Variant { occupancy: VcOccupancy::ParallelVcs, hold_extra: 0.0, hold_growth: HoldGrowth::None, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None });
        let parallel_hold = model.solve_with(Variant { occupancy: VcOccupancy::ParallelVcs, hold_extra: extra, hold_growth: HoldGrowth::None, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None });
        let busy_vcs = model.solve_with(Variant::corrected(extra, HoldGrowth::BusyVcs));
        let shared = model.solve_with(Variant::corrected(extra, HoldGrowth::SharedChannel));
        let residual = model.solve_with(residual_variant(extra));
        let residual_span = model.solve_with(span_variant(extra, &v));
        let escape_span = model.solve_with(escape_variant(extra, &v));
        let queued_span = model.solve_with(queued_variant(extra, &v));
        let whole = path_stats(&model.radix);
        let window = path_window(&model.radix, span_variant(extra, &v).blocking_span.expect("a span"));
        for (i, d) in sim.iter().enumerate() {
            let p = &d.busy;
            // P_L the paper's chain and the M/M/L queue give at the
            // measured λ_c · hold.
            let a = d.arrival_rate * d.mean_hold;
            let chain = if a < 1.0 { format!("{:.4}", occupancy(a, l)[l]) } else { String::new() };
            writeln!(
                csv,
                "{load},{i},sim,ok,{:.6},{:.3},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.3},{:.3},{:.2},{:.4},{chain},{:.4},{:.3}",
                d.arrival_rate,
                d.mean_hold,
                d.arrival_rate * d.mean_hold,
                p[0],
                p[1],
                p[2],
                p[3],
                d.blocked,
                d.mean_wait,
                multiplexing_degree(p),
                res.classes[0].network_latency,
                res.accepted_throughput,
                parallel_occupancy(a, l)[l],
                // E[min] of the L − 1 VCs a header may take, from the
                // measured holds (the residual model's wait per blocked header).
                first_release_of_holds(&d.hold_counts, l - 1)
            )?;
            vc_wait_rows(&mut vc_wait_csv, load, i, k, d, &channels)?;
            // Columns vc_wait..too_far: StallEnd::ALL's order.
            debug_assert_eq!(StallEnd::ALL.len(), 5);
            for (k, e) in d.stall_at.iter().enumerate() {
                writeln!(stalls_csv, "{load},{i},{},{:.4},{:.4},{:.4},{:.4},{:.4}", k + 1, e[0], e[1], e[2], e[3], e[4])?;
            }
            write!(parts_csv, "{load},{i},{:.3}", d.mean_hold)?;
            // Columns crossing..draining: HoldPart::ALL's order.
            debug_assert_eq!(HoldPart::ALL.len(), 6);
            for x in &d.hold_parts {
                write!(parts_csv, ",{x:.3}")?;
            }
            // D_{d_i} + extra = M + extra + g + the blocking further on +
            // the ejection wait (`TorusModel::solve_with`); g and the
            // ejection wait recomputed from their formulas (g depends on
            // λ_c only, alike in both models); the span model counts the
            // ejection wait for the share of paths that end within the span.
            let u = whole.per_dim[i] * model.rate * m;
            let growth = m * u / (1.0 - u);
            let ejection = m * m * model.rate / (2.0 * (1.0 - m * model.rate));
            match &residual {
                Ok(s) => {
                    let t = &s.dims[i];
                    let further = t.service - extra - m - growth - ejection;
                    // The residual's blocking further on of the hops within
                    // the span only (its own blocking times).
                    let within: f64 = s.blocking.iter().enumerate().map(|(j, w)| w * window.hops[i][j]).sum();
                    write!(parts_csv, ",{:.3},{:.3},{growth:.3},{further:.3},{ejection:.3},{within:.3}", t.service, m + extra)?;
                }
                Err(_) => write!(parts_csv, ",,,,,,")?,
            }
            match &residual_span {
                Ok(sp) => {
                    let t = &sp.dims[i];
                    let ejection = ejection * window.ejection[i];
                    let further = t.service - extra - m - growth - ejection;
                    writeln!(parts_csv, ",{:.3},{growth:.3},{further:.3},{ejection:.3}", t.service)?;
                }
                Err(_) => writeln!(parts_csv, ",,,,")?,
            }
            for (name, sol) in [("paper", &paper), ("parallel", &parallel), ("parallel_hold", &parallel_hold), ("busy_vcs", &busy_vcs), ("shared_channel", &shared), ("residual", &residual), ("residual_span", &residual_span), ("escape_span", &escape_span), ("queued_span", &queued_span)] {
                match sol {
                    Ok(s) => {
                        let t = &s.dims[i];
                        let p = &t.occupancy;
                        writeln!(
                            csv,
                            "{load},{i},{name},ok,{:.6},{:.3},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.3},{:.3},{:.2},,,,",
                            t.arrival_rate, t.service, t.rho, p[0], p[1], p[2], p[3], t.p_block, t.blocking, multiplexing_degree(p), s.network_latency
                        )?;
                    }
                    Err(_) => writeln!(csv, "{load},{i},{name},saturated,,,,,,,,,,,,,,,")?,
                }
            }
        }
        eprintln!("load {load}: sim {:.1}, paper {:?}", res.classes[0].network_latency, paper.as_ref().map(|s| s.network_latency).ok());
    }
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("channels.csv"), csv)?;
    std::fs::write(out.join("hold_parts.csv"), parts_csv)?;
    std::fs::write(out.join("stalls.csv"), stalls_csv)?;
    std::fs::write(out.join("vc_wait.csv"), vc_wait_csv)?;
    if let Some(extra) = hold_extra {
        std::fs::write(out.join("saturation.csv"), saturation_csv(&base, file, extra)?)?;
    }
    eprintln!("hold_extra {hold_extra:?}; wrote {}", out.join("channels.csv").display());
    Ok(())
}

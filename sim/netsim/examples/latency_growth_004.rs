//! What makes the measured network latency of 004_…'s ring grow with the
//! load (docs/reproduction.md "What makes the ring's network latency grow
//! (004_… Fig. 7(b))"): for each point `load:flits` of the experiment, one
//! run with `Sim::run_hop_parts` (the same run as `wormqos model --with-sim`
//! makes: same file, seed and length; its mean network latency is printed
//! beside the split so the two can be compared), over the messages created
//! after the warm-up, the mean cycles per message of (`hop_parts.rs`,
//! `vc_wait.rs`; S = a stretch, gap cycles in a flit stream on a link):
//!
//! - `zero_load`: `zero_load.rs`'s latency of its route and length;
//! - `vc_wait`: its header's wait for an output VC beyond each router's VA
//!   cycle, summed over its routers;
//! - `header_after_va`: its header's time to the ejection link beyond zero
//!   load and `vc_wait` (after its VC grant, or behind an earlier message
//!   in a buffer); of it, cycles ready in the
//!   output buffer while another VC's flit took the link
//!   (`header_shared`), without a credit (`header_no_credit`), ready with
//!   the link idle (`header_ready_idle`), not in the output buffer beyond
//!   the pipeline's 2 a router (`header_not_ready_excess`); the rest
//!   (`header_other`: cycles the probe does not give the header, behind an
//!   earlier message's flits in its input VC before RC or in its output
//!   VC, where they count as that message's gaps);
//! - `eject_stretch` S_e: gaps in its delivery stream, which add to the
//!   latency one for one; by what its next flit did (`eject_shared`,
//!   `eject_no_credit`, `eject_ready_idle`, `eject_not_ready`: not yet at
//!   the ejection output buffer, a gap made upstream);
//! - `residual` = network latency − zero_load − vc_wait − header_after_va −
//!   S_e: 0 for every message when the accounting is exact;
//!
//! and where S_e was made: `injection_stretch` S_0 (tail left the source −
//! header injected − (flits − 1): the source interleaving its packets on the
//! injection link), `link_stretch_added` = S_l − S_0 (S_l on its last
//! router-to-router link: gaps added net, after the buffers absorbed some,
//! over its router-to-router links), `eject_stretch_added` = S_e − S_l;
//! `links_shared` … `links_not_ready` (gap cycles on all its
//! router-to-router links, by reason, not additive). Also the accepted load
//! (flits per cycle per endpoint = an ejection link's utilisation) and a
//! router-to-router link's utilisation (accepted × endpoints × mean hops /
//! links).
//!
//! Writes `<out>/latency_growth.csv` and prints it.
//!
//! The same runs also give `<out>/header_parts.csv` (`header_parts.rs`):
//! `header_after_va` cycle by cycle, by what the header did (mean cycles
//! per message): behind an earlier message's flits in its input VC
//! (`behind_in_input`), granted its output VC while that VC's buffer was
//! full of the last holder's flits (`output_full`), behind them in it
//! (`behind_in_output`), at its front without a credit (`no_credit`),
//! with a credit while the link carried another VC's flit (`link_shared`),
//! ready but not moved by the crossbar (`switch_lost`, 0 with the full
//! crossbar) or with the link idle (`ready_idle`, 0 by the spec); and the
//! same per router position (`<part>_source`, `_transit`, `_destination`).
//! Per message the parts must add up to `header_after_va`, the pipeline
//! parts be one a router (VA: one + the VC wait) and a hop, and the three
//! `hop_parts.rs` also has be its (`header_shared`, `header_no_credit`,
//! the rest): the largest disagreement of each is written
//! (`header_residual_max_abs`, `pipeline_max_abs`, `hop_parts_max_abs`)
//! and must be 0.
//!
//! cargo run --release -p wormqos-netsim --example latency_growth_004 -- \
//!     experiments/fig8_004.toml experiments/results/latency_growth_004 0.05:10 0.6:10

use std::path::Path;
use wormqos_netsim::header_parts::{HeaderPart, HeaderParts, PathRouter};
use wormqos_netsim::hop_parts::{HopParts, Wait, WAITS};
use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::vc_wait::VcWait;
use wormqos_netsim::zero_load::ZeroLoad;
use wormqos_netsim::Experiment;

fn usage(why: &str) -> ! {
    eprintln!("latency_growth_004: {why}\nusage: latency_growth_004 <experiment.toml> <out_dir> load:flits...");
    std::process::exit(2);
}

/// The experiment's text up to `[sweep]` with the point's load and length.
fn point_text(text: &str, file: &str, load: f64, flits: u32) -> String {
    let mut out = String::new();
    for key in ["load =", "message_flits ="] {
        if !text.lines().any(|l| l.trim_start().starts_with(key)) {
            usage(&format!("{file}: no line `{key} …` to set"));
        }
    }
    for line in text[..text.find("[sweep]").unwrap_or(text.len())].lines() {
        let t = line.trim_start();
        let l = if t.starts_with("load =") {
            format!("load = {load}")
        } else if t.starts_with("message_flits =") {
            format!("message_flits = {flits}")
        } else {
            line.to_string()
        };
        out += &l;
        out.push('\n');
    }
    out
}

/// Header cycles from its grant to its crossing with no contention: the
/// cycle of VA and the one of ST (`network/hop_parts_tests.rs`).
const PIPELINE_NOT_READY_PER_ROUTER: f64 = 2.0;

/// One message's split, in `COLUMNS`' order (see the module doc).
fn split(m: &MessageLog, w: &VcWait, h: &HopParts, z: &ZeroLoad) -> Vec<f64> {
    let at = |a: &[u32; WAITS], p: Wait| a[p as usize] as f64;
    let flits = m.flits as f64;
    let latency = (m.delivered - m.injected) as f64;
    let zero = z.latency(h.hops as u64, m.flits as u64) as f64;
    let vc_wait = w.queueing() as f64;
    let routers = (h.hops + 1) as f64;
    // At zero load the tail is delivered flits − 1 cycles after the header
    // crosses the ejection link, plus the sink's cycle.
    let header_after_va = (h.eject.0 - m.injected) as f64 - (zero - flits) - vc_wait;
    let hdr = |p: Wait| at(&h.header_links, p) + at(&h.header_eject, p);
    let header = [hdr(Wait::Shared), hdr(Wait::NoCredit), hdr(Wait::ReadyIdle), hdr(Wait::NotReady) - PIPELINE_NOT_READY_PER_ROUTER * routers];
    let header_other = header_after_va - header.iter().sum::<f64>();
    let stretch = |(head, tail): (u64, u64)| (tail - head) as f64 - (flits - 1.0);
    let (s_l, s_e) = (stretch(h.last_link), stretch(h.eject));
    let s_0 = (m.source.tail_sent - m.injected) as f64 - (flits - 1.0);
    let residual = latency - zero - vc_wait - header_after_va - s_e;
    let mut row = vec![latency, zero, vc_wait, header_after_va];
    row.extend(header);
    row.push(header_other);
    row.push(s_e);
    row.extend(Wait::ALL.iter().map(|&p| at(&h.gaps_eject, p)));
    row.extend([residual, s_0, s_l - s_0, s_e - s_l]);
    row.extend(Wait::ALL.iter().map(|&p| at(&h.gaps_links, p)));
    row.push(h.hops as f64);
    row
}

/// The header's wait parts (the rest of `HeaderPart::ALL` is the pipeline).
const HEADER_WAITS: [HeaderPart; 7] = [HeaderPart::BehindInInput, HeaderPart::OutputFull, HeaderPart::SwitchLost, HeaderPart::BehindInOutput, HeaderPart::NoCredit, HeaderPart::LinkShared, HeaderPart::ReadyIdle];
const POSITIONS: [(PathRouter, &str); 3] = [(PathRouter::Source, "source"), (PathRouter::Transit, "transit"), (PathRouter::Destination, "destination")];

/// One message's header split: its wait parts, then per position, then
/// the three disagreements (see the module doc); `split_row` is its
/// `split` row.
fn header_row(split_row: &[f64], w: &VcWait, h: &HopParts, p: &HeaderParts) -> Vec<f64> {
    let col = |name: &str| split_row[COLUMNS.split(',').position(|c| c == name).unwrap()];
    let waits: Vec<f64> = HEADER_WAITS.iter().map(|&x| p.total(x) as f64).collect();
    let after_va = col("header_after_va");
    let residual = after_va - waits.iter().sum::<f64>();
    let routers = p.hops + 1;
    let pipeline = [(HeaderPart::Route, routers), (HeaderPart::VcAllocation, routers + w.queueing()), (HeaderPart::Switch, routers), (HeaderPart::Crossing, routers), (HeaderPart::Link, p.hops)];
    let pipeline_off = pipeline.iter().map(|&(x, n)| (p.total(x) as f64 - n as f64).abs()).fold((p.hops as f64 - h.hops as f64).abs(), f64::max);
    let behind = |x: HeaderPart| p.total(x) as f64;
    let unsplit = behind(HeaderPart::BehindInInput) + behind(HeaderPart::OutputFull) + behind(HeaderPart::BehindInOutput) + behind(HeaderPart::SwitchLost) + behind(HeaderPart::ReadyIdle);
    let hop_off = [behind(HeaderPart::LinkShared) - col("header_shared"), behind(HeaderPart::NoCredit) - col("header_no_credit"), unsplit - col("header_not_ready_excess") - col("header_other")].iter().fold(0.0, |a: f64, x| a.max(x.abs()));
    let mut row = vec![after_va];
    row.extend(&waits);
    for &x in &HEADER_WAITS {
        row.extend(POSITIONS.iter().map(|&(at, _)| p.at(at, x) as f64));
    }
    row.extend([residual, pipeline_off, hop_off]);
    row
}

fn header_columns() -> String {
    let mut c = vec!["header_after_va".to_string()];
    c.extend(HEADER_WAITS.iter().map(|x| x.name().to_string()));
    for x in HEADER_WAITS {
        c.extend(POSITIONS.iter().map(|(_, at)| format!("{}_{at}", x.name())));
    }
    c.push("routers".into());
    c.join(",")
}

const COLUMNS: &str = "network_latency,zero_load,vc_wait,header_after_va,header_shared,header_no_credit,header_ready_idle,header_not_ready_excess,header_other,eject_stretch,eject_shared,eject_no_credit,eject_ready_idle,eject_not_ready,residual,injection_stretch,link_stretch_added,eject_stretch_added,links_shared,links_no_credit,links_ready_idle,links_not_ready,hops";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        usage("missing arguments");
    }
    let (file, out) = (&args[0], Path::new(&args[1]));
    let points: Vec<(f64, u32)> = args[2..]
        .iter()
        .map(|p| {
            let (l, f) = p.split_once(':').unwrap_or_else(|| usage(&format!("point {p:?}: want load:flits")));
            let load: f64 = l.parse().ok().filter(|x: &f64| *x > 0.0 && *x <= 1.0).unwrap_or_else(|| usage(&format!("point {p:?}: load {l:?} not in (0, 1]")));
            let flits: u32 = f.parse().ok().filter(|x| (1..=1024).contains(x)).unwrap_or_else(|| usage(&format!("point {p:?}: flits {f:?} not in 1..=1024")));
            (load, flits)
        })
        .collect();
    let path = Path::new(file);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| usage(&format!("{file}: {e}")));
    let dir = path.parent().unwrap().to_path_buf();
    let mut csv = format!("load,flits,messages,residual_max_abs,engine_network_latency,accepted,router_link_util,{COLUMNS}\n");
    let mut header_csv = format!("load,flits,messages,header_residual_max_abs,pipeline_max_abs,hop_parts_max_abs,{}\n", header_columns());
    for &(load, flits) in &points {
        let v = Experiment::from_str(&point_text(&text, file, load, flits), file, dir.clone()).unwrap_or_else(|e| usage(&e.to_string()));
        let z = {
            let c = &v.configs[0];
            ZeroLoad::new(v.exp.topology.link_latency as u64, c.input_buffer_depth() as u64, c.output_buffer_depth() as u64).unwrap_or_else(|| usage(&format!("{file}: no zero-load latency for these buffers")))
        };
        let t0 = std::time::Instant::now();
        let (results, log, waits, parts, headers) = Sim::new(&v).unwrap().run_header_parts().unwrap_or_else(|e| usage(&e.to_string()));
        let (cycles, warmup) = v.run_cycles();
        let measured: Vec<_> = log.iter().zip(&waits.messages).zip(&parts).zip(&headers).filter(|(((m, _), _), _)| m.created >= warmup).collect();
        let rows: Vec<Vec<f64>> = measured.iter().map(|(((m, w), h), _)| split(m, w, h, &z)).collect();
        let header_rows: Vec<Vec<f64>> = measured.iter().zip(&rows).map(|((((_, w), h), p), row)| {
            let mut r = header_row(row, w, h, p);
            r.push((p.hops + 1) as f64);
            r
        }).collect();
        let n = rows.len() as f64;
        let mean: Vec<f64> = (0..rows[0].len()).map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n).collect();
        let engine = results.classes.iter().find(|c| c.messages > 0).map_or(f64::NAN, |c| c.network_latency);
        // Utilisations: every delivered flit crosses one ejection link and
        // `hops` router-to-router links; the ring has 2·l links per router.
        let endpoints = results.endpoints as f64;
        let links = (v.net.out_link.iter().flatten().filter(|p| matches!(p, wormqos_netsim::topology::Peer::Router { .. })).count()) as f64;
        let accepted = results.accepted_throughput;
        let mean_hops = mean[mean.len() - 1];
                let link_util = accepted * endpoints * mean_hops / links;
        eprintln!("point {load}:{flits}: {} messages, {:.1} s ({cycles} cycles)", rows.len(), t0.elapsed().as_secs_f64());
        let r = COLUMNS.split(',').position(|c| c == "residual").unwrap();
        let residual_max = rows.iter().map(|x| x[r].abs()).fold(0.0, f64::max);
        csv += &format!("{load},{flits},{},{residual_max},{engine:.4},{accepted:.4},{link_util:.4}", rows.len());
        for x in &mean {
            csv += &format!(",{x:.4}");
        }
        csv.push('\n');
        // The three disagreements (last three before `routers`), as maxima.
        let k = header_rows[0].len() - 4;
        let worst = |j: usize| header_rows.iter().map(|r| r[j]).fold(0.0, |a: f64, x| a.max(x.abs()));
        header_csv += &format!("{load},{flits},{},{},{},{}", header_rows.len(), worst(k), worst(k + 1), worst(k + 2));
        for j in (0..header_rows[0].len()).filter(|j| !(k..k + 3).contains(j)) {
            header_csv += &format!(",{:.4}", header_rows.iter().map(|r| r[j]).sum::<f64>() / header_rows.len() as f64);
        }
        header_csv.push('\n');
    }
    std::fs::create_dir_all(out).unwrap_or_else(|e| usage(&format!("{}: {e}", out.display())));
    std::fs::write(out.join("latency_growth.csv"), &csv).unwrap_or_else(|e| usage(&format!("{}: {e}", out.display())));
    std::fs::write(out.join("header_parts.csv"), &header_csv).unwrap_or_else(|e| usage(&format!("{}: {e}", out.display())));
    print!("{csv}{header_csv}");
}

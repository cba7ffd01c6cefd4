//! The ON/OFF source-wait and burst-scale fluid tables of issue 22 in
//! `docs/reproduction.md` (from "000_… Fig. 12: the ON/OFF source waiting
//! time" to "K = 14: the fluid queue without eigenvalues"), tied to the
//! committed results they were rounded from (issue 23 item 3).
//!
//! Each body row is a list of `Spec`s, one per number after its first
//! cell, in order: a quoted cell (checked by `check` as a `Num`), a
//! model − sim error recomputed from its two committed cells, the burst
//! gap g derived by hand from the sweep point's OFF time, or a sum of a
//! column over several rows (the link-by-link table).

use super::*;
use models::Row;

/// A committed cell: the CSV, the selectors of its one row, the column.
type Src = (&'static str, Row, &'static str);

/// What one number of a row is.
enum Spec {
    /// The cell as quoted.
    Cell(Src),
    /// 100 (model − sim) / sim, in percent, signed as written.
    Error(Src, Src),
    /// The gap g between a burst's messages at OFF time `I` µs, K streams
    /// per port (the row's first cell): the sweeps set 1/a = I/N + g with
    /// a = 0.004/K messages/cycle, N = 10 messages per burst, 80 ns
    /// cycles, so g = 250 K − 12.5 I / 10 (experiments/fig12_000_onoff_bursts.toml).
    Gap(&'static str),
    /// The sum of a column over rows of one CSV.
    Sum(&'static str, Vec<Row>, &'static str),
}

/// One table row and its numbers' meanings.
pub(super) struct FluidRow {
    passage: &'static str,
    specs: Vec<Spec>,
}

/// The numbers after the row's first cell, each with the sign typeset
/// right before it ("+270", "−4.2085"), as the census reads them.
fn signed_numbers(passage: &'static str) -> Vec<&'static str> {
    let rest = passage.trim_matches('|').split_once('|').map_or("", |(_, r)| r);
    census::numbers(rest)
        .into_iter()
        .map(|x| {
            let start = x.as_ptr() as usize - rest.as_ptr() as usize;
            match rest[..start].chars().next_back() {
                Some(c @ ('+' | '−')) => &rest[start - c.len_utf8()..start + x.len()],
                _ => x,
            }
        })
        .collect()
}

/// `base` with `point` = the sweep's key of `streams:off_us`.
fn onoff_point(streams_off: &'static str) -> &'static str {
    Box::leak(format!("workload.onoff_streams+workload.onoff_mean_off_us={streams_off}").into_boxed_str())
}

/// A `source_queue.csv` / `latency_parts.csv` row.
fn at(source: &'static str, point: &'static str, class: &'static str) -> Row {
    models::sel(&[("source", source), ("point", point), ("class", class)])
}

/// g by hand from K and the OFF time (see `Spec::Gap`).
fn gap(streams: f64, off_us: f64) -> f64 {
    250.0 * streams - 12.5 * off_us / 10.0
}

/// (K, I) of a `K:I` sweep key.
fn key(streams_off: &str) -> (&str, &str) {
    streams_off.split_once(':').unwrap_or_else(|| panic!("{streams_off}: not K:I"))
}

/// A `source_link.csv` row: the example writes K and g, not I.
fn link_row(streams_off: &'static str) -> Row {
    let (k, i) = key(streams_off);
    let g: &'static str = Box::leak(format!("{:.1}", gap(k.parse().unwrap(), i.parse().unwrap())).into_boxed_str());
    models::sel(&[("streams", k), ("gap", g)])
}

/// Each row's disagreements with its data, or an empty list.
pub(super) fn check_rows(rows: &[FluidRow]) -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let mut out = Vec::new();
    let mut claims = Vec::new();
    for r in rows {
        if let Some(missing) = models::passage_missing(&doc, r.passage) {
            out.push(missing);
            continue;
        }
        let written = signed_numbers(r.passage);
        if written.len() != r.specs.len() {
            out.push(format!("{} numbers for {} specs in {:?}", written.len(), r.specs.len(), r.passage));
            continue;
        }
        let mut numbers = Vec::new();
        for (w, spec) in written.iter().zip(&r.specs) {
            let unsigned = w.trim_start_matches(['+', '−']);
            let value = |(csv, row, column): &Src| models::cell_value(csv, row, column);
            match spec {
                Spec::Cell((csv, row, column)) => {
                    let scale = if w.starts_with('−') { -1.0 } else { 1.0 };
                    numbers.push(Num { written: unsigned, csv, row, column, scale });
                }
                Spec::Error(model, sim) => match (value(model), value(sim)) {
                    (Ok(m), Ok(s)) => {
                        let expected = models::typeset_error(100.0 * (m - s) / s, w);
                        if expected != *w || !r.passage.contains(&format!("{w} %")) {
                            out.push(format!("docs/reproduction.md says {w} % where {model:?} {m} against {sim:?} {s} gives {expected} % (passage {:?})", r.passage));
                        }
                    }
                    (Err(x), _) | (_, Err(x)) => out.push(x),
                },
                Spec::Gap(off_us) => {
                    let streams = r.passage.trim_matches('|').split('|').next().unwrap().trim();
                    let g = gap(streams.parse().unwrap(), off_us.parse().unwrap());
                    if rounded_like(g, w) != *w {
                        out.push(format!("docs/reproduction.md says g = {w} where K = {streams}, I = {off_us} µs give {g} (passage {:?})", r.passage));
                    }
                }
                Spec::Sum(csv, sel_rows, column) => {
                    let cells: Result<Vec<f64>, String> = sel_rows.iter().map(|row| models::cell_value(csv, row, column)).collect();
                    match cells {
                        // the cells are rounded to the digits the sum is
                        // written with: allow half a unit per cell
                        Ok(cells) => {
                            let sum: f64 = cells.iter().sum();
                            let unit = 10f64.powi(-(unsigned.split_once('.').map_or(0, |(_, d)| d.len()) as i32));
                            let quoted: f64 = unsigned.parse().unwrap();
                            if (sum - quoted).abs() > 0.5 * unit * (cells.len() + 1) as f64 {
                                out.push(format!("docs/reproduction.md says {w} where {csv} {column} sums to {sum} over {sel_rows:?}"));
                            }
                        }
                        Err(x) => out.push(x),
                    }
                }
            }
        }
        claims.push(Claim { passage: r.passage, numbers });
    }
    out.extend(check(&claims));
    out
}

/// The census ties: every number of every row.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    rows().into_iter().map(|r| census::Tie { passage: r.passage, written: signed_numbers(r.passage) }).collect()
}

const R: &str = "experiments/results/";

fn path(dir: &str, file: &str) -> &'static str {
    Box::leak(format!("{R}{dir}/{file}").into_boxed_str())
}

/// "sim / Eq. 15 (e) / ON/OFF model (e)" of one class's source wait.
fn source_wait_triple(csv: &'static str, point: &'static str, class: &'static str, eq15: &'static str, onoff: &'static str) -> Vec<Spec> {
    let c = |source| (csv, at(source, point, class), "source_wait_cycles");
    vec![Spec::Cell(c("sim")), Spec::Cell(c(eq15)), Spec::Error(c(eq15), c("sim")), Spec::Cell(c(onoff)), Spec::Error(c(onoff), c("sim"))]
}

/// 000_… Fig. 12's own sources, real-time source wait: each table's rows
/// are its loads' `workload.load+workload.mix` keys.
fn fig12_source_waits(v: &mut Vec<FluidRow>) {
    let tables: [(&[&'static str], &str, &[&'static str], &[&'static str], &'static str, &'static str); 4] = [
        (&ROUTER_2RT, "model_fig12_000_onoff_2rt", &["0.384:0.064:0.32", "0.512:0.192:0.32", "0.64:0.32:0.32"], &["2", "1"], "model:kim2005", "model:kim2005_onoff"),
        (&CUBE_2RT, "model_fig12b_000_onoff_cube6_2rt", &["0.112:0.048:0.064", "0.16:0.096:0.064", "0.208:0.144:0.064", "0.256:0.192:0.064"], &["2", "1"], "model:kim2005_cube", "model:kim2005_cube_onoff"),
        (&ROUTER_1RT, "model_fig12_000_onoff", &["0.384:0.064:0.32", "0.512:0.192:0.32", "0.64:0.32:0.32"], &["1"], "model:kim2005", "model:kim2005_onoff"),
        (&CUBE_1RT, "model_fig12b_000_onoff_cube6", &["0.112:0.048:0.064", "0.16:0.096:0.064", "0.208:0.144:0.064", "0.256:0.192:0.064"], &["1"], "model:kim2005_cube", "model:kim2005_cube_onoff"),
    ];
    for (rows, dir, loads, classes, eq15, onoff) in tables {
        assert_eq!(rows.len(), loads.len(), "{dir}");
        let csv = path(dir, "source_queue.csv");
        for (&passage, &load) in rows.iter().zip(loads) {
            // the first cell is the key's total load
            assert_eq!(passage.trim_matches('|').split('|').next().unwrap().trim(), load.split(':').next().unwrap(), "{dir}");
            let point: &'static str = Box::leak(format!("workload.load+workload.mix={load}").into_boxed_str());
            let specs = classes.iter().flat_map(|c| source_wait_triple(csv, point, c, eq15, onoff)).collect();
            v.push(FluidRow { passage, specs });
        }
    }
}

/// The back-to-back sweep's eight points, in the tables' order.
const BURST_POINTS: [&str; 8] = ["1:173.6", "1:168.0", "1:148.8", "1:97.6", "2:373.6", "2:348.8", "4:773.6", "14:2773.6"];

/// Rows of `rows` at `points` (K:I keys), each built by `specs`.
fn keyed(v: &mut Vec<FluidRow>, rows: &[&'static str], points: &[&'static str], specs: impl Fn(&'static str) -> Vec<Spec>) {
    assert_eq!(rows.len(), points.len());
    for (&passage, &p) in rows.iter().zip(points) {
        assert_eq!(passage.trim_matches('|').split('|').next().unwrap().trim(), key(p).0, "{passage}: K of {p}");
        v.push(FluidRow { passage, specs: specs(p) });
    }
}

/// "Bursts that come back to back", the burst-scale fluid model, and
/// "Where the burst backlog waits" (the single router).
fn router_bursts(v: &mut Vec<FluidRow>) {
    let sq = path("model_fig12_000_onoff_bursts", "source_queue.csv");
    let lp = path("model_fig12_000_onoff_bursts", "latency_parts.csv");
    let sqd = path("model_fig12_000_onoff_bursts_deep", "source_queue.csv");
    let lpd = path("model_fig12_000_onoff_bursts_deep", "latency_parts.csv");
    let bf = path("model_fig12_000_onoff_bursts", "burst_fluid.csv");
    keyed(v, &BURSTS, &BURST_POINTS, |p| {
        let pt = onoff_point(p);
        let sw = |s| Spec::Cell((sq, at(s, pt, "1"), "source_wait_cycles"));
        vec![Spec::Gap(key(p).1), sw("sim"), sw("model:kim2005"), sw("model:kim2005_onoff"), Spec::Cell((sq, at("sim", pt, "1"), "network_latency_cycles"))]
    });
    keyed(v, &BURST_FLUID, &BURST_POINTS, |p| {
        let c = |col| (bf, models::sel(&[("point", onoff_point(p))]), col);
        let sim = c("sim_total_cycles");
        vec![
            Spec::Gap(key(p).1),
            Spec::Cell(sim),
            Spec::Cell(c("kim2005_onoff_total_cycles")),
            Spec::Error(c("kim2005_onoff_total_cycles"), sim),
            Spec::Cell(c("model_total_cycles")),
            Spec::Error(c("model_total_cycles"), sim),
            Spec::Cell(c("source_link_cycles")),
            Spec::Cell(c("destination_link_cycles")),
        ]
    });
    // model / sim (e) of a part of `lp`'s rows
    let part = |csv: &'static str, pt: &'static str, col: &'static str, with_error: bool| {
        let (m, s) = ((csv, at("model:kim2005_fluid", pt, "1"), col), (csv, at("sim", pt, "1"), col));
        let mut out = vec![Spec::Cell(m), Spec::Cell(s)];
        if with_error {
            out.push(Spec::Error(m, s));
        }
        out
    };
    keyed(v, &BACKLOG_SPLIT, &BURST_POINTS, |p| {
        let pt = onoff_point(p);
        let sim = |csv, col| Spec::Cell((csv, at("sim", pt, "1"), col));
        let mut s = vec![Spec::Gap(key(p).1)];
        s.extend(part(lp, pt, "source_wait_cycles", true));
        s.push(sim(lp, "credit_stall_cycles"));
        s.extend(part(lp, pt, "network_latency_cycles", true));
        s.extend([sim(sq, "latency_cycles"), sim(lpd, "source_wait_cycles"), sim(lpd, "network_latency_cycles"), sim(lpd, "credit_stall_cycles"), sim(sqd, "latency_cycles")]);
        s
    });
    keyed(v, &BACKLOG_DEEP, &BURST_POINTS, |p| {
        let pt = onoff_point(p);
        let mut s = vec![Spec::Gap(key(p).1)];
        // at g = 128 the simulated source wait is 0: no error, "(−)"
        s.extend(part(lpd, pt, "source_wait_cycles", p != "1:97.6"));
        s.extend(part(lpd, pt, "network_latency_cycles", true));
        s
    });
}

/// The 2-port router: `kim2005_fluid` is the tandem there, and the traces
/// of the K = 1 excess and the K ≥ 2 source link.
fn two_ports(v: &mut Vec<FluidRow>) {
    let sq = path("model_fig12_000_onoff_2port", "source_queue.csv");
    let points = ["1:173.6", "2:368.0", "2:373.6", "4:773.6"];
    keyed(v, &TANDEM_2PORT, &points, |p| {
        let c = |s, col| (sq, at(s, onoff_point(p), "1"), col);
        vec![
            Spec::Gap(key(p).1),
            Spec::Cell(c("sim", "latency_cycles")),
            Spec::Cell(c("model:kim2005_onoff", "latency_cycles")),
            Spec::Cell(c("model:kim2005_fluid", "latency_cycles")),
            Spec::Cell(c("model:kim2005_fluid", "source_wait_cycles")),
            Spec::Cell(c("sim", "source_wait_cycles")),
        ]
    });
    let summary = path("onoff_k1_trace", "summary.csv");
    keyed(v, &K1_EXCESS, &points, |p| {
        let (k, i) = key(p);
        let c = |col| Spec::Cell((summary, models::sel(&[("streams", k), ("off_us", i)]), col));
        vec![Spec::Gap(i), c("sim_total"), c("model_total_c1"), c("model_total_vc")]
    });
    let sl = path("onoff_klink_trace", "source_link.csv");
    keyed(v, &KLINK, &["1:173.6", "1:148.8", "2:368.0", "2:373.6", "2:348.8", "4:773.6", "4:748.8", "14:2773.6"], |p| {
        let c = |col| (sl, link_row(p), col);
        vec![Spec::Gap(key(p).1), Spec::Cell(c("sim_total")), Spec::Cell(c("sim_total_se")), Spec::Cell(c("added_total")), Spec::Cell(c("tandem_total")), Spec::Error(c("tandem_total"), c("sim_total"))]
    });
}

/// The 16-port traces: links added and in tandem, and coupled backwards.
fn sixteen_ports(v: &mut Vec<FluidRow>) {
    let sl = path("onoff_klink_trace_16port", "source_link.csv");
    keyed(v, &TANDEM_16PORT, &BURST_POINTS, |p| {
        let c = |col| (sl, link_row(p), col);
        let sim = c("sim_total");
        vec![
            Spec::Gap(key(p).1),
            Spec::Cell(sim),
            Spec::Cell(c("sim_total_se")),
            Spec::Cell(c("added_total")),
            Spec::Error(c("added_total"), sim),
            Spec::Cell(c("tandem_total")),
            Spec::Cell(c("tandem_source")),
            Spec::Cell(c("tandem_destination")),
            Spec::Error(c("tandem_total"), sim),
        ]
    });
    let coupled = |dir: &'static str| {
        let sl = path(dir, "source_link.csv");
        move |p: &'static str| {
            let c = |col| (sl, link_row(p), col);
            let sim = c("sim_total");
            vec![
                Spec::Gap(key(p).1),
                Spec::Cell(sim),
                Spec::Cell(c("sim_total_se")),
                Spec::Cell(c("tandem_total")),
                Spec::Error(c("tandem_total"), sim),
                Spec::Cell(c("tandem_drawn_gap")),
                Spec::Cell(c("tandem_drawn_gap_se")),
                Spec::Cell(c("coupled_total")),
                Spec::Cell(c("coupled_source")),
                Spec::Cell(c("coupled_destination")),
                Spec::Error(c("coupled_total"), sim),
                Spec::Cell(c("coupled_drawn_gap")),
                Spec::Cell(c("coupled_drawn_gap_se")),
            ]
        }
    };
    keyed(v, &COUPLED, &BURST_POINTS, coupled("onoff_klink_trace_16port_coupled"));
    keyed(v, &COUPLED_CHECK, &["2:368.0", "3:573.6", "4:748.8", "8:1573.6"], coupled("onoff_klink_trace_16port_coupled_check"));
    let k14 = path("onoff_klink_trace_16port_coupled", "k14_direct.csv");
    keyed(v, &K14_DIRECT, &["14:2773.6"], |p| {
        let c = |col| (k14, models::sel(&[("streams", "14")]), col);
        let sim = c("sim_total");
        vec![
            Spec::Gap(key(p).1),
            Spec::Cell(sim),
            Spec::Cell(c("sim_total_se")),
            Spec::Cell(c("coupled_total")),
            Spec::Cell(c("coupled_source")),
            Spec::Cell(c("coupled_destination")),
            Spec::Error(c("coupled_total"), sim),
        ]
    });
}

/// The 6-cube's fluid rows: added, in tandem, link by link, source backlog.
fn cube(v: &mut Vec<FluidRow>) {
    let points = ["1:173.6", "1:148.8", "1:97.6", "2:373.6", "4:773.6", "14:2773.6"];
    let bf = path("model_fig12b_000_onoff_cube6_bursts", "cube_burst_fluid.csv");
    keyed(v, &CUBE_FLUID, &points, |p| {
        let c = |col| (bf, models::sel(&[("point", onoff_point(p))]), col);
        let sim = c("sim_total_cycles");
        vec![
            Spec::Gap(key(p).1),
            Spec::Cell(sim),
            Spec::Cell(c("kim2005_cube_onoff_total_cycles")),
            Spec::Error(c("kim2005_cube_onoff_total_cycles"), sim),
            Spec::Cell(c("model_total_cycles")),
            Spec::Error(c("model_total_cycles"), sim),
            Spec::Cell(c("source_link_cycles")),
            Spec::Cell(c("network_links_cycles")),
        ]
    });
    let tf = path("sweep_fig12b_000_onoff_cube6_bursts_seeds", "cube_tandem_fluid.csv");
    let c = |p: &'static str, col| (tf, models::sel(&[("point", p)]), col);
    keyed(v, &CUBE_TANDEM, &points, |p| {
        let sim = c(p, "sim_total_cycles");
        let mut s = vec![Spec::Gap(key(p).1)];
        s.extend(["sim_total_cycles", "sim_total_se_cycles", "sim_source_wait_cycles", "sim_network_cycles", "added_total_cycles"].map(|col| Spec::Cell(c(p, col))));
        s.push(Spec::Error(c(p, "added_total_cycles"), sim));
        s.extend(["tandem_total_cycles", "tandem_source_wait_cycles", "tandem_network_cycles"].map(|col| Spec::Cell(c(p, col))));
        s.push(Spec::Error(c(p, "tandem_total_cycles"), sim));
        s
    });
    keyed(v, &CUBE_BACKLOG, &points, |p| {
        let sim = c(p, "sim_total_cycles");
        let mut s = vec![Spec::Gap(key(p).1)];
        s.extend(["sim_total_cycles", "sim_total_se_cycles", "tandem_total_cycles"].map(|col| Spec::Cell(c(p, col))));
        s.push(Spec::Error(c(p, "tandem_total_cycles"), sim));
        s.extend(["backlog_total_cycles", "backlog_source_wait_cycles", "backlog_network_cycles"].map(|col| Spec::Cell(c(p, col))));
        s.push(Spec::Error(c(p, "backlog_total_cycles"), sim));
        s
    });
    // the network links: the six hop links and the ejection link, each
    // per message (the CSV's `_weighted` columns)
    let links = path("cube_link_trace", "cube_links.csv");
    keyed(v, &CUBE_LINKS, &["1:173.6", "2:373.6", "4:773.6", "14:2773.6"], |p| {
        let link = |l: &'static str| models::sel(&[("point", p), ("link", l)]);
        let network: Vec<Row> = ["hop0", "hop1", "hop2", "hop3", "hop4", "hop5", "ejection"].map(link).to_vec();
        vec![
            Spec::Sum(links, network.clone(), "model_weighted"),
            Spec::Sum(links, network.clone(), "sim_stay_weighted"),
            Spec::Cell((links, link("ejection"), "model_weighted")),
            Spec::Cell((links, link("ejection"), "sim_stay_weighted")),
            Spec::Sum(links, network, "sim_routed_weighted"),
        ]
    });
}

/// Every row of the tables this file ties.
pub(super) fn rows() -> Vec<FluidRow> {
    let mut v = Vec::new();
    fig12_source_waits(&mut v);
    router_bursts(&mut v);
    two_ports(&mut v);
    sixteen_ports(&mut v);
    cube(&mut v);
    v
}

// The tables' rows as written in docs/reproduction.md, top to bottom.

const ROUTER_2RT: [&str; 3] = [
    "| 0.384 | 0.53 / 1.97 (+270 %) / 0.66 (+24 %) | 1.12 / 1.79 (+60 %) / 1.12 (−1 %) |",
    "| 0.512 | 2.12 / 4.60 (+117 %) / 2.18 (+3 %) | 4.00 / 4.90 (+23 %) / 4.26 (+6 %) |",
    "| 0.64 | 4.54 / 9.29 (+105 %) / 4.03 (−11 %) | 8.84 / 10.70 (+21 %) / 9.34 (+6 %) |",
];

const CUBE_2RT: [&str; 4] = [
    "| 0.112 | 0.44 / 2.42 (+456 %) / 0.49 (+13 %) | 1.03 / 1.85 (+81 %) / 0.81 (−21 %) |",
    "| 0.16 | 0.98 / 4.09 (+319 %) / 1.02 (+4 %) | 1.88 / 3.02 (+61 %) / 1.77 (−6 %) |",
    "| 0.208 | 1.38 / 6.04 (+336 %) / 1.58 (+14 %) | 2.89 / 4.76 (+65 %) / 2.91 (+1 %) |",
    "| 0.256 | 2.09 / 8.45 (+304 %) / 2.18 (+4 %) | 4.29 / 6.86 (+60 %) / 4.26 (−1 %) |",
];

const ROUTER_1RT: [&str; 3] = [
    "| 0.384 | 1.24 / 2.40 (+93 %) / 1.02 (−18 %) |",
    "| 0.512 | 3.78 / 6.11 (+62 %) / 3.53 (−6 %) |",
    "| 0.64 | 92.96 / 12.95 (−86 %) / 6.99 (−92 %) |",
];

const CUBE_1RT: [&str; 4] = [
    "| 0.112 | 0.63 / 3.13 (+394 %) / 0.75 (+18 %) |",
    "| 0.16 | 1.78 / 5.67 (+219 %) / 1.58 (−11 %) |",
    "| 0.208 | 2.60 / 8.80 (+239 %) / 2.50 (−4 %) |",
    "| 0.256 | 3.61 / 12.83 (+256 %) / 3.53 (−2 %) |",
];

const BURSTS: [&str; 8] = [
    "| 1 | 33 | 58.48 | 4.05 | 33.28 | 53.8 |",
    "| 1 | 40 | 72.57 | 4.05 | 0.00 | 48.4 |",
    "| 1 | 64 | 17.89 | 4.05 | 0.00 | 45.2 |",
    "| 1 | 128 | 0.00 | 4.05 | 0.00 | 39.4 |",
    "| 2 | 33 | 71.07 | 4.05 | 34.45 | 53.6 |",
    "| 2 | 64 | 8.86 | 4.05 | 1.17 | 42.8 |",
    "| 4 | 33 | 87.37 | 4.05 | 35.04 | 55.0 |",
    "| 14 | 33 | 110.07 | 4.05 | 35.46 | 56.1 |",
];

const BURST_FLUID: [&str; 8] = [
    "| 1 | 33 | 112.28 | 69.42 (−38.2 %) | 89.75 (−20.1 %) | 0.00 / 53.61 |",
    "| 1 | 40 | 120.96 | 36.14 (−70.1 %) | 78.88 (−34.8 %) | 0.00 / 42.74 |",
    "| 1 | 64 | 63.05 | 36.14 (−42.7 %) | 45.50 (−27.8 %) | 0.00 / 9.36 |",
    "| 1 | 128 | 39.38 | 36.14 (−8.2 %) | 36.48 (−7.4 %) | 0.00 / 0.34 |",
    "| 2 | 33 | 124.69 | 70.59 (−43.4 %) | 107.19 (−14.0 %) | 21.25 / 48.63 |",
    "| 2 | 64 | 51.68 | 37.32 (−27.8 %) | 45.98 (−11.0 %) | 0.00 / 8.66 |",
    "| 4 | 33 | 142.38 | 71.18 (−50.0 %) | 118.09 (−17.1 %) | 33.13 / 47.06 |",
    "| 14 | 33 | 166.15 | 71.60 (−56.9 %) | 126.28 (−24.0 %) | 42.12 / 45.83 |",
];

const BACKLOG_SPLIT: [&str; 8] = [
    "| 1 | 33 | 0.00 / 58.48 (−100.0 %) | 29.77 | 89.75 / 53.80 (+66.8 %) | 112.28 | 15.76 / 96.55 / 8.88 | 112.31 |",
    "| 1 | 40 | 0.00 / 72.57 (−100.0 %) | 42.28 | 78.88 / 48.40 (+63.0 %) | 120.96 | 26.95 / 94.01 / 16.32 | 120.96 |",
    "| 1 | 64 | 0.00 / 17.89 (−100.0 %) | 12.13 | 45.50 / 45.16 (+0.8 %) | 63.05 | 1.55 / 61.50 / 1.07 | 63.05 |",
    "| 1 | 128 | 0.00 / 0.00 (−100.0 %) | 0.00 | 36.48 / 39.37 (−7.4 %) | 39.38 | 0.00 / 39.38 / 0.00 | 39.38 |",
    "| 2 | 33 | 22.42 / 71.07 (−68.4 %) | 23.30 | 84.77 / 53.62 (+58.1 %) | 124.69 | 31.01 / 93.49 / 5.64 | 124.49 |",
    "| 2 | 64 | 1.17 / 8.86 (−86.7 %) | 3.64 | 44.80 / 42.82 (+4.6 %) | 51.68 | 2.16 / 49.56 / 0.49 | 51.72 |",
    "| 4 | 33 | 34.89 / 87.37 (−60.1 %) | 23.92 | 83.20 / 55.01 (+51.2 %) | 142.38 | 42.69 / 99.65 / 4.88 | 142.34 |",
    "| 14 | 33 | 44.30 / 110.07 (−59.8 %) | 33.70 | 81.98 / 56.08 (+46.2 %) | 166.15 | 57.63 / 108.42 / 9.52 | 166.04 |",
];

const BACKLOG_DEEP: [&str; 8] = [
    "| 1 | 33 | 0.00 / 15.76 (−100.0 %) | 89.61 / 96.55 (−7.2 %) |",
    "| 1 | 40 | 0.00 / 26.95 (−100.0 %) | 78.74 / 94.01 (−16.2 %) |",
    "| 1 | 64 | 0.00 / 1.55 (−100.0 %) | 45.36 / 61.50 (−26.2 %) |",
    "| 1 | 128 | 0.00 / 0.00 (−) | 36.34 / 39.38 (−7.7 %) |",
    "| 2 | 33 | 22.42 / 31.01 (−27.7 %) | 84.63 / 93.49 (−9.5 %) |",
    "| 2 | 64 | 1.17 / 2.16 (−45.7 %) | 44.66 / 49.56 (−9.9 %) |",
    "| 4 | 33 | 34.89 / 42.69 (−18.3 %) | 83.06 / 99.65 (−16.6 %) |",
    "| 14 | 33 | 44.30 / 57.63 (−23.1 %) | 81.83 / 108.42 (−24.5 %) |",
];

const TANDEM_2PORT: [&str; 4] = [
    "| 1 | 33 | 45.97 | 69.42 | 36.14 | 0.00 / 0.65 |",
    "| 2 | 40 | 41.67 | 37.32 | 53.52 | 17.38 / 4.64 |",
    "| 2 | 33 | 63.58 | 70.59 | 58.57 | 22.42 / 17.80 |",
    "| 4 | 33 | 77.12 | 71.18 | 71.03 | 34.89 / 29.51 |",
];

const K1_EXCESS: [&str; 4] = [
    "| 1 | 33 | 45.9735 | 36.1438 | 46.1900 |",
    "| 2 | 40 | 41.6655 | 52.3493 | 56.4178 |",
    "| 2 | 33 | 63.5800 | 57.3944 | 71.2120 |",
    "| 4 | 33 | 77.1184 | 69.2725 | 85.0086 |",
];

const KLINK: [&str; 8] = [
    "| 1 | 33 | 45.4763 ± 0.0607 | 36.1438 | 46.1900 | +1.6 % |",
    "| 1 | 64 | 36.0000 ± 0.0000 | 36.1438 | 36.1438 | +0.4 % |",
    "| 2 | 40 | 56.6332 ± 0.8684 | 52.3493 | 56.4178 | −0.4 % |",
    "| 2 | 33 | 71.0689 ± 0.7922 | 57.3944 | 71.2120 | +0.2 % |",
    "| 2 | 64 | 39.7347 ± 0.0814 | 36.1438 | 38.8889 | −2.1 % |",
    "| 4 | 33 | 84.6835 ± 1.1176 | 69.2725 | 85.0086 | +0.4 % |",
    "| 4 | 64 | 44.8415 ± 0.2361 | 39.2742 | 43.9654 | −2.0 % |",
    "| 14 | 33 | 95.9250 ± 1.1593 | 78.2637 | 95.3880 | −0.6 % |",
];

const TANDEM_16PORT: [&str; 8] = [
    "| 1 | 33 | 110.8494 ± 14.0662 | 89.7500 | −19.0 % | 104.4930 (10.0463 / 58.3029) | −5.7 % |",
    "| 1 | 40 | 93.5612 ± 12.4287 | 78.8819 | −15.7 % | 84.6506 (0.0000 / 48.5068) | −9.5 % |",
    "| 1 | 64 | 55.7725 ± 6.7465 | 45.5046 | −18.4 % | 49.3768 (0.0000 / 13.2331) | −11.5 % |",
    "| 1 | 128 | 39.3396 ± 0.9757 | 36.4798 | −7.3 % | 36.7406 (0.0000 / 0.5969) | −6.6 % |",
    "| 2 | 33 | 144.9596 ± 8.1920 | 106.0198 | −26.9 % | 123.4688 (35.0682 / 52.2568) | −14.8 % |",
    "| 2 | 64 | 65.2560 ± 5.4471 | 44.8007 | −31.3 % | 51.0210 (2.7452 / 12.1321) | −21.8 % |",
    "| 4 | 33 | 146.8210 ± 2.8784 | 116.3307 | −20.8 % | 135.4382 (48.8648 / 50.4296) | −7.8 % |",
    "| 14 | 33 | 158.8748 ± 1.7879 | 124.0975 | −21.9 % | 144.4260 (59.2443 / 49.0380) | −9.1 % |",
];

const COUPLED: [&str; 8] = [
    "| 1 | 33 | 103.4863 ± 8.1446 | 104.4930 | +1.0 % | 1.5222 ± 1.9872 | 104.4930 (10.0463 / 58.3029) | +1.0 % | 1.5222 ± 1.9872 |",
    "| 1 | 40 | 83.0930 ± 6.9485 | 84.6506 | +1.9 % | 0.4260 ± 1.4002 | 84.6506 (0.0000 / 48.5068) | +1.9 % | 0.4260 ± 1.4002 |",
    "| 1 | 64 | 50.9647 ± 3.9617 | 49.3768 | −3.1 % | 1.6527 ± 0.5819 | 49.3768 (0.0000 / 13.2331) | −3.1 % | 1.6527 ± 0.5819 |",
    "| 1 | 128 | 38.6148 ± 0.4952 | 36.7406 | −4.9 % | 2.0122 ± 0.2388 | 36.7406 (0.0000 / 0.5969) | −4.9 % | 2.0122 ± 0.2388 |",
    "| 2 | 33 | 134.8359 ± 4.3335 | 123.4688 | −8.4 % | 9.2537 ± 1.4127 | 131.8081 (43.4075 / 52.2568) | −2.2 % | 0.9144 ± 1.4127 |",
    "| 2 | 64 | 60.5903 ± 2.9862 | 51.0210 | −15.8 % | 8.1280 ± 1.0813 | 58.8550 (10.5792 / 12.1321) | −2.9 % | 0.2940 ± 1.0813 |",
    "| 4 | 33 | 142.8575 ± 1.8479 | 135.4382 | −5.2 % | 8.4600 ± 1.8424 | 148.1068 (61.5334 / 50.4296) | +3.7 % | −4.2085 ± 1.8424 |",
    "| 14 | 33 | 156.9371 ± 1.6225 | 144.4260 | −8.0 % | 12.5509 ± 1.6445 | 160.2548 (75.0731 / 49.0380) | +2.1 % | −3.2779 ± 1.6445 |",
];

const COUPLED_CHECK: [&str; 4] = [
    "| 2 | 40 | 112.3074 ± 4.4462 | 100.4560 | −10.6 % | 9.8634 ± 1.9174 | 111.5244 (31.3425 / 44.0382) | −0.7 % | −1.2050 ± 1.9174 |",
    "| 3 | 33 | 143.3785 ± 2.8460 | 131.2997 | −8.4 % | 11.8910 ± 2.0994 | 142.5129 (55.3840 / 50.9852) | −0.6 % | 0.6777 ± 2.0994 |",
    "| 4 | 64 | 63.9762 ± 0.9493 | 55.6306 | −13.0 % | 8.0835 ± 0.4932 | 68.7783 (20.9694 / 11.6652) | +7.5 % | −5.0642 ± 0.4932 |",
    "| 8 | 33 | 157.6913 ± 2.2157 | 141.9074 | −10.0 % | 15.4336 ± 1.7879 | 156.7821 (70.9592 / 49.6791) | −0.6 % | 0.5588 ± 1.7879 |",
];

const CUBE_FLUID: [&str; 6] = [
    "| 1 | 33 | 157.96 | 84.75 (−46.3 %) | 162.25 (+2.7 %) | 0.00 / 110.77 |",
    "| 1 | 64 | 64.12 | 51.48 (−19.7 %) | 66.81 (+4.2 %) | 0.00 / 15.34 |",
    "| 1 | 128 | 53.20 | 51.48 (−3.2 %) | 52.12 (−2.0 %) | 0.00 / 0.64 |",
    "| 2 | 33 | 181.41 | 85.93 (−52.6 %) | 183.06 (+0.9 %) | 21.25 / 109.16 |",
    "| 4 | 33 | 184.48 | 86.51 (−53.1 %) | 196.52 (+6.5 %) | 33.13 / 110.16 |",
    "| 14 | 33 | 185.40 | 86.93 (−53.1 %) | 206.63 (+11.5 %) | 42.12 / 110.86 |",
];

const CUBE_TANDEM: [&str; 6] = [
    "| 1 | 33 | 171.2095 ± 6.5841 | 52.4998 / 118.7097 | 162.2466 | −5.2 % | 181.7338 | 10.0463 / 171.6875 | +6.1 % |",
    "| 1 | 64 | 77.4666 ± 3.6779 | 4.8371 / 72.6295 | 66.8131 | −13.8 % | 74.5631 | 0.0000 / 74.5631 | −3.7 % |",
    "| 1 | 128 | 56.2345 ± 0.9224 | 0.0381 / 56.1964 | 52.1218 | −7.3 % | 52.5898 | 0.0000 / 52.5898 | −6.5 % |",
    "| 2 | 33 | 176.8148 ± 5.2497 | 63.7585 / 113.0563 | 183.0597 | +3.5 % | 200.1787 | 37.4929 / 162.6858 | +13.2 % |",
    "| 4 | 33 | 184.4625 ± 1.5019 | 75.6999 / 108.7626 | 196.5245 | +6.5 % | 213.0573 | 52.5320 / 160.5253 | +15.5 % |",
    "| 14 | 33 | 193.8431 ± 2.3365 | 83.9142 / 109.9288 | 206.6337 | +6.6 % | 222.8278 | 63.8114 / 159.0165 | +15.0 % |",
];

const CUBE_LINKS: [&str; 4] = [
    "| 1 | 120.2100 | 43.9077 | 64.0732 | 8.8532 | 8.1932 |",
    "| 2 | 111.2084 | 41.3691 | 54.2677 | 8.2390 | 7.5243 |",
    "| 4 | 109.0479 | 39.2481 | 51.3351 | 7.3863 | 6.9997 |",
    "| 14 | 107.5390 | 40.0748 | 49.1821 | 7.5607 | 7.1096 |",
];

const CUBE_BACKLOG: [&str; 6] = [
    "| 1 | 33 | 171.2095 ± 6.5841 | 181.7338 | +6.1 % | 172.4623 | 0.7748 / 171.6875 | +0.7 % |",
    "| 1 | 64 | 77.4666 ± 3.6779 | 74.5631 | −3.7 % | 74.5631 | 0.0000 / 74.5631 | −3.7 % |",
    "| 1 | 128 | 56.2345 ± 0.9224 | 52.5898 | −6.5 % | 52.5898 | 0.0000 / 52.5898 | −6.5 % |",
    "| 2 | 33 | 176.8148 ± 5.2497 | 200.1787 | +13.2 % | 172.8011 | 10.1153 / 162.6858 | −2.3 % |",
    "| 4 | 33 | 184.4625 ± 1.5019 | 213.0573 | +15.5 % | 178.4154 | 17.8901 / 160.5253 | −3.3 % |",
    "| 14 | 33 | 193.8431 ± 2.3365 | 222.8278 | +15.0 % | 183.6501 | 24.6336 / 159.0165 | −5.3 % |",
];

const K14_DIRECT: [&str; 1] = [
    "| 14 | 33 | 156.9371 ± 1.6225 | 160.2548 (75.0731 / 49.0380) | +2.1 % |",
];

//! Four tables of `docs/reproduction.md` tied to committed results (issue
//! 23 item 3): the 004_… multi-link ring's stability limits, the dateline
//! torus runs, the "≥ 1" of the channel table of "Why 002_…'s model
//! saturates early at L = 3", and the loads of 002_…'s heaviest points.
//!
//! Quoted cells are `Claim`s (checked by `check`), differences of two cells
//! are `models::Derived`, the deadlock cycles are `DEADLOCKS` entries. What
//! is new here are bounds, which no rounding ties: a model's stability
//! limit, recomputed from the model's equations independently of
//! `sim/netsim/src/analytic/ring.rs`, and ρ^L ≥ 1 from a committed ρ.

use super::*;
use models::{sel, Row};

const TORUS: &str = "experiments/results/torus4_dateline/results.csv";
const RING_MODEL: &str = "experiments/results/model_ring_004/results.csv";
const CHANNELS: &str = "experiments/results/torus_002_channels/channels.csv";
const HEAVY: &str = "experiments/results/model_torus_002_8x8x8_heavy/results.csv";

/// The torus table's rows, as written.
const TORUS_06: &str = "| 0.6 | drains; accepted 0.598, latency 499 cycles (network 103, source queue 396) | drains; latency 85 (network 79) |";
const TORUS_08: &str = "| 0.8 | drains; accepted 0.817, network latency 126, source queues grow (latency 18,208) | **deadlock** (cycle 4,096: 128 input VCs can never move again) |";
const TORUS_10: &str = "| 1.0 | drains; accepted 1.038, network latency 125, source queues grow (latency 35,946) | **deadlock** (cycle 24,576: 128 input VCs) |";

/// A point of the dateline sweep.
fn torus_point(load: &'static str, dateline: &'static str) -> Row {
    sel(&[("workload.load", load), ("topology.dateline", dateline)])
}

/// The quoted cells: the dateline table's accepted rates and latencies,
/// and the load column of the heaviest points' table (each row's load is
/// the `workload.load` of its committed sweep point).
pub(super) fn claims() -> Vec<Claim> {
    let (acc, lat, net) = ("accepted_throughput", "be_latency_cycles", "be_network_latency_cycles");
    let mut v = vec![
        Claim {
            passage: TORUS_06,
            numbers: vec![
                n("0.598", TORUS, torus_point("0.6", "true"), acc),
                n("499", TORUS, torus_point("0.6", "true"), lat),
                n("103", TORUS, torus_point("0.6", "true"), net),
                n("85", TORUS, torus_point("0.6", "false"), lat),
                n("79", TORUS, torus_point("0.6", "false"), net),
            ],
        },
        Claim {
            passage: TORUS_08,
            numbers: vec![n("0.817", TORUS, torus_point("0.8", "true"), acc), n("126", TORUS, torus_point("0.8", "true"), net), n("18,208", TORUS, torus_point("0.8", "true"), lat)],
        },
        Claim {
            passage: TORUS_10,
            numbers: vec![n("1.038", TORUS, torus_point("1.0", "true"), acc), n("125", TORUS, torus_point("1.0", "true"), net), n("35,946", TORUS, torus_point("1.0", "true"), lat)],
        },
    ];
    for (passage, load, vcs) in [
        ("| 5 | 0.06 | 114.0 | 112.6 (0.060) | +1.2 % | +1.1 % (112.8) |", "0.06", "5"),
        ("| 5 | 0.08 | 128.2 | 123.9 (0.080) | +3.4 % | +4.0 % (123.2) |", "0.08", "5"),
        ("| 5 | 0.1 | 159.6 | 137.3 (0.100) | +16.2 % | +17.0 % (136.4) |", "0.1", "5"),
        ("| 3 | 0.06 | 123.1 | **deadlock** (cycle 4,096) | — | deadlock |", "0.06", "3"),
        ("| 3 | 0.08 | saturated | **deadlock** (cycle 4,096) | — | deadlock |", "0.08", "3"),
        ("| 3 | 0.1 | saturated | **deadlock** (cycle 4,096) | — | deadlock |", "0.1", "3"),
    ] {
        let point = sel(&[("source", "sim"), ("workload.load", load), ("router.vcs", vcs)]);
        v.push(Claim { passage, numbers: vec![n(load, HEAVY, point, "workload.load")] });
    }
    v
}

/// The dateline table's source queueing, latency − network latency of one
/// committed point (the table's 396, the prose's 6).
pub(super) fn derived() -> Vec<models::Derived> {
    let queue = |dateline: &'static str| {
        let cell = |column| models::cell_value(TORUS, torus_point("0.6", dateline), column).unwrap_or_else(|e| panic!("{e}"));
        cell("be_latency_cycles") - cell("be_network_latency_cycles")
    };
    let with = queue("true");
    let without = queue("false");
    let d = |passage, written, value| models::Derived { passage, written, value };
    let prose = "queueing 396 cycles against 6) than the unprotected torus";
    vec![d(TORUS_06, "396", with), d(prose, "396", with), d(prose, "6", without)]
}

/// A number the document writes as a bound.
pub(super) struct Bound {
    passage: &'static str,
    written: &'static str,
    what: BoundOf,
}

enum BoundOf {
    /// "> x" (or "beyond x"): the load at which the 004_… ring model's
    /// holding-time fixed point stops existing lies in (x, x + one unit of
    /// x's last decimal).
    RingLimit(RingQueue),
    /// "≥ 1": ρ^L at ρ = the committed `rho` of a channel-table row, with
    /// L = 3 VCs; the probe leaves that row's `p_all_paper_at_rho` empty,
    /// since ρ^L is then no probability.
    RhoPowerL(Row),
}

/// The 004_… ring model's bounds and the channel table's ρ^L ≥ 1.
pub(super) fn bounds() -> Vec<Bound> {
    let b = |passage, written, what| Bound { passage, written, what };
    vec![
        b("| 0.20 | 63.5 ±0.1 | unstable (> 0.17) | 69.2 (+9 %) |", "0.17", BoundOf::RingLimit(RingQueue::Exponential)),
        b("| 0.25 | 69.5 ±0.2 | unstable | unstable (> 0.20) |", "0.20", BoundOf::RingLimit(RingQueue::Deterministic)),
        b("turn unstable (M/M/n beyond 0.17, M/D/n beyond 0.20)", "0.17", BoundOf::RingLimit(RingQueue::Exponential)),
        b("turn unstable (M/M/n beyond 0.17, M/D/n beyond 0.20)", "0.20", BoundOf::RingLimit(RingQueue::Deterministic)),
        b(
            "| ρ^L at the sim's λ_c × holding time | 0.0106 | 0.0470 | 0.0890 | 0.1281 | 0.1511 | 0.3847 | ≥ 1 |",
            "1",
            BoundOf::RhoPowerL(sel(&[("load", "0.12"), ("dim", "0"), ("source", "sim")])),
        ),
    ]
}

/// Each bound's disagreement with its data, or an empty list.
fn check_bounds(bounds: &[Bound]) -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let mut out = Vec::new();
    for b in bounds {
        if let Some(missing) = models::quote_missing(&doc, b.passage, b.written) {
            out.push(missing);
            continue;
        }
        let x: f64 = b.written.parse().unwrap();
        match &b.what {
            BoundOf::RingLimit(q) => {
                let unit = 10f64.powi(-(b.written.split_once('.').map_or(0, |(_, d)| d.len()) as i32));
                let limit = ring_stability_limit(*q);
                if !(x < limit && limit < x + unit) {
                    out.push(format!("{:?}: the {q:?} ring model's stability limit is {limit:.5}, not in ({x}, {})", b.passage, x + unit));
                }
            }
            BoundOf::RhoPowerL(row) => match models::cell_value(CHANNELS, row, "rho") {
                Ok(rho) if rho.powi(3) >= x => {
                    if models::cell_value(CHANNELS, row, "p_all_paper_at_rho").is_ok() {
                        out.push(format!("{CHANNELS} {row:?}: p_all_paper_at_rho is written, the table says ≥ 1"));
                    }
                }
                other => out.push(format!("{:?}: ρ^3 at {CHANNELS} {row:?} rho = {other:?} is not ≥ {x}", b.passage)),
            },
        }
    }
    out
}

/// The input VCs a committed deadlock stranded, as the checker's `error`
/// says ("deadlocked at cycle N: K input VCs can never move again").
const STUCK_VCS: [(&str, &str, &str); 2] = [(TORUS_08, "128", "0.8"), (TORUS_10, "128", "1.0")];

fn check_stuck_vcs() -> Vec<String> {
    let table = read_csv(TORUS);
    let mut out = Vec::new();
    for (passage, written, load) in STUCK_VCS {
        if !contains_number(passage, written) {
            out.push(format!("{written:?} is not in its passage {passage:?}"));
        }
        let rows: Vec<_> = table.iter().filter(|r| r["workload.load"] == load && r["topology.dateline"] == "false").collect();
        let error = rows.first().map_or("", |r| r["error"].as_str());
        if rows.len() != 1 || !error.contains(&format!(": {written} input VCs can never move again")) {
            out.push(format!("{TORUS} load {load} without datelines: {} rows, error {error:?}, the table says {written} stuck input VCs", rows.len()));
        }
    }
    out
}

/// The table's "drains" / "deadlock": in the sweep's `results.json`, a
/// point whose cell starts with "drains" has messages created = delivered
/// and flits injected = ejected, one whose cell says deadlock has no
/// results (the run failed).
fn check_drains() -> Vec<String> {
    let path = "experiments/results/torus4_dateline/results.json";
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap();
    let points = json["points"].as_array().map_or(&[][..], Vec::as_slice);
    let mut out = Vec::new();
    for (passage, load) in [(TORUS_06, 0.6), (TORUS_08, 0.8), (TORUS_10, 1.0)] {
        let cells: Vec<&str> = passage.trim_matches('|').split('|').map(str::trim).collect();
        for (cell, dateline) in [(cells[1], true), (cells[2], false)] {
            let at: Vec<_> = points.iter().filter(|p| p["params"]["workload.load"].as_f64() == Some(load) && p["params"]["topology.dateline"].as_bool() == Some(dateline)).collect();
            let r = at.first().map(|p| &p["results"]);
            let drained = r.is_some_and(|r| r.is_object() && r["messages_created"] == r["messages_delivered"] && r["flits_injected"] == r["flits_ejected"]);
            if at.len() != 1 || drained != cell.starts_with("drains") || !(drained || cell.contains("deadlock")) {
                out.push(format!("{path} load {load} dateline {dateline}: {} points, drained {drained}, the table says {cell:?}", at.len()));
            }
        }
    }
    out
}

/// The census ties of what `derived`, `bounds` and `STUCK_VCS` check.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    let mut t: Vec<census::Tie> = bounds().into_iter().map(|b| census::Tie { passage: b.passage, written: vec![b.written] }).collect();
    t.extend(derived().into_iter().map(|d| census::Tie { passage: d.passage, written: vec![d.written] }));
    t.extend(STUCK_VCS.iter().map(|&(passage, written, _)| census::Tie { passage, written: vec![written] }));
    t
}

/// The VC queue of the 004_… ring model: M/M/n, or M/D/n by Cosmetatos'
/// correction (docs/reproduction.md, "004_… multi-link ring").
#[derive(Clone, Copy, Debug)]
enum RingQueue {
    Exponential,
    Deterministic,
}

/// `experiments/ring_004.toml`: 16 nodes, 4 parallel links, 4 VCs,
/// 10-flit messages; t_hop = 5 router pipeline stages per hop.
const RING: (usize, usize, u32, f64, f64) = (16, 4, 4, 10.0, 5.0);

/// Erlang C written as the sum: P(wait) = (a^n/n! · n/(n − a)) /
/// (Σ_{k<n} a^k/k! + a^n/n! · n/(n − a)), for a < n.
fn erlang_c_by_sum(n: u32, a: f64) -> f64 {
    let term = |k: u32| a.powi(k as i32) / (1..=k).map(f64::from).product::<f64>();
    let tail = term(n) * n as f64 / (n as f64 - a);
    tail / ((0..n).map(term).sum::<f64>() + tail)
}

/// The mean VC wait for `n` VCs, arrival rate `lam`, holding time `t`;
/// None when the queue is unstable (λ t ≥ n).
fn vc_wait(q: RingQueue, n: u32, lam: f64, t: f64) -> Option<f64> {
    let (c, rho) = (n as f64, lam * t / n as f64);
    if rho >= 1.0 {
        return None;
    }
    let mmn = erlang_c_by_sum(n, lam * t) * t / (c * (1.0 - rho));
    Some(match q {
        RingQueue::Exponential => mmn,
        // Cosmetatos (1976): W_MDn ≈ ½ W_MMn (1 + (1 − ρ)(c − 1)(√(4 + 5c) − 2) / (16 ρ c)).
        RingQueue::Deterministic => 0.5 * mmn * (1.0 + (1.0 - rho) * (c - 1.0) * ((4.0 + 5.0 * c).sqrt() - 2.0) / (16.0 * rho * c)),
    })
}

/// The model's VC wait W at `load` flits/node/cycle, or None when the
/// fixed point W = wait(T(W)) does not exist. A message to a uniform
/// destination travels k = 1..N−1 links with equal probability, so the
/// links it crosses with h links to go (itself included) number one for
/// each k ≥ h: a link's headers have h to go with weight N − h. Their
/// holding time is M + h·t_hop + (h − 1)·W; a link carries λ = (load/M)·
/// (N/2 links per message)·N sources / (N·l links). The wait is increasing
/// in W, so iterating from W = 0 climbs to the smallest fixed point if
/// there is one and past any bound if not.
fn ring_wait(q: RingQueue, load: f64) -> Option<f64> {
    let (nodes, links, vcs, m, t_hop) = RING;
    let weight = |h: usize| (nodes - h) as f64;
    let total: f64 = (1..nodes).map(weight).sum();
    let mean_h: f64 = (1..nodes).map(|h| weight(h) * h as f64).sum::<f64>() / total;
    let lam = load / m * nodes as f64 / 2.0 / links as f64;
    let mut w = 0.0;
    for _ in 0..1_000_000 {
        let next = vc_wait(q, vcs, lam, m + mean_h * t_hop + (mean_h - 1.0) * w)?;
        if next - w < 1e-13 {
            return Some(next);
        }
        w = next;
    }
    None
}

/// The model's network latency: P − 1 + M + P·H̄ + H̄·W with H̄ = N/2 links.
fn ring_latency(q: RingQueue, load: f64) -> Option<f64> {
    let (nodes, _, _, m, t_hop) = RING;
    let links = nodes as f64 / 2.0;
    ring_wait(q, load).map(|w| t_hop - 1.0 + m + t_hop * links + links * w)
}

/// The largest load with a fixed point, by bisection between a stable
/// light load and the committed sweep's heaviest (unstable) one.
fn ring_stability_limit(q: RingQueue) -> f64 {
    let (mut lo, mut hi) = (0.002, 0.3);
    assert!(ring_wait(q, lo).is_some() && ring_wait(q, hi).is_none(), "{q:?}: no limit in ({lo}, {hi})");
    while hi - lo > 1e-7 {
        let mid = 0.5 * (lo + hi);
        if ring_wait(q, mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The recomputation is the committed model's: at every committed load,
/// stable where `model_ring_004/results.csv` has a latency (and within
/// 1e-6 of it), saturated where it has none.
fn check_ring_recomputation() -> Vec<String> {
    let mut out = Vec::new();
    for (source, q) in [("model:holding_mmn", RingQueue::Exponential), ("model:holding_mdn", RingQueue::Deterministic)] {
        for load in ["0.002", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3"] {
            let committed = models::cell_value(RING_MODEL, sel(&[("source", source), ("workload.load", load)]), "be_network_latency_cycles");
            let ours = ring_latency(q, load.parse().unwrap());
            match (&committed, ours) {
                (Ok(c), Some(o)) if (c - o).abs() <= 1e-6 * c => {}
                (Err(e), None) if e.contains("is not a number") => {}
                _ => out.push(format!("{RING_MODEL} {source} at {load}: committed {committed:?}, recomputed {ours:?}")),
            }
        }
    }
    out
}

#[test]
fn ring_torus_tables_follow_from_the_committed_results() {
    let mut errors = check(&claims());
    errors.extend(models::check_derived(&derived()));
    errors.extend(check_bounds(&bounds()));
    errors.extend(check_stuck_vcs());
    errors.extend(check_drains());
    errors.extend(check_ring_recomputation());
    assert!(errors.is_empty(), "{} ring / torus numbers disagree with their data:\n{}", errors.len(), errors.join("\n"));
}

//! The numbers of "004_… Figs 6, 8, 9, 10 in the paper's units, and Eq.
//! (23)" in `docs/reproduction.md` that the cell claims of `models.rs` and
//! `reproduction_numbers.rs` leave to the census (issue 23 item 3): Fig.
//! 8's message length M, the saturated M/M/n segmentation queue's ρ,
//! "Fig. 9 with the paper's NI"'s second − first errors and measured
//! service S̄, and the Markov − simulation errors of the N = 256
//! paper's-NI table. Each is a committed cell, an error recomputed from its
//! two committed cells, or a conversion into the paper's units recomputed
//! here from the paper's constants.

use super::*;
use models::{sel, RelError};

/// The paper's link rate C_L: "multiple unidirectional links (in both
/// directions) of 624 Mbits/s each" (004_… §5; also Fig. 6's captions).
/// The experiments set it as `[physical] link_mbps = 624`.
const LINK_BITS_PER_S: f64 = 624e6;

/// The paper's packet in Figs 8–10: "pkt_l = 2 kbytes" (004_… §5), 16384
/// bits; `[model] packet_bits = 16384` in the experiments.
const PACKET_BITS: f64 = 16384.0;

/// The experiments whose results these tables quote, each of which must
/// state the paper's constants above.
const EXPERIMENTS: [&str; 3] = ["experiments/fig8_004.toml", "experiments/fig9_004.toml", "experiments/fig9_004_segmentation.toml"];

/// One flit time in seconds for the paper's packet cut into `m` flits.
pub(super) fn flit_time_s(m: f64) -> f64 {
    PACKET_BITS / m / LINK_BITS_PER_S
}

/// A load of `load` flits/node/flit time in packets/s/node (for any M:
/// load/M packets per flit time of PACKET_BITS/M bits).
fn packets_per_s(load: f64, m: f64) -> f64 {
    load / m / flit_time_s(m)
}

/// The section's unit conversion and "Fig. 9 with the paper's NI"'s flit time.
const CONVERSION: &str = "flit time = 16384 / M / 624 Mbit/s (5.25 µs for M = 5), so 0.1\nflits/node/cycle is 3809 packets/s/node for every M.";
const FLIT_TIME: &str = "in flit times of\n5.25 µs;";

const FIG8: &str = "experiments/results/model_fig8_004/results.csv";
const FIG9: &str = "experiments/results/model_fig9_004/throughput.csv";
const FIG9_NI: &str = "experiments/results/model_fig9_004_segmentation/throughput.csv";
const N256_SEGQ: &str = "experiments/results/model_fig6a_004_n256_segq/source_queue.csv";
const N256: &str = "experiments/results/model_fig6a_004_n256/source_queue.csv";

/// The Eq. (8) table's 15234 row: M/M/n's ρ is saturated, first / second
/// strategy.
const EQ8_SATURATED: &str = "| 15234 | 0.907 / 0.946 | saturated (ρ = 1.002 / 1.006) | 580.85 / 1082.94 | 1161.70 / 2165.87 | 0.77 / 0.77 |";

/// "Fig. 9 with the paper's NI": (passage, load, second − first in T or
/// "" when saturated, S̄ first / second in flit times).
const FIG9_NI_ROWS: [(&str, &str, &str, [&str; 2]); 4] = [
    ("| 1904 | 0.177 / 0.177 | −0.0 % | 16.82 / 16.83 | 30.45 / 30.45 | 951 / 951 |", "0.05", "−0.0", ["30.45", "30.45"]),
    ("| 7617 | 0.333 / 0.332 | −0.3 % | 167.34 / 166.71 | 31.59 / 31.55 | 3788 / 3788 |", "0.2", "−0.3", ["31.59", "31.55"]),
    ("| 15234 | saturated | — | saturated | 32.25 / 32.11 | 5901 / 5925 |", "0.4", "", ["32.25", "32.11"]),
    ("| 22852 | saturated | — | saturated | 32.24 / 32.13 | 5897 / 5917 |", "0.6", "", ["32.24", "32.13"]),
];

/// The N = 256 paper's-NI table: (passage, load, Markov − paper's NI,
/// Markov − default NI), latency in flit times at v_c = 1 (`router.vcs`
/// = 2). Its cells are `reproduction_numbers.rs`'s claims.
const N256_ROWS: [(&str, &str, &str, &str); 3] = [
    ("| 0.05 | 461.4 / 431.4 / 443.8 | −3.8 % | +2.9 % | 30.8 / 0.2 / 24.1 | −21.7 % |", "0.05", "−3.8", "+2.9"),
    ("| 0.2 | 663.7 / 457.6 / 572.7 | −13.7 % | +25.2 % | 212.8 / 3.0 / 150.4 | −29.3 % |", "0.2", "−13.7", "+25.2"),
    ("| 0.4 | 3299.1 / 528.2 / 1600.2 (sim saturated) | −51.5 % | +202.9 % | 2805.9 / 18.6 / 1172.6 | −58.2 % |", "0.4", "−51.5", "+202.9"),
];

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The `throughput.csv` row of `source` at the quoted `point`.
fn at(source: &'static str, point: String) -> models::Row {
    sel(&[("source", source), ("point", leak(format!("\"{point}\"")))])
}

/// The quoted cells: Fig. 8's M (the committed sweep point's
/// `workload.message_flits`) and M/M/n's saturated ρ.
pub(super) fn claims() -> Vec<Claim> {
    let mut v: Vec<Claim> = models::RING_004_FIG8_ROWS
        .iter()
        .map(|&(passage, load, m)| Claim { passage, numbers: vec![n(m, FIG8, sel(&[("source", "sim"), ("workload.load", load), ("workload.message_flits", m)]), "workload.message_flits")] })
        .collect();
    let rho = |written, strategy: &str| n(written, FIG9, at("model:mmn", format!("workload.load=0.4 topology.strategy={strategy}")), "segmentation_rho");
    v.push(Claim { passage: EQ8_SATURATED, numbers: vec![rho("1.002", "destination_block"), rho("1.006", "source_block")] });
    v
}

/// The quoted errors: second − first strategy in T with the paper's NI
/// (the second strategy in the model's place), and the Markov model's
/// latency against the paper's NI and against the default NI at N = 256.
pub(super) fn errors() -> Vec<RelError> {
    let mut e = Vec::new();
    for &(passage, load, written, _) in &FIG9_NI_ROWS {
        if written.is_empty() {
            continue;
        }
        let point = |strategy: &str| at("sim", format!("workload.load={load} topology.strategy={strategy} workload.source_queues=per_direction_until_delivered"));
        e.push(RelError { passage, written, csv: FIG9_NI, model: point("source_block"), sim: point("destination_block"), column: "latency_ms", sim_csv: None });
    }
    for &(passage, load, paper_ni, default_ni) in &N256_ROWS {
        let row = |source: &'static str| sel(&[("source", source), ("point", leak(format!("workload.load={load} router.vcs=2"))), ("class", "0")]);
        e.push(RelError { passage, written: paper_ni, csv: N256_SEGQ, model: row("model:markov"), sim: row("sim"), column: "latency_cycles", sim_csv: None });
        e.push(RelError { passage, written: default_ni, csv: N256_SEGQ, model: row("model:markov"), sim: row("sim"), column: "latency_cycles", sim_csv: Some(N256) });
    }
    e
}

/// The numbers recomputed in the paper's units, each (passage, written,
/// value): the section's conversion (5.25 µs, 3809 packets/s/node at
/// 0.1 for every M), Fig. 8's load column in packets/s/node, M/M/n's ρ = (λ/2) t̄_s
/// from its t̄_s, and S̄ = T − source wait in flit times of 2 KB/5 at 624
/// Mbit/s.
fn derived() -> Result<Vec<(&'static str, &'static str, f64)>, String> {
    let mut out = Vec::new();
    // The section's statement of the conversion, for every M of Fig. 8.
    out.push((CONVERSION, "5.25", flit_time_s(5.0) * 1e6));
    for m in [5.0, 10.0, 20.0] {
        out.push((CONVERSION, "3809", packets_per_s(0.1, m)));
    }
    out.push((FLIT_TIME, "5.25", flit_time_s(5.0) * 1e6));
    for &(passage, load, m) in &models::RING_004_FIG8_ROWS {
        let label = passage.trim_matches('|').split('|').next().unwrap().trim();
        out.push((passage, label, packets_per_s(load.parse().unwrap(), m.parse().unwrap())));
    }
    // Eq. 8: ρ = (λ/2) t̄_s, λ = load/M packets per cycle per node, M = 5.
    for (written, strategy) in [("1.002", "destination_block"), ("1.006", "source_block")] {
        let ts = models::cell_value(FIG9, at("model:mmn", format!("workload.load=0.4 topology.strategy={strategy}")), "service_cycles")?;
        out.push((EQ8_SATURATED, written, 0.4 / 5.0 / 2.0 * ts));
    }
    for &(passage, load, _, service) in &FIG9_NI_ROWS {
        for (written, strategy) in service.into_iter().zip(["destination_block", "source_block"]) {
            let row = at("sim", format!("workload.load={load} topology.strategy={strategy} workload.source_queues=per_direction_until_delivered"));
            let t_ms = models::cell_value(FIG9_NI, row, "latency_ms")?;
            let wait_ms = models::cell_value(FIG9_NI, row, "segmentation_wait_ms")?;
            out.push((passage, written, (t_ms - wait_ms) * 1e-3 / flit_time_s(5.0)));
        }
    }
    Ok(out)
}

/// Every disagreement of the tables with their data, or an empty list.
pub(super) fn check_all() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let mut out = check(&claims());
    out.extend(models::check_errors(&errors()));
    for toml in EXPERIMENTS {
        let text = std::fs::read_to_string(root().join(toml)).unwrap_or_else(|e| panic!("{toml}: {e}"));
        for line in [format!("link_mbps = {}", LINK_BITS_PER_S / 1e6), format!("packet_bits = {PACKET_BITS}")] {
            if !text.lines().any(|l| l.trim() == line) {
                out.push(format!("{toml} does not set the paper's {line:?}"));
            }
        }
    }
    match derived() {
        Ok(numbers) => {
            for (passage, written, value) in numbers {
                if let Some(missing) = models::passage_missing(&doc, passage) {
                    out.push(missing);
                } else if !contains_number(passage, written) {
                    out.push(format!("{written:?} is not in its passage {passage:?}"));
                } else if rounded_like(value, written) != written {
                    out.push(format!("docs/reproduction.md says {written} where the data give {value} (passage {passage:?})"));
                }
            }
        }
        Err(e) => out.push(e),
    }
    out
}

/// The census ties: every number this file checks, with its passage.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    let mut ties: Vec<census::Tie> = claims().into_iter().map(|c| census::Tie { passage: c.passage, written: c.numbers.iter().map(|x| x.written).collect() }).collect();
    ties.extend(errors().into_iter().map(|e| census::Tie { passage: e.passage, written: vec![e.written] }));
    ties.extend(FIG9_NI_ROWS.iter().map(|&(passage, _, _, service)| census::Tie { passage, written: service.to_vec() }));
    ties
}

//! "000_… Fig. 8: latency components in the 6-cube (issue 22)": its two
//! tables (every cell model / sim with the error recomputed from the two
//! cells of `latency_components.csv`) and the numbers of its prose,
//! formatted here from the same files and `latency_parts.csv`.

use super::models::{pair_cells, sel, RelError, Row};
use super::{read_csv, section_words, Claim};
use std::collections::HashMap;

const HEADING: &str = "### 000_… Fig. 8: latency components in the 6-cube (issue 22)";
const CUBE: &str = "experiments/results/model_fig8_000_cube6/latency_components.csv";
const ROUTER: &str = "experiments/results/model_fig5_000_np/latency_components.csv";
const CUBE_PARTS: &str = "experiments/results/model_fig8_000_cube6/latency_parts.csv";
const ROUTER_PARTS: &str = "experiments/results/model_fig5_000_np/latency_parts.csv";
const PARTS: [&str; 3] = ["queueing_cycles", "transfer_cycles", "blocking_sharing_cycles"];

/// (R1+R2 messages/cycle as the table writes it, the sweep's key).
const CUBE_LOADS: [(&str, &str); 4] = [("0.0015", "0.112:0.048:0.064"), ("0.003", "0.16:0.096:0.064"), ("0.0045", "0.208:0.144:0.064"), ("0.006", "0.256:0.192:0.064")];
const ROUTER_LOADS: [(&str, &str); 5] = [("0.002", "0.384:0.064:0.32"), ("0.004", "0.448:0.128:0.32"), ("0.006", "0.512:0.192:0.32"), ("0.008", "0.576:0.256:0.32"), ("0.010", "0.64:0.32:0.32")];
/// The tables' row names and the simulator's classes.
const CLASSES: [(&str, &str); 3] = [("R1", "2"), ("R2", "1"), ("BE", "0")];

fn point_class(key: &str, class: &'static str) -> Row {
    let point: &'static str = Box::leak(format!("workload.load+workload.mix={key}").into_boxed_str());
    sel(&[("point", point), ("class", class)])
}

/// The table row of `load` and `class` in the section (the passage its
/// claim ties), found by its first cell.
fn table_row(doc: &'static str, load: &str, class: &str, after: &str) -> &'static str {
    let from = doc.find(after).unwrap_or_else(|| panic!("{after:?} not in the section"));
    let start = format!("| {load} {class} |");
    doc[from..].lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("no row {start}"))
}

/// Both tables: three model / sim (error) cells per row.
pub(super) fn claims() -> (Vec<Claim>, Vec<RelError>) {
    let doc: &'static str = Box::leak(std::fs::read_to_string(super::root().join("docs/reproduction.md")).unwrap().into_boxed_str());
    let section = &doc[doc.find(HEADING).unwrap_or_else(|| panic!("section missing: {HEADING}"))..];
    let mut v = Vec::new();
    let mut e = Vec::new();
    for (csv, model, loads, after) in [
        (CUBE, "model:kim2005_cube", &CUBE_LOADS[..], "6-cube, R1+R2 in messages/cycle/node"),
        (ROUTER, "model:kim2005", &ROUTER_LOADS[..], "The single router (000_… Fig. 5"),
    ] {
        for &(load, key) in loads {
            for (name, class) in CLASSES {
                let passage = table_row(section, load, name, after);
                let cells: Vec<(Row, &'static str)> = PARTS.iter().map(|&p| (point_class(key, class), p)).collect();
                let (claim, errors) = pair_cells(passage, csv, &cells, model, true);
                v.push(claim);
                e.extend(errors);
            }
        }
    }
    (v, e)
}

type Table = Vec<HashMap<String, String>>;

fn value(t: &Table, source: &str, key: &str, class: &str, column: &str) -> f64 {
    let point = format!("workload.load+workload.mix={key}");
    let rows: Vec<_> = t.iter().filter(|r| r["source"] == source && r["point"] == point && r["class"] == class).collect();
    assert_eq!(rows.len(), 1, "{source} {point} class {class}");
    rows[0][column].parse().unwrap_or_else(|_| panic!("{source} {point} {column}: {}", rows[0][column]))
}

/// 100 (model − sim) / sim of `part` for every load.
fn errors(t: &Table, model: &str, loads: &[(&str, &str)], class: &str, part: &str) -> Vec<f64> {
    loads.iter().map(|&(_, k)| 100.0 * (value(t, model, k, class, part) - value(t, "sim", k, class, part)) / value(t, "sim", k, class, part)).collect()
}

/// "−57 to −63 %": the error range as the prose writes it, the end nearer
/// zero first.
fn range(errs: &[f64]) -> String {
    let lo = errs.iter().cloned().fold(f64::MAX, f64::min);
    let hi = errs.iter().cloned().fold(f64::MIN, f64::max);
    let (a, b) = if lo < 0.0 && hi < 0.0 { (hi, lo) } else { (lo, hi) };
    let s = |x: f64| format!("{}{:.0}", if x < 0.0 { "−" } else { "+" }, x.abs());
    format!("{} to {} %", s(a), s(b))
}

#[test]
fn fig8_components_prose_follows_from_its_csvs() {
    let flat = section_words(HEADING);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let (cube, router) = (read_csv(CUBE), read_csv(ROUTER));
    let (cube_parts, router_parts) = (read_csv(CUBE_PARTS), read_csv(ROUTER_PARTS));
    let (cm, rm) = ("model:kim2005_cube", "model:kim2005");
    // T: within 0.2 % in the 6-cube, exactly equal in the router.
    for (_, class) in CLASSES {
        for e in errors(&cube, cm, &CUBE_LOADS, class, PARTS[1]) {
            assert!(e.abs() <= 0.2, "6-cube class {class}: T error {e} %");
        }
        for &(_, k) in &ROUTER_LOADS {
            assert_eq!(value(&router, rm, k, class, PARTS[1]), value(&router, "sim", k, class, PARTS[1]), "router class {class} at {k}");
        }
    }
    has("T agrees within 0.2 % in the 6-cube".into());
    // Queueing: the model above everywhere; the 6-cube's range over classes.
    let all: Vec<f64> = CLASSES.iter().flat_map(|&(_, c)| errors(&cube, cm, &CUBE_LOADS, c, PARTS[0])).collect();
    assert!(all.iter().all(|&e| e > 0.0), "{all:?}");
    let r2 = errors(&cube, cm, &CUBE_LOADS, "1", PARTS[0]);
    let r1 = errors(&cube, cm, &CUBE_LOADS, "2", PARTS[0]);
    let min = all.iter().cloned().fold(f64::MAX, f64::min);
    let max = all.iter().cloned().fold(f64::MIN, f64::max);
    assert!(r2.contains(&min) && r1.contains(&max), "the range's ends are R2's and R1's");
    has(format!("by +{min:.0} % (R2) to +{max:.0} % (R1)"));
    // R1's measured wait less its credit-stalled cycles against M/D/1 with
    // service M = 32 at λ = R1's rate (2/3 of R1+R2), within 3 %.
    let md1 = |rt: f64| {
        let lam = rt * 2.0 / 3.0;
        lam * 32.0 * 32.0 / (2.0 * (1.0 - lam * 32.0))
    };
    let stall = |parts: &Table, key: &str| -> f64 {
        let point = format!("workload.load+workload.mix={key}");
        parts.iter().find(|r| r["source"] == "sim" && r["point"] == point && r["class"] == "2").unwrap()["credit_stall_cycles"].parse().unwrap()
    };
    let mut cube_md1 = Vec::new();
    let mut cube_sim = Vec::new();
    for (t, parts, loads) in [(&cube, &cube_parts, &CUBE_LOADS[..]), (&router, &router_parts, &ROUTER_LOADS[..])] {
        for &(load, k) in loads {
            let want = md1(load.parse().unwrap());
            let got = value(t, "sim", k, "2", PARTS[0]) - stall(parts, k);
            assert!((got / want - 1.0).abs() <= 0.03, "{k}: R1 wait less credit stalls {got} against M/D/1 {want}");
            if loads.len() == CUBE_LOADS.len() {
                cube_md1.push(format!("{want:.2}"));
                cube_sim.push(format!("{:.2}", value(t, "sim", k, "2", PARTS[0])));
            }
        }
    }
    has("within 3 % of an M/D/1 queue whose service time is M = 32 cycles".into());
    has(format!("(6-cube: {} against {} measured)", cube_md1.join(", "), cube_sim.join(", ")));
    // Eq. (15) at R1, 0.0015: its M/G/1 part from the row's L̄_c and T
    // (λ = 0.001), the rest S̄_c.
    let k = CUBE_LOADS[0].1;
    let (w, t, b) = (value(&cube, cm, k, "2", PARTS[0]), value(&cube, cm, k, "2", PARTS[1]), value(&cube, cm, k, "2", PARTS[2]));
    let (l, lam) = (t + b, 0.001);
    let mg1 = lam * l * l * (1.0 + b * b / (l * l)) / (2.0 * (1.0 - lam * l));
    assert!(w - mg1 >= 1.0, "S̄_c ≥ 1: {}", w - mg1);
    has(format!("0.0015 that is {mg1:.2} + {:.2} of the model's {w:.2} cycles", w - mg1));
    // Blocking and sharing ranges.
    has(format!(
        "the model is below the simulation for R1 ({}) and above it for R2 ({}) and best effort ({})",
        range(&errors(&cube, cm, &CUBE_LOADS, "2", PARTS[2])),
        range(&errors(&cube, cm, &CUBE_LOADS, "1", PARTS[2])),
        range(&errors(&cube, cm, &CUBE_LOADS, "0", PARTS[2]))
    ));
    has(format!(
        "In the router it is below for R1 ({}) and best effort ({}) and above for R2 ({})",
        range(&errors(&router, rm, &ROUTER_LOADS, "2", PARTS[2])),
        range(&errors(&router, rm, &ROUTER_LOADS, "0", PARTS[2])),
        range(&errors(&router, rm, &ROUTER_LOADS, "1", PARTS[2]))
    ));
}

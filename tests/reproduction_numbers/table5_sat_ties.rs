//! "Table V's "Sat." cells: the paper's criterion and its candidate
//! differences (issue 23)": every row of its table is rebuilt here from
//! the committed `experiments/results/table5_sat_001/<variant>.csv`
//! (written by `sim/netsim/tests/table5_sat_001.rs`) and must be in the
//! section as written; Table V's column is checked against the paper's
//! values, copied by hand below; the prose's numbers are recomputed from
//! the same files.

use super::rtvcs_8020::grouped;
use super::*;

pub(super) const HEADING: &str = "#### Table V's \"Sat.\" cells: the paper's criterion and its candidate differences (issue 23)";
const DIR: &str = "experiments/results/table5_sat_001";

/// 001_… Table V at the points run (best-effort latency in µs; "sat" for
/// "Sat."), copied from the paper by hand.
const TABLE_V: [(&str, &str, &str); 7] = [
    ("0.8", "90:10", "106.2"),
    ("0.9", "50:50", "56.1"),
    ("0.9", "80:20", "106.9"),
    ("0.9", "90:10", "sat"),
    ("0.96", "50:50", "64.6"),
    ("0.96", "80:20", "sat"),
    ("0.96", "90:10", "sat"),
];

/// The variants in the table's order, as the CSV files and the table name them.
const VARIANTS: [(&str, &str); 4] = [("ours", "ours"), ("header_free", "streams at 4 Mbit/s"), ("partition", "VC partition"), ("partition_1be", "VC partition, 15:1")];

/// The committed quarters of (variant, load, mix), in order.
fn quarters(variant: &str, load: &str, mix: &str) -> Vec<HashMap<String, String>> {
    let t = read_csv(&format!("{DIR}/{variant}.csv"), &mut HashMap::new());
    let q: Vec<_> = t.into_iter().filter(|r| r["load"] == load && r["mix"] == mix).collect();
    assert!(q.is_empty() || q.len() == 4, "{variant} {load} {mix}: {} quarters", q.len());
    q
}

fn f(r: &HashMap<String, String>, column: &str) -> f64 {
    r[column].parse().unwrap_or_else(|_| panic!("{column} = {:?}", r[column]))
}

/// The table row of (variant, point) as the section writes it: streams per
/// endpoint, offered flits per cycle, best effort's mean latency in each
/// quarter (µs), its lowest accepted rate over its share, and the
/// best-effort messages in the system at the end of the first three
/// quarters; `None` if the variant was not run there.
fn row(variant: &str, label: &str, load: &str, mix: &str, table_v: &str) -> Option<String> {
    let q = quarters(variant, load, mix);
    if q.is_empty() {
        return None;
    }
    // "none": no best-effort message created in the quarter was delivered
    let lat: Vec<String> = q.iter().map(|r| f(r, "be_latency_us")).map(|x| if x.is_nan() { "none".to_string() } else { grouped(x, 1) }).collect();
    let ratio = q.iter().map(|r| f(r, "be_accepted") / f(r, "be_offered")).fold(f64::MAX, f64::min);
    Some(format!(
        "| {mix}, {load} | {table_v} | {label} | {} | {} | {} | {} | {} / {} / {} |",
        grouped(f(&q[0], "streams"), 0),
        grouped(f(&q[0], "offered"), 3),
        lat.join(" / "),
        grouped(ratio, 3),
        grouped(f(&q[0], "be_in_system"), 0),
        grouped(f(&q[1], "be_in_system"), 0),
        grouped(f(&q[2], "be_in_system"), 0),
    ))
}

fn rows() -> Vec<String> {
    let mut v = Vec::new();
    for (variant, label) in VARIANTS {
        for (load, mix, table_v) in TABLE_V {
            v.extend(row(variant, label, load, mix, table_v));
        }
    }
    v
}

/// The table's rows, each with every number it writes (Table V's too:
/// checked against `TABLE_V` by building the row from it).
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    rows()
        .into_iter()
        .map(|r| {
            let r: &'static str = Box::leak(r.into_boxed_str());
            census::Tie { passage: r, written: census::row_numbers(r) }
        })
        .collect()
}

#[test]
fn table5_sat_section_follows_from_the_committed_runs() {
    let flat = section_words(HEADING);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let rows = rows();
    assert_eq!(rows.len(), 19, "5 points x 2 variants, 6 with the partition, 3 with 15:1");
    for r in &rows {
        has(r.clone());
    }
}

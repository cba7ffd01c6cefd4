//! "M/D/n against the exact M/D/c queue" (004_…: ring models, issue 22):
//! the c = 4 table's cells and the prose's extremes over the whole grid,
//! from the committed `experiments/results/mdc_exact_004/mdc.csv`
//! (written by `sim/netsim/examples/mdc_exact_004.rs`).

use super::*;
use models::sel;

const CSV: &str = "experiments/results/mdc_exact_004/mdc.csv";

/// A signed cell "−3.9" or "+0.3" as a number: the magnitude as written,
/// the sign carried by the scale, so a wrong sign fails like a wrong digit.
fn signed(written: &'static str, row: models::Row, column: &'static str) -> Num {
    let negative = written.starts_with('−');
    Num { written: written.trim_start_matches(['+', '−']), csv: CSV, row, column, scale: if negative { -1.0 } else { 1.0 } }
}

/// The table's rows: `| ρ | exact W_q | Cosmetatos (e %) | exact P(wait) | Erlang C (e %) | 0.94 × Erlang C (e %) |` at c = 4.
pub(super) fn claims() -> Vec<Claim> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let start = doc.find("| ρ | exact W_q | Cosmetatos | exact P(wait) | Erlang C | 0.94 × Erlang C |").expect("the M/D/c table");
    let rows: Vec<&'static str> = doc[start..].lines().skip(2).take_while(|l| l.starts_with('|')).map(|l| &*Box::leak(l.to_string().into_boxed_str())).collect();
    assert_eq!(rows.len(), 9, "ρ = 0.1 … 0.9");
    rows.into_iter()
        .map(|passage| {
            let cells = row_cells(passage, 5);
            let rho: &'static str = passage.trim_matches('|').split('|').next().unwrap().trim();
            let row = sel(&[("servers", "4"), ("rho", rho)]);
            let pair = |cell: &'static str, value: &'static str, error: &'static str| -> [Num; 2] {
                let (v, e) = cell.split_once(" (").unwrap_or_else(|| panic!("{cell}"));
                [n(v, CSV, row, value), signed(e.trim_end_matches(" %)"), row, error)]
            };
            let mut numbers = vec![n(cells[0], CSV, row, "exact_wait"), n(cells[2], CSV, row, "exact_p_wait")];
            numbers.extend(pair(cells[1], "cosmetatos_wait", "cosmetatos_error_percent"));
            numbers.extend(pair(cells[3], "erlang_c", "erlang_c_error_percent"));
            numbers.extend(pair(cells[4], "paper_pd", "paper_pd_error_percent"));
            Claim { passage, numbers }
        })
        .collect()
}

#[test]
fn mdc_exact_section_numbers_follow_from_the_committed_grid() {
    let errors = check(&claims());
    assert!(errors.is_empty(), "{errors:#?}");
    let rows = read_csv(CSV);
    assert_eq!(rows.len(), 36, "c = 1, 2, 4, 8 × ρ = 0.1 … 0.9");
    let f = |r: &HashMap<String, String>, k: &str| -> f64 { r[k].parse().unwrap() };
    let at = |r: &HashMap<String, String>| format!("c = {}, ρ = {}", r["servers"], r["rho"]);
    let max_by = |keep: &dyn Fn(&HashMap<String, String>) -> bool, value: &dyn Fn(&HashMap<String, String>) -> f64| {
        rows.iter().filter(|r| keep(r)).map(|r| (value(r), at(r))).max_by(|a, b| a.0.total_cmp(&b.0)).unwrap()
    };
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let flat = doc.split("**M/D/n against the exact M/D/c queue**").nth(1).expect("the section").split("\n### ").next().unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let all = |_: &HashMap<String, String>| true;
    let (e, p) = max_by(&|r| f(r, "rho") >= 0.4 && r["servers"] != "1", &|r| f(r, "cosmetatos_error_percent").abs());
    has(format!("within 1 % from ρ = 0.4 (at most {e:.2} %, {p});"));
    let (e, p) = max_by(&all, &|r| f(r, "cosmetatos_error_percent"));
    has(format!("over-estimates, up to +{e:.0} % at {p}, but by less than 0.0015 D"));
    let (d, _) = max_by(&|r| f(r, "rho") < 0.4, &|r| f(r, "cosmetatos_wait") - f(r, "exact_wait"));
    assert!(d < 0.0015, "{d}");
    let (e, p) = max_by(&all, &|r| f(r, "erlang_c_error_percent"));
    has(format!("0 % (c = 1) to {e:.1} % ({p}) above"));
    let c4 = |r: &HashMap<String, String>| r["servers"] == "4";
    let (hi, _) = max_by(&c4, &|r| f(r, "erlang_c_error_percent"));
    let (lo, _) = max_by(&c4, &|r| -f(r, "erlang_c_error_percent"));
    has(format!("{:.1}–{hi:.1} % at c = 4", -lo));
    let (e, p) = max_by(&all, &|r| f(r, "paper_pd_error_percent").abs());
    has(format!("within {e:.0} % of exact everywhere (−{e:.1} % at c = 1"));
    assert!(p.starts_with("c = 1,"), "{p}");
    assert!(rows.iter().filter(|r| r["servers"] == "1").all(|r| f(r, "erlang_c_error_percent").abs() < 1e-6 && f(r, "cosmetatos_error_percent").abs() < 1e-6));
    let (hi, _) = max_by(&c4, &|r| f(r, "paper_pd_error_percent"));
    let (lo, _) = max_by(&c4, &|r| -f(r, "paper_pd_error_percent"));
    has(format!("within −{lo:.1} % … +{hi:.1} % at c = 4"));
}

//! "Best effort behind the cube's bursts, counted at the link" (issue 22):
//! the two tables' cells against the committed
//! `experiments/results/cube_be_links/cube_be_links.csv` (written by the
//! `cube_be_links` example; `BePrioWait` recomputed against it by
//! `be_prio_model_against_the_cube_be_links_runs` in sim/netsim's
//! `--test analytic`), and the section's prose numbers computed from the
//! same file.

use super::*;
use cube_be_burst::signed;
use models::sel;

const LINKS: &str = "experiments/results/cube_be_links/cube_be_links.csv";
const SECTION: &str = "#### Best effort behind the cube's bursts, counted at the link (issue 22)";

/// The points, as the CSV names them and the tables write them.
const POINTS: [(&str, &str); 6] = [("1:173.6", "K = 1, g = 33"), ("1:148.8", "K = 1, g = 64"), ("1:97.6", "K = 1, g = 128"), ("2:373.6", "K = 2, g = 33"), ("4:773.6", "K = 4, g = 33"), ("14:2773.6", "K = 14, g = 33")];
const AT33: [&str; 4] = ["1:173.6", "2:373.6", "4:773.6", "14:2773.6"];
const LINK_NAMES: [(&str, &str); 8] = [
    ("injection", "injection"),
    ("hop0", "hop link d = 0"),
    ("hop1", "hop link d = 1"),
    ("hop2", "hop link d = 2"),
    ("hop3", "hop link d = 3"),
    ("hop4", "hop link d = 4"),
    ("hop5", "hop link d = 5"),
    ("ejection", "ejection"),
];

/// The injection table's columns, after the row's name, and their scales.
const INJECTION_COLUMNS: [(&str, f64); 5] = [("sim_wait", 1.0), ("sim_customer_wait", 1.0), ("queued_share", 100.0), ("model_wait", 1.0), ("prio_wait", 1.0)];
/// The link table's columns, after the row's name.
const LINK_COLUMNS: [&str; 5] = ["sim_wait", "prio_wait", "prio_error_pct", "fresh_wait", "fresh_error_pct"];

/// The section's table rows that start with `start` (one row each).
fn row_starting(section_lines: &[&'static str], start: &str) -> &'static str {
    let found: Vec<&&str> = section_lines.iter().filter(|l| l.starts_with(start)).collect();
    assert_eq!(found.len(), 1, "{start:?}: {found:?}");
    found[0]
}

/// The lines of the `####` section under `heading`, leaked so claims can
/// quote them.
pub(super) fn section_lines_of(heading: &str) -> Vec<&'static str> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let section = doc.split(heading).nth(1).unwrap_or_else(|| panic!("section missing: {heading}")).split("\n#### ").next().unwrap().to_string();
    Box::leak(section.into_boxed_str()).lines().collect()
}

fn section_lines() -> Vec<&'static str> {
    section_lines_of(SECTION)
}

pub(super) fn claims() -> Vec<Claim> {
    let lines = section_lines();
    let mut claims = Vec::new();
    for (point, name) in POINTS {
        let passage = row_starting(&lines, &format!("| {name} |"));
        let row = sel(&[("point", point), ("link", "injection")]);
        let numbers = row_numbers(passage).into_iter().zip(INJECTION_COLUMNS).map(|(w, (c, scale))| Num { written: w, csv: LINKS, row, column: c, scale }).collect();
        claims.push(Claim { passage, numbers });
        for (link, link_name) in LINK_NAMES {
            let passage = row_starting(&lines, &format!("| {name}, {link_name} |"));
            let row = sel(&[("point", point), ("link", link)]);
            claims.push(Claim { passage, numbers: row_numbers(passage).into_iter().zip(LINK_COLUMNS).map(|(w, c)| signed(passage, w, LINKS, row, c)).collect() });
        }
    }
    claims
}

/// Column `col` of the row of `table` (read from `csv`) for `point` and `link`.
pub(super) fn link_cell(table: &[HashMap<String, String>], csv: &str, point: &str, link: &str, col: &str) -> f64 {
    let r = table.iter().find(|r| r["point"] == point && r["link"] == link).unwrap_or_else(|| panic!("{csv}: no {point} {link}"));
    r[col].parse().unwrap_or_else(|e| panic!("{csv}: {point} {link} {col}: {e}"))
}

#[test]
fn cube_be_prio_section_follows_from_the_committed_runs() {
    let claims = claims();
    assert_eq!(claims.len(), 6 * 9, "a row is missing");
    assert_eq!(claims.iter().map(|c| c.numbers.len()).sum::<usize>(), 6 * 5 + 48 * 5, "a row lost a number");
    let errors = check(&claims);
    assert!(errors.is_empty(), "{errors:#?}");
    let flat = section_words(SECTION);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let table = read_csv(LINKS);
    let v = |point: &str, link: &str, col: &str| link_cell(&table, LINKS, point, link, col);
    let (min, max) = (|x: &[f64]| x.iter().cloned().fold(f64::INFINITY, f64::min), |x: &[f64]| x.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
    let pct = |x: f64| if x < 0.0 { format!("−{:.1} %", -x) } else { format!("{x:.1} %") };
    let plus = |x: f64| if x < 0.0 { format!("−{:.1} %", -x) } else { format!("+{x:.1} %") };
    let over = |points: &[&str], links: &[&str], col: &str| -> Vec<f64> { points.iter().flat_map(|p| links.iter().map(move |l| (p, l))).map(|(p, l)| v(p, l, col)).collect() };
    // The customer's view against the leak model at g = 33.
    let off: Vec<f64> = AT33.iter().map(|p| 100.0 * (v(p, "injection", "model_wait") / v(p, "injection", "sim_customer_wait") - 1.0).abs()).collect();
    has(format!("the leak model is the customer's view within {:.1} %", max(&off)));
    let leak = over(&AT33, &["injection"], "error_pct");
    has(format!("where it is {} to {} above the count at the link", pct(min(&leak)), pct(max(&leak))));
    let queued = over(&AT33, &["injection"], "queued_share");
    has(format!("There {} to {} of the best-effort messages", pct(100.0 * min(&queued)), pct(100.0 * max(&queued))));
    // Within 15 % at g = 33: the injection link, hop links 2 to 5 fresh,
    // hop link 1 fresh at K = 4 and 14; counted on the written errors.
    let inj = over(&AT33, &["injection"], "prio_error_pct");
    let hops25 = over(&AT33, &["hop2", "hop3", "hop4", "hop5"], "fresh_error_pct");
    let hop1 = over(&AT33, &["hop1"], "fresh_error_pct");
    let within = inj.iter().chain(&hops25).chain(&hop1).filter(|e| e.abs() < 15.0).count();
    let all_fresh = over(&AT33, &["injection", "hop0", "hop1", "hop2", "hop3", "hop4", "hop5", "ejection"], "fresh_error_pct");
    assert_eq!(within, all_fresh.iter().filter(|e| e.abs() < 15.0).count(), "another link within 15 %");
    has(format!("comes within 15 % at {within} of the 32 links"));
    has(format!("at every K ({} to {}, the leak model {} to {})", plus(min(&inj)), plus(max(&inj)), plus(min(&leak)), plus(max(&leak))));
    let hops25_all = over(&AT33, &["hop2", "hop3", "hop4", "hop5"], "prio_error_pct");
    has(format!("dimension 2 to 5 ({} to {}, all streams {} to {})", plus(min(&hops25)), plus(max(&hops25)), plus(min(&hops25_all)), plus(max(&hops25_all))));
    assert!(hop1[2].abs() < 15.0 && hop1[3].abs() < 15.0 && hop1[0].abs() >= 15.0 && hop1[1].abs() >= 14.95, "dimension 1: {hop1:?}");
    has(format!("dimension 1 at K = 1 and 2 (fresh {} and {})", pct(hop1[0]), pct(hop1[1])));
    // Dimension 0.
    let hop0 = over(&AT33, &["hop0"], "sim_wait");
    let hop0_all = over(&AT33, &["hop0"], "prio_error_pct");
    assert!(over(&AT33, &["hop0"], "fresh_wait").iter().all(|w| *w == 0.0));
    has(format!("where {:.2} to {:.2} cycles are measured (all streams: {} to {})", min(&hop0), max(&hop0), plus(min(&hop0_all)), plus(max(&hop0_all))));
    let nc = over(&AT33, &["injection"], "rt_no_credit");
    has(format!("for {:.2} to {:.2} cycles per real-time message at g = 33", min(&nc), max(&nc)));
    has(format!("(`rt_no_credit`, against {:.2} at g = 64 and {:.2} at g = 128, where the dimension-0 wait is {:.2} and {:.2})", v("1:148.8", "injection", "rt_no_credit"), v("1:97.6", "injection", "rt_no_credit"), v("1:148.8", "hop0", "sim_wait"), v("1:97.6", "hop0", "sim_wait")));
    // The ejection link.
    let ej = over(&AT33, &["ejection"], "sim_wait");
    assert!(ej.windows(2).all(|w| w[1] < w[0]), "the ejection wait does not fall with K");
    has(format!("measured {:.2} at K = 1 falling to {:.2} at K = 14", ej[0], ej[3]));
    let (ej_all, ej_fresh) = (over(&AT33, &["ejection"], "prio_error_pct"), over(&AT33, &["ejection"], "fresh_error_pct"));
    has(format!("(all streams {} to {}, fresh {} to {})", plus(min(&ej_all)), plus(max(&ej_all)), pct(max(&ej_fresh)), pct(min(&ej_fresh))));
    // g = 64 and 128.
    let slow = ["1:148.8", "1:97.6"];
    let q = over(&slow, &["injection"], "queued_share");
    has(format!("({} to {} created behind another)", pct(100.0 * min(&q)), pct(100.0 * max(&q))));
    let gap = slow.iter().flat_map(|p| LINK_NAMES.iter().map(move |(l, _)| (v(p, l, "prio_wait") - v(p, l, "model_wait")).abs())).fold(0.0, f64::max);
    assert!(gap <= 0.05 + 1e-9, "all streams {gap} from the leak model");
    has(format!("the injection link is {} and {} off", plus(v("1:148.8", "injection", "prio_error_pct")), pct(v("1:97.6", "injection", "prio_error_pct"))));
    let low = over(&slow, &["hop1", "hop2", "hop3", "hop4", "hop5", "ejection"], "fresh_error_pct");
    has(format!("the fresh count is {} to {} low", pct(-max(&low)), pct(-min(&low))));
    has(format!("(all streams: {} and {} low at the ejection link)", pct(-v("1:148.8", "ejection", "prio_error_pct")), pct(-v("1:97.6", "ejection", "prio_error_pct"))));
}

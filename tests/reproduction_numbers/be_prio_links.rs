//! "Best effort behind the cube's overlapping bursts" (issue 22): the
//! table's cells against the committed
//! `experiments/results/cube_be_overlap/cube_be_overlap.csv` (written by the
//! `cube_be_links` example; `BeOverlapWait` recomputed against it by
//! `be_overlap_model_against_the_cube_be_overlap_runs` in sim/netsim's
//! `--test analytic`), and the section's prose numbers computed from the
//! same file.

use super::*;
use cube_be_burst::signed;
use models::sel;

const OVERLAP: &str = "experiments/results/cube_be_overlap/cube_be_overlap.csv";
const SECTION: &str = "#### Best effort behind the cube's overlapping bursts (issue 22)";

/// The points, as the CSV names them and the table writes them.
const POINTS: [(&str, &str); 2] = [("1:148.8", "g = 64"), ("1:97.6", "g = 128")];
const LINK_NAMES: [(&str, &str); 7] = [
    ("hop0", "hop link d = 0"),
    ("hop1", "hop link d = 1"),
    ("hop2", "hop link d = 2"),
    ("hop3", "hop link d = 3"),
    ("hop4", "hop link d = 4"),
    ("hop5", "hop link d = 5"),
    ("ejection", "ejection"),
];
/// The links the variant is for (d = 0 carries one stream at K = 1).
const FITTED: [&str; 6] = ["hop1", "hop2", "hop3", "hop4", "hop5", "ejection"];

/// The table's columns, after the row's name, and their scales.
const COLUMNS: [(&str, f64); 9] = [
    ("sim_wait", 1.0),
    ("sim_wait_two", 1.0),
    ("sim_wait_over", 1.0),
    ("sim_two_share", 100.0),
    ("model_overlap_share", 100.0),
    ("fresh_wait", 1.0),
    ("overlap_wait", 1.0),
    ("variant_wait", 1.0),
    ("variant_error_pct", 1.0),
];

fn section_lines() -> Vec<&'static str> {
    cube_be_prio::section_lines_of(SECTION)
}

pub(super) fn claims() -> Vec<Claim> {
    let lines = section_lines();
    let mut claims = Vec::new();
    for (point, name) in POINTS {
        for (link, link_name) in LINK_NAMES {
            let start = format!("| {name}, {link_name} |");
            let found: Vec<&&str> = lines.iter().filter(|l| l.starts_with(&start)).collect();
            assert_eq!(found.len(), 1, "{start:?}: {found:?}");
            let passage = *found[0];
            let row = sel(&[("point", point), ("link", link)]);
            // A share is written in per cent; "−" before an error negates it.
            let numbers = row_numbers(passage)
                .into_iter()
                .zip(COLUMNS)
                .map(|(w, (c, scale))| {
                    let num = signed(passage, w, OVERLAP, row, c);
                    Num { scale: scale * num.scale, ..num }
                })
                .collect();
            claims.push(Claim { passage, numbers });
        }
    }
    claims
}

#[test]
fn be_prio_links_section_follows_from_the_committed_runs() {
    let claims = claims();
    assert_eq!(claims.len(), 2 * 7, "a row is missing");
    assert_eq!(claims.iter().map(|c| c.numbers.len()).sum::<usize>(), 14 * 9, "a row lost a number");
    let errors = check(&claims);
    assert!(errors.is_empty(), "{errors:#?}");
    let flat = section_words(SECTION);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let table = read_csv(OVERLAP);
    let v = |point: &str, link: &str, col: &str| cube_be_prio::link_cell(&table, OVERLAP, point, link, col);
    let over = |links: &[&str], col: &str| -> Vec<f64> { POINTS.iter().flat_map(|(p, _)| links.iter().map(move |l| v(p, l, col))).collect() };
    let (min, max) = (|x: &[f64]| x.iter().cloned().fold(f64::INFINITY, f64::min), |x: &[f64]| x.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
    let pct = |x: f64| if x < 0.0 { format!("−{:.1} %", -x) } else { format!("+{x:.1} %") };
    let errs = over(&FITTED, "variant_error_pct");
    let within = errs.iter().filter(|e| e.abs() < 15.0).count();
    has(format!("within 15 % at {within} of the 12 links ({} to {})", pct(min(&errs)), pct(max(&errs))));
    // The two links outside, at g = 64, named with their errors.
    let outside: Vec<(&str, f64)> = FITTED.iter().map(|l| (*l, v("1:148.8", l, "variant_error_pct"))).filter(|e| e.1.abs() >= 15.0).collect();
    assert_eq!(outside.iter().map(|e| e.0).collect::<Vec<_>>(), ["hop2", "ejection"], "{outside:?}");
    assert!(FITTED.iter().all(|l| v("1:97.6", l, "variant_error_pct").abs() < 15.0));
    has(format!("the dimension-2 link ({}) and the ejection link ({})", pct(outside[0].1), pct(outside[1].1)));
    has(format!("({:.2} against {:.2} cycles)", v("1:148.8", "ejection", "sim_wait_over"), v("1:148.8", "ejection", "sim_wait_two")));
    assert!(v("1:148.8", "ejection", "sim_wait_over") > v("1:148.8", "ejection", "sim_wait_two"));
    has(format!("({:.2} and {:.2} cycles measured)", v("1:148.8", "hop0", "sim_wait"), v("1:97.6", "hop0", "sim_wait")));
    let split0 = over(&["hop0"], "sim_wait_over").into_iter().chain(over(&["hop0"], "sim_wait_two")).fold(0.0, f64::max);
    has(format!("(at most {split0:.2} cycles)"));
}

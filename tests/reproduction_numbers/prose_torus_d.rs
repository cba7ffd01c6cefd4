//! The section census of "A residual wait for the L = 3 model", second
//! part (`experiments/prose_census.py run --lines`, docs/reproduction.md
//! "Section census, the residual wait for L = 3, second part"): the quoted
//! results of "The line ahead of a blocked header", "The line of headers
//! built into the model" and "Who joins the line behind a blocked header"
//! that no test of this binary noticed when changed. Most are the loads a
//! tied ratio or range is quoted at, on the line after the one its tie
//! reads: each is tied here in a passage that holds both, the range
//! recomputed over the table's loads between the ends the prose names.
//! The solver's reasons (`model.csv` column `why`) are read for the loads
//! and the dimension the prose names; the section's statements of what a
//! test holds are read from that test's assertions (`channel_probe.rs`, a
//! binary the census does not run, and `line_model_within_its_bound_to_0_08`,
//! whose bound is a literal of its source).

use super::census_ties::committed_csv;
use super::l3_hold::{error, sim};
use super::l3_line::{input, vc_wait, SIM3};
use super::l3_line_joins::{cell_of, j, model_rate_ratio, JOINS};
use super::l3_line_model::{line, model_rest, sim3, sim_rest, LINE, LINE3, PER_DIM};
use super::l3_ties::range;
use super::models::{check_derived, d, Derived};
use super::*;
use wormqos_netsim::analytic::torus002::{TorusModel, Variant};

/// The loads of the 8 × 8 tables of the three sections.
const LOADS: [&str; 6] = ["0.04", "0.08", "0.1", "0.11", "0.12", "0.125"];
const ABSORBED: &str = "experiments/results/torus_002_absorbed/model.csv";

fn load(x: &str) -> f64 {
    x.parse().unwrap_or_else(|_| panic!("{x:?} is not a load"))
}

/// The table's loads from `from` to `to`, both included: the loads a range
/// of the prose is taken over.
fn between(from: &str, to: &str) -> Vec<&'static str> {
    let v: Vec<&'static str> = LOADS.iter().copied().filter(|&x| load(x) >= load(from) - 1e-12 && load(x) <= load(to) + 1e-12).collect();
    assert!(v.len() >= 2, "no range of loads from {from} to {to}");
    v
}

/// The `why` cell of `source` at `load`, dimension 0, in `file` (empty
/// where the model has a solution).
fn why(file: &str, load: &str, source: &str) -> String {
    let table = read_csv(file);
    let row = table.iter().find(|r| r["load"] == load && r["dim"] == "0" && r["source"] == source).unwrap_or_else(|| panic!("{file}: no row {load} {source}"));
    row["why"].clone()
}

/// The loads of the table at which `source`'s reason starts with
/// "dimension N: `what`", with N: the first and last such load and the
/// dimension named (the same at every one of them).
fn reason_span(file: &str, source: &str, what: &str) -> (f64, f64, f64) {
    let mut dims = Vec::new();
    let mut loads = Vec::new();
    for x in LOADS {
        let w = why(file, x, source);
        if let Some((dim, rest)) = w.strip_prefix("dimension ").and_then(|t| t.split_once(": ")) {
            if rest.starts_with(what) {
                dims.push(dim.parse::<f64>().unwrap_or_else(|_| panic!("{file} {x}: {w:?}")));
                loads.push(load(x));
            }
        }
    }
    assert!(!loads.is_empty(), "{file}: no reason {what:?} for {source}");
    assert!(dims.iter().all(|&d| d == dims[0]), "{file}: {source}'s reasons name several dimensions {dims:?}");
    let (lo, hi) = min_max(&loads);
    (lo, hi, dims[0])
}

/// "The line ahead of a blocked header": the loads the ratios and ranges
/// are quoted at, and the queued model's reasons.
fn line_ahead() -> Vec<Derived> {
    let mut v = Vec::new();
    let first = |x: &str| vc_wait(x, "first_free");
    let w = |x: &str, column: &str| input(x, column) / sim(x, "wait");
    let p = "stays 0.49 and 0.50 times the measured one at 0.12, 0.35 and 0.36 at\n  0.125.";
    v.extend([d(p, "0.35", w("0.125", "w_sim_p_block")), d(p, "0.36", w("0.125", "w_sim_hold")), d(p, "0.125", load("0.125"))]);
    // What one header ahead costs, over the loads from 0.08 to 0.11.
    let cost = |x: &str| (vc_wait(x, "wait_found_held") - first(x)) / vc_wait(x, "ahead_found_held");
    let mid = between("0.08", "0.11");
    let (lo, hi) = range(&mid, |x| cost(x) / input(x, "gap_at_sim_hold"));
    let p = "release, G later on average. From 0.08 to 0.11 what one header ahead\n  costs is 1.00 to 1.16 times G";
    v.extend([d(p, "0.08", load(mid[0])), d(p, "0.11", load(mid[mid.len() - 1])), d(p, "1.00", lo), d(p, "1.16", hi)]);
    let per_g = |x: &str| cost(x) / input(x, "gap_at_sim_hold");
    let p = "times that wait and 1.42 and 1.24 times G. What makes the rest at 0.12\n  and 0.125 is not established";
    v.extend([d(p, "1.42", per_g("0.12")), d(p, "1.24", per_g("0.125")), d(p, "0.12", load("0.12")), d(p, "0.125", load("0.125"))]);
    // Little's law's n̄ over the measured one, from 0.08 to 0.125.
    let span = between("0.08", "0.125");
    let (lo, hi) = range(&span, |x| sim(x, "lambda_c") * vc_wait(x, "wait_found_held") / vc_wait(x, "ahead_found_held"));
    let p = "times a found-held header's wait is 1.46 to 1.59 times the measured n̄\n  from 0.08 to 0.125, and it charges R";
    v.extend([d(p, "1.46", lo), d(p, "1.59", hi), d(p, "0.08", load(span[0])), d(p, "0.125", load(span[span.len() - 1]))]);
    // The queued model's reason: the loads and the dimension it names.
    let (lo, hi, dim) = reason_span(ABSORBED, "queued_absorbed", "λ_c D");
    let p = "point the longer waits lengthen the hold until, at 0.11 to 0.125,\n  dimension 0's λ_c D is more than the escape VCs of a channel position";
    v.extend([d(p, "0.11", lo), d(p, "0.125", hi), d(p, "0", dim)]);
    v
}

/// "The 8 × 8 × 8 torus" of the same section: the simulated loads and the
/// light-load extra's load.
fn line_ahead_8x8x8() -> Vec<Derived> {
    let mut v = Vec::new();
    let table = read_csv(&format!("{SIM3}/channels.csv"));
    let loads: Vec<f64> = table.iter().map(|r| load(&r["load"])).collect();
    let (lightest, heaviest) = min_max(&loads);
    let p = "simulated rows are the committed `torus_002_8x8x8_stalls` ones, 40 k\ncycles a load, run to 0.1 only):";
    v.push(d(p, "0.1", heaviest));
    let p = "not compared: the simulation was run to 0.1 only (it accepts 0.0997 of\n  0.1), and without";
    v.extend([d(p, "0.0997", sim3("0.1", "accepted")), d(p, "0.1", heaviest)]);
    // "the paper's D at 0.01": the lightest load of the committed cells.
    let p = "(the mean over the three dimensions of the simulated hold less the\npaper's D at 0.01, `channels.csv`)";
    v.push(d(p, "0.01", lightest));
    // "so within 0.0005 cycles of the one the run used": the extra from the
    // cells differs from one of the unrounded holds by the mean of the
    // simulated holds' rounding (at most half a unit of their last
    // decimal) and of the paper's D's, measured here against the paper's
    // model solved afresh (8 × 8 × 8, L = 3, M = 32, 4 cycles a router).
    let channels = format!("{SIM3}/channels.csv");
    let text = |dim: &str, source: &str| table.iter().find(|r| r["load"] == "0.01" && r["dim"] == dim && r["source"] == source).unwrap_or_else(|| panic!("{channels}: no {source} row at 0.01 dim {dim}"))["hold"].clone();
    let decimals = ["0", "1", "2"].iter().map(|dim| text(dim, "sim").split_once('.').map_or(0, |(_, f)| f.len())).max().unwrap();
    let paper = TorusModel { radix: vec![8, 8, 8], vcs: 3, msg_flits: 32.0, rate: lightest / 32.0, router_delay: 4.0 }.solve_with(Variant::PAPER).unwrap_or_else(|e| panic!("the paper's model at {lightest}: {e:?}"));
    let paper_rounding = ["0", "1", "2"].iter().enumerate().map(|(i, dim)| text(dim, "paper").parse::<f64>().unwrap() - paper.dims[i].service).sum::<f64>() / 3.0;
    let p = "paper's D at 0.01, `channels.csv`), so within 0.0005 cycles of the one";
    v.push(d(p, "0.0005", 0.5 * 10f64.powi(-(decimals as i32)) + paper_rounding.abs()));
    v
}

/// The line model's error in the network latency at `x`, 8 × 8.
fn line_error(x: &str) -> Option<f64> {
    Some(100.0 * (line(x, "network_latency")? / sim(x, "network_latency") - 1.0))
}

/// "The line of headers built into the model": the loads of its verdicts
/// and the solver's reasons.
fn line_model() -> Vec<Derived> {
    let mut v = Vec::new();
    let model_csv = format!("{LINE}/model.csv");
    let p = "- **Not near saturation: it saturates first.** At 0.1 its W_{d_0} is\n  1.65 times the measured one";
    v.extend([d(p, "0.1", load("0.1")), d(p, "1.65", line("0.1", "wait").unwrap() / sim("0.1", "wait"))]);
    // Its two reasons: the escape VCs' load at one load, the line at the
    // others, each naming dimension 0.
    let (lo, hi, dim) = reason_span(&model_csv, "line_absorbed", "λ_c D");
    assert_eq!(lo, hi, "{model_csv}: the escape VCs' reason at one load");
    let p = "and the absorbed model without a line (0.1257); at 0.11 dimension 0's\n  λ_c D is more than the escape VCs of a channel position carry, at 0.12\n  and 0.125 q λ_c G ≥ 1";
    v.extend([d(p, "0.11", lo), d(p, "0", dim)]);
    let (lo, hi, _) = reason_span(&model_csv, "line_absorbed", "q λ_c G");
    v.extend([d(p, "0.12", lo), d(p, "0.125", hi)]);
    // "≥ 1": every reason of the line states a q λ_c G of at least 1.
    for x in LOADS {
        let w = why(&model_csv, x, "line_absorbed");
        if let Some(rest) = w.split_once("q λ_c G = ").map(|(_, r)| r) {
            let value: f64 = rest.split_whitespace().next().unwrap().parse().unwrap_or_else(|_| panic!("{model_csv} {x}: {w:?}"));
            assert!(value >= 1.0, "{model_csv} {x}: q λ_c G = {value} below 1 in {w:?}");
        }
    }
    // "So the bound is not held beyond 0.08": the last load from which on
    // the line model is within 4 % every load; "at 0.12 and 0.125, where
    // the line was missing": the loads the absorbed model is low at and
    // the line model has no solution.
    let within: Vec<f64> = LOADS.iter().copied().take_while(|&x| line_error(x).is_some_and(|e| e.abs() <= 4.0)).map(load).collect();
    let missing: Vec<f64> = LOADS.iter().copied().filter(|&x| line(x, "wait").is_none() && error(x, "absorbed_span", "network_latency").unwrap() < 0.0).map(load).collect();
    let (mlo, mhi) = min_max(&missing);
    let p = "and 0.125 q λ_c G ≥ 1 (`model.csv` column `why`). So the bound is not\n  held beyond 0.08, and at 0.12 and 0.125, where the line was missing,";
    v.extend([d(p, "0.08", within.iter().copied().fold(0.0, f64::max)), d(p, "0.12", mlo), d(p, "0.125", mhi)]);
    // The measured n̄ over λ_c times a found-held header's wait, from 0.08
    // to 0.125.
    let span = between("0.08", "0.125");
    let (lo, hi) = range(&span, |x| vc_wait(x, "ahead_found_held") / (sim(x, "lambda_c") * vc_wait(x, "wait_found_held")));
    let p = "  The measured n̄ is 0.63 to 0.68 times the measured λ_c times a\n  found-held header's wait from 0.08\n  to 0.125 (0.25 at 0.04)";
    v.extend([d(p, "0.63", lo), d(p, "0.68", hi), d(p, "0.08", load(span[0])), d(p, "0.125", load(span[span.len() - 1]))]);
    // The absorbed model's 5.4 cycles at 0.11: its latency less its waits
    // against the simulated latency less the measured waits.
    let p = "- **The absorbed model's 5.4 cycles at 0.11 are outside its waits.** Its\n  network latency less its waits (E[x_i] = 224/63 channels of each";
    v.extend([d(p, "5.4", model_rest("0.11") - sim_rest("0.11")), d(p, "0.11", load("0.11"))]);
    // E[x_i] by hand: of the 8 × 8 torus's 63 other nodes, 8 at each
    // offset 0..7 of a dimension (one way round); h = 2 E[x_i].
    let (others, crossed) = ((8 * 8 - 1) as f64, (8 * (0..8).sum::<u32>()) as f64);
    v.extend([d(p, "224", crossed), d(p, "63", others)]);
    assert!((crossed / others - PER_DIM).abs() < 1e-12, "E[x_i] by hand {} against the ties' {PER_DIM}", crossed / others);
    let p = "  (`torus002.rs`; h = 448/63, g = M u/(1 − u)";
    v.extend([d(p, "448", 2.0 * crossed), d(p, "63", others)]);
    v
}

/// The rerun of `torus002_wait_inputs` "adds three columns to
/// `torus_002_line/inputs.csv` and leaves its other 24 as they were": the
/// version before it (df5b84c, the commit that wrote the file) has 24
/// columns, and today's file has them, cell for cell, and three more.
fn inputs_rerun() -> (Vec<Derived>, Vec<String>) {
    const INPUTS: &str = "experiments/results/torus_002_line/inputs.csv";
    let before = committed_csv(&format!("df5b84c:{INPUTS}"));
    let now = read_csv(INPUTS);
    let mut e = Vec::new();
    if before.len() != now.len() {
        e.push(format!("{INPUTS}: {} rows, {} before the rerun", now.len(), before.len()));
    }
    for (old, new) in before.iter().zip(&now) {
        for (column, value) in old {
            if new.get(column) != Some(value) {
                e.push(format!("{INPUTS} {} {}: {column} = {:?}, {value:?} before the rerun", old["load"], old["dim"], new.get(column)));
            }
        }
    }
    let p = "`torus_002_8x8x8_absorbed` ones. The third adds three columns to\n`torus_002_line/inputs.csv` and leaves its other 24 as they were.";
    let columns = |t: &Table| t.first().map_or(0, |r| r.len()) as f64;
    if columns(&now) - columns(&before) != 3.0 {
        e.push(format!("{INPUTS}: {} columns, {} before the rerun: not three added", columns(&now), columns(&before)));
    }
    (vec![d(p, "24", columns(&before))], e)
}

/// "`DimensionTerms` the field `ahead`, 0 for the others": the largest
/// `ahead` of every other variant's solved rows of both reruns.
fn ahead_of_the_others() -> Vec<Derived> {
    let mut largest = Vec::new();
    for dir in [LINE, LINE3] {
        let file = format!("{dir}/model.csv");
        for r in read_csv(&file).iter().filter(|r| r["source"] != "line_absorbed" && r["status"] == "ok") {
            largest.push(r["ahead"].parse::<f64>().unwrap_or_else(|_| panic!("{file}: ahead = {:?}", r["ahead"])));
        }
    }
    assert!(largest.len() > 50, "the other variants' solved rows: {}", largest.len());
    // "0", not "below 0.5": every one of them exactly 0.
    assert!(largest.iter().all(|&a| a == 0.0), "`ahead` of the other variants is not 0 in every solved row: largest {}", min_max(&largest).1);
    let p = "one more case, and `DimensionTerms` the field `ahead`, 0 for the others).";
    vec![d(p, "0", min_max(&largest).1)]
}

/// "Who joins the line behind a blocked header": the load at which both
/// of the line model's factors of n̄ (its q λ_c over the measured joins per
/// cycle of wait, its W_b over the measured wait) are above 1, and the
/// absorbed model's 5.4 cycles at 0.11 it refers back to.
fn line_joins() -> Vec<Derived> {
    let both: Vec<f64> = ["0.08", "0.1", "0.11"]
        .into_iter()
        .filter(|x| cell_of(JOINS, x, "model_wait_blocked").is_some())
        .filter(|x| model_rate_ratio(x) > 1.0 && j(x, "model_wait_blocked") / j(x, "window") > 1.0)
        .map(load)
        .collect();
    assert_eq!(both.len(), 1, "the loads with both factors too large: {both:?}");
    let p = "- **In the model both of n̄'s factors are too large at 0.1.** The line\n  model's q λ_c is 1.33 and 1.36";
    let mut v = vec![d(p, "0.1", both[0]), d(p, "1.33", model_rate_ratio("0.08")), d(p, "1.36", model_rate_ratio("0.1"))];
    let p = "unchanged. The processor-sharing reading of the absorbed model's 5.4\n  cycles at 0.11 (\"The line of headers built into the model\")";
    v.extend([d(p, "5.4", model_rest("0.11") - sim_rest("0.11")), d(p, "0.11", load("0.11"))]);
    v
}

/// The words of `sentence` (the document's text from `start` to `end`,
/// line breaks as spaces) after `marker`: the first, without trailing
/// punctuation.
fn word_after(sentence: &str, marker: &str) -> String {
    let tail = sentence.split(marker).nth(1).unwrap_or_else(|| panic!("{marker:?} not in {sentence:?}"));
    tail.split_whitespace().next().unwrap().trim_end_matches([',', '.', ';', ')']).to_string()
}

fn sentence(start: &str, end: &str) -> String {
    let flat = doc_words();
    let at = flat.find(start).unwrap_or_else(|| panic!("docs/reproduction.md: {start:?} not found (edited?)"));
    let len = flat[at..].find(end).unwrap_or_else(|| panic!("docs/reproduction.md: {end:?} not after {start:?}")) + end.len();
    flat[at..at + len].to_string()
}

/// Whether the source file `path` holds every one of `assertions`; the
/// ones it does not.
fn missing_assertions(path: &str, assertions: &[String], quoted: &str) -> Vec<String> {
    let source = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assertions.iter().filter(|a| !source.contains(a.as_str())).map(|a| format!("{path} does not assert {a:?} (docs/reproduction.md: {quoted:?})")).collect()
}

/// "The bound a test holds: within 4 % of the simulated network latency at
/// every committed load to 0.08 on both tori": the literals of
/// `line_model_within_its_bound_to_0_08`.
fn line_model_bound() -> Vec<String> {
    let s = sentence("The bound a test holds: within", "`line_model_within_its_bound_to_0_08`");
    let bound = word_after(&s, "The bound a test holds: within");
    let to = word_after(&s, "at every committed load to");
    let number = |w: &str| w.parse::<f64>().unwrap_or_else(|_| panic!("{w:?} is not a number in {s:?}"));
    let assertions = [format!("e.abs() <= {:.1}", number(&bound)), format!("load <= {to} + 1e-12 && !err.is_some_and(|e| e.abs() <= {:.1})", number(&bound))];
    missing_assertions("tests/reproduction_numbers/l3_line_model.rs", &assertions, &s)
}

/// "The probe's test (`the_line_behind_a_found_held_header_adds_up`): …
/// the joins counted at the joined header equal the found-held headers
/// ahead counted at the joiner … within 5; … 3 of 4 headers come in along
/// the dimension (by hand: a message crosses 4 channels of a dimension on
/// average where it crosses any, and enters it once)": the assertions of
/// that test, and the 4 channels by hand.
fn line_probe_test() -> Vec<String> {
    let s = sentence("The probe's test (`the_line_behind_a_found_held_header_adds_up`)", "and enters it once)");
    let within = word_after(&s, "(another code path) within");
    let of = |w: &str| w.parse::<f64>().unwrap_or_else(|_| panic!("{w:?} in {s:?}"));
    let along = of(&word_after(&s, "(its grant needs one);"));
    let all = of(&word_after(&s, &format!("(its grant needs one); {along} of")));
    let crosses = of(&word_after(&s, "a message crosses"));
    let mut e = Vec::new();
    // On a ring of 8 (`torus_002_atomic.toml`, one way round), a message
    // that crosses the dimension has an offset of 1 to 7, each as likely:
    // it crosses 28/7 channels of it on average and enters it on the first.
    let mean_crossed = (1..=7).sum::<u32>() as f64 / 7.0;
    if (crosses - mean_crossed).abs() > 1e-12 {
        e.push(format!("a message crosses {mean_crossed} channels of a dimension on average where it crosses any, the document says {crosses}"));
    }
    if (along / all - (mean_crossed - 1.0) / mean_crossed).abs() > 1e-12 {
        e.push(format!("{along} of {all} headers along the dimension: by hand {}", (mean_crossed - 1.0) / mean_crossed));
    }
    let assertions = [format!("line.joins.abs_diff(ahead_held) <= {within},"), format!("assert!((d.continuing - {}).abs() < 0.02", along / all)];
    e.extend(missing_assertions("sim/netsim/tests/channel_probe.rs", &assertions, &s));
    e
}

fn derived() -> Vec<Derived> {
    [line_ahead(), line_ahead_8x8x8(), line_model(), inputs_rerun().0, ahead_of_the_others(), line_joins()].into_iter().flatten().collect()
}

#[test]
fn prose_of_the_line_sections_follows_from_the_committed_runs() {
    let mut errors = check_derived(&derived());
    errors.extend(inputs_rerun().1);
    errors.extend(line_model_bound());
    errors.extend(line_probe_test());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

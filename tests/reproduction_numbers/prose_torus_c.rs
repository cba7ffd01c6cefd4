//! The section census of the torus sections, third part
//! (`experiments/prose_census.py run --lines`, docs/reproduction.md
//! "Section census, the torus sections, third part"): the quoted results
//! of "A residual wait for the L = 3 model", "The measured hold split into
//! its parts", "The blocking a hold can see", "The wait for a VC, term by
//! term" and "The hold's downstream term" that no test of this binary
//! noticed when changed. Most are the loads a claim or a range is stated
//! at: each is the load of the committed cells the claim is recomputed
//! from here (a range over the loads between its written ends, the load
//! where a ratio is closest to 1, a model's last solved loads) or the load
//! its cells are read at, so the text and the loads the data are read at
//! cannot part.

use super::l3_ties::{cell, error, range, wait_per_blocked_of, CH};
use super::models::{check_derived, d, Derived};
use super::*;

/// The loads of `table` from `from` to `to` (both written as in the
/// text, both loads of the table): the loads a range "from `from` to
/// `to`" is taken over.
fn between(table: &[&'static str], from: &'static str, to: &'static str) -> Vec<&'static str> {
    let at = |w: &str| table.iter().position(|&l| l == w).unwrap_or_else(|| panic!("{w} is not a load of the table {table:?}"));
    table[at(from)..=at(to)].to_vec()
}

/// The two written ends of a load range, each against the load the range
/// was computed from.
fn ends(errors: &mut Vec<String>, passage: &'static str, loads: &[&'static str], from: &'static str, to: &'static str) -> [Derived; 2] {
    [load_at(errors, passage, from, loads[0]), load_at(errors, passage, to, loads[loads.len() - 1])]
}

/// The load written `written` in `passage`, against the load `load` of
/// the data. A load is compared exactly, not rounded like a cell (0.11
/// would round to a written 0.1): a mismatch is an error; the `Derived`
/// ties the passage.
fn load_at(errors: &mut Vec<String>, passage: &'static str, written: &'static str, load: &str) -> Derived {
    let (w, l) = (written.parse::<f64>().unwrap(), load.parse::<f64>().unwrap());
    if w != l {
        errors.push(format!("docs/reproduction.md says {written} where the data give the load {load} in {passage:?}"));
    }
    d(passage, written, l)
}

/// Whether `source` has no solution at `load` in `CH` (its `status`).
fn saturated(source: &str, load: &str) -> bool {
    let table = read_csv(CH);
    let row = table.iter().find(|r| r["load"] == load && r["dim"] == "0" && r["source"] == source).unwrap_or_else(|| panic!("{CH}: no {source} row at {load}"));
    row["status"] == "saturated"
}

/// The load of the residual model's table where its W_{d_0} is closest to
/// the measured one ("where W_{d_0} is right").
fn residual_w_right() -> &'static str {
    let off = |l| (cell(CH, l, "residual", "wait") / cell(CH, l, "sim", "wait") - 1.0).abs();
    super::l3_residual::LOADS.iter().copied().filter(|&l| !saturated("residual", l)).min_by(|&a, &b| off(a).total_cmp(&off(b))).expect("a solved load")
}

/// "A residual wait for the L = 3 model": the loads its ranges and claims
/// are stated at.
fn residual_wait(errors: &mut Vec<String>) -> Vec<Derived> {
    let t = &super::l3_residual::LOADS;
    let mut v = Vec::new();
    // Kept: closer. The residual model's error range and its loads.
    let loads = between(t, "0.04", "0.1");
    let (lo, hi) = range(&loads, |l| error(CH, l, "residual", "network_latency"));
    let p = "−5.4 % to +1.4 % of the simulated network latency from 0.04 to 0.1,";
    v.extend([d(p, "−5.4", lo), d(p, "+1.4", hi)]);
    v.extend(ends(errors, p, &loads, "0.04", "0.1"));
    // The wait split: P_B's ratio range and its loads.
    let p = "- **The wait is split closer to the measured one.** From 0.04 to 0.1\n  P_B is 0.64 to 1.01 times";
    let (lo, hi) = range(&loads, |l| cell(CH, l, "residual", "blocked") / cell(CH, l, "sim", "blocked"));
    v.extend([d(p, "0.64", lo), d(p, "1.01", hi)]);
    v.extend(ends(errors, p, &loads, "0.04", "0.1"));
    // The shared channel's split, 0.07 to 0.09.
    let loads = between(t, "0.07", "0.09");
    let p = "shared channel's P(3 busy) 0.22 to 0.45 and Ŵ 2.0 to 2.3 times, 0.07\n  to 0.09);";
    let (lo, hi) = range(&loads, |l| cell(CH, l, "shared_channel", "p_all") / cell(CH, l, "sim", "blocked"));
    v.extend([d(p, "0.22", lo), d(p, "0.45", hi)]);
    v.extend(ends(errors, p, &loads, "0.07", "0.09"));
    // The residual of the measured holds, 0.04 to 0.11, and the load it
    // stops holding at.
    let loads = between(t, "0.04", "0.11");
    let of_holds = |l| wait_per_blocked_of(l, "sim") / cell(CH, l, "sim", "first_release_at_holds");
    let (lo, hi) = range(&loads, of_holds);
    let p = "From 0.04 to 0.11 the measured wait per\n  blocked header is 1.15 to 1.23 times it;";
    v.extend([d(p, "1.15", lo), d(p, "1.23", hi)]);
    v.extend(ends(errors, p, &loads, "0.04", "0.11"));
    let p = "What makes up the 15–23 % below\n  0.12 is not established.";
    v.extend([d(p, "15", 100.0 * (lo - 1.0)), d(p, "23", 100.0 * (hi - 1.0))]);
    let next = t[t.iter().position(|&l| l == "0.11").unwrap() + 1];
    v.push(load_at(errors, p, "0.12", next));
    let p = "At 0.1, where W_{d_0}\n  is right, the model's holding time is +19.2 % off";
    v.push(load_at(errors, p, "0.1", residual_w_right()));
    v.push(d(p, "+19.2", error(CH, "0.1", "residual", "hold")));
    v
}

/// "The measured hold split into its parts": the loads its claims are
/// stated at, each claim checked at its load, and the crossing cycles.
fn hold_parts(errors: &mut Vec<String>) -> Vec<Derived> {
    use super::l3_hold_parts::{cell as part, growth, BLOCKING, HP, MODEL_BLOCKING, SHARING};
    let mut v = Vec::new();
    // "crossing, 32 a hold": every row of the file, both dimensions.
    let crossing: Vec<f64> = read_csv(HP).iter().map(|r| r["crossing"].parse::<f64>().unwrap()).collect();
    let (lo, hi) = crossing.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let p = "(*crossing*, 32 a hold:";
    v.extend([d(p, "32", lo), d(p, "32", hi)]);
    // The model's excess at a load: (blocking part, sharing part, total).
    let excess = |l: &'static str| {
        let blocking = growth(l, &MODEL_BLOCKING) - growth(l, &BLOCKING);
        let sharing = growth(l, &["model_growth"]) - growth(l, &SHARING);
        (blocking, sharing, growth(l, &["model_hold"]) - growth(l, &["sim_hold"]))
    };
    let p = "- **At 0.1 the blocking term is the larger excess.** The measured\n  sharing grows by 12.9";
    let (blocking, sharing, _) = excess("0.1");
    if blocking <= sharing {
        errors.push(format!("{HP}: at 0.1 the model's blocking excess {blocking} is not larger than its sharing excess {sharing}"));
    }
    v.extend([load_at(errors, p, "0.1", "0.1"), d(p, "12.9", growth("0.1", &SHARING))]);
    let p = "- **At 0.11 it is most of it.** Sharing 13.9 against 19.4 (g)";
    let (blocking, _, total) = excess("0.11");
    if blocking <= total / 2.0 {
        errors.push(format!("{HP}: at 0.11 the model's blocking excess {blocking} is not most of its excess {total}"));
    }
    v.extend([load_at(errors, p, "0.11", "0.11"), d(p, "13.9", growth("0.11", &SHARING))]);
    // "From 0.1 to 0.11 ... grows 16.494 → 34.697": the cells at the loads named.
    let p = "From 0.1 to 0.11 the model's blocking further on\n  grows 16.494 → 34.697";
    v.extend([d(p, "16.494", part("0.1", "0", "model_blocking_further")), d(p, "34.697", part("0.11", "0", "model_blocking_further"))]);
    // Dimension 1 at 0.1: the cells of that load and dimension.
    let p = "(`hold_parts.csv`, dim 1; not tabled): at 0.1\n  its model hold is 67.335 against 63.548 measured.";
    v.extend([d(p, "67.335", part("0.1", "1", "model_hold")), d(p, "63.548", part("0.1", "1", "sim_hold"))]);
    v
}

/// "The blocking a hold can see": the loads of its measured shares, and
/// the distance from which no VC-wait stall cycle is measured.
fn blocking_span(errors: &mut Vec<String>) -> Vec<Derived> {
    use super::l3_span::{beyond_share, stalls, ST, STALL_LOADS};
    let mut v = Vec::new();
    let loads = between(&STALL_LOADS, "0.04", "0.12");
    let (lo, hi) = range(&loads, |l| 100.0 * beyond_share(ST, l));
    let p = "From 0.04 to 0.12 the measured VC-wait\n  cycles beyond 4 routers are 0.14 % to 0.26 % of them (0.018 of 7.494\n  at 0.11); none is 6 or more routers on.";
    v.extend([d(p, "0.14", lo), d(p, "0.26", hi)]);
    v.extend(ends(errors, p, &loads, "0.04", "0.12"));
    v.extend([d(p, "0.018", stalls(ST, "0.11", "vc_wait", 5, usize::MAX)), d(p, "7.494", stalls(ST, "0.11", "vc_wait", 1, usize::MAX))]);
    // "none is 6 or more routers on": one past the farthest distance with
    // a VC-wait cycle, over every load of dimension 0.
    let farthest = read_csv(ST)
        .iter()
        .filter(|r| r["dim"] == "0" && r["vc_wait"].parse::<f64>().unwrap() > 0.0)
        .map(|r| r["distance"].parse::<usize>().unwrap())
        .max()
        .expect("VC-wait stall cycles");
    v.push(d(p, "6", (farthest + 1) as f64));
    v
}

/// "The span model": the load its error range ends at, the load the
/// residual model's W was right at, 8 × 8 × 8's saturation.
fn span_model(errors: &mut Vec<String>) -> Vec<Derived> {
    use super::l3_span::{error as span_error, saturation, LOADS, SAT3};
    let mut v = Vec::new();
    let loads = between(&LOADS, "0.04", "0.11");
    let (lo, hi) = range(&loads, |l| span_error(super::l3_span::CH, l, "residual_span").expect("a solution"));
    let p = "- **Closer up to 0.11, later saturation.** The span model is within\n  −5.8 % to +1.6 %";
    v.extend([d(p, "−5.8", lo), d(p, "+1.6", hi), load_at(errors, p, "0.11", loads[loads.len() - 1])]);
    let p = "share of blocked headers); the residual model's W was right at 0.1\n  with holds 19.2 % too long there.";
    v.extend([load_at(errors, p, "0.1", residual_w_right()), d(p, "19.2", error(CH, residual_w_right(), "residual", "hold"))]);
    let p = "saturation against 0.1250 is not measured.";
    v.push(d(p, "0.1250", saturation(SAT3, "residual_span")));
    v
}

/// "The wait for a VC, term by term": the load of the table by position
/// and of the measured v1 shares, the bound on their distance from
/// `v1_share`'s, and the loads of the loss chain's range.
fn vc_wait(errors: &mut Vec<String>) -> Vec<Derived> {
    use super::l3_vcwait::{sim, span_first_release, vc, LOADS, POSITIONS};
    let mut v = Vec::new();
    let positions = |load: &'static str, column: &'static str| range(&POSITIONS, move |c| vc(load, c, column));
    let p = "By position (0.1, below) the measured share that found all held\n  is U-shaped, 0.0796 to 0.1622,";
    let (lo, hi) = positions("0.1", "found_held");
    v.extend([d(p, "0.0796", lo), d(p, "0.1622", hi)]);
    // "within 0.005": the largest distance at 0.1, rounded up at the
    // bound's last digit, is the bound.
    let p = "(at 0.1 the measured\n  shares are within 0.005 of them)";
    let worst = POSITIONS.iter().map(|c| (vc("0.1", c, "share_v1") - vc("0.1", c, "share_v1_model")).abs()).fold(0.0, f64::max);
    v.push(d(p, "0.005", (worst * 1000.0).ceil() / 1000.0));
    if worst >= 0.005 {
        errors.push(format!("the measured v1 shares at 0.1 are up to {worst} from v1_share's"));
    }
    let loads = between(&LOADS, "0.04", "0.125");
    let (lo, hi) = range(&loads, |x| vc(x, "all", "p_block_escape_at_busy") / sim(x, "blocked"));
    let p = "mean over the positions is 1.00 to 1.11 times the measured share of\n  blocked headers from 0.04 to 0.125, and by position it follows the U";
    v.extend([d(p, "1.00", lo), d(p, "1.11", hi)]);
    v.extend(ends(errors, p, &loads, "0.04", "0.125"));
    // "the residual itself within about a fifth above 0.04": the largest
    // load where the found-held residual is more than a fifth off the
    // span model's E[min].
    let off = |x: &'static str| (vc(x, "all", "first_free") / span_first_release(x) - 1.0).abs();
    let beyond: Vec<&'static str> = LOADS.iter().copied().filter(|&x| off(x) > 0.2).collect();
    let p = "the residual itself\n  within about a fifth above 0.04.";
    v.push(load_at(errors, p, "0.04", beyond.last().expect("a load more than a fifth off")));
    if beyond.len() != 1 || beyond[0] != LOADS[0] {
        errors.push(format!("the found-held residual is more than a fifth off the span model's E[min] at {beyond:?}, the text says only at the lowest load"));
    }
    // "already above the measured VC-wait stall cycles at 0.11": the span
    // model's blocking further on against the stall chains' VC-wait cycles.
    let span_further = models::cell_value(super::l3_span::HP, models::sel(&[("load", "0.11"), ("dim", "0")]), "span_model_blocking_further").unwrap_or_else(|e| panic!("{e}"));
    let measured = super::l3_span::stalls(super::l3_span::ST, "0.11", "vc_wait", 1, usize::MAX);
    if span_further <= measured {
        errors.push(format!("at 0.11 the span model's blocking further on {span_further} is not above the measured {measured}"));
    }
    let p = "(the span model's blocking further on was already above the\n  measured VC-wait stall cycles at 0.11 with the low wait,";
    v.push(load_at(errors, p, "0.11", "0.11"));
    // "the span model's closeness at 0.1 and 0.11": the two loads of the
    // table where its network latency is closest to the measured one.
    let mut by_error: Vec<&'static str> = LOADS.to_vec();
    by_error.sort_by(|a, b| span_error_at(a).abs().total_cmp(&span_error_at(b).abs()));
    let mut closest = by_error[..2].to_vec();
    closest.sort_by(|a, b| a.parse::<f64>().unwrap().total_cmp(&b.parse::<f64>().unwrap()));
    let p = "closeness at 0.1 and 0.11 was its too-short wait offsetting that.";
    v.extend([load_at(errors, p, "0.1", closest[0]), load_at(errors, p, "0.11", closest[1])]);
    v
}

/// The span model's network latency error at `load` (the runs of "The
/// wait for a VC, term by term").
fn span_error_at(load: &str) -> f64 {
    use super::l3_vcwait::{ch, sim};
    100.0 * (ch(load, "residual_span", "network_latency").expect("a solution") / sim(load, "network_latency") - 1.0)
}

/// "The hold's downstream term": the load of the stall chains' ratios, the
/// loads of the escape model's hold errors and where it has no solution,
/// and the simulated torus's last loads.
fn downstream(errors: &mut Vec<String>) -> Vec<Derived> {
    use super::l3_hold::{at_distance, error as hold_error, model, sim, LOADS};
    let mut v = Vec::new();
    let share = |k| at_distance("0.1", k, k) / at_distance("0.1", 1, 1);
    let p = "header 2, 3 and 4 routers on are 0.66, 0.46 and 0.31 of those at the next\nrouter at 0.1 (the ratios";
    v.extend([d(p, "0.66", share(2)), d(p, "0.46", share(3)), d(p, "0.31", share(4))]);
    // "+10.4 % and +24.5 % at 0.1 and 0.11 and had no solution beyond":
    // the errors at the loads named, and those the last solved loads.
    let esc_hold = |x| hold_error(x, "escape_span", "hold").expect("a solution");
    let p = "where the escape model's was +10.4 % and +24.5 %\n  at 0.1 and 0.11 and had no solution beyond.";
    v.extend([d(p, "+10.4", esc_hold("0.1")), d(p, "+24.5", esc_hold("0.11"))]);
    let solved: Vec<&'static str> = LOADS.iter().copied().filter(|&x| model(x, "escape_span", "hold").is_some()).collect();
    v.extend(ends(errors, p, &solved[solved.len() - 2..], "0.1", "0.11"));
    // "accepts 0.1245 of 0.125 offered, its latency finite at 0.12".
    let p = "the simulated torus accepts 0.1245 of\n  0.125 offered, its latency finite at 0.12.";
    v.extend([d(p, "0.1245", sim("0.125", "accepted")), load_at(errors, p, "0.125", "0.125")]);
    let latency = sim("0.12", "network_latency");
    if !latency.is_finite() {
        errors.push(format!("the simulated network latency at 0.12 is {latency}"));
    }
    v.push(load_at(errors, p, "0.12", "0.12"));
    // "−25.4 % at 0.125": the absorbed model's error at the load named.
    let p = "−6.0 % at 0.12 and −25.4 % at\n  0.125.";
    v.extend([d(p, "−6.0", hold_error("0.12", "absorbed_span", "network_latency").expect("a solution")), d(p, "−25.4", hold_error("0.125", "absorbed_span", "network_latency").expect("a solution"))]);
    v
}

fn derived_and_errors() -> (Vec<Derived>, Vec<String>) {
    let mut errors = Vec::new();
    let v = [residual_wait(&mut errors), hold_parts(&mut errors), blocking_span(&mut errors), span_model(&mut errors), vc_wait(&mut errors), downstream(&mut errors)].into_iter().flatten().collect();
    (v, errors)
}

#[test]
fn prose_of_the_l3_residual_sections_follows_from_the_committed_runs() {
    let (derived, mut errors) = derived_and_errors();
    errors.extend(check_derived(&derived));
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

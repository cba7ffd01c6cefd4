//! "R2's body behind R1 as a term of the tail" (issue 22), the part "Why
//! the row is above R2's tail, measured", tied to the committed
//! `experiments/results/cube_r2_body/{overlaps,lumps,attribution}.csv`
//! (the `cube_r2_body` probe's lumps) beside `links.csv`, the simulated
//! `dmp_vc_wait_cube6_{2,5}hop` and `cube_vcq_hops/tail.csv`: every table
//! cell from the cell it was copied from, the row's counts and lumps from
//! the library (`cube_body_behind.rs`) on the solved model, and the
//! probe's files checked against each other and against the committed
//! body row.

use super::*;
use cube_r2_body::{link, sim_miss, solved, LOADS, M, R2};
use cube_vcq_hops::{cell, point};
use l3_span::row;
use l3_ties::range;
use models::Derived;
use wormqos_netsim::analytic::cube_body_behind::BodyDelays;

const OVERLAPS: &str = "experiments/results/cube_r2_body/overlaps.csv";
const LUMPS: &str = "experiments/results/cube_r2_body/lumps.csv";
const ATTRIBUTION: &str = "experiments/results/cube_r2_body/attribution.csv";
const TAIL: &str = "experiments/results/cube_vcq_hops/tail.csv";
const BODY2: &str = "experiments/results/model_fig7_000_cube6_vcq_body_2hop/dmp.csv";
const BODY5: &str = "experiments/results/model_fig7_000_cube6_vcq_body_5hop/dmp.csv";
/// The router links in the table's order (hop s: dimension s).
const LINKS: [&str; 7] = ["hop0", "hop1", "hop2", "hop3", "hop4", "hop5", "ejection"];
const DIMS: [&str; 5] = ["hop1", "hop2", "hop3", "hop4", "hop5"];
/// Both of Fig. 14's deadlines of each hop count.
const DEADLINES: [(&str, [&str; 2]); 2] = [("2", ["55", "60"]), ("5", ["70", "75"])];

fn over(load: &str, link: &str, column: &str) -> f64 {
    cell(OVERLAPS, &[("point", point(load)), ("link", link)], column)
}

/// Share of a link's R1–R2 overlaps that cost R2 nothing.
fn untouched_share(load: &str, link: &str) -> f64 {
    let (a, u) = (over(load, link, "lumps_per_message"), over(load, link, "r2_untouched_per_message"));
    u / (a + u)
}

fn attribution(load: &str, h: &str, deadline: &str, variant: &str, column: &str) -> f64 {
    cell(ATTRIBUTION, &[("point", point(load)), ("hops", h), ("deadline", deadline), ("variant", variant)], column)
}

/// The row's R2 lumps on a link (0 = hop 0 … 5, 6 = the ejection).
fn row_link(load: &str, i: usize) -> wormqos_netsim::analytic::cube_body_behind::Lumps {
    let (model, sol) = solved(load);
    let b = BodyDelays::of(&model, &sol, 1);
    if i == 6 {
        b.ejection
    } else {
        b.hops[i].clone()
    }
}

fn sim_body(load: &str, h: &str) -> f64 {
    let d = if h == "2" { "55" } else { "70" };
    cell(TAIL, &[("point", point(load)), ("class", R2), ("hops", h), ("deadline", d), ("group", "all")], "body")
}

/// (min, max) over the loads, hop counts `hs` and both deadlines of each.
fn over_runs(hs: &[&str], f: impl Fn(&str, &str, &str) -> f64) -> (f64, f64) {
    let mut lo_hi = (f64::INFINITY, f64::NEG_INFINITY);
    for l in LOADS {
        for (h, ds) in DEADLINES.iter().filter(|(h, _)| hs.contains(h)) {
            for dl in ds {
                let x = f(l, h, dl);
                lo_hi = (lo_hi.0.min(x), lo_hi.1.max(x));
            }
        }
    }
    lo_hi
}

/// R2's tail with `variant` over the simulated one.
fn tail_ratio(variant: &'static str) -> impl Fn(&str, &str, &str) -> f64 {
    move |l, h, dl| attribution(l, h, dl, variant, "r2_miss") / sim_miss(h, l, R2, dl)
}

/// Share of the row's excess over the simulated tail that `variant` removes.
fn removed(variant: &'static str) -> impl Fn(&str, &str, &str) -> f64 {
    move |l, h, dl| {
        let (r, s) = (attribution(l, h, dl, "row", "r2_miss"), sim_miss(h, l, R2, dl));
        (r - attribution(l, h, dl, variant, "r2_miss")) / (r - s)
    }
}

/// Hop 0's lumps at 0.006 from `lumps.csv`: (lumps, cycles) of those of
/// `size` cycles or fewer, and of all.
fn hop0_lumps(size: usize) -> ((f64, f64), (f64, f64)) {
    let table = shared_csv(LUMPS);
    let (mut small, mut all) = ((0.0, 0.0), (0.0, 0.0));
    for r in table.iter().filter(|r| r["point"] == point("0.006") && r["link"] == "hop0") {
        let x: f64 = r["cycles"].parse().unwrap();
        let n: f64 = r["r1_first"].parse::<f64>().unwrap() + r["r2_first"].parse::<f64>().unwrap();
        all = (all.0 + n, all.1 + n * x);
        if x <= size as f64 {
            small = (small.0 + n, small.1 + n * x);
        }
    }
    (small, all)
}

fn hop0_lumps_of(size: f64) -> f64 {
    let table = shared_csv(LUMPS);
    table.iter().filter(|r| r["point"] == point("0.006") && r["link"] == "hop0" && r["cycles"].parse::<f64>().unwrap() == size).map(|r| r["r1_first"].parse::<f64>().unwrap() + r["r2_first"].parse::<f64>().unwrap()).sum()
}

fn derived_and_errors() -> (Vec<Derived>, Vec<String>) {
    let (mut v, mut e) = (Vec::new(), Vec::new());
    let d = |passage, written, value| Derived { passage, written, value };
    // The table at 0.006, link by link (its columns are the links).
    let by_link = |f: &dyn Fn(&'static str, usize) -> Option<f64>| -> Vec<(&'static str, Option<f64>)> { LINKS.iter().enumerate().map(|(i, &l)| (l, f(l, i))).collect() };
    let rows: [(&'static str, Vec<(&'static str, Option<f64>)>); 10] = [
        ("| lost to R1, flit there at the cycle's start (cycles) | 0.30 | 1.68 | 2.19 | 2.41 | 2.56 | 2.57 | 3.62 |", by_link(&|l, _| Some(over("0.006", l, "lost_per_message")))),
        ("| lumps, sim | 0.065 | 0.097 | 0.113 | 0.120 | 0.125 | 0.127 | 0.165 |", by_link(&|l, _| Some(over("0.006", l, "lumps_per_message")))),
        ("| lumps, `kim2005_cube_vcq_body` | 0 | 0.102 | 0.097 | 0.092 | 0.087 | 0.082 | 0.270 |", by_link(&|_, i| Some(row_link("0.006", i).count))),
        ("| overlaps costing R2 nothing, sim | 0.013 | 0.011 | 0.010 | 0.011 | 0.012 | 0.013 | 0.110 |", by_link(&|l, _| Some(over("0.006", l, "r2_untouched_per_message")))),
        ("| mean lump, sim (cycles) | 4.59 | 17.34 | 19.33 | 20.09 | 20.43 | 20.25 | 21.95 |", by_link(&|l, _| Some(over("0.006", l, "mean_lump")))),
        ("| mean lump, `kim2005_cube_vcq_body` | — | 24.50 | 24.50 | 24.50 | 24.50 | 24.50 | 24.50 |", by_link(&|_, i| Some(row_link("0.006", i)).filter(|l| l.count > 0.0).map(|l| l.lump_mean()))),
        ("| R1 first, lumps, sim | 0.011 | 0.034 | 0.043 | 0.045 | 0.046 | 0.049 | 0.061 |", by_link(&|l, _| Some(over("0.006", l, "r1_first_lumps_per_message")))),
        ("| R1 first, mean lump, sim | 3.89 | 13.16 | 15.10 | 14.74 | 14.59 | 15.59 | 16.21 |", by_link(&|l, _| Some(over("0.006", l, "r1_first_mean_lump")))),
        ("| R2 first, lumps, sim | 0.054 | 0.063 | 0.071 | 0.075 | 0.079 | 0.077 | 0.104 |", by_link(&|l, _| Some(over("0.006", l, "r2_first_lumps_per_message")))),
        ("| R2 first, mean lump, sim | 4.72 | 19.58 | 21.88 | 23.34 | 23.87 | 23.21 | 25.34 |", by_link(&|l, _| Some(over("0.006", l, "r2_first_mean_lump")))),
    ];
    for (passage, values) in rows {
        let keys: Vec<&'static str> = values.iter().map(|(l, _)| *l).collect();
        row(passage, &keys, |l| values.iter().find(|(k, _)| *k == l).unwrap().1, &mut v, &mut e);
    }
    // The table over the four loads.
    let c = &LOADS;
    let ej = |column: &'static str| move |l: &'static str| Some(over(l, "ejection", column));
    row("| ejection, lumps per R2 message, sim | 0.045 | 0.064 | 0.171 | 0.165 |", c, ej("lumps_per_message"), &mut v, &mut e);
    row("| ejection, overlaps costing R2 nothing, sim | 0.017 | 0.063 | 0.033 | 0.110 |", c, ej("r2_untouched_per_message"), &mut v, &mut e);
    row("| ejection, lumps, `kim2005_cube_vcq_body` | 0.061 | 0.126 | 0.196 | 0.270 |", c, |l| Some(row_link(l, 6).count), &mut v, &mut e);
    row("| ejection, mean lump, sim (cycles) | 20.46 | 21.30 | 21.39 | 21.95 |", c, ej("mean_lump"), &mut v, &mut e);
    row("| ejection, R1 first, mean lump, sim | 14.84 | 16.82 | 15.69 | 16.21 |", c, ej("r1_first_mean_lump"), &mut v, &mut e);
    row("| ejection, R2 first, mean lump, sim | 23.94 | 24.09 | 24.96 | 25.34 |", c, ej("r2_first_mean_lump"), &mut v, &mut e);
    let tail = |h: &'static str, dl: &'static str, variant: &'static str| move |l: &'static str| Some(attribution(l, h, dl, variant, "r2_miss"));
    row("| 2-hop R2, P{L > 55}, the row with the ejection's lumps measured | 0.1074 | 0.1965 | 0.3286 | 0.3973 |", c, tail("2", "55", "ejection_measured"), &mut v, &mut e);
    row("| 2-hop R2, P{L > 55}, the row with every router link's lumps measured | 0.1060 | 0.1996 | 0.3300 | 0.3996 |", c, tail("2", "55", "links_measured"), &mut v, &mut e);
    row("| 5-hop R2, P{L > 70}, the row with the ejection's lumps measured | 0.1510 | 0.2749 | 0.4286 | 0.5180 |", c, tail("5", "70", "ejection_measured"), &mut v, &mut e);
    row("| 5-hop R2, P{L > 70}, the row with every router link's lumps measured | 0.1476 | 0.2818 | 0.4317 | 0.5225 |", c, tail("5", "70", "links_measured"), &mut v, &mut e);
    let body = |h: &'static str, dl: &'static str| move |l: &'static str| Some(attribution(l, h, dl, "links_measured", "r2_body_mean"));
    row("| 2-hop R2, body delay, every router link's lumps measured (mean, cycles) | 2.74 | 5.14 | 8.90 | 10.77 |", c, body("2", "55"), &mut v, &mut e);
    row("| 5-hop R2, body delay, every router link's lumps measured (mean, cycles) | 3.88 | 7.47 | 11.87 | 14.55 |", c, body("5", "70"), &mut v, &mut e);

    // The prose.
    let diffs: Vec<f64> = LINKS.iter().map(|&l| link("0.006", R2, l, "lost_to_other") - over("0.006", l, "lost_per_message")).collect();
    let p = "that cycle, is 0.10 to 0.39 cycles higher at 0.006). \"R1 first\": the R1";
    v.extend([d(p, "0.10", diffs.iter().cloned().fold(f64::INFINITY, f64::min)), d(p, "0.39", diffs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)), d(p, "0.006", 0.006)]);
    let p = "  link is the measured count of overlaps: 0.061 to 0.270 against 0.062";
    let (ra, rb) = range(c, |l| row_link(l, 6).count);
    let (ma, mb) = range(c, |l| over(l, "ejection", "lumps_per_message") + over(l, "ejection", "r2_untouched_per_message"));
    v.extend([d(p, "0.061", ra), d(p, "0.270", rb), d(p, "0.062", ma)]);
    let p = "  to 0.274 (those costing R2 cycles and those costing it nothing";
    v.push(d(p, "0.274", mb));
    let (a, b) = range(c, |l| over(l, "ejection", "r2_first_mean_lump"));
    let p = "  row's shape: R2 first 23.94 to 25.34 cycles where the row's";
    v.extend([d(p, "23.94", a), d(p, "25.34", b)]);
    let p = "  min(M, 2r) has 24.50 at 0.006, R1 first 14.84 to 16.82 (R1's remaining";
    let (a, b) = range(c, |l| over(l, "ejection", "r1_first_mean_lump"));
    v.extend([d(p, "24.50", row_link("0.006", 6).lump_mean()), d(p, "0.006", 0.006), d(p, "14.84", a), d(p, "16.82", b)]);
    let p = "  flits, uniform on 1..M, would give 16.5). But 16 to 49 % of the";
    let (ua, ub) = range(c, |l| untouched_share(l, "ejection"));
    // (1 + … + M)/M by hand.
    v.extend([d(p, "16.5", (M + 1.0) / 2.0), d(p, "16", 100.0 * ua), d(p, "49", 100.0 * ub)]);
    let p = "  ejection's overlaps cost R2 nothing (R1 waits for R2 throughout), 4 to";
    let dims = |f: &dyn Fn(&str, &str) -> f64| -> (f64, f64) { LOADS.iter().flat_map(|l| DIMS.iter().map(move |s| (l, s))).map(|(l, s)| f(l, s)).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x))) };
    let (da, db) = dims(&untouched_share);
    v.push(d(p, "4", 100.0 * da));
    let p = "  12 % on the dimension links; the row's lump is never 0. So the ejection's per-flit mean";
    v.push(d(p, "12", 100.0 * db));
    let p = "- **With the ejection's lumps measured, R2's tail is 1.07 to 1.11 times";
    let (a, b) = over_runs(&["2"], tail_ratio("ejection_measured"));
    v.extend([d(p, "1.07", a), d(p, "1.11", b)]);
    let p = "  the simulated at 2 hops and 1.23 to 1.30 at 5 hops** (both deadlines,";
    let (a, b) = over_runs(&["5"], tail_ratio("ejection_measured"));
    v.extend([d(p, "1.23", a), d(p, "1.30", b), d(p, "2", 2.0), d(p, "5", 5.0)]);
    let p = "  the four loads), from the row's 1.20 to 1.35 and 1.31 to 1.48: the";
    let (a2, b2) = over_runs(&["2"], tail_ratio("row"));
    let (a5, b5) = over_runs(&["5"], tail_ratio("row"));
    v.extend([d(p, "1.20", a2), d(p, "1.35", b2), d(p, "1.31", a5), d(p, "1.48", b5)]);
    let p = "  ejection term carries 47 to 74 % of the row's excess at 2 hops and 21 to";
    let (r2a, r2b) = over_runs(&["2"], removed("ejection_measured"));
    let (r5a, r5b) = over_runs(&["5"], removed("ejection_measured"));
    v.extend([d(p, "47", 100.0 * r2a), d(p, "74", 100.0 * r2b), d(p, "2", 2.0), d(p, "21", 100.0 * r5a)]);
    let p = "  42 % at 5 hops. Measured lumps on every router link as well give 1.05";
    let (a2, b2) = over_runs(&["2"], tail_ratio("links_measured"));
    let (a5, b5) = over_runs(&["5"], tail_ratio("links_measured"));
    v.extend([d(p, "42", 100.0 * r5b), d(p, "5", 5.0), d(p, "1.05", a2)]);
    let p = "  to 1.11 and 1.23 to 1.31: the dimension links' terms carry none of the";
    v.extend([d(p, "1.11", b2), d(p, "1.23", a5), d(p, "1.31", b5)]);
    let ratio = |h: &'static str| move |l: &'static str| attribution(l, h, if h == "2" { "55" } else { "70" }, "links_measured", "r2_body_mean") / sim_body(l, h);
    let p = "  measured, the row's mean body delay is 1.02 to 1.21 times the";
    let (a, b) = range(c, ratio("2"));
    v.extend([d(p, "1.02", a), d(p, "1.21", b)]);
    let p = "  simulated body excess for 2-hop messages and 1.34 to 1.46 for 5-hop";
    let (a, b) = range(c, ratio("5"));
    v.extend([d(p, "2", 2.0), d(p, "1.34", a), d(p, "1.46", b), d(p, "5", 5.0)]);
    // Hop 0.
    let p24 = row_link("0.006", 6).lump_mean();
    let per_flit = M * (link("0.006", R2, "hop0", "model_spf_by_flit") - 1.0);
    let p = "  there: 0.065 lumps and 0.013 overlaps costing nothing per R2 message at";
    v.extend([d(p, "0.065", over("0.006", "hop0", "lumps_per_message")), d(p, "0.013", over("0.006", "hop0", "r2_untouched_per_message"))]);
    let p = "  0.006, 0.72 times the row's count in the other links' form (2.64 over";
    let count = over("0.006", "hop0", "lumps_per_message") + over("0.006", "hop0", "r2_untouched_per_message");
    v.extend([d(p, "0.006", 0.006), d(p, "0.72", count / (per_flit / p24)), d(p, "2.64", per_flit)]);
    let p = "  24.50), but a lump is 4.59 cycles on average against 17.34 to 20.43 on";
    let (a, b) = DIMS.iter().map(|s| over("0.006", s, "mean_lump")).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    v.extend([d(p, "24.50", p24), d(p, "4.59", over("0.006", "hop0", "mean_lump")), d(p, "17.34", a), d(p, "20.43", b)]);
    let ((small_n, small_x), (all_n, all_x)) = hop0_lumps(5);
    let p = "  hops 1 to 5: 574 of its 741 lumps are of 2 cycles and 89 % of 5 or";
    v.extend([d(p, "574", hop0_lumps_of(2.0)), d(p, "741", all_n), d(p, "2", 2.0), d(p, "89", 100.0 * small_n / all_n), d(p, "5", 5.0)]);
    let p = "  fewer (43 % of its lost cycles): the few flits in the router when the";
    v.push(d(p, "43", 100.0 * small_x / all_x));
    let p = "  one injection link switches from one class to the other. So the 2.64";
    v.push(d(p, "2.64", per_flit));
    let p = "  of the per-flit term against the 0.42 measured (0.30 with the flit";
    v.extend([d(p, "0.42", link("0.006", R2, "hop0", "lost_to_other")), d(p, "0.30", over("0.006", "hop0", "lost_per_message"))]);
    let p = "  there at the cycle's start) is the lump's size, 0.19 times the";
    v.push(d(p, "0.19", over("0.006", "hop0", "mean_lump") / p24));
    let p = "  other links' 24.50, and less its count.";
    v.push(d(p, "24.50", p24));
    let p = "- Why 16 to 49 % of the ejection's overlaps cost R2 nothing. VirtualClock";
    v.extend([d(p, "16", 100.0 * ua), d(p, "49", 100.0 * ub)]);
    let p = "- Hop 0's 44 lumps of a whole message (32 cycles, 41 % of its lost";
    v.extend([d(p, "44", hop0_lumps_of(M)), d(p, "32", M), d(p, "41", 100.0 * hop0_lumps_of(M) * M / all_x)]);
    let p = "  cycles at 0.006): not explained.";
    v.push(d(p, "0.006", 0.006));
    // "Not reproduced yet" repeats the tail with the ejection measured.
    let p = "  lumps there the row is 1.07 to 1.30 times the simulated tail; the rest";
    let (a, b) = over_runs(&["2", "5"], tail_ratio("ejection_measured"));
    v.extend([d(p, "1.07", a), d(p, "1.30", b)]);
    (v, e)
}

/// The census ties of the part's numbers.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    l3_ties::ties_of(derived_and_errors().0)
}

#[test]
fn cube_r2_lumps_follow_from_the_committed_csvs() {
    let (derived, mut errors) = derived_and_errors();
    errors.extend(models::check_derived(&derived));
    assert!(errors.is_empty(), "{} numbers of \"Why the row is above R2's tail, measured\" disagree with their data:\n{}", errors.len(), errors.join("\n"));
}

/// The probe's files agree with each other and with the committed row:
/// per link and load the lumps' cycles per message are their count times
/// their mean, the two cases add up to all lumps, no lump count exceeds
/// `links.csv`'s losses (the flit-at-the-cycle's-start count can only be
/// smaller), `lumps.csv`'s histogram gives `overlaps.csv`'s count and
/// mean; and `attribution.csv`'s `row` is the committed
/// `kim2005_cube_vcq_body` to its last digit at every deadline.
#[test]
fn cube_r2_lumps_files_agree() {
    let mut errors = Vec::new();
    let table = shared_csv(LUMPS);
    for l in LOADS {
        for link_name in LINKS {
            let f = |c: &str| over(l, link_name, c);
            let (n, x) = (f("lumps_per_message"), f("mean_lump"));
            if (f("lost_per_message") - n * x).abs() > 0.002 {
                errors.push(format!("{l} {link_name}: lost {} ≠ {n} lumps × {x}", f("lost_per_message")));
            }
            if (f("r1_first_lumps_per_message") + f("r2_first_lumps_per_message") - n).abs() > 2e-5 {
                errors.push(format!("{l} {link_name}: the cases' lumps do not add up to {n}"));
            }
            if f("lost_per_message") > link(l, R2, link_name, "lost_to_other") + 1e-3 {
                errors.push(format!("{l} {link_name}: lumps {} above links.csv's {}", f("lost_per_message"), link(l, R2, link_name, "lost_to_other")));
            }
            let (mut k, mut cycles) = (0.0, 0.0);
            for r in table.iter().filter(|r| r["point"] == point(l) && r["link"] == link_name) {
                let c: f64 = r["cycles"].parse().unwrap();
                let m = r["r1_first"].parse::<f64>().unwrap() + r["r2_first"].parse::<f64>().unwrap();
                k += m;
                cycles += c * m;
            }
            let msgs = f("r2_messages");
            if (k / msgs - n).abs() > 1e-5 || (cycles / k - x).abs() > 1e-3 {
                errors.push(format!("{l} {link_name}: lumps.csv gives {} lumps of {}, overlaps.csv {n} of {x}", k / msgs, cycles / k));
            }
        }
        for (h, ds) in DEADLINES {
            for dl in ds {
                let pt = format!("workload.load+workload.mix={}", point(l));
                let committed = cell(if h == "2" { BODY2 } else { BODY5 }, &[("source", "model:kim2005_cube_vcq_body"), ("point", &pt), ("class", R2), ("deadline_cycles", dl)], "miss_probability");
                let here = attribution(l, h, dl, "row", "r2_miss");
                if (here - committed).abs() > 5e-7 {
                    errors.push(format!("{l} {h}-hop D = {dl}: attribution.csv's row {here} ≠ the committed {committed}"));
                }
            }
        }
    }
    assert!(errors.is_empty(), "the cube_r2_body probe's files disagree:\n{}", errors.join("\n"));
}

//! "The coupled source row with the blocking chained, and g = 64, K = 4
//! over 40 seeds": the 16-port router's g = 64 points over seeds 1 to 40
//! (`experiments/results/onoff_g64_40seeds/source_link.csv`, written by
//! `sim/netsim/examples/onoff_k1_trace`) beside seeds 1 to 20 (the CSVs
//! of "The source link coupled backwards"), and the 6-cube's rows with the
//! first-order and the chained B̄ (`cube_coupled_eq5.csv` and
//! `cube_coupled_eq5_holds.csv`, written by the netsim test
//! `cube_coupled_eq5_against_ten_seeds`). The 95 % half-widths are the
//! standard errors in the CSVs times Student's t at 97.5 % for the seeds
//! less one (table values, `t_975`).

use super::{check, read_csv, section_words, Claim, Num};
use std::collections::HashMap;

const HEADING: &str = "#### The coupled source row with the blocking chained, and g = 64, K = 4 over 40 seeds (issue 22)";
const SEEDS40: &str = "experiments/results/onoff_g64_40seeds/source_link.csv";
const SEEDS20: &str = "experiments/results/onoff_klink_trace_16port_coupled/source_link.csv";
const SEEDS20_CHECK: &str = "experiments/results/onoff_klink_trace_16port_coupled_check/source_link.csv";
/// Seeds 1 to 40 at g = 33 ("Where the K = 4 excess sits").
const SEEDS40_G33: &str = "experiments/results/onoff_k4_stream_parts_40seeds/source_link.csv";
const CUBE: &str = "experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_coupled_eq5.csv";
const HOLDS: &str = "experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_coupled_eq5_holds.csv";

/// Student's t at 97.5 % for `seeds` − 1 degrees of freedom (the seed
/// counts these CSVs have), from the standard table.
fn t_975(seeds: usize) -> f64 {
    match seeds {
        10 => 2.262,
        19 => 2.1009,
        20 => 2.0930,
        38 => 2.0262,
        40 => 2.0227,
        _ => panic!("no t value for {seeds} seeds"),
    }
}

fn leak<T: ?Sized>(x: Box<T>) -> &'static T {
    Box::leak(x)
}

/// A number written in a table cell: `written` as it appears (with its
/// sign, if any), the cell of `csv` at `row`, `column`, times `scale`; a
/// written "−" flips the scale so the unsigned number matches.
fn num(written: &str, csv: &'static str, row: &[(&'static str, &'static str)], column: &'static str, scale: f64) -> Num {
    let (text, sign) = match written.strip_prefix('−') {
        Some(rest) => (rest, -1.0),
        None => (written.trim_start_matches('+'), 1.0),
    };
    Num { written: leak(text.to_string().into_boxed_str()), csv, row: leak(row.to_vec().into_boxed_slice()), column, scale: scale * sign }
}

/// The cells of a table row after its first (the row's name), each
/// "a ± b" and "a / b" split into its numbers.
fn cells(passage: &str) -> Vec<String> {
    passage.trim_matches('|').split('|').skip(1).flat_map(|c| c.split(" / ").flat_map(|c| c.split(" ± ")).map(|c| c.trim().to_string()).collect::<Vec<_>>()).collect()
}

/// The two tables' rows, every number tied to its cell (the census sees
/// them through `all_claims`).
pub(super) fn claims() -> Vec<Claim> {
    let mut out = Vec::new();
    // The router at g = 64: g, seeds modelled, sim total ± 95 %, coupled,
    // model − sim paired ± 95 % (− the CSV's sim − model), and the same
    // over seeds 1 to 20.
    let router: [(&'static str, &'static str, &'static str, usize, usize); 3] = [
        ("| 1 | 64 | 40 | 50.3361 ± 5.1710 | 49.3768 | −1.3362 ± 0.9280 | −1.6527 ± 1.2179 |", "1", SEEDS20, 40, 20),
        ("| 2 | 64 | 40 | 60.0422 ± 3.6714 | 58.8550 | −0.1031 ± 1.5571 | −0.2940 ± 2.2632 |", "2", SEEDS20, 40, 20),
        ("| 4 | 64 | 38 | 65.1556 ± 1.7341 | 68.7783 | +4.3645 ± 1.0627 | +5.0642 ± 1.0362 |", "4", SEEDS20_CHECK, 38, 19),
    ];
    for (passage, k, earlier, drawn, drawn20) in router {
        let c = cells(passage);
        let row: &[(&'static str, &'static str)] = leak(vec![("streams", k), ("gap", "64.0")].into_boxed_slice());
        let numbers = vec![
            num(&c[0], SEEDS40, row, "gap", 1.0),
            num(&c[1], SEEDS40, row, "coupled_drawn_seeds", 1.0),
            num(&c[2], SEEDS40, row, "sim_total", 1.0),
            num(&c[3], SEEDS40, row, "sim_total_se", t_975(40)),
            num(&c[4], SEEDS40, row, "coupled_total", 1.0),
            num(&c[5], SEEDS40, row, "coupled_drawn_gap", -1.0),
            num(&c[6], SEEDS40, row, "coupled_drawn_gap_se", t_975(drawn)),
            num(&c[7], earlier, row, "coupled_drawn_gap", -1.0),
            num(&c[8], earlier, row, "coupled_drawn_gap_se", t_975(drawn20)),
        ];
        out.push(Claim { passage, numbers });
    }
    // The cube: g, sim total ± 95 %, then first order / chained of B̄, the
    // injection link, the tandem row and its model − sim, the held row and
    // its model − sim.
    let columns = [
        "gap_cycles",
        "sim_total_cycles",
        "sim_total_ci95_cycles",
        "blocking_first_cycles",
        "blocking_chained_cycles",
        "injection_first_cycles",
        "injection_chained_cycles",
        "tandem_first_cycles",
        "tandem_chained_cycles",
        "tandem_first_error_cycles",
        "tandem_chained_error_cycles",
        "held_first_cycles",
        "held_chained_cycles",
        "held_first_error_cycles",
        "held_chained_error_cycles",
    ];
    let cube: [(&'static str, &'static str); 6] = [
        ("| 1 | 33 | 171.2095 ± 14.8932 | 0.7498 / 0.8497 | 10.0463 / 10.0463 | 181.7338 / 181.7338 | +10.5243 / +10.5243 | 173.0724 / 173.0724 | +1.8629 / +1.8629 |", "1:173.6"),
        ("| 1 | 64 | 77.4666 ± 8.3194 | 0.7498 / 0.8497 | 0.0000 / 0.0000 | 74.5631 / 74.5631 | −2.9035 / −2.9035 | 74.5631 / 74.5631 | −2.9035 / −2.9035 |", "1:148.8"),
        ("| 1 | 128 | 56.2345 ± 2.0865 | 0.7498 / 0.8497 | 0.0000 / 0.0000 | 52.5898 / 52.5898 | −3.6447 / −3.6447 | 52.5898 / 52.5898 | −3.6447 / −3.6447 |", "1:97.6"),
        ("| 2 | 33 | 176.8148 ± 11.8748 | 0.7498 / 0.8497 | 36.3186 / 36.4880 | 200.1787 / 200.3481 | +23.3639 / +23.5333 | 178.5098 / 178.6190 | +1.6950 / +1.8042 |", "2:373.6"),
        ("| 4 | 33 | 184.4625 ± 3.3973 | 0.7498 / 0.8497 | 50.7705 / 51.0285 | 213.0573 / 213.3153 | +28.5948 / +28.8528 | 187.5097 / 187.7026 | +3.0472 / +3.2401 |", "4:773.6"),
        ("| 14 | 33 | 193.8431 ± 5.2852 | 0.7498 / 0.8497 | 61.6305 / 61.9534 | 222.8278 / 223.1507 | +28.9847 / +29.3076 | 195.2279 / 195.4863 | +1.3848 / +1.6432 |", "14:2773.6"),
    ];
    for (passage, point) in cube {
        let c = cells(passage);
        assert_eq!(c.len(), columns.len(), "{passage}");
        let row: &[(&'static str, &'static str)] = leak(vec![("point", point)].into_boxed_slice());
        out.push(Claim { passage, numbers: c.iter().zip(columns).map(|(cell, column)| num(cell, CUBE, row, column, 1.0)).collect() });
    }
    out
}

/// Signed with the document's minus sign, `d` decimals.
fn signed(x: f64, d: usize) -> String {
    format!("{}{:.d$}", if x < 0.0 { "−" } else { "+" }, x.abs())
}

/// The tables tie to their CSVs, and the section's sentences follow from
/// them: the excess and its split at K = 4, the chain's change of B̄, c_b,
/// the injection link and the rows, and the holds against the measured
/// allocations. Also the findings: the K = 4 excess beyond its interval,
/// K = 2 inside, the rows' change under a tenth of every half-width.
#[test]
fn cube_coupled_eq5_follows_from_its_csvs() {
    let errors = check(&claims());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let flat = section_words(HEADING);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let (r40, r20, r20c, g33) = (read_csv(SEEDS40), read_csv(SEEDS20), read_csv(SEEDS20_CHECK), read_csv(SEEDS40_G33));
    let at = |rows: &super::Table, k: &str, g: &str| rows.iter().find(|r| r["streams"] == k && r["gap"] == g).unwrap_or_else(|| panic!("no K = {k}, g = {g}")).clone();
    let f = |r: &HashMap<String, String>, c: &str| -> f64 { r[c].parse().unwrap_or_else(|_| panic!("{c}: {}", r[c])) };
    let half = |r: &HashMap<String, String>| f(r, "coupled_drawn_gap_se") * t_975(f(r, "coupled_drawn_seeds") as usize);
    let (k1, k2, k4, k4_20) = (at(&r40, "1", "64.0"), at(&r40, "2", "64.0"), at(&r40, "4", "64.0"), at(&r20c, "4", "64.0"));
    assert_eq!(at(&r20, "1", "64.0")["seeds"], "20");
    // The excess is real at K = 4 and not at K = 2; K = 1 low.
    assert!(-f(&k4, "coupled_drawn_gap") > half(&k4), "K = 4's excess inside its interval");
    assert!(f(&k2, "coupled_drawn_gap").abs() < half(&k2), "K = 2 outside its interval");
    assert!(f(&k1, "coupled_drawn_gap") > half(&k1), "K = 1 not low beyond its interval");
    let g33_4 = at(&g33, "4", "33.0");
    has(format!(
        "The g = 64, K = 4 excess is real: {} ± {:.2} cycles over {} seeds ({} ± {:.2} over the first {} modelled; unpaired, over all 40, the model is {:.2} cycles above the simulated mean, whose half-width is {:.2}), unlike g = 33's, which 40 seeds took to a paired model − sim of {} ± {:.2} (± one standard error;",
        signed(-f(&k4, "coupled_drawn_gap"), 2),
        half(&k4),
        k4["coupled_drawn_seeds"],
        signed(-f(&k4_20, "coupled_drawn_gap"), 2),
        half(&k4_20),
        k4_20["coupled_drawn_seeds"],
        f(&k4, "coupled_total") - f(&k4, "sim_total"),
        t_975(40) * f(&k4, "sim_total_se"),
        signed(-f(&g33_4, "coupled_drawn_gap"), 2),
        f(&g33_4, "coupled_drawn_gap_se")
    ));
    let unpaired = f(&k4, "coupled_total") - f(&k4, "sim_total");
    assert!(unpaired > t_975(40) * f(&k4, "sim_total_se"), "K = 4's unpaired excess inside the simulated mean's interval");
    has(format!("K = 2 at g = 64 is inside its interval ({} ± {:.2}); K = 1 is {:.2} ± {:.2} cycles low", signed(-f(&k2, "coupled_drawn_gap"), 2), half(&k2), f(&k1, "coupled_drawn_gap"), half(&k1)));
    // The K = 4 split over 40 seeds; each model part beyond the measured
    // part's half-width.
    let t40 = t_975(40);
    let own_model = f(&k4, "model_own") + f(&k4, "coupled_destination");
    let (own, others) = (own_model - f(&k4, "own_blocked"), f(&k4, "model_others") - f(&k4, "others"));
    assert!(own > t40 * f(&k4, "own_blocked_se") && others > t40 * f(&k4, "others_se"), "a part inside its interval");
    has(format!(
        "the own stream with its blocking {} ± {:.4} (model, the destination link, {own_model:.4}: {}), behind the other streams {} ± {:.4} (model {}: {}), the measured mean blocking {} against B̄ = {}, at which the total would be {}: the geometric B̄ carries {:.2} of the {:.2} cycles by which the model's {} exceeds the 40 seeds' mean ({:.2} is `kim2005`'s network latency over L0).",
        k4["own_blocked"],
        t40 * f(&k4, "own_blocked_se"),
        signed(own, 2),
        k4["others"],
        t40 * f(&k4, "others_se"),
        k4["model_others"],
        signed(others, 2),
        k4["dest_block"],
        k4["blocking_model"],
        k4["model_total_at_block"],
        f(&k4, "coupled_total") - f(&k4, "model_total_at_block"),
        f(&k4, "coupled_total") - f(&k4, "sim_total"),
        k4["coupled_total"],
        f(&k4, "kim2005_network") - 36.0,
    ));
    has(format!("the router's B̄ ({}) is unchanged", k4["blocking_model"]));
    // The cube: the chain's change.
    let cube = read_csv(CUBE);
    let pt = |p: &str| cube.iter().find(|r| r["point"] == p).unwrap_or_else(|| panic!("{CUBE}: {p}")).clone();
    let all: Vec<_> = cube.iter().collect();
    let db: Vec<f64> = all.iter().map(|r| f(r, "blocking_chained_cycles") - f(r, "blocking_first_cycles")).collect();
    assert!(db.iter().all(|d| (d - db[0]).abs() < 1e-9), "B̄'s change differs between points");
    let cb: Vec<(String, String)> = all.iter().map(|r| (r["c_b_first"].clone(), r["c_b_chained"].clone())).collect();
    assert!(cb.iter().all(|c| *c == cb[0]), "c_b differs between points");
    let rise = |p: &str| format!("{:.2}", f(&pt(p), "injection_chained_cycles") - f(&pt(p), "injection_first_cycles"));
    has(format!(
        "The chain adds {:.4} cycles to B̄ at every point (its loads are the mean rates, the same at every g and K), so c_b falls from {} to {} flits per cycle and the injection link rises by {}, {} and {} cycles at K = 2, 4 and 14;",
        db[0],
        cb[0].0,
        cb[0].1,
        rise("2:373.6"),
        rise("4:773.6"),
        rise("14:2773.6")
    ));
    for p in ["1:173.6", "1:148.8", "1:97.6"] {
        assert_eq!(pt(p)["injection_first_cycles"], pt(p)["injection_chained_cycles"], "{p}: K = 1 changed");
    }
    let moves: Vec<f64> = all.iter().flat_map(|r| [f(r, "tandem_chained_cycles") - f(r, "tandem_first_cycles"), f(r, "held_chained_cycles") - f(r, "held_first_cycles")]).collect();
    let most = moves.iter().cloned().fold(0.0, f64::max);
    has(format!("Both rows move by at most {most:.2} cycles, each under a tenth of the sweep's 95 % half-width"));
    for r in &all {
        let ci = f(r, "sim_total_ci95_cycles");
        for (first, chained) in [("tandem_first_cycles", "tandem_chained_cycles"), ("held_first_cycles", "held_chained_cycles")] {
            assert!(f(r, chained) - f(r, first) < 0.1 * ci, "{}: {chained} moves a tenth of the interval", r["point"]);
        }
    }
    // The holds against the measured allocations plus one cycle.
    let holds = read_csv(HOLDS);
    let range = |points: &[&str], c: &str| -> (f64, f64) {
        holds.iter().filter(|r| points.contains(&r["point"].as_str())).map(|r| f(r, c)).fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)))
    };
    let diff = |points: &[&str]| -> (f64, f64) {
        holds.iter().filter(|r| points.contains(&r["point"].as_str())).map(|r| f(r, "model_chained_cycles") - f(r, "measured_cycles")).fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)))
    };
    let g33p = ["1:173.6", "2:373.6", "4:773.6", "14:2773.6"];
    let (m33, c33, d33) = (range(&g33p, "measured_cycles"), range(&g33p, "model_chained_cycles"), diff(&g33p));
    assert!(m33.0 > 33.0 && range(&g33p, "model_first_cycles") == (33.0, 33.0), "the first order's hold is not below every measured one");
    has(format!(
        "At g = 33 the measured {:.4}–{:.4} cycles exceed the first order's 33 on every hop link and lie {} to {} cycles from the chained {:.4}–{:.4};",
        m33.0,
        m33.1,
        signed(d33.0, 2),
        signed(d33.1, 2),
        c33.0,
        c33.1
    ));
    let (m64, m128, d64, d128) = (range(&["1:148.8"], "measured_cycles"), range(&["1:97.6"], "measured_cycles"), diff(&["1:148.8"]), diff(&["1:97.6"]));
    has(format!(
        "at g = 64 ({:.4}–{:.4}) and g = 128 ({:.4}–{:.4}) the chained holds are {:.2}–{:.2} and {:.2}–{:.2} cycles above the lower bound",
        m64.0, m64.1, m128.0, m128.1, d64.0, d64.1, d128.0, d128.1
    ));
}

//! "Why the DMP model is below the simulated tail (issue 22)" tied to the
//! committed `experiments/results/dmp_vc_wait_{np,cube6_2hop,cube6_5hop}/
//! dmp_vc_wait.csv` of the `dmp_vc_wait` example: every table cell from
//! the cell it was copied from, and the prose's ratios, percentages and
//! ranges recomputed from those cells.

use super::*;
use l3_span::row;
use l3_ties::range;
use models::Derived;

const NP: &str = "experiments/results/dmp_vc_wait_np/dmp_vc_wait.csv";
const HOP2: &str = "experiments/results/dmp_vc_wait_cube6_2hop/dmp_vc_wait.csv";
const HOP5: &str = "experiments/results/dmp_vc_wait_cube6_5hop/dmp_vc_wait.csv";
const ALL: &str = "experiments/results/dmp_vc_wait_cube6/dmp_vc_wait.csv";
const VCQ: &str = "experiments/results/model_fig7_000_cube6_vcq/results.csv";
const NP_LOADS: [&str; 4] = ["0.002", "0.004", "0.006", "0.010"];
const CUBE_LOADS: [&str; 4] = ["0.0015", "0.003", "0.0045", "0.006"];
const R1: &str = "2";
const R2: &str = "1";

/// The example's point of a table column (R1+R2 messages per cycle).
fn point(load: &str) -> &'static str {
    match load {
        "0.002" => "0.384:0.064:0.32",
        "0.004" => "0.448:0.128:0.32",
        "0.006" => "0.512:0.192:0.32",
        "0.010" => "0.64:0.32:0.32",
        "0.0015" => "0.112:0.048:0.064",
        "0.003" => "0.16:0.096:0.064",
        "0.0045" => "0.208:0.144:0.064",
        "0.006c" => "0.256:0.192:0.064",
        _ => panic!("no point {load}"),
    }
}

/// A cell of `csv` at a table column, class and deadline.
fn cell(csv: &str, load: &str, class: &str, deadline: &str, column: &str) -> f64 {
    // The cube's 0.006 is another point than the single router's.
    let key = if csv == NP { load.to_string() } else if load == "0.006" { "0.006c".into() } else { load.to_string() };
    let table = read_csv(csv);
    let r = table
        .iter()
        .find(|r| r["point"] == point(&key) && r["class"] == class && r["deadline"] == deadline)
        .unwrap_or_else(|| panic!("{csv}: no row {load} {class} {deadline}"));
    r[column].parse().unwrap_or_else(|e| panic!("{csv} {load} {class} {deadline} {column}: {e}"))
}

fn np(class: &'static str, column: &'static str) -> impl Fn(&'static str) -> f64 {
    move |l| cell(NP, l, class, "42", column)
}

/// Each derived number.
fn derived_and_errors() -> (Vec<Derived>, Vec<String>) {
    let (mut v, mut e) = (Vec::new(), Vec::new());
    let n = &NP_LOADS;
    let c = &CUBE_LOADS;
    let at = |csv: &'static str, class: &'static str, d: &'static str, column: &'static str| move |l| Some(cell(csv, l, class, d, column));
    row("| R1, sim | 0.0472 | 0.1233 | 0.1687 | 0.4041 |", n, at(NP, R1, "42", "sim"), &mut v, &mut e);
    row("| R1, sim, L − W | 0.0144 | 0.0624 | 0.0771 | 0.2964 |", n, at(NP, R1, "42", "sim_less_wait"), &mut v, &mut e);
    row("| R1, model | 0.0256 | 0.0521 | 0.0765 | 0.1340 |", n, at(NP, R1, "42", "model"), &mut v, &mut e);
    row("| R1, model + VC queue | 0.0450 | 0.0929 | 0.1405 | 0.2579 |", n, at(NP, R1, "42", "model_vcq"), &mut v, &mut e);
    row("| R2, sim | 0.1037 | 0.1673 | 0.2777 | 0.3019 |", n, at(NP, R2, "42", "sim"), &mut v, &mut e);
    row("| R2, sim, L − W | 0.0890 | 0.1325 | 0.2338 | 0.2098 |", n, at(NP, R2, "42", "sim_less_wait"), &mut v, &mut e);
    row("| R2, model | 0.0698 | 0.1317 | 0.1918 | 0.2929 |", n, at(NP, R2, "42", "model"), &mut v, &mut e);
    row("| R2, model + VC queue | 0.0816 | 0.1589 | 0.2389 | 0.3824 |", n, at(NP, R2, "42", "model_vcq"), &mut v, &mut e);
    row("| R1, mean W, sim (cycles) | 0.713 | 1.472 | 2.352 | 4.449 |", n, at(NP, R1, "42", "wait_mean"), &mut v, &mut e);
    row("| R1, mean W, M/D/1 at the measured ρ | 0.702 | 1.478 | 2.321 | 4.374 |", n, at(NP, R1, "42", "md1_mean"), &mut v, &mut e);
    row("| R1, P{W > 0}, sim | 0.0459 | 0.0863 | 0.1281 | 0.2102 |", n, at(NP, R1, "42", "wait_p0"), &mut v, &mut e);
    row("| R1, measured ρ (M/D/1's P{W > 0}) | 0.0424 | 0.0849 | 0.1273 | 0.2141 |", n, at(NP, R1, "42", "vc_rho"), &mut v, &mut e);
    row("| R1, P{W > 20}, sim | 0.0158 | 0.0328 | 0.0530 | 0.0955 |", n, at(NP, R1, "42", "wait_p20"), &mut v, &mut e);
    row("| R1, P{W > 20}, M/D/1 | 0.0165 | 0.0348 | 0.0546 | 0.1020 |", n, at(NP, R1, "42", "md1_p20"), &mut v, &mut e);
    row("| R2, mean W, sim (cycles) | 0.349 | 0.975 | 1.547 | 3.486 |", n, at(NP, R2, "42", "wait_mean"), &mut v, &mut e);
    row("| R2, mean W, M/D/1 at the measured ρ | 0.377 | 0.845 | 1.397 | 2.997 |", n, at(NP, R2, "42", "md1_mean"), &mut v, &mut e);
    for (csv, d, hops, rows) in [
        (HOP2, "55", "2-hop", [
            "| 2-hop R1, sim | 0.0562 | 0.1145 | 0.1341 | 0.2066 |",
            "| 2-hop R1, sim, L − W | 0.0246 | 0.0494 | 0.0493 | 0.0907 |",
            "| 2-hop R1, model | 0.0170 | 0.0347 | 0.0509 | 0.0686 |",
            "| 2-hop R1, model + VC queue | 0.0811 | 0.1611 | 0.2373 | 0.3138 |",
            "| 2-hop R2, sim | 0.1007 | 0.1801 | 0.2967 | 0.3624 |",
            "| 2-hop R2, sim, L − W | 0.0846 | 0.1507 | 0.2570 | 0.3065 |",
            "| 2-hop R2, model | 0.0508 | 0.0972 | 0.1438 | 0.1841 |",
            "| 2-hop R2, model + VC queue | 0.0855 | 0.1695 | 0.2576 | 0.3369 |",
        ]),
        (HOP5, "70", "5-hop", [
            "| 5-hop R1, sim | 0.0623 | 0.1337 | 0.1604 | 0.2504 |",
            "| 5-hop R1, sim, L − W | 0.0202 | 0.0582 | 0.0629 | 0.1193 |",
            "| 5-hop R1, model | 0.0171 | 0.0349 | 0.0517 | 0.0706 |",
            "| 5-hop R1, model + VC queue | 0.1342 | 0.2586 | 0.3707 | 0.4751 |",
            "| 5-hop R2, sim | 0.1160 | 0.2153 | 0.3440 | 0.4187 |",
            "| 5-hop R2, sim, L − W | 0.0967 | 0.1862 | 0.2923 | 0.3566 |",
            "| 5-hop R2, model | 0.0508 | 0.0973 | 0.1440 | 0.1845 |",
            "| 5-hop R2, model + VC queue | 0.1147 | 0.2269 | 0.3418 | 0.4426 |",
        ]),
    ] {
        let columns = ["sim", "sim_less_wait", "model", "model_vcq"];
        for (k, passage) in rows.into_iter().enumerate() {
            assert!(passage.starts_with(&format!("| {hops} ")), "{passage}");
            let class = if k < 4 { R1 } else { R2 };
            row(passage, c, at(csv, class, d, columns[k % 4]), &mut v, &mut e);
        }
    }
    row("| 5-hop R1, mean W, sim (cycles) | 1.032 | 2.040 | 2.780 | 4.395 |", c, at(HOP5, R1, "70", "wait_mean"), &mut v, &mut e);
    row("| 5-hop R2, mean W, sim (cycles) | 0.517 | 1.045 | 1.885 | 2.879 |", c, at(HOP5, R2, "70", "wait_mean"), &mut v, &mut e);

    let d = |passage, written, value| Derived { passage, written, value };
    let ratio = |csv: &'static str, class: &'static str, dl: &'static str, a: &'static str, b: &'static str| move |l| cell(csv, l, class, dl, a) / cell(csv, l, class, dl, b);
    let off = |a: &'static str, b: &'static str| move |l| 100.0 * (np(R1, a)(l) / np(R1, b)(l) - 1.0).abs();
    // The M/D/1 comparison.
    let p = "is within 1.7 % of the M/D/1 mean at the measured ρ at all four loads,";
    v.push(d(p, "1.7", range(n, off("wait_mean", "md1_mean")).1));
    let p = "P{W > 0} and P{W > 20} within 8.3 % and 6.4 % of its values; R2's mean is";
    v.extend([d(p, "8.3", range(n, off("wait_p0", "vc_rho")).1), d(p, "6.4", range(n, off("wait_p20", "md1_p20")).1)]);
    let (lo, hi) = range(n, ratio(NP, R2, "42", "wait_mean", "md1_mean"));
    let p = "0.93 to 1.16 times it. So the queue for the one VC per class that";
    v.extend([d(p, "0.93", lo), d(p, "1.16", hi)]);
    // R1 without the wait.
    let upto = &NP_LOADS[..3];
    let (lo, hi) = range(upto, ratio(NP, R1, "42", "sim_less_wait", "model"));
    let p = "tail is 0.56 to 1.20 times the model's up to 0.006 (with it 1.84 to";
    v.extend([d(p, "0.56", lo), d(p, "1.20", hi), d(p, "1.84", range(upto, ratio(NP, R1, "42", "sim", "model")).0)]);
    let p = "2.37 times; at 0.010 2.21 against 3.02 times). In the 6-cube it is 0.97";
    v.extend([
        d(p, "2.37", range(upto, ratio(NP, R1, "42", "sim", "model")).1),
        d(p, "2.21", ratio(NP, R1, "42", "sim_less_wait", "model")("0.010")),
        d(p, "3.02", ratio(NP, R1, "42", "sim", "model")("0.010")),
        d(p, "0.97", range(c, ratio(HOP2, R1, "55", "sim_less_wait", "model")).0),
    ]);
    let p = "to 1.45 times the model's for 2 hops and 1.18 to 1.69 times for 5 hops,";
    let (lo5, hi5) = range(c, ratio(HOP5, R1, "70", "sim_less_wait", "model"));
    v.extend([d(p, "1.45", range(c, ratio(HOP2, R1, "55", "sim_less_wait", "model")).1), d(p, "1.18", lo5), d(p, "1.69", hi5)]);
    let p = "where with W it is 2.63 to 3.31 and 3.10 to 3.83 times.";
    let (lo2, hi2) = range(c, ratio(HOP2, R1, "55", "sim", "model"));
    let (lo5, hi5) = range(c, ratio(HOP5, R1, "70", "sim", "model"));
    v.extend([d(p, "2.63", lo2), d(p, "3.31", hi2), d(p, "3.10", lo5), d(p, "3.83", hi5)]);
    // The variant on the single router.
    let p = "`model + VC queue` row is 0.64 to 0.95 times the simulated R1 tail and";
    let (lo, hi) = range(n, ratio(NP, R1, "42", "model_vcq", "sim"));
    v.extend([d(p, "0.64", lo), d(p, "0.95", hi)]);
    let p = "0.79 to 1.27 times R2's, where the model is 1.03 to 3.02 times below.";
    let (lo, hi) = range(n, ratio(NP, R2, "42", "model_vcq", "sim"));
    let both = |l| [ratio(NP, R1, "42", "sim", "model")(l), ratio(NP, R2, "42", "sim", "model")(l)];
    let below = n.iter().flat_map(|&l| both(l)).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    v.extend([d(p, "0.79", lo), d(p, "1.27", hi), d(p, "1.03", below.0), d(p, "3.02", below.1)]);
    // R2 in the cube.
    let share = |csv: &'static str, dl: &'static str| move |l| 100.0 * (1.0 - cell(csv, l, R2, dl, "sim_less_wait") / cell(csv, l, R2, dl, "sim"));
    let (a2, b2) = range(c, share(HOP2, "55"));
    let (a5, b5) = range(c, share(HOP5, "70"));
    let p = "- **R2's remaining gap in the cube.** W carries only 13 % to 17 % of R2's";
    v.extend([d(p, "13", a2.min(a5)), d(p, "17", b2.max(b5))]);
    let (a2, b2) = range(c, ratio(HOP2, R2, "55", "sim_less_wait", "model"));
    let (a5, b5) = range(c, ratio(HOP5, R2, "70", "sim_less_wait", "model"));
    let p = "2- and 5-hop tail; without it R2 is still 1.55 to 2.03 times the model's";
    v.extend([d(p, "1.55", a2.min(a5)), d(p, "2.03", b2.max(b5))]);
    let p = "value (single router: 0.72 to 1.28 times). Its cause is not measured";
    let (lo, hi) = range(n, ratio(NP, R2, "42", "sim_less_wait", "model"));
    v.extend([d(p, "0.72", lo), d(p, "1.28", hi)]);
    // The cube variant.
    let p = "- **The cube variant overshoots R1.** `kim2005_cube_vcq` is 1.41 to 1.77";
    let (lo, hi) = range(c, ratio(HOP2, R1, "55", "model_vcq", "sim"));
    v.extend([d(p, "1.41", lo), d(p, "1.77", hi)]);
    let p = "times the simulated 2-hop R1 tail and 1.90 to 2.31 times the 5-hop one";
    let (lo, hi) = range(c, ratio(HOP5, R1, "70", "model_vcq", "sim"));
    v.extend([d(p, "1.90", lo), d(p, "2.31", hi)]);
    let p = "(R2 0.85 to 1.06 times); why its per-hop M/D/1 waits are too large for R1";
    let (a2, b2) = range(c, ratio(HOP2, R2, "55", "model_vcq", "sim"));
    let (a5, b5) = range(c, ratio(HOP5, R2, "70", "model_vcq", "sim"));
    v.extend([d(p, "0.85", a2.min(a5)), d(p, "1.06", b2.max(b5))]);
    // The cube variant's mean wait against the measured one.
    let over = |column: &'static str, class: &'static str| {
        move |l: &'static str| {
            let pt = point(if l == "0.006" { "0.006c" } else { l });
            let m = |source: &'static str| models::cell_value(VCQ, models::sel(&[("source", source), ("workload.load+workload.mix", pt)]), column).unwrap_or_else(|e| panic!("{e}"));
            (m("model:kim2005_cube_vcq") - m("model:kim2005_cube")) / cell(ALL, l, class, "55", "wait_mean")
        }
    };
    let p = "--deadline 55`, `model_fig7_000_cube6_vcq`) is 3.00 to 3.33 times the";
    let (lo, hi) = range(c, over("class2_network_latency_cycles", R1));
    v.extend([d(p, "3.00", lo), d(p, "3.33", hi)]);
    let p = "measured mean W (`dmp_vc_wait_cube6`) for R1 and 3.38 to 3.75 times for";
    let (lo, hi) = range(c, over("rt_network_latency_cycles", R2));
    v.extend([d(p, "3.38", lo), d(p, "3.75", hi)]);
    // The runs' `sim` rows repeat the DMPs quoted in the earlier sections.
    for (load, quoted) in [("0.002", 0.047), ("0.004", 0.123), ("0.006", 0.169)] {
        if (cell(NP, load, R1, "42", "sim") - quoted).abs() > 0.0005 {
            e.push(format!("dmp_vc_wait_np R1 at {load}: {} where the one-VC-per-class section quotes {quoted}", cell(NP, load, R1, "42", "sim")));
        }
    }
    (v, e)
}

/// The census ties of the section's numbers.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    l3_ties::ties_of(derived_and_errors().0)
}

#[test]
fn dmp_vc_wait_section_follows_from_the_committed_csvs() {
    let (derived, mut errors) = derived_and_errors();
    errors.extend(models::check_derived(&derived));
    assert!(errors.is_empty(), "{} numbers of \"Why the DMP model is below the simulated tail\" disagree with their data:\n{}", errors.len(), errors.join("\n"));
}

//! "The cube VC-queue row from the model: `kim2005_cube_vcq_ports` (issue
//! 22)" tied to the committed `experiments/results/model_fig7_000_cube6_
//! vcq_ports_{2hop,5hop}/{dmp,latency_parts}.csv` (`wormqos model
//! --vc-queue`) beside the simulated `dmp_vc_wait_cube6_{2,5}hop` and
//! `cube_vcq_hops` CSVs: every table cell from the cell it was copied from
//! or computed from, the row's holds from the library, and the section's
//! stated bounds held on the committed data.

use super::*;
use l3_span::row;
use l3_ties::range;
use cube_vcq_hops::{cell, point};
use models::Derived;
use wormqos_netsim::analytic::cube_vcq_ports::PortQueues;
use wormqos_netsim::analytic::kim2005::RouterModel;
use wormqos_netsim::analytic::kim2005_cube::CubeModel;
use wormqos_netsim::workload::realtime_vtick;

const MODEL2: &str = "experiments/results/model_fig7_000_cube6_vcq_ports_2hop";
const MODEL5: &str = "experiments/results/model_fig7_000_cube6_vcq_ports_5hop";
const SIM2: &str = "experiments/results/dmp_vc_wait_cube6_2hop/dmp_vc_wait.csv";
const SIM5: &str = "experiments/results/dmp_vc_wait_cube6_5hop/dmp_vc_wait.csv";
const WAITS: &str = "experiments/results/cube_vcq_hops/waits.csv";
const HOPS: &str = "experiments/results/cube_vcq_hops/hops.csv";
const LOADS: [&str; 4] = ["0.0015", "0.003", "0.0045", "0.006"];
const LINKS: [&str; 7] = ["hop0", "hop1", "hop2", "hop3", "hop4", "hop5", "ejection"];
const R1: &str = "2";
/// The bounds `cube_vcq_ports_within_its_stated_bounds` holds (percent):
/// R1's tails, R1's mean wait at the two lighter loads and at the others.
const TAIL_BOUND: f64 = 20.0;
const WAIT_BOUND_LIGHT: f64 = 5.0;
const WAIT_BOUND_HEAVY: f64 = 25.0;
const LIGHT: [&str; 2] = ["0.0015", "0.003"];
const HEAVY: [&str; 2] = ["0.0045", "0.006"];
pub(super) const R2: &str = "1";
const PORTS: &str = "model:kim2005_cube_vcq_ports";
const BASE: &str = "model:kim2005_cube";

/// The h-hop run's directory and deadline of the tables (Fig. 14's first).
fn run(h: &str) -> (&'static str, &'static str, &'static str) {
    if h == "2" { (MODEL2, SIM2, "55") } else { (MODEL5, SIM5, "70") }
}

/// P{L > D} of `source` (model) for h-hop messages at the table's deadline
/// or at `deadline`.
fn model_miss(source: &str, h: &str, load: &str, class: &str, deadline: &str) -> f64 {
    let dir = run(h).0;
    let pt = format!("workload.load+workload.mix={}", point(load));
    cell(&format!("{dir}/dmp.csv"), &[("source", source), ("point", &pt), ("class", class), ("deadline_cycles", deadline)], "miss_probability")
}

fn sim_miss(h: &str, load: &str, class: &str, deadline: &str) -> f64 {
    cell(run(h).1, &[("point", point(load)), ("class", class), ("deadline", deadline)], "sim")
}

/// The row's mean wait per message: its network latency less the base
/// row's (`with_vc_queue` adds the mean wait over all messages).
fn model_wait(dir: &str, load: &str, class: &str) -> f64 {
    let pt = format!("workload.load+workload.mix={}", point(load));
    let nl = |source: &str| cell(&format!("{dir}/latency_parts.csv"), &[("source", source), ("point", &pt), ("class", class)], "network_latency_cycles");
    nl(PORTS) - nl(BASE)
}

/// The measured hold of a link's VC at 0.006 (`cube_vcq_hops`).
pub(super) fn run_hold_at(class: &str, link: &str) -> f64 {
    cell(HOPS, &[("point", point("0.006")), ("class", class), ("link", link)], "hold")
}

fn measured_wait(load: &str, class: &str) -> f64 {
    cell(WAITS, &[("point", point(load)), ("class", class)], "vc_wait_mean")
}

/// The model of fig7_000_cube6.toml at a load (R1 = ⅔ of R1 + R2, best
/// effort 0.002, 32-flit messages and buffers, Vtick = 1/(λM) rounded to
/// whole cycles as the simulator and `wormqos model` round it), solved.
pub(super) fn queues(load: &str, class: &str) -> PortQueues {
    let rt: f64 = load.parse().unwrap();
    let mut router = RouterModel::table1(rt * 2.0 / 3.0, rt / 3.0, 0.002);
    router.vticks = router.rt_rates.iter().map(|&r| realtime_vtick(1.0, r, 32, u32::MAX) as f64).collect();
    let model = CubeModel { n: 6, router };
    let sol = model.solve().unwrap();
    PortQueues::of(&model, &sol, if class == R1 { 0 } else { 1 })
}

fn pct(model: f64, sim: f64) -> f64 {
    100.0 * (model / sim - 1.0)
}

/// Each derived number, and the data that disagree.
fn derived_and_errors() -> (Vec<Derived>, Vec<String>) {
    let (mut v, mut e) = (Vec::new(), Vec::new());
    let c = &LOADS;
    let mw = |class: &'static str| move |l| Some(model_wait(MODEL2, l, class));
    let sw = |class: &'static str| move |l| Some(measured_wait(l, class));
    let ew = |class: &'static str| move |l| Some(pct(model_wait(MODEL2, l, class), measured_wait(l, class)));
    row("| R1, W, measured (cycles) | 0.841 | 1.765 | 2.544 | 3.646 |", c, sw(R1), &mut v, &mut e);
    row("| R1, `kim2005_cube_vcq_ports` | 0.815 | 1.800 | 2.952 | 4.423 |", c, mw(R1), &mut v, &mut e);
    row("| R1, error | −3 % | +2 % | +16 % | +21 % |", c, ew(R1), &mut v, &mut e);
    row("| R2, W, measured (cycles) | 0.418 | 1.032 | 1.714 | 2.627 |", c, sw(R2), &mut v, &mut e);
    row("| R2, `kim2005_cube_vcq_ports` | 0.592 | 1.689 | 3.775 | 6.540 |", c, mw(R2), &mut v, &mut e);
    row("| R2, error | +42 % | +64 % | +120 % | +149 % |", c, ew(R2), &mut v, &mut e);

    let sim = |h: &'static str, class: &'static str| move |l| Some(sim_miss(h, l, class, run(h).2));
    let model = |h: &'static str, class: &'static str| move |l| Some(model_miss(PORTS, h, l, class, run(h).2));
    let err = |h: &'static str, class: &'static str| move |l| Some(pct(model_miss(PORTS, h, l, class, run(h).2), sim_miss(h, l, class, run(h).2)));
    let tables: [(&str, &str, [&'static str; 3]); 4] = [
        ("2", R1, ["| 2-hop R1, P{L > 55}, sim | 0.0562 | 0.1145 | 0.1341 | 0.2066 |", "| 2-hop R1, `kim2005_cube_vcq_ports` | 0.0480 | 0.0987 | 0.1492 | 0.2044 |", "| 2-hop R1, error | −15 % | −14 % | +11 % | −1 % |"]),
        ("2", R2, ["| 2-hop R2, P{L > 55}, sim | 0.1007 | 0.1801 | 0.2967 | 0.3624 |", "| 2-hop R2, `kim2005_cube_vcq_ports` | 0.0702 | 0.1430 | 0.2248 | 0.3007 |", "| 2-hop R2, error | −30 % | −21 % | −24 % | −17 % |"]),
        ("5", R1, ["| 5-hop R1, P{L > 70}, sim | 0.0623 | 0.1337 | 0.1604 | 0.2504 |", "| 5-hop R1, `kim2005_cube_vcq_ports` | 0.0555 | 0.1136 | 0.1711 | 0.2331 |", "| 5-hop R1, error | −11 % | −15 % | +7 % | −7 % |"]),
        ("5", R2, ["| 5-hop R2, P{L > 70}, sim | 0.1160 | 0.2153 | 0.3440 | 0.4187 |", "| 5-hop R2, `kim2005_cube_vcq_ports` | 0.0747 | 0.1525 | 0.2400 | 0.3206 |", "| 5-hop R2, error | −36 % | −29 % | −30 % | −23 % |"]),
    ];
    for (h, class, [s, m, r]) in tables {
        let (h, class): (&'static str, &'static str) = (if h == "2" { "2" } else { "5" }, if class == R1 { R1 } else { R2 });
        row(s, c, sim(h, class), &mut v, &mut e);
        row(m, c, model(h, class), &mut v, &mut e);
        row(r, c, err(h, class), &mut v, &mut e);
    }

    // The holds link by link at 0.006, the row's from the library.
    let links = &LINKS;
    let index = |link: &str| LINKS.iter().position(|&k| k == link).unwrap();
    let sim_hold = |class: &'static str| move |k: &'static str| Some(cell(HOPS, &[("point", point("0.006")), ("class", class), ("link", k)], "hold"));
    let model_hold = |class: &'static str| move |k: &'static str| Some(queues("0.006", class).holds()[index(k)]);
    row("| R1, hold, sim | 32.0 | 32.1 | 32.2 | 32.4 | 32.5 | 32.7 | 32.8 |", links, sim_hold(R1), &mut v, &mut e);
    row("| R1, hold, `kim2005_cube_vcq_ports` | 34.3 | 34.9 | 35.5 | 36.0 | 36.5 | 37.0 | 37.5 |", links, model_hold(R1), &mut v, &mut e);
    row("| R2, hold, sim | 36.4 | 36.3 | 36.7 | 37.4 | 38.0 | 38.7 | 39.3 |", links, sim_hold(R2), &mut v, &mut e);
    row("| R2, hold, `kim2005_cube_vcq_ports` | 48.5 | 52.1 | 55.6 | 58.9 | 62.1 | 65.1 | 68.2 |", links, model_hold(R2), &mut v, &mut e);

    // The prose.
    let d = |passage, written, value| Derived { passage, written, value };
    let err_range = |h: &'static str, class: &'static str| range(c, move |l| pct(model_miss(PORTS, h, l, class, run(h).2), sim_miss(h, l, class, run(h).2)));
    let p = "−15 to +11 % off the simulated 2-hop ones (D = 55) and −15 to +7 % off";
    let ((a, b), (a5, b5)) = (err_range("2", R1), err_range("5", R1));
    v.extend([d(p, "−15", a), d(p, "+11", b), d(p, "−15", a5), d(p, "+7", b5)]);
    let p = "the 5-hop ones (D = 70), where `kim2005_cube` is 2.64 to 3.83 times below them";
    let base = |h: &'static str| range(c, move |l| sim_miss(h, l, R1, run(h).2) / model_miss(BASE, h, l, R1, run(h).2));
    let ((a, b), (a5, b5)) = (base("2"), base("5"));
    v.extend([d(p, "2.64", a.min(a5)), d(p, "3.83", b.max(b5))]);
    let p = "- Why Eqs (6)–(8)'s S̄ gives R2's body 3.8 times the delay the injection";
    v.push(d(p, "3.8", 32.0 * (queues("0.006", R2).ejection_cycles_per_flit - 1.0) / (run_hold_at(R2, "hop0") - 32.0)));
    let p = "and `kim2005_cube_vcq` up to 2.31 times above (the tables above). R1's";
    let vcq = |h: &'static str| range(c, move |l| model_miss("model:kim2005_cube_vcq", h, l, R1, run(h).2) / sim_miss(h, l, R1, run(h).2)).1;
    v.push(d(p, "2.31", vcq("2").max(vcq("5"))));
    let p = "mean wait is within 5 % at the two lighter loads and 16 % and 21 % above";
    let wait_err = |l| pct(model_wait(MODEL2, l, R1), measured_wait(l, R1));
    if wait_err(LIGHT[0]).abs().max(wait_err(LIGHT[1]).abs()) > WAIT_BOUND_LIGHT {
        e.push("R1's mean wait is not within 5 % at 0.0015 and 0.003".into());
    }
    v.push(d(p, "5", WAIT_BOUND_LIGHT));
    v.extend([d(p, "16", wait_err("0.0045")), d(p, "21", wait_err("0.006"))]);
    let holds = |class: &'static str, f: &dyn Fn(&'static str, &'static str) -> f64| LINKS.iter().map(|&k| f(class, k)).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let lib_hold = |class: &'static str, k: &'static str| queues("0.006", class).holds()[index(k)];
    let run_hold = |class: &'static str, k: &'static str| cell(HOPS, &[("point", point("0.006")), ("class", class), ("link", k)], "hold");
    let p = "34.3 to 37.5 cycles at 0.006, where the router holds it 32.0 to 32.8:";
    let ((a, b), (a2, b2)) = (holds(R1, &lib_hold), holds(R1, &run_hold));
    v.extend([d(p, "34.3", a), d(p, "37.5", b), d(p, "32.0", a2), d(p, "32.8", b2)]);
    let p = "hold, the same queue form gives 0.91 to 0.98 times the measured R1 wait";
    let (a, b) = range(c, |l| cell(WAITS, &[("point", point(l)), ("class", R1)], "mg1_other_ports") / measured_wait(l, R1));
    v.extend([d(p, "0.91", a), d(p, "0.98", b)]);
    let p = "- **R2: the row fails.** Its mean wait is 1.42 to 2.49 times the measured";
    let (a, b) = range(c, |l| model_wait(MODEL2, l, R2) / measured_wait(l, R2));
    v.extend([d(p, "1.42", a), d(p, "2.49", b)]);
    let p = "one and its tails 17 to 36 % below the simulated ones. The wait is too";
    let below = |h: &'static str| range(c, move |l| -pct(model_miss(PORTS, h, l, R2, run(h).2), sim_miss(h, l, R2, run(h).2)));
    let ((a, b), (a5, b5)) = (below("2"), below("5"));
    v.extend([d(p, "17", a.min(a5)), d(p, "36", b.max(b5))]);
    let p = "large because the hold is: 48.5 to 68.2 cycles at 0.006 against the";
    let (a, b) = holds(R2, &lib_hold);
    v.extend([d(p, "48.5", a), d(p, "68.2", b)]);
    let p = "measured 36.3 to 39.3. Eqs (6)–(8) give R2 S̄_{c,n} = 1.51 cycles per";
    let (a, b) = holds(R2, &run_hold);
    v.extend([d(p, "36.3", a), d(p, "39.3", b), d(p, "1.51", queues("0.006", R2).ejection_cycles_per_flit)]);
    let p = "flit, a body delay of 16.5 cycles on the injection link, where the";
    v.push(d(p, "16.5", 32.0 * (queues("0.006", R2).ejection_cycles_per_flit - 1.0)));
    let p = "4.4 cycles over M. The tail is too low all the same: R2's tail is its";
    v.push(d(p, "4.4", run_hold(R2, "hop0") - 32.0));

    // The bounds the test holds, as the prose states them.
    let load = |l: &str| l.parse::<f64>().unwrap();
    let p = "  the measured at 0.0045 and 0.006. Test `cube_vcq_ports_within_its_stated_bounds`";
    v.extend([d(p, "0.0045", load(HEAVY[0])), d(p, "0.006", load(HEAVY[1]))]);
    let p = "  runs, R1's tails within 20 % at both of Fig. 14's deadlines of each hop";
    v.push(d(p, "20", TAIL_BOUND));
    let p = "  count at every load, and its mean wait within 5 % at 0.0015 and 0.003";
    v.extend([d(p, "5", WAIT_BOUND_LIGHT), d(p, "0.0015", load(LIGHT[0])), d(p, "0.003", load(LIGHT[1]))]);
    let p = "  and within 25 % at 0.0045 and 0.006. These are the four loads of";
    v.extend([d(p, "25", WAIT_BOUND_HEAVY), d(p, "0.0045", load(HEAVY[0])), d(p, "0.006", load(HEAVY[1]))]);
    let p = "  Fig. 7(b); how near saturation 0.006 is was not run.";
    v.push(d(p, "0.006", load(LOADS[3])));
    let p = "  5-hop tails within 20 % of the simulated ones at the four loads. R2's";
    v.push(d(p, "20", TAIL_BOUND));
    // "Not reproduced yet" repeats the R2 range.
    let p = "  tail stays below (17 to 36 % in that row): its body falling behind R1's";
    let ((a, b), (a5, b5)) = (below("2"), below("5"));
    v.extend([d(p, "17", a.min(a5)), d(p, "36", b.max(b5))]);

    // The unit tests' 2-cube, as the section quotes it (the values are
    // computed by hand in `cube_vcq_ports.rs`'s tests; here the library's
    // answers are tied to the quoted digits).
    let two = PortQueues { n: 2, msg_flits: 32.0, rate: 0.004, ejection_cycles_per_flit: 1.1, hop_cycles_per_flit: vec![1.05, 1.2] };
    let p = "cube_vcq_ports`): the 2-cube's holds (35.2, 36.0, 40.53 cycles), mean wait";
    let h = two.holds();
    v.extend([d(p, "35.2", h[0]), d(p, "36.0", h[1]), d(p, "40.53", h[2])]);
    let p = "(2.3801674) and a 2-hop path's P{W = 0} (0.901653); the 1-cube never";
    v.extend([d(p, "2.3801674", two.mean_wait().unwrap()), d(p, "0.901653", two.path_wait_pmf(0b11, 60).unwrap()[0])]);

    // The library's model is the CLI's: its mean wait is the committed one.
    for l in LOADS {
        for class in [R1, R2] {
            let (lib, cli) = (queues(l, class).mean_wait().unwrap(), model_wait(MODEL2, l, class));
            if (lib - cli).abs() > 1e-9 * cli.max(1.0) {
                e.push(format!("{l} class {class}: the library's mean wait {lib}, the committed run's {cli}"));
            }
            if (model_wait(MODEL5, l, class) - cli).abs() > 1e-9 {
                e.push(format!("{l} class {class}: the 5-hop run's mean wait differs from the 2-hop run's"));
            }
        }
    }
    (v, e)
}

/// The census ties of the section's numbers.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    l3_ties::ties_of(derived_and_errors().0)
}

#[test]
fn cube_vcq_ports_section_follows_from_the_committed_csvs() {
    let (derived, mut errors) = derived_and_errors();
    errors.extend(models::check_derived(&derived));
    assert!(errors.is_empty(), "{} numbers of \"The cube VC-queue row from the model\" disagree with their data:\n{}", errors.len(), errors.join("\n"));
}

/// The bounds the section states, on the committed runs: R1's deadline
/// missing probability within 20 % of the simulated one for both hop
/// counts and both of Fig. 14's deadlines at every load, and R1's mean VC
/// wait within 25 % at every load and within 5 % at the two lighter ones.
/// R2 is stated to fail (its wait 1.4× to 2.5× too large, its tail below):
/// held here as failing, so that a change that fixes it shows.
#[test]
fn cube_vcq_ports_within_its_stated_bounds() {
    let mut errors = Vec::new();
    for l in LOADS {
        for (h, deadlines) in [("2", ["55", "60"]), ("5", ["70", "75"])] {
            for d in deadlines {
                let (m, s) = (model_miss(PORTS, h, l, R1, d), sim_miss(h, l, R1, d));
                if pct(m, s).abs() > TAIL_BOUND {
                    errors.push(format!("{l}, {h}-hop R1, D = {d}: model {m:.4}, sim {s:.4} ({:+.1} %)", pct(m, s)));
                }
                let (m2, s2) = (model_miss(PORTS, h, l, R2, d), sim_miss(h, l, R2, d));
                if m2 >= s2 {
                    errors.push(format!("{l}, {h}-hop R2, D = {d}: model {m2:.4} not below sim {s2:.4} as the section says"));
                }
            }
        }
        let err = pct(model_wait(MODEL2, l, R1), measured_wait(l, R1));
        let bound = if LIGHT.contains(&l) { WAIT_BOUND_LIGHT } else { WAIT_BOUND_HEAVY };
        if err.abs() > bound {
            errors.push(format!("{l}: R1's mean wait off by {err:+.1} % (bound {bound} %)"));
        }
        let ratio = model_wait(MODEL2, l, R2) / measured_wait(l, R2);
        if !(1.4..2.5).contains(&ratio) {
            errors.push(format!("{l}: R2's mean wait {ratio:.2} times the measured, outside the stated 1.4 to 2.5"));
        }
    }
    assert!(errors.is_empty(), "kim2005_cube_vcq_ports outside its stated bounds:\n{}", errors.join("\n"));
}

//! Where each control message of 003_… Fig. 5 (load 0.8) waited under NP
//! and P (issue 23: "the source share of P's control latency is measured,
//! its cause per message is not traced"; docs/reproduction.md, 003_… Fig. 5).
//!
//! `write_the_control_traces` (ignored, about three minutes) runs NP and P
//! of `experiments/fig5_003.toml` (single pass) and
//! `experiments/fig5_003_iterative.toml` at load 0.8 (and P with
//! `workload.source_vc_choice = "most_credits"`, and P with
//! `router.preemption_credits = "per_lane"`), logs every delivered
//! message ([`Sim::run_logged_all`]) and writes one row per control message
//! created after the warm-up into
//! `experiments/results/fig5_003_control_trace/control.csv`.
//! `the_control_traces_show_the_mechanism` checks what docs/reproduction.md
//! says of them on the committed file and against the committed
//! `phase_latency.csv` of both experiments.

use std::collections::BTreeMap;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

const OUT: &str = "experiments/results/fig5_003_control_trace";
const CONTROL: u8 = 2;
/// 0.07 s phases of 80 ns cycles.
const PHASE: f64 = 0.07 / 80e-9;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const FILES: [(&str, &str); 2] = [("single_pass", "fig5_003"), ("iterative", "fig5_003_iterative")];

fn experiment_text(file: &str, router: &str) -> String {
    let base = std::fs::read_to_string(root().join(format!("experiments/{file}.toml"))).unwrap();
    let mut text = base.split("[sweep]").next().unwrap().replace("load = 0.6", "load = 0.8");
    assert!(text.contains("load = 0.8") && text.contains("mode = \"non_preemptive\"\nvc_ratio = [80, 20, 0]"), "{file} changed");
    if router != "np" {
        text = text.replace("mode = \"non_preemptive\"\nvc_ratio = [80, 20, 0]", "mode = \"preemptive\"");
    }
    if router == "p_lane" {
        // docs/microarchitecture.md §9.4 *Credits*: each lane has its own credits.
        text = text.replace("mode = \"preemptive\"", "mode = \"preemptive\"\npreemption_credits = \"per_lane\"");
        assert!(text.contains("per_lane"), "{file} changed");
    }
    if router == "p_most_credits" {
        text = text.replace("control_flits = 20", "control_flits = 20\nsource_vc_choice = \"most_credits\"");
        assert!(text.contains("most_credits"), "{file} changed");
    }
    text
}

const HEADER: &str = "allocator,router,src,created,phase,vc,prev_class,credits,vcs_held,lower_held,ahead,lower_ahead,queue_wait,vc_wait,link_wait,router_wait";

#[test]
#[ignore]
fn write_the_control_traces() {
    let mut csv = format!("{HEADER}\n");
    for (allocator, file) in FILES {
        for router in ["np", "p", "p_most_credits", "p_lane"] {
            let v = Experiment::from_str(&experiment_text(file, router), "control.toml", root().join("experiments")).unwrap();
            let warmup = v.run_cycles().1;
            let (_, log) = Sim::new(&v).unwrap().run_logged_all().unwrap();
            let mut ctl: Vec<_> = log.iter().filter(|m| m.class == CONTROL && m.created >= warmup).collect();
            ctl.sort_by_key(|m| (m.created, m.src));
            for m in ctl {
                let s = &m.source;
                csv += &format!(
                    "{allocator},{router},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                    m.src,
                    m.created,
                    (m.created as f64 / PHASE) as u64,
                    s.vc,
                    s.prev_class,
                    s.credits,
                    s.vcs_held,
                    s.lower_held,
                    s.ahead,
                    s.lower_ahead,
                    s.started - m.created,
                    m.injected - s.started,
                    s.tail_sent - m.injected,
                    m.delivered - s.tail_sent
                );
            }
        }
    }
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    std::fs::write(root().join(OUT).join("control.csv"), csv).unwrap();
}

fn table(path: &str) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines.map(|l| head.iter().map(|h| h.to_string()).zip(l.split(',').map(str::to_string)).collect()).collect()
}

fn num(row: &BTreeMap<String, String>, column: &str) -> f64 {
    row.get(column).unwrap_or_else(|| panic!("no column {column}")).parse().unwrap()
}

/// Source wait (creation to header injection) and total latency, cycles.
fn source_and_total(r: &BTreeMap<String, String>) -> (f64, f64) {
    let [q, v, l, n] = ["queue_wait", "vc_wait", "link_wait", "router_wait"].map(|k| num(r, k));
    (q + v, q + v + l + n)
}

/// What docs/reproduction.md (003_… Fig. 5, "P's control latency, message
/// by message") says of the committed trace.
#[test]
fn the_control_traces_show_the_mechanism() {
    let rows = table(&format!("{OUT}/control.csv"));
    let of = |allocator: &str, router: &str| rows.iter().filter(|r| r["allocator"] == allocator && r["router"] == router).cloned().collect::<Vec<_>>();
    for (allocator, file) in FILES {
        // The trace is the committed experiment: per phase, its control
        // messages' mean latency and queueing (µs) are phase_latency.csv's.
        let committed = table(&format!("experiments/results/{file}/phase_latency.csv"));
        for (router, point) in [("np", "0.8 non_preemptive"), ("p", "0.8 preemptive")] {
            let mine = of(allocator, router);
            for c in committed.iter().filter(|r| r["point"] == point && r["class"] == "2") {
                let ph: Vec<_> = mine.iter().filter(|r| r["phase"] == c["phase"]).collect();
                assert_eq!(ph.len() as f64, num(c, "messages"), "{file} {point} phase {}", c["phase"]);
                let mean = |k: usize| ph.iter().map(|r| [source_and_total(r).0, source_and_total(r).1][k]).sum::<f64>() / ph.len() as f64 * 0.08;
                assert!((mean(1) - num(c, "latency_us")).abs() < 1e-6, "{file} {point} phase {}: latency {}", c["phase"], mean(1));
                assert!((mean(0) - num(c, "queueing_us")).abs() < 1e-6, "{file} {point} phase {}: queueing {}", c["phase"], mean(0));
            }
        }
        // NP: control has its own VC and never waits at the source.
        assert!(of(allocator, "np").iter().all(|r| source_and_total(r).0 == 0.0), "{allocator}: NP control waited");
        // P: the control messages that wait at the source took a VC with no
        // credit, its router buffer holding at least 38 flits of a lower
        // class, except some that waited only in the queue for an idle VC
        // (none of their wait on the VC); most of the source wait is on
        // that VC, not in the queue for one.
        let p = of(allocator, "p");
        let waited: Vec<_> = p.iter().filter(|r| source_and_total(r).0 > 0.0).collect();
        assert!(!waited.is_empty());
        let is_blocked = |r: &BTreeMap<String, String>| num(r, "credits") == 0.0 && num(r, "lower_ahead") >= 38.0;
        let blocked = waited.iter().filter(|r| is_blocked(r)).count();
        assert!(waited.iter().filter(|r| !is_blocked(r)).all(|r| num(r, "vc_wait") == 0.0), "{allocator}: a control header waited on a VC with credits");
        let on_vc = waited.iter().map(|r| num(r, "vc_wait")).sum::<f64>() / waited.iter().map(|r| source_and_total(r).0).sum::<f64>();
        assert!(on_vc > 0.5, "{allocator}: {on_vc} of the source wait on the VC");
        // The table's numbers, and "right behind the real-time message the
        // source had just sent on that VC".
        let behind_rt = waited.iter().filter(|r| r["prev_class"] == "1").count();
        let quoted = match allocator {
            "single_pass" => (74, 40, 37, 61, 37),
            _ => (74, 11, 11, 90, 11),
        };
        assert_eq!((p.len(), waited.len(), blocked, (on_vc * 100.0).round() as usize, behind_rt), quoted, "{allocator}");
        assert_eq!(of(allocator, "np").len(), 74);
    }
    // Per-lane credits (docs/microarchitecture.md §9.4 *Credits*): no
    // control header waits on its source VC any more (a higher lane always
    // has credits there); what is left of the source wait is the queue for
    // an idle source VC. Quoted: messages that waited, source wait and
    // mean latency (µs) with per-lane and per-VC credits.
    for (allocator, quoted, np_mean) in [("single_pass", (34, 1859.0, 2.01, 23.62, 6916.0, 7.48, 23.12), 3.69), ("iterative", (10, 399.0, 0.43, 5.58, 2986.0, 3.23, 10.20), 1.92)] {
        let lane = of(allocator, "p_lane");
        assert_eq!(lane.len(), 74, "{allocator}");
        assert!(lane.iter().all(|r| num(r, "vc_wait") == 0.0), "{allocator}: a control header waited on its VC with per-lane credits");
        // Every header's lane had all DI = 40 credits when it got its VC.
        assert!(lane.iter().all(|r| num(r, "credits") == 40.0), "{allocator}: a control header's lane was short of credits");
        let sum = |rows: &[BTreeMap<String, String>], k: usize| rows.iter().map(|r| [source_and_total(r).0, source_and_total(r).1][k]).sum::<f64>();
        let mean_us = |rows: &[BTreeMap<String, String>], k: usize| (sum(rows, k) / rows.len() as f64 * 0.08 * 100.0).round() / 100.0;
        let waited = lane.iter().filter(|r| source_and_total(r).0 > 0.0).count();
        let p = of(allocator, "p");
        assert_eq!((waited, sum(&lane, 0), mean_us(&lane, 0), mean_us(&lane, 1)), (quoted.0, quoted.1, quoted.2, quoted.3), "{allocator} per lane");
        assert_eq!((sum(&p, 0), mean_us(&p, 0), mean_us(&p, 1)), (quoted.4, quoted.5, quoted.6), "{allocator} per VC");
        assert_eq!(mean_us(&of(allocator, "np"), 1), np_mean, "{allocator} NP");
    }
    let single = |router: &str| of("single_pass", router).iter().map(|r| source_and_total(r).0).sum::<f64>();
    assert!(single("p_most_credits") < single("p") && single("p_most_credits") > 0.25 * single("p"), "single pass: falls less");
    // The emptiest buffer first (`most_credits`) cuts the iterative
    // router's control source wait to under a quarter, not to zero.
    let total = |router: &str| of("iterative", router).iter().map(|r| source_and_total(r).0).sum::<f64>();
    assert!(total("p_most_credits") < 0.25 * total("p") && total("p_most_credits") > 0.0, "{} vs {}", total("p_most_credits"), total("p"));
}

/// Two-sided 95 % Student t quantiles for 1..=20 degrees of freedom, from
/// a printed table (not the library's), for the half-widths below.
const T95_TABLE: [f64; 20] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086];

/// Lag-1 autocorrelation of consecutive pairs of `residuals` (indices into
/// it), over the sum of all squared residuals.
fn lag1(residuals: &[f64], pairs: &[(usize, usize)]) -> f64 {
    pairs.iter().map(|&(a, b)| residuals[a] * residuals[b]).sum::<f64>() / residuals.iter().map(|r| r * r).sum::<f64>()
}

/// The basis of the control-latency half-widths of docs/reproduction.md's
/// 003_… Fig. 5 tables: per phase, `phase_latency.csv`'s `latency_ci95_us`
/// is the Student t half-width of the traced messages' latencies, and the
/// messages show no serial correlation (what the t interval assumes), in
/// creation order and between a source's consecutive messages.
#[test]
fn the_latency_half_widths_are_t_intervals_of_independent_messages() {
    let rows = table(&format!("{OUT}/control.csv"));
    let (mut in_order, mut by_source) = (Vec::new(), Vec::new());
    for (allocator, file) in FILES {
        let committed = table(&format!("experiments/results/{file}/phase_latency.csv"));
        for (router, point) in [("np", "0.8 non_preemptive"), ("p", "0.8 preemptive")] {
            let mut mine: Vec<_> = rows.iter().filter(|r| r["allocator"] == allocator && r["router"] == router).collect();
            assert_eq!(mine.len(), 74, "{allocator} {router}");
            mine.sort_by_key(|r| num(r, "created") as u64);
            let us = |r: &BTreeMap<String, String>| source_and_total(r).1 * 0.08;
            let mut phase_mean = BTreeMap::new();
            for c in committed.iter().filter(|r| r["point"] == point && r["class"] == "2") {
                let lat: Vec<f64> = mine.iter().filter(|r| r["phase"] == c["phase"]).map(|r| us(r)).collect();
                let n = lat.len() as f64;
                let mean = lat.iter().sum::<f64>() / n;
                let s2 = lat.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
                let half = T95_TABLE[lat.len() - 2] * (s2 / n).sqrt();
                assert!((half - num(c, "latency_ci95_us")).abs() < 1e-6, "{file} {point} phase {}: half-width {half} against {}", c["phase"], c["latency_ci95_us"]);
                phase_mean.insert(c["phase"].clone(), mean);
            }
            let residuals: Vec<f64> = mine.iter().map(|r| us(r) - phase_mean[&r["phase"]]).collect();
            let consecutive: Vec<(usize, usize)> = (1..mine.len()).map(|i| (i - 1, i)).collect();
            let mut same_source = Vec::new();
            let mut last_of: BTreeMap<&str, usize> = BTreeMap::new();
            for (i, r) in mine.iter().enumerate() {
                if let Some(j) = last_of.insert(r["src"].as_str(), i) {
                    same_source.push((j, i));
                }
            }
            assert_eq!(same_source.len(), 74 - 8, "{allocator} {router}: 8 sources");
            in_order.push(lag1(&residuals, &consecutive));
            by_source.push(lag1(&residuals, &same_source));
        }
    }
    let band = 1.96 / 74f64.sqrt();
    assert_eq!(format!("{band:.2}"), "0.23");
    let range = |v: &[f64]| (v.iter().cloned().fold(f64::INFINITY, f64::min), v.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
    let fmt = |(lo, hi): (f64, f64)| format!("{lo:.2} to {hi:.2}");
    // Quoted: "between −0.17 and 0.05 in creation order, and between −0.08
    // and −0.02 across a source's consecutive messages".
    assert_eq!(fmt(range(&in_order)), "-0.17 to 0.05", "{in_order:?}");
    assert_eq!(fmt(range(&by_source)), "-0.08 to -0.02", "{by_source:?}");
    assert!(in_order.iter().chain(&by_source).all(|r| r.abs() < band), "{in_order:?} {by_source:?}");
}

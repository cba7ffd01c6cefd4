//! "Which of P's mechanisms makes its excursions" (issue 23 item 2): every
//! number of that section, formatted here from the committed
//! `experiments/results/fig4_003_excursion_causes/excursion_causes.csv`
//! (written by `sim/netsim/tests/excursion_causes_003.rs`,
//! `summarize_the_excursion_causes`, from the cause-frames of its
//! `write_the_cause_frames_*` runs), must appear in `docs/reproduction.md`
//! as written; the section's verdicts must hold in the file.

use super::rtvcs_8020::grouped;
use super::{read_csv, section_words};

const HEADING: &str = "#### Which of P's mechanisms makes its excursions (issue 23)";
const CSV: &str = "experiments/results/fig4_003_excursion_causes/excursion_causes.csv";

fn has(text: String) {
    assert!(section_words(HEADING).contains(&text), "not in the section: {text:?}");
}

#[test]
fn excursion_causes_section_numbers_follow_from_the_committed_split() {
    let rows = read_csv(CSV);
    let v = |run: &str, stat: &str, key: &str| -> f64 {
        let row = rows.iter().find(|r| r["run"] == run && r["stat"] == stat && r["key"] == key);
        row.unwrap_or_else(|| panic!("{CSV}: no {run} {stat} {key}"))["value"].parse().unwrap()
    };
    let (np, p) = ("np_stag", "p_selfpre_stag");
    let int = |x: f64| grouped(x, 0);
    let one = |x: f64| grouped(x, 1);
    let two = |x: f64| grouped(x, 2);
    let ex = |run: &str, cause: &str, key: &str| v(run, &format!("excess_{cause}"), key);
    let excess = |run: &str, key: &str| v(run, "latency_mean", key) - v(run, "median_latency_mean", key);
    let dummy = |key: &str| ex(p, "queue_holder_dummy", key) + ex(p, "header_dummy", key);
    let queue = |run: &str, key: &str| ["queue_holder_sends", "queue_holder_no_credit", "queue_holder_dummy", "queue_holder_link", "queue_other"].iter().map(|c| ex(run, c, key)).sum::<f64>();
    let mean = |run: &str, cause: &str, phase: u32| v(run, &format!("mean_{cause}"), &format!("phase{phase}"));
    let level = |run: &str, phase: u32| v(run, "latency_mean", &format!("phase{phase}"));
    for run in [np, p] {
        assert_eq!(v(run, "not_last", "all"), 0.0, "{run}");
        for key in ["m0", "records", "top1"] {
            assert!(ex(run, "pipeline", key) < 0.0, "{run} {key}: less pipeline than the median frames");
        }
    }

    has(format!(
        "The {} frames that set the maximum each stream carries into 80:20 (M0) average {} cycles against their streams' median {}; of the {} excess, {} ({}) is the dummy tail: {} cycles queued behind a real-time message on the stream's VC that owed the dummy tail of the best effort it suspended, {} the frame's own message owing it.",
        int(v(p, "frames", "m0")),
        one(v(p, "latency_mean", "m0")),
        one(v(p, "median_latency_mean", "m0")),
        one(excess(p, "m0")),
        one(dummy("m0")),
        two(dummy("m0") / excess(p, "m0")),
        one(ex(p, "queue_holder_dummy", "m0")),
        one(ex(p, "header_dummy", "m0"))
    ));
    has(format!(
        "The {} 80:20 records (its misses): {} against {}, the dummy tail {} of {} ({}); the {} 80:20 frames at or above the phase's 99th percentile ({}): {} against {}, the dummy tail {} of {} ({}), then queueing behind a holder without a credit {} and behind one that lost the link {}.",
        int(v(p, "frames", "records")),
        one(v(p, "latency_mean", "records")),
        one(v(p, "median_latency_mean", "records")),
        one(dummy("records")),
        one(excess(p, "records")),
        two(dummy("records") / excess(p, "records")),
        int(v(p, "frames", "top1")),
        int(v(p, "p99", "phase4")),
        one(v(p, "latency_mean", "top1")),
        one(v(p, "median_latency_mean", "top1")),
        one(dummy("top1")),
        one(excess(p, "top1")),
        two(dummy("top1") / excess(p, "top1")),
        one(ex(p, "queue_holder_no_credit", "top1")),
        one(ex(p, "queue_holder_link", "top1"))
    ));
    let groups = ["m0", "records", "top1"];
    for key in groups {
        assert!(dummy(key) > 0.5 * excess(p, key), "{key}: the dummy tail is not most of P's excess");
    }
    // `grouped` writes no sign of its own below 1,000: the document's minus.
    let three = |cause: &str| groups.map(|k| one(ex(p, cause, k)).replace('-', "−"));
    let [a, b, c] = three("preempted");
    let [d, e, f] = three("vc_wait");
    has(format!("Preemption in the router (a lane suspended by another lane's message) adds {a}, {b} and {c} cycles to the three groups, the VC wait {d}, {e} and {f}."));

    has(format!(
        "Its {} records: {} against {}; of the {} excess, {} in the source queue ({} with the holder's next flit without a credit), {} behind the earlier message in its input lane, {} VC wait. Its {} frames at or above {}: {} against {}, the queue {} of {} ({} with the holder without a credit).",
        int(v(np, "frames", "records")),
        one(v(np, "latency_mean", "records")),
        one(v(np, "median_latency_mean", "records")),
        one(excess(np, "records")),
        one(queue(np, "records")),
        one(ex(np, "queue_holder_no_credit", "records")),
        one(ex(np, "behind_earlier", "records")),
        one(ex(np, "vc_wait", "records")),
        int(v(np, "frames", "top1")),
        int(v(np, "p99", "phase4")),
        one(v(np, "latency_mean", "top1")),
        one(v(np, "median_latency_mean", "top1")),
        one(queue(np, "top1")),
        one(excess(np, "top1")),
        one(ex(np, "queue_holder_no_credit", "top1"))
    ));
    assert!(queue(np, "records") > 0.5 * excess(np, "records") && queue(np, "top1") > 0.5 * excess(np, "top1"));
    assert_eq!((ex(np, "queue_holder_dummy", "records"), ex(np, "header_dummy", "records")), (0.0, 0.0), "NP's sources never preempt");

    let fall = level(p, 4) - level(p, 3);
    let dummy_fall = mean(p, "queue_holder_dummy", 4) + mean(p, "header_dummy", 4) - mean(p, "queue_holder_dummy", 3) - mean(p, "header_dummy", 3);
    has(format!(
        "P's mean L per judged frame falls from {} cycles in 70:30 to {} in 80:20 ({}): queueing behind a holder owing its dummy tail {} → {}, the frame's own {} → {} (together {}), while the crossbar lost rises {} → {}.",
        one(level(p, 3)),
        one(level(p, 4)),
        format!("−{}", one(-fall)),
        one(mean(p, "queue_holder_dummy", 3)),
        one(mean(p, "queue_holder_dummy", 4)),
        one(mean(p, "header_dummy", 3)),
        one(mean(p, "header_dummy", 4)),
        format!("−{}", one(-dummy_fall)),
        one(mean(p, "switch_lost", 3)),
        one(mean(p, "switch_lost", 4))
    ));
    assert!(fall < 0.0 && dummy_fall < fall, "the dummy tail's wait falls by more than the level");
    has(format!(
        "NP's rises from {} to {}, most in queueing behind holders without a credit ({} → {}) and behind the earlier message in the input lane ({} → {}).",
        one(level(np, 3)),
        one(level(np, 4)),
        one(mean(np, "queue_holder_no_credit", 3)),
        one(mean(np, "queue_holder_no_credit", 4)),
        one(mean(np, "behind_earlier", 3)),
        one(mean(np, "behind_earlier", 4))
    ));
}

const SEED2_DIR: &str = "experiments/results/fig4_003_excursion_causes/seed2";

/// The dummy tail split by what it waited for (seeds 1 and 2), its wait per
/// phase from the source's log, and seed 2's groups and 80:20 missing
/// probabilities: every number as written in the section, and the verdicts
/// the text draws from them.
#[test]
fn excursion_causes_dummy_tail_split_follows_from_the_committed_files() {
    let seed1 = read_csv(CSV);
    let seed2 = read_csv(&format!("{SEED2_DIR}/excursion_causes.csv"));
    let (np, p) = ("np_stag", "p_selfpre_stag");
    let one = |x: f64| grouped(x, 1).replace('-', "−");
    let int = |x: f64| grouped(x, 0);
    for (seed, rows) in [(1, &seed1), (2, &seed2)] {
        let v = |run: &str, stat: &str, key: &str| -> f64 {
            let row = rows.iter().find(|r| r["run"] == run && r["stat"] == stat && r["key"] == key);
            row.unwrap_or_else(|| panic!("seed {seed}: no {run} {stat} {key}"))["value"].parse().unwrap()
        };
        let ex = |cause: &str, key: &str| v(p, &format!("excess_{cause}"), key);
        // The dummy tail's parts, the queue's and the header's together.
        let part = |wait: &str, key: &str| ex(&format!("queue_holder_dummy_{wait}"), key) + ex(&format!("header_dummy_{wait}"), key);
        let dummy = |key: &str| ex("queue_holder_dummy", key) + ex("header_dummy", key);
        for (key, name) in [("m0", "M0"), ("records", "The records"), ("top1", "The top 1 %")] {
            let (nc, vcw, sw) = (part("no_credit", key), ex("dummy_lane_vc_wait", key), ex("dummy_lane_switch_lost", key));
            has(format!(
                "{name}: of the dummy tail's {} cycles, {} without a credit in the suspended lane, {} the link, {} its own cycle; in {} of the no-credit cycles best effort in that lane waited for an output VC, in {} it held one and lost the crossbar, {} other.",
                one(dummy(key)),
                one(nc),
                one(part("link", key)),
                one(part("sent", key)),
                one(vcw),
                one(sw),
                one(nc - vcw - sw)
            ));
            assert!(nc > 0.99 * dummy(key), "seed {seed} {key}: the dummy tail is not held by the credit");
            assert!(vcw > 0.8 * nc, "seed {seed} {key}: the lane's best effort is not mostly waiting for an output VC");
            assert_eq!(ex("dummy_lane_output_preempted", key) + ex("dummy_lane_output_full", key), 0.0, "seed {seed} {key}");
        }
        if seed == 1 {
            let ph = |stat: &str, k: u32| v(p, stat, &format!("phase{k}"));
            let share = |k: u32| ph("owing_dummy_tail", k) / ph("rt_messages", k);
            has(format!(
                "Per real-time message that owed a dummy tail, its wait before the header (the source's log) did not fall: {} cycles in 70:30, {} in 80:20, of them {} and {} without a credit. What fell is how many owed one: {} of {} real-time messages ({}) against {} of {} ({}).",
                one(ph("dummy_tail_wait_mean", 3)),
                one(ph("dummy_tail_wait_mean", 4)),
                one(ph("dummy_tail_no_credit_mean", 3)),
                one(ph("dummy_tail_no_credit_mean", 4)),
                int(ph("owing_dummy_tail", 3)),
                int(ph("rt_messages", 3)),
                grouped(share(3), 3),
                int(ph("owing_dummy_tail", 4)),
                int(ph("rt_messages", 4)),
                grouped(share(4), 3)
            ));
            assert!(ph("dummy_tail_wait_mean", 4) >= ph("dummy_tail_wait_mean", 3) && share(4) < share(3));
            let per_frame = |k: u32| ph("mean_queue_holder_dummy", k) + ph("mean_header_dummy", k);
            has(format!(
                "Per judged frame the no-credit cycles with the lane's best effort waiting for an output VC fall {} → {}, those with it losing the crossbar rise {} → {}. The share owing fell by {} %, the frames' dummy-tail wait by {} %;",
                one(ph("mean_dummy_lane_vc_wait", 3)),
                one(ph("mean_dummy_lane_vc_wait", 4)),
                one(ph("mean_dummy_lane_switch_lost", 3)),
                one(ph("mean_dummy_lane_switch_lost", 4)),
                int(100.0 * (1.0 - share(4) / share(3))),
                int(100.0 * (1.0 - per_frame(4) / per_frame(3)))
            ));
            // "about half of the fall": the share's relative fall against the frames'.
            let half = (1.0 - share(4) / share(3)) / (1.0 - per_frame(4) / per_frame(3));
            assert!((0.4..0.6).contains(&half), "the share owing explains {half} of the fall, not about half");
            has("account for about half of the fall".to_string());
        } else {
            let share = |key: &str| dummy(key) / (v(p, "latency_mean", key) - v(p, "median_latency_mean", key));
            let excess = |run: &str, key: &str| v(run, "latency_mean", key) - v(run, "median_latency_mean", key);
            has(format!(
                "P's excess is still mostly the dummy tail: M0 {} of {} cycles ({}), the {} 80:20 records {} of {} ({}), the {} frames of the top 1 % {} of {} ({}).",
                one(dummy("m0")),
                one(excess(p, "m0")),
                grouped(share("m0"), 2),
                int(v(p, "frames", "records")),
                one(dummy("records")),
                one(excess(p, "records")),
                grouped(share("records"), 2),
                int(v(p, "frames", "top1")),
                one(dummy("top1")),
                one(excess(p, "top1")),
                grouped(share("top1"), 2)
            ));
            for key in ["m0", "records", "top1"] {
                assert!(share(key) > 0.5, "seed 2 {key}: the dummy tail is not most of P's excess");
            }
            let phases = |run: &str| read_csv(&format!("{SEED2_DIR}/{run}_phases.csv"));
            let at_80 = |run: &str, col: &str| -> f64 { phases(run).iter().find(|r| r["realtime_percent"] == "80").unwrap()[col].parse().unwrap() };
            let prob = |run: &str| (at_80(run, "deadline_miss_probability"), at_80(run, "deadline_miss_probability_ci95"));
            let ((pp, ph), (npp, nph)) = (prob(p), prob(np));
            has(format!("The 80:20 missing probabilities keep their order, the intervals apart: P {} ± {} against NP {} ± {}.", grouped(pp, 3), grouped(ph, 3), grouped(npp, 3), grouped(nph, 3)));
            assert!(pp + ph < npp - nph, "seed 2: P and NP not apart in 80:20");
            let level = |run: &str, k: u32| v(run, "latency_mean", &format!("phase{k}"));
            let queue = ["queue_holder_sends", "queue_holder_no_credit", "queue_holder_dummy", "queue_holder_link", "queue_other"].iter().map(|c| v(np, &format!("excess_{c}"), "records")).sum::<f64>();
            has(format!(
                "P's level does not fall into 80:20 here ({} → {} cycles per judged frame) while NP's rises {} → {}; NP's {} records exceed their streams' median by {} cycles, {} of them in the source queue.",
                one(level(p, 3)),
                one(level(p, 4)),
                one(level(np, 3)),
                one(level(np, 4)),
                int(v(np, "frames", "records")),
                one(excess(np, "records")),
                one(queue)
            ));
            assert!(level(p, 4) > level(p, 3) && level(np, 4) > 3.0 * level(np, 3) && queue > 0.5 * excess(np, "records"));
        }
    }
}

/// Who held the output VCs the suspended lane's best effort waited for
/// (`cause_split::out_vcs`), seeds 1 and 2: per cycle of the group's own
/// VC waits (`mean_` rows), the port's 16 output VCs by holder, as written
/// in the section; and the verdict: best effort at its cap of 12
/// (`best_effort_output_vcs = 12`) in nearly every such cycle, most of
/// its holders with no flit in their output buffer or on the link.
#[test]
fn excursion_causes_output_vcs_follow_from_the_committed_split() {
    let p = "p_selfpre_stag";
    let (mut held, mut m0) = (Vec::new(), (0.0, 0.0));
    for (seed, path) in [(1, CSV.to_string()), (2, format!("{SEED2_DIR}/excursion_causes.csv"))] {
        let rows = read_csv(&path);
        let v = |stat: &str, key: &str| -> f64 {
            let row = rows.iter().find(|r| r["run"] == p && r["stat"] == stat && r["key"] == key);
            row.unwrap_or_else(|| panic!("seed {seed}: no {p} {stat} {key}"))["value"].parse().unwrap()
        };
        for (key, name) in [("m0", "M0"), ("records", "The records"), ("top1", "The top 1 %")] {
            let waits = v("mean_dummy_lane_vc_wait", key);
            let per = |holds: &[&str]| holds.iter().map(|h| v(&format!("mean_out_vc_{h}"), key)).sum::<f64>() / waits;
            let be = per(&["be_sending", "be_buffered", "be_empty"]);
            let rt = per(&["rt_sending", "rt_buffered", "rt_empty"]);
            let ctl = per(&["ctl_sending", "ctl_buffered", "ctl_empty"]);
            let two = |x: f64| grouped(x, 2);
            has(format!(
                "{name}: in its frames' {} cycles of best effort waiting for an output VC (seed {seed}), of the port's 16 output VCs best effort held {} ({} with no flit in their output buffer or on the link, {} sending, {} with flits waiting for the link), real time {} ({} sending), control {}, and {} were free.",
                grouped(waits, 1),
                two(be),
                two(per(&["be_empty"])),
                two(per(&["be_sending"])),
                two(per(&["be_buffered"])),
                two(rt),
                two(per(&["rt_sending"])),
                two(ctl),
                two(per(&["free"]))
            ));
            assert!((be + rt + ctl + per(&["free"]) - 16.0).abs() < 1e-9, "seed {seed} {key}: not 16 output VCs a cycle");
            // At most 12 (the cap): a mean this close to 12 is the cap in nearly every cycle.
            assert!(be <= 12.0 + 1e-9 && be > 11.5, "seed {seed} {key}: best effort holds {be}, not its cap of 12");
            assert!(per(&["be_empty"]) > 0.9 * be, "seed {seed} {key}: best effort's holders are not mostly without a flit downstream of the crossbar");
            assert!(rt < 4.0 && ctl < 0.01, "seed {seed} {key}: real time or control holds much");
            held.push((be, rt));
            if (seed, key) == (1, "m0") {
                m0 = (per(&["be_empty"]), be);
            }
        }
    }
    // The verdict: the range over the six groups, M0's holders without a
    // flit past the crossbar, and the least share of its cycles at the cap
    // that its mean allows (a cycle below the cap holds at most 11, so the
    // share below it is at most 12 - mean).
    let range = |f: fn(&(f64, f64)) -> f64| {
        let xs: Vec<f64> = held.iter().map(f).collect();
        (grouped(xs.iter().cloned().fold(f64::MAX, f64::min), 2), grouped(xs.iter().cloned().fold(f64::MIN, f64::max), 2))
    };
    let ((be_lo, be_hi), (rt_lo, rt_hi)) = (range(|h| h.0), range(|h| h.1));
    has(format!(
        "In all six groups (these three and seed 2's, below) best effort holds {be_lo} to {be_hi} of the port's 16 output VCs while its header waits, real time {rt_lo} to {rt_hi}, control none."
    ));
    has(format!(
        "with at most 12, a mean of {} puts M0's frames (seed 1) at the cap in at least {} % of those cycles. Nearly all of best effort's holders ({} of {} for M0) have no flit in their output buffer or on the link:",
        grouped(m0.1, 2),
        // floored: "at least"
        grouped((100.0 * (1.0 - (12.0 - m0.1))).floor(), 0),
        grouped(m0.0, 2),
        grouped(m0.1, 2)
    ));
}

/// Where the next flits of best effort's holders with none past the
/// crossbar were (`cause_split::holders`), seed 1: per cycle of each
/// group's own VC waits (`mean_` rows), as written in the section; the
/// places add up to those holders, the crossbar outcomes to those in the
/// router; and the verdict: all in the router, most of them with their
/// input port passing a real-time flit of another VC (the "Not reproduced
/// yet" summary's "while those pass real time" is checked with the
/// summary's other words in `np_source_queue.rs`).
#[test]
fn excursion_causes_holders_follow_from_the_committed_split() {
    let rows = read_csv(CSV);
    let p = "p_selfpre_stag";
    let v = |stat: &str, key: &str| -> f64 {
        let row = rows.iter().find(|r| r["run"] == p && r["stat"] == stat && r["key"] == key);
        row.unwrap_or_else(|| panic!("{CSV}: no {p} {stat} {key}"))["value"].parse().unwrap()
    };
    let two = |x: f64| grouped(x, 2);
    const SOURCE: [&str; 9] = ["source_sent", "source_no_credit", "source_link_rt", "source_link_be", "source_link_ctl", "suspended_dummy_no_credit", "suspended_dummy_link", "suspended_dummy_sent", "suspended"];
    for (key, name) in [("m0", "M0"), ("records", "The records"), ("top1", "The top 1 %")] {
        let waits = v("mean_dummy_lane_vc_wait", key);
        let per = |h: &str| v(&format!("mean_holder_{h}"), key) / waits;
        let empty = v("mean_out_vc_be_empty", key) / waits;
        let (lane, header, tail) = (per("in_lane"), per("router_dummy_header"), per("router_dummy_tail"));
        let router = lane + header + tail;
        let source: f64 = SOURCE.iter().map(|h| per(h)).sum();
        let (rt, be, ctl, none) = (per("xbar_input_rt"), per("xbar_input_be"), per("xbar_input_ctl"), per("xbar_no_input"));
        has(format!(
            "{name}: of best effort's {} holders with no flit past the crossbar (seed 1), {} had their next flit in the router ({} in their input lane, {} their resumed part's dummy header, {} the router's dummy tail ending their part) and {} at their source; of those in the router, in {} their input port passed a flit of a real-time lane of another VC through the crossbar in the cycle, in {} one of best effort, in {} none.",
            two(empty),
            two(router),
            two(lane),
            two(header),
            two(tail),
            two(source),
            two(rt),
            two(be),
            two(none)
        ));
        assert!((router + source + per("other") - empty).abs() < 1e-9, "{key}: the places do not add up to the holders");
        assert!((rt + be + ctl + none - router).abs() < 1e-9, "{key}: the crossbar outcomes do not add up to the holders in the router");
        // "None of them waited at its source".
        assert!(source == 0.0 && per("other") == 0.0 && ctl < 0.01, "{key}: a holder's next flit was not in the router");
        assert!(rt > 0.5 * router, "{key}: their input ports do not mostly pass real time");
    }
}

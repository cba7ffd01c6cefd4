//! "The source link coupled backwards (issue 22)", its paragraphs "Where
//! the K = 4 excess sits": every number there, formatted here from the
//! committed trace `experiments/results/onoff_k4_stream_parts/source_link.csv`
//! (written by `sim/netsim/examples/onoff_k1_trace`), must appear in
//! `docs/reproduction.md` as written; the differences and sums the section
//! draws are recomputed here from the CSV's columns.

use super::{read_csv, root};

const CSV: &str = "experiments/results/onoff_k4_stream_parts/source_link.csv";
/// Seeds 1 to 40 at K = 3, 4, 8, g = 33.
const CSV40: &str = "experiments/results/onoff_k4_stream_parts_40seeds/source_link.csv";
/// L0 = M + 4 = 36 cycles: a message alone in the router.
const L0: f64 = 36.0;

/// `x` with two decimals and a typographic sign, as the section writes
/// its differences.
fn signed(x: f64) -> String {
    let s = format!("{:.2}", x.abs());
    if x < 0.0 { format!("−{s}") } else { format!("+{s}") }
}

#[test]
fn onoff_k4_parts_numbers_follow_from_the_committed_trace() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let section = doc.split("#### The source link coupled backwards (issue 22)").nth(1).expect("section missing").split("\n#### ").next().unwrap();
    let part = section.split("**Where the K = 4 excess sits.**").nth(1).expect("paragraph missing");
    let flat = part.split_whitespace().collect::<Vec<_>>().join(" ");
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let rows = read_csv(CSV);
    let row = |k: &str, g: &str| rows.iter().find(|r| r["streams"] == k && r["gap"] == g).unwrap_or_else(|| panic!("{CSV}: no K = {k}, g = {g}"));
    let s = |k: &str, g: &str, col: &str| row(k, g)[col].clone();
    let v = |k: &str, g: &str, col: &str| -> f64 { s(k, g, col).parse().unwrap() };
    let ks = ["2", "3", "4", "8"];
    // The split adds up: L0 + own stream with its blocking + the others =
    // L0 + wait + blocking = the simulated total (over every message, to
    // the CSV's rounding).
    for (k, g) in ks.iter().map(|k| (*k, "33.0")).chain([("4", "64.0")]) {
        let split = L0 + v(k, g, "own_blocked") + v(k, g, "others");
        assert!((split - v(k, g, "sim_total")).abs() < 5e-4, "K = {k}, g = {g}: split {split} != sim total");
        assert!((split - L0 - v(k, g, "source_wait") - v(k, g, "dest_block")).abs() < 5e-4, "K = {k}, g = {g}: split != wait + blocking");
    }
    // The own stream alone against W_1(c_s), g = 33.
    let alone: Vec<f64> = ks.iter().map(|k| v(k, "33.0", "own_alone")).collect();
    let w1: Vec<f64> = ks.iter().map(|k| v(k, "33.0", "model_own")).collect();
    let fmt = |x: f64| format!("{x:.4}");
    let (amin, amax) = (alone.iter().cloned().fold(f64::MAX, f64::min), alone.iter().cloned().fold(f64::MIN, f64::max));
    let (wmin, wmax) = (w1.iter().cloned().fold(f64::MAX, f64::min), w1.iter().cloned().fold(f64::MIN, f64::max));
    has(format!("waits {} to {} cycles at g = 33 and K = 2, 3, 4, 8 (W_1(c_s) {} to {})", fmt(amin), fmt(amax), fmt(wmin), fmt(wmax)));
    has(format!("is {:.2} cycles high at K = 4 ({} against {})", w1[2] - alone[2], s("4", "33.0", "own_alone"), s("4", "33.0", "model_own")));
    let highs: Vec<f64> = w1.iter().zip(&alone).map(|(w, a)| w - a).collect();
    let (hmin, hmax) = (highs.iter().cloned().fold(f64::MAX, f64::min), highs.iter().cloned().fold(f64::MIN, f64::max));
    has(format!("{hmin:.2} to {hmax:.2} at every K, so it is not K = 4's excess"));
    has(format!("(it is {hmin:.2} to {hmax:.2} high at every K)"));
    // The own stream with its blocking against W_1(c_s) + the destination link.
    let own_model = |k: &str, g: &str| v(k, g, "model_own") + v(k, g, "coupled_destination");
    let mut own_text = Vec::new();
    let mut own_diff = Vec::new();
    for k in ks {
        own_text.push(format!("K = {k} {} ± {} ({})", s(k, "33.0", "own_blocked"), s(k, "33.0", "own_blocked_se"), fmt(own_model(k, "33.0"))));
        own_diff.push(signed(own_model(k, "33.0") - v(k, "33.0", "own_blocked")));
    }
    has(format!("{}: model − measured {} cycles.", own_text.join(", "), own_diff.join(", ")));
    let mut others_text = Vec::new();
    let mut others_diff = Vec::new();
    for k in ks {
        others_text.push(format!("{} ± {} ({})", s(k, "33.0", "others"), s(k, "33.0", "others_se"), s(k, "33.0", "model_others")));
        others_diff.push(signed(v(k, "33.0", "model_others") - v(k, "33.0", "others")));
    }
    has(format!("g = 33: {}: {}.", others_text.join(", "), others_diff.join(", ")));
    // B̄ against the measured blocking, and the totals at the measured one.
    has(format!("**B̄** ({}) against the measured mean blocking of every message: {} at K = 2, 3, 4, 8", s("4", "33.0", "blocking_model"), ks.map(|k| s(k, "33.0", "dest_block")).join(", ")));
    has(format!("the coupled total is {} ({} with B̄ at K = 4)", ks.map(|k| s(k, "33.0", "model_total_at_block")).join(", "), s("4", "33.0", "coupled_total")));
    let excess33 = v("4", "33.0", "coupled_total") - v("4", "33.0", "sim_total");
    let by_block33 = v("4", "33.0", "coupled_total") - v("4", "33.0", "model_total_at_block");
    has(format!("the geometric B̄ is {:.2} cycles high at K = 4 and carries {by_block33:.2} of the {excess33:.2} cycles", v("4", "33.0", "blocking_model") - v("4", "33.0", "dest_block")));
    // The excess split: network latency over L0, own stream, other streams.
    let net = v("4", "33.0", "kim2005_network") - L0;
    let (own4, others4) = (own_model("4", "33.0") - v("4", "33.0", "own_blocked"), v("4", "33.0", "model_others") - v("4", "33.0", "others"));
    assert!((net + own4 + others4 - excess33).abs() < 5e-4, "the K = 4 excess does not split into its parts");
    has(format!("the K = 4 excess ({excess33:.2} cycles = {net:.2} of `kim2005`'s network latency over L0 + {own4:.2} own stream with its destination − {:.2} other streams)", -others4));
    has(format!("not monotone in K ({})", ks.map(|k| s(k, "33.0", "own_blocked")).join(", ")));
    has(format!("the model's falls smoothly ({} to {})", fmt(own_model("2", "33.0")), fmt(own_model("8", "33.0"))));
    let dip = v("8", "33.0", "own_blocked") - v("4", "33.0", "own_blocked");
    let dip_se = (v("8", "33.0", "own_blocked_se").powi(2) + v("4", "33.0", "own_blocked_se").powi(2)).sqrt();
    has(format!("K = 4's is {dip:.2} cycles below K = 8's, {:.2} standard errors of the difference", dip / dip_se));
    // Seeds 1 to 40 at K = 3, 4, 8, g = 33.
    let rows40 = read_csv(CSV40);
    let s40 = |k: &str, col: &str| rows40.iter().find(|r| r["streams"] == k && r["gap"] == "33.0").unwrap_or_else(|| panic!("{CSV40}: no K = {k}"))[col].clone();
    let v40 = |k: &str, col: &str| -> f64 { s40(k, col).parse().unwrap() };
    let own40 = |k: &str| signed(v40(k, "model_own") + v40(k, "coupled_destination") - v40(k, "own_blocked"));
    has(format!(
        "own stream with its blocking {} ± {} at K = 4 ({} ± {} at K = 3, {} ± {} at K = 8), model − measured {} ({}, {}), the measured blocking {} ({}, {}), and the simulated total {} ± {} against the model's {}, a paired gap of {} ± {} ({} ± {} at K = 3, {} ± {} at K = 8)",
        s40("4", "own_blocked"), s40("4", "own_blocked_se"), s40("3", "own_blocked"), s40("3", "own_blocked_se"), s40("8", "own_blocked"), s40("8", "own_blocked_se"),
        own40("4"), own40("3"), own40("8"),
        s40("4", "dest_block"), s40("3", "dest_block"), s40("8", "dest_block"),
        s40("4", "sim_total"), s40("4", "sim_total_se"), s40("4", "coupled_total"),
        s40("4", "coupled_drawn_gap").replace('-', "−"), s40("4", "coupled_drawn_gap_se"),
        s40("3", "coupled_drawn_gap"), s40("3", "coupled_drawn_gap_se"), s40("8", "coupled_drawn_gap"), s40("8", "coupled_drawn_gap_se")
    ));
    // "Inside one standard error, as at K = 3 and 8."
    for k in ["3", "4", "8"] {
        assert!(v40(k, "coupled_drawn_gap").abs() < v40(k, "coupled_drawn_gap_se"), "K = {k}: the 40-seed paired gap is outside one standard error");
    }
    // g = 64.
    let (k, g) = ("4", "64.0");
    let excess64 = v(k, g, "coupled_total") - v(k, g, "sim_total");
    has(format!("At g = 64, K = 4 ({:.2} ± {:.2} over 20 seeds; over 40, and beside K = 3 and 8: \"The coupled source row with the blocking chained\" and \"The g = 64 excess at K = 3 and 8\") the excess ({excess64:.2} cycles) is shared: the own stream alone waits {} (model {})", -v(k, g, "coupled_drawn_gap"), v(k, g, "coupled_drawn_gap_se"), s(k, g, "own_alone"), s(k, g, "model_own")));
    has(format!(
        "with its blocking {} ± {} (model, the destination link, {}: {}), behind the other streams {} ± {} ({}: {})",
        s(k, g, "own_blocked"),
        s(k, g, "own_blocked_se"),
        fmt(own_model(k, g)),
        signed(own_model(k, g) - v(k, g, "own_blocked")),
        s(k, g, "others"),
        s(k, g, "others_se"),
        s(k, g, "model_others"),
        signed(v(k, g, "model_others") - v(k, g, "others"))
    ));
    let by_block64 = v(k, g, "coupled_total") - v(k, g, "model_total_at_block");
    has(format!("the measured blocking is {}, and at it the other streams' part is {} and the total {} ({} with B̄): the geometric B̄ carries {by_block64:.2} of the {excess64:.2}.", s(k, g, "dest_block"), s(k, g, "model_others_at_block"), s(k, g, "model_total_at_block"), s(k, g, "coupled_total")));
    has(format!("{} there ({} at g = 33)", s(k, g, "b2b_block"), s(k, "33.0", "b2b_block")));
    has(format!("(at it the model's total would be {})", s(k, g, "model_total_at_b2b_block")));
    has(format!("the geometric B̄ {by_block33:.2} of the {excess33:.2} cycles at g = 33 and {by_block64:.2} of the {excess64:.2} at g = 64"));
}

//! The section census of "Analytical models" through the cube VC-queue row
//! (`experiments/prose_census.py run --lines`, docs/reproduction.md
//! "Section census, the analytical models, first part"): the quoted results
//! no test of this binary noticed when changed, each recomputed here.
//!
//! Three sources: the committed runs (the investigation of Fig. 4, the
//! saturation of the one-VC-per-class router, the cube's Fig. 11(b)); the
//! model itself, run from the test where the prose quotes one of its terms
//! (P_b, B̄, P^s_b); and, for what a test of another binary holds (bounds,
//! a unit test's hand values), that test's own source, or an independent
//! computation of the hand value (a 4-state chain solved here, the
//! hypercube's routes enumerated, Erlang's formulas).

use super::cube_r2_body::solved;
use super::cube_vcq_ports::{queues, run_hold_at, R2 as PORTS_R2};
use super::models::{check_derived, cv, d, Derived};
use super::*;
use wormqos_netsim::analytic::kim2005::RouterModel;

const MIX: &str = "workload.load+workload.mix";
const R1: &str = "class2_network_latency_cycles";
const R2: &str = "rt_network_latency_cycles";
const BE: &str = "be_network_latency_cycles";
/// The one-VC-per-class router of "000_… §3.1 on the router it describes".
const NP: &str = "experiments/results/model_fig4_000_np/results.csv";
/// Its points: R1+R2 messages/cycle/port → the sweep's flits key (M = 32,
/// best effort 0.01 messages = 0.32 flits).
const NP_POINTS: [(f64, &str); 7] = [
    (0.002, "0.384:0.064:0.32"),
    (0.004, "0.448:0.128:0.32"),
    (0.006, "0.512:0.192:0.32"),
    (0.008, "0.576:0.256:0.32"),
    (0.010, "0.64:0.32:0.32"),
    (0.012, "0.704:0.384:0.32"),
    (0.014, "0.768:0.448:0.32"),
];
const FULL: &str = "experiments/results/fig4_000_full/results.csv";
const FULL_B: &str = "experiments/results/fig4b_000_full/results.csv";
const ISO: &str = "experiments/results/fig4_000_isolation/results.csv";
const ISO_NP: &str = "experiments/results/fig4_000_isolation_np/results.csv";
const ISO_KEY: &str = "workload.load+workload.mix+model.realtime_rates";
/// R1 alone at 0.00667 messages (0.21333 flits), best effort 0 / 0.01 / 0.014.
const ISO_POINTS: [&str; 3] = ["0.21333:0.21333:0.0:1.0", "0.53333:0.21333:0.32:1.0", "0.66133:0.21333:0.448:1.0"];
const VT: &str = "experiments/results/fig4_000_vtick/results.csv";
const VT_SHARED: &str = "experiments/results/fig4_000_vtick_shared/results.csv";
const SCALES: [&str; 4] = ["1.0", "0.5", "0.25", "0.125"];
const K3_COMPARISON: &str = "experiments/results/model_fig11b_000_cube6_k3/comparison.txt";
const CUBE_LOADS: [&str; 4] = ["0.0015", "0.003", "0.0045", "0.006"];
/// 32-flit messages (Table 1).
const M: f64 = 32.0;

fn pct(a: f64, b: f64) -> f64 {
    100.0 * (a - b) / b
}

fn min_max_of(x: impl IntoIterator<Item = f64>) -> (f64, f64) {
    x.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// The point of `NP` at R1+R2 = `load` messages/cycle/port.
fn np_key(load: f64) -> &'static str {
    NP_POINTS.iter().find(|(l, _)| (l - load).abs() < 1e-12).unwrap_or_else(|| panic!("no point {load}")).1
}

/// Whether the simulated router carries the point (accepted within 1 % of
/// offered, the key's first field in flits/cycle/port).
fn carried(key: &'static str) -> bool {
    let offered: f64 = key.split(':').next().unwrap().parse().unwrap();
    cv(NP, &[("source", "sim"), (MIX, key)], "accepted_throughput") >= 0.99 * offered
}

/// "Bounds held by tests": the single router's bounds as the assertions
/// of `analytic.rs` state them, and the saturation load the committed runs
/// place them against.
fn single_router_bounds() -> Vec<Derived> {
    let body = test_body("sim/netsim/tests/analytic.rs", "single_router_model_against_simulation_within_stated_bounds");
    // `for (rt, b1, b2) in [(0.002, 0.10, 0.20), (0.006, …), (0.010, …)]`
    let bounds = |rt: &str| -> (f64, f64) {
        let t = tuple_after(&body, &format!("({rt}, "));
        (100.0 * t[1], 100.0 * t[2])
    };
    let mut v = Vec::new();
    let (r1, r2) = bounds("0.006");
    let p = "runs): with the paper's Vticks, R1 within 10 % and R2 within 20 % up to";
    v.extend([d(p, "10", r1), d(p, "20", r2)]);
    let (r1, r2) = bounds("0.010");
    let p = "flits/cycle/port in `model_fig4_000_np`), R1 within 20 % and R2 within\n25 % at 0.010";
    v.extend([d(p, "20", r1), d(p, "25", r2)]);
    let p = "25 % at 0.010 (71 to 83 % of it), best effort within 30 % and below the simulation";
    v.push(d(p, "30", 100.0 * literal_after(&body, "err(be).abs() <= ")));
    let vticks = &body[body.find("compare(rt, 0.25)").expect("the Vticks × 0.25 loop")..];
    let p = "throughout; with Vticks × 0.25 (below) R1 and R2 within 10 %.";
    v.push(d(p, "10", 100.0 * literal_after(vticks, "err(r1).abs() <= ")));
    // The saturation load: between the largest point carried and the
    // smallest not carried.
    let largest = NP_POINTS.iter().filter(|(_, k)| carried(k)).map(|(l, _)| *l).fold(0.0, f64::max);
    let smallest_not = NP_POINTS.iter().filter(|(_, k)| !carried(k)).map(|(l, _)| *l).fold(f64::INFINITY, f64::min);
    assert!(largest < smallest_not, "the carried points are the lighter ones: {largest} {smallest_not}");
    assert!(0.006 <= 0.5 * largest + 1e-12, "0.006 is at most half the saturation load (above {largest})");
    let p = "0.012, carried, and 0.014, not: accepted 0.700 of 0.704 and 0.720 of 0.768";
    let offered = |load: f64| np_key(load).split(':').next().unwrap().parse::<f64>().unwrap();
    let accepted = |load: f64| cv(NP, &[("source", "sim"), (MIX, np_key(load))], "accepted_throughput");
    v.extend([
        d(p, "0.012", largest),
        d(p, "0.014", smallest_not),
        d(p, "0.700", accepted(largest)),
        d(p, "0.704", offered(largest)),
        d(p, "0.720", accepted(smallest_not)),
        d(p, "0.768", offered(smallest_not)),
    ]);
    let p = "25 % at 0.010 (71 to 83 % of it)";
    v.extend([d(p, "71", 100.0 * 0.010 / smallest_not), d(p, "83", 100.0 * 0.010 / largest)]);
    v
}

/// "Investigation: why 000_… Fig. 4 disagreed": the opening summary and
/// the three causes' numbers.
fn investigation() -> Vec<Derived> {
    let mut v = Vec::new();
    let model = |key: &'static str, column: &str| cv(NP, &[("source", "model:kim2005"), (MIX, key)], column);
    let full = |key: &'static str, column: &str| cv(FULL, &[(MIX, key)], column);
    // The model's R1 against the full crossbar's simulated R1, every point.
    let (lo, hi) = min_max_of(NP_POINTS.iter().map(|(_, k)| -pct(model(k, R1), full(k, R1))));
    let p = "The earlier sections found the model's R1 8–52 % below the simulated one";
    v.extend([d(p, "8", lo), d(p, "52", hi)]);
    let (lo, hi) = min_max_of(NP_POINTS.iter().map(|(_, k)| (full(k, R2) - full(k, R1)).abs()));
    let p = "(full crossbar, `fig4_000_full`), R1 and R2 1–5 cycles apart where the";
    v.extend([d(p, "1", lo), d(p, "5", hi)]);
    let p = "model separates them by 19 at 0.010, and best effort raising R1's latency";
    v.push(d(p, "19", model(np_key(0.010), R2) - model(np_key(0.010), R1)));
    // Fig. 4(b): R1 at the heaviest best effort over R1 at the lightest.
    let b = read_csv(FULL_B);
    let r1 = |row: &HashMap<String, String>| row[R1].parse::<f64>().unwrap();
    let p = "by 39 % (Fig. 4(b)). Three causes, each shown by a run:";
    v.push(d(p, "39", pct(r1(b.last().unwrap()), r1(&b[0]))));

    // 1. R1 alone, best effort 0 / 0.01 / 0.014.
    let iso = |csv: &'static str, source: Option<&'static str>, key: &'static str| {
        let mut row = vec![(ISO_KEY, key)];
        row.extend(source.map(|s| ("source", s)));
        cv(csv, &row, R1)
    };
    let p = "44.1 / 50.5 / 59.8 cycles unpartitioned and 42.4 / 42.6 / 42.4 with one";
    for (w, k) in ["44.1", "50.5", "59.8"].into_iter().zip(ISO_POINTS) {
        v.push(d(p, w, iso(ISO, None, k)));
    }
    for (w, k) in ["42.4", "42.6", "42.4"].into_iter().zip(ISO_POINTS) {
        v.push(d(p, w, iso(ISO_NP, Some("sim"), k)));
    }

    // 2. The Vticks at R1+R2 = 0.010: 0.32 real-time flits/cycle/port
    // (`fig4_000_vtick.toml`'s mix) split 2 : 1 (`model.realtime_rates`).
    let vt = |column: &str| cv(VT, &[("source", "sim"), ("model.vtick_scale", "1.0")], column);
    let p = "Even with one VC per class the simulated R1 and R2 are equal (49.6 and\n   48.5 cycles at R1+R2 = 0.010";
    v.extend([d(p, "49.6", vt(R1)), d(p, "48.5", vt(R2))]);
    let rt_flits = 32.0 * 0.010;
    let (r1_flits, r2_flits) = (rt_flits * 2.0 / 3.0, rt_flits / 3.0);
    let (vtick1, vtick2) = (1.0 / r1_flits, 1.0 / r2_flits);
    let p = "the header carries whole cycles, so R1's 4.69 becomes 5 — a reservation";
    v.extend([d(p, "4.69", vtick1), d(p, "5", vtick1.round())]);
    let p = "of 0.200 flits/cycle for 0.213 sent.";
    v.extend([d(p, "0.200", 1.0 / vtick1.round()), d(p, "0.213", r1_flits)]);
    let p = "both wait (R2's 9.375 → 9 reserves a little more than it sends).";
    v.extend([d(p, "9.375", vtick2), d(p, "9", vtick2.round())]);
    assert!(1.0 / vtick2.round() > r2_flits, "R2's rounded Vtick reserves more than it sends");
    let shared = |column: &str| min_max_of(SCALES.iter().map(|&s| cv(VT_SHARED, &[("model.vtick_scale", s)], column)));
    let p = "with `wormqos sweep`, the scaling changes nothing — R1 59.9–61.2, R2\n   64.5–67.2 at every scale";
    let ((a, b1), (c, d2)) = (shared(R1), shared(R2));
    v.extend([d(p, "59.9", a), d(p, "61.2", b1), d(p, "64.5", c), d(p, "67.2", d2)]);

    // 3. R1 alone at 0.00667: the simulated and model latency, the
    // model's blocking terms (the model run here, its latency checked
    // against the committed row first), the M/D/1 estimate of the wait.
    let (sim, modelled) = (iso(ISO_NP, Some("sim"), ISO_POINTS[0]), iso(ISO_NP, Some("model:kim2005"), ISO_POINTS[0]));
    let p = "class, no other traffic: 42.4 simulated against the model's 36.7 at";
    v.extend([d(p, "42.4", sim), d(p, "36.7", modelled)]);
    let lambda = 0.21333 / M;
    let alone = RouterModel { stages: 5.0, msg_flits: vec![M; 2], buffer_flits: 32.0, rt_rates: vec![lambda], vticks: vec![(1.0 / (lambda * M)).round()], be_rate: 0.0 };
    let sol = alone.solve().unwrap();
    let r1 = &sol.classes[0];
    assert!((r1.network_latency - modelled).abs() < 1e-6, "the model run here is the committed row's: {} against {modelled}", r1.network_latency);
    let p = "0.00667 messages/cycle/port. Eq. (3) gives P_b = (λ'L̄)³ = 0.014 (B̄ =\n   0.7 flit)";
    v.extend([d(p, "0.014", r1.blocking_prob), d(p, "0.7", r1.blocking_flits)]);
    // ρ: R1's rate times the VC's hold, about the transfer time P − 1 + M.
    let rho = lambda * alone.transfer_time(0);
    let wait = rho * alone.transfer_time(0) / (2.0 * (1.0 - rho));
    let p = "M/D/1 queue with ρ ≈ 0.24 and a mean wait of ρ·36/(2(1 − ρ)) ≈ 5.7";
    v.extend([d(p, "0.24", rho), d(p, "5.7", wait)]);
    assert_eq!(format!("{:.1}", sim - modelled), format!("{wait:.1}"), "\"the whole gap\": simulated less model R1");
    // Best effort's error in the table of §3.1, up to 0.010.
    let sim_np = |key: &'static str, column: &str| cv(NP, &[("source", "sim"), (MIX, key)], column);
    let (lo, hi) = min_max_of(NP_POINTS[..5].iter().map(|(_, k)| -pct(model(k, BE), sim_np(k, BE))));
    let p = "The same term is why best effort is 20–24 % low";
    v.extend([d(p, "20", lo), d(p, "24", hi)]);
    v
}

/// The 6-cube: the cube test's bounds, Fig. 11(b)'s "within 5 %", the DMP
/// model's D′ and middle-hop blocking.
fn cube() -> Vec<Derived> {
    let mut v = Vec::new();
    let body = test_body("sim/netsim/tests/analytic.rs", "cube_model_against_simulation_within_stated_bounds");
    let p = "`cube_model_against_simulation_within_stated_bounds`: every class within\n15 %, R2 within 8 %";
    v.extend([d(p, "15", 100.0 * literal_after(&body, "} else { ")), d(p, "8", 100.0 * literal_after(&body, "if c == 1 { "))]);
    // Fig. 11(b): `results.csv` has no column of R1 (class 3), so every
    // class's model − sim error is read from `comparison.txt`'s network
    // column ("+2.6 % (sim 56.3)"), the model's rows.
    let text = std::fs::read_to_string(root().join(K3_COMPARISON)).unwrap();
    let errors: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(" | ").collect::<Vec<_>>())
        .filter(|f| f.len() == 7 && f[2] == "model:kim2005_cube" && ["1", "2", "3"].contains(&f[1]))
        .map(|f| f[5].split(' ').next().unwrap().parse::<f64>().unwrap_or_else(|_| panic!("{K3_COMPARISON}: {:?}", f[5])))
        .collect();
    assert_eq!(errors.len(), 9, "{K3_COMPARISON}: three real-time classes at three loads");
    let worst = errors.iter().map(|e| e.abs()).fold(0.0, f64::max);
    v.push(d("R1 = 0.001 / 0.002 / 0.003, one VC per class): R1, R2, R3 within 5 % at", "5", worst));
    // D′ = D − (P − 1 + P h), the flit times Eq. (21) leaves a message of
    // h hops (P = 5 stages): 2 hops at D = 55, 5 hops at D = 70.
    let stages = RouterModel::table1(0.001, 0.0005, 0.002).stages;
    let left = |deadline: f64, hops: f64| deadline - (stages - 1.0 + stages * hops);
    assert_eq!(left(55.0, 2.0), left(70.0, 5.0), "both deadlines leave the same D′");
    v.push(d("values because both deadlines leave D′ = 41 flit times and the middle hops", "41", left(55.0, 2.0)));
    v
}

/// "(their P^s_b is 1.5 × 10⁻⁶ to 1.3 × 10⁻³ over the four loads, R2 at
/// 0.0015 to R1 at 0.006)": the middle hops' blocking probabilities of the
/// solved cube model (channels 1..n−1 of both real-time classes: channel 0
/// is only ever a path's first, the ejection its last), at every load of
/// Fig. 7(b).
#[test]
fn the_middle_hops_blocking_is_the_solved_models() {
    let classes = ["R1", "R2"];
    let mut all = Vec::new();
    for load in CUBE_LOADS {
        let (_, sol) = solved(load);
        for (class, c) in classes.iter().zip(&sol.classes[..2]) {
            let n = c.blocking_prob.len() - 1;
            all.extend(c.blocking_prob[1..n].iter().map(|&pb| (pb, *class, load)));
        }
    }
    let lo = all.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
    let hi = all.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
    let want = format!("(their P^s_b is {} to {} over the four loads, {} at {} to {} at {})", scientific(lo.0), scientific(hi.0), lo.1, lo.2, hi.1, hi.2);
    let flat = doc_words();
    assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
}

/// `x` as the document writes a small probability: "1.3 × 10⁻³".
fn scientific(x: f64) -> String {
    let exp = x.log10().floor() as i32;
    let mantissa = x / 10f64.powi(exp);
    // a mantissa that rounds up to 10.0 moves to the next power
    let (mantissa, exp) = if format!("{mantissa:.1}") == "10.0" { (1.0, exp + 1) } else { (mantissa, exp) };
    let sup: String = exp.to_string().chars().map(|c| match c {
        '-' => '⁻',
        d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap() as usize],
    }).collect();
    format!("{mantissa:.1} × 10{sup}")
}

/// The cube VC-queue sections: "3×", the ejection link's 32/63, "the rest
/// of the 3.8".
fn cube_vcq() -> Vec<Derived> {
    let mut v = Vec::new();
    // The variant's mean wait over the measured one (`dmp_vc_wait_cube6`,
    // `model_fig7_000_cube6_vcq`), R1 and R2: its smallest ratio, in whole times.
    const ALL: &str = "experiments/results/dmp_vc_wait_cube6/dmp_vc_wait.csv";
    const VCQ: &str = "experiments/results/model_fig7_000_cube6_vcq/results.csv";
    let points = ["0.112:0.048:0.064", "0.16:0.096:0.064", "0.208:0.144:0.064", "0.256:0.192:0.064"];
    let ratio = |key: &'static str, class: &'static str, column: &str| {
        let m = |source: &'static str| cv(VCQ, &[("source", source), (MIX, key)], column);
        (m("model:kim2005_cube_vcq") - m("model:kim2005_cube")) / cv(ALL, &[("point", key), ("class", class), ("hops", "all"), ("deadline", "55")], "wait_mean")
    };
    let (lo, hi) = min_max_of(points.iter().flat_map(|&k| [ratio(k, "2", R1), ratio(k, "1", R2)]));
    assert!(hi < 4.0, "the ratios stay near three: {lo} to {hi}");
    v.push(d("- **The variant's 3× is its holding time and its queue form", "3", lo.round()));
    // "The rest of the 3.8": the same quotient as its bullet in "The cube
    // VC-queue row" (Eq. (6)'s body delay over the measured hop-0 excess).
    let ratio = M * (queues("0.006", PORTS_R2).ejection_cycles_per_flit - 1.0) / (run_hold_at(PORTS_R2, "hop0") - M);
    v.push(d("- **The rest of the 3.8 is where the loss falls.** Of the cycles R2", "3.8", ratio));
    v
}

/// "crossed with probability ½ by a message on the link of dimension s,
/// with probability 32/63 by one at the ejection link": the e-cube routes
/// of the 6-cube enumerated (uniform destinations, dimensions in
/// ascending order).
#[test]
fn the_lower_dimension_crossing_probabilities_are_the_routes() {
    let n = 6u32;
    let nodes = 1u32 << n;
    // On the link of dimension s (s = 3 here, any s > 0 alike): the
    // messages whose route takes it, crossing dimension j < s when bit j of
    // source xor destination is set.
    let (s, j) = (3, 1);
    let on_link: Vec<u32> = (0..nodes).flat_map(|a| (0..nodes).map(move |b| a ^ b)).filter(|x| x >> s & 1 == 1).collect();
    let half = on_link.iter().filter(|&&x| x >> j & 1 == 1).count() as f64 / on_link.len() as f64;
    // At the ejection link of a node: every other node's messages, crossing
    // dimension j when the source differs there.
    let at_ejection: Vec<u32> = (1..nodes).collect();
    let ejection = at_ejection.iter().filter(|&&x| x >> j & 1 == 1).count();
    let want = format!("(crossed with probability {} by a message on the link of dimension s, with probability {}/{} by one at the ejection link)", if half == 0.5 { "½" } else { "?" }, ejection, at_ejection.len());
    let flat = doc_words();
    assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
}

/// "Hand-computed tests": the values the unit tests hold, each computed
/// here independently: the Fig. 3 chain solved by elimination, the 3-cube's
/// routes enumerated, Erlang B and C from their formulas.
#[test]
fn the_hand_computed_values_are_recomputed() {
    let flat = doc_words();
    // The Fig. 3 chain: two VCs, state bit c set while class c holds its
    // VC; class 0 arrives at 1, class 1 at 2 (whatever the other does),
    // class 0 leaves at 3 alone and 5 beside class 1, class 1 at 4 alone and
    // 6 beside class 0. States 00, 01 (class 0 held), 10, 11.
    let rate = |from: usize, to: usize| -> f64 {
        match (from, to) {
            (0b00, 0b01) | (0b10, 0b11) => 1.0,
            (0b00, 0b10) | (0b01, 0b11) => 2.0,
            (0b01, 0b00) => 3.0,
            (0b10, 0b00) => 4.0,
            (0b11, 0b10) => 5.0,
            (0b11, 0b01) => 6.0,
            _ => 0.0,
        }
    };
    let pi = solve_balance(4, rate);
    let fractions: Vec<String> = pi.iter().map(|&p| fraction(p)).collect();
    let want = format!("(π = {})", fractions.join(", "));
    assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
    // The 3-cube: destinations 1..7 of node 0, e-cube routing (lowest
    // dimension first): hop counts, the hops of messages whose first
    // channel is s, and the share of each first channel.
    let dests: Vec<u32> = (1..8).collect();
    let mean = |xs: &[u32]| xs.iter().map(|x| x.count_ones() as f64).sum::<f64>() / xs.len() as f64;
    let first = |s: u32| -> Vec<u32> { dests.iter().copied().filter(|x| x.trailing_zeros() == s).collect() };
    let h_s: Vec<String> = (0..3).map(|s| format!("{}", mean(&first(s)))).collect();
    let shares: Vec<String> = (0..3).map(|s| fraction(first(s).len() as f64 / dests.len() as f64)).collect();
    let want = format!("(h̄ = {}, h_s = {}, λ^g_{{c,s}}/λ = {})", fraction(mean(&dests)), h_s.join(", "), shares.join(", "));
    assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
    // Erlang B and C.
    let want = format!("(B(2,1) = {}, C(2,1) = {}, tabulated C(5,3) = {:.4})", erlang_b(2, 1.0), fraction(erlang_c(2, 1.0)), erlang_c(5, 3.0));
    assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
}

/// Erlang B: (a^c/c!) / Σ_{k ≤ c} a^k/k!.
fn erlang_b(c: u32, a: f64) -> f64 {
    let terms: Vec<f64> = (0..=c).scan(1.0, |t, k| {
        let now = if k == 0 { 1.0 } else { *t * a / k as f64 };
        *t = now;
        Some(now)
    }).collect();
    terms[c as usize] / terms.iter().sum::<f64>()
}

/// Erlang C: the probability of waiting in M/M/c at offered load a.
fn erlang_c(c: u32, a: f64) -> f64 {
    let b = erlang_b(c, a);
    let rho = a / c as f64;
    b / (1.0 - rho * (1.0 - b))
}

/// The stationary distribution of a continuous-time chain on `n` states
/// from its rates, by Gauss–Jordan elimination of π Q = 0 with Σ π = 1.
fn solve_balance(n: usize, rate: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    // Row i: Σ_j π_j q_ji = 0 (the balance of state i), the last row Σ π = 1.
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { -(0..n).map(|k| rate(i, k)).sum::<f64>() } else { rate(j, i) }).chain([0.0]).collect())
        .collect();
    a[n - 1] = vec![1.0; n + 1];
    for col in 0..n {
        let piv = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap();
        a.swap(col, piv);
        let p = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= p);
        for r in 0..n {
            if r != col {
                let f = a[r][col];
                let pivot_row = a[col].clone();
                a[r].iter_mut().zip(pivot_row).for_each(|(x, y)| *x -= f * y);
            }
        }
    }
    a.iter().map(|row| row[n]).collect()
}

/// `x` as the fraction p/q of smallest q ≤ 1000, as the document writes a
/// hand value ("95/184", "1/3"); a whole number as itself.
fn fraction(x: f64) -> String {
    let q = (1..=1000u32).find(|&q| (x * q as f64 - (x * q as f64).round()).abs() < 1e-9).unwrap_or_else(|| panic!("{x} is no fraction"));
    let p = (x * q as f64).round() as u64;
    if q == 1 {
        p.to_string()
    } else {
        format!("{p}/{q}")
    }
}

/// The text of the function `name` in the source file `path` (from its
/// `fn` to the next item at its indentation or the file's end).
fn test_body(path: &str, name: &str) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text.find(&format!("fn {name}(")).unwrap_or_else(|| panic!("{path}: no fn {name}"));
    let rest = &text[start..];
    rest[..rest.find("\n}\n").map_or(rest.len(), |e| e + 3)].to_string()
}

/// The float literal right after `prefix` in `text` ("0.30" of "<= 0.30 &&").
fn literal_after(text: &str, prefix: &str) -> f64 {
    let tail = &text[text.find(prefix).unwrap_or_else(|| panic!("no {prefix:?}")) + prefix.len()..];
    let lit: String = tail.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '_').collect();
    lit.replace('_', "").parse().unwrap_or_else(|_| panic!("no number after {prefix:?}: {lit:?}"))
}

/// The numbers of the tuple that starts with `prefix` ("(0.006, 0.10, 0.20)").
fn tuple_after(text: &str, prefix: &str) -> Vec<f64> {
    let start = text.find(prefix).unwrap_or_else(|| panic!("no {prefix:?}")) + 1;
    let inner = &text[start..start + text[start..].find(')').unwrap()];
    inner.split(',').map(|x| x.trim().parse().unwrap_or_else(|_| panic!("{x:?} in {inner:?}"))).collect()
}

/// The vc_wait test's two claims: the class VC's cycles per message at a
/// light load ("lie in 32–38") and a message that meets no one ("latency
/// 36 + 5h"), as `sim/netsim/tests/vc_wait.rs` asserts them.
#[test]
fn the_vc_wait_claims_are_its_tests_assertions() {
    let source = std::fs::read_to_string(root().join("sim/netsim/tests/vc_wait.rs")).unwrap();
    let span = tuple_like_range(&source, ").contains(&per_message)");
    let zero_load = &source[source.find("m.delivered - m.injected == ").expect("the zero-load assertion")..];
    let base = literal_after(zero_load, "== ");
    let per_hop = literal_after(zero_load, &format!("== {base} + "));
    let flat = doc_words();
    for want in [format!("allocated cycles per message at a light load lie in {}–{}.", span.0, span.1), format!("a message that meets no one has latency {base} + {per_hop}h")] {
        assert!(flat.contains(&want), "docs/reproduction.md should say {want:?}");
    }
}

/// The range `(a..=b)` written just before `suffix`.
fn tuple_like_range(text: &str, suffix: &str) -> (f64, f64) {
    let end = text.find(suffix).unwrap_or_else(|| panic!("no {suffix:?}"));
    let start = text[..end].rfind('(').unwrap() + 1;
    let (a, b) = text[start..end].split_once("..").unwrap();
    (a.parse().unwrap(), b.trim_start_matches('=').parse().unwrap())
}

/// The ill-conditioned link: the unit test's bounds ("below 100 cycles at
/// c = 0.94 … 40 to 50 cycles at c = 1").
fn ill_conditioned() -> Vec<Derived> {
    let body = test_body("sim/netsim/src/analytic/onoff_fluid.rs", "an_ill_conditioned_link_is_solved_without_eigenvalues");
    let (lo, hi) = tuple_like_range(&body, ").contains(&good.source_link)");
    let p = "below 100 cycles at c = 0.94 and falling with c, 40 to 50 cycles at c = 1),";
    vec![d(p, "100", literal_after(&body, "at[0] < ")), d(p, "40", lo), d(p, "50", hi)]
}

fn derived() -> Vec<Derived> {
    [ill_conditioned(), single_router_bounds(), investigation(), cube(), cube_vcq()].into_iter().flatten().collect()
}

#[test]
fn prose_of_the_analytical_model_sections_follows_from_the_committed_runs() {
    let errors = check_derived(&derived());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

//! The section census of 000_… Figs 8, 9, 10 and the two-class ON/OFF
//! section (`experiments/prose_census.py run --lines`, docs/reproduction.md
//! "Section census, 000_… Figs 8–10 and two ON/OFF classes"): the quoted
//! results of those sections' prose that no test of this binary noticed
//! when changed. Each is recomputed here from the committed CSV it comes
//! from (a range's ends from the cells they span), or, where the sentence
//! says what a test of another binary asserts, found in that test's own
//! source (its function's body, so another test's bound cannot stand in).

use super::models::{check_derived, cv as at, d, Derived};
use super::*;

/// The body of `fn name()` in `file` (up to the first line that is a
/// lone closing brace): the assertions a sentence about that test quotes.
fn test_body(file: &str, name: &str) -> String {
    let source = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let start = source.find(&format!("fn {name}()")).unwrap_or_else(|| panic!("{file}: no fn {name}"));
    let body = &source[start..];
    body[..body.find("\n}\n").unwrap_or(body.len())].to_string()
}

/// R1+R2 in messages/cycle/node (or port) as the code writes it: its
/// flits at M = 32, with the decimals a mix has in the experiment files.
fn rt_flits(written: &str) -> String {
    let flits = written.parse::<f64>().unwrap() * 32.0;
    let s = format!("{flits:.4}");
    s.trim_end_matches('0').to_string()
}

fn fraction(written: &str) -> String {
    format!("{:.2}", written.parse::<f64>().unwrap() / 100.0)
}

fn thousands(written: &str) -> String {
    format!("{written}000")
}

/// (sentence with {} for the number, the number as written, the test's
/// file and function, its code with {} for the number in the code's form,
/// that form). The sentence must be in the document as written (its
/// whitespace collapsed) and the code in the test's body.
type TestCase = (&'static str, &'static str, &'static str, &'static str, &'static str, fn(&str) -> String);

const ANALYTIC: &str = "sim/netsim/tests/analytic.rs";
const HOP_TRACE: &str = "sim/netsim/tests/hop_trace.rs";
const TRANSFER: &str = "sim/netsim/tests/transfer_time.rs";

fn test_cases() -> Vec<TestCase> {
    let same: fn(&str) -> String = |w| w.to_string();
    let float: fn(&str) -> String = |w| format!("{w}.0");
    let fig8 = "cube_latency_components_against_simulation";
    let fig9 = "cube_best_effort_latency_over_both_loads";
    let fig10 = "cube_model_with_best_effort_messages_twice_as_long";
    let two = "models_with_two_on_off_real_time_classes";
    let lone = "lone_messages_in_a_two_cube_leave_each_router_at_the_pipelines_cycle";
    let meet = "waiting_headers_see_their_vcs_holder_and_match_the_vc_wait_probe";
    let alone = "messages_alone_in_a_six_cube_take_the_papers_transfer_time";
    vec![
        // 000_… Fig. 8: the transfer-time test and the components test.
        ("the router waits {} cycles at its source, takes 4 + 5 h + 32 cycles", "0", TRANSFER, alone, "assert_eq!(stats.source_latency, {}, \"class {class}: queueing\")", float),
        ("at its source, takes {} + 5 h + 32 cycles and has no blocking part", "4", TRANSFER, alone, "{} + 5 * (m.src ^ m.dest).count_ones() as u64 + 32", same),
        ("at its source, takes 4 + {} h + 32 cycles and has no blocking part", "5", TRANSFER, alone, "4 + {} * (m.src ^ m.dest).count_ones() as u64 + 32", same),
        ("at its source, takes 4 + 5 h + {} cycles and has no blocking part", "32", TRANSFER, alone, "4 + 5 * (m.src ^ m.dest).count_ones() as u64 + {}", same),
        ("at R1+R2 = {} and 0.0045 to the signs and bounds above", "0.0015", ANALYTIC, fig8, "(0.112, \"[{}, 0.064]\", 0.001)", rt_flits),
        ("at R1+R2 = 0.0015 and {} to the signs and bounds above", "0.0045", ANALYTIC, fig8, "(0.208, \"[{}, 0.064]\", 0.003)", rt_flits),
        ("to the signs and bounds above: T within {} %,", "0.5", ANALYTIC, fig8, "abs() <= {}, \"load {load} class {class}: T model", |w| format!("{:.3}", w.parse::<f64>().unwrap() / 100.0)),
        ("R1's simulated wait within {} % of the M/D/1 value", "10", ANALYTIC, fig8, "(r1 / md1 - 1.0).abs() <= {}", fraction),
        // "Where R1's extra blocking arises": the hop trace's two tests.
        ("alone leaves router k (k = 0 its source's, then the e-cube order) {} + 5k cycles after its injection", "4", HOP_TRACE, lone, "hop.header_left, m.injected + {} + 5 * k as u64", same),
        ("its tail {} cycles behind on every link", "31", HOP_TRACE, lone, "hop.tail_left, hop.header_left + {}", same),
        ("no flit on its links while it waits (T = {} + 5h + 32, `transfer_time.rs`)", "4", TRANSFER, alone, "{} + 5 * (m.src ^ m.dest).count_ones() as u64 + 32", same),
        ("no flit on its links while it waits (T = 4 + 5h + {}, `transfer_time.rs`)", "32", TRANSFER, alone, "4 + 5 * (m.src ^ m.dest).count_ones() as u64 + {}", same),
        ("a header in ROUTED for more than {} cycles", "3", HOP_TRACE, meet, "if hop.routed > {} {", same),
        // 000_… Fig. 9's test.
        ("`cube_best_effort_latency_over_both_loads` ({} k cycles, three corners)", "60", ANALYTIC, fig9, "replace(\"cycles = 100000\", \"cycles = {}\")", thousands),
        ("corners): model within {} %, and in both the real-time rise", "15", ANALYTIC, fig9, "abs() <= {}, \"rt {rt} be {b}", fraction),
        // 000_… Fig. 10's test: the loads (its bounds are `census_ties.rs`'s).
        ("(60 k cycles, R1+R2 = {} and 0.0045): every class within 10 %", "0.0015", ANALYTIC, fig10, "\"mix = [{}, 0.128]\"", rt_flits),
        ("(60 k cycles, R1+R2 = 0.0015 and {}): every class within 10 %", "0.0045", ANALYTIC, fig10, "\"mix = [{}, 0.128]\"", rt_flits),
        ("offered, and at {} the simulated R1 and R2 within 5 % of the M = 32", "0.0045", ANALYTIC, fig10, "(\"mix = [0.096, 0.064]\", \"mix = [{}, 0.064]\")", rt_flits),
        // Two ON/OFF classes' test.
        ("`models_with_two_on_off_real_time_classes`: (b) at {} and 0.0045, 60 k cycles", "0.0015", ANALYTIC, two, "\"mix = [{}, 0.064]\"", rt_flits),
        ("`models_with_two_on_off_real_time_classes`: (b) at 0.0015 and {}, 60 k cycles", "0.0045", ANALYTIC, two, "\"mix = [{}, 0.064]\"", rt_flits),
        ("(b) at 0.0015 and 0.0045, {} k cycles, R1 and R2 within 10 %", "60", ANALYTIC, two, "(\"cycles = 100000\", \"cycles = {}\")", thousands),
        ("60 k cycles, R1 and R2 within {} %, best effort within 15 %", "10", ANALYTIC, two, "[(2u8, {}), (1, {}), (0, 0.15)]", fraction),
        ("60 k cycles, R1 and R2 within 10 %, best effort within {} %", "15", ANALYTIC, two, "[(2u8, 0.10), (1, 0.10), (0, {})]", fraction),
        ("(a) at {} and 0.006, R1 within 10 %", "0.002", ANALYTIC, two, "\"mix = [{}, 0.32]\"", rt_flits),
        ("(a) at 0.002 and {}, R1 within 10 %", "0.006", ANALYTIC, two, "\"mix = [{}, 0.32]\"", rt_flits),
        ("0.006, R1 within {} %, R2 within 20 %, best effort within 30 %", "10", ANALYTIC, two, "[(2u8, {}), (1, 0.20), (0, 0.30)]", fraction),
        ("0.006, R1 within 10 %, R2 within {} %, best effort within 30 %", "20", ANALYTIC, two, "[(2u8, 0.10), (1, {}), (0, 0.30)]", fraction),
        ("0.006, R1 within 10 %, R2 within 20 %, best effort within {} %", "30", ANALYTIC, two, "[(2u8, 0.10), (1, 0.20), (0, {})]", fraction),
    ]
}

/// Sentences that say what a test of another binary asserts: the number
/// as the document writes it must be the one in that test's body.
#[test]
fn cube_figs_test_descriptions_quote_the_assertions() {
    let flat = doc_words();
    for (sentence, written, file, name, code, form) in test_cases() {
        let sentence = sentence.replace("{}", written);
        assert!(flat.contains(&sentence), "not in docs/reproduction.md: {sentence:?}");
        let body = test_body(file, name);
        let code = code.replace("{}", &form(written));
        assert!(body.contains(&code), "{file} fn {name} does not have {code:?} (the document says {sentence:?})");
    }
    // "a live 200 k-cycle simulation of `fig7_000_cube6`": the file's run
    // length, which that test does not shorten.
    let written = "200";
    let sentence = format!("holds the live model and a live {written} k-cycle simulation of `fig7_000_cube6`");
    assert!(flat.contains(&sentence), "not in docs/reproduction.md: {sentence:?}");
    let file = std::fs::read_to_string(root().join("experiments/fig7_000_cube6.toml")).unwrap();
    assert!(file.contains(&format!("\ncycles = {}\n", thousands(written))), "fig7_000_cube6.toml does not run {written} k cycles");
    assert!(!test_body(ANALYTIC, "cube_latency_components_against_simulation").contains("cycles ="), "the test shortens the run");
}

const CUBE8: &str = "experiments/results/model_fig8_000_cube6/results.csv";
const MIX: &str = "workload.load+workload.mix";
const CUBE_KEYS: [&str; 4] = ["0.112:0.048:0.064", "0.16:0.096:0.064", "0.208:0.144:0.064", "0.256:0.192:0.064"];

/// 000_… Fig. 8: "T is 51 of R1's 52–58 cycles": T from the components'
/// transfer time (every load), R1's network latency over the model and
/// the simulation at the four loads.
fn fig8_r1_latency_range() -> Vec<Derived> {
    const COMPONENTS: &str = "experiments/results/model_fig8_000_cube6/latency_components.csv";
    let p = "because T is 51 of R1's 52–58 cycles";
    let mut v = Vec::new();
    let mut latency = Vec::new();
    for key in CUBE_KEYS {
        let point: &'static str = Box::leak(format!("{MIX}={key}").into_boxed_str());
        for source in ["model:kim2005_cube", "sim"] {
            v.push(d(p, "51", at(COMPONENTS, &[("source", source), ("point", point), ("class", "2")], "transfer_cycles")));
            latency.push(at(CUBE8, &[("source", source), (MIX, key)], "class2_network_latency_cycles"));
        }
    }
    let (lo, hi) = min_max(&latency);
    v.extend([d(p, "52", lo), d(p, "58", hi)]);
    v
}

/// 100 (model − sim) / sim of `column` at the point `key` of `csv`.
fn error(csv: &str, model: &'static str, key: &'static str, column: &str) -> f64 {
    let (m, s) = (at(csv, &[("source", model), (MIX, key)], column), at(csv, &[("source", "sim"), (MIX, key)], column));
    100.0 * (m - s) / s
}

/// 000_… Fig. 8's "Not established" paragraph: R2's blocking-and-sharing
/// error range in the 6-cube, 100 (model − sim) / sim of the components.
fn fig8_r2_blocking_range() -> Vec<Derived> {
    const COMPONENTS: &str = "experiments/results/model_fig8_000_cube6/latency_components.csv";
    let errors: Vec<f64> = CUBE_KEYS
        .iter()
        .map(|key| {
            let point: &'static str = Box::leak(format!("{MIX}={key}").into_boxed_str());
            let part = |source: &'static str| at(COMPONENTS, &[("source", source), ("point", point), ("class", "1")], "blocking_sharing_cycles");
            100.0 * (part("model:kim2005_cube") - part("sim")) / part("sim")
        })
        .collect();
    let (lo, hi) = min_max(&errors);
    let p = "why R2's blocking and sharing is below the model's (+18\nto +40 % in Fig. 8)";
    vec![d(p, "+18", lo), d(p, "+40", hi)]
}

/// "Where R1's extra blocking arises", finding 2: best effort's flits per
/// message while an R1 header waited, at the middle and the destination's
/// routers at every load, each about 0.2 (one decimal).
fn hop_parts_best_effort_flat() -> Vec<Derived> {
    const HOPS: &str = "experiments/results/cube_hop_parts/cube_hop_parts.csv";
    let p = "best effort's are flat at about 0.2 with load.";
    let mut v = Vec::new();
    for point in CUBE_KEYS {
        for place in ["sim_flits_middle_0", "sim_flits_dest_0"] {
            v.push(d(p, "0.2", at(HOPS, &[("point", point), ("class", "2")], place)));
        }
    }
    v
}

/// 000_… Fig. 9: the model's best-effort error over the 3 × 3 grid, from
/// its largest (light best effort, heavy real time) to its smallest.
fn fig9_error_span() -> Vec<Derived> {
    const C9: &str = "experiments/results/model_fig9_000_cube6/results.csv";
    let grid = ["0.08:0.048:0.032", "0.112:0.048:0.064", "0.176:0.048:0.128", "0.128:0.096:0.032", "0.16:0.096:0.064", "0.224:0.096:0.128", "0.176:0.144:0.032", "0.208:0.144:0.064", "0.272:0.144:0.128"];
    let errors: Vec<f64> = grid.iter().map(|&k| error(C9, "model:kim2005_cube", k, "be_network_latency_cycles")).collect();
    let (lo, hi) = min_max(&errors);
    let p = "so the error moves from +13 % to −3 % across the\ngrid";
    vec![d(p, "+13", hi), d(p, "−3", lo)]
}

/// "the cube's best effort at heavy load, part by part": Fig. 11(b)'s
/// best-effort error named as not split, and the bound on how far the
/// message term moves when best effort doubles (the tightest tenth above
/// the larger of the model's and the simulation's moves).
fn be_parts_rest() -> Vec<Derived> {
    const K3: &str = "experiments/results/model_fig11b_000_cube6_k3/results.csv";
    const PARTS: &str = "experiments/results/cube_be_parts/cube_be_parts.csv";
    let mut v = vec![d("of Fig. 11(b)'s +21 % (not measured here)", "+21", error(K3, "model:kim2005_cube", "0.272:0.208:0.064", "be_network_latency_cycles"))];
    let term = |point: &'static str, column: &str| at(PARTS, &[("point", point)], column);
    let moves: Vec<f64> = ["model_ejection_transfer", "sim_body"].iter().map(|c| (term("0.176:0.048:0.128", c) - term("0.112:0.048:0.064", c)).abs()).collect();
    let largest = min_max(&moves).1;
    assert!(largest > 0.0, "the message term does not move at all");
    v.push(d("term moves by less than 0.2 cycles in either", "0.2", (largest * 10.0).floor() / 10.0 + 0.1));
    v
}

/// 000_… Fig. 10: best effort's error range with M = 32 (Fig. 7(b)'s
/// committed run) that the M = 64 errors are set beside.
fn fig10_m32_best_effort() -> Vec<Derived> {
    const C6: &str = "experiments/results/model_fig7_000_cube6/results.csv";
    let errors: Vec<f64> = CUBE_KEYS.iter().map(|&k| error(C6, "model:kim2005_cube", k, "be_network_latency_cycles")).collect();
    let (lo, hi) = min_max(&errors);
    let p = "above, best effort was +1 to +17 %)";
    vec![d(p, "+1", lo), d(p, "+17", hi)]
}

/// Two ON/OFF classes: best effort's source wait in the router at 0.010,
/// the model's (Eq. 15 at the classes' mean rates) and the simulated one.
fn two_class_router_source_wait() -> Vec<Derived> {
    const Q: &str = "experiments/results/model_fig12_000_onoff_2rt/source_queue.csv";
    let wait = |source: &'static str| at(Q, &[("source", source), ("point", "workload.load+workload.mix=0.64:0.32:0.32"), ("class", "0")], "source_wait_cycles");
    let p = "source queue is near saturation (W̄ = 2,207 cycles against the simulated\n225)";
    vec![d(p, "2,207", wait("model:kim2005")), d(p, "225", wait("sim"))]
}

/// 000_… Fig. 5's router runs (`model_fig5_000_np`): the first R1+R2 load
/// at which the model's best-effort source queue has no solution, the
/// load before it, and the simulated best effort's source wait there.
fn fig5_router_saturation() -> Vec<Derived> {
    const Q: &str = "experiments/results/model_fig5_000_np/source_queue.csv";
    let table = read_csv(Q);
    let be = |source: &str| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = table
            .iter()
            .filter(|r| r["source"] == source && r["class"] == "0")
            .map(|r| {
                // point = "workload.load+workload.mix=total:R1+R2:best effort" in flits, M = 32.
                let rt: f64 = r["point"].split(':').nth(1).unwrap().parse().unwrap();
                (rt / 32.0, r["source_wait_cycles"].parse().unwrap())
            })
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let model = be("model:kim2005");
    let first = model.iter().position(|(_, w)| w.is_nan()).expect("the model's best-effort queue saturates in the sweep");
    assert!(first > 0 && model[first..].iter().all(|(_, w)| w.is_nan()), "saturated from one load on: {model:?}");
    let (load, before) = (model[first].0, model[first - 1].0);
    let sim = be("sim");
    let wait_at = |l: f64| sim.iter().find(|(x, _)| (x - l).abs() < 1e-9).unwrap().1;
    let p = "at 0.012 the model's best-effort\nsource queue saturates";
    let q = "whether the simulated one does is not established: it waits 2,714 cycles\nthere, 13 times its wait at 0.010):";
    vec![d(p, "0.012", load), d(q, "0.010", before), d(q, "2,714", wait_at(load)), d(q, "13", wait_at(load) / wait_at(before))]
}

fn derived() -> Vec<Derived> {
    [fig8_r1_latency_range(), fig8_r2_blocking_range(), hop_parts_best_effort_flat(), fig9_error_span(), be_parts_rest(), fig10_m32_best_effort(), two_class_router_source_wait(), fig5_router_saturation()].into_iter().flatten().collect()
}

#[test]
fn prose_of_000_cube_figs_follows_from_the_committed_runs() {
    let errors = check_derived(&derived());
    assert!(errors.is_empty(), "{} findings:\n{}", errors.len(), errors.join("\n"));
}

//! "What makes the ring's network latency grow (004_… Fig. 7(b), issue
//! 22)" and "Fig. 9: what the model says of the two strategies (issue 22)":
//! both tables rebuilt cell by cell from the committed
//! `experiments/results/latency_growth_004/latency_growth.csv` and
//! `experiments/results/fig9_strategy_tandem_004/strategies.csv`, the
//! prose's numbers formatted from the same cells, and checked against the
//! independent committed runs: `model_fig8_004`'s simulated network latency
//! (the split's runs must be those) and `model_fig9_004`'s t̄_s (the
//! strategies' stage-rate t̄_s must be the CLI's).

use super::*;

const GROWTH: &str = "experiments/results/latency_growth_004/latency_growth.csv";
const HEADERS: &str = "experiments/results/latency_growth_004/header_parts.csv";
const HEADER_HEADING: &str = "#### Where the ring's header waits after VA (004_… Fig. 7(b), issue 22)";
/// `header_parts.csv`'s wait parts, in the table's order.
const HEADER_WAITS: [&str; 7] = ["behind_in_input", "output_full", "behind_in_output", "no_credit", "link_shared", "switch_lost", "ready_idle"];
const STRATEGIES: &str = "experiments/results/fig9_strategy_tandem_004/strategies.csv";
const GROWTH_HEADING: &str = "#### What makes the ring's network latency grow (004_… Fig. 7(b), issue 22)";
const MODEL_HEADING: &str = "#### Fig. 9: what the model says of the two strategies (issue 22)";
/// (load in flits/node/cycle, packets/s/node as the tables write it).
const LOADS: [(&str, &str); 4] = [("0.05", "1904"), ("0.2", "7617"), ("0.4", "15234"), ("0.6", "22852")];

type Row = HashMap<String, String>;

fn table(path: &str) -> Vec<Row> {
    read_csv(path)
}

fn num(r: &Row, k: &str) -> f64 {
    let v = r.get(k).unwrap_or_else(|| panic!("no column {k}"));
    v.parse().unwrap_or_else(|_| panic!("{k} = {v:?}"))
}

fn growth_at(rows: &[Row], load: &str) -> Row {
    rows.iter().find(|r| r["load"] == load && r["flits"] == "10").unwrap_or_else(|| panic!("{GROWTH}: no load {load}")).clone()
}

fn strategy_at(rows: &[Row], strategy: &str, load: &str) -> Row {
    rows.iter().find(|r| r["strategy"] == strategy && r["load"] == load).unwrap_or_else(|| panic!("{STRATEGIES}: no {strategy} at {load}")).clone()
}

fn signed(x: f64, decimals: usize) -> String {
    format!("{}{:.decimals$}", if x < 0.0 { "−" } else { "+" }, x.abs())
}

fn growth_rows() -> Vec<String> {
    let rows = table(GROWTH);
    LOADS
        .iter()
        .map(|(load, pps)| {
            let r = growth_at(&rows, load);
            let c = |k: &str| format!("{:.2}", num(&r, k));
            format!(
                "| {pps} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} / {:.3} |",
                c("network_latency"),
                c("zero_load"),
                c("vc_wait"),
                c("header_after_va"),
                c("eject_stretch"),
                c("eject_shared"),
                c("eject_not_ready"),
                c("injection_stretch"),
                num(&r, "router_link_util"),
                num(&r, "accepted")
            )
        })
        .collect()
}

fn header_rows() -> Vec<String> {
    let rows = table(HEADERS);
    LOADS
        .iter()
        .map(|(load, pps)| {
            let r = growth_at(&rows, load);
            let cells: Vec<String> = std::iter::once("header_after_va").chain(HEADER_WAITS).map(|k| format!("{:.2}", num(&r, k))).collect();
            format!("| {pps} | {} |", cells.join(" | "))
        })
        .collect()
}

fn ts_cell(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "saturated".into()
    }
}

fn strategy_rows() -> Vec<String> {
    let rows = table(STRATEGIES);
    LOADS
        .iter()
        .map(|(load, pps)| {
            let (a, b) = (strategy_at(&rows, "destination_block", load), strategy_at(&rows, "source_block", load));
            let rates = |r: &Row| (1..=4).map(|i| format!("{:.2}", 1000.0 * num(r, &format!("stage_rate_{i}")))).collect::<Vec<_>>().join(", ");
            let ts = |k: &str| format!("{} / {}", ts_cell(num(&a, k)), ts_cell(num(&b, k)));
            format!("| {pps} | {} | {} | {} | {} |", rates(&a), rates(&b), ts("ts_mmn"), ts("ts_mmn_per_path"))
        })
        .collect()
}

/// For the census: every number of both rebuilt tables.
pub(super) fn ties() -> Vec<census::Tie<'static>> {
    growth_rows()
        .into_iter()
        .chain(header_rows())
        .chain(strategy_rows())
        .map(|r| {
            let r: &'static str = Box::leak(r.into_boxed_str());
            census::Tie { passage: r, written: census::numbers(r) }
        })
        .collect()
}

fn section(heading: &str) -> String {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let s = doc.split(heading).nth(1).unwrap_or_else(|| panic!("no section {heading}")).split("\n#").next().unwrap().to_string();
    s
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn fig7b_growth_004_follows_from_the_committed_runs() {
    let text = section(GROWTH_HEADING);
    for row in growth_rows() {
        assert!(text.contains(&row), "row not in the section as the CSV gives it: {row}");
    }
    let flat = flat(&text);
    let has = |s: String| assert!(flat.contains(&s), "not in the section: {s:?}");
    let rows = table(GROWTH);
    let parts = read_csv("experiments/results/model_fig8_004/latency_parts.csv");
    let committed = |who: &str, load: &str| {
        let point = format!("workload.load={load} workload.message_flits=10");
        num(parts.iter().find(|r| r["source"] == who && r["point"].trim_matches('"') == point).unwrap_or_else(|| panic!("{who} at {load}")), "network_latency_cycles")
    };
    let committed_src = |who: &str, load: &str| {
        let point = format!("workload.load={load} workload.message_flits=10");
        num(parts.iter().find(|r| r["source"] == who && r["point"].trim_matches('"') == point).unwrap(), "source_wait_cycles")
    };
    for r in &rows {
        // The accounting is exact message by message ...
        assert_eq!(num(r, "residual_max_abs"), 0.0, "load {}: a message's parts do not add up", r["load"]);
        // ... so the means add up too (4-decimal cells: 5e-4 of rounding).
        let sum = num(r, "zero_load") + num(r, "vc_wait") + num(r, "header_after_va") + num(r, "eject_stretch");
        assert!((sum - num(r, "network_latency")).abs() < 5e-4, "load {}: {sum} against {}", r["load"], r["network_latency"]);
        // The same runs as the committed sweep's.
        if r["load"] != "0.002" {
            assert!((num(r, "engine_network_latency") - committed("sim", &r["load"])).abs() < 1e-3, "load {}: not model_fig8_004's run", r["load"]);
        }
    }
    let (lo, hi, zero) = (growth_at(&rows, "0.05"), growth_at(&rows, "0.6"), growth_at(&rows, "0.002"));
    let d = |k: &str| num(&hi, k) - num(&lo, k);
    let total = d("network_latency");
    let pct = |k: &str| 100.0 * d(k) / total;
    has(format!("rises by {total:.2} cycles: the ejection stretch by {:.2} ({:.1} %), the header's time after VA by {:.2} ({:.1} %), the VC wait by {:.2} ({:.1} %), zero load by {}", d("eject_stretch"), pct("eject_stretch"), d("header_after_va"), pct("header_after_va"), d("vc_wait"), pct("vc_wait"), signed(d("zero_load"), 2)));
    // The verdict's order: the stretch, then the header after VA, then the VC wait.
    assert!(d("eject_stretch") > d("header_after_va") && d("header_after_va") > d("vc_wait"), "the order stated is not the files'");
    assert!(pct("eject_stretch") > 80.0 && pct("vc_wait") < 2.0);
    let rest = num(&hi, "header_not_ready_excess") + num(&hi, "header_other");
    let routers = num(&hi, "hops") + 1.0;
    has(format!("the header's {:.2} cycles after VA are {:.2} ready while the link carried another VC's flit, {:.2} without a credit and {rest:.2} behind an earlier message's flits", num(&hi, "header_after_va"), num(&hi, "header_shared"), num(&hi, "header_no_credit")));
    assert!((num(&hi, "header_shared") + num(&hi, "header_no_credit") + num(&hi, "header_ready_idle") + rest - num(&hi, "header_after_va")).abs() < 5e-4);
    has(format!("{:.2} cycles per router", num(&hi, "header_after_va") / routers));
    has(format!("of the {:.2} gap cycles in the delivery, {:.2} had the message's next flit ready", num(&hi, "eject_stretch"), num(&hi, "eject_shared")));
    has(format!("{:.2} had it not yet there", num(&hi, "eject_not_ready")));
    // Where the gaps are made.
    has(format!("take 9 + {:.2} cycles to leave ({:.2} at 1904)", num(&hi, "injection_stretch"), num(&lo, "injection_stretch")));
    has(format!("at {:.3} flits per cycle, add {} net", num(&hi, "router_link_util"), signed(num(&hi, "link_stretch_added"), 2)));
    has(format!("; {} at 1904)", signed(num(&lo, "link_stretch_added"), 2)));
    has(format!("carrying {:.3}, adds {} ({} at 1904)", num(&hi, "accepted"), signed(num(&hi, "eject_stretch_added"), 2), signed(num(&lo, "eject_stretch_added"), 2)));
    has(format!("the same three are {:.2}, {} and {} and the latency is zero load's ({:.2} against {:.2})", num(&zero, "injection_stretch"), signed(num(&zero, "link_stretch_added"), 2), signed(num(&zero, "eject_stretch_added"), 2), num(&zero, "network_latency"), num(&zero, "zero_load")));
    // Every stretch made is accounted for: S_0 + added on the links + added at the ejection = S_e.
    for r in &rows {
        let s = num(r, "injection_stretch") + num(r, "link_stretch_added") + num(r, "eject_stretch_added");
        assert!((s - num(r, "eject_stretch")).abs() < 5e-4, "load {}", r["load"]);
    }
    has(format!("({:.2} cycles at 22852, claim (b) above)", committed_src("sim", "0.6")));
    has(format!("before the header leaves ({:.2} cycles)", committed_src("model:mmn", "0.6")));
    // Against the model.
    let model = committed("model:mmn", "0.6");
    let wait_model = {
        let thr = read_csv("experiments/results/model_fig8_004/throughput.csv");
        let point = "workload.load=0.6 workload.message_flits=10";
        num(thr.iter().find(|r| r["source"] == "model:mmn" && r["point"].trim_matches('"') == point).unwrap(), "service_cycles") - 30.0
    };
    let hops = num(&hi, "zero_load") - (model - wait_model);
    let vc = num(&hi, "vc_wait") - wait_model;
    let untermed = num(&hi, "header_after_va") + num(&hi, "eject_stretch");
    has(format!("of the {:.2} cycles between the measured {:.2} and the model's {model:.2} at 22852, {hops:.2} are the hops", num(&hi, "network_latency") - model, num(&hi, "network_latency")));
    has(format!("against the {:.2} measured, 5 cycles each) and {vc:.2} the VC wait ({:.2} measured, {wait_model:.4} in the model", num(&hi, "hops"), num(&hi, "vc_wait")));
    has(format!("the other {untermed:.2} are waits it has no term for: the header's time after VA ({:.2}) and the stretch of the flit stream ({:.2})", num(&hi, "header_after_va"), num(&hi, "eject_stretch")));
    assert!((hops + vc + untermed - (num(&hi, "network_latency") - model)).abs() < 1e-3);
    let doc = flat_doc();
    let claim = format!("{:.1} % of the rise is the stretch of the flit stream, {:.1} % the VC wait", pct("eject_stretch"), pct("vc_wait"));
    assert!(doc.contains(&claim), "claim (b) does not say {claim:?}");
    // The hop term is the model's rounding: 5 cycles for each hop above H = 4.
    assert!((hops - 5.0 * (num(&hi, "hops") - 4.0)).abs() < 0.01, "{hops} is not the hop rounding");
}

#[test]
fn fig9_model_orders_the_strategies_by_where_the_load_is() {
    let text = section(MODEL_HEADING);
    for row in strategy_rows() {
        assert!(text.contains(&row), "row not in the section as the CSV gives it: {row}");
    }
    let flat = flat(&text);
    let has = |s: String| assert!(flat.contains(&s), "not in the section: {s:?}");
    let rows = table(STRATEGIES);
    let cli = read_csv("experiments/results/model_fig9_004/throughput.csv");
    let (mut by_rates, mut by_path) = (Vec::new(), Vec::new());
    for (load, _) in LOADS {
        let (a, b) = (strategy_at(&rows, "destination_block", load), strategy_at(&rows, "source_block", load));
        for (r, strategy) in [(&a, "destination_block"), (&b, "source_block")] {
            let point = format!("workload.load={load} topology.strategy={strategy}");
            for (model, col) in [("model:mmn", "ts_mmn"), ("model:mdn", "ts_mdn")] {
                let c = num(cli.iter().find(|x| x["source"] == model && x["point"].trim_matches('"') == point).unwrap(), "service_cycles");
                assert!((c - num(r, col)).abs() < 1e-4, "{strategy} at {load}: {col} {} against the CLI's {c}", r[col]);
            }
        }
        // The second strategy's t̄_s is the longer one.
        assert!(num(&b, "ts_mmn") > num(&a, "ts_mmn") && num(&b, "ts_mdn") > num(&a, "ts_mdn"), "at {load}");
        by_rates.push(num(&b, "ts_mmn") - num(&a, "ts_mmn"));
        let (pa, pb) = (num(&a, "ts_mmn_per_path"), num(&b, "ts_mmn_per_path"));
        if pa.is_finite() {
            assert!(pb > pa, "per path at {load}");
            by_path.push((pb - pa, pa));
        }
        // The same link rates, largest and spread.
        assert_eq!((a["link_rate_max"].as_str(), a["link_rate_sd"].as_str()), (b["link_rate_max"].as_str(), b["link_rate_sd"].as_str()), "at {load}");
        // Under the first strategy the load grows toward the destination.
        let r = |x: &Row, i: usize| num(x, &format!("stage_rate_{i}"));
        assert!((1..4).all(|i| r(&a, i) > r(&a, i + 1)), "λ̄_i does not fall with i at {load}");
    }
    let v: Vec<String> = by_rates.iter().map(|x| format!("{x:.4}")).collect();
    has(format!("by {}, {}, {} and {} cycles with the stage rates", v[0], v[1], v[2], v[3]));
    let (a6, b6) = (strategy_at(&rows, "destination_block", "0.6"), strategy_at(&rows, "source_block", "0.6"));
    has(format!("({:.1} % at 22852; M/D/n {:.4})", 100.0 * by_rates[3] / num(&a6, "ts_mmn"), num(&b6, "ts_mdn") - num(&a6, "ts_mdn")));
    let p: Vec<String> = by_path.iter().map(|x| format!("{:.4}", x.0)).collect();
    has(format!("link by link by {}, {} and {} cycles ({:.1} % at 15234)", p[0], p[1], p[2], 100.0 * by_path[2].0 / by_path[2].1));
    assert!(num(&a6, "ts_mmn_per_path").is_infinite() && num(&b6, "ts_mmn_per_path").is_infinite());
    has(format!("the largest {:.4} packets per cycle and the standard deviation {:.4} under both", num(&a6, "link_rate_max"), num(&a6, "link_rate_sd")));
    has(format!("(λ̄_1 = {:.2} against λ̄_4 = {:.2} at 22852)", 1000.0 * num(&a6, "stage_rate_1"), 1000.0 * num(&a6, "stage_rate_4")));
    let second: Vec<f64> = (1..=4).map(|i| 1000.0 * num(&b6, &format!("stage_rate_{i}"))).collect();
    has(format!("(λ̄_i {:.2}–{:.2})", second.iter().copied().fold(f64::MAX, f64::min), second.iter().copied().fold(0.0, f64::max)));
    // "Not reproduced yet" quotes the 22852 pair.
    let doc = flat_doc();
    assert!(doc.contains(&format!("gives the second strategy the longer t̄_s ({:.4} against {:.4} cycles at 22852, M/M/n)", num(&b6, "ts_mmn"), num(&a6, "ts_mmn"))));
}

fn flat_doc() -> String {
    flat(&std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap())
}

#[test]
fn fig7b_header_parts_follow_from_the_committed_runs() {
    let text = section(HEADER_HEADING);
    for row in header_rows() {
        assert!(text.contains(&row), "row not in the section as the CSV gives it: {row}");
    }
    let flat = flat(&text);
    let has = |s: String| assert!(flat.contains(&s), "not in the section: {s:?}");
    let (rows, growth) = (table(HEADERS), table(GROWTH));
    for r in &rows {
        let load = r["load"].as_str();
        // Every message's split exact, its pipeline one a router, and equal
        // to hop_parts.rs's where both measure the same thing.
        for k in ["header_residual_max_abs", "pipeline_max_abs", "hop_parts_max_abs"] {
            assert_eq!(num(r, k), 0.0, "load {load}: {k}");
        }
        let g = growth_at(&growth, load);
        assert_eq!(r["messages"], g["messages"], "load {load}: not the same runs");
        // The other probe's columns, from the other CSV (4-decimal cells).
        assert!((num(r, "header_after_va") - num(&g, "header_after_va")).abs() < 5e-5, "load {load}");
        let sum: f64 = HEADER_WAITS.iter().map(|k| num(r, k)).sum();
        assert!((sum - num(r, "header_after_va")).abs() < 5e-4, "load {load}: parts {sum} against {}", r["header_after_va"]);
        assert!((num(r, "link_shared") - num(&g, "header_shared")).abs() < 5e-5, "load {load}");
        assert!((num(r, "no_credit") - num(&g, "header_no_credit")).abs() < 5e-5, "load {load}");
        let behind = num(r, "behind_in_input") + num(r, "output_full") + num(r, "behind_in_output");
        assert!((behind - num(&g, "header_not_ready_excess") - num(&g, "header_other")).abs() < 5e-4, "load {load}: behind {behind}");
        // The full crossbar loses no ready header; point C idles no eligible VC.
        assert_eq!((num(r, "switch_lost"), num(r, "ready_idle")), (0.0, 0.0), "load {load}");
        // The positions add up to the totals.
        for k in HEADER_WAITS {
            let p: f64 = ["source", "transit", "destination"].iter().map(|at| num(r, &format!("{k}_{at}"))).sum();
            assert!((p - num(r, k)).abs() < 5e-4, "load {load}: {k} by position {p}");
        }
    }
    let (lo, hi) = (growth_at(&rows, "0.05"), growth_at(&rows, "0.6"));
    let h = |k: &str| num(&hi, k);
    let d = |k: &str| h(k) - num(&lo, k);
    let behind = h("behind_in_input") + h("output_full") + h("behind_in_output");
    has(format!("packets/s/node) split cycle by cycle"));
    has(format!("the header's {:.2} cycles after VA are {behind:.2} behind an earlier message's flits ({:.2} in its input VC, {:.2} with its output VC full of them, {:.2} behind them in its output VC), {:.2} ready while the link carried another VC's flit, {:.2} without a credit, and 0 lost at the crossbar", h("header_after_va"), h("behind_in_input"), h("output_full"), h("behind_in_output"), h("link_shared"), h("no_credit")));
    // The growth section's unsplit cycles are these.
    let g = growth_at(&growth, "0.6");
    assert!((behind - num(&g, "header_not_ready_excess") - num(&g, "header_other")).abs() < 5e-4);
    has(format!("occupy the output VC {:.2} (and {:.2} more behind them in the input VC), waiting for credits {:.2}, losing allocation to another VC {:.2} (all at the link, point C; none at the crossbar), residual 0", h("output_full") + h("behind_in_output"), h("behind_in_input"), h("no_credit"), h("link_shared")));
    has(format!("Of the growth from 1904 ({}), the behind parts take {}, {} and {}, link shared {} and no credit {}", signed(d("header_after_va"), 2), signed(d("behind_in_input"), 2), signed(d("output_full"), 2), signed(d("behind_in_output"), 2), signed(d("link_shared"), 2), signed(d("no_credit"), 2)));
    let pos = |k: &str| ["source", "transit", "destination"].map(|at| format!("{:.2}", h(&format!("{k}_{at}"))));
    has(format!("(one source router, {:.2} transit routers summed, one destination router)", h("routers") - 2.0));
    let [a, b, c] = pos("behind_in_output");
    has(format!("behind in output is {a}, {b} and {c}"));
    let [a, b, c] = pos("behind_in_input");
    has(format!("behind in input {a}, {b} and {c}"));
    let [a, b, c] = pos("link_shared");
    has(format!("link shared {a}, {b} and {c}"));
    // Against the model: the VC wait is the subsection above's.
    has(format!("E(W) is the VC wait, measured apart ({:.2} at 22852", num(&g, "vc_wait")));
    has(format!("no term for the {behind:.2} behind an earlier message's flits"));
    has(format!("the {:.2} behind in input at the source's router", h("behind_in_input_source")));
    has(format!("no term for the {:.2} with the link shared", h("link_shared")));
    has(format!("no term for the {:.2} without a credit", h("no_credit")));
    has(format!("None of the {:.2} cycles has a term there", h("header_after_va")));
    has(format!("({:.2} cycles at 22852 packets/s/node)", h("header_after_va")));
    has(format!("10 cycles above zero load"));
}

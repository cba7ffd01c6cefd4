//! "Where R1's extra blocking arises in the 6-cube (issue 22)" and "The
//! ejection form's excess, term by term (issue 22)": every number of both
//! sections' tables and prose, formatted here from the committed
//! `experiments/results/cube_hop_parts/cube_hop_parts.csv` and
//! `cube_be_ejection/cube_be_ejection.csv` (written by the netsim examples
//! of the same names), must appear in its section as written; the parts
//! must add up, and the claims' directions must hold in the data.

use super::{read_csv, root};
use std::collections::HashMap;

const HOPS: &str = "#### Where R1's extra blocking arises in the 6-cube (issue 22)";
const EJECTION: &str = "#### The ejection form's excess, term by term (issue 22)";
const HOP_CSV: &str = "experiments/results/cube_hop_parts/cube_hop_parts.csv";
const EJ_CSV: &str = "experiments/results/cube_be_ejection/cube_be_ejection.csv";
const BE_PARTS_CSV: &str = "experiments/results/cube_be_parts/cube_be_parts.csv";
const POINTS: [&str; 4] = ["0.112:0.048:0.064", "0.16:0.096:0.064", "0.208:0.144:0.064", "0.256:0.192:0.064"];

type Row = HashMap<String, String>;

/// The section's text, whitespace collapsed: from its heading to the next
/// `##`, `###` or `####` heading.
fn section(heading: &str) -> String {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let body = doc.split(heading).nth(1).unwrap_or_else(|| panic!("section missing: {heading}"));
    let end = ["\n### ", "\n#### ", "\n## "].iter().filter_map(|h| body.find(h)).min().unwrap_or(body.len());
    body[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

fn num(r: &Row, c: &str) -> f64 {
    r.get(c).unwrap_or_else(|| panic!("no column {c}")).parse().unwrap()
}

fn sum(r: &Row, cols: &[&str]) -> f64 {
    cols.iter().map(|c| num(r, c)).sum()
}

const VA: [&str; 3] = ["sim_va_source", "sim_va_middle", "sim_va_dest"];
const HDR: [&str; 3] = ["sim_hdr_source", "sim_hdr_middle", "sim_hdr_dest"];
const BODY: [&str; 4] = ["sim_body_injection", "sim_body_source", "sim_body_middle", "sim_body_dest"];
const MODEL_BLOCKING: [&str; 3] = ["model_input", "model_middle", "model_ejection_blocking"];

#[test]
fn cube_hop_parts_follow_from_their_csv() {
    let flat = section(HOPS);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let t = read_csv(HOP_CSV);
    let r1: Vec<Row> = POINTS.iter().map(|p| t.iter().find(|r| r["point"] == *p && r["class"] == "2").unwrap_or_else(|| panic!("no R1 row at {p}")).clone()).collect();
    for r in &r1 {
        assert_eq!(r["seeds"], "2", "{}", r["point"]);
        // The parts add up to the excess (each rounded to 3 decimals).
        let parts = sum(r, &HDR) + sum(r, &BODY);
        assert!((parts - num(r, "sim_excess")).abs() < 0.006, "{}: parts {parts} vs {}", r["point"], r["sim_excess"]);
        // R1 has a VC of its own at its source: no spreading on the injection link.
        assert_eq!(num(r, "sim_body_injection"), 0.0);
    }
    // Table 1, row by row.
    let row = |name: &str, m: &dyn Fn(&Row) -> Option<f64>, s: &dyn Fn(&Row) -> f64| {
        let cells: Vec<String> = r1.iter().map(|r| format!("{} / {:.3}", m(r).map_or("—".to_string(), |x| format!("{x:.3}")), s(r))).collect();
        has(format!("| {name} | {} |", cells.join(" | ")));
    };
    let col = |c: &'static str| move |r: &Row| num(r, c);
    let some = |c: &'static str| move |r: &Row| Some(num(r, c));
    let other = |r: &Row| sum(r, &HDR) - sum(r, &VA);
    row("blocking and sharing, L̄_c − T", &some("model_excess"), &col("sim_excess"));
    row("VC wait at the source's router, I S_s", &some("model_input"), &col("sim_va_source"));
    row("VC waits at the middle routers, B_middle S_s", &some("model_middle"), &col("sim_va_middle"));
    row("VC wait at the destination's router, O S_n", &some("model_ejection_blocking"), &col("sim_va_dest"));
    row("header's other cycles at the routers", &|_| None, &other);
    row("the flits spread behind the header, M (S_n − 1)", &some("model_ejection_sharing"), &|r| sum(r, &BODY));
    // Table 2.
    let triple = |name: &str, place: &str| {
        let cells: Vec<String> = r1.iter().map(|r| format!("{} / {} / {}", r[&format!("sim_flits_{place}_2")], r[&format!("sim_flits_{place}_1")], r[&format!("sim_flits_{place}_0")])).collect();
        has(format!("| {name} | {} |", cells.join(" | ")));
    };
    triple("middle routers, flits of R1 / R2 / best effort", "middle");
    triple("destination's router, flits of R1 / R2 / best effort", "dest");
    let pair = |name: &str, s: &str, m: &str| {
        let cells: Vec<String> = r1.iter().map(|r| format!("{} / {}", r[s], r[m])).collect();
        has(format!("| {name} | {} |", cells.join(" | ")));
    };
    pair("header waited for its VC at a middle router: sim / model P_b", "sim_pwait_middle", "model_pb_hop");
    pair("… at the destination's router: sim / model P_b", "sim_pwait_dest", "model_pb_ejection");
    // Finding 1's prose at 0.006.
    let h = &r1[3];
    let (va, oth, body) = (sum(h, &VA), other(h), sum(h, &BODY));
    let (mb, ms) = (sum(h, &MODEL_BLOCKING), num(h, "model_ejection_sharing"));
    has(format!("{} cycles are {va:.3} of VC waits ({} middle, {} destination, {} source), {oth:.3} of the header's other cycles and {body:.3} of spreading", h["sim_excess"], h["sim_va_middle"], h["sim_va_dest"], h["sim_va_source"]));
    has(format!("the model's {} are {mb:.3} of blocking and {ms:.3} of spreading", h["model_excess"]));
    has(format!("the VC waits are {:.3} cycles above the model's blocking terms, the header's other cycles (no term in Eq. 10) {oth:.3} more, and the spreading {:.3} below", va - mb, ms - body));
    let shortfall = num(h, "sim_excess") - num(h, "model_excess");
    has(format!("the model's shortfall of {shortfall:.3} cycles is the first two less the third"));
    let shares: Vec<f64> = r1.iter().map(|r| (sum(r, &VA) - sum(r, &MODEL_BLOCKING)) / (num(r, "sim_excess") - num(r, "model_excess"))).collect();
    let (lo, hi) = shares.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    has(format!("are {:.0} % to {:.0} % of the shortfall", 100.0 * lo, 100.0 * hi));
    // Finding 2: mostly R1's own VC; R2 below a third of R1; best effort flat near 0.2.
    for place in ["middle", "dest"] {
        let f = |c: u8| num(h, &format!("sim_flits_{place}_{c}"));
        has(format!("{:.3} of {:.3} flits", f(2), f(2) + f(1) + f(0)));
        for r in &r1 {
            let g = |c: u8| num(r, &format!("sim_flits_{place}_{c}"));
            assert!(g(1) < g(2) / 3.0, "{} {place}: R2 {} vs R1 {}", r["point"], g(1), g(2));
            assert!((0.19..=0.22).contains(&g(0)), "{} {place}: best effort {}", r["point"], g(0));
        }
    }
    // Finding 3's prose.
    has(format!("a share {} of R1's middle-router visits and {} of its destination visits waited at 0.006, where the model's P_b is {} and {}", h["sim_pwait_middle"], h["sim_pwait_dest"], h["model_pb_hop"], h["model_pb_ejection"]));
    for r in &r1 {
        assert!(num(r, "sim_pwait_middle") > 10.0 * num(r, "model_pb_hop") && num(r, "sim_pwait_dest") > 10.0 * num(r, "model_pb_ejection"), "{}", r["point"]);
    }
    // The R2 sentence.
    let r2 = t.iter().find(|r| r["point"] == POINTS[3] && r["class"] == "1").unwrap();
    has(format!("{} of {} cycles at 0.006, against {} simulated, of which {} are spreading on the injection link", r2["model_ejection_sharing"], r2["model_excess"], r2["sim_excess"], r2["sim_body_injection"]));
}

#[test]
fn cube_be_ejection_follows_from_its_csv() {
    let flat = section(EJECTION);
    let has = |text: String| assert!(flat.contains(&text), "not in the section: {text:?}");
    let t = read_csv(EJ_CSV);
    let at = |p: &str, g: &str| -> Row { t.iter().find(|r| r["point"] == p && r["group"] == g).unwrap_or_else(|| panic!("no {p} {g}")).clone() };
    let points = [POINTS[0], POINTS[3]];
    let groups: Vec<[Row; 3]> = points.iter().map(|p| [at(p, "idle"), at(p, "busy"), at(p, "all")]).collect();
    for [idle, busy, all] in &groups {
        assert_eq!(all["seeds"], "4");
        assert_eq!(num(idle, "messages") + num(busy, "messages"), num(all, "messages"));
        // The whole group's ejection time is `cube_be_parts`'s message term
        // for the same seeds (a separate count at the link).
        let parts = read_csv(BE_PARTS_CSV);
        let p = parts.iter().find(|r| r["point"] == all["point"]).unwrap();
        assert!((num(all, "sim_ejection") - num(p, "sim_body")).abs() < 0.002, "{}: {} vs {}", all["point"], all["sim_ejection"], p["sim_body"]);
        assert_eq!(all["rt_util_ejection"], format!("{:.4}", num(p, "sim_rt_util_ejection")));
    }
    let cells = |f: &dyn Fn(&[Row; 3]) -> String| groups.iter().map(|g| f(g)).collect::<Vec<_>>().join(" | ");
    let rho = |g: &[Row; 3]| 1.0 - num(&g[2], "pi0_ejection");
    has(format!("| share of busy arrivals, sim / form's 1 − Π_0 | {} |", cells(&|g| format!("{} / {:.4}", g[1]["share"], rho(g)))));
    has(format!("| M_s on arrival, all messages | {} |", cells(&|g| g[2]["sim_ms"].clone())));
    has(format!("| idle arrivals: M_s (1 + ρ_r) / sim | {} |", cells(&|g| format!("{} / {}", g[0]["form_term"], g[0]["sim_ejection"]))));
    has(format!("| idle arrivals: real-time flits on the ejection link during the crossing | {} |", cells(&|g| g[0]["sim_rt_flits"].clone())));
    has(format!("| busy arrivals: (M_s/2 + Busy + M/2)(1 + ρ_r) / sim | {} |", cells(&|g| format!("{} / {}", g[1]["form_term"], g[1]["sim_ejection"]))));
    has(format!("| Busy, form / residual seen by a busy arrival | {} |", cells(&|g| format!("{} / {}", g[1]["form_busy"], g[1]["sim_residual"]))));
    has(format!("| busy arrivals with the measured residual as Busy / sim | {} |", cells(&|g| format!("{} / {}", g[1]["form_term_measured_residual"], g[1]["sim_ejection"]))));
    has(format!("| the whole form / sim | {} |", cells(&|g| format!("{} / {}", g[2]["form_term"], g[2]["sim_ejection"]))));
    has(format!("| the whole form with ρ_r the link's real-time flit share / sim | {} |", cells(&|g| format!("{} / {}", g[2]["form_term_link_share"], g[2]["sim_ejection"]))));
    let [l, h] = [&groups[0], &groups[1]];
    has(format!("The link's real-time flit share is {} and {} where 1 − Π_0 is {:.4} and {:.4}; `cube_be_parts` counts the same {}", l[2]["rt_util_ejection"], h[2]["rt_util_ejection"], rho(l), rho(h), h[2]["rt_util_ejection"]));
    let [idle, busy, all] = h;
    let excess = num(&all, "form_term") - num(&all, "sim_ejection");
    has(format!("the form with the paper's M_s ({}, the last hop link's crossing) is {excess:.3} cycles above the simulation", all["sim_ms"]));
    // The 10.74 of the section above: its M_s was the mean hop crossing.
    let parts = read_csv(BE_PARTS_CSV);
    let p = parts.iter().find(|r| r["point"] == POINTS[3]).unwrap();
    has(format!("with the mean hop link crossing as M_s ({:.2}, the table above) it was {:.2}", num(p, "sim_hop_transfer"), num(p, "eq13_ejection_at_sim") - num(p, "sim_body")));
    // Findings 1-4.
    has(format!("{} of the headers arrive while a real-time VC of the ejection port is held, against 1 − Π_0 = {:.4}", busy["share"], rho(h)));
    let r = rho(h);
    has(format!("the ejection link adds {:.3} cycles to the idle arrivals' M_s ({} → {}) where the form adds ρ_r M_s = {:.3}; the link carried {} real-time flits", num(&idle, "sim_ejection") - num(&idle, "sim_ms"), idle["sim_ms"], idle["sim_ejection"], r * num(&idle, "sim_ms"), idle["sim_rt_flits"]));
    has(format!("The form is {:.3} cycles above for these", num(&idle, "form_term") - num(&idle, "sim_ejection")));
    has(format!("busy arrivals take {} cycles, {:.3} more than idle ones, where the form adds a whole mean busy period (Busy = {})", busy["sim_ejection"], num(&busy, "sim_ejection") - num(&idle, "sim_ejection"), busy["form_busy"]));
    has(format!("the residual the header actually meets is {}, and with it in place of Busy the form is still {:.3} above", busy["sim_residual"], num(&busy, "form_term_measured_residual") - num(&busy, "sim_ejection")));
    let pi0 = num(&all, "pi0_ejection");
    has(format!("the busy case's excess is {:.3} cycles and the idle case's {:.3}", (1.0 - pi0) * (num(&busy, "form_term") - num(&busy, "sim_ejection")), pi0 * (num(&idle, "form_term") - num(&idle, "sim_ejection"))));
    let link = num(&all, "form_term_link_share");
    has(format!("the form gives {}, {:.3} below the form with Π_0: {:.3} of the {excess:.3} remain", all["form_term_link_share"], num(&all, "form_term") - link, link - num(&all, "sim_ejection")));
    // The directions the findings state.
    assert!(num(&busy, "sim_ejection") - num(&idle, "sim_ejection") < 1.0, "busy arrivals barely slower");
    assert!(num(&busy, "sim_residual") < num(&busy, "form_busy") / 2.0, "residual below half of Busy");
    assert!(link - num(&all, "sim_ejection") > 0.9 * excess, "most of the excess stays without the VC holding");
}

//! Traces of the P router's per-lane credits (issue 23 item 2) quoted in
//! docs/reproduction.md: "003_… Fig. 9", *Why the router makes fewer dummy
//! tails with per-lane credits, traced*, from
//! `experiments/results/fig9a_003_lane_preemptions/preemptions.csv`
//! (written by `sim/netsim/tests/lane_preemptions_003.rs`, which checks
//! its totals against the committed runs' `preemptions`); "003_… Fig. 5",
//! *Where control's time in the single-pass router goes*, from
//! `experiments/results/fig5_003_control_router/control_router.csv`
//! (written by `sim/netsim/tests/control_router_time_003.rs`).

use super::{check, Claim, Num};

const PREEMPTIONS: &str = "experiments/results/fig9a_003_lane_preemptions/preemptions.csv";

/// The `count` of the row of `preemptions.csv` selected by `row`.
fn pre(written: &'static str, row: &'static [(&'static str, &'static str)]) -> Num {
    Num { written, csv: PREEMPTIONS, row, column: "count", scale: 1.0 }
}

/// Every claim of this file (for the census, `all_claims`).
pub(super) fn claims() -> Vec<Claim> {
    let mut all = preemption_claims();
    all.extend(control_router_claims());
    all
}

#[test]
fn lane_preemption_trace_matches_its_counts() {
    let errors = check(&preemption_claims());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

fn preemption_claims() -> Vec<Claim> {
    vec![
        Claim {
            passage: "an input VC above the lane it serves (real time over best effort 97,937\ntimes per VC and 94,867 per lane,",
            numbers: vec![
                pre("97,937", &[("credits", "per_vc"), ("kind", "opening"), ("by_class", "1"), ("of_class", "0")]),
                pre("94,867", &[("credits", "per_lane"), ("kind", "opening"), ("by_class", "1"), ("of_class", "0")]),
            ],
        },
        Claim {
            passage: "- Per VC: 97,982 lane openings; 90,197 over a message whose header had crossed (90,170 dummy tails), 7,785 over one whose header had not (7,808 silent switches).",
            numbers: vec![
                pre("97,982", &[("credits", "per_vc"), ("kind", "openings")]),
                pre("90,197", &[("credits", "per_vc"), ("kind", "opening_over"), ("by_class", "active_sent")]),
                pre("90,170", &[("credits", "per_vc"), ("kind", "router_preemptions")]),
                pre("7,785", &[("credits", "per_vc"), ("kind", "opening_over_unsent")]),
                pre("7,808", &[("credits", "per_vc"), ("kind", "router_silent_preemptions")]),
            ],
        },
        Claim {
            passage: "- Per lane: 94,916 lane openings; 51,578 over a crossed header (51,603 dummy tails), 43,338 over one not crossed (43,306 silent switches): 35,613 with the header holding its output VC and waiting for the switch, 7,650 waiting at VC allocation.",
            numbers: vec![
                pre("94,916", &[("credits", "per_lane"), ("kind", "openings")]),
                pre("51,578", &[("credits", "per_lane"), ("kind", "opening_over"), ("by_class", "active_sent")]),
                pre("51,603", &[("credits", "per_lane"), ("kind", "router_preemptions")]),
                pre("43,338", &[("credits", "per_lane"), ("kind", "opening_over_unsent")]),
                pre("43,306", &[("credits", "per_lane"), ("kind", "router_silent_preemptions")]),
                pre("35,613", &[("credits", "per_lane"), ("kind", "opening_over"), ("by_class", "active_unsent")]),
                pre("7,650", &[("credits", "per_lane"), ("kind", "opening_over"), ("by_class", "routed")]),
            ],
        },
        Claim {
            passage: "- The difference: 38,567 fewer dummy tails per lane, of which 35,498 are silent switches instead and 3,066 lane openings fewer.",
            numbers: vec![
                pre("38,567", &[("credits", "difference"), ("kind", "router_preemptions")]),
                pre("35,498", &[("credits", "difference"), ("kind", "router_silent_preemptions")]),
                pre("3,066", &[("credits", "difference"), ("kind", "openings")]),
            ],
        },
        Claim {
            passage: "one lane was opened per VC over a lane holding 40 flits. With per-lane\ncredits the lane above has 40 credits of its own, and 34,541 lanes were",
            numbers: vec![pre("34,541", &[("credits", "per_lane"), ("kind", "opening_over_full_lane")])],
        },
        Claim {
            passage: "preempted message had its output VC buffer full in the cycle before (0 in\nboth runs)",
            numbers: vec![
                pre("0", &[("credits", "per_vc"), ("kind", "dummy_tail_stalled")]),
                pre("0", &[("credits", "per_lane"), ("kind", "dummy_tail_stalled")]),
            ],
        },
    ]
}

const CONTROL_ROUTER: &str = "experiments/results/fig5_003_control_router/control_router.csv";

/// Column `column` of the row of `control_router.csv` for `credits`.
fn ctl(written: &'static str, credits: &'static str, column: &'static str) -> Num {
    let row: &'static [(&'static str, &'static str)] = if credits == "per_vc" { &[("credits", "per_vc")] } else { &[("credits", "per_lane")] };
    Num { written, csv: CONTROL_ROUTER, row, column, scale: 1.0 }
}

#[test]
fn control_router_time_matches_its_counts() {
    let errors = check(&control_router_claims());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

fn control_router_claims() -> Vec<Claim> {
    let columns = ["rc", "va", "va_all_held", "lane_empty", "output_full", "ready", "not_served", "total"];
    let rows: [(&'static str, &'static str, [&'static str; 8]); 2] = [
        ("| per VC | 115 | 9,366 | 9,118 | 1,244 | 0 | 2,774 | 862 | 14,361 |", "per_vc", ["115", "9,366", "9,118", "1,244", "0", "2,774", "862", "14,361"]),
        ("| per lane | 88 | 15,772 | 15,435 | 0 | 0 | 3,914 | 79 | 19,853 |", "per_lane", ["88", "15,772", "15,435", "0", "0", "3,914", "79", "19,853"]),
    ];
    let mut claims: Vec<Claim> = rows
        .iter()
        .map(|(passage, credits, written)| Claim { passage, numbers: written.iter().zip(columns).map(|(w, c)| ctl(w, credits, c)).collect() })
        .collect();
    claims.push(Claim {
        passage: "its destination port: 15,772 message-cycles against 9,366, almost all",
        numbers: vec![ctl("15,772", "per_lane", "va"), ctl("9,366", "per_vc", "va")],
    });
    claims
}

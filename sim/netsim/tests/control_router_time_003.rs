//! Where control's time in the router goes under P with the single-pass
//! allocator at 003_… Fig. 5's load 0.8, per-VC against per-lane credits
//! (issue 23; docs/reproduction.md, "003_… Fig. 5", *With per-lane
//! credits*: "the time in the router grows; not traced").
//!
//! The probe reads the single router between cycles (`Sim::run_probed`)
//! from the warm-up's end to the run's end and, in every cycle, for every
//! input VC whose serving lane carries a control message (class 2: the
//! lane's `lmax` is 2, or the VC's header register is control's), counts a
//! control message-cycle by where it is: RC (IDLE), VA (ROUTED: no output
//! VC yet), or holding its output VC (ACTIVE) with its lane empty (its next
//! flit not yet arrived), with its output VC's buffer full, or ready to
//! cross (it competes at switch allocation; a cycle it crosses counts
//! here too). Control in a lane that is not served is counted apart.
//!
//! `write_the_control_router_counts` (ignored, about 2 min) writes
//! `experiments/results/fig5_003_control_router/control_router.csv`;
//! `the_committed_counts_show_where_control_waits` checks what
//! docs/reproduction.md says of it; `control_waits_are_counted_in_a_short_run`
//! runs a short stretch by default.

use std::collections::BTreeMap;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;
use wormqos_sim::{Router, VcState};

const OUT: &str = "experiments/results/fig5_003_control_router";
const PORTS: usize = 8;
const VCS: usize = 16;
const CONTROL: usize = 2;
/// `output_buffer_depth` of fig5_003.toml.
const OUTPUT_DEPTH: usize = 40;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// fig5_003.toml (single pass) at load 0.8 with P (`per_vc`) or P with
/// per-lane credits (`per_lane`), as `control_trace_003.rs` runs them.
fn experiment_text(mode: &str, cycles: Option<u64>) -> String {
    let base = std::fs::read_to_string(root().join("experiments/fig5_003.toml")).unwrap();
    let np = "mode = \"non_preemptive\"\nvc_ratio = [80, 20, 0]";
    let mut text = base.split("[sweep]").next().unwrap().replace("load = 0.6", "load = 0.8");
    assert!(text.contains("load = 0.8") && text.contains(np) && text.contains("seconds = 0.35\n"), "fig5_003.toml changed");
    text = text.replace(np, &format!("mode = \"preemptive\"\npreemption_credits = \"{mode}\""));
    if let Some(n) = cycles {
        text = text.replace("warmup_seconds = 0.035\n", &format!("warmup_cycles = {}\n", n / 10)).replace("seconds = 0.35\n", &format!("cycles = {n}\n"));
    }
    text
}

/// Control message-cycles by where they are (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Counts {
    rc: u64,
    va: u64,
    /// Of `va`: every output VC of the header's port held.
    va_all_held: u64,
    lane_empty: u64,
    output_full: u64,
    ready: u64,
    not_served: u64,
}

impl Counts {
    fn total(&self) -> u64 {
        self.rc + self.va + self.lane_empty + self.output_full + self.ready + self.not_served
    }
}

fn count(c: &mut Counts, r: &Router) {
    for p in 0..PORTS {
        for v in 0..VCS {
            let d = r.lane_regs(p, v).unwrap();
            let state = r.vc_state(p, v);
            let served_ctl = if matches!(state, VcState::Idle) {
                d.lmax[d.sl] as usize == CONTROL && r.lane_occupancy(p, v, d.sl) > 0
            } else {
                r.header_register(p, v).unwrap().class as usize == CONTROL
            };
            // Control in a lane below the served one (preempted) or above
            // it (not yet switched to).
            for l in (0..=d.top).filter(|&l| l != d.sl) {
                if d.lmax[l] as usize == CONTROL && r.lane_occupancy(p, v, l) > 0 {
                    c.not_served += 1;
                }
            }
            if !served_ctl {
                continue;
            }
            match state {
                VcState::Idle => c.rc += 1,
                VcState::Routed { route } => {
                    c.va += 1;
                    c.va_all_held += (0..VCS).all(|u| r.allocated(route, u)) as u64;
                }
                VcState::Active { route, ovc } => {
                    if r.lane_occupancy(p, v, d.sl) == 0 && d.susp >> d.sl & 1 == 0 {
                        c.lane_empty += 1;
                    } else if r.output_occupancy(route, ovc) >= OUTPUT_DEPTH {
                        c.output_full += 1;
                    } else {
                        c.ready += 1;
                    }
                }
            }
        }
    }
}

/// The counts of the run of `mode` after its warm-up to its end.
fn probe_run(mode: &str, cycles: Option<u64>) -> Counts {
    let v = Experiment::from_str(&experiment_text(mode, cycles), "control_router.toml", root().join("experiments")).unwrap();
    let (total, warmup) = v.run_cycles();
    let mut c = Counts::default();
    let mut probe = |cycle: u64, routers: &[Router]| {
        if cycle > warmup && cycle <= total {
            count(&mut c, &routers[0]);
        }
    };
    Sim::new(&v).unwrap().run_probed(&mut probe).unwrap();
    c
}

const HEADER: &str = "credits,rc,va,va_all_held,lane_empty,output_full,ready,not_served,total";

fn row(mode: &str, c: &Counts) -> String {
    format!("{mode},{},{},{},{},{},{},{},{}\n", c.rc, c.va, c.va_all_held, c.lane_empty, c.output_full, c.ready, c.not_served, c.total())
}

#[test]
#[ignore]
fn write_the_control_router_counts() {
    let mut csv = format!("{HEADER}\n");
    for mode in ["per_vc", "per_lane"] {
        csv += &row(mode, &probe_run(mode, None));
    }
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    std::fs::write(root().join(OUT).join("control_router.csv"), csv).unwrap();
}

/// What the trace shows in both modes: control's largest wait at the
/// router input is VC allocation, nine tenths or more of it with every
/// output VC of its port held; never with its output VC's buffer full;
/// with per-lane credits never with its lane empty (its flits enter the
/// fresh lane above on that lane's own credits), with per-VC credits
/// sometimes (they trickle in on the VC's shared credits).
fn check_trace(vc: &Counts, lane: &Counts) {
    for (name, c) in [("per_vc", vc), ("per_lane", lane)] {
        assert!(c.va > c.rc.max(c.lane_empty).max(c.ready).max(c.not_served), "{name}: VA is not the largest wait: {c:?}");
        assert!(c.va_all_held * 10 >= c.va * 9, "{name}: VA with every output VC held {} of {}", c.va_all_held, c.va);
        assert_eq!(c.output_full, 0, "{name}: control behind a full output buffer");
    }
    assert_eq!(lane.lane_empty, 0, "per_lane: control waited with its lane empty");
    assert!(vc.lane_empty > 0, "per_vc: control never waited for its flits");
}

/// 80 ms (1,000,000 cycles, 8 ms warm-up) of both.
#[test]
fn control_waits_are_counted_in_a_short_run() {
    let (vc, lane) = (probe_run("per_vc", Some(1_000_000)), probe_run("per_lane", Some(1_000_000)));
    check_trace(&vc, &lane);
}

fn table() -> BTreeMap<String, BTreeMap<String, u64>> {
    let text = std::fs::read_to_string(root().join(OUT).join("control_router.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), HEADER);
    let head: Vec<&str> = HEADER.split(',').collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), head[1..].iter().zip(&f[1..]).map(|(h, x)| (h.to_string(), x.parse().unwrap())).collect())
        })
        .collect()
}

/// The committed counts: the trace's facts, and with per-lane credits more
/// control time at the router input, the growth in VA.
#[test]
fn the_committed_counts_show_where_control_waits() {
    let t = table();
    let counts = |mode: &str| {
        let r = &t[mode];
        let c = Counts { rc: r["rc"], va: r["va"], va_all_held: r["va_all_held"], lane_empty: r["lane_empty"], output_full: r["output_full"], ready: r["ready"], not_served: r["not_served"] };
        assert_eq!(c.total(), r["total"], "{mode}: total");
        c
    };
    let (vc, lane) = (counts("per_vc"), counts("per_lane"));
    check_trace(&vc, &lane);
    assert!(lane.total() > vc.total() && lane.va > vc.va, "per_lane {lane:?} per_vc {vc:?}");
    assert!(lane.va - vc.va > lane.total() - vc.total(), "VA grows by more than the total");
}

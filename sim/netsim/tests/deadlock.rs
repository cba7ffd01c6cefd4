//! 002_…'s unidirectional torus and the deadlock detector (issue 22).
//!
//! 002_… lets every message take the shared VCs (all but the escape pair).
//! That is deadlock free under Duato's methodology only if a VC's buffer
//! holds one message at a time; our routers reallocate an output VC as
//! soon as the previous tail has crossed the crossbar, so two messages can
//! queue in one VC and a message before the dateline can wait behind one
//! past it and vice versa (docs/microarchitecture.md §11). The default
//! `shared_vcs = "after_dateline"` keeps the shared VCs to messages past the
//! dateline; `"any"` is the paper's arrangement.

use std::path::PathBuf;
use wormqos_netsim::{run, Experiment, SimError};

/// experiments/torus_002.toml (a one-way torus, L = 3 VCs, 32-flit Poisson
/// messages) as a k-ary n-cube with `shared` VCs at `load`, `cycles`
/// cycles then a full drain.
fn unidirectional(k: u32, n: u32, shared: &str, load: f64, seed: u64, cycles: u64) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/torus_002.toml");
    let mut text = std::fs::read_to_string(path).unwrap().split("[sweep]").next().unwrap().to_string();
    for (from, to) in [
        ("ports = 3\n", format!("ports = {}\n", 1 + n)),
        ("k = 8\nn = 2\n", format!("k = {k}\nn = {n}\n")),
        ("shared_vcs = \"any\"", format!("shared_vcs = \"{shared}\"")),
        ("load = 0.02\n", format!("load = {load}\n")),
        ("cycles = 100000\nwarmup_cycles = 10000\nseed = 1\n", format!("cycles = {cycles}\nwarmup_cycles = 1000\nseed = {seed}\ndrain_cycles = 1000000\n")),
    ] {
        assert!(text.contains(from), "torus_002.toml changed: no {from:?}");
        text = text.replacen(from, &to, 1);
    }
    text
}

/// The same with `router.vc_reallocation = "atomic"`.
fn atomic(text: String) -> String {
    let from = "scheduler = \"round_robin\"\n";
    assert!(text.contains(from), "torus_002.toml changed: no {from:?}");
    text.replacen(from, &format!("{from}vc_reallocation = \"atomic\"\n"), 1)
}

fn experiment(text: &str) -> wormqos_netsim::Validated {
    Experiment::from_str(text, "u.toml", PathBuf::new()).unwrap()
}

/// Regression test of issue 22: before the default became
/// `after_dateline` (the arrangement then was `"any"`), each of these runs
/// deadlocked (the 8-node ring at 0.15 with seeds 4 and 5 by cycle 4096,
/// seeds 1 and 6 by 16384; the 8 × 8 torus by 4096). Now every one drains:
/// each message created arrives, each flit injected is ejected.
#[test]
fn unidirectional_torus_drains_past_saturation_with_the_default_shared_vcs() {
    for (k, n, seed) in past_saturation_cases() {
        assert_drains(&format!("{k}-ary {n}-cube, seed {seed}"), &unidirectional(k, n, "after_dateline", 0.15, seed, 20_000));
    }
}

/// The runs at 0.15 that deadlock with `"any"` and the default
/// reallocation: (k, n, seed).
fn past_saturation_cases() -> Vec<(u32, u32, u64)> {
    let mut cases: Vec<(u32, u32, u64)> = [1, 4, 5, 6].map(|seed| (8, 1, seed)).to_vec();
    cases.push((8, 2, 1));
    cases
}

/// The experiment runs without error and drains completely: each message
/// created arrives, each flit injected is ejected.
fn assert_drains(what: &str, text: &str) -> wormqos_netsim::Results {
    let r = run(&experiment(text)).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(r.messages_created > 500, "{what}: {}", r.messages_created);
    assert_eq!(r.messages_delivered, r.messages_created, "{what}");
    assert_eq!(r.flits_ejected, r.flits_injected, "{what}");
    r
}

/// The paper's arrangement deadlocks on our routers, and the run says so
/// (it used to return the throughput of the part still moving, exit 0):
/// two worms in one ring, each one's head queued behind the other's tail.
#[test]
fn the_papers_shared_vcs_deadlock_and_the_run_reports_where() {
    match run(&experiment(&unidirectional(8, 2, "any", 0.15, 1, 20_000))) {
        Err(SimError::Deadlocked { at, vcs, report, .. }) => {
            assert_eq!(at, 4096, "found at the first check");
            assert!(vcs >= 2, "{vcs}");
            // The cycle of waits lies in one ring: full buffers, no credits.
            assert!(report.lines().count() >= 2 && report.lines().all(|l| l.contains("buffer full, no credits")), "{report}");
        }
        other => panic!("expected a deadlock, got {:?}", other.map(|r| r.accepted_throughput)),
    }
}

/// Below saturation the paper's arrangement runs (the detector reports no
/// false deadlock on a busy network), and the default carries the same load.
#[test]
fn both_arrangements_carry_a_light_load_without_a_deadlock_report() {
    for shared in ["any", "after_dateline"] {
        let r = run(&experiment(&unidirectional(8, 2, shared, 0.04, 1, 20_000))).unwrap_or_else(|e| panic!("{shared}: {e}"));
        assert_eq!(r.messages_delivered, r.messages_created, "{shared}");
        assert!((r.accepted_throughput - 0.04).abs() < 0.004, "{shared}: {}", r.accepted_throughput);
    }
}

#[test]
fn an_unknown_shared_vcs_value_is_rejected_naming_the_field() {
    let e = Experiment::from_str(&unidirectional(4, 2, "sometimes", 0.1, 1, 1000), "u.toml", PathBuf::new()).unwrap_err().to_string();
    assert!(e.contains("u.toml") && e.contains("sometimes") && e.contains("after_dateline"), "{e}");
}

/// 002_…'s own arrangement runs once a VC holds one message at a time
/// (atomic reallocation, docs/microarchitecture.md §11): the runs of
/// `the_papers_shared_vcs_deadlock_and_the_run_reports_where` and of the
/// regression test above, which deadlock with `"any"` and the default
/// reallocation (the 8-node ring at 0.15 with seeds 1, 4, 5, 6; the 8 × 8
/// torus at 0.15), drain completely with `"any"` and `"atomic"`.
#[test]
fn the_papers_shared_vcs_drain_past_saturation_with_atomic_reallocation() {
    for (k, n, seed) in past_saturation_cases() {
        let what = format!("{k}-ary {n}-cube, seed {seed}");
        let tail_crossed = run(&experiment(&unidirectional(k, n, "any", 0.15, seed, 20_000)));
        assert!(matches!(tail_crossed, Err(SimError::Deadlocked { .. })), "{what}: expected the deadlock without atomic");
        assert_drains(&what, &atomic(unidirectional(k, n, "any", 0.15, seed, 20_000)));
    }
}

/// 002_…'s model against the arrangement it describes, now deadlock free
/// (docs/reproduction.md, "002_…'s arrangement with atomic reallocation"):
/// on the 8 × 8 torus with L = 3 the model is within 6 % of the atomic
/// simulation at 0.02 and 0.04 flits/node/cycle (60 k cycles); at 0.08 the
/// model is saturated while the atomic torus carries the load (accepted
/// within 5 % of it) and drains.
#[test]
fn the_model_of_002_against_the_atomic_torus() {
    use wormqos_netsim::analytic::predict;
    let latency = |r: &wormqos_netsim::Results| r.classes.iter().find(|c| c.class == 0).unwrap().network_latency;
    for load in [0.02, 0.04] {
        let v = experiment(&atomic(unidirectional(8, 2, "any", load, 1, 60_000)));
        let m = predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap()[0].network_latency;
        let s = latency(&run(&v).unwrap());
        assert!(((m - s) / s).abs() <= 0.06, "load {load}: model {m} sim {s}");
    }
    let v = experiment(&atomic(unidirectional(8, 2, "any", 0.08, 1, 20_000)));
    assert!(matches!(predict::plan(&v).unwrap().evaluate(&[]).remove(0).result, Err(predict::PredictError::Saturated(_))));
    let r = run(&v).unwrap();
    assert!((r.accepted_throughput - 0.08).abs() <= 0.004, "{}", r.accepted_throughput);
    assert_eq!(r.messages_delivered, r.messages_created);
}

/// The checker follows draining output VCs: a header waiting for VCs that
/// drain waits for the downstream input VCs holding their last flits, not
/// for the input VCs last granted them (which may be anywhere by then).
/// With that wait taken from the VC's last owner, this run (8 × 8, 0.3,
/// seed 3, atomic) was reported deadlocked at cycle 4096; it drains. (54
/// runs — the 8-ring, 4 × 4 and 8 × 8 at 0.3, 0.6 and 1.0, seeds 1 to 6,
/// 8 k cycles — drained without a report when this was written.)
#[test]
fn atomic_reallocation_reports_no_false_deadlock() {
    assert_drains("8-ary 2-cube at 0.3, seed 3", &atomic(unidirectional(8, 2, "any", 0.3, 3, 8_000)));
}

/// A 4 × 4 mesh of preemptive routers (XY routing: no cycle of channel
/// waits) with per-lane credits (docs/microarchitecture.md §9.4 *Credits*),
/// three classes sharing two VCs, at `load`, `link_latency` registers per
/// router-to-router link, 20 k cycles then a full drain.
fn lane_mesh(load: f64, link_latency: u32) -> String {
    format!(
        "name = \"mesh_lane\"\n[router]\nports = 5\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         traffic_classes = 3\npreemption_credits = \"per_lane\"\n[topology]\nkind = \"mesh\"\nk = 4\n\
         link_latency = {link_latency}\n\
         [physical]\nlink_mbps = 400\n[workload]\nload = {load}\nmix = [50, 50]\nrealtime = \"poisson\"\n\
         best_effort = \"poisson\"\nmessage_flits = 8\ncontrol = true\ncontrol_flits = 4\n\
         [run]\ncycles = 20000\nwarmup_cycles = 1000\nseed = 2\ndrain_cycles = 1000000\n"
    )
}

/// Per-lane credits past saturation: a lane's credits come back only once
/// its flits leave the downstream lane, and a higher class opens a lane
/// above the busy ones; on a deadlock-free routing the mesh must still
/// drain completely, with no deadlock report (a lane whose credits never
/// came back would stall its VC for good and be reported at the next check;
/// a flit whose lane the link lost would be written to the wrong lane, and
/// the run's end checks count the flits a router dropped). With link
/// registers (`link_latency` 1 and 2) each register carries the flit's lane
/// and the credit's lane (§9.4 *Credits*, the network).
#[test]
fn per_lane_credits_drain_past_saturation_on_a_mesh() {
    for link_latency in [0, 1, 2] {
        for load in [0.5, 1.0] {
            let what = format!("4 × 4 preemptive mesh, per-lane credits, load {load}, link latency {link_latency}");
            let r = assert_drains(&what, &lane_mesh(load, link_latency));
            // The extra lanes were used: lane 1 by a preemption, lane 2 by a nested one.
            assert!(r.router_events.preemptions > 0 && r.router_events.nested_preemptions > 0, "{what}: {:?}", r.router_events);
        }
    }
}

/// Sources that preempt their own best effort (`workload.source_preemption
/// = "best_effort"`, docs/microarchitecture.md §9.4 *A source preempting
/// its own best effort*) on `lane_mesh`, where best effort's source VC
/// (VC 1: the 50:50 mix gives real time round(2 × 0.5) = 1 VC, VC 0, and
/// best effort the other) is also real time's and control's under P. A
/// suspended message that never resumed, a dummy tail or header that
/// broke a lane's credits, or a part the sink could not count would leave
/// messages undelivered or a VC stalled: the mesh must drain completely,
/// with per-lane and per-VC credits, at and past saturation.
#[test]
fn source_preemption_drains_past_saturation_on_a_mesh() {
    for credits in ["per_lane", "per_vc"] {
        for (load, link_latency) in [(0.5, 0), (1.0, 0), (1.0, 1)] {
            let what = format!("4 × 4 preemptive mesh, {credits} credits, source preemption, load {load}, link latency {link_latency}");
            let text = lane_mesh(load, link_latency)
                .replace("preemption_credits = \"per_lane\"", &format!("preemption_credits = \"{credits}\""))
                .replace("control_flits = 4\n", "control_flits = 4\nsource_preemption = \"best_effort\"\n");
            assert!(text.contains("source_preemption") && text.contains(credits), "{what}: lane_mesh changed");
            let r = assert_drains(&what, &text);
            assert!(r.source_preemptions > 0, "{what}: no source preempted its best effort");
        }
    }
}

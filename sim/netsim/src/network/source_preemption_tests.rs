//! `workload.source_preemption = "best_effort"` (docs/microarchitecture.md
//! §9.4 *A source preempting its own best effort*) on one preemptive router
//! with two endpoints and one VC, so that best effort and real time share
//! endpoint 0's only source VC. Endpoint 0 is offered an 8-flit best-effort
//! message in cycle 0 and a 4-flit real-time message in cycle 3, both to
//! endpoint 1, and nothing else (the Poisson sources' events are dropped).
//!
//! Hand derivation from the spec (input buffers of 16 flits, so no flit in
//! cycles 0..=13 lacks a credit: at most 14 flits go out on the VC). The
//! source sends one flit a cycle.
//! - Cycles 0, 1, 2: best effort's header and flits 1, 2 (it took the idle
//!   VC in cycle 0).
//! - Cycle 3: the real-time message finds the VC held by best effort, with
//!   3 flits of its part sent: the source suspends it (history: 3 flits
//!   sent) and owes a dummy tail, which leaves in cycle 3 (case (a)); the
//!   real-time message takes the VC in cycle 3.
//! - Cycles 4..=7: the real-time header (4), flits 1, 2 and its tail (7).
//! - Cycle 8: the VC is free, best effort resumes behind a dummy header
//!   (its header had left) carrying its destination and class 0.
//! - Cycles 9..=13: best effort's flits 3..=7, the tail in 13.
//! Both arrive whole (the sink counts every non-dummy flit by its tag).
//!
//! With per-lane credits (§9.4 *Credits*) the same cycles hold (each lane
//! has 16 credits), and the lanes are: best effort's flits and its dummy
//! tail lane 0; the real-time header opens lane 1, because lane 0 is still
//! busy in cycle 4 (the dummy tail, written in cycle 3, crosses the router
//! in cycle 4 at the earliest, its credit counting from cycle 5), with class
//! 0 < 1; the resumed dummy header joins lane 0 (the lowest lane whose
//! opening class is at least 0), and best effort's flits follow in it.

use super::*;
use crate::experiment::Experiment;
use std::path::PathBuf;

fn one_vc(credits: &str, preemption: &str) -> Validated {
    preemptive_switch(2, 1, 16, 0.1, 1000, credits, preemption)
}

/// A preemptive single switch of `ports` ports and `vcs` VCs with input
/// buffers of `depth` flits, Poisson real time and best effort (8-flit
/// messages, half each) at `load`, run for `cycles` cycles and drained.
fn preemptive_switch(ports: u32, vcs: u32, depth: u32, load: f64, cycles: u64, credits: &str, preemption: &str) -> Validated {
    let text = format!(
        "name = \"srcpre\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = {depth}\n\
         output_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         traffic_classes = 3\npreemption_credits = \"{credits}\"\n\
         [topology]\nkind = \"single_switch\"\n\
         [workload]\nload = {load}\nmix = [50, 50]\nrealtime = \"poisson\"\nbest_effort = \"poisson\"\nmessage_flits = 8\n\
         source_preemption = \"{preemption}\"\n\
         [run]\ncycles = {cycles}\nwarmup_cycles = 0\ndrain_cycles = {cycles}\n"
    );
    Experiment::from_str(&text, "srcpre.toml", PathBuf::new()).unwrap()
}

/// Endpoint 0's injected flits (cycle, head, tail, dummy, lane) and the log
/// of both messages (class, created, started, header injected, tail sent,
/// times preempted), best effort first.
type Injected = Vec<(u64, bool, bool, bool, u8)>;
type Logged = Vec<(u8, u64, u64, u64, u64, u32)>;

/// The derivation's run on `v`, logged and traced, run to its end.
fn run_best_effort_then_real_time(v: &Validated) -> Sim<'_> {
    let mut sim = Sim::new(v).unwrap();
    sim.msg_log = Some((None, Vec::new()));
    sim.trace = Some(Box::default());
    sim.events.clear();
    let flow = |class: u8| sim.flows.iter().position(|f| f.src == 0 && f.class == class).unwrap() as u32;
    let (be, rt) = (flow(0), flow(1));
    let m = Message { flow: be, dest: 1, class: 0, vtick: sim.vtick_be, flits: 8, frame: u32::MAX, frame_msgs: 0 };
    sim.enqueue(be, m, 0);
    for _ in 0..3 {
        sim.step(false);
    }
    let m = Message { flow: rt, dest: 1, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 };
    sim.enqueue(rt, m, 3);
    sim.run_to_end().unwrap();
    sim
}

fn best_effort_then_real_time(credits: &str, preemption: &str) -> (Injected, Logged) {
    let v = one_vc(credits, preemption);
    let mut sim = run_best_effort_then_real_time(&v);
    let injected = sim.trace.take().unwrap().injected.iter().filter(|t| t.1 == 0).map(|(c, _, f)| (*c, f.head, f.tail, f.dummy, f.lane)).collect();
    let mut log: Logged = sim
        .msg_log
        .take()
        .unwrap()
        .1
        .iter()
        .map(|l| (l.class, l.created, l.source.started, l.injected, l.source.tail_sent, l.source.preempted))
        .collect();
    log.sort();
    (injected, log)
}

/// The cycles and flits of the derivation above (lanes all 0 with per-VC
/// credits; with per-lane credits `rt_lane` for the real-time message).
fn expected(rt_lane: u8) -> Injected {
    let mut want = vec![(0, true, false, false, 0), (1, false, false, false, 0), (2, false, false, false, 0)];
    want.push((3, false, true, true, 0)); // the dummy tail
    want.push((4, true, false, false, rt_lane));
    want.extend([(5, false, false, false, rt_lane), (6, false, false, false, rt_lane), (7, false, true, false, rt_lane)]);
    want.push((8, true, false, true, 0)); // the dummy header
    want.extend((9..=13).map(|c| (c, false, c == 13, false, 0)));
    want
}

#[test]
fn a_source_preempts_its_own_best_effort_message_and_resumes_it() {
    for (credits, rt_lane) in [("per_vc", 0), ("per_lane", 1)] {
        let (injected, log) = best_effort_then_real_time(credits, "best_effort");
        assert_eq!(injected, expected(rt_lane), "{credits}");
        // (class, created, started, header, tail, preempted): both delivered whole.
        assert_eq!(log, vec![(0, 0, 0, 0, 13, 1), (1, 3, 3, 4, 7, 0)], "{credits}");
    }
}

/// What the headers waited for (`SourceVc::before_header`) in the
/// derivation above: best effort's header leaves in the cycle it takes the
/// VC (cycle 0), so nothing; the real-time message takes the VC in cycle 3,
/// which is the dummy tail's cycle (it has a credit and the link: best
/// effort is suspended), and its header leaves in cycle 4: one cycle, the
/// dummy tail's. The resumed best effort's dummy header is not its header's
/// wait (its header left in cycle 0).
#[test]
fn the_preempting_header_waits_one_cycle_for_the_dummy_tail() {
    for credits in ["per_vc", "per_lane"] {
        let v = one_vc(credits, "best_effort");
        let mut sim = run_best_effort_then_real_time(&v);
        let mut log: Vec<(u8, HeaderWait)> = sim.msg_log.take().unwrap().1.iter().map(|l| (l.class, l.source.before_header)).collect();
        log.sort_by_key(|l| l.0);
        assert_eq!(log, vec![(0, HeaderWait::default()), (1, HeaderWait { dummy_sent: 1, ..Default::default() })], "{credits}");
    }
}

/// In a loaded run with source preemption every cycle from a message taking
/// its VC to its header leaving falls in exactly one of `HeaderWait`'s five
/// kinds (by its definition), so for a message its source never suspended
/// they add up to `injected - started`; and the run has cycles of each kind
/// but the dummy tail's link wait (rare: another VC's flit must win the link
/// while the dummy tail has a credit), so the check is not vacuous.
#[test]
fn the_header_waits_add_up_in_a_loaded_run() {
    for credits in ["per_vc", "per_lane"] {
        let v = preemptive_switch(4, 2, 4, 0.9, 20_000, credits, "best_effort");
        let (_, log) = Sim::new(&v).unwrap().run_logged_all().unwrap();
        let mut total = HeaderWait::default();
        for l in log.iter().filter(|l| l.source.preempted == 0) {
            let w = l.source.before_header;
            let sum = w.dummy_no_credit + w.dummy_link + w.dummy_sent + w.header_no_credit + w.header_link;
            assert_eq!(sum as u64, l.injected - l.source.started, "{credits}: {l:?}");
            total.dummy_no_credit += w.dummy_no_credit;
            total.dummy_sent += w.dummy_sent;
            total.header_no_credit += w.header_no_credit;
            total.header_link += w.header_link;
        }
        assert!(total.dummy_no_credit > 0 && total.dummy_sent > 0 && total.header_no_credit > 0 && total.header_link > 0, "{credits}: {total:?}");
    }
}

/// Without it (the default) the real-time message waits for best effort's
/// tail (cycle 7: flits 0..=7 in cycles 0..=7), takes the VC in cycle 8 and
/// sends its header then, its tail in 11; no dummy flit leaves the source.
#[test]
fn without_source_preemption_real_time_waits_for_the_tail() {
    let (injected, log) = best_effort_then_real_time("per_vc", "none");
    assert!(injected.iter().all(|f| !f.3), "{injected:?}");
    assert_eq!(log, vec![(0, 0, 0, 0, 7, 0), (1, 3, 8, 8, 11, 0)]);
}

/// `workload.source_preemption` is refused (exit 2 at the command line)
/// outside the preemptive mode, naming the file and line, the field, the
/// value and what is allowed.
#[test]
fn source_preemption_needs_the_preemptive_mode() {
    let text = |mode: &str| {
        format!(
            "name = \"srcpre\"\n[router]\nports = 2\nvcs = 3\nflit_width = 32\ninput_buffer_depth = 16\n\
             output_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"{mode}\"\n\
             [topology]\nkind = \"single_switch\"\n\
             [workload]\nload = 0.1\nmix = [50, 50]\nrealtime = \"poisson\"\nbest_effort = \"poisson\"\nmessage_flits = 8\n\
             source_preemption = \"best_effort\"\n[run]\ncycles = 1000\n"
        )
    };
    let e = Experiment::from_str(&text("non_preemptive\"\nvc_ratio = [50, 40, 10]\n# \""), "srcpre.toml", PathBuf::new()).err().expect("accepted under NP").to_string();
    for want in ["srcpre.toml:21", "workload.source_preemption", "best_effort", "router.mode = \"preemptive\"", "allowed values here: \"none\""] {
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
    Experiment::from_str(&text("preemptive"), "srcpre.toml", PathBuf::new()).unwrap();
}

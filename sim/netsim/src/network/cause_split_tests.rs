//! `Sim::run_cause_split` on one switch, hand-derived from the golden
//! model's timing (docs/microarchitecture.md §6; the same timeline as
//! `router_split.rs`'s tests, which hold it against the router): a header
//! written into the router in cycle t is routed in t + 1 (the router reads
//! its state after each cycle: t IDLE, t + 1 ROUTED), allocated an output
//! VC in t + 2 (ACTIVE after t + 2), crosses the crossbar in t + 3 and is on
//! the output link after t + 4; the sink takes it in t + 5. Body flits
//! written one a cycle behind it follow one a cycle.
//!
//! - A lone 4-flit real-time message released in cycle 3 (its source's VC
//!   idle, so its header leaves in 3): Pipeline after 3 (IDLE), 4 (first
//!   ROUTED), 5 (ACTIVE, just allocated), 6 (header in the output buffer,
//!   link idle), Crossing 7..=10; delivered in 11: 8 cycles = 4 + F.
//! - Two 4-flit real-time messages released in cycle 0 at endpoints 0 (X)
//!   and 1 (Y), both to endpoint 2 (`two_inputs_share_the_link_by_class`
//!   with one class): VA in cycle 2 grants X (round robin from input 0), Y
//!   waits a cycle in ROUTED and gets its VC in 3; the output port takes
//!   one flit a cycle from the crossbar, X0 3, Y0 4, X1 5, Y1 6, X2 7, Y2
//!   8, X3 9, Y3 10, each on the link two cycles later. X: Pipeline 0..=3,
//!   Crossing 4, 6, 8, 10; in 5, 7 and 9 its frontier (X1, X2, X3) has
//!   just crossed the crossbar, its output-buffer stage: Pipeline (the
//!   cycle that flit lost the crossbar, 4, 6, 8, was charged to the flit
//!   before it on the link: a wait behind the frontier shows as the
//!   pipeline's, the split's residual); delivered in 11. Y: Pipeline 0, 1
//!   (first ROUTED), VcWait 2, Pipeline 3 (just allocated) and 4 (Y0 just
//!   through the crossbar), Crossing 5, 7, 9, 11, Pipeline 6, 8, 10 as X's;
//!   delivered in 12: Pipeline 7 + VcWait 1 + Crossing 4.

use super::*;
use crate::cause_split::{Cause, CauseSplit};
use crate::experiment::Experiment;
use std::path::PathBuf;

fn switch(extra_router: &str, extra_workload: &str) -> Validated {
    let text = format!(
        "name = \"causes\"\n[router]\nports = 3\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n{extra_router}\
         [topology]\nkind = \"single_switch\"\n\
         [workload]\nload = 0.5\nmix = [50, 50]\nrealtime = \"poisson\"\nbest_effort = \"poisson\"\nmessage_flits = 4\n{extra_workload}\
         [run]\ncycles = 100\nwarmup_cycles = 0\ndrain_cycles = 100\n"
    );
    Experiment::from_str(&text, "causes.toml", PathBuf::new()).unwrap()
}

/// Real-time messages (source, release cycle) to endpoint 2, nothing else;
/// per delivered message (source, created, delivered, split).
fn offer(v: &Validated, msgs: &[(u32, u64)]) -> Vec<(u32, u64, u64, CauseSplit)> {
    let mut sim = probed(v);
    let mut pending: Vec<_> = msgs.to_vec();
    pending.sort_by_key(|m| m.1);
    for (src, at) in pending {
        while sim.cycle < at {
            sim.step(false);
        }
        let f = sim.flows.iter().position(|f| f.src == src && f.class == 1).unwrap() as u32;
        let m = Message { flow: f, dest: 2, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 };
        sim.enqueue(f, m, at);
    }
    sim.run_to_end().unwrap();
    let log = sim.msg_log.take().unwrap().1;
    std::mem::take(&mut sim.cause_log).into_iter().map(|(i, s)| (log[i].src, log[i].created, log[i].delivered, s)).collect()
}

fn split(list: &[(Cause, u32)]) -> CauseSplit {
    let mut s = CauseSplit::default();
    for &(c, n) in list {
        s.cycles[c as usize] = n;
    }
    s
}

#[test]
fn the_causes_are_in_all_s_order() {
    for (k, c) in Cause::ALL.iter().enumerate() {
        assert_eq!(*c as usize, k, "{}", c.name());
    }
}

#[test]
fn a_lone_message_is_pipeline_and_crossings() {
    let got = offer(&switch("", ""), &[(0, 3)]);
    assert_eq!(got, vec![(0, 3, 11, split(&[(Cause::Pipeline, 4), (Cause::Crossing, 4)]))]);
}

#[test]
fn two_messages_share_the_output_port() {
    let mut got = offer(&switch("", ""), &[(0, 0), (1, 0)]);
    got.sort_by_key(|g| g.0);
    assert_eq!(
        got,
        vec![
            (0, 0, 11, split(&[(Cause::Pipeline, 7), (Cause::Crossing, 4)])),
            (1, 0, 12, split(&[(Cause::Pipeline, 7), (Cause::VcWait, 1), (Cause::Crossing, 4)])),
        ]
    );
}

/// A preemptive single switch of 2 ports and one VC, per-lane credits of
/// 4 flits a lane (the least allowed), sources that preempt their own
/// best effort (§9.4 *A source preempting its own best effort*;
/// `source_preemption_tests.rs`'s derivation with input buffers of 4
/// instead of 16).
fn preempting_sources() -> Validated {
    preempting_sources_on(2)
}

/// The same switch with `ports` ports.
fn preempting_sources_on(ports: u32) -> Validated {
    let text = format!(
        "name = \"dummy\"\n[router]\nports = {ports}\nvcs = 1\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         traffic_classes = 3\npreemption_credits = \"per_lane\"\n\
         [topology]\nkind = \"single_switch\"\n\
         [workload]\nload = 0.1\nmix = [50, 50]\nrealtime = \"poisson\"\nbest_effort = \"poisson\"\nmessage_flits = 8\n\
         source_preemption = \"best_effort\"\n\
         [run]\ncycles = 1000\nwarmup_cycles = 0\ndrain_cycles = 1000\n"
    );
    Experiment::from_str(&text, "dummy.toml", PathBuf::new()).unwrap()
}

/// A simulation of `v` with no events of its own, the cause probe on for
/// class 1 and every message logged.
fn probed(v: &Validated) -> Sim<'_> {
    let mut sim = Sim::new(v).unwrap();
    sim.events.clear();
    let in_port = sim.nis.iter().map(|n| n.port).collect();
    let cfg = &v.configs[0];
    sim.causes = Some(Box::new(crate::cause_split::CauseProbe::new(1, cfg.vcs(), cfg.output_buffer_depth(), in_port, cfg.ports())));
    sim.msg_log = Some((None, Vec::new()));
    sim
}

/// The dummy tail's wait split by what it waited for, by hand. Endpoint 0
/// is offered an 8-flit best-effort message in cycle 0 and two 4-flit
/// real-time messages, A then B, in cycle 4, all to endpoint 1, the
/// real-time flow bound to the VC. Best
/// effort takes the one VC in 0 and sends its header and flits 1..=3 in
/// 0..=3 into lane 0, using its 4 credits. The router crosses them in
/// 3..=6 (written in t, through the crossbar in t + 3), each credit
/// counting at the source from two cycles after (5..=8). In 4 A finds the
/// VC held by best effort with flits sent: the source suspends it and owes
/// a dummy tail into lane 0, which has no credit in 4 and leaves in 5. So
/// A: HeaderNoCredit 1, HeaderSent 1; B, queued behind A: QueueNoCredit 1
/// (cycle 4), QueueSent 1 (5). In the no-credit cycle the suspended lane
/// holds its output VC with room and one of its flits (flit 1) crossed the
/// crossbar: Crossed 1 for each. A's own parts are also its source's log's
/// (`HeaderWait`).
#[test]
fn the_dummy_tail_waits_for_a_credit_in_the_suspended_lane() {
    use crate::cause_split::dummy_tail::{DummyPart, DummySplit, LaneHold};
    let v = preempting_sources();
    let mut sim = probed(&v);
    let flow = |sim: &Sim, class: u8| sim.flows.iter().position(|f| f.src == 0 && f.class == class).unwrap() as u32;
    let (be, rt) = (flow(&sim, 0), flow(&sim, 1));
    // The real-time flow bound to the VC, as `source_vc_choice =
    // "per_stream"` binds a stream (the probe gives a queued message's
    // cycles to its bound VC's holder).
    sim.stream_vc = vec![ANY_VC; sim.flows.len()];
    sim.stream_vc[rt as usize] = 0;
    sim.enqueue(be, Message { flow: be, dest: 1, class: 0, vtick: sim.vtick_be, flits: 8, frame: u32::MAX, frame_msgs: 0 }, 0);
    while sim.cycle < 4 {
        sim.step(false);
    }
    for _ in 0..2 {
        sim.enqueue(rt, Message { flow: rt, dest: 1, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 }, 4);
    }
    sim.run_to_end().unwrap();
    let log = sim.msg_log.take().unwrap().1;
    let mut got: Vec<(u64, u64, DummySplit, HeaderWait)> = std::mem::take(&mut sim.cause_log).into_iter().map(|(i, s)| (log[i].source.started, log[i].created, s.dummy, log[i].source.before_header)).collect();
    got.sort_by_key(|g| g.0);
    let dummy = |parts: &[(DummyPart, u32)]| {
        let mut d = DummySplit::default();
        parts.iter().for_each(|&(p, n)| d.parts[p as usize] = n);
        d.lane[LaneHold::Crossed as usize] = 1;
        d
    };
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].1, got[0].2), (4, dummy(&[(DummyPart::HeaderNoCredit, 1), (DummyPart::HeaderSent, 1)])));
    assert_eq!((got[0].3.dummy_no_credit, got[0].3.dummy_link, got[0].3.dummy_sent), (1, 0, 1));
    assert_eq!((got[1].1, got[1].2), (4, dummy(&[(DummyPart::QueueNoCredit, 1), (DummyPart::QueueSent, 1)])));
}

/// The output VCs best effort waits for, by hand (`cause_split::out_vcs`):
/// `preempting_sources` with 3 ports, endpoint 1 the destination of all.
/// Endpoint 2 is offered an 8-flit best-effort message X in cycle 0,
/// endpoint 0 an 8-flit best-effort message Y in cycle 1 and a 4-flit
/// real-time message A in cycle 5. X: header written in 0, routed after
/// 1, granted the port's one output VC in 2, through the crossbar in 3
/// (written in t, crossing in t + 3); flits 1..=3 written in 1..=3 (the
/// lane's 4 credits), crossing 4..=6; each credit counts at the source two
/// cycles after its crossing, so flits 4..=7 are written in 5..=8 and
/// cross two cycles after their write, 7..=10: X crosses one flit a cycle
/// in 3..=10, each on the link the cycle after, 4..=11. Y: header written
/// in 1, routed after 2, waits for the VC X holds; flits 1..=3 written in
/// 2..=4 fill its lane. A in 5 finds Y on the VC with flits sent: the
/// source owes Y's dummy tail, which has no credit until Y's first flit
/// has crossed. X's tail crosses in 10 and frees the VC at the end of that
/// cycle (the probe reads the registers after it: free in 10), VA grants
/// it to Y in 11 (ACTIVE after 11, no flit of Y through the crossbar:
/// SwitchLost), Y0 and Y1 cross in 12 and 13 (Crossed), Y0's credit counts
/// from 14, when the dummy tail leaves. So A: HeaderNoCredit 9 (5..=13),
/// HeaderSent 1; lane holds VcWait 6 (5..=10), SwitchLost 1, Crossed 2;
/// and of the VcWait cycles' one output VC: best effort sending in 5..=9
/// (X's flits on the link), free in 10.
/// Runs `sim` to the end and gives each probed message's source, creation
/// cycle and dummy-tail split, in the probe's order.
fn dummy_splits(sim: &mut Sim) -> Vec<(u32, u64, crate::cause_split::dummy_tail::DummySplit)> {
    sim.run_to_end().unwrap();
    let log = sim.msg_log.take().unwrap().1;
    std::mem::take(&mut sim.cause_log).into_iter().map(|(i, s)| (log[i].src, log[i].created, s.dummy)).collect()
}

/// The opening both holder tests share: 8-flit best-effort messages of
/// flows `x` (cycle 0) and `y` (cycle 1) to port 1, run to cycle 5, so that
/// best effort holds the output before real time arrives.
fn two_best_effort_to_port_1(sim: &mut Sim, x: u32, y: u32) {
    let be = |f: u32, vtick: u32| Message { flow: f, dest: 1, class: 0, vtick, flits: 8, frame: u32::MAX, frame_msgs: 0 };
    sim.enqueue(x, be(x, sim.vtick_be), 0);
    sim.step(false);
    sim.enqueue(y, be(y, sim.vtick_be), 1);
    while sim.cycle < 5 {
        sim.step(false);
    }
}

#[test]
fn the_output_vcs_best_effort_waits_for_are_split_by_holder() {
    use crate::cause_split::dummy_tail::{DummyPart, DummySplit, LaneHold};
    use crate::cause_split::out_vcs::OutVcHold;
    let v = preempting_sources_on(3);
    let mut sim = probed(&v);
    let flow = |sim: &Sim, src: u32, class: u8| sim.flows.iter().position(|f| f.src == src && f.class == class).unwrap() as u32;
    let (x, y, a) = (flow(&sim, 2, 0), flow(&sim, 0, 0), flow(&sim, 0, 1));
    sim.stream_vc = vec![ANY_VC; sim.flows.len()];
    sim.stream_vc[a as usize] = 0;
    two_best_effort_to_port_1(&mut sim, x, y);
    sim.enqueue(a, Message { flow: a, dest: 1, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 }, 5);
    let got: Vec<(u64, DummySplit)> = dummy_splits(&mut sim).into_iter().map(|(_, created, d)| (created, d)).collect();
    let mut want = DummySplit::default();
    want.parts[DummyPart::HeaderNoCredit as usize] = 9;
    want.parts[DummyPart::HeaderSent as usize] = 1;
    want.lane[LaneHold::VcWait as usize] = 6;
    want.lane[LaneHold::SwitchLost as usize] = 1;
    want.lane[LaneHold::Crossed as usize] = 2;
    want.out_vcs[OutVcHold::BestEffortSending as usize] = 5;
    want.out_vcs[OutVcHold::Free as usize] = 1;
    assert_eq!(got, vec![(5, want)]);
}

/// `preempting_sources_on(3)` with 2 VCs and best effort capped at 1
/// output VC of a port (`best_effort_output_vcs = 1`).
fn preempting_sources_two_vcs() -> Validated {
    let text = "name = \"holders\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         traffic_classes = 3\npreemption_credits = \"per_lane\"\nbest_effort_output_vcs = 1\n\
         [topology]\nkind = \"single_switch\"\n\
         [workload]\nload = 0.1\nmix = [50, 50]\nrealtime = \"poisson\"\nbest_effort = \"poisson\"\nmessage_flits = 8\n\
         source_preemption = \"best_effort\"\n\
         [run]\ncycles = 1000\nwarmup_cycles = 0\ndrain_cycles = 1000\n";
    Experiment::from_str(text, "holders.toml", PathBuf::new()).unwrap()
}

/// Where a best-effort holder's next flit is, by hand
/// (`cause_split::holders`): the scenario of
/// `the_output_vcs_best_effort_waits_for_are_split_by_holder` on
/// `preempting_sources_two_vcs`, plus a 4-flit real-time message B at
/// endpoint 2 (X's source) in cycle 5, on the VC X does not hold, to
/// endpoint 0. X holds an output VC of port 1 from 2, and Y, routed after
/// 2, is refused the port's other, free, output VC by the cap until X's
/// tail frees X's. X as before up to flit 3 (crossing
/// 3..=6, on the link 4..=7). In 5 the source sends B (the higher class)
/// before X: B's header and flits 1..=3 in 5..=8, so X's flits 4..=7
/// leave in 9..=12. B: header through the crossbar in 8 (written in t,
/// crossing in t + 3), flits 9..=11, one a cycle behind it. X's flit 4
/// (written 9, ready in 11) loses input port 2's crossbar to B's flit 3 in
/// 11 (VirtualClock: B's Vtick 4 against best effort's largest) and
/// crosses in 12, flits 5..=7 in 13..=15 (tail: VC 0 free at the end of
/// 15). So of X's output VC in Y's VC-wait cycles 5..=15: X sending
/// in 5, 6, 7, 13, 14, its buffer holding flit 4 in 12, free in 15, and
/// empty in 8..=11: in 8 X's flit 4 still at the source, with a credit,
/// the link given to B (real time), in 9..=11 in X's input lane while
/// input port 2 passed B's flits 1..=3 (a lane opened by real time). The
/// other output VC free in all 11. Then as before, 5 cycles later: VA grants Y X's output VC
/// in 16 (SwitchLost), Y0 and Y1 cross in 17 and 18 (Crossed), A's dummy
/// tail leaves in 19: HeaderNoCredit 14 (5..=18), HeaderSent 1.
#[test]
fn the_holders_next_flits_are_placed() {
    use crate::cause_split::dummy_tail::{DummyPart, DummySplit, LaneHold};
    use crate::cause_split::holders::{HolderPlace, HolderSwitch};
    use crate::cause_split::out_vcs::OutVcHold;
    let v = preempting_sources_two_vcs();
    let mut sim = probed(&v);
    let flow = |sim: &Sim, src: u32, class: u8| sim.flows.iter().position(|f| f.src == src && f.class == class).unwrap() as u32;
    let (x, y, a, b) = (flow(&sim, 2, 0), flow(&sim, 0, 0), flow(&sim, 0, 1), flow(&sim, 2, 1));
    sim.stream_vc = vec![ANY_VC; sim.flows.len()];
    // Best effort takes VC 1 here (the VC its class may use); A shares it,
    // B does not.
    sim.stream_vc[a as usize] = 1;
    sim.stream_vc[b as usize] = 0;
    two_best_effort_to_port_1(&mut sim, x, y);
    sim.enqueue(a, Message { flow: a, dest: 1, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 }, 5);
    sim.enqueue(b, Message { flow: b, dest: 0, class: 1, vtick: 4, flits: 4, frame: u32::MAX, frame_msgs: 0 }, 5);
    let got: Vec<(u32, u64, DummySplit)> = dummy_splits(&mut sim).into_iter().filter(|(src, _, _)| *src == 0).collect();
    let mut want = DummySplit::default();
    want.parts[DummyPart::HeaderNoCredit as usize] = 14;
    want.parts[DummyPart::HeaderSent as usize] = 1;
    want.lane[LaneHold::VcWait as usize] = 11;
    want.lane[LaneHold::SwitchLost as usize] = 1;
    want.lane[LaneHold::Crossed as usize] = 2;
    want.out_vcs[OutVcHold::BestEffortSending as usize] = 5;
    want.out_vcs[OutVcHold::BestEffortBuffered as usize] = 1;
    want.out_vcs[OutVcHold::BestEffortEmpty as usize] = 4;
    want.out_vcs[OutVcHold::Free as usize] = 12;
    want.holders[HolderPlace::SourceLinkRealTime as usize] = 1;
    want.holders[HolderPlace::InLane as usize] = 3;
    want.switches[HolderSwitch::InputRealTime as usize] = 3;
    assert_eq!(got, vec![(0, 5, want)]);
}

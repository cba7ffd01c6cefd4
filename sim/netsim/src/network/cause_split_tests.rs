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
    let mut sim = Sim::new(v).unwrap();
    sim.events.clear();
    let in_port = sim.nis.iter().map(|n| n.port).collect();
    let cfg = &v.configs[0];
    sim.causes = Some(Box::new(crate::cause_split::CauseProbe::new(1, cfg.vcs(), cfg.output_buffer_depth(), in_port, cfg.ports())));
    sim.msg_log = Some((None, Vec::new()));
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

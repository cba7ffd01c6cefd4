//! `workload.source_queues` on a 3-node bidirectional ring (one link each
//! way, so no dateline classes and both VCs free for every message), two
//! 4-flit messages offered by endpoint 0 in cycle 0 and nothing else
//! (the Poisson sources' events are dropped before the run).
//!
//! Hand derivation. From node 0, endpoint 1 is one hop + and endpoint 2
//! one hop − (the shorter way). A lone message's header is sent in the
//! cycle it is offered and its network latency at zero load is
//! 5·(h + 1) + M − 1 = 5·2 + 3 = 13 cycles (one hop, M = 4, input buffers
//! of 4 cover the credit loop: `tests/link_latency.rs`), so it is
//! delivered in cycle 13. Its flits leave the source one per cycle (4
//! credits for 4 flits), the tail in cycle 3.
//! - Same direction (0 → 1 twice): with one queue per direction the second
//!   message starts (takes its VC) only when the first's service ends:
//!   `until_delivered`, in cycle 13, the sink consuming the tail before the
//!   source acts in a cycle (network.rs, `Sim::step`), and it then meets an
//!   empty ring and is delivered 13 cycles later, in 26;
//!   `until_tail_sent`, in cycle 4, the one after its tail left. With the
//!   default per-class queue both start in cycle 0.
//! - Opposite directions (0 → 1, 0 → 2): two queues, both start in cycle
//!   0 and their headers leave in cycles 0 and 1 (one flit per cycle on the
//!   injection link, round robin from VC 0).

use super::*;
use crate::experiment::Experiment;
use std::path::PathBuf;

fn ring(source_queues: &str) -> Validated {
    let text = format!(
        "name = \"seg\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"full\"\nscheduler = \"round_robin\"\n\
         [topology]\nkind = \"multilink_ring\"\nnodes = 3\nlinks = 1\n\
         [workload]\nload = 0.5\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"poisson\"\nmessage_flits = 4\n\
         source_queues = \"{source_queues}\"\n\
         [run]\ncycles = 100\nwarmup_cycles = 0\ndrain_cycles = 100\n"
    );
    Experiment::from_str(&text, "seg.toml", PathBuf::new()).unwrap()
}

/// (created, started, header injected, delivered) of every message, by destination then start.
fn offer_two(source_queues: &str, dests: [u32; 2]) -> Vec<(u32, u64, u64, u64, u64)> {
    let v = ring(source_queues);
    let mut sim = Sim::new(&v).unwrap();
    sim.msg_log = Some((None, Vec::new()));
    sim.events.clear();
    let f = sim.be_flows[0];
    for dest in dests {
        let m = Message { flow: f, dest, class: 0, vtick: sim.vtick_be, flits: 4, frame: u32::MAX, frame_msgs: 0 };
        sim.enqueue(f, m, 0);
    }
    sim.run_to_end().unwrap();
    let mut log: Vec<_> =
        sim.msg_log.take().unwrap().1.iter().map(|l| (l.dest, l.created, l.source.started, l.injected, l.delivered)).collect();
    log.sort_by_key(|l| (l.0, l.2));
    log
}

#[test]
fn one_queue_per_direction_serves_one_message_at_a_time() {
    assert_eq!(offer_two("per_direction_until_delivered", [1, 1]), vec![(1, 0, 0, 0, 13), (1, 0, 13, 13, 26)]);
    let tail_sent = offer_two("per_direction_until_tail_sent", [1, 1]);
    assert_eq!(tail_sent[0], (1, 0, 0, 0, 13));
    assert_eq!((tail_sent[1].1, tail_sent[1].2), (0, 4), "second starts the cycle after the first's tail left");
    let per_class = offer_two("per_class", [1, 1]);
    assert_eq!(per_class.iter().map(|l| l.2).collect::<Vec<_>>(), vec![0, 0], "the default queue starts both at once");
}

#[test]
fn the_two_directions_serve_in_parallel() {
    for q in ["per_direction_until_delivered", "per_direction_until_tail_sent"] {
        let log = offer_two(q, [1, 2]);
        assert_eq!(log.len(), 2, "{q}");
        assert_eq!((log[0].0, log[0].2), (1, 0), "{q}: 0 -> 1 starts at once");
        assert_eq!((log[1].0, log[1].2), (2, 0), "{q}: 0 -> 2 starts at once");
        let mut headers = [log[0].3, log[1].3];
        headers.sort();
        assert_eq!(headers, [0, 1], "{q}: headers in cycles 0 and 1");
    }
}

/// `workload.source_queues` takes its three values, and not the
/// per-direction ones with a `[nic]` section (whose model queues itself):
/// the error names the file and line, the field, the value and what is
/// allowed.
#[test]
fn source_queues_is_validated() {
    let text = |q: &str, nic: bool| {
        let mut t = format!(
            "name = \"seg\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
             output_buffer_depth = 4\ncrossbar = \"full\"\nscheduler = \"round_robin\"\n\
             [topology]\nkind = \"multilink_ring\"\nnodes = 3\nlinks = 1\n\
             [workload]\nload = 0.5\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"poisson\"\nmessage_flits = 4\n\
             source_queues = \"{q}\"\n[run]\ncycles = 100\nwarmup_cycles = 0\n"
        );
        if nic {
            t.push_str("[nic]\nvariant = \"qos\"\n");
        }
        t
    };
    let err = |t: String| Experiment::from_str(&t, "seg.toml", PathBuf::new()).err().expect("accepted").to_string();
    let e = err(text("fifo", false));
    for want in ["seg.toml", "line 20", "fifo", "per_class", "per_direction_until_tail_sent", "per_direction_until_delivered"] {
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
    for q in ["per_direction_until_tail_sent", "per_direction_until_delivered"] {
        let e = err(text(q, true));
        for want in ["seg.toml:20", "workload.source_queues", q, "allowed values", "per_class"] {
            assert!(e.contains(want), "{e:?} lacks {want:?}");
        }
    }
    for q in ["per_class", "per_direction_until_tail_sent", "per_direction_until_delivered"] {
        Experiment::from_str(&text(q, false), "seg.toml", PathBuf::new()).unwrap();
    }
    Experiment::from_str(&text("per_class", true), "seg.toml", PathBuf::new()).unwrap();
}

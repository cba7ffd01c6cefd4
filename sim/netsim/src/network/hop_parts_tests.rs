//! `Sim::run_hop_parts` on the 3-node bidirectional ring of
//! `segmentation_tests.rs` (one link each way, 2 VCs, full crossbar, input
//! and output buffers of 4), 4-flit messages offered in cycle 0 and nothing
//! else.
//!
//! Hand derivation (docs/microarchitecture.md §6, §7). A header written
//! into a router's input in cycle c (BW) is routed in c + 1, granted its
//! output VC in c + 2 (VA: at most one grant per output port per cycle),
//! moved to the output buffer in c + 3 (ST) and crosses the link in c + 4,
//! entering the next router in c + 5 (5 cycles a router, `zero_load.rs`).
//! Its header cycles (granted, not crossed) are those after c + 2 and
//! c + 3, both `NotReady` (not in the output buffer at the start of the
//! cycle). A body flit needs no RC or VA: written in c, it is in the output
//! buffer after c + 2 and may cross in c + 3, a cycle earlier than a
//! header, so behind its header it streams one a cycle.
//! - Lone 0 → 1 (one hop): header crosses link 0→1 in 4 and the ejection
//!   link in 9; flits one a cycle, the tail in 7 and 12; delivered in 13
//!   (the sink takes it the cycle after), no gaps.
//! - Two 0 → 1 at once (A on VC 0, B on VC 1): the injection link carries
//!   one flit a cycle, round robin: A in 0, 2, 4, 6, B in 1, 3, 5, 7. The
//!   headers cross link 0→1 in 4 (A) and 5 (B); A's flit 1 (written in 2)
//!   is ready after 4 and waits in 5 while B's header crosses (`Shared`),
//!   crosses in 6; B's flit 1 (written in 3) ready after 5 waits in 6 for
//!   A's: so A crosses in 4, 6, 8, 10, B in 5, 7, 9, 11, each with 3
//!   `Shared` gaps, and the same again on the ejection link (9–15, 10–16):
//!   an interleaving made on the injection link stays `Shared` on a path
//!   the two share. A is delivered in 16, B (injected in 1) in 17.
//! - 1 → 0 and 2 → 0 at once: each alone on its router-to-router link
//!   (crossing 4 to 7, entering router 0 from 5 on different ports); both
//!   headers are routed in 6 and ask for the ejection port in 7, which
//!   grants one (the other waits one cycle in ROUTED: its VC wait is 1);
//!   the first crosses the ejection link in 9, the second in 10; their
//!   body flits, ready a cycle early, then alternate on the link, each
//!   waiting one cycle behind the other's (`Shared`): 9, 11, 13, 15 and 10,
//!   12, 14, 16, delivered in 16 and 17, 3 and 4 cycles above zero load.

use super::*;
use crate::experiment::Experiment;
use crate::hop_parts::{HopParts, Wait};
use std::path::PathBuf;

fn ring() -> Validated {
    let text = "name = \"hop\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"full\"\nscheduler = \"round_robin\"\n\
         [topology]\nkind = \"multilink_ring\"\nnodes = 3\nlinks = 1\n\
         [workload]\nload = 0.5\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"poisson\"\nmessage_flits = 4\n\
         [run]\ncycles = 100\nwarmup_cycles = 0\ndrain_cycles = 100\n";
    Experiment::from_str(text, "hop.toml", PathBuf::new()).unwrap()
}

/// (src, dest, injected, delivered, VC-wait queueing, parts) per message,
/// by delivery.
fn offer(pairs: &[(u32, u32)]) -> Vec<(u32, u32, u64, u64, u32, HopParts)> {
    let v = ring();
    let mut sim = Sim::new(&v).unwrap();
    sim.hop_parts = Some(Box::new(crate::hop_parts::HopPartsProbe::new(&sim.routers, &v.net.out_link)));
    sim.events.clear();
    for &(src, dest) in pairs {
        let f = sim.be_flows[src as usize];
        assert_eq!(sim.flows[f as usize].src, src);
        let m = Message { flow: f, dest, class: 0, vtick: sim.vtick_be, flits: 4, frame: u32::MAX, frame_msgs: 0 };
        sim.enqueue(f, m, 0);
    }
    let (_, log, waits) = sim.vc_waits_to_end().unwrap();
    assert_eq!(sim.hop_parts.as_ref().unwrap().unmatched, 0);
    let parts = std::mem::take(&mut sim.hop_parts_log);
    assert_eq!(parts.len(), log.len());
    log.iter().zip(&waits.messages).zip(parts).map(|((m, w), p)| (m.src, m.dest, m.injected, m.delivered, w.queueing(), p)).collect()
}

fn waits(shared: u32, not_ready: u32) -> [u32; crate::hop_parts::WAITS] {
    let mut w = [0; crate::hop_parts::WAITS];
    w[Wait::Shared as usize] = shared;
    w[Wait::NotReady as usize] = not_ready;
    w
}

#[test]
fn a_lone_message_has_only_the_pipeline() {
    let log = offer(&[(0, 1)]);
    assert_eq!(log.len(), 1);
    let (_, _, injected, delivered, queued, p) = log[0];
    assert_eq!((injected, delivered, queued), (0, 13, 0));
    assert_eq!(p.hops, 1);
    assert_eq!((p.last_link, p.eject), ((4, 7), (9, 12)));
    assert_eq!((p.header_links, p.header_eject), (waits(0, 2), waits(0, 2)));
    assert_eq!((p.gaps_links, p.gaps_eject), (waits(0, 0), waits(0, 0)));
}

#[test]
fn two_messages_of_one_source_interleave_on_every_link() {
    let log = offer(&[(0, 1), (0, 1)]);
    let got: Vec<_> = log.iter().map(|l| (l.2, l.3, l.4, l.5.last_link, l.5.eject, l.5.gaps_links, l.5.gaps_eject, l.5.header_links, l.5.header_eject)).collect();
    assert_eq!(
        got,
        vec![
            (0, 16, 0, (4, 10), (9, 15), waits(3, 0), waits(3, 0), waits(0, 2), waits(0, 2)),
            (1, 17, 0, (5, 11), (10, 16), waits(3, 0), waits(3, 0), waits(0, 2), waits(0, 2)),
        ]
    );
}

#[test]
fn two_sources_to_one_destination_share_its_ejection_link() {
    let log = offer(&[(1, 0), (2, 0)]);
    assert_eq!(log.len(), 2);
    let (first, second) = (&log[0], &log[1]);
    for l in &log {
        assert_eq!((l.2, l.5.hops), (0, 1), "{l:?}");
        assert_eq!(l.5.last_link, (4, 7), "each alone on its router-to-router link: {l:?}");
        assert_eq!((l.5.header_links, l.5.gaps_links), (waits(0, 2), waits(0, 0)), "{l:?}");
        assert_eq!(l.5.gaps_eject, waits(3, 0), "{l:?}");
    }
    assert_eq!((first.3, first.4, first.5.eject, first.5.header_eject), (16, 0, (9, 15), waits(0, 2)));
    assert_eq!((second.3, second.4, second.5.eject, second.5.header_eject), (17, 1, (10, 16), waits(0, 2)));
}

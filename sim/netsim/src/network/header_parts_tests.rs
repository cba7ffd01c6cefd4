//! `Sim::run_header_parts` on 3-node bidirectional rings (one link each
//! way, full crossbar, input and output buffers of 4, no dateline classes),
//! messages offered in cycle 0 and nothing else; the single-router cases
//! for the parts a ring does not show simply are in `header_parts.rs`.
//!
//! Hand derivation (docs/microarchitecture.md §6, and `hop_parts_tests.rs`'s
//! timing): a header written into a router's input VC in cycle c (BW) is
//! routed in c + 1 (Route), granted its output VC in c + 2 (VcAllocation),
//! crosses the crossbar in c + 3 (Switch) and is picked for the link in
//! c + 4 (Crossing), written into the next router in c + 5 (Link). A flit
//! picked for a link in cycle t is written downstream in t + 1 and its
//! credit comes back when it crosses the downstream crossbar (cycle s),
//! counted upstream from s + 2; the source NI likewise counts a credit from
//! the cycle after the router returns it (s + 2). From endpoint 0, 1 is
//! one hop +; 2 → 1 and 1 → 0 go −, 2 → 0 +. Router r's port 1 is its +
//! link out (into r + 1's port 2), port 2 its − link (into r − 1's port 1).
//!
//! - Lone 0 → 1: header written in 0 (injected 0): Route 1, VA 2, Switch 3,
//!   Crossing 4, Link 5 at the source's router, then 6, 7, 8, 9 at the
//!   destination's: 9 cycles, the zero load's 5·h + 4.
//! - 1 → 0 and 2 → 0 at once: both alone on their links, both headers
//!   routed at router 0 in 6; VA in 7 grants the ejection port to the one
//!   from router 1 (input port 1, below port 2 in the round robin), the
//!   other is granted in 8 (2 VCs): VcAllocation 2 at the destination, and
//!   its header then crosses in 10 while the first's body waits (the link
//!   went to the first's header in 9, so the pointer favours the second).
//! - One VC, 0 → 1 twice (A, B; 4 flits each): B starts on the source's
//!   one VC after A's tail left (3), its header goes with the credit A0's
//!   crossing (3) returns, in 5. At router 0 it is behind A3 (crossbar in
//!   6) in cycle 6 (BehindInInput), then Route 7, VA 8 (A's tail freed the
//!   VC in 6), Switch 9, Crossing 10 (A used the 4 credits in 4–7, A0's
//!   crossing at router 1 in 8 gives one from 10), Link 11; at router 1 A3
//!   crosses in 11, so Route 12, VA 13, Switch 14, Crossing 15: 10 cycles
//!   from 5, one above zero load, the BehindInInput.
//! - One VC, Q 2 → 1 and P 0 → 1 (8 flits each), then R 0 → 1 (4 flits):
//!   at router 1 Q (input port 1) wins VA in 7 over P (port 2) and holds
//!   the ejection VC until its tail crosses in 15 (Q4–Q7 come with the
//!   credits Q0–Q3's crossings return, 10–13); P waits in ROUTED 7–15 and
//!   is granted in 16, its 4 flits filling router 1's input VC, so router
//!   0 keeps P4–P7 in its output VC (full after 10, no credit until P0
//!   crosses router 1 in 17: back in 19). R's header (injected 9, with the
//!   credit P4's crossing in 7 returns): behind P7 in 10, Route 11, VA 12
//!   (P's tail crossed router 0's crossbar in 10), then its output VC full
//!   of P4–P7 in 13–19 (OutputFull 7; P4 leaves in 19), Switch 20 into the
//!   buffer behind P6, P7 (BehindInOutput 21, 22: P5, P6, P7 leave in 20,
//!   21, 22 on the credits of P1, P2, P3), Crossing 23 (P4's crossing at
//!   router 1 in 21 returns a credit counted from 23), Link 24; at router 1
//!   P7 crosses in 24, so Route 25, VA 26, Switch 27, Crossing 28: 19
//!   cycles from 9, 10 above zero load, none of them a VC wait.

use super::*;
use crate::experiment::Experiment;
use crate::header_parts::{HeaderPart, HeaderParts, PathRouter, PARTS};
use std::path::PathBuf;

fn ring(vcs: u32) -> Validated {
    let text = format!(
        "name = \"hdr\"\n[router]\nports = 3\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"full\"\nscheduler = \"round_robin\"\n\
         [topology]\nkind = \"multilink_ring\"\nnodes = 3\nlinks = 1\n\
         [workload]\nload = 0.5\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"poisson\"\nmessage_flits = 4\n\
         [run]\ncycles = 100\nwarmup_cycles = 0\ndrain_cycles = 100\n"
    );
    Experiment::from_str(&text, "hdr.toml", PathBuf::new()).unwrap()
}

/// (src, dest, injected, header on the ejection link, VC-wait queueing,
/// parts) per message, in offer order; `offers` are (src, dest, flits).
fn offer(vcs: u32, offers: &[(u32, u32, u32)]) -> Vec<(u32, u32, u64, u64, u32, HeaderParts)> {
    let v = ring(vcs);
    let sim = {
        let mut sim = Sim::new(&v).unwrap();
        sim.events.clear();
        for &(src, dest, flits) in offers {
            let f = sim.be_flows[src as usize];
            assert_eq!(sim.flows[f as usize].src, src);
            let m = Message { flow: f, dest, class: 0, vtick: sim.vtick_be, flits, frame: u32::MAX, frame_msgs: 0 };
            sim.enqueue(f, m, 0);
        }
        sim
    };
    let (_, log, waits, hops, parts) = sim.run_header_parts().unwrap();
    assert_eq!(log.len(), offers.len());
    let mut got: Vec<_> = log.iter().zip(&waits.messages).zip(&hops).zip(parts).map(|(((m, w), h), p)| (m.src, m.dest, m.injected, h.eject.0, w.queueing(), p, m.created, m.source.started)).collect();
    // Offer order: by source, then start at the source.
    let order: Vec<(u32, u32)> = offers.iter().map(|o| (o.0, o.1)).collect();
    got.sort_by_key(|g| (order.iter().position(|&o| o == (g.0, g.1)).unwrap(), g.7));
    got.into_iter().map(|g| (g.0, g.1, g.2, g.3, g.4, g.5)).collect()
}

/// A router's parts: the pipeline's one cycle each (the link's if it is
/// left on a router-to-router link), then `extra`.
fn router(link: bool, extra: &[(HeaderPart, u32)]) -> [u32; PARTS] {
    let mut a = [0; PARTS];
    for p in [HeaderPart::Route, HeaderPart::VcAllocation, HeaderPart::Switch, HeaderPart::Crossing] {
        a[p as usize] = 1;
    }
    a[HeaderPart::Link as usize] = link as u32;
    for &(p, n) in extra {
        a[p as usize] += n;
    }
    a
}

fn one_hop(source: &[(HeaderPart, u32)], destination: &[(HeaderPart, u32)]) -> HeaderParts {
    HeaderParts { by_router: [router(true, source), [0; PARTS], router(false, destination)], hops: 1 }
}

/// The header's cycles add up to its time from injection to the ejection
/// link (the links have no registers here).
fn adds_up(l: &(u32, u32, u64, u64, u32, HeaderParts)) {
    let total: u32 = HeaderPart::ALL.iter().map(|&p| l.5.total(p)).sum();
    assert_eq!(total as u64, l.3 - l.2, "{l:?}");
    assert_eq!(l.5.total(HeaderPart::VcAllocation) - (l.5.hops + 1), l.4, "VA beyond one a router is vc_wait's queueing: {l:?}");
}

#[test]
fn a_lone_header_has_only_the_pipeline() {
    let log = offer(2, &[(0, 1, 4)]);
    let l = &log[0];
    assert_eq!((l.2, l.3, l.4), (0, 9, 0));
    assert_eq!(l.5, one_hop(&[], &[]));
    adds_up(l);
}

#[test]
fn the_second_header_at_a_shared_ejection_port_waits_for_a_vc() {
    let log = offer(2, &[(1, 0, 4), (2, 0, 4)]);
    assert_eq!((log[0].2, log[0].3, log[0].4, log[0].5), (0, 9, 0, one_hop(&[], &[])));
    assert_eq!((log[1].2, log[1].3, log[1].4, log[1].5), (0, 10, 1, one_hop(&[], &[(HeaderPart::VcAllocation, 1)])));
    log.iter().for_each(adds_up);
}

#[test]
fn a_header_behind_the_message_before_it_in_its_input_vc() {
    let log = offer(1, &[(0, 1, 4), (0, 1, 4)]);
    assert_eq!((log[0].2, log[0].3, log[0].5), (0, 9, one_hop(&[], &[])));
    assert_eq!((log[1].2, log[1].3, log[1].4), (5, 15, 0));
    assert_eq!(log[1].5, one_hop(&[(HeaderPart::BehindInInput, 1)], &[]));
    log.iter().for_each(adds_up);
}

#[test]
fn a_header_behind_a_blocked_message_in_its_output_vc() {
    let log = offer(1, &[(2, 1, 8), (0, 1, 8), (0, 1, 4)]);
    let (q, p, r) = (&log[0], &log[1], &log[2]);
    assert_eq!((q.0, q.2, q.3, q.5), (2, 0, 9, one_hop(&[], &[])));
    assert_eq!((p.0, p.2, p.3, p.4, p.5), (0, 0, 18, 9, one_hop(&[], &[(HeaderPart::VcAllocation, 9)])));
    assert_eq!((r.2, r.3, r.4), (9, 28, 0));
    assert_eq!(r.5, one_hop(&[(HeaderPart::BehindInInput, 1), (HeaderPart::OutputFull, 7), (HeaderPart::BehindInOutput, 2)], &[]));
    assert_eq!(r.5.at(PathRouter::Source, HeaderPart::OutputFull), 7);
    log.iter().for_each(adds_up);
}

//! `topology.link_latency` in the network simulator's engine: the zero-load
//! network latency of an M-flit message over h router-to-router links,
//! derived by hand from the spec (docs/microarchitecture.md §6, §7) and
//! docs/integration.md ("Link latency"), against the smallest latency the
//! engine measured at h hops in a long run at a very low load (where some
//! messages meet no other: contention can only add cycles).
//!
//! The derivation (times relative to the header on the first router's input
//! link in cycle 0; P = 5 stages; every link L registers each way):
//! - One router: BW in cycle 0, RC 1, VA 2, ST 3, picked at C in 4, on the
//!   output link in 5 (§7). A body flit follows one cycle behind the one
//!   before it while credits last: flit k crosses the crossbar (ST) in 3 + k.
//! - A flit on a router's output link in cycle t is on the next router's
//!   input in t + L: the header reaches the router after h links in
//!   (5 + L)·h.
//! - Credits. A flit picked at C in cycle p is on the link in p + 1, on the
//!   next router's input in p + 1 + L; a body flit crosses that router's
//!   crossbar in p + 2 + L at the earliest, its credit is on that router's
//!   `in_credit_o` in p + 3 + L, back on the sender's `out_credit_i` in
//!   p + 3 + 2L, usable in p + 4 + 2L (§6 stage 5). One credit thus serves
//!   a flit every 4 + 2L cycles, and with DI credits a link carries at most
//!   DI flits per 4 + 2L cycles (§7's credit loop, each link crossed twice).
//! - If DI >= 4 + 2L the message streams: the header's RC and VA at the
//!   next router delay the first group's credits by 2 cycles, so the
//!   sender's flit DI waits max(0, 6 + 2L - DI) <= 2 cycles, and that gap
//!   closes at the next router, whose crossbar still moves flit k in
//!   (its header's arrival) + 3 + k. The tail leaves the last router
//!   4 + M cycles after the header entered it.
//! - If DI < 4 + 2L every router-to-router link is credit bound: flits
//!   cross it in groups of DI, group g at (4 + 2L)·g after group 0, and the
//!   last router's crossbar moves flit k = g·DI + i in (its header's
//!   arrival) + 3 + i + g·(4 + 2L); its output to the sink (credits back at
//!   once) adds 2. Output buffers of DO = 4 never fill on the way: at most
//!   3 flits wait for a credit (checked when deriving; DO = 2 would stall
//!   the crossbar).
//! - Both cases in one formula, with M - 1 = g·DI + i:
//!   latency = (5 + L)·h + 5 + i + g·max(DI, 4 + 2L).
//!   With DI >= 4 + 2L this is (5 + L)·h + 4 + M: every link adds L, so the
//!   growth over L = 0 is h·L, not 2·h·L: the credits' L cycles back cost
//!   nothing while the buffer covers the round trip.

use std::path::PathBuf;
use wormqos_netsim::network::run;
use wormqos_netsim::Experiment;

const MESSAGE_FLITS: u64 = 20;

/// Hand-derived zero-load network latency (module docs).
fn expected(hops: u64, link_latency: u64, input_depth: u64) -> u64 {
    let (g, i) = ((MESSAGE_FLITS - 1) / input_depth, (MESSAGE_FLITS - 1) % input_depth);
    (5 + link_latency) * hops + 5 + i + g * input_depth.max(4 + 2 * link_latency)
}

/// The round-robin router of the tests below.
const ROUND_ROBIN: &str = "scheduler = \"round_robin\"";

/// The smallest network latency measured per hop count on a 4x4 mesh of
/// `router` (its scheduler and mode lines) in `cycles` cycles.
fn smallest_by_hops(router: &str, link_latency: u32, input_depth: u32, cycles: u64) -> Vec<Option<u64>> {
    let text = format!(
        "name = \"zero_load\"\n[router]\nports = 5\nvcs = 2\nflit_width = 32\ninput_buffer_depth = {input_depth}\n\
         output_buffer_depth = 4\ncrossbar = \"multiplexed\"\n{router}\n\
         [topology]\nkind = \"mesh\"\nk = 4\nlink_latency = {link_latency}\n\
         [workload]\nload = 0.01\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"bernoulli\"\nmessage_flits = {MESSAGE_FLITS}\n\
         [run]\ncycles = {cycles}\nwarmup_cycles = 1000\ndrain_cycles = 10000\n"
    );
    let v = Experiment::from_str(&text, "zero_load.toml", PathBuf::new()).unwrap();
    let r = run(&v).unwrap();
    let best_effort = r.classes.iter().find(|c| c.class == 0).expect("best-effort messages delivered");
    best_effort.network_latency_counts_by_hops.iter().map(|counts| counts.iter().position(|&n| n > 0).map(|c| c as u64)).collect()
}

fn check(link_latency: u32, input_depth: u32) {
    check_router(ROUND_ROBIN, link_latency, input_depth, 300_000);
}

fn check_router(router: &str, link_latency: u32, input_depth: u32, cycles: u64) {
    let by_hops = smallest_by_hops(router, link_latency, input_depth, cycles);
    // XY routing on a 4x4 mesh: 1..=6 links between two endpoints.
    assert_eq!(by_hops.len(), 7, "hop counts 0..=6 expected, got {by_hops:?}");
    for (hops, got) in by_hops.iter().enumerate().skip(1) {
        let want = expected(hops as u64, link_latency as u64, input_depth as u64);
        assert_eq!(*got, Some(want), "{router}: link latency {link_latency}, DI {input_depth}, {hops} hops: zero-load network latency");
    }
}

#[test]
fn zero_load_latency_grows_by_the_link_registers_when_buffers_cover_the_credit_loop() {
    // DI = 8 >= 4 + 2L for L <= 2: (5 + L)·h + 24.
    for latency in [0, 1, 2] {
        check(latency, 8);
    }
}

#[test]
fn zero_load_latency_is_credit_bound_when_buffers_are_shorter_than_the_loop() {
    // DI = 4: streams at L = 0, one group of 4 flits per 4 + 2L cycles at L = 1, 2.
    for latency in [0, 1, 2] {
        check(latency, 4);
    }
}

/// The preemptive router with per-VC and per-lane credits (§9.4 *Credits*)
/// and link registers. At zero load a message meets no other, so no lane
/// above 0 is opened (a sender's header takes lane 0 when no lane is busy,
/// "fresh"), lane 0 has DI credits in both (per VC: DI for all lanes; per
/// lane: DI per lane) and the pipeline is §7's: the module docs'
/// derivation holds for both, through link registers that carry the lanes.
#[test]
fn zero_load_latency_with_link_registers_is_the_same_with_per_lane_credits() {
    for credits in ["per_vc", "per_lane"] {
        let router = format!("scheduler = \"virtualclock\"\nmode = \"preemptive\"\npreemption_credits = \"{credits}\"");
        for (latency, depth) in [(1, 8), (2, 4)] {
            check_router(&router, latency, depth, 100_000);
        }
    }
}

#[test]
fn the_hand_derived_formula_streams_at_four_plus_m_per_router_without_registers() {
    // §7: the tail of an M-flit message leaves one router 4 + M cycles after
    // its header entered; h links without registers chain h + 1 routers.
    for h in 0..=6 {
        assert_eq!(expected(h, 0, 8), (h + 1) * 5 + MESSAGE_FLITS - 1);
        assert_eq!(expected(h, 2, 8), (h + 1) * 5 + MESSAGE_FLITS - 1 + 2 * h);
    }
    // L = 2, DI = 4, one link: groups of 4 every 8 cycles, header in router 2 at 7.
    assert_eq!(expected(1, 2, 4), 7 + 3 + 3 + 4 * 8 + 2);
}

/// A busy network (0.6 flits per endpoint per cycle offered) with
/// `link_latency` registers, then `drain` cycles to drain.
fn busy(topology: &str, ports: u32, link_latency: u32, drain: u64) -> wormqos_netsim::Validated {
    let text = format!(
        "name = \"busy\"\n[router]\nports = {ports}\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n\
         [topology]\n{topology}\nlink_latency = {link_latency}\n\
         [workload]\nload = 0.6\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"bernoulli\"\nmessage_flits = 8\n\
         [run]\ncycles = 20000\nwarmup_cycles = 1000\ndrain_cycles = {drain}\n"
    );
    Experiment::from_str(&text, "busy.toml", PathBuf::new()).unwrap()
}

/// A run stopped with traffic in flight passes the engine's flit
/// conservation check (injected = ejected + buffered + on links) only if
/// the flits held in link registers are counted.
#[test]
fn the_conservation_check_counts_the_flits_in_link_registers() {
    for latency in [1, 16] {
        let r = run(&busy("kind = \"mesh\"\nk = 4", 5, latency, 0)).unwrap_or_else(|e| panic!("link latency {latency}: {e}"));
        assert!(r.flits_injected > r.flits_ejected + 100, "traffic still in flight at the end: {} vs {}", r.flits_injected, r.flits_ejected);
    }
}

/// With link registers the deadlock checks still find a real deadlock (a
/// torus without dateline classes, docs/microarchitecture.md §11) and do
/// not report one where the network drains (with the classes), although
/// flits and credits in link registers are not in their snapshot.
#[test]
fn deadlocks_are_found_and_not_invented_with_link_registers() {
    // An 8-node ring (without datelines it deadlocks at this load with 0, 1
    // and 3 registers per link, by the first check).
    let torus = |dateline: bool| format!("kind = \"torus\"\nk = 8\nn = 1\ndateline = {dateline}");
    for latency in [1, 3] {
        let r = run(&busy(&torus(true), 3, latency, 1_000_000)).unwrap_or_else(|e| panic!("link latency {latency}, datelines: {e}"));
        assert_eq!(r.messages_delivered, r.messages_created, "link latency {latency}");
        assert_eq!(r.flits_ejected, r.flits_injected, "link latency {latency}");
        match run(&busy(&torus(false), 3, latency, 1_000_000)) {
            // Found by the periodic check, not only by the stall watchdog.
            Err(wormqos_netsim::SimError::Deadlocked { .. }) => {}
            other => panic!("link latency {latency}, no datelines: expected a deadlock, got {:?}", other.map(|r| r.accepted_throughput)),
        }
    }
}

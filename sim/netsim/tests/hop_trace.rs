//! `Sim::run_hop_trace`, each message's routers in path order (issue 22,
//! docs/reproduction.md "Where R1's extra blocking arises in the 6-cube"):
//! exact times for messages alone in a 2-cube, worked out by hand, and
//! for messages that met others the checks a wait must pass, with the
//! ROUTED counts against the separate `Sim::run_vc_waits` probe.

use std::path::PathBuf;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

/// 000_… Table 1's routers (one VC per class: VC 0 R1, VC 1 R2, VC 2 best
/// effort; M = b_s = 32; VirtualClock) on a 2-cube, at `load`
/// flits/cycle/node split `mix`.
fn two_cube(load: f64, mix: &str, cycles: u64, seed: u64) -> wormqos_netsim::Validated {
    let text = format!(
        r#"
name = "two_cube"
[router]
ports = 3
vcs = 3
flit_width = 32
input_buffer_depth = 32
output_buffer_depth = 32
crossbar = "full"
scheduler = "virtualclock"
traffic_classes = 3
mode = "non_preemptive"
vc_classes = [2, 1, 0]
[topology]
kind = "hypercube"
n = 2
[workload]
load = {load}
mix = {mix}
realtime = "poisson"
best_effort = "poisson"
message_flits = 32
[run]
cycles = {cycles}
warmup_cycles = 1000
seed = {seed}
"#
    );
    Experiment::from_str(&text, "two_cube.toml", PathBuf::new()).unwrap()
}

/// A message alone in the network (no other message's [created,
/// delivered] overlaps its own) crosses the routers of its e-cube path,
/// lowest differing dimension first, with its header leaving router k
/// (k = 0 its source's) 4 + 5 k cycles after its injection and its tail
/// 31 cycles after its header on every link, never waiting in ROUTED
/// beyond the VA cycle, with no flit on its output links while it waits.
/// By hand: T = P − 1 + P h + M = 4 + 5 h + 32 (`transfer_time.rs`) with
/// P = 5 per router and the tail delivered the cycle after it crossed the
/// ejection link (the single router's 36 = 4 + 31 + 1), flits one a cycle.
#[test]
fn lone_messages_in_a_two_cube_leave_each_router_at_the_pipelines_cycle() {
    let v = two_cube(0.0006, "[0.0004, 0.0002]", 200_000, 5);
    let (_, log, traces) = Sim::new(&v).unwrap().run_hop_trace().unwrap();
    assert_eq!(log.len(), traces.len());
    let alone = |m: &wormqos_netsim::network::MessageLog| log.iter().filter(|o| !std::ptr::eq(*o, m)).all(|o| o.delivered < m.created || o.created > m.delivered);
    let mut by_hops = [0usize; 3];
    for (m, hops) in log.iter().zip(&traces).filter(|(m, _)| alone(m)) {
        let dims: Vec<u32> = (0..2).filter(|d| (m.src ^ m.dest) >> d & 1 == 1).collect();
        let h = dims.len();
        by_hops[h] += 1;
        assert_eq!(hops.len(), h + 1, "{m:?}: {hops:?}");
        let mut router = m.src;
        for (k, hop) in hops.iter().enumerate() {
            assert_eq!(hop.router, router, "{m:?} hop {k}");
            let port = if k < h { 1 + dims[k] } else { 0 };
            assert_eq!(hop.port, port, "{m:?} hop {k}");
            assert_eq!(hop.header_left, m.injected + 4 + 5 * k as u64, "{m:?} hop {k}: {hops:?}");
            assert_eq!(hop.tail_left, hop.header_left + 31, "{m:?} hop {k}");
            assert_eq!(hop.routed, 1, "{m:?} hop {k}");
            assert_eq!(hop.flits_by_vc, [0; 4], "{m:?} hop {k}");
            if k < h {
                router ^= 1 << dims[k];
            }
        }
        assert_eq!(m.delivered, hops[h].tail_left + 1, "{m:?}");
    }
    assert!(by_hops[1] >= 5 && by_hops[2] >= 5, "lone messages by hops {by_hops:?}");
}

/// At a load where messages meet: (a) each message's ROUTED cycles summed
/// over its routers equal `run_vc_waits`'s count for it (a separate probe,
/// same seed, same run); (b) VA grants one output VC per output port a
/// cycle, round robin (docs/microarchitecture.md §6 stage 3), so a header
/// whose class's VC is free waits at most one cycle for each other class's
/// header routed to the same port: ROUTED at most 3 cycles with 3 VCs.
/// Longer, its VC was held by an earlier message, whose flits leave on the
/// link before this header's (one output VC buffer, in order): at least
/// one flit of its VC crossed while it waited; (c) the link carries
/// one flit a cycle, so the flits counted while a header waited are fewer
/// than its cycles in the router; (d) its tail is at least 31 cycles
/// behind its header on every link and delivered the cycle after it left
/// the destination's router.
#[test]
fn waiting_headers_see_their_vcs_holder_and_match_the_vc_wait_probe() {
    let v = two_cube(0.48, "[0.24, 0.16]", 40_000, 3);
    let (_, log, traces) = Sim::new(&v).unwrap().run_hop_trace().unwrap();
    let (_, log_w, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap();
    assert_eq!(log.len(), log_w.len(), "the probes change the run");
    let (mut waited, mut shared) = (0usize, 0usize);
    for ((m, hops), (mw, w)) in log.iter().zip(&traces).zip(log_w.iter().zip(&waits.messages)) {
        assert_eq!((m.src, m.created, m.delivered), (mw.src, mw.created, mw.delivered));
        assert_eq!(hops.iter().map(|h| h.routed).sum::<u32>(), w.routed_cycles, "{m:?}: {hops:?}");
        let own = 2 - m.class as usize; // vc_classes = [2, 1, 0]
        let mut arrived = m.injected;
        for (k, hop) in hops.iter().enumerate() {
            if hop.routed > 3 {
                waited += 1;
                assert!(hop.flits_by_vc[own] >= 1, "{m:?} hop {k}: waited {} cycles, {:?}", hop.routed, hop.flits_by_vc);
            }
            let flits: u32 = hop.flits_by_vc.iter().sum();
            assert!((flits as u64) < hop.header_left - arrived, "{m:?} hop {k}: {flits} flits in {} cycles", hop.header_left - arrived);
            shared += (flits > hop.flits_by_vc[own]) as usize;
            assert!(hop.tail_left >= hop.header_left + 31, "{m:?} hop {k}");
            arrived = hop.header_left;
        }
        assert_eq!(m.delivered, hops.last().unwrap().tail_left + 1, "{m:?}");
    }
    // Not vacuous: many headers waited for a VC, many shared a link.
    assert!(waited > 200 && shared > 500, "{waited} waits, {shared} shared");
}

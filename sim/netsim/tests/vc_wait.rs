//! The per-message output-VC wait of `Sim::run_vc_waits` (issue 22,
//! docs/reproduction.md "Why the DMP model is below the simulated tail"),
//! checked against an independent count and a hand-computed visit count.

use std::path::Path;
use wormqos_netsim::network::Sim;
use wormqos_netsim::router_split::RouterPart;
use wormqos_netsim::Experiment;

fn experiment(file: &str, edits: &[(&str, &str)]) -> wormqos_netsim::Validated {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let mut text = std::fs::read_to_string(dir.join(file)).unwrap();
    text.truncate(text.find("[sweep]").unwrap());
    for (from, to) in edits {
        assert!(text.contains(from), "{file}: no {from:?}");
        text = text.replacen(from, to, 1);
    }
    Experiment::from_str(&text, file, dir).unwrap()
}

/// On the one-VC-per-class single router at R1+R2 = 0.010 (queueing for
/// the VCs common), every R1 message's ROUTED cycles equal the
/// `vc_allocation` part of `router_split` (a separate count that follows
/// messages by their flits), and each was seen at one router.
#[test]
fn single_router_waits_equal_the_router_splits_vc_allocation() {
    let v = experiment("fig4_000_np.toml", &[("load = 0.48\nmix = [0.16, 0.32]", "load = 0.64\nmix = [0.32, 0.32]"), ("cycles = 1000000\nwarmup_cycles = 20000", "cycles = 40000\nwarmup_cycles = 2000")]);
    let (_, log_w, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap();
    let waits = waits.messages;
    let (_, log_s, splits) = Sim::new(&v).unwrap().run_router_split(2, 2_000, 40_000).unwrap();
    assert_eq!(log_w.len(), waits.len());
    assert_eq!(log_w.len(), log_s.len(), "the probes change the run");
    assert!(splits.len() > 1_000, "{} R1 messages followed", splits.len());
    let mut queued = 0;
    for (i, s) in &splits {
        assert_eq!(log_w[*i].created, log_s[*i].created);
        assert_eq!(log_w[*i].src, log_s[*i].src);
        assert_eq!(waits[*i].routers, 1, "message {i}: {:?}", waits[*i]);
        assert_eq!(waits[*i].routed_cycles, s.whole[RouterPart::VcAllocation as usize], "message {i}");
        queued += (waits[*i].queueing() > 0) as usize;
    }
    // The comparison is not vacuous: many R1 headers queued for the VC.
    assert!(queued * 10 > splits.len(), "{queued} of {} queued", splits.len());
}

/// On the 6-cube a message is seen in ROUTED at every router of its
/// e-cube path: Hamming distance of source and destination plus one (the
/// endpoint of node k is at router k). At a very light load few queue.
#[test]
fn cube_messages_are_seen_at_every_router_of_their_path() {
    let v = experiment("fig7_000_cube6.toml", &[("load = 0.16\nmix = [0.096, 0.064]", "load = 0.016\nmix = [0.0096, 0.0064]"), ("cycles = 200000\nwarmup_cycles = 20000", "cycles = 60000\nwarmup_cycles = 1000")]);
    let (_, log, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap();
    let waits = waits.messages;
    assert!(log.len() > 1_000, "{} messages", log.len());
    assert_eq!(log.len(), waits.len());
    let mut by_hops = [0usize; 7];
    for (m, w) in log.iter().zip(&waits) {
        let hops = (m.src ^ m.dest).count_ones();
        assert_eq!(w.routers, hops + 1, "{m:?} {w:?}");
        by_hops[hops as usize] += 1;
    }
    assert!(by_hops[1..].iter().all(|&n| n > 0), "every hop count seen: {by_hops:?}");
    let queued = waits.iter().filter(|w| w.queueing() > 0).count();
    assert!(queued * 50 < log.len(), "{queued} of {} queued at 1/10 of the lightest load", log.len());
}

/// The VC utilisation beside the waits: at a tenth of the lightest load of
/// `fig4_000_np` almost no message waits for anything, so each R1 message
/// holds its output VC (VC 0, `vc_classes = [2, 1, 0]`) for its 32 flits'
/// crossings and a few pipeline cycles: the allocated cycles of VC 0 over
/// every output port, per R1 message delivered, lie in 32..=38. (The other
/// VCs' counts are not in it: all three together would be above 38.)
#[test]
fn single_router_vc_utilisation_is_the_holds_of_its_class() {
    let v = experiment("fig4_000_np.toml", &[("load = 0.48\nmix = [0.16, 0.32]", "load = 0.0384\nmix = [0.0064, 0.032]"), ("cycles = 1000000\nwarmup_cycles = 20000", "cycles = 400000\nwarmup_cycles = 0")]);
    let (_, log, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap();
    let r1 = log.iter().filter(|m| m.class == 2).count();
    assert!(r1 > 500, "{r1} R1 messages");
    assert_eq!(waits.routers, 1);
    let held: u64 = (0..16).map(|o| waits.held[o * waits.vcs]).sum();
    let per_message = held as f64 / r1 as f64;
    assert!((32.0..=38.0).contains(&per_message), "VC 0 held {per_message} cycles per R1 message");
}

/// The split the R2 tail section uses (docs/reproduction.md "R2's cube
/// tail and the cube variant's overshoot, measured"), on the 6-cube at a
/// tenth of the lightest load. By hand: a message alone crosses h links
/// in 4 + 5h + 32 cycles (P = 5 cycles a router, `transfer_time.rs`), and
/// once its header has left the last router its 32 flits follow at one a
/// cycle whatever h was, so for every message that met no one
/// (latency 36 + 5h) `delivered − head_seen` is one constant c with
/// 32 ≤ c ≤ 36, the header's part `head_seen − injected` = 36 + 5h − c
/// growing 5 cycles a hop. Such a message is in ROUTED one cycle at its
/// first router and one at its last, and ACTIVE at the front one cycle a
/// router; for every message of two or more
/// routers the first and last routers' ROUTED cycles are at least one
/// each and together at most all of them.
#[test]
fn cube_header_and_body_parts_add_up() {
    let v = experiment("fig7_000_cube6.toml", &[("load = 0.16\nmix = [0.096, 0.064]", "load = 0.016\nmix = [0.0096, 0.0064]"), ("cycles = 200000\nwarmup_cycles = 20000", "cycles = 60000\nwarmup_cycles = 1000")]);
    let (_, log, waits) = Sim::new(&v).unwrap().run_vc_waits().unwrap();
    let mut body = std::collections::BTreeSet::new();
    let mut alone_by_hops = [0usize; 7];
    for (m, w) in log.iter().zip(&waits.messages) {
        let h = (m.src ^ m.dest).count_ones() as u64;
        assert!(w.routers >= 2, "{m:?} {w:?}");
        assert!(w.first_routed >= 1 && w.last_routed >= 1 && w.first_routed + w.last_routed <= w.routed_cycles, "{m:?} {w:?}");
        assert!(m.injected <= w.head_seen && w.head_seen < m.delivered, "{m:?} {w:?}");
        if m.delivered - m.injected == 36 + 5 * h {
            assert_eq!((w.first_routed, w.last_routed, w.queueing()), (1, 1, 0), "{m:?} {w:?}");
            // After VC allocation the header is at its input VC's front
            // for the one cycle of switch allocation, at every router.
            assert_eq!(w.head_active_cycles, w.routers, "{m:?} {w:?}");
            body.insert(m.delivered - w.head_seen);
            alone_by_hops[h as usize] += 1;
        }
    }
    assert!(alone_by_hops[1..].iter().all(|&n| n > 0), "messages that met no one, by hops: {alone_by_hops:?}");
    assert_eq!(body.len(), 1, "delivered − head_seen of the messages that met no one: {body:?}");
    let c = *body.first().unwrap();
    assert!((32..=36).contains(&c), "the body's part {c}");
}

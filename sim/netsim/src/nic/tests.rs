//! The NIC models against traces worked out by hand from the rules in the
//! module documentation (and, for VirtualClock, docs/microarchitecture.md
//! §8: a real-time flit's stamp is max(now, aux) + Vtick, aux takes the
//! stamp of a granted flit, the smallest stamp wins, lowest slot on ties;
//! best effort comes after real time).

use super::*;

const BE: u32 = 255; // best-effort marker of an 8-bit Vtick
const A: u32 = 1; // message ids
const B: u32 = 2;
const C: u32 = 3;
const D: u32 = 4;

fn params(qos: bool, injection: Injection) -> NicParams {
    NicParams {
        qos,
        injection,
        block_size: 1,
        doorbell_depth: 4,
        queue_depth: 8,
        bus_flits_per_cycle: 100.0, // the whole message in one cycle
        dma_cycles: 0,
        send_dma_cycles: 0,
        vcs: 2,
        credits: 100,
        lanes: 0,
        clock_width: 16,
        vtick_width: 8,
        vc_choice: VcChoice::RoundRobin,
    }
}

fn db(msg: u32, class: u8, vc: u8, flits: u32, vtick: u32) -> Doorbell {
    Doorbell { msg, class, vc, flits, vtick }
}

/// Rings `dbs` before cycle 0, runs `cycles` cycles; per cycle the flit
/// sent as (message, index), or None.
fn trace(p: &NicParams, dbs: &[Doorbell], cycles: u64) -> Vec<Option<(u32, u32)>> {
    let mut nic = Nic::new(p, 2);
    for d in dbs {
        nic.ring(p, *d);
    }
    run(&mut nic, p, 0..cycles)
}

fn run(nic: &mut Nic, p: &NicParams, cycles: std::ops::Range<u64>) -> Vec<Option<(u32, u32)>> {
    cycles.map(|t| nic.step(p, t, |_| true).map(|s| (s.msg, s.index))).collect()
}

fn s(msg: u32, index: u32) -> Option<(u32, u32)> {
    Some((msg, index))
}

#[test]
fn qos_doorbells_serve_the_highest_class_first_and_traditional_serves_in_order() {
    // Best effort A rings before real-time B; the DMA takes 3 cycles of
    // overhead per message (selection cycle included), then moves it at once.
    let dbs = [db(A, 0, 0, 2, BE), db(B, 1, 1, 2, 10)];
    let mut p = params(true, Injection::Flit);
    p.dma_cycles = 3;
    // qos: B selected at 0, moved at 3, sent at 4, 5; A selected at 4, moved at 7, sent at 8, 9.
    let want = vec![None, None, None, None, s(B, 0), s(B, 1), None, None, s(A, 0), s(A, 1)];
    assert_eq!(trace(&p, &dbs, 10), want);
    // traditional: A first, B waits behind it.
    let mut p = params(false, Injection::Message);
    p.dma_cycles = 3;
    let want = vec![None, None, None, None, s(A, 0), s(A, 1), None, None, s(B, 0), s(B, 1)];
    assert_eq!(trace(&p, &dbs, 10), want);
}

#[test]
fn a_doorbell_to_a_full_vc_queue_is_skipped_by_qos_and_blocks_traditional() {
    // Send queues of 2 flits; VC 0 has no credit, so A (VC 0) fills its
    // queue and stays; B (VC 0) finds it full; C (VC 1) is behind B.
    let dbs = [db(A, 1, 0, 2, 10), db(B, 1, 0, 2, 10), db(C, 1, 1, 2, 10)];
    for qos in [true, false] {
        let mut p = params(qos, if qos { Injection::Flit } else { Injection::Message });
        p.queue_depth = 2;
        let mut nic = Nic::new(&p, 2);
        for d in dbs {
            nic.ring(&p, d);
        }
        nic.credits[0] = 0;
        let got = run(&mut nic, &p, 0..6);
        if qos {
            // A moved at 0; at 1 B is skipped and C moved; C sent at 2, 3.
            assert_eq!(got, vec![None, None, s(C, 0), s(C, 1), None, None]);
        } else {
            // A's credit-less front flit and the full shared FIFO stop everything.
            assert_eq!(got, vec![None; 6]);
        }
        // Two credits for VC 0: A leaves (the traditional NIC then moves B into the room).
        nic.credit(1, 0);
        nic.credit(1, 0);
        assert_eq!(run(&mut nic, &p, 6..9), vec![s(A, 0), s(A, 1), None]);
    }
}

#[test]
fn only_the_visible_doorbells_are_searched_for_one_that_can_go() {
    // doorbell_depth 2: B and C (VC 0, full) hide D (VC 1) until one leaves.
    const D: u32 = 4;
    let mut p = params(true, Injection::Flit);
    p.queue_depth = 2;
    p.doorbell_depth = 2;
    let dbs = [db(A, 1, 0, 2, 10), db(B, 1, 0, 2, 10), db(C, 1, 0, 2, 10), db(D, 1, 1, 2, 10)];
    let mut nic = Nic::new(&p, 2);
    for d in dbs {
        nic.ring(&p, d);
    }
    nic.credits[0] = 0;
    assert_eq!(run(&mut nic, &p, 0..5), vec![None; 5]);
    p.doorbell_depth = 3;
    // Now D is visible at 5, moved, and sent at 6, 7.
    assert_eq!(run(&mut nic, &p, 5..8), vec![None, s(D, 0), s(D, 1)]);
}

#[test]
fn flit_level_injection_interleaves_by_virtualclock_and_message_level_sends_whole_messages() {
    // Both real time, Vtick 4, three flits; A moved at 0, B at 1.
    let dbs = [db(A, 1, 0, 3, 4), db(B, 1, 1, 3, 4)];
    // Flit level: cycle 1 A (s 1+4=5, aux 5); 2: A 9 vs B 6 → B (aux 6);
    // 3: A 9 vs B 10 → A (aux 9); 4: A 13 vs B 10 → B (aux 10);
    // 5: A 13 vs B 14 → A; 6: B.
    let p = params(true, Injection::Flit);
    let want = vec![None, s(A, 0), s(B, 0), s(A, 1), s(B, 1), s(A, 2), s(B, 2)];
    assert_eq!(trace(&p, &dbs, 7), want);
    // Message level: A whole, then B whole.
    let p = params(true, Injection::Message);
    let want = vec![None, s(A, 0), s(A, 1), s(A, 2), s(B, 0), s(B, 1), s(B, 2)];
    assert_eq!(trace(&p, &dbs, 7), want);
    // Block level, b = 2: A0 A1 (held), then B 7 < A 13 → B0 B1, then A2
    // (A's stamp 13 kept, B's next 15), B2.
    let mut p = params(true, Injection::Block);
    p.block_size = 2;
    let want = vec![None, s(A, 0), s(A, 1), s(B, 0), s(B, 1), s(A, 2), s(B, 2)];
    assert_eq!(trace(&p, &dbs, 7), want);
}

#[test]
fn the_send_dma_costs_its_overhead_before_every_message_header() {
    // 3 cycles of send DMA per message: selection at 1 (A present), header at
    // 4; the next selection at 6, header at 9 — the same for both NICs.
    let dbs = [db(A, 1, 0, 2, 4), db(B, 1, 1, 2, 4)];
    let want = vec![None, None, None, None, s(A, 0), s(A, 1), None, None, None, s(B, 0), s(B, 1)];
    for qos in [true, false] {
        let mut p = params(qos, Injection::Message);
        p.send_dma_cycles = 3;
        assert_eq!(trace(&p, &dbs, 11), want, "qos {qos}");
    }
}

#[test]
fn the_host_bus_limits_injection_to_its_bandwidth() {
    // Half the link's bandwidth: one flit moved every other cycle (at 1, 3,
    // 5, …), each sent the cycle after.
    let dbs = [db(A, 1, 0, 4, 4)];
    for qos in [true, false] {
        let mut p = params(qos, if qos { Injection::Flit } else { Injection::Message });
        p.bus_flits_per_cycle = 0.5;
        let want = vec![None, None, s(A, 0), None, s(A, 1), None, s(A, 2), None, s(A, 3)];
        assert_eq!(trace(&p, &dbs, 9), want, "qos {qos}");
        // With 2 cycles of DMA overhead first: moves at 3, 5, 7, 9.
        p.dma_cycles = 2;
        let want = vec![None, None, None, None, s(A, 0), None, s(A, 1), None, s(A, 2), None, s(A, 3)];
        assert_eq!(trace(&p, &dbs, 11), want, "qos {qos}");
    }
}

#[test]
fn injection_needs_a_credit_of_the_flits_vc() {
    let p = params(true, Injection::Flit);
    let mut nic = Nic::new(&p, 2);
    nic.ring(&p, db(A, 1, 1, 3, 4));
    nic.credits[1] = 1;
    assert_eq!(run(&mut nic, &p, 0..4), vec![None, s(A, 0), None, None]);
    nic.credit(0b10, 0);
    assert_eq!(run(&mut nic, &p, 4..6), vec![s(A, 1), None]);
}

#[test]
fn a_message_waits_while_the_caller_does_not_admit_it() {
    let p = params(true, Injection::Flit);
    let mut nic = Nic::new(&p, 2);
    nic.ring(&p, db(A, 1, 0, 2, 4));
    let none: Vec<_> = (0..3).map(|t| nic.step(&p, t, |_| false)).collect();
    assert_eq!(none, vec![None; 3]);
    assert!(!nic.idle());
    assert_eq!(run(&mut nic, &p, 3..6), vec![None, s(A, 0), s(A, 1)]);
    assert!(nic.idle());
}

#[test]
fn vcs_are_taken_round_robin_over_the_class_mask() {
    let p = params(true, Injection::Flit);
    let mut nic = Nic::new(&p, 2);
    let got: Vec<u8> = (0..5).map(|_| nic.pick_vc(&p, 1, 0b1010)).collect();
    assert_eq!(got, vec![1, 3, 1, 3, 1]);
    assert_eq!(nic.pick_vc(&p, 0, 0b0100), 2);
}

#[test]
fn spec_defaults_and_parameters_in_cycles() {
    let spec: NicSpec = toml::from_str("variant = \"traditional\"").unwrap();
    // 128-bit flits on 1600 Mbit/s: 80 ns cycles; 1 µs = 12.5 → 13 cycles.
    let p = spec.params(16, 40, 0, 16, 16, 80.0, 1600.0);
    assert_eq!((p.qos, p.injection, p.queue_depth, p.dma_cycles, p.send_dma_cycles), (false, Injection::Message, 80 * 16, 13, 13));
    assert!((p.bus_flits_per_cycle - 2.64).abs() < 1e-12);
    let spec: NicSpec = toml::from_str("variant = \"qos\"").unwrap();
    let p = spec.params(16, 40, 0, 16, 16, 80.0, 1600.0);
    assert_eq!((p.qos, p.injection, p.queue_depth, p.send_dma_cycles), (true, Injection::Flit, 80, 0));
}

/// The hook in the engine: at zero load (one control message per endpoint
/// per 1,250 cycles, the NIC empty when it arrives) a message's header
/// leaves D + 1 cycles after its creation (D = DMA overhead cycles: the
/// selection cycle counts, the flits move in the next, the header leaves
/// after that), plus the send DMA's S cycles in the traditional NIC; the
/// original sources send the header in the creation cycle.
#[test]
fn zero_load_source_latency_in_the_network() {
    let base = "name = \"z\"\n[router]\nports = 5\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n[topology]\nkind = \"mesh\"\nk = 2\n[physical]\nlink_mbps = 400\n[workload]\nload = 0\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"poisson\"\ncontrol = true\nframes_per_second = 10000\n[run]\ncycles = 20000\nwarmup_cycles = 2000\n";
    // 80 ns cycles: 800 ns = 10 cycles, 400 ns = 5 cycles.
    let nic = "dma_overhead_ns = 800\n";
    for (section, want) in [
        (String::new(), 0.0),
        (format!("[nic]\nvariant = \"qos\"\n{nic}"), 11.0),
        (format!("[nic]\nvariant = \"traditional\"\n{nic}send_dma_overhead_ns = 400\n"), 16.0),
    ] {
        let v = crate::Experiment::from_str(&format!("{base}{section}"), "z.toml", std::path::PathBuf::new()).unwrap();
        let r = crate::run(&v).unwrap();
        assert!(!r.classes.is_empty() && r.messages_delivered == r.messages_created, "{section}");
        for c in &r.classes {
            assert!(c.messages > 40, "{section}: {} messages", c.messages);
            assert_eq!(c.source_latency, want, "{section}");
        }
    }
}

#[test]
fn avoid_lower_class_skips_vcs_whose_send_queue_holds_best_effort() {
    // Four VCs, no credits (nothing leaves the send queues). Best-effort A
    // rung on VC 1, real-time C on VC 2: the DMA takes C at cycle 0 (higher
    // class first) and A at cycle 1, each whole in its cycle. Then
    // best-effort D is rung on VC 3 but not taken: it is not in a send queue.
    let mut p = params(true, Injection::Flit);
    p.vcs = 4;
    p.credits = 0;
    p.vc_choice = VcChoice::AvoidLowerClass;
    let mut nic = Nic::new(&p, 2);
    nic.ring(&p, db(A, 0, 1, 2, BE));
    nic.ring(&p, db(C, 1, 2, 2, 10));
    assert_eq!(run(&mut nic, &p, 0..2), vec![None, None]);
    nic.ring(&p, db(B, 0, 3, 2, BE));
    // Real time over VCs 0..3: VC 1 holds best effort, VC 2 only real time
    // (same class, not lower), VC 3 only a doorbell: round robin over
    // {0, 2, 3} from VC 0.
    let rt: Vec<u8> = (0..5).map(|_| nic.pick_vc(&p, 1, 0b1111)).collect();
    assert_eq!(rt, vec![0, 2, 3, 0, 2]);
    // Best effort has no lower class: plain round robin from VC 0.
    let be: Vec<u8> = (0..5).map(|_| nic.pick_vc(&p, 0, 0b1111)).collect();
    assert_eq!(be, vec![0, 1, 2, 3, 0]);
    // Every VC of the mask holds best effort ({1}): round robin over the
    // mask; real time's pointer is past VC 2, so it wraps to 1.
    assert_eq!(nic.pick_vc(&p, 1, 0b0010), 1);
    // The same state under the default: VC 1 is not skipped.
    p.vc_choice = VcChoice::RoundRobin;
    let rr: Vec<u8> = (0..4).map(|_| nic.pick_vc(&p, 1, 0b1111)).collect();
    assert_eq!(rr, vec![2, 3, 0, 1]);
}

#[test]
fn vc_choice_defaults_to_round_robin_and_is_qos_only() {
    let spec: NicSpec = toml::from_str("variant = \"qos\"").unwrap();
    assert_eq!(spec.params(16, 40, 0, 16, 16, 80.0, 1600.0).vc_choice, VcChoice::RoundRobin);
    let spec: NicSpec = toml::from_str("variant = \"qos\"\nvc_choice = \"avoid_lower_class\"").unwrap();
    assert!(spec.validate().is_ok());
    assert_eq!(spec.params(16, 40, 0, 16, 16, 80.0, 1600.0).vc_choice, VcChoice::AvoidLowerClass);
    let spec: NicSpec = toml::from_str("variant = \"traditional\"\nvc_choice = \"round_robin\"").unwrap();
    let (field, value, why) = spec.validate().unwrap_err();
    assert_eq!((field.as_str(), value.as_str()), ("nic.vc_choice", "\"round_robin\""));
    assert!(why.contains("only used with variant = \"qos\""), "{why}");
}

#[test]
fn doorbell_waits_before_the_dma_are_split_by_cause() {
    // QoS NIC, 2 doorbells visible per class, 3-flit send queues, 3 cycles
    // of DMA overhead (selection cycle included, the flits move in the
    // third cycle after it), no credits (nothing leaves). Rung before cycle
    // 0: A (best effort, VC 0, 2 flits), B (real time, VC 1, 3 flits),
    // C (real time, VC 1, 2 flits), D (real time, VC 0, 1 flit).
    let mut p = params(true, Injection::Flit);
    p.doorbell_depth = 2;
    p.queue_depth = 3;
    p.dma_cycles = 3;
    p.credits = 0;
    let mut nic = Nic::new(&p, 2);
    nic.record_waits(2, 0);
    for d in [db(A, 0, 0, 2, BE), db(B, 1, 1, 3, 10), db(C, 1, 1, 2, 10), db(D, 1, 0, 1, 10)] {
        nic.ring(&p, d);
    }
    run(&mut nic, &p, 0..12);
    // Cycle 0: B taken; C could go (other first), D is third in its queue
    // (not visible), A is a lower class (other first). Cycles 1-3 busy:
    // A, C, D. Cycle 4: VC 1 is full (B's 3 flits): C queue full; D taken;
    // A other first. 5-7 busy: A, C. Cycle 8: C queue full, A taken
    // (VC 0 holds D's 1 flit). 9-11 busy: C.
    let w = nic.waits().unwrap();
    assert_eq!(w.doorbell_other_first, vec![2, 1]);
    assert_eq!(w.doorbell_not_visible, vec![0, 1]);
    assert_eq!(w.doorbell_queue_full, vec![0, 2]);
    assert_eq!(w.doorbell_dma_busy, vec![6, 12]);
    assert_eq!(w.doorbell_dma_stalled, vec![0, 0]);
    // Per doorbell the causes add up to selection − ring: A 8, C 12 (not
    // taken by cycle 11), D 4, B 0.
    let total: Vec<u64> = (0..2)
        .map(|c| w.doorbell_other_first[c] + w.doorbell_not_visible[c] + w.doorbell_queue_full[c] + w.doorbell_dma_busy[c])
        .collect();
    assert_eq!(total, vec![8, 16]);
}

#[test]
fn doorbells_behind_a_dma_stalled_on_a_full_send_queue_are_counted_stalled() {
    // 3-flit send queues, no DMA overhead, no credits. A (real time, VC 0,
    // 5 flits) is taken at cycle 0 and 3 flits move in: its queue is full
    // with 2 flits left, so the DMA stalls from cycle 1 on, and B (real
    // time, VC 1, 1 flit), which lost to A at cycle 0, waits behind it.
    let mut p = params(true, Injection::Flit);
    p.queue_depth = 3;
    p.credits = 0;
    let mut nic = Nic::new(&p, 2);
    nic.record_waits(2, 0);
    nic.ring(&p, db(A, 1, 0, 5, 10));
    nic.ring(&p, db(B, 1, 1, 1, 10));
    run(&mut nic, &p, 0..5);
    let w = nic.waits().unwrap();
    assert_eq!(w.doorbell_other_first, vec![0, 1]);
    assert_eq!(w.doorbell_dma_busy, vec![0, 4]);
    assert_eq!(w.doorbell_dma_stalled, vec![0, 4]);
}

/// Per-lane credits (docs/nic.md §9.1, docs/microarchitecture.md §9.4
/// *Credits*), by hand: one router input VC of DD = 2 flits per lane, E + 1
/// = 2 lanes; the router returns no credit until told. Best-effort A (class
/// 0, 2 flits, VC 0) rings first: moved at 0, sent at 1 and 2 into lane 0
/// (nothing busy: fresh, lane 0, lcls[0] := 0), leaving lcr[0] = 0. Real-time
/// B (class 1, 2 flits, VC 0) rings before 3, is moved at 3; at 4 lane 0 is
/// busy (stop = 0) and lcls[0] = 0 < 1, so B's header opens lane 1 (full
/// credit) and leaves, its body follows at 5 in lw = 1. With per-VC credits
/// the VC's 2 credits are A's and B waits for a credit of the VC.
#[test]
fn per_lane_credits_let_a_higher_class_open_a_lane_the_lower_one_does_not_hold() {
    let lanes_run = |nic: &mut Nic, p: &NicParams, cycles: std::ops::Range<u64>| -> Vec<Option<(u32, u32, u8)>> {
        cycles.map(|t| nic.step(p, t, |_| true).map(|s| (s.msg, s.index, s.lane))).collect()
    };
    let mut p = params(true, Injection::Flit);
    p.credits = 2;
    p.lanes = 2;
    let mut nic = Nic::new(&p, 2);
    nic.ring(&p, db(A, 0, 0, 2, BE));
    assert_eq!(lanes_run(&mut nic, &p, 0..3), vec![None, Some((A, 0, 0)), Some((A, 1, 0))]);
    nic.ring(&p, db(B, 1, 0, 2, 10));
    assert_eq!(lanes_run(&mut nic, &p, 3..7), vec![None, Some((B, 0, 1)), Some((B, 1, 1)), None]);
    // Both lanes busy (stop = 1, lcr = 0, 0). Best-effort C's header takes
    // the lowest lane with lcls >= 0, lane 0, which has no credit: it waits,
    // also when a credit of lane 1 returns (at 7, usable from 8) ...
    nic.ring(&p, db(C, 0, 0, 2, BE));
    nic.credit(0b1, wormqos_sim::credit_lane_word(0, 1));
    assert_eq!(lanes_run(&mut nic, &p, 7..10), vec![None, None, None]);
    // ... and leaves into lane 0 the cycle after a credit of lane 0 returns.
    nic.credit(0b1, wormqos_sim::credit_lane_word(0, 0));
    assert_eq!(lanes_run(&mut nic, &p, 10..12), vec![Some((C, 0, 0)), None]);

    // Per-VC credits: after A the VC has none, so B's header waits.
    p.lanes = 0;
    let mut nic = Nic::new(&p, 2);
    nic.ring(&p, db(A, 0, 0, 2, BE));
    assert_eq!(lanes_run(&mut nic, &p, 0..3), vec![None, Some((A, 0, 0)), Some((A, 1, 0))]);
    nic.ring(&p, db(B, 1, 0, 2, 10));
    assert_eq!(lanes_run(&mut nic, &p, 3..7), vec![None; 4]);
}

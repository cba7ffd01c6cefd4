//! Per-lane credits at the NIC (docs/nic.md §9.1, §11.1;
//! docs/microarchitecture.md §9.4 *Credits*): the NIC as a sender that
//! names each flit's lane, and as a receiver that returns each credit with
//! its flit's lane. Expected values derived by hand in the comments.

use super::*;

/// The bench's P router (M = 2, DI = DD = 4, P mode's default s = 3
/// classes so E = 2: lanes 0..=2, LW = 2) with the QoS NIC, and `credits` = "per_vc" or "per_lane".
fn p_config(credits: &str) -> RouterConfig {
    let text = format!(
        "name = \"n\"\n[router]\nports = 4\nvcs = 2\nflit_width = 64\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n\
         mode = \"preemptive\"\npreemption_credits = \"{credits}\"\n[nic]\nvariant = \"qos\"\n"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

/// Both messages go on VC 0 (send queue 0) and no injection credit ever
/// comes back; B's doorbell is rung after A has left (the QoS NIC serves
/// the highest class first, §6). A (class 0, 12 bytes: header + 3 body
/// flits) leaves first: no lane is busy, so its header is fresh, lane 0
/// (lcls[0] := 0), and its 4 flits use lane 0's DI = 4 credits. B (class 1,
/// 4 bytes: header + 1 body) is next: lane 0 is busy (lcr[0] = 0 < 4), stop
/// = 0, lcls[0] = 0 < 1, so B's header opens lane 1 (lcr[1] = 4 > 0: it is
/// eligible) and its body follows in lw = 1. Per-VC credits: VC 0 has 0
/// credits after A's 4 flits, so B never leaves.
#[test]
fn a_higher_class_opens_lane_1_while_lane_0_holds_the_lower_class() {
    let run = |credits: &str| {
        let mut b = Bench::new(&p_config(credits));
        b.credit_vcs = 0;
        b.descriptor(0x200, 1, 0, 12, 0x1000, 0);
        b.descriptor(0x300, 2, 0, 4, 0x2000, 0);
        ring_then_enable(&mut b, &[(0, 0x200)]);
        b.run(60);
        b.run_script(&[Op::Write(db(1), 0x300)], 80);
        b.link.iter().map(|l| (l.1.head, l.1.lane)).collect::<Vec<_>>()
    };
    assert_eq!(run("per_lane"), [(true, 0), (false, 0), (false, 0), (false, 0), (true, 1), (false, 1)]);
    assert_eq!(run("per_vc"), [(true, 0), (false, 0), (false, 0), (false, 0)]);
}

/// A credit names its lane: after A (class 0) filled lane 0 and B (class 1)
/// took 2 credits of lane 1, C (class 1, header + 1 body) joins lane 1
/// (lowest lane with lcls >= 1; lcr[1] = 2) and takes its last 2 credits.
/// D (class 1) then waits (lcr[1] = 0) until a credit for lane 1 comes back;
/// a credit for lane 0 does not release it (it joins lane 1, whose lcls = 1).
#[test]
fn a_returned_credit_frees_the_lane_it_names() {
    let mut b = Bench::new(&p_config("per_lane"));
    b.credit_vcs = 0;
    b.descriptor(0x200, 1, 0, 12, 0x1000, 0);
    for d in [0x300, 0x400, 0x500] {
        b.descriptor(d, 2, 0, 4, 0x2000, 0);
    }
    ring_then_enable(&mut b, &[(0, 0x200)]);
    b.run(60);
    b.run_script(&[Op::Write(db(1), 0x300), Op::Write(db(1), 0x400), Op::Write(db(1), 0x500)], 150);
    let lanes = |b: &Bench| b.link.iter().map(|l| l.1.lane).collect::<Vec<_>>();
    assert_eq!(lanes(&b), [0, 0, 0, 0, 1, 1, 1, 1]);
    // One credit of lane 0 (VC 0): D's header needs lane 1, nothing leaves.
    b.inp = NicInputs::default();
    let step_with = |b: &mut Bench, lane: u64| {
        let i = NicInputs { inj_credit: 1, inj_credit_lanes: lane, ..NicInputs::default() };
        b.nic.step(&i);
        for _ in 0..3 {
            b.nic.step(&NicInputs::default());
            let o = *b.nic.outputs();
            if o.inj.valid {
                b.link.push((b.nic.cycle(), o.inj));
            }
        }
    };
    step_with(&mut b, 0);
    assert_eq!(b.link.len(), 8, "a lane-0 credit does not release a lane-1 header");
    step_with(&mut b, 1);
    assert_eq!(b.link.len(), 9, "a lane-1 credit does");
    assert!(b.link[8].1.head && b.link[8].1.lane == 1);
}

/// The receive side: FIFO u holds (E+1)·DD = 3·4 = 12 flits, and each
/// credit carries the lane of the flit popped. With RX_EN = 0, twelve flits
/// on VC 1 (messages of header + 3 body flits: class 0 in lane 0, class 1
/// in lane 1, class 2 in lane 2) are all kept (no RX_DROP); a thirteenth is
/// dropped. Then with three buffers posted and RX_EN = 1 the 12 flits are
/// popped in arrival order: credits on VC 1 (bit 1) with lanes 0 ×4, 1 ×4,
/// 2 ×4 (lane word: VC 1's field at bits 4..8, link.rs `credit_lane_word`).
#[test]
fn the_receiver_holds_dd_flits_per_lane_and_returns_credits_with_lanes() {
    let mut b = Bench::new(&p_config("per_lane"));
    let p = b.nic.p.clone();
    let mut flits = Vec::new();
    for (class, src) in [(0u32, 1u32), (1, 2), (2, 3)] {
        let mut m = message_flits(&p, 0, class, src, 0, 3, 0x10 * src as u64, 1);
        m.iter_mut().for_each(|f| f.lane = class as u8);
        flits.extend(m);
    }
    for f in &flits {
        b.nic.step(&NicInputs { ej: *f, ..NicInputs::default() });
    }
    b.nic.step(&NicInputs::default());
    assert_eq!(b.read(STATUS).0 & (1 << 3), 0, "12 flits fit");
    b.nic.step(&NicInputs { ej: flits[0], ..NicInputs::default() });
    b.nic.step(&NicInputs::default());
    assert_eq!(b.read(STATUS).0 & (1 << 3), 1 << 3, "the thirteenth is dropped");
    b.run_script(
        &[
            Op::Write(RX_POST_LEN, 64),
            Op::Write(RX_POST_ADDR, 0x4000),
            Op::Write(RX_POST_ADDR, 0x5000),
            Op::Write(RX_POST_ADDR, 0x6000),
            Op::Write(CONTROL, 2),
        ],
        150,
    );
    let lanes: Vec<(u32, u64)> = [0u64, 1, 2].iter().flat_map(|&l| [(2, l << 4); 4]).collect();
    assert_eq!(b.ej_credit_log, lanes);
}

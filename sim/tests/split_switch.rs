//! `router.switch_stage = "split"` (docs/microarchitecture.md §6, *Split
//! switch allocation*). Every expected cycle below is derived by hand from
//! the spec's rules (the derivation is in each comment), never by running
//! the model:
//! - RV in cycle 1 for a header written at the end of cycle 0, SA-A in 2,
//!   SA-B in 3, ST in 4, point C in 5, on the output link in 6: zero-load
//!   latency 5 + M (P = 6);
//! - SA-A counts the flit crossing now (`sgp`) and the candidate at B
//!   (`cap`) in `ob_count + sgp + cap < DO`, so one VC streams every cycle
//!   with DO >= 4, three flits in four cycles with DO = 3 and one in two
//!   with DO = 2;
//! - two inputs contending for one output alternate at B, a lost candidate
//!   standing for its flit in the next cycle, and no pick behind a tail in
//!   flight.
//! The conservation and no-overflow invariants over long random runs are in
//! `registered_switch.rs` (its configurations run with both stages).

mod common;

use common::{assert_port, message, run, stream, Stim};
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs, RouterOutputs};

/// A 5-port, 4-VC multiplexed router, round robin, split switch stage.
fn router(di: u32, dout: u32) -> RouterConfig {
    let text = format!(
        "name = \"s\"\n[router]\nports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = {di}\n\
         output_buffer_depth = {dout}\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n\
         switch_stage = \"split\"\n"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

/// Runs `cycles` cycles with flit `sends[p][k]` on input p in cycle k (no
/// credits returned); the outputs during cycles 0..=cycles.
fn run_sends(r: &mut Router, sends: &[(usize, Vec<LinkFlit>)], cycles: u64) -> Vec<RouterOutputs> {
    let mut s = Stim::default();
    for (p, msg) in sends {
        s.send(*p, msg, 0..);
    }
    run(r, &s, cycles)
}

/// Header on input 1 VC 2 written at the end of cycle 0: RV in 1 (output VC
/// 0, the lowest free); SA-A in 2; SA-B in 3; ST in 4; C in 5; out in 6.
/// Flit k arrives in cycle k, one behind the previous one in every stage:
/// SA-A in 2 + k sees it behind flit k-1 (at B) and k-2 (crossing): flit k
/// is in the buffer from k+1 <= 2+k, so `ib_count - sgp - cap` >= 1, and
/// `ob_count + sgp + cap` <= 1 + 1 + 1 < DO = 8;
/// out in 6 + k. Tail of an M-flit message: 5 + M. DI = DD = 8 cover 8
/// flits without a returned credit.
#[test]
fn zero_load_latency_is_5_plus_m() {
    for len in [1usize, 2, 8] {
        let mut r = Router::new(&router(8, 8));
        let msg = message(2, 3, len, 7);
        let log = run_sends(&mut r, &[(1, msg.clone())], 20 + len as u64);
        let want: Vec<_> = (0..len).map(|k| (6 + k as u64, msg[k], 0)).collect();
        assert_eq!(want.last().unwrap().0, 5 + len as u64);
        assert_port(&log, 3, &want);
        for o in [0, 1, 2, 4] {
            assert_port(&log, o, &[]);
        }
        assert_eq!(r.stats().flits_forwarded, len as u64);
        assert_eq!(r.buffered_flits(), 0);
    }
}

/// The registers stage by stage, one 2-flit message on input 0 VC 1 to
/// port 4 written at the end of cycles 0 and 1: after cycle 2 (SA-A) the
/// candidate is VC 1 standing for the header (not a tail) and nothing is
/// granted; after 3 (SA-B grants the header; SA-A picks the tail behind
/// it) the grant is VC 1 (header), the candidate VC 1 (tail), and the
/// credit is on `in_credit` during the ST cycle 4; after 4 (the header
/// crosses, B grants the tail, A has nothing: the tail is in flight) no
/// candidate, the grant is the tail; after 5 nothing.
#[test]
fn point_a_and_point_b_have_a_cycle_each() {
    let mut r = Router::new(&router(8, 8));
    let msg = message(1, 4, 2, 1);
    let mut inp = RouterInputs::idle(r.config());
    let mut seen = vec![];
    for t in 0..7u64 {
        inp.clear();
        if let Some(f) = msg.get(t as usize) {
            inp.flits[0] = *f;
        }
        r.step(&inp);
        seen.push((t + 1, r.switch_candidate(0), r.switch_grant(0), r.outputs().credits[0]));
    }
    assert_eq!(seen[1], (2, None, None, 0), "after RV 1");
    assert_eq!(seen[2], (3, Some((1, false)), None, 0), "after SA-A 2");
    assert_eq!(seen[3], (4, Some((1, true)), Some((1, false)), 1 << 1), "after cycle 3");
    assert_eq!(seen[4], (5, None, Some((1, true)), 1 << 1), "after cycle 4");
    assert_eq!(seen[5], (6, None, None, 0), "after cycle 5");
}

/// One VC streaming from input 0 VC 0 to port 4, DI = DD = 8; the sender
/// sends flit k in the first cycle it has a credit (a credit on `in_credit`
/// counted at the end of its cycle), the sink returns each credit in the
/// cycle its flit is on the link. Let `x` be a cycle from 2 (the header's
/// VC is ACTIVE after RV 1); SA-A picks iff `ob + sgp + cap < DO`, with
/// `cap(x+1)` = pick(x), `sgp(x+1)` = cap(x), `ob(x+1) = ob(x) + sgp(x) -
/// [ob(x) > 0]` (C pops one flit when the buffer holds one; credits never
/// run out). A flit crossing in c is out in c + 2.
/// - DO = 4: x = 2, 3, 4: 0, 1, 2; from 5 on ob = 1, sgp = cap = 1: 3 < 4,
///   a pick every cycle: flit k out in 6 + k.
/// - DO = 3: picks in 2, 3, 4 (sums 0, 1, 2); 5: 1+1+1 = 3, none; 6: 1+1+0,
///   7: 1+0+1 (picks 3, 4); 8: 0+1+1 (pick 5, ob empty after flit 2 left
///   in 7); 9: 1+1+1 none; period 4 from 5: flit k out in 6 + k + floor(k/3).
/// - DO = 2: picks in 2, 3; 4: 0+1+1 none; 5: 1+1+0 none; 6: 1+0+0 pick 2;
///   7: 0+0+1 pick 3; 8, 9 none: flit k out in 6 + k + 2 floor(k/2).
/// Input side: a slot is rewritten 4 cycles after its flit was (picked in
/// w+1, crossing and credit in w+3, sent in w+4), so DI = 8 never limits.
#[test]
fn one_vc_streams_every_cycle_with_do_4_three_in_four_with_3_one_in_two_with_2() {
    for dout in [4u32, 3, 2] {
        let len = 24usize;
        let out_cycles = stream(&router(8, dout), len, 8, 1);
        let want: Vec<u64> = (0..len as u64)
            .map(|k| match dout {
                4 => 6 + k,
                3 => 6 + k + k / 3,
                _ => 6 + k + 2 * (k / 2),
            })
            .collect();
        assert_eq!(out_cycles, want, "DO = {dout}");
    }
}

/// 4-flit messages a (input 0 VC 0) and b (input 1 VC 0), both to port 4,
/// flits written at the end of cycles 0..3; DO = DI = 8, no credit needed.
/// RV 1: VA's arbiter (pointer 0 over i = p*M+v) gives a output VC 0; b
/// stays ROUTED and gets output VC 1 in RV 2. B's pointer `xb_ptr[4]`
/// starts at 0. Per cycle (A: the pick; B: the candidates and the winner;
/// ST: the flit crossing):
/// - 2: A(0) picks a0.  3: B grants a0 (ptr 1); A(0) a1, A(1) b0.
/// - 4: ST a0; B {a1, b0}: b0 (ptr 2); A(0) picks a2 behind a1 (lost:
///   the candidate stands for a1), A(1) b1.
/// - 5: ST b0; B {a1, b1}: a1 (ptr 1); A(0) a2, A(1) b2 (b1 lost: stands
///   for b1).  6: ST a1; B {a2, b1}: b1 (ptr 2); A(0) picks a3 behind a2
///   (lost: stands for a2), A(1) b2.
/// - 7: ST b1; B {a2, b2}: a2 (ptr 1); A(0) picks the tail a3 behind a2;
///   A(1) picks the tail b3 behind b2 (lost: stands for b2).
/// - 8: ST a2; B {a3, b2}: b2 (ptr 2); A(0): a3, in flight, is a tail:
///   no pick (a3 is dropped); A(1) picks b3 behind b2.
/// - 9: ST b2; B {b3}: b3; A(0) picks a3; A(1): b3 in flight is a tail.
/// - 10: ST b3; B {a3}: a3.  11: ST a3.
/// Crossings a0 4, b0 5, a1 6, b1 7, a2 8, b2 9, b3 10, a3 11; out 2 later.
#[test]
fn two_inputs_contending_for_one_output_alternate_at_b() {
    let mut r = Router::new(&router(8, 8));
    let (a, b) = (message(0, 4, 4, 1), message(0, 4, 4, 2));
    let log = run_sends(&mut r, &[(0, a.clone()), (1, b.clone())], 20);
    let want = [
        (6, a[0], 0),
        (7, b[0], 1),
        (8, a[1], 0),
        (9, b[1], 1),
        (10, a[2], 0),
        (11, b[2], 1),
        (12, b[3], 1),
        (13, a[3], 0),
    ];
    assert_port(&log, 4, &want);
    assert_eq!(r.buffered_flits(), 0);
}

/// One-flit messages A (cycle 0) and B (cycle 1) on input 0 VC 0, A to
/// port 2, B to port `b_out`. RV 1 gives A output VC 0. SA-A 2 picks A
/// (a tail); in 3 B's header is behind it (count 2) with room in output VC
/// (2, 0), and only "not (`cap` and `ca_tail`)" keeps SA-A from picking B
/// into A's output VC; in 4 A crosses (ST), its VC is not ACTIVE for SA-A
/// (a crossing tail) and becomes IDLE at the end of 4. B: RV 5 (output VC 0
/// of `b_out`), SA-A 6, SA-B 7, ST 8, C 9, out 10. With both on port 2 the
/// link idles in 7, 8, 9: three cycles after a tail.
#[test]
fn nothing_is_picked_behind_a_tail_in_flight() {
    for b_out in [3u64, 2] {
        let mut r = Router::new(&router(8, 8));
        let (a, b) = (message(0, 2, 1, 1), message(0, b_out, 1, 2));
        let log = run_sends(&mut r, &[(0, vec![a[0], b[0]])], 16);
        if b_out == 3 {
            assert_port(&log, 2, &[(6, a[0], 0)]);
            assert_port(&log, 3, &[(10, b[0], 0)]);
        } else {
            assert_port(&log, 2, &[(6, a[0], 0), (10, b[0], 0)]);
        }
    }
}

/// A 3-flit message on input 0 VC 0 to port 1 with gaps: header written at
/// the end of 0, body of 4, tail of 5. RV 1; SA-A 2 picks the header. 3:
/// B grants it; SA-A: the candidate's flit is the only one (`ib_count - cap`
/// = 0), no pick. 4: the header crosses; the buffer is empty for SA-A. 5:
/// SA-A picks the body. 6: B grants it; SA-A picks the tail behind it
/// (written at the end of 5). 7: the body crosses, B grants the tail. 8:
/// the tail crosses. Out: header 6, body 9, tail 10.
#[test]
fn point_a_waits_for_a_flit_behind_the_candidate() {
    let mut r = Router::new(&router(8, 8));
    let m = message(0, 1, 3, 4);
    let idle = LinkFlit::IDLE;
    let log = run_sends(&mut r, &[(0, vec![m[0], idle, idle, idle, m[1], m[2]])], 16);
    assert_port(&log, 1, &[(6, m[0], 0), (9, m[1], 0), (10, m[2], 0)]);
}

/// The credit loop (§6 *Split switch allocation*, *Consequences*): one VC
/// from input 0 to port 4, DO = DD = 8. A flit sent in w is picked at A in
/// w+1 at the earliest, granted in w+2, crosses in w+3 with its credit.
/// The sender sends into the freed slot in w+4 if it counts the credit at
/// the end of w+3 and sends in the next cycle (`lag` 1), in w+5 if it is a
/// neighbour router (`lag` 2: it counts the credit at the end of w+3, point
/// C picks in w+4, the flit is on the link in w+5). Flit 0's A is in 2,
/// after RV 1, as for a flit sent in 1.
/// - lag 1, DI = 4: flits 0..3 sent in 0..3 cross in 4..7; flit 0's credit
///   (4) sends flit 4 in 5, crossing in 8, and so on: out in 6 + k.
/// - lag 2, DI = 4: flits 0..3 cross in 4..7, their credits send flits 4..7
///   in 6..9 (crossing 9..12), then 8..11 in 11..14: four flits every five
///   cycles, out in 6 + k + floor(k/4).
/// - lag 2, DI = 5: flits 0..4 cross in 4..8, flit 0's credit sends flit 5
///   in 6, crossing in 9: out in 6 + k (DI >= 5 between routers).
#[test]
fn the_credit_loop_streams_with_di_4_from_a_fast_sender_and_di_5_between_routers() {
    for (di, lag) in [(4u32, 1u64), (4, 2), (5, 2)] {
        let len = 24usize;
        let out_cycles = stream(&router(di, 8), len, di, lag);
        let want: Vec<u64> = (0..len as u64).map(|k| if (di, lag) == (4, 2) { 6 + k + k / 4 } else { 6 + k }).collect();
        assert_eq!(out_cycles, want, "DI = {di}, lag {lag}");
    }
}

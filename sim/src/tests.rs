//! Behavioural tests. Every expected value below was derived by hand from
//! docs/microarchitecture.md (the derivation is in the comments), never by
//! running the model.

use crate::{LinkFlit, Router, RouterInputs, RouterOutputs, VcState, Wide};
use wormqos_config::RouterConfig;

/// The integration tests' stimulus helpers, one copy for both.
#[path = "../tests/common/mod.rs"]
mod common;
use common::{message, run, Stim};

fn example(name: &str) -> RouterConfig {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    RouterConfig::from_file(std::path::Path::new(&path)).unwrap()
}

/// A multiplexed-crossbar router with `switch_stage = stage` and input /
/// output buffer depths `di` / `dout`.
fn staged(stage: &str, ports: u32, vcs: u32, scheduler: &str, di: u32, dout: u32, extra: &str) -> RouterConfig {
    let text = format!(
        "name = \"t\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = {di}\n\
         output_buffer_depth = {dout}\ncrossbar = \"multiplexed\"\nscheduler = \"{scheduler}\"\n\
         switch_stage = \"{stage}\"\n{extra}"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

fn inline(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> RouterConfig {
    RouterConfig::from_toml_str(&inline_text(ports, vcs, crossbar, scheduler, extra), "inline").unwrap()
}

/// [`inline`] for a router of up to `SIM_PORTS_RANGE` ports (simulation only).
fn inline_simulated(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> RouterConfig {
    RouterConfig::from_toml_str_simulated(&inline_text(ports, vcs, crossbar, scheduler, extra), "inline").unwrap()
}

fn inline_text(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> String {
    format!(
        "name = \"t\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\n{extra}"
    )
}

/// The flit as it should appear on an output link on VC `u`.
fn on_vc(f: LinkFlit, u: u8) -> LinkFlit {
    LinkFlit { vc: u, ..f }
}

/// Asserts that output port `o` carries exactly `expected` (cycle, flit) and
/// nothing in any other cycle of the log.
fn assert_port(log: &[RouterOutputs], o: usize, expected: &[(u64, LinkFlit)]) {
    for (t, out) in log.iter().enumerate() {
        let want = expected.iter().find(|(c, _)| *c == t as u64).map(|&(_, f)| f).unwrap_or(LinkFlit::IDLE);
        assert_eq!(out.flits[o], want, "output port {o}, cycle {t}");
    }
}

fn assert_port_idle(log: &[RouterOutputs], o: usize) {
    assert_port(log, o, &[]);
}

#[test]
fn reset_state_outputs_are_zero() {
    let cfg = example("mesh5");
    let r = Router::new(&cfg);
    assert_eq!(r.outputs(), &RouterOutputs::idle(&cfg));
    assert!(r.is_quiescent());
    assert_eq!(r.credits(4, 3), 8);
    assert_eq!(r.vc_state(2, 1), VcState::Idle);
}

/// §7: header in cycle 0 -> BW end of 0, RC 1, VA 2, ST 3, C 4, output 5;
/// flit k one cycle later each, so the tail of an M-flit message is out in 4+M.
#[test]
fn zero_load_latency_is_4_plus_m() {
    for len in [1usize, 2, 8] {
        let cfg = example("mesh5");
        let mut r = Router::new(&cfg);
        let msg = message(2, 3, len, 7);
        let mut s = Stim::default();
        s.send(1, &msg, &(0..len as u64).collect::<Vec<_>>());
        let log = run(&mut r, &s, 20 + len as u64);
        // Output VC 0: the lowest free one.
        let exp: Vec<_> = (0..len).map(|k| (5 + k as u64, on_vc(msg[k], 0))).collect();
        assert_eq!(exp.last().unwrap().0, 4 + len as u64);
        assert_port(&log, 3, &exp);
        for o in [0, 1, 2, 4] {
            assert_port_idle(&log, o);
        }
        assert_eq!(r.stats().flits_forwarded, len as u64);
        assert_eq!(r.stats().tails_forwarded, 1);
        assert!(r.buffered_flits() == 0);
        // The downstream never returned credits.
        assert_eq!(r.credits(3, 0), 8 - len);
    }
}

/// Ports above 31 (where a set kept in a `u32` would lose them) of a
/// 40-port router of `Wide` port sets, single switch (destination d leaves
/// on output port d, §2), both crossbars. Two messages of 8 flits in the
/// same cycles: input 0 -> output 39 and input 35 -> output 2, different
/// inputs and outputs, so each sees zero load. §7 as in
/// `zero_load_latency_is_4_plus_m`: header given in cycle 0 -> BW end of 0,
/// RC 1, VA 2, ST 3, C 4, on the output link in cycle 5; flit k in 5 + k,
/// the tail in 4 + 8 = 12, on output VC 0 (the lowest free one). No credit
/// comes back, so each output VC is left with DD - 8 = 8 - 8 = 0 credits;
/// input port 35 returns one credit per flit, on its VC 1, in the cycle the
/// flit crosses (ST, 3 + k: §6 stage 4 sets `in_credit`, on the wire in
/// the next cycle, 4 + k). Shown to fail with `WidePorts::single` keeping
/// only the low 5 bits of the port (a set truncated to 32 ports).
#[test]
fn ports_above_31_zero_load_latency_is_4_plus_m() {
    for crossbar in ["multiplexed", "full"] {
        let cfg = inline_simulated(40, 2, crossbar, "round_robin", "");
        let mut r = Router::<Wide>::with_width(&cfg);
        let len = 8;
        let (a, b) = (message(0, 39, len, 1), message(1, 2, len, 2));
        let mut s = Stim::default();
        let cycles: Vec<u64> = (0..len as u64).collect();
        s.send(0, &a, &cycles);
        s.send(35, &b, &cycles);
        let log = run(&mut r, &s, 20);
        assert_port(&log, 39, &(0..len).map(|k| (5 + k as u64, on_vc(a[k], 0))).collect::<Vec<_>>());
        assert_port(&log, 2, &(0..len).map(|k| (5 + k as u64, on_vc(b[k], 0))).collect::<Vec<_>>());
        for o in (0..40).filter(|&o| o != 39 && o != 2) {
            assert_port_idle(&log, o);
        }
        for (t, out) in log.iter().enumerate() {
            let want = if (4..4 + len).contains(&t) { 1 << 1 } else { 0 };
            assert_eq!(out.credits[35], want, "{crossbar}: credit of input port 35 in cycle {t}");
            assert_eq!(out.credits[0], want >> 1, "{crossbar}: credit of input port 0 in cycle {t}");
        }
        assert_eq!((r.credits(39, 0), r.credits(2, 0)), (0, 0));
        assert_eq!(r.stats().tails_forwarded, 2);
        assert_eq!(r.buffered_flits(), 0);
    }
}

/// Uncontended output, credits returned by the sink in the cycle each flit is
/// on the link (counted at the end of that cycle, usable 2 cycles after the
/// pick: never more than 2 in flight of 8). Input: at most 3 flits buffered
/// (arrivals t, moves t-3), no drop. So flit k is out in cycle 5+k.
#[test]
fn uncontended_output_streams_one_flit_per_cycle() {
    let cfg = example("mesh5");
    let mut r = Router::new(&cfg);
    let len = 30;
    let msg = message(0, 4, len, 3);
    let mut s = Stim::default();
    s.send(0, &msg, &(0..len as u64).collect::<Vec<_>>());
    for k in 0..len as u64 {
        s.credit(5 + k, 4, 1 << 0);
    }
    let log = run(&mut r, &s, 45);
    let exp: Vec<_> = (0..len).map(|k| (5 + k as u64, on_vc(msg[k], 0))).collect();
    assert_port(&log, 4, &exp);
    assert_eq!(r.stats().flits_dropped(), 0);
    assert_eq!(r.credits(4, 0), 8);
    assert!(r.is_quiescent());
}

/// One-flit A (cycle 0) and B (cycle 1) on input 0 VC 0 to port 2.
/// A: RC 1, VA 2, ST 3 (IDLE, output VC freed at the end of 3), out 5.
/// B: RC 4, VA 5 (gets VC 0 again), ST 6, C 7, out 8.
/// Two-flit A (0,1) and B (2,3): A ST 3,4 -> out 5,6; B RC 5, VA 6, ST 7,8 -> out 9,10.
#[test]
fn back_to_back_messages_pay_the_rc_va_bubble() {
    let cfg = example("mesh5");
    let mut r = Router::new(&cfg);
    let a = message(0, 2, 1, 1);
    let b = message(0, 2, 1, 2);
    let mut s = Stim::default();
    s.send(0, &a, &[0]);
    s.send(0, &b, &[1]);
    let log = run(&mut r, &s, 15);
    assert_port(&log, 2, &[(5, on_vc(a[0], 0)), (8, on_vc(b[0], 0))]);

    let mut r = Router::new(&cfg);
    let a = message(0, 2, 2, 1);
    let b = message(0, 2, 2, 2);
    let mut s = Stim::default();
    s.send(0, &a, &[0, 1]);
    s.send(0, &b, &[2, 3]);
    let log = run(&mut r, &s, 15);
    assert_port(
        &log,
        2,
        &[(5, on_vc(a[0], 0)), (6, on_vc(a[1], 0)), (9, on_vc(b[0], 0)), (10, on_vc(b[1], 0))],
    );
}

/// DD = 4. A 6-flit message from input 0 VC 0 to port 1: picks at 4..7 use the
/// 4 credits (outputs 5..8). Credits returned in cycles 0 and 1 find the
/// counter at DD and are ignored. A credit returned in cycle 10 is counted at
/// the end of 10, usable in 11: flit 4 picked in 11, out in 12. Another in
/// cycle 19: flit 5 out in 21.
#[test]
fn credits_gate_the_output() {
    let cfg = inline(5, 4, "multiplexed", "round_robin", "downstream_buffer_depth = 4\n");
    let mut r = Router::new(&cfg);
    let msg = message(0, 1, 6, 9);
    let mut s = Stim::default();
    s.send(0, &msg, &[0, 1, 2, 3, 4, 5]);
    s.credit(0, 1, 1);
    s.credit(1, 1, 1);
    s.credit(10, 1, 1);
    s.credit(19, 1, 1);
    // Credits for a VC id >= vcs are not part of the link.
    s.credit(10, 1, 1 << 4);
    let log = run(&mut r, &s, 30);
    assert_port(
        &log,
        1,
        &[
            (5, on_vc(msg[0], 0)),
            (6, on_vc(msg[1], 0)),
            (7, on_vc(msg[2], 0)),
            (8, on_vc(msg[3], 0)),
            (12, on_vc(msg[4], 0)),
            (21, on_vc(msg[5], 0)),
        ],
    );
    assert_eq!(r.credits(1, 0), 0);
    // The output VC was freed when the tail crossed the crossbar (it was not blocked there).
    assert!(!r.allocated(1, 0));
}

/// 3-flit message on input 2 VC 3: ST in 3, 4, 5, so in_credit bit 3 of port 2
/// is 1 in cycles 4, 5, 6 and 0 everywhere else.
#[test]
fn in_credit_pulses_the_cycle_after_each_pop() {
    let cfg = example("mesh5");
    let mut r = Router::new(&cfg);
    let msg = message(3, 0, 3, 5);
    let mut s = Stim::default();
    s.send(2, &msg, &[0, 1, 2]);
    let log = run(&mut r, &s, 12);
    for (t, out) in log.iter().enumerate() {
        for p in 0..5 {
            let want = if p == 2 && (4..=6).contains(&t) { 1 << 3 } else { 0 };
            assert_eq!(out.credits[p], want, "in_credit of port {p} in cycle {t}");
        }
    }
}

/// A (input 0 VC 0) and B (input 1 VC 0), 4 flits each in cycles 0..3, both to
/// port 2. RC 1 both. VA 2: va_ptr 0 grants i=0 (A) VC 0; VA 3 grants i=4 (B)
/// VC 1. ST: A0 in 3 (xb_ptr -> 1); from 4 both request and (B) alternates:
/// B0 4, A1 5, B1 6, A2 7, B2 8, A3 9, B3 10. Each flit is alone in its
/// output buffer the cycle after its ST (the other VC's flit left then), so it
/// is out 2 cycles after its ST.
#[test]
fn two_inputs_to_one_output_alternate() {
    let cfg = example("mesh5");
    let mut r = Router::new(&cfg);
    let a = message(0, 2, 4, 1);
    let b = message(0, 2, 4, 2);
    let mut s = Stim::default();
    s.send(0, &a, &[0, 1, 2, 3]);
    s.send(1, &b, &[0, 1, 2, 3]);
    let log = run(&mut r, &s, 20);
    let mut exp = vec![];
    for k in 0..4 {
        exp.push((5 + 2 * k as u64, on_vc(a[k], 0)));
        exp.push((6 + 2 * k as u64, on_vc(b[k], 1)));
    }
    assert_port(&log, 2, &exp);
    // in_credit: A's pops in 3,5,7,9; B's in 4,6,8,10.
    for (t, out) in log.iter().enumerate() {
        let t = t as u64;
        assert_eq!(out.credits[0], ([4, 6, 8, 10].contains(&t)) as u32, "cycle {t}");
        assert_eq!(out.credits[1], ([5, 7, 9, 11].contains(&t)) as u32, "cycle {t}");
    }
}

/// Full crossbar, 4 ports, 2 VCs. Input 0: A on VC 0 to port 1 (flits in 0, 2),
/// B on VC 1 to port 2 (flits in 1, 3). A: RC 1, VA 2, ST 3 and 4. B: RC 2,
/// VA 3, ST 4 and 5. In cycle 4 both A1 and B0 move: in_credit of port 0 is
/// 0b01 in 4, 0b11 in 5, 0b10 in 6. Outputs: A 5, 6 on port 1; B 6, 7 on port 2.
/// The multiplexed crossbar moves one flit per input port: with xa_ptr = 1
/// after A0, B0 wins in 4, then A1 in 5, B1 in 6: credits 0b01, 0b10, 0b01, 0b10
/// in 4..7.
#[test]
fn full_crossbar_moves_two_flits_of_one_port_in_one_cycle() {
    let a = message(0, 1, 2, 1);
    let b = message(1, 2, 2, 2);
    let mut s = Stim::default();
    s.send(0, &a, &[0, 2]);
    s.send(0, &b, &[1, 3]);

    let cfg = inline(4, 2, "full", "round_robin", "");
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 12);
    let credits: Vec<u32> = log.iter().map(|o| o.credits[0]).collect();
    assert_eq!(credits, [0, 0, 0, 0, 0b01, 0b11, 0b10, 0, 0, 0, 0, 0, 0]);
    assert_port(&log, 1, &[(5, on_vc(a[0], 0)), (6, on_vc(a[1], 0))]);
    assert_port(&log, 2, &[(6, on_vc(b[0], 0)), (7, on_vc(b[1], 0))]);

    let cfg = inline(4, 2, "multiplexed", "round_robin", "");
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 12);
    let credits: Vec<u32> = log.iter().map(|o| o.credits[0]).collect();
    assert_eq!(credits, [0, 0, 0, 0, 0b01, 0b10, 0b01, 0b10, 0, 0, 0, 0, 0]);
    assert_port(&log, 1, &[(5, on_vc(a[0], 0)), (7, on_vc(a[1], 0))]);
    assert_port(&log, 2, &[(6, on_vc(b[0], 0)), (8, on_vc(b[1], 0))]);
}

/// mediaworm8 (multiplexed, fifo). Input 0 link: A0 (VC 5, to port 1) in 0,
/// B0 (VC 2, to port 2) in 1, A1 2, B1 3, A2 (tail) 4, B2 (tail) 5.
/// A: RC 1, VA 2 (enters the age order in 2); B: RC 2, VA 3 (enters in 3).
/// ST A0 3. In 4 and 5 both are ready; A is older: A1 4, A2 5; then B0 6, B1 7,
/// B2 8. Outputs: A 5, 6, 7; B 8, 9, 10.
/// With round_robin instead: xa_ptr = 6 after A0, so B0 4 (ptr 3), A1 5
/// (ptr 6), B1 6, A2 7, B2 8: A out 5, 7, 9; B out 6, 8, 10.
#[test]
fn fifo_scheduler_serves_the_earlier_allocated_message_first() {
    let a = message(5, 1, 3, 1);
    let b = message(2, 2, 3, 2);
    let mut s = Stim::default();
    s.send(0, &a, &[0, 2, 4]);
    s.send(0, &b, &[1, 3, 5]);

    let cfg = example("mediaworm8");
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 16);
    assert_port(&log, 1, &[(5, on_vc(a[0], 0)), (6, on_vc(a[1], 0)), (7, on_vc(a[2], 0))]);
    assert_port(&log, 2, &[(8, on_vc(b[0], 0)), (9, on_vc(b[1], 0)), (10, on_vc(b[2], 0))]);

    let text = std::fs::read_to_string(format!("{}/../examples/mediaworm8.toml", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("scheduler = \"fifo\"", "scheduler = \"round_robin\"");
    let cfg = RouterConfig::from_toml_str(&text, "rr").unwrap();
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 16);
    assert_port(&log, 1, &[(5, on_vc(a[0], 0)), (7, on_vc(a[1], 0)), (9, on_vc(a[2], 0))]);
    assert_port(&log, 2, &[(6, on_vc(b[0], 0)), (8, on_vc(b[1], 0)), (10, on_vc(b[2], 0))]);
}

/// Full crossbar, fifo at point C, all to port 3 of a 4-port, 2-VC router.
/// X: input 0, one flit in 0: RC 1, VA 2 (VC 0), ST 3 (frees VC 0 at end of 3), out 5.
/// Y: input 1, 5 flits in 1..5: RC 2, VA 3 gets VC 1 (VC 0 still held at the
///    start of 3); ST 4..8.
/// Z: input 2, 5 flits in 2..6: RC 3, VA 4 gets VC 0 (younger than VC 1); ST 5..9.
/// C: 4 X; 5 Y0 (Z0 not there yet); from 6 both VCs are eligible and VC 1 (Y)
/// is older: Y1..Y4 in 6..9; then Z0..Z4 in 10..14. Outputs one cycle later.
/// With round_robin at C: 4 X (ptr 1), 5 Y0 (ptr 0), 6 Z0, 7 Y1, 8 Z1, ... alternating.
#[test]
fn fifo_at_point_c_serves_the_older_output_vc_not_the_lower_one() {
    let x = message(0, 3, 1, 1);
    let y = message(0, 3, 5, 2);
    let z = message(0, 3, 5, 3);
    let mut s = Stim::default();
    s.send(0, &x, &[0]);
    s.send(1, &y, &[1, 2, 3, 4, 5]);
    s.send(2, &z, &[2, 3, 4, 5, 6]);

    let cfg = inline(4, 2, "full", "fifo", "");
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 20);
    let mut exp = vec![(5, on_vc(x[0], 0))];
    for k in 0..5 {
        exp.push((6 + k as u64, on_vc(y[k], 1)));
        exp.push((11 + k as u64, on_vc(z[k], 0)));
    }
    assert_port(&log, 3, &exp);

    let cfg = inline(4, 2, "full", "round_robin", "");
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &s, 20);
    let mut exp = vec![(5, on_vc(x[0], 0))];
    for k in 0..5 {
        exp.push((6 + 2 * k as u64, on_vc(y[k], 1)));
        exp.push((7 + 2 * k as u64, on_vc(z[k], 0)));
    }
    assert_port(&log, 3, &exp);
}

/// 3 ports: DW = 2, so destination code 3 exists on the wire but is not an
/// endpoint: it routes to port 0. Code 2 routes to port 2.
#[test]
fn destination_at_or_above_endpoints_routes_to_port_0() {
    let cfg = inline(3, 2, "multiplexed", "round_robin", "");
    let mut r = Router::new(&cfg);
    let m = message(1, 3, 1, 4);
    let n = message(0, 2, 1, 5);
    let mut s = Stim::default();
    s.send(1, &m, &[0]);
    s.send(2, &n, &[0]);
    let log = run(&mut r, &s, 10);
    assert_port(&log, 0, &[(5, on_vc(m[0], 0))]);
    assert_port_idle(&log, 1);
    assert_port(&log, 2, &[(5, on_vc(n[0], 0))]);
}

/// wide72: routes [2, 0, 3, 1], 72-bit flits (bits 72.. masked), 3 VCs (VW = 2:
/// VC id 3 is dropped; id 7 is 3 on a 2-bit link and is dropped as well).
#[test]
fn routing_table_data_mask_and_bad_vc_drop() {
    let cfg = example("wide72");
    let mut r = Router::new(&cfg);
    let mut f = message(2, 2, 1, 6)[0];
    f.data[1] = u64::MAX;
    f.data[2] = 5;
    f.data[3] = 9;
    let bad = LinkFlit { vc: 3, ..message(0, 1, 1, 7)[0] };
    let bad7 = LinkFlit { vc: 7, ..message(0, 1, 1, 8)[0] };
    let mut s = Stim::default();
    s.send(3, &[f], &[0]);
    s.send(0, &[bad], &[0]);
    s.send(0, &[bad7], &[1]);
    let log = run(&mut r, &s, 10);
    let mut want = on_vc(f, 0);
    want.data = [f.data[0], 0xff, 0, 0];
    assert_port(&log, 3, &[(5, want)]);
    for o in 0..3 {
        assert_port_idle(&log, o);
    }
    assert_eq!(r.stats().dropped_bad_vc, 2);
    assert_eq!(r.stats().flits_accepted, 1);
    assert!(log.iter().all(|o| o.credits[0] == 0));
}

/// wide72 (DI 6, DO 3, DD 6). Input 0 VC 0, dest 1 -> port 0, a header and 19
/// body flits in cycles 0..19, no credit returned. ST of flit j in 3+j while
/// the output buffer has room; picks 4..9 spend the 6 credits (outputs 5..10).
/// Output buffer at the start of t: pushes in 3..t-1 minus 6 pops -> full at
/// the start of 12, so flits 0..8 crossed. Input buffer at the start of t >= 12:
/// t - 9, full at 15: flits 15..19 are dropped.
#[test]
fn full_input_buffer_drops() {
    let cfg = example("wide72");
    let mut r = Router::new(&cfg);
    let mut msg = message(0, 1, 21, 1);
    msg.pop(); // no tail
    let mut s = Stim::default();
    s.send(0, &msg, &(0..20).collect::<Vec<_>>());
    let log = run(&mut r, &s, 20);
    let exp: Vec<_> = (0..6).map(|k| (5 + k as u64, on_vc(msg[k], 0))).collect();
    assert_port(&log, 0, &exp);
    assert_eq!(r.stats().flits_accepted, 15);
    assert_eq!(r.stats().dropped_full, 5);
    assert_eq!(r.stats().crossbar_moves, 9);
    assert_eq!(r.input_occupancy(0, 0), 6);
    assert_eq!(r.output_occupancy(0, 0), 3);
    assert_eq!(r.credits(0, 0), 0);
    assert_eq!(r.vc_state(0, 0), VcState::Active { route: 0, ovc: 0 });
    assert!(r.allocated(0, 0));
    assert_eq!(r.input_flit(0, 0, 0), Some(msg[9]));
}

/// One step of random traffic (`test_traffic`) with the generator's state in a `u64`.
fn random_inputs(rng: &mut u64, cfg: &RouterConfig, inp: &mut RouterInputs) {
    let mut r = crate::test_traffic::Rng(*rng);
    crate::test_traffic::random_inputs(&mut r, cfg, inp);
    *rng = r.0;
}

#[test]
fn reset_clears_everything() {
    for name in ["mesh5", "wide72", "tiny2", "paper000_16port"] {
        let cfg = example(name);
        let fresh = Router::new(&cfg);
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            random_inputs(&mut rng, &cfg, &mut inp);
            r.step(&inp);
        }
        assert!(r.buffered_flits() > 0, "{name}: the workload left something in flight");
        r.reset();
        assert_eq!(r, fresh, "{name}");
        assert_eq!(r.outputs(), &RouterOutputs::idle(&cfg));
        assert!(r.is_quiescent());
        // And it behaves like a new router: zero-load latency again.
        let mut msg = message(0, 1, 2, 3);
        if cfg.flit_width() < 32 {
            // tiny2: 18-bit flits; keep the tag inside the flit.
            for f in &mut msg {
                f.data[0] &= (1 << cfg.flit_width()) - 1;
            }
        }
        let mut s = Stim::default();
        s.send(0, &msg, &[0, 1]);
        let log = run(&mut r, &s, 10);
        let o = cfg.route(1);
        assert_port(&log, o, &[(5, on_vc(msg[0], 0)), (6, on_vc(msg[1], 0))]);
    }
}

/// Not a spec-derived timing test: conservation laws and register rules that
/// must hold under any stimulus.
#[test]
fn random_traffic_conserves_flits_and_credits() {
    for name in ["mesh5", "wide72", "tiny2", "paper000_16port", "mediaworm8", "qos8"] {
        let cfg = example(name);
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut credit_pulses = 0u64;
        let words = cfg.flit_words();
        for _ in 0..3000 {
            random_inputs(&mut rng, &cfg, &mut inp);
            r.step(&inp);
            let s = *r.stats();
            let out = r.outputs();
            credit_pulses += out.credits.iter().map(|c| c.count_ones() as u64).sum::<u64>();
            for f in &out.flits {
                if !f.valid {
                    assert_eq!(*f, LinkFlit::IDLE);
                } else {
                    assert!((f.vc as usize) < cfg.vcs());
                    assert!(f.data[words..].iter().all(|&w| w == 0));
                }
            }
            let ib: usize = (0..cfg.ports())
                .flat_map(|p| (0..cfg.vcs()).map(move |v| (p, v)))
                .map(|(p, v)| r.input_occupancy(p, v))
                .sum();
            assert_eq!(s.flits_accepted, s.crossbar_moves + ib as u64, "{name}");
            assert_eq!(s.crossbar_moves, credit_pulses, "{name}");
            assert_eq!(s.crossbar_moves, s.flits_forwarded + (r.buffered_flits() - ib) as u64, "{name}");
            for o in 0..cfg.ports() {
                for u in 0..cfg.vcs() {
                    assert!(r.credits(o, u) <= cfg.downstream_buffer_depth());
                    assert!(r.output_occupancy(o, u) <= cfg.output_buffer_depth());
                }
            }
        }
        assert!(r.stats().flits_forwarded > 100, "{name}: {:?}", r.stats());
    }
}

/// `output_activity` is the non-idle part of `outputs()`.
#[test]
fn output_activity_matches_the_outputs() {
    for name in ["mesh5", "mediaworm8", "qos8", "mw8_tr", "mw8_p", "small_p"] {
        let cfg = example(name);
        for mut r in [Router::new(&cfg)] {
            let mut inp = RouterInputs::idle(&cfg);
            let mut rng = 0x2545_f491_4f6c_dd1du64;
            let mut seen = (0u32, 0u32);
            for t in 0..2000 {
                random_inputs(&mut rng, &cfg, &mut inp);
                if (t / 100) % 3 == 2 {
                    inp.clear();
                }
                r.step(&inp);
                let out = r.outputs();
                let valid = out.flits.iter().enumerate().fold(0, |a, (p, f)| a | (f.valid as u32) << p);
                let returning = out.credits.iter().enumerate().fold(0, |a, (p, &c)| a | ((c != 0) as u32) << p);
                assert_eq!(r.output_activity(), (valid, returning), "{name} cycle {t}");
                seen = (seen.0 | valid, seen.1 | returning);
            }
            assert!(seen.0 != 0 && seen.1 != 0, "{name}: no activity");
        }
    }
}

/// Differential check against the naive clone-the-state model in
/// `reference.rs`, every output, every cycle, under random traffic (random
/// VCs, head/tail bits, data, credit returns, occasional bad VC ids) for
/// every example configuration and a few inline ones.
#[test]
fn matches_the_naive_reference_model() {
    let mut cfgs: Vec<RouterConfig> =
        ["mesh5", "wide72", "tiny2", "paper000_16port", "mediaworm8", "qos8"].iter().map(|n| example(n)).collect();
    cfgs.push(inline(4, 2, "full", "round_robin", ""));
    cfgs.push(inline(3, 3, "multiplexed", "fifo", "downstream_buffer_depth = 5\n"));
    cfgs.push(inline(5, 4, "full", "fifo", "[topology]\nkind = \"single_switch\"\nroutes = [1, 1, 0, 4, 1]\n"));
    cfgs.push(inline(32, 16, "multiplexed", "round_robin", ""));
    cfgs.push(inline(32, 5, "full", "fifo", ""));
    cfgs.push(inline(5, 4, "multiplexed", "virtualclock", ""));
    cfgs.push(inline(4, 4, "full", "virtualclock", ""));
    cfgs.push(inline(3, 3, "multiplexed", "virtualclock", "vtick_width = 8\nclock_width = 8\n"));
    cfgs.push(inline(5, 4, "full", "virtualclock", "vtick_width = 8\nclock_width = 8\ndownstream_buffer_depth = 5\n"));
    cfgs.push(inline(6, 16, "multiplexed", "virtualclock", "vtick_width = 8\nclock_width = 9\n"));
    cfgs.push(inline(6, 16, "full", "virtualclock", "vtick_width = 8\nclock_width = 8\n"));
    for cfg in &cfgs {
        assert_matches_reference(cfg);
    }
}

/// `matches_the_naive_reference_model` with `switch_stage = "registered"`
/// (§6, *Registered switch allocation*) and `"split"` (§6, *Split switch
/// allocation*; the reference keeps `ca_tail` as a register with the spec's
/// correction, the engine reads the flit): every output, every cycle.
#[test]
fn registered_and_split_switch_stages_match_the_naive_reference_model() {
    for stage in ["registered", "split"] {
        let cfgs = [
            staged(stage, 5, 4, "round_robin", 8, 8, ""),
            staged(stage, 3, 3, "fifo", 8, 8, "downstream_buffer_depth = 5\n"),
            staged(stage, 4, 2, "round_robin", 8, 2, ""),
            staged(stage, 4, 2, "fifo", 4, 3, ""),
            staged(stage, 4, 2, "round_robin", 5, 4, ""),
            staged(stage, 32, 16, "round_robin", 8, 8, ""),
            staged(stage, 5, 4, "virtualclock", 8, 8, ""),
            staged(stage, 3, 3, "virtualclock", 8, 8, "vtick_width = 8\nclock_width = 8\n"),
            staged(stage, 6, 16, "virtualclock", 6, 2, "vtick_width = 8\nclock_width = 9\n"),
        ];
        for cfg in &cfgs {
            assert_matches_reference(cfg);
        }
    }
}

/// The engine against `reference.rs` under random traffic (3 seeds).
fn assert_matches_reference(cfg: &RouterConfig) {
    {
        for seed in 1..=3u64 {
            let mut r = Router::new(cfg);
            let mut q = crate::reference::RefRouter::new(cfg);
            let mut inp = RouterInputs::idle(cfg);
            let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let cycles = if cfg.ports() > 8 { 1500 } else { 5000 };
            for t in 0..cycles {
                random_inputs(&mut rng, cfg, &mut inp);
                // Vary the pressure: bursts of heavy and light credit return.
                if (t / 300) % 2 == 1 {
                    for c in inp.credits.iter_mut() {
                        *c &= rng as u32;
                    }
                }
                if t % 97 == 0 {
                    inp.flits[0].vc = 0xff;
                }
                // Silent stretches: the router drains (or stalls without
                // credits) and then idles, exercising the idle fast path.
                if (t / 200) % 4 == 3 {
                    inp.clear();
                    if t % 200 > 100 {
                        inp.credits.fill(u32::MAX);
                    }
                }
                r.step(&inp);
                q.step(&inp);
                assert_eq!(r.outputs(), &q.out, "{} seed {seed} cycle {t}", cfg.name());
            }
            assert!(r.stats().flits_forwarded > 50, "{}: {:?}", cfg.name(), r.stats());
        }
    }
}

/// VA: one grant per output port per cycle, lowest free output VC, a VC freed
/// in cycle t is free from t+1, round-robin over i = p*M+v.
/// (a) One-flit messages from inputs 0, 1, 2 (VC 0) to port 4 in cycle 0.
///     RC 1. VA 2: i=0 gets VC 0. VA 3: i=4 gets VC 1 (VC 0 held until its
///     tail's ST at the end of 3). VA 4: i=8 gets VC 0 (free again). ST 3, 4, 5;
///     out 5 (VC 0), 6 (VC 1), 7 (VC 0).
/// (b) Input 1 in cycle 0; inputs 0 and 2 in cycle 1, all to port 4. VA 2:
///     i=4 gets VC 0, va_ptr = 5. VA 3: requesters 0 and 8, from 5 the order
///     reaches 8 first: input 2 gets VC 1 (VC 0 still held). VA 4: input 0
///     gets VC 0. Out: input 1 in 5 (VC 0), input 2 in 6 (VC 1), input 0 in 7 (VC 0).
#[test]
fn va_grants_one_per_port_lowest_free_vc_round_robin() {
    let cfg = example("mesh5");
    let a = message(0, 4, 1, 1);
    let b = message(0, 4, 1, 2);
    let c = message(0, 4, 1, 3);

    let mut r = Router::new(&cfg);
    let mut s = Stim::default();
    s.send(0, &a, &[0]);
    s.send(1, &b, &[0]);
    s.send(2, &c, &[0]);
    let log = run(&mut r, &s, 12);
    assert_port(&log, 4, &[(5, on_vc(a[0], 0)), (6, on_vc(b[0], 1)), (7, on_vc(c[0], 0))]);

    let mut r = Router::new(&cfg);
    let mut s = Stim::default();
    s.send(1, &b, &[0]);
    s.send(0, &a, &[1]);
    s.send(2, &c, &[1]);
    let log = run(&mut r, &s, 12);
    assert_port(&log, 4, &[(5, on_vc(b[0], 0)), (6, on_vc(c[0], 1)), (7, on_vc(a[0], 0))]);
}

// ------------------------------------------------------------------ virtualclock (§8)

/// A message whose header carries Vtick `vt` (in the configuration's field).
fn vmessage(cfg: &RouterConfig, vc: u8, dest: u64, len: usize, tag: u64, vt: u64) -> Vec<LinkFlit> {
    let mut msg = message(vc, dest, len, tag);
    cfg.header().vtick.insert(&mut msg[0].data, vt);
    msg
}

/// The VirtualClock registers of a port: (now, aux, stamped, stamp) of slot k.
fn vclk(r: &Router, port: usize, k: usize) -> (u64, u64, bool, u64) {
    let s = r.virtual_clock(port).unwrap();
    (s.now(), s.aux(k), s.stamped(k), if s.stamped(k) { s.stamp(k) } else { 0 })
}

fn step_to(r: &mut Router, stim: &Stim, until: u64, log: &mut Vec<RouterOutputs>) {
    let mut inp = RouterInputs::idle(r.config());
    while r.cycle() < until {
        let t = r.cycle();
        inp.clear();
        for &(c, p, f) in &stim.flits {
            if c == t {
                inp.flits[p] = f;
            }
        }
        r.step(&inp);
        log.push(r.outputs().clone());
    }
}

/// Multiplexed, 4 ports, 2 VCs. A: input 0 VC 0 -> port 1, Vtick 5, flits in
/// 0, 1 (tail). B: input 1 VC 0 -> port 1, Vtick 7, flits in 0, 1 (tail).
/// A: RC 1, VA 2 (VC 0), present at A from 3. B: RC 1, VA 3 (VC 1; one VA
/// grant per output port per cycle), present from 4.
/// Cycle 3: port 0's now = 3, A0 stamped at first presence 3+5 = 8, wins B
///   (xb_ptr 0 -> 1): aux 8, not stamped.
/// Cycle 4: A1 s = max(4, 8)+5 = 13; B0 s = 4+7 = 11. Both at B, xb_ptr 1:
///   input 1 wins (-> 2). Port 0's grant did not take effect: stamp 13 kept
///   (stamped), aux 13. Port 1: aux 11.
/// Cycle 5: A1 keeps 13; B1 s = max(5, 11)+7 = 18. B from 2: input 0 wins,
///   a tail: aux stays 13 (it belongs to the VC), Vtick register cleared.
///   Port 1 keeps stamp 18.
/// Cycle 6: B1 (stamp 18) wins: tail, aux stays 18.
#[test]
fn virtualclock_stamps_at_first_presence_and_keeps_the_stamp_when_b_is_lost() {
    let cfg = inline(4, 2, "multiplexed", "virtualclock", "");
    let a = vmessage(&cfg, 0, 1, 2, 1, 5);
    let b = vmessage(&cfg, 0, 1, 2, 2, 7);
    let mut s = Stim::default();
    s.send(0, &a, &[0, 1]);
    s.send(1, &b, &[0, 1]);
    let mut r = Router::new(&cfg);
    let mut log = vec![r.outputs().clone()];
    step_to(&mut r, &s, 3, &mut log);
    assert_eq!(r.vtick_register(0, 0), 5);
    assert_eq!(r.vtick_register(1, 0), 7);
    assert_eq!(vclk(&r, 0, 0), (3, 0, false, 0));
    step_to(&mut r, &s, 4, &mut log);
    assert_eq!(vclk(&r, 0, 0), (4, 8, false, 0));
    assert_eq!(vclk(&r, 1, 0), (4, 0, false, 0));
    step_to(&mut r, &s, 5, &mut log);
    assert_eq!(vclk(&r, 0, 0), (5, 13, true, 13));
    assert_eq!(vclk(&r, 1, 0), (5, 11, false, 0));
    step_to(&mut r, &s, 6, &mut log);
    assert_eq!(vclk(&r, 0, 0), (6, 13, false, 0));
    assert_eq!(r.vtick_register(0, 0), 0);
    assert_eq!(vclk(&r, 1, 0), (6, 18, true, 18));
    step_to(&mut r, &s, 7, &mut log);
    assert_eq!(vclk(&r, 1, 0), (7, 18, false, 0));
    assert_eq!(r.vtick_register(1, 0), 0);
    step_to(&mut r, &s, 12, &mut log);
    // Moves 3 (A0), 4 (B0), 5 (A1), 6 (B1); RR at C: out 5, 6, 7, 8.
    assert_port(&log, 1, &[(5, on_vc(a[0], 0)), (6, on_vc(b[0], 1)), (7, on_vc(a[1], 0)), (8, on_vc(b[1], 1))]);
    assert_eq!(r.virtual_clock(0).unwrap().rebases(), 0);
}

/// Multiplexed, input 0. X: VC 1 -> port 2, Vtick 4, flits 0, 2, 4 (tail).
/// Y: VC 0 -> port 3, Vtick `vy`, flits 1, 3, 5 (tail). X present from 3,
/// Y from 4 (RC 2, VA 3).
/// Cycle 3: X0 s = 3+4 = 7, moves; aux(1) = 7.
/// Cycle 4: X1 s = max(4, 7)+4 = 11; Y0 s = 4+vy.
///   vy = 7: 11 vs 11, a tie: the lower index, Y (VC 0), moves. X stamped 11.
///     5: Y1 s = max(5, 11)+7 = 18 vs 11: X1 moves. 6: Y1 (18) vs X2 s =
///     max(6, 11)+4 = 15: X2 moves (tail). 7: Y1. 8: Y2 s = max(8, 18)+7 = 25.
///     Moves: 3 X, 4 Y, 5 X, 6 X, 7 Y, 8 Y.
///   vy = 8: 12 > 11: X1 moves. 5: Y0 (12) vs X2 s = max(5, 11)+4 = 15: Y0.
///     6: Y1 s = max(6, 12)+8 = 20 vs 15: X2 (tail). 7: Y1. 8: Y2.
///     Moves: 3 X, 4 X, 5 Y, 6 X, 7 Y, 8 Y.
/// in_credit of port 0 is the moved VC one cycle later.
#[test]
fn virtualclock_smallest_stamp_wins_ties_to_the_lowest_vc() {
    let cfg = inline(4, 2, "multiplexed", "virtualclock", "");
    // Final aux (persisting past the tails): vy = 7: Y 25, X 15; vy = 8: Y 28
    // (Y2 s = max(8, 20)+8), X 15 (X2 s = max(5, 11)+4).
    for (vy, moves, aux) in [(7u64, [1u32, 0, 1, 1, 0, 0], (25, 15)), (8, [1, 1, 0, 1, 0, 0], (28, 15))] {
        let x = vmessage(&cfg, 1, 2, 3, 1, 4);
        let y = vmessage(&cfg, 0, 3, 3, 2, vy);
        let mut s = Stim::default();
        s.send(0, &x, &[0, 2, 4]);
        s.send(0, &y, &[1, 3, 5]);
        let mut r = Router::new(&cfg);
        let log = run(&mut r, &s, 12);
        let credits: Vec<u32> = log.iter().map(|o| o.credits[0]).collect();
        let want: Vec<u32> = (0..=12).map(|t| if (4..10).contains(&t) { 1 << moves[t - 4] } else { 0 }).collect();
        assert_eq!(credits, want, "vy = {vy}");
        let sch = r.virtual_clock(0).unwrap();
        assert_eq!((sch.aux(0), sch.aux(1), sch.now()), (aux.0, aux.1, 12), "aux persists past the tails");
    }
}

/// Multiplexed, input 0. B: VC 0 -> port 2, Vtick `vb`, flits 0, 2, 4.
/// R: VC 1 -> port 3, Vtick 100, flits 1, 3, 5. B present from 3, R from 4.
/// vb = 0 or all ones (best effort): 3 B0 (only eligible); 4 R0 s = 104,
/// 5 R1 204, 6 R2 304 (real time first, although B1 is ready); 7 B1, 8 B2.
/// vb = 1 (real time): 3 B0 s = 4 (aux 4); 4 B1 s = max(4, 4)+1 = 5 < 104;
/// 5 B2 s = max(5, 5)+1 = 6 < 104; then 6, 7, 8 R.
#[test]
fn virtualclock_best_effort_only_when_no_real_time_is_eligible() {
    let cfg = inline(4, 2, "multiplexed", "virtualclock", "");
    for (vb, moves) in [(0u64, [0u32, 1, 1, 1, 0, 0]), (0xffff, [0, 1, 1, 1, 0, 0]), (1, [0, 0, 0, 1, 1, 1])] {
        let b = vmessage(&cfg, 0, 2, 3, 1, vb);
        let rt = vmessage(&cfg, 1, 3, 3, 2, 100);
        let mut s = Stim::default();
        s.send(0, &b, &[0, 2, 4]);
        s.send(0, &rt, &[1, 3, 5]);
        let mut r = Router::new(&cfg);
        let log = run(&mut r, &s, 12);
        let credits: Vec<u32> = log.iter().map(|o| o.credits[0]).collect();
        let want: Vec<u32> = (0..=12).map(|t| if (4..10).contains(&t) { 1 << moves[t - 4] } else { 0 }).collect();
        assert_eq!(credits, want, "vb = {vb}");
        let sch = r.virtual_clock(0).unwrap();
        // Best effort never touches aux; be_ptr is past the last BE grant.
        assert_eq!(sch.be_ptr(), if vb == 1 { 0 } else { 1 }, "vb = {vb}");
    }
}

/// Full crossbar, 4 ports, 2 VCs, point C at output 3. P: input 0 VC 0,
/// Vtick 6, flits 0, 1. Q: input 1 VC 0, Vtick 2, flits 0, 1. VA 2: P gets
/// output VC 0; VA 3: Q gets VC 1. ST: P 3, 4; Q 4, 5 (each flit carries its
/// input VC's Vtick). C: 4 P0 s = 4+6 = 10 (aux 10); 5 P1 s = max(5, 10)+6 =
/// 16 vs Q0 s = 5+2 = 7: Q0; 6 Q1 s = max(6, 7)+2 = 9 < 16: Q1 (tail); 7 P1.
/// Output: 5 P0, 6 Q0, 7 Q1, 8 P1 (round robin would give P0 Q0 P1 Q1).
#[test]
fn virtualclock_at_point_c_of_the_full_crossbar() {
    let cfg = inline(4, 2, "full", "virtualclock", "");
    let p = vmessage(&cfg, 0, 3, 2, 1, 6);
    let q = vmessage(&cfg, 0, 3, 2, 2, 2);
    let mut s = Stim::default();
    s.send(0, &p, &[0, 1]);
    s.send(1, &q, &[0, 1]);
    let mut r = Router::new(&cfg);
    let mut log = vec![r.outputs().clone()];
    step_to(&mut r, &s, 5, &mut log);
    assert_eq!(r.output_flit_vtick(3, 0, 0), Some(6));
    assert_eq!(r.output_flit_vtick(3, 1, 0), Some(2));
    assert_eq!(vclk(&r, 3, 0), (5, 10, false, 0));
    step_to(&mut r, &s, 6, &mut log);
    assert_eq!(vclk(&r, 3, 0), (6, 16, true, 16));
    assert_eq!(vclk(&r, 3, 1), (6, 7, false, 0));
    step_to(&mut r, &s, 12, &mut log);
    assert_port(&log, 3, &[(5, on_vc(p[0], 0)), (6, on_vc(q[0], 1)), (7, on_vc(q[1], 1)), (8, on_vc(p[1], 0))]);
    // aux persists past the tails: P's last stamp 16, Q's 9 (Q1 s = max(6, 7)+2).
    assert_eq!((vclk(&r, 3, 0).1, vclk(&r, 3, 1).1), (16, 9));
}

/// A flow for the router bandwidth experiments: on input `port`, VC `vc`,
/// messages of `len` flits, each flit tagged with `id` at bit 24; `period`
/// Some(v): one flit becomes available every v cycles (regulated), None:
/// backlogged.
struct Flow {
    port: usize,
    vc: usize,
    vtick: u64,
    period: Option<u64>,
    due: u64,
    sent: u64,
}

/// Drives `flows` into `dest` with credit-respecting sources (one flit per
/// input link per cycle, regulated flows first, then backlogged ones round
/// robin) and an always-draining sink on every output; returns each flow's
/// share of output `dest` over `cycles` cycles after a warm-up.
///
/// `blocker`: Some(port): that input port first takes every output VC of
/// `dest` with a message per VC (tag 15) whose tail it sends only in cycle
/// 100 + VC. Meanwhile the flows' input buffers fill up; without this, with
/// one input link feeding one output (both 1 flit/cycle), the buffers of a
/// multiplexed crossbar never fill and the link's order, not point A, would
/// decide the shares.
fn router_shares(cfg: &RouterConfig, flows: &mut [Flow], dest: u64, cycles: u64, blocker: Option<usize>) -> Vec<f64> {
    let (n, m) = (cfg.ports(), cfg.vcs());
    let len = 5000u64;
    let mut r = Router::new(cfg);
    let mut inp = RouterInputs::idle(cfg);
    let mut up = vec![cfg.input_buffer_depth() as u32; n * m];
    let mut rr = vec![0usize; n];
    let mut got = [0u64; 16];
    let warm = 2000;
    for t in 0..warm + cycles {
        let out = r.outputs().clone();
        for p in 0..n {
            for v in 0..m {
                up[p * m + v] += out.credits[p] >> v & 1;
            }
            let f = out.flits[p];
            inp.credits[p] = if f.valid { 1 << f.vc } else { 0 };
            if f.valid && p as u64 == dest && t >= warm {
                got[(f.data[0] >> 24 & 0xf) as usize] += 1;
            }
        }
        for fl in flows.iter_mut() {
            if let Some(v) = fl.period {
                fl.due += (t % v == 0) as u64;
            }
        }
        for p in 0..n {
            inp.flits[p] = LinkFlit::IDLE;
            let ok = |f: &Flow| f.port == p && up[p * m + f.vc] > 0;
            let pick = flows.iter().position(|f| ok(f) && f.period.is_some() && f.due > 0).or_else(|| {
                let k = flows.len();
                (0..k).map(|j| (rr[p] + j) % k).find(|&j| ok(&flows[j]) && flows[j].period.is_none())
            });
            if blocker == Some(p) {
                let t = t as usize;
                let b = if t < m { Some((t, true, false)) } else if (100..100 + m).contains(&t) { Some((t - 100, false, true)) } else { None };
                if let Some((v, head, tail)) = b {
                    inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: v as u8, head, tail, data: [15 << 24 | dest, 0, 0, 0] };
                }
                continue;
            }
            // With a blocker, the flows start once it holds every output VC.
            let Some(j) = pick.filter(|_| blocker.is_none() || t >= 10) else { continue };
            rr[p] = j + 1;
            let fl = &mut flows[j];
            fl.due = fl.due.saturating_sub(1);
            up[p * m + fl.vc] -= 1;
            let k = fl.sent % len;
            fl.sent += 1;
            let mut data = [(j as u64) << 24, 0, 0, 0];
            if k == 0 {
                data[0] |= dest;
                cfg.header().vtick.insert(&mut data, fl.vtick);
            }
            inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: fl.vc as u8, head: k == 0, tail: k + 1 == len, data };
        }
        r.step(&inp);
    }
    assert_eq!(r.stats().flits_dropped(), 0);
    let sch = r.virtual_clock(dest as usize).or(r.virtual_clock(flows[0].port)).unwrap();
    assert!(sch.rebases() >= 15 && sch.saturations() == 0, "{} rebases, {} saturations", sch.rebases(), sch.saturations());
    got[..flows.len()].iter().map(|&g| g as f64 / cycles as f64).collect()
}

fn assert_share(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= 0.02 * want, "{what}: share {got:.4}, expected {want:.4} ±2%");
}

/// (d) Through the router, mesh5-like (5 ports, 4 VCs, virtualclock):
/// multiplexed crossbar, flows on VCs 0..3 of input 0 to output 1 (point A);
/// full crossbar, flows from inputs 0..3 to output 4 (point C). Backlogged
/// flows with Σ 1/v = 1 share in proportion to 1/v; regulated real-time
/// flows (Σ 1/v < 1) plus a backlogged best-effort flow: each real-time flow
/// gets its rate, best effort the rest.
#[test]
fn virtualclock_bandwidth_shares_through_the_router() {
    for crossbar in ["multiplexed", "full"] {
        let cfg = inline(5, 4, crossbar, "virtualclock", "");
        let mux = crossbar == "multiplexed";
        let at = |j: usize| if mux { (0, j) } else { (j, 0) };
        let dest = if mux { 1 } else { 4 };
        let v = [2u64, 4, 6, 12];
        let mut flows: Vec<Flow> = (0..4)
            .map(|j| Flow { port: at(j).0, vc: at(j).1, vtick: v[j], period: None, due: 0, sent: 0 })
            .collect();
        let got = router_shares(&cfg, &mut flows, dest, 1_000_000, mux.then_some(2));
        eprintln!("{crossbar}: backlogged v={v:?}: shares {got:.4?}");
        for j in 0..4 {
            assert_share(got[j], 1.0 / v[j] as f64, &format!("{crossbar} v={}", v[j]));
        }

        let v = [3u64, 5, 7];
        let mut flows: Vec<Flow> = (0..4)
            .map(|j| {
                let (port, vc) = at(j);
                if j < 3 {
                    Flow { port, vc, vtick: v[j], period: Some(v[j]), due: 0, sent: 0 }
                } else {
                    Flow { port, vc, vtick: 0xffff, period: None, due: 0, sent: 0 }
                }
            })
            .collect();
        let got = router_shares(&cfg, &mut flows, dest, 1_000_000, None);
        eprintln!("{crossbar}: regulated v={v:?} + best effort: shares {got:.4?}");
        let sum: f64 = v.iter().map(|&x| 1.0 / x as f64).sum();
        for j in 0..3 {
            assert_share(got[j], 1.0 / v[j] as f64, &format!("{crossbar} v={}", v[j]));
        }
        assert_share(got[3], 1.0 - sum, &format!("{crossbar} best effort"));
    }
}

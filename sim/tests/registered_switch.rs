//! `router.switch_stage = "registered"` (docs/microarchitecture.md §6,
//! *Registered switch allocation*). Every expected cycle below is derived by
//! hand from the spec's rules (the derivation is in each comment), never by
//! running the model:
//! - stage RV (RC + VA) in cycle 1 for a header written at the end of cycle 0,
//!   SA in 2, ST in 3, point C in 4, on the output link in 5: zero-load
//!   latency 4 + M as with the single-cycle stage;
//! - SA counts the flit crossing now in `ib_count - pend` and `ob_count +
//!   pend`, so one VC streams every cycle with DO >= 3 but not with DO = 2;
//! - the credit leaves in the ST cycle;
//! - back-to-back messages on one input VC leave the same two idle cycles;
//! - SA never grants behind its own crossing tail;
//! - and, over long random runs of many configurations, the conservation
//!   and no-overflow rules the grant registers must keep.

mod common;

use common::{assert_port, message, run, stream, Stim};
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs, VcState};

const REGISTERED: &str = "switch_stage = \"registered\"\n";
const SPLIT: &str = "switch_stage = \"split\"\n";

/// A 5-port, 4-VC multiplexed router, round robin, registered switch stage.
fn router(di: u32, dout: u32, extra: &str) -> RouterConfig {
    let text = format!(
        "name = \"r\"\n[router]\nports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = {di}\n\
         output_buffer_depth = {dout}\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n{REGISTERED}{extra}"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

/// Header on input 1 VC 2 in cycle 0, written at its end; RV in 1 (RC and
/// VA together: output VC 0, the lowest free); SA in 2; ST in 3; C in 4;
/// out in 5. Flit k arrives in cycle k and, one behind the previous one in
/// every stage, is out in 5 + k (SA in 2 + k: flit k is in the buffer
/// behind flit k-1, which crosses then; the output VC holds at most flit
/// k-2, so `ob_count + pend` <= 2 < DO = 8). Tail of an M-flit message:
/// 4 + M. DD = DI = 8 credits cover 8 flits without a return.
#[test]
fn zero_load_latency_is_4_plus_m() {
    for len in [1usize, 2, 8] {
        let mut r = Router::new(&router(8, 8, ""));
        let msg = message(2, 3, len, 7);
        let mut s = Stim::default();
        s.send(1, &msg, 0..len as u64);
        let log = run(&mut r, &s, 20 + len as u64);
        let want: Vec<_> = (0..len).map(|k| (5 + k as u64, msg[k], 0)).collect();
        assert_eq!(want.last().unwrap().0, 4 + len as u64);
        assert_port(&log, 3, &want);
        for o in [0, 1, 2, 4] {
            assert_port(&log, o, &[]);
        }
        assert_eq!(r.stats().flits_forwarded, len as u64);
        assert!(r.is_quiescent() || r.credits(3, 0) == 8 - len);
        assert_eq!(r.buffered_flits(), 0);
    }
}

/// The stage in which each step happens, for a one-flit message on input 0
/// VC 1 to port 4 in cycle 0: after cycle 1 (RV) the VC is ACTIVE with
/// output VC 0 (it was never left ROUTED); after cycle 2 (SA) the grant
/// register holds VC 1 and the tail bit, the flit still in the input
/// buffer; after cycle 3 (ST) the flit is in output VC buffer (4, 0), the
/// input VC IDLE and the output VC free.
#[test]
fn rc_and_va_share_a_cycle_and_the_grant_is_registered() {
    let mut r = Router::new(&router(8, 8, ""));
    let mut inp = RouterInputs::idle(r.config());
    inp.flits[0] = message(1, 4, 1, 1)[0];
    r.step(&inp);
    inp.clear();
    assert_eq!(r.vc_state(0, 1), VcState::Idle);
    r.step(&inp);
    assert_eq!(r.vc_state(0, 1), VcState::Active { route: 4, ovc: 0 });
    assert!(r.allocated(4, 0));
    assert_eq!(r.switch_grant(0), None);
    r.step(&inp);
    assert_eq!(r.switch_grant(0), Some((1, true)));
    assert_eq!(r.input_occupancy(0, 1), 1);
    assert_eq!(r.output_occupancy(4, 0), 0);
    assert_eq!(r.outputs().credits[0], 1 << 1, "the credit leaves in the ST cycle");
    r.step(&inp);
    assert_eq!(r.switch_grant(0), None);
    assert_eq!(r.input_occupancy(0, 1), 0);
    assert_eq!(r.output_occupancy(4, 0), 1);
    assert_eq!(r.vc_state(0, 1), VcState::Idle);
    assert!(!r.allocated(4, 0));
}

/// One VC streaming 30 flits (one per cycle from cycle 0) from input 0 to
/// port 4; the sink returns each credit in the cycle the flit is on the
/// link. A flit granted by SA in cycle t is counted by SA in t+1 (`pend`)
/// and in t+2 (in the output VC buffer from the start of t+2 until point C
/// pops it at the end of t+2), so SA sees the flits granted in the two
/// previous cycles.
/// - DO = 3: at most 2 < 3, SA grants every cycle: flit k out in 5 + k.
/// - DO = 2: SA grants in cycle t+1 only if it did not grant in both t and
///   t-1: grants in 2, 3, then 5, 6, then 8, 9, ...: flit k is granted in
///   2 + k + floor(k/2) and out 3 cycles later, two flits every three
///   cycles. (The spec's sentence "with DO = 2 a single stream gets every
///   other cycle" does not follow from its readiness rule; this test holds
///   the rule.)
///
/// Input side: flit k arrives in k and is granted no earlier than 2 + k, so
/// DI = 8 (and the 30-flit stream at one flit per cycle against at most
/// 2/3 service) needs the sender to respect credits; the sender here sends
/// flit k in cycle k only while that fits (checked: no drop).
#[test]
fn one_vc_streams_every_cycle_with_do_3_and_two_in_three_with_do_2() {
    for (dout, len) in [(3u32, 30usize), (2, 24)] {
        let out_cycles = stream(&router(8, dout, "downstream_buffer_depth = 8\n"), len, 8, 1);
        let want: Vec<u64> = if dout == 3 {
            (0..len as u64).map(|k| 5 + k).collect()
        } else {
            (0..len as u64).map(|k| 5 + k + k / 2).collect()
        };
        assert_eq!(out_cycles, want, "DO = {dout}");
    }
}

/// 3-flit message on input 2 VC 3 (cycles 0, 1, 2) to port 0: SA in 2, 3, 4
/// (flit k in the buffer from k+1), ST in 3, 4, 5, and the `in_credit`
/// register, written at the end of the SA cycle, is 1 in 3, 4, 5: the ST
/// cycles. Bit 3 of port 2 only; 0 everywhere else.
#[test]
fn the_credit_leaves_in_the_st_cycle() {
    let mut r = Router::new(&router(8, 8, ""));
    let mut s = Stim::default();
    s.send(2, &message(3, 0, 3, 5), 0..3);
    let log = run(&mut r, &s, 12);
    for (t, out) in log.iter().enumerate() {
        for p in 0..5 {
            let want = if p == 2 && (3..=5).contains(&t) { 1 << 3 } else { 0 };
            assert_eq!(out.credits[p], want, "in_credit of port {p} in cycle {t}");
        }
    }
}

/// Back-to-back messages on input 0 VC 0 to port 2.
/// One-flit A (cycle 0) and B (cycle 1): A RV 1, SA 2, ST 3 (the VC IDLE and
/// output VC 0 free at the end of 3), out 5. B's header is in the buffer
/// from cycle 2 but its VC is A's until A's tail crosses: RV 4 (output VC
/// 0 again), SA 5, ST 6, C 7, out 8: cycles 6 and 7 of the link idle.
/// Two-flit A (0, 1) and B (2, 3): A SA 2, 3, ST 3, 4, out 5, 6; B RV 5,
/// SA 6, 7, ST 7, 8, out 9, 10 (idle 7, 8).
#[test]
fn back_to_back_messages_leave_two_idle_cycles() {
    let mut r = Router::new(&router(8, 8, ""));
    let (a, b) = (message(0, 2, 1, 1), message(0, 2, 1, 2));
    let mut s = Stim::default();
    s.send(0, &a, [0]);
    s.send(0, &b, [1]);
    let log = run(&mut r, &s, 15);
    assert_port(&log, 2, &[(5, a[0], 0), (8, b[0], 0)]);

    let mut r = Router::new(&router(8, 8, ""));
    let (a, b) = (message(0, 2, 2, 1), message(0, 2, 2, 2));
    let mut s = Stim::default();
    s.send(0, &a, [0, 1]);
    s.send(0, &b, [2, 3]);
    let log = run(&mut r, &s, 15);
    assert_port(&log, 2, &[(5, a[0], 0), (6, a[1], 0), (9, b[0], 0), (10, b[1], 0)]);
}

/// One-flit A to port 2 and B to port 3, back to back on input 0 VC 0
/// (cycles 0, 1). A is granted in SA 2 and crosses in 3. In cycle 3 the VC
/// is still ACTIVE with B's header behind the crossing tail, with room in
/// output VC (2, 0): only the rule "not (pend and sg_tail)" keeps SA from
/// granting B's header into A's output VC. So no grant is registered for
/// input 0 at the start of 4; B does RV in 4 (route 3), SA 5, ST 6, out 8
/// on port 3, output VC 0; port 2 carries only A.
#[test]
fn never_granted_behind_its_own_crossing_tail() {
    let mut r = Router::new(&router(8, 8, ""));
    let (a, b) = (message(0, 2, 1, 1), message(0, 3, 1, 2));
    let mut s = Stim::default();
    s.send(0, &a, [0]);
    s.send(0, &b, [1]);
    let mut inp = RouterInputs::idle(r.config());
    let mut log = vec![r.outputs().clone()];
    for t in 0..12 {
        inp.clear();
        if let Some(&(_, p, f)) = s.flits.iter().find(|x| x.0 == t) {
            inp.flits[p] = f;
        }
        r.step(&inp);
        log.push(r.outputs().clone());
        match t + 1 {
            3 => assert_eq!(r.switch_grant(0), Some((0, true)), "A granted in SA 2"),
            4 => assert_eq!(r.switch_grant(0), None, "nothing granted behind A's crossing tail"),
            6 => assert_eq!(r.switch_grant(0), Some((0, true)), "B granted in SA 5"),
            _ => {}
        }
    }
    assert_port(&log, 2, &[(5, a[0], 0)]);
    assert_port(&log, 3, &[(8, b[0], 0)]);
}

/// §8.2 with the registered stage: a slot is *present* at A iff it is
/// ACTIVE, not behind its crossing tail, and `ib_count - pend > 0`. One
/// 3-flit real-time message (Vtick 5) on input 0 VC 0 to port 1, header in
/// cycle 0, body in 1, tail in 20; VirtualClock, C = 16, `now` = t at the
/// start of cycle t (no rebase this early).
/// - SA 2: the header is present, s = max(now 2, aux 0) + 5 = 7, granted
///   (ready): `aux := 7`, not stamped.
/// - SA 3: the header crosses (pend, not a tail), the body remains
///   (2 - 1 > 0): present, s = max(3, 7) + 5 = 12, granted: `aux := 12`.
/// - SA 4: the body crosses and nothing remains (1 - 1 = 0): not present,
///   so not stamped: `aux` stays 12, `stamped` 0 (a model that counted the
///   crossing flit would stamp max(4, 12) + 5 = 17 here and keep it).
/// - SA 21 (the tail written at the end of 20): s = max(21, 12) + 5 = 26.
#[test]
fn virtualclock_presence_excludes_the_crossing_flit() {
    let text = "name = \"v\"\n[router]\nports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 8\n\
                output_buffer_depth = 8\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n";
    let cfg = RouterConfig::from_toml_str(&format!("{text}{REGISTERED}"), "inline").unwrap();
    let h = cfg.header();
    let mut head = [0u64; 4];
    h.dest.insert(&mut head, 1);
    h.vtick.insert(&mut head, 5);
    let flit = |head_bit: bool, tail: bool, data: [u64; 4]| LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head: head_bit, tail, data };
    let mut r = Router::new(&cfg);
    let mut inp = RouterInputs::idle(&cfg);
    let mut seen = vec![];
    for t in 0..22u64 {
        inp.clear();
        inp.flits[0] = match t {
            0 => flit(true, false, head),
            1 => flit(false, false, [0xb0d7, 0, 0, 0]),
            20 => flit(false, true, [0x7a11, 0, 0, 0]),
            _ => LinkFlit::IDLE,
        };
        r.step(&inp);
        let s = r.virtual_clock(0).unwrap();
        seen.push((t + 1, s.aux(0), s.stamped(0)));
    }
    let at = |c: u64| seen.iter().find(|x| x.0 == c).map(|x| (x.1, x.2)).unwrap();
    assert_eq!(at(3), (7, false), "after SA 2");
    assert_eq!(at(4), (12, false), "after SA 3");
    assert_eq!(at(5), (12, false), "after SA 4: the crossing body is not present");
    assert_eq!(at(21), (12, false), "nothing present until the tail");
    assert_eq!(at(22), (26, false), "after SA 21");
    assert_eq!(r.stats().crossbar_moves, 2, "the tail crosses in 22");
}

// ------------------------------------------------------------ random runs

/// xorshift64.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// The `[router]` bodies of the configurations the invariants run on
/// (each with the registered stage added, and those with the single-pass
/// allocator also with the split stage, §6 *Split switch allocation*).
fn random_run_configs() -> Vec<(String, RouterConfig)> {
    let base = "ports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 5\noutput_buffer_depth = 3\n\
                crossbar = \"multiplexed\"\n";
    let mut bodies: Vec<(String, String)> = vec![
        ("rr".into(), format!("{base}scheduler = \"round_robin\"\n")),
        ("fifo".into(), format!("{base}scheduler = \"fifo\"\n")),
        ("virtualclock".into(), format!("{base}scheduler = \"virtualclock\"\nvtick_width = 8\nclock_width = 8\n")),
        ("rr DO=2".into(), format!("{base}scheduler = \"round_robin\"\n").replace("output_buffer_depth = 3", "output_buffer_depth = 2")),
        ("fifo b=4".into(), format!("{base}scheduler = \"fifo\"\nblock_size = 4\n")),
        ("virtualclock b=3".into(), format!("{base}scheduler = \"virtualclock\"\nblock_size = 3\n")),
        ("TR".into(), format!("{base}scheduler = \"fifo\"\nmode = \"traditional\"\nvc_ratio = [2, 1, 1]\n")),
        ("NP".into(), format!("{base}scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [2, 1, 1]\n")),
        ("NP b=2".into(), format!("{base}scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [2, 1, 1]\nblock_size = 2\n")),
    ];
    for k in 1..=3 {
        for (name, order) in [("rr", "round_robin"), ("fifo", "fifo"), ("virtualclock", "virtualclock")] {
            bodies.push((
                format!("{name} iterative k={k}"),
                format!("{base}scheduler = \"{order}\"\nswitch_allocator = \"iterative\"\nswitch_iterations = {k}\n"),
            ));
        }
    }
    bodies.push((
        "NP iterative k=3 b=2".into(),
        format!(
            "{base}scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [2, 1, 1]\nblock_size = 2\n\
             switch_allocator = \"iterative\"\nswitch_iterations = 3\n"
        ),
    ));
    bodies.push((
        "route_vcs".into(),
        format!(
            "{base}scheduler = \"round_robin\"\n[topology]\nkind = \"single_switch\"\nroute_vcs = [3, 12, 1, 15, 6]\n"
        ),
    ));
    let mut out = vec![];
    for stage in [REGISTERED, SPLIT] {
        for (name, body) in &bodies {
            if stage == SPLIT && body.contains("iterative") {
                continue;
            }
            let text = format!("name = \"rnd\"\n[router]\n{stage}{body}");
            let cfg = RouterConfig::from_toml_str(&text, "inline").unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((format!("{name} {stage}"), cfg));
        }
        for name in ["mediaworm8", "mw8_tr", "mw8_np", "mw8_np_iterative", "qos8", "torus4_r14"] {
            if stage == SPLIT && name.contains("iterative") {
                continue;
            }
            let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap().replacen("[router]\n", &format!("[router]\n{stage}"), 1);
            let cfg = RouterConfig::from_toml_str(&text, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((format!("{name} {stage}"), cfg));
        }
    }
    out
}

/// Credit-respecting random traffic: per input port, messages of 1..=12
/// flits on random VCs (one open message per VC, interleaved across VCs),
/// random destinations, classes and Vticks (so every partition class and
/// both real-time and best-effort flits occur), sent only with a credit
/// (credits counted from the router's `in_credit`, usable from the next
/// cycle); sinks return every credit, late at random and sometimes after a
/// long stall.
///
/// Checked every cycle, from the spec:
/// - no flit is ever dropped (a credit is returned only when its flit has
///   left the input buffer);
/// - flits accepted = flits crossed + flits in input buffers; flits crossed
///   = flits forwarded + flits in output buffers; credits returned =
///   flits crossed + grants registered (each grant returns its credit in
///   the ST cycle, i.e. one cycle before its flit has crossed at a cycle's end);
/// - every registered grant (p, v) at the start of a cycle: `in_credit` bit
///   (p, v) is 1 in that cycle; (p, v) is ACTIVE, holds a flit, and its
///   output VC buffer has room for it; no two grants share an output port;
/// - a grant whose flit is a tail is not followed by a grant of the same VC
///   (nothing is granted behind a crossing tail);
/// - (split stage) every candidate (p, v) at the start of a cycle: (p, v)
///   is ACTIVE, holds its flit besides the one crossing (`ib_count >= 1 +
///   sgp`), its output VC buffer has room for both (`ob_count + sgp + 1 <=
///   DO`, §6 *Split switch allocation*: A counted them and only this VC
///   writes that buffer), and if the grant is a tail of the same VC, there
///   is no candidate on it;
/// - occupancies within DI and DO, credits within DD.
#[test]
fn random_runs_keep_conservation_and_never_overflow() {
    for (name, cfg) in random_run_configs() {
        let (n, m) = (cfg.ports(), cfg.vcs());
        let h = cfg.header();
        let di = cfg.input_buffer_depth();
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut x = 0x5eed_0000_0000_0001u64 ^ (name.len() as u64) << 32;
        let mut credits = vec![di; n * m];
        let mut left = vec![0usize; n * m];
        let mut owed = vec![0usize; n * m];
        let mut credit_pulses = 0u64;
        let mut grants_prev: Vec<Option<(usize, bool)>> = vec![None; n];
        let mut tail_grants = 0u64;
        let mut candidates = 0u64;
        for t in 0..20_000u64 {
            let out = r.outputs().clone();
            // Start-of-cycle checks of the grant registers.
            let mut outs_used = 0u32;
            for p in 0..n {
                let g = r.switch_grant(p);
                let credit_bits = out.credits[p];
                match g {
                    Some((v, tail)) => {
                        assert_eq!(credit_bits, 1 << v, "{name} cycle {t}: credit of the grant of port {p}");
                        let VcState::Active { route, ovc } = r.vc_state(p, v) else {
                            panic!("{name} cycle {t}: granted VC ({p}, {v}) not ACTIVE")
                        };
                        assert!(r.input_occupancy(p, v) >= 1, "{name} cycle {t}: grant of an empty VC");
                        assert!(r.output_occupancy(route, ovc) < cfg.output_buffer_depth(), "{name} cycle {t}: no room");
                        assert_eq!(outs_used >> route & 1, 0, "{name} cycle {t}: two grants into output {route}");
                        outs_used |= 1 << route;
                        assert_eq!(r.input_flit(p, v, 0).unwrap().tail, tail);
                        if let Some((pv, true)) = grants_prev[p] {
                            assert_ne!(pv, v, "{name} cycle {t}: VC ({p}, {v}) granted behind its crossing tail");
                        }
                        tail_grants += tail as u64;
                    }
                    None => assert_eq!(credit_bits, 0, "{name} cycle {t}: a credit without a grant at port {p}"),
                }
                grants_prev[p] = g;
                if let Some((v, _)) = r.switch_candidate(p) {
                    let VcState::Active { route, ovc } = r.vc_state(p, v) else {
                        panic!("{name} cycle {t}: candidate VC ({p}, {v}) not ACTIVE")
                    };
                    let sgp = g.is_some_and(|(gv, _)| gv == v) as usize;
                    assert!(g != Some((v, true)), "{name} cycle {t}: candidate behind a crossing tail at ({p}, {v})");
                    assert!(r.input_occupancy(p, v) >= 1 + sgp, "{name} cycle {t}: candidate without a flit at ({p}, {v})");
                    assert!(r.output_occupancy(route, ovc) + sgp < cfg.output_buffer_depth() as usize, "{name} cycle {t}: no room for the candidate");
                    candidates += 1;
                }
            }
            credit_pulses += out.credits.iter().map(|c| c.count_ones() as u64).sum::<u64>();
            let s = *r.stats();
            let ib: u64 = (0..n).flat_map(|p| (0..m).map(move |v| (p, v))).map(|(p, v)| r.input_occupancy(p, v) as u64).sum();
            let ob = r.buffered_flits() as u64 - ib;
            let pending = (0..n).filter(|&p| r.switch_grant(p).is_some()).count() as u64;
            assert_eq!(s.flits_dropped(), 0, "{name} cycle {t}");
            assert_eq!(s.flits_accepted, s.crossbar_moves + ib, "{name} cycle {t}");
            assert_eq!(s.crossbar_moves, s.flits_forwarded + ob, "{name} cycle {t}");
            assert_eq!(credit_pulses, s.crossbar_moves + pending, "{name} cycle {t}");
            for o in 0..n {
                for u in 0..m {
                    assert!(r.output_occupancy(o, u) <= cfg.output_buffer_depth());
                    assert!(r.input_occupancy(o, u) <= di);
                    assert!(r.credits(o, u) <= cfg.downstream_buffer_depth());
                }
            }
            // Inputs of cycle t.
            inp.clear();
            let stall = (t / 500) % 5 == 4;
            for p in 0..n {
                let y = next(&mut x);
                if !y.is_multiple_of(4) {
                    let v = (y >> 8) as usize % m;
                    let i = p * m + v;
                    if credits[i] > 0 {
                        credits[i] -= 1;
                        let head = left[i] == 0;
                        if head {
                            left[i] = 1 + (y >> 12) as usize % 12;
                        }
                        left[i] -= 1;
                        let mut data = [next(&mut x), 0, 0, 0];
                        if head {
                            h.dest.insert(&mut data, (y >> 20) % cfg.endpoints() as u64);
                            h.class.insert(&mut data, (y >> 24) % 4);
                            let vt = if y >> 28 & 3 == 0 { (1 << h.vtick.width) - 1 } else { 1 + (y >> 32) % 20 };
                            h.vtick.insert(&mut data, vt);
                        }
                        inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: v as u8, head, tail: left[i] == 0, data };
                    }
                }
                // A credit on `in_credit` in cycle t is counted at its end
                // and used from t+1 (§7's credit loop).
                for v in 0..m {
                    credits[p * m + v] += (out.credits[p] >> v & 1) as usize;
                }
                // The sink of output p owes a credit per flit received and
                // returns them late at random (at most one per VC and cycle).
                if out.flits[p].valid {
                    owed[p * m + out.flits[p].vc as usize] += 1;
                }
                if !stall {
                    let z = next(&mut x);
                    for u in 0..m {
                        if owed[p * m + u] > 0 && z >> u & 3 != 0 {
                            owed[p * m + u] -= 1;
                            inp.credits[p] |= 1 << u;
                        }
                    }
                }
            }
            r.step(&inp);
        }
        let s = r.stats();
        assert!(s.tails_forwarded > 500 && tail_grants > 500, "{name}: {s:?}");
        assert_eq!(candidates > 0, name.ends_with(SPLIT), "{name}: candidates seen");
        eprintln!("{name}: {} flits, {} messages forwarded", s.flits_forwarded, s.tails_forwarded);
    }
}

/// §6: "with k = 1 and `fifo` or `round_robin` the iterative allocator
/// grants exactly as the single pass"; the switch stage does not change the
/// allocation's rules, so with the registered stage too every output of
/// every cycle is the same under the same random traffic.
#[test]
fn registered_iterative_k1_grants_as_the_registered_single_pass() {
    for order in ["round_robin", "fifo"] {
        for extra in ["", "block_size = 3\n"] {
            let body = format!(
                "ports = 6\nvcs = 3\nflit_width = 32\ninput_buffer_depth = 6\noutput_buffer_depth = 3\n\
                 crossbar = \"multiplexed\"\nscheduler = \"{order}\"\n{REGISTERED}{extra}"
            );
            let single = RouterConfig::from_toml_str(&format!("name = \"a\"\n[router]\n{body}"), "a").unwrap();
            let k1 = RouterConfig::from_toml_str(
                &format!("name = \"a\"\n[router]\n{body}switch_allocator = \"iterative\"\nswitch_iterations = 1\n"),
                "b",
            )
            .unwrap();
            let (mut a, mut b) = (Router::new(&single), Router::new(&k1));
            let mut inp = RouterInputs::idle(&single);
            let mut x = 0x1234_5678_9abc_def1u64;
            for t in 0..5000u64 {
                for p in 0..6 {
                    let y = next(&mut x);
                    inp.flits[p] = if y % 3 != 0 {
                        LinkFlit { lane: 0, valid: true, dummy: false, vc: (y >> 8) as u8 % 3, head: y >> 16 & 3 == 0, tail: y >> 18 & 3 == 0, data: [y >> 20, 0, 0, 0] }
                    } else {
                        LinkFlit::IDLE
                    };
                    inp.credits[p] = (next(&mut x) & 7) as u32;
                }
                a.step(&inp);
                b.step(&inp);
                assert_eq!(a.outputs(), b.outputs(), "{order} {extra} cycle {t}");
            }
            assert!(a.stats().crossbar_moves > 2000, "{:?}", a.stats());
        }
    }
}

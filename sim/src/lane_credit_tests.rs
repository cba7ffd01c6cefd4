//! Per-lane credits for the preemption lanes (`router.preemption_credits =
//! "per_lane"`, docs/microarchitecture.md §9.4 *Credits*), cycle by cycle.
//! Expected values are derived by hand from the spec (comments), never
//! copied from the model's output.

use crate::endpoint::Tags;
use crate::lane_credits::LaneSender;
use crate::link::{credit_lane, credit_lane_word};
use crate::{LinkFlit, Router, RouterInputs};
use wormqos_config::RouterConfig;

/// 3 ports, 1 VC, s = 3 (lanes 0..2), multiplexed, VirtualClock, DI = 4,
/// DO = 2, DD = 64; `credits` = "per_vc" or "per_lane".
fn router(credits: &str) -> RouterConfig {
    let text = format!(
        "name = \"lane\"\n[router]\nports = 3\nvcs = 1\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ndownstream_buffer_depth = 64\ncrossbar = \"multiplexed\"\n\
         scheduler = \"virtualclock\"\nclock_width = 8\nvtick_width = 8\nmode = \"preemptive\"\n\
         preemption_credits = \"{credits}\"\n"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

/// Clears `inp` and, as every output's sink, returns the credit (with its
/// lane) of each flit the router drives this cycle.
fn next_inputs(r: &Router, inp: &mut RouterInputs) {
    inp.clear();
    for (o, f) in r.outputs().flits.iter().enumerate() {
        if f.valid {
            inp.credits[o] |= 1 << f.vc;
            inp.credit_lanes[o] |= credit_lane_word(f.vc as usize, f.lane as usize);
        }
    }
}

/// What one run shows: per cycle, the flit the source put on input port 0
/// and the router's outputs; and the source's lane credits at cycle 15.
struct Run {
    sent: Vec<LinkFlit>,
    out: Vec<crate::RouterOutputs>,
    lanes_at_15: [u16; 3],
    tx_idle_at_end: bool,
}

/// Input port 2: B (class 0, to port 1) sends its header in cycle 0 and its
/// tail in cycle 20, holding output VC (1, 0) in between. Input port 0: a
/// source with one VC obeying its credits (per VC: DI; per lane: a
/// [`LaneSender`]) sends, from cycle 1, A (class 0, 4 flits, to port 1) and
/// then C (class 2, 2 flits, to port 2). Every output's sink returns each
/// flit's credit in the cycle the flit is on the link (with its lane).
/// A credit the router returns during cycle t counts at the source from t+1.
fn run(credits: &str, cycles: usize) -> Run {
    run_on(&router(credits), cycles)
}

/// [`run`] on a given router (one of [`router`]'s, possibly with its switch
/// stage changed).
fn run_on(cfg: &RouterConfig, cycles: usize) -> Run {
    let per_lane = cfg.per_lane_credits();
    let tags = Tags::new(cfg).unwrap();
    let b = tags.message(0, 1, 0, 5, 0xb, 2, |k| k as u64);
    let a = tags.message(0, 1, 0, 5, 0xa, 4, |k| k as u64);
    let c = tags.message(0, 2, 2, 3, 0xc, 2, |k| k as u64);
    let queue: Vec<(LinkFlit, u8)> = a.iter().map(|&f| (f, 0)).chain(c.iter().map(|&f| (f, 2))).collect();
    let mut next = 0;
    let mut vc_credits = 4u32;
    let mut lanes = LaneSender::new(4, 3);
    let mut r = Router::new(cfg);
    let mut inp = RouterInputs::idle(cfg);
    let (mut sent, mut out, mut lanes_at_15) = (Vec::new(), Vec::new(), [0; 3]);
    for t in 0..cycles {
        next_inputs(&r, &mut inp);
        match t {
            0 => inp.flits[2] = b[0],
            20 => inp.flits[2] = b[1],
            _ => {}
        }
        if t >= 1 && next < queue.len() {
            let (mut f, class) = queue[next];
            let ok = if per_lane {
                let pick = lanes.pick(f.head, class);
                let ok = lanes.credits(pick.lane) > 0;
                if ok {
                    lanes.send(pick, f.head, class);
                    f.lane = pick.lane;
                }
                ok
            } else {
                let ok = vc_credits > 0;
                vc_credits -= ok as u32;
                ok
            };
            if ok {
                inp.flits[0] = f;
                next += 1;
            }
        }
        sent.push(inp.flits[0]);
        let back = r.outputs().credits[0] & 1 == 1;
        let back_lane = credit_lane(r.outputs().credit_lanes[0], 0);
        r.step(&inp);
        out.push(r.outputs().clone());
        if back {
            vc_credits += 1;
            lanes.credit(back_lane);
        }
        if t == 15 {
            lanes_at_15 = [0, 1, 2].map(|l| lanes.credits(l));
        }
    }
    let tx_idle_at_end = (0..3).all(|o| r.lane_sender(o, 0).map_or(true, LaneSender::is_idle));
    Run { sent, out, lanes_at_15, tx_idle_at_end }
}

/// The cycles in which output port `o` carries a flit of message `id`'s
/// header or tail (outputs of cycle t are in `out[t - 1]`: `out[k]` holds the
/// registers after step k, i.e. during cycle k + 1).
fn on_port(run: &Run, o: usize, f: &LinkFlit) -> Option<usize> {
    run.out.iter().position(|x| x.flits[o].valid && x.flits[o].data == f.data && x.flits[o].head == f.head).map(|k| k + 1)
}

/// A control header behind a regular lane full of best effort.
///
/// Both runs: B.h (port 2) written end c0, RC c1, VA c2 takes (1, 0), so A
/// (A.h c1, RC c2) requests VA from c3 and never gets it while B holds
/// (1, 0): A's 4 flits (sent c1..c4) fill lane 0 (DI = 4).
///
/// Per lane: the source's lane 0 is busy (lcr 0) with class 0; C.h (class
/// 2) opens lane 1 (stop 0, lcls[0] = 0 < 2) and goes in c5, C.t in c6.
/// End c5: top := 1 (VA request withdrawn). c6: sl 0 < top, A ROUTED ->
/// step (c), sl := 1. c7 RC C, c8 VA (2, 0), c9 ST C.h (credit of lane 1
/// during c10), c10 C picks C.h (on port 2 during c11) and ST C.t (credit
/// during c11), c11 C picks C.t (c12). At c15 the source holds lane 0: 0
/// credits (A still stuck), lane 1: 4 (both back), lane 2: 4.
///
/// Per VC: after A.t (c4) the source has no credit and A cannot move
/// until B's tail: B.t written end c20, crosses c21 (frees (1, 0)), VA
/// gives A (1, 0) in c22, A.h crosses c23 (credit during c24, counted from
/// c25): C.h goes in c25, C.t in c26 (A.b1's credit). C.h opens lane 1
/// (lmax[0] = 0 < 2, the VC not idle), top 1 at end c25. c26: sl 0 < top,
/// A ACTIVE and sent -> dummy tail (ob[1][0] holds A.b2 only: 1 < DO),
/// sl := 1. c27 RC C, c28 VA (2, 0), c29 ST C.h, c30 ST C.t and C picks
/// C.h (port 2 during c31), C.t during c32.
#[test]
fn control_header_enters_the_extra_lane_of_a_full_vc() {
    let cfg = router("per_lane");
    let tags = Tags::new(&cfg).unwrap();
    let c = tags.message(0, 2, 2, 3, 0xc, 2, |k| k as u64);
    let lane = run("per_lane", 50);
    let vc = run("per_vc", 50);
    let sent_at = |r: &Run, f: &LinkFlit| r.sent.iter().position(|x| x.valid && x.data == f.data && x.head == f.head);
    assert_eq!((sent_at(&lane, &c[0]), sent_at(&lane, &c[1])), (Some(5), Some(6)), "per lane: C sent");
    assert_eq!((sent_at(&vc, &c[0]), sent_at(&vc, &c[1])), (Some(25), Some(26)), "per VC: C sent");
    assert_eq!(lane.sent[5].lane, 1, "C.h names lane 1");
    assert_eq!(lane.sent[6].lane, 1, "C.t follows its header's lane");
    assert!(lane.sent[1..5].iter().all(|f| f.valid && f.lane == 0), "A into lane 0");
    assert_eq!((on_port(&lane, 2, &c[0]), on_port(&lane, 2, &c[1])), (Some(11), Some(12)), "per lane: C leaves");
    assert_eq!((on_port(&vc, 2, &c[0]), on_port(&vc, 2, &c[1])), (Some(31), Some(32)), "per VC: C leaves");
    // The credits C frees return with lane 1, during c10 and c11.
    let lane_credit = |t: usize| (lane.out[t - 1].credits[0] & 1 == 1).then(|| credit_lane(lane.out[t - 1].credit_lanes[0], 0));
    assert_eq!((lane_credit(10), lane_credit(11)), (Some(1), Some(1)));
    assert_eq!(lane.lanes_at_15, [0, 4, 4], "source lane credits at c15");
    // The per-VC router returns no lane.
    assert!(vc.out.iter().all(|o| o.credit_lanes.iter().all(|&w| w == 0)));
    // The router's own output VCs: C went to port 2's sink in lane 0 (nothing
    // busy there), and every lane credit came back from the sinks.
    assert_eq!(lane.out[10].flits[2].lane, 0);
    assert!(lane.tx_idle_at_end);
    // Every flit of A, B and C arrives in both runs (A resumed after C).
    for r in [&lane, &vc] {
        let flits: usize = r.out.iter().map(|o| o.flits.iter().filter(|f| f.valid && !f.dummy).count()).sum();
        assert_eq!(flits, 2 + 4 + 2);
    }
}

/// The same per-lane run with `switch_stage = "registered"` (§6
/// *Registered switch allocation in P mode*): the credit of a granted lane
/// flit carries the lane `sl` of the SA cycle and is on `in_credit` in the
/// ST cycle (loaded at the end of the SA cycle).
///
/// As above up to c6: B.h written end c0, RV (RC and VA) c1 takes (1, 0);
/// A.h written end c1, RV c2 requests (1, 0) and never gets it; A's 4 flits
/// fill lane 0 (c1..c4). C.h names lane 1 (c5), C.t (c6); end c5 top := 1.
/// c6: sl 0 < top, A ROUTED, no grant pending -> step (c), sl := 1.
/// c7: RV of C (RC from lane 1's front, VA takes (2, 0)). c8: SA grants
/// C.h (lane flit at position 0 of lane sl = 1): its credit, lane 1, is on
/// `in_credit` during c9. c9: C.h crosses (ST); SA grants C.t (position 1
/// behind the crossing lane flit; room ob_count 0 + pend 1 < DO = 2):
/// credit, lane 1, during c10. c10: C.t crosses, point C picks C.h (on
/// port 2 during c11); c11 picks C.t (during c12). The source's lanes at
/// c15: 0 (A stuck), 4 (both credits back), 4.
#[test]
fn registered_p_credit_carries_the_sa_cycles_lane() {
    let mut file = router("per_lane").file().clone();
    file.router.switch_stage = Some(wormqos_config::SwitchStageKind::Registered);
    let cfg = RouterConfig::new(file).unwrap();
    let tags = Tags::new(&cfg).unwrap();
    let c = tags.message(0, 2, 2, 3, 0xc, 2, |k| k as u64);
    let lane = run_on(&cfg, 50);
    let sent_at = |f: &LinkFlit| lane.sent.iter().position(|x| x.valid && x.data == f.data && x.head == f.head);
    assert_eq!((sent_at(&c[0]), sent_at(&c[1])), (Some(5), Some(6)), "C sent");
    assert_eq!((lane.sent[5].lane, lane.sent[6].lane), (1, 1), "C names lane 1");
    let lane_credit = |t: usize| (lane.out[t - 1].credits[0] & 1 == 1).then(|| credit_lane(lane.out[t - 1].credit_lanes[0], 0));
    assert_eq!((lane_credit(9), lane_credit(10)), (Some(1), Some(1)), "C's credits: lane 1, during the ST cycles");
    assert_eq!((lane_credit(8), lane_credit(11)), (None, None), "no other credit of port 0 around them");
    assert_eq!((on_port(&lane, 2, &c[0]), on_port(&lane, 2, &c[1])), (Some(11), Some(12)), "C leaves");
    assert_eq!(lane.lanes_at_15, [0, 4, 4], "source lane credits at c15");
}

/// §9.4 *Credits*, receiver: a header naming a lane above `top + 1` opens
/// it (the lanes between stay empty) and `extra` counts them, so the port
/// drains to idle. Input 0, VC 0: A (class 0, 2 flits) in lane 0 at c1,
/// c2, blocked behind B (header c0, tail c12) as above; D (class 2, one
/// flit) names lane 2 at c3 (a sender whose lane 1 is still busy from
/// before would do so). End c3: top = 2, sl = 0.
#[test]
fn a_named_lane_above_top_plus_one_is_opened() {
    let cfg = router("per_lane");
    let tags = Tags::new(&cfg).unwrap();
    let b = tags.message(0, 1, 0, 5, 0xb, 2, |k| k as u64);
    let a = tags.message(0, 1, 0, 5, 0xa, 2, |k| k as u64);
    let d = tags.message(0, 2, 2, 3, 0xd, 1, |k| k as u64);
    let mut r = Router::new(&cfg);
    let mut inp = RouterInputs::idle(&cfg);
    let mut d_out = None;
    for t in 0..30 {
        next_inputs(&r, &mut inp);
        match t {
            0 => inp.flits[2] = b[0],
            1 => inp.flits[0] = a[0],
            2 => inp.flits[0] = a[1],
            3 => inp.flits[0] = LinkFlit { lane: 2, ..d[0] },
            12 => inp.flits[2] = b[1],
            _ => {}
        }
        r.step(&inp);
        if t == 3 {
            let regs = r.lane_regs(0, 0).unwrap();
            assert_eq!((regs.top, regs.sl), (2, 0), "end of c3");
        }
        if r.outputs().flits[2].valid && d_out.is_none() {
            d_out = Some(t + 1);
        }
    }
    // D.h written end c3: c4 (c) sl 1, c5 (c) sl 2, c6 RC, c7 VA, c8 ST,
    // c9 C picks: on port 2 during c10.
    assert_eq!(d_out, Some(10));
    assert_eq!(r.buffered_flits(), 0);
    assert!(r.is_quiescent(), "every lane released, every credit back");
}

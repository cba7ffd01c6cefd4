//! Tests of the §9 features (docs/microarchitecture.md §9). Expected values
//! are derived by hand from the spec (the derivations are in the comments),
//! never copied from the model's output.

use crate::endpoint::{Reassembler, Tags};
use crate::test_traffic::{random_inputs, Rng};
use crate::{LinkFlit, Router, RouterInputs, RouterOutputs};
use wormqos_config::RouterConfig;

fn example(name: &str) -> RouterConfig {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    RouterConfig::from_file(std::path::Path::new(&path)).unwrap()
}

fn cfg_of(text: &str) -> RouterConfig {
    RouterConfig::from_toml_str(&format!("name = \"q\"\n{text}"), "inline").unwrap()
}

fn inline(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> RouterConfig {
    cfg_of(&format!(
        "[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\n{extra}"
    ))
}

// ------------------------------------------------------------------ random P-mode self-check

/// A message being sent by a source on one link VC.
struct Sending {
    flits: Vec<LinkFlit>,
    /// Next flit to send.
    k: usize,
    class: u32,
    /// The header fields (for a dummy header when resumed).
    hdr_data: [u64; 4],
    /// Resuming after a source preemption: a dummy header goes first.
    resume: bool,
}

/// Random tagged traffic into a router, respecting credits and the link
/// protocol (messages never interleave on a link VC; with `src_preempt` a
/// source may suspend its own message with a dummy tail, send a higher-class
/// message and resume behind a dummy header, nesting up to s-1 levels).
/// Every output is consumed with immediate credit return and reassembled.
/// Returns the router's statistics.
fn random_p_run(cfg: &RouterConfig, seed: u64, cycles: u64, load: u64, src_preempt: bool) -> crate::RouterStats {
    let tags = Tags::new(cfg).unwrap();
    let n = cfg.ports();
    let m = cfg.vcs();
    let s = cfg.traffic_classes();
    let h = cfg.header();
    let mut r = Router::new(cfg);
    let mut re = Reassembler::new(cfg).unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut credit = vec![cfg.input_buffer_depth(); n * m];
    // Per input VC: a stack of messages being sent (top = last) and a queue.
    let mut stack: Vec<Vec<Sending>> = (0..n * m).map(|_| Vec::new()).collect();
    let mut queue: Vec<std::collections::VecDeque<Sending>> = (0..n * m).map(|_| Default::default()).collect();
    let mut expected: std::collections::HashMap<(usize, u64), (Vec<LinkFlit>, u32)> = Default::default();
    let mut next_id = vec![0u64; n];
    let mut inp = RouterInputs::idle(cfg);
    let mut delivered = 0u64;
    let mut sent_msgs = 0u64;
    let mut total = 0u64;
    let be = (1u64 << h.vtick.width) - 1;
    let mut most_be_held = 0;
    let mut most_rt_held = 0;
    let credit_late = cfg.scheduling().point.switch_stage() != wormqos_config::SwitchStage::SingleCycle;
    while total < cycles
        || !r.is_quiescent()
        || stack.iter().any(|s| !s.is_empty())
        || queue.iter().any(|q| !q.is_empty())
    {
        if total >= cycles + 20_000 {
            for p in 0..n {
                for v in 0..m {
                    eprintln!(
                        "({p},{v}) {:?} lanes {:?} regs {:?} hdr {:?} stack {} queue {}",
                        r.vc_state(p, v),
                        (0..cfg.extra_lanes() + 1).map(|l| r.lane_occupancy(p, v, l)).collect::<Vec<_>>(),
                        r.lane_regs(p, v),
                        r.header_register(p, v),
                        stack[p * m + v].len(),
                        queue[p * m + v].len()
                    );
                }
            }
            for o in 0..n {
                for u in 0..m {
                    eprintln!(
                        "out ({o},{u}) alloc {} owner {:?} occ {} credits {}",
                        r.allocated(o, u),
                        r.owner(o, u),
                        r.output_occupancy(o, u),
                        r.credits(o, u)
                    );
                }
            }
            panic!("seed {seed}: no drain: {:?}", r.stats());
        }
        inp.clear();
        // Consume the outputs of this cycle; return the credits at once.
        for (o, f) in r.outputs().flits.iter().enumerate() {
            if f.valid {
                inp.credits[o] |= 1 << f.vc;
                assert!(!f.dummy || cfg.extra_lanes() > 0);
            }
        }
        for msg in re.consume(r.outputs()).unwrap_or_else(|e| panic!("{} seed {seed} cycle {total}: {e}", cfg.name())) {
            let (flits, _class) = expected.remove(&(msg.port, msg.id)).expect("a message that was sent");
            assert_eq!(msg.header, flits[0].data);
            assert_eq!(msg.flits.len(), flits.len() - 1);
            for (k, d) in msg.flits.iter().enumerate() {
                assert_eq!(*d, flits[k + 1].data, "message {} flit {}", msg.id, k + 1);
            }
            delivered += 1;
        }
        // With a registered switch stage a credit is spent from the cycle
        // after it is seen (§6 *Credits at the input link*).
        let returned = r.outputs().credits.clone();
        let count_credits = |credit: &mut Vec<usize>| {
            for p in 0..n {
                for v in 0..m {
                    credit[p * m + v] += (returned[p] >> v & 1) as usize;
                }
            }
        };
        if !credit_late {
            count_credits(&mut credit);
        }
        // New messages.
        if total < cycles {
            for p in 0..n {
                if rng.next() % 100 < load {
                    let v = rng.next() as usize % m;
                    let dest = rng.next() % cfg.endpoints() as u64;
                    let code = rng.next() % (1u64 << h.class.width);
                    let class = if code >= s as u64 { 0 } else { code as u32 };
                    let vt = match rng.next() % 4 {
                        0 => be,
                        1 => 0,
                        _ => 1 + rng.next() % 12,
                    };
                    let len = 1 + (rng.next() % 6) as usize;
                    let o = cfg.route(dest);
                    let id = next_id[o] & tags.id_mask();
                    if expected.contains_key(&(o, id)) {
                        // Ids must be unique among the messages in flight.
                        continue;
                    }
                    next_id[o] += 1;
                    let mut pay = rng.next();
                    let flits = tags.message(v as u8, dest, code, vt, id, len, |_| {
                        pay = pay.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        pay >> 7
                    });
                    expected.insert((o, id), (flits.clone(), class));
                    let mut hd = [0u64; 4];
                    hd[0] = flits[0].data[0] & ((1u64 << h.width()) - 1);
                    queue[p * m + v].push_back(Sending { flits, k: 0, class, hdr_data: hd, resume: false });
                    sent_msgs += 1;
                }
            }
        }
        // Each input port sends at most one flit, on a VC with a credit.
        for p in 0..n {
            let start = rng.next() as usize % m;
            for dv in 0..m {
                let v = (start + dv) % m;
                let i = p * m + v;
                if credit[i] == 0 {
                    continue;
                }
                // Source preemption: a queued higher-class message suspends the current one.
                let preempt = src_preempt
                    && stack[i].last().is_some_and(|c| c.k > 0 && !c.resume)
                    && stack[i].len() < s as usize
                    && queue[i].front().is_some_and(|q| q.class > stack[i].last().unwrap().class)
                    && rng.next() % 2 == 0;
                let f = if preempt {
                    let cur = stack[i].last_mut().unwrap();
                    cur.resume = true;
                    let q = queue[i].pop_front().unwrap();
                    stack[i].push(q);
                    LinkFlit { lane: 0, valid: true, vc: v as u8, head: false, tail: true, dummy: true, data: [0; 4] }
                } else {
                    if stack[i].is_empty() {
                        match queue[i].pop_front() {
                            Some(q) => stack[i].push(q),
                            None => continue,
                        }
                    }
                    let cur = stack[i].last_mut().unwrap();
                    if cur.resume {
                        cur.resume = false;
                        LinkFlit { lane: 0, valid: true, vc: v as u8, head: true, tail: false, dummy: true, data: cur.hdr_data }
                    } else {
                        let f = cur.flits[cur.k];
                        cur.k += 1;
                        if cur.k == cur.flits.len() {
                            stack[i].pop();
                        }
                        f
                    }
                };
                credit[i] -= 1;
                inp.flits[p] = f;
                break;
            }
        }
        if credit_late {
            count_credits(&mut credit);
        }
        r.step(&inp);
        total += 1;
        if let Some(k) = cfg.best_effort_output_vcs() {
            most_be_held = most_be_held.max(class_held(&r, 0, k));
        }
        if let Some(k) = cfg.realtime_output_vcs() {
            most_rt_held = most_rt_held.max(class_held(&r, 1, k));
        }
    }
    if let Some(k) = cfg.best_effort_output_vcs() {
        // the cap binds: some port had best effort on all K
        assert_eq!(most_be_held, k, "{} seed {seed}", cfg.name());
    }
    if let Some(k) = cfg.realtime_output_vcs() {
        // the cap binds: some port had real time on all R
        assert_eq!(most_rt_held, k, "{} seed {seed}", cfg.name());
    }
    assert_eq!(r.stats().flits_dropped(), 0, "{}", cfg.name());
    assert!(expected.is_empty(), "{} seed {seed}: {} messages not delivered", cfg.name(), expected.len());
    assert_eq!(delivered, sent_msgs);
    assert_eq!(re.incomplete(), 0);
    assert_eq!(re.open_parts(), 0);
    // Every dummy tail made here is matched by a dummy header (the suspended
    // message resumed), and so is every dummy tail the sources made.
    *r.stats()
}

/// §9.4 stage 3: the most output VCs of one port held by class `of` (0:
/// best effort, 1: real time), counted from the introspection (allocated,
/// and the owner's header register of that class, `cls`: codes >= s are
/// class 0); panics above `k`.
fn class_held(r: &Router, of: u64, k: u32) -> u32 {
    let cfg = r.config();
    let s = cfg.traffic_classes() as u64;
    let mut most = 0;
    for o in 0..cfg.ports() {
        let held = (0..cfg.vcs())
            .filter(|&u| r.allocated(o, u))
            .filter(|&u| {
                let w = r.owner(o, u).unwrap();
                let class = r.header_register(w / cfg.vcs(), w % cfg.vcs()).unwrap().class as u64;
                (if class >= s { 0 } else { class }) == of
            })
            .count() as u32;
        assert!(held <= k, "output port {o}: class {of} holds {held} output VCs, cap {k}");
        most = most.max(held);
    }
    most
}

#[test]
fn random_preemptive_traffic_is_reassembled() {
    let mut cfgs = vec![example("small_p"), example("mw8_p"), example("mw8_pa")];
    let base = "[router]\nports = 3\nvcs = 2\nflit_width = 48\ninput_buffer_depth = 5\noutput_buffer_depth = 2\n\
                scheduler = \"virtualclock\"\nclock_width = 9\nvtick_width = 8\nmode = \"preemptive\"\n";
    cfgs.push(cfg_of(&format!("{base}crossbar = \"full\"\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\nblock_size = 3\nacceleration = true\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\ntraffic_classes = 4\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"full\"\nblock_size = 4\ntraffic_classes = 5\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\nbest_effort_output_vcs = 1\nacceleration = true\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"full\"\nrealtime_output_vcs = 1\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\nrealtime_output_vcs = 1\nbest_effort_output_vcs = 1\nacceleration = true\n")));
    for cfg in &cfgs {
        let mut tot = crate::RouterStats::default();
        for seed in 1..=3 {
            for src_preempt in [false, true] {
                let st = random_p_run(cfg, seed, 3000, 30, src_preempt);
                tot.preemptions += st.preemptions;
                tot.nested_preemptions += st.nested_preemptions;
                tot.dummy_headers += st.dummy_headers;
                tot.silent_preemptions += st.silent_preemptions;
                tot.accelerations += st.accelerations;
                tot.block_holds += st.block_holds;
            }
        }
        eprintln!("{}: {:?}", cfg.name(), tot);
        assert!(tot.preemptions > 0 && tot.dummy_headers > 0 && tot.silent_preemptions > 0, "{}: {tot:?}", cfg.name());
        if cfg.acceleration() {
            assert!(tot.accelerations > 0, "{}", cfg.name());
        }
        if cfg.block_size() > 1 {
            assert!(tot.block_holds > 0, "{}", cfg.name());
        }
    }
}

// ------------------------------------------------------------------ directed tests

/// Runs from reset with `flits` (cycle, input port, flit) and, if
/// `credit_back`, immediate credit return for every output flit; element t of
/// the result is the outputs during cycle t.
fn run(r: &mut Router, flits: &[(u64, usize, LinkFlit)], cycles: u64, credit_back: bool) -> Vec<RouterOutputs> {
    let cfg = r.config().clone();
    let mut inp = RouterInputs::idle(&cfg);
    let mut log = vec![r.outputs().clone()];
    for t in 0..cycles {
        inp.clear();
        for &(c, p, f) in flits {
            if c == t {
                assert!(!inp.flits[p].valid, "two flits on link {p} in cycle {t}");
                inp.flits[p] = f;
            }
        }
        if credit_back {
            for (o, f) in r.outputs().flits.iter().enumerate() {
                if f.valid {
                    inp.credits[o] |= 1 << f.vc;
                }
            }
        }
        r.step(&inp);
        log.push(r.outputs().clone());
    }
    log
}

/// Sends message `msg` on port `p`, flit k in cycle `start + k`.
fn send(stim: &mut Vec<(u64, usize, LinkFlit)>, p: usize, msg: &[LinkFlit], start: u64) {
    for (k, f) in msg.iter().enumerate() {
        stim.push((start + k as u64, p, *f));
    }
}

fn on_vc(f: LinkFlit, u: u8) -> LinkFlit {
    LinkFlit { vc: u, ..f }
}

const DUMMY_TAIL: LinkFlit = LinkFlit { lane: 0, valid: true, vc: 0, head: false, tail: true, dummy: true, data: [0; 4] };

fn dummy_head(cfg: &RouterConfig, dest: u64, class: u64, vtick: u64) -> LinkFlit {
    let h = cfg.header();
    let d = dest | class << h.class.lsb | vtick << h.vtick.lsb;
    LinkFlit { lane: 0, valid: true, vc: 0, head: true, tail: false, dummy: true, data: [d, 0, 0, 0] }
}

fn assert_port(log: &[RouterOutputs], o: usize, expected: &[(u64, LinkFlit)]) {
    for (t, out) in log.iter().enumerate() {
        let want = expected.iter().find(|(c, _)| *c == t as u64).map(|&(_, f)| f).unwrap_or(LinkFlit::IDLE);
        assert_eq!(out.flits[o], want, "output port {o}, cycle {t}");
    }
}

/// 2 ports, 1 VC, s = 3 (E = 2 extra lanes), multiplexed, VirtualClock;
/// HW = 1 + 2 + 8 = 11, IDW = min(32, 21, 16) = 16.
fn small_p() -> RouterConfig {
    cfg_of(
        "[router]\nports = 2\nvcs = 1\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 2\n\
         downstream_buffer_depth = 64\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n\
         clock_width = 8\nvtick_width = 8\nmode = \"preemptive\"\n",
    )
}

/// §9.4 case (a). With one VC per port every arbitration is trivial.
/// A: class 0, 4 flits, input 0, cycles 0..3, to port 1. B: class 2, 2 flits, cycles 4, 5.
/// c0 A.h -> lane 0 (VC idle), lmax[0] = 0. RC 1, VA 2 (VC 0 of port 1), ST 3 (sent = 1).
/// c4: C picks A.h (out 5); ST A.b1; B.h arrives, lmax[0] = 0 < 2 -> lane 1, top = 1.
/// c5: sl 0 < top 1, ACTIVE, sent -> dummy tail, ready (ob holds A.b1 only: 1 < DO = 2),
///     crosses: VC 0 of port 1 freed, push A's hdr, susp[0] = 1, sl = 1. C picks A.b1 (out 6).
/// c6: RC B (lane 1); C picks the dummy tail (out 7). c7: VA B -> VC 0. c8: ST B.h. c9: ST B.t
/// (free), C B.h (out 10). c10: C B.t (out 11); lane release: top = sl = 0.
/// c11: RC from the stack (A's hdr). c12: VA -> VC 0. c13: ST dummy header (pop).
/// c14: ST A.b2, C dummy header (out 15). c15: ST A.b3. Out A.b2 16, A.b3 17.
/// Credits upstream only for lane pops: A.h 3, A.b1 4, B.h 8, B.t 9, A.b2 14, A.b3 15 (+1 cycle).
#[test]
fn preemption_dummy_tail_and_dummy_header_timing() {
    let cfg = small_p();
    assert_eq!(Tags::new(&cfg).unwrap().id_width(), 16);
    let (a, b, stim) = one_preemption_stimulus(&cfg);
    let mut r = Router::new(&cfg);
    // Stop after cycle 5 to look at the registers.
    let log1 = run(&mut r, &stim, 6, false);
    let regs = r.lane_regs(0, 0).unwrap();
    assert_eq!((regs.top, regs.sl, regs.depth, regs.susp, regs.sent), (1, 1, 1, 0b1, false));
    assert_eq!(regs.stack[0], crate::HeaderFields { dest: 1, class: 0, vtick: 5 });
    assert_eq!(r.lane_occupancy(0, 0, 0), 2);
    // B.h and B.t (written at the end of cycle 5).
    assert_eq!(r.lane_occupancy(0, 0, 1), 2);
    assert!(!r.allocated(1, 0));
    drop(log1);
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 25, false);
    let exp = [
        (5, a[0]),
        (6, a[1]),
        (7, DUMMY_TAIL),
        (10, b[0]),
        (11, b[1]),
        (15, dummy_head(&cfg, 1, 0, 5)),
        (16, a[2]),
        (17, a[3]),
    ];
    assert_one_preemption(&r, &log, &exp, &[4, 5, 9, 10, 15, 16]);
    assert_eq!(r.stats().tails_forwarded, 2);
    // The endpoint rebuilds both messages; A came in two parts.
    let mut re = Reassembler::new(&cfg).unwrap();
    let mut got = Vec::new();
    for out in &log {
        got.extend(re.consume(out).unwrap());
    }
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].id, got[0].parts, got[0].header), (0x22, 1, b[0].data));
    assert_eq!((got[1].id, got[1].parts, got[1].header), (0x11, 2, a[0].data));
    assert_eq!(got[1].flits, a[1..].iter().map(|f| f.data).collect::<Vec<_>>());
    assert_eq!(re.dummies(), 2);
}

/// The messages of the one-preemption scenario on input 0, VC 0, to port 1:
/// A (class 0, Vtick 5, tag 0x11, 4 flits) from cycle 0, B (class 2, Vtick
/// 9, tag 0x22, 2 flits) from cycle 4; and the stimulus sending them.
#[allow(clippy::type_complexity)]
fn one_preemption_stimulus(cfg: &RouterConfig) -> (Vec<LinkFlit>, Vec<LinkFlit>, Vec<(u64, usize, LinkFlit)>) {
    let tags = Tags::new(cfg).unwrap();
    let a = tags.message(0, 1, 0, 5, 0x11, 4, |k| k as u64 + 100);
    let b = tags.message(0, 1, 2, 9, 0x22, 2, |k| k as u64 + 200);
    let mut stim = Vec::new();
    send(&mut stim, 0, &a, 0);
    send(&mut stim, 0, &b, 4);
    (a, b, stim)
}

/// The checks of a `small_p` run with one preemption of input 0's VC:
/// output port 1 carries `exp` (and port 0 nothing), input 0's credit is
/// out in `credit_cycles`, one dummy tail and one dummy header were made
/// (no nesting, no silent case), and the router is empty again.
fn assert_one_preemption(r: &Router, log: &[RouterOutputs], exp: &[(u64, LinkFlit)], credit_cycles: &[u64]) {
    assert_port(log, 1, exp);
    assert_port(log, 0, &[]);
    let got: Vec<u64> = (0..log.len() as u64).filter(|&t| log[t as usize].credits[0] & 1 == 1).collect();
    assert_eq!(got, credit_cycles);
    let st = r.stats();
    assert_eq!((st.preemptions, st.nested_preemptions, st.dummy_headers, st.silent_preemptions), (1, 0, 1, 0));
    assert_eq!(r.buffered_flits(), 0);
    assert_eq!((r.stack_depth(0, 0), r.lane_regs(0, 0).unwrap().top), (0, 0));
}

/// `small_p` with `switch_stage = "registered"` (§6 *Registered switch
/// allocation in P mode*; golden model only) and DO = 4 (a lane streams
/// one flit per cycle with DO >= 3).
fn small_p_registered() -> RouterConfig {
    let text = small_p().to_toml().replace("output_buffer_depth = 2", "output_buffer_depth = 4");
    let text = text.replace("[router]\n", "[router]\nswitch_stage = \"registered\"\n");
    RouterConfig::from_toml_str_simulated(&text, "inline").unwrap()
}

/// Zero-load latency with the registered stage in P mode, from §6: header
/// written at the end of cycle 0 into an idle VC (lane 0); RV (RC from
/// lane 0's front, VA) in 1; SA in 2; ST in 3; C in 4; out in 5. Flit k
/// arrives in cycle k and is granted at position 1 of the lane while flit
/// k-1 crosses (SA in 2 + k), so it is out in 5 + k; the tail of an
/// M-flit message in 4 + M, as in the single-cycle pipeline.
#[test]
fn registered_p_zero_load_latency_is_4_plus_m() {
    let cfg = small_p_registered();
    let tags = Tags::new(&cfg).unwrap();
    for len in [1usize, 2, 6] {
        let a = tags.message(0, 1, 0, 5, 0x11, len, |k| k as u64 + 100);
        let mut stim = Vec::new();
        send(&mut stim, 0, &a, 0);
        let mut r = Router::new(&cfg);
        let log = run(&mut r, &stim, 20, false);
        let exp: Vec<_> = (0..len).map(|k| (5 + k as u64, a[k])).collect();
        assert_eq!(exp.last().unwrap().0, 4 + len as u64);
        assert_port(&log, 1, &exp);
        // The credit of the flit crossing in cycle 3 + k is out in 3 + k.
        let credit_cycles: Vec<u64> = (0..log.len() as u64).filter(|&t| log[t as usize].credits[0] & 1 == 1).collect();
        assert_eq!(credit_cycles, (0..len as u64).map(|k| 3 + k).collect::<Vec<_>>());
    }
}

/// A preemption under registered switch allocation (§6 *Registered switch
/// allocation in P mode*, §9.4), the scenario of
/// `preemption_dummy_tail_and_dummy_header_timing` with DO = 4. A: class
/// 0, 4 flits (h, b1, b2, b3), input 0, cycles 0..3, to port 1; B: class
/// 2, 2 flits, cycles 4, 5.
/// c0 A.h -> lane 0 (VC idle). c1 RV: RC + VA (output VC 0), ACTIVE.
/// c2 SA A.h (lane front). c3 ST A.h (credit out 3); SA A.b1 (pend: the
///    flit at position 1; lane 0 holds h, b1, b2).
/// c4 ST A.b1 (credit 4), C A.h (out 5); SA A.b2 (position 1 of b1, b2,
///    b3; ob 1 + pend 1 < 4). B.h written: lmax[0] = 0 < 2, lane 1, top = 1.
/// c5 ST A.b2 (credit 5), C A.b1 (out 6). sl 0 < top 1 but an offer
///    crosses: no preemption step, no SA offer (the grant of c4 is valid).
/// c6 C A.b2 (out 7). Case (a): ACTIVE, sent = 1, no pend: SA grants the
///    dummy tail (ob 1 < 4). c7 ST dummy tail: VC 0 of port 1 freed, push
///    A's hdr, susp[0] = 1, sl = 1 (no credit). C: ob empty at the start of c7.
/// c8 C dummy tail (out 9); RV for B (lane 1, output VC 0 free from c8).
/// c9 SA B.h. c10 ST B.h (credit 10), SA B.t (position 1). c11 ST B.t
///    (credit 11; tail: IDLE, VC freed), C B.h (out 12). c12 C B.t (out
///    13); lane release (sl = top = 1, lane 1 empty, IDLE): top = sl = 0.
/// c13 RV from the stack (A's hdr), output VC 0. c14 SA dummy header.
/// c15 ST dummy header (pop); SA A.b3 (behind a dummy header: position
///    0). c16 ST A.b3 (credit 16), C dummy header (out 17). c17 C A.b3 (out 18).
#[test]
fn preemption_under_registered_allocation() {
    let cfg = small_p_registered();
    let (a, b, stim) = one_preemption_stimulus(&cfg);
    // At the start of cycle 6: B.h opened lane 1 at the end of c4; A.b2
    // crossed in c5 (sent = 1), nothing else happened to the VC.
    let mut r = Router::new(&cfg);
    run(&mut r, &stim, 6, false);
    let regs = r.lane_regs(0, 0).unwrap();
    assert_eq!((regs.top, regs.sl, regs.depth, regs.susp, regs.sent), (1, 0, 0, 0, true));
    assert_eq!(r.vc_state(0, 0), crate::VcState::Active { route: 1, ovc: 0 });
    // At the start of cycle 8: the dummy tail crossed in c7.
    let mut r = Router::new(&cfg);
    run(&mut r, &stim, 8, false);
    let regs = r.lane_regs(0, 0).unwrap();
    assert_eq!((regs.top, regs.sl, regs.depth, regs.susp, regs.sent), (1, 1, 1, 0b1, false));
    assert_eq!(regs.stack[0], crate::HeaderFields { dest: 1, class: 0, vtick: 5 });
    assert_eq!((r.lane_occupancy(0, 0, 0), r.lane_occupancy(0, 0, 1)), (1, 2));
    assert!(!r.allocated(1, 0));
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 25, false);
    let exp = [
        (5, a[0]),
        (6, a[1]),
        (7, a[2]),
        (9, DUMMY_TAIL),
        (12, b[0]),
        (13, b[1]),
        (17, dummy_head(&cfg, 1, 0, 5)),
        (18, a[3]),
    ];
    assert_one_preemption(&r, &log, &exp, &[3, 4, 5, 10, 11, 16]);
    let mut re = Reassembler::new(&cfg).unwrap();
    let mut got = Vec::new();
    for out in &log {
        got.extend(re.consume(out).unwrap());
    }
    assert_eq!(got.iter().map(|g| (g.id, g.parts)).collect::<Vec<_>>(), vec![(0x22, 1), (0x11, 2)]);
}

/// Drain under load with the registered stage in P mode: random tagged
/// traffic (sources preempting their own messages too, nesting up to s-1
/// levels) into several registered P routers; every message is delivered
/// whole, nothing is dropped, the router drains, and preemptions (case
/// (a) dummy tails, dummy headers, silent cases (b)/(c)) happen.
#[test]
fn random_preemptive_traffic_drains_with_registered_allocation() {
    let base = "[router]\nports = 3\nvcs = 2\nflit_width = 48\ninput_buffer_depth = 5\n\
                scheduler = \"virtualclock\"\nclock_width = 9\nvtick_width = 8\nmode = \"preemptive\"\n\
                crossbar = \"multiplexed\"\nswitch_stage = \"registered\"\n";
    let sim = |extra: &str| RouterConfig::from_toml_str_simulated(&format!("name = \"q\"\n{base}{extra}"), "inline").unwrap();
    let cfgs = [
        sim("output_buffer_depth = 2\n"),
        sim("output_buffer_depth = 3\ntraffic_classes = 4\n"),
        sim("output_buffer_depth = 4\nblock_size = 3\n"),
        sim("output_buffer_depth = 3\nswitch_allocator = \"iterative\"\nbest_effort_output_vcs = 1\n"),
        sim("output_buffer_depth = 2\ntraffic_classes = 5\nblock_size = 2\n"),
    ];
    for cfg in &cfgs {
        let mut tot = crate::RouterStats::default();
        for seed in 1..=3 {
            for (load, src_preempt) in [(20, false), (45, true), (30, true)] {
                let st = random_p_run(cfg, seed, 2500, load, src_preempt);
                tot.preemptions += st.preemptions;
                tot.nested_preemptions += st.nested_preemptions;
                tot.dummy_headers += st.dummy_headers;
                tot.silent_preemptions += st.silent_preemptions;
                tot.block_holds += st.block_holds;
            }
        }
        eprintln!("{}: {tot:?}", cfg.to_toml().replace('\n', " "));
        assert!(tot.preemptions > 0 && tot.dummy_headers > 0 && tot.silent_preemptions > 0, "{tot:?}");
        if cfg.traffic_classes() > 3 {
            assert!(tot.nested_preemptions > 0, "{tot:?}");
        }
        if cfg.block_size() > 1 {
            assert!(tot.block_holds > 0, "{tot:?}");
        }
    }
}

/// Nested preemption: A (class 0, 4 flits, c0..3), B (class 1, 3 flits,
/// c4..6), C (class 2, 2 flits, c9, c10), all input 0 VC 0 -> port 1.
/// c0..c5 as in the test above with B for the class-2 message: B.h -> lane 1
/// (lmax[0] = 0 < 1), top 1, lmax[1] = 1; c5 dummy tail of A (push A, sl 1);
/// out A.h 5, A.b1 6, DT 7. c6 RC B, c7 VA B (VC 0), c8 ST B.h, c9 ST B.b1,
/// C.h arrives: lmax = [0, 1] < 2 -> lane 2, top 2. c10: sl 1 < 2, B ACTIVE
/// and sent -> dummy tail (ob holds B.b1: 1 < 2), push B (hsp 1 -> 2: nested),
/// susp[1], sl 2. Out B.h 10, B.b1 11, DT 12. c11 RC C, c12 VA, c13 ST C.h,
/// c14 ST C.t, c15 lane release (top = sl = 1); out C.h 15, C.t 16.
/// c16 RC from the stack top (B), c17 VA, c18 ST DH(B) (pop), c19 ST B.t;
/// c20 lane release (top = sl = 0); out DH(B) 20, B.t 21. c21 RC (A from
/// hs[0]), c22 VA, c23 ST DH(A), c24 A.b2, c25 A.b3; out DH(A) 25, A.b2 26, A.b3 27.
#[test]
fn nested_preemption_stack_order() {
    let cfg = small_p();
    let tags = Tags::new(&cfg).unwrap();
    let a = tags.message(0, 1, 0, 5, 1, 4, |k| k as u64);
    let b = tags.message(0, 1, 1, 7, 2, 3, |k| k as u64);
    let c = tags.message(0, 1, 2, 3, 3, 2, |k| k as u64);
    let mut stim = Vec::new();
    send(&mut stim, 0, &a, 0);
    send(&mut stim, 0, &b, 4);
    send(&mut stim, 0, &c, 9);
    let mut r = Router::new(&cfg);
    let _ = run(&mut r, &stim, 11, false);
    // At the start of cycle 11: both suspended, stack bottom A, top B.
    let regs = r.lane_regs(0, 0).unwrap();
    assert_eq!((regs.top, regs.sl, regs.depth, regs.susp), (2, 2, 2, 0b011));
    assert_eq!(regs.stack[0], crate::HeaderFields { dest: 1, class: 0, vtick: 5 });
    assert_eq!(regs.stack[1], crate::HeaderFields { dest: 1, class: 1, vtick: 7 });
    assert_eq!(regs.lmax[..3], [0, 1, 2]);
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 32, false);
    let exp = [
        (5, a[0]),
        (6, a[1]),
        (7, DUMMY_TAIL),
        (10, b[0]),
        (11, b[1]),
        (12, DUMMY_TAIL),
        (15, c[0]),
        (16, c[1]),
        (20, dummy_head(&cfg, 1, 1, 7)),
        (21, b[2]),
        (25, dummy_head(&cfg, 1, 0, 5)),
        (26, a[2]),
        (27, a[3]),
    ];
    assert_port(&log, 1, &exp);
    let st = r.stats();
    assert_eq!((st.preemptions, st.nested_preemptions, st.dummy_headers, st.silent_preemptions), (2, 1, 2, 0));
    assert_eq!(r.buffered_flits(), 0);
    assert_eq!(r.stack_depth(0, 0), 0);
    assert_eq!(r.lane_regs(0, 0).unwrap().top, 0);
    let mut re = Reassembler::new(&cfg).unwrap();
    let got: Vec<_> = log.iter().flat_map(|o| re.consume(o).unwrap()).collect();
    assert_eq!(got.iter().map(|m| (m.id, m.parts)).collect::<Vec<_>>(), vec![(3, 1), (2, 2), (1, 2)]);
}

/// Cases (b) and (c): the lower message is switched away from before any of
/// its flits crossed, so no dummy tail and no dummy header.
/// (b) A (class 0, 2 flits) c0, c1; B (class 2, 1 flit) c2. A: RC 1, VA 2
///     (ACTIVE at the end of 2). B.h at c2 -> lane 1 (lane 0 holds A), top 1.
///     c3: sl < top, ACTIVE, sent = 0 -> (b): VC 0 of port 1 freed, sl = 1.
///     B: RC 4, VA 5 (VC 0), ST 6, C 7, out 8; c7 lane release. A: RC 8 from
///     lane 0 (its real header), VA 9, ST 10, 11; out A.h 12, A.t 13.
/// (c) A (1 flit) c0; B (class 2, 1 flit) c1. A: RC 1 (ROUTED). B -> lane 1.
///     c2: (c) sl = 1 (A does not request VA). B: RC 3, VA 4, ST 5, out 7;
///     lane release c6. A: RC 7, VA 8, ST 9, out 11.
#[test]
fn silent_preemption_cases_b_and_c() {
    let cfg = small_p();
    let tags = Tags::new(&cfg).unwrap();
    // (b)
    let a = tags.message(0, 1, 0, 5, 1, 2, |_| 0);
    let b = tags.message(0, 1, 2, 5, 2, 1, |_| 0);
    let mut stim = Vec::new();
    send(&mut stim, 0, &a, 0);
    send(&mut stim, 0, &b, 2);
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 20, false);
    assert_port(&log, 1, &[(8, b[0]), (12, a[0]), (13, a[1])]);
    let st = r.stats();
    assert_eq!((st.preemptions, st.dummy_headers, st.silent_preemptions), (0, 0, 1));
    // (c)
    let a = tags.message(0, 1, 0, 5, 1, 1, |_| 0);
    let mut stim = Vec::new();
    send(&mut stim, 0, &a, 0);
    send(&mut stim, 0, &b, 1);
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 20, false);
    assert_port(&log, 1, &[(7, b[0]), (11, a[0])]);
    let st = r.stats();
    assert_eq!((st.preemptions, st.dummy_headers, st.silent_preemptions), (0, 0, 1));
}

/// 3 ports, 2 VCs, s = 3, P mode, VirtualClock at A, with/without acceleration.
fn accel_cfg(acc: bool) -> RouterConfig {
    cfg_of(&format!(
        "[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 2\n\
         downstream_buffer_depth = 64\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n\
         clock_width = 8\nvtick_width = 8\nmode = \"preemptive\"\nacceleration = {acc}\n"
    ))
}

/// The stimulus of [`acceleration_serves_the_victim_first`] (Y of class
/// `y_class`): (stimulus, X, Y, Z).
#[allow(clippy::type_complexity)]
fn victim_scenario(cfg: &RouterConfig, y_class: u64) -> (Vec<(u64, usize, LinkFlit)>, Vec<LinkFlit>, Vec<LinkFlit>, Vec<LinkFlit>) {
    let tags = Tags::new(cfg).unwrap();
    let x = tags.message(0, 2, 0, 255, 1, 3, |k| k as u64);
    let y = tags.message(1, 2, y_class, 3, 2, 6, |k| k as u64);
    let z = tags.message(0, 2, 2, 3, 3, 1, |k| k as u64);
    let mut stim = vec![(0, 0, x[0]), (1, 0, y[0]), (2, 0, x[1]), (3, 0, x[2])];
    send(&mut stim, 0, &y[1..], 4);
    send(&mut stim, 1, &z, 4);
    (stim, x, y, z)
}

/// §9.5. Input 0: X (VC 0, class 0, best effort, 3 flits: c0, c2, c3) and
/// Y (VC 1, class 0, real time, 6 flits: c1, c4..c8); input 1: Z (VC 0,
/// class 2, 1 flit, c4); all to port 2.
/// X: RC 1, VA 2 -> VC 0 of port 2; Y: RC 2, VA 3 -> VC 1. ST at A of port 0:
/// c3 X.h (alone); c4 Y.h (real time beats best effort), c5 Y.b1, c6 Y.b2
/// (each written the cycle before). Z: RC 5, VA 6: no free VC of port 2,
/// c* = 2, lowest u whose owner's class < 2 is u = 0 (X) -> acc[X] = 1.
/// c7: X accelerated and ready -> X.b1; c8 X.b2 (tail: VC 0 freed, acc
/// cleared, winning over the set of cycle 8). c9: Y.b3; VA Z -> VC 0.
/// c10: B at port 2 (xb_ptr = 1: port 0 won every cycle so far) -> Z; c11
/// Y.b4, c12 Y.b5. Stage 5 (round robin): out X.h 5, Y.h 6, Y.b1 7, Y.b2 8,
/// X.b1 9, X.b2 10, Y.b3 11, Z 12, Y.b4 13, Y.b5 14.
/// Without acceleration Y keeps winning at A: X.b1 leaves after Y's tail.
#[test]
fn acceleration_serves_the_victim_first() {
    for acc in [true, false] {
        let cfg = accel_cfg(acc);
        let (stim, x, y, z) = victim_scenario(&cfg, 0);
        let mut r = Router::new(&cfg);
        if acc {
            let _ = run(&mut r, &stim, 7, false);
            assert!(r.lane_regs(0, 0).unwrap().acc, "acc[X] set at the end of cycle 6");
            assert!(!r.lane_regs(0, 1).unwrap().acc);
            assert_eq!(r.owner(2, 0), Some(0));
            r.reset();
        }
        let log = run(&mut r, &stim, 20, false);
        if acc {
            let exp = [
                (5, x[0]),
                (6, y[0]),
                (7, y[1]),
                (8, y[2]),
                (9, x[1]),
                (10, x[2]),
                (11, y[3]),
                (12, z[0]),
                (13, y[4]),
                (14, y[5]),
            ];
            assert_port(&log, 2, &exp);
            assert_eq!(r.stats().accelerations, 1);
            assert!(!r.lane_regs(0, 0).unwrap().acc);
        } else {
            let when = |f: LinkFlit| log.iter().position(|o| o.flits[2] == f).unwrap();
            assert!(when(x[1]) > when(y[5]));
            assert_eq!(r.stats().accelerations, 0);
        }
        assert_eq!(r.stats().preemptions, 0);
    }
}

/// The point-A census (`router/census.rs`) on the scenario of
/// [`acceleration_serves_the_victim_first`] with Y of class 1 (real time;
/// Z, class 2, still makes c* = 2 and X, class 0, the victim; classes
/// change neither VA nor A here, so the flits leave as there). Census on,
/// with acceleration: port 0 has a candidate in c3..c12 (10; at c10 Y.b4
/// loses at B to Z), port 1 in c10 (Z): 11 candidates. In c7 and c8 X is
/// accelerated (2) and Y (class 1 > 0) is ready (Y.b3 arrived in c6 and
/// wins A in c7 without acceleration, on the same start-of-cycle state);
/// only port 0 requests port 2 then, so X wins B both times: 2 accelerated
/// over a higher class, won; none lost. No other candidate is below a ready
/// VC (Y's are the top class at port 0 once X's tail left; Z is alone).
/// Without acceleration the VirtualClock order puts real-time Y ahead of
/// best-effort X whenever both are ready: every count of a lower class is 0.
/// Census off: all zero.
#[test]
fn point_a_census_counts_accelerated_flits_over_real_time() {
    for (acc, on) in [(true, true), (false, true), (true, false)] {
        let cfg = accel_cfg(acc);
        let (stim, x, y, z) = victim_scenario(&cfg, 1);
        let mut r = Router::new(&cfg);
        r.set_point_a_census(on);
        let log = run(&mut r, &stim, 20, false);
        let c = r.point_a_census();
        let lower = (c.accelerated_over_higher_won, c.accelerated_over_higher_lost, c.ordered_over_higher_won, c.ordered_over_higher_lost);
        match (acc, on) {
            (true, true) => {
                let exp = [(5, x[0]), (6, y[0]), (7, y[1]), (8, y[2]), (9, x[1]), (10, x[2]), (11, y[3]), (12, z[0]), (13, y[4]), (14, y[5])];
                assert_port(&log, 2, &exp);
                assert_eq!((c.candidates, c.accelerated), (11, 2));
                assert_eq!(lower, (2, 0, 0, 0));
            }
            (false, true) => {
                assert!(c.candidates > 0);
                assert_eq!((c.accelerated, lower), (0, (0, 0, 0, 0)));
            }
            _ => assert_eq!(c, crate::PointACensus::default()),
        }
    }
}

/// [`accel_cfg`] with the registered switch stage and 3-flit output
/// buffers (a VC streams one flit per cycle, §6).
fn accel_registered_cfg(acc: bool) -> RouterConfig {
    let text = accel_cfg(acc).to_toml().replace("output_buffer_depth = 2", "output_buffer_depth = 3");
    RouterConfig::from_toml_str(&text.replace("[router]\n", "[router]\nswitch_stage = \"registered\"\n"), "inline").unwrap()
}

/// §6 *Registered switch allocation in P mode*, *Acceleration* (§9.5 under
/// the registered stage). Input 0: Y (VC 1, class 1, real time, 6 flits: c0,
/// c1, c2, c4, c5, c8) and X (VC 0, class 0, best effort, 3 flits: c3, c6,
/// c7); input 1: Z (VC 0, class 1, 1 flit, c4); all to port 2. DO = 3.
/// Y: RV 1 -> output VC 0. SA grants Y.h 2, Y.b1 3, Y.b2 4 (each with a
/// flit behind the crossing one, `ob_count + pend < 3`). X: RV 4 -> VC 1.
/// c5: RV Z: no free VC of port 2, c* = 1, u = 0's owner Y has class 1, u
/// = 1's owner X class 0 -> acc[X] := 1 at the end of c5. SA c5 (acc[X] = 0
/// at the start of c5): X ready (X.h), Y ready (Y.b3 behind the crossing
/// Y.b2): real time beats best effort -> Y.b3.
/// c6: Y ready (Y.b4 behind Y.b3, `ob(2,0)` = 1 + 1 < 3), X accelerated and
/// ready -> X.h (the override wins over the real-time Y). c7 X.b1, c8 X.b2
/// (the tail is granted; Y ready and losing both times): acc[X] is still 1
/// at the start of c9 (cleared when the tail crosses, not at its grant).
/// c9: ST X.b2, X IDLE, output VC 1 freed, acc[X] := 0; RV Z fails again on
/// the start-of-cycle `allocated`, victim X again, but the clear wins (one
/// set in all). SA c9 Y.b4 (nothing behind X's crossing tail); c10 Y.b5;
/// RV Z -> VC 1; c11 SA Z (input 1). ST one cycle after SA; C (the only
/// eligible output VC every cycle) one cycle after ST: Y.h 4, Y.b1 5, Y.b2 6,
/// Y.b3 7, X.h 8, X.b1 9, X.b2 10, Y.b4 11, Y.b5 12, Z 13; on the link one
/// cycle later, Y's flits on output VC 0, X's and Z's on 1.
/// Without acceleration Y.b4 is granted in c6 and leaves before X.h.
#[test]
fn acceleration_under_registered_allocation() {
    for acc in [true, false] {
        let cfg = accel_registered_cfg(acc);
        let tags = Tags::new(&cfg).unwrap();
        let y = tags.message(1, 2, 1, 3, 1, 6, |k| k as u64);
        let x = tags.message(0, 2, 0, 255, 2, 3, |k| k as u64);
        let z = tags.message(0, 2, 1, 3, 3, 1, |k| k as u64);
        let input0 = [y[0], y[1], y[2], x[0], y[3], y[4], x[1], x[2], y[5]];
        let mut stim: Vec<_> = input0.iter().enumerate().map(|(c, &f)| (c as u64, 0, f)).collect();
        send(&mut stim, 1, &z, 4);
        if acc {
            // acc[X] at the start of cycle t, after t cycles
            let acc_x = |t: u64| {
                let mut r = Router::new(&cfg);
                let _ = run(&mut r, &stim, t, false);
                (r.lane_regs(0, 0).unwrap().acc, r.lane_regs(0, 1).unwrap().acc)
            };
            assert_eq!(acc_x(5), (false, false));
            assert_eq!(acc_x(6), (true, false), "acc[X] set at the end of cycle 5");
            assert_eq!(acc_x(9), (true, false), "acc[X] kept while its granted tail waits for ST");
            assert_eq!(acc_x(10), (false, false), "acc[X] cleared in its tail's ST cycle 9");
        }
        let mut r = Router::new(&cfg);
        let log = run(&mut r, &stim, 20, false);
        let (y, x, z) = (|k: usize| on_vc(y[k], 0), |k: usize| on_vc(x[k], 1), on_vc(z[0], 1));
        if acc {
            let exp = [(5, y(0)), (6, y(1)), (7, y(2)), (8, y(3)), (9, x(0)), (10, x(1)), (11, x(2)), (12, y(4)), (13, y(5)), (14, z)];
            assert_port(&log, 2, &exp);
            assert_eq!(r.stats().accelerations, 1);
            assert!(!r.lane_regs(0, 0).unwrap().acc);
        } else {
            let when = |f: LinkFlit| log.iter().position(|o| o.flits[2] == f).unwrap();
            assert!(when(x(0)) > when(y(4)));
            assert_eq!(r.stats().accelerations, 0);
        }
        assert_eq!(r.stats().preemptions, 0);
    }
}

/// §9.3 at point C of the full crossbar, round robin, b = 5.
/// Y: input 1 VC 0, 8 flits c0..c7; X: input 0 VC 0, 2 flits c1, c2; X':
/// input 0 VC 0, 5 flits c3..c7; all to port 2.
/// Y: RC 1, VA 2 -> VC 0; moves flit k in c3+k, at C from c4+k.
/// X: RC 2, VA 3 -> VC 1; moves c4, c5 (tail: VC 1 freed, input VC idle).
/// X': RC 6, VA 7 -> VC 1 (VC 0 held); moves c8..c12, at C from c9.
/// C: c4 Y.0 by the scheduler (slot 0, left 4); c5..c8 Y.1..Y.4 held
/// (left 3..0) although X waits; c9 round robin (ptr 1) -> X.0 (slot 1,
/// left 4); c10 X.1 held, a tail: left 0; c11 round robin (ptr 0) -> Y.5
/// although X'.0 is eligible (the tail ended the hold); c12 Y.6, c13 Y.7
/// (tail); c14 X'.0 (ptr 1), c15..c18 X'.1..X'.4 held. Outputs one cycle later.
/// Holds: c5..c8 (4), c10, c12, c13, c15..c18 (4) = 11.
#[test]
fn block_multiplexing_at_point_c_holds_five_flits_and_a_tail_ends_the_hold() {
    let cfg = inline(3, 2, "full", "round_robin", "block_size = 5\ndownstream_buffer_depth = 64\n");
    let tags = Tags::new(&cfg).unwrap();
    let y = tags.message(0, 2, 0, 0, 1, 8, |k| k as u64);
    let x = tags.message(0, 2, 0, 0, 2, 2, |k| k as u64);
    let x2 = tags.message(0, 2, 0, 0, 3, 5, |k| k as u64);
    let mut stim = Vec::new();
    send(&mut stim, 1, &y, 0);
    send(&mut stim, 0, &x, 1);
    send(&mut stim, 0, &x2, 3);
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 25, false);
    let mut exp = Vec::new();
    for k in 0..5 {
        exp.push((5 + k as u64, on_vc(y[k], 0)));
    }
    exp.push((10, on_vc(x[0], 1)));
    exp.push((11, on_vc(x[1], 1)));
    for k in 5..8 {
        exp.push((7 + k as u64, on_vc(y[k], 0)));
    }
    for k in 0..5 {
        exp.push((15 + k as u64, on_vc(x2[k], 1)));
    }
    assert_port(&log, 2, &exp);
    assert_eq!(r.stats().block_holds, 11);
}

/// §9.2, traditional mode, VC classes [2, 1, 0] (VC 0 control, VC 2 best effort).
/// Output 0: P1 (class 1, input 0 VC 0, c0): RC 1, VA 2 -> VC 1 (its class's
/// VC, not the lowest free VC 0), ST 3, out 5. P3 (class code 3 >= s = 3,
/// i.e. class 0; input 0 VC 1, c1): RC 2, VA 3 -> VC 2, ST 4, out 6.
/// Output 2: W0 (class 0, input 1 VC 0, i = 3; header c0, tail c10): VA 2 ->
/// VC 2 (va_ptr 4), out 5. R0 (class 0, input 1 VC 1, i = 4, c1) and R1
/// (class 2, input 2 VC 0, i = 6, c1) request from c3: from va_ptr = 4 the
/// round robin reaches i = 4 first, but class 0 has no free VC, so R1 (i =
/// 6) gets VC 0 in c3 (ST 4, out 6). W0's tail: ST 11 (VC 2 free from c12),
/// out 13; R0: VA 12 -> VC 2, ST 13, out 15.
#[test]
fn static_partition_in_va() {
    let cfg = inline(3, 3, "multiplexed", "fifo", "mode = \"traditional\"\nvc_classes = [2, 1, 0]\n");
    let tags = Tags::new(&cfg).unwrap();
    let p1 = tags.message(0, 0, 1, 0, 1, 1, |_| 0);
    let p3 = tags.message(1, 0, 3, 0, 2, 1, |_| 0);
    let w0 = tags.message(0, 2, 0, 0, 3, 2, |_| 0);
    let r0 = tags.message(1, 2, 0, 0, 4, 1, |_| 0);
    let r1 = tags.message(0, 2, 2, 0, 5, 1, |_| 0);
    let stim = vec![(0, 0, p1[0]), (1, 0, p3[0]), (0, 1, w0[0]), (10, 1, w0[1]), (1, 1, r0[0]), (1, 2, r1[0])];
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 20, false);
    assert_port(&log, 0, &[(5, on_vc(p1[0], 1)), (6, on_vc(p3[0], 2))]);
    assert_port(&log, 2, &[(5, on_vc(w0[0], 2)), (6, on_vc(r1[0], 0)), (13, on_vc(w0[1], 2)), (15, on_vc(r0[0], 2))]);
    assert_eq!(r.stats().partition_grants, [3, 1, 1, 0, 0, 0, 0, 0]);
}

/// §9.4 stage 3, the cap on output VCs held by best effort. 4 ports, 3 VCs,
/// s = 3, P mode, every message to port 3, immediate credits.
/// A (class 0, input 0) head at 0: RC 1, VA 2 -> VC 0, ST 3, C 4, out 5;
/// its tail is sent at 10: ST 11 frees VC 0 from 12, out 13.
/// B (class 0, input 1) head at 1: ROUTED from 3.
/// C (class 1, input 2) head at 2: ROUTED from 4.
/// With `best_effort_output_vcs = 1`: at 3 best effort holds VC 0 (1 = the
/// cap), so B is refused although VCs 1 and 2 are free; at 4 C (real time)
/// gets VC 1 (ST 5, out 7); at 12 VC 0 is free again, best effort holds none
/// and B gets VC 0, the lowest free (ST 13, out 15).
/// Without the cap: B gets VC 1 at 3 (out 6), C VC 2 at 4 (out 7).
/// With the cap at 2: as without it (best effort holds 1 < 2 at 3).
/// The router of the two cap tests below with `cap` (TOML lines) added.
fn cap_router_text(cap: &str) -> String {
    format!(
        "[router]\nports = 4\nvcs = 3\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 8\n\
         crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nclock_width = 8\nvtick_width = 8\n\
         mode = \"preemptive\"\n{cap}"
    )
}

#[test]
fn best_effort_is_refused_the_vc_beyond_its_cap() {
    let text = cap_router_text;
    let capped = cfg_of(&text("best_effort_output_vcs = 1\n"));
    let tags = Tags::new(&capped).unwrap();
    let a = tags.message(0, 3, 0, 255, 1, 2, |_| 0);
    let b = tags.message(0, 3, 0, 255, 2, 1, |_| 0);
    let c = tags.message(0, 3, 1, 5, 3, 1, |_| 0);
    let stim = vec![(0, 0, a[0]), (10, 0, a[1]), (1, 1, b[0]), (2, 2, c[0])];
    let mut r = Router::new(&capped);
    let log = run(&mut r, &stim, 20, true);
    assert_port(&log, 3, &[(5, a[0]), (7, on_vc(c[0], 1)), (13, a[1]), (15, b[0])]);
    for cfg in [cfg_of(&text("")), cfg_of(&text("best_effort_output_vcs = 2\n"))] {
        let log = run(&mut Router::new(&cfg), &stim, 20, true);
        assert_port(&log, 3, &[(5, a[0]), (6, on_vc(b[0], 1)), (7, on_vc(c[0], 2)), (13, a[1])]);
    }
}

/// §9.4 stage 3, *Real-time cap*: the same router and timing as
/// `best_effort_is_refused_the_vc_beyond_its_cap` with the classes of the
/// messages swapped. A (class 1, input 0) head at 0: RC 1, VA 2 -> VC 0,
/// ST 3, C 4, out 5; its tail is sent at 10: ST 11 frees VC 0 from 12,
/// out 13. B (class 1, input 1) head at 1: ROUTED from 3. C (class 0,
/// input 2) head at 2: ROUTED from 4.
/// With `realtime_output_vcs = 1`: at 3 real time holds VC 0 (1 = the cap),
/// so B is refused although VCs 1 and 2 are free; at 4 C (best effort) gets
/// VC 1 (ST 5, out 7); at 12 VC 0 is free again, real time holds none and B
/// gets VC 0, the lowest free (ST 13, out 15).
/// Without the cap, with the cap at 2, and with the best-effort cap at 1
/// instead (best effort holds nothing at 3 or 4): B gets VC 1 at 3 (out 6),
/// C VC 2 at 4 (out 7).
/// D (class 2, control, on input 1 in B's place) is refused by neither cap.
#[test]
fn real_time_is_refused_the_vc_beyond_its_cap() {
    let text = cap_router_text;
    let capped = cfg_of(&text("realtime_output_vcs = 1\n"));
    let tags = Tags::new(&capped).unwrap();
    let a = tags.message(0, 3, 1, 5, 1, 2, |_| 0);
    let b = tags.message(0, 3, 1, 5, 2, 1, |_| 0);
    let c = tags.message(0, 3, 0, 255, 3, 1, |_| 0);
    let stim = vec![(0, 0, a[0]), (10, 0, a[1]), (1, 1, b[0]), (2, 2, c[0])];
    let mut r = Router::new(&capped);
    let log = run(&mut r, &stim, 20, true);
    assert_port(&log, 3, &[(5, a[0]), (7, on_vc(c[0], 1)), (13, a[1]), (15, b[0])]);
    for cap in ["", "realtime_output_vcs = 2\n", "best_effort_output_vcs = 1\n"] {
        let log = run(&mut Router::new(&cfg_of(&text(cap))), &stim, 20, true);
        assert_port(&log, 3, &[(5, a[0]), (6, on_vc(b[0], 1)), (7, on_vc(c[0], 2)), (13, a[1])]);
    }
    // Control: D (class 2) replaces B, with both caps at 1. At 3 real time
    // is at its cap (A on VC 0), where B was refused; D, ROUTED from 3, gets
    // VC 1 (out 6). At 4 best effort holds none (< 1): C gets VC 2 (out 7).
    let both = cfg_of(&text("realtime_output_vcs = 1\nbest_effort_output_vcs = 1\n"));
    let d = tags.message(0, 3, 2, 5, 4, 1, |_| 0);
    let stim = vec![(0, 0, a[0]), (10, 0, a[1]), (1, 1, d[0]), (2, 2, c[0])];
    let log = run(&mut Router::new(&both), &stim, 20, true);
    assert_port(&log, 3, &[(5, a[0]), (6, on_vc(d[0], 1)), (7, on_vc(c[0], 2)), (13, a[1])]);
}

/// §6 stage 3 with route_vcs: a header waits for a VC of its allowed set
/// although another VC of its port is free. Destination 0 may only use
/// output VC 1 (mask 2). Port 1 sends a head at cycle 0 and its tail at
/// cycle 10 to destination 0: VA at 2 gives VC 1, out at 5; the tail crosses
/// at 11, so VC 1 is free for VA from 12. Port 2's one-flit message to
/// destination 0 (sent at cycle 1, ROUTED from 3) is granted VC 1 only at 12
/// and leaves at 15; without the set it would take VC 0 at 3 and leave at 6.
#[test]
fn route_vcs_restrict_va() {
    let cfg = inline(3, 2, "multiplexed", "round_robin", "[topology]\nkind = \"single_switch\"\nroute_vcs = [2, 3, 3]\n");
    let fl = |head: bool, tail: bool, data: u64| LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head, tail, data: [data, 0, 0, 0] };
    let (h, t, one) = (fl(true, false, 0), fl(false, true, 0x5a00), fl(true, true, 0x3300));
    let stim = vec![(0, 1, h), (10, 1, t), (1, 2, one)];
    let log = run(&mut Router::new(&cfg), &stim, 20, true);
    assert_port(&log, 0, &[(5, on_vc(h, 1)), (13, on_vc(t, 1)), (15, on_vc(one, 1))]);
    let plain = inline(3, 2, "multiplexed", "round_robin", "");
    let log = run(&mut Router::new(&plain), &stim, 20, true);
    assert_port(&log, 0, &[(5, on_vc(h, 0)), (6, on_vc(one, 1)), (13, on_vc(t, 0))]);
}

/// §2 parallel links: destinations 1 and 2 may leave on port 1 or 2. Port
/// 0 sends a head to 1 at cycle 0 (RC at 1: both ports have 2 free VCs, the
/// tie goes to port 1; VA at 2: VC 0); port 3 a head to 2 at cycle 1 (RC at
/// 2 still sees 2 and 2, since the grant of cycle 2 counts from 3: port 1,
/// VC 1 at VA 3); port 0 on VC 1 a head to 1 at cycle 2 (RC at 3: port 1
/// has 1 free VC, port 2 has 2: port 2, VA at 4, out at 7). Without the
/// table the third header would wait for port 1 forever.
#[test]
fn parallel_links_pick_the_port_with_most_free_vcs() {
    let net = "[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3]\n";
    let cfg = inline(4, 2, "multiplexed", "round_robin", &format!("{net}route_links = [1, 2, 2, 1]\n"));
    let head = |vc: u8, data: u64| LinkFlit { lane: 0, valid: true, dummy: false, vc, head: true, tail: false, data: [data, 0, 0, 0] };
    let (a, b, c) = (head(0, 0x101), head(0, 0x202), head(1, 0x301));
    let stim = vec![(0, 0, a), (1, 3, b), (2, 0, c)];
    let log = run(&mut Router::new(&cfg), &stim, 15, true);
    assert_port(&log, 1, &[(5, on_vc(a, 0)), (6, on_vc(b, 1))]);
    assert_port(&log, 2, &[(7, on_vc(c, 0))]);
    let plain = inline(4, 2, "multiplexed", "round_robin", net);
    let log = run(&mut Router::new(&plain), &stim, 15, true);
    assert_port(&log, 1, &[(5, on_vc(a, 0)), (6, on_vc(b, 1))]);
    assert_port(&log, 2, &[]);
}

// ------------------------------------------------------------------ endpoint

#[test]
fn tags_encode_decode_and_need_eight_id_bits() {
    let cfg = small_p();
    let t = Tags::new(&cfg).unwrap();
    // HW = 11, IDW = min(32, 32 - 11, 32 - 16) = 16.
    assert_eq!(t.id_width(), 16);
    let mut d = [0u64; 4];
    t.set_header_id(&mut d, 0x1_2345);
    assert_eq!(d[0], 0x2345 << 11);
    assert_eq!(t.header_id(&d), 0x2345);
    let mut d = [0u64; 4];
    t.set_flit_tag(&mut d, 0x1_0003, 0xbeef);
    assert_eq!(d[0], 0xbeef << 16 | 3);
    assert_eq!(t.flit_tag(&d), (3, 0xbeef));
    // W = 16, HW = 1 + 1 + 8 = 10: IDW = min(32, 6, 0) = 0 < 8.
    let narrow = cfg_of(
        "[router]\nports = 2\nvcs = 1\nflit_width = 16\nvtick_width = 8\nclock_width = 8\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n",
    );
    let e = Tags::new(&narrow).unwrap_err();
    assert_eq!(e, crate::endpoint::TagError::IdTooNarrow { flit_width: 16, header_width: 10, id_width: 0 });
    assert!(e.to_string().contains("IDW"), "{e}");
    assert!(Reassembler::new(&narrow).is_err());
}

fn lf(vc: u8, head: bool, tail: bool, dummy: bool, data: [u64; 4]) -> LinkFlit {
    LinkFlit { lane: 0, valid: true, vc, head, tail, dummy, data }
}

#[test]
fn reassembler_in_order_and_out_of_order_parts() {
    let cfg = small_p();
    let t = Tags::new(&cfg).unwrap();
    let mut re = Reassembler::new(&cfg).unwrap();
    // A whole message in one part (the non-preemptive case).
    let m = t.message(3, 1, 0, 5, 42, 3, |k| 7 * k as u64);
    assert_eq!(re.push(1, &m[0]).unwrap(), None);
    assert_eq!(re.push(1, &LinkFlit::IDLE).unwrap(), None);
    assert_eq!(re.push(1, &m[1]).unwrap(), None);
    let got = re.push(1, &m[2]).unwrap().unwrap();
    assert_eq!((got.port, got.id, got.parts, got.header), (1, 42, 1, m[0].data));
    assert_eq!(got.flits, vec![m[1].data, m[2].data]);
    // A one-flit message.
    let one = t.message(0, 1, 0, 5, 43, 1, |_| 9);
    assert_eq!(re.push(0, &one[0]).unwrap().unwrap().flits, Vec::<[u64; 4]>::new());
    // Message 7 (6 flits) in three parts, arriving last part first, on
    // different VCs, with message 8 in between and a dummy-only part.
    let m7 = t.message(0, 1, 0, 5, 7, 6, |k| 100 + k as u64);
    let m8 = t.message(0, 1, 2, 5, 8, 2, |k| 200 + k as u64);
    let dh = lf(0, true, false, true, [1, 0, 0, 0]);
    let dt = lf(0, false, true, true, [0; 4]);
    let on = |f: LinkFlit, vc: u8| LinkFlit { vc, ..f };
    let seq = [
        (on(dh, 1), None),
        (on(m7[4], 1), None),
        (on(m7[5], 1), None), // the real tail: K = 5, but 0..=3 missing
        (on(m8[0], 0), None),
        (on(dh, 2), None),
        (on(dt, 2), None), // a part without a non-dummy flit: discarded
        (on(m7[0], 2), None),
        (on(m7[1], 2), None),
        (on(dt, 2), None),
        (on(m8[1], 0), Some(8)),
        (on(dh, 0), None),
        (on(m7[2], 0), None),
        (on(m7[3], 0), Some(7)),
    ];
    // m7[3] is not a tail on the link; the part is left open and closed by a dummy tail.
    let mut done = Vec::new();
    for (f, want) in seq {
        let got = re.push(2, &f).unwrap();
        assert_eq!(got.as_ref().map(|m| m.id), want);
        done.extend(got);
    }
    re.push(2, &on(dt, 0)).unwrap();
    let g7 = &done[1];
    assert_eq!((g7.parts, g7.header), (3, m7[0].data));
    assert_eq!(g7.flits, m7[1..].iter().map(|f| f.data).collect::<Vec<_>>());
    assert_eq!(re.discarded_parts(), 1);
    assert_eq!((re.incomplete(), re.open_parts()), (0, 0));
}

#[test]
fn reassembler_reports_errors() {
    use crate::endpoint::ReassemblyError as E;
    let cfg = small_p();
    let t = Tags::new(&cfg).unwrap();
    let m = t.message(0, 1, 0, 5, 9, 5, |k| k as u64);
    let dh = lf(0, true, false, true, [1, 0, 0, 0]);
    let dt = lf(0, false, true, true, [0; 4]);
    let fresh = || Reassembler::new(&cfg).unwrap();
    // Gap inside a part: header then index 2.
    let mut re = fresh();
    re.push(0, &m[0]).unwrap();
    assert_eq!(re.push(0, &m[2]), Err(E::Gap { port: 0, vc: 0, id: 9, expected: 1, got: 2 }));
    // Gap inside a dummy-header part: 2 then 4.
    let mut re = fresh();
    re.push(0, &dh).unwrap();
    re.push(0, &m[2]).unwrap();
    assert_eq!(re.push(0, &m[4]), Err(E::Gap { port: 0, vc: 0, id: 9, expected: 3, got: 4 }));
    // Duplicate index across parts.
    let mut re = fresh();
    for f in [m[0], m[1], dt, dh] {
        re.push(0, &f).unwrap();
    }
    assert_eq!(re.push(0, &m[1]), Err(E::DuplicateIndex { port: 0, id: 9, index: 1 }));
    // A flit of a completed message.
    let mut re = fresh();
    for f in &m {
        re.push(0, f).unwrap();
    }
    re.push(0, &dh).unwrap();
    assert_eq!(re.push(0, &m[3]), Err(E::AfterCompletion { port: 0, id: 9, index: 3 }));
    // Head inside an open part, body without one.
    let mut re = fresh();
    re.push(0, &m[0]).unwrap();
    assert_eq!(re.push(0, &dh), Err(E::HeadInOpenPart { port: 0, vc: 0 }));
    assert_eq!(fresh().push(1, &m[1]), Err(E::NoOpenPart { port: 1, vc: 0 }));
    // Two ids in one part (a flit of another message).
    let other = t.message(0, 1, 0, 5, 10, 3, |k| k as u64);
    let mut re = fresh();
    re.push(0, &m[0]).unwrap();
    assert_eq!(re.push(0, &other[1]), Err(E::MixedIds { port: 0, vc: 0, part_id: 9, id: 10 }));
    // A dummy part with an id nobody sent stays incomplete; an index beyond the tail.
    let mut re = fresh();
    for f in [dh, other[2]] {
        re.push(0, &f).unwrap();
    }
    assert_eq!(re.incomplete(), 1);
    re.push(0, &dh).unwrap();
    assert_eq!(
        re.push(0, &lf(0, false, false, false, t.flit_data(3, 10, 0))),
        Err(E::BeyondTail { port: 0, id: 10, index: 3, tail: 2 })
    );
    // A dummy flit that is neither head nor tail.
    let mut re = fresh();
    re.push(0, &m[0]).unwrap();
    assert_eq!(re.push(0, &lf(0, false, false, true, [0; 4])), Err(E::BadDummy { port: 0, vc: 0 }));
    // A second real header of an id in flight.
    let mut re = fresh();
    re.push(0, &m[0]).unwrap();
    assert_eq!(re.push(0, &LinkFlit { vc: 1, ..m[0] }), Err(E::DuplicateHeader { port: 0, id: 9 }));
}

/// The general engine in the non-preemptive modes and with block sizes > 1:
/// random tagged traffic, every message reassembled (one part each).
#[test]
fn random_traffic_in_the_other_qos_modes_is_reassembled() {
    let base = "[router]\nports = 4\nvcs = 4\nflit_width = 40\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n";
    let cfgs = [
        example("mw8_tr"),
        example("mw8_np"),
        cfg_of(&format!("{base}crossbar = \"full\"\nscheduler = \"fifo\"\nmode = \"traditional\"\nvc_classes = [2, 1, 0, 0]\nblock_size = 3\n")),
        cfg_of(&format!("{base}crossbar = \"full\"\nscheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 2]\nblock_size = 2\n")),
        cfg_of(&format!("{base}crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_classes = [2, 1, 0, 0]\nblock_size = 4\n")),
        cfg_of(&format!("{base}crossbar = \"multiplexed\"\nscheduler = \"round_robin\"\nblock_size = 5\n")),
        cfg_of(&format!("{base}crossbar = \"multiplexed\"\nscheduler = \"fifo\"\nblock_size = 64\n")),
        cfg_of(&format!("{base}crossbar = \"full\"\nscheduler = \"virtualclock\"\nblock_size = 2\n")),
    ];
    for cfg in &cfgs {
        let mut holds = 0;
        let mut grants = [0u64; 8];
        for seed in 1..=2 {
            let st = random_p_run(cfg, seed, 2000, 30, false);
            assert_eq!(st.preemptions + st.dummy_headers + st.silent_preemptions, 0);
            holds += st.block_holds;
            for c in 0..8 {
                grants[c] += st.partition_grants[c];
            }
        }
        if cfg.block_size() > 1 {
            assert!(holds > 0, "{}", cfg.name());
        }
        if cfg.vc_classes().is_some() {
            assert!(grants[..3].iter().all(|&g| g > 0), "{}: {grants:?}", cfg.name());
        }
    }
}

/// Speed of the two engines (run with --ignored --nocapture).
#[test]
#[ignore]
fn engine_speed() {
    for (name, load) in
        [("mediaworm8", 30u64), ("mw8_p", 30), ("mw8_pa", 30), ("mw8_np", 30), ("mediaworm8", 0), ("mw8_p", 0)]
    {
        let cfg = example(name);
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = Rng(7);
        let t0 = std::time::Instant::now();
        let n = 200_000;
        for _ in 0..n {
            if load > 0 {
                random_inputs(&mut rng, &cfg, &mut inp);
            }
            r.step(&inp);
        }
        let dt = t0.elapsed().as_secs_f64();
        eprintln!("{name} load {load}: {:.0} ns/cycle", dt * 1e9 / n as f64);
    }
}

/// §9.3 at point A (multiplexed crossbar, round robin), b = 3. Input 0 link:
/// c0 X.h (VC 0, to port 1), c1 Y.h (VC 1, to port 2), then alternating
/// c2 X.1, c3 Y.1, c4 X.2, c5 Y.2, c6 X.3, c7 Y.3 (tail), c8 X.4 (tail).
/// X: RC 1, VA 2; Y: RC 2, VA 3. A of port 0:
/// c3 X.h (scheduler, xa_ptr 0; slot 0, left 2); c4 X.1 and c5 X.2 held
/// although Y is ready (left 1, 0); c6 round robin from xa_ptr 1 -> Y.h (slot
/// 1, left 2); c7 Y.1, c8 Y.2 held (X.3 waits); c9 round robin from 0 -> X.3;
/// c10 X.4 held, a tail (left 0); c11 Y.3. Different output ports: each flit
/// leaves 2 cycles after its ST. Holds: c4, c5, c7, c8, c10.
#[test]
fn block_multiplexing_at_point_a() {
    let cfg = inline(3, 2, "multiplexed", "round_robin", "block_size = 3\ndownstream_buffer_depth = 64\n");
    let tags = Tags::new(&cfg).unwrap();
    let x = tags.message(0, 1, 0, 0, 1, 5, |k| k as u64);
    let y = tags.message(1, 2, 0, 0, 2, 4, |k| k as u64);
    let order = [x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4]];
    let stim: Vec<_> = order.iter().enumerate().map(|(c, f)| (c as u64, 0, *f)).collect();
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 20, false);
    assert_port(&log, 1, &[(5, x[0]), (6, x[1]), (7, x[2]), (11, x[3]), (12, x[4])]);
    // Y is alone at port 2: output VC 0.
    assert_port(&log, 2, &[(8, on_vc(y[0], 0)), (9, on_vc(y[1], 0)), (10, on_vc(y[2], 0)), (13, on_vc(y[3], 0))]);
    assert_eq!(r.stats().block_holds, 5);
}

#[test]
fn reset_of_the_general_engine_equals_a_new_router() {
    for cfg in [example("small_p"), example("mw8_tr"), accel_cfg(true)] {
        let fresh = Router::new(&cfg);
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = Rng(99);
        for _ in 0..500 {
            random_inputs(&mut rng, &cfg, &mut inp);
            r.step(&inp);
        }
        assert!(r.buffered_flits() > 0);
        r.reset();
        assert_eq!(r, fresh, "{}", cfg.name());
        assert!(r.is_quiescent());
    }
}

/// Protocol violations (random head/tail/dummy bits, full lanes) must not
/// break the model: no panic, and the conservation laws still hold.
#[test]
fn garbage_input_in_preemptive_mode_does_not_panic() {
    for cfg in [example("small_p"), accel_cfg(true), example("mw8_pa")] {
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = Rng(5);
        let mut credit_pulses = 0u64;
        for t in 0..20_000u64 {
            random_inputs(&mut rng, &cfg, &mut inp);
            for f in inp.flits.iter_mut() {
                f.dummy = f.valid && rng.next() % 4 == 0;
            }
            if (t / 500) % 3 == 2 {
                inp.flits.fill(LinkFlit::IDLE);
                inp.credits.fill(u32::MAX);
            }
            r.step(&inp);
            credit_pulses += r.outputs().credits.iter().map(|c| c.count_ones() as u64).sum::<u64>();
            let s = r.stats();
            let lanes: usize = (0..cfg.ports())
                .flat_map(|p| (0..cfg.vcs()).map(move |v| (p, v)))
                .map(|(p, v)| r.input_occupancy(p, v))
                .sum();
            assert_eq!(s.flits_accepted, s.crossbar_moves + lanes as u64);
            assert_eq!(s.crossbar_moves, credit_pulses);
        }
        assert!(r.stats().preemptions > 0, "{}: {:?}", cfg.name(), r.stats());
    }
}

/// Incoming dummy flits are ordinary flits that keep their dummy bit.
/// Input 0 (small_p): c0 A.h (class 0, vtick 5), c1 A.1, c2 dummy tail (the
/// source suspends A), c3 B (class 2, 1 flit), c4 dummy header (A's fields and
/// a marker bit 20), c5 A.2 (tail).
/// A: RC 1, VA 2, ST A.h 3. B at c3: lane 0 not idle, lmax[0] = 0 < 2 ->
/// lane 1. c4: sl < top, A ACTIVE and sent -> this router's dummy tail (ob
/// holds A.h: 1 < 2), push A, susp[0], sl 1. The incoming dummy header (c4,
/// class 0) and A.2 (c5) queue in lane 0 behind A.1 and the incoming dummy
/// tail. B: RC 5, VA 6, ST 7; c8 lane release. c9 RC from the stack (A), VA
/// 10, ST: c11 our dummy header, c12 A.1, c13 the incoming dummy tail (a
/// tail: VC freed). c14 RC on the incoming dummy header (its destination),
/// VA 15, ST c16 the incoming dummy header, c17 A.2. Each flit leaves 2
/// cycles after its ST.
#[test]
fn incoming_dummy_flits_are_forwarded_with_their_dummy_bit() {
    let cfg = small_p();
    let tags = Tags::new(&cfg).unwrap();
    let a = tags.message(0, 1, 0, 5, 1, 3, |_| 0);
    let b = tags.message(0, 1, 2, 5, 2, 1, |_| 0);
    let mut dh_in = dummy_head(&cfg, 1, 0, 5);
    dh_in.data[0] |= 1 << 20;
    let stim = vec![(0, 0, a[0]), (1, 0, a[1]), (2, 0, DUMMY_TAIL), (3, 0, b[0]), (4, 0, dh_in), (5, 0, a[2])];
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 25, false);
    let exp = [
        (5, a[0]),
        (6, DUMMY_TAIL),
        (9, b[0]),
        (13, dummy_head(&cfg, 1, 0, 5)),
        (14, a[1]),
        (15, DUMMY_TAIL),
        (18, dh_in),
        (19, a[2]),
    ];
    assert_port(&log, 1, &exp);
    let st = r.stats();
    assert_eq!((st.preemptions, st.dummy_headers, st.tails_forwarded), (1, 1, 2));
    let mut re = Reassembler::new(&cfg).unwrap();
    let got: Vec<_> = log.iter().flat_map(|o| re.consume(o).unwrap()).collect();
    assert_eq!(got.iter().map(|m| (m.id, m.parts)).collect::<Vec<_>>(), vec![(2, 1), (1, 3)]);
}

/// Speed with protocol-respecting tagged traffic, reassembly included
/// (run with --ignored --nocapture).
#[test]
#[ignore]
fn engine_speed_tagged() {
    for name in ["mw8_p", "mw8_pa", "mw8_np", "small_p"] {
        let cfg = example(name);
        let t0 = std::time::Instant::now();
        let st = random_p_run(&cfg, 3, 20_000, 30, false);
        let dt = t0.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {:.0} ns per offered cycle, harness and drain included ({} flits)",
            dt * 1e9 / 20_000.0,
            st.flits_forwarded
        );
    }
}

/// Long random P-mode runs (run with --ignored).
#[test]
#[ignore]
fn random_preemptive_traffic_long() {
    let base = "[router]\nports = 3\nvcs = 2\nflit_width = 48\ninput_buffer_depth = 5\noutput_buffer_depth = 2\n\
                scheduler = \"virtualclock\"\nclock_width = 9\nvtick_width = 8\nmode = \"preemptive\"\n";
    let cfgs = [
        example("small_p"),
        example("mw8_pa"),
        cfg_of(&format!(
            "{base}crossbar = \"multiplexed\"\nblock_size = 3\nacceleration = true\ntraffic_classes = 8\n"
        )),
        cfg_of(&format!("{base}crossbar = \"full\"\nblock_size = 2\ntraffic_classes = 4\n")),
    ];
    for cfg in &cfgs {
        for seed in 10..16 {
            for load in [5, 10, 20] {
                let st = random_p_run(cfg, seed, 20_000, load, seed % 2 == 0);
                assert!(st.preemptions > 0);
            }
        }
    }
}

/// §9.3 step 4 with the VirtualClock at A (b = 2): a hold grant updates the
/// scheduler as if it had chosen the slot, and the passed-over slot keeps its
/// stamp. Input 0: X (VC 0, Vtick 4, to port 1) and Y (VC 1, Vtick 1, to
/// port 2), flits c0 X.h, c1 Y.h, c2 X.1, c3 Y.1, c4 X.2, c5 Y.2, c6 X.3
/// (tail), c7 Y.3 (tail). X: VA 2; Y: VA 3. A of port 0 (now = cycle):
/// c3 X alone: s0 = max(3, 0) + 4 = 7, X.h (slot 0, left 1), aux0 = 7.
/// c4 X: s0 = max(4, 7) + 4 = 11; Y: s1 = max(4, 0) + 1 = 5. The scheduler
///    would take Y, the hold takes X.1 (left 0): aux0 = 11, Y stamped 5, aux1 = 5.
/// c5 X: s0 = max(5, 11) + 4 = 15 (stamped); Y's kept stamp 5 wins: Y.h (slot 1, left 1).
/// c6 Y.1 (held; s1 = max(6, 5) + 1 = 7), c7 Y.2 (s1 = 8 < 15; left 1), c8 Y.3
/// (held, a tail), c9 X.2 (stamp 15), c10 X.3 (held). Out 2 cycles after ST.
#[test]
fn block_hold_with_the_virtualclock_at_a() {
    let cfg = cfg_of(
        "[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 8\n\
         downstream_buffer_depth = 64\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n\
         clock_width = 8\nvtick_width = 8\nblock_size = 2\n",
    );
    let tags = Tags::new(&cfg).unwrap();
    let x = tags.message(0, 1, 0, 4, 1, 4, |k| k as u64);
    let y = tags.message(1, 2, 0, 1, 2, 4, |k| k as u64);
    let order = [x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3]];
    let stim: Vec<_> = order.iter().enumerate().map(|(c, f)| (c as u64, 0, *f)).collect();
    let mut r = Router::new(&cfg);
    let _ = run(&mut r, &stim, 5, false);
    let vc = r.virtual_clock(0).unwrap();
    assert_eq!((vc.now(), vc.aux(0), vc.aux(1)), (5, 11, 5));
    assert_eq!((vc.stamped(0), vc.stamped(1), vc.stamp(1)), (false, true, 5));
    let mut r = Router::new(&cfg);
    let log = run(&mut r, &stim, 16, false);
    assert_port(&log, 1, &[(5, x[0]), (6, x[1]), (11, x[2]), (12, x[3])]);
    assert_port(&log, 2, &[(7, on_vc(y[0], 0)), (8, on_vc(y[1], 0)), (9, on_vc(y[2], 0)), (10, on_vc(y[3], 0))]);
    assert_eq!(r.stats().block_holds, 4);
}

/// Random preemptive configurations (ports, VCs, classes, depths, crossbar,
/// block size, acceleration): random tagged traffic is always reassembled.
#[test]
fn random_preemptive_configurations_reassemble() {
    let mut rng = Rng(0x5eed);
    let mut preemptions = 0;
    for k in 0..24 {
        let ports = 2 + rng.next() % 4;
        let vcs = 1 + rng.next() % 3;
        let s = 2 + rng.next() % 4;
        let di = 4 + rng.next() % 4;
        let dout = 2 + rng.next() % 3;
        let full = rng.next() % 3 == 0;
        let b = [1, 1, 2, 3, 8][(rng.next() % 5) as usize];
        let acc = !full && rng.next() % 2 == 0;
        let text = format!(
            "[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 48\ninput_buffer_depth = {di}\n\
             output_buffer_depth = {dout}\ncrossbar = \"{}\"\nscheduler = \"virtualclock\"\nclock_width = 8\n\
             vtick_width = 8\nmode = \"preemptive\"\ntraffic_classes = {s}\nblock_size = {b}\nacceleration = {acc}\n",
            if full { "full" } else { "multiplexed" }
        );
        let cfg = cfg_of(&text);
        let st = random_p_run(&cfg, k, 2000, 12 + rng.next() % 20, k % 2 == 1);
        preemptions += st.preemptions;
    }
    assert!(preemptions > 0);
}

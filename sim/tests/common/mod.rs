//! Stimulus and checks shared by the switch-stage tests
//! (`registered_switch.rs`, `split_switch.rs`) and the crate's unit tests
//! (`src/tests.rs` includes this file, so there is one `message`, `Stim` and
//! `run`).
#![allow(dead_code)]

use std::borrow::Borrow;
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs, RouterOutputs, Width};

/// The flits of one message of `len` flits on VC `vc` to `dest` (a tag and
/// the flit index above the destination field).
pub fn message(vc: u8, dest: u64, len: usize, tag: u64) -> Vec<LinkFlit> {
    (0..len)
        .map(|k| LinkFlit {
            lane: 0,
            valid: true,
            dummy: false,
            vc,
            head: k == 0,
            tail: k + 1 == len,
            data: [if k == 0 { dest } else { 0 } | tag << 20 | (k as u64) << 26, 0, 0, 0],
        })
        .collect()
}

/// Flits (cycle, input port, flit) and credits (cycle, output port, mask).
#[derive(Default)]
pub struct Stim {
    pub flits: Vec<(u64, usize, LinkFlit)>,
    pub credits: Vec<(u64, usize, u32)>,
}

impl Stim {
    /// Sends `msg` on input port `p`, flit k in the k-th of `cycles` (one
    /// cycle per flit, extra cycles unused; a link carries one flit per
    /// cycle).
    pub fn send<C: Borrow<u64>>(&mut self, p: usize, msg: &[LinkFlit], cycles: impl IntoIterator<Item = C>) {
        let cycles: Vec<u64> = cycles.into_iter().take(msg.len()).map(|c| *c.borrow()).collect();
        assert_eq!(msg.len(), cycles.len(), "one cycle per flit");
        for (f, &c) in msg.iter().zip(&cycles) {
            assert!(!self.flits.iter().any(|&(c2, p2, _)| c2 == c && p2 == p), "link busy");
            self.flits.push((c, p, *f));
        }
    }

    /// Returns the credits `mask` on output port `o` in `cycle`.
    pub fn credit(&mut self, cycle: u64, o: usize, mask: u32) {
        self.credits.push((cycle, o, mask));
    }
}

/// Runs `cycles` cycles from reset; element t of the result is the outputs
/// during cycle t (element 0 is the reset state), t = 0..=cycles.
pub fn run<X: Width>(r: &mut Router<X>, s: &Stim, cycles: u64) -> Vec<RouterOutputs> {
    let mut inp = RouterInputs::idle(r.config());
    let mut log = vec![r.outputs().clone()];
    for t in 0..cycles {
        inp.clear();
        for &(_, p, f) in s.flits.iter().filter(|x| x.0 == t) {
            inp.flits[p] = f;
        }
        for &(_, o, m) in s.credits.iter().filter(|x| x.0 == t) {
            inp.credits[o] |= m;
        }
        r.step(&inp);
        assert_eq!(r.cycle(), t + 1);
        log.push(r.outputs().clone());
    }
    log
}

/// Output port `o` carries exactly `want` (cycle, flit on output VC `u`)
/// and is idle in every other cycle of the log.
pub fn assert_port(log: &[RouterOutputs], o: usize, want: &[(u64, LinkFlit, u8)]) {
    for (t, out) in log.iter().enumerate() {
        let w = want.iter().find(|x| x.0 == t as u64).map(|&(_, f, u)| LinkFlit { vc: u, ..f }).unwrap_or(LinkFlit::IDLE);
        assert_eq!(out.flits[o], w, "output port {o}, cycle {t}");
    }
}

/// One VC streaming `len` flits on VC 0 from input 0 to port 4 for 120
/// cycles: the sender starts with `credits` and sends a flit in every cycle
/// it has one; a credit on `in_credit` in cycle t is usable from cycle
/// t + `lag` (1: counted at the end of t; 2: a neighbour router, whose
/// point C picks in t+1 and whose flit is on the link in t+2). The sink
/// returns each credit in the cycle its flit is on the link. Returns the
/// cycles port 4 carries a flit (no flit may be dropped).
pub fn stream(cfg: &RouterConfig, len: usize, credits: u32, lag: u64) -> Vec<u64> {
    let mut r = Router::new(cfg);
    let msg = message(0, 4, len, 3);
    let mut inp = RouterInputs::idle(cfg);
    let (mut credits, mut sent, mut out_cycles) = (credits, 0usize, vec![]);
    let mut arriving: Vec<u64> = vec![];
    for t in 0..120u64 {
        credits += arriving.iter().filter(|&&c| c == t).count() as u32;
        if r.outputs().credits[0] & 1 == 1 {
            arriving.push(t + lag);
        }
        inp.clear();
        if sent < len && credits > 0 {
            inp.flits[0] = msg[sent];
            sent += 1;
            credits -= 1;
        }
        if r.outputs().flits[4].valid {
            out_cycles.push(t);
            inp.credits[4] = 1;
        }
        r.step(&inp);
    }
    assert_eq!(r.stats().flits_dropped(), 0);
    out_cycles
}

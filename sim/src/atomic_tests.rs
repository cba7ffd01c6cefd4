//! `router.vc_reallocation` (docs/microarchitecture.md §6 stage 3,
//! *Output-VC reallocation*). Every expected cycle is derived by hand from
//! the spec in the comments, never by running the model.

use crate::{LinkFlit, Router, RouterInputs};
use wormqos_config::RouterConfig;

/// 2 ports, 1 VC, multiplexed crossbar, round robin, buffers of 8 (DD = 8).
fn two_port(reallocation: &str) -> RouterConfig {
    let text = format!(
        "name = \"t\"\n[router]\nports = 2\nvcs = 1\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n\
         vc_reallocation = \"{reallocation}\"\n"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

fn flit(head: bool, tail: bool, tag: u64) -> LinkFlit {
    LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head, tail, data: [1 | tag << 8, 0, 0, 0] }
}

/// Message A (head in cycle 0, tail in cycle 1) and message B's head (cycle
/// 2), all on input 0, VC 0, to destination 1; output 1 returns a credit in
/// each cycle of `credits`. Returns the cycle in which B's head is on
/// output 1 (if within 40 cycles) and, per cycle t, (allocated, draining)
/// of output VC (1, 0) at the start of cycle t.
fn run(reallocation: &str, credits: &[u64]) -> (Option<u64>, Vec<(bool, bool)>) {
    let mut r = Router::new(&two_port(reallocation));
    let mut inp = RouterInputs::idle(r.config());
    let (mut b_out, mut state) = (None, vec![]);
    for t in 0..40u64 {
        state.push((r.allocated(1, 0), r.draining(1, 0)));
        let out = r.outputs().flits[1];
        if out.valid && out.head && out.data[0] >> 8 == 2 {
            b_out.get_or_insert(t);
        }
        inp.clear();
        inp.flits[0] = match t {
            0 => flit(true, false, 1),
            1 => flit(false, true, 1),
            2 => flit(true, false, 2),
            _ => LinkFlit::IDLE,
        };
        if credits.contains(&t) {
            inp.credits[1] = 1;
        }
        r.step(&inp);
    }
    (b_out, state)
}

/// A's head: BW 0, RC 1, VA 2, ST 3, C 4, on the link in 5; its tail: ST 4,
/// C 5, link 6. The tail crossing in cycle 4 frees the input VC and, with
/// `tail_crossed`, the output VC (free from 5). B's head, written in 2,
/// reaches the front when the tail leaves (end of 4): RC 5, VA 6, ST 7, C 8
/// (2 credits of 8 used), on the link in 9 — no credit needed back.
#[test]
fn tail_crossed_reallocates_in_the_cycle_after_the_tail_crosses() {
    let (b, state) = run("tail_crossed", &[]);
    assert_eq!(b, Some(9));
    assert_eq!(state[4], (true, false), "held until the tail crosses");
    assert_eq!(state[5], (false, false), "free from the cycle after");
    assert!(state.iter().all(|s| !s.1), "never draining");
}

/// With `atomic` the tail's crossing (cycle 4) starts the drain: the VC
/// stays allocated. The output buffer is empty from cycle 6 (tail on the
/// link), credits 6 of 8; returned in cycles 10 and 12 they read 8 from
/// 13, the VC is released at the end of 13, B's head (ROUTED since 5) is
/// granted in VA 14, ST 15, C 16, on the link in 17.
#[test]
fn atomic_reallocates_the_cycle_after_the_last_credit_is_back() {
    let (b, state) = run("atomic", &[10, 12]);
    assert_eq!(b, Some(17));
    assert_eq!(state[4], (true, false));
    for (t, s) in state.iter().enumerate().take(14).skip(5) {
        assert_eq!(*s, (true, true), "draining at the start of cycle {t}");
    }
    assert_eq!(state[14], (false, false), "released at the end of 13");
    assert_eq!(state[15], (true, false), "B's grant in 14");
}

/// An empty output buffer is not enough: with one of the two credits never
/// returned the VC never drains, and B waits.
#[test]
fn atomic_waits_for_every_credit() {
    let (b, state) = run("atomic", &[10]);
    assert_eq!(b, None);
    assert_eq!(state[39], (true, true));
    // Both credits in one cycle is impossible (one bit per VC); back to
    // back in 6 and 7 (the earliest after the tail is sent in 5): full from
    // 8, released at the end of 8, VA 9, ST 10, C 11, link 12.
    assert_eq!(run("atomic", &[6, 7]).0, Some(12));
}

//! Split switch allocation (docs/microarchitecture.md §6, "Split switch
//! allocation", `router.switch_stage = "split"`): six stages, point A's pick
//! registered per input port (SA-A), point B over the registered candidates
//! (SA-B), the crossbar in the next cycle (ST). The RTL alone against the
//! spec's cycle counts and the conservation scoreboard; the RTL in lockstep
//! with the golden model on every split example (random traffic with
//! backpressure); each planted bug of the split stage caught by the
//! comparison, and the one that breaks an invariant of §6 ("Why a candidate
//! is always valid") also by the RTL's own checks (§12).

mod common;

use common::staged::{check_latency_and_streaming, lockstep_clean, mutant_mismatch, opts, rtl_alone_clean, staged_example};
use common::*;
use wormqos_config::{RouterConfig, SwitchStage};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_single, LockstepError, LockstepOptions};

const CYCLES: u64 = 30_000;

/// The split examples, each with a seed: 2 ports 1 VC round robin (DO = 2);
/// 5-port TR `fifo`, 4 VCs, DO = 4; 4-port NP VirtualClock with 10-bit
/// counters and blocks of 3, DO = 3.
const EXAMPLES: [(&str, u64); 3] = [("tiny2_split", 41), ("tr5_split", 42), ("np4_split", 43)];

fn split(name: &str) -> RouterConfig {
    staged_example(name, SwitchStage::Split)
}

/// The RTL alone: every flit delivered once, in order, to the routed port,
/// the router drains, and no RTL check fails (a candidate finds its VC
/// ACTIVE and its flit, the registered grant its flit and room, nothing is
/// picked behind a tail in flight).
#[test]
fn rtl_alone_conserves_every_flit_drains_and_passes_its_checks() {
    for (name, seed) in EXAMPLES {
        rtl_alone_clean(&split(name), seed, CYCLES);
    }
}

/// §6 *Split switch allocation*, *Consequences*, derived there by hand:
/// the header is written at the end of cycle 0, RV in 1, SA-A in 2, SA-B in
/// 3, ST in 4, picked at C in 5, on the link in 6 = P with P = 6; a stream
/// needs room in the output VC buffer for the flit in it, the crossing one
/// and the candidate at B, so with DO >= 4 flit k leaves in 6 + k; with
/// DO = 3 three flits in every four cycles, flit k in 6 + k + floor(k/3)
/// (A picks flits 0, 1, 2 in cycles 2, 3, 4, nothing in 5 when the buffer
/// holds one, one crosses and one is at B); with DO = 2 one in every two,
/// flit k in 6 + k + 2*floor(k/2). The sender here spends a credit in the
/// cycle after it sees it, so DI = 4 does not limit the stream (§6: one slot
/// serves a flit every four cycles).
fn expected_departure(cfg: &RouterConfig, k: u64) -> u64 {
    match cfg.output_buffer_depth() {
        2 => 6 + k + 2 * (k / 2),
        3 => 6 + k + k / 3,
        _ => 6 + k,
    }
}

#[test]
fn rtl_latency_is_p_minus_1_plus_m_with_p_6_and_streams_as_the_spec_says() {
    for (name, _) in EXAMPLES {
        let cfg = split(name);
        check_latency_and_streaming(&mut rtl(&cfg, None), &cfg, expected_departure);
    }
}

#[test]
fn model_latency_is_p_minus_1_plus_m_with_p_6_and_streams_as_the_spec_says() {
    for (name, _) in EXAMPLES {
        let cfg = split(name);
        check_latency_and_streaming(&mut Router::new(&cfg), &cfg, expected_departure);
    }
}

fn lockstep(name: &str, seed: u64) {
    lockstep_clean(&split(name), seed, CYCLES);
}

#[test]
fn lockstep_tiny2_split() {
    lockstep(EXAMPLES[0].0, EXAMPLES[0].1);
}
#[test]
fn lockstep_tr5_split() {
    lockstep(EXAMPLES[1].0, EXAMPLES[1].1);
}
#[test]
fn lockstep_np4_split() {
    lockstep(EXAMPLES[2].0, EXAMPLES[2].1);
}

/// `np4_split` with blocks of 1 flit, the form of `b5_np_split` (the bench
/// router of docs/benchmarks.md; point A ties the scheduler's `take_i` to 1,
/// top.rs `vclock_alone`, which no other split example does): point A's
/// VirtualClock scheduler then takes a stamped VC's eligibility from its
/// output VC buffer's room alone
/// (§8.4, *With "split", a's eligibility is its output VC buffer's room*),
/// and the RTL checks in every cycle that it equals `req & rt` (§12). The
/// 10-bit counters rebase about every 1,000 cycles, so the choice between R
/// and R2 that reads it is taken about 30 times here.
fn np4_split_blocks_of_1() -> RouterConfig {
    let cfg = variant("np4_split", "np4_split_b1", &[("block_size", "1")]);
    assert!(Mutant::SplitStampedRoomIgnoresPend.applies_to(&cfg));
    cfg
}

#[test]
fn lockstep_np4_split_blocks_of_1() {
    lockstep_clean(&np4_split_blocks_of_1(), 44, CYCLES);
}

/// The planted bug in the stamped room (it ignores the flit crossing into
/// the output VC buffer) trips the RTL's check that the room equals the
/// stamped VC's eligibility: DO = 3, so a buffer with one free entry and a
/// flit crossing into it is common under backpressure.
#[test]
fn rtl_checks_catch_the_stamped_room_ignoring_the_crossing_flit() {
    let cfg = np4_split_blocks_of_1();
    let mutant = Mutant::SplitStampedRoomIgnoresPend;
    let err = run_single(&cfg, &mut rtl(&cfg, Some(mutant)), &LockstepOptions { waveform_dir: None, ..opts(&cfg, 7, 20_000) })
        .err()
        .unwrap_or_else(|| panic!("{} escaped the RTL checks", mutant.name()));
    let LockstepError::Check { cycle, .. } = &err else { panic!("{}: expected a failed RTL check, got {err}", mutant.name()) };
    // (the harness returns the cycle, not the check's text, which the device prints
    // on standard output: with --nocapture it is the sreq_i check)
    eprintln!("{:>32}: RTL check failed in cycle {cycle}: {err}", mutant.name());
}

/// Each planted bug of the split stage is caught by the comparison with the
/// model (the RTL's checks off, so that the comparison must see it), on
/// `np4_split` (DO = 3: both flits in flight fill the buffer's room).
#[test]
fn lockstep_catches_every_split_mutant() {
    let cfg = split("np4_split");
    for &mutant in Mutant::split() {
        assert!(mutant.applies_to(&cfg), "{}", mutant.name());
        let m = mutant_mismatch(&cfg, mutant, 7, CYCLES);
        eprintln!("{:>22}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
    }
}

/// The planted bug that breaks §6's "Room" argument trips the RTL's own
/// check on the RTL alone: counting one flit in flight where there are two,
/// a grant finds its output VC buffer full when it crosses.
#[test]
fn rtl_checks_catch_the_broken_room_invariant() {
    let cfg = split("np4_split");
    let mutant = Mutant::SplitRoomCountsOne;
    let err = run_single(&cfg, &mut rtl(&cfg, Some(mutant)), &LockstepOptions { waveform_dir: None, ..opts(&cfg, 7, 20_000) })
        .err()
        .unwrap_or_else(|| panic!("{} escaped the RTL checks", mutant.name()));
    let LockstepError::Check { cycle, .. } = &err else { panic!("{}: expected a failed RTL check, got {err}", mutant.name()) };
    eprintln!("{:>22}: RTL check failed in cycle {cycle}: {err}", mutant.name());
}

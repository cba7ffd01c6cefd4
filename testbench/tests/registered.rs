//! Registered switch allocation (docs/microarchitecture.md §6, "Registered
//! switch allocation", `router.switch_stage = "registered"`): RC and VA in one
//! stage, the switch allocation registered, the crossbar in the next cycle.
//! The RTL alone against the spec's cycle counts and the conservation
//! scoreboard; the RTL in lockstep with the golden model on every registered
//! example (50,000 cycles of random traffic with backpressure each); each
//! planted bug of the registered stage caught by the comparison, and the ones
//! that break an invariant of §6 also by the RTL's own checks (§12).

mod common;

use common::staged::{check_latency_and_streaming, lockstep_clean, mutant_mismatch, opts, rtl_alone_clean, staged_example};
use common::*;
use wormqos_config::{RouterConfig, SwitchStage};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_single, LockstepError, LockstepOptions};

const CYCLES: u64 = 50_000;

/// The registered examples small enough for the default suite, each with a
/// seed: 2 ports 1 VC round robin (DO = 2); 5-port TR, 4 VCs, DO = 3; 4-port
/// NP VirtualClock with 10-bit counters, blocks of 3, 2 iterative rounds, DO = 2.
const EXAMPLES: [(&str, u64); 3] = [("tiny2_registered", 31), ("tr5_registered", 32), ("np4_registered", 33)];

fn registered(name: &str) -> RouterConfig {
    staged_example(name, SwitchStage::Registered)
}

/// The RTL alone: every flit delivered once, in order, to the routed port,
/// the router drains, and no RTL check fails (the registered grant always
/// finds its flit and room, nothing is granted behind a crossing tail).
#[test]
fn rtl_alone_conserves_every_flit_drains_and_passes_its_checks() {
    for (name, seed) in EXAMPLES {
        rtl_alone_clean(&registered(name), seed, CYCLES);
    }
}

/// §6 *Consequences*: the header leaves in cycle P = 5 as in the
/// single-cycle pipeline; with DO >= 3 flit k follows in cycle 5 + k (the
/// tail of an L-flit message in P - 1 + L); with DO = 2 a stream gets two
/// flits in every three cycles: flit k leaves in cycle 5 + k + floor(k/2)
/// (hand trace: SA grants flit 0 in cycle 2 and flit 1 in 3; in 4 the
/// buffer holds flit 0 and flit 1 enters it, so SA waits; flit 0 leaves in
/// 5, flit 1 in 6; SA grants flit 2 in 5 and flit 3 in 6, which leave in 8
/// and 9; and so on with period 3).
fn expected_departure(cfg: &RouterConfig, k: u64) -> u64 {
    if cfg.output_buffer_depth() >= 3 {
        5 + k
    } else {
        5 + k + k / 2
    }
}

#[test]
fn rtl_latency_is_p_minus_1_plus_m_and_streams_as_the_spec_says() {
    for (name, _) in EXAMPLES {
        let cfg = registered(name);
        check_latency_and_streaming(&mut rtl(&cfg, None), &cfg, expected_departure);
    }
}

#[test]
fn model_latency_is_p_minus_1_plus_m_and_streams_as_the_spec_says() {
    for (name, _) in EXAMPLES {
        let cfg = registered(name);
        check_latency_and_streaming(&mut Router::new(&cfg), &cfg, expected_departure);
    }
}

/// §6 *Registered switch allocation in P mode*, *Consequences*: with the
/// preemptive input VC the zero-load latency is still 4 + M (a header
/// written at the end of cycle 0 goes to lane 0, RV in 1, SA in 2, ST in 3,
/// C in 4, on the link in 5) and, with DO >= 3 and DI >= 4, a lane streams
/// one flit per cycle (SA grants the lane's second flit while the first
/// crosses): `expected_departure`'s 5 + k. `p4_registered` has DO = 3,
/// DI = 4. The RTL and the model, each alone.
#[test]
fn p_mode_latency_is_p_minus_1_plus_m_and_a_lane_streams() {
    let cfg = registered("p4_registered");
    assert!(cfg.output_buffer_depth() >= 3 && cfg.input_buffer_depth() >= 4);
    check_latency_and_streaming(&mut rtl(&cfg, None), &cfg, expected_departure);
    check_latency_and_streaming(&mut Router::new(&cfg), &cfg, expected_departure);
}

fn lockstep(name: &str, seed: u64) {
    lockstep_clean(&registered(name), seed, CYCLES);
}

#[test]
fn lockstep_tiny2_registered() {
    lockstep(EXAMPLES[0].0, EXAMPLES[0].1);
}
#[test]
fn lockstep_tr5_registered() {
    lockstep(EXAMPLES[1].0, EXAMPLES[1].1);
}
#[test]
fn lockstep_np4_registered() {
    lockstep(EXAMPLES[2].0, EXAMPLES[2].1);
}
#[test]
#[ignore = "soak: a Verilator build of the 8-port 16-VC router takes minutes; run with `cargo test --release -p wormqos-testbench --test registered -- --include-ignored`"]
fn lockstep_mw8_registered() {
    lockstep("mw8_registered", 34);
}

/// Each planted bug of the registered stage is caught by the comparison
/// with the model (the RTL's checks off, so that the comparison must see it),
/// on `np4_registered`, or on `tr5_registered` (`fifo`) for the age order's
/// and for the registered VA request that ignores last cycle's grant: np4
/// has one output VC per class, which the granted VC has just taken, so its
/// second request is never satisfiable there and changes nothing at the
/// ports (the RTL's own check, "the registered VA request equals the one of
/// the state", fires there); tr5 has two per class.
#[test]
fn lockstep_catches_every_registered_mutant() {
    let (np4, tr5) = (registered("np4_registered"), registered("tr5_registered"));
    for &mutant in Mutant::registered() {
        let on_np4 = mutant.applies_to(&np4) && mutant != Mutant::VaPreGrantUnmasked;
        let cfg = if on_np4 { &np4 } else { &tr5 };
        assert!(mutant.applies_to(cfg), "{}", mutant.name());
        let m = mutant_mismatch(cfg, mutant, 7, CYCLES);
        eprintln!("{:>22}: caught at cycle {} on {} ({})", mutant.name(), m.cycle, m.signal, cfg.name());
    }
}

/// The two planted bugs that break an invariant of §6's "Why the grant is
/// always valid" trip the RTL's own checks, on the RTL alone: a grant that
/// finds its output VC buffer full, a grant behind a crossing tail.
#[test]
fn rtl_checks_catch_the_broken_invariants() {
    let cfg = registered("np4_registered");
    for mutant in [Mutant::SaRoomIgnoresPend, Mutant::SaGrantsBehindTail] {
        let err = run_single(&cfg, &mut rtl(&cfg, Some(mutant)), &LockstepOptions { waveform_dir: None, ..opts(&cfg, 7, 20_000) })
            .err()
            .unwrap_or_else(|| panic!("{} escaped the RTL checks", mutant.name()));
        let LockstepError::Check { cycle, .. } = &err else { panic!("{}: expected a failed RTL check, got {err}", mutant.name()) };
        eprintln!("{:>22}: RTL check failed in cycle {cycle}: {err}", mutant.name());
    }
}

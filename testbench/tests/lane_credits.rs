//! Per-lane preemption credits (`router.preemption_credits = "per_lane"`,
//! docs/microarchitecture.md §9.4 *Credits*) in RTL lockstep with the golden
//! model: the stimulus's sources are the model's own lane senders (they name
//! the lane of every flit and spend that lane's credits), its sinks hold DD
//! flits per lane and return each credit with its lane; both devices get the
//! same inputs and every output (the lane of each flit and of each credit
//! included) is compared every cycle. Two preemptive routers: the 4-port
//! 3-VC small router (shared output VC buffers, whose side memory keeps the
//! head bit and class of every front for the lane choice) and a 5-port 4-VC
//! router with per-VC output buffers (M*DO = 80 > 64 entries). The runs
//! must use the extra lanes at both ends: sources sending into lanes >= 1
//! of the router's input VCs, and the router's output VCs opening lanes
//! >= 1 of the sinks. Then the planted per-lane bugs must each be caught.
//! Third: `p4_registered` (registered switch allocation in P mode, §6) with
//! per-lane credits, where the credit of a granted lane flit carries the
//! lane `sl` of the SA cycle, one cycle before the flit crosses.

mod common;

use common::*;
use wormqos_config::{PreemptionCredits, RouterConfig};
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{LockstepError, RunReport};

const CYCLES: u64 = 60_000;

/// The 4-port 3-VC small router (3 classes, so E = 2 extra lanes) with
/// acceleration and block size 5, per-lane credits.
fn small_per_lane() -> RouterConfig {
    let mut file = small("preemptive", true, 5).file().clone();
    file.name = "small_pl".into();
    file.router.preemption_credits = Some(PreemptionCredits::PerLane);
    RouterConfig::new(file).unwrap_or_else(|e| panic!("{e}"))
}

/// `mw8_p` cut down to 5 ports and 4 VCs, deep enough that its output VC
/// buffers are per-VC FIFOs (4 x 20 entries > the 64 of a shared buffer),
/// without acceleration, per-lane credits.
fn p5_per_lane() -> RouterConfig {
    variant(
        "mw8_p",
        "p5_pl",
        &[("ports", "5"), ("vcs", "4"), ("input_buffer_depth", "6"), ("output_buffer_depth", "20"), ("preemption_credits", "\"per_lane\"")],
    )
}

/// `p4_registered` (4 ports, 2 VCs, 3 classes, registered switch
/// allocation in P mode) with per-lane credits.
fn p4_registered_per_lane() -> RouterConfig {
    variant("p4_registered", "p4r_pl", &[("preemption_credits", "\"per_lane\"")])
}

fn run(cfg: &RouterConfig, seed: u64, cycles: u64, mutant: Option<Mutant>) -> Result<(RunReport, Router), LockstepError> {
    preemptive_lockstep(cfg, seed, cycles, mutant)
}

fn lockstep(cfg: RouterConfig, seed: u64) -> u64 {
    assert!(cfg.per_lane_credits(), "{}: not per_lane", cfg.name());
    let (report, model) = run(&cfg, seed, CYCLES, None).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    let s = model.stats();
    let st = &report.stimulus;
    eprintln!("{}: {report}\n  model: {s:?}\n  parts: {:?}\n  extra-lane flits: {} injected, {} received", cfg.name(), report.parts, st.extra_lane_flits_injected, st.extra_lane_flits_received);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
    assert!(s.preemptions >= 100, "too few preemptions: {s:?}");
    // The extra lanes were used at both ends of the router.
    assert!(st.extra_lane_flits_injected >= 100, "the sources never used an extra lane of the router: {st:?}");
    assert!(st.extra_lane_flits_received >= 100, "the router never opened an extra lane downstream: {st:?}");
    s.preemptions
}

#[test]
fn small_router_per_lane_shared_output_buffers() {
    lockstep(small_per_lane(), 61);
}

/// Registered switch allocation in P mode with per-lane credits: three
/// seeds, thousands of preemptions in all.
#[test]
fn registered_p_router_per_lane() {
    let preemptions: u64 = [63, 64, 65].iter().map(|&seed| lockstep(p4_registered_per_lane(), seed)).sum();
    eprintln!("p4r_pl: {preemptions} preemptions over 3 seeds");
    assert!(preemptions >= 1000, "too few preemptions: {preemptions}");
}

#[test]
fn five_port_router_per_lane_per_vc_output_buffers() {
    lockstep(p5_per_lane(), 62);
}

/// Each planted per-lane bug makes the RTL of `cfg` differ from the model.
fn catches_every_lane_credit_mutant(cfg: RouterConfig) {
    for &mutant in Mutant::lane_credits() {
        assert!(mutant.applies_to(&cfg), "{} does not apply to {}", mutant.name(), cfg.name());
        let err = run(&cfg, 7, 20_000, Some(mutant)).err().unwrap_or_else(|| panic!("mutant {} escaped", mutant.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        eprintln!("{:>24}: caught at cycle {} on {}", mutant.name(), m.cycle, m.signal);
    }
}

/// Each planted per-lane bug makes the RTL differ from the model.
#[test]
fn lockstep_catches_every_lane_credit_mutant() {
    catches_every_lane_credit_mutant(small_per_lane());
}

/// The same planted bugs on the registered P router, whose credit lane
/// comes from SA's grant (`lane-credit-on-lane0` is planted there too).
#[test]
fn lockstep_catches_every_lane_credit_mutant_registered() {
    catches_every_lane_credit_mutant(p4_registered_per_lane());
}

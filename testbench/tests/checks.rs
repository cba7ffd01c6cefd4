//! The RTL's simulation-only checks (`ifndef SYNTHESIS`, docs/microarchitecture.md
//! §12) have teeth: a planted bug of each kind trips them in a lockstep run,
//! before the comparison with the model sees anything, and the clean RTL runs
//! with them enabled without a failure.

mod common;

use common::*;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions};

fn opts() -> LockstepOptions {
    LockstepOptions { cycles: 20_000, seed: 11, drain_limit: 5_000, ..Default::default() }
}

/// One planted bug per kind of check.
const KINDS: [(&str, Mutant); 5] = [
    ("one-hot grants", Mutant::RrGrantNotOnehot),
    ("no push into a full buffer", Mutant::DropOnBackpressure),
    ("no pop from an empty buffer", Mutant::PickIgnoresEmpty),
    ("credit counters within range", Mutant::CreditOffByOne),
    ("no output VC allocated twice", Mutant::VaIgnoresAllocated),
];

#[test]
fn a_planted_bug_of_each_kind_trips_an_rtl_check() {
    // (tiny2 and other small routers: the bounded proofs of hdl/tests/formal.rs)
    for cfg in [example("mesh5")] {
        // The clean RTL: the same run passes with every check enabled.
        run_lockstep(&cfg, &mut rtl(&cfg, None), &mut Router::new(&cfg), &opts())
            .unwrap_or_else(|e| panic!("{}: the clean RTL failed: {e}", cfg.name()));
        for (kind, mutant) in KINDS {
            let err = run_lockstep(&cfg, &mut rtl(&cfg, Some(mutant)), &mut Router::new(&cfg), &opts())
                .err()
                .unwrap_or_else(|| panic!("{}: {} ({kind}) escaped", cfg.name(), mutant.name()));
            let LockstepError::Check { cycle, .. } = err else {
                panic!("{}: {} ({kind}): expected a failed RTL check, got {err}", cfg.name(), mutant.name())
            };
            eprintln!("{:>6} {:>22} ({kind}): RTL check failed in cycle {cycle}", cfg.name(), mutant.name());
        }
    }
}

/// Without the checks, the lockstep comparison still catches the bugs
/// planted for them (they are real bugs, not only assertion violations).
#[test]
fn the_comparison_also_catches_the_bugs_planted_for_the_checks() {
    let cfg = example("mesh5");
    for mutant in Mutant::checks() {
        let o = LockstepOptions { stop_on_rtl_check: false, ..opts() };
        let err = run_lockstep(&cfg, &mut rtl(&cfg, Some(*mutant)), &mut Router::new(&cfg), &o)
            .err()
            .unwrap_or_else(|| panic!("{} escaped the comparison", mutant.name()));
        assert!(matches!(err, LockstepError::Mismatch(_)), "{}: expected a mismatch, got {err}", mutant.name());
    }
}

//! Every checker has teeth: each bug the generator can plant is caught by the
//! lockstep comparison, and the model-free checkers (conservation scoreboard,
//! deadlock watchdog) catch the bugs they are responsible for on the RTL alone.

mod common;

use common::*;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, run_single, LockstepError, LockstepOptions};

fn opts(cycles: u64) -> LockstepOptions {
    // The RTL's own checks would stop some mutants first (tests/checks.rs):
    // here the comparison and the scoreboard must catch them on their own.
    LockstepOptions {
        cycles,
        seed: 5,
        drain_limit: 5_000,
        waveform_dir: Some(waveform_dir()),
        stop_on_rtl_check: false,
        ..Default::default()
    }
}

#[test]
fn lockstep_catches_every_mutant_and_writes_a_waveform() {
    let cfg = example("mesh5");
    let mut caught = Vec::new();
    for &mutant in Mutant::all() {
        let mut dut = rtl_traced(&cfg, Some(mutant));
        let err = run_lockstep(&cfg, &mut dut, &mut Router::new(&cfg), &opts(30_000))
            .err()
            .unwrap_or_else(|| panic!("mutant {} escaped the lockstep comparison", mutant.name()));
        let LockstepError::Mismatch(m) = &err else { panic!("mutant {}: expected a mismatch, got {err}", mutant.name()) };
        let text = err.to_string();
        assert!(text.contains(&format!("cycle {}", m.cycle)) && text.contains(&m.signal), "{text}");
        let vcd = m.waveform.as_ref().unwrap_or_else(|| panic!("no waveform for {}: {text}", mutant.name()));
        let wave = std::fs::read_to_string(vcd).unwrap();
        assert!(wave.contains("$enddefinitions") && wave.contains("out_valid_o"), "VCD {}", vcd.display());
        // One timestamp per clock edge: the window before the mismatch (or back to reset) is in the file.
        let stamps = wave.lines().filter(|l| l.starts_with('#')).count() as u64;
        let window = m.cycle.min(opts(0).waveform_window);
        assert!(stamps >= 2 * window, "VCD of {} has {stamps} timestamps for a {window}-cycle window", mutant.name());
        eprintln!("{:>22}: caught at cycle {} on {}", mutant.name(), m.cycle, m.signal);
        caught.push(mutant);
    }
    assert_eq!(caught.len(), Mutant::all().len());
    assert!(caught.len() >= 6);
}

/// The conservation scoreboard alone (no model) catches lost and misrouted
/// flits in the RTL; the drain watchdog catches a VC that is never released.
/// (The mutants traced: the same cache entries as the test above, built once;
/// the unmutated router untraced, as the lockstep tests build it.)
#[test]
fn scoreboard_and_watchdog_catch_mutants_without_the_model() {
    let cfg = example("mesh5");
    // The unmutated RTL passes the same checks.
    run_single(&cfg, &mut rtl(&cfg, None), &opts(20_000)).unwrap();

    let err = run_single(&cfg, &mut rtl_traced(&cfg, Some(Mutant::DropOnBackpressure)), &opts(20_000)).unwrap_err();
    assert!(matches!(err, LockstepError::Conservation { .. } | LockstepError::Drain { .. }), "{err}");

    let err = run_single(&cfg, &mut rtl_traced(&cfg, Some(Mutant::WrongRoute)), &opts(20_000)).unwrap_err();
    assert!(matches!(err, LockstepError::Conservation { .. }), "{err}");

    let err = run_single(&cfg, &mut rtl_traced(&cfg, Some(Mutant::TailKeepsVc)), &opts(20_000)).unwrap_err();
    assert!(matches!(err, LockstepError::Drain { .. }), "{err}");
    assert!(err.to_string().contains("deadlock"), "{err}");
}

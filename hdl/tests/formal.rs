//! Bounded model checking of the RTL's checks (one-hot grants, no push into
//! a full / pop from an empty buffer, credit counters in range, no output VC
//! allocated twice) on small routers, every input free, 25 cycles from reset (the
//! two VirtualClock 2-port routers for fewer in CI, 25 opt-in)
//! (`wormqos_hdl::formal`); and a planted bug of each kind makes the proof fail.

mod common;

use common::{example, par_each, threads, TempDir};
use std::process::Command;
use wormqos_config::RouterConfig;
use wormqos_hdl::{formal, generate, write_files, Mutant};

const DEPTH: u32 = 25;

/// A 2-port 1-VC router (as `tiny2`) or a 3-port 2-VC router, with both
/// crossbars and the `fifo` and `virtualclock` schedulers.
fn configs(three_ports: bool) -> Vec<RouterConfig> {
    let mut v = vec![];
    let size = if three_ports { ("p3", 3, 2, 16) } else { ("t2", 2, 1, 18) };
    for crossbar in ["multiplexed", "full"] {
        for scheduler in ["fifo", "virtualclock"] {
            for (name, ports, vcs, width) in [size] {
                let text = format!(
                    "name = \"fv_{name}_{}_{}\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = {width}\n\
                     input_buffer_depth = 4\noutput_buffer_depth = 2\ncrossbar = \"{crossbar}\"\n\
                     scheduler = \"{scheduler}\"\nvtick_width = 8\nclock_width = 8\n",
                    &crossbar[..3],
                    &scheduler[..4]
                );
                v.push(RouterConfig::from_toml_str(&text, "formal").unwrap_or_else(|e| panic!("{e}")));
            }
        }
    }
    if !three_ports {
        v.push(example("tiny2"));
    }
    v
}

/// Runs the proof; `Ok` when every check holds for `depth` cycles.
fn prove(cfg: &RouterConfig, mutant: Option<Mutant>, depth: u32) -> Result<(), String> {
    let files = generate(cfg, mutant).unwrap();
    let dir = TempDir::new(&format!("fv_{}", cfg.name()));
    write_files(&dir.0, &files).unwrap();
    let harness = formal::harness(cfg, files.last().unwrap());
    std::fs::write(dir.0.join(&harness.file_name), &harness.text).unwrap();
    let mut names: Vec<String> = files.iter().map(|f| f.file_name.clone()).collect();
    names.push(harness.file_name.clone());
    let script = formal::bmc_script(cfg, &names, depth);
    let out = Command::new("yosys").current_dir(&dir.0).args(["-q", "-p", &script]).output().expect("yosys");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.success() {
        Ok(())
    } else {
        assert!(text.contains("proof did fail"), "{}: yosys failed for another reason:\n{text}", cfg.name());
        Err(text)
    }
}

fn prove_all(cfgs: &[RouterConfig]) {
    prove_each(&cfgs.iter().map(|c| (c.clone(), DEPTH)).collect::<Vec<_>>());
}

/// Proves each configuration for its own number of cycles.
fn prove_each(jobs: &[(RouterConfig, u32)]) {
    par_each(jobs, threads(), |(cfg, depth)| {
        let t = std::time::Instant::now();
        prove(cfg, None, *depth).unwrap_or_else(|e| panic!("{}: a check can fail:\n{e}", cfg.name()));
        eprintln!("{}: proved for {depth} cycles in {:.1} s", cfg.name(), t.elapsed().as_secs_f64());
    });
}

/// Depth of the CI proofs of the two VirtualClock 2-port routers (fv_t2_mul_virt,
/// fv_t2_ful_virt), whose DEPTH-cycle proofs were most of the 2-port test's CPU
/// (docs/benchmarks.md, "CI test CPU: soaks opt-in (2026-11-29)": the largest of
/// 12, 15 and 18 cycles that costs at most a third of the 25-cycle proof). The
/// DEPTH-cycle proofs of both are opt-in:
/// `cargo test --release -p wormqos-hdl --test formal -- --ignored virtualclock_routers`.
const VIRT_CI_DEPTH: u32 = 15;
const _: () = assert!(VIRT_CI_DEPTH < DEPTH, "the CI proofs of the VirtualClock routers are the shorter ones");

fn is_virtualclock(cfg: &RouterConfig) -> bool {
    cfg.scheduler() == wormqos_config::Scheduler::Virtualclock
}

/// Every 2-port router for DEPTH cycles, but the two VirtualClock ones
/// (for VIRT_CI_DEPTH; DEPTH in the opt-in test below).
#[test]
fn the_rtl_checks_hold_from_reset_on_2_port_routers() {
    let cfgs = configs(false);
    assert_eq!(cfgs.iter().filter(|c| is_virtualclock(c)).count(), 2, "the two VirtualClock routers");
    let depth = |c: &RouterConfig| if is_virtualclock(c) { VIRT_CI_DEPTH } else { DEPTH };
    prove_each(&cfgs.iter().map(|c| (c.clone(), depth(c))).collect::<Vec<_>>());
}

#[test]
#[ignore = "slow: the two 2-port VirtualClock proofs for 25 cycles (CI proves them for VIRT_CI_DEPTH)"]
fn the_rtl_checks_hold_for_25_cycles_from_reset_on_the_2_port_virtualclock_routers() {
    prove_all(&configs(false).into_iter().filter(is_virtualclock).collect::<Vec<_>>());
}

/// 2-7 CPU-minutes per configuration (docs/benchmarks.md, "Formal"):
/// `cargo test --release -p wormqos-hdl --test formal -- --ignored`.
#[test]
#[ignore = "slow: 3-port 2-VC proofs take minutes each"]
fn the_rtl_checks_hold_for_25_cycles_from_reset_on_3_port_2_vc_routers() {
    prove_all(&configs(true));
}

/// Registered switch allocation (§6): the grant always finds its flit and
/// room, nothing is granted behind a crossing tail. Slow (did not finish in
/// 25 minutes beside the other proofs on a loaded 2-core machine):
/// `cargo test --release -p wormqos-hdl --test formal registered -- --ignored`.
#[test]
#[ignore = "slow: the registered tiny2 proof takes many minutes"]
fn the_rtl_checks_hold_for_25_cycles_from_reset_on_the_registered_tiny2() {
    prove_all(&[example("tiny2_registered")]);
}

/// Depth of the planted bugs' proofs. Each bug fails a proof this long, so
/// it fails the DEPTH-cycle proof too: every input is free in every cycle
/// and nothing is assumed, so a counterexample of k cycles extends to any
/// longer run. The shorter proofs cost less than half (docs/benchmarks.md,
/// "Test suite CPU: the ten largest binaries"); at 10 cycles
/// `drop-on-backpressure` and `sa-room-ignores-pend` still pass.
const PLANTED_DEPTH: u32 = 15;
const _: () = assert!(PLANTED_DEPTH <= DEPTH, "a failure of a longer proof says nothing of the DEPTH-cycle proof");

#[test]
fn a_planted_bug_of_each_kind_fails_the_proof() {
    let cases: Vec<(RouterConfig, Mutant)> = [
        Mutant::RrGrantNotOnehot,
        Mutant::DropOnBackpressure,
        Mutant::PickIgnoresEmpty,
        Mutant::CreditOffByOne,
        Mutant::VaIgnoresAllocated,
    ]
    .into_iter()
    .map(|m| (configs(true)[0].clone(), m))
    .chain([Mutant::SaRoomIgnoresPend, Mutant::SaGrantsBehindTail].map(|m| (example("tiny2_registered"), m)))
    .collect();
    par_each(&cases, threads(), |(cfg, m)| {
        assert!(prove(cfg, Some(*m), PLANTED_DEPTH).is_err(), "{}: {} passed the {PLANTED_DEPTH}-cycle proof", cfg.name(), m.name());
    });
}

//! The Fine-Grained VirtualClock scheduler (docs/microarchitecture.md §8) in
//! RTL lockstep with the golden model: every foundation configuration with
//! `virtualclock` (both crossbars; narrow counters that rebase and saturate
//! constantly, wide ones), bandwidth shares measured through the RTL, and the
//! scheduler mutants.

mod common;

use common::*;
use wormqos_config::{Crossbar, RouterConfig, Scheduler};
use wormqos_hdl::Mutant;
use wormqos_sim::{LinkFlit, Router, RouterInputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{compare_outputs, run_lockstep, LockstepError, LockstepOptions};
use wormqos_testbench::stimulus::TrafficParams;

const CYCLES: u64 = 100_000;
const VC: (&str, &str) = ("scheduler", "\"virtualclock\"");

fn lockstep(cfg: RouterConfig, seed: u64) {
    assert_eq!(cfg.scheduler(), Scheduler::Virtualclock);
    let mut rtl = rtl(&cfg, None);
    let opts =
        LockstepOptions { cycles: CYCLES, seed, traffic: traffic_for(&cfg), waveform_dir: Some(waveform_dir()), ..Default::default() };
    let report = run_lockstep(&cfg, &mut rtl, &mut Router::new(&cfg), &opts).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}", cfg.name());
    assert!(report.cycles >= CYCLES);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
}

#[test]
fn vc_tiny2_multiplexed_8bit_counters() {
    lockstep(variant("tiny2", "tiny2_vc", &[VC, ("vtick_width", "8"), ("clock_width", "8")]), 21);
}
#[test]
fn vc_tiny2_full_8bit_counters() {
    lockstep(variant("tiny2", "tiny2_vcf", &[VC, ("crossbar", "\"full\""), ("vtick_width", "8"), ("clock_width", "8")]), 22);
}
#[test]
fn vc_mesh5_multiplexed() {
    lockstep(variant("mesh5", "mesh5_vc", &[VC]), 23);
}
#[test]
fn vc_mesh5_full() {
    lockstep(variant("mesh5", "mesh5_vcf", &[VC, ("crossbar", "\"full\"")]), 24);
}
/// Opt-in: the 8-port 16-VC multiplexed VirtualClock switch runs opt-in as
/// `qos`'s `mw8_preemptive_b5` too (since 2026-11-29; and as
/// `vc_qos8_multiplexed_128bit` with wider flits); this further Verilator
/// build cost the default suite about a minute.
#[test]
#[ignore = "soak: a second 8-port 16-VC Verilator build; run with `cargo test --release -p wormqos-testbench --test virtualclock -- --include-ignored`"]
fn vc_mediaworm8_multiplexed() {
    lockstep(variant("mediaworm8", "mediaworm8_vc", &[VC]), 25);
}
/// Opt-in since 2026-11-27 (suite time): its parts run by default elsewhere,
/// each in lockstep: the full crossbar (the 16-port one in `lockstep`'s
/// opt-in `paper000_16port_full_crossbar_fifo`), the VirtualClock scheduler on a full
/// crossbar (`vc_mesh5_full`, `vc_wide72_full_32bit_counters`) over the same
/// 3 slots per port (`vc_sched`'s scheduler over M VCs does not grow with the
/// ports).
#[test]
#[ignore = "soak: a second 16-port Verilator build; run with `cargo test --release -p wormqos-testbench --test virtualclock -- --include-ignored`"]
fn vc_paper000_16port_full() {
    let cfg = variant("paper000_16port", "paper000_vc", &[VC]);
    assert_eq!(cfg.crossbar(), Crossbar::Full);
    lockstep(cfg, 26);
}
#[test]
fn vc_wide72_full_32bit_counters() {
    lockstep(variant("wide72", "wide72_vc", &[VC, ("clock_width", "32")]), 27);
}
/// Opt-in since 2026-11-27 (suite time): its parts run by default elsewhere,
/// each in lockstep: the 8-port 16-VC multiplexed datapath (`lockstep`'s
/// `mediaworm8_multiplexed_fifo`; the 128-bit 40-flit one in its opt-in
/// `qos8_128bit_multiplexed_round_robin`) and the VirtualClock scheduler on
/// the multiplexed crossbar (`vc_mesh5_multiplexed`; over 16 VCs on the
/// 8-port switch in `qos`'s opt-in `mw8_preemptive_b5`); the 16-slot
/// scheduler alone against the spec's reference in `wormqos-hdl`'s
/// `vclock_sched` test.
#[test]
#[ignore = "soak: a second 8-port 16-VC 128-bit Verilator build; run with `cargo test --release -p wormqos-testbench --test virtualclock -- --include-ignored`"]
fn vc_qos8_multiplexed_128bit() {
    lockstep(variant("qos8", "qos8_vc", &[VC]), 28);
}

// ---------------------------------------------------------------------------
// Bandwidth shares, measured on the outputs while RTL and model run in lockstep.

#[derive(Clone, Copy)]
enum Pace {
    /// Always has a flit ready (subject to credits).
    Backlogged,
    /// Offers one flit every `n` cycles (an input regulator at rate 1/n).
    Every(u64),
}

struct Flow {
    port: usize,
    vc: u8,
    dest: u64,
    vtick: u64,
    pace: Pace,
    /// Flits per message (each message pays the RC and VA cycles again).
    len: usize,
}

const FLOW_ID_LSB: u32 = 24;
const MESSAGE_FLITS: usize = 16;
/// Best-effort messages are long, so that the RC/VA bubble between them
/// (2 cycles in which the VC is not at the scheduler) costs < 2 %.
const BE_MESSAGE_FLITS: usize = 128;

/// Sinks hold their credits this long at the start, so that the output and
/// then the input buffers fill: afterwards the scheduler, not the order in
/// which a shared input link happens to deliver flits, decides the shares.
const FILL_CYCLES: u64 = 400;

/// Runs `flows` through RTL and model in lockstep for `cycles` and returns the
/// flits each flow delivered. After `FILL_CYCLES`, sinks return one credit
/// per VC per cycle while they owe any.
fn shares(cfg: &RouterConfig, flows: &[Flow], cycles: u64) -> Vec<u64> {
    assert!(FLOW_ID_LSB >= cfg.header().width() && cfg.flit_width() >= FLOW_ID_LSB + 4);
    let mut rtl = rtl(cfg, None);
    let mut model = Router::new(cfg);
    rtl.reset();
    model.reset();
    let mut credits: Vec<usize> = flows.iter().map(|_| cfg.input_buffer_depth()).collect();
    let mut sent: Vec<usize> = vec![0; flows.len()];
    let mut owed: Vec<u64> = vec![0; flows.len()]; // regulated flits not yet sent
    let mut delivered = vec![0u64; flows.len()];
    let mut owner = vec![usize::MAX; cfg.ports() * cfg.vcs()]; // output VC -> flow
    let mut owed_credits = vec![0u32; cfg.ports() * cfg.vcs()];
    let mut inputs = RouterInputs::idle(cfg);
    for t in 0..cycles {
        let expected = model.outputs().clone();
        let diffs = compare_outputs(cfg, &expected, rtl.outputs());
        assert!(diffs.is_empty(), "cycle {t}: RTL differs from model: {}", diffs[0]);
        inputs.clear();
        for (o, f) in expected.flits.iter().enumerate() {
            if f.valid {
                let slot = o * cfg.vcs() + f.vc as usize;
                if f.head {
                    owner[slot] = ((f.data[0] >> FLOW_ID_LSB) & 0xf) as usize;
                }
                delivered[owner[slot]] += 1;
                owed_credits[slot] += 1;
            }
        }
        if t >= FILL_CYCLES {
            for (slot, n) in owed_credits.iter_mut().enumerate() {
                if *n > 0 {
                    *n -= 1;
                    inputs.credits[slot / cfg.vcs()] |= 1 << (slot % cfg.vcs());
                }
            }
        }
        for (i, flow) in flows.iter().enumerate() {
            credits[i] += (expected.credits[flow.port] >> flow.vc & 1) as usize;
            if let Pace::Every(n) = flow.pace {
                if t % n == 0 {
                    owed[i] += 1;
                }
            }
        }
        // One flit per input port per cycle: flows sharing a port take turns by cycle parity.
        let mut port_busy = vec![false; cfg.ports()];
        for k in 0..flows.len() {
            let i = (k + t as usize) % flows.len();
            let flow = &flows[i];
            let ready = matches!(flow.pace, Pace::Backlogged) || owed[i] > 0;
            if port_busy[flow.port] || credits[i] == 0 || !ready {
                continue;
            }
            let k_in_msg = sent[i] % flow.len;
            let mut data = [0u64; 4];
            if k_in_msg == 0 {
                cfg.header().dest.insert(&mut data, flow.dest);
                cfg.header().vtick.insert(&mut data, flow.vtick);
                data[0] |= (i as u64) << FLOW_ID_LSB;
            }
            inputs.flits[flow.port] =
                LinkFlit { lane: 0, valid: true, dummy: false, vc: flow.vc, head: k_in_msg == 0, tail: k_in_msg == flow.len - 1, data };
            port_busy[flow.port] = true;
            credits[i] -= 1;
            sent[i] += 1;
            owed[i] = owed[i].saturating_sub(1);
        }
        rtl.step(&inputs);
        model.step(&inputs);
    }
    delivered
}

fn assert_share(what: &str, got: u64, total: u64, want: f64) {
    let share = got as f64 / total as f64;
    assert!((share - want).abs() <= 0.02 * want, "{what}: share {share:.4}, expected {want:.4} within 2%");
}

fn best_effort_vtick(cfg: &RouterConfig) -> u64 {
    (1 << cfg.header().vtick.width) - 1
}

/// Backlogged real-time flows share the output in proportion to 1/Vtick; a
/// backlogged best-effort flow beside them gets (almost) nothing.
fn backlogged_shares(cfg: &RouterConfig, flows: Vec<Flow>, vticks: &[u64]) {
    let n = flows.len();
    let got = shares(cfg, &flows, 1_000_000);
    let rt_total: u64 = got[..vticks.len()].iter().sum();
    let inv: f64 = vticks.iter().map(|&v| 1.0 / v as f64).sum();
    for (i, &v) in vticks.iter().enumerate() {
        assert_share(&format!("{}: flow {i} (Vtick {v})", cfg.name()), got[i], rt_total, (1.0 / v as f64) / inv);
    }
    let all: u64 = got.iter().sum();
    assert!(all > 990_000, "the output must be saturated: {all} flits in 10^6 cycles");
    if n > vticks.len() {
        assert!((got[n - 1] as f64) < 0.01 * all as f64, "best effort took {} of {all} flits from backlogged real time", got[n - 1]);
    }
}

#[test]
fn shares_multiplexed_crossbar_backlogged() {
    // Point A: flows on different VCs of input port 0 contend for its crossbar
    // input. Each leaves on its own output port, so that no output (point C,
    // round-robin) limits them: the crossbar input is the bottleneck.
    let cfg = variant("mesh5", "mesh5_vc", &[VC]);
    let vticks = [2u64, 3, 6];
    let mut flows: Vec<Flow> = vticks
        .iter()
        .enumerate()
        .map(|(i, &v)| Flow { port: 0, vc: i as u8, dest: 1 + i as u64, vtick: v, pace: Pace::Backlogged, len: MESSAGE_FLITS })
        .collect();
    flows.push(Flow { port: 0, vc: 3, dest: 4, vtick: best_effort_vtick(&cfg), pace: Pace::Backlogged, len: BE_MESSAGE_FLITS });
    backlogged_shares(&cfg, flows, &vticks);
}

#[test]
fn shares_full_crossbar_backlogged() {
    // Point C: flows from different input ports into output port 1.
    let cfg = variant("mesh5", "mesh5_vcf", &[VC, ("crossbar", "\"full\"")]);
    // Reserved rates sum to exactly 1: with less, backlogged flows' virtual
    // clocks run ahead of `now` without bound and 16-bit counters saturate
    // (docs/microarchitecture.md §8.5).
    let vticks = [2u64, 4, 8, 8];
    let flows: Vec<Flow> =
        vticks.iter().enumerate().map(|(i, &v)| Flow { port: [0, 2, 3, 4][i], vc: 0, dest: 1, vtick: v, pace: Pace::Backlogged, len: MESSAGE_FLITS }).collect();
    backlogged_shares(&cfg, flows, &vticks);
}

#[test]
fn best_effort_gets_only_the_leftover() {
    // Regulated real-time flows at rates 1/4, 1/5, 1/10 (sum 0.55) and a
    // backlogged best-effort flow on the same input port (point A), each to
    // its own output port.
    let cfg = variant("mesh5", "mesh5_vc", &[VC]);
    let rates = [4u64, 5, 10];
    let mut flows: Vec<Flow> = rates
        .iter()
        .enumerate()
        .map(|(i, &v)| Flow { port: 0, vc: i as u8, dest: 1 + i as u64, vtick: v, pace: Pace::Every(v), len: MESSAGE_FLITS })
        .collect();
    flows.push(Flow { port: 0, vc: 3, dest: 4, vtick: best_effort_vtick(&cfg), pace: Pace::Backlogged, len: BE_MESSAGE_FLITS });
    let cycles = 1_000_000u64;
    let got = shares(&cfg, &flows, cycles);
    for (i, &v) in rates.iter().enumerate() {
        assert_share(&format!("real-time flow {i}"), got[i], cycles, 1.0 / v as f64);
    }
    let leftover = 1.0 - rates.iter().map(|&v| 1.0 / v as f64).sum::<f64>();
    assert_share("best effort", got[3], cycles, leftover);
}

// ---------------------------------------------------------------------------

/// Every planted scheduler bug is caught by lockstep on a router with narrow
/// counters (so rebasing happens every few hundred cycles), on one of the two
/// scheduling points. The router is small (4 ports, 3 VCs, 18-bit flits)
/// because each mutant is a Verilator build of its own; at a load of 0.3 VCs
/// go idle long enough for `now` to pass their auxVC, which vc-no-max-now
/// needs (with 3 ports and 2 VCs it escapes at either load).
#[test]
fn lockstep_catches_every_virtualclock_mutant() {
    let small = |name: &str, crossbar: &str| {
        variant(
            "tiny2",
            name,
            &[VC, ("ports", "4"), ("vcs", "3"), ("crossbar", crossbar), ("vtick_width", "8"), ("clock_width", "8")],
        )
    };
    let mux = small("small4_vc8", "\"multiplexed\"");
    let full = small("small4_vcf8", "\"full\"");
    let opts = |cfg: &RouterConfig| {
        let traffic = TrafficParams { injection_rate: 0.3, ..traffic_for(cfg) };
        LockstepOptions { cycles: 50_000, seed: 31, traffic, waveform_dir: None, ..Default::default() }
    };
    // Without a mutant the same runs agree, so every mismatch below is the mutant's.
    for cfg in [&mux, &full] {
        let report = run_lockstep(cfg, &mut rtl(cfg, None), &mut Router::new(cfg), &opts(cfg)).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
        assert_eq!(report.flits_delivered, report.flits_injected);
    }
    let mutants = Mutant::virtualclock();
    assert!(mutants.len() >= 5);
    for &mutant in mutants {
        // One catch suffices: the full crossbar (a Verilator build of its
        // own) is tried only when the multiplexed one lets the mutant pass.
        let mut caught_at = None;
        for cfg in [&mux, &full] {
            let mut dut = rtl(cfg, Some(mutant));
            // the comparison alone must catch it (vc-stale-max also trips the RTL's mx check),
            // except vc-stale-order: its wrong R is subtracted from every value alike, which
            // §8.5 says grants the same until a value wraps or saturates, and in 50,000 cycles
            // no port output differed (measured); its own check (sbelow/sord) must catch it
            let by_check = mutant == Mutant::VcStaleOrder;
            let run_opts = LockstepOptions { stop_on_rtl_check: by_check, ..opts(cfg) };
            match run_lockstep(cfg, &mut dut, &mut Router::new(cfg), &run_opts) {
                Err(LockstepError::Mismatch(m)) if !by_check => {
                    caught_at = Some(format!("{} cycle {} {}", cfg.name(), m.cycle, m.signal));
                    break;
                }
                Err(LockstepError::Check { cycle, .. }) if by_check => {
                    caught_at = Some(format!("{} cycle {cycle} by the RTL's check", cfg.name()));
                    break;
                }
                Err(e) => panic!("{}: expected a mismatch, got {e}", mutant.name()),
                Ok(_) => {}
            }
        }
        eprintln!("{:>24}: {:?}", mutant.name(), caught_at);
        assert!(caught_at.is_some(), "mutant {} escaped lockstep on both crossbars", mutant.name());
    }
}

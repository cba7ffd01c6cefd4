//! The system top (router + one NIC per port, docs/nic.md §16) in lockstep
//! against the composed golden model (`wormqos_sim::nic::system`): every
//! port's host outputs (AXI4-Lite, AXI4, interrupt) compared every cycle,
//! 50,000 cycles of random sends between the ports with random descriptors
//! (some malformed) and AXI backpressure, with the end-to-end conservation
//! checks of `wormqos_testbench::nic::system` (every send completes with
//! the right status, every message arrives once, intact).
//!
//! Also with `preemption_credits = "per_lane"` (docs/nic.md §9.1, §11.1):
//! the NICs then open router lanes above 0, counted by the model.
//!
//! Cost: five Verilator builds of a system top (three clean, one with a
//! planted NIC fault, one with a router lane mutant), about 3 minutes each on the shared 2-core machine
//! when not cached; the lockstep runs at 17,000-22,000 cycles/s.

use wormqos_config::RouterConfig;
use wormqos_hdl::NicFault;
use wormqos_sim::nic::system::NicSystem;
use wormqos_testbench::nic::system::{run_system, SystemDut, SystemReport, SystemRunOptions};

/// 50,000 cycles, sends at 3 % per port and cycle, 15 % malformed, messages up to 16 flits.
fn opts(cycles: u64, seed: u64) -> SystemRunOptions {
    SystemRunOptions { cycles, seed, send_rate: 0.03, malformed: 0.15, max_flits: 16, ..SystemRunOptions::default() }
}
use wormqos_testbench::verilator::system::VerilatedSystem;

fn example(name: &str) -> RouterConfig {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/nic").join(name);
    RouterConfig::from_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn check(name: &str, r: &SystemReport) {
    eprintln!("{name}: {r}");
    assert!(r.messages_received > 500, "{name}: too few messages: {r}");
    assert!(r.sends_by_code[1..].iter().filter(|&&n| n > 0).count() >= 4, "{name}: too few error kinds: {r}");
}

/// The composed model alone passes the conservation checks.
#[test]
fn composed_model_alone_conserves_every_message() {
    let cfg = example("qos_p.toml");
    let mut m = NicSystem::new(&cfg);
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut m];
    let r = run_system(&cfg, duts, &opts(20_000, 1)).unwrap();
    check("model", &r);
}

fn lockstep(name: &str, seed: u64) {
    let cfg = example(name);
    let mut rtl = VerilatedSystem::build(&cfg, None).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    let mut model = NicSystem::new(&cfg);
    let start = std::time::Instant::now();
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
    let r = run_system(&cfg, duts, &opts(50_000, seed)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    eprintln!("{name}: {:.0} cycles/s in lockstep", r.cycles as f64 / start.elapsed().as_secs_f64());
    assert_eq!(r.compared, r.cycles);
    assert!(r.cycles >= 50_000);
    check(name, &r);
}

#[test]
fn system_top_qos_nic_p_router_in_lockstep() {
    lockstep("qos_p.toml", 1);
}

#[test]
fn system_top_traditional_nic_tr_router_in_lockstep() {
    lockstep("traditional.toml", 2);
}

/// A NIC fault planted in every NIC of the system top is caught. The fault
/// is the one the conservation test below plants, so both share one
/// Verilator build; the subtler `nic-wrong-doorbell-priority` (an order,
/// not a loss) is caught by the NIC's own lockstep (`nic_lockstep.rs`) and
/// cocotb test, which compare the same host ports.
#[test]
fn a_planted_nic_fault_in_the_system_top_is_caught() {
    let cfg = example("qos_p.toml");
    let f = NicFault::DropAfterDummyTail;
    let mut rtl = VerilatedSystem::build(&cfg, Some(f)).unwrap();
    let mut model = NicSystem::new(&cfg);
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
    match run_system(&cfg, duts, &opts(20_000, 1)) {
        Ok(r) => panic!("fault {} not caught: {r}", f.name()),
        Err(e) => eprintln!("fault {} caught: {e:#}", f.name()),
    }
}

/// The conservation checks alone (no model): a NIC that drops the rest of a
/// message after a router's dummy tail (messages never arrive) fails the
/// run. (`nic-credit-leak`, the router dropping flits, is caught the same
/// way; left out to save a Verilator build.)
#[test]
fn the_conservation_checks_alone_catch_lost_messages() {
    let cfg = example("qos_p.toml");
    for f in [NicFault::DropAfterDummyTail] {
        let mut rtl = VerilatedSystem::build(&cfg, Some(f)).unwrap();
        let duts: &mut [&mut dyn SystemDut] = &mut [&mut rtl];
        let o = SystemRunOptions { drain_limit: 5_000, ..opts(20_000, 1) };
        match run_system(&cfg, duts, &o) {
            Ok(r) => panic!("fault {} not caught without the model: {r}", f.name()),
            Err(e) => eprintln!("fault {} caught without the model: {e:#}", f.name()),
        }
    }
}

/// examples/nic/qos_p.toml with `preemption_credits = "per_lane"`: the NICs
/// are per-lane senders and receivers (docs/nic.md §9.1, §11.1).
fn qos_p_per_lane() -> RouterConfig {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/nic/qos_p.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("mode = \"preemptive\"\n"), "examples/nic/qos_p.toml changed");
    let text = text.replacen("mode = \"preemptive\"\n", "mode = \"preemptive\"\npreemption_credits = \"per_lane\"\n", 1);
    RouterConfig::from_toml_str(&text, "qos_p.toml + per_lane").unwrap()
}

/// Per-lane credits with a NIC on every port, 50,000 cycles in lockstep on
/// two seeds; the NICs open lanes above 0 (a higher class while a lower
/// one holds lane 0's credits): at least 100 such flits per run (the
/// messages are 2-17 flits, so that is a few dozen opened lanes at least).
#[test]
fn system_top_qos_nic_p_router_per_lane_credits_in_lockstep() {
    let cfg = qos_p_per_lane();
    let mut rtl = VerilatedSystem::build(&cfg, None).unwrap_or_else(|e| panic!("per_lane: {e:#}"));
    for seed in [3, 4] {
        let mut model = NicSystem::new(&cfg);
        let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
        let r = run_system(&cfg, duts, &opts(50_000, seed)).unwrap_or_else(|e| panic!("per_lane seed {seed}: {e:#}"));
        assert_eq!(r.compared, r.cycles);
        check("per_lane", &r);
        let above = model.nic_flits_above_lane_0();
        eprintln!("per_lane seed {seed}: {above} NIC flits into lanes above 0");
        assert!(above >= 100, "seed {seed}: the NICs opened too few lanes: {above} flits above lane 0");
    }
}

/// The router mutant `lane-join-ignores-class` (a header joins the lowest
/// busy lane whatever its class) in the system top's router, towards the
/// NICs: the per-lane system lockstep catches it.
#[test]
fn a_lane_mutant_in_the_per_lane_system_is_caught() {
    let cfg = qos_p_per_lane();
    let mutant = wormqos_hdl::Mutant::LaneJoinIgnoresClass;
    let mut files = wormqos_hdl::system::generate_system(&cfg, None).unwrap();
    for m in wormqos_hdl::generate(&cfg, Some(mutant)).unwrap() {
        if let Some(f) = files.iter_mut().find(|f| f.file_name == m.file_name) {
            *f = m;
        }
    }
    let top = wormqos_hdl::system::system_top_name(&cfg);
    let mut rtl = VerilatedSystem::build_top(&cfg, &files, &top, true).unwrap();
    let mut model = NicSystem::new(&cfg);
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
    match run_system(&cfg, duts, &opts(20_000, 3)) {
        Ok(r) => panic!("mutant {} not caught: {r}", mutant.name()),
        Err(e) => eprintln!("mutant {} caught: {e:#}", mutant.name()),
    }
}

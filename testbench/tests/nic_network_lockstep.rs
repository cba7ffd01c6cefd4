//! A whole network with a NIC at every endpoint (issue 21 item 1,
//! `topology.endpoint_ports = "nic"`): the generated top `<name>_system`
//! (the network top `<name>_network` and one NIC per endpoint, host ports
//! `p<k>_*`) Verilated, against the composed golden model of the same
//! system (the network's golden routers, `wormqos_netsim::composed`, with
//! the NIC model on every endpoint, `wormqos_sim::nic::system::NicSystem`).
//! Every endpoint's host outputs (AXI4-Lite, AXI4, `irq_o`) are compared
//! every cycle while the host program of `wormqos_testbench::nic::system`
//! (per endpoint: an AXI4-Lite master and a host memory with random
//! backpressure) sends messages between the endpoints with random
//! descriptors (some malformed), and checks conservation end to end: every
//! send completes with the status its descriptor calls for, every
//! well-formed message arrives exactly once at its destination endpoint,
//! intact, and no router drops a flit.
//!
//! Network: experiments/nic_mesh2x2.toml, a 2×2 mesh of 5-port preemptive
//! VirtualClock routers with one register per link direction, the QoS NIC
//! at each of its 4 endpoints with 16 receive contexts. (With 4, the
//! examples' value, the composed model itself stops draining on every seed
//! tried, 1 to 7: in a network more messages can be part-received at one
//! NIC in P mode than 4 contexts hold, the capacity limit docs/nic.md
//! §11.5 states.)
//! The same mesh with the other router modes and the traditional NIC
//! (`#[ignore]`, one Verilator build each, about 4 minutes):
//! `cargo test --release -p wormqos-testbench --test nic_network_lockstep -- --ignored`
//! runs the QoS NIC on non-preemptive (NP) and on traditional (TR)
//! routers, the traditional NIC on TR routers, and checks that a credit
//! leak planted in the traditional NIC is caught.
//! Cost: two Verilator builds (clean, and with two links swapped), about 4
//! minutes each on the shared 2-core machine when not cached; the lockstep
//! itself a few seconds.

use wormqos_hdl::network::NetworkMutant;
use wormqos_hdl::NicFault;
use wormqos_netsim::{Experiment, Validated};
use wormqos_testbench::network::{composed_system, nic_endpoint_config, verilate_system};
use wormqos_testbench::nic::system::{run_system, SystemDut, SystemReport, SystemRunOptions};

/// experiments/nic_mesh2x2.toml: the 2×2 mesh with QoS NICs.
fn mesh_with_nics() -> Validated {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments/nic_mesh2x2.toml");
    Experiment::from_file(&p).unwrap_or_else(|e| panic!("{e}"))
}

/// Sends at 3 % per endpoint and cycle, 15 % malformed, messages up to 16 flits.
fn opts(cycles: u64, seed: u64) -> SystemRunOptions {
    SystemRunOptions { cycles, seed, send_rate: 0.03, malformed: 0.15, max_flits: 16, ..SystemRunOptions::default() }
}

fn check(what: &str, r: &SystemReport, cycles: u64) {
    eprintln!("{what}: {r}");
    // 4 endpoints x 3 % x cycles doorbells, 85 % well formed: about 0.1 per
    // cycle when nothing throttles; ask for a third of that.
    assert!(r.messages_received > cycles / 30, "{what}: too few messages: {r}");
    assert!(r.sends_by_code[1..].iter().filter(|&&n| n > 0).count() >= 4, "{what}: too few error kinds: {r}");
}

/// The composed model alone passes the conservation checks.
#[test]
fn composed_network_with_nics_alone_conserves_every_message() {
    let v = mesh_with_nics();
    let cfg = nic_endpoint_config(&v).unwrap();
    let mut m = composed_system(&v).unwrap();
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut m];
    let r = run_system(&cfg, duts, &opts(20_000, 1)).unwrap_or_else(|e| panic!("{e:#}"));
    check("model", &r, 20_000);
}

/// experiments/nic_mesh2x2.toml with the routers' `mode = "preemptive"`
/// line replaced by `router` (the mode's fields) and the NIC variant by `nic`.
fn variant(router: &str, nic: &str) -> Validated {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments/nic_mesh2x2.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("scheduler = \"virtualclock\"\nmode = \"preemptive\"\n") && text.contains("variant = \"qos\""));
    let text = text
        .replace("scheduler = \"virtualclock\"\nmode = \"preemptive\"\n", router)
        .replace("variant = \"qos\"", &format!("variant = \"{nic}\""));
    Experiment::from_str(&text, "nic_mesh2x2 variant", p.parent().unwrap().to_path_buf()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// NP routers: VirtualClock, VCs partitioned 1:1:2 over the three classes.
const NP: &str = "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 2]\n";
/// TR routers: FIFO scheduler, the same partition.
const TR: &str = "scheduler = \"fifo\"\nmode = \"traditional\"\nvc_ratio = [1, 1, 2]\n";

fn lockstep(mutant: Option<NetworkMutant>, fault: Option<NicFault>, cycles: u64) -> anyhow::Result<SystemReport> {
    lockstep_on(&mesh_with_nics(), mutant, fault, cycles)
}

fn lockstep_on(v: &Validated, mutant: Option<NetworkMutant>, fault: Option<NicFault>, cycles: u64) -> anyhow::Result<SystemReport> {
    let cfg = nic_endpoint_config(v).unwrap();
    let mut rtl = verilate_system(v, mutant, fault).unwrap_or_else(|e| panic!("verilating: {e:#}"));
    let mut model = composed_system(v).unwrap();
    let start = std::time::Instant::now();
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
    let r = run_system(&cfg, duts, &opts(cycles, 5))?;
    eprintln!("{:.0} cycles/s in lockstep", r.cycles as f64 / start.elapsed().as_secs_f64());
    Ok(r)
}

#[test]
fn mesh_2x2_with_qos_nics_in_lockstep() {
    let r = lockstep(None, None, 30_000).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.compared, r.cycles);
    assert!(r.cycles >= 30_000);
    check("rtl = model", &r, 30_000);
}

/// A wiring bug in the network top under the NICs (two of a router's
/// incoming links swapped): the hosts' outputs differ from the model's.
#[test]
fn swapped_links_under_the_nics_are_caught() {
    match lockstep(Some(NetworkMutant::SwapLinks), None, 10_000) {
        Ok(r) => panic!("the swapped links were not caught: {r}"),
        Err(e) => eprintln!("caught: {e:#}"),
    }
}

fn variant_in_lockstep(what: &str, router: &str, nic: &str) {
    let start = std::time::Instant::now();
    let r = lockstep_on(&variant(router, nic), None, None, 30_000).unwrap_or_else(|e| panic!("{what}: {e:#}"));
    assert_eq!(r.compared, r.cycles, "{what}");
    assert!(r.cycles >= 30_000, "{what}");
    check(what, &r, 30_000);
    eprintln!("{what}: {:.0} s with the Verilator build", start.elapsed().as_secs_f64());
}

#[test]
#[ignore = "one Verilator build, about 4 minutes; see the module doc"]
fn mesh_2x2_with_qos_nics_on_np_routers_in_lockstep() {
    variant_in_lockstep("QoS NIC, NP routers", NP, "qos");
}

#[test]
#[ignore = "one Verilator build, about 4 minutes; see the module doc"]
fn mesh_2x2_with_qos_nics_on_tr_routers_in_lockstep() {
    variant_in_lockstep("QoS NIC, TR routers", TR, "qos");
}

#[test]
#[ignore = "one Verilator build, about 4 minutes; see the module doc"]
fn mesh_2x2_with_traditional_nics_on_tr_routers_in_lockstep() {
    variant_in_lockstep("traditional NIC, TR routers", TR, "traditional");
}

/// The variants' lockstep is not vacuous: the traditional NIC with a
/// planted credit leak (a tail flit consumes no credit, docs/nic.md §9.1)
/// on TR routers differs from the model.
#[test]
#[ignore = "one Verilator build, about 2-4 minutes; see the module doc"]
fn a_credit_leak_in_the_traditional_nic_is_caught() {
    match lockstep_on(&variant(TR, "traditional"), None, Some(NicFault::CreditLeak), 10_000) {
        Ok(r) => panic!("the credit leak was not caught: {r}"),
        Err(e) => eprintln!("caught: {e:#}"),
    }
}

//! Whole networks in lockstep (issue 21 item 2): the generated network top
//! (`wormqos_hdl::network`, every router with its own routing table)
//! Verilated, against the composed golden model of the same network
//! (`wormqos_netsim::composed`), every endpoint's outputs compared every
//! cycle, with the conservation scoreboard across the network and random
//! traffic with backpressure from the endpoints (the stimulus and sinks of
//! the single-router lockstep, one port per endpoint).
//!
//! Networks: 001_… Fig. 4's 2×2 fat mesh of 8-port routers (2 parallel
//! links, load-based link choice), a 4×4 mesh of 5-port routers, a 3-cube,
//! and a 4-ary 2-cube torus with dateline VC classes; 50,000 injection
//! cycles each. Planted bugs in the network top (two links swapped, a link
//! register dropped) must be caught.
//!
//! Cost is the first Verilator build of a network (every router is its own
//! module set): on the shared 2-core machine about 4 minutes for the fat
//! mesh or a 16-router network, under 2 for the 3-cube; the lockstep itself
//! runs at 5,000 (4×4 mesh) to 17,000 (3-cube) cycles/s. The two 16-router
//! networks are opt-in:
//! `cargo test --release -p wormqos-testbench --test network_lockstep -- --ignored`.

use std::path::PathBuf;
use wormqos_hdl::network::NetworkMutant;
use wormqos_netsim::{Experiment, Validated};
use wormqos_testbench::lockstep::{run_lockstep, LockstepError, LockstepOptions, LockstepReport};
use wormqos_testbench::network::{composed, endpoint_config, network_traffic, verilate};

/// An experiment with this router and topology (the workload is not used:
/// the lockstep's own random traffic drives the endpoints).
fn experiment(name: &str, router: &str, topology: &str) -> Validated {
    let text = format!(
        "name = \"{name}\"\n[router]\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n{router}\n\
         [topology]\n{topology}\n[workload]\nload = 0.1\n"
    );
    Experiment::from_str(&text, &format!("{name}.toml"), PathBuf::new()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn fat_mesh() -> Validated {
    experiment(
        "fatmesh",
        "ports = 8\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"",
        "kind = \"fat_mesh\"\nk = 2\nlinks = 2\nendpoints = 4",
    )
}

fn mesh4() -> Validated {
    experiment("mesh4", "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"", "kind = \"mesh\"\nk = 4")
}

fn cube3() -> Validated {
    experiment("cube3", "ports = 4\nvcs = 2\ncrossbar = \"full\"\nscheduler = \"fifo\"", "kind = \"hypercube\"\nn = 3")
}

fn torus4() -> Validated {
    experiment("torus4x4", "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"", "kind = \"torus\"\nk = 4\nn = 2")
}

/// A 2x2 mesh of split-stage routers (docs/microarchitecture.md §6 *Split
/// switch allocation*): their credits leave when the flit crosses, and the
/// neighbours count them at the end of that cycle.
fn mesh2_split() -> Validated {
    experiment(
        "mesh2_split",
        "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\nswitch_stage = \"split\"",
        "kind = \"mesh\"\nk = 2",
    )
}

fn opts(cycles: u64, seed: u64) -> LockstepOptions {
    LockstepOptions { cycles, seed, traffic: network_traffic(), drain_limit: 50_000, ..LockstepOptions::default() }
}

fn lockstep(v: &Validated, link_latency: u32, mutant: Option<NetworkMutant>, o: &LockstepOptions) -> Result<LockstepReport, LockstepError> {
    let cfg = endpoint_config(v).unwrap();
    let mut rtl = verilate(v, link_latency, mutant).unwrap_or_else(|e| panic!("verilating {}: {e:#}", v.file));
    let b = rtl.build_info();
    eprintln!("{}: Verilator model {} in {:.0} s", v.file, if b.cached { "found" } else { "built" }, b.seconds);
    let mut model = composed(v, link_latency);
    let start = std::time::Instant::now();
    let r = run_lockstep(&cfg, &mut rtl, &mut model, o);
    if let Ok(r) = &r {
        eprintln!("{}: {:.0} cycles/s in lockstep", v.file, r.cycles as f64 / start.elapsed().as_secs_f64());
    }
    r
}

/// 50,000 cycles of injection; every router-to-router link must have carried
/// traffic (else a part of the network was never compared under load).
fn passes(v: &Validated, link_latency: u32) {
    let r = lockstep(v, link_latency, None, &opts(50_000, 1)).unwrap_or_else(|e| panic!("{}: {e}", v.file));
    eprintln!("{}: {r}", v.file);
    let e = v.net.endpoints() as u64;
    assert!(r.flits_delivered > 50_000 * e / 10, "{}: too little traffic: {r}", v.file);
    assert_eq!(r.flits_injected, r.flits_delivered);
    assert!(r.stimulus.sink_hold_cycles > 0 && r.stimulus.source_credit_blocked > 0, "{}: no backpressure: {r}", v.file);
}

#[test]
fn fat_mesh_2x2_of_8_port_routers() {
    passes(&fat_mesh(), 0);
}

#[test]
#[ignore = "16 routers: a 5-minute first Verilator build; run with --ignored"]
fn mesh_4x4_of_5_port_routers() {
    passes(&mesh4(), 0);
}

#[test]
#[ignore = "4 split routers: a Verilator build of about 30 s; run with --ignored"]
fn mesh_2x2_of_split_routers() {
    passes(&mesh2_split(), 0);
}

#[test]
fn hypercube_3_with_two_registers_per_link() {
    passes(&cube3(), 2);
}

#[test]
#[ignore = "16 routers: a 5-minute first Verilator build; run with --ignored"]
fn torus_4_ary_2_cube_with_datelines() {
    passes(&torus4(), 0);
}

/// Preemptive routers (docs/microarchitecture.md §9.4) with a register on
/// every link: the dummy wires cross the links, and a message may be split
/// into parts in every router on its way (the part scoreboard reassembles).
#[test]
fn preemptive_2x2_mesh_with_one_register_per_link() {
    let v = experiment(
        "pmesh",
        "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         acceleration = true\nclock_width = 10\nvtick_width = 10",
        "kind = \"mesh\"\nk = 2",
    );
    let r = lockstep(&v, 1, None, &opts(50_000, 3)).unwrap_or_else(|e| panic!("{}: {e}", v.file));
    eprintln!("{}: {r}", v.file);
    let parts = r.parts.clone().expect("preemptive: parts are counted");
    assert!(parts.split_messages > 0 && parts.max_parts >= 2, "no message was preempted inside the network: {r} {parts:?}");
    assert!(r.flits_delivered > 50_000, "too little traffic: {r} {parts:?}");
}

/// Per-lane credits (docs/microarchitecture.md §9.4 *Credits*) across the
/// network: every router-to-router link carries the lane of each flit
/// forward and the lane of each credit back, through `link_latency`
/// registers each way. The endpoints' sources are the model's lane
/// senders; the extra lanes must be used at the endpoints in both
/// directions, and messages must be split inside.
fn per_lane_mesh(link_latency: u32) {
    let v = experiment(
        "pmesh_lanes",
        "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
         preemption_credits = \"per_lane\"\nclock_width = 10\nvtick_width = 10",
        "kind = \"mesh\"\nk = 2",
    );
    let mut o = opts(50_000, 5);
    o.traffic.source_preempt_prob = 0.05;
    o.traffic.max_message_flits = 12;
    let r = lockstep(&v, link_latency, None, &o).unwrap_or_else(|e| panic!("{}, link latency {link_latency}: {e}", v.file));
    let (parts, st) = (r.parts.clone().expect("preemptive: parts are counted"), &r.stimulus);
    eprintln!("{}: {r}\n  {parts:?}\n  extra-lane flits: {} injected, {} received", v.file, st.extra_lane_flits_injected, st.extra_lane_flits_received);
    assert_eq!(r.flits_injected, r.flits_delivered);
    assert!(parts.split_messages > 0 && parts.max_parts >= 2, "no message was preempted inside the network: {r} {parts:?}");
    assert!(st.extra_lane_flits_injected >= 100, "the sources never used an extra lane: {st:?}");
    assert!(st.extra_lane_flits_received >= 100, "no router opened an extra lane towards an endpoint: {st:?}");
}

#[test]
fn preemptive_2x2_mesh_with_per_lane_credits() {
    per_lane_mesh(0);
}

/// The same with two registers per link and direction (docs/integration.md,
/// "Link latency"): the generated top's `link_r*_credit_lane_s*` registers
/// against the composed model's `credit_pipe`, which carries the lanes
/// with the credits. Opt-in (its own Verilator build, about 2.5 minutes on
/// the shared machine): `cargo test --release -p wormqos-testbench --test
/// network_lockstep -- --ignored two_link_registers`.
#[test]
#[ignore]
fn preemptive_2x2_mesh_with_per_lane_credits_and_two_link_registers() {
    per_lane_mesh(2);
}

/// A wiring bug in the top: two of a router's incoming links swapped.
#[test]
fn swapped_links_are_caught() {
    match lockstep(&cube3(), 0, Some(NetworkMutant::SwapLinks), &opts(5_000, 1)) {
        Err(LockstepError::Mismatch(m)) => eprintln!("caught: {m}"),
        other => panic!("the swapped links were not caught: {other:?}"),
    }
}

/// A link one register shorter than the model's.
#[test]
fn a_dropped_link_register_is_caught() {
    match lockstep(&cube3(), 2, Some(NetworkMutant::DropLinkRegister), &opts(5_000, 1)) {
        Err(LockstepError::Mismatch(m)) => eprintln!("caught: {m}"),
        other => panic!("the dropped link register was not caught: {other:?}"),
    }
}

/// Speed of the Verilated network top and of the composed model, each alone
/// under the same traffic (docs/benchmarks.md). Opt-in:
/// `cargo test --release -p wormqos-testbench --test network_lockstep -- --ignored --nocapture speed`
#[test]
#[ignore]
fn speed_of_the_network_top_and_the_composed_model() {
    for v in [mesh4(), fat_mesh()] {
        let cfg = endpoint_config(&v).unwrap();
        let o = opts(50_000, 1);
        let mut rtl = verilate(&v, 0, None).unwrap();
        let mut model = composed(&v, 0);
        let rate = |d: &mut dyn wormqos_testbench::dut::Dut| {
            let start = std::time::Instant::now();
            let r = wormqos_testbench::lockstep::run_single(&cfg, d, &o).unwrap();
            assert!(r.flits_delivered > 0);
            r.cycles as f64 / start.elapsed().as_secs_f64()
        };
        let (a, b) = (rate(&mut rtl), rate(&mut model));
        eprintln!("{}: {} routers; Verilator network top {a:.0} cycles/s, composed model {b:.0} cycles/s (stimulus and scoreboard included)", v.file, v.net.routers);
    }
}

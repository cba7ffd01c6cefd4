//! The composed network model (`composed.rs`, what the whole-network
//! lockstep runs against the generated network top) against the network
//! simulator's engine (`network.rs`): the engine's sources are replayed into
//! the composed model, whose sinks return credits as the engine's do (at
//! once), and every flit must leave the same endpoint in the same cycle;
//! with `topology.link_latency` = 0, 1 and 2 (the engine's link registers,
//! `network.rs` `LinkPipes`, against the composed model's, written
//! separately as the generated network top's).

use std::collections::BTreeMap;
use wormqos_netsim::composed::ComposedNetwork;
use wormqos_netsim::network::{FlitTrace, Sim};
use wormqos_netsim::Experiment;
use wormqos_sim::{credit_lane_word, LinkFlit, RouterInputs};

fn experiment(topology: &str, ports: u32, vcs: u32, link_latency: u32) -> wormqos_netsim::Validated {
    let text = format!(
        "name = \"agree\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n[topology]\n{topology}\nlink_latency = {link_latency}\n\
         [workload]\nload = 0.7\nmix = [0, 100]\nrealtime = \"none\"\nbest_effort = \"bernoulli\"\nmessage_flits = 5\n\
         [run]\ncycles = 4000\nwarmup_cycles = 100\ndrain_cycles = 20000\n"
    );
    Experiment::from_str(&text, "agree.toml", ".".into()).unwrap()
}

type ByCycle = BTreeMap<u64, Vec<(usize, LinkFlit)>>;

fn by_cycle(list: &[(u64, usize, LinkFlit)]) -> ByCycle {
    let mut m = ByCycle::new();
    for &(t, e, f) in list {
        m.entry(t).or_default().push((e, f));
    }
    m
}

/// Replays the engine's injections into the composed model; returns what
/// the composed model ejected, per cycle.
fn replay(v: &wormqos_netsim::Validated, trace: &FlitTrace, link_latency: u32) -> ByCycle {
    let mut net = ComposedNetwork::new(&v.net, &v.configs, link_latency);
    net.reset();
    let e = v.net.endpoints();
    let injected = by_cycle(&trace.injected);
    let last = trace.ejected.iter().map(|x| x.0).max().unwrap_or(0) + 50;
    let mut out = ByCycle::new();
    let mut ins = RouterInputs { flits: vec![LinkFlit::IDLE; e], credits: vec![0; e], credit_lanes: vec![0; e], route_write: None };
    for t in 0..=last {
        ins.flits.fill(LinkFlit::IDLE);
        for (k, f) in net.outputs().flits.iter().enumerate() {
            ins.credits[k] = if f.valid { 1 << f.vc } else { 0 };
            // A sink returns each credit with its flit's lane (§9.4 *Credits*).
            ins.credit_lanes[k] = if f.valid { credit_lane_word(f.vc as usize, f.lane as usize) } else { 0 };
            if f.valid {
                out.entry(t).or_default().push((k, *f));
            }
        }
        for &(k, f) in injected.get(&t).into_iter().flatten() {
            ins.flits[k] = f;
        }
        net.step(&ins);
    }
    out
}

/// The engine with `link_latency` registers per link and the composed model
/// with as many deliver the same flits in the same cycles.
fn check(topology: &str, ports: u32, vcs: u32, link_latency: u32) {
    check_experiment(&experiment(topology, ports, vcs, link_latency), topology, link_latency);
}

/// [`check`] of any experiment; returns the engine's results.
fn check_experiment(v: &wormqos_netsim::Validated, topology: &str, link_latency: u32) -> wormqos_netsim::Results {
    assert_eq!(v.exp.topology.link_latency, link_latency);
    let (results, trace) = Sim::new(v).unwrap().run_traced().unwrap();
    assert!(results.flits_ejected > 10_000, "{topology}: too little traffic ({} flits)", results.flits_ejected);
    // The trace holds dummy flits too (P mode), the count real ones only.
    assert_eq!(trace.ejected.iter().filter(|(_, _, f)| !f.dummy).count() as u64, results.flits_ejected);
    let engine = by_cycle(&trace.ejected);
    let composed = replay(v, &trace, link_latency);
    if let Some((t, want)) = engine.iter().find(|(t, want)| composed.get(t) != Some(want)) {
        panic!("{topology}, link latency {link_latency}: cycle {t}: the engine ejected {want:?}, the composed model {:?}", composed.get(t));
    }
    assert_eq!(engine.len(), composed.len(), "{topology}, link latency {link_latency}: the composed model ejected in cycles the engine did not");
    // The comparison can fail: one register more on every link shifts the
    // composed model's deliveries.
    assert_ne!(replay(v, &trace, link_latency + 1), engine, "{topology}: one more link register must change the deliveries");
    results
}

#[test]
fn composed_model_delivers_what_the_engine_delivers_mesh() {
    check("kind = \"mesh\"\nk = 2", 5, 2, 0);
}

#[test]
fn composed_model_delivers_what_the_engine_delivers_fat_mesh_and_torus() {
    check("kind = \"fat_mesh\"\nk = 2\nlinks = 2\nendpoints = 2", 6, 2, 0);
    check("kind = \"torus\"\nk = 4\nn = 1", 3, 2, 0);
}

#[test]
fn with_link_registers_the_engine_delivers_what_the_composed_model_delivers_mesh() {
    for latency in [1, 2] {
        check("kind = \"mesh\"\nk = 2", 5, 2, latency);
    }
}

#[test]
fn with_link_registers_the_engine_delivers_what_the_composed_model_delivers_fat_mesh_torus_cube() {
    check("kind = \"fat_mesh\"\nk = 2\nlinks = 2\nendpoints = 2", 6, 2, 1);
    check("kind = \"torus\"\nk = 4\nn = 1", 3, 2, 2);
    check("kind = \"hypercube\"\nn = 3", 4, 2, 2);
}

/// Per-lane credits (docs/microarchitecture.md §9.4 *Credits*) through link
/// registers: a 2 × 2 mesh of preemptive routers, three classes on two VCs,
/// where each link register carries a flit's lane and a credit's lanes (the
/// engine's `LinkPipes`, the composed model's `flit_pipe` / `credit_pipe`).
/// Extra lanes must be used on the way: the routers preempt, also nested
/// (a message in lane 2 above lanes 0 and 1).
#[test]
fn with_link_registers_and_per_lane_credits_the_engine_delivers_what_the_composed_model_delivers() {
    for latency in [1, 2] {
        let text = format!(
            "name = \"agree_lane\"\n[router]\nports = 5\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\n\
             output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
             traffic_classes = 3\npreemption_credits = \"per_lane\"\n[topology]\nkind = \"mesh\"\nk = 2\nlink_latency = {latency}\n\
             [physical]\nlink_mbps = 400\n[workload]\nload = 0.9\nmix = [50, 50]\nrealtime = \"poisson\"\n\
             best_effort = \"poisson\"\nmessage_flits = 8\ncontrol = true\ncontrol_flits = 4\n\
             [run]\ncycles = 6000\nwarmup_cycles = 100\ndrain_cycles = 20000\n"
        );
        let v = Experiment::from_str(&text, "agree_lane.toml", ".".into()).unwrap();
        let r = check_experiment(&v, "2 × 2 preemptive mesh, per-lane credits", latency);
        let ev = &r.router_events;
        assert!(ev.preemptions >= 100 && ev.nested_preemptions > 0, "link latency {latency}: {ev:?}");
    }
}

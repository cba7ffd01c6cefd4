//! The analytical models against the simulator, with the bounds that
//! docs/reproduction.md states and explains.

use std::path::PathBuf;
use wormqos_netsim::analytic::predict;
use wormqos_netsim::{run, Experiment, Results};

/// 000_… Table 1 (16 ports, 3 VCs, M = b_s = 32, VirtualClock), full crossbar
/// (the model has no crossbar head-of-line loss), R1 : R2 = 2 : 1 Poisson,
/// best effort 0.01 messages/cycle/port, `rt` real-time messages/cycle/port.
fn table1(rt: f64, cycles: u64) -> String {
    let (r, b) = (rt * 32.0, 0.32);
    format!(
        r#"
name = "t1"
[router]
ports = 16
vcs = 3
flit_width = 32
input_buffer_depth = 32
output_buffer_depth = 32
crossbar = "full"
scheduler = "virtualclock"
traffic_classes = 3
[topology]
kind = "single_switch"
[workload]
load = {}
mix = [{r}, {b}]
realtime = "poisson"
best_effort = "poisson"
message_flits = 32
[run]
cycles = {cycles}
warmup_cycles = 20000
seed = 3
"#,
        r + b
    )
}

fn net(r: &Results, class: u8) -> f64 {
    r.classes.iter().find(|c| c.class == class).unwrap().network_latency
}

/// Model and simulation per class (R1 = class 2, R2 = 1, BE = 0) at `rt`.
fn compare(rt: f64) -> [(f64, f64); 3] {
    let v = Experiment::from_str(&table1(rt, 300_000), "t1.toml", PathBuf::new()).unwrap();
    let plan = predict::plan(&v).unwrap();
    let model = plan.evaluate(&[]).remove(0).result.unwrap();
    let m = predict::to_results(&v, &model);
    let s = run(&v).unwrap();
    [(net(&m, 2), net(&s, 2)), (net(&m, 1), net(&s, 1)), (net(&m, 0), net(&s, 0))]
}

#[test]
fn single_router_model_against_simulation_within_stated_bounds() {
    // Below ~70 % of the router's saturation (real time ≤ 0.010 of ≈ 0.015
    // messages/cycle/port): R2 within 10 %, best effort within 30 % and R1
    // within 40 % — R1 and best effort are the two disagreements that
    // docs/reproduction.md (000_… Fig. 4) traces to the model's
    // assumptions; the model is below the simulation for both.
    for rt in [0.002, 0.006, 0.010] {
        let [r1, r2, be] = compare(rt);
        let err = |(m, s): (f64, f64)| (m - s) / s;
        assert!(err(r2).abs() <= 0.10, "rt {rt}: R2 model {} sim {}", r2.0, r2.1);
        assert!(err(be).abs() <= 0.30 && be.0 < be.1, "rt {rt}: BE model {} sim {}", be.0, be.1);
        assert!(err(r1).abs() <= 0.40 && r1.0 < r1.1, "rt {rt}: R1 model {} sim {}", r1.0, r1.1);
        // Both agree on the transfer-time floor P − 1 + M = 36.
        assert!(r1.0 >= 36.0 && r1.1 >= 36.0);
    }
}

fn ring(kind: &str, nodes: u32, links: u32, ports: u32, load: f64, dateline: bool) -> String {
    format!(
        r#"
name = "r"
[router]
ports = {ports}
vcs = 4
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 4
crossbar = "full"
scheduler = "round_robin"
[topology]
kind = "{kind}"
nodes = {nodes}
links = {links}
dateline = {dateline}
[workload]
load = {load}
mix = [0, 100]
realtime = "none"
best_effort = "poisson"
message_flits = 10
[run]
cycles = 100000
warmup_cycles = 10000
seed = 5
"#
    )
}

/// Network latency per named model, and the simulated one.
fn ring_compare(text: &str) -> (Vec<(&'static str, Result<f64, String>)>, f64) {
    let v = Experiment::from_str(text, "r.toml", PathBuf::new()).unwrap();
    let named = predict::plan(&v).unwrap().evaluate(&[]);
    let m = named
        .into_iter()
        .map(|n| (n.name, n.result.map(|c| c[0].network_latency).map_err(|e| e.to_string())))
        .collect();
    (m, net(&run(&v).unwrap(), 0))
}

#[test]
fn ring_models_against_simulation_within_stated_bounds() {
    // 004_… Fig. 7(b) on netsim's unidirectional ring (16 nodes, 4 links,
    // 4 VCs, 10 flits): up to 0.15 flits/node/cycle every model's network
    // latency is within 10 % of the simulation (all below it at 0.15: no
    // model has a term for VCs sharing a link flit by flit).
    for load in [0.05, 0.15] {
        let (models, sim) = ring_compare(&ring("ring", 16, 4, 5, load, false));
        for (name, m) in &models {
            let m = *m.as_ref().unwrap();
            assert!(((m - sim) / sim).abs() <= 0.10, "load {load}: {name} {m} vs sim {sim}");
        }
    }
    // At 0.3 the paper's segmentation queue (Eq. 8: one packet at a time,
    // served for the whole t̄_s) is saturated although the ring is not.
    let v = Experiment::from_str(&ring("ring", 16, 4, 5, 0.3, false), "r.toml", PathBuf::new()).unwrap();
    for n in predict::plan(&v).unwrap().evaluate(&[]) {
        assert!(matches!(n.result, Err(predict::PredictError::Saturated(_))), "{}", n.name);
    }
}

#[test]
fn multilink_ring_of_004_routes_the_short_way_on_the_destination_block() {
    use wormqos_netsim::topology::{Peer, TopologySpec};
    let net = TopologySpec::MultilinkRing { nodes: 16, links: Some(4), dateline: true }.build(9).unwrap();
    for s in 0..16usize {
        for d in 0..16usize {
            if s == d {
                continue;
            }
            let (fwd, mut r, mut hops) = ((d + 16 - s) % 16, s, 0);
            let plus = fwd <= 16 - fwd;
            while r != d {
                let port = net.routes[r][d] as usize;
                // + link j is port 1 + j, − link j is port 5 + j; j = d mod 4.
                assert_eq!(port, if plus { 1 } else { 5 } + d % 4, "{s}->{d} at {r}");
                let Peer::Router { router, .. } = net.out_link[r][port] else { panic!("{s}->{d}") };
                r = router;
                hops += 1;
            }
            assert_eq!(hops, fwd.min(16 - fwd), "{s}->{d}");
        }
    }
    // Simulated at light load with dateline classes (2 of 4 VCs per header):
    // the tandem models within 10 % of the simulated network latency.
    let (models, sim) = ring_compare(&ring("multilink_ring", 16, 4, 9, 0.1, true));
    for (name, m) in models.iter().filter(|(n, _)| *n == "mmn" || *n == "mdn") {
        let m = *m.as_ref().unwrap();
        assert!(((m - sim) / sim).abs() <= 0.10, "{name} {m} vs sim {sim}");
    }
}

#[test]
fn cube_model_against_simulation_within_stated_bounds() {
    // 000_… Fig. 7(b) (experiments/fig7_000_cube6.toml): 6-cube, Table 1
    // routers, best effort 0.002, R1 + R2 = 0.0015 and 0.0045
    // messages/cycle/node (the paper's R1 = 0.001, 0.003): every class
    // within 15 %, R2 within 8 % (short runs: 60 k cycles).
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/fig7_000_cube6.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap().replace("cycles = 200000", "cycles = 60000");
    for (load, mix) in [(0.112, "[0.048, 0.064]"), (0.208, "[0.144, 0.064]")] {
        let text = base.replace("load = 0.16", &format!("load = {load}")).replace("mix = [0.096, 0.064]", &format!("mix = {mix}"));
        let v = Experiment::from_str(&text, "c.toml", PathBuf::new()).unwrap();
        let m = predict::to_results(&v, &predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap());
        let s = run(&v).unwrap();
        for c in 0..3u8 {
            let (a, b) = (net(&m, c), net(&s, c));
            let bound = if c == 1 { 0.08 } else { 0.15 };
            assert!(((a - b) / b).abs() <= bound, "load {load} class {c}: model {a} sim {b}");
        }
    }
}

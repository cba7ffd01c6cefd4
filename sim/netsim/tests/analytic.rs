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
    let model = plan.evaluate().remove(0).result.unwrap();
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

//! Per-lane credits (`router.preemption_credits = "per_lane"`,
//! docs/microarchitecture.md §9.4 *Credits*) across router-to-router links:
//! a 3x3 mesh of preemptive routers with 4-flit lanes under three classes.
//! The run's end checks (no flit dropped by a router, i.e. no lane ever
//! overflowed; no deadlock) hold, and the choice takes effect (the run
//! differs from the same mesh with per-VC credits).

use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

const MESH: &str = r#"name = "mesh_lane"
[router]
ports = 5
vcs = 2
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "virtualclock"
mode = "preemptive"
traffic_classes = 3
CREDITS
[topology]
kind = "mesh"
k = 3
[physical]
link_mbps = 400
[workload]
load = 0.5
mix = [50, 50]
realtime = "poisson"
best_effort = "poisson"
message_flits = 8
control = true
control_flits = 4
[run]
cycles = 30000
"#;

fn run(credits: &str) -> wormqos_netsim::network::Results {
    let text = MESH.replace("CREDITS", &format!("preemption_credits = \"{credits}\""));
    let v = Experiment::from_str(&text, "mesh_lane.toml", std::env::temp_dir()).unwrap();
    Sim::new(&v).unwrap().run().unwrap_or_else(|e| panic!("{credits}: {e}"))
}

#[test]
fn per_lane_credits_hold_across_router_links() {
    let lane = run("per_lane");
    let vc = run("per_vc");
    assert!(lane.router_events.preemptions > 0 && lane.router_events.nested_preemptions > 0);
    for r in [&lane, &vc] {
        assert!(r.classes.iter().all(|c| c.messages > 0));
    }
    assert_ne!(lane.router_events.preemptions, vc.router_events.preemptions, "per_lane changed nothing");
}

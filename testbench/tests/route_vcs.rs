//! The routing table extensions in RTL lockstep with the golden model.
//!
//! Parallel links (`topology.route_links`, §2): router 0 of the 001_… fat
//! mesh, whose RC picks the parallel port with the most free output VCs
//! (the planted bug `link-choice-first` must be caught), and small tables
//! on the general engine with a partition and with preemption.
//!
//! Allowed output VC sets (`topology.route_vcs`, docs/microarchitecture.md §2,
//! §6 stage 3, §11): a router of a
//! 4-ary 2-cube torus with the dateline sets the network simulator builds
//! (foundation engine), and small hand-built tables combined with a static
//! partition (NP) and with preemption (P + acceleration) on the general
//! engine. Besides RTL == model every cycle, a model-free check requires every
//! header to leave on a VC of its destination's set. The planted bug
//! `route-vcs-ignored` must be caught by both.

mod common;

use common::*;
use std::path::PathBuf;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;
use wormqos_sim::Router;
use wormqos_testbench::lockstep::{run_lockstep, run_single, LockstepError, LockstepOptions};
use wormqos_testbench::scoreboard::ErrorKind;

/// Router 14 of a 4-ary 2-cube (coordinates (2, 3)), 4 VCs: dateline class 0
/// = VCs 0-1, class 1 = VCs 2-3, ejection any.
fn torus_router() -> RouterConfig {
    let text = r#"
name = "torus4"
[router]
ports = 5
vcs = 4
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "torus"
k = 4
n = 2
[workload]
load = 0.1
"#;
    let v = wormqos_netsim::Experiment::from_str(text, "torus4.toml", PathBuf::new()).unwrap_or_else(|e| panic!("{e}"));
    v.configs[14].clone()
}

fn small(name: &str, router: &str, topology: &str) -> RouterConfig {
    let text = format!(
        "name = \"{name}\"\n[router]\nports = 3\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
         clock_width = 8\nvtick_width = 8\n{router}[topology]\n{topology}"
    );
    RouterConfig::from_toml_str(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn opts(cycles: u64, seed: u64) -> LockstepOptions {
    LockstepOptions { cycles, seed, drain_limit: 20_000, waveform_dir: Some(waveform_dir()), ..Default::default() }
}

/// For a planted bug's expected mismatch: no waveform (it would rebuild the
/// model with --trace).
fn no_wave(o: LockstepOptions) -> LockstepOptions {
    LockstepOptions { waveform_dir: None, ..o }
}

fn lockstep(cfg: &RouterConfig, cycles: u64, seed: u64) {
    let mut dut = rtl(cfg, None);
    let mut model = Router::new(cfg);
    let mut o = opts(cycles, seed);
    o.traffic = traffic_for(cfg);
    o.traffic.injection_rate = 0.7;
    let report = run_lockstep(cfg, &mut dut, &mut model, &o).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}", cfg.name());
    assert!(report.cycles >= cycles);
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "an output port saw no traffic: {report}");
    assert!(report.stimulus.source_credit_blocked > 0, "no backpressure: {report}");
}

#[test]
fn torus_router_dateline_sets_rtl_equals_model() {
    let cfg = torus_router();
    let t = cfg.route_vc_table().unwrap();
    // At (2, 3): to (0, 0) +x over 3 -> 0 (the wrap: class 0); to (1, 0) -x
    // straight to 1 (class 1); to (2, 0) +y over the y wrap 3 -> 0 (class 0);
    // to (2, 2) -y (class 1); destination 14 is this router's endpoint.
    assert_eq!((cfg.route(0), cfg.route(1), cfg.route(2), cfg.route(10), cfg.route(14)), (1, 2, 3, 4, 0));
    assert_eq!((t[0], t[1], t[2], t[10], t[14]), (0b0011, 0b1100, 0b0011, 0b1100, 0b1111));
    lockstep(&cfg, 30_000, 21);
}

#[test]
fn route_vcs_with_partition_and_preemption_rtl_equals_model() {
    // NP, classes [1, 1, 0, 0]: every set meets both classes.
    let np = small(
        "rvnp",
        "vcs = 4\ncrossbar = \"full\"\nscheduler = \"virtualclock\"\nmode = \"non_preemptive\"\ntraffic_classes = 2\nvc_classes = [1, 1, 0, 0]\n",
        "kind = \"network\"\nroutes = [0, 1, 2, 2, 1]\nroute_vcs = [5, 10, 15, 9, 6]\n",
    );
    lockstep(&np, 25_000, 22);
    let p = small(
        "rvpa",
        "vcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\n",
        "kind = \"network\"\nroutes = [0, 1, 2, 2, 1]\nroute_vcs = [1, 2, 3, 1, 2]\n",
    );
    lockstep(&p, 25_000, 23);
}

#[test]
fn route_vcs_ignored_is_caught_with_and_without_the_model() {
    let cfg = torus_router();
    assert!(Mutant::RouteVcsIgnored.applies_to(&cfg));
    run_single(&cfg, &mut rtl(&cfg, None), &opts(20_000, 5)).unwrap_or_else(|e| panic!("{e}"));

    let mut dut = rtl(&cfg, Some(Mutant::RouteVcsIgnored));
    let err = run_lockstep(&cfg, &mut dut, &mut Router::new(&cfg), &no_wave(opts(20_000, 5))).err().expect("route-vcs-ignored escaped lockstep");
    let LockstepError::Mismatch(m) = &err else { panic!("expected a mismatch, got {err}") };
    eprintln!("lockstep: caught at cycle {} on {}", m.cycle, m.signal);

    let mut dut = rtl(&cfg, Some(Mutant::RouteVcsIgnored));
    let err = run_single(&cfg, &mut dut, &opts(20_000, 5)).err().expect("route-vcs-ignored escaped the allowed-set check");
    let LockstepError::Conservation { source, .. } = &err else { panic!("expected the allowed-set check, got {err}") };
    assert_eq!(source.kind, ErrorKind::DisallowedVc, "{err}");
    eprintln!("model-free: {err}");
}

/// Router 0 of the 2x2 fat mesh of 001_… Fig. 4 (8 ports: endpoints 0-3,
/// ports 4-5 to one neighbour, 6-7 to the other), as the simulator builds it.
fn fat_mesh_router() -> RouterConfig {
    let text = r#"
name = "fm"
[router]
ports = 8
vcs = 2
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "fat_mesh"
k = 2
links = 2
endpoints = 4
[workload]
load = 0.1
"#;
    let v = wormqos_netsim::Experiment::from_str(text, "fm.toml", PathBuf::new()).unwrap_or_else(|e| panic!("{e}"));
    v.configs[0].clone()
}

#[test]
fn fat_mesh_router_link_choice_rtl_equals_model_and_catches_link_choice_first() {
    let cfg = fat_mesh_router();
    // Destination 4 (switch 1, +x): ports 4 or 5; destination 8 (switch 2, +y): 6 or 7; 2: local.
    assert_eq!((cfg.route(4), cfg.route_links(4), cfg.route(8), cfg.route_links(8), cfg.route(2), cfg.route_links(2)), (4, 2, 6, 2, 2, 1));
    lockstep(&cfg, 30_000, 24);
    assert!(Mutant::LinkChoiceFirst.applies_to(&cfg));
    let mut dut = rtl(&cfg, Some(Mutant::LinkChoiceFirst));
    let err = run_lockstep(&cfg, &mut dut, &mut Router::new(&cfg), &no_wave(opts(20_000, 6))).err().expect("link-choice-first escaped lockstep");
    let LockstepError::Mismatch(m) = &err else { panic!("expected a mismatch, got {err}") };
    eprintln!("link-choice-first: caught at cycle {} on {}", m.cycle, m.signal);
}

/// The general engine's parallel-link choice (NP, full crossbar), together
/// with allowed VC sets.
#[test]
fn parallel_links_with_partition_rtl_equals_model() {
    let text = "name = \"lknp\"\n[router]\nports = 4\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
                crossbar = \"full\"\nscheduler = \"virtualclock\"\nmode = \"non_preemptive\"\ntraffic_classes = 2\nvc_classes = [1, 1, 0, 0]\n\
                clock_width = 8\nvtick_width = 8\n[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3, 2]\nroute_links = [1, 2, 3, 1, 2]\n\
                route_vcs = [15, 5, 10, 15, 9]\n";
    let cfg = RouterConfig::from_toml_str(text, "lknp").unwrap_or_else(|e| panic!("{e}"));
    lockstep(&cfg, 25_000, 25);
}

/// Preemption with parallel links: a resumed part makes its link choice
/// again (§9.7), so parts of one message may leave on different links of its
/// group; the part checker keys messages by the group's first port.
#[test]
fn parallel_links_with_preemption_rtl_equals_model() {
    let text = "name = \"lkp\"\n[router]\nports = 4\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
                crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\n\
                clock_width = 8\nvtick_width = 8\n[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3, 2]\nroute_links = [1, 2, 3, 1, 2]\n";
    let cfg = RouterConfig::from_toml_str(text, "lkp").unwrap_or_else(|e| panic!("{e}"));
    let mut o = opts(25_000, 26);
    o.traffic = traffic_for(&cfg);
    o.traffic.class_weights = vec![6, 3, 1];
    o.traffic.max_message_flits = 12;
    o.traffic.source_preempt_prob = 0.05;
    let mut model = Router::new(&cfg);
    let report = run_lockstep(&cfg, &mut rtl(&cfg, None), &mut model, &o).unwrap_or_else(|e| panic!("{}: {e}", cfg.name()));
    eprintln!("{}: {report}\n  model: {:?}", cfg.name(), model.stats());
    assert_eq!(report.flits_delivered, report.flits_injected);
    assert_eq!(report.messages_delivered, report.messages_injected);
    assert!(report.scoreboard.delivered_per_port.iter().all(|&n| n > 0), "{report}");
    assert!(model.stats().preemptions > 100, "{:?}", model.stats());
}

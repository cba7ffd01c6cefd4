//! Programmable routing (`router.routing = "programmable"`,
//! docs/microarchitecture.md §2) in RTL lockstep with the golden model,
//! through a change of routes by the safe procedure of docs/integration.md
//! ("Changing routes at run time") in the middle of the run: quiesce, one
//! table write per cycle on the router's write port, resume. RTL == model
//! every cycle before, during and after; every message before the change
//! leaves where the old table says and every message after it where the
//! new, hand-written table says (the scoreboard of the second phase reads
//! the new configuration, not the devices' tables), on a VC of the new
//! allowed set. Round-robin (single-cycle and registered switch stage) and
//! the preemptive P mode go through the same change.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_sim::{RouteWrite, Router};
use wormqos_testbench::lockstep::{run_lockstep, LockstepOptions, Reconfiguration};

/// A 4-port router inside a network, 2 VCs, with a table over 4
/// destinations; `extra` adds router fields, `topology` the table.
fn router(name: &str, extra: &str, topology: &str) -> RouterConfig {
    let text = format!(
        "name = \"{name}\"\n[router]\nports = 4\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
         crossbar = \"multiplexed\"\nrouting = \"programmable\"\n{extra}[topology]\nkind = \"network\"\n{topology}"
    );
    RouterConfig::from_toml_str(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Before: destination d on port d, any VC. After (by hand): the ports
/// reversed, destinations 0 and 2 on VC 0 only, 1 and 3 on VC 1 only.
const AFTER_PORTS: [u32; 4] = [3, 2, 1, 0];
const AFTER_VCS: [u32; 4] = [0b01, 0b10, 0b01, 0b10];

fn pair(name: &str, extra: &str) -> (RouterConfig, RouterConfig) {
    let before = router(name, extra, "routes = [0, 1, 2, 3]\n");
    let after = router(name, extra, &format!("routes = {AFTER_PORTS:?}\nroute_vcs = {AFTER_VCS:?}\n"));
    (before, after)
}

/// The router variants taken through the change: round-robin without
/// classes, the same with the registered switch stage, and the preemptive
/// (P) mode with its VirtualClock scheduler and three priority classes
/// (single-cycle only: §6 defines no registered stage with preemption).
const MODES: [(&str, &str); 3] = [
    ("prog_rr", "scheduler = \"round_robin\"\n"),
    ("prog_reg", "scheduler = \"round_robin\"\nswitch_stage = \"registered\"\n"),
    ("prog_p", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\n"),
];

fn writes() -> Vec<RouteWrite> {
    (0..4).map(|d| RouteWrite { router: 0, code: d, port: AFTER_PORTS[d as usize], avc: AFTER_VCS[d as usize] }).collect()
}

fn opts(after: &RouterConfig, writes: Vec<RouteWrite>) -> LockstepOptions {
    LockstepOptions {
        cycles: 12_000,
        seed: 21,
        drain_limit: 20_000,
        waveform_dir: Some(waveform_dir()),
        reconfigure: Some(Reconfiguration { quiesce_at: 5_000, settle: 16, writes, after: after.clone() }),
        ..Default::default()
    }
}

#[test]
fn routes_change_by_the_safe_procedure_rtl_equals_model() {
    for (name, extra) in MODES {
        let (before, after) = pair(name, extra);
        let mut model = Router::new(&before);
        let r = run_lockstep(&before, &mut rtl(&before, None), &mut model, &opts(&after, writes())).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(r.flits_injected > 5_000 && r.flits_injected == r.flits_delivered, "{name}: {r}");
        // The second phase's scoreboard saw traffic on the new routes: every
        // output port carried flits after the change.
        assert!(r.scoreboard.delivered_per_port.iter().all(|&f| f > 100), "{name}: {:?}", r.scoreboard.delivered_per_port);
        if name == "prog_p" {
            // The P router really preempted: some message left in parts.
            let parts = r.parts.clone().expect("preemptive: parts are counted");
            assert!(parts.split_messages > 0, "{name}: no message was preempted: {r} {parts:?}");
        }
        let table: Vec<(u32, u32)> = model.route_table().into_iter().take(4).collect();
        assert_eq!(table, (0..4).map(|d| (AFTER_PORTS[d], AFTER_VCS[d])).collect::<Vec<_>>(), "{name}");
    }
}

/// Without the writes the devices keep the old table, and the scoreboard of
/// the second phase (the new table) catches the first header that leaves
/// on its old port: the check is not vacuous.
#[test]
fn the_scoreboard_refuses_old_routes_after_the_change() {
    let (before, after) = pair("prog_nowrite", MODES[0].1);
    let mut model = Router::new(&before);
    let e = run_lockstep(&before, &mut rtl(&before, None), &mut model, &opts(&after, vec![])).unwrap_err();
    assert!(e.to_string().contains("port"), "{e}");
}

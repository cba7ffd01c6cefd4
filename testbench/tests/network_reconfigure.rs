//! 004_…'s idea end to end (issue 21 item 3): one generated multi-link ring
//! re-embeds a different logical topology by rewriting its routing tables
//! only. The network: `multilink_ring`, 8 nodes, one link each way (3-port
//! routers: 0 local, 1 = + link, 2 = − link), shortest direction with the
//! dateline classes of each direction (docs/microarchitecture.md §11),
//! `router.routing = "programmable"`. The `[reconfigure]` tables: a
//! unidirectional `ring` of 8 nodes on the same wiring (only the + links,
//! its own dateline classes), checked by the deadlock checks (cdg.rs) when
//! the file is read. The change follows the safe procedure of
//! docs/integration.md: quiesce, drain, settle, one write per cycle through
//! router r's write port, resume.
//!
//! Expected by hand: before, shortest direction sends a message to a node
//! 5..7 hops ahead the other way round, so the − links carry traffic;
//! after, a unidirectional ring uses no − link: zero flits on port 2 of
//! every router after the last write. The writes (by hand): router r's
//! entries for the destinations r+5, r+6, r+7 (mod 8), which went − (port 2),
//! now go + (port 1), and destination r+4 (a tie, + before) keeps its port;
//! the dateline classes change where the + direction's "still crosses the
//! wrap link" changes.

use std::path::PathBuf;
use wormqos_netsim::composed::ComposedNetwork;
use wormqos_netsim::{Experiment, Validated};
use wormqos_sim::{RouterInputs, RouterOutputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::lockstep::{run_lockstep, run_single, LockstepOptions, Reconfiguration};
use wormqos_testbench::network::{composed, endpoint_config, network_traffic, verilate};

fn ring() -> Validated {
    let text = "name = \"reembed\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
                crossbar = \"multiplexed\"\nscheduler = \"round_robin\"\nrouting = \"programmable\"\n\
                [topology]\nkind = \"multilink_ring\"\nnodes = 8\nlinks = 1\n[workload]\nload = 0.1\n\
                [reconfigure]\ntopology = { kind = \"ring\", nodes = 8, links = 1 }\n";
    Experiment::from_str(text, "reembed.toml", PathBuf::new()).unwrap_or_else(|e| panic!("{e}"))
}

fn opts(v: &Validated) -> LockstepOptions {
    let writes = v.reconfigure.as_ref().expect("[reconfigure]").writes(&v.configs);
    LockstepOptions {
        cycles: 8_000,
        seed: 4,
        traffic: network_traffic(),
        drain_limit: 20_000,
        reconfigure: Some(Reconfiguration { quiesce_at: 3_000, settle: 16, writes, after: endpoint_config(v).unwrap() }),
        ..Default::default()
    }
}

/// The composed model, counting flits on every router's − link (port 2)
/// before the first table write and after the last one.
struct Counted {
    net: ComposedNetwork,
    writes_left: usize,
    started: bool,
    minus: [u64; 2],
}

impl Dut for Counted {
    fn reset(&mut self) {
        self.net.reset()
    }
    fn outputs(&mut self) -> &RouterOutputs {
        self.net.outputs()
    }
    fn step(&mut self, inputs: &RouterInputs) {
        if inputs.route_write.is_some() {
            self.started = true;
            self.writes_left -= 1;
        }
        let on_minus = self.net.routers().iter().filter(|r| r.outputs().flits[2].valid).count() as u64;
        match (self.started, self.writes_left) {
            (false, _) => self.minus[0] += on_minus,
            (true, 0) => self.minus[1] += on_minus,
            _ => {}
        }
        self.net.step(inputs)
    }
}

#[test]
fn the_tables_hold_the_hand_derived_writes() {
    let v = ring();
    let w = v.reconfigure.as_ref().unwrap().writes(&v.configs);
    for r in 0..8u32 {
        let ports: Vec<(u32, u32)> = w.iter().filter(|x| x.router == r && x.port != v.configs[r as usize].route(x.code as u64) as u32).map(|x| (x.code, x.port)).collect();
        let want: Vec<(u32, u32)> = {
            let mut d: Vec<u32> = (5..8).map(|k| (r + k) % 8).collect();
            d.sort();
            d.into_iter().map(|d| (d, 1)).collect()
        };
        assert_eq!(ports, want, "router {r}: the entries whose port changes");
    }
}

#[test]
fn traffic_leaves_the_minus_links_after_the_rewrite_in_the_model() {
    let v = ring();
    let o = opts(&v);
    let writes = o.reconfigure.as_ref().unwrap().writes.len();
    let mut dut = Counted { net: composed(&v, 0), writes_left: writes, started: false, minus: [0, 0] };
    let r = run_single(&endpoint_config(&v).unwrap(), &mut dut, &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.flits_injected > 5_000 && r.flits_delivered == r.flits_injected, "{r}");
    eprintln!("model: {r}; flits on − links before / after: {:?}", dut.minus);
    assert!(dut.started && dut.writes_left == 0, "the writes happened");
    assert!(dut.minus[0] > 500, "shortest direction uses the − links: {:?}", dut.minus);
    assert_eq!(dut.minus[1], 0, "a unidirectional ring uses no − link: {:?}", dut.minus);
}

#[test]
fn rtl_network_equals_the_model_through_the_rewrite() {
    let v = ring();
    let mut rtl = verilate(&v, 0, None).unwrap_or_else(|e| panic!("{e:#}"));
    let mut model = composed(&v, 0);
    let r = run_lockstep(&endpoint_config(&v).unwrap(), &mut rtl, &mut model, &opts(&v)).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.flits_injected > 5_000 && r.flits_delivered == r.flits_injected, "{r}");
    eprintln!("RTL == model: {r}");
    let last: Vec<(u32, u32)> = model.routers()[0].route_table().into_iter().take(8).collect();
    // Router 0 after the rewrite: destination 0 local, every other + (port 1).
    assert_eq!(last.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 1, 1, 1, 1, 1, 1, 1]);
}

/// A device whose table writes come from a schedule rather than the
/// lockstep: write k of `writes` in the k-th cycle from `from`, whatever
/// flows (no quiesce). Both devices get the same schedule.
struct WritesUnderTraffic<'a> {
    inner: &'a mut dyn Dut,
    writes: Vec<wormqos_sim::RouteWrite>,
    from: u64,
    cycle: u64,
}

impl Dut for WritesUnderTraffic<'_> {
    fn reset(&mut self) {
        self.cycle = 0;
        self.inner.reset()
    }
    fn outputs(&mut self) -> &RouterOutputs {
        self.inner.outputs()
    }
    fn step(&mut self, inputs: &RouterInputs) {
        let k = self.cycle.wrapping_sub(self.from) as usize;
        let mut i = inputs.clone();
        if self.cycle >= self.from && k < self.writes.len() {
            i.route_write = Some(self.writes[k]);
        }
        self.cycle += 1;
        self.inner.step(&i)
    }
    fn check_failed(&self) -> bool {
        self.inner.check_failed()
    }
}

/// Spec §2 under traffic: the re-embedding's 24 writes and their undoing,
/// 6 times over, land while flits flow (no quiesce), and the RTL network and
/// the composed model agree on every endpoint output every cycle: a write
/// in cycle t is read by RC from t + 1, and a VC routed before keeps its
/// route. Every message is still delivered where its header says (both
/// tables deliver every destination).
#[test]
fn rtl_network_equals_the_model_with_writes_under_traffic() {
    let v = ring();
    let new = v.reconfigure.as_ref().unwrap().writes(&v.configs);
    // The same entries back to the configured tables.
    let old: Vec<wormqos_sim::RouteWrite> = new
        .iter()
        .map(|w| {
            let c = &v.configs[w.router as usize];
            wormqos_sim::RouteWrite { port: c.route(w.code as u64) as u32, avc: c.route_vcs(w.code as u64), ..*w }
        })
        .collect();
    // 6 rounds of new then old tables, ending on the new: 312 writes
    // in consecutive cycles, so that headers reach RC in write cycles.
    let mut writes = Vec::new();
    for _ in 0..6 {
        writes.extend(&new);
        writes.extend(&old);
    }
    writes.extend(&new);
    let mut o = opts(&v);
    o.reconfigure = None;
    o.cycles = 4_000;
    o.traffic.injection_rate = 0.05;
    let mut rtl = verilate(&v, 0, None).unwrap_or_else(|e| panic!("{e:#}"));
    let mut model = composed(&v, 0);
    let mut a = WritesUnderTraffic { inner: &mut rtl, writes: writes.clone(), from: 1_000, cycle: 0 };
    let mut b = WritesUnderTraffic { inner: &mut model, writes, from: 1_000, cycle: 0 };
    let r = run_lockstep(&endpoint_config(&v).unwrap(), &mut a, &mut b, &o).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.flits_injected > 500 && r.flits_delivered == r.flits_injected, "{r}");
    eprintln!("RTL == model with writes under traffic: {r}");
    assert_eq!(model.routers()[0].route_table().into_iter().take(8).map(|x| x.0).collect::<Vec<_>>(), vec![0, 1, 1, 1, 1, 1, 1, 1]);
}

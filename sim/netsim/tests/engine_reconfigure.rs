//! The engine runs an experiment's `[reconfigure]` section by the safe
//! procedure (docs/integration.md, "Changing routes at run time";
//! `wormqos_netsim::reconfigure`): 004_…'s idea, one multi-link ring
//! re-embedding a unidirectional ring by rewriting its tables only.
//!
//! The network: `multilink_ring`, 8 nodes, one link each way (3-port
//! routers: 0 local, 1 = + link, 2 = − link), shortest direction;
//! `[reconfigure]`: a unidirectional `ring` of 8 nodes on the same wiring.
//! Expected by hand:
//! - before the writes, shortest direction sends the destinations 5..7
//!   hops ahead the − way: every − link (port 2) carries flits; after the
//!   resume a unidirectional ring uses no − link: zero flits on port 2;
//! - the writes: router r's entries for r+5, r+6, r+7 (mod 8) change from
//!   port 2 to port 1; the + entries keep their port and their dateline
//!   class (whether the + path crosses the wrap link 7 -> 0 is the same
//!   rule in both tables): 3 writes per router, 24 in all;
//! - the procedure's cycles: quiesce at `at_cycle`; drained in a cycle
//!   d > at_cycle; first write at d + settle + 1 with settle = 16 + 2·L
//!   (L = 0 here), one write per cycle, resume the cycle after the last;
//! - nothing lost: the network is empty at the drain (flits injected up to
//!   it = flits ejected up to it) and at the end (every message delivered).

use std::path::PathBuf;
use wormqos_netsim::{Experiment, Validated};

fn ring(extra_run: &str, at_cycle: &str) -> Validated {
    let text = ring_text(extra_run, at_cycle);
    Experiment::from_str(&text, "reembed.toml", PathBuf::new()).unwrap_or_else(|e| panic!("{e}"))
}

fn ring_text(extra_run: &str, at_cycle: &str) -> String {
    format!(
        "name = \"reembed\"\n[router]\nports = 3\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
         crossbar = \"multiplexed\"\nscheduler = \"round_robin\"\nrouting = \"programmable\"\n\
         [topology]\nkind = \"multilink_ring\"\nnodes = 8\nlinks = 1\n\
         [workload]\nload = 0.1\nmix = [0, 1]\nrealtime = \"none\"\n\
         [run]\ncycles = 20000\nwarmup_cycles = 0\n{extra_run}\n\
         [reconfigure]\ntopology = {{ kind = \"ring\", nodes = 8, links = 1 }}\n{at_cycle}\n"
    )
}

fn on_port(links: &[(usize, usize, u64)], port: usize) -> Vec<u64> {
    links.iter().filter(|l| l.1 == port).map(|l| l.2).collect()
}

#[test]
fn the_ring_re_embeds_a_unidirectional_ring_and_loses_nothing() {
    let v = ring("drain_cycles = 20000", "at_cycle = 10000");
    let r = wormqos_netsim::run(&v).unwrap_or_else(|e| panic!("{e}"));
    let x = r.reconfiguration.as_ref().expect("a reconfiguration report");
    eprintln!("{x:?}");
    // The procedure's cycles.
    assert_eq!(x.quiesce_cycle, 10_000);
    assert!(x.drained_cycle > x.quiesce_cycle && x.drain_cycles == x.drained_cycle - x.quiesce_cycle, "{x:?}");
    assert_eq!(x.settle_cycles, 16);
    assert_eq!(x.writes, 24, "3 entries per router change port");
    assert_eq!(x.first_write_cycle, x.drained_cycle + 16 + 1);
    assert_eq!(x.last_write_cycle, x.first_write_cycle + 23);
    assert_eq!(x.resume_cycle, x.last_write_cycle + 1);
    // Traffic in every stretch that has any, and nothing lost at the drain.
    assert!(x.before.flits_injected > 5_000 && x.after.flits_injected > 5_000, "{x:?}");
    assert_eq!(
        x.before.flits_injected + x.during.flits_injected,
        x.before.flits_ejected + x.during.flits_ejected,
        "the network is empty when the tables are written"
    );
    // Link use: every − link before, none after; every + link after.
    let (minus_before, minus_after) = (on_port(&x.link_flits_before, 2), on_port(&x.link_flits_after, 2));
    assert_eq!(minus_before.len(), 8);
    assert!(minus_before.iter().all(|&n| n > 0), "shortest direction uses every − link: {minus_before:?}");
    assert_eq!(minus_after, vec![0; 8], "a unidirectional ring uses no − link");
    assert!(on_port(&x.link_flits_after, 1).iter().all(|&n| n > 0));
    // Conservation over the whole run: every message delivered.
    assert_eq!(r.messages_created, r.messages_delivered);
    assert_eq!(r.flits_injected, r.flits_ejected);
    assert_eq!(x.before.flits_injected + x.during.flits_injected + x.after.flits_injected, r.flits_injected);
}

/// `at_cycle` absent: half of `run.cycles`, the default `cosim` uses with
/// its own `--cycles`.
#[test]
fn at_cycle_defaults_to_half_the_run() {
    let v = ring("drain_cycles = 20000", "");
    let r = wormqos_netsim::run(&v).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.reconfiguration.expect("report").quiesce_cycle, 10_000);
}

/// A drain that cannot finish in `drain_limit` cycles is an error naming
/// the field, not a hang: one cycle is too few for begun 20-flit messages.
#[test]
fn a_drain_longer_than_the_limit_is_an_error() {
    let text = ring_text("drain_cycles = 20000", "at_cycle = 10000\ndrain_limit = 1").replace("load = 0.1", "load = 0.3");
    let v = Experiment::from_str(&text, "reembed.toml", PathBuf::new()).unwrap_or_else(|e| panic!("{e}"));
    let e = wormqos_netsim::run(&v).err().expect("an error").to_string();
    assert!(e.contains("did not drain within reconfigure.drain_limit = 1 cycles after the quiesce at cycle 10000"), "{e}");
}

/// A run that ends before the sources resume is an error, not a result
/// with the procedure half done.
#[test]
fn a_run_ending_during_the_procedure_is_an_error() {
    let v = ring("", "at_cycle = 19990");
    let e = wormqos_netsim::run(&v).err().expect("an error").to_string();
    assert!(e.contains("the run ended at cycle") && e.contains("reconfigure.at_cycle"), "{e}");
}

#[test]
fn bad_reconfigure_timing_names_the_field_and_its_range() {
    let text = |extra: &str| ring_text("", extra);
    for (extra, want) in [
        ("at_cycle = 20000", "reconfigure.at_cycle = 20000"),
        ("drain_limit = 0", "reconfigure.drain_limit = 0"),
        ("at_cycle = -1", "at_cycle"),
    ] {
        let e = Experiment::from_str(&text(extra), "bad.toml", PathBuf::new()).err().expect(extra).to_string();
        assert!(e.contains(want), "{extra}: {e}");
        if !extra.contains('-') {
            assert!(e.contains("allowed range") && e.contains("..="), "{extra}: {e}");
        }
    }
}

//! The model against behaviour recorded from the two engines it replaced
//! (the mask-based foundation engine and the general QoS engine, which
//! agreed on these runs): for every configuration
//! of [`configs`], bursty random traffic (with silences, credit droughts and,
//! in one run of two, stray dummy bits) is stepped for 4,000 cycles and every
//! output of every cycle is hashed, with the final statistics. The expected
//! hashes in `recorded/old_engines.txt` were written by the old engines (see
//! that file's header: the test `record_old_engines` of commit c2e695b,
//! where they still were, in `sim/src/old_engine`), never by the code under
//! test.

use crate::test_traffic::{random_inputs, Rng};
use crate::{LinkFlit, Router, RouterInputs, RouterOutputs};
use wormqos_config::RouterConfig;

fn example(name: &str) -> RouterConfig {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    RouterConfig::from_file(std::path::Path::new(&path)).unwrap()
}

fn inline(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> Option<RouterConfig> {
    let text = format!(
        "name = \"q\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\n{extra}"
    );
    RouterConfig::from_toml_str(&text, "inline").ok()
}

/// Every mode, crossbar, order and §2/§9 option, labelled.
fn configs() -> Vec<(String, RouterConfig)> {
    let mut v: Vec<(String, RouterConfig)> = [
        "mesh5", "wide72", "tiny2", "mediaworm8", "qos8", "mw8_np", "mw8_p", "mw8_pa", "mw8_tr", "small_p",
        "paper000_16port", "torus4_r14",
    ]
    .iter()
    .map(|n| (n.to_string(), example(n)))
    .collect();
    let mut add = |label: &str, c: Option<RouterConfig>| v.extend(c.map(|c| (label.to_string(), c)));
    add("mux_fifo_dd5", inline(3, 3, "multiplexed", "fifo", "downstream_buffer_depth = 5\n"));
    add("full_fifo_routes", inline(5, 4, "full", "fifo", "[topology]\nkind = \"single_switch\"\nroutes = [1, 1, 0, 4, 1]\n"));
    add("mux_vc", inline(5, 4, "multiplexed", "virtualclock", ""));
    add("full_vc", inline(4, 4, "full", "virtualclock", ""));
    add("mux_vc8", inline(3, 3, "multiplexed", "virtualclock", "vtick_width = 8\nclock_width = 8\n"));
    add("full_vc8", inline(5, 4, "full", "virtualclock", "vtick_width = 8\nclock_width = 8\ndownstream_buffer_depth = 5\n"));
    add("mux_route_vcs", inline(5, 4, "multiplexed", "round_robin", "[topology]\nkind = \"single_switch\"\nroute_vcs = [3, 12, 1, 8, 15]\n"));
    add("full_route_vcs", inline(4, 3, "full", "fifo", "[topology]\nkind = \"network\"\nroutes = [0, 1, 2, 3, 3, 2]\nroute_vcs = [1, 6, 4, 7, 2, 1]\n"));
    add("mux_links", inline(4, 2, "multiplexed", "round_robin", "[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3, 2]\nroute_links = [1, 2, 3, 1, 2]\n"));
    add("full_links_vcs", inline(5, 3, "full", "fifo", "[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3]\nroute_links = [1, 2, 2, 2]\nroute_vcs = [7, 3, 6, 5]\n"));
    for acc in [true, false] {
        add(
            &format!("p_acc_{acc}"),
            inline(3, 2, "multiplexed", "virtualclock", &format!("output_buffer_depth = 2\ndownstream_buffer_depth = 64\nclock_width = 8\nvtick_width = 8\nmode = \"preemptive\"\nacceleration = {acc}\n")),
        );
    }
    for (sched, xbar) in [
        ("round_robin", "multiplexed"),
        ("fifo", "multiplexed"),
        ("virtualclock", "multiplexed"),
        ("round_robin", "full"),
        ("fifo", "full"),
        ("virtualclock", "full"),
    ] {
        add(&format!("{xbar}_{sched}_p_b3"), inline(4, 2, xbar, sched, "block_size = 3\nmode = \"preemptive\"\n"));
        add(&format!("{xbar}_{sched}_p3"), inline(3, 4, xbar, sched, "mode = \"preemptive\"\ntraffic_classes = 3\nvtick_width = 8\nclock_width = 8\n"));
        add(&format!("{xbar}_{sched}_b3"), inline(4, 4, xbar, sched, "block_size = 3\n"));
        add(&format!("{xbar}_{sched}_np"), inline(4, 4, xbar, sched, "mode = \"non_preemptive\"\ntraffic_classes = 2\n"));
        add(&format!("{xbar}_{sched}_tr_b2"), inline(4, 4, xbar, sched, "mode = \"traditional\"\ntraffic_classes = 2\nblock_size = 2\n"));
    }
    v
}

/// FNV-1a over 64-bit words.
struct Hash(u64);
impl Hash {
    fn add(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Runs the traffic of `seed` (with stray dummy bits when `dummies`)
/// through `step` and hashes every cycle's outputs.
fn traffic_hash(cfg: &RouterConfig, seed: u64, dummies: bool, mut step: impl FnMut(&RouterInputs) -> RouterOutputs) -> u64 {
    let mut h = Hash(0xcbf2_9ce4_8422_2325);
    let mut inp = RouterInputs::idle(cfg);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    for t in 0..4000u64 {
        random_inputs(&mut rng, cfg, &mut inp);
        if dummies {
            for f in inp.flits.iter_mut() {
                f.dummy = f.valid && rng.next() % 8 == 0;
            }
        }
        if (t / 300) % 2 == 1 {
            for c in inp.credits.iter_mut() {
                *c &= rng.0 as u32;
            }
        }
        match (t / 150) % 5 {
            1 => inp.flits.fill(LinkFlit::IDLE),
            2 => {
                inp.flits.fill(LinkFlit::IDLE);
                inp.credits.fill(u32::MAX);
            }
            3 if t % 150 > 20 => inp.clear(),
            _ => {}
        }
        let out = step(&inp);
        for f in &out.flits {
            h.add(f.valid as u64 | (f.vc as u64) << 8 | (f.head as u64) << 16 | (f.tail as u64) << 17 | (f.dummy as u64) << 18);
            f.data.iter().for_each(|&d| h.add(d));
        }
        out.credits.iter().for_each(|&c| h.add(c as u64));
    }
    h.0
}

/// One line per run: `label seed dummies hash` (outputs hash XOR statistics hash).
fn lines(mut run: impl FnMut(&RouterConfig, u64, bool) -> u64) -> Vec<String> {
    let mut v = Vec::new();
    for (label, cfg) in configs() {
        for seed in 1..=2u64 {
            for dummies in [false, true] {
                v.push(format!("{label} {seed} {dummies} {:016x}", run(&cfg, seed, dummies)));
            }
        }
    }
    v
}

fn new_engine_run(cfg: &RouterConfig, seed: u64, dummies: bool) -> u64 {
    let mut r = Router::new(cfg);
    let h = traffic_hash(cfg, seed, dummies, |i| {
        r.step(i);
        r.outputs().clone()
    });
    h ^ stats_hash(&format!("{:?}", r.stats()))
}

fn stats_hash(s: &str) -> u64 {
    let mut h = Hash(0);
    s.bytes().for_each(|b| h.add(b as u64));
    h.0
}

#[test]
fn outputs_and_statistics_equal_the_recorded_old_engines() {
    let recorded: Vec<&str> = include_str!("recorded/old_engines.txt").lines().filter(|l| !l.starts_with('#')).collect();
    let now = lines(new_engine_run);
    assert_eq!(now.len(), recorded.len(), "the configuration list changed");
    let differ: Vec<_> = now.iter().zip(&recorded).filter(|(a, b)| a != b).map(|(a, b)| format!("{a} (recorded {b})")).collect();
    assert!(differ.is_empty(), "{} of {} runs differ:\n{}", differ.len(), now.len(), differ.join("\n"));
}


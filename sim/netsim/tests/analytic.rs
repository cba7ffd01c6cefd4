//! The analytical models against the simulator, with the bounds that
//! docs/reproduction.md states and explains.

use std::path::PathBuf;
use wormqos_netsim::analytic::predict;
use wormqos_netsim::{run, Experiment, Results, Validated};

/// 000_… Table 1 (16 ports, 3 VCs, M = b_s = 32, VirtualClock), full crossbar
/// (the model has no crossbar head-of-line loss), one VC per class (the
/// model's router), R1 : R2 = 2 : 1 Poisson, best effort 0.01
/// messages/cycle/port, `rt` real-time messages/cycle/port, Vticks
/// `scale`/(λ_c M).
fn table1(rt: f64, scale: f64, cycles: u64) -> String {
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
mode = "non_preemptive"
vc_classes = [2, 1, 0]
[topology]
kind = "single_switch"
[workload]
load = {}
mix = [{r}, {b}]
realtime = "poisson"
best_effort = "poisson"
message_flits = 32
[model]
vtick_scale = {scale}
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

/// (model, simulation) network latency of R1 (class 2), R2 (1), BE (0).
fn compare(rt: f64, scale: f64) -> [(f64, f64); 3] {
    let v = Experiment::from_str(&table1(rt, scale, 300_000), "t1.toml", PathBuf::new()).unwrap();
    let plan = predict::plan(&v).unwrap();
    let model = plan.evaluate(&[]).remove(0).result.unwrap();
    let m = predict::to_results(&v, &model);
    let s = run(&v).unwrap();
    let out = [(net(&m, 2), net(&s, 2)), (net(&m, 1), net(&s, 1)), (net(&m, 0), net(&s, 0))];
    eprintln!("rt {rt} scale {scale}: (model, sim) R1 {:?} R2 {:?} BE {:?}", out[0], out[1], out[2]);
    out
}

fn err((m, s): (f64, f64)) -> f64 {
    (m - s) / s
}

#[test]
fn single_router_model_against_simulation_within_stated_bounds() {
    // With the paper's Vticks 1/(λ_c M), up to ~40 % of saturation (real
    // time ≤ 0.006 of ≈ 0.015 messages/cycle/port): R1 within 10 %, R2
    // within 20 %; at 0.010 (~70 %) R1 within 20 % and R2 within 25 %; best
    // effort within 30 % throughout; the model is below the simulation for
    // R1 and best effort. docs/reproduction.md (000_… Fig. 4) traces R2's
    // error to VirtualClock penalising R1, whose rounded Vtick reserves less
    // than it sends, and R1's and best effort's to the blocking term.
    for (rt, b1, b2) in [(0.002, 0.10, 0.20), (0.006, 0.10, 0.20), (0.010, 0.20, 0.25)] {
        let [r1, r2, be] = compare(rt, 1.0);
        assert!(err(r1).abs() <= b1 && r1.0 <= r1.1, "rt {rt}: R1 {r1:?}");
        assert!(err(r2).abs() <= b2, "rt {rt}: R2 {r2:?}");
        assert!(err(be).abs() <= 0.30 && be.0 < be.1, "rt {rt}: BE {be:?}");
    }
    // Reservations above the classes' rates (Vticks × 0.25): the sharing
    // the model assumes, and R1 and R2 both within 10 %.
    for rt in [0.006, 0.010] {
        let [r1, r2, _] = compare(rt, 0.25);
        assert!(err(r1).abs() <= 0.10 && err(r2).abs() <= 0.10, "rt {rt}: R1 {r1:?} R2 {r2:?}");
        assert!(r2.1 - r1.1 > 6.0, "rt {rt}: the simulated R1/R2 gap opens: {r1:?} {r2:?}");
    }
}

#[test]
fn best_effort_slows_real_time_only_when_the_classes_share_vcs() {
    // 000_… Fig. 4(b)'s claim, and why fig4b_000_full disagreed with it: R1
    // alone at 0.00667 messages/cycle/port, best effort 0 or 0.014. With one
    // VC per class R1's network latency stays within 5 %; in the
    // unpartitioned router (VA gives any free output VC to any class) best
    // effort holds the output VCs R1 needs and R1 slows by over 20 %.
    let r1_latency = |be: f64, partitioned: bool| {
        let mut text = table1(0.0, 1.0, 200_000).replace("mix = [0, 0.32]", &format!("mix = [0.21333, {}]", be * 32.0));
        text = text.replace("load = 0.32", &format!("load = {}", 0.21333 + be * 32.0)).replace("[model]", "[model]\nrealtime_rates = [1.0]");
        if !partitioned {
            text = text.replace("mode = \"non_preemptive\"\nvc_classes = [2, 1, 0]\n", "");
        }
        let v = Experiment::from_str(&text, "t1.toml", PathBuf::new()).unwrap();
        net(&run(&v).unwrap(), 2)
    };
    let (np0, np1) = (r1_latency(0.0, true), r1_latency(0.014, true));
    assert!(((np1 - np0) / np0).abs() < 0.05, "one VC per class: R1 {np0} -> {np1}");
    let (sh0, sh1) = (r1_latency(0.0, false), r1_latency(0.014, false));
    assert!((sh1 - sh0) / sh0 > 0.20, "shared VCs: R1 {sh0} -> {sh1}");
}

/// experiments/`file` (a 16-node ring of 004_…: 4 links, 4 VCs, 10-flit
/// packets) at `load`, 100 k cycles, without its sweep.
fn ring(file: &str, load: f64) -> String {
    let text = std::fs::read_to_string(format!("{}/../../experiments/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut run_len = text.split("[sweep]").next().unwrap().replace("load = 0.1\n", &format!("load = {load}\n"));
    for long in ["cycles = 1000000", "cycles = 200000"] {
        run_len = run_len.replace(long, "cycles = 100000");
    }
    assert!(run_len.contains(&format!("load = {load}\n")) && run_len.contains("cycles = 100000"), "{file} changed");
    run_len
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
        let (models, sim) = ring_compare(&ring("ring_004.toml", load));
        for (name, m) in &models {
            let m = *m.as_ref().unwrap();
            assert!(((m - sim) / sim).abs() <= 0.10, "load {load}: {name} {m} vs sim {sim}");
        }
    }
    // The unidirectional ring has one segmentation queue per node, fed at
    // the node's whole rate λ_n = load/M (Eq. 8, M/D/1): T − t̄_s with
    // t̄_s = network latency − (P − 1) and ρ = λ_n t̄_s.
    let v = Experiment::from_str(&ring("ring_004.toml", 0.05), "r.toml", PathBuf::new()).unwrap();
    let mmn = &predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap()[0];
    let ts = mmn.network_latency - 4.0;
    let rho = 0.005 * ts;
    assert!((mmn.source_latency - (ts / (1.0 - rho) * (1.0 - rho / 2.0) - ts)).abs() < 1e-9, "{mmn:?}");
    // At 0.3 the paper's segmentation queue (Eq. 8: one packet at a time,
    // served for the whole t̄_s) is saturated although the ring is not.
    let v = Experiment::from_str(&ring("ring_004.toml", 0.3), "r.toml", PathBuf::new()).unwrap();
    for n in predict::plan(&v).unwrap().evaluate(&[]) {
        assert!(matches!(n.result, Err(predict::PredictError::Saturated(_))), "{}", n.name);
    }
}

#[test]
fn multilink_ring_of_004_routes_the_short_way_on_the_destination_block() {
    use wormqos_netsim::topology::{Peer, TopologySpec};
    let net = TopologySpec::MultilinkRing { nodes: 16, links: Some(4), dateline: true, strategy: Default::default() }.build(9).unwrap();
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
    let (models, sim) = ring_compare(&ring("multilink_ring_004.toml", 0.1));
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
        // The per-hop latency counts split the all-message counts: hop
        // counts 1..=6 only, the same total per latency.
        for c in &s.classes {
            let by = &c.network_latency_counts_by_hops;
            assert!(by.len() == 7 && by[0].is_empty(), "class {}: {} hop counts", c.class, by.len());
            for (i, &k) in c.network_latency_counts.iter().enumerate() {
                assert_eq!(by.iter().map(|v| v.get(i).copied().unwrap_or(0)).sum::<u64>(), k, "class {} latency {i}", c.class);
            }
        }
        for c in 0..3u8 {
            let (a, b) = (net(&m, c), net(&s, c));
            let bound = if c == 1 { 0.08 } else { 0.15 };
            assert!(((a - b) / b).abs() <= bound, "load {load} class {c}: model {a} sim {b}");
        }
    }
}

/// (queueing, transfer, blocking and sharing) of `class`: W̄_c, T and
/// L̄_c − T (000_… Figs 5 and 8).
fn components(r: &Results, class: u8) -> [f64; 3] {
    let c = r.classes.iter().find(|c| c.class == class).unwrap();
    let t = c.transfer_time.unwrap_or_else(|| panic!("class {class}: no transfer time"));
    [c.source_latency, t, c.network_latency - t]
}

#[test]
fn cube_latency_components_against_simulation() {
    // 000_… Fig. 8 (docs/reproduction.md "000_… Fig. 8: latency components
    // in the 6-cube"): fig7_000_cube6 at R1 + R2 = 0.0015 and 0.0045
    // messages/cycle/node, the file's 200 k cycles (at 60 k R1's mean
    // wait, made of rare waits, was 15 % off M/D/1). T within 0.5 % (both are
    // P − 1 + P h + M, the simulation's over its sampled routes); the
    // model's queueing above the simulation's in every class (Eq. 15 serves
    // each message for L̄_c and adds S̄_c ≥ 1), R1's measured wait within
    // 10 % of M/D/1 with service M = 32 at R1's rate (by hand); R1's
    // blocking and sharing below the simulation's, R2's above.
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/fig7_000_cube6.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap();
    for (load, mix, r1_rate) in [(0.112, "[0.048, 0.064]", 0.001), (0.208, "[0.144, 0.064]", 0.003)] {
        let text = base.replace("load = 0.16", &format!("load = {load}")).replace("mix = [0.096, 0.064]", &format!("mix = {mix}"));
        let v = Experiment::from_str(&text, "c.toml", PathBuf::new()).unwrap();
        let m = predict::to_results(&v, &predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap());
        let s = run(&v).unwrap();
        for class in 0..3u8 {
            let (mc, sc) = (components(&m, class), components(&s, class));
            eprintln!("load {load} class {class}: model {mc:?} sim {sc:?}");
            // h̄ = 192/63 by hand: T = 4 + 5·192/63 + 32.
            assert!((mc[1] - (36.0 + 5.0 * 192.0 / 63.0)).abs() < 1e-9, "model T {}", mc[1]);
            assert!(((mc[1] - sc[1]) / sc[1]).abs() <= 0.005, "load {load} class {class}: T model {} sim {}", mc[1], sc[1]);
            assert!(mc[0] > sc[0], "load {load} class {class}: queueing model {} sim {}", mc[0], sc[0]);
        }
        let md1 = r1_rate * 32.0 * 32.0 / (2.0 * (1.0 - r1_rate * 32.0));
        let r1 = components(&s, 2)[0];
        assert!((r1 / md1 - 1.0).abs() <= 0.10, "load {load}: R1 wait {r1} against M/D/1 {md1}");
        assert!(components(&m, 2)[2] < components(&s, 2)[2], "load {load}: R1 blocking");
        assert!(components(&m, 1)[2] > components(&s, 1)[2], "load {load}: R2 blocking");
    }
}

#[test]
fn torus_model_of_002_against_the_unidirectional_torus() {
    // experiments/torus_002.toml: 8-ary 2-cube, one way, L = 3 with 002_…'s
    // escape pair + shared VC, M = 32. Below half of the model's saturation
    // the model is within 6 % of the simulation; from 0.08 flits/node/cycle
    // on the model says saturated, where the simulated torus congests too
    // (docs/reproduction.md).
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/torus_002.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap().replace("cycles = 100000", "cycles = 60000");
    let at = |load: f64| Experiment::from_str(&base.replace("load = 0.02", &format!("load = {load}")), "t.toml", PathBuf::new()).unwrap();
    for load in [0.02, 0.04] {
        let v = at(load);
        let m = predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap()[0].network_latency;
        let s = net(&run(&v).unwrap(), 0);
        assert!(((m - s) / s).abs() <= 0.06, "load {load}: model {m} sim {s}");
    }
    let v = at(0.1);
    assert!(matches!(predict::plan(&v).unwrap().evaluate(&[]).remove(0).result, Err(predict::PredictError::Saturated(_))));
}

#[test]
fn unidirectional_torus_routes_one_way_with_the_escape_pair() {
    use wormqos_netsim::topology::{Peer, SharedVcs, TopologySpec};
    let net = TopologySpec::UnidirectionalTorus { k: 4, n: 2, shared_vcs: SharedVcs::Any }.build(3).unwrap();
    // Hops: (d_i − s_i) mod 4 per dimension, dimension 0 first.
    for s in 0..16usize {
        for d in 0..16usize {
            let want = (d % 4 + 4 - s % 4) % 4 + (d / 4 + 4 - s / 4) % 4;
            let mut r = s;
            let mut hops = 0;
            while r != d {
                let Peer::Router { router, .. } = net.out_link[r][net.routes[r][d] as usize] else { panic!() };
                r = router;
                hops += 1;
            }
            assert_eq!(hops, want, "{s}->{d}");
        }
    }
    // 4 VCs: v1 = VC 0, v2 = VC 1, VCs 2, 3 shared. Router 1 (digit 1) to 3
    // in dimension 0: c < d, v1; to 0: c > d (wraps), v2.
    let masks = net.route_vcs(1, 4, None).unwrap().unwrap();
    assert_eq!(masks[3], 0b1101);
    assert_eq!(masks[0], 0b1110);
    assert_eq!(masks[1], 0b1111, "ejection: any VC");
    // The default keeps the shared VCs to messages past the dateline (v1).
    let safe = TopologySpec::UnidirectionalTorus { k: 4, n: 2, shared_vcs: SharedVcs::AfterDateline }.build(3).unwrap();
    let masks = safe.route_vcs(1, 4, None).unwrap().unwrap();
    assert_eq!((masks[3], masks[0], masks[1]), (0b1101, 0b0010, 0b1111));
}

#[test]
fn ring_models_of_004_in_the_papers_units_against_simulation() {
    // experiments/fig8_004.toml (Figs 8, 10: 16 nodes, v_c = 4 per header,
    // 2 KB packets): for 10- and 20-flit packets at 0.05 and 0.2
    // flits/node/cycle (≤ 1/3 of what the simulated ring carries), the
    // packet latency T (Eq. 8) of the tandem models within 10 % and of the
    // finite-state model (M/D/1 source) within 17 % of the simulated one.
    let base = ring("fig8_004.toml", 0.05);
    for (m, load) in [(10, 0.05), (10, 0.2), (20, 0.05), (20, 0.2)] {
        let text = base.replace("load = 0.05\n", &format!("load = {load}\n")).replace("message_flits = 10", &format!("message_flits = {m}"));
        let v = Experiment::from_str(&text, "r.toml", PathBuf::new()).unwrap();
        let sim = run(&v).unwrap().classes.iter().find(|c| c.class == 0).unwrap().latency;
        for n in predict::plan(&v).unwrap().evaluate(&[]) {
            let c = &n.result.unwrap()[0];
            let t = c.network_latency + c.source_latency;
            let bound = match n.name {
                "mmn" | "mdn" => 0.10,
                "markov" => 0.17,
                _ => continue,
            };
            assert!(((t - sim) / sim).abs() <= bound, "M = {m}, load {load}: {} {t} vs sim {sim}", n.name);
        }
    }
    // Eq. 23 is pessimistic for our router: with 5-flit packets at 0.6 the
    // simulated ring accepts what is offered (1.5 × the paper's λ_max per
    // direction) because our NI serves several packets at once, where
    // Eq. 8's one segmentation queue per direction serves one.
    let text = base.replace("load = 0.05\n", "load = 0.6\n").replace("message_flits = 10", "message_flits = 5");
    let v = Experiment::from_str(&text, "r.toml", PathBuf::new()).unwrap();
    let sim = run(&v).unwrap();
    assert!(sim.accepted_throughput > 0.95 * 0.6, "{}", sim.accepted_throughput);
    for b in predict::plan(&v).unwrap().throughput_bounds() {
        assert!(b.lambda_max().unwrap() < b.offered / 1.3, "{}: λ_max {:?} offered {}", b.name, b.lambda_max(), b.offered);
    }
}

#[test]
fn cube_best_effort_latency_over_both_loads() {
    // 000_… Fig. 9 (experiments/fig9_000_cube6.toml, 6-cube, 60 k cycles):
    // best-effort network latency at R1 + R2 / best effort = 0.0015 / 0.001,
    // 0.0015 / 0.004 and 0.0045 / 0.001 messages/cycle/node. The model
    // within 15 % of the simulation at each, and, in both, latency rising
    // more along the real-time load than along the best-effort load (the
    // paper's reading: sharing, not blocking, dominates best effort).
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/fig9_000_cube6.toml")).unwrap();
    let base = base.split("[sweep]").next().unwrap().replace("cycles = 100000", "cycles = 60000");
    assert!(base.contains("load = 0.16\n") && base.contains("mix = [0.096, 0.064]") && base.contains("cycles = 60000"), "fig9_000_cube6.toml changed");
    let be = |rt: f64, b: f64| -> (f64, f64) {
        let text = base.replace("load = 0.16\n", &format!("load = {}\n", rt + b)).replace("mix = [0.096, 0.064]", &format!("mix = [{rt}, {b}]"));
        let v = Experiment::from_str(&text, "c.toml", PathBuf::new()).unwrap();
        let m = predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap();
        let m = m.iter().find(|c| c.class == 0).unwrap().network_latency;
        let s = net(&run(&v).unwrap(), 0);
        assert!(((m - s) / s).abs() <= 0.15, "rt {rt} be {b}: model {m} vs sim {s}");
        (m, s)
    };
    let (m0, s0) = be(0.048, 0.032);
    let (mb, sb) = be(0.048, 0.128);
    let (mr, sr) = be(0.144, 0.032);
    assert!(mr - m0 > 2.0 * (mb - m0).abs(), "model: {m0} -> be {mb}, rt {mr}");
    assert!(sr - s0 > 2.0 * (sb - s0).abs(), "sim: {s0} -> be {sb}, rt {sr}");
}

#[test]
fn torus_model_of_002_on_fig1s_8x8x8_torus_and_long_messages() {
    // 002_… Fig. 1 (experiments/torus_002_8x8x8.toml and
    // torus_002_16x16_long.toml), 20 k-cycle runs: the 8 × 8 × 8 torus with
    // L = 5 at 0.02 flits/node/cycle and the 16 × 16 torus with M = 100,
    // L = 5, at 0.01 within 5 %; the 8 × 8 × 8 torus with L = 3 at 0.08 is
    // saturated in the model; simulated with the model's arrangement
    // (`shared_vcs = "any"`) it deadlocks (issue 22: it used to report the
    // 0.039 flits/node/cycle the rest of the network still carried), and
    // with the default arrangement it carries the load.
    let exp = |file: &str, edits: &[(&str, &str)]| {
        let text = std::fs::read_to_string(format!("{}/../../experiments/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut text = text.split("[sweep]").next().unwrap().replace("cycles = 40000", "cycles = 20000").replace("warmup_cycles = 5000", "warmup_cycles = 2000");
        for (from, to) in edits {
            assert!(text.contains(from), "{file} changed: no `{from}`");
            text = text.replace(from, to);
        }
        Experiment::from_str(&text, "t.toml", PathBuf::new()).unwrap()
    };
    for v in [
        exp("torus_002_8x8x8.toml", &[("vcs = 3", "vcs = 5")]),
        exp("torus_002_16x16_long.toml", &[("vcs = 3", "vcs = 5"), ("load = 0.02\n", "load = 0.01\n"), ("message_flits = 32", "message_flits = 100")]),
    ] {
        let m = predict::plan(&v).unwrap().evaluate(&[]).remove(0).result.unwrap()[0].network_latency;
        let s = net(&run(&v).unwrap(), 0);
        assert!(((m - s) / s).abs() <= 0.05, "{}: model {m} vs sim {s}", v.exp.name);
    }
    let v = exp("torus_002_8x8x8.toml", &[("load = 0.02\n", "load = 0.08\n")]);
    assert!(matches!(predict::plan(&v).unwrap().evaluate(&[]).remove(0).result, Err(predict::PredictError::Saturated(_))));
    assert!(matches!(run(&v), Err(wormqos_netsim::SimError::Deadlocked { .. })));
    let v = exp("torus_002_8x8x8.toml", &[("load = 0.02\n", "load = 0.08\n"), ("shared_vcs = \"any\"", "shared_vcs = \"after_dateline\"")]);
    let r = run(&v).unwrap();
    assert!(r.accepted_throughput > 0.95 * 0.08, "accepted {}", r.accepted_throughput);
    // The model describes only the paper's arrangement.
    let e = predict::plan(&v).err().unwrap().to_string();
    assert!(e.contains("topology.shared_vcs") && e.contains("after_dateline"), "{e}");
}

/// The experiment file `name` without its sweep, with `edits` (each text
/// must be there: a changed file fails here, not in a bound).
fn experiment_point(name: &str, edits: &[(&str, &str)]) -> Validated {
    let path = format!("{}/../../experiments/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(&path).unwrap().split("[sweep]").next().unwrap().to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "{name}: `{from}` not in the file");
        text = text.replacen(from, to, 1);
    }
    Experiment::from_str(&text, name, PathBuf::new()).unwrap()
}

/// (model, simulation) network latency per class 0..=2 at one point.
fn model_and_sim(v: &Validated) -> (Results, Results) {
    let m = predict::to_results(v, &predict::plan(v).unwrap().evaluate(&[]).remove(0).result.unwrap());
    (m, run(v).unwrap())
}

/// The source waiting time of `class` in the model row `name` at one point.
fn source_wait(v: &Validated, name: &str, class: u8) -> f64 {
    let named = predict::plan(v).unwrap().evaluate(&[]);
    let row = named.iter().find(|n| n.name == name).unwrap_or_else(|| panic!("no model row {name}"));
    row.result.as_ref().unwrap().iter().find(|c| c.class == class).unwrap().source_latency
}

fn sim_source_wait(s: &Results, class: u8) -> f64 {
    s.classes.iter().find(|c| c.class == class).unwrap().source_latency
}

/// The ON/OFF source-queue model (`onoff_source.rs`, row `<model>_onoff`)
/// against the simulated real-time source wait at a point already
/// simulated: within 30 % or 0.3 cycles, and closer than Eq. (15) (whose
/// service time is the whole network latency L̄_c: +21 to +456 % on
/// 000_… Fig. 12's points, docs/reproduction.md).
fn check_onoff_source_wait(v: &Validated, s: &Results, base: &str, what: &str) {
    for c in [2u8, 1] {
        let (sim, onoff, eq15) = (sim_source_wait(s, c), source_wait(v, &format!("{base}_onoff"), c), source_wait(v, base, c));
        assert!((onoff - sim).abs() <= (0.30 * sim).max(0.3), "{what} class {c}: ON/OFF source model {onoff} sim {sim}");
        assert!((onoff - sim).abs() < (eq15 - sim).abs(), "{what} class {c}: ON/OFF model {onoff} Eq. 15 {eq15} sim {sim}");
    }
}

#[test]
fn cube_model_with_best_effort_messages_twice_as_long() {
    // 000_… Fig. 10 (experiments/fig10_000_cube6.toml): the 6-cube with
    // best effort M = 64 at 0.002 messages/cycle/node beside real time
    // M = 32, R1 + R2 = 0.0015 and 0.0045, 60 k cycles. Every class within
    // 10 % (100 k cycles: 7.1 % at worst); the simulated cube carries the
    // offered flits (which needs 64-flit best-effort messages: with 32 it
    // would carry 0.064 less); and the paper's reading, in the simulation:
    // real time is not affected by the best-effort length (R1, R2 within
    // 5 % of fig7_000_cube6.toml's M = 32 run at the same message rates).
    let short = ("cycles = 100000", "cycles = 60000");
    for (load, mix) in [("load = 0.176", "mix = [0.048, 0.128]"), ("load = 0.272", "mix = [0.144, 0.128]")] {
        let v = experiment_point("fig10_000_cube6.toml", &[short, ("load = 0.224", load), ("mix = [0.096, 0.128]", mix)]);
        let (m, s) = model_and_sim(&v);
        for c in 0..3u8 {
            let (a, b) = (net(&m, c), net(&s, c));
            assert!(((a - b) / b).abs() <= 0.10, "{load} class {c}: model {a} sim {b}");
        }
        let offered = v.exp.workload.load;
        assert!((s.accepted_throughput - offered).abs() <= 0.03 * offered, "{load}: accepted {} of {offered}", s.accepted_throughput);
        if load == "load = 0.272" {
            let same = experiment_point("fig7_000_cube6.toml", &[("cycles = 200000", "cycles = 60000"), ("load = 0.16", "load = 0.208"), ("mix = [0.096, 0.064]", "mix = [0.144, 0.064]")]);
            let s32 = run(&same).unwrap();
            for c in 1..3u8 {
                let (a, b) = (net(&s, c), net(&s32, c));
                assert!(((a - b) / b).abs() <= 0.05, "class {c}: best effort M = 64 {a}, M = 32 {b}");
            }
            assert!(net(&s, 0) > net(&s32, 0) + 32.0, "best effort: M = 64 {} vs M = 32 {}", net(&s, 0), net(&s32, 0));
        }
    }
}

#[test]
fn models_with_two_on_off_real_time_classes() {
    // 000_… Fig. 12 with the paper's two ON/OFF classes (14 streams per
    // class and node): (b) the 6-cube (experiments/fig12b_000_onoff_cube6_2rt.toml,
    // 60 k cycles) at R1 + R2 = 0.0015 and 0.0045: R1 and R2 within 10 %
    // (100 k cycles: 7.3 % at worst), best effort within 15 %; (a) the
    // 16-port router (fig12_000_onoff_2rt.toml, 400 k cycles) at 0.002 and
    // 0.006 messages/cycle/port (≈ 40 % of saturation): R1 within 10 %, R2
    // within 20 %, best effort within 30 % and below the simulation — the
    // bounds of the Poisson single-router test above, for the same reason
    // (Eq. 3's blocking term). In both the simulated R1 is below R2.
    for (load, mix) in [("load = 0.112", "mix = [0.048, 0.064]"), ("load = 0.208", "mix = [0.144, 0.064]")] {
        let v = experiment_point("fig12b_000_onoff_cube6_2rt.toml", &[("cycles = 100000", "cycles = 60000"), ("load = 0.16", load), ("mix = [0.096, 0.064]", mix)]);
        let (m, s) = model_and_sim(&v);
        for (c, bound) in [(2u8, 0.10), (1, 0.10), (0, 0.15)] {
            let (a, b) = (net(&m, c), net(&s, c));
            assert!(((a - b) / b).abs() <= bound, "cube {load} class {c}: model {a} sim {b}");
        }
        assert!(net(&s, 2) < net(&s, 1), "cube {load}: R1 {} R2 {}", net(&s, 2), net(&s, 1));
        check_onoff_source_wait(&v, &s, "kim2005_cube", &format!("cube {load}"));
    }
    for (load, mix) in [("load = 0.384", "mix = [0.064, 0.32]"), ("load = 0.512", "mix = [0.192, 0.32]")] {
        let v = experiment_point("fig12_000_onoff_2rt.toml", &[("load = 0.512", load), ("mix = [0.192, 0.32]", mix)]);
        let (m, s) = model_and_sim(&v);
        for (c, bound) in [(2u8, 0.10), (1, 0.20), (0, 0.30)] {
            let (a, b) = (net(&m, c), net(&s, c));
            assert!(((a - b) / b).abs() <= bound, "router {load} class {c}: model {a} sim {b}");
        }
        assert!(net(&m, 0) < net(&s, 0), "router {load}: best effort model {} sim {}", net(&m, 0), net(&s, 0));
        assert!(net(&s, 2) < net(&s, 1), "router {load}: R1 {} R2 {}", net(&s, 2), net(&s, 1));
        check_onoff_source_wait(&v, &s, "kim2005", &format!("router {load}"));
    }
}

#[test]
fn on_off_source_wait_where_bursts_come_back_to_back() {
    // experiments/fig12_000_onoff_bursts.toml at K = 14 streams, g = 33
    // cycles between a burst's messages (200 k cycles): the bursts make
    // the real-time source wait many times Eq. (15)'s Poisson value, and
    // the ON/OFF model sees it, but only through the own burst's backlog:
    // it stays below the simulation (the other sources' bursts meeting at
    // the destination at their peak rate are left out; docs/reproduction.md,
    // 110 against 35 cycles in the 400 k-cycle run), by less than 75 %.
    let v = experiment_point("fig12_000_onoff_bursts.toml", &[("cycles = 400000", "cycles = 200000"), ("onoff_streams = 1", "onoff_streams = 14"), ("onoff_mean_off_us = 173.6", "onoff_mean_off_us = 2773.6")]);
    let s = run(&v).unwrap();
    let (sim, onoff, eq15) = (sim_source_wait(&s, 1), source_wait(&v, "kim2005_onoff", 1), source_wait(&v, "kim2005", 1));
    assert!(sim > 5.0 * eq15, "sim {sim} Eq. 15 {eq15}");
    assert!(onoff > 5.0 * eq15 && onoff < sim && onoff > 0.25 * sim, "ON/OFF model {onoff} sim {sim}");
}

#[test]
fn multilink_ring_second_strategy_simulated_like_the_first_and_the_model() {
    // 004_… Fig. 9 (experiments/fig9_004.toml, 16 nodes, l = 4, 5-flit
    // packets, 50 k cycles). The second strategy (link = the source's
    // block) is simulated through destination codes "d via link j": at 0.6
    // flits/node/cycle, where a ring of one link would be overloaded, it
    // carries the load with a latency within 3 % of the first strategy's
    // (100 k cycles: +1 %; the links' loads are mirror images of each
    // other); at 0.05 and 0.2 the tandem models (M/M/n, M/D/n) of the
    // second strategy's routes are within 10 % of its simulated network
    // latency (100 k cycles: −4.9 %, −8.9 %).
    let point = |load: &str, strategy: &str| {
        let v = experiment_point("fig9_004.toml", &[("cycles = 100000", "cycles = 50000"), ("load = 0.1\n", load), ("links = 4\n", strategy)]);
        let s = run(&v).unwrap();
        (v, s)
    };
    let second = "links = 4\nstrategy = \"source_block\"\n";
    let (_, first) = point("load = 0.6\n", "links = 4\n");
    let (_, sb) = point("load = 0.6\n", second);
    let (a, b) = (net(&sb, 0), net(&first, 0));
    assert!(((a - b) / b).abs() <= 0.03, "second strategy {a}, first {b}");
    assert!(sb.accepted_throughput >= 0.95 * 0.6, "second strategy accepts {}", sb.accepted_throughput);
    for load in ["load = 0.05\n", "load = 0.2\n"] {
        let (v, s) = point(load, second);
        let sim = net(&s, 0);
        for named in predict::plan(&v).unwrap().evaluate(&[]) {
            if named.name == "mmn" || named.name == "mdn" {
                let m = named.result.unwrap()[0].network_latency;
                assert!(((m - sim) / sim).abs() <= 0.10, "{load} {}: model {m} sim {sim}", named.name);
            }
        }
    }
}

#[test]
fn fig6a_model_curve_at_n256_is_the_committed_one() {
    // 004_… Fig. 6(a) (N = 256, 129-port routers: model only): the CSV that
    // docs/reproduction.md quotes is what the model computes now
    // (`cargo run --release -p wormqos-netsim --example fig6a_004`).
    let path = format!("{}/../../experiments/results/model_fig6a_004/fig6a.csv", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap();
    let now = wormqos_netsim::analytic::ring_curve::FIG6A_004.csv();
    assert!(committed == now, "{path} is stale: rerun the example");
    // Shape checks that do not depend on the committed file: the paper's
    // first-strategy ring has H̄ ≈ N/4 hops of P = 5 cycles plus M, so the
    // light-load network latency is near 64·5 + 100 = 420 cycles.
    let light: Vec<f64> = now.lines().filter(|l| l.starts_with("markov,") && l.contains(",0.05,")).map(|l| l.split(',').nth(4).unwrap().parse().unwrap()).collect();
    assert_eq!(light.len(), 5);
    assert!(light.iter().all(|&x| (410.0..=430.0).contains(&x)), "{light:?}");
}

/// Packet latency (network + segmentation queue) of the ring model `name`.
fn ring_latency(v: &Validated, name: &str) -> Result<f64, String> {
    let named = predict::plan(v).unwrap().evaluate(&[]);
    let row = named.into_iter().find(|n| n.name == name).unwrap();
    row.result.map(|c| c[0].network_latency + c[0].source_latency).map_err(|e| e.to_string())
}

#[test]
fn fig6a_models_against_simulation_at_the_largest_ring_simulated() {
    // experiments/fig6a_004_n60.toml: Fig. 6(a)'s packets (100 flits) on the
    // N = 60 ring (31-port routers; N = 256 needs 129), 30 k cycles. At 0.2
    // flits/node/cycle with v_c = 2 the Markov model's packet latency within
    // 12 % (60 k cycles: −7.8 %); at 0.6 with v_c = 1 the simulated ring no
    // longer carries the load (60 k cycles: 0.500 of 0.6) and the tandem
    // models' VC queue is saturated.
    let v = experiment_point("fig6a_004_n60.toml", &[("cycles = 60000", "cycles = 30000"), ("load = 0.1", "load = 0.2"), ("vcs = 8", "vcs = 4")]);
    let s = run(&v).unwrap();
    let sim = s.classes.iter().find(|c| c.class == 0).unwrap().latency;
    let m = ring_latency(&v, "markov").unwrap();
    assert!(((m - sim) / sim).abs() <= 0.12, "v_c = 2, 0.2: Markov {m} sim {sim}");
    let v = experiment_point("fig6a_004_n60.toml", &[("cycles = 60000", "cycles = 30000"), ("load = 0.1", "load = 0.6"), ("vcs = 8", "vcs = 2")]);
    let s = run(&v).unwrap();
    assert!(s.accepted_throughput < 0.9 * 0.6, "v_c = 1, 0.6: accepted {}", s.accepted_throughput);
    for name in ["mmn", "mdn"] {
        let e = ring_latency(&v, name).unwrap_err();
        assert!(e.contains("saturated: VC queue"), "{name}: {e}");
    }
}

/// The burst-scale fluid model (`analytic/onoff_fluid.rs`) against the
/// committed simulation of `fig12_000_onoff_bursts.toml` (its
/// `source_queue.csv`, 400 k cycles, seed 1): the real-time class's total
/// latency (source wait + network latency), model = `kim2005`'s network
/// latency + the packet-scale source wait of `onoff_source.rs` without its
/// own-burst term + the fluid delay at the source link and at the
/// destination link. Writes `burst_fluid.csv` beside it with
/// `WORMQOS_BLESS=1`, else checks the committed one is what the model
/// computes now (docs/reproduction.md quotes it).
/// The real-time class's (class 1) total latency of `source` at `point`
/// in a `source_queue.csv` text (its last column).
fn real_time_total(sq: &str, source: &str, point: &str) -> f64 {
    let row = sq.lines().find(|l| l.starts_with(&format!("{source},{point},1,"))).unwrap_or_else(|| panic!("{source} {point}"));
    row.rsplit(',').next().unwrap().parse().unwrap()
}

/// Writes `csv` to `path` under WORMQOS_BLESS=1; fails when the committed
/// file differs from it.
fn bless_or_compare(path: &str, csv: &str) {
    if std::env::var_os("WORMQOS_BLESS").is_some() {
        std::fs::write(path, csv).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(committed == csv, "{path} is stale: rerun with WORMQOS_BLESS=1\n{csv}");
}

/// One point of a fluid-model check: the model's total (network latency
/// `net` + packet-scale wait + the links' fluid delays) against the
/// simulated total, within `bound` percent and closer than the
/// source-queue row `onoff` wherever that one is more than 10 % off; the
/// model total and the point's CSV row.
#[allow(clippy::too_many_arguments)]
fn fluid_point_row(point: &str, k: u32, gap: f64, burst: &wormqos_netsim::analytic::onoff_fluid::BurstDelay, packet: f64, net: f64, (sim, onoff): (f64, f64), bound: f64) -> (f64, String) {
    let model = net + packet + burst.source_link + burst.destination_link;
    let (err, onoff_err) = (100.0 * (model - sim) / sim, 100.0 * (onoff - sim) / sim);
    assert!(err.abs() <= bound, "{point}: model {model} sim {sim}");
    assert!(onoff_err.abs() <= 10.0 || err.abs() < onoff_err.abs(), "{point}: model {model} ({err:.1} %), source-queue row {onoff} ({onoff_err:.1} %)");
    let row = format!("{point},{k},{gap:.1},{:.4},{:.4},{:.2e},{packet:.4},{net:.4},{model:.4},{sim:.4},{err:.1},{onoff:.4},{onoff_err:.1}\n", burst.source_link, burst.destination_link, burst.excluded_weight);
    (model, row)
}

#[test]
fn burst_scale_fluid_model_against_the_back_to_back_runs() {
    use wormqos_netsim::analytic::onoff_fluid::BurstClass;
    use wormqos_netsim::analytic::onoff_source::{priority_waits, Arrivals, SourceClass};
    let dir = format!("{}/../../experiments/results/model_fig12_000_onoff_bursts", env!("CARGO_MANIFEST_DIR"));
    let sq = std::fs::read_to_string(format!("{dir}/source_queue.csv")).unwrap();
    let cell = |source: &str, point: &str| real_time_total(&sq, source, point);
    let mut csv = String::from("point,streams,gap_cycles,source_link_cycles,destination_link_cycles,excluded_weight,packet_scale_wait_cycles,kim2005_network_cycles,model_total_cycles,sim_total_cycles,error_percent,kim2005_onoff_total_cycles,kim2005_onoff_error_percent\n");
    for (k, off) in [(1u32, "173.6"), (1, "168.0"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (2, "348.8"), (4, "773.6"), (14, "2773.6")] {
        let v = experiment_point("fig12_000_onoff_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        let n = v.exp.workload.onoff_mean_messages;
        let burst = BurstClass { ports: 16, streams: k as usize, mean_burst: n, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 }.delay().unwrap();
        let packet = priority_waits(&[SourceClass::flits(0.004, o.flits as f64, Arrivals::OnOff { streams: k, gap: o.gap, mean_burst: 1.0 })])[0].as_ref().unwrap().wait;
        let named = predict::plan(&v).unwrap().evaluate(&[]);
        let net = named.iter().find(|r| r.name == "kim2005").unwrap().result.as_ref().unwrap().iter().find(|c| c.class == 1).unwrap().network_latency;
        let point = format!("workload.onoff_streams+workload.onoff_mean_off_us={k}:{off}");
        let (sim, onoff) = (cell("sim", &point), cell("model:kim2005_onoff", &point));
        // The bound: within 40 % of the simulated total at every point.
        csv += &fluid_point_row(&point, k, o.gap, &burst, packet, net, (sim, onoff), 40.0).1;
    }
    let path = format!("{dir}/burst_fluid.csv");
    bless_or_compare(&path, &csv);
    // 000_… Fig. 12's own sources (14 streams, bursts of 10, g = 850 cycles
    // or more): no link ever overloads at the burst scale (14 · 32/850 =
    // 0.53 < 1), so the combined model is the source-queue model there.
    let own = BurstClass { ports: 16, streams: 14, mean_burst: 10.0, gap: 850.0, off_mean: 12_500.0, flits: 32.0, capacity: 1.0 }.delay().unwrap();
    assert!(own.source_link == 0.0 && own.destination_link < 1e-9, "{own:?}");
}

/// The n-cube's burst-scale fluid row (`kim2005_cube_fluid`) against the
/// committed back-to-back runs of `fig12b_000_onoff_cube6_bursts.toml`
/// (no simulation here): `kim2005_cube`'s network latency + the
/// packet-scale wait (N = 1) + the injection, hop and ejection links'
/// fluid delays of `CubeBurstClass`, recomputed per point and compared
/// with the simulated real-time total of `source_queue.csv`. Writes
/// `cube_burst_fluid.csv` (WORMQOS_BLESS=1) and fails when it is stale or
/// when `wormqos model` wrote another `kim2005_cube_fluid` total.
#[test]
fn cube_burst_fluid_model_against_the_back_to_back_runs() {
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    use wormqos_netsim::analytic::onoff_source::{priority_waits, Arrivals, SourceClass};
    let dir = format!("{}/../../experiments/results/model_fig12b_000_onoff_cube6_bursts", env!("CARGO_MANIFEST_DIR"));
    let sq = std::fs::read_to_string(format!("{dir}/source_queue.csv")).unwrap();
    let cell = |source: &str, point: &str| real_time_total(&sq, source, point);
    let mut csv = String::from("point,streams,gap_cycles,source_link_cycles,network_links_cycles,excluded_weight,packet_scale_wait_cycles,kim2005_cube_network_cycles,model_total_cycles,sim_total_cycles,error_percent,kim2005_cube_onoff_total_cycles,kim2005_cube_onoff_error_percent\n");
    for (k, off) in [(1u32, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let v = experiment_point("fig12b_000_onoff_cube6_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        let class = BurstClass { ports: 64, streams: k as usize, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let burst = CubeBurstClass { n: 6, class }.delay().unwrap();
        let packet = priority_waits(&[SourceClass::flits(0.004, o.flits as f64, Arrivals::OnOff { streams: k, gap: o.gap, mean_burst: 1.0 })])[0].as_ref().unwrap().wait;
        let named = predict::plan(&v).unwrap().evaluate(&[]);
        let net = named.iter().find(|r| r.name == "kim2005_cube").unwrap().result.as_ref().unwrap().iter().find(|c| c.class == 1).unwrap().network_latency;
        let point = format!("workload.onoff_streams+workload.onoff_mean_off_us={k}:{off}");
        let (sim, onoff, written) = (cell("sim", &point), cell("model:kim2005_cube_onoff", &point), cell("model:kim2005_cube_fluid", &point));
        // The bound (one seed, 200 k cycles): within 15 % of the simulated
        // total at every point.
        let (model, row) = fluid_point_row(&point, k, o.gap, &burst, packet, net, (sim, onoff), 15.0);
        assert!((written - model).abs() <= 1e-9 * model, "{point}: source_queue.csv has {written}, the model gives {model}");
        // Each part where it occurs: the injection link in the source
        // wait, the hop and ejection links in the network latency.
        let row_of = |source: &str| sq.lines().find(|l| l.starts_with(&format!("{source},{point},1,"))).unwrap().split(',').map(|c| c.parse().unwrap_or(f64::NAN)).collect::<Vec<f64>>();
        let parts = row_of("model:kim2005_cube_fluid");
        assert!((parts[3] - (net + burst.destination_link)).abs() <= 1e-9 * parts[3], "{point}: network latency {}", parts[3]);
        assert!((parts[4] - (packet + burst.source_link)).abs() <= 1e-9 * parts[4].max(1.0), "{point}: source wait {}", parts[4]);
        csv += &row;
    }
    let path = format!("{dir}/cube_burst_fluid.csv");
    bless_or_compare(&path, &csv);
    // 000_… Fig. 12(b)'s own streams (fig12b_000_onoff_cube6.toml, 14 per
    // node, 1 ms OFF): g = 8,083 cycles at its lowest load and 1,083 at its
    // highest, so a link overloads only with 34 or more streams ON at once
    // (34 · 32/1,083 > 1 > 33 · 32/1,083): every fluid term is 0 there.
    for (load, mix, gap) in [("0.112", "[0.048, 0.064]", 8_083.0), ("0.256", "[0.192, 0.064]", 1_083.0)] {
        let v = experiment_point("fig12b_000_onoff_cube6.toml", &[("load = 0.16", &format!("load = {load}")), ("mix = [0.096, 0.064]", &format!("mix = {mix}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        assert!((o.gap - gap).abs() < 1.0, "{load}: g = {}", o.gap);
        let class = BurstClass { ports: 64, streams: 14, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let own = CubeBurstClass { n: 6, class }.delay().unwrap();
        assert!(own.source_link == 0.0 && own.destination_link < 1e-9, "{load}: {own:?}");
        // In tandem too: the stream's peak 32/g is far below c_s and c_d,
        // and the injection link's 14 streams (14·32/1,083 = 0.41) below
        // c_b.
        let tandem = CubeBurstClass { n: 6, class }.coupled_delay().unwrap();
        assert!(tandem.source_link == 0.0 && tandem.destination_link < 1e-9, "{load}: {tandem:?}");
    }
}

/// The n-cube's fluid row in tandem (`kim2005_cube_tandem`,
/// `CubeBurstClass::coupled_delay`) against ten seeds of the 6-cube's
/// back-to-back bursts (`experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds/results.csv`,
/// `wormqos sweep` of `fig12b_000_onoff_cube6_bursts_seeds.toml`, 200 k
/// cycles per seed; no simulation here): the real-time total latency
/// (source wait + network latency), the simulated mean over the seeds and
/// its standard error, the tandem row's and the links-added row's
/// (`kim2005_cube_fluid`) totals with their errors, both rows' split, and
/// the tandem row's network links checked against `coupled_network_parts`. Writes
/// `cube_tandem_fluid.csv` beside the results (WORMQOS_BLESS=1), else
/// fails when it is stale (docs/reproduction.md quotes it).
#[test]
fn cube_tandem_model_against_ten_seeds() {
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    let dir = format!("{}/../../experiments/results/sweep_fig12b_000_onoff_cube6_bursts_seeds", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(format!("{dir}/results.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{name}"));
    let (pc, tc, nc, sc) = (col("workload.onoff_streams+workload.onoff_mean_off_us"), col("rt_latency_cycles"), col("rt_network_latency_cycles"), col("rt_source_latency_cycles"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let mut csv = String::from("point,streams,gap_cycles,seeds,sim_total_cycles,sim_total_se_cycles,sim_source_wait_cycles,sim_network_cycles,tandem_source_wait_cycles,tandem_network_cycles,tandem_total_cycles,tandem_error_percent,first_hop_blocking_cycles,added_source_wait_cycles,added_network_cycles,added_total_cycles,added_error_percent,backlog_source_wait_cycles,backlog_network_cycles,backlog_total_cycles,backlog_error_percent\n");
    for (k, off) in [(1u32, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let point = format!("{k}:{off}");
        let at: Vec<&Vec<&str>> = rows.iter().filter(|r| r[pc] == point).collect();
        assert_eq!(at.len(), 10, "{point}: seeds");
        let mean = |c: usize| at.iter().map(|r| r[c].parse::<f64>().unwrap()).sum::<f64>() / at.len() as f64;
        let (sim, sim_net, sim_src) = (mean(tc), mean(nc), mean(sc));
        let var = at.iter().map(|r| (r[tc].parse::<f64>().unwrap() - sim).powi(2)).sum::<f64>() / (at.len() - 1) as f64;
        let se = (var / at.len() as f64).sqrt();
        let v = experiment_point("fig12b_000_onoff_cube6_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        let named = predict::plan(&v).unwrap().evaluate(&[]);
        let parts = |name: &str| named.iter().find(|r| r.name == name).unwrap().result.as_ref().map(|c| c.iter().find(|c| c.class == 1).map(|c| (c.source_latency, c.network_latency)).unwrap());
        let (a_src, a_net) = parts("kim2005_cube_fluid").unwrap();
        let added = a_src + a_net;
        let added_err = 100.0 * (added - sim) / sim;
        let class = BurstClass { ports: 64, streams: k as usize, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let cube = CubeBurstClass { n: 6, class };
        let (t_src, t_net) = parts("kim2005_cube_tandem").unwrap();
        let tandem = t_src + t_net;
        let err = 100.0 * (tandem - sim) / sim;
        // The bound: K = 1 within 10 % of the ten seeds' mean (the
        // destinations each seed draws spread the K = 1 totals by 4–6 % in
        // standard error); K ≥ 2 high, within +20 % (docs/reproduction.md,
        // "The hypercube's fluid row in tandem": measured +13 % to +16 %;
        // the cause, the backlog waiting at the source, in "The backlog at
        // the source"). K = 14 is solved by
        // `FluidLink::direct_mean_backlog` (14 sources at c_b < r).
        if k == 1 {
            assert!(err.abs() <= 10.0, "{point}: tandem {tandem} sim {sim}");
        } else {
            assert!(err > 0.0 && err <= 20.0, "{point}: tandem {tandem} sim {sim}");
        }
        // The network part is kim2005_cube's network latency plus the
        // links of `coupled_network_parts`, the dimension-0 hop link 0.
        let (links, _) = cube.coupled_network_parts().unwrap();
        let base = parts("kim2005_cube").unwrap().1;
        assert!(links[0] == 0.0 && (t_net - base - links.iter().sum::<f64>()).abs() <= 1e-9 * t_net, "{point}: {links:?}");
        // The backlog at the source (`kim2005_cube_source_backlog`): the
        // tandem's network part unchanged, its injection link S and
        // network links N merged as E[max] = S + N − S·N/(S + N) (the
        // packet-scale wait stays added), which lies between the larger
        // and the sum. Bound: within 10 % of the ten seeds' mean at every
        // point (docs/reproduction.md, "The backlog at the source":
        // measured −6.5 % to +0.7 %; the tandem row is +13.2 % to +15.5 %
        // at K ≥ 2).
        let (b_src, b_net) = parts("kim2005_cube_source_backlog").unwrap();
        let backlog = b_src + b_net;
        let b_err = 100.0 * (backlog - sim) / sim;
        assert!(b_err.abs() <= 10.0, "{point}: source backlog {backlog} sim {sim}");
        let fluid = cube.coupled_delay().unwrap();
        let (s, n) = (fluid.source_link, fluid.destination_link);
        let packet = t_src - s;
        assert!((b_net - t_net).abs() <= 1e-9 * t_net && (b_src - packet - (s + n - s * n / (s + n) - n)).abs() <= 1e-9 * t_src.max(1.0), "{point}: {b_src} {b_net}");
        let row = format!("{t_src:.4},{t_net:.4},{tandem:.4},{err:.1},{:.4}", cube.first_hop_blocking().unwrap());
        let backlog_row = format!("{b_src:.4},{b_net:.4},{backlog:.4},{b_err:.1}");
        csv += &format!("{point},{k},{:.1},{},{sim:.4},{se:.4},{sim_src:.4},{sim_net:.4},{row},{a_src:.4},{a_net:.4},{added:.4},{added_err:.1},{backlog_row}\n", o.gap, at.len());
    }
    bless_or_compare(&format!("{dir}/cube_tandem_fluid.csv"), &csv);
}

/// A committed CSV as rows of column → cell.
fn results_table(path: &str) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines.map(|l| head.iter().cloned().zip(l.split(',').map(String::from)).collect()).collect()
}

/// `experiments/results/` of the repository.
fn results_dir() -> String {
    format!("{}/../../experiments/results", env!("CARGO_MANIFEST_DIR"))
}

/// The ten-seed sweep's committed `cube_tandem_fluid.csv` and the link
/// trace's `cube_links.csv` over the same seeds, as `results_table` rows.
fn cube_sweep_and_links() -> (Vec<std::collections::HashMap<String, String>>, Vec<std::collections::HashMap<String, String>>) {
    let root = results_dir();
    (results_table(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_tandem_fluid.csv")), results_table(&format!("{root}/cube_link_trace/cube_links.csv")))
}

/// The number in column `c` of a `results_table` row.
fn cell(r: &std::collections::HashMap<String, String>, c: &str) -> f64 {
    r[c].parse().unwrap_or_else(|_| panic!("{c}: {}", r[c]))
}

/// One point of the 6-cube's back-to-back bursts
/// (`fig12b_000_onoff_cube6_bursts.toml` with K = `k` streams and a mean
/// OFF time of `off` µs): its real-time class as `CubeBurstClass`, and the
/// real-time (source wait, network latency) of each `wormqos model` row
/// that has a result, by row name.
fn cube_bursts_point(k: usize, off: &str) -> (wormqos_netsim::analytic::onoff_fluid::CubeBurstClass, std::collections::HashMap<String, (f64, f64)>) {
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    let v = experiment_point("fig12b_000_onoff_cube6_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
    let o = v.offered().unwrap().onoff[0].clone();
    let rows = predict::plan(&v).unwrap().evaluate(&[]).into_iter().filter_map(|r| r.result.ok().map(|c| (r.name.to_string(), c.iter().find(|c| c.class == 1).map(|c| (c.source_latency, c.network_latency)).unwrap()))).collect();
    let class = BurstClass { ports: 64, streams: k, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
    (CubeBurstClass { n: 6, class }, rows)
}

/// The row `kim2005_cube_held` (`analytic/cube_held.rs`) against the ten
/// seeds per part (docs/reproduction.md, "The network links without the
/// source's backlog"): the simulated means and the measured header stays
/// are read from the committed `cube_tandem_fluid.csv` and
/// `cube_link_trace/cube_links.csv` (no simulation here); the row's parts
/// come from `wormqos model`'s plan. Writes `cube_held.csv` beside them.
#[test]
fn cube_held_model_against_ten_seeds() {
    let root = results_dir();
    let (sweep, links) = cube_sweep_and_links();
    let f = cell;
    let mut csv = String::from("point,streams,gap_cycles,sim_total_cycles,sim_source_wait_cycles,sim_network_cycles,held_source_wait_cycles,held_network_cycles,held_total_cycles,source_error_percent,network_error_percent,total_error_percent,held_links_cycles,pushed_cycles,held_ejection_cycles,measured_stays_cycles,measured_ejection_stay_cycles,injection_link_cycles,sum_source_wait_cycles,sum_source_error_percent\n");
    for (k, off) in [(1usize, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let point = format!("{k}:{off}");
        let s = sweep.iter().find(|r| r["point"] == point).unwrap();
        let (sim, sim_src, sim_net) = (f(s, "sim_total_cycles"), f(s, "sim_source_wait_cycles"), f(s, "sim_network_cycles"));
        let (cube, parts) = cube_bursts_point(k, off);
        let gap = cube.class.gap;
        let (h_src, h_net) = parts["kim2005_cube_held"];
        let (t_src, t_net) = parts["kim2005_cube_tandem"];
        let base = parts["kim2005_cube"].1;
        let split = cube.held_network_parts().unwrap();
        // The network part is the base plus the links' held parts; the
        // source part is the tandem row's packet-scale wait plus the one
        // queue at the source, E[max(S, P)] = S + P − S·P/(S + P) of the
        // injection link S and the pushed-back total P. The sum S + P (the
        // row before, whose total was the tandem row's) is written beside.
        let held = h_src + h_net;
        // The total (issue 22 item 3, "The hypercube's tandem row" high by
        // +13.2 % to +15.5 % at K ≥ 2): within 7 % of the ten seeds' mean at
        // every point and 2 % at g = 33 (measured −6.5 % to +1.7 %, +0.7 %
        // to +1.7 % at g = 33).
        assert!((100.0 * (held - sim) / sim).abs() <= if gap == 33.0 { 2.0 } else { 7.0 }, "{point}: total {held} sim {sim}");
        assert!((h_net - base - split.held_total()).abs() <= 1e-9 * h_net, "{point}: {split:?}");
        let (s_link, p) = (cube.coupled_delay().unwrap().source_link, split.pushed_total());
        let packet = t_src - s_link;
        let one_queue = if s_link > 0.0 && p > 0.0 { s_link + p - s_link * p / (s_link + p) } else { s_link + p };
        assert!((h_src - packet - one_queue).abs() <= 1e-9 * h_src, "{point}: S {s_link} P {p} source {h_src}");
        let sum_src = t_src + p;
        assert!(((sum_src + h_net) - (t_src + t_net)).abs() <= 1e-9 * held, "{point}: the sum's total is the tandem row's");
        // The measured header stays (network links, and the ejection link
        // alone), per message, beside the held parts.
        let at: Vec<_> = links.iter().filter(|r| r["point"] == point).collect();
        assert_eq!(at.len(), 8, "{point}");
        let stays: f64 = at[1..].iter().map(|r| f(r, "sim_stay_weighted")).sum();
        let ejection_stay = f(at[7], "sim_stay_weighted");
        let err = |m: f64, s: f64| 100.0 * (m - s) / s;
        // The bounds (measured, docs/reproduction.md): the network part
        // within 10 % of the simulated network latency at every point
        // (−9.4 % to +0.3 %; the tandem row's is +43.9 % to +47.6 % at
        // g = 33); the sum's source part high at g = 33, +30 % to +50 %
        // (+35.6 % to +43.1 %); the one queue's source part within 10 %
        // at g = 33, K ≥ 2, and below the sum's wherever S > 0.
        assert!(err(h_net, sim_net).abs() <= 10.0, "{point}: network {h_net} sim {sim_net}");
        if gap == 33.0 {
            assert!((30.0..=50.0).contains(&err(sum_src, sim_src)), "{point}: sum's source {sum_src} sim {sim_src}");
            assert!(k == 1 || err(h_src, sim_src).abs() <= 10.0, "{point}: source {h_src} sim {sim_src}");
            assert!(h_src < sum_src, "{point}: one queue {h_src} sum {sum_src}");
        }
        csv += &format!(
            "{point},{k},{:.1},{sim:.4},{sim_src:.4},{sim_net:.4},{h_src:.4},{h_net:.4},{held:.4},{:.1},{:.1},{:.1},{:.4},{:.4},{:.4},{stays:.4},{ejection_stay:.4},{s_link:.4},{sum_src:.4},{:.1}\n",
            gap,
            err(h_src, sim_src),
            err(h_net, sim_net),
            err(held, sim),
            split.held_total(),
            split.pushed_total(),
            split.held[6],
            err(sum_src, sim_src),
        );
    }
    bless_or_compare(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_held.csv"), &csv);
}

/// The 6-cube's tandem row link by link (docs/reproduction.md, "The
/// hypercube's tandem row link by link"): the committed per-link trace
/// (`experiments/results/cube_link_trace/cube_links.csv`, written by the
/// example `cube_link_trace` over the sweep's ten seeds; no simulation
/// here) is the sweep's runs, its model columns are the tandem row's
/// today, and the finding it is quoted for holds: the model keeps the
/// burst backlog at the network links, mostly the ejection link, where the
/// simulated headers hardly wait.
#[test]
fn cube_link_trace_against_the_tandem_row() {
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    let root = format!("{}/../../experiments/results", env!("CARGO_MANIFEST_DIR"));
    let table = |path: &str| results_table(&format!("{root}/{path}"));
    let links = table("cube_link_trace/cube_links.csv");
    let sweep = table("sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_tandem_fluid.csv");
    let f = |r: &std::collections::HashMap<String, String>, c: &str| -> f64 { r[c].parse().unwrap_or_else(|_| panic!("{c}: {}", r[c])) };
    for (k, off) in [(1usize, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let point = format!("{k}:{off}");
        let rows: Vec<_> = links.iter().filter(|r| r["point"] == point).collect();
        // The injection link, six hop links and the ejection link.
        assert_eq!(rows.len(), 8, "{point}");
        // The same ten runs as the sweep: its means to the last digit.
        let s = sweep.iter().find(|r| r["point"] == point).unwrap();
        for (a, b) in [("sim_total", "sim_total_cycles"), ("sim_source_wait", "sim_source_wait_cycles"), ("sim_network", "sim_network_cycles")] {
            assert_eq!(rows[0][a], s[b], "{point}: {a}");
        }
        // The model columns are the tandem row's: the injection link's
        // fluid part (`coupled_delay`) and each network link's weighted
        // delay (`coupled_network_parts`: hop links d = 0..6, ejection).
        let v = experiment_point("fig12b_000_onoff_cube6_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        let class = BurstClass { ports: 64, streams: k, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let cube = CubeBurstClass { n: 6, class };
        let (parts, _) = cube.coupled_network_parts().unwrap();
        let model: Vec<String> = std::iter::once(cube.coupled_delay().unwrap().source_link).chain(parts).map(|x| format!("{x:.4}")).collect();
        let written: Vec<String> = rows.iter().map(|r| r["model_weighted"].clone()).collect();
        assert_eq!(written, model, "{point}: the model columns are stale");
        // Each message crosses the hop link of every bit in which its
        // destination differs: for a uniform one of the 63 others, 32 of
        // them differ in bit d, so 6 · 32/63 = 3.0476 hop links per
        // message; the seeds' draws of fixed destinations leave it within
        // 0.1 of that.
        let hops: f64 = rows[1..7].iter().map(|r| f(r, "headers_per_message")).sum();
        // The stays are a part of the network latency: the simulated
        // network latency less the stays is at least the zero-load
        // latency of `kim2005_cube` (the row's network part less its
        // links), and equals it within 1 cycle at g = 128, where bursts
        // hardly meet (measured: 0.15 cycles left; 18–23 at g = 33, the
        // body's flits held after their header left).
        let stays: f64 = rows[1..].iter().map(|r| f(r, "sim_stay_weighted")).sum();
        let base = f(s, "tandem_network_cycles") - rows[1..].iter().map(|r| f(r, "model_weighted")).sum::<f64>();
        let rest = f(rows[0], "sim_network") - stays - base;
        assert!(rest > -0.01 && (o.gap < 100.0 || rest < 1.0), "{point}: {rest} cycles of network latency outside the stays");
        assert!((hops - 6.0 * 32.0 / 63.0).abs() < 0.1, "{point}: {hops} hop links per message");
        if o.gap < 40.0 {
            // g = 33 (K = 1, 2, 4, 14): the model's network links hold
            // 107–121 cycles per message, the ejection link 49–65 of them;
            // the measured header stays beyond the pipeline's 3 cycles sum
            // to 39–44 cycles, 7–9 at the ejection link.
            let model_net: f64 = rows[1..].iter().map(|r| f(r, "model_weighted")).sum();
            let sim_net: f64 = rows[1..].iter().map(|r| f(r, "sim_stay_weighted")).sum();
            let (model_ej, sim_ej) = (f(rows[7], "model_weighted"), f(rows[7], "sim_stay_weighted"));
            assert!(model_net - sim_net > 60.0 && model_ej > 5.0 * sim_ej, "{point}: {model_net} {sim_net} {model_ej} {sim_ej}");
            assert!((35.0..50.0).contains(&sim_net), "{point}: {sim_net}");
        }
    }
}

/// The 16-port router's K = 14, g = 33 point, `not modelled` until the
/// fluid queue of 14 sources at c_b < r was solved without eigenvalues
/// (`FluidLink::direct_mean_backlog`): the coupled model's total
/// (`kim2005`'s network latency + the source and destination links, as
/// in `source_link.csv`'s `coupled_total`) against the committed 20-seed
/// simulation (`onoff_klink_trace_16port_coupled/source_link.csv`), within
/// the 8 % of the other coupled points. Writes `k14_direct.csv` beside it
/// (WORMQOS_BLESS=1), else fails when it is stale.
#[test]
fn k14_coupled_router_point_solved_directly() {
    use wormqos_netsim::analytic::onoff_fluid::BurstClass;
    let dir = format!("{}/../../experiments/results/onoff_klink_trace_16port_coupled", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(format!("{dir}/source_link.csv")).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let row: Vec<&str> = text.lines().find(|l| l.starts_with("14,33.0,")).unwrap().split(',').collect();
    let (sim, se): (f64, f64) = (row[col("sim_total")].parse().unwrap(), row[col("sim_total_se")].parse().unwrap());
    let v = experiment_point("fig12_000_onoff_bursts.toml", &[("onoff_streams = 1", "onoff_streams = 14"), ("onoff_mean_off_us = 173.6", "onoff_mean_off_us = 2773.6")]);
    let o = v.offered().unwrap().onoff[0].clone();
    let class = BurstClass { ports: 16, streams: 14, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
    let d = class.coupled_delay().unwrap();
    let named = predict::plan(&v).unwrap().evaluate(&[]);
    let net = named.iter().find(|r| r.name == "kim2005").unwrap().result.as_ref().unwrap().iter().find(|c| c.class == 1).unwrap().network_latency;
    let total = net + d.source_link + d.destination_link;
    let err = 100.0 * (total - sim) / sim;
    assert!(err.abs() <= 8.0, "model {total} sim {sim}");
    let csv = format!("streams,gap,sim_total,sim_total_se,kim2005_network,coupled_source,coupled_destination,excluded_weight,coupled_total,coupled_error\n14,{:.1},{sim:.4},{se:.4},{net:.4},{:.4},{:.4},{:.2e},{total:.4},{err:.1}\n", o.gap, d.source_link, d.destination_link, d.excluded_weight);
    bless_or_compare(&format!("{dir}/k14_direct.csv"), &csv);
}

/// Where the burst-scale backlog waits in the simulator, from the NI's
/// credit-stall counter (`ClassStats::source_credit_stall`): one ON/OFF
/// stream per port (K = 1: nothing else real-time at its NI, best effort
/// below it per flit), bursts g = 40 cycles apart to one destination,
/// 100 k cycles. With b_s = M = 32 the router's input VC holds one message,
/// so a backlog at the destination's output link stops the NI for credits
/// and is counted as source wait; with 256-flit buffers (8 messages) most of
/// it waits inside the router and is counted as network latency, while the
/// total stays (the destination link serves the same flits either way).
/// At g = 128 no link overloads: no credit stall.
#[test]
fn burst_backlog_waits_at_the_source_for_want_of_router_buffer() {
    let rt = |depth: u32, off: &str| {
        let (i, o) = (format!("input_buffer_depth = {depth}"), format!("output_buffer_depth = {depth}"));
        let v = experiment_point(
            "fig12_000_onoff_bursts.toml",
            &[("cycles = 400000", "cycles = 100000"), ("onoff_mean_off_us = 173.6", off), ("input_buffer_depth = 32", &i), ("output_buffer_depth = 32", &o)],
        );
        let s = run(&v).unwrap();
        for c in &s.classes {
            let stall = c.source_credit_stall.expect("measured without the NIC model");
            assert!(stall >= 0.0 && stall <= c.source_latency, "{depth} {off}: class {} stall {stall} of {}", c.class, c.source_latency);
        }
        let c = s.classes.iter().find(|c| c.class == 1).unwrap().clone();
        let stall = c.source_credit_stall.unwrap();
        (c, stall)
    };
    let ((one, one_stall), (eight, eight_stall)) = (rt(32, "onoff_mean_off_us = 168.0"), rt(256, "onoff_mean_off_us = 168.0"));
    // One message per VC: most of the wait at the source, much of it stalled.
    assert!(one.source_latency > one.network_latency - 36.0 && one_stall > 0.3 * one.source_latency, "{one:?}");
    // Eight: the backlog moves into the network, the total stays within 5 %.
    assert!(eight.network_latency > one.network_latency + 20.0 && eight.source_latency < 0.5 * one.source_latency, "{one:?} {eight:?}");
    assert!(eight_stall < 0.5 * one_stall, "{one:?} {eight:?}");
    assert!((eight.latency - one.latency).abs() <= 0.05 * one.latency, "total {} vs {}", eight.latency, one.latency);
    let (spaced, spaced_stall) = rt(32, "onoff_mean_off_us = 97.6");
    assert!(spaced_stall < 0.05, "{spaced:?}");
}

/// The fluid model's per-class link capacity (`predict.rs`): on
/// `fig12_000_onoff_2rt.toml` at load 0.512 (real time 0.192 flits/cycle/
/// port split 2:1, so R1 carries 0.128 and R2 0.064) R1 gets the whole
/// link, R2 what R1 leaves on average: 1 − 0.128 = 0.872 flits per cycle;
/// both with the file's 14 streams per port of 32-flit messages.
#[test]
fn fluid_capacity_of_a_lower_real_time_class_is_what_the_classes_above_leave() {
    let v = experiment_point("fig12_000_onoff_2rt.toml", &[]);
    let predict::Plan::SingleRouter { bursts: Some(b), .. } = predict::plan(&v).unwrap() else { panic!("no ON/OFF single-router plan") };
    assert_eq!(b.len(), 2);
    assert!((b[0].capacity - 1.0).abs() < 1e-12 && (b[1].capacity - 0.872).abs() < 1e-9, "{b:?}");
    assert!(b.iter().all(|c| c.streams == 14 && c.flits == 32.0 && c.ports == 16), "{b:?}");
}

/// How much the one queue's merge in `kim2005_cube_held` depends on its
/// shape assumption (docs/reproduction.md, "The network links without the
/// source's backlog"): the same S and P with the fluid queues' own shape,
/// an atom at 0 and an exponential tail (P(S > 0) = s0, P(P > 0) = p0),
/// merged independent (overlap s0·p0/(s0/S + p0/P)) and comonotone (the
/// two backlogs made by the same bursts: E[max] = ∫ max(P(S > x), P(P > x))
/// dx, the least E[max] these marginals allow). s0 is the injection link's
/// P(Q > 0): Λ/c, exact where only the all-OFF state drains (every
/// g = 33 injection link: r = 32/33 above c_s and c_b). p0 = 1 − Π_l (1 −
/// p_l), the links independent, p_l the crossing probability times the
/// binomial mean of P(Q_l > B_l), which is Λ·d/dB of
/// `mean_delay_within`(B) (central difference, h = 0.01 flit). Writes
/// `cube_held_shapes.csv` beside `cube_held.csv`.
#[test]
fn cube_held_one_queue_under_the_fluid_shapes() {
    use wormqos_netsim::analytic::cube_held::link_buffer_flits;
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass, FluidLink};
    let root = format!("{}/../../experiments/results", env!("CARGO_MANIFEST_DIR"));
    let sweep = results_table(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_tandem_fluid.csv"));
    let mut csv = String::from("point,streams,sim_source_wait_cycles,injection_link_cycles,pushed_cycles,packet_cycles,s_positive,p_positive,exponential_source_cycles,atom_independent_source_cycles,atom_comonotone_source_cycles,exponential_overlap_cycles,atom_independent_overlap_cycles,exponential_error_percent,atom_independent_error_percent,atom_comonotone_error_percent\n");
    for (k, off) in [(1usize, "173.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let point = format!("{k}:{off}");
        let sim_src: f64 = sweep.iter().find(|r| r["point"] == point).unwrap()["sim_source_wait_cycles"].parse().unwrap();
        let v = experiment_point("fig12b_000_onoff_cube6_bursts.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let o = v.offered().unwrap().onoff[0].clone();
        let burst = v.exp.workload.onoff_mean_messages;
        let class = BurstClass { ports: 64, streams: k, mean_burst: burst, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let cube = CubeBurstClass { n: 6, class };
        let named = predict::plan(&v).unwrap().evaluate(&[]);
        let source = |name: &str| named.iter().find(|r| r.name == name).unwrap().result.as_ref().unwrap().iter().find(|c| c.class == 1).unwrap().source_latency;
        let s = cube.coupled_delay().unwrap().source_link;
        let p = cube.held_network_parts().unwrap().pushed_total();
        let packet = source("kim2005_cube_tandem") - s;
        assert!((source("kim2005_cube_held") - packet - (s + p - s * p / (s + p))).abs() < 1e-9, "{point}");
        // The streams as the network links see them (c_s = c·M/(M + 2)
        // caps the peak, the burst stretched) and the links' capacities.
        let m = o.flits as f64;
        let (r, t_on) = (m / o.gap, burst * o.gap);
        let (c_s, c_d) = (m / (m + 2.0), m / (m + 1.0));
        let c_b = m / (m + 2.0 + cube.first_hop_blocking().unwrap());
        assert!(r > c_s && r > c_b, "{point}: the injection link drains only with every stream OFF");
        let s0 = k as f64 * t_on / (t_on + o.off) * r / if k == 1 { c_s } else { c_b };
        let (on, peak) = (t_on * r / c_s, c_s);
        let h = 0.01;
        let mut none = 1.0;
        for (link, (crossed, trials, q)) in cube.network_links().into_iter().enumerate().skip(1) {
            let b = link_buffer_flits(6, link, m);
            let (mut sum, mut weight, mut ln_choose) = (0.0, 0.0, 0.0f64);
            for j in 0..=trials {
                if j > 0 {
                    ln_choose += ((trials - j + 1) as f64 / j as f64).ln();
                }
                let w = (ln_choose + j as f64 * q.ln() + (trials - j) as f64 * (1.0 - q).ln()).exp();
                if w < 1e-12 && j as f64 > trials as f64 * q {
                    break;
                }
                let l = FluidLink { sources: j + 1, on_mean: on, off_mean: o.off - (on - t_on), peak, capacity: c_d };
                let load = (j + 1) as f64 * on / (on + l.off_mean) * peak;
                // Counts the model leaves out (saturated), left out here too.
                if let (Ok(above), Ok(below)) = (l.mean_delay_within(b + h), l.mean_delay_within(b - h)) {
                    sum += w * load * (above - below) / (2.0 * h);
                    weight += w;
                }
            }
            none *= 1.0 - crossed * sum / weight;
        }
        let p0 = 1.0 - none;
        // Comonotone: ∫ max(s0·e^{−ax}, p0·e^{−bx}) dx with a = s0/S,
        // b = p0/P; the curves cross once at x* = ln(s0/p0)/(a − b).
        let (a, b) = (s0 / s, p0 / p);
        let tail_from = |c: f64, rate: f64, x: f64| c / rate * (-rate * x).exp();
        let cross = (s0 / p0).ln() / (a - b);
        let comonotone = if cross <= 0.0 || !cross.is_finite() {
            (s0 / a).max(p0 / b)
        } else if s0 > p0 {
            (s0 / a - tail_from(s0, a, cross)) + tail_from(p0, b, cross)
        } else {
            (p0 / b - tail_from(p0, b, cross)) + tail_from(s0, a, cross)
        };
        let (exp_overlap, atom_overlap) = (s * p / (s + p), s0 * p0 / (s0 / s + p0 / p));
        let (exp_src, atom_src, como_src) = (packet + s + p - exp_overlap, packet + s + p - atom_overlap, packet + comonotone);
        let err = |x: f64| 100.0 * (x - sim_src) / sim_src;
        // The finding (measured, docs/reproduction.md): with the fluid
        // shapes and independence the overlap is under 2 cycles (the sum
        // all but unchanged); comonotone, the source part is within 5 %
        // of the simulated one at K ≥ 2, as the exponential merge is.
        assert!(atom_overlap < 2.0, "{point}: {atom_overlap}");
        assert!(k == 1 || err(como_src).abs() <= 5.0, "{point}: {como_src} sim {sim_src}");
        csv += &format!(
            "{point},{k},{sim_src:.4},{s:.4},{p:.4},{packet:.4},{s0:.4},{p0:.4},{exp_src:.4},{atom_src:.4},{como_src:.4},{exp_overlap:.4},{atom_overlap:.4},{:.1},{:.1},{:.1}\n",
            err(exp_src),
            err(atom_src),
            err(como_src)
        );
    }
    bless_or_compare(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_held_shapes.csv"), &csv);
}

/// The 6-cube's coupled injection link with 000_…'s Eq. (5) recursion in
/// B̄ (docs/reproduction.md, "The coupled source row with the blocking
/// chained, and g = 64, K = 4 over 40 seeds";
/// `CubeBurstClass::chained_first_hop_blocking`): at
/// every point of the ten-seed sweep, B̄ first order and chained, the
/// source VC's capacity c_b = c·M/(M + 2 + c·B̄) with each, the injection
/// link's fluid part with each, and the two rows that hold it — the tandem
/// row (`kim2005_cube_tandem`, S added) and the held row
/// (`kim2005_cube_held`, S merged with the pushed-back P as
/// E[max(S, P)]) — with each B̄, against the simulated mean of the ten
/// seeds and its 95 % half-width (t = 2.262 for 9 degrees of freedom ×
/// the standard error). The simulated means come from the committed
/// `cube_tandem_fluid.csv` (no simulation here). Beside them, per hop link
/// and point, the chained hold H_d against the measured allocation of the
/// link's real-time output VC plus the one turnaround cycle the model's
/// M/c_d = 33 holds (the ejection link's allocations last exactly M = 32,
/// `cube_link_trace/cube_links.csv`'s `sim_hold`). Writes
/// `cube_coupled_eq5.csv` and `cube_coupled_eq5_holds.csv` beside the
/// sweep (WORMQOS_BLESS=1), else fails when they are stale.
#[test]
fn cube_coupled_eq5_against_ten_seeds() {
    use wormqos_netsim::analytic::onoff_fluid::{expected_max_of_exponentials, OUTPUT_TURNAROUND};
    let root = results_dir();
    let (sweep, links) = cube_sweep_and_links();
    let f = cell;
    // Student's t at 97.5 % for 9 degrees of freedom (ten seeds).
    const T9: f64 = 2.262;
    let mut csv = String::from("point,streams,gap_cycles,sim_total_cycles,sim_total_ci95_cycles,blocking_first_cycles,blocking_chained_cycles,c_b_first,c_b_chained,injection_first_cycles,injection_chained_cycles,tandem_first_cycles,tandem_first_error_cycles,tandem_chained_cycles,tandem_chained_error_cycles,held_first_cycles,held_first_error_cycles,held_chained_cycles,held_chained_error_cycles\n");
    let mut holds_csv = String::from("point,link,model_first_cycles,model_chained_cycles,measured_cycles\n");
    for (k, off) in [(1usize, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let point = format!("{k}:{off}");
        let s = sweep.iter().find(|r| r["point"] == point).unwrap();
        let (sim, ci) = (f(s, "sim_total_cycles"), T9 * f(s, "sim_total_se_cycles"));
        let (cube, parts) = cube_bursts_point(k, off);
        let class = cube.class;
        let (first, chained) = (cube.first_hop_blocking().unwrap(), cube.chained_first_hop_blocking().unwrap());
        let m = class.flits;
        let c_b = |b: f64| m / (m + 2.0 + b);
        let (s_first, s_chained) = (cube.coupled_delay().unwrap().source_link, cube.chained_coupled_delay().unwrap().source_link);
        // The rows with the first-order B̄ are `wormqos model`'s (and the
        // committed CSV's, to its four decimals).
        let (t_src, t_net) = parts["kim2005_cube_tandem"];
        let tandem = t_src + t_net;
        assert!((tandem - f(s, "tandem_total_cycles")).abs() < 5e-5, "{point}: tandem {tandem} against the committed CSV");
        let tandem_chained = tandem - s_first + s_chained;
        let (h_src, h_net) = parts["kim2005_cube_held"];
        let pushed = cube.held_network_parts().unwrap().pushed_total();
        let held = h_src + h_net;
        assert!((h_src - (t_src - s_first) - expected_max_of_exponentials(s_first, pushed)).abs() <= 1e-9 * h_src, "{point}: held source part");
        let held_chained = held - expected_max_of_exponentials(s_first, pushed) + expected_max_of_exponentials(s_chained, pushed);
        // The chain only lengthens the holds, so B̄ rises, c_b falls and the
        // injection link rises (K = 1: the own stream at c_s, no c_b).
        assert!(chained > first && c_b(chained) < c_b(first), "{point}: B̄ {first} → {chained}");
        assert!(s_chained >= s_first && (k > 1 || s_chained == s_first), "{point}: S {s_first} → {s_chained}");
        csv += &format!(
            "{point},{k},{:.1},{sim:.4},{ci:.4},{first:.4},{chained:.4},{:.4},{:.4},{s_first:.4},{s_chained:.4},{tandem:.4},{:.4},{tandem_chained:.4},{:.4},{held:.4},{:.4},{held_chained:.4},{:.4}\n",
            class.gap,
            c_b(first),
            c_b(chained),
            tandem - sim,
            tandem_chained - sim,
            held - sim,
            held_chained - sim
        );
        let holds = cube.chained_hop_holds().unwrap();
        for (d, h) in holds.iter().enumerate() {
            let r = links.iter().find(|r| r["point"] == point && r["link"] == format!("hop{d}")).unwrap();
            holds_csv += &format!("{point},hop{d},{:.4},{h:.4},{:.4}\n", m / class.destination_capacity(), f(r, "sim_hold") + OUTPUT_TURNAROUND);
        }
    }
    bless_or_compare(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_coupled_eq5.csv"), &csv);
    bless_or_compare(&format!("{root}/sweep_fig12b_000_onoff_cube6_bursts_seeds/cube_coupled_eq5_holds.csv"), &holds_csv);
}

/// docs/reproduction.md "Best effort behind the cube's bursts, counted at
/// the link" (issue 22): `BePrioWait` recomputed per point from the
/// experiment equals what `cube_be_links` wrote beside the measured waits
/// (`experiments/results/cube_be_links/cube_be_links.csv`, no simulation
/// here), and the section's findings hold on every link of every point.
#[test]
fn be_prio_model_against_the_cube_be_links_runs() {
    use wormqos_netsim::analytic::be_burst_wait::BeBurstWait;
    use wormqos_netsim::analytic::be_prio_wait::BePrioWait;
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    let path = format!("{}/../../experiments/results/cube_be_links/cube_be_links.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let rows: Vec<std::collections::HashMap<&str, &str>> = text.lines().skip(1).map(|l| head.iter().cloned().zip(l.split(',')).collect()).collect();
    let cell = |point: &str, link: &str, col: &str| -> f64 {
        let r = rows.iter().find(|r| r["point"] == point && r["link"] == link).unwrap_or_else(|| panic!("{path}: no {point} {link}"));
        r[col].parse().unwrap()
    };
    // (point, link, link-side error %, fresh error %)
    let mut errors: Vec<(String, String, f64, f64)> = Vec::new();
    for (k, off) in [(1usize, "173.6"), (1, "148.8"), (1, "97.6"), (2, "373.6"), (4, "773.6"), (14, "2773.6")] {
        let v = experiment_point("fig12b_000_onoff_cube6_bursts_seeds.toml", &[("onoff_streams = 1", &format!("onoff_streams = {k}")), ("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let offered = v.offered().unwrap();
        let o = offered.onoff[0].clone();
        // Best effort: 0.064 flits a cycle a node in 32-flit messages.
        let be_rate = offered.phases[0].best_effort / o.flits as f64;
        assert!((be_rate - 0.002).abs() < 1e-12, "λ = {be_rate}");
        let class = BurstClass { ports: 64, streams: k, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let prio = BePrioWait { link: BeBurstWait::for_cube(&CubeBurstClass { n: 6, class }), be_rate };
        let point = format!("{k}:{off}");
        let injection = prio.injection().unwrap().0;
        let mut links = vec![("injection".to_string(), injection, injection)];
        links.extend((0..6).map(|d| (format!("hop{d}"), prio.hop(d).unwrap().0, prio.hop_fresh(d).unwrap().0)));
        links.push(("ejection".to_string(), prio.ejection().unwrap().0, prio.ejection_fresh().unwrap().0));
        for (link, all, fresh) in links {
            for (col, model) in [("prio_wait", all), ("fresh_wait", fresh)] {
                let written = cell(&point, &link, col);
                assert!((written - model).abs() <= 0.005 + 1e-9, "{point} {link}: {col} written {written}, the model gives {model}");
            }
            let sim = cell(&point, &link, "sim_wait");
            errors.push((point.clone(), link, 100.0 * (all - sim) / sim, 100.0 * (fresh - sim) / sim));
        }
    }
    assert_eq!(errors.len(), 48);
    let err = |p: &str, l: &str| errors.iter().find(|e| e.0 == p && e.1 == l).map(|e| (e.2, e.3)).unwrap();
    let at33 = ["1:173.6", "2:373.6", "4:773.6", "14:2773.6"];
    for p in at33 {
        // The count at the link is within 15 % at the injection link and,
        // with the fresh streams, at the hop links of dimension 2 to 5.
        assert!(err(p, "injection").0.abs() < 15.0, "{p} injection: {:?}", err(p, "injection"));
        for d in 2..6 {
            assert!(err(p, &format!("hop{d}")).1.abs() < 15.0, "{p} hop{d}: {:?}", err(p, &format!("hop{d}")));
        }
        // Dimension 0: no fresh stream, a wait measured all the same.
        assert!(cell(p, "hop0", "fresh_wait") == 0.0 && cell(p, "hop0", "sim_wait") > 5.0, "{p}: hop 0");
        // The ejection link between the two columns.
        let (all, fresh) = err(p, "ejection");
        assert!(all > 0.0 && fresh < -15.0, "{p} ejection: {all}, {fresh}");
        // The leak model is the customer's view at the injection link.
        let (leak, customer) = (cell(p, "injection", "model_wait"), cell(p, "injection", "sim_customer_wait"));
        assert!((leak / customer - 1.0).abs() < 0.07, "{p}: leak {leak}, customer {customer}");
    }
    // g = 64 and 128: measured above the fresh count by more than 15 % on
    // every hop link of dimension 1 up and the ejection link.
    for p in ["1:148.8", "1:97.6"] {
        for l in ["hop1", "hop2", "hop3", "hop4", "hop5", "ejection"] {
            assert!(err(p, l).1 < -15.0, "{p} {l}: {:?}", err(p, l));
        }
    }
}

/// docs/reproduction.md "Best effort behind the cube's overlapping bursts"
/// (issue 22): `BeOverlapWait` recomputed at K = 1, g = 64 and 128 from the
/// experiment equals what `cube_be_links` wrote beside the measured split
/// (`experiments/results/cube_be_overlap/cube_be_overlap.csv`, no
/// simulation here), the rerun's `cube_be_links.csv` rows are the committed
/// ones, and the section's findings hold.
#[test]
fn be_overlap_model_against_the_cube_be_overlap_runs() {
    use wormqos_netsim::analytic::be_burst_wait::BeBurstWait;
    use wormqos_netsim::analytic::be_overlap_wait::BeOverlapWait;
    use wormqos_netsim::analytic::be_prio_wait::BePrioWait;
    use wormqos_netsim::analytic::onoff_fluid::{BurstClass, CubeBurstClass};
    let dir = format!("{}/../../experiments/results", env!("CARGO_MANIFEST_DIR"));
    let read = |file: &str| std::fs::read_to_string(format!("{dir}/{file}")).unwrap_or_else(|e| panic!("{file}: {e}"));
    // The rerun wrote the link table again: its rows are the committed run's.
    let (rerun, committed) = (read("cube_be_overlap/cube_be_links.csv"), read("cube_be_links/cube_be_links.csv"));
    for line in rerun.lines() {
        assert!(committed.lines().any(|l| l == line), "cube_be_overlap/cube_be_links.csv: {line:?} not in the committed run");
    }
    assert_eq!(rerun.lines().count(), 1 + 2 * 8);
    let text = read("cube_be_overlap/cube_be_overlap.csv");
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let rows: Vec<std::collections::HashMap<&str, &str>> = text.lines().skip(1).map(|l| head.iter().cloned().zip(l.split(',')).collect()).collect();
    assert_eq!(rows.len(), 2 * 7);
    let cell = |point: &str, link: &str, col: &str| -> f64 {
        let r = rows.iter().find(|r| r["point"] == point && r["link"] == link).unwrap_or_else(|| panic!("cube_be_overlap.csv: no {point} {link}"));
        r[col].parse().unwrap()
    };
    let links: Vec<String> = (0..6).map(|d| format!("hop{d}")).chain(["ejection".to_string()]).collect();
    for off in ["148.8", "97.6"] {
        let v = experiment_point("fig12b_000_onoff_cube6_bursts_seeds.toml", &[("onoff_mean_off_us = 173.6", &format!("onoff_mean_off_us = {off}"))]);
        let offered = v.offered().unwrap();
        let o = offered.onoff[0].clone();
        let be_rate = offered.phases[0].best_effort / o.flits as f64;
        let class = BurstClass { ports: 64, streams: 1, mean_burst: v.exp.workload.onoff_mean_messages, gap: o.gap, off_mean: o.off, flits: o.flits as f64, capacity: 1.0 };
        let link = BeBurstWait::for_cube(&CubeBurstClass { n: 6, class });
        let model = BeOverlapWait { prio: BePrioWait { link, be_rate } };
        let point = format!("1:{off}");
        for (i, name) in links.iter().enumerate() {
            let ((trials, q), (term, variant)) = if i == 6 { (link.ejection_streams(), model.ejection().unwrap()) } else { (link.hop_streams(i), model.hop(i).unwrap()) };
            for (col, value, digits) in [("model_overlap_share", model.overlap_share(trials, q), 0.00005), ("overlap_wait", term, 0.005), ("variant_wait", variant, 0.005)] {
                let written = cell(&point, name, col);
                assert!((written - value).abs() <= digits + 1e-9, "{point} {name}: {col} written {written}, the model gives {value}");
            }
        }
    }
    let fitted = ["hop1", "hop2", "hop3", "hop4", "hop5", "ejection"];
    let mut within = 0;
    for p in ["1:148.8", "1:97.6"] {
        // Dimension 0 carries one stream at K = 1: no overlap, in the model
        // and in the probe (its wait is something else).
        assert!(cell(p, "hop0", "overlap_wait") == 0.0 && cell(p, "hop0", "sim_wait_over") <= 0.02 && cell(p, "hop0", "sim_wait_two") == 0.0, "{p} hop0");
        for l in fitted {
            let (sim, fresh, variant) = (cell(p, l, "sim_wait"), cell(p, l, "fresh_wait"), cell(p, l, "variant_wait"));
            // The overlap term closes part of the fresh count's shortfall
            // and the measured count has a share of 20 % or more in cycles
            // real time ran faster than one stream.
            assert!(variant > fresh && cell(p, l, "sim_wait_over") >= 0.2 * sim, "{p} {l}");
            // Two inputs wanted the link about as often as the model has
            // two streams ON (within a factor 1.6).
            let (two, model) = (cell(p, l, "sim_two_share"), cell(p, l, "model_overlap_share"));
            assert!(two / model < 1.6 && model / two < 1.6, "{p} {l}: two inputs {two}, two ON {model}");
            within += ((variant - sim).abs() < 0.15 * sim) as usize;
        }
    }
    assert_eq!(within, 10, "fresh + overlap within 15 % at {within} of the 12 links");
}

/// 004_… Fig. 7's four claims on the paper's network (issue 22;
/// docs/reproduction.md, "004_… Fig. 7's claims on the paper's network"):
/// `fig8_004.toml` (N = 16, l = 4, v_c = 4 per header, 2 KB packets of
/// M = 5 and 10 flits), the tandem models' packet latency T (Eq. 8)
/// computed here, against the committed simulated T of
/// `results/model_fig8_004/results.csv` (100 k cycles a point: too slow to
/// rerun here). (a) at the lightest load (0.05 flits/node/cycle = 1904
/// packets/s/node) within 5 %; (b) the error grows with the load (a
/// saturated model counts as infinitely wrong); (c) M/M/n and M/D/n cannot
/// be told apart: their T within 0.1 % of each other everywhere, because
/// the VC-access waits they differ in add under 0.2 cycles to t̄_s (M/D/n's
/// 0.94 of M/M/n's at each point); (d) from 0.2 up, M = 10 is closer than
/// M = 5 (at 0.05 it is not: −3 % against +1 %). (b) and (d) over 0.05,
/// 0.2, 0.4 only: at 0.6 the simulated T is no steady-state value.
#[test]
fn fig7_004_claims_on_the_papers_network() {
    use wormqos_netsim::analytic::multilink_ring::VcQueue;
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/results/model_fig8_004/results.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{name}"));
    let (sc, lc, mc, tc) = (col("source"), col("workload.load"), col("workload.message_flits"), col("be_latency_cycles"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let sim = |load: &str, m: &str| -> f64 { rows.iter().find(|r| r[sc] == "sim" && r[lc] == load && r[mc] == m).unwrap_or_else(|| panic!("sim {load} {m}"))[tc].parse().unwrap() };
    let base = ring("fig8_004.toml", 0.05);
    let loads = ["0.05", "0.2", "0.4", "0.6"];
    // |T − sim| / sim per (M, load index, model); saturated = ∞.
    let mut error = std::collections::HashMap::new();
    for m in ["5", "10"] {
        for (k, load) in loads.iter().enumerate() {
            let text = base.replace("load = 0.05\n", &format!("load = {load}\n")).replace("message_flits = 10", &format!("message_flits = {m}"));
            let v = Experiment::from_str(&text, "r.toml", PathBuf::new()).unwrap();
            let plan = predict::plan(&v).unwrap();
            let s = sim(load, m);
            let mut t = std::collections::HashMap::new();
            for named in plan.evaluate(&[]) {
                if let "mmn" | "mdn" = named.name {
                    let lat = named.result.ok().map(|c| c[0].network_latency + c[0].source_latency).filter(|x| x.is_finite());
                    t.insert(named.name, lat);
                    error.insert((m, k, named.name), lat.map_or(f64::INFINITY, |x| ((x - s) / s).abs()));
                }
            }
            // (c): one number for both models, and why.
            match (t["mmn"], t["mdn"]) {
                (Some(a), Some(b)) => assert!(((a - b) / a).abs() < 0.001 && b <= a, "M = {m}, {load}: M/M/n {a} M/D/n {b}"),
                (a, b) => assert!(a.is_none() && b.is_none(), "M = {m}, {load}: one saturated, the other not"),
            }
            let predict::Plan::Ring { model, .. } = plan else { panic!("not a ring plan") };
            let idle = wormqos_netsim::analytic::multilink_ring::RingModel { stage_rates: vec![0.0; model.stage_rates.len()], ..model.clone() };
            let zero = idle.tandem_service(VcQueue::MMn).unwrap();
            let (w_mm, w_md) = (model.tandem_service(VcQueue::MMn).unwrap() - zero, model.tandem_service(VcQueue::MDn).unwrap() - zero);
            assert!(w_mm < 0.2 && (w_md / w_mm - 0.94).abs() < 0.005, "M = {m}, {load}: VC waits M/M/n {w_mm} M/D/n {w_md}");
        }
    }
    for model in ["mmn", "mdn"] {
        for m in ["5", "10"] {
            assert!(error[&(m, 0, model)] <= 0.05, "(a) M = {m}: {}", error[&(m, 0, model)]);
            // (b), (d): not at 0.6, where the simulation falls just short
            // of the load (accepted + 95 % < offered for M = 5 and 10).
            for k in 1..3 {
                assert!(error[&(m, k, model)] > error[&(m, k - 1, model)] || error[&(m, k, model)].is_infinite(), "(b) M = {m} at {}", loads[k]);
            }
        }
        assert!(error[&("5", 0, model)] < error[&("10", 0, model)], "(d) fails at 0.05 as the document says");
        for k in 1..3 {
            assert!(error[&("10", k, model)] < error[&("5", k, model)], "(d) at {}: M = 10 {} M = 5 {}", loads[k], error[&("10", k, model)], error[&("5", k, model)]);
        }
    }
}

//! Design-space sweep helpers that need no synthesis tool.

use wormqos_config::RouterConfig;
use wormqos_synth::sweep::{csv, pareto, saturation_throughput, saturation_traffic, Grid, Point};

fn pt(name: &str, luts: f64, thr: f64) -> (Point, f64) {
    let p = Point {
        name: name.into(),
        vcs: 2,
        depth: 4,
        flit_width: 32,
        crossbar: "multiplexed".into(),
        scheduler: "fifo".into(),
        mode: "none".into(),
        switch_allocator: "single_pass".into(),
        switch_stage: "single_cycle".into(),
        throughput: Some(thr),
        report: None,
        error: None,
    };
    (p, luts)
}

#[test]
fn pareto_keeps_only_undominated_points() {
    // (LUTs, throughput): b is dominated by a (fewer LUTs, more throughput);
    // d ties c's throughput with more LUTs.
    let v = [pt("a", 100.0, 0.5), pt("b", 150.0, 0.4), pt("c", 300.0, 0.8), pt("d", 350.0, 0.8), pt("e", 50.0, 0.1)];
    let points: Vec<Point> = v.iter().map(|x| x.0.clone()).collect();
    let luts: Vec<f64> = v.iter().map(|x| x.1).collect();
    let key = |p: &Point| {
        let i = points.iter().position(|q| q.name == p.name).unwrap();
        Some((-luts[i], p.throughput?))
    };
    let f = pareto(&points, key);
    let names: Vec<&str> = f.iter().map(|&i| points[i].name.as_str()).collect();
    // Sorted by the first key (-LUTs): most LUTs first.
    assert_eq!(names, ["c", "a", "e"]);
}

#[test]
fn csv_has_a_row_per_point_and_marks_errors() {
    let mut p = pt("x", 1.0, 0.25).0;
    p.error = Some("synthesis: \"boom\"".into());
    let text = csv(&[p]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("name,vcs,buffer_depth,flit_width,crossbar,scheduler,mode,switch_allocator,switch_stage,saturation_throughput,xilinx_luts"));
    assert!(lines[1].starts_with("x,2,4,32,multiplexed,fifo,none,single_pass,single_cycle,0.2500,,"), "{}", lines[1]);
    assert!(lines[1].ends_with("\"synthesis: 'boom'\""), "{}", lines[1]);
}

fn mesh5() -> RouterConfig {
    RouterConfig::from_file(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mesh5.toml")).unwrap()
}

/// A one-point grid of the 5-port router: 2 VCs, depth 4, 32-bit flits,
/// multiplexed, round robin, single pass, single-cycle stage.
fn one_point() -> Grid {
    Grid {
        base: mesh5(),
        vcs: vec![2],
        depth: vec![4],
        flit_width: vec![32],
        crossbar: vec!["multiplexed".into()],
        scheduler: vec!["round_robin".into()],
        mode: vec!["none".into()],
        switch_allocator: vec!["single_pass".into()],
        switch_iterations: vec![3],
        switch_stage: vec!["single_cycle".into()],
    }
}

#[test]
fn grid_builds_each_combination_and_rejects_invalid_ones() {
    let g = Grid { vcs: vec![2, 4], flit_width: vec![32, 8], ..one_point() };
    let c = g.configs();
    assert_eq!(c.len(), 4);
    // 8-bit flits cannot hold the header (destination + class + 16-bit Vtick).
    assert_eq!(c.iter().filter(|(_, r)| r.is_err()).count(), 2);
    let ok: Vec<&RouterConfig> = c.iter().filter_map(|(_, r)| r.as_ref().ok()).collect();
    assert_eq!((ok[0].vcs(), ok[1].vcs()), (2, 4));
    assert_eq!(ok[0].name(), "mesh5_v2_d4_w32_mul_round_robin_none");
}

/// The switch-allocator axis: `single_pass` once, `iterative` once per
/// round count, and one point for the full crossbar, which has no
/// allocator (the configuration rejects the field there).
#[test]
fn switch_allocator_axis_spans_the_multiplexed_points_only() {
    let g = Grid {
        crossbar: vec!["multiplexed".into(), "full".into()],
        switch_allocator: vec!["single_pass".into(), "iterative".into()],
        switch_iterations: vec![1, 3],
        ..one_point()
    };
    let c = g.configs();
    let names: Vec<&str> = c.iter().map(|(p, _)| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "mesh5_v2_d4_w32_mul_round_robin_none",
            "mesh5_v2_d4_w32_mul_round_robin_none_it1",
            "mesh5_v2_d4_w32_mul_round_robin_none_it3",
            "mesh5_v2_d4_w32_ful_round_robin_none"
        ]
    );
    use wormqos_config::{SchedulingPoint, SwitchAllocator, SwitchStage};
    let points: Vec<SchedulingPoint> = c.iter().map(|(_, r)| r.as_ref().unwrap().scheduling().point).collect();
    assert_eq!(
        points,
        [
            SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::SingleCycle },
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 1 }, stage: SwitchStage::SingleCycle },
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 3 }, stage: SwitchStage::SingleCycle },
            SchedulingPoint::OutputPort
        ]
    );
    assert_eq!(c[3].0.switch_allocator, "none");
}

/// The switch-stage axis (`wormqos dse --switch-stage`): every stage with
/// every allocator of the multiplexed points, one full-crossbar point with
/// no stage; `registered` is refused where the configuration refuses it
/// (a preemptive mode), naming the field.
#[test]
fn switch_stage_axis_spans_the_multiplexed_points_only() {
    let mut g = Grid {
        crossbar: vec!["multiplexed".into(), "full".into()],
        switch_allocator: vec!["single_pass".into(), "iterative".into()],
        switch_stage: vec!["single_cycle".into(), "registered".into()],
        ..one_point()
    };
    let c = g.configs();
    let names: Vec<&str> = c.iter().map(|(p, _)| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "mesh5_v2_d4_w32_mul_round_robin_none",
            "mesh5_v2_d4_w32_mul_round_robin_none_reg",
            "mesh5_v2_d4_w32_mul_round_robin_none_it3",
            "mesh5_v2_d4_w32_mul_round_robin_none_it3_reg",
            "mesh5_v2_d4_w32_ful_round_robin_none"
        ]
    );
    let stages: Vec<&str> = c.iter().map(|(p, _)| p.switch_stage.as_str()).collect();
    assert_eq!(stages, ["single_cycle", "registered", "single_cycle", "registered", "none"]);
    use wormqos_config::{SchedulingPoint, SwitchAllocator, SwitchStage};
    let points: Vec<SchedulingPoint> = c.iter().map(|(_, r)| r.as_ref().unwrap().scheduling().point).collect();
    assert_eq!(
        points,
        [
            SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::SingleCycle },
            SchedulingPoint::InputPort { switch: SwitchAllocator::SinglePass, stage: SwitchStage::Registered },
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 3 }, stage: SwitchStage::SingleCycle },
            SchedulingPoint::InputPort { switch: SwitchAllocator::Iterative { iterations: 3 }, stage: SwitchStage::Registered },
            SchedulingPoint::OutputPort
        ]
    );
    let row = csv(&[c[1].0.clone()]);
    assert!(row.lines().nth(1).unwrap().starts_with("mesh5_v2_d4_w32_mul_round_robin_none_reg,2,4,32,multiplexed,round_robin,none,single_pass,registered,"), "{row}");
    g.mode = vec!["preemptive".into()];
    g.scheduler = vec!["virtualclock".into()];
    g.crossbar = vec!["multiplexed".into()];
    g.switch_allocator = vec!["single_pass".into()];
    g.switch_stage = vec!["single_cycle".into(), "registered".into(), "split".into()];
    let c = g.configs();
    // P mode: registered switch allocation has RTL (§6 *Registered switch
    // allocation in P mode*), split is refused naming the field; the split
    // point's full name would be 49 characters, so it takes the compact form
    assert!(c[0].1.is_ok() && c[1].1.is_ok(), "{:?} {:?}", c[0].1, c[1].1);
    assert_eq!(c[1].0.name, "mesh5_v2_d4_w32_mul_virtualclock_preemptive_reg");
    assert_eq!(c[2].0.name, "mesh5_v2_d4_w32_mul_vc_p_split");
    let e = c[2].1.as_ref().unwrap_err();
    assert!(e.contains("router.switch_stage") && e.contains("modes without preemption"), "{e}");
}

/// `split` is a value of the switch-stage axis (it has RTL, so the DSE can
/// synthesize it): a valid point with the single pass, named `_split`, and
/// a point refused naming the field with the iterative allocator, whose
/// rounds §6 *Split switch allocation* cannot split.
#[test]
fn switch_stage_axis_takes_split_with_the_single_pass_only() {
    let g = Grid {
        switch_allocator: vec!["single_pass".into(), "iterative".into()],
        switch_stage: vec!["split".into()],
        ..one_point()
    };
    let c = g.configs();
    let names: Vec<&str> = c.iter().map(|(p, _)| p.name.as_str()).collect();
    assert_eq!(names, ["mesh5_v2_d4_w32_mul_round_robin_none_split", "mesh5_v2_d4_w32_mul_round_robin_none_it3_split"]);
    use wormqos_config::SwitchStage;
    assert_eq!(c[0].1.as_ref().unwrap().scheduling().point.switch_stage(), SwitchStage::Split);
    let e = c[1].1.as_ref().unwrap_err();
    assert!(e.contains("router.switch_stage"), "{e}");
}

/// The registered stage's saturation measure feeds the sources each credit
/// one cycle late (see `saturation_throughput`): no flit is ever dropped
/// although the sources use a credit as soon as they see it
/// (`saturation_throughput` fails on a drop). So does the split stage's,
/// whose credit also leaves in the cycle its flit crosses (§6).
#[test]
fn saturation_throughput_of_the_registered_stage_drops_nothing() {
    for stage in ["single_cycle", "registered", "split"] {
        let g = Grid { vcs: vec![2, 4], switch_stage: vec![stage.into()], ..one_point() };
        for (p, cfg) in g.configs() {
            let t = saturation_throughput(&cfg.unwrap(), 4_000, 1).unwrap();
            assert!(t > 0.5 && t < 1.0, "{}: {t}", p.name);
        }
    }
}

#[test]
fn saturation_throughput_is_a_fraction_of_a_flit_per_port() {
    let t = saturation_throughput(&mesh5(), 4_000, 1).unwrap();
    // Uniform traffic on a 5x5 switch with input queueing saturates well
    // above 0.3 and below 1 flit/port/cycle.
    assert!(t > 0.3 && t < 1.0, "{t}");
}

/// The DSE's saturation measure (20,000 cycles, as `wormqos dse`'s default
/// `--sim-cycles`) of the 5-port multiplexed router per switch allocator,
/// for docs/benchmarks.md ("Switch allocation"): `cargo test --release -p
/// wormqos-synth --test sweep -- --ignored --nocapture`.
#[test]
#[ignore]
fn saturation_per_switch_allocator() {
    let g = Grid {
        vcs: vec![2, 4],
        depth: vec![4, 8],
        crossbar: vec!["multiplexed".into(), "full".into()],
        scheduler: vec!["round_robin".into(), "virtualclock".into()],
        switch_allocator: vec!["single_pass".into(), "iterative".into()],
        switch_iterations: vec![1, 2, 3, 4],
        switch_stage: vec!["single_cycle".into(), "registered".into()],
        ..one_point()
    };
    print_saturation(&g);
}

/// The DSE's saturation measure (20,000 cycles, seed 1) of every point of
/// `g`, one `name | value` line each, each a fraction of a flit.
fn print_saturation(g: &Grid) {
    for (p, cfg) in g.configs() {
        let t = saturation_throughput(&cfg.unwrap(), 20_000, 1).unwrap();
        assert!(t > 0.0 && t <= 1.0, "{}: {t}", p.name);
        println!("{} | {t:.3}", p.name);
    }
}

/// The DSE's saturation measure with the maximum-matching bound (§6,
/// *Maximum matching*, model only) beside the single pass, iterative k = 2
/// and k = 3 and the full crossbar (docs/benchmarks.md, issue 19's bound):
/// `cargo test --release -p wormqos-synth --test sweep -- --ignored
/// --nocapture saturation_maximum_matching_bound`.
#[test]
#[ignore]
fn saturation_maximum_matching_bound() {
    let g = Grid {
        vcs: vec![2, 4],
        depth: vec![4, 8],
        crossbar: vec!["multiplexed".into(), "full".into()],
        scheduler: vec!["round_robin".into(), "virtualclock".into()],
        switch_allocator: vec!["single_pass".into(), "iterative".into(), "maximum_matching".into()],
        switch_iterations: vec![2, 3],
        ..one_point()
    };
    print_saturation(&g);
}

/// Where the input ports' cycles go at saturation (DSE traffic), for the
/// 2-VC limit in docs/benchmarks.md: per input port and cycle, a flit
/// crossed; or flits were buffered but no VC holding them was ACTIVE (the
/// message at the front waits for RC/VA: a whole-message head-of-line wait);
/// or an ACTIVE VC had a flit and nothing crossed (lost in allocation or
/// no output room); or the buffers were empty. `cargo test --release -p
/// wormqos-synth --test sweep -- --ignored --nocapture`.
#[test]
#[ignore]
fn input_port_cycles_at_saturation() {
    use wormqos_sim::{Router, VcState};
    use wormqos_testbench::stimulus::Stimulus;
    for vcs in [2, 4] {
        for alloc in ["switch_allocator = \"single_pass\"", "switch_allocator = \"iterative\"\nswitch_iterations = 4"] {
            let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mesh5.toml")).unwrap();
            let text = text.replacen("[router]\n", &format!("[router]\n{alloc}\n"), 1).replace("vcs = 4", &format!("vcs = {vcs}"));
            let cfg = RouterConfig::from_toml_str(&text, "mesh5").unwrap();
            let (n, m) = (cfg.ports(), cfg.vcs());
            let mut r = Router::new(&cfg);
            let mut stim = Stimulus::new(&cfg, 1, saturation_traffic());
            let mut count = [0u64; 4];
            for t in 0..20_000 {
                let busy: Vec<(bool, bool)> = (0..n)
                    .map(|p| {
                        let flits = (0..m).any(|v| r.input_occupancy(p, v) > 0);
                        let active = (0..m).any(|v| r.input_occupancy(p, v) > 0 && matches!(r.vc_state(p, v), VcState::Active { .. }));
                        (flits, active)
                    })
                    .collect();
                let out = r.outputs().clone();
                r.step(stim.next_inputs(&out).unwrap());
                for (p, &(flits, active)) in busy.iter().enumerate() {
                    let moved = r.outputs().credits[p] != 0;
                    let k = if moved { 0 } else if active { 2 } else if flits { 1 } else { 3 };
                    count[k] += (t >= 2_000) as u64;
                }
            }
            let total: u64 = count.iter().sum();
            let f: Vec<String> = count.iter().map(|&c| format!("{:.3}", c as f64 / total as f64)).collect();
            println!("vcs {vcs} {}: crossed {} | front message waits RC/VA {} | ACTIVE, nothing crossed {} | empty {}", alloc.replace('\n', " "), f[0], f[1], f[2], f[3]);
        }
    }
}

/// The DSE's saturation measure (20,000 cycles) of the 5-port multiplexed
/// single-pass router with the registered and the split switch stage, for
/// docs/benchmarks.md (issue 19, split switch allocation): `cargo test
/// --release -p wormqos-synth --test sweep saturation_registered_vs_split
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn saturation_registered_vs_split() {
    let g = Grid {
        vcs: vec![2, 4],
        depth: vec![4, 8],
        scheduler: vec!["round_robin".into(), "virtualclock".into()],
        switch_allocator: vec!["single_pass".into()],
        switch_stage: vec!["registered".into(), "split".into()],
        ..one_point()
    };
    for (p, cfg) in g.configs() {
        let t = saturation_throughput(&cfg.unwrap(), 20_000, 1).unwrap();
        println!("{} | {t:.3}", p.name);
    }
}

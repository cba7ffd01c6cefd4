//! The iterative switch allocator of the multiplexed crossbar
//! (docs/microarchitecture.md §6, "Switch allocation"), against values the
//! spec and VirtualClock's definition give:
//! - with k = 1 and `fifo` / `round_robin`, round 1 *is* the single pass:
//!   every output of every cycle equals the single pass's;
//! - with `virtualclock`, point B serves the smallest stamp across input
//!   ports, so backlogged flows to one output get VirtualClock's shares
//!   (1/v_i)/Σ(1/v_j) across ports and within a port under contention;
//! - with k >= 2, a best-effort VC whose output no other port wants is
//!   served in every cycle its port is not matched in round 1.

use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs};

/// A router configuration from the `[router]` body `router` (and extra
/// tables after it), with `allocator` lines added to `[router]`.
fn config(router: &str, allocator: &str) -> Option<RouterConfig> {
    let text = format!("name = \"sa\"\n[router]\n{allocator}\n{router}");
    RouterConfig::from_toml_str(&text, "inline").ok()
}

const SINGLE: &str = "switch_allocator = \"single_pass\"";

fn iterative(k: u32) -> String {
    format!("switch_allocator = \"iterative\"\nswitch_iterations = {k}")
}

// ------------------------------------------------------------ k = 1 is the single pass

/// xorshift64.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// A random multiplexed-crossbar `[router]` body with `fifo` or
/// `round_robin` (unpartitioned or TR, any block size).
fn random_router(x: &mut u64) -> String {
    let ports = 2 + next(x) % 7;
    let vcs = 1 + next(x) % 8;
    let order = if next(x).is_multiple_of(2) { "fifo" } else { "round_robin" };
    let mut s = format!(
        "ports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = {}\noutput_buffer_depth = {}\n\
         crossbar = \"multiplexed\"\nscheduler = \"{order}\"\nblock_size = {}\n",
        4 + next(x) % 6,
        2 + next(x) % 4,
        [1, 1, 2, 4][(next(x) % 4) as usize],
    );
    if order == "fifo" && vcs >= 3 && next(x).is_multiple_of(3) {
        s += "mode = \"traditional\"\nvc_ratio = [50, 30, 20]\n";
    }
    s
}

/// Busy random link traffic (any VC, head and tail bits, data; random
/// credits), including protocol violations the router must tolerate.
fn random_inputs(cfg: &RouterConfig, inp: &mut RouterInputs, x: &mut u64, t: u64) {
    for p in 0..cfg.ports() {
        let r = next(x);
        inp.flits[p] = if !r.is_multiple_of(4) && (t / 300) % 4 != 3 {
            let vc = (r >> 8) as u8 % cfg.vcs() as u8;
            LinkFlit { lane: 0, valid: true, dummy: false, vc, head: r >> 16 & 3 == 0, tail: r >> 18 & 7 == 0, data: [r >> 20, r, 0, 0] }
        } else {
            LinkFlit::IDLE
        };
        inp.credits[p] = (next(x) >> 13) as u32 & ((1 << cfg.vcs()) - 1);
    }
}

/// Steps the two routers with the same random inputs; the first cycle
/// whose outputs differ, if any, and the flits moved through the crossbar.
fn first_difference(a: &RouterConfig, b: &RouterConfig, seed: u64, cycles: u64) -> (Option<u64>, u64) {
    let (mut ra, mut rb) = (Router::new(a), Router::new(b));
    let mut inp = RouterInputs::idle(a);
    let mut x = seed | 1;
    for t in 0..cycles {
        random_inputs(a, &mut inp, &mut x, t);
        ra.step(&inp);
        rb.step(&inp);
        if ra.outputs() != rb.outputs() {
            return (Some(t), ra.stats().crossbar_moves);
        }
    }
    assert_eq!(ra.stats(), rb.stats());
    (None, ra.stats().crossbar_moves)
}

#[test]
fn one_round_with_fifo_or_round_robin_grants_as_the_single_pass() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let (mut runs, mut k2_differs) = (0, 0);
    for case in 0..120 {
        let body = random_router(&mut x);
        let (Some(single), Some(k1), Some(k2)) = (config(&body, SINGLE), config(&body, &iterative(1)), config(&body, &iterative(2)))
        else {
            continue;
        };
        let (diff, moved) = first_difference(&single, &k1, case, 3000);
        assert!(diff.is_none(), "case {case}: iterative k = 1 differs from single_pass in cycle {diff:?}:\n{body}");
        assert!(moved > 500, "case {case}: only {moved} flits crossed:\n{body}");
        runs += 1;
        // The comparison can see a different allocator: k = 2 does differ.
        k2_differs += first_difference(&single, &k2, case, 3000).0.is_some() as u32;
    }
    assert!(runs >= 100, "only {runs} valid random configurations");
    assert!(k2_differs * 2 >= runs, "k = 2 differed from the single pass in only {k2_differs} of {runs} runs");
}

// ------------------------------------------------------------ bandwidth shares

/// A backlogged flow: input `port`, VC `vc`, to output `dest`, with Vtick
/// `vtick` in its headers (all ones = best effort), one endless message.
#[derive(Clone, Copy)]
struct Flow {
    port: usize,
    vc: usize,
    dest: u64,
    vtick: u64,
}

/// Flits of each flow that crossed the crossbar (the credits the router
/// returned on its input VC) per cycle over `cycles` cycles after a
/// warm-up. Sources respect credits (one flit per input link per cycle,
/// round robin over the port's flows with a credit); every output drains
/// every cycle. Ports in `blockers` first take every output VC of output
/// `blockers[i].1` with a message per VC whose tail they send in cycle
/// 100 + VC (real-time messages, Vtick 1), so that the flows' input
/// buffers are full when they start.
/// `exact`: the run must stay within §8.5's condition (no saturation).
fn served(cfg: &RouterConfig, flows: &[Flow], blockers: &[(usize, u64)], cycles: u64, exact: bool) -> Vec<f64> {
    let (n, m) = (cfg.ports(), cfg.vcs());
    let h = cfg.header();
    let mut r = Router::new(cfg);
    let mut inp = RouterInputs::idle(cfg);
    let mut credits = vec![cfg.input_buffer_depth(); n * m];
    let mut started = vec![false; flows.len()];
    let mut next_flow = vec![0usize; n];
    let mut got = vec![0u64; flows.len()];
    let warm = 3000;
    for t in 0..warm + cycles {
        let out = r.outputs().clone();
        for p in 0..n {
            for v in 0..m {
                let c = (out.credits[p] >> v & 1) as usize;
                credits[p * m + v] += c;
                if let Some(j) = flows.iter().position(|f| f.port == p && f.vc == v) {
                    got[j] += (c as u64) * (t >= warm) as u64;
                }
            }
            inp.credits[p] = if out.flits[p].valid { 1 << out.flits[p].vc } else { 0 };
            inp.flits[p] = LinkFlit::IDLE;
        }
        for &(p, dest) in blockers {
            let (t, m) = (t as usize, m);
            let (head, v) = if t < m { (true, t) } else if (100..100 + m).contains(&t) { (false, t - 100) } else { continue };
            // Real-time (Vtick 1), or a blocker's tail would wait behind the
            // real-time flows at point B for ever (§6: real time first).
            let mut data = [0u64; 4];
            h.dest.insert(&mut data, dest);
            h.vtick.insert(&mut data, 1);
            inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: v as u8, head, tail: !head, data };
        }
        for p in 0..n {
            if blockers.iter().any(|b| b.0 == p) || (!blockers.is_empty() && t < 10) {
                continue;
            }
            let k = flows.len();
            let Some(j) = (0..k).map(|i| (next_flow[p] + i) % k).find(|&j| flows[j].port == p && credits[p * m + flows[j].vc] > 0)
            else {
                continue;
            };
            next_flow[p] = j + 1;
            let f = flows[j];
            credits[p * m + f.vc] -= 1;
            let mut data = [0u64; 4];
            let head = !std::mem::replace(&mut started[j], true);
            if head {
                h.dest.insert(&mut data, f.dest);
                h.vtick.insert(&mut data, f.vtick);
            }
            inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: f.vc as u8, head, tail: false, data };
        }
        r.step(&inp);
    }
    assert_eq!(r.stats().flits_dropped(), 0);
    // §8.5: the VirtualClock shares hold exactly only while no value saturates.
    let saturations: u64 = (0..n).filter_map(|p| r.virtual_clock(p)).map(|s| s.saturations()).sum();
    assert!(saturations == 0 || !exact, "a VirtualClock value saturated");
    got.iter().map(|&g| g as f64 / cycles as f64).collect()
}

/// 5 ports, 4 VCs, VirtualClock at point A, 16-bit clocks.
const VC5: &str = "ports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 4\n\
                   crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n";

fn assert_near(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= 0.02 * want, "{what}: {got:.4}, expected {want:.4} ±2 %");
}

/// Three input ports, one real-time VC each, Vticks 2, 4, 8, all to output
/// 4, backlogged. Σ 1/v = 7/8 < 1, so every flow's virtual clock runs ahead
/// of real time and the output serves stamps k·v_i in increasing order:
/// flow i gets (1/v_i)/Σ(1/v_j) of the output's cycles, 4/7, 2/7, 1/7 (the
/// output is busy every cycle, backlogged). The single pass's point B is
/// round robin over the three always-requesting ports: 1/3 each.
#[test]
fn virtualclock_shares_across_input_ports() {
    let vt = [2u64, 4, 8];
    let flows: Vec<Flow> = (0..3).map(|i| Flow { port: i, vc: 0, dest: 4, vtick: vt[i] }).collect();
    let sum: f64 = vt.iter().map(|&v| 1.0 / v as f64).sum();
    for k in [1, 2, 3] {
        let got = served(&config(VC5, &iterative(k)).unwrap(), &flows, &[], 100_000, true);
        eprintln!("iterative k = {k}: {got:.4?}");
        for i in 0..3 {
            assert_near(got[i], 1.0 / vt[i] as f64 / sum, &format!("k = {k}, Vtick {}", vt[i]));
        }
    }
    let got = served(&config(VC5, SINGLE).unwrap(), &flows, &[], 100_000, false);
    eprintln!("single_pass: {got:.4?}");
    for (i, g) in got.iter().enumerate() {
        assert_near(*g, 1.0 / 3.0, &format!("single_pass, Vtick {}", vt[i]));
    }
}

/// Input 0: VCs 0, 1, 2 with Vticks 2, 4, 8; input 1: one VC with Vtick 8;
/// all to output 4, backlogged. Σ 1/v = 1: each flow gets exactly its rate
/// 1/v (VirtualClock with the output fully reserved), so within input 0 the
/// shares are 4:2:1 although input 1 takes 1/8 of the output. The single
/// pass's round-robin point B gives each input half the output instead.
#[test]
fn virtualclock_shares_within_an_input_port_under_contention() {
    let vt = [2u64, 4, 8, 8];
    let flows: Vec<Flow> = (0..4).map(|j| Flow { port: j / 3, vc: j % 3, dest: 4, vtick: vt[j] }).collect();
    for k in [2, 3] {
        let got = served(&config(VC5, &iterative(k)).unwrap(), &flows, &[], 100_000, true);
        let port0: f64 = got[..3].iter().sum();
        eprintln!("iterative k = {k}: {got:.4?}; within input 0: {:.4?}", got[..3].iter().map(|g| g / port0).collect::<Vec<_>>());
        for j in 0..4 {
            assert_near(got[j], 1.0 / vt[j] as f64, &format!("k = {k}, flow {j}"));
        }
        for j in 0..3 {
            assert_near(got[j] / port0, [4.0, 2.0, 1.0][j] / 7.0, &format!("k = {k}, within input 0, VC {j}"));
        }
    }
    let got = served(&config(VC5, SINGLE).unwrap(), &flows, &[], 100_000, false);
    let port0: f64 = got[..3].iter().sum();
    eprintln!("single_pass: {got:.4?}; within input 0: {:.4?}", got[..3].iter().map(|g| g / port0).collect::<Vec<_>>());
    assert_near(port0, 0.5, "single_pass, input 0");
    assert_near(got[3], 0.5, "single_pass, input 1");
}

/// Inputs 0, 1, 2: a real-time VC each (Vtick 3, Σ 1/v = 1) to output 0;
/// input 0 also has a best-effort VC to output 1, which nothing else
/// wants. Ports 3 and 4 hold every output VC of outputs 0 and 1 for the
/// first 100 cycles so that the input buffers start full. Input 0 wins
/// round 1 in 1/3 of the cycles (its real-time flow's rate); with k >= 2
/// its best-effort VC is served in every other cycle: 2/3. With one round
/// (single pass or k = 1) point A always offers the real-time VC, whose
/// output is contended, and best effort gets nothing.
#[test]
fn best_effort_next_to_a_contended_output() {
    let mut flows: Vec<Flow> = (0..3).map(|p| Flow { port: p, vc: 0, dest: 0, vtick: 3 }).collect();
    flows.push(Flow { port: 0, vc: 1, dest: 1, vtick: 0xffff });
    let blockers = [(3, 0), (4, 1)];
    for k in [2, 3, 4] {
        let got = served(&config(VC5, &iterative(k)).unwrap(), &flows, &blockers, 60_000, true);
        eprintln!("iterative k = {k}: {got:.4?}");
        for (j, g) in got[..3].iter().enumerate() {
            assert_near(*g, 1.0 / 3.0, &format!("k = {k}, real-time flow of input {j}"));
        }
        assert_near(got[3], 2.0 / 3.0, &format!("k = {k}, best effort"));
    }
    for alloc in [SINGLE.to_string(), iterative(1)] {
        let got = served(&config(VC5, &alloc).unwrap(), &flows, &blockers, 60_000, false);
        eprintln!("{alloc}: {got:.4?}");
        assert_eq!(got[3], 0.0, "{alloc}: best effort is served only when its port's candidate is best effort");
    }
}

// ------------------------------------------------------------ maximum matching (model-only bound)

/// The maximum-matching bound (§6, *Maximum matching*), `round_robin`:
/// input 0 has VCs to outputs 0 and 1, input 1 one VC to output 0, input 2
/// VCs to outputs 1 and 2, all backlogged, outputs draining every cycle.
/// The one matching of size 3 (by hand: input 1 can take only output 0, so
/// input 0 takes output 1, so input 2 takes output 2) is the maximum in
/// every cycle, so each of those three flows crosses at its link's rate,
/// 1 flit per cycle, and input 0's VC to output 0 and input 2's VC to
/// output 1 get nothing (their sources stop once their credits run out).
/// A maximal matching (the iterative allocator) can stop at 2, e.g. 0->0,
/// 2->1, leaving input 1 with no free output.
#[test]
fn maximum_matching_carries_the_maximum_matching() {
    let rr = VC5.replace("virtualclock", "round_robin");
    let be = 0xffff;
    let flows = [
        Flow { port: 0, vc: 0, dest: 0, vtick: be },
        Flow { port: 0, vc: 1, dest: 1, vtick: be },
        Flow { port: 1, vc: 0, dest: 0, vtick: be },
        Flow { port: 2, vc: 0, dest: 1, vtick: be },
        Flow { port: 2, vc: 1, dest: 2, vtick: be },
    ];
    let got = served(&config(&rr, "switch_allocator = \"maximum_matching\"").unwrap(), &flows, &[], 20_000, false);
    eprintln!("maximum_matching: {got:.4?}");
    for (j, want) in [0.0, 1.0, 1.0, 0.0, 1.0].into_iter().enumerate() {
        assert!((got[j] - want).abs() <= 0.02, "flow {j}: {:.4}, expected {want} ±0.02", got[j]);
    }
    let it = served(&config(&rr, &iterative(4)).unwrap(), &flows, &[], 20_000, false);
    eprintln!("iterative k = 4: {it:.4?}, total {:.4}", it.iter().sum::<f64>());
}

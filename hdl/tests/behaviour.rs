//! Cycle-level checks of the generated RTL under Icarus Verilog against
//! consequences of docs/microarchitecture.md §7 worked out by hand (not
//! against the generator's own output): zero-load latency, routing, credit
//! return timing and the credit limit.

mod common;

use common::*;
use std::fmt::Write as _;
use std::process::Command;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;

/// One flit driven on an input link in a given cycle.
struct Drive {
    cycle: u32,
    port: u32,
    vc: u32,
    head: bool,
    tail: bool,
    data: u64,
}

/// Per cycle: (out_valid, out_vc, head, tail, data) per port, and in_credit bits.
#[derive(Debug, Clone, PartialEq)]
struct Obs {
    out: Vec<(u32, u32, u32, u32, u128)>,
    in_credit: Vec<u32>,
}

/// Simulates `cycles` cycles after reset; `credits` lists (cycle, bit) of out_credit_i pulses.
fn simulate(cfg: &RouterConfig, mutant: Option<Mutant>, drives: &[Drive], credits: &[(u32, u32)], cycles: u32) -> Vec<Obs> {
    let (n, m, w, vw) = (cfg.ports() as u32, cfg.vcs() as u32, cfg.flit_width(), cfg.vc_width());
    let t = format!("sim-{}", cfg.name());
    let (dir, top, mut files) = generate_into(cfg, mutant, &t);
    let mut tb = String::new();
    let _ = writeln!(tb, "`timescale 1ns/1ps\nmodule tb;");
    let _ = writeln!(tb, "  reg clk = 0; reg rst = 1;");
    let _ = writeln!(tb, "  reg [{}:0] iv, ih, it; reg [{}:0] ivc; reg [{}:0] id; reg [{}:0] oc;", n - 1, n * vw - 1, n * w - 1, n * m - 1);
    let _ = writeln!(tb, "  wire [{}:0] ic; wire [{}:0] ov, oh, ot; wire [{}:0] ovc; wire [{}:0] od;", n * m - 1, n - 1, n * vw - 1, n * w - 1);
    let _ = writeln!(tb, "  integer p;");
    let _ = writeln!(
        tb,
        "  {top} dut(.clk_i(clk), .rst_i(rst), .in_valid_i(iv), .in_vc_i(ivc), .in_head_i(ih), .in_tail_i(it), .in_data_i(id), \
         .in_credit_o(ic), .out_valid_o(ov), .out_vc_o(ovc), .out_head_o(oh), .out_tail_o(ot), .out_data_o(od), .out_credit_i(oc));"
    );
    let _ = writeln!(tb, "  always #5 clk = ~clk;");
    let _ = writeln!(tb, "  initial begin");
    let _ = writeln!(tb, "    iv = 0; ih = 0; it = 0; ivc = 0; id = 0; oc = 0;");
    // Garbage on the inputs during reset must be ignored.
    let _ = writeln!(tb, "    iv = {{{n}{{1'b1}}}}; ih = {{{n}{{1'b1}}}}; oc = {{{}{{1'b1}}}};", n * m);
    let _ = writeln!(tb, "    @(posedge clk); @(posedge clk); #1 rst = 0;");
    for c in 0..cycles {
        let _ = writeln!(tb, "    iv = 0; ih = 0; it = 0; ivc = 0; id = 0; oc = 0;");
        for d in drives.iter().filter(|d| d.cycle == c) {
            let _ = writeln!(tb, "    iv[{}] = 1'b1; ih[{}] = 1'b{}; it[{}] = 1'b{};", d.port, d.port, d.head as u8, d.port, d.tail as u8);
            let _ = writeln!(tb, "    ivc[{} +: {vw}] = {vw}'d{}; id[{} +: {w}] = {w}'d{};", d.port * vw, d.vc, d.port * w, d.data);
        }
        for (_, bit) in credits.iter().filter(|x| x.0 == c) {
            let _ = writeln!(tb, "    oc[{bit}] = 1'b1;");
        }
        let _ = writeln!(tb, "    #1;");
        let _ = writeln!(tb, "    for (p = 0; p < {n}; p = p + 1) $write(\"%0d %0d %0d %0d %0h;\", ov[p], ovc[p*{vw} +: {vw}], oh[p], ot[p], od[p*{w} +: {w}]);");
        let _ = writeln!(tb, "    for (p = 0; p < {}; p = p + 1) $write(\"%0d\", ic[p]);", n * m);
        let _ = writeln!(tb, "    $write(\"\\n\");");
        let _ = writeln!(tb, "    @(posedge clk); #1;");
    }
    let _ = writeln!(tb, "    $finish;\n  end\nendmodule");
    std::fs::write(dir.0.join("tb.v"), tb).unwrap();
    files.push("tb.v".into());
    // A planted bug may trip the RTL's checks ($stop), which would end the
    // simulation early: its behaviour is observed with the checks compiled
    // out; the clean RTL runs with them.
    let checks_off: &[&str] = if mutant.is_some() { &["-DSYNTHESIS"] } else { &[] };
    let out =
        Command::new("iverilog").current_dir(&dir.0).args(["-g2005", "-o", "sim.vvp"]).args(checks_off).args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("vvp").current_dir(&dir.0).args(["-n", "sim.vvp"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("ASSERTION FAILED"), "an RTL check failed:\n{text}");
    text.lines()
        .filter(|l| !l.is_empty() && !l.contains("$finish"))
        .map(|l| {
            let mut parts: Vec<&str> = l.split(';').collect();
            let credits = parts.pop().unwrap();
            let out = parts
                .iter()
                .map(|s| {
                    let f: Vec<&str> = s.split(' ').collect();
                    (f[0].parse().unwrap(), f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap(), u128::from_str_radix(f[4], 16).unwrap())
                })
                .collect();
            Obs { out, in_credit: credits.chars().map(|c| c.to_digit(10).unwrap()).collect() }
        })
        .collect()
}

/// Expected observation of an idle router.
fn idle(cfg: &RouterConfig) -> Obs {
    Obs { out: vec![(0, 0, 0, 0, 0); cfg.ports()], in_credit: vec![0; cfg.ports() * cfg.vcs()] }
}

/// A 3-flit message from (port, vc) to destination `dest` at cycles 0, 1, 2.
fn message(cfg: &RouterConfig, port: u32, vc: u32, dest: u64, len: u32) -> Vec<Drive> {
    (0..len)
        .map(|k| Drive {
            cycle: k,
            port,
            vc,
            head: k == 0,
            tail: k == len - 1,
            data: if k == 0 { dest | (0x5 << cfg.header().vtick.lsb) } else { 0x100 + k as u64 },
        })
        .collect()
}

fn check_zero_load(cfg: &RouterConfig, port: u32, vc: u32, dest: u64) {
    let len = 3;
    let drives = message(cfg, port, vc, dest, len);
    let obs = simulate(cfg, None, &drives, &[], 12);
    let o = cfg.routes()[dest as usize] as usize;
    let m = cfg.vcs();
    for (t, got) in obs.iter().enumerate() {
        let mut exp = idle(cfg);
        // §7: header on the output in cycle 5, flit k in cycle 5+k, on output VC 0
        // (the lowest free one).
        if (5..5 + len as usize).contains(&t) {
            let k = (t - 5) as u32;
            exp.out[o] = (1, 0, (k == 0) as u32, (k == len - 1) as u32, drives[k as usize].data as u128);
        }
        // A flit crosses the crossbar in cycle 3+k; its credit is returned in 4+k.
        if (4..4 + len as usize).contains(&t) {
            exp.in_credit[port as usize * m + vc as usize] = 1;
        }
        assert_eq!(got, &exp, "{}: cycle {t}", cfg.name());
    }
}

#[test]
fn zero_load_latency_mesh5_multiplexed_round_robin() {
    check_zero_load(&example("mesh5"), 1, 3, 4);
}

#[test]
fn zero_load_latency_wide72_full_fifo_permuted_routes() {
    // routes = [2, 0, 3, 1]: destination 3 leaves on port 1.
    check_zero_load(&example("wide72"), 0, 2, 3);
}

#[test]
fn zero_load_latency_tiny2_one_vc() {
    check_zero_load(&example("tiny2"), 1, 0, 0);
}

/// DD credits: without returned credits exactly DD flits leave; one returned
/// credit in cycle c releases one more flit onto the link in cycle c+2.
fn credit_limit(mutant: Option<Mutant>) -> Vec<u32> {
    let cfg = example("mesh5"); // DI = DO = DD = 8
    let len = 12;
    let drives = message(&cfg, 2, 1, 0, len);
    let o = cfg.routes()[0] as usize;
    let ret_cycle = 25;
    let obs = simulate(&cfg, mutant, &drives, &[(ret_cycle, (o * cfg.vcs()) as u32)], 32);
    obs.iter().enumerate().filter(|(_, x)| x.out[o].0 == 1).map(|(t, _)| t as u32).collect()
}

#[test]
fn credits_limit_the_output_and_a_returned_credit_is_usable_next_cycle() {
    let cycles = credit_limit(None);
    let mut expected: Vec<u32> = (5..13).collect(); // DD = 8 flits in cycles 5..=12
    expected.push(27); // credit in cycle 25, counted at its end, picked in 26, on the link in 27
    assert_eq!(cycles, expected);
}

#[test]
fn credit_off_by_one_mutant_is_visible() {
    let cycles = credit_limit(Some(Mutant::CreditOffByOne));
    assert_eq!(&cycles[..9], &(5..14).collect::<Vec<u32>>()[..]);
}

#[test]
fn wrong_route_mutant_is_visible() {
    let cfg = example("mesh5");
    let drives = message(&cfg, 1, 0, 0, 1);
    let obs = simulate(&cfg, Some(Mutant::WrongRoute), &drives, &[], 8);
    assert_eq!(obs[5].out[1].0, 1, "destination 0 goes to port 1 in the mutant");
    assert_eq!(obs[5].out[0].0, 0);
}

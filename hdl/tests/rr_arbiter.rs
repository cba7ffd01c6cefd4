//! The standalone `<name>_rr_arbiter` under Icarus Verilog against the
//! round-robin rule of docs/microarchitecture.md §5, written here: the
//! grant is the first requester in the order ptr, ptr+1, ..., N-1, 0, ...,
//! ptr-1, and a grant that takes effect moves ptr to grant + 1 (mod N).
//! Random requests for N on both sides of the prefix-form limit (16): the
//! prefix form (N <= 16) and the carry-chain form (N > 16) must both follow
//! the rule, cycle by cycle; the rr-grant-not-onehot mutant must diverge.

mod common;

use common::*;
use std::fmt::Write as _;
use std::process::Command;
use wormqos_hdl::Mutant;

/// §5's round robin: the grant of `req` (bit i = requester i) from `ptr`.
fn reference_grant(n: usize, ptr: usize, req: u64) -> Option<usize> {
    (0..n).map(|off| (ptr + off) % n).find(|&k| req >> k & 1 == 1)
}

/// Runs `cycles` random cycles on an N-requester arbiter; returns the
/// expected and the RTL's grants (one-hot masks, 0 for none).
fn run(n: usize, mutant: Option<Mutant>, seed: u64, cycles: usize) -> (Vec<u64>, Vec<u64>) {
    let mut rng = Rng(seed);
    let mut ptr = 0usize;
    let mut tb_body = String::new();
    let mut expected = vec![];
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for _ in 0..cycles {
        // sparse and dense request vectors, and now and then none
        let req = match rng.next() % 4 {
            0 => rng.next() & rng.next() & full,
            1 => rng.next() & full,
            2 => 1u64 << (rng.next() % n as u64),
            _ => (rng.next() | rng.next()) & full,
        };
        let req = if rng.next() % 10 == 0 { 0 } else { req };
        let g = reference_grant(n, ptr, req);
        // a grant takes effect in most cycles (callers take only with a grant)
        let take = g.is_some() && rng.next() % 4 != 0;
        expected.push(g.map_or(0, |k| 1u64 << k));
        if take {
            ptr = (g.unwrap_or(0) + 1) % n;
        }
        let _ = writeln!(tb_body, "    req = {n}'d{req}; take = 1'b{}; #1 $display(\"%0d\", gnt); @(posedge clk); #1;", take as u8);
    }
    let md = wormqos_hdl::arbiters::rr_arbiter("t", n as u32, mutant).unwrap();
    let f = wormqos_hdl::standalone_file(&md);
    let dir = TempDir::new(&format!("rr_{n}_{seed}"));
    std::fs::write(dir.0.join(&f.file_name), &f.text).unwrap();
    let tb = format!(
        "module tb;\n  reg clk = 0; reg rst = 1; reg [{n1}:0] req; reg take;\n  wire [{n1}:0] gnt;\n  \
         t_rr_arbiter dut(.clk_i(clk), .rst_i(rst), .req_i(req), .take_i(take), .gnt_o(gnt));\n  \
         always #5 clk = ~clk;\n  initial begin\n    req = 0; take = 0;\n    @(posedge clk); #1 rst = 0;\n{tb_body}    $finish;\n  end\nendmodule\n",
        n1 = n - 1
    );
    std::fs::write(dir.0.join("tb.v"), tb).unwrap();
    let out = Command::new("iverilog").current_dir(&dir.0).args(["-g2005", "-o", "sim.vvp", &f.file_name, "tb.v"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("vvp").current_dir(&dir.0).args(["-n", "sim.vvp"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let got: Vec<u64> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    (expected, got)
}

#[test]
fn round_robin_grants_follow_the_rule_in_both_forms() {
    // 1..=16: prefix form; 17, 20, 40: carry-chain form
    for n in [1usize, 2, 3, 5, 8, 10, 16, 17, 20, 40] {
        let (exp, got) = run(n, None, 0x9E37_79B9 + n as u64, 600);
        assert_eq!(got.len(), exp.len(), "N = {n}: the testbench printed {} of {} grants", got.len(), exp.len());
        if let Some(c) = (0..exp.len()).find(|&c| exp[c] != got[c]) {
            panic!("N = {n}, cycle {c}: expected grant {:#x}, the RTL granted {:#x}", exp[c], got[c]);
        }
    }
}

#[test]
fn the_not_onehot_mutant_diverges() {
    for n in [5usize, 20] {
        let (exp, got) = run(n, Some(Mutant::RrGrantNotOnehot), 7 + n as u64, 600);
        assert_ne!(exp, got, "N = {n}: rr-grant-not-onehot matched the rule");
    }
}

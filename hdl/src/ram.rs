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

use crate::verilog::{clog2, Expr, LVal, Module, Result, Stmt};

/// `<prefix>_ram_1r1w` with parameters `WIDTH` = `width`, `DEPTH` = `depth`
/// (AW = max(1, ceil(log2 DEPTH))). One module serves every instance: the
/// parameters are set per instance.
pub fn ram_1r1w(prefix: &str, width: u32, depth: u32) -> Result<Module> {
    ram_with(&format!("{prefix}_ram_1r1w"), width, depth, false)
}

/// `<prefix>_ram_1r1w_clr`: [`ram_1r1w`] whose read register is cleared
/// synchronously by `rclr_i` (over `re_i`), which the block RAMs' output
/// reset does (ECP5 DP16KD `RSTB` with `RESETMODE = "SYNC"`; Yosys maps
/// the clear there): a buffer that clears it in every cycle without a read
/// shows zeros then without a gate behind the RAM (the split pipeline's
/// output buffer, docs/microarchitecture.md §6 *Split switch allocation*,
/// "Output buffer write, registered").
pub fn ram_1r1w_clr(prefix: &str, width: u32, depth: u32) -> Result<Module> {
    ram_with(&format!("{prefix}_ram_1r1w_clr"), width, depth, true)
}

fn ram_with(name: &str, width: u32, depth: u32, clear: bool) -> Result<Module> {
    let aw = clog2(depth as u64);
    let mut m = Module::new(name);
    m.doc("Simple dual-port RAM: DEPTH words of WIDTH bits, no reset.");
    m.doc("Write: at the rising edge with we_i, mem[waddr_i] := wdata_i.");
    if clear {
        m.doc("Read: at the rising edge with rclr_i, rdata_o := 0; else with re_i,");
        m.doc("rdata_o := mem[raddr_i] (held without either).");
    } else {
        m.doc("Read: at the rising edge with re_i, rdata_o := mem[raddr_i] (held without re_i).");
    }
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
    let rclr = if clear { Some(m.input("rclr_i", 1)) } else { None };
    let rdata = m.output_sym("rdata_o", width, "WIDTH");
    // Yosys: the users exclude a same-address read and write (no bypass).
    // With the clear it would pick LUT RAM and build the read register and
    // its clear in logic (docs/benchmarks.md): block RAM, whose output
    // reset is the clear.
    m.raw_line(if clear { "(* no_rw_check, ram_style = \"block\" *)" } else { "(* no_rw_check *)" });
    let mem = m.memory("mem_q", width, Some("WIDTH"), depth, Some("DEPTH"));
    let rdata_q = m.comb_reg_sym("rdata_q", width, "WIDTH");
    m.clocked_no_reset(vec![Stmt::when(&we, vec![Stmt::set(LVal::word(&mem, &waddr), &wdata)])]);
    let read = Stmt::when(&re, vec![Stmt::set(&rdata_q, &mem.word(&raddr))]);
    let read = match &rclr {
        // the clear over the enable: the RAM's output reset is not gated by it
        Some(c) => Stmt::when_else(c, vec![Stmt::set(&rdata_q, &Expr::zero_sym("WIDTH", width))], vec![read]),
        None => read,
    };
    m.clocked_no_reset(vec![read]);
    m.assign(&rdata, &rdata_q);
    m.finish()
}

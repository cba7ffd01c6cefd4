//! Parameterized building blocks (in the spirit of PULP common_cells): a FIFO,
//! a round-robin arbiter and a FIFO-age (age-matrix) arbiter.
//!
//! Each builder takes the parameter values of one instantiation so all widths
//! are checked concretely; the rendered Verilog is the same for every set of
//! values (checked by the generator) and uses the symbolic parameter names.

use crate::verilog::{clog2, Expr, LVal, Module, Result, Stmt};

/// `<prefix>_fifo`: `DEPTH` entries of `WIDTH` bits. The storage
/// `mem_q` has no reset (LUTRAM/BRAM friendly); pointers and count are reset.
/// A push when full or a pop when empty is ignored. `full_o` and `empty_o`
/// come straight from flip-flops: an output VC buffer's room starts stage
/// 4's critical path and an input VC buffer's pop ends it
/// (docs/benchmarks.md), so no count comparator sits at either end.
pub fn fifo(prefix: &str, width: u32, depth: u32) -> Result<Module> {
    let aw = clog2(depth as u64);
    let cw = clog2(depth as u64 + 1);
    let mut m = Module::new(format!("{prefix}_fifo"));
    m.doc("Synchronous FIFO: DEPTH entries of WIDTH bits, first-word fall-through.");
    m.doc("rdata_o is the oldest entry (meaningless when empty_o). A push when full or");
    m.doc("a pop when empty is ignored; a push and a pop in the same cycle both happen.");
    m.doc("AW = max(1, ceil(log2 DEPTH)), CW = ceil(log2(DEPTH+1)).");
    m.param("WIDTH", width as u64)?;
    m.param("DEPTH", depth as u64)?;
    m.param("AW", aw as u64)?;
    m.param("CW", cw as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    let push = m.input("push_i", 1)?;
    let wdata = m.input_sym("wdata_i", width, "WIDTH")?;
    let pop = m.input("pop_i", 1)?;
    let rdata = m.output_sym("rdata_o", width, "WIDTH")?;
    let empty = m.output("empty_o", 1)?;
    let full = m.output("full_o", 1)?;

    m.localparam("LAST32", 32, Some("32"), "DEPTH - 1")?;
    m.localparam("ONE32", 32, Some("32"), "1")?;
    let ptr_last = Expr::raw("LAST32[AW-1:0]", aw);
    let ptr_one = Expr::raw("ONE32[AW-1:0]", aw);
    let cnt_one = Expr::raw("ONE32[CW-1:0]", cw);

    let mem = m.memory("mem_q", width, Some("WIDTH"), depth, Some("DEPTH"))?;
    let (wr_q, wr_d) = m.register_sym("wr_ptr", aw, Some("AW"), &Expr::zero_sym("AW", aw))?;
    let (rd_q, rd_d) = m.register_sym("rd_ptr", aw, Some("AW"), &Expr::zero_sym("AW", aw))?;
    let (cnt_q, cnt_d) = m.register_sym("count", cw, Some("CW"), &Expr::zero_sym("CW", cw))?;
    // The next flags take push and pop in the last gate (the count compares
    // come from flip-flops): full' = !pop & (full | push & count == DEPTH-1),
    // empty' = !push & (empty | pop & count == 1).
    let (full_q, full_d) = m.register_wire_d("full", &Expr::one_bit(false))?;
    let (empty_q, empty_d) = m.register_wire_d("empty", &Expr::one_bit(true))?;
    let do_push = m.wire_of("do_push", &push.e().and(&full_q.e().not())?)?;
    let do_pop = m.wire_of("do_pop", &pop.e().and(&empty_q.e().not())?)?;
    let cnt_last = Expr::raw("LAST32[CW-1:0]", cw);
    let almost_full = m.wire_of("almost_full", &cnt_q.e().eq(&cnt_last)?)?;
    let almost_empty = m.wire_of("almost_empty", &cnt_q.e().eq(&cnt_one)?)?;
    m.assign(&full_d.lv(), &do_pop.e().not().and(&full_q.e().or(&do_push.e().and(&almost_full.e())?)?)?)?;
    m.assign(&empty_d.lv(), &do_push.e().not().and(&empty_q.e().or(&do_pop.e().and(&almost_empty.e())?)?)?)?;

    m.clocked_no_reset(vec![Stmt::if_(
        &do_push.e(),
        vec![Stmt::assign(&LVal::raw(format!("mem_q[{}]", wr_q.name), "mem_q", width), &wdata.e())?],
        vec![],
    )?])?;
    let _ = mem;
    let next = |p: &Expr| -> Result<Expr> {
        Expr::mux(&p.eq(&ptr_last)?, &Expr::zero_sym("AW", aw), &p.add(&ptr_one)?)
    };
    m.comb(vec![
        Stmt::assign(&wr_d.lv(), &wr_q.e())?,
        Stmt::assign(&rd_d.lv(), &rd_q.e())?,
        Stmt::assign(&cnt_d.lv(), &cnt_q.e())?,
        Stmt::if_(&do_push.e(), vec![Stmt::assign(&wr_d.lv(), &next(&wr_q.e())?)?], vec![])?,
        Stmt::if_(&do_pop.e(), vec![Stmt::assign(&rd_d.lv(), &next(&rd_q.e())?)?], vec![])?,
        Stmt::if_(
            &do_push.e().and(&do_pop.e().not())?,
            vec![Stmt::assign(&cnt_d.lv(), &cnt_q.e().add(&cnt_one)?)?],
            vec![],
        )?,
        Stmt::if_(
            &do_pop.e().and(&do_push.e().not())?,
            vec![Stmt::assign(&cnt_d.lv(), &cnt_q.e().sub(&cnt_one)?)?],
            vec![],
        )?,
    ])?;
    m.assign(&rdata.lv(), &Expr::raw(format!("mem_q[{}]", rd_q.name), width))?;
    m.assign(&empty.lv(), &empty_q.e())?;
    m.assign(&full.lv(), &full_q.e())?;
    Ok(m)
}

/// `<prefix>_rr_arbiter`: round-robin arbiter over N requesters
/// (docs/microarchitecture.md §5). The pointer is kept as a mask of the
/// indices `>= ptr`; the grant is the lowest requesting index in the mask, or
/// the lowest requesting index overall. `advance_i` (the grant takes effect)
/// sets the pointer to grant + 1 mod N.
pub fn rr_arbiter(prefix: &str, n: u32) -> Result<Module> {
    let mut m = Module::new(format!("{prefix}_rr_arbiter"));
    m.doc("Round-robin arbiter: gnt_o is one-hot (or 0 without requests): the first");
    m.doc("requester in the order ptr, ptr+1, ..., N-1, 0, ..., ptr-1. When advance_i,");
    m.doc("ptr becomes (grant + 1) mod N. ptr is stored as mask_q = indices >= ptr.");
    m.param("N", n as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    let req = m.input_sym("req_i", n, "N")?;
    let adv = m.input("advance_i", 1)?;
    let gnt = m.output_sym("gnt_o", n, "N")?;
    let (mask_q, mask_d) = m.register_sym("mask", n, Some("N"), &Expr::ones_sym("N", n))?;
    let masked = m.comb_reg_sym("masked", n, "N")?;
    let sel = m.comb_reg_sym("sel", n, "N")?;
    let g = m.comb_reg_sym("gnt", n, "N")?;
    let neg = |e: &Expr| Expr::raw(format!("(-{})", e.text()), e.width());
    let shl1 = Expr::raw(format!("({} << 1)", g.name), n);
    m.comb(vec![
        Stmt::assign(&masked.lv(), &req.e().and(&mask_q.e())?)?,
        Stmt::assign(&sel.lv(), &Expr::mux(&masked.e().red_or(), &masked.e(), &req.e())?)?,
        Stmt::Comment("lowest set bit".into()),
        Stmt::assign(&g.lv(), &sel.e().and(&neg(&sel.e()))?)?,
    ])?;
    // A separate block: advance_i usually depends on gnt_o.
    m.comb(vec![
        Stmt::assign(&mask_d.lv(), &mask_q.e())?,
        Stmt::Comment("indices above the grant: -(gnt << 1)".into()),
        Stmt::if_(&adv.e(), vec![Stmt::assign(&mask_d.lv(), &neg(&shl1))?], vec![])?,
    ])?;
    m.assign(&gnt.lv(), &g.e())?;
    Ok(m)
}

/// `<prefix>_age_arbiter`: FIFO (age) arbiter over N slots
/// (docs/microarchitecture.md §5). `older_q[i*N+j]` = slot i is older than or
/// equal to slot j (the diagonal is always 1). Entering slots become younger
/// than every other slot; among themselves the lower index is older.
pub fn age_arbiter(prefix: &str, n: u32) -> Result<Module> {
    let mut m = Module::new(format!("{prefix}_age_arbiter"));
    m.doc("FIFO (age-matrix) arbiter: gnt_o is the oldest eligible slot (one-hot or 0).");
    m.doc("Slots with enter_i set become the youngest (lower index older among them).");
    m.doc("older_q[i*N+j]: slot i is older than slot j, or i == j. Reset: lower index older.");
    m.param("N", n as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    let elig = m.input_sym("elig_i", n, "N")?;
    let enter = m.input_sym("enter_i", n, "N")?;
    let gnt = m.output_sym("gnt_o", n, "N")?;
    let nn = n * n;
    let init = m.wire_sym("older_init", nn, "N*N")?;
    let (older_q, older_d) = m.register_sym("older", nn, Some("N*N"), &init.e())?;
    let g = m.comb_reg_sym("gnt", n, "N")?;
    m.integer("i")?;
    let row = |s: &str| Expr::raw(format!("{s}[i*N +: N]"), n);
    let row_lv = |s: &str| LVal::raw(format!("{s}[i*N +: N]"), s, n);
    let for_i = |body: Vec<Stmt>| Stmt::For { var: "i".into(), bound: "N".into(), body };
    // Reset order: row gi has the bits j >= gi (lower index older).
    m.generate_for(
        "gi",
        "N",
        "g_init",
        vec![(LVal::raw("older_init[gi*N +: N]", "older_init", n), Expr::raw("({N{1'b1}} << gi)", n))],
    )?;
    m.comb(vec![
        Stmt::assign(&older_d.lv(), &older_q.e())?,
        for_i(vec![Stmt::if_(
            &Expr::raw("enter_i[i]", 1),
            vec![Stmt::assign(&row_lv("older_d"), &enter.e().and(&row("older_init"))?)?],
            vec![Stmt::assign(&row_lv("older_d"), &row("older_q").or(&enter.e())?)?],
        )?]),
    ])?;
    m.comb(vec![
        Stmt::assign(&g.lv(), &Expr::zero_sym("N", n))?,
        for_i(vec![
            Stmt::assign(
                &LVal::raw("gnt[i]", "gnt", 1),
                &Expr::raw("elig_i[i]", 1).and(&row("older_q").or(&elig.e().not())?.red_and())?,
            )?,
        ]),
    ])?;
    m.assign(&gnt.lv(), &g.e())?;
    Ok(m)
}

//! Arbiters (in the spirit of PULP common_cells): round robin and FIFO age.
//! The Fine-Grained VirtualClock scheduler is in `vclock`. Each builder takes
//! the parameter values of one instantiation so all widths are checked
//! concretely; the rendered Verilog uses the symbolic parameter names.

use crate::bits::{at_most_one_set, subset_of};
use crate::mutant::{Faults, Mutant};
use crate::verilog::{Expr, LVal, Module, Result, Sig, Stmt};

/// What one kind of arbiter needs beyond the shared ports.
pub(crate) enum ArbiterSide {
    /// Round robin: nothing.
    None,
    /// Age order: the slots that become the youngest this cycle.
    Age { enter: Expr },
    /// Fine-Grained VirtualClock (§8): which slots hold a flit, and the
    /// Vtick of each slot's message.
    VirtualClock { present: Expr, vtick: Expr },
}

/// The checks every arbiter carries (§12): `gnt` one-hot or zero, and only
/// to slots that `req` requests (both `N` bits wide, symbolic).
pub(crate) fn assert_grant(m: &mut Module, gnt: &Sig, req: &Sig, n: u32) -> Result<()> {
    let (ones, zero) = (Expr::ones_sym("N", n), Expr::zero_sym("N", n));
    m.assert_always(&at_most_one_set(&gnt.e(), &ones, &zero)?, "gnt_o is one-hot or zero")?;
    m.assert_always(&subset_of(&gnt.e(), &req.e(), &zero)?, "gnt_o grants only requesters")
}

/// The connections of an arbiter instance. Every arbiter has the same
/// shape (docs/microarchitecture.md §5): `req_i` (eligible slots) in,
/// `gnt_o` (one-hot or zero) out, `take_i` (the grant takes effect: the
/// arbiter updates its state), and the kind's side inputs.
pub(crate) fn arbiter_conns(req: Expr, take: Expr, gnt: Expr, side: ArbiterSide) -> Vec<(&'static str, Expr)> {
    let mut c = vec![("clk_i", Expr::raw("clk_i", 1)), ("rst_i", Expr::raw("rst_i", 1)), ("req_i", req), ("take_i", take)];
    match side {
        ArbiterSide::None => {}
        ArbiterSide::Age { enter } => c.push(("enter_i", enter)),
        ArbiterSide::VirtualClock { present, vtick } => {
            c.push(("present_i", present));
            c.push(("vtick_i", vtick));
        }
    }
    c.push(("gnt_o", gnt));
    c
}


/// `<prefix>_rr_arbiter`: round-robin arbiter over N requesters
/// (docs/microarchitecture.md §5). The pointer is kept as a mask of the
/// indices `>= ptr`; the grant is the lowest set bit of `{req, req & mask}`
/// (2N bits, one carry chain): the lowest requesting index in the mask, or
/// else the lowest requesting index overall. `take_i` (the grant takes
/// effect) sets the pointer to grant + 1 mod N.
///
/// One carry chain over the doubled vector instead of a mux between two
/// lowest-bit searches: for the VC allocator's N*M requesters Yosys mapped
/// the mux form to 74 LUTs + 152 MUXF7/8 at N = 20, this form to 60 + 7
/// (docs/benchmarks.md).
///
/// `mutant` plants [`Mutant::RrGrantNotOnehot`] (others are ignored).
pub fn rr_arbiter(prefix: &str, n: u32, mutant: Option<Mutant>) -> Result<Module> {
    rr_arbiter_with(prefix, n, &Faults::of(mutant))
}

/// [`rr_arbiter`] with the router's fault switches (only `rr_grant_not_onehot` acts here).
pub(crate) fn rr_arbiter_with(prefix: &str, n: u32, faults: &Faults) -> Result<Module> {
    let mut m = Module::new(format!("{prefix}_rr_arbiter"));
    m.doc("Round-robin arbiter: gnt_o is one-hot (or 0 without requests): the first");
    m.doc("requester in the order ptr, ptr+1, ..., N-1, 0, ..., ptr-1. When take_i,");
    m.doc("ptr becomes (grant + 1) mod N. ptr is stored as mask_q = indices >= ptr.");
    m.param("N", n as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    let req = m.input_sym("req_i", n, "N")?;
    let adv = m.input("take_i", 1)?;
    let gnt = m.output_sym("gnt_o", n, "N")?;
    let (mask_q, mask_d) = m.register_sym("mask", n, Some("N"), &Expr::ones_sym("N", n))?;
    let dbl = m.comb_reg_sym("dbl", 2 * n, "2*N")?;
    let low = m.comb_reg_sym("dbl_low", 2 * n, "2*N")?;
    let g = m.comb_reg_sym("gnt", n, "N")?;
    let above = m.comb_reg_sym("above", n, "N")?;
    m.integer("i")?;
    let one = Expr::raw("{{(2*N-1){1'b0}}, 1'b1}", 2 * n);
    m.comb(vec![
        Stmt::Comment("the masked requests first, then all of them".into()),
        Stmt::assign(&dbl.lv(), &Expr::concat(&[req.e(), req.e().and(&mask_q.e())?])?)?,
        if faults.rr_grant_not_onehot {
            Stmt::Comment("MUTANT rr-grant-not-onehot: the lowest set bit of each half".into())
        } else {
            Stmt::Comment("lowest set bit".into())
        },
        if faults.rr_grant_not_onehot {
            let half = |h: &str| format!("(dbl[{h}] & ~(dbl[{h}] + {{N{{1'b1}}}}))");
            Stmt::assign(&low.lv(), &Expr::raw(format!("{{{}, {}}}", half("2*N-1:N"), half("N-1:0")), 2 * n))?
        } else {
            Stmt::assign(&low.lv(), &dbl.e().and(&dbl.e().sub(&one)?.not())?)?
        },
        Stmt::assign(&g.lv(), &Expr::raw("dbl_low[N-1:0]", n).or(&Expr::raw("dbl_low[2*N-1:N]", n))?)?,
    ])?;
    // A separate block: take_i usually depends on gnt_o.
    m.comb(vec![
        Stmt::Comment("indices above the grant (prefix OR)".into()),
        Stmt::assign(&above.lv(), &Expr::zero_sym("N", n))?,
        Stmt::For {
            var: "i".into(),
            bound: "N-1".into(),
            body: vec![Stmt::assign(&LVal::raw("above[i+1]", "above", 1), &Expr::raw("above[i] | gnt[i]", 1))?],
        },
        Stmt::assign(&mask_d.lv(), &mask_q.e())?,
        Stmt::if_(&adv.e(), vec![Stmt::assign(&mask_d.lv(), &above.e())?], vec![])?,
    ])?;
    m.assign(&gnt.lv(), &g.e())?;
    assert_grant(&mut m, &gnt, &req, n)?;
    Ok(m)
}

/// `<prefix>_age_arbiter`: FIFO (age) arbiter over N slots
/// (docs/microarchitecture.md §5). `older_q[i*N+j]` = slot i is older than or
/// equal to slot j (the diagonal is always 1). Entering slots become younger
/// than every other slot; among themselves the lower index is older.
pub fn age_arbiter(prefix: &str, n: u32) -> Result<Module> {
    let mut m = Module::new(format!("{prefix}_age_arbiter"));
    m.doc("FIFO (age-matrix) arbiter: gnt_o is the oldest requesting slot (one-hot or 0).");
    m.doc("Slots with enter_i set become the youngest (lower index older among them).");
    m.doc("older_q[i*N+j]: slot i is older than slot j, or i == j. Reset: lower index older.");
    m.param("N", n as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    m.doc("take_i is unused: the order changes only when slots enter (the shared arbiter shape).");
    let elig = m.input_sym("req_i", n, "N")?;
    m.input("take_i", 1)?;
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
                &Expr::raw("req_i[i]", 1).and(&row("older_q").or(&elig.e().not())?.red_and())?,
            )?,
        ]),
    ])?;
    m.assign(&gnt.lv(), &g.e())?;
    assert_grant(&mut m, &gnt, &elig, n)?;
    m.raw_line("/* verilator lint_off UNUSED */");
    m.raw_line("wire unused_take = take_i;");
    m.raw_line("/* verilator lint_on UNUSED */");
    Ok(m)
}

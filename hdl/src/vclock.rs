//! `<prefix>_vclock_sched`: the Fine-Grained VirtualClock scheduler of
//! docs/microarchitecture.md §8, as a standalone parameterized module
//! (parameters `N` slots, `C` counter width, `VTW` Vtick width).
//!
//! The Verilog is written with `for` loops over the parameters, so the same
//! text serves every `(N, C, VTW)`; the builder still takes concrete values so
//! the widths of every assignment are checked at generation time.
//!
//! Structure (three `always @(*)` blocks, so that `take_i`, which at point A
//! depends on `gnt_o` through point B, only feeds the next-state block):
//! 1. classes and stamps `s[k]` (C+1 bits); `now + vtick` and `aux + vtick`
//!    are formed in parallel with the comparison `now < aux`;
//! 2. the grant: a pairwise comparison matrix (one comparator per pair of
//!    slots, ties to the lower index; each winner bit is one balanced
//!    reduction) for real time, a round-robin mask arbiter for best effort;
//! 3. the next values and the rebase on overflow. The overflow test does not
//!    depend on the grant. `R` is selected one-hot with the same pairwise
//!    scheme (sharing the grant's comparators when no mutant changes them)
//!    and read out with one balanced OR per bit, so nothing in the module is a
//!    chain over the slots: the logic depth grows with log N, not N.

use crate::mutant::Mutant;
use crate::verilog::{Expr, LVal, Module, Result, Stmt};

/// Builds `<prefix>_vclock_sched` for `n` slots, `c`-bit counters and
/// `vtw`-bit Vticks (`8 <= vtw <= c <= 32` in the router; any `1 <= vtw <= c`
/// works). `mutant` plants one of the virtualclock mutants (others are ignored).
pub fn vclock_sched(prefix: &str, n: u32, c: u32, vtw: u32, mutant: Option<Mutant>) -> Result<Module> {
    if vtw == 0 || vtw > c || n == 0 {
        return Err(crate::HdlError::Invalid(format!("vclock_sched: need 1 <= VTW <= C and N >= 1 (N={n}, C={c}, VTW={vtw})")));
    }
    let is = |m: Mutant| mutant == Some(m);
    let c1 = c + 1;
    let mut m = Module::new(format!("{prefix}_vclock_sched"));
    m.doc("Fine-Grained VirtualClock scheduler over N slots (docs/microarchitecture.md §8).");
    m.doc("present_i[k]: slot k has a flit at the scheduler; vtick_i[k*VTW +: VTW] is its Vtick");
    m.doc("(0 or all-ones: best effort; else real time); req_i[k]: the base scheduler's eligibility");
    m.doc("(implies present). gnt_o: one-hot grant (or 0):");
    m.doc("the eligible real-time slot with the smallest stamp (ties: lowest index), else the");
    m.doc("eligible best-effort slot picked round-robin (be_ptr, stored as a mask of indices >= ptr).");
    m.doc("take_i: the grant takes effect this cycle (the state is updated as if no grant otherwise).");
    m.doc("State: now, aux[k], stamp[k] (C bits), stamped[k]; arithmetic on C+1 bits, rebase by");
    m.doc("R = min(now', live stamps) when a value reaches 2^C, then saturation at 2^C-1.");
    m.param("N", n as u64)?;
    m.param("C", c as u64)?;
    m.param("VTW", vtw as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    m.input_sym("present_i", n, "N")?;
    m.input_sym("vtick_i", n * vtw, "N*VTW")?;
    let req_i = m.input_sym("req_i", n, "N")?;
    m.input("take_i", 1)?;
    let gnt_o = m.output_sym("gnt_o", n, "N")?;

    let (now_q, now_d) = m.register_sym("now", c, Some("C"), &Expr::zero_sym("C", c))?;
    let (_aux_q, aux_d) = m.register_sym("aux", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c))?;
    let (_stamp_q, stamp_d) = m.register_sym("stamp", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c))?;
    let (stamped_q, stamped_d) = m.register_sym("stamped", n, Some("N"), &Expr::zero_sym("N", n))?;
    let (be_mask_q, be_mask_d) = m.register_sym("be_mask", n, Some("N"), &Expr::ones_sym("N", n))?;
    m.integer("k")?;
    m.integer("j")?;

    // Raw helpers: expressions and places with concrete widths for checking.
    let r = |t: &str, w: u32| Expr::raw(t, w);
    let lv = |t: &str, base: &str, w: u32| LVal::raw(t, base, w);
    let a = |l: LVal, e: Expr| Stmt::assign(&l, &e);
    let for_ = |var: &str, body: Vec<Stmt>| Stmt::For { var: var.into(), bound: "N".into(), body };
    let sk = "s[k*(C+1) +: (C+1)]";
    let auxk = "{1'b0, aux_q[k*C +: C]}";
    let stampk = "{1'b0, stamp_q[k*C +: C]}";

    // ---- Block 1: classes and stamps
    m.comment("1. Stamp: s[k] = stamp[k] if stamped[k], else max(now, aux[k]) + vtick (C+1 bits);");
    m.raw_line("//    both sums are formed in parallel with the comparison now < aux[k].");
    let vt = m.comb_reg_sym("vt", vtw, "VTW")?;
    let rt = m.comb_reg_sym("rt", n, "N")?;
    let no_max = is(Mutant::VcNoMaxNow);
    let sum_now = if no_max { None } else { Some(m.comb_reg_sym("sum_now", c1, "C+1")?) };
    let sum_aux = m.comb_reg_sym("sum_aux", c1, "C+1")?;
    let base = m.comb_reg_sym("base", c1, "C+1")?;
    let s = m.comb_reg_sym("s", n * c1, "N*(C+1)")?;
    let vtx = "{{(C+1-VTW){1'b0}}, vt}";
    let mut body1 = vec![
        a(vt.lv(), r("vtick_i[k*VTW +: VTW]", vtw))?,
        Stmt::Comment("real time: present and Vtick not in {0, all-ones}".into()),
        a(lv("rt[k]", "rt", 1), r("(present_i[k] && (vt != {VTW{1'b0}}) && (vt != {VTW{1'b1}}))", 1))?,
        a(sum_aux.lv(), r(&format!("({auxk} + {vtx})"), c1))?,
    ];
    if let Some(sn) = &sum_now {
        body1.push(a(sn.lv(), r(&format!("({{1'b0, now_q}} + {vtx})"), c1))?);
    }
    if no_max {
        // mutant: no max(now, .): the stamp is aux + vtick
        body1.push(Stmt::Comment("MUTANT vc-no-max-now: base = aux[k] (no max with now)".into()));
        body1.push(a(base.lv(), sum_aux.e())?);
    } else {
        body1.push(Stmt::Comment("base = max(now, aux[k]) + vtick".into()));
        body1.push(a(base.lv(), r(&format!("(({{1'b0, now_q}} < {auxk}) ? sum_aux : sum_now)"), c1))?);
    }
    if is(Mutant::VcRestampEveryCycle) {
        body1.push(Stmt::Comment("MUTANT vc-restamp-every-cycle: a waiting flit's stamp is recomputed".into()));
        body1.push(a(lv(sk, "s", c1), base.e())?);
    } else {
        body1.push(a(lv(sk, "s", c1), r(&format!("(stamped_q[k] ? {stampk} : base)"), c1))?);
    }
    let mut block1 = vec![a(vt.lv(), Expr::zero_sym("VTW", vtw))?, a(rt.lv(), Expr::zero_sym("N", n))?];
    if let Some(sn) = &sum_now {
        block1.push(a(sn.lv(), Expr::zero_sym("(C+1)", c1))?);
    }
    block1.extend(vec![
        a(sum_aux.lv(), Expr::zero_sym("(C+1)", c1))?,
        a(base.lv(), Expr::zero_sym("(C+1)", c1))?,
        a(s.lv(), Expr::zero_sym("(N*(C+1))", n * c1))?,
        for_("k", body1),
    ]);
    m.comb(block1)?;

    // ---- Block 2: the grant
    m.comment("2. Grant: smallest stamp among eligible real-time slots (ties: lowest index);");
    m.raw_line("//    only without one, eligible best-effort slots round-robin. One comparator per");
    m.raw_line("//    pair of slots; slot k loses if a candidate j < k has s[j] <= s[k] or a candidate");
    m.raw_line("//    j > k has s[j] < s[k]; each winner bit is one balanced reduction.");
    let cand_rt = m.comb_reg_sym("cand_rt", n, "N")?;
    let cand_be = m.comb_reg_sym("cand_be", n, "N")?;
    m.raw_line("/* verilator lint_off UNUSED */ // only the entries k > j are used");
    let beat = m.comb_reg_sym("beat", n * n, "N*N")?;
    m.raw_line("/* verilator lint_on UNUSED */");
    let lose = m.comb_reg_sym("lose", n * n, "N*N")?;
    let win = m.comb_reg_sym("win", n, "N")?;
    let be_sel = m.comb_reg_sym("be_sel", n, "N")?;
    let be_gnt = m.comb_reg_sym("be_gnt", n, "N")?;
    let gnt = m.comb_reg_sym("gnt", n, "N")?;
    let cmp = if is(Mutant::VcLargestStampWins) { ">" } else { "<" };
    let sj = "s[j*(C+1) +: (C+1)]";
    // lose[k*N+j]: candidate j (in `mask`) beats slot k, from the matrix `mat`
    let lose_of = |dst: &str, mat: &str, mask: &str| -> Result<Stmt> {
        Ok(for_(
            "k",
            vec![for_(
                "j",
                vec![
                    Stmt::if_(
                        &r("(j < k)", 1),
                        vec![a(lv(&format!("{dst}[k*N+j]"), dst, 1), r(&format!("({mask}[j] && (!{mat}[k*N+j]))"), 1))?],
                        vec![],
                    )?,
                    Stmt::if_(
                        &r("(j > k)", 1),
                        vec![a(lv(&format!("{dst}[k*N+j]"), dst, 1), r(&format!("({mask}[j] && {mat}[j*N+k])"), 1))?],
                        vec![],
                    )?,
                ],
            )],
        ))
    };
    let mut grant = vec![
        a(cand_rt.lv(), r("(req_i & rt)", n))?,
        a(cand_be.lv(), r("(req_i & (~rt))", n))?,
        Stmt::Comment(format!(
            "beat[k*N+j] (k > j): slot k's stamp is strictly {} than slot j's",
            if cmp == "<" { "smaller" } else { "larger (MUTANT vc-largest-stamp-wins)" }
        )),
        a(beat.lv(), Expr::zero_sym("(N*N)", n * n))?,
        for_(
            "k",
            vec![for_(
                "j",
                vec![Stmt::if_(&r("(j < k)", 1), vec![a(lv("beat[k*N+j]", "beat", 1), r(&format!("({sk} {cmp} {sj})"), 1))?], vec![])?],
            )],
        ),
        a(lose.lv(), Expr::zero_sym("(N*N)", n * n))?,
        lose_of("lose", "beat", "cand_rt")?,
        a(win.lv(), Expr::zero_sym("N", n))?,
        for_("k", vec![a(lv("win[k]", "win", 1), r("(cand_rt[k] && (lose[k*N +: N] == {N{1'b0}}))", 1))?]),
        a(be_sel.lv(), r("(((cand_be & be_mask_q) != {N{1'b0}}) ? (cand_be & be_mask_q) : cand_be)", n))?,
        Stmt::Comment("lowest set bit".into()),
        a(be_gnt.lv(), r("(be_sel & (-be_sel))", n))?,
    ];
    if is(Mutant::VcBestEffortFirst) {
        grant.push(Stmt::Comment("MUTANT vc-best-effort-first: best effort before real time".into()));
        grant.push(a(gnt.lv(), r("((|cand_be) ? be_gnt : win)", n))?);
    } else {
        grant.push(a(gnt.lv(), r("((|cand_rt) ? win : be_gnt)", n))?);
    }
    m.comb(grant)?;
    m.assign(&gnt_o.lv(), &gnt.e())?;

    // ---- Block 3: next values and rebase
    m.comment("3. Next values (C+1 bits), 4. rebase by R = min(now', live stamps) on overflow,");
    m.raw_line("//    aux clamps at 0, saturation at 2^C-1. A live slot's next stamp is v[k]; R is");
    m.raw_line("//    picked by the same pairwise scheme as the grant (the lowest-index minimum among");
    m.raw_line("//    the live stamps below now', one-hot), then read out with one balanced OR per bit.");
    m.raw_line("//    The overflow test does not depend on the grant; the subtractions of R run in parallel.");
    let restamp = is(Mutant::VcRestampEveryCycle);
    let shared = !restamp && !is(Mutant::VcLargestStampWins);
    let now1 = m.comb_reg_sym("now1", c1, "C+1")?;
    let fresh = m.comb_reg_sym("fresh", n, "N")?;
    let v = if restamp { m.comb_reg_sym("v", n * c1, "N*(C+1)")? } else { s.clone() };
    let aux1 = m.comb_reg_sym("aux1", n * c1, "N*(C+1)")?;
    let stamped1 = m.comb_reg_sym("stamped1", n, "N")?;
    let over = m.comb_reg("over", 1)?;
    let rbeat = if shared {
        beat.clone()
    } else {
        m.raw_line("/* verilator lint_off UNUSED */ // only the entries k > j are used");
        let x = m.comb_reg_sym("rbeat", n * n, "N*N")?;
        m.raw_line("/* verilator lint_on UNUSED */");
        x
    };
    let rlose = m.comb_reg_sym("rlose", n * n, "N*N")?;
    let below = m.comb_reg_sym("below", n, "N")?;
    let rsel = m.comb_reg_sym("rsel", n, "N")?;
    let vb = m.comb_reg_sym("vb", c1 * n, "(C+1)*N")?;
    let rmin = m.comb_reg_sym("rmin", c1, "C+1")?;
    let sub = m.comb_reg_sym("sub", c1, "C+1")?;
    let t = m.comb_reg_sym("t", c1, "C+1")?;
    let dt = m.comb_reg_sym("dt", c + 2, "C+2")?;
    m.integer("b")?;
    // x - sub clamped at 0, from the borrow of a C+2-bit subtraction
    let clamp = || r("(dt[C+1] ? {(C+1){1'b0}} : dt[C:0])", c1);
    let a1k = "aux1[k*(C+1) +: (C+1)]";
    let vname = v.name.clone();
    let vk = format!("{vname}[k*(C+1) +: (C+1)]");
    let vj = format!("{vname}[j*(C+1) +: (C+1)]");
    let sat = |e: &str| r(&format!("({e}[C] ? {{C{{1'b1}}}} : {e}[C-1:0])"), c);
    let mut next = vec![
        a(now1.lv(), r("({1'b0, now_q} + {{C{1'b0}}, 1'b1})", c1))?,
        Stmt::Comment("fresh[k]: a real-time flit stamped this cycle (aux' = s[k])".into()),
        a(fresh.lv(), r("(rt & (~stamped_q))", n))?,
    ];
    if restamp {
        next.push(Stmt::Comment("v[k]: the next stamp of a live slot (a stamped slot keeps its stamp)".into()));
        next.push(a(v.lv(), Expr::zero_sym("(N*(C+1))", n * c1))?);
        next.push(for_("k", vec![a(lv(&vk, &vname, c1), r(&format!("(stamped_q[k] ? {stampk} : {sk})"), c1))?]));
    }
    next.extend(vec![
        a(aux1.lv(), Expr::zero_sym("(N*(C+1))", n * c1))?,
        for_("k", vec![a(lv(a1k, "aux1", c1), r(&format!("(fresh[k] ? {sk} : {auxk})"), c1))?]),
        Stmt::Comment("stamped': a real-time slot is stamped unless its grant takes effect".into()),
        a(stamped1.lv(), r("((stamped_q | rt) & (~(rt & gnt & {N{take_i}})))", n))?,
        Stmt::Comment("overflow: now' or a fresh stamp (aux' = stamp' = s) reaches 2^C".into()),
        a(over.lv(), r("now1[C]", 1))?,
        for_("k", vec![Stmt::if_(&r("(fresh[k] && s[k*(C+1)+C])", 1), vec![a(over.lv(), Expr::one_bit(true))?], vec![])?]),
    ]);
    if !shared {
        next.push(a(rbeat.lv(), Expr::zero_sym("(N*N)", n * n))?);
        next.push(for_(
            "k",
            vec![for_(
                "j",
                vec![Stmt::if_(&r("(j < k)", 1), vec![a(lv("rbeat[k*N+j]", "rbeat", 1), r(&format!("({vk} < {vj})"), 1))?], vec![])?],
            )],
        ));
    }
    next.extend(vec![
        Stmt::Comment("R: the lowest-index live stamp below now' that no live stamp undercuts, else now'".into()),
        a(below.lv(), Expr::zero_sym("N", n))?,
        for_("k", vec![a(lv("below[k]", "below", 1), r(&format!("({vk} < now1)"), 1))?]),
        a(rlose.lv(), Expr::zero_sym("(N*N)", n * n))?,
        lose_of("rlose", &rbeat.name, "stamped1")?,
        a(rsel.lv(), Expr::zero_sym("N", n))?,
        for_(
            "k",
            vec![a(lv("rsel[k]", "rsel", 1), r("(stamped1[k] && below[k] && (rlose[k*N +: N] == {N{1'b0}}))", 1))?],
        ),
        a(vb.lv(), Expr::zero_sym("((C+1)*N)", c1 * n))?,
        Stmt::For {
            var: "b".into(),
            bound: "(C+1)".into(),
            body: vec![for_("k", vec![a(lv("vb[b*N+k]", "vb", 1), r(&format!("{vname}[k*(C+1)+b]"), 1))?])],
        },
        a(rmin.lv(), Expr::zero_sym("(C+1)", c1))?,
        Stmt::For {
            var: "b".into(),
            bound: "(C+1)".into(),
            body: vec![a(
                lv("rmin[b]", "rmin", 1),
                r("(((rsel & vb[b*N +: N]) != {N{1'b0}}) || ((rsel == {N{1'b0}}) && now1[b]))", 1),
            )?],
        },
    ]);
    if is(Mutant::VcRebaseOffByOne) {
        next.push(Stmt::Comment("MUTANT vc-rebase-off-by-one: subtracts R+1".into()));
        next.push(a(sub.lv(), r("(over ? (rmin + {{C{1'b0}}, 1'b1}) : {(C+1){1'b0}})", c1))?);
    } else {
        next.push(a(sub.lv(), r("(over ? rmin : {(C+1){1'b0}})", c1))?);
    }
    next.extend(vec![
        a(dt.lv(), r("({1'b0, now1} - {1'b0, sub})", c + 2))?,
        a(t.lv(), clamp())?,
        a(now_d.lv(), sat("t"))?,
        a(aux_d.lv(), Expr::zero_sym("(N*C)", n * c))?,
        a(stamp_d.lv(), Expr::zero_sym("(N*C)", n * c))?,
        for_(
            "k",
            vec![
                a(dt.lv(), r(&format!("({{1'b0, {a1k}}} - {{1'b0, sub}})"), c + 2))?,
                a(t.lv(), clamp())?,
                a(lv("aux_d[k*C +: C]", "aux_d", c), sat("t"))?,
                Stmt::Comment("a slot that is not live keeps its stamp register".into()),
                a(dt.lv(), r(&format!("({{1'b0, {vk}}} - {{1'b0, sub}})"), c + 2))?,
                a(t.lv(), clamp())?,
                a(lv("stamp_d[k*C +: C]", "stamp_d", c), r(&format!("(stamped1[k] ? {} : stamp_q[k*C +: C])", sat("t").text()), c))?,
            ],
        ),
        a(stamped_d.lv(), stamped1.e())?,
        Stmt::Comment("be_ptr advances to winner+1 when a best-effort grant takes effect".into()),
        a(be_mask_d.lv(), be_mask_q.e())?,
        Stmt::if_(&r("(take_i && ((gnt & cand_be) != {N{1'b0}}))", 1), vec![a(be_mask_d.lv(), r("(-(be_gnt << 1))", n))?], vec![])?,
    ]);
    m.comb(next)?;
    let _ = (now_q, stamped_q, be_gnt, be_sel, win, cand_be, beat, base, vt, rt, s, lose, sum_now, sum_aux, rbeat, v);
    crate::arbiters::assert_grant(&mut m, &gnt_o, &req_i, n)?;
    Ok(m)
}

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
//! 2. the grant: a tournament tree over `P = 2^LW >= N` leaves for real time
//!    (a right subtree's winner replaces the left one's only with a strictly
//!    smaller stamp, so ties go to the lower index), then one AND per level
//!    from the root down to turn the node decisions into a one-hot grant; a
//!    round-robin mask arbiter for best effort;
//! 3. the next values and the rebase on overflow. The overflow test does not
//!    depend on the grant. `R` is the root of a second minimum tree over the
//!    live stamps, compared once with `now'`.
//!
//! A tree has N-1 comparators where a pairwise matrix has N(N-1)/2 (120 for
//! 16 slots): about a third of the logic of a 16-VC VirtualClock router, and
//! most of its Verilator and Yosys run time (docs/benchmarks.md). The price is
//! depth: log2 P comparator-and-mux levels instead of one comparator and a
//! balanced reduction.

use crate::mutant::Mutant;
use crate::verilog::{clog2, Expr, LVal, Module, Result, Stmt};

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
    m.doc("(0 or all-ones: best effort; else real time); elig_i[k]: the base scheduler's eligibility");
    m.doc("(implies present). gnt_o: one-hot grant (or 0):");
    m.doc("the eligible real-time slot with the smallest stamp (ties: lowest index), else the");
    m.doc("eligible best-effort slot picked round-robin (be_ptr, stored as a mask of indices >= ptr).");
    m.doc("take_i: the grant takes effect this cycle (the state is updated as if no grant otherwise).");
    m.doc("State: now, aux[k], stamp[k] (C bits), stamped[k]; arithmetic on C+1 bits, rebase by");
    m.doc("R = min(now', live stamps) when a value reaches 2^C, then saturation at 2^C-1.");
    m.doc("LW = max(1, ceil(log2 N)): the minimum trees have P = 2^LW leaves.");
    m.param("N", n as u64)?;
    m.param("C", c as u64)?;
    m.param("VTW", vtw as u64)?;
    let lw = clog2(n as u64);
    m.param("LW", lw as u64)?;
    m.input("clk_i", 1)?;
    m.input("rst_i", 1)?;
    m.input_sym("present_i", n, "N")?;
    m.input_sym("vtick_i", n * vtw, "N*VTW")?;
    m.input_sym("elig_i", n, "N")?;
    m.input("take_i", 1)?;
    let gnt_o = m.output_sym("gnt_o", n, "N")?;

    let (now_q, now_d) = m.register_sym("now", c, Some("C"), &Expr::zero_sym("C", c))?;
    let (_aux_q, aux_d) = m.register_sym("aux", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c))?;
    let (_stamp_q, stamp_d) = m.register_sym("stamp", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c))?;
    let (stamped_q, stamped_d) = m.register_sym("stamped", n, Some("N"), &Expr::zero_sym("N", n))?;
    let (be_mask_q, be_mask_d) = m.register_sym("be_mask", n, Some("N"), &Expr::ones_sym("N", n))?;
    let leaves = 1u32 << lw;
    m.localparam("P", 32, Some("32"), "1 << LW")?;
    m.integer("k")?;

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
    m.raw_line("//    only without one, eligible best-effort slots round-robin. The real-time winner");
    m.raw_line("//    comes from a tournament tree: leaves 0..P-1 are the slots (padding leaves are");
    m.raw_line("//    never valid), node P+k is the winner of nodes 2k and 2k+1, the root is 2P-2.");
    let cand_rt = m.comb_reg_sym("cand_rt", n, "N")?;
    let cand_be = m.comb_reg_sym("cand_be", n, "N")?;
    let cmp = if is(Mutant::VcLargestStampWins) { ">" } else { "<" };
    let gt = MinTree::declare(&mut m, "g", leaves, c1)?;
    m.raw_line("/* verilator lint_off UNUSED */ // the padding leaves' enables are not used when N < P");
    let en = m.comb_reg_sym("g_en", 2 * leaves - 1, "2*P-1")?;
    m.raw_line("/* verilator lint_on UNUSED */");
    let win = m.comb_reg_sym("win", n, "N")?;
    let be_sel = m.comb_reg_sym("be_sel", n, "N")?;
    let be_gnt = m.comb_reg_sym("be_gnt", n, "N")?;
    let gnt = m.comb_reg_sym("gnt", n, "N")?;
    let mut grant = vec![
        a(cand_rt.lv(), r("(elig_i & rt)", n))?,
        a(cand_be.lv(), r("(elig_i & (~rt))", n))?,
    ];
    grant.extend(gt.build(n, c1, "cand_rt", "s", cmp, if cmp == "<" { "strictly smaller" } else { "strictly larger (MUTANT vc-largest-stamp-wins)" })?);
    // j = P-2-k walks the internal nodes from the root down
    let jj = "(P-2-k)";
    grant.extend(vec![
        Stmt::Comment("one-hot grant: a node passes its enable to the child its decision picked".into()),
        a(en.lv(), Expr::zero_sym("(2*P-1)", 2 * leaves - 1))?,
        a(lv("g_en[2*P-2]", "g_en", 1), r("g_v[2*P-2]", 1))?,
        for_p1(
            "k",
            vec![
                a(lv(&format!("g_en[2*{jj}]"), "g_en", 1), r(&format!("(g_en[P+{jj}] && (!g_sel[{jj}]))"), 1))?,
                a(lv(&format!("g_en[2*{jj}+1]"), "g_en", 1), r(&format!("(g_en[P+{jj}] && g_sel[{jj}])"), 1))?,
            ],
        ),
        a(win.lv(), r("g_en[N-1:0]", n))?,
        a(be_sel.lv(), r("(((cand_be & be_mask_q) != {N{1'b0}}) ? (cand_be & be_mask_q) : cand_be)", n))?,
        Stmt::Comment("lowest set bit".into()),
        a(be_gnt.lv(), r("(be_sel & (-be_sel))", n))?,
    ]);
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
    m.raw_line("//    aux clamps at 0, saturation at 2^C-1. A live slot's next stamp is v[k]; R is the");
    m.raw_line("//    root of a minimum tree over the live stamps (as in the grant), or now' if smaller.");
    m.raw_line("//    The overflow test does not depend on the grant; the subtractions of R run in parallel.");
    let restamp = is(Mutant::VcRestampEveryCycle);
    let now1 = m.comb_reg_sym("now1", c1, "C+1")?;
    let fresh = m.comb_reg_sym("fresh", n, "N")?;
    let v = if restamp { m.comb_reg_sym("v", n * c1, "N*(C+1)")? } else { s.clone() };
    let aux1 = m.comb_reg_sym("aux1", n * c1, "N*(C+1)")?;
    let stamped1 = m.comb_reg_sym("stamped1", n, "N")?;
    let over = m.comb_reg("over", 1)?;
    let rt_tree = MinTree::declare(&mut m, "r", leaves, c1)?;
    let rmin = m.comb_reg_sym("rmin", c1, "C+1")?;
    let sub = m.comb_reg_sym("sub", c1, "C+1")?;
    let t = m.comb_reg_sym("t", c1, "C+1")?;
    let dt = m.comb_reg_sym("dt", c + 2, "C+2")?;
    // x - sub clamped at 0, from the borrow of a C+2-bit subtraction
    let clamp = || r("(dt[C+1] ? {(C+1){1'b0}} : dt[C:0])", c1);
    let a1k = "aux1[k*(C+1) +: (C+1)]";
    let vname = v.name.clone();
    let vk = format!("{vname}[k*(C+1) +: (C+1)]");
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
    next.extend(rt_tree.build(n, c1, "stamped1", &vname, "<", "strictly smaller")?);
    next.extend(vec![
        Stmt::Comment("R: the smallest live stamp if it is below now', else now'".into()),
        a(rmin.lv(), r("((r_v[2*P-2] && (r_s[(2*P-2)*(C+1) +: (C+1)] < now1)) ? r_s[(2*P-2)*(C+1) +: (C+1)] : now1)", c1))?,
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
    let _ = (now_q, stamped_q, be_gnt, be_sel, win, cand_be, base, vt, rt, s, sum_now, sum_aux, v, en);
    Ok(m)
}

/// The registers of one minimum (tournament) tree over `P` leaves, named
/// `<tag>_v` (valid), `<tag>_s` (value, `vw` bits each) and `<tag>_sel` (node
/// `P+k` took its right child `2k+1`). Node indices: leaves `0..P-1`, node
/// `P+k` combines `2k` and `2k+1`, root `2P-2`; an ascending loop over `k`
/// therefore sees both children before their parent.
struct MinTree {
    tag: String,
    leaves: u32,
}

impl MinTree {
    fn declare(m: &mut Module, tag: &str, leaves: u32, vw: u32) -> Result<MinTree> {
        m.comb_reg_sym(&format!("{tag}_v"), 2 * leaves - 1, "2*P-1")?;
        m.comb_reg_sym(&format!("{tag}_s"), (2 * leaves - 1) * vw, "(2*P-1)*(C+1)")?;
        m.comb_reg_sym(&format!("{tag}_sel"), leaves - 1, "P-1")?;
        Ok(MinTree { tag: tag.to_string(), leaves })
    }

    /// Statements that fill the tree from the `n`-bit mask `valid` and the
    /// `n` values `vals` (`vw` bits each); the right child wins a node only if
    /// it is valid and (the left is not, or its value is `cmp` the left's).
    fn build(&self, n: u32, vw: u32, valid: &str, vals: &str, cmp: &str, what: &str) -> Result<Vec<Stmt>> {
        let (t, p) = (&self.tag, self.leaves);
        let r = |x: &str, w: u32| Expr::raw(x, w);
        let lv = |x: &str, base: &str, w: u32| LVal::raw(x, base, w);
        let (v, s, sel) = (format!("{t}_v"), format!("{t}_s"), format!("{t}_sel"));
        let val = |node: &str| format!("{s}[({node})*(C+1) +: (C+1)]");
        Ok(vec![
            Stmt::Comment(format!("{t}: the right child wins a node if its value is {what}")),
            Stmt::assign(&lv(&v, &v, 2 * p - 1), &Expr::zero_sym("(2*P-1)", 2 * p - 1))?,
            Stmt::assign(&lv(&s, &s, (2 * p - 1) * vw), &Expr::zero_sym("((2*P-1)*(C+1))", (2 * p - 1) * vw))?,
            Stmt::assign(&lv(&sel, &sel, p - 1), &Expr::zero_sym("(P-1)", p - 1))?,
            Stmt::assign(&lv(&format!("{v}[N-1:0]"), &v, n), &r(valid, n))?,
            Stmt::assign(&lv(&format!("{s}[N*(C+1)-1:0]"), &s, n * vw), &r(vals, n * vw))?,
            for_p1(
                "k",
                vec![
                    Stmt::assign(
                        &lv(&format!("{sel}[k]"), &sel, 1),
                        &r(&format!("({v}[2*k+1] && ((!{v}[2*k]) || ({} {cmp} {})))", val("2*k+1"), val("2*k")), 1),
                    )?,
                    Stmt::assign(&lv(&format!("{v}[P+k]"), &v, 1), &r(&format!("({v}[2*k] || {v}[2*k+1])"), 1))?,
                    Stmt::assign(
                        &lv(&val("P+k"), &s, vw),
                        &r(&format!("({sel}[k] ? {} : {})", val("2*k+1"), val("2*k")), vw),
                    )?,
                ],
            ),
        ])
    }
}

/// `for (var = 0; var < P-1; ...)`: once per internal node of a tree.
fn for_p1(var: &str, body: Vec<Stmt>) -> Stmt {
    Stmt::For { var: var.into(), bound: "P-1".into(), body }
}

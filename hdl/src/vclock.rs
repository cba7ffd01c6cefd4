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
//! 1. classes and stamps `s[k]` (C+1 bits): `mx[k] + vtick`, where the
//!    register `mx[k]` holds `max(now, aux[k])`, precomputed in the previous
//!    cycle from the next values (§8.4 "max(now, aux) may be registered"), so
//!    no comparison of `now` with `aux` sits in front of the grant;
//! 2. the grant: a pairwise comparison matrix (one comparator per pair of
//!    slots, ties to the lower index; each winner bit is one balanced
//!    reduction) for real time, a round-robin mask arbiter for best effort;
//! 3. the next values and the rebase on overflow. A stamp formed this cycle
//!    is never below `now'` (§8.4, "R comes from the registers"), so `R` is
//!    picked from the registers `now`, `stamp`, `stamped` alone, one-hot with
//!    the same pairwise scheme as the grant and read out with one balanced OR
//!    per bit, so nothing in the module is a chain over the slots: the logic
//!    depth grows with log N, not N. The comparisons it needs (`stamp[k] <=
//!    now`, `stamp[k] < stamp[j]`) are registers themselves (`sbelow`,
//!    `sord`), loaded from the next stamps before the rebase (§8.4 "The
//!    comparisons that find R are registered"), so no comparator precedes R.
//!    The rebase's subtrahend is `R` or `R2` (the minimum without `R`'s
//!    slot), chosen by whether `R`'s slot is an eligible real-time slot (it
//!    then wins the grant): no stamp adder and no grant sits in front of the
//!    subtraction. The overflow test gates the subtrahend (0 without it). In
//!    the split pipeline's form ([`Use2From::StampedRoom`]) the eligibility of
//!    R's slot comes from the caller's `sreq_i` (flip-flops only: the output
//!    VC buffer's room), so no readiness term reaches the choice of R.

use crate::mutant::{Faults, Mutant};
use crate::verilog::{all_of, and_of, cat, Expr, LVal, Module, Result, Sig, Stmt};

/// Builds `<prefix>_vclock_sched` for `n` slots, `c`-bit counters and
/// `vtw`-bit Vticks (`8 <= vtw <= c <= 32` in the router; any `1 <= vtw <= c`
/// works). `mutant` plants one of the virtualclock mutants (others are ignored).
pub fn vclock_sched(prefix: &str, n: u32, c: u32, vtw: u32, mutant: Option<Mutant>) -> Result<Module> {
    vclock_sched_with(prefix, n, c, vtw, &Faults::of(mutant), Use2From::Eligibility)
}

/// [`vclock_sched`] in the form point A of the split pipeline uses
/// ([`Use2From::StampedRoom`]): one more input, `sreq_i`.
pub fn vclock_sched_split(prefix: &str, n: u32, c: u32, vtw: u32, mutant: Option<Mutant>) -> Result<Module> {
    vclock_sched_with(prefix, n, c, vtw, &Faults::of(mutant), Use2From::StampedRoom)
}

/// What the choice between R and R2 (`use2`: R's slot leaves the live set)
/// reads besides the registers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Use2From {
    /// `take_i`, `req_i` and the real-time flags: the grant takes effect on
    /// R's slot (every pipeline).
    Eligibility,
    /// `sreq_i[k]`, a stamped slot's eligibility formed by the caller from
    /// flip-flops (point A with `"split"` and b = 1: the output VC buffer's
    /// room counting the crossing flit, §8.4 *With "split", a's eligibility
    /// is its output VC buffer's room*), so neither the readiness of point A
    /// nor the grant reaches the choice of the subtrahend (the overflow test
    /// still gates it, as in the other form).
    StampedRoom,
}

/// [`vclock_sched`] with the router's fault switches (only the `vc_*` ones act here).
pub(crate) fn vclock_sched_with(prefix: &str, n: u32, c: u32, vtw: u32, faults: &Faults, use2_from: Use2From) -> Result<Module> {
    vclock_sched_picks(prefix, n, c, vtw, faults, 0, use2_from)
}

/// [`vclock_sched_with`] plus, for the iterative switch allocator (§6
/// *Switch allocation*), `picks` combinational grant evaluations of other
/// request vectors on the same stamps and `be_ptr`, and every slot's
/// relative stamp `rel_o` and real-time flag `rt_o` for point B
/// (`<prefix>_vclock_sched_k<picks>`); `picks = 0` is the plain scheduler.
pub(crate) fn vclock_sched_picks(prefix: &str, n: u32, c: u32, vtw: u32, faults: &Faults, picks: u32, use2_from: Use2From) -> Result<Module> {
    if vtw == 0 || vtw > c || n == 0 {
        return Err(crate::HdlError::Invalid(format!("vclock_sched: need 1 <= VTW <= C and N >= 1 (N={n}, C={c}, VTW={vtw})")));
    }
    let c1 = c + 1;
    let mut m = Module::new(if picks == 0 { format!("{prefix}_vclock_sched") } else { format!("{prefix}_vclock_sched_k{picks}") });
    m.doc("Fine-Grained VirtualClock scheduler over N slots (docs/microarchitecture.md §8).");
    m.doc("present_i[k]: slot k has a flit at the scheduler; vtick_i[k*VTW +: VTW] is its Vtick");
    m.doc("(0 or all-ones: best effort; else real time); req_i[k]: the base scheduler's eligibility");
    m.doc("(implies present). gnt_o: one-hot grant (or 0):");
    m.doc("the eligible real-time slot with the smallest stamp (ties: lowest index), else the");
    m.doc("eligible best-effort slot picked round-robin (be_ptr, stored as a mask of indices >= ptr).");
    m.doc("take_i: the grant takes effect this cycle (the state is updated as if no grant otherwise).");
    m.doc("State: now, aux[k], stamp[k] (C bits), stamped[k]; arithmetic on C+1 bits, rebase by");
    m.doc("R = min(now', live stamps) when a value reaches 2^C, then saturation at 2^C-1.");
    m.param("N", n as u64);
    let cp = m.param("C", c as u64);
    m.param("VTW", vtw as u64);
    m.input("clk_i", 1);
    m.input("rst_i", 1);
    let present_i = m.input_sym("present_i", n, "N");
    let vtick_i = m.input_sym("vtick_i", n * vtw, "N*VTW");
    let req_i = m.input_sym("req_i", n, "N");
    let take_i = m.input("take_i", 1);
    let stamped_room = use2_from == Use2From::StampedRoom;
    let sreq_i = if stamped_room {
        m.doc("sreq_i[k]: slot k's eligibility where stamped[k] (read only there; §8.4, with");
        m.doc("\"split\" it is the output VC buffer's room, formed without the presence terms).");
        Some(m.input_sym("sreq_i", n, "N"))
    } else {
        None
    };
    let gnt_o = m.output_sym("gnt_o", n, "N");
    let pick_io = crate::arbiters::pick_ports(&mut m, n, picks)?;
    let rel_rt = if picks > 0 {
        m.doc("rel_o[k*(C+2) +: C+2]: slot k's relative stamp s[k] - now, signed (two's complement);");
        m.doc("rt_o[k]: slot k is present with a real-time Vtick (point B of the iterative allocator).");
        Some((m.output_sym("rel_o", n * (c + 2), "N*(C+2)"), m.output_sym("rt_o", n, "N")))
    } else {
        None
    };

    let (now_q, now_d) = m.register_sym("now", c, Some("C"), &Expr::zero_sym("C", c));
    let (aux_q, aux_d) = m.register_sym("aux", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c));
    let (stamp_q, stamp_d) = m.register_sym("stamp", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c));
    let (stamped_q, stamped_d) = m.register_sym("stamped", n, Some("N"), &Expr::zero_sym("N", n));
    let (be_mask_q, be_mask_d) = m.register_sym("be_mask", n, Some("N"), &Expr::ones_sym("N", n));
    // mx[k] = max(now, aux[k]) at every cycle (both reset to 0); loaded with the
    // rebased max(now', aux'[k]) (§8.4, the rebase is monotone so it commutes with max)
    let (mx_q, mx_d) = m.register_sym("mx", n * c, Some("N*C"), &Expr::zero_sym("N*C", n * c));
    // The comparisons that find R, registered (§8.4): sbelow[k] = stamp[k] <= now and
    // sord[k*N+j] (k > j) = stamp[k] < stamp[j], exact on stamped slots (sord up to
    // stamps that both saturated in the last rebase, which §8.5 shows harmless).
    let (sbelow_q, sbelow_d) = m.register_sym("sbelow", n, Some("N"), &Expr::zero_sym("N", n));
    m.raw_line("/* verilator lint_off UNUSED */ // only the entries k > j are used");
    let (sord_q, sord_d) = m.register_sym("sord", n * n, Some("N*N"), &Expr::zero_sym("N*N", n * n));
    m.raw_line("/* verilator lint_on UNUSED */");
    let k = m.integer("k");
    let j = m.integer("j");

    // Symbolic zeros of the widths the module uses, and the loop bodies' terms.
    let zero_n = || Expr::zero_sym("N", n);
    let zero_c1 = || Expr::zero_sym("(C+1)", c1);
    let zero_nn = || Expr::zero_sym("(N*N)", n * n);
    let zero_nc1 = || Expr::zero_sym("(N*(C+1))", n * c1);
    let for_ = |var: &Expr, body: Vec<Stmt>| Stmt::for_each(var, "N", body);
    let wide = |x: Expr| cat(&[Expr::one_bit(false), x]);
    let one_c1 = cat(&[Expr::zero_sym("C", c), Expr::one_bit(true)]);
    let now_wide = wide(now_q.e());
    let aux_k = wide(aux_q.elem_var(&k, "C", c));
    let mx_k = wide(mx_q.elem_var(&k, "C", c));
    let stamp_k = wide(stamp_q.elem_var(&k, "C", c));
    let stamp_j = wide(stamp_q.elem_var(&j, "C", c));

    // ---- Block 1: classes and stamps
    m.comment("1. Stamp: s[k] = stamp[k] if stamped[k], else max(now, aux[k]) + vtick (C+1 bits);");
    m.raw_line("//    max(now, aux[k]) is the register mx[k], formed in the previous cycle.");
    let vt = m.comb_reg_sym("vt", vtw, "VTW");
    let rt = m.comb_reg_sym("rt", n, "N");
    let no_max = faults.vc_stamp_ignores_now;
    let base = m.comb_reg_sym("base", c1, "C+1");
    let s = m.comb_reg_sym("s", n * c1, "N*(C+1)");
    let s_k = s.elem_var(&k, "(C+1)", c1);
    let s_j = s.elem_var(&j, "(C+1)", c1);
    let s_k_lv = LVal::elem_var(&s, &k, "(C+1)", c1);
    let vtick_wide = cat(&[Expr::zero_sym("(C+1-VTW)", c1 - vtw), vt.e()]);
    let mut body1 = vec![
        Stmt::set(&vt, vtick_i.elem_var(&k, "VTW", vtw)),
        Stmt::note("real time: present and Vtick not in {0, all-ones}"),
        Stmt::set(
            LVal::at_var(&rt, &k),
            all_of(&[present_i.at_var(&k), vt.is_not(Expr::zero_sym("VTW", vtw)), vt.is_not(Expr::ones_sym("VTW", vtw))]),
        ),
    ];
    if no_max {
        body1.push(Stmt::note("MUTANT vc-no-max-now: base = aux[k] (no max with now)"));
        body1.push(Stmt::set(&base, &aux_k + &vtick_wide));
    } else {
        body1.push(Stmt::note("base = max(now, aux[k]) + vtick"));
        body1.push(Stmt::set(&base, &mx_k + &vtick_wide));
    }
    if faults.vc_restamp_every_cycle {
        body1.push(Stmt::note("MUTANT vc-restamp-every-cycle: a waiting flit's stamp is recomputed"));
        body1.push(Stmt::set(&s_k_lv, &base));
    } else {
        body1.push(Stmt::set(&s_k_lv, stamped_q.at_var(&k).then_else(&stamp_k, &base)));
    }
    m.comb(vec![
        Stmt::set(&vt, Expr::zero_sym("VTW", vtw)),
        Stmt::set(&rt, zero_n()),
        Stmt::set(&base, zero_c1()),
        Stmt::set(&s, zero_nc1()),
        for_(&k, body1),
    ]);

    // ---- Block 2: the grant
    m.comment("2. Grant: smallest stamp among eligible real-time slots (ties: lowest index);");
    m.raw_line("//    only without one, eligible best-effort slots round-robin. One comparator per");
    m.raw_line("//    pair of slots; slot k loses if a candidate j < k has s[j] <= s[k] or a candidate");
    m.raw_line("//    j > k has s[j] < s[k]; each winner bit is one balanced reduction.");
    let cand_rt = m.comb_reg_sym("cand_rt", n, "N");
    let cand_be = m.comb_reg_sym("cand_be", n, "N");
    m.raw_line("/* verilator lint_off UNUSED */ // only the entries k > j are used");
    let beat = m.comb_reg_sym("beat", n * n, "N*N");
    m.raw_line("/* verilator lint_on UNUSED */");
    let lose = m.comb_reg_sym("lose", n * n, "N*N");
    let win = m.comb_reg_sym("win", n, "N");
    let be_sel = m.comb_reg_sym("be_sel", n, "N");
    let be_gnt = m.comb_reg_sym("be_gnt", n, "N");
    let gnt = m.comb_reg_sym("gnt", n, "N");
    // for k, j: `mat[k*N+j] = strictly_before(k, j)` where j < k
    let pairwise = |mat: &Sig, strictly_before: Expr| {
        for_(&k, vec![for_(&j, vec![Stmt::when(j.below(&k), vec![Stmt::set(LVal::at_row(mat, &k, "N", &j), strictly_before)])])])
    };
    // lose[k*N+j]: candidate j (in `mask`) beats slot k, from the matrix `mat`
    let lose_of = |dst: &Sig, mat: &Sig, mask: &Sig| {
        for_(
            &k,
            vec![for_(
                &j,
                vec![
                    Stmt::when(j.below(&k), vec![Stmt::set(LVal::at_row(dst, &k, "N", &j), mask.at_var(&j).l_and(mat.at_row(&k, "N", n, &j).l_not()))]),
                    Stmt::when(j.above(&k), vec![Stmt::set(LVal::at_row(dst, &k, "N", &j), mask.at_var(&j).l_and(mat.at_row(&j, "N", n, &k)))]),
                ],
            )],
        )
    };
    let masked_be = &cand_be & &be_mask_q;
    let grant_rt = if faults.vc_largest_stamp_wins { s_k.above(&s_j) } else { s_k.below(&s_j) };
    let pick_rt = grant_rt.clone();
    let mut grant = vec![
        Stmt::set(&cand_rt, &req_i & &rt),
        Stmt::set(&cand_be, &req_i & !&rt),
        Stmt::note(format!(
            "beat[k*N+j] (k > j): slot k's stamp is strictly {} than slot j's",
            if faults.vc_largest_stamp_wins { "larger (MUTANT vc-largest-stamp-wins)" } else { "smaller" }
        )),
        Stmt::set(&beat, zero_nn()),
        pairwise(&beat, grant_rt),
        Stmt::set(&lose, zero_nn()),
        lose_of(&lose, &beat, &cand_rt),
        Stmt::set(&win, zero_n()),
        for_(&k, vec![Stmt::set(LVal::at_var(&win, &k), cand_rt.at_var(&k).l_and(lose.elem_var(&k, "N", n).is(zero_n())))]),
        Stmt::set(&be_sel, masked_be.is_not(zero_n()).then_else(&masked_be, &cand_be)),
        Stmt::note("lowest set bit"),
        Stmt::set(&be_gnt, &be_sel & -&be_sel),
    ];
    if faults.vc_best_effort_first {
        grant.push(Stmt::note("MUTANT vc-best-effort-first: best effort before real time"));
        grant.push(Stmt::set(&gnt, cand_be.any().then_else(&be_gnt, &win)));
    } else {
        grant.push(Stmt::set(&gnt, cand_rt.any().then_else(&win, &be_gnt)));
    }
    m.comb(grant);
    m.assign(&gnt_o, &gnt);

    // ---- Block 3: next values and rebase
    m.comment("3. Next values (C+1 bits), 4. rebase by R = min(now', live stamps) on overflow,");
    m.raw_line("//    aux clamps at 0, saturation at 2^C-1. A live slot's next stamp is v[k]. A stamp");
    m.raw_line("//    formed this cycle is >= max(now, aux) + 1 >= now', so R is the lowest-index");
    m.raw_line("//    minimum among the stamp registers of the stamped slots below now' (rsel, one-hot,");
    m.raw_line("//    the registered comparisons sbelow/sord), or now' without one; R2 is that minimum without");
    m.raw_line("//    rsel's slot (§8.4, R comes from the registers). rsel's slot, when eligible and real");
    m.raw_line("//    time, wins the grant (its stamp is below every fresh one and no stamped slot");
    m.raw_line("//    undercuts it), and its grant taking effect removes it from the live set: then R2");
    m.raw_line("//    is the spec's R (use2). Neither the stamp adder nor the grant reaches use2. The");
    m.raw_line("//    overflow test gates the subtrahend. sbelow/sord are loaded from the next stamps");
    m.raw_line("//    before the rebase (the rebase keeps their order, §8.5 Registered comparisons).");
    let restamp = faults.vc_restamp_every_cycle;
    let now1 = m.comb_reg_sym("now1", c1, "C+1");
    let fresh = m.comb_reg_sym("fresh", n, "N");
    let v = if restamp { m.comb_reg_sym("v", n * c1, "N*(C+1)") } else { s.clone() };
    let aux1 = m.comb_reg_sym("aux1", n * c1, "N*(C+1)");
    let stamped1 = m.comb_reg_sym("stamped1", n, "N");
    let over = m.comb_reg("over", 1);
    let live = m.comb_reg_sym("live", n, "N");
    let live2 = m.comb_reg_sym("live2", n, "N");
    let rlose = m.comb_reg_sym("rlose", n * n, "N*N");
    let rlose2 = m.comb_reg_sym("rlose2", n * n, "N*N");
    let rsel = m.comb_reg_sym("rsel", n, "N");
    let rsel2 = m.comb_reg_sym("rsel2", n, "N");
    let vb = m.comb_reg_sym("vb", c1 * n, "(C+1)*N");
    let rmin = m.comb_reg_sym("rmin", c1, "C+1");
    let rmin2 = m.comb_reg_sym("rmin2", c1, "C+1");
    let use2 = m.comb_reg("use2", 1);
    let xv = m.comb_reg_sym("xv", c1, "C+1");
    let t = m.comb_reg_sym("t", c1, "C+1");
    let nv = m.comb_reg_sym("nv", c, "C");
    let now_n = m.comb_reg_sym("now_n", c, "C");
    let dt = m.comb_reg_sym("dt", c + 2, "C+2");
    let rsub = m.comb_reg_sym("rsub", c1, "C+1");
    let now_top = m.comb_reg("now_top", 1);
    let mx_aux = m.comb_reg_sym("mx_aux", n, "N");
    let b = m.integer("b");
    // x - y clamped at 0, from the borrow of a C+2-bit subtraction
    let minus = |x: Expr, y: &Sig| wide(x) - wide(y.e());
    let clamp = || dt.at_sym("C+1", c + 1).then_else(zero_c1(), dt.bits_sym(("C", c), ("0", 0)));
    let sat = || t.at_sym("C", c).then_else(Expr::ones_sym("C", c), t.bits_sym(("C-1", c - 1), ("0", 0)));
    // `now'` and the live stamps are never below the R subtracted (R is their minimum,
    // R2 that of the live set without rsel's slot, which use2 removes), so only `aux`
    // needs the clamp at 0 (and every value with the R+1 mutant).
    let keep_clamp = faults.vc_rebase_one_too_far;
    // leaves x's next register value (C bits) in nv
    let rebase = |x: Expr, clamped: bool| {
        vec![
            Stmt::set(&xv, x),
            Stmt::set(&dt, minus(xv.e(), &rsub)),
            Stmt::set(&t, if clamped || keep_clamp { clamp() } else { dt.bits_sym(("C", c), ("0", 0)) }),
            Stmt::set(&nv, sat()),
        ]
    };
    let aux1_k = aux1.elem_var(&k, "(C+1)", c1);
    let v_k = v.elem_var(&k, "(C+1)", c1);
    let mut next = vec![
        Stmt::set(&now1, &now_wide + &one_c1),
        Stmt::note("fresh[k]: a real-time flit stamped this cycle (aux' = s[k])"),
        Stmt::set(&fresh, &rt & !&stamped_q),
    ];
    if restamp {
        next.push(Stmt::note("v[k]: the next stamp of a live slot (a stamped slot keeps its stamp)"));
        next.push(Stmt::set(&v, zero_nc1()));
        next.push(for_(&k, vec![Stmt::set(LVal::elem_var(&v, &k, "(C+1)", c1), stamped_q.at_var(&k).then_else(&stamp_k, &s_k))]));
    }
    next.extend(vec![
        Stmt::set(&aux1, zero_nc1()),
        for_(&k, vec![Stmt::set(LVal::elem_var(&aux1, &k, "(C+1)", c1), fresh.at_var(&k).then_else(&s_k, &aux_k))]),
        Stmt::note("stamped': a real-time slot is stamped unless its grant takes effect"),
        Stmt::set(&stamped1, (&stamped_q | &rt) & !and_of(&[rt.e(), gnt.e(), Expr::repl_sym("N", n, &take_i)])),
        Stmt::note("overflow: now' or a fresh stamp (aux' = stamp' = s) reaches 2^C"),
        Stmt::set(&over, now1.at_sym("C", c)),
        for_(&k, vec![Stmt::when(fresh.at_var(&k).l_and(s.at_row(&k, "(C+1)", c1, &cp)), vec![Stmt::set(&over, Expr::one_bit(true))])]),
    ]);
    // rsel: the lowest-index stamp of `mask` below now' that no stamp of `mask` undercuts
    let select = |sel: &Sig, lose: &Sig, mask: &Sig| {
        vec![
            Stmt::set(lose, zero_nn()),
            lose_of(lose, &sord_q, mask),
            Stmt::set(sel, zero_n()),
            for_(
                &k,
                vec![Stmt::set(
                    LVal::at_var(sel, &k),
                    all_of(&[mask.at_var(&k), sbelow_q.at_var(&k), lose.elem_var(&k, "N", n).is(zero_n())]),
                )],
            ),
        ]
    };
    // the one-hot pick's stamp, or now' without one
    let read_out = |dst: &Sig, sel: &Sig| {
        vec![
            Stmt::set(dst, zero_c1()),
            Stmt::for_each(
                &b,
                "(C+1)",
                vec![Stmt::set(
                    LVal::at_var(dst, &b),
                    (sel & vb.elem_var(&b, "N", n)).is_not(zero_n()).l_or(sel.is(zero_n()).l_and(now1.at_var(&b))),
                )],
            ),
        ]
    };
    next.push(Stmt::note("live: the stamped slots (a fresh stamp is never below now')"));
    next.push(Stmt::set(&live, stamped_q.e()));
    next.push(Stmt::note("R over the live slots; R2 over the live slots but rsel's"));
    next.extend(select(&rsel, &rlose, &live));
    next.push(Stmt::set(&live2, &live & !&rsel));
    next.extend(select(&rsel2, &rlose2, &live2));
    next.push(Stmt::set(&vb, Expr::zero_sym("((C+1)*N)", c1 * n)));
    next.push(Stmt::for_each(&b, "C", vec![for_(&k, vec![Stmt::set(LVal::at_row(&vb, &b, "N", &k), stamp_q.at_row(&k, "C", c, &b))])]));
    next.extend(read_out(&rmin, &rsel));
    next.extend(read_out(&rmin2, &rsel2));
    next.push(Stmt::note("use2: the grant takes effect on rsel's slot, i.e. it is an eligible real-time slot"));
    match &sreq_i {
        Some(sreq) => {
            next.push(Stmt::note("(rsel's slot is stamped, hence present and real time: its eligibility is sreq_i)"));
            next.push(Stmt::set(&use2, take_i.l_and((&rsel & sreq).is_not(zero_n()))));
        }
        None => next.push(Stmt::set(&use2, take_i.l_and(and_of(&[rt.e(), req_i.e(), rsel.e()]).is_not(zero_n())))),
    }
    let picked = use2.then_else(&rmin2, &rmin);
    let picked = if faults.vc_rebase_one_too_far {
        next.push(Stmt::note("MUTANT vc-rebase-off-by-one: subtracts R+1"));
        picked + &one_c1
    } else {
        picked
    };
    next.push(Stmt::note("the subtrahend: R or R2 on overflow, else 0 (every value is below 2^C)"));
    next.push(Stmt::set(&rsub, over.then_else(picked, zero_c1())));
    // top: the rebased now' = min(now' - rsub, 2^C - 1) is 2^C - 1, i.e. now' - rsub >= 2^C - 1,
    // formed for each subtrahend (0, R, R2 are all <= now') and picked as rsub is, so it
    // waits for no subtraction
    let ones_c = cat(&[Expr::one_bit(false), Expr::ones_sym("C", c)]);
    let top_of = |r: Expr| (&now1.e() - r).below(&ones_c).l_not();
    next.push(Stmt::note("now_top: the next now is 2^C-1 (then every stamp above now' ties with it)"));
    next.push(Stmt::set(&now_top, over.then_else(use2.then_else(top_of(rmin2.e()), top_of(rmin.e())), top_of(zero_c1()))));
    let v_j = v.elem_var(&j, "(C+1)", c1);
    next.push(Stmt::note("next cycle's comparisons, from the next stamps v before the rebase (§8.5): the"));
    next.push(Stmt::note("rebase keeps v[k] <= now' and v[k] < v[j] but where values reach 2^C-1"));
    next.push(Stmt::set(&sord_d, zero_nn()));
    if faults.vc_stale_order {
        next.push(Stmt::note("MUTANT vc-stale-order: sord loaded from this cycle's stamp registers"));
        next.push(pairwise(&sord_d, stamp_k.below(&stamp_j)));
    } else {
        next.push(pairwise(&sord_d, v_k.below(&v_j)));
    }
    next.push(Stmt::set(&sbelow_d, zero_n()));
    next.push(for_(&k, vec![Stmt::set(LVal::at_var(&sbelow_d, &k), now1.e().below(&v_k).l_not().l_or(&now_top))]));
    next.extend(rebase(now1.e(), false));
    next.extend(vec![
        Stmt::set(&now_n, nv.e()),
        Stmt::set(&now_d, now_n.e()),
        Stmt::set(&aux_d, Expr::zero_sym("(N*C)", n * c)),
        Stmt::set(&stamp_d, Expr::zero_sym("(N*C)", n * c)),
        Stmt::set(&mx_d, Expr::zero_sym("(N*C)", n * c)),
        Stmt::note("mx' = max(now', aux'[k]) rebased = the larger of the rebased now' and aux'[k]"),
        Stmt::note("(the rebase is monotone, §8.5): aux'[k] is the larger if fresh (s[k] >= now'),"),
        Stmt::note("else if now < aux[k] (now' <= aux[k]; equal values rebase alike)"),
        Stmt::set(&mx_aux, zero_n()),
        for_(&k, {
            let mut body = rebase(aux1_k.clone(), true);
            body.push(Stmt::set(LVal::elem_var(&aux_d, &k, "C", c), nv.e()));
            body.push(Stmt::note("every slot's stamp register is loaded: one that is not stamped' is never read"));
            body.extend(rebase(v_k.clone(), false));
            if faults.vc_stamp_not_rebased {
                body.push(Stmt::note("MUTANT vc-stamp-not-rebased: the stamp skips the rebase"));
                body.push(Stmt::set(LVal::elem_var(&stamp_d, &k, "C", c), xv.bits_sym(("C-1", c - 1), ("0", 0))));
            } else {
                body.push(Stmt::set(LVal::elem_var(&stamp_d, &k, "C", c), nv.e()));
            }
            // x -> min(max(x - R, 0), 2^C - 1) is monotone and now' >= R, so rebasing
            // max(now', aux'[k]) gives max(next now, next aux[k]) (§8.5); a fresh stamp
            // is aux'[k] and >= now', so the choice needs no comparison behind the adder
            let aux_later = now_wide.below(&aux_k);
            if faults.vc_max_from_stale_aux {
                body.push(Stmt::note("MUTANT vc-stale-max: mx' is chosen from aux[k], not aux'[k]"));
                body.push(Stmt::set(LVal::at_var(&mx_aux, &k), aux_later));
            } else {
                body.push(Stmt::set(LVal::at_var(&mx_aux, &k), fresh.at_var(&k).l_or(aux_later)));
            }
            body.push(Stmt::set(
                LVal::elem_var(&mx_d, &k, "C", c),
                mx_aux.at_var(&k).then_else(aux_d.elem_var(&k, "C", c), &now_n),
            ));
            body
        }),
        Stmt::set(&stamped_d, &stamped1),
        Stmt::note("be_ptr advances to winner+1 when a best-effort grant takes effect"),
        Stmt::set(&be_mask_d, &be_mask_q),
        Stmt::when(take_i.l_and((&gnt & &cand_be).is_not(zero_n())), vec![Stmt::set(&be_mask_d, -(&be_gnt << Expr::int(1)))]),
    ]);
    m.comb(next);
    crate::arbiters::assert_grant(&mut m, &gnt_o, &req_i, n)?;
    m.comment("Check: the precomputed mx[k] equals the formula it replaces, max(now, aux[k]).");
    let mx_ok = m.comb_reg("mx_ok", 1);
    m.comb(vec![
        Stmt::set(&mx_ok, Expr::one_bit(true)),
        for_(
            &k,
            vec![Stmt::when(
                mx_k.is_not(now_wide.below(&aux_k).then_else(&aux_k, &now_wide)),
                vec![Stmt::set(&mx_ok, Expr::one_bit(false))],
            )],
        ),
    ]);
    m.assert_always(&mx_ok, "mx_q holds max(now_q, aux_q[k]) for every slot k");
    m.comment("Check: the registered comparisons equal those of the stamp registers on stamped");
    m.raw_line("//    slots (sord may order two stamps that both hold 2^C-1, §8.5).");
    let cmp_ok = m.comb_reg("cmp_ok", 1);
    let sat_c = cat(&[Expr::one_bit(false), Expr::ones_sym("C", c)]);
    let both_live = stamped_q.at_var(&k).l_and(stamped_q.at_var(&j));
    let both_sat = stamp_k.is(&sat_c).l_and(stamp_j.is(&sat_c));
    let sord_kj = sord_q.at_row(&k, "N", n, &j);
    m.comb(vec![
        Stmt::set(&cmp_ok, Expr::one_bit(true)),
        for_(
            &k,
            vec![
                Stmt::when(
                    stamped_q.at_var(&k).l_and(sbelow_q.at_var(&k).is_not(now_wide.below(&stamp_k).l_not())),
                    vec![Stmt::set(&cmp_ok, Expr::one_bit(false))],
                ),
                for_(
                    &j,
                    vec![Stmt::when(
                        all_of(&[j.below(&k), both_live, both_sat.l_not(), sord_kj.is_not(stamp_k.below(&stamp_j))]),
                        vec![Stmt::set(&cmp_ok, Expr::one_bit(false))],
                    )],
                ),
            ],
        ),
    ]);
    m.assert_always(&cmp_ok, "sbelow_q, sord_q hold the stamps' comparisons");
    if let Some(sreq) = &sreq_i {
        m.comment("Check: a stamped slot's sreq_i is its eligibility (§8.4, invariant (I) of \"split\").");
        let sreq_ok = m.comb_reg("sreq_ok", 1);
        m.comb(vec![
            Stmt::set(&sreq_ok, Expr::one_bit(true)),
            for_(
                &k,
                vec![Stmt::when(
                    stamped_q.at_var(&k).l_and(sreq.at_var(&k).is_not(req_i.at_var(&k).l_and(rt.at_var(&k)))),
                    vec![Stmt::set(&sreq_ok, Expr::one_bit(false))],
                )],
            ),
        ]);
        m.assert_always(&sreq_ok, "sreq_i[k] = req_i[k] & rt[k] on stamped slots");
    }
    if let Some((rel_o, rt_o)) = rel_rt {
        m.comment("Iterative switch allocation (§6): rel[k] = s[k] - now on C+2 bits, signed.");
        let rel = m.comb_reg_sym("rel", n * (c + 2), "N*(C+2)");
        let wide2 = |x: Expr| cat(&[Expr::zero_sym("2", 2), x]);
        m.comb(vec![
            Stmt::set(&rel, Expr::zero_sym("(N*(C+2))", n * (c + 2))),
            for_(&k, vec![Stmt::set(LVal::elem_var(&rel, &k, "(C+2)", c + 2), wide(s_k.clone()) - wide2(now_q.e()))]),
        ]);
        m.assign(&rel_o, &rel);
        m.assign(&rt_o.lv(), &rt.e());
        m.comment("The rounds' grants: the rule of block 2 on pick<r>_req_i, with their own");
        m.raw_line("//    comparison matrix (block 2 reads req_i, which depends on the rounds' grants).");
        m.raw_line("/* verilator lint_off UNUSED */ // only the entries k > j are used");
        let pbeat = m.comb_reg_sym("pbeat", n * n, "N*N");
        m.raw_line("/* verilator lint_on UNUSED */");
        m.comb(vec![Stmt::set(&pbeat, zero_nn()), pairwise(&pbeat, pick_rt)]);
        for (r, (preq, pgnt)) in pick_io.iter().enumerate() {
            let tag = format!("p{}_", r + 1);
            let [crt, cbe, plose, pwin, psel, pbe, pg] = ["cand_rt", "cand_be", "lose", "win", "be_sel", "be_gnt", "gnt"]
                .map(|x| (format!("{tag}{x}"), if x == "lose" { n * n } else { n }, if x == "lose" { "N*N" } else { "N" }));
            let [crt, cbe, plose, pwin, psel, pbe, pg] =
                [crt, cbe, plose, pwin, psel, pbe, pg].map(|(name, w, sym)| m.comb_reg_sym(&name, w, sym));
            let (crt, cbe, plose, pwin, psel, pbe, pg) = (crt, cbe, plose, pwin, psel, pbe, pg);
            let masked = &cbe & &be_mask_q;
            let mut body = vec![
                Stmt::set(&crt, preq & &rt),
                Stmt::set(&cbe, preq & !&rt),
                Stmt::set(&plose, zero_nn()),
                lose_of(&plose, &pbeat, &crt),
                Stmt::set(&pwin, zero_n()),
                for_(&k, vec![Stmt::set(LVal::at_var(&pwin, &k), crt.at_var(&k).l_and(plose.elem_var(&k, "N", n).is(zero_n())))]),
                Stmt::set(&psel, masked.is_not(zero_n()).then_else(&masked, &cbe)),
                Stmt::set(&pbe, &psel & -&psel),
            ];
            body.push(if faults.vc_best_effort_first {
                Stmt::set(&pg, cbe.any().then_else(&pbe, &pwin))
            } else {
                Stmt::set(&pg, crt.any().then_else(&pwin, &pbe))
            });
            m.comb(body);
            m.assign(&pgnt, &pg);
            crate::arbiters::assert_grant(&mut m, pgnt, preq, n)?;
        }
    }
    m.finish()
}

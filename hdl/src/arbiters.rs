//! Arbiters (in the spirit of PULP common_cells): round robin and FIFO age.
//! The Fine-Grained VirtualClock scheduler is in `vclock`. Each builder takes
//! the parameter values of one instantiation so all widths are checked
//! concretely; the rendered Verilog uses the symbolic parameter names.

use crate::bits::{at_most_one_set, clk, rst, subset_of};
use crate::mutant::{Faults, Mutant};
use crate::verilog::{cat, Expr, LVal, Module, Result, Sig, Stmt};

/// What one kind of arbiter needs beyond the shared ports.
pub(crate) enum ArbiterSide {
    /// Round robin: nothing.
    None,
    /// Age order: the slots that become the youngest this cycle.
    Age { enter: Expr },
    /// Fine-Grained VirtualClock (§8): which slots hold a flit, and the
    /// Vtick of each slot's message; `sreq`, a stamped slot's eligibility
    /// from flip-flops (the split form, [`crate::vclock::Use2From`]).
    VirtualClock { present: Expr, vtick: Expr, sreq: Option<Expr> },
}

/// The checks every arbiter carries (§12): `gnt` one-hot or zero, and only
/// to slots that `req` requests (both `N` bits wide, symbolic).
pub(crate) fn assert_grant(m: &mut Module, gnt: &Sig, req: &Sig, n: u32) -> Result<()> {
    let (ones, zero) = (Expr::ones_sym("N", n), Expr::zero_sym("N", n));
    m.assert_always(&at_most_one_set(gnt, &ones, &zero), "gnt_o is one-hot or zero");
    m.assert_always(&subset_of(gnt, req, &zero), "gnt_o grants only requesters");
    Ok(())
}

/// The connections of an arbiter instance. Every arbiter has the same
/// shape (docs/microarchitecture.md §5): `req_i` (eligible slots) in,
/// `gnt_o` (one-hot or zero) out, `take_i` (the grant takes effect: the
/// arbiter updates its state), and the kind's side inputs.
pub(crate) fn arbiter_conns(req: Expr, take: Expr, gnt: Expr, side: ArbiterSide) -> Vec<(&'static str, Expr)> {
    let mut c = vec![clk(), rst(), ("req_i", req), ("take_i", take)];
    match side {
        ArbiterSide::None => {}
        ArbiterSide::Age { enter } => c.push(("enter_i", enter)),
        ArbiterSide::VirtualClock { present, vtick, sreq } => {
            c.push(("present_i", present));
            c.push(("vtick_i", vtick));
            if let Some(sreq) = sreq {
                c.push(("sreq_i", sreq));
            }
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
    rr_arbiter_picks(prefix, n, faults, 0)
}

/// The module name of an arbiter kind with `picks` extra grant evaluations
/// (the iterative switch allocator's rounds): `<base>` or `<base>_k<picks>`.
fn picks_name(base: String, picks: u32) -> String {
    if picks == 0 { base } else { format!("{base}_k{picks}") }
}

/// The port names of `picks` grant evaluations: (`pick<r>_req_i`, `pick<r>_gnt_o`), r = 1..=picks.
pub(crate) fn pick_port_names(picks: usize) -> Vec<(String, String)> {
    (1..=picks).map(|r| (format!("pick{r}_req_i"), format!("pick{r}_gnt_o"))).collect()
}

/// Declares the ports of `picks` extra grant evaluations, `pick<r>_req_i`
/// and `pick<r>_gnt_o` (N bits, r = 1..=picks), with their docs.
pub(crate) fn pick_ports(m: &mut Module, n: u32, picks: u32) -> Result<Vec<(Sig, Sig)>> {
    if picks > 0 {
        m.doc("pick<r>_req_i -> pick<r>_gnt_o (r = 1..K): the same grant rule on the same state");
        m.doc("for other requests (the rounds of the iterative switch allocator, §6); no state");
        m.doc("changes through them: the state follows req_i/gnt_o and take_i only.");
    }
    pick_port_names(picks as usize).iter().map(|(req, gnt)| Ok((m.input_sym(req, n, "N"), m.output_sym(gnt, n, "N")))).collect()
}

/// The round-robin arbiter [`rr_arbiter_with`], plus `picks` combinational
/// grant evaluations of other request vectors on the same pointer
/// (`<prefix>_rr_arbiter_k<picks>`); `picks = 0` is the plain arbiter.
pub(crate) fn rr_arbiter_picks(prefix: &str, n: u32, faults: &Faults, picks: u32) -> Result<Module> {
    let mut m = Module::new(picks_name(format!("{prefix}_rr_arbiter"), picks));
    m.doc("Round-robin arbiter: gnt_o is one-hot (or 0 without requests): the first");
    m.doc("requester in the order ptr, ptr+1, ..., N-1, 0, ..., ptr-1. When take_i,");
    m.doc("ptr becomes (grant + 1) mod N. ptr is stored as mask_q = indices >= ptr.");
    m.param("N", n as u64);
    m.input("clk_i", 1);
    m.input("rst_i", 1);
    let req = m.input_sym("req_i", n, "N");
    let adv = m.input("take_i", 1);
    let gnt = m.output_sym("gnt_o", n, "N");
    let pick_io = pick_ports(&mut m, n, picks)?;
    let (mask_q, mask_d) = m.register_sym("mask", n, Some("N"), &Expr::ones_sym("N", n));
    // `<tag>dbl`, `<tag>dbl_low`, `<tag>gnt`: the grant's 2N-bit work vectors and the grant.
    let declare = |m: &mut Module, tag: &str| -> Result<[Sig; 3]> {
        Ok([m.comb_reg_sym(&format!("{tag}dbl"), 2 * n, "2*N"), m.comb_reg_sym(&format!("{tag}dbl_low"), 2 * n, "2*N"), m.comb_reg_sym(&format!("{tag}gnt"), n, "N")])
    };
    // The grant of `req` on mask_q into `g`, through `dbl`/`low`.
    let grant = |m: &mut Module, tag: &str, req: &Sig, work: &[Sig; 3]| -> Result<()> {
        m.comb(chain_grant(n, tag, req, &mask_q, work, faults.rr_grant_not_onehot));
        Ok(())
    };
    let main = declare(&mut m, "")?;
    let above = m.comb_reg_sym("above", n, "N");
    let i = m.integer("i");
    // the carry-chain grant, and the indices above it from the grant
    let chain_above = Stmt::for_each(&i, "N-1", vec![Stmt::set(LVal::raw("above[i+1]", "above", 1), Expr::raw("above[i] | gnt[i]", 1))]);
    if faults.rr_grant_not_onehot {
        grant(&mut m, "", &req, &main)?;
        m.comb(vec![
            Stmt::note("indices above the grant (prefix OR)"),
            Stmt::set(&above, Expr::zero_sym("N", n)),
            // (loop-index text as before the typed emitter: no parentheses)
            chain_above,
        ]);
    } else {
        let chain = [chain_grant(n, "", &req, &mask_q, &main, false), vec![chain_above]].concat();
        prefix_grant(&mut m, n, &req, &mask_q, &main, &above, &i, chain)?;
    }
    // A separate block: take_i usually depends on gnt_o.
    m.comb(vec![Stmt::set(&mask_d, &mask_q), Stmt::when(&adv, vec![Stmt::set(&mask_d, &above)])]);
    m.assign(&gnt, &main[2]);
    assert_grant(&mut m, &gnt, &req, n)?;
    for (r, (preq, pgnt)) in pick_io.iter().enumerate() {
        let tag = format!("p{}_", r + 1);
        let work = declare(&mut m, &tag)?;
        grant(&mut m, &tag, preq, &work)?;
        m.assign(&pgnt, &work[2]);
        assert_grant(&mut m, pgnt, preq, n)?;
    }
    m.finish()
}

/// The carry-chain grant of `req` on `mask_q` into `work[2]` (`gnt`),
/// through the 2N-bit `work[0]` (`{req, req & mask}`) and `work[1]` (its
/// lowest set bit); `not_onehot` plants the `rr_grant_not_onehot` fault
/// (the lowest set bit of each half). Both the arbiter's own grant above
/// [`RR_PREFIX_MAX_N`] and its extra picks are these statements.
fn chain_grant(n: u32, tag: &str, req: &Sig, mask_q: &Sig, work: &[Sig; 3], not_onehot: bool) -> Vec<Stmt> {
    let (dbl, low, g) = (&work[0], &work[1], &work[2]);
    let one = cat(&[Expr::zero_sym("(2*N-1)", 2 * n - 1), Expr::one_bit(true)]);
    let (upper, lower) = (("2*N-1", 2 * n - 1), ("N", n));
    let (upper_n, lower_n) = (("N-1", n - 1), ("0", 0));
    let lowest_bit = if not_onehot {
        // (text as before the typed emitter: `~` without parentheses)
        let half = |h: &str| format!("({tag}dbl[{h}] & ~({tag}dbl[{h}] + {{N{{1'b1}}}}))");
        vec![
            Stmt::note("MUTANT rr-grant-not-onehot: the lowest set bit of each half"),
            Stmt::set(low, Expr::raw(format!("{{{}, {}}}", half("2*N-1:N"), half("N-1:0")), 2 * n)),
        ]
    } else {
        vec![Stmt::note("lowest set bit"), Stmt::set(low, dbl & !(dbl - &one))]
    };
    [
        vec![Stmt::note("the masked requests first, then all of them"), Stmt::set(dbl, cat(&[req.e(), req & mask_q]))],
        lowest_bit,
        vec![Stmt::set(g, low.bits_sym(upper_n, lower_n) | low.bits_sym(upper, lower))],
    ]
    .concat()
}

/// Up to this many requesters the round-robin grant is formed from prefix
/// ORs (LUT logic); above it from one carry chain over `{req, req & mask}`.
/// On ECP5 the carry chain's entry and exit routing cost more than the LUT
/// levels at small N: point B's arbiter (N = ports) ended the registered
/// router's critical path with 5.3 ns from its requests through the chain
/// to the pointer (docs/benchmarks.md, *Stage-4 timing*). Large N (the VC
/// allocator of a 16-VC switch) keeps the chain, which is shorter there.
const RR_PREFIX_MAX_N: u32 = 16;

/// The round-robin grant of `req` on `mask_q` into `work[2]` (`gnt`) and
/// `above` (the indices above the grant), both as functions of the
/// requests directly: with `mreq = req & mask_q` (the requesters at or
/// after the pointer), requester i wins iff no masked requester lies below
/// it (when i is masked) or there is no masked requester and no requester
/// below it (when i is not); the winner lies below index k iff a masked
/// requester lies below k, or none is masked and some requester lies below
/// k. The same function as `chain` (the arbiter's [`chain_grant`] then
/// `above` from the grant), which a `generate`-free constant `if` keeps
/// for N above [`RR_PREFIX_MAX_N`].
#[allow(clippy::too_many_arguments)]
fn prefix_grant(m: &mut Module, n: u32, req: &Sig, mask_q: &Sig, work: &[Sig; 3], above: &Sig, i: &Expr, chain: Vec<Stmt>) -> Result<()> {
    let (dbl, low, g) = (&work[0], &work[1], &work[2]);
    let mreq = m.comb_reg_sym("mreq", n, "N");
    let seen_m = m.comb_reg("seen_masked", 1);
    let seen_r = m.comb_reg("seen_req", 1);
    let none_m = m.comb_reg("no_masked", 1);
    let prefix = vec![
        Stmt::note("prefix form: the winner from running ORs of the (masked) requests"),
        Stmt::set(&none_m, mreq.any().l_not()),
        Stmt::set(&seen_m, Expr::one_bit(false)),
        Stmt::set(&seen_r, Expr::one_bit(false)),
        Stmt::for_each(
            i,
            "N",
            vec![
                Stmt::set(LVal::at_var(above, i), seen_m.l_or(none_m.l_and(&seen_r))),
                Stmt::set(LVal::at_var(g, i), req.at_var(i).l_and(mask_q.at_var(i).then_else(seen_m.l_not(), none_m.l_and(seen_r.l_not())))),
                Stmt::set(&seen_m, seen_m.l_or(mreq.at_var(i))),
                Stmt::set(&seen_r, seen_r.l_or(req.at_var(i))),
            ],
        ),
    ];
    m.comb(vec![
        Stmt::set(&mreq, req & mask_q),
        Stmt::set(dbl, Expr::zero_sym("2*N", 2 * n)),
        Stmt::set(low, Expr::zero_sym("2*N", 2 * n)),
        Stmt::set(g, Expr::zero_sym("N", n)),
        Stmt::set(above, Expr::zero_sym("N", n)),
        Stmt::set(&none_m, Expr::one_bit(false)),
        Stmt::set(&seen_m, Expr::one_bit(false)),
        Stmt::set(&seen_r, Expr::one_bit(false)),
        Stmt::when_else(Expr::raw(format!("N <= {RR_PREFIX_MAX_N}"), 1), prefix, chain),
    ]);
    Ok(())
}

/// When the age order takes in the slots that enter in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AgeEntry {
    /// `older_q` is the order; `enter_i` updates it at the end of the cycle.
    Immediate,
    /// Registered switch allocation (§6 *Registered switch allocation*,
    /// *The age order takes a VA grant one cycle later*): `enter_i` is
    /// registered (`entered_q`) and `prev_older_q` holds the order of the
    /// previous cycle; the order the grant reads, `older`, is
    /// `prev_older_q` updated with `entered_q`, which is the value the
    /// immediate form's `older_q` has. No path runs from `enter_i` (stage
    /// RV's VA grant) into the order register.
    Registered,
}

/// `<prefix>_age_arbiter`: FIFO (age) arbiter over N slots
/// (docs/microarchitecture.md §5). `older[i*N+j]` = slot i is older than or
/// equal to slot j (the diagonal is always 1). Entering slots become younger
/// than every other slot; among themselves the lower index is older.
pub fn age_arbiter(prefix: &str, n: u32) -> Result<Module> {
    age_arbiter_picks(prefix, n, 0, AgeEntry::Immediate, &Faults::default())
}

/// [`age_arbiter`] plus `picks` combinational grant evaluations of other
/// request vectors on the same order (`<prefix>_age_arbiter_k<picks>`),
/// taking entries as `entry` says (and, with `entry` registered, point A's
/// [`Mutant::SaAgeEntryLate`]).
pub(crate) fn age_arbiter_picks(prefix: &str, n: u32, picks: u32, entry: AgeEntry, faults: &Faults) -> Result<Module> {
    let mut m = Module::new(picks_name(format!("{prefix}_age_arbiter"), picks));
    m.doc("FIFO (age-matrix) arbiter: gnt_o is the oldest requesting slot (one-hot or 0).");
    m.doc("Slots with enter_i set become the youngest (lower index older among them).");
    m.doc("older[i*N+j]: slot i is older than slot j, or i == j. Reset: lower index older.");
    if entry == AgeEntry::Registered {
        m.doc("enter_i is registered (entered_q) and applied to the previous cycle's order");
        m.doc("(prev_older_q) in the next cycle: older equals the order with enter_i applied");
        m.doc("at the end of the cycle, and enter_i has no path into a register but entered_q.");
    }
    m.param("N", n as u64);
    m.input("clk_i", 1);
    m.input("rst_i", 1);
    m.doc("take_i is unused: the order changes only when slots enter (the shared arbiter shape).");
    let elig = m.input_sym("req_i", n, "N");
    m.input("take_i", 1);
    let enter = m.input_sym("enter_i", n, "N");
    let gnt = m.output_sym("gnt_o", n, "N");
    let pick_io = pick_ports(&mut m, n, picks)?;
    let nn = n * n;
    let init = m.wire_sym("older_init", nn, "N*N");
    let g = m.comb_reg_sym("gnt", n, "N");
    let i = m.integer("i");
    let for_i = |body: Vec<Stmt>| Stmt::for_each(&i, "N", body);
    // Reset order: row gi has the bits j >= gi (lower index older).
    let gi = Expr::raw("gi", 32);
    m.generate_for("gi", "N", "g_init", vec![(LVal::elem_var(&init, &gi, "N", n), &Expr::ones_sym("N", n) << &gi)]);
    // `to` := the order `from` with the slots `entering` made the youngest.
    let update = |to: &Sig, from: &Sig, entering: &Sig| {
        let to_row = LVal::elem_var(to, &i, "N", n);
        vec![
            Stmt::set(to, from),
            for_i(vec![Stmt::when_else(
                entering.at_var(&i),
                vec![Stmt::set(&to_row, entering & init.elem_var(&i, "N", n))],
                vec![Stmt::set(&to_row, from.elem_var(&i, "N", n) | entering)],
            )]),
        ]
    };
    let older = match entry {
        AgeEntry::Immediate => {
            let (older_q, older_d) = m.register_sym("older", nn, Some("N*N"), &init);
            m.comb(update(&older_d, &older_q, &enter));
            older_q
        }
        AgeEntry::Registered => {
            let (entered_q, entered_d) = m.register_sym("entered", n, Some("N"), Expr::zero_sym("N", n));
            let (prev_q, prev_d) = m.register_sym("prev_older", nn, Some("N*N"), &init);
            let older = m.comb_reg_sym("older", nn, "N*N");
            let mut body = vec![Stmt::set(&entered_d, &enter)];
            body.extend(update(&older, &prev_q, &entered_q));
            body.push(Stmt::set(&prev_d, &older));
            m.comb(body);
            if faults.sa_age_entry_late {
                m.raw_line(&format!("// mutant {}: the grant misses last cycle's entries", Mutant::SaAgeEntryLate.name()));
                prev_q
            } else {
                older
            }
        }
    };
    // the oldest slot of `req` into `g`
    let grant = |m: &mut Module, req: &Sig, g: &Sig| {
        m.comb(vec![
            Stmt::set(g, Expr::zero_sym("N", n)),
            for_i(vec![Stmt::set(LVal::at_var(g, &i), req.at_var(&i) & (older.elem_var(&i, "N", n) | !req).every())]),
        ])
    };
    grant(&mut m, &elig, &g);
    m.assign(&gnt, &g);
    assert_grant(&mut m, &gnt, &elig, n)?;
    for (r, (preq, pgnt)) in pick_io.iter().enumerate() {
        let pg = m.comb_reg_sym(&format!("p{}_gnt", r + 1), n, "N");
        grant(&mut m, preq, &pg);
        m.assign(&pgnt, &pg);
        assert_grant(&mut m, pgnt, preq, n)?;
    }
    m.raw_line("/* verilator lint_off UNUSED */");
    m.raw_line("wire unused_take = take_i;");
    m.raw_line("/* verilator lint_on UNUSED */");
    m.finish()
}

//! Stage 4 (switch traversal) building blocks, one module per job, each
//! instantiated once per input or output port of the router top.
//!
//! They hold the logic that grows with the router (readiness lookups of
//! every output VC buffer, candidate and crossbar multiplexers, output-VC
//! one-hots): as separate modules, a hierarchical synthesis maps each of
//! them once instead of N times inside the top (the 8-port, 16-VC routers'
//! tops were 85-92 % of their unique cells), and the top reads as wiring.

use crate::arbiters::{arbiter_conns, pick_port_names, ArbiterSide};
use crate::bits::{at_most_one_set, onehot_of, onehot_of_pair, subset_of, DECODER_COMPARISONS_MAX};
use crate::dims::Dims;
use wormqos_config::FlitOrder;
use crate::verilog::{any_of, cat, cat_lsb, num, onehot_select, Expr, HdlError, Module, Result, Sig};

/// `<prefix>_st_ready`: stage 4 readiness of one input port's M VCs.
/// `ready_o[v]` = `st_req_i[v]` and the output VC buffer `route*M + ovc` of
/// VC v has room (`ob_full_i`, flat over every output VC of the router).
///
/// Registered switch allocation (§6), `<prefix>_sa_ready`: the room SA
/// needs counts the flit that enters the buffer now (`pend_i[v]`: VC v's
/// flit crosses this cycle): `room2_i` (two free entries) instead of not full.
pub(crate) fn st_ready(d: &Dims) -> Result<Module> {
    let (m, vw, pw, nm, iw) = (d.vcs, d.vc_id_width, d.port_id_width, d.all_vcs(), d.flat_vc_id_width);
    let reg = d.registered();
    let mut md = Module::new(if reg { format!("{}_sa_ready", d.prefix) } else { format!("{}_st_ready", d.prefix) });
    if reg {
        md.doc("Switch allocation readiness of one input port's VCs (§6, registered): a VC with a");
        md.doc("flit for SA is ready iff the output VC buffer it is allocated (route*M + ovc) has");
        md.doc("room for it, counting the flit that enters it now (pend_i: room2_i, else not full_i).");
    } else {
        md.doc("Stage 4 readiness of one input port's VCs (§6): a VC with a flit to move is");
        md.doc("ready iff the output VC buffer it is allocated (route*M + ovc) has room.");
    }
    if d.split() {
        md.doc("Split switch allocation (§6): two flits of a VC may be in flight, the crossing one");
        md.doc("and the one at point B: pend_i[v], at least one; pend2_i[v], both (room3_i, room for");
        md.doc("three).");
    }
    let full = md.input("ob_full_i", nm);
    let room2_pend = if reg { Some((md.input("ob_room2_i", nm), md.input("pend_i", m))) } else { None };
    let room3_pend2 = if d.split() { Some((md.input("ob_room3_i", nm), md.input("pend2_i", m))) } else { None };
    if d.faults.split_room_counts_one {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT split-room-counts-one");
        if let Some((r3, p2)) = &room3_pend2 {
            md.raw_line(format!("wire unused_pend2 = ^{{{}, {}}};", r3.name, p2.name));
        }
        md.raw_line("/* verilator lint_on UNUSED */");
    }
    // split: with both flits in flight the buffer needs room for three
    let room3_pend2 = room3_pend2.filter(|_| !d.faults.split_room_counts_one);
    let req = md.input("st_req_i", m);
    // Registered: the input VCs' output VC buffers come one-hot (`dst_i`,
    // registered at the VA grant), so each room look-up is an AND-OR of
    // flip-flops instead of a multiplexer addressed by route and ovc.
    let (route_ovc, dst) = if reg {
        md.doc("dst_i[v*NM +: NM]: VC v's output VC buffer, one-hot.");
        (None, Some(md.input("dst_i", m * nm)))
    } else {
        (Some((md.input("route_i", m * pw), md.input("ovc_i", m * vw))), None)
    };
    let ready = md.output("ready_o", m);
    // split VirtualClock (§8.4): a stamped VC has no flit at point B, so its
    // readiness is the room counting the crossing flit alone (no presence terms)
    let sroom = if d.vclock_stamped_room() {
        md.doc("sroom_o[v]: the room of VC v's output VC buffer counting the crossing flit alone");
        md.doc("(sgp_i[v]: VC v's flit crosses now): VC v's readiness whenever point A's scheduler");
        md.doc("has it stamped (§8.4); it reads flip-flops only, not the candidate at point B.");
        Some((md.input("sgp_i", m), md.output("sroom_o", m)))
    } else {
        None
    };
    let mut srooms = vec![];
    if let (Some((sgp, _)), true) = (&sroom, d.faults.split_stamped_room_ignores_pend) {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT split-stamped-room-ignores-pend");
        md.raw_line(format!("wire unused_sgp = ^{};", sgp.name));
        md.raw_line("/* verilator lint_on UNUSED */");
    }
    if d.faults.sa_room_ignores_pend {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT sa-room-ignores-pend");
        if let Some((r2, p)) = &room2_pend {
            md.raw_line(format!("wire unused_pend = ^{{{}, {}}};", r2.name, p.name));
        }
        md.raw_line("/* verilator lint_on UNUSED */");
    }
    let mut bits = vec![];
    for v in 0..m {
        let room = match (&route_ovc, &dst) {
            (Some((route, ovc)), _) => {
                let r = route.field(v * pw, pw);
                let u = ovc.field(v * vw, vw);
                let idx = r.zext_to(iw).mul(&num(iw, m as u64))? + &u.zext_to(iw);
                let dst = md.wire_of(&format!("dst{v}"), &idx);
                match &room2_pend {
                    Some((room2, pend)) if !d.faults.sa_room_ignores_pend => pend.at(v).then_else(room2.at_dyn(&dst), full.at_dyn(&dst).l_not()),
                    _ => full.at_dyn(&dst).l_not(),
                }
            }
            (None, Some(dst)) => {
                let oh = md.wire_of(&format!("dst{v}"), &dst.field(v * nm, nm));
                let not_full = (&oh & &!&full.e()).any();
                // the room counting a flit that enters the buffer now when `crossing`
                // is 1 (two free entries), else not full; registered SA always has room2
                let room_if_crossing = |crossing: Expr| match &room2_pend {
                    Some((room2, _)) => Ok(crossing.then_else((&oh & &room2.e()).any(), not_full.clone())),
                    None => Err(HdlError::Invalid("registered readiness without room2".into())),
                };
                let room = match &room2_pend {
                    Some((_, pend)) if !d.faults.sa_room_ignores_pend => room_if_crossing(pend.at(v))?,
                    _ => not_full.clone(),
                };
                if let Some((sgp, _)) = &sroom {
                    let sroom_v = if d.faults.split_stamped_room_ignores_pend {
                        md.comment(format!("MUTANT split-stamped-room-ignores-pend: VC {v}'s stamped room ignores the crossing flit"));
                        not_full.clone()
                    } else {
                        room_if_crossing(sgp.at(v))?
                    };
                    srooms.push(md.wire_of(&format!("sroom{v}"), &sroom_v).e());
                }
                match &room3_pend2 {
                    Some((room3, pend2)) => pend2.at(v).then_else((&oh & &room3.e()).any(), room),
                    None => room,
                }
            }
            (None, None) => return Err(HdlError::Invalid("st_ready without output VCs".into())),
        };
        bits.push(req.at(v).l_and(&room));
    }
    md.assign(&ready, &cat_lsb(&bits));
    if let Some((_, o)) = &sroom {
        md.assign(o, &cat_lsb(&srooms));
    }
    md.finish()
}

/// `<prefix>_vc_spread`: the N*M-bit vector of output VCs `(route, ovc)`
/// named by one input port's selected VCs (`sel_i`), as an OR of one-hots.
/// Used for the full crossbar's pushes and tail releases and for
/// preemption's case (b) releases (§9.4); the top ORs the N ports' vectors.
pub(crate) fn vc_spread(d: &Dims) -> Result<Module> {
    let (n, m, vw, pw, nm) = (d.ports, d.vcs, d.vc_id_width, d.port_id_width, d.all_vcs());
    let mut md = Module::new(format!("{}_vc_spread", d.prefix));
    md.doc("Output VCs named by one input port's selected VCs: bit route*M + ovc of");
    md.doc("spread_o is set for every VC v with sel_i[v] (one-hot per VC, ORed).");
    let sel = md.input("sel_i", m);
    let route = md.input("route_i", m * pw);
    let ovc = md.input("ovc_i", m * vw);
    let spread = md.output("spread_o", nm);
    let mut terms = vec![];
    for v in 0..m {
        let r = route.field(v * pw, pw);
        let u = ovc.field(v * vw, vw);
        let dec = onehot_of_pair(&mut md, &format!("vc{v}"), &r, n, &u, m)?;
        let oh = md.wire_of(&format!("vc{v}_oh"), &sel.at(v).then_else(&dec, &Expr::zero(nm)));
        terms.push(oh);
    }
    md.assign(&spread, &any_of(&terms));
    md.finish()
}

/// The scheduler point A instantiates (multiplexed crossbar).
pub(crate) enum PointAArbiter<'a> {
    /// `fifo`: age order, entered on a VA grant.
    Age(&'a Module),
    /// `virtualclock` (§8).
    VirtualClock(&'a Module),
    /// `round_robin`.
    RoundRobin(&'a Module),
}

/// Whether `<prefix>_point_a` has a `won_i` input.
pub(crate) fn point_a_needs_won(d: &Dims, arb: &PointAArbiter) -> bool {
    !matches!(arb, PointAArbiter::Age(_)) || d.block_size() > 1 || d.acceleration()
}

/// Whether `<prefix>_point_a` has a `cand_tail_i` input: with shared input
/// buffers, when the block hold or acceleration needs the moving flit's tail
/// (not under the blk-hold-past-tail mutant, which ignores it).
pub(crate) fn point_a_needs_cand_tail(d: &Dims) -> bool {
    !d.registered() && d.shared_ib() && (d.acceleration() || (d.block_size() > 1 && !d.faults.block_hold_past_tail))
}

/// Whether `<prefix>_point_a` has a `gtail_i` input: registered switch
/// allocation with a block hold (§9.3), which ends when the granted flit
/// (the one behind a crossing flit, §6) is a tail.
pub(crate) fn point_a_needs_gtail(d: &Dims) -> bool {
    d.sa_reads_granted_tail()
}

/// `<prefix>_point_a`: contention point A of one input port (multiplexed
/// crossbar, §6 stage 4 (A)): the configured scheduler, block multiplexing
/// and flit acceleration (§9.3, §9.5) pick one candidate among the ready
/// VCs; its route, output VC and front flit go to the point B arbiters.
/// `won_i`: the candidate won at point B (the grant takes effect).
/// With shared input buffers ([`Dims::shared_ib`]) the input port reads the
/// candidate's flit itself, so point A passes no flit on and takes only the
/// candidate's tail bit (`cand_tail_i`, for the block hold).
///
/// With the iterative switch allocator (§6 *Switch allocation*, k rounds)
/// the arbiter and `rr_m` have k picks: round r's candidate `cand<r>_o` is
/// point A's rule on R_r, the ready VCs whose route is not in `mo<r>_i` (the
/// outputs matched before round r; none in round 1), none if the port was
/// matched in an earlier round (`won<q>_i`, q < r). The arbiters' state
/// follows the matched candidate: their `req_i` is that VC alone when the
/// port is matched (so their grant `cand_o` is it and `take_i` updates the
/// state as for a winner at B), else every ready VC (the block hold ends
/// only if its slot is not ready at all, §9.3 step 1).
pub(crate) fn point_a(d: &Dims, arb: PointAArbiter, rr_m: &Module) -> Result<Module> {
    let (m, fw, vw, pw) = (d.vcs, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let rounds = d.switch_rounds().unwrap_or(0);
    let mut md = Module::new(format!("{}_point_a", d.prefix));
    md.doc("Point A of one input port (§6 stage 4): one candidate among the ready VCs,");
    md.doc(if d.shared_ib() { "with its route and output VC; cand_o is one-hot" } else { "with its route, output VC and front flit {head, tail, ..}; cand_o is one-hot" });
    if rounds == 0 {
        md.doc("(all zero when no VC is ready). won_i: the candidate won at point B.");
    } else {
        md.doc("(all zero when no VC is ready). Iterative switch allocation, rounds r = 1..K:");
        md.doc("cand<r>_o: round r's candidate among the ready VCs whose route is not in mo<r>_i");
        md.doc("(outputs matched before round r), zero once the port is matched; won<r>_i: the port");
        md.doc("was matched in round r. cand_o is then the matched candidate.");
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let ready = md.input("ready_i", m);
    // The age arbiter enters on VA grants, not on wins; without block
    // multiplexing or acceleration it does not need to know the outcome.
    let (won, won_r, mo_r) = if rounds == 0 {
        (if point_a_needs_won(d, &arb) { Some(md.input("won_i", 1)) } else { None }, vec![], vec![])
    } else {
        let won_r = (1..=rounds).map(|r| md.input(&format!("won{r}_i"), 1)).collect::<Vec<_>>();
        let mo_r = (2..=rounds).map(|r| md.input(&format!("mo{r}_i"), d.ports)).collect::<Vec<_>>();
        (Some(md.wire_of("won", &any_of(&won_r.iter().map(|w| w).collect::<Vec<_>>()))), won_r, mo_r)
    };
    // (split: point B reads the candidate's route from the input port)
    let route_in = if d.split() { None } else { Some(md.input("route_i", m * pw)) };
    let route = || route_in.clone().ok_or_else(|| HdlError::Invalid("point A without routes".into()));
    let ovc = if d.registered() { None } else { Some(md.input("ovc_i", m * vw)) };
    let front = if d.shared_ib() || d.registered() { None } else { Some(md.input("front_i", m * fw)) };
    let cand_tail = if point_a_needs_cand_tail(d) { Some(md.input("cand_tail_i", 1)) } else { None };
    let gtail = if point_a_needs_gtail(d) { Some(md.input("gtail_i", m)) } else { None };
    let vclock = matches!(arb, PointAArbiter::VirtualClock(_));
    let (arb, side) = match arb {
        PointAArbiter::Age(a) => (a, ArbiterSide::Age { enter: md.input("enter_i", m).e() }),
        PointAArbiter::VirtualClock(a) => {
            let present = md.input("st_req_i", m).e();
            let vtick = md.input("vtick_i", m * d.vtick.width).e();
            // split (§8.4): the stamped slots' eligibility, the room alone
            let sreq = if d.vclock_stamped_room() { Some(md.input("sroom_i", m).e()) } else { None };
            (a, ArbiterSide::VirtualClock { present, vtick, sreq })
        }
        PointAArbiter::RoundRobin(a) => (a, ArbiterSide::None),
    };
    let accel = if d.acceleration() { Some(md.input("accel_i", m)) } else { None };
    let cand_o = md.output("cand_o", m);
    // (iterative: point B reads each round's route instead; split: the
    // route of the registered candidate, from the input port)
    let cand_route_o = if rounds == 0 && !d.split() { Some(md.output("cand_route_o", pw)) } else { None };
    // (registered: the crossbar reads the grant registers instead)
    let cand_ovc_o = if d.registered() { None } else { Some(md.output("cand_ovc_o", vw)) };
    let cand_flit_o = if front.is_some() { Some(md.output("cand_flit_o", fw)) } else { None };
    let mut round_o = vec![];
    for r in 1..=rounds {
        let c = md.output(&format!("cand{r}_o"), m);
        let cr = md.output(&format!("cand{r}_route_o"), pw);
        let rel = if vclock {
            let cw = d.virtual_clock().map_or(0, |v| v.clock_width);
            Some((md.output(&format!("cand{r}_rel_o"), cw + 2), md.output(&format!("cand{r}_rt_o"), 1)))
        } else {
            None
        };
        round_o.push((c, cr, rel));
    }

    let cand = md.wire("cand", m);
    // Iterative: each round's candidate, its eligible VCs R_r, and what the
    // arbiters' state follows (`state_req`).
    let mut cand_r = vec![];
    let mut ready_r = vec![];
    let mut state_req = ready.e();
    if rounds > 0 {
        md.comment("Iterative switch allocation (§6): R_r = ready VCs of an unmatched port whose");
        md.raw_line("// route is not matched yet; the arbiters' state follows the matched candidate.");
        let route = route()?;
        let routes = (0..m).map(|v| route.field(v * pw, pw)).collect::<Vec<_>>();
        for r in 0..rounds as usize {
            cand_r.push(md.wire(&format!("cand{}", r + 1), m));
            let rr = if r == 0 {
                ready.e()
            } else {
                let unmatched = any_of(&won_r[..r].iter().map(|w| w).collect::<Vec<_>>()).l_not();
                let free = if d.faults.sa_ignores_matched_outputs {
                    // MUTANT sa-ignores-mo: R_r ignores MO
                    unmatched.rep(m)
                } else {
                    let free = cat_lsb(&routes.iter().map(|x| mo_r[r - 1].at_dyn(x).l_not()).collect::<Vec<_>>());
                    &free & &unmatched.rep(m)
                };
                md.wire_of(&format!("ready{}", r + 1), &(&ready & &free)).e()
            };
            ready_r.push(rr);
        }
        if d.faults.sa_ignores_matched_outputs && !mo_r.is_empty() {
            md.raw_line("/* verilator lint_off UNUSED */ // MUTANT sa-ignores-mo");
            md.raw_line(format!("wire unused_mo = ^{{{}}};", mo_r.iter().map(|x| x.name.clone()).collect::<Vec<_>>().join(", ")));
            md.raw_line("/* verilator lint_on UNUSED */");
        }
        let matched = any_of(&cand_r.iter().zip(&won_r).map(|(c, w)| c & &Expr::repl(m, &w.e()).unwrap_or_else(Expr::failed)).collect::<Vec<_>>());
        let matched = md.wire_of("matched_vc", &matched);
        let won = won.as_ref().expect("won with rounds");
        state_req = md.wire_of("state_req", &won.then_else(&matched, &ready)).e();
        md.assert_always(&at_most_one_set(cat_lsb(&won_r), &Expr::ones(rounds), &Expr::zero(rounds)), "matched in at most one round");
        for (r, (c, w)) in cand_r.iter().zip(&won_r).enumerate() {
            md.assert_always(&w.l_not().l_or(c.any()), &format!("matched in round {} with a candidate", r + 1));
            md.assert_always(&subset_of(c, &ready_r[r], &Expr::zero(m)), &format!("round {} candidate in R_r", r + 1));
        }
    }
    let (elig, elig_r) = if d.block_size() > 1 || d.acceleration() {
        let tail = match (&front, &cand_tail) {
            // registered: the granted flit's tail (cand is one-hot)
            _ if gtail.is_some() => (&cand & gtail.as_ref().map_or(Expr::zero(m), |g| g.e())).any(),
            (Some(f), _) => {
                let tails = (0..m).map(|v| f.e().bit(v * fw + fw - 2)).collect::<Result<Vec<_>>>()?;
                onehot_select(&cand, &tails)
            }
            (None, Some(t)) => t.e(),
            // blk-hold-past-tail: the hold ignores tails
            (None, None) => Expr::one_bit(false),
        };
        let acc = accel.as_ref().map(|a| a.e());
        let won = won.as_ref().expect("won_i with block multiplexing or acceleration");
        crate::block_mux::sched_wrap(&mut md, d, "a", &state_req, acc.as_ref(), &cand.e(), &won.e(), &tail, rr_m, &ready_r)?
    } else {
        (state_req, ready_r)
    };
    // The age arbiter ignores take_i: point A then has no won_i.
    let take = won.as_ref().map_or(Expr::one_bit(false), |w| w.e());
    let names = pick_port_names(rounds as usize);
    let mut conns: Vec<(&str, Expr)> = arbiter_conns(elig, take, cand.e(), side);
    for (r, (e, c)) in elig_r.iter().zip(&cand_r).enumerate() {
        conns.push((&names[r].0, e.clone()));
        conns.push((&names[r].1, c.e()));
    }
    let rel_rt = if rounds > 0 && vclock {
        let cw = d.virtual_clock().map_or(0, |v| v.clock_width);
        let (rel, rt) = (md.wire("rel", m * (cw + 2)), md.wire("rt", m));
        conns.push(("rel_o", rel.e()));
        conns.push(("rt_o", rt.e()));
        Some((rel, rt, cw + 2))
    } else {
        None
    };
    md.instance(arb, "u_arb", &conns);
    let sel = |all: &Expr, w: u32| -> Result<Expr> {
        let ins = (0..m).map(|v| all.part(v * w, w)).collect::<Result<Vec<_>>>()?;
        Expr::onehot_mux(&cand.e(), &ins)
    };
    md.assign(&cand_o.lv(), &cand.e());
    if let Some(o) = cand_route_o {
        md.assign(&o.lv(), &sel(&route()?.e(), pw)?);
    }
    if let (Some(o), Some(ovc)) = (cand_ovc_o, &ovc) {
        md.assign(&o.lv(), &sel(&ovc.e(), vw)?);
    }
    if let Some((o, f)) = cand_flit_o.zip(front.as_ref()) {
        md.assign(&o.lv(), &sel(&f.e(), fw)?);
    }
    for ((c_o, cr_o, rel_o), c) in round_o.iter().zip(&cand_r) {
        let parts = |all: &Expr, w: u32| (0..m).map(|v| all.part(v * w, w)).collect::<Result<Vec<_>>>();
        md.assign(&c_o, &c);
        md.assign(&cr_o.lv(), &onehot_select(c, &parts(&route()?.e(), pw)?));
        if let (Some((rel_o, rt_o)), Some((rel, rt, rw))) = (rel_o, &rel_rt) {
            md.assign(&rel_o.lv(), &onehot_select(c, &parts(&rel.e(), *rw)?));
            md.assign(&rt_o, &(c & rt).any());
        }
    }
    md.finish()
}

/// Point B's crossbar column: the granted input port's candidate flit
/// (`flit_o`) and the push into its output VC (`push_o`, one-hot, zero
/// without a grant), from the candidates' output VCs and flits (`ins`).
fn crossbar_out(md: &mut Module, d: &Dims, gnt: &Sig, any: &Sig, ins: [&Sig; 2], outs: (Option<&Sig>, &Sig, &Sig)) -> Result<()> {
    let (n, m, fw, vw) = (d.ports, d.vcs, d.buf_flit_width, d.vc_id_width);
    let ([ovcs, flits], (gnt_o, push_o, flit_o)) = (ins, outs);
    let parts = |all: &Expr, w: u32| (0..n).map(|p| all.part(p * w, w)).collect::<Result<Vec<_>>>();
    let ovc = md.wire_of("ovc", &onehot_select(gnt, &parts(&ovcs.e(), vw)?));
    if let Some(g) = gnt_o {
        md.assign(&g.lv(), &gnt.e());
    }
    md.assign(&flit_o.lv(), &onehot_select(gnt, &parts(&flits.e(), fw)?));
    md.assign(&push_o, &any.then_else(&onehot_of(&ovc, m), &Expr::zero(m)));
    Ok(())
}

/// A single-cycle point B's crossbar inputs: the candidates' output VCs and
/// flits (none with registered switch allocation, whose crossbar is
/// `<prefix>_st_xbar`).
fn xbar_inputs(md: &mut Module, d: &Dims) -> Result<Option<(Sig, Sig)>> {
    if d.registered() {
        return Ok(None);
    }
    Ok(Some((md.input("cand_ovc_i", d.ports * d.vc_id_width), md.input("cand_flit_i", d.ports * d.buf_flit_width))))
}

/// A single-cycle point B's crossbar outputs: the push and the flit.
fn xbar_outputs(md: &mut Module, d: &Dims) -> Result<Option<(Sig, Sig)>> {
    if d.registered() {
        return Ok(None);
    }
    Ok(Some((md.output("push_o", d.vcs), md.output("flit_o", d.buf_flit_width))))
}

/// `<prefix>_st_xbar`: stage ST of one output port with registered switch
/// allocation (§6): the input port whose registered grant goes to this
/// output (`hit_i`, one-hot or zero: SA's matching gives an output at most
/// one input port) pushes its crossing flit into its output VC.
pub(crate) fn st_xbar(d: &Dims) -> Result<Module> {
    let (n, fw, vw) = (d.ports, d.buf_flit_width, d.vc_id_width);
    let mut md = Module::new(format!("{}_st_xbar", d.prefix));
    md.doc("Stage ST of one output port (§6, registered switch allocation): hit_i[p]: input");
    md.doc("port p's registered grant crosses to this output now; its flit (flit_o) is pushed");
    md.doc("into its output VC sg_ovc_i[p] (push_o, one-hot, zero without a hit).");
    let hit = md.input("hit_i", n);
    let ovcs = md.input("sg_ovc_i", n * vw);
    let flits = md.input("sg_flit_i", n * fw);
    let push_o = md.output("push_o", d.vcs);
    let flit_o = md.output("flit_o", fw);
    let any = md.wire_of("any", &hit.any());
    crossbar_out(&mut md, d, &hit, &any, [&ovcs, &flits], (None, &push_o, &flit_o))?;
    md.finish()
}

/// `<prefix>_point_b`: contention point B of one output port (multiplexed
/// crossbar, §6 stage 4 (B)): a round-robin arbiter over the input ports
/// whose candidate routes here (`req_i`), the winner's flit through the
/// crossbar, and the push into the winner's output VC buffer.
pub(crate) fn point_b(d: &Dims, rr_n: &Module) -> Result<Module> {
    let n = d.ports;
    let mut md = Module::new(format!("{}_point_b", d.prefix));
    md.doc("Point B of one output port (§6 stage 4): round robin over the input ports whose");
    if d.registered() {
        md.doc("candidate routes here; gnt_o: the winner (registered switch allocation, §6: its");
        md.doc("flit crosses in the next cycle, through `<prefix>_st_xbar`).");
    } else {
        md.doc("candidate routes here; the winner's flit (flit_o) is pushed into its output VC");
        md.doc("(push_o, one-hot, zero without a winner).");
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let req = md.input("req_i", n);
    let xbar_in = xbar_inputs(&mut md, d)?;
    let gnt_o = md.output("gnt_o", n);
    let xbar_out = xbar_outputs(&mut md, d)?;
    let gnt = md.wire("gnt", n);
    // a round-robin arbiter grants iff some port requests: `any` (the
    // pointer's enable) from the requests keeps the grant off its path
    let any = md.wire_of("any", &req.any());
    md.instance(
        rr_n,
        "u_arb",
        &arbiter_conns(req.e(), any.e(), gnt.e(), ArbiterSide::None),
    );
    match (&xbar_in, &xbar_out) {
        (Some((ovcs, flits)), Some((push_o, flit_o))) => crossbar_out(&mut md, d, &gnt, &any, [ovcs, flits], (Some(&gnt_o), push_o, flit_o))?,
        _ => md.assign(&gnt_o, &gnt),
    }
    md.finish()
}

/// `<prefix>_point_b_iter`: contention point B of one output port with the
/// iterative switch allocator (§6 *Switch allocation*, k rounds). Round r:
/// unless this output was matched in an earlier round, one of the input
/// ports whose round-r candidate routes here (`req<r>_i`) wins
/// (`gnt<r>_o`): with `virtualclock` the real-time candidate (`rt<r>_i`)
/// with the smallest signed relative stamp (`rel<r>_i`, C+2 bits; ties to
/// the lowest port), else the round-robin arbiter `xb_ptr`. `gnt_o` is the
/// matched input port: its flit is pushed into its output VC, and `xb_ptr`
/// moves past it (the round-robin arbiter's `req_i` is the matched port, so
/// its grant is that port and its pointer advances as for a winner).
pub(crate) fn point_b_iter(d: &Dims, rr_n_k: &Module) -> Result<Module> {
    let n = d.ports;
    let k = d.switch_rounds().ok_or_else(|| crate::HdlError::Invalid("point_b_iter without the iterative allocator".into()))?;
    let rw = d.virtual_clock().map(|v| v.clock_width + 2);
    let mut md = Module::new(format!("{}_point_b_iter", d.prefix));
    md.doc("Point B of one output port, iterative switch allocation (§6), rounds r = 1..K:");
    md.doc("gnt<r>_o picks one of req<r>_i unless the output was matched in an earlier round");
    if rw.is_some() {
        md.doc("(real-time candidates rt<r>_i first: smallest signed rel<r>_i, ties to the lowest");
        md.doc("port; else round robin). gnt_o: the matched input port; its flit (flit_o) is");
    } else {
        md.doc("(round robin with xb_ptr). gnt_o: the matched input port; its flit (flit_o) is");
    }
    if d.registered() {
        md.doc("registered in the input port and crosses in the next cycle (§6, registered).");
    } else {
        md.doc("pushed into its output VC (push_o, one-hot, zero without a match).");
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let mut reqs = vec![];
    let mut rels = vec![];
    for r in 1..=k {
        reqs.push(md.input(&format!("req{r}_i"), n));
        if let Some(w) = rw {
            rels.push((md.input(&format!("rel{r}_i"), n * w), md.input(&format!("rt{r}_i"), n)));
        }
    }
    let xbar_in = xbar_inputs(&mut md, d)?;
    let gnt_r_o = (1..=k).map(|r| md.output(&format!("gnt{r}_o"), n)).collect::<Vec<_>>();
    let gnt_o = md.output("gnt_o", n);
    let xbar_out = xbar_outputs(&mut md, d)?;

    let mut matched_before = Expr::one_bit(false);
    let mut eff: Vec<Sig> = vec![];
    let mut gnts = vec![];
    let mut rr_gnts = vec![];
    for r in 0..k as usize {
        md.comment(format!("Round {}", r + 1));
        let req = if d.faults.sa_skips_round2 && r == 1 {
            md.comment("MUTANT sa-skips-round2: no requests in round 2");
            md.raw_line("/* verilator lint_off UNUSED */");
            md.raw_line(format!("wire unused_req2 = ^{};", reqs[r].name));
            md.raw_line("/* verilator lint_on UNUSED */");
            md.wire_of(&format!("req{}", r + 1), &Expr::zero(n))
        } else if r == 0 || d.faults.sa_ignores_matched_outputs {
            md.wire_of(&format!("req{}", r + 1), &reqs[r])
        } else {
            md.wire_of(&format!("req{}", r + 1), &(&reqs[r] & &matched_before.l_not().rep(n)))
        };
        let rr_g = md.wire(&format!("rr_gnt{}", r + 1), n);
        let g = match (rw, rels.get(r)) {
            (Some(w), Some((rel, rt))) => {
                // signed order as unsigned order of the offset-binary keys (MSB flipped)
                let flip = if d.faults.sa_rel_unsigned { Expr::zero(w) } else { cat(&[Expr::one_bit(true), Expr::zero(w - 1)]) };
                let rtc = md.wire_of(&format!("rt_req{}", r + 1), &(&req & rt));
                let keys = (0..n).map(|p| md.wire_of(&format!("key{}_{p}", r + 1), &(rel.field(p as u32 * w, w) ^ &flip))).collect::<Vec<_>>();
                let mut wins = vec![];
                for p in 0..n as usize {
                    let mut beaten = vec![];
                    for q in 0..n as usize {
                        if q < p {
                            beaten.push(rtc.at(q as u32).l_and(keys[q].above(&keys[p]).l_not()));
                        } else if q > p {
                            beaten.push(rtc.at(q as u32).l_and(keys[q].below(&keys[p])));
                        }
                    }
                    let lost = if beaten.is_empty() { Expr::one_bit(false) } else { any_of(&beaten) };
                    wins.push(rtc.at(p as u32).l_and(lost.l_not()));
                }
                let win = md.wire_of(&format!("rt_gnt{}", r + 1), &cat_lsb(&wins));
                md.wire_of(&format!("gnt{}", r + 1), &rtc.any().then_else(&win, &rr_g))
            }
            _ => md.wire_of(&format!("gnt{}", r + 1), &rr_g),
        };
        md.assign(&gnt_r_o[r].lv(), &g.e());
        md.assert_always(&at_most_one_set(&g, &Expr::ones(n), &Expr::zero(n)), &format!("round {} grants at most one input port", r + 1));
        md.assert_always(&subset_of(&g, &req, &Expr::zero(n)), &format!("round {} grants only requesters", r + 1));
        matched_before = if r == 0 { g.any() } else { matched_before.l_or(g.any()) };
        eff.push(req);
        gnts.push(g.e());
        rr_gnts.push(rr_g);
    }
    md.comment("The matched input port; xb_ptr follows it");
    let gnt = md.wire_of("gnt", &any_of(&gnts));
    let any = md.wire_of("any", &gnt.any());
    md.assert_always(&at_most_one_set(&gnt, &Expr::ones(n), &Expr::zero(n)), "at most one input port matched to this output");
    let keep = md.wire("rr_keep", n);
    let take = if d.faults.sa_xb_ptr_frozen { Expr::one_bit(false) } else { any.e() };
    if d.faults.sa_xb_ptr_frozen && d.registered() {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT sa-xb-ptr-frozen (no crossbar here)");
        md.raw_line("wire unused_any = any;");
        md.raw_line("/* verilator lint_on UNUSED */");
    }
    let names = pick_port_names(k as usize);
    let mut conns: Vec<(&str, Expr)> = arbiter_conns(gnt.e(), take, keep.e(), ArbiterSide::None);
    for (r, (req, g)) in eff.iter().zip(&rr_gnts).enumerate() {
        conns.push((&names[r].0, req.e()));
        conns.push((&names[r].1, g.e()));
    }
    md.instance(rr_n_k, "u_arb", &conns);
    md.assert_always(&keep.is(&gnt), "the round-robin state follows the matched input port");
    match (&xbar_in, &xbar_out) {
        (Some((ovcs, flits)), Some((push_o, flit_o))) => crossbar_out(&mut md, d, &gnt, &any, [ovcs, flits], (Some(&gnt_o), push_o, flit_o))?,
        _ => md.assign(&gnt_o, &gnt),
    }
    md.finish()
}

/// `<prefix>_xbar_out`: the full crossbar's columns of one output port
/// (§6 stage 4, full crossbar): each of its M output VCs takes the front
/// flit (and, with `virtualclock` at point C, the Vtick) of its owner input
/// VC (`owner_i`, flat index p*M+v, from the VC allocator).
pub(crate) fn xbar_out(d: &Dims) -> Result<Module> {
    let (m, fw, nm, iw) = (d.vcs, d.buf_flit_width, d.all_vcs(), d.flat_vc_id_width);
    let obw = d.ob_entry_width();
    let mut md = Module::new(format!("{}_xbar_out", d.prefix));
    md.doc("Full crossbar, one output port (§6 stage 4): output VC u's write data is the");
    let vclock_at_c = matches!(d.order_at_c(), FlitOrder::VirtualClock(_));
    if vclock_at_c {
        md.doc("{vtick, front flit} of its owner input VC owner_i[u*IW +: IW].");
    } else {
        md.doc("front flit of its owner input VC owner_i[u*IW +: IW].");
    }
    let owner_in = md.input("owner_i", m * iw);
    let front = md.input("front_i", nm * fw);
    let vtick = if vclock_at_c { Some(md.input("vtick_i", nm * d.vtick.width)) } else { None };
    let wdata = md.output("wdata_o", m * obw);
    // A one-hot mux of the decoded owner, not `front_i[owner*FW +: FW]`: for
    // flit widths that are not a power of two Yosys turns that into a
    // multiplier (a DSP48 per output VC) feeding a barrel shifter over every
    // input VC's flit, ~13,700 LUTs for a 5-port 2-VC router. The mux text
    // grows with (N*M)^2, so above 64 VCs in all the indexed select stays
    // (such routers are rare and huge anyway).
    let onehot_select = nm <= DECODER_COMPARISONS_MAX;
    let fronts = (0..nm).map(|i| front.e().part(i * fw, fw)).collect::<Result<Vec<_>>>()?;
    for u in 0..m {
        let owner = owner_in.field(u * iw, iw);
        let owner_oh = if onehot_select { Some(md.wire_of(&format!("owner{u}_oh"), &onehot_of(&owner, nm))) } else { None };
        let select = |all: &Expr, w: u32, parts: &[Expr]| -> Result<Expr> {
            match &owner_oh {
                Some(oh) => Expr::onehot_mux(&oh.e(), parts),
                None => all.elem_dyn(&owner, w),
            }
        };
        let f = select(&front.e(), fw, &fronts)?;
        let f = match &vtick {
            Some(va) => {
                let vticks = (0..nm).map(|i| va.e().part(i * d.vtick.width, d.vtick.width)).collect::<Result<Vec<_>>>()?;
                cat(&[select(&va.e(), d.vtick.width, &vticks)?, f])
            }
            None => f,
        };
        md.assign(&wdata.lv_part(u * obw, obw)?, &f);
    }
    md.finish()
}

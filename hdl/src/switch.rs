//! Stage 4 (switch traversal) building blocks, one module per job, each
//! instantiated once per input or output port of the router top.
//!
//! They hold the logic that grows with the router (readiness lookups of
//! every output VC buffer, candidate and crossbar multiplexers, output-VC
//! one-hots): as separate modules, a hierarchical synthesis maps each of
//! them once instead of N times inside the top (the 8-port, 16-VC routers'
//! tops were 85-92 % of their unique cells), and the top reads as wiring.

use crate::arbiters::{arbiter_conns, ArbiterSide};
use crate::bits::{onehot_of, onehot_of_pair, DECODER_COMPARISONS_MAX};
use crate::dims::Dims;
use wormqos_config::FlitOrder;
use crate::verilog::{any_of, cat, cat_lsb, num, onehot_select, Expr, Module, Result};

/// `<prefix>_st_ready`: stage 4 readiness of one input port's M VCs.
/// `ready_o[v]` = `st_req_i[v]` and the output VC buffer `route*M + ovc` of
/// VC v has room (`ob_full_i`, flat over every output VC of the router).
pub(crate) fn st_ready(d: &Dims) -> Result<Module> {
    let (m, vw, pw, nm, iw) = (d.vcs, d.vc_id_width, d.port_id_width, d.all_vcs(), d.flat_vc_id_width);
    let mut md = Module::new(format!("{}_st_ready", d.prefix));
    md.doc("Stage 4 readiness of one input port's VCs (§6): a VC with a flit to move is");
    md.doc("ready iff the output VC buffer it is allocated (route*M + ovc) has room.");
    let full = md.input("ob_full_i", nm)?;
    let req = md.input("st_req_i", m)?;
    let route = md.input("route_i", m * pw)?;
    let ovc = md.input("ovc_i", m * vw)?;
    let ready = md.output("ready_o", m)?;
    let mut bits = vec![];
    for v in 0..m {
        let r = route.field(v * pw, pw);
        let u = ovc.field(v * vw, vw);
        let idx = r.zext_to(iw).mul(&num(iw, m as u64))? + &u.zext_to(iw);
        let dst = md.wire_of(&format!("dst{v}"), &idx)?;
        bits.push(req.at(v).l_and(&full.at_dyn(&dst).l_not()));
    }
    md.assign(&ready.lv(), &cat_lsb(&bits))?;
    Ok(md)
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
    let sel = md.input("sel_i", m)?;
    let route = md.input("route_i", m * pw)?;
    let ovc = md.input("ovc_i", m * vw)?;
    let spread = md.output("spread_o", nm)?;
    let mut terms = vec![];
    for v in 0..m {
        let r = route.field(v * pw, pw);
        let u = ovc.field(v * vw, vw);
        let dec = onehot_of_pair(&mut md, &format!("vc{v}"), &r, n, &u, m)?;
        let oh = md.wire_of(&format!("vc{v}_oh"), &sel.at(v).then_else(&dec, &Expr::zero(nm)))?;
        terms.push(oh.e());
    }
    md.assign(&spread.lv(), &any_of(&terms))?;
    Ok(md)
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
    d.shared_ib() && (d.acceleration() || (d.block_size() > 1 && !d.faults.block_hold_past_tail))
}

/// `<prefix>_point_a`: contention point A of one input port (multiplexed
/// crossbar, §6 stage 4 (A)): the configured scheduler, block multiplexing
/// and flit acceleration (§9.3, §9.5) pick one candidate among the ready
/// VCs; its route, output VC and front flit go to the point B arbiters.
/// `won_i`: the candidate won at point B (the grant takes effect).
/// With shared input buffers ([`Dims::shared_ib`]) the input port reads the
/// candidate's flit itself, so point A passes no flit on and takes only the
/// candidate's tail bit (`cand_tail_i`, for the block hold).
pub(crate) fn point_a(d: &Dims, arb: PointAArbiter, rr_m: &Module) -> Result<Module> {
    let (m, fw, vw, pw) = (d.vcs, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let mut md = Module::new(format!("{}_point_a", d.prefix));
    md.doc("Point A of one input port (§6 stage 4): one candidate among the ready VCs,");
    md.doc(if d.shared_ib() { "with its route and output VC; cand_o is one-hot" } else { "with its route, output VC and front flit {head, tail, ..}; cand_o is one-hot" });
    md.doc("(all zero when no VC is ready). won_i: the candidate won at point B.");
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let ready = md.input("ready_i", m)?;
    // The age arbiter enters on VA grants, not on wins; without block
    // multiplexing or acceleration it does not need to know the outcome.
    let won = if point_a_needs_won(d, &arb) { Some(md.input("won_i", 1)?) } else { None };
    let route = md.input("route_i", m * pw)?;
    let ovc = md.input("ovc_i", m * vw)?;
    let front = if d.shared_ib() { None } else { Some(md.input("front_i", m * fw)?) };
    let cand_tail = if point_a_needs_cand_tail(d) { Some(md.input("cand_tail_i", 1)?) } else { None };
    let (arb, side) = match arb {
        PointAArbiter::Age(a) => (a, ArbiterSide::Age { enter: md.input("enter_i", m)?.e() }),
        PointAArbiter::VirtualClock(a) => {
            let present = md.input("st_req_i", m)?.e();
            (a, ArbiterSide::VirtualClock { present, vtick: md.input("vtick_i", m * d.vtick.width)?.e() })
        }
        PointAArbiter::RoundRobin(a) => (a, ArbiterSide::None),
    };
    let accel = if d.acceleration() { Some(md.input("accel_i", m)?) } else { None };
    let cand_o = md.output("cand_o", m)?;
    let cand_route_o = md.output("cand_route_o", pw)?;
    let cand_ovc_o = md.output("cand_ovc_o", vw)?;
    let cand_flit_o = if front.is_some() { Some(md.output("cand_flit_o", fw)?) } else { None };

    let cand = md.wire("cand", m)?;
    let elig = if d.block_size() > 1 || d.acceleration() {
        let tail = match (&front, &cand_tail) {
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
        crate::block_mux::sched_wrap(&mut md, d, "a", &ready.e(), acc.as_ref(), &cand.e(), &won.e(), &tail, rr_m)?
    } else {
        ready.e()
    };
    // The age arbiter ignores take_i: point A then has no won_i.
    let take = won.as_ref().map_or(Expr::one_bit(false), |w| w.e());
    let conns = arbiter_conns(elig, take, cand.e(), side);
    md.instance(arb, "u_arb", &conns)?;
    let sel = |all: &Expr, w: u32| -> Result<Expr> {
        let ins = (0..m).map(|v| all.part(v * w, w)).collect::<Result<Vec<_>>>()?;
        Expr::onehot_mux(&cand.e(), &ins)
    };
    md.assign(&cand_o.lv(), &cand.e())?;
    md.assign(&cand_route_o.lv(), &sel(&route.e(), pw)?)?;
    md.assign(&cand_ovc_o.lv(), &sel(&ovc.e(), vw)?)?;
    if let (Some(o), Some(f)) = (cand_flit_o, &front) {
        md.assign(&o.lv(), &sel(&f.e(), fw)?)?;
    }
    Ok(md)
}

/// `<prefix>_point_b`: contention point B of one output port (multiplexed
/// crossbar, §6 stage 4 (B)): a round-robin arbiter over the input ports
/// whose candidate routes here (`req_i`), the winner's flit through the
/// crossbar, and the push into the winner's output VC buffer.
pub(crate) fn point_b(d: &Dims, rr_n: &Module) -> Result<Module> {
    let (n, m, fw, vw) = (d.ports, d.vcs, d.buf_flit_width, d.vc_id_width);
    let mut md = Module::new(format!("{}_point_b", d.prefix));
    md.doc("Point B of one output port (§6 stage 4): round robin over the input ports whose");
    md.doc("candidate routes here; the winner's flit (flit_o) is pushed into its output VC");
    md.doc("(push_o, one-hot, zero without a winner).");
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let req = md.input("req_i", n)?;
    let ovcs = md.input("cand_ovc_i", n * vw)?;
    let flits = md.input("cand_flit_i", n * fw)?;
    let gnt_o = md.output("gnt_o", n)?;
    let push_o = md.output("push_o", m)?;
    let flit_o = md.output("flit_o", fw)?;
    let gnt = md.wire("gnt", n)?;
    let any = md.wire_of("any", &gnt.any())?;
    md.instance(
        rr_n,
        "u_arb",
        &arbiter_conns(req.e(), any.e(), gnt.e(), ArbiterSide::None),
    )?;
    let parts = |all: &Expr, w: u32| (0..n).map(|p| all.part(p * w, w)).collect::<Result<Vec<_>>>();
    let ovc = md.wire_of("ovc", &onehot_select(&gnt, &parts(&ovcs.e(), vw)?))?;
    md.assign(&gnt_o.lv(), &gnt.e())?;
    md.assign(&flit_o.lv(), &onehot_select(&gnt, &parts(&flits.e(), fw)?))?;
    md.assign(&push_o.lv(), &any.then_else(&onehot_of(&ovc, m), &Expr::zero(m)))?;
    Ok(md)
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
    let owner_in = md.input("owner_i", m * iw)?;
    let front = md.input("front_i", nm * fw)?;
    let vtick = if vclock_at_c { Some(md.input("vtick_i", nm * d.vtick.width)?) } else { None };
    let wdata = md.output("wdata_o", m * obw)?;
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
        let owner_oh = if onehot_select { Some(md.wire_of(&format!("owner{u}_oh"), &onehot_of(&owner, nm))?) } else { None };
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
        md.assign(&wdata.lv_part(u * obw, obw)?, &f)?;
    }
    Ok(md)
}

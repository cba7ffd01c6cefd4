//! `<prefix>_output_port`: stage 5 of one output port
//! (docs/microarchitecture.md §6): output VC buffers, credits, point C.

use crate::arbiters::{arbiter_conns, ArbiterSide};
use crate::bits::{at_most_one_set, clk, encode, rst};
use crate::block_mux::sched_wrap;
use crate::dims::Dims;
use crate::lane_sender::{lane_sender, Front, LaneDims};
use crate::verilog::{cat_lsb, clog2, num, onehot_select, Expr, Module, Result, Sig, Stmt};
use wormqos_config::FlitOrder;


/// `<prefix>_output_port`: M output VC buffers, credits, the VC multiplexer
/// (point C) and the output link registers (stage 5).
/// `fifo` is the per-VC buffer, or with [`Dims::shared_ob`] the port's
/// `vc_buffer` (then `wdata_i` is one flit: point B's winner).
pub(crate) fn output_port(d: &Dims, fifo: &Module, arb: &Module) -> Result<Module> {
    let (m, w, fw, vw) = (d.vcs, d.data_width, d.buf_flit_width, d.vc_id_width);
    let obw = d.ob_entry_width();
    let mut md = Module::new(format!("{}_output_port", d.prefix));
    md.doc("Output port (stage 5): M output VC buffers, a credit counter per output VC,");
    md.doc("the VC multiplexer (point C) and the registered output link.");
    let flit_fields = if d.preemption().is_some() { "{head, tail, dummy, data}" } else { "{head, tail, data}" };
    if d.shared_ob() {
        md.doc(format!("push_i (one-hot or zero) writes wdata_i = {flit_fields} into output VC u; the M"));
        md.doc("output VC buffers share one memory.");
    } else {
        md.doc(format!("push_i[u] writes wdata_i[u*FW +: FW] = {flit_fields} into output VC u."));
    }
    md.doc("full_o[u]: output VC u's buffer is full (start of cycle).");
    if d.registered() {
        md.doc("room2_o[u]: it has room for two flits (registered switch allocation, §6).");
    }
    if d.split() {
        md.doc("room3_o[u]: it has room for three flits (split switch allocation, §6).");
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let push = md.input("push_i", m);
    let vclock_at_c = matches!(d.order_at_c(), FlitOrder::VirtualClock(_));
    if vclock_at_c {
        md.doc("virtualclock at point C: each buffer entry is {vtick, head, tail, data} (§8.2).");
    }
    let wdata = md.input("wdata_i", if d.shared_ob() { obw } else { m * obw });
    let enter = if d.order_at_c() == FlitOrder::Age { Some(md.input("enter_i", m)) } else { None };
    let credit = md.input("credit_i", m);
    let lw = d.lane_id_width();
    let credit_lane = if d.per_lane() {
        md.doc("Per-lane credits (§9.4 Credits): credit_lane_i[u*LW +: LW], the lane of credit_i[u];");
        md.doc("out_lane_o, the downstream lane of the flit on the link (the sender's choice).");
        Some(md.input("credit_lane_i", m * lw))
    } else {
        None
    };
    let atomic = if d.atomic {
        md.doc("Atomic reallocation (§6 stage 3): tail_crossed_i[u], a tail crossed into output VC");
        md.doc("u (it starts draining); release_o[u], the draining VC u is empty with every credit");
        md.doc("back (start of cycle): free for VA from the next cycle.");
        Some((md.input("tail_crossed_i", m), md.output("release_o", m)))
    } else {
        None
    };
    let full_o = if d.faults.ignores_output_full { None } else { Some(md.output("full_o", m)) };
    let room2_o = if d.registered() { Some(md.output("room2_o", m)) } else { None };
    let room3_o = if d.split() { Some(md.output("room3_o", m)) } else { None };
    let valid_o = md.output("out_valid_o", 1);
    let vc_o = md.output("out_vc_o", vw);
    let head_o = md.output("out_head_o", 1);
    let tail_o = md.output("out_tail_o", 1);
    let dummy_o = if d.preemption().is_some() { Some(md.output("out_dummy_o", 1)) } else { None };
    let data_o = md.output("out_data_o", w);
    let lane_o = if d.per_lane() { Some(md.output("out_lane_o", lw)) } else { None };

    let pick = md.wire("pick", m);
    let mut fulls = vec![];
    let mut room2s = vec![];
    let mut room3s = vec![];
    let mut eligs = vec![];
    let mut fronts = vec![];
    // each per-VC buffer's front entry (per-VC buffers only)
    let mut front_wires: Vec<Sig> = vec![];
    let (mut vticks, mut presents) = (vec![], vec![]);
    // per VC: the downstream lane of its front flit (per-lane credits)
    let mut lanes = vec![];
    // per VC: buffer empty and every credit back (atomic reallocation)
    let mut drained = vec![];
    let shared = if d.shared_ob() {
        md.comment("The port's output VC buffers, one shared memory; the front of the VC point C picks");
        let (e, flit) = (md.wire("buf_empty", m), md.wire("buf_front", obw));
        if full_o.is_none() {
            md.raw_line("/* verilator lint_off UNUSED */ // mutant: the fullness is ignored");
        }
        let f = md.wire("buf_full", m);
        let r2 = if d.registered() { Some(md.wire("buf_room2", m)) } else { None };
        let r3 = if d.split() { Some(md.wire("buf_room3", m)) } else { None };
        let side = if d.per_lane() { Some(md.wire("buf_side", m * d.ob_side_width())) } else { None };
        if full_o.is_none() {
            md.raw_line("/* verilator lint_on UNUSED */");
        }
        let mut conns = vec![
            clk(),
            rst(),
            ("push_i", push.e()),
            ("wdata_i", wdata.e()),
            ("pop_i", pick.e()),
            ("rsel_i", pick.e()),
            ("rdata_o", flit.e()),
            ("empty_o", e.e()),
            ("full_o", f.e()),
        ];
        if let Some(r2) = &r2 {
            conns.push(("room2_o", r2.e()));
            if let Some(o) = &room2_o {
                md.assign(&o, &r2);
            }
        }
        if let (Some(r3), Some(o)) = (&r3, &room3_o) {
            conns.push(("room3_o", r3.e()));
            md.assign(o, r3);
        }
        if let Some(side) = &side {
            // the lane choice reads the head bit and class field of every VC's front
            let cls = wdata.field(d.class_lsb, d.class_width);
            conns.push(("wside_i", crate::verilog::cat(&[wdata.at(fw - 1), cls])));
            conns.push(("side_o", side.e()));
        }
        md.instance(fifo, "u_ob", &conns);
        Some((e, f, flit, side))
    } else {
        None
    };
    for u in 0..m {
        md.comment(format!("Output VC {u}"));
        let (empty, full, front) = match &shared {
            Some((e, f, _, side)) => {
                let sw = d.ob_side_width();
                let front = side.as_ref().map(|s| Front { head: s.at(u * sw + sw - 1), class: s.field(u * sw, sw - 1) });
                (e.at(u), f.at(u), front)
            }
            None => {
                let front = md.wire(&format!("vc{u}_front"), obw);
                front_wires.push(front.clone());
                let empty = md.wire(&format!("vc{u}_empty"), 1);
                if full_o.is_none() {
                    md.raw_line("/* verilator lint_off UNUSED */ // mutant: the fullness is ignored");
                }
                let full = md.wire(&format!("vc{u}_full"), 1);
                let r2 = if d.registered() { Some(md.wire(&format!("vc{u}_room2"), 1)) } else { None };
                let r3 = if d.split() { Some(md.wire(&format!("vc{u}_room3"), 1)) } else { None };
                if full_o.is_none() {
                    md.raw_line("/* verilator lint_on UNUSED */");
                }
                let mut conns = vec![
                    clk(),
                    rst(),
                    ("push_i", push.at(u)),
                    ("wdata_i", wdata.field(u * obw, obw)),
                    ("pop_i", pick.at(u)),
                    ("rdata_o", front.e()),
                    ("empty_o", empty.e()),
                    ("full_o", full.e()),
                ];
                if let Some(r2) = &r2 {
                    conns.push(("room2_o", r2.e()));
                    room2s.push(r2.e());
                }
                if let Some(r3) = &r3 {
                    conns.push(("room3_o", r3.e()));
                    room3s.push(r3.e());
                }
                md.instance(fifo, &format!("u_ob{u}"), &conns);
                if vclock_at_c {
                    fronts.push(front.bits(fw - 1, 0));
                    vticks.push(front.bits(obw - 1, fw));
                    presents.push(empty.l_not());
                } else {
                    fronts.push(front.e());
                }
                let lane_front = Front { head: front.at(fw - 1), class: front.field(d.class_lsb, d.class_width) };
                (empty.e(), full.e(), d.per_lane().then_some(lane_front))
            }
        };
        fulls.push(full);
        let sent = pick.at(u);
        let ret = credit.at(u);
        let has_credit = match (&credit_lane, &front) {
            (Some(cl), Some(front)) => {
                let s = lane_sender(&mut md, &LaneDims::of_router(d), u, front, &sent, &ret, &cl.field(u * lw, lw))?;
                lanes.push(s.lane.e());
                drained.push(empty.clone());
                s.has_credit
            }
            _ => credit_counter(&mut md, d, u, &sent, &ret, &empty, &mut drained),
        };
        if d.faults.pick_ignores_empty {
            // MUTANT pick-ignores-empty: eligible with a credit, empty or not
            let _ = empty;
            eligs.push(has_credit);
        } else {
            eligs.push(empty.l_not().l_and(&has_credit));
        }
    }
    if let Some((tail_crossed, release_o)) = &atomic {
        md.comment("Atomic reallocation: a VC draining since its tail crossed is released once");
        md.comment("its buffer is empty and its credit counter is back at DD (start of cycle)");
        let (drain_q, drain_d) = md.register_wire_d("draining", &Expr::zero(m));
        let release = md.wire_of("drained", &(&drain_q & &cat_lsb(&drained)));
        md.assign(&drain_d, &((&drain_q & &release.e().not()) | tail_crossed));
        md.assign(release_o, &release);
        md.assert_always(&(&drain_q & tail_crossed).is(&Expr::zero(m)), "no tail crosses into a draining output VC");
    }
    md.comment("Point C: VC multiplexer");
    let elig = md.wire_of("elig", &cat_lsb(&eligs));
    let any_pick = md.wire_of("any_pick", &pick.any());
    let elig = if !d.multiplexed() && d.block_size() > 1 {
        let tails = front_wires.iter().map(|f| f.at(fw - 2)).collect::<Vec<_>>();
        let tail = onehot_select(&pick, &tails);
        sched_wrap(&mut md, d, "c", &elig.e(), None, &pick.e(), &any_pick.e(), &tail, arb, &[])?.0
    } else {
        elig.e()
    };
    let side = if let Some(enter) = &enter {
        ArbiterSide::Age { enter: enter.e() }
    } else if vclock_at_c {
        let present = md.wire_of("present", &cat_lsb(&presents)).e();
        ArbiterSide::VirtualClock { present, vtick: md.wire_of("vtick", &cat_lsb(&vticks)).e(), sreq: None }
    } else {
        ArbiterSide::None
    };
    md.instance(arb, "u_arb_c", &arbiter_conns(elig, any_pick.e(), pick.e(), side));
    md.assert_always(&at_most_one_set(&pick, &Expr::ones(m), &Expr::zero(m)), "point C picks at most one VC");
    if enter.is_some() {
        // any_pick is only needed by a round-robin arbiter; keep it used.
        md.comment("(any_pick feeds out_valid)");
    }
    let valid_q = md.register_next("out_valid", &Expr::zero(1), &any_pick);
    let vc_q = md.register_next("out_vc", &Expr::zero(vw), &encode(&pick, vw));
    let flit_q = match &shared {
        // Registered pipeline: the buffer's registered read of the picked
        // front is the output register, zero while out_valid is 0
        // (§6 *Buffers of the registered pipeline*).
        // Split: the buffer shows zeros after a cycle without a read already
        // (its registered write's read path, §6 *Split switch allocation*).
        Some((_, _, f, _)) if d.ob_write_registered() => {
            md.assert_always(&(valid_q.e() | f.is(&Expr::zero(obw))), "the output buffer reads all 0 without a pick");
            md.wire_of("out_flit", f)
        }
        Some((_, _, f, _)) if d.registered() => md.wire_of("out_flit", &valid_q.then_else(f, &Expr::zero(obw))),
        // The output registers become all 0 without a pick (§6 stage 5).
        Some((_, _, f, _)) => md.register_next("out_flit", &Expr::zero(fw), &any_pick.then_else(f, &Expr::zero(obw))),
        None => md.register_next("out_flit", &Expr::zero(fw), &onehot_select(&pick, &fronts)),
    };
    md.assign(&valid_o, &valid_q);
    md.assign(&vc_o, &vc_q);
    md.assign(&head_o, &flit_q.at(fw - 1));
    md.assign(&tail_o, &flit_q.at(fw - 2));
    if let Some(dm) = dummy_o {
        md.assign(&dm, &flit_q.at(w));
    }
    md.assign(&data_o, &flit_q.bits(w - 1, 0));
    if let Some(lo) = &lane_o {
        // the picked front flit's lane (0 without a pick), a register like the other fields
        let lane_q = md.register_next("out_lane", &Expr::zero(lw), &onehot_select(&pick, &lanes));
        md.assign(lo, &lane_q);
    }
    if let Some(f) = full_o {
        md.assign(&f, &cat_lsb(&fulls));
    }
    if let (Some(o), false) = (&room3_o, d.shared_ob()) {
        md.assign(o, &cat_lsb(&room3s));
    }
    if let (Some(o), false) = (&room2_o, d.shared_ob()) {
        md.assign(&o, &cat_lsb(&room2s));
    }
    md.finish()
}

/// Output VC `u`'s credit counter of §6 stage 5 (per-VC credits): declares
/// it, pushes the VC's "drained" flag (atomic reallocation) and returns
/// "has a credit".
fn credit_counter(md: &mut Module, d: &Dims, u: u32, sent: &Expr, ret: &Expr, empty: &Expr, drained: &mut Vec<Expr>) -> Expr {
    let dd = d.downstream_depth as u64;
    let reset_credits = if d.faults.one_credit_too_many { dd + 1 } else { dd };
    let cw = clog2(reset_credits + 1);
    let (cr_q, cr_d) = md.register(&format!("vc{u}_credits"), cw, &num(cw, reset_credits));
    // credits - sent + returned, saturating at DD (a return at DD is ignored).
    // The mutant believes the downstream buffer is one slot deeper throughout.
    md.comb(vec![
        Stmt::set(&cr_d, &cr_q),
        Stmt::when_else(
            &sent.l_and(&ret.l_not()),
            vec![Stmt::set(&cr_d, &(&cr_q - &num(cw, 1)))],
            vec![Stmt::when(
                &sent.l_not().l_and(ret).l_and(&cr_q.below(&num(cw, reset_credits))),
                vec![Stmt::set(&cr_d, &(&cr_q + &num(cw, 1)))])],
        ),
    ]);
    if d.faults.atomic_ignores_credits {
        // MUTANT atomic-ignores-credits: drained once the buffer is empty
        drained.push(empty.clone());
    } else {
        drained.push(empty.l_and(&cr_q.is(&num(cw, reset_credits))));
    }
    if dd < (1u64 << cw) - 1 {
        // (a counter whose width only holds 0..=DD is in range by construction)
        md.assert_always(&num(cw, dd).below(&cr_q).l_not(), &format!("output VC {u}: credits within 0..={dd}"));
    }
    md.assert_always(&sent.l_and(&cr_q.is(&Expr::zero(cw))).l_not(), &format!("output VC {u}: no flit sent without a credit"));
    cr_q.is_not(&Expr::zero(cw))
}

//! `<prefix>_input_vc` of the preemptive mode (docs/microarchitecture.md
//! §9.4): one input VC with its E+1 lanes, its state machine and the
//! registers of the preemption step (top, sl, wl, lmax, susp, the history
//! stack hs/hsp, sent, hdr, and acc with acceleration). The preemptive
//! input port instantiates it once per VC; RC's table look-ups stay in the
//! input port (the destination leaves on `rc_dest_o`, the route comes back
//! on `rc_route_i`), so the tables are not copied into every VC.

use crate::bits::{clk, encode, onehot_of, rst};
use crate::classes::{cls_of, lowest};
use crate::dims::Dims;
use crate::vc_state::{VcStates, STATE_WIDTH};
use crate::verilog::{cat, cat_lsb, num, onehot_select, Expr, Module, Result, Sig, Stmt};

/// `<prefix>_input_vc` of the preemptive mode (§9.4); `fifo` is a lane.
pub(crate) fn input_vc_p(d: &Dims, fifo: &Module) -> Result<Module> {
    let (n, w, fw, vw, pw) = (d.ports, d.data_width, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let (e, lw, hw, clw) = (d.qos.extra_lanes(), d.lane_id_width(), d.header_width, d.class_width);
    let mut md = Module::new(format!("{}_input_vc", d.prefix));
    md.doc("One input VC of the preemptive router (§9.4): E+1 lanes of DI flits {head, tail,");
    md.doc("dummy, data} (lane 0 regular, 1..E extra), the header register hdr, top/sl/wl,");
    md.doc("lmax[], susp[], the history stack hs[]/hsp and sent; stage 1 (BW, lane choice),");
    md.doc("lane release, the preemption step, stage 2 (RC) and the state IDLE/ROUTED/ACTIVE.");
    md.doc("arrive_i: a flit for this VC arrives (in_head_i, wdata_i, its cls() in_cls_i).");
    md.doc("rc_dest_o: the destination RC reads (the stack top for a suspended lane, else the");
    md.doc("lane's front flit); rc_route_i: the output port RC computes from it.");
    md.doc("va_gnt_i, va_ovc_i: VA granted this VC the output VC va_ovc_i (stage 3).");
    md.doc("pop_i: the flit offered at ST crossed. va_req_o[o]: the VC requests an output VC");
    md.doc("of port o. st_req_o: the VC offers a flit at ST (dummy tail, dummy header or lane");
    md.doc("flit), before the output-buffer check; front_o is that flit {head, tail, dummy, data}.");
    md.doc("route_o, ovc_o: the VC's output port and output VC. credit_o: the flit that crossed");
    md.doc("left a lane. release_o: preemption case (b), the VC frees its output VC.");
    md.doc("vtick_o: hdr's Vtick field (the §8 Vtick register).");
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let arrive = md.input("arrive_i", 1);
    let head = md.input("in_head_i", 1);
    let wdata = md.input("wdata_i", fw);
    let in_cls = md.input("in_cls_i", clw);
    let rc_route = md.input("rc_route_i", pw);
    let va_gnt = md.input("va_gnt_i", 1);
    let va_ovc = md.input("va_ovc_i", vw);
    let reg = d.registered();
    // Single cycle: the offer crosses now (pop_i). Registered (§6 *Registered
    // switch allocation in P mode*): SA granted the offer now (sa_gnt_i), and
    // it crosses in the next cycle from the grant registers below.
    let pop = if reg {
        md.doc("Registered switch allocation in P mode (§6): sa_gnt_i, SA granted the offer st_req_o");
        md.doc("(its tail bit gtail_o) now; it crosses in the next cycle (pend_o, its kind pend_dt/pend_dh,");
        md.doc("its tail bit pend_tail_o; front_o is then the crossing flit). credit_o: SA granted a");
        md.doc("lane flit (the credit leaves with the crossing, §6).");
        md.input("sa_gnt_i", 1)
    } else {
        md.input("pop_i", 1)
    };
    let in_lane = if d.per_lane() {
        md.doc("in_lane_i: the lane the arriving flit names (per-lane credits, §9.4 Credits);");
        md.doc("credit_lane_o: the lane credit_o frees (sl, 0 without a credit).");
        Some(md.input("in_lane_i", lw))
    } else {
        None
    };
    let acc_set = if d.acceleration() {
        md.doc("acc_set_i: set acc (§9.5). accel_o: the VC is accelerated (acc or a pending dummy");
        md.doc("tail); cls_o: cls(hdr.class).");
        Some(md.input("acc_set_i", 1))
    } else {
        None
    };
    if d.best_effort_cap().is_some() {
        md.doc("cls_o: cls(hdr.class), for the best-effort cap of VA (§9.4 stage 3).");
    }
    if d.realtime_cap().is_some() {
        md.doc("cls_o: cls(hdr.class), for the real-time cap of VA (§9.4 stage 3).");
    }
    let rc_dest_o = md.output("rc_dest_o", d.dest_width);
    let avc_dest_o = if d.allowed_vcs.is_some() {
        md.doc("avc_dest_o: the destination whose allowed output VCs VA reads (hdr's, §2).");
        Some(md.output("avc_dest_o", d.dest_width))
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", n);
    let va_route_o = if d.va_in_rc_cycle() {
        md.doc("va_route_o: the route va_req_o names (an IDLE VC requests with rc_route_i).");
        Some(md.output("va_route_o", pw))
    } else {
        None
    };
    let st_req_o = md.output("st_req_o", 1);
    let route_o = md.output("route_o", pw);
    let ovc_o = md.output("ovc_o", vw);
    let front_o = md.output("front_o", fw);
    let credit_o = md.output("credit_o", 1);
    let credit_lane_o = if d.per_lane() { Some(md.output("credit_lane_o", lw)) } else { None };
    let release_o = md.output("release_o", 1);
    let vtick_o = md.output("vtick_o", d.vtick.width);
    let accel_o = if d.acceleration() { Some(md.output("accel_o", 1)) } else { None };
    let cls_o = if d.va_needs_class() { Some(md.output("cls_o", clw)) } else { None };
    let reg_o = if reg {
        Some((md.output("gtail_o", 1), md.output("pend_o", 1), md.output("pend_tail_o", 1)))
    } else {
        None
    };
    let lane_e = num(lw, e as u64);
    let one_lw = num(lw, 1);
    let dt_flit = cat(&[Expr::one_bit(false), Expr::one_bit(true), Expr::one_bit(true), Expr::zero(w)]);
    let st = VcStates::declare(&mut md)?;
            let (state_q, state_d) = md.register("state", STATE_WIDTH, &st.idle);
    let (route_q, route_d) = md.register("route", pw, &Expr::zero(pw));
    let (ovc_q, ovc_d) = md.register("ovc", vw, &Expr::zero(vw));
    let (hdr_q, hdr_d) = md.register("hdr", hw, &Expr::zero(hw));
    let (top_q, top_d) = md.register("top", lw, &Expr::zero(lw));
    let (sl_q, sl_d) = md.register("sl", lw, &Expr::zero(lw));
    let (wl_q, wl_d) = md.register("wl", lw, &Expr::zero(lw));
    let (lmax_q, lmax_d) = md.register("lmax", (e + 1) * clw, &Expr::zero((e + 1) * clw));
    let (susp_q, susp_d) = md.register("susp", e, &Expr::zero(e));
    let (hs_q, hs_d) = md.register("hs", e * hw, &Expr::zero(e * hw));
    let (hsp_q, hsp_d) = md.register("hsp", lw, &Expr::zero(lw));
    let (sent_q, sent_d) = md.register("sent", 1, &Expr::zero(1));

    // Lanes
    let lane_sel = md.wire("lane", lw);
    let wr = md.wire("wr", 1);
    let lpop = md.wire("lane_pop", 1);
    let (mut lfronts, mut lempties, mut lfulls) = (vec![], vec![], vec![]);
    // (registered: each lane's second flit and the tail bits of its first two)
    let (mut ltwos, mut ltail0s, mut ltail1s) = (vec![], vec![], vec![]);
    for l in 0..=e {
        let front = md.wire(&format!("l{l}_front"), fw);
        let empty = md.wire(&format!("l{l}_empty"), 1);
        let full = md.wire(&format!("l{l}_full"), 1);
        let lv = num(lw, l as u64);
        let mut conns = vec![
            clk(),
            rst(),
            ("push_i", wr.l_and(&lane_sel.is(&lv))),
            ("wdata_i", wdata.e()),
            ("pop_i", lpop.l_and(&sl_q.is(&lv))),
            ("rdata_o", front.e()),
            ("empty_o", empty.e()),
            ("full_o", full.e()),
        ];
        if reg {
            let two = md.wire(&format!("l{l}_two"), 1);
            let t0 = md.wire(&format!("l{l}_tail0"), 1);
            let t1 = md.wire(&format!("l{l}_tail1"), 1);
            conns.extend([("two_o", two.e()), ("tail0_o", t0.e()), ("tail1_o", t1.e())]);
            ltwos.push(two.e());
            ltail0s.push(t0.e());
            ltail1s.push(t1.e());
        }
        md.instance(fifo, &format!("u_lane{l}"), &conns);
        lfronts.push(front.e());
        lempties.push(empty);
        lfulls.push(full.e());
    }
    let pad = (1u32 << lw) - (e + 1);
    let padded = |xs: &[Expr], wdt: u32| {
        let mut v = xs.to_vec();
        for _ in 0..pad {
            v.push(Expr::zero(wdt));
        }
        cat_lsb(&v)
    };
    let fronts_w = md.wire_of("lane_fronts", &padded(&lfronts, fw));
    let has: Vec<Expr> = lempties.iter().map(|x| x.l_not()).collect();
    let nonempty = md.wire_of("lane_has", &padded(&has, 1));
    let fulls_w = md.wire_of("lane_full", &padded(&lfulls, 1));
    let lmax_of = |l: u32| lmax_q.e().part(l * clw, clw);

    md.comment("BW: lane choice (§9.4 stage 1)");
        let is_idle = state_q.is(&st.idle);
    let is_routed = state_q.is(&st.routed);
    let is_active = state_q.is(&st.active);
    let all_idle = md.wire_of(
        "all_idle",
        &top_q.is(&Expr::zero(lw)).l_and(&lempties[0]).l_and(&sl_q.is(&Expr::zero(lw))).l_and(&is_idle),
    );
    let (lane_choice, open_stmts) = match &in_lane {
        Some(l) => named_lane(&mut md, d, l, &all_idle, &top_q, &top_d, &lmax_d, &in_cls)?,
        None => {
    let mut fits = vec![];
    for l in 0..=e {
        let cmp = if d.faults.lane_fit_strict {
            in_cls.below(&lmax_of(l)?)
        } else {
            lmax_of(l)?.at_least(&in_cls)
        };
        // lanes 0..=top
        if l == 0 {
            fits.push(cmp);
        } else {
            fits.push(top_q.at_least(&num(lw, l as u64)).l_and(&cmp));
        }
    }
    let fit = md.wire_of("fit", &cat_lsb(&fits));
    let fit_oh = lowest(&mut md, "fit_first", &fit);
    let any_fit = fit.any();
    let at_e = top_q.is(&lane_e);
    let opens = md.wire_of("opens", &all_idle.l_not().l_and(&any_fit.l_not()).l_and(&at_e.l_not()));
    let new_lane = at_e.then_else(&lane_e, &(&top_q + &one_lw));
    let hlane = md.wire_of(
        "hlane",
        &all_idle.then_else(&Expr::zero(lw), &any_fit.then_else(&encode(&fit_oh, lw), &new_lane)),
    );
    // BW: lane choice effects of a written header that opens a lane
    let mut open_stmts = vec![Stmt::set(&top_d, &(&top_q + &one_lw))];
    for l in 1..=e {
        open_stmts.push(Stmt::when(
            &top_q.is(&num(lw, (l - 1) as u64)),
            vec![Stmt::set(&lmax_d.lv_part(l * clw, clw)?, &in_cls)]));
    }
    (LaneChoice { lane: head.then_else(&hlane, &wl_q), header_lane: hlane.e(), fresh: all_idle.e(), opens: opens.e(), in_range: None }, open_stmts)
        }
    };
    md.assign(&lane_sel, &lane_choice.lane);
    let room = fulls_w.at_dyn(&lane_sel).l_not();
    let room = match &lane_choice.in_range {
        Some(ok) => ok.l_and(&room),
        None => room,
    };
    md.assign(&wr, &arrive.l_and(&room));

    md.comment("The serving lane and the flit offered at ST (§9.4 stage 4)");
    let preempt = md.wire_of("preempt", &sl_q.below(&top_q));
    let susp_ext = md.wire_of("susp_ext", &cat(&[Expr::zero(pad + 1), susp_q.e()]));
    let susp_sl = md.wire_of("susp_sl", &susp_ext.at_dyn(&sl_q));
    let front_sl = md.wire_of("front_sl", &fronts_w.elem(&sl_q, fw));
    let has_sl = md.wire_of("has_sl", &nonempty.at_dyn(&sl_q));
    let no_dh = d.faults.no_dummy_header;
    let no_dt = d.faults.no_dummy_tail;
    let k_dt = if no_dt { Expr::one_bit(false) } else { preempt.l_and(&is_active).l_and(&sent_q) };
    let k_dt = md.wire_of("offer_dt", &k_dt);
    let k_dh = if no_dh { Expr::one_bit(false) } else { preempt.l_not().l_and(&is_active).l_and(&susp_sl) };
    let k_dh = md.wire_of("offer_dh", &k_dh);
    let lane_ok = if no_dh { has_sl.e() } else { has_sl.l_and(&susp_sl.l_not()) };
    let k_lane = md.wire_of("offer_lane", &preempt.l_not().l_and(&is_active).l_and(&lane_ok));
    let dh_flit = cat(&[Expr::one_bit(true), Expr::one_bit(false), Expr::one_bit(true), hdr_q.zext_to(w)]);
    // What crosses now: its kind (dummy tail, dummy header, else a lane flit),
    // its tail bit, the flit itself.
    // (registered, for acceleration: SA granted a tail or dummy tail now, and
    // SA's offer is a dummy tail)
    let mut sa_side = None;
    let (crossed, x_dt, x_dh, offer_tail, cross_flit, st_req) = if reg {
        let x = registered_grant(&mut md, d, &pop, &RegOffers {
            preempt: preempt.e(), active: is_active.clone(), k_dt: k_dt.e(), k_dh: k_dh.e(), k_lane: k_lane.e(),
            has_sl: has_sl.e(), front_sl: front_sl.e(), dt_flit: dt_flit.clone(), dh_flit: dh_flit.clone(),
            lanes: LaneLook { twos: ltwos, tail0s: ltail0s, tail1s: ltail1s, sl: sl_q.e(), pad },
        })?;
        md.assign(&lpop, &x.crossed.l_and(&x.x_dt.l_not()).l_and(&x.x_dh.l_not()));
        if let Some((gtail_o, pend_o, pend_tail_o)) = &reg_o {
            md.assign(gtail_o, &x.gtail);
            md.assign(pend_o, &x.crossed);
            md.assign(pend_tail_o, &x.tail);
        }
        md.assign(&credit_o, &pop.l_and(&x.sa_lane));
        if let Some(cl) = &credit_lane_o {
            if d.faults.credit_lane_zero {
                md.comment("MUTANT lane-credit-on-lane0: every credit names lane 0");
                md.assign(cl, &Expr::zero(lw));
            } else {
                // the lane the granted flit leaves: sl of the SA cycle (§6)
                md.assign(cl, &pop.l_and(&x.sa_lane).then_else(&sl_q, &Expr::zero(lw)));
            }
        }
        sa_side = Some((pop.l_and(&x.gtail), x.sa_dt.clone()));
        (x.crossed, x.x_dt, x.x_dh, x.tail, x.flit, x.st_req)
    } else {
        // single cycle: the offer itself crosses now (pop_i)
        let offer = md.wire_of("offer", &k_dt.then_else(&dt_flit, &k_dh.then_else(&dh_flit, &front_sl)));
        md.assign(&lpop, &pop.l_and(&k_lane));
        (pop.e(), k_dt.e(), k_dh.e(), offer.at(fw - 2), offer.e(), (&k_dt | &k_dh) | &k_lane)
    };
    let offer_tail = if reg { md.wire_of("cross_tail", &offer_tail).e() } else { offer_tail };
    // (the registered-grant mutant: the preemption step is taken while an offer crosses)
    let step_blocked = reg && !d.faults.p_reg_steps_while_crossing;

    md.comment("RC source: the stack top for a suspended lane, else the lane's front flit");
    let hs_top = if d.faults.stack_reads_bottom && e >= 2 {
        md.raw_line("// MUTANT pre-stack-pops-bottom: reads hs[0] instead of hs[hsp-1]");
        hs_q.field(0, hw)
    } else {
        let sels = (0..e).map(|j| hsp_q.e().eq(&num(lw, (j + 1) as u64))).collect::<Result<Vec<_>>>()?;
        let ents = (0..e).map(|j| hs_q.e().part(j * hw, hw)).collect::<Result<Vec<_>>>()?;
        onehot_select(&md.wire_of("hs_sel", &cat_lsb(&sels)), &ents)
    };
    let hs_top = md.wire_of("hs_top", &hs_top);
    let rc_src = md.wire_of(
        "rc_src",
        &susp_sl.then_else(&hs_top, &front_sl.field(0, hw)),
    );
    md.assign(&rc_dest_o, &rc_src.field(0, d.dest_width));
    let rc_ok = md.wire_of(
        "rc",
        &preempt.l_not().l_and(&is_idle).l_and(&susp_sl.l_or(&has_sl)),
    );
    let release_lane = md.wire_of(
        "lane_release",
        &preempt
            
            .l_not()
            .l_and(&top_q.is_not(&Expr::zero(lw)))
            .l_and(&has_sl.l_not())
            .l_and(&is_idle)
            .l_and(&wr.l_not()),
    );

    let gnt = va_gnt;
    let my_ovc = va_ovc;
    let grant_stmts = vec![Stmt::set(&state_d, &st.active), Stmt::set(&ovc_d, &my_ovc)];
    let sl_idx = |j: u32| sl_q.is(num(lw, j as u64));
    // susp[sl] := x
    let set_susp = |x: bool| -> Result<Vec<Stmt>> {
        (0..e).map(|j| Ok(Stmt::when(sl_idx(j), vec![Stmt::set(susp_d.lv_bit(j)?, Expr::one_bit(x))]))).collect()
    };
    let mut push_stmts = vec![Stmt::note("push hdr, suspend the lane, serve the lane above")];
    for j in 0..e {
        push_stmts.push(Stmt::when(&hsp_q.is(&num(lw, j as u64)), vec![Stmt::set(&hs_d.lv_part(j * hw, hw)?, &hdr_q)]));
    }
    push_stmts.push(Stmt::set(&hsp_d, &(&hsp_q + &one_lw)));
    push_stmts.extend(set_susp(true)?);
    let mut case_a = vec![
        Stmt::set(&state_d, &st.idle),
        Stmt::set(&sent_d, &Expr::zero(1)),
        Stmt::set(&sl_d, &(&sl_q + &one_lw)),
    ];
    case_a.extend(push_stmts);
    let dt_cross = case_a.clone();
    let case_a_stmt = if no_dt {
        let mut v = vec![Stmt::note("MUTANT pre-no-dummy-tail: suspended without sending a dummy tail")];
        v.extend(case_a);
        v
    } else if reg {
        vec![Stmt::note("(a) the dummy tail is offered at SA; it acts when it crosses (above)")]
    } else {
        vec![Stmt::note("(a) the dummy tail crossed"), Stmt::when(&crossed, case_a)]
    };
    let mut rc_body = vec![
        Stmt::set(&hdr_d, &rc_src),
        Stmt::set(&route_d, &rc_route),
        Stmt::set(&state_d, &st.routed),
    ];
    if d.va_in_rc_cycle() {
        rc_body.push(Stmt::when(&gnt, grant_stmts.clone()));
    }
    let mut dh_cross = vec![Stmt::note("the dummy header crossed: pop the stack")];
    dh_cross.push(Stmt::set(&hsp_d, &(&hsp_q - &one_lw)));
    dh_cross.extend(set_susp(false)?);
    dh_cross.push(Stmt::set(&sent_d, &Expr::one_bit(true)));
    let mut lane_cross = vec![Stmt::note("a lane flit crossed"), Stmt::set(&sent_d, &Expr::one_bit(true))];
    if no_dh {
        let mut pop_stack = vec![Stmt::note("MUTANT pre-no-dummy-header: the stack is popped by the first lane flit")];
        pop_stack.push(Stmt::set(&hsp_d, &(&hsp_q - &one_lw)));
        pop_stack.extend(set_susp(false)?);
        lane_cross.push(Stmt::when(&susp_sl, pop_stack));
    }
    lane_cross.push(Stmt::when(
        &offer_tail,
        vec![Stmt::set(&state_d, &st.idle), Stmt::set(&sent_d, &Expr::zero(1))]));
    // every register keeps its value unless a branch below assigns it
    let held = [
        [(&state_d, &state_q), (&route_d, &route_q), (&ovc_d, &ovc_q), (&hdr_d, &hdr_q)],
        [(&top_d, &top_q), (&sl_d, &sl_q), (&wl_d, &wl_q), (&lmax_d, &lmax_q)],
        [(&susp_d, &susp_q), (&hs_d, &hs_q), (&hsp_d, &hsp_q), (&sent_d, &sent_q)],
    ];
    let mut stmts = held.iter().flatten().map(|(d, q)| Stmt::set(*d, *q)).collect::<Vec<_>>();
    // Registered (§6 P mode): the granted offer crosses with the effects of
    // its kind, and the VC takes no preemption step in that cycle.
    let crossing = vec![Stmt::when_else(&x_dt, dt_cross, vec![Stmt::when_else(&x_dh, dh_cross.clone(), lane_cross.clone())])];
    let active_arm = if reg {
        vec![Stmt::note("a granted offer crosses: above")]
    } else {
        vec![Stmt::when(&crossed, vec![Stmt::when_else(&x_dh, dh_cross, lane_cross)])]
    };
    let step_and_stages = vec![
        Stmt::when_else(
            &preempt,
            vec![
                Stmt::note("Preemption step (sl < top)"),
                Stmt::when_else(
                    &is_active.l_and(&sent_q),
                    case_a_stmt,
                    vec![
                        Stmt::note("(b) ACTIVE, nothing sent / (c) ROUTED or IDLE"),
                        Stmt::set(&state_d, &st.idle),
                        Stmt::set(&sl_d, &(&sl_q + &one_lw)),
                    ],
                ),
            ],
            vec![Stmt::case_of(
                &state_q,
                vec![
                    (
                        st.idle.clone(),
                        vec![
                            Stmt::note("RC"),
                            Stmt::when(&rc_ok, rc_body),
                            Stmt::note("lane release"),
                            Stmt::when(
                                &release_lane,
                                vec![Stmt::set(&top_d, &(&top_q - &one_lw)), Stmt::set(&sl_d, &(&sl_q - &one_lw))]),
                        ],
                    ),
                    (st.routed.clone(), vec![Stmt::note("VA grant"), Stmt::when(&gnt, grant_stmts)]),
                    (st.active.clone(), active_arm),
                ],
                vec![],
            )],
        ),
    ];
    if !reg {
        stmts.extend(step_and_stages);
    } else if step_blocked {
        stmts.push(Stmt::note("the granted offer crosses (registered switch allocation, §6)"));
        stmts.push(Stmt::when_else(&crossed, crossing, step_and_stages));
    } else {
        stmts.push(Stmt::note("MUTANT pre-reg-step-while-crossing: the preemption step is taken while an offer crosses"));
        stmts.push(Stmt::when_else(&preempt, step_and_stages.clone(), vec![Stmt::when_else(&crossed, crossing, step_and_stages)]));
    }
    stmts.push(Stmt::note(if in_lane.is_some() { "BW: a written header enters the lane it names" } else { "BW: a written header chooses its lane" }));
    stmts.push(Stmt::when(
        &wr.l_and(&head),
        vec![
            Stmt::set(&wl_d, &lane_choice.header_lane),
            Stmt::when_else(
                &lane_choice.fresh,
                vec![Stmt::set(&lmax_d.lv_part(0, clw)?, &in_cls)],
                vec![Stmt::when(&lane_choice.opens, open_stmts)],
            ),
        ]));
    md.comb(stmts);

    if let (Some(acc_set), Some(accel_o)) = (&acc_set, &accel_o) {
        let (acc_q, acc_d) = md.register("acc", 1, &Expr::zero(1));
        // Registered (§6 *Registered switch allocation in P mode*,
        // *Acceleration*): the clear is the tail's ST cycle, not its grant;
        // the dummy tail that makes the VC accelerated is SA's offer.
        let at_grant = d.faults.acc_clear_at_grant;
        let (clear, dt_offer) = match &sa_side {
            Some((granted_tail, _)) if at_grant => (granted_tail.clone(), k_dt.e()),
            Some((_, sa_dt)) => (crossed.l_and(&offer_tail), sa_dt.clone()),
            None => (crossed.l_and(&offer_tail), k_dt.e()),
        };
        let clear = if d.faults.accel_never_cleared { Expr::one_bit(false) } else { clear };
        md.comb(vec![
            Stmt::set(&acc_d, &acc_q),
            Stmt::when(&acc_set, vec![Stmt::set(&acc_d, &Expr::one_bit(true))]),
            Stmt::Comment(if d.faults.accel_never_cleared {
                "MUTANT pre-accel-never-cleared: acc is never cleared".into()
            } else if at_grant && reg {
                "MUTANT pre-acc-clear-at-grant: SA granted a tail: clear (wins over a set)".into()
            } else {
                "a tail (real or dummy) crossed: clear (wins over a set)".into()
            }),
            Stmt::when(&clear, vec![Stmt::set(&acc_d, &Expr::zero(1))]),
        ]);
        md.assign(&accel_o, &(&acc_q | &dt_offer));
    }
    if let Some(cls_o) = &cls_o {
        let c = if d.va_in_rc_cycle() {
            is_idle.then_else(&rc_src.field(d.class_lsb, clw), &hdr_q.field(d.class_lsb, clw))
        } else {
            hdr_q.field(d.class_lsb, clw)
        };
        md.assign(&cls_o, &cls_of(&c, d.classes));
    }

    if let Some(out) = &avc_dest_o {
        // hdr holds the destination the route was computed from, so the
        // set is looked up from it rather than kept in another register.
        let dest = if d.va_in_rc_cycle() {
            is_idle.then_else(&rc_src.field(0, d.dest_width), &hdr_q.field(0, d.dest_width))
        } else {
            hdr_q.field(0, d.dest_width)
        };
        md.assign(&out, &dest);
    }
    md.comment("Outputs");
    let routed_req = is_routed.l_and(&preempt.l_not()).then_else(&onehot_of(&route_q, n), &Expr::zero(n));
    let req = if d.va_in_rc_cycle() {
        routed_req | &rc_ok.then_else(&onehot_of(&rc_route, n), &Expr::zero(n))
    } else {
        routed_req
    };
    md.assign(&va_req_o, &req);
    if let Some(vr) = &va_route_o {
        md.assign(&vr, &is_idle.then_else(&rc_route, &route_q));
    }
    md.assign(&st_req_o, &st_req);
    md.assign(&route_o, &route_q);
    md.assign(&ovc_o, &ovc_q);
    md.assign(&front_o, &cross_flit);
    // (registered: credit_o and credit_lane_o come from SA's grant, above)
    if !reg {
        md.assign(&credit_o, &lpop);
    }
    if let (Some(cl), false) = (&credit_lane_o, reg) {
        if d.faults.credit_lane_zero {
            md.comment("MUTANT lane-credit-on-lane0: every credit names lane 0");
            md.assign(cl, &Expr::zero(lw));
        } else {
            // the lane the flit left: the serving lane of its crossing cycle
            md.assign(cl, &lpop.then_else(&sl_q, &Expr::zero(lw)));
        }
    }
    let rel = if no_dt { preempt.l_and(&is_active) } else { preempt.l_and(&is_active).l_and(&sent_q.l_not()) };
    let rel = if step_blocked { rel.l_and(&crossed.l_not()) } else { rel };
    md.assign(&release_o, &rel);
    md.assign(&vtick_o, &hdr_q.field(d.vtick.lsb, d.vtick.width));
    md.finish()
}

/// Stage 1's lane of an arriving flit and what a written header does.
struct LaneChoice {
    /// The lane a flit is written to.
    lane: Expr,
    /// The lane a header is written to (`wl := ` it).
    header_lane: Expr,
    /// A written header sets `lmax[0]` (lane 0 of an entirely idle VC).
    fresh: Expr,
    /// Otherwise, a written header raises `top` (the statements returned beside).
    opens: Expr,
    /// The named lane exists (per-lane credits with E+1 below 2^LW).
    in_range: Option<Expr>,
}

/// §9.4 *Credits*, receiver's stage 1 (per-lane credits): every flit goes
/// to the lane it names, `L = in_lane_i`; a header with L > `top` sets
/// `top := L` and `lmax[L] := c` (the statements returned); L == 0 into an
/// entirely idle VC sets `lmax[0]` (the caller's idle branch, as without
/// per-lane credits); otherwise no register changes.
fn named_lane(md: &mut Module, d: &Dims, in_lane: &Sig, all_idle: &Sig, top_q: &Sig, top_d: &Sig, lmax_d: &Sig, in_cls: &Sig) -> Result<(LaneChoice, Vec<Stmt>)> {
    let (e, lw, clw) = (d.qos.extra_lanes(), d.lane_id_width(), d.class_width);
    md.comment("BW: the flit enters the lane its sender named (§9.4 Credits, per-lane credits)");
    let above = md.wire_of("lane_above_top", &top_q.below(in_lane));
    let mut open_stmts = vec![Stmt::set(top_d, in_lane)];
    for l in 1..=e {
        open_stmts.push(Stmt::when(&in_lane.is(&num(lw, l as u64)), vec![Stmt::set(&lmax_d.lv_part(l * clw, clw)?, in_cls)]));
    }
    let in_range = if (e as u64 + 1) < (1u64 << lw) { Some(in_lane.e().below(&num(lw, e as u64 + 1))) } else { None };
    let fresh = all_idle.l_and(&in_lane.is(&Expr::zero(lw)));
    Ok((LaneChoice { lane: in_lane.e(), header_lane: in_lane.e(), fresh, opens: above.e(), in_range }, open_stmts))
}

/// Each lane's lookahead flags in the registered pipeline (`two_o`, the
/// tail bits of its first two flits), to be selected by the serving lane.
struct LaneLook {
    twos: Vec<Expr>,
    tail0s: Vec<Expr>,
    tail1s: Vec<Expr>,
    sl: Expr,
    /// Zero entries that pad the lanes to 2^LW (the select's index range).
    pad: u32,
}

/// What SA reads of the VC besides its grant registers: the preemption
/// step's condition, the single-cycle offers of §9.4 stage 4 (`k_*`), and
/// the flits an offer can be.
struct RegOffers {
    preempt: Expr,
    active: Expr,
    k_dt: Expr,
    k_dh: Expr,
    k_lane: Expr,
    has_sl: Expr,
    front_sl: Expr,
    dt_flit: Expr,
    dh_flit: Expr,
    lanes: LaneLook,
}

/// The VC's side of the registered switch allocation in P mode.
struct RegGrant {
    /// A granted offer crosses now (`pend(p, v)`).
    crossed: Expr,
    /// It is a dummy tail / a dummy header (else a lane flit).
    x_dt: Expr,
    x_dh: Expr,
    /// Its tail bit, and the flit itself.
    tail: Expr,
    flit: Expr,
    /// SA's offer now (before the room check), its tail bit, and whether it
    /// is a lane flit (whose credit leaves when it crosses).
    st_req: Expr,
    gtail: Expr,
    sa_lane: Expr,
    /// SA's offer is a dummy tail (no offer of the VC crossing now).
    sa_dt: Expr,
}

/// §6 *Registered switch allocation in P mode*: the grant registers of
/// one VC (`pend` with the kind `pend_dt`/`pend_dh` and the tail bit: the
/// per-VC form of the port's `sg_valid`/`sg_vc`/`sg_kind`/`sg_tail`, one
/// VC of a port at most being granted), what SA may grant behind a crossing
/// offer, and what crosses in stage ST.
fn registered_grant(md: &mut Module, d: &Dims, gnt: &Sig, o: &RegOffers) -> Result<RegGrant> {
    let fw = d.buf_flit_width;
    md.comment("Registered switch allocation in P mode (§6): SA's grant of the previous cycle");
    md.raw_line("// (pend) crosses now with its kind (pend_dt, pend_dh, else a lane flit).");
    let zero = Expr::zero(1);
    let (pend_q, pend_d) = md.register_wire_d("pend", &zero);
    let (pdt_q, pdt_d) = md.register_wire_d("pend_dt", &zero);
    let (pdh_q, pdh_d) = md.register_wire_d("pend_dh", &zero);
    let (ptail_q, ptail_d) = md.register_wire_d("pend_tail", &zero);
    let l = &o.lanes;
    let mut sel = |name: &str, xs: &[Expr]| -> Sig {
        let mut v = xs.to_vec();
        v.extend((0..l.pad).map(|_| Expr::zero(1)));
        let all = md.wire_of(&format!("lane_{name}"), &cat_lsb(&v));
        md.wire_of(&format!("{name}_sl"), &all.at_dyn(&l.sl))
    };
    let (two_sl, tail0_sl, tail1_sl) = (sel("two", &l.twos), sel("tail0", &l.tail0s), sel("tail1", &l.tail1s));
    md.comment("SA: the offer (§9.4 stage 4) without a crossing offer; behind a crossing lane flit");
    md.raw_line("// the lane's second flit, behind a crossing dummy header its first; nothing behind a");
    md.raw_line("// crossing tail or dummy tail, nothing while a preemption step waits (sl < top).");
    let free = pend_q.l_not();
    let sa_dt = md.wire_of("sa_dt", &free.l_and(&o.k_dt));
    let sa_dh = md.wire_of("sa_dh", &free.l_and(&o.k_dh));
    let behind_lane = pdh_q.then_else(&o.has_sl, &two_sl);
    let behind_tail = if d.faults.sa_grants_behind_tail {
        md.raw_line("// MUTANT sa-grants-behind-tail: a flit behind a crossing tail or dummy tail is offered");
        Expr::one_bit(false)
    } else {
        pdt_q.l_or(&ptail_q)
    };
    let behind = pend_q.l_and(&o.preempt.l_not()).l_and(&o.active).l_and(&behind_tail.l_not()).l_and(&behind_lane);
    let sa_lane = md.wire_of("sa_lane", &free.l_and(&o.k_lane).l_or(&behind));
    let lane_tail = pend_q.l_and(&pdh_q.l_not()).then_else(&tail1_sl, &tail0_sl);
    let gtail = md.wire_of("sa_tail", &sa_dt.l_or(&sa_lane.l_and(&lane_tail)));
    md.assign(&pend_d, gnt);
    md.assign(&pdt_d, &gnt.l_and(&sa_dt));
    md.assign(&pdh_d, &gnt.l_and(&sa_dh));
    md.assign(&ptail_d, &gnt.l_and(&gtail));
    let st_req = sa_dt.l_or(&sa_dh).l_or(&sa_lane);
    md.assert_always(&gnt.l_not().l_or(&st_req), "SA grants only an offer");
    md.assert_always(&pend_q.l_not().l_or(&o.active), "a registered grant finds its VC ACTIVE");
    let (x_dt, x_dh, tail) = if d.faults.p_reg_kind_ignored {
        md.raw_line("// MUTANT pre-reg-kind-ignored: the kind that crosses is the offer of this cycle");
        md.raw_line("/* verilator lint_off UNUSED */");
        md.wire_of("unused_kind", &(pdt_q.l_or(&pdh_q).l_or(&ptail_q)));
        md.raw_line("/* verilator lint_on UNUSED */");
        let (x_dt, x_dh) = (pend_q.l_and(&o.k_dt), pend_q.l_and(&o.k_dh));
        let tail = x_dt.l_or(&x_dh.l_not().l_and(&o.front_sl.at(fw - 2)));
        (x_dt, x_dh, tail)
    } else {
        (pdt_q.e(), pdh_q.e(), ptail_q.e())
    };
    let x_lane = pend_q.l_and(&x_dt.l_not()).l_and(&x_dh.l_not());
    md.assert_always(&x_lane.l_not().l_or(&o.has_sl), "a crossing lane flit finds its lane not empty");
    let flit = x_dt.then_else(&o.dt_flit, &x_dh.then_else(&o.dh_flit, &o.front_sl));
    Ok(RegGrant {
        crossed: pend_q.e(),
        x_dt,
        x_dh,
        tail,
        flit,
        st_req,
        gtail: gtail.e(),
        sa_lane: sa_lane.e(),
        sa_dt: sa_dt.e(),
    })
}

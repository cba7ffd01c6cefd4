//! `<prefix>_input_port` of the preemptive mode (docs/microarchitecture.md
//! §9.4): lanes, history stack, dummy flits.

use crate::bits::{clk, encode, onehot_of, rst};
use crate::classes::{cls_of, lowest};
use crate::dims::Dims;
use crate::route_tables::{link_choice, link_tables, rc_tables};
use crate::vc_state::{VcStates, STATE_WIDTH};
use crate::verilog::{cat, cat_lsb, num, onehot_select, Expr, Module, Result, Stmt};


/// `<prefix>_input_port` of the preemptive mode (§9.4): per input VC E+1
/// lanes, the registers top, sl, wl, lmax, susp, the history stack hs/hsp,
/// sent, hdr (and acc with acceleration), and the flit it offers at ST.
pub(crate) fn input_port_p(d: &Dims, fifo: &Module) -> Result<Module> {
    let (n, m, w, fw, vw, pw) = (d.ports, d.vcs, d.data_width, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let (e, lw, hw, clw) = (d.qos.extra_lanes(), d.lane_id_width(), d.header_width, d.class_width);
    let mut md = Module::new(format!("{}_input_port", d.prefix));
    md.doc("Input port of the preemptive router (§9.4): per input VC, E+1 lanes of DI flits");
    md.doc("{head, tail, dummy, data} (lane 0 regular, 1..E extra), the header register hdr,");
    md.doc("top/sl/wl, lmax[], susp[], the history stack hs[]/hsp and sent; stage 1 (BW, lane");
    md.doc("choice), lane release, the preemption step, stage 2 (RC) and the per-VC state.");
    md.doc("va_req_o[v*N+o]: VC v requests an output VC of port o (stage 3).");
    md.doc("st_req_o[v]: VC v offers a flit at ST (dummy tail, dummy header or lane flit), before");
    md.doc("the output-buffer check; front_o[v*FW +: FW] is that flit {head, tail, dummy, data}.");
    md.doc("credit_o[v]: the flit that crossed left a lane (a credit is returned).");
    md.doc("release_o[v]: preemption case (b): VC v frees its output VC (route_o, ovc_o).");
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let valid = md.input("in_valid_i", 1)?;
    let vc = md.input("in_vc_i", vw)?;
    let head = md.input("in_head_i", 1)?;
    let tail = md.input("in_tail_i", 1)?;
    let dummy = md.input("in_dummy_i", 1)?;
    let data = md.input("in_data_i", w)?;
    let va_gnt = md.input("va_gnt_i", m)?;
    let va_ovc = md.input("va_ovc_i", m * vw)?;
    let pop = md.input("pop_i", m)?;
    let acc_set = if d.acceleration() { Some(md.input("acc_set_i", m)?) } else { None };
    let free_cnt = if d.link_groups.is_some() {
        md.doc("free_cnt_i[o*FCW +: FCW]: free output VCs of port o (RC's parallel-link choice, §2).");
        Some(md.input("free_cnt_i", n * d.free_count_width())?)
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", m * n)?;
    let va_route_o = crate::input_port::va_route_port(&mut md, d)?;
    let st_req_o = md.output("st_req_o", m)?;
    let route_o = md.output("route_o", m * pw)?;
    let ovc_o = md.output("ovc_o", m * vw)?;
    let front_o = md.output("front_o", m * fw)?;
    let credit_o = md.output("credit_o", m)?;
    let release_o = md.output("release_o", m)?;
    md.doc("vtick_o[v*VTW +: VTW]: hdr's Vtick field (the §8 Vtick register).");
    let vtick_o = md.output("vtick_o", m * d.vtick.width)?;
    let (accel_o, cls_o) = if d.acceleration() {
        md.doc("accel_o[v]: VC v is accelerated (acc or a pending dummy tail, §9.5); cls_o: cls(hdr.class).");
        (Some(md.output("accel_o", m)?), Some(md.output("cls_o", m * clw)?))
    } else {
        (None, None)
    };

    let (table, avc_tab) = rc_tables(&mut md, d)?;
    let ltabs = link_tables(&mut md, d)?;
    let avc_o = if avc_tab.is_some() {
        md.doc("avc_o[v*M +: M]: allowed output VCs of hdr's destination (§2, §9.4 RC).");
        Some(md.output("avc_o", m * m)?)
    } else {
        None
    };
    let mut avcs = vec![];
    let stored_dummy = if d.faults.dummy_bit_dropped {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT pre-dummy-bit-dropped: the incoming dummy bit is lost");
        let x = md.wire_of("in_dummy_unused", &dummy.e())?;
        md.raw_line("/* verilator lint_on UNUSED */");
        let _ = x;
        Expr::one_bit(false)
    } else {
        dummy.e()
    };
    let wdata = md.wire_of("wdata", &cat(&[head.e(), tail.e(), stored_dummy, data.e()]))?;
    let in_cls = md.wire_of("in_cls", &cls_of(&data.field(d.class_lsb, clw), d.classes))?;
    let lane_e = num(lw, e as u64);
    let one_lw = num(lw, 1);
    let dt_flit = cat(&[Expr::one_bit(false), Expr::one_bit(true), Expr::one_bit(true), Expr::zero(w)]);

    let (mut va_reqs, mut va_routes, mut st_reqs, mut routes, mut ovcs, mut fronts) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut credits, mut releases, mut vticks, mut accels, mut clss) = (vec![], vec![], vec![], vec![], vec![]);
    let st = VcStates::declare(&mut md)?;
    for v in 0..m {
        let t = format!("vc{v}");
        md.comment(format!("Input VC {v}"));
        let (state_q, state_d) = md.register(&format!("{t}_state"), STATE_WIDTH, &st.idle)?;
        let (route_q, route_d) = md.register(&format!("{t}_route"), pw, &Expr::zero(pw))?;
        let (ovc_q, ovc_d) = md.register(&format!("{t}_ovc"), vw, &Expr::zero(vw))?;
        let (hdr_q, hdr_d) = md.register(&format!("{t}_hdr"), hw, &Expr::zero(hw))?;
        let (top_q, top_d) = md.register(&format!("{t}_top"), lw, &Expr::zero(lw))?;
        let (sl_q, sl_d) = md.register(&format!("{t}_sl"), lw, &Expr::zero(lw))?;
        let (wl_q, wl_d) = md.register(&format!("{t}_wl"), lw, &Expr::zero(lw))?;
        let (lmax_q, lmax_d) = md.register(&format!("{t}_lmax"), (e + 1) * clw, &Expr::zero((e + 1) * clw))?;
        let (susp_q, susp_d) = md.register(&format!("{t}_susp"), e, &Expr::zero(e))?;
        let (hs_q, hs_d) = md.register(&format!("{t}_hs"), e * hw, &Expr::zero(e * hw))?;
        let (hsp_q, hsp_d) = md.register(&format!("{t}_hsp"), lw, &Expr::zero(lw))?;
        let (sent_q, sent_d) = md.register(&format!("{t}_sent"), 1, &Expr::zero(1))?;

        // Lanes
        let lane_sel = md.wire(&format!("{t}_lane"), lw)?;
        let wr = md.wire(&format!("{t}_wr"), 1)?;
        let lpop = md.wire(&format!("{t}_lane_pop"), 1)?;
        let (mut lfronts, mut lempties, mut lfulls) = (vec![], vec![], vec![]);
        for l in 0..=e {
            let front = md.wire(&format!("{t}_l{l}_front"), fw)?;
            let empty = md.wire(&format!("{t}_l{l}_empty"), 1)?;
            let full = md.wire(&format!("{t}_l{l}_full"), 1)?;
            let lv = num(lw, l as u64);
            md.instance(
                fifo,
                &format!("u_{t}_lane{l}"),
                &[
                    clk(),
                    rst(),
                    ("push_i", wr.l_and(&lane_sel.is(&lv))),
                    ("wdata_i", wdata.e()),
                    ("pop_i", lpop.l_and(&sl_q.is(&lv))),
                    ("rdata_o", front.e()),
                    ("empty_o", empty.e()),
                    ("full_o", full.e()),
                ],
            )?;
            lfronts.push(front.e());
            lempties.push(empty.e());
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
        let fronts_w = md.wire_of(&format!("{t}_lane_fronts"), &padded(&lfronts, fw))?;
        let has: Vec<Expr> = lempties.iter().map(|x| x.l_not()).collect();
        let nonempty = md.wire_of(&format!("{t}_lane_has"), &padded(&has, 1))?;
        let fulls_w = md.wire_of(&format!("{t}_lane_full"), &padded(&lfulls, 1))?;
        let lmax_of = |l: u32| lmax_q.e().part(l * clw, clw);

        md.comment("BW: lane choice (§9.4 stage 1)");
        let arrive = valid.l_and(&vc.is(&num(vw, v as u64)));
        let is_idle = state_q.is(&st.idle);
        let is_routed = state_q.is(&st.routed);
        let is_active = state_q.is(&st.active);
        let all_idle = md.wire_of(
            &format!("{t}_all_idle"),
            &top_q.is(&Expr::zero(lw)).l_and(&lempties[0]).l_and(&sl_q.is(&Expr::zero(lw))).l_and(&is_idle),
        )?;
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
        let fit = md.wire_of(&format!("{t}_fit"), &cat_lsb(&fits))?;
        let fit_oh = lowest(&mut md, &format!("{t}_fit_first"), &fit)?;
        let any_fit = fit.any();
        let at_e = top_q.is(&lane_e);
        let opens = md.wire_of(&format!("{t}_opens"), &all_idle.l_not().l_and(&any_fit.l_not()).l_and(&at_e.l_not()))?;
        let new_lane = at_e.then_else(&lane_e, &(&top_q + &one_lw));
        let hlane = md.wire_of(
            &format!("{t}_hlane"),
            &all_idle.then_else(&Expr::zero(lw), &any_fit.then_else(&encode(&fit_oh, lw), &new_lane)),
        )?;
        md.assign(&lane_sel.lv(), &head.then_else(&hlane, &wl_q))?;
        md.assign(&wr.lv(), &arrive.l_and(&fulls_w.at_dyn(&lane_sel).l_not()))?;

        md.comment("The serving lane and the flit offered at ST (§9.4 stage 4)");
        let preempt = md.wire_of(&format!("{t}_preempt"), &sl_q.below(&top_q))?;
        let susp_ext = md.wire_of(&format!("{t}_susp_ext"), &cat(&[Expr::zero(pad + 1), susp_q.e()]))?;
        let susp_sl = md.wire_of(&format!("{t}_susp_sl"), &susp_ext.at_dyn(&sl_q))?;
        let front_sl = md.wire_of(&format!("{t}_front_sl"), &fronts_w.elem(&sl_q, fw))?;
        let has_sl = md.wire_of(&format!("{t}_has_sl"), &nonempty.at_dyn(&sl_q))?;
        let no_dh = d.faults.no_dummy_header;
        let no_dt = d.faults.no_dummy_tail;
        let k_dt = if no_dt { Expr::one_bit(false) } else { preempt.l_and(&is_active).l_and(&sent_q) };
        let k_dt = md.wire_of(&format!("{t}_offer_dt"), &k_dt)?;
        let k_dh = if no_dh { Expr::one_bit(false) } else { preempt.l_not().l_and(&is_active).l_and(&susp_sl) };
        let k_dh = md.wire_of(&format!("{t}_offer_dh"), &k_dh)?;
        let lane_ok = if no_dh { has_sl.e() } else { has_sl.l_and(&susp_sl.l_not()) };
        let k_lane = md.wire_of(&format!("{t}_offer_lane"), &preempt.l_not().l_and(&is_active).l_and(&lane_ok))?;
        let dh_flit = cat(&[Expr::one_bit(true), Expr::one_bit(false), Expr::one_bit(true), hdr_q.zext_to(w)]);
        let offer = md.wire_of(
            &format!("{t}_offer"),
            &k_dt.then_else(&dt_flit, &k_dh.then_else(&dh_flit, &front_sl)),
        )?;
        let crossed = pop.at(v);
        md.assign(&lpop.lv(), &crossed.l_and(&k_lane))?;
        let offer_tail = offer.at(fw - 2);

        md.comment("RC source: the stack top for a suspended lane, else the lane's front flit");
        let hs_top = if d.faults.stack_reads_bottom && e >= 2 {
            md.raw_line("// MUTANT pre-stack-pops-bottom: reads hs[0] instead of hs[hsp-1]");
            hs_q.field(0, hw)
        } else {
            let sels = (0..e).map(|j| hsp_q.e().eq(&num(lw, (j + 1) as u64))).collect::<Result<Vec<_>>>()?;
            let ents = (0..e).map(|j| hs_q.e().part(j * hw, hw)).collect::<Result<Vec<_>>>()?;
            onehot_select(&md.wire_of(&format!("{t}_hs_sel"), &cat_lsb(&sels))?.e(), &ents)
        };
        let hs_top = md.wire_of(&format!("{t}_hs_top"), &hs_top)?;
        let rc_src = md.wire_of(
            &format!("{t}_rc_src"),
            &susp_sl.then_else(&hs_top, &front_sl.field(0, hw)),
        )?;
        let rc_dest = rc_src.field(0, d.dest_width);
        let first = table.elem(&rc_dest, pw);
        let chosen = link_choice(&mut md, d, &t, &rc_dest, &first, free_cnt.as_ref(), &ltabs)?;
        let rc_route = md.wire_of(&format!("{t}_rc_route"), &chosen)?;
        let rc_ok = md.wire_of(
            &format!("{t}_rc"),
            &preempt.l_not().l_and(&is_idle).l_and(&susp_sl.l_or(&has_sl)),
        )?;
        let release_lane = md.wire_of(
            &format!("{t}_lane_release"),
            &preempt
                .e()
                .l_not()
                .l_and(&top_q.is_not(&Expr::zero(lw)))
                .l_and(&has_sl.l_not())
                .l_and(&is_idle)
                .l_and(&wr.l_not()),
        )?;

        let gnt = va_gnt.at(v);
        let my_ovc = va_ovc.field(v * vw, vw);
        let grant_stmts = vec![Stmt::set(&state_d, &st.active), Stmt::set(&ovc_d, &my_ovc)];
        let sl_idx = |j: u32| sl_q.is(num(lw, j as u64));
        // susp[sl] := x
        let set_susp = |x: bool| -> Result<Vec<Stmt>> {
            (0..e).map(|j| Ok(Stmt::when(sl_idx(j), vec![Stmt::set(susp_d.lv_bit(j)?, Expr::one_bit(x))]))).collect()
        };
        let mut push_stmts = vec![Stmt::note("push hdr, suspend the lane, serve the lane above")];
        for j in 0..e {
            push_stmts.push(Stmt::when(&hsp_q.is(&num(lw, j as u64)), vec![Stmt::assign(&hs_d.lv_part(j * hw, hw)?, &hdr_q.e())?]));
        }
        push_stmts.push(Stmt::set(&hsp_d, &(&hsp_q + &one_lw)));
        push_stmts.extend(set_susp(true)?);
        let mut case_a = vec![
            Stmt::set(&state_d, &st.idle),
            Stmt::set(&sent_d, &Expr::zero(1)),
            Stmt::set(&sl_d, &(&sl_q + &one_lw)),
        ];
        case_a.extend(push_stmts);
        let case_a_stmt = if no_dt {
            let mut v = vec![Stmt::note("MUTANT pre-no-dummy-tail: suspended without sending a dummy tail")];
            v.extend(case_a);
            v
        } else {
            vec![Stmt::note("(a) the dummy tail crossed"), Stmt::when(&crossed, case_a)]
        };
        let mut rc_body = vec![
            Stmt::set(&hdr_d, &rc_src),
            Stmt::set(&route_d, &rc_route),
            Stmt::set(&state_d, &st.routed),
        ];
        if d.faults.va_in_rc_cycle {
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
        stmts.extend(vec![
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
                        (st.active.clone(), vec![Stmt::when(&crossed, vec![Stmt::when_else(&k_dh, dh_cross, lane_cross)])]),
                    ],
                    vec![],
                )],
            ),
        ]);
        // BW: lane choice effects of a written header
        let mut open_stmts = vec![Stmt::set(&top_d, &(&top_q + &one_lw))];
        for l in 1..=e {
            open_stmts.push(Stmt::when(
                &top_q.is(&num(lw, (l - 1) as u64)),
                vec![Stmt::assign(&lmax_d.lv_part(l * clw, clw)?, &in_cls.e())?]));
        }
        stmts.push(Stmt::note("BW: a written header chooses its lane"));
        stmts.push(Stmt::when(
            &wr.l_and(&head),
            vec![
                Stmt::set(&wl_d, &hlane),
                Stmt::when_else(
                    &all_idle,
                    vec![Stmt::assign(&lmax_d.lv_part(0, clw)?, &in_cls.e())?],
                    vec![Stmt::when(&opens, open_stmts)],
                ),
            ]));
        md.comb(stmts)?;

        if let (Some(acc_set), Some(_)) = (&acc_set, &accel_o) {
            let (acc_q, acc_d) = md.register(&format!("{t}_acc"), 1, &Expr::zero(1))?;
            let clear = if d.faults.accel_never_cleared { Expr::one_bit(false) } else { crossed.l_and(&offer_tail) };
            md.comb(vec![
                Stmt::set(&acc_d, &acc_q),
                Stmt::when(&acc_set.at(v), vec![Stmt::set(&acc_d, &Expr::one_bit(true))]),
                Stmt::Comment(if d.faults.accel_never_cleared {
                    "MUTANT pre-accel-never-cleared: acc is never cleared".into()
                } else {
                    "a tail (real or dummy) crossed: clear (wins over a set)".into()
                }),
                Stmt::when(&clear, vec![Stmt::set(&acc_d, &Expr::zero(1))]),
            ])?;
            accels.push(&acc_q | &k_dt);
            let c = if d.faults.va_in_rc_cycle {
                is_idle.then_else(&rc_src.field(d.class_lsb, clw), &hdr_q.field(d.class_lsb, clw))
            } else {
                hdr_q.field(d.class_lsb, clw)
            };
            clss.push(cls_of(&c, d.classes));
        }

        if let Some(tab) = &avc_tab {
            // hdr holds the destination the route was computed from, so the
            // set is looked up from it rather than kept in another register.
            let dest = if d.faults.va_in_rc_cycle {
                is_idle.then_else(&rc_src.field(0, d.dest_width), &hdr_q.field(0, d.dest_width))
            } else {
                hdr_q.field(0, d.dest_width)
            };
            avcs.push(md.wire_of(&format!("{t}_avc"), &tab.elem(&dest, m))?.e());
        }
        let routed_req = is_routed.l_and(&preempt.l_not()).then_else(&onehot_of(&route_q, n), &Expr::zero(n));
        let (req, vroute) = if d.faults.va_in_rc_cycle {
            let r = routed_req | &rc_ok.then_else(&onehot_of(&rc_route, n), &Expr::zero(n));
            (r, is_idle.then_else(&rc_route, &route_q))
        } else {
            (routed_req, route_q.e())
        };
        va_reqs.push(md.wire_of(&format!("{t}_va_req"), &req)?.e());
        va_routes.push(vroute);
        st_reqs.push((&k_dt | &k_dh) | &k_lane);
        routes.push(route_q.e());
        ovcs.push(ovc_q.e());
        fronts.push(offer.e());
        credits.push(lpop.e());
        let rel = if no_dt { preempt.l_and(&is_active) } else { preempt.l_and(&is_active).l_and(&sent_q.l_not()) };
        releases.push(rel);
        vticks.push(hdr_q.field(d.vtick.lsb, d.vtick.width));
    }
    md.comment("Outputs");
    md.assign(&va_req_o.lv(), &cat_lsb(&va_reqs))?;
    if let Some(vr) = va_route_o {
        md.assign(&vr.lv(), &cat_lsb(&va_routes))?;
    }
    md.assign(&st_req_o.lv(), &cat_lsb(&st_reqs))?;
    md.assign(&route_o.lv(), &cat_lsb(&routes))?;
    md.assign(&ovc_o.lv(), &cat_lsb(&ovcs))?;
    md.assign(&front_o.lv(), &cat_lsb(&fronts))?;
    md.assign(&credit_o.lv(), &cat_lsb(&credits))?;
    md.assign(&release_o.lv(), &cat_lsb(&releases))?;
    md.assign(&vtick_o.lv(), &cat_lsb(&vticks))?;
    if let (Some(a), Some(c)) = (accel_o, cls_o) {
        md.assign(&a.lv(), &cat_lsb(&accels))?;
        md.assign(&c.lv(), &cat_lsb(&clss))?;
    }
    if let Some(ao) = avc_o {
        md.assign(&ao.lv(), &cat_lsb(&avcs))?;
    }
    Ok(md)
}

//! `<prefix>_input_port` of the preemptive mode (docs/microarchitecture.md
//! §9.4): lanes, history stack, dummy flits.

use crate::bits::{cat_lsb_first, encode, lit, onehot_of};
use crate::classes::{cls_of, lowest};
use crate::dims::Dims;
use crate::route_tables::{avc_table, link_choice, link_tables};
use crate::vc_state::{VcStates, STATE_WIDTH};
use crate::verilog::{Expr, Module, Result, Stmt};


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

    md.comment("Routing table: entry d = output port of destination d (codes >= endpoints -> 0).");
    let entries = 1u32 << d.dest_width;
    let mut table = Vec::new();
    for dest in 0..entries {
        let mut port = d.routes.get(dest as usize).copied().unwrap_or(0);
        if dest == 0 && d.faults.dest0_misrouted {
            port = (port + 1) % n;
        }
        table.push(lit(pw, port as u64)?);
    }
    let table = md.wire_of("route_table", &cat_lsb_first(&table)?)?;
    let avc_tab = avc_table(&mut md, d)?;
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
    let wdata = md.wire_of("wdata", &Expr::concat(&[head.e(), tail.e(), stored_dummy, data.e()])?)?;
    let in_cls = md.wire_of("in_cls", &cls_of(&data.e().part(d.class_lsb, clw)?, d.classes)?)?;
    let lane_e = lit(lw, e as u64)?;
    let one_lw = lit(lw, 1)?;
    let dt_flit = Expr::concat(&[Expr::one_bit(false), Expr::one_bit(true), Expr::one_bit(true), Expr::zero(w)])?;

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
            let lv = lit(lw, l as u64)?;
            md.instance(
                fifo,
                &format!("u_{t}_lane{l}"),
                &[
                    ("clk_i", Expr::raw("clk_i", 1)),
                    ("rst_i", Expr::raw("rst_i", 1)),
                    ("push_i", wr.e().land(&lane_sel.e().eq(&lv)?)?),
                    ("wdata_i", wdata.e()),
                    ("pop_i", lpop.e().land(&sl_q.e().eq(&lv)?)?),
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
        let padded = |xs: &[Expr], wdt: u32| -> Result<Expr> {
            let mut v = xs.to_vec();
            for _ in 0..pad {
                v.push(Expr::zero(wdt));
            }
            cat_lsb_first(&v)
        };
        let fronts_w = md.wire_of(&format!("{t}_lane_fronts"), &padded(&lfronts, fw)?)?;
        let has: Vec<Expr> = lempties.iter().map(|x| x.lnot()).collect::<Result<_>>()?;
        let nonempty = md.wire_of(&format!("{t}_lane_has"), &padded(&has, 1)?)?;
        let fulls_w = md.wire_of(&format!("{t}_lane_full"), &padded(&lfulls, 1)?)?;
        let lmax_of = |l: u32| lmax_q.e().part(l * clw, clw);

        md.comment("BW: lane choice (§9.4 stage 1)");
        let arrive = valid.e().land(&vc.e().eq(&lit(vw, v as u64)?)?)?;
        let is_idle = state_q.e().eq(&st.idle)?;
        let is_routed = state_q.e().eq(&st.routed)?;
        let is_active = state_q.e().eq(&st.active)?;
        let all_idle = md.wire_of(
            &format!("{t}_all_idle"),
            &top_q.e().eq(&Expr::zero(lw))?.land(&lempties[0])?.land(&sl_q.e().eq(&Expr::zero(lw))?)?.land(&is_idle)?,
        )?;
        let mut fits = vec![];
        for l in 0..=e {
            let cmp = if d.faults.lane_fit_strict {
                in_cls.e().lt(&lmax_of(l)?)?
            } else {
                lmax_of(l)?.ge(&in_cls.e())?
            };
            // lanes 0..=top
            if l == 0 {
                fits.push(cmp);
            } else {
                fits.push(top_q.e().ge(&lit(lw, l as u64)?)?.land(&cmp)?);
            }
        }
        let fit = md.wire_of(&format!("{t}_fit"), &cat_lsb_first(&fits)?)?;
        let fit_oh = lowest(&mut md, &format!("{t}_fit_first"), &fit)?;
        let any_fit = fit.e().red_or();
        let at_e = top_q.e().eq(&lane_e)?;
        let opens = md.wire_of(&format!("{t}_opens"), &all_idle.e().lnot()?.land(&any_fit.lnot()?)?.land(&at_e.lnot()?)?)?;
        let new_lane = Expr::mux(&at_e, &lane_e, &top_q.e().add(&one_lw)?)?;
        let hlane = md.wire_of(
            &format!("{t}_hlane"),
            &Expr::mux(&all_idle.e(), &Expr::zero(lw), &Expr::mux(&any_fit, &encode(&fit_oh.e(), lw)?, &new_lane)?)?,
        )?;
        md.assign(&lane_sel.lv(), &Expr::mux(&head.e(), &hlane.e(), &wl_q.e())?)?;
        md.assign(&wr.lv(), &arrive.land(&fulls_w.e().bit_dyn(&lane_sel.e())?.lnot()?)?)?;

        md.comment("The serving lane and the flit offered at ST (§9.4 stage 4)");
        let preempt = md.wire_of(&format!("{t}_preempt"), &sl_q.e().lt(&top_q.e())?)?;
        let susp_ext = md.wire_of(&format!("{t}_susp_ext"), &Expr::concat(&[Expr::zero(pad + 1), susp_q.e()])?)?;
        let susp_sl = md.wire_of(&format!("{t}_susp_sl"), &susp_ext.e().bit_dyn(&sl_q.e())?)?;
        let front_sl = md.wire_of(&format!("{t}_front_sl"), &fronts_w.e().elem_dyn(&sl_q.e(), fw)?)?;
        let has_sl = md.wire_of(&format!("{t}_has_sl"), &nonempty.e().bit_dyn(&sl_q.e())?)?;
        let no_dh = d.faults.no_dummy_header;
        let no_dt = d.faults.no_dummy_tail;
        let k_dt = if no_dt { Expr::one_bit(false) } else { preempt.e().land(&is_active)?.land(&sent_q.e())? };
        let k_dt = md.wire_of(&format!("{t}_offer_dt"), &k_dt)?;
        let k_dh = if no_dh { Expr::one_bit(false) } else { preempt.e().lnot()?.land(&is_active)?.land(&susp_sl.e())? };
        let k_dh = md.wire_of(&format!("{t}_offer_dh"), &k_dh)?;
        let lane_ok = if no_dh { has_sl.e() } else { has_sl.e().land(&susp_sl.e().lnot()?)? };
        let k_lane = md.wire_of(&format!("{t}_offer_lane"), &preempt.e().lnot()?.land(&is_active)?.land(&lane_ok)?)?;
        let dh_flit = Expr::concat(&[Expr::one_bit(true), Expr::one_bit(false), Expr::one_bit(true), hdr_q.e().zext(w)?])?;
        let offer = md.wire_of(
            &format!("{t}_offer"),
            &Expr::mux(&k_dt.e(), &dt_flit, &Expr::mux(&k_dh.e(), &dh_flit, &front_sl.e())?)?,
        )?;
        let crossed = pop.e().bit(v)?;
        md.assign(&lpop.lv(), &crossed.land(&k_lane.e())?)?;
        let offer_tail = offer.e().bit(fw - 2)?;

        md.comment("RC source: the stack top for a suspended lane, else the lane's front flit");
        let hs_top = if d.faults.stack_reads_bottom && e >= 2 {
            md.raw_line("// MUTANT pre-stack-pops-bottom: reads hs[0] instead of hs[hsp-1]");
            hs_q.e().part(0, hw)?
        } else {
            let sels = (0..e).map(|j| hsp_q.e().eq(&lit(lw, (j + 1) as u64)?)).collect::<Result<Vec<_>>>()?;
            let ents = (0..e).map(|j| hs_q.e().part(j * hw, hw)).collect::<Result<Vec<_>>>()?;
            Expr::onehot_mux(&md.wire_of(&format!("{t}_hs_sel"), &cat_lsb_first(&sels)?)?.e(), &ents)?
        };
        let hs_top = md.wire_of(&format!("{t}_hs_top"), &hs_top)?;
        let rc_src = md.wire_of(
            &format!("{t}_rc_src"),
            &Expr::mux(&susp_sl.e(), &hs_top.e(), &front_sl.e().part(0, hw)?)?,
        )?;
        let rc_dest = rc_src.e().part(0, d.dest_width)?;
        let first = table.e().elem_dyn(&rc_dest, pw)?;
        let chosen = link_choice(&mut md, d, &t, &rc_dest, &first, free_cnt.as_ref(), &ltabs)?;
        let rc_route = md.wire_of(&format!("{t}_rc_route"), &chosen)?;
        let rc_ok = md.wire_of(
            &format!("{t}_rc"),
            &preempt.e().lnot()?.land(&is_idle)?.land(&susp_sl.e().lor(&has_sl.e())?)?,
        )?;
        let release_lane = md.wire_of(
            &format!("{t}_lane_release"),
            &preempt
                .e()
                .lnot()?
                .land(&top_q.e().ne(&Expr::zero(lw))?)?
                .land(&has_sl.e().lnot()?)?
                .land(&is_idle)?
                .land(&wr.e().lnot()?)?,
        )?;

        let gnt = va_gnt.e().bit(v)?;
        let my_ovc = va_ovc.e().part(v * vw, vw)?;
        let grant_stmts = vec![Stmt::assign(&state_d.lv(), &st.active)?, Stmt::assign(&ovc_d.lv(), &my_ovc)?];
        let sl_idx = |j: u32| sl_q.e().eq(&lit(lw, j as u64)?);
        // susp[sl] := x
        let set_susp = |x: bool| -> Result<Vec<Stmt>> {
            (0..e)
                .map(|j| Stmt::if_(&sl_idx(j)?, vec![Stmt::assign(&susp_d.lv_bit(j)?, &Expr::one_bit(x))?], vec![]))
                .collect()
        };
        let mut push_stmts = vec![Stmt::Comment("push hdr, suspend the lane, serve the lane above".into())];
        for j in 0..e {
            push_stmts.push(Stmt::if_(&hsp_q.e().eq(&lit(lw, j as u64)?)?, vec![Stmt::assign(&hs_d.lv_part(j * hw, hw)?, &hdr_q.e())?], vec![])?);
        }
        push_stmts.push(Stmt::assign(&hsp_d.lv(), &hsp_q.e().add(&one_lw)?)?);
        push_stmts.extend(set_susp(true)?);
        let mut case_a = vec![
            Stmt::assign(&state_d.lv(), &st.idle)?,
            Stmt::assign(&sent_d.lv(), &Expr::zero(1))?,
            Stmt::assign(&sl_d.lv(), &sl_q.e().add(&one_lw)?)?,
        ];
        case_a.extend(push_stmts);
        let case_a_stmt = if no_dt {
            let mut v = vec![Stmt::Comment("MUTANT pre-no-dummy-tail: suspended without sending a dummy tail".into())];
            v.extend(case_a);
            v
        } else {
            vec![Stmt::Comment("(a) the dummy tail crossed".into()), Stmt::if_(&crossed, case_a, vec![])?]
        };
        let mut rc_body = vec![
            Stmt::assign(&hdr_d.lv(), &rc_src.e())?,
            Stmt::assign(&route_d.lv(), &rc_route.e())?,
            Stmt::assign(&state_d.lv(), &st.routed)?,
        ];
        if d.faults.va_in_rc_cycle {
            rc_body.push(Stmt::if_(&gnt, grant_stmts.clone(), vec![])?);
        }
        let mut dh_cross = vec![Stmt::Comment("the dummy header crossed: pop the stack".into())];
        dh_cross.push(Stmt::assign(&hsp_d.lv(), &hsp_q.e().sub(&one_lw)?)?);
        dh_cross.extend(set_susp(false)?);
        dh_cross.push(Stmt::assign(&sent_d.lv(), &Expr::one_bit(true))?);
        let mut lane_cross = vec![Stmt::Comment("a lane flit crossed".into()), Stmt::assign(&sent_d.lv(), &Expr::one_bit(true))?];
        if no_dh {
            let mut pop_stack = vec![Stmt::Comment("MUTANT pre-no-dummy-header: the stack is popped by the first lane flit".into())];
            pop_stack.push(Stmt::assign(&hsp_d.lv(), &hsp_q.e().sub(&one_lw)?)?);
            pop_stack.extend(set_susp(false)?);
            lane_cross.push(Stmt::if_(&susp_sl.e(), pop_stack, vec![])?);
        }
        lane_cross.push(Stmt::if_(
            &offer_tail,
            vec![Stmt::assign(&state_d.lv(), &st.idle)?, Stmt::assign(&sent_d.lv(), &Expr::zero(1))?],
            vec![],
        )?);
        let mut stmts = vec![
            Stmt::assign(&state_d.lv(), &state_q.e())?,
            Stmt::assign(&route_d.lv(), &route_q.e())?,
            Stmt::assign(&ovc_d.lv(), &ovc_q.e())?,
            Stmt::assign(&hdr_d.lv(), &hdr_q.e())?,
            Stmt::assign(&top_d.lv(), &top_q.e())?,
            Stmt::assign(&sl_d.lv(), &sl_q.e())?,
            Stmt::assign(&wl_d.lv(), &wl_q.e())?,
            Stmt::assign(&lmax_d.lv(), &lmax_q.e())?,
            Stmt::assign(&susp_d.lv(), &susp_q.e())?,
            Stmt::assign(&hs_d.lv(), &hs_q.e())?,
            Stmt::assign(&hsp_d.lv(), &hsp_q.e())?,
            Stmt::assign(&sent_d.lv(), &sent_q.e())?,
            Stmt::if_(
                &preempt.e(),
                vec![
                    Stmt::Comment("Preemption step (sl < top)".into()),
                    Stmt::if_(
                        &is_active.land(&sent_q.e())?,
                        case_a_stmt,
                        vec![
                            Stmt::Comment("(b) ACTIVE, nothing sent / (c) ROUTED or IDLE".into()),
                            Stmt::assign(&state_d.lv(), &st.idle)?,
                            Stmt::assign(&sl_d.lv(), &sl_q.e().add(&one_lw)?)?,
                        ],
                    )?,
                ],
                vec![Stmt::case(
                    &state_q.e(),
                    vec![
                        (
                            st.idle.clone(),
                            vec![
                                Stmt::Comment("RC".into()),
                                Stmt::if_(&rc_ok.e(), rc_body, vec![])?,
                                Stmt::Comment("lane release".into()),
                                Stmt::if_(
                                    &release_lane.e(),
                                    vec![Stmt::assign(&top_d.lv(), &top_q.e().sub(&one_lw)?)?, Stmt::assign(&sl_d.lv(), &sl_q.e().sub(&one_lw)?)?],
                                    vec![],
                                )?,
                            ],
                        ),
                        (st.routed.clone(), vec![Stmt::Comment("VA grant".into()), Stmt::if_(&gnt, grant_stmts, vec![])?]),
                        (st.active.clone(), vec![Stmt::if_(&crossed, vec![Stmt::if_(&k_dh.e(), dh_cross, lane_cross)?], vec![])?]),
                    ],
                    vec![],
                )?],
            )?,
        ];
        // BW: lane choice effects of a written header
        let mut open_stmts = vec![Stmt::assign(&top_d.lv(), &top_q.e().add(&one_lw)?)?];
        for l in 1..=e {
            open_stmts.push(Stmt::if_(
                &top_q.e().eq(&lit(lw, (l - 1) as u64)?)?,
                vec![Stmt::assign(&lmax_d.lv_part(l * clw, clw)?, &in_cls.e())?],
                vec![],
            )?);
        }
        stmts.push(Stmt::Comment("BW: a written header chooses its lane".into()));
        stmts.push(Stmt::if_(
            &wr.e().land(&head.e())?,
            vec![
                Stmt::assign(&wl_d.lv(), &hlane.e())?,
                Stmt::if_(
                    &all_idle.e(),
                    vec![Stmt::assign(&lmax_d.lv_part(0, clw)?, &in_cls.e())?],
                    vec![Stmt::if_(&opens.e(), open_stmts, vec![])?],
                )?,
            ],
            vec![],
        )?);
        md.comb(stmts)?;

        if let (Some(acc_set), Some(_)) = (&acc_set, &accel_o) {
            let (acc_q, acc_d) = md.register(&format!("{t}_acc"), 1, &Expr::zero(1))?;
            let clear = if d.faults.accel_never_cleared { Expr::one_bit(false) } else { crossed.land(&offer_tail)? };
            md.comb(vec![
                Stmt::assign(&acc_d.lv(), &acc_q.e())?,
                Stmt::if_(&acc_set.e().bit(v)?, vec![Stmt::assign(&acc_d.lv(), &Expr::one_bit(true))?], vec![])?,
                Stmt::Comment(if d.faults.accel_never_cleared {
                    "MUTANT pre-accel-never-cleared: acc is never cleared".into()
                } else {
                    "a tail (real or dummy) crossed: clear (wins over a set)".into()
                }),
                Stmt::if_(&clear, vec![Stmt::assign(&acc_d.lv(), &Expr::zero(1))?], vec![])?,
            ])?;
            accels.push(acc_q.e().or(&k_dt.e())?);
            let c = if d.faults.va_in_rc_cycle {
                Expr::mux(&is_idle, &rc_src.e().part(d.class_lsb, clw)?, &hdr_q.e().part(d.class_lsb, clw)?)?
            } else {
                hdr_q.e().part(d.class_lsb, clw)?
            };
            clss.push(cls_of(&c, d.classes)?);
        }

        if let Some(tab) = &avc_tab {
            // hdr holds the destination the route was computed from, so the
            // set is looked up from it rather than kept in another register.
            let dest = if d.faults.va_in_rc_cycle {
                Expr::mux(&is_idle, &rc_src.e().part(0, d.dest_width)?, &hdr_q.e().part(0, d.dest_width)?)?
            } else {
                hdr_q.e().part(0, d.dest_width)?
            };
            avcs.push(md.wire_of(&format!("{t}_avc"), &tab.e().elem_dyn(&dest, m)?)?.e());
        }
        let routed_req = Expr::mux(&is_routed.land(&preempt.e().lnot()?)?, &onehot_of(&route_q.e(), n)?, &Expr::zero(n))?;
        let (req, vroute) = if d.faults.va_in_rc_cycle {
            let r = routed_req.or(&Expr::mux(&rc_ok.e(), &onehot_of(&rc_route.e(), n)?, &Expr::zero(n))?)?;
            (r, Expr::mux(&is_idle, &rc_route.e(), &route_q.e())?)
        } else {
            (routed_req, route_q.e())
        };
        va_reqs.push(md.wire_of(&format!("{t}_va_req"), &req)?.e());
        va_routes.push(vroute);
        st_reqs.push(k_dt.e().or(&k_dh.e())?.or(&k_lane.e())?);
        routes.push(route_q.e());
        ovcs.push(ovc_q.e());
        fronts.push(offer.e());
        credits.push(lpop.e());
        let rel = if no_dt { preempt.e().land(&is_active)? } else { preempt.e().land(&is_active)?.land(&sent_q.e().lnot()?)? };
        releases.push(rel);
        vticks.push(hdr_q.e().part(d.vtick.lsb, d.vtick.width)?);
    }
    md.comment("Outputs");
    md.assign(&va_req_o.lv(), &cat_lsb_first(&va_reqs)?)?;
    if let Some(vr) = va_route_o {
        md.assign(&vr.lv(), &cat_lsb_first(&va_routes)?)?;
    }
    md.assign(&st_req_o.lv(), &cat_lsb_first(&st_reqs)?)?;
    md.assign(&route_o.lv(), &cat_lsb_first(&routes)?)?;
    md.assign(&ovc_o.lv(), &cat_lsb_first(&ovcs)?)?;
    md.assign(&front_o.lv(), &cat_lsb_first(&fronts)?)?;
    md.assign(&credit_o.lv(), &cat_lsb_first(&credits)?)?;
    md.assign(&release_o.lv(), &cat_lsb_first(&releases)?)?;
    md.assign(&vtick_o.lv(), &cat_lsb_first(&vticks)?)?;
    if let (Some(a), Some(c)) = (accel_o, cls_o) {
        md.assign(&a.lv(), &cat_lsb_first(&accels)?)?;
        md.assign(&c.lv(), &cat_lsb_first(&clss)?)?;
    }
    if let Some(ao) = avc_o {
        md.assign(&ao.lv(), &cat_lsb_first(&avcs)?)?;
    }
    Ok(md)
}

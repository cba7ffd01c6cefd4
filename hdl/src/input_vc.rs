//! `<prefix>_input_vc`: the state of one input VC (docs/microarchitecture.md
//! §4, §6 stages 2 to 4) for every mode but the preemptive one (see
//! `input_vc_p`): the state machine IDLE/ROUTED/ACTIVE with its route and
//! output VC, and the registers RC loads beside the route (Vtick, allowed
//! output VCs, class). The input port instantiates it once per VC. RC's
//! table look-ups stay in the input port: the looked-up values come in on
//! the `rc_*_i` ports, so the tables are not copied into every VC.

use crate::bits::{onehot_of, onehot_of_pair};
use crate::dims::Dims;
use crate::vc_state::{VcStates, STATE_WIDTH};
use crate::verilog::{Expr, Module, Result, Stmt};

/// `<prefix>_input_vc` of a non-preemptive router.
pub(crate) fn input_vc(d: &Dims) -> Result<Module> {
    let (n, m, vw, pw) = (d.ports, d.vcs, d.vc_id_width, d.port_id_width);
    let mut md = Module::new(format!("{}_input_vc", d.prefix));
    md.doc("One input VC: the state IDLE/ROUTED/ACTIVE (docs/microarchitecture.md §4) with the");
    md.doc("route and output VC it holds, and the registers RC loads with the route.");
    md.doc("empty_i: the VC's buffer is empty (else its front flit is a header when IDLE).");
    md.doc("rc_route_i: the output port RC computes from the front header (stage 2).");
    md.doc("va_gnt_i, va_ovc_i: VA granted this VC the output VC va_ovc_i (stage 3).");
    md.doc("pop_i, pop_tail_i: a flit of this VC crosses the crossbar; it is a tail (stage 4).");
    md.doc("va_req_o[o]: the VC requests an output VC of port o (stage 3).");
    md.doc("active_o: the VC is ACTIVE. route_o, ovc_o: its output port and output VC.");
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let empty = md.input("empty_i", 1);
    let rc_route = md.input("rc_route_i", pw);
    let gnt = md.input("va_gnt_i", 1);
    let va_ovc = md.input("va_ovc_i", vw);
    let pop = md.input("pop_i", 1);
    let pop_tail = md.input("pop_tail_i", 1);
    let vclock = d.virtual_clock().map(|vc| vc.vtick.width);
    let rc_vtick = match vclock {
        Some(vtw) => {
            md.doc("rc_vtick_i: the front header's Vtick field; vtick_o: the VC's Vtick register");
            md.doc("(virtualclock, §8.2), loaded at RC, cleared (best effort) when the tail crosses.");
            Some(md.input("rc_vtick_i", vtw))
        }
        None => None,
    };
    let rc_avc = if d.allowed_vcs.is_some() {
        md.doc("rc_avc_i: the destination's allowed output VCs; avc_o: the VC's (§2, §6 stage 3).");
        Some(md.input("rc_avc_i", m))
    } else {
        None
    };
    let rc_cls = if d.va_needs_class() {
        md.doc("rc_cls_i: cls() of the front header's class; cls_o: the VC's (§9.1, §9.2).");
        Some(md.input("rc_cls_i", d.class_width))
    } else {
        None
    };
    // RC and VA in one cycle: stage RV of the registered pipeline, or the
    // skip-rc-stage mutant.
    let rv = d.va_in_rc_cycle();
    if rv {
        md.doc("An IDLE VC with a flit requests VA with rc_route_i in the same cycle (va_route_o:");
        md.doc("the route its request names); avc_o and cls_o show RC's values while IDLE.");
    }
    // Stage RV's request, route and class from registers loaded a cycle
    // early (§6, *VA's inputs computed a cycle early*): the buffer's next
    // empty flag and RC's route and class of the next front.
    let pre = d.va_inputs_registered();
    let next_in = if pre {
        md.doc("empty_next_i, rc_route_next_i, rc_cls_next_i: the buffer's empty flag and RC's route");
        md.doc("and class of its front flit in the next cycle. The route and class registers hold");
        md.doc("RC's values of the front while IDLE (loaded a cycle early), va_req_q the request on");
        md.doc("the route: va_req_o, va_route_o and cls_o start at flip-flops.");
        let en = md.input("empty_next_i", 1);
        let rn = md.input("rc_route_next_i", pw);
        let cn = if rc_cls.is_some() { Some(md.input("rc_cls_next_i", d.class_width)) } else { None };
        Some((en, rn, cn))
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", n);
    let va_route_o = if rv { Some(md.output("va_route_o", pw)) } else { None };
    let active_o = md.output("active_o", 1);
    let route_o = md.output("route_o", pw);
    let ovc_o = md.output("ovc_o", vw);
    let vtick_o = match vclock {
        Some(vtw) => Some(md.output("vtick_o", vtw)),
        None => None,
    };
    // Registered switch allocation: the output VC buffer the VC is allocated,
    // one-hot, so that SA's room look-up is an AND-OR of flip-flops.
    let dst_o = if d.registered() {
        md.doc("dst_o[o*M+u]: the VC holds output VC u of port o (one-hot, registered at the VA");
        md.doc("grant; meaningful while ACTIVE): SA's room look-up (§6 registered).");
        Some(md.output("dst_o", d.all_vcs()))
    } else {
        None
    };
    let avc_o = if rc_avc.is_some() { Some(md.output("avc_o", m)) } else { None };
    let cls_o = if rc_cls.is_some() { Some(md.output("cls_o", d.class_width)) } else { None };

    let st = VcStates::declare(&mut md)?;
    let (state_q, state_d) = md.register("state", STATE_WIDTH, &st.idle);
    // With VA's inputs registered the route register also holds RC's route
    // of the front flit while IDLE, loaded a cycle early (below); its next
    // value is then a wire.
    let (route_q, route_d) = if pre { md.register_wire_d("route", &Expr::zero(pw)) } else { md.register("route", pw, &Expr::zero(pw)) };
    let (ovc_q, ovc_d) = md.register("ovc", vw, &Expr::zero(vw));
    let is_idle = state_q.is(&st.idle);
    let is_routed = state_q.is(&st.routed);
    let is_active = state_q.is(&st.active);
    let not_empty = empty.l_not();
    // RC: an IDLE VC whose buffer holds a flit (a header) computes its route.
    let rc_now = is_idle.l_and(&not_empty);
    let tail_crossed = pop.l_and(&pop_tail);
    // Registered (stage RV): `ovc` loads VA's output VC for this VC in every
    // cycle it is not ACTIVE and holds while ACTIVE, like `dst` below; the
    // grant cycle's load is u*, and `ovc` is read only while ACTIVE (§6).
    let on_grant = if rv { vec![Stmt::set(&state_d, &st.active)] } else { vec![Stmt::set(&state_d, &st.active), Stmt::set(&ovc_d, &va_ovc)] };
    let ovc_hold = if rv { is_active.then_else(&ovc_q, &va_ovc) } else { ovc_q.e() };
    let mut rc = if pre { vec![] } else { vec![Stmt::set(&route_d, &rc_route)] };
    rc.push(Stmt::set(&state_d, &st.routed));
    if rv {
        rc.push(Stmt::when(&gnt, on_grant.clone()));
    }
    // Each register holds unless the case below sets it; with VA's inputs
    // registered the route's next value is assigned below instead.
    let mut body = vec![Stmt::set(&state_d, &state_q)];
    if !pre {
        body.push(Stmt::set(&route_d, &route_q));
    }
    body.push(Stmt::set(&ovc_d, &ovc_hold));
    body.push(
        Stmt::case_of(
            &state_q,
            vec![
                (st.idle.clone(), vec![Stmt::note("RC"), Stmt::when(&not_empty, rc)]),
                (st.routed.clone(), vec![Stmt::note("VA grant"), Stmt::when(&gnt, on_grant)]),
                (
                    st.active.clone(),
                    vec![Stmt::when(
                        &tail_crossed,
                        vec![Stmt::note("the tail crossed the crossbar"), Stmt::set(&state_d, &st.idle)],
                    )],
                ),
            ],
            vec![],
        ),
    );
    md.comb(body);
    // VA's inputs of the next cycle (§6, *VA's inputs computed a cycle
    // early*): the VC is IDLE in the next cycle (and then reads RC's route
    // and class of the next front).
    let next_idle = if pre {
        let ni = is_idle.l_and(&empty).l_or(&is_active.l_and(&tail_crossed));
        Some(md.wire_of("next_idle", &ni))
    } else {
        None
    };
    if let (Some(field), Some(out)) = (&rc_vtick, &vtick_o) {
        let vtw = field.width;
        let (vt_q, vt_d) = md.register("vtick", vtw, &Expr::zero(vtw));
        let clear = vec![
            Stmt::note("the tail crossed the crossbar: the message's Vtick is discarded"),
            Stmt::set(&vt_d, &Expr::zero(vtw)),
        ];
        md.comb(vec![
            Stmt::set(&vt_d, &vt_q),
            Stmt::when_else(
                &rc_now,
                vec![Stmt::note("RC: the header's Vtick field"), Stmt::set(&vt_d, field)],
                vec![Stmt::when(&is_active.l_and(&tail_crossed), clear)],
            ),
        ]);
        md.assign(&out, &vt_q);
    }
    if let (Some(rc_avc), Some(out)) = (&rc_avc, &avc_o) {
        let (a_q, a_d) = md.register("avc", m, &Expr::zero(m));
        md.comb(vec![
            Stmt::set(&a_d, &a_q),
            Stmt::when(&rc_now, vec![Stmt::note("RC: the destination's allowed output VCs"), Stmt::set(&a_d, rc_avc)]),
        ]);
        md.assign(&out.lv(), &if rv { is_idle.then_else(rc_avc, &a_q) } else { a_q.e() });
    }
    // the class VA reads: RC's while IDLE (stage RV), else the register
    if let (Some(rc_cls), Some(out)) = (&rc_cls, &cls_o) {
        match (&next_in, &next_idle) {
            (Some((_, _, Some(cls_next))), Some(ni)) => {
                // the class register holds RC's class of the front while
                // IDLE, loaded a cycle early like the route
                let (c_q, c_d) = md.register_wire_d("cls", &Expr::zero(d.class_width));
                md.assign(&c_d, &ni.then_else(cls_next, &c_q));
                md.assign(&out.lv(), &c_q);
                md.assert_always(&rc_now.l_not().l_or(&c_q.is(rc_cls)), "an IDLE VC's class is RC's class of its front");
            }
            _ => {
                let (c_q, c_d) = md.register("cls", d.class_width, &Expr::zero(d.class_width));
                md.comb(vec![
                    Stmt::set(&c_d, &c_q),
                    Stmt::when(&rc_now, vec![Stmt::note("RC: the header's class, cls() applied"), Stmt::set(&c_d, rc_cls)]),
                ]);
                md.assign(&out.lv(), &if rv { is_idle.then_else(rc_cls, &c_q) } else { c_q.e() });
            }
        }
    }
    // The route VA grants on: RC's in stage RV (IDLE), else the register;
    // with VA's inputs registered, the register (RC's route while IDLE).
    let routed_req = is_routed.then_else(&onehot_of(&route_q, n), &Expr::zero(n));
    let req_now = if rv { routed_req | &rc_now.then_else(&onehot_of(&rc_route, n), &Expr::zero(n)) } else { routed_req };
    let (va_route, req) = match (&next_in, &next_idle) {
        (Some((empty_next, route_next, _)), Some(ni)) => {
            md.comment("The route register: RC's route of the next front if the VC is IDLE next cycle,");
            md.comment("else held (RC's route of the front while IDLE, the message's route after).");
            md.assign(&route_d, &ni.then_else(route_next, &route_q));
            md.assert_always(&rc_now.l_not().l_or(&route_q.is(&rc_route)), "an IDLE VC's route is RC's route of its front");
            md.comment("The VC wants an output VC next cycle if it does now and is not granted, or");
            md.comment("becomes IDLE with a flit in its buffer.");
            let wants_now = is_routed.l_or(&rc_now);
            let kept = if d.faults.va_pre_grant_unmasked {
                md.comment("MUTANT va-pre-grant-unmasked: a VC granted now wants again next cycle");
                wants_now
            } else {
                wants_now.l_and(&gnt.l_not())
            };
            let want_next = if d.faults.va_next_header_late {
                md.comment("MUTANT va-next-header-late: a header written into an IDLE VC's empty buffer");
                md.comment("requests a cycle late (only a VC whose tail crosses counts the next front)");
                kept.l_or(&ni.l_and(&empty_next.l_not()).l_and(&is_active))
            } else {
                kept.l_or(&ni.l_and(&empty_next.l_not()))
            };
            // registered one-hot on the next route, so that VA's requests
            // come straight from flip-flops; an AND, not `want ? onehot : 0`,
            // so that synthesis keeps VA's grant in the data input instead of
            // folding it into the flip-flop's synchronous reset (on ECP5 that
            // reset input was the end of the split router's longest path)
            let req = md.register_next("va_req", &Expr::zero(n), &(want_next.rep(n) & &onehot_of(&route_d, n)));
            md.assert_always(&req.is(&req_now), "the registered VA request equals the one of the state");
            (route_q.e(), req.e())
        }
        _ => (is_idle.then_else(&rc_route, &route_q), req_now),
    };
    if let Some(out) = &dst_o {
        let (dst_q, dst_d) = md.register_wire_d("dst", &Expr::zero(d.all_vcs()));
        let granted = onehot_of_pair(&mut md, "gnt_dst", &va_route, n, &va_ovc.e(), m)?;
        // Loaded in every cycle the VC is not ACTIVE (what a grant would
        // give it), held while ACTIVE: the grant cycle's load is the granted
        // (route, ovc), and SA reads dst only for ACTIVE VCs (§6). The VA
        // grant is thus not the load enable.
        md.assign(&dst_d, &is_active.then_else(&dst_q, &granted));
        md.assign(out, &dst_q);
    }
    md.comment("Outputs");
    md.assign(&va_req_o, &req);
    if let Some(vr) = va_route_o {
        md.assign(&vr, &va_route);
    }
    md.assign(&active_o, &is_active);
    md.assign(&route_o, &route_q);
    md.assign(&ovc_o, &ovc_q);
    md.finish()
}

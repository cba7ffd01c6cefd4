//! `<prefix>_input_port` of the preemptive mode (docs/microarchitecture.md
//! §9.4): RC's table look-ups and one `<prefix>_input_vc` (`input_vc_p`:
//! lanes, history stack, dummy flits, the VC state) per VC.

use crate::bits::{at_most_one_set, clk, rst, subset_of};
use crate::input_port::SgPorts;
use crate::classes::cls_of;
use crate::dims::Dims;
use crate::route_tables::{link_choice, link_tables, rc_tables};
use crate::verilog::{cat, cat_lsb, num, onehot_select, Expr, Module, Result};


/// `<prefix>_input_port` of the preemptive mode (§9.4): the incoming flit
/// and its class, RC's routing-table look-ups, and `vc_ctrl` (one input VC
/// with its E+1 lanes, `input_vc_p`) per VC.
pub(crate) fn input_port_p(d: &Dims, vc_ctrl: &Module) -> Result<Module> {
    let (n, m, w, fw, vw, pw) = (d.ports, d.vcs, d.data_width, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let clw = d.class_width;
    let mut md = Module::new(format!("{}_input_port", d.prefix));
    md.doc("Input port of the preemptive router (§9.4): one input_vc per VC (u_vc<v>: E+1 lanes");
    md.doc("of DI flits {head, tail, dummy, data}, the header register hdr, top/sl/wl, lmax[],");
    md.doc("susp[], the history stack hs[]/hsp and sent; stage 1 (BW, lane choice), lane release,");
    md.doc("the preemption step, the VC state) and stage 2 (RC: the table look-ups).");
    md.doc("va_req_o[v*N+o]: VC v requests an output VC of port o (stage 3).");
    md.doc("st_req_o[v]: VC v offers a flit at ST (dummy tail, dummy header or lane flit), before");
    md.doc("the output-buffer check; front_o[v*FW +: FW] is that flit {head, tail, dummy, data}.");
    md.doc("credit_o[v]: the flit that crossed left a lane (a credit is returned).");
    md.doc("release_o[v]: preemption case (b): VC v frees its output VC (route_o, ovc_o).");
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let valid = md.input("in_valid_i", 1);
    let vc = md.input("in_vc_i", vw);
    let head = md.input("in_head_i", 1);
    let tail = md.input("in_tail_i", 1);
    let dummy = md.input("in_dummy_i", 1);
    let data = md.input("in_data_i", w);
    let lw = d.lane_id_width();
    let in_lane = if d.per_lane() {
        md.doc("in_lane_i: the lane the flit names (per-lane credits, §9.4 Credits); credit_lane_o[v*LW +:");
        md.doc("LW]: the lane credit_o[v] frees.");
        Some(md.input("in_lane_i", lw))
    } else {
        None
    };
    let va_gnt = md.input("va_gnt_i", m);
    let va_ovc = md.input("va_ovc_i", m * vw);
    let reg = d.registered();
    if reg {
        md.doc("Registered switch allocation in P mode (§6): each VC keeps SA's grant of its offer");
        md.doc("(sa_gnt_i, one-hot or zero) with its kind; it crosses in the next cycle (pend_o;");
        md.doc("sg_valid_o, sg_route_o, sg_ovc_o, st_flit_o, sg_tail_o: the crossing offer). st_req_o[v]:");
        md.doc("VC v's offer at SA, behind a crossing one; gtail_o: its tail bit. credit_o[v]: SA");
        md.doc("granted a lane flit (its credit leaves with the crossing). dst_o[v*NM +: NM]: VC v's");
        md.doc("output VC buffer, one-hot.");
    }
    let pop = md.input(if reg { "sa_gnt_i" } else { "pop_i" }, m);
    let acc_set = if d.acceleration() { Some(md.input("acc_set_i", m)) } else { None };
    let free_cnt = if d.link_groups.is_some() {
        md.doc("free_cnt_i[o*FCW +: FCW]: free output VCs of port o (RC's parallel-link choice, §2).");
        Some(md.input("free_cnt_i", n * d.free_count_width()))
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", m * n);
    let va_route_o = crate::input_port::va_route_port(&mut md, d)?;
    let st_req_o = md.output("st_req_o", m);
    let route_o = md.output("route_o", m * pw);
    let ovc_o = md.output("ovc_o", m * vw);
    // (registered: the crossing offer leaves on st_flit_o instead)
    let front_o = if d.registered() { None } else { Some(md.output("front_o", m * fw)) };
    let credit_o = md.output("credit_o", m);
    let credit_lane_o = if d.per_lane() { Some(md.output("credit_lane_o", m * lw)) } else { None };
    let release_o = md.output("release_o", m);
    let sg_ports = if reg { Some((SgPorts::declare(&mut md, d)?, md.output("dst_o", m * d.all_vcs()))) } else { None };
    md.doc("vtick_o[v*VTW +: VTW]: hdr's Vtick field (the §8 Vtick register).");
    let vtick_o = md.output("vtick_o", m * d.vtick.width);
    let accel_o = if d.acceleration() {
        md.doc("accel_o[v]: VC v is accelerated (acc or a pending dummy tail, §9.5); cls_o: cls(hdr.class).");
        Some(md.output("accel_o", m))
    } else {
        None
    };
    let cls_o = if d.va_needs_class() {
        if d.best_effort_cap().is_some() {
            md.doc("cls_o[v*CW +: CW]: cls(hdr.class) of VC v (the best-effort cap of VA, §9.4).");
        }
        if d.realtime_cap().is_some() {
            md.doc("cls_o[v*CW +: CW]: cls(hdr.class) of VC v (the real-time cap of VA, §9.4).");
        }
        Some(md.output("cls_o", m * clw))
    } else {
        None
    };

    let (table, avc_tab) = rc_tables(&mut md, d)?;
    let ltabs = link_tables(&mut md, d)?;
    let avc_o = if avc_tab.is_some() {
        md.doc("avc_o[v*M +: M]: allowed output VCs of hdr's destination (§2, §9.4 RC).");
        Some(md.output("avc_o", m * m))
    } else {
        None
    };
    let mut avcs = vec![];
    let stored_dummy = if d.faults.dummy_bit_dropped {
        md.raw_line("/* verilator lint_off UNUSED */ // MUTANT pre-dummy-bit-dropped: the incoming dummy bit is lost");
        let x = md.wire_of("in_dummy_unused", &dummy.e());
        md.raw_line("/* verilator lint_on UNUSED */");
        let _ = x;
        Expr::one_bit(false)
    } else {
        dummy.e()
    };
    let wdata = md.wire_of("wdata", &cat(&[head.e(), tail.e(), stored_dummy, data.e()]));
    let in_cls = md.wire_of("in_cls", &cls_of(&data.field(d.class_lsb, clw), d.classes));

    let (mut va_reqs, mut va_routes, mut st_reqs, mut routes, mut ovcs, mut fronts) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut credits, mut releases, mut vticks, mut accels, mut clss) = (vec![], vec![], vec![], vec![], vec![]);
    let mut credit_lanes = vec![];
    let (mut gtails, mut pends, mut ptails) = (vec![], vec![], vec![]);
    for v in 0..m {
        let t = format!("vc{v}");
        md.comment(format!("Input VC {v}"));
        // Wires of the VC's outputs, concatenated into the port's below.
        let out = |md: &mut Module, name: &str, width: u32| md.wire(&format!("{t}_{name}"), width);
        let rc_dest = out(&mut md, "rc_dest", d.dest_width);
        let va_req = out(&mut md, "va_req", n);
        let st_req = out(&mut md, "st_req", 1);
        let route = out(&mut md, "route", pw);
        let ovc = out(&mut md, "ovc", vw);
        let front = out(&mut md, "front", fw);
        let credit = out(&mut md, "credit", 1);
        let release = out(&mut md, "release", 1);
        let vtick = out(&mut md, "vtick", d.vtick.width);
        md.comment("RC (stage 2): the route of the destination the VC reads");
        let first = table.elem(&rc_dest, pw);
        let chosen = link_choice(&mut md, d, &t, &rc_dest.e(), &first, free_cnt.as_ref(), &ltabs)?;
        let rc_route = md.wire_of(&format!("{t}_rc_route"), &chosen);
        let mut conns = vec![
            clk(),
            rst(),
            ("arrive_i", valid.l_and(&vc.is(&num(vw, v as u64)))),
            ("in_head_i", head.e()),
            ("wdata_i", wdata.e()),
            ("in_cls_i", in_cls.e()),
            ("rc_route_i", rc_route.e()),
            ("va_gnt_i", va_gnt.at(v)),
            ("va_ovc_i", va_ovc.field(v * vw, vw)),
            (if reg { "sa_gnt_i" } else { "pop_i" }, pop.at(v)),
            ("rc_dest_o", rc_dest.e()),
            ("va_req_o", va_req.e()),
            ("st_req_o", st_req.e()),
            ("route_o", route.e()),
            ("ovc_o", ovc.e()),
            ("front_o", front.e()),
            ("credit_o", credit.e()),
            ("release_o", release.e()),
            ("vtick_o", vtick.e()),
        ];
        if let Some(l) = &in_lane {
            let cl = out(&mut md, "credit_lane", lw);
            conns.extend([("in_lane_i", l.e()), ("credit_lane_o", cl.e())]);
            credit_lanes.push(cl);
        }
        if let Some(acc_set) = &acc_set {
            let accel = out(&mut md, "accel", 1);
            conns.extend([("acc_set_i", acc_set.at(v)), ("accel_o", accel.e())]);
            accels.push(accel);
        }
        if cls_o.is_some() {
            let cls = out(&mut md, "cls", clw);
            conns.push(("cls_o", cls.e()));
            clss.push(cls);
        }
        if let Some(tab) = &avc_tab {
            let dest = out(&mut md, "avc_dest", d.dest_width);
            conns.push(("avc_dest_o", dest.e()));
            avcs.push(md.wire_of(&format!("{t}_avc"), &tab.elem(&dest, m)));
        }
        if va_route_o.is_some() {
            let vroute = out(&mut md, "va_route", pw);
            conns.push(("va_route_o", vroute.e()));
            va_routes.push(vroute);
        }
        if reg {
            let (gtail, pend, ptail) = (out(&mut md, "gtail", 1), out(&mut md, "pend", 1), out(&mut md, "pend_tail", 1));
            conns.extend([("gtail_o", gtail.e()), ("pend_o", pend.e()), ("pend_tail_o", ptail.e())]);
            gtails.push(gtail.e());
            pends.push(pend.e());
            ptails.push(ptail.e());
        }
        md.instance(vc_ctrl, &format!("u_{t}"), &conns);
        va_reqs.push(va_req);
        st_reqs.push(st_req);
        routes.push(route);
        ovcs.push(ovc);
        fronts.push(front);
        credits.push(credit);
        releases.push(release);
        vticks.push(vtick);
    }
    if let Some((o, dst_o)) = &sg_ports {
        md.comment("Registered switch allocation (§6 P mode): the crossing offer of the port");
        let pend = md.wire_of("st_pop", &cat_lsb(&pends));
        md.assign(&o.pend, &pend);
        md.assign(&o.valid, &pend.any());
        md.assign(&o.route, &onehot_select(&pend, &routes.iter().map(|r| r.e()).collect::<Vec<_>>()));
        md.assign(&o.ovc, &onehot_select(&pend, &ovcs.iter().map(|r| r.e()).collect::<Vec<_>>()));
        md.assign(&o.flit, &onehot_select(&pend, &fronts.iter().map(|r| r.e()).collect::<Vec<_>>()));
        if let Some(t) = &o.tail {
            md.assign(t, &(&pend & &cat_lsb(&ptails)).any());
        } else {
            md.raw_line("/* verilator lint_off UNUSED */ // mutant: no tail releases its output VC");
            md.wire_of("unused_pend_tail", &cat_lsb(&ptails).any());
            md.raw_line("/* verilator lint_on UNUSED */");
        }
        if let Some(g) = &o.gtail {
            md.assign(g, &cat_lsb(&gtails));
        } else {
            md.raw_line("/* verilator lint_off UNUSED */ // nothing reads the offers' tail bits");
            md.wire_of("unused_gtail", &cat_lsb(&gtails).any());
            md.raw_line("/* verilator lint_on UNUSED */");
        }
        // each VC's output VC buffer, one-hot: bit o*M+u is route == o and ovc == u
        let nm = d.all_vcs();
        let mut dsts = vec![];
        for v in 0..m {
            let bits = (0..nm).map(|i| routes[v as usize].is(num(pw, (i / m) as u64)).l_and(ovcs[v as usize].is(num(vw, (i % m) as u64)))).collect::<Vec<_>>();
            dsts.push(cat_lsb(&bits));
        }
        md.assign(dst_o, &cat_lsb(&dsts));
        let zero = Expr::zero(m);
        md.assert_always(&at_most_one_set(&pop, &Expr::ones(m), &zero), "SA grants at most one VC");
        md.assert_always(&at_most_one_set(&pend, &Expr::ones(m), &zero), "at most one offer crosses");
        md.assert_always(&subset_of(&pop, &cat_lsb(&st_reqs.iter().map(|r| r.e()).collect::<Vec<_>>()), &zero), "SA grants only a VC with an offer");
    }
    md.comment("Outputs");
    md.assign(&va_req_o, &cat_lsb(&va_reqs));
    if let Some(vr) = va_route_o {
        md.assign(&vr, &cat_lsb(&va_routes));
    }
    md.assign(&st_req_o, &cat_lsb(&st_reqs));
    md.assign(&route_o, &cat_lsb(&routes));
    md.assign(&ovc_o, &cat_lsb(&ovcs));
    if let Some(fo) = &front_o {
        md.assign(fo, &cat_lsb(&fronts));
    }
    md.assign(&credit_o, &cat_lsb(&credits));
    if let Some(cl) = &credit_lane_o {
        md.assign(cl, &cat_lsb(&credit_lanes));
    }
    md.assign(&release_o, &cat_lsb(&releases));
    md.assign(&vtick_o, &cat_lsb(&vticks));
    if let Some(a) = accel_o {
        md.assign(&a, &cat_lsb(&accels));
    }
    if let Some(c) = cls_o {
        md.assign(&c, &cat_lsb(&clss));
    }
    if let Some(ao) = avc_o {
        md.assign(&ao, &cat_lsb(&avcs));
    }
    md.finish()
}

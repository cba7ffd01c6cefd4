//! `<prefix>_input_port`: stages 1 (BW) and 2 (RC) and the per-VC state of
//! one input port (docs/microarchitecture.md §6), for every mode but the
//! preemptive one (see `input_port_p`).

use crate::bits::{at_most_one_set, clk, encode, onehot_of, rst, subset_of};
use crate::dims::Dims;
use crate::route_tables::{link_choice, link_tables, rc_tables};
use crate::classes::cls_of;
use crate::verilog::{all_of, cat, cat_lsb, num, onehot_select, Expr, HdlError, Module, Result, Sig};


/// Where an input port keeps its flits (see [`Dims::shared_ib`]).
#[derive(Clone, Copy)]
pub(crate) enum InputBuffers<'a> {
    /// One `fifo` per VC; every VC's front flit leaves on `front_o`.
    PerVc(&'a Module),
    /// One `vc_buffer` for the port; the front of the VC named by `rsel_i`
    /// (point A's candidate) leaves on `cand_flit_o`.
    Shared(&'a Module),
}

/// The route VA reads is `route_o`, except for the skip-rc-stage mutant,
/// whose IDLE VCs request with the route computed in the same cycle: only
/// then does an input port (either kind) have `va_route_o`.
pub(crate) fn va_route_port(md: &mut Module, d: &Dims) -> Result<Option<Sig>> {
    if d.va_in_rc_cycle() {
        Ok(Some(md.output("va_route_o", d.vcs * d.port_id_width)))
    } else {
        Ok(None)
    }
}

/// `<prefix>_input_port`: BW (M input VC buffers), RC's table look-ups and
/// one `vc_ctrl` (`<prefix>_input_vc`, the state of an input VC) per VC.
pub(crate) fn input_port(d: &Dims, bufs: InputBuffers, vc_ctrl: &Module) -> Result<Module> {
    let (n, m, w, fw, vw, pw) = (d.ports, d.vcs, d.data_width, d.buf_flit_width, d.vc_id_width, d.port_id_width);
    let mut md = Module::new(format!("{}_input_port", d.prefix));
    md.doc("Input port: stage 1 (BW) into M input VC buffers, stage 2 (RC: the table look-ups)");
    md.doc("and one input_vc per VC (u_vc<v>: IDLE/ROUTED/ACTIVE with its route and output VC).");
    md.doc("va_req_o[v*N+o]: VC v requests an output VC of port o (stage 3).");
    if d.registered() {
        md.doc("Registered switch allocation (§6): an IDLE VC requests VA with the route RC computes");
        md.doc("in the same cycle (stage RV). The registered grant sg_valid/sg_vc/sg_tail names the");
        md.doc("flit that crosses this cycle (stage ST): it is popped (pend_o), its flit leaves on");
        md.doc("st_flit_o to output VC sg_ovc_o of port sg_route_o. st_req_o[v]: VC v has a flit for");
        md.doc("SA behind the crossing one (ACTIVE, not behind a crossing tail, a flit left), before");
        md.doc("the output-buffer check; gtail_o[v]: that flit's tail bit. sa_gnt_i: SA's grant");
        md.doc("(one-hot or zero), registered as the next cycle's crossing flit. sg_tail_o: the");
        md.doc("crossing flit's tail bit from the grant register (for the output VC's release).");
        if d.split() {
            md.doc("Split switch allocation (§6, six stages): sa_gnt_i is point A's pick (SA-A), registered");
            md.doc("as the candidate ca_valid/ca_vc/ca_tail that point B arbitrates in the next cycle");
            md.doc("(SA-B: ca_valid_o, ca_route_o; sb_won_i, B granted it). A granted candidate becomes the");
            md.doc("registered grant (sb_gnt_o: its VC, for the credit); st_req_o and gtail_o count both");
            md.doc("flits in flight (pend_o: at least one of them is this VC's, pend2_o: both are).");
        }
        if let (InputBuffers::Shared(_), true) = (bufs, d.split()) {
            md.doc("The VCs share one buffer memory (block RAM, registered read): it reads the flit of the");
            md.doc("candidate at point B, shown on st_flit_o when it crosses in the next cycle (§6).");
        } else if let InputBuffers::Shared(_) = bufs {
            md.doc("The VCs share one buffer memory (block RAM, registered read): sa_read_i (one-hot or");
            md.doc("zero) is the VC whose flit SA would grant, point A's candidate (single pass) or the");
            md.doc("grant; the RAM reads that flit, shown on st_flit_o when it crosses (§6).");
        }
    } else {
        md.doc("st_req_o[v]: VC v is ACTIVE and its buffer is not empty (stage 4, before the");
        match bufs {
            InputBuffers::PerVc(_) => md.doc("output-buffer check). front_o[v*FW +: FW] = {head, tail, data} of VC v's oldest flit."),
            InputBuffers::Shared(_) => {
                md.doc("output-buffer check). The VCs share one buffer memory: cand_flit_o = {head, tail, data}");
                md.doc("is the oldest flit of VC rsel_i (one-hot: point A's candidate); pop_i names only that VC.");
            }
        }
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let valid = md.input("in_valid_i", 1);
    let vc = md.input("in_vc_i", vw);
    let head = md.input("in_head_i", 1);
    let tail = md.input("in_tail_i", 1);
    let data = md.input("in_data_i", w);
    let va_gnt = md.input("va_gnt_i", m);
    let va_ovc = md.input("va_ovc_i", m * vw);
    let reg = d.registered();
    // Single cycle: stage 4 pops (pop_i). Registered: SA's grant (sa_gnt_i)
    // is registered here, and the next cycle's pop comes from that register.
    let (pop_in, sa_gnt) = if reg { (None, Some(md.input("sa_gnt_i", m))) } else { (Some(md.input("pop_i", m)), None) };
    // Registered, shared buffer: the VC whose flit the buffer's RAM reads.
    // (split: the candidate register, point B's input, is the read select)
    let sa_read = if reg && !d.split() && matches!(bufs, InputBuffers::Shared(_)) { Some(md.input("sa_read_i", m)) } else { None };
    let sb_won = if d.split() { Some(md.input("sb_won_i", 1)) } else { None };
    let free_cnt = if d.link_groups.is_some() {
        md.doc("free_cnt_i[o*FCW +: FCW]: free output VCs of port o (RC's parallel-link choice, §2).");
        Some(md.input("free_cnt_i", n * d.free_count_width()))
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", m * n);
    let va_route_o = va_route_port(&mut md, d)?;
    let st_req_o = md.output("st_req_o", m);
    // (split: the top reads the candidate's route, ca_route_o, instead)
    let route_o = if d.split() { None } else { Some(md.output("route_o", m * pw)) };
    // (registered: the top reads dst_o and the grant registers' sg_ovc_o)
    let ovc_o = if reg { None } else { Some(md.output("ovc_o", m * vw)) };
    let (front_o, rsel, cand_flit_o) = match bufs {
        _ if reg => (None, None, None),
        InputBuffers::PerVc(_) => (Some(md.output("front_o", m * fw)), None, None),
        InputBuffers::Shared(_) => (None, Some(md.input("rsel_i", m)), Some(md.output("cand_flit_o", fw))),
    };
    let sg_ports = if reg { Some(SgPorts::declare(&mut md, d)?) } else { None };
    let dst_o = if reg {
        md.doc("dst_o[v*NM +: NM]: VC v's output VC buffer, one-hot (registered at its VA grant).");
        Some(md.output("dst_o", m * d.all_vcs()))
    } else {
        None
    };
    let mut dsts = vec![];
    let vtick_o = if d.virtual_clock().is_some() {
        md.doc("vtick_o[v*VTW +: VTW]: VC v's Vtick register (virtualclock, §8.2): loaded from the");
        md.doc("header's Vtick field at RC, cleared (best effort) when the tail crosses the crossbar.");
        Some(md.output("vtick_o", m * d.vtick.width))
    } else {
        None
    };
    let mut vticks = vec![];
    let cls_o = if d.va_needs_class() {
        md.doc("cls_o[v*CW +: CW]: cls() of VC v's header class (hdr, loaded at RC; §9.1, §9.2).");
        Some(md.output("cls_o", m * d.class_width))
    } else {
        None
    };
    let mut clss = vec![];
    let avc_o = if d.allowed_vcs.is_some() {
        md.doc("avc_o[v*M +: M]: VC v's allowed output VCs (avc, loaded at RC; §2, §6 stage 3).");
        Some(md.output("avc_o", m * m))
    } else {
        None
    };
    let mut avcs = vec![];

    // Routing table, one entry per destination code (2^DW entries); codes
    // at or above `endpoints` route to port 0.
    let (table, avc_tab) = rc_tables(&mut md, d)?;
    let ltabs = link_tables(&mut md, d)?;

    let wdata = md.wire_of("wdata", &cat(&[head.e(), tail.e(), data.e()]));
    let wside = if let InputBuffers::Shared(_) = bufs {
        // the RC header fields, packed, first field at bit 0
        let parts = d.rc_fields().iter().rev().map(|&(lsb, w)| data.e().part(lsb, w)).collect::<Result<Vec<_>>>()?;
        Some(md.wire_of("wside", &cat(&parts)))
    } else {
        None
    };
    let mut va_reqs = vec![];
    let mut va_routes = vec![];
    let mut st_reqs = vec![];
    let mut routes = vec![];
    let mut ovcs = vec![];
    let mut fronts = vec![];
    let mut pushes = vec![];
    // The shared buffer's per-VC flags, header fields (RC, packed: see
    // Dims::rc_fields) and candidate flit.
    let rc_fields = d.rc_fields();
    let rcw = d.rc_fields_width();
    // Where a header field lies in the packed copy of the shared buffer.
    let packed_lsb = |lsb: u32, width: u32| -> Result<u32> {
        let k = rc_fields.iter().position(|f| *f == (lsb, width)).ok_or_else(|| HdlError::Invalid(format!("header field {lsb}+{width} is not kept for RC")))?;
        Ok(rc_fields[..k].iter().map(|f| f.1).sum())
    };
    // A header field of VC v's front: its bits of the flit, or of the packed copy.
    let field = |front: &Sig, lsb: u32, width: u32| -> Result<Expr> {
        match bufs {
            InputBuffers::PerVc(_) => front.e().part(lsb, width),
            InputBuffers::Shared(_) => front.e().part(packed_lsb(lsb, width)?, width),
        }
    };
    let shared = match bufs {
        InputBuffers::Shared(_) => Some((
            md.wire("buf_empty", m),
            md.wire("buf_full", m),
            md.wire("buf_hdr", m * rcw),
            md.wire(if d.registered() { "st_flit" } else { "cand_flit" }, fw),
        )),
        InputBuffers::PerVc(_) => None,
    };
    // Stage RV's requests registered a cycle early: the buffer's next
    // empty flags and next front copies (§6, *VA's inputs computed a cycle
    // early*).
    let nw = d.va_next_front_width();
    let nexts = if nw > 0 { Some((md.wire("buf_empty_next", m), md.wire("buf_hdr_next", m * nw))) } else { None };
    // Registered: the grant registers, the pop they make, the buffers' lookahead.
    let sg = match &sg_ports {
        Some(_) => Some(SgRegs::declare(&mut md, d, matches!(bufs, InputBuffers::Shared(_)))?),
        None => None,
    };
    // Split: the candidate registers, written from point A's pick.
    let ca = if d.split() { Some(CaRegs::declare(&mut md, d)?) } else { None };
    let pop = match (&pop_in, &sg) {
        (Some(p), _) => p.clone(),
        (None, Some(g)) => g.pop.clone(),
        _ => return Err(HdlError::Invalid("input port without pops".into())),
    };
    let (mut gtails, mut actives, mut empties) = (vec![], vec![], vec![]);
    for v in 0..m {
        md.comment(format!("Input VC {v}"));
        // `front`: the VC's front flit, or (shared buffer) the packed header
        // fields RC reads.
        let (front, empty, full) = match &shared {
            None => (md.wire(&format!("vc{v}_front"), fw), md.wire(&format!("vc{v}_empty"), 1), md.wire(&format!("vc{v}_full"), 1)),
            Some((e, f, h, _)) => (
                md.wire_of(&format!("vc{v}_hdr"), &h.field(v * rcw, rcw)),
                md.wire_of(&format!("vc{v}_empty"), &e.at(v)),
                md.wire_of(&format!("vc{v}_full"), &f.at(v)),
            ),
        };
        // BW: a flit for a VC >= M matches no buffer and is dropped; a flit
        // for a full buffer is dropped.
        let push = md.wire_of(
            &format!("vc{v}_push"),
            &valid.l_and(&vc.is(&num(vw, v as u64))).l_and(&full.l_not()),
        );
        if let InputBuffers::PerVc(fifo) = bufs {
            let mut conns = vec![
                clk(),
                rst(),
                ("push_i", push.e()),
                ("wdata_i", wdata.e()),
                ("pop_i", pop.at(v)),
                ("rdata_o", front.e()),
                ("empty_o", empty.e()),
                ("full_o", full.e()),
            ];
            if let Some(g) = &sg {
                conns.extend([("two_o", g.two.at(v)), ("tail0_o", g.tail0.at(v)), ("tail1_o", g.tail1.at(v))]);
            }
            if let Some(c) = &ca {
                conns.extend([("three_o", c.three.at(v)), ("tail2_o", c.tail2.at(v))]);
            }
            md.instance(fifo, &format!("u_ib{v}"), &conns);
        }
        pushes.push(push);
        // RC (stage 2): the look-ups from the front header; the VC's state
        // machine and registers are `u_vc{v}`.
        let dest = field(&front, 0, d.dest_width)?;
        let first = table.elem(&dest, pw);
        let chosen = link_choice(&mut md, d, &format!("vc{v}"), &dest, &first, free_cnt.as_ref(), &ltabs)?;
        let rc_route = md.wire_of(&format!("vc{v}_rc_route"), &chosen);
        // ... and from the front it will have in the next cycle (the route
        // is the table's: no parallel-link choice here); a field of the
        // next front copy, packed like the copy
        let next_field = |lsb: u32, width: u32| -> Result<Option<Expr>> {
            match &nexts {
                Some((_, hn)) => Ok(Some(hn.field(v * nw + packed_lsb(lsb, width)?, width))),
                None => Ok(None),
            }
        };
        let rc_next = match (&nexts, next_field(0, d.dest_width)?) {
            (Some((en, _)), Some(dest)) => {
                let dest = md.wire_of(&format!("vc{v}_dest_next"), &dest);
                let route = md.wire_of(&format!("vc{v}_rc_route_next"), &table.elem(&dest, pw));
                Some((en.at(v), route))
            }
            _ => None,
        };
        // pop_i[v] implies VC v is the candidate, whose flit the shared
        // buffer shows on cand_flit. Registered: the crossing flit's tail
        // bit is the register sg_tail.
        let front_tail = match (&sg, &shared) {
            (Some(g), _) => g.tail_q.e(),
            (None, None) => front.at(fw - 2),
            (None, Some((_, _, _, c))) => c.at(fw - 2),
        };
        let va_req = md.wire(&format!("vc{v}_va_req"), n);
        let active = md.wire(&format!("vc{v}_active"), 1);
        let route = md.wire(&format!("vc{v}_route"), pw);
        let ovc = md.wire(&format!("vc{v}_ovc"), vw);
        let mut conns = vec![
            clk(),
            rst(),
            ("empty_i", empty.e()),
            ("rc_route_i", rc_route.e()),
            ("va_gnt_i", va_gnt.at(v)),
            ("va_ovc_i", va_ovc.field(v * vw, vw)),
            ("pop_i", pop.at(v)),
            ("pop_tail_i", front_tail),
            ("va_req_o", va_req.e()),
            ("active_o", active.e()),
            ("route_o", route.e()),
            ("ovc_o", ovc.e()),
        ];
        if reg {
            let dst = md.wire(&format!("vc{v}_dst"), d.all_vcs());
            conns.push(("dst_o", dst.e()));
            dsts.push(dst);
        }
        if let Some((en, route)) = &rc_next {
            conns.extend([("empty_next_i", en.clone()), ("rc_route_next_i", route.e())]);
        }
        if d.va_in_rc_cycle() {
            let vroute = md.wire(&format!("vc{v}_va_route"), pw);
            conns.push(("va_route_o", vroute.e()));
            va_routes.push(vroute);
        }
        if let Some(vc) = d.virtual_clock() {
            let vt = md.wire(&format!("vc{v}_vtick"), vc.vtick.width);
            conns.extend([("rc_vtick_i", field(&front, vc.vtick.lsb, vc.vtick.width)?), ("vtick_o", vt.e())]);
            vticks.push(vt);
        }
        if let Some(tab) = &avc_tab {
            let rc_avc = md.wire_of(&format!("vc{v}_rc_avc"), &tab.elem(&dest, m));
            let avc = md.wire(&format!("vc{v}_avc"), m);
            conns.extend([("rc_avc_i", rc_avc.e()), ("avc_o", avc.e())]);
            avcs.push(avc);
        }
        if d.va_needs_class() {
            let cls = cls_of(&field(&front, d.class_lsb, d.class_width)?, d.classes);
            let rc_cls = md.wire_of(&format!("vc{v}_rc_cls"), &cls);
            let cls = md.wire(&format!("vc{v}_cls"), d.class_width);
            conns.extend([("rc_cls_i", rc_cls.e()), ("cls_o", cls.e())]);
            if let Some(class) = next_field(d.class_lsb, d.class_width)? {
                let class = md.wire_of(&format!("vc{v}_class_next"), &class);
                let rc_cls_next = md.wire_of(&format!("vc{v}_rc_cls_next"), &cls_of(&class.e(), d.classes));
                conns.push(("rc_cls_next_i", rc_cls_next.e()));
            }
            clss.push(cls);
        }
        md.instance(vc_ctrl, &format!("u_vc{v}"), &conns);
        va_reqs.push(va_req);
        let not_empty = empty.l_not();
        match (&sg, &ca) {
            (None, _) => st_reqs.push(active.l_and(&not_empty)),
            (Some(g), Some(c)) => {
                // SA-A (§6 split): sgp = a flit of this VC crosses now, cap =
                // this VC's candidate is at point B now; the flit A may pick
                // is the one behind both.
                let (sgp, cap) = (pop.at(v), c.onehot.at(v));
                let behind_tail = if d.faults.sa_grants_behind_tail {
                    md.comment("MUTANT sa-grants-behind-tail: a flit behind a tail in flight is offered");
                    Expr::one_bit(false)
                } else {
                    sgp.l_and(&g.tail_q).l_or(cap.l_and(&c.tail_q))
                };
                let both = sgp.l_and(&cap);
                let one = sgp.l_or(&cap);
                let left = both.then_else(c.three.at(v), one.then_else(g.two.at(v), &not_empty));
                st_reqs.push(md.wire_of(&format!("vc{v}_sa_req"), &all_of(&[active.e(), behind_tail.l_not(), left])).e());
                let picked_tail = both.then_else(c.tail2.at(v), one.then_else(g.tail1.at(v), g.tail0.at(v)));
                gtails.push(md.wire_of(&format!("vc{v}_gtail"), &picked_tail));
                actives.push(active);
                empties.push(empty);
            }
            (Some(g), None) => {
                // SA (§6 registered): pend = a flit of this VC crosses now.
                let pend = pop.at(v);
                let behind_tail = if d.faults.sa_grants_behind_tail {
                    md.comment("MUTANT sa-grants-behind-tail: a flit behind a crossing tail is offered");
                    Expr::one_bit(false)
                } else {
                    pend.l_and(&g.tail_q)
                };
                let left = pend.then_else(g.two.at(v), &not_empty);
                st_reqs.push(md.wire_of(&format!("vc{v}_sa_req"), &all_of(&[active.e(), behind_tail.l_not(), left])).e());
                gtails.push(md.wire_of(&format!("vc{v}_gtail"), &pend.then_else(g.tail1.at(v), g.tail0.at(v))));
                actives.push(active);
                empties.push(empty);
            }
        }
        routes.push(route.e());
        ovcs.push(ovc.e());
        fronts.push(front);
    }
    if let (InputBuffers::Shared(buf), Some((e, f, h, c)), Some(wside)) = (&bufs, &shared, &wside) {
        md.comment("The port's VC buffers, one shared memory");
        // read select: point A's candidate, or (registered) the VC whose flit
        // SA grants now if it grants one of this port (point A's candidate:
        // point B is not on the RAM's address path); the buffer's registered
        // read shows it when it crosses in the next cycle (§6 *Buffers of the
        // registered pipeline*)
        let rs = match (&rsel, &sa_read, &ca) {
            (Some(rs), _, _) => rs.e(),
            (None, Some(rd), _) => rd.e(),
            // split: point B's candidate crosses in the next cycle if granted
            (None, None, Some(c)) => c.onehot.e(),
            _ => return Err(HdlError::Invalid("shared input buffer without a read select".into())),
        };
        let mut conns = vec![
            clk(),
            rst(),
            ("push_i", cat_lsb(&pushes)),
            ("wdata_i", wdata.e()),
            ("wside_i", wside.e()),
            ("pop_i", pop.e()),
            ("rsel_i", rs),
            ("rdata_o", c.e()),
            ("side_o", h.e()),
            ("empty_o", e.e()),
            ("full_o", f.e()),
        ];
        if let Some(g) = &sg {
            conns.extend([("two_o", g.two.e()), ("tail0_o", g.tail0.e()), ("tail1_o", g.tail1.e())]);
        }
        if let Some(c) = &ca {
            conns.extend([("three_o", c.three.e()), ("tail2_o", c.tail2.e())]);
        }
        if let Some((en, hn)) = &nexts {
            conns.extend([("empty_next_o", en.e()), ("side_next_o", hn.e())]);
        }
        md.instance(buf, "u_ib", &conns);
    }
    if let (Some(g), Some(ports), Some(gnt)) = (&sg, &sg_ports, &sa_gnt) {
        let flit = match &shared {
            Some((_, _, _, c)) => c.e(),
            None => onehot_select(&g.pop, &fronts),
        };
        let st_req = cat_lsb(&st_reqs);
        let x = SgInputs { gtails: cat_lsb(&gtails), st_req, actives: cat_lsb(&actives), empties: cat_lsb(&empties), routes: &routes, ovcs: &ovcs, flit };
        match (&ca, &sb_won) {
            (Some(c), Some(won)) => c.finish(&mut md, d, g, ports, gnt, won, &x)?,
            _ => g.finish(&mut md, d, ports, gnt, &x)?,
        }
    }
    md.comment("Outputs");
    md.assign(&va_req_o, &cat_lsb(&va_reqs));
    if let Some(vr) = va_route_o {
        md.assign(&vr, &cat_lsb(&va_routes));
    }
    md.assign(&st_req_o, &cat_lsb(&st_reqs));
    if let Some(ro) = route_o {
        md.assign(&ro, &cat_lsb(&routes));
    }
    if let Some(o) = ovc_o {
        md.assign(&o, &cat_lsb(&ovcs));
    }
    if let Some(dout) = dst_o {
        md.assign(&dout, &cat_lsb(&dsts));
    }
    if let Some(fo) = front_o {
        md.assign(&fo, &cat_lsb(&fronts));
    }
    if let (Some(co), Some((_, _, _, c))) = (cand_flit_o, &shared) {
        md.assign(&co, &c);
    }
    if let Some(vo) = vtick_o {
        md.assign(&vo, &cat_lsb(&vticks));
    }
    if let Some(co) = cls_o {
        md.assign(&co, &cat_lsb(&clss));
    }
    if let Some(ao) = avc_o {
        md.assign(&ao, &cat_lsb(&avcs));
    }
    md.finish()
}


/// The registered pipeline's outputs of an input port (§6 *Registered
/// switch allocation*).
pub(crate) struct SgPorts {
    pub pend: Sig,
    pub gtail: Option<Sig>,
    pub valid: Sig,
    pub route: Sig,
    pub ovc: Sig,
    pub flit: Sig,
    /// `sg_tail_o`, unless nothing reads it (the tail-keeps-vc mutant).
    pub tail: Option<Sig>,
    split: Option<SplitPorts>,
}

/// The split pipeline's further outputs of an input port (§6 *Split switch
/// allocation*): both flits in flight, the candidate at point B, and the
/// VC whose candidate B granted (its credit leaves with the crossing).
struct SplitPorts {
    pend2: Sig,
    /// The crossing flit's VC alone (`sgp`), for the stamped room of §8.4
    /// (VirtualClock with b = 1 only).
    sgp: Option<Sig>,
    ca_valid: Sig,
    ca_route: Sig,
    sb_gnt: Sig,
}

impl SgPorts {
    pub(crate) fn declare(md: &mut Module, d: &Dims) -> Result<SgPorts> {
        Ok(SgPorts {
            pend: md.output("pend_o", d.vcs),
            gtail: if d.sa_reads_granted_tail() { Some(md.output("gtail_o", d.vcs)) } else { None },
            valid: md.output("sg_valid_o", 1),
            route: md.output("sg_route_o", d.port_id_width),
            ovc: md.output("sg_ovc_o", d.vc_id_width),
            flit: md.output("st_flit_o", d.buf_flit_width),
            tail: if d.faults.tail_keeps_output_vc { None } else { Some(md.output("sg_tail_o", 1)) },
            split: if d.split() {
                Some(SplitPorts {
                    pend2: md.output("pend2_o", d.vcs),
                    sgp: if d.vclock_stamped_room() { Some(md.output("sgp_o", d.vcs)) } else { None },
                    ca_valid: md.output("ca_valid_o", 1),
                    ca_route: md.output("ca_route_o", d.port_id_width),
                    sb_gnt: md.output("sb_gnt_o", d.vcs),
                })
            } else {
                None
            },
        })
    }
}

/// The registered grant of an input port (`sg_valid`, `sg_vc`, `sg_tail`),
/// the pop it makes in stage ST, and the input buffers' lookahead flags SA reads.
struct SgRegs {
    valid_q: Sig,
    valid_d: Sig,
    vc_d: Sig,
    tail_q: Sig,
    tail_d: Sig,
    /// `pop[v] = sg_valid && sg_vc == v` (= `pend(p, v)` of SA).
    pop: Sig,
    two: Sig,
    tail0: Sig,
    tail1: Sig,
}

/// What [`SgRegs::finish`] reads from the per-VC logic.
struct SgInputs<'a> {
    gtails: Expr,
    st_req: Expr,
    actives: Expr,
    empties: Expr,
    routes: &'a [Expr],
    ovcs: &'a [Expr],
    flit: Expr,
}

impl SgRegs {
    fn declare(md: &mut Module, d: &Dims, shared: bool) -> Result<SgRegs> {
        let (m, vw) = (d.vcs, d.vc_id_width);
        md.comment("Registered switch allocation (§6): the grant SA made in the previous cycle names");
        md.raw_line("// the flit that crosses now (stage ST); it is popped from its VC buffer.");
        let (valid_q, valid_d) = md.register_wire_d("sg_valid", &Expr::zero(1));
        let (vc_q, vc_d) = md.register_wire_d("sg_vc", &Expr::zero(vw));
        let (tail_q, tail_d) = md.register_wire_d("sg_tail", &Expr::zero(1));
        let pop = md.wire_of("st_pop", &valid_q.then_else(onehot_of(&vc_q, m), Expr::zero(m)));
        let (two, tail0, tail1) = if shared {
            (md.wire("buf_two", m), md.wire("buf_tail0", m), md.wire("buf_tail1", m))
        } else {
            (md.wire("vc_two", m), md.wire("vc_tail0", m), md.wire("vc_tail1", m))
        };
        Ok(SgRegs { valid_q, valid_d, vc_d, tail_q, tail_d, pop, two, tail0, tail1 })
    }

    /// The grant registers' next values from SA's grant `gnt`, the outputs,
    /// and the checks of the registered grant.
    fn finish(&self, md: &mut Module, d: &Dims, o: &SgPorts, gnt: &Sig, x: &SgInputs) -> Result<()> {
        let vw = d.vc_id_width;
        md.comment("SA's grant becomes the next cycle's crossing flit");
        md.assign(&self.valid_d, &gnt.any());
        md.assign(&self.vc_d, &encode(gnt, vw));
        md.assign(&self.tail_d, &(gnt & &x.gtails).any());
        md.assign(&o.pend, &self.pop);
        self.outputs(md, d, o, gnt, x)
    }

    /// The outputs and checks the registered and the split pipeline share.
    fn outputs(&self, md: &mut Module, d: &Dims, o: &SgPorts, gnt: &Sig, x: &SgInputs) -> Result<()> {
        let m = d.vcs;
        if let Some(g) = &o.gtail {
            md.assign(&g, &x.gtails);
        }
        md.assign(&o.valid, &self.valid_q);
        md.assign(&o.route, &onehot_select(&self.pop, x.routes));
        md.assign(&o.ovc, &onehot_select(&self.pop, x.ovcs));
        md.assign(&o.flit, &x.flit);
        if let Some(t) = &o.tail {
            md.assign(t, &self.tail_q);
        }
        // From the output port (a signal): `x.flit` may be an AND-OR over
        // the VCs' front flits, whose bits Verilog-2001 cannot select.
        let flit_tail = o.flit.at(d.buf_flit_width - 2);
        md.assert_always(&self.valid_q.l_not().l_or(&self.tail_q.e().is(flit_tail)), "sg_tail is the crossing flit's tail bit");
        let zero = Expr::zero(m);
        md.assert_always(&at_most_one_set(gnt, &Expr::ones(m), &zero), "SA grants at most one VC");
        md.assert_always(&subset_of(gnt, &x.st_req, &zero), "SA grants only a VC with a flit behind the crossing one");
        md.assert_always(&subset_of(&self.pop, &x.actives, &zero), "a registered grant finds its VC ACTIVE");
        md.assert_always(&(&self.pop & &x.empties).is(&zero), "a registered grant finds its flit");
        md.assert_always(
            &self.valid_q.l_and(&self.tail_q).l_and((gnt & &self.pop).any()).l_not(),
            "no grant behind a crossing tail",
        );
        Ok(())
    }
}

/// The split pipeline's candidate register of an input port (§6 *Split
/// switch allocation*: `ca_valid`, `ca_vc`, `ca_tail`), point A's pick of the
/// previous cycle at point B now, and the input buffers' third flags SA-A reads.
struct CaRegs {
    valid_q: Sig,
    valid_d: Sig,
    vc_d: Sig,
    vc_q: Sig,
    tail_q: Sig,
    tail_d: Sig,
    /// `cap(p, v) = ca_valid && ca_vc == v`.
    onehot: Sig,
    three: Sig,
    tail2: Sig,
}

impl CaRegs {
    fn declare(md: &mut Module, d: &Dims) -> Result<CaRegs> {
        let (m, vw) = (d.vcs, d.vc_id_width);
        md.comment("Split switch allocation (§6): point A's pick of the previous cycle, the candidate");
        md.raw_line("// point B arbitrates now; it stands for the next flit of its VC that is not crossing.");
        let (valid_q, valid_d) = md.register_wire_d("ca_valid", &Expr::zero(1));
        let (vc_q, vc_d) = md.register_wire_d("ca_vc", &Expr::zero(vw));
        let (tail_q, tail_d) = md.register_wire_d("ca_tail", &Expr::zero(1));
        let onehot = md.wire_of("ca_onehot", &valid_q.then_else(onehot_of(&vc_q, m), Expr::zero(m)));
        let (three, tail2) = (md.wire("buf_three", m), md.wire("buf_tail2", m));
        Ok(CaRegs { valid_q, valid_d, vc_d, vc_q, tail_q, tail_d, onehot, three, tail2 })
    }

    /// SA-A's pick `pick` into the candidate register, SA-B's outcome
    /// `won` (point B granted this port's candidate) into the grant
    /// register `g`, the outputs and the checks.
    fn finish(&self, md: &mut Module, d: &Dims, g: &SgRegs, o: &SgPorts, pick: &Sig, won: &Sig, x: &SgInputs) -> Result<()> {
        let (m, vw) = (d.vcs, d.vc_id_width);
        let sp = o.split.as_ref().ok_or_else(|| HdlError::Invalid("split input port without its outputs".into()))?;
        md.comment("SA-B: a granted candidate becomes the next cycle's crossing flit");
        md.assign(&g.valid_d, &self.valid_q.l_and(won));
        md.assign(&g.vc_d, &self.vc_q);
        md.assign(&g.tail_d, &self.tail_q);
        md.comment("SA-A: point A's pick becomes the candidate; if it is behind this VC's candidate");
        md.raw_line("// and that one loses at B, it stands for the loser's flit, which is no tail.");
        let behind_loser = if d.faults.split_loser_keeps_tail {
            md.comment("MUTANT split-loser-keeps-tail: the pick keeps its own tail bit");
            Expr::one_bit(false)
        } else {
            (pick & &self.onehot).any().l_and(won.l_not())
        };
        let pick_tail = (pick & &x.gtails).any().l_and(behind_loser.l_not());
        if d.faults.split_loser_kept {
            md.comment("MUTANT split-loser-kept: a candidate that loses at B stays");
            let keep = self.valid_q.l_and(won.l_not());
            md.assign(&self.valid_d, &keep.l_or(pick.any()));
            md.assign(&self.vc_d, &keep.then_else(&self.vc_q, encode(pick, vw)));
            md.assign(&self.tail_d, &keep.then_else(&self.tail_q, pick_tail));
        } else {
            md.assign(&self.valid_d, &pick.any());
            md.assign(&self.vc_d, &encode(pick, vw));
            md.assign(&self.tail_d, &pick_tail);
        }
        md.assign(&o.pend, &(&g.pop | &self.onehot));
        md.assign(&sp.pend2, &(&g.pop & &self.onehot));
        if let Some(sgp) = &sp.sgp {
            md.assign(sgp, &g.pop);
        }
        md.assign(&sp.ca_valid, &self.valid_q);
        md.assign(&sp.ca_route, &onehot_select(&self.onehot, x.routes));
        md.assign(&sp.sb_gnt, &(&self.onehot & &won.rep(m)));
        let zero = Expr::zero(m);
        md.assert_always(&subset_of(&self.onehot, &x.actives, &zero), "a candidate finds its VC ACTIVE");
        md.assert_always(&(&self.onehot & &x.empties).is(&zero), "a candidate finds its flit");
        md.assert_always(
            &self.valid_q.l_and(&self.tail_q).l_and((pick & &self.onehot).any()).l_not(),
            "no pick behind a candidate tail",
        );
        g.outputs(md, d, o, pick, x)
    }
}

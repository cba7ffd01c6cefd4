//! `<prefix>_router`: builds every module of the router and wires the
//! blocks together in the top (docs/microarchitecture.md §3).

use crate::arbiters::{age_arbiter_picks, rr_arbiter_picks, rr_arbiter_with, AgeEntry};
use crate::input_port_p::input_port_p;
use crate::bits::{clk, onehot_of, rst};
use crate::buffers::{fifo, fifo_look, vc_buffer, vc_buffer_look, Lookahead, RamWrite};
use crate::dims::Dims;
use crate::input_port::{input_port, InputBuffers};
use crate::input_vc::input_vc;
use crate::input_vc_p::input_vc_p;
use crate::output_port::output_port;
use crate::ram::{ram_1r1w, ram_1r1w_clr};
use crate::switch;
use crate::vc_allocator::vc_allocator;
use crate::vclock;
use crate::verilog::{any_of, cat_lsb, num, Expr, HdlError, Module, Result};
use wormqos_config::{FlitOrder, Qos, SchedulingPoint};


/// The generated module set, in dependency order.
pub(crate) struct Modules {
    pub list: Vec<Module>,
}

impl Modules {
    fn add(&mut self, m: &Module) -> Result<()> {
        m.check()?;
        if let Some(prev) = self.list.iter().find(|x| x.name() == m.name()) {
            if prev.render_with(false) != m.render_with(false) {
                return Err(HdlError::Invalid(format!("module {} renders differently for two parameter sets", m.name())));
            }
            return Ok(());
        }
        self.list.push(m.clone());
        Ok(())
    }
}


/// Builds every module of the router.
pub(crate) fn build(d: &Dims) -> Result<Modules> {
    let (n, m, w, fw, vw, pw, nm, iw) = (d.ports, d.vcs, d.data_width, d.buf_flit_width, d.vc_id_width, d.port_id_width, d.all_vcs(), d.flat_vc_id_width);
    let mut mods = Modules { list: vec![] };
    let p = &d.prefix;
    let reg = d.registered();
    let (ib_fifo, ob_fifo) = if reg {
        // Registered switch allocation (§6): the buffers also tell SA whether a
        // flit remains behind the crossing one (and its tail bit) and whether
        // there is room for one more besides the entering one.
        // A shared buffer's memory is a block-RAM-shaped ram_1r1w read
        // synchronously (§6 *Buffers of the registered pipeline*).
        // Split (§6): two flits in flight per VC, one flag further each.
        let (ib, ob) = if d.split() { (Lookahead::Input3, Lookahead::Output3) } else { (Lookahead::Input, Lookahead::Output) };
        let ib_buf = if d.shared_ib() {
            let ram = ram_1r1w(p, fw, m * d.input_depth)?;
            mods.add(&ram)?;
            vc_buffer_look(&format!("{p}_ib_buffer"), fw, d.input_depth, m, d.rc_fields_width(), ib, &ram, d.va_next_front_width(), RamWrite::Direct)?
        } else {
            fifo_look(&format!("{p}_ib_fifo"), fw, d.input_depth, ib)?
        };
        let ob_buf = if d.shared_ob() {
            // split: the RAM written a cycle after the push (§6 *Split switch
            // allocation*, implementation), ending stage ST's path at flip-flops
            let (ram, write) = if d.ob_write_registered() {
                (ram_1r1w_clr(p, d.ob_entry_width(), m * d.output_depth)?, RamWrite::Registered { bypass: !d.faults.split_write_no_bypass })
            } else {
                (ram_1r1w(p, d.ob_entry_width(), m * d.output_depth)?, RamWrite::Direct)
            };
            mods.add(&ram)?;
            // per-lane credits: the lane senders read every VC's front
            // {head, class} from the side memory, as in the single-cycle
            // pipeline (written with the push, i.e. in the ST cycle)
            vc_buffer_look(&format!("{p}_ob_buffer"), d.ob_entry_width(), d.output_depth, m, d.ob_side_width(), ob, &ram, 0, write)?
        } else {
            fifo_look(&format!("{p}_ob_fifo"), d.ob_entry_width(), d.output_depth, ob)?
        };
        (ib_buf, ob_buf)
    } else {
        (
            if d.shared_ib() { vc_buffer(&format!("{p}_ib_buffer"), fw, d.input_depth, m, d.rc_fields_width())? } else { fifo(p, fw, d.input_depth)? },
            if d.shared_ob() { vc_buffer(&format!("{p}_ob_buffer"), d.ob_entry_width(), d.output_depth, m, d.ob_side_width())? } else { fifo(p, d.ob_entry_width(), d.output_depth)? },
        )
    };
    let rr_nm = rr_arbiter_with(p, nm, &d.faults)?;
    let rr_m = rr_arbiter_with(p, m, &d.faults)?;
    let rr_n = rr_arbiter_with(p, n, &d.faults)?;
    // The registered pipeline has the age order only at point A (C is round
    // robin there) and takes a VA grant into it one cycle later (§6).
    let age_entry = if d.registered() { AgeEntry::Registered } else { AgeEntry::Immediate };
    // The flit scheduler over a port's M VCs in `order` (points A and C).
    let scheduler = |order: FlitOrder| match order {
        FlitOrder::Age => age_arbiter_picks(p, m, 0, age_entry, &d.faults),
        FlitOrder::RoundRobin => Ok(rr_m.clone()),
        FlitOrder::VirtualClock(vc) => {
            let use2_from = if d.vclock_stamped_room() { vclock::Use2From::StampedRoom } else { vclock::Use2From::Eligibility };
            vclock::vclock_sched_with(p, m, vc.clock_width, vc.vtick.width, &d.faults, use2_from)
        }
    };
    let (order_a, order_c) = (d.order_at_a(), d.order_at_c());
    // The iterative switch allocator's k rounds: point A's scheduler, the
    // acceleration arbiter and point B's xb_ptr arbiter get k picks (§6).
    let rounds = d.switch_rounds();
    let picks = rounds.unwrap_or(0);
    let sched_a = |order: FlitOrder| match (order, rounds) {
        (FlitOrder::Age, Some(k)) => age_arbiter_picks(p, m, k, age_entry, &d.faults),
        (FlitOrder::RoundRobin, Some(k)) => rr_arbiter_picks(p, m, &d.faults, k),
        (FlitOrder::VirtualClock(vc), Some(k)) => {
            vclock::vclock_sched_picks(p, m, vc.clock_width, vc.vtick.width, &d.faults, k, vclock::Use2From::Eligibility)
        }
        (_, None) => scheduler(order),
    };
    let rr_m_a = rr_arbiter_picks(p, m, &d.faults, picks)?;
    let rr_n_b = rr_arbiter_picks(p, n, &d.faults, picks)?;
    mods.add(&ib_fifo)?;
    mods.add(&ob_fifo)?;
    mods.add(&rr_nm)?;
    let multiplexed = d.multiplexed();
    if multiplexed {
        mods.add(&rr_n)?;
    }
    if multiplexed || order_c == FlitOrder::RoundRobin {
        mods.add(&rr_m)?;
    }
    if rounds.is_some() {
        mods.add(&rr_n_b)?;
        if d.acceleration() {
            mods.add(&rr_m_a)?;
        }
        if let Some(o) = order_a.filter(|o| *o != FlitOrder::RoundRobin) {
            mods.add(&sched_a(o)?)?;
        } else {
            mods.add(&rr_m_a)?;
        }
    } else {
        if order_a == Some(FlitOrder::Age) || order_c == FlitOrder::Age {
            mods.add(&scheduler(FlitOrder::Age)?)?;
        }
        if let Some(vc) = d.virtual_clock() {
            mods.add(&scheduler(FlitOrder::VirtualClock(*vc))?)?;
        }
    }
    let inp = match &d.qos {
        Qos::Preemptive(_) => {
            let vc_ctrl = input_vc_p(d, &ib_fifo)?;
            mods.add(&vc_ctrl)?;
            input_port_p(d, &vc_ctrl)?
        }
        Qos::Shared | Qos::Partitioned(_) => {
            let vc_ctrl = input_vc(d)?;
            mods.add(&vc_ctrl)?;
            let bufs = if d.shared_ib() { InputBuffers::Shared(&ib_fifo) } else { InputBuffers::PerVc(&ib_fifo) };
            input_port(d, bufs, &vc_ctrl)?
        }
    };
    let va = vc_allocator(d, &rr_nm)?;
    let outp = output_port(d, &ob_fifo, &scheduler(order_c)?)?;
    mods.add(&inp)?;
    mods.add(&va)?;
    mods.add(&outp)?;

    let mut t = Module::new(format!("{p}_router"));
    t.doc(format!("Wormhole virtual-channel router `{p}`: {n} ports, {m} VCs per port, {w}-bit flits,"));
    // (the configuration's names for the crossbar and the scheduler)
    let crossbar = match d.scheduling.point {
        SchedulingPoint::InputPort { .. } => "Multiplexed",
        SchedulingPoint::OutputPort => "Full",
    };
    let order = match d.scheduling.order {
        FlitOrder::Age => "Fifo",
        FlitOrder::RoundRobin => "RoundRobin",
        FlitOrder::VirtualClock(_) => "Virtualclock",
    };
    if d.split() {
        t.doc(format!("{crossbar} crossbar, {order} scheduler; 6-stage pipeline BW, RC+VA, SA-A (point A,"));
        t.doc("registered), SA-B (point B, registered), ST, output (docs/microarchitecture.md §6, split).");
    } else if reg {
        t.doc(format!("{crossbar} crossbar, {order} scheduler; 5-stage pipeline BW, RC+VA, SA (registered), ST,"));
        t.doc("output (docs/microarchitecture.md §6, registered switch allocation).");
    } else {
        t.doc(format!("{crossbar} crossbar, {order} scheduler; 5-stage pipeline BW, RC, VA, ST, output (docs/microarchitecture.md)."));
    }
    t.doc("All buses are flat: port p's field of width F is [p*F +: F]; credits bit p*M+v.");
    t.input("clk_i", 1);
    t.input("rst_i", 1);
    let in_valid = t.input("in_valid_i", n);
    let in_vc = t.input("in_vc_i", n * vw);
    let in_head = t.input("in_head_i", n);
    let in_tail = t.input("in_tail_i", n);
    let in_dummy = if d.preemption().is_some() { Some(t.input("in_dummy_i", n)) } else { None };
    let in_data = t.input("in_data_i", n * w);
    let in_credit_o = t.output("in_credit_o", nm);
    let out_valid = t.output("out_valid_o", n);
    let out_vc = t.output("out_vc_o", n * vw);
    let out_head = t.output("out_head_o", n);
    let out_tail = t.output("out_tail_o", n);
    let out_dummy = if d.preemption().is_some() { Some(t.output("out_dummy_o", n)) } else { None };
    let out_data = t.output("out_data_o", n * w);
    let out_credit = t.input("out_credit_i", nm);
    let lw = d.lane_id_width();
    let lanes = if d.per_lane() {
        t.doc("Per-lane credits (§9.4 Credits): in_lane_i[p*LW +: LW], the lane the flit on input p");
        t.doc("enters; out_lane_o[o*LW +: LW], the lane of the flit on output o; in_credit_lane_o and");
        t.doc("out_credit_lane_i[(p*M+v)*LW +: LW], the lane each credit frees.");
        Some(LanePorts {
            in_lane: t.input("in_lane_i", n * lw),
            in_credit_lane: t.output("in_credit_lane_o", nm * lw),
            out_lane: t.output("out_lane_o", n * lw),
            out_credit_lane: t.input("out_credit_lane_i", nm * lw),
            credit_lane_all: t.wire("credit_lane_all", nm * lw),
        })
    } else {
        None
    };
    let tables = crate::route_tables::table_registers(&mut t, d)?;

    t.comment("Per input VC i = p*M+v, flat.");
    let va_req_all = t.wire("va_req_all", nm * n);
    let st_req = t.wire("st_req", nm);
    // (split: nothing reads the input VCs' routes but VA, through
    // va_route_all, and point B, through the candidates' ca_route_o)
    let route_all_opt = if d.split() { None } else { Some(t.wire("route_all", nm * pw)) };
    let route_all_sig = || route_all_opt.clone().ok_or_else(|| HdlError::Invalid("split router reads no route_all".into()));
    // VA reads the routes from route_all; only the skip-rc-stage mutant has
    // a route of its own for VA (computed in RC's cycle).
    let va_route_all = if d.va_in_rc_cycle() { Some(t.wire("va_route_all", nm * pw)) } else { None };
    // Each input VC's output VC; registered switch allocation reads its output
    // VC buffer one-hot instead (SA's room look-up) and the grant registers'.
    // (P mode: case (b)'s releases are spread by route and ovc in both pipelines)
    let (ovc_all, dst_all) = match (reg, d.preemption().is_some()) {
        (true, false) => (None, Some(t.wire("dst_all", nm * nm))),
        (true, true) => (Some(t.wire("ovc_all", nm * vw)), Some(t.wire("dst_all", nm * nm))),
        (false, _) => (Some(t.wire("ovc_all", nm * vw)), None),
    };
    let ovc_of = |pi: u32| -> Result<Expr> {
        let all = ovc_all.as_ref().ok_or_else(|| HdlError::Invalid("registered switch allocation reads dst_all".into()))?;
        Ok(all.field(pi * m * vw, m * vw))
    };
    let front_all = if d.shared_ib() || reg { None } else { Some(t.wire("front_all", nm * fw)) };
    // Point A's candidates: the shared input buffers read their flits.
    let (cand, cand_flit) = match (multiplexed, reg) {
        (true, false) => (Some(t.wire("cand", nm)), Some(t.wire("cand_flit", n * fw))),
        (true, true) => (Some(t.wire("cand", nm)), None),
        (false, _) => (None, None),
    };
    let sg = if reg { Some(SgWires::declare(&mut t, d)?) } else { None };
    let va_gnt = t.wire("va_gnt", nm);
    let va_ovc_in = t.wire("va_ovc_in", nm * vw);
    let mv = t.wire("move", nm);
    t.comment("Per output VC o*M+u, flat.");
    let ob_full = if d.faults.ignores_output_full { None } else { Some(t.wire("ob_full", nm)) };
    let push = t.wire("push", nm);
    let obw = d.ob_entry_width();
    // Write data per output port: one flit (shared output buffers) or one per output VC.
    let ob_w = if d.shared_ob() { obw } else { m * obw };
    let wdata = t.wire("ob_wdata", n * ob_w);
    let vtick_all = if d.virtual_clock().is_some() { Some(t.wire("vtick_all", nm * d.vtick.width)) } else { None };
    let release = t.wire("ovc_release", nm);
    // Atomic reallocation: the allocators free a VC when its output port
    // says it has drained, not when its tail crosses (§6 stage 3).
    let drained = if d.atomic { Some(t.wire("ovc_drained", nm)) } else { None };
    let enter_c = if order_c == FlitOrder::Age { Some(t.wire("enter_c", nm)) } else { None };
    let owner_all = if !multiplexed { Some(t.wire("owner_all", nm * iw)) } else { None };
    let per_class = crate::vc_allocator::va_ovc_per_class(d);
    let va_ovc_port = t.wire("va_ovc_port", n * vw * if per_class { d.classes } else { 1 });
    let (credit_all, relb_all) = if d.preemption().is_some() {
        t.comment("Preemptive mode: lane pops (credits) and case (b) output-VC releases, per input VC.");
        (Some(t.wire("credit_all", nm)), Some(t.wire("relb_all", nm)))
    } else {
        (None, None)
    };
    let cls_all = if d.va_needs_class() { Some(t.wire("cls_all", nm * d.class_width)) } else { None };
    let avc_all = if d.allowed_vcs.is_some() { Some(t.wire("avc_all", nm * m)) } else { None };
    let free_cnt_all = if d.link_groups.is_some() { Some(t.wire("free_cnt_all", n * d.free_count_width())) } else { None };
    let (accel_all, acc_set) = if d.acceleration() { (Some(t.wire("accel_all", nm)), Some(t.wire("acc_set", nm))) } else { (None, None) };

    for pi in 0..n {
        t.comment(format!("Input port {pi}"));
        let mut conns = vec![
                clk(),
                rst(),
                ("in_valid_i", in_valid.at(pi)),
                ("in_vc_i", in_vc.field(pi * vw, vw)),
                ("in_head_i", in_head.at(pi)),
                ("in_tail_i", in_tail.at(pi)),
                ("in_dummy_i", match &in_dummy { Some(x) => x.at(pi), None => Expr::zero(1) }),
                ("in_data_i", in_data.field(pi * w, w)),
                ("va_gnt_i", va_gnt.field(pi * m, m)),
                ("va_ovc_i", va_ovc_in.field(pi * m * vw, m * vw)),
                // (split: point A's pick, the candidate of the next cycle)
                match (&cand, d.split()) {
                    (Some(c), true) => ("sa_gnt_i", c.field(pi * m, m)),
                    _ => (if reg { "sa_gnt_i" } else { "pop_i" }, mv.field(pi * m, m)),
                },
                ("va_req_o", va_req_all.field(pi * m * n, m * n)),
                ("st_req_o", st_req.field(pi * m, m)),
            ];
        if let Some(ra) = &route_all_opt {
            conns.push(("route_o", ra.field(pi * m * pw, m * pw)));
        }
        if ovc_all.is_some() {
            conns.push(("ovc_o", ovc_of(pi)?));
        }
        if let Some(vr) = &va_route_all {
            conns.push(("va_route_o", vr.field(pi * m * pw, m * pw)));
        }
        if let Some(da) = &dst_all {
            conns.push(("dst_o", da.field(pi * m * nm, m * nm)));
        }
        if reg && d.shared_ib() && !d.split() {
            // The buffer's RAM reads the flit of point A's candidate, the
            // grant if the port is matched (single pass; iterative: the grant).
            conns.push(("sa_read_i", match (&cand, rounds) {
                (Some(c), None) => c.field(pi * m, m),
                _ => mv.field(pi * m, m),
            }));
        }
        match (&front_all, &cand, &cand_flit, &sg) {
            (_, _, _, Some(g)) => g.connect_input_port(&mut conns, d, pi, &mv),
            (Some(f), _, _, None) => conns.push(("front_o", f.field(pi * m * fw, m * fw))),
            (None, Some(c), Some(cf), None) => {
                conns.push(("rsel_i", c.field(pi * m, m)));
                conns.push(("cand_flit_o", cf.field(pi * fw, fw)));
            }
            _ => return Err(HdlError::Invalid("shared input buffers need a multiplexed crossbar".into())),
        }
        if in_dummy.is_none() {
            conns.retain(|c| c.0 != "in_dummy_i");
        }
        if let Some(va) = &vtick_all {
            conns.push(("vtick_o", va.field(pi * m * d.vtick.width, m * d.vtick.width)));
        }
        if let (Some(c), Some(r)) = (&credit_all, &relb_all) {
            conns.push(("credit_o", c.field(pi * m, m)));
            conns.push(("release_o", r.field(pi * m, m)));
        }
        if let Some(l) = &lanes {
            conns.push(("in_lane_i", l.in_lane.field(pi * lw, lw)));
            conns.push(("credit_lane_o", l.credit_lane_all.field(pi * m * lw, m * lw)));
        }
        if let Some(c) = &cls_all {
            conns.push(("cls_o", c.field(pi * m * d.class_width, m * d.class_width)));
        }
        if let Some(a) = &avc_all {
            conns.push(("avc_o", a.field(pi * m * m, m * m)));
        }
        if let Some(f) = &free_cnt_all {
            conns.push(("free_cnt_i", f.e()));
        }
        if let Some((rt, avc)) = &tables {
            conns.push(("route_table_i", rt.e()));
            if let Some(a) = avc {
                conns.push(("avc_table_i", a.e()));
            }
        }
        if let (Some(a), Some(s)) = (&accel_all, &acc_set) {
            conns.push(("accel_o", a.field(pi * m, m)));
            conns.push(("acc_set_i", s.field(pi * m, m)));
        }
        t.instance(&inp, &format!("u_in{pi}"), &conns);
    }

    t.comment("Stage 3: one output-VC allocator per output port");
    let mut gnts = vec![];
    let mut victims = vec![];
    for o in 0..n {
        let bits = (0..nm).map(|i| va_req_all.e().bit(i * n + o)).collect::<Result<Vec<_>>>()?;
        let req = t.wire_of(&format!("va_req{o}"), &cat_lsb(&bits));
        let g = t.wire(&format!("va_gnt{o}"), nm);
        let mut conns = vec![
            clk(),
            rst(),
            ("req_i", req.e()),
            ("release_i", drained.as_ref().unwrap_or(&release).field(o * m, m)),
            ("gnt_o", g.e()),
        ];
        if per_class {
            let cv = d.classes * vw;
            conns.push(("cls_ovc_o", va_ovc_port.field(o * cv, cv)));
        } else {
            conns.push(("gnt_ovc_o", va_ovc_port.field(o * vw, vw)));
        }
        if let Some(ec) = &enter_c {
            conns.push(("alloc_set_o", ec.field(o * m, m)));
        }
        if let Some(ow) = &owner_all {
            conns.push(("owner_o", ow.field(o * m * iw, m * iw)));
        }
        if let Some(c) = &cls_all {
            conns.push(("cls_i", c.e()));
        }
        if let Some(a) = &avc_all {
            conns.push(("avc_i", a.e()));
        }
        if let Some(f) = &free_cnt_all {
            conns.push(("free_cnt_o", f.field(o * d.free_count_width(), d.free_count_width())));
        }
        if acc_set.is_some() {
            let vw_ = t.wire(&format!("victim{o}"), nm);
            conns.push(("victim_o", vw_.e()));
            victims.push(vw_);
        }
        t.instance(&va, &format!("u_va{o}"), &conns);
        gnts.push(g.e());
    }
    t.assign(&va_gnt, &any_of(&gnts));
    if let Some(a) = &acc_set {
        t.assign(&a, &any_of(&victims));
    }
    for i in 0..nm {
        let r = match &va_route_all {
            Some(v) => v.field(i * pw, pw),
            None => route_all_sig()?.field(i * pw, pw),
        };
        let ovc = match (&cls_all, per_class) {
            // the output VC of the VC's own class at its route's allocator
            (Some(c), true) => {
                let cw = d.classes * vw;
                let at_route = t.wire_of(&format!("va_cls_ovc{i}"), &va_ovc_port.elem(&r, cw));
                at_route.elem(&c.field(i * d.class_width, d.class_width), vw)
            }
            _ => va_ovc_port.elem(&r, vw),
        };
        t.assign(&va_ovc_in.lv_part(i * vw, vw)?, &ovc);
    }

    t.comment("Stage 4: switch traversal");
    let ready = t.wire("ready", nm);
    // split VirtualClock (§8.4): each input VC's room counting the crossing flit alone
    let sroom = if d.vclock_stamped_room() { Some(t.wire("sroom", nm)) } else { None };
    match &ob_full {
        Some(f) => {
            let rm = switch::st_ready(d)?;
            mods.add(&rm)?;
            for pi in 0..n {
                let mut conns = vec![("ob_full_i", f.e())];
                if let Some(g) = &sg {
                    conns.push(("ob_room2_i", g.room2.e()));
                    conns.push(("pend_i", g.pend.field(pi * m, m)));
                }
                if let Some(x) = sg.as_ref().and_then(|g| g.split.as_ref()) {
                    conns.push(("ob_room3_i", x.room3.e()));
                    conns.push(("pend2_i", x.pend2.field(pi * m, m)));
                    if let Some(sgp) = &x.sgp {
                        conns.push(("sgp_i", sgp.field(pi * m, m)));
                    }
                }
                conns.push(("st_req_i", st_req.field(pi * m, m)));
                match &dst_all {
                    Some(da) => conns.push(("dst_i", da.field(pi * m * nm, m * nm))),
                    None => conns.extend([
                        ("route_i", route_all_sig()?.field(pi * m * pw, m * pw)),
                        ("ovc_i", ovc_of(pi)?),
                    ]),
                }
                conns.push(("ready_o", ready.field(pi * m, m)));
                if let Some(sr) = &sroom {
                    conns.push(("sroom_o", sr.field(pi * m, m)));
                }
                t.instance(&rm, &format!("u_rdy{pi}"), &conns);
            }
        }
        None => {
            t.assign(&ready, &st_req);
            if let Some(sr) = &sroom {
                // (the mutant's readiness: a stamped VC is present, so it is ready)
                t.assign(sr, &Expr::ones(nm));
            }
            if let Some(g) = &sg {
                t.raw_line("/* verilator lint_off UNUSED */ // mutant: the room is ignored");
                let dst = dst_all.as_ref().ok_or_else(|| HdlError::Invalid("registered router without dst_all".into()))?;
                t.raw_line(format!("wire unused_room = ^{{{}, {}, {}}};", g.pend.name, g.room2.name, dst.name));
                if let Some(x) = &g.split {
                    t.raw_line(format!("wire unused_room3 = ^{{{}, {}}};", x.pend2.name, x.room3.name));
                }
                t.raw_line("/* verilator lint_on UNUSED */");
            }
        }
    }
    // The output VCs named by each input port's selected VCs (`sel`, N*M
    // bits), ORed over the ports: one `vc_spread` instance per port.
    let spread_m = if d.preemption().is_some() || !multiplexed { Some(switch::vc_spread(d)?) } else { None };
    if let Some(s) = &spread_m {
        mods.add(s)?;
    }
    let spread = |t: &mut Module, tag: &str, sel: &Expr| -> Result<Expr> {
        let sm = spread_m.as_ref().expect("vc_spread built for this mode");
        let mut terms = vec![];
        for pi in 0..n {
            let s = t.wire(&format!("{tag}{pi}"), nm);
            t.instance(
                sm,
                &format!("u_{tag}{pi}"),
                &[
                    ("sel_i", sel.field(pi * m, m)),
                    ("route_i", route_all_sig()?.field(pi * m * pw, m * pw)),
                    ("ovc_i", ovc_of(pi)?),
                    ("spread_o", s.e()),
                ],
            );
            terms.push(s.e());
        }
        Expr::or_all(&terms)
    };
    // Output-VC releases: tails crossing, plus preemption case (b) (§9.4).
    let relb_or = |t: &mut Module, tails: Expr| -> Result<Expr> {
        let Some(rb) = &relb_all else { return Ok(tails) };
        t.comment("Preemption case (b): output VCs released by a suspended message (§9.4)");
        let b = spread(t, "relb", &rb.e())?;
        Expr::or_all(&[tails, b])
    };
    let tail_of = |i: u32| match &front_all {
        Some(f) => f.e().bit(i * fw + fw - 2),
        None => Err(HdlError::Invalid("per-VC front flits exist only with per-VC input buffers".into())),
    };

    if let Some(order_a) = order_a {
        let won = t.wire("won", n);
        let sched_a = sched_a(order_a)?;
        let arb_a = match order_a {
            FlitOrder::Age => switch::PointAArbiter::Age(&sched_a),
            FlitOrder::VirtualClock(_) => switch::PointAArbiter::VirtualClock(&sched_a),
            FlitOrder::RoundRobin => switch::PointAArbiter::RoundRobin(&sched_a),
        };
        let needs_won = rounds.is_none() && switch::point_a_needs_won(d, &arb_a);
        let pa = switch::point_a(d, arb_a, if rounds.is_some() { &rr_m_a } else { &rr_m })?;
        let pb = if rounds.is_some() { switch::point_b_iter(d, &rr_n_b)? } else { switch::point_b(d, &rr_n)? };
        mods.add(&pa)?;
        mods.add(&pb)?;
        let cand = cand.clone().ok_or_else(|| HdlError::Invalid("multiplexed crossbar without candidate wires".into()))?;
        // (split: point B reads the candidate registers' routes instead)
        let cand_route = if rounds.is_none() && !d.split() { Some(t.wire("cand_route", n * pw)) } else { None };
        // (registered: the crossbar reads the grant registers, not point A)
        let cand_ovc = if reg { None } else { Some(t.wire("cand_ovc", n * vw)) };
        let rel_w = d.virtual_clock().map(|v| v.clock_width + 2);
        let rw = Round::declare(&mut t, d, picks, rel_w)?;
        let mut moves = vec![];
        for pi in 0..n {
            t.comment(format!("Point A of input port {pi}"));
            let mut conns = vec![clk(), rst(), ("ready_i", ready.field(pi * m, m))];
            if !d.split() {
                conns.push(("route_i", route_all_sig()?.field(pi * m * pw, m * pw)));
            }
            if !reg {
                conns.push(("ovc_i", ovc_of(pi)?));
            }
            match (&front_all, &cand_flit) {
                (Some(f), _) => conns.push(("front_i", f.field(pi * m * fw, m * fw))),
                (None, Some(cf)) if switch::point_a_needs_cand_tail(d) => conns.push(("cand_tail_i", cf.at(pi * fw + fw - 2))),
                _ => {}
            }
            if let Some(g) = sg.as_ref().and_then(|g| g.gtail.as_ref()) {
                conns.push(("gtail_i", g.field(pi * m, m)));
            }
            if needs_won {
                // split: A's grant takes effect whatever B does (§6 SA-A); the VirtualClock
                // scheduler gates every use of take_i with its own grant, so there a constant
                // 1 is the same value and keeps the grant off its rebase (§8.4, R comes from
                // the registers); the block hold and acceleration read won_i themselves
                let vclock_alone = matches!(order_a, FlitOrder::VirtualClock(_)) && d.block_size() <= 1 && !d.acceleration();
                let split_won = if vclock_alone { Expr::one_bit(true) } else { cand.field(pi * m, m).any() };
                conns.push(("won_i", if d.split() { split_won } else { won.at(pi) }));
            }
            if order_a == FlitOrder::Age {
                conns.push(("enter_i", va_gnt.field(pi * m, m)));
            }
            if let Some(va) = &vtick_all {
                conns.push(("st_req_i", st_req.field(pi * m, m)));
                conns.push(("vtick_i", va.field(pi * m * d.vtick.width, m * d.vtick.width)));
            }
            if let Some(sr) = &sroom {
                conns.push(("sroom_i", sr.field(pi * m, m)));
            }
            if let Some(a) = &accel_all {
                conns.push(("accel_i", a.field(pi * m, m)));
            }
            conns.push(("cand_o", cand.field(pi * m, m)));
            if let Some(cr) = &cand_route {
                conns.push(("cand_route_o", cr.field(pi * pw, pw)));
            }
            if let Some(co) = &cand_ovc {
                conns.push(("cand_ovc_o", co.field(pi * vw, vw)));
            }
            if let (Some(_), Some(cf)) = (&front_all, &cand_flit) {
                conns.push(("cand_flit_o", cf.field(pi * fw, fw)));
            }
            let names = Round::port_names(picks);
            for (r, x) in rw.iter().enumerate() {
                let nm_ = &names[r];
                conns.push((&nm_[0], x.won.at(pi)));
                if let Some(mo) = &x.mo {
                    conns.push((&nm_[1], mo.e()));
                }
                conns.push((&nm_[2], x.cand.field(pi * m, m)));
                conns.push((&nm_[3], x.route.field(pi * pw, pw)));
                if let (Some((rel, rt)), Some(w)) = (&x.rel, rel_w) {
                    conns.push((&nm_[4], rel.field(pi * w, w)));
                    conns.push((&nm_[5], rt.at(pi)));
                }
            }
            t.instance(&pa, &format!("u_xa{pi}"), &conns);
            moves.push(cand.field(pi * m, m) & &won.at(pi).rep(m));
        }
        let st_xbar_m = if reg { Some(switch::st_xbar(d)?) } else { None };
        if let Some(xm) = &st_xbar_m {
            mods.add(xm)?;
        }
        let mut gnt_b = vec![];
        let mut round_gnts: Vec<Vec<crate::verilog::Sig>> = vec![];
        let mut pushes = vec![];
        let mut wdatas = vec![];
        let mut releases = vec![];
        for o in 0..n {
            t.comment(format!("Point B of output port {o}"));
            // single pass: the input ports whose candidate routes here
            let single_req = match (&cand_route, sg.as_ref().and_then(|g| g.split.as_ref())) {
                // split: the registered candidates (SA-B)
                (None, Some(x)) => {
                    let reqs = (0..n)
                        .map(|pi| x.ca_valid.at(pi).l_and(x.ca_route.field(pi * pw, pw).is(num(pw, o as u64))))
                        .collect::<Vec<_>>();
                    Some(t.wire_of(&format!("xb_req{o}"), &cat_lsb(&reqs)))
                }
                (Some(cand_route), _) => {
                    let reqs = (0..n)
                        .map(|pi| cand.field(pi * m, m).any().land(&cand_route.field(pi * pw, pw).is(&num(pw, o as u64))))
                        .collect::<Result<Vec<_>>>()?;
                    Some(t.wire_of(&format!("xb_req{o}"), &cat_lsb(&reqs)))
                }
                (None, None) => None,
            };
            let g = t.wire(&format!("xb_gnt{o}"), n);
            let pv = t.wire(&format!("xpush{o}"), m);
            let xflit = t.wire(&format!("xflit{o}"), fw);
            // The crossbar: in point B (single cycle), or stage ST's from the
            // grant registers (registered).
            let xbar_conns = match (&cand_ovc, &cand_flit) {
                (Some(co), Some(cf)) => vec![("cand_ovc_i", co.e()), ("cand_flit_i", cf.e()), ("gnt_o", g.e()), ("push_o", pv.e()), ("flit_o", xflit.e())],
                _ => vec![("gnt_o", g.e())],
            };
            // Registered and split: the crossing flit's tail bit from the
            // grant registers (`sg_tail`), not from the flit the input
            // buffer's RAM reads in this cycle: the release of the output
            // VC into `allocated` then starts at flip-flops (the RAM's read
            // through the crossbar into `allocated_q` was the split router's
            // critical path once VA's was shortened; docs/benchmarks.md,
            // *Stage RV of the split router*). Same bit: §6, the grant
            // registers name the crossing flit; the input port checks it.
            let mut xtail = xflit.at(fw - 2);
            if let (Some(sgw), Some(xm)) = (&sg, &st_xbar_m) {
                xtail = sgw.st_crossbar(&mut t, xm, d, o, &pv, &xflit)?;
            }
            if let Some(req) = single_req {
                let mut conns = vec![clk(), rst(), ("req_i", req.e())];
                conns.extend(xbar_conns);
                t.instance(&pb, &format!("u_xb{o}"), &conns);
            } else {
                let names = Round::out_port_names(picks);
                let mut conns = vec![clk(), rst()];
                let mut gnts = vec![];
                for (r, x) in rw.iter().enumerate() {
                    let reqs = (0..n)
                        .map(|pi| x.cand.field(pi * m, m).any().land(&x.route.field(pi * pw, pw).is(&num(pw, o as u64))))
                        .collect::<Result<Vec<_>>>()?;
                    let req = t.wire_of(&format!("r{}_xb_req{o}", r + 1), &cat_lsb(&reqs));
                    let gr = t.wire(&format!("r{}_xb_gnt{o}", r + 1), n);
                    conns.push((names[r][0].as_str(), req.e()));
                    if let Some((rel, rt)) = &x.rel {
                        conns.push((names[r][1].as_str(), rel.e()));
                        conns.push((names[r][2].as_str(), rt.e()));
                    }
                    conns.push((names[r][3].as_str(), gr.e()));
                    gnts.push(gr);
                }
                conns.extend(xbar_conns);
                t.instance(&pb, &format!("u_xb{o}"), &conns);
                round_gnts.push(gnts);
            }
            pushes.push(pv.e());
            wdatas.push(if d.shared_ob() { xflit.e() } else { xflit.e().rep(m) });
            releases.push(&pv & &xtail.rep(m));
            gnt_b.push(g.e());
        }
        t.assign(&won, &any_of(&gnt_b));
        if let Some(x) = sg.as_ref().and_then(|g| g.split.as_ref()) {
            t.assign(&x.sb_won, &won);
        }
        Round::connect(&mut t, &rw, &round_gnts)?;
        if !d.split() {
            // (split: the input ports drive `move` with B's grants, sb_gnt_o)
            t.assign(&mv, &cat_lsb(&moves));
        }
        t.assign(&push, &cat_lsb(&pushes));
        t.assign(&wdata, &cat_lsb(&wdatas));
        let tails_rel = if d.faults.tail_keeps_output_vc { Expr::zero(nm) } else { cat_lsb(&releases) };
        let rel_all = relb_or(&mut t, tails_rel)?;
        t.assign(&release, &rel_all);
    } else {
        t.comment("Full crossbar: every ready input VC moves to its own output VC");
        t.assign(&mv, &ready);
        let pushes = spread(&mut t, "push", &ready.e())?;
        t.assign(&push, &pushes);
        let tails_rel = if d.faults.tail_keeps_output_vc {
            Expr::zero(nm)
        } else {
            let tails = (0..nm).map(tail_of).collect::<Result<Vec<_>>>()?;
            let moved_tails = t.wire_of("moved_tail", &(&ready & &cat_lsb(&tails)));
            spread(&mut t, "tailrel", &moved_tails.e())?
        };
        let rel_all = relb_or(&mut t, tails_rel)?;
        t.assign(&release, &rel_all);
        let owner_all = owner_all.as_ref().expect("full crossbar");
        let xm = switch::xbar_out(d)?;
        mods.add(&xm)?;
        for o in 0..n {
            t.comment(format!("Full crossbar columns of output port {o}"));
            let fa = front_all.as_ref().ok_or_else(|| HdlError::Invalid("full crossbar without per-VC fronts".into()))?;
            let mut conns = vec![("owner_i", owner_all.field(o * m * iw, m * iw)), ("front_i", fa.e())];
            if let Some(va) = &vtick_all {
                conns.push(("vtick_i", va.e()));
            }
            conns.push(("wdata_o", wdata.field(o * ob_w, ob_w)));
            t.instance(&xm, &format!("u_xbar{o}"), &conns);
        }
    }

    t.comment("Credits returned upstream: one cycle after a flit leaves an input VC buffer");
    let moved = match &credit_all {
        Some(c) => c.e(),
        None => mv.e(),
    };
    let credit_next = if d.faults.credit0_never_returned {
        moved & &onehot_of(&num(1, 0), nm).not()
    } else if d.faults.sa_credit_late {
        t.comment("MUTANT sa-credit-late: the credit leaves a cycle after the flit crosses");
        t.register_next("credit_late", &Expr::zero(nm), &moved).e()
    } else {
        moved
    };
    let in_credit_q = t.register_next("in_credit", &Expr::zero(nm), &credit_next);
    t.assign(&in_credit_o, &in_credit_q);
    if let Some(l) = &lanes {
        // each credit's lane, registered with it (0 without a credit)
        let q = t.register_next("in_credit_lane", &Expr::zero(nm * lw), &l.credit_lane_all);
        t.assign(&l.in_credit_lane, &q);
    }

    for o in 0..n {
        t.comment(format!("Output port {o}"));
        let mut conns = vec![
            clk(),
            rst(),
            ("push_i", push.field(o * m, m)),
            ("wdata_i", wdata.field(o * ob_w, ob_w)),
            ("credit_i", out_credit.field(o * m, m)),
            ("out_valid_o", out_valid.at(o)),
            ("out_vc_o", out_vc.field(o * vw, vw)),
            ("out_head_o", out_head.at(o)),
            ("out_tail_o", out_tail.at(o)),
            ("out_data_o", out_data.field(o * w, w)),
        ];
        if let Some(od) = &out_dummy {
            conns.push(("out_dummy_o", od.at(o)));
        }
        if let Some(l) = &lanes {
            conns.push(("credit_lane_i", l.out_credit_lane.field(o * m * lw, m * lw)));
            conns.push(("out_lane_o", l.out_lane.field(o * lw, lw)));
        }
        if let Some(ec) = &enter_c {
            conns.push(("enter_i", ec.field(o * m, m)));
        }
        if let Some(f) = &ob_full {
            conns.push(("full_o", f.field(o * m, m)));
        }
        if let Some(g) = &sg {
            conns.push(("room2_o", g.room2.field(o * m, m)));
        }
        if let Some(x) = sg.as_ref().and_then(|g| g.split.as_ref()) {
            conns.push(("room3_o", x.room3.field(o * m, m)));
        }
        if let Some(dr) = &drained {
            conns.push(("tail_crossed_i", release.field(o * m, m)));
            conns.push(("release_o", dr.field(o * m, m)));
        }
        t.instance(&outp, &format!("u_out{o}"), &conns);
    }
    if let (Some(_), Some(f)) = (&sg, &ob_full) {
        t.assert_always(&(&push & f).is(&Expr::zero(nm)), "a registered grant finds room in its output VC buffer");
    }
    mods.add(&t)?;
    Ok(mods)
}


/// The top's wires of one round of the iterative switch allocator (§6
/// *Switch allocation*): per input port the round's candidate, its route
/// (and, with `virtualclock`, its relative stamp and real-time flag); the
/// input ports matched in the round; the outputs matched before it.
struct Round {
    cand: crate::verilog::Sig,
    route: crate::verilog::Sig,
    rel: Option<(crate::verilog::Sig, crate::verilog::Sig)>,
    won: crate::verilog::Sig,
    mo: Option<crate::verilog::Sig>,
}

impl Round {
    fn declare(t: &mut Module, d: &Dims, k: u32, rel_w: Option<u32>) -> Result<Vec<Round>> {
        let (n, m, pw) = (d.ports, d.vcs, d.port_id_width);
        if k > 0 {
            t.comment("Iterative switch allocation (§6): per round, candidates, matches, matched outputs");
        }
        (1..=k)
            .map(|r| {
                Ok(Round {
                    cand: t.wire(&format!("r{r}_cand"), n * m),
                    route: t.wire(&format!("r{r}_route"), n * pw),
                    rel: match rel_w {
                        Some(w) => Some((t.wire(&format!("r{r}_rel"), n * w), t.wire(&format!("r{r}_rt"), n))),
                        None => None,
                    },
                    won: t.wire(&format!("r{r}_won"), n),
                    mo: if r > 1 { Some(t.wire(&format!("r{r}_mo"), n)) } else { None },
                })
            })
            .collect()
    }
    /// Point A's round ports: won, mo, cand, cand route, rel, rt.
    fn port_names(k: u32) -> Vec<[String; 6]> {
        (1..=k).map(|r| [format!("won{r}_i"), format!("mo{r}_i"), format!("cand{r}_o"), format!("cand{r}_route_o"), format!("cand{r}_rel_o"), format!("cand{r}_rt_o")]).collect()
    }
    /// Point B's round ports: req, rel, rt, gnt.
    fn out_port_names(k: u32) -> Vec<[String; 4]> {
        (1..=k).map(|r| [format!("req{r}_i"), format!("rel{r}_i"), format!("rt{r}_i"), format!("gnt{r}_o")]).collect()
    }
    /// won_r = the input ports some output granted in round r; mo_{r+1} =
    /// mo_r plus the outputs that granted in round r. `gnts[o][r]`.
    fn connect(t: &mut Module, rounds: &[Round], gnts: &[Vec<crate::verilog::Sig>]) -> Result<()> {
        for (r, x) in rounds.iter().enumerate() {
            let of_round = gnts.iter().map(|g| g[r].e()).collect::<Vec<_>>();
            t.assign(&x.won, &any_of(&of_round));
            if let Some(next) = rounds.get(r + 1).and_then(|y| y.mo.as_ref()) {
                let outs = cat_lsb(&of_round.iter().map(|g| g.any()).collect::<Vec<_>>());
                let before = match &x.mo {
                    Some(mo) => mo | outs,
                    None => outs,
                };
                t.assign(&next, &before);
            }
        }
        Ok(())
    }
}


/// The top's wires of the registered switch allocation (§6 *Registered
/// switch allocation*): per input VC whether its flit crosses now (`pend`)
/// and the tail bit of the flit SA would grant (`gtail`); per input port the
/// registered grant's crossing flit, its output port and output VC; per
/// output VC the room for two flits.
struct SgWires {
    pend: crate::verilog::Sig,
    gtail: Option<crate::verilog::Sig>,
    valid: crate::verilog::Sig,
    route: crate::verilog::Sig,
    ovc: crate::verilog::Sig,
    flit: crate::verilog::Sig,
    /// Per input port: the registered grant's tail bit (`sg_tail`); none
    /// when nothing reads it (the tail-keeps-vc mutant releases nothing).
    tail: Option<crate::verilog::Sig>,
    room2: crate::verilog::Sig,
    split: Option<SplitWires>,
}

/// The split pipeline's further wires (§6 *Split switch allocation*): per
/// input VC both flits in flight (`pend2`), per output VC the room for three,
/// per input port the candidate at point B (valid, route).
struct SplitWires {
    pend2: crate::verilog::Sig,
    /// Per input VC: its flit crosses now (the stamped room's `pend`, §8.4).
    sgp: Option<crate::verilog::Sig>,
    room3: crate::verilog::Sig,
    ca_valid: crate::verilog::Sig,
    ca_route: crate::verilog::Sig,
    /// Per input port: point B granted its candidate.
    sb_won: crate::verilog::Sig,
}

impl SgWires {
    fn declare(t: &mut Module, d: &Dims) -> Result<SgWires> {
        let (n, nm) = (d.ports, d.all_vcs());
        t.comment("Registered switch allocation (§6): SA's view of the crossing flits, stage ST's flits.");
        Ok(SgWires {
            pend: t.wire("pend_all", nm),
            gtail: if d.sa_reads_granted_tail() { Some(t.wire("gtail_all", nm)) } else { None },
            valid: t.wire("sg_valid_all", n),
            route: t.wire("sg_route_all", n * d.port_id_width),
            ovc: t.wire("sg_ovc_all", n * d.vc_id_width),
            flit: t.wire("st_flit_all", n * d.buf_flit_width),
            tail: if d.faults.tail_keeps_output_vc { None } else { Some(t.wire("sg_tail_all", n)) },
            room2: t.wire("ob_room2", nm),
            split: if d.split() {
                Some(SplitWires {
                    pend2: t.wire("pend2_all", nm),
                    sgp: if d.vclock_stamped_room() { Some(t.wire("sgp_all", nm)) } else { None },
                    room3: t.wire("ob_room3", nm),
                    ca_valid: t.wire("ca_valid_all", n),
                    ca_route: t.wire("ca_route_all", n * d.port_id_width),
                    sb_won: t.wire("sb_won", n),
                })
            } else {
                None
            },
        })
    }
    /// Input port `pi`'s registered-pipeline connections.
    /// Split: `mv` (flat per input VC) takes B's grants, the credits.
    fn connect_input_port(&self, conns: &mut Vec<(&str, Expr)>, d: &Dims, pi: u32, mv: &crate::verilog::Sig) {
        let (m, pw, vw, fw) = (d.vcs, d.port_id_width, d.vc_id_width, d.buf_flit_width);
        if let Some(g) = &self.gtail {
            conns.push(("gtail_o", g.field(pi * m, m)));
        }
        conns.extend([
            ("pend_o", self.pend.field(pi * m, m)),
            ("sg_valid_o", self.valid.at(pi)),
            ("sg_route_o", self.route.field(pi * pw, pw)),
            ("sg_ovc_o", self.ovc.field(pi * vw, vw)),
            ("st_flit_o", self.flit.field(pi * fw, fw)),
        ]);
        if let Some(tail) = &self.tail {
            conns.push(("sg_tail_o", tail.at(pi)));
        }
        if let Some(x) = &self.split {
            if let Some(sgp) = &x.sgp {
                conns.push(("sgp_o", sgp.field(pi * m, m)));
            }
            conns.extend([
                ("pend2_o", x.pend2.field(pi * m, m)),
                ("ca_valid_o", x.ca_valid.at(pi)),
                ("ca_route_o", x.ca_route.field(pi * pw, pw)),
                ("sb_gnt_o", mv.field(pi * m, m)),
                ("sb_won_i", x.sb_won.at(pi)),
            ]);
        }
    }
    /// Stage ST into output port `o`: the input ports whose registered grant
    /// goes there push their crossing flit (`push`, `flit`); returns
    /// whether that flit is a tail, from the grant registers' `sg_tail`.
    fn st_crossbar(&self, t: &mut Module, xm: &Module, d: &Dims, o: u32, push: &crate::verilog::Sig, flit: &crate::verilog::Sig) -> Result<Expr> {
        let (n, pw) = (d.ports, d.port_id_width);
        let hits = (0..n).map(|pi| self.valid.at(pi).l_and(self.route.field(pi * pw, pw).is(num(pw, o as u64)))).collect::<Vec<_>>();
        let hit = t.wire_of(&format!("st_hit{o}"), &cat_lsb(&hits));
        let (ones, zero) = (Expr::ones(n), Expr::zero(n));
        t.assert_always(&crate::bits::at_most_one_set(&hit, &ones, &zero), &format!("at most one flit enters output port {o}"));
        t.instance(
            xm,
            &format!("u_st{o}"),
            &[("hit_i", hit.e()), ("sg_ovc_i", self.ovc.e()), ("sg_flit_i", self.flit.e()), ("push_o", push.e()), ("flit_o", flit.e())],
        );
        Ok(match &self.tail {
            Some(tail) => (&hit & tail).any(),
            None => Expr::one_bit(false),
        })
    }
}

/// The top's per-lane credit ports (§3, §9.4 *Credits*) and the input
/// ports' credit lanes, flat per input VC.
struct LanePorts {
    in_lane: crate::verilog::Sig,
    in_credit_lane: crate::verilog::Sig,
    out_lane: crate::verilog::Sig,
    out_credit_lane: crate::verilog::Sig,
    credit_lane_all: crate::verilog::Sig,
}

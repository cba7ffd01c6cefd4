//! `<prefix>_inject`: the send queues and their pending completions
//! (docs/nic.md §8), the credits into the router and the injection
//! scheduler with its link register (§9).

use super::{fifo_instance, r, set, when, wire_partly_used, Block, FifoPorts, Lib, NicDims, NicFault};
use crate::bits::{encode, onehot_of};
use crate::buffers::fifo;
use crate::lane_sender::{lane_sender, Front, LaneDims};
use crate::vclock::vclock_sched;
use crate::verilog::{cat, num, onehot_select, clog2, Expr, Result, Sig, Stmt};
use wormqos_config::nic::Injection;

pub(crate) fn build(d: &NicDims, lib: &mut Lib) -> Result<Block> {
    let mut b = Block::new(format!("{}_inject", d.prefix))?;
    b.m.doc("Send queues, pending completions, credits and the injection scheduler (docs/nic.md §8, §9).");
    let push = b.input("sq_push_i", 1);
    let sel = b.input("sq_sel_i", d.qw());
    let flit = b.input("sq_flit_i", d.send_entry_w());
    let full_o = b.output("sq_full_o", d.qn);
    let avail_o = b.output("q_avail_o", d.qn);
    let pend_push = b.input("pend_push_i", 1);
    let pend_data = b.input("pend_data_i", NicDims::PEND_W);
    let wr1_req = b.output("wr1_req_o", 1);
    let wr1_data = b.output("wr1_data_o", NicDims::PEND_W);
    let wr1_take = b.input("wr1_take_i", 1);
    let valid_o = b.output("inj_valid_o", 1);
    let vc_o = b.output("inj_vc_o", d.vw);
    let head_o = b.output("inj_head_o", 1);
    let tail_o = b.output("inj_tail_o", 1);
    let data_o = b.output("inj_data_o", d.w);
    let dummy_o = if d.preemptive { Some(b.output("inj_dummy_o", 1)) } else { None };
    let credit_i = b.input("inj_credit_i", d.m);
    // docs/nic.md §9.1, per-lane credits: the lane of each sent flit and of
    // each returned credit.
    let lane_ports = (d.lanes > 0).then(|| (b.output("inj_lane_o", d.lw), b.input("inj_credit_lane_i", d.m * d.lw)));
    let m = &mut b.m;
    let (qn, fe, w, vw) = (d.qn, d.send_entry_w(), d.w, d.vw);
    let flit_fifo = lib.add(fifo(&d.prefix, fe, d.bq)?);
    let pend_fifo = lib.add(fifo(&d.prefix, NicDims::PEND_W, d.bq)?);
    let sel_oh = m.wire_of("sel_oh", &onehot_of(&sel, qn));

    // ---- the queues
    let pop = m.wire("pop", qn);
    let pend_pop = m.wire("pend_pop", qn);
    let empty = m.wire("empty", qn);
    let full = m.wire("full", qn);
    m.raw_line("/* verilator lint_off UNUSED */ // the completion count tells when a pending entry exists");
    let pend_empty = m.wire("pend_empty", qn);
    m.raw_line("/* verilator lint_on UNUSED */");
    let pend_full = m.wire("pend_full", qn);
    let mut fronts = Vec::new();
    let mut pend_fronts = Vec::new();
    for q in 0..qn {
        let front = m.wire(&format!("q{q}_front"), fe);
        let pfront = m.wire(&format!("q{q}_pend_front"), NicDims::PEND_W);
        fifo_instance(
            m,
            &flit_fifo,
            &format!("u_q{q}"),
            FifoPorts {
                push: (push.e() & &sel_oh.e().at(q)),
                wdata: flit.e(),
                pop: pop.at(q),
                rdata: front.e(),
                empty: empty.at(q),
                full: full.at(q),
            },
        )?;
        fifo_instance(
            m,
            &pend_fifo,
            &format!("u_pend{q}"),
            FifoPorts {
                push: (pend_push.e() & &sel_oh.e().at(q)),
                wdata: pend_data.e(),
                pop: pend_pop.at(q),
                rdata: pfront.e(),
                empty: pend_empty.at(q),
                full: pend_full.at(q),
            },
        )?;
        fronts.push(front);
        pend_fronts.push(pfront);
    }
    m.assign(&full_o, &full);
    m.assign(&avail_o.lv(), &(full.e() | &pend_full.e()).not());
    let fvc = |f: &Sig| f.e().part(w + 2, vw);

    // ---- credits (docs/nic.md §9.1): per VC, or per lane of each VC
    // (`cpos` bit u: the front flit of VC u has a credit; per-lane senders
    // drive it below, once the sent flit is known).
    let crw = clog2(d.di as u64 + 1);
    let mut cred = Vec::new();
    let cpos = if lane_ports.is_some() {
        m.wire("cpos", d.m)
    } else {
        for u in 0..d.m {
            cred.push(m.register_wire_d(&format!("vc{u}_credits"), &num(crw, d.di as u64)));
        }
        m.wire_of("cpos", &cat(&cred.iter().rev().map(|(q, _)| q.e().ne(&Expr::zero(crw))).collect::<Result<Vec<_>>>()?))
    };

    // ---- the scheduler: `gnt` is the one-hot of the queue whose front flit is sent.
    let gnt = m.wire("gnt", qn);
    if !d.qos {
        m.comment("traditional: the front flit leaves when its VC has a credit (docs/nic.md §9.2)");
        m.assign(&gnt.lv(), &(empty.e().not() & &cpos.e().at_dyn(&fvc(&fronts[0])?)));
    } else {
        let present = m.wire_of("present", &empty.e().not());
        let elig = m.wire_of("elig", &(present.e() & &cpos.e()));
        let vtick = m.wire_of("vtick", &cat(&fronts.iter().rev().map(|f| f.e().part(w + 2 + vw, d.vtw)).collect::<Result<Vec<_>>>()?));
        let req = granularity(d, m, &elig.e(), &gnt.e(), &fronts)?;
        let vc = lib.add(vclock_sched(&d.prefix, d.m, d.c, d.vtw, None)?);
        m.instance(
            &vc,
            "u_vclock",
            &[
                crate::bits::clk(),
                crate::bits::rst(),
                ("present_i", present.e()),
                ("vtick_i", vtick.e()),
                ("req_i", req),
                ("take_i", gnt.e().red_or()),
                ("gnt_o", gnt.e()),
            ],
        );
    }
    m.assign(&pop, &gnt);
    let sent = m.wire_of("sent", &gnt.e().red_or());
    let sflit = wire_partly_used(m, "sent_flit", &onehot_select(&gnt, &fronts.iter().map(Sig::e).collect::<Vec<_>>()))?;
    let s_head = sflit.at(w);
    let s_tail = sflit.at(w + 1);
    let s_vc = m.wire_of("sent_vc", &sflit.field(w + 2, vw));
    let s_vc_oh = m.wire_of("sent_vc_oh", &onehot_of(&s_vc, d.m));
    let sent_lane = match &lane_ports {
        Some((_, credit_lane_i)) => Some(lane_senders(d, m, &fronts, &sent, &s_vc_oh, &credit_i, credit_lane_i, &cpos)?),
        None => None,
    };
    let leak = d.is(NicFault::CreditLeak);
    if leak {
        m.comment("FAULT nic-credit-leak: a tail flit takes no credit");
    }
    for (u, (q, dn)) in cred.iter().enumerate() {
        let u = u as u32;
        let mut took = sent.e() & &s_vc_oh.e().at(u);
        if leak {
            took = took & &s_tail.not();
        }
        let wide = crw + 1;
        let next = r(
            format!("({{1'b0, {}}} - {{{crw}'d0, {}}} + {{{crw}'d0, {}}})", q.name, took.text(), credit_i.at(u).text()),
            wide,
        );
        let nx = m.wire_of(&format!("vc{u}_credits_next"), &next);
        let cap = num(wide, d.di as u64);
        m.assign(&dn, &(nx.at_least(&cap)).then_else(&num(crw, d.di as u64), &nx.field(0, crw)));
    }

    // ---- the link register (docs/nic.md §9.1)
    let z = |wd: u32| Expr::zero(wd);
    let v_q = m.register_next("link_valid", &z(1), &sent);
    let vc_q = m.register_next("link_vc", &z(vw), &sent.then_else(&s_vc, &z(vw)));
    let h_q = m.register_next("link_head", &z(1), &(sent.e() & &s_head));
    let t_q = m.register_next("link_tail", &z(1), &(sent.e() & &s_tail));
    let d_q = m.register_next("link_data", &z(w), &sent.then_else(&sflit.field(0, w), &z(w)));
    m.assign(&valid_o, &v_q);
    m.assign(&vc_o, &vc_q);
    m.assign(&head_o, &h_q);
    m.assign(&tail_o, &t_q);
    m.assign(&data_o, &d_q);
    if let Some(dm) = dummy_o {
        m.assign(&dm, &z(1));
    }
    if let (Some((lane_o, _)), Some(lane)) = (&lane_ports, &sent_lane) {
        let lw = d.lw;
        let l_q = m.register_next("link_lane", &z(lw), &sent.then_else(lane, &z(lw)));
        m.assign(lane_o, &l_q);
    }

    // ---- completions that may be written: a tail has left (docs/nic.md §8)
    let stw = clog2(d.bq as u64 + 1);
    let early = d.is(NicFault::CompletionBeforeLastFlit);
    if early {
        m.comment("FAULT nic-completion-before-last-flit: counted when the engine hands the completion over");
    }
    let mut nz = Vec::new();
    let mut st_regs = Vec::new();
    for q in 0..qn {
        let (sq, sd) = m.register(&format!("q{q}_sent_tails"), stw, &Expr::zero(stw));
        nz.push(sq.is_not(&z(stw)));
        st_regs.push((sq, sd));
    }
    nz.reverse();
    let nzv = m.wire_of("cpl_ready", &cat(&nz));
    let first = m.wire_of("cpl_first", &(nzv.e() & &(nzv.e() - &num(qn, 1)).not()));
    m.assign(&wr1_req.lv(), &nzv.e().red_or());
    m.assign(&wr1_data, &onehot_select(&first, &pend_fronts.iter().map(Sig::e).collect::<Vec<_>>()));
    m.assign(&pend_pop.lv(), &(first.e() & &wr1_take.e().rep(qn)));
    for (q, (sq, sd)) in st_regs.iter().enumerate() {
        let q = q as u32;
        let inc = if early { pend_push.e() & &sel_oh.e().at(q) } else { gnt.e().at(q) & &s_tail };
        let dec = pend_pop.at(q);
        m.comb(vec![
            set(sd, &sq),
            when(&inc, vec![set(sd, &(sd + &num(stw, 1)))]),
            when(&dec, vec![set(sd, &(sd - &num(stw, 1)))]),
        ]);
    }
    let _ = pend_empty;
    Ok(b)
}

/// Per-lane credits (docs/nic.md §9.1): one lane sender per VC (the
/// router's own block, µarch §9.4 *Credits*, with DI credits per lane) on
/// the front flit of VC u — queue u's (qos) or the one queue's (traditional,
/// read only when that flit is of VC u). Drives `cpos` and returns the
/// lane of the sent flit.
#[allow(clippy::too_many_arguments)]
fn lane_senders(
    d: &NicDims,
    m: &mut crate::verilog::Module,
    fronts: &[Sig],
    sent: &Sig,
    s_vc_oh: &Sig,
    credit_i: &Sig,
    credit_lane_i: &Sig,
    cpos: &Sig,
) -> Result<Expr> {
    let ld = LaneDims {
        extra_lanes: d.lanes - 1,
        lane_width: d.lw,
        class_width: d.cw,
        classes: d.s,
        depth: d.di as u64,
        join_ignores_class: false,
    };
    let mut ok = Vec::new();
    let mut lanes = Vec::new();
    for u in 0..d.m {
        let f = &fronts[if d.qos { u as usize } else { 0 }];
        let front = Front { head: f.e().bit(d.w)?, class: f.e().part(d.class_lsb, d.cw)? };
        let sent_u = sent.e() & &s_vc_oh.e().at(u);
        let ret_lane = credit_lane_i.e().part(u * d.lw, d.lw)?;
        let s = lane_sender(m, &ld, u, &front, &sent_u, &credit_i.e().at(u), &ret_lane)?;
        ok.push(s.has_credit);
        lanes.push(s.lane.e());
    }
    ok.reverse();
    m.assign(cpos, &cat(&ok));
    Ok(onehot_select(s_vc_oh, &lanes))
}

/// The eligibility offered to the VirtualClock scheduler under block- or
/// message-level injection (docs/nic.md §9.3); `elig` itself at flit level.
fn granularity(d: &NicDims, m: &mut crate::verilog::Module, elig: &Expr, gnt: &Expr, fronts: &[Sig]) -> Result<Expr> {
    if d.injection == Injection::Flit {
        return Ok(elig.clone());
    }
    let (n, kw, w) = (d.m, clog2(d.m as u64), d.w);
    let any = gnt.red_or();
    let k = m.wire_of("gnt_idx", &encode(gnt, kw));
    let heads = cat(&fronts.iter().rev().map(|f| f.e().bit(w)).collect::<Result<Vec<_>>>()?);
    let tails = cat(&fronts.iter().rev().map(|f| f.e().bit(w + 1)).collect::<Result<Vec<_>>>()?);
    let g_tail = m.wire_of("gnt_tail", &(gnt & &tails).red_or());
    match d.injection {
        Injection::Flit => Ok(elig.clone()),
        Injection::Block => {
            let bw = clog2(d.block_size as u64);
            let (slot_q, slot_d) = m.register("blk_slot", kw, &Expr::zero(kw));
            let (left_q, left_d) = m.register("blk_left", bw, &Expr::zero(bw));
            let holding = left_q.is_not(&Expr::zero(bw));
            let held_ok = m.wire_of("blk_held_ok", &(&holding & &(elig & &onehot_of(&slot_q, n)).red_or()));
            m.comb(vec![
                set(&slot_d, &slot_q),
                set(&left_d, &left_q),
                when(&(holding & &held_ok.e().not()), vec![set(&left_d, &Expr::zero(bw))]),
                when(
                    &any,
                    vec![
                        Stmt::when_else(
                            &held_ok,
                            vec![set(&left_d, &(left_q.e() - &num(bw, 1)))],
                            vec![set(&slot_d, &k), set(&left_d, &num(bw, d.block_size as u64 - 1))],
                        ),
                        when(&g_tail, vec![set(&left_d, &Expr::zero(bw))]),
                    ],
                ),
            ]);
            Expr::mux(&held_ok.e(), &onehot_of(&slot_q.e(), n), elig)
        }
        Injection::Message => {
            let g_head = m.wire_of("gnt_head", &(gnt & &heads).red_or());
            let (hold_q, hold_d) = m.register("hold", 1, &Expr::zero(1));
            let (slot_q, slot_d) = m.register("hold_slot", kw, &Expr::zero(kw));
            m.comb(vec![
                set(&hold_d, &hold_q),
                set(&slot_d, &slot_q),
                when(&(&any & &g_head), vec![set(&hold_d, &Expr::one_bit(true)), set(&slot_d, &k)]),
                when(&(any & &g_tail), vec![set(&hold_d, &Expr::zero(1))]),
            ]);
            Expr::mux(&hold_q.e(), &(elig & &onehot_of(&slot_q.e(), n)), elig)
        }
    }
}

//! `<prefix>_rx`: the receive path (docs/nic.md §11): receive VC FIFOs
//! with credits, reassembly contexts keyed by `{seq, src}`, the posted
//! buffer queue, the receive engine and the completion queue.

use super::{fifo_instance, r, set, states, when, wire_partly_used, Block, FifoPorts, Lib, NicDims, NicFault};
use crate::arbiters::rr_arbiter;
use crate::bits::onehot_of;
use crate::buffers::fifo;
use crate::verilog::{cat, num, onehot_select, clog2, Expr, Result, Sig, Stmt};

/// The registers of one reassembly context (docs/nic.md §11.2).
struct Ctx {
    valid: (Sig, Sig),
    key: (Sig, Sig),
    addr: (Sig, Sig),
    len: (Sig, Sig),
    cls: (Sig, Sig),
    gh: (Sig, Sig),
    gt: (Sig, Sig),
    last: (Sig, Sig),
    cnt: (Sig, Sig),
    err: (Sig, Sig),
}

pub(crate) fn build(d: &NicDims, lib: &mut Lib) -> Result<Block> {
    let mut b = Block::new(format!("{}_rx", d.prefix))?;
    b.m.doc("Receive path (docs/nic.md §11): one flit at a time into host buffers by DMA write.");
    let (mv, w, vw, ixw, kw, axw) = (d.m, d.w, d.vw, d.ixw, d.keyw(), d.axw);
    let ej_valid = b.input("ej_valid_i", 1);
    let ej_vc = b.input("ej_vc_i", vw);
    let ej_head = b.input("ej_head_i", 1);
    let ej_tail = b.input("ej_tail_i", 1);
    let ej_data = b.input("ej_data_i", w);
    let ej_dummy = if d.preemptive { Some(b.input("ej_dummy_i", 1)) } else { None };
    let ej_credit = b.output("ej_credit_o", mv);
    // docs/nic.md §11.1, per-lane credits: the lane stored with each flit
    // and returned with its credit.
    let lane_ports = (d.lanes > 0).then(|| (b.input("ej_lane_i", d.lw), b.output("ej_credit_lane_o", mv * d.lw)));
    let rx_en = b.input("rx_en_i", 1);
    let post_push = b.input("post_push_i", 1);
    let post_data = b.input("post_data_i", 64);
    let post_full_o = b.output("post_full_o", 1);
    let cq_pop_i = b.input("cq_pop_i", 1);
    let info_o = b.output("rxc_info_o", 32);
    let len_o = b.output("rxc_len_o", 32);
    let addr_o = b.output("rxc_addr_o", 32);
    let wr_req = b.output("wr2_req_o", 1);
    let wr_addr = b.output("wr2_addr_o", 32);
    let wr_data = b.output("wr2_data_o", axw);
    let wr_done = b.input("wr2_done_i", 1);
    let wr_err = b.input("wr2_err_i", 1);
    let busy = b.output("rx_busy_o", 1);
    let ev_done = b.output("ev_rx_done_o", 1);
    let ev_err = b.output("ev_rx_err_o", 1);
    let ev_drop = b.output("ev_rx_drop_o", 1);
    let m = &mut b.m;
    let re = d.rx_entry_w();
    let rcv = lib.add(fifo(&d.prefix, re, d.rx_fifo_depth())?);
    let (st_names, rn) = (["RX_IDLE", "RX_FLIT", "RX_WRITE", "RX_CHECK", "RX_CPL"], d.r);
    let (sw, st) = states(m, &st_names);
    let [idle, flit, write, check, cpl] = <[Expr; 5]>::try_from(st).expect("five states");
    let (st_q, st_d) = m.register("state", sw, &idle);
    let is = |s: &Expr| st_q.e().eq(s);

    // ---- receive FIFOs (docs/nic.md §11.1)
    let push = m.wire_of("push", &(ej_valid.rep(mv) & &onehot_of(&ej_vc, mv)));
    let pop = m.wire("pop", mv);
    let empty = m.wire("empty", mv);
    let full = m.wire("full", mv);
    let accepted = m.wire_of("accepted", &(push.e() & &full.e().not()).red_or());
    m.assign(&ev_drop.lv(), &(ej_valid.e() & &accepted.e().not()));
    let mut wentry = vec![ej_data.e(), ej_head.e(), ej_tail.e()];
    if let Some(dm) = &ej_dummy {
        wentry.push(dm.e());
    }
    if let Some((lane, _)) = &lane_ports {
        wentry.push(lane.e());
    }
    wentry.reverse();
    let wentry = m.wire_of("wentry", &cat(&wentry));
    let mut fronts = Vec::new();
    for u in 0..mv {
        let f = m.wire(&format!("vc{u}_front"), re);
        fifo_instance(
            m,
            &rcv,
            &format!("u_vc{u}"),
            FifoPorts {
                push: (push.e().at(u) & &full.e().at(u).not()),
                wdata: wentry.e(),
                pop: pop.at(u),
                rdata: f.e(),
                empty: empty.at(u),
                full: full.at(u),
            },
        )?;
        fronts.push(f);
    }
    let cr = m.register_next("credit", &Expr::zero(mv), &pop);
    m.assign(&ej_credit, &cr);
    if let Some((_, credit_lane_o)) = &lane_ports {
        // Field u: the popped flit's lane (its entry's top LW bits), 0 without a pop.
        let lw = d.lw;
        let fields: Vec<Expr> = (0..mv).rev().map(|u| pop.at(u).then_else(&fronts[u as usize].field(re - lw, lw), &Expr::zero(lw))).collect();
        let cl = m.register_next("credit_lane", &Expr::zero(mv * lw), &cat(&fields));
        m.assign(credit_lane_o, &cl);
    }

    // ---- posted buffers and completions
    let post = lib.add(fifo(&d.prefix, 64, d.post_depth)?);
    let cqw = 4 + d.cw + d.dw + ixw + 32;
    let cqf = lib.add(fifo(&d.prefix, cqw, d.cq_depth)?);
    let post_pop = m.wire("post_pop", 1);
    let post_front = m.wire("post_front", 64);
    let post_empty = m.wire("post_empty", 1);
    fifo_instance(
        m,
        &post,
        "u_post",
        FifoPorts {
            push: post_push.e(),
            wdata: post_data.e(),
            pop: post_pop.e(),
            rdata: post_front.e(),
            empty: post_empty.e(),
            full: post_full_o.e(),
        },
    )?;
    let cq_push = m.wire("cq_push", 1);
    let cq_in = m.wire("cq_in", cqw);
    let cq_front = m.wire("cq_front", cqw);
    let cq_empty = m.wire("cq_empty", 1);
    let cq_full = m.wire("cq_full", 1);
    fifo_instance(
        m,
        &cqf,
        "u_cq",
        FifoPorts {
            push: cq_push.e(),
            wdata: cq_in.e(),
            pop: (cq_pop_i.e() & &cq_empty.e().not()),
            rdata: cq_front.e(),
            empty: cq_empty.e(),
            full: cq_full.e(),
        },
    )?;
    // RXC_*: the completion queue's head, all 0 when empty (docs/nic.md §5.1).
    let ne = cq_empty.e().not();
    let f = cq_front;
    let (o_cls, o_src, o_last, o_addr) = (4, 4 + d.cw, 4 + d.cw + d.dw, 4 + d.cw + d.dw + ixw);
    let info = cat(&[
        Expr::one_bit(true),
        Expr::zero(3),
        f.field(0, 4),
        f.field(o_cls, d.cw).zext_to(8),
        f.field(o_src, d.dw).zext_to(16),
    ]);
    m.assign(&info_o, &(ne.rep(32) & &info));
    let bytes = cat(&[f.field(o_last, ixw), Expr::zero(d.bbl())]).zext_to(32);
    m.assign(&len_o, &(ne.rep(32) & &bytes));
    m.assign(&addr_o, &(ne.rep(32) & &f.field(o_addr, 32)));

    // ---- contexts
    let rw = clog2(rn as u64);
    let cntw = d.cntw();
    let mut ctx = Vec::new();
    for c in 0..rn {
        let reg = |m: &mut crate::verilog::Module, n: &str, wd: u32| m.register(&format!("ctx{c}_{n}"), wd, &Expr::zero(wd));
        ctx.push(Ctx {
            valid: reg(m, "valid", 1),
            key: reg(m, "key", kw),
            addr: reg(m, "addr", 32),
            len: reg(m, "len", 32),
            cls: reg(m, "cls", d.cw),
            gh: reg(m, "got_head", 1),
            gt: reg(m, "got_tail", 1),
            last: reg(m, "last", ixw),
            cnt: reg(m, "count", cntw),
            err: reg(m, "err", 4),
        });
    }
    let valid_v = m.wire_of("ctx_valid", &cat(&ctx.iter().rev().map(|c| c.valid.0.e()).collect::<Vec<_>>()));
    let free_v = m.wire_of("ctx_free", &valid_v.e().not());
    let free_first = m.wire_of("ctx_free_first", &(free_v.e() & &(free_v.e() - &num(rn, 1)).not()));
    let can_alloc = m.wire_of("can_alloc", &(free_v.e().red_or() & &post_empty.e().not()));

    // ---- the front of each receive FIFO: dummy, key, hit (docs/nic.md §11.2)
    let fault_dt = d.is(NicFault::DropAfterDummyTail) && d.preemptive;
    let after_dt = if fault_dt { Some(m.register_wire_d("after_dummy_tail", &Expr::zero(mv))) } else { None };
    let mut proc_bits = Vec::new();
    let mut hits = Vec::new();
    let mut dummies = Vec::new();
    for (u, fr) in fronts.iter().enumerate() {
        let u = u as u32;
        let fe = fr;
        let key = m.wire_of(
            &format!("vc{u}_key"),
            &fe.at(w).then_else(&fe.field(d.hw, kw), &fe.field(ixw, kw)),
        );
        let hv = ctx.iter().rev().map(|c| c.valid.0.e().and(&c.key.0.e().is(&key.e()))).collect::<Result<Vec<_>>>()?;
        let hit = m.wire_of(&format!("vc{u}_hit"), &cat(&hv));
        let mut dummy = if d.preemptive { fe.at(w + 2) } else { Expr::zero(1) };
        if let Some((aq, _)) = &after_dt {
            dummy = dummy | &aq.at(u);
        }
        let dummy = m.wire_of(&format!("vc{u}_dummy"), &dummy);
        let ok = empty.e().at(u).not() & &((dummy.e() | &hit.e().red_or()) | &can_alloc.e());
        proc_bits.push(ok);
        hits.push(hit);
        dummies.push(dummy);
    }
    proc_bits.reverse();
    let idle_en = m.wire_of("idle_en", &(is(&idle)? & &rx_en.e()));
    let req = m.wire_of("req", &(cat(&proc_bits) & &idle_en.rep(mv)));
    let gnt = m.wire("gnt", mv);
    let arb = lib.add(rr_arbiter(&d.prefix, mv, None)?);
    m.instance(
        &arb,
        "u_arb",
        &[crate::bits::clk(), crate::bits::rst(), ("req_i", req.e()), ("take_i", gnt.e().red_or()), ("gnt_o", gnt.e())],
    );
    m.assign(&pop, &gnt);
    let take = m.wire_of("take", &gnt.e().red_or());
    let sel_flit = wire_partly_used(m, "sel_flit", &onehot_select(&gnt, &fronts.iter().map(Sig::e).collect::<Vec<_>>()))?;
    let sel_hit = m.wire_of("sel_hit", &onehot_select(&gnt, &hits));
    let dv = cat(&dummies.iter().rev().cloned().collect::<Vec<_>>());
    let sel_dummy = m.wire_of("sel_dummy", &(gnt.e() & &dv).red_or());
    let hit_first = sel_hit.e() & &(sel_hit.e() - &num(rn, 1)).not();
    let real = m.wire_of("take_real", &(take.e() & &sel_dummy.e().not()));
    let alloc = m.wire_of("alloc", &(real.e() & &sel_hit.e().red_or().not()));
    m.assign(&post_pop, &alloc);
    let alloc_oh = m.wire_of("alloc_oh", &(free_first.e() & &alloc.e().rep(rn)));
    if let Some((aq, ad)) = &after_dt {
        m.comment("FAULT nic-drop-after-dummy-tail: the first real flit after a dummy tail is dropped");
        let dt_taken = gnt.e() & &((sel_flit.e().at(w + 2) & &sel_flit.e().at(w + 1))).rep(mv);
        let real_taken = gnt.e() & &(sel_flit.e().at(w + 2).not()).rep(mv);
        m.assign(&ad.lv(), &((aq.e() & &real_taken.not()) | &dt_taken));
    }

    // ---- the latched flit and its context
    let (rc_q, rc_d) = m.register("rc", rn, &Expr::zero(rn));
    let (lh_q, lh_d) = m.register("lf_head", 1, &Expr::zero(1));
    let (lt_q, lt_d) = m.register("lf_tail", 1, &Expr::zero(1));
    let (ld_q, ld_d) = m.register("lf_data", w, &Expr::zero(w));
    let (wa_q, wa_d) = m.register("waddr", 32, &Expr::zero(32));
    let cur = |m: &mut crate::verilog::Module, n: &str, get: &dyn Fn(&Ctx) -> Expr| -> Result<Sig> {
        Ok(m.wire_of(&format!("cur_{n}"), &onehot_select(&rc_q, &ctx.iter().map(get).collect::<Vec<_>>())))
    };
    let cur_addr = cur(m, "addr", &|c| c.addr.0.e())?;
    let cur_len = cur(m, "len", &|c| c.len.0.e())?;
    let cur_key = wire_partly_used(m, "cur_key", &onehot_select(&rc_q, &ctx.iter().map(|c| c.key.0.e()).collect::<Vec<_>>()))?;
    let cur_cls = cur(m, "cls", &|c| c.cls.0.e())?;
    let cur_gh = cur(m, "gh", &|c| c.gh.0.e())?;
    let cur_gt = cur(m, "gt", &|c| c.gt.0.e())?;
    let cur_last = cur(m, "last", &|c| c.last.0.e())?;
    let cur_cnt = cur(m, "cnt", &|c| c.cnt.0.e())?;
    let cur_err = cur(m, "err", &|c| c.err.0.e())?;
    let k = m.wire_of("lf_index", &ld_q.field(0, ixw));
    let poison = m.wire_of("lf_poison", &ld_q.at(ixw + kw));
    let kbytes = cat(&[k.e(), Expr::zero(d.bbl())]).zext_to(32);
    let bad_k = m.wire_of("lf_bad_index", &(k.is(&Expr::zero(ixw)) | &cur_len.below(&kbytes)));
    let km1 = cat(&[(k.e() - &num(ixw, 1)), Expr::zero(d.bbl())]).zext_to(32);
    let done_ok = m.wire_of(
        "complete",
        &((cur_gh.e() & &cur_gt.e()) & &cur_cnt.e().is(&(cur_last.e().zext_to(cntw) + &num(cntw, 1)))),
    );
    let cpl_go = m.wire_of("cpl_go", &(is(&cpl)? & &cq_full.e().not()));
    m.assign(&cq_push, &cpl_go);
    m.assign(
        &cq_in,
        &cat(&[cur_addr.e(), cur_last.e(), cur_key.e().field(0, d.dw), cur_cls.e(), cur_err.e()]),
    );
    m.assign(&ev_done.lv(), &(cpl_go.e() & &cur_err.e().is(&Expr::zero(4))));
    m.assign(&ev_err.lv(), &(cpl_go.e() & &cur_err.e().is_not(&Expr::zero(4))));

    // What happens to the current context this cycle.
    let in_flit = is(&flit)?;
    let u_head = m.wire_of("u_head", &(&in_flit & &lh_q));
    let u_tail = m.wire_of("u_tail", &((&in_flit & &lh_q.e().not()) & &lt_q.e()));
    let flit_done = &in_flit & &((lh_q.e() | &poison.e()) | &bad_k.e());
    let u_cnt = m.wire_of("u_count", &(flit_done | &(is(&write)? & &wr_done.e())));
    let body = in_flit & &lh_q.e().not();
    let code = Expr::mux(
        &(&body & &poison),
        &num(4, 3),
        &Expr::mux(
            &(body & &bad_k),
            &num(4, 1),
            &(((is(&write)? & &wr_done.e()) & &wr_err.e())).then_else(&num(4, 2), &Expr::zero(4)),
        )?,
    )?;
    let u_err = m.wire_of("u_err", &code);
    for (c, x) in ctx.iter().enumerate() {
        let c = c as u32;
        let mine = rc_q.at(c);
        let mut upd = vec![
            when(&u_head, vec![set(&x.gh.1, &Expr::one_bit(true)), set(&x.cls.1, &ld_q.field(d.dw, d.cw))]),
            when(&u_tail, vec![set(&x.gt.1, &Expr::one_bit(true)), set(&x.last.1, &k)]),
            when(&u_cnt.e(), vec![set(&x.cnt.1, &(x.cnt.0.e() + &num(cntw, 1)))]),
            when(&x.err.0.is(&Expr::zero(4)), vec![set(&x.err.1, &u_err)]),
            when(&cpl_go, vec![set(&x.valid.1, &Expr::zero(1))]),
        ];
        upd.insert(0, Stmt::Comment(format!("context {c}")));
        let mut stmts = Vec::new();
        for (q, dd) in [&x.valid, &x.key, &x.addr, &x.len, &x.cls, &x.gh, &x.gt, &x.last, &x.cnt, &x.err] {
            stmts.push(set(dd, &q));
        }
        stmts.push(Stmt::when_else(
            &alloc_oh.at(c),
            vec![
                set(&x.valid.1, &Expr::one_bit(true)),
                set(&x.key.1, &onehot_select(&gnt, &fronts.iter().enumerate().map(|(u, _)| r(format!("vc{u}_key"), kw)).collect::<Vec<_>>())),
                set(&x.addr.1, &post_front.field(0, 32)),
                set(&x.len.1, &post_front.field(32, 32)),
                set(&x.cls.1, &Expr::zero(d.cw)),
                set(&x.gh.1, &Expr::zero(1)),
                set(&x.gt.1, &Expr::zero(1)),
                set(&x.last.1, &Expr::zero(ixw)),
                set(&x.cnt.1, &Expr::zero(cntw)),
                set(&x.err.1, &Expr::zero(4)),
            ],
            vec![when(&mine, upd)],
        ));
        m.comb(stmts);
    }

    // ---- the receive engine (docs/nic.md §11.3)
    let arms = vec![
        (
            idle.clone(),
            vec![when(
                &real,
                vec![
                    set(&rc_d, &(sel_hit.e().red_or()).then_else(&hit_first, &free_first.e())),
                    set(&lh_d, &sel_flit.at(w)),
                    set(&lt_d, &sel_flit.at(w + 1)),
                    set(&ld_d, &sel_flit.field(0, w)),
                    set(&st_d, &flit),
                ],
            )],
        ),
        (
            flit.clone(),
            vec![Stmt::when_else(
                &((lh_q.e() | &poison.e()) | &bad_k.e()),
                vec![set(&st_d, &check)],
                vec![set(&wa_d, &(cur_addr.e() + &km1)), set(&st_d, &write)],
            )],
        ),
        (write.clone(), vec![when(&wr_done, vec![set(&st_d, &check)])]),
        (check.clone(), vec![Stmt::when_else(&done_ok, vec![set(&st_d, &cpl)], vec![set(&st_d, &idle)])]),
        (cpl.clone(), vec![when(&cpl_go, vec![set(&st_d, &idle)])]),
    ];
    m.comb(vec![
        set(&st_d, &st_q),
        set(&rc_d, &rc_q),
        set(&lh_d, &lh_q),
        set(&lt_d, &lt_q),
        set(&ld_d, &ld_q),
        set(&wa_d, &wa_q),
        Stmt::case_of(&st_q, arms, vec![]),
    ]);
    m.assign(&wr_req.lv(), &is(&write)?);
    m.assign(&wr_addr, &wa_q);
    m.assign(&wr_data, &ld_q.field(d.tagw(), axw));
    m.assign(&busy.lv(), &is(&idle)?.not());
    let _ = rw;
    Ok(b)
}

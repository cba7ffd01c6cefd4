//! `<prefix>_tx`: the send engine (docs/nic.md §7): descriptor fetch,
//! checks, header, payload bursts on the AXI4 read channels, and the
//! handover of the completion (§8) or of an error completion (§10).

use super::{r, set, set_part, states, when, Block, NicDims, NicFault};
use crate::bits::onehot_of;
use crate::verilog::{cat, num, Expr, Result, Stmt};

pub(crate) fn build(d: &NicDims) -> Result<Block> {
    let mut b = Block::new(format!("{}_tx", d.prefix))?;
    b.m.doc("Send engine (docs/nic.md §7): one message at a time, one AXI read burst at a time.");
    let tx_en = b.input("tx_en_i", 1);
    let sel_en = b.output("sel_en_o", 1);
    let sel_valid = b.input("sel_valid_i", 1);
    let sel_entry = b.input("sel_entry_i", d.db_w());
    let sel_code = b.input("sel_code_i", 4);
    let node_id = b.input("node_id_i", d.dw);
    let arid_o = b.output("m_axi_arid_o", 1);
    let araddr_o = b.output("m_axi_araddr_o", 32);
    let arlen_o = b.output("m_axi_arlen_o", 8);
    let arsize_o = b.output("m_axi_arsize_o", 3);
    let arburst_o = b.output("m_axi_arburst_o", 2);
    let arvalid_o = b.output("m_axi_arvalid_o", 1);
    let arready = b.input("m_axi_arready_i", 1);
    let rid = b.input("m_axi_rid_i", 1);
    let rdata = b.input("m_axi_rdata_i", d.axw);
    let rresp = b.input("m_axi_rresp_i", 2);
    let rlast = b.input("m_axi_rlast_i", 1);
    let rvalid = b.input("m_axi_rvalid_i", 1);
    let rready_o = b.output("m_axi_rready_o", 1);
    let sq_full = b.input("sq_full_i", d.qn);
    let sq_push = b.output("sq_push_o", 1);
    let sq_sel = b.output("sq_sel_o", d.qw());
    let sq_flit = b.output("sq_flit_o", d.send_entry_w());
    let pend_push = b.output("pend_push_o", 1);
    let pend_data = b.output("pend_data_o", NicDims::PEND_W);
    let wr0_req = b.output("wr0_req_o", 1);
    let wr0_addr = b.output("wr0_addr_o", 32);
    let wr0_data = b.output("wr0_data_o", 32);
    let wr0_done = b.input("wr0_done_i", 1);
    let busy = b.output("tx_busy_o", 1);
    let m = &mut b.m;
    m.raw_line("/* verilator lint_off UNUSED */ // the engine counts beats (docs/nic.md §3)");
    m.wire_of("rlast_unused", &rlast);
    m.wire_of("rid_unused", &rid);
    m.wire_of("rresp_lsb_unused", &rresp.at(0));
    m.wire_of("sel_bad_unused", &sel_entry.at(4));
    m.raw_line("/* verilator lint_on UNUSED */");

    let names = ["TX_IDLE", "TX_DESC_AR", "TX_DESC_R", "TX_CHECK", "TX_HEAD", "TX_PAY_AR", "TX_PAY_R", "TX_DONE", "TX_CPL_ERR"];
    let (sw, st) = states(m, &names);
    let [idle, desc_ar, desc_r, check, head, pay_ar, pay_r, done, cpl_err] = <[Expr; 9]>::try_from(st).expect("nine states");
    let ixw = d.ixw;
    let db = 16 / d.bb; // descriptor beats
    let (st_q, st_d) = m.register("state", sw, &idle);
    let (desc_q, desc_d) = m.register("desc", 27, &Expr::zero(27));
    let (vc_q, vc_d) = m.register("vc", 4, &Expr::zero(4));
    let (cls_q, cls_d) = m.register("cls", d.cw, &Expr::zero(d.cw));
    let (dsc_q, dsc_d) = m.register("dsc", 128, &Expr::zero(128));
    let (err_q, err_d) = m.register("err", 4, &Expr::zero(4));
    let (addr_q, addr_d) = m.register("addr", 32, &Expr::zero(32));
    let (left_q, left_d) = m.register("left", ixw, &Expr::zero(ixw));
    let (blen_q, blen_d) = m.register("blen", 9, &Expr::zero(9));
    let (idx_q, idx_d) = m.register("idx", ixw, &Expr::zero(ixw));
    let (seq_q, seq_d) = m.register("seq", 8, &Expr::zero(8));
    let (beat_q, beat_d) = m.register("beat", 2, &Expr::zero(2));
    let (ara_q, ara_d) = m.register("araddr", 32, &Expr::zero(32));
    let (arl_q, arl_d) = m.register("arlen", 8, &Expr::zero(8));
    let is = |s: &Expr| st_q.e().eq(s);

    // The send queue of the message and whether it has room.
    let q = if d.qos { m.wire_of("q", &vc_q.field(0, d.qw())) } else { m.wire_of("q", &Expr::zero(1)) };
    let full = m.wire_of("q_full", &(sq_full.e() & &onehot_of(&q.e(), d.qn)).red_or());
    let ar_hs = m.wire_of("ar_hs", &(arvalid_o.e() & &arready.e()));
    let r_hs = m.wire_of("r_hs", &(rvalid.e() & &rready_o.e()));
    let r_err = rresp.at(1);

    // Descriptor fields (docs/nic.md §7.1).
    let dest = m.wire_of("d_dest", &dsc_q.field(0, 32));
    let vtick = m.wire_of("d_vtick", &dsc_q.field(32, 32));
    let len = m.wire_of("d_len", &dsc_q.field(64, 32));
    let paddr = m.wire_of("d_paddr", &dsc_q.field(96, 32));
    let bbl = d.bbl();
    let len_beats = m.wire_of("d_len_beats", &len.bits(31, bbl));
    let mut checks = vec![
        (len.is(&Expr::zero(32)), 1u64),
        (len.bits(bbl - 1, 0).is_not(&Expr::zero(bbl)), 3),
        (len_beats.zext_to(32).at_least(&num(32, d.kmax as u64 + 1)), 2),
        (dest.at_least(&num(32, d.endpoints as u64)), 4),
    ];
    if d.vtw < 32 {
        checks.push((vtick.bits(31, d.vtw).is_not(&Expr::zero(32 - d.vtw)), 5));
    }
    checks.push((paddr.bits(bbl - 1, 0).is_not(&Expr::zero(bbl)), 6));
    let mut code = Expr::zero(4);
    for (cond, c) in checks.iter().rev() {
        code = cond.then_else(&num(4, *c), &code);
    }
    let code = m.wire_of("check_code", &code);

    // Flits (docs/nic.md §4) as send-queue entries {vtick, vc, tail, head, data}.
    let vt = vtick.field(0, d.vtw);
    let hdr = cat_pad(d.w, &[dest.e().field(0, d.dw), cls_q.e(), vt.clone(), node_id.e(), seq_q.e()])?;
    let poison = m.wire_of("poison", &r_err);
    let payload = poison.then_else(&Expr::zero(d.axw), &rdata);
    let body = cat_pad(d.w, &[idx_q.e(), node_id.e(), seq_q.e(), poison.e(), payload])?;
    let last = m.wire_of("last_flit", &left_q.is(&num(ixw, 1)));
    let vcf = vc_q.field(0, d.vw);
    let hdr_e = cat(&[vt.clone(), vcf.clone(), Expr::zero(1), Expr::one_bit(true), hdr]);
    let body_e = cat(&[vt, vcf, last.e(), Expr::zero(1), body]);
    m.assign(&sq_flit.lv(), &(is(&head)?).then_else(&hdr_e, &body_e));
    m.assign(&sq_push.lv(), &((is(&head)? & &full.e().not()) | &(is(&pay_r)? & &r_hs.e())));
    m.assign(&sq_sel, &q);

    // Burst length n = min(left, max_burst, beats to the 4 KiB boundary) of the next values.
    let ara_m = m.comb_reg("araddr_m", 32);
    let arl_m = m.comb_reg("arlen_m", 8);
    let blen_m = m.comb_reg("blen_m", 9);
    let to4k = m.comb_reg("to4k", 13);
    let nb0 = m.comb_reg("nb0", 13);
    let nb = m.comb_reg("nb", 13);
    let left13 = if ixw < 13 { r(format!("{{{}'d0, left_d}}", 13 - ixw), 13) } else { left_d.e() };
    let maxb = num(13, d.max_burst as u64);

    let sel_take = m.wire_of("sel_take", &(sel_en.e() & &sel_valid.e()));
    let mut desc_beats = Vec::new();
    for i in 0..db {
        desc_beats.push(when(&beat_q.is(&num(2, i as u64)), vec![set_part(&dsc_d, &format!("dsc_d[{}:{}]", (i + 1) * d.axw - 1, i * d.axw), d.axw, &rdata)]));
    }
    let set_err_if_clear = |v: u64| -> Stmt { when(&err_q.is(&Expr::zero(4)), vec![set(&err_d, &num(4, v))]) };
    let mut ar_stall = vec![];
    if d.is(NicFault::ArAddrMovesWhileStalled) {
        ar_stall.push(Stmt::Comment("FAULT nic-araddr-moves-while-stalled".into()));
        ar_stall.push(when(&arready.e().not(), vec![set(&ara_m, &(ara_q.e() + &num(32, d.bb as u64)))]));
    }
    let to_pay_ar = || -> Result<Vec<Stmt>> { Ok(vec![set(&st_d, &pay_ar)]) };
    let arms = vec![
        (
            idle.clone(),
            vec![when(
                &sel_take,
                vec![
                    set(&desc_d, &sel_entry.bits(31, 5)),
                    set(&vc_d, &sel_entry.bits(3, 0)),
                    set(&cls_d, &sel_entry.field(32, d.cw)),
                    set(&err_d, &sel_code),
                    set(&beat_d, &Expr::zero(2)),
                    // araddr/arlen are loaded on entry to an AR state only (docs/nic.md §7.2).
                    Stmt::when_else(
                        &sel_code.is_not(&Expr::zero(4)),
                        vec![set(&st_d, &cpl_err)],
                        vec![
                            set(&ara_m, &cat(&[sel_entry.bits(31, 5), Expr::zero(5)])),
                            set(&arl_m, &num(8, db as u64 - 1)),
                            set(&st_d, &desc_ar),
                        ],
                    ),
                ],
            )],
        ),
        (desc_ar.clone(), vec![when(&ar_hs, vec![set(&st_d, &desc_r)])]),
        (desc_r.clone(), {
            let mut v = vec![];
            let mut on = desc_beats;
            on.push(when(&r_err, vec![set_err_if_clear(7)]));
            on.push(set(&beat_d, &(beat_q.e() + &num(2, 1))));
            on.push(when(&beat_q.is(&num(2, db as u64 - 1)), vec![set(&st_d, &check)]));
            v.push(when(&r_hs, on));
            v
        }),
        (
            check.clone(),
            vec![Stmt::when_else(
                &(err_q.is_not(&Expr::zero(4)) | &code.is_not(&Expr::zero(4))),
                vec![when(&err_q.is(&Expr::zero(4)), vec![set(&err_d, &code)]), set(&st_d, &cpl_err)],
                vec![
                    set(&left_d, &len_beats.field(0, ixw)),
                    set(&addr_d, &paddr),
                    set(&idx_d, &num(ixw, 1)),
                    set(&st_d, &head),
                ],
            )],
        ),
        (head.clone(), vec![when(&full.e().not(), to_pay_ar()?)]),
        (pay_ar.clone(), {
            let mut v = ar_stall;
            v.push(when(&ar_hs, vec![set(&st_d, &pay_r)]));
            v
        }),
        (
            pay_r.clone(),
            vec![when(
                &r_hs,
                vec![
                    when(&r_err, vec![set_err_if_clear(8)]),
                    set(&idx_d, &(idx_q.e() + &num(ixw, 1))),
                    set(&left_d, &(left_q.e() - &num(ixw, 1))),
                    set(&blen_m, &(blen_q.e() - &num(9, 1))),
                    set(&addr_d, &(addr_q.e() + &num(32, d.bb as u64))),
                    when(
                        &blen_q.is(&num(9, 1)),
                        vec![Stmt::when_else(&last, vec![set(&st_d, &done)], to_pay_ar()?)],
                    ),
                ],
            )],
        ),
        (done.clone(), vec![set(&seq_d, &(seq_q.e() + &num(8, 1))), set(&st_d, &idle)]),
        (cpl_err.clone(), vec![when(&wr0_done, vec![set(&st_d, &idle)])]),
    ];
    m.raw_line("/* verilator lint_off UNUSED */ // a burst has at most 256 beats");
    let nb_m1 = m.comb_reg("nb_m1", 13);
    m.raw_line("/* verilator lint_on UNUSED */");
    let entering_pay_ar = st_d.is(&pay_ar) & &st_q.is_not(&pay_ar);
    m.comb(vec![
        set(&st_d, &st_q),
        set(&desc_d, &desc_q),
        set(&vc_d, &vc_q),
        set(&cls_d, &cls_q),
        set(&dsc_d, &dsc_q),
        set(&err_d, &err_q),
        set(&addr_d, &addr_q),
        set(&left_d, &left_q),
        set(&blen_m, &blen_q),
        set(&idx_d, &idx_q),
        set(&seq_d, &seq_q),
        set(&beat_d, &beat_q),
        set(&ara_m, &ara_q),
        set(&arl_m, &arl_q),
        Stmt::case_of(&st_q, arms, vec![]),
    ]);
    // A second block: the burst length depends on the next address and count.
    m.comb(vec![
        Stmt::Comment("a payload burst: n = min(left, max_burst, beats to the 4 KiB boundary)".into()),
        set(&to4k, &r(format!("((13'd4096 - {{1'b0, addr_d[11:0]}}) >> {bbl})"), 13)),
        set(&nb0, &left13.below(&maxb).then_else(&left13, &maxb)),
        set(&nb, &(to4k.below(&nb0)).then_else(&to4k, &nb0)),
        set(&nb_m1, &(nb.e() - &num(13, 1))),
        set(&ara_d, &ara_m),
        set(&arl_d, &arl_m),
        set(&blen_d, &blen_m),
        when(
            &entering_pay_ar,
            vec![
                set(&ara_d, &addr_d),
                set(&arl_d, &nb_m1.field(0, 8)),
                set(&blen_d, &nb.field(0, 9)),
            ],
        ),
    ]);
    m.assign(&sel_en.lv(), &(is(&idle)? & &tx_en.e()));
    m.assign(&arid_o, &Expr::zero(1));
    m.assign(&araddr_o, &ara_q);
    m.assign(&arlen_o, &arl_q);
    m.assign(&arsize_o, &num(3, bbl as u64));
    m.assign(&arburst_o, &num(2, 1));
    m.assign(&arvalid_o.lv(), &(is(&desc_ar)? | &is(&pay_ar)?));
    m.assign(&rready_o.lv(), &(is(&desc_r)? | &(is(&pay_r)? & &full.e().not())));
    m.assign(&pend_push.lv(), &is(&done)?);
    m.assign(&pend_data.lv(), &cat(&[err_q.e(), desc_q.e()]));
    m.assign(&wr0_req.lv(), &is(&cpl_err)?);
    m.assign(&wr0_addr.lv(), &cat(&[desc_q.e(), num(5, 16)]));
    m.assign(&wr0_data.lv(), &cat(&[Expr::one_bit(true), Expr::zero(27), err_q.e()]));
    m.assign(&busy.lv(), &is(&idle)?.not());
    Ok(b)
}

/// Fields LSB first, zero-padded to `w` bits.
pub(crate) fn cat_pad(w: u32, fields: &[Expr]) -> Result<Expr> {
    let used: u32 = fields.iter().map(Expr::width).sum();
    let mut v: Vec<Expr> = fields.iter().rev().cloned().collect();
    if used < w {
        v.insert(0, Expr::zero(w - used));
    }
    Expr::concat(&v)
}

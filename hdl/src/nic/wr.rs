//! `<prefix>_wr`: the write engine on the AXI4 write channels (docs/nic.md
//! §10): one single-beat write at a time for three clients in fixed
//! priority (error completion, send completion, received payload).

use super::{set, states, when, Block, NicDims};
use crate::verilog::{cat, num, Expr, Result, Stmt};

pub(crate) fn build(d: &NicDims) -> Result<Block> {
    let mut b = Block::new(format!("{}_wr", d.prefix))?;
    b.m.doc("Write engine (docs/nic.md §10): clients 0 (error completion), 1 (send completion),");
    b.m.doc("2 (received payload) in fixed priority; AW and W offered together, then B.");
    let (axw, bb) = (d.axw, d.bb);
    let c0_req = b.input("wr0_req_i", 1);
    let c0_addr = b.input("wr0_addr_i", 32);
    let c0_data = b.input("wr0_data_i", 32);
    let c0_done = b.output("wr0_done_o", 1);
    let c1_req = b.input("wr1_req_i", 1);
    let c1_data = b.input("wr1_data_i", NicDims::PEND_W);
    let c1_take = b.output("wr1_take_o", 1);
    let c2_req = b.input("wr2_req_i", 1);
    let c2_addr = b.input("wr2_addr_i", 32);
    let c2_data = b.input("wr2_data_i", axw);
    let c2_done = b.output("wr2_done_o", 1);
    let c2_err = b.output("wr2_err_o", 1);
    let awid_o = b.output("m_axi_awid_o", 1);
    let awaddr_o = b.output("m_axi_awaddr_o", 32);
    let awlen_o = b.output("m_axi_awlen_o", 8);
    let awsize_o = b.output("m_axi_awsize_o", 3);
    let awburst_o = b.output("m_axi_awburst_o", 2);
    let awvalid_o = b.output("m_axi_awvalid_o", 1);
    let awready = b.input("m_axi_awready_i", 1);
    let wdata_o = b.output("m_axi_wdata_o", axw);
    let wstrb_o = b.output("m_axi_wstrb_o", bb);
    let wlast_o = b.output("m_axi_wlast_o", 1);
    let wvalid_o = b.output("m_axi_wvalid_o", 1);
    let wready = b.input("m_axi_wready_i", 1);
    let bid = b.input("m_axi_bid_i", 1);
    let bresp = b.input("m_axi_bresp_i", 2);
    let bvalid = b.input("m_axi_bvalid_i", 1);
    let bready_o = b.output("m_axi_bready_o", 1);
    let ev_cpl = b.output("ev_tx_cpl_o", 1);
    let ev_done = b.output("ev_tx_done_o", 1);
    let ev_err = b.output("ev_tx_err_o", 1);
    let ev_wb_err = b.output("ev_wb_err_o", 1);
    let m = &mut b.m;
    m.raw_line("/* verilator lint_off UNUSED */ // bit 1 of a response tells an error");
    m.wire_of("bresp_lsb_unused", &bresp.at(0));
    m.wire_of("bid_unused", &bid);
    m.raw_line("/* verilator lint_on UNUSED */");
    let (sw, st) = states(m, &["WR_IDLE", "WR_SEND", "WR_RESP"]);
    let [idle, send, resp] = <[Expr; 3]>::try_from(st).expect("three states");
    let (st_q, st_d) = m.register("state", sw, &idle);
    let (cl_q, cl_d) = m.register("client", 2, &Expr::zero(2));
    let (aa_q, aa_d) = m.register("awaddr", 32, &Expr::zero(32));
    let (wd_q, wd_d) = m.register("wdata", axw, &Expr::zero(axw));
    let (ws_q, ws_d) = m.register("wstrb", bb, &Expr::zero(bb));
    let (code_q, code_d) = m.register("code", 4, &Expr::zero(4));
    let (awd_q, awd_d) = m.register("aw_done", 1, &Expr::zero(1));
    let (wdn_q, wdn_d) = m.register("w_done", 1, &Expr::zero(1));
    let is = |s: &Expr| st_q.e().eq(s);
    let aw_hs = m.wire_of("aw_hs", &(awvalid_o.e() & &awready.e()));
    let w_hs = m.wire_of("w_hs", &(wvalid_o.e() & &wready.e()));
    let b_hs = m.wire_of("b_hs", &(is(&resp)? & &bvalid.e()));
    let take1 = m.wire_of("take1", &((is(&idle)? & &c0_req.e().not()) & &c1_req.e()));
    // A status word sits in the beat's low 32 bits (desc*32 + 16 is 8-aligned).
    let status_beat = |word: Expr| -> Result<Expr> { if axw == 32 { Ok(word) } else { Expr::concat(&[Expr::zero(axw - 32), word]) } };
    let status_strb = num(bb, 0xF);
    let c1_word = cat(&[Expr::one_bit(true), Expr::zero(27), c1_data.bits(30, 27)]);
    let start = |stmts: Vec<Stmt>| -> Result<Vec<Stmt>> {
        let mut v = stmts;
        v.push(set(&st_d, &send));
        v.push(set(&awd_d, &Expr::zero(1)));
        v.push(set(&wdn_d, &Expr::zero(1)));
        Ok(v)
    };
    let arms = vec![
        (
            idle.clone(),
            vec![Stmt::when_else(
                &c0_req,
                start(vec![
                    set(&cl_d, &num(2, 0)),
                    set(&aa_d, &c0_addr),
                    set(&wd_d, &status_beat(c0_data.e())?),
                    set(&ws_d, &status_strb),
                    set(&code_d, &c0_data.bits(3, 0)),
                ])?,
                vec![Stmt::when_else(
                    &c1_req,
                    start(vec![
                        set(&cl_d, &num(2, 1)),
                        set(&aa_d, &cat(&[c1_data.bits(26, 0), num(5, 16)])),
                        set(&wd_d, &status_beat(c1_word)?),
                        set(&ws_d, &status_strb),
                        set(&code_d, &c1_data.bits(30, 27)),
                    ])?,
                    vec![when(
                        &c2_req,
                        start(vec![
                            set(&cl_d, &num(2, 2)),
                            set(&aa_d, &c2_addr),
                            set(&wd_d, &c2_data),
                            set(&ws_d, &Expr::ones(bb)),
                            set(&code_d, &Expr::zero(4)),
                        ])?,
                    )],
                )],
            )],
        ),
        (
            send.clone(),
            vec![
                set(&awd_d, &(awd_q.e() | &aw_hs.e())),
                set(&wdn_d, &(wdn_q.e() | &w_hs.e())),
                when(&(awd_d.e() & &wdn_d.e()), vec![set(&st_d, &resp)]),
            ],
        ),
        (resp.clone(), vec![when(&bvalid, vec![set(&st_d, &idle)])]),
    ];
    m.comb(vec![
        set(&st_d, &st_q),
        set(&cl_d, &cl_q),
        set(&aa_d, &aa_q),
        set(&wd_d, &wd_q),
        set(&ws_d, &ws_q),
        set(&code_d, &code_q),
        set(&awd_d, &awd_q),
        set(&wdn_d, &wdn_q),
        Stmt::case_of(&st_q, arms, vec![]),
    ]);
    m.assign(&awid_o, &Expr::zero(1));
    m.assign(&awaddr_o, &aa_q);
    m.assign(&awlen_o, &Expr::zero(8));
    m.assign(&awsize_o, &num(3, d.bbl() as u64));
    m.assign(&awburst_o, &num(2, 1));
    m.assign(&awvalid_o.lv(), &(is(&send)? & &awd_q.e().not()));
    m.assign(&wdata_o, &wd_q);
    m.assign(&wstrb_o, &ws_q);
    m.assign(&wlast_o, &Expr::one_bit(true));
    m.assign(&wvalid_o.lv(), &(is(&send)? & &wdn_q.e().not()));
    m.assign(&bready_o.lv(), &is(&resp)?);
    m.assign(&c1_take, &take1);
    m.assign(&c0_done.lv(), &(b_hs.e() & &cl_q.e().is(&num(2, 0))));
    m.assign(&c2_done.lv(), &(b_hs.e() & &cl_q.e().is(&num(2, 2))));
    m.assign(&c2_err, &bresp.at(1));
    let cpl = m.wire_of("cpl", &(b_hs.e() & &cl_q.e().is_not(&num(2, 2))));
    let berr = bresp.at(1);
    m.assign(&ev_cpl, &cpl);
    m.assign(&ev_wb_err.lv(), &(cpl.e() & &berr));
    m.assign(&ev_err.lv(), &(cpl.e() & &(&berr | &code_q.e().is_not(&Expr::zero(4)))));
    m.assign(&ev_done.lv(), &((cpl.e() & &berr.not()) & &code_q.e().is(&Expr::zero(4))));
    Ok(b)
}

//! `<prefix>_regs`: the AXI4-Lite slave and the register file (docs/nic.md §5, §12).

use super::{r, set, Block, NicDims};
use crate::bits::onehot_of;
use crate::verilog::{num, Expr, Result, Stmt};

/// Byte offsets of the registers (docs/nic.md §5.1).
pub(crate) const ID: u32 = 0x000;
pub(crate) const CONFIG: u32 = 0x004;
pub(crate) const NODE_ID: u32 = 0x008;
pub(crate) const CONTROL: u32 = 0x00C;
pub(crate) const STATUS: u32 = 0x010;
pub(crate) const IRQ_ENABLE: u32 = 0x014;
pub(crate) const IRQ_STATUS: u32 = 0x018;
pub(crate) const TX_COUNT: u32 = 0x01C;
pub(crate) const RX_POST_LEN: u32 = 0x020;
pub(crate) const RX_POST_ADDR: u32 = 0x024;
pub(crate) const RXC_INFO: u32 = 0x028;
pub(crate) const RXC_LEN: u32 = 0x02C;
pub(crate) const RXC_ADDR: u32 = 0x030;
pub(crate) const RXC_POP: u32 = 0x034;
/// `ID`: "NIC", version 1.
pub(crate) const ID_VALUE: u32 = 0x4E49_4301;

fn at(addr: &str, ofs: u32) -> Expr {
    r(format!("({addr} == 12'h{ofs:03x})"), 1)
}

pub(crate) fn build(d: &NicDims) -> Result<Block> {
    let mut b = Block::new(format!("{}_regs", d.prefix))?;
    b.m.doc("AXI4-Lite slave and register file of the NIC (docs/nic.md §5).");
    b.m.doc("Writes: address and data are taken together; reads return start-of-cycle values.");
    let awaddr = b.input("s_axil_awaddr_i", 12);
    let awvalid = b.input("s_axil_awvalid_i", 1);
    let awready = b.output("s_axil_awready_o", 1);
    let wdata = b.input("s_axil_wdata_i", 32);
    let wstrb = b.input("s_axil_wstrb_i", 4);
    let wvalid = b.input("s_axil_wvalid_i", 1);
    let wready = b.output("s_axil_wready_o", 1);
    let bresp_o = b.output("s_axil_bresp_o", 2);
    let bvalid_o = b.output("s_axil_bvalid_o", 1);
    let bready = b.input("s_axil_bready_i", 1);
    let araddr = b.input("s_axil_araddr_i", 12);
    let arvalid = b.input("s_axil_arvalid_i", 1);
    let arready = b.output("s_axil_arready_o", 1);
    let rdata_o = b.output("s_axil_rdata_o", 32);
    let rresp_o = b.output("s_axil_rresp_o", 2);
    let rvalid_o = b.output("s_axil_rvalid_o", 1);
    let rready = b.input("s_axil_rready_i", 1);
    let irq = b.output("irq_o", 1);
    let node_id_o = b.output("node_id_o", d.dw);
    let tx_en_o = b.output("tx_en_o", 1);
    let rx_en_o = b.output("rx_en_o", 1);
    let db_push = b.output("db_push_o", 1);
    let db_class = b.output("db_class_o", d.cw);
    let db_data = b.output("db_data_o", 32);
    let post_push = b.output("post_push_o", 1);
    let post_data = b.output("post_data_o", 64);
    let cq_pop = b.output("cq_pop_o", 1);
    let db_full = b.input("db_full_i", d.s);
    let post_full = b.input("post_full_i", 1);
    let rxc_info = b.input("rxc_info_i", 32);
    let rxc_len = b.input("rxc_len_i", 32);
    let rxc_addr = b.input("rxc_addr_i", 32);
    let tx_busy = b.input("tx_busy_i", 1);
    let rx_busy = b.input("rx_busy_i", 1);
    let db_pending = b.input("db_pending_i", 1);
    let ev_tx_done = b.input("ev_tx_done_i", 1);
    let ev_tx_err = b.input("ev_tx_err_i", 1);
    let ev_wb_err = b.input("ev_wb_err_i", 1);
    let ev_tx_cpl = b.input("ev_tx_cpl_i", 1);
    let ev_rx_done = b.input("ev_rx_done_i", 1);
    let ev_rx_err = b.input("ev_rx_err_i", 1);
    let ev_rx_drop = b.input("ev_rx_drop_i", 1);
    let m = &mut b.m;
    m.raw_line("/* verilator lint_off UNUSED */ // every write is a full-word write (docs/nic.md §3)");
    m.wire_of("wstrb_unused", &wstrb.e().red_or());
    m.raw_line("/* verilator lint_on UNUSED */");

    let (node_q, node_d) = m.register("node_id", d.dw, &Expr::zero(d.dw));
    let (ctrl_q, ctrl_d) = m.register("control", 2, &Expr::zero(2));
    let (sticky_q, sticky_d) = m.register("sticky", 4, &Expr::zero(4));
    let (ien_q, ien_d) = m.register("irq_enable", 5, &Expr::zero(5));
    let (ist_q, ist_d) = m.register("irq_status", 5, &Expr::zero(5));
    let (cnt_q, cnt_d) = m.register_wire_d("tx_count", &Expr::zero(32));
    let (plen_q, plen_d) = m.register("post_len", 32, &Expr::zero(32));
    let (bv_q, bv_d) = m.register("bvalid", 1, &Expr::zero(1));
    let (br_q, br_d) = m.register("bresp", 2, &Expr::zero(2));
    let (rv_q, rv_d) = m.register("rvalid", 1, &Expr::zero(1));
    let (rd_q, rd_d) = m.register("rdata", 32, &Expr::zero(32));
    let (rr_q, rr_d) = m.register("rresp", 2, &Expr::zero(2));

    // ---- write decode
    let wa = awaddr.name.as_str();
    let wr_hs = m.wire_of("wr_hs", &r(format!("({} & {} & ~{})", awvalid.name, wvalid.name, bv_q.name), 1));
    let a_db = |a: &str| r(format!("(({a}[11:8] == 4'h1) && ({a}[7:5] == 3'd0) && ({a}[1:0] == 2'd0) && ({a}[4:2] < 3'd{}))", d.s), 1);
    let w_db = m.wire_of("w_is_db", &a_db(wa));
    let w_cls = m.wire_of("w_class", &r(format!("{wa}[{}:2]", 1 + d.cw), d.cw));
    let full_sel = m.wire_of("db_full_sel", &(db_full.e() & &onehot_of(&w_cls.e(), d.s)).red_or());
    let regs_mapped = |a: &str| -> Result<Expr> {
        let list = [ID, CONFIG, NODE_ID, CONTROL, STATUS, IRQ_ENABLE, IRQ_STATUS, TX_COUNT, RX_POST_LEN, RX_POST_ADDR, RXC_INFO, RXC_LEN, RXC_ADDR, RXC_POP];
        let mut e = a_db(a);
        for ofs in list {
            e = e | &at(a, ofs);
        }
        Ok(e)
    };
    m.wire_of("w_mapped", &regs_mapped(wa)?);
    let db_rej = m.wire_of("db_reject", &((wr_hs.e() & &w_db.e()) & &full_sel.e()));
    let post_rej = m.wire_of("post_reject", &r(format!("(wr_hs & {} & {})", at(wa, RX_POST_ADDR).text(), post_full.name), 1));
    let wrote = |ofs: u32| r(format!("(wr_hs & {})", at(wa, ofs).text()), 1);
    m.assign(&awready, &wr_hs);
    m.assign(&wready, &wr_hs);
    m.assign(&db_push.lv(), &((wr_hs.e() & &w_db.e()) & &full_sel.e().not()));
    m.assign(&db_class, &w_cls);
    m.assign(&db_data, &wdata);
    m.assign(&post_push.lv(), &(wrote(RX_POST_ADDR) & &post_full.e().not()));
    let align = !((d.bb as u64) - 1) & 0xFFFF_FFFF;
    m.assign(&post_data, &r(format!("{{{}, ({} & 32'h{align:08x})}}", plen_q.name, wdata.name), 64));
    m.assign(&cq_pop, &wrote(RXC_POP));
    m.assign(&node_id_o, &node_q);
    m.assign(&tx_en_o, &ctrl_q.at(0));
    m.assign(&rx_en_o, &ctrl_q.at(1));

    // ---- events (set wins over a W1C clear in the same cycle)
    let sticky_set = r(format!("{{{}, {}, post_reject, db_reject}}", ev_rx_drop.name, ev_wb_err.name), 4);
    let irq_set = r(
        format!(
            "{{(db_reject | post_reject), ({} | {}), {}, {}, {}}}",
            ev_rx_err.name, ev_rx_drop.name, ev_rx_done.name, ev_tx_err.name, ev_tx_done.name
        ),
        5,
    );
    let wd = wdata.name.as_str();
    m.comb(vec![
        set(&node_d, &node_q),
        set(&ctrl_d, &ctrl_q),
        set(&sticky_d, &sticky_q),
        set(&ien_d, &ien_q),
        set(&ist_d, &ist_q),
        set(&plen_d, &plen_q),
        set(&bv_d, &bv_q),
        set(&br_d, &br_q),
        Stmt::when_else(
            &wr_hs,
            vec![
                set(&bv_d, &Expr::one_bit(true)),
                set(&br_d, &r("(~w_mapped ? 2'b11 : ((db_reject | post_reject) ? 2'b10 : 2'b00))", 2)),
                Stmt::when_else(&at(wa, NODE_ID), vec![set(&node_d, &r(format!("{wd}[{}:0]", d.dw - 1), d.dw))], vec![]),
                Stmt::when_else(&at(wa, CONTROL), vec![set(&ctrl_d, &r(format!("{wd}[1:0]"), 2))], vec![]),
                Stmt::when_else(&at(wa, STATUS), vec![set(&sticky_d, &r(format!("(sticky_q & ~{wd}[3:0])"), 4))], vec![]),
                Stmt::when_else(&at(wa, IRQ_ENABLE), vec![set(&ien_d, &r(format!("{wd}[4:0]"), 5))], vec![]),
                Stmt::when_else(&at(wa, IRQ_STATUS), vec![set(&ist_d, &r(format!("(irq_status_q & ~{wd}[4:0])"), 5))], vec![]),
                Stmt::when_else(&at(wa, RX_POST_LEN), vec![set(&plen_d, &wdata)], vec![]),
            ],
            vec![Stmt::when_else(&(bv_q.e() & &bready.e()), vec![set(&bv_d, &Expr::one_bit(false))], vec![])],
        ),
        set(&sticky_d, &(sticky_d.e() | &sticky_set)),
        set(&ist_d, &(ist_d.e() | &irq_set)),
    ]);
    m.assign(&cnt_d.lv(), &(cnt_q.e() + &ev_tx_cpl.e().zext_to(32)));

    // ---- reads
    let ra = araddr.name.as_str();
    let rd_hs = m.wire_of("rd_hs", &(arvalid.e() & &rv_q.e().not()));
    let config = (d.bb << 24) | (u32::from(d.qos) << 16) | (d.s << 8) | d.m;
    let arms = vec![
        (num(12, ID as u64), vec![set(&rd_d, &num(32, ID_VALUE as u64))]),
        (num(12, CONFIG as u64), vec![set(&rd_d, &num(32, config as u64))]),
        (num(12, NODE_ID as u64), vec![set(&rd_d, &node_q.zext_to(32))]),
        (num(12, CONTROL as u64), vec![set(&rd_d, &ctrl_q.zext_to(32))]),
        (
            num(12, STATUS as u64),
            vec![set(&rd_d, &r(format!("{{21'd0, {}, {}, {}, 4'd0, sticky_q}}", db_pending.name, rx_busy.name, tx_busy.name), 32))],
        ),
        (num(12, IRQ_ENABLE as u64), vec![set(&rd_d, &ien_q.zext_to(32))]),
        (num(12, IRQ_STATUS as u64), vec![set(&rd_d, &ist_q.zext_to(32))]),
        (num(12, TX_COUNT as u64), vec![set(&rd_d, &cnt_q)]),
        (num(12, RX_POST_LEN as u64), vec![set(&rd_d, &plen_q)]),
        (num(12, RXC_INFO as u64), vec![set(&rd_d, &rxc_info)]),
        (num(12, RXC_LEN as u64), vec![set(&rd_d, &rxc_len)]),
        (num(12, RXC_ADDR as u64), vec![set(&rd_d, &rxc_addr)]),
    ];
    m.comb(vec![
        set(&rv_d, &rv_q),
        set(&rd_d, &rd_q),
        set(&rr_d, &rr_q),
        Stmt::when_else(
            &rd_hs,
            vec![
                set(&rv_d, &Expr::one_bit(true)),
                set(&rr_d, &(regs_mapped(ra)?).then_else(&Expr::zero(2), &num(2, 3))),
                set(&rd_d, &Expr::zero(32)),
                Stmt::case_of(&araddr, arms, vec![]),
            ],
            vec![Stmt::when_else(&(rv_q.e() & &rready.e()), vec![set(&rv_d, &Expr::one_bit(false))], vec![])],
        ),
    ]);
    m.assign(&arready.lv(), &rv_q.e().not());
    m.assign(&bvalid_o, &bv_q);
    m.assign(&bresp_o, &br_q);
    m.assign(&rvalid_o, &rv_q);
    m.assign(&rdata_o, &rd_q);
    m.assign(&rresp_o, &rr_q);
    m.assign(&irq.lv(), &(ist_q.e() & &ien_q.e()).red_or());
    let _ = (db_rej, post_rej);
    Ok(b)
}

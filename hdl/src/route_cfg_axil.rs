//! `<name>_route_cfg_axil`: the AXI4-Lite slave that writes the routing
//! tables of a programmable network from a host (issue 21 item 3;
//! register map in docs/integration.md, "The route-table port of a system
//! top").
//!
//! A write of the data word `{VC mask[31:16], port[15:8], code[7:0]}` to
//! `ENTRY(r)` = 0x100 + 4r becomes one `cfg_*` write strobe of router r
//! (its `cfg_we_i`, with address `code`, port and VC mask on the shared
//! field outputs) in the cycle BVALID rises; RC sees the entry from the next
//! cycle. A write that names no router, a destination code, port or VC the
//! routers do not have, or not all four byte lanes, writes nothing and
//! answers SLVERR. AW and W are each held in a register until both are
//! there and no response is pending, so they may come in either order or
//! together, and B waits for BREADY.

use crate::verilog::{any_of, cat_lsb, hex, num, Expr, HdlError, Module, Result};

/// Byte offsets of the registers (docs/integration.md).
pub const ID: u32 = 0x000;
pub const INFO: u32 = 0x004;
pub const LAST: u32 = 0x008;
pub const LAST_ROUTER: u32 = 0x00C;
pub const WRITES: u32 = 0x010;
/// `ENTRY(r)` = `ENTRY_BASE + 4r`.
pub const ENTRY_BASE: u32 = 0x100;
/// "RTC", version 1.
pub const ID_VALUE: u32 = 0x5254_4301;
/// Most routers one port addresses (`ENTRY(63)` = 0x1FC).
pub const MAX_ROUTERS: u32 = 64;

/// The sizes of the tables the port writes: every router's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableDims {
    pub routers: u32,
    /// Destination code bits (2^DW entries per table).
    pub dest_width: u32,
    /// Output ports per router and the bits of a port number.
    pub ports: u32,
    pub port_width: u32,
    pub vcs: u32,
}

/// Name of the module for the system `name`.
pub fn route_cfg_name(name: &str) -> String {
    format!("{name}_route_cfg_axil")
}

/// The module (see the module documentation).
pub fn route_cfg_axil(name: &str, t: TableDims) -> Result<Module> {
    if !(1..=MAX_ROUTERS).contains(&t.routers) || t.dest_width > 8 || t.port_width > 8 || t.vcs > 16 || t.ports > 1 << t.port_width {
        return Err(HdlError::Invalid(format!(
            "route-table port: {t:?} (allowed: 1..={MAX_ROUTERS} routers, codes and ports of up to 8 bits, up to 16 VCs)"
        )));
    }
    let (r, dw, pw, m) = (t.routers, t.dest_width, t.port_width, t.vcs);
    let mut md = Module::new(route_cfg_name(name));
    md.doc("AXI4-Lite slave writing the routing tables of a programmable network (docs/integration.md).");
    md.doc("ENTRY(r) = 0x100 + 4r takes {VC mask[31:16], port[15:8], code[7:0]} for router r;");
    md.doc("cfg_we_o[r] pulses in the cycle BVALID rises. Bad router, code, port, mask or WSTRB: SLVERR.");
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let awaddr = md.input("s_axil_awaddr_i", 12);
    let awvalid = md.input("s_axil_awvalid_i", 1);
    let awready = md.output("s_axil_awready_o", 1);
    let wdata = md.input("s_axil_wdata_i", 32);
    let wstrb = md.input("s_axil_wstrb_i", 4);
    let wvalid = md.input("s_axil_wvalid_i", 1);
    let wready = md.output("s_axil_wready_o", 1);
    let bresp_o = md.output("s_axil_bresp_o", 2);
    let bvalid_o = md.output("s_axil_bvalid_o", 1);
    let bready = md.input("s_axil_bready_i", 1);
    let araddr = md.input("s_axil_araddr_i", 12);
    let arvalid = md.input("s_axil_arvalid_i", 1);
    let arready = md.output("s_axil_arready_o", 1);
    let rdata_o = md.output("s_axil_rdata_o", 32);
    let rresp_o = md.output("s_axil_rresp_o", 2);
    let rvalid_o = md.output("s_axil_rvalid_o", 1);
    let rready = md.input("s_axil_rready_i", 1);
    let we_o = md.output("cfg_we_o", r);
    let addr_o = md.output("cfg_addr_o", dw);
    let port_o = md.output("cfg_port_o", pw);
    let avc_o = md.output("cfg_avc_o", m);

    md.comment("Write address and write data, each held until the write is performed");
    let (aw_full, aw_full_d) = md.register_wire_d("aw_full", &Expr::zero(1));
    let (w_full, w_full_d) = md.register_wire_d("w_full", &Expr::zero(1));
    let (bvalid, bvalid_d) = md.register_wire_d("bvalid", &Expr::zero(1));
    md.assign(&awready, &aw_full.l_not());
    md.assign(&wready, &w_full.l_not());
    let aw_take = md.wire_of("aw_take", &awvalid.l_and(aw_full.l_not()));
    let w_take = md.wire_of("w_take", &wvalid.l_and(w_full.l_not()));
    let aw_addr = md.register_load("aw_addr", &Expr::zero(12), &aw_take, &awaddr);
    let w_data = md.register_load("w_data", &Expr::zero(32), &w_take, &wdata);
    let w_strb = md.register_load("w_strb", &Expr::zero(4), &w_take, &wstrb);
    let fire = md.wire_of("fire", &aw_full.l_and(&w_full).l_and(bvalid.l_not()));
    md.assign(&aw_full_d, &aw_full.then_else(fire.l_not(), &awvalid));
    md.assign(&w_full_d, &w_full.then_else(fire.l_not(), &wvalid));

    md.comment("Decode: ENTRY(r), a code below 2^DW, a port below N, a mask of the M VCs, all lanes");
    let router = md.wire_of("router", &aw_addr.field(2, 6));
    let is_entry = aw_addr.field(8, 4).is(num(4, 1)).l_and(aw_addr.field(0, 2).is(num(2, 0)));
    let router_ok = md.wire_of("router_ok", &is_entry.l_and(router.zext_to(7).below(num(7, r as u64))));
    let code_ok = if dw < 8 { w_data.field(dw, 8 - dw).is(num(8 - dw, 0)) } else { num(1, 1) };
    let port_ok = if t.ports < 256 { w_data.field(8, 8).below(num(8, t.ports as u64)) } else { num(1, 1) };
    let mask_ok = if m < 16 { w_data.field(16 + m, 16 - m).is(num(16 - m, 0)) } else { num(1, 1) };
    let ok = router_ok.l_and(code_ok).l_and(port_ok).l_and(mask_ok).l_and(w_strb.is(num(4, 15)));
    let ok = md.wire_of("entry_ok", &ok);

    md.comment("Response: OKAY or SLVERR from the cycle after both halves are held until BREADY");
    md.assign(&bvalid_d, &fire.l_or(bvalid.l_and(bready.l_not())));
    let bresp = md.register_load("bresp", &Expr::zero(2), &fire, &ok.then_else(num(2, 0), num(2, 2)));
    md.assign(&bvalid_o, &bvalid);
    md.assign(&bresp_o, &bresp);

    md.comment("Table write strobe of router `router`, and the entry on the shared fields");
    let write = md.wire_of("write", &fire.l_and(&ok));
    let strobes: Vec<Expr> = (0..r).map(|k| write.l_and(router.is(num(6, k as u64)))).collect();
    let we = md.register_next("cfg_we", &Expr::zero(r), &cat_lsb(&strobes));
    let addr = md.register_load("cfg_addr", &Expr::zero(dw), &write, &w_data.field(0, dw));
    let port = md.register_load("cfg_port", &Expr::zero(pw), &write, &w_data.field(8, pw));
    let avc = md.register_load("cfg_avc", &Expr::zero(m), &write, &w_data.field(16, m));
    md.assign(&we_o, &we);
    md.assign(&addr_o, &addr);
    md.assign(&port_o, &port);
    md.assign(&avc_o, &avc);

    md.comment("Read-back registers: the last written entry, its router, the count of written entries");
    let last = md.register_load("last", &Expr::zero(32), &write, &w_data);
    let last_router = md.register_load("last_router", &Expr::zero(6), &write, &router);
    let (writes, writes_d) = md.register_wire_d("writes", &Expr::zero(16));
    md.assign(&writes_d, write.then_else(&writes + num(16, 1), &writes));
    let info = (m << 24) | (pw << 16) | (dw << 8) | r;
    let at = |ofs: u32| araddr.is(num(12, ofs as u64));
    let known = md.wire_of("ar_known", &any_of(&[at(ID), at(INFO), at(LAST), at(LAST_ROUTER), at(WRITES)]));
    let value = any_of(&[
        at(ID).rep(32) & hex(32, ID_VALUE as u64),
        at(INFO).rep(32) & hex(32, info as u64),
        at(LAST).rep(32) & last,
        at(LAST_ROUTER).rep(32) & last_router.zext_to(32),
        at(WRITES).rep(32) & writes.zext_to(32),
    ]);
    let (rvalid, rvalid_d) = md.register_wire_d("rvalid", &Expr::zero(1));
    md.assign(&arready, &rvalid.l_not());
    let ar_take = md.wire_of("ar_take", &arvalid.l_and(rvalid.l_not()));
    md.assign(&rvalid_d, &ar_take.l_or(rvalid.l_and(rready.l_not())));
    let rdata = md.register_load("rdata", &Expr::zero(32), &ar_take, &value);
    let rresp = md.register_load("rresp", &Expr::zero(2), &ar_take, &known.then_else(num(2, 0), num(2, 2)));
    md.assign(&rvalid_o, &rvalid);
    md.assign(&rdata_o, &rdata);
    md.assign(&rresp_o, &rresp);

    md.assert_always((&we & (&we - num(r, 1))).is(num(r, 0)), "two table write strobes at once");
    md.assert_always(&we.any().l_not().l_or(&bvalid), "a table write strobe without its write response");
    md.assert_always(&bresp.at(0).l_not(), "a write response other than OKAY or SLVERR");
    md.finish()
}

//! `<prefix>`: the NIC's top (docs/nic.md §3): one instance per block,
//! wired by name, and the AXI protocol checks of §14.
//!
//! Wiring rule: a block port whose name starts with one of [`EXTERNAL`] is
//! a port of the top with the same name; any other `x_o` drives the top's
//! wire `x`, which feeds every block input `x_i`.

use super::{doorbells, inject, regs, rx, tx, wr, Block, Lib, NicDims};
use crate::verilog::{cat, Dir, Expr, HdlError, Module, Result, Sig};
use std::collections::BTreeMap;

const EXTERNAL: &[&str] = &["s_axil_", "m_axi_", "inj_", "ej_", "irq_"];

fn is_external(name: &str) -> bool {
    EXTERNAL.iter().any(|p| name.starts_with(p))
}

fn internal(name: &str) -> &str {
    name.strip_suffix("_i").or_else(|| name.strip_suffix("_o")).unwrap_or(name)
}

/// Every module of the NIC, leaf modules first, the top last.
pub(crate) fn build(d: &NicDims) -> Result<Vec<Module>> {
    let mut lib = Lib::default();
    let blocks: Vec<(&str, Block)> = vec![
        ("u_regs", regs::build(d)?),
        ("u_doorbells", doorbells::build(d)?),
        ("u_tx", tx::build(d)?),
        ("u_inject", inject::build(d, &mut lib)?),
        ("u_wr", wr::build(d)?),
        ("u_rx", rx::build(d, &mut lib)?),
    ];
    let mut top = Module::new(d.prefix.clone());
    top.doc(format!("The {} NIC (docs/nic.md): AXI4-Lite registers and doorbells, AXI4 DMA,", if d.qos { "QoS" } else { "traditional" }));
    top.doc("injection link to a router input port, ejection link from a router output port.");
    top.input("clk_i", 1);
    top.input("rst_i", 1);
    let mut ext: BTreeMap<String, Sig> = BTreeMap::new();
    let mut wires: BTreeMap<String, Sig> = BTreeMap::new();
    for (_, b) in &blocks {
        for (name, w, dir) in &b.ports {
            if is_external(name) {
                let s = if *dir == Dir::Input { top.input(name, *w) } else { top.output(name, *w) };
                ext.insert(name.clone(), s);
            } else if *dir == Dir::Output {
                wires.insert(internal(name).to_string(), top.wire(internal(name), *w));
            }
        }
    }
    for (inst, b) in &blocks {
        let mut conns: Vec<(&str, Expr)> = vec![crate::bits::clk(), crate::bits::rst()];
        for (name, _, _) in &b.ports {
            let sig = if is_external(name) { ext.get(name) } else { wires.get(internal(name)) };
            let sig = sig.ok_or_else(|| HdlError::Invalid(format!("NIC wiring: nothing drives `{}` of {inst}", internal(name))))?;
            conns.push((name.as_str(), sig.e()));
        }
        top.instance(&b.m, inst, &conns);
    }
    axi_checks(&mut top, &ext)?;
    let mut out = lib.mods;
    out.extend(blocks.into_iter().map(|(_, b)| b.m));
    out.push(top);
    Ok(out)
}

/// VALID, once high, stays high until READY, and the payload is stable
/// meanwhile (docs/nic.md §14), on every channel the NIC drives.
fn axi_checks(top: &mut Module, ext: &BTreeMap<String, Sig>) -> Result<()> {
    let chans: [(&str, &str, &str, &[&str]); 5] = [
        ("ar", "m_axi_arvalid_o", "m_axi_arready_i", &["m_axi_araddr_o", "m_axi_arlen_o"]),
        ("aw", "m_axi_awvalid_o", "m_axi_awready_i", &["m_axi_awaddr_o", "m_axi_awlen_o"]),
        ("w", "m_axi_wvalid_o", "m_axi_wready_i", &["m_axi_wdata_o", "m_axi_wstrb_o", "m_axi_wlast_o"]),
        ("lb", "s_axil_bvalid_o", "s_axil_bready_i", &["s_axil_bresp_o"]),
        ("lr", "s_axil_rvalid_o", "s_axil_rready_i", &["s_axil_rdata_o", "s_axil_rresp_o"]),
    ];
    top.comment("AXI protocol checks: the registers below feed only the simulation checks");
    for (tag, valid, ready, payload) in chans {
        let (v, rd) = (&ext[valid], &ext[ready]);
        let pay = cat(&payload.iter().map(|p| ext[*p].e()).collect::<Vec<_>>());
        let stall = top.register_next(&format!("chk_{tag}_stall"), &Expr::zero(1), &(v.e() & &rd.e().not()));
        let prev = top.register_next(&format!("chk_{tag}_payload"), &Expr::zero(pay.width()), &pay);
        top.assert_always(&(stall.e().not() | &v.e()), &format!("{valid} held until {ready}"));
        top.assert_always(&(stall.e().not() | &pay.is(&prev.e())), &format!("{tag} payload stable while stalled"));
    }
    Ok(())
}

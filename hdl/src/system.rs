//! `<name>_system`: one router and one NIC per router port as one top
//! (issue 20 item 3, docs/nic.md §16).
//!
//! NIC k's injection link drives the router's input port k and the
//! router's output port k drives NIC k's ejection link, with the credits
//! of both directions (docs/nic.md §1). Every NIC's host side (AXI4-Lite
//! slave, AXI4 master, interrupt) is a port of the top with its NIC name
//! prefixed by `p<k>_` (`p0_s_axil_awaddr_i`, `p3_irq_o`, ...). Router and
//! NICs are the ones `generate` and `generate_nic` write for the same
//! configuration; this module only wires them.

use crate::network::{generate_network_with_top, NetworkDesign, NetworkError, NetworkGenError, NetworkMutant};
use crate::nic::{generate_nic_with_top, NicFault};
use crate::route_cfg_axil::{route_cfg_axil, TableDims};
use crate::verilog::{cat_lsb, Dir, Expr, HdlError, Module, Result, Sig};
use crate::GeneratedFile;
use wormqos_config::{RouterConfig, RouterMode};

/// Name of the system's top module.
pub fn system_top_name(cfg: &RouterConfig) -> String {
    format!("{}_system", cfg.name())
}

/// Prefix of NIC k's host ports on the system top.
pub fn host_port_prefix(k: usize) -> String {
    format!("p{k}_")
}

/// The NIC ports that become ports of the system top (the host side).
fn is_host_port(name: &str) -> bool {
    ["s_axil_", "m_axi_", "irq_"].iter().any(|p| name.starts_with(p))
}

/// The system's Verilog: the router's files, the NIC's (with `fault`
/// planted in every NIC, if any), then `<name>_system.v`.
pub fn generate_system(cfg: &RouterConfig, fault: Option<NicFault>) -> Result<Vec<GeneratedFile>> {
    if cfg.nic().is_none() {
        return Err(HdlError::Invalid(format!("configuration `{}` has no [nic] section: a system top needs one", cfg.name())));
    }
    let (files, router) = crate::generate_with_top(cfg, None)?;
    let about = "// Specification: docs/microarchitecture.md (router), docs/nic.md (NIC, system top §16)\n".to_string();
    let table = cfg.programmable().then(|| table_dims(cfg, 1));
    with_nics(cfg, files, &router, "u_router", table, fault, about)
}

/// The tables of `routers` routers like `router`, for the route-table port.
fn table_dims(router: &RouterConfig, routers: u32) -> TableDims {
    TableDims {
        routers,
        dest_width: router.header().dest.width,
        ports: router.ports() as u32,
        port_width: wormqos_config::index_width(router.ports() as u32),
        vcs: router.vcs() as u32,
    }
}

/// A whole network with a NIC at every endpoint as one top,
/// `<nic_cfg name>_system` (docs/integration.md, "A whole network with a
/// NIC at every endpoint"): the network top of [`generate_network_with_top`]
/// (`u_network`, with `mutant` planted if any) is the fabric, endpoint k
/// takes NIC k, whose host ports are `p<k>_*` as in [`generate_system`].
/// `nic_cfg` describes the network seen from its endpoints (one switch
/// with a port per endpoint, the routers' VCs, widths, mode, header and
/// buffer depths) with the `[nic]` section of every NIC. Validates first.
pub fn generate_network_system(
    net: &NetworkDesign,
    nic_cfg: &RouterConfig,
    mutant: Option<NetworkMutant>,
    fault: Option<NicFault>,
) -> std::result::Result<Vec<GeneratedFile>, NetworkGenError> {
    net.validate()?;
    check_endpoint_nics(net, nic_cfg)?;
    let (files, network) = generate_network_with_top(net, mutant)?;
    let about = format!(
        "// Specification: docs/integration.md (network with NICs), docs/nic.md (NIC)\n// Fabric: `{}` ({} routers); NIC k on endpoint k.\n",
        network.name(),
        net.routers.len()
    );
    let r0 = &net.routers[0];
    let table = r0.programmable().then(|| table_dims(r0, net.routers.len() as u32));
    Ok(with_nics(nic_cfg, files, &network, "u_network", table, fault, about)?)
}

/// The NIC must see at its link what the endpoint's router offers:
/// a port per endpoint, the same VCs, flit, mode, header layout, injection
/// credits (the routers' input depth) and receive credits (their
/// downstream depth).
fn check_endpoint_nics(net: &NetworkDesign, nic_cfg: &RouterConfig) -> std::result::Result<(), NetworkError> {
    let r0 = &net.routers[0];
    let bad = |field: &str, value: String, allowed: String| NetworkError { field: field.into(), value, allowed };
    if nic_cfg.nic().is_none() {
        return Err(bad("nic", "none".into(), "a [nic] section for the NICs at the endpoints".into()));
    }
    let e = net.endpoint_at.len();
    let same = nic_cfg.ports() == e
        && nic_cfg.vcs() == r0.vcs()
        && nic_cfg.flit_width() == r0.flit_width()
        && nic_cfg.mode() == r0.mode()
        && nic_cfg.header() == r0.header()
        && nic_cfg.input_buffer_depth() == r0.input_buffer_depth()
        && nic_cfg.downstream_buffer_depth() == r0.downstream_buffer_depth();
    if !same {
        return Err(bad(
            "nic endpoint configuration",
            nic_cfg.name().to_string(),
            format!("{e} ports and the vcs, flit_width, mode, header layout and buffer depths of the network's routers"),
        ));
    }
    Ok(())
}

/// `fabric` (a router top or a network top: the port list of
/// docs/microarchitecture.md §3 over `cfg.ports()` ports, instance
/// `fabric_instance`) with one NIC of `cfg` on every port, as
/// `<cfg name>_system`: the fabric's files, the NIC's, then the top.
fn with_nics(
    cfg: &RouterConfig,
    mut files: Vec<GeneratedFile>,
    fabric: &Module,
    fabric_instance: &str,
    table: Option<TableDims>,
    fault: Option<NicFault>,
    about: String,
) -> Result<Vec<GeneratedFile>> {
    let (nic_files, nic) = generate_nic_with_top(cfg, fault)?;
    for f in nic_files {
        match files.iter().find(|g| g.file_name == f.file_name) {
            None => files.push(f),
            Some(g) if g.text == f.text => {}
            Some(_) => return Err(HdlError::Invalid(format!("{}: fabric and NIC both generate a different module of this name", f.file_name))),
        }
    }
    let table_port = match table {
        Some(d) => {
            let m = route_cfg_axil(cfg.name(), d)?;
            let header = format!("// Generated by {}. Do not edit.\n// Specification: docs/integration.md\n", crate::GENERATOR);
            files.push(crate::top_file(header, &m)?);
            Some((m, d))
        }
        None => None,
    };
    let top = system_top(cfg, fabric, fabric_instance, &nic, table_port.as_ref())?;
    let mut text = format!("// Generated by {}. Do not edit.\n", crate::GENERATOR);
    text.push_str(&about);
    if let Some(f) = fault {
        text.push_str(&format!("// FAULT: {} in every NIC (planted bug for testbench validation)\n", f.name()));
    }
    text.push_str(&format!("// System `{}`: `{}` and one `{}` per port; NIC k's host ports are `p<k>_*`.\n", cfg.name(), fabric.name(), nic.name()));
    files.push(crate::top_file(text, &top)?);
    Ok(files)
}

/// The link fields in the order of the router's port names (`in_<f>_i`,
/// `out_<f>_o`) and the NIC's (`inj_<f>_o`, `ej_<f>_i`), with their width
/// per port; `dummy` in P mode only, `lane` with per-lane credits only.
fn link_fields(cfg: &RouterConfig) -> Vec<(&'static str, u32)> {
    let mut f = vec![("valid", 1), ("vc", cfg.vc_width()), ("head", 1), ("tail", 1), ("data", cfg.flit_width())];
    if cfg.mode() == RouterMode::Preemptive {
        f.push(("dummy", 1));
    }
    if let Some(lw) = credit_lane_width(cfg) {
        f.push(("lane", lw));
    }
    f
}

/// LW of a credit's lane field (docs/nic.md §16) with per-lane credits.
fn credit_lane_width(cfg: &RouterConfig) -> Option<u32> {
    cfg.per_lane_credits().then(|| crate::verilog::clog2(cfg.extra_lanes() as u64 + 1))
}

fn system_top(
    cfg: &RouterConfig,
    router: &Module,
    router_instance: &str,
    nic: &Module,
    table_port: Option<&(Module, TableDims)>,
) -> Result<Module> {
    let n = cfg.ports();
    let m = cfg.vcs() as u32;
    let mut t = Module::new(system_top_name(cfg));
    let what = if router_instance == "u_router" { "Router" } else { "Network" };
    t.doc(format!("{what} `{}` with one NIC `{}` on each of its {n} ports (docs/nic.md §16).", router.name(), nic.name()));
    t.doc("NIC k's host ports (AXI4-Lite slave, AXI4 master, interrupt) are p<k>_<NIC port name>.");
    t.input("clk_i", 1);
    t.input("rst_i", 1);
    let table_conns = match table_port {
        Some((m, d)) => Some(route_table_port(&mut t, m, *d)?),
        None => None,
    };
    let fields = link_fields(cfg);
    // Per NIC: its injection flit and receive credits (wires the NIC drives).
    let mut inj: Vec<Vec<Sig>> = Vec::with_capacity(n);
    let mut ej_credit: Vec<Sig> = Vec::with_capacity(n);
    let mut host: Vec<Vec<(String, Sig)>> = Vec::with_capacity(n);
    for k in 0..n {
        let pre = host_port_prefix(k);
        let mut ports = Vec::new();
        for (name, w, dir) in nic.port_list() {
            if is_host_port(&name) {
                let full = format!("{pre}{name}");
                let s = if dir == Dir::Input { t.input(&full, w) } else { t.output(&full, w) };
                ports.push((name, s));
            }
        }
        host.push(ports);
    }
    for k in 0..n {
        inj.push(fields.iter().map(|(f, w)| t.wire(&format!("n{k}_inj_{f}"), *w)).collect::<Vec<_>>());
        ej_credit.push(t.wire(&format!("n{k}_ej_credit"), m));
    }
    // Per-lane credits: each credit's lane beside it, both ways (docs/nic.md §16).
    let lane_credit = credit_lane_width(cfg).map(|lw| {
        let ej: Vec<Sig> = (0..n).map(|k| t.wire(&format!("n{k}_ej_credit_lane"), m * lw)).collect();
        let r_in = t.wire("r_in_credit_lane", m * lw * n as u32);
        let r_out = t.wire("r_out_credit_lane", m * lw * n as u32);
        t.assign(&r_out, &cat_lsb(&ej.iter().map(Sig::e).collect::<Vec<_>>()));
        (lw, ej, r_in, r_out)
    });
    // The router's buses (field of width F of port k at [k*F +: F]).
    let r_in: Vec<Sig> = fields.iter().map(|(f, w)| t.wire(&format!("r_in_{f}"), *w * n as u32)).collect();
    let r_out: Vec<Sig> = fields.iter().map(|(f, w)| t.wire(&format!("r_out_{f}"), *w * n as u32)).collect();
    let r_in_credit = t.wire("r_in_credit", m * n as u32);
    let r_out_credit = t.wire("r_out_credit", m * n as u32);

    t.comment("NIC k's injection link is the router's input port k; its receive credits the router's output credits");
    for (i, s) in r_in.iter().enumerate() {
        t.assign(&s.lv(), &cat_lsb(&inj.iter().map(|f| f[i].e()).collect::<Vec<_>>()));
    }
    t.assign(&r_out_credit, &cat_lsb(&ej_credit.iter().map(Sig::e).collect::<Vec<_>>()));

    let mut conns: Vec<(String, Expr)> = vec![("clk_i".into(), Expr::raw("clk_i", 1)), ("rst_i".into(), Expr::raw("rst_i", 1))];
    for (i, (f, _)) in fields.iter().enumerate() {
        conns.push((format!("in_{f}_i"), r_in[i].e()));
        conns.push((format!("out_{f}_o"), r_out[i].e()));
    }
    conns.push(("in_credit_o".into(), r_in_credit.e()));
    conns.push(("out_credit_i".into(), r_out_credit.e()));
    if let Some((_, _, r_in, r_out)) = &lane_credit {
        conns.push(("in_credit_lane_o".into(), r_in.e()));
        conns.push(("out_credit_lane_i".into(), r_out.e()));
    }
    conns.extend(table_conns.into_iter().flatten());
    let refs: Vec<(&str, Expr)> = conns.iter().map(|(a, b)| (a.as_str(), b.clone())).collect();
    t.instance(router, router_instance, &refs);

    for k in 0..n {
        t.comment(format!("NIC {k} on router port {k}"));
        let mut conns: Vec<(String, Expr)> = vec![("clk_i".into(), Expr::raw("clk_i", 1)), ("rst_i".into(), Expr::raw("rst_i", 1))];
        for (i, (f, w)) in fields.iter().enumerate() {
            conns.push((format!("inj_{f}_o"), inj[k][i].e()));
            conns.push((format!("ej_{f}_i"), r_out[i].field(k as u32 * w, *w)));
        }
        conns.push(("inj_credit_i".into(), r_in_credit.field(k as u32 * m, m)));
        conns.push(("ej_credit_o".into(), ej_credit[k].e()));
        if let Some((lw, ej, r_in, _)) = &lane_credit {
            conns.push(("inj_credit_lane_i".into(), r_in.field(k as u32 * m * lw, m * lw)));
            conns.push(("ej_credit_lane_o".into(), ej[k].e()));
        }
        for (name, s) in &host[k] {
            conns.push((name.clone(), s.e()));
        }
        let refs: Vec<(&str, Expr)> = conns.iter().map(|(a, b)| (a.as_str(), b.clone())).collect();
        t.instance(nic, &format!("u_nic{k}"), &refs);
    }
    Ok(t)
}

/// The system's route-table port (docs/integration.md): the top's ports
/// `cfg_s_axil_*` drive `u_route_cfg` (`port`), whose write strobes go to
/// the fabric's `cfg_we_i` and whose entry fields go to every router's
/// fields of `cfg_addr_i`, `cfg_port_i`, `cfg_avc_i`. Returns the fabric's
/// connections.
fn route_table_port(t: &mut Module, port: &Module, d: TableDims) -> Result<Vec<(String, Expr)>> {
    t.doc("cfg_s_axil_*: AXI4-Lite slave writing the routers' tables (docs/integration.md).");
    let mut conns: Vec<(String, Expr)> = vec![("clk_i".into(), Expr::raw("clk_i", 1)), ("rst_i".into(), Expr::raw("rst_i", 1))];
    let mut fields = Vec::new();
    for (name, w, dir) in port.port_list() {
        if let Some(bus) = name.strip_prefix("s_axil_") {
            let full = format!("cfg_s_axil_{bus}");
            let s = if dir == Dir::Input { t.input(&full, w) } else { t.output(&full, w) };
            conns.push((name, s.e()));
        } else if let Some(field) = name.strip_prefix("cfg_").and_then(|f| f.strip_suffix("_o")).map(str::to_string) {
            let s = t.wire(&format!("table_{field}"), w);
            conns.push((name, s.e()));
            fields.push((field, s));
        }
    }
    t.comment("Route-table port: one strobe per router, the entry fields shared by all routers");
    let refs: Vec<(&str, Expr)> = conns.iter().map(|(a, b)| (a.as_str(), b.clone())).collect();
    t.instance(port, "u_route_cfg", &refs);
    Ok(fields
        .into_iter()
        .map(|(f, s)| {
            let e = if f == "we" { s.e() } else { Expr::repl(d.routers, &s.e()).unwrap_or_else(Expr::failed) };
            (format!("cfg_{f}_i"), e)
        })
        .collect())
}

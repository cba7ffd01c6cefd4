//! `<name>_network`: a whole network of generated routers as one top module.
//!
//! Every router is generated from its own configuration (its own routing
//! table, its own module prefix), and the top instantiates them, wires
//! router-to-router links, optionally through `link_latency` pipeline
//! registers per direction (flits forward, credits backward), and brings
//! out the endpoint ports with the names and layout of a router top
//! (docs/microarchitecture.md §3), indexed by endpoint instead of port: to
//! the outside the network is one E-port switch (docs/integration.md,
//! "A whole network").
//!
//! The wiring comes from the caller (the network simulator's topology), so
//! this module knows nothing about meshes or tori; it checks that the
//! description is consistent before generating anything.

use crate::verilog::cat_lsb;

/// LSB-first concatenation (a width slip is reported where the result is used).
fn cat_lsb_first(parts: &[Expr]) -> Result<Expr> {
    Ok(cat_lsb(parts))
}
use crate::verilog::{Expr, HdlError, Module, Result, Sig};
use crate::GeneratedFile;
use wormqos_config::{RouterConfig, RouterMode};

/// Most pipeline registers per link direction.
pub const MAX_LINK_LATENCY: u32 = 16;

/// What one router port is attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attach {
    Unused,
    /// Endpoint e of the network (top-level port e).
    Endpoint(usize),
    /// The other end of a router-to-router link: (router, its port).
    Router { router: usize, port: usize },
}

/// A planted bug in the network top, for showing that the whole-network
/// lockstep catches wiring errors (never for use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkMutant {
    /// The flit inputs of the first two router-to-router input ports of the
    /// first router that has two are swapped.
    SwapLinks,
    /// The first router-to-router link's flits skip one of its pipeline
    /// registers (needs `link_latency >= 1`).
    DropLinkRegister,
}

/// A network to generate: routers, their wiring, endpoints.
#[derive(Clone, Debug)]
pub struct NetworkDesign {
    /// Prefix of the top module: `<name>_network`.
    pub name: String,
    /// One configuration per router, each with its own `name` (module prefix).
    pub routers: Vec<RouterConfig>,
    /// `in_link[r][p]`: what drives input port p of router r.
    pub in_link: Vec<Vec<Attach>>,
    /// `out_link[r][o]`: what output port o of router r drives.
    pub out_link: Vec<Vec<Attach>>,
    /// Endpoint e sits on (router, port).
    pub endpoint_at: Vec<(usize, usize)>,
    /// Pipeline registers on every router-to-router link, each direction
    /// (0 = a router's output register drives its neighbour's input directly).
    pub link_latency: u32,
}

/// A network description that cannot be generated: what is wrong, where,
/// and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} = {value}: {allowed}")]
pub struct NetworkError {
    pub field: String,
    pub value: String,
    pub allowed: String,
}

fn bad(field: impl Into<String>, value: impl ToString, allowed: impl Into<String>) -> NetworkError {
    NetworkError { field: field.into(), value: value.to_string(), allowed: allowed.into() }
}

/// Name of the network's top module.
pub fn network_top_name(name: &str) -> String {
    format!("{name}_network")
}

impl NetworkDesign {
    /// Checks sizes, the consistency of the wiring, and that every routing
    /// table entry (with its group of parallel links) leaves on a wired port.
    pub fn validate(&self) -> std::result::Result<(), NetworkError> {
        if self.link_latency > MAX_LINK_LATENCY {
            return Err(bad("link_latency", self.link_latency, format!("allowed range 0..={MAX_LINK_LATENCY}")));
        }
        let Some(first) = self.routers.first() else {
            return Err(bad("routers", 0, "at least one router"));
        };
        let n = self.routers.len();
        if self.in_link.len() != n || self.out_link.len() != n {
            return Err(bad("links", format!("{} / {} routers", self.in_link.len(), self.out_link.len()), format!("one list per router ({n})")));
        }
        let e = self.endpoint_at.len();
        if !(2..=32).contains(&e) {
            return Err(bad("endpoints", e, "allowed range 2..=32 (the top's buses are indexed by endpoint as a router's by port)"));
        }
        for (r, c) in self.routers.iter().enumerate() {
            let same = c.vcs() == first.vcs()
                && c.flit_width() == first.flit_width()
                && c.mode() == first.mode()
                && c.input_buffer_depth() == first.input_buffer_depth()
                && c.downstream_buffer_depth() == first.downstream_buffer_depth()
                && c.programmable() == first.programmable()
                && (!c.programmable() || c.ports() == first.ports())
                && c.endpoints() == e;
            if !same {
                return Err(bad(
                    format!("routers[{r}]"),
                    c.name(),
                    format!("every router needs the vcs, flit_width, mode, buffer depths and routing (programmable: also ports) of router 0 and a table over all {e} endpoints"),
                ));
            }
            if self.in_link[r].len() != c.ports() || self.out_link[r].len() != c.ports() {
                return Err(bad(format!("routers[{r}].ports"), c.ports(), "one link entry per port"));
            }
        }
        let peer_ok = |router: usize, port: usize| router < n && port < self.routers[router].ports();
        for r in 0..n {
            for p in 0..self.routers[r].ports() {
                if let Attach::Router { router, port } = self.in_link[r][p] {
                    if !peer_ok(router, port) || self.out_link[router][port] != (Attach::Router { router: r, port: p }) {
                        return Err(bad(format!("in_link[{r}][{p}]"), format!("router {router} port {port}"), "the output port that drives it, with out_link naming this input"));
                    }
                }
                if let Attach::Router { router, port } = self.out_link[r][p] {
                    if !peer_ok(router, port) || self.in_link[router][port] != (Attach::Router { router: r, port: p }) {
                        return Err(bad(format!("out_link[{r}][{p}]"), format!("router {router} port {port}"), "the input port it drives, with in_link naming this output"));
                    }
                }
            }
        }
        for (ep, &(r, p)) in self.endpoint_at.iter().enumerate() {
            let here = Attach::Endpoint(ep);
            if r >= n || p >= self.routers[r].ports() || self.in_link[r][p] != here || self.out_link[r][p] != here {
                return Err(bad(format!("endpoint_at[{ep}]"), format!("router {r} port {p}"), "a router port whose input and output links are this endpoint"));
            }
        }
        for (r, c) in self.routers.iter().enumerate() {
            for d in 0..e as u64 {
                let (o, g) = (c.route(d), c.route_links(d));
                for q in o..o + g {
                    if q >= c.ports() || self.out_link[r][q] == Attach::Unused {
                        return Err(bad(
                            format!("routers[{r}] ({}) topology.routes[{d}]", c.name()),
                            format!("port {q}"),
                            "a port with a link (the route leads to a missing link)",
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The network's Verilog: every router's files (leaf modules first, each
/// router's top last), then `<name>_network.v`. Validates first.
pub fn generate_network(net: &NetworkDesign, mutant: Option<NetworkMutant>) -> std::result::Result<Vec<GeneratedFile>, NetworkGenError> {
    generate_network_with_top(net, mutant).map(|(files, _)| files)
}

/// [`generate_network`], plus the network's top module (for instantiating
/// it, as the system top with a NIC per endpoint does, `crate::system`).
pub(crate) fn generate_network_with_top(
    net: &NetworkDesign,
    mutant: Option<NetworkMutant>,
) -> std::result::Result<(Vec<GeneratedFile>, Module), NetworkGenError> {
    net.validate()?;
    if mutant == Some(NetworkMutant::DropLinkRegister) && net.link_latency == 0 {
        return Err(bad("mutant", "drop-link-register", "needs link_latency >= 1").into());
    }
    let mut files: Vec<GeneratedFile> = Vec::new();
    let mut tops = Vec::with_capacity(net.routers.len());
    for c in &net.routers {
        let (fs, top) = crate::generate_with_top(c, None)?;
        for f in fs {
            if files.iter().any(|g| g.file_name == f.file_name) {
                return Err(bad("routers", c.name(), "distinct router names (module prefixes)").into());
            }
            files.push(f);
        }
        tops.push(top);
    }
    let top = network_top(net, &tops, mutant)?;
    let mut text = format!("// Generated by {}. Do not edit.\n", crate::GENERATOR);
    text.push_str("// Specification: docs/microarchitecture.md; network top: docs/integration.md\n");
    if let Some(m) = mutant {
        text.push_str(&format!("// MUTANT: {m:?} (planted bug for testbench validation; NOT the specified network)\n"));
    }
    text.push_str(&format!(
        "// Network `{}`: {} routers, {} endpoints, link latency {} register(s).\n",
        net.name,
        net.routers.len(),
        net.endpoint_at.len(),
        net.link_latency
    ));
    for (e, (r, p)) in net.endpoint_at.iter().enumerate() {
        text.push_str(&format!("//   endpoint {e}: router {r} (`{}`) port {p}\n", crate::top_module_name(&net.routers[*r])));
    }
    files.push(crate::top_file(text, &top)?);
    Ok((files, top))
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkGenError {
    /// The description is invalid (bad input).
    #[error(transparent)]
    Invalid(#[from] NetworkError),
    /// The generator failed (a bug).
    #[error(transparent)]
    Hdl(#[from] HdlError),
}

/// One router's port buses inside the top (names `r<i>_<field>`).
struct RouterWires {
    in_valid: Sig,
    in_vc: Sig,
    in_head: Sig,
    in_tail: Sig,
    in_dummy: Option<Sig>,
    in_data: Sig,
    in_credit: Sig,
    out_valid: Sig,
    out_vc: Sig,
    out_head: Sig,
    out_tail: Sig,
    out_dummy: Option<Sig>,
    out_data: Sig,
    out_credit: Sig,
    /// Per-lane credits: `in_lane`, `out_lane`, `in_credit_lane`, `out_credit_lane`.
    lanes: Option<[Sig; 4]>,
}

/// Widths shared by every router of the network.
#[derive(Clone, Copy)]
struct Widths {
    vw: u32,
    w: u32,
    m: u32,
    dummy: bool,
    /// LW with per-lane credits (§9.4 *Credits*): the lane wires.
    lw: Option<u32>,
}

impl RouterWires {
    fn new(t: &mut Module, r: usize, n: u32, x: Widths) -> Result<RouterWires> {
        let s = |f: &str| format!("r{r}_{f}");
        Ok(RouterWires {
            in_valid: t.wire(&s("in_valid"), n),
            in_vc: t.wire(&s("in_vc"), n * x.vw),
            in_head: t.wire(&s("in_head"), n),
            in_tail: t.wire(&s("in_tail"), n),
            in_dummy: if x.dummy { Some(t.wire(&s("in_dummy"), n)) } else { None },
            in_data: t.wire(&s("in_data"), n * x.w),
            in_credit: t.wire(&s("in_credit"), n * x.m),
            out_valid: t.wire(&s("out_valid"), n),
            out_vc: t.wire(&s("out_vc"), n * x.vw),
            out_head: t.wire(&s("out_head"), n),
            out_tail: t.wire(&s("out_tail"), n),
            out_dummy: if x.dummy { Some(t.wire(&s("out_dummy"), n)) } else { None },
            out_data: t.wire(&s("out_data"), n * x.w),
            out_credit: t.wire(&s("out_credit"), n * x.m),
            lanes: x.lw.map(|lw| {
                [t.wire(&s("in_lane"), n * lw), t.wire(&s("out_lane"), n * lw), t.wire(&s("in_credit_lane"), n * x.m * lw), t.wire(&s("out_credit_lane"), n * x.m * lw)]
            }),
        })
    }

    /// Output port o's flit.
    fn out_flit(&self, o: u32, x: Widths) -> Result<Flit> {
        Flit::slice(&self.out_valid, &self.out_vc, &self.out_head, &self.out_tail, self.out_dummy.as_ref(), &self.out_data, o, x)?
            .with_lane(self.lanes.as_ref().map(|l| &l[1]), o, x)
    }

    /// Input port p's credits and, with per-lane credits, their lanes.
    fn in_credits(&self, p: u32, x: Widths) -> (Expr, Option<Expr>) {
        let lanes = match (&self.lanes, x.lw) {
            (Some(l), Some(lw)) => Some(l[2].field(p * x.m * lw, x.m * lw)),
            _ => None,
        };
        (self.in_credit.field(p * x.m, x.m), lanes)
    }
}

/// One link's flit as expressions, one per field in the order of
/// [`VALID`] .. [`LANE`] (dummy only in P mode, lane only with per-lane
/// credits).
#[derive(Clone)]
struct Flit([Option<Expr>; 7]);

const VALID: usize = 0;
const VC: usize = 1;
const HEAD: usize = 2;
const TAIL: usize = 3;
const DUMMY: usize = 4;
const DATA: usize = 5;
const LANE: usize = 6;

impl Flit {
    /// Port k's fields of flat buses (field of width F at `[k*F +: F]`).
    #[allow(clippy::too_many_arguments)]
    fn slice(valid: &Sig, vc: &Sig, head: &Sig, tail: &Sig, dummy: Option<&Sig>, data: &Sig, k: u32, x: Widths) -> Result<Flit> {
        let dummy = dummy.map(|d| d.e().bit(k)).transpose()?;
        Ok(Flit([Some(valid.at(k)), Some(vc.field(k * x.vw, x.vw)), Some(head.at(k)), Some(tail.at(k)), dummy, Some(data.field(k * x.w, x.w)), None]))
    }

    /// The flit with port k's lane of the flat bus `lane` (per-lane credits).
    fn with_lane(mut self, lane: Option<&Sig>, k: u32, x: Widths) -> Result<Flit> {
        if let (Some(l), Some(lw)) = (lane, x.lw) {
            self.0[LANE] = Some(l.field(k * lw, lw));
        }
        Ok(self)
    }

    fn idle(x: Widths) -> Flit {
        let z = Expr::zero;
        Flit([Some(z(1)), Some(z(x.vw)), Some(z(1)), Some(z(1)), x.dummy.then(|| z(1)), Some(z(x.w)), x.lw.map(z)])
    }

    fn fields(&self) -> Vec<Expr> {
        self.0.iter().flatten().cloned().collect()
    }

    fn field(&self, i: usize) -> Expr {
        self.0[i].clone().expect("a field of this mode")
    }

    /// `stages` registers in a row (reset to 0), all fields in one register
    /// per stage; the flit itself for 0 stages.
    fn delay(self, t: &mut Module, base: &str, stages: u32) -> Result<Flit> {
        let mut cur = self;
        for k in 0..stages {
            let packed = cat_lsb_first(&cur.fields())?;
            let q = t.register_next(&format!("{base}_s{k}"), &Expr::zero(packed.width()), &packed);
            let mut at = 0;
            let mut next = cur.0.clone();
            for f in next.iter_mut().flatten() {
                let w = f.width();
                *f = q.field(at, w);
                at += w;
            }
            cur = Flit(next);
        }
        Ok(cur)
    }
}

/// `stages` registers in a row after `src` (reset to 0); returns the last
/// one's output, or `src` itself for 0 stages.
fn delay(t: &mut Module, base: &str, src: Expr, stages: u32) -> Result<Expr> {
    let mut cur = src;
    for k in 0..stages {
        let q = t.register_next(&format!("{base}_s{k}"), &Expr::zero(cur.width()), &cur);
        cur = q.e();
    }
    Ok(cur)
}

/// The routing-table write ports of a programmable network
/// (docs/integration.md, "Changing routes at run time"): router r's
/// `cfg_we_i` is bit r, its address, port and VC mask the r-th fields of
/// `cfg_addr_i`, `cfg_port_i`, `cfg_avc_i`.
struct ConfigPorts {
    we: Sig,
    addr: Sig,
    port: Sig,
    avc: Sig,
    widths: [u32; 3],
}

impl ConfigPorts {
    fn declare(t: &mut Module, net: &NetworkDesign) -> Result<Option<ConfigPorts>> {
        let c0 = &net.routers[0];
        if !c0.programmable() {
            return Ok(None);
        }
        let r = net.routers.len() as u32;
        let widths = [c0.header().dest.width, wormqos_config::index_width(c0.ports() as u32), c0.vcs() as u32];
        t.doc("Routing-table write ports, router r's at bit r / field r (docs/integration.md).");
        Ok(Some(ConfigPorts {
            we: t.input("cfg_we_i", r),
            addr: t.input("cfg_addr_i", r * widths[0]),
            port: t.input("cfg_port_i", r * widths[1]),
            avc: t.input("cfg_avc_i", r * widths[2]),
            widths,
        }))
    }

    fn connect(&self, conns: &mut Vec<(&str, Expr)>, r: u32) -> Result<()> {
        let [dw, pw, m] = self.widths;
        conns.push(("cfg_we_i", self.we.at(r)));
        conns.push(("cfg_addr_i", self.addr.field(r * dw, dw)));
        conns.push(("cfg_port_i", self.port.field(r * pw, pw)));
        conns.push(("cfg_avc_i", self.avc.field(r * m, m)));
        Ok(())
    }
}

fn network_top(net: &NetworkDesign, tops: &[Module], mutant: Option<NetworkMutant>) -> Result<Module> {
    let c0 = &net.routers[0];
    let lw = c0.per_lane_credits().then(|| wormqos_config::index_width(c0.extra_lanes() as u32 + 1));
    let x = Widths { vw: c0.vc_width(), w: c0.flit_width(), m: c0.vcs() as u32, dummy: c0.mode() == RouterMode::Preemptive, lw };
    let e = net.endpoint_at.len() as u32;
    let mut t = Module::new(network_top_name(&net.name));
    t.doc(format!("Network `{}`: {} routers, {e} endpoints, {} pipeline register(s) per link direction.", net.name, net.routers.len(), net.link_latency));
    t.doc("Ports as a router top's (docs/microarchitecture.md §3), indexed by endpoint e instead of port:");
    t.doc("endpoint e's field of width F is [e*F +: F]; credits bit e*M+v (docs/integration.md).");
    t.input("clk_i", 1);
    t.input("rst_i", 1);
    let in_valid = t.input("in_valid_i", e);
    let in_vc = t.input("in_vc_i", e * x.vw);
    let in_head = t.input("in_head_i", e);
    let in_tail = t.input("in_tail_i", e);
    let in_dummy = if x.dummy { Some(t.input("in_dummy_i", e)) } else { None };
    let in_data = t.input("in_data_i", e * x.w);
    let in_credit_o = t.output("in_credit_o", e * x.m);
    let out_valid = t.output("out_valid_o", e);
    let out_vc = t.output("out_vc_o", e * x.vw);
    let out_head = t.output("out_head_o", e);
    let out_tail = t.output("out_tail_o", e);
    let out_dummy = if x.dummy { Some(t.output("out_dummy_o", e)) } else { None };
    let out_data = t.output("out_data_o", e * x.w);
    let out_credit = t.input("out_credit_i", e * x.m);
    let lane_ports = x.lw.map(|lw| {
        t.doc("Per-lane credits (§9.4 Credits): the lane of each flit and of each credit.");
        [t.input("in_lane_i", e * lw), t.output("out_lane_o", e * lw), t.output("in_credit_lane_o", e * x.m * lw), t.input("out_credit_lane_i", e * x.m * lw)]
    });
    let cfg = ConfigPorts::declare(&mut t, net)?;

    let mut rw = Vec::with_capacity(net.routers.len());
    for (r, c) in net.routers.iter().enumerate() {
        rw.push(RouterWires::new(&mut t, r, c.ports() as u32, x)?);
    }
    let ep_flit = |k: u32| Flit::slice(&in_valid, &in_vc, &in_head, &in_tail, in_dummy.as_ref(), &in_data, k, x)?.with_lane(lane_ports.as_ref().map(|l| &l[0]), k, x);

    t.comment("Router-to-router links: flits forward, credits backward, each through the link's registers");
    // Per router and input port: the flit it receives; per router and
    // output port: the credits it receives.
    let mut flit_in: Vec<Vec<Flit>> = Vec::new();
    let mut credit_in: Vec<Vec<Expr>> = Vec::new();
    // per-lane credits: the lanes of those credits
    let mut credit_lane_in: Vec<Vec<Expr>> = Vec::new();
    let mut first_link = true;
    for (r, c) in net.routers.iter().enumerate() {
        let n = c.ports() as u32;
        let mut fi = Vec::with_capacity(n as usize);
        let mut ci = Vec::with_capacity(n as usize);
        let mut cli = Vec::new();
        for p in 0..n {
            fi.push(match net.in_link[r][p as usize] {
                Attach::Unused => Flit::idle(x),
                Attach::Endpoint(k) => ep_flit(k as u32)?,
                Attach::Router { router, port } => {
                    let src = rw[router].out_flit(port as u32, x)?;
                    let mut stages = net.link_latency;
                    if first_link && mutant == Some(NetworkMutant::DropLinkRegister) {
                        stages -= 1;
                    }
                    first_link = false;
                    src.delay(&mut t, &format!("link_r{router}p{port}_flit"), stages)?
                }
            });
            ci.push(match net.out_link[r][p as usize] {
                Attach::Unused => Expr::zero(x.m),
                Attach::Endpoint(k) => out_credit.field(k as u32 * x.m, x.m),
                Attach::Router { router, port } => {
                    let src = rw[router].in_credit.field(port as u32 * x.m, x.m);
                    delay(&mut t, &format!("link_r{router}p{port}_credit"), src, net.link_latency)?
                }
            });
            if let (Some(lw), Some(lp)) = (x.lw, &lane_ports) {
                cli.push(match net.out_link[r][p as usize] {
                    Attach::Unused => Expr::zero(x.m * lw),
                    Attach::Endpoint(k) => lp[3].field(k as u32 * x.m * lw, x.m * lw),
                    Attach::Router { router, port } => {
                        let (_, src) = rw[router].in_credits(port as u32, x);
                        let src = src.expect("per-lane credits");
                        delay(&mut t, &format!("link_r{router}p{port}_credit_lane"), src, net.link_latency)?
                    }
                });
            }
        }
        flit_in.push(fi);
        credit_in.push(ci);
        credit_lane_in.push(cli);
    }
    if mutant == Some(NetworkMutant::SwapLinks) {
        let pick = (0..net.routers.len()).find_map(|r| {
            let links: Vec<usize> = (0..net.in_link[r].len()).filter(|&p| matches!(net.in_link[r][p], Attach::Router { .. })).collect();
            (links.len() >= 2).then(|| (r, links[0], links[1]))
        });
        if let Some((r, a, b)) = pick {
            flit_in[r].swap(a, b);
        }
    }

    for r in 0..net.routers.len() {
        let w = &rw[r];
        t.comment(format!("Router {r}: `{}`", tops[r].name()));
        let column = |i: usize| -> Result<Expr> { cat_lsb_first(&flit_in[r].iter().map(|f| f.field(i)).collect::<Vec<_>>()) };
        t.assign(&w.in_valid, &column(VALID)?);
        t.assign(&w.in_vc, &column(VC)?);
        t.assign(&w.in_head, &column(HEAD)?);
        t.assign(&w.in_tail, &column(TAIL)?);
        if let Some(d) = &w.in_dummy {
            t.assign(&d, &column(DUMMY)?);
        }
        t.assign(&w.in_data, &column(DATA)?);
        t.assign(&w.out_credit, &cat_lsb_first(&credit_in[r])?);
        if let Some(l) = &w.lanes {
            t.assign(&l[0], &column(LANE)?);
            t.assign(&l[3], &cat_lsb_first(&credit_lane_in[r])?);
        }
        let mut conns = vec![
            crate::bits::clk(),
            crate::bits::rst(),
            ("in_valid_i", w.in_valid.e()),
            ("in_vc_i", w.in_vc.e()),
            ("in_head_i", w.in_head.e()),
            ("in_tail_i", w.in_tail.e()),
            ("in_data_i", w.in_data.e()),
            ("in_credit_o", w.in_credit.e()),
            ("out_valid_o", w.out_valid.e()),
            ("out_vc_o", w.out_vc.e()),
            ("out_head_o", w.out_head.e()),
            ("out_tail_o", w.out_tail.e()),
            ("out_data_o", w.out_data.e()),
            ("out_credit_i", w.out_credit.e()),
        ];
        if let (Some(i), Some(o)) = (&w.in_dummy, &w.out_dummy) {
            conns.push(("in_dummy_i", i.e()));
            conns.push(("out_dummy_o", o.e()));
        }
        if let Some(l) = &w.lanes {
            conns.extend([("in_lane_i", l[0].e()), ("out_lane_o", l[1].e()), ("in_credit_lane_o", l[2].e()), ("out_credit_lane_i", l[3].e())]);
        }
        if let Some(c) = &cfg {
            c.connect(&mut conns, r as u32)?;
        }
        t.instance(&tops[r], &format!("u_r{r}"), &conns);
    }

    t.comment("Endpoint ports: endpoint e is (router, port) of docs/integration.md's table");
    let at = |k: usize| net.endpoint_at[k];
    let col = |f: &dyn Fn(&RouterWires, u32) -> Result<Expr>| -> Result<Expr> {
        cat_lsb_first(&(0..e as usize).map(|k| f(&rw[at(k).0], at(k).1 as u32)).collect::<Result<Vec<_>>>()?)
    };
    t.assign(&out_valid.lv(), &col(&|w, p| w.out_valid.e().bit(p))?);
    t.assign(&out_vc.lv(), &col(&|w, p| w.out_vc.e().part(p * x.vw, x.vw))?);
    t.assign(&out_head.lv(), &col(&|w, p| w.out_head.e().bit(p))?);
    t.assign(&out_tail.lv(), &col(&|w, p| w.out_tail.e().bit(p))?);
    if let Some(od) = &out_dummy {
        t.assign(&od.lv(), &col(&|w, p| w.out_dummy.as_ref().expect("P mode").e().bit(p))?);
    }
    t.assign(&out_data.lv(), &col(&|w, p| w.out_data.e().part(p * x.w, x.w))?);
    t.assign(&in_credit_o.lv(), &col(&|w, p| w.in_credit.e().part(p * x.m, x.m))?);
    if let (Some(lp), Some(lw)) = (&lane_ports, x.lw) {
        let lanes = |w: &RouterWires| w.lanes.clone().expect("per-lane credits");
        t.assign(&lp[1].lv(), &col(&|w, p| lanes(w)[1].e().part(p * lw, lw))?);
        t.assign(&lp[2].lv(), &col(&|w, p| lanes(w)[2].e().part(p * x.m * lw, x.m * lw))?);
    }

    // Ports without a link: their outputs go nowhere, which is intended.
    let mut unused = Vec::new();
    for (r, c) in net.routers.iter().enumerate() {
        for p in 0..c.ports() {
            if net.out_link[r][p] == Attach::Unused {
                unused.extend(rw[r].out_flit(p as u32, x)?.fields());
            }
            if net.in_link[r][p] == Attach::Unused {
                let (credits, lanes) = rw[r].in_credits(p as u32, x);
                unused.push(credits);
                unused.extend(lanes);
            }
        }
    }
    if !unused.is_empty() {
        // Verilator's -Wall exempts signals named `*unused*`, and only these
        // bits are collected: every other bit must be used, which lint checks.
        t.comment("Outputs of router ports without a link (mesh edges): unused by design");
        t.wire_of("unused_ports", &cat_lsb_first(&unused)?.red_or());
    }
    Ok(t)
}

//! Network descriptions and the routing tables every router gets from them.
//!
//! A topology is a set of routers, each with a fixed port layout, wired by
//! unidirectional links, plus endpoints (one source + sink each) on router
//! ports. The same description yields both the simulator's wiring and, per
//! router, the `topology.routes` table that the generated RTL uses
//! (`Topology::Network { routes }`): destination endpoint id -> output port.

use serde::{Deserialize, Serialize};

/// The `[topology]` section of an experiment file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologySpec {
    /// One router, one endpoint on every port.
    SingleSwitch,
    /// k×k 2D mesh, dimension-order (X then Y) routing. Ports: 0 local,
    /// 1 = +x, 2 = -x, 3 = +y, 4 = -y.
    Mesh { k: u32 },
    /// k-ary n-cube torus (wrap-around links), dimension-order routing with
    /// the shorter direction per dimension (ties: +). Ports: 0 local,
    /// 1+2i = +dim i, 2+2i = -dim i. For k >= 4 every router's table also
    /// gives each destination a dateline VC class (docs/microarchitecture.md
    /// §11), which becomes its `topology.route_vcs` entry: this breaks the
    /// cyclic channel dependencies of the rings, so the torus cannot deadlock
    /// (it needs 2 VCs, 2 per traffic class in TR/NP). `dateline = false`
    /// leaves the classes out: then it deadlocks under load, and the stall
    /// watchdog reports it (kept to demonstrate the need).
    Torus {
        k: u32,
        n: u32,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        dateline: bool,
    },
    /// Binary n-cube, e-cube routing (lowest differing address bit first).
    /// Ports: 0 local, 1+i = dimension i.
    Hypercube { n: u32 },
    /// k×k mesh of switches with `links` parallel links between neighbours
    /// and `endpoints` endpoints per switch (001_… Fig. 4: k = 2, links = 2,
    /// endpoints = 4 on 8-port switches). Ports: endpoints first, then
    /// `links` ports per existing neighbour direction in the order +x, -x,
    /// +y, -y. Routing is XY; the table gives the first of the `links`
    /// parallel ports and `topology.route_links = links`, so each router
    /// picks, per header, the parallel link whose output has the most free
    /// VCs (docs/microarchitecture.md §2), as in 001_… ("a message takes
    /// either link by current load").
    FatMesh { k: u32, links: u32, endpoints: u32 },
    /// Unidirectional ring of `nodes` nodes with `links` parallel links
    /// between neighbours (004_…: links = nodes/4 by default); messages to
    /// destination d use ring d mod links. Ports: 0 local, 1+j = ring j.
    /// Every ring is a cycle of channels, so for nodes >= 3 the tables carry
    /// the same dateline VC classes as the torus (§11, the + direction
    /// only); `dateline = false` leaves them out and the ring can deadlock.
    Ring {
        nodes: u32,
        #[serde(default)]
        links: Option<u32>,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        dateline: bool,
    },
    /// 004_…'s multi-link ring: `nodes` nodes, `links` parallel links each
    /// way between neighbours (default nodes/4), the shorter direction
    /// (ties +), and one of the paper's two routing strategies (§5, Fig. 9):
    /// `strategy = "destination_block"` (default, the first) sends a
    /// message to d on link d mod links (the 4-node block of d);
    /// `"source_block"` (the second) on link s mod links, the block of its
    /// source s, all the way. Routers route by destination only, so the
    /// second strategy gives every endpoint `links` destination codes,
    /// d + nodes · j = "d via link j", and the source's NI writes the code
    /// of its own block (`Network::dest_code`). Ports: 0 local, 1+j = +
    /// link j, 1+links+j = − link j. Dateline classes per direction as in
    /// the torus (§11).
    MultilinkRing {
        nodes: u32,
        #[serde(default)]
        links: Option<u32>,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        dateline: bool,
        #[serde(default, skip_serializing_if = "RingStrategy::is_default")]
        strategy: RingStrategy,
    },
    /// Unidirectional k-ary n-cube (every ring one way, +), dimension-order
    /// routing, with 002_…'s escape VCs: of every traffic class's VCs the
    /// first two are escape VCs, v1 while c_i < d_i in the dimension being
    /// crossed and v2 otherwise (a dateline), and the rest are shared
    /// (`shared_vcs`, docs/microarchitecture.md §11). Ports: 0 local, 1+i =
    /// dimension i.
    UnidirectionalTorus {
        k: u32,
        n: u32,
        #[serde(default, skip_serializing_if = "SharedVcs::is_default")]
        shared_vcs: SharedVcs,
    },
}

/// Who may take the shared VCs (all but the escape pair) of a
/// `unidirectional_torus` (docs/microarchitecture.md §11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SharedVcs {
    /// Only messages that no longer cross the wrap link of the ring (those
    /// on v1): deadlock free on our routers, which reuse a VC as soon as the
    /// previous message's tail has crossed the upstream crossbar.
    #[default]
    AfterDateline,
    /// Every message, as 002_… prints it (Duato's methodology). Deadlock
    /// free only if a VC is reallocated once the previous message has left
    /// its buffer; on our routers two messages can share a VC's buffers and
    /// the rings deadlock near saturation (kept to reproduce that).
    Any,
}

impl SharedVcs {
    fn is_default(&self) -> bool {
        *self == SharedVcs::AfterDateline
    }
}

/// 004_…'s routing strategies on a `multilink_ring` (§5, Fig. 9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RingStrategy {
    /// Link = the destination's 4-node block (the paper's first).
    #[default]
    DestinationBlock,
    /// Link = the source's 4-node block (the paper's second).
    SourceBlock,
}

impl RingStrategy {
    fn is_default(&self) -> bool {
        *self == RingStrategy::DestinationBlock
    }
}

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}

/// 002_…'s escape VCs (`UnidirectionalTorus`): v1 + the shared VCs, v2 +
/// the shared VCs (`SharedVcs::Any`), or v2 alone (`SharedVcs::AfterDateline`).
pub const ESCAPE_V1: u8 = 3;
pub const ESCAPE_V2: u8 = 4;
pub const ESCAPE_V2_ALONE: u8 = 5;

/// Dateline VC class of a (router, destination) entry: the lower half of the
/// VCs (of every traffic class) before the wrap link, the upper half after it.
pub const DATELINE_BEFORE: u8 = 0;
pub const DATELINE_AFTER: u8 = 1;
/// Any VC (ejection, or a ring that needs no dateline).
pub const DATELINE_ANY: u8 = 2;

/// One end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    Unused,
    Router { router: usize, port: usize },
    Endpoint(usize),
}

/// A built network: wiring plus routing tables.
#[derive(Clone, Debug)]
pub struct Network {
    pub routers: usize,
    /// Ports every router needs (the configured `router.ports` must be >= this).
    pub ports_needed: usize,
    /// `out_link[r][o]`: what output port o of router r drives.
    pub out_link: Vec<Vec<Peer>>,
    /// `in_link[r][p]`: what drives input port p of router r.
    pub in_link: Vec<Vec<Peer>>,
    /// Endpoint e sits on (router, port).
    pub endpoint_at: Vec<(usize, usize)>,
    /// `routes[r][c]`: output port of router r for destination code c
    /// (the endpoint, unless `source_groups` > 1: see `dest_code`).
    pub routes: Vec<Vec<u32>>,
    /// Destination codes per endpoint (1: a code is the endpoint).
    pub source_groups: usize,
    /// `vc_class[r][d]`: the dateline class (`DATELINE_*`) of router r's
    /// entry for destination d; empty when the topology needs none.
    pub vc_class: Vec<Vec<u8>>,
    /// `route_links[r][d]`: how many parallel ports from `routes[r][d]` on
    /// the destination may use (`topology.route_links`); empty when all 1.
    pub route_links: Vec<Vec<u32>>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TopologyError {
    #[error("topology.{field} = {value}: {why}")]
    Field { field: &'static str, value: String, why: String },
}

fn field(field: &'static str, value: impl ToString, why: impl Into<String>) -> TopologyError {
    TopologyError::Field { field, value: value.to_string(), why: why.into() }
}

const MAX_ROUTERS: u64 = 1 << 14;

impl TopologySpec {
    /// Builds wiring and routing tables for routers with `ports` ports.
    pub fn build(&self, ports: usize) -> Result<Network, TopologyError> {
        let net = match *self {
            TopologySpec::SingleSwitch => {
                let mut b = Builder::new(1, ports);
                for p in 0..ports {
                    b.endpoint(0, p);
                }
                b.routes = vec![(0..ports as u32).collect()];
                b.finish(ports)
            }
            TopologySpec::Mesh { k } => {
                check_k("k", k, 1)?;
                grid(k, 1, 1, ports, true)?
            }
            TopologySpec::FatMesh { k, links, endpoints } => {
                check_k("k", k, 1)?;
                if links == 0 || links > 8 {
                    return Err(field("links", links, "allowed range 1..=8"));
                }
                if endpoints == 0 || endpoints > 32 {
                    return Err(field("endpoints", endpoints, "allowed range 1..=32"));
                }
                grid(k, links, endpoints, ports, false)?
            }
            TopologySpec::Torus { k, n, dateline } => {
                check_k("k", k, 2)?;
                if n == 0 || n > 6 || (k as u64).pow(n) > MAX_ROUTERS {
                    return Err(field("n", n, format!("1..=6 dimensions and k^n <= {MAX_ROUTERS} routers")));
                }
                torus(k as usize, n as usize, ports, dateline)?
            }
            TopologySpec::Hypercube { n } => {
                if n == 0 || n > 14 {
                    return Err(field("n", n, "allowed range 1..=14"));
                }
                hypercube(n as usize, ports)?
            }
            TopologySpec::Ring { nodes, links, dateline } => {
                if !(2..=1024).contains(&nodes) {
                    return Err(field("nodes", nodes, "allowed range 2..=1024"));
                }
                let links = links.unwrap_or((nodes / 4).max(1));
                // Port 0 is the endpoint, one port per link on top.
                let most = wormqos_config::SIM_PORTS_RANGE.1 - 1;
                if links == 0 || links > most {
                    return Err(field("links", links, format!("allowed range 1..={most} (port 0 is the endpoint; more than 31 links only in simulation)")));
                }
                ring(nodes as usize, links as usize, ports, dateline)?
            }
            TopologySpec::UnidirectionalTorus { k, n, shared_vcs } => {
                check_k("k", k, 2)?;
                if n == 0 || n > 6 || (k as u64).pow(n) > MAX_ROUTERS {
                    return Err(field("n", n, format!("1..=6 dimensions and k^n <= {MAX_ROUTERS} routers")));
                }
                unidirectional_torus(k as usize, n as usize, ports, shared_vcs)?
            }
            TopologySpec::MultilinkRing { nodes, links, dateline, strategy } => {
                if !(2..=1024).contains(&nodes) {
                    return Err(field("nodes", nodes, "allowed range 2..=1024"));
                }
                let links = links.unwrap_or((nodes / 4).max(1));
                // 2 ports per link (one to each neighbour) + the endpoint.
                let most = (wormqos_config::SIM_PORTS_RANGE.1 - 1) / 2;
                if links == 0 || links > most {
                    return Err(field(
                        "links",
                        links,
                        format!("allowed range 1..={most} (2 links ports per neighbour pair + the endpoint; more than 15 links only in simulation)"),
                    ));
                }
                multilink_ring(nodes as usize, links as usize, ports, dateline, strategy)?
            }
        };
        Ok(net)
    }

    /// Routers and endpoints, computed without building anything (for the
    /// memory bound checked before [`TopologySpec::build`]).
    pub fn size(&self) -> (u64, u64) {
        match *self {
            TopologySpec::SingleSwitch => (1, 0),
            TopologySpec::Mesh { k } => ((k as u64).pow(2), (k as u64).pow(2)),
            TopologySpec::FatMesh { k, endpoints, .. } => ((k as u64).pow(2), (k as u64).pow(2) * endpoints as u64),
            TopologySpec::Torus { k, n, .. } | TopologySpec::UnidirectionalTorus { k, n, .. } => {
                let r = (k as u64).checked_pow(n).unwrap_or(u64::MAX);
                (r, r)
            }
            TopologySpec::Hypercube { n } => {
                let r = 1u64.checked_shl(n).filter(|_| n < 64).unwrap_or(u64::MAX);
                (r, r)
            }
            TopologySpec::Ring { nodes, .. } | TopologySpec::MultilinkRing { nodes, .. } => (nodes as u64, nodes as u64),
        }
    }

    /// Destination codes per endpoint: `links` for the second strategy of
    /// a multi-link ring (`Network::dest_code`), else 1.
    pub fn codes_per_endpoint(&self) -> u64 {
        match *self {
            TopologySpec::MultilinkRing { nodes, links, strategy: RingStrategy::SourceBlock, .. } => links.unwrap_or((nodes / 4).max(1)) as u64,
            _ => 1,
        }
    }

    /// Router ports the topology needs.
    pub fn ports_needed(&self) -> usize {
        match *self {
            TopologySpec::SingleSwitch => 2,
            TopologySpec::Mesh { .. } => 5,
            TopologySpec::Torus { n, .. } => 1 + 2 * n as usize,
            TopologySpec::Hypercube { n } => 1 + n as usize,
            TopologySpec::FatMesh { k, links, endpoints } => {
                let dirs = if k <= 1 { 0 } else if k == 2 { 2 } else { 4 };
                (endpoints + dirs * links) as usize
            }
            TopologySpec::Ring { nodes, links, .. } => 1 + links.unwrap_or((nodes / 4).max(1)) as usize,
            TopologySpec::MultilinkRing { nodes, links, .. } => 1 + 2 * links.unwrap_or((nodes / 4).max(1)) as usize,
            TopologySpec::UnidirectionalTorus { n, .. } => 1 + n as usize,
        }
    }
}

fn check_k(name: &'static str, k: u32, lo: u32) -> Result<(), TopologyError> {
    if k < lo || (k as u64) * (k as u64) > MAX_ROUTERS {
        return Err(field(name, k, format!("allowed range {lo}..={}", (MAX_ROUTERS as f64).sqrt() as u64)));
    }
    Ok(())
}

fn too_few_ports(need: usize, have: usize) -> TopologyError {
    TopologyError::Field {
        field: "kind",
        value: format!("needs {need} router ports"),
        why: format!("router.ports = {have} is too small (the topology needs {need})"),
    }
}

struct Builder {
    out_link: Vec<Vec<Peer>>,
    in_link: Vec<Vec<Peer>>,
    endpoint_at: Vec<(usize, usize)>,
    routes: Vec<Vec<u32>>,
    vc_class: Vec<Vec<u8>>,
    route_links: Vec<Vec<u32>>,
}

impl Builder {
    fn new(routers: usize, ports: usize) -> Self {
        Builder {
            out_link: vec![vec![Peer::Unused; ports]; routers],
            in_link: vec![vec![Peer::Unused; ports]; routers],
            endpoint_at: Vec::new(),
            routes: Vec::new(),
            vc_class: Vec::new(),
            route_links: Vec::new(),
        }
    }
    fn endpoint(&mut self, r: usize, p: usize) -> usize {
        let e = self.endpoint_at.len();
        self.endpoint_at.push((r, p));
        self.out_link[r][p] = Peer::Endpoint(e);
        self.in_link[r][p] = Peer::Endpoint(e);
        e
    }
    /// Output port `o` of router `a` drives input port `p` of router `b`.
    fn link(&mut self, a: usize, o: usize, b: usize, p: usize) {
        self.out_link[a][o] = Peer::Router { router: b, port: p };
        self.in_link[b][p] = Peer::Router { router: a, port: o };
    }
    fn finish(self, ports: usize) -> Network {
        let ports_needed = self
            .out_link
            .iter()
            .chain(self.in_link.iter())
            .map(|v| v.iter().rposition(|p| *p != Peer::Unused).map_or(0, |i| i + 1))
            .max()
            .unwrap_or(0);
        let _ = ports;
        Network {
            routers: self.out_link.len(),
            ports_needed,
            out_link: self.out_link,
            in_link: self.in_link,
            endpoint_at: self.endpoint_at,
            routes: self.routes,
            vc_class: self.vc_class,
            route_links: self.route_links,
            source_groups: 1,
        }
    }
}

/// Mesh (`links = 1`, `eps = 1`, `fixed_ports`: local 0, +x 1, -x 2, +y 3,
/// -y 4) or fat mesh (endpoints first, then `links` per existing direction).
fn grid(k: u32, links: u32, eps: u32, ports: usize, fixed_ports: bool) -> Result<Network, TopologyError> {
    let k = k as usize;
    let links = links as usize;
    let eps = eps as usize;
    let n = k * k;
    // Port of direction dir (0 +x, 1 -x, 2 +y, 3 -y), link j at router (x, y).
    let dir_exists = |x: usize, y: usize, dir: usize| match dir {
        0 => x + 1 < k,
        1 => x > 0,
        2 => y + 1 < k,
        _ => y > 0,
    };
    let port_of = |x: usize, y: usize, dir: usize, j: usize| -> usize {
        if fixed_ports {
            1 + dir
        } else {
            let before = (0..dir).filter(|&d| dir_exists(x, y, d)).count();
            eps + before * links + j
        }
    };
    let mut need = 0;
    for y in 0..k {
        for x in 0..k {
            for dir in 0..4 {
                if dir_exists(x, y, dir) {
                    need = need.max(port_of(x, y, dir, links - 1) + 1);
                }
            }
        }
    }
    need = need.max(eps);
    if fixed_ports {
        need = 5;
    }
    if need > ports {
        return Err(too_few_ports(need, ports));
    }
    let mut b = Builder::new(n, ports);
    let id = |x: usize, y: usize| y * k + x;
    for y in 0..k {
        for x in 0..k {
            for i in 0..eps {
                b.endpoint(id(x, y), if fixed_ports { 0 } else { i });
            }
        }
    }
    for y in 0..k {
        for x in 0..k {
            for dir in 0..4 {
                if !dir_exists(x, y, dir) {
                    continue;
                }
                let (nx, ny, back) = match dir {
                    0 => (x + 1, y, 1),
                    1 => (x - 1, y, 0),
                    2 => (x, y + 1, 3),
                    _ => (x, y - 1, 2),
                };
                for j in 0..links {
                    b.link(id(x, y), port_of(x, y, dir, j), id(nx, ny), port_of(nx, ny, back, j));
                }
            }
        }
    }
    let total = n * eps;
    for y in 0..k {
        for x in 0..k {
            let mut t = Vec::with_capacity(total);
            let mut g = Vec::with_capacity(total);
            for d in 0..total {
                let (node, local) = (d / eps, d % eps);
                let (dx, dy) = (node % k, node / k);
                // The first parallel port; the router picks among the group.
                let j = 0;
                g.push(if node == y * k + x { 1 } else { links as u32 });
                let p = if dx > x {
                    port_of(x, y, 0, j)
                } else if dx < x {
                    port_of(x, y, 1, j)
                } else if dy > y {
                    port_of(x, y, 2, j)
                } else if dy < y {
                    port_of(x, y, 3, j)
                } else if fixed_ports {
                    0
                } else {
                    local
                };
                t.push(p as u32);
            }
            b.routes.push(t);
            if links > 1 {
                b.route_links.push(g);
            }
        }
    }
    Ok(b.finish(ports))
}

fn torus(k: usize, n: usize, ports: usize, dateline: bool) -> Result<Network, TopologyError> {
    let need = 1 + 2 * n;
    if need > ports {
        return Err(too_few_ports(need, ports));
    }
    let count = k.pow(n as u32);
    let digit = |v: usize, i: usize| (v / k.pow(i as u32)) % k;
    let mut b = Builder::new(count, ports);
    for r in 0..count {
        b.endpoint(r, 0);
    }
    for r in 0..count {
        for i in 0..n {
            let stride = k.pow(i as u32);
            let di = digit(r, i);
            let plus = r - di * stride + ((di + 1) % k) * stride;
            // +i out of r enters the neighbour's -i input (its port 2+2i).
            b.link(r, 1 + 2 * i, plus, 2 + 2 * i);
            let minus = r - di * stride + ((di + k - 1) % k) * stride;
            b.link(r, 2 + 2 * i, minus, 1 + 2 * i);
        }
    }
    // With k <= 3 a route takes at most one hop per ring (k = 3: one either
    // way; k = 2: ties go +), so no channel waits on another of its own ring
    // and the rings need no dateline.
    let classes = dateline && k >= 4;
    for r in 0..count {
        let mut t = Vec::with_capacity(count);
        let mut cls = Vec::with_capacity(count);
        for d in 0..count {
            let mut entry = (0, DATELINE_ANY);
            for i in 0..n {
                let (c, z) = (digit(r, i), digit(d, i));
                if c != z {
                    let fwd = (z + k - c) % k;
                    let plus = fwd <= k - fwd;
                    // §11: the rest of the way still crosses the wrap link
                    // (k-1 -> 0 going +, 0 -> k-1 going -) iff c > t (+) or c < t (-).
                    let crosses = if plus { c > z } else { c < z };
                    let class = if crosses { DATELINE_BEFORE } else { DATELINE_AFTER };
                    entry = (if plus { 1 + 2 * i as u32 } else { 2 + 2 * i as u32 }, if classes { class } else { DATELINE_ANY });
                    break;
                }
            }
            t.push(entry.0);
            cls.push(entry.1);
        }
        b.routes.push(t);
        if classes {
            b.vc_class.push(cls);
        }
    }
    Ok(b.finish(ports))
}

fn hypercube(n: usize, ports: usize) -> Result<Network, TopologyError> {
    if 1 + n > ports {
        return Err(too_few_ports(1 + n, ports));
    }
    let count = 1usize << n;
    let mut b = Builder::new(count, ports);
    for r in 0..count {
        b.endpoint(r, 0);
    }
    for r in 0..count {
        for i in 0..n {
            b.link(r, 1 + i, r ^ (1 << i), 1 + i);
        }
    }
    for r in 0..count {
        let t = (0..count)
            .map(|d| {
                let diff = r ^ d;
                if diff == 0 {
                    0
                } else {
                    1 + diff.trailing_zeros()
                }
            })
            .collect();
        b.routes.push(t);
    }
    Ok(b.finish(ports))
}

fn ring(nodes: usize, links: usize, ports: usize, dateline: bool) -> Result<Network, TopologyError> {
    if 1 + links > ports {
        return Err(too_few_ports(1 + links, ports));
    }
    let mut b = Builder::new(nodes, ports);
    for r in 0..nodes {
        b.endpoint(r, 0);
    }
    for r in 0..nodes {
        for j in 0..links {
            b.link(r, 1 + j, (r + 1) % nodes, 1 + j);
        }
    }
    // With 2 nodes every route is one hop, so no channel waits on another.
    let classes = dateline && nodes >= 3;
    for r in 0..nodes {
        let t = (0..nodes).map(|d| if d == r { 0 } else { 1 + (d % links) as u32 }).collect();
        b.routes.push(t);
        if classes {
            // §11, + direction: the rest of the way still crosses the wrap
            // link (nodes-1 -> 0) iff r > d.
            let cls = (0..nodes)
                .map(|d| match d.cmp(&r) {
                    std::cmp::Ordering::Equal => DATELINE_ANY,
                    std::cmp::Ordering::Less => DATELINE_BEFORE,
                    std::cmp::Ordering::Greater => DATELINE_AFTER,
                })
                .collect();
            b.vc_class.push(cls);
        }
    }
    Ok(b.finish(ports))
}

fn unidirectional_torus(k: usize, n: usize, ports: usize, shared: SharedVcs) -> Result<Network, TopologyError> {
    if 1 + n > ports {
        return Err(too_few_ports(1 + n, ports));
    }
    let count = k.pow(n as u32);
    let digit = |v: usize, i: usize| (v / k.pow(i as u32)) % k;
    let mut b = Builder::new(count, ports);
    (0..count).for_each(|r| {
        b.endpoint(r, 0);
    });
    for (r, i) in (0..count).flat_map(|r| (0..n).map(move |i| (r, i))) {
        // One step + in dimension i: digit i of r advances mod k.
        let stride = k.pow(i as u32);
        b.link(r, 1 + i, r - digit(r, i) * stride + ((digit(r, i) + 1) % k) * stride, 1 + i);
    }
    for r in 0..count {
        let mut t = Vec::with_capacity(count);
        let mut cls = Vec::with_capacity(count);
        for d in 0..count {
            match (0..n).find(|&i| digit(r, i) != digit(d, i)) {
                Some(i) => {
                    t.push(1 + i as u32);
                    // v2: the rest of the way still crosses the wrap link.
                    cls.push(match (digit(r, i) < digit(d, i), shared) {
                        (true, _) => ESCAPE_V1,
                        (false, SharedVcs::Any) => ESCAPE_V2,
                        (false, SharedVcs::AfterDateline) => ESCAPE_V2_ALONE,
                    });
                }
                None => {
                    t.push(0);
                    cls.push(DATELINE_ANY);
                }
            }
        }
        b.routes.push(t);
        b.vc_class.push(cls);
    }
    Ok(b.finish(ports))
}

fn multilink_ring(nodes: usize, links: usize, ports: usize, dateline: bool, strategy: RingStrategy) -> Result<Network, TopologyError> {
    if 1 + 2 * links > ports {
        return Err(too_few_ports(1 + 2 * links, ports));
    }
    let mut b = Builder::new(nodes, ports);
    for r in 0..nodes {
        b.endpoint(r, 0);
    }
    for r in 0..nodes {
        for j in 0..links {
            // + link j out of r enters the next node's − link j input, and back.
            b.link(r, 1 + j, (r + 1) % nodes, 1 + links + j);
            b.link(r, 1 + links + j, (r + nodes - 1) % nodes, 1 + j);
        }
    }
    // As the torus: with 3 or fewer nodes no route waits on its own ring.
    let classes = dateline && nodes >= 4;
    // Second strategy: code d + nodes · j goes to d on link j.
    let codes = if strategy == RingStrategy::SourceBlock { nodes * links } else { nodes };
    for r in 0..nodes {
        let mut t = Vec::with_capacity(codes);
        let mut cls = Vec::with_capacity(codes);
        for code in 0..codes {
            let d = code % nodes;
            if d == r {
                t.push(0);
                cls.push(DATELINE_ANY);
                continue;
            }
            // The rest of a shortest path is the shortest way from here, so
            // the direction follows from (r, d) whatever the source.
            let fwd = (d + nodes - r) % nodes;
            let plus = fwd <= nodes - fwd;
            let j = if strategy == RingStrategy::SourceBlock { code / nodes } else { d % links };
            t.push(if plus { 1 + j } else { 1 + links + j } as u32);
            // §11: the rest of the way still crosses the wrap link iff r > d (+) or r < d (−).
            let crosses = if plus { r > d } else { r < d };
            cls.push(if crosses { DATELINE_BEFORE } else { DATELINE_AFTER });
        }
        b.routes.push(t);
        if classes {
            b.vc_class.push(cls);
        }
    }
    let mut net = b.finish(ports);
    if strategy == RingStrategy::SourceBlock {
        net.source_groups = links;
    }
    Ok(net)
}

impl Network {
    /// The header's destination code of a message from endpoint `s` to
    /// `d`: d, or with `source_groups` = g > 1 (004_…'s second strategy)
    /// d + endpoints · (s mod g), "d via the link of s's block".
    pub fn dest_code(&self, s: usize, d: usize) -> usize {
        if self.source_groups > 1 {
            d + self.endpoint_at.len() * (s % self.source_groups)
        } else {
            d
        }
    }

    pub fn endpoints(&self) -> usize {
        self.endpoint_at.len()
    }

    /// The `topology.route_vcs` table of router r for routers with `vcs`
    /// VCs and the static partition `partition` (class of each VC, TR/NP),
    /// or `Ok(None)` if the topology has no VC classes. Each dateline class
    /// takes, of every traffic class's VCs in VC order, the lower half
    /// (rounded down: before the dateline) or the rest (after it). `Err`
    /// gives the fewest VCs a traffic class has when that is below 2.
    pub fn route_vcs(&self, r: usize, vcs: usize, partition: Option<&[u32]>) -> Result<Option<Vec<u32>>, usize> {
        if self.vc_class.is_empty() {
            return Ok(None);
        }
        let groups: Vec<Vec<usize>> = match partition {
            Some(map) => {
                let classes = map.iter().copied().max().unwrap_or(0) as usize + 1;
                (0..classes).map(|c| (0..vcs).filter(|&u| map[u] as usize == c).collect()).collect()
            }
            None => vec![(0..vcs).collect()],
        };
        let fewest = groups.iter().map(Vec::len).min().unwrap_or(0);
        if fewest < 2 {
            return Err(fewest);
        }
        let (mut before, mut after) = (0u32, 0u32);
        let (mut v1, mut v2, mut v2_alone) = (0u32, 0u32, 0u32);
        for g in &groups {
            let half = g.len() / 2;
            before |= g[..half].iter().fold(0, |a, &u| a | 1 << u);
            after |= g[half..].iter().fold(0, |a, &u| a | 1 << u);
            let shared = g[2..].iter().fold(0, |a, &u| a | 1 << u);
            v1 |= 1 << g[0] | shared;
            v2 |= 1 << g[1] | shared;
            v2_alone |= 1 << g[1];
        }
        let all = ((1u64 << vcs) - 1) as u32;
        Ok(Some(
            self.vc_class[r]
                .iter()
                .map(|&c| match c {
                    DATELINE_BEFORE => before,
                    DATELINE_AFTER => after,
                    ESCAPE_V1 => v1,
                    ESCAPE_V2 => v2,
                    ESCAPE_V2_ALONE => v2_alone,
                    _ => all,
                })
                .collect(),
        ))
    }

    /// The routers a message from endpoint `s` to `d` visits, following the
    /// tables, or None if it loops or leaves on an unused port.
    pub fn path(&self, s: usize, d: usize) -> Option<Vec<usize>> {
        let (mut r, _) = self.endpoint_at[s];
        let mut seen = vec![r];
        for _ in 0..=self.routers {
            let o = self.routes[r][self.dest_code(s, d)] as usize;
            match self.out_link[r][o] {
                Peer::Endpoint(e) => return (e == d).then_some(seen),
                Peer::Router { router, .. } => {
                    r = router;
                    seen.push(r);
                }
                Peer::Unused => return None,
            }
        }
        None
    }
}

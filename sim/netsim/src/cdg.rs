//! The deadlock checks the tool performs on a network's routing tables
//! (docs/integration.md, "Deadlock checks on a routing table"): every
//! destination is reached (no route to a missing link, to the wrong
//! endpoint or round a loop), every entry allows a VC of every traffic
//! class, and the channel dependency graph (Dally and Seitz) of the tables
//! with their VC classes has no cycle.
//!
//! A channel is one VC of one router-to-router link: (router, output port,
//! VC). A message holding channel `a` into router r that the table sends on
//! to output port o may wait for any VC of o it is allowed (the entry's
//! allowed VCs, `route_vcs`, within its traffic class's VCs, §2 and §9.2):
//! an edge from `a` to each of them. Links to endpoints are not channels of
//! the graph: an endpoint always drains (it is a sink), and injection
//! channels have no predecessor, so neither can be on a cycle. Wormhole
//! routing with routes that depend on the destination only deadlocks only
//! if this graph has a cycle; a cycle is reported with its channels, though
//! it is not certain to deadlock in every run (it can, under load).

use crate::topology::{Network, Peer};
use std::fmt;

/// The tables the check reads, one row per router, one entry per
/// destination code (as in `Network::routes`).
#[derive(Clone, Debug)]
pub struct Tables<'a> {
    /// Output port per code (the first of its parallel ports).
    pub routes: &'a [Vec<u32>],
    /// Parallel ports per code (`route_links`); empty rows: 1 each.
    pub links: &'a [Vec<u32>],
    /// Allowed output VCs per code (`route_vcs` masks); empty rows: all VCs.
    pub avc: &'a [Vec<u32>],
    /// VCs per link.
    pub vcs: usize,
    /// The VC set of every traffic class (one entry, all VCs, without a
    /// static partition).
    pub class_vcs: &'a [u32],
}

/// One VC of a router-to-router link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    pub router: usize,
    pub port: usize,
    pub vc: usize,
    /// The router the link leads to.
    pub to: usize,
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "router {} port {} VC {} (to router {})", self.router, self.port, self.vc, self.to)
    }
}

/// Why a set of tables is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CdgError {
    #[error("routers[{router}] routes[{code}] = port {port}: a port with a link to a router or to endpoint {endpoint} (the route leads to a missing link)")]
    MissingLink { router: usize, code: usize, port: usize, endpoint: usize },
    #[error("routers[{router}] routes[{code}] = port {port}: delivers to endpoint {got}, not to the destination, endpoint {endpoint}")]
    WrongEndpoint { router: usize, code: usize, port: usize, got: usize, endpoint: usize },
    #[error("routers[{router}] route_vcs[{code}] = {mask:#x}: allows no VC of traffic class {class} (its VCs {class_vcs:#x}), so its messages wait for ever")]
    NoVc { router: usize, code: usize, mask: u32, class: usize, class_vcs: u32 },
    #[error("the channel dependency graph of the routing tables and their VC classes has a cycle (messages can deadlock): {}", cycle_text(.0))]
    Cycle(Vec<Channel>),
}

fn cycle_text(c: &[Channel]) -> String {
    let mut s: Vec<String> = c.iter().map(|ch| ch.to_string()).collect();
    if let Some(first) = c.first() {
        s.push(format!("back to {first}"));
    }
    s.join(" -> ")
}

/// Dense channel index: (router, port, vc) -> id, only for links between routers.
struct Channels {
    base: Vec<usize>,
    ports: usize,
    vcs: usize,
}

impl Channels {
    fn new(net: &Network, vcs: usize) -> Channels {
        let ports = net.out_link.iter().map(Vec::len).max().unwrap_or(0);
        let base = (0..net.routers).map(|r| r * ports * vcs).collect();
        Channels { base, ports, vcs }
    }
    fn id(&self, r: usize, p: usize, v: usize) -> usize {
        self.base[r] + p * self.vcs + v
    }
    fn len(&self, routers: usize) -> usize {
        routers * self.ports * self.vcs
    }
    fn channel(&self, net: &Network, id: usize) -> Channel {
        let per_router = self.ports * self.vcs;
        let (router, rest) = (id / per_router, id % per_router);
        let (port, vc) = (rest / self.vcs, rest % self.vcs);
        let to = match net.out_link[router][port] {
            Peer::Router { router, .. } => router,
            _ => usize::MAX,
        };
        Channel { router, port, vc, to }
    }
}

/// Runs every check on `t` over the wiring of `net`.
pub fn check(net: &Network, t: &Tables) -> Result<(), CdgError> {
    let ch = Channels::new(net, t.vcs);
    let n = ch.len(net.routers);
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    let e = net.endpoints();
    let codes = t.routes.first().map_or(0, Vec::len);
    for code in 0..codes {
        let dest = code % e.max(1);
        // Every router a message to this code can be injected at.
        let sources: Vec<usize> = (0..e).filter(|&s| (0..e).any(|d| net.dest_code(s, d) == code)).map(|s| net.endpoint_at[s].0).collect();
        for (class, &cvs) in t.class_vcs.iter().enumerate() {
            // Per router: the hops from it (output port, allowed VCs); None
            // for a delivery. Computed on first visit.
            let mut seen = vec![false; n];
            let mut stack: Vec<(usize, Option<usize>)> = sources.iter().map(|&r| (r, None)).collect();
            while let Some((r, held)) = stack.pop() {
                let first = t.routes[r][code] as usize;
                let g = t.links.get(r).and_then(|l| l.get(code)).copied().unwrap_or(1) as usize;
                let mask = t.avc.get(r).and_then(|a| a.get(code)).copied().unwrap_or(u32::MAX) & cvs;
                for q in first..first + g.max(1) {
                    match net.out_link[r].get(q).copied().unwrap_or(Peer::Unused) {
                        Peer::Unused => return Err(CdgError::MissingLink { router: r, code, port: q, endpoint: dest }),
                        Peer::Endpoint(got) if got != dest => return Err(CdgError::WrongEndpoint { router: r, code, port: q, got, endpoint: dest }),
                        Peer::Endpoint(_) => {}
                        Peer::Router { router: next, .. } => {
                            if mask == 0 {
                                return Err(CdgError::NoVc { router: r, code, mask: t.avc.get(r).and_then(|a| a.get(code)).copied().unwrap_or(u32::MAX), class, class_vcs: cvs });
                            }
                            for v in (0..t.vcs).filter(|&v| mask >> v & 1 == 1) {
                                let c = ch.id(r, q, v);
                                if let Some(h) = held {
                                    if !edges[h].contains(&c) {
                                        edges[h].push(c);
                                    }
                                }
                                if !seen[c] {
                                    seen[c] = true;
                                    stack.push((next, Some(c)));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    match find_cycle(&edges) {
        Some(c) => Err(CdgError::Cycle(c.into_iter().map(|id| ch.channel(net, id)).collect())),
        None => Ok(()),
    }
}

/// A cycle of the directed graph, in edge order, if it has one (iterative
/// depth-first search with colours).
fn find_cycle(edges: &[Vec<usize>]) -> Option<Vec<usize>> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut colour = vec![WHITE; edges.len()];
    let mut parent = vec![usize::MAX; edges.len()];
    for root in 0..edges.len() {
        if colour[root] != WHITE || edges[root].is_empty() {
            continue;
        }
        // (node, next edge index)
        let mut stack = vec![(root, 0usize)];
        colour[root] = GREY;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if *i < edges[u].len() {
                let v = edges[u][*i];
                *i += 1;
                match colour[v] {
                    WHITE => {
                        colour[v] = GREY;
                        parent[v] = u;
                        stack.push((v, 0));
                    }
                    GREY => {
                        // u -> v closes a cycle: v .. u along the parents.
                        let mut cyc = vec![u];
                        let mut w = u;
                        while w != v {
                            w = parent[w];
                            cyc.push(w);
                        }
                        cyc.reverse();
                        return Some(cyc);
                    }
                    _ => {}
                }
            } else {
                colour[u] = BLACK;
                stack.pop();
            }
        }
    }
    None
}

/// The VC set of every traffic class of a router configuration: the static
/// partition's (TR/NP with classes, §9.2), else one set of all VCs.
pub fn class_vc_sets(cfg: &wormqos_config::RouterConfig) -> Vec<u32> {
    let all = ((1u64 << cfg.vcs()) - 1) as u32;
    match cfg.vc_classes() {
        Some(map) => {
            let classes = map.iter().copied().max().unwrap_or(0) as usize + 1;
            (0..classes).map(|c| map.iter().enumerate().filter(|&(_, &k)| k as usize == c).fold(0, |a, (u, _)| a | 1 << u)).collect()
        }
        None => vec![all],
    }
}

/// The allowed-VC rows of routers' configurations, one mask per code.
pub fn avc_rows(configs: &[wormqos_config::RouterConfig], codes: usize) -> Vec<Vec<u32>> {
    configs.iter().map(|c| (0..codes as u64).map(|d| c.route_vcs(d)).collect()).collect()
}

/// Runs the checks on a validated experiment's own tables.
pub fn check_experiment(v: &crate::Validated) -> Result<(), CdgError> {
    let codes = v.net.routes.first().map_or(0, Vec::len);
    let avc = avc_rows(&v.configs, codes);
    let class_vcs = class_vc_sets(&v.configs[0]);
    check(&v.net, &Tables { routes: &v.net.routes, links: &v.net.route_links, avc: &avc, vcs: v.configs[0].vcs(), class_vcs: &class_vcs })
}

//! Deadlock detection on a snapshot of the network: the input VCs that can
//! never move again.
//!
//! The engine's stall watchdog (`run.stall_cycles`) only sees a network in
//! which *no* flit moves. A deadlock of part of the network (a cycle of
//! worms waiting around some rings while the rest still delivers) escapes
//! it, and a run then reports a falling accepted throughput as if the
//! network were merely saturated. This module finds such parts.
//!
//! Each non-idle input VC X of every router is either *free* (it can move a
//! flit now, or will without any other VC moving first) or *blocked* by a
//! set of other input VCs, one of which must move before X can
//! (docs/microarchitecture.md §6):
//! - ROUTED at output o: every output VC of o it may take (`route_vcs` of its
//!   destination, ∩ its class's VCs in TR/NP) is allocated; blocked by their
//!   owners (an output VC is freed only when its owner's tail crosses) or,
//!   for a VC draining under atomic reallocation (§6 stage 3), by the
//!   downstream input VC its message's flits must leave.
//! - ACTIVE holding (o, u) with flits: output buffer (o, u) full, no credit,
//!   and the downstream input VC u full with no credit on its way back;
//!   blocked by that downstream VC. An endpoint on o always drains.
//! - ACTIVE and empty (the rest of its message upstream): nothing in the
//!   upstream output buffer or on the link; blocked by the upstream input VC
//!   that owns the output VC feeding it.
//!
//! The deadlocked VCs are the largest set of blocked VCs all of whose
//! blockers are in the set (a greatest fixed point): none of them can move
//! until another one does. That is a proof for the non-preemptive routers;
//! preemption (§9.4) can free an output VC in other ways, so the engine
//! also requires the set to persist to the next check before it reports.

use crate::topology::{Network, Peer};
use std::collections::HashMap;
use wormqos_config::RouterConfig;
use wormqos_sim::{Router, VcState, Width};

/// An input VC: (router, input port, VC).
pub type VcRef = (usize, usize, usize);

/// Why a deadlocked VC waits (for the report).
#[derive(Clone, Debug, PartialEq)]
enum Wait {
    /// ROUTED at output port `route`, every allowed output VC held.
    OutputVc { route: usize, allowed: u32 },
    /// ACTIVE, output VC (route, ovc) out of credits, downstream VC full.
    Credits { route: usize, ovc: usize },
    /// ACTIVE and empty, the message's next flit stuck upstream.
    Upstream,
}

/// A deadlocked set: its VCs and one cycle of waits through it.
#[derive(Clone, Debug, PartialEq)]
pub struct Deadlock {
    pub vcs: Vec<VcRef>,
    /// A cycle of waits: each entry waits for the next, the last for the first.
    pub cycle: Vec<VcRef>,
    report: Vec<String>,
}

impl Deadlock {
    /// The cycle, one line per VC: what it holds and what it waits for.
    pub fn report(&self) -> String {
        self.report.join("\n")
    }
}

/// The input VCs the router's `(p, v)` waits for, or `None` if it is free.
fn blockers<X: Width>(routers: &[Router<X>], configs: &[RouterConfig], net: &Network, (r, p, v): VcRef) -> Option<(Wait, Vec<VcRef>)> {
    let router = &routers[r];
    let cfg = &configs[r];
    let m = cfg.vcs();
    let owner = |rr: usize, o: usize, u: usize| {
        let i = routers[rr].owner(o, u).unwrap_or(0);
        (rr, i / m, i % m)
    };
    match router.vc_state(p, v) {
        VcState::Idle => None,
        VcState::Routed { route } => {
            let hdr = router.header_register(p, v)?;
            // A programmable table may have been rewritten (the safe
            // procedure writes it only when no VC is routed, so the table
            // now is the one RC read).
            let mut allowed = if cfg.programmable() {
                router.route_table().get(hdr.dest as usize).map_or(0, |e| e.1)
            } else {
                cfg.route_vcs(hdr.dest as u64)
            };
            if let Some(part) = cfg.vc_classes() {
                let class = if hdr.class < cfg.traffic_classes() { hdr.class } else { 0 };
                allowed &= part.iter().enumerate().filter(|(_, &c)| c == class).fold(0, |a, (u, _)| a | 1 << u);
            }
            let held: Vec<usize> = (0..m).filter(|&u| allowed >> u & 1 == 1).collect();
            if held.iter().any(|&u| !router.allocated(route, u)) {
                return None;
            }
            let mut by = Vec::with_capacity(held.len());
            for &u in &held {
                if !router.draining(route, u) {
                    by.push(owner(r, route, u));
                } else if let Peer::Router { router: down, port } = net.out_link[r][route] {
                    by.push((down, port, u));
                } else {
                    return None; // an endpoint always drains
                }
            }
            Some((Wait::OutputVc { route, allowed }, by))
        }
        VcState::Active { route, ovc } if router.input_occupancy(p, v) > 0 => {
            if router.output_occupancy(route, ovc) < cfg.output_buffer_depth() || router.credits(route, ovc) > 0 {
                return None;
            }
            let Peer::Router { router: down, port } = net.out_link[r][route] else { return None };
            let full = routers[down].input_free(port, ovc) == 0;
            let credit_on_its_way = routers[down].outputs().credits[port] >> ovc & 1 == 1;
            (full && !credit_on_its_way).then(|| (Wait::Credits { route, ovc }, vec![(down, port, ovc)]))
        }
        VcState::Active { .. } => {
            let Peer::Router { router: up, port: o } = net.in_link[r][p] else { return None };
            let upr = &routers[up];
            let flit = upr.outputs().flits[o];
            // A draining upstream VC: the message's tail is already past it.
            let gone = !upr.allocated(o, v) || upr.draining(o, v);
            if upr.output_occupancy(o, v) > 0 || (flit.valid && flit.vc as usize == v) || gone {
                return None;
            }
            Some((Wait::Upstream, vec![owner(up, o, v)]))
        }
    }
}

/// The deadlocked input VCs of the network as it is between two cycles,
/// or `None` if there are none.
pub fn find<X: Width>(routers: &[Router<X>], configs: &[RouterConfig], net: &Network) -> Option<Deadlock> {
    let mut waits: HashMap<VcRef, (Wait, Vec<VcRef>)> = HashMap::new();
    for (r, router) in routers.iter().enumerate() {
        let cfg = &configs[r];
        for (p, v) in (0..cfg.ports()).flat_map(|p| (0..cfg.vcs()).map(move |v| (p, v))) {
            if router.vc_state(p, v) == VcState::Idle {
                continue;
            }
            if let Some(w) = blockers(routers, configs, net, (r, p, v)) {
                waits.insert((r, p, v), w);
            }
        }
    }
    // Greatest fixed point: drop every VC that waits for one outside the set.
    loop {
        let out: Vec<VcRef> = waits.iter().filter(|(_, (_, b))| b.iter().any(|x| !waits.contains_key(x))).map(|(k, _)| *k).collect();
        if out.is_empty() {
            break;
        }
        for k in out {
            waits.remove(&k);
        }
    }
    let mut vcs: Vec<VcRef> = waits.keys().copied().collect();
    vcs.sort_unstable();
    let start = *vcs.first()?;
    // Every member waits for members only: following the first blocker
    // from any member returns to a VC already seen.
    let mut path = vec![start];
    let cycle = loop {
        let next = waits[path.last().unwrap()].1[0];
        if let Some(k) = path.iter().position(|&x| x == next) {
            break path.split_off(k);
        }
        path.push(next);
    };
    let report = cycle
        .iter()
        .map(|&(r, p, v)| {
            let occ = routers[r].input_occupancy(p, v);
            let dest = routers[r].header_register(p, v).map_or(0, |h| h.dest);
            let why = match &waits[&(r, p, v)].0 {
                Wait::OutputVc { route, allowed } => format!("waits for output {route}, every VC of {allowed:#b} held"),
                Wait::Credits { route, ovc } => format!("holds output {route} VC {ovc}: buffer full, no credits"),
                Wait::Upstream => "empty, its message stuck upstream".to_string(),
            };
            format!("  router {r} input {p} VC {v} ({occ} flits, message to {dest}): {why}")
        })
        .collect();
    Some(Deadlock { vcs, cycle, report })
}

//! The composed golden model of a whole network: the network's routers
//! (`wormqos_sim::Router`), wired exactly as the generated network top
//! (`wormqos_hdl::network`), stepped one cycle at a time from the endpoints'
//! inputs to the endpoints' outputs. To the outside it is one router whose
//! ports are the network's endpoints (docs/integration.md, "A whole
//! network"), so the lockstep testbench drives it like a single router.
//!
//! Timing: in cycle t a router-to-router link carries what its source
//! register held `link_latency` cycles earlier (flits forward, credits
//! backward); with `link_latency = 0` a router's output register drives its
//! neighbour's input directly. The network simulator's engine (`network.rs`)
//! wires its links the same way for the experiment's
//! `topology.link_latency`, with its own registers; `tests/composed.rs`
//! holds the two equal flit by flit at 0, 1 and 2 registers per link.

use crate::topology::{Network, Peer};
use std::collections::VecDeque;
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs, RouterOutputs};

/// A network of golden-model routers seen from its endpoints.
pub struct ComposedNetwork {
    routers: Vec<Router>,
    inputs: Vec<RouterInputs>,
    in_link: Vec<Vec<Peer>>,
    out_link: Vec<Vec<Peer>>,
    endpoint_at: Vec<(usize, usize)>,
    latency: usize,
    /// `flit_pipe[r][p]`: the registers of the link into input port p of
    /// router r, newest first (empty for endpoint links and latency 0).
    flit_pipe: Vec<Vec<VecDeque<LinkFlit>>>,
    /// `credit_pipe[r][o]`: the registers carrying credits back to output
    /// port o of router r, each with its credit-lane word (per-lane
    /// credits, §9.4 *Credits*; 0 otherwise).
    credit_pipe: Vec<Vec<VecDeque<(u32, u64)>>>,
    outputs: RouterOutputs,
}

impl ComposedNetwork {
    /// The routers of `configs` (one per router of `net`, as
    /// `experiment::Validated` builds them) wired as `net` says.
    pub fn new(net: &Network, configs: &[RouterConfig], link_latency: u32) -> ComposedNetwork {
        assert_eq!(net.routers, configs.len(), "one configuration per router");
        let latency = link_latency as usize;
        let pipes = |r: usize, links: &[Vec<Peer>]| -> Vec<bool> { links[r].iter().map(|p| matches!(p, Peer::Router { .. })).collect() };
        let flit_pipe = (0..net.routers)
            .map(|r| pipes(r, &net.in_link).into_iter().map(|l| if l { VecDeque::from(vec![LinkFlit::IDLE; latency]) } else { VecDeque::new() }).collect())
            .collect();
        let credit_pipe = (0..net.routers)
            .map(|r| pipes(r, &net.out_link).into_iter().map(|l| if l { VecDeque::from(vec![(0, 0); latency]) } else { VecDeque::new() }).collect())
            .collect();
        let e = net.endpoints();
        let mut c = ComposedNetwork {
            routers: configs.iter().map(Router::new).collect(),
            inputs: configs.iter().map(RouterInputs::idle).collect(),
            in_link: net.in_link.clone(),
            out_link: net.out_link.clone(),
            endpoint_at: net.endpoint_at.clone(),
            latency,
            flit_pipe,
            credit_pipe,
            outputs: RouterOutputs { flits: vec![LinkFlit::IDLE; e], credits: vec![0; e], credit_lanes: vec![0; e] },
        };
        c.collect_outputs();
        c
    }

    pub fn routers(&self) -> &[Router] {
        &self.routers
    }

    /// Synchronous reset of every router and link register.
    pub fn reset(&mut self) {
        for r in &mut self.routers {
            r.reset();
        }
        for q in self.flit_pipe.iter_mut().flatten() {
            q.iter_mut().for_each(|f| *f = LinkFlit::IDLE);
        }
        for q in self.credit_pipe.iter_mut().flatten() {
            q.iter_mut().for_each(|c| *c = (0, 0));
        }
        self.collect_outputs();
    }

    /// The endpoints' outputs of the current cycle: flit e leaves the
    /// network at endpoint e, credit word e returns to endpoint e's source.
    pub fn outputs(&self) -> &RouterOutputs {
        &self.outputs
    }

    /// Applies the endpoints' inputs of this cycle (flit e from endpoint e's
    /// source, credit word e from its sink) and advances one cycle.
    pub fn step(&mut self, ins: &RouterInputs) {
        let e = self.endpoint_at.len();
        assert!(ins.flits.len() == e && ins.credits.len() == e, "one flit and one credit word per endpoint");
        for r in 0..self.routers.len() {
            for p in 0..self.in_link[r].len() {
                self.inputs[r].flits[p] = match self.in_link[r][p] {
                    Peer::Unused => LinkFlit::IDLE,
                    Peer::Endpoint(k) => ins.flits[k],
                    Peer::Router { router, port } => match self.flit_pipe[r][p].back() {
                        Some(f) => *f,
                        None => self.routers[router].outputs().flits[port],
                    },
                };
                let (credits, lanes) = match self.out_link[r][p] {
                    Peer::Unused => (0, 0),
                    Peer::Endpoint(k) => (ins.credits[k], ins.credit_lanes.get(k).copied().unwrap_or(0)),
                    Peer::Router { router, port } => match self.credit_pipe[r][p].back() {
                        Some(c) => *c,
                        None => {
                            let o = self.routers[router].outputs();
                            (o.credits[port], o.credit_lanes[port])
                        }
                    },
                };
                self.inputs[r].credits[p] = credits;
                self.inputs[r].credit_lanes[p] = lanes;
            }
        }
        if self.latency > 0 {
            self.shift_links();
        }
        for (router, inputs) in self.routers.iter_mut().zip(&self.inputs) {
            router.step(inputs);
        }
        // Router w.router's write port (docs/integration.md, "Changing
        // routes at run time"), at the end of the cycle as in one router.
        if let Some(w) = ins.route_write {
            if let Some(r) = self.routers.get_mut(w.router as usize) {
                r.write_route(w);
            }
        }
        self.collect_outputs();
    }

    /// Every link register takes its predecessor's value; the first takes
    /// the source router's registered output of this cycle.
    fn shift_links(&mut self) {
        for r in 0..self.routers.len() {
            for p in 0..self.in_link[r].len() {
                if let Peer::Router { router, port } = self.in_link[r][p] {
                    let q = &mut self.flit_pipe[r][p];
                    q.pop_back();
                    q.push_front(self.routers[router].outputs().flits[port]);
                }
                if let Peer::Router { router, port } = self.out_link[r][p] {
                    let q = &mut self.credit_pipe[r][p];
                    q.pop_back();
                    let o = self.routers[router].outputs();
                    q.push_front((o.credits[port], o.credit_lanes[port]));
                }
            }
        }
    }

    fn collect_outputs(&mut self) {
        for (k, &(r, p)) in self.endpoint_at.iter().enumerate() {
            let o = self.routers[r].outputs();
            self.outputs.flits[k] = o.flits[p];
            self.outputs.credits[k] = o.credits[p];
            self.outputs.credit_lanes[k] = o.credit_lanes[p];
        }
    }
}

/// The network as the fabric of a system top with a NIC at every endpoint
/// (`wormqos_sim::nic::system::NicSystem`, docs/integration.md "A whole
/// network with a NIC at every endpoint").
impl wormqos_sim::nic::system::Fabric for ComposedNetwork {
    fn reset(&mut self) {
        ComposedNetwork::reset(self)
    }
    fn outputs(&self) -> &RouterOutputs {
        ComposedNetwork::outputs(self)
    }
    fn step(&mut self, inputs: &RouterInputs) {
        ComposedNetwork::step(self, inputs)
    }
    fn flits_dropped(&self) -> u64 {
        self.routers.iter().map(|r| r.stats().flits_dropped()).sum()
    }
}

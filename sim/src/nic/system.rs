//! The composed golden model of the system top (`<name>_system`,
//! docs/nic.md §16): the router model and one NIC model per router port,
//! wired as the RTL wires them. The router can be any [`Fabric`]: a whole
//! network seen from its endpoints (`wormqos_netsim::composed`) gives the
//! model of the network top with a NIC at every endpoint. NIC k's injection link is the router's
//! input port k, the router's output port k is NIC k's ejection link, and
//! the credits of both directions go back the same way. Router outputs
//! and NIC link outputs are registers, so a cycle has no loop: the NICs
//! settle on the router's start-of-cycle outputs and the host inputs, the
//! router takes the NICs' links, then everything steps.

use super::ports::{AxiIn, AxiLiteIn, AxiLiteOut, AxiOut, NicInputs, NicOutputs};
use super::Nic;
use crate::link::{RouterInputs, RouterOutputs};
use crate::router::Router;
use wormqos_config::RouterConfig;

/// One NIC's host-side inputs (its `p<k>_` ports that are inputs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HostIn {
    pub axil: AxiLiteIn,
    pub axi: AxiIn,
}

/// One NIC's host-side outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HostOut {
    pub irq: bool,
    pub axil: AxiLiteOut,
    pub axi: AxiOut,
}

impl HostOut {
    pub fn of(o: &NicOutputs) -> HostOut {
        HostOut { irq: o.irq, axil: o.axil, axi: o.axi }
    }
}

/// What the NICs are attached to: one router, or anything that behaves as
/// one router whose ports are its endpoints (a composed network). Its
/// outputs are registers: they do not depend on this cycle's inputs.
pub trait Fabric {
    fn reset(&mut self);
    /// The outputs of the current cycle (flit and credit word per port).
    fn outputs(&self) -> &RouterOutputs;
    /// Applies this cycle's inputs and advances one cycle.
    fn step(&mut self, inputs: &RouterInputs);
    /// Flits dropped because they arrived without a credit: 0 in a correct system.
    fn flits_dropped(&self) -> u64;
}

impl Fabric for Router {
    fn reset(&mut self) {
        Router::reset(self)
    }
    fn outputs(&self) -> &RouterOutputs {
        Router::outputs(self)
    }
    fn step(&mut self, inputs: &RouterInputs) {
        Router::step(self, inputs)
    }
    fn flits_dropped(&self) -> u64 {
        self.stats().flits_dropped()
    }
}

pub struct NicSystem<F: Fabric = Router> {
    router: F,
    nics: Vec<Nic>,
    nic_in: Vec<NicInputs>,
    router_in: RouterInputs,
    /// Flits the NICs sent into a router lane above 0 (per-lane credits,
    /// docs/nic.md §9.1), since the last reset.
    lane_flits: u64,
}

impl NicSystem<Router> {
    /// `cfg` must have a `[nic]` section.
    pub fn new(cfg: &RouterConfig) -> NicSystem {
        NicSystem::on(Router::new(cfg), cfg)
    }
}

impl<F: Fabric> NicSystem<F> {
    /// One NIC of `cfg` (which must have a `[nic]` section) on each of
    /// `cfg.ports()` ports of `fabric`.
    pub fn on(fabric: F, cfg: &RouterConfig) -> NicSystem<F> {
        let n = cfg.ports();
        assert_eq!(fabric.outputs().flits.len(), n, "one fabric port per NIC");
        NicSystem {
            router: fabric,
            nics: (0..n).map(|_| Nic::new(cfg)).collect(),
            nic_in: vec![NicInputs::default(); n],
            router_in: RouterInputs::idle(cfg),
            lane_flits: 0,
        }
    }

    /// The fabric (router or network) the NICs are attached to.
    pub fn fabric(&self) -> &F {
        &self.router
    }

    pub fn ports(&self) -> usize {
        self.nics.len()
    }

    pub fn reset(&mut self) {
        self.router.reset();
        self.nics.iter_mut().for_each(Nic::reset);
        self.lane_flits = 0;
    }

    /// Flits the NICs sent into a router input lane above 0 since the last
    /// reset: 0 unless `per_lane` credits let a NIC open a lane (§9.1).
    pub fn nic_flits_above_lane_0(&self) -> u64 {
        self.lane_flits
    }

    /// The host-side outputs of this cycle given the host inputs (one per
    /// port); also prepares the router's inputs for [`NicSystem::step`].
    pub fn settle(&mut self, host: &[HostIn]) -> Vec<HostOut> {
        assert_eq!(host.len(), self.nics.len(), "one host input per port");
        let ro = self.router.outputs();
        let mut out = Vec::with_capacity(host.len());
        for (k, nic) in self.nics.iter_mut().enumerate() {
            let i = NicInputs {
                axil: host[k].axil,
                axi: host[k].axi,
                inj_credit: ro.credits[k],
                inj_credit_lanes: ro.credit_lanes[k],
                ej: ro.flits[k],
            };
            let o = nic.settle(&i);
            self.router_in.flits[k] = o.inj;
            self.router_in.credits[k] = o.ej_credit;
            self.router_in.credit_lanes[k] = o.ej_credit_lanes;
            self.nic_in[k] = i;
            out.push(HostOut::of(o));
        }
        out
    }

    /// The rising edge that ends the cycle.
    pub fn step(&mut self, host: &[HostIn]) {
        self.settle(host);
        self.lane_flits += self.router_in.flits.iter().filter(|f| f.valid && f.lane > 0).count() as u64;
        for (nic, i) in self.nics.iter_mut().zip(&self.nic_in) {
            nic.step(i);
        }
        self.router.step(&self.router_in);
    }

    /// Flits the router dropped (a NIC sent without a credit): 0 in a correct system.
    pub fn flits_dropped(&self) -> u64 {
        self.router.flits_dropped()
    }
}

//! Whole networks as one device: the generated network top
//! (`wormqos_hdl::network`) Verilated, and the composed golden model
//! (`wormqos_netsim::composed`), both seen as one router whose ports are the
//! network's endpoints, so that the lockstep runner, the stimulus and the
//! conservation scoreboard drive and check them unchanged.
//!
//! What they read from a configuration comes from [`endpoint_config`]: a
//! single switch with a port per endpoint, identity routes, the routers'
//! VCs, widths, mode and the depths an endpoint sees (its router's input
//! depth, its sink's credits).

use anyhow::{Context, Result};
use wormqos_config::{ConfigFile, RouterConfig, SynthesisParams, Topology};
use wormqos_hdl::network::{network_top_name, Attach, NetworkDesign, NetworkMutant};
use wormqos_hdl::GeneratedFile;
use wormqos_netsim::composed::ComposedNetwork;
use wormqos_netsim::topology::Peer;
use wormqos_netsim::Validated;
use wormqos_sim::{RouterInputs, RouterOutputs};

use crate::dut::Dut;
use crate::stimulus::TrafficParams;
use crate::verilator::shim::PortMap;
use crate::verilator::system::VerilatedSystem;
use crate::verilator::VerilatedRouter;
use wormqos_hdl::system::{generate_network_system, system_top_name};
use wormqos_hdl::NicFault;
use wormqos_sim::nic::system::NicSystem;

/// The network's name: the experiment's, as its routers' module prefixes
/// `<name>_r<i>` carry it.
pub fn network_name(v: &Validated) -> String {
    let first = v.configs[0].name();
    first.strip_suffix("_r0").unwrap_or(first).to_string()
}

fn attach(p: Peer) -> Attach {
    match p {
        Peer::Unused => Attach::Unused,
        Peer::Endpoint(e) => Attach::Endpoint(e),
        Peer::Router { router, port } => Attach::Router { router, port },
    }
}

/// The experiment's network as the generator takes it.
pub fn design(v: &Validated, link_latency: u32) -> NetworkDesign {
    let map = |links: &[Vec<Peer>]| links.iter().map(|l| l.iter().copied().map(attach).collect()).collect();
    NetworkDesign {
        name: network_name(v),
        routers: v.configs.clone(),
        in_link: map(&v.net.in_link),
        out_link: map(&v.net.out_link),
        endpoint_at: v.net.endpoint_at.clone(),
        link_latency,
    }
}

/// The whole network seen from its endpoints as one router (see the module
/// docs). Its `output_buffer_depth` is the largest allowed: the scoreboard
/// lets a message overtake an older one of its input VC once that one is
/// fully injected and at most this many of its flits are undelivered
/// (scoreboard.rs), and inside a network the older message may wait,
/// whole, in any router on the way.
pub fn endpoint_config(v: &Validated) -> Result<RouterConfig> {
    let c0 = &v.configs[0];
    let mut router = c0.file().router.clone();
    router.output_buffer_depth = 256;
    one_switch(v, router, None)
}

/// The configuration of the NIC at every endpoint
/// (`topology.endpoint_ports = "nic"`): the network seen as one switch as in
/// [`endpoint_config`] (with the routers' own output depth), with the
/// `[nic]` section the experiment's `[nic]` gives
/// (`NicSpec::hardware_params`). An error names the `[nic]` field.
pub fn nic_endpoint_config(v: &Validated) -> Result<RouterConfig> {
    let nic = v.exp.nic.as_ref().with_context(|| format!("{}: NICs at the endpoints need a [nic] section", v.file))?;
    one_switch(v, v.configs[0].file().router.clone(), Some(nic.hardware_params()))
}

/// A switch of `router` with a port per endpoint and the depths an
/// endpoint sees.
fn one_switch(v: &Validated, mut router: wormqos_config::RouterParams, nic: Option<wormqos_config::nic::NicParams>) -> Result<RouterConfig> {
    router.ports = v.net.endpoints() as u32;
    router.downstream_buffer_depth = Some(v.configs[0].downstream_buffer_depth() as u32);
    // The endpoints' view has no table to write (a programmable network's
    // write ports are per router, outside this view).
    router.routing = wormqos_config::Routing::Fixed;
    let file = ConfigFile {
        name: network_name(v),
        router,
        topology: Topology::SingleSwitch { routes: None, route_vcs: None },
        synthesis: SynthesisParams::default(),
        nic,
    };
    RouterConfig::new(file).with_context(|| format!("{}: the network seen as one {}-port switch", v.file, v.net.endpoints()))
}

/// Random traffic for a network: the default mix with no destination codes
/// beyond the endpoints (a router sends those to its own port 0, so where
/// they leave depends on the source, which one switch cannot express).
pub fn network_traffic() -> TrafficParams {
    TrafficParams { bad_dest_prob: 0.0, ..TrafficParams::default() }
}

/// The network's Verilog (every router, then the top).
pub fn generate(v: &Validated, link_latency: u32, mutant: Option<NetworkMutant>) -> Result<Vec<GeneratedFile>> {
    Ok(wormqos_hdl::network::generate_network(&design(v, link_latency), mutant)?)
}

/// The network top Verilated, driven as one router with [`endpoint_config`]'s ports.
/// A mutated top is compiled for a short run (the design's C++ at -O0,
/// [`VerilatedRouter::build_quick`]): a planted bug runs only until it is
/// caught, a few thousand cycles, where the build time dominates.
pub fn verilate(v: &Validated, link_latency: u32, mutant: Option<NetworkMutant>) -> Result<VerilatedRouter> {
    let files = generate(v, link_latency, mutant)?;
    let cfg = endpoint_config(v)?;
    let top = network_top_name(&network_name(v));
    let c0 = &v.configs[0];
    let map = if c0.programmable() {
        let pw = wormqos_config::index_width(c0.ports() as u32) as usize;
        PortMap::new(&cfg).with_network_writes(v.net.routers, c0.header().dest.width as usize, pw, c0.vcs())
    } else {
        PortMap::new(&cfg)
    };
    VerilatedRouter::build_top_with(&cfg, &files, &top, map, mutant.is_some())
}

/// The network top with a NIC at every endpoint (`<name>_system`, `mutant`
/// in the network top and `fault` in every NIC, if any), Verilated.
pub fn verilate_system(v: &Validated, mutant: Option<NetworkMutant>, fault: Option<NicFault>) -> Result<VerilatedSystem> {
    let cfg = nic_endpoint_config(v)?;
    let files = generate_network_system(&design(v, v.exp.topology.link_latency), &cfg, mutant, fault)?;
    // A planted bug runs only until it is caught: compiled for a short run.
    let quick = mutant.is_some() || fault.is_some();
    VerilatedSystem::build_top(&cfg, &files, &system_top_name(&cfg), quick)
}

/// The composed golden model of the network with a NIC at every endpoint:
/// the network's routers ([`composed`]) with the NIC model on every
/// endpoint (`NicSystem`), driven from the hosts' side.
pub fn composed_system(v: &Validated) -> Result<NicSystem<ComposedNetwork>> {
    let cfg = nic_endpoint_config(v)?;
    Ok(NicSystem::on(composed(v, v.exp.topology.link_latency), &cfg))
}

/// The composed golden model of the experiment's network.
pub fn composed(v: &Validated, link_latency: u32) -> ComposedNetwork {
    ComposedNetwork::new(&v.net, &v.configs, link_latency)
}

impl Dut for ComposedNetwork {
    fn reset(&mut self) {
        ComposedNetwork::reset(self)
    }
    fn outputs(&mut self) -> &RouterOutputs {
        ComposedNetwork::outputs(self)
    }
    fn step(&mut self, inputs: &RouterInputs) {
        ComposedNetwork::step(self, inputs)
    }
}

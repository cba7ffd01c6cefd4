//! What the flow synthesizes: one generated top module with its files. The
//! scripts, constraints, FuseSoC core and reports need only this, so one flow
//! serves a router, a NIC and a whole network alike.

use anyhow::Context;
use wormqos_config::RouterConfig;
use wormqos_hdl::GeneratedFile;

/// The kind of generated IP, which names the FuseSoC library
/// (`wormqos:<library>:<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Router,
    Nic,
    /// A router with one NIC per port (docs/nic.md §16).
    System,
    Network,
}

impl Unit {
    pub fn library(self) -> &'static str {
        match self {
            Unit::Router => "router",
            Unit::Nic => "nic",
            Unit::System => "system",
            Unit::Network => "network",
        }
    }
}

/// A synthesizable design: the top module, the files that define it (leaf
/// modules first), and the parameters the constraints need.
#[derive(Clone, Debug)]
pub struct Design {
    /// The configuration's or experiment's name (report titles, the VLNV).
    pub name: String,
    pub unit: Unit,
    /// The top module; `<top>.v` is among `rtl`.
    pub top: String,
    /// `[synthesis] target_mhz` of the configuration.
    pub target_mhz: u32,
    pub rtl: Vec<GeneratedFile>,
}

impl Design {
    /// The router of `cfg`.
    pub fn router(cfg: &RouterConfig) -> anyhow::Result<Design> {
        Ok(Design {
            name: cfg.name().to_string(),
            unit: Unit::Router,
            top: wormqos_hdl::top_module_name(cfg),
            target_mhz: cfg.target_mhz(),
            rtl: wormqos_hdl::generate(cfg, None).context("generating the router's Verilog")?,
        })
    }

    /// The NIC of `cfg` (docs/nic.md); an error if it has no `[nic]` section.
    pub fn nic(cfg: &RouterConfig) -> anyhow::Result<Design> {
        anyhow::ensure!(cfg.nic().is_some(), "configuration `{}` has no [nic] section, so it has no NIC to synthesize", cfg.name());
        Ok(Design {
            name: cfg.name().to_string(),
            unit: Unit::Nic,
            top: wormqos_hdl::nic_module_name(cfg),
            target_mhz: cfg.target_mhz(),
            rtl: wormqos_hdl::generate_nic(cfg, None).context("generating the NIC's Verilog")?,
        })
    }

    /// The system top of `cfg`: its router and one NIC per port; an error if
    /// it has no `[nic]` section.
    pub fn system(cfg: &RouterConfig) -> anyhow::Result<Design> {
        anyhow::ensure!(cfg.nic().is_some(), "configuration `{}` has no [nic] section, so it has no system top", cfg.name());
        Ok(Design {
            name: cfg.name().to_string(),
            unit: Unit::System,
            top: wormqos_hdl::system::system_top_name(cfg),
            target_mhz: cfg.target_mhz(),
            rtl: wormqos_hdl::system::generate_system(cfg, None).context("generating the system top's Verilog")?,
        })
    }

    /// The names of the RTL files, in order.
    pub fn rtl_names(&self) -> Vec<String> {
        self.rtl.iter().map(|f| f.file_name.clone()).collect()
    }

    /// Clock period in ns for the target frequency.
    pub fn period_ns(&self) -> f64 {
        1000.0 / self.target_mhz as f64
    }
}

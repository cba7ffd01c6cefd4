//! Typed Verilog-2001 emitter and the wormhole VC router generator.

use wormqos_config::RouterConfig;

/// One generated Verilog file (one module per file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    pub file_name: String,
    pub text: String,
}

/// Name of the router's top-level module.
pub fn top_module_name(cfg: &RouterConfig) -> String {
    format!("{}_router", cfg.name())
}

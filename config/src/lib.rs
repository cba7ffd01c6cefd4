//! The single configuration type shared by the Verilog generator, the golden
//! model and the simulators.
//!
//! A [`RouterConfig`] is only obtainable through [`RouterConfig::from_toml_str`],
//! [`RouterConfig::from_file`] or [`RouterConfig::new`], all of which validate, so
//! every consumer may rely on the invariants documented on each accessor.
//! Validation errors name the offending field and its allowed range.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// Credit round trip of the pipeline (docs/microarchitecture.md, "Credit loop"):
/// the smallest input buffer that lets one VC stream at one flit per cycle.
pub const CREDIT_ROUND_TRIP: u32 = 4;
/// Smallest output VC buffer that sustains one flit per cycle through stage 5.
pub const MIN_OUTPUT_BUFFER_DEPTH: u32 = 2;

pub const PORTS_RANGE: (u32, u32) = (2, 32);
pub const VCS_RANGE: (u32, u32) = (1, 16);
pub const FLIT_WIDTH_RANGE: (u32, u32) = (8, 256);
pub const INPUT_DEPTH_RANGE: (u32, u32) = (CREDIT_ROUND_TRIP, 256);
pub const OUTPUT_DEPTH_RANGE: (u32, u32) = (MIN_OUTPUT_BUFFER_DEPTH, 256);
pub const CLASSES_RANGE: (u32, u32) = (1, 8);
pub const VTICK_WIDTH_RANGE: (u32, u32) = (8, 32);
pub const CLOCK_WIDTH_RANGE: (u32, u32) = (8, 32);

/// Crossbar organisation (MediaWorm §III-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossbar {
    /// n×n crossbar with a VC multiplexer at each crossbar input (contention points A, B, C).
    Multiplexed,
    /// nm×nm crossbar: every input VC reaches its output VC directly (contention point C only).
    Full,
}

/// Flit scheduler at the router's scheduling point: (A) for the multiplexed
/// crossbar, (C) for the full crossbar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheduler {
    /// The traditional router: messages are served in the order they were
    /// granted their output VC (oldest first).
    Fifo,
    /// Rotating priority among eligible VCs.
    RoundRobin,
    /// Fine-Grained VirtualClock (MediaWorm §III-D, `003_…` §3.1): every flit
    /// is stamped `max(now, auxVC) + Vtick` of its message; smallest stamp wins;
    /// best effort only when no real-time flit is eligible.
    Virtualclock,
}

/// Where the router sits; decides the routing table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    /// One switch with one endpoint on every port. `routes`, when given, lists
    /// for every destination (endpoint id) the output port; by default
    /// destination d leaves on port d.
    SingleSwitch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        routes: Option<Vec<u32>>,
    },
}

impl Default for Topology {
    fn default() -> Self {
        Topology::SingleSwitch { routes: None }
    }
}

/// Router parameters as written in a configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouterParams {
    pub ports: u32,
    pub vcs: u32,
    pub flit_width: u32,
    pub input_buffer_depth: u32,
    pub output_buffer_depth: u32,
    /// Depth of the neighbour's input VC buffers, i.e. the initial credit count
    /// of each output VC. Defaults to `input_buffer_depth` (a network of equal routers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downstream_buffer_depth: Option<u32>,
    pub crossbar: Crossbar,
    pub scheduler: Scheduler,
    #[serde(default = "default_classes")]
    pub traffic_classes: u32,
    #[serde(default = "default_vtick_width")]
    pub vtick_width: u32,
    /// Width of the VirtualClock counters (`now`, auxVC, stamps); see
    /// docs/microarchitecture.md §8 for the rebasing rule it bounds.
    #[serde(default = "default_clock_width")]
    pub clock_width: u32,
}

fn default_classes() -> u32 {
    2
}
fn default_vtick_width() -> u32 {
    16
}
fn default_clock_width() -> u32 {
    16
}

/// The file format: `name`, `[router]`, optional `[topology]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub name: String,
    pub router: RouterParams,
    #[serde(default)]
    pub topology: Topology,
}

/// A field's value is outside what the router supports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    #[error("invalid configuration: field `{field}` = {value}: {allowed}")]
    Field {
        field: String,
        value: String,
        allowed: String,
    },
}

impl ConfigError {
    fn field(field: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        ConfigError::Field {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

/// Bit position and width of one header field inside the flit data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Field {
    pub lsb: u32,
    pub width: u32,
}

impl Field {
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// Extracts this field from flit data stored as little-endian 64-bit words.
    pub fn extract(&self, data: &[u64]) -> u64 {
        let mut v = 0u64;
        for i in 0..self.width {
            let bit = self.lsb + i;
            let w = data[(bit / 64) as usize];
            v |= ((w >> (bit % 64)) & 1) << i;
        }
        v
    }
    /// Writes `value` (truncated to the field width by the caller's contract) into `data`.
    pub fn insert(&self, data: &mut [u64], value: u64) {
        for i in 0..self.width {
            let bit = self.lsb + i;
            let word = &mut data[(bit / 64) as usize];
            let mask = 1u64 << (bit % 64);
            if (value >> i) & 1 == 1 {
                *word |= mask;
            } else {
                *word &= !mask;
            }
        }
    }
}

/// Layout of the header flit's data: destination, traffic class, Vtick, from bit 0 up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HeaderLayout {
    pub dest: Field,
    pub class: Field,
    pub vtick: Field,
}

impl HeaderLayout {
    pub fn width(&self) -> u32 {
        self.dest.width + self.class.width + self.vtick.width
    }
}

/// Number of bits needed to represent values 0..n-1, at least 1.
pub fn index_width(n: u32) -> u32 {
    if n <= 1 {
        1
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// A validated router configuration.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RouterConfig {
    file: ConfigFile,
    header: HeaderLayout,
    routes: Vec<u32>,
}

fn check_range(field: &str, v: u32, (lo, hi): (u32, u32)) -> Result<(), ConfigError> {
    if v < lo || v > hi {
        Err(ConfigError::field(field, v, format!("allowed range {lo}..={hi}")))
    } else {
        Ok(())
    }
}

impl RouterConfig {
    /// Validates a parsed file.
    pub fn new(file: ConfigFile) -> Result<Self, ConfigError> {
        let name = &file.name;
        let name_ok = !name.is_empty()
            && name.len() <= 48
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            return Err(ConfigError::field(
                "name",
                format!("{name:?}"),
                "1 to 48 characters, a letter followed by letters, digits or '_' (it prefixes Verilog module names)",
            ));
        }
        let r = &file.router;
        check_range("router.ports", r.ports, PORTS_RANGE)?;
        check_range("router.vcs", r.vcs, VCS_RANGE)?;
        check_range("router.flit_width", r.flit_width, FLIT_WIDTH_RANGE)?;
        if r.input_buffer_depth < CREDIT_ROUND_TRIP {
            return Err(ConfigError::field(
                "router.input_buffer_depth",
                r.input_buffer_depth,
                format!(
                    "allowed range {}..={} (below {CREDIT_ROUND_TRIP}, the credit round trip, a VC cannot stream)",
                    INPUT_DEPTH_RANGE.0, INPUT_DEPTH_RANGE.1
                ),
            ));
        }
        check_range("router.input_buffer_depth", r.input_buffer_depth, INPUT_DEPTH_RANGE)?;
        check_range("router.output_buffer_depth", r.output_buffer_depth, OUTPUT_DEPTH_RANGE)?;
        if let Some(d) = r.downstream_buffer_depth {
            check_range("router.downstream_buffer_depth", d, INPUT_DEPTH_RANGE)?;
        }
        check_range("router.traffic_classes", r.traffic_classes, CLASSES_RANGE)?;
        check_range("router.vtick_width", r.vtick_width, VTICK_WIDTH_RANGE)?;
        check_range("router.clock_width", r.clock_width, CLOCK_WIDTH_RANGE)?;
        if r.vtick_width > r.clock_width {
            return Err(ConfigError::field(
                "router.vtick_width",
                r.vtick_width,
                format!(
                    "a Vtick must fit the VirtualClock counters: allowed range {}..={} (router.clock_width)",
                    VTICK_WIDTH_RANGE.0, r.clock_width
                ),
            ));
        }

        let endpoints = match &file.topology {
            Topology::SingleSwitch { .. } => r.ports,
        };
        let dest = Field { lsb: 0, width: index_width(endpoints) };
        let class = Field { lsb: dest.lsb + dest.width, width: index_width(r.traffic_classes) };
        let vtick = Field { lsb: class.lsb + class.width, width: r.vtick_width };
        let header = HeaderLayout { dest, class, vtick };
        if header.width() > r.flit_width {
            return Err(ConfigError::field(
                "router.flit_width",
                r.flit_width,
                format!(
                    "the header needs {} bits (destination {} + class {} + vtick {}); allowed range {}..={}",
                    header.width(),
                    dest.width,
                    class.width,
                    vtick.width,
                    header.width().max(FLIT_WIDTH_RANGE.0),
                    FLIT_WIDTH_RANGE.1
                ),
            ));
        }

        let routes = match &file.topology {
            Topology::SingleSwitch { routes: None } => (0..endpoints).collect(),
            Topology::SingleSwitch { routes: Some(t) } => {
                if t.len() as u32 != endpoints {
                    return Err(ConfigError::field(
                        "topology.routes",
                        format!("{} entries", t.len()),
                        format!("one output port per destination: exactly {endpoints} entries"),
                    ));
                }
                for (d, &p) in t.iter().enumerate() {
                    if p >= r.ports {
                        return Err(ConfigError::field(
                            format!("topology.routes[{d}]"),
                            p,
                            format!("an output port: allowed range 0..={}", r.ports - 1),
                        ));
                    }
                }
                t.clone()
            }
        };
        Ok(RouterConfig { file, header, routes })
    }

    pub fn from_toml_str(text: &str, origin: &str) -> Result<Self, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| ConfigError::Parse {
            file: origin.to_string(),
            message: e.to_string(),
        })?;
        Self::new(file)
    }

    pub fn from_file(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
            file: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::from_toml_str(&text, &path.display().to_string())
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(&self.file).expect("a validated configuration serialises")
    }

    pub fn file(&self) -> &ConfigFile {
        &self.file
    }
    pub fn name(&self) -> &str {
        &self.file.name
    }
    /// Number of physical ports, 2..=32.
    pub fn ports(&self) -> usize {
        self.file.router.ports as usize
    }
    /// VCs per physical port, 1..=16.
    pub fn vcs(&self) -> usize {
        self.file.router.vcs as usize
    }
    /// Flit data width in bits, 8..=256, at least the header width.
    pub fn flit_width(&self) -> u32 {
        self.file.router.flit_width
    }
    /// Number of 64-bit words that hold one flit's data.
    pub fn flit_words(&self) -> usize {
        self.file.router.flit_width.div_ceil(64) as usize
    }
    pub fn input_buffer_depth(&self) -> usize {
        self.file.router.input_buffer_depth as usize
    }
    pub fn output_buffer_depth(&self) -> usize {
        self.file.router.output_buffer_depth as usize
    }
    /// Initial credit count of every output VC.
    pub fn downstream_buffer_depth(&self) -> usize {
        self.file
            .router
            .downstream_buffer_depth
            .unwrap_or(self.file.router.input_buffer_depth) as usize
    }
    pub fn crossbar(&self) -> Crossbar {
        self.file.router.crossbar
    }
    pub fn scheduler(&self) -> Scheduler {
        self.file.router.scheduler
    }
    pub fn traffic_classes(&self) -> u32 {
        self.file.router.traffic_classes
    }
    /// Width of the VirtualClock counters, 8..=32, at least `header().vtick.width`.
    pub fn clock_width(&self) -> u32 {
        self.file.router.clock_width
    }
    pub fn header(&self) -> HeaderLayout {
        self.header
    }
    /// Width of the `vc` field on a link.
    pub fn vc_width(&self) -> u32 {
        index_width(self.file.router.vcs)
    }
    /// Number of destinations (endpoints) the routing table covers.
    pub fn endpoints(&self) -> usize {
        self.routes.len()
    }
    /// Output port for each destination id 0..endpoints(). Destination codes
    /// at or above `endpoints()` route to port 0 (docs/microarchitecture.md).
    pub fn routes(&self) -> &[u32] {
        &self.routes
    }
    /// Output port for a destination code as carried in a header.
    pub fn route(&self, dest: u64) -> usize {
        self.routes.get(dest as usize).copied().unwrap_or(0) as usize
    }
}

impl fmt::Display for RouterConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_toml())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> String {
        r#"
name = "t"
[router]
ports = 5
vcs = 4
flit_width = 32
input_buffer_depth = 8
output_buffer_depth = 8
crossbar = "multiplexed"
scheduler = "round_robin"
"#
        .to_string()
    }

    fn err(text: &str) -> ConfigError {
        RouterConfig::from_toml_str(text, "t.toml").unwrap_err()
    }

    #[test]
    fn base_is_valid_and_derives_the_header() {
        let c = RouterConfig::from_toml_str(&base(), "t.toml").unwrap();
        let h = c.header();
        assert_eq!((h.dest.lsb, h.dest.width), (0, 3));
        assert_eq!((h.class.lsb, h.class.width), (3, 1));
        assert_eq!((h.vtick.lsb, h.vtick.width), (4, 16));
        assert_eq!(c.routes(), &[0, 1, 2, 3, 4]);
        assert_eq!(c.vc_width(), 2);
        assert_eq!(c.route(7), 0);
    }

    #[test]
    fn zero_ports_names_the_field_and_range() {
        let e = err(&base().replace("ports = 5", "ports = 0"));
        let msg = e.to_string();
        assert!(msg.contains("router.ports") && msg.contains("2..=32"), "{msg}");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let e = err(&base().replace("vcs = 4", "vcs = 4\nbogus = 1"));
        assert!(matches!(e, ConfigError::Parse { .. }));
        assert!(e.to_string().contains("bogus"), "{e}");
    }

    #[test]
    fn header_must_fit() {
        let e = err(&base().replace("flit_width = 32", "flit_width = 16"));
        let msg = e.to_string();
        assert!(msg.contains("router.flit_width") && msg.contains("20 bits"), "{msg}");
        // 20 bits is exactly enough
        RouterConfig::from_toml_str(&base().replace("flit_width = 32", "flit_width = 20"), "t").unwrap();
    }

    #[test]
    fn shallow_input_buffer_is_rejected_for_the_credit_loop() {
        let e = err(&base().replace("input_buffer_depth = 8", "input_buffer_depth = 3"));
        assert!(e.to_string().contains("credit round trip"), "{e}");
        RouterConfig::from_toml_str(&base().replace("input_buffer_depth = 8", "input_buffer_depth = 4"), "t").unwrap();
    }

    #[test]
    fn route_to_missing_port_is_rejected() {
        let text = base() + "[topology]\nkind = \"single_switch\"\nroutes = [0, 1, 2, 3, 5]\n";
        let msg = err(&text).to_string();
        assert!(msg.contains("topology.routes[4]") && msg.contains("0..=4"), "{msg}");
        let text = base() + "[topology]\nkind = \"single_switch\"\nroutes = [4, 3, 2, 1, 0]\n";
        let c = RouterConfig::from_toml_str(&text, "t").unwrap();
        assert_eq!(c.route(0), 4);
    }

    #[test]
    fn vtick_must_fit_the_clock() {
        let e = err(&base().replace("vcs = 4", "vcs = 4\nvtick_width = 20\nclock_width = 16"));
        let msg = e.to_string();
        assert!(msg.contains("router.vtick_width") && msg.contains("8..=16"), "{msg}");
        let e = err(&base().replace("vcs = 4", "vcs = 4\nclock_width = 40"));
        assert!(e.to_string().contains("router.clock_width") && e.to_string().contains("8..=32"), "{e}");
        let text = base().replace("vcs = 4", "vcs = 4\nvtick_width = 8\nclock_width = 8").replace("round_robin", "virtualclock");
        let c = RouterConfig::from_toml_str(&text, "t").unwrap();
        assert_eq!((c.clock_width(), c.scheduler()), (8, Scheduler::Virtualclock));
    }

    #[test]
    fn seventy_two_bit_flits_are_fine() {
        let c = RouterConfig::from_toml_str(&base().replace("flit_width = 32", "flit_width = 72"), "t").unwrap();
        assert_eq!(c.flit_words(), 2);
    }

    #[test]
    fn field_extract_insert_roundtrip_across_words() {
        let f = Field { lsb: 60, width: 10 };
        let mut d = [0u64; 2];
        f.insert(&mut d, 0x3a5);
        assert_eq!(f.extract(&d), 0x3a5);
        assert_eq!(d[0] >> 60, 0x5);
        assert_eq!(d[1], 0x3a);
    }

    #[test]
    fn toml_roundtrip() {
        let c = RouterConfig::from_toml_str(&base(), "t").unwrap();
        let again = RouterConfig::from_toml_str(&c.to_toml(), "t").unwrap();
        assert_eq!(c, again);
    }
}

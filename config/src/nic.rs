//! The `[nic]` section: parameters of the network interface that attaches a
//! host to one router port (docs/nic.md §2), their validation, and the
//! sizes derived from them and the router's configuration.

use serde::{Deserialize, Serialize};

use crate::{check_range, index_width, ConfigError, ConfigFile, HeaderLayout, RouterConfig};

pub const DOORBELL_DEPTH_RANGE: (u32, u32) = (2, 32);
pub const NIC_BUFFER_DEPTH_RANGE: (u32, u32) = (2, 256);
pub const MAX_MESSAGE_FLITS_RANGE: (u32, u32) = (1, 4096);
pub const NIC_BLOCK_SIZE_RANGE: (u32, u32) = (2, 64);
pub const MAX_BURST_RANGE: (u32, u32) = (1, 256);
pub const RX_CONTEXTS_RANGE: (u32, u32) = (1, 16);
pub const RX_QUEUE_DEPTH_RANGE: (u32, u32) = (2, 64);
/// Width of the per-sender message counter carried in every flit (§4).
pub const SEQ_WIDTH: u32 = 8;

/// The two NICs of `003_…` §5.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NicVariant {
    /// One FCFS doorbell queue, one shared send FIFO, whole messages in order.
    Traditional,
    /// Per-class doorbell queues, per-VC send queues, VirtualClock injection.
    Qos,
}

/// Granularity of the QoS NIC's injection scheduler (docs/nic.md §9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Injection {
    Flit,
    Block,
    Message,
}

impl Injection {
    pub fn as_str(&self) -> &'static str {
        match self {
            Injection::Flit => "flit",
            Injection::Block => "block",
            Injection::Message => "message",
        }
    }
}

/// The `[nic]` section as written in a configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicParams {
    pub variant: NicVariant,
    #[serde(default = "default_doorbell_depth")]
    pub doorbell_depth: u32,
    #[serde(default = "default_buffer_depth")]
    pub buffer_depth: u32,
    #[serde(default = "default_max_message_flits")]
    pub max_message_flits: u32,
    /// Default: `flit` for the QoS NIC, `message` for the traditional one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection: Option<Injection>,
    /// Only with `injection = "block"` (default 4 there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<u32>,
    #[serde(default = "default_axi_data_width")]
    pub axi_data_width: u32,
    #[serde(default = "default_max_burst")]
    pub max_burst: u32,
    #[serde(default = "default_rx_contexts")]
    pub rx_contexts: u32,
    #[serde(default = "default_rx_queue_depth")]
    pub rx_post_depth: u32,
    #[serde(default = "default_rx_queue_depth")]
    pub rx_completion_depth: u32,
}

impl NicParams {
    /// The section with only `variant` given: every other field its default.
    pub fn with_defaults(variant: NicVariant) -> NicParams {
        NicParams {
            variant,
            doorbell_depth: default_doorbell_depth(),
            buffer_depth: default_buffer_depth(),
            max_message_flits: default_max_message_flits(),
            injection: None,
            block_size: None,
            axi_data_width: default_axi_data_width(),
            max_burst: default_max_burst(),
            rx_contexts: default_rx_contexts(),
            rx_post_depth: default_rx_queue_depth(),
            rx_completion_depth: default_rx_queue_depth(),
        }
    }
}

fn default_doorbell_depth() -> u32 {
    4
}
fn default_buffer_depth() -> u32 {
    8
}
fn default_max_message_flits() -> u32 {
    64
}
fn default_axi_data_width() -> u32 {
    32
}
fn default_max_burst() -> u32 {
    16
}
fn default_rx_contexts() -> u32 {
    4
}
fn default_rx_queue_depth() -> u32 {
    8
}

/// The NIC's sizes, derived once from a validated configuration (the
/// symbols of docs/nic.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicConfig {
    pub variant: NicVariant,
    /// Q: doorbells per queue.
    pub doorbell_depth: u32,
    /// B: flits per VC send queue (qos).
    pub buffer_depth: u32,
    /// K_max: payload flits per message.
    pub max_message_flits: u32,
    pub injection: Injection,
    /// b of block-level injection (1 unless `injection = "block"`).
    pub block_size: u32,
    /// AXW.
    pub axi_data_width: u32,
    pub max_burst: u32,
    /// R.
    pub rx_contexts: u32,
    pub rx_post_depth: u32,
    pub rx_completion_depth: u32,
}

impl NicConfig {
    /// BB: bytes per AXI beat and per flit payload.
    pub fn beat_bytes(&self) -> u32 {
        self.axi_data_width / 8
    }
    /// IXW: width of a flit index 0..=K_max.
    pub fn index_width(&self) -> u32 {
        index_width(self.max_message_flits + 1)
    }
    /// TAGW for a destination field of `dw` bits: index, src, seq, poison.
    pub fn tag_width(&self, dw: u32) -> u32 {
        self.index_width() + dw + SEQ_WIDTH + 1
    }
    /// QN: number of send queues.
    pub fn send_queues(&self, vcs: u32) -> u32 {
        match self.variant {
            NicVariant::Traditional => 1,
            NicVariant::Qos => vcs,
        }
    }
    /// BQ: flits per send queue.
    pub fn send_queue_depth(&self, vcs: u32) -> u32 {
        match self.variant {
            NicVariant::Traditional => self.buffer_depth * vcs,
            NicVariant::Qos => self.buffer_depth,
        }
    }
}

impl NicParams {
    fn derive(&self) -> NicConfig {
        let injection = self.injection.unwrap_or(match self.variant {
            NicVariant::Traditional => Injection::Message,
            NicVariant::Qos => Injection::Flit,
        });
        let block_size = match injection {
            Injection::Block => self.block_size.unwrap_or(4),
            _ => 1,
        };
        NicConfig {
            variant: self.variant,
            doorbell_depth: self.doorbell_depth,
            buffer_depth: self.buffer_depth,
            max_message_flits: self.max_message_flits,
            injection,
            block_size,
            axi_data_width: self.axi_data_width,
            max_burst: self.max_burst,
            rx_contexts: self.rx_contexts,
            rx_post_depth: self.rx_post_depth,
            rx_completion_depth: self.rx_completion_depth,
        }
    }
}

/// Checks the `[nic]` section, if any, against its ranges and against the
/// router's flit (docs/nic.md §2, §4).
pub(crate) fn validate(file: &ConfigFile, header: &HeaderLayout) -> Result<(), ConfigError> {
    let Some(n) = &file.nic else { return Ok(()) };
    check_range("nic.doorbell_depth", n.doorbell_depth, DOORBELL_DEPTH_RANGE)?;
    check_range("nic.buffer_depth", n.buffer_depth, NIC_BUFFER_DEPTH_RANGE)?;
    check_range("nic.max_message_flits", n.max_message_flits, MAX_MESSAGE_FLITS_RANGE)?;
    if n.axi_data_width != 32 && n.axi_data_width != 64 {
        return Err(ConfigError::field("nic.axi_data_width", n.axi_data_width, "allowed values: 32, 64"));
    }
    check_range("nic.max_burst", n.max_burst, MAX_BURST_RANGE)?;
    check_range("nic.rx_contexts", n.rx_contexts, RX_CONTEXTS_RANGE)?;
    check_range("nic.rx_post_depth", n.rx_post_depth, RX_QUEUE_DEPTH_RANGE)?;
    check_range("nic.rx_completion_depth", n.rx_completion_depth, RX_QUEUE_DEPTH_RANGE)?;
    if n.variant == NicVariant::Traditional {
        if let Some(i) = n.injection.filter(|&i| i != Injection::Message) {
            return Err(ConfigError::field(
                "nic.injection",
                format!("{:?}", i.as_str()),
                "the traditional NIC injects whole messages in order (allowed values: \"message\")",
            ));
        }
    }
    let d = n.derive();
    match (n.block_size, d.injection) {
        (Some(b), Injection::Block) => check_range("nic.block_size", b, NIC_BLOCK_SIZE_RANGE)?,
        (Some(b), other) => {
            return Err(ConfigError::field(
                "nic.block_size",
                b,
                format!("only used with injection = \"block\" (injection is \"{}\"; allowed values: leave it out)", other.as_str()),
            ))
        }
        (None, _) => {}
    }
    let (hw, dw, w) = (header.width(), header.dest.width, file.router.flit_width);
    let need = (hw + dw + SEQ_WIDTH).max(d.tag_width(dw) + d.axi_data_width);
    if w < need {
        return Err(ConfigError::field(
            "router.flit_width",
            w,
            format!(
                "the NIC's flits need {need} bits (header {hw} + src {dw} + seq {SEQ_WIDTH}; body: index {} + src {dw} + seq {SEQ_WIDTH} + poison 1 + payload {}, docs/nic.md §4): allowed range {need}..=256",
                d.index_width(),
                d.axi_data_width
            ),
        ));
    }
    Ok(())
}

impl RouterConfig {
    /// The NIC's sizes when the configuration has a `[nic]` section.
    pub fn nic(&self) -> Option<NicConfig> {
        self.file().nic.as_ref().map(NicParams::derive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUTER: &str = "name = \"n\"\n[router]\nports = 4\nvcs = 2\nflit_width = 64\ninput_buffer_depth = 4\noutput_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n";

    fn with_nic(nic: &str) -> Result<RouterConfig, ConfigError> {
        RouterConfig::from_toml_str(&format!("{ROUTER}[nic]\n{nic}"), "t.toml")
    }

    #[test]
    fn defaults_follow_the_variant() {
        let q = with_nic("variant = \"qos\"\n").unwrap().nic().unwrap();
        assert_eq!((q.injection, q.block_size, q.doorbell_depth, q.buffer_depth), (Injection::Flit, 1, 4, 8));
        let t = with_nic("variant = \"traditional\"\n").unwrap().nic().unwrap();
        assert_eq!(t.injection, Injection::Message);
        assert_eq!((t.send_queues(2), t.send_queue_depth(2)), (1, 16));
        let b = with_nic("variant = \"qos\"\ninjection = \"block\"\n").unwrap().nic().unwrap();
        assert_eq!(b.block_size, 4);
        assert!(RouterConfig::from_toml_str(ROUTER, "t.toml").unwrap().nic().is_none());
    }

    #[test]
    fn a_bad_field_names_file_line_field_value_and_range() {
        let e = with_nic("variant = \"qos\"\nbuffer_depth = 1\n").unwrap_err().to_string();
        assert!(e.starts_with("t.toml:12: "), "{e}");
        assert!(e.contains("nic.buffer_depth") && e.contains("= 1") && e.contains("2..=256"), "{e}");
        let e = with_nic("variant = \"traditional\"\ninjection = \"flit\"\n").unwrap_err().to_string();
        assert!(e.contains("t.toml:12") && e.contains("nic.injection") && e.contains("\"message\""), "{e}");
        let e = with_nic("variant = \"qos\"\nblock_size = 8\n").unwrap_err().to_string();
        assert!(e.contains("nic.block_size") && e.contains("leave it out"), "{e}");
        let e = with_nic("variant = \"qos\"\naxi_data_width = 48\n").unwrap_err().to_string();
        assert!(e.contains("nic.axi_data_width") && e.contains("48") && e.contains("32, 64"), "{e}");
        for (f, v) in [("doorbell_depth", 33), ("max_message_flits", 0), ("max_burst", 257), ("rx_contexts", 17), ("rx_post_depth", 1), ("rx_completion_depth", 65)] {
            let e = with_nic(&format!("variant = \"qos\"\n{f} = {v}\n")).unwrap_err().to_string();
            assert!(e.contains(&format!("nic.{f}")) && e.contains(&format!("= {v}")), "{e}");
        }
    }

    #[test]
    fn the_flit_must_hold_a_payload_beat_and_its_tag() {
        // 4 endpoints: DW 2; IXW for 64 flits = 7; tag 7 + 2 + 8 + 1 = 18; + 64 = 82 > 64.
        let e = with_nic("variant = \"qos\"\naxi_data_width = 64\n").unwrap_err().to_string();
        assert!(e.contains("router.flit_width") && e.contains("= 64") && e.contains("82..=256"), "{e}");
        assert!(with_nic("variant = \"qos\"\naxi_data_width = 32\n").is_ok());
    }

    #[test]
    fn unknown_nic_fields_are_rejected() {
        let e = with_nic("variant = \"qos\"\ndepth = 3\n").unwrap_err().to_string();
        assert!(e.contains("depth"), "{e}");
    }
}

//! The NIC's sizes, derived once from the configuration (docs/nic.md §2).

use wormqos_config::nic::{Injection, NicVariant};
use wormqos_config::{HeaderLayout, RouterConfig, RouterMode};

/// Everything the NIC's components need to know about the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    pub variant: NicVariant,
    /// M.
    pub vcs: usize,
    /// VW: bits of a VC id on a link.
    pub vc_width: u32,
    /// s.
    pub classes: u32,
    /// Flit data words (W bits).
    pub flit_width: u32,
    /// DI: initial credits of each router input VC.
    pub credits: u32,
    /// DD: flits per receive VC FIFO.
    pub rx_depth: usize,
    /// Q.
    pub doorbell_depth: usize,
    /// QN.
    pub send_queues: usize,
    /// BQ.
    pub send_depth: usize,
    /// K_max.
    pub max_flits: u32,
    pub injection: Injection,
    pub block_size: u32,
    /// AXW.
    pub axw: u32,
    /// BB.
    pub bb: u32,
    pub max_burst: u32,
    /// R.
    pub contexts: usize,
    pub post_depth: usize,
    pub cpl_depth: usize,
    pub endpoints: u32,
    pub header: HeaderLayout,
    pub vtick_width: u32,
    pub clock_width: u32,
    /// IXW.
    pub index_width: u32,
    /// TAGW.
    pub tag_width: u32,
    /// `vcc[u]` in the partitioned modes (TR, NP), else empty.
    pub vc_class: Vec<u32>,
    /// P mode: the links carry the `dummy` wire.
    pub dummies: bool,
    /// `per_lane` credits (docs/nic.md §9.1, §11.1): E + 1 lanes per router
    /// VC; 0 with per-VC credits.
    pub lanes: usize,
}

impl Params {
    /// Panics if the configuration has no `[nic]` section (a caller's bug:
    /// validation has already accepted the file).
    pub fn new(cfg: &RouterConfig) -> Self {
        let n = cfg.nic().expect("Nic::new needs a configuration with a [nic] section");
        let m = cfg.vcs() as u32;
        let header = cfg.header();
        let partitioned = matches!(cfg.mode(), RouterMode::Traditional | RouterMode::NonPreemptive);
        Params {
            variant: n.variant,
            vcs: m as usize,
            vc_width: cfg.vc_width(),
            classes: cfg.traffic_classes(),
            flit_width: cfg.flit_width(),
            credits: cfg.input_buffer_depth() as u32,
            rx_depth: cfg.downstream_buffer_depth(),
            doorbell_depth: n.doorbell_depth as usize,
            send_queues: n.send_queues(m) as usize,
            send_depth: n.send_queue_depth(m) as usize,
            max_flits: n.max_message_flits,
            injection: n.injection,
            block_size: n.block_size,
            axw: n.axi_data_width,
            bb: n.beat_bytes(),
            max_burst: n.max_burst,
            contexts: n.rx_contexts as usize,
            post_depth: n.rx_post_depth as usize,
            cpl_depth: n.rx_completion_depth as usize,
            endpoints: cfg.endpoints() as u32,
            header,
            vtick_width: header.vtick.width,
            clock_width: cfg.clock_width(),
            index_width: n.index_width(),
            tag_width: n.tag_width(header.dest.width),
            vc_class: if partitioned { cfg.vc_classes().map(<[u32]>::to_vec).unwrap_or_default() } else { Vec::new() },
            dummies: cfg.mode() == RouterMode::Preemptive,
            lanes: if cfg.per_lane_credits() { cfg.extra_lanes() + 1 } else { 0 },
        }
    }

    /// Entries of a receive VC FIFO: DD, or DD per lane with per-lane
    /// credits (docs/nic.md §11.1).
    pub fn rx_fifo_depth(&self) -> usize {
        self.rx_depth * self.lanes.max(1)
    }

    /// cls(x) of µarch §9.1 on a header's class field: a value >= s is class 0.
    pub fn header_cls(&self, data: &super::format::FlitData) -> u8 {
        let c = self.header_class(data);
        if c >= self.classes {
            0
        } else {
            c as u8
        }
    }

    pub fn is_qos(&self) -> bool {
        self.variant == NicVariant::Qos
    }

    /// log2 BB: `arsize`/`awsize`.
    pub fn size_code(&self) -> u8 {
        self.bb.trailing_zeros() as u8
    }

    /// DB: beats of a descriptor read (16 bytes).
    pub fn desc_beats(&self) -> u32 {
        16 / self.bb
    }

    /// Mask of an AXW-bit beat.
    pub fn beat_mask(&self) -> u64 {
        if self.axw == 64 {
            u64::MAX
        } else {
            (1u64 << self.axw) - 1
        }
    }
}

//! What crosses the router's boundary in one cycle. Shared by the golden model,
//! the Verilator driver and the stimulus so that all three speak one format.

use wormqos_config::RouterConfig;

/// Flit data is held in little-endian 64-bit words; 4 words cover the widest
/// legal flit (256 bits). Bits at or above the configured width are zero.
pub const MAX_FLIT_WORDS: usize = 4;

/// One link's flit in one cycle. When `valid` is false every other field is
/// zero (docs/microarchitecture.md §3), so outputs compare with `==`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinkFlit {
    pub valid: bool,
    pub vc: u8,
    pub head: bool,
    pub tail: bool,
    /// Preemptive mode only (docs/microarchitecture.md §9): a dummy header
    /// (with `head`) or dummy tail (with `tail`) made by a preempting router;
    /// always false in the other modes, whose links have no such wire.
    pub dummy: bool,
    /// `router.preemption_credits = "per_lane"` only (§9.4 *Credits*): the
    /// downstream lane the flit enters, named by its sender; 0 otherwise.
    pub lane: u8,
    pub data: [u64; MAX_FLIT_WORDS],
}

impl LinkFlit {
    pub const IDLE: LinkFlit = LinkFlit { lane: 0, valid: false, vc: 0, head: false, tail: false, dummy: false, data: [0; MAX_FLIT_WORDS] };
}

/// Inputs of one cycle: a flit per input port, and per output port the
/// credits returned by the downstream receiver (bit u = VC u).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouterInputs {
    pub flits: Vec<LinkFlit>,
    pub credits: Vec<u32>,
    /// Per output port, the lane of each returned credit (`per_lane`
    /// credits only, §9.4 *Credits*; see [`credit_lane`]); 0 otherwise.
    pub credit_lanes: Vec<u64>,
    /// A write of the routing table through the configuration port
    /// (`router.routing = "programmable"`, docs/microarchitecture.md §2);
    /// ignored by a router with fixed routing.
    pub route_write: Option<RouteWrite>,
}

/// One write of a programmable routing table: in router `router`, destination code `code` gets
/// output port `port` and allowed output VCs `avc` (bit u = VC u). It takes
/// effect at the end of the cycle: RC reads the new entry from the next
/// cycle on. A write naming a port >= N is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteWrite {
    /// The router written: 0 for a single router; router r of a network
    /// (its write port r, `ComposedNetwork`, the network top).
    pub router: u32,
    pub code: u32,
    pub port: u32,
    pub avc: u32,
}

impl RouterInputs {
    pub fn idle(cfg: &RouterConfig) -> Self {
        RouterInputs {
            flits: vec![LinkFlit::IDLE; cfg.ports()],
            credits: vec![0; cfg.ports()],
            credit_lanes: vec![0; cfg.ports()],
            route_write: None,
        }
    }
    pub fn clear(&mut self) {
        self.flits.fill(LinkFlit::IDLE);
        self.credits.fill(0);
        self.credit_lanes.fill(0);
        self.route_write = None;
    }
}

/// Outputs of one cycle: a flit per output port, and per input port the
/// credits returned upstream (bit v = VC v).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouterOutputs {
    pub flits: Vec<LinkFlit>,
    pub credits: Vec<u32>,
    /// Per input port, the lane each returned credit frees (`per_lane`
    /// credits only; see [`credit_lane`]); 0 otherwise.
    pub credit_lanes: Vec<u64>,
}

/// Bits of a credit-lane word per VC: VC v's lane is `(word >> 4v) & 15`
/// (M <= 16 VCs, E + 1 <= 8 lanes).
pub const CREDIT_LANE_BITS: u32 = 4;

/// The lane of VC v's credit in a credit-lane word.
#[inline(always)]
pub fn credit_lane(word: u64, v: usize) -> usize {
    (word >> (CREDIT_LANE_BITS as usize * v) & 15) as usize
}

/// The credit-lane word of one credit of VC v freeing `lane`.
#[inline(always)]
pub fn credit_lane_word(v: usize, lane: usize) -> u64 {
    (lane as u64) << (CREDIT_LANE_BITS as usize * v)
}

impl RouterOutputs {
    pub fn idle(cfg: &RouterConfig) -> Self {
        RouterOutputs { flits: vec![LinkFlit::IDLE; cfg.ports()], credits: vec![0; cfg.ports()], credit_lanes: vec![0; cfg.ports()] }
    }
}

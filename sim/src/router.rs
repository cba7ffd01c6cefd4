//! The cycle-exact router model (docs/microarchitecture.md §4–§9): the
//! public [`Router`], its state, and its introspection. One engine serves
//! every configuration; its cycle is [`Router::step`], split into one
//! function per pipeline stage in the submodules:
//!
//! | file | stage (spec section) |
//! |---|---|
//! | `router/buffer_write.rs` | stage 1, BW, and the preemptive lane choice (§6, §9.4) |
//! | `router/census.rs` | the opt-in point-A census of the single pass (model only): lower-class candidates over a ready higher class, by acceleration or order, won or lost at B |
//! | `router/preemption.rs` | the preemption step and lane release of a preemptive input VC (§9.4) |
//! | `router/route_computation.rs` | stage 2, RC (§2, §6, §9.4) |
//! | `router/vc_allocation.rs` | stage 3, VA, with the partition, the best-effort cap and acceleration victims (§6, §9.2, §9.4, §9.5) |
//! | `router/switch.rs` | stage 4, ST: readiness, point A, point B, the full crossbar (§6, §8, §9.3–§9.5) |
//! | `router/split.rs` | `switch_stage = "split"`: the crossing of last cycle's grants, point B over last cycle's candidates into the grant registers, point A into the candidate registers (§6, *Split switch allocation*) |
//! | `router/max_matching.rs` | `switch_allocator = "maximum_matching"`: the model-only maximum-size matching bound (§6, *Maximum matching*) |
//! | `router/registered.rs` | `switch_stage = "registered"`: the crossing of last cycle's grants, then switch allocation into the grant registers (§6, *Registered switch allocation*) |
//! | `router/output_port.rs` | stage 5: point C, output registers, credits (§6, §8, §9.3) |
//! | `router/state.rs` | per-port and per-VC registers, the scheduling-point helpers |
//! | `router/step.rs` | the order of the stages within one cycle |
//!
//! All storage is allocated in [`Router::new`]; [`Router::step`] never
//! allocates. Per-VC state lives in flat arrays indexed `p*M + v` (input
//! VCs) and `o*M + u` (output VCs); per-port sets of VCs are bit masks
//! (M ≤ 16), and the VA requesters of each output port are a bit set over
//! the N*M input VCs. Summary masks over ports (`X::Ports`, a `u32` or a
//! wide set: `crate::ports`) let each stage visit only the
//! ports that have work (see `step.rs`).

mod buffer_write;
mod census;
mod output_port;
mod preemption;
mod reallocation;
mod max_matching;
mod registered;
mod split;
mod route_computation;
mod state;
mod step;
mod switch;
mod vc_allocation;

use crate::fifo::FlitRings;
use crate::link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
use crate::vclock::VirtualClockScheduler;
pub use census::PointACensus;
pub use state::{HeaderFields, LaneRegs};
use crate::lane_credits::LaneSender;
use state::{Blk, InPort, InVc, Lanes, OutPort, PreemptPort, VcPoint, MAX_LANES};
use crate::ports::{Narrow, PortSet, Width};
use wormqos_config::{Preemption, Qos, RouterConfig, Scheduler, Scheduling, SchedulingPoint, SwitchStage, VcReallocation};

/// Schedulers the model can run in place of the configured one, to compare
/// against it; they are not router configurations and have no RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComparisonScheduler {
    /// Fine-Grained Fair Queueing (001_… §III-D, Table II; docs/microarchitecture.md §10).
    FineGrainedFairQueueing,
    /// Flit-level Weighted Round Robin (000_… Fig. 6; docs/microarchitecture.md §10.4).
    WeightedRoundRobin,
}

/// [`Router::new_comparison`] was asked for a scheduler the configuration cannot host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComparisonError {
    pub which: ComparisonScheduler,
    pub configured: Scheduler,
}

impl std::fmt::Display for ComparisonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} replaces Fine-Grained VirtualClock at its scheduling points and needs router.scheduler = \"virtualclock\" (configured: {:?})",
            self.which, self.configured
        )
    }
}

impl std::error::Error for ComparisonError {}

// Per-port and per-VC state lives in fixed arrays of the largest size of
// the router's width (`crate::ports::Width`), indexed with `p & PORT_MASK`
// / `i & VC_MASK`: the masks are no-ops for legal indices and let the
// compiler drop bounds checks from the hot loops.

/// State of one input VC (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VcState {
    Idle,
    /// Route computed, waiting for an output VC.
    Routed { route: usize },
    /// Holds output VC `ovc` of port `route`.
    Active { route: usize, ovc: usize },
}

/// Event counters since the last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RouterStats {
    /// Flits written into an input buffer (BW).
    pub flits_accepted: u64,
    /// Valid input flits dropped because their VC id was `>= vcs`.
    pub dropped_bad_vc: u64,
    /// Valid input flits dropped because their input VC buffer was full.
    pub dropped_full: u64,
    /// Route computations performed (headers routed).
    pub routed: u64,
    /// Output VC grants (VA).
    pub vc_grants: u64,
    /// Flits that crossed the crossbar (ST); each returns one credit upstream.
    pub crossbar_moves: u64,
    /// Flits placed on output links (stage 5).
    pub flits_forwarded: u64,
    /// Tail flits placed on output links (messages completed; dummy tails
    /// are not counted).
    pub tails_forwarded: u64,
    // ---- §9 (zero unless the configuration uses the feature)
    /// §9.4: dummy tails made (crossed the crossbar): preemptions of a
    /// message whose header had already crossed (case (a)).
    pub preemptions: u64,
    /// Dummy tails made while the VC's history stack was already non-empty
    /// (a preemption nested inside another one).
    pub nested_preemptions: u64,
    /// §9.4: dummy headers made (crossed the crossbar), one per resumed part.
    pub dummy_headers: u64,
    /// §9.4 preemption-step cases (b) and (c): a lower lane switched away
    /// from without a dummy tail (counted once per switch).
    pub silent_preemptions: u64,
    /// §9.5: acceleration flags set 0 -> 1.
    pub accelerations: u64,
    /// §9.3: grants (that took effect) made by a block hold rather than by
    /// the configured scheduler (or by acceleration).
    pub block_holds: u64,
    /// §9.2 (traditional, non_preemptive): VA grants per class.
    pub partition_grants: [u64; 8],
}

impl RouterStats {
    /// Valid input flits not accepted, for any reason.
    pub fn flits_dropped(&self) -> u64 {
        self.dropped_bad_vc + self.dropped_full
    }
}

/// The ports whose flit is valid and the ports whose credit word is nonzero.
#[inline]
pub fn active_ports<S: PortSet>(flits: &[LinkFlit], credits: &[u32]) -> (S, S) {
    let f = flits.iter().enumerate().fold(S::EMPTY, |a, (p, f)| a | S::single_if(p, f.valid));
    let c = credits.iter().enumerate().fold(S::EMPTY, |a, (p, &c)| a | S::single_if(p, c != 0));
    (f, c)
}

/// Iterates the set bits of a VC mask, lowest first.
#[inline(always)]
fn bits(mask: u32) -> impl Iterator<Item = usize> {
    mask.iter()
}

#[inline(always)]
fn inc_mod(x: usize, k: usize) -> usize {
    if x + 1 == k {
        0
    } else {
        x + 1
    }
}

/// Cycle-exact golden model of one router. See the module documentation.
///
/// `repr(C)` keeps the fields in the order written, and the ones a busy
/// cycle of the foundation router reads come first, so that they share a
/// few cache lines: a network steps many routers in turn, and each one's
/// state has left the cache by the time its turn comes again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Router<X: Width = Narrow> {
    // ---- read in every busy cycle
    n: usize,
    m: usize,
    cycle: u64,
    vc_all: u32,
    /// Bit p for every port p.
    port_all: X::Ports,
    /// Output ports with at least one VA requester.
    va_ports: X::Ports,
    /// Output ports whose output register is valid.
    out_valid_ports: X::Ports,
    /// Input ports with a nonzero `in_credit` register.
    credit_ports: X::Ports,
    /// Input ports that may have a stage 4 offer (foundation input port:
    /// a VC that is ACTIVE and non-empty; preemptive: any lane flit, open
    /// extra lane or stack entry).
    st_ports: X::Ports,
    /// Input ports that may have a VC for RC (foundation: IDLE and
    /// non-empty; preemptive: as `st_ports`).
    rc_ports: X::Ports,
    /// `switch_stage = "registered"`: bit p is `sg_valid[p]`, a flit of
    /// input port p granted last cycle crosses in this one (its VC is
    /// `InPort::sg_vc`); always 0 with the single-cycle stage.
    sg_ports: X::Ports,
    /// `switch_stage = "split"`: bit p is `ca_valid[p]`, point A of input
    /// port p picked a candidate last cycle, at point B in this one (its VC
    /// is `InPort::ca_vc`); always 0 with the other stages.
    ca_ports: X::Ports,
    /// Output ports with a VC that is non-empty and has a credit (stage 5 requesters).
    c_ports: X::Ports,
    /// Output ports with a non-empty VC (slots present at point C).
    c_present: X::Ports,
    /// Every port when a present slot alone is work (a VirtualClock point
    /// C stamps it), else none.
    c_present_wakes: X::Ports,
    /// Scheduling points (input ports at A, output ports at C) with a
    /// §9.3 block hold running (`left > 0`).
    hold_ports: X::Ports,
    /// Output ports with a `draining` output VC (`vc_reallocation =
    /// "atomic"`, §6 stage 3); always 0 with `"tail_crossed"`.
    drain_ports: X::Ports,
    di: u16,
    dout: u16,
    dd: u16,
    /// §9.3 block size b.
    block: u8,
    /// Rounds of the iterative switch allocator (§6, *Switch allocation*);
    /// 0 for the single pass (and the full crossbar).
    switch_rounds: u8,
    /// The maximum-matching bound instead (§6, *Maximum matching*; model only).
    max_matching: bool,
    vc_id_mask: u8,
    /// `sched.point`, and `state::order_code(&sched.order)` plus 3 if
    /// `preempt.is_some()` plus 6 if the switch allocation is registered, 12
    /// if it is split (not with preemption): what selects the compiled variant of a cycle.
    point: SchedulingPoint,
    variant: u8,
    /// VA restricts each requester to a set of output VCs (§2 `route_vcs`
    /// or a §9.2 partition, or a programmable table that may get one):
    /// requesters are filtered by satisfiability.
    restricted: bool,
    /// `vc_reallocation = "atomic"`: a tail's output VC drains before it is
    /// free again (§6 stage 3, *Output-VC reallocation*).
    atomic: bool,
    ib: FlitRings,
    ob: FlitRings,
    ivc: Box<X::PerVc<InVc>>,
    inp: Box<X::PerPort<InPort>>,
    credits: Box<X::PerVc<u16>>,
    outp: Box<X::PerPort<OutPort<X::Ports>>>,
    /// The registers on the output wires.
    outputs: RouterOutputs,
    /// Per data word: the bits below `flit_width`.
    word_mask: [u64; MAX_FLIT_WORDS],
    stats: RouterStats,

    // ---- read when a header is routed or allocated, or by a scheduler
    /// VA requesters (ROUTED input VCs) of output port o: words [o*va_words, (o+1)*va_words).
    va_req: Vec<u64>,
    va_words: usize,
    nm: usize,
    /// Lanes per input VC (E + 1; 1 unless preemptive).
    lanes: usize,
    /// Where the flit scheduler sits and what order it serves (§6, §8).
    sched: Scheduling,
    /// §9.4/§9.5 parameters in the preemptive mode.
    preempt: Option<Preemption>,
    /// `preemption_credits = "per_lane"` (§9.4 *Credits*): the input ports
    /// take the flit's lane and return credits with their lane, the output
    /// VCs count credits per downstream lane in `lane_tx` (then `credits`
    /// stays at DD and is not read).
    per_lane: bool,
    /// Per output VC (o, u), the sender state of §9.4 *Credits*; empty
    /// unless `per_lane`.
    lane_tx: Vec<LaneSender>,
    /// `per_lane` only: the lanes of this cycle's input credits, one word
    /// per output port (`Router::set_credit_lanes`); empty otherwise.
    in_lanes: Vec<u64>,
    /// The header fields (§2) of flit data word 0.
    dest_width: u32,
    class_width: u32,
    vtick_width: u32,
    /// s: traffic classes (§9.1 `cls`).
    classes: u32,
    /// Output port per destination code, all 2^DW codes (codes >= endpoints -> 0).
    route_lut: Vec<u8>,
    /// Allowed output VCs `A(d)` per destination code (every VC without
    /// `topology.route_vcs`).
    avc_lut: Vec<u32>,
    /// Parallel output ports per destination code (§2 `route_links`); empty
    /// without the table.
    links_lut: Vec<u8>,
    /// §9.2: the output VCs of each class (every VC for class 0 when shared).
    class_vcs: [u32; 8],
    /// Whether the VA grants are counted per class (§9.2 partitioned modes).
    partitioned: bool,
    /// The header register `hdr` of each input VC (§9.1; its Vtick is the
    /// Vtick register of §8.2).
    hdr: Box<X::PerVc<HeaderFields>>,
    /// `owner[o][u]` (§9.4): the input VC last granted output VC (o, u).
    owner: Box<X::PerVc<u16>>,
    /// §9.4 stage 3: the most output VCs of a port best effort may hold
    /// (M when uncapped, where the test never refuses).
    be_cap: u32,
    /// Per output port, the output VCs whose last VA grant went to a
    /// best-effort header; held by best effort = these and `allocated`.
    be_granted: X::PerPort<u32>,
    /// §9.4 stage 3, *Real-time cap*: the most output VCs of a port real
    /// time (class 1) may hold (M when uncapped).
    rt_cap: u32,
    /// Per output port, the output VCs whose last VA grant went to a
    /// real-time header (`rtg`); held by real time = these and `allocated`.
    rt_granted: X::PerPort<u32>,
    /// §9.4 stage 3, *Real-time cap*: (output port, cycle) pairs where the
    /// cap refused a class-1 requester that had a free output VC in its
    /// allowed set. Kept beside `stats`, not in it: [`RouterStats`]' Debug
    /// text is hashed by the recorded-engine test, which stays unchanged.
    rt_refusals: u64,
    /// The opt-in point-A census (`router/census.rs`), beside `stats` for
    /// the same reason as `rt_refusals`; counted only while `census_on`.
    census_on: bool,
    census: PointACensus,
    /// Age stamps at point A (1 + cycle of the last VA grant; 0 at reset).
    in_stamp: Vec<u64>,
    /// Age stamps at point C.
    out_stamp: Vec<u64>,
    /// §9.3 hold register of each scheduling point.
    blk: X::PerPort<Blk>,
    /// One VirtualClock scheduler per port (point A: input port p; point C:
    /// output port o); empty unless the order is VirtualClock.
    vclk: Vec<VcPoint>,
    /// §9.4 registers of each input VC (preemptive mode only; else empty).
    lane_regs: Vec<Lanes>,
    /// §9.4 registers and scratch of each input port (preemptive mode only).
    pin: Box<X::PerPort<PreemptPort>>,
    /// History stack `hs` of each input VC (preemptive mode only; else empty).
    hs: Vec<[HeaderFields; MAX_LANES]>,
    cfg: RouterConfig,
}

impl Router<Narrow> {
    /// A router of at most 32 ports (every configuration the RTL
    /// generator accepts) in the reset state.
    pub fn new(cfg: &RouterConfig) -> Router {
        Self::with_width(cfg)
    }

    /// [`Router::new`] with a model-only comparison scheduler, see
    /// [`Router::comparison_with_width`].
    pub fn new_comparison(cfg: &RouterConfig, which: ComparisonScheduler) -> Result<Router, ComparisonError> {
        Self::comparison_with_width(cfg, which)
    }
}

impl<X: Width> Router<X> {
    /// A router in the reset state, its port sets and per-port state of
    /// width `X` (`Router::<Wide>::with_width` for more than 32 ports).
    pub fn with_width(cfg: &RouterConfig) -> Router<X> {
        let n = cfg.ports();
        let m = cfg.vcs();
        assert!(n <= X::PORTS && m <= 16, "{n} ports, {m} VCs: at most {} ports and 16 VCs", X::PORTS);
        let nm = n * m;
        let h = cfg.header();
        assert!(h.dest.lsb == 0 && h.dest.width <= 16 && h.width() <= 64);
        let codes = 1usize << h.dest.width;
        let route_lut = (0..codes as u64).map(|d| cfg.route(d) as u8).collect();
        let links_lut = match cfg.route_link_table() {
            Some(_) => (0..codes as u64).map(|d| cfg.route_links(d) as u8).collect(),
            None => Vec::new(),
        };
        let avc_lut = (0..codes as u64).map(|d| cfg.route_vcs(d)).collect();
        let vc_all = ((1u64 << m) - 1) as u32;
        let mut class_vcs = [vc_all; 8];
        if let Qos::Partitioned(part) = cfg.qos() {
            class_vcs = [0; 8];
            for (u, &c) in part.vc_class.iter().enumerate() {
                class_vcs[c as usize] |= 1 << u;
            }
        }
        let preempt = cfg.qos().preemption().copied();
        let lanes = cfg.qos().extra_lanes() as usize + 1;
        assert!(lanes <= MAX_LANES);
        let sched = *cfg.scheduling();
        let w = cfg.flit_width();
        let va_words = nm.div_ceil(64);
        let vclk = match sched.order {
            wormqos_config::FlitOrder::VirtualClock(vc) => {
                let sched = VirtualClockScheduler::new(m, vc.clock_width, vc.vtick.width);
                vec![VcPoint { sched, synced: 0 }; n]
            }
            _ => Vec::new(),
        };
        let mut r = Router {
            n,
            m,
            nm,
            lanes,
            di: cfg.input_buffer_depth() as u16,
            dout: cfg.output_buffer_depth() as u16,
            dd: cfg.downstream_buffer_depth() as u16,
            block: sched.block_size as u8,
            switch_rounds: match sched.point.switch_allocator() {
                Some(wormqos_config::SwitchAllocator::Iterative { iterations }) => iterations as u8,
                _ => 0,
            },
            max_matching: sched.point.switch_allocator() == Some(wormqos_config::SwitchAllocator::MaximumMatching),
            sched,
            point: sched.point,
            variant: state::order_code(&sched.order)
                + 3 * preempt.is_some() as u8
                + match sched.point.switch_stage() {
                    SwitchStage::SingleCycle => 0,
                    SwitchStage::Registered => 6,
                    SwitchStage::Split => 12,
                },
            preempt,
            per_lane: cfg.per_lane_credits(),
            in_lanes: if cfg.per_lane_credits() { vec![0; n] } else { Vec::new() },
            lane_tx: if cfg.per_lane_credits() { vec![LaneSender::new(cfg.downstream_buffer_depth() as u16, lanes); nm] } else { Vec::new() },
            restricted: cfg.route_vc_table().is_some() || cfg.qos().partition().is_some() || cfg.programmable(),
            // Counted wherever the VCs carry a class map, a one-class
            // partitioned mode (which allocates as `Qos::Shared`) included.
            partitioned: cfg.vc_classes().is_some(),
            atomic: cfg.vc_reallocation() == VcReallocation::Atomic,
            class_vcs,
            classes: cfg.traffic_classes(),
            dest_width: h.dest.width,
            class_width: h.class.width,
            vtick_width: h.vtick.width,
            word_mask: std::array::from_fn(|k| {
                let lo = 64 * k as u32;
                if w >= lo + 64 {
                    u64::MAX
                } else if w <= lo {
                    0
                } else {
                    (1u64 << (w - lo)) - 1
                }
            }),
            vc_id_mask: ((1u32 << cfg.vc_width()) - 1) as u8,
            vc_all,
            port_all: X::Ports::first(n),
            route_lut,
            avc_lut,
            links_lut,
            va_words,
            ib: FlitRings::new(nm * lanes, cfg.input_buffer_depth()),
            hdr: X::per_vc(HeaderFields::default()),
            owner: X::per_vc(0),
            be_cap: cfg.best_effort_output_vcs().unwrap_or(m as u32),
            be_granted: X::per_port_value(0),
            rt_cap: cfg.realtime_output_vcs().unwrap_or(m as u32),
            rt_granted: X::per_port_value(0),
            rt_refusals: 0,
            census_on: false,
            census: PointACensus::default(),
            vclk,
            ivc: X::per_vc(InVc::default()),
            in_stamp: vec![0; nm],
            inp: X::per_port(InPort::default()),
            ob: FlitRings::new(nm, cfg.output_buffer_depth()),
            credits: X::per_vc(0),
            out_stamp: vec![0; nm],
            outp: X::per_port(OutPort::default()),
            blk: X::per_port_value(Blk::default()),
            lane_regs: if preempt.is_some() { vec![Lanes::default(); nm] } else { Vec::new() },
            pin: X::per_port(PreemptPort::default()),
            hs: if preempt.is_some() { vec![[HeaderFields::default(); MAX_LANES]; nm] } else { Vec::new() },
            va_req: vec![0; n * va_words],
            va_ports: X::Ports::EMPTY,
            out_valid_ports: X::Ports::EMPTY,
            credit_ports: X::Ports::EMPTY,
            st_ports: X::Ports::EMPTY,
            rc_ports: X::Ports::EMPTY,
            sg_ports: X::Ports::EMPTY,
            ca_ports: X::Ports::EMPTY,
            c_ports: X::Ports::EMPTY,
            c_present: X::Ports::EMPTY,
            hold_ports: X::Ports::EMPTY,
            drain_ports: X::Ports::EMPTY,
            c_present_wakes: match (sched.point, sched.order) {
                (SchedulingPoint::OutputPort, wormqos_config::FlitOrder::VirtualClock(_)) => X::Ports::FULL,
                _ => X::Ports::EMPTY,
            },
            outputs: RouterOutputs::idle(cfg),
            cycle: 0,
            stats: RouterStats::default(),
            cfg: cfg.clone(),
        };
        r.reset();
        r
    }

    /// A router in the reset state whose scheduling points run a model-only
    /// comparison scheduler instead of the configured one (docs/microarchitecture.md
    /// §10). No RTL implements it, so the result is never lockstep-checked;
    /// everything else is [`Router::new`]'s. The scheduler replaces FGVC at
    /// FGVC's points, so the configuration must use `scheduler = "virtualclock"`.
    pub fn comparison_with_width(cfg: &RouterConfig, which: ComparisonScheduler) -> Result<Router<X>, ComparisonError> {
        let Some(vc) = cfg.scheduling().virtual_clock() else {
            return Err(ComparisonError { which, configured: cfg.scheduler() });
        };
        let mut r = Self::with_width(cfg);
        match which {
            ComparisonScheduler::FineGrainedFairQueueing => {
                // In reset state, so swapping the schedulers loses nothing.
                for pt in &mut r.vclk {
                    pt.sched = VirtualClockScheduler::new_fair_queueing(r.m, vc.clock_width, vc.vtick.width);
                }
            }
            ComparisonScheduler::WeightedRoundRobin => {
                for pt in &mut r.vclk {
                    pt.sched = VirtualClockScheduler::new_weighted_round_robin(r.m, vc.clock_width, vc.vtick.width);
                }
            }
        }
        Ok(r)
    }

    /// The state after a cycle with `rst_i` high (§4 "Reset"): identical to
    /// [`Router::new`], including `cycle() == 0` and zeroed statistics.
    pub fn reset(&mut self) {
        // A programmable table returns to the configured one (§2).
        for (d, (r, a)) in self.route_lut.iter_mut().zip(self.avc_lut.iter_mut()).enumerate() {
            *r = self.cfg.route(d as u64) as u8;
            *a = self.cfg.route_vcs(d as u64);
        }
        self.ib.clear();
        self.ivc[..].fill(InVc::default());
        self.hdr[..].fill(HeaderFields::default());
        self.owner[..].fill(0);
        self.be_granted[..].fill(0);
        self.rt_granted[..].fill(0);
        for pt in &mut self.vclk {
            pt.sched.reset();
            pt.synced = 0;
        }
        self.in_stamp.fill(0);
        self.inp[..].fill(InPort { idle: self.vc_all, ..InPort::default() });
        self.ob.clear();
        self.credits[..].fill(self.dd);
        let lanes = self.lanes;
        self.lane_tx.fill(LaneSender::new(self.dd, lanes));
        self.out_stamp.fill(0);
        self.outp[..].fill(OutPort { credit_ok: self.vc_all, ..OutPort::default() });
        self.blk[..].fill(Blk::default());
        self.lane_regs.fill(Lanes::default());
        self.pin[..].fill(PreemptPort::default());
        self.hs.fill([HeaderFields::default(); MAX_LANES]);
        self.va_req.fill(0);
        self.va_ports = X::Ports::EMPTY;
        self.out_valid_ports = X::Ports::EMPTY;
        self.credit_ports = X::Ports::EMPTY;
        self.st_ports = X::Ports::EMPTY;
        self.rc_ports = X::Ports::EMPTY;
        self.sg_ports = X::Ports::EMPTY;
        self.ca_ports = X::Ports::EMPTY;
        self.drain_ports = X::Ports::EMPTY;
        self.c_ports = X::Ports::EMPTY;
        self.c_present = X::Ports::EMPTY;
        self.hold_ports = X::Ports::EMPTY;
        self.outputs.flits.fill(LinkFlit::IDLE);
        self.outputs.credits.fill(0);
        self.outputs.credit_lanes.fill(0);
        self.cycle = 0;
        self.stats = RouterStats::default();
        self.rt_refusals = 0;
        self.census = PointACensus::default();
    }

    /// The registered outputs during the current cycle.
    #[inline]
    pub fn outputs(&self) -> &RouterOutputs {
        &self.outputs
    }

    /// Which registered outputs are non-idle during the current cycle, as bit
    /// masks: output ports whose flit is valid, and input ports returning a
    /// credit (`outputs().credits[p] != 0`). A network can then skip idle
    /// links without touching `outputs()`.
    #[inline]
    pub fn output_activity(&self) -> (X::Ports, X::Ports) {
        (self.out_valid_ports, self.credit_ports)
    }

    /// Applies the inputs of the current cycle and advances one rising edge.
    ///
    /// `inputs.flits` and `inputs.credits` must have one entry per port. Data
    /// bits at or above `flit_width` and VC-id bits at or above the link's VC
    /// width `max(1, ceil(log2 vcs))` are not part of the link and are ignored;
    /// credit bits at or above `vcs` are ignored.
    pub fn step(&mut self, inputs: &RouterInputs) {
        let (valid, returning) = active_ports::<X::Ports>(&inputs.flits[..self.n], &inputs.credits[..self.n]);
        self.set_credit_lanes(&inputs.credit_lanes);
        self.step_active(&inputs.flits, &inputs.credits, valid, returning);
        if let Some(w) = inputs.route_write {
            self.write_route(w);
        }
    }

    /// `preemption_credits = "per_lane"` (§9.4 *Credits*): the lane of each
    /// credit on the input wires of the next `step_active` (one word per
    /// output port, see [`crate::credit_lane`]); ignored otherwise, so that
    /// the default path copies nothing.
    #[inline]
    pub fn set_credit_lanes(&mut self, lanes: &[u64]) {
        if self.per_lane {
            let n = self.in_lanes.len();
            self.in_lanes.copy_from_slice(&lanes[..n]);
        }
    }

    /// A write through the configuration port of a programmable routing
    /// table (§2 *Programmable routing*), at the end of the current cycle:
    /// RC reads the new entry from the next `step` on; a VC already routed
    /// keeps its route and allowed VCs. Ignored with fixed routing, for a
    /// port >= N or a code outside the destination field.
    pub fn write_route(&mut self, w: crate::link::RouteWrite) {
        let code = w.code as usize;
        if !self.cfg.programmable() || w.port as usize >= self.n || code >= self.route_lut.len() {
            return;
        }
        self.route_lut[code] = w.port as u8;
        self.avc_lut[code] = w.avc & self.vc_all;
    }

    /// The routing table's entries as RC reads them now: (output port,
    /// allowed output VCs) per destination code.
    pub fn route_table(&self) -> Vec<(u32, u32)> {
        self.route_lut.iter().zip(&self.avc_lut).map(|(&p, &a)| (p as u32, a)).collect()
    }

    // ---------------------------------------------------------------- introspection

    pub fn config(&self) -> &RouterConfig {
        &self.cfg
    }
    /// Number of `step` calls since `new` or the last `reset`.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
    pub fn stats(&self) -> &RouterStats {
        &self.stats
    }
    /// §9.4 stage 3, *Real-time cap*: the (output port, cycle) pairs since
    /// `new` or the last `reset` where the cap refused a real-time header
    /// that had a free output VC in its allowed set (0 without the cap).
    pub fn realtime_cap_refusals(&self) -> u64 {
        self.rt_refusals
    }
    /// Flits in input VC buffer (p, v), over all its lanes.
    pub fn input_occupancy(&self, p: usize, v: usize) -> usize {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        (0..self.lanes).map(|l| self.lane_occupancy(p, v, l)).sum()
    }
    /// Flits in output VC buffer (o, u).
    pub fn output_occupancy(&self, o: usize, u: usize) -> usize {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        self.ob.count(o * self.m + u) as usize
    }
    /// Free slots of input VC (p, v): what an upstream sender may still send without a drop.
    pub fn input_free(&self, p: usize, v: usize) -> usize {
        self.ib.capacity() as usize - self.input_occupancy(p, v)
    }
    /// Credits of output VC (o, u); with `per_lane` credits those of the
    /// lane its front flit takes (of its open lane when it is empty).
    pub fn credits(&self, o: usize, u: usize) -> usize {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        let j = o * self.m + u;
        if self.per_lane {
            return self.lane_tx[j].credits(self.front_lane(j)) as usize;
        }
        self.credits[j & X::VC_MASK] as usize
    }
    /// `per_lane` only: the sender state of output VC (o, u).
    pub fn lane_sender(&self, o: usize, u: usize) -> Option<&LaneSender> {
        self.lane_tx.get(o * self.m + u)
    }
    /// Whether output VC (o, u) is held by a message (with `vc_reallocation
    /// = "atomic"`, also while it drains after its tail has crossed).
    pub fn allocated(&self, o: usize, u: usize) -> bool {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        self.outp[o & X::PORT_MASK].allocated >> u & 1 == 1
    }
    /// Whether output VC (o, u) is `draining` (§4: its tail has crossed, and
    /// with `vc_reallocation = "atomic"` it is not yet released); always
    /// false with `"tail_crossed"`.
    pub fn draining(&self, o: usize, u: usize) -> bool {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        self.outp[o & X::PORT_MASK].draining >> u & 1 == 1
    }
    /// State of input VC (p, v).
    pub fn vc_state(&self, p: usize, v: usize) -> VcState {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        let d = self.ivc[(p * self.m + v) & X::VC_MASK];
        if self.inp[p & X::PORT_MASK].idle >> v & 1 == 1 {
            VcState::Idle
        } else if self.inp[p & X::PORT_MASK].active >> v & 1 == 1 {
            VcState::Active { route: d.route as usize, ovc: d.ovc as usize }
        } else {
            VcState::Routed { route: d.route as usize }
        }
    }
    /// The registered switch grant of input port p at the start of the
    /// current cycle (`switch_stage = "registered"`, §6): `(sg_vc, sg_tail)`
    /// if `sg_valid[p]`, i.e. the VC whose front flit crosses the crossbar
    /// in this cycle and whether that flit is a tail (in P mode: the
    /// granted offer, §6 *Registered switch allocation in P mode*; a dummy
    /// tail is a tail); always `None` with the single-cycle stage.
    pub fn switch_grant(&self, p: usize) -> Option<(usize, bool)> {
        assert!(p < self.n, "no input port {p}");
        self.sg_ports.contains(p).then(|| {
            let v = self.inp[p & X::PORT_MASK].sg_vc as usize;
            let i = p * self.m + v;
            let tail = match (self.preempt.is_some(), self.pin[p & X::PORT_MASK].sg_offer) {
                (false, _) => self.ib.front(i).tail,
                (true, preemption::Offer::Lane) => self.ib.front(self.lane_ring(i, self.lane_regs[i].sl as usize)).tail,
                (true, preemption::Offer::DummyTail) => true,
                (true, preemption::Offer::DummyHead) => false,
            };
            (v, tail)
        })
    }
    /// The registered candidate of input port p at the start of the
    /// current cycle (`switch_stage = "split"`, §6 *Split switch
    /// allocation*): `(ca_vc, ca_tail)` if `ca_valid[p]`, i.e. the VC point
    /// B considers in this cycle and the tail bit of the flit it stands for
    /// (the front flit once this cycle's crossing has left); always `None`
    /// with the other stages.
    pub fn switch_candidate(&self, p: usize) -> Option<(usize, bool)> {
        assert!(p < self.n, "no input port {p}");
        self.ca_ports.contains(p).then(|| {
            let v = self.inp[p & X::PORT_MASK].ca_vc as usize;
            let crossing = self.sg_ports.contains(p) && self.inp[p & X::PORT_MASK].sg_vc as usize == v;
            (v, self.ib.get(p * self.m + v, crossing as usize).tail)
        })
    }
    /// The k-th oldest flit of lane 0 of input VC (p, v), as a link flit on VC v.
    pub fn input_flit(&self, p: usize, v: usize, k: usize) -> Option<LinkFlit> {
        self.lane_flit(p, v, 0, k)
    }
    /// The VirtualClock scheduler of port `port` (§8: of input port `port` at
    /// point A for the multiplexed crossbar, of output port `port` at point C
    /// for the full crossbar) as its registers are at the start of the
    /// current cycle; `None` unless the scheduler is `virtualclock`.
    pub fn virtual_clock(&self, port: usize) -> Option<VirtualClockScheduler> {
        assert!(port < self.n, "no port {port}");
        let mut pt = self.vclk.get(port)?.clone();
        pt.sync(self.cycle);
        Some(pt.sched)
    }
    /// The Vtick register of input VC (p, v) (§8.2; 0 unless the scheduler
    /// is `virtualclock`, the only reader).
    pub fn vtick_register(&self, p: usize, v: usize) -> u64 {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        match self.sched.order {
            wormqos_config::FlitOrder::VirtualClock(_) => self.hdr[(p * self.m + v) & X::VC_MASK].vtick as u64,
            _ => 0,
        }
    }
    /// The k-th oldest flit of output VC buffer (o, u), as a link flit on VC u.
    pub fn output_flit(&self, o: usize, u: usize, k: usize) -> Option<LinkFlit> {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        let j = o * self.m + u;
        (k < self.ob.count(j) as usize).then(|| {
            let f = self.ob.get(j, k);
            LinkFlit { lane: 0, valid: true, vc: u as u8, head: f.head, tail: f.tail, dummy: f.dummy, data: f.data }
        })
    }
    /// The Vtick stored with the k-th oldest flit of output VC buffer (o, u).
    pub fn output_flit_vtick(&self, o: usize, u: usize, k: usize) -> Option<u64> {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        let j = o * self.m + u;
        (k < self.ob.count(j) as usize).then(|| self.ob.get(j, k).vtick as u64)
    }
    /// Total flits held in input and output buffers.
    pub fn buffered_flits(&self) -> usize {
        (0..self.nm * self.lanes).map(|r| self.ib.count(r) as usize).sum::<usize>()
            + (0..self.nm).map(|j| self.ob.count(j) as usize).sum::<usize>()
    }
    /// No flit buffered, no VC held, every output VC at full credit and no
    /// output valid: further idle cycles change nothing but `cycle()`.
    pub fn is_quiescent(&self) -> bool {
        self.buffered_flits() == 0
            && self.inp[..][..self.n].iter().all(|ip| ip.idle == self.vc_all)
            && self.lane_regs.iter().all(|d| d.top == 0 && d.hsp == 0)
            && self.outp[..][..self.n].iter().all(|op| op.allocated == 0)
            && self.credits[..][..self.nm].iter().all(|&c| c == self.dd)
            && self.lane_tx.iter().all(LaneSender::is_idle)
            && self.outputs.flits.iter().all(|f| !f.valid)
            && self.outputs.credits.iter().all(|&c| c == 0)
    }

    // ---------------------------------------------------------------- §9 introspection

    /// Flits in lane `l` of input VC (p, v) (§9.4; lane 0 is the regular
    /// buffer; 0 for a lane that does not exist).
    pub fn lane_occupancy(&self, p: usize, v: usize, l: usize) -> usize {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        if l >= self.lanes {
            return 0;
        }
        self.ib.count(self.lane_ring(p * self.m + v, l)) as usize
    }
    /// The k-th oldest flit of lane `l` of input VC (p, v).
    pub fn lane_flit(&self, p: usize, v: usize, l: usize, k: usize) -> Option<LinkFlit> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        let r = self.lane_ring(p * self.m + v, l);
        (l < self.lanes && k < self.ib.count(r) as usize).then(|| {
            let f = self.ib.get(r, k);
            LinkFlit { lane: 0, valid: true, vc: v as u8, head: f.head, tail: f.tail, dummy: f.dummy, data: f.data }
        })
    }
    /// The §9.4 registers of input VC (p, v) (all 0 outside the preemptive mode).
    pub fn lane_regs(&self, p: usize, v: usize) -> Option<LaneRegs> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        let i = p * self.m + v;
        let d = self.lane_regs.get(i).copied().unwrap_or_default();
        Some(LaneRegs {
            top: d.top as usize,
            sl: d.sl as usize,
            wl: d.wl as usize,
            lmax: d.lmax,
            susp: d.susp,
            stack: self.hs.get(i).copied().unwrap_or_default(),
            depth: d.hsp as usize,
            sent: d.sent,
            acc: d.acc,
        })
    }
    /// History stack depth `hsp` of input VC (p, v).
    pub fn stack_depth(&self, p: usize, v: usize) -> usize {
        self.lane_regs(p, v).map_or(0, |r| r.depth)
    }
    /// The header register `hdr` of input VC (p, v) (§9.1).
    pub fn header_register(&self, p: usize, v: usize) -> Option<HeaderFields> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        Some(self.hdr[(p * self.m + v) & X::VC_MASK])
    }
    /// `owner[o][u]` (§9.4: the input VC `p*M+v` last granted output VC (o, u)).
    pub fn owner(&self, o: usize, u: usize) -> Option<usize> {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        Some(self.owner[(o * self.m + u) & X::VC_MASK] as usize)
    }

    // ---------------------------------------------------------------- helpers of the stages

    /// The ring of lane `l` of input VC i.
    #[inline(always)]
    fn lane_ring(&self, i: usize, l: usize) -> usize {
        i * self.lanes + l
    }

    /// Whether the flit scheduler sits at point C (full crossbar).
    #[inline(always)]
    fn full(&self) -> bool {
        self.point == SchedulingPoint::OutputPort
    }

    /// `cls(x)` of §9.1.
    #[inline]
    fn cls(&self, code: u32) -> u32 {
        if code >= self.classes {
            0
        } else {
            code
        }
    }

    /// The header fields (§2) of a header flit's data.
    #[inline]
    fn header_of(&self, data: &[u64; MAX_FLIT_WORDS]) -> HeaderFields {
        let d = data[0];
        let mask = |w: u32| (1u64 << w) - 1;
        HeaderFields {
            dest: (d & mask(self.dest_width)) as u32,
            class: ((d >> self.dest_width) & mask(self.class_width)) as u32,
            vtick: ((d >> (self.dest_width + self.class_width)) & mask(self.vtick_width)) as u32,
        }
    }
}

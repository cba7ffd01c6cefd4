//! The cycle-exact router model (docs/microarchitecture.md §4–§6).
//!
//! All storage is allocated in [`Router::new`]; [`Router::step`] never allocates.
//! Per-VC state lives in flat arrays indexed `p*M + v` (input VCs) and
//! `o*M + u` (output VCs); per-port sets of VCs are bit masks (M ≤ 16), and the
//! VA requesters of each output port are a bit set over the N*M input VCs.
//! Summary masks over ports (`st_ports`: some VC ACTIVE and non-empty;
//! `rc_ports`: some VC IDLE and non-empty; `c_ports`: some output VC non-empty
//! with a credit; `va_ports`: some VA requester) let each phase visit only the
//! ports that have work; they are brought up to date at the end of `step`
//! for the ports touched, so every phase reads start-of-cycle values.
//!
//! `step` is one cycle. Every decision reads the state at the start of the
//! cycle; updates are ordered so that no stage observes another stage's update
//! of the same cycle:
//!
//! 0. BW admission (on the start-of-cycle `ib_count`) and write, without
//!    updating the `nonempty` masks the other phases use;
//! 1. stage 5 picks decided (start-of-cycle `ob_count`, `credits`);
//! 2. ST: decide and move (readiness on start-of-cycle `ob_count`: stage 5 has
//!    not popped yet, and each output VC is pushed only by its single owner);
//!    a tail's input VC goes to a transient "freed" set and its output VC to a
//!    pending-free mask;
//! 3. stage 5 pops, output registers, credits;
//! 4. VA (on start-of-cycle `allocated`: pending frees not applied yet);
//! 5. pending output-VC frees applied;
//! 6. RC (only VCs IDLE at the start of the cycle), then the freed input VCs
//!    become IDLE;
//! 7. BW: the flits written in phase 0 become visible (`nonempty`).
//!
//! No phase after 4 reads `allocated` and none after 6 reads `idle` or
//! `nonempty`, so 5, the end of 6 and 7 are applied together, in the pass
//! that brings the summary masks up to date.

use crate::arbiter::{age_pick, rr_pick, rr_pick_wide};
use super::fifo::{Flit, FlitRings};
use crate::link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
use super::qos::{Core, HeaderFields, LaneRegs};
use crate::vclock::VirtualClockScheduler;
use wormqos_config::{Crossbar, RouterConfig, RouterMode, Scheduler};

/// Schedulers the model can run in place of the configured one, to compare
/// against it; they are not router configurations and have no RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComparisonScheduler {
    /// Fine-Grained Fair Queueing (001_… §III-D, Table II; docs/microarchitecture.md §10).
    FineGrainedFairQueueing,
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

/// Per-port state lives in fixed arrays of the largest legal size, indexed
/// with `p & 31` / `i & 511`: the masks are no-ops for legal indices and let
/// the compiler drop bounds checks from the hot loops.
const MAX_PORTS: usize = 32;
const MAX_VCS_TOTAL: usize = 512;

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

/// Input port p: bit v of each mask is input VC (p, v).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct InPort {
    /// State IDLE (neither bit: ROUTED).
    idle: u32,
    /// State ACTIVE.
    active: u32,
    /// `ib_count > 0`.
    nonempty: u32,
    /// Scratch: a tail crossed in this cycle (IDLE from the end of the cycle).
    freed: u32,
    /// Scratch: VCs written by BW this cycle (the flit is pushed at once but
    /// `nonempty` only changes at the end of the cycle).
    pushed: u32,
    xa_ptr: u8,
    /// Scratch: the candidate at point (A).
    cand: u8,
}

/// Output port o: bit u of each mask is output VC (o, u).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct OutPort {
    allocated: u32,
    /// `ob_count > 0`.
    nonempty: u32,
    /// `credits > 0`.
    credit_ok: u32,
    /// Scratch: output VCs freed by a tail in this cycle.
    alloc_clear: u32,
    /// Scratch: input ports whose (A) candidate routes here.
    xb_req: u32,
    va_req_count: u16,
    va_ptr: u16,
    xb_ptr: u8,
    oc_ptr: u8,
    /// Scratch: the stage 5 pick.
    picked: u8,
}

/// Input VC i = p*M+v: where it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct InVc {
    route: u8,
    ovc: u8,
    /// Output VCs its header may be allocated (§2 `route_vcs`), loaded at RC.
    avc: u32,
}

/// A VirtualClock scheduling point, updated lazily: in cycles in which no
/// slot is present only `now` counts (see `VirtualClockScheduler::advance_idle`),
/// so the point is only visited in cycles with a present slot and caught up
/// on the next visit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct VcPoint {
    sched: VirtualClockScheduler,
    /// The cycle at whose start `sched` holds the registers.
    synced: u64,
}

impl VcPoint {
    #[inline(always)]
    fn sync(&mut self, cycle: u64) {
        let d = cycle - self.synced;
        if d != 0 {
            self.sched.advance_idle(d);
            self.synced = cycle;
        }
    }
}

/// `width`-bit field at bit `lsb` of flit data (width <= 32).
#[inline]
fn extract_field(data: &[u64; MAX_FLIT_WORDS], lsb: u32, width: u32) -> u64 {
    let w = (lsb / 64) as usize;
    let sh = lsb % 64;
    let mut v = data[w & 3] >> sh;
    if sh + width > 64 {
        v |= data[(w + 1) & 3] << (64 - sh);
    }
    v & ((1u64 << width) - 1)
}

/// The ports whose flit is valid and the ports whose credit word is nonzero.
#[inline]
fn active_ports(flits: &[LinkFlit], credits: &[u32]) -> (u32, u32) {
    let f = flits.iter().enumerate().fold(0, |a, (p, f)| a | (f.valid as u32) << p);
    let c = credits.iter().enumerate().fold(0, |a, (p, &c)| a | ((c != 0) as u32) << p);
    (f, c)
}

/// Iterates the set bits of a mask, lowest first.
#[inline(always)]
fn bits64(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = (mask.trailing_zeros() & 63) as usize;
            mask &= mask - 1;
            Some(b)
        }
    })
}

fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = (mask.trailing_zeros() & 31) as usize;
            mask &= mask - 1;
            Some(b)
        }
    })
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
/// cycle of the fast engine reads come first, so that they share a few cache
/// lines: a network steps many routers in turn, and each one's state has
/// left the cache by the time its turn comes again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Router {
    // ---- read in every busy cycle
    /// The general engine (§9 features), used instead of the fields below
    /// when the configuration needs it (see [`Router::new`]).
    qos: Option<Box<Core>>,
    n: usize,
    m: usize,
    cycle: u64,
    vc_all: u32,
    /// Bit p for every port p.
    port_all: u32,
    /// Output ports with at least one VA requester.
    va_ports: u32,
    /// Output ports whose output register is valid.
    out_valid_ports: u32,
    /// Input ports with a nonzero `in_credit` register.
    credit_ports: u32,
    /// Input ports with a VC that is ACTIVE and non-empty (ST requesters).
    st_ports: u32,
    /// Input ports with a VC that is IDLE and non-empty (RC candidates).
    rc_ports: u32,
    /// Output ports with a VC that is non-empty and has a credit (stage 5 requesters).
    c_ports: u32,
    /// Output ports with a non-empty VC (slots present at point C).
    c_present: u32,
    di: u16,
    dout: u16,
    dd: u16,
    full: bool,
    /// FIFO age arbiter at point A (multiplexed crossbar, fifo scheduler).
    age_a: bool,
    /// FIFO age arbiter at point C (full crossbar, fifo scheduler).
    age_c: bool,
    /// VirtualClock at point A (multiplexed crossbar, virtualclock scheduler).
    vc_a: bool,
    /// VirtualClock at point C (full crossbar, virtualclock scheduler).
    vc_c: bool,
    vc_id_mask: u8,
    ib: FlitRings,
    ob: FlitRings,
    ivc: Box<[InVc; MAX_VCS_TOTAL]>,
    inp: Box<[InPort; MAX_PORTS]>,
    credits: Box<[u16; MAX_VCS_TOTAL]>,
    outp: Box<[OutPort; MAX_PORTS]>,
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
    dest_mask: u64,
    /// Output port per destination code, all 2^DW codes (codes >= endpoints -> 0).
    route_lut: Vec<u8>,
    /// Allowed output VCs per destination code (all 2^DW codes); empty
    /// without `topology.route_vcs`, so that VA keeps its plain fast path.
    avc_lut: Vec<u32>,
    /// Parallel output ports per destination code (§2 `route_links`); empty
    /// without the table.
    links_lut: Vec<u8>,
    /// Age stamps at point A (1 + cycle of the last VA grant; 0 at reset).
    in_stamp: Vec<u64>,
    /// Age stamps at point C.
    out_stamp: Vec<u64>,
    /// Vtick register of each input VC (§8.2).
    vtick_reg: Box<[u32; MAX_VCS_TOTAL]>,
    /// Vtick header field: lsb and width (read at RC when `vc_a | vc_c`).
    vtick_lsb: u32,
    vtick_width: u32,
    /// One VirtualClock scheduler per port (point A: input port p; point C:
    /// output port o); empty unless `vc_a | vc_c`.
    vclk: Vec<VcPoint>,
    cfg: RouterConfig,
}

impl Router {
    /// A router in the reset state. Configurations that use a §9 feature
    /// (mode other than `unpartitioned`, or `block_size > 1`) run on the
    /// general engine (`qos.rs`), the others on the mask-based fast engine.
    pub fn new(cfg: &RouterConfig) -> Router {
        let general = cfg.mode() != RouterMode::Unpartitioned || cfg.block_size() > 1;
        Self::with_engine(cfg, general)
    }

    /// A router in the reset state whose scheduling points run a model-only
    /// comparison scheduler instead of the configured one (docs/microarchitecture.md
    /// §10). No RTL implements it, so the result is never lockstep-checked;
    /// everything else is [`Router::new`]'s. The scheduler replaces FGVC at
    /// FGVC's points, so the configuration must use `scheduler = "virtualclock"`.
    pub fn new_comparison(cfg: &RouterConfig, which: ComparisonScheduler) -> Result<Router, ComparisonError> {
        Self::comparison_engine(cfg, which, cfg.mode() != RouterMode::Unpartitioned || cfg.block_size() > 1)
    }

    /// [`Router::new_comparison`] forced onto the general engine.
    #[doc(hidden)]
    pub fn new_comparison_general(cfg: &RouterConfig, which: ComparisonScheduler) -> Result<Router, ComparisonError> {
        Self::comparison_engine(cfg, which, true)
    }

    fn comparison_engine(cfg: &RouterConfig, which: ComparisonScheduler, general: bool) -> Result<Router, ComparisonError> {
        if cfg.scheduler() != Scheduler::Virtualclock {
            return Err(ComparisonError { which, configured: cfg.scheduler() });
        }
        let mut r = Self::with_engine(cfg, general);
        match which {
            ComparisonScheduler::FineGrainedFairQueueing => {
                // In reset state, so swapping the schedulers loses nothing.
                for pt in &mut r.vclk {
                    pt.sched = VirtualClockScheduler::new_fair_queueing(r.m, cfg.clock_width(), cfg.header().vtick.width);
                }
                if let Some(q) = &mut r.qos {
                    q.use_fair_queueing(cfg);
                }
            }
        }
        Ok(r)
    }

    /// [`Router::new`] forced onto the general engine (for cross-checking
    /// the two engines on foundation configurations).
    #[doc(hidden)]
    pub fn new_general(cfg: &RouterConfig) -> Router {
        Self::with_engine(cfg, true)
    }

    /// The general engine with the idle-port skipping disabled (tests only).
    #[cfg(test)]
    pub(crate) fn new_general_no_skip(cfg: &RouterConfig) -> Router {
        let mut r = Self::with_engine(cfg, true);
        r.qos.as_mut().unwrap().no_skip = true;
        r
    }

    fn with_engine(cfg: &RouterConfig, general: bool) -> Router {
        let n = cfg.ports();
        let m = cfg.vcs();
        assert!(n <= 32 && m <= 16);
        let nm = n * m;
        let dest = cfg.header().dest;
        assert_eq!(dest.lsb, 0);
        assert!(dest.width <= 16);
        let codes = 1usize << dest.width;
        let route_lut = (0..codes as u64).map(|d| cfg.route(d) as u8).collect();
        let links_lut = match cfg.route_link_table() {
            Some(_) => (0..codes as u64).map(|d| cfg.route_links(d) as u8).collect(),
            None => Vec::new(),
        };
        let avc_lut = match cfg.route_vc_table() {
            Some(_) => (0..codes as u64).map(|d| cfg.route_vcs(d)).collect(),
            None => Vec::new(),
        };
        let w = cfg.flit_width();
        let va_words = nm.div_ceil(64);
        let fifo = cfg.scheduler() == Scheduler::Fifo;
        let vclock = cfg.scheduler() == Scheduler::Virtualclock;
        let full = cfg.crossbar() == Crossbar::Full;
        let vt = cfg.header().vtick;
        assert!(vt.width <= 32);
        let mut r = Router {
            n,
            m,
            nm,
            di: cfg.input_buffer_depth() as u16,
            dout: cfg.output_buffer_depth() as u16,
            dd: cfg.downstream_buffer_depth() as u16,
            full,
            age_a: fifo && !full,
            age_c: fifo && full,
            vc_a: vclock && !full,
            vc_c: vclock && full,
            vtick_lsb: vt.lsb,
            vtick_width: vt.width,
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
            vc_all: ((1u64 << m) - 1) as u32,
            port_all: ((1u64 << n) - 1) as u32,
            dest_mask: (1u64 << dest.width) - 1,
            route_lut,
            avc_lut,
            links_lut,
            va_words,
            ib: FlitRings::new(nm, cfg.input_buffer_depth()),
            vtick_reg: Box::new([0; MAX_VCS_TOTAL]),
            vclk: if vclock {
                let sched = VirtualClockScheduler::new(m, cfg.clock_width(), vt.width);
                vec![VcPoint { sched, synced: 0 }; n]
            } else {
                Vec::new()
            },
            ivc: Box::new([InVc::default(); MAX_VCS_TOTAL]),
            in_stamp: vec![0; nm],
            inp: Box::new([InPort::default(); MAX_PORTS]),
            ob: FlitRings::new(nm, cfg.output_buffer_depth()),
            credits: Box::new([0; MAX_VCS_TOTAL]),
            out_stamp: vec![0; nm],
            outp: Box::new([OutPort::default(); MAX_PORTS]),
            va_req: vec![0; n * va_words],
            va_ports: 0,
            out_valid_ports: 0,
            credit_ports: 0,
            st_ports: 0,
            rc_ports: 0,
            c_ports: 0,
            c_present: 0,
            qos: general.then(|| Box::new(Core::new(cfg))),
            outputs: RouterOutputs::idle(cfg),
            cycle: 0,
            stats: RouterStats::default(),
            cfg: cfg.clone(),
        };
        r.reset();
        r
    }

    /// The state after a cycle with `rst_i` high (§4 "Reset"): identical to
    /// [`Router::new`], including `cycle() == 0` and zeroed statistics.
    pub fn reset(&mut self) {
        self.ib.clear();
        self.ivc.fill(InVc::default());
        self.vtick_reg.fill(0);
        for pt in &mut self.vclk {
            pt.sched.reset();
            pt.synced = 0;
        }
        self.in_stamp.fill(0);
        self.inp.fill(InPort { idle: self.vc_all, ..InPort::default() });
        self.ob.clear();
        self.credits.fill(self.dd);
        self.out_stamp.fill(0);
        self.outp.fill(OutPort { credit_ok: self.vc_all, ..OutPort::default() });
        self.va_req.fill(0);
        self.va_ports = 0;
        self.out_valid_ports = 0;
        self.credit_ports = 0;
        self.st_ports = 0;
        self.rc_ports = 0;
        self.c_ports = 0;
        self.c_present = 0;
        self.outputs.flits.fill(LinkFlit::IDLE);
        self.outputs.credits.fill(0);
        self.cycle = 0;
        self.stats = RouterStats::default();
        if let Some(q) = &mut self.qos {
            q.reset();
        }
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
    pub fn output_activity(&self) -> (u32, u32) {
        if self.qos.is_some() {
            return active_ports(&self.outputs.flits, &self.outputs.credits);
        }
        // The fast engine keeps exactly these sets for its own idle test.
        (self.out_valid_ports, self.credit_ports)
    }

    /// Applies the inputs of the current cycle and advances one rising edge.
    ///
    /// `inputs.flits` and `inputs.credits` must have one entry per port. Data
    /// bits at or above `flit_width` and VC-id bits at or above the link's VC
    /// width `max(1, ceil(log2 vcs))` are not part of the link and are ignored;
    /// credit bits at or above `vcs` are ignored.
    pub fn step(&mut self, inputs: &RouterInputs) {
        let (valid, returning) = active_ports(&inputs.flits[..self.n], &inputs.credits[..self.n]);
        self.step_active(inputs, valid, returning);
    }

    /// [`Router::step`] for a caller that already knows which inputs are
    /// not idle: bit p of `valid` must be set if `inputs.flits[p]` is valid,
    /// bit o of `returning` if `inputs.credits[o]` is nonzero. The fast
    /// engine reads no other port (extra bits cost time but change nothing),
    /// which saves a network of mostly idle links from reading them all.
    pub fn step_active(&mut self, inputs: &RouterInputs, valid: u32, returning: u32) {
        let n = self.n;
        let in_flits = &inputs.flits[..n];
        let in_credits = &inputs.credits[..n];
        debug_assert!(
            {
                let (f, c) = active_ports(in_flits, in_credits);
                f & !valid == 0 && c & !returning == 0
            },
            "a non-idle input outside `valid` / `returning`"
        );
        if let Some(q) = &mut self.qos {
            q.step(inputs, &mut self.outputs, &mut self.stats, self.cycle);
            self.cycle += 1;
            return;
        }
        let m = self.m;
        let valid = valid & self.port_all;
        let ret_ports = returning & self.port_all;

        // Port sets whose summary bit (st/rc/c_ports) may change this cycle;
        // recomputed at the end, so every phase sees the start-of-cycle sets.
        let mut touched_in = 0u32;
        let mut touched_out = 0u32;

        // Free output VCs per port at the start of the cycle, for RC's choice
        // among parallel links (VA below changes `allocated` before RC runs).
        let mut free_start = [0u8; MAX_PORTS];
        if !self.links_lut.is_empty() && self.rc_ports != 0 {
            for (o, f) in free_start.iter_mut().enumerate().take(n) {
                *f = (!self.outp[o].allocated & self.vc_all).count_ones() as u8;
            }
        }

        // 0. BW admission, on the start-of-cycle counts.
        // Nothing to do (no input, no flit that can move, no VA request, all
        // output registers already 0): only the cycle count changes.
        let busy = valid
            | ret_ports
            | self.st_ports
            | self.rc_ports
            | self.c_ports
            | self.va_ports
            | self.credit_ports
            | self.out_valid_ports
            | if self.vc_c { self.c_present } else { 0 };
        if busy == 0 {
            self.cycle += 1;
            return;
        }
        // The flit is written now, but `nonempty` (which every later phase
        // uses to find buffered flits) only at the end of the cycle, and every
        // pop of this cycle takes an older flit from the front: so no phase
        // sees it before cycle t+1.
        let mut bw_accept = 0u32;
        for p in bits(valid) {
            let f = &in_flits[p];
            let v = (f.vc & self.vc_id_mask) as usize;
            if !f.valid {
                continue;
            }
            if v >= m {
                self.stats.dropped_bad_vc += 1;
            } else if self.ib.count(p * m + v) >= self.di {
                self.stats.dropped_full += 1;
            } else {
                bw_accept |= 1 << p;
                let mut data = f.data;
                for (d, w) in data.iter_mut().zip(self.word_mask) {
                    *d &= w;
                }
                self.ib.push(p * m + v, Flit { data, head: f.head, tail: f.tail, vtick: 0 });
                self.inp[p & 31].pushed = 1 << v;
                self.stats.flits_accepted += 1;
            }
        }

        // 1. Stage 5 decisions.
        let c_ports = self.c_ports;
        let c_present = if self.vc_c { self.c_present } else { 0 };
        if self.vc_c {
            // Point C: VirtualClock over the output VCs (§8). Every point with
            // a present slot is visited (stamping does not need eligibility).
            let cycle = self.cycle;
            for o in bits(c_present) {
                let pt = &mut self.vclk[o];
                pt.sync(cycle);
                let op = &mut self.outp[o & 31];
                let ob = &self.ob;
                let base = o * m;
                let g = pt.sched.grant_with(op.nonempty, op.nonempty & op.credit_ok, |u| {
                    ob.front(base + u).vtick as u64
                });
                op.picked = g.unwrap_or(0) as u8;
                debug_assert_eq!(g.is_some(), c_ports >> o & 1 == 1);
            }
        } else {
        for o in bits(c_ports) {
            let op = &mut self.outp[o & 31];
            let elig = (op.nonempty & op.credit_ok) as u64;
            op.picked = if self.age_c {
                age_pick(elig, &self.out_stamp[o * m..o * m + m]).unwrap() as u8
            } else {
                rr_pick(elig, op.oc_ptr as u32).unwrap() as u8
            };
        }
        }

        // 2. ST.
        for p in bits(self.credit_ports) {
            self.outputs.credits[p] = 0;
        }
        self.credit_ports = 0;
        let st_ports = self.st_ports;
        touched_in |= st_ports;
        if self.full {
            for p in bits(st_ports) {
                let ip = self.inp[p & 31];
                for v in bits(ip.active & ip.nonempty) {
                    let d = self.ivc[(p * m + v) & 511];
                    let (o, u) = (d.route as usize, d.ovc as usize);
                    if self.ob.count(o * m + u) < self.dout {
                        touched_out |= 1 << o;
                        self.move_flit(p, v, o, u);
                    }
                }
            }
        } else {
            let mut out_req = 0u32;
            for p in bits(st_ports) {
                let ip = self.inp[p & 31];
                let mut ready = 0u64;
                for v in bits(ip.active & ip.nonempty) {
                    let d = self.ivc[(p * m + v) & 511];
                    let room = self.ob.count(d.route as usize * m + d.ovc as usize) < self.dout;
                    ready |= (room as u64) << v;
                }
                // (A)
                if self.vc_a {
                    let pt = &mut self.vclk[p];
                    pt.sync(self.cycle);
                    let vr = &self.vtick_reg[p * m..p * m + m];
                    let g = pt.sched.grant_with(ip.active & ip.nonempty, ready as u32, |v| vr[v] as u64);
                    let Some(v) = g else { continue };
                    self.inp[p & 31].cand = v as u8;
                    let o = self.ivc[(p * m + v) & 511].route as usize;
                    self.outp[o & 31].xb_req |= 1 << p;
                    out_req |= 1 << o;
                    continue;
                }
                if ready == 0 {
                    continue;
                }
                let v = if self.age_a {
                    age_pick(ready, &self.in_stamp[p * m..p * m + m]).unwrap()
                } else {
                    rr_pick(ready, ip.xa_ptr as u32).unwrap()
                } as usize;
                self.inp[p & 31].cand = v as u8;
                let o = self.ivc[(p * m + v) & 511].route as usize;
                self.outp[o & 31].xb_req |= 1 << p;
                out_req |= 1 << o;
            }
            // (B)
            touched_out |= out_req;
            let mut won = 0u32;
            for o in bits(out_req) {
                let op = &mut self.outp[o & 31];
                let p = rr_pick(op.xb_req as u64, op.xb_ptr as u32).unwrap() as usize;
                op.xb_req = 0;
                op.xb_ptr = inc_mod(p, n) as u8;
                let v = self.inp[p & 31].cand as usize;
                if !self.age_a && !self.vc_a {
                    self.inp[p & 31].xa_ptr = inc_mod(v, m) as u8;
                }
                let u = self.ivc[(p * m + v) & 511].ovc as usize;
                won |= 1 << p;
                self.move_flit(p, v, o, u);
            }
            if self.vc_a {
                // Point A grants take effect only for the winners at B.
                for p in bits(st_ports) {
                    let pt = &mut self.vclk[p];
                    pt.sched.update(won >> p & 1 == 1);
                    pt.synced = self.cycle + 1;
                }
            }
        }

        // 3. Stage 5: pops, output registers, credits.
        for o in bits(self.out_valid_ports & !c_ports) {
            self.outputs.flits[o] = LinkFlit::IDLE;
        }
        self.out_valid_ports = c_ports;
        touched_out |= c_ports | ret_ports;
        for o in bits(c_ports) {
            let op = &mut self.outp[o & 31];
            let u = op.picked as usize;
            let j = o * m + u;
            let f = self.ob.pop(j);
            op.nonempty &= !(((self.ob.count(j) == 0) as u32) << u);
            self.credits[j & 511] -= 1;
            op.credit_ok &= !(((self.credits[j & 511] == 0) as u32) << u);
            if !self.age_c {
                op.oc_ptr = inc_mod(u, m) as u8;
            }
            self.outputs.flits[o] = LinkFlit { valid: true, dummy: false, vc: u as u8, head: f.head, tail: f.tail, data: f.data };
            self.stats.tails_forwarded += f.tail as u64;
            self.stats.flits_forwarded += 1;
            if self.vc_c {
                let pt = &mut self.vclk[o];
                pt.sched.update(true);
                pt.synced = self.cycle + 1;
            }
        }
        for o in bits(c_present & !c_ports) {
            let pt = &mut self.vclk[o];
            pt.sched.update(false);
            pt.synced = self.cycle + 1;
        }
        for o in bits(ret_ports) {
            for u in bits(in_credits[o] & self.vc_all) {
                let j = o * m + u;
                if self.credits[j & 511] < self.dd {
                    self.credits[j & 511] += 1;
                    self.outp[o & 31].credit_ok |= 1 << u;
                }
            }
        }

        // 4. VA, on the start-of-cycle `allocated`.
        let stamp = self.cycle + 1;
        let vw = self.va_words;
        for o in bits(self.va_ports) {
            let op = &mut self.outp[o & 31];
            let free = !op.allocated & self.vc_all;
            if free == 0 {
                continue;
            }
            let req = &mut self.va_req[o * vw..o * vw + vw];
            let i = if self.avc_lut.is_empty() {
                rr_pick_wide(req, op.va_ptr as usize).unwrap()
            } else {
                // Only requesters with a free VC in their allowed set compete.
                let mut sat = [0u64; MAX_VCS_TOTAL / 64];
                for (k, &word) in req.iter().enumerate() {
                    for b in bits64(word) {
                        if self.ivc[(k * 64 + b) & 511].avc & free != 0 {
                            sat[k] |= 1 << b;
                        }
                    }
                }
                match rr_pick_wide(&sat[..vw], op.va_ptr as usize) {
                    Some(i) => i,
                    None => continue,
                }
            };
            req[i / 64] &= !(1u64 << (i % 64));
            op.va_req_count -= 1;
            if op.va_req_count == 0 {
                self.va_ports &= !(1 << o);
            }
            let allowed = if self.avc_lut.is_empty() { free } else { free & self.ivc[i & 511].avc };
            let u = allowed.trailing_zeros() as usize;
            op.allocated |= 1 << u;
            op.va_ptr = inc_mod(i, self.nm) as u16;
            let (p, v) = (i / m, i % m);
            self.inp[p & 31].active |= 1 << v;
            touched_in |= 1 << p;
            self.ivc[i & 511].ovc = u as u8;
            self.in_stamp[i] = stamp;
            self.out_stamp[o * m + u] = stamp;
            self.stats.vc_grants += 1;
        }

        // 6. RC for VCs that were IDLE at the start of the cycle.
        touched_in |= self.rc_ports;
        for p in bits(self.rc_ports) {
            let ip = self.inp[p & 31];
            for v in bits(ip.idle & ip.nonempty) {
                let i = p * m + v;
                let front = self.ib.front(i);
                let code = (front.data[0] & self.dest_mask) as usize;
                let mut o = self.route_lut[code];
                if !self.links_lut.is_empty() {
                    // Most free output VCs; a later port must have strictly more.
                    let base = o as usize;
                    for q in base + 1..base + self.links_lut[code] as usize {
                        if free_start[q] > free_start[o as usize] {
                            o = q as u8;
                        }
                    }
                }
                if !self.avc_lut.is_empty() {
                    self.ivc[i & 511].avc = self.avc_lut[code];
                }
                if self.vc_a | self.vc_c {
                    self.vtick_reg[i & 511] = extract_field(&front.data, self.vtick_lsb, self.vtick_width) as u32;
                }
                self.ivc[i & 511].route = o;
                let o = o as usize;
                self.va_req[o * vw + i / 64] |= 1u64 << (i % 64);
                self.outp[o & 31].va_req_count += 1;
                self.va_ports |= 1 << o;
                self.stats.routed += 1;
            }
            self.inp[p & 31].idle &= !ip.nonempty;
        }

        // 5 (output VCs freed by tails in ST), the end of 6 (input VCs freed
        // in ST become IDLE) and 7 (the flits written in phase 0 become
        // visible), with the summary sets for the next cycle: in one pass,
        // as nothing after VA reads `allocated` and nothing after RC reads
        // `idle` or `nonempty`. Tails crossed only from ports in `st_ports`
        // to ports in `touched_out`, which both sets already hold.
        touched_in |= bw_accept;
        // In locals: the compiler cannot tell the port arrays from `self`'s
        // fields and would otherwise store the sets on every iteration.
        let (mut st, mut rc) = (self.st_ports, self.rc_ports);
        for p in bits(touched_in) {
            let ip = &mut self.inp[p & 31];
            ip.idle |= ip.freed;
            ip.freed = 0;
            ip.nonempty |= ip.pushed;
            ip.pushed = 0;
            let b = 1u32 << p;
            st = (st & !b) | ((ip.active & ip.nonempty != 0) as u32) << p;
            rc = (rc & !b) | ((ip.idle & ip.nonempty != 0) as u32) << p;
        }
        (self.st_ports, self.rc_ports) = (st, rc);
        let (mut c, mut present) = (self.c_ports, self.c_present);
        for o in bits(touched_out) {
            let op = &mut self.outp[o & 31];
            op.allocated &= !op.alloc_clear;
            op.alloc_clear = 0;
            let b = 1u32 << o;
            c = (c & !b) | ((op.nonempty & op.credit_ok != 0) as u32) << o;
            present = (present & !b) | ((op.nonempty != 0) as u32) << o;
        }
        (self.c_ports, self.c_present) = (c, present);

        self.cycle += 1;
    }

    /// Stage 4 move of the front flit of input VC (p, v) into output VC (o, u).
    #[inline(always)]
    fn move_flit(&mut self, p: usize, v: usize, o: usize, u: usize) {
        let m = self.m;
        let i = p * m + v;
        let mut f = self.ib.pop(i);
        // §8.2: the input VC's Vtick register travels with the flit; a tail
        // clears it. Only RC under VirtualClock writes it, so otherwise it is
        // 0 (as is the popped flit's) and need not be read.
        if self.vc_a | self.vc_c {
            f.vtick = self.vtick_reg[i & 511];
            if f.tail {
                self.vtick_reg[i & 511] = 0;
            }
        }
        let ip = &mut self.inp[p & 31];
        // Whether a VC (or credit count) just ran out varies from flit to
        // flit and mispredicts as a branch; here and in stage 5 the mask
        // update is branch-free.
        ip.nonempty &= !(((self.ib.count(i) == 0) as u32) << v);
        self.outputs.credits[p] |= 1 << v;
        self.credit_ports |= 1 << p;
        self.ob.push(o * m + u, f);
        let op = &mut self.outp[o & 31];
        op.nonempty |= 1 << u;
        if f.tail {
            ip.active &= !(1 << v);
            ip.freed |= 1 << v;
            op.alloc_clear |= 1 << u;
        }
        self.stats.crossbar_moves += 1;
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
    /// Flits in input VC buffer (p, v).
    pub fn input_occupancy(&self, p: usize, v: usize) -> usize {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        if let Some(q) = &self.qos {
            return q.input_occupancy(p, v);
        }
        self.ib.count(p * self.m + v) as usize
    }
    /// Flits in output VC buffer (o, u).
    pub fn output_occupancy(&self, o: usize, u: usize) -> usize {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        if let Some(q) = &self.qos {
            return q.output_occupancy(o, u);
        }
        self.ob.count(o * self.m + u) as usize
    }
    /// Free slots of input VC (p, v): what an upstream sender may still send without a drop.
    pub fn input_free(&self, p: usize, v: usize) -> usize {
        self.ib.capacity() as usize - self.input_occupancy(p, v)
    }
    /// Credits of output VC (o, u).
    pub fn credits(&self, o: usize, u: usize) -> usize {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        if let Some(q) = &self.qos {
            return q.credits(o, u);
        }
        self.credits[(o * self.m + u) & 511] as usize
    }
    /// Whether output VC (o, u) is held by a message.
    pub fn allocated(&self, o: usize, u: usize) -> bool {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        if let Some(q) = &self.qos {
            return q.allocated(o, u);
        }
        self.outp[o & 31].allocated >> u & 1 == 1
    }
    /// State of input VC (p, v).
    pub fn vc_state(&self, p: usize, v: usize) -> VcState {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        if let Some(q) = &self.qos {
            let (st, route, ovc) = q.vc_state(p, v);
            return match st {
                super::qos::IDLE => VcState::Idle,
                super::qos::ROUTED => VcState::Routed { route },
                _ => VcState::Active { route, ovc },
            };
        }
        let i = p * self.m + v;
        let d = self.ivc[i & 511];
        if self.inp[p & 31].idle >> v & 1 == 1 {
            VcState::Idle
        } else if self.inp[p & 31].active >> v & 1 == 1 {
            VcState::Active { route: d.route as usize, ovc: d.ovc as usize }
        } else {
            VcState::Routed { route: d.route as usize }
        }
    }
    /// The k-th oldest flit of input VC (p, v), as a link flit on VC v (on
    /// the general engine: of lane 0, see [`Router::lane_flit`]).
    pub fn input_flit(&self, p: usize, v: usize, k: usize) -> Option<LinkFlit> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        if let Some(q) = &self.qos {
            return q.lane_flit(p, v, 0, k);
        }
        let i = p * self.m + v;
        (k < self.ib.count(i) as usize).then(|| {
            let f = self.ib.get(i, k);
            LinkFlit { valid: true, dummy: false, vc: v as u8, head: f.head, tail: f.tail, data: f.data }
        })
    }
    /// The VirtualClock scheduler of port `port` (§8: of input port `port` at
    /// point A for the multiplexed crossbar, of output port `port` at point C
    /// for the full crossbar) as its registers are at the start of the
    /// current cycle; `None` unless the scheduler is `virtualclock`.
    pub fn virtual_clock(&self, port: usize) -> Option<VirtualClockScheduler> {
        assert!(port < self.n, "no port {port}");
        if let Some(q) = &self.qos {
            return q.virtual_clock(port);
        }
        let pt = self.vclk.get(port)?;
        let mut s = pt.sched.clone();
        // Not visited since `synced`: no slot was present in those cycles.
        // Up to date (visited this cycle) it may hold stamped flits, and
        // there is nothing to catch up.
        if self.cycle > pt.synced {
            s.advance_idle(self.cycle - pt.synced);
        }
        Some(s)
    }
    /// The Vtick register of input VC (p, v) (§8.2; 0 unless the scheduler is `virtualclock`).
    pub fn vtick_register(&self, p: usize, v: usize) -> u64 {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        if let Some(q) = &self.qos {
            return q.header_register(p, v).vtick as u64;
        }
        self.vtick_reg[(p * self.m + v) & 511] as u64
    }
    /// The Vtick stored with the k-th oldest flit of output VC buffer (o, u).
    pub fn output_flit_vtick(&self, o: usize, u: usize, k: usize) -> Option<u64> {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        if let Some(q) = &self.qos {
            return q.output_flit_vtick(o, u, k);
        }
        let j = o * self.m + u;
        (k < self.ob.count(j) as usize).then(|| self.ob.get(j, k).vtick as u64)
    }
    /// Total flits held in input and output buffers.
    pub fn buffered_flits(&self) -> usize {
        if let Some(q) = &self.qos {
            return q.buffered_flits();
        }
        (0..self.nm).map(|i| (self.ib.count(i) + self.ob.count(i)) as usize).sum()
    }
    /// No flit buffered, no VC held, every output VC at full credit and no
    /// output valid: further idle cycles change nothing but `cycle()`.
    pub fn is_quiescent(&self) -> bool {
        if let Some(q) = &self.qos {
            return q.is_quiescent()
                && self.outputs.flits.iter().all(|f| !f.valid)
                && self.outputs.credits.iter().all(|&c| c == 0);
        }
        self.inp.iter().all(|ip| ip.nonempty == 0 && ip.idle == self.vc_all)
            && self.outp.iter().all(|op| op.nonempty == 0 && op.allocated == 0)
            && self.credits.iter().all(|&c| c == self.dd)
            && self.outputs.flits.iter().all(|f| !f.valid)
            && self.outputs.credits.iter().all(|&c| c == 0)
    }

    // ---------------------------------------------------------------- §9 introspection

    /// Whether this router runs on the general engine (§9 features).
    pub fn is_general(&self) -> bool {
        self.qos.is_some()
    }
    /// Flits in lane `l` of input VC (p, v) (§9.4; lane 0 is the regular
    /// buffer; 0 for a lane that does not exist).
    pub fn lane_occupancy(&self, p: usize, v: usize, l: usize) -> usize {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        match &self.qos {
            Some(q) => q.lane_occupancy(p, v, l),
            None if l == 0 => self.input_occupancy(p, v),
            None => 0,
        }
    }
    /// The k-th oldest flit of lane `l` of input VC (p, v).
    pub fn lane_flit(&self, p: usize, v: usize, l: usize, k: usize) -> Option<LinkFlit> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        match &self.qos {
            Some(q) => q.lane_flit(p, v, l, k),
            None if l == 0 => self.input_flit(p, v, k),
            None => None,
        }
    }
    /// The §9.4 registers of input VC (p, v) (`None` on the fast engine,
    /// where they are all 0).
    pub fn lane_regs(&self, p: usize, v: usize) -> Option<LaneRegs> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        self.qos.as_ref().map(|q| q.lane_regs(p, v))
    }
    /// History stack depth `hsp` of input VC (p, v).
    pub fn stack_depth(&self, p: usize, v: usize) -> usize {
        self.lane_regs(p, v).map_or(0, |r| r.depth)
    }
    /// The header register `hdr` of input VC (p, v) (§9.1; `None` on the fast engine).
    pub fn header_register(&self, p: usize, v: usize) -> Option<HeaderFields> {
        assert!(p < self.n && v < self.m, "no input VC ({p}, {v})");
        self.qos.as_ref().map(|q| q.header_register(p, v))
    }
    /// `owner[o][u]` (§9.4: the input VC `p*M+v` last granted output VC (o, u)).
    pub fn owner(&self, o: usize, u: usize) -> Option<usize> {
        assert!(o < self.n && u < self.m, "no output VC ({o}, {u})");
        self.qos.as_ref().map(|q| q.owner(o, u))
    }
}

//! The sizes and feature switches every block builder reads, derived once
//! from the validated configuration (docs/microarchitecture.md §1).

use crate::mutant::Mutant;
use crate::verilog::clog2;
use wormqos_config::{Crossbar, RouterConfig, RouterMode, Scheduler};


/// The largest shared VC buffer (entries of all VCs of a port): one 64-deep
/// LUTRAM column (7-series RAM64M) then holds every VC. Deeper shared
/// memories need a depth multiplexer behind the LUTRAM that costs more than
/// the per-VC candidate multiplexer it replaces (qos8, 16 VCs x 40 flits:
/// ~1,900 logic LUTs per input port, measured, against an estimated ~970:
/// 16 FIFO controls and a 16:1 multiplexer of 130 bits), and flows without
/// LUTRAM (iCE40) would map one module of ~80,000 flip-flops instead of one
/// FIFO of 5,000 mapped once.
pub(crate) const SHARED_BUFFER_ENTRIES_MAX: u32 = 64;

/// Derived sizes.
#[derive(Clone, Debug)]
pub(crate) struct Dims {
    pub prefix: String,
    pub n: u32,
    pub m: u32,
    pub w: u32,
    /// Buffered flit width: `{head, tail, data}`.
    pub fw: u32,
    pub di: u32,
    pub do_: u32,
    pub dd: u32,
    pub vw: u32,
    /// Route (output port index) width.
    pub pw: u32,
    /// Flat VC index width, clog2(N*M).
    pub iw: u32,
    pub dw: u32,
    pub crossbar: Crossbar,
    pub scheduler: Scheduler,
    pub routes: Vec<u32>,
    pub mutant: Option<Mutant>,
    /// Vtick field: lsb and width VTW (header layout).
    pub vtl: u32,
    pub vtw: u32,
    /// VirtualClock counter width C.
    pub cw: u32,
    /// QoS mode (§9.1).
    pub mode: RouterMode,
    /// Traffic classes s.
    pub s: u32,
    /// Extra lanes per input VC E (preemptive mode; else 0).
    pub e: u32,
    /// Class field: lsb and width CW (header layout).
    pub cll: u32,
    pub clw: u32,
    /// Header width HW = DW + CW + VTW (the `hdr` register).
    pub hw: u32,
    /// Static partition: class of each output VC (TR/NP).
    pub vcc: Option<Vec<u32>>,
    /// Flit acceleration (§9.5).
    pub accel: bool,
    /// Block size b (§9.3).
    pub b: u32,
    /// Allowed output VCs per destination (§2 `route_vcs`), if the table is
    /// given (and not dropped by the `route-vcs-ignored` mutant).
    pub avc: Option<Vec<u32>>,
    /// Parallel output ports per destination (§2 `route_links`), if some
    /// destination has more than one (and not dropped by the
    /// `link-choice-first` mutant).
    pub links: Option<Vec<u32>>,
}

impl Dims {
    pub fn new(cfg: &RouterConfig, mutant: Option<Mutant>) -> Dims {
        let n = cfg.ports() as u32;
        let m = cfg.vcs() as u32;
        Dims {
            prefix: cfg.name().to_string(),
            n,
            m,
            w: cfg.flit_width(),
            fw: cfg.flit_width() + if cfg.mode() == RouterMode::Preemptive { 3 } else { 2 },
            di: cfg.input_buffer_depth() as u32,
            do_: cfg.output_buffer_depth() as u32,
            dd: cfg.downstream_buffer_depth() as u32,
            vw: cfg.vc_width(),
            pw: clog2(n as u64),
            iw: clog2((n * m) as u64),
            dw: cfg.header().dest.width,
            crossbar: cfg.crossbar(),
            scheduler: cfg.scheduler(),
            routes: cfg.routes().to_vec(),
            mutant,
            vtl: cfg.header().vtick.lsb,
            vtw: cfg.header().vtick.width,
            cw: cfg.clock_width(),
            mode: cfg.mode(),
            s: cfg.traffic_classes(),
            e: cfg.extra_lanes() as u32,
            cll: cfg.header().class.lsb,
            clw: cfg.header().class.width,
            hw: cfg.header().width(),
            vcc: cfg.vc_classes().map(|v| v.to_vec()),
            accel: cfg.acceleration(),
            b: cfg.block_size(),
            links: match mutant {
                Some(Mutant::LinkChoiceFirst) => None,
                _ => cfg.route_link_table().filter(|t| t.iter().any(|&g| g > 1)).map(|t| t.to_vec()),
            },
            avc: match mutant {
                Some(Mutant::RouteVcsIgnored) => None,
                _ => cfg.route_vc_table().map(|t| t.to_vec()),
            },
        }
    }
    /// Preemptive mode (§9.4): lanes, history stack, dummy flits.
    pub fn pre(&self) -> bool {
        self.mode == RouterMode::Preemptive
    }
    /// Static partition in VA (§9.2).
    pub fn part(&self) -> bool {
        // with one class the partition is every VC for class 0: §6 unchanged
        self.vcc.is_some() && self.s > 1
    }
    /// The VA allocators need each input VC's class (partition or acceleration).
    pub fn need_cls(&self) -> bool {
        (self.part() && !self.is(Mutant::PartIgnoresClass)) || self.accel
    }
    /// Lane index width, clog2(E+1).
    pub fn lw(&self) -> u32 {
        clog2(self.e as u64 + 1)
    }
    pub fn nm(&self) -> u32 {
        self.n * self.m
    }
    /// Input VC buffers of a port share one memory (`vc_buffer`): one flit
    /// enters and at most one (point A's candidate) leaves per cycle. The
    /// full crossbar moves every VC at once and preemption's lanes have
    /// their own buffers (`input_port_p`), so both keep a FIFO per VC.
    pub fn shared_ib(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && !self.pre() && self.m * self.di <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// Output VC buffers of a port share one memory: point B pushes at most
    /// one flit per output port and point C pops one (multiplexed crossbar).
    pub fn shared_ob(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.m * self.do_ <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// The header fields route computation reads at every VC's front, as
    /// `(lsb, width)` in the flit's data: the destination, and the class and
    /// Vtick fields where they are used. A shared input buffer keeps a packed
    /// copy of them per VC (`vc_buffer`'s side memories).
    pub fn rc_fields(&self) -> Vec<(u32, u32)> {
        let mut f = vec![(0, self.dw)];
        if self.need_cls() {
            f.push((self.cll, self.clw));
        }
        if self.vclock() {
            f.push((self.vtl, self.vtw));
        }
        f
    }
    /// Width of the packed [`Dims::rc_fields`].
    pub fn rc_w(&self) -> u32 {
        self.rc_fields().iter().map(|f| f.1).sum()
    }
    pub fn is(&self, m: Mutant) -> bool {
        self.mutant == Some(m)
    }
    /// Full crossbar with the `fifo` scheduler: age order at point C.
    pub(crate) fn age_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.scheduler == Scheduler::Fifo
    }
    pub(crate) fn age_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.scheduler == Scheduler::Fifo
    }
    /// `virtualclock`: every input VC has a Vtick register.
    pub fn vclock(&self) -> bool {
        self.scheduler == Scheduler::Virtualclock
    }
    /// VirtualClock scheduler at point A (multiplexed crossbar).
    pub(crate) fn vc_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.vclock()
    }
    /// VirtualClock scheduler at point C (full crossbar): the output VC
    /// buffers also store each flit's Vtick.
    pub(crate) fn vc_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.vclock()
    }
    /// Width of a free-output-VC count 0..=M.
    pub fn fcw(&self) -> u32 {
        clog2(self.m as u64 + 1)
    }
    /// Output VC buffer entry width: `{vtick (vc_at_c only), head, tail, data}`.
    pub(crate) fn obw(&self) -> u32 {
        self.fw + if self.vc_at_c() { self.vtw } else { 0 }
    }
}

//! The sizes and feature switches every block builder reads, derived once
//! from the validated configuration (docs/microarchitecture.md §1).

use crate::mutant::{Faults, Mutant};
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

/// The sizes and switches of one router, derived once from its validated
/// configuration. The letters in the field docs are the spec's notation
/// (docs/microarchitecture.md §1, §2, §8, §9); builders that write long
/// expressions bind them to those letters locally.
#[derive(Clone, Debug)]
pub(crate) struct Dims {
    /// Module name prefix (the configuration's `name`).
    pub prefix: String,
    /// N: physical ports.
    pub ports: u32,
    /// M: VCs per port.
    pub vcs: u32,
    /// W: flit data width.
    pub data_width: u32,
    /// FW: buffered flit width, `{head, tail, (dummy in P mode,) data}`.
    pub buf_flit_width: u32,
    /// DI: flits per input VC buffer.
    pub input_depth: u32,
    /// DO: flits per output VC buffer.
    pub output_depth: u32,
    /// DD: initial credits of each output VC.
    pub downstream_depth: u32,
    /// VW: width of a VC id on a link.
    pub vc_id_width: u32,
    /// Width of an output port index, clog2(N).
    pub port_id_width: u32,
    /// IW: width of a flat VC index, clog2(N*M).
    pub flat_vc_id_width: u32,
    /// DW: destination field width (header bits from 0).
    pub dest_width: u32,
    pub crossbar: Crossbar,
    pub scheduler: Scheduler,
    /// Output port of each destination code below `endpoints`.
    pub routes: Vec<u32>,
    /// The planted bug, if any, as named switches.
    pub faults: Faults,
    /// Vtick field: lsb and width VTW (header layout).
    pub vtick_lsb: u32,
    pub vtick_width: u32,
    /// C: VirtualClock counter width.
    pub clock_width: u32,
    /// QoS mode (§9.1).
    pub mode: RouterMode,
    /// s: traffic classes.
    pub classes: u32,
    /// E: extra lanes per input VC (preemptive mode; else 0).
    pub extra_lanes: u32,
    /// Class field: lsb and width CW (header layout).
    pub class_lsb: u32,
    pub class_width: u32,
    /// HW = DW + CW + VTW: the header fields kept in the `hdr` register.
    pub header_width: u32,
    /// Static partition: class of each output VC (TR/NP).
    pub vc_class: Option<Vec<u32>>,
    /// Flit acceleration (§9.5).
    pub acceleration: bool,
    /// b: block size (§9.3).
    pub block_size: u32,
    /// Allowed output VCs per destination (§2 `route_vcs`), if the table is
    /// given (and not dropped by the `route-vcs-ignored` mutant).
    pub allowed_vcs: Option<Vec<u32>>,
    /// Parallel output ports per destination (§2 `route_links`), if some
    /// destination has more than one (and not dropped by the
    /// `link-choice-first` mutant).
    pub link_groups: Option<Vec<u32>>,
}

impl Dims {
    pub fn new(cfg: &RouterConfig, mutant: Option<Mutant>) -> Dims {
        let ports = cfg.ports() as u32;
        let vcs = cfg.vcs() as u32;
        let header = cfg.header();
        let faults = Faults::of(mutant);
        Dims {
            prefix: cfg.name().to_string(),
            ports,
            vcs,
            data_width: cfg.flit_width(),
            buf_flit_width: cfg.flit_width() + if cfg.mode() == RouterMode::Preemptive { 3 } else { 2 },
            input_depth: cfg.input_buffer_depth() as u32,
            output_depth: cfg.output_buffer_depth() as u32,
            downstream_depth: cfg.downstream_buffer_depth() as u32,
            vc_id_width: cfg.vc_width(),
            port_id_width: clog2(ports as u64),
            flat_vc_id_width: clog2((ports * vcs) as u64),
            dest_width: header.dest.width,
            crossbar: cfg.crossbar(),
            scheduler: cfg.scheduler(),
            routes: cfg.routes().to_vec(),
            faults,
            vtick_lsb: header.vtick.lsb,
            vtick_width: header.vtick.width,
            clock_width: cfg.clock_width(),
            mode: cfg.mode(),
            classes: cfg.traffic_classes(),
            extra_lanes: cfg.extra_lanes() as u32,
            class_lsb: header.class.lsb,
            class_width: header.class.width,
            header_width: header.width(),
            vc_class: cfg.vc_classes().map(|v| v.to_vec()),
            acceleration: cfg.acceleration(),
            block_size: cfg.block_size(),
            link_groups: if faults.rc_first_parallel_link {
                None
            } else {
                cfg.route_link_table().filter(|t| t.iter().any(|&g| g > 1)).map(|t| t.to_vec())
            },
            allowed_vcs: if faults.va_ignores_route_vcs { None } else { cfg.route_vc_table().map(|t| t.to_vec()) },
        }
    }
    /// Preemptive mode (§9.4): lanes, history stack, dummy flits.
    pub fn preemptive(&self) -> bool {
        self.mode == RouterMode::Preemptive
    }
    /// Static partition in VA (§9.2).
    pub fn partitioned(&self) -> bool {
        // with one class the partition is every VC for class 0: §6 unchanged
        self.vc_class.is_some() && self.classes > 1
    }
    /// The VA allocators need each input VC's class (partition or acceleration).
    pub fn va_needs_class(&self) -> bool {
        (self.partitioned() && !self.faults.va_ignores_partition) || self.acceleration
    }
    /// Lane index width, clog2(E+1).
    pub fn lane_id_width(&self) -> u32 {
        clog2(self.extra_lanes as u64 + 1)
    }
    /// N*M: input (or output) VCs of the router.
    pub fn all_vcs(&self) -> u32 {
        self.ports * self.vcs
    }
    /// Input VC buffers of a port share one memory (`vc_buffer`): one flit
    /// enters and at most one (point A's candidate) leaves per cycle. The
    /// full crossbar moves every VC at once and preemption's lanes have
    /// their own buffers (`input_port_p`), so both keep a FIFO per VC.
    pub fn shared_ib(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && !self.preemptive() && self.vcs * self.input_depth <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// Output VC buffers of a port share one memory: point B pushes at most
    /// one flit per output port and point C pops one (multiplexed crossbar).
    pub fn shared_ob(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.vcs * self.output_depth <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// The header fields route computation reads at every VC's front, as
    /// `(lsb, width)` in the flit's data: the destination, and the class and
    /// Vtick fields where they are used. A shared input buffer keeps a packed
    /// copy of them per VC (`vc_buffer`'s side memories).
    pub fn rc_fields(&self) -> Vec<(u32, u32)> {
        let mut f = vec![(0, self.dest_width)];
        if self.va_needs_class() {
            f.push((self.class_lsb, self.class_width));
        }
        if self.virtualclock() {
            f.push((self.vtick_lsb, self.vtick_width));
        }
        f
    }
    /// Width of the packed [`Dims::rc_fields`].
    pub fn rc_fields_width(&self) -> u32 {
        self.rc_fields().iter().map(|f| f.1).sum()
    }
    /// Full crossbar with the `fifo` scheduler: age order at point C.
    pub(crate) fn age_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.scheduler == Scheduler::Fifo
    }
    /// Multiplexed crossbar with the `fifo` scheduler: age order at point A.
    pub(crate) fn age_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.scheduler == Scheduler::Fifo
    }
    /// `virtualclock`: every input VC has a Vtick register.
    pub fn virtualclock(&self) -> bool {
        self.scheduler == Scheduler::Virtualclock
    }
    /// VirtualClock scheduler at point A (multiplexed crossbar).
    pub(crate) fn vc_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.virtualclock()
    }
    /// VirtualClock scheduler at point C (full crossbar): the output VC
    /// buffers also store each flit's Vtick.
    pub(crate) fn vc_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.virtualclock()
    }
    /// Width of a free-output-VC count 0..=M.
    pub fn free_count_width(&self) -> u32 {
        clog2(self.vcs as u64 + 1)
    }
    /// Output VC buffer entry width: `{vtick (vc_at_c only), head, tail, data}`.
    pub(crate) fn ob_entry_width(&self) -> u32 {
        self.buf_flit_width + if self.vc_at_c() { self.vtick_width } else { 0 }
    }
}

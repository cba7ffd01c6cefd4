//! The sizes and feature switches every block builder reads, derived once
//! from the validated configuration (docs/microarchitecture.md §1).

use crate::mutant::{Faults, Mutant};
use crate::verilog::clog2;
use wormqos_config::{Field, FlitOrder, Partition, Preemption, Qos, RouterConfig, Scheduling, SchedulingPoint};

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
    /// How allocation and the input ports treat traffic classes (§9).
    pub qos: Qos,
    /// The flit scheduler: point A or C, its order, the block size (§6, §8, §9.3).
    pub scheduling: Scheduling,
    /// Output port of each destination code below `endpoints`.
    pub routes: Vec<u32>,
    /// The planted bug, if any, as named switches.
    pub faults: Faults,
    /// The header's Vtick field, lsb and width VTW (header layout; the
    /// preemptive input port's `hdr` register keeps it).
    pub vtick: Field,
    /// s: traffic classes.
    pub classes: u32,
    /// Class field: lsb and width CW (header layout).
    pub class_lsb: u32,
    pub class_width: u32,
    /// HW = DW + CW + VTW: the header fields kept in the `hdr` register.
    pub header_width: u32,
    /// Allowed output VCs per destination (§2 `route_vcs`), if the table is
    /// given (and not dropped by the `route-vcs-ignored` mutant).
    pub allowed_vcs: Option<Vec<u32>>,
    /// Parallel output ports per destination (§2 `route_links`), if some
    /// destination has more than one (and not dropped by the
    /// `link-choice-first` mutant).
    pub link_groups: Option<Vec<u32>>,
    /// `router.routing = "programmable"`: RC reads the top's table registers
    /// (which then always keep allowed VC sets, every VC by default).
    pub programmable: bool,
    /// `router.vc_reallocation = "atomic"`: an output VC whose tail has
    /// crossed drains (empty buffer, every credit back) before VA may grant
    /// it again (§6 stage 3, *Output-VC reallocation*).
    pub atomic: bool,
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
            // {head, tail, (dummy,) data}
            buf_flit_width: cfg.flit_width() + if let Qos::Preemptive(_) = cfg.qos() { 3 } else { 2 },
            input_depth: cfg.input_buffer_depth() as u32,
            output_depth: cfg.output_buffer_depth() as u32,
            downstream_depth: cfg.downstream_buffer_depth() as u32,
            vc_id_width: cfg.vc_width(),
            port_id_width: clog2(ports as u64),
            flat_vc_id_width: clog2((ports * vcs) as u64),
            dest_width: header.dest.width,
            qos: cfg.qos().clone(),
            scheduling: *cfg.scheduling(),
            routes: cfg.routes().to_vec(),
            faults,
            vtick: header.vtick,
            classes: cfg.traffic_classes(),
            class_lsb: header.class.lsb,
            class_width: header.class.width,
            header_width: header.width(),
            link_groups: if faults.rc_first_parallel_link {
                None
            } else {
                cfg.route_link_table().filter(|t| t.iter().any(|&g| g > 1)).map(|t| t.to_vec())
            },
            allowed_vcs: match (faults.va_ignores_route_vcs, cfg.route_vc_table()) {
                (true, _) => None,
                (false, Some(t)) => Some(t.to_vec()),
                (false, None) if cfg.programmable() => Some(Vec::new()),
                (false, None) => None,
            },
            programmable: cfg.programmable(),
            atomic: cfg.vc_reallocation() == wormqos_config::VcReallocation::Atomic,
        }
    }
    /// The static partition of the output VCs among the classes (§9.2).
    pub fn partition(&self) -> Option<&Partition> {
        self.qos.partition()
    }
    /// The preemptive input port's lanes and acceleration (§9.4, §9.5).
    pub fn preemption(&self) -> Option<&Preemption> {
        self.qos.preemption()
    }
    /// Flit acceleration at point A (§9.5).
    pub fn acceleration(&self) -> bool {
        self.preemption().is_some_and(|p| p.acceleration)
    }
    /// The VA allocators need each input VC's class (partition,
    /// acceleration or the best-effort cap).
    pub fn va_needs_class(&self) -> bool {
        match &self.qos {
            Qos::Shared => false,
            Qos::Partitioned(_) => !self.faults.va_ignores_partition,
            Qos::Preemptive(p) => p.acceleration || self.best_effort_cap().is_some() || self.realtime_cap().is_some(),
        }
    }
    /// K: the most output VCs of a port best effort may hold (§9.4 stage 3),
    /// below M; `None` without a cap (or with the be-cap-ignored fault).
    pub fn best_effort_cap(&self) -> Option<u32> {
        if self.faults.va_ignores_best_effort_cap {
            return None;
        }
        self.qos.preemption().and_then(|p| p.best_effort_output_vcs)
    }
    /// R: the most output VCs of a port real time (class 1) may hold (§9.4
    /// stage 3, *Real-time cap*), below M; `None` without a cap. The
    /// rt-cap-off-by-one fault makes it R + 1.
    pub fn realtime_cap(&self) -> Option<u32> {
        let r = self.qos.preemption().and_then(|p| p.realtime_output_vcs)?;
        Some(r + self.faults.va_realtime_cap_off_by_one as u32)
    }
    /// Lane index width, clog2(E+1).
    pub fn lane_id_width(&self) -> u32 {
        clog2(self.qos.extra_lanes() as u64 + 1)
    }
    /// `router.preemption_credits = "per_lane"` (§9.4 *Credits*): the sender
    /// names the lane on every flit and the receiver on every credit.
    pub fn per_lane(&self) -> bool {
        self.preemption().is_some_and(|p| p.credits == wormqos_config::PreemptionCredits::PerLane)
    }
    /// Bits a shared output VC buffer keeps per entry beside the flit for the
    /// per-lane sender, `{head, class field}` of every VC's front at once
    /// (0 without per-lane credits).
    pub fn ob_side_width(&self) -> u32 {
        if self.per_lane() { 1 + self.class_width } else { 0 }
    }
    /// b: flits a granted VC keeps the grant for (§9.3).
    pub fn block_size(&self) -> u32 {
        self.scheduling.block_size
    }
    /// The multiplexed crossbar: point A picks one VC per input port.
    pub fn multiplexed(&self) -> bool {
        self.scheduling.point.is_input_port()
    }
    /// k, the rounds of the iterative switch allocator (§6 *Switch
    /// allocation*); `None` for the single pass and the full crossbar.
    pub fn switch_rounds(&self) -> Option<u32> {
        match self.scheduling.point.switch_allocator() {
            Some(wormqos_config::SwitchAllocator::Iterative { iterations }) => Some(iterations),
            _ => None,
        }
    }
    /// `router.switch_stage = "registered"` (§6 *Registered switch
    /// allocation*): RC and VA in one stage (RV), switch allocation (SA)
    /// into the per-input-port grant registers, traversal (ST) in the next
    /// cycle. Validation allows it only with the multiplexed crossbar and
    /// without preemption.
    /// Also true for `"split"`, which keeps everything of the registered
    /// pipeline and adds the candidate registers ([`Dims::split`]).
    pub fn registered(&self) -> bool {
        self.scheduling.point.switch_stage() != wormqos_config::SwitchStage::SingleCycle
    }
    /// `router.switch_stage = "split"` (§6 *Split switch allocation*): point
    /// A's pick is registered per input port (SA-A) and point B arbitrates
    /// over the registered candidates in the next cycle (SA-B).
    pub fn split(&self) -> bool {
        self.scheduling.point.switch_stage() == wormqos_config::SwitchStage::Split
    }
    /// Point A's VirtualClock scheduler reads a stamped slot's eligibility
    /// from its output VC buffer's room alone (§8.4, *With "split", a's
    /// eligibility is its output VC buffer's room*): the split pipeline
    /// with the VirtualClock order and no block hold (b = 1; acceleration
    /// is never combined with "split").
    pub fn vclock_stamped_room(&self) -> bool {
        self.split() && self.virtual_clock().is_some() && self.block_size() <= 1 && !self.acceleration()
    }
    /// Point A reads the tail bit of each VC's flit for SA (the one behind a
    /// crossing flit): registered switch allocation with a block hold
    /// (§9.3), which a granted tail ends.
    pub fn sa_reads_granted_tail(&self) -> bool {
        self.registered() && self.block_size() > 1 && !self.faults.block_hold_past_tail
    }
    /// An IDLE input VC requests VA with the route RC computes in the same
    /// cycle: stage RV of the registered pipeline, or the skip-rc-stage
    /// mutant of the single-cycle one.
    pub fn va_in_rc_cycle(&self) -> bool {
        self.registered() || self.faults.va_in_rc_cycle
    }
    /// Stage RV's allocators read each input VC's request, route and class
    /// from registers loaded a cycle early from the next state
    /// (docs/microarchitecture.md §6, *VA's inputs computed a cycle early*):
    /// the registered pipelines with shared input buffers (whose front copy
    /// gives the next front's header fields) and a fixed route (no
    /// `route_links`, whose choice counts this cycle's free output VCs, and
    /// no programmable tables, which can change between the cycles).
    pub fn va_inputs_registered(&self) -> bool {
        self.registered() && self.shared_ib() && self.link_groups.is_none() && !self.programmable
    }
    /// The header fields of the next front copy stage RV's registered
    /// inputs read (the destination, and the class where VA reads it: the
    /// first fields of [`Dims::rc_fields`]), or 0 without them.
    pub fn va_next_front_width(&self) -> u32 {
        if !self.va_inputs_registered() {
            return 0;
        }
        self.dest_width + if self.va_needs_class() { self.class_width } else { 0 }
    }
    /// The order of point A's scheduler (multiplexed crossbar only).
    pub fn order_at_a(&self) -> Option<FlitOrder> {
        match self.scheduling.point {
            SchedulingPoint::InputPort { .. } => Some(self.scheduling.order),
            SchedulingPoint::OutputPort => None,
        }
    }
    /// The order of point C's scheduler: the configured one with the full
    /// crossbar, round robin behind point A's choice.
    pub fn order_at_c(&self) -> FlitOrder {
        match self.scheduling.point {
            SchedulingPoint::InputPort { .. } => FlitOrder::RoundRobin,
            SchedulingPoint::OutputPort => self.scheduling.order,
        }
    }
    /// The VirtualClock scheduler's widths, when it is the order (every
    /// input VC then has a Vtick register).
    pub fn virtual_clock(&self) -> Option<&wormqos_config::VirtualClock> {
        self.scheduling.virtual_clock()
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
        self.multiplexed() && self.preemption().is_none() && self.vcs * self.input_depth <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// The shared output buffer's RAM is written a cycle after the push
    /// (§6 *Split switch allocation*, "Output buffer write, registered"): the
    /// split pipeline, whose stage ST otherwise ends at the RAM's data input.
    pub fn ob_write_registered(&self) -> bool {
        self.split() && self.shared_ob()
    }
    /// Output VC buffers of a port share one memory: point B pushes at most
    /// one flit per output port and point C pops one (multiplexed crossbar).
    pub fn shared_ob(&self) -> bool {
        self.multiplexed() && self.vcs * self.output_depth <= SHARED_BUFFER_ENTRIES_MAX
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
        if let Some(vc) = self.virtual_clock() {
            f.push((vc.vtick.lsb, vc.vtick.width));
        }
        f
    }
    /// Width of the packed [`Dims::rc_fields`].
    pub fn rc_fields_width(&self) -> u32 {
        self.rc_fields().iter().map(|f| f.1).sum()
    }
    /// Width of a free-output-VC count 0..=M.
    pub fn free_count_width(&self) -> u32 {
        clog2(self.vcs as u64 + 1)
    }
    /// Output VC buffer entry width: `{vtick (VirtualClock at point C only), head, tail, data}`.
    pub(crate) fn ob_entry_width(&self) -> u32 {
        match self.order_at_c() {
            FlitOrder::VirtualClock(vc) => self.buf_flit_width + vc.vtick.width,
            FlitOrder::Age | FlitOrder::RoundRobin => self.buf_flit_width,
        }
    }
}

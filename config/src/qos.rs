//! The legal combinations of `mode`, `scheduler`, `crossbar`,
//! `traffic_classes`, `vc_ratio`/`vc_classes`, `acceleration`,
//! `best_effort_output_vcs`, `realtime_output_vcs` and `block_size` as types, derived once by validation
//! (docs/microarchitecture.md §6, §8, §9).
//!
//! The TOML stays flat, because that is what users write; consumers match on
//! [`Qos`] and [`Scheduling`] instead of re-deriving which combinations exist.

use crate::Field;
use serde::Serialize;

/// How output-VC allocation and the input ports treat traffic classes (§9.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Qos {
    /// Any message may use any VC: the foundation router, and a
    /// partitioned mode with a single class (every VC then belongs to class
    /// 0, so allocation is §6 unchanged).
    Shared,
    /// TR and NP (§9.2): output VC `v` is allocated only to messages of
    /// class `vc_class[v]`. At least two classes, each with a VC.
    Partitioned(Partition),
    /// P (§9.4): extra lanes per input VC, preemption by a higher class,
    /// dummy tail/header flits, optionally acceleration (§9.5) and a cap on
    /// the output VCs best effort holds (§9.4 stage 3).
    Preemptive(Preemption),
}

/// A static partition of the VCs of every port among the classes (§9.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Partition {
    /// The class each VC (index) is reserved for; every class 0..s occurs.
    pub vc_class: Vec<u32>,
}

/// The preemptive input port's parameters (§9.4, §9.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Preemption {
    /// E = s - 1 extra lanes per input VC, s >= 2.
    pub extra_lanes: u32,
    /// Flit acceleration at point A (multiplexed crossbar only).
    pub acceleration: bool,
    /// The most output VCs of one output port that best-effort (class 0)
    /// messages may hold at once, 1..M-1 (§9.4 stage 3); `None`: no cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_effort_output_vcs: Option<u32>,
    /// The most output VCs of one output port that real-time (class 1)
    /// messages may hold at once, 1..M-1 (§9.4 stage 3); `None`: no cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub realtime_output_vcs: Option<u32>,
    /// Credits per link VC or per (VC, lane) (§9.4 *Credits*).
    #[serde(skip_serializing_if = "is_per_vc")]
    pub credits: crate::PreemptionCredits,
}

fn is_per_vc(c: &crate::PreemptionCredits) -> bool {
    *c == crate::PreemptionCredits::PerVc
}

impl Qos {
    /// Whether the VC allocator needs each input VC's class: the partition
    /// restricts the output VCs it may get, acceleration picks victims by it,
    /// the best-effort cap refuses class 0 by it, the real-time cap class 1.
    pub fn allocation_reads_class(&self) -> bool {
        match self {
            Qos::Shared => false,
            Qos::Partitioned(_) => true,
            Qos::Preemptive(p) => p.acceleration || p.best_effort_output_vcs.is_some() || p.realtime_output_vcs.is_some(),
        }
    }
    /// E: extra input lanes per VC (0 unless preemptive).
    pub fn extra_lanes(&self) -> u32 {
        match self {
            Qos::Preemptive(p) => p.extra_lanes,
            _ => 0,
        }
    }
    pub fn partition(&self) -> Option<&Partition> {
        match self {
            Qos::Partitioned(p) => Some(p),
            _ => None,
        }
    }
    pub fn preemption(&self) -> Option<&Preemption> {
        match self {
            Qos::Preemptive(p) => Some(p),
            _ => None,
        }
    }
}

/// Where flits of different VCs meet the flit scheduler (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SchedulingPoint {
    /// Multiplexed crossbar: point A picks one VC per input port, point B
    /// one input per output port; `switch` says how the two are combined,
    /// `stage` whether the allocation is registered before the crossbar.
    InputPort { switch: SwitchAllocator, stage: SwitchStage },
    /// Full crossbar: point C picks one output VC per output port.
    OutputPort,
}

/// How the multiplexed crossbar matches input ports to output ports in
/// stage 4 (docs/microarchitecture.md §6, "Switch allocation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SwitchAllocator {
    /// One pass: point A picks a VC per input port without regard to the
    /// outputs, point B picks one input per output round robin, losers
    /// move nothing (`switch_allocator = "single_pass"`).
    SinglePass,
    /// Input-first iterative matching: `iterations` rounds of A then B in
    /// one cycle, each round over the ports still unmatched, with the
    /// scheduler's rule at B (`switch_allocator = "iterative"`).
    Iterative { iterations: u32 },
    /// A maximum-size bipartite matching of input to output ports each
    /// cycle (`switch_allocator = "maximum_matching"`): a bound for the
    /// golden model and netsim only; it has no RTL (§6, *Maximum matching*).
    MaximumMatching,
}

/// Where stage 4's allocation sits in the pipeline (docs/microarchitecture.md
/// §6, "Registered switch allocation").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum SwitchStage {
    /// Allocation and crossbar traversal in one cycle; RC and VA are stages
    /// 2 and 3 (`switch_stage = "single_cycle"`, the original pipeline).
    #[default]
    SingleCycle,
    /// RC and VA in one stage, the switch allocation registered, the flit
    /// crossing in the next cycle (`switch_stage = "registered"`): still five
    /// stages, so the zero-load latency is unchanged. Multiplexed crossbar,
    /// modes without preemption.
    Registered,
    /// Point B in a cycle of its own (`switch_stage = "split"`, §6 *Split
    /// switch allocation*): readiness and point A registered into a
    /// candidate per input port, point B over the candidates registered
    /// into the grant, the flit crossing in the next cycle: six stages.
    /// Multiplexed crossbar, single-pass allocator, modes without
    /// preemption; golden model only (no RTL yet).
    Split,
}

impl SchedulingPoint {
    /// The switch allocator of the multiplexed crossbar; `None` for the
    /// full crossbar, which has no switch allocation.
    pub fn switch_allocator(&self) -> Option<SwitchAllocator> {
        match self {
            SchedulingPoint::InputPort { switch, .. } => Some(*switch),
            SchedulingPoint::OutputPort => None,
        }
    }
    /// Whether the switch allocation is registered (§6); always
    /// `SingleCycle` for the full crossbar.
    pub fn switch_stage(&self) -> SwitchStage {
        match self {
            SchedulingPoint::InputPort { stage, .. } => *stage,
            SchedulingPoint::OutputPort => SwitchStage::SingleCycle,
        }
    }
    /// Multiplexed crossbar (point A is the scheduling point).
    pub fn is_input_port(&self) -> bool {
        matches!(self, SchedulingPoint::InputPort { .. })
    }
}

/// The order the flit scheduler serves eligible VCs in (§5, §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FlitOrder {
    /// Oldest output-VC grant first (`scheduler = "fifo"`).
    Age,
    /// Rotating priority.
    RoundRobin,
    /// Fine-Grained VirtualClock (§8).
    VirtualClock(VirtualClock),
}

/// The VirtualClock scheduler's widths (§8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct VirtualClock {
    /// The header's Vtick field (width VTW <= C).
    pub vtick: Field,
    /// C: width of the clock and stamp counters, 8..=32.
    pub clock_width: u32,
}

/// The flit scheduler of every port: where it sits, what order it serves,
/// and how many flits a VC keeps the grant for (§6, §8, §9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Scheduling {
    pub point: SchedulingPoint,
    pub order: FlitOrder,
    /// b: flits a granted VC sends before the scheduler decides again, 1..=64.
    pub block_size: u32,
}

impl Scheduling {
    /// The VirtualClock parameters, when that is the order.
    pub fn virtual_clock(&self) -> Option<&VirtualClock> {
        match &self.order {
            FlitOrder::VirtualClock(v) => Some(v),
            _ => None,
        }
    }
}

//! The two NICs of `003_…` §3.3 / §5.3 at every endpoint of the network
//! simulator (docs/nic.md gives their cycle-exact hardware; this is the
//! network-level model of the same policies, selected by the experiment's
//! `[nic]` section; without one the endpoints keep the simulator's original
//! source model).
//!
//! A message's way through the NIC, per endpoint:
//! 1. **Doorbell** (`ring`): the host names the message, its class and the
//!    VC it goes on (`pick_vc`: round robin over the class's VCs, or with
//!    `vc_choice = "avoid_lower_class"` over those of them whose send queue
//!    holds no message of a lower class, see [`VcChoice`]). Doorbells wait in
//!    one FCFS queue (`traditional`) or one FCFS queue per class (`qos`);
//!    the queues themselves are unbounded (the VIA send queues live in host
//!    memory), and only the first `doorbell_depth` entries of a queue are in
//!    the NIC's doorbell FIFO where the scheduler can see them.
//! 2. **Host bus and DMA** (one server per endpoint): it selects a doorbell
//!    when idle — `traditional`: the oldest, if the shared send FIFO is not
//!    full (else it waits: head-of-line blocking); `qos`: highest class
//!    first, in a class the oldest visible doorbell whose VC queue is not
//!    full (a full one is skipped) — spends the per-message DMA overhead,
//!    then moves the message's flits into the send queue at the host-bus
//!    rate, stalling while the queue is full.
//! 3. **Send queues**: one FIFO of `buffer_depth · M` flits shared by every
//!    VC (`traditional`), one FIFO of `buffer_depth` flits per VC (`qos`).
//! 4. **Injection**, one flit per cycle on the link, needing a credit of
//!    the flit's router input VC: `traditional` sends the shared FIFO's
//!    front (whole messages in doorbell order); `qos` grants among the VC
//!    queues with the router's VirtualClock (docs/microarchitecture.md §8,
//!    the project's scheduler itself) at flit, block or message level.
//!    Message-level injection (both NICs) is the NIC's send DMA: each
//!    message costs `send_dma_overhead_ns` before its header leaves
//!    (`003_…` §3.3: flit-level injection is hardware and has none).
//!    With `router.preemption_credits = "per_lane"` (docs/nic.md §9.1,
//!    docs/microarchitecture.md §9.4 *Credits*) the NIC is a source with
//!    per-lane credits: per VC it keeps the sender state of §9.4
//!    ([`crate::source_lanes::SourceLanes`], the plain sources' own), a
//!    queue's front flit needs a credit of the lane §9.4's rule gives it (a
//!    header of a higher class than a busy lane's opens the next lane), and
//!    it names that lane; the router's credits return to the lanes they
//!    name. The receive side needs nothing of its own here: the network's
//!    sinks consume a flit at once and echo its lane with the credit.
//!
//! Order within a cycle: injection reads the queues as they are at the
//! start of the cycle; then the DMA server moves flits into them, seeing
//! the room the injection just made. A flit moved in cycle t can leave in
//! t+1.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use wormqos_config::nic::{Injection, NicVariant, DOORBELL_DEPTH_RANGE, NIC_BLOCK_SIZE_RANGE, NIC_BUFFER_DEPTH_RANGE};
use crate::source_lanes::SourceLanes;
use wormqos_sim::{VirtualClockScheduler, MAX_SLOTS};

/// Defaults of a Myrinet-class NIC (`003_…` §4.1: Myricom M3M-PCI64B).
pub mod defaults {
    /// 64-bit, 66 MHz PCI: 528 MB/s, the bus the M3M-PCI64B sits on
    /// (Myricom's data sheet: "sustained PCI data rates approaching ...
    /// 528 MB/s for 64-bit, 66MHz").
    pub const HOST_BUS_MBPS: f64 = 4224.0;
    /// Per message on the host bus: descriptor fetch and payload DMA set-up
    /// by the LANai firmware. `003_…` gives no number; 1 µs is our
    /// assumption, a fifth of the < 5 µs user-to-user short-message latency
    /// Myricom quotes for Myrinet of that generation.
    pub const DMA_OVERHEAD_NS: f64 = 1000.0;
    /// Per message on the NIC's send DMA (message-level injection only):
    /// the same assumption as `DMA_OVERHEAD_NS`.
    pub const SEND_DMA_OVERHEAD_NS: f64 = 1000.0;
    /// Flits per VC send queue: two 40-flit messages of `003_…` (the card's
    /// 2 MB SRAM holds far more; the queue only has to decouple bus and link).
    pub const BUFFER_DEPTH: u32 = 80;
    /// Doorbell FIFO entries per queue (docs/nic.md §2).
    pub const DOORBELL_DEPTH: u32 = 4;
}

/// How the host picks a message's VC among its class's VCs (`[nic]
/// vc_choice`). `003_…` §4.2 draws a message's VC uniformly from its class's
/// VCs and §3.3 makes the NIC's buffer of a VC an FCFS queue, so under the
/// preemptive router, where real time may use any VC, a real-time message
/// can queue in the NIC behind a best-effort one; the paper says nothing of
/// how its NIC avoids that (its router avoids it by preemption, §3.2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VcChoice {
    /// Round robin over the class's VCs (the default).
    #[default]
    RoundRobin,
    /// Round robin over the class's VCs whose send queue holds no message of
    /// a lower class (the one the DMA is moving included); when every one
    /// does, round robin over all of them. Only with the QoS NIC (the
    /// traditional NIC's one FIFO is every VC's queue).
    AvoidLowerClass,
}

impl VcChoice {
    /// As written in the experiment file.
    pub fn as_str(self) -> &'static str {
        match self {
            VcChoice::RoundRobin => "round_robin",
            VcChoice::AvoidLowerClass => "avoid_lower_class",
        }
    }
}

/// Host-bus bandwidth (Mbit/s) and DMA overheads (ns) allowed.
pub const HOST_BUS_MBPS_RANGE: (f64, f64) = (1.0, 1e7);
pub const DMA_OVERHEAD_NS_RANGE: (f64, f64) = (0.0, 1e9);

/// The experiment's `[nic]` section.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicSpec {
    pub variant: NicVariant,
    /// Default `message` (traditional, the only value), `flit` (qos).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection: Option<Injection>,
    /// Only with `injection = "block"` (default 4 there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<u32>,
    #[serde(default = "default_doorbell_depth")]
    pub doorbell_depth: u32,
    #[serde(default = "default_buffer_depth")]
    pub buffer_depth: u32,
    #[serde(default = "default_host_bus")]
    pub host_bus_mbps: f64,
    #[serde(default = "default_dma")]
    pub dma_overhead_ns: f64,
    /// Only with message-level injection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_dma_overhead_ns: Option<f64>,
    /// Only with the QoS NIC; default round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vc_choice: Option<VcChoice>,
    /// Sizes only the generated NIC has (docs/nic.md §2), read by
    /// `wormqos generate` with `topology.endpoint_ports = "nic"` and
    /// refused otherwise; each defaults to the `[nic]` default of a router
    /// configuration. The simulator's NIC model does not use them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_message_flits: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axi_data_width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_burst: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rx_contexts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rx_post_depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rx_completion_depth: Option<u32>,
}

fn default_doorbell_depth() -> u32 {
    defaults::DOORBELL_DEPTH
}
fn default_buffer_depth() -> u32 {
    defaults::BUFFER_DEPTH
}
fn default_host_bus() -> f64 {
    defaults::HOST_BUS_MBPS
}
fn default_dma() -> f64 {
    defaults::DMA_OVERHEAD_NS
}

/// A bad `[nic]` field: (dotted field, value as written, allowed values).
pub type FieldError = (String, String, String);

fn bad(field: &str, value: impl ToString, why: impl Into<String>) -> FieldError {
    (format!("nic.{field}"), value.to_string(), why.into())
}

/// A field that means something only at one injection granularity: checked
/// there, an error elsewhere (`why` adds to the reason).
fn only_with<T: ToString>(
    field: &str,
    value: Option<T>,
    needed: Injection,
    injection: Injection,
    why: &str,
    check: impl Fn(T) -> Result<(), FieldError>,
) -> Result<(), FieldError> {
    match value {
        None => Ok(()),
        Some(v) if injection == needed => check(v),
        Some(v) => Err(bad(
            field,
            v,
            format!(
                "only used with injection = \"{}\" (injection is \"{}\"{why}; allowed values: leave it out)",
                needed.as_str(),
                injection.as_str()
            ),
        )),
    }
}

impl NicSpec {
    pub fn injection(&self) -> Injection {
        self.injection.unwrap_or(match self.variant {
            NicVariant::Traditional => Injection::Message,
            NicVariant::Qos => Injection::Flit,
        })
    }

    /// Every field against its range and against the variant and injection.
    pub fn validate(&self) -> Result<(), FieldError> {
        let int = |field: &str, v: u32, (lo, hi): (u32, u32)| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(bad(field, v, format!("allowed range {lo}..={hi}")))
            }
        };
        let real = |field: &str, v: f64, (lo, hi): (f64, f64)| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(bad(field, v, format!("allowed range {lo}..={hi}")))
            }
        };
        int("doorbell_depth", self.doorbell_depth, DOORBELL_DEPTH_RANGE)?;
        int("buffer_depth", self.buffer_depth, NIC_BUFFER_DEPTH_RANGE)?;
        real("host_bus_mbps", self.host_bus_mbps, HOST_BUS_MBPS_RANGE)?;
        real("dma_overhead_ns", self.dma_overhead_ns, DMA_OVERHEAD_NS_RANGE)?;
        let inj = self.injection();
        if self.variant == NicVariant::Traditional && inj != Injection::Message {
            return Err(bad(
                "injection",
                format!("{:?}", inj.as_str()),
                "the traditional NIC injects whole messages in order (allowed values: \"message\")",
            ));
        }
        only_with("block_size", self.block_size, Injection::Block, inj, "", |b| int("block_size", b, NIC_BLOCK_SIZE_RANGE))?;
        if let (NicVariant::Traditional, Some(v)) = (self.variant, self.vc_choice) {
            return Err(bad(
                "vc_choice",
                format!("{:?}", v.as_str()),
                "only used with variant = \"qos\" (the traditional NIC's one send FIFO is every VC's queue; allowed values: leave it out)",
            ));
        }
        let why = ": hardware injection has no send DMA";
        only_with("send_dma_overhead_ns", self.send_dma_overhead_ns, Injection::Message, inj, why, |x| {
            real("send_dma_overhead_ns", x, DMA_OVERHEAD_NS_RANGE)
        })?;
        Ok(())
    }

    /// The hardware-only fields are set only for generated NICs (their
    /// ranges are checked with the rest of the NIC's configuration when the
    /// network is generated).
    pub fn validate_hardware(&self, endpoints: crate::experiment::EndpointPorts) -> Result<(), FieldError> {
        match self.hardware_sizes().into_iter().find_map(|(f, v)| v.map(|v| (f, v))) {
            Some((field, v)) if endpoints.is_raw() => Err(bad(
                field,
                v,
                "a size of the generated NIC only, used with topology.endpoint_ports = \"nic\" (allowed values: leave it out, or set endpoint_ports = \"nic\")",
            )),
            _ => Ok(()),
        }
    }

    fn hardware_sizes(&self) -> [(&'static str, Option<u32>); 6] {
        [
            ("max_message_flits", self.max_message_flits),
            ("axi_data_width", self.axi_data_width),
            ("max_burst", self.max_burst),
            ("rx_contexts", self.rx_contexts),
            ("rx_post_depth", self.rx_post_depth),
            ("rx_completion_depth", self.rx_completion_depth),
        ]
    }

    /// The `[nic]` section of the generated NICs' configuration: the
    /// policy fields the model shares with the hardware (variant,
    /// injection, block size, doorbell and send-queue depths) and the
    /// hardware-only sizes, the section's defaults where not given. Its
    /// ranges are checked with the rest of that configuration.
    pub fn hardware_params(&self) -> wormqos_config::nic::NicParams {
        let mut p = wormqos_config::nic::NicParams::with_defaults(self.variant);
        p.doorbell_depth = self.doorbell_depth;
        p.buffer_depth = self.buffer_depth;
        p.injection = self.injection;
        p.block_size = self.block_size;
        let set = |x: &mut u32, v: Option<u32>| *x = v.unwrap_or(*x);
        set(&mut p.max_message_flits, self.max_message_flits);
        set(&mut p.axi_data_width, self.axi_data_width);
        set(&mut p.max_burst, self.max_burst);
        set(&mut p.rx_contexts, self.rx_contexts);
        set(&mut p.rx_post_depth, self.rx_post_depth);
        set(&mut p.rx_completion_depth, self.rx_completion_depth);
        p
    }

    /// The model's parameters for routers of `vcs` VCs whose input buffers
    /// hold `credits` flits, at `cycle_ns` per cycle (one flit time on a
    /// link of `link_mbps`); `lanes` = E + 1 with per-lane credits, 0 with
    /// per-VC credits.
    #[allow(clippy::too_many_arguments)]
    pub fn params(&self, vcs: usize, credits: u32, lanes: usize, clock_width: u32, vtick_width: u32, cycle_ns: f64, link_mbps: f64) -> NicParams {
        let qos = self.variant == NicVariant::Qos;
        let injection = self.injection();
        let cycles = |ns: f64| (ns / cycle_ns).ceil() as u32;
        NicParams {
            qos,
            injection,
            block_size: if injection == Injection::Block { self.block_size.unwrap_or(4) } else { 1 },
            doorbell_depth: self.doorbell_depth as usize,
            queue_depth: if qos { self.buffer_depth } else { self.buffer_depth * vcs as u32 },
            bus_flits_per_cycle: self.host_bus_mbps / link_mbps,
            dma_cycles: cycles(self.dma_overhead_ns),
            send_dma_cycles: if injection == Injection::Message {
                cycles(self.send_dma_overhead_ns.unwrap_or(defaults::SEND_DMA_OVERHEAD_NS))
            } else {
                0
            },
            vcs,
            credits,
            lanes,
            clock_width,
            vtick_width,
            vc_choice: self.vc_choice.unwrap_or_default(),
        }
    }
}

/// The model's parameters, in cycles and flits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NicParams {
    pub qos: bool,
    pub injection: Injection,
    pub block_size: u32,
    pub doorbell_depth: usize,
    /// Flits per send queue (BQ of docs/nic.md §2).
    pub queue_depth: u32,
    /// Host-bus bandwidth over link bandwidth: flits moved per cycle.
    pub bus_flits_per_cycle: f64,
    /// Host-bus DMA overhead per message.
    pub dma_cycles: u32,
    /// Send-DMA overhead per message (message-level injection).
    pub send_dma_cycles: u32,
    pub vcs: usize,
    /// Router input buffer depth: the injection credits per VC (per lane
    /// with per-lane credits).
    pub credits: u32,
    /// `router.preemption_credits = "per_lane"`: the lanes (E + 1) of each
    /// router input VC; 0 with per-VC credits.
    pub lanes: usize,
    pub clock_width: u32,
    pub vtick_width: u32,
    pub vc_choice: VcChoice,
}

/// One message as the host rings it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Doorbell {
    /// The caller's message id.
    pub msg: u32,
    pub class: u8,
    pub vc: u8,
    /// Flits, header included.
    pub flits: u32,
    /// The header's Vtick (the best-effort marker for best effort).
    pub vtick: u32,
}

/// A flit the NIC put on the link this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    pub msg: u32,
    pub vc: u8,
    /// The message's class (the lane rule's, §9.4 *Credits*).
    pub class: u8,
    /// 0 = header.
    pub index: u32,
    pub tail: bool,
    /// The router input lane the flit enters (per-lane credits; else 0).
    pub lane: u8,
}

#[derive(Clone, Copy, Debug)]
struct Buffered {
    db: Doorbell,
    /// Flits the DMA has moved in / the injection has sent.
    arrived: u32,
    sent: u32,
    /// Cycle the DMA selected its doorbell; cycle it became the front of
    /// its send queue; whether a best-effort message was ahead of it there.
    selected: u64,
    front: u64,
    behind_be: bool,
}

/// Where messages' headers waited inside the NIC, per class, summed over
/// the messages whose header left at or after `NicWaits::from` (cycles).
/// `wait` = header sent − doorbell selected by the DMA = `queue` (behind
/// earlier messages of its send queue) + `at_front` (at the front: the
/// cycles split into `no_data`, DMA still moving its first flit; `no_credit`,
/// the router's input VC full; `not_granted`, eligible but another queue
/// got the link).
///
/// Before that, from the ring to the DMA's selection, the doorbells are
/// counted per cycle after `from` (each waiting doorbell once a cycle, so
/// the sums are doorbell-cycles): `doorbell_dma_busy`, the DMA is moving
/// another message; else `doorbell_queue_full`, it is in the NIC's doorbell
/// FIFO but its send queue is full; `doorbell_not_visible`, it is behind
/// the `doorbell_depth` entries the NIC sees (`doorbell_dma_stalled` is
/// the part of `doorbell_dma_busy` during which the DMA's message waits for
/// room in its full send queue); `doorbell_other_first`,
/// it could go but another doorbell was selected (a higher class or an
/// older one; or none could start for want of a tag).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NicWaits {
    pub from: u64,
    pub messages: Vec<u64>,
    pub wait: Vec<u64>,
    pub queue: Vec<u64>,
    /// Part of `queue` of the messages with a best-effort message ahead.
    pub queue_behind_be: Vec<u64>,
    pub messages_behind_be: Vec<u64>,
    pub no_data: Vec<u64>,
    pub no_credit: Vec<u64>,
    pub not_granted: Vec<u64>,
    pub doorbell_dma_busy: Vec<u64>,
    pub doorbell_dma_stalled: Vec<u64>,
    pub doorbell_queue_full: Vec<u64>,
    pub doorbell_not_visible: Vec<u64>,
    pub doorbell_other_first: Vec<u64>,
}

impl NicWaits {
    fn new(classes: usize, from: u64) -> Self {
        let z = vec![0; classes];
        NicWaits {
            from,
            messages: z.clone(),
            wait: z.clone(),
            queue: z.clone(),
            queue_behind_be: z.clone(),
            messages_behind_be: z.clone(),
            no_data: z.clone(),
            no_credit: z.clone(),
            not_granted: z.clone(),
            doorbell_dma_busy: z.clone(),
            doorbell_dma_stalled: z.clone(),
            doorbell_queue_full: z.clone(),
            doorbell_not_visible: z.clone(),
            doorbell_other_first: z,
        }
    }

    /// Adds another NIC's sums.
    pub fn add(&mut self, o: &NicWaits) {
        for (a, b) in [
            (&mut self.messages, &o.messages),
            (&mut self.wait, &o.wait),
            (&mut self.queue, &o.queue),
            (&mut self.queue_behind_be, &o.queue_behind_be),
            (&mut self.messages_behind_be, &o.messages_behind_be),
            (&mut self.no_data, &o.no_data),
            (&mut self.no_credit, &o.no_credit),
            (&mut self.not_granted, &o.not_granted),
            (&mut self.doorbell_dma_busy, &o.doorbell_dma_busy),
            (&mut self.doorbell_dma_stalled, &o.doorbell_dma_stalled),
            (&mut self.doorbell_queue_full, &o.doorbell_queue_full),
            (&mut self.doorbell_not_visible, &o.doorbell_not_visible),
            (&mut self.doorbell_other_first, &o.doorbell_other_first),
        ] {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
    }
}

/// Whether buffered message `f`'s next flit has a credit: of its router
/// input VC in `credits`, or with per-lane credits (`lanes` not empty) of
/// the lane §9.4's rule gives it.
fn credited(credits: &[u32; MAX_SLOTS], lanes: &SourceLanes, f: &Buffered) -> bool {
    let vc = f.db.vc as usize;
    if lanes.is_empty() {
        credits[vc] > 0
    } else {
        lanes.credits_for(vc, f.sent == 0, f.db.class) > 0
    }
}

/// The DMA server's message: its send queue and what is left.
#[derive(Clone, Copy, Debug)]
struct Transfer {
    queue: usize,
    overhead_left: u32,
    flits_left: u32,
}

/// One endpoint's NIC.
pub struct Nic {
    /// One queue (traditional) or one per class.
    doorbells: Vec<VecDeque<Doorbell>>,
    /// One send queue (traditional) or one per VC; `fill[q]` = its flits.
    queues: Vec<VecDeque<Buffered>>,
    fill: Vec<u32>,
    dma: Option<Transfer>,
    bus_acc: f64,
    credits: [u32; MAX_SLOTS],
    /// Per-lane credits: the sender state of each VC (`credits` is then
    /// not read); empty with per-VC credits.
    lanes: SourceLanes,
    vclock: Option<VirtualClockScheduler>,
    /// The cycle the scheduler's clock has been brought up to.
    synced: u64,
    blk_slot: usize,
    blk_left: u32,
    /// Message-level: the queue whose message is being sent, and the send-DMA
    /// cycles still to spend before its header.
    hold: Option<usize>,
    setup_left: u32,
    /// Next VC per class (where the class's round robin looks first).
    next_vc: Vec<u8>,
    /// Doorbells queued plus messages in the send queues.
    pending: u32,
    /// Doorbells queued per class (for `waits`).
    rung: Vec<u64>,
    /// Kept only when asked for (`record_waits`).
    waits: Option<Box<NicWaits>>,
    now: u64,
}

impl Nic {
    pub fn new(p: &NicParams, classes: usize) -> Self {
        let nq = if p.qos { p.vcs } else { 1 };
        let room = (p.queue_depth as usize + 1).min(1024);
        let mut credits = [0; MAX_SLOTS];
        credits[..p.vcs].fill(p.credits);
        Nic {
            doorbells: vec![VecDeque::new(); if p.qos { classes } else { 1 }],
            queues: (0..nq).map(|_| VecDeque::with_capacity(room)).collect(),
            fill: vec![0; nq],
            dma: None,
            bus_acc: 0.0,
            credits,
            lanes: if p.lanes > 0 { SourceLanes::new(p.vcs, p.credits as u16, p.lanes) } else { SourceLanes::default() },
            vclock: p.qos.then(|| VirtualClockScheduler::new(p.vcs, p.clock_width, p.vtick_width)),
            synced: 0,
            blk_slot: 0,
            blk_left: 0,
            hold: None,
            setup_left: 0,
            next_vc: vec![0; classes],
            pending: 0,
            rung: vec![0; classes],
            waits: None,
            now: 0,
        }
    }

    /// From cycle `from` on, sums where headers wait (`waits`).
    pub fn record_waits(&mut self, classes: usize, from: u64) {
        self.waits = Some(Box::new(NicWaits::new(classes, from)));
    }

    pub fn waits(&self) -> Option<&NicWaits> {
        self.waits.as_deref()
    }

    /// The at-front part of `waits`: each queue whose front message's header
    /// has not left, by why it does not leave this cycle (`sent`: what did).
    fn front_waits(&mut self, sent: Option<Sent>) {
        let Some(w) = self.waits.as_deref_mut() else { return };
        if self.now < w.from {
            return;
        }
        for q in &self.queues {
            let Some(f) = q.front() else { continue };
            if f.sent > 0 || sent.is_some_and(|s| s.msg == f.db.msg) {
                continue;
            }
            let c = f.db.class as usize;
            if f.arrived == 0 {
                w.no_data[c] += 1;
            } else if !credited(&self.credits, &self.lanes, f) {
                w.no_credit[c] += 1;
            } else {
                w.not_granted[c] += 1;
            }
        }
    }

    /// Nothing queued, buffered or being moved.
    pub fn idle(&self) -> bool {
        self.pending == 0
    }

    /// The VC for the next message of `class`: round robin over the set
    /// bits of `mask` (nonzero), narrowed by `p.vc_choice` ([`VcChoice`]).
    pub fn pick_vc(&mut self, p: &NicParams, class: u8, mask: u32) -> u8 {
        debug_assert!(mask != 0);
        let mask = match p.vc_choice {
            VcChoice::RoundRobin => mask,
            VcChoice::AvoidLowerClass => {
                let clear = (0..p.vcs.min(32))
                    .filter(|&v| mask >> v & 1 == 1)
                    .filter(|&v| !self.queues[self.queue_index(p, v)].iter().any(|b| b.db.class < class))
                    .fold(0u32, |m, v| m | 1 << v);
                if clear != 0 {
                    clear
                } else {
                    mask
                }
            }
        };
        let from = self.next_vc[class as usize] as u32;
        let above = mask & !((1u32 << from) - 1);
        let v = if above != 0 { above.trailing_zeros() } else { mask.trailing_zeros() };
        self.next_vc[class as usize] = (v + 1) as u8 % 32;
        v as u8
    }

    /// The host rings a doorbell.
    pub fn ring(&mut self, p: &NicParams, db: Doorbell) {
        let q = if p.qos { db.class as usize } else { 0 };
        self.doorbells[q].push_back(db);
        self.pending += 1;
        self.rung[db.class as usize] += 1;
    }

    /// Whether buffered message `f`'s next flit has a credit of its router
    /// input VC (with per-lane credits: of the lane it would take).
    fn has_credit(&self, f: &Buffered) -> bool {
        credited(&self.credits, &self.lanes, f)
    }

    /// Credits returned by the router (bit u: one slot of input VC u; with
    /// per-lane credits `lanes` names each one's lane, as
    /// `wormqos_sim::credit_lane` reads it).
    pub fn credit(&mut self, mask: u32, lanes: u64) {
        if !self.lanes.is_empty() {
            self.lanes.credit(mask, lanes);
            return;
        }
        let mut m = mask;
        while m != 0 {
            let u = m.trailing_zeros() as usize;
            m &= m - 1;
            self.credits[u] += 1;
        }
    }

    /// One cycle at `now` (cycles strictly increasing): the flit injected,
    /// then the DMA's progress. `admit(msg)` is asked before a message's
    /// transfer starts; false keeps it waiting (the caller's tag space).
    pub fn step(&mut self, p: &NicParams, now: u64, admit: impl FnMut(u32) -> bool) -> Option<Sent> {
        self.now = now;
        let sent = if p.qos { self.inject_qos(p, now) } else { self.inject_fifo(p) };
        if self.waits.is_some() {
            self.front_waits(sent);
        }
        let sent = sent.map(|mut s| {
            if self.lanes.is_empty() {
                self.credits[s.vc as usize] -= 1;
            } else {
                s.lane = self.lanes.send(s.vc as usize, s.index == 0, s.class);
            }
            s
        });
        self.move_flits(p, admit);
        sent
    }

    /// Traditional: the shared FIFO's front flit, after the send-DMA set-up
    /// of its message.
    fn inject_fifo(&mut self, p: &NicParams) -> Option<Sent> {
        let front = *self.queues[0].front()?;
        if front.sent == front.arrived {
            return None;
        }
        if front.sent == 0 && self.hold.is_none() {
            self.hold = Some(0);
            self.setup_left = p.send_dma_cycles;
        }
        if self.setup_left > 0 {
            self.setup_left -= 1;
            return None;
        }
        if !self.has_credit(&front) {
            return None;
        }
        let s = self.pop(0);
        if s.tail {
            self.hold = None;
        }
        Some(s)
    }

    /// QoS: the VirtualClock grant over the VC queues, with the block or
    /// message hold in front of it.
    fn inject_qos(&mut self, p: &NicParams, now: u64) -> Option<Sent> {
        let (mut present, mut eligible) = (0u32, 0u32);
        for (u, q) in self.queues.iter().enumerate() {
            if let Some(f) = q.front() {
                if f.sent < f.arrived {
                    present |= 1 << u;
                    if self.has_credit(f) {
                        eligible |= 1 << u;
                    }
                }
            }
        }
        let vc = self.vclock.as_mut().expect("qos NIC");
        if now > self.synced {
            vc.advance_idle(now - self.synced);
        }
        self.synced = now;
        if present == 0 {
            return None; // an idle cycle: caught up by the next call
        }
        self.synced = now + 1;
        let mut hold_ends = false;
        let offer = match p.injection {
            Injection::Flit => eligible,
            Injection::Block if self.blk_left > 0 => {
                let held = 1 << self.blk_slot;
                hold_ends = eligible & held == 0;
                if hold_ends {
                    eligible
                } else {
                    held
                }
            }
            Injection::Block => eligible,
            Injection::Message => match self.hold {
                Some(_) if self.setup_left > 0 => {
                    self.setup_left -= 1;
                    0
                }
                Some(h) => eligible & (1 << h),
                None => eligible,
            },
        };
        let queues = &self.queues;
        let k = vc.grant_with(present, offer, |k| queues[k].front().map_or(0, |f| f.db.vtick as u64));
        // A message-level selection with a send DMA to set up: the grant does
        // not take effect yet; the header leaves when the set-up is over.
        if let (Injection::Message, None, Some(k)) = (p.injection, self.hold, k) {
            if p.send_dma_cycles > 0 {
                vc.update(false);
                self.hold = Some(k);
                self.setup_left = p.send_dma_cycles - 1;
                return None;
            }
        }
        vc.update(true);
        if hold_ends {
            self.blk_left = 0;
        }
        let k = k?;
        let s = self.pop(k);
        match p.injection {
            Injection::Flit => {}
            Injection::Block => {
                if k == self.blk_slot && self.blk_left > 0 {
                    self.blk_left -= 1;
                } else {
                    self.blk_slot = k;
                    self.blk_left = p.block_size - 1;
                }
                if s.tail {
                    self.blk_left = 0;
                }
            }
            Injection::Message => self.hold = if s.tail { None } else { Some(k) },
        }
        Some(s)
    }

    /// Takes the front flit of send queue q.
    fn pop(&mut self, q: usize) -> Sent {
        let now = self.now;
        let f = self.queues[q].front_mut().expect("present");
        let s = Sent { msg: f.db.msg, vc: f.db.vc, class: f.db.class, index: f.sent, tail: f.sent + 1 == f.db.flits, lane: 0 };
        f.sent += 1;
        self.fill[q] -= 1;
        if s.index == 0 {
            let f = *f;
            if let Some(w) = self.waits.as_deref_mut().filter(|w| now >= w.from) {
                let c = f.db.class as usize;
                w.messages[c] += 1;
                w.wait[c] += now - f.selected;
                w.queue[c] += f.front - f.selected;
                if f.behind_be {
                    w.queue_behind_be[c] += f.front - f.selected;
                    w.messages_behind_be[c] += 1;
                }
            }
        }
        if s.tail {
            self.queues[q].pop_front();
            self.pending -= 1;
            // The next message is at the front from the next cycle.
            if let Some(n) = self.queues[q].front_mut() {
                n.front = now + 1;
            }
        }
        s
    }

    fn queue_of(&self, p: &NicParams, db: &Doorbell) -> usize {
        self.queue_index(p, db.vc as usize)
    }

    /// The send queue of VC `vc`.
    fn queue_index(&self, p: &NicParams, vc: usize) -> usize {
        if p.qos {
            vc
        } else {
            0
        }
    }

    fn full(&self, p: &NicParams, q: usize) -> bool {
        self.fill[q] >= p.queue_depth
    }

    /// The doorbell the DMA server takes next: (doorbell queue, position).
    fn select(&self, p: &NicParams) -> Option<(usize, usize)> {
        if !p.qos {
            let db = self.doorbells[0].front()?;
            return (!self.full(p, self.queue_of(p, db))).then_some((0, 0));
        }
        for c in (0..self.doorbells.len()).rev() {
            let visible = self.doorbells[c].iter().take(p.doorbell_depth);
            if let Some(i) = visible.clone().position(|db| !self.full(p, self.queue_of(p, db))) {
                return Some((c, i));
            }
        }
        None
    }

    /// The doorbell part of `waits` for this cycle: every queued doorbell but
    /// `taken` (the one the DMA takes now), by why it waits.
    fn doorbell_waits(&mut self, p: &NicParams, busy: bool, taken: Option<(usize, usize)>) {
        let Some(w) = self.waits.as_deref_mut() else { return };
        if self.now < w.from {
            return;
        }
        if busy {
            w.doorbell_dma_busy.iter_mut().zip(&self.rung).for_each(|(x, n)| *x += n);
            let stalled = self.dma.is_some_and(|t| t.overhead_left == 0 && self.fill[t.queue] >= p.queue_depth);
            if stalled {
                w.doorbell_dma_stalled.iter_mut().zip(&self.rung).for_each(|(x, n)| *x += n);
            }
            return;
        }
        // The traditional NIC sees only its one queue's front.
        let depth = if p.qos { p.doorbell_depth } else { 1 };
        let mut seen = vec![0u64; self.rung.len()];
        for (c, q) in self.doorbells.iter().enumerate() {
            for (i, db) in q.iter().take(depth).enumerate() {
                let k = db.class as usize;
                seen[k] += 1;
                if taken == Some((c, i)) {
                    continue;
                }
                let full = self.fill[if p.qos { db.vc as usize } else { 0 }] >= p.queue_depth;
                if full {
                    w.doorbell_queue_full[k] += 1;
                } else {
                    w.doorbell_other_first[k] += 1;
                }
            }
        }
        for (k, n) in self.rung.iter().enumerate() {
            w.doorbell_not_visible[k] += n - seen[k];
        }
    }

    /// The host-bus / DMA server: select, overhead, then flits at the bus rate.
    fn move_flits(&mut self, p: &NicParams, mut admit: impl FnMut(u32) -> bool) {
        if self.dma.is_none() {
            let sel = self.select(p).filter(|&(c, i)| admit(self.doorbells[c][i].msg));
            if self.waits.is_some() {
                self.doorbell_waits(p, false, sel);
            }
            let Some((c, i)) = sel else { return };
            let db = self.doorbells[c].remove(i).expect("selected");
            self.rung[db.class as usize] -= 1;
            let queue = self.queue_of(p, &db);
            let behind_be = self.queues[queue].iter().any(|b| b.db.class == 0);
            let now = self.now;
            self.queues[queue].push_back(Buffered { db, arrived: 0, sent: 0, selected: now, front: now, behind_be });
            self.dma = Some(Transfer { queue, overhead_left: p.dma_cycles, flits_left: db.flits });
            self.bus_acc = 0.0;
        } else if self.waits.is_some() {
            self.doorbell_waits(p, true, None);
        }
        let t = self.dma.as_mut().expect("a transfer");
        if t.overhead_left > 0 {
            t.overhead_left -= 1;
            return;
        }
        let q = t.queue;
        // Bus time is not banked while the queue is full.
        self.bus_acc = (self.bus_acc + p.bus_flits_per_cycle).min(p.bus_flits_per_cycle.max(1.0));
        let mut moved = 0;
        while self.bus_acc >= 1.0 && t.flits_left > 0 && self.fill[q] < p.queue_depth {
            self.bus_acc -= 1.0;
            t.flits_left -= 1;
            self.fill[q] += 1;
            moved += 1;
        }
        if moved > 0 {
            self.queues[q].back_mut().expect("the transfer's message").arrived += moved;
        }
        if t.flits_left == 0 {
            self.dma = None;
        }
    }
}

#[cfg(test)]
mod tests;

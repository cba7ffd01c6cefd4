//! Deterministic, seeded random traffic for one router: message sources on
//! every input VC and credit-returning sinks on every output VC.
//!
//! The stimulus is *reactive*: each cycle it looks at one device's outputs
//! (credits returned upstream, flits delivered downstream) and produces that
//! cycle's inputs. Given the same seed and the same sequence of outputs it
//! produces the same sequence of inputs, so a run can be replayed exactly.
//!
//! Link protocol obeyed (docs/microarchitecture.md §2, §3, §6):
//! - at most one flit per input port per cycle; the flits of a message go in
//!   order on one VC; messages on different VCs of a port may interleave;
//! - one credit counter per input VC, initially `input_buffer_depth`, -1 per
//!   flit sent, +1 per `in_credit_o` bit; a flit is never sent without a credit;
//! - each output VC is received by a buffer of `downstream_buffer_depth`
//!   slots; a freed slot is returned as an `out_credit_i` bit in the inputs of
//!   the same cycle in which the sink decides to free it.
//!
//! With `router.preemption_credits = "per_lane"` (§9.4 *Credits*) the
//! credits are per lane of each VC instead: each source VC is the golden
//! model's own sender (`LaneSender`), which names the lane of every flit and
//! spends that lane's credit; each sink VC holds DD flits per lane and
//! returns every credit with the lane of the flit it frees
//! (`stimulus_lanes.rs`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use wormqos_config::{index_width, RouterConfig, RouterMode};
use wormqos_sim::{credit_lane, credit_lane_word, LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};

use crate::stimulus_lanes::{LaneFault, Lanes};

/// Shape of the random traffic. `Default` gives moderate load with enough
/// sink stalls to fill buffers and exercise credit backpressure.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficParams {
    /// Probability that an input port offers a flit in a cycle (when it has a
    /// VC with a credit). 0.0..=1.0.
    pub injection_rate: f64,
    /// Messages are 1..=max_message_flits flits long (uniform).
    pub max_message_flits: usize,
    /// Probability that a sink VC holding flits does *not* free a slot in a cycle.
    pub sink_stall_prob: f64,
    /// Probability per output port per cycle that a stall burst starts: the
    /// whole port frees nothing for the burst's length.
    pub stall_burst_prob: f64,
    /// Longest stall burst, in cycles (lengths are uniform in 1..=this).
    pub stall_burst_max: u32,
    /// Probability that a header carries a destination code >= endpoints()
    /// (routed to port 0 by the spec). Only used when such codes exist.
    pub bad_dest_prob: f64,
    /// Probability that a new message is sent to `hotspot` (if set) instead of
    /// a uniform destination; concentrates contention on one output.
    pub hotspot: Option<(u64, f64)>,
    /// Relative frequency of each traffic class (index = class); empty means
    /// uniform. In the partitioned modes the class is the input VC's class
    /// instead (an upstream partitioned router could not send anything else).
    pub class_weights: Vec<u32>,
    /// Preemptive mode only: probability per cycle that a source VC in the
    /// middle of a message interrupts it for a new message of a higher class,
    /// the way an upstream preemptive router would: dummy tail, the new
    /// message, dummy header, the rest (docs/microarchitecture.md §9.4).
    pub source_preempt_prob: f64,
}

impl Default for TrafficParams {
    fn default() -> Self {
        TrafficParams {
            injection_rate: 0.6,
            max_message_flits: 6,
            sink_stall_prob: 0.3,
            stall_burst_prob: 0.01,
            stall_burst_max: 40,
            bad_dest_prob: 0.02,
            hotspot: None,
            class_weights: Vec::new(),
            source_preempt_prob: 0.0,
        }
    }
}

/// The device under test broke the link protocol as seen from the stimulus.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StimulusError {
    #[error(
        "cycle {cycle}: output port {port} vc {vc}: a flit arrived at a full sink \
         ({depth} of {depth} slots occupied): the router sent without a credit"
    )]
    SinkOverflow { cycle: u64, port: usize, vc: usize, depth: usize },
    #[error("cycle {cycle}: output port {port}: out_vc_o = {vc} is not a VC (the router has {vcs})")]
    BadOutputVc { cycle: u64, port: usize, vc: usize, vcs: usize },
    #[error(
        "cycle {cycle}: input port {port} vc {vc}: in_credit_o returned a credit that was never \
         used (the sender would hold {credits} credits for a {depth}-flit buffer)"
    )]
    CreditOverflow { cycle: u64, port: usize, vc: usize, credits: usize, depth: usize },
    #[error("cycle {cycle}: input port {port}: in_credit_o = {bits:#x} has bits above VC {max}")]
    BadCreditBits { cycle: u64, port: usize, bits: u32, max: usize },
    #[error("cycle {cycle}: port {port} vc {vc}: per-lane credits: {fault}")]
    Lane { cycle: u64, port: usize, vc: usize, fault: String },
}

/// Counters showing what the traffic exercised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StimulusStats {
    pub cycles: u64,
    pub flits_injected: u64,
    pub messages_started: u64,
    pub messages_completed: u64,
    pub flits_received: u64,
    /// Output-port cycles spent in a stall burst.
    pub stall_burst_cycles: u64,
    /// Sink-VC cycles in which occupied slots were held (random stall or burst).
    pub sink_hold_cycles: u64,
    /// Sink-VC cycles in which the sink buffer was completely full (the router
    /// had no credit for that output VC).
    pub sink_full_cycles: u64,
    /// Largest occupancy of any sink VC buffer.
    pub max_sink_occupancy: usize,
    /// Input-VC cycles in which a source had a flit ready but no credit
    /// (the router's input buffer was full as seen by the sender).
    pub source_credit_blocked: u64,
    /// Smallest credit count seen at any input VC (0 = a buffer filled up).
    pub min_source_credits: usize,
    /// Header flits sent with a destination code >= endpoints().
    pub bad_dest_headers: u64,
    /// Preemptive mode: messages the sources interrupted themselves (each adds
    /// a dummy tail and a dummy header to the link).
    pub source_preemptions: u64,
    /// Messages started per class.
    pub messages_per_class: Vec<u64>,
    /// Of `flits_injected`: dummy flits (P mode, source preemptions).
    pub dummy_flits_injected: u64,
    /// Of `flits_received`: dummy flits (P mode, the routers' and the sources').
    pub dummy_flits_received: u64,
    /// Per-lane credits: of `flits_injected`, flits the sources sent into an
    /// extra lane (lane >= 1) of the router's input VCs.
    pub extra_lane_flits_injected: u64,
    /// Per-lane credits: of `flits_received`, flits the router sent into an
    /// extra lane of the sinks (its output VCs opened lanes above 0).
    pub extra_lane_flits_received: u64,
}

impl fmt::Display for StimulusStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "link flits sent by the sources {} ({} dummy), link flits taken by the sinks {} ({} dummy), \
             messages started {}; backpressure: {} port-cycles in stall \
             bursts, {} sink-VC hold cycles, {} sink-full cycles, max sink occupancy {}, \
             {} source-VC cycles blocked on credits (min credits {}); {} out-of-range destinations",
            self.flits_injected,
            self.dummy_flits_injected,
            self.flits_received,
            self.dummy_flits_received,
            self.messages_started,
            self.stall_burst_cycles,
            self.sink_hold_cycles,
            self.sink_full_cycles,
            self.max_sink_occupancy,
            self.source_credit_blocked,
            self.min_source_credits,
            self.bad_dest_headers
        )
    }
}

#[derive(Clone, Debug)]
struct SourceVc {
    credits: usize,
    /// Remaining flits to send on this VC, front first: the message being sent
    /// and, after a source preemption, the interrupting message, the dummy
    /// header and the rest of the interrupted one.
    current: VecDeque<QueuedFlit>,
}

#[derive(Clone, Copy, Debug)]
struct QueuedFlit {
    flit: LinkFlit,
    /// Class of the message the flit belongs to.
    class: u64,
    /// That message's header (for the dummy header of a source preemption).
    header: [u64; MAX_FLIT_WORDS],
}

/// Width of the message id in the §9.6 message tags, if the flit has room.
pub fn tag_id_width(cfg: &RouterConfig) -> Option<u32> {
    let w = cfg.flit_width();
    let hw = cfg.header().width();
    let idw = 32.min(w - hw).min(w.saturating_sub(16));
    (idw >= 8).then_some(idw)
}

/// Seeded traffic generator plus sinks for one router.
pub struct Stimulus {
    cfg: RouterConfig,
    params: TrafficParams,
    rng: SmallRng,
    sources: Vec<SourceVc>, // index p*M+v
    sink_occupancy: Vec<usize>, // index o*M+u
    stall_left: Vec<u32>,       // per output port
    injecting: bool,
    cycle: u64,
    inputs: RouterInputs,
    stats: StimulusStats,
    /// Recent header data, to keep headers distinct (so the scoreboard never
    /// has to guess which of two identical headers it is looking at).
    recent_heads: HashSet<[u64; MAX_FLIT_WORDS]>,
    recent_order: VecDeque<[u64; MAX_FLIT_WORDS]>,
    recent_limit: usize,
    /// Preemptive mode: id width of the §9.6 tags and the next message id.
    tags: Option<u32>,
    /// Next message id per output port, and the undelivered flits of every
    /// (output port, id) in flight, so an id is never reused while any part
    /// of its message can still arrive (ids are only IDW bits wide).
    next_id: Vec<u64>,
    in_flight_ids: HashMap<(usize, u64), usize>,
    /// Registered switch allocation (docs/microarchitecture.md §6): the
    /// router returns a credit in the cycle its slot is freed (at that
    /// cycle's end), so a credit seen in cycle t is spent from t+1 on, as a
    /// neighbour router's credit counter does: the bits seen last cycle,
    /// with their per-lane word (`credit_lanes`) of the same cycle.
    late_credits: Option<Vec<(u32, u64)>>,
    /// `router.preemption_credits = "per_lane"`: the endpoints' lanes.
    lanes: Option<Lanes>,
}

impl Stimulus {
    pub fn new(cfg: &RouterConfig, seed: u64, params: TrafficParams) -> Self {
        let n = cfg.ports();
        let m = cfg.vcs();
        let di = cfg.input_buffer_depth();
        // Messages that can be inside the router at once, with margin.
        let in_flight = n * m * (cfg.input_buffer_depth() + cfg.output_buffer_depth() + 2) + 64;
        // Random bits in a header besides the destination (class and Vtick
        // take at least 8 random bits together), so never limit above half the space.
        let free_bits = cfg.flit_width() - cfg.header().dest.width;
        let space = if free_bits >= 40 { usize::MAX } else { 1usize << free_bits };
        Stimulus {
            cfg: cfg.clone(),
            params,
            rng: SmallRng::seed_from_u64(seed),
            sources: vec![SourceVc { credits: di, current: VecDeque::new() }; n * m],
            sink_occupancy: vec![0; n * m],
            stall_left: vec![0; n],
            injecting: true,
            cycle: 0,
            inputs: RouterInputs::idle(cfg),
            stats: StimulusStats {
                min_source_credits: di,
                messages_per_class: vec![0; cfg.traffic_classes() as usize],
                ..Default::default()
            },
            recent_heads: HashSet::new(),
            recent_order: VecDeque::new(),
            recent_limit: in_flight.min(space / 16),
            tags: if cfg.mode() == RouterMode::Preemptive { tag_id_width(cfg) } else { None },
            next_id: vec![0; n],
            in_flight_ids: HashMap::new(),
            late_credits: (cfg.scheduling().point.switch_stage() != wormqos_config::SwitchStage::SingleCycle).then(|| vec![(0, 0); n]),
            lanes: cfg.per_lane_credits().then(|| Lanes::new(cfg)),
        }
    }

    /// Stops starting new messages; messages already begun are completed
    /// (subject to credits), so the router can drain.
    pub fn stop_injecting(&mut self) {
        self.injecting = false;
    }

    pub fn is_injecting(&self) -> bool {
        self.injecting
    }

    /// True when no source holds an unfinished message.
    pub fn sources_idle(&self) -> bool {
        self.sources.iter().all(|s| s.current.is_empty())
    }

    pub fn stats(&self) -> &StimulusStats {
        &self.stats
    }

    /// The cycle the next call to [`Stimulus::next_inputs`] produces inputs for.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Credits the sender currently holds for input VC (port, vc).
    pub fn source_credits(&self, port: usize, vc: usize) -> usize {
        self.sources[port * self.cfg.vcs() + vc].credits
    }

    /// Occupied slots of the receiver of output VC (port, vc).
    pub fn sink_occupancy(&self, port: usize, vc: usize) -> usize {
        self.sink_occupancy[port * self.cfg.vcs() + vc]
    }

    /// Consumes the device's outputs of the current cycle and returns the
    /// inputs for the same cycle.
    pub fn next_inputs(&mut self, outs: &RouterOutputs) -> Result<&RouterInputs, StimulusError> {
        let n = self.cfg.ports();
        let m = self.cfg.vcs();
        let di = self.cfg.input_buffer_depth();
        let dd = self.cfg.downstream_buffer_depth();
        let cycle = self.cycle;
        self.inputs.clear();

        // Credits returned upstream (registered: those of the last cycle).
        for p in 0..n {
            // (a credit's lane is read in the cycle of its bit)
            let now = (outs.credits[p], outs.credit_lanes.get(p).copied().unwrap_or(0));
            let (bits, lanes) = match &mut self.late_credits {
                Some(late) => std::mem::replace(&mut late[p], now),
                None => now,
            };
            if m < 32 && bits >> m != 0 {
                return Err(StimulusError::BadCreditBits { cycle, port: p, bits, max: m - 1 });
            }
            for v in 0..m {
                if (bits >> v) & 1 == 1 {
                    if let Some(l) = &mut self.lanes {
                        let lane = credit_lane(lanes, v);
                        l.credit(p * m + v, lane).map_err(|f| lane_error(cycle, p, v, f))?;
                        continue;
                    }
                    let s = &mut self.sources[p * m + v];
                    s.credits += 1;
                    if s.credits > di {
                        return Err(StimulusError::CreditOverflow { cycle, port: p, vc: v, credits: s.credits, depth: di });
                    }
                }
            }
        }

        // Sinks: arrivals, then frees (only of flits that arrived earlier).
        let mut before = vec![0usize; n * m];
        before.copy_from_slice(&self.sink_occupancy);
        for o in 0..n {
            let f = &outs.flits[o];
            if !f.valid {
                continue;
            }
            let u = f.vc as usize;
            if u >= m {
                return Err(StimulusError::BadOutputVc { cycle, port: o, vc: u, vcs: m });
            }
            if let Some(l) = &mut self.lanes {
                l.arrive(o * m + u, f.lane as usize).map_err(|e| lane_error(cycle, o, u, e))?;
                self.stats.extra_lane_flits_received += u64::from(f.lane > 0);
            }
            let occ = &mut self.sink_occupancy[o * m + u];
            if *occ >= dd && self.lanes.is_none() {
                return Err(StimulusError::SinkOverflow { cycle, port: o, vc: u, depth: dd });
            }
            *occ += 1;
            self.stats.flits_received += 1;
            self.stats.dummy_flits_received += u64::from(f.dummy);
            if let (Some(idw), false) = (self.tags, f.dummy) {
                let h = self.cfg.header();
                let lsb = if f.head { h.width() } else { 16 };
                let key = (o, wormqos_config::Field { lsb, width: idw }.extract(&f.data));
                if let Some(left) = self.in_flight_ids.get_mut(&key) {
                    *left -= 1;
                    if *left == 0 {
                        self.in_flight_ids.remove(&key);
                    }
                }
            }
            self.stats.max_sink_occupancy = self.stats.max_sink_occupancy.max(*occ);
        }
        for o in 0..n {
            if self.stall_left[o] == 0
                && self.params.stall_burst_prob > 0.0
                && self.rng.gen_bool(self.params.stall_burst_prob.clamp(0.0, 1.0))
            {
                self.stall_left[o] = self.rng.gen_range(1..=self.params.stall_burst_max.max(1));
            }
            let stalled = self.stall_left[o] > 0;
            if stalled {
                self.stall_left[o] -= 1;
                self.stats.stall_burst_cycles += 1;
            }
            let mut bits = 0u32;
            for u in 0..m {
                let i = o * m + u;
                let full = match &self.lanes {
                    Some(l) => l.any_full(i),
                    None => self.sink_occupancy[i] >= dd,
                };
                if full {
                    self.stats.sink_full_cycles += 1;
                }
                if before[i] == 0 {
                    continue;
                }
                let hold = stalled || self.rng.gen_bool(self.params.sink_stall_prob.clamp(0.0, 1.0));
                if hold {
                    self.stats.sink_hold_cycles += 1;
                } else {
                    self.sink_occupancy[i] -= 1;
                    bits |= 1 << u;
                    if let Some(l) = &mut self.lanes {
                        self.inputs.credit_lanes[o] |= credit_lane_word(u, l.free(i));
                    }
                }
            }
            self.inputs.credits[o] = bits;
        }

        // Sources: at most one flit per input port.
        let mut candidates = Vec::with_capacity(m);
        for p in 0..n {
            let offer = if self.injecting {
                self.rng.gen_bool(self.params.injection_rate.clamp(0.0, 1.0))
            } else {
                true
            };
            candidates.clear();
            for v in 0..m {
                let s = &self.sources[p * m + v];
                let wants = !s.current.is_empty() || self.injecting;
                // Per-lane credits: the credits of the lane the next flit
                // would enter (a message not created yet is checked once it is).
                let credits = match (&self.lanes, s.current.front()) {
                    (Some(l), Some(q)) => l.credits_for(p * m + v, &q.flit, q.class),
                    (Some(_), None) => 1,
                    (None, _) => s.credits,
                };
                if wants && credits == 0 {
                    self.stats.source_credit_blocked += 1;
                }
                if wants && credits > 0 {
                    candidates.push(v);
                }
            }
            if !offer || candidates.is_empty() {
                continue;
            }
            let v = candidates[self.rng.gen_range(0..candidates.len())];
            if self.sources[p * m + v].current.is_empty() {
                let msg = self.new_message(v, None);
                self.sources[p * m + v].current = msg;
            } else if self.injecting && self.cfg.mode() == RouterMode::Preemptive && self.params.source_preempt_prob > 0.0 {
                self.maybe_preempt_at_source(p * m + v, v);
            }
            let i = p * m + v;
            let flit = match &mut self.lanes {
                Some(l) => {
                    let q = *self.sources[i].current.front().expect("a message has at least one flit");
                    let left = l.credits_for(i, &q.flit, q.class);
                    if left == 0 {
                        // a fresh header whose lane has no credit: it waits
                        self.stats.source_credit_blocked += 1;
                        continue;
                    }
                    let mut flit = q.flit;
                    l.send(i, &mut flit, q.class);
                    self.sources[i].current.pop_front();
                    self.stats.min_source_credits = self.stats.min_source_credits.min(left - 1);
                    self.stats.extra_lane_flits_injected += u64::from(flit.lane > 0);
                    flit
                }
                None => {
                    let s = &mut self.sources[i];
                    let flit = s.current.pop_front().expect("a message has at least one flit").flit;
                    s.credits -= 1;
                    self.stats.min_source_credits = self.stats.min_source_credits.min(s.credits);
                    flit
                }
            };
            if flit.tail && !flit.dummy {
                self.stats.messages_completed += 1;
            }
            self.stats.flits_injected += 1;
            self.stats.dummy_flits_injected += u64::from(flit.dummy);
            self.inputs.flits[p] = flit;
        }

        self.cycle += 1;
        self.stats.cycles = self.cycle;
        Ok(&self.inputs)
    }

    /// Per-lane credits: the credits of lane `lane` of input VC (port, vc)
    /// as its sender holds them.
    pub fn source_lane_credits(&self, port: usize, vc: usize, lane: u8) -> Option<usize> {
        self.lanes.as_ref().map(|l| l.credits(port * self.cfg.vcs() + vc, lane))
    }

    /// A Vtick mix that exercises the VirtualClock (docs/microarchitecture.md §8.1):
    /// best effort (all-ones, and 0), many small real-time Vticks that compete
    /// closely, and some up to the largest real-time value that push the
    /// counters into rebasing.
    fn random_vtick(&mut self, width: u32) -> u64 {
        let ones = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
        let max_rt = ones - 1;
        match self.rng.gen_range(0..100) {
            0..=14 => ones,
            15..=17 => 0,
            18..=67 => self.rng.gen_range(1..=16.min(max_rt)),
            68..=87 => self.rng.gen_range(1..=512.min(max_rt)),
            _ => self.rng.gen_range(1..=max_rt),
        }
    }

    fn random_data(&mut self) -> [u64; MAX_FLIT_WORDS] {
        let w = self.cfg.flit_width() as usize;
        let mut d = [0u64; MAX_FLIT_WORDS];
        for (k, word) in d.iter_mut().enumerate().take(self.cfg.flit_words()) {
            let bits = (w - 64 * k).min(64);
            let r: u64 = self.rng.gen();
            *word = if bits == 64 { r } else { r & ((1u64 << bits) - 1) };
        }
        d
    }

    /// If the next flit of source VC `i` is inside a message (not its head),
    /// with probability `source_preempt_prob` interrupts that message for a new
    /// one of a higher class: dummy tail, the new message, then a dummy header
    /// (the interrupted message's header fields) before its remaining flits.
    fn maybe_preempt_at_source(&mut self, i: usize, v: usize) {
        let Some(front) = self.sources[i].current.front().copied() else { return };
        if front.flit.head || front.class + 1 >= self.cfg.traffic_classes() as u64 {
            return;
        }
        if !self.rng.gen_bool(self.params.source_preempt_prob.clamp(0.0, 1.0)) {
            return;
        }
        let class = self.rng.gen_range(front.class + 1..self.cfg.traffic_classes() as u64);
        let fresh = self.new_message(v, Some(class));
        let h = self.cfg.header();
        let mut dummy_head = [0u64; MAX_FLIT_WORDS];
        for f in [h.dest, h.class, h.vtick] {
            f.insert(&mut dummy_head, f.extract(&front.header));
        }
        let dummy = |head: bool, data: [u64; MAX_FLIT_WORDS]| QueuedFlit {
            flit: LinkFlit { lane: 0, valid: true, dummy: true, vc: v as u8, head, tail: !head, data },
            class: front.class,
            header: front.header,
        };
        let q = &mut self.sources[i].current;
        q.push_front(dummy(true, dummy_head));
        for f in fresh.into_iter().rev() {
            q.push_front(f);
        }
        q.push_front(dummy(false, [0; MAX_FLIT_WORDS]));
        self.stats.source_preemptions += 1;
    }

    fn pick_class(&mut self, vc: usize) -> u64 {
        if let Some(map) = self.cfg.vc_classes() {
            return map[vc] as u64;
        }
        let s = self.cfg.traffic_classes() as usize;
        let w = &self.params.class_weights;
        if w.len() == s && w.iter().any(|&x| x > 0) {
            let total: u32 = w.iter().sum();
            let mut r = self.rng.gen_range(0..total);
            for (c, &x) in w.iter().enumerate() {
                if r < x {
                    return c as u64;
                }
                r -= x;
            }
        }
        self.rng.gen_range(0..s as u64)
    }

    fn new_message(&mut self, vc: usize, class: Option<u64>) -> VecDeque<QueuedFlit> {
        let h = self.cfg.header();
        let endpoints = self.cfg.endpoints() as u64;
        let codes = 1u64 << index_width(endpoints as u32);
        let dest = if codes > endpoints && self.rng.gen_bool(self.params.bad_dest_prob.clamp(0.0, 1.0)) {
            self.stats.bad_dest_headers += 1;
            self.rng.gen_range(endpoints..codes)
        } else {
            match self.params.hotspot {
                Some((d, prob)) if self.rng.gen_bool(prob.clamp(0.0, 1.0)) => d.min(codes - 1),
                _ => self.rng.gen_range(0..endpoints),
            }
        };
        let class = match class {
            Some(c) => c,
            None => self.pick_class(vc),
        };
        self.stats.messages_started += 1;
        if let Some(n) = self.stats.messages_per_class.get_mut(class as usize) {
            *n += 1;
        }
        let len = self.rng.gen_range(1..=self.params.max_message_flits.max(1));
        let port = self.cfg.route(dest);
        let mut id = self.next_id[port];
        if let Some(idw) = self.tags {
            let mask = (1u64 << idw) - 1;
            let mut tries = 0u64;
            while self.in_flight_ids.contains_key(&(port, id & mask)) {
                id += 1;
                tries += 1;
                assert!(tries <= mask, "every message id of port {port} is in flight");
            }
            self.in_flight_ids.insert((port, id & mask), len);
        }
        self.next_id[port] = id + 1;
        let tag = |data: &mut [u64; MAX_FLIT_WORDS], lsb: u32, width: u32, value: u64| {
            wormqos_config::Field { lsb, width }.insert(data, value & ((1u64 << width) - 1));
        };
        let mut head = [0u64; MAX_FLIT_WORDS];
        for _ in 0..64 {
            head = self.random_data();
            h.dest.insert(&mut head, dest);
            h.class.insert(&mut head, class);
            let vt = self.random_vtick(h.vtick.width);
            h.vtick.insert(&mut head, vt);
            if let Some(idw) = self.tags {
                tag(&mut head, h.width(), idw, id);
            }
            if !self.recent_heads.contains(&head) {
                break;
            }
        }
        if self.recent_limit > 0 && self.tags.is_none() {
            if self.recent_heads.insert(head) {
                self.recent_order.push_back(head);
            }
            while self.recent_order.len() > self.recent_limit {
                let old = self.recent_order.pop_front().unwrap();
                self.recent_heads.remove(&old);
            }
        }
        let mut flits = VecDeque::with_capacity(len);
        for k in 0..len {
            let mut data = if k == 0 { head } else { self.random_data() };
            if let (Some(idw), true) = (self.tags, k > 0) {
                tag(&mut data, 0, 16, k as u64);
                tag(&mut data, 16, idw, id);
            }
            let flit = LinkFlit { lane: 0, valid: true, dummy: false, vc: vc as u8, head: k == 0, tail: k + 1 == len, data };
            flits.push_back(QueuedFlit { flit, class, header: head });
        }
        flits
    }
}

/// A per-lane credit fault of the device as a [`StimulusError`].
fn lane_error(cycle: u64, port: usize, vc: usize, fault: LaneFault) -> StimulusError {
    let fault = match fault {
        LaneFault::NoSuchLane(l) => format!("lane {l} does not exist"),
        LaneFault::Overflow { lane, credits } => format!("a credit of lane {lane} that was never used (the sender would hold {credits})"),
        LaneFault::Full { lane } => format!("a flit arrived at lane {lane} of a full sink: the router sent without a lane credit"),
    };
    StimulusError::Lane { cycle, port, vc, fault }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wormqos_config::Field;

    pub(crate) fn cfg(text: &str) -> RouterConfig {
        RouterConfig::from_toml_str(text, "test").unwrap()
    }

    fn small() -> RouterConfig {
        cfg(r#"
name = "s"
[router]
ports = 3
vcs = 2
flit_width = 72
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
"#)
    }

    /// Without any credits returned, a source sends exactly DI flits per VC,
    /// messages stay in order on their VC, and data stays within the width.
    #[test]
    fn respects_credits_and_message_order() {
        let c = small();
        let mut s = Stimulus::new(&c, 7, TrafficParams { injection_rate: 1.0, ..Default::default() });
        let outs = RouterOutputs::idle(&c);
        let mut per_vc = vec![0usize; c.ports() * c.vcs()];
        let mut open = vec![false; c.ports() * c.vcs()];
        for _ in 0..100 {
            let inp = s.next_inputs(&outs).unwrap().clone();
            for (p, f) in inp.flits.iter().enumerate() {
                if !f.valid {
                    continue;
                }
                let i = p * c.vcs() + f.vc as usize;
                per_vc[i] += 1;
                assert_eq!(f.head, !open[i], "head exactly when no message is open");
                open[i] = !f.tail;
                assert_eq!(f.data[1] >> 8, 0, "bits above 72 are zero");
                assert_eq!(f.data[2] | f.data[3], 0);
            }
        }
        assert!(per_vc.iter().all(|&k| k == c.input_buffer_depth()), "{per_vc:?}");
        assert_eq!(s.stats().min_source_credits, 0);
        assert!(s.stats().source_credit_blocked > 0);
    }

    #[test]
    fn deterministic_for_a_seed() {
        let c = small();
        let run = |seed| {
            let mut s = Stimulus::new(&c, seed, TrafficParams::default());
            let outs = RouterOutputs::idle(&c);
            (0..50).map(|_| s.next_inputs(&outs).unwrap().clone()).collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn credit_overflow_and_sink_overflow_are_reported() {
        let c = small();
        let mut s = Stimulus::new(&c, 1, TrafficParams { injection_rate: 0.0, ..Default::default() });
        let mut outs = RouterOutputs::idle(&c);
        outs.credits[1] = 0b10;
        let e = s.next_inputs(&outs).unwrap_err();
        assert!(matches!(e, StimulusError::CreditOverflow { port: 1, vc: 1, .. }), "{e}");

        let mut s = Stimulus::new(
            &c,
            1,
            TrafficParams { injection_rate: 0.0, sink_stall_prob: 1.0, ..Default::default() },
        );
        let mut outs = RouterOutputs::idle(&c);
        outs.flits[2] = LinkFlit { lane: 0, valid: true, dummy: false, vc: 1, head: true, tail: true, data: [0; 4] };
        for _ in 0..c.downstream_buffer_depth() {
            s.next_inputs(&outs).unwrap();
        }
        let e = s.next_inputs(&outs).unwrap_err();
        assert!(matches!(e, StimulusError::SinkOverflow { port: 2, vc: 1, .. }), "{e}");
        assert!(e.to_string().contains("full sink"), "{e}");
    }

    /// Registered switch stage with per-lane credits (docs/
    /// microarchitecture.md §6 *Credits at the input link*): a credit seen
    /// in cycle t is counted in cycle t+1, in the lane named beside it in
    /// cycle t, not the (empty) lane word of t+1. Every lane's credits are
    /// home (no flit sent), so the credit is an overflow, and the error
    /// names the lane it was counted in: lane 1, as named in cycle 0.
    #[test]
    fn late_credit_keeps_the_lane_of_its_cycle() {
        let c = cfg(r#"
name = "pl"
[router]
ports = 2
vcs = 2
flit_width = 40
input_buffer_depth = 4
output_buffer_depth = 3
crossbar = "multiplexed"
scheduler = "virtualclock"
clock_width = 10
vtick_width = 10
mode = "preemptive"
switch_stage = "registered"
preemption_credits = "per_lane"
"#);
        assert!(c.extra_lanes() >= 1 && c.per_lane_credits());
        let mut s = Stimulus::new(&c, 1, TrafficParams { injection_rate: 0.0, ..Default::default() });
        let mut outs = RouterOutputs::idle(&c);
        outs.credits[0] = 0b01;
        outs.credit_lanes[0] = credit_lane_word(0, 1);
        s.next_inputs(&outs).expect("counted only from the next cycle");
        let e = s.next_inputs(&RouterOutputs::idle(&c)).unwrap_err();
        let StimulusError::Lane { cycle: 1, port: 0, vc: 0, fault } = &e else { panic!("{e}") };
        assert!(fault.contains("credit of lane 1 "), "{e}");
    }

    #[test]
    fn sinks_return_credits_for_earlier_arrivals_and_stop_on_demand() {
        let c = small();
        let mut s = Stimulus::new(
            &c,
            1,
            TrafficParams { sink_stall_prob: 0.0, stall_burst_prob: 0.0, max_message_flits: 3, ..Default::default() },
        );
        let mut outs = RouterOutputs::idle(&c);
        outs.flits[0] = LinkFlit { lane: 0, valid: true, dummy: false, vc: 1, head: true, tail: true, data: [0; 4] };
        assert_eq!(s.next_inputs(&outs).unwrap().credits[0], 0, "not in the arrival cycle");
        let outs = RouterOutputs::idle(&c);
        assert_eq!(s.next_inputs(&outs).unwrap().credits[0], 0b10);
        s.stop_injecting();
        for _ in 0..20 {
            s.next_inputs(&outs).unwrap();
        }
        assert!(s.sources_idle());
        let inp = s.next_inputs(&outs).unwrap();
        assert!(inp.flits.iter().all(|f| !f.valid));
    }

    /// Preemptive mode: the link protocol holds with source preemptions (a
    /// dummy tail suspends the open message, only a higher class may start
    /// while it is suspended, the dummy header repeats its header fields and
    /// it resumes at the next index), tags count up, and nesting happens.
    #[test]
    fn source_preemption_keeps_the_link_protocol() {
        let c = cfg(r#"
name = "p"
[router]
ports = 2
vcs = 2
flit_width = 40
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "virtualclock"
clock_width = 10
vtick_width = 10
mode = "preemptive"
"#);
        let params = TrafficParams { injection_rate: 1.0, max_message_flits: 10, source_preempt_prob: 0.3, ..Default::default() };
        let mut s = Stimulus::new(&c, 5, params);
        let h = c.header();
        let fields = |d: &[u64; MAX_FLIT_WORDS]| (h.dest.extract(d), h.class.extract(d), h.vtick.extract(d));
        // Per input VC: the open message (class, header fields, id, next index) and the suspended ones.
        type Open = (u64, (u64, u64, u64), u64, u64);
        let mut open: Vec<Option<Open>> = vec![None; 4];
        let mut suspended: Vec<Vec<Open>> = vec![Vec::new(); 4];
        let (mut max_nesting, mut dummies) = (0, 0);
        let mut outs = RouterOutputs::idle(&c);
        for _ in 0..20_000 {
            let inp = s.next_inputs(&outs).unwrap().clone();
            outs.credits.fill(0);
            for (p, f) in inp.flits.iter().enumerate() {
                if !f.valid {
                    continue;
                }
                outs.credits[p] |= 1 << f.vc; // the router frees the slot at once
                let i = p * 2 + f.vc as usize;
                match (f.head, f.dummy) {
                    (true, false) => {
                        assert!(open[i].is_none(), "messages interleave on a VC");
                        let class = h.class.extract(&f.data);
                        if let Some(top) = suspended[i].last() {
                            assert!(class > top.0, "only a higher class may interrupt");
                        }
                        let id = Field { lsb: h.width(), width: 24 }.extract(&f.data);
                        open[i] = (!f.tail).then_some((class, fields(&f.data), id, 1));
                    }
                    (false, false) => {
                        let (class, fl, id, k) = open[i].expect("a body flit with no open message");
                        assert_eq!(f.data[0] & 0xffff, k, "index");
                        assert_eq!((f.data[0] >> 16) & 0xff_ffff, id & 0xff_ffff, "id");
                        open[i] = (!f.tail).then_some((class, fl, id, k + 1));
                    }
                    (false, true) => {
                        assert!(f.tail && f.data == [0; MAX_FLIT_WORDS], "a dummy tail");
                        suspended[i].push(open[i].take().expect("a dummy tail with no open message"));
                        max_nesting = max_nesting.max(suspended[i].len());
                        dummies += 1;
                    }
                    (true, true) => {
                        assert!(open[i].is_none());
                        let m = suspended[i].pop().expect("a dummy header with nothing suspended");
                        assert_eq!(fields(&f.data), m.1, "the dummy header repeats the header fields");
                        assert_eq!(f.data[0] >> h.width(), 0, "and nothing else");
                        open[i] = Some(m);
                    }
                }
            }
        }
        assert!(s.stats().source_preemptions > 100 && dummies > 100, "{:?}", s.stats());
        assert_eq!(max_nesting, 2, "three classes nest two deep");
    }
}

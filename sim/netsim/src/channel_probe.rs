//! Per-channel VC measurements of a running network ([`Sim::run_probed`]),
//! the simulated counterparts of an analytical model's channel terms
//! (002_…'s P_{d_i,j}, the blocking probability, the VC holding time that
//! the model calls a channel's service time, the waiting time for a VC and
//! the multiplexing degree; docs/reproduction.md, "Why 002_…'s model
//! saturates early").
//!
//! A channel is a router-to-router output port; its *busy* VCs are the
//! allocated output VCs (under atomic reallocation that includes a VC
//! draining its last message), its *active* VCs those with flits in the
//! output buffer, competing for the link. A header *waits* from the cycle
//! after route computation (state ROUTED) until it holds an output VC.
//!
//! [`Sim::run_probed`]: crate::network::Sim::run_probed

use crate::topology::{Network, Peer};
use wormqos_sim::{Router, VcState};

/// Counters of one dimension (a set of channels).
#[derive(Clone, Debug, Default)]
struct DimCounters {
    /// `busy[j]`: channel-cycles with j allocated VCs.
    busy: Vec<u64>,
    /// `active[j]`: channel-cycles with j VCs holding flits to send.
    active: Vec<u64>,
    /// Completed VC holds (allocation to release) and their total cycles.
    holds: u64,
    hold_cycles: u64,
    /// `hold_counts[c]`: completed holds of c cycles.
    hold_counts: Vec<u64>,
    /// `waits[c]`: headers that waited c cycles in ROUTED for this dimension.
    waits: Vec<u64>,
    /// The same, split by what the header found on its first cycle in
    /// ROUTED ([`HeaderArrival`]): every VC it may take held, or one free.
    waits_found_held: Vec<u64>,
    waits_found_free: Vec<u64>,
    /// Of the headers that found every VC they may take held: the cycles
    /// from their first cycle in ROUTED to the first cycle one of those VCs
    /// is free (the residual hold they wait out), summed.
    first_free_cycles: u64,
    /// Of the headers that found every VC they may take held: the headers
    /// waiting ahead of them on arrival ([`HeaderArrival::ahead`]), summed.
    found_held_ahead: u64,
    /// Of those headers ahead, the ones that had found their VCs held too,
    /// summed: the same pairs as the joins counted from the joiner's side.
    found_held_ahead_held: u64,
    /// The same headers' line as it forms behind them ([`LineCounts`]),
    /// summed.
    line: LineCounts,
    /// All headers (from `from`): those that came in on the input port
    /// numbered as their output port (in the torus continuing along the
    /// dimension, not injected or turning into it), to set the line's
    /// arrivals against.
    continuing: u64,
    /// Cycles of the completed holds in each [`HoldPart`].
    hold_parts: [u64; HOLD_PARTS],
    /// `stall_at[k − 1]`: of the completed holds' no-credit and draining
    /// cycles, those whose message is held up k routers further on, by
    /// [`StallEnd`] (empty unless [`ChannelProbe::with_stall_chains`]).
    stall_at: Vec<[u64; STALL_ENDS]>,
}

/// What a held output VC is doing in one cycle of its hold (the parts of
/// the measured holding time, set against the model's M + extra, the
/// growth g and the blocking further on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldPart {
    /// One of its flits is on the link.
    Crossing,
    /// A flit is ready (output buffer, a credit) but the link carries
    /// another VC's flit: the channel's sharing.
    Shared,
    /// A flit is ready but the link is idle (the output arbiter's turn).
    ReadyIdle,
    /// Flits wait in the output buffer without a credit: the downstream
    /// buffer is full because the message is blocked further on.
    NoCredit,
    /// The output buffer is empty and the tail has not crossed: the
    /// message's next flit is still upstream (the header before it reaches
    /// the output buffer, or the flits behind it coming late).
    Empty,
    /// The tail has crossed; atomic reallocation keeps the VC until the
    /// tail has left the downstream buffer (it waits there if the message
    /// is blocked further on).
    Draining,
}

pub const HOLD_PARTS: usize = 6;

/// Where a held VC's message is held up in a no-credit or draining cycle
/// ([`stall_end`]): the message is followed downstream, through every
/// router where its output VC also waits for a credit or drains, to the
/// first router where it does something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StallEnd {
    /// Its header waits there for an output VC toward another router: the
    /// model's "blocking further on" at that hop.
    VcWait,
    /// Its header has reached the destination router (it waits for or
    /// crosses the ejection port): the model's ejection wait.
    Ejection,
    /// Its output VC there crosses, shares the link, is ready or has an
    /// empty output buffer: the message moves (the pipeline, the sharing).
    Moving,
    /// The input VC there is idle: the tail has left the next router's
    /// input buffer and the VC's release is on its way back (draining).
    Left,
    /// No end within [`STALL_DISTANCES`] routers: a cycle of full buffers
    /// (a deadlock), counted at that distance.
    TooFar,
}

pub const STALL_ENDS: usize = 5;

/// Routers followed at most; a stall chain is as long as the message's
/// flits fill buffers, far fewer.
pub const STALL_DISTANCES: usize = 32;

impl StallEnd {
    pub const ALL: [StallEnd; STALL_ENDS] = [StallEnd::VcWait, StallEnd::Ejection, StallEnd::Moving, StallEnd::Left, StallEnd::TooFar];
}

/// Where the message of output VC (o, u) of router r, waiting for a credit
/// or draining, is held up: (k, why), k = 1 for the router the VC leads to.
/// The message is found by its VC: exact under atomic VC reallocation,
/// where a VC buffer holds one message (under `tail_crossed` the next
/// router's input VC may already hold the following message).
pub fn stall_end(out_link: &[Vec<Peer>], routers: &[Router], r: usize, o: usize, u: usize) -> (usize, StallEnd) {
    let (mut r, mut o, mut u) = (r, o, u);
    for k in 1..STALL_DISTANCES {
        let Peer::Router { router, port } = out_link[r][o] else { return (k, StallEnd::Ejection) };
        let next = &routers[router];
        let to_router = |route: usize| matches!(out_link[router][route], Peer::Router { .. });
        match next.vc_state(port, u) {
            VcState::Idle => return (k, StallEnd::Left),
            VcState::Routed { route } => return (k, if to_router(route) { StallEnd::VcWait } else { StallEnd::Ejection }),
            VcState::Active { route, .. } if !to_router(route) => return (k, StallEnd::Ejection),
            VcState::Active { route, ovc } => match HoldPart::of(next, route, ovc) {
                HoldPart::NoCredit | HoldPart::Draining => (r, o, u) = (router, route, ovc),
                _ => return (k, StallEnd::Moving),
            },
        }
    }
    (STALL_DISTANCES, StallEnd::TooFar)
}

impl HoldPart {
    pub const ALL: [HoldPart; HOLD_PARTS] = [HoldPart::Crossing, HoldPart::Shared, HoldPart::ReadyIdle, HoldPart::NoCredit, HoldPart::Empty, HoldPart::Draining];

    /// The part of output VC (o, u) of `router`, held, after a cycle.
    pub fn of(router: &Router, o: usize, u: usize) -> HoldPart {
        let link = &router.outputs().flits[o];
        if link.valid && link.vc as usize == u {
            HoldPart::Crossing
        } else if router.draining(o, u) {
            HoldPart::Draining
        } else if router.output_occupancy(o, u) == 0 {
            HoldPart::Empty
        } else if router.credits(o, u) == 0 {
            HoldPart::NoCredit
        } else if link.valid {
            HoldPart::Shared
        } else {
            HoldPart::ReadyIdle
        }
    }
}

/// Measures the VCs of every channel whose output port `dimension_of`
/// names (`None`: an ejection port or a port not measured).
pub struct ChannelProbe {
    from: u64,
    vcs: usize,
    ports: usize,
    dimension_of: Vec<Option<usize>>,
    /// (router, output port, dimension) of each measured channel.
    channels: Vec<(usize, usize, usize)>,
    dims: Vec<DimCounters>,
    /// Per (channel, VC): the cycle it was allocated, if it is.
    since: Vec<Option<u64>>,
    /// Per (channel, VC): the cycles of its current hold in each part.
    parts: Vec<[u64; HOLD_PARTS]>,
    /// The wiring, to follow stall chains ([`ChannelProbe::with_stall_chains`]).
    out_link: Option<Vec<Vec<Peer>>>,
    /// Per (channel, VC): the current hold's stall cycles by distance and
    /// [`StallEnd`] (`DimCounters::stall_at`).
    stalls: Vec<Vec<[u64; STALL_ENDS]>>,
    /// Per (router, input port, VC): the header in ROUTED there, if any.
    routed: Vec<Option<HeaderArrival>>,
    /// Per (router, output port): the index into `channels`, if measured.
    channel_of: Vec<Option<usize>>,
    /// Per channel: what its arriving headers found ([`ChannelCounters`]).
    per_channel: Vec<ChannelCounters>,
    /// Per router: the output VCs a destination code may take
    /// (`Router::route_table`), read at the first cycle observed.
    allowed: Vec<Vec<u32>>,
    cycles: u64,
}

/// A header in ROUTED: when it entered, where it goes, the output VCs it
/// may take, and whether it found them all held on its first cycle there
/// (the start-of-cycle allocation its first VC allocation sees).
#[derive(Clone, Copy, Debug)]
struct HeaderArrival {
    at: u64,
    dim: usize,
    channel: usize,
    allowed: u32,
    found_held: bool,
    /// The first cycle observed with one of `allowed` free.
    first_free: Option<u64>,
    /// Headers at the same router already waiting, on arrival, for a VC
    /// of the same output port that this one may also take.
    ahead: u32,
    /// Of them, those that found their VCs held on arrival.
    ahead_held: u32,
    /// Its input port (where it came from).
    input: usize,
    /// What reached its channel while it waited ([`LineCounts`]).
    line: LineCounts,
}

/// The line that forms behind a waiting header (docs/reproduction.md,
/// "Who joins the line behind a blocked header"): the headers that reach
/// the same output port of its router while it waits, counted in the
/// cycles after its first in ROUTED up to its last (its wait less the VA
/// cycle, `window`), and at its grant those left waiting. The line
/// model's n̄ = q λ_c W_b reads as `joins` = (arrivals / window) ×
/// (joins / arrivals) × window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCounts {
    /// Cycles in which an arrival is counted: from the cycle after its
    /// first in ROUTED to the cycle before its grant.
    pub window: u64,
    /// Headers that entered ROUTED for the same output port meanwhile.
    pub arrivals: u64,
    /// Of them, those that came in on the input port numbered as the
    /// output port (in the torus the link of the channel's own dimension:
    /// continuing along it, not injected or turning into it).
    pub arrivals_continuing: u64,
    /// Of them, those that found every VC they may take held and may take
    /// one it may take: the line model's joins.
    pub joins: u64,
    /// The arrivals and joins that may take the same VCs as it (the same
    /// escape class; the rest may take one VC it may not).
    pub arrivals_same_set: u64,
    pub joins_same_set: u64,
    /// Cycles of `window` after which one of the VCs it may take was free
    /// (released, not yet granted): the share of its wait in which an
    /// arrival of its own set would find a VC free, were arrivals
    /// independent of releases.
    pub free_cycles: u64,
    /// Headers with at least one free cycle in `window` (a grant needs a
    /// VC seen free the cycle before, so every found-held header).
    pub waits_with_free: u64,
    /// At its grant: headers still waiting for a VC of the port it may
    /// also take that entered ROUTED after it (left behind) and at or
    /// before it (it overtook them).
    pub left_after: u64,
    pub left_before: u64,
}

impl LineCounts {
    fn add(&mut self, o: &LineCounts) {
        self.window += o.window;
        self.arrivals += o.arrivals;
        self.arrivals_continuing += o.arrivals_continuing;
        self.joins += o.joins;
        self.arrivals_same_set += o.arrivals_same_set;
        self.joins_same_set += o.joins_same_set;
        self.free_cycles += o.free_cycles;
        self.waits_with_free += o.waits_with_free;
        self.left_after += o.left_after;
        self.left_before += o.left_before;
    }
}

/// Counters of one channel: the channel-cycles with each set of busy VCs
/// (`masks[b]`, bit u for VC u) and, per set of VCs a header may take,
/// the headers that arrived and those that found all of them held.
#[derive(Clone, Debug, Default)]
struct ChannelCounters {
    masks: Vec<u64>,
    arrivals: Vec<(u32, u64, u64)>,
}

/// One channel's measurements ([`ChannelProbe::channel_stats`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelStats {
    pub router: usize,
    pub port: usize,
    pub dim: usize,
    /// `masks[b]`: the fraction of cycles whose busy (allocated) VCs are
    /// the bits of b.
    pub masks: Vec<f64>,
    /// (VCs a header may take as a bit set, headers that arrived, of them
    /// those that found all of those VCs held), one entry per set seen.
    pub arrivals: Vec<(u32, u64, u64)>,
}

impl ChannelStats {
    /// The time average of "every VC of `allowed` is busy".
    pub fn all_held(&self, allowed: u32) -> f64 {
        self.masks.iter().enumerate().filter(|&(b, _)| b as u32 & allowed == allowed).map(|(_, p)| p).sum()
    }
}

/// One dimension's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct DimensionStats {
    /// P_j: fraction of channel-cycles with j allocated VCs, j = 0..=L.
    pub busy: Vec<f64>,
    /// The same for VCs with flits to send on the link.
    pub active: Vec<f64>,
    /// VC allocations per channel per cycle (λ_c).
    pub arrival_rate: f64,
    /// Mean cycles from a VC's allocation to its release.
    pub mean_hold: f64,
    /// `hold_counts[c]`: holds of c cycles.
    pub hold_counts: Vec<u64>,
    /// Mean cycles per hold in each [`HoldPart`] (in `HoldPart::ALL`'s
    /// order; they add up to `mean_hold`).
    pub hold_parts: Vec<f64>,
    /// `stall_at[k − 1][e]`: mean no-credit and draining cycles per hold
    /// whose message is held up k routers further on for the reason
    /// `StallEnd::ALL[e]`; they add up to those two parts. Empty unless
    /// [`ChannelProbe::with_stall_chains`].
    pub stall_at: Vec<[f64; STALL_ENDS]>,
    /// Fewest cycles a header spent in ROUTED (no wait for a VC).
    pub min_wait: u64,
    /// Fraction of headers that spent longer than `min_wait`.
    pub blocked: f64,
    /// Mean cycles beyond `min_wait` over all headers (the model's W).
    pub mean_wait: f64,
    pub headers: u64,
    /// Fraction of headers that found every output VC they may take held
    /// on their first cycle in ROUTED (the blocking an arrival sees).
    pub found_held: f64,
    /// Of those, the mean cycles until one of their VCs was first free
    /// (the residual hold they wait out) and the mean cycles beyond
    /// `min_wait` they waited.
    pub found_held_first_free: f64,
    pub found_held_wait: f64,
    /// Of those, the mean headers already waiting ahead of them on arrival
    /// for a VC they may also take.
    pub found_held_ahead: f64,
    /// Fraction of headers that found one of their VCs free and still
    /// waited beyond `min_wait` (another header took it first), and their
    /// mean cycles beyond `min_wait`.
    pub found_free_blocked: f64,
    pub found_free_blocked_wait: f64,
    /// Of `found_held_ahead`, the mean of those that had found their VCs
    /// held too (the joins seen from the joiner's side).
    pub found_held_ahead_held: f64,
    /// The found-held headers' lines ([`LineCounts`]), summed over them.
    pub found_held_line: LineCounts,
    /// Found-held headers counted (the line's denominator).
    pub found_held_headers: u64,
    /// Of all headers, the share that came in on the input port numbered
    /// as their output port ([`LineCounts::arrivals_continuing`]).
    pub continuing: f64,
}

/// Σ j² P_j / Σ j P_j: 002_…'s (and [16]'s) multiplexing degree of a VC
/// occupancy distribution.
pub fn multiplexing_degree(p: &[f64]) -> f64 {
    let (num, den) = p.iter().enumerate().fold((0.0, 0.0), |(a, b), (j, &x)| (a + (j * j) as f64 * x, b + j as f64 * x));
    if den > 0.0 {
        num / den
    } else {
        1.0
    }
}

/// The mean time until the first of `usable` busy VCs frees, seen at a
/// random moment, for holds drawn independently from the histogram
/// `hold_counts` (`hold_counts[c]` holds of c cycles): the measured
/// counterpart of `torus002::first_release`. A hold covers the moment with
/// probability ∝ its length, so one VC's remaining time R has P(R > t) =
/// ∫_t^∞ P(H > s) ds / E[H], linear between whole cycles; E[min] =
/// ∫ P(R > t)^u dt, exactly over each cycle: a linear from a to b gives
/// (a^{u+1} − b^{u+1}) / ((u + 1)(a − b)).
pub fn first_release_of_holds(hold_counts: &[u64], usable: usize) -> f64 {
    let total: u64 = hold_counts.iter().sum();
    let cycles: u64 = hold_counts.iter().enumerate().map(|(c, &x)| c as u64 * x).sum();
    if cycles == 0 {
        return 0.0;
    }
    let mean = cycles as f64 / total as f64;
    let u = usable as i32;
    // over[c] = P(H > s) for s in [c, c + 1): the holds of more than c cycles.
    let mut over = total - hold_counts[0];
    let mut above = 1.0; // P(R > c)
    let mut sum = 0.0;
    for c in 0..hold_counts.len() {
        let next = above - over as f64 / total as f64 / mean;
        let next = next.max(0.0);
        sum += if (above - next).abs() < 1e-15 { above.powi(u) } else { (above.powi(u + 1) - next.powi(u + 1)) / ((u + 1) as f64 * (above - next)) };
        above = next;
        if c + 1 < hold_counts.len() {
            over -= hold_counts[c + 1];
        }
    }
    sum
}

impl ChannelProbe {
    /// `dimension_of[o]`: the dimension of output port o's channels, for
    /// every port that drives a router; counting starts at cycle `from`.
    pub fn new(net: &Network, vcs: usize, dimension_of: Vec<Option<usize>>, from: u64) -> ChannelProbe {
        let ports = dimension_of.len();
        let mut channels = Vec::new();
        for (r, outs) in net.out_link.iter().enumerate() {
            for (o, peer) in outs.iter().enumerate() {
                if let (Peer::Router { .. }, Some(Some(d))) = (peer, dimension_of.get(o)) {
                    channels.push((r, o, *d));
                }
            }
        }
        let ndims = dimension_of.iter().flatten().max().map_or(0, |d| d + 1);
        let mut channel_of = vec![None; net.routers * ports];
        for (c, &(r, o, _)) in channels.iter().enumerate() {
            channel_of[r * ports + o] = Some(c);
        }
        let dims = (0..ndims).map(|_| DimCounters { busy: vec![0; vcs + 1], active: vec![0; vcs + 1], ..Default::default() }).collect();
        ChannelProbe {
            from,
            vcs,
            ports,
            dimension_of,
            since: vec![None; channels.len() * vcs],
            parts: vec![[0; HOLD_PARTS]; channels.len() * vcs],
            out_link: None,
            stalls: Vec::new(),
            per_channel: vec![ChannelCounters { masks: vec![0; 1 << vcs], arrivals: Vec::new() }; channels.len()],
            channels,
            dims,
            routed: vec![None; net.routers * ports * vcs],
            channel_of,
            allowed: Vec::new(),
            cycles: 0,
        }
    }

    /// Also follow every no-credit and draining cycle of a hold to where
    /// its message is held up ([`stall_end`], `DimensionStats::stall_at`).
    pub fn with_stall_chains(mut self, net: &Network) -> ChannelProbe {
        self.stalls = vec![Vec::new(); self.since.len()];
        self.out_link = Some(net.out_link.clone());
        self
    }

    /// Records the routers as they are after cycle `cycle`.
    pub fn observe(&mut self, cycle: u64, routers: &[Router]) {
        let counting = cycle >= self.from;
        if counting {
            self.cycles += 1;
        }
        let m = self.vcs;
        for (c, &(r, o, d)) in self.channels.iter().enumerate() {
            let (mut busy, mut active, mut mask) = (0, 0, 0usize);
            for u in 0..m {
                let held = routers[r].allocated(o, u);
                busy += held as usize;
                mask |= (held as usize) << u;
                active += (routers[r].output_occupancy(o, u) > 0) as usize;
                let slot = &mut self.since[c * m + u];
                let parts = &mut self.parts[c * m + u];
                if held {
                    // One count per cycle observed held: the parts add up
                    // to the hold's cycles.
                    let part = HoldPart::of(&routers[r], o, u);
                    parts[part as usize] += 1;
                    if let (Some(out_link), HoldPart::NoCredit | HoldPart::Draining) = (&self.out_link, part) {
                        let (k, why) = stall_end(out_link, routers, r, o, u);
                        let stalls = &mut self.stalls[c * m + u];
                        if stalls.len() < k {
                            stalls.resize(k, [0; STALL_ENDS]);
                        }
                        stalls[k - 1][why as usize] += 1;
                    }
                }
                match (held, *slot) {
                    (true, None) => *slot = Some(cycle),
                    (false, Some(at)) => {
                        *slot = None;
                        let done = std::mem::take(parts);
                        let stalls = self.stalls.get_mut(c * m + u).map(std::mem::take).unwrap_or_default();
                        if at >= self.from {
                            let k = &mut self.dims[d];
                            k.hold_parts.iter_mut().zip(done).for_each(|(t, x)| *t += x);
                            if k.stall_at.len() < stalls.len() {
                                k.stall_at.resize(stalls.len(), [0; STALL_ENDS]);
                            }
                            for (total, hold) in k.stall_at.iter_mut().zip(&stalls) {
                                total.iter_mut().zip(hold).for_each(|(t, x)| *t += x);
                            }
                            k.holds += 1;
                            k.hold_cycles += cycle - at;
                            let c = (cycle - at) as usize;
                            if k.hold_counts.len() <= c {
                                k.hold_counts.resize(c + 1, 0);
                            }
                            k.hold_counts[c] += 1;
                        }
                    }
                    _ => {}
                }
            }
            if counting {
                self.dims[d].busy[busy] += 1;
                self.dims[d].active[active] += 1;
                self.per_channel[c].masks[mask] += 1;
            }
        }
        self.observe_headers(cycle, routers);
    }

    /// The output VCs of port o of `router` free after this cycle, as bits.
    fn free_vcs(&self, router: &Router, o: usize) -> u32 {
        (0..self.vcs).filter(|&u| !router.allocated(o, u)).fold(0, |a, u| a | 1 << u)
    }

    /// Follows every header from its first cycle in ROUTED to its VC
    /// grant: its wait, and what it found when it arrived.
    fn observe_headers(&mut self, cycle: u64, routers: &[Router]) {
        let m = self.vcs;
        if self.allowed.is_empty() {
            // Fixed routing: the tables do not change during a run.
            self.allowed = routers.iter().map(|r| r.route_table().iter().map(|&(_, a)| a).collect()).collect();
        }
        for (r, router) in routers.iter().enumerate() {
            for p in 0..self.ports {
                for v in 0..m {
                    let idx = (r * self.ports + p) * m + v;
                    match (router.vc_state(p, v), self.routed[idx]) {
                        (VcState::Routed { route }, None) => {
                            let (Some(dim), Some(channel)) = (self.dimension_of.get(route).copied().flatten(), self.channel_of[r * self.ports + route]) else { continue };
                            // The allowed set loaded at RC (no class
                            // partition: a partitioned router narrows it).
                            let dest = router.header_register(p, v).map_or(0, |h| h.dest as usize);
                            let allowed = self.allowed[r].get(dest).copied().unwrap_or(0);
                            let free = self.free_vcs(router, route) & allowed != 0;
                            let (ahead, ahead_held) = self.waiting_ahead(r, router, route, allowed, cycle);
                            self.count_arrival(r, router, channel, allowed, !free, p == route, cycle);
                            self.routed[idx] = Some(HeaderArrival { at: cycle, dim, channel, allowed, found_held: !free, first_free: free.then_some(cycle), ahead, ahead_held, input: p, line: LineCounts::default() });
                        }
                        (VcState::Routed { route }, Some(h)) => {
                            let free = self.free_vcs(router, route) & h.allowed != 0;
                            if h.first_free.is_none() && free {
                                self.routed[idx] = Some(HeaderArrival { first_free: Some(cycle), ..h });
                            }
                            if free && h.at < cycle {
                                if let Some(w) = self.routed[idx].as_mut() {
                                    w.line.free_cycles += 1;
                                }
                            }
                        }
                        (_, Some(h)) => {
                            self.routed[idx] = None;
                            if h.at >= self.from {
                                let line = self.left_waiting(r, router, &h, cycle);
                                self.count_header(&h, &line, cycle);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// The headers of `router` (index r) that entered ROUTED before
    /// `cycle` and still wait (ROUTED after this cycle too) for a VC of
    /// output port o overlapping `allowed`.
    /// Returns (all of them, those that found their VCs held and entered
    /// from `from` on: the joined headers whose lines are counted).
    fn waiting_ahead(&self, r: usize, router: &Router, o: usize, allowed: u32, cycle: u64) -> (u32, u32) {
        let base = r * self.ports * self.vcs;
        (0..self.ports * self.vcs)
            .filter_map(|i| {
                let still = matches!(router.vc_state(i / self.vcs, i % self.vcs), VcState::Routed { .. });
                self.routed[base + i].filter(|h| still && h.at < cycle && self.channels[h.channel].1 == o && h.allowed & allowed != 0)
            })
            .fold((0, 0), |(n, held), h| (n + 1, held + (h.found_held && h.at >= self.from) as u32))
    }

    /// A header entered ROUTED at router r for `channel`: an arrival in
    /// the line of every header of r still waiting for that channel that
    /// entered before this cycle, a join where it found its VCs held and
    /// may take one of theirs.
    #[allow(clippy::too_many_arguments)]
    fn count_arrival(&mut self, r: usize, router: &Router, channel: usize, allowed: u32, found_held: bool, continuing: bool, cycle: u64) {
        let base = r * self.ports * self.vcs;
        for i in 0..self.ports * self.vcs {
            // Still ROUTED after this cycle, as `waiting_ahead` reads it.
            let still = matches!(router.vc_state(i / self.vcs, i % self.vcs), VcState::Routed { .. });
            let Some(h) = self.routed[base + i].as_mut() else { continue };
            if still && h.at < cycle && h.channel == channel {
                h.line.arrivals += 1;
                h.line.arrivals_continuing += continuing as u64;
                let join = found_held && h.allowed & allowed != 0;
                h.line.joins += join as u64;
                h.line.arrivals_same_set += (h.allowed == allowed) as u64;
                h.line.joins_same_set += (join && h.allowed == allowed) as u64;
            }
        }
    }

    /// Header h of router r left ROUTED at `cycle`: its line with the
    /// window and the headers it leaves waiting for a VC it may take.
    fn left_waiting(&self, r: usize, router: &Router, h: &HeaderArrival, cycle: u64) -> LineCounts {
        let base = r * self.ports * self.vcs;
        let mut line = LineCounts { window: cycle - h.at - 1, waits_with_free: (h.line.free_cycles > 0) as u64, ..h.line };
        for i in 0..self.ports * self.vcs {
            let still = matches!(router.vc_state(i / self.vcs, i % self.vcs), VcState::Routed { .. });
            if let Some(o) = self.routed[base + i].filter(|o| still && o.channel == h.channel && o.allowed & h.allowed != 0) {
                if o.at > h.at {
                    line.left_after += 1;
                } else {
                    line.left_before += 1;
                }
            }
        }
        line
    }

    /// Counts a header that left ROUTED at `cycle` (it holds a VC).
    fn count_header(&mut self, h: &HeaderArrival, line: &LineCounts, cycle: u64) {
        let c = (cycle - h.at) as usize;
        let k = &mut self.dims[h.dim];
        k.continuing += (self.channels[h.channel].1 == h.input) as u64;
        for waits in [&mut k.waits, if h.found_held { &mut k.waits_found_held } else { &mut k.waits_found_free }] {
            if waits.len() <= c {
                waits.resize(c + 1, 0);
            }
            waits[c] += 1;
        }
        if h.found_held {
            // A grant needs a free VC at the start of its cycle, so one was
            // seen free by the cycle before (`cycle - 1` if none was seen).
            k.first_free_cycles += h.first_free.unwrap_or(cycle - 1) - h.at;
            k.found_held_ahead += h.ahead as u64;
            k.found_held_ahead_held += h.ahead_held as u64;
            k.line.add(line);
        }
        let arrivals = &mut self.per_channel[h.channel].arrivals;
        let entry = match arrivals.iter().position(|a| a.0 == h.allowed) {
            Some(i) => &mut arrivals[i],
            None => {
                arrivals.push((h.allowed, 0, 0));
                arrivals.last_mut().unwrap()
            }
        };
        entry.1 += 1;
        entry.2 += h.found_held as u64;
    }

    /// The measurements of each channel ([`ChannelStats`]).
    pub fn channel_stats(&self) -> Vec<ChannelStats> {
        self.channels
            .iter()
            .zip(&self.per_channel)
            .map(|(&(router, port, dim), k)| {
                let t = k.masks.iter().sum::<u64>().max(1) as f64;
                ChannelStats { router, port, dim, masks: k.masks.iter().map(|&x| x as f64 / t).collect(), arrivals: k.arrivals.clone() }
            })
            .collect()
    }

    /// The measurements of each dimension.
    pub fn stats(&self) -> Vec<DimensionStats> {
        let per_dim = |d: usize| self.channels.iter().filter(|c| c.2 == d).count().max(1) as f64;
        self.dims
            .iter()
            .enumerate()
            .map(|(d, k)| {
                let norm = |h: &[u64]| {
                    let t = h.iter().sum::<u64>().max(1) as f64;
                    h.iter().map(|&x| x as f64 / t).collect::<Vec<_>>()
                };
                let headers: u64 = k.waits.iter().sum();
                let min_wait = k.waits.iter().position(|&x| x > 0).unwrap_or(0);
                let over: u64 = k.waits.iter().skip(min_wait + 1).sum();
                let excess: u64 = k.waits.iter().enumerate().map(|(c, &x)| (c - min_wait.min(c)) as u64 * x).sum();
                // Headers of a histogram and their mean cycles beyond min_wait.
                let beyond = |h: &[u64]| {
                    let n: u64 = h.iter().sum();
                    let over: u64 = h.iter().skip(min_wait + 1).sum();
                    let excess: u64 = h.iter().enumerate().map(|(c, &x)| (c - min_wait.min(c)) as u64 * x).sum();
                    (n, over, excess)
                };
                let (held, _, held_excess) = beyond(&k.waits_found_held);
                let (_, free_over, free_excess) = beyond(&k.waits_found_free);
                let per = |x: u64, n: u64| x as f64 / n.max(1) as f64;
                DimensionStats {
                    found_held: per(held, headers),
                    found_held_first_free: per(k.first_free_cycles, held),
                    found_held_wait: per(held_excess, held),
                    found_held_ahead: per(k.found_held_ahead, held),
                    found_free_blocked: per(free_over, headers),
                    found_free_blocked_wait: per(free_excess, free_over),
                    found_held_ahead_held: per(k.found_held_ahead_held, held),
                    found_held_line: k.line,
                    found_held_headers: held,
                    continuing: per(k.continuing, headers),
                    busy: norm(&k.busy),
                    active: norm(&k.active),
                    arrival_rate: k.holds as f64 / self.cycles.max(1) as f64 / per_dim(d),
                    mean_hold: k.hold_cycles as f64 / k.holds.max(1) as f64,
                    hold_counts: k.hold_counts.clone(),
                    hold_parts: k.hold_parts.iter().map(|&x| x as f64 / k.holds.max(1) as f64).collect(),
                    stall_at: k.stall_at.iter().map(|e| e.map(|x| x as f64 / k.holds.max(1) as f64)).collect(),
                    min_wait: min_wait as u64,
                    blocked: over as f64 / headers.max(1) as f64,
                    mean_wait: excess as f64 / headers.max(1) as f64,
                    headers,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::first_release_of_holds;

    #[test]
    fn first_release_of_holds_by_hand() {
        // Every hold 6 cycles: the remaining time is uniform on [0, 6], the
        // first of two frees after 6/3 = 2.
        assert!((first_release_of_holds(&[0, 0, 0, 0, 0, 0, 4], 2) - 2.0).abs() < 1e-12);
        // Holds of 2 and 4 cycles, one each, E[H] = 3. One VC: E[H²]/(2 E[H])
        // = (4 + 16)/2/6 = 5/3. Two: P(R > t) falls linearly 1 → 1/3 on
        // [0, 2] and 1/3 → 0 on [2, 4]; ∫ P² = 2 (1 − 1/27)/(3 · 2/3) +
        // 2 (1/27)/(3 · 1/3) = 26/27 + 2/27 = 28/27.
        let h = [0, 0, 1, 0, 1];
        assert!((first_release_of_holds(&h, 1) - 5.0 / 3.0).abs() < 1e-12, "{}", first_release_of_holds(&h, 1));
        assert!((first_release_of_holds(&h, 2) - 28.0 / 27.0).abs() < 1e-12, "{}", first_release_of_holds(&h, 2));
    }
}

//! Per message, the cycles its header spent waiting for an output VC,
//! summed over the routers of its path (issue 22, docs/reproduction.md "Why
//! the DMP model is below the simulated tail"): the queue for the one VC
//! per class that 000_…'s blocking term (Eq. 3) leaves out.
//!
//! Opt-in ([`Sim::run_vc_waits`]): after every cycle it reads each input
//! VC in state ROUTED (route computed, no output VC yet) and charges the
//! cycle to the message whose header is at the VC's front, found by the
//! header's (destination, tag) as the sinks find a message
//! (docs/microarchitecture.md §9.6). A header with no one ahead is seen in
//! ROUTED for exactly one cycle per router (the VA cycle, as
//! [`crate::router_split`]'s zero-load split shows), so the queueing is
//! `routed_cycles − routers`. Lane 0 only: a preemptive router's extra
//! lanes are not read (the runs it is for are non-preemptive).
//!
//! [`Sim::run_vc_waits`]: crate::network::Sim::run_vc_waits

use wormqos_sim::{Router, VcState, Width};

/// One delivered message's cycles in ROUTED, and the routers it was seen
/// there (one per router of its path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VcWait {
    pub routed_cycles: u32,
    pub routers: u32,
    /// ROUTED cycles at the first router of its path (the source's) and
    /// at the last one seen (for a delivered message the destination's,
    /// where it waits for the ejection VC).
    pub first_routed: u32,
    pub last_routed: u32,
    /// Cycles its header was at the front of an input VC holding an output
    /// VC (state ACTIVE) without having left: the switch and link
    /// arbitration, and credits, after VC allocation (the R2 tail split,
    /// docs/reproduction.md "R2's cube tail and the cube variant's
    /// overshoot, measured").
    pub head_active_cycles: u32,
    /// The last cycle its header was seen at the front of an input VC
    /// (ROUTED or ACTIVE): the header's last cycle in the network before
    /// the ejection link, so `delivered − head_seen` is the body's time.
    pub head_seen: u64,
}

impl VcWait {
    /// Cycles waited for an output VC beyond the VA cycle of each router.
    pub fn queueing(&self) -> u32 {
        self.routed_cycles - self.routers
    }
}

/// The running counts ([`crate::network::Sim`] owns one while recording).
pub(crate) struct VcWaitProbe {
    /// Per input VC (router, port, VC), flattened: ROUTED after the last
    /// cycle (a new visit starts when it was not).
    was_routed: Vec<bool>,
    /// Index of router r's port 0, VC 0 in `was_routed`.
    base: Vec<usize>,
    /// Per message slot (the network's slab index): its counts so far.
    acc: Vec<VcWait>,
    /// ROUTED headers whose (destination, tag) named no message in flight
    /// (0 unless the lookup is wrong; the tests assert it).
    pub unmatched: u64,
    /// The VC utilisations: from cycle `from` on, the cycles observed and
    /// per output VC (port o, VC u at `o * vcs + u`, summed over routers)
    /// the cycles it was allocated.
    from: u64,
    pub cycles: u64,
    pub held: Vec<u64>,
}

/// What [`crate::network::Sim::run_vc_waits`] returns beside the log.
#[derive(Clone, Debug, Default)]
pub struct VcWaits {
    /// Per logged message, in the log's order.
    pub messages: Vec<VcWait>,
    /// Cycles observed (from the warm-up's end) and, per output VC (port
    /// o, VC u at `o * vcs + u`, summed over the routers), the cycles it
    /// was allocated: its utilisation is `held / (cycles × routers)`.
    pub cycles: u64,
    pub held: Vec<u64>,
    pub vcs: usize,
    pub routers: usize,
}

impl VcWaitProbe {
    pub fn new<X: Width>(routers: &[Router<X>], from: u64) -> VcWaitProbe {
        let mut base = Vec::with_capacity(routers.len());
        let mut n = 0;
        for r in routers {
            base.push(n);
            n += r.config().ports() * r.config().vcs();
        }
        let most = routers.iter().map(|r| r.config().ports() * r.config().vcs()).max().unwrap_or(0);
        VcWaitProbe { was_routed: vec![false; n], base, acc: Vec::new(), unmatched: 0, from, cycles: 0, held: vec![0; most] }
    }

    /// After a cycle: every ROUTED input VC charges one cycle to the
    /// message `message(dest_code, tag_field)` names (its slab index).
    pub fn observe<X: Width>(&mut self, cycle: u64, routers: &[Router<X>], message: impl Fn(&wormqos_sim::LinkFlit) -> Option<u32>) {
        let counting = cycle >= self.from;
        self.cycles += counting as u64;
        for (r, router) in routers.iter().enumerate() {
            let m = router.config().vcs();
            for p in 0..router.config().ports() {
                if counting {
                    for u in 0..m {
                        self.held[p * m + u] += router.allocated(p, u) as u64;
                    }
                }
                for v in 0..m {
                    let i = self.base[r] + p * m + v;
                    let state = router.vc_state(p, v);
                    let routed = matches!(state, VcState::Routed { .. });
                    let first = routed && !self.was_routed[i];
                    self.was_routed[i] = routed;
                    // A header at the front of an ACTIVE VC is that VC's
                    // message, VC allocated, not yet through the switch.
                    let active_head = matches!(state, VcState::Active { .. }) && router.input_occupancy(p, v) > 0 && router.input_flit(p, v, 0).is_some_and(|f| f.head);
                    if !routed && !active_head {
                        continue;
                    }
                    let Some(idx) = router.input_flit(p, v, 0).filter(|f| f.head).and_then(|f| message(&f)) else {
                        self.unmatched += 1;
                        continue;
                    };
                    let idx = idx as usize;
                    if self.acc.len() <= idx {
                        self.acc.resize(idx + 1, VcWait::default());
                    }
                    let a = &mut self.acc[idx];
                    a.head_seen = cycle;
                    if active_head {
                        a.head_active_cycles += 1;
                        continue;
                    }
                    if first {
                        a.routers += 1;
                        a.last_routed = 0;
                    }
                    a.routed_cycles += 1;
                    a.last_routed += 1;
                    a.first_routed += (a.routers == 1) as u32;
                }
            }
        }
    }

    /// Message `idx` was delivered: its counts, and its slot cleared for
    /// the next message that takes it.
    pub fn finish(&mut self, idx: u32) -> VcWait {
        self.acc.get_mut(idx as usize).map(std::mem::take).unwrap_or_default()
    }
}

//! Per message, router by router: when its header and its tail left each
//! router of its path, how long its header waited there for an output VC,
//! and which flits the output link carried meanwhile (issue 22,
//! docs/reproduction.md "Where R1's extra blocking arises in the 6-cube").
//!
//! Opt-in ([`Sim::run_hop_trace`]): after every cycle it reads each
//! router's output links and input VCs and changes nothing. A header on an
//! output link names its message by (destination, tag), as the sinks find
//! a message and as [`crate::vc_wait`] does for ROUTED headers; the body
//! flits after it on the same output VC of the same link are the same
//! message's until its tail (a message holds the output VC from VA until
//! its tail has crossed, and the VC's flits leave in order), so its tail's
//! crossing is found without a tag. Lane 0 only, like [`crate::vc_wait`]
//! (the runs it is for are non-preemptive).
//!
//! [`Sim::run_hop_trace`]: crate::network::Sim::run_hop_trace

use wormqos_sim::{Router, VcState, Width};

/// The most VCs per port counted in [`Hop::flits_by_vc`].
pub const MAX_TRACED_VCS: usize = 4;

/// One router of a message's path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hop {
    /// The router and the output port its header left on (0: the
    /// endpoint's ejection link in the networks traced here).
    pub router: u32,
    pub port: u32,
    /// Cycles its header's input VC was in ROUTED (route computed, waiting
    /// for an output VC; 1 when the VC was free).
    pub routed: u32,
    /// The cycles its header and its tail crossed the output link.
    pub header_left: u64,
    pub tail_left: u64,
    /// Flits the output link carried, per VC, from the first cycle its
    /// header was seen in ROUTED to the cycle before the header crossed:
    /// its own VC's are an earlier message's (the one it waited for),
    /// the others the classes it shared the link with.
    pub flits_by_vc: [u32; MAX_TRACED_VCS],
}

/// A delivered message's routers, in path order.
pub type HopTrace = Vec<Hop>;

/// The running counts ([`crate::network::Sim`] owns one while recording).
pub(crate) struct HopTraceProbe {
    /// Per message slot (the network's slab index): its hops so far, and
    /// while its header is in ROUTED or waiting after it, the (router,
    /// port) it is routed to, the first ROUTED cycle's flit counts and
    /// its ROUTED cycles.
    acc: Vec<Pending>,
    /// Per output link (router r's port o at `base[r] + o`): flits sent,
    /// per VC, since the start (cumulative, so a wait's are a difference).
    sent: Vec<[u32; MAX_TRACED_VCS]>,
    /// Per output VC (`(base[r] + o) * vcs + u`): the message whose header
    /// last crossed on it, until its tail does.
    on_vc: Vec<Option<u32>>,
    base: Vec<usize>,
    vcs: usize,
    /// Headers on a link or in ROUTED whose (destination, tag) named no
    /// message in flight, and tails with no header before them (0 unless
    /// the lookup is wrong; the tests assert it).
    pub unmatched: u64,
}

#[derive(Clone, Debug, Default)]
struct Pending {
    hops: HopTrace,
    /// (router, port, flit counts at the first ROUTED cycle, ROUTED cycles).
    waiting: Option<(u32, u32, [u32; MAX_TRACED_VCS], u32)>,
}

impl HopTraceProbe {
    pub fn new<X: Width>(routers: &[Router<X>]) -> HopTraceProbe {
        let mut base = Vec::with_capacity(routers.len());
        let mut n = 0;
        for r in routers {
            base.push(n);
            n += r.config().ports();
        }
        let vcs = routers.iter().map(|r| r.config().vcs()).max().unwrap_or(0);
        HopTraceProbe { acc: Vec::new(), sent: vec![[0; MAX_TRACED_VCS]; n], on_vc: vec![None; n * vcs], base, vcs, unmatched: 0 }
    }

    fn slot(&mut self, idx: u32) -> &mut Pending {
        let i = idx as usize;
        if self.acc.len() <= i {
            self.acc.resize(i + 1, Pending::default());
        }
        &mut self.acc[i]
    }

    /// After cycle `cycle`: ROUTED headers first (a header routed and
    /// crossing in the same cycle is not possible: VA precedes the
    /// crossing by at least one cycle), then the flits on every output link.
    pub fn observe<X: Width>(&mut self, cycle: u64, routers: &[Router<X>], message: impl Fn(&wormqos_sim::LinkFlit) -> Option<u32>) {
        for (r, router) in routers.iter().enumerate() {
            let ports = router.config().ports();
            for p in 0..ports {
                for v in 0..router.config().vcs() {
                    let VcState::Routed { route } = router.vc_state(p, v) else { continue };
                    let Some(idx) = router.input_flit(p, v, 0).filter(|f| f.head).and_then(|f| message(&f)) else {
                        self.unmatched += 1;
                        continue;
                    };
                    let link = self.base[r] + route;
                    let counts = self.sent[link];
                    let w = &mut self.slot(idx).waiting;
                    match w {
                        Some((wr, wo, _, n)) if *wr == r as u32 && *wo == route as u32 => *n += 1,
                        _ => *w = Some((r as u32, route as u32, counts, 1)),
                    }
                }
            }
            for o in 0..ports {
                let f = router.outputs().flits[o];
                if !f.valid || f.dummy {
                    continue;
                }
                let link = self.base[r] + o;
                let vc_slot = link * self.vcs + f.vc as usize;
                if f.head {
                    match message(&f) {
                        Some(idx) => {
                            let counts = self.sent[link];
                            let pending = self.slot(idx);
                            let (routed, flits_by_vc) = match pending.waiting.take() {
                                Some((wr, wo, at, n)) if wr == r as u32 && wo == o as u32 => (n, std::array::from_fn(|u| counts[u] - at[u])),
                                _ => (0, [0; MAX_TRACED_VCS]),
                            };
                            pending.hops.push(Hop { router: r as u32, port: o as u32, routed, header_left: cycle, tail_left: 0, flits_by_vc });
                            self.on_vc[vc_slot] = Some(idx);
                        }
                        None => self.unmatched += 1,
                    }
                }
                if f.tail {
                    match self.on_vc[vc_slot].take() {
                        // The header may have left later routers already.
                        Some(idx) => match self.slot(idx).hops.iter_mut().rev().find(|h| h.router == r as u32 && h.port == o as u32) {
                            Some(h) => h.tail_left = cycle,
                            None => self.unmatched += 1,
                        },
                        None => self.unmatched += 1,
                    }
                }
                if (f.vc as usize) < MAX_TRACED_VCS {
                    self.sent[link][f.vc as usize] += 1;
                }
            }
        }
    }

    /// Message `idx` was delivered: its hops, and its slot cleared for the
    /// next message that takes it.
    pub fn finish(&mut self, idx: u32) -> HopTrace {
        self.acc.get_mut(idx as usize).map(|p| std::mem::take(p).hops).unwrap_or_default()
    }
}

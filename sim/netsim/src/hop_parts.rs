//! Per message, when its header and tail crossed each link of its path and
//! what its flits waited for there (issue 22, docs/reproduction.md "What
//! makes the ring's network latency grow (004_… Fig. 7(b))"): the network
//! latency beyond zero load split into parts an M/M/n VC-access model has
//! or has no term for.
//!
//! Opt-in ([`Sim::run_hop_parts`], beside [`crate::vc_wait`]'s wait for an
//! output VC). After every cycle it reads every output VC of every router,
//! router-to-router and ejection ports alike. The link crossings name the
//! message (a header's (destination, tag), as the sinks find a message;
//! the flits after it on that VC are its own until its tail), so nothing is
//! inferred from allocations. Per message it keeps:
//!
//! - the *stretch* of its flit stream on a link, tail crossing − header
//!   crossing − (flits − 1): its last router-to-router link's and its
//!   ejection link's. Tail delivered = header delivered + (flits − 1) +
//!   the ejection stretch + 1, so the ejection stretch adds to the network
//!   latency one for one; the stretch it arrived with (last link) and the
//!   one it left the source with tell where the gaps were made;
//! - every cycle of a stretch (a *gap*: none of its flits on the link) and
//!   every cycle its header, granted the output VC, had not crossed yet,
//!   by [`Wait`]: what the flit next in line did at the start of the cycle.
//!
//! With `vc_reallocation = "tail_crossed"` a VC may be granted to the next
//! message while the previous one's last flits still wait in its output
//! buffer; those cycles are the previous message's gaps (its flits are the
//! ones that wait), and the next header's cycles behind them are not
//! counted as its header cycles (the caller's accounting by crossing times
//! still holds them).
//!
//! [`Sim::run_hop_parts`]: crate::network::Sim::run_hop_parts

use crate::topology::Peer;
use wormqos_sim::{LinkFlit, Router, Width};

/// What kept a message's next flit off its output link in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// In the output buffer since the cycle before, with a credit, and the
    /// link carried another VC's flit: the link shared among VCs.
    Shared,
    /// In the output buffer since the cycle before without a credit: the
    /// downstream buffer full (blocking further on).
    NoCredit,
    /// In the output buffer since the cycle before, a credit, the link idle.
    ReadyIdle,
    /// Not in the output buffer at the start of the cycle: still in the
    /// router's input or upstream (a header's pipeline cycles are these).
    NotReady,
}

pub const WAITS: usize = 4;

impl Wait {
    pub const ALL: [Wait; WAITS] = [Wait::Shared, Wait::NoCredit, Wait::ReadyIdle, Wait::NotReady];

    /// The wait in a cycle with none of the VC's flits on the link, from
    /// the VC's output occupancy and credits after the cycle before and
    /// whether the link carried a flit of another VC in this one.
    pub fn of(occupancy_before: usize, credits_before: usize, link_busy: bool) -> Wait {
        if occupancy_before == 0 {
            Wait::NotReady
        } else if credits_before == 0 {
            Wait::NoCredit
        } else if link_busy {
            Wait::Shared
        } else {
            Wait::ReadyIdle
        }
    }
}

/// One message's crossings and waits; the wait arrays are indexed by the
/// position in `Wait::ALL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HopParts {
    /// Router-to-router links its header crossed.
    pub hops: u32,
    /// Header and tail crossing of its last router-to-router link and of
    /// its ejection link (cycles).
    pub last_link: (u64, u64),
    pub eject: (u64, u64),
    /// Its header's cycles from its output VC's grant to its crossing.
    pub header_links: [u32; WAITS],
    pub header_eject: [u32; WAITS],
    /// Gaps in its flit stream.
    pub gaps_links: [u32; WAITS],
    pub gaps_eject: [u32; WAITS],
}

/// Per output port of every router (router r's port o at `port_base[r] +
/// o`): `Some(true)` for an ejection port, `Some(false)` for a
/// router-to-router one, `None` unconnected; and `port_base`.
pub(crate) fn port_kinds<X: Width>(routers: &[Router<X>], out_link: &[Vec<Peer>]) -> (Vec<Option<bool>>, Vec<usize>) {
    let (mut kind, mut port_base) = (Vec::new(), Vec::new());
    for (r, router) in routers.iter().enumerate() {
        port_base.push(kind.len());
        for o in 0..router.config().ports() {
            kind.push(match out_link[r].get(o) {
                Some(Peer::Endpoint(_)) => Some(true),
                Some(Peer::Router { .. }) => Some(false),
                _ => None,
            });
        }
    }
    (kind, port_base)
}

/// The running counts ([`crate::network::Sim`] owns one while recording).
pub(crate) struct HopPartsProbe {
    /// Per output port (router r's port o at `port_base[r] + o`): `Some(true)`
    /// for an ejection port, `Some(false)` for a router-to-router one.
    kind: Vec<Option<bool>>,
    port_base: Vec<usize>,
    vcs: usize,
    /// Per output VC (`(port_base[r] + o) * vcs + u`): its occupancy and
    /// credits after the last cycle, the header cycles counted since its
    /// grant, and the message whose flits it sends once that header
    /// crossed (until the tail does).
    before: Vec<(usize, usize)>,
    pending: Vec<[u32; WAITS]>,
    sender: Vec<Option<u32>>,
    /// Per message slot (the network's slab index).
    acc: Vec<HopParts>,
    /// Header crossings that named no message in flight, a header on a VC
    /// whose last message's tail has not crossed, a body flit on a VC with
    /// no sender (0 unless the bookkeeping is wrong; `run_hop_parts`
    /// refuses a run with any).
    pub unmatched: u64,
}

impl HopPartsProbe {
    pub fn new<X: Width>(routers: &[Router<X>], out_link: &[Vec<Peer>]) -> HopPartsProbe {
        let vcs = routers.first().map_or(0, |r| r.config().vcs());
        let (kind, port_base) = port_kinds(routers, out_link);
        let n = kind.len() * vcs;
        HopPartsProbe { kind, port_base, vcs, before: vec![(0, 0); n], pending: vec![[0; WAITS]; n], sender: vec![None; n], acc: Vec::new(), unmatched: 0 }
    }

    fn slot(&mut self, idx: u32) -> &mut HopParts {
        let i = idx as usize;
        if self.acc.len() <= i {
            self.acc.resize(i + 1, HopParts::default());
        }
        &mut self.acc[i]
    }

    /// After cycle `cycle`; `message(header)` is the slab index of the
    /// message a header flit names.
    pub fn observe<X: Width>(&mut self, cycle: u64, routers: &[Router<X>], message: impl Fn(&LinkFlit) -> Option<u32>) {
        let m = self.vcs;
        for (r, router) in routers.iter().enumerate() {
            let out = &router.outputs().flits;
            for o in 0..router.config().ports() {
                let Some(eject) = self.kind[self.port_base[r] + o] else { continue };
                let link = &out[o];
                for u in 0..m {
                    let k = (self.port_base[r] + o) * m + u;
                    let crossing = link.valid && link.vc as usize == u;
                    let (occ, cred) = self.before[k];
                    let wait = Wait::of(occ, cred, link.valid && !crossing) as usize;
                    self.before[k] = (router.output_occupancy(o, u), router.credits(o, u));
                    match self.sender[k] {
                        Some(idx) if crossing => {
                            if link.head {
                                self.unmatched += 1;
                            }
                            if link.tail {
                                self.sender[k] = None;
                                let s = self.slot(idx);
                                if eject {
                                    s.eject.1 = cycle;
                                } else {
                                    s.last_link.1 = cycle;
                                }
                            }
                        }
                        Some(idx) => {
                            let s = self.slot(idx);
                            if eject {
                                s.gaps_eject[wait] += 1;
                            } else {
                                s.gaps_links[wait] += 1;
                            }
                        }
                        None if crossing => {
                            let Some(idx) = Some(link).filter(|f| f.head).and_then(&message) else {
                                self.unmatched += 1;
                                continue;
                            };
                            let header = std::mem::take(&mut self.pending[k]);
                            let s = self.slot(idx);
                            let into = if eject { &mut s.header_eject } else { &mut s.header_links };
                            into.iter_mut().zip(header).for_each(|(a, b)| *a += b);
                            let at = if eject { &mut s.eject } else { &mut s.last_link };
                            *at = (cycle, cycle);
                            s.hops += !eject as u32;
                            if !link.tail {
                                self.sender[k] = Some(idx);
                            }
                        }
                        None => {
                            if router.allocated(o, u) {
                                self.pending[k][wait] += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Message `idx` was delivered: its counts, and its slot cleared for
    /// the next message that takes it.
    pub fn finish(&mut self, idx: u32) -> HopParts {
        self.acc.get_mut(idx as usize).map(std::mem::take).unwrap_or_default()
    }
}

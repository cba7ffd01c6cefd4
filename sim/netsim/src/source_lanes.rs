//! Per-lane credits at a network source (`router.preemption_credits =
//! "per_lane"`, docs/microarchitecture.md §9.4 *Credits*): one
//! [`LaneSender`] per source VC, which names the lane of every flit and
//! takes back each credit into the lane it names. One code path for both
//! kinds of source the simulator has: the plain sources (`network.rs`) and
//! the `[nic]` model's injection (`nic.rs`, docs/nic.md §9.1).

use wormqos_sim::credit_lane;
use wormqos_sim::lane_credits::LaneSender;

/// The sender state of every VC of one source; empty with per-VC credits.
#[derive(Clone, Debug, Default)]
pub struct SourceLanes(Vec<LaneSender>);

impl SourceLanes {
    /// `vcs` senders of `lanes` (E + 1) lanes of `depth` credits each.
    pub fn new(vcs: usize, depth: u16, lanes: usize) -> Self {
        SourceLanes(vec![LaneSender::new(depth, lanes); vcs])
    }

    /// Per-VC credits: no senders.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Credits of the lane VC v's next flit (a header of class `class`, or
    /// a body/tail flit of the open message) would take.
    #[inline]
    pub fn credits_for(&self, v: usize, head: bool, class: u8) -> u32 {
        self.0[v].credits_for(head, class) as u32
    }

    /// The lane VC v's next flit would go into (as `credits_for`).
    #[inline]
    pub fn lane_for(&self, v: usize, head: bool, class: u8) -> u8 {
        self.0[v].pick(head, class).lane
    }

    /// A flit of class `class` leaves on VC v (it had a credit): its lane,
    /// one credit of that lane used.
    #[inline]
    pub fn send(&mut self, v: usize, head: bool, class: u8) -> u8 {
        let s = &mut self.0[v];
        let pick = s.pick(head, class);
        s.send(pick, head, class);
        pick.lane
    }

    /// The router's credits of one cycle: bit v of `ret` = one credit of VC
    /// v, into the lane `lanes` names for it (`wormqos_sim::credit_lane`).
    #[inline]
    pub fn credit(&mut self, ret: u32, lanes: u64) {
        for (v, s) in self.0.iter_mut().enumerate() {
            if ret >> v & 1 == 1 {
                s.credit(credit_lane(lanes, v));
            }
        }
    }
}

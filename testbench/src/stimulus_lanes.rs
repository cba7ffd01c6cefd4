//! The stimulus's endpoints under per-lane credits
//! (`router.preemption_credits = "per_lane"`, docs/microarchitecture.md
//! §9.4 *Credits*): each source VC is a sender with the golden model's own
//! [`LaneSender`] (its lane choice and per-lane credit counts), so the
//! flits both devices receive name the lanes the model's sender would; each
//! sink VC is a downstream buffer of DD slots per lane that returns every
//! credit with the lane of the flit it frees.

use std::collections::VecDeque;

use wormqos_config::RouterConfig;
use wormqos_sim::lane_credits::LaneSender;
use wormqos_sim::LinkFlit;

/// The per-lane state of every source VC and sink VC of one router.
pub(crate) struct Lanes {
    /// Per input VC (p*M+v): the upstream sender.
    senders: Vec<LaneSender>,
    /// Per output VC (o*M+u): the lanes of the flits held, oldest first.
    held: Vec<VecDeque<u8>>,
    /// Per output VC and lane: flits held in that lane.
    per_lane: Vec<Vec<usize>>,
    /// DI, the credits of one lane of an input VC.
    di: u16,
    /// DD, the slots of one lane of a sink VC.
    dd: usize,
}

/// Why a lane was refused (a protocol violation of the device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneFault {
    /// The named lane does not exist (above E).
    NoSuchLane(usize),
    /// A credit for a lane whose credits were all home.
    Overflow { lane: usize, credits: usize },
    /// A flit into a full lane.
    Full { lane: usize },
}

impl Lanes {
    pub(crate) fn new(cfg: &RouterConfig) -> Self {
        let nm = cfg.ports() * cfg.vcs();
        let lanes = cfg.extra_lanes() + 1;
        let di = cfg.input_buffer_depth() as u16;
        Lanes {
            senders: vec![LaneSender::new(di, lanes); nm],
            held: vec![VecDeque::new(); nm],
            per_lane: vec![vec![0; lanes]; nm],
            di,
            dd: cfg.downstream_buffer_depth(),
        }
    }

    fn lanes(&self) -> usize {
        self.per_lane.first().map_or(1, Vec::len)
    }

    /// A credit of lane `lane` came back to source VC `i`.
    pub(crate) fn credit(&mut self, i: usize, lane: usize) -> Result<(), LaneFault> {
        if lane >= self.lanes() {
            return Err(LaneFault::NoSuchLane(lane));
        }
        let s = &mut self.senders[i];
        if s.credits(lane as u8) >= self.di {
            return Err(LaneFault::Overflow { lane, credits: s.credits(lane as u8) as usize + 1 });
        }
        s.credit(lane);
        Ok(())
    }

    /// Credits of lane `lane` of source VC `i`.
    pub(crate) fn credits(&self, i: usize, lane: u8) -> usize {
        self.senders[i].credits(lane) as usize
    }

    /// Credits of the lane source VC `i` would send `f` (of class `class`) into.
    pub(crate) fn credits_for(&self, i: usize, f: &LinkFlit, class: u64) -> usize {
        self.senders[i].credits_for(f.head, class as u8) as usize
    }

    /// Source VC `i` sends `f`: it names its lane, and a credit is spent.
    pub(crate) fn send(&mut self, i: usize, f: &mut LinkFlit, class: u64) {
        let s = &mut self.senders[i];
        let pick = s.pick(f.head, class as u8);
        s.send(pick, f.head, class as u8);
        f.lane = pick.lane;
    }

    /// A flit of lane `lane` arrives at sink VC `i`.
    pub(crate) fn arrive(&mut self, i: usize, lane: usize) -> Result<(), LaneFault> {
        let Some(n) = self.per_lane[i].get_mut(lane) else { return Err(LaneFault::NoSuchLane(lane)) };
        if *n >= self.dd {
            return Err(LaneFault::Full { lane });
        }
        *n += 1;
        self.held[i].push_back(lane as u8);
        Ok(())
    }

    /// Sink VC `i` frees its oldest flit; returns that flit's lane.
    pub(crate) fn free(&mut self, i: usize) -> usize {
        let lane = self.held[i].pop_front().expect("a sink frees only a flit it holds") as usize;
        self.per_lane[i][lane] -= 1;
        lane
    }

    /// Some lane of sink VC `i` is full (the router has no credit for it).
    pub(crate) fn any_full(&self, i: usize) -> bool {
        self.per_lane[i].iter().any(|&n| n >= self.dd)
    }
}

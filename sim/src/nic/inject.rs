//! Injection into the router (docs/nic.md §9): credits per router input
//! VC, the link register, and the choice of the flit to send — in queue
//! order (traditional) or by the VirtualClock scheduler over the VC queues
//! (qos) at flit, block or message granularity.

use super::params::Params;
use super::sendq::{SendQueues, TxFlit};
use crate::lane_credits::{LanePick, LaneSender};
use crate::link::{credit_lane, LinkFlit};
use crate::vclock::{VirtualClockScheduler, MAX_SLOTS};
use wormqos_config::nic::Injection;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Injector {
    credits: [u32; MAX_SLOTS],
    /// `per_lane` credits (docs/nic.md §9.1): the sender state of each VC
    /// (`lcr`, `lcls`, `lw`), in place of `credits`; empty otherwise.
    lane_tx: Vec<LaneSender>,
    link: LinkFlit,
    /// qos only.
    vclock: Option<VirtualClockScheduler>,
    /// Block hold (µarch §9.3).
    blk_slot: u32,
    blk_left: u32,
    /// Message hold (docs/nic.md §9.3).
    hold: bool,
    hold_slot: u32,
}

impl Injector {
    pub fn new(p: &Params) -> Self {
        let vclock = p.is_qos().then(|| VirtualClockScheduler::new(p.vcs, p.clock_width, p.vtick_width));
        let mut i = Injector { credits: [0; MAX_SLOTS], lane_tx: Vec::new(), link: LinkFlit::IDLE, vclock, blk_slot: 0, blk_left: 0, hold: false, hold_slot: 0 };
        i.reset(p);
        i
    }

    pub fn reset(&mut self, p: &Params) {
        self.credits = [0; MAX_SLOTS];
        self.credits[..p.vcs].fill(p.credits);
        self.lane_tx = if p.lanes > 0 { vec![LaneSender::new(p.credits as u16, p.lanes); p.vcs] } else { Vec::new() };
        self.link = LinkFlit::IDLE;
        if let Some(v) = &mut self.vclock {
            v.reset();
        }
        self.blk_slot = 0;
        self.blk_left = 0;
        self.hold = false;
        self.hold_slot = 0;
    }

    pub fn link(&self) -> &LinkFlit {
        &self.link
    }

    /// The slots (send queues) offered to the scheduler this cycle, and
    /// whether a block hold ends (its slot is not eligible).
    fn offered(&self, p: &Params, eligible: u32) -> (u32, bool) {
        match p.injection {
            Injection::Flit => (eligible, false),
            Injection::Block if self.blk_left > 0 => {
                let held = 1 << self.blk_slot;
                if eligible & held != 0 {
                    (held, false)
                } else {
                    (eligible, true)
                }
            }
            Injection::Block => (eligible, false),
            Injection::Message if self.hold => (eligible & (1 << self.hold_slot), false),
            Injection::Message => (eligible, false),
        }
    }

    /// The lane a flit of VC `vc` takes (docs/nic.md §9.1, `per_lane`),
    /// on the start-of-cycle sender state; `None` with per-VC credits.
    fn lane_of(&self, p: &Params, vc: u32, head: bool, data: &super::format::FlitData) -> Option<LanePick> {
        let tx = self.lane_tx.get(vc as usize)?;
        Some(tx.pick(head, if head { p.header_cls(data) } else { 0 }))
    }

    /// Whether the front flit `f` of a send queue has a credit: of its
    /// lane (`per_lane`) or of its VC.
    fn has_credit(&self, p: &Params, f: &TxFlit) -> bool {
        match self.lane_of(p, f.vc, f.head, &f.data) {
            Some(pick) => self.lane_tx[f.vc as usize].credits(pick.lane) > 0,
            None => self.credits[f.vc as usize] > 0,
        }
    }

    /// One cycle: chooses and pops the flit for the link register (from the
    /// start-of-cycle queues: call before this cycle's pushes), counts a
    /// leaving tail in `sent_tails`, and updates the credits.
    pub fn step(&mut self, p: &Params, sq: &mut SendQueues, credit_in: u32, credit_lanes_in: u64) {
        let sent = match &mut self.vclock {
            None => match sq.flits[0].front() {
                Some(f) if self.has_credit(p, f) => Some(0),
                _ => None,
            },
            Some(_) => self.schedule(p, sq),
        };
        let mut taken = 0u32;
        self.link = LinkFlit::IDLE;
        if let Some(q) = sent {
            let f = sq.flits[q].pop();
            if f.tail {
                sq.sent_tails[q] += 1;
            }
            taken = 1 << f.vc;
            let lane = match self.lane_of(p, f.vc, f.head, &f.data) {
                Some(pick) => {
                    self.lane_tx[f.vc as usize].send(pick, f.head, p.header_cls(&f.data));
                    pick.lane
                }
                None => 0,
            };
            self.link = LinkFlit { lane, valid: true, vc: f.vc as u8, head: f.head, tail: f.tail, dummy: false, data: f.data };
        }
        if !self.lane_tx.is_empty() {
            for u in (0..p.vcs).filter(|u| credit_in >> u & 1 == 1) {
                self.lane_tx[u].credit(credit_lane(credit_lanes_in, u));
            }
            return;
        }
        for u in 0..p.vcs {
            let c = self.credits[u] - (taken >> u & 1) + (credit_in >> u & 1);
            self.credits[u] = c.min(p.credits);
        }
    }

    /// The VirtualClock grant of a qos NIC and its hold registers.
    fn schedule(&mut self, p: &Params, sq: &SendQueues) -> Option<usize> {
        let mut present = 0u32;
        let mut eligible = 0u32;
        for (u, q) in sq.flits.iter().enumerate() {
            if let Some(f) = q.front() {
                present |= 1 << u;
                if self.has_credit(p, f) {
                    eligible |= 1 << u;
                }
            }
        }
        let (offer, hold_ends) = self.offered(p, eligible);
        let vc = self.vclock.as_mut().expect("qos NIC");
        let k = vc.grant_with(present, offer, |k| sq.flits[k].front().map_or(0, |f| f.vtick as u64));
        vc.update(true);
        if hold_ends {
            self.blk_left = 0;
        }
        let k = k?;
        let f = sq.flits[k].front().expect("granted slot is present");
        match p.injection {
            Injection::Flit => {}
            Injection::Block => {
                if k as u32 == self.blk_slot && self.blk_left > 0 {
                    self.blk_left -= 1;
                } else {
                    self.blk_slot = k as u32;
                    self.blk_left = p.block_size - 1;
                }
                if f.tail {
                    self.blk_left = 0;
                }
            }
            Injection::Message => {
                if f.head {
                    self.hold = true;
                    self.hold_slot = k as u32;
                }
                if f.tail {
                    self.hold = false;
                }
            }
        }
        Some(k)
    }
}

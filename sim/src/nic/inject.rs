//! Injection into the router (docs/nic.md §9): credits per router input
//! VC, the link register, and the choice of the flit to send — in queue
//! order (traditional) or by the VirtualClock scheduler over the VC queues
//! (qos) at flit, block or message granularity.

use super::params::Params;
use super::sendq::SendQueues;
use crate::link::LinkFlit;
use crate::vclock::{VirtualClockScheduler, MAX_SLOTS};
use wormqos_config::nic::Injection;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Injector {
    credits: [u32; MAX_SLOTS],
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
        let mut i = Injector { credits: [0; MAX_SLOTS], link: LinkFlit::IDLE, vclock, blk_slot: 0, blk_left: 0, hold: false, hold_slot: 0 };
        i.reset(p);
        i
    }

    pub fn reset(&mut self, p: &Params) {
        self.credits = [0; MAX_SLOTS];
        self.credits[..p.vcs].fill(p.credits);
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

    /// One cycle: chooses and pops the flit for the link register (from the
    /// start-of-cycle queues: call before this cycle's pushes), counts a
    /// leaving tail in `sent_tails`, and updates the credits.
    pub fn step(&mut self, p: &Params, sq: &mut SendQueues, credit_in: u32) {
        let sent = match &mut self.vclock {
            None => match sq.flits[0].front() {
                Some(f) if self.credits[f.vc as usize] > 0 => Some(0),
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
            self.link = LinkFlit { lane: 0, valid: true, vc: f.vc as u8, head: f.head, tail: f.tail, dummy: false, data: f.data };
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
            if !q.is_empty() {
                present |= 1 << u;
                if self.credits[u] > 0 {
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

//! The router side of the NIC: takes injected flits against the router's
//! input-VC credits (DI per VC; a flit without a credit is a violation) and
//! returns each credit after a random delay; feeds the ejection link from
//! per-VC queues of flits against the NIC's receive credits (DD per VC).
//! On request it also sends flits the NIC must drop (docs/nic.md §11.1): a
//! flit on a VC >= M, and a flit without a credit to a full receive FIFO.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use wormqos_sim::LinkFlit;

pub struct RouterPeer {
    rng: SmallRng,
    vcs: usize,
    di: u32,
    dd: u32,
    /// Largest credit-return delay, cycles.
    pub max_delay: u32,
    /// Probability that the ejection link carries a flit when one can go.
    pub eject_rate: f64,
    inj_credits: Vec<u32>,
    /// Per VC: cycles at which a credit goes back.
    returns: Vec<VecDeque<u64>>,
    ej_credits: Vec<u32>,
    pub ej_queues: Vec<VecDeque<LinkFlit>>,
    driven: LinkFlit,
    credit_out: u32,
    /// Every injected flit with its cycle.
    pub injected: Vec<(u64, LinkFlit)>,
    pub ejected: u64,
    /// VCs the NIC has no FIFO for (M..2^VW; empty when M is a power of 2)
    /// and the probability per idle link cycle of a stray flit on one.
    pub bad_vcs: std::ops::Range<u32>,
    pub bad_vc_rate: f64,
    /// Set by the host once the receive engine is off and every credit of
    /// its last pop is back: the next idle cycle sends a flit without a
    /// credit to a VC whose FIFO is then full (its credits are 0).
    pub overrun_armed: bool,
    /// Stray flits sent: on a bad VC, to a full FIFO (each must be dropped).
    pub strays_bad_vc: u64,
    pub strays_overrun: u64,
    pub violations: Vec<String>,
}

impl RouterPeer {
    pub fn new(vcs: usize, di: u32, dd: u32, seed: u64) -> Self {
        RouterPeer {
            rng: SmallRng::seed_from_u64(seed),
            vcs,
            di,
            dd,
            max_delay: 6,
            eject_rate: 0.7,
            inj_credits: vec![di; vcs],
            returns: vec![VecDeque::new(); vcs],
            ej_credits: vec![dd; vcs],
            ej_queues: vec![VecDeque::new(); vcs],
            driven: LinkFlit::IDLE,
            credit_out: 0,
            injected: Vec::new(),
            ejected: 0,
            bad_vcs: 0..0,
            bad_vc_rate: 0.0,
            overrun_armed: false,
            strays_bad_vc: 0,
            strays_overrun: 0,
            violations: Vec::new(),
        }
    }

    /// Flits still to eject.
    pub fn ej_pending(&self) -> usize {
        self.ej_queues.iter().map(VecDeque::len).sum()
    }

    /// This cycle's `inj_credit_i` and ejection flit.
    pub fn drive(&mut self, cycle: u64) -> (u32, LinkFlit) {
        self.credit_out = 0;
        for (u, r) in self.returns.iter_mut().enumerate() {
            if r.front().is_some_and(|&c| c <= cycle) {
                r.pop_front();
                self.credit_out |= 1 << u;
            }
        }
        self.driven = LinkFlit::IDLE;
        if self.rng.gen_bool(self.eject_rate) {
            // Round robin from a random start over the VCs that can send.
            let start = self.rng.gen_range(0..self.vcs);
            for k in 0..self.vcs {
                let u = (start + k) % self.vcs;
                if self.ej_credits[u] > 0 && !self.ej_queues[u].is_empty() {
                    self.driven = self.ej_queues[u].pop_front().unwrap();
                    self.driven.vc = u as u8;
                    self.ej_credits[u] -= 1;
                    self.ejected += 1;
                    break;
                }
            }
        }
        if !self.driven.valid {
            self.stray();
        }
        (self.credit_out, self.driven)
    }

    /// A flit the NIC must drop, if one is due: it is not part of any
    /// message (a body flit with the index, src and seq fields all ones),
    /// so a NIC that accepted it would hold it as a new message's flit and
    /// the run would not drain.
    fn stray(&mut self) {
        let flit = |vc: u32| LinkFlit { lane: 0, valid: true, vc: vc as u8, data: [u64::MAX; 4], ..LinkFlit::IDLE };
        if self.overrun_armed {
            if let Some(u) = (0..self.vcs).find(|&u| self.ej_credits[u] == 0) {
                self.driven = flit(u as u32);
                self.overrun_armed = false;
                self.strays_overrun += 1;
            }
        } else if !self.bad_vcs.is_empty() && self.rng.gen_bool(self.bad_vc_rate) {
            self.driven = flit(self.rng.gen_range(self.bad_vcs.clone()));
            self.strays_bad_vc += 1;
        }
    }

    /// The rising edge, given the NIC's injection link and receive credits.
    pub fn edge(&mut self, cycle: u64, inj: &LinkFlit, ej_credit: u32) {
        for u in 0..self.vcs {
            if self.credit_out >> u & 1 == 1 {
                self.inj_credits[u] += 1;
            }
        }
        if inj.valid {
            let u = inj.vc as usize;
            if u >= self.vcs || self.inj_credits[u] == 0 {
                self.violations.push(format!("cycle {cycle}: flit injected on VC {u} without a credit"));
            } else {
                self.inj_credits[u] -= 1;
                let d = self.rng.gen_range(1..=self.max_delay.max(1)) as u64;
                // One credit per VC per cycle: after the last one queued.
                let at = self.returns[u].back().map_or(cycle + d, |&b| (cycle + d).max(b + 1));
                self.returns[u].push_back(at);
            }
            self.injected.push((cycle, *inj));
        } else if *inj != LinkFlit::IDLE {
            self.violations.push(format!("cycle {cycle}: injection link not all 0 without VALID: {inj:?}"));
        }
        if inj.dummy {
            self.violations.push(format!("cycle {cycle}: the NIC sent a dummy flit"));
        }
        for u in 0..self.vcs {
            if ej_credit >> u & 1 == 1 {
                self.ej_credits[u] += 1;
                if self.ej_credits[u] > self.dd {
                    self.violations.push(format!("cycle {cycle}: receive credit of VC {u} returned beyond DD"));
                }
            }
        }
        if ej_credit >> self.vcs != 0 {
            self.violations.push(format!("cycle {cycle}: ej_credit on a VC >= M: {ej_credit:#x}"));
        }
    }

    /// All injection credits are back (the NIC holds none of the router's slots).
    pub fn credits_home(&self) -> bool {
        self.inj_credits.iter().all(|&c| c == self.di) && self.ej_credits.iter().all(|&c| c == self.dd)
    }
}

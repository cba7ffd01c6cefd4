//! The host's AXI4-Lite master: runs a queue of register reads and writes
//! (doorbells, posts, status polls) with random VALID delays and random
//! BREADY/RREADY, and checks the NIC's slave side: B and R held until taken
//! with a stable payload, exactly one response per request, in order.

use super::protocol::Channel;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use wormqos_sim::nic::{AxiLiteIn, AxiLiteOut};

/// A register access; `tag` comes back with its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteOp {
    Write { addr: u32, data: u32 },
    Read { addr: u32 },
}

/// The answer to one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiteAnswer {
    pub tag: u64,
    pub op: LiteOp,
    pub resp: u8,
    /// Reads only.
    pub data: u32,
    /// Cycle of the request's handshake.
    pub cycle: u64,
}

pub struct AxiLiteMaster {
    rng: SmallRng,
    /// Probability that a waiting request is offered / a response taken.
    pub eagerness: f64,
    queue: VecDeque<(u64, LiteOp)>,
    /// Offered and not yet taken (held until the handshake).
    offered: Option<(u64, LiteOp)>,
    writes: VecDeque<(u64, LiteOp, u64)>,
    reads: VecDeque<(u64, LiteOp, u64)>,
    inputs: AxiLiteIn,
    b_ch: Channel<u8>,
    r_ch: Channel<(u32, u8)>,
    pub answers: VecDeque<LiteAnswer>,
    pub violations: Vec<String>,
}

impl AxiLiteMaster {
    pub fn new(seed: u64, eagerness: f64) -> Self {
        AxiLiteMaster {
            rng: SmallRng::seed_from_u64(seed),
            eagerness,
            queue: VecDeque::new(),
            offered: None,
            writes: VecDeque::new(),
            reads: VecDeque::new(),
            inputs: AxiLiteIn::default(),
            b_ch: Channel::new("B (AXI-Lite)"),
            r_ch: Channel::new("R (AXI-Lite)"),
            answers: VecDeque::new(),
            violations: Vec::new(),
        }
    }

    pub fn push(&mut self, tag: u64, op: LiteOp) {
        self.queue.push_back((tag, op));
    }

    /// Nothing queued, offered or unanswered.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.offered.is_none() && self.writes.is_empty() && self.reads.is_empty()
    }

    /// The master's signals in this cycle. Address and data of a write are
    /// offered together (docs/nic.md §5.2 takes them in one cycle).
    pub fn drive(&mut self) -> AxiLiteIn {
        if self.offered.is_none() && !self.queue.is_empty() && self.rng.gen_bool(self.eagerness) {
            self.offered = self.queue.pop_front();
        }
        let mut i = AxiLiteIn { bready: self.rng.gen_bool(self.eagerness), rready: self.rng.gen_bool(self.eagerness), ..AxiLiteIn::default() };
        match self.offered {
            Some((_, LiteOp::Write { addr, data })) => {
                i.awvalid = true;
                i.wvalid = true;
                i.awaddr = addr;
                i.wdata = data;
                i.wstrb = 0xF;
            }
            Some((_, LiteOp::Read { addr })) => {
                i.arvalid = true;
                i.araddr = addr;
            }
            None => {}
        }
        self.inputs = i;
        i
    }

    /// The rising edge, given the NIC's outputs of this cycle (settled:
    /// `awready` included).
    pub fn edge(&mut self, cycle: u64, o: &AxiLiteOut) {
        let i = self.inputs;
        if let Err(e) = self.b_ch.check(cycle, o.bvalid, i.bready, o.bresp) {
            self.violations.push(e);
        }
        if let Err(e) = self.r_ch.check(cycle, o.rvalid, i.rready, (o.rdata, o.rresp)) {
            self.violations.push(e);
        }
        if o.awready != o.wready {
            self.violations.push(format!("cycle {cycle}: awready {} != wready {}", o.awready, o.wready));
        }
        if o.bvalid && i.bready {
            match self.writes.pop_front() {
                Some((tag, op, c)) => self.answers.push_back(LiteAnswer { tag, op, resp: o.bresp, data: 0, cycle: c }),
                None => self.violations.push(format!("cycle {cycle}: a B response without a write")),
            }
        }
        if o.rvalid && i.rready {
            match self.reads.pop_front() {
                Some((tag, op, c)) => self.answers.push_back(LiteAnswer { tag, op, resp: o.rresp, data: o.rdata, cycle: c }),
                None => self.violations.push(format!("cycle {cycle}: an R response without a read")),
            }
        }
        match self.offered {
            Some((tag, op @ LiteOp::Write { .. })) if o.awready => {
                self.writes.push_back((tag, op, cycle));
                self.offered = None;
            }
            Some((tag, op @ LiteOp::Read { .. })) if o.arready => {
                self.reads.push_back((tag, op, cycle));
                self.offered = None;
            }
            _ => {}
        }
    }
}

//! The receive path (docs/nic.md §11): receive VC FIFOs and their credits,
//! reassembly contexts keyed by `{seq, src}`, the posted-buffer queue, the
//! receive engine, and the receive completion queue.

use super::format::FlitData;
use super::params::Params;
use super::regs::RxCompletion;
use super::ring::Ring;
use crate::arbiter::rr_pick;
use crate::link::{credit_lane_word, LinkFlit};

/// Receive status codes (docs/nic.md §11.4).
pub const RX_OVERFLOW: u8 = 1;
pub const RX_WR_ERR: u8 = 2;
pub const RX_POISON: u8 = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RxFlit {
    pub head: bool,
    pub tail: bool,
    pub dummy: bool,
    /// The lane the router named (`per_lane` credits, docs/nic.md §11.1).
    pub lane: u8,
    pub data: FlitData,
}

/// A posted receive buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Post {
    pub addr: u32,
    pub len: u32,
}

/// One reassembly context (docs/nic.md §11.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Context {
    pub valid: bool,
    pub key: u32,
    pub addr: u32,
    pub len: u32,
    pub class: u32,
    pub got_head: bool,
    pub got_tail: bool,
    pub last: u32,
    pub count: u32,
    pub err: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum RxState {
    #[default]
    Idle,
    Flit,
    Write,
    Check,
    Cpl,
}

/// Start-of-cycle flags of the queues the host also touches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RxSample {
    pub post_empty: bool,
    pub cpl_full: bool,
}

/// Events of one cycle for the register file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RxEvents {
    pub dropped: bool,
    /// A message completed: `Some(ok)`.
    pub completed: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Receiver {
    fifos: Vec<Ring<RxFlit>>,
    credit_out: u32,
    /// `ej_credit_lane_o`: the popped flit's lane beside its credit.
    credit_lanes_out: u64,
    pub ctx: Vec<Context>,
    pub posts: Ring<Post>,
    pub cpls: Ring<RxCompletion>,
    pub state: RxState,
    flit: RxFlit,
    rc: usize,
    ptr: u32,
    waddr: u32,
}

impl Receiver {
    pub fn new(p: &Params) -> Self {
        Receiver {
            fifos: (0..p.vcs).map(|_| Ring::new(p.rx_fifo_depth())).collect(),
            credit_out: 0,
            credit_lanes_out: 0,
            ctx: vec![Context::default(); p.contexts],
            posts: Ring::new(p.post_depth),
            cpls: Ring::new(p.cpl_depth),
            state: RxState::Idle,
            flit: RxFlit::default(),
            rc: 0,
            ptr: 0,
            waddr: 0,
        }
    }

    pub fn reset(&mut self) {
        self.fifos.iter_mut().for_each(Ring::clear);
        self.credit_out = 0;
        self.credit_lanes_out = 0;
        self.ctx.fill(Context::default());
        self.posts.clear();
        self.cpls.clear();
        self.state = RxState::Idle;
        self.flit = RxFlit::default();
        self.rc = 0;
        self.ptr = 0;
        self.waddr = 0;
    }

    pub fn credit_out(&self) -> u32 {
        self.credit_out
    }

    pub fn credit_lanes_out(&self) -> u64 {
        self.credit_lanes_out
    }

    /// Client 2 of the write engine: `(address, payload beat)` in `RX_WRITE`.
    pub fn write_request(&self, p: &Params) -> Option<(u32, u64)> {
        (self.state == RxState::Write).then(|| (self.waddr, p.body_beat(&self.flit.data)))
    }

    fn hit(&self, key: u32) -> Option<usize> {
        self.ctx.iter().position(|c| c.valid && c.key == key)
    }

    /// One cycle. `written`: this cycle's B handshake of a client-2 write
    /// (`Some(error)`); `ej`: the ejection link's flit of this cycle.
    pub fn step(&mut self, p: &Params, s: RxSample, rx_en: bool, written: Option<bool>, ej: &LinkFlit) -> RxEvents {
        let mut ev = RxEvents::default();
        // Start-of-cycle fullness of the FIFO the ejected flit goes to.
        // The port is VW bits wide: wider values cannot reach the NIC.
        let ej_vc = (ej.vc as u32 & ((1 << p.vc_width) - 1)) as usize;
        let ej_accept = ej.valid && ej_vc < p.vcs && !self.fifos[ej_vc].is_full();
        ev.dropped = ej.valid && !ej_accept;
        let mut popped = 0u32;
        let mut popped_lanes = 0u64;
        match self.state {
            RxState::Idle if rx_en => {
                let free = self.ctx.iter().any(|c| !c.valid) && !s.post_empty;
                let mut ready = 0u64;
                for (u, f) in self.fifos.iter().enumerate() {
                    if let Some(fl) = f.front() {
                        if fl.dummy || free || self.hit(p.flit_key(fl.head, &fl.data)).is_some() {
                            ready |= 1 << u;
                        }
                    }
                }
                if let Some(u) = rr_pick(ready, self.ptr) {
                    let u = u as usize;
                    let fl = self.fifos[u].pop();
                    popped |= 1 << u;
                    popped_lanes |= credit_lane_word(u, fl.lane as usize);
                    self.ptr = ((u + 1) % p.vcs) as u32;
                    if !fl.dummy {
                        let key = p.flit_key(fl.head, &fl.data);
                        self.rc = match self.hit(key) {
                            Some(c) => c,
                            None => {
                                let c = self.ctx.iter().position(|c| !c.valid).expect("processable");
                                let b = self.posts.pop();
                                self.ctx[c] = Context { valid: true, key, addr: b.addr, len: b.len, ..Context::default() };
                                c
                            }
                        };
                        self.flit = fl;
                        self.state = RxState::Flit;
                    }
                }
            }
            RxState::Idle => {}
            RxState::Flit => self.process(p),
            RxState::Write => {
                if let Some(error) = written {
                    let c = &mut self.ctx[self.rc];
                    if error && c.err == 0 {
                        c.err = RX_WR_ERR;
                    }
                    c.count = (c.count + 1) & count_mask(p);
                    self.state = RxState::Check;
                }
            }
            RxState::Check => {
                let c = &self.ctx[self.rc];
                self.state = if c.got_head && c.got_tail && c.count == c.last + 1 { RxState::Cpl } else { RxState::Idle };
            }
            RxState::Cpl => {
                if !s.cpl_full {
                    let c = &mut self.ctx[self.rc];
                    self.cpls.push(RxCompletion {
                        status: c.err as u32,
                        class: c.class,
                        src: p.key_src(c.key),
                        len: c.last * p.bb,
                        addr: c.addr,
                    });
                    c.valid = false;
                    ev.completed = Some(c.err == 0);
                    self.state = RxState::Idle;
                }
            }
        }
        if ej_accept {
            let dummy = p.dummies && ej.dummy;
            let lane = if p.lanes > 0 { ej.lane } else { 0 };
            self.fifos[ej_vc].push(RxFlit { head: ej.head, tail: ej.tail, dummy, lane, data: ej.data });
        }
        self.credit_out = popped;
        self.credit_lanes_out = popped_lanes;
        ev
    }

    /// `RX_FLIT`: the latched flit in context `rc`.
    fn process(&mut self, p: &Params) {
        let fl = self.flit;
        let c = &mut self.ctx[self.rc];
        self.state = RxState::Check;
        if fl.head {
            c.class = p.header_class(&fl.data);
            c.got_head = true;
            c.count = (c.count + 1) & count_mask(p);
            return;
        }
        let k = p.body_index(&fl.data);
        if fl.tail {
            c.got_tail = true;
            c.last = k;
        }
        if p.body_poison(&fl.data) {
            if c.err == 0 {
                c.err = RX_POISON;
            }
            c.count = (c.count + 1) & count_mask(p);
        } else if k == 0 || k as u64 * p.bb as u64 > c.len as u64 {
            if c.err == 0 {
                c.err = RX_OVERFLOW;
            }
            c.count = (c.count + 1) & count_mask(p);
        } else {
            self.waddr = c.addr.wrapping_add((k - 1) * p.bb);
            self.state = RxState::Write;
        }
    }
}

/// `count` is IXW+1 bits.
fn count_mask(p: &Params) -> u32 {
    (1u32 << (p.index_width + 1)) - 1
}

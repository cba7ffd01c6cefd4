//! The send engine (docs/nic.md §7): from a selected doorbell, the
//! descriptor fetch, its checks, the payload bursts (never across 4 KiB),
//! and the header and body flits pushed into the doorbell's send queue.

use super::doorbell::Doorbell;
use super::params::Params;
use super::ports::{AxiIn, AxiOut};
use super::sendq::{Pending, SendQueues, TxFlit};

/// Send status codes (docs/nic.md §7.2); 9 and 10 are the doorbell's.
pub const CODE_LEN_ZERO: u8 = 1;
pub const CODE_LEN_MAX: u8 = 2;
pub const CODE_LEN_ALIGN: u8 = 3;
pub const CODE_DEST_RANGE: u8 = 4;
pub const CODE_VTICK_RANGE: u8 = 5;
pub const CODE_ADDR_ALIGN: u8 = 6;
pub const CODE_DESC_RD_ERR: u8 = 7;
pub const CODE_PAY_RD_ERR: u8 = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TxState {
    #[default]
    Idle,
    DescAr,
    DescR,
    Check,
    Head,
    PayAr,
    PayR,
    Done,
    CplErr,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SendEngine {
    pub state: TxState,
    db: Doorbell,
    q: usize,
    /// dest, vtick, length, payload_addr.
    words: [u32; 4],
    err: u8,
    addr: u32,
    left: u32,
    blen: u32,
    idx: u32,
    seq: u8,
    beat: u32,
    araddr: u32,
    arlen: u8,
}

impl SendEngine {
    pub fn reset(&mut self) {
        *self = SendEngine::default();
    }

    /// Client 0 of the write engine: `(desc, code)` while in `TX_CPL_ERR`.
    pub fn error_request(&self) -> Option<(u32, u8)> {
        (self.state == TxState::CplErr).then_some((self.db.desc, self.err))
    }

    /// n: beats of the next payload burst.
    fn burst(p: &Params, addr: u32, left: u32) -> u32 {
        left.min(p.max_burst).min((4096 - addr % 4096) / p.bb)
    }

    /// `m_axi_rready_o`, from the start-of-cycle flit-FIFO-full mask.
    fn rready(&self, full: u32) -> bool {
        match self.state {
            TxState::DescR => true,
            TxState::PayR => full >> self.q & 1 == 0,
            _ => false,
        }
    }

    fn enter_payload_ar(&mut self, p: &Params) {
        self.blen = Self::burst(p, self.addr, self.left);
        self.araddr = self.addr;
        self.arlen = (self.blen - 1) as u8;
        self.state = TxState::PayAr;
    }

    /// The first failing descriptor check (docs/nic.md §7.2 `TX_CHECK`).
    fn check(&self, p: &Params) -> u8 {
        let [dest, vtick, length, addr] = self.words;
        if length == 0 {
            CODE_LEN_ZERO
        } else if length % p.bb != 0 {
            CODE_LEN_ALIGN
        } else if length / p.bb > p.max_flits {
            CODE_LEN_MAX
        } else if dest >= p.endpoints {
            CODE_DEST_RANGE
        } else if vtick as u64 > (1u64 << p.vtick_width) - 1 {
            CODE_VTICK_RANGE
        } else if addr % p.bb != 0 {
            CODE_ADDR_ALIGN
        } else {
            0
        }
    }

    /// One cycle. `selected`: the doorbell chosen in this cycle (only in
    /// `TX_IDLE`); `full`: the start-of-cycle flit-FIFO-full mask;
    /// `error_written`: this cycle's B handshake of a client-0 write.
    pub fn step(&mut self, p: &Params, i: &AxiIn, selected: Option<Doorbell>, full: u32, sq: &mut SendQueues, node_id: u32, error_written: bool) {
        let r_beat = i.rvalid && self.rready(full);
        match self.state {
            TxState::Idle => {
                let Some(d) = selected else { return };
                self.db = d;
                self.q = p.send_queue_of(&d);
                match p.doorbell_error(&d) {
                    Some(code) => {
                        self.err = code;
                        self.state = TxState::CplErr;
                    }
                    None => {
                        self.err = 0;
                        self.beat = 0;
                        self.araddr = d.desc.wrapping_mul(32);
                        self.arlen = (p.desc_beats() - 1) as u8;
                        self.state = TxState::DescAr;
                    }
                }
            }
            TxState::DescAr => {
                if i.arready {
                    self.state = TxState::DescR;
                }
            }
            TxState::DescR => {
                if r_beat {
                    let per = (p.bb / 4) as usize;
                    for w in 0..per {
                        self.words[self.beat as usize * per + w] = (i.rdata >> (32 * w)) as u32;
                    }
                    if i.rresp & 0b10 != 0 && self.err == 0 {
                        self.err = CODE_DESC_RD_ERR;
                    }
                    self.beat += 1;
                    if self.beat == p.desc_beats() {
                        self.state = TxState::Check;
                    }
                }
            }
            TxState::Check => {
                if self.err == 0 {
                    self.err = self.check(p);
                }
                if self.err != 0 {
                    self.state = TxState::CplErr;
                } else {
                    self.left = self.words[2] / p.bb;
                    self.addr = self.words[3];
                    self.idx = 1;
                    self.state = TxState::Head;
                }
            }
            TxState::Head => {
                if full >> self.q & 1 == 0 {
                    let [dest, vtick, ..] = self.words;
                    let data = p.header_flit(dest, self.db.class, vtick, node_id, self.seq as u32);
                    sq.flits[self.q].push(TxFlit { head: true, tail: false, vc: self.db.vc, vtick, data });
                    self.enter_payload_ar(p);
                }
            }
            TxState::PayAr => {
                if i.arready {
                    self.state = TxState::PayR;
                }
            }
            TxState::PayR => {
                if r_beat {
                    let poison = i.rresp & 0b10 != 0;
                    if poison && self.err == 0 {
                        self.err = CODE_PAY_RD_ERR;
                    }
                    let data = p.body_flit(self.idx, node_id, self.seq as u32, poison, i.rdata & p.beat_mask());
                    let tail = self.left == 1;
                    sq.flits[self.q].push(TxFlit { head: false, tail, vc: self.db.vc, vtick: self.words[1], data });
                    let last_of_burst = self.blen == 1;
                    self.idx += 1;
                    self.left -= 1;
                    self.blen -= 1;
                    self.addr = self.addr.wrapping_add(p.bb);
                    if last_of_burst {
                        if tail {
                            self.state = TxState::Done;
                        } else {
                            self.enter_payload_ar(p);
                        }
                    }
                }
            }
            TxState::Done => {
                sq.pending[self.q].push(Pending { desc: self.db.desc, code: self.err });
                self.seq = self.seq.wrapping_add(1);
                self.state = TxState::Idle;
            }
            TxState::CplErr => {
                if error_written {
                    self.state = TxState::Idle;
                }
            }
        }
    }

    /// The read channels' outputs (`aw*`/`w*`/`b*` are the write engine's).
    pub fn outputs(&self, p: &Params, full: u32, o: &mut AxiOut) {
        o.araddr = self.araddr;
        o.arlen = self.arlen;
        o.arsize = p.size_code();
        o.arburst = 0b01;
        o.arvalid = matches!(self.state, TxState::DescAr | TxState::PayAr);
        o.rready = self.rready(full);
    }
}

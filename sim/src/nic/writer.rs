//! The write engine (docs/nic.md §10): one single-beat AXI4 write at a
//! time for three clients in fixed priority — a malformed send's status
//! (0), a finished send's status once its tail has left (1), a received
//! payload beat (2).

use super::params::Params;
use super::ports::{AxiIn, AxiOut};
use super::sendq::SendQueues;

/// Offset of the status word inside a descriptor.
const STATUS_OFFSET: u32 = 16;
/// `[31]` DONE of a send status word.
pub const STATUS_DONE: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum WrState {
    #[default]
    Idle,
    Send,
    Resp,
}

/// Who asked for the write in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Client {
    /// Client 0: the send engine in `TX_CPL_ERR`.
    #[default]
    SendError,
    /// Client 1: a send completion with its code.
    SendDone,
    /// Client 2: the receive engine in `RX_WRITE`.
    Receive,
}

/// A finished write (its B handshake), delivered to its client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WriteDone {
    pub client: Client,
    /// The send status code (clients 0 and 1).
    pub code: u8,
    /// `bresp[1]`: the write failed.
    pub error: bool,
}

/// The requests of this cycle's clients (start-of-cycle state).
pub(crate) struct Requests {
    /// Client 0: `(desc, code)`.
    pub send_error: Option<(u32, u8)>,
    /// Client 2: `(address, payload beat)`.
    pub receive: Option<(u32, u64)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Writer {
    pub state: WrState,
    client: Client,
    code: u8,
    aw_done: bool,
    w_done: bool,
    awaddr: u32,
    wdata: u64,
    wstrb: u8,
}

impl Writer {
    pub fn reset(&mut self) {
        *self = Writer::default();
    }

    /// One cycle. Client 1 is served from `sq` (popped when taken). Returns
    /// the write that finished in this cycle, if any.
    pub fn step(&mut self, p: &Params, i: &AxiIn, req: &Requests, sq: &mut SendQueues) -> Option<WriteDone> {
        match self.state {
            WrState::Idle => {
                let status = |desc: u32, code: u8| {
                    let word = (STATUS_DONE | code as u32) as u64;
                    (desc.wrapping_mul(32).wrapping_add(STATUS_OFFSET), word, if p.bb == 8 { 0x0F } else { 0xF })
                };
                let (client, code, (addr, data, strb)) = if let Some((desc, code)) = req.send_error {
                    (Client::SendError, code, status(desc, code))
                } else if let Some(q) = sq.completion_ready() {
                    let c = sq.take_completion(q);
                    (Client::SendDone, c.code, status(c.desc, c.code))
                } else if let Some((addr, beat)) = req.receive {
                    (Client::Receive, 0, (addr, beat, ((1u32 << p.bb) - 1) as u8))
                } else {
                    return None;
                };
                *self = Writer { state: WrState::Send, client, code, aw_done: false, w_done: false, awaddr: addr, wdata: data, wstrb: strb };
                None
            }
            WrState::Send => {
                self.aw_done |= i.awready;
                self.w_done |= i.wready;
                if self.aw_done && self.w_done {
                    self.state = WrState::Resp;
                }
                None
            }
            WrState::Resp if i.bvalid => {
                self.state = WrState::Idle;
                Some(WriteDone { client: self.client, code: self.code, error: i.bresp & 0b10 != 0 })
            }
            WrState::Resp => None,
        }
    }

    /// The write channels' outputs (`ar*`/`r*` are the send engine's).
    pub fn outputs(&self, p: &Params, o: &mut AxiOut) {
        let send = self.state == WrState::Send;
        o.awaddr = self.awaddr;
        o.awlen = 0;
        o.awsize = p.size_code();
        o.awburst = 0b01;
        o.awvalid = send && !self.aw_done;
        o.wdata = self.wdata;
        o.wstrb = self.wstrb;
        o.wlast = true;
        o.wvalid = send && !self.w_done;
        o.bready = self.state == WrState::Resp;
    }
}

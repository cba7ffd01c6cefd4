//! The register file and the AXI4-Lite slave (docs/nic.md §5, §12): address
//! decoding, the read and write channel registers, and the sticky status
//! bits with "set wins" over a write-1-to-clear in the same cycle.

use super::params::Params;
use super::ports::{AxiLiteIn, AxiLiteOut};

pub const RESP_OKAY: u8 = 0b00;
pub const RESP_SLVERR: u8 = 0b10;
pub const RESP_DECERR: u8 = 0b11;

/// `ID`: "NIC", version 1.
pub const NIC_ID: u32 = 0x4E49_4301;

/// `STATUS` sticky bits.
pub const ST_DB_OVF: u32 = 1 << 0;
pub const ST_POST_OVF: u32 = 1 << 1;
pub const ST_WB_ERR: u32 = 1 << 2;
pub const ST_RX_DROP: u32 = 1 << 3;
/// `STATUS` live bits.
pub const ST_TX_BUSY: u32 = 1 << 8;
pub const ST_RX_BUSY: u32 = 1 << 9;
pub const ST_DB_PENDING: u32 = 1 << 10;

/// `IRQ_STATUS` bits.
pub const IRQ_TX_DONE: u32 = 1 << 0;
pub const IRQ_TX_ERR: u32 = 1 << 1;
pub const IRQ_RX_DONE: u32 = 1 << 2;
pub const IRQ_RX_ERR: u32 = 1 << 3;
pub const IRQ_OVF: u32 = 1 << 4;

/// `CONTROL` bits.
pub const CTRL_TX_EN: u32 = 1 << 0;
pub const CTRL_RX_EN: u32 = 1 << 1;

/// Register byte offsets (docs/nic.md §5.1).
pub mod offset {
    pub const ID: u32 = 0x000;
    pub const CONFIG: u32 = 0x004;
    pub const NODE_ID: u32 = 0x008;
    pub const CONTROL: u32 = 0x00C;
    pub const STATUS: u32 = 0x010;
    pub const IRQ_ENABLE: u32 = 0x014;
    pub const IRQ_STATUS: u32 = 0x018;
    pub const TX_COUNT: u32 = 0x01C;
    pub const RX_POST_LEN: u32 = 0x020;
    pub const RX_POST_ADDR: u32 = 0x024;
    pub const RXC_INFO: u32 = 0x028;
    pub const RXC_LEN: u32 = 0x02C;
    pub const RXC_ADDR: u32 = 0x030;
    pub const RXC_POP: u32 = 0x034;
    /// `DB[c]` is at `DB + 4c`.
    pub const DB: u32 = 0x100;
}

/// A decoded register address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reg {
    Id,
    Config,
    NodeId,
    Control,
    Status,
    IrqEnable,
    IrqStatus,
    TxCount,
    RxPostLen,
    RxPostAddr,
    RxcInfo,
    RxcLen,
    RxcAddr,
    RxcPop,
    Doorbell(u32),
}

/// The register at a 12-bit byte address, `None` when unmapped.
pub(crate) fn decode(addr: u32, classes: u32) -> Option<Reg> {
    use offset::*;
    let a = addr & 0xFFF;
    if a % 4 != 0 {
        return None;
    }
    Some(match a {
        ID => Reg::Id,
        CONFIG => Reg::Config,
        NODE_ID => Reg::NodeId,
        CONTROL => Reg::Control,
        STATUS => Reg::Status,
        IRQ_ENABLE => Reg::IrqEnable,
        IRQ_STATUS => Reg::IrqStatus,
        TX_COUNT => Reg::TxCount,
        RX_POST_LEN => Reg::RxPostLen,
        RX_POST_ADDR => Reg::RxPostAddr,
        RXC_INFO => Reg::RxcInfo,
        RXC_LEN => Reg::RxcLen,
        RXC_ADDR => Reg::RxcAddr,
        RXC_POP => Reg::RxcPop,
        _ if a >= DB && (a - DB) / 4 < classes => Reg::Doorbell((a - DB) / 4),
        _ => return None,
    })
}

/// The head of the receive completion queue as `RXC_*` show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RxCompletion {
    pub status: u32,
    pub class: u32,
    pub src: u32,
    pub len: u32,
    pub addr: u32,
}

/// What a read sees of the other components (start-of-cycle values).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Live {
    pub tx_busy: bool,
    pub rx_busy: bool,
    pub db_pending: bool,
    pub rxc: Option<RxCompletion>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Regs {
    pub node_id: u32,
    pub control: u32,
    /// Sticky `STATUS` bits [3:0].
    status: u32,
    pub irq_enable: u32,
    irq_status: u32,
    pub tx_count: u32,
    pub post_len: u32,
    // ---- the slave's channel registers
    bvalid: bool,
    bresp: u8,
    rvalid: bool,
    rdata: u32,
    rresp: u8,
    // ---- this cycle's events, applied at its end
    status_set: u32,
    irq_set: u32,
    status_clr: u32,
    irq_clr: u32,
}

impl Regs {
    pub fn reset(&mut self) {
        *self = Regs::default();
    }

    pub fn tx_enabled(&self) -> bool {
        self.control & CTRL_TX_EN != 0
    }
    pub fn rx_enabled(&self) -> bool {
        self.control & CTRL_RX_EN != 0
    }

    /// `awready = wready`: a write is taken in this cycle.
    pub fn write_ready(&self, i: &AxiLiteIn) -> bool {
        i.awvalid && i.wvalid && !self.bvalid
    }

    /// An AR handshake happens in this cycle.
    pub fn read_ready(&self, i: &AxiLiteIn) -> bool {
        i.arvalid && !self.rvalid
    }

    /// Records events of this cycle (sticky bits), applied at its end.
    pub fn set_status(&mut self, bits: u32) {
        self.status_set |= bits;
    }
    pub fn set_irq(&mut self, bits: u32) {
        self.irq_set |= bits;
    }

    /// The value and response a read of `addr` returns, from the
    /// start-of-cycle registers.
    pub fn read(&self, p: &Params, addr: u32, live: &Live) -> (u32, u8) {
        let Some(reg) = decode(addr, p.classes) else { return (0, RESP_DECERR) };
        let c = live.rxc.unwrap_or_default();
        let v = match reg {
            Reg::Id => NIC_ID,
            Reg::Config => p.vcs as u32 | p.classes << 8 | (p.is_qos() as u32) << 16 | p.bb << 24,
            Reg::NodeId => self.node_id,
            Reg::Control => self.control,
            Reg::Status => {
                self.status
                    | if live.tx_busy { ST_TX_BUSY } else { 0 }
                    | if live.rx_busy { ST_RX_BUSY } else { 0 }
                    | if live.db_pending { ST_DB_PENDING } else { 0 }
            }
            Reg::IrqEnable => self.irq_enable,
            Reg::IrqStatus => self.irq_status,
            Reg::TxCount => self.tx_count,
            Reg::RxPostLen => self.post_len,
            Reg::RxcInfo => match live.rxc {
                Some(c) => 1 << 31 | (c.status & 0xF) << 24 | (c.class & 0xFF) << 16 | (c.src & 0xFFFF),
                None => 0,
            },
            Reg::RxcLen => c.len,
            Reg::RxcAddr => c.addr,
            Reg::RxPostAddr | Reg::RxcPop | Reg::Doorbell(_) => 0,
        };
        (v, RESP_OKAY)
    }

    /// Effects of a write to a plain register (docs/nic.md §5.2); the queue
    /// registers (`DB`, `RX_POST_ADDR`, `RXC_POP`) are the caller's.
    pub fn write(&mut self, p: &Params, reg: Reg, wdata: u32) {
        match reg {
            Reg::NodeId => self.node_id = wdata & ((1u64 << p.dw()) - 1) as u32,
            Reg::Control => self.control = wdata & (CTRL_TX_EN | CTRL_RX_EN),
            Reg::IrqEnable => self.irq_enable = wdata & 0x1F,
            Reg::RxPostLen => self.post_len = wdata,
            Reg::Status => self.status_clr = wdata & 0xF,
            Reg::IrqStatus => self.irq_clr = wdata & 0x1F,
            _ => {}
        }
    }

    /// The rising edge of the slave: the channel registers and the sticky
    /// bits. `write` is the response of this cycle's write, `read` the data
    /// and response of this cycle's read, when they happen.
    pub fn end_cycle(&mut self, i: &AxiLiteIn, write: Option<u8>, read: Option<(u32, u8)>) {
        if self.bvalid && i.bready {
            self.bvalid = false;
        }
        if let Some(resp) = write {
            self.bvalid = true;
            self.bresp = resp;
        }
        if self.rvalid && i.rready {
            self.rvalid = false;
        }
        if let Some((data, resp)) = read {
            self.rvalid = true;
            self.rdata = data;
            self.rresp = resp;
        }
        self.status = (self.status & !self.status_clr) | self.status_set;
        self.irq_status = (self.irq_status & !self.irq_clr) | self.irq_set;
        self.status_set = 0;
        self.irq_set = 0;
        self.status_clr = 0;
        self.irq_clr = 0;
    }

    pub fn irq(&self) -> bool {
        self.irq_status & self.irq_enable != 0
    }

    /// The registered slave outputs (`awready`/`wready` are 0 here; see
    /// [`Self::write_ready`]).
    pub fn outputs(&self) -> AxiLiteOut {
        AxiLiteOut {
            awready: false,
            wready: false,
            bresp: self.bresp,
            bvalid: self.bvalid,
            arready: !self.rvalid,
            rdata: self.rdata,
            rresp: self.rresp,
            rvalid: self.rvalid,
        }
    }
}

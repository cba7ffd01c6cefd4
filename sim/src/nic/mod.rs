//! Cycle-exact golden model of the network interface (NIC) specified in
//! `docs/nic.md`, in its two variants (`traditional`, `qos`). It knows
//! nothing about Verilog.
//!
//! Timing convention (as the router model's): cycle t is the t-th call of
//! [`Nic::step`] after [`Nic::new`] / [`Nic::reset`]. [`Nic::outputs`]
//! holds the registered outputs during cycle t; [`Nic::settle`] adds the
//! AXI4-Lite `awready`/`wready`, the only outputs that depend on the
//! cycle's inputs; `step(inputs of cycle t)` performs the rising edge that
//! ends cycle t. Nothing allocates per cycle.
//!
//! One file per component: [`regs`] (register file, AXI4-Lite slave),
//! `doorbell` (queues, selection), `send` (descriptor and payload DMA),
//! `sendq` (send queues, pending completions), `inject` (credits,
//! VirtualClock injection), `writer` (DMA writes, send completions),
//! `receive` (receive FIFOs, reassembly, receive completions).

mod doorbell;
mod format;
mod inject;
mod params;
mod ports;
pub mod regs;
mod receive;
mod ring;
mod send;
mod sendq;
pub mod system;
mod writer;

#[cfg(test)]
mod tests;

pub use doorbell::{CODE_DB_ALIGN, CODE_VC_RANGE};
pub use ports::{AxiIn, AxiLiteIn, AxiLiteOut, AxiOut, NicInputs, NicOutputs};
pub use receive::{RX_OVERFLOW, RX_POISON, RX_WR_ERR};
pub use send::{
    CODE_ADDR_ALIGN, CODE_DESC_RD_ERR, CODE_DEST_RANGE, CODE_LEN_ALIGN, CODE_LEN_MAX, CODE_LEN_ZERO, CODE_PAY_RD_ERR,
    CODE_VTICK_RANGE,
};
pub use writer::STATUS_DONE;

use doorbell::{Doorbell, Doorbells};
use inject::Injector;
use params::Params;
use receive::{Receiver, RxSample, RxState};
use regs::{Live, Reg, Regs, RESP_DECERR, RESP_OKAY, RESP_SLVERR};
use send::{SendEngine, TxState};
use sendq::SendQueues;
use wormqos_config::RouterConfig;
use writer::{Client, Requests, Writer};

/// The NIC of one router port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nic {
    p: Params,
    regs: Regs,
    doorbells: Doorbells,
    send: SendEngine,
    sendq: SendQueues,
    inject: Injector,
    writer: Writer,
    rx: Receiver,
    out: NicOutputs,
    cycle: u64,
}

impl Nic {
    /// The NIC of a validated configuration with a `[nic]` section (panics
    /// without one: validation is the caller's, before any work).
    pub fn new(cfg: &RouterConfig) -> Self {
        let p = Params::new(cfg);
        let mut n = Nic {
            regs: Regs::default(),
            doorbells: Doorbells::new(&p),
            send: SendEngine::default(),
            sendq: SendQueues::new(&p),
            inject: Injector::new(&p),
            writer: Writer::default(),
            rx: Receiver::new(&p),
            out: NicOutputs::default(),
            cycle: 0,
            p,
        };
        n.reset();
        n
    }

    /// Synchronous reset: every register takes its reset value.
    pub fn reset(&mut self) {
        self.regs.reset();
        self.doorbells.reset();
        self.send.reset();
        self.sendq.reset();
        self.inject.reset(&self.p);
        self.writer.reset();
        self.rx.reset();
        self.cycle = 0;
        self.refresh_outputs();
    }

    /// Cycles since the last reset.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The registered outputs of the current cycle (`axil.awready` and
    /// `axil.wready` as of the last [`Self::settle`], 0 after a `step`).
    pub fn outputs(&self) -> &NicOutputs {
        &self.out
    }

    /// The outputs of the current cycle given its inputs: the registered
    /// ones and `awready = wready = awvalid & wvalid & !bvalid` (§5.2).
    pub fn settle(&mut self, i: &NicInputs) -> &NicOutputs {
        let r = self.regs.write_ready(&i.axil);
        self.out.axil.awready = r;
        self.out.axil.wready = r;
        &self.out
    }

    fn live(&self) -> Live {
        Live {
            tx_busy: self.send.state != TxState::Idle,
            rx_busy: self.rx.state != RxState::Idle,
            db_pending: self.doorbells.pending(),
            rxc: self.rx.cpls.front().copied(),
        }
    }

    /// The rising edge that ends the current cycle.
    pub fn step(&mut self, i: &NicInputs) {
        let p = &self.p;
        // Start-of-cycle values that more than one component reads.
        let flits_full = self.sendq.flits_full();
        let pending_full = self.sendq.pending_full();
        let rx_sample = RxSample { post_empty: self.rx.posts.is_empty(), cpl_full: self.rx.cpls.is_full() };
        let post_full = self.rx.posts.is_full();
        let cpl_empty = self.rx.cpls.is_empty();
        let tx_idle = self.send.state == TxState::Idle;
        let (tx_en, rx_en, node_id) = (self.regs.tx_enabled(), self.regs.rx_enabled(), self.regs.node_id);

        // AXI4-Lite read: the value at the start of the cycle.
        let read = self.regs.read_ready(&i.axil).then(|| self.regs.read(p, i.axil.araddr, &self.live()));
        // AXI4-Lite write: decoded now, queue effects below.
        let write = self.regs.write_ready(&i.axil).then(|| (regs::decode(i.axil.awaddr, p.classes), i.axil.wdata));
        let db_rejected = match write {
            Some((Some(Reg::Doorbell(c)), _)) => self.doorbells.is_full(c),
            _ => false,
        };

        // The write engine first: it reads the clients' start-of-cycle state.
        let req = Requests { send_error: self.send.error_request(), receive: self.rx.write_request(p) };
        let done = self.writer.step(p, &i.axi, &req, &mut self.sendq);
        if let Some(d) = done.filter(|d| d.client != Client::Receive) {
            self.regs.tx_count = self.regs.tx_count.wrapping_add(1);
            if d.error {
                self.regs.set_status(regs::ST_WB_ERR);
                self.regs.set_irq(regs::IRQ_TX_ERR);
            } else if d.code == 0 {
                self.regs.set_irq(regs::IRQ_TX_DONE);
            } else {
                self.regs.set_irq(regs::IRQ_TX_ERR);
            }
        }
        let error_written = done.is_some_and(|d| d.client == Client::SendError);
        let rx_written = done.filter(|d| d.client == Client::Receive).map(|d| d.error);

        // Injection pops the start-of-cycle queue fronts before the send
        // engine pushes.
        self.inject.step(p, &mut self.sendq, i.inj_credit, i.inj_credit_lanes);

        let selected = if tx_idle && tx_en {
            let available = |d: &Doorbell| {
                let q = p.send_queue_of(d);
                p.doorbell_error(d).is_some() || ((flits_full | pending_full) >> q & 1 == 0)
            };
            self.doorbells.select(p, available)
        } else {
            None
        };
        self.send.step(p, &i.axi, selected, flits_full, &mut self.sendq, node_id, error_written);

        let ev = self.rx.step(p, rx_sample, rx_en, rx_written, &i.ej);
        if ev.dropped {
            self.regs.set_status(regs::ST_RX_DROP);
            self.regs.set_irq(regs::IRQ_RX_ERR);
        }
        match ev.completed {
            Some(true) => self.regs.set_irq(regs::IRQ_RX_DONE),
            Some(false) => self.regs.set_irq(regs::IRQ_RX_ERR),
            None => {}
        }

        // The AXI4-Lite write's effects, behind this cycle's removals.
        let wresp = write.map(|(reg, wdata)| match reg {
            None => RESP_DECERR,
            Some(Reg::Doorbell(c)) => {
                if db_rejected {
                    self.regs.set_status(regs::ST_DB_OVF);
                    self.regs.set_irq(regs::IRQ_OVF);
                    RESP_SLVERR
                } else {
                    self.doorbells.push(Doorbell::from_word(wdata, c));
                    RESP_OKAY
                }
            }
            Some(Reg::RxPostAddr) => {
                if post_full {
                    self.regs.set_status(regs::ST_POST_OVF);
                    self.regs.set_irq(regs::IRQ_OVF);
                    RESP_SLVERR
                } else {
                    let addr = wdata & !(self.p.bb - 1);
                    self.rx.posts.push(receive::Post { addr, len: self.regs.post_len });
                    RESP_OKAY
                }
            }
            Some(Reg::RxcPop) => {
                if !cpl_empty {
                    self.rx.cpls.pop();
                }
                RESP_OKAY
            }
            Some(r) => {
                self.regs.write(&self.p, r, wdata);
                RESP_OKAY
            }
        });
        self.regs.end_cycle(&i.axil, wresp, read);
        self.cycle += 1;
        self.refresh_outputs();
    }

    /// The registered outputs from the state at the start of the next cycle.
    fn refresh_outputs(&mut self) {
        let p = &self.p;
        let mut axi = AxiOut::default();
        self.send.outputs(p, self.sendq.flits_full(), &mut axi);
        self.writer.outputs(p, &mut axi);
        self.out = NicOutputs {
            irq: self.regs.irq(),
            axil: self.regs.outputs(),
            axi,
            inj: *self.inject.link(),
            ej_credit: self.rx.credit_out(),
            ej_credit_lanes: self.rx.credit_lanes_out(),
        };
    }
}

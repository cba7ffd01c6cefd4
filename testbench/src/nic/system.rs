//! The system top (router + one NIC per port, docs/nic.md §16) driven from
//! its host ports: per port a host memory (AXI4 slave with random
//! backpressure and protocol checks) and an AXI4-Lite master running a
//! host program that sends messages to random ports with random
//! descriptors (some malformed), keeps receive buffers posted, and polls
//! and pops receive completions. Run against one system or several in
//! lockstep (every port's host outputs compared every cycle).
//!
//! Conservation, end to end and written from docs/nic.md: every send
//! completes with the status its descriptor calls for (§7.3 codes), every
//! well-formed message arrives exactly once at its destination port,
//! intact (length, source, class, every payload byte), and nothing else
//! arrives.

use super::host::{AxiLiteMaster, LiteAnswer, LiteOp};
use super::driver::{NicRunOptions, Tag, MEM_SIZE, PAY_BASE, RX_BASE};
use super::memory::{HostMemory, SLVERR};
use super::regmap::*;
use anyhow::{bail, ensure, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::fmt;
use wormqos_config::{RouterConfig, RouterMode};
use wormqos_sim::nic::system::{HostIn, HostOut, NicSystem};

/// A system top that behaves like docs/nic.md §16 for one cycle at a time.
pub trait SystemDut {
    fn reset(&mut self);
    /// The host outputs of every port for this cycle's host inputs.
    fn eval(&mut self, host: &[HostIn]) -> Vec<HostOut>;
    /// The rising edge that ends the cycle.
    fn step(&mut self, host: &[HostIn]);
    fn check_failed(&self) -> bool {
        false
    }
}

impl<F: wormqos_sim::nic::system::Fabric> SystemDut for NicSystem<F> {
    fn reset(&mut self) {
        NicSystem::reset(self)
    }
    fn eval(&mut self, host: &[HostIn]) -> Vec<HostOut> {
        self.settle(host)
    }
    fn step(&mut self, host: &[HostIn]) {
        NicSystem::step(self, host)
    }
    /// The router dropped a flit: a NIC sent without a credit.
    fn check_failed(&self) -> bool {
        self.flits_dropped() > 0
    }
}

/// Status word of a completed send (docs/nic.md §7.1: `[31]` DONE, `[3:0]` code).
const DONE: u32 = 1 << 31;
/// Send status codes of docs/nic.md §13 that the host program provokes.
const LEN_ZERO: u32 = 1;
const LEN_OVER: u32 = 2;
const LEN_NOT_BEATS: u32 = 3;
const DEST_RANGE: u32 = 4;
const PAYLOAD_ALIGN: u32 = 6;

/// Descriptor and receive-buffer slots per port (in the memory map of
/// [`super::driver`]: descriptors from 0, payloads from `PAY_BASE`, receive
/// buffers from `RX_BASE`).
const DESC_SLOTS: u32 = 512;
const RX_SLOTS: u32 = 64;

/// The run's options: [`NicRunOptions`]' `cycles`, `seed`, `backpressure`,
/// `send_rate` (per port), `malformed`, `max_flits` and `drain_limit`.
pub type SystemRunOptions = NicRunOptions;

#[derive(Clone, Debug, Default)]
pub struct SystemReport {
    pub cycles: u64,
    pub compared: u64,
    /// Completed sends by status code.
    pub sends_by_code: [u64; 16],
    pub messages_received: u64,
    pub doorbells_rejected: u64,
}

impl fmt::Display for SystemReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cycles ({} compared), sends by code {:?}, {} messages received intact, {} doorbells rejected and rung again",
            self.cycles, self.compared, self.sends_by_code, self.messages_received, self.doorbells_rejected
        )
    }
}

/// One send: what the host asked for and what must come of it.
struct Send {
    src: usize,
    desc: u32,
    class: u32,
    dest: u32,
    word: u32,
    payload: Vec<u8>,
    code: u32,
    completed: bool,
    received: bool,
}

/// One port's host: memory, AXI4-Lite master and program state.
struct Port {
    mem: HostMemory,
    host: AxiLiteMaster,
    tags: Vec<Tag>,
    free_desc: VecDeque<u32>,
    /// Sends whose status word is not yet DONE.
    waiting: Vec<usize>,
    retry: VecDeque<(u64, usize)>,
    free_rx: VecDeque<u32>,
    posts_out: u32,
    polling: bool,
    rxc: (u32, u32, u32),
}

impl Port {
    fn op(&mut self, tag: Tag, op: LiteOp) {
        self.tags.push(tag);
        self.host.push(self.tags.len() as u64 - 1, op);
    }
}

struct Env {
    rng: SmallRng,
    opts: SystemRunOptions,
    ports: Vec<Port>,
    sends: Vec<Send>,
    bb: u32,
    kmax: u32,
    /// The NIC's K_max (docs/nic.md §2): a longer message is LEN_OVER,
    /// whatever `kmax` (the longest message sent) is.
    nic_kmax: u32,
    rx_len: u32,
    post_depth: u32,
    classes: u32,
    vcs: u32,
    vc_class: Vec<u32>,
    report: SystemReport,
}

impl Env {
    /// A new send from port p with a random descriptor, one defect at most.
    fn new_send(&mut self, p: usize) {
        let Some(desc) = self.ports[p].free_desc.pop_front() else { return };
        let r = &mut self.rng;
        let class = r.gen_range(0..self.classes);
        let own: Vec<u32> = (0..self.vcs).filter(|&v| self.vc_class.get(v as usize).is_none_or(|&c| c == class)).collect();
        let vc = own[r.gen_range(0..own.len())];
        let k = r.gen_range(1..=self.kmax);
        let id = self.sends.len() as u32 + 1;
        let mut payload: Vec<u8> = (0..k * self.bb).map(|_| r.gen()).collect();
        payload[..4].copy_from_slice(&id.to_le_bytes());
        let slot = (desc / 32) * self.kmax * self.bb;
        let (mut addr, mut length, mut dest, mut code) = (PAY_BASE + slot, k * self.bb, r.gen_range(0..self.ports.len() as u32), 0);
        if r.gen_bool(self.opts.malformed) {
            (length, addr, dest, code) = match r.gen_range(0..5) {
                0 => (0, addr, dest, LEN_ZERO),
                1 => (length + 1 + r.gen_range(0..self.bb - 1), addr, dest, LEN_NOT_BEATS),
                2 => ((self.nic_kmax + 1) * self.bb, addr, dest, LEN_OVER),
                3 => (length, addr, self.ports.len() as u32 + r.gen_range(0..4), DEST_RANGE),
                _ => (length, addr + 1 + r.gen_range(0..self.bb - 1), dest, PAYLOAD_ALIGN),
            };
        }
        let vtick = r.gen_range(0..300u32);
        let port = &mut self.ports[p];
        port.mem.write_bytes(PAY_BASE + slot, &payload);
        for (o, v) in [dest, vtick, length, addr, 0].into_iter().enumerate() {
            port.mem.write_u32(desc + 4 * o as u32, v);
        }
        let word = desc | vc;
        let i = self.sends.len();
        self.sends.push(Send { src: p, desc, class, dest, word, payload, code, completed: false, received: false });
        port.waiting.push(i);
        port.op(Tag::Doorbell(i), LiteOp::Write { addr: DB + 4 * class, data: word });
    }

    /// Port p's host in one cycle.
    fn work(&mut self, p: usize, cycle: u64) {
        let active = cycle < self.opts.cycles;
        if active && self.ports[p].waiting.len() < 12 && self.rng.gen_bool(self.opts.send_rate) {
            self.new_send(p);
        }
        let (rx_len, depth) = (self.rx_len, self.post_depth);
        let port = &mut self.ports[p];
        while port.retry.front().is_some_and(|&(c, _)| c <= cycle) {
            let (_, i) = port.retry.pop_front().unwrap();
            let s = &self.sends[i];
            port.op(Tag::Doorbell(i), LiteOp::Write { addr: DB + 4 * s.class, data: s.word });
        }
        if port.posts_out < depth {
            if let Some(slot) = port.free_rx.pop_front() {
                port.posts_out += 1;
                port.op(Tag::Post(slot), LiteOp::Write { addr: RX_POST_ADDR, data: slot });
                let _ = rx_len;
            }
        }
        if !port.polling && self.rng.gen_bool(0.1) {
            port.polling = true;
            port.op(Tag::RxcInfo, LiteOp::Read { addr: RXC_INFO });
        }
        // Completions: the status word of a waiting send turns DONE.
        let mut still = Vec::new();
        for i in std::mem::take(&mut port.waiting) {
            let s = &mut self.sends[i];
            let status = port.mem.read_u32(s.desc + 16);
            if status & DONE == 0 {
                still.push(i);
                continue;
            }
            s.completed = true;
            self.report.sends_by_code[(status & 0xF) as usize] += 1;
            if status != DONE | s.code {
                port.mem.violations.push(format!("port {p}: send {i} completed with status {status:#x}, expected {:#x}", DONE | s.code));
            }
            port.free_desc.push_back(s.desc);
        }
        port.waiting = still;
    }

    /// Port p's host reacts to one answer.
    fn answer(&mut self, p: usize, a: LiteAnswer) -> Result<()> {
        let port = &mut self.ports[p];
        match port.tags[a.tag as usize] {
            Tag::Setup => ensure!(a.resp == 0, "setup write answered {:#b}", a.resp),
            Tag::Doorbell(i) if a.resp == SLVERR => {
                self.report.doorbells_rejected += 1;
                port.retry.push_back((a.cycle + 20, i));
            }
            Tag::Doorbell(_) => ensure!(a.resp == 0, "a doorbell answered {:#b}", a.resp),
            Tag::Post(slot) => {
                ensure!(a.resp == 0, "a post answered {:#b} with at most rx_post_depth posted", a.resp);
                for x in (slot..slot + self.rx_len).step_by(4) {
                    port.mem.write_u32(x, 0);
                }
            }
            Tag::RxcInfo if a.data >> 31 == 1 => {
                port.rxc.0 = a.data;
                port.op(Tag::RxcLen, LiteOp::Read { addr: RXC_LEN });
                port.op(Tag::RxcAddr, LiteOp::Read { addr: RXC_ADDR });
            }
            Tag::RxcInfo => {
                ensure!(a.data == 0, "RXC_INFO {:#x} without VALID", a.data);
                port.polling = false;
            }
            Tag::RxcLen => port.rxc.1 = a.data,
            Tag::RxcAddr => {
                port.rxc.2 = a.data;
                self.received(p)?;
                let port = &mut self.ports[p];
                port.op(Tag::RxcPop(a.data), LiteOp::Write { addr: RXC_POP, data: 0 });
            }
            Tag::RxcPop(addr) => {
                ensure!(a.resp == 0, "RXC_POP answered {:#b}", a.resp);
                port.free_rx.push_back(addr);
                port.posts_out -= 1;
                port.polling = false;
            }
            t => bail!("{t:?}: not used by the system's host program"),
        }
        Ok(())
    }

    /// A receive completion at port p (docs/nic.md §11.4): it must be a
    /// well-formed send to p, not received before, intact.
    fn received(&mut self, p: usize) -> Result<()> {
        let port = &self.ports[p];
        let (info, len, addr) = port.rxc;
        let (status, class, src) = (info >> 24 & 0xF, info >> 16 & 0xFF, info & 0xFFFF);
        ensure!(status == 0, "port {p}: receive completion {info:#x} with status {status}");
        let id = port.mem.read_u32(addr) as usize;
        ensure!((1..=self.sends.len()).contains(&id), "port {p}: buffer {addr:#x} holds no message id ({id:#x})");
        let s = &mut self.sends[id - 1];
        let what = format!("port {p}: message {} from port {} (RXC src {src}, class {class}, len {len})", id - 1, s.src);
        ensure!(s.code == 0 && s.dest as usize == p, "{what}: not a well-formed send to this port");
        ensure!(!s.received, "{what}: received twice");
        ensure!(src as usize == s.src && class == s.class && len as usize == s.payload.len(), "{what}: expected src {}, class {}, len {}", s.src, s.class, s.payload.len());
        for (k, &b) in s.payload.iter().enumerate() {
            let got = port.mem.read_u32(addr + (k as u32 & !3)) >> (8 * (k % 4)) & 0xFF;
            ensure!(got == b as u32, "{what}: byte {k} is {got:#x}, sent {b:#x}");
        }
        s.received = true;
        self.report.messages_received += 1;
        Ok(())
    }

    fn settled(&self) -> bool {
        self.sends.iter().all(|s| s.completed && (s.code != 0 || s.received))
            && self.ports.iter().all(|p| p.host.idle() && p.retry.is_empty() && !p.mem.busy())
    }
}

fn differ(a: &[HostOut], b: &[HostOut]) -> String {
    let k = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
    let (fa, fb) = (format!("{:#?}", a[k]), format!("{:#?}", b[k]));
    let d: Vec<String> = fa.lines().zip(fb.lines()).filter(|(x, y)| x != y).map(|(x, y)| format!("{}  vs  {}", x.trim(), y.trim())).collect();
    format!("port {k}: {}", d.join("; "))
}

/// Runs the hosts against `duts[0]` (whose outputs drive them) and compares
/// every other device's host outputs with it every cycle. Fails on the
/// first mismatch, protocol violation, device check or conservation error.
pub fn run_system(cfg: &RouterConfig, duts: &mut [&mut dyn SystemDut], opts: &SystemRunOptions) -> Result<SystemReport> {
    let nic = cfg.nic().expect("a [nic] section");
    let n = cfg.ports();
    let bb = nic.beat_bytes();
    let kmax = nic.max_message_flits.min(opts.max_flits).max(1);
    let rx_len = kmax * bb;
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    let mut ports = Vec::with_capacity(n);
    for _ in 0..n {
        let mut port = Port {
            mem: HostMemory::new(MEM_SIZE as usize, bb, opts.backpressure, rng.gen()),
            host: AxiLiteMaster::new(rng.gen(), 0.7),
            tags: Vec::new(),
            free_desc: (0..DESC_SLOTS).map(|s| 32 * s).collect(),
            waiting: Vec::new(),
            retry: VecDeque::new(),
            free_rx: (0..RX_SLOTS).map(|s| RX_BASE + s * rx_len.next_multiple_of(64)).collect(),
            posts_out: 0,
            polling: false,
            rxc: (0, 0, 0),
        };
        let k = ports.len() as u32;
        for (a, d) in [(NODE_ID, k), (IRQ_ENABLE, 0x1F), (RX_POST_LEN, rx_len), (CONTROL, 3)] {
            port.op(Tag::Setup, LiteOp::Write { addr: a, data: d });
        }
        ports.push(port);
    }
    let partitioned = matches!(cfg.mode(), RouterMode::Traditional | RouterMode::NonPreemptive);
    let mut env = Env {
        rng: SmallRng::seed_from_u64(rng.gen()),
        opts: opts.clone(),
        ports,
        sends: Vec::new(),
        bb,
        kmax,
        nic_kmax: nic.max_message_flits,
        rx_len,
        post_depth: nic.rx_post_depth,
        classes: cfg.traffic_classes(),
        vcs: cfg.vcs() as u32,
        vc_class: if partitioned { cfg.vc_classes().unwrap_or(&[]).to_vec() } else { Vec::new() },
        report: SystemReport::default(),
    };
    for d in duts.iter_mut() {
        d.reset();
    }
    let mut cycle = 0u64;
    loop {
        for p in 0..n {
            env.work(p, cycle);
        }
        let inputs: Vec<HostIn> = env.ports.iter_mut().map(|p| HostIn { axil: p.host.drive(), axi: p.mem.drive() }).collect();
        let o = duts[0].eval(&inputs);
        for (k, d) in duts.iter_mut().enumerate().skip(1) {
            let ok = d.eval(&inputs);
            if ok != o {
                bail!("cycle {cycle}: host outputs of device {k} differ from device 0: {}", differ(&ok, &o));
            }
        }
        if duts.len() > 1 {
            env.report.compared += 1;
        }
        if let Some(k) = duts.iter().position(|d| d.check_failed()) {
            bail!("cycle {cycle}: device {k}'s own check failed");
        }
        for (p, port) in env.ports.iter_mut().enumerate() {
            port.host.edge(cycle, &o[p].axil);
            port.mem.edge(cycle, &o[p].axi);
        }
        for d in duts.iter_mut() {
            d.step(&inputs);
        }
        for p in 0..n {
            while let Some(a) = env.ports[p].host.answers.pop_front() {
                env.answer(p, a).map_err(|e| e.context(format!("cycle {cycle}, port {p}")))?;
            }
            let port = &env.ports[p];
            if let Some(v) = port.mem.violations.iter().chain(&port.host.violations).next() {
                bail!("cycle {cycle}, port {p}: {v}");
            }
        }
        cycle += 1;
        if cycle >= opts.cycles && env.settled() {
            break;
        }
        if cycle > opts.cycles + opts.drain_limit {
            let open = env.sends.iter().filter(|s| !s.completed || (s.code == 0 && !s.received)).count();
            bail!("did not drain in {} cycles: {open} of {} sends not completed or not received", opts.drain_limit, env.sends.len());
        }
    }
    env.report.cycles = cycle;
    Ok(env.report)
}

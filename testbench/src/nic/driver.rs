//! The driver: a host program (sends with random descriptors, some
//! malformed; receive buffers posted; receive completions polled and
//! popped; overflow status checked and cleared), the host memory, the
//! AXI4-Lite master and the router peer, run against one NIC or several
//! in lockstep (every output compared every cycle), then drained and
//! checked by the scoreboard.

use super::host::{AxiLiteMaster, LiteAnswer, LiteOp};
use super::memory::{Backpressure, HostMemory, DECERR, SLVERR};
use super::peer::RouterPeer;
use super::scoreboard::{Counts, RecvMessage, Scoreboard, SendJob};
use super::NicDut;
use anyhow::{bail, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::fmt;
use wormqos_config::{RouterConfig, RouterMode};
use super::regmap::*;
use wormqos_sim::nic::{NicInputs, NicOutputs};
use wormqos_sim::LinkFlit;

/// Host memory map of the run (the system driver's too).
pub(crate) const MEM_SIZE: u32 = 0x10_0000;
const DESC_BASE: u32 = 0x0000;
const DESC_SLOTS: u32 = 2048;
pub(crate) const PAY_BASE: u32 = 0x1_0000;
const PAY_END: u32 = 0x8_0000;
pub(crate) const RX_BASE: u32 = 0x8_0000;

#[derive(Clone, Debug)]
pub struct NicRunOptions {
    /// Cycles with new work; then the run drains.
    pub cycles: u64,
    pub seed: u64,
    pub backpressure: Backpressure,
    /// Per cycle: probability of a new send / a new received message.
    pub send_rate: f64,
    pub recv_rate: f64,
    /// Share of sends that are malformed in some way.
    pub malformed: f64,
    /// Most payload flits of a random message (also capped by K_max).
    pub max_flits: u32,
    /// Cycles allowed for draining.
    pub drain_limit: u64,
    /// Largest delay of the router's injection credits (cycles): long
    /// delays fill the NIC's VC queues (HoL skips, blocked injection).
    pub credit_delay: u32,
    /// The receive-side faults of docs/nic.md §11 and §13: receive buffers
    /// whose second beat answers SLVERR / DECERR (`RX_WR_ERR`), body flits
    /// sent with index 0 (`RX_OVERFLOW`), stray flits on a VC >= M and, in
    /// windows with the receive engine off, to a full FIFO (`RX_DROP`).
    pub rx_faults: bool,
}

impl Default for NicRunOptions {
    fn default() -> Self {
        NicRunOptions {
            cycles: 20_000,
            seed: 1,
            backpressure: Backpressure::RANDOM,
            send_rate: 0.05,
            recv_rate: 0.05,
            malformed: 0.2,
            max_flits: 12,
            drain_limit: 50_000,
            credit_delay: 6,
            rx_faults: true,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct NicReport {
    pub cycles: u64,
    /// Cycles in which every device's outputs were compared (lockstep).
    pub compared: u64,
    pub counts: Counts,
    pub flits_injected: u64,
    pub flits_ejected: u64,
    /// Flits the peer sent that the NIC had to drop: on a VC >= M, to a full FIFO.
    pub strays: (u64, u64),
}

impl fmt::Display for NicReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counts;
        write!(
            f,
            "{} cycles ({} compared), sends by code {:?}, {} doorbells rejected, {} status writes failed, {} messages / {} flits injected, received by status {:?}, {} posts rejected, {} flits ejected, {} with an index-0 flit, dropped {} on a VC >= M and {} on a full FIFO",
            self.cycles,
            self.compared,
            c.sends_by_code,
            c.sends_rejected,
            c.status_write_errors,
            c.messages_injected,
            self.flits_injected,
            c.received_by_status,
            c.posts_rejected,
            self.flits_ejected,
            c.zero_index_messages,
            self.strays.0,
            self.strays.1
        )
    }
}

/// What an AXI4-Lite answer belongs to (the system driver uses the first seven).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Setup,
    Doorbell(usize),
    Post(u32),
    RxcInfo,
    RxcLen,
    RxcAddr,
    RxcPop(u32),
    /// The STATUS read after a rejection or a dropped flit: `bit` must be
    /// set; then that bit alone is cleared (W1C).
    OverflowSeen(u32),
    OverflowCleared(u32),
    /// `CONTROL` := TX_EN only, then both again (an overrun window).
    RxOff,
    RxOn,
    FinalTxCount,
    FinalStatus,
    FinalIrq,
}

struct Program {
    rng: SmallRng,
    opts: NicRunOptions,
    vcs: u32,
    classes: u32,
    endpoints: u32,
    vtick_width: u32,
    bb: u32,
    max_flits: u32,
    contexts: usize,
    post_depth: u32,
    vc_class: Vec<u32>,
    preemptive: bool,
    tags: Vec<Tag>,
    free_desc: VecDeque<u32>,
    retry: VecDeque<(u64, usize)>,
    sends_waiting: usize,
    free_rx: VecDeque<u32>,
    posts_out: u32,
    seq_of_src: Vec<u8>,
    rx_started: usize,
    rx_done: usize,
    polling: bool,
    rxc: (u32, u32, u32),
    /// STATUS bits whose check (read, then clear) is under way: an event of
    /// such a bit meanwhile is not checked on its own (the clear may erase it).
    status_checks: u32,
    /// Stray flits of the peer already checked for.
    strays_seen: u64,
    /// Overrun window: `None` closed, `Some(None)` RX_EN being cleared,
    /// `Some(Some(c))` RX_EN off since the answer in cycle c.
    rx_off: Option<Option<u64>>,
    finals: Vec<(Tag, u32)>,
}

impl Program {
    fn op(&mut self, host: &mut AxiLiteMaster, tag: Tag, op: LiteOp) {
        self.tags.push(tag);
        host.push(self.tags.len() as u64 - 1, op);
    }

    /// A new send with a random descriptor.
    fn new_send(&mut self, sb: &mut Scoreboard, mem: &mut HostMemory, host: &mut AxiLiteMaster) {
        let Some(desc) = self.free_desc.pop_front() else { return };
        let r = &mut self.rng;
        let class = r.gen_range(0..self.classes);
        let own: Vec<u32> = (0..self.vcs).filter(|&v| self.vc_class.get(v as usize).is_none_or(|&c| c == class)).collect();
        let mut vc = own[r.gen_range(0..own.len())];
        let k = r.gen_range(1..=self.max_flits.min(self.opts.max_flits));
        let mut length = k * self.bb;
        let mut payload = PAY_BASE + r.gen_range(0..(PAY_END - PAY_BASE - length) / self.bb) * self.bb;
        if r.gen_bool(0.03) {
            payload = MEM_SIZE + r.gen_range(0..0x1000) * self.bb; // unmapped: DECERR on every beat
        }
        let mut dest = r.gen_range(0..self.endpoints);
        let vmax = (1u64 << self.vtick_width) - 1;
        let mut vtick = match r.gen_range(0..4) {
            0 => 0,
            1 => vmax as u32,
            _ => r.gen_range(1..=vmax.saturating_sub(1).clamp(1, 300)) as u32,
        };
        let mut bad = false;
        if r.gen_bool(self.opts.malformed) {
            match r.gen_range(0..9) {
                0 => length = 0,
                1 => length += 1 + r.gen_range(0..self.bb - 1),
                2 => length = (self.max_flits + 1 + r.gen_range(0..4)) * self.bb,
                3 => dest = self.endpoints + r.gen_range(0..4),
                4 if self.vtick_width < 32 => vtick = (vmax + 1) as u32,
                5 => payload += 1 + r.gen_range(0..self.bb - 1),
                6 => bad = true,
                7 if self.vcs < 16 => vc = r.gen_range(self.vcs..16),
                8 if own.len() < self.vcs as usize => {
                    let other: Vec<u32> = (0..self.vcs).filter(|v| !own.contains(v)).collect();
                    vc = other[r.gen_range(0..other.len())];
                }
                _ => {}
            }
        }
        for (o, v) in [dest, vtick, length, payload, 0, 0xAAAA_AAAA].into_iter().enumerate() {
            mem.write_u32(desc + 4 * o as u32, v);
        }
        let word = desc | (bad as u32) << 4 | vc;
        let job = SendJob::new(desc, word, class, vc, dest, vtick, length, payload);
        let i = sb.add_job(job, mem);
        self.sends_waiting += 1;
        self.op(host, Tag::Doorbell(i), LiteOp::Write { addr: DB + 4 * class, data: word });
    }

    /// A new message towards the NIC, in parts with dummy flits in P mode.
    fn new_message(&mut self, sb: &mut Scoreboard, peer: &mut RouterPeer) {
        let r = &mut self.rng;
        let id = sb.messages.len() as u64;
        let src = r.gen_range(0..self.endpoints);
        let seq = self.seq_of_src[src as usize];
        self.seq_of_src[src as usize] = seq.wrapping_add(1);
        let class = r.gen_range(0..self.classes);
        let k = r.gen_range(1..=self.max_flits.min(self.opts.max_flits));
        let mask = if self.bb == 8 { u64::MAX } else { (1u64 << (8 * self.bb)) - 1 };
        let beats: Vec<u64> = (0..k).map(|i| if i == 0 { id } else { r.gen::<u64>() & mask }).collect();
        let mut poisoned = Vec::new();
        if k >= 2 && k * self.bb <= sb.rx_len && r.gen_bool(0.1) {
            poisoned.push(r.gen_range(2..=k));
        }
        // A body flit other than the first and the tail (whose index is the
        // message's length) with index field 0.
        let mut zero_index = Vec::new();
        if self.opts.rx_faults && k >= 3 && r.gen_bool(0.08) {
            zero_index.push(r.gen_range(2..k));
        }
        let l = sb.layout;
        let hdr = l.header_flit(r.gen_range(0..self.endpoints) as u64, class as u64, r.gen_range(0..100), src as u64, seq as u64);
        let bodies: Vec<LinkFlit> = (1..=k)
            .map(|i| {
                let index = if zero_index.contains(&i) { 0 } else { i as u64 };
                l.body_flit(index, src as u64, seq as u64, poisoned.contains(&i), beats[i as usize - 1], i == k)
            })
            .collect();
        let parts = if self.preemptive { r.gen_range(1..=k.min(3)) as usize } else { 1 };
        let mut cuts: Vec<usize> = (1..k as usize).collect();
        while cuts.len() > parts - 1 {
            cuts.remove(r.gen_range(0..cuts.len()));
        }
        cuts.insert(0, 0);
        cuts.push(k as usize);
        let mut flits_of: Vec<Vec<LinkFlit>> = Vec::new();
        for p in 0..parts {
            let mut v = vec![if p == 0 { hdr } else { LinkFlit { dummy: true, ..hdr } }];
            v.extend_from_slice(&bodies[cuts[p]..cuts[p + 1]]);
            if p + 1 < parts {
                v.push(LinkFlit { lane: 0, valid: true, tail: true, dummy: true, ..LinkFlit::IDLE });
            }
            flits_of.push(v);
        }
        // Parts in any order, each on a random VC.
        while !flits_of.is_empty() {
            let part = flits_of.remove(r.gen_range(0..flits_of.len()));
            let vc = r.gen_range(0..self.vcs) as usize;
            peer.ej_queues[vc].extend(part);
        }
        sb.messages.push(RecvMessage { src, class, beats, poisoned, zero_index, in_order: parts == 1, done: false });
        self.rx_started += 1;
    }

    /// The host's work in one cycle.
    fn work(&mut self, cycle: u64, sb: &mut Scoreboard, mem: &mut HostMemory, host: &mut AxiLiteMaster, peer: &mut RouterPeer) {
        let active = cycle < self.opts.cycles;
        while self.retry.front().is_some_and(|&(c, _)| c <= cycle) {
            let (_, i) = self.retry.pop_front().unwrap();
            let j = &sb.jobs[i];
            let (class, word) = (j.class, j.word);
            self.op(host, Tag::Doorbell(i), LiteOp::Write { addr: DB + 4 * class, data: word });
        }
        if active && self.sends_waiting < 16 && self.rng.gen_bool(self.opts.send_rate) {
            self.new_send(sb, mem, host);
        }
        if active
            && self.rx_started - self.rx_done < self.contexts
            && peer.ej_pending() < 48
            && self.rng.gen_bool(self.opts.recv_rate)
        {
            self.new_message(sb, peer);
        }
        // Keep buffers posted, sometimes one more than the queue holds.
        if self.posts_out < self.post_depth + 1 && self.rng.gen_bool(0.2) {
            if let Some(slot) = self.free_rx.pop_front() {
                for a in (slot..slot + sb.rx_len).step_by(4) {
                    mem.write_u32(a, 0);
                }
                self.posts_out += 1;
                let low = self.rng.gen_range(0..self.bb);
                self.op(host, Tag::Post(slot), LiteOp::Write { addr: RX_POST_ADDR, data: slot | low });
            }
        }
        if !self.polling && self.rx_done < self.rx_started && self.rng.gen_bool(0.2) {
            self.polling = true;
            self.op(host, Tag::RxcInfo, LiteOp::Read { addr: RXC_INFO });
        }
        self.overrun_window(cycle, host, peer);
        // A flit the NIC had to drop shows in STATUS.RX_DROP (docs/nic.md §11.1).
        let strays = peer.strays_bad_vc + peer.strays_overrun;
        if strays > self.strays_seen {
            self.strays_seen = strays;
            self.overflow(host, 3);
        }
    }

    /// Every 2,500 cycles of work the receive engine is switched off
    /// (`CONTROL` = TX_EN) until the peer has overrun a full FIFO or 300
    /// cycles passed. Once the write is answered no FIFO is popped any more
    /// and every credit of the last pop is back at the peer (the pop is in
    /// the write's cycle at the latest, its credit one cycle later, the
    /// answer no earlier), so a VC with no credit left has a full FIFO.
    fn overrun_window(&mut self, cycle: u64, host: &mut AxiLiteMaster, peer: &mut RouterPeer) {
        if !self.opts.rx_faults {
            return;
        }
        match self.rx_off {
            None if cycle < self.opts.cycles && cycle % 2_500 == 1_250 => {
                self.rx_off = Some(None);
                self.op(host, Tag::RxOff, LiteOp::Write { addr: CONTROL, data: 1 });
            }
            Some(Some(since)) if !peer.overrun_armed || cycle > since + 300 => {
                peer.overrun_armed = false;
                self.rx_off = None;
                self.op(host, Tag::RxOn, LiteOp::Write { addr: CONTROL, data: 3 });
            }
            _ => {}
        }
    }

    fn overflow(&mut self, host: &mut AxiLiteMaster, bit: u32) {
        if self.status_checks >> bit & 1 == 0 {
            self.status_checks |= 1 << bit;
            self.op(host, Tag::OverflowSeen(bit), LiteOp::Read { addr: STATUS });
        }
    }

    /// The host reacts to one answer.
    fn answer(&mut self, a: LiteAnswer, sb: &mut Scoreboard, mem: &HostMemory, host: &mut AxiLiteMaster, peer: &mut RouterPeer) -> Result<()> {
        let tag = self.tags[a.tag as usize];
        match tag {
            Tag::Setup => ensure(a.resp == 0, format!("setup write answered {:#b}", a.resp))?,
            Tag::Doorbell(i) => {
                sb.doorbell_answer(i, a.resp);
                if a.resp == SLVERR {
                    self.retry.push_back((a.cycle + 20, i));
                    self.overflow(host, 0);
                } else {
                    self.sends_waiting -= 1;
                }
            }
            Tag::Post(slot) => match a.resp {
                0 => {
                    sb.rx_buffers.insert(slot, true);
                }
                SLVERR => {
                    self.posts_out -= 1;
                    sb.counts.posts_rejected += 1;
                    self.free_rx.push_back(slot);
                    self.overflow(host, 1);
                }
                r => bail!("RX_POST_ADDR answered {r:#b}"),
            },
            Tag::RxcInfo => {
                if a.data >> 31 == 1 {
                    self.rxc.0 = a.data;
                    self.op(host, Tag::RxcLen, LiteOp::Read { addr: RXC_LEN });
                    self.op(host, Tag::RxcAddr, LiteOp::Read { addr: RXC_ADDR });
                } else {
                    ensure(a.data == 0, format!("RXC_INFO {:#x} without VALID", a.data))?;
                    self.polling = false;
                }
            }
            Tag::RxcLen => self.rxc.1 = a.data,
            Tag::RxcAddr => {
                self.rxc.2 = a.data;
                let (info, len, addr) = self.rxc;
                sb.rx_completion(info, len, addr, mem);
                self.op(host, Tag::RxcPop(addr), LiteOp::Write { addr: RXC_POP, data: 0 });
            }
            Tag::RxcPop(addr) => {
                ensure(a.resp == 0, "RXC_POP not OKAY".into())?;
                if sb.rx_buffers.remove(&addr) != Some(true) {
                    bail!("a receive completion names {addr:#x}, not a posted buffer");
                }
                self.free_rx.push_back(addr);
                self.posts_out -= 1;
                self.rx_done += 1;
                self.polling = false;
            }
            Tag::OverflowSeen(bit) => {
                ensure(a.data >> bit & 1 == 1, format!("STATUS {:#x} after a rejected write or a dropped flit: bit {bit} not set", a.data))?;
                self.op(host, Tag::OverflowCleared(bit), LiteOp::Write { addr: STATUS, data: 1 << bit });
            }
            Tag::OverflowCleared(bit) => self.status_checks &= !(1 << bit),
            Tag::RxOff => {
                ensure(a.resp == 0, format!("CONTROL write answered {:#b}", a.resp))?;
                self.rx_off = Some(Some(a.cycle));
                peer.overrun_armed = true;
            }
            Tag::RxOn => ensure(a.resp == 0, format!("CONTROL write answered {:#b}", a.resp))?,
            Tag::FinalTxCount | Tag::FinalStatus | Tag::FinalIrq => self.finals.push((tag, a.data)),
        }
        Ok(())
    }
}

fn ensure(ok: bool, what: String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        bail!(what)
    }
}

fn diff(a: &NicOutputs, b: &NicOutputs) -> String {
    let fa = format!("{a:#?}");
    let fb = format!("{b:#?}");
    fa.lines().zip(fb.lines()).filter(|(x, y)| x != y).map(|(x, y)| format!("{}  vs  {}", x.trim(), y.trim())).collect::<Vec<_>>().join("; ")
}

/// Runs the environment against `duts[0]` (whose outputs drive the
/// environment) and compares every other device's outputs with it every
/// cycle. Fails on the first mismatch, protocol violation or scoreboard error.
pub fn run_nic(cfg: &RouterConfig, duts: &mut [&mut dyn NicDut], opts: &NicRunOptions) -> Result<NicReport> {
    let nic = cfg.nic().expect("a [nic] section");
    let bb = nic.beat_bytes();
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    let mut mem = HostMemory::new(MEM_SIZE as usize, bb, opts.backpressure, rng.gen());
    let mut host = AxiLiteMaster::new(rng.gen(), if opts.backpressure.arready < 1.0 { 0.7 } else { 1.0 });
    let mut peer = RouterPeer::new(cfg.vcs(), cfg.input_buffer_depth() as u32, cfg.downstream_buffer_depth() as u32, rng.gen());
    peer.max_delay = opts.credit_delay;
    let node_id = rng.gen_range(0..cfg.endpoints() as u32);
    let rx_len = bb * nic.max_message_flits.min(opts.max_flits.saturating_sub(2).max(1));
    let mut sb = Scoreboard::new(cfg, node_id, RX_BASE, rx_len);
    // Payload region: random bytes; error windows: SLVERR / DECERR, 64 bytes every 8 KiB.
    let noise: Vec<u8> = (PAY_BASE..PAY_END).map(|_| rng.gen()).collect();
    mem.write_bytes(PAY_BASE, &noise);
    for (n, w) in (PAY_BASE..PAY_END).step_by(0x2000).enumerate() {
        mem.add_error(w + 0x700, w + 0x740, if n % 2 == 0 { SLVERR } else { DECERR });
    }
    // Descriptor slots: every 11th fails its fetch (code 7; SLVERR and
    // DECERR alternately), every 13th its status write.
    let mut free_desc = VecDeque::new();
    for s in 0..DESC_SLOTS {
        let d = DESC_BASE + 32 * s;
        match (s % 11, s % 13) {
            (7, _) => mem.add_error(d + 4, d + 8, if s % 22 == 7 { SLVERR } else { DECERR }),
            (_, 9) => mem.add_error(d + 16, d + 20, DECERR),
            _ => {}
        }
        free_desc.push_back(d);
    }
    let rx_slots = (MEM_SIZE - RX_BASE) / rx_len;
    // Receive buffers: every 5th answers its second beat's write with an
    // error (RX_WR_ERR, docs/nic.md §11.3), SLVERR and DECERR alternately.
    if opts.rx_faults && rx_len >= 2 * bb {
        for n in (3..rx_slots.min(256)).step_by(5) {
            let beat2 = RX_BASE + n * rx_len + bb;
            mem.add_error(beat2, beat2 + bb, if n % 10 == 3 { SLVERR } else { DECERR });
        }
    }
    // Stray flits on the VCs the link can name but the NIC has no FIFO for.
    let vw = cfg.vc_width();
    if opts.rx_faults && (1usize << vw) > cfg.vcs() {
        peer.bad_vcs = cfg.vcs() as u32..1 << vw;
        peer.bad_vc_rate = 0.002;
    }
    let mut p = Program {
        rng: SmallRng::seed_from_u64(rng.gen()),
        opts: opts.clone(),
        vcs: cfg.vcs() as u32,
        classes: cfg.traffic_classes(),
        endpoints: cfg.endpoints() as u32,
        vtick_width: cfg.header().vtick.width,
        bb,
        max_flits: nic.max_message_flits,
        contexts: nic.rx_contexts as usize,
        post_depth: nic.rx_post_depth,
        vc_class: if matches!(cfg.mode(), RouterMode::Traditional | RouterMode::NonPreemptive) {
            cfg.vc_classes().unwrap_or(&[]).to_vec()
        } else {
            Vec::new()
        },
        preemptive: cfg.mode() == RouterMode::Preemptive,
        tags: Vec::new(),
        free_desc,
        retry: VecDeque::new(),
        sends_waiting: 0,
        free_rx: (0..rx_slots.min(256)).map(|n| RX_BASE + n * rx_len).collect(),
        posts_out: 0,
        seq_of_src: vec![0; cfg.endpoints()],
        rx_started: 0,
        rx_done: 0,
        polling: false,
        rxc: (0, 0, 0),
        status_checks: 0,
        strays_seen: 0,
        rx_off: None,
        finals: Vec::new(),
    };
    for (a, d) in [(NODE_ID, node_id), (IRQ_ENABLE, 0x1F), (RX_POST_LEN, rx_len), (CONTROL, 3)] {
        p.op(&mut host, Tag::Setup, LiteOp::Write { addr: a, data: d });
    }
    for d in duts.iter_mut() {
        d.reset();
    }
    let mut report = NicReport::default();
    let mut finishing = false;
    let mut last;
    let mut cycle = 0u64;
    loop {
        p.work(cycle, &mut sb, &mut mem, &mut host, &mut peer);
        let (credit, ej) = peer.drive(cycle);
        let inputs = NicInputs { axil: host.drive(), axi: mem.drive(), inj_credit: credit, inj_credit_lanes: 0, ej };
        let o = duts[0].eval(&inputs);
        for (k, d) in duts.iter_mut().enumerate().skip(1) {
            let ok = d.eval(&inputs);
            if ok != o {
                bail!("cycle {cycle}: outputs of device {k} differ from device 0: {}", diff(&ok, &o));
            }
        }
        if duts.len() > 1 {
            report.compared += 1;
        }
        if let Some(k) = duts.iter().position(|d| d.check_failed()) {
            bail!("cycle {cycle}: device {k}'s own check failed");
        }
        host.edge(cycle, &o.axil);
        mem.edge(cycle, &o.axi);
        peer.edge(cycle, &o.inj, o.ej_credit);
        for d in duts.iter_mut() {
            d.step(&inputs);
        }
        last = o;
        sb.observe(&mem, &peer);
        p.free_desc.extend(sb.finished.drain(..));
        while let Some(a) = host.answers.pop_front() {
            p.answer(a, &mut sb, &mem, &mut host, &mut peer).map_err(|e| e.context(format!("cycle {cycle}")))?;
        }
        let v: Vec<&String> = mem.violations.iter().chain(&host.violations).chain(&peer.violations).chain(&sb.errors).collect();
        if !v.is_empty() {
            bail!("{} problem(s), first: {}", v.len(), v[0]);
        }
        cycle += 1;
        let settled = cycle >= opts.cycles
            && sb.sends_settled()
            && sb.receives_settled()
            && p.retry.is_empty()
            && p.sends_waiting == 0
            && !p.polling
            && peer.ej_pending() == 0
            && !mem.busy()
            && p.rx_off.is_none()
            && peer.credits_home();
        if settled && host.idle() && !finishing {
            finishing = true;
            p.op(&mut host, Tag::FinalTxCount, LiteOp::Read { addr: TX_COUNT });
            p.op(&mut host, Tag::FinalStatus, LiteOp::Read { addr: STATUS });
            p.op(&mut host, Tag::FinalIrq, LiteOp::Read { addr: IRQ_STATUS });
        }
        if finishing && p.finals.len() == 3 {
            break;
        }
        if cycle > opts.cycles + opts.drain_limit {
            bail!(
                "did not drain in {} cycles: sends settled {}, receives settled {} ({} of {}), ejection queue {}, host idle {}, memory busy {}, credits home {}",
                opts.drain_limit,
                sb.sends_settled(),
                sb.receives_settled(),
                p.rx_done,
                p.rx_started,
                peer.ej_pending(),
                host.idle(),
                mem.busy(),
                peer.credits_home()
            );
        }
    }
    // Final register checks (docs/nic.md §5.1, §10, §11.3).
    let get = |t: Tag| p.finals.iter().find(|f| f.0 == t).unwrap().1;
    let c = &sb.counts;
    let accepted = sb.jobs.iter().filter(|j| j.accepted).count() as u32;
    ensure(get(Tag::FinalTxCount) == accepted, format!("TX_COUNT {} after {accepted} accepted sends", get(Tag::FinalTxCount)))?;
    let status = get(Tag::FinalStatus);
    let dropped = peer.strays_bad_vc + peer.strays_overrun;
    let want_status = if c.status_write_errors > 0 { 1 << 2 } else { 0 };
    // Bits 0, 1 and 3 are cleared by the checks above; RX_DROP may stay set
    // only if a flit was dropped.
    ensure(status & !0b1011 == want_status, format!("final STATUS {status:#x}, expected {want_status:#x} (bits 0, 1, 3 aside)"))?;
    ensure(status & 0b1000 == 0 || dropped > 0, format!("final STATUS {status:#x}: RX_DROP without a dropped flit"))?;
    let ok_writes = sb.jobs.iter().any(|j| j.accepted && j.code == 0);
    let irq = get(Tag::FinalIrq);
    let any_err = c.sends_by_code[1..].iter().any(|&n| n > 0) || c.status_write_errors > 0;
    let rx_err = c.received_by_status[1..].iter().any(|&n| n > 0) || dropped > 0;
    // TX_DONE needs a code-0 send whose status write succeeded; with every
    // code-0 status write failed it may be 0, so only its absence is checked.
    ensure(ok_writes || irq & 1 == 0, format!("IRQ_STATUS {irq:#x}: TX_DONE without a successful send"))?;
    ensure((irq >> 1 & 1 == 1) == any_err, format!("IRQ_STATUS {irq:#x}: TX_ERR vs errors {any_err}"))?;
    ensure((irq >> 2 & 1 == 1) == (c.received_by_status[0] > 0), format!("IRQ_STATUS {irq:#x}: RX_DONE"))?;
    ensure((irq >> 3 & 1 == 1) == rx_err, format!("IRQ_STATUS {irq:#x}: RX_ERR"))?;
    ensure((irq >> 4 & 1 == 1) == (c.sends_rejected + c.posts_rejected > 0), format!("IRQ_STATUS {irq:#x}: OVF"))?;
    ensure(last.irq == (irq != 0), format!("irq_o {} with IRQ_STATUS {irq:#x} and every enable set", last.irq))?;
    report.cycles = cycle;
    report.counts = sb.counts.clone();
    report.counts.rx_dropped = dropped;
    report.strays = (peer.strays_bad_vc, peer.strays_overrun);
    report.flits_injected = peer.injected.len() as u64;
    report.flits_ejected = peer.ejected;
    Ok(report)
}

//! The scoreboard: every send completes exactly once with the status code
//! docs/nic.md gives it, after its message's tail left; every sent message
//! is on the injection link whole, in order per VC, with the payload the
//! host memory holds; every received message lands intact in a posted
//! buffer and completes once with the right status, class, source, length
//! and address; the NIC writes nowhere else.

use super::format::Layout;
use super::memory::{HostMemory, OKAY};
use super::peer::RouterPeer;
use std::collections::{HashMap, VecDeque};
use wormqos_config::{RouterConfig, RouterMode};

/// A send the host asked for.
#[derive(Clone, Debug)]
pub struct SendJob {
    /// Descriptor address (32-byte aligned).
    pub desc: u32,
    /// The word written to `DB[class]`.
    pub word: u32,
    pub class: u32,
    pub vc: u32,
    pub dest: u32,
    pub vtick: u32,
    pub length: u32,
    pub payload: u32,
    /// The status code docs/nic.md gives this send.
    pub code: u8,
    pub accepted: bool,
    pub done: bool,
    seq: Option<u8>,
    tail_cycle: Option<u64>,
}

/// A message the peer ejects towards the NIC.
#[derive(Clone, Debug)]
pub struct RecvMessage {
    pub src: u32,
    pub class: u32,
    pub beats: Vec<u64>,
    /// Poisoned body flit indices.
    pub poisoned: Vec<u32>,
    /// Body flits (by their true index) sent with index field 0 (RX_OVERFLOW,
    /// docs/nic.md §11.3: not written, counted).
    pub zero_index: Vec<u32>,
    /// Its flits reach the NIC in index order (no preemption): the first
    /// error in that order is the status; otherwise any of the errors.
    pub in_order: bool,
    pub done: bool,
}

/// Counts for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub sends_by_code: [u64; 16],
    pub sends_rejected: u64,
    pub messages_injected: u64,
    pub received_by_status: [u64; 4],
    pub posts_rejected: u64,
    pub status_write_errors: u64,
    /// Flits the NIC had to drop (a VC >= M, a full receive FIFO).
    pub rx_dropped: u64,
    /// Received messages with a body flit of index 0.
    pub zero_index_messages: u64,
}

pub struct Scoreboard {
    pub layout: Layout,
    bb: u32,
    vcs: u32,
    classes: u32,
    endpoints: u32,
    vtick_max: u64,
    max_flits: u32,
    vc_class: Vec<u32>,
    pub node_id: u32,
    pub jobs: Vec<SendJob>,
    /// The job whose status word is at `desc + 16`.
    by_desc: HashMap<u32, usize>,
    next_seq: u8,
    /// Per VC: jobs whose message is due on the link, in send order.
    due: Vec<VecDeque<usize>>,
    /// Per VC: the message on the link (job, next body index).
    open: Vec<Option<(usize, u32)>>,
    reads_seen: usize,
    writes_seen: usize,
    flits_seen: usize,
    pub messages: Vec<RecvMessage>,
    /// Receive buffers: `rx_base + n·rx_len`, in `rx_buffers` while posted
    /// (true) until their completion is popped.
    pub rx_base: u32,
    pub rx_len: u32,
    pub rx_buffers: HashMap<u32, bool>,
    /// Per posted buffer: the byte offsets the NIC wrote into it.
    rx_writes: HashMap<u32, Vec<u32>>,
    pub counts: Counts,
    pub errors: Vec<String>,
    /// Descriptors whose send completed (free for reuse).
    pub finished: Vec<u32>,
}

impl Scoreboard {
    pub fn new(cfg: &RouterConfig, node_id: u32, rx_base: u32, rx_len: u32) -> Self {
        let nic = cfg.nic().expect("a [nic] section");
        let partitioned = matches!(cfg.mode(), RouterMode::Traditional | RouterMode::NonPreemptive);
        Scoreboard {
            layout: Layout::new(cfg),
            bb: nic.beat_bytes(),
            vcs: cfg.vcs() as u32,
            classes: cfg.traffic_classes(),
            endpoints: cfg.endpoints() as u32,
            vtick_max: (1u64 << cfg.header().vtick.width) - 1,
            max_flits: nic.max_message_flits,
            vc_class: if partitioned { cfg.vc_classes().unwrap_or(&[]).to_vec() } else { Vec::new() },
            node_id,
            jobs: Vec::new(),
            by_desc: HashMap::new(),
            next_seq: 0,
            due: vec![VecDeque::new(); cfg.vcs()],
            open: vec![None; cfg.vcs()],
            reads_seen: 0,
            writes_seen: 0,
            flits_seen: 0,
            messages: Vec::new(),
            rx_base,
            rx_len,
            rx_buffers: HashMap::new(),
            rx_writes: HashMap::new(),
            counts: Counts::default(),
            errors: Vec::new(),
            finished: Vec::new(),
        }
    }

    /// The status code of a send (docs/nic.md §6, §7.2, §13), from the
    /// doorbell, the descriptor and the memory's error map.
    pub fn expected_code(&self, j: &SendJob, mem: &HostMemory) -> u8 {
        let bad_vc = j.vc >= self.vcs || self.vc_class.get(j.vc as usize).is_some_and(|&c| c != j.class);
        if bad_vc {
            return 9;
        }
        if j.word & 0x10 != 0 {
            return 10;
        }
        if (0..16 / self.bb).any(|b| mem.response(j.desc + b * self.bb) != OKAY) {
            return 7;
        }
        let bb = self.bb;
        let checks = [
            j.length == 0,
            j.length % bb != 0,
            j.length / bb > self.max_flits,
            j.dest >= self.endpoints,
            j.vtick as u64 > self.vtick_max,
            j.payload % bb != 0,
        ];
        if let Some(i) = checks.iter().position(|&c| c) {
            return [1, 3, 2, 4, 5, 6][i];
        }
        if (0..j.length / bb).any(|k| mem.response(j.payload.wrapping_add(k * bb)) != OKAY) {
            8
        } else {
            0
        }
    }

    /// A new send; returns its index. Its descriptor is known from now on:
    /// the NIC may fetch it before the host has seen the doorbell's answer.
    pub fn add_job(&mut self, mut j: SendJob, mem: &HostMemory) -> usize {
        j.code = self.expected_code(&j, mem);
        // The status goes to desc·32 + 16 with desc = word[31:5].
        let status_at = (j.word >> 5) * 32 + 16;
        debug_assert_eq!(status_at, j.desc + 16);
        if self.by_desc.insert(status_at, self.jobs.len()).is_some() {
            self.errors.push(format!("descriptor {:#x} reused while in flight (testbench bug)", j.desc));
        }
        self.jobs.push(j);
        self.jobs.len() - 1
    }

    /// The doorbell of job `i` was accepted (OKAY) or rejected (SLVERR).
    pub fn doorbell_answer(&mut self, i: usize, resp: u8) {
        match resp {
            0 => self.jobs[i].accepted = true,
            0b10 => self.counts.sends_rejected += 1,
            r => self.errors.push(format!("doorbell of class {} answered {r:#b}", self.jobs[i].class)),
        }
    }

    fn err(&mut self, e: String) {
        if self.errors.len() < 20 {
            self.errors.push(e);
        }
    }

    /// Looks at what happened since the last call: descriptor fetches,
    /// injected flits, memory writes.
    pub fn observe(&mut self, mem: &HostMemory, peer: &RouterPeer) {
        while self.reads_seen < mem.reads.len() {
            let r = mem.reads[self.reads_seen];
            self.reads_seen += 1;
            if r.beats != 16 / self.bb || !self.by_desc.contains_key(&(r.addr + 16)) {
                continue; // a payload burst
            }
            let i = self.by_desc[&(r.addr + 16)];
            if self.jobs[i].seq.is_some() {
                continue; // a payload burst at another job's descriptor address
            }
            if matches!(self.jobs[i].code, 0 | 8) {
                self.jobs[i].seq = Some(self.next_seq);
                self.next_seq = self.next_seq.wrapping_add(1);
                let vc = self.jobs[i].vc as usize;
                self.due[vc].push_back(i);
            } else if matches!(self.jobs[i].code, 9 | 10) {
                self.err(format!("cycle {}: malformed doorbell's descriptor {:#x} fetched", r.cycle, r.addr));
            } else {
                self.jobs[i].seq = Some(0);
            }
        }
        while self.flits_seen < peer.injected.len() {
            let (cycle, f) = peer.injected[self.flits_seen];
            self.flits_seen += 1;
            self.injected_flit(cycle, &f, mem);
        }
        while self.writes_seen < mem.writes.len() {
            let w = mem.writes[self.writes_seen];
            self.writes_seen += 1;
            self.memory_write(w.cycle, w.addr, w.data, w.strb, w.resp);
        }
    }

    fn injected_flit(&mut self, cycle: u64, f: &wormqos_sim::LinkFlit, mem: &HostMemory) {
        let l = self.layout;
        let u = f.vc as usize;
        if u >= self.open.len() {
            return; // the peer reports it
        }
        match self.open[u] {
            None => {
                if !f.head || f.tail {
                    return self.err(format!("cycle {cycle}: VC {u}: a message starts without a header flit: {f:?}"));
                }
                let Some(i) = self.due[u].pop_front() else {
                    return self.err(format!("cycle {cycle}: VC {u}: a message nobody sent"));
                };
                let j = &self.jobs[i];
                let got = [l.header.dest, l.header.class, l.header.vtick, l.hdr_src, l.hdr_seq].map(|x| x.extract(&f.data));
                let want = [j.dest as u64, j.class as u64, j.vtick as u64, self.node_id as u64, j.seq.unwrap() as u64];
                if got != want {
                    return self.err(format!("cycle {cycle}: VC {u}: header (dest, class, vtick, src, seq) {got:?}, expected {want:?}"));
                }
                let rest = f.data.iter().enumerate().any(|(w, &x)| {
                    let used = (l.hdr_seq.lsb + 8).saturating_sub(64 * w as u32).min(64);
                    let mask = if used == 64 { 0 } else { u64::MAX << used };
                    x & mask != 0
                });
                if rest {
                    self.err(format!("cycle {cycle}: header flit with bits set above seq: {f:?}"));
                }
                self.open[u] = Some((i, 1));
                self.counts.messages_injected += 1;
            }
            Some((i, k)) => {
                let j = &self.jobs[i];
                let last = j.length / self.bb;
                let addr = j.payload.wrapping_add((k - 1) * self.bb);
                let poison = mem.response(addr) != OKAY;
                let want = l.body_flit(k as u64, self.node_id as u64, j.seq.unwrap() as u64, poison, mem.beat_or_zero(addr), k == last);
                if f.head || f.data != want.data || f.tail != want.tail {
                    let s = format!("cycle {cycle}: VC {u}: body flit {k}/{last} of send {:#x}: {f:?}, expected {want:?}", j.desc);
                    return self.err(s);
                }
                if k == last {
                    self.jobs[i].tail_cycle = Some(cycle);
                    self.open[u] = None;
                } else {
                    self.open[u] = Some((i, k + 1));
                }
            }
        }
    }

    fn memory_write(&mut self, cycle: u64, addr: u32, data: u64, strb: u8, resp: u8) {
        if let Some(&i) = self.by_desc.get(&addr) {
            self.by_desc.remove(&addr);
            let j = self.jobs[i].clone();
            let want = 0x8000_0000u64 | j.code as u64;
            let want_strb = if self.bb == 8 { 0x0F } else { 0xF };
            if data != want || strb != want_strb {
                let s = format!("cycle {cycle}: status of send {:#x}: {data:#x}/{strb:#x}, expected {want:#x}/{want_strb:#x}", j.desc);
                self.err(s);
            }
            if matches!(j.code, 0 | 8) && !j.tail_cycle.is_some_and(|t| t < cycle) {
                let s = format!("cycle {cycle}: status of send {:#x} written before its tail left ({:?})", j.desc, j.tail_cycle);
                self.err(s);
            }
            self.jobs[i].done = true;
            self.finished.push(j.desc);
            self.counts.sends_by_code[self.jobs[i].code as usize] += 1;
            if resp != OKAY {
                self.counts.status_write_errors += 1;
            }
            return;
        }
        let in_buffer = addr >= self.rx_base && {
            let base = self.rx_base + (addr - self.rx_base) / self.rx_len * self.rx_len;
            self.rx_buffers.get(&base).copied() == Some(true)
        };
        if !in_buffer || strb != ((1u32 << self.bb) - 1) as u8 || addr % self.bb != 0 {
            self.err(format!("cycle {cycle}: stray write at {addr:#x} ({data:#x}/{strb:#x})"));
        } else {
            let base = self.rx_base + (addr - self.rx_base) / self.rx_len * self.rx_len;
            self.rx_writes.entry(base).or_default().push(addr - base);
        }
    }

    /// What receiving body flit `i` (its true index) of `m` into the buffer
    /// at `addr` does (docs/nic.md §11.3, in `RX_FLIT`'s order): poisoned →
    /// `RX_POISON`; index 0 or beyond the buffer → `RX_OVERFLOW`, not
    /// written; else written, `RX_WR_ERR` if the memory answers an error.
    fn body_outcome(&self, m: &RecvMessage, i: u32, addr: u32, mem: &HostMemory) -> (u8, bool) {
        if m.poisoned.contains(&i) {
            (3, false)
        } else if m.zero_index.contains(&i) || i * self.bb > self.rx_len {
            (1, false)
        } else {
            let at = addr + (i - 1) * self.bb;
            (if mem.response(at) != OKAY { 2 } else { 0 }, true)
        }
    }

    /// A receive completion as the host read it (`RXC_INFO`, `RXC_LEN`,
    /// `RXC_ADDR`); the message is found by the id in its first beat.
    pub fn rx_completion(&mut self, info: u32, len: u32, addr: u32, mem: &HostMemory) {
        let id = mem.beat(addr) as u32 as usize;
        if info >> 31 == 0 || id >= self.messages.len() || self.messages[id].done {
            return self.err(format!("receive completion {info:#x} {len} {addr:#x}: no message with id {id} due"));
        }
        let m = &self.messages[id];
        let k = m.beats.len() as u32;
        let outcomes: Vec<(u8, bool)> = (1..=k).map(|i| self.body_outcome(m, i, addr, mem)).collect();
        let errors: Vec<u32> = outcomes.iter().filter(|o| o.0 != 0).map(|o| o.0 as u32).collect();
        let status = info >> 24 & 0xF;
        let want_status = errors.first().copied().unwrap_or(0);
        let status_ok = if m.in_order || errors.is_empty() { status == want_status } else { errors.contains(&status) };
        let want = 1 << 31 | status << 24 | (m.class & 0xFF) << 16 | (m.src & 0xFFFF);
        if !status_ok || info != want || len != k * self.bb {
            let s = format!(
                "receive completion of message {id}: info {info:#x} len {len}, expected status {want_status} (errors by index {errors:?}), class {}, src {}, len {}",
                m.class,
                m.src,
                k * self.bb
            );
            return self.err(s);
        }
        // Exactly the beats due were written (each once), and they hold the payload.
        let mut wrote = self.rx_writes.remove(&addr).unwrap_or_default();
        wrote.sort_unstable();
        let due: Vec<u32> = (1..=k).filter(|&i| outcomes[i as usize - 1].1).map(|i| (i - 1) * self.bb).collect();
        if wrote != due {
            return self.err(format!("message {id} in buffer {addr:#x}: wrote offsets {wrote:?}, expected {due:?}"));
        }
        for (i, &b) in m.beats.iter().enumerate() {
            let at = addr + i as u32 * self.bb;
            if !outcomes[i].1 || mem.response(at) != OKAY {
                continue;
            }
            let got = mem.beat(at);
            if got != b {
                let s = format!("message {id}: beat {} at {at:#x} is {got:#x}, sent {b:#x}", i + 1);
                return self.err(s);
            }
        }
        if !m.zero_index.is_empty() {
            self.counts.zero_index_messages += 1;
        }
        self.counts.received_by_status[status as usize] += 1;
        self.messages[id].done = true;
    }

    /// Every accepted send completed, every message injected whole.
    pub fn sends_settled(&self) -> bool {
        self.jobs.iter().all(|j| !j.accepted || j.done) && self.open.iter().all(Option::is_none)
    }
    pub fn receives_settled(&self) -> bool {
        self.messages.iter().all(|m| m.done)
    }
    pub fn classes(&self) -> u32 {
        self.classes
    }
}

impl SendJob {
    /// A send of doorbell `word` to `DB[class]` (vc = the word's VC field,
    /// possibly out of range) and its descriptor fields.
    #[allow(clippy::too_many_arguments)]
    pub fn new(desc: u32, word: u32, class: u32, vc: u32, dest: u32, vtick: u32, length: u32, payload: u32) -> SendJob {
        SendJob { desc, word, class, vc, dest, vtick, length, payload, code: 0, accepted: false, done: false, seq: None, tail_cycle: None }
    }
}

impl HostMemory {
    /// The beat at `addr`, or 0 where the memory answers an error.
    pub fn beat_or_zero(&self, addr: u32) -> u64 {
        if self.response(addr) == OKAY {
            self.beat(addr)
        } else {
            0
        }
    }
}

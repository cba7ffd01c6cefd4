//! Tests of the NIC model (docs/nic.md). Expected values are derived by hand
//! from the spec (derivations in the comments), never copied from the
//! model's output. The bench below is a deterministic host: an AXI4-Lite
//! master running a script, a host memory answering every AXI request at
//! full speed, and a router peer returning injection credits per VC.

use super::regs::offset::*;
use super::*;
use crate::link::LinkFlit;
use std::collections::VecDeque;
use wormqos_config::RouterConfig;

mod lanes;

/// 4 ports (endpoints, DW = 2), M = 2 VCs, DI = 4, W = 64. With the default
/// 2 classes (CW = 1) and VTW = 16: HW = 19; K_max 64 gives IXW = 7, TAGW = 18.
fn config(mode: &str, nic: &str) -> RouterConfig {
    let text = format!(
        "name = \"n\"\n[router]\nports = 4\nvcs = 2\nflit_width = 64\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"{}\"\nmode = \"{mode}\"\n[nic]\n{nic}",
        if mode == "traditional" { "fifo" } else { "virtualclock" }
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

const MEM: usize = 1 << 16;

/// One AXI4-Lite operation of the host script.
#[derive(Clone, Copy, Debug)]
enum Op {
    Write(u32, u32),
    Read(u32),
}

struct Bench {
    nic: Nic,
    inp: NicInputs,
    mem: Vec<u8>,
    /// Address ranges `[lo, hi)` that answer with this response.
    bad: Vec<(u32, u32, u8)>,
    // ---- AXI4-Lite master
    script: VecDeque<Op>,
    wresp: Vec<u8>,
    rdata: Vec<(u32, u8)>,
    // ---- memory: a read burst being answered, a write being collected
    rburst: Option<(u32, u32)>,
    aw: Option<u32>,
    w: Option<(u64, u8)>,
    bpending: Option<u8>,
    writes: Vec<(u64, u32, u64, u8)>,
    // ---- router peer
    credit_vcs: u32,
    credits_due: u32,
    link: Vec<(u64, LinkFlit)>,
    ej: VecDeque<LinkFlit>,
    ej_credits: [u32; 16],
    /// Every cycle with an ejection credit: (`ej_credit_o`, `ej_credit_lane_o`).
    ej_credit_log: Vec<(u32, u64)>,
}

impl Bench {
    fn new(cfg: &RouterConfig) -> Self {
        Bench {
            nic: Nic::new(cfg),
            inp: NicInputs::default(),
            mem: vec![0; MEM],
            bad: Vec::new(),
            script: VecDeque::new(),
            wresp: Vec::new(),
            rdata: Vec::new(),
            rburst: None,
            aw: None,
            w: None,
            bpending: None,
            writes: Vec::new(),
            credit_vcs: u32::MAX,
            credits_due: 0,
            link: Vec::new(),
            ej: VecDeque::new(),
            ej_credits: [cfg.downstream_buffer_depth() as u32; 16],
            ej_credit_log: Vec::new(),
        }
    }

    fn bb(&self) -> u32 {
        self.nic.p.bb
    }

    fn put32(&mut self, addr: u32, v: u32) {
        self.mem[addr as usize..addr as usize + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn get32(&self, addr: u32) -> u32 {
        u32::from_le_bytes(self.mem[addr as usize..addr as usize + 4].try_into().unwrap())
    }

    /// A descriptor at `desc` and its payload of `len` bytes at `payload`
    /// (byte i of the payload is `seed + i`).
    fn descriptor(&mut self, desc: u32, dest: u32, vtick: u32, len: u32, payload: u32, seed: u8) {
        for (o, v) in [dest, vtick, len, payload, 0].into_iter().enumerate() {
            self.put32(desc + 4 * o as u32, v);
        }
        for i in 0..len.min(4096) {
            self.mem[(payload + i) as usize] = seed.wrapping_add(i as u8);
        }
    }

    fn resp_of(&self, addr: u32) -> u8 {
        self.bad.iter().find(|&&(lo, hi, _)| addr >= lo && addr < hi).map_or(0, |b| b.2)
    }

    /// Drives one cycle: host script, memory, router peer; then the edge.
    fn tick(&mut self) {
        let c = self.nic.cycle();
        let o = *self.nic.outputs();
        let mut i = NicInputs { inj_credit: self.credits_due, ..NicInputs::default() };
        // AXI4-Lite master: one operation at a time, responses always taken.
        i.axil.bready = true;
        i.axil.rready = true;
        match self.script.front() {
            Some(&Op::Write(a, d)) => {
                i.axil.awvalid = true;
                i.axil.wvalid = true;
                i.axil.awaddr = a;
                i.axil.wdata = d;
                i.axil.wstrb = 0xF;
            }
            Some(&Op::Read(a)) => {
                i.axil.arvalid = true;
                i.axil.araddr = a;
            }
            None => {}
        }
        // Memory: AR taken at once; R beats from the next cycle; AW, W taken
        // at once; B in the cycle after both.
        i.axi.arready = self.rburst.is_none();
        if let Some((a, _)) = self.rburst {
            i.axi.rvalid = true;
            let mut v = 0u64;
            for b in 0..self.bb() {
                v |= (self.mem[(a + b) as usize] as u64) << (8 * b);
            }
            i.axi.rresp = self.resp_of(a);
            i.axi.rdata = if i.axi.rresp != 0 { 0xDEAD_BEEF } else { v };
        }
        i.axi.awready = self.aw.is_none();
        i.axi.wready = self.w.is_none();
        if let Some(r) = self.bpending {
            i.axi.bvalid = true;
            i.axi.bresp = r;
        }
        if let Some(f) = self.ej.front() {
            if self.ej_credits[f.vc as usize] > 0 {
                i.ej = *f;
            }
        }
        self.inp = i;
        let o2 = *self.nic.settle(&i);
        assert_eq!(o2.axil.awready, i.axil.awvalid && i.axil.wvalid && !o.axil.bvalid);
        // Updates at the edge, from this cycle's handshakes.
        let axi = o.axi;
        if let Some((a, n)) = self.rburst {
            if axi.rready {
                self.rburst = if n == 1 { None } else { Some((a + self.bb(), n - 1)) };
            }
        }
        if axi.arvalid && i.axi.arready {
            self.rburst = Some((axi.araddr, axi.arlen as u32 + 1));
        }
        if axi.bready && i.axi.bvalid {
            self.bpending = None;
        }
        if axi.awvalid && i.axi.awready {
            self.aw = Some(axi.awaddr);
        }
        if axi.wvalid && i.axi.wready {
            self.w = Some((axi.wdata, axi.wstrb));
        }
        if let (Some(a), Some((d, s)), None) = (self.aw, self.w, self.bpending) {
            let r = self.resp_of(a);
            if r == 0 {
                for b in 0..self.bb() {
                    if s >> b & 1 == 1 {
                        self.mem[(a + b) as usize] = (d >> (8 * b)) as u8;
                    }
                }
            }
            self.writes.push((c, a, d, s));
            self.bpending = Some(r);
            self.aw = None;
            self.w = None;
        }
        match self.script.front() {
            Some(Op::Write(..)) if o2.axil.awready => {
                self.script.pop_front();
            }
            Some(Op::Read(..)) if o.axil.arready => {
                self.script.pop_front();
            }
            _ => {}
        }
        if o.axil.bvalid {
            self.wresp.push(o.axil.bresp);
        }
        if o.axil.rvalid {
            self.rdata.push((o.axil.rdata, o.axil.rresp));
        }
        // Router peer: every flit's credit comes back in the next cycle
        // (for the VCs in `credit_vcs`).
        self.credits_due = 0;
        if o.inj.valid {
            self.link.push((c, o.inj));
            self.credits_due = (1 << o.inj.vc) & self.credit_vcs;
        }
        if i.ej.valid {
            self.ej.pop_front();
            self.ej_credits[i.ej.vc as usize] -= 1;
        }
        for u in 0..16 {
            self.ej_credits[u] += o.ej_credit >> u & 1;
        }
        if o.ej_credit != 0 {
            self.ej_credit_log.push((o.ej_credit, o.ej_credit_lanes));
        }
        self.nic.step(&i);
    }

    fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.tick();
        }
    }

    /// Runs the script to its end and `extra` cycles more.
    fn run_script(&mut self, ops: &[Op], extra: u64) {
        self.script.extend(ops.iter().copied());
        while !self.script.is_empty() {
            self.tick();
            assert!(self.nic.cycle() < 100_000, "script stuck");
        }
        self.run(extra);
    }

    fn read(&mut self, addr: u32) -> (u32, u8) {
        let n = self.rdata.len();
        self.run_script(&[Op::Read(addr)], 2);
        self.rdata[n]
    }

    fn headers(&self) -> Vec<u64> {
        let dest = self.nic.p.header.dest;
        self.link.iter().filter(|(_, f)| f.head).map(|(_, f)| dest.extract(&f.data)).collect()
    }
}

fn db(class: u32) -> u32 {
    DB + 4 * class
}

#[test]
fn registers_read_back_decode_and_answer_unmapped_with_decerr() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
    assert_eq!(b.read(ID), (0x4E49_4301, 0));
    // CONFIG: M = 2, s = 2, qos, BB = 4.
    assert_eq!(b.read(CONFIG), (2 | 2 << 8 | 1 << 16 | 4 << 24, 0));
    b.run_script(&[Op::Write(NODE_ID, 0xFF), Op::Write(CONTROL, 0xFF), Op::Write(IRQ_ENABLE, 0xFF)], 2);
    // Masked to DW = 2, 2 and 5 bits.
    assert_eq!(b.read(NODE_ID).0, 3);
    assert_eq!(b.read(CONTROL).0, 3);
    assert_eq!(b.read(IRQ_ENABLE).0, 0x1F);
    // Unmapped: DB[2] (s = 2), an odd offset, a hole; WO reads give 0 OKAY.
    assert_eq!(b.read(db(2)), (0, 0b11));
    assert_eq!(b.read(0x002), (0, 0b11));
    assert_eq!(b.read(0x0F0), (0, 0b11));
    assert_eq!(b.read(RXC_POP), (0, 0));
    let n = b.wresp.len();
    b.run_script(&[Op::Write(db(2), 0x100), Op::Write(ID, 5), Op::Write(0x3FC, 1)], 2);
    assert_eq!(b.wresp[n..], [0b11, 0b00, 0b11]);
    assert_eq!(b.read(ID).0, 0x4E49_4301);
    assert_eq!(b.read(STATUS).0, 0, "a DECERR write changes nothing");
}

#[test]
fn axi_lite_write_and_read_channel_timing() {
    let mut n = Nic::new(&config("unpartitioned", "variant = \"qos\"\n"));
    let wr = |d: u32| AxiLiteIn { awaddr: NODE_ID, awvalid: true, wdata: d, wvalid: true, wstrb: 0xF, ..AxiLiteIn::default() };
    let at = |a: AxiLiteIn| NicInputs { axil: a, ..NicInputs::default() };
    // Cycle 0: the write is taken (awready = wready = awvalid & wvalid & !bvalid).
    assert!(n.settle(&at(wr(2))).axil.awready);
    n.step(&at(wr(2)));
    // Cycle 1: bvalid; another write is not taken; a read is, and sees 2
    // (the write took effect at the end of cycle 0); bready clears bvalid.
    let o = *n.outputs();
    assert!(o.axil.bvalid && o.axil.bresp == 0 && o.axil.arready && !o.axil.rvalid);
    let c1 = AxiLiteIn { araddr: NODE_ID, arvalid: true, bready: true, ..wr(1) };
    assert!(!n.settle(&at(c1)).axil.awready);
    n.step(&at(c1));
    // Cycle 2: rvalid with 2; arready 0; the write of 1 is taken now.
    let o = *n.outputs();
    assert!(!o.axil.bvalid && o.axil.rvalid && o.axil.rdata == 2 && !o.axil.arready);
    n.step(&at(AxiLiteIn { rready: true, araddr: NODE_ID, arvalid: true, ..wr(1) }));
    // Cycle 3: bvalid (bready 0 in cycle 2 did not matter: it was 0); rvalid cleared.
    let o = *n.outputs();
    assert!(o.axil.bvalid && !o.axil.rvalid && o.axil.arready);
    n.step(&at(AxiLiteIn { araddr: NODE_ID, arvalid: true, ..wr(3) }));
    // Cycle 4: the read of cycle 3 sees 1; the write of 3 was not taken and
    // bvalid stays (no bready).
    let o = *n.outputs();
    assert!(o.axil.rvalid && o.axil.rdata == 1 && o.axil.bvalid);
    // Cycle 4: both responses taken, nothing new.
    n.step(&at(AxiLiteIn { rready: true, bready: true, ..AxiLiteIn::default() }));
    // Cycle 5: a write of 3 and a read of NODE_ID both taken in the same
    // cycle: the read sees the old value 1.
    let both = AxiLiteIn { araddr: NODE_ID, arvalid: true, ..wr(3) };
    assert!(n.settle(&at(both)).axil.awready && n.outputs().axil.arready);
    n.step(&at(both));
    let o = *n.outputs();
    assert!(o.axil.rvalid && o.axil.rdata == 1 && o.axil.bvalid);
    // Cycle 6: responses taken; cycle 7: a read sees 3.
    n.step(&at(AxiLiteIn { rready: true, bready: true, ..AxiLiteIn::default() }));
    n.step(&at(AxiLiteIn { araddr: NODE_ID, arvalid: true, ..AxiLiteIn::default() }));
    assert_eq!(n.outputs().axil.rdata, 3);
}

#[test]
fn a_doorbell_to_a_full_queue_is_rejected_and_w1c_clears_the_sticky_bits() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\ndoorbell_depth = 2\n"));
    // TX_EN = 0: nothing is served, class 0's queue fills at 2.
    b.run_script(&[Op::Write(db(0), 0x100), Op::Write(db(0), 0x200), Op::Write(db(0), 0x300), Op::Write(db(1), 0x400)], 2);
    assert_eq!(b.wresp, [0, 0, 0b10, 0], "third class-0 doorbell rejected; class 1 has its own queue");
    // STATUS: DB_OVF and DB_PENDING; IRQ_STATUS: OVF.
    assert_eq!(b.read(STATUS).0, 1 | 1 << 10);
    assert_eq!(b.read(IRQ_STATUS).0, 1 << 4);
    b.run_script(&[Op::Write(IRQ_ENABLE, 1 << 4)], 1);
    assert!(b.nic.outputs().irq);
    b.run_script(&[Op::Write(STATUS, 0xFFFF_FFFF), Op::Write(IRQ_STATUS, 1 << 4)], 2);
    assert_eq!(b.read(STATUS).0, 1 << 10, "sticky cleared, live bit stays");
    assert_eq!(b.read(IRQ_STATUS).0, 0);
    assert!(!b.nic.outputs().irq);
    // Traditional: one queue for every class.
    let mut t = Bench::new(&config("unpartitioned", "variant = \"traditional\"\ndoorbell_depth = 2\n"));
    t.run_script(&[Op::Write(db(0), 0x100), Op::Write(db(1), 0x200), Op::Write(db(1), 0x300)], 2);
    assert_eq!(t.wresp, [0, 0, 0b10]);
}

#[test]
fn set_wins_over_a_clear_in_the_same_cycle() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\ndoorbell_depth = 2\n"));
    b.run_script(&[Op::Write(db(0), 0x100), Op::Write(db(0), 0x200), Op::Write(db(0), 0x300)], 2);
    // A rejected doorbell and a W1C of STATUS cannot share a cycle (one
    // write at a time), but a dropped ejected flit can: with RX_EN = 0, VC 1's
    // FIFO (DD = 4) is filled, and a fifth flit arrives in the cycle of the clear.
    let flit = LinkFlit { lane: 0, valid: true, vc: 1, head: true, ..LinkFlit::IDLE };
    for _ in 0..4 {
        b.nic.step(&NicInputs { ej: flit, ..NicInputs::default() });
    }
    let clear = NicInputs {
        axil: AxiLiteIn { awaddr: STATUS, awvalid: true, wdata: 0xF, wvalid: true, bready: true, ..AxiLiteIn::default() },
        ej: flit,
        ..NicInputs::default()
    };
    b.nic.step(&clear);
    b.nic.step(&NicInputs::default());
    // DB_OVF cleared, RX_DROP (bit 3) set in the same cycle stays set.
    assert_eq!(b.read(STATUS).0, 1 << 3 | 1 << 10);
}

/// Cycle-exact zero-load send of a one-flit message (AXW 32, BB 4), with
/// the bench's memory (AR taken at once, R beats from the next cycle, B in
/// the cycle after AW and W):
/// - cycle 0: CONTROL := TX_EN; cycle 1: bvalid; cycle 2: DB[0] queued;
/// - 3: TX_IDLE selects → TX_DESC_AR; 4: AR handshake → TX_DESC_R;
/// - 5..=8: the 4 descriptor beats → TX_CHECK; 9: → TX_HEAD;
/// - 10: header pushed → TX_PAY_AR; 11: injection pops the header (on the
///   link in 12); AR handshake → TX_PAY_R; 12: the beat → TX_DONE (tail pushed);
/// - 13: tail popped (link in 14), pending pushed, sent_tails := 1;
/// - 14: write engine takes client 1 → WR_SEND; 15: AW and W → WR_RESP;
/// - 16: B → TX_COUNT = 1, IRQ TX_DONE; the memory logged the write in 15.
#[test]
fn zero_load_send_is_cycle_exact() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
    b.descriptor(0x100, 2, 7, 4, 0x1000, 0x40);
    b.run_script(&[Op::Write(CONTROL, 1), Op::Write(NODE_ID, 1), Op::Write(db(1), 0x100 | 1)], 0);
    // The script took cycles 0, 2, 4: the doorbell is queued in cycle 4, so
    // every step above is 2 cycles later.
    b.run(20);
    let cycles: Vec<u64> = b.link.iter().map(|l| l.0).collect();
    assert_eq!(cycles, [14, 16]);
    let (h, t) = (b.link[0].1, b.link[1].1);
    assert!(h.head && !h.tail && t.tail && !t.head && h.vc == 1 && t.vc == 1);
    let p = &b.nic.p;
    // Header: dest 2, class 1, Vtick 7, src 1, seq 0.
    assert_eq!(h.data[0], 2 | 1 << 2 | 7 << 3 | 1 << 19);
    // Body 1: index 1, src 1 at bit 7, seq 0, payload 0x43424140 at TAGW = 18.
    assert_eq!(p.tag_width, 18);
    assert_eq!(t.data[0], 1 | 1 << 7 | 0x4342_4140u64 << 18);
    assert_eq!(b.writes, [(17, 0x110, 0x8000_0000, 0xF)]);
    assert_eq!(b.get32(0x110), 0x8000_0000);
    assert_eq!(b.read(TX_COUNT).0, 1);
    assert_eq!(b.read(IRQ_STATUS).0, 1);
}

/// TX_CHECK and the doorbell checks, each alone, then the order of checks.
#[test]
fn malformed_sends_complete_with_their_code_and_send_nothing() {
    // (dest, vtick, length, payload address, doorbell word low bits, code)
    let cases: [(u32, u32, u32, u32, u32, u32); 9] = [
        (1, 5, 0, 0x1000, 0, CODE_LEN_ZERO as u32),
        (1, 5, 6, 0x1000, 0, CODE_LEN_ALIGN as u32),
        (1, 5, 4 * 65, 0x1000, 0, CODE_LEN_MAX as u32),
        (4, 5, 4, 0x1000, 0, CODE_DEST_RANGE as u32),
        (1, 0x1_0000, 4, 0x1000, 0, CODE_VTICK_RANGE as u32),
        (1, 5, 4, 0x1002, 0, CODE_ADDR_ALIGN as u32),
        (1, 5, 4, 0x1000, 2, CODE_VC_RANGE as u32),
        (1, 5, 4, 0x1000, 0x10, CODE_DB_ALIGN as u32),
        // length 0 and dest out of range: the first check wins.
        (9, 5, 0, 0x1002, 0, CODE_LEN_ZERO as u32),
    ];
    for (dest, vtick, len, addr, low, code) in cases {
        let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
        b.descriptor(0x200, dest, vtick, len, addr, 0);
        b.put32(0x210, 0x1234);
        b.run_script(&[Op::Write(CONTROL, 1), Op::Write(db(0), 0x200 | low)], 40);
        assert!(b.link.is_empty(), "code {code}: nothing sent");
        // With bit 4 set the doorbell word is 0x210; desc = wdata[31:5] = 0x10,
        // so the status still goes to desc·32 + 16 = 0x210.
        assert_eq!(b.get32(0x210), 0x8000_0000 | code, "code {code}");
        assert_eq!(b.read(TX_COUNT).0, 1);
        assert_eq!(b.read(IRQ_STATUS).0, 2, "TX_ERR");
    }
}

#[test]
fn axi_errors_on_descriptor_and_payload_reads() {
    // Descriptor fetch answered SLVERR: code 7, nothing sent.
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
    b.descriptor(0x200, 1, 5, 8, 0x1000, 0);
    b.bad.push((0x208, 0x20C, 0b10));
    b.run_script(&[Op::Write(CONTROL, 1), Op::Write(db(0), 0x200)], 40);
    assert!(b.link.is_empty());
    assert_eq!(b.get32(0x210), 0x8000_0000 | 7);
    // Payload beat 2 of 3 answered DECERR: all 4 flits sent, flit 2 poisoned
    // with data 0, code 8 written after the tail left.
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
    b.descriptor(0x200, 1, 5, 12, 0x1000, 0x10);
    b.bad.push((0x1004, 0x1008, 0b11));
    b.run_script(&[Op::Write(CONTROL, 1), Op::Write(db(0), 0x200)], 40);
    assert_eq!(b.link.len(), 4);
    let poison_bit = 7 + 2 + 8;
    let f2 = b.link[2].1.data[0];
    assert_eq!(f2, 2 | 1 << poison_bit, "index 2, src 0, seq 0, poison, no data");
    assert_eq!(b.link[3].1.data[0] >> 18, 0x1B1A_1918);
    assert_eq!(b.get32(0x210), 0x8000_0000 | 8);
    // A status write answered SLVERR: WB_ERR and TX_ERR.
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\n"));
    b.descriptor(0x200, 1, 5, 4, 0x1000, 0);
    b.bad.push((0x210, 0x214, 0b10));
    b.run_script(&[Op::Write(CONTROL, 1), Op::Write(db(0), 0x200)], 40);
    assert_eq!(b.read(STATUS).0 & 0xF, 1 << 2);
    assert_eq!(b.read(IRQ_STATUS).0, 2);
    assert_eq!(b.read(TX_COUNT).0, 1);
}

/// A burst never crosses 4 KiB and never exceeds max_burst.
#[test]
fn payload_bursts_split_at_max_burst_and_4k() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\nmax_burst = 4\nbuffer_depth = 32\n"));
    // 10 beats from 0x1FF8: 2 beats to the 4 KiB line, then 4, 4.
    b.descriptor(0x200, 1, 5, 40, 0x1FF8, 0);
    let mut ars = Vec::new();
    b.script.extend([Op::Write(CONTROL, 1), Op::Write(db(0), 0x200)]);
    for _ in 0..80 {
        let o = *b.nic.outputs();
        if o.axi.arvalid && b.rburst.is_none() {
            ars.push((o.axi.araddr, o.axi.arlen));
        }
        b.tick();
    }
    assert_eq!(ars, [(0x200, 3), (0x1FF8, 1), (0x2000, 3), (0x2010, 3)]);
    assert_eq!(b.link.len(), 11);
}

/// Ring three doorbells (TX_EN = 0), then enable.
fn ring_then_enable(b: &mut Bench, bells: &[(u32, u32)]) {
    let mut ops: Vec<Op> = bells.iter().map(|&(c, w)| Op::Write(db(c), w)).collect();
    ops.push(Op::Write(CONTROL, 1));
    b.run_script(&ops, 0);
}

/// The QoS NIC: VC 1's send queue (B = 2) is held full by a message whose
/// credits never come back, so a doorbell for VC 1 is unavailable. Class 1
/// (highest) is served first, skipping its unavailable doorbell for the
/// next one of the class; then class 0. The traditional NIC with the same
/// doorbells serves its one queue in order and blocks.
#[test]
fn qos_skips_a_doorbell_whose_vc_queue_is_full_traditional_blocks() {
    let mut b = Bench::new(&config("unpartitioned", "variant = \"qos\"\nbuffer_depth = 2\n"));
    b.credit_vcs = 1; // VC 1's 4 credits never return
    for (k, d) in [0x200u32, 0x300, 0x400].into_iter().enumerate() {
        b.descriptor(d, 3, 0, 4, 0x1000, k as u8);
    }
    // Messages of 2 flits: two leave on VC 1's 4 credits, the third fills
    // VC 1's queue (2 flits). All three have dest 3.
    ring_then_enable(&mut b, &[(0, 0x200 | 1), (0, 0x300 | 1), (0, 0x400 | 1)]);
    b.run(80);
    assert_eq!(b.link.len(), 4);
    b.descriptor(0x500, 1, 0, 4, 0x1000, 0);
    b.descriptor(0x600, 2, 0, 4, 0x1000, 0);
    b.descriptor(0x700, 0, 0, 4, 0x1000, 0);
    b.run_script(&[Op::Write(CONTROL, 0)], 2);
    // Class 1: dest 1 on VC 1 (unavailable), dest 2 on VC 0; class 0: dest 0 on VC 0.
    ring_then_enable(&mut b, &[(0, 0x700), (1, 0x500 | 1), (1, 0x600)]);
    b.run(80);
    assert_eq!(b.headers(), [3, 3, 2, 0]);
    assert_eq!(b.read(STATUS).0 & (1 << 10), 1 << 10, "dest 1's doorbell still queued");

    // Traditional, shared FIFO of B·M = 4 flits: the same first three
    // messages; the third's 2 flits stay at the front (VC 1 has no credit)
    // and the dest-2 message behind them on VC 0 cannot pass.
    let mut t = Bench::new(&config("unpartitioned", "variant = \"traditional\"\nbuffer_depth = 2\n"));
    t.credit_vcs = 1;
    for (k, d) in [0x200u32, 0x300, 0x400].into_iter().enumerate() {
        t.descriptor(d, 3, 0, 4, 0x1000, k as u8);
    }
    t.descriptor(0x600, 2, 0, 4, 0x1000, 0);
    ring_then_enable(&mut t, &[(0, 0x200 | 1), (0, 0x300 | 1), (0, 0x400 | 1), (1, 0x600)]);
    t.run(100);
    assert_eq!(t.headers(), [3, 3]);
    // VC 1 credits back: the third message, then the dest-2 one.
    t.credit_vcs = 3;
    t.credits_due = 0b10;
    t.run(40);
    assert_eq!(t.headers(), [3, 3, 3, 2]);
}

/// Message-level injection keeps each message contiguous on the link;
/// flit level does not. Two messages of 8 flits (K = 7, Vtick 10), on VC 0
/// then VC 1, B = 8, and no credit comes back until both are queued (cycle
/// 100): message 1's first 4 flits leave on VC 0's 4 credits as they are
/// pushed. Flit level: message 2's first 4 flits then leave on VC 1's
/// credits while message 1 waits. Message level: the hold on VC 0 (its
/// header left, its tail did not) offers only VC 0, which has no credit, so
/// message 2 waits whole in its queue; once credits flow, message 1's
/// remaining 4 flits, then message 2's 8.
#[test]
fn message_level_injection_keeps_messages_whole_flit_level_interleaves() {
    let run = |inj: &str| {
        let mut b = Bench::new(&config("unpartitioned", &format!("variant = \"qos\"\nbuffer_depth = 8\ninjection = \"{inj}\"\n")));
        b.credit_vcs = 0;
        b.descriptor(0x200, 1, 10, 28, 0x1000, 0);
        b.descriptor(0x300, 2, 10, 28, 0x2000, 0);
        ring_then_enable(&mut b, &[(0, 0x200), (0, 0x300 | 1)]);
        b.run(100 - b.nic.cycle());
        b.credit_vcs = 3;
        b.credits_due = 3;
        b.run(100);
        b.link.iter().map(|l| l.1.vc).collect::<Vec<_>>()
    };
    let m = run("message");
    assert_eq!(m, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    let f = run("flit");
    assert_eq!(f.len(), 16);
    assert_eq!(f[..8], [0, 0, 0, 0, 1, 1, 1, 1]);
}

/// Block-level injection, b = 2, best effort (Vtick 0), B = 8: two
/// messages of 8 flits on VC 0 and VC 1; each VC's 4 credits carry its
/// message's first 4 flits as they are pushed (every hold ends when its
/// queue runs dry or out of credit, so blk_left = 0 and be_ptr = 0 after
/// VC 1's last grant). Then 4 credits per VC come back at once: round robin
/// from be_ptr = 0 grants VC 0 and holds it for a second flit, then VC 1
/// twice, and so on: 0 0 1 1 0 0 1 1. Flit level alternates: 0 1 0 1 ...
#[test]
fn block_level_injection_holds_a_slot_for_b_flits() {
    let run = |inj: &str| {
        let extra = if inj == "block" { "block_size = 2\n" } else { "" };
        let cfg = config("unpartitioned", &format!("variant = \"qos\"\nbuffer_depth = 8\ninjection = \"{inj}\"\n{extra}"));
        let mut b = Bench::new(&cfg);
        b.credit_vcs = 0;
        b.descriptor(0x200, 1, 0, 28, 0x1000, 0);
        b.descriptor(0x300, 2, 0, 28, 0x2000, 0);
        ring_then_enable(&mut b, &[(0, 0x200), (0, 0x300 | 1)]);
        b.run(100 - b.nic.cycle());
        for _ in 0..4 {
            b.credits_due = 3;
            b.tick();
        }
        b.run(60);
        b.link.iter().map(|l| l.1.vc).collect::<Vec<_>>()
    };
    assert_eq!(run("block"), [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]);
    assert_eq!(run("flit"), [0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
}

/// Builds the ejected flits of a message as a sender NIC with NODE_ID
/// `src` and counter `seq` would (docs/nic.md §4), payload beat k−1 = `base + k`.
fn message_flits(p: &params::Params, dest: u32, class: u32, src: u32, seq: u32, k: u32, base: u64, vc: u8) -> Vec<LinkFlit> {
    let mut v = vec![LinkFlit { lane: 0, valid: true, vc, head: true, tail: false, dummy: false, data: p.header_flit(dest, class, 9, src, seq) }];
    for i in 1..=k {
        v.push(LinkFlit { lane: 0, valid: true, vc, head: false, tail: i == k, dummy: false, data: p.body_flit(i, src, seq, false, base + i as u64) });
    }
    v
}

fn dummy(vc: u8, head: bool, hdr: [u64; 4]) -> LinkFlit {
    LinkFlit { lane: 0, valid: true, vc, head, tail: !head, dummy: true, data: if head { hdr } else { [0; 4] } }
}

/// P mode: message A (src 3, seq 5, K = 3, class 2) is preempted after its
/// body flit 1: part 1 = real header, body 1, dummy tail on VC 0; then
/// message B (src 2, seq 0, K = 1, class 1) on VC 0 behind A's dummy tail;
/// part 2 of A = dummy header, body 2, body 3 (tail) on VC 1. Two buffers
/// posted (0x4000 and 0x5000, 64 bytes each): A's header (first front
/// processed) opens a context with 0x4000, B's header one with 0x5000
/// (whichever order the completions come in); every payload beat lands at
/// its index and both complete with status 0.
#[test]
fn a_preempted_message_split_by_dummy_flits_is_reassembled() {
    let cfg = config("preemptive", "variant = \"qos\"\n");
    let mut b = Bench::new(&cfg);
    let p = b.nic.p.clone();
    assert!(p.dummies);
    let a = message_flits(&p, 0, 2, 3, 5, 3, 0xA0, 0);
    let bm = message_flits(&p, 0, 1, 2, 0, 1, 0xB0, 0);
    let hdr_a = a[0].data;
    let mut a2 = a.clone();
    a2[2].vc = 1;
    a2[3].vc = 1;
    b.ej.extend([a[0], a[1], dummy(0, false, hdr_a)]);
    b.ej.extend(bm.iter().copied());
    b.ej.extend([dummy(1, true, hdr_a), a2[2], a2[3]]);
    b.run_script(
        &[Op::Write(RX_POST_LEN, 64), Op::Write(RX_POST_ADDR, 0x4000), Op::Write(RX_POST_ADDR, 0x5003), Op::Write(CONTROL, 2)],
        120,
    );
    assert!(b.ej.is_empty());
    // B: 4 bytes at 0x5000 (0x5003 with its low 2 bits cleared).
    assert_eq!(b.get32(0x5000), 0xB1);
    assert_eq!([b.get32(0x4000), b.get32(0x4004), b.get32(0x4008)], [0xA1, 0xA2, 0xA3]);
    // RXC_INFO: VALID, status 0, class, src; RXC_LEN; RXC_ADDR.
    let mut got = Vec::new();
    for _ in 0..2 {
        got.push((b.read(RXC_INFO).0, b.read(RXC_LEN).0, b.read(RXC_ADDR).0));
        b.run_script(&[Op::Write(RXC_POP, 0)], 1);
    }
    got.sort();
    assert_eq!(got, [(1 << 31 | 1 << 16 | 2, 4, 0x5000), (1 << 31 | 2 << 16 | 3, 12, 0x4000)]);
    assert_eq!(b.read(RXC_INFO).0, 0);
    assert_eq!(b.read(IRQ_STATUS).0, 1 << 2, "RX_DONE only");
    // Every flit's slot was returned: 9 flits, 9 credits.
    assert_eq!(b.ej_credits[..2], [4, 4]);
}

/// Receive errors: an index beyond the posted buffer (RX_OVERFLOW, not
/// written), a poisoned beat (RX_POISON), an AXI error on a payload write
/// (RX_WR_ERR); each message still completes once. With RX_EN set after
/// the flits are in the FIFOs (VC 0: m1 ×4; VC 1: m2 ×3; m3 waits for VC 0
/// credits), round robin alternates VC 0, VC 1: m1h, m2h, m1b1, m2b1, m1b2,
/// m2b2 (m2 completes), m1b3 (m1 completes), then m3.
#[test]
fn receive_errors_complete_with_their_status() {
    let cfg = config("unpartitioned", "variant = \"qos\"\n");
    let mut b = Bench::new(&cfg);
    let p = b.nic.p.clone();
    // Message 1: K = 3 into an 8-byte buffer: flit 3 overflows.
    b.ej.extend(message_flits(&p, 0, 0, 1, 0, 3, 0x10, 0));
    // Message 2: K = 2, flit 1 poisoned.
    let mut m2 = message_flits(&p, 0, 1, 1, 1, 2, 0x20, 1);
    m2[1].data = p.body_flit(1, 1, 1, true, 0);
    b.ej.extend(m2);
    // Message 3: K = 1 into a buffer whose write answers SLVERR.
    b.ej.extend(message_flits(&p, 0, 0, 2, 0, 1, 0x30, 0));
    b.bad.push((0x6000, 0x6004, 0b10));
    b.run_script(
        &[
            Op::Write(RX_POST_LEN, 8),
            Op::Write(RX_POST_ADDR, 0x4000),
            Op::Write(RX_POST_LEN, 64),
            Op::Write(RX_POST_ADDR, 0x5000),
            Op::Write(RX_POST_ADDR, 0x6000),
            Op::Write(CONTROL, 2),
        ],
        120,
    );
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push((b.read(RXC_INFO).0, b.read(RXC_LEN).0, b.read(RXC_ADDR).0));
        b.run_script(&[Op::Write(RXC_POP, 0)], 1);
    }
    assert_eq!(
        got,
        [
            (1 << 31 | 3 << 24 | 1 << 16 | 1, 8, 0x5000),
            (1 << 31 | 1 << 24 | 1, 12, 0x4000),
            (1 << 31 | 2 << 24 | 2, 4, 0x6000)
        ]
    );
    assert_eq!([b.get32(0x4000), b.get32(0x4004), b.get32(0x4008)], [0x11, 0x12, 0]);
    assert_eq!(b.get32(0x5004), 0x22);
    assert_eq!(b.read(IRQ_STATUS).0, 1 << 3);
}

/// A flit of a new message waits (its credit is not returned) while no
/// buffer is posted; RX_EN = 0 processes nothing; a flit on a full FIFO is dropped.
#[test]
fn receive_waits_for_a_posted_buffer_and_drops_on_overflow() {
    let cfg = config("unpartitioned", "variant = \"qos\"\n");
    let mut b = Bench::new(&cfg);
    let p = b.nic.p.clone();
    b.ej.extend(message_flits(&p, 0, 0, 1, 0, 1, 0x10, 0));
    b.run_script(&[Op::Write(CONTROL, 2)], 20);
    assert_eq!(b.ej_credits[0], 2, "2 flits in the FIFO, no credit back");
    assert_eq!(b.read(STATUS).0 & (1 << 9), 0, "RX idle");
    b.run_script(&[Op::Write(RX_POST_LEN, 64), Op::Write(RX_POST_ADDR, 0x4000)], 20);
    assert_eq!(b.ej_credits[0], 4);
    assert_eq!(b.get32(0x4000), 0x11);
    // DD = 4: a fifth flit on VC 1 without credit is dropped.
    b.run_script(&[Op::Write(CONTROL, 0)], 1);
    let f = message_flits(&p, 0, 0, 1, 1, 4, 0, 1);
    for x in &f {
        let i = NicInputs { ej: *x, ..NicInputs::default() };
        b.nic.step(&i);
    }
    b.nic.step(&NicInputs::default());
    assert_eq!(b.read(STATUS).0 & 0xF, 1 << 3);
}

/// A flit on a VC the NIC has no FIFO for is dropped (docs/nic.md §11.1):
/// with M = 3 VCs the 2-bit `ej_vc_i` can name VC 3. The flit sets
/// `STATUS.RX_DROP` and `IRQ_STATUS.RX_ERR`, returns no credit (`ej_credit_o`
/// has no bit 3), opens no context and writes nothing; a message on VC 0
/// behind it completes normally (status 0, 4 bytes at 0x4000).
#[test]
fn a_flit_on_a_vc_without_a_fifo_is_dropped_and_the_nic_goes_on() {
    let text = "name = \"n\"\n[router]\nports = 4\nvcs = 3\nflit_width = 64\ninput_buffer_depth = 4\n\
                output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n[nic]\nvariant = \"qos\"\n";
    let cfg = RouterConfig::from_toml_str(text, "inline").unwrap();
    let mut b = Bench::new(&cfg);
    let p = b.nic.p.clone();
    assert_eq!(p.vc_width, 2);
    let mut stray = message_flits(&p, 0, 0, 1, 0, 1, 0x70, 3);
    stray.truncate(1);
    b.ej.extend(stray);
    b.ej.extend(message_flits(&p, 0, 1, 2, 0, 1, 0x10, 0));
    let credits_before = b.ej_credits;
    b.run_script(&[Op::Write(RX_POST_LEN, 64), Op::Write(RX_POST_ADDR, 0x4000), Op::Write(CONTROL, 2)], 60);
    assert!(b.ej.is_empty());
    assert_eq!(b.ej_credits[3], credits_before[3] - 1, "no credit for the dropped flit");
    assert_eq!(b.ej_credits[0], credits_before[0], "both flits of the message on VC 0 credited");
    assert_eq!(b.read(STATUS).0 & 0xF, 1 << 3, "RX_DROP");
    assert_eq!(b.read(RXC_INFO).0, 1 << 31 | 1 << 16 | 2, "the message on VC 0: status 0, class 1, src 2");
    assert_eq!(b.read(RXC_LEN).0, 4);
    assert_eq!(b.get32(0x4000), 0x11);
    assert_eq!(b.writes.len(), 1, "one payload write, none for the dropped flit");
    assert_eq!(b.read(IRQ_STATUS).0, 1 << 2 | 1 << 3, "RX_DONE and RX_ERR");
}

/// A body flit whose index field is 0 (docs/nic.md §11.3: "k = 0 →
/// RX_OVERFLOW") is counted but not written: message K = 3 (src 1, seq 0,
/// class 1) with flit 2's index cleared completes once with status 1,
/// length 3·4 = 12 bytes; beats 1 and 3 land at 0x4000 and 0x4008, 0x4004
/// keeps its 0 and nothing is written below the buffer (an index-0 beat
/// would go to 0x4000 − 4).
#[test]
fn a_body_flit_with_index_0_completes_its_message_with_rx_overflow() {
    let cfg = config("unpartitioned", "variant = \"qos\"\n");
    let mut b = Bench::new(&cfg);
    let p = b.nic.p.clone();
    let mut m = message_flits(&p, 0, 1, 1, 0, 3, 0x20, 0);
    m[2].data = p.body_flit(0, 1, 0, false, 0x22);
    b.ej.extend(m);
    b.put32(0x3FFC, 0x5A5A_5A5A);
    b.run_script(&[Op::Write(RX_POST_LEN, 64), Op::Write(RX_POST_ADDR, 0x4000), Op::Write(CONTROL, 2)], 80);
    assert_eq!(b.read(RXC_INFO).0, 1 << 31 | 1 << 24 | 1 << 16 | 1, "status RX_OVERFLOW, class 1, src 1");
    assert_eq!(b.read(RXC_LEN).0, 12);
    assert_eq!([b.get32(0x3FFC), b.get32(0x4000), b.get32(0x4004), b.get32(0x4008)], [0x5A5A_5A5A, 0x21, 0, 0x23]);
    assert_eq!(b.writes.iter().map(|w| w.1).collect::<Vec<_>>(), [0x4000, 0x4008]);
    b.run_script(&[Op::Write(RXC_POP, 0)], 2);
    assert_eq!(b.read(RXC_INFO).0, 0, "completed once");
    assert_eq!(b.read(IRQ_STATUS).0, 1 << 3, "RX_ERR only");
}

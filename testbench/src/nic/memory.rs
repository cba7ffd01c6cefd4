//! The host memory: an AXI4 slave answering the NIC's master with random
//! READY and VALID backpressure and configurable error responses on address
//! ranges, checking the master's side of the protocol (handshake rules,
//! one outstanding transaction per channel, INCR bursts of BB-byte beats).

use super::protocol::Channel;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use wormqos_sim::nic::{AxiIn, AxiOut};

pub const OKAY: u8 = 0b00;
pub const SLVERR: u8 = 0b10;
pub const DECERR: u8 = 0b11;

/// Probabilities (0..=1) that a slave signal is offered in a cycle.
#[derive(Clone, Copy, Debug)]
pub struct Backpressure {
    pub arready: f64,
    pub rvalid: f64,
    pub awready: f64,
    pub wready: f64,
    pub bvalid: f64,
}

impl Backpressure {
    pub const NONE: Backpressure = Backpressure { arready: 1.0, rvalid: 1.0, awready: 1.0, wready: 1.0, bvalid: 1.0 };
    pub const RANDOM: Backpressure = Backpressure { arready: 0.5, rvalid: 0.6, awready: 0.5, wready: 0.5, bvalid: 0.6 };
}

/// One completed write as the memory saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRecord {
    /// Cycle of the AW handshake.
    pub cycle: u64,
    pub addr: u32,
    pub data: u64,
    pub strb: u8,
    pub resp: u8,
}

/// A read burst as the memory saw it (the AR handshake).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRecord {
    pub cycle: u64,
    pub addr: u32,
    pub beats: u32,
}

#[derive(Clone, Debug)]
struct Beat {
    data: u64,
    resp: u8,
}

pub struct HostMemory {
    bytes: Vec<u8>,
    /// Beat bytes.
    bb: u32,
    /// `[lo, hi)` answered with the response instead of OKAY.
    errors: Vec<(u32, u32, u8)>,
    bp: Backpressure,
    rng: SmallRng,
    // ---- the transaction in progress on each channel
    burst: Option<(u32, u32)>,
    rbeat: Option<Beat>,
    aw: Option<(u64, u32)>,
    w: Option<(u64, u8)>,
    b: Option<u8>,
    // ---- what the memory offers this cycle
    inputs: AxiIn,
    // ---- checks and logs
    ar_ch: Channel<(u32, u8, u8, u8)>,
    aw_ch: Channel<(u32, u8, u8, u8)>,
    w_ch: Channel<(u64, u8, bool)>,
    pub writes: Vec<WriteRecord>,
    pub reads: Vec<ReadRecord>,
    pub violations: Vec<String>,
}

impl HostMemory {
    /// `size` bytes from address 0; addresses at or above `size` answer DECERR.
    pub fn new(size: usize, bb: u32, bp: Backpressure, seed: u64) -> Self {
        HostMemory {
            bytes: vec![0; size],
            bb,
            errors: Vec::new(),
            bp,
            rng: SmallRng::seed_from_u64(seed),
            burst: None,
            rbeat: None,
            aw: None,
            w: None,
            b: None,
            inputs: AxiIn::default(),
            ar_ch: Channel::new("AR"),
            aw_ch: Channel::new("AW"),
            w_ch: Channel::new("W"),
            writes: Vec::new(),
            reads: Vec::new(),
            violations: Vec::new(),
        }
    }

    /// Answers `[lo, hi)` with `resp` (SLVERR or DECERR).
    pub fn add_error(&mut self, lo: u32, hi: u32, resp: u8) {
        self.errors.push((lo, hi, resp));
    }

    pub fn response(&self, addr: u32) -> u8 {
        if addr as usize + self.bb as usize > self.bytes.len() {
            return DECERR;
        }
        // A beat fails if any of its bytes lies in an error range.
        let end = addr + self.bb;
        self.errors.iter().find(|&&(lo, hi, _)| addr < hi && lo < end).map_or(OKAY, |e| e.2)
    }

    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) {
        self.bytes[addr as usize..addr as usize + data.len()].copy_from_slice(data);
    }
    pub fn read_u32(&self, addr: u32) -> u32 {
        u32::from_le_bytes(self.bytes[addr as usize..addr as usize + 4].try_into().unwrap())
    }
    pub fn write_u32(&mut self, addr: u32, v: u32) {
        self.write_bytes(addr, &v.to_le_bytes());
    }
    /// The beat at `addr` (BB-aligned) as the NIC reads it.
    pub fn beat(&self, addr: u32) -> u64 {
        (0..self.bb).fold(0, |v, b| v | (self.bytes[(addr + b) as usize] as u64) << (8 * b))
    }

    /// Outstanding work: a burst, a write or a response.
    pub fn busy(&self) -> bool {
        self.burst.is_some() || self.aw.is_some() || self.w.is_some() || self.b.is_some()
    }

    /// The slave's signals in this cycle (chosen before the NIC's outputs
    /// are seen, as a registered slave does).
    pub fn drive(&mut self) -> AxiIn {
        let bp = self.bp;
        let mut i = AxiIn { arready: self.burst.is_none() && self.rng.gen_bool(bp.arready), ..AxiIn::default() };
        if let Some((addr, left)) = self.burst {
            // A beat once offered stays until taken (AXI).
            if self.rbeat.is_none() && self.rng.gen_bool(bp.rvalid) {
                let resp = self.response(addr);
                let data = if resp == OKAY { self.beat(addr) } else { self.rng.gen::<u64>() & self.beat_mask() };
                self.rbeat = Some(Beat { data, resp });
            }
            if let Some(b) = &self.rbeat {
                i.rvalid = true;
                i.rdata = b.data;
                i.rresp = b.resp;
                i.rlast = left == 1;
            }
        }
        i.awready = self.aw.is_none() && self.rng.gen_bool(bp.awready);
        i.wready = self.w.is_none() && self.rng.gen_bool(bp.wready);
        if let Some(r) = self.b {
            i.bvalid = true;
            i.bresp = r;
        } else if self.aw.is_some() && self.w.is_some() && !self.rng.gen_bool(bp.bvalid) {
            // the response is late this cycle
        } else if let (Some(_), Some(_)) = (self.aw, self.w) {
            // Perform the write now and offer B from this cycle on.
            let ((cycle, addr), (data, strb)) = (self.aw.take().unwrap(), self.w.take().unwrap());
            let resp = self.response(addr);
            if resp == OKAY {
                // Strobe bit k is byte k of the beat that holds `addr`.
                let base = addr & !(self.bb - 1);
                for k in 0..self.bb {
                    if strb >> k & 1 == 1 {
                        self.bytes[(base + k) as usize] = (data >> (8 * k)) as u8;
                    }
                }
            }
            self.writes.push(WriteRecord { cycle, addr, data, strb, resp });
            self.b = Some(resp);
            i.bvalid = true;
            i.bresp = resp;
        }
        self.inputs = i;
        i
    }

    fn beat_mask(&self) -> u64 {
        if self.bb == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * self.bb)) - 1
        }
    }

    fn violation(&mut self, r: Result<(), String>) {
        if let Err(e) = r {
            self.violations.push(e);
        }
    }

    /// The rising edge: this cycle's handshakes, given the NIC's outputs.
    pub fn edge(&mut self, cycle: u64, o: &AxiOut) {
        let i = self.inputs;
        let r = self.ar_ch.check(cycle, o.arvalid, i.arready, (o.araddr, o.arlen, o.arsize, o.arburst));
        self.violation(r);
        let r = self.aw_ch.check(cycle, o.awvalid, i.awready, (o.awaddr, o.awlen, o.awsize, o.awburst));
        self.violation(r);
        let r = self.w_ch.check(cycle, o.wvalid, i.wready, (o.wdata, o.wstrb, o.wlast));
        self.violation(r);
        let size = self.bb.trailing_zeros() as u8;
        // One outstanding transaction per channel (docs/nic.md §1): no new
        // request before the previous one is answered.
        if o.arvalid && self.burst.is_some() {
            self.violations.push(format!("cycle {cycle}: AR while a read burst is outstanding"));
        }
        if o.awvalid && (self.aw.is_some() || self.b.is_some()) || o.wvalid && (self.w.is_some() || self.b.is_some()) {
            self.violations.push(format!("cycle {cycle}: a write request before the previous write was answered"));
        }
        if i.rvalid && o.rready {
            self.rbeat = None;
            let (addr, left) = self.burst.expect("a beat belongs to a burst");
            self.burst = if left == 1 { None } else { Some((addr + self.bb, left - 1)) };
        }
        if o.arvalid && i.arready {
            if o.arsize != size || o.arburst != 1 {
                self.violations.push(format!("cycle {cycle}: AR size {} burst {}", o.arsize, o.arburst));
            }
            let beats = o.arlen as u32 + 1;
            if o.araddr % 4096 + beats * self.bb > 4096 {
                self.violations.push(format!("cycle {cycle}: burst at {:#x} of {beats} beats crosses 4 KiB", o.araddr));
            }
            self.burst = Some((o.araddr, beats));
            self.reads.push(ReadRecord { cycle, addr: o.araddr, beats });
        }
        if o.awvalid && i.awready {
            if o.awlen != 0 || o.awsize != size || o.awburst != 1 {
                self.violations.push(format!("cycle {cycle}: AW len {} size {} burst {}", o.awlen, o.awsize, o.awburst));
            }
            self.aw = Some((cycle, o.awaddr));
        }
        if o.wvalid && i.wready {
            if !o.wlast {
                self.violations.push(format!("cycle {cycle}: single-beat write without WLAST"));
            }
            self.w = Some((o.wdata, o.wstrb));
        }
        if i.bvalid && o.bready {
            self.b = None;
        }
    }
}

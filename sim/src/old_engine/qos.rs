//! The general router engine: §6 and §8 plus every §9 feature (header
//! register, static partition, block-level multiplexing, preemption with
//! lanes and the history stack, acceleration).
//!
//! [`crate::Router`] uses this engine whenever the configuration needs §9
//! (mode other than `unpartitioned`, or `block_size > 1`); the mask-based
//! engine in `router.rs` stays the fast path of the foundation router. The
//! two are cross-checked on unpartitioned configurations in the tests.
//!
//! Structure of one cycle: every decision is first computed from the state
//! at the start of the cycle (BW lane choice, stage 5 picks, stage 4 offers
//! and the A/B arbitration, VA, RC, the preemption step, lane release), then
//! all updates are applied. Each register is written by at most one of the
//! mutually exclusive decisions (see the comments at each update), so the
//! order of the updates does not matter except where noted.
//! Storage is allocated in [`Core::new`]; `step` never allocates.
//!
//! Readings of docs/microarchitecture.md §9 where the text leaves room (the
//! most literal one each time):
//! - VirtualClock (§8.4) registers persist as written: a stamped slot keeps
//!   its stamp through cycles in which it is not present (a VC switched away
//!   from by preemption case (b)/(c)), and the stamp is used by the next
//!   real-time flit the slot presents (a pending dummy tail inherits the stamp
//!   of the lane flit it replaces). A stamped slot whose present flit is best
//!   effort is served as best effort and keeps `stamped`.
//! - In case (b) (ACTIVE, `sent == 0`, `sl < top`) the slot has nothing to
//!   offer, so it is not present at A even if lane `sl` holds flits.
//! - A dropped flit (bad VC, full lane) changes no register: no lane choice
//!   (`top`, `lmax`, `wl`) and it does not count as "written" for the lane
//!   release. The history stack saturates instead of overflowing (only
//!   reachable after protocol violations).
//! - Acceleration set: "got no grant because no output VC of o was free" is
//!   read as: port o has a VA requester and no free output VC at the start of
//!   the cycle; c* and the owners' classes are start-of-cycle values.
//! - §9.3 step 3 applies to every grant that takes effect, including an
//!   accelerated grant of `blk_slot` (it counts down the hold).

use crate::arbiter::{age_pick, rr_pick, rr_pick_wide};
use crate::link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
use super::router::RouterStats;
use crate::vclock::{is_realtime, VirtualClockScheduler};
use wormqos_config::{Crossbar, RouterConfig, RouterMode, Scheduler};

/// Most lanes per input VC: E + 1 with E = s - 1 <= 7.
pub(crate) const MAX_LANES: usize = 8;

pub(crate) const IDLE: u8 = 0;
pub(crate) const ROUTED: u8 = 1;
pub(crate) const ACTIVE: u8 = 2;

/// Stage 4 offers of an input VC.
const OFF_NONE: u8 = 0;
const OFF_LANE: u8 = 1;
const OFF_DHEAD: u8 = 2;
const OFF_DTAIL: u8 = 3;

/// A flit in a lane or an output VC buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct QFlit {
    pub data: [u64; MAX_FLIT_WORDS],
    pub head: bool,
    pub tail: bool,
    pub dummy: bool,
    /// The Vtick written next to the flit by stage 4 (§8.2; 0 in lanes).
    pub vtick: u32,
}

/// `rings` FIFOs of `cap` flits in one allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rings {
    slots: Vec<QFlit>,
    head: Vec<u16>,
    count: Vec<u16>,
    cap: usize,
}

impl Rings {
    fn new(rings: usize, cap: usize) -> Self {
        Rings { slots: vec![QFlit::default(); rings * cap], head: vec![0; rings], count: vec![0; rings], cap }
    }
    fn clear(&mut self) {
        self.slots.fill(QFlit::default());
        self.head.fill(0);
        self.count.fill(0);
    }
    #[inline]
    fn count(&self, r: usize) -> usize {
        self.count[r] as usize
    }
    #[inline]
    fn get(&self, r: usize, k: usize) -> &QFlit {
        let mut idx = self.head[r] as usize + k;
        if idx >= self.cap {
            idx -= self.cap;
        }
        &self.slots[r * self.cap + idx]
    }
    #[inline]
    fn front(&self, r: usize) -> &QFlit {
        self.get(r, 0)
    }
    #[inline]
    fn push(&mut self, r: usize, f: QFlit) {
        let c = self.count[r] as usize;
        debug_assert!(c < self.cap);
        let mut idx = self.head[r] as usize + c;
        if idx >= self.cap {
            idx -= self.cap;
        }
        self.slots[r * self.cap + idx] = f;
        self.count[r] += 1;
    }
    #[inline]
    fn pop(&mut self, r: usize) -> QFlit {
        debug_assert!(self.count[r] > 0);
        let h = self.head[r] as usize;
        let f = self.slots[r * self.cap + h];
        self.head[r] = if h + 1 == self.cap { 0 } else { (h + 1) as u16 };
        self.count[r] -= 1;
        f
    }
}

/// The header register (§9.1): raw destination, class and Vtick fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeaderFields {
    pub dest: u32,
    /// The class code as carried (a code >= s means class 0, see `cls`).
    pub class: u32,
    pub vtick: u32,
}

/// State of one input VC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ivc {
    state: u8,
    route: u8,
    ovc: u8,
    hdr: HeaderFields,
    // ---- §9.4 (P mode; top = sl = wl = 0 otherwise)
    top: u8,
    sl: u8,
    wl: u8,
    lmax: [u8; MAX_LANES],
    /// Bit l: `susp[l]`.
    susp: u8,
    hsp: u8,
    sent: bool,
    acc: bool,
}

/// §9.3 hold register of one scheduling point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Blk {
    slot: u8,
    left: u8,
}

/// A BW decision of one input port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct BwDec {
    i: u16,
    lane: u8,
    /// 0 body/tail; 1 header, idle VC (lane 0, lmax[0] := c); 2 header into
    /// an open lane; 3 header opening lane top+1.
    kind: u8,
    class: u8,
    flit: QFlit,
}

/// Per-VC decision flags.
const D_RC: u8 = 1;
const D_PREEMPT_SILENT: u8 = 2;
const D_RELEASE: u8 = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Core {
    // ---- parameters
    n: usize,
    m: usize,
    nm: usize,
    di: usize,
    dout: usize,
    dd: u16,
    full: bool,
    sched: Scheduler,
    preempt: bool,
    accel: bool,
    lanes: usize,
    b: u8,
    s: u32,
    /// Class mask per class (bit u: vcc[u] == c), partitioned modes only.
    part: Option<[u32; 8]>,
    dw: u32,
    cw: u32,
    vtw: u32,
    dest_mask: u64,
    class_mask: u64,
    vtick_mask: u64,
    word_mask: [u64; MAX_FLIT_WORDS],
    vc_id_mask: u8,
    route_lut: Vec<u8>,
    /// §2 allowed output VCs `A(d)` of every destination code (every VC
    /// without `topology.route_vcs`); read through `hdr.dest`, which holds
    /// the destination the route was computed from.
    allowed_lut: Vec<u32>,
    /// §2 parallel output ports of every destination code (1 without
    /// `topology.route_links`), and whether any code has more than one.
    links_lut: Vec<u8>,
    multi_link: bool,
    /// Scratch: free output VCs of each port at the start of the cycle.
    free_start: Vec<u32>,
    va_words: usize,

    // ---- state
    lanes_q: Rings,
    ivc: Vec<Ivc>,
    /// History stack `hs` of each input VC (apart: rarely touched).
    hs: Vec<[HeaderFields; MAX_LANES]>,
    ob: Rings,
    credits: Vec<u16>,
    allocated: Vec<u32>,
    owner: Vec<u16>,
    va_ptr: Vec<u16>,
    xa_ptr: Vec<u8>,
    acc_ptr: Vec<u8>,
    xb_ptr: Vec<u8>,
    oc_ptr: Vec<u8>,
    in_stamp: Vec<u64>,
    out_stamp: Vec<u64>,
    blk: Vec<Blk>,
    vclk: Vec<VirtualClockScheduler>,
    /// Flits in the lanes of input port p (summary for skipping idle ports).
    pflits: Vec<u32>,
    /// Scratch: input VCs (bit v of port p) whose tail crossed this cycle.
    tail_x: Vec<u32>,
    /// Open extra lanes plus history-stack entries of input port p's VCs.
    pextra: Vec<u32>,
    /// Flits in the output VC buffers of output port o.
    oflits: Vec<u32>,
    /// Test switch: visit every port every cycle (checks the skipping).
    pub(crate) no_skip: bool,

    // ---- scratch
    bw: Vec<Option<BwDec>>,
    written: Vec<u32>,
    offer: Vec<u8>,
    dec: Vec<u8>,
    va_req: Vec<u64>,
    va_any: Vec<bool>,
    va_maxc: Vec<u8>,
    pick_c: Vec<Option<u8>>,
    cand: Vec<Option<(u8, u8)>>,
    ready_a: Vec<u32>,
    xb_req: Vec<u32>,
    va_grant: Vec<Option<(u16, u8)>>,
    victim: Vec<Option<u16>>,
}

/// Where a grant at a scheduling point came from.
const SRC_SCHED: u8 = 0;
const SRC_HOLD: u8 = 1;
const SRC_ACC: u8 = 2;

#[inline]
fn inc_mod(x: usize, k: usize) -> usize {
    if x + 1 == k {
        0
    } else {
        x + 1
    }
}

impl Core {
    pub(crate) fn new(cfg: &RouterConfig) -> Core {
        let n = cfg.ports();
        let m = cfg.vcs();
        let nm = n * m;
        let h = cfg.header();
        assert!(h.width() <= 64 && h.dest.lsb == 0);
        let codes = 1usize << h.dest.width;
        let w = cfg.flit_width();
        let lanes = cfg.extra_lanes() + 1;
        assert!(lanes <= MAX_LANES);
        let s = cfg.traffic_classes();
        let part = cfg.vc_classes().map(|map| {
            let mut a = [0u32; 8];
            for (u, &c) in map.iter().enumerate() {
                a[c as usize] |= 1 << u;
            }
            a
        });
        let full = cfg.crossbar() == Crossbar::Full;
        let vclock = cfg.scheduler() == Scheduler::Virtualclock;
        let va_words = nm.div_ceil(64);
        let mut c = Core {
            n,
            m,
            nm,
            di: cfg.input_buffer_depth(),
            dout: cfg.output_buffer_depth(),
            dd: cfg.downstream_buffer_depth() as u16,
            full,
            sched: cfg.scheduler(),
            preempt: cfg.mode() == RouterMode::Preemptive,
            accel: cfg.acceleration(),
            lanes,
            b: cfg.block_size() as u8,
            s,
            part,
            dw: h.dest.width,
            cw: h.class.width,
            vtw: h.vtick.width,
            dest_mask: (1u64 << h.dest.width) - 1,
            class_mask: (1u64 << h.class.width) - 1,
            vtick_mask: (1u64 << h.vtick.width) - 1,
            word_mask: std::array::from_fn(|k| {
                let lo = 64 * k as u32;
                if w >= lo + 64 {
                    u64::MAX
                } else if w <= lo {
                    0
                } else {
                    (1u64 << (w - lo)) - 1
                }
            }),
            vc_id_mask: ((1u32 << cfg.vc_width()) - 1) as u8,
            route_lut: (0..codes as u64).map(|d| cfg.route(d) as u8).collect(),
            allowed_lut: (0..codes as u64).map(|d| cfg.route_vcs(d)).collect(),
            links_lut: (0..codes as u64).map(|d| cfg.route_links(d) as u8).collect(),
            multi_link: cfg.route_link_table().is_some(),
            free_start: vec![0; n],
            va_words,
            lanes_q: Rings::new(nm * lanes, cfg.input_buffer_depth()),
            ivc: vec![Ivc::default(); nm],
            hs: vec![[HeaderFields::default(); MAX_LANES]; nm],
            ob: Rings::new(nm, cfg.output_buffer_depth()),
            credits: vec![0; nm],
            allocated: vec![0; n],
            owner: vec![0; nm],
            va_ptr: vec![0; n],
            xa_ptr: vec![0; n],
            acc_ptr: vec![0; n],
            xb_ptr: vec![0; n],
            oc_ptr: vec![0; n],
            in_stamp: vec![0; nm],
            out_stamp: vec![0; nm],
            blk: vec![Blk::default(); n],
            vclk: if vclock {
                vec![VirtualClockScheduler::new(m, cfg.clock_width(), h.vtick.width); n]
            } else {
                Vec::new()
            },
            bw: vec![None; n],
            written: vec![0; n],
            offer: vec![0; nm],
            dec: vec![0; nm],
            va_req: vec![0; n * va_words],
            va_any: vec![false; n],
            va_maxc: vec![0; n],
            pick_c: vec![None; n],
            cand: vec![None; n],
            ready_a: vec![0; n],
            pflits: vec![0; n],
            tail_x: vec![0; n],
            pextra: vec![0; n],
            oflits: vec![0; n],
            no_skip: false,
            xb_req: vec![0; n],
            va_grant: vec![None; n],
            victim: vec![None; n],
        };
        c.reset();
        c
    }

    /// Makes every scheduling point the FGFQ comparison scheduler (in reset state).
    pub(crate) fn use_fair_queueing(&mut self, cfg: &RouterConfig) {
        for v in &mut self.vclk {
            *v = VirtualClockScheduler::new_fair_queueing(self.m, cfg.clock_width(), cfg.header().vtick.width);
        }
    }

    pub(crate) fn reset(&mut self) {
        self.lanes_q.clear();
        self.ivc.fill(Ivc::default());
        self.hs.fill([HeaderFields::default(); MAX_LANES]);
        self.ob.clear();
        self.credits.fill(self.dd);
        self.allocated.fill(0);
        self.free_start.fill(0);
        self.owner.fill(0);
        self.va_ptr.fill(0);
        self.xa_ptr.fill(0);
        self.acc_ptr.fill(0);
        self.xb_ptr.fill(0);
        self.oc_ptr.fill(0);
        self.in_stamp.fill(0);
        self.out_stamp.fill(0);
        self.blk.fill(Blk::default());
        self.pflits.fill(0);
        self.pextra.fill(0);
        self.oflits.fill(0);
        // Scratch too, so that a reset router equals a new one.
        self.bw.fill(None);
        self.written.fill(0);
        self.offer.fill(0);
        self.dec.fill(0);
        self.va_req.fill(0);
        self.va_any.fill(false);
        self.va_maxc.fill(0);
        self.pick_c.fill(None);
        self.cand.fill(None);
        self.ready_a.fill(0);
        self.xb_req.fill(0);
        self.va_grant.fill(None);
        self.victim.fill(None);
        self.tail_x.fill(0);
        for v in &mut self.vclk {
            v.reset();
        }
    }

    /// `cls(x)` of §9.1.
    #[inline]
    fn cls(&self, code: u32) -> u32 {
        if code >= self.s {
            0
        } else {
            code
        }
    }

    #[inline]
    fn header_of(&self, data: &[u64; MAX_FLIT_WORDS]) -> HeaderFields {
        let d = data[0];
        HeaderFields {
            dest: (d & self.dest_mask) as u32,
            class: ((d >> self.dw) & self.class_mask) as u32,
            vtick: ((d >> (self.dw + self.cw)) & self.vtick_mask) as u32,
        }
    }

    #[inline]
    fn header_data(&self, h: &HeaderFields) -> [u64; MAX_FLIT_WORDS] {
        [h.dest as u64 | (h.class as u64) << self.dw | (h.vtick as u64) << (self.dw + self.cw), 0, 0, 0]
    }

    #[inline]
    fn lane_ring(&self, i: usize, l: usize) -> usize {
        i * self.lanes + l
    }

    /// Total flits in the lanes of input VC i.
    fn occupancy(&self, i: usize) -> usize {
        (0..self.lanes).map(|l| self.lanes_q.count(self.lane_ring(i, l))).sum()
    }

    /// The stage 4 offer of input VC i at the start of the cycle and whether it is ready.
    #[inline]
    fn offer_of(&self, i: usize) -> (u8, bool) {
        let d = &self.ivc[i];
        if d.state != ACTIVE {
            return (OFF_NONE, false);
        }
        let room = self.ob.count(d.route as usize * self.m + d.ovc as usize) < self.dout;
        if d.sl < d.top {
            if d.sent {
                (OFF_DTAIL, room)
            } else {
                (OFF_NONE, false)
            }
        } else if d.susp >> d.sl & 1 == 1 {
            (OFF_DHEAD, room)
        } else if self.lanes_q.count(self.lane_ring(i, d.sl as usize)) > 0 {
            (OFF_LANE, room)
        } else {
            (OFF_NONE, false)
        }
    }

    /// One cycle (see the module documentation).
    pub(crate) fn step(&mut self, inputs: &RouterInputs, out: &mut RouterOutputs, stats: &mut RouterStats, cycle: u64) {
        let n = self.n;
        let m = self.m;
        let b = self.b;
        let vc_all = ((1u64 << m) - 1) as u32;

        // Input ports whose VCs can act this cycle: some lane flit, open
        // extra lane or stack entry (otherwise every VC is IDLE without a
        // flit, or ACTIVE waiting for flits with nothing to offer).
        let mut busy_in = 0u32;
        let mut busy_out = 0u32;
        if self.multi_link {
            for o in 0..n {
                self.free_start[o] = (!self.allocated[o] & vc_all).count_ones();
            }
        }
        for p in 0..n {
            busy_in |= ((self.pflits[p] | self.pextra[p] != 0) as u32) << p;
            busy_out |= ((self.oflits[p] != 0) as u32) << p;
        }
        if self.no_skip {
            busy_in = u32::MAX;
            busy_out = u32::MAX;
        }
        if busy_in | busy_out == 0
            && inputs.flits[..n].iter().all(|f| !f.valid)
            && inputs.credits[..n].iter().all(|&c| c & vc_all == 0)
            && out.flits.iter().all(|f| !f.valid)
            && out.credits.iter().all(|&c| c == 0)
        {
            // A quiet cycle: only the VirtualClock counters advance and any
            // block hold ends (its slot is not eligible).
            for v in &mut self.vclk {
                v.grant_lit(0, 0, 0, |_| 0);
                v.update_granted(None);
            }
            for bl in &mut self.blk {
                bl.left = 0;
            }
            return;
        }

        // ================================================================ decisions
        // ---- BW (lane choice on start-of-cycle registers).
        for p in 0..n {
            self.written[p] = 0;
            self.bw[p] = None;
            let f = &inputs.flits[p];
            if !f.valid {
                continue;
            }
            let v = (f.vc & self.vc_id_mask) as usize;
            if v >= m {
                stats.dropped_bad_vc += 1;
                continue;
            }
            let i = p * m + v;
            let mut data = f.data;
            for (d, w) in data.iter_mut().zip(self.word_mask) {
                *d &= w;
            }
            let flit = QFlit { data, head: f.head, tail: f.tail, dummy: f.dummy && self.preempt, vtick: 0 };
            let d = &self.ivc[i];
            let (lane, kind, class) = if !self.preempt {
                (0, 0, 0)
            } else if f.head {
                let c = self.cls(self.header_of(&data).class) as u8;
                if d.top == 0 && self.lanes_q.count(self.lane_ring(i, 0)) == 0 && d.sl == 0 && d.state == IDLE {
                    (0, 1, c)
                } else if let Some(l) = (0..=d.top as usize).find(|&l| d.lmax[l] >= c) {
                    (l, 2, c)
                } else if (d.top as usize) < self.lanes - 1 {
                    (d.top as usize + 1, 3, c)
                } else {
                    (d.top as usize, 2, c)
                }
            } else {
                (d.wl as usize, 0, 0)
            };
            if self.lanes_q.count(self.lane_ring(i, lane)) >= self.di {
                stats.dropped_full += 1;
                continue;
            }
            self.written[p] = 1 << v;
            self.bw[p] = Some(BwDec { i: i as u16, lane: lane as u8, kind, class, flit });
        }

        // ---- Stage 5 picks (start-of-cycle ob counts and credits).
        let vc_c = self.full && self.sched == Scheduler::Virtualclock;
        for o in 0..n {
            self.pick_c[o] = None;
            if busy_out >> o & 1 == 0 {
                if self.full {
                    if self.sched == Scheduler::Virtualclock {
                        self.vclk[o].grant_lit(0, 0, 0, |_| 0);
                        self.vclk[o].update_granted(None);
                    }
                    self.blk[o].left = 0;
                }
                continue;
            }
            let mut present = 0u32;
            let mut elig = 0u32;
            let mut rt = 0u32;
            for u in 0..m {
                let j = o * m + u;
                if self.ob.count(j) > 0 {
                    present |= 1 << u;
                    if self.credits[j] > 0 {
                        elig |= 1 << u;
                    }
                    if vc_c && is_realtime(self.ob.front(j).vtick as u64, self.vtw) {
                        rt |= 1 << u;
                    }
                }
            }
            if !self.full {
                self.pick_c[o] = rr_pick(elig as u64, self.oc_ptr[o] as u32).map(|u| u as u8);
                continue;
            }
            // Full crossbar: the configured scheduler at C, with the block hold.
            let blk = self.blk[o];
            let hold = blk.left > 0 && elig >> blk.slot & 1 == 1;
            let hold_end = blk.left > 0 && !hold;
            let vc_choice = if self.sched == Scheduler::Virtualclock {
                let ob = &self.ob;
                self.vclk[o].grant_lit(present, rt, elig, |u| ob.front(o * m + u).vtick as u64)
            } else {
                None
            };
            let pick = if hold {
                Some(blk.slot as usize)
            } else if elig == 0 {
                None
            } else {
                match self.sched {
                    Scheduler::Fifo => age_pick(elig as u64, &self.out_stamp[o * m..o * m + m]).map(|u| u as usize),
                    Scheduler::RoundRobin => rr_pick(elig as u64, self.oc_ptr[o] as u32).map(|u| u as usize),
                    Scheduler::Virtualclock => vc_choice,
                }
            };
            // Every grant at C takes effect: update the scheduler and the hold now.
            if self.sched == Scheduler::Virtualclock {
                self.vclk[o].update_granted(pick);
            }
            if let Some(u) = pick {
                if hold {
                    stats.block_holds += 1;
                }
                if self.sched == Scheduler::RoundRobin {
                    self.oc_ptr[o] = inc_mod(u, m) as u8;
                }
                let tail = self.ob.front(o * m + u).tail;
                let bl = &mut self.blk[o];
                if u == bl.slot as usize && bl.left > 0 {
                    bl.left -= 1;
                } else {
                    bl.slot = u as u8;
                    bl.left = b - 1;
                }
                if tail {
                    bl.left = 0;
                }
            } else if hold_end {
                self.blk[o].left = 0;
            }
            self.pick_c[o] = pick.map(|u| u as u8);
        }

        // ---- Per input VC: offers, VA requests, RC, preemption step, lane release.
        for o in 0..n {
            self.va_any[o] = false;
            self.va_maxc[o] = 0;
            self.va_grant[o] = None;
            self.victim[o] = None;
        }
        self.va_req.fill(0);
        let vw = self.va_words;
        for p in 0..n {
            if busy_in >> p & 1 == 0 {
                self.offer[p * m..p * m + m].fill(OFF_NONE);
                self.dec[p * m..p * m + m].fill(0);
                continue;
            }
            for v in 0..m {
                let i = p * m + v;
                let (off, rdy) = self.offer_of(i);
                self.offer[i] = off | (rdy as u8) << 7;
                let d = &self.ivc[i];
                let mut dec = 0u8;
                if d.sl < d.top {
                    // Preemption step (§9.4): (a) is the dummy-tail offer.
                    if !(d.state == ACTIVE && d.sent) {
                        dec |= D_PREEMPT_SILENT;
                    }
                } else {
                    match d.state {
                        IDLE => {
                            if d.susp >> d.sl & 1 == 1 || self.lanes_q.count(self.lane_ring(i, d.sl as usize)) > 0 {
                                dec |= D_RC;
                            }
                            if d.sl > 0
                                && self.lanes_q.count(self.lane_ring(i, d.sl as usize)) == 0
                                && self.written[p] >> v & 1 == 0
                            {
                                dec |= D_RELEASE;
                            }
                        }
                        ROUTED => {
                            let o = d.route as usize;
                            let c = self.cls(d.hdr.class);
                            self.va_any[o] = true;
                            self.va_maxc[o] = self.va_maxc[o].max(c as u8);
                            let free = !self.allocated[o] & ((1u64 << m) - 1) as u32 & self.allowed_lut[d.hdr.dest as usize];
                            let sat = match &self.part {
                                Some(pm) => free & pm[c as usize] != 0,
                                None => free != 0,
                            };
                            if sat {
                                self.va_req[o * vw + i / 64] |= 1 << (i % 64);
                            }
                        }
                        _ => {}
                    }
                }
                self.dec[i] = dec;
            }
        }

        // ---- VA (start-of-cycle `allocated`).
        for o in 0..n {
            let free = !self.allocated[o] & ((1u64 << m) - 1) as u32;
            let req = &self.va_req[o * vw..o * vw + vw];
            if let Some(i) = rr_pick_wide(req, self.va_ptr[o] as usize) {
                let c = self.cls(self.ivc[i].hdr.class);
                let allowed = free & self.allowed_lut[self.ivc[i].hdr.dest as usize];
                let avail = match &self.part {
                    Some(pm) => allowed & pm[c as usize],
                    None => allowed,
                };
                self.va_grant[o] = Some((i as u16, avail.trailing_zeros() as u8));
            }
            if self.accel && self.va_any[o] && free == 0 {
                let cstar = self.va_maxc[o] as u32;
                self.victim[o] =
                    (0..m).map(|u| self.owner[o * m + u]).find(|&w| self.cls(self.ivc[w as usize].hdr.class) < cstar);
            }
        }

        // ---- Stage 4: A and B (multiplexed) or every ready VC (full).
        for p in 0..n {
            self.cand[p] = None;
            self.xb_req[p] = 0;
        }
        if !self.full {
            for p in 0..n {
                if busy_in >> p & 1 == 0 {
                    self.ready_a[p] = 0;
                    if self.sched == Scheduler::Virtualclock {
                        self.vclk[p].grant_lit(0, 0, 0, |_| 0);
                    }
                    continue;
                }
                let mut present = 0u32;
                let mut ready = 0u32;
                let mut rt = 0u32;
                let mut accd = 0u32;
                for v in 0..m {
                    let i = p * m + v;
                    let (off, rdy) = (self.offer[i] & 3, self.offer[i] >> 7 == 1);
                    if off == OFF_NONE {
                        continue;
                    }
                    present |= 1 << v;
                    ready |= (rdy as u32) << v;
                    let d = &self.ivc[i];
                    if self.sched == Scheduler::Virtualclock && is_realtime(d.hdr.vtick as u64, self.vtw) {
                        rt |= 1 << v;
                    }
                    if self.accel && (d.acc || off == OFF_DTAIL) {
                        accd |= 1 << v;
                    }
                }
                let vc_choice = if self.sched == Scheduler::Virtualclock {
                    let ivc = &self.ivc;
                    self.vclk[p].grant_lit(present, rt, ready, |v| ivc[p * m + v].hdr.vtick as u64)
                } else {
                    None
                };
                let blk = self.blk[p];
                let acc_ready = ready & accd;
                let pick = if acc_ready != 0 {
                    Some((rr_pick(acc_ready as u64, self.acc_ptr[p] as u32).unwrap() as usize, SRC_ACC))
                } else if blk.left > 0 && ready >> blk.slot & 1 == 1 {
                    Some((blk.slot as usize, SRC_HOLD))
                } else if ready == 0 {
                    None
                } else {
                    let v = match self.sched {
                        Scheduler::Fifo => age_pick(ready as u64, &self.in_stamp[p * m..p * m + m]).unwrap() as usize,
                        Scheduler::RoundRobin => rr_pick(ready as u64, self.xa_ptr[p] as u32).unwrap() as usize,
                        Scheduler::Virtualclock => vc_choice.unwrap(),
                    };
                    Some((v, SRC_SCHED))
                };
                self.ready_a[p] = ready;
                if let Some((v, src)) = pick {
                    self.cand[p] = Some((v as u8, src));
                    let o = self.ivc[p * m + v].route as usize;
                    self.xb_req[o] |= 1 << p;
                }
            }
        }

        // ================================================================ updates
        // ---- Stage 5: pops, output registers, credits.
        for o in 0..n {
            out.flits[o] = LinkFlit::IDLE;
            if let Some(u) = self.pick_c[o] {
                let u = u as usize;
                let j = o * m + u;
                let f = self.ob.pop(j);
                self.oflits[o] -= 1;
                self.credits[j] -= 1;
                if !self.full {
                    self.oc_ptr[o] = inc_mod(u, m) as u8;
                }
                out.flits[o] =
                    LinkFlit { valid: true, vc: u as u8, head: f.head, tail: f.tail, dummy: f.dummy, data: f.data };
                stats.flits_forwarded += 1;
                stats.tails_forwarded += (f.tail && !f.dummy) as u64;
            }
            let ret = inputs.credits[o];
            for u in 0..m {
                if ret >> u & 1 == 1 && self.credits[o * m + u] < self.dd {
                    self.credits[o * m + u] += 1;
                }
            }
        }

        // ---- VA grants.
        for o in 0..n {
            if let Some((i, u)) = self.va_grant[o] {
                let (i, u) = (i as usize, u as usize);
                let c = self.cls(self.ivc[i].hdr.class);
                let d = &mut self.ivc[i];
                d.state = ACTIVE;
                d.ovc = u as u8;
                self.allocated[o] |= 1 << u;
                self.owner[o * m + u] = i as u16;
                self.va_ptr[o] = inc_mod(i, self.nm) as u16;
                self.in_stamp[i] = cycle + 1;
                self.out_stamp[o * m + u] = cycle + 1;
                stats.vc_grants += 1;
                if self.part.is_some() {
                    stats.partition_grants[c as usize] += 1;
                }
            }
        }

        // ---- Stage 4 moves.
        for p in 0..n {
            out.credits[p] = 0;
            self.tail_x[p] = 0;
        }
        if self.full {
            for p in 0..n {
                if busy_in >> p & 1 == 0 {
                    continue;
                }
                for v in 0..m {
                    let i = p * m + v;
                    let (off, rdy) = (self.offer[i] & 3, self.offer[i] >> 7 == 1);
                    if off != OFF_NONE && rdy {
                        self.move_flit(i, p, v, off, out, stats);
                    }
                }
            }
        } else {
            let mut won = 0u32;
            for o in 0..n {
                let req = self.xb_req[o];
                if req == 0 {
                    continue;
                }
                let p = rr_pick(req as u64, self.xb_ptr[o] as u32).unwrap() as usize;
                self.xb_ptr[o] = inc_mod(p, n) as u8;
                won |= 1 << p;
            }
            for p in 0..n {
                let took = self.cand[p].filter(|_| won >> p & 1 == 1);
                if self.sched == Scheduler::Virtualclock {
                    self.vclk[p].update_granted(took.map(|(v, _)| v as usize));
                }
                let blk = self.blk[p];
                let hold_end = blk.left > 0 && self.ready_a[p] >> blk.slot & 1 == 0;
                match took {
                    Some((v, src)) => {
                        let v = v as usize;
                        let i = p * m + v;
                        let off = self.offer[i] & 3;
                        let tail = match off {
                            OFF_LANE => self.lanes_q.front(self.lane_ring(i, self.ivc[i].sl as usize)).tail,
                            OFF_DTAIL => true,
                            _ => false,
                        };
                        if self.sched == Scheduler::RoundRobin {
                            self.xa_ptr[p] = inc_mod(v, m) as u8;
                        }
                        if src == SRC_ACC {
                            self.acc_ptr[p] = inc_mod(v, m) as u8;
                        }
                        if src == SRC_HOLD {
                            stats.block_holds += 1;
                        }
                        let bl = &mut self.blk[p];
                        if v == bl.slot as usize && bl.left > 0 {
                            bl.left -= 1;
                        } else {
                            bl.slot = v as u8;
                            bl.left = b - 1;
                        }
                        if tail {
                            bl.left = 0;
                        }
                        self.move_flit(i, p, v, off, out, stats);
                    }
                    None => {
                        if hold_end {
                            self.blk[p].left = 0;
                        }
                    }
                }
            }
        }

        // ---- Acceleration flags: a set loses to a tail of the same VC crossing now.
        if self.accel {
            for o in 0..n {
                if let Some(w) = self.victim[o] {
                    let w = w as usize;
                    if self.tail_x[w / m] >> (w % m) & 1 == 0 && !self.ivc[w].acc {
                        self.ivc[w].acc = true;
                        stats.accelerations += 1;
                    }
                }
            }
        }

        // ---- RC, preemption step (b)/(c), lane release (VCs not touched by ST or VA).
        for i in 0..self.nm {
            let dec = self.dec[i];
            if dec == 0 {
                continue;
            }
            if dec & D_PREEMPT_SILENT != 0 {
                let d = &mut self.ivc[i];
                if d.state == ACTIVE {
                    let (o, u) = (d.route as usize, d.ovc as usize);
                    self.allocated[o] &= !(1 << u);
                }
                d.state = IDLE;
                d.sl += 1;
                stats.silent_preemptions += 1;
                continue;
            }
            if dec & D_RC != 0 {
                let sl = self.ivc[i].sl as usize;
                let h = if self.ivc[i].susp >> sl & 1 == 1 {
                    let d = &self.ivc[i];
                    // (hsp > 0 whenever susp is set, except after protocol violations.)
                    self.hs[i][(d.hsp as usize).saturating_sub(1)]
                } else {
                    let r = self.lane_ring(i, sl);
                    self.header_of(&self.lanes_q.front(r).data)
                };
                let first = self.route_lut[h.dest as usize] as usize;
                let group = first..first + self.links_lut[h.dest as usize] as usize;
                // max_by_key keeps the last maximum: scanning from the top
                // port down, that is the lowest port among the ties.
                let route = group.rev().max_by_key(|&o| self.free_start[o]).unwrap() as u8;
                let d = &mut self.ivc[i];
                d.hdr = h;
                d.route = route;
                d.state = ROUTED;
                stats.routed += 1;
            }
            if dec & D_RELEASE != 0 {
                let d = &mut self.ivc[i];
                d.top -= 1;
                d.sl -= 1;
                self.pextra[i / self.m] -= 1;
            }
        }

        // ---- BW writes and lane-choice registers.
        for p in 0..n {
            let Some(w) = self.bw[p] else { continue };
            let i = w.i as usize;
            let r = self.lane_ring(i, w.lane as usize);
            self.lanes_q.push(r, w.flit);
            self.pflits[i / m] += 1;
            if w.kind == 3 {
                self.pextra[i / m] += 1;
            }
            stats.flits_accepted += 1;
            let d = &mut self.ivc[i];
            match w.kind {
                1 => d.lmax[0] = w.class,
                3 => {
                    d.top += 1;
                    d.lmax[w.lane as usize] = w.class;
                }
                _ => {}
            }
            if w.flit.head && self.preempt {
                d.wl = w.lane;
            }
        }
    }

    /// Stage 4 move of input VC i's offer `off` into its output VC.
    #[inline]
    fn move_flit(&mut self, i: usize, p: usize, v: usize, off: u8, out: &mut RouterOutputs, stats: &mut RouterStats) {
        let m = self.m;
        let d = self.ivc[i];
        let (o, u) = (d.route as usize, d.ovc as usize);
        let mut f = match off {
            OFF_LANE => {
                let f = self.lanes_q.pop(self.lane_ring(i, d.sl as usize));
                self.pflits[p] -= 1;
                out.credits[p] |= 1 << v;
                stats.crossbar_moves += 1;
                f
            }
            OFF_DHEAD => {
                stats.dummy_headers += 1;
                QFlit { data: self.header_data(&d.hdr), head: true, tail: false, dummy: true, vtick: 0 }
            }
            _ => {
                stats.preemptions += 1;
                if d.hsp > 0 {
                    stats.nested_preemptions += 1;
                }
                QFlit { data: [0; MAX_FLIT_WORDS], head: false, tail: true, dummy: true, vtick: 0 }
            }
        };
        f.vtick = d.hdr.vtick;
        self.ob.push(o * m + u, f);
        self.oflits[o] += 1;
        // The stack saturates (only reachable after protocol violations).
        match off {
            OFF_DHEAD if d.hsp > 0 => self.pextra[p] -= 1,
            OFF_DTAIL if (d.hsp as usize) < MAX_LANES => self.pextra[p] += 1,
            _ => {}
        }
        let dm = &mut self.ivc[i];
        match off {
            OFF_DHEAD => {
                dm.hsp = dm.hsp.saturating_sub(1);
                dm.susp &= !(1 << dm.sl);
                dm.sent = true;
            }
            OFF_DTAIL => {
                self.tail_x[p] |= 1 << v;
                self.allocated[o] &= !(1 << u);
                dm.state = IDLE;
                dm.sent = false;
                if (dm.hsp as usize) < MAX_LANES {
                    self.hs[i][dm.hsp as usize] = dm.hdr;
                    dm.hsp += 1;
                }
                dm.susp |= 1 << dm.sl;
                dm.sl += 1;
                dm.acc = false;
                dm.hdr.vtick = 0;
            }
            _ => {
                dm.sent = true;
                if f.tail {
                    self.tail_x[p] |= 1 << v;
                    self.allocated[o] &= !(1 << u);
                    dm.state = IDLE;
                    dm.sent = false;
                    dm.acc = false;
                    dm.hdr.vtick = 0;
                }
            }
        }
    }

    // ---------------------------------------------------------------- introspection

    pub(crate) fn input_occupancy(&self, p: usize, v: usize) -> usize {
        self.occupancy(p * self.m + v)
    }
    pub(crate) fn lane_occupancy(&self, p: usize, v: usize, l: usize) -> usize {
        if l >= self.lanes {
            return 0;
        }
        self.lanes_q.count(self.lane_ring(p * self.m + v, l))
    }
    pub(crate) fn lane_flit(&self, p: usize, v: usize, l: usize, k: usize) -> Option<LinkFlit> {
        let r = self.lane_ring(p * self.m + v, l);
        (l < self.lanes && k < self.lanes_q.count(r)).then(|| {
            let f = self.lanes_q.get(r, k);
            LinkFlit { valid: true, vc: v as u8, head: f.head, tail: f.tail, dummy: f.dummy, data: f.data }
        })
    }
    pub(crate) fn output_occupancy(&self, o: usize, u: usize) -> usize {
        self.ob.count(o * self.m + u)
    }
    pub(crate) fn output_flit_vtick(&self, o: usize, u: usize, k: usize) -> Option<u64> {
        let j = o * self.m + u;
        (k < self.ob.count(j)).then(|| self.ob.get(j, k).vtick as u64)
    }
    pub(crate) fn credits(&self, o: usize, u: usize) -> usize {
        self.credits[o * self.m + u] as usize
    }
    pub(crate) fn allocated(&self, o: usize, u: usize) -> bool {
        self.allocated[o] >> u & 1 == 1
    }
    pub(crate) fn owner(&self, o: usize, u: usize) -> usize {
        self.owner[o * self.m + u] as usize
    }
    /// (state, route, ovc)
    pub(crate) fn vc_state(&self, p: usize, v: usize) -> (u8, usize, usize) {
        let d = &self.ivc[p * self.m + v];
        (d.state, d.route as usize, d.ovc as usize)
    }
    pub(crate) fn header_register(&self, p: usize, v: usize) -> HeaderFields {
        self.ivc[p * self.m + v].hdr
    }
    /// (top, sl, wl, hsp, susp mask, sent, acc)
    pub(crate) fn lane_regs(&self, p: usize, v: usize) -> LaneRegs {
        let d = &self.ivc[p * self.m + v];
        LaneRegs {
            top: d.top as usize,
            sl: d.sl as usize,
            wl: d.wl as usize,
            lmax: d.lmax,
            susp: d.susp,
            stack: self.hs[p * self.m + v],
            depth: d.hsp as usize,
            sent: d.sent,
            acc: d.acc,
        }
    }
    pub(crate) fn virtual_clock(&self, port: usize) -> Option<VirtualClockScheduler> {
        self.vclk.get(port).cloned()
    }
    pub(crate) fn buffered_flits(&self) -> usize {
        (0..self.nm).map(|i| self.occupancy(i) + self.ob.count(i)).sum()
    }
    pub(crate) fn is_quiescent(&self) -> bool {
        self.buffered_flits() == 0
            && self.ivc.iter().all(|d| d.state == IDLE && d.top == 0 && d.hsp == 0)
            && self.allocated.iter().all(|&a| a == 0)
            && self.credits.iter().all(|&c| c == self.dd)
    }
}

/// The §9.4 registers of one input VC (see [`crate::Router::lane_regs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRegs {
    /// Highest lane in use.
    pub top: usize,
    /// Serving lane.
    pub sl: usize,
    /// Lane of the message being received.
    pub wl: usize,
    /// Highest class opened in each lane (`lmax[l]`, meaningful for l <= top).
    pub lmax: [u8; MAX_LANES],
    /// Bit l: `susp[l]`.
    pub susp: u8,
    /// History stack entries `hs[0..depth]` (bottom first).
    pub stack: [HeaderFields; MAX_LANES],
    /// `hsp`.
    pub depth: usize,
    pub sent: bool,
    pub acc: bool,
}

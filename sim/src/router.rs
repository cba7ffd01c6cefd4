//! The cycle-exact router model (docs/microarchitecture.md §4–§6).
//!
//! All storage is allocated in [`Router::new`]; [`Router::step`] never allocates.
//! Per-VC state lives in flat vectors indexed `p*M + v` (input VCs) and
//! `o*M + u` (output VCs); per-port sets of VCs are bit masks (M ≤ 16), and the
//! VA requesters of each output port are a bit set over the N*M input VCs.
//!
//! `step` is one cycle. Every decision reads the state at the start of the
//! cycle; updates are ordered so that no stage observes another stage's update
//! of the same cycle:
//!
//! 0. BW admission decided (on the start-of-cycle `ib_count`);
//! 1. stage 5 picks decided (start-of-cycle `ob_count`, `credits`);
//! 2. ST: decide and move (readiness on start-of-cycle `ob_count`: stage 5 has
//!    not popped yet, and each output VC is pushed only by its single owner);
//!    a tail's input VC goes to a transient "freed" set and its output VC to a
//!    pending-free mask;
//! 3. stage 5 pops, output registers, credits;
//! 4. VA (on start-of-cycle `allocated`: pending frees not applied yet);
//! 5. pending output-VC frees applied;
//! 6. RC (only VCs IDLE at the start of the cycle), then the freed input VCs
//!    become IDLE;
//! 7. BW pushes.

use crate::arbiter::{age_pick, rr_pick, rr_pick_wide};
use crate::fifo::{Flit, FlitRings};
use crate::link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
use wormqos_config::{Crossbar, RouterConfig, Scheduler};

const NONE: u8 = u8::MAX;

/// State of one input VC (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VcState {
    Idle,
    /// Route computed, waiting for an output VC.
    Routed { route: usize },
    /// Holds output VC `ovc` of port `route`.
    Active { route: usize, ovc: usize },
}

/// Event counters since the last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RouterStats {
    /// Flits written into an input buffer (BW).
    pub flits_accepted: u64,
    /// Valid input flits dropped because their VC id was `>= vcs`.
    pub dropped_bad_vc: u64,
    /// Valid input flits dropped because their input VC buffer was full.
    pub dropped_full: u64,
    /// Route computations performed (headers routed).
    pub routed: u64,
    /// Output VC grants (VA).
    pub vc_grants: u64,
    /// Flits that crossed the crossbar (ST); each returns one credit upstream.
    pub crossbar_moves: u64,
    /// Flits placed on output links (stage 5).
    pub flits_forwarded: u64,
    /// Tail flits placed on output links (messages completed).
    pub tails_forwarded: u64,
}

impl RouterStats {
    /// Valid input flits not accepted, for any reason.
    pub fn flits_dropped(&self) -> u64 {
        self.dropped_bad_vc + self.dropped_full
    }
}

/// Cycle-exact golden model of one router. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Router {
    cfg: RouterConfig,
    // ---- parameters
    n: usize,
    m: usize,
    nm: usize,
    di: u16,
    dout: u16,
    dd: u16,
    full: bool,
    /// FIFO age arbiter at point A (multiplexed crossbar, fifo scheduler).
    age_a: bool,
    /// FIFO age arbiter at point C (full crossbar, fifo scheduler).
    age_c: bool,
    words: usize,
    last_word_mask: u64,
    vc_id_mask: u8,
    vc_all: u32,
    dest_mask: u64,
    /// Output port per destination code, all 2^DW codes (codes >= endpoints -> 0).
    route_lut: Vec<u8>,
    va_words: usize,

    // ---- input VCs, index p*M+v
    ib: FlitRings,
    route: Vec<u8>,
    ovc: Vec<u8>,
    /// Age stamps at point A (1 + cycle of the last VA grant; 0 at reset).
    in_stamp: Vec<u64>,
    // ---- per input port, bit v = VC v
    idle: Vec<u32>,
    active: Vec<u32>,
    in_nonempty: Vec<u32>,
    xa_ptr: Vec<u8>,

    // ---- output VCs, index o*M+u
    ob: FlitRings,
    credits: Vec<u16>,
    /// Age stamps at point C.
    out_stamp: Vec<u64>,
    // ---- per output port
    allocated: Vec<u32>,
    ob_nonempty: Vec<u32>,
    credit_ok: Vec<u32>,
    va_ptr: Vec<u16>,
    xb_ptr: Vec<u8>,
    oc_ptr: Vec<u8>,
    /// VA requesters (ROUTED input VCs) of output port o: words [o*va_words, (o+1)*va_words).
    va_req: Vec<u64>,
    va_req_count: Vec<u16>,

    // ---- per-cycle scratch (always all-zero / NONE between steps)
    picked: Vec<u8>,
    cand: Vec<u8>,
    xb_req: Vec<u64>,
    freed: Vec<u32>,
    alloc_clear: Vec<u32>,

    // ---- registers and bookkeeping
    outputs: RouterOutputs,
    cycle: u64,
    stats: RouterStats,
}

impl Router {
    /// A router in the reset state.
    pub fn new(cfg: &RouterConfig) -> Router {
        let n = cfg.ports();
        let m = cfg.vcs();
        let nm = n * m;
        let dest = cfg.header().dest;
        assert_eq!(dest.lsb, 0);
        assert!(dest.width <= 16);
        let codes = 1usize << dest.width;
        let route_lut = (0..codes as u64).map(|d| cfg.route(d) as u8).collect();
        let w = cfg.flit_width();
        let words = cfg.flit_words();
        let last_word_mask = if w % 64 == 0 { u64::MAX } else { (1u64 << (w % 64)) - 1 };
        let va_words = nm.div_ceil(64);
        let fifo = cfg.scheduler() == Scheduler::Fifo;
        let full = cfg.crossbar() == Crossbar::Full;
        Router {
            n,
            m,
            nm,
            di: cfg.input_buffer_depth() as u16,
            dout: cfg.output_buffer_depth() as u16,
            dd: cfg.downstream_buffer_depth() as u16,
            full,
            age_a: fifo && !full,
            age_c: fifo && full,
            words,
            last_word_mask,
            vc_id_mask: ((1u32 << cfg.vc_width()) - 1) as u8,
            vc_all: ((1u64 << m) - 1) as u32,
            dest_mask: (1u64 << dest.width) - 1,
            route_lut,
            va_words,
            ib: FlitRings::new(nm, cfg.input_buffer_depth()),
            route: vec![0; nm],
            ovc: vec![0; nm],
            in_stamp: vec![0; nm],
            idle: vec![((1u64 << m) - 1) as u32; n],
            active: vec![0; n],
            in_nonempty: vec![0; n],
            xa_ptr: vec![0; n],
            ob: FlitRings::new(nm, cfg.output_buffer_depth()),
            credits: vec![cfg.downstream_buffer_depth() as u16; nm],
            out_stamp: vec![0; nm],
            allocated: vec![0; n],
            ob_nonempty: vec![0; n],
            credit_ok: vec![((1u64 << m) - 1) as u32; n],
            va_ptr: vec![0; n],
            xb_ptr: vec![0; n],
            oc_ptr: vec![0; n],
            va_req: vec![0; n * va_words],
            va_req_count: vec![0; n],
            picked: vec![NONE; n],
            cand: vec![NONE; n],
            xb_req: vec![0; n],
            freed: vec![0; n],
            alloc_clear: vec![0; n],
            outputs: RouterOutputs::idle(cfg),
            cycle: 0,
            stats: RouterStats::default(),
            cfg: cfg.clone(),
        }
    }

    /// The state after a cycle with `rst_i` high (§4 "Reset"): identical to
    /// [`Router::new`], including `cycle() == 0` and zeroed statistics.
    pub fn reset(&mut self) {
        self.ib.clear();
        self.route.fill(0);
        self.ovc.fill(0);
        self.in_stamp.fill(0);
        self.idle.fill(self.vc_all);
        self.active.fill(0);
        self.in_nonempty.fill(0);
        self.xa_ptr.fill(0);
        self.ob.clear();
        self.credits.fill(self.dd);
        self.out_stamp.fill(0);
        self.allocated.fill(0);
        self.ob_nonempty.fill(0);
        self.credit_ok.fill(self.vc_all);
        self.va_ptr.fill(0);
        self.xb_ptr.fill(0);
        self.oc_ptr.fill(0);
        self.va_req.fill(0);
        self.va_req_count.fill(0);
        self.picked.fill(NONE);
        self.cand.fill(NONE);
        self.xb_req.fill(0);
        self.freed.fill(0);
        self.alloc_clear.fill(0);
        self.outputs.flits.fill(LinkFlit::IDLE);
        self.outputs.credits.fill(0);
        self.cycle = 0;
        self.stats = RouterStats::default();
    }

    /// The registered outputs during the current cycle.
    #[inline]
    pub fn outputs(&self) -> &RouterOutputs {
        &self.outputs
    }

    /// Applies the inputs of the current cycle and advances one rising edge.
    ///
    /// `inputs.flits` and `inputs.credits` must have one entry per port. Data
    /// bits at or above `flit_width` and VC-id bits at or above the link's VC
    /// width `max(1, ceil(log2 vcs))` are not part of the link and are ignored;
    /// credit bits at or above `vcs` are ignored.
    pub fn step(&mut self, inputs: &RouterInputs) {
        let n = self.n;
        let m = self.m;
        assert!(inputs.flits.len() >= n && inputs.credits.len() >= n, "one input entry per port");

        // 0. BW admission, on the start-of-cycle counts.
        let mut bw_accept: u64 = 0;
        for (p, f) in inputs.flits[..n].iter().enumerate() {
            if !f.valid {
                continue;
            }
            let vc = (f.vc & self.vc_id_mask) as usize;
            if vc >= m {
                self.stats.dropped_bad_vc += 1;
            } else if self.ib.count(p * m + vc) >= self.di {
                self.stats.dropped_full += 1;
            } else {
                bw_accept |= 1 << p;
            }
        }

        // 1. Stage 5 decisions.
        for o in 0..n {
            let elig = (self.ob_nonempty[o] & self.credit_ok[o]) as u64;
            self.picked[o] = if elig == 0 {
                NONE
            } else if self.age_c {
                age_pick(elig, &self.out_stamp[o * m..o * m + m]).unwrap() as u8
            } else {
                rr_pick(elig, self.oc_ptr[o] as u32).unwrap() as u8
            };
        }

        // 2. ST.
        self.outputs.credits[..n].fill(0);
        if self.full {
            for p in 0..n {
                let mut c = self.active[p] & self.in_nonempty[p];
                while c != 0 {
                    let v = c.trailing_zeros() as usize;
                    c &= c - 1;
                    let i = p * m + v;
                    let o = self.route[i] as usize;
                    let u = self.ovc[i] as usize;
                    if self.ob.count(o * m + u) < self.dout {
                        self.move_flit(p, v, o, u);
                    }
                }
            }
        } else {
            let mut out_req: u64 = 0;
            for p in 0..n {
                let mut c = self.active[p] & self.in_nonempty[p];
                if c == 0 {
                    continue;
                }
                let mut ready: u64 = 0;
                while c != 0 {
                    let v = c.trailing_zeros() as usize;
                    c &= c - 1;
                    let i = p * m + v;
                    let o = self.route[i] as usize;
                    let u = self.ovc[i] as usize;
                    if self.ob.count(o * m + u) < self.dout {
                        ready |= 1 << v;
                    }
                }
                if ready == 0 {
                    continue;
                }
                // (A)
                let v = if self.age_a {
                    age_pick(ready, &self.in_stamp[p * m..p * m + m]).unwrap()
                } else {
                    rr_pick(ready, self.xa_ptr[p] as u32).unwrap()
                } as usize;
                self.cand[p] = v as u8;
                let o = self.route[p * m + v] as usize;
                self.xb_req[o] |= 1 << p;
                out_req |= 1 << o;
            }
            // (B)
            while out_req != 0 {
                let o = out_req.trailing_zeros() as usize;
                out_req &= out_req - 1;
                let req = self.xb_req[o];
                self.xb_req[o] = 0;
                let p = rr_pick(req, self.xb_ptr[o] as u32).unwrap() as usize;
                self.xb_ptr[o] = if p + 1 == n { 0 } else { (p + 1) as u8 };
                let v = self.cand[p] as usize;
                if !self.age_a {
                    self.xa_ptr[p] = if v + 1 == m { 0 } else { (v + 1) as u8 };
                }
                let u = self.ovc[p * m + v] as usize;
                self.move_flit(p, v, o, u);
            }
        }

        // 3. Stage 5: pops, output registers, credits.
        for o in 0..n {
            let u = self.picked[o];
            if u == NONE {
                self.outputs.flits[o] = LinkFlit::IDLE;
            } else {
                self.picked[o] = NONE;
                let u = u as usize;
                let j = o * m + u;
                let f = self.ob.pop(j);
                if self.ob.count(j) == 0 {
                    self.ob_nonempty[o] &= !(1 << u);
                }
                self.outputs.flits[o] = LinkFlit { valid: true, vc: u as u8, head: f.head, tail: f.tail, data: f.data };
                self.credits[j] -= 1;
                if self.credits[j] == 0 {
                    self.credit_ok[o] &= !(1 << u);
                }
                if !self.age_c {
                    self.oc_ptr[o] = if u + 1 == m { 0 } else { (u + 1) as u8 };
                }
                self.stats.flits_forwarded += 1;
                self.stats.tails_forwarded += f.tail as u64;
            }
            let mut ret = inputs.credits[o] & self.vc_all;
            while ret != 0 {
                let u = ret.trailing_zeros() as usize;
                ret &= ret - 1;
                let j = o * m + u;
                if self.credits[j] < self.dd {
                    self.credits[j] += 1;
                    self.credit_ok[o] |= 1 << u;
                }
            }
        }

        // 4. VA, on the start-of-cycle `allocated`.
        let stamp = self.cycle + 1;
        let vw = self.va_words;
        for o in 0..n {
            if self.va_req_count[o] == 0 {
                continue;
            }
            let free = !self.allocated[o] & self.vc_all;
            if free == 0 {
                continue;
            }
            let req = &mut self.va_req[o * vw..o * vw + vw];
            let i = rr_pick_wide(req, self.va_ptr[o] as usize).unwrap();
            req[i / 64] &= !(1u64 << (i % 64));
            self.va_req_count[o] -= 1;
            let u = free.trailing_zeros() as usize;
            let (p, v) = (i / m, i % m);
            self.active[p] |= 1 << v;
            self.ovc[i] = u as u8;
            self.allocated[o] |= 1 << u;
            self.va_ptr[o] = if i + 1 == self.nm { 0 } else { (i + 1) as u16 };
            self.in_stamp[i] = stamp;
            self.out_stamp[o * m + u] = stamp;
            self.stats.vc_grants += 1;
        }

        // 5. Output VCs freed by tails in ST.
        for o in 0..n {
            self.allocated[o] &= !self.alloc_clear[o];
            self.alloc_clear[o] = 0;
        }

        // 6. RC for VCs that were IDLE at the start of the cycle.
        for p in 0..n {
            let mut c = self.idle[p] & self.in_nonempty[p];
            while c != 0 {
                let v = c.trailing_zeros() as usize;
                c &= c - 1;
                let i = p * m + v;
                let d = self.ib.front(i).data[0] & self.dest_mask;
                let o = self.route_lut[d as usize] as usize;
                self.route[i] = o as u8;
                self.idle[p] &= !(1 << v);
                self.va_req[o * vw + i / 64] |= 1u64 << (i % 64);
                self.va_req_count[o] += 1;
                self.stats.routed += 1;
            }
            self.idle[p] |= self.freed[p];
            self.freed[p] = 0;
        }

        // 7. BW pushes.
        while bw_accept != 0 {
            let p = bw_accept.trailing_zeros() as usize;
            bw_accept &= bw_accept - 1;
            let f = &inputs.flits[p];
            let v = (f.vc & self.vc_id_mask) as usize;
            let mut data = [0u64; MAX_FLIT_WORDS];
            data[..self.words].copy_from_slice(&f.data[..self.words]);
            data[self.words - 1] &= self.last_word_mask;
            self.ib.push(p * m + v, Flit { data, head: f.head, tail: f.tail });
            self.in_nonempty[p] |= 1 << v;
            self.stats.flits_accepted += 1;
        }

        self.cycle += 1;
    }

    /// Stage 4 move of the front flit of input VC (p, v) into output VC (o, u).
    #[inline]
    fn move_flit(&mut self, p: usize, v: usize, o: usize, u: usize) {
        let m = self.m;
        let i = p * m + v;
        let f = self.ib.pop(i);
        if self.ib.count(i) == 0 {
            self.in_nonempty[p] &= !(1 << v);
        }
        self.outputs.credits[p] |= 1 << v;
        self.ob.push(o * m + u, f);
        self.ob_nonempty[o] |= 1 << u;
        if f.tail {
            self.active[p] &= !(1 << v);
            self.freed[p] |= 1 << v;
            self.alloc_clear[o] |= 1 << u;
        }
        self.stats.crossbar_moves += 1;
    }

    // ---------------------------------------------------------------- introspection

    pub fn config(&self) -> &RouterConfig {
        &self.cfg
    }
    /// Number of `step` calls since `new` or the last `reset`.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
    pub fn stats(&self) -> &RouterStats {
        &self.stats
    }
    /// Flits in input VC buffer (p, v).
    pub fn input_occupancy(&self, p: usize, v: usize) -> usize {
        assert!(v < self.m);
        self.ib.count(p * self.m + v) as usize
    }
    /// Flits in output VC buffer (o, u).
    pub fn output_occupancy(&self, o: usize, u: usize) -> usize {
        assert!(u < self.m);
        self.ob.count(o * self.m + u) as usize
    }
    /// Free slots of input VC (p, v): what an upstream sender may still send without a drop.
    pub fn input_free(&self, p: usize, v: usize) -> usize {
        self.ib.capacity() as usize - self.input_occupancy(p, v)
    }
    /// Credits of output VC (o, u).
    pub fn credits(&self, o: usize, u: usize) -> usize {
        assert!(u < self.m);
        self.credits[o * self.m + u] as usize
    }
    /// Whether output VC (o, u) is held by a message.
    pub fn allocated(&self, o: usize, u: usize) -> bool {
        assert!(u < self.m);
        self.allocated[o] >> u & 1 == 1
    }
    /// State of input VC (p, v).
    pub fn vc_state(&self, p: usize, v: usize) -> VcState {
        assert!(v < self.m);
        let i = p * self.m + v;
        if self.idle[p] >> v & 1 == 1 {
            VcState::Idle
        } else if self.active[p] >> v & 1 == 1 {
            VcState::Active { route: self.route[i] as usize, ovc: self.ovc[i] as usize }
        } else {
            VcState::Routed { route: self.route[i] as usize }
        }
    }
    /// The k-th oldest flit of input VC (p, v), as a link flit on VC v.
    pub fn input_flit(&self, p: usize, v: usize, k: usize) -> Option<LinkFlit> {
        let i = p * self.m + v;
        (k < self.ib.count(i) as usize).then(|| {
            let f = self.ib.get(i, k);
            LinkFlit { valid: true, vc: v as u8, head: f.head, tail: f.tail, data: f.data }
        })
    }
    /// Total flits held in input and output buffers.
    pub fn buffered_flits(&self) -> usize {
        (0..self.nm).map(|i| (self.ib.count(i) + self.ob.count(i)) as usize).sum()
    }
    /// No flit buffered, no VC held, every output VC at full credit and no
    /// output valid: further idle cycles change nothing but `cycle()`.
    pub fn is_quiescent(&self) -> bool {
        self.in_nonempty.iter().all(|&x| x == 0)
            && self.ob_nonempty.iter().all(|&x| x == 0)
            && self.idle.iter().all(|&x| x == self.vc_all)
            && self.allocated.iter().all(|&x| x == 0)
            && self.credits.iter().all(|&c| c == self.dd)
            && self.outputs.flits.iter().all(|f| !f.valid)
            && self.outputs.credits.iter().all(|&c| c == 0)
    }
}

//! A deliberately naive second model, written literally from the spec: the
//! whole state is cloned at the start of each cycle and every stage reads the
//! clone and writes the next state. Slow, obvious, used only to cross-check
//! the optimised [`crate::Router`] under random traffic.
//!
//! Covers the foundation router (single-pass switch allocation, no §9
//! mode) with either switch stage (§6, *Registered switch allocation*).

use crate::link::{LinkFlit, RouterInputs, RouterOutputs};
use std::collections::VecDeque;
use wormqos_config::{Crossbar, RouterConfig, Scheduler, SwitchStage};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    Idle,
    Routed,
    Active,
}

#[derive(Clone, Copy, Debug)]
struct F {
    head: bool,
    tail: bool,
    data: [u64; 4],
    vtick: u64,
}

/// One VirtualClock scheduling point (§8.3), literally.
#[derive(Clone, Debug)]
struct Vclk {
    now: u64,
    aux: Vec<u64>,
    stamp: Vec<u64>,
    stamped: Vec<bool>,
    be_ptr: usize,
}

impl Vclk {
    fn new(m: usize) -> Self {
        Vclk { now: 0, aux: vec![0; m], stamp: vec![0; m], stamped: vec![false; m], be_ptr: 0 }
    }

    /// §8.4 steps 1–2: s[k] (Some for present real-time slots) and the grant.
    fn pick(&self, vtw: u32, present: &[bool], vtick: &[u64], eligible: &[bool]) -> (Vec<Option<u64>>, Option<usize>) {
        let m = present.len();
        let s: Vec<Option<u64>> = (0..m)
            .map(|k| {
                if !present[k] {
                    None
                } else if self.stamped[k] {
                    Some(self.stamp[k])
                } else if vtick[k] == 0 || vtick[k] == (1 << vtw) - 1 {
                    None
                } else {
                    Some(self.now.max(self.aux[k]) + vtick[k])
                }
            })
            .collect();
        let rt = (0..m).filter(|&k| eligible[k] && s[k].is_some()).min_by_key(|&k| (s[k].unwrap(), k));
        let g = rt.or_else(|| RefRouter::rr(m, self.be_ptr, |k| eligible[k] && s[k].is_none()));
        (s, g)
    }

    /// §8.4 steps 3–4.
    #[allow(clippy::needless_range_loop)]
    fn next(&self, c: u32, s: &[Option<u64>], g: Option<usize>, took: bool) -> Vclk {
        let m = s.len();
        let mut n = self.clone();
        n.now = self.now + 1;
        for k in 0..m {
            let Some(sk) = s[k] else { continue };
            let granted = took && g == Some(k);
            if !self.stamped[k] {
                n.aux[k] = sk;
                if !granted {
                    n.stamp[k] = sk;
                    n.stamped[k] = true;
                }
            }
            if granted {
                n.stamped[k] = false;
            }
        }
        if let (true, Some(w)) = (took, g) {
            if s[w].is_none() {
                n.be_ptr = (w + 1) % m;
            }
        }
        let lim = 1u64 << c;
        let over = n.now >= lim || n.aux.iter().any(|&a| a >= lim) || (0..m).any(|k| n.stamped[k] && n.stamp[k] >= lim);
        if over {
            let r = (0..m).filter(|&k| n.stamped[k]).map(|k| n.stamp[k]).fold(n.now, u64::min);
            n.now = (n.now - r).min(lim - 1);
            for k in 0..m {
                if n.stamped[k] {
                    n.stamp[k] = (n.stamp[k] - r).min(lim - 1);
                }
                n.aux[k] = n.aux[k].saturating_sub(r).min(lim - 1);
            }
        }
        n
    }
}

#[derive(Clone)]
pub struct RefRouter {
    cfg: RouterConfig,
    cycle: i64,
    ib: Vec<VecDeque<F>>,
    state: Vec<St>,
    route: Vec<usize>,
    ovc: Vec<usize>,
    in_age: Vec<i64>,
    allocated: Vec<bool>,
    ob: Vec<VecDeque<F>>,
    credits: Vec<usize>,
    out_age: Vec<i64>,
    va_ptr: Vec<usize>,
    xa_ptr: Vec<usize>,
    xb_ptr: Vec<usize>,
    oc_ptr: Vec<usize>,
    vt_reg: Vec<u64>,
    vclk: Vec<Vclk>,
    /// The registered grant per input port (`switch_stage = "registered"`).
    sg_valid: Vec<bool>,
    sg_vc: Vec<usize>,
    sg_tail: Vec<bool>,
    /// The registered candidate per input port (`switch_stage = "split"`).
    ca_valid: Vec<bool>,
    ca_vc: Vec<usize>,
    ca_tail: Vec<bool>,
    pub out: RouterOutputs,
}

impl RefRouter {
    pub fn new(cfg: &RouterConfig) -> Self {
        let (n, m) = (cfg.ports(), cfg.vcs());
        RefRouter {
            cfg: cfg.clone(),
            cycle: 0,
            ib: vec![VecDeque::new(); n * m],
            state: vec![St::Idle; n * m],
            route: vec![0; n * m],
            ovc: vec![0; n * m],
            in_age: vec![-1; n * m],
            allocated: vec![false; n * m],
            ob: vec![VecDeque::new(); n * m],
            credits: vec![cfg.downstream_buffer_depth(); n * m],
            out_age: vec![-1; n * m],
            va_ptr: vec![0; n],
            xa_ptr: vec![0; n],
            xb_ptr: vec![0; n],
            oc_ptr: vec![0; n],
            vt_reg: vec![0; n * m],
            vclk: vec![Vclk::new(m); n],
            sg_valid: vec![false; n],
            sg_vc: vec![0; n],
            sg_tail: vec![false; n],
            ca_valid: vec![false; n],
            ca_vc: vec![0; n],
            ca_tail: vec![false; n],
            out: RouterOutputs::idle(cfg),
        }
    }

    fn rr(k: usize, ptr: usize, req: impl Fn(usize) -> bool) -> Option<usize> {
        (0..k).map(|j| (ptr + j) % k).find(|&i| req(i))
    }

    fn age(k: usize, ages: &[i64], req: impl Fn(usize) -> bool) -> Option<usize> {
        (0..k).filter(|&i| req(i)).min_by_key(|&i| (ages[i], i))
    }

    /// Stage 2, RC, of the IDLE input VCs with a flit (`fresh`): route and
    /// Vtick register from the front flit; they become ROUTED. Returns the
    /// routes as they are after RC.
    fn route_computation(s: &RefRouter, nx: &mut RefRouter, fresh: &[bool]) -> Vec<usize> {
        let cfg = &s.cfg;
        let mut route = s.route.clone();
        for (i, _) in fresh.iter().enumerate().filter(|x| *x.1) {
            let d = cfg.header().dest.extract(&s.ib[i][0].data);
            route[i] = cfg.route(d);
            nx.route[i] = route[i];
            nx.vt_reg[i] = cfg.header().vtick.extract(&s.ib[i][0].data);
            nx.state[i] = St::Routed;
        }
        route
    }

    /// Stage 3, VA, of output port o over the requesters `req` (whose
    /// routes are `route`): round robin from `va_ptr`, lowest free VC.
    fn vc_allocation(s: &RefRouter, nx: &mut RefRouter, route: &[usize], req: impl Fn(usize) -> bool) {
        let (n, m) = (s.cfg.ports(), s.cfg.vcs());
        for o in 0..n {
            let Some(i) = Self::rr(n * m, s.va_ptr[o], |i| req(i) && route[i] == o) else { continue };
            let Some(u) = (0..m).find(|&u| !s.allocated[o * m + u]) else { continue };
            nx.state[i] = St::Active;
            nx.ovc[i] = u;
            nx.allocated[o * m + u] = true;
            nx.va_ptr[o] = (i + 1) % (n * m);
            nx.in_age[i] = s.cycle;
            nx.out_age[o * m + u] = s.cycle;
        }
    }

    /// Points A and B of the multiplexed crossbar (single pass) with the
    /// given `present` and `ready` input VCs; every grant that takes effect
    /// updates the pointers and the VirtualClock points. Returns the
    /// winners `p*M+v`.
    fn switch_allocation(s: &RefRouter, nx: &mut RefRouter, present: impl Fn(usize) -> bool, ready: impl Fn(usize) -> bool) -> Vec<usize> {
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        let fifo = cfg.scheduler() == Scheduler::Fifo;
        let vclock = cfg.scheduler() == Scheduler::Virtualclock;
        let cw = cfg.clock_width();
        let (cand, vpick) = Self::point_a(s, present, ready);
        let mut won = vec![];
        for o in 0..n {
            let req = |p: usize| cand[p].is_some_and(|v| s.route[p * m + v] == o);
            if let Some(p) = Self::rr(n, s.xb_ptr[o], req) {
                let v = cand[p].unwrap();
                nx.xb_ptr[o] = (p + 1) % n;
                if !fifo && !vclock {
                    nx.xa_ptr[p] = (v + 1) % m;
                }
                won.push(p * m + v);
            }
        }
        for (p, (sv, g)) in vpick.iter().enumerate() {
            let took = g.is_some_and(|v| won.contains(&(p * m + v)));
            nx.vclk[p] = s.vclk[p].next(cw, sv, *g, took);
        }
        won
    }

    /// Point A of every input port over the given `present` and `ready`
    /// input VCs: the candidate per port, and with `virtualclock` each
    /// port's stamps and grant (empty otherwise). Updates nothing.
    #[allow(clippy::type_complexity)]
    fn point_a(s: &RefRouter, present: impl Fn(usize) -> bool, ready: impl Fn(usize) -> bool) -> (Vec<Option<usize>>, Vec<(Vec<Option<u64>>, Option<usize>)>) {
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        let fifo = cfg.scheduler() == Scheduler::Fifo;
        let vclock = cfg.scheduler() == Scheduler::Virtualclock;
        let vtw = cfg.header().vtick.width;
        // Point A VirtualClock: (s, grant) per input port.
        let mut vpick: Vec<(Vec<Option<u64>>, Option<usize>)> = vec![];
        let cand: Vec<Option<usize>> = (0..n)
            .map(|p| {
                let r = |v: usize| ready(p * m + v);
                if vclock {
                    let pr: Vec<bool> = (0..m).map(|v| present(p * m + v)).collect();
                    let el: Vec<bool> = (0..m).map(r).collect();
                    vpick.push(s.vclk[p].pick(vtw, &pr, &s.vt_reg[p * m..p * m + m], &el));
                    vpick[p].1
                } else if fifo {
                    Self::age(m, &s.in_age[p * m..p * m + m], r)
                } else {
                    Self::rr(m, s.xa_ptr[p], r)
                }
            })
            .collect();
        (cand, vpick)
    }

    /// The front flit of input VC i crosses into its output VC buffer (a
    /// tail frees both VCs).
    fn cross(s: &RefRouter, nx: &mut RefRouter, i: usize) {
        let m = s.cfg.vcs();
        let mut f = nx.ib[i].pop_front().unwrap();
        f.vtick = s.vt_reg[i];
        let j = s.route[i] * m + s.ovc[i];
        nx.ob[j].push_back(f);
        if f.tail {
            nx.state[i] = St::Idle;
            nx.allocated[j] = false;
            nx.vt_reg[i] = 0;
        }
    }

    /// Stages 2, 3 and 4 of the single-cycle pipeline (§6).
    fn single_cycle_stages(s: &RefRouter, nx: &mut RefRouter) {
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        let fresh: Vec<bool> = (0..n * m).map(|i| s.state[i] == St::Idle && !s.ib[i].is_empty()).collect();
        Self::route_computation(s, nx, &fresh);
        Self::vc_allocation(s, nx, &s.route, |i| s.state[i] == St::Routed);
        let present = |i: usize| s.state[i] == St::Active && !s.ib[i].is_empty();
        let ready = |i: usize| present(i) && s.ob[s.route[i] * m + s.ovc[i]].len() < cfg.output_buffer_depth();
        let movers: Vec<usize> = if cfg.crossbar() == Crossbar::Full {
            (0..n * m).filter(|&i| ready(i)).collect()
        } else {
            Self::switch_allocation(s, nx, present, ready)
        };
        nx.out.credits.fill(0);
        for i in movers {
            Self::cross(s, nx, i);
            nx.out.credits[i / m] |= 1 << (i % m);
        }
    }

    /// Stages RV, SA and ST of the registered switch stage (§6,
    /// *Registered switch allocation*), on the start-of-cycle state `s`.
    fn registered_stages(s: &RefRouter, nx: &mut RefRouter) {
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        Self::rv_stage(s, nx);
        // SA
        let pend = |i: usize| s.sg_valid[i / m] && s.sg_vc[i / m] == i % m;
        let present = |i: usize| {
            s.state[i] == St::Active && !(pend(i) && s.sg_tail[i / m]) && s.ib[i].len() - pend(i) as usize > 0
        };
        let ready = |i: usize| {
            present(i) && s.ob[s.route[i] * m + s.ovc[i]].len() + (pend(i) as usize) < cfg.output_buffer_depth()
        };
        let won = Self::switch_allocation(s, nx, present, ready);
        nx.out.credits.fill(0);
        nx.sg_valid = vec![false; n];
        for i in won {
            let (p, v) = (i / m, i % m);
            nx.sg_valid[p] = true;
            nx.sg_vc[p] = v;
            nx.sg_tail[p] = s.ib[i][pend(i) as usize].tail;
            nx.out.credits[p] |= 1 << v;
        }
        // ST: last cycle's grants cross.
        for p in (0..n).filter(|&p| s.sg_valid[p]) {
            Self::cross(s, nx, p * m + s.sg_vc[p]);
        }
    }

    /// Stage RV of the registered and split stages: RC of the IDLE VCs
    /// with a flit, and VA over them and the ROUTED ones.
    fn rv_stage(s: &RefRouter, nx: &mut RefRouter) {
        let (n, m) = (s.cfg.ports(), s.cfg.vcs());
        let fresh: Vec<bool> = (0..n * m).map(|i| s.state[i] == St::Idle && !s.ib[i].is_empty()).collect();
        let route = Self::route_computation(s, nx, &fresh);
        Self::vc_allocation(s, nx, &route, |i| s.state[i] == St::Routed || fresh[i]);
    }

    /// Stages RV, SA-A, SA-B and ST of the split switch stage (§6, *Split
    /// switch allocation*), on the start-of-cycle state `s`.
    fn split_stages(s: &RefRouter, nx: &mut RefRouter) {
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        let rr_order = cfg.scheduler() == Scheduler::RoundRobin;
        Self::rv_stage(s, nx);
        // The two flits that may be in flight: crossing now, and at B now.
        let sgp = |i: usize| s.sg_valid[i / m] && s.sg_vc[i / m] == i % m;
        let cap = |i: usize| s.ca_valid[i / m] && s.ca_vc[i / m] == i % m;
        let in_flight = |i: usize| sgp(i) as usize + cap(i) as usize;
        // SA-B over the registered candidates.
        nx.out.credits.fill(0);
        nx.sg_valid = vec![false; n];
        let mut b_won = vec![false; n];
        for o in 0..n {
            let req = |p: usize| s.ca_valid[p] && s.route[p * m + s.ca_vc[p]] == o;
            if let Some(p) = Self::rr(n, s.xb_ptr[o], req) {
                nx.xb_ptr[o] = (p + 1) % n;
                nx.sg_valid[p] = true;
                nx.sg_vc[p] = s.ca_vc[p];
                nx.sg_tail[p] = s.ca_tail[p];
                nx.out.credits[p] |= 1 << s.ca_vc[p];
                b_won[p] = true;
            }
        }
        // SA-A: every pick takes effect now.
        let present = |i: usize| {
            s.state[i] == St::Active
                && !(sgp(i) && s.sg_tail[i / m])
                && !(cap(i) && s.ca_tail[i / m])
                && s.ib[i].len() > in_flight(i)
        };
        let ready = |i: usize| present(i) && s.ob[s.route[i] * m + s.ovc[i]].len() + in_flight(i) < cfg.output_buffer_depth();
        let (cand, vpick) = Self::point_a(s, present, ready);
        for p in 0..n {
            nx.ca_valid[p] = cand[p].is_some();
            let Some(v) = cand[p] else { continue };
            let i = p * m + v;
            nx.ca_vc[p] = v;
            nx.ca_tail[p] = s.ib[i][in_flight(i)].tail && !(cap(i) && !b_won[p]);
            if rr_order {
                nx.xa_ptr[p] = (v + 1) % m;
            }
        }
        for (p, (sv, g)) in vpick.iter().enumerate() {
            nx.vclk[p] = s.vclk[p].next(cfg.clock_width(), sv, *g, g.is_some());
        }
        // ST: last cycle's grants cross.
        for p in (0..n).filter(|&p| s.sg_valid[p]) {
            Self::cross(s, nx, p * m + s.sg_vc[p]);
        }
    }

    pub fn step(&mut self, inp: &RouterInputs) {
        let s = self.clone(); // the state at the start of the cycle
        let nx = self; // the state at the end of the cycle
        let cfg = &s.cfg;
        let (n, m) = (cfg.ports(), cfg.vcs());
        let full = cfg.crossbar() == Crossbar::Full;
        let fifo = cfg.scheduler() == Scheduler::Fifo;
        let vclock = cfg.scheduler() == Scheduler::Virtualclock;
        let (cw, vtw) = (cfg.clock_width(), cfg.header().vtick.width);
        let t = s.cycle;

        // Stage 1
        for p in 0..n {
            let f = inp.flits[p];
            if !f.valid {
                continue;
            }
            let v = (f.vc as usize) & ((1 << cfg.vc_width()) - 1);
            if v >= m || s.ib[p * m + v].len() == cfg.input_buffer_depth() {
                continue;
            }
            let mut data = [0u64; 4];
            for b in 0..cfg.flit_width() as usize {
                data[b / 64] |= f.data[b / 64] & (1 << (b % 64));
            }
            nx.ib[p * m + v].push_back(F { head: f.head, tail: f.tail, data, vtick: 0 });
        }
        match cfg.scheduling().point.switch_stage() {
            SwitchStage::Registered => Self::registered_stages(&s, nx),
            SwitchStage::Split => Self::split_stages(&s, nx),
            SwitchStage::SingleCycle => Self::single_cycle_stages(&s, nx),
        }
        // Stage 5
        for o in 0..n {
            let el = |u: usize| !s.ob[o * m + u].is_empty() && s.credits[o * m + u] > 0;
            let pick = if full && vclock {
                let present: Vec<bool> = (0..m).map(|u| !s.ob[o * m + u].is_empty()).collect();
                let vt: Vec<u64> = (0..m).map(|u| s.ob[o * m + u].front().map_or(0, |f| f.vtick)).collect();
                let e: Vec<bool> = (0..m).map(el).collect();
                let (sv, g) = s.vclk[o].pick(vtw, &present, &vt, &e);
                nx.vclk[o] = s.vclk[o].next(cw, &sv, g, g.is_some());
                g
            } else if full && fifo {
                Self::age(m, &s.out_age[o * m..o * m + m], el)
            } else {
                Self::rr(m, s.oc_ptr[o], el)
            };
            nx.out.flits[o] = LinkFlit::IDLE;
            if let Some(u) = pick {
                let f = nx.ob[o * m + u].pop_front().unwrap();
                nx.out.flits[o] = LinkFlit { lane: 0, valid: true, dummy: false, vc: u as u8, head: f.head, tail: f.tail, data: f.data };
                nx.oc_ptr[o] = (u + 1) % m;
            }
            for u in 0..m {
                let sent = (pick == Some(u)) as usize;
                let ret = (inp.credits[o] >> u & 1) as usize;
                nx.credits[o * m + u] = (s.credits[o * m + u] - sent + ret).min(cfg.downstream_buffer_depth());
            }
        }
        nx.cycle = t + 1;
    }
}

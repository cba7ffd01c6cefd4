//! Where a message's cycles go inside the router (issue 23,
//! docs/reproduction.md "Where P's router passes real-time flits on
//! later"): every cycle from its header entering the router's input buffer
//! to its tail leaving on the output link is given to one [`RouterPart`],
//! so on one router (`topology.kind = "single_switch"`, where the sink
//! takes a flit the cycle after it leaves) the parts add up to `delivered -
//! injected`, and those from the tail entering on to `delivered -
//! source.tail_sent`.
//!
//! Opt-in ([`Sim::run_router_split`]): it reads the router after each
//! cycle and the flits the sources write, and changes nothing. Messages are
//! found by counting: an input VC is a FIFO of its source VC's flits (one
//! lane; a cycle with an extra lane in use is [`RouterPart::Lanes`]), so a
//! message's flits that crossed the crossbar are the VC's crossed flits
//! beyond the ones written before its header; an output VC buffer is a FIFO
//! too (a message holds the output VC from VA until its tail crosses the
//! crossbar, docs/microarchitecture.md §6 stage 4, and the next holder's
//! flits queue behind its own), so the flits on the link of that VC are its
//! own once the ones pushed before it have left.
//!
//! [`Sim::run_router_split`]: crate::network::Sim::run_router_split

use wormqos_config::HeaderLayout;
use wormqos_sim::{Router, VcState, Width};

/// What a message in the router did in one cycle, checked in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouterPart {
    /// Its input VC uses an extra lane (§9.4 preemption in the input
    /// buffer: the FIFO count does not hold then).
    Lanes,
    /// Its header waits behind an earlier message's flits in its input VC.
    BehindInInput,
    /// At the front of its input VC, its route not yet computed (RC).
    Route,
    /// Routed, waiting for an output VC (VA).
    VcAllocation,
    /// A flit of it crosses the output link.
    Crossing,
    /// Its flits in the output VC buffer wait behind an earlier message's
    /// (the one that held the output VC before it).
    BehindInOutput,
    /// Its front flit in the output buffer, without a downstream credit.
    NoCredit,
    /// Its front flit ready, the link given to another output VC's flit of
    /// a lower class (best effort, for real time).
    LinkToLower,
    /// ... of the same class (another real-time message).
    LinkToSame,
    /// ... of a higher class (control, for real time).
    LinkToHigher,
    /// Its front flit ready, the link idle (the output arbiter's turn).
    ReadyIdle,
    /// None of its flits in the output buffer, the next one in its input
    /// VC, and the output buffer full of an earlier message's flits.
    OutputBufferFull,
    /// ... the output buffer with room, and its output port's one crossbar
    /// input given to a flit of another input VC (point B, or an earlier
    /// round of the iterative allocator matched it elsewhere).
    SwitchOutputTaken,
    /// ... the output port took no flit, and its input port's one crossbar
    /// input went to a flit of another of its VCs, for another output port
    /// (point A).
    SwitchToOtherVc,
    /// ... neither port moved a flit (its flit not ready: the cycle of VA).
    SwitchNotMatched,
    /// None of its flits in the output buffer nor in its input VC: the next
    /// one has not arrived from the source.
    SourceLate,
}

pub const PARTS: usize = 16;

impl RouterPart {
    pub const ALL: [RouterPart; PARTS] = [
        RouterPart::Lanes,
        RouterPart::BehindInInput,
        RouterPart::Route,
        RouterPart::VcAllocation,
        RouterPart::Crossing,
        RouterPart::BehindInOutput,
        RouterPart::NoCredit,
        RouterPart::LinkToLower,
        RouterPart::LinkToSame,
        RouterPart::LinkToHigher,
        RouterPart::ReadyIdle,
        RouterPart::OutputBufferFull,
        RouterPart::SwitchOutputTaken,
        RouterPart::SwitchToOtherVc,
        RouterPart::SwitchNotMatched,
        RouterPart::SourceLate,
    ];

    /// Its column name in a CSV.
    pub fn name(self) -> &'static str {
        match self {
            RouterPart::Lanes => "lanes",
            RouterPart::BehindInInput => "behind_in_input",
            RouterPart::Route => "route",
            RouterPart::VcAllocation => "vc_allocation",
            RouterPart::Crossing => "crossing",
            RouterPart::BehindInOutput => "behind_in_output",
            RouterPart::NoCredit => "no_credit",
            RouterPart::LinkToLower => "link_to_lower",
            RouterPart::LinkToSame => "link_to_same",
            RouterPart::LinkToHigher => "link_to_higher",
            RouterPart::ReadyIdle => "ready_idle",
            RouterPart::OutputBufferFull => "output_buffer_full",
            RouterPart::SwitchOutputTaken => "switch_output_taken",
            RouterPart::SwitchToOtherVc => "switch_to_other_vc",
            RouterPart::SwitchNotMatched => "switch_not_matched",
            RouterPart::SourceLate => "source_late",
        }
    }
}

/// One message's cycles in the router, per [`RouterPart`] (indexed by its
/// position in `RouterPart::ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouterSplit {
    /// From its header entering the router to its tail leaving it.
    pub whole: [u32; PARTS],
    /// Those of them from the cycle its tail entered the router on.
    pub after_tail: [u32; PARTS],
    /// When it took its output VC: the port's other output VCs held by a
    /// message of its class or a higher one, and of a lower class (the
    /// owner input VC's header register, §9.1).
    pub out_vcs_not_lower: u8,
    pub out_vcs_lower: u8,
    /// Cycles in which the counting disagreed with the router (its first
    /// flit on the link not a header, its last not a tail, a flit of it
    /// crossing the crossbar without a credit returned for its input VC):
    /// 0 in a sound measurement.
    pub mismatches: u32,
}

impl RouterSplit {
    pub fn total(&self) -> u32 {
        self.whole.iter().sum()
    }
}

/// A message followed through the router.
struct Tracked {
    idx: u32,
    port: usize,
    vc: usize,
    class: u8,
    flits: u64,
    /// Flits written into its input VC before its header.
    start: u64,
    /// Its output VC, once allocated, and the flits pushed into that VC's
    /// buffer before its own.
    ovc: Option<(usize, usize)>,
    out_start: u64,
    crossed_seen: u64,
    split: RouterSplit,
}

/// Follows the messages of one class created in a window through the one
/// router of a network.
pub struct RouterSplitter {
    class: u8,
    from: u64,
    to: u64,
    vcs: usize,
    depth: usize,
    hdr: HeaderLayout,
    /// Per input VC (port × VCs + VC): flits its source wrote into it.
    written: Vec<u64>,
    /// Per output VC: flits it sent on the link, and the class of the last
    /// header it sent.
    out_sent: Vec<u64>,
    link_class: Vec<u8>,
    /// Per output port: flits in its output buffers after the last cycle,
    /// and whether it took a flit from the crossbar in this one.
    out_held: Vec<u64>,
    out_pushed: Vec<bool>,
    tracked: Vec<Tracked>,
    /// Finished, by slab index, until the sink delivers them.
    done: Vec<(u32, RouterSplit)>,
}

impl RouterSplitter {
    /// Follows messages of class `class` created in cycles `from..to` on a
    /// router of `ports` ports, `vcs` VCs and output buffers of `depth`
    /// flits.
    pub fn new(class: u8, from: u64, to: u64, ports: usize, vcs: usize, depth: usize, hdr: HeaderLayout) -> RouterSplitter {
        RouterSplitter {
            class,
            from,
            to,
            vcs,
            depth,
            hdr,
            written: vec![0; ports * vcs],
            out_sent: vec![0; ports * vcs],
            link_class: vec![0; ports * vcs],
            out_held: vec![0; ports],
            out_pushed: vec![false; ports],
            tracked: Vec::new(),
            done: Vec::new(),
        }
    }

    /// A flit (real or dummy) written into input VC (port, vc) this cycle;
    /// `header`: the message (slab index, flits, class, creation cycle) if
    /// it is a real header.
    pub fn written(&mut self, port: usize, vc: usize, header: Option<(u32, u32, u8, u64)>) {
        let i = port * self.vcs + vc;
        self.written[i] += 1;
        let Some((idx, flits, class, created)) = header else { return };
        if class != self.class || !(self.from..self.to).contains(&created) {
            return;
        }
        let start = self.written[i] - 1;
        self.tracked.push(Tracked { idx, port, vc, class, flits: flits as u64, start, ovc: None, out_start: 0, crossed_seen: 0, split: RouterSplit::default() });
    }

    /// The split of message `idx`, once its tail has left the router.
    pub fn finish(&mut self, idx: u32) -> Option<RouterSplit> {
        let k = self.done.iter().position(|d| d.0 == idx)?;
        Some(self.done.swap_remove(k).1)
    }

    /// Gives each followed message's cycle to a part, the router as it is
    /// after the cycle.
    pub fn observe<X: Width>(&mut self, router: &Router<X>) {
        let m = self.vcs;
        let out = router.outputs();
        for (o, f) in out.flits.iter().enumerate().take(self.out_held.len()) {
            if f.valid {
                let j = o * m + f.vc as usize;
                self.out_sent[j] += 1;
                if f.head {
                    self.link_class[j] = self.hdr.class.extract(&f.data) as u8;
                }
            }
            // Pushed = held now - held before + the one that left.
            let held: u64 = (0..m).map(|u| router.output_occupancy(o, u) as u64).sum();
            self.out_pushed[o] = held + f.valid as u64 > self.out_held[o];
            self.out_held[o] = held;
        }
        let mut k = 0;
        while k < self.tracked.len() {
            let t = &mut self.tracked[k];
            let i = t.port * m + t.vc;
            let written = self.written[i];
            let crossed_all = written - router.input_occupancy(t.port, t.vc) as u64;
            let crossed = crossed_all.saturating_sub(t.start).min(t.flits);
            let arrived = (written - t.start).min(t.flits);
            if crossed > t.crossed_seen {
                // A flit of it crossed this cycle: the router returns its
                // input VC's credit (§6 stage 4) in the registers read here.
                if out.credits[t.port] >> t.vc & 1 == 0 {
                    t.split.mismatches += 1;
                }
                t.crossed_seen = crossed;
            }
            let lanes = router.lane_regs(t.port, t.vc).is_some_and(|r| r.top > 0);
            let mut part = None;
            if t.ovc.is_none() {
                part = if lanes {
                    Some(RouterPart::Lanes)
                } else if crossed_all < t.start {
                    Some(RouterPart::BehindInInput)
                } else {
                    match router.vc_state(t.port, t.vc) {
                        VcState::Idle => Some(RouterPart::Route),
                        VcState::Routed { .. } => Some(RouterPart::VcAllocation),
                        VcState::Active { route, ovc } => {
                            let j = route * m + ovc;
                            t.ovc = Some((route, ovc));
                            // Flits pushed into the output VC before its own.
                            t.out_start = self.out_sent[j] + router.output_occupancy(route, ovc) as u64 - crossed;
                            let (mut not_lower, mut lower) = (0, 0);
                            for u in (0..m).filter(|&u| u != ovc && router.allocated(route, u)) {
                                let class = router.owner(route, u).and_then(|w| router.header_register(w / m, w % m)).map_or(0, |h| h.class);
                                if class < t.class as u32 {
                                    lower += 1;
                                } else {
                                    not_lower += 1;
                                }
                            }
                            t.split.out_vcs_not_lower = not_lower;
                            t.split.out_vcs_lower = lower;
                            None
                        }
                    }
                };
            }
            let mut finished = false;
            let part = match (part, t.ovc) {
                (Some(p), _) => p,
                (None, None) => unreachable!("a message is classified before it holds an output VC"),
                (None, Some((o, u))) => {
                    let j = o * m + u;
                    let sent = self.out_sent[j];
                    let left = sent.saturating_sub(t.out_start).min(t.flits);
                    let link = &out.flits[o];
                    let in_output = crossed - left;
                    if link.valid && link.vc as usize == u && sent > t.out_start && sent <= t.out_start + t.flits {
                        if (left == 1) != link.head || (left == t.flits) != link.tail {
                            t.split.mismatches += 1;
                        }
                        finished = left == t.flits;
                        RouterPart::Crossing
                    } else if in_output > 0 {
                        if sent < t.out_start {
                            RouterPart::BehindInOutput
                        } else if router.credits(o, u) == 0 {
                            RouterPart::NoCredit
                        } else if link.valid {
                            let c = self.link_class[o * m + link.vc as usize];
                            match c.cmp(&t.class) {
                                std::cmp::Ordering::Less => RouterPart::LinkToLower,
                                std::cmp::Ordering::Equal => RouterPart::LinkToSame,
                                std::cmp::Ordering::Greater => RouterPart::LinkToHigher,
                            }
                        } else {
                            RouterPart::ReadyIdle
                        }
                    } else if lanes {
                        RouterPart::Lanes
                    } else if arrived > crossed {
                        if router.output_occupancy(o, u) >= self.depth {
                            RouterPart::OutputBufferFull
                        } else if self.out_pushed[o] {
                            RouterPart::SwitchOutputTaken
                        } else if out.credits[t.port] & !(1 << t.vc) != 0 {
                            RouterPart::SwitchToOtherVc
                        } else {
                            RouterPart::SwitchNotMatched
                        }
                    } else {
                        RouterPart::SourceLate
                    }
                }
            };
            t.split.whole[part as usize] += 1;
            if arrived == t.flits {
                t.split.after_tail[part as usize] += 1;
            }
            if finished {
                let t = self.tracked.swap_remove(k);
                self.done.push((t.idx, t.split));
            } else {
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Hand-derived from docs/microarchitecture.md §6 and the golden
    //! model's own hand-derived timings (sim/src/tests.rs:
    //! `zero_load_latency_is_4_plus_m`, `two_inputs_to_one_output_alternate`,
    //! `back_to_back_messages_pay_the_rc_va_bubble`): a header written in
    //! cycle t is routed in t+1, allocated in t+2, crosses the crossbar in
    //! t+3 and is picked for the link in t+4. Each part is read after the
    //! cycle, so at zero load a message of M flits spends one cycle in each
    //! of `Route`, `VcAllocation`, `SwitchNotMatched` (the VA cycle, its
    //! flit not yet ready) and `ReadyIdle` (the cycle its flit first sits
    //! in the output buffer), then M `Crossing`.
    use super::*;
    use wormqos_config::RouterConfig;
    use wormqos_sim::{LinkFlit, Router, RouterInputs};

    const P: usize = RouterPart::ALL.len();

    /// 5 ports, 4 VCs, single-pass round-robin multiplexed crossbar (two
    /// classes: the class field is in the header).
    fn router() -> (Router, RouterConfig) {
        router_with("")
    }

    fn router_with(extra: &str) -> (Router, RouterConfig) {
        let text = format!("name = \"t\"\n[router]\nports = 5\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 8\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n{extra}");
        let cfg = RouterConfig::from_toml_str(&text, "inline").unwrap();
        (Router::new(&cfg), cfg)
    }

    fn message(cfg: &RouterConfig, vc: u8, dest: u64, class: u64, len: usize) -> Vec<LinkFlit> {
        let h = cfg.header();
        (0..len)
            .map(|k| {
                let mut data = [0u64; wormqos_sim::MAX_FLIT_WORDS];
                if k == 0 {
                    h.dest.insert(&mut data, dest);
                    h.class.insert(&mut data, class);
                }
                LinkFlit { lane: 0, valid: true, dummy: false, vc, head: k == 0, tail: k + 1 == len, data }
            })
            .collect()
    }

    /// Runs `cycles` cycles with `sends` (cycle, input port, message id,
    /// flit) and returns each followed message's split (ids 0, 1, ...),
    /// the message's class `class_of(id)`.
    fn run(cfg: &RouterConfig, r: &mut Router, sends: &[(u64, usize, u32, LinkFlit)], follow: u8, cycles: u64) -> Vec<(u32, RouterSplit)> {
        run_with_credits(cfg, r, sends, &[], follow, cycles)
    }

    /// [`run`] with credits returned: (cycle, output port, VC mask).
    fn run_with_credits(cfg: &RouterConfig, r: &mut Router, sends: &[(u64, usize, u32, LinkFlit)], credits: &[(u64, usize, u32)], follow: u8, cycles: u64) -> Vec<(u32, RouterSplit)> {
        let mut s = RouterSplitter::new(follow, 0, u64::MAX, cfg.ports(), cfg.vcs(), cfg.output_buffer_depth(), cfg.header());
        let mut inp = RouterInputs::idle(cfg);
        let mut out = Vec::new();
        for t in 0..cycles {
            inp.clear();
            for &(_, p, id, f) in sends.iter().filter(|x| x.0 == t) {
                inp.flits[p] = f;
                let class = cfg.header().class.extract(&f.data) as u8;
                let len = sends.iter().filter(|x| x.2 == id).count() as u32;
                s.written(p, f.vc as usize, f.head.then_some((id, len, class, t)));
            }
            for &(_, o, mask) in credits.iter().filter(|x| x.0 == t) {
                inp.credits[o] |= mask;
            }
            r.step(&inp);
            s.observe(r);
            for id in 0..4 {
                if let Some(x) = s.finish(id) {
                    out.push((id, x));
                }
            }
        }
        out
    }

    fn parts(list: &[(RouterPart, u32)]) -> [u32; P] {
        let mut a = [0; P];
        for &(p, n) in list {
            a[RouterPart::ALL.iter().position(|&q| q == p).unwrap()] = n;
        }
        a
    }

    fn sends(port: usize, id: u32, msg: &[LinkFlit], cycles: &[u64]) -> Vec<(u64, usize, u32, LinkFlit)> {
        msg.iter().zip(cycles).map(|(f, &t)| (t, port, id, *f)).collect()
    }

    #[test]
    fn the_parts_are_in_all_s_order() {
        for (k, p) in RouterPart::ALL.iter().enumerate() {
            assert_eq!(*p as usize, k, "{}", p.name());
        }
    }

    /// One 3-flit message at zero load (flits in 0..=2): Route (0), VA (1),
    /// SwitchNotMatched (2), ReadyIdle (3), Crossing (4, 5, 6); its tail is
    /// on the link after cycle 6, so the sink takes it in 7 = 4 + M. From
    /// the tail's entry (cycle 2): 5 cycles.
    #[test]
    fn zero_load_is_one_cycle_a_stage_then_the_flits() {
        let (mut r, cfg) = router();
        let msg = message(&cfg, 0, 2, 1, 3);
        let got = run(&cfg, &mut r, &sends(0, 0, &msg, &[0, 1, 2]), 1, 12);
        assert_eq!(got.len(), 1);
        let s = got[0].1;
        use RouterPart::*;
        assert_eq!(s.whole, parts(&[(Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 3)]));
        assert_eq!(s.after_tail, parts(&[(SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 3)]));
        assert_eq!((s.total(), s.mismatches, s.out_vcs_not_lower, s.out_vcs_lower), (7, 0, 0, 0));
    }

    /// `two_inputs_to_one_output_alternate` with classes: X (class 1, input
    /// 0 VC 0) and Y (class 0, input 1 VC 0), 4 flits each in cycles 0..=3,
    /// to port 2. VA 2 grants X output VC 0, VA 3 Y VC 1; ST X0 3, Y0 4, X1
    /// 5, Y1 6, X2 7, Y2 8, X3 9, Y3 10; each flit on the link the cycle
    /// after the one after its ST. X: Route 0, VA 1, SwitchNotMatched 2,
    /// ReadyIdle 3, Crossing 4, 6, 8, 10, and in 5, 7, 9 its flit just
    /// crossed while Y's is on the link: LinkToLower 3; total 11 (tail out
    /// after 10). Y: Route 0, VA 1 and 2 (X won VA in 2), SwitchOutputTaken
    /// 3 (its VA cycle, in which port 2 took X0 from the crossbar),
    /// LinkToHigher 4, 6, 8, 10, Crossing 5, 7, 9, 11; total 12. Tails
    /// written in 2 (X: cycles 2..=10 but its tail came in 3: 3..=10, 8) and
    /// 3 (Y: 3..=11, 9). When X took its VC nothing else was held at port 2;
    /// when Y took its, X's VC (class 1, not lower).
    #[test]
    fn two_inputs_share_the_link_by_class() {
        let (mut r, cfg) = router();
        let x = message(&cfg, 0, 2, 1, 4);
        let y = message(&cfg, 0, 2, 0, 4);
        let mut st = sends(0, 0, &x, &[0, 1, 2, 3]);
        st.extend(sends(1, 1, &y, &[0, 1, 2, 3]));
        use RouterPart::*;
        let got = run(&cfg, &mut r, &st, 1, 20);
        assert_eq!(got.len(), 1, "only class 1 followed");
        let s = got[0].1;
        assert_eq!(s.whole, parts(&[(Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 4), (LinkToLower, 3)]));
        assert_eq!(s.after_tail, parts(&[(ReadyIdle, 1), (Crossing, 4), (LinkToLower, 3)]));
        assert_eq!((s.total(), s.mismatches, s.out_vcs_not_lower, s.out_vcs_lower), (11, 0, 0, 0));
        let (mut r, _) = router();
        let got = run(&cfg, &mut r, &st, 0, 20);
        let s = got[0].1;
        assert_eq!(got[0].0, 1);
        assert_eq!(s.whole, parts(&[(Route, 1), (VcAllocation, 2), (SwitchOutputTaken, 1), (Crossing, 4), (LinkToHigher, 4)]));
        assert_eq!(s.after_tail, parts(&[(SwitchOutputTaken, 1), (Crossing, 4), (LinkToHigher, 4)]));
        assert_eq!((s.total(), s.mismatches, s.out_vcs_not_lower, s.out_vcs_lower), (12, 0, 1, 0));
    }

    /// `back_to_back_messages_pay_the_rc_va_bubble`'s second case: A (0, 1)
    /// and B (2, 3), two flits each on input 0 VC 0 to port 2. A ST 3, 4,
    /// out after 4, 5; B's header behind A's flits in 2 and 3 (A's tail
    /// crosses in 4), Route 4, VA 5, SwitchNotMatched 6 (VA), ReadyIdle 7,
    /// Crossing 8, 9: 8 cycles from its header's entry in 2, 7 from its
    /// tail's in 3. A found no other VC held; B found none either (A's VC
    /// was freed when its tail crossed in 4).
    #[test]
    fn a_header_waits_behind_the_message_before_it() {
        let (mut r, cfg) = router();
        let a = message(&cfg, 0, 2, 1, 2);
        let b = message(&cfg, 0, 2, 1, 2);
        let mut st = sends(0, 0, &a, &[0, 1]);
        st.extend(sends(0, 1, &b, &[2, 3]));
        let mut got = run(&cfg, &mut r, &st, 1, 15);
        got.sort_by_key(|g| g.0);
        use RouterPart::*;
        assert_eq!(got[0].1.whole, parts(&[(Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 2)]));
        let s = got[1].1;
        assert_eq!(s.whole, parts(&[(BehindInInput, 2), (Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 2)]));
        assert_eq!(s.after_tail, parts(&[(BehindInInput, 1), (Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 1), (Crossing, 2)]));
        assert_eq!((s.total(), s.mismatches, s.out_vcs_not_lower, s.out_vcs_lower), (8, 0, 0, 0));
    }

    /// Four credits downstream (`downstream_buffer_depth = 4`, the least
    /// allowed) and none returned before cycle 11: A (5 flits, cycles
    /// 0..=4) and B (2 flits, 5 and 6) on input 0 VC 0 to port 2. A crosses
    /// the crossbar in 3..=7 (its tail frees output VC (2, 0) at the end of
    /// 7), A0..A3 are picked in 4..=7 with the four credits, A4 waits for
    /// one (NoCredit 8..=10; after 11 the credit returned in 11 is counted,
    /// the link idle: ReadyIdle). B: behind A's flits in its input VC in 5 and
    /// 6, Route 7, VA 8, takes VC 0 again in 9 (SwitchNotMatched), B0 and
    /// B1 cross in 10 and 11 behind A4 (BehindInOutput 10, 11). A credit
    /// returned in 11 is usable in 12: A4 picked in 12, B's front flit then
    /// without a credit (NoCredit 12); credits in 13 and 14: after 13 B0
    /// has one and the link is idle (ReadyIdle 13); B0, B1 picked in 14, 15.
    /// B: 11 cycles (5..=15), 10 from its tail's entry in 6. A: Route 0, VA
    /// 1, SwitchNotMatched 2, ReadyIdle 3 and 11, Crossing 4..=7 and 12.
    #[test]
    fn a_message_waits_behind_the_one_before_it_in_the_output_buffer() {
        let (mut r, cfg) = router_with("downstream_buffer_depth = 4\n");
        let a = message(&cfg, 0, 2, 1, 5);
        let b = message(&cfg, 0, 2, 1, 2);
        let mut st = sends(0, 0, &a, &[0, 1, 2, 3, 4]);
        st.extend(sends(0, 1, &b, &[5, 6]));
        let mut got = run_with_credits(&cfg, &mut r, &st, &[(11, 2, 1), (13, 2, 1), (14, 2, 1)], 1, 25);
        got.sort_by_key(|g| g.0);
        use RouterPart::*;
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1.whole, parts(&[(Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (ReadyIdle, 2), (Crossing, 5), (NoCredit, 3)]));
        let s = got[1].1;
        let want = [(Route, 1), (VcAllocation, 1), (SwitchNotMatched, 1), (BehindInOutput, 2), (NoCredit, 1), (ReadyIdle, 1), (Crossing, 2)];
        assert_eq!(s.whole, parts(&[&[(BehindInInput, 2)], &want[..]].concat()));
        assert_eq!(s.after_tail, parts(&[&[(BehindInInput, 1)], &want[..]].concat()));
        assert_eq!((s.total(), s.mismatches), (11, 0));
    }
}

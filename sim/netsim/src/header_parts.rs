//! Per message, every cycle of its header from injection to its crossing
//! of the ejection link, router by router, by what the header did in it
//! (issue 22, docs/reproduction.md "Where the ring's header waits after VA
//! (004_… Fig. 7(b))"): the split of [`crate::hop_parts`]'s header time
//! after VA, including the cycles that probe leaves unsplit (behind an
//! earlier message's flits in a buffer).
//!
//! Opt-in ([`Sim::run_header_parts`]). After every cycle it finds every
//! header flit in the network, in an input VC buffer, an output VC buffer
//! or an output register (the link), and names its message as the sinks do
//! (`Sim::step`'s one flit → message lookup). The cycle that follows is
//! given a [`HeaderPart`] from where the header is at its start and, for
//! the two stages that may or may not move it, where it is at its end.
//! The parts follow docs/microarchitecture.md §6's stage logic: a header
//! at its input VC's front is routed (IDLE, RC), waits for or takes an
//! output VC (ROUTED, VA), then crosses the crossbar in a cycle that starts
//! with room in its output VC buffer and in which the switch picks it (ST;
//! with the full crossbar every ready input VC moves, so it is lost only
//! with the multiplexed one), then at the output VC buffer's front leaves
//! if it has a credit and point C picks its VC. A cycle that starts with it
//! in an output register is the link's (BW at the next router, after the
//! `topology.link_latency` registers, which hold it unseen).
//!
//! At zero load a router costs Route + VcAllocation + Switch + Crossing, one
//! cycle each, and a hop one Link cycle (+ L unseen), `zero_load.rs`'s
//! 5 + L: so the header's time beyond zero load and the VC wait is the sum
//! of the wait parts, cycle for cycle (`latency_growth_004` checks it per
//! message).
//!
//! [`Sim::run_header_parts`]: crate::network::Sim::run_header_parts

use crate::topology::Peer;
use wormqos_sim::{LinkFlit, Router, VcState, Width};

/// What a header did in one cycle, from where it was at the cycle's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderPart {
    /// At its input VC's front, the VC IDLE: the RC cycle.
    Route,
    /// At its input VC's front, ROUTED: the VA cycle, and the wait for an
    /// output VC (`vc_wait.rs`'s queueing).
    VcAllocation,
    /// ACTIVE at its input VC's front with room in its output VC buffer,
    /// and moved by the crossbar: the ST cycle.
    Switch,
    /// At its output VC buffer's front with a credit, picked by point C:
    /// the cycle it goes onto the link.
    Crossing,
    /// In a router-to-router output register: written into the next
    /// router's input VC (BW).
    Link,
    /// In its input VC behind an earlier message's flits (the VC still
    /// ACTIVE for that message until its tail crosses the crossbar).
    BehindInInput,
    /// ACTIVE at its input VC's front, its output VC buffer full: of an
    /// earlier message's flits, since `vc_reallocation = "tail_crossed"`
    /// grants a VC whose last holder's flits have not left.
    OutputFull,
    /// ACTIVE at its input VC's front with room, not moved: the crossbar
    /// gave its input port or its output port to another VC (points A and
    /// B; never with `crossbar = "full"`).
    SwitchLost,
    /// In its output VC buffer behind an earlier message's flits.
    BehindInOutput,
    /// At its output VC buffer's front without a credit: the downstream
    /// input VC full.
    NoCredit,
    /// At the front with a credit, and the link carried another output
    /// VC's flit (point C picked another VC of its output port).
    LinkShared,
    /// At the front with a credit, the link idle: never by §6 stage 5
    /// (point C picks some eligible VC), so a count here is a probe error.
    ReadyIdle,
}

pub const PARTS: usize = 12;

/// The parts' positions: where the header was in the router.
const ROUTERS: usize = 3;

impl HeaderPart {
    pub const ALL: [HeaderPart; PARTS] = [
        HeaderPart::Route,
        HeaderPart::VcAllocation,
        HeaderPart::Switch,
        HeaderPart::Crossing,
        HeaderPart::Link,
        HeaderPart::BehindInInput,
        HeaderPart::OutputFull,
        HeaderPart::SwitchLost,
        HeaderPart::BehindInOutput,
        HeaderPart::NoCredit,
        HeaderPart::LinkShared,
        HeaderPart::ReadyIdle,
    ];

    /// The parts a header with no other message on its path has, once a
    /// router (the link one a hop): the rest are waits.
    pub const PIPELINE: [HeaderPart; 5] = [HeaderPart::Route, HeaderPart::VcAllocation, HeaderPart::Switch, HeaderPart::Crossing, HeaderPart::Link];

    pub fn name(self) -> &'static str {
        match self {
            HeaderPart::Route => "route",
            HeaderPart::VcAllocation => "vc_allocation",
            HeaderPart::Switch => "switch",
            HeaderPart::Crossing => "crossing",
            HeaderPart::Link => "link",
            HeaderPart::BehindInInput => "behind_in_input",
            HeaderPart::OutputFull => "output_full",
            HeaderPart::SwitchLost => "switch_lost",
            HeaderPart::BehindInOutput => "behind_in_output",
            HeaderPart::NoCredit => "no_credit",
            HeaderPart::LinkShared => "link_shared",
            HeaderPart::ReadyIdle => "ready_idle",
        }
    }
}

/// Where in its path a router is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathRouter {
    /// The source's router (injection to its first router-to-router link).
    Source = 0,
    /// The routers between, summed.
    Transit = 1,
    /// The destination's router (to the ejection link; a message to its
    /// own router has all its cycles here).
    Destination = 2,
}

/// One message's header cycles, per router position and part (indexed by
/// the position in `HeaderPart::ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeaderParts {
    pub by_router: [[u32; PARTS]; ROUTERS],
    /// Router-to-router links its header crossed.
    pub hops: u32,
}

impl HeaderParts {
    /// Cycles of `part` over its whole path.
    pub fn total(&self, part: HeaderPart) -> u32 {
        self.by_router.iter().map(|a| a[part as usize]).sum()
    }

    pub fn at(&self, router: PathRouter, part: HeaderPart) -> u32 {
        self.by_router[router as usize][part as usize]
    }
}

/// Where a header is after a cycle: what decides the next cycle's part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Decided at the start: the part is this whatever happens.
    Fixed(HeaderPart),
    /// ACTIVE at its input VC's front with room: Switch if it has left the
    /// input VC by the cycle's end, else SwitchLost.
    SwitchReady,
    /// At output VC (o, u)'s front of router r with a credit: Crossing if
    /// it is on the link after the cycle, else LinkShared or ReadyIdle by
    /// the link.
    LinkReady { r: u32, o: u32 },
    /// In a router-to-router output register.
    OnLink,
    /// On an ejection link: its time is over.
    Ejected,
}

#[derive(Clone, Copy, Debug, Default)]
struct Acc {
    parts: HeaderParts,
    /// The current router's cycles, added to its position when the header
    /// leaves it.
    here: [u32; PARTS],
}

/// The running counts ([`crate::network::Sim`] owns one while recording).
pub(crate) struct HeaderPartsProbe {
    kind: Vec<Option<bool>>,
    port_base: Vec<usize>,
    /// Output VC buffer depth (DO): a buffer this full takes no flit.
    depth: usize,
    /// Every header found after the last cycle, and after this one.
    before: Vec<(u32, Start)>,
    now: Vec<(u32, Start)>,
    /// Per message slot (the network's slab index): where its header is
    /// now (valid while `seen[idx]` is the current cycle + 1).
    located: Vec<(u64, Start)>,
    acc: Vec<Acc>,
    /// Headers that named no message in flight (0 unless the lookup is
    /// wrong; `run_header_parts` refuses a run with any).
    pub unmatched: u64,
}

impl HeaderPartsProbe {
    pub fn new<X: Width>(routers: &[Router<X>], out_link: &[Vec<Peer>]) -> HeaderPartsProbe {
        let (kind, port_base) = crate::hop_parts::port_kinds(routers, out_link);
        let depth = routers.first().map_or(0, |r| r.config().output_buffer_depth());
        HeaderPartsProbe { kind, port_base, depth, before: Vec::new(), now: Vec::new(), located: Vec::new(), acc: Vec::new(), unmatched: 0 }
    }

    fn slot(acc: &mut Vec<Acc>, idx: u32) -> &mut Acc {
        let i = idx as usize;
        if acc.len() <= i {
            acc.resize(i + 1, Acc::default());
        }
        &mut acc[i]
    }

    /// After cycle `cycle`; `message(header)` is the slab index of the
    /// message a header flit names.
    pub fn observe<X: Width>(&mut self, cycle: u64, routers: &[Router<X>], message: impl Fn(&LinkFlit) -> Option<u32>) {
        self.now.clear();
        let stamp = cycle + 1;
        for (r, router) in routers.iter().enumerate() {
            let (n, m) = (router.config().ports(), router.config().vcs());
            let out = &router.outputs().flits;
            for p in 0..n {
                for v in 0..m {
                    for k in 0..router.input_occupancy(p, v) {
                        let Some(f) = router.input_flit(p, v, k).filter(|f| f.head && !f.dummy) else { continue };
                        let start = if k > 0 {
                            Start::Fixed(HeaderPart::BehindInInput)
                        } else {
                            match router.vc_state(p, v) {
                                VcState::Idle => Start::Fixed(HeaderPart::Route),
                                VcState::Routed { .. } => Start::Fixed(HeaderPart::VcAllocation),
                                VcState::Active { route, ovc } if router.output_occupancy(route, ovc) >= self.depth => Start::Fixed(HeaderPart::OutputFull),
                                VcState::Active { .. } => Start::SwitchReady,
                            }
                        };
                        self.found(&f, start, &message);
                    }
                }
                for u in 0..m {
                    for k in 0..router.output_occupancy(p, u) {
                        let Some(f) = router.output_flit(p, u, k).filter(|f| f.head && !f.dummy) else { continue };
                        let start = if k > 0 {
                            Start::Fixed(HeaderPart::BehindInOutput)
                        } else if router.credits(p, u) == 0 {
                            Start::Fixed(HeaderPart::NoCredit)
                        } else {
                            Start::LinkReady { r: r as u32, o: p as u32 }
                        };
                        self.found(&f, start, &message);
                    }
                }
                let f = &out[p];
                if f.valid && f.head && !f.dummy {
                    match self.kind[self.port_base[r] + p] {
                        Some(true) => self.found(f, Start::Ejected, &message),
                        Some(false) => self.found(f, Start::OnLink, &message),
                        None => {}
                    }
                }
            }
        }
        for &(idx, start) in &self.now {
            let i = idx as usize;
            if self.located.len() <= i {
                self.located.resize(i + 1, (0, Start::Ejected));
            }
            self.located[i] = (stamp, start);
        }
        // This cycle's part for every header found after the last one.
        for &(idx, start) in &self.before {
            let end = self.located.get(idx as usize).filter(|l| l.0 == stamp).map(|l| l.1);
            let part = match start {
                Start::Fixed(p) => p,
                Start::SwitchReady => match end {
                    Some(Start::Fixed(HeaderPart::BehindInOutput | HeaderPart::NoCredit) | Start::LinkReady { .. }) => HeaderPart::Switch,
                    _ => HeaderPart::SwitchLost,
                },
                Start::LinkReady { r, o } => match end {
                    Some(Start::OnLink | Start::Ejected) => HeaderPart::Crossing,
                    _ if routers[r as usize].outputs().flits[o as usize].valid => HeaderPart::LinkShared,
                    _ => HeaderPart::ReadyIdle,
                },
                Start::OnLink => HeaderPart::Link,
                Start::Ejected => continue,
            };
            let a = Self::slot(&mut self.acc, idx);
            a.here[part as usize] += 1;
            if part == HeaderPart::Link || (part == HeaderPart::Crossing && end == Some(Start::Ejected)) {
                // It left the router: its cycles there go to its position.
                let at = if part == HeaderPart::Link {
                    if a.parts.hops == 0 {
                        PathRouter::Source
                    } else {
                        PathRouter::Transit
                    }
                } else {
                    PathRouter::Destination
                };
                let here = std::mem::take(&mut a.here);
                a.parts.by_router[at as usize].iter_mut().zip(here).for_each(|(x, y)| *x += y);
                a.parts.hops += (part == HeaderPart::Link) as u32;
            }
        }
        std::mem::swap(&mut self.before, &mut self.now);
    }

    fn found(&mut self, f: &LinkFlit, start: Start, message: &impl Fn(&LinkFlit) -> Option<u32>) {
        match message(f) {
            Some(idx) => self.now.push((idx, start)),
            None => self.unmatched += 1,
        }
    }

    /// Message `idx` was delivered: its counts, and its slot cleared for
    /// the next message that takes it.
    pub fn finish(&mut self, idx: u32) -> HeaderParts {
        self.acc.get_mut(idx as usize).map(std::mem::take).unwrap_or_default().parts
    }
}

#[cfg(test)]
mod tests {
    //! One router driven flit by flit (as `router_split.rs`'s tests), every
    //! port an ejection port, for the parts a 3-node ring does not show
    //! simply (`network/header_parts_tests.rs` has the ring's). Timing of
    //! docs/microarchitecture.md §6: a header on an input link in cycle c
    //! is written at its end, routed in c + 1, granted an output VC in
    //! c + 2 (one grant per output port per cycle, round robin over input
    //! VCs p·M + v from `va_ptr`, the lowest free VC), crosses the crossbar
    //! from c + 3 and is picked for the link (point C, round robin over the
    //! output port's eligible VCs from `oc_ptr`, a VC eligible with a flit
    //! and a credit at the cycle's start) from the cycle after. A message
    //! id rides in header bits 24.. (the router passes data unchanged).
    use super::*;
    use wormqos_config::RouterConfig;
    use wormqos_sim::RouterInputs;

    fn router(extra: &str) -> (Router, RouterConfig) {
        let text = format!("name = \"t\"\n[router]\nports = 5\nvcs = 2\nflit_width = 32\ninput_buffer_depth = 8\noutput_buffer_depth = 8\nscheduler = \"round_robin\"\n{extra}");
        let cfg = RouterConfig::from_toml_str(&text, "inline").unwrap();
        (Router::new(&cfg), cfg)
    }

    /// Message `id`'s flits on VC `vc` to output `dest`, one per cycle from
    /// the `at` cycles, on input `port`.
    fn message(cfg: &RouterConfig, id: u32, port: usize, vc: u8, dest: u64, at: &[u64]) -> Vec<(u64, usize, LinkFlit)> {
        let h = cfg.header();
        at.iter()
            .enumerate()
            .map(|(k, &t)| {
                let mut data = [0u64; wormqos_sim::MAX_FLIT_WORDS];
                if k == 0 {
                    h.dest.insert(&mut data, dest);
                    data[0] |= (id as u64) << 24;
                }
                (t, port, LinkFlit { lane: 0, valid: true, dummy: false, vc, head: k == 0, tail: k + 1 == at.len(), data })
            })
            .collect()
    }

    /// Runs `cycles` cycles with `sends` and credits returned (cycle,
    /// output port, VC mask); each message's parts, by id.
    fn run(cfg: &RouterConfig, r: &mut Router, sends: &[(u64, usize, LinkFlit)], credits: &[(u64, usize, u32)], cycles: u64) -> Vec<HeaderParts> {
        let out_link = vec![vec![Peer::Endpoint(0); cfg.ports()]];
        let mut probe = HeaderPartsProbe::new(std::slice::from_ref(r), &out_link);
        let mut inp = RouterInputs::idle(cfg);
        let ids = sends.iter().filter(|s| s.2.head).count();
        for t in 0..cycles {
            inp.clear();
            for &(_, p, f) in sends.iter().filter(|x| x.0 == t) {
                inp.flits[p] = f;
            }
            for &(_, o, mask) in credits.iter().filter(|x| x.0 == t) {
                inp.credits[o] |= mask;
            }
            r.step(&inp);
            probe.observe(t, std::slice::from_ref(r), |f: &LinkFlit| Some((f.data[0] >> 24) as u32 & 0xff).filter(|&i| (i as usize) < ids));
        }
        assert_eq!(probe.unmatched, 0);
        (0..ids as u32).map(|i| probe.finish(i)).collect()
    }

    /// The destination router's parts (a lone router is the destination).
    fn parts(list: &[(HeaderPart, u32)]) -> HeaderParts {
        let mut p = HeaderParts::default();
        for &(part, n) in list {
            p.by_router[PathRouter::Destination as usize][part as usize] = n;
        }
        p
    }

    #[test]
    fn the_parts_are_in_all_s_order() {
        for (k, p) in HeaderPart::ALL.iter().enumerate() {
            assert_eq!(*p as usize, k, "{}", p.name());
        }
    }

    /// `router_split.rs`'s `a_message_waits_behind_the_one_before_it_in_the_output_buffer`
    /// (4 credits downstream, A of 5 flits in 0–4 and B of 2 in 5, 6 on
    /// input 0 VC 0 to port 2, credits back in 11, 13, 14), the header's
    /// cycles: A0 Route 1, VA 2, Switch 3, Crossing 4; A1–A3 use the other
    /// credits (5–7), A4 crosses the crossbar in 7 (freeing output VC 0).
    /// B0, written in 5, is behind A4 in 6 and 7, Route 8, VA 9 (VC 0
    /// again), Switch 10 into the buffer behind A4 (no credit: BehindInOutput
    /// 11 and 12, the credit of 11 counted from 12 takes A4), at the front
    /// without a credit in 13, then the credit of 13: Crossing 14.
    #[test]
    fn a_header_behind_the_last_holders_flit_then_without_a_credit() {
        let (mut r, cfg) = router("crossbar = \"multiplexed\"\ndownstream_buffer_depth = 4\n");
        let mut sends = message(&cfg, 0, 0, 0, 2, &[0, 1, 2, 3, 4]);
        sends.extend(message(&cfg, 1, 0, 0, 2, &[5, 6]));
        let got = run(&cfg, &mut r, &sends, &[(11, 2, 1), (13, 2, 1), (14, 2, 1)], 25);
        use HeaderPart::*;
        assert_eq!(got[0], parts(&[(Route, 1), (VcAllocation, 1), (Switch, 1), (Crossing, 1)]));
        assert_eq!(got[1], parts(&[(BehindInInput, 2), (Route, 1), (VcAllocation, 1), (Switch, 1), (BehindInOutput, 2), (NoCredit, 1), (Crossing, 1)]));
    }

    /// Full crossbar, 2 VCs, to port 2: X (6 flits, input 0), W (2 flits,
    /// input 1), Y (1 flit, input 3), headers in cycle 0. VA: X in 2 (VC 0),
    /// W in 3 (VC 1), Y, with none free until W's tail crosses in 5, in 6
    /// (VC 1): VcAllocation 5. Point C: X0 4 (pointer to 1), W0 5 (to 0), X1
    /// 6 (to 1), W1 7 (to 0), as Y crosses the crossbar (Switch 7); in 8 X2
    /// and Y are eligible and the pointer gives X2 the link (LinkShared),
    /// Y's turn in 9 (Crossing).
    #[test]
    fn a_ready_header_loses_the_link_to_another_vc() {
        let (mut r, cfg) = router("crossbar = \"full\"\n");
        let mut sends = message(&cfg, 0, 0, 0, 2, &[0, 1, 2, 3, 4, 5]);
        sends.extend(message(&cfg, 1, 1, 0, 2, &[0, 1]));
        sends.extend(message(&cfg, 2, 3, 0, 2, &[0]));
        let got = run(&cfg, &mut r, &sends, &[], 20);
        use HeaderPart::*;
        assert_eq!(got[0], parts(&[(Route, 1), (VcAllocation, 1), (Switch, 1), (Crossing, 1)]));
        assert_eq!(got[1], parts(&[(Route, 1), (VcAllocation, 2), (Switch, 1), (Crossing, 1)]));
        assert_eq!(got[2], parts(&[(Route, 1), (VcAllocation, 5), (Switch, 1), (LinkShared, 1), (Crossing, 1)]));
    }

    /// Multiplexed crossbar, single pass: Z (input 0 VC 0) and X (input 1
    /// VC 0) to port 2, headers in 0; Y (input 1 VC 1) to port 3, header in
    /// 1; 2 flits each. VA at port 2: Z in 2, X in 3 (VC 1); Y at port 3 in
    /// 3. In 4 input 1 has X0 and Y0 ready and point A's pointer (0) offers
    /// X0, which wins port 2 at point B (pointer 1 after Z0 in 3): Y loses
    /// the crossbar to another VC of its input port (SwitchLost), crosses
    /// in 5 (pointer 1), is picked for the link in 6.
    #[test]
    fn a_ready_header_loses_the_crossbar_to_another_vc_of_its_input() {
        let (mut r, cfg) = router("crossbar = \"multiplexed\"\n");
        let mut sends = message(&cfg, 0, 0, 0, 2, &[0, 1]);
        sends.extend(message(&cfg, 1, 1, 0, 2, &[0, 2]));
        sends.extend(message(&cfg, 2, 1, 1, 3, &[1, 3]));
        let got = run(&cfg, &mut r, &sends, &[], 20);
        use HeaderPart::*;
        assert_eq!(got[0], parts(&[(Route, 1), (VcAllocation, 1), (Switch, 1), (Crossing, 1)]));
        assert_eq!(got[1], parts(&[(Route, 1), (VcAllocation, 2), (Switch, 1), (Crossing, 1)]));
        assert_eq!(got[2], parts(&[(Route, 1), (VcAllocation, 1), (SwitchLost, 1), (Switch, 1), (Crossing, 1)]));
    }
}

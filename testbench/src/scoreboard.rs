//! Conservation scoreboard: checks a router's delivered flits against the
//! flits injected into it, without any model of the router's timing or
//! arbitration.
//!
//! Rules (docs/microarchitecture.md §2, §6):
//! - each message leaves whole on one output VC of the port its destination
//!   routes to;
//! - a head flit at output VC (o, u) starts a not-yet-started message of some
//!   input VC whose route is o and whose head flit is identical; it binds
//!   (o, u) to that message until the tail;
//! - messages of one input VC cross the crossbar in injection order, but the
//!   output VC buffers decouple them: message k+1 may leave the router before
//!   (older) message k only once all of k has crossed, i.e. when k is fully
//!   injected and at most `output_buffer_depth` of its flits are undelivered.
//!   So a head may start the oldest unstarted message of its input VC, or a
//!   younger one when every older unfinished message of that VC satisfies this;
//! - every further flit on (o, u) is exactly the next flit of the bound
//!   message (head and tail bits and all data bits);
//! - an output link that is not valid carries all-zero fields;
//! - at the end every injected flit has been delivered exactly once.
//!
//! If two input VCs offer *identical* head flits for the same port, both stay
//! candidates and the following flits decide.

use std::collections::VecDeque;
use std::fmt;

use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};

/// Formats flit data of `width` bits as hexadecimal, most significant digit first.
/// Whether a header with destination code `dest` may leave on output port
/// `o`: its routing table port, or with `topology.route_links` any port of its
/// group of parallel links (docs/microarchitecture.md §2).
pub fn leaves_on(cfg: &RouterConfig, dest: u64, o: usize) -> bool {
    let first = cfg.route(dest);
    (first..first + cfg.route_links(dest)).contains(&o)
}

pub fn hex_data(data: &[u64; MAX_FLIT_WORDS], width: u32) -> String {
    let digits = width.div_ceil(4) as usize;
    let mut s = String::with_capacity(digits + 2);
    for k in (0..digits).rev() {
        let nib = (data[k / 16] >> ((k % 16) * 4)) & 0xf;
        s.push(char::from_digit(nib as u32, 16).unwrap());
    }
    format!("0x{s}")
}

/// One flit as "head=1 tail=0 data=0x…".
pub fn fmt_flit(f: &LinkFlit, width: u32) -> String {
    if !f.valid && *f == LinkFlit::IDLE {
        return "no flit".to_string();
    }
    format!(
        "{}vc={} head={} tail={} data={}",
        if f.valid { "" } else { "valid=0 " },
        f.vc,
        f.head as u8,
        f.tail as u8,
        hex_data(&f.data, width)
    )
}

/// Which side of the router an error refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Input,
    Output,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Input => "input",
            Side::Output => "output",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A flit differs from the expected next flit of its message and is no other flit of it.
    Corrupted,
    /// A flit of the bound message that was already delivered arrives again,
    /// or a header that was already delivered starts again.
    Duplicated,
    /// A flit of the bound message arrives before an earlier one (a flit was
    /// skipped: dropped or reordered), or a message starts before an older
    /// message of its input VC.
    Reordered,
    /// A header leaves on a port its destination does not route to.
    WrongPort,
    /// Traditional / non-preemptive: a header on an output VC of another class.
    WrongClassVc,
    /// `topology.route_vcs`: a header on an output VC outside the allowed set
    /// of its destination.
    DisallowedVc,
    /// A non-head flit on an output VC that carries no message.
    NotAHead,
    /// A header that matches no injected message.
    UnknownHead,
    /// A head flit arrives on an output VC still bound to an unfinished message.
    HeadInsideMessage,
    /// More flits of a message leave than were injected so far.
    Overrun,
    /// The output VC number is not a VC.
    BadVc,
    /// An idle link (valid = 0) with non-zero fields.
    IdleNotZero,
    /// Injection broke the message protocol (a stimulus bug).
    Injection,
    /// Flits injected but never delivered (reported by `finish`).
    Undelivered,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Corrupted => "corrupted flit",
            ErrorKind::Duplicated => "duplicated flit",
            ErrorKind::Reordered => "flit out of order (dropped or reordered)",
            ErrorKind::WrongPort => "message on the wrong output port",
            ErrorKind::WrongClassVc => "header on an output VC reserved for another class",
            ErrorKind::DisallowedVc => "header on an output VC outside its destination's allowed set",
            ErrorKind::NotAHead => "non-head flit on an output VC that carries no message",
            ErrorKind::UnknownHead => "header of no injected message",
            ErrorKind::HeadInsideMessage => "head flit inside an unfinished message",
            ErrorKind::Overrun => "more flits delivered than injected",
            ErrorKind::BadVc => "invalid output VC",
            ErrorKind::IdleNotZero => "idle link with non-zero fields",
            ErrorKind::Injection => "injection protocol violation",
            ErrorKind::Undelivered => "flits never delivered",
        })
    }
}

/// A conservation violation, with the place and time it was seen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cycle {cycle}: {side} port {port} vc {vc}: {kind}: {detail}\n    expected: {expected}\n    actual:   {actual}")]
pub struct ScoreboardError {
    pub cycle: u64,
    pub side: Side,
    pub port: usize,
    pub vc: usize,
    pub kind: ErrorKind,
    pub expected: String,
    pub actual: String,
    pub detail: String,
}

/// Counts at the end of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreboardSummary {
    pub flits_injected: u64,
    pub flits_delivered: u64,
    pub messages_injected: u64,
    pub messages_delivered: u64,
    /// Flits delivered per output port.
    pub delivered_per_port: Vec<u64>,
    /// Headers that matched more than one input VC (resolved by later flits).
    pub ambiguous_heads: u64,
    /// Largest number of injected-but-undelivered flits at any time.
    pub max_in_flight: u64,
}

impl fmt::Display for ScoreboardSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "message flits delivered {} of {} and messages delivered {} of {} (dummy flits not counted; at most {} flits in flight at once), message flits per output port {:?}",
            self.flits_delivered,
            self.flits_injected,
            self.messages_delivered,
            self.messages_injected,
            self.max_in_flight,
            self.delivered_per_port
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MsgState {
    Unstarted,
    Claimed,
    Done,
}

#[derive(Clone, Debug)]
struct Message {
    flits: Vec<LinkFlit>, // vc normalised to 0, valid = true
    closed: bool,
    state: MsgState,
    delivered: usize,
    inject_cycle: u64,
    /// Where and when it started (for duplicate reports).
    started_at: Option<StartedAt>,
}

#[derive(Clone, Debug, Default)]
struct InputVc {
    base: u64, // id of msgs[0]
    msgs: VecDeque<Message>,
    open: bool,
}

#[derive(Clone, Debug)]
struct Binding {
    /// (input VC index, message id)
    cands: Vec<(usize, u64)>,
    pos: usize,
}

/// The conservation checker. Feed it, in each cycle t, first the device's
/// outputs ([`Scoreboard::observe`]) and then the inputs ([`Scoreboard::inject`]).
pub struct Scoreboard {
    cfg: RouterConfig,
    inputs: Vec<InputVc>,
    bindings: Vec<Option<Binding>>,
    summary: ScoreboardSummary,
    last_cycle: u64,
    /// Heads of recently completed messages (already dropped from `inputs`):
    /// (head, input VC, message id, (cycle, port, vc) it started at).
    recent_done: VecDeque<(LinkFlit, usize, u64, Option<StartedAt>)>,
}

/// (cycle, output port, output VC) where a message started.
type StartedAt = (u64, usize, usize);
/// Startable messages of an input VC, and what blocks younger ones.
type Startable<'a> = (Vec<(u64, &'a Message)>, Option<(u64, usize)>);

const RECENT_DONE: usize = 4096;

fn strip(f: &LinkFlit) -> LinkFlit {
    LinkFlit { vc: 0, ..*f }
}

impl Scoreboard {
    pub fn new(cfg: &RouterConfig) -> Self {
        let nm = cfg.ports() * cfg.vcs();
        Scoreboard {
            cfg: cfg.clone(),
            inputs: vec![InputVc::default(); nm],
            bindings: vec![None; nm],
            summary: ScoreboardSummary { delivered_per_port: vec![0; cfg.ports()], ..Default::default() },
            last_cycle: 0,
            recent_done: VecDeque::new(),
        }
    }

    pub fn flits_injected(&self) -> u64 {
        self.summary.flits_injected
    }
    pub fn flits_delivered(&self) -> u64 {
        self.summary.flits_delivered
    }
    /// Flits injected and not yet delivered.
    pub fn outstanding_flits(&self) -> u64 {
        self.summary.flits_injected - self.summary.flits_delivered
    }
    pub fn summary(&self) -> &ScoreboardSummary {
        &self.summary
    }

    fn w(&self) -> u32 {
        self.cfg.flit_width()
    }

    fn msg(&self, ivc: usize, id: u64) -> &Message {
        let iv = &self.inputs[ivc];
        &iv.msgs[(id - iv.base) as usize]
    }
    fn msg_mut(&mut self, ivc: usize, id: u64) -> &mut Message {
        let iv = &mut self.inputs[ivc];
        &mut iv.msgs[(id - iv.base) as usize]
    }

    fn ivc_name(&self, ivc: usize) -> String {
        format!("input port {} vc {}", ivc / self.cfg.vcs(), ivc % self.cfg.vcs())
    }

    /// Records every valid flit of this cycle's inputs.
    pub fn inject_all(&mut self, cycle: u64, inputs: &RouterInputs) -> Result<(), ScoreboardError> {
        for (p, f) in inputs.flits.iter().enumerate() {
            self.inject(cycle, p, f)?;
        }
        Ok(())
    }

    /// Records one flit entering input port `port` (ignored unless valid).
    pub fn inject(&mut self, cycle: u64, port: usize, f: &LinkFlit) -> Result<(), ScoreboardError> {
        if !f.valid {
            return Ok(());
        }
        let m = self.cfg.vcs();
        let v = f.vc as usize;
        let err = |detail: &str, s: &Self| ScoreboardError {
            cycle,
            side: Side::Input,
            port,
            vc: v,
            kind: ErrorKind::Injection,
            expected: String::new(),
            actual: fmt_flit(f, s.w()),
            detail: detail.to_string(),
        };
        if v >= m {
            return Err(err("the VC number is not a VC of the router", self));
        }
        let iv = &mut self.inputs[port * m + v];
        if f.head {
            if iv.open {
                return Err(err("head flit while the previous message on this VC has no tail yet", self));
            }
            iv.msgs.push_back(Message {
                flits: Vec::new(),
                closed: false,
                state: MsgState::Unstarted,
                delivered: 0,
                inject_cycle: cycle,
                started_at: None,
            });
            iv.open = true;
            self.summary.messages_injected += 1;
        } else if !iv.open {
            return Err(err("body/tail flit without a preceding head on this VC", self));
        }
        let iv = &mut self.inputs[port * m + v];
        let msg = iv.msgs.back_mut().unwrap();
        msg.flits.push(strip(f));
        if f.tail {
            msg.closed = true;
            iv.open = false;
        }
        self.summary.flits_injected += 1;
        self.summary.max_in_flight = self.summary.max_in_flight.max(self.outstanding_flits());
        Ok(())
    }

    /// Checks every output link of this cycle.
    pub fn observe(&mut self, cycle: u64, outs: &RouterOutputs) -> Result<(), ScoreboardError> {
        self.last_cycle = cycle;
        for (o, f) in outs.flits.iter().enumerate() {
            self.observe_flit(cycle, o, f)?;
        }
        Ok(())
    }

    /// Checks one output link's flit.
    pub fn observe_flit(&mut self, cycle: u64, o: usize, f: &LinkFlit) -> Result<(), ScoreboardError> {
        let w = self.w();
        let m = self.cfg.vcs();
        let u = f.vc as usize;
        let mk = |kind, expected: String, detail: String| ScoreboardError {
            cycle,
            side: Side::Output,
            port: o,
            vc: u,
            kind,
            expected,
            actual: fmt_flit(f, w),
            detail,
        };
        if !f.valid {
            if *f != LinkFlit::IDLE {
                return Err(mk(
                    ErrorKind::IdleNotZero,
                    "all fields 0 while out_valid_o = 0".into(),
                    "docs/microarchitecture.md §3 requires zero fields on an idle link".into(),
                ));
            }
            return Ok(());
        }
        if u >= m {
            return Err(mk(ErrorKind::BadVc, format!("a VC below {m}"), String::new()));
        }
        let ovc = o * m + u;
        let actual = strip(f);
        match self.bindings[ovc].take() {
            None => {
                let cands = self.head_candidates(o, &actual);
                if cands.is_empty() {
                    return Err(self.classify_unbound(cycle, o, f, &actual));
                }
                if cands.len() > 1 {
                    self.summary.ambiguous_heads += 1;
                }
                for &(c, id) in &cands {
                    let msg = self.msg_mut(c, id);
                    if msg.state == MsgState::Unstarted {
                        msg.state = MsgState::Claimed;
                        msg.started_at = Some((cycle, o, u));
                    }
                }
                self.accept(o, ovc, Binding { cands, pos: 0 }, actual.tail);
                Ok(())
            }
            Some(b) => {
                let k = b.pos + 1;
                let keep: Vec<(usize, u64)> = b
                    .cands
                    .iter()
                    .copied()
                    .filter(|&(c, id)| self.msg(c, id).flits.get(k) == Some(&actual))
                    .collect();
                if keep.is_empty() {
                    let (c, id) = b.cands[0];
                    let e = self.classify_bound(cycle, o, f, &actual, c, id, k);
                    self.bindings[ovc] = Some(b);
                    return Err(e);
                }
                let dropped: Vec<(usize, u64)> = b.cands.iter().copied().filter(|x| !keep.contains(x)).collect();
                self.accept(o, ovc, Binding { cands: keep, pos: k }, actual.tail);
                for (c, id) in dropped {
                    self.release_if_unclaimed(c, id);
                }
                Ok(())
            }
        }
    }

    /// A message no binding holds any more goes back to the waiting ones.
    fn release_if_unclaimed(&mut self, c: usize, id: u64) {
        let held = self.bindings.iter().flatten().any(|b| b.cands.contains(&(c, id)));
        if !held && self.msg(c, id).state == MsgState::Claimed {
            self.release(c, id);
        }
    }

    /// Keeps every message in at most one binding once that binding is sure
    /// of it (only matters for identical headers).
    fn propagate(&mut self) {
        // Ambiguous bindings are rare (identical headers): skip the quadratic pass without them.
        if !self.bindings.iter().flatten().any(|b| b.cands.len() > 1) {
            return;
        }
        loop {
            let mut changed = false;
            for i in 0..self.bindings.len() {
                let Some(x) = self.bindings[i].as_ref().and_then(|b| (b.cands.len() == 1).then(|| b.cands[0])) else {
                    continue;
                };
                for j in 0..self.bindings.len() {
                    if j == i {
                        continue;
                    }
                    if let Some(b) = self.bindings[j].as_mut() {
                        if b.cands.len() > 1 && b.cands.contains(&x) {
                            b.cands.retain(|y| *y != x);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn release(&mut self, c: usize, id: u64) {
        let msg = self.msg_mut(c, id);
        msg.state = MsgState::Unstarted;
        msg.delivered = 0;
        msg.started_at = None;
    }

    /// Counts a matched flit; closes the binding at a tail.
    fn accept(&mut self, o: usize, ovc: usize, b: Binding, tail: bool) {
        self.summary.flits_delivered += 1;
        self.summary.delivered_per_port[o] += 1;
        for &(c, id) in &b.cands {
            let msg = self.msg_mut(c, id);
            msg.delivered = msg.delivered.max(b.pos + 1);
        }
        if tail {
            let (c, id) = b.cands[0];
            // The message is complete: no other binding may hold it.
            for other in self.bindings.iter_mut().flatten() {
                other.cands.retain(|y| *y != (c, id));
            }
            self.msg_mut(c, id).state = MsgState::Done;
            self.msg_mut(c, id).delivered = b.pos + 1;
            self.summary.messages_delivered += 1;
            for &(c2, id2) in &b.cands[1..] {
                self.release_if_unclaimed(c2, id2);
            }
            self.propagate();
            let iv = &mut self.inputs[c];
            while iv.msgs.front().is_some_and(|m| m.state == MsgState::Done) {
                let m = iv.msgs.pop_front().unwrap();
                self.recent_done.push_back((m.flits[0], c, iv.base, m.started_at));
                if self.recent_done.len() > RECENT_DONE {
                    self.recent_done.pop_front();
                }
                iv.base += 1;
            }
        } else {
            self.bindings[ovc] = Some(b);
            self.propagate();
        }
    }

    /// The unstarted messages of input VC `c` that may start now (see the
    /// module docs), oldest first, and the message that keeps younger ones
    /// from starting, with its number of undelivered flits.
    fn startable(&self, c: usize) -> Startable<'_> {
        let iv = &self.inputs[c];
        let depth = self.cfg.output_buffer_depth();
        let mut v = Vec::new();
        for (i, m) in iv.msgs.iter().enumerate() {
            let id = iv.base + i as u64;
            if m.state == MsgState::Done {
                continue;
            }
            if m.state == MsgState::Unstarted {
                v.push((id, m));
            }
            let left = m.flits.len() - m.delivered;
            if !m.closed || left > depth {
                return (v, Some((id, left)));
            }
        }
        (v, None)
    }

    fn head_candidates(&self, o: usize, actual: &LinkFlit) -> Vec<(usize, u64)> {
        let dest = self.cfg.header().dest;
        let fits = |m: &Message| {
            m.flits.first().is_some_and(|h| h == actual && leaves_on(&self.cfg, dest.extract(&h.data), o))
        };
        let mut v = Vec::new();
        for c in 0..self.inputs.len() {
            for (id, m) in self.startable(c).0 {
                if fits(m) {
                    v.push((c, id));
                }
            }
        }
        // Messages an undecided binding holds with an identical header may be
        // this one instead.
        for b in self.bindings.iter().flatten() {
            if b.cands.len() > 1 {
                for &(c, id) in &b.cands {
                    if !v.contains(&(c, id)) && fits(self.msg(c, id)) {
                        v.push((c, id));
                    }
                }
            }
        }
        v
    }

    fn classify_unbound(&self, cycle: u64, o: usize, f: &LinkFlit, actual: &LinkFlit) -> ScoreboardError {
        let w = self.w();
        let dest = self.cfg.header().dest;
        let mut e = ScoreboardError {
            cycle,
            side: Side::Output,
            port: o,
            vc: f.vc as usize,
            kind: ErrorKind::UnknownHead,
            expected: String::new(),
            actual: fmt_flit(f, w),
            detail: String::new(),
        };
        // The heads that could legally start here.
        let mut options = Vec::new();
        for c in 0..self.inputs.len() {
            for (id, m) in self.startable(c).0 {
                if let Some(h) = m.flits.first() {
                    if leaves_on(&self.cfg, dest.extract(&h.data), o) {
                        options.push(format!("{} message #{id}: {}", self.ivc_name(c), fmt_flit(h, w)));
                    }
                }
            }
        }
        e.expected = if options.is_empty() {
            "no flit (no waiting message routes to this port)".to_string()
        } else {
            format!("the head of one of: {}", options.join("; "))
        };
        // Find the flit anywhere in the injected messages.
        for c in 0..self.inputs.len() {
            let (window, blocker) = self.startable(c);
            let window: Vec<u64> = window.into_iter().map(|(id, _)| id).collect();
            let iv = &self.inputs[c];
            for (i, m) in iv.msgs.iter().enumerate() {
                let id = iv.base + i as u64;
                let Some(k) = m.flits.iter().position(|x| x == actual) else { continue };
                let here = format!("{} message #{id} flit {k} (injected at cycle {})", self.ivc_name(c), m.inject_cycle);
                if k > 0 {
                    e.kind = ErrorKind::NotAHead;
                    e.detail = format!("it is {here}, whose head was not delivered on this output VC");
                } else if m.state != MsgState::Unstarted {
                    e.kind = ErrorKind::Duplicated;
                    let at = m
                        .started_at
                        .map(|(t, p, u)| format!(" at cycle {t} on output port {p} vc {u}"))
                        .unwrap_or_default();
                    e.detail = format!("this header of {here} was already delivered{at}");
                } else if !window.contains(&id) {
                    e.kind = ErrorKind::Reordered;
                    let (b, left) = blocker.unwrap_or_default();
                    e.detail = format!(
                        "{here} starts while the older message #{b} of its input VC still has {left} \
                         undelivered flit(s) (not all of it can have crossed the crossbar yet)"
                    );
                } else {
                    let d = dest.extract(&m.flits[0].data);
                    let (r, g) = (self.cfg.route(d), self.cfg.route_links(d));
                    e.kind = ErrorKind::WrongPort;
                    e.detail = if g == 1 {
                        format!("{here} has destination {d} which routes to output port {r}")
                    } else {
                        format!("{here} has destination {d} which routes to output ports {r}..={}", r + g - 1)
                    };
                }
                return e;
            }
        }
        if let Some((_, c, id, at)) = self.recent_done.iter().rev().find(|r| r.0 == *actual) {
            e.kind = ErrorKind::Duplicated;
            let at = at.map(|(t, p, u)| format!(" at cycle {t} on output port {p} vc {u}")).unwrap_or_default();
            e.detail = format!("this header of {} message #{id} was already delivered{at}", self.ivc_name(*c));
            return e;
        }
        if !actual.head {
            e.kind = ErrorKind::NotAHead;
            e.detail = "it matches no injected flit".to_string();
        } else {
            e.detail = "it matches no injected header (corrupted?)".to_string();
        }
        e
    }

    #[allow(clippy::too_many_arguments)]
    fn classify_bound(
        &self,
        cycle: u64,
        o: usize,
        f: &LinkFlit,
        actual: &LinkFlit,
        c: usize,
        id: u64,
        k: usize,
    ) -> ScoreboardError {
        let w = self.w();
        let m = self.msg(c, id);
        let name = format!("{} message #{id} (injected at cycle {})", self.ivc_name(c), m.inject_cycle);
        let mut e = ScoreboardError {
            cycle,
            side: Side::Output,
            port: o,
            vc: f.vc as usize,
            kind: ErrorKind::Corrupted,
            expected: String::new(),
            actual: fmt_flit(f, w),
            detail: String::new(),
        };
        let Some(exp) = m.flits.get(k) else {
            e.kind = ErrorKind::Overrun;
            e.expected = "no flit".to_string();
            e.detail = format!("flit {k} of {name}, which has only {} flits injected so far", m.flits.len());
            return e;
        };
        e.expected = format!("{} (flit {k} of {name})", fmt_flit(&LinkFlit { vc: f.vc, ..*exp }, w));
        if let Some(j) = m.flits.iter().position(|x| x == actual) {
            if j < k {
                e.kind = ErrorKind::Duplicated;
                e.detail = format!("got flit {j} again instead of flit {k}");
            } else {
                e.kind = ErrorKind::Reordered;
                e.detail = format!("got flit {j} where flit {k} was due ({} skipped)", j - k);
            }
        } else if actual.head {
            e.kind = ErrorKind::HeadInsideMessage;
            e.detail = format!("a head arrived while flit {k} of the bound message was due (tail dropped?)");
        } else {
            let diff: [u64; MAX_FLIT_WORDS] = std::array::from_fn(|i| exp.data[i] ^ actual.data[i]);
            let bits: u32 = diff.iter().map(|x| x.count_ones()).sum();
            e.detail = format!(
                "flit {k}: {} data bit(s) differ (xor {}){}{}",
                bits,
                hex_data(&diff, w),
                if exp.head != actual.head { ", head bit differs" } else { "" },
                if exp.tail != actual.tail { ", tail bit differs" } else { "" }
            );
        }
        e
    }

    /// Ends the run: every injected flit must have been delivered.
    pub fn finish(&self) -> Result<ScoreboardSummary, ScoreboardError> {
        let missing = self.outstanding_flits();
        let bound = self.bindings.iter().filter(|b| b.is_some()).count();
        let open = self.inputs.iter().filter(|iv| iv.open).count();
        if missing == 0 && bound == 0 && open == 0 {
            return Ok(self.summary.clone());
        }
        let mut firsts = Vec::new();
        let mut undelivered_msgs = 0u64;
        let mut first_pos = (0, 0);
        for (c, iv) in self.inputs.iter().enumerate() {
            for (i, m) in iv.msgs.iter().enumerate() {
                if m.state == MsgState::Done {
                    continue;
                }
                if undelivered_msgs == 0 {
                    first_pos = (c / self.cfg.vcs(), c % self.cfg.vcs());
                }
                undelivered_msgs += 1;
                if firsts.len() < 4 {
                    firsts.push(format!(
                        "{} message #{} injected at cycle {}: {} of {} flits delivered{}",
                        self.ivc_name(c),
                        iv.base + i as u64,
                        m.inject_cycle,
                        m.delivered,
                        m.flits.len(),
                        if m.closed { "" } else { " (tail never injected)" }
                    ));
                }
            }
        }
        Err(ScoreboardError {
            cycle: self.last_cycle,
            side: Side::Input,
            port: first_pos.0,
            vc: first_pos.1,
            kind: ErrorKind::Undelivered,
            expected: format!("{} flits delivered", self.summary.flits_injected),
            actual: format!("{} flits delivered", self.summary.flits_delivered),
            detail: format!(
                "{missing} flits of {undelivered_msgs} messages not delivered ({bound} output VCs still inside a message); {}",
                firsts.join("; ")
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> RouterConfig {
        RouterConfig::from_toml_str(
            r#"
name = "sb"
[router]
ports = 3
vcs = 2
flit_width = 40
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
"#,
            "t",
        )
        .unwrap()
    }

    /// A message to `dest` of `len` flits on VC `vc`; data distinguishes flits.
    fn message(c: &RouterConfig, dest: u64, vc: u8, len: usize, tag: u64) -> Vec<LinkFlit> {
        (0..len)
            .map(|k| {
                let mut data = [0u64; MAX_FLIT_WORDS];
                data[0] = (tag << 24) | ((k as u64) << 8);
                if k == 0 {
                    c.header().dest.insert(&mut data, dest);
                }
                LinkFlit { lane: 0, valid: true, dummy: false, vc, head: k == 0, tail: k + 1 == len, data }
            })
            .collect()
    }

    fn on(f: &LinkFlit, vc: u8) -> LinkFlit {
        LinkFlit { vc, ..*f }
    }

    type Ev = (u64, usize, LinkFlit);

    fn run(c: &RouterConfig, ins: &[Ev], outs: &[Ev]) -> Result<ScoreboardSummary, ScoreboardError> {
        let mut sb = Scoreboard::new(c);
        let last = ins.iter().chain(outs).map(|e| e.0).max().unwrap_or(0);
        for t in 0..=last {
            let mut o = RouterOutputs::idle(c);
            for e in outs.iter().filter(|e| e.0 == t) {
                o.flits[e.1] = e.2;
            }
            sb.observe(t, &o)?;
            let mut i = RouterInputs::idle(c);
            for e in ins.iter().filter(|e| e.0 == t) {
                i.flits[e.1] = e.2;
            }
            sb.inject_all(t, &i)?;
        }
        sb.finish()
    }

    /// Input: A (port 0 vc 0 -> dest 1, 3 flits), B (port 2 vc 1 -> dest 1,
    /// 2 flits), C (port 0 vc 1 -> dest 2, 1 flit), D (port 0 vc 0 -> dest 0,
    /// 2 flits, after A). Output port 1 interleaves A on vc 0 and B on vc 1.
    fn trace() -> (RouterConfig, Vec<Ev>, Vec<Ev>) {
        let c = cfg();
        let a = message(&c, 1, 0, 3, 0xa);
        let b = message(&c, 1, 1, 2, 0xb);
        let cc = message(&c, 2, 1, 1, 0xc);
        let d = message(&c, 0, 0, 2, 0xd);
        let ins = vec![
            (0, 0, a[0]),
            (0, 2, b[0]),
            (1, 0, a[1]),
            (1, 2, b[1]),
            (2, 0, cc[0]),
            (3, 0, a[2]),
            (4, 0, d[0]),
            (5, 0, d[1]),
        ];
        let outs = vec![
            (5, 1, on(&a[0], 0)),
            (6, 1, on(&b[0], 1)),
            (7, 1, on(&a[1], 0)),
            (7, 2, on(&cc[0], 0)),
            (8, 1, on(&b[1], 1)),
            (9, 1, on(&a[2], 0)),
            (10, 0, on(&d[0], 1)),
            (11, 0, on(&d[1], 1)),
        ];
        (c, ins, outs)
    }

    #[test]
    fn correct_trace_passes() {
        let (c, ins, outs) = trace();
        let s = run(&c, &ins, &outs).unwrap();
        assert_eq!((s.flits_injected, s.flits_delivered), (8, 8));
        assert_eq!((s.messages_injected, s.messages_delivered), (4, 4));
        assert_eq!(s.delivered_per_port, vec![2, 5, 1]);
    }

    #[test]
    fn dropped_body_flit_is_caught() {
        let (c, ins, mut outs) = trace();
        outs.remove(2); // A's flit 1
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::Reordered, 9, 1, 0), "{e}");
        assert!(e.to_string().contains("got flit 2 where flit 1 was due"), "{e}");
    }

    #[test]
    fn dropped_tail_is_caught_at_finish() {
        let (c, ins, mut outs) = trace();
        outs.remove(5); // A's tail
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Undelivered, "{e}");
        assert!(e.to_string().contains("1 flits of 1 messages not delivered"), "{e}");
        assert!(e.detail.contains("input port 0 vc 0 message #0"), "{e}");
    }

    #[test]
    fn dropped_message_is_caught_at_finish() {
        let (c, ins, mut outs) = trace();
        outs.remove(3); // C
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Undelivered, "{e}");
        assert!(e.detail.contains("input port 0 vc 1"), "{e}");
    }

    #[test]
    fn duplicated_flit_is_caught() {
        let (c, ins, mut outs) = trace();
        let again = outs[2].2; // A's flit 1 again at cycle 8 instead of... on port 1 vc 0
        outs.insert(4, (8, 1, again));
        outs.retain(|e| !(e.0 == 8 && e.2.vc == 1));
        outs.push((10, 1, on(&message(&c, 1, 1, 2, 0xb)[1], 1)));
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::Duplicated, 8, 1, 0), "{e}");
    }

    #[test]
    fn duplicated_message_is_caught() {
        let (c, ins, mut outs) = trace();
        outs.push((12, 2, outs[3].2)); // C again
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port), (ErrorKind::Duplicated, 12, 2), "{e}");
        assert!(e.detail.contains("already delivered at cycle 7 on output port 2 vc 0"), "{e}");
    }

    #[test]
    fn wrong_port_is_caught() {
        let (c, ins, mut outs) = trace();
        outs[3].1 = 0; // C (dest 2) leaves on port 0
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::WrongPort, 7, 0, 0), "{e}");
        assert!(e.detail.contains("routes to output port 2"), "{e}");
    }

    #[test]
    fn swapped_flits_are_caught() {
        let (c, ins, mut outs) = trace();
        let (x, y) = (outs[2].2, outs[5].2);
        outs[2].2 = y;
        outs[5].2 = x;
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::Reordered, 7, 1, 0), "{e}");
    }

    #[test]
    fn corrupted_payload_is_caught() {
        let (c, ins, mut outs) = trace();
        outs[4].2.data[0] ^= 1 << 37; // B's tail, bit 37
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::Corrupted, 8, 1, 1), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("1 data bit(s) differ (xor 0x2000000000)"), "{msg}");
        assert!(msg.contains("expected:") && msg.contains("actual:"), "{msg}");
    }

    #[test]
    fn corrupted_header_is_caught() {
        let (c, ins, mut outs) = trace();
        outs[0].2.data[0] ^= 1 << 30;
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port), (ErrorKind::UnknownHead, 5, 1), "{e}");
        assert!(e.expected.contains("input port 0 vc 0 message #0"), "{e}");
    }

    #[test]
    fn message_order_within_an_input_vc_is_enforced() {
        let c = cfg();
        // a has 3 flits, more than an output VC buffer (2) holds: b cannot
        // leave before a has started.
        let a = message(&c, 1, 0, 3, 1);
        let b = message(&c, 2, 0, 1, 2);
        let ins = vec![(0, 0, a[0]), (1, 0, a[1]), (2, 0, a[2]), (3, 0, b[0])];
        let outs = vec![(9, 2, b[0]), (10, 1, a[0]), (11, 1, a[1]), (12, 1, a[2])];
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port), (ErrorKind::Reordered, 9, 2), "{e}");
        assert!(e.detail.contains("older message #0 of its input VC still has 3"), "{e}");
        // Once only 2 flits of a are left, they may all sit in the output
        // buffer behind a credit stall while b overtakes.
        let outs = vec![(8, 1, a[0]), (9, 2, b[0]), (10, 1, a[1]), (11, 1, a[2])];
        run(&c, &ins, &outs).unwrap();
    }

    #[test]
    fn a_short_message_stuck_in_an_output_buffer_may_be_overtaken() {
        let c = cfg();
        let a = message(&c, 1, 0, 2, 1);
        let b = message(&c, 2, 0, 2, 2);
        let ins = vec![(0, 0, a[0]), (1, 0, a[1]), (2, 0, b[0]), (3, 0, b[1])];
        let outs = vec![(8, 2, b[0]), (9, 2, b[1]), (10, 1, a[0]), (11, 1, a[1])];
        run(&c, &ins, &outs).unwrap();
    }

    #[test]
    fn interleaving_two_messages_on_one_output_vc_is_caught() {
        let c = cfg();
        let a = message(&c, 1, 0, 2, 1);
        let b = message(&c, 1, 0, 2, 2);
        let ins = vec![(0, 0, a[0]), (0, 1, b[0]), (1, 0, a[1]), (1, 1, b[1])];
        let outs = vec![(6, 1, a[0]), (7, 1, b[0])];
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port), (ErrorKind::HeadInsideMessage, 7, 1), "{e}");
    }

    #[test]
    fn non_head_on_a_free_output_vc_and_dirty_idle_link_are_caught() {
        let (c, ins, mut outs) = trace();
        outs[1].2.head = false; // B's head loses its head bit
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port, e.vc), (ErrorKind::NotAHead, 6, 1, 1), "{e}");

        let (c, ins, mut outs) = trace();
        outs.push((3, 0, LinkFlit { lane: 0, valid: false, dummy: false, vc: 0, head: false, tail: false, data: [4, 0, 0, 0] }));
        let e = run(&c, &ins, &outs).unwrap_err();
        assert_eq!((e.kind, e.cycle, e.port), (ErrorKind::IdleNotZero, 3, 0), "{e}");
    }

    #[test]
    fn identical_headers_are_resolved_by_later_flits() {
        let c = cfg();
        let mut a = message(&c, 1, 0, 2, 1);
        let mut b = message(&c, 1, 0, 2, 1);
        a[1].data[0] = 0x111;
        b[1].data[0] = 0x222;
        let ins = vec![(0, 0, a[0]), (0, 2, b[0]), (1, 0, a[1]), (1, 2, b[1])];
        // b's message goes first on vc 0, a's on vc 1, flits interleaved
        let outs = vec![(6, 1, on(&b[0], 0)), (7, 1, on(&a[0], 1)), (8, 1, on(&a[1], 1)), (9, 1, on(&b[1], 0))];
        let s = run(&c, &ins, &outs).unwrap();
        assert_eq!(s.messages_delivered, 2);
        assert_eq!(s.ambiguous_heads, 2);
    }

    #[test]
    fn hex_formats_to_the_flit_width() {
        assert_eq!(hex_data(&[0xab, 0, 0, 0], 18), "0x000ab");
        assert_eq!(hex_data(&[u64::MAX, 0x3f, 0, 0], 70), "0x3fffffffffffffffff");
    }
}

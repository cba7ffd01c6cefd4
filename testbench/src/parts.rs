//! Conservation checker for the preemptive mode (docs/microarchitecture.md
//! §9.4, §9.6), where a message may leave the router in several parts.
//!
//! Like [`crate::scoreboard::Scoreboard`] it knows nothing of the router's
//! timing or arbitration. It relies on the message tags the stimulus puts in
//! every message (§9.6: the header carries the message id, every other flit
//! its index and id) and checks, flit by flit:
//! - every part opens with a head flit (real or dummy) on an output VC that
//!   carries no open part, and closes with a tail flit (real or dummy);
//! - a real header is the injected header of a message routed to this port,
//!   delivered once;
//! - a dummy header carries exactly the destination, class and Vtick fields of
//!   the message its part turns out to belong to, and nothing else; a dummy
//!   tail carries no data;
//! - within a part, flits are consecutive flits of one message (index +1 each
//!   time), each equal to the injected flit (head/tail bits and all data bits),
//!   never delivered twice, never before it was injected;
//! - an idle link carries all-zero fields;
//! - at the end every injected flit has been delivered exactly once.
//! Dummy flits a source sends are not part of any message and are not counted.

use std::collections::HashMap;

use wormqos_config::{Field, RouterConfig};
use wormqos_sim::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};

use crate::scoreboard::{fmt_flit, ErrorKind, ScoreboardError, ScoreboardSummary, Side};
use crate::stimulus::tag_id_width;

#[derive(Clone, Debug)]
struct Message {
    port: usize,
    header: LinkFlit,
    /// Injected non-header flits, index k at position k-1.
    body: Vec<LinkFlit>,
    complete: bool,
    header_delivered: bool,
    delivered: Vec<bool>,
    delivered_count: usize,
}

#[derive(Clone, Debug)]
struct Part {
    /// Message id, once known.
    id: Option<u64>,
    /// The dummy header that opened the part, checked once the id is known.
    dummy_header: Option<LinkFlit>,
    /// Index the next flit must have, once known.
    next: Option<usize>,
    /// The first port of its destination's group (`route_links`), which
    /// keys its messages: parts of one message may use any port of it.
    first: usize,
}

/// Counts specific to parts, on top of the [`ScoreboardSummary`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartSummary {
    pub dummy_headers_out: u64,
    pub dummy_tails_out: u64,
    /// Messages that left in more than one part.
    pub split_messages: u64,
    /// Most parts any message left in.
    pub max_parts: u64,
}

/// The checker. Feed it, in each cycle t, first the device's outputs
/// ([`PartScoreboard::observe`]) and then the inputs ([`PartScoreboard::inject_all`]).
pub struct PartScoreboard {
    cfg: RouterConfig,
    idw: u32,
    /// Open message being injected per input VC (its key), and the messages
    /// the source suspended with a dummy tail (resumed by its dummy header).
    injecting: Vec<Option<(usize, u64)>>,
    suspended: Vec<Vec<(usize, u64)>>,
    /// (output port, id mod 2^idw) -> message.
    messages: HashMap<(usize, u64), Message>,
    parts_per_message: HashMap<(usize, u64), u64>,
    open: Vec<Option<Part>>,
    summary: ScoreboardSummary,
    parts: PartSummary,
}

fn field(lsb: u32, width: u32) -> Field {
    Field { lsb, width }
}

impl PartScoreboard {
    /// Panics if the configuration's flits have no room for the tags (the
    /// stimulus would not send them either).
    pub fn new(cfg: &RouterConfig) -> Self {
        let idw = tag_id_width(cfg).expect("the preemptive checker needs flits with room for §9.6 message tags");
        let nm = cfg.ports() * cfg.vcs();
        PartScoreboard {
            cfg: cfg.clone(),
            idw,
            injecting: vec![None; nm],
            suspended: vec![Vec::new(); nm],
            messages: HashMap::new(),
            parts_per_message: HashMap::new(),
            open: vec![None; nm],
            summary: ScoreboardSummary { delivered_per_port: vec![0; cfg.ports()], ..Default::default() },
            parts: PartSummary::default(),
        }
    }

    pub fn flits_injected(&self) -> u64 {
        self.summary.flits_injected
    }
    pub fn flits_delivered(&self) -> u64 {
        self.summary.flits_delivered
    }
    pub fn outstanding_flits(&self) -> u64 {
        self.summary.flits_injected - self.summary.flits_delivered
    }
    pub fn parts(&self) -> &PartSummary {
        &self.parts
    }

    fn header_id(&self, data: &[u64; MAX_FLIT_WORDS]) -> u64 {
        field(self.cfg.header().width(), self.idw).extract(data)
    }
    fn body_tag(&self, data: &[u64; MAX_FLIT_WORDS]) -> (usize, u64) {
        (field(0, 16).extract(data) as usize, field(16, self.idw).extract(data))
    }

    fn err(&self, cycle: u64, side: Side, port: usize, vc: usize, kind: ErrorKind, expected: String, actual: String, detail: String) -> ScoreboardError {
        ScoreboardError { cycle, side, port, vc, kind, expected, actual, detail }
    }

    pub fn inject_all(&mut self, cycle: u64, inputs: &RouterInputs) -> Result<(), ScoreboardError> {
        for (p, f) in inputs.flits.iter().enumerate() {
            if f.valid {
                self.inject(cycle, p, f)?;
            }
        }
        Ok(())
    }

    fn inject(&mut self, cycle: u64, p: usize, f: &LinkFlit) -> Result<(), ScoreboardError> {
        let v = f.vc as usize;
        let i = p * self.cfg.vcs() + v;
        let w = self.cfg.flit_width();
        let bad = |this: &Self, what: &str| {
            this.err(cycle, Side::Input, p, v, ErrorKind::Injection, String::new(), fmt_flit(f, w), what.to_string())
        };
        if f.dummy {
            // A source's own preemption: the message is suspended by the dummy
            // tail and resumed by the dummy header; neither is a message flit.
            if f.tail {
                let Some(key) = self.injecting[i].take() else { return Err(bad(self, "a dummy tail with no open message")) };
                self.suspended[i].push(key);
            } else {
                if self.injecting[i].is_some() {
                    return Err(bad(self, "a dummy header while a message is open on this VC"));
                }
                let Some(key) = self.suspended[i].pop() else { return Err(bad(self, "a dummy header with no suspended message")) };
                self.injecting[i] = Some(key);
            }
            return Ok(());
        }
        if f.head {
            if self.injecting[i].is_some() {
                return Err(bad(self, "a header while a message is open on this VC"));
            }
            let dest = self.cfg.header().dest.extract(&f.data);
            let port = self.cfg.route(dest);
            let key = (port, self.header_id(&f.data));
            if let Some(old) = self.messages.get(&key) {
                let what = format!(
                    "message id {} reused while still in flight to port {port}: the earlier one has {} of {} flits \
                     delivered (header {}), injection {}",
                    key.1,
                    old.delivered_count + usize::from(old.header_delivered),
                    old.body.len() + 1,
                    if old.header_delivered { "delivered" } else { "not delivered" },
                    if old.complete { "complete" } else { "still open" }
                );
                return Err(bad(self, &what));
            }
            let clean = LinkFlit { vc: 0, ..*f };
            self.messages.insert(
                key,
                Message { port, header: clean, body: Vec::new(), complete: false, header_delivered: false, delivered: Vec::new(), delivered_count: 0 },
            );
            self.summary.messages_injected += 1;
            if !f.tail {
                self.injecting[i] = Some(key);
            } else {
                self.messages.get_mut(&key).unwrap().complete = true;
            }
        } else {
            let Some(key) = self.injecting[i] else { return Err(bad(self, "a body flit with no open message")) };
            let (k, id) = self.body_tag(&f.data);
            let m = self.messages.get_mut(&key).unwrap();
            if id != key.1 || k != m.body.len() + 1 {
                return Err(bad(self, "the stimulus tagged a flit wrongly"));
            }
            m.body.push(LinkFlit { vc: 0, ..*f });
            m.delivered.push(false);
            if f.tail {
                m.complete = true;
                self.injecting[i] = None;
            }
        }
        self.summary.flits_injected += 1;
        let in_flight = self.outstanding_flits();
        self.summary.max_in_flight = self.summary.max_in_flight.max(in_flight);
        Ok(())
    }

    pub fn observe(&mut self, cycle: u64, outs: &RouterOutputs) -> Result<(), ScoreboardError> {
        for (o, f) in outs.flits.iter().enumerate() {
            self.observe_flit(cycle, o, f)?;
        }
        Ok(())
    }

    fn header_fields(&self, data: &[u64; MAX_FLIT_WORDS]) -> [u64; MAX_FLIT_WORDS] {
        let h = self.cfg.header();
        let mut d = [0u64; MAX_FLIT_WORDS];
        for fl in [h.dest, h.class, h.vtick] {
            fl.insert(&mut d, fl.extract(data));
        }
        d
    }

    /// Binds an open part to message `key` (its first non-dummy flit told us
    /// which), checking the dummy header that opened it.
    /// The first port of the group of the header (real or dummy) `f` seen on
    /// output (o, u), after checking that `o` belongs to the group.
    fn first_port(&self, cycle: u64, o: usize, u: usize, f: &LinkFlit) -> Result<usize, ScoreboardError> {
        let dest = self.cfg.header().dest.extract(&f.data);
        if !crate::scoreboard::leaves_on(&self.cfg, dest, o) {
            let w = self.cfg.flit_width();
            let (r, g) = (self.cfg.route(dest), self.cfg.route_links(dest));
            let detail = if g == 1 {
                format!("destination {dest} routes to output port {r}")
            } else {
                format!("destination {dest} routes to output ports {r}..={}", r + g - 1)
            };
            return Err(self.err(cycle, Side::Output, o, u, ErrorKind::WrongPort, String::new(), fmt_flit(f, w), detail));
        }
        Ok(self.cfg.route(dest))
    }

    fn bind(&mut self, cycle: u64, o: usize, u: usize, key: (usize, u64)) -> Result<(), ScoreboardError> {
        let w = self.cfg.flit_width();
        let part = self.open[o * self.cfg.vcs() + u].as_mut().unwrap();
        part.id = Some(key.1);
        let dh = part.dummy_header;
        let m = &self.messages[&key];
        if let Some(dh) = dh {
            let want = LinkFlit { lane: 0, valid: true, dummy: true, vc: u as u8, head: true, tail: false, data: self.header_fields(&m.header.data) };
            if dh != want {
                return Err(self.err(
                    cycle,
                    Side::Output,
                    o,
                    u,
                    ErrorKind::Corrupted,
                    fmt_flit(&want, w),
                    fmt_flit(&dh, w),
                    format!("the dummy header of a part of message {} is not its header's destination/class/Vtick", key.1),
                ));
            }
        }
        *self.parts_per_message.entry(key).or_insert(0) += 1;
        Ok(())
    }

    fn observe_flit(&mut self, cycle: u64, o: usize, f: &LinkFlit) -> Result<(), ScoreboardError> {
        let w = self.cfg.flit_width();
        let m = self.cfg.vcs();
        if !f.valid {
            if *f != LinkFlit::IDLE {
                return Err(self.err(cycle, Side::Output, o, 0, ErrorKind::IdleNotZero, fmt_flit(&LinkFlit::IDLE, w), fmt_flit(f, w), String::new()));
            }
            return Ok(());
        }
        let u = f.vc as usize;
        if u >= m {
            return Err(self.err(cycle, Side::Output, o, u, ErrorKind::BadVc, String::new(), fmt_flit(f, w), String::new()));
        }
        let slot = o * m + u;
        let fail = |this: &Self, kind, expected: String, detail: String| this.err(cycle, Side::Output, o, u, kind, expected, fmt_flit(f, w), detail);
        if f.head {
            if self.open[slot].is_some() {
                return Err(fail(self, ErrorKind::HeadInsideMessage, String::new(), "the previous part on this output VC has not ended".into()));
            }
            if f.dummy {
                self.parts.dummy_headers_out += 1;
                if f.tail {
                    return Err(fail(self, ErrorKind::Corrupted, String::new(), "a dummy flit with both head and tail".into()));
                }
                let first = self.first_port(cycle, o, u, f)?;
                self.open[slot] = Some(Part { id: None, dummy_header: Some(*f), next: None, first });
                return Ok(());
            }
            let first = self.first_port(cycle, o, u, f)?;
            let key = (first, self.header_id(&f.data));
            let Some(msg) = self.messages.get(&key) else {
                return Err(fail(self, ErrorKind::UnknownHead, String::new(), "no message with this id was sent to this port".into()));
            };
            let want = LinkFlit { vc: u as u8, ..msg.header };
            if *f != want {
                return Err(fail(self, ErrorKind::Corrupted, fmt_flit(&want, w), format!("header of message {}", key.1)));
            }
            if msg.header_delivered {
                return Err(fail(self, ErrorKind::Duplicated, String::new(), format!("header of message {} again", key.1)));
            }
            self.messages.get_mut(&key).unwrap().header_delivered = true;
            self.count_delivery(o);
            self.open[slot] = Some(Part { id: None, dummy_header: None, next: Some(1), first });
            self.bind(cycle, o, u, key)?;
            if f.tail {
                self.open[slot] = None;
            }
            // Parts may overtake each other: the header's part can be the last to arrive.
            self.maybe_done(key);
            return Ok(());
        }
        let Some(part) = self.open[slot].clone() else {
            return Err(fail(self, ErrorKind::NotAHead, String::new(), "no part is open on this output VC".into()));
        };
        if f.dummy {
            if !f.tail || f.data != [0; MAX_FLIT_WORDS] {
                return Err(fail(self, ErrorKind::Corrupted, "a dummy tail: tail=1, data 0".into(), "dummy flit that is not a clean dummy tail".into()));
            }
            self.parts.dummy_tails_out += 1;
            self.open[slot] = None;
            return Ok(());
        }
        let (k, id) = self.body_tag(&f.data);
        let key = (part.first, id);
        if let Some(bound) = part.id {
            if bound != id {
                return Err(fail(self, ErrorKind::Corrupted, format!("a flit of message {bound}"), format!("flit of message {id} inside a part of message {bound}")));
            }
        } else {
            if !self.messages.contains_key(&key) {
                return Err(fail(self, ErrorKind::WrongPort, String::new(), format!("message {id} was not sent to this port (or is unknown)")));
            }
            self.bind(cycle, o, u, key)?;
        }
        if let Some(next) = part.next {
            if k != next {
                return Err(fail(self, ErrorKind::Reordered, format!("flit {next} of message {id}"), format!("flit {k} of message {id} inside a part")));
            }
        }
        let msg = &self.messages[&key];
        if k == 0 || k > msg.body.len() {
            return Err(fail(self, ErrorKind::Overrun, String::new(), format!("flit {k} of message {id}, of which {} were injected", msg.body.len())));
        }
        let want = LinkFlit { vc: u as u8, ..msg.body[k - 1] };
        if *f != want {
            return Err(fail(self, ErrorKind::Corrupted, fmt_flit(&want, w), format!("flit {k} of message {id}")));
        }
        if msg.delivered[k - 1] {
            return Err(fail(self, ErrorKind::Duplicated, String::new(), format!("flit {k} of message {id} again")));
        }
        let msg = self.messages.get_mut(&key).unwrap();
        msg.delivered[k - 1] = true;
        msg.delivered_count += 1;
        self.count_delivery(o);
        self.open[slot] = if f.tail { None } else { Some(Part { id: Some(id), dummy_header: None, next: Some(k + 1), first: part.first }) };
        self.maybe_done(key);
        Ok(())
    }

    fn count_delivery(&mut self, o: usize) {
        self.summary.flits_delivered += 1;
        self.summary.delivered_per_port[o] += 1;
    }

    fn maybe_done(&mut self, key: (usize, u64)) {
        let m = &self.messages[&key];
        if m.complete && m.header_delivered && m.delivered_count == m.body.len() {
            debug_assert_eq!(m.port, key.0);
            self.messages.remove(&key);
            self.summary.messages_delivered += 1;
            let parts = self.parts_per_message.remove(&key).unwrap_or(1);
            if parts > 1 {
                self.parts.split_messages += 1;
            }
            self.parts.max_parts = self.parts.max_parts.max(parts);
        }
    }

    pub fn finish(&self) -> Result<ScoreboardSummary, ScoreboardError> {
        if let Some(((port, id), m)) = self.messages.iter().next() {
            let missing = m.delivered.iter().filter(|d| !**d).count() + usize::from(!m.header_delivered);
            return Err(self.err(
                0,
                Side::Output,
                *port,
                0,
                ErrorKind::Undelivered,
                String::new(),
                String::new(),
                format!(
                    "{} messages not delivered completely; e.g. message {id} to port {port}: {missing} of {} flits missing{}",
                    self.messages.len(),
                    m.body.len() + 1,
                    if m.complete { "" } else { " (its injection never finished)" }
                ),
            ));
        }
        Ok(self.summary.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> RouterConfig {
        RouterConfig::from_toml_str(
            "name = \"t\"\n[router]\nports = 2\nvcs = 2\nflit_width = 40\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
             crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nclock_width = 10\nvtick_width = 10\nmode = \"preemptive\"\n",
            "t",
        )
        .unwrap()
    }

    // Layout for this config: dest 1 bit, class 2 bits, vtick 10 bits (HW = 13);
    // id width min(32, 40-13, 40-16) = 24.
    fn header(dest: u64, class: u64, vtick: u64, id: u64) -> LinkFlit {
        let data = dest | class << 1 | vtick << 3 | id << 13;
        LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head: true, tail: false, data: [data, 0, 0, 0] }
    }
    fn body(k: u64, id: u64, tail: bool) -> LinkFlit {
        LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head: false, tail, data: [k | id << 16, 0, 0, 0] }
    }
    fn dummy_head(dest: u64, class: u64, vtick: u64) -> LinkFlit {
        LinkFlit { lane: 0, valid: true, dummy: true, vc: 0, head: true, tail: false, data: [dest | class << 1 | vtick << 3, 0, 0, 0] }
    }
    fn dummy_tail() -> LinkFlit {
        LinkFlit { lane: 0, valid: true, dummy: true, vc: 0, head: false, tail: true, data: [0; 4] }
    }
    fn on(vc: u8, f: LinkFlit) -> LinkFlit {
        LinkFlit { vc, ..f }
    }

    /// Injects message `id` (dest 1, class 0, vtick 5, 3 body flits) on input 0 VC 0.
    fn injected(sb: &mut PartScoreboard) {
        let c = cfg();
        let mut inp = RouterInputs::idle(&c);
        for (t, f) in [header(1, 0, 5, 9), body(1, 9, false), body(2, 9, false), body(3, 9, true)].into_iter().enumerate() {
            inp.flits[0] = f;
            sb.inject_all(t as u64, &inp).unwrap();
        }
    }

    fn out(sb: &mut PartScoreboard, t: u64, f: LinkFlit) -> Result<(), ScoreboardError> {
        let mut o = RouterOutputs::idle(&cfg());
        o.flits[1] = f;
        sb.observe(t, &o)
    }

    #[test]
    fn a_message_in_two_parts_on_different_vcs_reassembles() {
        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        // Part 2 (dummy header, flits 2 and 3) leaves on VC 1 before part 1 ends on VC 0.
        let seq = [
            header(1, 0, 5, 9),
            body(1, 9, false),
            on(1, dummy_head(1, 0, 5)),
            on(1, body(2, 9, false)),
            dummy_tail(),
            on(1, body(3, 9, true)),
        ];
        for (t, f) in seq.into_iter().enumerate() {
            out(&mut sb, 10 + t as u64, f).unwrap();
        }
        let s = sb.finish().unwrap();
        assert_eq!((s.flits_injected, s.flits_delivered, s.messages_delivered), (4, 4, 1));
        assert_eq!((sb.parts().split_messages, sb.parts().max_parts, sb.parts().dummy_tails_out), (1, 2, 1));
    }

    #[test]
    fn the_header_part_may_arrive_last() {
        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        // Part 2 (flits 1..3) on VC 1 completes before part 1 (just the header) leaves VC 0.
        let seq = [on(1, dummy_head(1, 0, 5)), on(1, body(1, 9, false)), on(1, body(2, 9, false)), on(1, body(3, 9, true))];
        for (t, f) in seq.into_iter().enumerate() {
            out(&mut sb, t as u64, f).unwrap();
        }
        out(&mut sb, 5, header(1, 0, 5, 9)).unwrap();
        out(&mut sb, 6, dummy_tail()).unwrap();
        assert_eq!(sb.finish().unwrap().messages_delivered, 1);
        // The id is free again.
        injected(&mut sb);
    }

    #[test]
    fn a_dummy_header_with_the_wrong_fields_is_caught() {
        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        out(&mut sb, 10, header(1, 0, 5, 9)).unwrap();
        out(&mut sb, 11, dummy_tail()).unwrap();
        out(&mut sb, 12, dummy_head(1, 1, 5)).unwrap(); // class 1: not this message's
        let e = out(&mut sb, 13, body(1, 9, false)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Corrupted, "{e}");
    }

    #[test]
    fn gaps_duplicates_and_missing_flits_are_caught() {
        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        out(&mut sb, 10, header(1, 0, 5, 9)).unwrap();
        let e = out(&mut sb, 11, body(2, 9, false)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Reordered, "{e}");

        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        for (t, f) in [header(1, 0, 5, 9), body(1, 9, false), dummy_tail(), dummy_head(1, 0, 5)].into_iter().enumerate() {
            out(&mut sb, t as u64, f).unwrap();
        }
        let e = out(&mut sb, 5, body(1, 9, false)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Duplicated, "{e}");

        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        for (t, f) in [header(1, 0, 5, 9), body(1, 9, false), dummy_tail()].into_iter().enumerate() {
            out(&mut sb, t as u64, f).unwrap();
        }
        let e = sb.finish().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Undelivered, "{e}");
        assert!(e.detail.contains("2 of 4 flits missing"), "{e}");
    }

    #[test]
    fn wrong_port_and_dirty_dummy_tail_are_caught() {
        let mut sb = PartScoreboard::new(&cfg());
        injected(&mut sb);
        let mut o = RouterOutputs::idle(&cfg());
        o.flits[0] = header(1, 0, 5, 9); // destination 1 routes to port 1
        let e = sb.observe(0, &o).unwrap_err();
        assert_eq!(e.kind, ErrorKind::WrongPort);
        assert!(e.detail.contains("destination 1 routes to output port 1"), "{e}");
        out(&mut sb, 1, header(1, 0, 5, 9)).unwrap();
        let mut dirty = dummy_tail();
        dirty.data[0] = 1;
        assert_eq!(out(&mut sb, 2, dirty).unwrap_err().kind, ErrorKind::Corrupted);
    }
}

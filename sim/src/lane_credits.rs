//! The sender's side of per-lane credits (`router.preemption_credits =
//! "per_lane"`, docs/microarchitecture.md §9.4 *Credits*): one credit count
//! per lane of the downstream VC, the class that opened each lane, and the
//! lane of the message being sent. A router's output VC and a network
//! source's VC are such senders; the sender names the lane on every flit.

/// Most lanes of a VC: E + 1 with E = s - 1 <= 7.
pub const MAX_LANES: usize = 8;

/// The sender state of one link VC: `lcr`, `lcls`, `lw` of §9.4 *Credits*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSender {
    /// `lcr[ℓ]`: credits of downstream lane ℓ, 0..=depth.
    credits: [u16; MAX_LANES],
    /// `lcls[ℓ]`: the class that opened lane ℓ (meaningful up to `stop`).
    class: [u8; MAX_LANES],
    /// `lw`: the lane of the message being sent.
    open: u8,
    /// DD: one lane's credits when nothing is in flight.
    depth: u16,
    /// E: the highest lane.
    last: u8,
}

/// Where a flit goes: its lane, and whether sending it sets `lcls[lane]`
/// (a header into a VC with no busy lane, or one opening `stop + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanePick {
    pub lane: u8,
    pub opens: bool,
}

impl LaneSender {
    /// Reset: every lane at full credit, classes 0, `lw` 0; `lanes` = E + 1.
    pub fn new(depth: u16, lanes: usize) -> Self {
        assert!((1..=MAX_LANES).contains(&lanes), "1..={MAX_LANES} lanes");
        LaneSender { credits: [depth; MAX_LANES], class: [0; MAX_LANES], open: 0, depth, last: lanes as u8 - 1 }
    }

    /// Lane ℓ is busy while a flit sent into it has not returned its credit.
    fn busy(&self, l: usize) -> bool {
        self.credits[l] < self.depth
    }

    /// The lane of the next flit (a header of class `class`, else a body
    /// or tail flit of the open message), on the current registers.
    pub fn pick(&self, head: bool, class: u8) -> LanePick {
        if !head {
            return LanePick { lane: self.open, opens: false };
        }
        let Some(stop) = (0..=self.last as usize).rev().find(|&l| self.busy(l)) else {
            return LanePick { lane: 0, opens: true };
        };
        match (0..=stop).find(|&l| self.class[l] >= class) {
            Some(l) => LanePick { lane: l as u8, opens: false },
            None if stop < self.last as usize => LanePick { lane: stop as u8 + 1, opens: true },
            None => LanePick { lane: self.last, opens: false },
        }
    }

    /// Credits of `lane`.
    pub fn credits(&self, lane: u8) -> u16 {
        self.credits[lane as usize]
    }

    /// Credits for the next flit (see [`LaneSender::pick`]).
    pub fn credits_for(&self, head: bool, class: u8) -> u16 {
        self.credits(self.pick(head, class).lane)
    }

    /// A flit leaves into `p.lane` (it had a credit): one credit used; a
    /// header opens the message's lane and, when `p.opens`, sets its class.
    pub fn send(&mut self, p: LanePick, head: bool, class: u8) {
        let l = p.lane as usize;
        debug_assert!(self.credits[l] > 0, "a flit sent without a lane credit");
        self.credits[l] -= 1;
        if head {
            self.open = p.lane;
            if p.opens {
                self.class[l] = class;
            }
        }
    }

    /// A credit of `lane` returns (saturating at the depth, as §6's counts;
    /// a lane beyond E is a protocol violation and is ignored).
    pub fn credit(&mut self, lane: usize) {
        if lane <= self.last as usize && self.credits[lane] < self.depth {
            self.credits[lane] += 1;
        }
    }

    /// Every lane at full credit (nothing in flight or buffered downstream).
    pub fn is_idle(&self) -> bool {
        (0..=self.last as usize).all(|l| !self.busy(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §9.4 *Credits*, sender's lane, by hand: DD = 2, E = 2 (3 classes).
    #[test]
    fn lane_choice_follows_the_spec() {
        let mut s = LaneSender::new(2, 3);
        // Nothing busy: a class-0 header is fresh, lane 0, lcls[0] := 0.
        let p = s.pick(true, 0);
        assert_eq!(p, LanePick { lane: 0, opens: true });
        s.send(p, true, 0);
        s.send(s.pick(false, 0), false, 0); // its tail, lane 0: lcr[0] = 0
        assert_eq!(s.credits(0), 0);
        // Lane 0 busy with class 0; a class-2 header opens lane 1 (stop = 0).
        assert_eq!(s.pick(true, 2), LanePick { lane: 1, opens: true });
        s.send(s.pick(true, 2), true, 2);
        // A class-1 header joins lane 1 (lowest lane with lcls >= 1).
        assert_eq!(s.pick(true, 1), LanePick { lane: 1, opens: false });
        // A class-0 header joins lane 0 behind best effort.
        assert_eq!(s.pick(true, 0), LanePick { lane: 0, opens: false });
        // Lane 0's credits return: stop = 1; class 2 still joins lane 1.
        s.credit(0);
        s.credit(0);
        assert_eq!(s.pick(true, 2), LanePick { lane: 1, opens: false });
        // A credit beyond the depth or lane E is ignored.
        s.credit(0);
        s.credit(7);
        assert_eq!(s.credits(0), 2);
        // Lane 1's credit returns: nothing busy, the next header is fresh.
        s.credit(1);
        assert!(s.is_idle());
        assert_eq!(s.pick(true, 1), LanePick { lane: 0, opens: true });
    }

    /// `stop == E` with a class above every lane cannot arise (lcls rises
    /// strictly); the rule still names lane E.
    #[test]
    fn top_lane_is_the_last_resort() {
        // Contrived: lane 1 busy with lcls[1] = 0 (a real sender never opens
        // lane 1 with class 0); class 1 finds no lane with lcls >= 1.
        let mut s = LaneSender::new(1, 2);
        s.send(LanePick { lane: 1, opens: true }, true, 0);
        assert_eq!(s.pick(true, 1), LanePick { lane: 1, opens: false });
    }
}

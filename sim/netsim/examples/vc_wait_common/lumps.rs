//! R2's cycles lost to R1 on one router link, cut into lumps: a lump is
//! the cycles one R2 message loses to one R1 message (R2 has a flit in the
//! output buffer at the start of the cycle while the link sends that R1
//! message's flit; a flit that enters the buffer in a cycle cannot leave
//! in it, docs/microarchitecture.md stage 5, so its arrival cycle is not a
//! loss, where `links.csv`'s `lost_to_other` counts it). The
//! `kim2005_cube_vcq_body` row takes a link's loss as a Poisson number of
//! such lumps (`analytic/cube_body_behind.rs`); this counts them, split by
//! which message began on the link first (VirtualClock serves the two
//! cases differently: a message arriving beside one that has sent a while
//! holds the earlier stamps).

use wormqos_netsim::analytic::cube_body_behind::Lumps;

/// Lumps of one link (summed over routers): `hist[w][x]` lumps of x
/// cycles, w = 0 where the R1 message's first flit crossed the link before
/// the R2 message's (or the R2 message had sent none yet), w = 1 otherwise.
#[derive(Clone, Default)]
pub struct LinkLumps {
    pub hist: [Vec<u64>; 2],
    /// Pairs (R2 message, R1 message) in which R1 lost cycles to R2 and R2
    /// none to R1: overlaps VirtualClock gave wholly to R2.
    pub r2_untouched: u64,
}

impl LinkLumps {
    fn add(&mut self, w: usize, x: u64) {
        let h = &mut self.hist[w];
        if h.len() <= x as usize {
            h.resize(x as usize + 1, 0);
        }
        h[x as usize] += 1;
    }

    /// The lumps as the row's compound Poisson delay of one R2 message:
    /// their number per R2 message (`r2_messages` on the link) and their
    /// p.m.f. (both cases together).
    pub fn as_row_delay(&self, r2_messages: f64) -> Lumps {
        let (k, _) = self.totals(None);
        if k == 0 {
            return Lumps::none();
        }
        let len = self.hist[0].len().max(self.hist[1].len());
        let lump = (0..len).map(|x| (0..2).map(|w| self.hist[w].get(x).copied().unwrap_or(0)).sum::<u64>() as f64 / k as f64).collect();
        Lumps { count: k as f64 / r2_messages, lump }
    }

    /// Number of lumps and their cycles, of case `w` (None: both).
    pub fn totals(&self, w: Option<usize>) -> (u64, u64) {
        let ws: Vec<usize> = w.map_or(vec![0, 1], |w| vec![w]);
        ws.iter().flat_map(|&w| self.hist[w].iter().enumerate().map(|(x, &n)| (n, n * x as u64))).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }
}

/// The pair being counted: R2's and R1's message, the case (as
/// [`LinkLumps::hist`]'s w, from R2's first loss), cycles R2 lost, cycles
/// R1 lost, and whether the pair began in the counted window.
#[derive(Clone)]
struct Pair {
    r2: u64,
    r1: u64,
    w: Option<usize>,
    r2_lost: u64,
    r1_lost: u64,
    counted: bool,
}

/// One (router, output port)'s state: per class (0 = R1, 1 = R2) the
/// messages whose tail has crossed, the cycle of the front message's first
/// flit and whether it had a flit in the output buffer at the end of the
/// last cycle; the pair being counted.
#[derive(Clone, Default)]
pub struct LumpTracker {
    seq: [u64; 2],
    first: [Option<u64>; 2],
    was_ready: [bool; 2],
    cur: Option<Pair>,
}

impl LumpTracker {
    /// One cycle of the link: `sent[k]` Some(tail) if class k's flit
    /// crossed, `ready[k]` class k has a flit in the output buffer at the
    /// cycle's end; `counted` whether a pair starting now is counted.
    pub fn observe(&mut self, cycle: u64, sent: [Option<bool>; 2], ready: [bool; 2], counted: bool, out: &mut LinkLumps) {
        for k in 0..2 {
            if sent[k].is_some() && self.first[k].is_none() {
                self.first[k] = Some(cycle);
            }
        }
        // Class k lost the cycle: it had a flit at the cycle's start and
        // the link sent the other's.
        let lost = [0, 1].map(|k| self.was_ready[k] && sent[1 - k].is_some());
        self.was_ready = ready;
        if lost[0] || lost[1] {
            let same = matches!(&self.cur, Some(p) if p.r2 == self.seq[1] && p.r1 == self.seq[0]);
            if !same {
                self.flush(out);
                self.cur = Some(Pair { r2: self.seq[1], r1: self.seq[0], w: None, r2_lost: 0, r1_lost: 0, counted });
            }
            let p = self.cur.as_mut().unwrap();
            if lost[1] {
                p.w.get_or_insert(match (self.first[0], self.first[1]) {
                    (Some(a), Some(b)) if b <= a => 1,
                    _ => 0,
                });
                p.r2_lost += 1;
            }
            p.r1_lost += lost[0] as u64;
        }
        for k in 0..2 {
            if sent[k] == Some(true) {
                self.seq[k] += 1;
                self.first[k] = None;
            }
        }
    }

    /// Ends the lump being counted.
    pub fn flush(&mut self, out: &mut LinkLumps) {
        match self.cur.take() {
            Some(Pair { counted: true, w: Some(w), r2_lost, .. }) => out.add(w, r2_lost),
            Some(Pair { counted: true, w: None, .. }) => out.r2_untouched += 1,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R2's flit enters the buffer in cycle 0 while R1's message sends (not
    /// a loss: it could not leave then); R1 sends on in 1..=2 (one lump of
    /// 2, R1 first); R2 sends 3..=4; a second R1 message, starting after
    /// R2's, takes cycle 5 while R2 is ready (a lump of 1, R2 first); R2's
    /// tail at 6 ends its message, so the R1 flit at 7 begins a new lump of
    /// 1 (R2's next message has sent nothing: R1 first). 3 lumps, 4 cycles;
    /// at 8 R1 sends with R2's buffer empty since 7: no loss.
    #[test]
    fn lumps_by_hand() {
        let mut t = LumpTracker::default();
        let mut out = LinkLumps::default();
        let plan: [([Option<bool>; 2], bool); 9] = [
            ([Some(false), None], true),
            ([Some(false), None], true),
            ([Some(true), None], true),
            ([None, Some(false)], true),
            ([None, Some(false)], true),
            ([Some(false), None], true),
            ([None, Some(true)], true),
            ([Some(false), None], false),
            ([Some(false), None], false),
        ];
        for (c, (sent, ready)) in plan.into_iter().enumerate() {
            t.observe(c as u64, sent, [false, ready], true, &mut out);
        }
        t.flush(&mut out);
        assert_eq!(out.hist[0], vec![0, 1, 1]);
        assert_eq!(out.hist[1], vec![0, 1]);
        assert_eq!(out.totals(None), (3, 4));
        assert_eq!(out.r2_untouched, 0);
        // As the row's delay over 2 R2 messages: 1.5 lumps each, 1 cycle
        // w.p. ⅔, 2 w.p. ⅓.
        let d = out.as_row_delay(2.0);
        assert_eq!(d.count, 1.5);
        assert_eq!(d.lump, vec![0.0, 2.0 / 3.0, 1.0 / 3.0]);
        assert!((d.mean() - 2.0).abs() < 1e-12);
    }

    /// An R1 message waits (a flit in its buffer) while R2's sends in cycles
    /// 0..=2, then sends: one pair, R2 lost nothing (untouched); an R1
    /// message that loses 1 cycle to R2 and then takes 2 from it is one
    /// pair with an R2 lump of 2 (R2 first: its message began at 0).
    #[test]
    fn pairs_counted_once_either_way() {
        let mut t = LumpTracker::default();
        let mut out = LinkLumps::default();
        let plan: [([Option<bool>; 2], [bool; 2]); 8] = [
            ([None, Some(false)], [true, true]),
            ([None, Some(false)], [true, true]),
            ([None, Some(true)], [true, false]),
            ([Some(true), None], [false, false]),
            ([None, Some(false)], [true, true]),
            ([None, Some(false)], [true, true]),
            ([Some(false), None], [true, true]),
            ([Some(false), None], [true, true]),
        ];
        for (c, (sent, ready)) in plan.into_iter().enumerate() {
            t.observe(c as u64, sent, ready, true, &mut out);
        }
        t.flush(&mut out);
        assert_eq!(out.r2_untouched, 1);
        assert_eq!(out.hist[1], vec![0, 0, 1]);
        assert_eq!(out.totals(None), (1, 2));
    }
}

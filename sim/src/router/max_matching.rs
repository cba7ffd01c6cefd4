//! The maximum-matching switch allocator (docs/microarchitecture.md §6,
//! *Maximum matching*): a model-only bound, no RTL. Each cycle it matches
//! input ports to output ports with a maximum-size bipartite matching over
//! the requests the single pass and the iterative allocator see (an input
//! port requests every output that one of its ready VCs routes to), so that
//! what it carries bounds what any allocator of the multiplexed crossbar
//! (one flit per input port and per output port a cycle) can carry.

use super::{bits, inc_mod, Router};
use crate::ports::{PortSet, Width};

/// No owner / no match in [`maximum_matching`]'s arrays.
pub(crate) const UNMATCHED: u16 = u16::MAX;

impl<X: Width> Router<X> {
    /// Stage 4 with the maximum-matching bound over the input ports `st`:
    /// readiness, the matching, then at each matched input port point A's
    /// order picks among its ready VCs to the matched output (a VirtualClock
    /// point stamps every present slot as in the single pass). Returns the
    /// output ports touched. Allocation-free: the scratch is per-port arrays
    /// on the stack, as in the iterative allocator.
    #[inline(never)]
    pub(super) fn maximum_matching_allocation<const P: bool, const O: u8, const R: bool>(&mut self, st: X::Ports) -> X::Ports {
        let (n, m) = (self.n, self.m);
        let mut present = X::per_port_value(0u32);
        let mut requests = X::per_port_value(X::Ports::EMPTY);
        for p in st.iter() {
            present[p & X::PORT_MASK] = self.offers::<P>(p);
            let ready = self.ready_of(p, present[p & X::PORT_MASK]);
            self.inp[p & X::PORT_MASK].ready = ready;
            for v in bits(ready) {
                requests[p & X::PORT_MASK] |= X::Ports::single(self.ivc[(p * m + v) & X::VC_MASK].route as usize);
            }
        }
        // The search order rotates with the cycle, so that among the maximum
        // matchings no port is always the one left out.
        let mut owner = X::per_port_value(UNMATCHED);
        maximum_matching(&requests[..][..n], (self.cycle % n as u64) as usize, &mut owner[..][..n]);
        let mut matched = X::per_port_value(UNMATCHED);
        for (o, &p) in owner[..][..n].iter().enumerate() {
            if p != UNMATCHED {
                matched[p as usize & X::PORT_MASK] = o as u16;
            }
        }
        let (mut won, mut touched) = (X::Ports::EMPTY, X::Ports::EMPTY);
        for p in st.iter() {
            let ready = self.inp[p & X::PORT_MASK].ready;
            let o = matched[p & X::PORT_MASK];
            let to_matched = bits(ready).fold(0u32, |e, v| {
                e | ((self.ivc[(p * m + v) & X::VC_MASK].route as u16 == o) as u32) << v
            });
            let Some((v, src)) = self.point_a_pick::<P, O>(p, present[p & X::PORT_MASK], to_matched) else { continue };
            let d = self.ivc[(p * m + v) & X::VC_MASK];
            let (o, u) = (d.route as usize, d.ovc as usize);
            self.inp[p & X::PORT_MASK].cand = v as u8;
            self.inp[p & X::PORT_MASK].cand_src = src;
            self.outp[o & X::PORT_MASK].xb_ptr = inc_mod(p, n) as u8;
            won |= X::Ports::single(p);
            touched |= X::Ports::single(o);
            self.point_a_granted_at::<P, O>(p, v, 0);
            self.match_takes_effect::<P, O, R>(p, v, o, u);
        }
        self.point_a_unmatched::<O>(st, won);
        touched
    }
}

/// A maximum-size matching of input ports to output ports by augmenting
/// paths (Kuhn): `requests[p]` is the set of outputs input p requests;
/// each input in turn, from `start` on, searches an alternating path to a
/// free output. Fills `owner[o]` with the input matched to output o, or
/// [`UNMATCHED`] (`owner.len()` outputs; it must come in all [`UNMATCHED`]).
pub(crate) fn maximum_matching<S: PortSet>(requests: &[S], start: usize, owner: &mut [u16]) {
    let n = requests.len();
    for k in 0..n {
        let mut visited = S::EMPTY;
        augment((start + k) % n, requests, owner, &mut visited, start);
    }
}

/// One augmenting-path search from input p: an output that is free, or
/// whose owner can move to another output, becomes p's. The outputs are
/// tried in the order `start`, `start + 1`, ... (wrapping), skipping those
/// this search has visited.
fn augment<S: PortSet>(p: usize, requests: &[S], owner: &mut [u16], visited: &mut S, start: usize) -> bool {
    while let Some(o) = (requests[p] & !*visited).round_robin_pick(start) {
        *visited |= S::single(o);
        let free = owner[o] == UNMATCHED || augment(owner[o] as usize, requests, owner, visited, start);
        if free {
            owner[o] = p as u16;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{maximum_matching, UNMATCHED};
    use crate::ports::{PortSet, WidePorts};

    /// The matching of `req` (outputs per input, as many outputs as inputs)
    /// from `start`, as each input's output.
    fn matching(req: &[Vec<usize>], start: usize) -> Vec<Option<usize>> {
        let sets: Vec<u32> = req.iter().map(|r| r.iter().fold(0, |s, &o| s | 1 << o)).collect();
        let mut owner = vec![UNMATCHED; req.len()];
        maximum_matching(&sets, start, &mut owner);
        invert(&owner)
    }

    fn invert(owner: &[u16]) -> Vec<Option<usize>> {
        let mut matched = vec![None; owner.len()];
        for (o, &p) in owner.iter().enumerate() {
            if p != UNMATCHED {
                assert_eq!(matched[p as usize], None, "input {p} matched twice");
                matched[p as usize] = Some(o);
            }
        }
        matched
    }

    fn size(m: &[Option<usize>]) -> usize {
        m.iter().flatten().count()
    }

    /// By hand: input 0 requests outputs {0, 1}, input 1 {0}, input 2
    /// {1, 2}. Taking each input's lowest free output in order (a greedy,
    /// maximal matching) gives 0->0, 1 blocked, 2->1: size 2. The maximum
    /// is 3 and unique: 1 must take 0, so 0 takes 1, so 2 takes 2.
    #[test]
    fn three_by_three_maximum_beats_greedy() {
        let req = vec![vec![0, 1], vec![0], vec![1, 2]];
        for start in 0..3 {
            assert_eq!(matching(&req, start), vec![Some(1), Some(0), Some(2)], "start {start}");
        }
    }

    /// By hand: every input requests only output 1: one match; no output is
    /// given twice; an input with no request stays unmatched.
    #[test]
    fn one_output_one_match() {
        let req = vec![vec![1], vec![1], vec![], vec![1]];
        for start in 0..4 {
            let m = matching(&req, start);
            assert_eq!(size(&m), 1, "start {start}");
            assert_eq!(m[2], None);
        }
    }

    /// By hand: a 4-cycle of requests (i requests i and i+1 mod 4) has a
    /// perfect matching; a chain 0:{0}, 1:{0,1}, 2:{1,2}, 3:{2,3} needs a
    /// path through every input when 0 comes last in the search order.
    #[test]
    fn perfect_matchings_are_found() {
        let cyc: Vec<Vec<usize>> = (0..4).map(|i| vec![i, (i + 1) % 4]).collect();
        let chain = vec![vec![0], vec![0, 1], vec![1, 2], vec![2, 3]];
        for start in 0..4 {
            assert_eq!(size(&matching(&cyc, start)), 4, "cycle, start {start}");
            assert_eq!(matching(&chain, start), vec![Some(0), Some(1), Some(2), Some(3)], "chain, start {start}");
        }
    }

    /// By hand, on a wide router's port sets (129 ports, words of 64 bits):
    /// every input i requests output i only, except two copies of the 3x3
    /// case above across word edges, at b = 62 and b = 126: input b
    /// requests {b, b+1}, input b+1 {b}, input b+2 {b+1, b+2}. As above the
    /// maximum (129) is unique: b+1 -> b, b -> b+1, b+2 -> b+2, the rest
    /// i -> i. From start 0 input b searches before b+1 and takes b, so b+1
    /// needs the augmenting step; a set cut at a word edge loses a match.
    #[test]
    fn wide_sets_across_word_edges() {
        let n = 129;
        let mut req: Vec<WidePorts> = (0..n).map(WidePorts::single).collect();
        let mut want: Vec<u16> = (0..n as u16).collect();
        for b in [62, 126] {
            req[b] = WidePorts::single(b) | WidePorts::single(b + 1);
            req[b + 1] = WidePorts::single(b);
            req[b + 2] = WidePorts::single(b + 1) | WidePorts::single(b + 2);
            (want[b], want[b + 1]) = (b as u16 + 1, b as u16);
        }
        for start in [0, 1, 63, 64, 127, 128] {
            let mut owner = vec![UNMATCHED; n];
            maximum_matching(&req, start, &mut owner);
            assert_eq!(owner, want, "start {start}");
        }
    }
}

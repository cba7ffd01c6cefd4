//! The maximum-matching switch allocator (docs/microarchitecture.md §6,
//! *Maximum matching*): a model-only bound, no RTL. Each cycle it matches
//! input ports to output ports with a maximum-size bipartite matching over
//! the requests the single pass and the iterative allocator see (an input
//! port requests every output that one of its ready VCs routes to), so that
//! what it carries bounds what any allocator of the multiplexed crossbar
//! (one flit per input port and per output port a cycle) can carry.

use super::{bits, inc_mod, Router};
use crate::ports::{PortSet, Width};

impl<X: Width> Router<X> {
    /// Stage 4 with the maximum-matching bound over the input ports `st`:
    /// readiness, the matching, then at each matched input port point A's
    /// order picks among its ready VCs to the matched output (a VirtualClock
    /// point stamps every present slot as in the single pass). Returns the
    /// output ports touched.
    #[inline(never)]
    pub(super) fn maximum_matching_allocation<const P: bool, const O: u8, const R: bool>(&mut self, st: X::Ports) -> X::Ports {
        let (n, m) = (self.n, self.m);
        let mut present = X::per_port_value(0u32);
        let mut requests: Vec<Vec<usize>> = vec![Vec::new(); n];
        for p in st.iter() {
            present[p & X::PORT_MASK] = self.offers::<P>(p);
            let ready = self.ready_of(p, present[p & X::PORT_MASK]);
            self.inp[p & X::PORT_MASK].ready = ready;
            for v in bits(ready) {
                let o = self.ivc[(p * m + v) & X::VC_MASK].route as usize;
                if !requests[p].contains(&o) {
                    requests[p].push(o);
                }
            }
        }
        // The search order rotates with the cycle, so that among the maximum
        // matchings no port is always the one left out.
        let matched = maximum_matching(&requests, n, (self.cycle % n as u64) as usize);
        let (mut won, mut touched) = (X::Ports::EMPTY, X::Ports::EMPTY);
        for p in st.iter() {
            let ready = self.inp[p & X::PORT_MASK].ready;
            let to_matched = match matched[p] {
                Some(o) => bits(ready).fold(0u32, |e, v| {
                    e | ((self.ivc[(p * m + v) & X::VC_MASK].route as usize == o) as u32) << v
                }),
                None => 0,
            };
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

/// A maximum-size matching of input ports to output ports (`requests[p]`:
/// the outputs input p requests; `n` ports on each side) by augmenting
/// paths (Kuhn): each input in turn, from `start` on, searches an
/// alternating path to a free output. Returns each input's output.
pub(crate) fn maximum_matching(requests: &[Vec<usize>], n: usize, start: usize) -> Vec<Option<usize>> {
    let mut owner: Vec<Option<usize>> = vec![None; n];
    for k in 0..requests.len() {
        let p = (start + k) % requests.len();
        let mut visited = vec![false; n];
        augment(p, requests, &mut owner, &mut visited, start);
    }
    let mut matched = vec![None; requests.len()];
    for (o, p) in owner.iter().enumerate() {
        if let Some(p) = *p {
            matched[p] = Some(o);
        }
    }
    matched
}

/// One augmenting-path search from input p: an output that is free, or
/// whose owner can move to another output, becomes p's.
fn augment(p: usize, requests: &[Vec<usize>], owner: &mut [Option<usize>], visited: &mut [bool], start: usize) -> bool {
    let n = owner.len();
    let mut outs = requests[p].clone();
    outs.sort_by_key(|&o| (o + n - start % n) % n);
    for o in outs {
        if visited[o] {
            continue;
        }
        visited[o] = true;
        let free = match owner[o] {
            None => true,
            Some(q) => augment(q, requests, owner, visited, start),
        };
        if free {
            owner[o] = Some(p);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::maximum_matching;

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
            let m = maximum_matching(&req, 3, start);
            assert_eq!(m, vec![Some(1), Some(0), Some(2)], "start {start}");
        }
    }

    /// By hand: every input requests only output 1: one match; no output is
    /// given twice; an input with no request stays unmatched.
    #[test]
    fn one_output_one_match() {
        let req = vec![vec![1], vec![1], vec![], vec![1]];
        for start in 0..4 {
            let m = maximum_matching(&req, 4, start);
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
            assert_eq!(size(&maximum_matching(&cyc, 4, start)), 4, "cycle, start {start}");
            assert_eq!(maximum_matching(&chain, 4, start), vec![Some(0), Some(1), Some(2), Some(3)], "chain, start {start}");
        }
    }
}

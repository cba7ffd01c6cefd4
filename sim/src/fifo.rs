//! Fixed-capacity flit ring buffers, many rings in one flat allocation: the
//! input lanes and the output VC buffers of a router.

use crate::link::MAX_FLIT_WORDS;

/// The most rings of one set: 32 ports x 16 VCs x 8 lanes (§9.4).
const MAX_RINGS: usize = 4096;

/// A flit as stored in a router buffer (the link's `vc` is implied by the buffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flit {
    pub data: [u64; MAX_FLIT_WORDS],
    pub head: bool,
    pub tail: bool,
    /// A dummy header or tail (§9.4; preemptive mode only).
    pub dummy: bool,
    /// The Vtick written next to the flit by stage 4 (§8.2; 0 in input buffers).
    pub vtick: u32,
}

/// Read position and fill level of one ring, side by side: a router's
/// cycle touches many rings, and one cache line then serves both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ring {
    head: u16,
    count: u16,
}

/// `rings` FIFOs of `cap` flits each. Storage is allocated once in [`FlitRings::new`];
/// `push`/`pop` never allocate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlitRings {
    slots: Vec<Flit>,
    // A fixed array of the largest legal ring count, indexed
    // `r & (MAX_RINGS - 1)`: a no-op for legal indices that lets the compiler drop bounds checks.
    rings: Box<[Ring; MAX_RINGS]>,
    cap: u16,
}

impl FlitRings {
    pub fn new(rings: usize, cap: usize) -> Self {
        assert!(cap > 0 && cap <= u16::MAX as usize && rings <= MAX_RINGS);
        FlitRings {
            slots: vec![Flit::default(); rings * cap],
            rings: Box::new([Ring::default(); MAX_RINGS]),
            cap: cap as u16,
        }
    }

    /// Empties every ring and zeroes the storage (so a reset router equals a new one).
    pub fn clear(&mut self) {
        self.slots.fill(Flit::default());
        self.rings.fill(Ring::default());
    }

    #[inline]
    pub fn count(&self, r: usize) -> u16 {
        self.rings[r & (MAX_RINGS - 1)].count
    }

    #[inline]
    pub fn capacity(&self) -> u16 {
        self.cap
    }

    /// The oldest flit of ring `r`. The ring must not be empty.
    #[inline]
    pub fn front(&self, r: usize) -> &Flit {
        let ring = self.rings[r & (MAX_RINGS - 1)];
        debug_assert!(ring.count > 0);
        &self.slots[r * self.cap as usize + ring.head as usize]
    }

    /// The k-th oldest flit of ring `r` (k < count).
    pub fn get(&self, r: usize, k: usize) -> &Flit {
        let ring = self.rings[r & (MAX_RINGS - 1)];
        debug_assert!(k < ring.count as usize);
        let mut idx = ring.head as usize + k;
        if idx >= self.cap as usize {
            idx -= self.cap as usize;
        }
        &self.slots[r * self.cap as usize + idx]
    }

    /// Appends a flit; the ring must not be full.
    #[inline]
    pub fn push(&mut self, r: usize, f: Flit) {
        let cap = self.cap as usize;
        let ring = &mut self.rings[r & (MAX_RINGS - 1)];
        let c = ring.count as usize;
        debug_assert!(c < cap, "push into a full ring");
        let mut idx = ring.head as usize + c;
        if idx >= cap {
            idx -= cap;
        }
        ring.count = (c + 1) as u16;
        self.slots[r * cap + idx] = f;
    }

    /// Removes and returns the oldest flit; the ring must not be empty.
    #[inline]
    pub fn pop(&mut self, r: usize) -> Flit {
        let cap = self.cap as usize;
        let ring = &mut self.rings[r & (MAX_RINGS - 1)];
        debug_assert!(ring.count > 0, "pop from an empty ring");
        let h = ring.head as usize;
        let nh = h + 1;
        ring.head = if nh == cap { 0 } else { nh as u16 };
        ring.count -= 1;
        self.slots[r * cap + h]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: u64) -> Flit {
        Flit { data: [x, 0, 0, 0], vtick: 0, ..Flit::default() }
    }

    #[test]
    fn wraps_around_and_keeps_rings_apart() {
        let mut r = FlitRings::new(2, 3);
        for round in 0..5u64 {
            r.push(0, f(round * 10));
            r.push(0, f(round * 10 + 1));
            r.push(1, f(100 + round));
            assert_eq!(r.count(0), 2);
            assert_eq!(r.front(0).data[0], round * 10);
            assert_eq!(r.get(0, 1).data[0], round * 10 + 1);
            assert_eq!(r.pop(0).data[0], round * 10);
            assert_eq!(r.pop(0).data[0], round * 10 + 1);
            assert_eq!(r.pop(1).data[0], 100 + round);
        }
        r.push(1, f(7));
        r.push(1, f(8));
        r.push(1, f(9));
        assert_eq!(r.count(1), 3);
        r.clear();
        assert_eq!(r, FlitRings::new(2, 3));
    }
}

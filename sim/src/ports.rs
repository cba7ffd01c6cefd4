//! Sets of ports and per-port storage of a router, in two widths chosen
//! once per router at construction: [`Narrow`] (at most 32 ports, a `u32`
//! per set, the width of every configuration the RTL generator accepts)
//! and [`Wide`] (at most 256 ports, four `u64` words per set) for
//! simulation-only routers such as the 129-port nodes of 004_… Fig. 6(a).
//! The router and the network simulator are generic over [`Width`], so each
//! width is compiled on its own and the narrow cycle keeps its `u32`
//! instructions (measured: docs/benchmarks.md, "Port sets of any width").

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Index, IndexMut, Not, RangeFull};

/// A set of ports of one router, bit p for port p (like a `wire [N-1:0]`).
pub trait PortSet:
    Copy
    + Default
    + Eq
    + Hash
    + Debug
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + Not<Output = Self>
    + BitOrAssign
    + BitAndAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Every port the type can hold.
    const FULL: Self;
    /// Ports 0..n.
    fn first(n: usize) -> Self;
    /// The set {p}.
    fn single(p: usize) -> Self;
    /// {p} if `on`, else empty.
    fn single_if(p: usize, on: bool) -> Self;
    fn contains(self, p: usize) -> bool;
    /// Sets bit p to `on`.
    fn set_to(&mut self, p: usize, on: bool);
    fn is_empty(self) -> bool;
    /// Lowest-first iteration over the members.
    fn iter(self) -> impl Iterator<Item = usize>;
    /// The round-robin pick among the members: the first at or after
    /// `ptr`, wrapping (`crate::arbiter`).
    fn round_robin_pick(self, ptr: usize) -> Option<usize>;
}

impl PortSet for u32 {
    const EMPTY: u32 = 0;
    const FULL: u32 = u32::MAX;
    #[inline(always)]
    fn first(n: usize) -> u32 {
        ((1u64 << n) - 1) as u32
    }
    #[inline(always)]
    fn single(p: usize) -> u32 {
        1 << p
    }
    #[inline(always)]
    fn single_if(p: usize, on: bool) -> u32 {
        (on as u32) << p
    }
    #[inline(always)]
    fn contains(self, p: usize) -> bool {
        self >> p & 1 == 1
    }
    #[inline(always)]
    fn set_to(&mut self, p: usize, on: bool) {
        *self = *self & !(1 << p) | (on as u32) << p;
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn iter(self) -> impl Iterator<Item = usize> {
        let mut mask = self;
        std::iter::from_fn(move || {
            if mask == 0 {
                None
            } else {
                let b = (mask.trailing_zeros() & 31) as usize;
                mask &= mask - 1;
                Some(b)
            }
        })
    }
    #[inline(always)]
    fn round_robin_pick(self, ptr: usize) -> Option<usize> {
        crate::arbiter::rr_pick(self as u64, ptr as u32).map(|p| p as usize)
    }
}

/// Words of a [`WidePorts`] set.
const WIDE_WORDS: usize = 4;

/// A set of up to 256 ports: word k holds ports 64k..64k+63.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct WidePorts([u64; WIDE_WORDS]);

impl BitOr for WidePorts {
    type Output = WidePorts;
    #[inline]
    fn bitor(self, o: WidePorts) -> WidePorts {
        WidePorts(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
}
impl BitAnd for WidePorts {
    type Output = WidePorts;
    #[inline]
    fn bitand(self, o: WidePorts) -> WidePorts {
        WidePorts(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
}
impl Not for WidePorts {
    type Output = WidePorts;
    #[inline]
    fn not(self) -> WidePorts {
        WidePorts(self.0.map(|w| !w))
    }
}
impl BitOrAssign for WidePorts {
    #[inline]
    fn bitor_assign(&mut self, o: WidePorts) {
        *self = *self | o;
    }
}
impl BitAndAssign for WidePorts {
    #[inline]
    fn bitand_assign(&mut self, o: WidePorts) {
        *self = *self & o;
    }
}

impl PortSet for WidePorts {
    const EMPTY: WidePorts = WidePorts([0; WIDE_WORDS]);
    const FULL: WidePorts = WidePorts([u64::MAX; WIDE_WORDS]);
    fn first(n: usize) -> WidePorts {
        assert!(n <= 64 * WIDE_WORDS);
        WidePorts(std::array::from_fn(|k| match n.saturating_sub(64 * k) {
            0 => 0,
            b if b >= 64 => u64::MAX,
            b => (1u64 << b) - 1,
        }))
    }
    #[inline]
    fn single(p: usize) -> WidePorts {
        let mut s = WidePorts::EMPTY;
        s.0[(p >> 6) & (WIDE_WORDS - 1)] = 1 << (p & 63);
        s
    }
    #[inline]
    fn single_if(p: usize, on: bool) -> WidePorts {
        let mut s = WidePorts::EMPTY;
        s.0[(p >> 6) & (WIDE_WORDS - 1)] = (on as u64) << (p & 63);
        s
    }
    #[inline]
    fn contains(self, p: usize) -> bool {
        self.0[(p >> 6) & (WIDE_WORDS - 1)] >> (p & 63) & 1 == 1
    }
    #[inline]
    fn set_to(&mut self, p: usize, on: bool) {
        let w = &mut self.0[(p >> 6) & (WIDE_WORDS - 1)];
        *w = *w & !(1 << (p & 63)) | (on as u64) << (p & 63);
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn iter(self) -> impl Iterator<Item = usize> {
        (0..WIDE_WORDS).flat_map(move |k| {
            let mut mask = self.0[k];
            std::iter::from_fn(move || {
                if mask == 0 {
                    None
                } else {
                    let b = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    Some(64 * k + b)
                }
            })
        })
    }
    #[inline]
    fn round_robin_pick(self, ptr: usize) -> Option<usize> {
        crate::arbiter::rr_pick_wide(&self.0, ptr)
    }
}

/// What a router keeps per port or per VC (registers: plain values).
pub trait Item: Copy + Debug + Eq + Send + Sync {}
impl<T: Copy + Debug + Eq + Send + Sync> Item for T {}

/// A fixed array of items, indexed by one entry or as a whole.
pub trait FixedArray<T>:
    Index<usize, Output = T> + IndexMut<usize> + Index<RangeFull, Output = [T]> + IndexMut<RangeFull> + Clone + Debug + Eq + Send + Sync
{
}
impl<T, A> FixedArray<T> for A where
    A: Index<usize, Output = T> + IndexMut<usize> + Index<RangeFull, Output = [T]> + IndexMut<RangeFull> + Clone + Debug + Eq + Send + Sync
{
}

/// Storage bounds in which the items of a router fit: the [`PortSet`]
/// type and fixed arrays for per-port and per-VC state (indexed `p & PORT_MASK`,
/// `i & VC_MASK`: no-ops for legal indices that let the compiler drop
/// bounds checks from the hot loops).
pub trait Width: 'static + Copy + Debug + Eq + Hash + Send + Sync {
    type Ports: PortSet + Send + Sync;
    /// One `T` per port, `PORTS` of them.
    type PerPort<T: Item>: FixedArray<T>;
    /// One `T` per VC of the router (`PORTS * 16` of them: M <= 16).
    type PerVc<T: Item>: FixedArray<T>;
    /// One bit per VC of the router, in 64-bit words (a VA request mask).
    type VcWords: Index<usize, Output = u64> + IndexMut<usize> + Index<RangeFull, Output = [u64]> + Copy;
    /// The most ports of a router of this width.
    const PORTS: usize;
    const PORT_MASK: usize = Self::PORTS - 1;
    const VC_MASK: usize = 16 * Self::PORTS - 1;
    fn per_port<T: Item>(v: T) -> Box<Self::PerPort<T>>;
    fn per_vc<T: Item>(v: T) -> Box<Self::PerVc<T>>;
    /// A per-port array by value (scratch of one cycle).
    fn per_port_value<T: Item>(v: T) -> Self::PerPort<T>;
    /// An empty [`Width::VcWords`].
    fn vc_words() -> Self::VcWords;
}

/// Routers of at most 32 ports: every configuration the RTL generator accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Narrow;

/// Routers of at most 256 ports (simulation only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide;

/// A boxed array of `N` copies of `v`, built on the heap.
fn boxed_array<T: Copy, const N: usize>(v: T) -> Box<[T; N]> {
    vec![v; N].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("length N"))
}

impl Width for Narrow {
    type Ports = u32;
    type PerPort<T: Item> = [T; 32];
    type PerVc<T: Item> = [T; 512];
    type VcWords = [u64; 512 / 64];
    const PORTS: usize = 32;
    fn per_port<T: Item>(v: T) -> Box<[T; 32]> {
        boxed_array(v)
    }
    fn per_vc<T: Item>(v: T) -> Box<[T; 512]> {
        boxed_array(v)
    }
    #[inline(always)]
    fn per_port_value<T: Item>(v: T) -> [T; 32] {
        [v; 32]
    }
    #[inline(always)]
    fn vc_words() -> [u64; 8] {
        [0; 8]
    }
}

impl Width for Wide {
    type Ports = WidePorts;
    type PerPort<T: Item> = [T; 256];
    type PerVc<T: Item> = [T; 4096];
    type VcWords = [u64; 4096 / 64];
    const PORTS: usize = 64 * WIDE_WORDS;
    fn per_port<T: Item>(v: T) -> Box<[T; 256]> {
        boxed_array(v)
    }
    fn per_vc<T: Item>(v: T) -> Box<[T; 4096]> {
        boxed_array(v)
    }
    fn per_port_value<T: Item>(v: T) -> [T; 256] {
        [v; 256]
    }
    fn vc_words() -> [u64; 64] {
        [0; 64]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ports 31, 32, 63, 64 and 128 sit at word edges: a set truncated to a
    /// `u32` or to one `u64` loses them.
    #[test]
    fn wide_sets_hold_ports_above_31() {
        let mut s = WidePorts::EMPTY;
        for p in [0, 31, 32, 63, 64, 128] {
            s |= WidePorts::single(p);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 31, 32, 63, 64, 128]);
        assert!(s.contains(128) && !s.contains(127));
        s.set_to(64, false);
        s.set_to(129, true);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 31, 32, 63, 128, 129]);
        // 129 ports: two full words and bit 0 of the third.
        assert_eq!(WidePorts::first(129).iter().count(), 129);
        assert!(WidePorts::first(129).contains(128) && !WidePorts::first(129).contains(129));
        assert!((WidePorts::first(129) & !WidePorts::first(129)).is_empty());
    }
}

//! Arbiters of docs/microarchitecture.md §5, on request bit masks.

/// Round-robin grant: the first set bit of `mask` in the order
/// `ptr, ptr+1, …, 63, 0, …, ptr-1`. `ptr < 64`; bits at or above the arbiter's
/// size K must be clear, so the order is the spec's `ptr … K-1, 0 … ptr-1`.
#[inline]
pub fn rr_pick(mask: u64, ptr: u32) -> Option<u32> {
    if mask == 0 {
        return None;
    }
    debug_assert!(ptr < 64);
    let hi = mask & (u64::MAX << ptr);
    Some(if hi != 0 { hi.trailing_zeros() } else { mask.trailing_zeros() })
}

/// Round-robin grant over a multi-word bit set (bit k of the set is bit k%64 of word k/64).
#[inline]
pub fn rr_pick_wide(words: &[u64], ptr: usize) -> Option<usize> {
    let pw = ptr / 64;
    let first = words[pw] & (u64::MAX << (ptr % 64));
    if first != 0 {
        return Some(pw * 64 + first.trailing_zeros() as usize);
    }
    for (w, &x) in words.iter().enumerate().skip(pw + 1).chain(words.iter().enumerate().take(pw + 1)) {
        if x != 0 {
            return Some(w * 64 + x.trailing_zeros() as usize);
        }
    }
    None
}

/// FIFO (age) grant: among the set bits k of `mask`, the one with the smallest
/// key `(stamps[k], k)`. A stamp is 1 + the cycle in which the slot last
/// entered, 0 at reset (the spec's key `(-1, k)`).
#[inline]
pub fn age_pick(mask: u64, stamps: &[u64]) -> Option<u32> {
    if mask == 0 {
        return None;
    }
    let mut m = mask;
    let mut best = m.trailing_zeros();
    let mut best_stamp = stamps[best as usize];
    m &= m - 1;
    while m != 0 {
        let k = m.trailing_zeros();
        m &= m - 1;
        let s = stamps[k as usize];
        // Ascending k, so a strict comparison keeps the lower index on ties.
        if s < best_stamp {
            best = k;
            best_stamp = s;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rr_order_starts_at_ptr_and_wraps() {
        assert_eq!(rr_pick(0, 3), None);
        assert_eq!(rr_pick(0b1001, 0), Some(0));
        assert_eq!(rr_pick(0b1001, 1), Some(3));
        assert_eq!(rr_pick(0b1001, 3), Some(3));
        assert_eq!(rr_pick(0b0001, 3), Some(0));
        assert_eq!(rr_pick(1 << 63, 63), Some(63));
    }

    #[test]
    fn rr_wide_matches_the_spec_order() {
        let mut w = [0u64; 3];
        w[0] = 1 << 5;
        w[2] = 1 << 1; // bit 129
        assert_eq!(rr_pick_wide(&w, 0), Some(5));
        assert_eq!(rr_pick_wide(&w, 6), Some(129));
        assert_eq!(rr_pick_wide(&w, 129), Some(129));
        assert_eq!(rr_pick_wide(&w, 130), Some(5));
        w[0] |= 1 << 60;
        assert_eq!(rr_pick_wide(&w, 130), Some(5));
        assert_eq!(rr_pick_wide(&w, 30), Some(60));
        assert_eq!(rr_pick_wide(&[0, 0], 70), None);
        // Only bits below ptr in ptr's own word.
        assert_eq!(rr_pick_wide(&[0, 1 << 2], 70), Some(66));
    }

    #[test]
    fn age_prefers_smallest_stamp_then_lowest_index() {
        let s = [3, 1, 1, 0];
        assert_eq!(age_pick(0b1111, &s), Some(3));
        assert_eq!(age_pick(0b0111, &s), Some(1));
        assert_eq!(age_pick(0b0101, &s), Some(2));
        assert_eq!(age_pick(0, &s), None);
        assert_eq!(age_pick(0b0011, &[0, 0]), Some(0));
    }
}

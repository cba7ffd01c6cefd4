//! Bit slicing on flat buses stored as little-endian 32-bit words
//! (word 0 = bits 31:0), the layout of Verilator's `VlWide` and of the shim.

/// Number of 32-bit words that hold `bits` bits (at least 1).
pub fn words_for(bits: usize) -> usize {
    bits.div_ceil(32).max(1)
}

#[inline]
fn mask64(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Reads `width` (<= 64) bits starting at bit `lsb`.
#[inline]
pub fn get_u64(words: &[u32], lsb: usize, width: usize) -> u64 {
    debug_assert!(width <= 64);
    if width == 0 {
        return 0;
    }
    let w = lsb / 32;
    let off = lsb % 32;
    let end_word = (lsb + width - 1) / 32;
    // At most three 32-bit words hold a 64-bit field.
    let mut acc: u128 = words[w] as u128;
    if end_word > w {
        acc |= (words[w + 1] as u128) << 32;
    }
    if end_word > w + 1 {
        acc |= (words[w + 2] as u128) << 64;
    }
    ((acc >> off) as u64) & mask64(width)
}

/// Writes the low `width` (<= 64) bits of `value` at bit `lsb`; other bits are kept.
#[inline]
pub fn set_u64(words: &mut [u32], lsb: usize, width: usize, value: u64) {
    debug_assert!(width <= 64);
    if width == 0 {
        return;
    }
    let m = mask64(width);
    let value = value & m;
    let w = lsb / 32;
    let off = lsb % 32;
    let end_word = (lsb + width - 1) / 32;
    let mask = (m as u128) << off;
    let val = (value as u128) << off;
    for (i, word) in words[w..=end_word].iter_mut().enumerate() {
        let sh = 32 * i;
        let mk = (mask >> sh) as u32;
        let vl = (val >> sh) as u32;
        *word = (*word & !mk) | (vl & mk);
    }
}

/// Reads a `width`-bit field at `lsb` into little-endian 64-bit words `out`
/// (`out` must hold `width.div_ceil(64)` words; further words are zeroed).
#[inline]
pub fn get_wide(words: &[u32], lsb: usize, width: usize, out: &mut [u64]) {
    let mut done = 0;
    for o in out.iter_mut() {
        if done < width {
            let w = (width - done).min(64);
            *o = get_u64(words, lsb + done, w);
            done += w;
        } else {
            *o = 0;
        }
    }
}

/// Writes a `width`-bit field at `lsb` from little-endian 64-bit words `value`
/// (bits of `value` at or above `width` are ignored).
#[inline]
pub fn set_wide(words: &mut [u32], lsb: usize, width: usize, value: &[u64]) {
    let mut done = 0;
    let mut i = 0;
    while done < width {
        let w = (width - done).min(64);
        set_u64(words, lsb + done, w, value[i]);
        done += w;
        i += 1;
    }
}

/// Writes consecutive fields into a bus from bit 0 upwards (the layout of
/// `[p*F +: F]` slices written for p = 0, 1, ...). Cheaper than [`set_u64`]
/// per field: no read-modify-write. Call [`BitWriter::finish`] at the end.
pub struct BitWriter<'a> {
    words: &'a mut [u32],
    idx: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitWriter<'a> {
    pub fn new(words: &'a mut [u32]) -> Self {
        BitWriter { words, idx: 0, acc: 0, n: 0 }
    }

    /// Appends the low `width` (<= 32) bits of `value`.
    #[inline(always)]
    pub fn push(&mut self, value: u64, width: u32) {
        debug_assert!(width <= 32);
        let v = value & ((1u64 << width) - 1);
        self.acc |= v << self.n;
        self.n += width;
        if self.n >= 32 {
            self.words[self.idx] = self.acc as u32;
            self.idx += 1;
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// Appends a `width`-bit field held in little-endian 64-bit words.
    #[inline(always)]
    pub fn push_wide(&mut self, value: &[u64], width: u32) {
        let mut done = 0;
        while done < width {
            let w = (width - done).min(32);
            let word = value[(done / 64) as usize] >> (done % 64);
            self.push(word, w);
            done += w;
        }
    }

    /// Writes the last partial word and zeroes the rest of the bus.
    #[inline(always)]
    pub fn finish(mut self) {
        if self.n > 0 {
            self.words[self.idx] = self.acc as u32;
            self.idx += 1;
        }
        self.words[self.idx..].fill(0);
    }
}

/// Reads consecutive fields of a bus from bit 0 upwards.
pub struct BitReader<'a> {
    words: &'a [u32],
    idx: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitReader<'a> {
    pub fn new(words: &'a [u32]) -> Self {
        BitReader { words, idx: 0, acc: 0, n: 0 }
    }

    /// Takes the next `width` (<= 32) bits.
    #[inline(always)]
    pub fn pull(&mut self, width: u32) -> u64 {
        debug_assert!(width <= 32);
        if self.n < width {
            let w = self.words.get(self.idx).copied().unwrap_or(0);
            self.idx += 1;
            self.acc |= (w as u64) << self.n;
            self.n += 32;
        }
        let v = self.acc & ((1u64 << width) - 1);
        self.acc >>= width;
        self.n -= width;
        v
    }

    /// Takes the next `width` bits into little-endian 64-bit words `out`
    /// (words beyond the field are zeroed).
    #[inline(always)]
    pub fn pull_wide(&mut self, width: u32, out: &mut [u64]) {
        out.fill(0);
        let mut done = 0;
        while done < width {
            let w = (width - done).min(32);
            out[(done / 64) as usize] |= self.pull(w) << (done % 64);
            done += w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-by-bit reference.
    fn get_ref(words: &[u32], lsb: usize, width: usize) -> u64 {
        (0..width).fold(0u64, |v, i| {
            let b = lsb + i;
            v | ((((words[b / 32] >> (b % 32)) & 1) as u64) << i)
        })
    }

    fn lcg(s: &mut u64) -> u64 {
        *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *s ^ (*s >> 29)
    }

    #[test]
    fn words_for_widths() {
        assert_eq!(words_for(1), 1);
        assert_eq!(words_for(32), 1);
        assert_eq!(words_for(33), 2);
        assert_eq!(words_for(64), 2);
        assert_eq!(words_for(65), 3);
        assert_eq!(words_for(8 * 256), 64);
    }

    #[test]
    fn get_set_u64_all_offsets_and_widths() {
        let mut s = 1u64;
        for width in 1..=64 {
            for lsb in 0..100 {
                let mut words: Vec<u32> = (0..8).map(|_| lcg(&mut s) as u32).collect();
                let before = words.clone();
                let v = lcg(&mut s);
                set_u64(&mut words, lsb, width, v);
                assert_eq!(get_u64(&words, lsb, width), v & mask64(width), "w={width} lsb={lsb}");
                assert_eq!(get_ref(&words, lsb, width), v & mask64(width));
                // Bits outside the field are untouched.
                for b in 0..256 {
                    if b < lsb || b >= lsb + width {
                        assert_eq!(get_ref(&words, b, 1), get_ref(&before, b, 1), "bit {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn straddling_32_and_64_bit_boundaries() {
        // 72-bit data of port 3 occupies bits 216..288: it starts inside word 6
        // (bits 192..224) and crosses words 7, 8 (and the 64-bit boundary at 256).
        let mut words = vec![0u32; words_for(8 * 72)];
        let v = [0x0123_4567_89ab_cdefu64, 0xa5, 0, 0];
        set_wide(&mut words, 3 * 72, 72, &v);
        let mut out = [0u64; 4];
        get_wide(&words, 3 * 72, 72, &mut out);
        assert_eq!(out, v);
        assert_eq!(words[6], 0xef00_0000);
        assert_eq!(words[7], 0x6789_abcd);
        assert_eq!(words[8], 0xa501_2345);
        assert_eq!(words[9], 0);
        // Neighbouring ports stay zero.
        assert_eq!(get_u64(&words, 2 * 72, 64), 0);
        assert_eq!(get_u64(&words, 4 * 72, 64), 0);
        // Value with bits above the field width: ignored.
        set_wide(&mut words, 3 * 72, 72, &[u64::MAX, u64::MAX, u64::MAX, u64::MAX]);
        get_wide(&words, 3 * 72, 72, &mut out);
        assert_eq!(out, [u64::MAX, 0xff, 0, 0]);
        assert_eq!(get_u64(&words, 4 * 72, 64), 0);
        assert_eq!(get_u64(&words, 2 * 72, 64), 0);
    }

    #[test]
    fn wide_random_round_trip() {
        let mut s = 7u64;
        for &width in &[8usize, 31, 32, 33, 63, 64, 65, 72, 96, 100, 128, 200, 255, 256] {
            let ports = 9;
            let mut words = vec![0u32; words_for(ports * width)];
            let mut vals = vec![[0u64; 4]; ports];
            for (p, v) in vals.iter_mut().enumerate() {
                for (i, x) in v.iter_mut().enumerate() {
                    let bits = width.saturating_sub(64 * i).min(64);
                    *x = lcg(&mut s) & mask64(bits);
                    if bits == 0 {
                        *x = 0;
                    }
                }
                set_wide(&mut words, p * width, width, v);
            }
            for (p, v) in vals.iter().enumerate() {
                let mut out = [0u64; 4];
                get_wide(&words, p * width, width, &mut out);
                assert_eq!(&out, v, "width {width} port {p}");
                for b in 0..width {
                    assert_eq!(get_ref(&words, p * width + b, 1), (v[b / 64] >> (b % 64)) & 1);
                }
            }
        }
    }

    #[test]
    fn writer_and_reader_match_the_slice_helpers() {
        let mut s = 11u64;
        for &(ports, width) in &[(9usize, 72u32), (8, 32), (8, 256), (32, 1), (5, 3), (3, 33), (7, 65), (2, 24)] {
            let nw = words_for(ports * width as usize);
            let vals: Vec<[u64; 4]> = (0..ports).map(|_| [lcg(&mut s), lcg(&mut s), lcg(&mut s), lcg(&mut s)]).collect();
            let mut a = vec![0xdead_beefu32; nw];
            let mut w = BitWriter::new(&mut a);
            for v in &vals {
                if width <= 32 {
                    w.push(v[0], width);
                } else {
                    w.push_wide(v, width);
                }
            }
            w.finish();
            let mut b = vec![0u32; nw];
            for (p, v) in vals.iter().enumerate() {
                set_wide(&mut b, p * width as usize, width as usize, v);
            }
            assert_eq!(a, b, "{ports} x {width}");
            let mut r = BitReader::new(&a);
            for (p, v) in vals.iter().enumerate() {
                let mut out = [0u64; 4];
                r.pull_wide(width, &mut out);
                let mut want = [0u64; 4];
                get_wide(&b, p * width as usize, width as usize, &mut want);
                assert_eq!(out, want, "{ports} x {width} port {p}");
                for (i, o) in out.iter().enumerate() {
                    let bits = (width as usize).saturating_sub(64 * i).min(64);
                    assert_eq!(*o, if bits == 0 { 0 } else { v[i] & mask64(bits) });
                }
            }
        }
    }
}

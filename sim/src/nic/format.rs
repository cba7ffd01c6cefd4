//! The NIC's flit formats on the links (docs/nic.md §4): header and body
//! flits, and the message key `{seq, src}` a receiver reads from either.

use super::params::Params;
use crate::link::MAX_FLIT_WORDS;

/// Flit data as little-endian 64-bit words.
pub type FlitData = [u64; MAX_FLIT_WORDS];

/// Writes the low `width` (<= 64) bits of `value` at bit `lsb` of `data`
/// (the bits there are 0 beforehand: flits are built from zero).
pub(crate) fn put(data: &mut FlitData, lsb: u32, width: u32, value: u64) {
    if width == 0 {
        return;
    }
    let v = if width == 64 { value } else { value & ((1u64 << width) - 1) };
    let (w, b) = ((lsb / 64) as usize, lsb % 64);
    data[w] |= v << b;
    if b != 0 && b + width > 64 {
        data[w + 1] |= v >> (64 - b);
    }
}

/// The `width` (<= 64) bits of `data` at bit `lsb`.
pub(crate) fn get(data: &FlitData, lsb: u32, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let (w, b) = ((lsb / 64) as usize, lsb % 64);
    let mut v = data[w] >> b;
    if b != 0 && b + width > 64 && w + 1 < MAX_FLIT_WORDS {
        v |= data[w + 1] << (64 - b);
    }
    if width == 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

/// A message's identity at its receiver: `{seq, src}` (src in the low DW bits).
pub(crate) fn key(src: u64, seq: u64, dw: u32) -> u32 {
    ((seq << dw) | src) as u32
}

impl Params {
    /// DW.
    pub fn dw(&self) -> u32 {
        self.header.dest.width
    }

    /// IXW + DW + 8: the poison bit's position.
    fn poison_bit(&self) -> u32 {
        self.index_width + self.dw() + 8
    }

    /// The header flit of a message (§4).
    pub fn header_flit(&self, dest: u32, class: u32, vtick: u32, src: u32, seq: u32) -> FlitData {
        let mut d = [0; MAX_FLIT_WORDS];
        let h = &self.header;
        put(&mut d, h.dest.lsb, h.dest.width, dest as u64);
        put(&mut d, h.class.lsb, h.class.width, class as u64);
        put(&mut d, h.vtick.lsb, h.vtick.width, vtick as u64);
        let hw = h.width();
        put(&mut d, hw, self.dw(), src as u64);
        put(&mut d, hw + self.dw(), 8, seq as u64);
        d
    }

    /// Body flit k of a message (§4); `poison` clears the payload.
    pub fn body_flit(&self, k: u32, src: u32, seq: u32, poison: bool, beat: u64) -> FlitData {
        let mut d = [0; MAX_FLIT_WORDS];
        let (ix, dw) = (self.index_width, self.dw());
        put(&mut d, 0, ix, k as u64);
        put(&mut d, ix, dw, src as u64);
        put(&mut d, ix + dw, 8, seq as u64);
        if poison {
            put(&mut d, self.poison_bit(), 1, 1);
        } else {
            put(&mut d, self.tag_width, self.axw, beat);
        }
        d
    }

    /// The key of a flit read from its own position (header or body).
    pub fn flit_key(&self, head: bool, data: &FlitData) -> u32 {
        let dw = self.dw();
        let base = if head { self.header.width() } else { self.index_width };
        key(get(data, base, dw), get(data, base + dw, 8), dw)
    }

    /// The src part of a key.
    pub fn key_src(&self, key: u32) -> u32 {
        key & ((1u32 << self.dw()) - 1)
    }

    pub fn body_index(&self, data: &FlitData) -> u32 {
        get(data, 0, self.index_width) as u32
    }

    pub fn body_poison(&self, data: &FlitData) -> bool {
        get(data, self.poison_bit(), 1) == 1
    }

    pub fn body_beat(&self, data: &FlitData) -> u64 {
        get(data, self.tag_width, self.axw)
    }

    pub fn header_class(&self, data: &FlitData) -> u32 {
        get(data, self.header.class.lsb, self.header.class.width) as u32
    }
}

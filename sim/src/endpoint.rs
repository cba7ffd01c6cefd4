//! Message tags and the reassembling endpoint (docs/microarchitecture.md §9.6).
//!
//! **Tags.** With `HW` the header width and `W` the flit width, the id width
//! is `IDW = min(32, W-HW, W-16)`; tags need `IDW >= 8`.
//! - real header: bits `[HW, HW+IDW)` = message id mod 2^IDW;
//! - the k-th non-header flit (k = 1, 2, …; the tail is the last): bits
//!   `[0, 16)` = k mod 2^16, bits `[16, 16+IDW)` = id mod 2^IDW.
//!
//! **Reassembly.** [`Reassembler`] consumes what leaves a router's output
//! links, cycle by cycle. It keeps one open part per (port, VC): a part
//! opens at a head flit (real or dummy) and closes at a tail (real or dummy);
//! dummy flits are discarded; a real-header part belongs to the header's id,
//! a dummy-header part to the id of its first non-dummy flit (a part with no
//! non-dummy flit is discarded). Within a part the indices of consecutive
//! flits increase by exactly 1, starting at 1 after a real header. A message
//! (keyed by output port and id) is complete when its real header and real
//! tail (index K) have arrived and every index 1..=K arrived exactly once;
//! it is then yielded with its non-header flits in index order. Messages are
//! limited to 65,535 non-header flits (indices are 16 bits).
//!
//! Id reuse: ids are unique among the messages in flight to one endpoint, so
//! a source may reuse an id once its message completed. The reassembler
//! remembers completed ids per port so that a late or duplicated flit of a
//! completed message is an error ([`ReassemblyError::AfterCompletion`]); a
//! real header with that id starts a new message and forgets the old one.
//! (A resumed part of the new message that overtakes its real header would
//! therefore be reported; [`Reassembler::forget`] lifts the memory early.)

use crate::link::{LinkFlit, RouterOutputs, MAX_FLIT_WORDS};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use wormqos_config::RouterConfig;

/// Why tags are not available for a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// `IDW = min(32, W-HW, W-16) < 8`.
    IdTooNarrow { flit_width: u32, header_width: u32, id_width: i64 },
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::IdTooNarrow { flit_width, header_width, id_width } => write!(
                f,
                "message tags need an id width IDW = min(32, W-HW, W-16) >= 8, but W = {flit_width} and HW = {header_width} give IDW = {id_width}"
            ),
        }
    }
}

impl std::error::Error for TagError {}

/// The §9.6 tag convention for one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tags {
    w: u32,
    hw: u32,
    idw: u32,
    header: wormqos_config::HeaderLayout,
}

#[inline]
fn get_bits(data: &[u64; MAX_FLIT_WORDS], lsb: u32, width: u32) -> u64 {
    let mut v = 0u64;
    for b in 0..width {
        let bit = lsb + b;
        v |= (data[(bit / 64) as usize] >> (bit % 64) & 1) << b;
    }
    v
}

#[inline]
fn set_bits(data: &mut [u64; MAX_FLIT_WORDS], lsb: u32, width: u32, value: u64) {
    for b in 0..width {
        let bit = lsb + b;
        let m = 1u64 << (bit % 64);
        if value >> b & 1 == 1 {
            data[(bit / 64) as usize] |= m;
        } else {
            data[(bit / 64) as usize] &= !m;
        }
    }
}

impl Tags {
    /// Tags for `cfg`, or why they are not available (IDW < 8).
    pub fn new(cfg: &RouterConfig) -> Result<Tags, TagError> {
        let w = cfg.flit_width();
        let hw = cfg.header().width();
        let idw = 32i64.min(w as i64 - hw as i64).min(w as i64 - 16);
        if idw < 8 {
            return Err(TagError::IdTooNarrow { flit_width: w, header_width: hw, id_width: idw });
        }
        Ok(Tags { w, hw, idw: idw as u32, header: cfg.header() })
    }
    /// IDW.
    pub fn id_width(&self) -> u32 {
        self.idw
    }
    /// 2^IDW - 1.
    pub fn id_mask(&self) -> u64 {
        (1u64 << self.idw) - 1
    }
    /// Writes `id mod 2^IDW` into a real header's data (bits `[HW, HW+IDW)`).
    pub fn set_header_id(&self, data: &mut [u64; MAX_FLIT_WORDS], id: u64) {
        set_bits(data, self.hw, self.idw, id & self.id_mask());
    }
    /// The id of a real header.
    pub fn header_id(&self, data: &[u64; MAX_FLIT_WORDS]) -> u64 {
        get_bits(data, self.hw, self.idw)
    }
    /// Writes the tag of the k-th non-header flit: bits `[0,16)` = k mod
    /// 2^16, bits `[16, 16+IDW)` = id mod 2^IDW.
    pub fn set_flit_tag(&self, data: &mut [u64; MAX_FLIT_WORDS], index: u64, id: u64) {
        set_bits(data, 0, 16, index & 0xffff);
        set_bits(data, 16, self.idw, id & self.id_mask());
    }
    /// (index, id) of a non-header flit.
    pub fn flit_tag(&self, data: &[u64; MAX_FLIT_WORDS]) -> (u64, u64) {
        (get_bits(data, 0, 16), get_bits(data, 16, self.idw))
    }
    /// Header data with the §2 fields, the id tag and `payload` in the bits
    /// above (truncated to the flit width).
    pub fn header_data(&self, dest: u64, class: u64, vtick: u64, id: u64, payload: u64) -> [u64; MAX_FLIT_WORDS] {
        let mut d = [0u64; MAX_FLIT_WORDS];
        let h = self.header;
        set_bits(&mut d, h.dest.lsb, h.dest.width, dest);
        set_bits(&mut d, h.class.lsb, h.class.width, class);
        set_bits(&mut d, h.vtick.lsb, h.vtick.width, vtick);
        self.set_header_id(&mut d, id);
        let lo = self.hw + self.idw;
        set_bits(&mut d, lo, (self.w - lo).min(64), payload);
        d
    }
    /// Data of the k-th non-header flit with `payload` in the bits above the tag.
    pub fn flit_data(&self, index: u64, id: u64, payload: u64) -> [u64; MAX_FLIT_WORDS] {
        let mut d = [0u64; MAX_FLIT_WORDS];
        self.set_flit_tag(&mut d, index, id);
        let lo = 16 + self.idw;
        set_bits(&mut d, lo, (self.w - lo).min(64), payload);
        d
    }
    /// A whole tagged message of `len` >= 1 flits on link VC `vc` (flit 0
    /// the real header); `payload(k)` fills the bits above the tags of flit k.
    pub fn message(
        &self,
        vc: u8,
        dest: u64,
        class: u64,
        vtick: u64,
        id: u64,
        len: usize,
        mut payload: impl FnMut(usize) -> u64,
    ) -> Vec<LinkFlit> {
        assert!(len >= 1 && len <= 65536);
        (0..len)
            .map(|k| LinkFlit {
                lane: 0,
                valid: true,
                vc,
                head: k == 0,
                tail: k + 1 == len,
                dummy: false,
                data: if k == 0 {
                    self.header_data(dest, class, vtick, id, payload(0))
                } else {
                    self.flit_data(k as u64, id, payload(k))
                },
            })
            .collect()
    }
}

/// A message rebuilt by the [`Reassembler`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Output port it left on.
    pub port: usize,
    /// Id (mod 2^IDW).
    pub id: u64,
    /// Data of the real header.
    pub header: [u64; MAX_FLIT_WORDS],
    /// Data of the non-header flits, index 1 first (the last is the tail).
    pub flits: Vec<[u64; MAX_FLIT_WORDS]>,
    /// Parts it arrived in (1 if never preempted).
    pub parts: usize,
}

/// A violation of the §9.6 guarantees, as seen at the endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReassemblyError {
    /// A head flit (real or dummy) while a part was open on (port, vc).
    HeadInOpenPart { port: usize, vc: u8 },
    /// A non-head flit with no open part on (port, vc).
    NoOpenPart { port: usize, vc: u8 },
    /// A dummy flit that is neither a head nor a tail (or both).
    BadDummy { port: usize, vc: u8 },
    /// A flit whose id differs from its part's id.
    MixedIds { port: usize, vc: u8, part_id: u64, id: u64 },
    /// Index 0 on a non-header flit.
    ZeroIndex { port: usize, vc: u8, id: u64 },
    /// Indices inside a part not consecutive (first flit after a real header
    /// must be 1).
    Gap { port: usize, vc: u8, id: u64, expected: u64, got: u64 },
    /// An index of the message arrived twice.
    DuplicateIndex { port: usize, id: u64, index: u64 },
    /// A second real header for an id in flight.
    DuplicateHeader { port: usize, id: u64 },
    /// A flit of an id whose message was already completed.
    AfterCompletion { port: usize, id: u64, index: u64 },
    /// A flit index above the real tail's index, or a second real tail.
    BeyondTail { port: usize, id: u64, index: u64, tail: u64 },
}

impl fmt::Display for ReassemblyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ReassemblyError {}

#[derive(Clone, Debug, Default)]
struct Part {
    /// The part's id: known from a real header or the first non-dummy flit.
    id: Option<u64>,
    /// Expected index of the next non-dummy flit (known after the first).
    next: Option<u64>,
    /// The message already counted this part.
    counted: bool,
}

#[derive(Clone, Debug, Default)]
struct Partial {
    header: Option<[u64; MAX_FLIT_WORDS]>,
    flits: BTreeMap<u64, [u64; MAX_FLIT_WORDS]>,
    tail: Option<u64>,
    parts: usize,
}

/// The reassembling endpoint of §9.6 over all output ports of a router.
#[derive(Clone, Debug)]
pub struct Reassembler {
    tags: Tags,
    /// Open part per (port, vc).
    open: HashMap<(usize, u8), Part>,
    partial: HashMap<(usize, u64), Partial>,
    completed: HashSet<(usize, u64)>,
    dummies: u64,
    discarded_parts: u64,
    messages: u64,
}

impl Reassembler {
    pub fn new(cfg: &RouterConfig) -> Result<Reassembler, TagError> {
        Ok(Self::with_tags(Tags::new(cfg)?))
    }
    pub fn with_tags(tags: Tags) -> Reassembler {
        Reassembler {
            tags,
            open: HashMap::new(),
            partial: HashMap::new(),
            completed: HashSet::new(),
            dummies: 0,
            discarded_parts: 0,
            messages: 0,
        }
    }
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// Consumes every valid flit of one cycle's router outputs, port 0
    /// first; returns the messages completed in this cycle.
    pub fn consume(&mut self, outputs: &RouterOutputs) -> Result<Vec<Message>, ReassemblyError> {
        let mut done = Vec::new();
        for (port, f) in outputs.flits.iter().enumerate() {
            if let Some(m) = self.push(port, f)? {
                done.push(m);
            }
        }
        Ok(done)
    }

    /// Consumes one flit that left output `port` (invalid flits are ignored).
    pub fn push(&mut self, port: usize, f: &LinkFlit) -> Result<Option<Message>, ReassemblyError> {
        if !f.valid {
            return Ok(None);
        }
        let key = (port, f.vc);
        let vc = f.vc;
        if f.head {
            if self.open.contains_key(&key) {
                return Err(ReassemblyError::HeadInOpenPart { port, vc });
            }
        } else if !self.open.contains_key(&key) {
            return Err(ReassemblyError::NoOpenPart { port, vc });
        }
        if f.dummy {
            self.dummies += 1;
            if f.head == f.tail {
                return Err(ReassemblyError::BadDummy { port, vc });
            }
            if f.head {
                self.open.insert(key, Part::default());
            } else {
                let part = self.open.remove(&key).unwrap();
                if part.id.is_none() {
                    self.discarded_parts += 1;
                }
            }
            return Ok(None);
        }
        if f.head {
            let id = self.tags.header_id(&f.data);
            let mkey = (port, id);
            self.completed.remove(&mkey);
            let e = self.partial.entry(mkey).or_default();
            if e.header.is_some() {
                return Err(ReassemblyError::DuplicateHeader { port, id });
            }
            e.header = Some(f.data);
            e.parts += 1;
            if f.tail {
                // A one-flit message: K = 0.
                if let Some((&k, _)) = e.flits.iter().next() {
                    return Err(ReassemblyError::BeyondTail { port, id, index: k, tail: 0 });
                }
                e.tail = Some(0);
            } else {
                self.open.insert(key, Part { id: Some(id), next: Some(1), counted: true });
            }
            return Ok(self.check_complete(mkey));
        }
        // A non-header, non-dummy flit.
        let (index, id) = self.tags.flit_tag(&f.data);
        let part = self.open.get_mut(&key).unwrap();
        match part.id {
            Some(pid) if pid != id => return Err(ReassemblyError::MixedIds { port, vc, part_id: pid, id }),
            _ => part.id = Some(id),
        }
        if index == 0 {
            return Err(ReassemblyError::ZeroIndex { port, vc, id });
        }
        if let Some(e) = part.next {
            if e != index {
                return Err(ReassemblyError::Gap { port, vc, id, expected: e, got: index });
            }
        }
        part.next = Some(index + 1);
        let first = !part.counted;
        part.counted = true;
        if f.tail {
            self.open.remove(&key);
        }
        let mkey = (port, id);
        if self.completed.contains(&mkey) {
            return Err(ReassemblyError::AfterCompletion { port, id, index });
        }
        let e = self.partial.entry(mkey).or_default();
        if first {
            e.parts += 1;
        }
        if let Some(t) = e.tail {
            if index > t || f.tail {
                return Err(ReassemblyError::BeyondTail { port, id, index, tail: t });
            }
        }
        if f.tail {
            if let Some((&k, _)) = e.flits.iter().next_back() {
                if k > index {
                    return Err(ReassemblyError::BeyondTail { port, id, index: k, tail: index });
                }
            }
            e.tail = Some(index);
        }
        if e.flits.insert(index, f.data).is_some() {
            return Err(ReassemblyError::DuplicateIndex { port, id, index });
        }
        Ok(self.check_complete(mkey))
    }

    fn check_complete(&mut self, mkey: (usize, u64)) -> Option<Message> {
        let e = self.partial.get(&mkey)?;
        let t = e.tail?;
        e.header?;
        if e.flits.len() as u64 != t {
            return None;
        }
        // Distinct indices, all in 1..=t (checked on insertion), t of them.
        let e = self.partial.remove(&mkey).unwrap();
        self.completed.insert(mkey);
        self.messages += 1;
        Some(Message {
            port: mkey.0,
            id: mkey.1,
            header: e.header.unwrap(),
            flits: e.flits.into_values().collect(),
            parts: e.parts,
        })
    }

    /// Forgets that (port, id) completed (before the source reuses the id).
    pub fn forget(&mut self, port: usize, id: u64) {
        self.completed.remove(&(port, id));
    }
    /// Messages with some flit arrived but not complete.
    pub fn incomplete(&self) -> usize {
        self.partial.len()
    }
    /// Parts open now.
    pub fn open_parts(&self) -> usize {
        self.open.len()
    }
    /// Dummy flits discarded.
    pub fn dummies(&self) -> u64 {
        self.dummies
    }
    /// Parts discarded because they carried no non-dummy flit.
    pub fn discarded_parts(&self) -> u64 {
        self.discarded_parts
    }
    /// Messages completed.
    pub fn completed_messages(&self) -> u64 {
        self.messages
    }
}

//! Doorbell queues and the selection of the next doorbell to serve
//! (docs/nic.md §6): one FCFS queue (traditional, head only) or one queue
//! per class served highest class first, oldest *available* doorbell of
//! the class (qos: an unavailable one is skipped, not reordered).

use super::params::Params;
use super::ring::Ring;

/// Status codes of malformed doorbells (docs/nic.md §7.2).
pub const CODE_VC_RANGE: u8 = 9;
pub const CODE_DB_ALIGN: u8 = 10;

/// A doorbell as queued: the word written to `DB[class]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Doorbell {
    /// Descriptor address / 32 (`wdata[31:5]`).
    pub desc: u32,
    pub vc: u32,
    /// `wdata[4]`: the descriptor is not 32-byte aligned.
    pub bad: bool,
    pub class: u32,
}

impl Doorbell {
    pub fn from_word(word: u32, class: u32) -> Self {
        Doorbell { desc: word >> 5, vc: word & 0xF, bad: word & 0x10 != 0, class }
    }
}

impl Params {
    /// The error code of a malformed doorbell, `None` if it is well formed.
    pub(crate) fn doorbell_error(&self, d: &Doorbell) -> Option<u8> {
        let vc_ok = (d.vc as usize) < self.vcs && self.vc_class.get(d.vc as usize).is_none_or(|&c| c == d.class);
        if !vc_ok {
            Some(CODE_VC_RANGE)
        } else if d.bad {
            Some(CODE_DB_ALIGN)
        } else {
            None
        }
    }

    /// The send queue a doorbell feeds (q): its VC (qos) or the one queue.
    pub(crate) fn send_queue_of(&self, d: &Doorbell) -> usize {
        if self.is_qos() {
            d.vc as usize
        } else {
            0
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Doorbells {
    queues: Vec<Ring<Doorbell>>,
}

impl Doorbells {
    pub fn new(p: &Params) -> Self {
        let n = if p.is_qos() { p.classes as usize } else { 1 };
        Doorbells { queues: (0..n).map(|_| Ring::new(p.doorbell_depth)).collect() }
    }

    pub fn reset(&mut self) {
        self.queues.iter_mut().for_each(Ring::clear);
    }

    fn queue_of(&self, class: u32) -> usize {
        if self.queues.len() == 1 {
            0
        } else {
            class as usize
        }
    }

    /// The queue of `class` is full (call with start-of-cycle state).
    pub fn is_full(&self, class: u32) -> bool {
        self.queues[self.queue_of(class)].is_full()
    }

    /// Appends a doorbell behind the queue's remaining ones.
    pub fn push(&mut self, d: Doorbell) {
        let q = self.queue_of(d.class);
        self.queues[q].push(d);
    }

    /// `STATUS.DB_PENDING`.
    pub fn pending(&self) -> bool {
        self.queues.iter().any(|q| !q.is_empty())
    }

    /// The doorbell served in this cycle, removed from its queue, given which
    /// doorbells are available (docs/nic.md §6). Call only when the send
    /// engine is idle and `TX_EN` is set.
    pub fn select(&mut self, p: &Params, mut available: impl FnMut(&Doorbell) -> bool) -> Option<Doorbell> {
        if !p.is_qos() {
            let q = &mut self.queues[0];
            return match q.front() {
                Some(d) if available(d) => Some(q.pop()),
                _ => None,
            };
        }
        for q in self.queues.iter_mut().rev() {
            if let Some(i) = (0..q.len()).find(|&i| available(q.get(i))) {
                return Some(q.remove(i));
            }
        }
        None
    }
}

//! Who held a real-time message's source VC while it waited for it (issue
//! 23): shared by `stream_vc_hold_003.rs` and `rt_8020_003.rs`.
//!
//! A message holds its source VC from the cycle it takes it
//! (`source.started`) to the cycle its tail leaves (`source.tail_sent`,
//! inclusive: the VC is freed at the end of that cycle's send and taken
//! again at the earliest in the next cycle, `Sim::inject`); a best-effort
//! message its source suspended (`source.preempted > 0`) is counted as
//! holding it only until its first suspension (`source.first_suspended`,
//! when the preempting message took the VC).

use std::collections::BTreeMap;
use wormqos_netsim::network::MessageLog;

pub const BEST_EFFORT: u8 = 0;
pub const REAL_TIME: u8 = 1;
pub const CONTROL: u8 = 2;

/// Cycles of real-time source waiting by who held the stream's VC.
#[derive(Debug, Default, PartialEq)]
pub struct Waits {
    pub best_effort: u64,
    pub own_stream: u64,
    pub other_stream: u64,
    pub control: u64,
    pub free: u64,
}

impl Waits {
    pub fn total(&self) -> u64 {
        self.best_effort + self.own_stream + self.other_stream + self.control + self.free
    }

    pub fn add(&mut self, w: &Waits) {
        self.best_effort += w.best_effort;
        self.own_stream += w.own_stream;
        self.other_stream += w.other_stream;
        self.control += w.control;
        self.free += w.free;
    }
}

/// One message's hold of its source VC: [from, to) in cycles.
#[derive(Clone, Copy)]
pub struct Hold {
    pub from: u64,
    pub to: u64,
    pub class: u8,
    pub flow: u32,
}

/// Every message's hold, by (source, VC), in order of taking.
pub fn holds(log: &[MessageLog]) -> BTreeMap<(u32, u8), Vec<Hold>> {
    let mut by_vc: BTreeMap<(u32, u8), Vec<Hold>> = BTreeMap::new();
    for m in log {
        let to = if m.source.preempted > 0 { m.source.first_suspended } else { m.source.tail_sent + 1 };
        let h = Hold { from: m.source.started, to, class: m.class, flow: m.flow };
        by_vc.entry((m.src, m.source.vc)).or_default().push(h);
    }
    by_vc.values_mut().for_each(|v| v.sort_by_key(|h| h.from));
    by_vc
}

/// Who held message `m`'s source VC in each cycle of its wait [created,
/// started).
pub fn attribute(m: &MessageLog, on_vc: &[Hold]) -> Waits {
    let (from, to) = (m.created, m.source.started);
    let mut w = Waits::default();
    let mut covered = 0;
    for h in on_vc.iter().filter(|h| h.from < to && h.to > from) {
        let n = h.to.min(to) - h.from.max(from);
        covered += n;
        match h.class {
            BEST_EFFORT => w.best_effort += n,
            CONTROL => w.control += n,
            _ if h.flow == m.flow => w.own_stream += n,
            _ => w.other_stream += n,
        }
    }
    w.free = (to - from) - covered;
    w
}

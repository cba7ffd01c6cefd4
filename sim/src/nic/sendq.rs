//! The send queues (NIC buffers, docs/nic.md §8): per send queue a flit
//! FIFO, a pending-completion FIFO and the count of tails that have left
//! but whose completion is not yet being written.

use super::format::FlitData;
use super::params::Params;
use super::ring::Ring;

/// A flit waiting to be injected, with its message's VC and Vtick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TxFlit {
    pub head: bool,
    pub tail: bool,
    pub vc: u32,
    pub vtick: u32,
    pub data: FlitData,
}

/// A finished send whose status word waits for its tail to leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pending {
    pub desc: u32,
    pub code: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SendQueues {
    pub flits: Vec<Ring<TxFlit>>,
    pub pending: Vec<Ring<Pending>>,
    pub sent_tails: Vec<u32>,
}

impl SendQueues {
    pub fn new(p: &Params) -> Self {
        SendQueues {
            flits: (0..p.send_queues).map(|_| Ring::new(p.send_depth)).collect(),
            pending: (0..p.send_queues).map(|_| Ring::new(p.send_depth)).collect(),
            sent_tails: vec![0; p.send_queues],
        }
    }

    pub fn reset(&mut self) {
        self.flits.iter_mut().for_each(Ring::clear);
        self.pending.iter_mut().for_each(Ring::clear);
        self.sent_tails.fill(0);
    }

    /// Bit q: flit FIFO q is full.
    pub fn flits_full(&self) -> u32 {
        mask(self.flits.iter().map(Ring::is_full))
    }

    /// Bit q: pending-completion FIFO q is full.
    pub fn pending_full(&self) -> u32 {
        mask(self.pending.iter().map(Ring::is_full))
    }

    /// The lowest q whose oldest pending completion's tail has left.
    pub fn completion_ready(&self) -> Option<usize> {
        self.sent_tails.iter().position(|&n| n > 0)
    }

    /// Takes queue q's oldest pending completion (client 1 of the write engine).
    pub fn take_completion(&mut self, q: usize) -> Pending {
        self.sent_tails[q] -= 1;
        self.pending[q].pop()
    }
}

fn mask(bits: impl Iterator<Item = bool>) -> u32 {
    bits.enumerate().fold(0, |m, (i, b)| m | (b as u32) << i)
}

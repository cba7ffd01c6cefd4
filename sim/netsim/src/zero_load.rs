//! The no-contention network latency of one message: what header injection
//! to tail delivery takes when the message meets no other on its route.
//! 000_… §3.2.1 calls it the transfer time T = P − 1 + P h + M (P = 5
//! router stages, h links, M flits) and Figs 5 and 8 split a class's
//! network latency into T and L̄_c − T (blocking and sharing); the engine
//! records, per class, the mean of this value over the messages it measures
//! (`ClassStats::transfer_time`), so that network latency − transfer time is
//! what contention added.
//!
//! The timing is the spec's pipeline (docs/microarchitecture.md §6, §7),
//! derived in `tests/link_latency.rs`'s module docs: with L registers per
//! router-to-router link, DI input-buffer credits and M − 1 = g·DI + i,
//! latency = (P + L)·h + P + i + g·max(DI, 4 + 2L); with DI ≥ 4 + 2L that
//! is (P + L)·h + P − 1 + M, the paper's T at L = 0. The derivation assumes
//! output buffers of at least 4 flits (2 would stall the crossbar), so for
//! smaller ones there is no value.

/// Router pipeline stages (BW, RC, VA, ST, C: §7), the paper's P.
pub const STAGES: u64 = 5;

/// The network's parameters that set the zero-load latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroLoad {
    /// `topology.link_latency`: registers per link and direction.
    pub link_latency: u64,
    /// Input buffer depth DI (flits of credit per VC).
    pub input_depth: u64,
}

impl ZeroLoad {
    /// `None` where the derivation does not hold (output buffers below 4
    /// flits, an input buffer of 0).
    pub fn new(link_latency: u64, input_depth: u64, output_depth: u64) -> Option<Self> {
        (output_depth >= 4 && input_depth >= 1).then_some(Self { link_latency, input_depth })
    }

    /// Header injection to tail delivery of a `flits`-flit message over
    /// `hops` router-to-router links with no other message in the network.
    pub fn latency(&self, hops: u64, flits: u64) -> u64 {
        let (l, di) = (self.link_latency, self.input_depth);
        let (g, i) = ((flits.max(1) - 1) / di, (flits.max(1) - 1) % di);
        (STAGES + l) * hops + STAGES + i + g * di.max(4 + 2 * l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_buffers_give_the_papers_transfer_time() {
        // 000_… Table 1: M = 32, b_s = 32, L = 0: T = 4 + 5 h + 32.
        let z = ZeroLoad::new(0, 32, 32).unwrap();
        assert_eq!(z.latency(0, 32), 36);
        assert_eq!(z.latency(3, 32), 51);
        assert_eq!(z.latency(6, 32), 66);
        // Two link registers each way: every link adds 2 (DI = 32 ≥ 8).
        assert_eq!(ZeroLoad::new(2, 32, 4).unwrap().latency(3, 32), 57);
    }

    #[test]
    fn short_buffers_are_credit_bound() {
        // DI = 4, L = 1: the loop is 6 cycles per 4 flits; M = 20: 19 = 4·4 + 3,
        // so 6·2 + 5 + 3 + 4·6 = 44 over 2 links.
        assert_eq!(ZeroLoad::new(1, 4, 4).unwrap().latency(2, 20), 44);
        assert_eq!(ZeroLoad::new(0, 32, 2), None);
    }
}

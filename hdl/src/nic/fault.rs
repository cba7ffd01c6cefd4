//! Planted bugs in the NIC generator: each is read by exactly one block
//! builder, and the cocotb testbench must catch every one of them
//! (`testbench/tests/nic_cocotb.rs`).

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NicFault {
    /// `doorbells`: the lowest class is served first (§6).
    WrongDoorbellPriority,
    /// `doorbells`: the QoS NIC looks only at each queue's oldest doorbell (§6).
    NoHeadOfLineSkip,
    /// `inject`: a tail flit does not consume a credit (§9.1).
    CreditLeak,
    /// `rx`: the first real flit after a discarded dummy tail on a VC is dropped (§11.5).
    DropAfterDummyTail,
    /// `inject`: a message's completion becomes writable when its tail enters
    /// the send queue, not when it leaves the NIC (§8).
    CompletionBeforeLastFlit,
    /// `tx`: the read address moves while ARVALID waits for ARREADY (§14).
    ArAddrMovesWhileStalled,
}

impl NicFault {
    pub fn every() -> &'static [NicFault] {
        &[
            NicFault::WrongDoorbellPriority,
            NicFault::NoHeadOfLineSkip,
            NicFault::CreditLeak,
            NicFault::DropAfterDummyTail,
            NicFault::CompletionBeforeLastFlit,
            NicFault::ArAddrMovesWhileStalled,
        ]
    }
    pub fn name(&self) -> &'static str {
        match self {
            NicFault::WrongDoorbellPriority => "nic-wrong-doorbell-priority",
            NicFault::NoHeadOfLineSkip => "nic-no-hol-skip",
            NicFault::CreditLeak => "nic-credit-leak",
            NicFault::DropAfterDummyTail => "nic-drop-after-dummy-tail",
            NicFault::CompletionBeforeLastFlit => "nic-completion-before-last-flit",
            NicFault::ArAddrMovesWhileStalled => "nic-araddr-moves-while-stalled",
        }
    }
}

impl fmt::Display for NicFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown NIC fault `{0}`")]
pub struct UnknownNicFault(pub String);

impl FromStr for NicFault {
    type Err = UnknownNicFault;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        NicFault::every().iter().copied().find(|f| f.name() == s).ok_or_else(|| UnknownNicFault(s.to_string()))
    }
}

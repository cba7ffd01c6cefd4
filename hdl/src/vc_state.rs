//! Encoding of an input VC's state register (docs/microarchitecture.md §4):
//! IDLE (no message), ROUTED (route known, waiting for VA), ACTIVE (owns an
//! output VC). Shared by both input port builders.

pub(crate) const IDLE: u64 = 0;
pub(crate) const ROUTED: u64 = 1;
pub(crate) const ACTIVE: u64 = 2;

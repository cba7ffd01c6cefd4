//! Message tags and the reassembling endpoint (docs/microarchitecture.md §9.6).
pub struct Tags;
pub struct Reassembler;

//! Cycle-exact golden model of the wormhole VC router specified in
//! `docs/microarchitecture.md`. It knows nothing about Verilog.

mod arbiter;
mod fifo;
mod link;
mod router;

pub use link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
pub use router::{Router, RouterStats, VcState};

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

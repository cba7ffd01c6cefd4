//! Cycle-exact golden model of the wormhole VC router specified in
//! `docs/microarchitecture.md`. It knows nothing about Verilog.

mod link;
pub use link::{LinkFlit, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};

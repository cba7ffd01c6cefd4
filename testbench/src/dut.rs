//! A device under test: anything that behaves like the router for one cycle at a time.

use wormqos_sim::{RouterInputs, RouterOutputs};

/// The cycle contract of docs/microarchitecture.md §3: `outputs()` shows the
/// registered outputs of the current cycle; `step()` applies this cycle's
/// inputs and advances to the next cycle (one rising clock edge).
pub trait Dut {
    /// Synchronous reset: one cycle with the reset input high.
    fn reset(&mut self);
    fn outputs(&mut self) -> &RouterOutputs;
    fn step(&mut self, inputs: &RouterInputs);
}

//! Verification environment of the NIC (docs/nic.md): a host memory (AXI4
//! slave with backpressure and error responses), the host's AXI4-Lite
//! master, the router-side peer, the scoreboard, protocol checks, and the
//! driver that runs them against one NIC or several in lockstep.

pub mod driver;
pub mod format;
pub mod host;
pub mod memory;
pub mod peer;
pub mod protocol;
pub mod regmap;
pub mod scoreboard;
pub mod system;

use wormqos_sim::nic::{NicInputs, NicOutputs};

/// A NIC that behaves like docs/nic.md for one cycle at a time.
pub trait NicDut {
    /// Synchronous reset: one cycle with `rst_i` high.
    fn reset(&mut self);
    /// The outputs of the current cycle given its inputs (registered
    /// outputs and the AXI4-Lite `awready`/`wready`).
    fn eval(&mut self, inputs: &NicInputs) -> NicOutputs;
    /// The rising edge that ends the cycle.
    fn step(&mut self, inputs: &NicInputs);
    /// One of the device's own checks failed (RTL assertions; a model has none).
    fn check_failed(&self) -> bool {
        false
    }
}

impl NicDut for wormqos_sim::Nic {
    fn reset(&mut self) {
        wormqos_sim::Nic::reset(self)
    }
    fn eval(&mut self, inputs: &NicInputs) -> NicOutputs {
        *self.settle(inputs)
    }
    fn step(&mut self, inputs: &NicInputs) {
        wormqos_sim::Nic::step(self, inputs)
    }
}

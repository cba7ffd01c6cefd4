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

    /// Whether one of the device's own checks failed since its last reset
    /// (the RTL's simulation-only assertions; a model has none).
    fn check_failed(&self) -> bool {
        false
    }

    /// Makes the device able to write waveforms, rebuilding it if it was
    /// built without (it is then in its power-on state: reset it). A no-op
    /// for devices that can already trace or never can.
    fn prepare_trace(&mut self) -> anyhow::Result<()> {
        Ok(())
    }

    /// Starts writing a waveform (VCD) of every following cycle to `path`.
    /// Devices without waveform support (e.g. the golden model) refuse.
    fn start_trace(&mut self, path: &std::path::Path) -> anyhow::Result<()> {
        anyhow::bail!("this device cannot write waveforms (asked for {})", path.display())
    }

    /// Stops and flushes a waveform started with [`Dut::start_trace`]; a no-op
    /// when no waveform is being written.
    fn stop_trace(&mut self) {}
}

/// The golden model is a device like any other (it cannot write waveforms).
impl Dut for wormqos_sim::Router {
    fn reset(&mut self) {
        wormqos_sim::Router::reset(self)
    }
    fn outputs(&mut self) -> &RouterOutputs {
        wormqos_sim::Router::outputs(self)
    }
    fn step(&mut self, inputs: &RouterInputs) {
        wormqos_sim::Router::step(self, inputs)
    }
}

//! Verilator harness and RTL-versus-model lockstep testing.

pub mod dut;
pub mod stimulus;
mod stimulus_lanes;
pub mod verilator;
pub mod scoreboard;
pub mod parts;
pub mod lockstep;
pub mod network;
pub mod nic;

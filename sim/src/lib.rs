//! Cycle-exact golden model of the wormhole VC router specified in
//! `docs/microarchitecture.md`. It knows nothing about Verilog.
//!
//! Timing convention: cycle t is the t-th call of [`Router::step`] after
//! [`Router::new`] / [`Router::reset`] (counting from 0). Before that call,
//! [`Router::outputs`] holds the registered outputs *during* cycle t (they
//! depend only on the state at the start of t); `step(inputs of cycle t)`
//! then performs the rising edge that ends cycle t. So a header given to
//! `step` number 0 appears on an output after 5 `step`s (zero-load latency
//! P = 5).
//!
//! One engine serves the foundation router and every QoS mode of §9 (static
//! partition, block-level multiplexing, preemption with extra lanes and
//! dummy flits, acceleration); its cycle is split into the pipeline stages
//! of the spec (see [`Router`]'s module, `router/`).
//! [`endpoint`] holds the §9.6 message tags and the reassembling endpoint.
//!
//! ```
//! use wormqos_config::RouterConfig;
//! use wormqos_sim::{LinkFlit, Router, RouterInputs};
//! let cfg = RouterConfig::from_toml_str(r#"
//! name = "doc"
//! [router]
//! ports = 2
//! vcs = 1
//! flit_width = 32
//! input_buffer_depth = 4
//! output_buffer_depth = 2
//! crossbar = "multiplexed"
//! scheduler = "round_robin"
//! "#, "doc").unwrap();
//! let mut r = Router::new(&cfg);
//! let mut inp = RouterInputs::idle(&cfg);
//! // A one-flit message to destination 1, on input port 0, in cycle 0.
//! inp.flits[0] = LinkFlit { lane: 0, valid: true, dummy: false, vc: 0, head: true, tail: true, data: [1, 0, 0, 0] };
//! r.step(&inp);
//! inp.clear();
//! for _ in 1..5 {
//!     assert!(!r.outputs().flits[1].valid);
//!     r.step(&inp);
//! }
//! assert_eq!(r.cycle(), 5);
//! assert!(r.outputs().flits[1].valid && r.outputs().flits[1].tail);
//! ```

mod arbiter;
mod fifo;
pub mod lane_credits;
mod link;
pub mod ports;
pub mod endpoint;
pub mod nic;
mod router;
mod vclock;

pub use nic::{Nic, NicInputs, NicOutputs};
pub use link::{credit_lane, credit_lane_word, LinkFlit, RouteWrite, RouterInputs, RouterOutputs, MAX_FLIT_WORDS};
pub use ports::{Narrow, PortSet, Wide, Width};
pub use router::{active_ports, ComparisonError, ComparisonScheduler, HeaderFields, LaneRegs, PointACensus, Router, RouterStats, VcState};
pub use vclock::{is_realtime, VirtualClockScheduler, FQ_FRAC_BITS, MAX_SLOTS};

#[cfg(test)]
mod recorded_tests;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod qos_tests;
#[cfg(test)]
mod lane_credit_tests;
#[cfg(test)]
mod wrr_tests;
#[cfg(test)]
mod test_traffic;
// Lets `tests.rs` include the integration tests' helpers
// (`tests/common/mod.rs`), which name the crate `wormqos_sim`.
#[cfg(test)]
extern crate self as wormqos_sim;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod atomic_tests;
#[cfg(test)]
mod vclock_tests;
#[cfg(test)]
mod fgfq_tests;

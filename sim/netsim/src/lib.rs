//! Network simulator built from the cycle-exact golden router model
//! (issue 5): topologies of `wormqos_sim::Router`s described in an
//! experiment file, the papers' workloads and metrics, sweeps and plots.
//!
//! Because every router is the golden model, which the lockstep tests hold
//! equal to the generated RTL cycle by cycle, a prediction made here is what
//! the RTL routers wired the same way would do, given the same endpoints.

pub mod analytic;
pub mod cause_split;
pub mod cdg;
pub mod channel_probe;
pub mod composed;
pub mod deadlock;
pub mod experiment;
pub mod header_parts;
pub mod hop_parts;
pub mod hop_trace;
pub mod metrics;
pub mod network;
pub mod nic;
pub mod offered;
pub mod pcs;
pub mod pcs_data;
pub mod phase_intervals;
pub mod reconfigure;
pub mod router_split;
pub mod segmentation;
pub mod source_lanes;
pub mod topology;
pub mod vc_wait;
pub mod workload;
pub mod zero_load;

pub use experiment::{Experiment, ExperimentError, Validated};
pub use network::{run, PhaseClassLatency, Results, RouterEvents, SimError};
pub mod plot;
pub mod shard;
pub mod sweep;

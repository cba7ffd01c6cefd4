//! Closed-form and Markov-chain performance models from the papers, to set
//! beside the simulator's measurements (docs/reproduction.md).

pub mod be_burst_wait;
pub mod be_overlap_wait;
pub mod be_prio_wait;
pub mod cube_held;
pub mod escape_vcs;
pub mod kim2005;
pub mod kim2005_cube;
pub mod mdc_exact;
pub mod ring;
pub mod multilink_ring;
pub mod onoff_fluid;
pub mod onoff_source;
pub mod predict;
pub mod ring_curve;
pub mod torus002;
pub mod vc_queue_tail;
pub mod cube_vcq_ports;
pub mod cube_body_behind;

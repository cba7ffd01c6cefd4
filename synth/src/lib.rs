//! Synthesis flow for generated designs (routers, NICs, networks): what is
//! synthesized (`design`), per-design constraints and scripts (`scripts`),
//! runs of the open tools and their reports (`flow`, `parse`), and the
//! area-versus-performance design-space sweep of routers (`sweep`).

pub mod design;
pub mod flow;
pub mod parse;
pub mod scripts;
pub mod sweep;

pub use design::{Design, Unit};
pub use flow::{synthesize, FlowOptions, SynthReport};

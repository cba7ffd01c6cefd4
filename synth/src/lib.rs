//! Synthesis flow for generated routers (issue 6): per-design constraints and
//! scripts (`scripts`), runs of the open tools and their reports (`flow`,
//! `parse`), and the area-versus-performance design-space sweep (`sweep`).

pub mod flow;
pub mod parse;
pub mod scripts;
pub mod sweep;

pub use flow::{synthesize, FlowOptions, SynthReport};

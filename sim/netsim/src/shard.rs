//! `sweep --shard I/N` and its `merge` (the split, the file and the checks
//! are `wormqos_config::shard`'s): what a sweep's shard file holds, and the
//! merge back into the points of one unsharded run.
//!
//! A point's result depends only on its parameters (its seed is in the
//! experiment), so a merged run equals an unsharded one except for the
//! timing columns (`wall_seconds`, `router_cycles_per_second`), which are
//! each machine's own.

use crate::network::Results;
use crate::sweep::{value_label, Grid, Point};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use wormqos_config::shard::{self, MergeError, ShardFile, ShardSpec};

/// The `kind` of a sweep's shard file.
pub const KIND: &str = "sweep";

/// The experiment a sweep's shards ran: its text and where it was read
/// from (relative paths in it are relative to `dir`).
#[derive(Debug, Serialize, Deserialize)]
pub struct Source {
    pub file: String,
    pub dir: PathBuf,
    pub text: String,
}

pub type SweepShard = ShardFile<Source, Result<Results, String>>;

/// Everything that decides a grid's points and results, normalised (the
/// base tables, the swept keys with their values, the x axis), so that
/// comments and layout of the file do not matter.
fn description(grid: &Grid) -> String {
    let mut text = toml::to_string(&grid.base).unwrap_or_default();
    for (k, vals) in &grid.keys {
        text += &format!("\n{k} = [{}]", vals.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "));
    }
    text + &format!("\nx = {}", grid.x)
}

fn labels(grid: &Grid) -> Vec<String> {
    grid.points()
        .iter()
        .map(|params| params.iter().map(|(k, v)| format!("{k}={}", value_label(v))).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The file content of shard `spec` of `grid` (read from `source`), from
/// the points it ran (`(index, point)` as [`Grid::run_indices`] returns them).
pub fn to_bytes(grid: &Grid, source: Source, spec: ShardSpec, ran: Vec<(usize, Point)>) -> Vec<u8> {
    let points = ran.into_iter().map(|(i, p)| (i, p.result)).collect();
    ShardFile::new(KIND, source, &description(grid), labels(grid), spec, points).to_bytes()
}

/// The grid and the points of one unsharded run, from the decoded files of
/// all N shards.
pub fn merge(files: Vec<(String, SweepShard)>) -> Result<(Grid, Vec<Point>), MergeError> {
    let first = files.first().map(|f| f.0.clone()).unwrap_or_default();
    let (source, results) = shard::merge(files)?;
    let grid = Grid::from_str(&source.text, &source.file, source.dir.clone())
        .map_err(|e| MergeError::File { file: first.clone(), why: format!("its experiment ({}) does not parse here: {e}", source.file) })?;
    let params = grid.points();
    if params.len() != results.len() {
        return Err(MergeError::File { file: first, why: format!("{} results for a grid of {} points", results.len(), params.len()) });
    }
    let pts = params.into_iter().zip(results).map(|(params, result)| Point { params, result }).collect();
    Ok((grid, pts))
}

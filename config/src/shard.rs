//! Grids that outgrow one machine (`sweep --shard I/N`, `dse --shard I/N`):
//! a deterministic split of a grid's points into N shards, the file a shard
//! run leaves, and the checks that turn all N files back into the points of
//! one unsharded run (`wormqos merge`).
//!
//! Shard I of N runs the points whose index in grid order is I mod N
//! (interleaved, so the expensive end of an axis is spread over every
//! shard). A shard file carries its grid's description, so `merge` needs
//! nothing but the files.
//!
//! Files are MessagePack with field names, because results hold NaN (a
//! class with no messages) that JSON cannot carry.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// Most shards of one grid.
pub const MAX_SHARDS: usize = 10_000;
/// Largest shard file `merge` reads.
pub const MAX_SHARD_FILE_BYTES: u64 = 1 << 30;
/// Version of the shard file layout.
const FORMAT: u32 = 1;

/// Which shard of how many: `I/N` with 0 <= I < N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardSpec {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for ShardSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}`: expected I/N with 0 <= I < N and 1 <= N <= {MAX_SHARDS} (shard I of N, counting from 0)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(ShardSpec { index, count })
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl ShardSpec {
    /// The indices (in grid order) of the points this shard runs.
    pub fn indices(&self, total: usize) -> Vec<usize> {
        (self.index..total).step_by(self.count).collect()
    }
    /// The file name a shard run writes.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.msgpack", self.index, self.count)
    }
}

/// Whether a file name is one a shard run writes (`shard-I-of-N.msgpack`).
pub fn is_shard_file(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix("shard-")
        .and_then(|r| r.strip_suffix(".msgpack"))
        .and_then(|r| r.split_once("-of-"))
        .is_some_and(|(i, n)| digits(i) && digits(n))
}

/// What one shard run leaves behind. `G` describes the grid (enough to
/// write the merged outputs), `P` is one point's result.
#[derive(Debug, Serialize, Deserialize)]
pub struct ShardFile<G, P> {
    pub format: u32,
    /// `sweep` or `dse`: what made the file.
    pub kind: String,
    pub grid: G,
    /// Hash of the grid's description, so shards of different grids (or
    /// of an edited experiment) are never merged.
    pub fingerprint: String,
    /// Every point's label in grid order (so `merge` can check each
    /// shard holds the right points, and name them).
    pub labels: Vec<String>,
    pub index: usize,
    pub count: usize,
    /// `(index in grid order, result)` of the points this shard ran.
    pub points: Vec<(usize, P)>,
}

impl<G: Serialize, P: Serialize> ShardFile<G, P> {
    pub fn new(kind: &str, grid: G, fingerprint_text: &str, labels: Vec<String>, spec: ShardSpec, points: Vec<(usize, P)>) -> Self {
        ShardFile {
            format: FORMAT,
            kind: kind.to_string(),
            grid,
            fingerprint: fingerprint(fingerprint_text),
            labels,
            index: spec.index,
            count: spec.count,
            points,
        }
    }
    pub fn to_bytes(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("shard results serialize")
    }
}

/// FNV-1a, 64 bits, as hex: stable across Rust versions and machines.
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Why shards cannot be merged: the file and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{file}: {why}")]
    File { file: String, why: String },
    #[error("{0}")]
    Set(String),
}

/// The header fields every shard file has, whatever its grid and points:
/// read first to learn what kind of file it is.
#[derive(Deserialize)]
struct Header {
    format: u32,
    kind: String,
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, MergeError> {
    let file = path.display().to_string();
    let err = |why: String| MergeError::File { file: file.clone(), why };
    let f = std::fs::File::open(path).map_err(|e| err(format!("cannot read: {e}")))?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(err("is a directory, expected a shard file (shard-I-of-N.msgpack)".into()));
    }
    let mut bytes = Vec::new();
    f.take(MAX_SHARD_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| err(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_SHARD_FILE_BYTES {
        return Err(err(format!("larger than the shard file limit of {MAX_SHARD_FILE_BYTES} bytes")));
    }
    Ok(bytes)
}

/// The kind (`sweep`, `dse`) of a shard file, and its bytes.
pub fn read_kind(path: &Path) -> Result<(String, Vec<u8>), MergeError> {
    let bytes = read_bytes(path)?;
    let err = |why: String| MergeError::File { file: path.display().to_string(), why };
    let h: Header = rmp_serde::from_slice(&bytes).map_err(|e| err(format!("not a wormqos shard file ({e})")))?;
    if h.format != FORMAT {
        return Err(err(format!("shard file format {} (this wormqos reads format {FORMAT})", h.format)));
    }
    Ok((h.kind, bytes))
}

/// Decodes a shard file of a known kind.
pub fn decode<G: DeserializeOwned, P: DeserializeOwned>(file: &str, bytes: &[u8]) -> Result<ShardFile<G, P>, MergeError> {
    rmp_serde::from_slice(bytes).map_err(|e| MergeError::File { file: file.to_string(), why: format!("a damaged shard file ({e})") })
}

/// Checks that `files` are exactly the N shards of one grid, each holding
/// its points, and returns the grid description of the first and every
/// point's result in grid order.
pub fn merge<G, P>(files: Vec<(String, ShardFile<G, P>)>) -> Result<(G, Vec<P>), MergeError> {
    let Some((first_name, first)) = files.first() else {
        return Err(MergeError::Set("no shard files given".into()));
    };
    let (first_name, count, fp, labels, kind) = (first_name.clone(), first.count, first.fingerprint.clone(), first.labels.clone(), first.kind.clone());
    let mut seen: Vec<Option<String>> = vec![None; count];
    for (name, s) in &files {
        let err = |why: String| MergeError::File { file: name.clone(), why };
        if s.kind != kind {
            return Err(err(format!("a `{}` shard beside `{kind}` shards ({first_name})", s.kind)));
        }
        if s.fingerprint != fp || s.labels != labels {
            return Err(err(format!(
                "a shard of another grid than {first_name} (fingerprint {} against {fp}): shards must come from the same experiment and options",
                s.fingerprint
            )));
        }
        if s.count != count {
            return Err(err(format!("shard {}/{} of a split into {} ({first_name} is of a split into {count})", s.index, s.count, s.count)));
        }
        if s.index >= count {
            return Err(err(format!("shard index {} outside 0..{count}", s.index)));
        }
        if let Some(other) = &seen[s.index] {
            return Err(err(format!("shard {}/{count} given twice (also {other})", s.index)));
        }
        seen[s.index] = Some(name.clone());
        let expected = ShardSpec { index: s.index, count }.indices(labels.len());
        let got: Vec<usize> = s.points.iter().map(|p| p.0).collect();
        if got != expected {
            return Err(err(format!("shard {}/{count} should hold points {expected:?}, holds {got:?}", s.index)));
        }
    }
    let missing: Vec<String> = seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(MergeError::Set(format!("missing shard files: {} (of a split into {count})", missing.join(", "))));
    }
    let mut slots: Vec<Option<P>> = (0..labels.len()).map(|_| None).collect();
    let mut grid = None;
    for (_, s) in files {
        grid.get_or_insert(s.grid);
        for (i, p) in s.points {
            slots[i] = Some(p);
        }
    }
    let grid = grid.expect("at least one file");
    Ok((grid, slots.into_iter().map(|p| p.expect("every index checked above")).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_points() {
        for total in [0, 1, 7, 10] {
            for count in 1..=4 {
                let mut all: Vec<usize> = (0..count).flat_map(|i| ShardSpec { index: i, count }.indices(total)).collect();
                all.sort();
                assert_eq!(all, (0..total).collect::<Vec<_>>(), "{total} points in {count} shards");
            }
        }
        assert_eq!(ShardSpec { index: 1, count: 3 }.indices(8), vec![1, 4, 7]);
    }

    #[test]
    fn shard_specs_are_validated() {
        assert_eq!("2/5".parse::<ShardSpec>(), Ok(ShardSpec { index: 2, count: 5 }));
        for bad in ["5/5", "0/0", "1", "a/2", "-1/2", "1/100000"] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shard_file_names_are_recognised() {
        assert!(is_shard_file(&ShardSpec { index: 3, count: 12 }.file_name()));
        for other in ["results.csv", "shard-1-of-.msgpack", "shard-a-of-2.msgpack", "shard-1-of-2.json"] {
            assert!(!is_shard_file(other), "{other}");
        }
    }

    #[test]
    fn merge_orders_points_and_round_trips_nan() {
        let labels: Vec<String> = (0..5).map(|i| format!("p{i}")).collect();
        let file = |i: usize| {
            let spec = ShardSpec { index: i, count: 2 };
            let pts = spec.indices(5).into_iter().map(|k| (k, if k == 3 { f64::NAN } else { k as f64 })).collect();
            let f = ShardFile::new("sweep", "g".to_string(), "text", labels.clone(), spec, pts);
            let bytes = f.to_bytes();
            (format!("f{i}"), decode::<String, f64>("f", &bytes).unwrap())
        };
        let (g, pts) = merge(vec![file(1), file(0)]).unwrap();
        assert_eq!(g, "g");
        assert_eq!(pts[..3], [0.0, 1.0, 2.0]);
        assert!(pts[3].is_nan());
        assert_eq!(pts[4], 4.0);
        assert!(matches!(merge(vec![file(1)]), Err(MergeError::Set(m)) if m.contains("0/2")));
    }
}

//! Reading input files and writing output directories under the project's
//! one rule for bad input: inputs are read with a size cap and located by
//! line; outputs never replace or delete a file the tool did not write.
//!
//! Every output directory the tools fill carries a manifest
//! ([`MANIFEST`]) of the files they wrote there. A later run may replace or
//! remove exactly those files; any other existing file of the same name is
//! refused (unless forced, or its content is what would be written), and
//! the check happens before any work starts ([`OutDir::claim`]).

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest input file (configuration, experiment, sweep grid, trace) read.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Name of the manifest of tool-written files inside an output directory.
pub const MANIFEST: &str = ".wormqos-manifest";

/// Reads a UTF-8 text input of at most [`MAX_INPUT_BYTES`]; the error names the file.
pub fn read_capped(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(format!("{shown}: cannot read: is a directory, expected a file"));
    }
    let mut bytes = Vec::new();
    f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("{shown}: larger than the input size limit of {MAX_INPUT_BYTES} bytes (16 MiB)"));
    }
    String::from_utf8(bytes).map_err(|e| format!("{shown}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// 1-based line of a dotted field (`router.ports`, `run.seconds`,
/// `workload.phases[2]`, `name`) in a TOML text, when it is written there.
pub fn line_of(text: &str, field: &str) -> Option<usize> {
    let field = field.split('[').next().unwrap_or(field);
    let (table, key) = match field.rsplit_once('.') {
        Some((t, k)) => (t, k),
        None => ("", field),
    };
    let mut current = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(h) = line.strip_prefix('[') {
            current = h.trim_start_matches('[').split(']').next().unwrap_or("").trim().to_string();
            // A whole table named as the field (`topology`).
            if current == field {
                return Some(i + 1);
            }
            continue;
        }
        let Some((k, _)) = line.split_once('=') else { continue };
        let k = k.trim().trim_matches('"');
        if current == table && k == key {
            return Some(i + 1);
        }
        // Dotted keys written inline: `router.ports = 5` at top level.
        if current.is_empty() && !table.is_empty() && k == format!("{table}.{key}") {
            return Some(i + 1);
        }
    }
    None
}

/// `file:line` when the line is known, else `file`.
pub fn at(file: &str, text: &str, field: &str) -> String {
    match line_of(text, field) {
        Some(l) => format!("{file}:{l}"),
        None => file.to_string(),
    }
}

/// Why an output cannot be written where it was asked for.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{0}: exists and was not written by wormqos (not in its {MANIFEST}); refusing to overwrite it (move it away or pass --force)")]
    Foreign(PathBuf),
    #[error("{0}: output directory is an existing file, not a directory")]
    NotADirectory(PathBuf),
    #[error("{path}: output location is not writable: {message}")]
    NotWritable { path: PathBuf, message: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_path_buf(), source }
}

/// An output directory claimed for a set of file names (see the module docs).
#[derive(Debug)]
pub struct OutDir {
    dir: PathBuf,
    /// Files the tool wrote here before (the manifest as found).
    previous: BTreeSet<String>,
    /// Files this run said it may write ([`OutDir::begin`]).
    planned: BTreeSet<String>,
    /// Files written by this run.
    written: BTreeSet<String>,
}

impl OutDir {
    /// Checks, before any work, that `dir` is (or can become) a writable
    /// directory and that none of `names` exists there unless the tool wrote
    /// it, `force` is set, or its content equals the given one.
    pub fn claim(dir: &Path, names: &[(&str, Option<&[u8]>)], force: bool) -> Result<OutDir, OutputError> {
        let previous = read_manifest(dir);
        if dir.exists() {
            if !dir.is_dir() {
                return Err(OutputError::NotADirectory(dir.to_path_buf()));
            }
            for (name, content) in names {
                let p = dir.join(name);
                if p.symlink_metadata().is_err() || previous.contains(*name) || force {
                    continue;
                }
                if content.is_some_and(|c| std::fs::read(&p).is_ok_and(|old| old == c)) {
                    continue;
                }
                return Err(OutputError::Foreign(p));
            }
        }
        probe_writable(dir)?;
        Ok(OutDir { dir: dir.to_path_buf(), previous, planned: BTreeSet::new(), written: BTreeSet::new() })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Creates the directory and records `planned` in the manifest before
    /// anything is written, so that an interrupted run's files are still
    /// known as the tool's on the next run. Entries another writer added
    /// to the manifest since the claim (e.g. the RTL that `write_files` put
    /// into the same directory) are kept.
    pub fn begin(&mut self, planned: &[&str]) -> Result<(), OutputError> {
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        self.planned.extend(planned.iter().map(|s| s.to_string()));
        let mut all = read_manifest(&self.dir);
        all.extend(self.previous.iter().cloned());
        all.extend(self.planned.iter().cloned());
        write_manifest(&self.dir, &all)
    }

    /// Writes one file atomically (temporary name, then rename) and records it.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf, OutputError> {
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(OutputError::Io {
                path: self.dir.join(name),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a plain file name"),
            });
        }
        let fin = self.dir.join(name);
        let tmp = self.dir.join(format!(".{name}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
        if let Err(e) = std::fs::rename(&tmp, &fin) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&fin)(e));
        }
        self.written.insert(name.to_string());
        Ok(fin)
    }

    /// Records a file written by someone else on the tool's behalf (e.g. a plot).
    pub fn record(&mut self, name: &str) {
        self.written.insert(name.to_string());
    }

    /// Removes the files of earlier runs that this run did not write and
    /// that `stale` selects (only files in the manifest, never others), and
    /// writes the new manifest: the earlier files kept plus this run's.
    pub fn finish(self, stale: impl Fn(&str) -> bool) -> Result<(), OutputError> {
        let mut keep = self.written.clone();
        // Files another writer recorded here during this run stay recorded.
        for other in read_manifest(&self.dir) {
            if !self.previous.contains(&other) && !self.planned.contains(&other) && self.dir.join(&other).exists() {
                keep.insert(other);
            }
        }
        for old in self.previous.difference(&self.written) {
            let p = self.dir.join(old);
            if !stale(old) {
                if p.exists() {
                    keep.insert(old.clone());
                }
            } else if p.is_file() {
                std::fs::remove_file(&p).map_err(io(&p))?;
            }
        }
        write_manifest(&self.dir, &keep)
    }
}

/// Checks that `path` (a directory, existing or not) could be written into:
/// creates and removes a probe file in it or in its nearest existing ancestor.
pub fn probe_writable(path: &Path) -> Result<(), OutputError> {
    let mut base = path;
    while !base.as_os_str().is_empty() && !base.exists() {
        base = base.parent().unwrap_or(Path::new(""));
    }
    let base = if base.as_os_str().is_empty() { Path::new(".") } else { base };
    if !base.is_dir() {
        return Err(OutputError::NotWritable { path: path.to_path_buf(), message: format!("{} is not a directory", base.display()) });
    }
    // Unique per call, not only per process: threads of one process (the
    // test harness, `sweep --jobs`) probe the same directory at once.
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = base.join(format!(".wormqos-probe-{}-{n}", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(OutputError::NotWritable { path: path.to_path_buf(), message: format!("cannot create a file in {}: {e}", base.display()) }),
    }
}

/// Checks, before the run, that a single output file may be written:
/// its directory is writable and it does not exist (unless `force`).
pub fn claim_file(path: &Path, force: bool) -> Result<(), OutputError> {
    if path.is_dir() {
        return Err(OutputError::NotWritable { path: path.to_path_buf(), message: "is a directory, expected a file name".into() });
    }
    if path.exists() && !force {
        return Err(OutputError::Foreign(path.to_path_buf()));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(OutputError::NotWritable { path: path.to_path_buf(), message: format!("directory {} does not exist", parent.display()) });
    }
    probe_writable(parent)
}

fn read_manifest(dir: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(dir.join(MANIFEST))
        .map(|t| t.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect())
        .unwrap_or_default()
}

fn write_manifest(dir: &Path, names: &BTreeSet<String>) -> Result<(), OutputError> {
    let mut text = String::from("# files written here by wormqos; a later run replaces or removes only these\n");
    for n in names {
        text.push_str(n);
        text.push('\n');
    }
    let p = dir.join(MANIFEST);
    let tmp = dir.join(format!("{MANIFEST}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, &p).map_err(io(&p))
}

#[cfg(test)]
mod tests {
    /// Many threads of one process probe one directory at once; each must
    /// succeed (a probe name shared by the threads made all but one fail).
    #[test]
    fn concurrent_probes_of_one_directory_all_succeed() {
        let d = std::env::temp_dir().join(format!("wormqos_probe_race_{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let failures: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| s.spawn(|| (0..200).filter(|_| super::probe_writable(&d.join("out")).is_err()).count()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        let _ = std::fs::remove_dir_all(&d);
        assert_eq!(failures, 0, "probes failed under concurrency");
    }

    use super::*;

    #[test]
    fn line_of_finds_table_keys() {
        let t = "name = \"x\"\n[router]\nports = 5\n vcs=2\n[run]\nseconds = 1\n";
        assert_eq!(line_of(t, "name"), Some(1));
        assert_eq!(line_of(t, "router.ports"), Some(3));
        assert_eq!(line_of(t, "router.vcs"), Some(4));
        assert_eq!(line_of(t, "run.seconds"), Some(6));
        assert_eq!(line_of(t, "run.ports"), None);
        assert_eq!(line_of(t, "workload.phases[1]"), None);
    }

    #[test]
    fn claim_refuses_foreign_files_and_finish_removes_only_own() {
        let dir = std::env::temp_dir().join(format!("wormqos_files_unit_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mine.v"), "user").unwrap();
        let e = OutDir::claim(&dir, &[("mine.v", Some(b"tool"))], false).unwrap_err();
        assert!(matches!(e, OutputError::Foreign(_)), "{e}");
        // Same content is not a loss; forced is allowed.
        assert!(OutDir::claim(&dir, &[("mine.v", Some(b"user"))], false).is_ok());
        assert!(OutDir::claim(&dir, &[("mine.v", None)], true).is_ok());
        let mut o = OutDir::claim(&dir, &[("a.v", None)], false).unwrap();
        o.begin(&["a.v"]).unwrap();
        o.write("a.v", b"a").unwrap();
        o.finish(|_| true).unwrap();
        // A second run that writes b.v removes a.v (ours) but not mine.v.
        let mut o = OutDir::claim(&dir, &[("a.v", None), ("b.v", None)], false).unwrap();
        o.begin(&["b.v"]).unwrap();
        o.write("b.v", b"b").unwrap();
        o.finish(|_| true).unwrap();
        assert!(!dir.join("a.v").exists());
        assert_eq!(std::fs::read_to_string(dir.join("mine.v")).unwrap(), "user");
        assert!(dir.join("b.v").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `synth` claims its directory, then the RTL writer and the tool flow
    /// record their files in it: the outer writer's manifest keeps them.
    #[test]
    fn a_nested_writer_s_files_stay_in_the_manifest() {
        let dir = std::env::temp_dir().join(format!("wormqos_files_nested_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut outer = OutDir::claim(&dir, &[("r.json", None), ("a.v", None)], false).unwrap();
        let mut inner = OutDir::claim(&dir, &[("a.v", None)], false).unwrap();
        inner.begin(&["a.v"]).unwrap();
        inner.write("a.v", b"a").unwrap();
        inner.finish(|_| false).unwrap();
        outer.begin(&["r.json"]).unwrap();
        outer.write("r.json", b"{}").unwrap();
        outer.finish(|_| false).unwrap();
        assert_eq!(read_manifest(&dir), ["a.v", "r.json"].iter().map(|s| s.to_string()).collect());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

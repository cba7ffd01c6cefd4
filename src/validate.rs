//! The one rule for bad input, shared by every subcommand: everything is
//! validated before any work or write; invalid input is an [`Invalid`] error
//! (exit code 2) whose message names the file (and line), the field or flag,
//! the value and the allowed range; outputs never replace or delete a file
//! the tool did not write (`wormqos_config::files`).

use std::path::Path;
use std::process::ExitCode;
use wormqos_config::files::{self, OutDir};
use wormqos_config::RouterConfig;

/// Exit code for invalid input, as for command-line misuse.
pub const EXIT_INVALID_INPUT: u8 = 2;

/// Invalid input: reported with exit code 2.
#[derive(Debug)]
pub struct Invalid(pub String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

/// An [`Invalid`] error with this message.
pub fn invalid(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Invalid(message.into()))
}

/// Success 0, invalid input 2 (an [`Invalid`] anywhere in the chain), any
/// other failure 1; the error goes to stderr.
pub fn exit_code(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.chain().any(|c| c.is::<Invalid>()) {
                ExitCode::from(EXIT_INVALID_INPUT)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Reads and validates a router configuration file.
pub fn load_config(path: &Path) -> anyhow::Result<RouterConfig> {
    RouterConfig::from_file(path).map_err(|e| invalid(e.to_string()))
}

/// Reads and validates a router configuration for a command that builds its
/// RTL (`generate`, `cosim`, `synth`, `dse`): a model-only choice is refused.
pub fn load_rtl_config(path: &Path) -> anyhow::Result<RouterConfig> {
    let cfg = load_config(path)?;
    let text = files::read_capped(path).unwrap_or_default();
    refuse_model_only(&cfg, &path.display().to_string(), &text)?;
    Ok(cfg)
}

/// Configuration choices the golden model and the network simulator have
/// but the RTL does not (yet): exit 2 naming the file, line, field, value
/// and the allowed values. `origin`/`text`: the file the field is in.
pub fn refuse_model_only(cfg: &RouterConfig, origin: &str, text: &str) -> anyhow::Result<()> {
    let (lo, hi) = wormqos_config::PORTS_RANGE;
    if cfg.ports() > hi as usize {
        let field = "router.ports";
        return Err(invalid(format!(
            "{}: field `{field}` = {}: the RTL holds {lo}..={hi} ports (up to {} in `wormqos sim`, `sweep` and `model --with-sim` only); allowed range {lo}..={hi}",
            files::at(origin, text, field),
            cfg.ports(),
            wormqos_config::SIM_PORTS_RANGE.1
        )));
    }
    if cfg.scheduling().point.switch_allocator() == Some(wormqos_config::SwitchAllocator::MaximumMatching) {
        let field = "router.switch_allocator";
        return Err(invalid(format!(
            "{}: field `{field}` = \"maximum_matching\": {MAXIMUM_MATCHING_IS_MODEL_ONLY}",
            files::at(origin, text, field)
        )));
    }
    Ok(())
}

/// Why `switch_allocator = "maximum_matching"` has no RTL, and what to use.
pub const MAXIMUM_MATCHING_IS_MODEL_ONLY: &str = "a model-only bound (docs/microarchitecture.md §6 *Maximum matching*): the golden model and the network simulator have it, there is no RTL to generate, synthesize or sweep; allowed values for RTL: \"single_pass\", \"iterative\"";

/// An integer flag within `lo..=hi`.
pub fn int_in(flag: &str, v: u64, lo: u64, hi: u64) -> anyhow::Result<()> {
    if v < lo || v > hi {
        return Err(invalid(format!("{flag} = {v}: allowed range {lo}..={hi}")));
    }
    Ok(())
}

/// A finite number flag within `lo..=hi`; `lo_open` excludes `lo` itself.
pub fn real_in(flag: &str, v: f64, lo: f64, hi: f64, lo_open: bool) -> anyhow::Result<()> {
    let ok = v.is_finite() && v <= hi && if lo_open { v > lo } else { v >= lo };
    if !ok {
        let open = if lo_open { " (excluding the lower end)" } else { "" };
        return Err(invalid(format!("{flag} = {v}: allowed range {lo}..={hi}{open}")));
    }
    Ok(())
}

/// A non-empty comma-separated list flag.
pub fn non_empty<T>(flag: &str, v: &[T]) -> anyhow::Result<()> {
    if v.is_empty() {
        return Err(invalid(format!("{flag}: empty list: give at least one value")));
    }
    Ok(())
}

/// Claims an output directory for `names` before any work (see
/// `wormqos_config::files::OutDir::claim`); a refusal is invalid input.
pub fn claim_dir(dir: &Path, names: &[(&str, Option<&[u8]>)], force: bool) -> anyhow::Result<OutDir> {
    OutDir::claim(dir, names, force).map_err(|e| invalid(e.to_string()))
}

/// Checks, before the run, that one output file may be written.
pub fn claim_file(path: &Path, force: bool) -> anyhow::Result<()> {
    files::claim_file(path, force).map_err(|e| invalid(e.to_string()))
}

/// Checks that a directory the run may write into later (e.g. waveforms) is
/// creatable and writable.
pub fn writable_dir(flag: &str, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(invalid(format!("{flag} {}: exists and is not a directory", dir.display())));
    }
    files::probe_writable(dir).map_err(|e| invalid(format!("{flag}: {e}")))
}

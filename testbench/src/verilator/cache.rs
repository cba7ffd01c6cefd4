//! Building the Verilated shared library, cached by content hash.
//!
//! Layout of the cache root (default `target/wormqos-verilator/` under the
//! working directory, overridable with `WORMQOS_BUILD_DIR`):
//!
//! * `<hash>/` — a finished build: `libwq.so`, the Verilog in `src/`,
//!   `shim.cpp`, `build.log` (commands and output). Only ever created by an atomic
//!   rename, so its existence means the build is complete.
//! * `<hash>.lock` — held while a process builds `<hash>` so that concurrent
//!   test processes wait for one build instead of each running their own.
//! * `tmp-<hash>-<pid>-<n>/` — a build in progress, removed when the build
//!   ends whichever way (a guard, [`TmpBuild`]), on SIGINT/SIGTERM where the
//!   program asked for it ([`clean_up_on_signals`]), and, as a backstop for a
//!   process killed outright, by the next build ([`remove_stale_builds`]).
//! * `<hash>.failed/` — the last failed build, kept for inspection.
//! * `runtime-<hash>/` — the Verilator runtime objects (`verilated.o`,
//!   `verilated_vcd_c.o`, `verilated_threads.o`) of the first build with a
//!   given tool chain and flags. They do not depend on the design, so later
//!   builds copy them instead of spending ~17 CPU-seconds recompiling them.
//! * `pch-<hash>/` — `verilated.h` precompiled (`wq_pch.h` and its `.gch`) for
//!   one tool chain, flag set and optimisation level, made by the first build
//!   that needs it ([`precompiled_headers`]).

use anyhow::{anyhow, bail, Context, Result};
use sha2::{Digest, Sha256};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;
use wormqos_hdl::GeneratedFile;

use super::shim::MODEL_PREFIX;

/// Environment variable that overrides the cache root.
pub const BUILD_DIR_ENV: &str = "WORMQOS_BUILD_DIR";
/// File name of the built library inside a cache entry.
pub const LIBRARY_NAME: &str = "libwq.so";

const SETUP_HINT: &str = "run `./setup.sh` from the repository root to install verilator, g++ and make";

/// Verilator options that shape the generated model (part of the cache key).
/// `-O3` alone sets `--inline-mult -1` (inline every module); the explicit
/// `--inline-mult 30000` after it keeps the 8-port 16-VC preemptive routers'
/// input ports out of line: their C++ shrinks by a third (mw8_p 30.8 -> 19.3
/// MB; every other example's is unchanged, while plain Verilator defaults
/// would double paper000's VirtualClock variant), and `wormqos cosim --config
/// examples/mw8_p.toml --cycles 20000`, cold cache, took 103 CPU-s instead of
/// 153 for 12.0 k instead of 15.4 k lockstep cycles/s (docs/benchmarks.md).
/// `--trace` is added only for a [`BuildSpec`] with `trace`: the tracing code
/// is a third of the C++ and of its compile time (8-port 16-VC P router: 152
/// CPU-s of `make` without it, 229 s with it), and only a waveform needs it.
/// (The build runs `verilator` and then its generated Makefile in two steps,
/// which is what `--build` does, so that the precompiled runtime can be
/// dropped into the object directory in between.)
const VERILATOR_FLAGS: &[&str] = &["--cc", "--exe", "-O3", "--inline-mult", "30000", "-Wno-fatal", "--x-assign", "fast", "--x-initial", "fast"];
/// C++ flags for every object, including the Verilator runtime.
const CFLAGS: &str = "-fPIC -fvisibility=hidden -fvisibility-inlines-hidden";
const LDFLAGS: &str = "-shared -Wl,-z,defs";
/// Optimisation of the design's hot code (OPT_FAST), its cold code
/// (OPT_SLOW, constructors and initial blocks) and the runtime (OPT_GLOBAL).
/// Measured on the generated 8-port 16-VC 32-bit router, 2 cores (busy):
/// OPT_FAST -O0: build 37 s, 34 k cycles/s; -O1: 69 s, 78 k; -Os: 95 s, 88 k;
/// -O2: 97 s, 87 k. -O1 is the balance for tests, which build more than they run.
const MAKE_FLAGS: &[&str] = &["OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"];
/// [`MAKE_FLAGS`] of a [`BuildSpec`] with `quick`: the design's hot code at
/// -O0 too, for a model that runs only until its first mismatch (a planted
/// bug): -O0 against -O1 is about half the build time on the 8-port router
/// above (for less than half the cycles/s) and, on `qos`'s small 4-port
/// 3-VC preemptive router with acceleration (its mutants' configuration),
/// 9.5 instead of 12.1 CPU-s of `make` (2026-11-28, load average 13-14).
/// The runtime (OPT_GLOBAL) is the same, so both share its objects.
const QUICK_MAKE_FLAGS: &[&str] = &["OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"];
/// Environment variable replacing [`MAKE_FLAGS`] (space-separated `VAR=value`
/// words, e.g. `OPT_FAST=-O1`), for measuring other trade-offs. Part of the key.
pub const MAKE_FLAGS_ENV: &str = "WORMQOS_VERILATOR_MAKEFLAGS";

fn make_flags(quick: bool) -> Vec<String> {
    match std::env::var(MAKE_FLAGS_ENV) {
        Ok(v) if !v.trim().is_empty() => v.split_whitespace().map(str::to_string).collect(),
        _ => (if quick { QUICK_MAKE_FLAGS } else { MAKE_FLAGS }).iter().map(|s| s.to_string()).collect(),
    }
}

/// Where and how a library was obtained.
#[derive(Clone, Debug)]
pub struct BuildInfo {
    /// The cache entry directory (holds the library, sources and build log).
    pub dir: PathBuf,
    /// The shared library that was loaded.
    pub library: PathBuf,
    /// Content hash (hex SHA-256) naming the cache entry.
    pub hash: String,
    /// True when an existing cache entry was used without building.
    pub cached: bool,
    /// Wall-clock seconds spent in `build()` (building or finding the entry).
    pub seconds: f64,
}

fn run_version(tool: &str, args: &[&str]) -> Result<String> {
    let out = Command::new(tool).args(args).output().map_err(|e| {
        if e.kind() == ErrorKind::NotFound {
            anyhow!("`{tool}` was not found on PATH: {SETUP_HINT}")
        } else {
            anyhow!("cannot run `{tool} {}`: {e}; {SETUP_HINT}", args.join(" "))
        }
    })?;
    if !out.status.success() {
        bail!(
            "`{tool} {}` failed ({}): {}; {SETUP_HINT}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_string())
}

/// `verilator --version`, e.g. `Verilator 5.006 2023-01-22 rev (Debian 5.006-3)`.
pub fn verilator_version() -> Result<String> {
    static V: OnceLock<Result<String, String>> = OnceLock::new();
    V.get_or_init(|| run_version("verilator", &["--version"]).map_err(|e| format!("{e:#}")))
        .clone()
        .map_err(|e| anyhow!(e))
}

/// Versions of the whole tool chain (verilator, g++, make), checked once.
fn toolchain() -> Result<String> {
    static T: OnceLock<Result<String, String>> = OnceLock::new();
    T.get_or_init(|| {
        let v = verilator_version().map_err(|e| format!("{e:#}"))?;
        let g = run_version("g++", &["--version"]).map_err(|e| format!("{e:#}"))?;
        let m = run_version("make", &["--version"]).map_err(|e| format!("{e:#}"))?;
        Ok(format!("{v}\n{g}\n{m}"))
    })
    .clone()
    .map_err(|e| anyhow!(e))
}

/// The cache root: `$WORMQOS_BUILD_DIR`, else `target/wormqos-verilator`
/// under the working directory (not the source tree the binary was built
/// from, which may be read-only or gone).
pub fn cache_root() -> PathBuf {
    match std::env::var_os(BUILD_DIR_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => std::env::current_dir().unwrap_or_default().join("target").join("wormqos-verilator"),
    }
}

/// Whether process `pid` is alive (Linux `/proc`; elsewhere assumed alive,
/// so nothing of a possibly running build is removed).
fn process_alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Build directories in progress in this process, and the tools running
/// for them: what [`clean_up_on_signals`] removes and stops.
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static TOOLS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A build directory in progress: removed when dropped (success, every
/// error path, a panic), unless moved away first.
struct TmpBuild {
    path: PathBuf,
}

impl TmpBuild {
    fn new(path: PathBuf) -> TmpBuild {
        locked(&IN_PROGRESS).push(path.clone());
        TmpBuild { path }
    }
}

impl Drop for TmpBuild {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
        locked(&IN_PROGRESS).retain(|p| p != &self.path);
    }
}

/// Set once [`clean_up_on_signals`] is installed: each build tool then runs
/// in a process group of its own (led by the tool), which the handler stops
/// as a whole (make's compilers and their cc1plus included). Without the
/// handler the tools stay in the caller's group, so that a Ctrl-C at a
/// terminal reaches them directly.
static OWN_GROUPS: AtomicBool = AtomicBool::new(false);

/// Set by the signal handler before it stops the tools: a build whose tool
/// then fails must not go on (to keep its files as `.failed`, or to report
/// the failure) while the handler removes them and exits.
static ABANDONING: AtomicBool = AtomicBool::new(false);

/// Waits for the exit while the signal handler abandons the builds (no new
/// tool is started and a stopped one's failure is not reported).
fn park_if_abandoning() {
    while ABANDONING.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// Stops the running build tools (SIGTERM to each tool's process group, or
/// to the tool alone) and removes the build directories in progress.
fn abandon_builds() {
    let whole_group = OWN_GROUPS.load(Ordering::SeqCst);
    for pid in locked(&TOOLS).drain(..) {
        let target = if whole_group { -(pid as libc::pid_t) } else { pid as libc::pid_t };
        // SAFETY: kill(2) of a process (group) this process spawned and has not reaped.
        unsafe { libc::kill(target, libc::SIGTERM) };
    }
    let dirs: Vec<PathBuf> = locked(&IN_PROGRESS).drain(..).collect();
    for d in dirs {
        // A tool may still be finishing a file in it: a few tries.
        for _ in 0..50 {
            if fs::remove_dir_all(&d).is_ok() || !d.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// For programs (not the library's own use): on SIGINT or SIGTERM, stop the
/// Verilator build tools, remove the build directories in progress and exit
/// with 128 + the signal number, as the default action would. Installed
/// once; later calls do nothing. Uses the `signal-hook` crate (a thread
/// waits for the signals; nothing runs in signal context).
pub fn clean_up_on_signals() -> Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM]).context("cannot install the SIGINT/SIGTERM handler")?;
    let _ = INSTALLED.set(());
    OWN_GROUPS.store(true, Ordering::SeqCst);
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            ABANDONING.store(true, Ordering::SeqCst);
            abandon_builds();
            std::process::exit(128 + sig);
        }
    });
    Ok(())
}

/// Removes `tmp-<hash>-<pid>-<n>/` build directories whose process is gone
/// (an interrupted build); returns how many were removed.
pub fn remove_stale_builds(root: &Path) -> usize {
    let Ok(entries) = fs::read_dir(root) else { return 0 };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("tmp-") else { continue };
        let pid = rest.split('-').nth(1).and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && !process_alive(p)) && fs::remove_dir_all(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn check_file_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    if !ok {
        bail!("generated file name {name:?} is not a plain file name");
    }
    Ok(())
}

fn is_verilog(name: &str) -> bool {
    name.ends_with(".v") || name.ends_with(".sv")
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Everything that determines the library's content.
pub struct BuildSpec<'a> {
    /// Cache root (see [`cache_root`]).
    pub root: &'a Path,
    pub top: &'a str,
    pub files: &'a [GeneratedFile],
    pub shim: &'a str,
    /// Verilate with `--trace` (waveforms).
    pub trace: bool,
    /// Compile with [`QUICK_MAKE_FLAGS`] (a short run: a planted bug's).
    pub quick: bool,
}

impl BuildSpec<'_> {
    fn verilator_flags(&self) -> Vec<&'static str> {
        let mut f = VERILATOR_FLAGS.to_vec();
        if self.trace {
            f.push("--trace");
        }
        f
    }
}

/// Key of the design-independent runtime objects.
fn runtime_hash(toolchain: &str, verilator_flags: &[&str], quick: bool) -> String {
    // The runtime is compiled with OPT_GLOBAL only.
    let global: Vec<String> = make_flags(quick).into_iter().filter(|f| f.starts_with("OPT_GLOBAL=")).collect();
    short_hash(&[toolchain, &verilator_flags.join(" "), CFLAGS, &global.join(" ")])
}

/// 16 bytes (hex) of the SHA-256 of `parts`, each length-prefixed: the key
/// of a design-independent cache directory.
fn short_hash(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// Names (without `.o`) of the runtime objects listed in `<prefix>_classes.mk`.
fn runtime_objects(obj: &Path) -> Vec<String> {
    let text = fs::read_to_string(obj.join(format!("{MODEL_PREFIX}_classes.mk"))).unwrap_or_default();
    let mut names = Vec::new();
    let mut in_global = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("VM_GLOBAL_FAST") || t.starts_with("VM_GLOBAL_SLOW") {
            in_global = t.ends_with('\\');
            continue;
        }
        if in_global {
            let name = t.trim_end_matches('\\').trim();
            if !name.is_empty() {
                names.push(name.to_string());
            }
            in_global = t.ends_with('\\');
        }
    }
    names
}

/// Runs `cmd`, returning an error with the command and the tail of its stderr.
fn run_logged(mut cmd: Command, log: &mut String) -> Result<()> {
    let shown = format!("{cmd:?}");
    let t = Instant::now();
    park_if_abandoning();
    if OWN_GROUPS.load(Ordering::SeqCst) {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| {
        if e.kind() == ErrorKind::NotFound {
            anyhow!("cannot run {shown}: not found on PATH; {SETUP_HINT}")
        } else {
            anyhow!("cannot run {shown}: {e}")
        }
    })?;
    let pid = child.id();
    locked(&TOOLS).push(pid);
    let res = child.wait_with_output();
    locked(&TOOLS).retain(|p| *p != pid);
    park_if_abandoning();
    let res = res.map_err(|e| anyhow!("running {shown}: {e}"))?;
    let stdout = String::from_utf8_lossy(&res.stdout);
    let stderr = String::from_utf8_lossy(&res.stderr);
    log.push_str(&format!(
        "$ {shown}\n# {:.1} s, {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n",
        t.elapsed().as_secs_f64(),
        res.status
    ));
    if !res.status.success() {
        bail!(
            "{shown} failed ({}); last lines of its output:\n{}",
            res.status,
            if stderr.trim().is_empty() { tail(&stdout, 40) } else { tail(&stderr, 40) }
        );
    }
    Ok(())
}

impl BuildSpec<'_> {
    fn hash(&self, toolchain: &str) -> String {
        let mut h = Sha256::new();
        let mut field = |tag: &str, bytes: &[u8]| {
            h.update(tag.as_bytes());
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        };
        // 2: model files compiled from a precompiled `verilated.h` (2026-11-29).
        field("cache-format", b"wormqos-verilator 2");
        field("top", self.top.as_bytes());
        for f in self.files {
            field("file-name", f.file_name.as_bytes());
            field("file-text", f.text.as_bytes());
        }
        field("shim", self.shim.as_bytes());
        field("toolchain", toolchain.as_bytes());
        field("verilator-flags", self.verilator_flags().join(" ").as_bytes());
        field("cflags", CFLAGS.as_bytes());
        field("ldflags", LDFLAGS.as_bytes());
        field("make-flags", make_flags(self.quick).join(" ").as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Returns the cache entry for `spec`, building it first when absent.
pub fn build_or_reuse(spec: &BuildSpec) -> Result<BuildInfo> {
    let start = Instant::now();
    for f in spec.files {
        check_file_name(&f.file_name)?;
    }
    if !spec.files.iter().any(|f| is_verilog(&f.file_name)) {
        bail!("no Verilog file (*.v, *.sv) among the {} generated files", spec.files.len());
    }
    let tools = toolchain()?;
    let hash = spec.hash(&tools);
    let root = spec.root;
    let dir = root.join(&hash);
    let library = dir.join(LIBRARY_NAME);
    let info = |cached: bool| BuildInfo {
        dir: dir.clone(),
        library: library.clone(),
        hash: hash.clone(),
        cached,
        seconds: start.elapsed().as_secs_f64(),
    };
    if library.is_file() {
        return Ok(info(true));
    }
    fs::create_dir_all(root).with_context(|| format!("cannot create the build cache {}", root.display()))?;
    remove_stale_builds(root);
    // Wait for any other process (or thread) building the same entry.
    let lock_path = root.join(format!("{hash}.lock"));
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open {}", lock_path.display()))?;
    lock.lock().with_context(|| format!("cannot lock {}", lock_path.display()))?;
    if library.is_file() {
        return Ok(info(true));
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let tmp = TmpBuild::new(root.join(format!(
        "tmp-{}-{}-{}",
        &hash[..16],
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )));
    let result = build_in(spec, &tmp.path, &tools);
    match result {
        Ok(out) => {
            match fs::rename(&out, &dir) {
                Ok(()) => {}
                // Lost a race with a builder that did not take the lock: use the winner.
                Err(_) if library.is_file() => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot move {} to {}", out.display(), dir.display()))
                }
            }
            Ok(info(false))
        }
        Err(e) => {
            // Kept for inspection under a name the next build replaces.
            let failed = root.join(format!("{hash}.failed"));
            let _ = fs::remove_dir_all(&failed);
            match fs::rename(&tmp.path, &failed) {
                Ok(()) => Err(e.context(format!("Verilator build failed; its files are kept in {}", failed.display()))),
                Err(_) => Err(e.context("Verilator build failed")),
            }
        }
    }
}

/// The header that is precompiled: what every Verilated model file and the
/// shim include first. Parsing it is most of the compile time of a small
/// model's files at -O0 (an empty file including it: 0.61 CPU-s; mesh5's
/// files 0.60-1.29 CPU-s each, `Vwq.cpp` 0.66 -> 0.13 from the precompiled
/// header; g++ 12, 2026-11-29, docs/benchmarks.md).
const PCH_HEADER: &str = "wq_pch.h";
const PCH_TEXT: &str = "// Precompiled for the Verilated models (wormqos-testbench src/verilator/cache.rs).\n#include \"verilated.h\"\n";
/// Environment variable: `0` builds without the precompiled header (for
/// measuring it, or to rule it out when a compiler misbehaves).
pub const PCH_ENV: &str = "WORMQOS_VERILATOR_PCH";
/// Make flags whose value is an optimisation level used for model files.
const PCH_OPT_VARS: &[&str] = &["OPT_FAST", "OPT_SLOW"];

/// Key of a precompiled header: everything on the compiler's command line
/// of a model file (tool chain, the Verilator flags that set `-D` macros,
/// the C++ flags and the optimisation level).
fn pch_hash(toolchain: &str, verilator_flags: &[&str], opt: &str) -> String {
    short_hash(&[toolchain, &verilator_flags.join(" "), CFLAGS, opt])
}

/// Characters a path may have to be passed inside a make variable's value.
fn make_safe(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+,".contains(c)))
}

/// The precompiled header for each optimisation level among `flags`
/// (`OPT_FAST`, `OPT_SLOW`): `(level, header path)`. Made on first use,
/// with the model's own generated Makefile (so with exactly its compiler
/// flags), and published by an atomic rename like the runtime objects.
/// Only a speed-up: a header that cannot be made is logged and left out,
/// and one g++ finds invalid is ignored by g++ (it reads `wq_pch.h`, the
/// same text), so the model is the same either way.
fn precompiled_headers(spec: &BuildSpec, toolchain: &str, obj: &Path, tmp: &Path, flags: &[String], log: &mut String) -> Vec<(String, PathBuf)> {
    let mut headers: Vec<(String, PathBuf)> = Vec::new();
    if std::env::var(PCH_ENV).is_ok_and(|v| v.trim() == "0") {
        log.push_str(&format!("# no precompiled header: {PCH_ENV}=0\n"));
        return headers;
    }
    if !make_safe(spec.root) || !make_safe(tmp) {
        log.push_str("# no precompiled header: the cache path has characters make would split\n");
        return headers;
    }
    let levels = flags.iter().filter_map(|f| f.split_once('=')).filter(|(k, _)| PCH_OPT_VARS.contains(k)).map(|(_, v)| v.to_string());
    for opt in levels {
        if headers.iter().any(|(o, _)| *o == opt) {
            continue;
        }
        let dir = spec.root.join(format!("pch-{}", pch_hash(toolchain, &spec.verilator_flags(), &opt)));
        let header = dir.join(PCH_HEADER);
        if !dir.join(format!("{PCH_HEADER}.gch")).is_file() {
            let staging = tmp.join(format!("pch-{}", headers.len()));
            let made = (|| -> Result<()> {
                fs::create_dir_all(&staging)?;
                fs::write(staging.join(PCH_HEADER), PCH_TEXT)?;
                let mk = obj.join("wq_pch.mk");
                fs::write(
                    &mk,
                    format!(
                        "include {MODEL_PREFIX}.mk\nwq-pch:\n\t$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(WQ_PCH_OPT) \
                         -x c++-header -o $(WQ_PCH_DIR)/{PCH_HEADER}.gch $(WQ_PCH_DIR)/{PCH_HEADER}\n"
                    ),
                )?;
                let mut make = Command::new("make");
                make.arg("-C").arg(obj).arg("-f").arg("wq_pch.mk").arg("wq-pch");
                make.arg(format!("WQ_PCH_OPT={opt}")).arg(format!("WQ_PCH_DIR={}", staging.display()));
                run_logged(make, log)?;
                if fs::rename(&staging, &dir).is_ok() {
                    log.push_str(&format!("# precompiled header for {opt} saved to {}\n", dir.display()));
                }
                Ok(())
            })();
            if let Err(e) = made {
                log.push_str(&format!("# no precompiled header for {opt}: {e:#}\n"));
            }
        }
        if dir.join(format!("{PCH_HEADER}.gch")).is_file() {
            headers.push((opt, header));
        }
    }
    headers
}

/// `flags` with each model-file optimisation level followed by the forced
/// include of its precompiled header (`-Winvalid-pch`: g++ says in the
/// build log when it cannot use one).
fn with_precompiled_header(flags: &[String], headers: &[(String, PathBuf)]) -> Vec<String> {
    flags
        .iter()
        .map(|f| match f.split_once('=') {
            Some((k, v)) if PCH_OPT_VARS.contains(&k) => match headers.iter().find(|(o, _)| o == v) {
                Some((_, h)) => format!("{k}={v} -Winvalid-pch -include {}", h.display()),
                None => f.clone(),
            },
            _ => f.clone(),
        })
        .collect()
}

/// Builds into `tmp`; returns the directory (inside `tmp`) to publish.
fn build_in(spec: &BuildSpec, tmp: &Path, toolchain: &str) -> Result<PathBuf> {
    let out = tmp.join("out");
    let src = out.join("src");
    let obj = tmp.join("obj");
    fs::create_dir_all(&src).with_context(|| format!("cannot create {}", src.display()))?;
    fs::create_dir_all(&obj).with_context(|| format!("cannot create {}", obj.display()))?;
    let mut sources = Vec::new();
    for f in spec.files {
        let p = src.join(&f.file_name);
        fs::write(&p, &f.text).with_context(|| format!("cannot write {}", p.display()))?;
        if is_verilog(&f.file_name) {
            sources.push(p);
        }
    }
    let shim = out.join("shim.cpp");
    fs::write(&shim, spec.shim).with_context(|| format!("cannot write {}", shim.display()))?;
    let built = obj.join(LIBRARY_NAME);
    let mut log = String::new();
    let result = (|| -> Result<()> {
        // 1. Verilate (what `verilator --build` does first).
        let mut cmd = Command::new("verilator");
        cmd.args(spec.verilator_flags())
            .arg("--top-module")
            .arg(spec.top)
            .arg("--prefix")
            .arg(MODEL_PREFIX)
            .arg("-Mdir")
            .arg(&obj)
            .arg("-CFLAGS")
            .arg(CFLAGS)
            .arg("-LDFLAGS")
            .arg(LDFLAGS)
            .arg("-o")
            .arg(LIBRARY_NAME)
            .arg(format!("-I{}", src.display()))
            .arg(&shim)
            .args(&sources);
        run_logged(cmd, &mut log)?;

        // 2. Reuse the precompiled runtime (copies are newer than the
        //    generated Makefile, so make keeps them).
        let runtime = spec.root.join(format!("runtime-{}", runtime_hash(toolchain, &spec.verilator_flags(), spec.quick)));
        let names = runtime_objects(&obj);
        let have_runtime = !names.is_empty() && names.iter().all(|n| runtime.join(format!("{n}.o")).is_file());
        if have_runtime {
            for n in &names {
                fs::copy(runtime.join(format!("{n}.o")), obj.join(format!("{n}.o")))
                    .with_context(|| format!("cannot copy {n}.o from {}", runtime.display()))?;
            }
            log.push_str(&format!("# runtime objects {names:?} copied from {}\n", runtime.display()));
        }

        // 3. Compile and link (what `verilator --build` does second), each
        //    model file starting from the precompiled `verilated.h`.
        let flags = make_flags(spec.quick);
        let headers = precompiled_headers(spec, toolchain, &obj, tmp, &flags, &mut log);
        let mut make = Command::new("make");
        make.arg("-C").arg(&obj).arg("-f").arg(format!("{MODEL_PREFIX}.mk")).arg(format!("-j{}", jobs()));
        make.args(with_precompiled_header(&flags, &headers));
        run_logged(make, &mut log)?;

        if !have_runtime && !names.is_empty() {
            // Publish the runtime objects for later builds (atomically).
            let staging = tmp.join("runtime");
            fs::create_dir_all(&staging)?;
            for n in &names {
                fs::copy(obj.join(format!("{n}.o")), staging.join(format!("{n}.o")))?;
            }
            if fs::rename(&staging, &runtime).is_ok() {
                log.push_str(&format!("# runtime objects {names:?} saved to {}\n", runtime.display()));
            }
        }
        Ok(())
    })();
    let _ = fs::write(out.join("build.log"), &log);
    result?;
    if !built.is_file() {
        bail!("the build succeeded but did not produce {}; see {}", built.display(), out.join("build.log").display());
    }
    fs::copy(&built, out.join(LIBRARY_NAME)).with_context(|| format!("cannot copy {}", built.display()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quick build (a planted bug's short run) is its own cache entry with
    /// the design's hot code at -O0, and shares the runtime objects with the
    /// normal build (same OPT_GLOBAL, docs of `QUICK_MAKE_FLAGS`).
    #[test]
    fn a_quick_build_is_its_own_entry_at_o0_and_shares_the_runtime() {
        if std::env::var_os(MAKE_FLAGS_ENV).is_some() {
            eprintln!("{MAKE_FLAGS_ENV} is set: it replaces both flag sets, nothing to compare");
            return;
        }
        let files = [GeneratedFile { file_name: "t.v".into(), text: "module t; endmodule\n".into() }];
        let spec = |quick| BuildSpec { root: Path::new("/nonexistent"), top: "t", files: &files, shim: "", trace: false, quick };
        assert_ne!(spec(true).hash("tools"), spec(false).hash("tools"), "a quick build must not be taken for a normal one");
        assert!(make_flags(true).iter().any(|f| f == "OPT_FAST=-O0"), "{:?}", make_flags(true));
        assert!(make_flags(false).iter().any(|f| f == "OPT_FAST=-O1"), "{:?}", make_flags(false));
        let flags = spec(true).verilator_flags();
        assert_eq!(runtime_hash("tools", &flags, true), runtime_hash("tools", &flags, false));
    }

    /// The forced include goes to the model files' levels only (never to
    /// OPT_GLOBAL, the Verilator runtime, whose sources must see their own
    /// macros before `verilated.h`), and only where a header of that level exists.
    #[test]
    fn the_precompiled_header_is_forced_on_model_files_of_its_level_only() {
        let flags: Vec<String> = ["OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"].iter().map(|s| s.to_string()).collect();
        let o1 = PathBuf::from("/c/pch-a/wq_pch.h");
        let got = with_precompiled_header(&flags, &[("-O1".to_string(), o1)]);
        assert_eq!(got, ["OPT_FAST=-O1 -Winvalid-pch -include /c/pch-a/wq_pch.h", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"]);
        assert_eq!(with_precompiled_header(&flags, &[]), flags);
        assert!(make_safe(Path::new("/work/x-1/target/wormqos-verilator")));
        assert!(!make_safe(Path::new("/tmp/my cache")) && !make_safe(Path::new("/tmp/$(x)")));
    }

    #[test]
    fn stale_builds_of_dead_processes_are_removed() {
        let root = std::env::temp_dir().join(format!("wormqos_cache_unit_{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        // A process that has exited: its pid names an interrupted build.
        let mut child = Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = root.join(format!("tmp-0123456789abcdef-{dead}-0"));
        let live = root.join(format!("tmp-0123456789abcdef-{}-0", std::process::id()));
        let entry = root.join("0123456789abcdef");
        for d in [&stale, &live, &entry] {
            fs::create_dir_all(d.join("obj")).unwrap();
        }
        assert_eq!(remove_stale_builds(&root), 1);
        assert!(!stale.exists(), "an interrupted build's directory goes");
        assert!(live.exists() && entry.exists(), "a running build and finished entries stay");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_build_directory_goes_on_every_exit_path_and_on_abandon() {
        let root = std::env::temp_dir().join(format!("wormqos_cache_guard_{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        // An error returned half-way, and a panic.
        let fail = |d: PathBuf| -> Result<()> {
            let t = TmpBuild::new(d);
            fs::create_dir_all(t.path.join("obj"))?;
            fs::write(t.path.join("obj/x.o"), "x")?;
            bail!("the compiler failed")
        };
        assert!(fail(root.join("tmp-a")).is_err());
        assert!(!root.join("tmp-a").exists());
        let r = std::panic::catch_unwind(|| {
            let t = TmpBuild::new(root.join("tmp-b"));
            fs::create_dir_all(&t.path).unwrap();
            panic!("a bug");
        });
        assert!(r.is_err() && !root.join("tmp-b").exists());
        // What the signal handler does: running tools stopped, directories removed.
        let t = TmpBuild::new(root.join("tmp-c"));
        fs::create_dir_all(&t.path).unwrap();
        let mut tool = Command::new("sleep").arg("30").spawn().unwrap();
        locked(&TOOLS).push(tool.id());
        abandon_builds();
        assert!(!t.path.exists());
        assert!(!tool.wait().unwrap().success(), "the tool was stopped");
        drop(t);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn default_root_is_under_the_working_directory() {
        if std::env::var_os(BUILD_DIR_ENV).is_none() {
            assert_eq!(cache_root(), std::env::current_dir().unwrap().join("target/wormqos-verilator"));
        }
    }
}

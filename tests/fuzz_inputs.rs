//! Bounded-time fuzzing of the input readers through the built binary:
//! random byte-level and token-level mutations of the example router
//! configurations (`check`) and experiment files (`sim --emit-configs`,
//! which validates everything a run would and then writes the routers'
//! configurations instead of simulating; and `model`, which validates every
//! point and evaluates the analytical models). Every case must exit 0 or 2,
//! never panic, and finish within its timeout.
//!
//! `WORMQOS_FUZZ_CASES` (default 1000) and `WORMQOS_FUZZ_SEED` (default 1)
//! change the amount and the cases; a failure prints the seed and the case.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A case that takes longer than this is a hang.
const CASE_TIMEOUT: Duration = Duration::from_secs(20);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn toml_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    v
}

/// Values that probe the bounds: non-finite, negative, zero, huge, wrong type.
const TOKENS: &[&str] = &["inf", "-inf", "nan", "-1", "0", "1e300", "18446744073709551616", "99999999999", "\"x\"", "[]", "[1, 2, 3]", "true", "1.5", "2", "100"];

fn mutate(rng: &mut SmallRng, text: &[u8]) -> Vec<u8> {
    let mut t = text.to_vec();
    for _ in 0..rng.gen_range(1..=3) {
        if t.is_empty() {
            t.push(b'=');
        }
        let i = rng.gen_range(0..t.len());
        match rng.gen_range(0..6) {
            0 => t[i] = rng.gen(),
            1 => t.insert(i, rng.gen_range(b' '..=b'~')),
            2 => {
                t.remove(i);
            }
            3 => t.truncate(i),
            4 => {
                // Duplicate a line (duplicate keys, repeated tables).
                let s = t[..i].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let e = t[i..].iter().position(|&b| b == b'\n').map_or(t.len(), |p| i + p + 1);
                let line = t[s..e].to_vec();
                t.splice(e..e, line);
            }
            _ => {
                // Replace the value of the line at i with a probing token.
                let s = t[..i].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let e = t[i..].iter().position(|&b| b == b'\n').map_or(t.len(), |p| i + p);
                if let Some(eq) = t[s..e].iter().position(|&b| b == b'=') {
                    let tok = TOKENS[rng.gen_range(0..TOKENS.len())];
                    t.splice(s + eq + 1..e, format!(" {tok}").into_bytes());
                }
            }
        }
    }
    t
}

/// Runs one case; returns the exit code or why it failed.
fn run_case(args: &[&std::ffi::OsStr], cwd: &Path) -> Result<i32, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wormqos"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).ok();
            if err.contains("panicked") {
                return Err(format!("panic: {err}"));
            }
            return st.code().ok_or_else(|| format!("killed by a signal: {st:?} {err}"));
        }
        if start.elapsed() > CASE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no answer within {CASE_TIMEOUT:?} (hang)"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn mutated_inputs_exit_0_or_2_without_panic_or_hang() {
    let n: usize = std::env::var("WORMQOS_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let seed: u64 = std::env::var("WORMQOS_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let configs = toml_files("examples");
    let experiments: Vec<PathBuf> = toml_files("experiments").into_iter().chain(toml_files("experiments/bench")).collect();
    assert!(!configs.is_empty() && !experiments.is_empty());
    let dir = root().join("target").join("fuzz-inputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Instant::now();
    let (mut ok, mut invalid) = (0, 0);
    let mut failures = Vec::new();
    for k in 0..n {
        // Cases rotate: check, sim --emit-configs, model.
        let experiment = k % 3 != 0;
        let pool = if experiment { &experiments } else { &configs };
        let base = &pool[rng.gen_range(0..pool.len())];
        let text = mutate(&mut rng, &std::fs::read(base).unwrap());
        // Experiments stay beside the originals' relative paths (trace files).
        let input = dir.join(format!("case{k}.toml"));
        std::fs::write(&input, &text).unwrap();
        let out = dir.join(format!("out{k}"));
        let args: Vec<&std::ffi::OsStr> = match k % 3 {
            0 => vec!["check".as_ref(), "--config".as_ref(), input.as_os_str()],
            1 => vec!["sim".as_ref(), "--experiment".as_ref(), input.as_os_str(), "--emit-configs".as_ref(), out.as_os_str()],
            _ => vec!["model".as_ref(), "--experiment".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()],
        };
        match run_case(&args, &dir) {
            Ok(0) => ok += 1,
            Ok(2) => invalid += 1,
            Ok(c) => failures.push(format!("case {k} (from {}): exit {c}", base.display())),
            Err(e) => failures.push(format!("case {k} (from {}): {e}", base.display())),
        }
        if failures.last().is_some_and(|f| f.starts_with(&format!("case {k} "))) {
            // Keep the failing input for reproduction.
            std::fs::write(dir.join(format!("failing{k}.toml")), &text).unwrap();
        } else {
            let _ = std::fs::remove_file(&input);
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    eprintln!("fuzz: {n} cases (seed {seed}) in {:.1} s: {ok} valid, {invalid} rejected with exit 2", start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "seed {seed}: {} of {n} cases failed (inputs kept in {}):\n{}", failures.len(), dir.display(), failures.join("\n"));
    assert!(invalid > 0 && ok > 0, "the mutations should give both valid and invalid inputs ({ok} valid, {invalid} invalid)");
}

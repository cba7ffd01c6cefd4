//! Helpers shared by the integration tests: temp dirs and the external tools.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use wormqos_config::RouterConfig;
use wormqos_hdl::{generate, top_module_name, write_files, GeneratedFile, Mutant};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn examples() -> Vec<(String, RouterConfig)> {
    let mut v = vec![];
    for e in std::fs::read_dir(repo_root().join("examples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let cfg = RouterConfig::from_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            v.push((p.file_stem().unwrap().to_string_lossy().to_string(), cfg));
        }
    }
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!v.is_empty());
    v
}

pub fn example(name: &str) -> RouterConfig {
    RouterConfig::from_file(&repo_root().join("examples").join(format!("{name}.toml"))).unwrap()
}

/// A fresh temporary directory (removed by [`TempDir`]'s drop).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let k = N.fetch_add(1, Ordering::SeqCst);
        let p = std::env::temp_dir().join(format!("wormqos_hdl_test_{}_{k}_{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("WORMQOS_KEEP_TMP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Generates into a temp dir; returns the dir, the top module and the file names.
pub fn generate_into(cfg: &RouterConfig, mutant: Option<Mutant>, tag: &str) -> (TempDir, String, Vec<String>) {
    let files = generate(cfg, mutant).unwrap_or_else(|e| panic!("{tag}: generation failed: {e}"));
    let dir = TempDir::new(tag);
    write_files(&dir.0, &files).unwrap();
    let names = files.iter().map(|f: &GeneratedFile| f.file_name.clone()).collect();
    (dir, top_module_name(cfg), names)
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    text
}

/// `verilator --lint-only -Wall`: no warning, no error.
pub fn verilator_lint(dir: &Path, top: &str, files: &[String], tag: &str) {
    let text = run(
        Command::new("verilator").current_dir(dir).args(["--lint-only", "-Wall", "--top-module", top]).args(files),
        &format!("verilator lint of {tag}"),
    );
    assert!(!text.contains("%Warning") && !text.contains("%Error"), "verilator lint of {tag}:\n{text}");
}

/// `iverilog -g2005`: accepted without warnings.
pub fn iverilog_check(dir: &Path, files: &[String], tag: &str) {
    let text = run(
        Command::new("iverilog").current_dir(dir).args(["-g2005", "-o", "/dev/null"]).args(files),
        &format!("iverilog of {tag}"),
    );
    let lower = text.to_lowercase();
    assert!(!lower.contains("warning") && !lower.contains("error"), "iverilog of {tag}:\n{text}");
}

/// `yosys synth -top <top>; check -assert`.
pub fn yosys_synth(dir: &Path, top: &str, files: &[String], tag: &str) {
    let script = format!("read_verilog {}; synth -top {top}; check -assert", files.join(" "));
    run(Command::new("yosys").current_dir(dir).args(["-q", "-p", &script]), &format!("yosys synth of {tag}"));
}

/// Runs `f` over `items` on a few threads; panics (with every failure) if any failed.
pub fn par_each<T: Sync>(items: &[T], threads: usize, f: impl Fn(&T) + Sync) {
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= items.len() {
                    break;
                }
                if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&items[k]))) {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    failures.lock().unwrap().push(msg);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n-----\n"));
}

pub fn threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).min(4)
}

/// xorshift64*: a small deterministic generator (no extra dependency).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

//! The generated NIC (docs/nic.md) against the external tools: Verilator
//! lint (-Wall), Icarus Verilog (-g2005) and Yosys synthesis, for every
//! example with a `[nic]` section and every planted NIC fault.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::{generate_nic, nic_module_name, write_files, NicFault};

/// `examples/nic/*.toml` (kept out of `examples/`, whose every router the
/// router suites lint, synthesize and simulate).
fn nic_examples() -> Vec<(String, RouterConfig)> {
    let mut v = vec![];
    for e in std::fs::read_dir(repo_root().join("examples/nic")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let cfg = RouterConfig::from_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(cfg.nic().is_some(), "{}: no [nic] section", p.display());
            v.push((p.file_stem().unwrap().to_string_lossy().to_string(), cfg));
        }
    }
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(v.len() >= 2, "examples/nic/ holds a traditional and a QoS NIC");
    v
}

fn generate_nic_into(cfg: &RouterConfig, fault: Option<NicFault>, tag: &str) -> (TempDir, String, Vec<String>) {
    let files = generate_nic(cfg, fault).unwrap_or_else(|e| panic!("{tag}: generation failed: {e}"));
    let dir = TempDir::new(tag);
    write_files(&dir.0, &files).unwrap();
    (dir, nic_module_name(cfg), files.iter().map(|f| f.file_name.clone()).collect())
}

#[test]
fn every_nic_example_is_one_module_per_file_and_deterministic() {
    for (name, cfg) in nic_examples() {
        let a = generate_nic(&cfg, None).unwrap();
        assert_eq!(a, generate_nic(&cfg, None).unwrap(), "{name}");
        assert_eq!(a.last().unwrap().file_name, format!("{}.v", nic_module_name(&cfg)));
        for f in &a {
            let stem = f.file_name.trim_end_matches(".v");
            assert_eq!(f.text.matches("\nmodule ").count(), 1, "{}", f.file_name);
            assert!(f.text.contains(&format!("\nmodule {stem} ")), "{}", f.file_name);
            assert!(f.text.contains("`default_nettype none"));
            assert!(f.text.lines().all(|l| l.len() <= 100), "{}: a line over 100 columns", f.file_name);
        }
        assert!(a.iter().any(|f| f.text.contains("`ifndef SYNTHESIS")), "{name}: no checks");
    }
}

#[test]
fn every_nic_example_and_fault_is_lint_clean_iverilog_clean_and_synthesizes() {
    let mut jobs = vec![];
    for (name, cfg) in nic_examples() {
        jobs.push((name.clone(), cfg.clone(), None));
        for f in NicFault::every() {
            jobs.push((name.clone(), cfg.clone(), Some(*f)));
        }
    }
    par_each(&jobs, 2, |(name, cfg, f)| {
        let t = format!("{name}-{}", f.map_or("clean", |f| f.name()));
        let (dir, top, files) = generate_nic_into(cfg, *f, &t);
        verilator_lint(&dir.0, &top, &files, &t);
        iverilog_check(&dir.0, &files, &t);
        if f.is_none() {
            yosys_synth(&dir.0, &top, &files, &t);
        }
    });
}

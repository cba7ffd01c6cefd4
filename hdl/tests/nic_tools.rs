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
    // The QoS NIC's other injection granularities (docs/nic.md §9.3).
    let qos = repo_root().join("examples/nic/qos_p.toml");
    for (tag, extra) in [("qos_p_block", "injection = \"block\"\nblock_size = 3\n"), ("qos_p_message", "injection = \"message\"\n")] {
        let text = std::fs::read_to_string(&qos).unwrap() + extra;
        v.push((tag.to_string(), RouterConfig::from_toml_str(&text, tag).unwrap()));
    }
    // Per-lane credits: the NIC's lane ports and lane senders (docs/nic.md §9.1, §11.1).
    let text = std::fs::read_to_string(&qos).unwrap();
    assert!(text.contains("mode = \"preemptive\"\n"), "examples/nic/qos_p.toml changed");
    let text = text.replacen("mode = \"preemptive\"\n", "mode = \"preemptive\"\npreemption_credits = \"per_lane\"\n", 1);
    v.push(("qos_p_per_lane".to_string(), RouterConfig::from_toml_str(&text, "qos_p_per_lane").unwrap()));
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
        // The planted faults are test instruments (the cocotb and lockstep
        // tests build each one they plant): each linted once, on the QoS NIC,
        // whose blocks every fault changes.
        if name == "qos_p" {
            for f in NicFault::every() {
                jobs.push((name.clone(), cfg.clone(), Some(*f)));
            }
        }
    }
    assert_eq!(jobs.iter().filter(|j| j.2.is_some()).count(), NicFault::every().len(), "examples/nic/qos_p.toml is gone");
    let code = |fault| -> Vec<String> {
        let files = generate_nic(&jobs.iter().find(|j| j.0 == "qos_p").unwrap().1, fault).unwrap();
        files.iter().flat_map(|f| f.text.lines().filter(|l| !l.trim_start().starts_with("//")).map(str::to_string).collect::<Vec<_>>()).collect()
    };
    let clean = code(None);
    for f in NicFault::every() {
        assert_ne!(code(Some(*f)), clean, "{f} does not change the QoS NIC's code: lint it where it does");
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

/// The system top (router + one NIC per port, docs/nic.md §16): one module
/// per file, and Verilator -Wall, Icarus -g2005 and Yosys clean, for both
/// NIC examples.
#[test]
fn the_system_top_of_every_nic_example_is_clean_in_every_tool() {
    use wormqos_hdl::system::{generate_system, system_top_name};
    let mut jobs: Vec<(String, RouterConfig)> = nic_examples().into_iter().filter(|(n, _)| !n.contains('_') || n == "qos_p" || n == "qos_p_per_lane").collect();
    assert!(jobs.len() >= 2);
    // With programmable routing the system top also carries the route-table
    // port (`<name>_route_cfg_axil`, docs/integration.md).
    let qos = std::fs::read_to_string(repo_root().join("examples/nic/qos_p.toml")).unwrap();
    let prog = qos.replacen("mode = \"preemptive\"", "mode = \"preemptive\"\nrouting = \"programmable\"", 1);
    assert_ne!(prog, qos);
    jobs.push(("qos_p_programmable".into(), RouterConfig::from_toml_str(&prog, "qos_p_programmable").unwrap()));
    par_each(&jobs, 2, |(name, cfg)| {
        let files = generate_system(cfg, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let top = system_top_name(cfg);
        assert_eq!(files.last().unwrap().file_name, format!("{top}.v"));
        let mut names: Vec<&str> = files.iter().map(|f| f.file_name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), files.len(), "{name}: a file twice");
        for f in &files {
            let stem = f.file_name.trim_end_matches(".v");
            assert_eq!(f.text.matches("\nmodule ").count(), 1, "{}", f.file_name);
            assert!(f.text.contains(&format!("\nmodule {stem} ")), "{}", f.file_name);
            assert!(f.text.lines().all(|l| l.len() <= 100), "{}: a line over 100 columns", f.file_name);
        }
        let sys = &files.last().unwrap().text;
        assert_eq!(sys.contains("cfg_s_axil_awaddr_i"), cfg.programmable(), "{name}: the route-table port iff programmable");
        for k in 0..cfg.ports() {
            for port in ["s_axil_awaddr_i", "m_axi_araddr_o", "irq_o"] {
                assert!(sys.contains(&format!("p{k}_{port}")), "{name}: no p{k}_{port}");
            }
        }
        let t = format!("{name}-system");
        let dir = TempDir::new(&t);
        write_files(&dir.0, &files).unwrap();
        let list: Vec<String> = files.iter().map(|f| f.file_name.clone()).collect();
        verilator_lint(&dir.0, &top, &list, &t);
        iverilog_check(&dir.0, &list, &t);
        // Yosys on the two example files' system tops: the per-lane and
        // programmable variants change blocks that are synthesized alone
        // (the per-lane NIC above; per-lane routers in `tools.rs`'s QoS
        // synthesis, the programmable ring in synth's `flow`), and their
        // system tops' wiring is linted here (suite time: a system top's
        // `synth` is tens of CPU-seconds, docs/benchmarks.md).
        if name == "traditional" || name == "qos_p" {
            yosys_synth(&dir.0, &top, &list, &t);
        }
    });
}

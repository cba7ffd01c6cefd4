//! `wormqos generate` on a configuration with a `[nic]` section writes the
//! NIC (docs/nic.md) next to the router, and a bad `[nic]` field is the
//! project's bad-input case: exit 2, file:line, field, value, range, nothing
//! written.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wormqos_nic_cli_{}_{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn generate_writes_the_router_and_the_nic() {
    for (example, prefix) in [("qos_p", "nicq"), ("traditional", "nict")] {
        let out = tmp(example);
        let r = Command::new(env!("CARGO_BIN_EXE_wormqos"))
            .args(["generate", "--config"])
            .arg(root().join("examples/nic").join(format!("{example}.toml")))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(r.status.success(), "{example}: {}", String::from_utf8_lossy(&r.stderr));
        for m in ["router", "nic", "nic_regs", "nic_doorbells", "nic_tx", "nic_inject", "nic_wr", "nic_rx", "nic_fifo"] {
            assert!(out.join(format!("{prefix}_{m}.v")).is_file(), "{example}: no {prefix}_{m}.v");
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn a_bad_nic_field_exits_2_naming_it_and_writes_nothing() {
    let dir = tmp("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("bad.toml");
    let text = std::fs::read_to_string(root().join("examples/nic/qos_p.toml")).unwrap().replace("rx_contexts = 4", "rx_contexts = 0");
    assert!(text.contains("rx_contexts = 0"));
    std::fs::write(&cfg, &text).unwrap();
    let line = text.lines().position(|l| l.starts_with("rx_contexts")).unwrap() + 1;
    let out = dir.join("out");
    let r = Command::new(env!("CARGO_BIN_EXE_wormqos")).args(["generate", "--config"]).arg(&cfg).arg("--out").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("bad.toml:{line}")) && err.contains("nic.rx_contexts") && err.contains("= 0") && err.contains("1..=16"), "{err}");
    assert!(!out.exists(), "nothing is written for a bad configuration");
    let _ = std::fs::remove_dir_all(&dir);
}

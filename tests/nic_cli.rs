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

/// `generate --system`: the system top (docs/nic.md §16) with its file
/// list and FuseSoC core; FuseSoC itself (./setup.sh) runs the core's
/// `lint` target (Verilator -Wall) through Edalize's flow API.
#[test]
fn generate_system_writes_the_system_top_and_a_core_fusesoc_lints() {
    let out = tmp("system");
    let r = Command::new(env!("CARGO_BIN_EXE_wormqos"))
        .args(["generate", "--system", "--config"])
        .arg(root().join("examples/nic/traditional.toml"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for f in ["nict_system.v", "nict_router.v", "nict_nic.v", "nict_system.f", "nict_system.core", "nict_system.xdc"] {
        assert!(out.join(f).is_file(), "no {f}");
    }
    let list = std::fs::read_to_string(out.join("nict_system.f")).unwrap();
    assert!(list.lines().last() == Some("nict_system.v") && list.contains("nict_nic.v\n") && list.contains("nict_router.v\n"), "{list}");
    let top = std::fs::read_to_string(out.join("nict_system.v")).unwrap();
    assert!(top.contains("p3_m_axi_araddr_o") && top.contains("p0_s_axil_awaddr_i") && top.contains("p2_irq_o"), "host ports");
    let o = Command::new("python3")
        .args(["-m", "fusesoc.main", "--cores-root", out.to_str().unwrap(), "run", "--build-root"])
        .arg(out.join("build"))
        .args(["--target", "lint", "wormqos:system:nict"])
        .output()
        .expect("python3 with fusesoc (./setup.sh)");
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success() && !text.contains("deprecated"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// `--system` without a `[nic]` section: exit 2 naming the file, nothing written.
#[test]
fn generate_system_without_a_nic_section_exits_2() {
    let out = tmp("system_no_nic");
    let cfg = root().join("examples/tiny2.toml");
    let r = Command::new(env!("CARGO_BIN_EXE_wormqos")).args(["generate", "--system", "--config"]).arg(&cfg).arg("--out").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("tiny2.toml") && err.contains("[nic]"), "{err}");
    assert!(!out.exists(), "nothing is written");
}

/// A 2-node ring of 2-port round-robin routers with the QoS NIC at both
/// endpoints (`topology.endpoint_ports = "nic"`): the smallest NIC network,
/// so that `cosim` verilates it in about a minute.
const NIC_RING: &str = "name = \"nicring\"\n[router]\nports = 2\nvcs = 2\nflit_width = 64\ninput_buffer_depth = 4\n\
output_buffer_depth = 4\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"\n[topology]\nkind = \"ring\"\nnodes = 2\n\
links = 1\nendpoint_ports = \"nic\"\n[nic]\nvariant = \"qos\"\nmax_message_flits = 16\naxi_data_width = 32\nrx_contexts = 16\n\
[workload]\nload = 0.1\n";

/// The number before `what` in `text` (`"1234 messages received"`).
fn count_before(text: &str, what: &str) -> u64 {
    let head = &text[..text.find(what).unwrap_or_else(|| panic!("no `{what}` in {text}"))];
    head.split_whitespace().last().and_then(|w| w.trim_start_matches('(').parse().ok()).unwrap_or_else(|| panic!("{text}"))
}

/// `cosim --experiment` with NICs at the endpoints runs the system top
/// (network + NICs) against the composed model with NIC models, the hosts
/// sending through the AXI ports: every cycle compared, messages delivered.
/// A run in which no message arrives is refused (exit 2): nothing was
/// compared under traffic.
#[test]
fn cosim_runs_a_network_with_nics_in_lockstep() {
    let dir = tmp("cosim_nics");
    std::fs::create_dir_all(&dir).unwrap();
    let exp = dir.join("ring.toml");
    std::fs::write(&exp, NIC_RING).unwrap();
    let waves = dir.join("waves");
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_wormqos"));
        c.args(["cosim", "--experiment"]).arg(&exp).arg("--waveform-dir").arg(&waves).args(extra);
        c.output().unwrap()
    };
    let o = run(&["--cycles", "5000", "--injection-rate", "0.03", "--seed", "3"]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}{err}");
    assert!(err.contains("nicring_system") && err.contains("a NIC per endpoint"), "{err}");
    assert!(out.contains("RTL == model on every host output for "), "{out}");
    // 5000 cycles of sends, then the drain; every cycle compared.
    let cycles = count_before(&out, "cycles (");
    assert!(cycles >= 5000 && cycles == count_before(&out, "compared)"), "{out}");
    // 2 endpoints x 3 % x 5000 cycles = 300 doorbells; most are well formed
    // and both endpoints drain: ask for a sixth of them.
    assert!(count_before(&out, "messages received intact") >= 50, "{out}");
    // The same system (Verilator cache hit) with almost no sends: exit 2.
    let o = run(&["--cycles", "10", "--injection-rate", "0.00001"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("empty run: no message arrived in 10 cycles"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sim` of the preemptive router with per-lane credits (§9.4 *Credits*)
/// and the `[nic]` model at every endpoint: the NIC's injection names the
/// lanes (sim/netsim/src/nic.rs). The 003_… Fig. 9 P point, shortened to
/// 0.4 ms phases, at load 0.9 with round-robin VC choice so that real time
/// meets best effort in the router's input VCs. It must exit 0, deliver
/// all but the messages still in flight at the end, and differ from the
/// same run with per-VC credits (the lanes take effect).
#[test]
fn sim_runs_per_lane_credits_with_the_nic_model() {
    let dir = tmp("sim_per_lane");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = std::fs::read_to_string(root().join("experiments/fig9_003_p_avoid.toml")).unwrap();
    for (from, to) in [
        ("mode = \"preemptive\"\n", "mode = \"preemptive\"\npreemption_credits = \"per_lane\"\n"),
        ("vc_choice = \"avoid_lower_class\"\n", ""),
        ("load = 0.6\n", "load = 0.9\n"),
        ("phase_seconds = 0.07\n", "phase_seconds = 0.0004\n"),
        ("\nseconds = 0.35\n", "\nseconds = 0.004\n"),
        ("warmup_seconds = 0.035\n", "warmup_seconds = 0.0002\n"),
    ] {
        assert!(text.contains(from), "the experiment no longer has {from:?}");
        text = text.replacen(from, to, 1);
    }
    text.truncate(text.find("[sweep]").expect("a [sweep] section"));
    let run = |name: &str, text: &str| -> serde_json::Value {
        let (exp, json) = (dir.join(format!("{name}.toml")), dir.join(format!("{name}.json")));
        std::fs::write(&exp, text).unwrap();
        let r = Command::new(env!("CARGO_BIN_EXE_wormqos")).args(["sim", "--experiment"]).arg(&exp).arg("--json").arg(&json).output().unwrap();
        assert!(r.status.success(), "{name}: {}", String::from_utf8_lossy(&r.stderr));
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
    };
    let lanes = run("per_lane", &text);
    let (created, delivered) = (lanes["messages_created"].as_u64().unwrap(), lanes["messages_delivered"].as_u64().unwrap());
    // Thousands of messages in 50,000 cycles; the run stops at a fixed
    // time, so only those made in its last few µs (in a NIC or the router)
    // may be undelivered: a lost credit stalls a VC for good and fails this.
    assert!(created > 1000 && delivered * 100 >= created * 99, "created {created}, delivered {delivered}");
    let vcs = run("per_vc", &text.replacen("preemption_credits = \"per_lane\"\n", "", 1));
    assert_ne!(lanes["router_events"], vcs["router_events"], "per-lane credits at the NIC change nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

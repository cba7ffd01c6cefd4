//! `wormqos generate --experiment`: a whole network's files, and bad input
//! (exit 2, naming file, field, value and range, nothing written).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
/// A 2×2 mesh of 5-port routers, named `cli`.
use common::EXP as MESH;

fn wormqos(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wormqos")).args(args).output().expect("run wormqos")
}


fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wormqos_network_cli_{}_{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn generate(exp: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["generate", "--experiment", exp.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    wormqos(&args)
}

/// Exit 2, the message contains every part, and `out` was not created.
/// Each call gets its own scratch directory: tests run in parallel threads
/// of one process, and a shared one let one test's file replace another's.
fn refused(exp_text: &str, extra: &[&str], parts: &[&str]) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let d = scratch(&format!("bad{}", CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let f = d.join("e.toml");
    std::fs::write(&f, exp_text).unwrap();
    let out = d.join("out");
    let o = generate(&f, &out, extra);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for p in parts {
        assert!(err.contains(p), "{p:?} not in: {err}");
    }
    assert!(!out.exists(), "nothing may be written: {err}");
}

#[test]
fn generate_writes_every_router_the_top_and_the_file_list() {
    let d = scratch("ok");
    let f = d.join("e.toml");
    std::fs::write(&f, MESH.replace("k = 2", "k = 2\nlink_latency = 1")).unwrap();
    let out = d.join("out");
    let o = generate(&f, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let list = std::fs::read_to_string(out.join("cli_network.f")).unwrap();
    let files: Vec<&str> = list.lines().collect();
    assert_eq!(files.last(), Some(&"cli_network.v"));
    for r in 0..4 {
        assert!(files.contains(&format!("cli_r{r}_router.v").as_str()), "router {r} missing from {list}");
    }
    for name in &files {
        assert!(out.join(name).exists(), "{name} listed but not written");
    }
    let top = std::fs::read_to_string(out.join("cli_network.v")).unwrap();
    assert!(top.contains("module cli_network") && top.contains("link latency 1"), "{top}");
    for extra in ["cli_network.core", "cli_network_vivado.tcl", "cli_network.xdc"] {
        assert!(out.join(extra).exists(), "{extra}");
    }
    // A file of a generated name that wormqos did not write stays as it is.
    let foreign = d.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("cli_network.v"), "mine").unwrap();
    let o = generate(&f, &foreign, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(foreign.join("cli_network.v")).unwrap(), "mine");
    assert!(!foreign.join("cli_r0_router.v").exists());
}

#[test]
fn bad_networks_exit_2_and_write_nothing() {
    refused(&MESH.replace("k = 2", "k = 2\nlink_latency = 17"), &[], &["e.toml:13", "topology.link_latency = 17", "0..=16"]);
    refused(MESH, &["--link-latency", "1"], &["--link-latency 1", "field `topology.link_latency`", "0..=16"]);
    refused(&MESH.replace("ports = 5", "ports = 4"), &[], &["e.toml", "router.ports", "5"]);
    refused(&MESH.replace("k = 2", "k = 6"), &[], &["e.toml:", "topology", "endpoints = 36", "2..=32"]);
}

/// FuseSoC itself (./setup.sh installs it) runs the generated cores' lint
/// target, Verilator -Wall, through Edalize's flow API: no deprecation
/// warning, and a failing lint fails the run.
fn fusesoc_lint(dir: &Path, vlnv: &str) -> std::process::Output {
    Command::new("python3")
        .args(["-m", "fusesoc.main", "--cores-root", dir.to_str().unwrap(), "run", "--build-root"])
        .arg(dir.join("build"))
        .args(["--target", "lint", vlnv])
        .output()
        .expect("python3 with fusesoc (./setup.sh)")
}

#[test]
fn fusesoc_runs_the_router_and_network_cores_with_the_flow_api() {
    let d = scratch("fusesoc");
    let f = d.join("e.toml");
    std::fs::write(&f, MESH).unwrap();
    let net = d.join("net");
    assert!(generate(&f, &net, &[]).status.success());
    let router = d.join("router");
    let cfg = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/tiny2.toml");
    let o = wormqos(&["synth", "--config", cfg.to_str().unwrap(), "--emit-only", "--out", router.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (dir, vlnv) in [(&net, "wormqos:network:cli"), (&router, "wormqos:router:tiny2")] {
        let o = fusesoc_lint(dir, vlnv);
        let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success() && !text.contains("deprecated"), "{vlnv}: {text}");
    }
    // The lint target really lints: a warning makes the run fail.
    let top = net.join("cli_network.v");
    let text = std::fs::read_to_string(&top).unwrap();
    std::fs::write(&top, text.replace("  wire unused_ports;", "  wire unused_ports;\n  wire stray_wire;")).unwrap();
    assert!(!fusesoc_lint(&net, "wormqos:network:cli").status.success(), "an unused wire must fail the lint target");
}

/// `cosim --experiment`: a 2-router ring with 3 registers per link
/// (`topology.link_latency`), RTL against the composed model; a link latency
/// out of range exits 2.
#[test]
fn cosim_runs_a_network_in_lockstep() {
    let d = scratch("cosim");
    let f = d.join("ring.toml");
    let ring = MESH.replace("ports = 5", "ports = 2").replace("kind = \"mesh\"\nk = 2", "kind = \"ring\"\nnodes = 2\nlinks = 1");
    let waves = d.join("waves");
    let run = |latency: &str| {
        std::fs::write(&f, ring.replace("links = 1", &format!("links = 1\nlink_latency = {latency}"))).unwrap();
        let args = ["cosim", "--experiment", f.to_str().unwrap(), "--cycles", "5000"];
        wormqos(&[&args[..], &["--waveform-dir", waves.to_str().unwrap()]].concat())
    };
    let o = run("3");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("RTL == model on every output"), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("3 register(s) per link"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run("17");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("topology.link_latency = 17: pipeline registers per link: allowed range 0..=16"));
}

/// `[reconfigure]` (docs/integration.md, "Changing routes at run time"): a
/// multilink ring of 4 nodes, one link each way, programmable.
fn prog_ring(reconfigure: &str) -> String {
    MESH.replace("ports = 5", "ports = 3\nrouting = \"programmable\"")
        .replace("kind = \"mesh\"\nk = 2", "kind = \"multilink_ring\"\nnodes = 4\nlinks = 1")
        + "[reconfigure]\n"
        + reconfigure
}

#[test]
fn generate_writes_the_checked_route_writes() {
    let d = scratch("rewrite");
    let f = d.join("e.toml");
    std::fs::write(&f, prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1 }\n")).unwrap();
    let out = d.join("out");
    let o = generate(&f, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("cli_network_route_writes.txt")).unwrap();
    // By hand: router 0 sent destination 3 (one hop back) on the − link,
    // port 2; the unidirectional ring sends it + (port 1), and as it no
    // longer crosses the wrap link 3 -> 0 (3 > 0), dateline class 1 = VC 1.
    assert!(text.lines().any(|l| l == "0 3 1 10"), "{text}");
    // Destination 1 of router 0 was + already, before the wrap: no write.
    assert!(!text.lines().any(|l| l.starts_with("0 1 ")), "{text}");
    let top = std::fs::read_to_string(out.join("cli_network.v")).unwrap();
    for port in ["cfg_we_i", "cfg_addr_i", "cfg_port_i", "cfg_avc_i"] {
        assert!(top.contains(port), "{port} missing from the network top");
    }
}

/// Item 5 of issue 21: bad (re)configuration tables exit 2, name the
/// field, and write nothing.
#[test]
fn bad_reconfiguration_tables_exit_2_and_write_nothing() {
    // Routes of the 2x2 mesh, written out (XY, by hand); router 0 at
    // (0, 0) then sends destination 1 on port 2 (−x), which has no link.
    let routes = "routes = [[0, 2, 3, 1], [2, 0, 2, 3], [4, 1, 0, 1], [2, 4, 2, 0]]\n";
    let mesh = MESH.replace("ports = 5", "ports = 5\nrouting = \"programmable\"") + "[reconfigure]\n";
    refused(&(mesh.clone() + routes), &[], &["e.toml", "reconfigure", "routers[0] routes[1] = port 2", "missing link"]);
    // The correct table passes.
    let ok = mesh.clone() + "routes = [[0, 1, 3, 1], [2, 0, 2, 3], [4, 1, 0, 1], [2, 4, 2, 0]]\n";
    let d = scratch("okmesh");
    std::fs::write(d.join("e.toml"), &ok).unwrap();
    assert!(generate(&d.join("e.toml"), &d.join("out"), &[]).status.success());
    // A port the router does not have.
    refused(&(mesh.clone() + "routes = [[0, 1, 3, 9], [2, 0, 2, 3], [4, 1, 0, 1], [2, 4, 2, 0]]\n"), &[], &["reconfigure.routes[0][3] = 9", "0..=4"]);
    // A ring without its dateline classes: a cycle of the channel
    // dependency graph, named by its channels.
    refused(&prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1, dateline = false }\n"), &[], &["reconfigure", "cycle", "router 3 port 1 VC", "(to router 0)"]);
    // New tables for constant tables.
    refused(&(MESH.to_string() + "[reconfigure]\n" + routes), &[], &["reconfigure", "router.routing = \"programmable\""]);
    // A time for the reconfiguration outside the run, or no drain time.
    refused(&prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1 }\nat_cycle = 3000\n"), &[], &["e.toml", "reconfigure.at_cycle = 3000", "0..=2999"]);
    refused(&prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1 }\ndrain_limit = 0\n"), &[], &["reconfigure.drain_limit = 0", "1..="]);
    // The topology needs more ports than the router has (an existing check).
    refused(&prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1 }\n").replace("ports = 3", "ports = 2"), &[], &["router.ports", "3"]);
}

/// `topology.endpoint_ports = "nic"` (experiments/nic_mesh2x2.toml): the
/// top `nicmesh_system` over the network top and a NIC per endpoint, its
/// file list, XDC, Vivado script and FuseSoC core, whose lint target
/// (Verilator -Wall through Edalize's flow API) passes.
#[test]
fn generate_with_nics_at_the_endpoints_writes_the_system_top_and_its_core() {
    let d = scratch("nic");
    let exp = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments/nic_mesh2x2.toml");
    let out = d.join("out");
    let o = generate(&exp, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let list = std::fs::read_to_string(out.join("nicmesh_system.f")).unwrap();
    let files: Vec<&str> = list.lines().collect();
    assert_eq!(files.last(), Some(&"nicmesh_system.v"));
    for f in ["nicmesh_network.v", "nicmesh_r3_router.v", "nicmesh_nic.v"] {
        assert!(files.contains(&f), "{f} missing from {list}");
    }
    for name in &files {
        assert!(out.join(name).exists(), "{name} listed but not written");
    }
    let top = std::fs::read_to_string(out.join("nicmesh_system.v")).unwrap();
    for k in 0..4 {
        for port in ["s_axil_awvalid_i", "m_axi_araddr_o", "irq_o"] {
            assert!(top.contains(&format!("p{k}_{port}")), "p{k}_{port} missing");
        }
    }
    assert!(top.contains("nicmesh_network u_network") && !top.contains("p4_"), "{top}");
    for extra in ["nicmesh_system.core", "nicmesh_system_vivado.tcl", "nicmesh_system.xdc"] {
        assert!(out.join(extra).exists(), "{extra}");
    }
    let o = fusesoc_lint(&out, "wormqos:system:nicmesh");
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success() && !text.contains("deprecated"), "{text}");
}

#[test]
fn bad_endpoint_choices_exit_2_and_write_nothing() {
    let nic = std::fs::read_to_string(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments/nic_mesh2x2.toml")).unwrap();
    refused(&nic.replace("endpoint_ports = \"nic\"", "endpoint_ports = \"nics\""), &[], &["e.toml", "endpoint_ports = \"nics\"", "`raw` or `nic`"]);
    let without: String = nic.split("[nic]").next().unwrap().to_string() + "[workload]\nload = 0.1\n";
    refused(&without, &[], &["e.toml:", "topology.endpoint_ports = \"nic\"", "[nic] section", "allowed values"]);
    refused(&nic.replace("endpoint_ports = \"nic\"", "endpoint_ports = \"raw\""), &[], &["nic.max_message_flits = 16", "endpoint_ports = \"nic\"", "allowed values"]);
    refused(&nic.replace("axi_data_width = 32", "axi_data_width = 48"), &[], &["e.toml", "field `nic.axi_data_width` = 48", "allowed values: 32, 64"]);
}

/// `sim` runs the `[reconfigure]` section (the safe procedure at
/// `reconfigure.at_cycle`) and prints what it did; `model` refuses it (a
/// steady-state model has no transient); `cosim` refuses an `at_cycle`
/// outside its `--cycles` before verilating; `sim` refuses it beside a
/// `[nic]` section (the NIC models are not quiesced).
#[test]
fn sim_runs_a_reconfiguration_and_the_others_refuse_what_they_cannot_do() {
    let d = scratch("simre");
    let f = d.join("e.toml");
    std::fs::write(&f, prog_ring("topology = { kind = \"ring\", nodes = 4, links = 1 }\nat_cycle = 1500\n").replace("cycles = 3000", "cycles = 3000\ndrain_cycles = 3000")).unwrap();
    let o = wormqos(&["sim", "--experiment", f.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("reconfiguration: quiesced at cycle 1500, drained at "), "{out}");
    let o = wormqos(&["model", "--experiment", f.to_str().unwrap(), "--out", d.join("model").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("field `reconfigure`") && err.contains("allowed values"), "{err}");
    assert!(!d.join("model").exists());
    let o = wormqos(&["cosim", "--experiment", f.to_str().unwrap(), "--cycles", "1000"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("field `reconfigure.at_cycle` = 1500") && err.contains("0..=999") && !err.contains("verilating"), "{err}");
    let nic = std::fs::read_to_string(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments/nic_mesh2x2.toml")).unwrap();
    // NIC models at raw endpoints: with endpoint_ports = "nic" the
    // programmable tables are refused earlier (no AXI4-Lite table port).
    let nic: String = nic
        .lines()
        .filter(|l| !["endpoint_ports", "max_message_flits", "axi_data_width", "max_burst", "rx_contexts"].iter().any(|f| l.starts_with(f)))
        .map(|l| format!("{l}\n"))
        .collect();
    let nic = nic.replace("mode = \"preemptive\"", "mode = \"preemptive\"\nrouting = \"programmable\"")
        + "[reconfigure]\nroutes = [[0, 1, 3, 1], [2, 0, 2, 3], [4, 1, 0, 1], [2, 4, 2, 0]]\n";
    std::fs::write(&f, nic).unwrap();
    let o = wormqos(&["sim", "--experiment", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("field `reconfigure` with a [nic] section") && err.contains("allowed values"), "{err}");
}

/// Programmable tables beyond what their registers hold (issue 21):
/// more than 256 destination codes (a 17×17 mesh: 289 endpoints, a 9-bit
/// destination field, 512 codes) and parallel links (a fat mesh with
/// `route_links` groups of 2). Both: exit 2, the field named with its
/// range, nothing written, from `generate` and `sim`. The boundary passes:
/// a 16×16 mesh has exactly 256 codes.
#[test]
fn programmable_tables_beyond_their_registers_exit_2_and_write_nothing() {
    let programmable = MESH.replace("ports = 5", "ports = 5\nrouting = \"programmable\"").replace("flit_width = 32", "flit_width = 64");
    let big = programmable.replace("k = 2", "k = 17");
    let parts = ["e.toml", "router.routing = \"programmable\"", "512 codes", "allowed range 1..=256 codes"];
    refused(&big, &[], &parts);
    let fat = MESH
        .replace("ports = 5", "ports = 8\nrouting = \"programmable\"")
        .replace("kind = \"mesh\"\nk = 2", "kind = \"fat_mesh\"\nk = 2\nlinks = 2\nendpoints = 4");
    let fat_parts = ["e.toml", "router.routing` = \"programmable\"", "route_links allowed range 1..=1"];
    refused(&fat, &[], &fat_parts);
    for (text, parts) in [(&big, &parts[..]), (&fat, &fat_parts[..])] {
        let d = scratch("simbig");
        std::fs::write(d.join("e.toml"), text).unwrap();
        let json = d.join("r.json");
        let o = wormqos(&["sim", "--experiment", d.join("e.toml").to_str().unwrap(), "--json", json.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        for p in parts {
            assert!(err.contains(p), "{p:?} not in: {err}");
        }
        assert!(!json.exists());
    }
    let d = scratch("sim256");
    std::fs::write(d.join("e.toml"), programmable.replace("k = 2", "k = 16").replace("cycles = 3000", "cycles = 300")).unwrap();
    let o = wormqos(&["sim", "--experiment", d.join("e.toml").to_str().unwrap()]);
    assert!(o.status.success(), "256 codes fit: {}", String::from_utf8_lossy(&o.stderr));
}

/// Programmable routing with NICs at the endpoints (refused with exit 2
/// before the route-table port existed, a1b42e1): the system top brings
/// the tables out as the AXI4-Lite slave `cfg_s_axil_*` (docs/integration.md,
/// "The route-table port of a system top"), wired to every router's strobe.
#[test]
fn generate_with_nics_and_programmable_tables_writes_the_route_table_port() {
    let d = scratch("nic_prog");
    let text = std::fs::read_to_string(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("experiments/nic_mesh2x2.toml")).unwrap();
    let exp = d.join("e.toml");
    std::fs::write(&exp, text.replacen("[router]\n", "[router]\nrouting = \"programmable\"\n", 1)).unwrap();
    let out = d.join("out");
    let o = generate(&exp, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let list = std::fs::read_to_string(out.join("nicmesh_system.f")).unwrap();
    assert!(list.lines().any(|l| l == "nicmesh_route_cfg_axil.v"), "{list}");
    let top = std::fs::read_to_string(out.join("nicmesh_system.v")).unwrap();
    for port in ["cfg_s_axil_awaddr_i", "cfg_s_axil_wstrb_i", "cfg_s_axil_bresp_o", "cfg_s_axil_rdata_o"] {
        assert!(top.contains(port), "{port} missing");
    }
    // 4 routers: one strobe each, the 2-bit code replicated to every router.
    assert!(top.contains(".cfg_we_i(table_we)") && top.contains(".cfg_addr_i({4{table_addr}})"), "{top}");
}

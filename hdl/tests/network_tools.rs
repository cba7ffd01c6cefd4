//! The network top (`wormqos_hdl::network`) against the external tools
//! (Verilator -Wall, Icarus -g2005, Yosys) on networks the network simulator
//! builds, and its validation of bad network descriptions.

mod common;

use common::*;
use std::path::PathBuf;
use wormqos_hdl::network::{generate_network, network_top_name, Attach, NetworkDesign, NetworkGenError};
use wormqos_hdl::system::{generate_network_system, system_top_name};
use wormqos_netsim::topology::Peer;
use wormqos_netsim::Experiment;

/// The network of an experiment with this router and topology.
fn design(name: &str, router: &str, topology: &str, link_latency: u32) -> NetworkDesign {
    let text = format!(
        "name = \"{name}\"\n[router]\nflit_width = 32\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n{router}\n\
         [topology]\n{topology}\n[workload]\nload = 0.1\n"
    );
    let v = Experiment::from_str(&text, name, PathBuf::new()).unwrap_or_else(|e| panic!("{e}"));
    let to = |p: &Peer| match *p {
        Peer::Router { router, port } => Attach::Router { router, port },
        Peer::Endpoint(e) => Attach::Endpoint(e),
        Peer::Unused => Attach::Unused,
    };
    NetworkDesign {
        name: name.to_string(),
        routers: v.configs.clone(),
        in_link: v.net.in_link.iter().map(|l| l.iter().map(to).collect()).collect(),
        out_link: v.net.out_link.iter().map(|l| l.iter().map(to).collect()).collect(),
        endpoint_at: v.net.endpoint_at.clone(),
        link_latency,
    }
}

const RR: &str = "vcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"round_robin\"";

fn networks() -> Vec<NetworkDesign> {
    vec![
        design("fm", &format!("ports = 8\n{RR}"), "kind = \"fat_mesh\"\nk = 2\nlinks = 2\nendpoints = 4", 0),
        design("cube", "ports = 4\nvcs = 2\ncrossbar = \"full\"\nscheduler = \"fifo\"", "kind = \"hypercube\"\nn = 3", 2),
        design("ring", &format!("ports = 3\n{RR}"), "kind = \"torus\"\nk = 4\nn = 1", 1),
        design(
            "pm",
            "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\nclock_width = 10\nvtick_width = 10",
            "kind = \"mesh\"\nk = 2",
            1,
        ),
        // per-lane credits: the lane wires between routers and at the endpoints
        design(
            "pml",
            "ports = 5\nvcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n\
             preemption_credits = \"per_lane\"\nclock_width = 10\nvtick_width = 10",
            "kind = \"mesh\"\nk = 2",
            0,
        ),
    ]
}

fn write(net: &NetworkDesign) -> (TempDir, String, Vec<String>) {
    let files = generate_network(net, None).unwrap_or_else(|e| panic!("{}: {e}", net.name));
    let dir = TempDir::new(&net.name);
    wormqos_hdl::write_files(&dir.0, &files).unwrap();
    (dir, network_top_name(&net.name), files.iter().map(|f| f.file_name.clone()).collect())
}

#[test]
fn network_tops_are_lint_clean_and_accepted_by_iverilog() {
    par_each(&networks(), threads(), |net| {
        let (dir, top, files) = write(net);
        let text = std::fs::read_to_string(dir.0.join(format!("{top}.v"))).unwrap();
        assert!(text.contains("`default_nettype none") && text.lines().all(|l| l.len() <= 100), "{top}");
        assert_eq!(text.matches("\nmodule ").count(), 1, "{top}: one module per file");
        verilator_lint(&dir.0, &top, &files, &net.name);
        iverilog_check(&dir.0, &files, &net.name);
    });
}

#[test]
fn a_small_network_top_synthesizes_with_yosys() {
    let net = design("ring2", &format!("ports = 2\n{RR}"), "kind = \"ring\"\nnodes = 2\nlinks = 1", 1);
    let (dir, top, files) = write(&net);
    yosys_synth(&dir.0, &top, &files, "ring2");
}

fn invalid(net: &NetworkDesign) -> String {
    match generate_network(net, None) {
        Err(NetworkGenError::Invalid(e)) => e.to_string(),
        other => panic!("accepted: {:?}", other.map(|f| f.len())),
    }
}

#[test]
fn bad_network_descriptions_are_refused_naming_field_value_and_range() {
    let good = design("m2", &format!("ports = 5\n{RR}"), "kind = \"mesh\"\nk = 2", 0);
    let mut n = good.clone();
    n.link_latency = 17;
    assert_eq!(invalid(&n), "link_latency = 17: allowed range 0..=16");
    // Router 0's +x link (port 1, to router 1) removed: its table still
    // routes endpoint 1 there.
    let mut n = good.clone();
    n.out_link[0][1] = Attach::Unused;
    n.in_link[1][2] = Attach::Unused;
    let e = invalid(&n);
    assert!(e.starts_with("routers[0] (m2_r0) topology.routes[1] = port 1:") && e.contains("missing link"), "{e}");
    // Half a link: the output names an input that does not name it back.
    let mut n = good.clone();
    n.in_link[1][2] = Attach::Unused;
    let e = invalid(&n);
    assert!(e.starts_with("out_link[0][1] = router 1 port 2:"), "{e}");
    let mut n = good;
    n.endpoint_at.truncate(1);
    assert!(invalid(&n).starts_with("endpoints = 1: allowed range 2..=32"));
}

/// The NIC at every endpoint of a 2×2 mesh of 5-port preemptive routers,
/// configured independently of the generator: one switch with a port per
/// endpoint, the routers' router fields, a `[nic]` section.
fn mesh_with_nics(nic_ports: u32, nic_depth: u32) -> (NetworkDesign, wormqos_config::RouterConfig) {
    let router = "vcs = 2\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\nclock_width = 10\nvtick_width = 10";
    let mut net = design("nm", &format!("ports = 5\n{router}"), "kind = \"mesh\"\nk = 2", 1);
    // The NIC's payload (32-bit AXI beats) and tag need 64-bit flits.
    for c in &mut net.routers {
        let mut f = c.file().clone();
        f.router.flit_width = 64;
        *c = wormqos_config::RouterConfig::new(f).unwrap();
    }
    let text = format!(
        "name = \"nm\"\n[router]\nports = {nic_ports}\nflit_width = 64\ninput_buffer_depth = {nic_depth}\ndownstream_buffer_depth = 4\noutput_buffer_depth = 2\n{router}\n\
         [topology]\nkind = \"single_switch\"\n[nic]\nvariant = \"qos\"\nmax_message_flits = 8\nbuffer_depth = 4\n"
    );
    (net, wormqos_config::RouterConfig::from_toml_str(&text, "nm.toml").unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn a_network_top_with_nics_is_lint_clean_and_accepted_by_iverilog_and_yosys() {
    let (net, nic) = mesh_with_nics(4, 4);
    let files = generate_network_system(&net, &nic, None, None).unwrap_or_else(|e| panic!("{e}"));
    let dir = TempDir::new("nm");
    wormqos_hdl::write_files(&dir.0, &files).unwrap();
    let names: Vec<String> = files.iter().map(|f| f.file_name.clone()).collect();
    let top = system_top_name(&nic);
    assert_eq!(top, "nm_system");
    assert_eq!(names.last(), Some(&format!("{top}.v")));
    let text = std::fs::read_to_string(dir.0.join(format!("{top}.v"))).unwrap();
    assert!(text.lines().all(|l| l.len() <= 100) && text.contains("`default_nettype none"));
    // The network top once, a NIC on each of the 4 endpoints, every
    // endpoint's host ports brought out.
    assert_eq!(text.matches(" u_network (").count() + text.matches(" u_network(").count(), 1, "{text}");
    for k in 0..4 {
        assert!(text.contains(&format!("u_nic{k}")) && text.contains(&format!("p{k}_s_axil_awaddr_i")) && text.contains(&format!("p{k}_irq_o")), "NIC {k}");
    }
    assert!(!text.contains("p4_"), "only 4 endpoints");
    verilator_lint(&dir.0, &top, &names, "nm");
    iverilog_check(&dir.0, &names, "nm");
    // Yosys elaborates the whole hierarchy (every module found, every port
    // connected, processes converted); the full `synth` of 4 routers and 4
    // NICs takes minutes on 2 cores (`wormqos synth --experiment` runs it).
    let script = format!("read_verilog {}; hierarchy -check -top {top}; proc; check -assert", names.join(" "));
    let o = std::process::Command::new("yosys").current_dir(&dir.0).args(["-q", "-p", &script]).output().unwrap();
    assert!(o.status.success(), "yosys: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

#[test]
fn nics_that_do_not_fit_the_network_are_refused() {
    for (ports, depth, why) in [(5, 4, "a port per endpoint"), (4, 6, "the routers' input depth")] {
        let (net, nic) = mesh_with_nics(ports, depth);
        match generate_network_system(&net, &nic, None, None) {
            Err(NetworkGenError::Invalid(e)) => {
                let e = e.to_string();
                assert!(e.starts_with("nic endpoint configuration = nm:") && e.contains("4 ports and the vcs"), "{why}: {e}");
            }
            other => panic!("{why}: accepted: {:?}", other.map(|f| f.len())),
        }
    }
}

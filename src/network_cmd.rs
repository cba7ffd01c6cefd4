//! `wormqos generate --experiment F --out DIR`: a whole network as one
//! Verilog top (issue 21), from the experiment file the network simulator
//! runs: every router's files (each with its own routing table), the top
//! `<name>_network.v`, a file list, and the FuseSoC core, Vivado script and
//! XDC of a router's `synth --emit-only`.
//!
//! The link latency comes from the experiment file only
//! (`topology.link_latency`), as for `sim` and `sweep`, so that every
//! command built on one file simulates, checks and builds the same network;
//! the former `--link-latency` flag is refused with a pointer to the field.
//!
//! With `topology.endpoint_ports = "nic"` the top is `<name>_system`: the
//! network top with a NIC (configured by the experiment's `[nic]`) at every
//! endpoint, whose host ports are `p<k>_*` (docs/integration.md, "A whole
//! network with a NIC at every endpoint"); `cosim` then runs the hosts'
//! lockstep of that top against the composed model with NIC models.

use crate::validate::{claim_dir, invalid};
use anyhow::Context;
use std::path::Path;
use wormqos_hdl::network::{network_top_name, NetworkGenError, MAX_LINK_LATENCY};
use wormqos_hdl::system::{generate_network_system, system_top_name};
use wormqos_hdl::GeneratedFile;
use wormqos_netsim::experiment::{bounds, EndpointPorts};
use wormqos_netsim::Experiment;
use wormqos_synth::{scripts, Design, Unit};
use wormqos_testbench::lockstep::LockstepOptions;
use wormqos_testbench::network::{
    composed, composed_system, design, endpoint_config, network_name, network_traffic, nic_endpoint_config, verilate, verilate_system,
};
use wormqos_testbench::nic::system::{run_system, SystemDut, SystemRunOptions};

// Every link latency the simulator accepts can be generated.
const _: () = assert!(bounds::LINK_LATENCY == MAX_LINK_LATENCY);

/// The removed `--link-latency N` flag (still parsed, hidden): refused, since
/// a second source of the latency could contradict the file's.
fn refuse_link_latency_flag(flag: Option<u32>, experiment: &Path) -> anyhow::Result<()> {
    match flag {
        None => Ok(()),
        Some(n) => Err(invalid(format!(
            "--link-latency {n}: the link latency is the experiment's field `topology.link_latency` (allowed range 0..={}), read by sim, sweep, generate, cosim and synth alike; set it in {} and drop the flag",
            bounds::LINK_LATENCY,
            experiment.display()
        ))),
    }
}

/// The validated experiment and its network with the file's link latency
/// (bad input: exit 2).
fn load(experiment: &Path, link_latency_flag: Option<u32>) -> anyhow::Result<(wormqos_netsim::Validated, wormqos_hdl::network::NetworkDesign)> {
    refuse_link_latency_flag(link_latency_flag, experiment)?;
    let v = Experiment::from_file(experiment).map_err(|e| invalid(e.to_string()))?;
    if v.exp.model.switching == wormqos_netsim::experiment::Switching::Pcs {
        // A model-only comparison: there is no PCS router to generate or check.
        return Err(invalid(format!(
            "{}: model.switching = \"pcs\" is model-only (the PCS set-up model of `wormqos sim`), no RTL: allowed values here: \"wormhole\"",
            v.file
        )));
    }
    let text = wormqos_config::files::read_capped(experiment).unwrap_or_default();
    crate::validate::refuse_model_only(&v.configs[0], &v.file, &text)?;
    let net = design(&v, v.exp.topology.link_latency);
    net.validate().map_err(|e| {
        // The network is derived from `[topology]`: point at it.
        let text = wormqos_config::files::read_capped(experiment).unwrap_or_default();
        invalid(format!("{}: topology: {e}", wormqos_config::files::at(&v.file, &text, "topology")))
    })?;
    Ok((v, net))
}

/// `wormqos cosim --experiment F`: the network top against the composed
/// model, the lockstep's random traffic at the endpoints (with NICs at the
/// endpoints: the hosts' random sends through every NIC).
pub fn cosim(experiment: &Path, link_latency_flag: Option<u32>, mut opts: LockstepOptions) -> anyhow::Result<()> {
    let (v, net) = load(experiment, link_latency_flag)?;
    let link_latency = net.link_latency;
    if v.exp.topology.endpoint_ports == EndpointPorts::Nic {
        return cosim_with_nics(&v, &opts);
    }
    let cfg = endpoint_config(&v).map_err(|e| invalid(format!("{e:#}")))?;
    opts.traffic = wormqos_testbench::stimulus::TrafficParams { injection_rate: opts.traffic.injection_rate, ..network_traffic() };
    if let Some(t) = &v.reconfigure {
        // The safe procedure at `reconfigure.at_cycle` (as `sim` runs it),
        // else half way through the injection cycles.
        let at = t.at_cycle.unwrap_or(opts.cycles / 2);
        if at >= opts.cycles {
            return Err(invalid(format!(
                "{}: field `reconfigure.at_cycle` = {at}: the quiesce must fall within cosim's --cycles {} injection cycles: allowed range 0..={}",
                v.file,
                opts.cycles,
                opts.cycles.saturating_sub(1)
            )));
        }
        let writes = t.writes(&v.configs);
        eprintln!("reconfiguring at cycle {at}: {} table writes after the drain", writes.len());
        let settle = wormqos_netsim::experiment::settle_cycles(link_latency);
        opts.reconfigure = Some(wormqos_testbench::lockstep::Reconfiguration { quiesce_at: at, settle, writes, after: cfg.clone() });
    }
    wormqos_testbench::verilator::clean_up_on_signals()?;
    eprintln!("verilating {} ({} routers, {link_latency} register(s) per link) ...", network_top_name(&network_name(&v)), v.net.routers);
    let mut rtl = verilate(&v, link_latency, None)?;
    let mut model = composed(&v, link_latency);
    crate::run_cosim(&cfg, &mut rtl, &mut model, &opts)
}

/// The network top with NICs against the composed model with NIC models:
/// every endpoint's host outputs compared every cycle, the hosts' sends at
/// `--injection-rate` per endpoint and cycle, with end-to-end conservation
/// (`wormqos_testbench::nic::system`).
fn cosim_with_nics(v: &wormqos_netsim::Validated, opts: &LockstepOptions) -> anyhow::Result<()> {
    let cfg = nic_endpoint_config(v).map_err(|e| invalid(format!("{e:#}")))?;
    wormqos_testbench::verilator::clean_up_on_signals()?;
    eprintln!("verilating {} ({} routers, a NIC per endpoint) ...", system_top_name(&cfg), v.net.routers);
    let mut rtl = verilate_system(v, None, None)?;
    let mut model = composed_system(v)?;
    let o = SystemRunOptions { cycles: opts.cycles, seed: opts.seed, send_rate: opts.traffic.injection_rate, ..SystemRunOptions::default() };
    let start = std::time::Instant::now();
    let duts: &mut [&mut dyn SystemDut] = &mut [&mut model, &mut rtl];
    let r = run_system(&cfg, duts, &o)?;
    println!("{r}");
    if r.messages_received == 0 {
        return Err(invalid(format!(
            "empty run: no message arrived in {} cycles at --injection-rate {}; nothing was compared under traffic (raise --cycles or --injection-rate)",
            opts.cycles, opts.traffic.injection_rate
        )));
    }
    println!("RTL == model on every host output for {} cycles ({:.0} cycles/s in lockstep)", r.cycles, r.cycles as f64 / start.elapsed().as_secs_f64());
    Ok(())
}

/// The network of an experiment as a synthesizable design (bad input: exit 2).
pub fn synth_design(experiment: &Path, link_latency_flag: Option<u32>) -> anyhow::Result<Design> {
    let (v, net) = load(experiment, link_latency_flag)?;
    if v.exp.topology.endpoint_ports == EndpointPorts::Nic {
        let cfg = nic_endpoint_config(&v).map_err(|e| invalid(format!("{e:#}")))?;
        let rtl = generate_network_system(&net, &cfg, None, None).map_err(|e| match e {
            NetworkGenError::Invalid(e) => invalid(format!("{}: {e}", v.file)),
            NetworkGenError::Hdl(e) => anyhow::Error::new(e).context("generating the network's Verilog"),
        })?;
        return Ok(Design { name: cfg.name().to_string(), unit: Unit::System, top: system_top_name(&cfg), target_mhz: cfg.target_mhz(), rtl });
    }
    let cfg = endpoint_config(&v).map_err(|e| invalid(format!("{e:#}")))?;
    Ok(Design {
        name: cfg.name().to_string(),
        unit: Unit::Network,
        top: network_top_name(&network_name(&v)),
        target_mhz: cfg.target_mhz(),
        rtl: wormqos_hdl::network::generate_network(&net, None).context("generating the network's Verilog")?,
    })
}

pub fn generate(experiment: &Path, out: &Path, link_latency_flag: Option<u32>, force: bool) -> anyhow::Result<()> {
    // Everything is validated and generated in memory before `out` is touched.
    let d = synth_design(experiment, link_latency_flag)?;
    let mut files = with_flow_files(&d)?;
    let (v, _) = load(experiment, link_latency_flag)?;
    if let Some(t) = &v.reconfigure {
        files.push(GeneratedFile { file_name: format!("{}_route_writes.txt", d.top), text: route_writes_text(&v, t) });
    }
    write_generated(out, &files, force)
}

/// The `[reconfigure]` tables as the writes a controller performs on the
/// network top's write ports (docs/integration.md, "Changing routes at run
/// time"), one per line, after the quiesce and drain.
fn route_writes_text(v: &wormqos_netsim::Validated, t: &wormqos_netsim::experiment::NewTables) -> String {
    let mut s = String::from("# Generated by wormqos from the [reconfigure] section (checked: no missing link,\n");
    s.push_str("# right endpoint, a VC of every class, acyclic channel dependency graph).\n");
    s.push_str("# Quiesce and drain the network first (docs/integration.md), then per line drive\n");
    s.push_str("# cfg_we_i[router] = 1, cfg_addr_i = code, cfg_port_i = port, cfg_avc_i = avc (binary)\n");
    s.push_str("# for one cycle (one write per router per cycle), then resume.\n# router code port avc\n");
    for w in t.writes(&v.configs) {
        s.push_str(&format!("{} {} {} {:0width$b}\n", w.router, w.code, w.port, w.avc, width = v.configs[0].vcs()));
    }
    s
}

/// A design's Verilog with its file list, XDC, Vivado script and FuseSoC
/// core (Edalize flow API), as `synth --emit-only` writes them.
pub fn with_flow_files(d: &Design) -> anyhow::Result<Vec<GeneratedFile>> {
    let top = &d.top;
    let ports = scripts::top_ports(&d.rtl, top)?;
    let file = |n: String, t: String| GeneratedFile { file_name: n, text: t };
    let mut files = d.rtl.clone();
    files.extend([
        file(format!("{top}.f"), d.rtl_names().iter().map(|f| format!("{f}\n")).collect()),
        file(format!("{top}.xdc"), scripts::xdc(d, &ports)),
        file(format!("{top}_vivado.tcl"), scripts::vivado_tcl(d)),
        file(format!("{top}.core"), scripts::fusesoc_core(d)),
    ]);
    Ok(files)
}

/// Writes `files` into `out` (never over a file wormqos did not write,
/// unless `force`) and prints their paths.
pub fn write_generated(out: &Path, files: &[GeneratedFile], force: bool) -> anyhow::Result<()> {
    let claims: Vec<(&str, Option<&[u8]>)> = files.iter().map(|f| (f.file_name.as_str(), Some(f.text.as_bytes()))).collect();
    claim_dir(out, &claims, force)?;
    wormqos_hdl::write_files_forced(out, files, force).with_context(|| format!("writing {}", out.display()))?;
    for f in files {
        println!("{}", out.join(&f.file_name).display());
    }
    Ok(())
}

//! The generated system top (`<name>_system`, docs/nic.md §16) built with
//! Verilator: only the host side of every NIC is a port (`p<k>_*`), in the
//! order of [`super::nic::host_inputs`] / [`super::nic::host_outputs`]
//! per NIC. The shim is the NIC's (with `wq_nic_eval`: the AXI4-Lite
//! `awready`/`wready` depend on the cycle's inputs).

use super::bits::{get_u64, set_u64};
use super::nic::{build_with_eval, reset_model, host_input_values, host_inputs, host_output_values, host_outputs, place, EvalFn};
use super::shim::PortMap;
use super::Api;
use crate::nic::system::SystemDut;
use anyhow::{Context, Result};
use std::ffi::c_void;
use wormqos_config::RouterConfig;
use wormqos_hdl::system::{generate_system, host_port_prefix, system_top_name};
use wormqos_hdl::NicFault;
use wormqos_sim::nic::system::{HostIn, HostOut};

/// Port names live as long as the program (a port map is built once per run).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn port_map(cfg: &RouterConfig) -> PortMap {
    let nic = cfg.nic().expect("a [nic] section");
    let (axw, bb) = (nic.axi_data_width as usize, nic.beat_bytes() as usize);
    let mut ins = vec![("rst_i", 1)];
    let mut outs = Vec::new();
    for k in 0..cfg.ports() {
        let pre = host_port_prefix(k);
        ins.extend(host_inputs(axw).into_iter().map(|(n, w)| (leak(format!("{pre}{n}")), w)));
        outs.extend(host_outputs(axw, bb).into_iter().map(|(n, w)| (leak(format!("{pre}{n}")), w)));
    }
    let (inputs, input_words) = place(ins);
    let (outputs, output_words) = place(outs);
    PortMap { inputs, outputs, input_words, output_words }
}

/// The generated system top, Verilated and loaded.
pub struct VerilatedSystem {
    api: &'static Api,
    eval_fn: EvalFn,
    handle: *mut c_void,
    map: PortMap,
    ports: usize,
    inw: Vec<u32>,
    outw: Vec<u32>,
}

impl VerilatedSystem {
    /// Generates `<name>_system` (with `fault` in every NIC, if any), builds
    /// it or reuses the cached library, and creates a model; with a fault,
    /// compiled for a short run (it runs only until the fault is caught).
    pub fn build(cfg: &RouterConfig, fault: Option<NicFault>) -> Result<VerilatedSystem> {
        let files = generate_system(cfg, fault).context("generating the system top")?;
        VerilatedSystem::build_top(cfg, &files, &system_top_name(cfg), fault.is_some())
    }

    /// Builds `top` of `files`, a system top whose host ports are those of
    /// one NIC of `cfg` per port (`p<k>_*`, k < `cfg.ports()`): the
    /// router's system top or a network's with a NIC per endpoint. With
    /// `quick`, compiled for a short run (the design's C++ at -O0, as
    /// [`super::VerilatedRouter::build_quick`]): for a planted bug.
    pub fn build_top(cfg: &RouterConfig, files: &[wormqos_hdl::GeneratedFile], top: &str, quick: bool) -> Result<VerilatedSystem> {
        let map = port_map(cfg);
        let (api, eval_fn, handle) = build_with_eval(files, top, &map, quick)?;
        Ok(VerilatedSystem { api, eval_fn, handle, inw: vec![0; map.input_words], outw: vec![0; map.output_words], map, ports: cfg.ports() })
    }

    fn pack(&mut self, host: &[HostIn]) {
        assert_eq!(host.len(), self.ports, "one host input per port");
        let per = (self.map.inputs.len() - 1) / self.ports;
        for (k, h) in host.iter().enumerate() {
            for (j, v) in host_input_values(&h.axil, &h.axi).into_iter().enumerate() {
                let s = &self.map.inputs[1 + k * per + j];
                set_u64(&mut self.inw[s.offset..s.offset + s.words()], 0, s.width.min(64), v);
            }
        }
    }

    fn unpack(&self) -> Vec<HostOut> {
        let per = self.map.outputs.len() / self.ports;
        (0..self.ports)
            .map(|k| {
                host_output_values(|j| {
                    let s = &self.map.outputs[k * per + j];
                    get_u64(&self.outw[s.offset..s.offset + s.words()], 0, s.width.min(64))
                })
            })
            .collect()
    }
}

impl SystemDut for VerilatedSystem {
    fn reset(&mut self) {
        reset_model(self.api, self.handle, &self.map, &mut self.inw, &mut self.outw);
    }

    fn eval(&mut self, host: &[HostIn]) -> Vec<HostOut> {
        self.pack(host);
        // SAFETY: as in `reset`.
        unsafe { (self.eval_fn)(self.handle, self.inw.as_ptr(), self.outw.as_mut_ptr()) };
        self.unpack()
    }

    fn step(&mut self, host: &[HostIn]) {
        self.pack(host);
        // SAFETY: as in `reset`.
        unsafe { (self.api.cycle)(self.handle, self.inw.as_ptr(), self.outw.as_mut_ptr()) };
    }

    fn check_failed(&self) -> bool {
        // SAFETY: valid handle.
        unsafe { (self.api.failed)(self.handle) != 0 }
    }
}

impl Drop for VerilatedSystem {
    fn drop(&mut self) {
        // SAFETY: the handle came from wq_new and is deleted exactly once.
        unsafe { (self.api.delete)(self.handle) };
    }
}

//! The generated NIC (`<name>_nic`, docs/nic.md §3) built with Verilator
//! and driven from Rust, beside the router's [`VerilatedRouter`](super::VerilatedRouter).
//!
//! The C++ shim is the router's ([`super::shim::shim_source`]) over the
//! NIC's port list, plus one function, `wq_nic_eval`: it applies the inputs
//! and evaluates without a clock edge, because the AXI4-Lite `awready` and
//! `wready` depend on the cycle's inputs (docs/nic.md §5.2). A cycle is
//! `eval(inputs)` (compare) then `step(inputs)` (`wq_cycle`: the edge).

use super::bits::{get_u64, set_u64, words_for};
use super::cache::{self, BuildSpec};
use super::shim::{shim_source, PortMap, Signal};
use super::{load, Api};
use crate::nic::NicDut;
use anyhow::{bail, Context, Result};
use std::ffi::c_void;
use std::path::Path;
use wormqos_config::{RouterConfig, RouterMode};
use wormqos_hdl::NicFault;
use wormqos_sim::nic::system::HostOut;
use wormqos_sim::nic::{AxiIn, AxiLiteIn, NicInputs, NicOutputs};
use wormqos_sim::LinkFlit;

/// A NIC's host-side inputs (docs/nic.md §3) in a fixed order: the values
/// of [`host_input_values`].
pub(crate) fn host_inputs(axw: usize) -> Vec<(&'static str, usize)> {
    vec![
        ("s_axil_awaddr_i", 12),
        ("s_axil_awvalid_i", 1),
        ("s_axil_wdata_i", 32),
        ("s_axil_wstrb_i", 4),
        ("s_axil_wvalid_i", 1),
        ("s_axil_bready_i", 1),
        ("s_axil_araddr_i", 12),
        ("s_axil_arvalid_i", 1),
        ("s_axil_rready_i", 1),
        ("m_axi_arready_i", 1),
        ("m_axi_rdata_i", axw),
        ("m_axi_rresp_i", 2),
        ("m_axi_rlast_i", 1),
        ("m_axi_rvalid_i", 1),
        ("m_axi_awready_i", 1),
        ("m_axi_wready_i", 1),
        ("m_axi_bresp_i", 2),
        ("m_axi_bvalid_i", 1),
    ]
}

/// A NIC's host-side outputs in a fixed order, read by [`host_output_values`].
pub(crate) fn host_outputs(axw: usize, bb: usize) -> Vec<(&'static str, usize)> {
    vec![
        ("irq_o", 1),
        ("s_axil_awready_o", 1),
        ("s_axil_wready_o", 1),
        ("s_axil_bresp_o", 2),
        ("s_axil_bvalid_o", 1),
        ("s_axil_arready_o", 1),
        ("s_axil_rdata_o", 32),
        ("s_axil_rresp_o", 2),
        ("s_axil_rvalid_o", 1),
        ("m_axi_araddr_o", 32),
        ("m_axi_arlen_o", 8),
        ("m_axi_arsize_o", 3),
        ("m_axi_arburst_o", 2),
        ("m_axi_arvalid_o", 1),
        ("m_axi_rready_o", 1),
        ("m_axi_awaddr_o", 32),
        ("m_axi_awlen_o", 8),
        ("m_axi_awsize_o", 3),
        ("m_axi_awburst_o", 2),
        ("m_axi_awvalid_o", 1),
        ("m_axi_wdata_o", axw),
        ("m_axi_wstrb_o", bb),
        ("m_axi_wlast_o", 1),
        ("m_axi_wvalid_o", 1),
        ("m_axi_bready_o", 1),
    ]
}

/// The values of [`host_inputs`], in its order.
pub(crate) fn host_input_values(a: &AxiLiteIn, m: &AxiIn) -> [u64; 18] {
    [
        a.awaddr as u64,
        a.awvalid as u64,
        a.wdata as u64,
        a.wstrb as u64,
        a.wvalid as u64,
        a.bready as u64,
        a.araddr as u64,
        a.arvalid as u64,
        a.rready as u64,
        m.arready as u64,
        m.rdata,
        m.rresp as u64,
        m.rlast as u64,
        m.rvalid as u64,
        m.awready as u64,
        m.wready as u64,
        m.bresp as u64,
        m.bvalid as u64,
    ]
}

/// The host-side outputs from `g(i)`, the value of [`host_outputs`]`[i]`.
pub(crate) fn host_output_values(g: impl Fn(usize) -> u64) -> HostOut {
    let b = |i| g(i) != 0;
    let mut o = HostOut { irq: b(0), ..HostOut::default() };
    let l = &mut o.axil;
    (l.awready, l.wready, l.bresp, l.bvalid, l.arready, l.rdata, l.rresp, l.rvalid) =
        (b(1), b(2), g(3) as u8, b(4), b(5), g(6) as u32, g(7) as u8, b(8));
    let x = &mut o.axi;
    (x.araddr, x.arlen, x.arsize, x.arburst, x.arvalid, x.rready) = (g(9) as u32, g(10) as u8, g(11) as u8, g(12) as u8, b(13), b(14));
    (x.awaddr, x.awlen, x.awsize, x.awburst, x.awvalid) = (g(15) as u32, g(16) as u8, g(17) as u8, g(18) as u8, b(19));
    (x.wdata, x.wstrb, x.wlast, x.wvalid, x.bready) = (g(20), g(21) as u8, b(22), b(23), b(24));
    o
}

/// Signals laid out one after the other in 32-bit words.
pub(crate) fn place(list: Vec<(&'static str, usize)>) -> (Vec<Signal>, usize) {
    let mut next = 0;
    let sigs: Vec<Signal> = list
        .into_iter()
        .map(|(name, width)| {
            let offset = next;
            next += words_for(width);
            Signal { name, width, offset }
        })
        .collect();
    (sigs, next)
}

/// The NIC's ports in a fixed order (docs/nic.md §3): reset, the host side,
/// then the links; the P-mode dummy wires last, so the indices of the
/// others do not move.
fn port_map(cfg: &RouterConfig) -> PortMap {
    let nic = cfg.nic().expect("a [nic] section");
    let (axw, bb) = (nic.axi_data_width as usize, nic.beat_bytes() as usize);
    let (m, vw, w) = (cfg.vcs(), cfg.vc_width() as usize, cfg.flit_width() as usize);
    let p = cfg.mode() == RouterMode::Preemptive;
    let mut ins = vec![("rst_i", 1)];
    ins.extend(host_inputs(axw));
    ins.extend([("inj_credit_i", m), ("ej_valid_i", 1), ("ej_vc_i", vw), ("ej_head_i", 1), ("ej_tail_i", 1), ("ej_data_i", w)]);
    if p {
        ins.push(("ej_dummy_i", 1));
    }
    let mut outs = host_outputs(axw, bb);
    outs.extend([("inj_valid_o", 1), ("inj_vc_o", vw), ("inj_head_o", 1), ("inj_tail_o", 1), ("inj_data_o", w), ("ej_credit_o", m)]);
    if p {
        outs.push(("inj_dummy_o", 1));
    }
    let (inputs, input_words) = place(ins);
    let (outputs, output_words) = place(outs);
    PortMap { inputs, outputs, input_words, output_words }
}

const EVAL_FN: &str = r#"
// The NIC's outputs for the current inputs without a clock edge (the
// AXI4-Lite awready/wready are combinational, docs/nic.md §5.2).
WQ_API void wq_nic_eval(void* h, const uint32_t* in, uint32_t* out) {
    WqModel* m = static_cast<WqModel*>(h);
    Verilated::threadContextp(m->ctx);
    wq_set_inputs(m->top, in);
    m->top->clk_i = 0;
    m->top->eval();
    wq_get_outputs(m->top, out);
}
"#;

pub(crate) type EvalFn = unsafe extern "C" fn(*mut c_void, *const u32, *mut u32);

/// The generated NIC, Verilated and loaded.
pub struct VerilatedNic {
    api: &'static Api,
    eval_fn: EvalFn,
    handle: *mut c_void,
    map: PortMap,
    inw: Vec<u32>,
    outw: Vec<u32>,
    cycles: u64,
}

impl VerilatedNic {
    /// Generates `<name>_nic` (with a planted `fault`, if any), builds it or
    /// reuses the cached library, and creates a model (reset it before use).
    /// A faulty NIC is compiled like a correct one: a NIC alone is small,
    /// and -O0 did not pay for its 20,000-cycle fault runs (docs/benchmarks.md,
    /// branch suite_trim2: 81.7 s at -O1 against 124.2 s at -O0).
    pub fn build(cfg: &RouterConfig, fault: Option<NicFault>) -> Result<VerilatedNic> {
        // The port map below is positional and has no lane ports (docs/nic.md
        // §3): per-lane NICs are held to the model through the system top.
        anyhow::ensure!(!cfg.per_lane_credits(), "the standalone NIC harness has no lane ports: run a per-lane NIC in the system top (VerilatedSystem)");
        let files = wormqos_hdl::generate_nic(cfg, fault).context("generating the NIC")?;
        let map = port_map(cfg);
        let (api, eval_fn, handle) = build_with_eval(&files, &wormqos_hdl::nic_module_name(cfg), &map, false)?;
        Ok(VerilatedNic {
            api,
            eval_fn,
            handle,
            inw: vec![0; map.input_words],
            outw: vec![0; map.output_words],
            map,
            cycles: 0,
        })
    }

    /// Clock cycles simulated so far (reset cycles included).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    fn set(&mut self, i: usize, v: u64) {
        let s = &self.map.inputs[i];
        let (o, w) = (s.offset, s.width);
        set_u64(&mut self.inw[o..o + s.words()], 0, w.min(64), v);
    }

    fn get(&self, i: usize) -> u64 {
        let s = &self.map.outputs[i];
        get_u64(&self.outw[s.offset..s.offset + s.words()], 0, s.width.min(64))
    }

    fn set_flit_data(&mut self, i: usize, data: &[u64; 4]) {
        let s = &self.map.inputs[i];
        let words = &mut self.inw[s.offset..s.offset + s.words()];
        for (k, chunk) in words.iter_mut().enumerate() {
            *chunk = (data[k / 2] >> (32 * (k % 2))) as u32;
        }
        if s.width % 32 != 0 {
            let last = words.len() - 1;
            words[last] &= (1u32 << (s.width % 32)) - 1;
        }
    }

    fn flit_data(&self, i: usize) -> [u64; 4] {
        let s = &self.map.outputs[i];
        let mut d = [0u64; 4];
        for (k, &x) in self.outw[s.offset..s.offset + s.words()].iter().enumerate() {
            d[k / 2] |= (x as u64) << (32 * (k % 2));
        }
        d
    }

    fn pack(&mut self, x: &NicInputs) {
        let host = host_input_values(&x.axil, &x.axi);
        let link = [x.inj_credit as u64, x.ej.valid as u64, x.ej.vc as u64, x.ej.head as u64, x.ej.tail as u64];
        self.set(0, 0);
        for (k, &v) in host.iter().chain(&link).enumerate() {
            self.set(1 + k, v);
        }
        self.set_flit_data(24, &x.ej.data);
        if self.map.inputs.len() > 25 {
            self.set(25, x.ej.dummy as u64);
        }
    }

    fn unpack(&self) -> NicOutputs {
        let (g, b) = (|i| self.get(i), |i| self.get(i) != 0);
        let h = host_output_values(g);
        let dummy = self.map.outputs.len() > 31 && b(31);
        let inj = LinkFlit { lane: 0, valid: b(25), vc: g(26) as u8, head: b(27), tail: b(28), dummy, data: self.flit_data(29) };
        NicOutputs { irq: h.irq, axil: h.axil, axi: h.axi, inj, ej_credit: g(30) as u32, ej_credit_lanes: 0 }
    }
}

/// Builds `top` from `files` with the NIC shim over `map` (plus
/// `wq_nic_eval`), or reuses the cached library, and creates a model;
/// `quick` compiles the design's C++ for a short run (`BuildSpec::quick`).
pub(crate) fn build_with_eval(files: &[wormqos_hdl::GeneratedFile], top: &str, map: &PortMap, quick: bool) -> Result<(&'static Api, EvalFn, *mut c_void)> {
    let shim = shim_source(map, false) + EVAL_FN;
    let root = super::cache_root();
    let info = cache::build_or_reuse(&BuildSpec { root: &root, top, files, shim: &shim, trace: false, quick })
        .with_context(|| format!("building the Verilator model of `{top}`"))?;
    let api = load(&info.library)?;
    if api.port_map != map.signature() || api.input_words != map.input_words || api.output_words != map.output_words {
        bail!("{} was built for ports {:?}, the configuration needs {:?}", info.library.display(), api.port_map, map.signature());
    }
    let eval_fn = eval_symbol(&info.library)?;
    // SAFETY: creates a fresh model owned by the caller, who deletes it.
    let handle = unsafe { (api.new)() };
    if handle.is_null() {
        bail!("{}: wq_new returned null", info.library.display());
    }
    Ok((api, eval_fn, handle))
}

/// One cycle with `rst_i` (input 0) high and every other input 0; clears
/// the model's failed-check flag first.
pub(crate) fn reset_model(api: &Api, handle: *mut c_void, map: &PortMap, inw: &mut [u32], outw: &mut [u32]) {
    // SAFETY: `handle` is a live model of this library.
    unsafe { (api.clear_failed)(handle) };
    inw.fill(0);
    inw[map.inputs[0].offset] = 1;
    // SAFETY: buffers sized for this library's port map (checked in build).
    unsafe { (api.cycle)(handle, inw.as_ptr(), outw.as_mut_ptr()) };
    inw[map.inputs[0].offset] = 0;
}

/// `wq_nic_eval` of a library that [`load`] has loaded (and keeps loaded).
fn eval_symbol(path: &Path) -> Result<EvalFn> {
    // SAFETY: the library is already loaded (leaked by `load`); opening it
    // again only takes a reference, which is leaked too.
    let lib: &'static libloading::Library =
        Box::leak(Box::new(unsafe { libloading::Library::new(path) }.with_context(|| format!("cannot load {}", path.display()))?));
    // SAFETY: the shim defines the symbol with exactly this signature.
    let s: libloading::Symbol<EvalFn> = unsafe { lib.get(b"wq_nic_eval\0") }.with_context(|| format!("{} lacks wq_nic_eval", path.display()))?;
    Ok(*s)
}

impl NicDut for VerilatedNic {
    fn reset(&mut self) {
        reset_model(self.api, self.handle, &self.map, &mut self.inw, &mut self.outw);
        self.cycles += 1;
    }

    fn eval(&mut self, inputs: &NicInputs) -> NicOutputs {
        self.pack(inputs);
        // SAFETY: as in `reset`.
        unsafe { (self.eval_fn)(self.handle, self.inw.as_ptr(), self.outw.as_mut_ptr()) };
        self.unpack()
    }

    fn step(&mut self, inputs: &NicInputs) {
        self.pack(inputs);
        // SAFETY: as in `reset`.
        unsafe { (self.api.cycle)(self.handle, self.inw.as_ptr(), self.outw.as_mut_ptr()) };
        self.cycles += 1;
    }

    fn check_failed(&self) -> bool {
        // SAFETY: valid handle.
        unsafe { (self.api.failed)(self.handle) != 0 }
    }
}

impl Drop for VerilatedNic {
    fn drop(&mut self) {
        // SAFETY: the handle came from wq_new and is deleted exactly once.
        unsafe { (self.api.delete)(self.handle) };
    }
}

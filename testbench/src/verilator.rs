//! Driving the Verilated router from Rust.
//!
//! [`VerilatedRouter::build`] writes the generated Verilog and a per-design
//! C++ shim (a flat `extern "C"` API over word arrays, see
//! [`verilator/shim.rs`](self::shim)) into a cache directory named by a SHA-256
//! of everything that shapes the result, runs `verilator --cc --exe --build`
//! (with `--trace` only for a waveform) there to produce a shared library unless the cache already holds
//! it, loads the library with `libloading` and drives it one clock cycle per
//! [`Dut::step`]. Packing [`LinkFlit`] fields into the flat buses is done in
//! Rust ([`bits`]) into buffers allocated once, so a cycle costs one FFI call.
//!
//! A Verilated model is not thread-safe: [`VerilatedRouter`] is neither `Send`
//! nor `Sync`, so create it on the thread that steps it.
//!
//! Build flags (`cache.rs`): `-O3 --inline-mult 30000` for Verilator (all
//! its optimisations, but modules too large to inline cheaply, such as the
//! 16-VC preemptive input port, stay shared), `OPT_FAST=-O1` for the
//! design's hot code, `OPT_SLOW=-O0` for its constructors, `OPT_GLOBAL=-O1` for
//! the Verilator runtime; chosen by measuring build time against cycles/s
//! (`WORMQOS_VERILATOR_MAKEFLAGS="OPT_FAST=-O2 ..."` picks others). The
//! runtime objects (`verilated.o` & co.) are compiled once per tool chain and
//! flags and copied into later builds. [`VerilatedRouter::build_quick`]
//! compiles the design's code at -O0 instead, for models that run briefly:
//! the tests' planted bugs, each a build of its own that stops at the first
//! mismatch.
//!
//! Measured (2 cores, shared): first build of a small loopback ~12 s (with the
//! runtime), ~3 s after; cache hit < 0.1 s. The generated 8-port 16-VC router:
//! ~70 s first build, ~80 k cycles/s; driver overhead alone (loopback) ~2.5 M
//! step()+outputs() per second.

pub mod bits;
mod cache;
pub mod nic;
pub mod system;
pub mod shim;

use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::dut::Dut;
use bits::{BitReader, BitWriter};
use shim::{input, output, PortMap, SHIM_ABI};
use wormqos_config::RouterConfig;
use wormqos_hdl::GeneratedFile;
use wormqos_sim::{RouterInputs, RouterOutputs};

pub use cache::{cache_root, clean_up_on_signals, verilator_version, BuildInfo, BUILD_DIR_ENV, LIBRARY_NAME, MAKE_FLAGS_ENV, PCH_ENV};

/// The C functions of one loaded shim library.
pub(crate) struct Api {
    new: unsafe extern "C" fn() -> *mut c_void,
    delete: unsafe extern "C" fn(*mut c_void),
    cycle: unsafe extern "C" fn(*mut c_void, *const u32, *mut u32),
    read: unsafe extern "C" fn(*mut c_void, *mut u32),
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    trace_close: unsafe extern "C" fn(*mut c_void),
    trace_flush: unsafe extern "C" fn(*mut c_void),
    time: unsafe extern "C" fn(*mut c_void) -> u64,
    failed: unsafe extern "C" fn(*mut c_void) -> u32,
    clear_failed: unsafe extern "C" fn(*mut c_void),
    port_map: String,
    input_words: usize,
    output_words: usize,
}

/// Loads (once per process) the library at `path`. Libraries are never
/// unloaded: the Verilator runtime registers process-wide state that must
/// outlive every model.
fn load(path: &Path) -> Result<&'static Api> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, &'static Api>>> = OnceLock::new();
    let mut map = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(api) = map.get(path) {
        return Ok(api);
    }
    // SAFETY: the library is one this module built from its own shim; its
    // initialisers only set up the Verilator runtime.
    let lib: &'static libloading::Library = Box::leak(Box::new(
        unsafe { libloading::Library::new(path) }.with_context(|| format!("cannot load {}", path.display()))?,
    ));
    macro_rules! sym {
        ($name:literal, $ty:ty) => {{
            // SAFETY: the shim defines the symbol with exactly this signature.
            let s: libloading::Symbol<$ty> = unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                .with_context(|| format!("{} lacks the symbol {}", path.display(), $name))?;
            *s
        }};
    }
    let abi = sym!("wq_abi", unsafe extern "C" fn() -> u32);
    // SAFETY: plain functions without arguments.
    let abi = unsafe { abi() };
    if abi != SHIM_ABI {
        bail!("{} has shim ABI {abi}, expected {SHIM_ABI}", path.display());
    }
    let port_map_fn = sym!("wq_port_map", unsafe extern "C" fn() -> *const c_char);
    let input_words = sym!("wq_input_words", unsafe extern "C" fn() -> u32);
    let output_words = sym!("wq_output_words", unsafe extern "C" fn() -> u32);
    let api = Api {
        new: sym!("wq_new", unsafe extern "C" fn() -> *mut c_void),
        delete: sym!("wq_delete", unsafe extern "C" fn(*mut c_void)),
        cycle: sym!("wq_cycle", unsafe extern "C" fn(*mut c_void, *const u32, *mut u32)),
        read: sym!("wq_read", unsafe extern "C" fn(*mut c_void, *mut u32)),
        trace_open: sym!("wq_trace_open", unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int),
        trace_close: sym!("wq_trace_close", unsafe extern "C" fn(*mut c_void)),
        trace_flush: sym!("wq_trace_flush", unsafe extern "C" fn(*mut c_void)),
        time: sym!("wq_time", unsafe extern "C" fn(*mut c_void) -> u64),
        failed: sym!("wq_failed", unsafe extern "C" fn(*mut c_void) -> u32),
        clear_failed: sym!("wq_clear_failed", unsafe extern "C" fn(*mut c_void)),
        // SAFETY: returns a pointer to a static NUL-terminated string.
        port_map: unsafe { CStr::from_ptr(port_map_fn()) }.to_string_lossy().into_owned(),
        input_words: unsafe { input_words() } as usize,
        output_words: unsafe { output_words() } as usize,
    };
    let api: &'static Api = Box::leak(Box::new(api));
    map.insert(path.to_path_buf(), api);
    Ok(api)
}

/// The router's RTL, Verilated and loaded, driven one cycle at a time.
pub struct VerilatedRouter {
    api: &'static Api,
    /// The shim's model handle; raw pointer, so the type is neither Send nor Sync.
    handle: *mut c_void,
    map: PortMap,
    ports: usize,
    vcs: usize,
    vc_width: usize,
    flit_width: usize,
    in_words: Vec<u32>,
    out_words: Vec<u32>,
    outputs: RouterOutputs,
    outputs_stale: bool,
    cycles: u64,
    tracing: Option<PathBuf>,
    info: BuildInfo,
    /// What it was built from, to rebuild it with tracing on demand.
    origin: Origin,
}

/// The inputs of a build, kept for [`Dut::prepare_trace`].
struct Origin {
    cfg: RouterConfig,
    top: String,
    files: Vec<GeneratedFile>,
    cache_root: PathBuf,
    traced: bool,
    quick: bool,
}

impl VerilatedRouter {
    /// Verilates `files` (top module [`wormqos_hdl::top_module_name`]`(cfg)`,
    /// with the port list of docs/microarchitecture.md §3), or reuses the
    /// cached library, and creates a model in its power-on state (call
    /// [`Dut::reset`] before use).
    ///
    /// The cache root is `$WORMQOS_BUILD_DIR`, else `target/wormqos-verilator/` under the working directory.
    ///
    /// The model is built without waveform support (a third less C++ to
    /// compile); [`Dut::prepare_trace`] rebuilds it with tracing when a
    /// waveform is wanted, [`VerilatedRouter::build_traced`] starts with it.
    pub fn build(cfg: &RouterConfig, files: &[GeneratedFile]) -> Result<VerilatedRouter> {
        Self::build_with_cache(cfg, files, &cache_root())
    }

    /// [`VerilatedRouter::build`] with waveform support (`--trace`).
    pub fn build_traced(cfg: &RouterConfig, files: &[GeneratedFile]) -> Result<VerilatedRouter> {
        Self::build_impl(cfg, files, &wormqos_hdl::top_module_name(cfg), &cache_root(), true)
    }

    /// [`VerilatedRouter::build`] (with `--trace` if `trace`) compiled for
    /// a short run: the design's C++ at -O0, a fifth to a half less build
    /// time for less than half the cycles/s (`cache.rs`, `QUICK_MAKE_FLAGS`). For a
    /// planted bug, which a test runs until the first mismatch, and which is
    /// built once per mutant while the unmutated router is shared.
    pub fn build_quick(cfg: &RouterConfig, files: &[GeneratedFile], trace: bool) -> Result<VerilatedRouter> {
        Self::build_map(cfg, files, &wormqos_hdl::top_module_name(cfg), &cache_root(), trace, true, PortMap::new(cfg))
    }

    /// [`VerilatedRouter::build`] with an explicit cache root directory.
    pub fn build_with_cache(cfg: &RouterConfig, files: &[GeneratedFile], cache_root: &Path) -> Result<VerilatedRouter> {
        Self::build_impl(cfg, files, &wormqos_hdl::top_module_name(cfg), cache_root, false)
    }

    /// [`VerilatedRouter::build`] of a top module named `top` with the
    /// router top's port list for `cfg` (a whole network's top,
    /// `wormqos_hdl::network`, seen as one router with a port per endpoint).
    pub fn build_top(cfg: &RouterConfig, files: &[GeneratedFile], top: &str) -> Result<VerilatedRouter> {
        Self::build_impl(cfg, files, top, &cache_root(), false)
    }

    /// [`VerilatedRouter::build_top`] with the port map `map` (a
    /// programmable network's write ports, [`PortMap::with_network_writes`]),
    /// compiled for a short run if `quick` (as [`VerilatedRouter::build_quick`]:
    /// a planted bug in a network top, run only until it is caught).
    pub fn build_top_with(cfg: &RouterConfig, files: &[GeneratedFile], top: &str, map: PortMap, quick: bool) -> Result<VerilatedRouter> {
        Self::build_map(cfg, files, top, &cache_root(), false, quick, map)
    }

    fn build_impl(cfg: &RouterConfig, files: &[GeneratedFile], top: &str, cache_root: &Path, trace: bool) -> Result<VerilatedRouter> {
        Self::build_map(cfg, files, top, cache_root, trace, false, PortMap::new(cfg))
    }

    fn build_map(cfg: &RouterConfig, files: &[GeneratedFile], top: &str, cache_root: &Path, trace: bool, quick: bool, map: PortMap) -> Result<VerilatedRouter> {
        let shim = shim::shim_source(&map, trace);
        let top = top.to_string();
        let info = cache::build_or_reuse(&cache::BuildSpec { root: cache_root, top: &top, files, shim: &shim, trace, quick })
            .with_context(|| format!("building the Verilator model of `{top}`"))?;
        let api = load(&info.library)?;
        if api.port_map != map.signature()
            || api.input_words != map.input_words
            || api.output_words != map.output_words
        {
            bail!(
                "{} was built for ports {:?}, the configuration needs {:?}",
                info.library.display(),
                api.port_map,
                map.signature()
            );
        }
        // SAFETY: creates a fresh model owned by this value, deleted in Drop.
        let handle = unsafe { (api.new)() };
        if handle.is_null() {
            bail!("{}: wq_new returned null", info.library.display());
        }
        let mut r = VerilatedRouter {
            api,
            handle,
            ports: cfg.ports(),
            vcs: cfg.vcs(),
            vc_width: cfg.vc_width() as usize,
            flit_width: cfg.flit_width() as usize,
            in_words: vec![0; map.input_words],
            out_words: vec![0; map.output_words],
            outputs: RouterOutputs::idle(cfg),
            outputs_stale: true,
            cycles: 0,
            tracing: None,
            info,
            map,
            origin: Origin { cfg: cfg.clone(), top: top.clone(), files: files.to_vec(), cache_root: cache_root.to_path_buf(), traced: trace, quick },
        };
        // SAFETY: buffers have the sizes the shim was generated for (checked above).
        unsafe { (r.api.read)(r.handle, r.out_words.as_mut_ptr()) };
        Ok(r)
    }

    /// Where the library came from, whether the cache was hit, and how long `build` took.
    pub fn build_info(&self) -> &BuildInfo {
        &self.info
    }

    /// Clock cycles simulated so far (including reset cycles).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Simulation time of the model (10 time units per cycle).
    pub fn sim_time(&self) -> u64 {
        // SAFETY: valid handle.
        unsafe { (self.api.time)(self.handle) }
    }

    /// The flat output buses as 32-bit words, per signal in §3 order
    /// (`in_credit_o`, `out_valid_o`, `out_vc_o`, `out_head_o`, `out_tail_o`, `out_data_o`).
    pub fn raw_output(&self, signal: &str) -> Option<&[u32]> {
        let s = self.map.outputs.iter().find(|s| s.name == signal)?;
        Some(&self.out_words[s.offset..s.offset + s.words()])
    }

    /// Flushes the waveform file, if one is open.
    pub fn flush_trace(&mut self) {
        if self.tracing.is_some() {
            // SAFETY: valid handle.
            unsafe { (self.api.trace_flush)(self.handle) };
        }
    }

    fn cycle(&mut self) {
        // SAFETY: buffers sized for this library's port map (checked in build).
        unsafe { (self.api.cycle)(self.handle, self.in_words.as_ptr(), self.out_words.as_mut_ptr()) };
        self.cycles += 1;
        self.outputs_stale = true;
    }

    /// The words of one input signal.
    fn input_bus(&mut self, index: usize) -> &mut [u32] {
        let s = &self.map.inputs[index];
        &mut self.in_words[s.offset..s.offset + s.words()]
    }

    fn pack(&mut self, inputs: &RouterInputs) {
        assert_eq!(inputs.flits.len(), self.ports, "RouterInputs.flits: one flit per input port");
        assert_eq!(inputs.credits.len(), self.ports, "RouterInputs.credits: one word per output port");
        let (vw, w, m) = (self.vc_width as u32, self.flit_width as u32, self.vcs as u32);
        // Per-port bits of valid/head/tail: N <= 32, so each is one word.
        let (mut valid, mut head, mut tail, mut dummy) = (0u32, 0u32, 0u32, 0u32);
        for (p, f) in inputs.flits.iter().enumerate() {
            valid |= (f.valid as u32) << p;
            head |= (f.head as u32) << p;
            tail |= (f.tail as u32) << p;
            dummy |= (f.dummy as u32) << p;
        }
        self.input_bus(input::VALID)[0] = valid;
        self.input_bus(input::HEAD)[0] = head;
        self.input_bus(input::TAIL)[0] = tail;
        if self.map.inputs.len() > input::DUMMY {
            self.input_bus(input::DUMMY)[0] = dummy;
        } else {
            assert_eq!(dummy, 0, "a dummy flit sent to a router without the dummy wire (not in preemptive mode)");
        }
        let mut bw = BitWriter::new(self.input_bus(input::VC));
        for f in &inputs.flits {
            bw.push(f.vc as u64, vw);
        }
        bw.finish();
        let mut bw = BitWriter::new(self.input_bus(input::DATA));
        for f in &inputs.flits {
            bw.push_wide(&f.data, w);
        }
        bw.finish();
        let mut bw = BitWriter::new(self.input_bus(input::CREDIT));
        for &c in &inputs.credits {
            bw.push(c as u64, m);
        }
        bw.finish();
        if let Some([lane_in, credit_lane_in, _, _]) = self.map.lanes() {
            let (lw, m) = ((self.map.inputs[lane_in].width / self.ports) as u32, self.vcs);
            let mut bw = BitWriter::new(self.input_bus(lane_in));
            for f in &inputs.flits {
                bw.push(f.lane as u64, lw);
            }
            bw.finish();
            let mut bw = BitWriter::new(self.input_bus(credit_lane_in));
            for &word in &inputs.credit_lanes {
                for v in 0..m {
                    bw.push(wormqos_sim::credit_lane(word, v) as u64, lw);
                }
            }
            bw.finish();
        }
        match (self.map.cfg_write(), inputs.route_write) {
            (Some(we), w) => {
                let w = w.unwrap_or(wormqos_sim::RouteWrite { router: 0, code: 0, port: 0, avc: 0 });
                let on = inputs.route_write.is_some();
                // Field r of each bus is router r's (one router: r = 0).
                let routers = self.map.inputs[we].width;
                assert!((w.router as usize) < routers, "a write to router {} of {routers}", w.router);
                for (k, v) in [(0, on as u32), (1, w.code), (2, w.port), (3, w.avc)] {
                    let width = self.map.inputs[we + k].width / routers;
                    let lo = w.router as usize * width;
                    let bus = self.input_bus(we + k);
                    bus.fill(0);
                    for b in 0..width {
                        if v >> b & 1 == 1 {
                            bus[(lo + b) / 32] |= 1 << ((lo + b) % 32);
                        }
                    }
                }
            }
            (None, Some(w)) => panic!("a routing-table write {w:?} to a router without the write port (router.routing = \"fixed\")"),
            (None, None) => {}
        }
    }

    fn unpack(&mut self) {
        let sig = &self.map.outputs;
        let bus = |i: usize| &self.out_words[sig[i].offset..sig[i].offset + sig[i].words()];
        let (vw, w, m) = (self.vc_width as u32, self.flit_width as u32, self.vcs as u32);
        let (valid, head, tail) = (bus(output::VALID)[0], bus(output::HEAD)[0], bus(output::TAIL)[0]);
        let dummy = if sig.len() > output::DUMMY { bus(output::DUMMY)[0] } else { 0 };
        let mut vc = BitReader::new(bus(output::VC));
        let mut data = BitReader::new(bus(output::DATA));
        for (p, f) in self.outputs.flits.iter_mut().enumerate() {
            f.valid = (valid >> p) & 1 != 0;
            f.head = (head >> p) & 1 != 0;
            f.tail = (tail >> p) & 1 != 0;
            f.dummy = (dummy >> p) & 1 != 0;
            f.vc = vc.pull(vw) as u8;
            data.pull_wide(w, &mut f.data);
        }
        let mut credit = BitReader::new(bus(output::CREDIT));
        for c in self.outputs.credits.iter_mut() {
            *c = credit.pull(m) as u32;
        }
        if let Some([_, _, lane_out, credit_lane_out]) = self.map.lanes() {
            let lw = sig[lane_out].width as u32 / self.ports as u32;
            let mut lane = BitReader::new(bus(lane_out));
            for f in self.outputs.flits.iter_mut() {
                f.lane = lane.pull(lw) as u8;
            }
            let mut cl = BitReader::new(bus(credit_lane_out));
            for word in self.outputs.credit_lanes.iter_mut() {
                *word = (0..m as usize).fold(0, |acc, v| acc | wormqos_sim::credit_lane_word(v, cl.pull(lw) as usize));
            }
        }
        self.outputs_stale = false;
    }
}

impl Dut for VerilatedRouter {
    fn reset(&mut self) {
        // SAFETY: valid handle.
        unsafe { (self.api.clear_failed)(self.handle) };
        self.in_words.fill(0);
        let rst = self.map.inputs[input::RST].offset;
        self.in_words[rst] = 1;
        self.cycle();
        self.in_words[rst] = 0;
    }

    fn outputs(&mut self) -> &RouterOutputs {
        if self.outputs_stale {
            self.unpack();
        }
        &self.outputs
    }

    fn step(&mut self, inputs: &RouterInputs) {
        self.pack(inputs);
        self.cycle();
    }

    fn check_failed(&self) -> bool {
        // SAFETY: valid handle.
        unsafe { (self.api.failed)(self.handle) != 0 }
    }

    fn prepare_trace(&mut self) -> Result<()> {
        if !self.origin.traced {
            let o = &self.origin;
            *self = Self::build_map(&o.cfg, &o.files, &o.top, &o.cache_root, true, o.quick, self.map.clone()).context("rebuilding the Verilator model with --trace for a waveform")?;
        }
        Ok(())
    }

    fn start_trace(&mut self, path: &Path) -> Result<()> {
        if !self.origin.traced {
            bail!("this model was built without --trace; call prepare_trace (or build_traced) before writing {}", path.display());
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| {
                format!("cannot create the directory of the waveform file {}", path.display())
            })?;
        }
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| anyhow!("trace path {} contains a NUL byte", path.display()))?;
        // SAFETY: valid handle and NUL-terminated path.
        let rc = unsafe { (self.api.trace_open)(self.handle, c.as_ptr()) };
        if rc != 0 {
            self.tracing = None;
            bail!("cannot open the waveform file {}", path.display());
        }
        self.tracing = Some(path.to_path_buf());
        Ok(())
    }

    fn stop_trace(&mut self) {
        if self.tracing.take().is_some() {
            // SAFETY: valid handle.
            unsafe { (self.api.trace_close)(self.handle) };
        }
    }
}

impl Drop for VerilatedRouter {
    fn drop(&mut self) {
        // SAFETY: the handle came from wq_new and is deleted exactly once;
        // wq_delete closes (and so flushes) an open waveform.
        unsafe { (self.api.delete)(self.handle) };
    }
}

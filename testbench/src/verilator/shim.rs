//! The router's top-level ports (docs/microarchitecture.md §3) and the
//! generated `extern "C"` C++ shim that exposes them as flat word arrays.

use super::bits::words_for;
use wormqos_config::RouterConfig;

/// Version of the C ABI below; part of the cache key and checked at load time.
pub const SHIM_ABI: u32 = 3;
/// Verilator `--prefix` of the model class; the shim includes `Vwq.h`.
pub const MODEL_PREFIX: &str = "Vwq";

/// One port of the top-level module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    pub name: &'static str,
    pub width: usize,
    /// Offset (in 32-bit words) inside the flat input or output buffer.
    pub offset: usize,
}

impl Signal {
    pub fn words(&self) -> usize {
        words_for(self.width)
    }
}

/// Port list of a router configuration, in a fixed order. `clk_i` is driven by
/// the shim itself and is not part of the flat input buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortMap {
    pub inputs: Vec<Signal>,
    pub outputs: Vec<Signal>,
    pub input_words: usize,
    pub output_words: usize,
}

/// Indices into [`PortMap::inputs`].
pub mod input {
    pub const RST: usize = 0;
    pub const VALID: usize = 1;
    pub const VC: usize = 2;
    pub const HEAD: usize = 3;
    pub const TAIL: usize = 4;
    pub const DATA: usize = 5;
    pub const CREDIT: usize = 6;
    /// Preemptive mode only (docs/microarchitecture.md §9.4).
    pub const DUMMY: usize = 7;
}

/// Indices into [`PortMap::outputs`].
pub mod output {
    pub const CREDIT: usize = 0;
    pub const VALID: usize = 1;
    pub const VC: usize = 2;
    pub const HEAD: usize = 3;
    pub const TAIL: usize = 4;
    pub const DATA: usize = 5;
    /// Preemptive mode only (docs/microarchitecture.md §9.4).
    pub const DUMMY: usize = 6;
}

/// LW, the width of a lane number on the link (§9.4 *Credits*).
pub fn lane_width(cfg: &RouterConfig) -> usize {
    wormqos_config::index_width(cfg.extra_lanes() as u32 + 1) as usize
}

fn layout(list: &[(&'static str, usize)]) -> (Vec<Signal>, usize) {
    let mut offset = 0;
    let sigs = list
        .iter()
        .map(|&(name, width)| {
            let s = Signal { name, width, offset };
            offset += s.words();
            s
        })
        .collect();
    (sigs, offset)
}

impl PortMap {
    pub fn new(cfg: &RouterConfig) -> Self {
        let n = cfg.ports();
        let m = cfg.vcs();
        let vw = cfg.vc_width() as usize;
        let w = cfg.flit_width() as usize;
        let mut ins = vec![
            ("rst_i", 1),
            ("in_valid_i", n),
            ("in_vc_i", n * vw),
            ("in_head_i", n),
            ("in_tail_i", n),
            ("in_data_i", n * w),
            ("out_credit_i", n * m),
        ];
        let mut outs = vec![
            ("in_credit_o", n * m),
            ("out_valid_o", n),
            ("out_vc_o", n * vw),
            ("out_head_o", n),
            ("out_tail_o", n),
            ("out_data_o", n * w),
        ];
        // The dummy wires exist only in the preemptive mode; appended so the
        // indices of the other signals stay fixed.
        if cfg.mode() == wormqos_config::RouterMode::Preemptive {
            ins.push(("in_dummy_i", n));
            outs.push(("out_dummy_o", n));
        }
        // Per-lane credits (§9.4 *Credits*): the lane wires, found by name.
        if cfg.per_lane_credits() {
            let lw = lane_width(cfg);
            ins.push(("in_lane_i", n * lw));
            ins.push(("out_credit_lane_i", n * m * lw));
            outs.push(("out_lane_o", n * lw));
            outs.push(("in_credit_lane_o", n * m * lw));
        }
        // The routing-table write port (router.routing = "programmable"),
        // after the dummy wire, so every fixed index above stays.
        if cfg.programmable() {
            let pw = wormqos_config::index_width(n as u32) as usize;
            ins.push(("cfg_we_i", 1));
            ins.push(("cfg_addr_i", cfg.header().dest.width as usize));
            ins.push(("cfg_port_i", pw));
            ins.push(("cfg_avc_i", m));
        }
        let (inputs, input_words) = layout(&ins);
        let (outputs, output_words) = layout(&outs);
        PortMap { inputs, outputs, input_words, output_words }
    }

    /// Adds a programmable network top's routing-table write ports (one
    /// field per router: `routers` of them, destination, port and VC mask
    /// widths `dw`, `pw`, `m`), which the endpoints' view lacks.
    pub fn with_network_writes(mut self, routers: usize, dw: usize, pw: usize, m: usize) -> PortMap {
        let mut ins: Vec<(&'static str, usize)> = self.inputs.iter().map(|s| (s.name, s.width)).collect();
        ins.extend([("cfg_we_i", routers), ("cfg_addr_i", routers * dw), ("cfg_port_i", routers * pw), ("cfg_avc_i", routers * m)]);
        let (inputs, input_words) = layout(&ins);
        self.inputs = inputs;
        self.input_words = input_words;
        self
    }

    /// With per-lane credits, the indices of `in_lane_i` and
    /// `out_credit_lane_i` in [`PortMap::inputs`] and of `out_lane_o` and
    /// `in_credit_lane_o` in [`PortMap::outputs`].
    pub fn lanes(&self) -> Option<[usize; 4]> {
        let at = |list: &[Signal], name: &str| list.iter().position(|s| s.name == name);
        Some([at(&self.inputs, "in_lane_i")?, at(&self.inputs, "out_credit_lane_i")?, at(&self.outputs, "out_lane_o")?, at(&self.outputs, "in_credit_lane_o")?])
    }

    /// Index in [`PortMap::inputs`] of `cfg_we_i`, the first of the four
    /// routing-table write signals, if the router has them.
    pub fn cfg_write(&self) -> Option<usize> {
        self.inputs.iter().position(|s| s.name == "cfg_we_i")
    }

    /// A one-line description the shim returns from `wq_port_map()`, so that
    /// the loader can check that a library matches the configuration.
    pub fn signature(&self) -> String {
        let mut s = format!("abi={SHIM_ABI}");
        for (dir, list) in [("i", &self.inputs), ("o", &self.outputs)] {
            for sig in list.iter() {
                s.push_str(&format!(";{dir}:{}:{}", sig.name, sig.width));
            }
        }
        s
    }
}

fn top_word_mask(width: usize) -> u32 {
    match width % 32 {
        0 => u32::MAX,
        r => (1u32 << r) - 1,
    }
}

fn emit_set(out: &mut String, s: &Signal) {
    let nw = s.words();
    let o = s.offset;
    let name = s.name;
    let mask = top_word_mask(s.width);
    if s.width <= 32 {
        out.push_str(&format!("    t->{name} = in[{o}] & 0x{mask:x}u;\n"));
    } else if s.width <= 64 {
        out.push_str(&format!(
            "    t->{name} = ((uint64_t)(in[{}] & 0x{mask:x}u) << 32) | (uint64_t)in[{o}];\n",
            o + 1
        ));
    } else {
        out.push_str(&format!(
            "    {{ uint32_t* d = t->{name}.data(); std::memcpy(d, in + {o}, {} * sizeof(uint32_t)); d[{}] &= 0x{mask:x}u; }}\n",
            nw,
            nw - 1
        ));
    }
}

fn emit_get(out: &mut String, s: &Signal) {
    let nw = s.words();
    let o = s.offset;
    let name = s.name;
    if s.width <= 32 {
        out.push_str(&format!("    out[{o}] = (uint32_t)t->{name};\n"));
    } else if s.width <= 64 {
        out.push_str(&format!(
            "    {{ uint64_t v = t->{name}; out[{o}] = (uint32_t)v; out[{}] = (uint32_t)(v >> 32); }}\n",
            o + 1
        ));
    } else {
        out.push_str(&format!(
            "    std::memcpy(out + {o}, t->{name}.data(), {nw} * sizeof(uint32_t));\n"
        ));
    }
}

/// C++ source of the shim for one port map. Its text depends only on the port
/// widths (the model class is always `Vwq`) and on `trace` (the model was
/// verilated with `--trace`: without it `wq_trace_open` fails with 2), so it
/// is part of the cache key.
pub fn shim_source(map: &PortMap, trace: bool) -> String {
    let trace = u8::from(trace);
    let mut set = String::new();
    for s in &map.inputs {
        emit_set(&mut set, s);
    }
    let mut get = String::new();
    for s in &map.outputs {
        emit_get(&mut get, s);
    }
    let signature = map.signature();
    let in_words = map.input_words;
    let out_words = map.output_words;
    format!(
        r#"// Generated by wormqos-testbench (src/verilator/shim.rs). Do not edit.
// Flat C API over the Verilated router: buses are arrays of 32-bit words,
// word 0 = bits 31:0. Inputs: {in_words} words, outputs: {out_words} words.
#include <cstdint>
#include <cstring>
#include <memory>
#define WQ_TRACE {trace}
#include "verilated.h"
#if WQ_TRACE
#include "verilated_vcd_c.h"
#endif
#include "{MODEL_PREFIX}.h"

#define WQ_API extern "C" __attribute__((visibility("default")))

namespace {{
struct WqModel {{
    VerilatedContext* ctx;
    {MODEL_PREFIX}* top;
#if WQ_TRACE
    VerilatedVcdC* vcd;
#endif
}};

inline void wq_set_inputs({MODEL_PREFIX}* t, const uint32_t* in) {{
{set}}}

inline void wq_get_outputs(const {MODEL_PREFIX}* t, uint32_t* out) {{
{get}}}

inline void wq_dump(WqModel* m) {{
#if WQ_TRACE
    if (m->vcd) m->vcd->dump(m->ctx->time());
#else
    (void)m;
#endif
}}
}}  // namespace

WQ_API uint32_t wq_abi(void) {{ return {SHIM_ABI}u; }}
WQ_API const char* wq_port_map(void) {{ return "{signature}"; }}
WQ_API uint32_t wq_input_words(void) {{ return {in_words}u; }}
WQ_API uint32_t wq_output_words(void) {{ return {out_words}u; }}

WQ_API void* wq_new(void) {{
    WqModel* m = new WqModel;
    m->ctx = new VerilatedContext;
    // A failing RTL check ($stop under `ifndef SYNTHESIS) must not abort
    // the test process: it sets the context's error flag (wq_failed).
    m->ctx->fatalOnError(false);
#if WQ_TRACE
    m->ctx->traceEverOn(true);
#endif
    m->top = new {MODEL_PREFIX}(m->ctx, "top");
#if WQ_TRACE
    m->vcd = nullptr;
#endif
    m->top->clk_i = 0;
    m->top->eval();
    return m;
}}

WQ_API void wq_trace_close(void* h) {{
#if WQ_TRACE
    WqModel* m = static_cast<WqModel*>(h);
    if (m->vcd) {{
        m->vcd->close();
        delete m->vcd;
        m->vcd = nullptr;
    }}
#else
    (void)h;
#endif
}}

WQ_API void wq_delete(void* h) {{
    WqModel* m = static_cast<WqModel*>(h);
    // The model's scopes unregister from the thread's current context.
    Verilated::threadContextp(m->ctx);
    wq_trace_close(h);
    m->top->final();
    delete m->top;
    delete m->ctx;
    // No dangling current context for the next model on this thread.
    Verilated::threadContextp(nullptr);
    delete m;
}}

// Opens a VCD file; values are dumped from the next cycle on. Returns 0 on
// success, 1 if the file cannot be opened, 2 if the model has no tracing.
WQ_API int wq_trace_open(void* h, const char* path) {{
#if !WQ_TRACE
    (void)h;
    (void)path;
    return 2;
#else
    WqModel* m = static_cast<WqModel*>(h);
    Verilated::threadContextp(m->ctx);
    wq_trace_close(h);
    m->vcd = new VerilatedVcdC;
    m->top->trace(m->vcd, 99);
    m->vcd->open(path);
    if (!m->vcd->isOpen()) {{
        delete m->vcd;
        m->vcd = nullptr;
        return 1;
    }}
    return 0;
#endif
}}

WQ_API void wq_trace_flush(void* h) {{
#if WQ_TRACE
    WqModel* m = static_cast<WqModel*>(h);
    if (m->vcd) m->vcd->flush();
#else
    (void)h;
#endif
}}

// One clock cycle: drive all inputs (clk low, evaluate), then the rising edge.
WQ_API void wq_cycle(void* h, const uint32_t* in, uint32_t* out) {{
    WqModel* m = static_cast<WqModel*>(h);
    // Several models (contexts) live on one thread: Verilator's runtime
    // (a failed check's $stop, the scopes of %m) acts on the thread's
    // current context, so it must be this model's.
    Verilated::threadContextp(m->ctx);
    {MODEL_PREFIX}* t = m->top;
    wq_set_inputs(t, in);
    t->clk_i = 0;
    t->eval();
    wq_dump(m);
    m->ctx->timeInc(5);
    t->clk_i = 1;
    t->eval();
    wq_dump(m);
    m->ctx->timeInc(5);
    wq_get_outputs(t, out);
}}

// Reads the outputs without advancing the clock.
WQ_API void wq_read(void* h, uint32_t* out) {{
    wq_get_outputs(static_cast<WqModel*>(h)->top, out);
}}

WQ_API uint64_t wq_time(void* h) {{ return static_cast<WqModel*>(h)->ctx->time(); }}

// 1 once an RTL check has failed ($stop), else 0.
WQ_API uint32_t wq_failed(void* h) {{ return static_cast<WqModel*>(h)->ctx->gotError() ? 1u : 0u; }}

// Forgets a failed check (before a reset starts a new run).
WQ_API void wq_clear_failed(void* h) {{
    WqModel* m = static_cast<WqModel*>(h);
    m->ctx->gotError(false);
    m->ctx->gotFinish(false);
}}
"#
    )
}

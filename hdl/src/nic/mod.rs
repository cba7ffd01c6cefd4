//! The NIC generator (docs/nic.md): the traditional and the QoS NIC of
//! `003_…` §3.3, built from the same configuration as the router.
//!
//! One file per block, each a module of its own:
//! * `regs`: the AXI4-Lite slave and the register file (§5);
//! * `doorbells`: the doorbell queues and the selection (§6);
//! * `tx`: the send engine and the AXI4 read channels (§7);
//! * `inject`: the send queues, pending completions, credits and the
//!   injection scheduler (§8, §9);
//! * `wr`: the write engine on the AXI4 write channels (§10);
//! * `rx`: the receive FIFOs, contexts and the receive engine (§11);
//! * `top`: the wiring of `<name>_nic` and its AXI protocol checks (§14).
//!
//! The blocks reuse the router library's standalone modules (`fifo`,
//! `rr_arbiter`, `vclock_sched`) by instantiating them.

mod doorbells;
mod fault;
mod inject;
mod regs;
mod rx;
mod top;
mod tx;
mod wr;

pub use fault::{NicFault, UnknownNicFault};

use wormqos_config::nic::{Injection, NicConfig, NicVariant, SEQ_WIDTH};
use wormqos_config::{index_width, RouterConfig, RouterMode};

use crate::verilog::{clog2, AsExpr, Dir, Expr, HdlError, LVal, Module, Result, Sig, Stmt};
use crate::{GeneratedFile, GENERATOR};

/// Every size the NIC blocks need, derived once (docs/nic.md §2 symbols).
#[derive(Clone, Debug)]
pub(crate) struct NicDims {
    pub prefix: String,
    pub qos: bool,
    /// P mode: the links carry a `dummy` wire.
    pub preemptive: bool,
    pub m: u32,
    pub vw: u32,
    pub w: u32,
    pub s: u32,
    pub cw: u32,
    pub dw: u32,
    pub vtw: u32,
    pub hw: u32,
    pub c: u32,
    pub di: u32,
    pub dd: u32,
    pub endpoints: u32,
    /// Class of every VC in TR/NP (empty otherwise).
    pub vcc: Vec<u32>,
    pub q: u32,
    pub qn: u32,
    pub bq: u32,
    pub kmax: u32,
    pub ixw: u32,
    pub axw: u32,
    pub bb: u32,
    pub max_burst: u32,
    pub injection: Injection,
    pub block_size: u32,
    pub r: u32,
    pub post_depth: u32,
    pub cq_depth: u32,
    pub fault: Option<NicFault>,
    /// `per_lane` credits (docs/nic.md §9.1, §11.1): E + 1 lanes per
    /// router VC; 0 with per-VC credits.
    pub lanes: u32,
    /// LW = clog2(E + 1) with `per_lane` credits, else 0.
    pub lw: u32,
    /// Bit position of the class field in a header flit (µarch §2).
    pub class_lsb: u32,
}

impl NicDims {
    pub fn new(cfg: &RouterConfig, nic: &NicConfig, fault: Option<NicFault>) -> NicDims {
        let h = cfg.header();
        let m = cfg.vcs() as u32;
        let vcc = match cfg.mode() {
            RouterMode::Traditional | RouterMode::NonPreemptive => (0..m).map(|u| cfg.vc_classes().map_or(0, |t| t[u as usize])).collect(),
            _ => Vec::new(),
        };
        NicDims {
            prefix: format!("{}_nic", cfg.name()),
            qos: nic.variant == NicVariant::Qos,
            preemptive: cfg.mode() == RouterMode::Preemptive,
            m,
            vw: cfg.vc_width(),
            w: cfg.flit_width(),
            s: cfg.traffic_classes(),
            cw: h.class.width,
            dw: h.dest.width,
            vtw: h.vtick.width,
            hw: h.width(),
            c: cfg.clock_width(),
            di: cfg.input_buffer_depth() as u32,
            dd: cfg.downstream_buffer_depth() as u32,
            endpoints: cfg.endpoints() as u32,
            vcc,
            q: nic.doorbell_depth,
            qn: nic.send_queues(m),
            bq: nic.send_queue_depth(m),
            kmax: nic.max_message_flits,
            ixw: nic.index_width(),
            axw: nic.axi_data_width,
            bb: nic.beat_bytes(),
            max_burst: nic.max_burst,
            injection: nic.injection,
            block_size: nic.block_size,
            r: nic.rx_contexts,
            post_depth: nic.rx_post_depth,
            cq_depth: nic.rx_completion_depth,
            fault,
            lanes: if cfg.per_lane_credits() { cfg.extra_lanes() as u32 + 1 } else { 0 },
            lw: if cfg.per_lane_credits() { clog2(cfg.extra_lanes() as u64 + 1) } else { 0 },
            class_lsb: h.class.lsb,
        }
    }
    /// Entries of a receive VC FIFO: DD, or DD per lane (docs/nic.md §11.1).
    pub fn rx_fifo_depth(&self) -> u32 {
        self.dd * self.lanes.max(1)
    }
    pub fn is(&self, f: NicFault) -> bool {
        self.fault == Some(f)
    }
    /// Width of a send-queue index.
    pub fn qw(&self) -> u32 {
        clog2(self.qn as u64)
    }
    /// log2 BB.
    pub fn bbl(&self) -> u32 {
        self.bb.trailing_zeros()
    }
    /// Width of a flit key `{seq, src}`.
    pub fn keyw(&self) -> u32 {
        self.dw + SEQ_WIDTH
    }
    /// TAGW: where a body flit's payload starts.
    pub fn tagw(&self) -> u32 {
        self.ixw + self.keyw() + 1
    }
    /// A send-queue entry `{vtick, vc, tail, head, data}` (LSB first: data).
    pub fn send_entry_w(&self) -> u32 {
        self.w + 2 + self.vw + self.vtw
    }
    /// A receive-FIFO entry `{dummy, tail, head, data}` (dummy only in P mode).
    pub fn rx_entry_w(&self) -> u32 {
        self.w + 2 + u32::from(self.preemptive) + self.lw
    }
    /// A doorbell `{class, data[31:0]}`.
    pub fn db_w(&self) -> u32 {
        32 + self.cw
    }
    /// A pending completion `{code[3:0], desc[26:0]}`.
    pub const PEND_W: u32 = 31;
    /// Width of a flit counter 0..=K_max+1.
    pub fn cntw(&self) -> u32 {
        index_width(self.kmax + 2)
    }
}

/// A module under construction together with its port list, so that the
/// top can wire blocks by name ([`top`]).
pub(crate) struct Block {
    pub m: Module,
    pub ports: Vec<(String, u32, Dir)>,
}

impl Block {
    pub fn new(name: String) -> Result<Block> {
        let mut m = Module::new(name);
        m.input("clk_i", 1);
        m.input("rst_i", 1);
        Ok(Block { m, ports: vec![] })
    }
    pub fn input(&mut self, name: &str, w: u32) -> Sig {
        self.ports.push((name.to_string(), w, Dir::Input));
        self.m.input(name, w)
    }
    pub fn output(&mut self, name: &str, w: u32) -> Sig {
        self.ports.push((name.to_string(), w, Dir::Output));
        self.m.output(name, w)
    }
}

/// A raw expression of a known width (the emitter checks it where it is used).
pub(crate) fn r(text: impl Into<String>, w: u32) -> Expr {
    Expr::raw(text, w)
}

/// `lhs = rhs` on a whole signal.
pub(crate) fn set(lhs: &Sig, rhs: impl AsExpr) -> Stmt {
    Stmt::set(lhs, rhs)
}

/// `base[text] = rhs` for a part of a signal the caller vouches for.
pub(crate) fn set_part(base: &Sig, text: &str, w: u32, rhs: impl AsExpr) -> Stmt {
    Stmt::set(LVal::raw(text, base.name.clone(), w), rhs)
}

/// Named FSM states: `localparam [w-1:0] NAME = w'dk;` for each name.
pub(crate) fn states(m: &mut Module, names: &[&str]) -> (u32, Vec<Expr>) {
    let w = clog2(names.len() as u64);
    let mut out = Vec::new();
    for (k, n) in names.iter().enumerate() {
        out.push(m.localparam(n, w, None, &format!("{w}'d{k}")));
    }
    (w, out)
}

/// `if (c) then`.
pub(crate) fn when(c: impl AsExpr, then: Vec<Stmt>) -> Stmt {
    Stmt::when(c, then)
}

/// The NIC of `cfg` (which must have a `[nic]` section): one file per
/// module, leaf modules first, `<name>_nic` last.
pub fn generate_nic(cfg: &RouterConfig, fault: Option<NicFault>) -> Result<Vec<GeneratedFile>> {
    generate_nic_with_top(cfg, fault).map(|(files, _)| files)
}

/// [`generate_nic`], plus the NIC's top module (for instantiating it, as
/// the system top of [`crate::system`] does).
pub(crate) fn generate_nic_with_top(cfg: &RouterConfig, fault: Option<NicFault>) -> Result<(Vec<GeneratedFile>, Module)> {
    let nic = cfg.nic().ok_or_else(|| HdlError::Invalid(format!("configuration `{}` has no [nic] section", cfg.name())))?;
    let d = NicDims::new(cfg, &nic, fault);
    let mods = top::build(&d)?;
    let mut header = format!("// Generated by {GENERATOR}. Do not edit.\n// Specification: docs/nic.md\n");
    if let Some(f) = fault {
        header.push_str(&format!("// FAULT: {} (planted bug for testbench validation; NOT the specified NIC)\n", f.name()));
    }
    header.push_str("// Configuration:\n");
    for line in cfg.to_toml().lines() {
        header.push_str(if line.is_empty() { "//\n".to_string() } else { format!("//   {line}\n") }.as_str());
    }
    let mut files = Vec::new();
    for m in &mods {
        m.check()?;
        let text = format!("{header}\n`default_nettype none\n\n{}\n`default_nettype wire\n", m.render());
        files.push(GeneratedFile { file_name: format!("{}.v", m.name()), text: crate::verilog::wrap_lines(&text, crate::verilog::MAX_LINE) });
    }
    let top = mods.last().cloned().ok_or_else(|| HdlError::Invalid("no NIC modules generated".into()))?;
    Ok((files, top))
}

/// Name of the NIC's top-level module.
pub fn nic_module_name(cfg: &RouterConfig) -> String {
    format!("{}_nic", cfg.name())
}

/// The standalone library modules the blocks instantiate, one file each
/// (a parameterized module is stored once, each instance passes its own
/// parameter values).
#[derive(Default)]
pub(crate) struct Lib {
    pub mods: Vec<Module>,
}

impl Lib {
    /// Keeps `m` (the first build of its name) and returns it for instancing.
    pub fn add(&mut self, m: Module) -> Module {
        if !self.mods.iter().any(|x| x.name() == m.name()) {
            self.mods.push(m.clone());
        }
        m
    }
}

/// A wire of which only some bits are read (a flit's fields, a status
/// bit): declared between Verilator `lint_off UNUSED` pragmas.
pub(crate) fn wire_partly_used(m: &mut Module, name: &str, value: &Expr) -> Result<Sig> {
    m.raw_line("/* verilator lint_off UNUSED */");
    let s = m.wire_of(name, value);
    m.raw_line("/* verilator lint_on UNUSED */");
    Ok(s)
}

/// The connections of a `fifo` instance (`buffers::fifo`'s ports).
pub(crate) struct FifoPorts {
    pub push: Expr,
    pub wdata: Expr,
    pub pop: Expr,
    pub rdata: Expr,
    pub empty: Expr,
    pub full: Expr,
}

/// Instantiates `fifo` as `inst`.
pub(crate) fn fifo_instance(m: &mut Module, fifo: &Module, inst: &str, p: FifoPorts) -> Result<()> {
    m.instance(
        fifo,
        inst,
        &[
            crate::bits::clk(),
            crate::bits::rst(),
            ("push_i", p.push),
            ("wdata_i", p.wdata),
            ("pop_i", p.pop),
            ("rdata_o", p.rdata),
            ("empty_o", p.empty),
            ("full_o", p.full),
        ],
    );
    Ok(())
}

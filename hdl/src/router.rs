//! The router-specific modules: input port, output-VC allocator, output port
//! and the top level (docs/microarchitecture.md).

use crate::generic;
use crate::switch;
use crate::mutant::Mutant;
use crate::vclock;
use crate::verilog::{clog2, Expr, HdlError, Module, Result, Sig, Stmt};
use wormqos_config::{Crossbar, RouterConfig, RouterMode, Scheduler};

/// The largest shared VC buffer (entries of all VCs of a port): one 64-deep
/// LUTRAM column (7-series RAM64M) then holds every VC. Deeper shared
/// memories need a depth multiplexer behind the LUTRAM that costs more than
/// the per-VC candidate multiplexer it replaces (qos8, 16 VCs x 40 flits:
/// ~1,900 logic LUTs per input port, measured, against an estimated ~970:
/// 16 FIFO controls and a 16:1 multiplexer of 130 bits), and flows without
/// LUTRAM (iCE40) would map one module of ~80,000 flip-flops instead of one
/// FIFO of 5,000 mapped once.
pub(crate) const SHARED_BUFFER_ENTRIES_MAX: u32 = 64;

/// Derived sizes.
#[derive(Clone, Debug)]
pub(crate) struct Dims {
    pub prefix: String,
    pub n: u32,
    pub m: u32,
    pub w: u32,
    /// Buffered flit width: `{head, tail, data}`.
    pub fw: u32,
    pub di: u32,
    pub do_: u32,
    pub dd: u32,
    pub vw: u32,
    /// Route (output port index) width.
    pub pw: u32,
    /// Flat VC index width, clog2(N*M).
    pub iw: u32,
    pub dw: u32,
    pub crossbar: Crossbar,
    pub scheduler: Scheduler,
    pub routes: Vec<u32>,
    pub mutant: Option<Mutant>,
    /// Vtick field: lsb and width VTW (header layout).
    pub vtl: u32,
    pub vtw: u32,
    /// VirtualClock counter width C.
    pub cw: u32,
    /// QoS mode (§9.1).
    pub mode: RouterMode,
    /// Traffic classes s.
    pub s: u32,
    /// Extra lanes per input VC E (preemptive mode; else 0).
    pub e: u32,
    /// Class field: lsb and width CW (header layout).
    pub cll: u32,
    pub clw: u32,
    /// Header width HW = DW + CW + VTW (the `hdr` register).
    pub hw: u32,
    /// Static partition: class of each output VC (TR/NP).
    pub vcc: Option<Vec<u32>>,
    /// Flit acceleration (§9.5).
    pub accel: bool,
    /// Block size b (§9.3).
    pub b: u32,
    /// Allowed output VCs per destination (§2 `route_vcs`), if the table is
    /// given (and not dropped by the `route-vcs-ignored` mutant).
    pub avc: Option<Vec<u32>>,
    /// Parallel output ports per destination (§2 `route_links`), if some
    /// destination has more than one (and not dropped by the
    /// `link-choice-first` mutant).
    pub links: Option<Vec<u32>>,
}

impl Dims {
    pub fn new(cfg: &RouterConfig, mutant: Option<Mutant>) -> Dims {
        let n = cfg.ports() as u32;
        let m = cfg.vcs() as u32;
        Dims {
            prefix: cfg.name().to_string(),
            n,
            m,
            w: cfg.flit_width(),
            fw: cfg.flit_width() + if cfg.mode() == RouterMode::Preemptive { 3 } else { 2 },
            di: cfg.input_buffer_depth() as u32,
            do_: cfg.output_buffer_depth() as u32,
            dd: cfg.downstream_buffer_depth() as u32,
            vw: cfg.vc_width(),
            pw: clog2(n as u64),
            iw: clog2((n * m) as u64),
            dw: cfg.header().dest.width,
            crossbar: cfg.crossbar(),
            scheduler: cfg.scheduler(),
            routes: cfg.routes().to_vec(),
            mutant,
            vtl: cfg.header().vtick.lsb,
            vtw: cfg.header().vtick.width,
            cw: cfg.clock_width(),
            mode: cfg.mode(),
            s: cfg.traffic_classes(),
            e: cfg.extra_lanes() as u32,
            cll: cfg.header().class.lsb,
            clw: cfg.header().class.width,
            hw: cfg.header().width(),
            vcc: cfg.vc_classes().map(|v| v.to_vec()),
            accel: cfg.acceleration(),
            b: cfg.block_size(),
            links: match mutant {
                Some(Mutant::LinkChoiceFirst) => None,
                _ => cfg.route_link_table().filter(|t| t.iter().any(|&g| g > 1)).map(|t| t.to_vec()),
            },
            avc: match mutant {
                Some(Mutant::RouteVcsIgnored) => None,
                _ => cfg.route_vc_table().map(|t| t.to_vec()),
            },
        }
    }
    /// Preemptive mode (§9.4): lanes, history stack, dummy flits.
    pub fn pre(&self) -> bool {
        self.mode == RouterMode::Preemptive
    }
    /// Static partition in VA (§9.2).
    pub fn part(&self) -> bool {
        // with one class the partition is every VC for class 0: §6 unchanged
        self.vcc.is_some() && self.s > 1
    }
    /// The VA allocators need each input VC's class (partition or acceleration).
    pub fn need_cls(&self) -> bool {
        (self.part() && !self.is(Mutant::PartIgnoresClass)) || self.accel
    }
    /// Lane index width, clog2(E+1).
    pub fn lw(&self) -> u32 {
        clog2(self.e as u64 + 1)
    }
    pub fn nm(&self) -> u32 {
        self.n * self.m
    }
    /// Input VC buffers of a port share one memory (`vc_buffer`): one flit
    /// enters and at most one (point A's candidate) leaves per cycle. The
    /// full crossbar moves every VC at once and preemption's lanes have
    /// their own buffers (qos.rs), so both keep a FIFO per VC.
    pub fn shared_ib(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && !self.pre() && self.m * self.di <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// Output VC buffers of a port share one memory: point B pushes at most
    /// one flit per output port and point C pops one (multiplexed crossbar).
    pub fn shared_ob(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.m * self.do_ <= SHARED_BUFFER_ENTRIES_MAX
    }
    /// The header fields route computation reads at every VC's front, as
    /// `(lsb, width)` in the flit's data: the destination, and the class and
    /// Vtick fields where they are used. A shared input buffer keeps a packed
    /// copy of them per VC (`vc_buffer`'s side memories).
    pub fn rc_fields(&self) -> Vec<(u32, u32)> {
        let mut f = vec![(0, self.dw)];
        if self.need_cls() {
            f.push((self.cll, self.clw));
        }
        if self.vclock() {
            f.push((self.vtl, self.vtw));
        }
        f
    }
    /// Width of the packed [`Dims::rc_fields`].
    pub fn rc_w(&self) -> u32 {
        self.rc_fields().iter().map(|f| f.1).sum()
    }
    pub fn is(&self, m: Mutant) -> bool {
        self.mutant == Some(m)
    }
    /// Full crossbar with the `fifo` scheduler: age order at point C.
    fn age_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.scheduler == Scheduler::Fifo
    }
    pub(crate) fn age_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.scheduler == Scheduler::Fifo
    }
    /// `virtualclock`: every input VC has a Vtick register.
    pub fn vclock(&self) -> bool {
        self.scheduler == Scheduler::Virtualclock
    }
    /// VirtualClock scheduler at point A (multiplexed crossbar).
    pub(crate) fn vc_at_a(&self) -> bool {
        self.crossbar == Crossbar::Multiplexed && self.vclock()
    }
    /// VirtualClock scheduler at point C (full crossbar): the output VC
    /// buffers also store each flit's Vtick.
    pub(crate) fn vc_at_c(&self) -> bool {
        self.crossbar == Crossbar::Full && self.vclock()
    }
    /// Output VC buffer entry width: `{vtick (vc_at_c only), head, tail, data}`.
    /// Width of a free-output-VC count 0..=M.
    pub fn fcw(&self) -> u32 {
        clog2(self.m as u64 + 1)
    }
    pub(crate) fn obw(&self) -> u32 {
        self.fw + if self.vc_at_c() { self.vtw } else { 0 }
    }
}

pub(crate) fn lit(w: u32, v: u64) -> Result<Expr> {
    Expr::lit(w, v)
}

/// Concatenates elements given LSB-first (element 0 at the lowest bits).
pub(crate) fn cat_lsb_first(parts: &[Expr]) -> Result<Expr> {
    let mut v = parts.to_vec();
    v.reverse();
    Expr::concat(&v)
}

/// Widest one-hot decoder written as comparisons (see [`onehot_of`]).
pub(crate) const DECODER_COMPARISONS_MAX: u32 = 64;

/// `1 << idx` as a `width`-bit vector (all zero when `idx >= width`).
/// Up to [`DECODER_COMPARISONS_MAX`] bits it is written as a decoder of
/// comparisons, `{idx == width-1, .., idx == 0}`, not as a shift: Yosys'
/// `share` pass SAT-checks every pair of variable shifts for mutual
/// exclusion, which took 350 CPU-seconds of flattened `synth_ice40` on the
/// 8-port 16-VC router's 136 narrow decoders; comparisons are not shared.
/// Wider decoders (N*M-bit, on routers with over 64 VCs in all) stay shifts
/// so the text stays linear in the router size (a 28-port 12-VC router's
/// top would otherwise be 12 MB of Verilog).
pub(crate) fn onehot_of(idx: &Expr, width: u32) -> Result<Expr> {
    if width > DECODER_COMPARISONS_MAX {
        let one = if width <= 64 { lit(width, 1)? } else { Expr::one_bit(true).zext(width)? };
        return one.shl(idx);
    }
    let iw = idx.width();
    let bits = (0..width)
        .map(|k| if iw >= 64 || (k as u64) < (1u64 << iw) { idx.eq(&lit(iw, k as u64)?) } else { Ok(Expr::one_bit(false)) })
        .collect::<Result<Vec<_>>>()?;
    cat_lsb_first(&bits)
}

/// The N*M-bit one-hot of the flat output-VC index `r*M + u` (port `r`,
/// VC `u`; zero if either is out of range), as the outer product of the two
/// small decoders `<name>_r` (N bits) and `<name>_u` (M bits), which it
/// declares: no multiplication, no N*M-wide shift, text linear in N.
pub(crate) fn onehot_of_pair(md: &mut Module, name: &str, r: &Expr, n: u32, u: &Expr, m: u32) -> Result<Expr> {
    let r_oh = md.wire_of(&format!("{name}_r"), &onehot_of(r, n)?)?;
    let u_oh = md.wire_of(&format!("{name}_u"), &onehot_of(u, m)?)?;
    let chunks = (0..n).map(|o| Expr::repl(m, &r_oh.e().bit(o)?)?.and(&u_oh.e())).collect::<Result<Vec<_>>>()?;
    cat_lsb_first(&chunks)
}

/// One-hot to binary index (`width` bits); 0 when no bit is set.
pub(crate) fn encode(oh: &Expr, width: u32) -> Result<Expr> {
    let vals = (0..oh.width()).map(|k| lit(width, k as u64)).collect::<Result<Vec<_>>>()?;
    Expr::onehot_mux(oh, &vals)
}

/// The §2 table of allowed output VCs, one M-bit entry per destination code
/// (2^DW entries; codes at or above `endpoints` allow every VC).
pub(crate) fn avc_table(md: &mut Module, d: &Dims) -> Result<Option<Sig>> {
    let Some(t) = &d.avc else { return Ok(None) };
    md.comment("Allowed output VCs: entry d = VC mask of destination d (codes >= endpoints -> all).");
    let all = (1u64 << d.m) - 1;
    let entries = (0..1u32 << d.dw).map(|dest| lit(d.m, t.get(dest as usize).map_or(all, |&x| x as u64))).collect::<Result<Vec<_>>>()?;
    Ok(Some(md.wire_of("avc_table", &cat_lsb_first(&entries)?)?))
}

/// The tables of RC's choice among a destination's parallel ports (§2
/// `route_links`), one per group position j >= 1: entry = first port + j
/// inside the group, else the first port again (which then cannot win the
/// strict comparison of [`link_choice`]). Empty without the table.
pub(crate) fn link_tables(md: &mut Module, d: &Dims) -> Result<Vec<Sig>> {
    let Some(g) = &d.links else { return Ok(vec![]) };
    md.comment("Parallel links: entry d of link<j>_table = the j-th port of destination d's group.");
    let groups = g.iter().copied().max().unwrap_or(1);
    let mut tables = vec![];
    for j in 1..groups {
        let entries = (0..1u32 << d.dw)
            .map(|c| {
                let first = d.routes.get(c as usize).copied().unwrap_or(0);
                let size = g.get(c as usize).copied().unwrap_or(1);
                lit(d.pw, if j < size { (first + j) as u64 } else { first as u64 })
            })
            .collect::<Result<Vec<_>>>()?;
        tables.push(md.wire_of(&format!("link{j}_table"), &cat_lsb_first(&entries)?)?);
    }
    Ok(tables)
}

/// RC's port among the group (§2): the candidate with the most free output
/// VCs (`free_cnt`, start of cycle) wins, ties to the earlier position, i.e.
/// the lower port; `base` is the first port.
pub(crate) fn link_choice(md: &mut Module, d: &Dims, tag: &str, dest: &Expr, base: &Expr, free_cnt: Option<&Sig>, tables: &[Sig]) -> Result<Expr> {
    let Some(free_cnt) = free_cnt else { return Ok(base.clone()) };
    let (pw, fcw) = (d.pw, d.fcw());
    let mut best = md.wire_of(&format!("{tag}_lc_port0"), base)?;
    let mut best_cnt = md.wire_of(&format!("{tag}_lc_cnt0"), &free_cnt.e().elem_dyn(&best.e(), fcw)?)?;
    for (k, table) in tables.iter().enumerate() {
        let j = k + 1;
        let cand = md.wire_of(&format!("{tag}_lc_cand{j}"), &table.e().elem_dyn(dest, pw)?)?;
        let cnt = md.wire_of(&format!("{tag}_lc_candcnt{j}"), &free_cnt.e().elem_dyn(&cand.e(), fcw)?)?;
        let more = best_cnt.e().lt(&cnt.e())?;
        best = md.wire_of(&format!("{tag}_lc_port{j}"), &Expr::mux(&more, &cand.e(), &best.e())?)?;
        if j < tables.len() {
            best_cnt = md.wire_of(&format!("{tag}_lc_cnt{j}"), &Expr::mux(&more, &cnt.e(), &best_cnt.e())?)?;
        }
    }
    Ok(best.e())
}

pub(crate) const IDLE: u64 = 0;
pub(crate) const ROUTED: u64 = 1;
pub(crate) const ACTIVE: u64 = 2;

/// `<prefix>_input_port`: BW (M input VC buffers), RC and the per-VC state.
/// Where an input port keeps its flits (see [`Dims::shared_ib`]).
#[derive(Clone, Copy)]
pub(crate) enum InputBuffers<'a> {
    /// One `fifo` per VC; every VC's front flit leaves on `front_o`.
    PerVc(&'a Module),
    /// One `vc_buffer` for the port; the front of the VC named by `rsel_i`
    /// (point A's candidate) leaves on `cand_flit_o`.
    Shared(&'a Module),
}

pub(crate) fn input_port(d: &Dims, bufs: InputBuffers) -> Result<Module> {
    let (n, m, w, fw, vw, pw) = (d.n, d.m, d.w, d.fw, d.vw, d.pw);
    let mut md = Module::new(format!("{}_input_port", d.prefix));
    md.doc("Input port: stage 1 (BW) into M input VC buffers, stage 2 (RC) and the");
    md.doc("per-VC state IDLE/ROUTED/ACTIVE with its route and output VC.");
    md.doc("va_req_o[v*N+o]: VC v requests an output VC of port o (stage 3).");
    md.doc("st_req_o[v]: VC v is ACTIVE and its buffer is not empty (stage 4, before the");
    match bufs {
        InputBuffers::PerVc(_) => md.doc("output-buffer check). front_o[v*FW +: FW] = {head, tail, data} of VC v's oldest flit."),
        InputBuffers::Shared(_) => {
            md.doc("output-buffer check). The VCs share one buffer memory: cand_flit_o = {head, tail, data}");
            md.doc("is the oldest flit of VC rsel_i (one-hot: point A's candidate); pop_i names only that VC.");
        }
    }
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let valid = md.input("in_valid_i", 1)?;
    let vc = md.input("in_vc_i", vw)?;
    let head = md.input("in_head_i", 1)?;
    let tail = md.input("in_tail_i", 1)?;
    let data = md.input("in_data_i", w)?;
    let va_gnt = md.input("va_gnt_i", m)?;
    let va_ovc = md.input("va_ovc_i", m * vw)?;
    let pop = md.input("pop_i", m)?;
    let free_cnt = if d.links.is_some() {
        md.doc("free_cnt_i[o*FCW +: FCW]: free output VCs of port o (RC's parallel-link choice, §2).");
        Some(md.input("free_cnt_i", n * d.fcw())?)
    } else {
        None
    };
    let va_req_o = md.output("va_req_o", m * n)?;
    let va_route_o = md.output("va_route_o", m * pw)?;
    let st_req_o = md.output("st_req_o", m)?;
    let route_o = md.output("route_o", m * pw)?;
    let ovc_o = md.output("ovc_o", m * vw)?;
    let (front_o, rsel, cand_flit_o) = match bufs {
        InputBuffers::PerVc(_) => (Some(md.output("front_o", m * fw)?), None, None),
        InputBuffers::Shared(_) => (None, Some(md.input("rsel_i", m)?), Some(md.output("cand_flit_o", fw)?)),
    };
    let vtick_o = if d.vclock() {
        md.doc("vtick_o[v*VTW +: VTW]: VC v's Vtick register (virtualclock, §8.2): loaded from the");
        md.doc("header's Vtick field at RC, cleared (best effort) when the tail crosses the crossbar.");
        Some(md.output("vtick_o", m * d.vtw)?)
    } else {
        None
    };
    let mut vticks = vec![];
    let cls_o = if d.need_cls() {
        md.doc("cls_o[v*CW +: CW]: cls() of VC v's header class (hdr, loaded at RC; §9.1, §9.2).");
        Some(md.output("cls_o", m * d.clw)?)
    } else {
        None
    };
    let mut clss = vec![];
    let avc_o = if d.avc.is_some() {
        md.doc("avc_o[v*M +: M]: VC v's allowed output VCs (avc, loaded at RC; §2, §6 stage 3).");
        Some(md.output("avc_o", m * m)?)
    } else {
        None
    };
    let mut avcs = vec![];

    // Routing table, one entry per destination code (2^DW entries); codes
    // at or above `endpoints` route to port 0.
    md.comment("Routing table: entry d = output port of destination d (codes >= endpoints -> 0).");
    let entries = 1u32 << d.dw;
    let mut table = Vec::new();
    for dest in 0..entries {
        let mut port = d.routes.get(dest as usize).copied().unwrap_or(0);
        if dest == 0 && d.is(Mutant::WrongRoute) {
            port = (port + 1) % n;
        }
        table.push(lit(pw, port as u64)?);
    }
    let table = md.wire_of("route_table", &cat_lsb_first(&table)?)?;
    let avc_tab = avc_table(&mut md, d)?;
    let ltabs = link_tables(&mut md, d)?;

    let wdata = md.wire_of("wdata", &Expr::concat(&[head.e(), tail.e(), data.e()])?)?;
    let wside = if let InputBuffers::Shared(_) = bufs {
        // the RC header fields, packed, first field at bit 0
        let parts = d.rc_fields().iter().rev().map(|&(lsb, w)| data.e().part(lsb, w)).collect::<Result<Vec<_>>>()?;
        Some(md.wire_of("wside", &Expr::concat(&parts)?)?)
    } else {
        None
    };
    let mut va_reqs = vec![];
    let mut va_routes = vec![];
    let mut st_reqs = vec![];
    let mut routes = vec![];
    let mut ovcs = vec![];
    let mut fronts = vec![];
    let mut pushes = vec![];
    // The shared buffer's per-VC flags, header fields (RC, packed: see
    // Dims::rc_fields) and candidate flit.
    let rc_fields = d.rc_fields();
    let rcw = d.rc_w();
    // A header field of VC v's front: its bits of the flit, or of the packed copy.
    let field = |front: &Sig, lsb: u32, width: u32| -> Result<Expr> {
        match bufs {
            InputBuffers::PerVc(_) => front.e().part(lsb, width),
            InputBuffers::Shared(_) => {
                let k = rc_fields.iter().position(|f| *f == (lsb, width)).ok_or_else(|| HdlError::Invalid(format!("header field {lsb}+{width} is not kept for RC")))?;
                front.e().part(rc_fields[..k].iter().map(|f| f.1).sum(), width)
            }
        }
    };
    let shared = match bufs {
        InputBuffers::Shared(_) => Some((md.wire("buf_empty", m)?, md.wire("buf_full", m)?, md.wire("buf_hdr", m * rcw)?, md.wire("cand_flit", fw)?)),
        InputBuffers::PerVc(_) => None,
    };
    for v in 0..m {
        md.comment(format!("Input VC {v}"));
        // `front`: the VC's front flit, or (shared buffer) the packed header
        // fields RC reads.
        let (front, empty, full) = match &shared {
            None => (md.wire(&format!("vc{v}_front"), fw)?, md.wire(&format!("vc{v}_empty"), 1)?, md.wire(&format!("vc{v}_full"), 1)?),
            Some((e, f, h, _)) => (
                md.wire_of(&format!("vc{v}_hdr"), &h.e().part(v * rcw, rcw)?)?,
                md.wire_of(&format!("vc{v}_empty"), &e.e().bit(v)?)?,
                md.wire_of(&format!("vc{v}_full"), &f.e().bit(v)?)?,
            ),
        };
        // BW: a flit for a VC >= M matches no buffer and is dropped; a flit
        // for a full buffer is dropped.
        let push = md.wire_of(
            &format!("vc{v}_push"),
            &valid.e().land(&vc.e().eq(&lit(vw, v as u64)?)?)?.land(&full.e().lnot()?)?,
        )?;
        if let InputBuffers::PerVc(fifo) = bufs {
            md.instance(
                fifo,
                &format!("u_ib{v}"),
                &[
                    ("clk_i", Expr::raw("clk_i", 1)),
                    ("rst_i", Expr::raw("rst_i", 1)),
                    ("push_i", push.e()),
                    ("wdata_i", wdata.e()),
                    ("pop_i", pop.e().bit(v)?),
                    ("rdata_o", front.e()),
                    ("empty_o", empty.e()),
                    ("full_o", full.e()),
                ],
            )?;
        }
        pushes.push(push.e());
        let (state_q, state_d) = md.register(&format!("vc{v}_state"), 2, &lit(2, IDLE)?)?;
        let (route_q, route_d) = md.register(&format!("vc{v}_route"), pw, &Expr::zero(pw))?;
        let (ovc_q, ovc_d) = md.register(&format!("vc{v}_ovc"), vw, &Expr::zero(vw))?;
        let dest = field(&front, 0, d.dw)?;
        let first = table.e().elem_dyn(&dest, pw)?;
        let chosen = link_choice(&mut md, d, &format!("vc{v}"), &dest, &first, free_cnt.as_ref(), &ltabs)?;
        let rc_route = md.wire_of(&format!("vc{v}_rc_route"), &chosen)?;
        let is_idle = state_q.e().eq(&lit(2, IDLE)?)?;
        let is_routed = state_q.e().eq(&lit(2, ROUTED)?)?;
        let is_active = state_q.e().eq(&lit(2, ACTIVE)?)?;
        let not_empty = empty.e().lnot()?;
        let gnt = va_gnt.e().bit(v)?;
        let my_ovc = va_ovc.e().part(v * vw, vw)?;
        // pop_i[v] implies VC v is the candidate, whose flit the shared
        // buffer shows on cand_flit.
        let front_tail = match &shared {
            None => front.e().bit(fw - 2)?,
            Some((_, _, _, c)) => c.e().bit(fw - 2)?,
        };
        let grant_stmts = vec![Stmt::assign(&state_d.lv(), &lit(2, ACTIVE)?)?, Stmt::assign(&ovc_d.lv(), &my_ovc)?];
        let mut idle_body = vec![Stmt::assign(&route_d.lv(), &rc_route.e())?, Stmt::assign(&state_d.lv(), &lit(2, ROUTED)?)?];
        if d.is(Mutant::SkipRcStage) {
            idle_body.push(Stmt::if_(&gnt, grant_stmts.clone(), vec![])?);
        }
        md.comb(vec![
            Stmt::assign(&state_d.lv(), &state_q.e())?,
            Stmt::assign(&route_d.lv(), &route_q.e())?,
            Stmt::assign(&ovc_d.lv(), &ovc_q.e())?,
            Stmt::if_(
                &is_idle,
                vec![Stmt::Comment("RC".into()), Stmt::if_(&not_empty, idle_body, vec![])?],
                vec![Stmt::if_(
                    &is_routed,
                    vec![Stmt::Comment("VA grant".into()), Stmt::if_(&gnt, grant_stmts, vec![])?],
                    vec![Stmt::if_(
                        &is_active.land(&pop.e().bit(v)?)?.land(&front_tail)?,
                        vec![Stmt::Comment("the tail crossed the crossbar".into()), Stmt::assign(&state_d.lv(), &lit(2, IDLE)?)?],
                        vec![],
                    )?],
                )?],
            )?,
        ])?;
        if d.vclock() {
            let (vt_q, vt_d) = md.register(&format!("vc{v}_vtick"), d.vtw, &Expr::zero(d.vtw))?;
            let field = field(&front, d.vtl, d.vtw)?;
            let clear =
                vec![Stmt::Comment("the tail crossed the crossbar: the message's Vtick is discarded".into()), Stmt::assign(&vt_d.lv(), &Expr::zero(d.vtw))?];
            md.comb(vec![
                Stmt::assign(&vt_d.lv(), &vt_q.e())?,
                Stmt::if_(
                    &is_idle.land(&not_empty)?,
                    vec![Stmt::Comment("RC: the header's Vtick field".into()), Stmt::assign(&vt_d.lv(), &field)?],
                    vec![Stmt::if_(&is_active.land(&pop.e().bit(v)?)?.land(&front_tail)?, clear, vec![])?],
                )?,
            ])?;
            vticks.push(vt_q.e());
        }
        if let Some(tab) = &avc_tab {
            let (a_q, a_d) = md.register(&format!("vc{v}_avc"), m, &Expr::zero(m))?;
            let rc_avc = md.wire_of(&format!("vc{v}_rc_avc"), &tab.e().elem_dyn(&dest, m)?)?;
            md.comb(vec![
                Stmt::assign(&a_d.lv(), &a_q.e())?,
                Stmt::if_(
                    &is_idle.land(&not_empty)?,
                    vec![Stmt::Comment("RC: the destination's allowed output VCs".into()), Stmt::assign(&a_d.lv(), &rc_avc.e())?],
                    vec![],
                )?,
            ])?;
            if d.is(Mutant::SkipRcStage) {
                avcs.push(Expr::mux(&is_idle, &rc_avc.e(), &a_q.e())?);
            } else {
                avcs.push(a_q.e());
            }
        }
        if d.need_cls() {
            let (c_q, c_d) = md.register(&format!("vc{v}_cls"), d.clw, &Expr::zero(d.clw))?;
            let field = md.wire_of(&format!("vc{v}_rc_cls"), &crate::qos::cls_of(&field(&front, d.cll, d.clw)?, d.s)?)?;
            md.comb(vec![
                Stmt::assign(&c_d.lv(), &c_q.e())?,
                Stmt::if_(
                    &is_idle.land(&not_empty)?,
                    vec![Stmt::Comment("RC: the header's class, cls() applied".into()), Stmt::assign(&c_d.lv(), &field.e())?],
                    vec![],
                )?,
            ])?;
            if d.is(Mutant::SkipRcStage) {
                clss.push(Expr::mux(&is_idle, &field.e(), &c_q.e())?);
            } else {
                clss.push(c_q.e());
            }
        }
        let routed_req = Expr::mux(&is_routed, &onehot_of(&route_q.e(), n)?, &Expr::zero(n))?;
        let (req, vroute) = if d.is(Mutant::SkipRcStage) {
            let idle_req = is_idle.land(&not_empty)?;
            let r = routed_req.or(&Expr::mux(&idle_req, &onehot_of(&rc_route.e(), n)?, &Expr::zero(n))?)?;
            (r, Expr::mux(&is_idle, &rc_route.e(), &route_q.e())?)
        } else {
            (routed_req, route_q.e())
        };
        va_reqs.push(md.wire_of(&format!("vc{v}_va_req"), &req)?.e());
        va_routes.push(vroute);
        st_reqs.push(is_active.land(&not_empty)?);
        routes.push(route_q.e());
        ovcs.push(ovc_q.e());
        fronts.push(front.e());
    }
    if let (InputBuffers::Shared(buf), Some((e, f, h, c)), Some(rs), Some(wside)) = (&bufs, &shared, &rsel, &wside) {
        md.comment("The port's VC buffers, one shared memory");
        md.instance(
            buf,
            "u_ib",
            &[
                ("clk_i", Expr::raw("clk_i", 1)),
                ("rst_i", Expr::raw("rst_i", 1)),
                ("push_i", cat_lsb_first(&pushes)?),
                ("wdata_i", wdata.e()),
                ("wside_i", wside.e()),
                ("pop_i", pop.e()),
                ("rsel_i", rs.e()),
                ("rdata_o", c.e()),
                ("side_o", h.e()),
                ("empty_o", e.e()),
                ("full_o", f.e()),
            ],
        )?;
    }
    md.comment("Outputs");
    md.assign(&va_req_o.lv(), &cat_lsb_first(&va_reqs)?)?;
    md.assign(&va_route_o.lv(), &cat_lsb_first(&va_routes)?)?;
    md.assign(&st_req_o.lv(), &cat_lsb_first(&st_reqs)?)?;
    md.assign(&route_o.lv(), &cat_lsb_first(&routes)?)?;
    md.assign(&ovc_o.lv(), &cat_lsb_first(&ovcs)?)?;
    if let Some(fo) = front_o {
        md.assign(&fo.lv(), &cat_lsb_first(&fronts)?)?;
    }
    if let (Some(co), Some((_, _, _, c))) = (cand_flit_o, &shared) {
        md.assign(&co.lv(), &c.e())?;
    }
    if let Some(vo) = vtick_o {
        md.assign(&vo.lv(), &cat_lsb_first(&vticks)?)?;
    }
    if let Some(co) = cls_o {
        md.assign(&co.lv(), &cat_lsb_first(&clss)?)?;
    }
    if let Some(ao) = avc_o {
        md.assign(&ao.lv(), &cat_lsb_first(&avcs)?)?;
    }
    Ok(md)
}

/// `<prefix>_vc_allocator`: stage 3 for one output port, and the `allocated`
/// flags of its M output VCs.
pub(crate) fn vc_allocator(d: &Dims, rr_nm: &Module) -> Result<Module> {
    let (m, vw, nm, iw, clw) = (d.m, d.vw, d.nm(), d.iw, d.clw);
    let full = d.crossbar == Crossbar::Full;
    let part = d.part() && !d.is(Mutant::PartIgnoresClass);
    let keep_owner = full || d.accel;
    let mut md = Module::new(format!("{}_vc_allocator", d.prefix));
    md.doc("Output-VC allocator of one output port (stage 3): a round-robin arbiter over");
    md.doc("the N*M input VCs (va_ptr) grants one requester per cycle, if some output VC is");
    md.doc("free; the winner gets the lowest-numbered free output VC (gnt_ovc_o).");
    if part {
        md.doc("Static partition (§9.2): only requesters with a free output VC of their class");
        md.doc("(cls_i[i*CW +: CW]) take part; the winner gets the lowest free VC of its class.");
    } else if d.part() {
        md.doc("MUTANT part-ignores-class: the static partition is ignored.");
    }
    if d.avc.is_some() {
        md.doc("Allowed output VCs (§2, §6 stage 3): requester i only takes part if a free output VC");
        md.doc("lies in avc_i[i*M +: M] (and its class, if partitioned); the winner gets the lowest such VC.");
    }
    md.doc("release_i[u]: a tail crossed the crossbar into output VC u (free from next cycle).");
    if full {
        md.doc("owner_o[u*IW +: IW]: the input VC that was last granted output VC u.");
    }
    if d.accel {
        md.doc("victim_o: one-hot input VC whose acc flag is set (§9.5), or 0.");
    }
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let req = md.input("req_i", nm)?;
    let release = md.input("release_i", m)?;
    let cls_i = if d.need_cls() { Some(md.input("cls_i", nm * clw)?) } else { None };
    let avc_i = if d.avc.is_some() { Some(md.input("avc_i", nm * m)?) } else { None };
    let gnt_o = md.output("gnt_o", nm)?;
    let gnt_ovc_o = md.output("gnt_ovc_o", vw)?;
    let set_o = if d.age_at_c() { Some(md.output("alloc_set_o", m)?) } else { None };
    let owner_o = if full { Some(md.output("owner_o", m * iw)?) } else { None };
    let free_cnt_o = if d.links.is_some() {
        md.doc("free_cnt_o: number of free output VCs (for RC's parallel-link choice, §2).");
        Some(md.output("free_cnt_o", d.fcw())?)
    } else {
        None
    };
    let victim_o = if d.accel { Some(md.output("victim_o", nm)?) } else { None };

    let (alloc_q, alloc_d) = md.register_wire_d("allocated", &Expr::zero(m))?;
    let free = md.wire_of("free", &alloc_q.e().not())?;
    if let Some(fc) = &free_cnt_o {
        let terms = (0..m).map(|u| free.e().bit(u)?.zext(d.fcw())).collect::<Result<Vec<_>>>()?;
        let mut sum = terms[0].clone();
        for t in &terms[1..] {
            sum = sum.add(t)?;
        }
        md.assign(&fc.lv(), &sum)?;
    }
    let cls_of_i = |i: u32| cls_i.as_ref().expect("classes").e().part(i * clw, clw);
    let gnt_cls = |md: &mut Module, gnt: &Sig| -> Result<Option<Sig>> {
        if cls_i.is_none() {
            return Ok(None);
        }
        let elems = (0..nm).map(cls_of_i).collect::<Result<Vec<_>>>()?;
        Ok(Some(md.wire_of("gnt_cls", &Expr::onehot_mux(&gnt.e(), &elems)?)?))
    };
    let (req_masked, free_oh, gnt, any_gnt, win_cls) = if let Some(avc_i) = &avc_i {
        let gnt = md.wire("gnt", nm)?;
        let any_gnt = md.wire_of("any_gnt", &gnt.e().red_or())?;
        // The winner's class only feeds the acceleration owner classes here:
        // the eligible sets below already hold each requester's class.
        let win_cls = if d.accel { gnt_cls(&mut md, &gnt)? } else { None };
        let class_masks = if part {
            md.comment("Static partition: the output VCs of each class");
            let vcc = d.vcc.as_ref().expect("partition");
            let masks = (0..d.s)
                .map(|c| cat_lsb_first(&(0..m).map(|u| Expr::one_bit(vcc[u as usize] == c)).collect::<Vec<_>>()))
                .collect::<Result<Vec<_>>>()?;
            Some(md.wire_of("class_masks", &cat_lsb_first(&masks)?)?)
        } else {
            None
        };
        md.comment("Eligible output VCs of each requester: its allowed set (within its class)");
        let mut eligs = vec![];
        let mut sats = vec![];
        for i in 0..nm {
            let mut x = avc_i.e().part(i * m, m)?;
            if let Some(cm) = &class_masks {
                x = x.and(&cm.e().elem_dyn(&cls_of_i(i)?, m)?)?;
            }
            let el = md.wire_of(&format!("elig{i}"), &x)?;
            sats.push(free.e().and(&el.e())?.red_or());
            eligs.push(el.e());
        }
        let sat = md.wire_of("satisfiable", &cat_lsb_first(&sats)?)?;
        let rm = md.wire_of("req_masked", &req.e().and(&sat.e())?)?;
        let we = md.wire_of("win_elig", &Expr::onehot_mux(&gnt.e(), &eligs)?)?;
        let fe = md.wire_of("free_elig", &free.e().and(&we.e())?)?;
        let foh = crate::qos::lowest(&mut md, "lowest_free", &fe)?;
        (rm, foh, gnt, any_gnt, win_cls)
    } else if part {
        let gnt = md.wire("gnt", nm)?;
        let any_gnt = md.wire_of("any_gnt", &gnt.e().red_or())?;
        let win_cls = gnt_cls(&mut md, &gnt)?;
        let vcc = d.vcc.as_ref().expect("partition");
        md.comment("Static partition: output VCs of each class, and whether one of them is free");
        let mut masks = vec![];
        let mut anys = vec![];
        for c in 0..d.s {
            let mut mask = vec![];
            for u in 0..m {
                mask.push(Expr::one_bit(vcc[u as usize] == c));
            }
            let mk = cat_lsb_first(&mask)?;
            anys.push(free.e().and(&mk)?.red_or());
            masks.push(mk);
        }
        let class_free = md.wire_of("class_free", &cat_lsb_first(&anys)?)?;
        let class_masks = md.wire_of("class_masks", &cat_lsb_first(&masks)?)?;
        let sats = (0..nm)
            .map(|i| if d.s == 1 { Ok(class_free.e()) } else { class_free.e().bit_dyn(&cls_of_i(i)?) })
            .collect::<Result<Vec<_>>>()?;
        let sat = md.wire_of("satisfiable", &cat_lsb_first(&sats)?)?;
        let rm = md.wire_of("req_masked", &req.e().and(&sat.e())?)?;
        let wc = win_cls.as_ref().expect("classes");
        let fc = md.wire_of("free_of_cls", &free.e().and(&class_masks.e().elem_dyn(&wc.e(), m)?)?)?;
        let foh = crate::qos::lowest(&mut md, "lowest_free", &fc)?;
        (rm, foh, gnt, any_gnt, win_cls)
    } else {
        let any_free = md.wire_of("any_free", &free.e().red_or())?;
        let neg_free = Expr::raw(format!("(-{})", free.name), m);
        let free_oh = md.wire_of("lowest_free", &free.e().and(&neg_free)?)?;
        let req_masked = md.wire_of("req_masked", &req.e().and(&Expr::repl(nm, &any_free.e())?)?)?;
        let gnt = md.wire("gnt", nm)?;
        let any_gnt = md.wire_of("any_gnt", &gnt.e().red_or())?;
        let win_cls = gnt_cls(&mut md, &gnt)?;
        (req_masked, free_oh, gnt, any_gnt, win_cls)
    };
    let advance = if d.is(Mutant::VaFixedPriority) { Expr::one_bit(false) } else { any_gnt.e() };
    md.instance(
        rr_nm,
        "u_arb",
        &[
            ("clk_i", Expr::raw("clk_i", 1)),
            ("rst_i", Expr::raw("rst_i", 1)),
            ("req_i", req_masked.e()),
            ("advance_i", advance),
            ("gnt_o", gnt.e()),
        ],
    )?;
    let set = md.wire_of("alloc_set", &Expr::mux(&any_gnt.e(), &free_oh.e(), &Expr::zero(m))?)?;
    let next = alloc_q.e().and(&release.e().not())?.or(&set.e())?;
    md.assign(&alloc_d.lv(), &next)?;
    md.assign(&gnt_o.lv(), &gnt.e())?;
    md.assign(&gnt_ovc_o.lv(), &encode(&free_oh.e(), vw)?)?;
    if let Some(s) = set_o {
        md.assign(&s.lv(), &set.e())?;
    }
    if keep_owner {
        md.comment(if full {
            "Owner of each output VC (full crossbar: selects the crossbar input)."
        } else {
            "Owner of each output VC (owner[o][u], §9.4 stage 3, for acceleration)."
        });
        md.integer("i")?;
        let idx = md.comb_reg("gnt_idx", iw)?;
        md.comb(vec![
            Stmt::assign(&idx.lv(), &Expr::zero(iw))?,
            Stmt::For {
                var: "i".into(),
                bound: nm.to_string(),
                body: vec![Stmt::if_(
                    &Expr::raw("gnt[i]", 1),
                    vec![Stmt::assign(&idx.lv(), &idx.e().or(&Expr::raw(format!("i[{}:0]", iw - 1), iw))?)?],
                    vec![],
                )?],
            },
        ])?;
        let mut owners = vec![];
        for u in 0..m {
            let q = md.register_next(
                &format!("owner{u}"),
                &Expr::zero(iw),
                &Expr::mux(&set.e().bit(u)?, &idx.e(), &Expr::raw(format!("owner{u}_q"), iw))?,
            )?;
            owners.push(q.e());
        }
        if let Some(owner_o) = owner_o {
            md.assign(&owner_o.lv(), &cat_lsb_first(&owners)?)?;
        }
        if let Some(victim_o) = victim_o {
            md.comment("Acceleration (§9.5): if requesters are blocked because no output VC is free,");
            md.comment("the lowest output VC whose owner's class is below the highest blocked class");
            let wc = win_cls.as_ref().expect("classes");
            let mut ocls = vec![];
            for u in 0..m {
                let q = md.register_next(
                    &format!("owner{u}_cls"),
                    &Expr::zero(clw),
                    &Expr::mux(&set.e().bit(u)?, &wc.e(), &Expr::raw(format!("owner{u}_cls_q"), clw))?,
                )?;
                ocls.push(q);
            }
            let blocked = md.wire_of("blocked", &req.e().red_or().land(&free.e().red_or().lnot()?)?)?;
            let mut has = vec![Expr::one_bit(false)];
            for c in 1..d.s {
                let bits = (0..nm).map(|i| cls_of_i(i)?.eq(&lit(clw, c as u64)?)).collect::<Result<Vec<_>>>()?;
                has.push(md.wire_of(&format!("req_cls{c}"), &req.e().and(&cat_lsb_first(&bits)?)?.red_or())?.e());
            }
            let mut cstar = Expr::zero(clw);
            for c in 1..d.s {
                cstar = Expr::mux(&has[c as usize], &lit(clw, c as u64)?, &cstar)?;
            }
            let cstar = md.wire_of("blocked_cls", &cstar)?;
            let lows = ocls.iter().map(|q| q.e().lt(&cstar.e())).collect::<Result<Vec<_>>>()?;
            let lower = md.wire_of("lower_owner", &cat_lsb_first(&lows)?)?;
            let vict = crate::qos::lowest(&mut md, "victim_vc", &lower)?;
            let vidx = md.wire_of("victim_idx", &Expr::onehot_mux(&vict.e(), &owners)?)?;
            md.assign(
                &victim_o.lv(),
                &Expr::mux(&blocked.e().land(&lower.e().red_or())?, &onehot_of(&vidx.e(), nm)?, &Expr::zero(nm))?,
            )?;
        }
    }
    Ok(md)
}

/// `<prefix>_output_port`: M output VC buffers, credits, the VC multiplexer
/// (point C) and the output link registers (stage 5).
/// `fifo` is the per-VC buffer, or with [`Dims::shared_ob`] the port's
/// `vc_buffer` (then `wdata_i` is one flit: point B's winner).
pub(crate) fn output_port(d: &Dims, fifo: &Module, arb: &Module) -> Result<Module> {
    let (m, w, fw, vw, dd) = (d.m, d.w, d.fw, d.vw, d.dd as u64);
    let obw = d.obw();
    let mut md = Module::new(format!("{}_output_port", d.prefix));
    md.doc("Output port (stage 5): M output VC buffers, a credit counter per output VC,");
    md.doc("the VC multiplexer (point C) and the registered output link.");
    let flit_fields = if d.pre() { "{head, tail, dummy, data}" } else { "{head, tail, data}" };
    if d.shared_ob() {
        md.doc(format!("push_i (one-hot or zero) writes wdata_i = {flit_fields} into output VC u; the M"));
        md.doc("output VC buffers share one memory.");
    } else {
        md.doc(format!("push_i[u] writes wdata_i[u*FW +: FW] = {flit_fields} into output VC u."));
    }
    md.doc("full_o[u]: output VC u's buffer is full (start of cycle).");
    md.input("clk_i", 1)?;
    md.input("rst_i", 1)?;
    let push = md.input("push_i", m)?;
    if d.vc_at_c() {
        md.doc("virtualclock at point C: each buffer entry is {vtick, head, tail, data} (§8.2).");
    }
    let wdata = md.input("wdata_i", if d.shared_ob() { obw } else { m * obw })?;
    let enter = if d.age_at_c() { Some(md.input("enter_i", m)?) } else { None };
    let credit = md.input("credit_i", m)?;
    let full_o = if d.is(Mutant::DropOnBackpressure) { None } else { Some(md.output("full_o", m)?) };
    let valid_o = md.output("out_valid_o", 1)?;
    let vc_o = md.output("out_vc_o", vw)?;
    let head_o = md.output("out_head_o", 1)?;
    let tail_o = md.output("out_tail_o", 1)?;
    let dummy_o = if d.pre() { Some(md.output("out_dummy_o", 1)?) } else { None };
    let data_o = md.output("out_data_o", w)?;

    let pick = md.wire("pick", m)?;
    let reset_credits = if d.is(Mutant::CreditOffByOne) { dd + 1 } else { dd };
    let cw = clog2(reset_credits + 1);
    let mut fulls = vec![];
    let mut eligs = vec![];
    let mut fronts = vec![];
    let (mut vticks, mut presents) = (vec![], vec![]);
    let shared = if d.shared_ob() {
        md.comment("The port's output VC buffers, one shared memory; the front of the VC point C picks");
        let (e, flit) = (md.wire("buf_empty", m)?, md.wire("buf_front", obw)?);
        if full_o.is_none() {
            md.raw_line("/* verilator lint_off UNUSED */ // mutant: the fullness is ignored");
        }
        let f = md.wire("buf_full", m)?;
        if full_o.is_none() {
            md.raw_line("/* verilator lint_on UNUSED */");
        }
        md.instance(
            fifo,
            "u_ob",
            &[
                ("clk_i", Expr::raw("clk_i", 1)),
                ("rst_i", Expr::raw("rst_i", 1)),
                ("push_i", push.e()),
                ("wdata_i", wdata.e()),
                ("pop_i", pick.e()),
                ("rsel_i", pick.e()),
                ("rdata_o", flit.e()),
                ("empty_o", e.e()),
                ("full_o", f.e()),
            ],
        )?;
        Some((e, f, flit))
    } else {
        None
    };
    for u in 0..m {
        md.comment(format!("Output VC {u}"));
        let (empty, full) = match &shared {
            Some((e, f, _)) => (e.e().bit(u)?, f.e().bit(u)?),
            None => {
                let front = md.wire(&format!("vc{u}_front"), obw)?;
                let empty = md.wire(&format!("vc{u}_empty"), 1)?;
                if full_o.is_none() {
                    md.raw_line("/* verilator lint_off UNUSED */ // mutant: the fullness is ignored");
                }
                let full = md.wire(&format!("vc{u}_full"), 1)?;
                if full_o.is_none() {
                    md.raw_line("/* verilator lint_on UNUSED */");
                }
                md.instance(
                    fifo,
                    &format!("u_ob{u}"),
                    &[
                        ("clk_i", Expr::raw("clk_i", 1)),
                        ("rst_i", Expr::raw("rst_i", 1)),
                        ("push_i", push.e().bit(u)?),
                        ("wdata_i", wdata.e().part(u * obw, obw)?),
                        ("pop_i", pick.e().bit(u)?),
                        ("rdata_o", front.e()),
                        ("empty_o", empty.e()),
                        ("full_o", full.e()),
                    ],
                )?;
                if d.vc_at_c() {
                    fronts.push(front.e().slice(fw - 1, 0)?);
                    vticks.push(front.e().slice(obw - 1, fw)?);
                    presents.push(empty.e().lnot()?);
                } else {
                    fronts.push(front.e());
                }
                (empty.e(), full.e())
            }
        };
        let (cr_q, cr_d) = md.register(&format!("vc{u}_credits"), cw, &lit(cw, reset_credits)?)?;
        let sent = pick.e().bit(u)?;
        let ret = credit.e().bit(u)?;
        // credits - sent + returned, saturating at DD (a return at DD is ignored).
        // The mutant believes the downstream buffer is one slot deeper throughout.
        md.comb(vec![
            Stmt::assign(&cr_d.lv(), &cr_q.e())?,
            Stmt::if_(
                &sent.land(&ret.lnot()?)?,
                vec![Stmt::assign(&cr_d.lv(), &cr_q.e().sub(&lit(cw, 1)?)?)?],
                vec![Stmt::if_(
                    &sent.lnot()?.land(&ret)?.land(&cr_q.e().lt(&lit(cw, reset_credits)?)?)?,
                    vec![Stmt::assign(&cr_d.lv(), &cr_q.e().add(&lit(cw, 1)?)?)?],
                    vec![],
                )?],
            )?,
        ])?;
        fulls.push(full);
        eligs.push(empty.lnot()?.land(&cr_q.e().ne(&Expr::zero(cw))?)?);
    }
    md.comment("Point C: VC multiplexer");
    let elig = md.wire_of("elig", &cat_lsb_first(&eligs)?)?;
    let any_pick = md.wire_of("any_pick", &pick.e().red_or())?;
    let elig = if d.crossbar == Crossbar::Full && d.b > 1 {
        let tails = (0..m).map(|u| Expr::raw(format!("vc{u}_front"), obw).bit(fw - 2)).collect::<Result<Vec<_>>>()?;
        let tail = Expr::onehot_mux(&pick.e(), &tails)?;
        let x = crate::qos::sched_wrap(&mut md, d, "c", &elig.e(), None, &pick.e(), &any_pick.e(), &tail, arb)?;
        Sig { name: x.text().to_string(), width: m, sym: None }
    } else {
        elig
    };
    let mut conns = vec![("clk_i", Expr::raw("clk_i", 1)), ("rst_i", Expr::raw("rst_i", 1))];
    if let Some(enter) = &enter {
        conns.push(("elig_i", elig.e()));
        conns.push(("enter_i", enter.e()));
    } else if d.vc_at_c() {
        conns.push(("present_i", md.wire_of("present", &cat_lsb_first(&presents)?)?.e()));
        conns.push(("vtick_i", md.wire_of("vtick", &cat_lsb_first(&vticks)?)?.e()));
        conns.push(("elig_i", elig.e()));
        conns.push(("take_i", any_pick.e()));
    } else {
        conns.push(("req_i", elig.e()));
        conns.push(("advance_i", any_pick.e()));
    }
    conns.push(("gnt_o", pick.e()));
    md.instance(arb, "u_arb_c", &conns)?;
    if enter.is_some() {
        // any_pick is only needed by a round-robin arbiter; keep it used.
        md.comment("(any_pick feeds out_valid)");
    }
    let flit = match &shared {
        // The output registers become all 0 without a pick (§6 stage 5).
        Some((_, _, f)) => Expr::mux(&any_pick.e(), &f.e(), &Expr::zero(obw))?,
        None => Expr::onehot_mux(&pick.e(), &fronts)?,
    };
    let valid_q = md.register_next("out_valid", &Expr::zero(1), &any_pick.e())?;
    let vc_q = md.register_next("out_vc", &Expr::zero(vw), &encode(&pick.e(), vw)?)?;
    let flit_q = md.register_next("out_flit", &Expr::zero(fw), &flit)?;
    md.assign(&valid_o.lv(), &valid_q.e())?;
    md.assign(&vc_o.lv(), &vc_q.e())?;
    md.assign(&head_o.lv(), &flit_q.e().bit(fw - 1)?)?;
    md.assign(&tail_o.lv(), &flit_q.e().bit(fw - 2)?)?;
    if let Some(dm) = dummy_o {
        md.assign(&dm.lv(), &flit_q.e().bit(w)?)?;
    }
    md.assign(&data_o.lv(), &flit_q.e().slice(w - 1, 0)?)?;
    if let Some(f) = full_o {
        md.assign(&f.lv(), &cat_lsb_first(&fulls)?)?;
    }
    Ok(md)
}

/// The generated module set, in dependency order.
pub(crate) struct Modules {
    pub list: Vec<Module>,
}

impl Modules {
    fn add(&mut self, m: &Module) -> Result<()> {
        if let Some(prev) = self.list.iter().find(|x| x.name() == m.name()) {
            if prev.render_with(false) != m.render_with(false) {
                return Err(HdlError::Invalid(format!("module {} renders differently for two parameter sets", m.name())));
            }
            return Ok(());
        }
        self.list.push(m.clone());
        Ok(())
    }
}

fn clk_rst() -> [(&'static str, Expr); 2] {
    [("clk_i", Expr::raw("clk_i", 1)), ("rst_i", Expr::raw("rst_i", 1))]
}

/// Builds every module of the router.
pub(crate) fn build(d: &Dims) -> Result<Modules> {
    let (n, m, w, fw, vw, pw, nm, iw) = (d.n, d.m, d.w, d.fw, d.vw, d.pw, d.nm(), d.iw);
    let mut mods = Modules { list: vec![] };
    let p = &d.prefix;
    let ib_fifo = if d.shared_ib() { generic::vc_buffer(&format!("{p}_ib_buffer"), fw, d.di, m, d.rc_w())? } else { generic::fifo(p, fw, d.di)? };
    let ob_fifo = if d.shared_ob() { generic::vc_buffer(&format!("{p}_ob_buffer"), d.obw(), d.do_, m, 0)? } else { generic::fifo(p, d.obw(), d.do_)? };
    let rr_nm = generic::rr_arbiter(p, nm)?;
    let rr_m = generic::rr_arbiter(p, m)?;
    let rr_n = generic::rr_arbiter(p, n)?;
    let age_m = generic::age_arbiter(p, m)?;
    let vcs_m = vclock::vclock_sched(p, m, d.cw, d.vtw, d.mutant)?;
    mods.add(&ib_fifo)?;
    mods.add(&ob_fifo)?;
    mods.add(&rr_nm)?;
    let multiplexed = d.crossbar == Crossbar::Multiplexed;
    if multiplexed {
        mods.add(&rr_n)?;
    }
    if multiplexed || !(d.age_at_c() || d.vc_at_c()) {
        mods.add(&rr_m)?;
    }
    if d.age_at_a() || d.age_at_c() {
        mods.add(&age_m)?;
    }
    if d.vclock() {
        mods.add(&vcs_m)?;
    }
    let inp = if d.pre() {
        crate::qos::input_port_p(d, &ib_fifo)?
    } else if d.shared_ib() {
        input_port(d, InputBuffers::Shared(&ib_fifo))?
    } else {
        input_port(d, InputBuffers::PerVc(&ib_fifo))?
    };
    let va = vc_allocator(d, &rr_nm)?;
    let arb_c = if d.age_at_c() {
        &age_m
    } else if d.vc_at_c() {
        &vcs_m
    } else {
        &rr_m
    };
    let outp = output_port(d, &ob_fifo, arb_c)?;
    mods.add(&inp)?;
    mods.add(&va)?;
    mods.add(&outp)?;

    let mut t = Module::new(format!("{p}_router"));
    t.doc(format!("Wormhole virtual-channel router `{p}`: {n} ports, {m} VCs per port, {w}-bit flits,"));
    t.doc(format!(
        "{:?} crossbar, {:?} scheduler; 5-stage pipeline BW, RC, VA, ST, output (docs/microarchitecture.md).",
        d.crossbar, d.scheduler
    ));
    t.doc("All buses are flat: port p's field of width F is [p*F +: F]; credits bit p*M+v.");
    t.input("clk_i", 1)?;
    t.input("rst_i", 1)?;
    let in_valid = t.input("in_valid_i", n)?;
    let in_vc = t.input("in_vc_i", n * vw)?;
    let in_head = t.input("in_head_i", n)?;
    let in_tail = t.input("in_tail_i", n)?;
    let in_dummy = if d.pre() { Some(t.input("in_dummy_i", n)?) } else { None };
    let in_data = t.input("in_data_i", n * w)?;
    let in_credit_o = t.output("in_credit_o", nm)?;
    let out_valid = t.output("out_valid_o", n)?;
    let out_vc = t.output("out_vc_o", n * vw)?;
    let out_head = t.output("out_head_o", n)?;
    let out_tail = t.output("out_tail_o", n)?;
    let out_dummy = if d.pre() { Some(t.output("out_dummy_o", n)?) } else { None };
    let out_data = t.output("out_data_o", n * w)?;
    let out_credit = t.input("out_credit_i", nm)?;

    t.comment("Per input VC i = p*M+v, flat.");
    let va_req_all = t.wire("va_req_all", nm * n)?;
    let va_route_all = t.wire("va_route_all", nm * pw)?;
    let st_req = t.wire("st_req", nm)?;
    let route_all = t.wire("route_all", nm * pw)?;
    let ovc_all = t.wire("ovc_all", nm * vw)?;
    let front_all = if d.shared_ib() { None } else { Some(t.wire("front_all", nm * fw)?) };
    // Point A's candidates: the shared input buffers read their flits.
    let (cand, cand_flit) = if multiplexed { (Some(t.wire("cand", nm)?), Some(t.wire("cand_flit", n * fw)?)) } else { (None, None) };
    let va_gnt = t.wire("va_gnt", nm)?;
    let va_ovc_in = t.wire("va_ovc_in", nm * vw)?;
    let mv = t.wire("move", nm)?;
    t.comment("Per output VC o*M+u, flat.");
    let ob_full = if d.is(Mutant::DropOnBackpressure) { None } else { Some(t.wire("ob_full", nm)?) };
    let push = t.wire("push", nm)?;
    let obw = d.obw();
    // Write data per output port: one flit (shared output buffers) or one per output VC.
    let ob_w = if d.shared_ob() { obw } else { m * obw };
    let wdata = t.wire("ob_wdata", n * ob_w)?;
    let vtick_all = if d.vclock() { Some(t.wire("vtick_all", nm * d.vtw)?) } else { None };
    let release = t.wire("ovc_release", nm)?;
    let enter_c = if d.age_at_c() { Some(t.wire("enter_c", nm)?) } else { None };
    let owner_all = if !multiplexed { Some(t.wire("owner_all", nm * iw)?) } else { None };
    let va_ovc_port = t.wire("va_ovc_port", n * vw)?;
    let (credit_all, relb_all) = if d.pre() {
        t.comment("Preemptive mode: lane pops (credits) and case (b) output-VC releases, per input VC.");
        (Some(t.wire("credit_all", nm)?), Some(t.wire("relb_all", nm)?))
    } else {
        (None, None)
    };
    let cls_all = if d.need_cls() { Some(t.wire("cls_all", nm * d.clw)?) } else { None };
    let avc_all = if d.avc.is_some() { Some(t.wire("avc_all", nm * m)?) } else { None };
    let free_cnt_all = if d.links.is_some() { Some(t.wire("free_cnt_all", n * d.fcw())?) } else { None };
    let (accel_all, acc_set) = if d.accel { (Some(t.wire("accel_all", nm)?), Some(t.wire("acc_set", nm)?)) } else { (None, None) };

    for pi in 0..n {
        t.comment(format!("Input port {pi}"));
        let mut conns = vec![
                clk_rst()[0].clone(),
                clk_rst()[1].clone(),
                ("in_valid_i", in_valid.e().bit(pi)?),
                ("in_vc_i", in_vc.e().part(pi * vw, vw)?),
                ("in_head_i", in_head.e().bit(pi)?),
                ("in_tail_i", in_tail.e().bit(pi)?),
                ("in_dummy_i", match &in_dummy { Some(x) => x.e().bit(pi)?, None => Expr::zero(1) }),
                ("in_data_i", in_data.e().part(pi * w, w)?),
                ("va_gnt_i", va_gnt.e().part(pi * m, m)?),
                ("va_ovc_i", va_ovc_in.e().part(pi * m * vw, m * vw)?),
                ("pop_i", mv.e().part(pi * m, m)?),
                ("va_req_o", va_req_all.e().part(pi * m * n, m * n)?),
                ("va_route_o", va_route_all.e().part(pi * m * pw, m * pw)?),
                ("st_req_o", st_req.e().part(pi * m, m)?),
                ("route_o", route_all.e().part(pi * m * pw, m * pw)?),
                ("ovc_o", ovc_all.e().part(pi * m * vw, m * vw)?),
            ];
        match (&front_all, &cand, &cand_flit) {
            (Some(f), _, _) => conns.push(("front_o", f.e().part(pi * m * fw, m * fw)?)),
            (None, Some(c), Some(cf)) => {
                conns.push(("rsel_i", c.e().part(pi * m, m)?));
                conns.push(("cand_flit_o", cf.e().part(pi * fw, fw)?));
            }
            _ => return Err(HdlError::Invalid("shared input buffers need a multiplexed crossbar".into())),
        }
        if in_dummy.is_none() {
            conns.retain(|c| c.0 != "in_dummy_i");
        }
        if let Some(va) = &vtick_all {
            conns.push(("vtick_o", va.e().part(pi * m * d.vtw, m * d.vtw)?));
        }
        if let (Some(c), Some(r)) = (&credit_all, &relb_all) {
            conns.push(("credit_o", c.e().part(pi * m, m)?));
            conns.push(("release_o", r.e().part(pi * m, m)?));
        }
        if let Some(c) = &cls_all {
            conns.push(("cls_o", c.e().part(pi * m * d.clw, m * d.clw)?));
        }
        if let Some(a) = &avc_all {
            conns.push(("avc_o", a.e().part(pi * m * m, m * m)?));
        }
        if let Some(f) = &free_cnt_all {
            conns.push(("free_cnt_i", f.e()));
        }
        if let (Some(a), Some(s)) = (&accel_all, &acc_set) {
            conns.push(("accel_o", a.e().part(pi * m, m)?));
            conns.push(("acc_set_i", s.e().part(pi * m, m)?));
        }
        t.instance(&inp, &format!("u_in{pi}"), &conns)?;
    }

    t.comment("Stage 3: one output-VC allocator per output port");
    let mut gnts = vec![];
    let mut victims = vec![];
    for o in 0..n {
        let bits = (0..nm).map(|i| va_req_all.e().bit(i * n + o)).collect::<Result<Vec<_>>>()?;
        let req = t.wire_of(&format!("va_req{o}"), &cat_lsb_first(&bits)?)?;
        let g = t.wire(&format!("va_gnt{o}"), nm)?;
        let mut conns = vec![
            clk_rst()[0].clone(),
            clk_rst()[1].clone(),
            ("req_i", req.e()),
            ("release_i", release.e().part(o * m, m)?),
            ("gnt_o", g.e()),
            ("gnt_ovc_o", va_ovc_port.e().part(o * vw, vw)?),
        ];
        if let Some(ec) = &enter_c {
            conns.push(("alloc_set_o", ec.e().part(o * m, m)?));
        }
        if let Some(ow) = &owner_all {
            conns.push(("owner_o", ow.e().part(o * m * iw, m * iw)?));
        }
        if let Some(c) = &cls_all {
            conns.push(("cls_i", c.e()));
        }
        if let Some(a) = &avc_all {
            conns.push(("avc_i", a.e()));
        }
        if let Some(f) = &free_cnt_all {
            conns.push(("free_cnt_o", f.e().part(o * d.fcw(), d.fcw())?));
        }
        if acc_set.is_some() {
            let vw_ = t.wire(&format!("victim{o}"), nm)?;
            conns.push(("victim_o", vw_.e()));
            victims.push(vw_.e());
        }
        t.instance(&va, &format!("u_va{o}"), &conns)?;
        gnts.push(g.e());
    }
    t.assign(&va_gnt.lv(), &Expr::or_all(&gnts)?)?;
    if let Some(a) = &acc_set {
        t.assign(&a.lv(), &Expr::or_all(&victims)?)?;
    }
    for i in 0..nm {
        let r = va_route_all.e().part(i * pw, pw)?;
        t.assign(&va_ovc_in.lv_part(i * vw, vw)?, &va_ovc_port.e().elem_dyn(&r, vw)?)?;
    }

    t.comment("Stage 4: switch traversal");
    let ready = t.wire("ready", nm)?;
    match &ob_full {
        Some(f) => {
            let rm = switch::st_ready(d)?;
            mods.add(&rm)?;
            for pi in 0..n {
                t.instance(
                    &rm,
                    &format!("u_rdy{pi}"),
                    &[
                        ("ob_full_i", f.e()),
                        ("st_req_i", st_req.e().part(pi * m, m)?),
                        ("route_i", route_all.e().part(pi * m * pw, m * pw)?),
                        ("ovc_i", ovc_all.e().part(pi * m * vw, m * vw)?),
                        ("ready_o", ready.e().part(pi * m, m)?),
                    ],
                )?;
            }
        }
        None => t.assign(&ready.lv(), &st_req.e())?,
    }
    // The output VCs named by each input port's selected VCs (`sel`, N*M
    // bits), ORed over the ports: one `vc_spread` instance per port.
    let spread_m = if d.pre() || !multiplexed { Some(switch::vc_spread(d)?) } else { None };
    if let Some(s) = &spread_m {
        mods.add(s)?;
    }
    let spread = |t: &mut Module, tag: &str, sel: &Expr| -> Result<Expr> {
        let sm = spread_m.as_ref().expect("vc_spread built for this mode");
        let mut terms = vec![];
        for pi in 0..n {
            let s = t.wire(&format!("{tag}{pi}"), nm)?;
            t.instance(
                sm,
                &format!("u_{tag}{pi}"),
                &[
                    ("sel_i", sel.part(pi * m, m)?),
                    ("route_i", route_all.e().part(pi * m * pw, m * pw)?),
                    ("ovc_i", ovc_all.e().part(pi * m * vw, m * vw)?),
                    ("spread_o", s.e()),
                ],
            )?;
            terms.push(s.e());
        }
        Expr::or_all(&terms)
    };
    // Output-VC releases: tails crossing, plus preemption case (b) (§9.4).
    let relb_or = |t: &mut Module, tails: Expr| -> Result<Expr> {
        let Some(rb) = &relb_all else { return Ok(tails) };
        t.comment("Preemption case (b): output VCs released by a suspended message (§9.4)");
        let b = spread(t, "relb", &rb.e())?;
        Expr::or_all(&[tails, b])
    };
    let tail_of = |i: u32| match &front_all {
        Some(f) => f.e().bit(i * fw + fw - 2),
        None => Err(HdlError::Invalid("per-VC front flits exist only with per-VC input buffers".into())),
    };

    if multiplexed {
        let won = t.wire("won", n)?;
        let arb_a = if d.age_at_a() {
            switch::PointAArbiter::Age(&age_m)
        } else if d.vc_at_a() {
            switch::PointAArbiter::VirtualClock(&vcs_m)
        } else {
            switch::PointAArbiter::RoundRobin(&rr_m)
        };
        let needs_won = switch::point_a_needs_won(d, &arb_a);
        let pa = switch::point_a(d, arb_a, &rr_m)?;
        let pb = switch::point_b(d, &rr_n)?;
        mods.add(&pa)?;
        mods.add(&pb)?;
        let (cand, cand_flit) = match (&cand, &cand_flit) {
            (Some(c), Some(f)) => (c.clone(), f.clone()),
            _ => return Err(HdlError::Invalid("multiplexed crossbar without candidate wires".into())),
        };
        let cand_route = t.wire("cand_route", n * pw)?;
        let cand_ovc = t.wire("cand_ovc", n * vw)?;
        let mut moves = vec![];
        for pi in 0..n {
            t.comment(format!("Point A of input port {pi}"));
            let mut conns = vec![
                clk_rst()[0].clone(),
                clk_rst()[1].clone(),
                ("ready_i", ready.e().part(pi * m, m)?),
                ("route_i", route_all.e().part(pi * m * pw, m * pw)?),
                ("ovc_i", ovc_all.e().part(pi * m * vw, m * vw)?),
            ];
            match &front_all {
                Some(f) => conns.push(("front_i", f.e().part(pi * m * fw, m * fw)?)),
                None if switch::point_a_needs_cand_tail(d) => conns.push(("cand_tail_i", cand_flit.e().bit(pi * fw + fw - 2)?)),
                None => {}
            }
            if needs_won {
                conns.push(("won_i", won.e().bit(pi)?));
            }
            if d.age_at_a() {
                conns.push(("enter_i", va_gnt.e().part(pi * m, m)?));
            }
            if d.vc_at_a() {
                let va = vtick_all.as_ref().expect("virtualclock");
                conns.push(("st_req_i", st_req.e().part(pi * m, m)?));
                conns.push(("vtick_i", va.e().part(pi * m * d.vtw, m * d.vtw)?));
            }
            if let Some(a) = &accel_all {
                conns.push(("accel_i", a.e().part(pi * m, m)?));
            }
            conns.push(("cand_o", cand.e().part(pi * m, m)?));
            conns.push(("cand_route_o", cand_route.e().part(pi * pw, pw)?));
            conns.push(("cand_ovc_o", cand_ovc.e().part(pi * vw, vw)?));
            if front_all.is_some() {
                conns.push(("cand_flit_o", cand_flit.e().part(pi * fw, fw)?));
            }
            t.instance(&pa, &format!("u_xa{pi}"), &conns)?;
            moves.push(cand.e().part(pi * m, m)?.and(&Expr::repl(m, &won.e().bit(pi)?)?)?);
        }
        let mut gnt_b = vec![];
        let mut pushes = vec![];
        let mut wdatas = vec![];
        let mut releases = vec![];
        for o in 0..n {
            t.comment(format!("Point B of output port {o}"));
            let reqs = (0..n)
                .map(|pi| cand.e().part(pi * m, m)?.red_or().land(&cand_route.e().part(pi * pw, pw)?.eq(&lit(pw, o as u64)?)?))
                .collect::<Result<Vec<_>>>()?;
            let req = t.wire_of(&format!("xb_req{o}"), &cat_lsb_first(&reqs)?)?;
            let g = t.wire(&format!("xb_gnt{o}"), n)?;
            let pv = t.wire(&format!("xpush{o}"), m)?;
            let xflit = t.wire(&format!("xflit{o}"), fw)?;
            t.instance(
                &pb,
                &format!("u_xb{o}"),
                &[
                    clk_rst()[0].clone(),
                    clk_rst()[1].clone(),
                    ("req_i", req.e()),
                    ("cand_ovc_i", cand_ovc.e()),
                    ("cand_flit_i", cand_flit.e()),
                    ("gnt_o", g.e()),
                    ("push_o", pv.e()),
                    ("flit_o", xflit.e()),
                ],
            )?;
            pushes.push(pv.e());
            wdatas.push(if d.shared_ob() { xflit.e() } else { Expr::repl(m, &xflit.e())? });
            releases.push(pv.e().and(&Expr::repl(m, &xflit.e().bit(fw - 2)?)?)?);
            gnt_b.push(g.e());
        }
        t.assign(&won.lv(), &Expr::or_all(&gnt_b)?)?;
        t.assign(&mv.lv(), &cat_lsb_first(&moves)?)?;
        t.assign(&push.lv(), &cat_lsb_first(&pushes)?)?;
        t.assign(&wdata.lv(), &cat_lsb_first(&wdatas)?)?;
        let tails_rel = if d.is(Mutant::TailKeepsVc) { Expr::zero(nm) } else { cat_lsb_first(&releases)? };
        let rel_all = relb_or(&mut t, tails_rel)?;
        t.assign(&release.lv(), &rel_all)?;
    } else {
        t.comment("Full crossbar: every ready input VC moves to its own output VC");
        t.assign(&mv.lv(), &ready.e())?;
        let pushes = spread(&mut t, "push", &ready.e())?;
        t.assign(&push.lv(), &pushes)?;
        let tails_rel = if d.is(Mutant::TailKeepsVc) {
            Expr::zero(nm)
        } else {
            let tails = (0..nm).map(tail_of).collect::<Result<Vec<_>>>()?;
            let moved_tails = t.wire_of("moved_tail", &ready.e().and(&cat_lsb_first(&tails)?)?)?;
            spread(&mut t, "tailrel", &moved_tails.e())?
        };
        let rel_all = relb_or(&mut t, tails_rel)?;
        t.assign(&release.lv(), &rel_all)?;
        let owner_all = owner_all.as_ref().expect("full crossbar");
        let xm = switch::xbar_out(d)?;
        mods.add(&xm)?;
        for o in 0..n {
            t.comment(format!("Full crossbar columns of output port {o}"));
            let fa = front_all.as_ref().ok_or_else(|| HdlError::Invalid("full crossbar without per-VC fronts".into()))?;
            let mut conns = vec![("owner_i", owner_all.e().part(o * m * iw, m * iw)?), ("front_i", fa.e())];
            if d.vc_at_c() {
                conns.push(("vtick_i", vtick_all.as_ref().expect("virtualclock").e()));
            }
            conns.push(("wdata_o", wdata.e().part(o * ob_w, ob_w)?));
            t.instance(&xm, &format!("u_xbar{o}"), &conns)?;
        }
    }

    t.comment("Credits returned upstream: one cycle after a flit leaves an input VC buffer");
    let moved = match &credit_all {
        Some(c) => c.e(),
        None => mv.e(),
    };
    let credit_next = if d.is(Mutant::CreditNotReturned) {
        moved.and(&onehot_of(&lit(1, 0)?, nm)?.not())?
    } else {
        moved
    };
    let in_credit_q = t.register_next("in_credit", &Expr::zero(nm), &credit_next)?;
    t.assign(&in_credit_o.lv(), &in_credit_q.e())?;

    for o in 0..n {
        t.comment(format!("Output port {o}"));
        let mut conns = vec![
            clk_rst()[0].clone(),
            clk_rst()[1].clone(),
            ("push_i", push.e().part(o * m, m)?),
            ("wdata_i", wdata.e().part(o * ob_w, ob_w)?),
            ("credit_i", out_credit.e().part(o * m, m)?),
            ("out_valid_o", out_valid.e().bit(o)?),
            ("out_vc_o", out_vc.e().part(o * vw, vw)?),
            ("out_head_o", out_head.e().bit(o)?),
            ("out_tail_o", out_tail.e().bit(o)?),
            ("out_data_o", out_data.e().part(o * w, w)?),
        ];
        if let Some(od) = &out_dummy {
            conns.push(("out_dummy_o", od.e().bit(o)?));
        }
        if let Some(ec) = &enter_c {
            conns.push(("enter_i", ec.e().part(o * m, m)?));
        }
        if let Some(f) = &ob_full {
            conns.push(("full_o", f.e().part(o * m, m)?));
        }
        t.instance(&outp, &format!("u_out{o}"), &conns)?;
    }
    mods.add(&t)?;
    Ok(mods)
}

//! A small, typed Verilog-2001 emitting layer.
//!
//! Every signal is declared with an explicit width, every expression carries
//! its width, and every assignment, comparison, arithmetic operation and port
//! connection checks the widths of its operands when the Verilog is generated:
//! a mismatch is an [`HdlError::WidthMismatch`], never silently truncated or
//! extended Verilog. Extension is explicit ([`Expr::zext`]).
//!
//! Registers follow the lowRISC style: `foo_q` is the register, `foo_d` its
//! next state (assigned in `always @(*)` blocks, default first), and one
//! `always @(posedge clk_i)` block per module performs
//! `if (rst_i) foo_q <= RESET; else foo_q <= foo_d;` (synchronous, active-high).
//!
//! Parameterized modules (e.g. a FIFO with `WIDTH`/`DEPTH`) are built once
//! per set of parameter values, so all widths are checked concretely; their
//! declarations render symbolically (`[WIDTH-1:0]`) via [`Sig::sym`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

mod ops;
pub use ops::{all_of, and_of, any_of, cat, cat_lsb, hex, num, onehot_select, AsExpr, AsPlace};

/// Errors of the generator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HdlError {
    /// Two operands, or the two sides of an assignment / a port connection,
    /// have different widths.
    #[error("width mismatch in {context}: {left} bits vs {right} bits")]
    WidthMismatch { context: String, left: u32, right: u32 },
    /// A structural rule of the layer is broken (latch risk, bad slice, unknown port...).
    #[error("invalid Verilog construct: {0}")]
    Invalid(String),
}

pub type Result<T> = std::result::Result<T, HdlError>;

fn check_eq(context: impl FnOnce() -> String, left: u32, right: u32) -> Result<()> {
    if left == right {
        Ok(())
    } else {
        Err(HdlError::WidthMismatch { context: context(), left, right })
    }
}

/// Number of bits needed to index `n` items (at least 1).
pub fn clog2(n: u64) -> u32 {
    if n <= 1 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// Verilog-2005 and SystemVerilog keywords that must not be used as names.
const KEYWORDS: &[&str] = &[
    "always", "and", "assign", "automatic", "begin", "buf", "case", "casex", "casez", "cell", "cmos", "config",
    "deassign", "default", "defparam", "design", "disable", "edge", "else", "end", "endcase", "endconfig",
    "endfunction", "endgenerate", "endmodule", "endprimitive", "endspecify", "endtable", "endtask", "event", "for",
    "force", "forever", "fork", "function", "generate", "genvar", "highz0", "highz1", "if", "ifnone", "incdir",
    "include", "initial", "inout", "input", "instance", "integer", "join", "large", "liblist", "library",
    "localparam", "macromodule", "medium", "module", "nand", "negedge", "nmos", "nor", "noshowcancelled", "not",
    "notif0", "notif1", "or", "output", "parameter", "pmos", "posedge", "primitive", "pull0", "pull1", "pulldown",
    "pullup", "rcmos", "real", "realtime", "reg", "release", "repeat", "rnmos", "rpmos", "rtran", "rtranif0",
    "rtranif1", "scalared", "signed", "small", "specify", "specparam", "strong0", "strong1", "supply0", "supply1",
    "table", "task", "time", "tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg",
    "unsigned", "use", "vectored", "wait", "wand", "weak0", "weak1", "while", "wire", "wor", "xnor", "xor",
    // SystemVerilog (Verilator parses these as keywords)
    "bit", "byte", "logic", "int", "shortint", "longint", "string", "class", "final", "do", "break", "continue",
    "return", "priority", "unique", "import", "export", "interface", "package", "program", "property", "sequence",
    "assert", "assume", "cover", "type", "typedef", "enum", "struct", "union", "void", "var", "ref", "const",
    "static", "virtual", "extends", "new", "null", "this", "super", "local", "protected", "rand", "randc",
    "constraint", "covergroup", "clocking", "modport", "alias", "chandle", "context", "dist", "expect", "foreach",
    "inside", "join_any", "join_none", "matches", "randomize", "solve", "tagged", "wildcard", "with", "within",
];

fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// An expression with a known width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    width: u32,
    /// A width error found while building this expression with an operator
    /// (which cannot return a `Result`); reported by whatever consumes the
    /// expression (a statement, an assignment, a port connection).
    err: Option<Box<HdlError>>,
}

impl Expr {
    /// An expression whose text the caller vouches for (loop variables,
    /// localparams). Use sparingly.
    pub fn raw(text: impl Into<String>, width: u32) -> Expr {
        Expr { err: None, text: text.into(), width }
    }
    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The deferred width error of an expression built with operators, as a
    /// `Result` (the expression itself when there is none).
    pub fn ok(&self) -> Result<&Expr> {
        match &self.err {
            Some(e) => Err((**e).clone()),
            None => Ok(self),
        }
    }
    /// An expression that stands for a generator error: every consumer
    /// reports `e`.
    pub fn failed(e: HdlError) -> Expr {
        Expr { err: Some(Box::new(e)), text: String::new(), width: 0 }
    }
    /// Sized decimal literal. Values wider than 64 bits can only be 0.
    pub fn lit(width: u32, value: u64) -> Result<Expr> {
        Self::check_literal(width, value)?;
        Ok(Expr { err: None, text: format!("{width}'d{value}"), width })
    }
    /// Sized hexadecimal literal, zero-padded to the width's digits (for
    /// register constants such as IDs, which read better in hex).
    pub fn lit_hex(width: u32, value: u64) -> Result<Expr> {
        Self::check_literal(width, value)?;
        let digits = width.div_ceil(4) as usize;
        Ok(Expr { err: None, text: format!("{width}'h{value:0digits$x}"), width })
    }
    fn check_literal(width: u32, value: u64) -> Result<()> {
        if width == 0 {
            return Err(HdlError::Invalid("zero-width literal".into()));
        }
        if width < 64 && value >> width != 0 {
            return Err(HdlError::WidthMismatch {
                context: format!("literal {value}"),
                left: width,
                right: 64 - value.leading_zeros(),
            });
        }
        Ok(())
    }
    pub fn zero(width: u32) -> Expr {
        Expr { err: None, text: format!("{width}'d0"), width }
    }
    pub fn one_bit(b: bool) -> Expr {
        Expr { err: None, text: if b { "1'b1".into() } else { "1'b0".into() }, width: 1 }
    }
    pub fn ones(width: u32) -> Expr {
        if width == 1 {
            Expr::one_bit(true)
        } else {
            Expr { err: None, text: format!("{{{width}{{1'b1}}}}"), width }
        }
    }
    /// All zeros with a symbolic width (parameterized modules).
    pub fn zero_sym(sym: &str, width: u32) -> Expr {
        Expr { err: None, text: format!("{{{sym}{{1'b0}}}}"), width }
    }
    pub fn ones_sym(sym: &str, width: u32) -> Expr {
        Expr { err: None, text: format!("{{{sym}{{1'b1}}}}"), width }
    }

    pub fn slice(&self, hi: u32, lo: u32) -> Result<Expr> {
        self.ok()?;
        if hi < lo || hi >= self.width {
            return Err(HdlError::Invalid(format!("slice [{hi}:{lo}] of {} bits: {}", self.width, self.text)));
        }
        if self.width == 1 {
            return Ok(self.clone());
        }
        let base = self.as_selectable()?;
        if hi == lo {
            Ok(Expr { err: None, text: format!("{base}[{hi}]"), width: 1 })
        } else {
            Ok(Expr { err: None, text: format!("{base}[{hi}:{lo}]"), width: hi - lo + 1 })
        }
    }
    pub fn bit(&self, i: u32) -> Result<Expr> {
        self.slice(i, i)
    }
    /// `[lo +: width]` with a constant offset.
    pub fn part(&self, lo: u32, width: u32) -> Result<Expr> {
        if width == 0 {
            return Err(HdlError::Invalid("zero-width part select".into()));
        }
        self.slice(lo + width - 1, lo)
    }
    /// `[idx]` with a variable index; the index must be exactly `clog2(width)` bits.
    pub fn bit_dyn(&self, idx: &Expr) -> Result<Expr> {
        self.ok()?;
        idx.ok()?;
        check_eq(|| format!("index of {}", self.text), clog2(self.width as u64), idx.width)?;
        let base = self.as_selectable()?;
        Ok(Expr { err: None, text: format!("{base}[{}]", idx.text), width: 1 })
    }
    /// `[idx*w +: w]`: element `idx` of a flat array of `w`-bit elements.
    pub fn elem_dyn(&self, idx: &Expr, w: u32) -> Result<Expr> {
        self.ok()?;
        idx.ok()?;
        if w == 0 || !self.width.is_multiple_of(w) {
            return Err(HdlError::Invalid(format!("{} bits is not an array of {w}-bit elements", self.width)));
        }
        let n = self.width / w;
        check_eq(|| format!("element index of {}", self.text), clog2(n as u64), idx.width)?;
        if n == 1 {
            return Ok(self.clone());
        }
        let base = self.as_selectable()?;
        Ok(Expr { err: None, text: format!("{base}[{}*{w} +: {w}]", idx.text), width: w })
    }
    fn as_selectable(&self) -> Result<&str> {
        let ok = self.text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ok {
            Ok(&self.text)
        } else {
            Err(HdlError::Invalid(format!("cannot select bits of expression {}", self.text)))
        }
    }

    fn binop(&self, op: &str, o: &Expr, result_w: Option<u32>) -> Result<Expr> {
        self.ok()?;
        o.ok()?;
        check_eq(|| format!("`{} {op} {}`", self.text, o.text), self.width, o.width)?;
        Ok(Expr { err: None, text: format!("({} {op} {})", self.text, o.text), width: result_w.unwrap_or(self.width) })
    }
    pub fn and(&self, o: &Expr) -> Result<Expr> {
        self.binop("&", o, None)
    }
    pub fn or(&self, o: &Expr) -> Result<Expr> {
        self.binop("|", o, None)
    }
    pub fn xor(&self, o: &Expr) -> Result<Expr> {
        self.binop("^", o, None)
    }
    /// Modular addition: both operands and the result have the same width.
    pub fn add(&self, o: &Expr) -> Result<Expr> {
        self.binop("+", o, None)
    }
    pub fn sub(&self, o: &Expr) -> Result<Expr> {
        self.binop("-", o, None)
    }
    pub fn mul(&self, o: &Expr) -> Result<Expr> {
        self.binop("*", o, None)
    }
    pub fn eq(&self, o: &Expr) -> Result<Expr> {
        self.binop("==", o, Some(1))
    }
    pub fn ne(&self, o: &Expr) -> Result<Expr> {
        self.binop("!=", o, Some(1))
    }
    pub fn lt(&self, o: &Expr) -> Result<Expr> {
        self.binop("<", o, Some(1))
    }
    pub fn ge(&self, o: &Expr) -> Result<Expr> {
        self.binop(">=", o, Some(1))
    }
    /// Logical and of two 1-bit expressions.
    pub fn land(&self, o: &Expr) -> Result<Expr> {
        self.ok()?;
        check_eq(|| format!("`{}` in &&", self.text), 1, self.width)?;
        self.binop("&&", o, Some(1))
    }
    pub fn lor(&self, o: &Expr) -> Result<Expr> {
        self.ok()?;
        check_eq(|| format!("`{}` in ||", self.text), 1, self.width)?;
        self.binop("||", o, Some(1))
    }
    /// Shift left by a variable amount; the result keeps this width.
    pub fn shl(&self, amount: &Expr) -> Result<Expr> {
        self.ok()?;
        amount.ok()?;
        Ok(Expr { err: None, text: format!("({} << {})", self.text, amount.text), width: self.width })
    }
    pub fn not(&self) -> Expr {
        Expr { err: self.err.clone(), text: format!("(~{})", self.text), width: self.width }
    }
    /// Logical not of a 1-bit expression.
    pub fn lnot(&self) -> Result<Expr> {
        self.ok()?;
        check_eq(|| format!("`!{}`", self.text), 1, self.width)?;
        Ok(Expr { err: None, text: format!("(!{})", self.text), width: 1 })
    }
    pub fn red_or(&self) -> Expr {
        Expr { err: self.err.clone(), text: format!("(|{})", self.text), width: 1 }
    }
    pub fn red_and(&self) -> Expr {
        Expr { err: self.err.clone(), text: format!("(&{})", self.text), width: 1 }
    }
    /// `cond ? t : f`; `cond` is 1 bit, `t` and `f` have equal widths.
    pub fn mux(cond: &Expr, t: &Expr, f: &Expr) -> Result<Expr> {
        for x in [cond, t, f] {
            x.ok()?;
        }
        check_eq(|| format!("condition `{}`", cond.text), 1, cond.width)?;
        check_eq(|| format!("`{} ? {} : {}`", cond.text, t.text, f.text), t.width, f.width)?;
        Ok(Expr { err: None, text: format!("({} ? {} : {})", cond.text, t.text, f.text), width: t.width })
    }
    /// `{a, b, ...}`: the first element is the most significant.
    pub fn concat(parts: &[Expr]) -> Result<Expr> {
        for p in parts {
            p.ok()?;
        }
        if parts.is_empty() {
            return Err(HdlError::Invalid("empty concatenation".into()));
        }
        if parts.len() == 1 {
            return Ok(parts[0].clone());
        }
        let width = parts.iter().map(|p| p.width).sum();
        let text = parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(", ");
        Ok(Expr { err: None, text: format!("{{{text}}}"), width })
    }
    /// `{n{e}}`.
    pub fn repl(n: u32, e: &Expr) -> Result<Expr> {
        e.ok()?;
        if n == 0 {
            return Err(HdlError::Invalid("zero replication".into()));
        }
        if n == 1 {
            return Ok(e.clone());
        }
        Ok(Expr { err: None, text: format!("{{{n}{{{}}}}}", e.text), width: n * e.width })
    }
    /// Zero-extends to `width` (which must not be narrower).
    pub fn zext(&self, width: u32) -> Result<Expr> {
        self.ok()?;
        if width < self.width {
            return Err(HdlError::WidthMismatch { context: format!("zero extension of `{}`", self.text), left: width, right: self.width });
        }
        if width == self.width {
            return Ok(self.clone());
        }
        Expr::concat(&[Expr::zero(width - self.width), self.clone()])
    }
    /// OR of all the expressions (equal widths).
    pub fn or_all(parts: &[Expr]) -> Result<Expr> {
        for p in parts {
            p.ok()?;
        }
        let mut it = parts.iter();
        let first = it.next().ok_or_else(|| HdlError::Invalid("empty OR".into()))?.clone();
        if parts.len() == 1 {
            return Ok(first);
        }
        for p in parts {
            check_eq(|| format!("OR term `{}`", p.text), first.width, p.width)?;
        }
        let text = parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(" | ");
        Ok(Expr { err: None, text: format!("({text})"), width: first.width })
    }
    /// AND-OR multiplexer: `sel` is one-hot (or zero), `inputs[k]` is chosen by `sel[k]`.
    pub fn onehot_mux(sel: &Expr, inputs: &[Expr]) -> Result<Expr> {
        sel.ok()?;
        for x in inputs {
            x.ok()?;
        }
        check_eq(|| format!("one-hot select `{}`", sel.text), inputs.len() as u32, sel.width)?;
        let w = inputs.first().ok_or_else(|| HdlError::Invalid("empty mux".into()))?.width;
        let mut terms = Vec::new();
        for (k, x) in inputs.iter().enumerate() {
            check_eq(|| format!("mux input `{}`", x.text), w, x.width)?;
            let s = sel.bit(k as u32)?;
            terms.push(Expr::repl(w, &s)?.and(x)?);
        }
        Expr::or_all(&terms)
    }
}

/// A declared signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sig {
    pub name: String,
    pub width: u32,
    /// Symbolic width for declarations of parameterized modules, e.g. `WIDTH`.
    pub sym: Option<String>,
}

impl Sig {
    pub fn e(&self) -> Expr {
        Expr { err: None, text: self.name.clone(), width: self.width }
    }
    pub fn lv(&self) -> LVal {
        LVal { text: self.name.clone(), base: self.name.clone(), width: self.width }
    }
    pub fn lv_slice(&self, hi: u32, lo: u32) -> Result<LVal> {
        let e = self.e().slice(hi, lo)?;
        Ok(LVal { text: e.text, base: self.name.clone(), width: e.width })
    }
    pub fn lv_part(&self, lo: u32, w: u32) -> Result<LVal> {
        self.lv_slice(lo + w - 1, lo)
    }
    pub fn lv_bit(&self, i: u32) -> Result<LVal> {
        self.lv_slice(i, i)
    }
    fn range(&self) -> String {
        match &self.sym {
            Some(s) => format!("[{s}-1:0] "),
            None if self.width == 1 => String::new(),
            None => format!("[{}:0] ", self.width - 1),
        }
    }
}

/// An assignable place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LVal {
    text: String,
    base: String,
    width: u32,
}

impl LVal {
    pub fn width(&self) -> u32 {
        self.width
    }
    /// An assignable place the caller vouches for (memory words).
    pub fn raw(text: impl Into<String>, base: impl Into<String>, width: u32) -> LVal {
        LVal { text: text.into(), base: base.into(), width }
    }
}

/// A statement inside an `always` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Assign { lhs: LVal, rhs: Expr },
    If { cond: Expr, then: Vec<Stmt>, els: Vec<Stmt> },
    /// `for (var = 0; var < bound; var = var + 1)` over an `integer` variable;
    /// `bound` is a number or a parameter name.
    For { var: String, bound: String, body: Vec<Stmt> },
    /// `case (sel)` with one arm per label (named states) and a `default`
    /// arm (empty: the values assigned before the `case` stand).
    Case { sel: Expr, arms: Vec<(Expr, Vec<Stmt>)>, default: Vec<Stmt> },
    Comment(String),
}

impl Stmt {
    pub fn assign(lhs: &LVal, rhs: &Expr) -> Result<Stmt> {
        rhs.ok()?;
        check_eq(|| format!("assignment `{} = {}`", lhs.text, rhs.text), lhs.width, rhs.width)?;
        Ok(Stmt::Assign { lhs: lhs.clone(), rhs: rhs.clone() })
    }
    pub fn if_(cond: &Expr, then: Vec<Stmt>, els: Vec<Stmt>) -> Result<Stmt> {
        cond.ok()?;
        check_eq(|| format!("if condition `{}`", cond.text), 1, cond.width)?;
        Ok(Stmt::If { cond: cond.clone(), then, els })
    }
    /// A `case` over `sel`; every label must have `sel`'s width.
    pub fn case(sel: &Expr, arms: Vec<(Expr, Vec<Stmt>)>, default: Vec<Stmt>) -> Result<Stmt> {
        sel.ok()?;
        for (label, _) in &arms {
            label.ok()?;
            check_eq(|| format!("case label `{}` of `case ({})`", label.text, sel.text), sel.width, label.width)?;
        }
        Ok(Stmt::Case { sel: sel.clone(), arms, default })
    }
    /// The first deferred error of an expression in this statement (or in
    /// one nested in it).
    fn check_exprs(&self) -> Result<()> {
        match self {
            Stmt::Assign { rhs, .. } => rhs.ok().map(drop),
            Stmt::If { cond, then, els } => {
                cond.ok()?;
                then.iter().chain(els).try_for_each(Stmt::check_exprs)
            }
            Stmt::For { body, .. } => body.iter().try_for_each(Stmt::check_exprs),
            Stmt::Case { sel, arms, default } => {
                sel.ok()?;
                for (label, body) in arms {
                    label.ok()?;
                    body.iter().try_for_each(Stmt::check_exprs)?;
                }
                default.iter().try_for_each(Stmt::check_exprs)
            }
            Stmt::Comment(_) => Ok(()),
        }
    }
    fn assigned_bases(&self, out: &mut BTreeSet<String>) {
        match self {
            Stmt::Assign { lhs, .. } => {
                out.insert(lhs.base.clone());
            }
            Stmt::If { then, els, .. } => {
                for s in then.iter().chain(els) {
                    s.assigned_bases(out);
                }
            }
            Stmt::For { body, .. } => {
                for s in body {
                    s.assigned_bases(out);
                }
            }
            Stmt::Case { arms, default, .. } => {
                for s in arms.iter().flat_map(|(_, b)| b).chain(default) {
                    s.assigned_bases(out);
                }
            }
            Stmt::Comment(_) => {}
        }
    }
    fn render(&self, out: &mut String, ind: usize, nb: bool) {
        let pad = "  ".repeat(ind);
        match self {
            Stmt::Assign { lhs, rhs } => {
                let op = if nb { "<=" } else { "=" };
                let _ = writeln!(out, "{pad}{} {op} {};", lhs.text, rhs.text);
            }
            Stmt::If { cond, then, els } => {
                let _ = writeln!(out, "{pad}if ({}) begin", cond.text);
                for s in then {
                    s.render(out, ind + 1, nb);
                }
                if els.is_empty() {
                    let _ = writeln!(out, "{pad}end");
                } else {
                    let _ = writeln!(out, "{pad}end else begin");
                    for s in els {
                        s.render(out, ind + 1, nb);
                    }
                    let _ = writeln!(out, "{pad}end");
                }
            }
            Stmt::For { var, bound, body } => {
                let _ = writeln!(out, "{pad}for ({var} = 0; {var} < {bound}; {var} = {var} + 1) begin");
                for s in body {
                    s.render(out, ind + 1, nb);
                }
                let _ = writeln!(out, "{pad}end");
            }
            Stmt::Case { sel, arms, default } => {
                let _ = writeln!(out, "{pad}case ({})", sel.text);
                for (label, body) in arms {
                    let _ = writeln!(out, "{pad}  {}: begin", label.text);
                    for s in body {
                        s.render(out, ind + 2, nb);
                    }
                    let _ = writeln!(out, "{pad}  end");
                }
                if default.is_empty() {
                    let _ = writeln!(out, "{pad}  default: ;");
                } else {
                    let _ = writeln!(out, "{pad}  default: begin");
                    for s in default {
                        s.render(out, ind + 2, nb);
                    }
                    let _ = writeln!(out, "{pad}  end");
                }
                let _ = writeln!(out, "{pad}endcase");
            }
            Stmt::Comment(c) => {
                let _ = writeln!(out, "{pad}// {c}");
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Input,
    Output,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Port {
    dir: Dir,
    sig: Sig,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Wire(Sig),
    Reg(Sig),
    Integer(String),
    Mem { sig: Sig, depth_sym: Option<String>, depth: u32 },
    LocalParam { sig: Sig, value: String },
    Assign(LVal, Expr),
    Comb(Vec<Stmt>),
    /// A clocked block without reset (memories).
    Clocked(Vec<Stmt>),
    Instance { module: String, name: String, params: Vec<(String, u64)>, conns: Vec<(String, Expr)> },
    Comment(String),
    Generate { genvar: String, bound: String, label: String, assigns: Vec<(LVal, Expr)> },
    /// A verbatim line (lint pragmas).
    Raw(String),
    Blank,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Register {
    q: Sig,
    d: Sig,
    reset: Expr,
}

/// A Verilog module under construction.
#[derive(Clone, Debug)]
pub struct Module {
    name: String,
    doc: Vec<String>,
    params: Vec<(String, u64)>,
    ports: Vec<Port>,
    items: Vec<Item>,
    regs: Vec<Register>,
    kinds: BTreeMap<String, Kind>,
    /// Simulation-only checks: (condition that must hold, message).
    asserts: Vec<(Expr, String)>,
    /// The first error found while building (a width mismatch, a name
    /// declared twice, a bad slice, an unconnected port...): declarations
    /// and statements do not return a `Result`, so the module keeps it and
    /// [`Module::finish`] returns it.
    err: Option<HdlError>,
}

/// What a name is, to check who may drive it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Input,
    /// Wires and `output wire` ports: driven by `assign` or an instance output.
    Net,
    /// `reg`: driven by an `always` block.
    Reg,
    Other,
}

impl Module {
    pub fn new(name: impl Into<String>) -> Module {
        Module {
            name: name.into(),
            doc: vec![],
            params: vec![],
            ports: vec![],
            items: vec![],
            regs: vec![],
            kinds: BTreeMap::new(),
            asserts: vec![],
            err: None,
        }
    }
    /// The finished module, or the first error found while building it.
    pub fn finish(self) -> Result<Module> {
        self.check()?;
        Ok(self)
    }
    /// The first error found while building this module, if any.
    pub fn check(&self) -> Result<()> {
        match &self.err {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
    /// Takes the error recorded so far (the module continues without it).
    pub fn take_error(&mut self) -> Option<HdlError> {
        self.err.take()
    }
    /// Records `r`'s error (the first one is kept) and gives its value.
    fn keep<T>(&mut self, r: Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.err.get_or_insert(e);
                None
            }
        }
    }
    /// The ports in declaration order: name, width, direction.
    pub fn port_list(&self) -> Vec<(String, u32, Dir)> {
        self.ports.iter().map(|p| (p.sig.name.clone(), p.sig.width, p.dir)).collect()
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    /// A line of the comment above the module.
    pub fn doc(&mut self, line: impl Into<String>) {
        self.doc.push(line.into());
    }
    fn claim(&mut self, name: &str) {
        self.claim_kind(name, Kind::Other)
    }
    fn claim_kind(&mut self, name: &str, kind: Kind) {
        let r = self.try_claim_kind(name, kind);
        self.keep(r);
    }
    fn try_claim_kind(&mut self, name: &str, kind: Kind) -> Result<()> {
        if is_keyword(name) {
            return Err(HdlError::Invalid(format!("`{name}` is a Verilog/SystemVerilog keyword")));
        }
        if self.kinds.insert(name.to_string(), kind).is_some() {
            return Err(HdlError::Invalid(format!("`{name}` declared twice in module {}", self.name)));
        }
        Ok(())
    }
    /// A `parameter` with its value for this build; returns it as a 32-bit expression.
    pub fn param(&mut self, name: &str, value: u64) -> Expr {
        self.claim(name);
        self.params.push((name.to_string(), value));
        Expr::raw(name, 32)
    }
    fn port(&mut self, dir: Dir, name: &str, width: u32, sym: Option<&str>) -> Sig {
        if width == 0 {
            self.keep::<()>(Err(HdlError::Invalid(format!("zero-width port {name}"))));
        }
        self.claim_kind(name, if dir == Dir::Input { Kind::Input } else { Kind::Net });
        let sig = Sig { name: name.to_string(), width, sym: sym.map(str::to_string) };
        self.ports.push(Port { dir, sig: sig.clone() });
        sig
    }
    pub fn input(&mut self, name: &str, width: u32) -> Sig {
        self.port(Dir::Input, name, width, None)
    }
    pub fn input_sym(&mut self, name: &str, width: u32, sym: &str) -> Sig {
        self.port(Dir::Input, name, width, Some(sym))
    }
    /// An output declared as `output wire`; drive it with [`Module::assign`].
    pub fn output(&mut self, name: &str, width: u32) -> Sig {
        self.port(Dir::Output, name, width, None)
    }
    pub fn output_sym(&mut self, name: &str, width: u32, sym: &str) -> Sig {
        self.port(Dir::Output, name, width, Some(sym))
    }
    fn decl(&mut self, name: &str, width: u32, sym: Option<&str>, reg: bool) -> Sig {
        if width == 0 {
            self.keep::<()>(Err(HdlError::Invalid(format!("zero-width signal {name}"))));
        }
        self.claim_kind(name, if reg { Kind::Reg } else { Kind::Net });
        let sig = Sig { name: name.to_string(), width, sym: sym.map(str::to_string) };
        self.items.push(if reg { Item::Reg(sig.clone()) } else { Item::Wire(sig.clone()) });
        sig
    }
    pub fn wire(&mut self, name: &str, width: u32) -> Sig {
        self.decl(name, width, None, false)
    }
    /// A `reg` driven by an `always @(*)` block.
    pub fn comb_reg(&mut self, name: &str, width: u32) -> Sig {
        self.decl(name, width, None, true)
    }
    pub fn wire_sym(&mut self, name: &str, width: u32, sym: &str) -> Sig {
        self.decl(name, width, Some(sym), false)
    }
    pub fn comb_reg_sym(&mut self, name: &str, width: u32, sym: &str) -> Sig {
        self.decl(name, width, Some(sym), true)
    }
    pub fn integer(&mut self, name: &str) -> Expr {
        self.claim(name);
        self.items.push(Item::Integer(name.to_string()));
        Expr::raw(name, 32)
    }
    /// `localparam [w-1:0] NAME = value;`
    pub fn localparam(&mut self, name: &str, width: u32, sym: Option<&str>, value: &str) -> Expr {
        self.claim(name);
        let sig = Sig { name: name.to_string(), width, sym: sym.map(str::to_string) };
        self.items.push(Item::LocalParam { sig: sig.clone(), value: value.to_string() });
        sig.e()
    }
    /// `reg [w-1:0] name [0:depth-1];` (no reset).
    pub fn memory(&mut self, name: &str, width: u32, sym: Option<&str>, depth: u32, depth_sym: Option<&str>) -> Sig {
        self.claim_kind(name, Kind::Reg);
        let sig = Sig { name: name.to_string(), width, sym: sym.map(str::to_string) };
        self.items.push(Item::Mem { sig: sig.clone(), depth_sym: depth_sym.map(str::to_string), depth });
        sig
    }
    /// A register `<base>_q` with next state `<base>_d` and a synchronous reset value.
    /// Returns `(q, d)`; `d` must be assigned in an `always @(*)` block or by `assign`.
    pub fn register(&mut self, base: &str, width: u32, reset: impl AsExpr) -> (Sig, Sig) {
        self.register_sym(base, width, None, reset)
    }
    pub fn register_sym(&mut self, base: &str, width: u32, sym: Option<&str>, reset: impl AsExpr) -> (Sig, Sig) {
        let reset = reset.as_expr();
        let r = reset.ok().and_then(|_| check_eq(|| format!("reset value of {base}_q"), width, reset.width));
        self.keep(r);
        let q = self.decl(&format!("{base}_q"), width, sym, true);
        let d = self.decl(&format!("{base}_d"), width, sym, true);
        self.regs.push(Register { q: q.clone(), d: d.clone(), reset });
        (q, d)
    }
    /// Like [`Module::register`] but `<base>_d` is a wire driven by `next`.
    pub fn register_next(&mut self, base: &str, reset: impl AsExpr, next: impl AsExpr) -> Sig {
        let (q, d) = self.register_wire_d(base, reset);
        self.assign(&d, next);
        q
    }
    /// A register that takes `value` in the cycles `load` is high and holds
    /// otherwise: `<base>_d = load ? value : <base>_q`.
    pub fn register_load(&mut self, base: &str, reset: impl AsExpr, load: impl AsExpr, value: impl AsExpr) -> Sig {
        let (q, d) = self.register_wire_d(base, reset);
        self.assign(&d, load.as_expr().then_else(value, &q));
        q
    }
    /// A register whose next state `<base>_d` is a wire (assign it later).
    pub fn register_wire_d(&mut self, base: &str, reset: impl AsExpr) -> (Sig, Sig) {
        let reset = reset.as_expr();
        let r = reset.ok().map(drop);
        self.keep(r);
        let width = reset.width;
        let q = self.decl(&format!("{base}_q"), width, None, true);
        let d = self.decl(&format!("{base}_d"), width, None, false);
        self.regs.push(Register { q: q.clone(), d: d.clone(), reset });
        (q, d)
    }
    /// `assign lhs = rhs;`
    pub fn assign(&mut self, lhs: impl AsPlace, rhs: impl AsExpr) {
        let (lhs, rhs) = (lhs.as_place(), rhs.as_expr());
        let r = rhs.ok().map(drop).and_then(|_| self.check_driver(&lhs, Kind::Net)).and_then(|_| {
            check_eq(|| format!("assign {} = {}", lhs.text, rhs.text), lhs.width, rhs.width)
        });
        if self.keep(r).is_some() {
            self.items.push(Item::Assign(lhs, rhs));
        }
    }
    /// Declares a wire and assigns it.
    pub fn wire_of(&mut self, name: &str, value: impl AsExpr) -> Sig {
        let value = value.as_expr();
        let w = self.wire(name, value.width);
        self.assign(&w, value);
        w
    }
    fn check_driver(&self, lhs: &LVal, want: Kind) -> Result<()> {
        match self.kinds.get(&lhs.base) {
            Some(k) if *k == want => Ok(()),
            Some(k) => Err(HdlError::Invalid(format!(
                "`{}` ({k:?}) cannot be driven by {} in module {}",
                lhs.base,
                if want == Kind::Net { "assign" } else { "an always block" },
                self.name
            ))),
            None => Err(HdlError::Invalid(format!("`{}` is not declared in module {}", lhs.base, self.name))),
        }
    }
    fn check_block_drivers(&self, stmts: &[Stmt]) -> Result<()> {
        let mut b = BTreeSet::new();
        for s in stmts {
            s.assigned_bases(&mut b);
        }
        for x in b {
            self.check_driver(&LVal { text: x.clone(), base: x, width: 0 }, Kind::Reg)?;
        }
        Ok(())
    }
    /// A generate loop of continuous assignments:
    /// `for (genvar = 0; genvar < bound; ...) begin : label assign ...; end`.
    pub fn generate_for(&mut self, genvar: &str, bound: &str, label: &str, assigns: Vec<(LVal, Expr)>) {
        self.claim(genvar);
        self.claim(label);
        let r = assigns.iter().try_for_each(|(l, r)| {
            r.ok()?;
            self.check_driver(l, Kind::Net)?;
            check_eq(|| format!("assign {} = {}", l.text, r.text), l.width, r.width)
        });
        if self.keep(r).is_some() {
            self.items.push(Item::Generate { genvar: genvar.into(), bound: bound.into(), label: label.into(), assigns });
        }
    }
    /// `always @(*)`. Every signal assigned in a nested statement must first
    /// get an unconditional default at the top level of the block (no latches).
    pub fn comb(&mut self, stmts: Vec<Stmt>) {
        let r = self.check_comb(&stmts);
        if self.keep(r).is_some() {
            self.items.push(Item::Comb(stmts));
        }
    }
    fn check_comb(&self, stmts: &[Stmt]) -> Result<()> {
        stmts.iter().try_for_each(Stmt::check_exprs)?;
        let mut defaulted = BTreeSet::new();
        for s in stmts {
            match s {
                Stmt::Assign { lhs, .. } if lhs.text == lhs.base => {
                    defaulted.insert(lhs.base.clone());
                }
                Stmt::Assign { lhs, .. } => {
                    if !defaulted.contains(&lhs.base) {
                        return Err(HdlError::Invalid(format!("`{}` assigned in always @(*) before its default", lhs.text)));
                    }
                }
                other => {
                    let mut b = BTreeSet::new();
                    other.assigned_bases(&mut b);
                    if let Some(x) = b.iter().find(|x| !defaulted.contains(*x)) {
                        return Err(HdlError::Invalid(format!(
                            "`{x}` is assigned conditionally in always @(*) without a default (latch) in {}",
                            self.name
                        )));
                    }
                }
            }
        }
        self.check_block_drivers(stmts)
    }
    /// A clocked block without reset, for memory writes.
    pub fn clocked_no_reset(&mut self, stmts: Vec<Stmt>) {
        let r = stmts.iter().try_for_each(Stmt::check_exprs).and_then(|_| self.check_block_drivers(&stmts));
        if self.keep(r).is_some() {
            self.items.push(Item::Clocked(stmts));
        }
    }
    /// A verbatim line, e.g. a lint pragma.
    /// A simulation-only check that `cond` holds at every rising clock edge
    /// out of reset (rendered under `ifndef SYNTHESIS`: an immediate
    /// `assert` with `FORMAL` for bounded model checking, else a message
    /// `ASSERTION FAILED in <instance>: <what>` and `$stop`). The module
    /// must have `clk_i` and `rst_i` inputs.
    pub fn assert_always(&mut self, cond: impl AsExpr, what: &str) {
        let cond = cond.as_expr();
        let r = self.check_assertion(&cond, what);
        if self.keep(r).is_some() {
            self.asserts.push((cond, what.to_string()));
        }
    }
    fn check_assertion(&self, cond: &Expr, what: &str) -> Result<()> {
        cond.ok()?;
        check_eq(|| format!("assertion `{}`", cond.text), 1, cond.width)?;
        for clk in ["clk_i", "rst_i"] {
            if self.kinds.get(clk) != Some(&Kind::Input) {
                return Err(HdlError::Invalid(format!("module {}: an assertion needs the input {clk}", self.name)));
            }
        }
        if what.contains('"') || what.contains('\\') || what.contains('%') {
            return Err(HdlError::Invalid(format!("assertion message {what:?}: no quotes, backslashes or %")));
        }
        Ok(())
    }
    pub fn raw_line(&mut self, line: impl Into<String>) {
        self.items.push(Item::Raw(line.into()));
    }
    pub fn comment(&mut self, c: impl Into<String>) {
        self.items.push(Item::Blank);
        self.items.push(Item::Comment(c.into()));
    }
    /// Instantiates `sub` (built with the parameter values given here). Every
    /// port must be connected exactly once with an expression of its width.
    /// An error of `sub` itself (not finished) is this module's error.
    pub fn instance(&mut self, sub: &Module, inst: &str, conns: &[(&str, Expr)]) {
        self.claim(inst);
        let r = sub.check().and_then(|_| Module::check_connections(sub, inst, conns));
        if self.keep(r).is_none() {
            return;
        }
        let conns = sub
            .ports
            .iter()
            .map(|p| (p.sig.name.clone(), conns.iter().find(|c| c.0 == p.sig.name).unwrap().1.clone()))
            .collect();
        self.items.push(Item::Instance { module: sub.name.clone(), name: inst.to_string(), params: sub.params.clone(), conns });
    }
    /// Every port of `sub` connected exactly once, with an expression of its width.
    fn check_connections(sub: &Module, inst: &str, conns: &[(&str, Expr)]) -> Result<()> {
        let mut seen = BTreeSet::new();
        for (pname, e) in conns {
            e.ok()?;
            let port = sub
                .ports
                .iter()
                .find(|p| p.sig.name == *pname)
                .ok_or_else(|| HdlError::Invalid(format!("{} has no port {pname}", sub.name)))?;
            check_eq(|| format!("port {pname} of {inst} ({})", sub.name), port.sig.width, e.width)?;
            if !seen.insert(pname.to_string()) {
                return Err(HdlError::Invalid(format!("port {pname} of {inst} connected twice")));
            }
        }
        if let Some(p) = sub.ports.iter().find(|p| !seen.contains(&p.sig.name)) {
            return Err(HdlError::Invalid(format!("port {} of {inst} ({}) not connected", p.sig.name, sub.name)));
        }
        Ok(())
    }

    /// The module text (without file header). With `with_param_values ==
    /// false`, parameter defaults are elided: used to check that several
    /// builds of a parameterized module render the same Verilog.
    pub fn render_with(&self, with_param_values: bool) -> String {
        let mut o = String::new();
        for d in &self.doc {
            let _ = writeln!(o, "// {d}");
        }
        if self.params.is_empty() {
            let _ = write!(o, "module {} (", self.name);
        } else {
            let _ = writeln!(o, "module {} #(", self.name);
            let n = self.params.len();
            for (k, (p, v)) in self.params.iter().enumerate() {
                let v = if with_param_values { v.to_string() } else { "?".into() };
                let _ = writeln!(o, "  parameter {p} = {v}{}", if k + 1 < n { "," } else { "" });
            }
            let _ = write!(o, ") (");
        }
        let n = self.ports.len();
        let _ = writeln!(o);
        for (k, p) in self.ports.iter().enumerate() {
            let dir = match p.dir {
                Dir::Input => "input ",
                Dir::Output => "output",
            };
            let _ = writeln!(o, "  {dir} wire {}{}{}", p.sig.range(), p.sig.name, if k + 1 < n { "," } else { "" });
        }
        let _ = writeln!(o, ");");
        for it in &self.items {
            match it {
                Item::Wire(s) => {
                    let _ = writeln!(o, "  wire {}{};", s.range(), s.name);
                }
                Item::Reg(s) => {
                    let _ = writeln!(o, "  reg  {}{};", s.range(), s.name);
                }
                Item::Integer(n) => {
                    let _ = writeln!(o, "  integer {n};");
                }
                Item::Mem { sig, depth_sym, depth } => {
                    let d = match depth_sym {
                        Some(s) => format!("{s}-1"),
                        None => (depth - 1).to_string(),
                    };
                    let _ = writeln!(o, "  reg  {}{} [0:{d}];", sig.range(), sig.name);
                }
                Item::LocalParam { sig, value } => {
                    let _ = writeln!(o, "  localparam {}{} = {value};", sig.range(), sig.name);
                }
                Item::Assign(l, r) => {
                    let _ = writeln!(o, "  assign {} = {};", l.text, r.text);
                }
                Item::Comb(stmts) => {
                    let _ = writeln!(o, "  always @(*) begin");
                    for s in stmts {
                        s.render(&mut o, 2, false);
                    }
                    let _ = writeln!(o, "  end");
                }
                Item::Clocked(stmts) => {
                    let _ = writeln!(o, "  always @(posedge clk_i) begin");
                    for s in stmts {
                        s.render(&mut o, 2, true);
                    }
                    let _ = writeln!(o, "  end");
                }
                Item::Instance { module, name, params, conns } => {
                    if params.is_empty() {
                        let _ = writeln!(o, "  {module} {name} (");
                    } else {
                        let ps = params.iter().map(|(p, v)| format!(".{p}({v})")).collect::<Vec<_>>().join(", ");
                        let _ = writeln!(o, "  {module} #({ps}) {name} (");
                    }
                    let n = conns.len();
                    for (k, (p, e)) in conns.iter().enumerate() {
                        let _ = writeln!(o, "    .{p}({}){}", e.text, if k + 1 < n { "," } else { "" });
                    }
                    let _ = writeln!(o, "  );");
                }
                Item::Comment(c) => {
                    let _ = writeln!(o, "  // {c}");
                }
                Item::Generate { genvar, bound, label, assigns } => {
                    let _ = writeln!(o, "  genvar {genvar};");
                    let _ = writeln!(o, "  generate");
                    let _ = writeln!(o, "    for ({genvar} = 0; {genvar} < {bound}; {genvar} = {genvar} + 1) begin : {label}");
                    for (l, r) in assigns {
                        let _ = writeln!(o, "      assign {} = {};", l.text, r.text);
                    }
                    let _ = writeln!(o, "    end");
                    let _ = writeln!(o, "  endgenerate");
                }
                Item::Raw(l) => {
                    let _ = writeln!(o, "  {l}");
                }
                Item::Blank => {
                    let _ = writeln!(o);
                }
            }
        }
        if !self.regs.is_empty() {
            let _ = writeln!(o);
            let _ = writeln!(o, "  // State: synchronous active-high reset.");
            let _ = writeln!(o, "  always @(posedge clk_i) begin");
            let _ = writeln!(o, "    if (rst_i) begin");
            for r in &self.regs {
                let _ = writeln!(o, "      {} <= {};", r.q.name, r.reset.text);
            }
            let _ = writeln!(o, "    end else begin");
            for r in &self.regs {
                let _ = writeln!(o, "      {} <= {};", r.q.name, r.d.name);
            }
            let _ = writeln!(o, "    end");
            let _ = writeln!(o, "  end");
        }
        if !self.asserts.is_empty() {
            let _ = writeln!(o);
            let _ = writeln!(o, "  // Checks (simulation and formal only; docs/microarchitecture.md §12).");
            let _ = writeln!(o, "`ifndef SYNTHESIS");
            let _ = writeln!(o, "`ifdef FORMAL");
            let _ = writeln!(o, "  always @(posedge clk_i) begin");
            let _ = writeln!(o, "    if (!rst_i) begin");
            for (c, what) in &self.asserts {
                let _ = writeln!(o, "      // {what}");
                let _ = writeln!(o, "      assert ({});", c.text);
            }
            let _ = writeln!(o, "    end");
            let _ = writeln!(o, "  end");
            let _ = writeln!(o, "`else");
            let _ = writeln!(o, "  always @(posedge clk_i) begin");
            let _ = writeln!(o, "    if (!rst_i) begin");
            for (c, what) in &self.asserts {
                let _ = writeln!(o, "      if (!({})) begin", c.text);
                let _ = writeln!(o, "        $display(\"ASSERTION FAILED in %m: {what}\");");
                let _ = writeln!(o, "        $stop;");
                let _ = writeln!(o, "      end");
            }
            let _ = writeln!(o, "    end");
            let _ = writeln!(o, "  end");
            let _ = writeln!(o, "`endif");
            let _ = writeln!(o, "`endif");
        }
        let _ = writeln!(o, "endmodule");
        o
    }
    pub fn render(&self) -> String {
        self.render_with(true)
    }
}

/// The longest line the emitter writes (the project's Verilog style).
pub const MAX_LINE: usize = 100;

/// Folds every line of `text` longer than `max` characters. Code breaks at
/// a space outside string literals (after a comma where one fits), the
/// continuation indented four more columns; a `//` comment continues as a
/// comment; a trailing comment moves to its own line above the code.
/// Verilog ignores where whitespace breaks a line, so the folded text means
/// exactly what the long line meant. A single token longer than the room
/// left stays unbroken.
pub fn wrap_lines(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.chars().count() <= max {
            out.push_str(line);
            continue;
        }
        let indent = &body[..body.len() - body.trim_start().len()];
        let trimmed = body.trim_start();
        let (code, comment) = split_trailing_comment(trimmed);
        if !comment.is_empty() && !code.trim().is_empty() {
            wrap_comment(&mut out, indent, comment, max);
            wrap_code(&mut out, indent, code.trim_end(), max);
        } else if code.trim().is_empty() {
            wrap_comment(&mut out, indent, comment, max);
        } else {
            wrap_code(&mut out, indent, code, max);
        }
        if nl.is_empty() {
            out.pop();
        }
    }
    out
}

/// `(code, comment)`: the comment starts at the first `//` outside a string.
fn split_trailing_comment(s: &str) -> (&str, &str) {
    let b = s.as_bytes();
    let mut in_str = false;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\\' if in_str => k += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(k + 1) == Some(&b'/') => return (&s[..k], &s[k..]),
            _ => {}
        }
        k += 1;
    }
    (s, "")
}

/// Writes `// words` lines of at most `max` columns (continuations `//   `).
fn wrap_comment(out: &mut String, indent: &str, comment: &str, max: usize) {
    let text = comment.trim_start_matches('/').trim_start();
    let mut line = format!("{indent}//");
    let mut first = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !first && line.len() + 1 + word.len() > max {
            out.push_str(&line);
            out.push('\n');
            line = format!("{indent}//  ");
        }
        line.push(' ');
        line.push_str(word);
        first = false;
    }
    out.push_str(&line);
    out.push('\n');
}

/// Writes `code` folded at spaces outside string literals.
fn wrap_code(out: &mut String, indent: &str, code: &str, max: usize) {
    let cont = format!("{indent}    ");
    let mut rest = code.to_string();
    let mut pad = indent.to_string();
    loop {
        let room = max.saturating_sub(pad.len());
        if rest.len() <= room {
            out.push_str(&pad);
            out.push_str(&rest);
            out.push('\n');
            return;
        }
        // break points: spaces outside strings at or before `room`
        let b = rest.as_bytes();
        let (mut in_str, mut after_comma, mut any) = (false, None, None);
        for k in 0..b.len().min(room + 1) {
            match b[k] {
                b'"' => in_str = !in_str,
                b' ' if !in_str && k > 0 => {
                    any = Some(k);
                    if b[k - 1] == b',' {
                        after_comma = Some(k);
                    }
                }
                _ => {}
            }
        }
        // a comma break that keeps at least half the line is the clearer one
        let cut = match (after_comma, any) {
            (Some(c), _) if c * 2 >= room => Some(c),
            (_, a) => a,
        };
        let Some(cut) = cut else {
            // one token longer than the room: leave it whole
            out.push_str(&pad);
            out.push_str(&rest);
            out.push('\n');
            return;
        };
        out.push_str(&pad);
        out.push_str(rest[..cut].trim_end());
        out.push('\n');
        rest = rest[cut..].trim_start().to_string();
        pad = cont.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_fold_at_spaces_outside_strings_and_comments_stay_comments() {
        let long_code = format!("  assign y = {{{}}};", (0..40).map(|k| format!("a[{k}]")).collect::<Vec<_>>().join(", "));
        let text = format!("{long_code}\n  // {}\n  $display(\"{}\"); // why\nshort\n", "word ".repeat(40), "x y ".repeat(30));
        let out = wrap_lines(&text, 60);
        for l in out.lines() {
            let is_display = l.contains("$display");
            assert!(l.len() <= 60 || is_display, "too long: {l}");
        }
        // the same tokens (the trailing comment moved above its line)
        let tokens = |s: &str| {
            let mut v = s.split_whitespace().filter(|w| *w != "//").map(String::from).collect::<Vec<_>>();
            v.sort();
            v
        };
        assert_eq!(tokens(&out), tokens(&text));
        // code keeps its order
        let code = |s: &str| s.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join(" ");
        let code_words = |s: &str| code(s).split(" //").next().unwrap().split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(code_words(&out)[..50], code_words(&text)[..50]);
        // the string literal was not broken, the comment moved above it
        assert!(out.contains(&format!("\"{}\"", "x y ".repeat(30))));
        let disp = out.lines().position(|l| l.contains("$display")).unwrap();
        assert_eq!(out.lines().nth(disp - 1).unwrap().trim(), "// why");
        // every folded comment line is still a comment
        assert!(out.lines().filter(|l| l.contains("word")).all(|l| l.trim_start().starts_with("//")));
        assert!(out.ends_with("short\n"));
    }

    /// Expected texts written by hand from Verilog's sized-literal syntax.
    #[test]
    fn hex_literals_are_zero_padded_to_the_width_and_range_checked() {
        assert_eq!(Expr::lit_hex(32, 0x5254_4301).unwrap().text(), "32'h52544301");
        assert_eq!(Expr::lit_hex(32, 0x0103_0602).unwrap().text(), "32'h01030602");
        assert_eq!(Expr::lit_hex(6, 5).unwrap().text(), "6'h05");
        assert_eq!(Expr::lit_hex(4, 15).unwrap().width, 4);
        assert!(matches!(Expr::lit_hex(4, 16), Err(HdlError::WidthMismatch { left: 4, right: 5, .. })));
        assert!(Expr::lit_hex(0, 0).is_err());
    }

    #[test]
    fn width_mismatch_in_assignment_is_an_error() {
        let mut m = Module::new("t");
        let a = m.input("a_i", 4);
        let y = m.output("y_o", 3);
        m.assign(&y.lv(), &a.e());
        let err = m.take_error().unwrap();
        assert!(matches!(err, HdlError::WidthMismatch { left: 3, right: 4, .. }), "{err}");
    }

    #[test]
    fn width_mismatch_in_comparison_and_concat_is_an_error() {
        let a = Expr::raw("a", 4);
        let b = Expr::raw("b", 5);
        assert!(matches!(a.eq(&b), Err(HdlError::WidthMismatch { .. })));
        assert!(matches!(a.add(&b), Err(HdlError::WidthMismatch { .. })));
        let c = Expr::concat(&[a.clone(), Expr::one_bit(true)]).unwrap();
        assert_eq!(c.width(), 5);
        assert!(c.eq(&b).is_ok());
        assert!(matches!(Expr::lit(3, 8), Err(HdlError::WidthMismatch { .. })));
        assert!(matches!(Expr::mux(&a, &a, &a), Err(HdlError::WidthMismatch { .. })));
        assert!(matches!(a.bit_dyn(&Expr::raw("i", 3)), Err(HdlError::WidthMismatch { .. })));
        assert!(a.bit_dyn(&Expr::raw("i", 2)).is_ok());
    }

    #[test]
    fn width_mismatch_through_operators_names_both_signals() {
        let mut m = Module::new("t");
        let (credits, grant) = (m.input("credits_q", 4), m.input("grant_vec", 3));
        let (y, r) = (m.output("y_o", 4), m.comb_reg("r", 4));
        // the error travels through further operators to the consumer
        let bad = (&credits & &grant) | &credits;
        let names_both = |e: &HdlError| {
            let msg = e.to_string();
            assert!(matches!(e, HdlError::WidthMismatch { left: 4, right: 3, .. }), "{msg}");
            assert!(msg.contains("credits_q") && msg.contains("grant_vec"), "{msg}");
        };
        m.assign(&y.lv(), &bad);
        names_both(&m.take_error().unwrap());
        m.comb(vec![Stmt::set(&r, &r), Stmt::when(credits.is(&grant), vec![Stmt::set(&r, &credits)])]);
        names_both(&m.take_error().unwrap());
        m.comb(vec![Stmt::set(&r, cat(&[credits.at(0), grant.e()]) + &grant)]);
        names_both(&m.take_error().unwrap());
        // an assignment of the wrong width, deferred to the block
        m.comb(vec![Stmt::set(&r, &grant)]);
        let e = m.take_error().unwrap();
        assert!(e.to_string().contains("r = grant_vec"), "{e}");
        // the same operators with matching widths emit the expected text
        let ok = (&credits & grant.zext_to(4)).is(num(4, 3)).then_else(&credits, !&credits);
        assert_eq!(ok.text(), "(((credits_q & {1'd0, grant_vec}) == 4'd3) ? credits_q : (~credits_q))");
        m.assign(&y.lv(), &ok);
        assert_eq!(m.take_error(), None);
    }

    /// Declarations and statements return no `Result`: the module keeps
    /// its first error and `finish` returns it, with the message the
    /// immediate path gave (expected texts written from the error formats).
    #[test]
    fn deferred_errors_are_returned_by_finish() {
        let finish_err = |m: Module| m.finish().unwrap_err().to_string();
        // width mismatch, naming both sides
        let mut m = Module::new("t");
        let a = m.input("a_i", 4);
        let y = m.output("y_o", 3);
        m.assign(&y, &a);
        assert_eq!(finish_err(m), "width mismatch in assign y_o = a_i: 3 bits vs 4 bits");
        // a name declared twice
        let mut m = Module::new("t");
        m.wire("x", 2);
        m.comb_reg("x", 2);
        assert_eq!(finish_err(m), "invalid Verilog construct: `x` declared twice in module t");
        // a bad slice, through an operator, reported where it is assigned
        let mut m = Module::new("t");
        let a = m.input("a_i", 4);
        let y = m.output("y_o", 1);
        m.assign(&y, a.at(4));
        assert_eq!(finish_err(m), "invalid Verilog construct: slice [4:4] of 4 bits: a_i");
        // a reset value of the wrong width
        let mut m = Module::new("t");
        m.register("cnt", 3, num(4, 9));
        assert_eq!(finish_err(m), "width mismatch in reset value of cnt_q: 3 bits vs 4 bits");
        // the first error is kept; later good statements do not clear it
        let mut m = Module::new("t");
        let a = m.input("a_i", 4);
        let (y, z) = (m.output("y_o", 3), m.output("z_o", 4));
        m.assign(&y, &a);
        m.wire("z_o", 1);
        m.assign(&z, &a);
        assert_eq!(finish_err(m), "width mismatch in assign y_o = a_i: 3 bits vs 4 bits");
        // an unfinished submodule's error is its parent's
        let mut sub = Module::new("sub");
        sub.wire("w", 1);
        sub.wire("w", 1);
        let mut top = Module::new("top");
        top.instance(&sub, "u_sub", &[]);
        assert_eq!(finish_err(top), "invalid Verilog construct: `w` declared twice in module sub");
        // an assertion that is not one bit
        let mut m = Module::new("t");
        m.input("clk_i", 1);
        m.input("rst_i", 1);
        let a = m.input("a_i", 4);
        m.assert_always(&a, "a holds");
        assert_eq!(finish_err(m), "width mismatch in assertion `a_i`: 1 bits vs 4 bits");
    }

    #[test]
    fn drivers_are_checked() {
        let mut m = Module::new("t");
        let a = m.input("a_i", 1);
        let r = m.comb_reg("r", 1);
        let w = m.wire("w", 1);
        m.assign(&r.lv(), &a.e());
        assert!(m.take_error().is_some());
        m.assign(&a.lv(), &w.e());
        assert!(m.take_error().is_some());
        m.comb(vec![Stmt::assign(&w.lv(), &a.e()).unwrap()]);
        assert!(m.take_error().is_some());
        m.assign(&w.lv(), &a.e());
        m.comb(vec![Stmt::assign(&r.lv(), &w.e()).unwrap()]);
        m.finish().unwrap();
    }

    #[test]
    fn keywords_are_rejected() {
        let mut m = Module::new("t");
        m.wire("release", 2);
        assert!(matches!(m.take_error(), Some(HdlError::Invalid(_))));
        m.input("logic", 2);
        assert!(matches!(m.take_error(), Some(HdlError::Invalid(_))));
    }

    #[test]
    fn latch_risk_is_an_error() {
        let mut m = Module::new("t");
        let a = m.input("a_i", 1);
        let y = m.comb_reg("y", 1);
        let s = Stmt::if_(&a.e(), vec![Stmt::assign(&y.lv(), &Expr::one_bit(true)).unwrap()], vec![]).unwrap();
        m.comb(vec![s.clone()]);
        assert!(matches!(m.take_error(), Some(HdlError::Invalid(_))));
        m.comb(vec![Stmt::assign(&y.lv(), &Expr::one_bit(false)).unwrap(), s]);
        m.finish().unwrap();
    }

    #[test]
    fn instance_port_widths_are_checked() {
        let mut sub = Module::new("sub");
        sub.input("x_i", 3);
        let mut top = Module::new("top");
        let w = top.wire("w", 4);
        top.instance(&sub, "u_sub", &[("x_i", w.e())]);
        assert!(matches!(top.take_error(), Some(HdlError::WidthMismatch { .. })));
        top.instance(&sub, "u_sub2", &[]);
        assert!(matches!(top.take_error(), Some(HdlError::Invalid(_))));
    }

    #[test]
    fn tiny_module_text() {
        let mut m = Module::new("tiny_counter");
        m.input("clk_i", 1);
        m.input("rst_i", 1);
        let en = m.input("en_i", 1);
        let cnt_o = m.output("count_o", 4);
        let (q, d) = m.register("count", 4, &Expr::zero(4));
        let inc = q.e().add(&Expr::lit(4, 1).unwrap()).unwrap();
        m.comb(vec![
            Stmt::assign(&d.lv(), &q.e()).unwrap(),
            Stmt::if_(&en.e(), vec![Stmt::assign(&d.lv(), &inc).unwrap()], vec![]).unwrap(),
        ]);
        m.assign(&cnt_o.lv(), &q.e());
        let m = m.finish().unwrap();
        let expected = "\
module tiny_counter (
  input  wire clk_i,
  input  wire rst_i,
  input  wire en_i,
  output wire [3:0] count_o
);
  reg  [3:0] count_q;
  reg  [3:0] count_d;
  always @(*) begin
    count_d = count_q;
    if (en_i) begin
      count_d = (count_q + 4'd1);
    end
  end
  assign count_o = count_q;

  // State: synchronous active-high reset.
  always @(posedge clk_i) begin
    if (rst_i) begin
      count_q <= 4'd0;
    end else begin
      count_q <= count_d;
    end
  end
endmodule
";
        assert_eq!(m.render(), expected);
    }
}

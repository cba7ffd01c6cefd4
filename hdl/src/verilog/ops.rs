//! Operators on expressions, so a builder reads like the Verilog it emits:
//! `valid & vc.is(&k)`, `state_q.is(&st.idle).then_else(&a, &b)`,
//! `cat(&[head, tail, data])`.
//!
//! Operators cannot return a `Result`, so a width mismatch does not stop the
//! builder at once: the result is an [`Expr`] that carries the error (naming
//! both operands) and every consumer — [`Stmt::set`], [`Stmt::assign`],
//! [`Module::assign`], a port connection, [`Module::comb`] — reports it.
//! Nothing with a deferred error is ever rendered. The `Result`-returning
//! methods of [`Expr`] stay for code that wants the error at once.
//!
//! Every operand position takes `impl` [`AsExpr`]: an [`Expr`], a declared
//! [`Sig`] or a reference to either, so a declared signal needs no `.e()`.

use super::{Expr, HdlError, LVal, Result, Sig, Stmt};
use std::ops::{Add, BitAnd, BitOr, BitXor, Neg, Not, Shl, Sub};

/// A conversion trait `$tr::$f -> $out`, implemented for `$out` itself
/// (a clone), for a declared [`Sig`] (via `Sig::$sig`) and for references.
macro_rules! operand_trait {
    ($(#[$doc:meta])* $tr:ident :: $f:ident -> $out:ty, sig => $sig:ident) => {
        $(#[$doc])*
        pub trait $tr {
            fn $f(&self) -> $out;
        }
        impl $tr for $out {
            fn $f(&self) -> $out {
                self.clone()
            }
        }
        impl $tr for Sig {
            fn $f(&self) -> $out {
                self.$sig()
            }
        }
        impl<T: $tr + ?Sized> $tr for &T {
            fn $f(&self) -> $out {
                (**self).$f()
            }
        }
    };
}

operand_trait!(
    /// Anything that reads as an expression: an [`Expr`] or a declared [`Sig`].
    AsExpr::as_expr -> Expr, sig => e
);
operand_trait!(
    /// Anything that can be assigned: an [`LVal`] or a whole declared [`Sig`].
    AsPlace::as_place -> LVal, sig => lv
);

/// The expression of `r`, or one that carries its error.
fn defer(r: Result<Expr>) -> Expr {
    r.unwrap_or_else(Expr::failed)
}

/// A sized decimal literal `w'dv` (an out-of-range value is a deferred error).
pub fn num(w: u32, v: u64) -> Expr {
    defer(Expr::lit(w, v))
}

/// A sized hexadecimal literal `w'hv` (an out-of-range value is a deferred error).
pub fn hex(w: u32, v: u64) -> Expr {
    defer(Expr::lit_hex(w, v))
}

/// `{a, b, ...}`, the first part the most significant.
pub fn cat<T: AsExpr>(parts: &[T]) -> Expr {
    defer(Expr::concat(&parts.iter().map(AsExpr::as_expr).collect::<Vec<_>>()))
}

/// The parts concatenated LSB first: part 0 at the lowest bits (per-VC and
/// per-port vectors, element k at `[k*w +: w]`).
pub fn cat_lsb<T: AsExpr>(parts: &[T]) -> Expr {
    defer(Expr::concat(&parts.iter().rev().map(AsExpr::as_expr).collect::<Vec<_>>()))
}

/// `(a | b | ...)` of equal widths.
pub fn any_of<T: AsExpr>(parts: &[T]) -> Expr {
    defer(Expr::or_all(&parts.iter().map(AsExpr::as_expr).collect::<Vec<_>>()))
}

/// `(a & b & ...)` of equal widths, written flat.
pub fn and_of<T: AsExpr>(parts: &[T]) -> Expr {
    defer(flat(parts, "&", None))
}

/// `(a && b && ...)` of 1-bit expressions, written flat.
pub fn all_of<T: AsExpr>(parts: &[T]) -> Expr {
    defer(flat(parts, "&&", Some(1)))
}

/// `(a op b op ...)`: every part `want` bits wide (or as wide as the first).
fn flat<T: AsExpr>(parts: &[T], op: &str, want: Option<u32>) -> Result<Expr> {
    let parts = parts.iter().map(AsExpr::as_expr).collect::<Vec<_>>();
    let first = parts.first().ok_or_else(|| HdlError::Invalid(format!("empty `{op}`")))?;
    let w = want.unwrap_or(first.width);
    for p in &parts {
        p.ok()?;
        if p.width != w {
            return Err(HdlError::WidthMismatch { context: format!("`{}` in `{op}` with `{}`", p.text, first.text), left: w, right: p.width });
        }
    }
    if parts.len() == 1 {
        return Ok(first.clone());
    }
    let text = parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(&format!(" {op} "));
    Ok(Expr { err: None, text: format!("({text})"), width: w })
}

/// AND-OR multiplexer: `inputs[k]` where one-hot `sel[k]` is set (0 if none).
pub fn onehot_select<T: AsExpr>(sel: impl AsExpr, inputs: &[T]) -> Expr {
    defer(Expr::onehot_mux(&sel.as_expr(), &inputs.iter().map(AsExpr::as_expr).collect::<Vec<_>>()))
}

impl Expr {
    /// An unsized integer constant (shift amounts): 32 bits, as Verilog reads it.
    pub fn int(v: u32) -> Expr {
        Expr { err: None, text: v.to_string(), width: 32 }
    }
    /// `{sym{e}}`: `n` copies of `e`, the count written as the parameter
    /// expression `sym` (parameterized modules).
    pub fn repl_sym(sym: &str, n: u32, e: impl AsExpr) -> Expr {
        let e = e.as_expr();
        if let Err(x) = e.ok() {
            return Expr::failed(x);
        }
        Expr { err: None, text: format!("{{{sym}{{{}}}}}", e.text), width: n * e.width }
    }
    fn selectable(&self) -> Result<&str> {
        self.ok()?;
        if self.text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            Ok(&self.text)
        } else {
            Err(HdlError::Invalid(format!("cannot select bits of expression {}", self.text)))
        }
    }
    fn select_text(&self, index: &str, width: u32) -> Expr {
        defer(self.selectable().map(|b| Expr { err: None, text: format!("{b}[{index}]"), width }))
    }
    fn binary(&self, op: &str, o: impl AsExpr, result_w: Option<u32>) -> Expr {
        defer(self.binop(op, &o.as_expr(), result_w))
    }
}

/// The operator methods of [`Expr`] and [`Sig`] (a `Sig` reads as its name).
macro_rules! expr_methods {
    ($t:ty) => {
        impl $t {
            /// `x[i]`.
            pub fn at(&self, i: u32) -> Expr {
                defer(self.as_expr().slice(i, i))
            }
            /// `x[hi:lo]`.
            pub fn bits(&self, hi: u32, lo: u32) -> Expr {
                defer(self.as_expr().slice(hi, lo))
            }
            /// `x[lo +: w]` with a constant offset (element `k` of an array
            /// of `w`-bit elements is `field(k*w, w)`).
            pub fn field(&self, lo: u32, w: u32) -> Expr {
                defer(self.as_expr().part(lo, w))
            }
            /// `x[idx]`, `idx` exactly `clog2(width)` bits.
            pub fn at_dyn(&self, idx: impl AsExpr) -> Expr {
                defer(self.as_expr().bit_dyn(&idx.as_expr()))
            }
            /// `x[idx*w +: w]`: element `idx` of an array of `w`-bit elements.
            pub fn elem(&self, idx: impl AsExpr, w: u32) -> Expr {
                defer(self.as_expr().elem_dyn(&idx.as_expr(), w))
            }
            /// `(x == o)`.
            pub fn is(&self, o: impl AsExpr) -> Expr {
                self.as_expr().binary("==", o, Some(1))
            }
            /// `(x != o)`.
            pub fn is_not(&self, o: impl AsExpr) -> Expr {
                self.as_expr().binary("!=", o, Some(1))
            }
            /// `(x < o)`.
            pub fn below(&self, o: impl AsExpr) -> Expr {
                self.as_expr().binary("<", o, Some(1))
            }
            /// `(x > o)`.
            pub fn above(&self, o: impl AsExpr) -> Expr {
                self.as_expr().binary(">", o, Some(1))
            }
            /// `(x >= o)`.
            pub fn at_least(&self, o: impl AsExpr) -> Expr {
                self.as_expr().binary(">=", o, Some(1))
            }
            /// `(x && o)`, both 1 bit.
            pub fn l_and(&self, o: impl AsExpr) -> Expr {
                defer(self.as_expr().land(&o.as_expr()))
            }
            /// `(x || o)`, both 1 bit.
            pub fn l_or(&self, o: impl AsExpr) -> Expr {
                defer(self.as_expr().lor(&o.as_expr()))
            }
            /// `(!x)`, 1 bit.
            pub fn l_not(&self) -> Expr {
                defer(self.as_expr().lnot())
            }
            /// `(|x)`.
            pub fn any(&self) -> Expr {
                self.as_expr().red_or()
            }
            /// `(&x)`.
            pub fn every(&self) -> Expr {
                self.as_expr().red_and()
            }
            /// `(x ? t : f)`: `x` is 1 bit, `t` and `f` equally wide.
            pub fn then_else(&self, t: impl AsExpr, f: impl AsExpr) -> Expr {
                defer(Expr::mux(&self.as_expr(), &t.as_expr(), &f.as_expr()))
            }
            /// `{n{x}}`.
            pub fn rep(&self, n: u32) -> Expr {
                defer(Expr::repl(n, &self.as_expr()))
            }
            /// `{zeros, x}`, `w` bits (not narrower than `x`).
            pub fn zext_to(&self, w: u32) -> Expr {
                defer(self.as_expr().zext(w))
            }
            /// `x[k]` with a loop variable `k` (an `integer` of a `for` over
            /// the elements: the emitter cannot check its range).
            pub fn at_var(&self, k: impl AsExpr) -> Expr {
                self.as_expr().select_text(&k.as_expr().text, 1)
            }
            /// `x[k*W +: W]` with a loop variable `k`: element `k` of an
            /// array of `w`-bit elements, `w` written as the parameter
            /// expression `wsym` (`"C"`, `"(C+1)"`).
            pub fn elem_var(&self, k: impl AsExpr, wsym: &str, w: u32) -> Expr {
                let x = self.as_expr();
                if w == 0 || !x.width.is_multiple_of(w) {
                    return Expr::failed(HdlError::Invalid(format!("{} ({} bits) is not an array of {w}-bit elements", x.text, x.width)));
                }
                x.select_text(&format!("{}*{wsym} +: {wsym}", k.as_expr().text), w)
            }
            /// `x[k*W+j]`: bit `j` of row `k` of an array of `w`-bit rows
            /// (`W` written as `wsym`); `j` a loop variable or a parameter.
            pub fn at_row(&self, k: impl AsExpr, wsym: &str, w: u32, j: impl AsExpr) -> Expr {
                let x = self.as_expr();
                if w == 0 || !x.width.is_multiple_of(w) {
                    return Expr::failed(HdlError::Invalid(format!("{} ({} bits) is not an array of {w}-bit rows", x.text, x.width)));
                }
                x.select_text(&format!("{}*{wsym}+{}", k.as_expr().text, j.as_expr().text), 1)
            }
            /// `x[SYM]`: the bit whose index is the parameter expression
            /// `sym`, of value `i` in this build (checked against the width).
            pub fn at_sym(&self, sym: &str, i: u32) -> Expr {
                let x = self.as_expr();
                if i >= x.width {
                    return Expr::failed(HdlError::Invalid(format!("bit [{sym}] = [{i}] of {} ({} bits)", x.text, x.width)));
                }
                x.select_text(sym, 1)
            }
            /// `x[HI:LO]` with parameter expressions, of values `hi`, `lo` in
            /// this build (checked against the width).
            pub fn bits_sym(&self, hi: (&str, u32), lo: (&str, u32)) -> Expr {
                let x = self.as_expr();
                if hi.1 < lo.1 || hi.1 >= x.width {
                    return Expr::failed(HdlError::Invalid(format!("slice [{}:{}] = [{}:{}] of {} ({} bits)", hi.0, lo.0, hi.1, lo.1, x.text, x.width)));
                }
                x.select_text(&format!("{}:{}", hi.0, lo.0), hi.1 - lo.1 + 1)
            }
        }
    };
}

expr_methods!(Expr);
expr_methods!(Sig);

/// `impl Op<R> for L` for every left-hand type, rendering `(l op r)` with
/// equal widths (a mismatch is a deferred error naming both operands).
macro_rules! binary_ops {
    ($($trait:ident :: $f:ident => $op:literal),*) => {$(
        impl<R: AsExpr> $trait<R> for Expr {
            type Output = Expr;
            fn $f(self, r: R) -> Expr {
                self.binary($op, r, None)
            }
        }
        impl<R: AsExpr> $trait<R> for &Expr {
            type Output = Expr;
            fn $f(self, r: R) -> Expr {
                self.binary($op, r, None)
            }
        }
        impl<R: AsExpr> $trait<R> for &Sig {
            type Output = Expr;
            fn $f(self, r: R) -> Expr {
                self.e().binary($op, r, None)
            }
        }
    )*};
}

binary_ops!(BitAnd::bitand => "&", BitOr::bitor => "|", BitXor::bitxor => "^", Add::add => "+", Sub::sub => "-");

/// `x << amount`; the result keeps `x`'s width.
impl<R: AsExpr> Shl<R> for &Expr {
    type Output = Expr;
    fn shl(self, amount: R) -> Expr {
        defer(Expr::shl(self, &amount.as_expr()))
    }
}

impl<R: AsExpr> Shl<R> for &Sig {
    type Output = Expr;
    fn shl(self, amount: R) -> Expr {
        &self.e() << amount
    }
}

/// `(~x)`, bitwise (use [`Expr::l_not`] for `(!x)`).
impl Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::not(&self)
    }
}

impl Not for &Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::not(self)
    }
}

impl Not for &Sig {
    type Output = Expr;
    fn not(self) -> Expr {
        self.e().not()
    }
}

/// `(-x)`, two's complement of the same width (`x & -x`: lowest set bit).
impl Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr { err: self.err.clone(), text: format!("(-{})", self.text), width: self.width }
    }
}

impl Neg for &Sig {
    type Output = Expr;
    fn neg(self) -> Expr {
        -&self.e()
    }
}

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        -&self
    }
}

/// Statements that take any operand and defer their width errors to the
/// `always` block that holds them ([`super::Module::comb`] reports them).
impl Stmt {
    /// `lhs = rhs;` (a width mismatch is reported by the enclosing block).
    pub fn set(lhs: impl AsPlace, rhs: impl AsExpr) -> Stmt {
        let (lhs, rhs) = (lhs.as_place(), rhs.as_expr());
        match Stmt::assign(&lhs, &rhs) {
            Ok(s) => s,
            Err(e) => Stmt::Assign { lhs, rhs: Expr::failed(e) },
        }
    }
    /// `if (cond) begin then end`.
    pub fn when(cond: impl AsExpr, then: Vec<Stmt>) -> Stmt {
        Stmt::when_else(cond, then, vec![])
    }
    /// `if (cond) begin then end else begin els end`.
    pub fn when_else(cond: impl AsExpr, then: Vec<Stmt>, els: Vec<Stmt>) -> Stmt {
        let cond = cond.as_expr();
        match Stmt::if_(&cond, then.clone(), els.clone()) {
            Ok(s) => s,
            Err(e) => Stmt::If { cond: Expr::failed(e), then, els },
        }
    }
    /// `case (sel)` with labelled arms and a default.
    pub fn case_of(sel: impl AsExpr, arms: Vec<(Expr, Vec<Stmt>)>, default: Vec<Stmt>) -> Stmt {
        let sel = sel.as_expr();
        match Stmt::case(&sel, arms.clone(), default.clone()) {
            Ok(s) => s,
            Err(e) => Stmt::Case { sel: Expr::failed(e), arms, default },
        }
    }
    /// `// text`.
    pub fn note(text: impl Into<String>) -> Stmt {
        Stmt::Comment(text.into())
    }
    /// `for (var = 0; var < bound; var = var + 1) begin body end`.
    pub fn for_each(var: impl AsExpr, bound: &str, body: Vec<Stmt>) -> Stmt {
        Stmt::For { var: var.as_expr().text, bound: bound.to_string(), body }
    }
}

impl Sig {
    /// `mem[addr]`: a word of a memory declared with [`super::Module::memory`]
    /// (the word width is the signal's; the address is not range-checked).
    pub fn word(&self, addr: impl AsExpr) -> Expr {
        let addr = addr.as_expr();
        Expr { err: addr.err.clone(), text: format!("{}[{}]", self.name, addr.text), width: self.width }
    }
}

impl LVal {
    /// `mem[addr] = ...`: a word of a memory (see [`Sig::word`]).
    pub fn word(mem: &Sig, addr: impl AsExpr) -> LVal {
        LVal { text: format!("{}[{}]", mem.name, addr.as_expr().text), base: mem.name.clone(), width: mem.width }
    }
    /// `x[k]` with a loop variable `k` (see [`Expr::at_var`]).
    pub fn at_var(sig: &Sig, k: impl AsExpr) -> LVal {
        LVal { text: format!("{}[{}]", sig.name, k.as_expr().text), base: sig.name.clone(), width: 1 }
    }
    /// `x[k*W +: W]` with a loop variable (see [`Expr::elem_var`]); the
    /// array shape is checked when the value is assigned (`w` must divide).
    pub fn elem_var(sig: &Sig, k: impl AsExpr, wsym: &str, w: u32) -> LVal {
        let ok = w > 0 && sig.width.is_multiple_of(w);
        let width = if ok { w } else { 0 };
        LVal { text: format!("{}[{}*{wsym} +: {wsym}]", sig.name, k.as_expr().text), base: sig.name.clone(), width }
    }
    /// `x[k*W+j]` (see [`Expr::at_row`]).
    pub fn at_row(sig: &Sig, k: impl AsExpr, wsym: &str, j: impl AsExpr) -> LVal {
        LVal { text: format!("{}[{}*{wsym}+{}]", sig.name, k.as_expr().text, j.as_expr().text), base: sig.name.clone(), width: 1 }
    }
}

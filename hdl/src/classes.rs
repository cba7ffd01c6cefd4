//! Traffic-class helpers (docs/microarchitecture.md §9.1).

use crate::verilog::{num, Expr, Module, Sig};

/// `cls(x)` of §9.1: a class code `>= s` counts as class 0.
pub(crate) fn cls_of(x: &Expr, s: u32) -> Expr {
    let w = x.width();
    if (1u64 << w) <= s as u64 {
        // every code is a class
        return x.clone();
    }
    x.at_least(num(w, s as u64)).then_else(Expr::zero(w), x)
}

/// Lowest set bit of a named signal (`x & -x`).
pub(crate) fn lowest(md: &mut Module, name: &str, x: &Sig) -> Sig {
    md.wire_of(name, &(x & -x))
}

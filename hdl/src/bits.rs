//! Small expression helpers shared by the block builders: one-hot decoders
//! and encoders, the one-hot and subset predicates of the checks, and the
//! clock and reset connections of an instance.

use crate::verilog::{cat_lsb, num, onehot_select, AsExpr, Expr, Module, Result};

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
pub(crate) fn onehot_of(idx: impl AsExpr, width: u32) -> Expr {
    let idx = idx.as_expr();
    if width > DECODER_COMPARISONS_MAX {
        let one = if width <= 64 { num(width, 1) } else { Expr::one_bit(true).zext_to(width) };
        return &one << idx;
    }
    let iw = idx.width();
    let in_range = |k: u32| iw >= 64 || (k as u64) < (1u64 << iw);
    let bits = (0..width).map(|k| if in_range(k) { idx.is(num(iw, k as u64)) } else { Expr::one_bit(false) }).collect::<Vec<_>>();
    cat_lsb(&bits)
}

/// The N*M-bit one-hot of the flat output-VC index `r*M + u` (port `r`,
/// VC `u`; zero if either is out of range), as the outer product of the two
/// small decoders `<name>_r` (N bits) and `<name>_u` (M bits), which it
/// declares: no multiplication, no N*M-wide shift, text linear in N.
pub(crate) fn onehot_of_pair(md: &mut Module, name: &str, r: &Expr, n: u32, u: &Expr, m: u32) -> Result<Expr> {
    let r_oh = md.wire_of(&format!("{name}_r"), &onehot_of(r, n));
    let u_oh = md.wire_of(&format!("{name}_u"), &onehot_of(u, m));
    Ok(cat_lsb(&(0..n).map(|o| r_oh.at(o).rep(m) & &u_oh).collect::<Vec<_>>()))
}

/// One-hot to binary index (`width` bits); 0 when no bit is set.
pub(crate) fn encode(oh: impl AsExpr, width: u32) -> Expr {
    let oh = oh.as_expr();
    onehot_select(&oh, &(0..oh.width()).map(|k| num(width, k as u64)).collect::<Vec<_>>())
}

/// `x` has at most one bit set: `(x & (x + all-ones)) == 0`, i.e.
/// `x & (x - 1)` without a narrower operand (width-clean in Verilog and in
/// parameterized modules, where `ones` and `zero` are `{N{1'b1}}` /
/// `{N{1'b0}}`).
pub(crate) fn at_most_one_set(x: impl AsExpr, ones: &Expr, zero: &Expr) -> Expr {
    let x = x.as_expr();
    (&x & (&x + ones)).is(zero)
}

/// Every bit set in `x` is set in `y`: `(x & ~y) == 0`.
pub(crate) fn subset_of(x: impl AsExpr, y: impl AsExpr, zero: &Expr) -> Expr {
    (x.as_expr() & !y.as_expr()).is(zero)
}

/// The clock connection of an instance: every clocked module has `clk_i`,
/// driven by the parent's `clk_i`.
pub(crate) fn clk() -> (&'static str, Expr) {
    ("clk_i", Expr::raw("clk_i", 1))
}

/// The reset connection of an instance (`rst_i` from the parent's `rst_i`).
pub(crate) fn rst() -> (&'static str, Expr) {
    ("rst_i", Expr::raw("rst_i", 1))
}

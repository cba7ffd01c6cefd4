//! Small expression helpers shared by the block builders: literals,
//! LSB-first concatenation, one-hot decoders and encoders.

use crate::verilog::{Expr, Module, Result};

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

/// `x` has at most one bit set: `(x & (x + all-ones)) == 0`, i.e.
/// `x & (x - 1)` without a narrower operand (width-clean in Verilog and in
/// parameterized modules, where `ones` and `zero` are `{N{1'b1}}` /
/// `{N{1'b0}}`).
pub(crate) fn at_most_one_set(x: &Expr, ones: &Expr, zero: &Expr) -> Result<Expr> {
    x.and(&x.add(ones)?)?.eq(zero)
}

/// Every bit set in `x` is set in `y`: `(x & ~y) == 0`.
pub(crate) fn subset_of(x: &Expr, y: &Expr, zero: &Expr) -> Result<Expr> {
    x.and(&y.not())?.eq(zero)
}

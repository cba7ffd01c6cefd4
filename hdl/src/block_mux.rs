//! Block-level multiplexing (§9.3) and flit acceleration (§9.5) in front of
//! a scheduler at point A or C.

use crate::arbiters::{arbiter_conns, pick_port_names, ArbiterSide};
use crate::bits::{encode, onehot_of};
use crate::dims::Dims;
use crate::verilog::{clog2, num, Expr, Module, Result};


/// Block-level multiplexing (§9.3) and acceleration (§9.5) in front of one
/// scheduler over `elig.width()` slots. Returns the eligibility vector to
/// give the scheduler: `elig` itself when neither applies (no logic), else
/// the one-hot of the accelerated / held slot when there is one, so that the
/// scheduler's grant is the final grant and its state is updated as if it had
/// chosen that slot (§9.3 step 4). `gnt` is the scheduler's (final) grant,
/// `take` whether it takes effect, `tail` whether the moved flit is a tail;
/// `accel` the accelerated slots (point A with acceleration only).
///
/// `rounds` (the iterative switch allocator, §6): the eligible slots of each
/// round, R_r; the second result holds each round's eligibility for the
/// scheduler's picks, by the same rules on R_r (the hold's slot only if it
/// is in R_r, accelerated slots of R_r first through `rr`'s picks), while
/// the hold's end (§9.3 step 1) reads `elig`. `rr` must then have
/// `rounds.len()` picks.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sched_wrap(
    md: &mut Module,
    d: &Dims,
    tag: &str,
    elig: &Expr,
    accel: Option<&Expr>,
    gnt: &Expr,
    take: &Expr,
    tail: &Expr,
    rr: &Module,
    rounds: &[Expr],
) -> Result<(Expr, Vec<Expr>)> {
    let k = elig.width();
    let kw = clog2(k as u64);
    let mut out = elig.clone();
    let mut outs = rounds.to_vec();
    let b = d.block_size();
    if b > 1 {
        md.comment(format!("{tag}: block-level multiplexing (§9.3), b = {b}"));
        let bw = clog2(b as u64);
        let elig_w = md.wire_of(&format!("{tag}_blk_elig"), elig);
        let (slot_q, slot_d) = md.register_wire_d(&format!("{tag}_blk_slot"), &Expr::zero(kw));
        let (left_q, left_d) = md.register_wire_d(&format!("{tag}_blk_left"), &Expr::zero(bw));
        let holding = left_q.is_not(Expr::zero(bw));
        let slot_elig = if k == 1 { elig_w.e() } else { elig_w.at_dyn(&slot_q) };
        let hold = md.wire_of(&format!("{tag}_blk_hold"), &holding.l_and(slot_elig));
        let gidx = md.wire_of(&format!("{tag}_blk_gidx"), &encode(gnt, kw));
        let same = holding.l_and(gidx.is(&slot_q));
        let tail_ends = if d.faults.block_hold_past_tail { Expr::one_bit(false) } else { tail.clone() };
        let taken_left = tail_ends.then_else(Expr::zero(bw), same.then_else(&left_q - num(bw, 1), num(bw, (b - 1) as u64)));
        let idle_left = hold.then_else(&left_q, Expr::zero(bw));
        md.assign(&left_d, &take.then_else(taken_left, idle_left));
        md.assign(&slot_d, &take.l_and(same.l_not()).then_else(&gidx, &slot_q));
        out = hold.then_else(onehot_of(&slot_q, k), &elig_w);
        for (r, x) in outs.iter_mut().enumerate() {
            let rel = md.wire_of(&format!("{tag}_r{}_elig", r + 1), &*x);
            let in_round = if k == 1 { rel.e() } else { rel.at_dyn(&slot_q) };
            *x = holding.l_and(in_round).then_else(onehot_of(&slot_q, k), &rel);
        }
    }
    if let Some(acc) = accel {
        md.comment(format!("{tag}: flit acceleration (§9.5): accelerated ready slots first, round-robin acc_ptr"));
        let acc_ready = md.wire_of(&format!("{tag}_acc_ready"), &(elig & acc));
        let any = md.wire_of(&format!("{tag}_acc_any"), &acc_ready.any());
        let agnt = md.wire(&format!("{tag}_acc_gnt"), k);
        let names = pick_port_names(rounds.len());
        let mut conns: Vec<(&str, Expr)> = arbiter_conns(acc_ready.e(), take.l_and(&any), agnt.e(), ArbiterSide::None);
        let mut round_any = vec![];
        for (r, x) in rounds.iter().enumerate() {
            let ready_r = md.wire_of(&format!("{tag}_r{}_acc_ready", r + 1), &(x & acc));
            let gnt_r = md.wire(&format!("{tag}_r{}_acc_gnt", r + 1), k);
            round_any.push((ready_r.any(), gnt_r.e()));
            conns.push((&names[r].0, ready_r.e()));
            conns.push((&names[r].1, gnt_r.e()));
        }
        md.instance(rr, &format!("u_{tag}_acc"), &conns);
        out = any.then_else(&agnt, &out);
        for (x, (any_r, gnt_r)) in outs.iter_mut().zip(round_any) {
            *x = any_r.then_else(&gnt_r, &*x);
        }
    }
    if b > 1 || accel.is_some() {
        out = md.wire_of(&format!("{tag}_sched_elig"), &out).e();
        for (r, x) in outs.iter_mut().enumerate() {
            *x = md.wire_of(&format!("{tag}_r{}_sched_elig", r + 1), &*x).e();
        }
    }
    Ok((out, outs))
}

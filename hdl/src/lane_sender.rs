//! The sender side of per-lane credits (`router.preemption_credits =
//! "per_lane"`, docs/microarchitecture.md §9.4 *Credits*, "The router's
//! output VC as sender"): per output VC the credit counters `lcr[0..E]` of
//! the downstream VC's lanes, the classes `lcls[0..E]` that opened them and
//! `lw`, the lane of the message being sent; the lane of the front flit of
//! the output VC buffer and whether it has a credit. The output port
//! instantiates this logic once per output VC.

use crate::bits::encode;
use crate::classes::{cls_of, lowest};
use crate::dims::Dims;
use crate::verilog::{cat_lsb, clog2, num, Expr, Module, Result, Sig, Stmt};

/// What point C and the output registers read of one output VC's sender.
pub(crate) struct LaneSend {
    /// The front flit's lane has a credit (`lcr[lane] > 0`).
    pub has_credit: Expr,
    /// The lane of the front flit (§9.4 *Sender's lane of a flit*).
    pub lane: Sig,
}

/// The front flit of one output VC buffer, as the lane choice reads it.
pub(crate) struct Front {
    /// Its `head` bit.
    pub head: Expr,
    /// Its class field (the raw code; `cls()` is applied here).
    pub class: Expr,
}

/// The sizes the sender needs: a router's output VC and a NIC's injection
/// VC (docs/nic.md §9.1) are the same sender with their own depths.
pub(crate) struct LaneDims {
    /// E: the highest lane.
    pub extra_lanes: u32,
    /// LW = clog2(E + 1).
    pub lane_width: u32,
    /// CW: bits of a class field.
    pub class_width: u32,
    /// s: codes at or above it are class 0 (`cls()`, §9.1).
    pub classes: u32,
    /// One lane's credits when nothing is in flight (DD of a router's
    /// output VC, DI of a NIC's injection VC).
    pub depth: u64,
    /// The `lane-join-ignores-class` mutant.
    pub join_ignores_class: bool,
}

impl LaneDims {
    /// A router's output VC: lanes of the downstream input VC, DD credits each.
    pub fn of_router(d: &Dims) -> LaneDims {
        LaneDims {
            extra_lanes: d.qos.extra_lanes(),
            lane_width: d.lane_id_width(),
            class_width: d.class_width,
            classes: d.classes,
            depth: d.downstream_depth as u64,
            join_ignores_class: d.faults.lane_join_ignores_class,
        }
    }
}

/// Declares output VC `u`'s sender registers and lane choice in `md`.
/// `sent`: point C picked this VC (its front flit leaves this cycle);
/// `ret`, `ret_lane`: a credit returned this cycle and its lane.
pub(crate) fn lane_sender(md: &mut Module, d: &LaneDims, u: u32, front: &Front, sent: &Expr, ret: &Expr, ret_lane: &Expr) -> Result<LaneSend> {
    let (e, lw, clw, dd) = (d.extra_lanes, d.lane_width, d.class_width, d.depth);
    let cw = clog2(dd + 1);
    let t = format!("vc{u}");
    md.comment(format!("Output VC {u}: per-lane credits of the downstream VC (§9.4 Credits)"));
    let c = md.wire_of(&format!("{t}_front_cls"), &cls_of(&front.class, d.classes));
    let (lcr, lcls): (Vec<(Sig, Sig)>, Vec<(Sig, Sig)>) = (0..=e)
        .map(|l| {
            let cr = md.register(&format!("{t}_lcr{l}"), cw, &num(cw, dd));
            let cl = md.register(&format!("{t}_lcls{l}"), clw, &Expr::zero(clw));
            (cr, cl)
        })
        .unzip();
    let (lw_q, lw_d) = md.register(&format!("{t}_lw"), lw, &Expr::zero(lw));
    // Lane l is busy while a flit sent into it has not returned its credit.
    let busy: Vec<Expr> = lcr.iter().map(|(q, _)| q.is_not(&num(cw, dd))).collect();
    let busy_w = md.wire_of(&format!("{t}_busy"), &cat_lsb(&busy));
    // Lanes 0..=stop (stop = the highest busy lane): some lane at or above l is busy.
    let upto_stop: Vec<Expr> = (0..=e).map(|l| busy_w.bits(e, l).any()).collect();
    let joins: Vec<Expr> = (0..=e)
        .map(|l| {
            let fits = if d.join_ignores_class { Expr::one_bit(true) } else { lcls[l as usize].0.at_least(&c) };
            upto_stop[l as usize].l_and(&fits)
        })
        .collect();
    if d.join_ignores_class {
        md.comment("MUTANT lane-join-ignores-class: a header joins the lowest lane up to stop, whatever its class");
    }
    let join = md.wire_of(&format!("{t}_join"), &cat_lsb(&joins));
    let join_oh = lowest(md, &format!("{t}_join_first"), &join);
    let fresh = md.wire_of(&format!("{t}_fresh"), &busy_w.any().l_not());
    // stop + 1, or E when stop == E (later lanes override earlier ones).
    let mut above_stop = num(lw, 0);
    for l in 0..=e {
        above_stop = busy[l as usize].then_else(&num(lw, (l + 1).min(e) as u64), &above_stop);
    }
    let hlane = fresh.then_else(&num(lw, 0), &join.any().then_else(&encode(&join_oh, lw), &above_stop));
    let lane = md.wire_of(&format!("{t}_lane"), &front.head.then_else(&hlane, &lw_q));
    // Sending a header sets lcls[lane] when fresh or opening stop + 1 (not
    // when it joins, nor when it goes to lane E with lane E busy).
    let sets_class = md.wire_of(&format!("{t}_opens"), &fresh.l_or(&join.any().l_not().l_and(&busy[e as usize].l_not())));
    let mut credit_ok = vec![];
    let mut stmts = vec![Stmt::set(&lw_d, &lw_q), Stmt::when(&sent.l_and(&front.head), vec![Stmt::set(&lw_d, &lane)])];
    for l in 0..=e {
        let (cr_q, cr_d) = &lcr[l as usize];
        let (cl_q, cl_d) = &lcls[l as usize];
        let lv = num(lw, l as u64);
        let dec = sent.l_and(&lane.is(&lv));
        let inc = ret.l_and(&ret_lane.is(&lv));
        credit_ok.push(lane.is(&lv).l_and(&cr_q.is_not(&Expr::zero(cw))));
        stmts.push(Stmt::set(cr_d, cr_q));
        stmts.push(Stmt::when_else(
            &dec.l_and(&inc.l_not()),
            vec![Stmt::set(cr_d, &(cr_q - &num(cw, 1)))],
            vec![Stmt::when(&dec.l_not().l_and(&inc).l_and(&cr_q.below(&num(cw, dd))), vec![Stmt::set(cr_d, &(cr_q + &num(cw, 1)))])],
        ));
        stmts.push(Stmt::set(cl_d, cl_q));
        stmts.push(Stmt::when(&dec.l_and(&front.head).l_and(&sets_class), vec![Stmt::set(cl_d, &c)]));
        if dd < (1u64 << cw) - 1 {
            md.assert_always(&num(cw, dd).below(cr_q).l_not(), &format!("output VC {u} lane {l}: credits within 0..={dd}"));
        }
        md.assert_always(&dec.l_and(&cr_q.is(&Expr::zero(cw))).l_not(), &format!("output VC {u}: no flit sent into lane {l} without a credit"));
    }
    md.comb(stmts);
    let has_credit = md.wire_of(&format!("{t}_lane_credit"), &cat_lsb(&credit_ok).any()).e();
    Ok(LaneSend { has_credit, lane })
}

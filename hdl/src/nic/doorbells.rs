//! `<prefix>_doorbells`: the doorbell queues and their selection (docs/nic.md §6).
//!
//! Each queue is an ordered array of Q entries with a count (entry 0 the
//! oldest). The selection is a lowest-set-bit search over "available and
//! queued" entries (only entry 0 in the traditional NIC), then over the
//! classes; removing an entry shifts the younger ones down, so the order
//! in a queue is always the arrival order.

use super::{r, wire_partly_used, Block, NicDims, NicFault};
use crate::bits::onehot_of;
use crate::verilog::{any_of, cat, num, clog2, Expr, Result};

pub(crate) fn build(d: &NicDims) -> Result<Block> {
    let mut b = Block::new(format!("{}_doorbells", d.prefix))?;
    b.m.doc("Doorbell queues (docs/nic.md §6): qos: one per class, highest class first, the oldest");
    b.m.doc("available doorbell of a class (skipping ones whose send queue is full);");
    b.m.doc("traditional: one queue, its oldest doorbell only.");
    let push = b.input("db_push_i", 1);
    let class = b.input("db_class_i", d.cw);
    let data = b.input("db_data_i", 32);
    let full_o = b.output("db_full_o", d.s);
    let sel_en = b.input("sel_en_i", 1);
    let q_avail = b.input("q_avail_i", d.qn);
    let sel_valid = b.output("sel_valid_o", 1);
    let sel_entry = b.output("sel_entry_o", d.db_w());
    let sel_code = b.output("sel_code_o", 4);
    let pending = b.output("db_pending_o", 1);
    let m = &mut b.m;
    let nq = if d.qos { d.s } else { 1 };
    let (q, ew) = (d.q, d.db_w());
    let cnw = clog2(q as u64 + 1);
    let (ent_q, ent_d) = m.register_wire_d("ent", &Expr::zero(nq * q * ew));
    let (cnt_q, cnt_d) = m.register_wire_d("cnt", &Expr::zero(nq * cnw));
    let ent = |c: u32, i: u32| ent_q.e().part((c * q + i) * ew, ew);
    let cnt = |c: u32| cnt_q.e().part(c * cnw, cnw);

    // Which send queues may take a message (padded to 16 VC codes).
    let pad = if d.qos { 16 } else { 1 };
    let avail_pad = if d.qos && d.m < 16 {
        m.wire_of("q_avail_pad", &cat(&[Expr::zero(16 - d.m), q_avail.e()]))
    } else {
        m.wire_of("q_avail_pad", &q_avail)
    };
    let vcc: Vec<u64> = (0..16).map(|u| d.vcc.get(u).copied().unwrap_or(0) as u64).collect();
    let vcc_text = (0..16).rev().map(|u| format!("{}'d{}", d.cw, vcc[u])).collect::<Vec<_>>().join(", ");
    let vcc_lp = if d.vcc.is_empty() { None } else { Some(m.localparam("VCC", 16 * d.cw, None, &format!("{{{vcc_text}}}"))) };

    let push_oh = if d.qos { m.wire_of("push_oh", &onehot_of(&class, nq)) } else { m.wire_of("push_oh", &Expr::one_bit(true)) };
    let mut has = Vec::new();
    let mut firsts = Vec::new();
    let mut codes = Vec::new();
    for c in 0..nq {
        m.comment(format!("queue {c}: queued and available entries, the oldest first"));
        let mut av = Vec::new();
        for i in 0..q {
            let base = (c * q + i) * ew;
            let vc = ent_q.field(base, 4);
            let bad_al = ent_q.at(base + 4);
            let mut bad_vc = cat(&[Expr::zero(1), vc.clone()]).at_least(&num(5, d.m as u64));
            if let Some(vcc) = &vcc_lp {
                let v = m.wire_of(&format!("q{c}_e{i}_vc"), &vc);
                bad_vc = bad_vc | &vcc.elem(&v, d.cw).is_not(&ent_q.field(base + 32, d.cw));
            }
            let bad_vc = m.wire_of(&format!("q{c}_e{i}_bad_vc"), &bad_vc);
            let bad = &bad_vc | &bad_al;
            codes.push(bad_vc.then_else(&num(4, 9), &bad_al.then_else(&num(4, 10), &Expr::zero(4))));
            let room = if pad == 16 { avail_pad.e().at_dyn(&m.wire_of(&format!("q{c}_e{i}_q"), &vc).e()) } else { avail_pad.e() };
            let queued = cnt(c)?.at_least(&num(cnw, i as u64 + 1));
            let usable = if d.qos && !d.is(NicFault::NoHeadOfLineSkip) || i == 0 { Expr::one_bit(true) } else { Expr::one_bit(false) };
            av.push(m.wire_of(&format!("q{c}_e{i}_ok"), &((queued & &(bad | &room)) & &usable)));
        }
        av.reverse();
        let cand = m.wire_of(&format!("q{c}_cand"), &cat(&av));
        let first = m.wire_of(&format!("q{c}_first"), &(cand.e() & &(cand.e() - &num(q, 1)).not()));
        has.push(cand.e().red_or());
        firsts.push(first);
    }
    // Class choice: highest class with a candidate (lowest bit of the reversed vector).
    let order: Vec<Expr> = if d.is(NicFault::WrongDoorbellPriority) {
        m.comment("FAULT nic-wrong-doorbell-priority: the lowest class with a candidate wins");
        let mut v = has.clone();
        v.reverse();
        v
    } else {
        has.clone()
    };
    let hv = m.wire_of("class_has", &cat(&order)); // MSB first: bit 0 = first in priority
    let hfirst = m.wire_of("class_first", &(hv.e() & &(hv.e() - &num(nq, 1)).not()));
    let mut entry_terms = Vec::new();
    let mut code_terms = Vec::new();
    let take = m.wire_of("take", &(sel_en.e() & &hv.e().red_or()));
    for c in 0..nq {
        // bit of class c in `class_first`
        let bit = if d.is(NicFault::WrongDoorbellPriority) { c } else { nq - 1 - c };
        let win = hfirst.at(bit);
        let rm = m.wire_of(&format!("q{c}_rm"), &(((&win & &take)).rep(q) & &firsts[c as usize]));
        for i in 0..q {
            let here = &win & &firsts[c as usize].at(i);
            entry_terms.push(here.rep(ew) & &ent(c, i)?);
            code_terms.push(here.rep(4) & &codes[(c * q + i) as usize]);
        }
        // Entries at and above the removed one take their younger neighbour.
        let sh = wire_partly_used(m, &format!("q{c}_shift"), &(rm.e() - &num(q, 1)).not())?;
        let took = rm.e().red_or();
        let pushing = m.wire_of(&format!("q{c}_push"), &((push.e() & &push_oh.e().at(c)) & &cnt(c)?.is_not(&num(cnw, q as u64))));
        let pos = m.wire_of(&format!("q{c}_pos"), &(cnt(c)? - &took.zext_to(cnw)));
        let newe = cat(&[class.e(), data.e()]);
        for i in 0..q {
            let keep = if i + 1 < q { (sh.at(i)).then_else(&ent(c, i + 1)?, &ent(c, i)?) } else { ent(c, i)? };
            let here = pushing.e() & &pos.e().is(&num(cnw, i as u64));
            m.assign(&ent_d.lv_part((c * q + i) * ew, ew)?, &here.then_else(&newe, &keep));
        }
        m.assign(&cnt_d.lv_part(c * cnw, cnw)?, &(pos.e() + &pushing.e().zext_to(cnw)));
    }
    let fulls: Vec<Expr> = (0..d.s).rev().map(|c| cnt(if d.qos { c } else { 0 })?.eq(&num(cnw, q as u64))).collect::<Result<_>>()?;
    m.assign(&full_o, &cat(&fulls));
    m.assign(&sel_valid.lv(), &hv.e().red_or());
    m.assign(&sel_entry, &any_of(&entry_terms));
    m.assign(&sel_code, &any_of(&code_terms));
    m.assign(&pending, &r(format!("(|{})", cnt_q.name), 1));
    Ok(b)
}

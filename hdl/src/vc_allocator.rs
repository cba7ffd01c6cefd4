//! `<prefix>_vc_allocator`: stage 3 (output-VC allocation) of one output
//! port (docs/microarchitecture.md §6, §9.2, §9.5).

use crate::arbiters::{arbiter_conns, ArbiterSide};
use crate::bits::{at_most_one_set, encode, onehot_of};
use crate::dims::Dims;
use crate::classes::lowest;
use wormqos_config::FlitOrder;
use crate::verilog::{cat_lsb, num, onehot_select, Expr, Module, Result, Sig, Stmt};


/// `<prefix>_vc_allocator`: stage 3 for one output port, and the `allocated`
/// flags of its M output VCs.
pub(crate) fn vc_allocator(d: &Dims, rr_nm: &Module) -> Result<Module> {
    let (m, vw, nm, iw, clw) = (d.vcs, d.vc_id_width, d.all_vcs(), d.flat_vc_id_width, d.class_width);
    let full = !d.multiplexed();
    // the partition VA applies (the part-ignores-class fault drops it)
    let part = d.partition().filter(|_| !d.faults.va_ignores_partition);
    let keep_owner = full || d.acceleration();
    let mut md = Module::new(format!("{}_vc_allocator", d.prefix));
    md.doc("Output-VC allocator of one output port (stage 3): a round-robin arbiter over");
    md.doc("the N*M input VCs (u_arb) grants one requester per cycle, if some output VC is");
    md.doc("free; the winner gets the lowest-numbered free output VC (gnt_ovc_o).");
    if part.is_some() {
        md.doc("Static partition (§9.2): only requesters with a free output VC of their class");
        md.doc("(cls_i[i*CW +: CW]) take part; the winner gets the lowest free VC of its class.");
    } else if d.partition().is_some() {
        md.doc("MUTANT part-ignores-class: the static partition is ignored.");
    }
    if d.allowed_vcs.is_some() {
        md.doc("Allowed output VCs (§2, §6 stage 3): requester i only takes part if a free output VC");
        md.doc("lies in avc_i[i*M +: M] (and its class, if partitioned); the winner gets the lowest such VC.");
    }
    for cap in ClassCapOf::all(d) {
        let k = cap.cap.expect("filtered");
        md.doc(&format!("{} cap (§9.4 stage 3): while {k} output VCs are held by class-{}", cap.title, cap.class));
        md.doc(&format!("messages, class-{} requesters do not take part.", cap.class));
    }
    md.doc("release_i[u]: a tail crossed the crossbar into output VC u (free from next cycle).");
    if full {
        md.doc("owner_o[u*IW +: IW]: the input VC that was last granted output VC u.");
    }
    if d.acceleration() {
        md.doc("victim_o: one-hot input VC whose acc flag is set (§9.5), or 0.");
    }
    md.input("clk_i", 1);
    md.input("rst_i", 1);
    let req = md.input("req_i", nm);
    let release = md.input("release_i", m);
    let cls_i = if d.va_needs_class() { Some(md.input("cls_i", nm * clw)) } else { None };
    let avc_i = if d.allowed_vcs.is_some() { Some(md.input("avc_i", nm * m)) } else { None };
    let gnt_o = md.output("gnt_o", nm);
    let cls_ovc_o = if va_ovc_per_class(d) {
        md.doc("cls_ovc_o[c*VW +: VW]: the lowest free output VC of class c, the output VC a");
        md.doc("winner of class c gets (registered switch allocation: the input VC selects it by");
        md.doc("its own class, so its ovc register does not wait for the grant's class).");
        Some(md.output("cls_ovc_o", d.classes * vw))
    } else {
        None
    };
    let gnt_ovc_o = if cls_ovc_o.is_none() { Some(md.output("gnt_ovc_o", vw)) } else { None };
    let set_o = if d.order_at_c() == FlitOrder::Age { Some(md.output("alloc_set_o", m)) } else { None };
    let owner_o = if full { Some(md.output("owner_o", m * iw)) } else { None };
    let free_cnt_o = if d.link_groups.is_some() {
        md.doc("free_cnt_o: number of free output VCs (for RC's parallel-link choice, §2).");
        Some(md.output("free_cnt_o", d.free_count_width()))
    } else {
        None
    };
    let victim_o = if d.acceleration() { Some(md.output("victim_o", nm)) } else { None };

    let (alloc_q, alloc_d) = md.register_wire_d("allocated", &Expr::zero(m));
    let free = if d.faults.va_ignores_allocated {
        md.comment("MUTANT va-ignores-allocated: every output VC counts as free");
        md.wire_of("free", &Expr::ones(m))
    } else {
        md.wire_of("free", &alloc_q.e().not())
    };
    if let Some(fc) = &free_cnt_o {
        let terms = (0..m).map(|u| free.at(u).zext(d.free_count_width())).collect::<Result<Vec<_>>>()?;
        let mut sum = terms[0].clone();
        for t in &terms[1..] {
            sum = sum + t;
        }
        md.assign(&fc, &sum);
    }
    let cls_of_i = |i: u32| cls_i.as_ref().expect("classes").e().part(i * clw, clw);
    let gnt_cls = |md: &mut Module, gnt: &Sig| -> Result<Option<Sig>> {
        if cls_i.is_none() {
            return Ok(None);
        }
        let elems = (0..nm).map(cls_of_i).collect::<Result<Vec<_>>>()?;
        Ok(Some(md.wire_of("gnt_cls", &onehot_select(&gnt, &elems))))
    };
    let (req_masked, free_oh, gnt, any_gnt, win_cls) = if let Some(avc_i) = &avc_i {
        let gnt = md.wire("gnt", nm);
        let any_gnt = grant_flag(&mut md, d, &gnt);
        // The winner's class only feeds the acceleration owner classes here:
        // the eligible sets below already hold each requester's class.
        let win_cls = if d.acceleration() { gnt_cls(&mut md, &gnt)? } else { None };
        let class_masks = if let Some(p) = part {
            md.comment("Static partition: the output VCs of each class");
            let vcc = &p.vc_class;
            let masks = (0..d.classes)
                .map(|c| cat_lsb(&(0..m).map(|u| Expr::one_bit(vcc[u as usize] == c)).collect::<Vec<_>>()))
                .collect::<Vec<_>>();
            Some(md.wire_of("class_masks", &cat_lsb(&masks)))
        } else {
            None
        };
        md.comment("Eligible output VCs of each requester: its allowed set (within its class)");
        let mut eligs = vec![];
        let mut sats = vec![];
        for i in 0..nm {
            let mut x = avc_i.field(i * m, m);
            if let Some(cm) = &class_masks {
                x = x & &cm.elem(&cls_of_i(i)?, m);
            }
            let el = md.wire_of(&format!("elig{i}"), &x);
            sats.push((&free & &el).any());
            eligs.push(el);
        }
        let sat = md.wire_of("satisfiable", &cat_lsb(&sats));
        let rm = md.wire_of("req_masked", &(&req & &sat));
        let we = md.wire_of("win_elig", &onehot_select(&gnt, &eligs));
        let fe = md.wire_of("free_elig", &(&free & &we));
        let foh = lowest(&mut md, "lowest_free", &fe);
        (rm, foh, gnt, any_gnt, win_cls)
    } else if let Some(p) = part {
        let gnt = md.wire("gnt", nm);
        let any_gnt = grant_flag(&mut md, d, &gnt);
        let win_cls = gnt_cls(&mut md, &gnt)?;
        let vcc = &p.vc_class;
        md.comment("Static partition: output VCs of each class, and whether one of them is free");
        let mut masks = vec![];
        let mut anys = vec![];
        for c in 0..d.classes {
            let mut mask = vec![];
            for u in 0..m {
                mask.push(Expr::one_bit(vcc[u as usize] == c));
            }
            let mk = cat_lsb(&mask);
            anys.push((&free & &mk).any());
            masks.push(mk);
        }
        let class_free = md.wire_of("class_free", &cat_lsb(&anys));
        if let Some(co) = &cls_ovc_o {
            let mut ovcs = vec![];
            for (c, mk) in masks.iter().enumerate() {
                let fc = md.wire_of(&format!("free_cls{c}"), &(&free & mk));
                let foh = lowest(&mut md, &format!("lowest_free_cls{c}"), &fc);
                ovcs.push(encode(&foh, vw));
            }
            md.assign(&co, &cat_lsb(&ovcs));
        }
        let class_masks = md.wire_of("class_masks", &cat_lsb(&masks));
        let sats = (0..nm)
            .map(|i| if d.classes == 1 { Ok(class_free.e()) } else { class_free.e().bit_dyn(&cls_of_i(i)?) })
            .collect::<Result<Vec<_>>>()?;
        let sat = md.wire_of("satisfiable", &cat_lsb(&sats));
        let rm = md.wire_of("req_masked", &(&req & &sat));
        let wc = win_cls.as_ref().expect("classes");
        let fc = md.wire_of("free_of_cls", &(&free & &class_masks.elem(&wc, m)));
        let foh = lowest(&mut md, "lowest_free", &fc);
        (rm, foh, gnt, any_gnt, win_cls)
    } else {
        let any_free = md.wire_of("any_free", &free.any());
        let free_oh = md.wire_of("lowest_free", &(&free & -&free));
        let req_masked = md.wire_of("req_masked", &(&req & &any_free.rep(nm)));
        let gnt = md.wire("gnt", nm);
        let any_gnt = grant_flag(&mut md, d, &gnt);
        // the winner's class feeds only the acceleration owner classes here
        let win_cls = if d.acceleration() { gnt_cls(&mut md, &gnt)? } else { None };
        (req_masked, free_oh, gnt, any_gnt, win_cls)
    };
    let mut caps = vec![];
    let mut req_masked = req_masked;
    for of in ClassCapOf::all(d) {
        if let Some(c) = class_cap(&mut md, d, &of, &req_masked, &gnt, cls_i.as_ref())? {
            req_masked = c.req.clone();
            caps.push((of, c));
        }
    }
    let any_gnt = match any_gnt {
        Some(g) => g,
        None if d.faults.va_flag_unmasked => {
            md.comment("MUTANT va-flag-unmasked: the grant flag counts the unmasked requests");
            md.wire_of("any_req", &req.any())
        }
        None => md.wire_of("any_req", &req_masked.any()),
    };
    let advance = if d.faults.va_pointer_frozen { Expr::one_bit(false) } else { any_gnt.e() };
    md.instance(
        rr_nm,
        "u_arb",
        &arbiter_conns(req_masked.e(), advance, gnt.e(), ArbiterSide::None),
    );
    let set = md.wire_of("alloc_set", &any_gnt.then_else(&free_oh, &Expr::zero(m)));
    let next = (&alloc_q & &release.e().not()) | &set;
    md.assign(&alloc_d, &next);
    for (of, c) in caps {
        md.assign(&c.held_d, &((&c.held_q & &release.e().not()) | (&set & &c.win.rep(m))));
        md.assert_always(&(&c.held_q & &alloc_q.e().not()).is(&Expr::zero(m)), &format!("{} holds only allocated output VCs", of.who));
        md.assert_always(&c.held_cnt.below(num(d.free_count_width(), c.cap as u64 + 1)), &format!("{} holds at most {} output VCs", of.who, of.letter));
    }
    md.assign(&gnt_o, &gnt);
    if let Some(go) = gnt_ovc_o {
        md.assign(&go, &encode(&free_oh, vw));
    }
    md.assert_always(&at_most_one_set(&set, &Expr::ones(m), &Expr::zero(m)), "one output VC allocated per cycle");
    md.assert_always(&(&set & &alloc_q).is(&Expr::zero(m)), "no output VC allocated twice");
    if let Some(s) = set_o {
        md.assign(&s, &set);
    }
    if keep_owner {
        md.comment(if full {
            "Owner of each output VC (full crossbar: selects the crossbar input)."
        } else {
            "Owner of each output VC (owner[o][u], §9.4 stage 3, for acceleration)."
        });
        let i = md.integer("i");
        let idx = md.comb_reg("gnt_idx", iw);
        md.comb(vec![
            Stmt::set(&idx, Expr::zero(iw)),
            Stmt::for_each(&i, &nm.to_string(), vec![Stmt::when(gnt.at_var(&i), vec![Stmt::set(&idx, &idx | i.bits(iw - 1, 0))])]),
        ]);
        let mut owners = vec![];
        for u in 0..m {
            let (q, next) = md.register_wire_d(&format!("owner{u}"), &Expr::zero(iw));
            md.assign(&next, &set.at(u).then_else(&idx, &q));
            owners.push(q);
        }
        if let Some(owner_o) = owner_o {
            md.assign(&owner_o, &cat_lsb(&owners));
        }
        if let Some(victim_o) = victim_o {
            md.comment("Acceleration (§9.5): if requesters are blocked because no output VC is free,");
            md.comment("the lowest output VC whose owner's class is below the highest blocked class");
            let wc = win_cls.as_ref().expect("classes");
            let mut ocls = vec![];
            for u in 0..m {
                let (q, next) = md.register_wire_d(&format!("owner{u}_cls"), &Expr::zero(clw));
                md.assign(&next, &set.at(u).then_else(wc, &q));
                ocls.push(q);
            }
            let blocked = md.wire_of("blocked", &req.any().l_and(&free.any().l_not()));
            let mut has = vec![Expr::one_bit(false)];
            for c in 1..d.classes {
                let bits = (0..nm).map(|i| cls_of_i(i)?.eq(&num(clw, c as u64))).collect::<Result<Vec<_>>>()?;
                has.push(md.wire_of(&format!("req_cls{c}"), &(&req & &cat_lsb(&bits)).any()).e());
            }
            let mut cstar = Expr::zero(clw);
            for c in 1..d.classes {
                cstar = (has[c as usize]).then_else(&num(clw, c as u64), &cstar);
            }
            let cstar = md.wire_of("blocked_cls", &cstar);
            let lows = ocls.iter().map(|q| q.e().lt(&cstar.e())).collect::<Result<Vec<_>>>()?;
            let lower = md.wire_of("lower_owner", &cat_lsb(&lows));
            let vict = lowest(&mut md, "victim_vc", &lower);
            let vidx = md.wire_of("victim_idx", &onehot_select(&vict, &owners));
            md.assign(
                &victim_o,
                &blocked.l_and(&lower.any()).then_else(&onehot_of(&vidx, nm), &Expr::zero(nm)),
            );
        }
    }
    md.finish()
}

/// `any_gnt = |gnt` (VA grants this cycle), or `None` in the registered
/// pipelines (stage RV), where the flag is `any_req = |req_masked` instead:
/// the round-robin arbiter grants exactly one requester whenever one
/// requests, so it is the same bit, but formed from the requests beside the
/// arbiter, not behind its grant vector. It is the pointer's `take_i` and
/// gates `alloc_set`; the path from `allocated_q` through the requests,
/// the arbiter and `|gnt` into the pointer's clock enable was the split
/// router's critical path (docs/benchmarks.md, *Stage RV of the split
/// router*).
fn grant_flag(md: &mut Module, d: &Dims, gnt: &Sig) -> Option<Sig> {
    if d.registered() { None } else { Some(md.wire_of("any_gnt", &gnt.any())) }
}

/// One cap of §9.4 stage 3 on the output VCs a class holds: the
/// best-effort cap (class 0, K, `be_*` signals) or the real-time cap
/// (class 1, R, `rt_*` signals).
struct ClassCapOf {
    class: u64,
    cap: Option<u32>,
    /// signal prefix
    tag: &'static str,
    /// the capped requests' wire
    req_name: &'static str,
    title: &'static str,
    who: &'static str,
    letter: &'static str,
}

impl ClassCapOf {
    /// The caps `d` configures, best effort first.
    fn all(d: &Dims) -> Vec<ClassCapOf> {
        let be = ClassCapOf {
            class: 0,
            cap: d.best_effort_cap(),
            tag: "be",
            req_name: "req_capped",
            title: "Best-effort",
            who: "best effort",
            letter: "K",
        };
        let rt = ClassCapOf {
            class: 1,
            cap: d.realtime_cap(),
            tag: "rt",
            req_name: "req_rt_capped",
            title: "Real-time",
            who: "real time",
            letter: "R",
        };
        [be, rt].into_iter().filter(|c| c.cap.is_some()).collect()
    }
}

/// A class cap's signals: the requests left after it, and the `<tag>_held`
/// register with the winner's class bit that loads it.
struct ClassCap {
    cap: u32,
    req: Sig,
    held_q: Sig,
    held_d: Sig,
    held_cnt: Sig,
    win: Sig,
}

/// §9.4 stage 3, *Best-effort cap* and *Real-time cap*: `<tag>_held[u]`
/// marks the output VCs granted to a header of the capped class and not
/// yet released (cleared by `release_i`, set by a grant to that class);
/// while `cap` of them are set, that class's requests are masked before
/// the arbiter. `None` without the cap.
fn class_cap(md: &mut Module, d: &Dims, of: &ClassCapOf, req: &Sig, gnt: &Sig, cls_i: Option<&Sig>) -> Result<Option<ClassCap>> {
    let (Some(k), Some(cls_i)) = (of.cap, cls_i) else { return Ok(None) };
    let (m, nm, clw, cw) = (d.vcs, d.all_vcs(), d.class_width, d.free_count_width());
    let (tag, c) = (of.tag, of.class);
    md.comment(&format!("{} cap: output VCs held by class-{c} messages, and the class-{c} requesters", of.title));
    let (held_q, held_d) = md.register_wire_d(&format!("{tag}_held"), &Expr::zero(m));
    let of_class = (0..nm).map(|i| Ok(cls_i.e().part(i * clw, clw)?.is(num(clw, c)))).collect::<Result<Vec<_>>>()?;
    let req_of = md.wire_of(&format!("req_{tag}"), &cat_lsb(&of_class));
    let terms = (0..m).map(|u| held_q.at(u).zext(cw)).collect::<Result<Vec<_>>>()?;
    let count = terms[1..].iter().fold(terms[0].clone(), |acc, t| acc + t);
    let held_cnt = md.wire_of(&format!("{tag}_held_cnt"), &count);
    let full = md.wire_of(&format!("{tag}_full"), &held_cnt.at_least(num(cw, k as u64)));
    let req = md.wire_of(of.req_name, &(req & &!(&req_of & &full.rep(nm))));
    let win = md.wire_of(&format!("win_{tag}"), &(gnt & &req_of).any());
    Ok(Some(ClassCap { cap: k, req, held_q, held_d, held_cnt, win }))
}

/// Whether the allocator exports the lowest free output VC of every class
/// (`cls_ovc_o`) instead of the winner's (`gnt_ovc_o`): with registered
/// switch allocation and a static partition (without allowed output VCs),
/// where stage RV's path ran from the grant through the winner's class to
/// the input VC's `ovc` register (docs/benchmarks.md, *Stage-4 timing*).
/// The winner's class is its own, so the value loaded is the same.
pub(crate) fn va_ovc_per_class(d: &Dims) -> bool {
    d.registered() && d.allowed_vcs.is_none() && d.partition().is_some() && !d.faults.va_ignores_partition
}

//! The constant tables of route computation (docs/microarchitecture.md §2):
//! allowed output VCs per destination and the parallel-link choice.

use crate::dims::Dims;
use crate::verilog::{cat_lsb, num, Expr, Module, Result, Sig};


/// The §2 table of allowed output VCs, one M-bit entry per destination code
/// (2^DW entries; codes at or above `endpoints` allow every VC).
pub(crate) fn avc_table(md: &mut Module, d: &Dims) -> Result<Option<Sig>> {
    let Some(t) = &d.allowed_vcs else { return Ok(None) };
    md.comment("Allowed output VCs: entry d = VC mask of destination d (codes >= endpoints -> all).");
    let all = (1u64 << d.vcs) - 1;
    let entries = (0..1u32 << d.dest_width).map(|dest| num(d.vcs, t.get(dest as usize).map_or(all, |&x| x as u64))).collect::<Vec<_>>();
    Ok(Some(md.wire_of("avc_table", &cat_lsb(&entries))?))
}

/// The tables of RC's choice among a destination's parallel ports (§2
/// `route_links`), one per group position j >= 1: entry = first port + j
/// inside the group, else the first port again (which then cannot win the
/// strict comparison of [`link_choice`]). Empty without the table.
pub(crate) fn link_tables(md: &mut Module, d: &Dims) -> Result<Vec<Sig>> {
    let Some(g) = &d.link_groups else { return Ok(vec![]) };
    md.comment("Parallel links: entry d of link<j>_table = the j-th port of destination d's group.");
    let groups = g.iter().copied().max().unwrap_or(1);
    let mut tables = vec![];
    for j in 1..groups {
        let entries = (0..1u32 << d.dest_width)
            .map(|c| {
                let first = d.routes.get(c as usize).copied().unwrap_or(0);
                let size = g.get(c as usize).copied().unwrap_or(1);
                num(d.port_id_width, if j < size { (first + j) as u64 } else { first as u64 })
            })
            .collect::<Vec<_>>();
        tables.push(md.wire_of(&format!("link{j}_table"), &cat_lsb(&entries))?);
    }
    Ok(tables)
}

/// RC's port among the group (§2): the candidate with the most free output
/// VCs (`free_cnt`, start of cycle) wins, ties to the earlier position, i.e.
/// the lower port; `base` is the first port.
pub(crate) fn link_choice(md: &mut Module, d: &Dims, tag: &str, dest: &Expr, base: &Expr, free_cnt: Option<&Sig>, tables: &[Sig]) -> Result<Expr> {
    let Some(free_cnt) = free_cnt else { return Ok(base.clone()) };
    let (pw, fcw) = (d.port_id_width, d.free_count_width());
    let mut best = md.wire_of(&format!("{tag}_lc_port0"), base)?;
    let mut best_cnt = md.wire_of(&format!("{tag}_lc_cnt0"), &free_cnt.elem(&best, fcw))?;
    for (k, table) in tables.iter().enumerate() {
        let j = k + 1;
        let cand = md.wire_of(&format!("{tag}_lc_cand{j}"), &table.elem(dest, pw))?;
        let cnt = md.wire_of(&format!("{tag}_lc_candcnt{j}"), &free_cnt.elem(&cand, fcw))?;
        let more = best_cnt.below(&cnt);
        best = md.wire_of(&format!("{tag}_lc_port{j}"), &more.then_else(&cand, &best))?;
        if j < tables.len() {
            best_cnt = md.wire_of(&format!("{tag}_lc_cnt{j}"), &more.then_else(&cnt, &best_cnt))?;
        }
    }
    Ok(best.e())
}

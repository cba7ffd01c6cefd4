//! The tables of route computation (docs/microarchitecture.md §2): output
//! port and allowed output VCs per destination, constants or, with
//! `router.routing = "programmable"`, registers in the router top written
//! through its configuration port (§2 *Programmable routing*); the
//! parallel-link choice.

use crate::dims::Dims;
use crate::verilog::{cat_lsb, num, Expr, Module, Result, Sig};

/// Output port of every destination code (2^DW entries; codes at or above
/// `endpoints` route to port 0), with the `dest0-misrouted` planted bug.
fn route_entries(d: &Dims) -> Vec<Expr> {
    (0..1u32 << d.dest_width)
        .map(|dest| {
            let mut port = d.routes.get(dest as usize).copied().unwrap_or(0);
            if dest == 0 && d.faults.dest0_misrouted {
                port = (port + 1) % d.ports;
            }
            num(d.port_id_width, port as u64)
        })
        .collect()
}

/// Allowed output VCs of every destination code (codes without an entry: all).
fn avc_entries(d: &Dims, t: &[u32]) -> Vec<Expr> {
    let all = (1u64 << d.vcs) - 1;
    (0..1u32 << d.dest_width).map(|dest| num(d.vcs, t.get(dest as usize).map_or(all, |&x| x as u64))).collect()
}

/// The tables an input port's RC reads: `route_table` and, with allowed VC
/// sets, `avc_table` (entry d at `[d*W +: W]`). Fixed routing: constant
/// wires. Programmable: the inputs `route_table_i` / `avc_table_i`, driven
/// by the top's table registers ([`table_registers`]).
pub(crate) fn rc_tables(md: &mut Module, d: &Dims) -> Result<(Sig, Option<Sig>)> {
    let entries = 1u32 << d.dest_width;
    if d.programmable {
        md.doc("route_table_i[d*PW +: PW], avc_table_i[d*M +: M]: the top's routing-table registers (§2).");
        let table = md.input("route_table_i", entries * d.port_id_width);
        let avc = match d.allowed_vcs {
            Some(_) => Some(md.input("avc_table_i", entries * d.vcs)),
            None => None,
        };
        return Ok((table, avc));
    }
    md.comment("Routing table: entry d = output port of destination d (codes >= endpoints -> 0).");
    let table = md.wire_of("route_table", &cat_lsb(&route_entries(d)));
    Ok((table, avc_table(md, d)?))
}

/// Programmable routing (§2): the table registers `rt_q` (output port per
/// destination code) and `avc_q` (allowed output VCs), reset to the
/// configured tables, and their write port on the router top. A write in
/// cycle t (`cfg_we_i`) sets entry `cfg_addr_i` at the end of cycle t, so RC
/// sees it from cycle t+1; a write naming a port >= N is ignored. Returns
/// `(rt_q, avc_q)`, or None with fixed routing.
pub(crate) fn table_registers(t: &mut Module, d: &Dims) -> Result<Option<(Sig, Option<Sig>)>> {
    if !d.programmable {
        return Ok(None);
    }
    let (entries, pw, m) = (1u32 << d.dest_width, d.port_id_width, d.vcs);
    t.doc("Routing-table write port (router.routing = \"programmable\", docs/integration.md):");
    t.doc("cfg_we_i writes entry cfg_addr_i: output port cfg_port_i, allowed output VCs cfg_avc_i.");
    let we = t.input("cfg_we_i", 1);
    let addr = t.input("cfg_addr_i", d.dest_width);
    let port = t.input("cfg_port_i", pw);
    let avc = t.input("cfg_avc_i", m);
    t.comment("Routing-table registers (§2 Programmable routing): entry d written when cfg_sel[d].");
    let port_ok = if d.ports < 1 << pw { port.below(num(pw, d.ports as u64)) } else { num(1, 1) };
    let write = t.wire_of("cfg_write", &we.l_and(&port_ok));
    let sel = cat_lsb(&(0..entries).map(|e| write.l_and(addr.is(num(d.dest_width, e as u64)))).collect::<Vec<_>>());
    let sel = t.wire_of("cfg_sel", &sel);
    let rt_reset = cat_lsb(&route_entries(d));
    let avc_reset = cat_lsb(&avc_entries(d, d.allowed_vcs.as_deref().unwrap_or(&[])));
    let (rt_q, rt_d) = t.register_wire_d("rt", &rt_reset);
    let rt_next = (0..entries).map(|e| sel.at(e).then_else(&port, rt_q.field(e * pw, pw))).collect::<Vec<_>>();
    t.assign(&rt_d, &cat_lsb(&rt_next));
    // Without allowed VC sets (only the route-vcs-ignored planted bug) the
    // VC masks are not kept.
    let avc_q = match d.allowed_vcs {
        Some(_) => {
            let (avc_q, avc_d) = t.register_wire_d("avc", &avc_reset);
            let avc_next = (0..entries).map(|e| sel.at(e).then_else(&avc, avc_q.field(e * m, m))).collect::<Vec<_>>();
            t.assign(&avc_d, &cat_lsb(&avc_next));
            Some(avc_q)
        }
        None => {
            // Verilator's -Wall exempts signals named `*unused*`.
            t.wire_of("cfg_avc_unused", &avc.e().red_or());
            None
        }
    };
    Ok(Some((rt_q, avc_q)))
}


/// The §2 table of allowed output VCs, one M-bit entry per destination code
/// (2^DW entries; codes at or above `endpoints` allow every VC).
fn avc_table(md: &mut Module, d: &Dims) -> Result<Option<Sig>> {
    let Some(t) = &d.allowed_vcs else { return Ok(None) };
    md.comment("Allowed output VCs: entry d = VC mask of destination d (codes >= endpoints -> all).");
    Ok(Some(md.wire_of("avc_table", &cat_lsb(&avc_entries(d, t)))))
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
        tables.push(md.wire_of(&format!("link{j}_table"), &cat_lsb(&entries)));
    }
    Ok(tables)
}

/// RC's port among the group (§2): the candidate with the most free output
/// VCs (`free_cnt`, start of cycle) wins, ties to the earlier position, i.e.
/// the lower port; `base` is the first port.
pub(crate) fn link_choice(md: &mut Module, d: &Dims, tag: &str, dest: &Expr, base: &Expr, free_cnt: Option<&Sig>, tables: &[Sig]) -> Result<Expr> {
    let Some(free_cnt) = free_cnt else { return Ok(base.clone()) };
    let (pw, fcw) = (d.port_id_width, d.free_count_width());
    let mut best = md.wire_of(&format!("{tag}_lc_port0"), base);
    let mut best_cnt = md.wire_of(&format!("{tag}_lc_cnt0"), &free_cnt.elem(&best, fcw));
    for (k, table) in tables.iter().enumerate() {
        let j = k + 1;
        let cand = md.wire_of(&format!("{tag}_lc_cand{j}"), &table.elem(dest, pw));
        let cnt = md.wire_of(&format!("{tag}_lc_candcnt{j}"), &free_cnt.elem(&cand, fcw));
        let more = best_cnt.below(&cnt);
        best = md.wire_of(&format!("{tag}_lc_port{j}"), &more.then_else(&cand, &best));
        if j < tables.len() {
            best_cnt = md.wire_of(&format!("{tag}_lc_cnt{j}"), &more.then_else(&cnt, &best_cnt));
        }
    }
    Ok(best.e())
}

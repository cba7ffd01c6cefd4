//! Buffers (in the spirit of PULP common_cells): the per-VC FIFO and the
//! shared multi-queue VC buffer. Each builder takes the parameter values of
//! one instantiation so all widths are checked concretely.

use crate::bits::{at_most_one_set, clk, subset_of};
use crate::verilog::{all_of, any_of, cat_lsb, clog2, num, onehot_select, Expr, HdlError, LVal, Module, Result, Sig, Stmt};

/// `<prefix>_fifo`: `DEPTH` entries of `WIDTH` bits. The storage
/// `mem_q` has no reset (LUTRAM/BRAM friendly); pointers and flags are reset.
/// A push when full or a pop when empty is ignored. `full_o` and `empty_o`
/// come straight from flip-flops: an output VC buffer's room starts stage
/// 4's critical path and an input VC buffer's pop ends it
/// (docs/benchmarks.md), so no comparator sits at either end.
pub fn fifo(prefix: &str, width: u32, depth: u32) -> Result<Module> {
    fifo_look(&format!("{prefix}_fifo"), width, depth, Lookahead::None)
}

/// What the switch allocation of the registered pipeline
/// (docs/microarchitecture.md §6 *Registered switch allocation*) reads from
/// a VC buffer besides its empty and full flags. Like them, every flag comes
/// straight from a flip-flop: SA's path starts at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookahead {
    /// Nothing more (the single-cycle pipeline's buffers).
    None,
    /// An input VC buffer: `two_o`, two or more flits (one remains behind
    /// the front flit that crosses now), and the tail bits of the two oldest
    /// entries, `tail0_o` and `tail1_o` (bit WIDTH-2 of an entry, kept in a
    /// one-bit memory of their own so that the flit memory keeps one read port).
    Input,
    /// An output VC buffer: `room2_o`, room for two flits (one more besides
    /// the one that enters now).
    Output,
    /// The split pipeline's input VC buffer (§6 *Split switch allocation*,
    /// two flits in flight): [`Lookahead::Input`] plus `three_o`, three or
    /// more flits, and `tail2_o`, the third oldest entry's tail bit.
    Input3,
    /// The split pipeline's output VC buffer: [`Lookahead::Output`] plus
    /// `room3_o`, room for three flits.
    Output3,
}

impl Lookahead {
    /// An input buffer's flags ([`Lookahead::Input`] or [`Lookahead::Input3`]).
    fn is_input(self) -> bool {
        matches!(self, Lookahead::Input | Lookahead::Input3)
    }
    /// The split pipeline's third flag (`three_o` or `room3_o`).
    fn has_third(self) -> bool {
        matches!(self, Lookahead::Input3 | Lookahead::Output3)
    }
}

/// [`fifo`] named `name`, with the flags of `look`.
pub fn fifo_look(name: &str, width: u32, depth: u32, look: Lookahead) -> Result<Module> {
    let aw = clog2(depth as u64);
    let mut m = Module::new(name);
    m.doc("Synchronous FIFO: DEPTH entries of WIDTH bits, first-word fall-through.");
    m.doc("rdata_o is the oldest entry (meaningless when empty_o). A push when full or");
    m.doc("a pop when empty is ignored; a push and a pop in the same cycle both happen.");
    m.doc("AW = max(1, ceil(log2 DEPTH)).");
    match look {
        Lookahead::None => {}
        Lookahead::Input => {
            m.doc("two_o: two or more entries; tail0_o, tail1_o: bit WIDTH-2 (the tail bit) of the");
            m.doc("oldest and the second oldest entry (meaningless when there is none).");
        }
        Lookahead::Input3 => {
            m.doc("two_o, three_o: two (three) or more entries; tail0_o, tail1_o, tail2_o: bit WIDTH-2");
            m.doc("(the tail bit) of the oldest, second and third oldest entry (meaningless when there");
            m.doc("is none).");
        }
        Lookahead::Output => m.doc("room2_o: at most DEPTH-2 entries (room for two more)."),
        Lookahead::Output3 => m.doc("room2_o, room3_o: at most DEPTH-2 (DEPTH-3) entries (room for two, three more)."),
    }
    m.param("WIDTH", width as u64);
    m.param("DEPTH", depth as u64);
    m.param("AW", aw as u64);
    m.input("clk_i", 1);
    m.input("rst_i", 1);
    let push = m.input("push_i", 1);
    let wdata = m.input_sym("wdata_i", width, "WIDTH");
    let pop = m.input("pop_i", 1);
    let rdata = m.output_sym("rdata_o", width, "WIDTH");
    let empty = m.output("empty_o", 1);
    let full = m.output("full_o", 1);
    let look_o = LookPorts::declare(&mut m, look, 1)?;

    let last32 = m.localparam("LAST32", 32, Some("32"), "DEPTH - 1");
    let one32 = m.localparam("ONE32", 32, Some("32"), "1");

    let mem = m.memory("mem_q", width, Some("WIDTH"), depth, Some("DEPTH"));
    let k = QueueConsts {
        aw,
        aw_sym: Some("AW"),
        ptr_zero: Expr::zero_sym("AW", aw),
        ptr_last: last32.bits_sym(("AW-1", aw - 1), ("0", 0)),
        ptr_one: one32.bits_sym(("AW-1", aw - 1), ("0", 0)),
        depth,
    };
    let q = queue_ctrl(&mut m, "", &push.e(), &pop.e(), &k, look)?;
    m.clocked_no_reset(vec![Stmt::when(&q.do_push, vec![Stmt::set(LVal::word(&mem, &q.wr_ptr), &wdata)])]);
    m.assign(&rdata, &mem.word(&q.rd_ptr));
    m.assign(&empty, &q.empty);
    m.assign(&full, &q.full);
    if let Some(lp) = &look_o {
        let tails = tail_memory(&mut m, "", &q, &wdata.at_sym("WIDTH-2", width - 2), depth, Some("DEPTH"))?;
        lp.connect(&mut m, &[&q], &[tails])?;
    }
    m.assert_always(&push.l_and(&full).l_not(), "no push into a full FIFO");
    m.assert_always(&pop.l_and(&empty).l_not(), "no pop from an empty FIFO");
    m.finish()
}

/// Width and constants of one queue's pointers: symbolic in the
/// parameterized `fifo`, literal in the concrete `vc_buffer`.
struct QueueConsts {
    aw: u32,
    aw_sym: Option<&'static str>,
    ptr_zero: Expr,
    /// DEPTH - 1 as a pointer.
    ptr_last: Expr,
    ptr_one: Expr,
    depth: u32,
}

impl QueueConsts {
    fn literal(depth: u32) -> Result<QueueConsts> {
        let aw = clog2(depth as u64);
        Ok(QueueConsts {
            aw,
            aw_sym: None,
            ptr_zero: Expr::zero(aw),
            ptr_last: num(aw, depth as u64 - 1),
            ptr_one: num(aw, 1),
            depth,
        })
    }
}

/// One queue's bookkeeping, as emitted by [`queue_ctrl`].
struct QueueSigs {
    /// The push takes effect (not full): the memory's write enable.
    do_push: Expr,
    wr_ptr: Sig,
    rd_ptr: Sig,
    /// The read pointer's next value (after this cycle's pop).
    rd_ptr_d: Sig,
    /// The read pointer's successor: the second oldest entry.
    rd_next: Sig,
    full: Expr,
    empty: Expr,
    /// The empty flag's next value.
    empty_d: Expr,
    /// `two` (input) or `room2` (output) of [`Lookahead`], registered.
    look: Option<Expr>,
    /// `three` or `room3` ([`Lookahead::Input3`], [`Lookahead::Output3`]).
    look3: Option<Expr>,
    /// The read pointer two steps on: the third oldest entry (`Input3`).
    rd_next2: Option<Sig>,
    kind: Lookahead,
}

/// The [`Lookahead`] outputs of a buffer of `queues` queues.
enum LookPorts {
    Input { two: Sig, tail0: Sig, tail1: Sig, third: Option<(Sig, Sig)> },
    Output { room2: Sig, room3: Option<Sig> },
}

impl LookPorts {
    fn declare(m: &mut Module, look: Lookahead, queues: u32) -> Result<Option<LookPorts>> {
        Ok(match look {
            Lookahead::None => None,
            Lookahead::Input | Lookahead::Input3 => Some(LookPorts::Input {
                two: m.output("two_o", queues),
                tail0: m.output("tail0_o", queues),
                tail1: m.output("tail1_o", queues),
                third: if look.has_third() { Some((m.output("three_o", queues), m.output("tail2_o", queues))) } else { None },
            }),
            Lookahead::Output | Lookahead::Output3 => Some(LookPorts::Output {
                room2: m.output("room2_o", queues),
                room3: if look.has_third() { Some(m.output("room3_o", queues)) } else { None },
            }),
        })
    }
    /// Drives the outputs from each queue's flag and (input) tail bits.
    fn connect(&self, m: &mut Module, qs: &[&QueueSigs], tails: &[Option<TailBits>]) -> Result<()> {
        let missing = || HdlError::Invalid("lookahead flag missing".into());
        let flags = qs.iter().map(|q| q.look.clone().ok_or_else(missing)).collect::<Result<Vec<_>>>()?;
        let thirds = || qs.iter().map(|q| q.look3.clone().ok_or_else(missing)).collect::<Result<Vec<_>>>();
        match self {
            LookPorts::Input { two, tail0, tail1, third } => {
                let tails = tails.iter().map(|t| t.clone().ok_or_else(|| HdlError::Invalid("tail memory missing".into()))).collect::<Result<Vec<_>>>()?;
                m.assign(&two, &cat_lsb(&flags));
                m.assign(&tail0, &cat_lsb(&tails.iter().map(|t| t.0.clone()).collect::<Vec<_>>()));
                m.assign(&tail1, &cat_lsb(&tails.iter().map(|t| t.1.clone()).collect::<Vec<_>>()));
                if let Some((three, tail2)) = third {
                    m.assign(three, &cat_lsb(&thirds()?));
                    let t2 = tails.iter().map(|t| t.2.clone().ok_or_else(missing)).collect::<Result<Vec<_>>>()?;
                    m.assign(tail2, &cat_lsb(&t2));
                }
            }
            LookPorts::Output { room2, room3 } => {
                m.assign(&room2, &cat_lsb(&flags));
                if let Some(r3) = room3 {
                    m.assign(r3, &cat_lsb(&thirds()?));
                }
            }
        }
        Ok(())
    }
}

/// The tail bits of a queue's oldest, second and (split pipeline) third
/// oldest entry.
type TailBits = (Expr, Expr, Option<Expr>);

impl LookPorts {
}

/// With [`Lookahead::Input`]: a one-bit memory `<tag>tail_q` of the
/// queue's tail bits (`tail`, written with the entry), read at the oldest
/// and the second oldest entry.
fn tail_memory(m: &mut Module, tag: &str, q: &QueueSigs, tail: &Expr, depth: u32, depth_sym: Option<&str>) -> Result<Option<TailBits>> {
    if q.look.is_none() || !q.kind.is_input() {
        return Ok(None);
    }
    let mem = m.memory(&format!("{tag}tail_q"), 1, None, depth, depth_sym);
    m.clocked_no_reset(vec![Stmt::when(&q.do_push, vec![Stmt::set(LVal::word(&mem, &q.wr_ptr), tail)])]);
    Ok(Some((mem.word(&q.rd_ptr), mem.word(&q.rd_next), q.rd_next2.as_ref().map(|r| mem.word(r)))))
}

/// The registered front copy `side<q>_front_q` of queue `q`'s side memory
/// `mem` (the registered pipeline's input buffer, [`Lookahead::Input`]):
/// stage RV's route and class then start at flip-flops, not at the side
/// memory's read (docs/microarchitecture.md §6 *Registered switch
/// allocation*, "front copy"). It equals `mem[rd_ptr]` whenever the queue is
/// not empty (checked in simulation); nothing reads it while the queue is
/// empty. Next value: a pop makes the second oldest entry the front (the
/// memory at `rd_next` if the queue held two or more, else the entry pushed
/// in the same cycle); a push into an empty queue makes the pushed entry the
/// front; otherwise the front is kept.
/// Returns the copy and its next value (the front's fields at the start
/// of the next cycle, whenever the queue is not empty then).
fn side_front(m: &mut Module, q: u32, s: &QueueSigs, mem: &Sig, wside: &Sig, pop: &Expr, push: &Expr) -> Result<(Expr, Expr)> {
    let (front_q, front_d) = m.register_wire_d(&format!("side{q}_front"), &Expr::zero(wside.width));
    let two = s.look.clone().ok_or_else(|| HdlError::Invalid("front copy without the two flag".into()))?;
    let do_pop = pop & !&s.empty;
    let do_push = push & !&s.full;
    let after_pop = two.then_else(mem.word(&s.rd_next), wside);
    let next = do_pop.then_else(&after_pop, (&do_push & &s.empty).then_else(wside, &front_q));
    m.assign(&front_d, &next);
    m.assert_always(&(s.empty.clone() | front_q.is(&mem.word(&s.rd_ptr))), &format!("queue {q}'s front copy equals its side memory's front"));
    Ok((front_q.e(), front_d.e()))
}

/// The pointers and registered flags of one FIFO queue, named
/// `<tag>wr_ptr_q` etc. Shared by `fifo` and `vc_buffer` so the two cannot
/// disagree on when a push or pop takes effect.
fn queue_ctrl(m: &mut Module, tag: &str, push: &Expr, pop: &Expr, k: &QueueConsts, look: Lookahead) -> Result<QueueSigs> {
    let aw = k.aw;
    let (wr_q, wr_d) = m.register_sym(&format!("{tag}wr_ptr"), aw, k.aw_sym, &k.ptr_zero);
    let (rd_q, rd_d) = m.register_sym(&format!("{tag}rd_ptr"), aw, k.aw_sym, &k.ptr_zero);
    // No count register: the occupancy is wr - rd modulo DEPTH, with 0 and
    // DEPTH told apart by the flags. A push takes effect only when not full
    // (occupancy 0..DEPTH-1), where occupancy DEPTH-1 means the write pointer
    // is one step behind the read pointer; a pop only when not empty, where
    // occupancy 1 means the read pointer is one step behind the write pointer.
    // Each compare is a function of the two pointers' flip-flops only, like the
    // count compare it replaces. The next flags take push and pop in the last gate:
    // full' = !pop & (full | push & almost_full),
    // empty' = !push & (empty | pop & almost_empty).
    let (full_q, full_d) = m.register_wire_d(&format!("{tag}full"), &Expr::one_bit(false));
    let (empty_q, empty_d) = m.register_wire_d(&format!("{tag}empty"), &Expr::one_bit(true));
    let do_push = m.wire_of(&format!("{tag}do_push"), &(push & !&full_q));
    let do_pop = m.wire_of(&format!("{tag}do_pop"), &(pop & !&empty_q));
    let next = |p: &Sig| p.is(&k.ptr_last).then_else(&k.ptr_zero, p + &k.ptr_one);
    let ptr_wire = |m: &mut Module, name: String, value: &Expr| -> Result<Sig> {
        let w = match k.aw_sym {
            Some(sym) => m.wire_sym(&name, aw, sym),
            None => m.wire(&name, aw),
        };
        m.assign(&w, value);
        Ok(w)
    };
    let wr_next = ptr_wire(m, format!("{tag}wr_ptr_next"), &next(&wr_q))?;
    let rd_next = ptr_wire(m, format!("{tag}rd_ptr_next"), &next(&rd_q))?;
    let almost_full = m.wire_of(&format!("{tag}almost_full"), &wr_next.is(&rd_q));
    let almost_empty = m.wire_of(&format!("{tag}almost_empty"), &rd_next.is(&wr_q));
    m.assign(&full_d, &(!&do_pop & (&full_q | (&do_push & &almost_full))));
    m.assign(&empty_d, &(!&do_push & (&empty_q | (&do_pop & &almost_empty))));
    m.comb(vec![
        Stmt::set(&wr_d, &wr_q),
        Stmt::set(&rd_d, &rd_q),
        Stmt::when(&do_push, vec![Stmt::set(&wr_d, &wr_next)]),
        Stmt::when(&do_pop, vec![Stmt::set(&rd_d, &rd_next)]),
    ]);
    // Lookahead flags, registered like full and empty. Only a push
    // (without a pop) or only a pop changes the occupancy, by one:
    // two' = occupancy' >= 2: after a push, the queue was not empty; after
    // a pop, it held 3 or more (two, and not exactly 2 = the read pointer
    // two steps behind the write pointer);
    // room2' = occupancy' <= DEPTH-2: after a pop, the queue was not full;
    // after a push, it held DEPTH-3 or fewer (room2, and not exactly DEPTH-2 =
    // the write pointer two steps behind the read pointer).
    let only_push = || &do_push & !&do_pop;
    let only_pop = || &do_pop & !&do_push;
    // Split pipeline (`Input3`, `Output3`), the same way one step further:
    // three' = occupancy' >= 3: after a push, two; after a pop, three and not
    // exactly 3 (the read pointer three steps behind the write pointer; the
    // input depth is at least 4, so 3 is not 0 modulo it);
    // room3' = occupancy' <= DEPTH-3: after a pop, room2; after a push,
    // room3 and not exactly DEPTH-3 (the write pointer three steps behind the
    // read pointer). A buffer of fewer than 3 entries never has room for 3.
    let (mut flag3, mut rd_next2_o) = (None, None);
    let flag = match look {
        Lookahead::None => None,
        Lookahead::Input | Lookahead::Input3 => {
            let (two_q, two_d) = m.register_wire_d(&format!("{tag}two"), &Expr::one_bit(false));
            let rd_next2 = ptr_wire(m, format!("{tag}rd_ptr_next2"), &next(&rd_next))?;
            let exactly_two = rd_next2.is(&wr_q);
            let popped = &two_q & &exactly_two.l_not();
            m.assign(&two_d, &only_push().then_else(!&empty_q, only_pop().then_else(popped, &two_q)));
            if look.has_third() {
                let (three_q, three_d) = m.register_wire_d(&format!("{tag}three"), &Expr::one_bit(false));
                let rd_next3 = ptr_wire(m, format!("{tag}rd_ptr_next3"), &next(&rd_next2))?;
                let popped3 = &three_q & &rd_next3.is(&wr_q).l_not();
                m.assign(&three_d, &only_push().then_else(&two_q, only_pop().then_else(popped3, &three_q)));
                flag3 = Some(three_q.e());
                rd_next2_o = Some(rd_next2.clone());
            }
            Some(two_q.e())
        }
        Lookahead::Output | Lookahead::Output3 => {
            let (room2_q, room2_d) = m.register_wire_d(&format!("{tag}room2"), &Expr::one_bit(true));
            let wr_next2 = ptr_wire(m, format!("{tag}wr_ptr_next2"), &next(&wr_next))?;
            let exactly_depth_2 = wr_next2.is(&rd_q);
            let pushed = &room2_q & &exactly_depth_2.l_not();
            m.assign(&room2_d, &only_push().then_else(pushed, only_pop().then_else(!&full_q, &room2_q)));
            if look.has_third() {
                flag3 = Some(if k.depth < 3 {
                    Expr::one_bit(false)
                } else {
                    let (room3_q, room3_d) = m.register_wire_d(&format!("{tag}room3"), &Expr::one_bit(true));
                    let wr_next3 = ptr_wire(m, format!("{tag}wr_ptr_next3"), &next(&wr_next2))?;
                    let pushed3 = &room3_q & &wr_next3.is(&rd_q).l_not();
                    m.assign(&room3_d, &only_push().then_else(pushed3, only_pop().then_else(&room2_q, &room3_q)));
                    room3_q.e()
                });
            }
            Some(room2_q.e())
        }
    };
    Ok(QueueSigs {
        do_push: do_push.e(),
        wr_ptr: wr_q,
        rd_ptr: rd_q,
        rd_ptr_d: rd_d,
        rd_next,
        full: full_q.e(),
        empty: empty_q.e(),
        empty_d: empty_d.e(),
        look: flag,
        look3: flag3,
        rd_next2: rd_next2_o,
        kind: look,
    })
}

/// `<name>`: `queues` FIFO queues of `depth` entries that share one memory
/// of `queues * depth` entries (queue q owns entries `q*depth ..
/// q*depth + depth - 1`), for a VC buffer that takes at most one flit in and
/// lets one flit leave per cycle (a multiplexed crossbar's input and output
/// ports). One LUTRAM block with one read port replaces `queues` blocks and
/// the multiplexer behind them: where a RAM32M holds 32 entries, the two
/// 4-flit VCs of an input port fit the RAM one of them used alone. Each queue
/// behaves exactly as a [`fifo`] of `depth` entries (same [`queue_ctrl`]).
///
/// `side_w > 0` adds, per queue, a small memory of its own for `side_w` more
/// bits per entry (`wside_i`, written with the entry), read at every queue's
/// front at once: route computation reads the header fields of every VC in
/// the same cycle, which a single shared read port cannot serve.
pub fn vc_buffer(name: &str, width: u32, depth: u32, queues: u32, side_w: u32) -> Result<Module> {
    vc_buffer_with(name, width, depth, queues, side_w, Lookahead::None, None, 0)
}

/// [`vc_buffer`] of the registered pipeline: the flags of `look` (one bit per
/// queue), and the shared memory is `ram` (a [`crate::ram::ram_1r1w`] of
/// `queues * depth` words of `width` bits) with its registered read, so
/// `rdata_o` is registered (docs/microarchitecture.md §6 *Buffers of the
/// registered pipeline*): in cycle t+1 it is the entry the read select of
/// cycle t names, which for an input buffer ([`Lookahead::Input`]) is queue
/// `rsel_i`'s front **after** cycle t's pop (the flit SA grants in t crosses
/// in t+1) and for an output buffer ([`Lookahead::Output`]) the front
/// **before** it (point C's pick of cycle t, on the link in t+1).
///
/// `next_w > 0` (an input buffer with side memories): also the next values
/// of every queue's empty flag and of the low `next_w` bits of its front
/// copy, `empty_next_o` and `side_next_o`, from which stage RV's requests
/// are registered a cycle early (docs/microarchitecture.md §6, *VA's inputs
/// computed a cycle early*).
///
/// `write`: when the RAM takes a push ([`RamWrite`]; registered only for an
/// output buffer, whose `ram` is then a [`crate::ram::ram_1r1w_clr`]).
pub fn vc_buffer_look(name: &str, width: u32, depth: u32, queues: u32, side_w: u32, look: Lookahead, ram: &Module, next_w: u32, write: RamWrite) -> Result<Module> {
    if look == Lookahead::None {
        return Err(HdlError::Invalid(format!("vc_buffer {name}: a registered read needs the registered pipeline's lookahead")));
    }
    if next_w > 0 && (next_w > side_w || !look.is_input()) {
        return Err(HdlError::Invalid(format!("vc_buffer {name}: {next_w} next front bits need an input buffer with that many side bits")));
    }
    if write != RamWrite::Direct && look.is_input() {
        // an input buffer's read is addressed past the pop: its bypass would differ
        return Err(HdlError::Invalid(format!("vc_buffer {name}: a registered RAM write is built for output buffers only")));
    }
    vc_buffer_with(name, width, depth, queues, side_w, look, Some((ram, write)), next_w)
}

/// When a shared buffer's RAM ([`vc_buffer_look`]) is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RamWrite {
    /// At the end of the cycle of the push.
    Direct,
    /// A cycle later, from a write register, so that the path into the
    /// buffer ends at flip-flops (docs/microarchitecture.md §6 *Split switch
    /// allocation*, "Output buffer write, registered"). The flags take the
    /// push in its own cycle; a read of the entry in the cycle its write
    /// register is written shows the write register's flit (`bypass`; false
    /// only for the planted bug [`crate::Mutant::SplitWriteNoBypass`]).
    Registered { bypass: bool },
}

/// The RAM's ports of a [`RamWrite::Registered`] buffer (`ram` a
/// [`crate::ram::ram_1r1w_clr`]): the write from the registers `wr_we_q`,
/// `wr_addr_q`, `wr_data_q` loaded with this cycle's write (`we`, `waddr`,
/// `wdata`). A read of the entry that register writes now (`wr_hit`) is not
/// sent to the RAM; the bypass register `byp_data_q` takes the flit instead.
/// The RAM's read register is cleared in every cycle it does not read, and
/// `byp_data_q` in every cycle without a hit, so `rdata` = their OR (one
/// two-input gate per bit, which an AND with `out_valid` behind the buffer
/// would otherwise take): the read flit in the cycle after a read, all 0
/// after a cycle without one. Returns the RAM's connections from `we_i` on.
fn registered_write(m: &mut Module, width: u32, bypass: bool, rst: &Sig, write: [&Sig; 3], read: [&Sig; 3]) -> Vec<(&'static str, Expr)> {
    let ([we, waddr, wdata], [re, raddr, rdata]) = (write, read);
    m.comment("Registered write (§6 split, implementation): the RAM takes a push a cycle later");
    let wr_we = m.register_next("wr_we", &Expr::zero(1), we);
    let wr_addr = m.comb_reg("wr_addr_q", waddr.width);
    let wr_data = m.comb_reg("wr_data_q", width);
    m.clocked_no_reset(vec![Stmt::set(&wr_addr, waddr), Stmt::set(&wr_data, wdata)]);
    let ram_rdata = m.wire("ram_rdata", width);
    let ram_re = if bypass {
        m.comment("A read of the entry wr_*_q writes now shows wr_data_q (byp_data_q), not the RAM");
        let hit = m.wire_of("wr_hit", &all_of(&[wr_we.e(), re.e(), wr_addr.is(raddr)]));
        let byp_data = m.comb_reg("byp_data_q", width);
        let take = hit.l_and(&rst.l_not());
        m.clocked_no_reset(vec![Stmt::set(&byp_data, &take.then_else(&wr_data, &Expr::zero(width)))]);
        m.assign(rdata, &(&byp_data | &ram_rdata));
        re & !&hit
    } else {
        // MUTANT split-write-no-bypass: the RAM's read, written or not
        m.assign(rdata, &ram_rdata);
        re.e()
    };
    let ram_re = m.wire_of("ram_re", &ram_re);
    m.assert_always(&all_of(&[wr_we.e(), ram_re.e(), wr_addr.is(raddr)]).l_not(), "the RAM does not read the entry it writes");
    let rclr = m.wire_of("ram_rclr", &(rst | &ram_re.e().not()));
    vec![("we_i", wr_we.e()), ("waddr_i", wr_addr.e()), ("wdata_i", wr_data.e()), ("re_i", ram_re.e()), ("raddr_i", raddr.e()), ("rclr_i", rclr.e()), ("rdata_o", ram_rdata.e())]
}

/// [`vc_buffer`] (`ram` = None: a first-word fall-through read of the memory
/// `mem_q`) or [`vc_buffer_look`].
fn vc_buffer_with(name: &str, width: u32, depth: u32, queues: u32, side_w: u32, look: Lookahead, ram: Option<(&Module, RamWrite)>, next_w: u32) -> Result<Module> {
    if queues == 0 || depth < 2 {
        return Err(HdlError::Invalid(format!("vc_buffer {name}: {queues} queues of depth {depth}, side width {side_w} of {width}")));
    }
    let total = queues * depth;
    let aw = clog2(total as u64);
    let k = QueueConsts::literal(depth)?;
    let mut m = Module::new(name);
    m.doc(format!("{queues} FIFO queues of {depth} entries x {width} bits in one shared memory (queue q owns"));
    m.doc(format!("entries q*{depth} .. q*{depth}+{}), first-word fall-through. push_i is one-hot or zero; a", depth - 1));
    match (ram.is_some(), look) {
        (false, _) => {
            m.doc("push to a full queue or a pop of an empty one is ignored. rdata_o is the front of");
            m.doc("queue rsel_i (one-hot or zero); pop_i must name only the queue rsel_i selects.");
        }
        (true, Lookahead::Input | Lookahead::Input3) => {
            m.doc("push to a full queue or a pop of an empty one is ignored. rdata_o is registered:");
            m.doc("the entry that is queue rsel_i's front after this cycle's pop (rsel_i one-hot or");
            m.doc("zero; read in block RAM u_mem), shown from the next cycle on.");
        }
        (true, _) => {
            m.doc("push to a full queue or a pop of an empty one is ignored. rdata_o is registered:");
            m.doc("queue rsel_i's front entry of this cycle (rsel_i one-hot or zero; read in block");
            m.doc("RAM u_mem), shown from the next cycle on; pop_i names only the rsel_i queue.");
        }
    }
    if let Some((_, RamWrite::Registered { .. })) = ram {
        m.doc("The RAM takes a push a cycle later (wr_*_q); a read of that entry in that cycle is");
        m.doc("shown from the bypass register byp_data_q. rdata_o is all 0 after a cycle without a read.");
    }
    if side_w > 0 {
        m.doc(format!("side_o[q*{side_w} +: {side_w}]: the wside_i written with queue q's front entry, for every"));
        m.doc("queue at once.");
    }
    match look {
        Lookahead::None => {}
        Lookahead::Input => {
            m.doc("two_o[q]: queue q holds two or more entries; tail0_o[q], tail1_o[q]: the tail bit");
            m.doc(format!("(bit {}) of its oldest and second oldest entry.", width - 2));
        }
        Lookahead::Input3 => {
            m.doc("two_o[q], three_o[q]: queue q holds two (three) or more entries; tail0_o[q],");
            m.doc(format!("tail1_o[q], tail2_o[q]: the tail bit (bit {}) of its oldest, second and third", width - 2));
            m.doc("oldest entry.");
        }
        Lookahead::Output => m.doc(format!("room2_o[q]: queue q holds at most {} entries (room for two more).", depth - 2)),
        Lookahead::Output3 => {
            m.doc(format!("room2_o[q], room3_o[q]: queue q holds at most {} ({}) entries (room for two,", depth - 2, depth as i64 - 3));
            m.doc("three more).");
        }
    }
    m.input("clk_i", 1);
    let rst = m.input("rst_i", 1);
    let push = m.input("push_i", queues);
    let wdata = m.input("wdata_i", width);
    let wside = if side_w > 0 { Some(m.input("wside_i", side_w)) } else { None };
    let pop = m.input("pop_i", queues);
    let rsel = m.input("rsel_i", queues);
    let rdata = m.output("rdata_o", width);
    let side_o = if side_w > 0 { Some(m.output("side_o", queues * side_w)) } else { None };
    let empty_o = m.output("empty_o", queues);
    let full_o = m.output("full_o", queues);
    let look_o = LookPorts::declare(&mut m, look, queues)?;
    let next_o = if next_w > 0 {
        m.doc(format!("empty_next_o[q], side_next_o[q*{next_w} +: {next_w}]: empty_o[q] and the low {next_w} bits of"));
        m.doc("side_o's field of queue q in the next cycle (the latter meaningful when the queue is not");
        m.doc("empty then).");
        Some((m.output("empty_next_o", queues), m.output("side_next_o", queues * next_w)))
    } else {
        None
    };

    let mem = if ram.is_none() { Some(m.memory("mem_q", width, None, total, None)) } else { None };
    let (mut waddrs, mut raddrs, mut do_pushes, mut fulls, mut empties, mut sides) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut queues_s, mut tails, mut side_nexts) = (vec![], vec![], vec![]);
    for q in 0..queues {
        m.comment(format!("Queue {q}"));
        let s = queue_ctrl(&mut m, &format!("q{q}_"), &push.at(q), &pop.at(q), &k, look)?;
        let tail = wdata.at(width - 2);
        tails.push(tail_memory(&mut m, &format!("q{q}_"), &s, &tail, depth, None)?);
        // the queue's entries start at q*depth in the shared memory
        let base = |p: &Sig| if q == 0 { p.zext_to(aw) } else { p.zext_to(aw) + num(aw, (q * depth) as u64) };
        waddrs.push(m.wire_of(&format!("q{q}_waddr"), &base(&s.wr_ptr)));
        // the registered read of an input buffer addresses the front after the pop
        let rd = if ram.is_some() && look.is_input() { &s.rd_ptr_d } else { &s.rd_ptr };
        raddrs.push(m.wire_of(&format!("q{q}_raddr"), &base(rd)));
        if let Some(ws) = &wside {
            let mem = m.memory(&format!("side{q}_q"), side_w, None, depth, None);
            m.clocked_no_reset(vec![Stmt::when(&s.do_push, vec![Stmt::set(LVal::word(&mem, &s.wr_ptr), ws)])]);
            sides.push(match look {
                Lookahead::Input | Lookahead::Input3 => {
                    let (front, front_next) = side_front(&mut m, q, &s, &mem, ws, &pop.at(q), &push.at(q))?;
                    side_nexts.push(front_next.part(0, next_w.max(1))?);
                    front
                }
                _ => mem.word(&s.rd_ptr),
            });
        }
        do_pushes.push(s.do_push.clone());
        fulls.push(s.full.clone());
        empties.push(s.empty.clone());
        queues_s.push(s);
    }
    m.comment("The shared memory: one write (the pushed queue's tail), one read (rsel_i's front)");
    let we = m.wire_of("we", &any_of(&do_pushes));
    let waddr = m.wire_of("waddr", &onehot_select(&push, &waddrs));
    let raddr = m.wire_of("raddr", &onehot_select(&rsel, &raddrs));
    match (&mem, ram) {
        (Some(mem), _) => {
            m.clocked_no_reset(vec![Stmt::when(&we, vec![Stmt::set(LVal::word(mem, &waddr), &wdata)])]);
            m.assign(&rdata, &mem.word(&raddr));
        }
        (None, Some((ram, write))) => {
            let re = m.wire_of("re", &rsel.any());
            let mut conns = vec![clk()];
            conns.extend(match write {
                RamWrite::Direct => vec![("we_i", we.e()), ("waddr_i", waddr.e()), ("wdata_i", wdata.e()), ("re_i", re.e()), ("raddr_i", raddr.e()), ("rdata_o", rdata.e())],
                RamWrite::Registered { bypass } => registered_write(&mut m, width, bypass, &rst, [&we, &waddr, &wdata], [&re, &raddr, &rdata]),
            });
            m.instance(ram, "u_mem", &conns);
            // The RAM's contract: the entry read is occupied and stays so
            // (an input buffer reads at most the second entry of a ready
            // VC's queue, point A's candidate or SA's grant; an output
            // buffer its picked queue's front), and a write goes to a free
            // entry.
            m.assert_always(&all_of(&[we.e(), re.e(), waddr.is(&raddr)]).l_not(), "no read of the entry written in the same cycle");
        }
        (None, None) => return Err(HdlError::Invalid(format!("vc_buffer {name}: no memory"))),
    }
    if let Some(so) = side_o {
        m.assign(&so, &cat_lsb(&sides));
    }
    m.assign(&empty_o, &cat_lsb(&empties));
    m.assign(&full_o, &cat_lsb(&fulls));
    if let Some((en, sn)) = &next_o {
        m.assign(en, &cat_lsb(&queues_s.iter().map(|s| s.empty_d.clone()).collect::<Vec<_>>()));
        m.assign(sn, &cat_lsb(&side_nexts));
    }
    if let Some(lp) = &look_o {
        lp.connect(&mut m, &queues_s.iter().collect::<Vec<_>>(), &tails)?;
    }
    let (ones, zero) = (Expr::ones(queues), Expr::zero(queues));
    m.assert_always(&at_most_one_set(&push, &ones, &zero), "push_i is one-hot or zero");
    m.assert_always(&at_most_one_set(&rsel, &ones, &zero), "rsel_i is one-hot or zero");
    if !(ram.is_some() && look.is_input()) {
        // (an input buffer's registered read selects next cycle's crossing flit)
        m.assert_always(&subset_of(&pop, &rsel, &zero), "pop_i names only the rsel_i queue");
    }
    m.assert_always(&(&push & &full_o).is(&zero), "no push into a full queue");
    m.assert_always(&(&pop & &empty_o).is(&zero), "no pop from an empty queue");
    m.finish()
}

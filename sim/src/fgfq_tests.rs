//! Fine-Grained Fair Queueing, the model-only comparison scheduler
//! (docs/microarchitecture.md §10). The expected grant orders and virtual
//! times below were worked out by hand from §10 (derivations in the
//! comments), not by running the model.

use crate::vclock::{FqMutant, VirtualClockScheduler, FQ_FRAC_BITS};
use crate::{ComparisonScheduler, LinkFlit, Router, RouterInputs};
use wormqos_config::RouterConfig;

/// One cycle of virtual time in the scheduler's units.
const U: u64 = 1 << FQ_FRAC_BITS;

/// Two slots, both with Vtick 4, every present slot eligible, and a new flit
/// behind every granted one (a long message). Slot 1 is present in every
/// cycle; slot 0 sends one flit in cycle 0, is absent in cycles 1..=7 and
/// present again from cycle 8. Returns the winner of cycles 0..14 and the
/// scheduler's `now` at the start of cycle 8.
fn returning_flow(s: &mut VirtualClockScheduler) -> (Vec<usize>, u64) {
    let mut order = Vec::new();
    let mut now8 = 0;
    for t in 0..14u64 {
        if t == 8 {
            now8 = s.now();
        }
        let present = if t == 0 || t >= 8 { 0b11 } else { 0b10 };
        let w = s.grant(present, present, &[4, 4]).expect("a slot is present");
        s.update(true);
        order.push(w);
    }
    (order, now8)
}

/// FGFQ, R in cycles of virtual time (Table I right column: F = max(R, F) + P/n
/// with P/n = Vtick; R runs at 1 / sum(1/Vtick) over backlogged slots):
/// - c0: R = 0. Both stamp max(0, 0) + 4 = 4; tie -> slot 0. Fluid: both
///   backlogged (F = 4 > 0), rate 1/(1/4 + 1/4) = 2 -> R = 2.
/// - c1: slot 1 keeps stamp 4, wins. Fluid: both backlogged up to 4: R = 4.
/// - c2: slot 1 stamps max(4, 4) + 4 = 8. Fluid: only slot 1 backlogged
///   (slot 0's F = 4 = R), rate 4 -> R = 8. Likewise every cycle up to c7:
///   R = 4t - 4 at the start of ct, stamp 4t, R = 4t at its end.
/// - c8: R = 28. Slot 1 stamps max(28, 28) + 4 = 32, slot 0 stamps
///   max(28, 4) + 4 = 32 (its old F is forgotten: it is behind R). Tie ->
///   slot 0. Fluid: both backlogged, rate 2 -> R = 30.
/// - c9: slot 1 keeps 32; slot 0 stamps max(30, 32) + 4 = 36 -> slot 1.
///   Fluid: R reaches 32 after one cycle -> R = 32.
/// - c10: slot 0 keeps 36, slot 1 stamps max(32, 32) + 4 = 36; tie -> slot 0.
///   From here the pattern of c8, c9 repeats shifted by 4: they alternate.
const FGFQ_ORDER: [usize; 14] = [0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1];

/// The same traffic under FGVC (now = the cycle): slot 1's stamps run ahead
/// of real time while it uses the idle slot's share:
/// - c0: both 4, slot 0 wins; c1: slot 1 (4); ct for t >= 2: slot 1 stamps
///   max(t, 4t - 4) + 4 = 4t. So in c8 slot 1 stamps 32.
/// - c8: slot 0 stamps max(8, 4) + 4 = 12 < 32, and keeps winning with 16,
///   20, 24, 28 and 32 (c13, a tie, lowest index): slot 1 is punished for
///   the bandwidth it used while slot 0 was away. FGFQ does not do this.
const FGVC_ORDER: [usize; 14] = [0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0];

#[test]
fn fgfq_shares_fairly_with_a_returning_flow_where_fgvc_punishes_the_other() {
    let mut fq = VirtualClockScheduler::new_fair_queueing(2, 16, 16);
    let (order, now8) = returning_flow(&mut fq);
    assert_eq!(order, FGFQ_ORDER);
    assert_eq!(now8, 28 * U);
    // c11: slot 1 (36) beats slot 0's new 40, R 34 -> 36; c12: slot 0 (40)
    // ties slot 1's new max(36, 36) + 4 = 40 and wins, R -> 38; c13: slot 1
    // (40) beats slot 0's new max(38, 40) + 4 = 44, R -> 40. So after c13:
    assert_eq!(fq.now(), 40 * U);
    assert!(fq.stamped(0) && !fq.stamped(1));
    assert_eq!((fq.stamp(0), fq.aux(0), fq.aux(1)), (44 * U, 44 * U, 40 * U));

    let mut vc = VirtualClockScheduler::new(2, 16, 16);
    let (order, now8) = returning_flow(&mut vc);
    assert_eq!(order, FGVC_ORDER);
    assert_eq!(now8, 8);
}

/// Mutant check: planted bugs in the virtual time change the asserted order,
/// so the test above would catch them.
/// - `NoVirtualTime` (R stuck at 0): in c8 slot 0 stamps max(0, 4) + 4 = 8
///   < 32 and wins c8..c13 (8, 12, ..., 28): order like FGVC's from c8.
/// - `AllSlotsWeighted` (idle slot 0 still slows R): from c2 the rate is 2,
///   not 4: R = 2t at the start of ct, slot 1 still stamps 4t. In c8 R = 16,
///   slot 0 stamps 20 < 32 and wins c8..c11 (20, 24, 28, then 32 ties and
///   goes to slot 0 too): c9 is slot 0, not slot 1.
#[test]
fn fgfq_test_catches_planted_virtual_time_bugs() {
    for (mutant, c9) in [(FqMutant::NoVirtualTime, 0), (FqMutant::AllSlotsWeighted, 0)] {
        let mut fq = VirtualClockScheduler::new_fair_queueing(2, 16, 16);
        fq.mutant = mutant;
        let (order, _) = returning_flow(&mut fq);
        assert_ne!(order, FGFQ_ORDER, "{mutant:?} not caught");
        assert_eq!(order[9], c9, "{mutant:?}");
    }
    // The AllSlotsWeighted R at the start of c8, by the derivation above: 16.
    let mut fq = VirtualClockScheduler::new_fair_queueing(2, 16, 16);
    fq.mutant = FqMutant::AllSlotsWeighted;
    assert_eq!(returning_flow(&mut fq).1, 16 * U);
}

/// Unequal weights, where R moves at a fractional rate and a slot leaves the
/// fluid backlog in the middle of a cycle. Slot 0 Vtick 2, slot 1 Vtick 4,
/// both present and eligible once in cycle 0 only (one flit each).
/// - c0: R = 0, F0 = 2, F1 = 4; slot 0 wins. Fluid: rate 1/(1/2 + 1/4) = 4/3
///   until R = 2 (slot 0 done), which takes 2 / (4/3) = 1.5 cycles > 1:
///   R = 4/3 at the end of c0.
/// - c1: slot 1 (stamp 4) wins. Fluid: 0.5 cycle at 4/3 brings R to 2, then
///   slot 1 alone at rate 4 for the remaining 0.5 cycle: R = 4, except that
///   c0's rounding down (87381 units, not 87381.33) made the first part take
///   a little longer, so R ends 1 unit (2^-16 cycle) short of 4, or 2 with
///   the floating-point rate; slot 1 is still backlogged by that much.
/// - c2: nothing present; the fluid finishes slot 1 (R = 4 exactly, a finish
///   tag) and then holds.
/// FGVC would have stamped the same 2 and 4 but its `now` would be 3.
#[test]
fn fgfq_virtual_time_is_piecewise_in_the_backlog() {
    let mut fq = VirtualClockScheduler::new_fair_queueing(2, 16, 16);
    assert_eq!(fq.grant(0b11, 0b11, &[2, 4]), Some(0));
    fq.update(true);
    assert_eq!(fq.now(), 87381, "4/3 cycle, rounded down to the unit");
    assert_eq!((fq.aux(0), fq.aux(1), fq.stamp(1)), (2 * U, 4 * U, 4 * U));
    assert_eq!(fq.grant(0b10, 0b10, &[0, 4]), Some(1));
    fq.update(true);
    assert!((4 * U - 2..4 * U).contains(&fq.now()), "{}", fq.now());
    let mut idle = fq.clone();
    for _ in 0..2 {
        assert_eq!(fq.grant(0, 0, &[0, 0]), None);
        fq.update(false);
        assert_eq!(fq.now(), 4 * U);
    }
    idle.advance_idle(2);
    assert_eq!(regs(&idle), regs(&fq));
}

/// The registers (not the scratch of the last grant).
fn regs(s: &VirtualClockScheduler) -> (u64, Vec<(u64, bool, u64)>) {
    (s.now(), (0..s.slots()).map(|k| (s.aux(k), s.stamped(k), s.stamp(k))).collect())
}

/// `advance_idle(n)` equals n idle cycles, also while the fluid server still
/// has backlog (the router's lazy catching-up relies on it).
#[test]
fn fgfq_advance_idle_matches_idle_cycles() {
    let mut a = VirtualClockScheduler::new_fair_queueing(3, 16, 16);
    // All three arrive in c0; then the two losers are served from their stamps.
    a.grant(0b111, 0b111, &[3, 5, 7]);
    a.update(true);
    while (0..3).any(|k| a.stamped(k)) {
        let st = (0..3).filter(|&k| a.stamped(k)).fold(0, |m, k| m | 1 << k);
        a.grant(st, st, &[0, 0, 0]);
        a.update(true);
    }
    // Slot 2's F = 7 and R after three cycles is below that: still backlogged.
    assert!(a.now() < a.aux(2));
    let mut b = a.clone();
    for _ in 0..40 {
        b.grant(0, 0, &[0, 0, 0]);
        b.update(false);
    }
    let mut a2 = a.clone();
    a2.advance_idle(40);
    assert_eq!(regs(&a2), regs(&b));
    assert!(b.now() > a.now(), "the fluid backlog moved R");
    assert_eq!(b.now(), 7 * U, "R stops at the last finish tag");
}

fn inline_vc(crossbar: &str, scheduler: &str) -> RouterConfig {
    let text = format!(
        "name = \"t\"\n[router]\nports = 4\nvcs = 3\nflit_width = 32\ninput_buffer_depth = 4\n\
         output_buffer_depth = 4\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\n"
    );
    RouterConfig::from_toml_str(&text, "inline").unwrap()
}

#[test]
fn fgfq_router_needs_the_virtualclock_configuration() {
    for sched in ["fifo", "round_robin"] {
        let cfg = inline_vc("multiplexed", sched);
        let e = Router::new_comparison(&cfg, ComparisonScheduler::FineGrainedFairQueueing).unwrap_err();
        assert!(e.to_string().contains("router.scheduler = \"virtualclock\""), "{e}");
    }
}

/// Reset keeps FGFQ, and FGFQ is really in use (the outputs differ from
/// FGVC's somewhere under the same traffic).
#[test]
fn fgfq_router_differs_from_fgvc() {
    let mut differs = false;
    for xbar in ["multiplexed", "full"] {
        let cfg = inline_vc(xbar, "virtualclock");
        let which = ComparisonScheduler::FineGrainedFairQueueing;
        let mut a = Router::new_comparison(&cfg, which).unwrap();
        let mut v = Router::new(&cfg);
        assert!(a.virtual_clock(0).unwrap().is_fair_queueing());
        let vt = cfg.header().vtick;
        let mut inp = RouterInputs::idle(&cfg);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for t in 0..4000u64 {
            inp.clear();
            for p in 0..cfg.ports() {
                let x = next();
                if x % 2 == 0 {
                    let mut data = [x >> 20 & 3, 0, 0, 0];
                    // Small Vticks so that the schedulers' choices matter.
                    vt.insert(&mut data, 1 + (x >> 24) % 6);
                    inp.flits[p] = LinkFlit {
                lane: 0,
                        valid: true,
                        dummy: false,
                        vc: ((x >> 8) % 3) as u8,
                        head: x >> 16 & 3 == 0,
                        tail: x >> 18 & 3 == 0,
                        data,
                    };
                }
                inp.credits[p] = if (t / 100) % 3 == 2 { next() as u32 } else { u32::MAX };
            }
            a.step(&inp);
            v.step(&inp);
            differs |= a.outputs() != v.outputs();
        }
        assert!(a.stats().flits_forwarded > 1000, "{:?}", a.stats());
        a.reset();
        assert!(a.virtual_clock(0).unwrap().is_fair_queueing());
        assert_eq!(a.virtual_clock(0).unwrap().now(), 0);
    }
    assert!(differs, "FGFQ made no difference anywhere: not wired in?");
}

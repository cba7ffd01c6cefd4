//! Flit-level Weighted Round Robin, the model-only comparison scheduler
//! (docs/microarchitecture.md §10.4). The grant orders below were worked out
//! by hand from §10.4 (derivations in the comments), not by running the model.

use crate::vclock::VirtualClockScheduler;
use crate::{ComparisonScheduler, Router};
use wormqos_config::RouterConfig;

/// 8-bit Vticks: 255 marks best effort.
const BE: u64 = 255;

fn wrr(slots: usize) -> VirtualClockScheduler {
    VirtualClockScheduler::new_weighted_round_robin(slots, 16, 8)
}

/// Winners of `cycles` cycles in which every slot of `present` is present
/// and eligible, each grant taking effect (a long message behind every slot).
fn order(s: &mut VirtualClockScheduler, present: u32, vticks: &[u64], cycles: usize) -> Vec<usize> {
    (0..cycles)
        .map(|_| {
            let w = s.grant(present, present, vticks).expect("a slot is present");
            s.update(true);
            w
        })
        .collect()
}

/// Vticks 2, 4, 8 (rates 4:2:1):
/// - c0: no slot has quota, so the first eligible from the pointer (0) wins;
///   its grant finds it without quota: a round starts, V = 8, quotas
///   round(8/2) = 4, round(8/4) = 2, round(8/8) = 1; slot 0 spends one (3
///   left) and the pointer stays on it.
/// - c1..c3: slot 0 (2, 1, 0 left); at 0 the pointer moves to 1.
/// - c4, c5: slot 1 (1, 0 left), pointer to 2. c6: slot 2 (0 left), pointer
///   past the last slot back to 0.
/// - c7: no quota left anywhere: slot 0 from the pointer, a new round.
#[test]
fn quotas_follow_the_rates_and_rounds_repeat() {
    let mut s = wrr(3);
    assert!(s.is_weighted_round_robin());
    let got = order(&mut s, 0b111, &[2, 4, 8], 14);
    assert_eq!(got, vec![0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 1, 1, 2]);
}

/// Vticks 3 and 4: quotas round(4/3) = 1 and round(4/4) = 1, so the two
/// alternate (WRR's integer quotas are coarser than VirtualClock's stamps,
/// which would give 4:3).
#[test]
fn quotas_round_to_whole_flits() {
    let mut s = wrr(2);
    assert_eq!(order(&mut s, 0b11, &[3, 4], 6), vec![0, 1, 0, 1, 0, 1]);
}

/// Best effort (slot 2) is served only when no real-time slot is eligible,
/// as under VirtualClock (§8.4 step 2); a real-time slot that is present
/// but not eligible does not block it.
#[test]
fn best_effort_only_without_eligible_real_time() {
    let mut s = wrr(3);
    let vt = [2, 4, BE];
    for _ in 0..5 {
        let w = s.grant(0b111, 0b111, &vt).unwrap();
        s.update(true);
        assert_ne!(w, 2, "best effort beat an eligible real-time slot");
    }
    let w = s.grant(0b111, 0b100, &vt);
    s.update(true);
    assert_eq!(w, Some(2));
}

/// Work conserving: with quotas 4:2:1 (Vticks 2, 4, 8), slot 0 spends its
/// round (c0..c3: 0,0,0,0; pointer to 1); then only slot 0 is eligible for
/// two cycles: it has no quota, but nothing else may go, so it is granted,
/// and its grant without quota starts a new round (quotas 4, 2, 1; slot 0
/// spends one, 3 left, pointer on 0); the second cycle: slot 0 again (2
/// left). Then all eligible: slot 0 (1 left), slot 0 (0 left, pointer to 1),
/// slot 1, slot 1, slot 2.
#[test]
fn an_eligible_slot_without_quota_is_still_granted() {
    let mut s = wrr(3);
    let vt = [2, 4, 8];
    let mut got = order(&mut s, 0b111, &vt, 4);
    for _ in 0..2 {
        got.push(s.grant(0b111, 0b001, &vt).unwrap());
        s.update(true);
    }
    got.extend(order(&mut s, 0b111, &vt, 5));
    assert_eq!(got, vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]);
}

/// A grant that does not take effect (lost at point B) spends no quota and
/// does not move the pointer: Vticks 2 and 4 (quotas 2:1), the first grant
/// lost twice, then the order 0, 0, 1 of an untouched scheduler.
#[test]
fn a_grant_that_does_not_take_effect_spends_nothing() {
    let mut s = wrr(2);
    for _ in 0..2 {
        assert_eq!(s.grant(0b11, 0b11, &[2, 4]), Some(0));
        s.update(false);
    }
    assert_eq!(order(&mut s, 0b11, &[2, 4], 6), vec![0, 0, 1, 0, 0, 1]);
}

/// The router-level switch: WRR replaces FGVC at its scheduling points, and
/// refuses a configuration without VirtualClock.
#[test]
fn router_comparison_needs_virtualclock() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/mesh5.toml")).unwrap();
    let vc = text.replace("scheduler = \"round_robin\"", "scheduler = \"virtualclock\"");
    assert_ne!(vc, text, "the edit did not apply");
    let cfg = RouterConfig::from_toml_str(&vc, "mesh5 (virtualclock)").unwrap();
    assert!(Router::new_comparison(&cfg, ComparisonScheduler::WeightedRoundRobin).is_ok());
    let cfg = RouterConfig::from_toml_str(&text, "mesh5").unwrap();
    assert!(Router::new_comparison(&cfg, ComparisonScheduler::WeightedRoundRobin).is_err());
}

/// The pointer may come to rest on a slot that already spent its round
/// (served early while others were not eligible); it is skipped for a slot
/// with quota left. Vticks 2, 4, 8 (quotas 4:2:1), eligible sets per cycle:
/// - c0 all: slot 0, a round starts (left 3, 2, 1), pointer on 0;
/// - c1 {1, 2}: slot 1 (left 1), pointer on 1;
/// - c2 {2}: slot 2 (left 0), pointer past the last slot to 0;
/// - c3 {1, 2}: of those only 1 has quota: slot 1 (left 0), pointer to 2;
/// - c4 all: the pointer is on 2, which has no quota; slot 0 has 3: slot 0
///   (left 2), pointer on 0; c5, c6 all: slot 0 (left 1, 0), pointer to 1;
/// - c7 all: no quota anywhere: slot 1 from the pointer, a new round.
#[test]
fn a_slot_that_spent_its_round_is_skipped_for_one_with_quota() {
    let mut s = wrr(3);
    let vt = [2, 4, 8];
    let got: Vec<usize> = [0b111, 0b110, 0b100, 0b110, 0b111, 0b111, 0b111, 0b111]
        .iter()
        .map(|&e| {
            let w = s.grant(0b111, e, &vt).unwrap();
            s.update(true);
            w
        })
        .collect();
    assert_eq!(got, vec![0, 1, 2, 1, 0, 0, 0, 1]);
}

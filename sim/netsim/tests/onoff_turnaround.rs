//! The K = 1 excess of fig12_000_onoff_2port.toml (docs/reproduction.md,
//! "The K = 1 excess, message by message"), message by message.
//!
//! Derived from docs/microarchitecture.md: a message alone takes P − 1 = 4
//! pipeline cycles plus its M = 32 flits from creation to its tail's
//! delivery; a back-to-back header on the same input VC pays RC and VA
//! again (§6), so the class's one VC passes one message per M + 2 = 34
//! cycles while the burst creates one per g = 33. The n-th message of a
//! burst (n = 0, 1, …) therefore takes 36 + n cycles.

use std::path::PathBuf;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

#[test]
fn each_message_of_a_burst_takes_one_cycle_more_than_the_one_before() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/fig12_000_onoff_2port.toml")).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("onoff_streams = 2", "onoff_streams = 1").replace("onoff_mean_off_us = 368.0", "onoff_mean_off_us = 173.6").replace("cycles = 400000", "cycles = 100000");
    let v = Experiment::from_str(&text, "fig12_000_onoff_2port.toml", PathBuf::new()).unwrap();
    let (_, log) = Sim::new(&v).unwrap().run_logged(0).unwrap();
    let log: Vec<_> = log.into_iter().filter(|m| m.created >= v.run_cycles().1).collect();
    assert!(log.len() > 300, "{} messages", log.len());
    let mut place = 0u64;
    let mut deepest = 0;
    for (i, m) in log.iter().enumerate() {
        place = if i > 0 && m.created - log[i - 1].created == 33 { place + 1 } else { 0 };
        deepest = deepest.max(place);
        assert_eq!(m.delivered - m.created, 36 + place, "message {i} (created {}, place {place} in its burst)", m.created);
    }
    // Bursts long enough to fill the 32-flit input buffer (place ≥ 30).
    assert!(deepest >= 30, "deepest place {deepest}");
}

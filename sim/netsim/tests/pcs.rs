//! The model-only PCS connection set-up (`wormqos_netsim::pcs`, 001_…
//! §III-F, §IV-B.1, Table VI) against expectations derived by hand.

use wormqos_netsim::pcs::{establish_streams, Drop, PcsSwitch, SetUpPlan};

/// A 4-port switch, 3 VCs per link, links of 10 Mbit/s and streams of
/// 4 Mbit/s: two streams fit a link (8 <= 10), a third does not (12 > 10).
fn small() -> PcsSwitch {
    PcsSwitch::new(4, 3, 10_000)
}

#[test]
fn a_set_up_reserves_the_vc_and_bandwidth_of_both_links() {
    let mut sw = small();
    let c = sw.set_up(0, 0, 2, 1, 4_000).expect("an idle switch accepts the probe");
    assert_eq!((c.source, c.input_vc, c.dest, c.output_vc, c.rate), (0, 0, 2, 1, 4_000));
    assert!(sw.output_vc_held(2, 1));
    assert!(!sw.output_vc_held(2, 0) && !sw.output_vc_held(2, 2));
    assert_eq!(sw.output_reserved(2), 4_000);
    // The source's input VC 0 is now held: its next free one is VC 1.
    assert_eq!(sw.free_input_vc(0), Some(1));
    // The same input VC again is refused on the input link.
    assert_eq!(sw.set_up(0, 0, 3, 0, 4_000), Err(Drop::NoInputVc));
}

#[test]
fn a_probe_to_a_held_destination_vc_is_dropped_without_reserving() {
    let mut sw = small();
    sw.set_up(0, 0, 2, 1, 4_000).unwrap();
    // Another source, the same destination VC: no backtracking, dropped.
    assert_eq!(sw.set_up(1, 0, 2, 1, 4_000), Err(Drop::VcBusy));
    // Nothing of the dropped probe stays reserved: source 1's VC 0 is free
    // and output 2 still carries 4 Mbit/s only.
    assert_eq!(sw.free_input_vc(1), Some(0));
    assert_eq!(sw.output_reserved(2), 4_000);
}

#[test]
fn a_probe_beyond_the_output_links_bandwidth_is_dropped() {
    let mut sw = small();
    sw.set_up(0, 0, 3, 0, 4_000).unwrap();
    sw.set_up(1, 0, 3, 1, 4_000).unwrap(); // 8 of 10 Mbit/s
    // VC 2 is free but 8 + 4 = 12 > 10.
    assert_eq!(sw.set_up(2, 0, 3, 2, 4_000), Err(Drop::NoBandwidth));
    assert!(!sw.output_vc_held(3, 2));
    assert_eq!(sw.output_reserved(3), 8_000);
    // Exactly the rest fits: 8 + 2 = 10.
    assert!(sw.set_up(2, 0, 3, 2, 2_000).is_ok());
    assert_eq!(sw.output_reserved(3), 10_000);
}

#[test]
fn a_probe_beyond_the_input_links_bandwidth_is_dropped() {
    let mut sw = small();
    sw.set_up(0, 0, 1, 0, 4_000).unwrap();
    sw.set_up(0, 1, 2, 0, 4_000).unwrap(); // source 0's link: 8 of 10
    assert_eq!(sw.set_up(0, 2, 3, 0, 4_000), Err(Drop::NoBandwidth));
}

#[test]
fn tear_down_releases_the_vcs_and_the_bandwidth() {
    let mut sw = small();
    let a = sw.set_up(0, 0, 3, 0, 4_000).unwrap();
    sw.set_up(1, 0, 3, 1, 4_000).unwrap();
    assert_eq!(sw.set_up(2, 0, 3, 0, 4_000), Err(Drop::VcBusy));
    sw.tear_down(a);
    assert_eq!(sw.output_reserved(3), 4_000);
    assert!(!sw.output_vc_held(3, 0));
    assert_eq!(sw.free_input_vc(0), Some(0));
    // The released VC and bandwidth take the probe that was dropped before.
    assert!(sw.set_up(2, 0, 3, 0, 4_000).is_ok());
    assert_eq!(sw.output_reserved(3), 8_000);
}

/// Two ports: each source's only destination is the other port, so each
/// output receives exactly one source's streams. With V VCs and k of them
/// held, a uniformly drawn VC is free with probability (V - k) / V, so the
/// attempts to establish the (k+1)-th stream are geometric with mean
/// V / (V - k). V = 4, three streams per source: per output
/// 4/4 + 4/3 + 4/2 = 13/3, both outputs 26/3 = 8.667 attempts; variance per
/// output 0 + (1/4)/(3/4)^2 + (1/2)/(1/2)^2 = 4/9 + 2 = 22/9, both 44/9,
/// so over 4000 replications the standard error of the mean is
/// sqrt(44/9/4000) = 0.035; the tolerance is 0.14 (4 standard errors).
#[test]
fn table_vi_procedure_matches_the_geometric_attempts() {
    let plan = SetUpPlan { ports: 2, vcs: 4, link_kbps: 100_000, stream_kbps: 4_000, streams: 6 };
    let n = 4000;
    let mut total = 0u64;
    for seed in 0..n {
        let c = establish_streams(&plan, seed).expect("six streams fit two outputs of four VCs");
        assert_eq!(c.established, 6);
        assert_eq!(c.attempts, c.established + c.dropped(), "every attempt is established or dropped");
        assert_eq!(c.dropped_bandwidth, 0, "6 x 4 Mbit/s never fills a 100 Mbit/s link");
        assert_eq!(c.busiest_output, 3, "each output takes one source's three streams");
        total += c.attempts;
    }
    let mean = total as f64 / n as f64;
    assert!((mean - 26.0 / 3.0).abs() < 0.14, "mean attempts {mean}, expected 8.667 ± 0.14");
}

/// One VC per link: a single stream per source, each to the other port's
/// only VC, which is free: two attempts, no drop.
#[test]
fn table_vi_procedure_with_one_vc_never_drops_on_an_idle_output() {
    let plan = SetUpPlan { ports: 2, vcs: 1, link_kbps: 100_000, stream_kbps: 4_000, streams: 2 };
    for seed in 0..50 {
        let c = establish_streams(&plan, seed).unwrap();
        assert_eq!((c.attempts, c.established, c.dropped()), (2, 2, 0));
    }
}

/// Bandwidth binds before the VCs: links of 10 Mbit/s hold two 4 Mbit/s
/// streams although each has 3 VCs; three streams into a 2-port switch would
/// need 3 on one input link: the procedure cannot reach them and says so.
#[test]
fn table_vi_procedure_gives_up_when_no_output_can_take_a_share() {
    let plan = SetUpPlan { ports: 2, vcs: 3, link_kbps: 10_000, stream_kbps: 4_000, streams: 6 };
    assert_eq!(establish_streams(&plan, 1), None);
}

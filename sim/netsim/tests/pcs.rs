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

// ---- The data phase (`wormqos_netsim::pcs_data`): circuits carrying frames.
// Expected cycles derived by hand from the rules in pcs_data.rs's header: a
// link sends one flit per cycle; a flit sent on the input link in cycle t may
// leave on the output link from t + 1 and is delivered in the cycle after it
// leaves; a link serves its VCs by VirtualClock (stamp on arrival, auxVC =
// max(auxVC, now) + Vtick, smallest first, ties to the earlier circuit).

use wormqos_netsim::pcs_data::{intervals, run_circuits, CircuitSpec, DataPlan};
use wormqos_netsim::workload::{FrameSizer, Regulator};

/// Frames every 1,000 cycles, 20-flit messages of 19 data flits of 32 bits
/// (608 bits each), messages of a frame spaced T/n apart (slot_start).
fn data_plan(ports: usize) -> DataPlan {
    DataPlan { ports, cycles: 5_000, warmup: 0, period: 1_000.0, msg_flits: 20, flit_bits: 32, regulator: Regulator::SlotStart, buffer: 20 }
}

fn circuit(source: usize, dest: usize, vtick: u64, frame_bits: f64) -> CircuitSpec {
    CircuitSpec { source, dest, vtick, start: 0.0, sizer: FrameSizer::Constant(frame_bits) }
}

#[test]
fn one_circuit_alone_delivers_its_frames_at_the_link_rate() {
    // 1,216 bits = 38 data flits = 2 messages, created at 0 and 500 of each
    // frame. Alone, a message goes at a flit per cycle (the link rate, not
    // the reserved 1/25): created in cycle t0, its tail (flit 19) is
    // delivered in t0 + 19 + 2. Frame f ends with message 1, created at
    // 1000 f + 500: delivered in 1000 f + 521; created (message 0) 1000 f.
    let out = run_circuits(&data_plan(2), &[circuit(0, 1, 25, 1_216.0)], 7);
    let want: Vec<(u32, u64, u64)> = (0..5).map(|f| (f, 1_000 * f as u64 + 521, 1_000 * f as u64)).collect();
    assert_eq!(out.frames[0], want);
    assert_eq!(intervals(&out), vec![1_000.0; 4]);
    // Every flit created was carried: 5 frames × 2 messages × 20 flits.
    assert_eq!((out.output_flits[1], out.output_offered_flits[1], out.output_backlog_flits[1]), (200, 200, 0));
}

#[test]
fn two_circuits_with_equal_reservations_share_an_output_link_flit_by_flit() {
    // Sources 0 and 1 to output 2, one 20-flit message each at cycle 0.
    // Flit k of either arrives in k + 1 with stamp 26 + 25 k: equal stamps,
    // so the output alternates, circuit 0 first: circuit 0's flit k leaves
    // in 1 + 2k, circuit 1's in 2 + 2k. Tails (k = 19): 39 and 40, delivered
    // in 40 and 41 — each at half the link rate, as equal reservations say.
    let out = run_circuits(&data_plan(3), &[circuit(0, 2, 25, 608.0), circuit(1, 2, 25, 608.0)], 7);
    assert_eq!(out.frames[0][0], (0, 40, 0));
    assert_eq!(out.frames[1][0], (0, 41, 0));
}

#[test]
fn two_circuits_share_an_output_link_in_proportion_to_their_reservations() {
    // Vtick 10 (circuit 0) against 30 (circuit 1): stamps 11 + 10 k and
    // 31 + 30 j. Circuit 0's tail (stamp 201) goes after circuit 1's flits
    // with stamps below 201 (j = 0..5: 31..181; the tie at 31 goes to
    // circuit 0): the output sends 20 + 6 flits in cycles 1..26, so circuit
    // 0's tail is delivered in 27; circuit 1's last of 40 flits leaves in 40,
    // delivered in 41. Three flits of circuit 0 per flit of circuit 1.
    let out = run_circuits(&data_plan(3), &[circuit(0, 2, 10, 608.0), circuit(1, 2, 30, 608.0)], 7);
    assert_eq!(out.frames[0][0], (0, 27, 0));
    assert_eq!(out.frames[1][0], (0, 41, 0));
}

#[test]
fn two_circuits_of_one_source_share_its_input_link() {
    // Source 0 to outputs 1 and 2: the input link stamps the head flits
    // 25 (k + 1) for both, so it alternates, circuit 0 first: circuit 0's
    // flit k crosses in 2k, circuit 1's in 2k + 1; each output then sends a
    // flit the cycle after it arrives. Tails: 38 + 2 = 40 and 39 + 2 = 41.
    let out = run_circuits(&data_plan(3), &[circuit(0, 1, 25, 608.0), circuit(0, 2, 25, 608.0)], 7);
    assert_eq!(out.frames[0][0], (0, 40, 0));
    assert_eq!(out.frames[1][0], (0, 41, 0));
}

#[test]
fn an_overloaded_output_link_stretches_the_frame_intervals() {
    // Three circuits to one output, each a 40-message frame (800 flits)
    // every 1,000 cycles: 2,400 flits offered per 1,000 cycles, 1,000
    // carried. The output carries at most one flit per cycle, so after
    // 5,000 cycles at most 5,000 flits left of the 12,000 offered (15
    // frames × 800) and frames finish about 2.4 periods apart.
    let bits = 40.0 * 608.0;
    let c = [circuit(0, 3, 25, bits), circuit(1, 3, 25, bits), circuit(2, 3, 25, bits)];
    let out = run_circuits(&data_plan(4), &c, 7);
    assert_eq!(out.output_offered_flits[3], 12_000);
    assert!(out.output_flits[3] <= 5_000 && out.output_flits[3] >= 4_990, "{:?}", out.output_flits);
    let iv = intervals(&out);
    assert!(!iv.is_empty() && iv.iter().all(|&x| x > 2_000.0), "{iv:?}");
}

#[test]
fn sim_runs_the_data_phase_only_with_a_run_length() {
    // fig10_001_pcs.toml at load 0.3 (60 streams of 4 Mbit/s: each output
    // far from full), 2 replications of 0.2 s with 0.05 s warm-up. Cycles
    // of a 32-bit flit at 100 Mbit/s: 0.32 µs, so 625,000 and 156,250.
    // Unloaded circuits deliver a frame per frame time: d̄ = 1/30 s.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("experiments/fig10_001_pcs.toml")).unwrap();
    let text = text.replace("load = 0.91", "load = 0.3").replace("pcs_replications = 20", "pcs_replications = 2");
    let edit = |t: &str, name: &str| {
        let p = std::env::temp_dir().join(format!("pcs_data_{}_{name}.toml", std::process::id()));
        std::fs::write(&p, t).unwrap();
        let v = wormqos_netsim::Experiment::from_file(&p).unwrap();
        std::fs::remove_file(&p).unwrap();
        wormqos_netsim::pcs::run(&v).unwrap()
    };
    let r = edit(&text.replace("seconds = 0.4", "seconds = 0.2").replace("warmup_seconds = 0.1", "warmup_seconds = 0.05"), "run");
    let d = r.data.expect("run.seconds given: the data phase runs");
    assert_eq!((d.cycles, d.warmup_cycles, r.streams), (625_000, 156_250, 60));
    assert!((d.frame_interval_mean_ms.mean - 1e3 / 30.0).abs() < 0.01, "{:?}", d.frame_interval_mean_ms);
    assert!(d.frame_interval_sd_ms.mean < 0.2, "{:?}", d.frame_interval_sd_ms);
    // Without a run length (Table VI's files) only the set-up runs.
    let r = edit(&text.replace("seconds = 0.4\n", "").replace("warmup_seconds = 0.1\n", ""), "setup");
    assert!(r.data.is_none());
}

/// docs/reproduction.md ("Fig. 10's PCS curves") quotes the cycles of the
/// runs above: each quoted number is taken here from the same run.
#[test]
fn the_doc_quotes_the_data_phase_runs() {
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reproduction.md")).unwrap();
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let alone = run_circuits(&data_plan(2), &[circuit(0, 1, 25, 1_216.0)], 7);
    // Frame 1: made in cycle 1,000, so "1000 f + tail - made".
    let (_, tail, made) = alone.frames[0][1];
    let equal = run_circuits(&data_plan(3), &[circuit(0, 2, 25, 608.0), circuit(1, 2, 25, 608.0)], 7);
    let input = run_circuits(&data_plan(3), &[circuit(0, 1, 25, 608.0), circuit(0, 2, 25, 608.0)], 7);
    assert_eq!((equal.frames[0][0], equal.frames[1][0]), (input.frames[0][0], input.frames[1][0]), "on one output and on one input alike");
    let shared = run_circuits(&data_plan(3), &[circuit(0, 2, 10, 608.0), circuit(1, 2, 30, 608.0)], 7);
    let offered = 3.0 * 40.0 * 20.0 / 1_000.0; // three circuits' 800 flits per 1,000 cycles
    for quoted in [
        format!("one circuit alone delivers frame f's last flit in cycle {} f + {}", made, tail - made),
        format!("alternate flit by flit (tails in {} and {})", equal.frames[0][0].1, equal.frames[1][0].1),
        format!("Vticks 10 and 30 share an output 3 : 1 (tails in {} and {})", shared.frames[0][0].1, shared.frames[1][0].1),
        format!("three circuits offering {offered:.1} times an output's rate"),
    ] {
        assert!(doc.contains(&quoted), "docs/reproduction.md should say \"{quoted}\"");
    }
}

//! Workload generators against their specified means and variances, and the
//! trace format's error messages.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use wormqos_netsim::metrics::mean_sd;
use wormqos_netsim::workload::*;

#[test]
fn synthetic_vbr_frame_sizes_are_normal_16666_3333() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut s = FrameSizer::Normal { mean: 16_666.0 * 8.0, sd: 3_333.0 * 8.0 };
    let xs: Vec<f64> = (0..40_000).map(|_| s.next(&mut rng) / 8.0).collect();
    let m = mean_sd(&xs);
    // Standard error of the mean 3333/200 = 17 B; of the sd about 12 B.
    assert!((m.mean - 16_666.0).abs() < 60.0, "{m:?}");
    assert!((m.sd - 3_333.0).abs() < 50.0, "{m:?}");
}

#[test]
fn poisson_and_bernoulli_gaps() {
    let mut rng = SmallRng::seed_from_u64(5);
    // Exponential(mean 50): mean 50, sd 50.
    let xs: Vec<f64> = (0..40_000).map(|_| exponential(&mut rng, 50.0)).collect();
    let m = mean_sd(&xs);
    assert!((m.mean - 50.0).abs() < 1.0 && (m.sd - 50.0).abs() < 1.5, "{m:?}");
    // Geometric on {1,2,..} with p = 0.01: mean 1/p = 100, sd sqrt(1-p)/p = 99.5.
    let xs: Vec<f64> = (0..40_000).map(|_| geometric(&mut rng, 0.01)).collect();
    let m = mean_sd(&xs);
    assert!((m.mean - 100.0).abs() < 2.0 && (m.sd - 99.5).abs() < 3.0, "{m:?}");
    assert!(xs.iter().all(|&x| x >= 1.0 && x.fract() == 0.0));
}

#[test]
fn mpeg2_table_iii_bandwidths_follow_from_the_gop() {
    // 001_… Table III average bandwidth (kb/s) vs I/P/B sizes with IBBPBBPBBPBB at 30 fps.
    let table = [7138.2, 15231.4, 13526.4, 8356.5, 6124.2, 18406.0, 13497.9];
    let gop = parse_gop("IBBPBBPBBPBB").unwrap();
    for (i, &(a, b, c)) in MPEG2_TABLE_III.iter().enumerate() {
        let s = FrameSizer::Gop { sizes: [a, b, c], pattern: gop.clone(), pos: 0 };
        let kbps = s.mean() * 30.0;
        assert!((kbps - table[i]).abs() / table[i] < 0.02, "sequence {}: {kbps} vs {}", i + 1, table[i]);
    }
}

#[test]
fn frame_fragmentation_and_stream_load() {
    // 16,666 B = 133,328 bits = 4,166.5 -> 4,167 32-bit data flits; 19 per 20-flit message -> 220 messages.
    assert_eq!(frame_messages(133_328.0, 20, 32), 220);
    // Load: 4,166.5 data flits * 20/19 per 416,666.7 cycles (30 fps, 80 ns cycles) = 0.010526.
    let l = stream_load(133_328.0, 416_666.666, 20, 32);
    assert!((l - 0.010526).abs() < 1e-5, "{l}");
}

/// A stream from endpoint 0 to 1 of 20-flit messages at 32 bits, T = 1000 cycles.
fn stream(sizer: FrameSizer, regulator: Regulator) -> Flow {
    Flow {
        src: 0,
        dest: Some(1),
        class: 1,
        vtick: 0,
        kind: FlowKind::Stream { sizer, period: 1000.0, msg_flits: 20, flit_bits: 32, regulator, cur_msgs: 0, cur_idx: 0, cur_vtick: 1, frame_start: 0.0 },
        active: true,
        frame: 0,
    }
}

#[test]
fn regulator_spaces_a_frame_evenly() {
    let mut rng = SmallRng::seed_from_u64(1);
    // Constant 19 * 32 * 10 bits = exactly 10 messages of 20 flits per frame, period 1000.
    let mut f = stream(FrameSizer::Constant(19.0 * 32.0 * 10.0), Regulator::SlotStart);
    let mut t = 0.0;
    let mut times = Vec::new();
    for _ in 0..20 {
        let (m, next) = f.fire(t, 8, 65534, &mut rng);
        let m = m.unwrap();
        assert_eq!((m.frame_msgs, m.dest, m.flits), (10, 1, 20));
        // 100 cycles per message / 20 flits = Vtick 5.
        assert_eq!(m.vtick, 5);
        times.push((t, m.frame));
        t = next;
    }
    let expect: Vec<(f64, u32)> = (0..20).map(|i| (100.0 * i as f64, (i / 10) as u32)).collect();
    assert_eq!(times, expect);
}

#[test]
fn trace_errors_name_file_line_and_field() {
    let ok = parse_trace("# frames\nI 5000\n\nB 1200 # comment\n3000\n", "t.trace").unwrap();
    assert_eq!(ok, vec![40_000.0, 9_600.0, 24_000.0]);
    let e = parse_trace("I 5000\nX 100\n", "t.trace").unwrap_err();
    assert!(e.contains("t.trace:2") && e.contains("field 1"), "{e}");
    let e = parse_trace("I 5000\nP -3\n", "t.trace").unwrap_err();
    assert!(e.contains("t.trace:2") && e.contains("field 2") && e.contains("frame size"), "{e}");
    let e = parse_trace("I 5000 7\n", "t.trace").unwrap_err();
    assert!(e.contains("t.trace:1") && e.contains("3 fields"), "{e}");
    assert!(parse_trace("# nothing\n", "t.trace").unwrap_err().contains("no frames"));
}

/// A stream of frames of 4, 2, 2, 4, 2, 2, … messages (19 data flits of 32
/// bits each, so 4 x 608 and 2 x 608 bits) with frame time T = 1000 cycles,
/// fired from t = 0 until `count` messages left: (release time, frame).
fn releases(regulator: Regulator, count: usize) -> Vec<(f64, u32)> {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut f = stream(FrameSizer::Gop { sizes: [4.0 * 608.0, 2.0 * 608.0, 2.0 * 608.0], pattern: vec![0, 2, 2], pos: 0 }, regulator);
    let (mut t, mut out) = (0.0, Vec::new());
    while out.len() < count {
        let (m, next) = f.fire(t, 8, 65534, &mut rng);
        if let Some(m) = m {
            out.push((t, m.frame));
        }
        assert!(next > t || (regulator == Regulator::Off && next >= t), "time goes forward: {t} -> {next}");
        t = next;
    }
    out
}

#[test]
fn regulator_release_times_by_hand() {
    // 001_… §IV-B.1: a frame of n messages at intervals of T/n.
    // slot_start: message k at frame start + k·T/n. Frame 0 (n = 4) at 0,
    // 250, 500, 750; frames 1 and 2 (n = 2) at 1000, 1500 and 2000, 2500;
    // frame 3 (n = 4) at 3000, 3250, 3500, 3750. Last messages at 750,
    // 1500, 2500, 3750: (n−1)T/n after the start, 750 or 500.
    let start: Vec<(f64, u32)> = vec![
        (0.0, 0), (250.0, 0), (500.0, 0), (750.0, 0),
        (1000.0, 1), (1500.0, 1),
        (2000.0, 2), (2500.0, 2),
        (3000.0, 3), (3250.0, 3), (3500.0, 3), (3750.0, 3),
    ];
    assert_eq!(releases(Regulator::SlotStart, 12), start);
    // slot_end: message k at frame start + (k+1)·T/n, so every frame's
    // last message leaves at the end of its frame time (1000, 2000, ...).
    let end: Vec<(f64, u32)> = vec![
        (250.0, 0), (500.0, 0), (750.0, 0), (1000.0, 0),
        (1500.0, 1), (2000.0, 1),
        (2500.0, 2), (3000.0, 2),
        (3250.0, 3), (3500.0, 3), (3750.0, 3), (4000.0, 3),
    ];
    assert_eq!(releases(Regulator::SlotEnd, 12), end);
    // No regulator: a frame's messages all at its start.
    let off: Vec<(f64, u32)> = vec![(0.0, 0), (0.0, 0), (0.0, 0), (0.0, 0), (1000.0, 1), (1000.0, 1), (2000.0, 2), (2000.0, 2)];
    assert_eq!(releases(Regulator::Off, 8), off);
}

#[test]
fn regulator_values_and_errors() {
    #[derive(serde::Deserialize, Debug)]
    struct W {
        regulator: Regulator,
    }
    let parse = |v: &str| toml::from_str::<W>(&format!("regulator = {v}\n")).map(|w| w.regulator).map_err(|e| e.to_string());
    assert_eq!(parse("true"), Ok(Regulator::SlotStart));
    assert_eq!(parse("\"slot_start\""), Ok(Regulator::SlotStart));
    assert_eq!(parse("\"slot_end\""), Ok(Regulator::SlotEnd));
    assert_eq!(parse("false"), Ok(Regulator::Off));
    assert_eq!(parse("\"none\""), Ok(Regulator::Off));
    for bad in ["\"slot_middle\"", "1", "\"SLOT_END\"", "[true]"] {
        let e = parse(bad).unwrap_err();
        assert!(e.contains("field `workload.regulator`") && e.contains("allowed values") && e.contains("\"slot_end\""), "{bad}: {e}");
    }
    // What a results file records: the old booleans for the old behaviours.
    assert_eq!(toml::Value::try_from(Regulator::SlotStart).unwrap(), toml::Value::Boolean(true));
    assert_eq!(toml::Value::try_from(Regulator::Off).unwrap(), toml::Value::Boolean(false));
    assert_eq!(toml::Value::try_from(Regulator::SlotEnd).unwrap(), toml::Value::String("slot_end".into()));
}

/// Incoming streams per destination.
fn incoming(d: &[Vec<u32>], endpoints: usize) -> Vec<usize> {
    let mut n = vec![0; endpoints];
    for row in d {
        for &x in row {
            n[x as usize] += 1;
        }
    }
    n
}

#[test]
fn stream_cap_is_never_exceeded() {
    // 001_… §IV-B.3 bounds the streams "incoming" at each node. Over many
    // sizes and seeds: no destination above the cap, none a stream's own
    // source, every endpoint keeps its streams, and the cap also holds for
    // the first k streams of every endpoint (a phase's active set).
    for seed in 0..40u64 {
        for &(endpoints, streams, cap) in &[(2, 3, 3), (3, 5, 5), (4, 7, 7), (8, 20, 20), (8, 20, 21), (8, 60, 64), (5, 1, 1), (16, 9, 9)] {
            let mut rng = SmallRng::seed_from_u64(seed);
            let d = stream_destinations(endpoints, streams, Some(cap), &mut rng);
            assert_eq!(d.len(), endpoints);
            for (src, row) in d.iter().enumerate() {
                assert_eq!(row.len(), streams);
                assert!(row.iter().all(|&x| x as usize != src && (x as usize) < endpoints), "seed {seed}: {src} -> {row:?}");
            }
            for k in 1..=streams {
                let prefix: Vec<Vec<u32>> = d.iter().map(|r| r[..k].to_vec()).collect();
                let most = *incoming(&prefix, endpoints).iter().max().unwrap();
                assert!(most <= cap as usize, "seed {seed}, {endpoints} endpoints, {k} of {streams} streams: {most} > cap {cap}");
            }
            // With the cap at the streams per endpoint, every endpoint receives exactly that many.
            if cap as usize == streams {
                assert!(incoming(&d, endpoints).iter().all(|&n| n == streams), "seed {seed}: {:?}", incoming(&d, endpoints));
            }
        }
    }
}

#[test]
fn without_a_cap_destinations_are_independent_draws() {
    // The draws every run before the cap made: one uniform other endpoint
    // per stream, source by source. With 8 endpoints and 60 streams each the
    // busiest destination receives well above the mean 60 (the overload the
    // cap removes), and the rng sequence is the old one.
    let mut rng = SmallRng::seed_from_u64(7);
    let d = stream_destinations(8, 60, None, &mut rng);
    let mut again = SmallRng::seed_from_u64(7);
    for (src, row) in d.iter().enumerate() {
        for &x in row {
            let r: u32 = rand::Rng::gen_range(&mut again, 0..7);
            assert_eq!(x, if r >= src as u32 { r + 1 } else { r });
        }
    }
    assert!(*incoming(&d, 8).iter().max().unwrap() > 60);
}

/// An 8-port switch with CBR streams only (16,666-byte frames of 20-flit
/// messages at 32 bits and 400 Mbit/s: 0.010526 flits/cycle per stream, so
/// load 0.1 is 9.5 streams: whole streams while the sum stays within the
/// share + half a stream, 10), and `extra` workload lines.
fn cbr_experiment(extra: &str) -> Result<wormqos_netsim::Validated, String> {
    let text = format!(
        "name = \"cap\"\n[router]\nports = 8\nvcs = 4\nflit_width = 32\ninput_buffer_depth = 20\noutput_buffer_depth = 20\n\
         crossbar = \"full\"\nscheduler = \"virtualclock\"\n[topology]\nkind = \"single_switch\"\n[physical]\nlink_mbps = 400\n\
         [workload]\nload = 0.1\nmix = [100, 0]\nrealtime = \"cbr\"\nbest_effort = \"none\"\nmessage_flits = 20\n{extra}\n[run]\ncycles = 1000000\n"
    );
    wormqos_netsim::Experiment::from_str(&text, "cap.toml", ".".into()).map_err(|e| e.to_string())
}

#[test]
fn the_stream_cap_is_validated_against_the_workload() {
    // 10 streams per endpoint: a cap of 10 is met (every endpoint receives exactly 10), 9 is not.
    let v = cbr_experiment("max_streams_per_destination = 10").unwrap();
    assert_eq!(v.offered().unwrap().phases[0].streams, 10);
    for (cap, why) in [
        ("9", "cap.toml:20: workload.max_streams_per_destination = 9: workload.mix gives every endpoint 10 real-time streams"),
        ("0", "cap.toml:20: workload.max_streams_per_destination = 0: allowed range 1..=100000"),
        ("100001", "workload.max_streams_per_destination = 100001: allowed range 1..=100000"),
    ] {
        let e = cbr_experiment(&format!("max_streams_per_destination = {cap}")).unwrap_err();
        assert!(e.contains(why), "{cap}: {e}");
    }
    // The regulator's bad values name the field and the allowed values.
    let e = cbr_experiment("regulator = \"late\"").unwrap_err();
    assert!(e.contains("field `workload.regulator` = \"late\": allowed values"), "{e}");
}

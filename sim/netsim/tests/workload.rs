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

#[test]
fn regulator_spaces_a_frame_evenly() {
    let mut rng = SmallRng::seed_from_u64(1);
    // Constant 19 * 32 * 10 bits = exactly 10 messages of 20 flits per frame, period 1000.
    let mut f = Flow {
        src: 0,
        dest: Some(1),
        class: 1,
        vtick: 0,
        kind: FlowKind::Stream {
            sizer: FrameSizer::Constant(19.0 * 32.0 * 10.0),
            period: 1000.0,
            msg_flits: 20,
            flit_bits: 32,
            regulator: true,
            cur_msgs: 0,
            cur_idx: 0,
            cur_vtick: 1,
            frame_start: 0.0,
        },
        active: true,
        frame: 0,
    };
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

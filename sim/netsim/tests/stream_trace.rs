//! The trace of one stream on an idle switch: when the regulator releases a
//! frame's messages, when they arrive, and how 003_… §4.2's deadline rule
//! judges the frames (issue 23 item 1: why light load misses deadlines).
//!
//! Two endpoints on a 2-port switch, each sending one stream to the other,
//! nothing else: no message ever waits for another, so every message has
//! the same latency L and a frame's arrival is its last message's release
//! plus L. Frames repeat B, B, I of 2, 2 and 4 messages (39 data flits of
//! 128 bits = 624 bytes each), frame time T = 10,000 cycles (1,250 frames/s
//! at 80 ns cycles: 128-bit flits at 1.6 Gbit/s; 10,000.0 exactly in f64).

use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::Experiment;

const T: u64 = 10_000;

fn experiment(regulator: &str) -> wormqos_netsim::Validated {
    let dir = std::env::temp_dir().join(format!("wormqos_stream_trace_{regulator}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bbi.trace"), "B 1248\nB 1248\nI 2496\n").unwrap();
    let text = format!(
        "name = \"trace\"\n[router]\nports = 2\nvcs = 2\nflit_width = 128\ninput_buffer_depth = 40\n\
         output_buffer_depth = 40\ncrossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\n[topology]\nkind = \"single_switch\"\n\
         [physical]\nlink_mbps = 1600\n[workload]\nload = 0.0107\nmix = [100, 0]\nrealtime = \"trace\"\ntrace_file = \"bbi.trace\"\n\
         best_effort = \"none\"\nmessage_flits = 40\nframes_per_second = 1250\nregulator = {regulator}\n\
         [run]\ncycles = 100000\nwarmup_cycles = 0\ndrain_cycles = 20000\n"
    );
    Experiment::from_str(&text, "trace.toml", dir).unwrap()
}

/// Frames of the logged stream: (frame, messages, release times, arrival).
fn frames(log: &[MessageLog]) -> Vec<(u32, u32, Vec<u64>, u64)> {
    let mut out: Vec<(u32, u32, Vec<u64>, u64)> = Vec::new();
    for m in log {
        match out.last_mut() {
            Some(f) if f.0 == m.frame => {
                f.2.push(m.created);
                f.3 = f.3.max(m.delivered);
            }
            _ => out.push((m.frame, m.frame_msgs, vec![m.created], m.delivered)),
        }
    }
    // Only whole frames (the run ends inside the last one).
    out.retain(|f| f.2.len() == f.1 as usize);
    out
}

fn run(regulator: &str) -> (wormqos_netsim::Results, Vec<MessageLog>) {
    let v = experiment(regulator);
    assert_eq!(v.period_cycles(), T as f64);
    let (r, log) = Sim::new(&v).unwrap().run_logged(0).unwrap();
    assert_eq!(r.realtime_streams, 2, "one stream per endpoint");
    (r, log)
}

#[test]
fn slot_start_moves_the_frame_end_and_the_deadline_rule_counts_it() {
    let (r, log) = run("\"slot_start\"");
    let latency: Vec<u64> = log.iter().map(|m| m.delivered - m.created).collect();
    assert!(latency.iter().all(|&l| l == latency[0]), "an idle switch: one latency, {latency:?}");
    let l = latency[0];
    let f = frames(&log);
    assert!(f.len() >= 6, "{} whole frames", f.len());
    let c0 = f[0].2[0];
    for (i, (frame, n, rel, arrival)) in f.iter().enumerate() {
        assert_eq!(*frame as usize, i);
        // B, B, I: 2, 2, 4 messages at intervals T/n from the frame start.
        let want_n = if i % 3 == 2 { 4 } else { 2 };
        assert_eq!(*n, want_n, "frame {i}");
        let want: Vec<u64> = (0..want_n as u64).map(|k| c0 + i as u64 * T + k * T / want_n as u64).collect();
        assert_eq!(rel, &want, "frame {i} releases");
        // The frame is complete (n-1)T/n after its start: 5,000 (B) or 7,500 (I) cycles.
        assert_eq!(*arrival, c0 + i as u64 * T + (want_n as u64 - 1) * T / want_n as u64 + l, "frame {i} arrival");
    }
    // 003_… §4.2 by hand for either stream: frame 0 (B) sets the first
    // deadline a0 + T; frame 1 (B) arrives at a0 + T: on time (deadline
    // a0 + 2T next); frame 2 (I) arrives at a0 + 2T + 2,500: late by 2,500
    // cycles, so frame 3's deadline is a2 + T = a0 + 3T + 2,500, which
    // frames 3 (B, a0 + 3T) and 4 (B) meet and frame 5 (I, a0 + 5T + 2,500)
    // meets exactly (not later): one miss per stream, 2,500 cycles = 0.2 ms.
    let misses = (r.deadline_miss_probability * r.frames_judged as f64).round() as u64;
    assert_eq!(misses, 2, "{r:?}");
    assert!((r.deadline_missing_time_ms - 0.2).abs() < 1e-9, "{}", r.deadline_missing_time_ms);
    // Intervals T, T + 2,500, T − 2,500 (0.8, 1.0, 0.6 ms): σ_d > 0 on an idle switch.
    assert!(r.frame_interval_ms.sd > 0.1, "{:?}", r.frame_interval_ms);
}

#[test]
fn slot_end_completes_every_frame_at_its_slot_end() {
    let (r, log) = run("\"slot_end\"");
    let l = log[0].delivered - log[0].created;
    assert!(log.iter().all(|m| m.delivered - m.created == l));
    let f = frames(&log);
    assert!(f.len() >= 6, "{} whole frames", f.len());
    // The first frame starts a T/n_0 = T/2 before its first release.
    let start = f[0].2[0] - T / 2;
    for (i, (_, n, rel, arrival)) in f.iter().enumerate() {
        let want: Vec<u64> = (1..=*n as u64).map(|k| start + i as u64 * T + k * T / *n as u64).collect();
        assert_eq!(rel, &want, "frame {i} releases");
        assert_eq!(*arrival, start + (i as u64 + 1) * T + l, "frame {i} arrival");
    }
    // Every arrival exactly T after the one before: no miss, σ_d = 0.
    assert_eq!(r.deadline_miss_probability, 0.0, "{r:?}");
    assert!(r.frame_interval_ms.sd.abs() < 1e-12 && (r.frame_interval_ms.mean - 0.8).abs() < 1e-9, "{:?}", r.frame_interval_ms);
}

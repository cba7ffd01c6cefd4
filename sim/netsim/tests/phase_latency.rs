//! Per-phase class latencies (`PhaseStats::class_latency`, 003_… Fig. 5):
//! messages are attributed to the phase in which they were created, and the
//! per-phase figures partition the whole run's class figures.

use std::path::Path;
use wormqos_netsim::{run, Experiment};

/// `experiments/fig4_003.toml`'s router and workload, shortened to three
/// 20,000-cycle phases, the middle one without best effort.
fn results() -> wormqos_netsim::Results {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let text = std::fs::read_to_string(dir.join("fig4_003.toml")).unwrap();
    let text = text[..text.find("[sweep]").unwrap()]
        .replace("phases = [[20, 80], [30, 70], [50, 50], [70, 30], [80, 20]]", "phases = [[20, 80], [100, 0], [20, 80]]")
        .replace("phase_seconds = 0.07", "phase_seconds = 0.0016")
        .replace("seconds = 0.35\nwarmup_seconds = 0.035", "cycles = 60000\nwarmup_cycles = 2000");
    assert!(text.contains("[100, 0]") && text.contains("cycles = 60000"), "the edits did not apply");
    let v = Experiment::from_str(&text, "fig4_003 (shortened)", dir).unwrap();
    run(&v).unwrap()
}

#[test]
fn phase_latencies_partition_the_class_latencies() {
    let r = results();
    assert_eq!(r.phases.len(), 3);
    // Best effort is created in phases 0 and 2 only; real time in all three.
    let classes_in = |ph: usize| r.phases[ph].class_latency.iter().map(|c| c.class).collect::<Vec<_>>();
    assert!(classes_in(0).contains(&0) && classes_in(2).contains(&0), "{:?} {:?}", classes_in(0), classes_in(2));
    assert!(!classes_in(1).contains(&0), "best effort in the phase without it: {:?}", classes_in(1));
    assert!((0..3).all(|ph| classes_in(ph).contains(&1)));
    // Best effort comes back at its rate after the phase without it (a
    // Poisson source must not keep the draw it made at the idle rate):
    // phase 2 offers what phase 0 does, of which the warm-up measures
    // 18,000 of 20,000 cycles, so about 20/18 times phase 0's count.
    let be = |ph: usize| r.phases[ph].class_latency.iter().find(|c| c.class == 0).map_or(0, |c| c.messages) as f64;
    let ratio = be(2) / be(0);
    assert!(be(0) > 500.0 && (0.9..1.35).contains(&ratio), "best-effort messages: phase 0 {}, phase 2 {}", be(0), be(2));
    for c in &r.classes {
        let parts: Vec<_> = r.phases.iter().flat_map(|p| p.class_latency.iter().filter(|x| x.class == c.class)).collect();
        let n: u64 = parts.iter().map(|p| p.messages).sum();
        assert_eq!(n, c.messages, "class {}: messages over the phases", c.class);
        let mean = |f: fn(&&wormqos_netsim::PhaseClassLatency) -> f64| parts.iter().map(|p| p.messages as f64 * f(p)).sum::<f64>() / n as f64;
        for (what, whole, part) in [
            ("latency", c.latency, mean(|p| p.latency)),
            ("source", c.source_latency, mean(|p| p.source_latency)),
            ("network", c.network_latency, mean(|p| p.network_latency)),
        ] {
            assert!((whole - part).abs() <= 1e-9 * whole.max(1.0), "class {} {what}: {whole} vs {part}", c.class);
        }
        for p in &parts {
            let sum = p.source_latency + p.network_latency;
            assert!((p.latency - sum).abs() <= 1e-9 * p.latency, "class {}: {} != {sum}", c.class, p.latency);
            // A 40-flit message crosses one router in no fewer than 40 cycles.
            assert!(p.network_latency >= 40.0 || c.class == 2, "class {}: network {}", c.class, p.network_latency);
        }
    }
}

//! 000_… Fig. 6 at a real-time load of 0.384 (total 0.704): when and where
//! VirtualClock's real time collapses while FQ and WRR carry the load
//! (issue 23; docs/reproduction.md, 000_… Fig. 6).
//!
//! `write_the_collapse_trace` (ignored, under a minute) runs
//! `experiments/fig6_000.toml`'s last point with the router's VirtualClock
//! and with FGFQ, logs every delivered message, and writes per 10,000-cycle
//! window and class the flits delivered and the mean source wait and
//! network latency of the messages delivered in it, into
//! `experiments/results/fig6_000_collapse/windows.csv`.

use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

const OUT: &str = "experiments/results/fig6_000_collapse";
const WINDOW: u64 = 10_000;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn experiment_text(scheduler: &str) -> String {
    let base = std::fs::read_to_string(root().join("experiments/fig6_000.toml")).unwrap();
    let text = base.split("[sweep]").next().unwrap().replace("load = 0.48\nmix = [0.16, 0.32]", "load = 0.704\nmix = [0.384, 0.32]");
    assert!(text.contains("load = 0.704"), "fig6_000.toml changed");
    if scheduler == "router" {
        text
    } else if let Some(width) = scheduler.strip_prefix("router_c") {
        let t = text.replace("traffic_classes = 3", &format!("traffic_classes = 3\nclock_width = {width}"));
        assert!(t.contains("clock_width"), "fig6_000.toml changed");
        t
    } else {
        format!("{text}\n[model]\nscheduler = \"{scheduler}\"\n")
    }
}

#[test]
#[ignore]
fn write_the_collapse_trace() {
    let mut csv = String::from("scheduler,window_start,class,messages,flits,mean_source_wait,mean_network_latency\n");
    for scheduler in ["router", "router_c32", "fgfq"] {
        let v = Experiment::from_str(&experiment_text(scheduler), "collapse.toml", root().join("experiments")).unwrap();
        let (_, log) = Sim::new(&v).unwrap().run_logged_all().unwrap();
        let end = log.iter().map(|m| m.delivered).max().unwrap_or(0);
        for w in 0..=end / WINDOW {
            for class in 0..3u8 {
                let ms: Vec<_> = log.iter().filter(|m| m.class == class && m.delivered / WINDOW == w).collect();
                let n = ms.len().max(1) as f64;
                let src = ms.iter().map(|m| (m.injected - m.created) as f64).sum::<f64>() / n;
                let net = ms.iter().map(|m| (m.delivered - m.injected) as f64).sum::<f64>() / n;
                let flits = ms.len() * 32;
                csv += &format!("{scheduler},{},{class},{},{flits},{src:.1},{net:.1}\n", w * WINDOW, ms.len());
            }
        }
    }
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    std::fs::write(root().join(OUT).join("windows.csv"), csv).unwrap();
}

/// What docs/reproduction.md (000_… Fig. 6) says of the committed windows.
#[test]
fn the_collapse_is_the_routers_throughput() {
    let text = std::fs::read_to_string(root().join(OUT).join("windows.csv")).unwrap();
    let rows: Vec<Vec<String>> = text.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect();
    // Per scheduler and window: flits per cycle per port (16 ports), and
    // real time's (classes 1, 2) worst mean network latency and least mean
    // source wait.
    let window = |s: &str, w: u64| {
        let r: Vec<_> = rows.iter().filter(|r| r[0] == s && r[1] == w.to_string()).collect();
        assert_eq!(r.len(), 3, "{s} {w}");
        let thr = r.iter().map(|r| r[4].parse::<f64>().unwrap()).sum::<f64>() / WINDOW as f64 / 16.0;
        let rt: Vec<_> = r.iter().filter(|r| r[2] != "0").collect();
        let net = rt.iter().map(|r| r[6].parse::<f64>().unwrap()).fold(0.0, f64::max);
        let src = rt.iter().map(|r| r[5].parse::<f64>().unwrap()).fold(f64::INFINITY, f64::min);
        (thr, net, src)
    };
    // The offered total is 0.704 flits/cycle/port. VirtualClock carries
    // about 0.58 for the first 10,000 cycles, then at most 0.36 in every
    // window from cycle 20,000 to 190,000; FGFQ carries at least 0.57 in
    // every window.
    assert!(window("router", 0).0 > 0.55);
    for w in (20_000..200_000).step_by(WINDOW as usize) {
        let (thr, net, src) = window("router", w);
        assert!(thr < 0.36, "VirtualClock at {w}: {thr}");
        // Real time is not slow in the router: its messages cross it in
        // under 600 cycles, while from cycle 50,000 on they wait more than
        // 10,000 cycles at the source.
        assert!(net < 600.0, "VirtualClock at {w}: network {net}");
        if w >= 50_000 {
            assert!(src > 10_000.0, "VirtualClock at {w}: source {src}");
        }
        assert!(window("fgfq", w).0 > 0.57, "FGFQ at {w}");
        // A 32-bit virtual clock changes nothing: no value saturates
        // (docs/microarchitecture.md §8.5), so the collapse is not the
        // 16-bit counters'.
        assert_eq!(window("router_c32", w), (thr, net, src), "32-bit clock at {w}");
    }
}

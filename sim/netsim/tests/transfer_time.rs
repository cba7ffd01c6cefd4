//! `ClassStats::transfer_time`, the no-contention network latency the
//! engine records per class (000_… §3.2.1's T, for Figs 5 and 8's split of
//! the latency into queueing, transfer and blocking/sharing), on cases
//! checked by hand: messages that cross an otherwise idle network.

use std::path::PathBuf;
use wormqos_netsim::network::{MessageLog, Sim};
use wormqos_netsim::{Experiment, Results};

/// 000_… Table 1's routers (7 ports in the 6-cube, one VC per class,
/// M = b_s = 32, full crossbar, VirtualClock: `experiments/fig7_000_cube6.toml`)
/// at `load` flits/cycle/node split `mix`, on `topology`.
fn table1(topology: &str, ports: u32, load: f64, mix: &str, cycles: u64) -> String {
    format!(
        r#"
name = "idle"
[router]
ports = {ports}
vcs = 3
flit_width = 32
input_buffer_depth = 32
output_buffer_depth = 32
crossbar = "full"
scheduler = "virtualclock"
traffic_classes = 3
mode = "non_preemptive"
vc_classes = [2, 1, 0]
[topology]
{topology}
[workload]
load = {load}
mix = {mix}
realtime = "poisson"
best_effort = "poisson"
message_flits = 32
[run]
cycles = {cycles}
warmup_cycles = 1000
seed = 5
"#
    )
}

fn run_logged(text: &str) -> (Results, Vec<MessageLog>) {
    let v = Experiment::from_str(text, "idle.toml", PathBuf::new()).unwrap();
    Sim::new(&v).unwrap().run_logged_all().unwrap()
}

/// The messages measured (created after the warm-up), each alone in the
/// network from its creation to its delivery: no other message's
/// [created, delivered] overlaps its own. The test's premise; it fails
/// loudly if a seed or load change breaks it.
fn measured_alone(log: &[MessageLog], warmup: u64) -> Vec<&MessageLog> {
    let alone = |m: &MessageLog| log.iter().filter(|o| !std::ptr::eq(*o, m)).all(|o| o.delivered < m.created || o.created > m.delivered);
    let measured: Vec<&MessageLog> = log.iter().filter(|m| m.created >= warmup).collect();
    assert!(measured.iter().all(|m| alone(m)), "a measured message met another: lower the load");
    measured
}

/// A 6-cube at a load so low that every message crosses it alone: source
/// queueing 0, T = 4 + 5 h + 32 with h = popcount(src xor dest) (e-cube
/// routing crosses each differing dimension once), network latency = T,
/// so blocking and sharing (network latency − T) is 0 in every class.
#[test]
fn messages_alone_in_a_six_cube_take_the_papers_transfer_time() {
    let text = table1("kind = \"hypercube\"\nn = 6", 7, 0.0006, "[0.0004, 0.0002]", 30_000);
    let (r, log) = run_logged(&text);
    let measured = measured_alone(&log, r.warmup_cycles);
    for class in 0..3u8 {
        let msgs: Vec<_> = measured.iter().filter(|m| m.class == class).collect();
        let stats = r.classes.iter().find(|c| c.class == class).expect("every class delivered");
        assert!(msgs.len() >= 3 && msgs.len() as u64 == stats.messages, "class {class}: {} logged, {} measured", msgs.len(), stats.messages);
        // By hand, per message.
        let hand: Vec<u64> = msgs.iter().map(|m| 4 + 5 * (m.src ^ m.dest).count_ones() as u64 + 32).collect();
        for (m, t) in msgs.iter().zip(&hand) {
            assert_eq!(m.delivered - m.injected, *t, "class {class}: {} -> {}", m.src, m.dest);
            assert_eq!(m.injected, m.created, "class {class}: an idle source queues 0 cycles");
        }
        let mean_t = hand.iter().sum::<u64>() as f64 / hand.len() as f64;
        let t = stats.transfer_time.expect("transfer time recorded in a 6-cube");
        assert!((t - mean_t).abs() < 1e-9, "class {class}: transfer {t} vs by hand {mean_t}");
        assert!((stats.network_latency - t).abs() < 1e-9, "class {class}: blocking/sharing {} ≠ 0", stats.network_latency - t);
        assert_eq!(stats.source_latency, 0.0, "class {class}: queueing");
    }
}

/// One router (000_… Fig. 5's case): T = P − 1 + M = 36 for every message.
#[test]
fn messages_alone_in_one_router_take_p_minus_1_plus_m() {
    let text = table1("kind = \"single_switch\"", 16, 0.0006, "[0.0004, 0.0002]", 60_000);
    let (r, log) = run_logged(&text);
    let measured = measured_alone(&log, r.warmup_cycles);
    assert!(measured.len() >= 5, "{} messages", measured.len());
    for m in &measured {
        assert_eq!(m.delivered - m.injected, 36, "{} -> {}", m.src, m.dest);
    }
    for c in &r.classes {
        assert_eq!(c.transfer_time, Some(36.0), "class {}", c.class);
        assert_eq!(c.network_latency, 36.0, "class {}", c.class);
    }
}

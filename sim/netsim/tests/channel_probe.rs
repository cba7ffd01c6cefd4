//! The channel probe's measurements against laws that hold for any
//! network: Little's law on each channel's VCs, and the zero-load wait.

use std::path::PathBuf;
use wormqos_netsim::channel_probe::ChannelProbe;
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

fn torus(load: f64, cycles: u64) -> wormqos_netsim::Validated {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/torus_002_atomic.toml")).unwrap();
    let text = text.split("[sweep]").next().unwrap().replace("load = 0.02", &format!("load = {load}")).replace("cycles = 100000", &format!("cycles = {cycles}"));
    Experiment::from_str(&text, "torus_002_atomic.toml", PathBuf::new()).unwrap()
}

fn probe(v: &wormqos_netsim::Validated) -> Vec<wormqos_netsim::channel_probe::DimensionStats> {
    // Output ports 1 and 2 are dimensions 0 and 1; port 0 the endpoint.
    let mut p = ChannelProbe::new(&v.net, 3, vec![None, Some(0), Some(1)], v.run_cycles().1).with_stall_chains(&v.net);
    let mut observe = |c: u64, r: &[wormqos_sim::Router]| p.observe(c, r);
    Sim::new(v).unwrap().run_probed(&mut observe).unwrap();
    p.stats()
}

/// Little's law: the mean number of allocated VCs of a channel,
/// Σ j P_j, is the allocation rate times the mean holding time. Over
/// 30 k cycles the holds cut by the window's ends (about 50 cycles each at
/// either end, of 20 k) move it by well under 0.5 %.
#[test]
fn busy_vcs_obey_littles_law() {
    for (i, d) in probe(&torus(0.06, 30_000)).iter().enumerate() {
        assert!((d.busy.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mean: f64 = d.busy.iter().enumerate().map(|(j, p)| j as f64 * p).sum();
        let little = d.arrival_rate * d.mean_hold;
        assert!(((mean - little) / little).abs() < 0.005, "dimension {i}: Σ j P_j = {mean}, λ_c · hold = {little}");
        assert!(d.headers > 1000);
    }
}

/// At a load of one message per node per 32 k cycles two headers almost
/// never meet: none waits beyond the fewest cycles, one (the VC
/// allocation stage), and channels have at most one VC busy.
#[test]
fn light_load_has_no_waits() {
    for d in probe(&torus(0.001, 20_000)) {
        assert_eq!(d.min_wait, 1);
        assert!(d.blocked < 0.01 && d.mean_wait < 0.05, "{d:?}");
        assert!(d.busy[2] + d.busy[3] < 0.001, "{:?}", d.busy);
    }
}

/// docs/reproduction.md, "Why 002_…'s model saturates early at L = 3": at
/// 0.07 flits/node/cycle on the 8 × 8 torus the paper's VC chain, given
/// the measured λ_c × holding time a, puts all three VCs busy (P_L = a³)
/// over 4 times as often as measured; L VCs held in parallel (M/M/3)
/// within a factor of 2 of it.
#[test]
fn all_vcs_busy_is_rarer_than_the_papers_chain_says() {
    use wormqos_netsim::analytic::torus002::{occupancy, parallel_occupancy};
    for (i, d) in probe(&torus(0.07, 30_000)).iter().enumerate() {
        let a = d.arrival_rate * d.mean_hold;
        let measured = d.busy[3];
        let (chain, parallel) = (occupancy(a, 3)[3], parallel_occupancy(a, 3)[3]);
        assert!(chain > 4.0 * measured, "dimension {i}: a = {a}, chain {chain}, measured {measured}");
        assert!(parallel < 2.0 * measured && parallel > 0.5 * measured, "dimension {i}: a = {a}, M/M/3 {parallel}, measured {measured}");
    }
}

/// The hold's parts (`HoldPart`): every held cycle is in exactly one, so
/// they add up to the mean hold; each hold carries one 32-flit message
/// whose flits cross the channel once each, so `Crossing` is 32 cycles a
/// hold exactly; at a load where two messages almost never meet no VC
/// finds the link carrying another VC's flit (`Shared`).
#[test]
fn hold_parts_add_up_and_crossing_is_the_message() {
    use wormqos_netsim::channel_probe::HoldPart;
    for (load, cycles) in [(0.001, 20_000), (0.08, 20_000)] {
        for (i, d) in probe(&torus(load, cycles)).iter().enumerate() {
            let total: f64 = d.hold_parts.iter().sum();
            assert!((total - d.mean_hold).abs() < 1e-9, "load {load} dimension {i}: parts {:?} add to {total}, hold {}", d.hold_parts, d.mean_hold);
            assert!((d.hold_parts[HoldPart::Crossing as usize] - 32.0).abs() < 1e-9, "load {load} dimension {i}: {:?}", d.hold_parts);
            if load < 0.01 {
                assert!(d.hold_parts[HoldPart::Shared as usize] < 0.05, "{:?}", d.hold_parts);
            }
        }
    }
}

/// The stall chains (`stall_end`): every no-credit and draining cycle is
/// followed to one end, so the ends add up to those two parts; where two
/// messages almost never meet no header waits for a VC further on; under
/// load a message is held up beyond the next router too (the chain is
/// followed), and a header held up k routers on can hold the VC only
/// while its 32 flits do not fit past the next router's input buffer,
/// (k − 1) × (4 + 4) < 32, so k ≤ 4 (docs/reproduction.md, "The blocking a
/// hold can see"): under 1 % of the VC-wait stall cycles lie beyond.
#[test]
fn stall_chains_add_up_and_stay_within_the_messages_flits() {
    use wormqos_netsim::channel_probe::{HoldPart, StallEnd};
    let vc_wait = StallEnd::VcWait as usize;
    for (load, cycles) in [(0.001, 20_000), (0.1, 20_000)] {
        for (i, d) in probe(&torus(load, cycles)).iter().enumerate() {
            let chained: f64 = d.stall_at.iter().flatten().sum();
            let parts = d.hold_parts[HoldPart::NoCredit as usize] + d.hold_parts[HoldPart::Draining as usize];
            assert!((chained - parts).abs() < 1e-9, "load {load} dimension {i}: chains {chained}, no credit + draining {parts}");
            let at = |k: usize| d.stall_at.get(k - 1).map_or(0.0, |e| e[vc_wait]);
            let all: f64 = (1..=d.stall_at.len()).map(at).sum();
            if load < 0.01 {
                assert!(all < 0.01, "load {load} dimension {i}: {:?}", d.stall_at);
            } else {
                assert!(at(2) > 0.1 && all > 1.0, "load {load} dimension {i}: {:?}", d.stall_at);
                let beyond: f64 = (5..=d.stall_at.len()).map(at).sum();
                assert!(beyond < 0.01 * all, "load {load} dimension {i}: {beyond} of {all} beyond 4 routers: {:?}", d.stall_at);
            }
        }
    }
}

fn probe_with_channels(v: &wormqos_netsim::Validated) -> (Vec<wormqos_netsim::channel_probe::DimensionStats>, Vec<wormqos_netsim::channel_probe::ChannelStats>) {
    let mut p = ChannelProbe::new(&v.net, 3, vec![None, Some(0), Some(1)], v.run_cycles().1);
    let mut observe = |c: u64, r: &[wormqos_sim::Router]| p.observe(c, r);
    Sim::new(v).unwrap().run_probed(&mut observe).unwrap();
    (p.stats(), p.channel_stats())
}

/// What an arriving header finds (docs/reproduction.md, "The wait for a
/// VC, term by term"): a header that finds every VC it may take held
/// cannot be granted in its first VA, so the blocked headers are exactly
/// those plus the ones that found a VC free and lost it, and none waits
/// less than its residual; the allowed sets are 002_…'s escape pairs by
/// the channel's position (router r's digit c in the dimension): at c = 0
/// the wrap link is ahead of no message (v1 = VCs {0, 2} only), at c = 7
/// of every one (v2 = {1, 2} only); each channel's busy sets average to
/// its dimension's Σ j P_j.
#[test]
fn arriving_headers_split_the_blocked_ones_by_what_they_found() {
    let (dims, channels) = probe_with_channels(&torus(0.1, 20_000));
    for (i, d) in dims.iter().enumerate() {
        assert!(d.found_held > 0.05 && d.found_free_blocked < d.found_held, "dimension {i}: {d:?}");
        assert!((d.blocked - d.found_held - d.found_free_blocked).abs() < 1e-12, "dimension {i}: blocked {} = found held {} + found free {}", d.blocked, d.found_held, d.found_free_blocked);
        assert!(d.found_held_first_free >= 1.0 && d.found_held_wait >= d.found_held_first_free, "dimension {i}: {d:?}");
        assert!(d.found_held_ahead > 0.0, "dimension {i}: {d:?}");
        let stride = [1, 8][i];
        let mut busy = 0.0;
        for ch in channels.iter().filter(|c| c.dim == i) {
            let sets: Vec<u32> = ch.arrivals.iter().map(|a| a.0).collect();
            match (ch.router / stride) % 8 {
                0 => assert_eq!(sets, vec![0b101], "dimension {i}, router {}", ch.router),
                7 => assert_eq!(sets, vec![0b110], "dimension {i}, router {}", ch.router),
                _ => assert!(sets.len() == 2 && sets.contains(&0b101) && sets.contains(&0b110), "dimension {i}, router {}: {sets:?}", ch.router),
            }
            busy += ch.masks.iter().enumerate().map(|(b, p)| b.count_ones() as f64 * p).sum::<f64>();
        }
        let want: f64 = d.busy.iter().enumerate().map(|(j, p)| j as f64 * p).sum();
        assert!((busy / 64.0 - want).abs() < 1e-9, "dimension {i}: {} vs {want}", busy / 64.0);
    }
    // Where two messages almost never meet, none finds its VCs held.
    for d in probe_with_channels(&torus(0.001, 20_000)).0 {
        assert!(d.found_held == 0.0 && d.found_held_ahead == 0.0, "{d:?}");
    }
}

/// The line behind a found-held header (`LineCounts`, docs/reproduction.md
/// "Who joins the line behind a blocked header") against what holds in any
/// run: its window is its wait less the VA cycle, so the windows add up to
/// the found-held headers' waits beyond the least (one cycle here); every
/// join is a found-held arrival that finds the joined header, found held
/// too, waiting ahead of it for a VC it may also take, so the joins
/// counted at the joined header equal the found-held headers ahead
/// counted at the joiner (`waiting_ahead`, another path), but for the
/// pairs the run's end cuts (one of the two not granted yet: a handful);
/// a found-held header cannot be granted in its first VA and its grant
/// needs a VC seen free the cycle before, so every one has a free cycle
/// in its window; and the
/// continuing share by hand: a message crosses a dimension's channels 1
/// to 7 times with equal chance where it crosses any (uniform
/// destinations on 8 × 8), 4 on average, and enters it once, so 3 of 4
/// headers at a channel come in along its dimension.
#[test]
fn the_line_behind_a_found_held_header_adds_up() {
    let dims = probe(&torus(0.1, 20_000));
    for (i, d) in dims.iter().enumerate() {
        let line = &d.found_held_line;
        let held = d.found_held_headers;
        assert!(held > 500, "dimension {i}: {held} found-held headers");
        assert_eq!(d.min_wait, 1);
        let waits = (d.found_held_wait * held as f64).round() as u64;
        assert_eq!(line.window, waits, "dimension {i}: windows {} against the waits beyond the VA cycle {waits}", line.window);
        let ahead_held = (d.found_held_ahead_held * held as f64).round() as u64;
        assert!(line.joins > 0 && line.joins.abs_diff(ahead_held) <= 5, "dimension {i}: joins {} against found-held headers ahead {ahead_held}", line.joins);
        assert!(d.found_held_ahead_held <= d.found_held_ahead, "{d:?}");
        assert!(line.joins_same_set <= line.joins && line.joins <= line.arrivals, "{line:?}");
        assert!(line.joins_same_set <= line.arrivals_same_set && line.arrivals_same_set <= line.arrivals && line.arrivals_continuing <= line.arrivals, "{line:?}");
        assert_eq!(line.waits_with_free, held, "dimension {i}: {line:?}");
        assert!(line.free_cycles >= held && line.free_cycles <= line.window, "dimension {i}: {} free cycles, {held} headers, window {}", line.free_cycles, line.window);
        assert!(line.left_after + line.left_before > 0, "{line:?}");
        assert!((d.continuing - 0.75).abs() < 0.02, "dimension {i}: continuing share {}", d.continuing);
    }
    // Where two messages almost never meet, no line forms.
    for d in probe(&torus(0.001, 20_000)) {
        assert_eq!(d.found_held_line, Default::default(), "{d:?}");
    }
}

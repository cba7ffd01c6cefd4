//! Why P (sources preempting their own best effort) sets fewer latency
//! records than NP in the 80:20 phase of 003_… Fig. 4 at load 0.9 with
//! staggered GOPs (issue 23; docs/reproduction.md, "Records with staggered
//! GOPs: why P misses less").
//!
//! Under §4.2's deadline rule a stream misses exactly its strict records of
//! the last-message latency L (`common/record_split.rs`), so a router's
//! missing probability is its rate of records. Whether a frame can be a
//! record depends on the running maximum the stream carries into the phase
//! (M0: the highest L of its frames before its first 80:20 frame), and
//! which of the phase's frames are records on their order. This file
//! splits the two: `exchangeable` is the number of records the stream's
//! own 80:20 latencies would give in a random order after the same M0
//! (exact, ties included: a frame of latency v > M0 is a record iff it
//! comes first of the frames with L ≥ v, probability 1 / their count), so
//! records above it mean the order makes records (latency drifting up in
//! the phase), below it the order saves them.
//!
//! `summarize_the_stag_records` (ignored, seconds) reads the frames files
//! that `rt_8020_003.rs`'s `write_the_80_20_frames_np_stag` and
//! `…_p_selfpre_stag` (and `_seed2`) write into the target directory and
//! writes `experiments/results/fig4_003_stag_records/stag_records.csv`
//! (run, stat, key, value), which `the_committed_stag_records_add_up`
//! checks and `tests/reproduction_numbers/stag_records.rs` quotes.

#[path = "common/record_split.rs"]
mod record_split;

use record_split::{judge, read_frames_csv, Kind, StreamFrame};
use std::collections::BTreeMap;
use std::path::PathBuf;
use wormqos_netsim::Experiment;

const OUT: &str = "experiments/results/fig4_003_stag_records";
const HEADER: &str = "run,stat,key,value";
/// Five 0.15 s phases of 80 ns cycles; the 80:20 phase is the fifth.
const PHASE: u64 = 1_875_000;
const FROM: u64 = 4 * PHASE;
/// The MPEG-2 GOP `IBBPBBPBBPBB`: position 0 is the I frame, 3, 6 and 9 the P frames.
const GOP: u64 = 12;

/// The runs (`rt_8020_003.rs`'s names) and their experiment files.
const RUNS: [(&str, &str); 4] = [
    ("np_stag", "fig4_003_np_09_stream_staggered.toml"),
    ("p_selfpre_stag", "fig4_003_p_09_stream_selfpre_staggered.toml"),
    ("np_stag_seed2", "fig4_003_np_09_stream_staggered.toml"),
    ("p_selfpre_stag_seed2", "fig4_003_p_09_stream_selfpre_staggered.toml"),
];

fn root() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where `rt_8020_003.rs` (`frames_path`) writes run `run`'s frames.
fn frames_path(run: &str) -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| root().join("target"));
    target.join(format!("rt_8020_003_{run}.frames.csv"))
}

/// The phase the library puts a judged frame in: its first message's release.
fn phase_of(first_created: u64) -> u64 {
    (first_created / PHASE).min(4)
}

/// One judged 80:20 frame.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PhaseFrame {
    latency: u64,
    kind: Kind,
    lateness: f64,
    /// L − the running maximum before it (cycles; negative when below).
    increment: i64,
    /// The tenth of the phase its first message was released in.
    tenth: u64,
    /// Its GOP position.
    gop: u64,
    /// Its share of the stream's exchangeable records (see the file's doc).
    exchangeable: f64,
    /// Its place in its stream's judged sequence (1..): an i.i.d. record with
    /// probability 1 / (index + 1).
    index: usize,
}

/// One stream's 80:20 frames with what it carries into the phase.
#[derive(Clone, Debug, PartialEq)]
struct PhaseStream {
    /// M0: the highest L of the stream's frames before its first judged
    /// 80:20 frame (its unjudged reference frame included).
    carried: u64,
    /// The phase of the first frame that set M0.
    carried_phase: u64,
    /// (phase, L) of its judged frames before 80:20.
    history: Vec<(u64, u64)>,
    frames: Vec<PhaseFrame>,
}

/// Σ over the frames above `carried` of 1 / (frames with L ≥ theirs):
/// each frame's expected record count in a uniformly random order of
/// `latencies` after a running maximum `carried`.
fn exchangeable_shares(latencies: &[u64], carried: u64) -> Vec<f64> {
    latencies.iter().map(|&v| if v > carried { 1.0 / latencies.iter().filter(|&&w| w >= v).count() as f64 } else { 0.0 }).collect()
}

/// A stream's 80:20 frames (None if it judges none there). `first_position`
/// is its GOP position at frame number 0.
fn phase_stream(s: &[StreamFrame], period: f64, first_position: u64) -> Option<PhaseStream> {
    let times: Vec<_> = s.iter().map(|f| f.times).collect();
    let (judged, earlier): (Vec<_>, Vec<_>) = judge(&times, period).into_iter().partition(|j| phase_of(s[j.index].first_created) == 4);
    let history = earlier.iter().map(|j| (phase_of(s[j.index].first_created), j.latency)).collect();
    let first = judged.first()?.index;
    let latency = |f: &StreamFrame| f.times.2 - f.times.1;
    let carried = s[..first].iter().map(latency).max().unwrap();
    let carried_phase = phase_of(s[..first].iter().find(|f| latency(f) == carried).unwrap().first_created);
    let latencies: Vec<u64> = judged.iter().map(|j| j.latency).collect();
    let shares = exchangeable_shares(&latencies, carried);
    let mut max = carried;
    let mut frames = Vec::with_capacity(judged.len());
    for (j, share) in judged.iter().zip(shares) {
        let f = s[j.index];
        frames.push(PhaseFrame {
            latency: j.latency,
            kind: j.kind,
            lateness: j.lateness,
            increment: j.latency as i64 - max as i64,
            tenth: ((f.first_created - FROM) * 10 / PHASE).min(9),
            gop: (first_position + f.times.0 as u64) % GOP,
            exchangeable: share,
            index: j.index,
        });
        max = max.max(j.latency);
    }
    Some(PhaseStream { carried, carried_phase, history, frames })
}

/// Nearest-rank quantile q of sorted `xs`.
fn quantile(xs: &[u64], q: f64) -> f64 {
    xs[((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1] as f64
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (n, s) = xs.fold((0.0, 0.0), |(n, s), x| (n + 1.0, s + x));
    s / n
}

/// The (stat, key, value) rows of a run's 80:20 streams.
fn stats(streams: &[PhaseStream]) -> Vec<(String, u64, f64)> {
    let mut out: Vec<(String, u64, f64)> = Vec::new();
    let mut put = |stat: &str, key: u64, value: f64| out.push((stat.to_string(), key, value));
    let frames: Vec<&PhaseFrame> = streams.iter().flat_map(|s| &s.frames).collect();
    let is_miss = |f: &PhaseFrame| f.kind != Kind::OnTime;
    let count = |p: &dyn Fn(&PhaseFrame) -> bool| frames.iter().filter(|f| p(f)).count() as f64;
    put("streams", 0, streams.len() as f64);
    put("judged", 0, frames.len() as f64);
    put("misses", 0, count(&is_miss));
    put("records", 0, count(&|f| f.kind == Kind::Record));
    put("ties", 0, count(&|f| f.kind == Kind::Tie));
    put("other", 0, count(&|f| f.kind == Kind::Other));
    put("lateness_mean", 0, mean(frames.iter().filter(|f| is_miss(f)).map(|f| f.lateness)));
    put("predicted_iid", 0, frames.iter().map(|f| 1.0 / (f.index + 1) as f64).sum());
    put("exchangeable", 0, frames.iter().map(|f| f.exchangeable).sum());
    // The frames that can be records at all: above the stream's M0.
    let above: Vec<usize> = streams.iter().map(|s| s.frames.iter().filter(|f| f.latency > s.carried).count()).collect();
    put("above_carried", 0, above.iter().sum::<usize>() as f64);
    put("streams_above_carried", 0, above.iter().filter(|&&a| a > 0).count() as f64);
    put("carried_mean", 0, mean(streams.iter().map(|s| s.carried as f64)));
    for phase in 0..5 {
        put("carried_set_in_phase", phase, streams.iter().filter(|s| s.carried_phase == phase).count() as f64);
    }
    // The level of the earlier phases M0 comes from (these streams' judged frames).
    for phase in 0..4 {
        let l: Vec<f64> = streams.iter().flat_map(|s| &s.history).filter(|h| h.0 == phase).map(|h| h.1 as f64).collect();
        put("history_judged", phase, l.len() as f64);
        put("history_latency_mean", phase, if l.is_empty() { 0.0 } else { mean(l.into_iter()) });
    }
    let mut sorted: Vec<u64> = frames.iter().map(|f| f.latency).collect();
    sorted.sort_unstable();
    put("latency_mean", 0, mean(sorted.iter().map(|&x| x as f64)));
    for (key, q) in [(50, 0.5), (90, 0.9), (99, 0.99), (100, 1.0)] {
        put("latency_quantile", key, quantile(&sorted, q));
    }
    // Each stream's own spread: its median and its maximum in the phase.
    let own = |q: f64| {
        mean(streams.iter().map(|s| {
            let mut l: Vec<u64> = s.frames.iter().map(|f| f.latency).collect();
            l.sort_unstable();
            quantile(&l, q)
        }))
    };
    put("stream_median_mean", 0, own(0.5));
    put("stream_max_mean", 0, own(1.0));
    for n in 0..5 {
        let with = |s: &&PhaseStream| (s.frames.iter().filter(|f| f.kind != Kind::OnTime).count() as u64).min(4) == n;
        put("streams_with_misses", n, streams.iter().filter(with).count() as f64);
    }
    let firsts: Vec<&PhaseFrame> = streams.iter().filter_map(|s| s.frames.iter().find(|f| f.kind != Kind::OnTime)).collect();
    for tenth in 0..10 {
        put("first_miss_tenth", tenth, firsts.iter().filter(|f| f.tenth == tenth).count() as f64);
    }
    put("first_miss_increment_mean", 0, mean(firsts.iter().map(|f| f.increment as f64)));
    put("miss_increment_mean", 0, mean(frames.iter().filter(|f| is_miss(f)).map(|f| f.increment as f64)));
    for (group, key_of) in [("tenth", (|f: &PhaseFrame| f.tenth) as fn(&PhaseFrame) -> u64), ("gop", |f: &PhaseFrame| f.gop)] {
        let mut by: BTreeMap<u64, Vec<&PhaseFrame>> = BTreeMap::new();
        for f in &frames {
            by.entry(key_of(f)).or_default().push(f);
        }
        for (key, fs) in by {
            put(&format!("{group}_judged"), key, fs.len() as f64);
            put(&format!("{group}_misses"), key, fs.iter().filter(|f| f.kind != Kind::OnTime).count() as f64);
            put(&format!("{group}_latency_mean"), key, mean(fs.iter().map(|f| f.latency as f64)));
        }
    }
    out
}

/// Run `run`'s experiment (`_seed<k>`: with seed k).
fn experiment(run: &str, file: &str) -> wormqos_netsim::Validated {
    let text = std::fs::read_to_string(root().join("experiments").join(file)).unwrap();
    let mut text = text.split("[sweep]").next().unwrap().to_string();
    assert!(text.contains("gop_phase = \"staggered\"\n") && text.contains("seed = 1\n"), "{file} changed");
    if let Some((_, seed)) = run.split_once("_seed") {
        text = text.replace("seed = 1\n", &format!("seed = {seed}\n"));
    }
    Experiment::from_str(&text, file, root().join("experiments")).unwrap()
}

/// Every 80:20 stream of run `run` read from its frames file. Each source
/// has its streams 0..max_streams, a best-effort flow and a control flow,
/// numbered in that order (`network.rs`, the flows' set-up), so flow f is
/// stream f mod (max_streams + 2) of its source, and staggered GOPs start
/// stream s at position s mod 12 (`workload::GopPhase::Staggered`), frame
/// number k at position (s + k) mod 12 (one sizer draw per frame number).
fn run_streams(run: &str, file: &str) -> Vec<PhaseStream> {
    let v = experiment(run, file);
    let max_streams = v.offered().unwrap().phases.iter().map(|p| p.streams).max().unwrap() as u32;
    let per_source = max_streams + 2;
    let frames = read_frames_csv(&frames_path(run), &format!("rt_8020_003.rs's write_the_80_20_frames_{run}"));
    frames
        .iter()
        .filter_map(|(&flow, s)| {
            assert!(flow % per_source < max_streams, "{run}: flow {flow} is no stream of {max_streams} per source");
            phase_stream(s, v.period_cycles(), (flow % per_source) as u64 % GOP)
        })
        .collect()
}

#[test]
#[ignore]
fn summarize_the_stag_records() {
    let mut csv = format!("{HEADER}\n");
    std::fs::create_dir_all(root().join(OUT)).unwrap();
    for (run, file) in RUNS.into_iter().filter(|r| frames_path(r.0).exists()) {
        for (stat, key, value) in stats(&run_streams(run, file)) {
            csv += &format!("{run},{stat},{key},{value}\n");
        }
        if run.contains("_seed") {
            let phases = frames_path(run).with_extension("phases.csv");
            std::fs::copy(phases, root().join(OUT).join(format!("{run}_phases.csv"))).unwrap();
        }
        eprintln!("{run} summarized");
    }
    std::fs::write(root().join(OUT).join("stag_records.csv"), csv).unwrap();
}

/// `stats` on hand-made streams, T = 200,000 cycles, each frame's first
/// message released 10 cycles before its last.
/// Stream A (GOP position 5 at frame 0): last messages released at
/// FROM − 300,000 + jT, L = 50, 80 (phase 3), then 60, 90, 90, 100 in
/// 80:20 (frames 2..=5, first released in tenths 0, 1, 2, 3; GOP 7..=10).
/// M0 = 80, set in phase 3 (frame 1, judged there). Frame 2 on time (60 − 80 = −20); frame 3 a
/// record late by 10; frame 4 ties 90 exactly on its deadline, on time;
/// frame 5 a record late by 10. Exchangeable: 90, 90 and 100 lie above
/// 80: 1/3 + 1/3 + 1/1.
/// Stream B (position 11): frames 0..=2 released at FROM + 1,000,000 +
/// jT, L = 30, 20, 40: M0 = 30 (phase 4); frame 1 on time (−10, tenth 6,
/// GOP 0), frame 2 a record late by 10 (tenth 7, GOP 1); exchangeable 1.
/// Stream C: all in phase 3, no 80:20 frame.
#[test]
fn a_hand_made_phase_is_split() {
    const T: u64 = 200_000;
    let frame = |frame: u32, last: u64, latency: u64| StreamFrame { times: (frame, last, last + latency), first_created: last - 10, vc: 1 };
    let (a, b) = (FROM - 300_000, FROM + 1_000_000);
    let sa: Vec<_> = [50, 80, 60, 90, 90, 100].iter().enumerate().map(|(j, &l)| frame(j as u32, a + j as u64 * T, l)).collect();
    let sb: Vec<_> = [30, 20, 40].iter().enumerate().map(|(j, &l)| frame(j as u32, b + j as u64 * T, l)).collect();
    let sc = vec![frame(0, FROM - 900_000, 5), frame(1, FROM - 700_000, 6)];
    assert_eq!(phase_stream(&sc, T as f64, 0), None);
    let streams = vec![phase_stream(&sa, T as f64, 5).unwrap(), phase_stream(&sb, T as f64, 11).unwrap()];
    let got: BTreeMap<(String, u64), f64> = stats(&streams).into_iter().map(|(s, k, v)| ((s, k), v)).collect();
    let iid = 1.0 / 3.0 + 0.25 + 0.2 + 1.0 / 6.0 + 0.5 + 1.0 / 3.0;
    let mut want: Vec<(&str, u64, f64)> = vec![
        ("streams", 0, 2.0),
        ("judged", 0, 6.0),
        ("misses", 0, 3.0),
        ("records", 0, 3.0),
        ("ties", 0, 0.0),
        ("other", 0, 0.0),
        ("lateness_mean", 0, 10.0),
        ("predicted_iid", 0, iid),
        ("exchangeable", 0, 2.0 / 3.0 + 1.0 + 1.0),
        ("above_carried", 0, 4.0),
        ("streams_above_carried", 0, 2.0),
        ("carried_mean", 0, 55.0),
        ("carried_set_in_phase", 3, 1.0),
        ("carried_set_in_phase", 4, 1.0),
        ("latency_mean", 0, 400.0 / 6.0),
        ("latency_quantile", 50, 60.0),
        ("latency_quantile", 90, 100.0),
        ("latency_quantile", 99, 100.0),
        ("latency_quantile", 100, 100.0),
        ("stream_median_mean", 0, 55.0),
        ("stream_max_mean", 0, 70.0),
        ("streams_with_misses", 1, 1.0),
        ("streams_with_misses", 2, 1.0),
        ("first_miss_tenth", 1, 1.0),
        ("first_miss_tenth", 7, 1.0),
        ("first_miss_increment_mean", 0, 10.0),
        ("miss_increment_mean", 0, 10.0),
    ];
    for k in [0, 1, 2] {
        want.extend([("carried_set_in_phase", k, 0.0), ("history_judged", k, 0.0), ("history_latency_mean", k, 0.0)]);
    }
    want.extend([("history_judged", 3, 1.0), ("history_latency_mean", 3, 80.0)]);
    for (tenth, latency, miss) in [(0, 60.0, 0.0), (1, 90.0, 1.0), (2, 90.0, 0.0), (3, 100.0, 1.0), (6, 20.0, 0.0), (7, 40.0, 1.0)] {
        want.extend([("tenth_judged", tenth, 1.0), ("tenth_misses", tenth, miss), ("tenth_latency_mean", tenth, latency)]);
    }
    for (gop, latency, miss) in [(7, 60.0, 0.0), (8, 90.0, 1.0), (9, 90.0, 0.0), (10, 100.0, 1.0), (0, 20.0, 0.0), (1, 40.0, 1.0)] {
        want.extend([("gop_judged", gop, 1.0), ("gop_misses", gop, miss), ("gop_latency_mean", gop, latency)]);
    }
    for (stat, key, value) in &want {
        let g = got.get(&(stat.to_string(), *key)).unwrap_or_else(|| panic!("no {stat} {key}: {got:?}"));
        assert!((g - value).abs() < 1e-9, "{stat} {key}: {g}, by hand {value}");
    }
    for (stat, key) in [("streams_with_misses", 0), ("streams_with_misses", 3), ("streams_with_misses", 4)] {
        assert_eq!(got.get(&(stat.to_string(), key)), Some(&0.0), "{stat} {key}");
    }
}

/// The committed `stag_records.csv`: for each run every miss is a strict
/// record or a tie, its 80:20 misses over its judged frames give the
/// committed missing probability and its mean lateness the committed
/// missing time (80 ns cycles), its streams' history holds every frame
/// judged in the earlier phases, and the tenths, GOP positions, miss counts,
/// first misses and carried-maximum phases each partition what they split.
#[test]
fn the_committed_stag_records_add_up() {
    let text = std::fs::read_to_string(root().join(OUT).join("stag_records.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for (run, file) in RUNS.iter().take(2) {
        assert!(rows.iter().any(|r| r[0] == *run), "no run {run} ({file})");
    }
    for (run, file) in RUNS {
        if !rows.iter().any(|r| r[0] == run) {
            continue;
        }
        let of = |stat: &str| rows.iter().filter(|r| r[0] == run && r[1] == stat).map(|r| r[3].parse::<f64>().unwrap()).collect::<Vec<f64>>();
        let one = |stat: &str| of(stat)[0];
        let sum = |stat: &str| of(stat).iter().sum::<f64>();
        assert_eq!(one("records") + one("ties") + one("other"), one("misses"), "{run}");
        assert_eq!(one("other"), 0.0, "{run}");
        let phases = if run.contains("_seed") {
            std::fs::read_to_string(root().join(OUT).join(format!("{run}_phases.csv"))).unwrap()
        } else {
            let dir = root().join("experiments/results").join(file.trim_end_matches(".toml"));
            std::fs::read_to_string(dir.join("phases.csv")).unwrap().replace("\n0.9,", "\n")
        };
        let phase = |k: usize| -> Vec<f64> { phases.lines().nth(k + 1).unwrap().split(',').map(|x| x.parse().unwrap()).collect() };
        let p4 = phase(4);
        assert_eq!(p4[1], 80.0, "{run}: the fifth phase is not 80:20");
        // The real-time share only grows, so every stream of an earlier
        // phase is one of the 80:20 streams: their history is every frame
        // judged before.
        for k in 0..4 {
            assert_eq!(of("history_judged")[k], phase(k)[2], "{run}: phase {k}'s judged frames");
        }
        assert_eq!(one("judged"), p4[2], "{run}: judged");
        assert!((one("misses") / one("judged") - p4[3]).abs() < 1e-12, "{run}: missing probability");
        assert!((one("lateness_mean") * 80e-9 * 1e3 / p4[4] - 1.0).abs() < 1e-9, "{run}: missing time");
        for group in ["tenth", "gop"] {
            assert_eq!(sum(&format!("{group}_judged")), one("judged"), "{run} {group}");
            assert_eq!(sum(&format!("{group}_misses")), one("misses"), "{run} {group}");
        }
        assert_eq!(sum("streams_with_misses"), one("streams"), "{run}");
        assert_eq!(sum("carried_set_in_phase"), one("streams"), "{run}");
        assert_eq!(sum("first_miss_tenth"), one("streams") - of("streams_with_misses")[0], "{run}");
        assert!(one("above_carried") >= one("records") && one("exchangeable") <= one("above_carried"), "{run}");
    }
}

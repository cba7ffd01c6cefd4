//! Which of P's mechanisms makes its latency excursions in the staggered
//! runs of 003_… Fig. 4 at load 0.9 (issue 23 item 2; docs/reproduction.md
//! "Records with staggered GOPs: why P misses less" and the section after
//! it). Every cycle of every real-time message is given to one cause by
//! `Sim::run_cause_split` (`sim/netsim/src/cause_split.rs`); a frame's
//! latency L (its last message's release to the frame's arrival,
//! `common/record_split.rs`) is its last message's latency, so that
//! message's causes split L.
//!
//! `write_the_cause_frames_p_selfpre_stag` and `…_np_stag` (ignored, the
//! full 0.75 s runs) rerun the two committed sweeps with the probe on,
//! check that the probe changed nothing (the phases equal the committed
//! `phases.csv`), and write every judged frame with its last message's
//! causes into the target directory. `summarize_the_excursion_causes`
//! (ignored, seconds) reads them and writes
//! `experiments/results/fig4_003_excursion_causes/excursion_causes.csv`,
//! which `the_committed_excursion_causes_add_up` checks.

#[path = "common/record_split.rs"]
mod record_split;

use record_split::stream_frames;
use std::collections::BTreeMap;
use std::path::PathBuf;
use wormqos_netsim::cause_split::{Cause, CauseSplit, ZERO_LOAD_PIPELINE};
use wormqos_netsim::network::Sim;
use wormqos_netsim::Experiment;

const REAL_TIME: u8 = 1;

/// The runs (`rt_8020_003.rs`'s names) and their experiment files.
const RUNS: [(&str, &str); 2] = [("np_stag", "fig4_003_np_09_stream_staggered.toml"), ("p_selfpre_stag", "fig4_003_p_09_stream_selfpre_staggered.toml")];

fn root() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn target() -> PathBuf {
    std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| root().join("target"))
}

fn cause_frames_path(run: &str) -> PathBuf {
    target().join(format!("excursion_causes_003_{run}.frames.csv"))
}

/// The columns of a cause-frames file before the causes.
const FRAME_COLUMNS: &str = "flow,vc,frame,first_created,last_created,arrival,msg_created,msg_delivered,flits,mismatches";

fn cause_header() -> String {
    let names: Vec<&str> = Cause::ALL.iter().map(|c| c.name()).collect();
    format!("{FRAME_COLUMNS},{}", names.join(","))
}

fn experiment(file: &str, text: &str) -> wormqos_netsim::Validated {
    Experiment::from_str(text, file, root().join("experiments")).unwrap()
}

/// The committed sweep's phases (frames judged, missing probability), the
/// sweep's `phases.csv`.
fn committed_phases(file: &str) -> Vec<(u64, f64)> {
    let dir = root().join("experiments/results").join(file.trim_end_matches(".toml"));
    let text = std::fs::read_to_string(dir.join("phases.csv")).unwrap();
    text.lines().skip(1).map(|l| {
        let c: Vec<&str> = l.split(',').collect();
        (c[3].parse().unwrap(), c[4].parse().unwrap())
    }).collect()
}

fn write_cause_frames(run: &str) {
    let file = RUNS.iter().find(|r| r.0 == run).unwrap().1;
    let text = std::fs::read_to_string(root().join("experiments").join(file)).unwrap();
    let v = experiment(file, &text);
    let t0 = std::time::Instant::now();
    let (res, log, splits) = Sim::new(&v).unwrap().run_cause_split(REAL_TIME).unwrap();
    let got: Vec<(u64, f64)> = res.phases.iter().map(|p| (p.frames_judged, p.deadline_miss_probability)).collect();
    assert_eq!(got, committed_phases(file), "{run}: the probe changed the run");
    // The last-released message of each frame, with its causes.
    let mut last: BTreeMap<(u32, u32), (u64, u64, usize)> = BTreeMap::new();
    let split_of: BTreeMap<usize, CauseSplit> = splits.into_iter().collect();
    for (&i, _) in &split_of {
        let m = &log[i];
        if m.frame == u32::MAX {
            continue;
        }
        let e = last.entry((m.flow, m.frame)).or_insert((m.created, m.delivered, i));
        if (m.created, m.delivered) > (e.0, e.1) {
            *e = (m.created, m.delivered, i);
        }
    }
    let mut out = format!("{}\n", cause_header());
    for (flow, frames) in stream_frames(&log, v.run_cycles().1) {
        for f in frames {
            let (frame, last_created, arrival) = f.times;
            let &(_, _, i) = last.get(&(flow, frame)).expect("every frame's messages followed");
            let (m, s) = (&log[i], &split_of[&i]);
            let cells: Vec<String> = s.cycles.iter().map(|c| c.to_string()).collect();
            out += &format!("{flow},{},{frame},{},{last_created},{arrival},{},{},{},{},{}\n", f.vc, f.first_created, m.created, m.delivered, m.flits, s.mismatches, cells.join(","));
        }
    }
    std::fs::write(cause_frames_path(run), out).unwrap();
    eprintln!("{run}: {:.0} s wall, {} real-time messages followed", t0.elapsed().as_secs_f64(), split_of.len());
}

#[test]
#[ignore]
fn write_the_cause_frames_p_selfpre_stag() {
    write_cause_frames("p_selfpre_stag");
}

#[test]
#[ignore]
fn write_the_cause_frames_np_stag() {
    write_cause_frames("np_stag");
}

/// A short version of a run: the same network and workload, five phases of
/// 4 ms (the full runs' are 150 ms).
fn short(file: &str) -> wormqos_netsim::Validated {
    let text = std::fs::read_to_string(root().join("experiments").join(file)).unwrap();
    let text = text.replace("phase_seconds = 0.15\n", "phase_seconds = 0.004\n").replace("seconds = 0.75\n", "seconds = 0.02\n").replace("warmup_seconds = 0.035\n", "warmup_seconds = 0.001\n");
    assert!(text.contains("phase_seconds = 0.004\n") && text.contains("\nseconds = 0.02\n"), "{file}");
    experiment(file, &text)
}

/// In a loaded run of each router every cycle of every followed real-time
/// message falls in exactly one cause and the counts follow the router:
/// the causes add up to its latency, none is `Other`, no count disagreed
/// with the router (`mismatches`), at least F cycles crossing and
/// `ZERO_LOAD_PIPELINE` in the pipeline; and the causes the run is about
/// occur (so the sums are not vacuous): queueing behind the VC's holder,
/// the source's link given to other VCs, the crossbar to other flits,
/// and under P the source's dummy tails and preemption in the input VC.
#[test]
fn the_causes_add_up_in_loaded_runs() {
    for (run, file) in RUNS {
        let v = short(file);
        let (_, log, splits) = Sim::new(&v).unwrap().run_cause_split(REAL_TIME).unwrap();
        assert!(splits.len() > 1000, "{run}: {} followed", splits.len());
        let mut sum = CauseSplit::default();
        for (i, s) in &splits {
            let m = &log[*i];
            assert_eq!(m.class, REAL_TIME);
            assert_eq!(s.total() as u64, m.delivered - m.created, "{run}: {m:?} {s:?}");
            assert_eq!((s.get(Cause::Other), s.mismatches), (0, 0), "{run}: {m:?} {s:?}");
            assert_eq!(s.get(Cause::Crossing), m.flits, "{run}: {m:?} {s:?}");
            assert!(s.get(Cause::Pipeline) >= ZERO_LOAD_PIPELINE, "{run}: {m:?} {s:?}");
            sum.cycles.iter_mut().zip(s.cycles).for_each(|(a, b)| *a += b);
        }
        eprintln!("{run}: {:?}", Cause::ALL.iter().map(|c| (c.name(), sum.get(*c))).collect::<Vec<_>>());
        for c in [Cause::QueueHolderSends, Cause::SourceLink, Cause::SwitchLost] {
            assert!(sum.get(c) > 0, "{run}: no {}", c.name());
        }
        if run.starts_with("p_") {
            for c in [Cause::HeaderDummy, Cause::Preempted] {
                assert!(sum.get(c) > 0, "{run}: no {}", c.name());
            }
        }
    }
}

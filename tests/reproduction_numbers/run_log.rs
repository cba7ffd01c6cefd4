//! The run log of `docs/reproduction.md` against the committed results:
//! after a fenced `sh` block whose one `sweep`, `sim` or `model` command
//! writes a results folder (`--out <dir>`), the prose that follows it (to
//! the next `sh` block or heading) states how many points the run has
//! ("20 points") and how long it took ("651 s wall"). The first point count
//! must equal the folder's: the rows of `results.json`'s `points`, or the
//! `sim` rows of a `model --with-sim` folder's `results.csv`. A wall time
//! cannot be checked to the second (the machine was shared), but it is
//! bounded by the per-point `wall_seconds` the folder's `results.csv`
//! records: at least the longest point and the sum over `--jobs` workers,
//! at most the sum (2 s of rounding either way). At least one of the wall
//! times quoted after a `sweep` or `sim` block must lie in those bounds;
//! others in the same prose may be of an earlier run or of a trace, which
//! the text says (dates, load averages and those wall times are the log,
//! not results, and are not checked).

use super::root;

/// A command block and the prose after it.
pub struct Run {
    /// 1-based line of the block's opening fence.
    pub line: usize,
    /// The `--out` folder, when the block's `sweep`, `sim` and `model`
    /// commands write exactly one, and whether one of them is `model` (its
    /// folder's points are its `sim` rows).
    pub out: Option<(String, bool)>,
    /// The `--out` folder and `--jobs` (2 when not given) when the block's
    /// `sweep` and `sim` commands write exactly one: the run whose per-point
    /// wall seconds bound the quoted wall time.
    pub timed: Option<(String, u32)>,
    /// The `--experiment` files of the block's `sweep`, `sim` and `model`
    /// commands.
    pub experiments: Vec<String>,
    /// The prose up to the next `sh` block or heading, whitespace collapsed.
    pub prose: String,
    /// Its first paragraph (to the first blank line), which describes the
    /// block's own runs; later paragraphs compare with other runs.
    pub first_paragraph: String,
}

/// Whether `line` runs the project's CLI subcommand `sweep`, `sim` or
/// `model` (as `cargo run --release -- <cmd>`, `netsim <cmd>` or `wormqos
/// <cmd>`); returns the subcommand.
fn cli_command(line: &str) -> Option<&'static str> {
    for cmd in ["sweep", "sim", "model"] {
        for prefix in ["cargo run --release -- ", "netsim ", "wormqos "] {
            if line.contains(&format!("{prefix}{cmd} ")) {
                return Some(cmd);
            }
        }
    }
    None
}

fn option<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == name)?;
    words.next()
}

/// Every `sh` block of `doc` with a `sweep`, `sim` or `model` command,
/// with its folder (where one), its experiment files and the prose after it.
pub fn runs(doc: &str) -> Vec<Run> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```sh") {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        while end < lines.len() && !lines[end].starts_with("```") {
            end += 1;
        }
        let commands: Vec<(&str, &str)> =
            lines[start + 1..end].iter().filter(|l| option(l, "--out").is_some()).filter_map(|l| Some((*l, cli_command(l)?))).collect();
        let single = |keep: &dyn Fn(&str) -> bool| -> Option<&str> {
            let mut outs: Vec<&str> = commands.iter().filter(|(_, c)| keep(c)).filter_map(|(l, _)| option(l, "--out")).collect();
            outs.sort();
            outs.dedup();
            (outs.len() == 1).then(|| outs[0])
        };
        let out = single(&|_| true).map(|o| (o.to_string(), commands.iter().any(|(_, c)| *c == "model")));
        let timed = single(&|c| c != "model").map(|o| {
            let l = commands.iter().find(|(l, c)| *c != "model" && option(l, "--out") == Some(o)).unwrap().0;
            let jobs = option(l, "--jobs").map_or(2, |j| j.parse().unwrap_or_else(|_| panic!("line {}: --jobs {j}", start + 1)));
            (o.to_string(), jobs)
        });
        let mut experiments: Vec<String> =
            lines[start + 1..end].iter().filter(|l| cli_command(l).is_some()).filter_map(|l| option(l, "--experiment")).map(str::to_string).collect();
        experiments.sort();
        experiments.dedup();
        let mut after = end + 1;
        let mut prose = Vec::new();
        while after < lines.len() && !lines[after].starts_with("```sh") && !lines[after].starts_with('#') {
            prose.push(lines[after]);
            after += 1;
        }
        let collapse = |ls: &[&str]| ls.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
        let first: Vec<&str> = prose.iter().skip_while(|l| l.trim().is_empty()).take_while(|l| !l.trim().is_empty()).copied().collect();
        if out.is_some() || timed.is_some() || !experiments.is_empty() {
            runs.push(Run { line: start + 1, out, timed, experiments, prose: collapse(&prose), first_paragraph: collapse(&first) });
        }
        i = end + 1;
    }
    runs
}

/// A number as the prose writes it ("1,200", "(0.15"), or `None`.
fn number(w: &str) -> Option<f64> {
    let w = w.trim_start_matches('(').replace(',', "");
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.')).then(|| w.parse().ok()).flatten()
}

/// `w` without the punctuation prose puts around a number or a word.
fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| "()[],;:.*`".contains(c))
}

/// The first "N points" of `prose` that counts a run's points: not "Fig. 9
/// points" nor "8 × 8 points".
pub fn point_count(prose: &str) -> Option<usize> {
    let words: Vec<&str> = prose.split_whitespace().collect();
    (1..words.len()).find_map(|k| {
        if bare(words[k]) != "points" {
            return None;
        }
        let n = words[k - 1].trim_start_matches('(');
        let before = if k >= 2 { words[k - 2] } else { "" };
        let counts = !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) && !["×", "x", "Fig.", "Figs."].contains(&before);
        counts.then(|| n.parse().unwrap())
    })
}

/// Every wall time of `prose`, in seconds, as written: "651 s wall", "538 s
/// of run wall", "13.3 min wall", "4 min 05 s wall"; a range ("148–182 s
/// wall", two runs) gives both ends.
pub fn wall_times(prose: &str) -> Vec<(String, f64)> {
    let words: Vec<&str> = prose.split_whitespace().collect();
    let numbers = |w: &str| -> Vec<f64> {
        match w.split_once('–') {
            Some((a, b)) => [number(a), number(b)].into_iter().flatten().collect(),
            None => number(w).into_iter().collect(),
        }
    };
    let mut walls = Vec::new();
    for k in 0..words.len() {
        if !bare(words[k]).starts_with("wall") {
            continue;
        }
        // "<x> s wall", "<x> min wall", "<x> s of run wall", "<m> min <ss> s wall".
        let mut j = k;
        if j >= 2 && words[j - 1] == "run" && words[j - 2] == "of" {
            j -= 2;
        }
        if j < 2 {
            continue;
        }
        let (unit, values) = (words[j - 1], numbers(words[j - 2]));
        let (seconds, from): (Vec<f64>, usize) = match unit {
            "s" if j >= 4 && words[j - 3] == "min" && values.len() == 1 => match number(words[j - 4]) {
                Some(m) => (vec![m * 60.0 + values[0]], j - 4),
                None => (Vec::new(), j),
            },
            "s" => (values, j - 2),
            "min" => (values.iter().map(|m| m * 60.0).collect(), j - 2),
            _ => (Vec::new(), j),
        };
        let written = words[from..=k].join(" ");
        walls.extend(seconds.into_iter().map(|s| (written.clone(), s)));
    }
    walls
}

/// A results folder's point count and per-point wall seconds.
pub struct Folder {
    pub points: usize,
    pub wall_seconds: Vec<f64>,
}

/// `out`'s points: the `sim` rows of a `model` folder's `results.csv`,
/// else `results.json`'s `points`, else the rows of `results.csv`; and the
/// `wall_seconds` column where the CSV has one (a `model` folder's `sim`
/// rows).
pub fn folder(out: &str, model: bool) -> Folder {
    let dir = root().join(out);
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap_or_else(|e| panic!("{out}/results.csv: {e}"));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name);
    let rows: Vec<Vec<&str>> = lines.filter(|l| !l.is_empty()).map(|l| l.split(',').collect()).collect();
    let rows: Vec<Vec<&str>> = match (model, col("source")) {
        (true, Some(s)) => rows.into_iter().filter(|r| r[s] == "sim").collect(),
        (true, None) => panic!("{out}/results.csv: a model folder without a source column"),
        (false, _) => rows,
    };
    let json = dir.join("results.json");
    let points = if !model && json.exists() {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        v["points"].as_array().unwrap_or_else(|| panic!("{out}/results.json: no points")).len()
    } else {
        rows.len()
    };
    let wall_seconds = col("wall_seconds").map_or(Vec::new(), |w| rows.iter().filter_map(|r| r.get(w)?.parse().ok()).collect());
    Folder { points, wall_seconds }
}

/// The wall times a run of `folder` with `jobs` workers can have taken:
/// at least its longest point and its points' sum shared over the
/// workers, at most that sum; 2 s of rounding either way.
pub fn wall_bounds(folder: &Folder, jobs: u32) -> Option<(f64, f64)> {
    if folder.wall_seconds.is_empty() {
        return None;
    }
    let sum: f64 = folder.wall_seconds.iter().sum();
    let longest = folder.wall_seconds.iter().cloned().fold(0.0, f64::max);
    Some((longest.max(sum / f64::from(jobs.max(1))) - 2.0, sum + 2.0))
}

/// A run length an experiment file sets: `[run]` `seconds`,
/// `warmup_seconds`, `cycles`, `warmup_cycles`, `[workload]`
/// `phase_seconds`, or any value its `[sweep]` gives one of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Length {
    Seconds,
    WarmupSeconds,
    Cycles,
    WarmupCycles,
    PhaseSeconds,
    /// Seeds of a point: a `[sweep]` over `run.seed` (its length).
    Seeds,
    /// Replications of a PCS point: `[model]` `pcs_replications`.
    Replications,
}

impl Length {
    fn key(self) -> &'static str {
        match self {
            Length::Seconds => "seconds",
            Length::WarmupSeconds => "warmup_seconds",
            Length::Cycles => "cycles",
            Length::WarmupCycles => "warmup_cycles",
            Length::PhaseSeconds => "phase_seconds",
            Length::Seeds => "seeds",
            Length::Replications => "pcs_replications",
        }
    }
}

/// Every run length `experiment` sets, with its values.
pub fn lengths_set(experiment: &str) -> Vec<(Length, f64)> {
    let text = std::fs::read_to_string(root().join(experiment)).unwrap_or_else(|e| panic!("{experiment}: {e}"));
    let t: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{experiment}: {e}"));
    let num = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let all = [Length::Seconds, Length::WarmupSeconds, Length::Cycles, Length::WarmupCycles, Length::PhaseSeconds, Length::Replications];
    let mut set = Vec::new();
    if let Some(seeds) = t.get("sweep").and_then(|s| s.get("run.seed")).and_then(|v| v.as_array()) {
        set.push((Length::Seeds, seeds.len() as f64));
    }
    for l in all {
        for section in ["run", "workload", "model"] {
            if let Some(x) = t.get(section).and_then(|s| s.get(l.key())).and_then(num) {
                set.push((l, x));
            }
        }
        if let Some(sweep) = t.get("sweep").and_then(|s| s.as_table()) {
            for (k, v) in sweep {
                if k.rsplit('.').next() == Some(l.key()) {
                    set.extend(v.as_array().into_iter().flatten().filter_map(num).map(|x| (l, x)));
                }
            }
        }
    }
    set
}

/// The run lengths `text` states, as written: "100 k cycles per point"
/// (or "per load"), any other "<x> k cycles" or "<x> M cycles" ("runs of
/// 200 k cycles", "8 points × 10 seeds × 2 M cycles"), "160 k-cycle runs",
/// "runs of 200,000 cycles", "100,000 cycles (10,000 warm-up)" (cycles); "0.15 s runs", "40 ms runs", "0.35 s
/// simulated", "3.0 s in all", "0.2 s with 0.05 s warm-up", "0.2 s after a
/// 0.05 s warm-up", "run for 0.5 s" (seconds); "0.05 s warm-up", "35 ms
/// warm-up", "0.1 s of it warm-up"; "20,000 warm-up" and "20 k warm-up"
/// (cycles); "phases of 0.14 s", "0.6 s phases", "70 ms phases", "five
/// phases for 0.04 s each", "80:20 for 0.07 s each", "80:20 of 70 ms each"
/// (phase lengths); "20 seeds", "10 replications"; and (issue 23) "0.35
/// s, seed 1", "the 0.15 s measured", "for 0.4 s, 0.1 s of it warm-up",
/// "the full 0.75 s", "full run (0.75 s", "(…, 70 ms phases, …, 0.35 s)"
/// (seconds); "later phases (0.6 s)", "phase up to 6 s", "phase of 6 s",
/// "the 0.15 s NP and P runs", "| NP, 0.9, 0.6 s |" (phase lengths); "in
/// 160 k,", "instead of 40 k;" (cycles).
pub fn lengths_stated(text: &str) -> Vec<(Length, String, f64)> {
    lengths_stated_at(text).into_iter().map(|(l, written, x, _)| (l, written, x)).collect()
}

/// `lengths_stated`, with the index of each phrase's first word among
/// `text.split_whitespace()`.
pub fn lengths_stated_at(text: &str) -> Vec<(Length, String, f64, usize)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let word = |i: usize| words.get(i).map_or("", |w| bare(w));
    let scale = |w: &str| match w {
        "k" => Some(1e3),
        "M" => Some(1e6),
        _ => None,
    };
    // The number ending at word `k` (exclusive), with an optional k/M
    // word after it: (value, index of its first word).
    let value_before = |k: usize| -> Option<(f64, usize)> {
        if k >= 2 {
            if let (Some(x), Some(m)) = (number(words[k - 2]), scale(words[k - 1])) {
                return Some((x * m, k - 2));
            }
        }
        (k >= 1).then(|| number(words[k - 1]).map(|x| (x, k - 1))).flatten()
    };
    // A time "<x> s" or "<x> ms" starting at word `i`, in seconds.
    let seconds_at = |i: usize| -> Option<f64> {
        let x = number(words.get(i)?)?;
        match word(i + 1) {
            "s" => Some(x),
            "ms" => Some(x / 1e3),
            _ => None,
        }
    };
    // A phase's mix as the prose writes it: "80:20".
    let mix = |i: usize| word(i).split_once(':').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && (a.to_string() + b).chars().all(|c| c.is_ascii_digit()));
    // A time "<x> s" whose unit is word `k`, read from the words before
    // it: "the full 0.75 s", "full run (0.75 s", "later phases (0.6 s)",
    // "one phase up to 6 s", "(…, 70 ms phases, …, 0.35 s)" (a run
    // closing a list that gives its phases), "| NP, 0.9, 0.6 s |" (a
    // table row named by its phase length); the length and the phrase's
    // first word.
    let earlier_form = |k: usize| -> Option<(Length, usize)> {
        let at = |d: usize| if k >= d { word(k - d) } else { "" };
        if at(2) == "full" {
            return Some((Length::Seconds, k - 2));
        }
        if matches!(at(2), "run" | "runs") && at(3) == "full" && words[k - 1].starts_with('(') {
            return Some((Length::Seconds, k - 3));
        }
        if at(2) == "phases" && words[k - 1].starts_with('(') && words[k].ends_with(')') {
            return Some((Length::PhaseSeconds, k - 2));
        }
        if (at(4), at(3), at(2)) == ("phase", "up", "to") {
            return Some((Length::PhaseSeconds, k - 4));
        }
        if words[k].ends_with(')') && !words[k - 1].starts_with('(') {
            let open = (1..k.min(16)).map(|d| k - d).find(|&i| words[i].starts_with('('))?;
            return (open..k - 1).any(|i| bare(words[i]).starts_with("phase")).then_some((Length::Seconds, open));
        }
        (words.get(k + 1) == Some(&"|") && words[k - 2].ends_with(',')).then_some((Length::PhaseSeconds, k - 1))
    };
    let mut found = Vec::new();
    let mut push = |l: Length, from: usize, to: usize, x: f64| found.push((l, words[from..=to].join(" "), x, from));
    for k in 0..words.len() {
        let (w, next) = (word(k), word(k + 1));
        match w {
            "cycles" if next == "per" && matches!(word(k + 2), "point" | "load") => {
                if let Some((x, from)) = value_before(k) {
                    push(Length::Cycles, from, k + 2, x);
                }
            }
            "cycles" => match value_before(k) {
                // Any "<x> k cycles" or "<x> M cycles": the document writes
                // latencies and waits in cycles without k or M.
                Some((x, from)) if scale(words[k - 1]).is_some() => push(Length::Cycles, from, k, x),
                // "100,000 cycles (10,000 warm-up)"
                Some((x, from)) if words.get(k + 1).is_some_and(|n| n.starts_with('(') && number(n).is_some()) && word(k + 2) == "warm-up" => {
                    push(Length::Cycles, from, k, x)
                }
                // "runs of 200,000 cycles"
                Some((x, from)) if from >= 2 && word(from - 1) == "of" && matches!(word(from - 2), "runs" | "run") => push(Length::Cycles, from - 2, k, x),
                _ => {}
            },
            // "160 k-cycle runs", "the 160 k-cycle point"
            "k-cycle" | "M-cycle" if k >= 1 => {
                if let Some(x) = number(words[k - 1]) {
                    push(Length::Cycles, k - 1, k, x * if w == "k-cycle" { 1e3 } else { 1e6 });
                }
            }
            "runs" | "run" if next == "for" => {
                if let Some(x) = seconds_at(k + 2) {
                    push(Length::Seconds, k, k + 3, x);
                }
            }
            // "five phases for 0.04 s each", "80:20 for 0.07 s each",
            // "80:20 of 70 ms each"
            "for" | "of" if k >= 1 && (mix(k - 1) || (w == "for" && word(k - 1) == "phases")) && word(k + 3) == "each" => {
                if let Some(x) = seconds_at(k + 1) {
                    push(Length::PhaseSeconds, k - 1, k + 3, x);
                }
            }
            "s" | "ms" if k >= 1 => {
                let run = Length::Seconds;
                let (length, to) = match next {
                    n if n.starts_with("run") && !n.starts_with("running") => (run, k + 1),
                    "simulated" => (run, k + 1),
                    "in" if word(k + 2) == "all" => (run, k + 2),
                    "with" if seconds_at(k + 2).is_some() && word(k + 4) == "warm-up" => (run, k + 4),
                    "after" if word(k + 2) == "a" && seconds_at(k + 3).is_some() && word(k + 5) == "warm-up" => (run, k + 5),
                    "phase" | "phases" => (Length::PhaseSeconds, k + 1),
                    // "0.35 s, seed 1", "the 0.15 s measured"
                    "seed" if words[k].ends_with(',') => (run, k + 1),
                    "measured" => (run, k + 1),
                    // "the 0.15 s NP and P runs": runs named by their phase
                    // length, as the tables' rows ("| NP, 0.9, 0.6 s |") are
                    _ if (k + 1..k + 5).find(|&j| !matches!(word(j), "NP" | "P" | "TR" | "MR" | "and")).is_some_and(|j| j > k + 1 && word(j) == "runs") => {
                        (Length::PhaseSeconds, (k + 1..k + 5).find(|&j| word(j) == "runs").unwrap())
                    }
                    // "for 0.4 s, 0.1 s of it warm-up": the run and its warm-up
                    _ if k >= 2 && word(k - 2) == "for" && seconds_at(k + 1).is_some() && (word(k + 3), word(k + 4), word(k + 5)) == ("of", "it", "warm-up") => {
                        push(run, k - 2, k, seconds_at(k - 1).unwrap());
                        continue;
                    }
                    _ => match earlier_form(k) {
                        Some((length, from)) => {
                            if let Some(x) = seconds_at(k - 1) {
                                push(length, from, k, x);
                            }
                            continue;
                        }
                        None => continue,
                    },
                };
                if let Some(x) = seconds_at(k - 1) {
                    push(length, k - 1, to, x);
                }
            }
            // "0.038 at 0.06 in 160 k,", "instead of 40 k;": a bare k or M
            // of cycles ending the phrase
            "k" | "M" if k >= 2 && matches!(word(k - 2), "in" | "of") && words[k].len() > 1 && next != "cycles" => {
                if let (Some(x), Some(m)) = (number(words[k - 1]), scale(w)) {
                    let from = if word(k - 2) == "of" && k >= 3 && word(k - 3) == "instead" { k - 3 } else { k - 2 };
                    push(Length::Cycles, from, k, x * m);
                }
            }
            "warm-up" if k >= 1 => match word(k - 1) {
                "s" | "ms" if k >= 2 => {
                    if let Some(x) = seconds_at(k - 2) {
                        push(Length::WarmupSeconds, k - 2, k, x);
                    }
                }
                // "0.1 s of it warm-up"
                "it" if k >= 4 && word(k - 2) == "of" => {
                    if let Some(x) = seconds_at(k - 4) {
                        push(Length::WarmupSeconds, k - 4, k, x);
                    }
                }
                _ => {
                    if let Some((x, from)) = value_before(k) {
                        push(Length::WarmupCycles, from, k, x);
                    }
                }
            },
            "phases" | "Phases" | "phase" if next == "of" => {
                if let Some(x) = seconds_at(k + 2) {
                    push(Length::PhaseSeconds, k, k + 3, x);
                }
            }
            // "20 seeds", not "load 0.15 (seeds 1 to 10)"
            "seeds" | "seeds'" | "replications" if !words[k].starts_with('(') => {
                if let Some(x) = (k >= 1).then(|| number(words[k - 1])).flatten() {
                    push(if w == "replications" { Length::Replications } else { Length::Seeds }, k - 1, k, x);
                }
            }
            _ => {}
        }
    }
    found
}

/// Every mismatch of `doc`'s run log against the committed folders, and
/// how many point counts and wall times were checked.
pub fn check(doc: &str) -> (Vec<String>, usize, usize, usize) {
    let mut errors = Vec::new();
    let (mut counts, mut walls, mut lengths) = (0, 0, 0);
    for run in runs(doc) {
        let stated = lengths_stated(&run.first_paragraph);
        // A block that runs an edited copy (`sed … > /tmp/x.toml`) is
        // checked by `run_lengths.rs` against its section's files.
        let committed = run.experiments.iter().all(|e| root().join(e).exists());
        if !stated.is_empty() && !run.experiments.is_empty() && committed {
            let set: Vec<(Length, f64)> = run.experiments.iter().flat_map(|e| lengths_set(e)).collect();
            // "the full 0.75 s", "instead of 40 k": by their wording the
            // length of another run than the block's (checked by
            // `run_lengths.rs` against the section's files).
            for (l, written, x) in stated.into_iter().filter(|(_, w, _)| !w.starts_with("full") && !w.starts_with("instead")) {
                lengths += 1;
                if !set.iter().any(|&(k, v)| k == l && (v - x).abs() <= 1e-9 * v.abs().max(1.0)) {
                    let values: Vec<f64> = set.iter().filter(|(k, _)| *k == l).map(|(_, v)| *v).collect();
                    errors.push(format!("line {}: \"{written}\" ({} = {x}) is not what {:?} set ({values:?})", run.line, l.key(), run.experiments));
                }
            }
        }
        if let (Some(n), Some((out, model))) = (point_count(&run.prose), &run.out) {
            counts += 1;
            let f = folder(out, *model);
            if n != f.points {
                errors.push(format!("line {}: \"{n} points\" after the command writing {out}, which has {}", run.line, f.points));
            }
        }
        let quoted = wall_times(&run.prose);
        let Some((out, jobs)) = run.timed.filter(|_| !quoted.is_empty()) else { continue };
        let Some((lo, hi)) = wall_bounds(&folder(&out, false), jobs) else {
            errors.push(format!("line {}: wall times quoted for {out}, whose results.csv has no wall_seconds", run.line));
            continue;
        };
        walls += 1;
        if !quoted.iter().any(|(_, s)| (lo..=hi).contains(s)) {
            errors.push(format!("line {}: no wall time quoted for {out} ({quoted:?}) lies in {lo:.1}..={hi:.1} s (its points' wall_seconds, --jobs {jobs})", run.line));
        }
    }
    (errors, counts, walls, lengths)
}

/// Asserts that `text` states exactly the lengths `want`, in order.
pub fn assert_lengths_stated(text: &str, want: &[(Length, f64)]) {
    let l = lengths_stated(text);
    assert_eq!(l.len(), want.len(), "{l:?}");
    for ((k, _, x), (wk, wx)) in l.iter().zip(want) {
        assert!(k == wk && (x - wx).abs() < 1e-12, "{l:?}");
    }
}

#[test]
fn the_run_log_matches_the_committed_results() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let (errors, counts, walls, lengths) = check(&doc);
    assert!(errors.is_empty(), "{} run-log mismatches:\n{}", errors.len(), errors.join("\n"));
    // Not vacuous: the document quotes the point counts of 32 runs and the
    // wall times of 29 sweeps, and 35 run lengths in the first paragraph after
    // a command block (2026-11-29); losing many means the parsing broke.
    eprintln!("{counts} point counts, {walls} wall times, {lengths} run lengths checked");
    assert!(lengths >= 33, "only {lengths} run lengths checked");
    assert!(counts >= 30, "only {counts} point counts checked");
    assert!(walls >= 25, "only {walls} wall times checked");
}

#[test]
fn the_run_log_parsing_by_hand() {
    assert_eq!(point_count("From it: (20 points, 651 s wall, one at a time)"), Some(20));
    assert_eq!(point_count("the simulated Fig. 9 points; 8 × 8 points; then 4 points"), Some(4));
    assert_eq!(point_count("no count here"), None);
    let w = wall_times("6 points, 554 s wall; rerun 538 s of run wall, 13.3 min wall, 4 min 05 s wall, (1,200 s wall), 148–182 s wall.");
    let secs: Vec<f64> = w.iter().map(|(_, s)| *s).collect();
    assert_eq!(secs, vec![554.0, 538.0, 798.0, 245.0, 1200.0, 148.0, 182.0], "{w:?}");
    let doc = "# h\n\n```sh\ncargo run --release -- sweep --experiment e.toml --out experiments/results/x --jobs 1\n```\n\nText, 3 points, 10 s wall.\n\n```sh\nnetsim sweep --out a\nnetsim sweep --out b\n```\nTwo folders: 5 points.\n\n```sh\nwormqos sweep --out s\nwormqos model --out m --with-sim\n```\nA sweep and a model.\n## next\n";
    let r = runs(doc);
    assert_eq!(r.len(), 2, "the block with two sweep folders is no run");
    assert_eq!((r[0].line, r[0].out.clone(), r[0].timed.clone()), (3, Some(("experiments/results/x".to_string(), false)), Some(("experiments/results/x".to_string(), 1))));
    assert_eq!(r[0].prose, "Text, 3 points, 10 s wall.");
    assert_eq!((r[0].experiments.clone(), r[0].first_paragraph.as_str()), (vec!["e.toml".to_string()], "Text, 3 points, 10 s wall."));
    let text = "(100 k cycles per point; 160 k-cycle runs, runs of 200 k cycles, runs of 200,000 cycles, 0.15 s runs, 0.05 s warm-up, 35 ms warm-up, 20,000 warm-up, 20 k warm-up; phases of 0.14 s; 1 M cycles per point; 5 s running)";
    let want = [
        (Length::Cycles, 100e3),
        (Length::Cycles, 160e3),
        (Length::Cycles, 200e3),
        (Length::Cycles, 200e3),
        (Length::Seconds, 0.15),
        (Length::WarmupSeconds, 0.05),
        (Length::WarmupSeconds, 0.035),
        (Length::WarmupCycles, 20e3),
        (Length::WarmupCycles, 20e3),
        (Length::PhaseSeconds, 0.14),
        (Length::Cycles, 1e6),
    ];
    assert_lengths_stated(text, &want);
    assert_eq!((r[1].out.clone(), r[1].timed.clone()), (None, Some(("s".to_string(), 2))), "two folders: no point count; the sweep's wall");
    let f = Folder { points: 3, wall_seconds: vec![4.0, 3.0, 3.0] };
    assert_eq!(wall_bounds(&f, 1), Some((8.0, 12.0)));
    assert_eq!(wall_bounds(&f, 2), Some((3.0, 12.0)));
}

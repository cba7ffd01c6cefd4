//! Every run length `docs/reproduction.md` states, anywhere (any paragraph,
//! list item or table cell outside code blocks), against the files that set
//! it (issue 23 item 3). `run_log.rs` ties the first paragraph after a
//! command block to that block's experiment files; this check reads the
//! whole document, section by section (a heading to the next heading), and
//! requires each length `run_log::lengths_stated` parses to be one that is
//! set by
//! - an experiment file the section or one of its parent sections names
//!   (`--experiment experiments/x.toml`, `x.toml`, `experiments/results/x`,
//!   `model_x`, a glob `x_*.toml`): its `[run]` and `[workload]` lengths,
//!   its `[sweep]` values, and what they imply (a phased run lasts its
//!   phases' sum; seconds are cycles of `flit_width / link_mbps` µs), or
//! - a test, example or source file the section's command blocks run
//!   (`--test t`, `--example e`) or its prose names (`path/to/file.rs`): a
//!   literal given to a field or constant named for that length,
//! or listed in `ALLOWED` with a one-line reason (the paper's run, another
//! section's run referred to by name, a superseded run). A listed entry
//! that no longer matches a stated length fails, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use super::root;
use super::run_log::{assert_lengths_stated, lengths_set, lengths_stated, Length};

/// A run length stated in the document that no file of its section sets.
pub struct Allowed {
    /// The section's heading line, as written.
    pub heading: &'static str,
    /// The phrase as `lengths_stated` returns it.
    pub written: &'static str,
    pub reason: &'static str,
    /// The heading of the section whose run the phrase refers to, when it
    /// does: that section's files must set the length (a phrase no file
    /// sets has `None`).
    pub refers_to: Option<&'static str>,
}

const FIG5_001: &str = "## 001_… Fig. 5: traditional router (TR, FIFO) vs MediaWorm (MR, FGVC), 80:20";
const COUPLED_EQ5: &str = "#### The coupled source row with the blocking chained, and g = 64, K = 4 over 40 seeds (issue 22)";
const COUPLED_BACKWARDS: &str = "#### The source link coupled backwards (issue 22)";
const K2_LINK: &str = "#### The K ≥ 2 source link, message by message (issue 22)";
const RECORDS: &str = "#### Records: the deadline rule's level against run length (issue 23)";
const G64_NEIGHBOURS: &str = "#### The g = 64 excess at K = 3 and 8 over 40 seeds (issue 22)";

pub const ALLOWED: &[Allowed] = &[
    Allowed { heading: "# Reproduced experiments", written: "0.2 s simulated", reason: "the common setup of 001_…'s runs, Fig. 5's", refers_to: Some(FIG5_001) },
    Allowed { heading: "# Reproduced experiments", written: "(2.5 M cycles),", reason: "the common setup's 0.2 s in 80 ns cycles", refers_to: Some(FIG5_001) },
    Allowed { heading: "# Reproduced experiments", written: "0.05 s warm-up,", reason: "the common setup of 001_…'s runs, Fig. 5's", refers_to: Some(FIG5_001) },
    Allowed { heading: "#### The K = 1 excess, message by message (issue 22)", written: "20 seeds", reason: "\"the next section measures them over 20 seeds\"", refers_to: Some(K2_LINK) },
    Allowed { heading: "#### The hypercube's tandem row link by link (issue 22)", written: "20 seeds:", reason: "`onoff_klink_trace`'s seeds", refers_to: Some(K2_LINK) },
    Allowed { heading: "## Not reproduced yet", written: "20 seeds", reason: "the summary quotes the K ≥ 2 section's runs by name", refers_to: Some(K2_LINK) },
    Allowed {
        heading: COUPLED_EQ5,
        written: "20 seeds,",
        reason: "the gap over seeds 1 to 20, the run of \"The source link coupled backwards\"",
        refers_to: Some(COUPLED_BACKWARDS),
    },
    Allowed { heading: COUPLED_EQ5, written: "38 seeds", reason: "not a run length: the 40 seeds' draws the model solves (two are `not modelled`)", refers_to: None },
    Allowed { heading: "#### K = 14: the fluid queue without eigenvalues (issue 22)", written: "20 seeds", reason: "the forward tandem's (`onoff_klink_trace`) seeds", refers_to: Some(K2_LINK) },
    Allowed { heading: G64_NEIGHBOURS, written: "20 seeds;", reason: "the K = 4 excess over seeds 1 to 20, the run of \"The source link coupled backwards\"", refers_to: Some(COUPLED_BACKWARDS) },
    Allowed { heading: "## Not reproduced yet", written: "40 seeds):", reason: "the summary quotes the g = 64 neighbours' run by name", refers_to: Some(G64_NEIGHBOURS) },
    Allowed { heading: "## Not reproduced yet", written: "phase of 6 s,", reason: "the summary quotes the Records section's longest phase by name", refers_to: Some(RECORDS) },
    Allowed {
        heading: "## 001_… Figs 11 and 12: MPEG-2 video traffic",
        written: "0.15 s measured;",
        reason: "the measured part of `fig11_001`'s 0.2 s runs after their 0.05 s warm-up (a difference of two lengths the files set)",
        refers_to: None,
    },
];

/// A heading and the text under it up to the next heading, split into its
/// prose (outside code blocks) and its code blocks.
pub struct Section {
    pub heading: String,
    pub level: usize,
    /// 1-based line of the heading (0 for the text before the first).
    pub line: usize,
    /// Index of the nearest section above of a lower level.
    pub parent: Option<usize>,
    pub prose: String,
    pub code: String,
}

/// The sections of `doc`; a `#` line inside a code block is a comment.
pub fn sections(doc: &str) -> Vec<Section> {
    let mut out = vec![Section { heading: String::new(), level: 0, line: 0, parent: None, prose: String::new(), code: String::new() }];
    let mut in_code = false;
    for (i, line) in doc.lines().enumerate() {
        let cur = out.len() - 1;
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code {
            out[cur].code.push_str(line);
            out[cur].code.push('\n');
        } else if line.starts_with('#') {
            let level = line.chars().take_while(|c| *c == '#').count();
            let mut parent = Some(cur);
            while let Some(p) = parent.filter(|&p| out[p].level >= level) {
                parent = out[p].parent;
            }
            out.push(Section { heading: line.to_string(), level, line: i + 1, parent, prose: String::new(), code: String::new() });
        } else {
            out[cur].prose.push_str(line);
            out[cur].prose.push('\n');
        }
    }
    out
}

/// The experiment files (paths from the repository root) that `text`
/// names, of those in `experiments/`.
pub fn experiments_named(text: &str, existing: &BTreeSet<String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let token = |c: char| c.is_ascii_alphanumeric() || "_./*…-".contains(c);
    for raw in text.split(|c: char| !token(c)) {
        let w = raw.trim_matches(|c: char| c == '.' || c == '-').replace('…', "*");
        let base = w.trim_end_matches(".toml").rsplit('/').next().unwrap_or_default().to_string();
        // A name has a `_` or is written as a path or a `.toml` (a bare
        // word such as `x` or `cap` is prose).
        if base.is_empty() || !(base.contains('_') || w.contains('/') || w.ends_with(".toml")) {
            continue;
        }
        let candidates = [base.clone(), base.strip_prefix("model_").unwrap_or_default().to_string()];
        for name in existing {
            if candidates.iter().any(|c| !c.is_empty() && glob(c, name)) {
                named.insert(format!("experiments/{name}.toml"));
            }
        }
    }
    named
}

/// Whether `name` matches `pattern`, where `*` stands for any text; a
/// pattern of a bare `*` matches nothing (it names no file).
fn glob(pattern: &str, name: &str) -> bool {
    if !pattern.contains('*') {
        return pattern == name;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.iter().all(|p| p.len() < 3) {
        return false;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name.ends_with(last) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

/// Every length `experiment` sets (`run_log::lengths_set`) and what they
/// imply: a phased run lasts `phases × phase_seconds`; a length in seconds
/// is also one in cycles of `flit_width / link_mbps` µs.
pub fn lengths_implied(experiment: &str) -> Vec<(Length, f64)> {
    static MEMO: Memo = Memo::new();
    memo(&MEMO, experiment, || lengths_implied_parsed(experiment))
}

/// A process-wide memo of a committed file's lengths by its path: the
/// checks ask again for every section that names the file and every
/// section nested in one (two thirds of their time before). The files do
/// not change while the tests run.
type Memo = std::sync::OnceLock<std::sync::Mutex<HashMap<String, Vec<(Length, f64)>>>>;

fn memo(cache: &Memo, path: &str, parse: impl FnOnce() -> Vec<(Length, f64)>) -> Vec<(Length, f64)> {
    let map = cache.get_or_init(Default::default);
    if let Some(v) = map.lock().unwrap().get(path) {
        return v.clone();
    }
    let v = parse();
    map.lock().unwrap().entry(path.to_string()).or_insert(v).clone()
}

/// The lengths a source file sets (`lengths_in_source`) and passes in
/// calls (`lengths_in_calls`).
pub fn source_lengths(path: &str) -> Vec<(Length, f64)> {
    static MEMO: Memo = Memo::new();
    memo(&MEMO, path, || {
        let source = std::fs::read_to_string(root().join(path)).unwrap();
        let mut set = lengths_in_source(&source);
        set.extend(lengths_in_calls(&source));
        set
    })
}

fn lengths_implied_parsed(experiment: &str) -> Vec<(Length, f64)> {
    let mut set = lengths_set(experiment);
    let text = std::fs::read_to_string(root().join(experiment)).unwrap();
    let t: toml::Table = toml::from_str(&text).unwrap();
    let num = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let phases = t.get("workload").and_then(|w| w.get("phases")).and_then(|p| p.as_array()).map_or(0, Vec::len);
    let phase_seconds: Vec<f64> = set.iter().filter(|(l, _)| *l == Length::PhaseSeconds).map(|(_, x)| *x).collect();
    set.extend(phase_seconds.iter().map(|p| (Length::Seconds, p * phases as f64)));
    let flit = t.get("router").and_then(|r| r.get("flit_width")).and_then(num);
    let mbps = t.get("physical").and_then(|p| p.get("link_mbps")).and_then(num);
    if let (Some(flit), Some(mbps)) = (flit, mbps) {
        let cycles_per_second = mbps * 1e6 / flit;
        let seconds: Vec<(Length, f64)> = set.iter().filter(|(l, _)| matches!(l, Length::Seconds | Length::WarmupSeconds)).copied().collect();
        for (l, s) in seconds {
            let as_cycles = if l == Length::Seconds { Length::Cycles } else { Length::WarmupCycles };
            set.push((as_cycles, (s * cycles_per_second).round()));
        }
    }
    set
}

/// The source files (paths from the repository root) that `code` runs
/// (`--test t`, `--example e`: any `tests/t.rs` or `examples/e.rs` of the
/// workspace) and `prose` names (a path ending in `.rs` that exists, or a
/// test or example function of `fns`, which maps a function's name to its
/// file).
pub fn sources_named(code: &str, prose: &str, files: &[String], fns: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let words: Vec<&str> = code.split_whitespace().collect();
    for pair in words.windows(2) {
        let dir = match pair[0] {
            "--test" => "tests",
            "--example" => "examples",
            _ => continue,
        };
        let file = format!("{dir}/{}.rs", pair[1]);
        named.extend(files.iter().filter(|f| f.ends_with(&format!("/{file}")) || **f == file).cloned());
    }
    for w in prose.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c))) {
        if w.ends_with(".rs") && files.iter().any(|f| f == w) {
            named.insert(w.to_string());
        }
        if let Some(f) = fns.get(w) {
            named.insert(f.clone());
        }
    }
    named
}

/// The length a field or constant named `name` holds, by its name.
fn length_named(name: &str) -> Option<Length> {
    let n = name.to_ascii_lowercase();
    let warm = n.contains("warmup") || n.contains("warm_up");
    let secs = n.ends_with("seconds") || n.ends_with("secs") || n.ends_with("_s");
    if n.ends_with("seeds") {
        Some(Length::Seeds)
    } else if n.ends_with("replications") {
        Some(Length::Replications)
    } else if n.contains("phase") && secs {
        Some(Length::PhaseSeconds)
    } else if warm && secs {
        Some(Length::WarmupSeconds)
    } else if warm && n.contains("cycles") {
        Some(Length::WarmupCycles)
    } else if n.ends_with("cycles") {
        Some(Length::Cycles)
    } else if secs {
        Some(Length::Seconds)
    } else {
        None
    }
}

/// The lengths `source` sets: a literal after a name `length_named`
/// knows and `:`, `=` or `: <type> =` (`cycles: 400_000`, `const
/// WARMUP_CYCLES: u64 = 20_000;`, `run.seconds = 0.6` in a TOML string).
pub fn lengths_in_source(source: &str) -> Vec<(Length, f64)> {
    let mut set = Vec::new();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !ident(chars[i]) || (i > 0 && ident(chars[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && ident(chars[i]) {
            i += 1;
        }
        let name: String = chars[start..i].iter().collect();
        let Some(length) = length_named(&name) else { continue };
        // `: <type> =`, `:` or `=`, then the literal.
        let rest: String = chars[i..chars.len().min(i + 60)].iter().collect();
        let rest = rest.trim_start();
        let after = if let Some(r) = rest.strip_prefix(':') {
            let r = r.trim_start();
            match r.find('=') {
                Some(eq) if r[..eq].trim().chars().all(ident) && !r[..eq].trim().is_empty() => &r[eq + 1..],
                _ => r,
            }
        } else if let Some(r) = rest.strip_prefix('=').filter(|r| !r.starts_with('=')) {
            r
        } else {
            continue;
        };
        let literal: String = after.trim_start().chars().take_while(|c| c.is_ascii_digit() || "._eE".contains(*c)).collect();
        if let Ok(x) = literal.replace('_', "").trim_end_matches('.').parse::<f64>() {
            set.push((length, x));
        }
    }
    set
}

/// The top-level comma-separated parts of the text after an opening
/// parenthesis, up to its closing one.
fn arguments(after_paren: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0usize, 0usize, Vec::new());
    for (i, c) in after_paren.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => {
                parts.push(after_paren[start..i].trim());
                return parts;
            }
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(after_paren[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    Vec::new()
}

/// A numeric literal as Rust writes it (`400_000`, `0.6`, `1e6`).
fn literal(text: &str) -> Option<f64> {
    let t = text.trim().trim_end_matches("u64").trim_end_matches("f64").replace('_', "");
    (!t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || ".eE".contains(c))).then(|| t.parse().ok()).flatten()
}

/// The lengths `source` passes by position: for each `fn f(…, cycles: u64,
/// …)` of `source` with a parameter `length_named` knows, the literal at
/// that position of each call `f(…)` (`torus(0.07, 30_000)`).
pub fn lengths_in_calls(source: &str) -> Vec<(Length, f64)> {
    let mut params = Vec::new();
    for def in source.split("fn ").skip(1) {
        let name: String = def.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let Some(open) = def[name.len()..].strip_prefix('(') else { continue };
        for (i, p) in arguments(open).iter().enumerate() {
            if let Some(l) = p.split(':').next().and_then(|n| length_named(n.trim().trim_start_matches("mut "))) {
                params.push((name.clone(), i, l));
            }
        }
    }
    let mut set = Vec::new();
    for (name, i, l) in params {
        let call = format!("{name}(");
        for (at, _) in source.match_indices(&call) {
            let before = source[..at].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') || source[..at].ends_with("fn ") {
                continue;
            }
            if let Some(x) = arguments(&source[at + call.len()..]).get(i).and_then(|a| literal(a)) {
                set.push((l, x));
            }
        }
    }
    set
}

/// The lengths the options of `code`'s commands set: `--cycles N`,
/// `--seeds N` (the trace examples' options).
pub fn lengths_in_options(code: &str) -> Vec<(Length, f64)> {
    let words: Vec<&str> = code.split_whitespace().collect();
    let mut set = Vec::new();
    for pair in words.windows(2) {
        let length = match pair[0] {
            "--cycles" => Length::Cycles,
            "--seeds" => Length::Seeds,
            _ => continue,
        };
        if let Ok(x) = pair[1].replace(['_', ','], "").parse::<f64>() {
            set.push((length, x));
        }
    }
    set
}

/// Every `.rs` file of the workspace (paths from the root), outside
/// `target` and hidden folders.
fn rust_files() -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with('.') || name == "target" || name == "rtl_out" || name == "experiments" {
                continue;
            }
            if p.is_dir() {
                walk(&p, base, out);
            } else if name.ends_with(".rs") {
                out.push(p.strip_prefix(base).unwrap().to_string_lossy().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &root(), &mut out);
    out.sort();
    out
}

/// The `#[test]` functions of the workspace, by name (a name two files
/// define maps to neither: it names no one file). Helpers are left out:
/// their names (`mesh`, `route_vcs`) are also the prose's words.
fn test_functions(files: &[String]) -> BTreeMap<String, String> {
    let mut fns: BTreeMap<String, Option<String>> = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(root().join(f)).unwrap();
        for test in text.split("#[test]").skip(1) {
            let Some(rest) = test.split("fn ").nth(1) else { continue };
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                let entry = fns.entry(name).or_insert_with(|| Some(f.clone()));
                if entry.as_deref() != Some(f.as_str()) {
                    *entry = None;
                }
            }
        }
    }
    fns.into_iter().filter_map(|(n, f)| Some((n, f?))).collect()
}

/// One stated length and whether a file of its section sets it.
pub struct Checked {
    pub heading: String,
    pub line: usize,
    pub length: Length,
    pub written: String,
    pub value: f64,
    pub set_by: Option<String>,
    /// Whether `set_by` is a file of the section `ALLOWED` says the phrase
    /// refers to, not of its own.
    pub elsewhere: bool,
}

/// What the files of the workspace name: the experiment files, the Rust
/// files and the test and example functions.
pub struct Workspace {
    pub experiments: BTreeSet<String>,
    pub files: Vec<String>,
    pub fns: BTreeMap<String, String>,
}

impl Workspace {
    pub fn read() -> Workspace {
        let experiments = std::fs::read_dir(root().join("experiments"))
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_string_lossy().strip_suffix(".toml").map(str::to_string))
            .collect();
        let files = rust_files();
        let fns = test_functions(&files);
        Workspace { experiments, files, fns }
    }

    /// The lengths the files of section `k` and of its parents below the
    /// document's title (whose intro names files of every section) set, by
    /// file.
    pub fn setters(&self, secs: &[Section], k: usize) -> Vec<(String, Vec<(Length, f64)>)> {
        let mut setters = Vec::new();
        let mut at = Some(k).filter(|&k| secs[k].level >= 2);
        while let Some(i) = at.filter(|&i| secs[i].level >= 2) {
            setters.extend(self.own_setters(&secs[i]));
            at = secs[i].parent;
        }
        setters
    }

    /// The lengths the files `section` itself names set, by file.
    pub fn own_setters(&self, section: &Section) -> Vec<(String, Vec<(Length, f64)>)> {
        let mut setters = Vec::new();
        let text = format!("{}\n{}\n{}", section.heading, section.prose, section.code);
        for e in experiments_named(&text, &self.experiments) {
            setters.push((e.clone(), lengths_implied(&e)));
        }
        // Options (`--seeds 20`) and settings (`sed "s/…/pcs_replications
        // = 10/"`) of the section's commands.
        let mut commands = lengths_in_options(&section.code);
        commands.extend(lengths_in_source(&section.code));
        setters.push((format!("the commands under {}", section.heading), commands));
        for f in sources_named(&section.code, &section.prose, &self.files, &self.fns) {
            let set = source_lengths(&f);
            setters.push((f, set));
        }
        setters
    }
}

/// The first setter of `setters` that sets `value` as `length`.
fn set_by(setters: &[(String, Vec<(Length, f64)>)], length: Length, value: f64) -> Option<String> {
    let same = |&(l, v): &(Length, f64)| l == length && (v - value).abs() <= 1e-9 * v.abs().max(1.0);
    setters.iter().find(|(_, set)| set.iter().any(same)).map(|(f, _)| f.clone())
}

/// Every run length `doc` states, with the file of its section that sets
/// it, if one does; a length `ALLOWED` refers to another section is set by
/// that section's files or not at all.
pub fn check(doc: &str) -> Vec<Checked> {
    let ws = Workspace::read();
    let secs = sections(doc);
    let mut out = Vec::new();
    for (k, s) in secs.iter().enumerate() {
        let stated = lengths_stated(&s.prose);
        if stated.is_empty() {
            continue;
        }
        let setters = ws.setters(&secs, k);
        for (length, written, value) in stated {
            let mut by = set_by(&setters, length, value);
            let other = ALLOWED.iter().find(|a| a.heading == s.heading && a.written == written).filter(|_| by.is_none()).and_then(|a| a.refers_to);
            if let Some(other) = other {
                let j = secs.iter().position(|t| t.heading == other).unwrap_or_else(|| panic!("ALLOWED refers to a missing section {other:?}"));
                by = set_by(&ws.setters(&secs, j), length, value);
            }
            out.push(Checked { heading: s.heading.clone(), line: s.line, length, written, value, set_by: by, elsewhere: other.is_some() });
        }
    }
    out
}

#[test]
fn every_run_length_is_set_by_a_file_of_its_section_or_listed() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let checked = check(&doc);
    let listed = |c: &Checked| ALLOWED.iter().find(|a| a.heading == c.heading && a.written == c.written);
    let mut errors = Vec::new();
    for c in checked.iter().filter(|c| c.set_by.is_none() && listed(c).is_none_or(|a| a.refers_to.is_some())) {
        let whose = listed(c).and_then(|a| a.refers_to).unwrap_or("the section");
        errors.push(format!("the section at line {} ({}): \"{}\" ({:?} = {}) is set by no experiment or source file of {whose}", c.line, c.heading, c.written, c.length, c.value));
    }
    for a in ALLOWED {
        if a.reason.trim().is_empty() {
            errors.push(format!("ALLOWED entry {:?} / {:?} has no reason", a.heading, a.written));
        }
        if !checked.iter().filter(|c| c.set_by.is_none() || c.elsewhere).any(|c| c.heading == a.heading && c.written == a.written) {
            errors.push(format!("ALLOWED entry {:?} / {:?} matches no unset run length (remove it)", a.heading, a.written));
        }
    }
    // RUN_LENGTHS_LIST=1 prints every length read and the file that sets it.
    if std::env::var_os("RUN_LENGTHS_LIST").is_some() {
        for c in &checked {
            eprintln!("{} | {} | {:?} {} | {:?}", c.line, c.written, c.length, c.value, c.set_by);
        }
    }
    let elsewhere = checked.iter().filter(|c| c.elsewhere && c.set_by.is_some()).count();
    let unset = checked.iter().filter(|c| c.set_by.is_none()).count();
    let own = checked.len() - elsewhere - unset;
    eprintln!("{} run lengths: {own} set by a file of their section, {elsewhere} listed and set by the section they refer to, {unset} listed and set by no file", checked.len());
    assert!(errors.is_empty(), "{} run-length mismatches:\n{}", errors.len(), errors.join("\n"));
    // The intro quotes these counts.
    let quoted = format!("{} read, {own} set by their own section, {elsewhere} listed as another section's run and set by that section's files, {unset} listed and set by no file", checked.len());
    let words = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(&quoted), "the intro of docs/reproduction.md should read \"{quoted}\"");
    // Not vacuous: the document states 200 run lengths (2026-11-29), 189
    // set by a file of their own section; losing many means the parsing or
    // the naming broke.
    assert!(checked.len() >= 190 && own >= 180, "only {} run lengths read, {own} set by their section", checked.len());
}

#[test]
fn the_run_length_parsing_by_hand() {
    // The phrase forms this check added to `lengths_stated`, and words it
    // must not read ("44.4 cycles", "96 cycles each", "load 0.15 (seeds
    // 1 to 10)", "5 s running", "0.6 s of traffic").
    let text = "0.35 s simulated; 70 ms phases, the 0.6 s phases; a 0.15 s phase holds; 80:20 of 70 ms each; 40 ms runs; \
         12 points of 400 k cycles each; 3.0 s in all; 0.2 s with 0.05 s warm-up; 0.7 s after a 35 ms warm-up; \
         run for 0.5 s; for 0.4 s, 0.1 s of it warm-up; five phases for 0.04 s each, 80:20 for 0.07 s each; \
         8 points × 10 seeds × 2 M cycles; 100,000 cycles (10,000 warm-up); the 160 k-cycle point; \
         20 seeds, 1,000 replications; 44.4 cycles, 96 cycles each, load 0.15 (seeds 1 to 10), 5 s running, 0.6 s of traffic; \
         best effort 20 %, 0.2 s, seed 1; the full 0.75 s, 2026; full run (0.75 s, 1 point; later phases (0.6 s) against; \
         one phase up to 6 s. (same routers, 70 ms phases, default regulator, 0.35 s) with; | NP, 0.9, 0.6 s | 5.1 |; \
         the 0.15 s measured; the 0.15 s NP and P runs; 0.038 at 0.06 in 160 k, and; 160 k cycles instead of 40 k; steady phase of 6 s, \
         not 5.2 s and 8.6 s of one steady phase, (18 frames, 3.0 s) nor | 0.6 | 17.0 | nor 2 M messages in 4 k";
    let want = [
        (Length::Seconds, 0.35),
        (Length::PhaseSeconds, 0.07),
        (Length::PhaseSeconds, 0.6),
        (Length::PhaseSeconds, 0.15),
        (Length::PhaseSeconds, 0.07),
        (Length::Seconds, 0.04),
        (Length::Cycles, 400e3),
        (Length::Seconds, 3.0),
        (Length::Seconds, 0.2),
        (Length::WarmupSeconds, 0.05),
        (Length::Seconds, 0.7),
        (Length::WarmupSeconds, 0.035),
        (Length::Seconds, 0.5),
        (Length::Seconds, 0.4),
        (Length::WarmupSeconds, 0.1),
        (Length::PhaseSeconds, 0.04),
        (Length::PhaseSeconds, 0.07),
        (Length::Seeds, 10.0),
        (Length::Cycles, 2e6),
        (Length::Cycles, 100e3),
        (Length::WarmupCycles, 10e3),
        (Length::Cycles, 160e3),
        (Length::Seeds, 20.0),
        (Length::Replications, 1000.0),
        // The forms issue 23 added: a run before its seed, "the full",
        // "full run (", a phase in parentheses, "phase up to", a run
        // closing a list of its phases, a table row's phase, "measured",
        // runs named by their phase, a bare "in"/"instead of" k, "phase
        // of"; "for 0.4 s, 0.1 s of it warm-up" reads the run too.
        (Length::Seconds, 0.2),
        (Length::Seconds, 0.75),
        (Length::Seconds, 0.75),
        (Length::PhaseSeconds, 0.6),
        (Length::PhaseSeconds, 6.0),
        (Length::PhaseSeconds, 0.07),
        (Length::Seconds, 0.35),
        (Length::PhaseSeconds, 0.6),
        (Length::Seconds, 0.15),
        (Length::PhaseSeconds, 0.15),
        (Length::Cycles, 160e3),
        (Length::Cycles, 160e3),
        (Length::Cycles, 40e3),
        (Length::PhaseSeconds, 6.0),
    ];
    assert_lengths_stated(text, &want);
    assert_eq!(lengths_stated(text)[1].1, "70 ms phases,");
    // Sections: a `#` comment in a code block is no heading; a `###` under
    // a `##` has it as parent, the next `##` has the document's start.
    let doc = "intro\n## A\ntext a\n```sh\n# comment\nnetsim sweep\n```\n### A.1\ntext b\n## B\n";
    let s = sections(doc);
    let shape: Vec<(&str, usize, Option<usize>)> = s.iter().map(|s| (s.heading.as_str(), s.line, s.parent)).collect();
    assert_eq!(shape, vec![("", 0, None), ("## A", 2, Some(0)), ("### A.1", 8, Some(1)), ("## B", 10, Some(0))]);
    assert_eq!((s[1].prose.as_str(), s[1].code.as_str()), ("text a\n", "# comment\nnetsim sweep\n"));
    // Names: a path, a bare `.toml`, a results folder, `model_` and a glob.
    let existing: BTreeSet<String> = ["fig4_003", "fig4_003_cap", "fig4_003_short2_np", "torus_002", "x"].iter().map(|s| s.to_string()).collect();
    let named = experiments_named("runs `experiments/fig4_003.toml`, `results/model_torus_002`, the `…_short2_*` runs, `x` and *.", &existing);
    let want: BTreeSet<String> = ["fig4_003", "fig4_003_short2_np", "torus_002"].iter().map(|n| format!("experiments/{n}.toml")).collect();
    assert_eq!(named, want, "a bare word without `_` is no name");
    // Sources: the literal after a length's name, in Rust and in TOML text.
    let src = "const WARMUP_CYCLES: u64 = 20_000;\nlet cfg = Run { cycles: 400_000, seconds: 0.6 };\n\"run.phase_seconds = 0.07\"\nif cycles == 3 {}\nlet load_s = x;";
    let got = lengths_in_source(src);
    let want = vec![(Length::WarmupCycles, 20e3), (Length::Cycles, 400e3), (Length::Seconds, 0.6), (Length::PhaseSeconds, 0.07)];
    assert_eq!(got, want);
    let calls = "fn torus(load: f64, cycles: u64) -> String { todo!() }\nlet a = torus(0.07, 30_000);\nlet b = torus(f(1, 2), 8_000);\nlet c = torus(0.1, n);\nfn other(seconds: f64) {}\nmy_torus(0.1, 5);";
    assert_eq!(lengths_in_calls(calls), vec![(Length::Cycles, 30e3), (Length::Cycles, 8e3)]);
}

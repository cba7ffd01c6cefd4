//! Which file each run length of `docs/reproduction.md` belongs to (issue
//! 23 item 3). `run_lengths.rs` accepts a stated length when ANY file of
//! its section sets it, so where a section names several files a sentence
//! can quote one file's length for another's run and pass. This check
//! binds each length to a file:
//! - where its sentence, list item or table cell names a file (an
//!   experiment file, a results folder, `model_x`, a test or example), the
//!   name nearest the length: that file must set it (or a command line of
//!   the section that edits or runs that file: `sed … x.toml`, `--experiment
//!   x.toml --cycles N`);
//! - where it names none and every file of the section that sets a length
//!   of that kind sets this value, the length is the same whichever run
//!   the text means (`run_lengths.rs` fails it if edited);
//! - otherwise (files of the section set the kind to different values and
//!   the text names none) it fails: the sentence must name its file.

use std::collections::BTreeSet;

use super::run_lengths::{experiments_named, lengths_implied, lengths_in_options, lengths_in_source, sections, sources_named, Section, Workspace, ALLOWED};
use super::run_log::{lengths_stated_at, Length};
use super::root;

/// A run length whose sentence names no file, and the file (or results
/// folder) it belongs to, read from the text by hand.
pub struct Attributed {
    /// The section's heading line, as written.
    pub heading: &'static str,
    /// The phrase as `lengths_stated` returns it (every occurrence in the
    /// section).
    pub written: &'static str,
    pub file: &'static str,
    /// What in the text says so.
    pub why: &'static str,
}

const RECORDS: &str = "#### Records: the deadline rule's level against run length (issue 23)";
const MPEG2: &str = "## 001_… Figs 11 and 12: MPEG-2 video traffic";
const FIG4B: &str = "### 000_… Fig. 4(b): best-effort load varied, model beside simulation";
const TORUS_L3: &str = "### 002_…'s unidirectional torus with L = 3: a real deadlock (issue 22)";
const K2_LINK: &str = "#### The K ≥ 2 source link, message by message (issue 22)";
const HEAVIEST: &str = "### 002_… Fig. 1: the heaviest points, four times longer";
const TABLE6: &str = "## 001_… Fig. 10 and Table VI: MediaWorm vs a PCS router (model-only PCS)";

/// Every length that one file of its section sets and others set
/// differently, where the text names none (`Binding::Sole`), and lengths
/// whose only setter in the section is not their run.
pub const ATTRIBUTED: &[Attributed] = &[
    Attributed { heading: "### Issue 23 item 1: the frame, regulator and deadline model, re-derived from the papers", written: "phase up to 6 s.", file: "experiments/fig4_003_records_6p0.toml", why: "\"*Records: …*, below, … runs one phase up to 6 s\"" },
    Attributed { heading: RECORDS, written: "phase of 6 s:", file: "experiments/fig4_003_records_6p0.toml", why: "the section's one steady 6 s phase" },
    Attributed { heading: MPEG2, written: "0.5 s runs", file: "sim/netsim/tests/mpeg2_backlog_001.rs", why: "\"the 0.5 s runs below\": the what-if runs of the MR point" },
    Attributed { heading: MPEG2, written: "run for 0.5 s", file: "sim/netsim/tests/mpeg2_backlog_001.rs", why: "\"The same MR multiplexed point at 0.8, seed 1, run for 0.5 s\"" },
    Attributed { heading: FIG4B, written: "400 k cycles", file: "experiments/fig4b_000_no_be.toml", why: "\"Real time alone (`fig4b_000_no_be`: …), runs of 400 k cycles\"" },
    Attributed { heading: FIG4B, written: "(400 k-cycle", file: "experiments/fig4b_000_no_be.toml", why: "\"without any best effort … (400 k-cycle run\"" },
    Attributed { heading: TORUS_L3, written: "40 k cycles,", file: "experiments/torus_002_8x8x8.toml", why: "\"0.039 and 0.064 on 8 × 8 × 8 in 40 k cycles\"" },
    Attributed { heading: TORUS_L3, written: "40 k cycles);", file: "experiments/torus_002_16x16_long.toml", why: "\"on 16 × 16 the 160 k-cycle point … (it carried the load over 40 k cycles)\"" },
    Attributed { heading: K2_LINK, written: "4 M cycles,", file: "experiments/results/onoff_klink_trace", why: "the wall time of the block's one trace (`--cycles 4000000`)" },
    Attributed { heading: K2_LINK, written: "4 M cycles", file: "experiments/results/onoff_klink_trace", why: "\"Over 20 seeds of 4 M cycles\": the block's trace" },
    Attributed { heading: "#### Tandem links on 16 ports (issue 22)", written: "2 M cycles,", file: "experiments/results/onoff_klink_trace_16port", why: "the wall time of the block's one trace (`--cycles 2000000`)" },
    Attributed { heading: "#### The source link coupled backwards (issue 22)", written: "10 seeds'", file: "experiments/results/onoff_klink_trace_16port", why: "\"the previous table\": *Tandem links on 16 ports*, `--seeds 10`" },
    Attributed { heading: HEAVIEST, written: "instead of 40 k;", file: "experiments/torus_002_8x8x8.toml", why: "the 8 × 8 × 8 points the heavy file reruns longer" },
    Attributed { heading: HEAVIEST, written: "40 k cycles", file: "experiments/torus_002_8x8x8.toml", why: "the 8 × 8 × 8 table's \"40 k cycles (above)\" column" },
    Attributed { heading: HEAVIEST, written: "40 k-cycle", file: "experiments/torus_002_16x16_long.toml", why: "the 16 × 16 table's \"40 k-cycle value in brackets\" and \"its 40 k-cycle error\"" },
    Attributed { heading: TABLE6, written: "1,000 replications", file: "experiments/table6_001_pcs.toml", why: "\"Table VI 1,000 replications per row\"" },
    Attributed { heading: TABLE6, written: "1,000 replications;", file: "experiments/table6_001_pcs.toml", why: "Table VI's \"mean ± 95 % half-width over 1,000 replications\"" },
];

/// The unit of each word of `prose` (by `split_whitespace`): a sentence,
/// list item or table cell. A blank line, a line starting a list item or
/// a table row, a `|`, a word ending a sentence and a `;` (which joins
/// clauses that could be sentences) close one.
pub fn units(prose: &str) -> Vec<usize> {
    let mut unit = 0;
    let mut out = Vec::new();
    let mut closed = true;
    for line in prose.lines() {
        let t = line.trim_start();
        let item = t.starts_with("- ") || t.starts_with("* ") || t.starts_with('|') || t.split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if (t.is_empty() || item) && !closed {
            unit += 1;
            closed = true;
        }
        for w in t.split_whitespace() {
            if w == "|" || w.starts_with('|') {
                if !closed {
                    unit += 1;
                }
                closed = true;
                // A `|` word is no cell's word; give it the next unit.
                out.push(unit);
                continue;
            }
            out.push(unit);
            closed = false;
            if ends_sentence(w) || w.ends_with(';') {
                unit += 1;
                closed = true;
            }
        }
    }
    out
}

/// For each word, the index of the word closing the parenthesis it is
/// in (the innermost), if it is in one: a name in an aside that closes
/// before a length does not name the length's file ("runs of 400 k cycles"
/// after "(`x`: `y` at load 0.24)").
pub fn asides(words: &[&str]) -> Vec<Option<usize>> {
    let mut out = vec![None; words.len()];
    let mut open: Vec<usize> = Vec::new();
    for (j, w) in words.iter().enumerate() {
        open.extend(std::iter::repeat(j).take(w.matches('(').count()));
        for _ in 0..w.matches(')').count() {
            if let Some(start) = open.pop() {
                for slot in &mut out[start..=j] {
                    slot.get_or_insert(j);
                }
            }
        }
    }
    out
}

/// Whether word `w` ends a sentence: a `.`, `?` or `!` at its end (before
/// closing quotes and brackets), not an abbreviation ("Fig.", "e.g.",
/// "vs.", an initial).
fn ends_sentence(w: &str) -> bool {
    let t = w.trim_end_matches(|c: char| ")]\"'`*_".contains(c));
    if !(t.ends_with('.') || t.ends_with('?') || t.ends_with('!')) {
        return false;
    }
    let stem = t.trim_start_matches(|c: char| "([\"'`*_".contains(c));
    let abbreviations = ["Fig.", "Figs.", "e.g.", "i.e.", "cf.", "vs.", "al.", "No.", "Eq.", "Eqs.", "Sec.", "Ref.", "p.", "pp.", "approx."];
    let initial = stem.len() == 2 && stem.starts_with(|c: char| c.is_ascii_uppercase());
    !(abbreviations.contains(&stem) || initial)
}

/// How a stated length is bound to a file.
#[derive(Debug, PartialEq)]
pub enum Binding {
    /// Its unit names files; the nearest names, and whether one of them
    /// sets the length.
    Named { files: BTreeSet<String>, sets: bool },
    /// Its unit names none, and every file of the section that sets a
    /// length of its kind sets this value.
    ByValue,
    /// Its unit names none, files of the section set the kind to
    /// different values, and several set this one: whichever of them the
    /// text means sets it.
    Shared { files: BTreeSet<String> },
    /// Its unit names none, files of the section set the kind to
    /// different values, and one sets this one: `ATTRIBUTED` must say the
    /// length is that file's (an edit to another file's value leaves the
    /// entry matching nothing).
    Sole { file: String },
    /// No file of the section sets it (`run_lengths.rs` fails it, or
    /// `ALLOWED` lists it).
    Unset,
}

/// One stated length and its binding.
pub struct Owned {
    pub heading: String,
    pub line: usize,
    pub written: String,
    pub length: Length,
    pub value: f64,
    /// How many files of the section (and its parents) set a length of
    /// this kind.
    pub setters: usize,
    pub binding: Binding,
    /// The sentence, list item or cell that states it.
    pub sentence: String,
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// The files and runs a section can name, and what each sets: the
/// section's (and its parents') experiment and source files
/// (`Workspace::own_setters`) and the command lines that run them.
struct Scope<'a> {
    ws: &'a Workspace,
    /// The setters of the section, then of each parent: files by name,
    /// command lines by the results folder they write (else their text).
    levels: Vec<Vec<(String, Vec<(Length, f64)>)>>,
    /// Each command line: the experiment files and results folders it
    /// names, and the lengths its options and `sed` settings set.
    lines: Vec<LineLengths>,
}

impl<'a> Scope<'a> {
    fn new(ws: &'a Workspace, secs: &[Section], k: usize) -> Scope<'a> {
        let (mut levels, mut lines) = (Vec::new(), Vec::new());
        let mut at = Some(k).filter(|&k| secs[k].level >= 2);
        while let Some(i) = at.filter(|&i| secs[i].level >= 2) {
            // The section's commands one line at a time, not lumped.
            let mut level: Vec<_> = ws.own_setters(&secs[i]).into_iter().filter(|(f, _)| !f.starts_with("the commands under")).collect();
            for line in command_lines(&secs[i].code) {
                let (files, folders, set) = line_lengths(&line, ws);
                if !set.is_empty() {
                    let name = match folders.iter().next() {
                        Some(f) if folders.len() == 1 => format!("experiments/results/{f}"),
                        _ => line.clone(),
                    };
                    level.push((name, set.clone()));
                }
                lines.push((files, folders, set));
            }
            levels.push(level);
            at = secs[i].parent;
        }
        Scope { ws, levels, lines }
    }

    /// Every file and command line of the document: where a length
    /// `ATTRIBUTED` gives to a run of another section is checked.
    fn whole(ws: &'a Workspace, secs: &[Section]) -> Scope<'a> {
        let (mut levels, mut lines) = (Vec::new(), Vec::new());
        for k in 0..secs.len() {
            let mut one = Scope::new(ws, secs, k);
            levels.extend(one.levels.drain(..1.min(one.levels.len())));
            lines.extend(command_lines(&secs[k].code).iter().map(|line| line_lengths(line, ws)));
        }
        Scope { ws, levels, lines }
    }

    /// The files and runs word `w` names: experiment files (by path,
    /// `.toml`, results folder, `model_x` or glob), test or example files
    /// (by path or a test function's name), and results folders the
    /// section's commands write (`experiments/results/x`).
    fn names_in(&self, w: &str) -> BTreeSet<String> {
        let mut named = experiments_named(w, &self.ws.experiments);
        named.extend(sources_named("", w, &self.ws.files, &self.ws.fns));
        for token in w.split(|c: char| !(c.is_ascii_alphanumeric() || "_/.-".contains(c))) {
            let base = token.trim_matches(|c: char| c == '.' || c == '/').rsplit('/').next().unwrap_or_default();
            if self.lines.iter().any(|(_, folders, _)| folders.contains(base)) {
                named.insert(format!("experiments/results/{base}"));
            }
        }
        named
    }

    /// Whether `name` (a file or a results folder `names_in` gives) sets
    /// `length` = `value`.
    fn sets(&self, name: &str, length: Length, value: f64) -> bool {
        self.sets_where(name, &|l, v| l == length && same(v, value))
    }

    /// Whether `name` sets any length of kind `length` (a file the
    /// sentence names for another reason, such as the NIC model's source,
    /// owns none of its lengths).
    fn sets_kind(&self, name: &str, length: Length) -> bool {
        self.sets_where(name, &|l, _| l == length)
    }

    /// Whether `name` sets a length `wanted` accepts: by its own lengths
    /// (a file; a test or example also by the experiment files it names,
    /// `experiment("x.toml")`) or by a command line that names it, whose
    /// options and settings override the lengths of the experiment files
    /// it runs.
    fn sets_where(&self, name: &str, wanted: &dyn Fn(Length, f64) -> bool) -> bool {
        let has = |set: &[(Length, f64)]| set.iter().any(|&(l, v)| wanted(l, v));
        if self.levels.iter().flatten().any(|(f, set)| f == name && has(set)) {
            return true;
        }
        if name.ends_with(".rs") {
            let source = std::fs::read_to_string(root().join(name)).unwrap_or_default();
            if experiments_named(&source, &self.ws.experiments).iter().any(|e| has(&lengths_implied(e))) {
                return true;
            }
        }
        let folder = name.strip_prefix("experiments/results/");
        self.lines.iter().any(|(files, folders, set)| {
            let names = folder.map_or(files.contains(name), |f| folders.contains(f));
            let kept: Vec<(Length, f64)> = files.iter().flat_map(|f| lengths_implied(f)).filter(|(l, _)| !set.iter().any(|(k, _)| k == l)).collect();
            names && (has(set) || has(&kept))
        })
    }

    /// The files and command lines of the section and its parents that
    /// set `length` = `value`.
    fn setting(&self, length: Length, value: f64) -> BTreeSet<String> {
        self.levels.iter().flatten().filter(|(_, set)| set.iter().any(|&(l, v)| l == length && same(v, value))).map(|(f, _)| f.clone()).collect()
    }

    /// The setters of a length of kind `length` at the nearest level (the
    /// section, else its parent, …) that has any, with their values.
    fn of_kind(&self, length: Length) -> Vec<(String, f64)> {
        self.levels
            .iter()
            .map(|level| level.iter().flat_map(|(f, set)| set.iter().filter(|(l, _)| *l == length).map(move |(_, v)| (f.clone(), *v))).collect::<Vec<_>>())
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }
}

/// Every run length of `doc` with its binding, except the ones `ALLOWED`
/// lists (another section's run, or no file's).
pub fn owners(doc: &str) -> Vec<Owned> {
    let ws = Workspace::read();
    let secs = sections(doc);
    let mut out = Vec::new();
    for (k, s) in secs.iter().enumerate() {
        let stated = lengths_stated_at(&s.prose);
        if stated.is_empty() {
            continue;
        }
        let scope = Scope::new(&ws, &secs, k);
        let words: Vec<&str> = s.prose.split_whitespace().collect();
        let unit = units(&s.prose);
        let aside = asides(&words);
        for (length, written, value, at) in stated {
            if ALLOWED.iter().any(|a| a.heading == s.heading && a.written == written) {
                continue;
            }
            let of_kind = scope.of_kind(length);
            let nfiles = of_kind.iter().map(|(f, _)| f).collect::<BTreeSet<_>>().len();
            let end = at + written.split_whitespace().count();
            // "instead of 40 k" is by its wording another run's than the
            // one the sentence names.
            let other_run = written.starts_with("instead");
            let nearest = (0..words.len())
                .filter(|&j| unit[j] == unit[at] && !other_run && !aside[j].is_some_and(|close| close < at))
                // A name after the length, past a comma, is the next
                // clause's ("`a` runs 0.07 s each, `b` 0.04 s each").
                .filter(|&j| j < end || !words[end - 1..j].iter().any(|w| w.ends_with(',') || w.ends_with(':')))
                .map(|j| (if j < at { at - j } else if j >= end { j + 1 - end } else { 0 }, scope.names_in(words[j])))
                .map(|(d, names)| (d, names.into_iter().filter(|n| scope.sets_kind(n, length)).collect::<BTreeSet<_>>()))
                .filter(|(_, n)| !n.is_empty())
                .min_by_key(|(d, _)| *d);
            let binding = match nearest {
                Some((_, files)) => {
                    let sets = files.iter().any(|f| scope.sets(f, length, value));
                    Binding::Named { files, sets }
                }
                None if of_kind.iter().all(|(_, v)| same(*v, value)) => Binding::ByValue,
                None => {
                    let files = scope.setting(length, value);
                    match files.len() {
                        0 => Binding::Unset,
                        1 => Binding::Sole { file: files.into_iter().next().unwrap() },
                        _ => Binding::Shared { files },
                    }
                }
            };
            let sentence = (0..words.len()).filter(|&j| unit[j] == unit[at]).map(|j| words[j]).collect::<Vec<_>>().join(" ");
            out.push(Owned { heading: s.heading.clone(), line: s.line, written, length, value, setters: nfiles, binding, sentence });
        }
    }
    out
}

/// A command line's experiment files, results folders, and the lengths
/// its options and `sed` settings set.
type LineLengths = (BTreeSet<String>, BTreeSet<String>, Vec<(Length, f64)>);

fn line_lengths(line: &str, ws: &Workspace) -> LineLengths {
    let mut set = lengths_in_options(line);
    set.extend(lengths_in_source(line));
    (experiments_named(line, &ws.experiments), folders_in(line), set)
}

/// The command lines of `code`, a `\\` continuation joined to its line.
pub fn command_lines(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in code.lines() {
        let t = line.trim();
        match t.strip_suffix('\\') {
            Some(head) => {
                cur.push_str(head);
                cur.push(' ');
            }
            None => {
                cur.push_str(t);
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    out
}

/// The results folders (`experiments/results/x`, by their last part) the
/// command lines of `code` write or read.
pub fn folders_in(code: &str) -> BTreeSet<String> {
    code.split(|c: char| c.is_whitespace() || "\"'`;>".contains(c))
        .filter_map(|w| w.trim_end_matches('/').strip_prefix("experiments/results/"))
        .filter(|f| !f.is_empty() && !f.contains('/') && !f.contains('$'))
        .map(str::to_string)
        .collect()
}
/// Every binding that fails, and the counts the intro quotes.
pub fn mismatches(doc: &str, owned: &[Owned]) -> Vec<String> {
    let ws = Workspace::read();
    let secs = sections(doc);
    let whole = Scope::whole(&ws, &secs);
    let listed = |o: &Owned| ATTRIBUTED.iter().find(|a| a.heading == o.heading && a.written == o.written);
    let mut errors = Vec::new();
    for o in owned {
        let at = format!("the section at line {} ({}): \"{}\" ({:?} = {})", o.line, o.heading, o.written, o.length, o.value);
        match (&o.binding, listed(o)) {
            (Binding::Named { files, sets: false }, _) => errors.push(format!("{at} is not set by {files:?}, the file its sentence names nearest it")),
            (Binding::Sole { file }, None) => errors.push(format!("{at}: only {file} of the section sets it and others set other values; name the file in the sentence or list the length in ATTRIBUTED")),
            (_, Some(a)) if !(whole.sets(a.file, o.length, o.value) || (a.file.ends_with(".toml") && lengths_implied(a.file).iter().any(|&(l, v)| l == o.length && same(v, o.value)))) => {
                errors.push(format!("{at} is attributed to {}, which does not set it", a.file))
            }
            _ => {}
        }
    }
    for a in ATTRIBUTED {
        if a.why.trim().is_empty() {
            errors.push(format!("ATTRIBUTED entry {:?} / {:?} has no reason", a.heading, a.written));
        }
        if !owned.iter().any(|o| o.heading == a.heading && o.written == a.written && !matches!(o.binding, Binding::Named { .. })) {
            errors.push(format!("ATTRIBUTED entry {:?} / {:?} matches no stated length its sentence leaves unnamed (remove it)", a.heading, a.written));
        }
    }
    errors
}

#[test]
fn every_run_length_names_its_file_or_is_the_same_in_all() {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let owned = owners(&doc);
    // RUN_LENGTH_OWNERS=1 prints every length, its binding and its sentence.
    if std::env::var_os("RUN_LENGTH_OWNERS").is_some() {
        for o in &owned {
            eprintln!("{} | {} | {} | {:?} {} | {} | {:?}\n    {}", o.line, o.heading, o.written, o.length, o.value, o.setters, o.binding, o.sentence);
        }
    }
    let errors = mismatches(&doc, &owned);
    let count = |f: &dyn Fn(&Binding) -> bool| owned.iter().filter(|o| f(&o.binding)).count();
    let named = count(&|b| matches!(b, Binding::Named { .. }));
    let by_value = count(&|b| matches!(b, Binding::ByValue));
    let shared = count(&|b| matches!(b, Binding::Shared { .. }));
    let attributed = owned.iter().filter(|o| ATTRIBUTED.iter().any(|a| a.heading == o.heading && a.written == o.written)).count();
    let several = owned.iter().filter(|o| o.setters >= 2).count();
    let quoted = format!(
        "of the {} not listed, {several} are in sections where two or more files set a length of their kind; {named} are bound to the file their sentence, list item or table cell names, {by_value} are set alike by every file of their kind, {shared} by several files where others set other values, and {attributed} are attributed by hand",
        owned.len()
    );
    eprintln!("{quoted}");
    assert!(errors.is_empty(), "{} run-length bindings fail:\n{}", errors.len(), errors.join("\n"));
    let words = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(&quoted), "the intro of docs/reproduction.md should read \"{quoted}\"");
    // Not vacuous: 192 lengths bound, 51 of them to a named file
    // (2026-11-29); losing many means the units or names broke.
    assert!(owned.len() >= 180 && named >= 45, "only {} lengths bound, {named} to a named file", owned.len());
}

#[test]
fn the_binding_by_hand() {
    // Units: a sentence, a `;` clause, a table cell; "Fig." ends none.
    // Words: As Fig. 4 shows. | b; | c | `|` d e | `|` f | `|` - g h (a
    // closing `|` opens a unit that names nothing; the list item after
    // it, already closed, shares it).
    assert_eq!(units("As Fig. 4 shows. b; c\n| d e | f |\n- g\nh"), vec![0, 0, 0, 0, 1, 2, 3, 3, 3, 4, 4, 5, 5, 5, 5]);
    // Asides: the word closing each word's innermost parenthesis.
    assert_eq!(asides(&["a", "(b", "(c)", "d)", "e"]), vec![None, Some(3), Some(2), Some(3), None]);
    // Two committed files, read by hand: `torus_002_8x8x8` sets 40,000
    // cycles, `torus_002_8x8x8_heavy` 160,000.
    let doc = "## S\n```sh\nnetsim sweep --experiment experiments/torus_002_8x8x8_heavy.toml --out experiments/results/a\n\
        netsim sweep --experiment experiments/torus_002_8x8x8.toml --out experiments/results/b\n```\n\
        `torus_002_8x8x8_heavy.toml` runs 40 k cycles per point. \
        `torus_002_8x8x8_heavy` runs 160 k cycles per point, `torus_002_8x8x8` 40 k cycles per point. \
        Then 160 k cycles per point. (`torus_002_8x8x8`: 40 k cycles per point.) \
        (`torus_002_8x8x8`) then 160 k cycles per point. `torus_002_8x8x8`; 40 k cycles per point.\n";
    let heavy = "experiments/torus_002_8x8x8_heavy.toml".to_string();
    let light = "experiments/torus_002_8x8x8.toml".to_string();
    let named = |f: &String, sets| Binding::Named { files: [f.clone()].into(), sets };
    let want = [
        named(&heavy, false),
        named(&heavy, true),
        named(&light, true),
        Binding::Sole { file: heavy.clone() },
        named(&light, true),
        // The aside closed before the length names none of it.
        Binding::Sole { file: heavy.clone() },
        // Past a `;`: another clause.
        Binding::Sole { file: light.clone() },
    ];
    let got: Vec<Binding> = owners(doc).into_iter().map(|o| o.binding).collect();
    assert_eq!(got, want);
    // The mismatches: the wrong named file, and the two Sole lengths no
    // ATTRIBUTED entry lists (the heavy twice, the light once).
    // (The document's ATTRIBUTED entries match nothing here and fail too.)
    let errors: Vec<String> = mismatches(doc, &owners(doc)).into_iter().filter(|e| e.starts_with("the section")).collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].contains("is not set by") && errors[1].contains("only experiments/torus_002_8x8x8_heavy.toml"), "{errors:#?}");
}

//! `experiments/rerun_check.sh` (does a committed results folder still come
//! out of today's code?) is checked by its own script,
//! `experiments/rerun_check_test.sh`: in a throwaway clone of HEAD it reruns a
//! model-only folder (it reproduces), plants a cell, a wall time and a
//! missing output (each caught or ignored as it should be), and feeds the
//! refusals (no command, not a plain run, two commands: exit 2). This runs
//! that script against the binary cargo built, so `cargo test` covers it.

use std::process::Command;

#[test]
fn rerun_check_passes_its_own_test_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/experiments/rerun_check_test.sh"))
        .env("WORMQOS_BIN", env!("CARGO_BIN_EXE_wormqos"))
        .current_dir(root)
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rerun_check_test.sh failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all checks passed"), "no verdict:\n{stdout}\n{stderr}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

/// `experiments/prose_census.py` (which prose numbers of
/// docs/reproduction.md a test notices when changed) is checked by
/// `experiments/prose_census_test.py`: its filter and mutation on a small
/// document written by hand.
#[test]
fn prose_census_passes_its_own_test_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/experiments/prose_census_test.py"))
        .current_dir(root)
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "prose_census_test.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all checks passed"), "no verdict:\n{stdout}\n{stderr}");
}

/// The fields of one CSV line (double-quoted fields may hold commas and
/// doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    out.push(field);
    out
}

/// A CSV of the census (`prose_census.py run`/`recheck`) as rows of named cells.
fn csv_table(root: &str, path: &str) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header = csv_fields(lines.next().unwrap());
    lines.map(|l| header.iter().cloned().zip(csv_fields(l)).collect()).collect()
}

/// The paragraph of docs/reproduction.md that starts with `opening`, its
/// whitespace collapsed.
fn paragraph(root: &str, opening: &str) -> String {
    let doc = std::fs::read_to_string(format!("{root}/docs/reproduction.md")).unwrap();
    let start = doc.find(opening).unwrap_or_else(|| panic!("no paragraph {opening:?}"));
    doc[start..doc[start..].find("\n\n").map_or(doc.len(), |e| start + e)].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The hand-written kinds of the numbers a census did not catch.
const KINDS: [&str; 6] = ["parameter", "formula", "derived", "log", "reference", "result"];

/// A census CSV's counts: numbers measured, caught, and those not caught
/// by kind. Every number not caught has a kind of `KINDS`, no caught one
/// has a kind.
struct Census {
    rows: Vec<std::collections::HashMap<String, String>>,
    n: usize,
    caught: usize,
}

impl Census {
    fn of(root: &str, path: &str) -> Census {
        let rows = csv_table(root, path);
        assert!(rows.iter().all(|r| (r["caught"] == "yes") == r["kind"].is_empty()), "{path}: a caught row has a kind or a missed one has none");
        let (n, caught) = (rows.len(), rows.iter().filter(|r| r["caught"] == "yes").count());
        let census = Census { rows, n, caught };
        assert_eq!(KINDS.iter().map(|k| census.kind(k)).sum::<usize>(), n - caught, "{path}: a kind outside the paragraph's list");
        census
    }

    /// Numbers not caught of kind `k`.
    fn kind(&self, k: &str) -> usize {
        self.rows.iter().filter(|r| r["caught"] == "no" && r["kind"] == k).count()
    }
}

/// 95 % Wilson score interval of k successes in n, in percent.
fn wilson_percent(k: usize, n: usize) -> (f64, f64) {
    let (z, n, p) = (1.96f64, n as f64, k as f64 / n as f64);
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    (100.0 * (centre - half), 100.0 * (centre + half))
}

/// The prose census's paragraph in docs/reproduction.md ("Census of the
/// prose, by mutation") against its committed samples, each measurement
/// (the first, then each "**Remeasured**" part) against its own sample:
/// the sample size and seed, the caught count with its share and
/// interval, each kind's count of the numbers not caught, and the count
/// of prose numbers in the document it was drawn from (recounted by the
/// script on that commit's document).
#[test]
fn the_prose_census_sentence_matches_its_sample() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/reproduction.md")).unwrap();
    let start = doc.find("**Census of the prose, by mutation.**").expect("the prose census paragraph");
    let para: String = doc[start..doc[start..].find("\n\n").map_or(doc.len(), |e| start + e)].split_whitespace().collect::<Vec<_>>().join(" ");
    let parts: Vec<&str> = para.split("**Remeasured**").collect();
    let samples = [("sample.csv", 1), ("sample_seed2.csv", 2)];
    assert_eq!(parts.len(), samples.len(), "one part of the paragraph per committed sample");
    for (part, (file, seed)) in parts.iter().zip(samples) {
        check_census_part(root, part, &format!("experiments/results/prose_census/{file}"), seed);
    }
    check_recheck(root, parts[1], "experiments/results/prose_census/sample_seed2.csv", "experiments/results/prose_census/sample_seed2_recheck.csv");
}

/// The census's section-by-section paragraph on 001_… Figs 5–7, Table V
/// and Table II (`prose_census.py run --lines`, every counted number of
/// the lines measured, not a sample): its counts of caught numbers and of
/// each kind not caught are its CSV's; the quoted results not caught,
/// mutated again (`recheck`), are all caught or in sentences edited since;
/// and every number of the edited lines, mutated again (`run --lines` on
/// each), is caught.
#[test]
fn the_section_census_001_paragraph_matches_its_csv() {
    const DIR: &str = "experiments/results/prose_census";
    let root = env!("CARGO_MANIFEST_DIR");
    let para = paragraph(root, "**Section by section: 001_… Figs 5–7, Table V and Table II.**");
    let section = format!("{DIR}/section_001_figs5_7_table2.csv");
    let census = Census::of(root, &section);
    let (rows, n, caught) = (&census.rows, census.n, census.caught);
    let kind = |k: &str| census.kind(k);
    let (first, last) = (&rows[0]["line"], &rows[n - 1]["line"]);
    let mut expected = vec![
        format!("the first {n} counted numbers, lines {first}–{last}"),
        format!("**{caught} caught**"),
        format!("The {} not caught", n - caught),
        format!("**{} quoted results**", kind("result")),
    ];
    for (k, phrase) in [("parameter", "configuration parameters"), ("formula", "numbers of formulas"), ("derived", "derived in the same passage"), ("log", "of the run log"), ("reference", "references")] {
        if kind(k) > 0 {
            expected.push(format!("{} {phrase}", kind(k)));
        }
    }
    for e in &expected {
        assert!(para.contains(e.as_str()), "the section census paragraph should contain {e:?}:\n{para}");
    }
    check_recheck(root, &para, &section, &format!("{DIR}/section_001_figs5_7_table2_recheck.csv"));
    let edited = csv_table(root, &format!("{DIR}/section_001_figs5_7_table2_edited.csv"));
    let missed: Vec<String> = edited.iter().filter(|r| r["caught"] != "yes").map(|r| format!("line {} {}", r["line"], r["number"])).collect();
    assert!(missed.is_empty(), "numbers of the edited lines not caught: {missed:?}");
    let written = format!("all {} numbers of the lines edited", edited.len());
    assert!(para.contains(&written), "the paragraph should say {written:?}");
}

/// The second sample's quoted results not caught, mutated again
/// (`prose_census.py recheck`): the recheck covers exactly those rows,
/// none of them is missed now, and the paragraph's counts of caught and
/// edited rows are the file's.
fn check_recheck(root: &str, para: &str, sample: &str, recheck: &str) {
    let wanted: Vec<String> = csv_table(root, sample).into_iter().filter(|r| r["caught"] == "no" && r["kind"] == "result").map(|r| r["line"].clone()).collect();
    let rows = csv_table(root, recheck);
    assert_eq!(rows.iter().map(|r| r["sample_line"].clone()).collect::<Vec<_>>(), wanted, "{recheck}: not the sample's quoted results not caught");
    let count = |c: &str| rows.iter().filter(|r| r["caught"] == c).count();
    assert_eq!(count("no"), 0, "{recheck}: a quoted result still not caught");
    let written = format!("**{} of the {} caught**, the other {} in sentences edited since", count("yes"), rows.len(), count("edited"));
    assert!(para.contains(&written), "the paragraph should say {written:?} ({recheck})");
}

fn check_census_part(root: &str, para: &str, sample: &str, seed: u32) {
    let census = Census::of(root, sample);
    let (n, caught) = (census.n, census.caught);
    let kind = |k: &str| census.kind(k);
    let (lo, hi) = wilson_percent(caught, n);
    let (rlo, rhi) = wilson_percent(kind("result"), n);
    let mut expected = vec![
        format!("a sample of {n} (seed {seed},"),
        format!("`{sample}`"),
        format!("{caught} caught ({:.1} %, 95 % Wilson interval {lo:.1}–{hi:.1} %)", 100.0 * caught as f64 / n as f64),
        format!("The {} not caught", n - caught),
        format!("{} quoted results** ({:.1} % of the sample, {rlo:.1}–{rhi:.1} %)", kind("result"), 100.0 * kind("result") as f64 / n as f64),
    ];
    // a kind none of the sample fell into need not be listed
    for (k, phrase) in [("parameter", "configuration parameters"), ("formula", "numbers of formulas"), ("derived", "derived in the same passage"), ("log", "of the run log"), ("reference", "reference")] {
        let c = kind(k);
        if c > 0 {
            expected.push(format!("{c} {phrase}{}", if k == "reference" && c > 1 { "s" } else { "" }));
        }
    }
    for e in &expected {
        assert!(para.contains(e.as_str()), "the prose census paragraph should contain {e:?} ({sample}):\n{para}");
    }
    // The document the sample was drawn from, recounted.
    let commit = para.split("as of ").nth(1).and_then(|t| t.split_whitespace().next()).map(|c| c.trim_end_matches(|ch: char| !ch.is_ascii_alphanumeric())).expect("the census's commit");
    let old = Command::new("git").args(["show", &format!("{commit}:docs/reproduction.md")]).current_dir(root).output().expect("run git");
    assert!(old.status.success(), "git show {commit}: {}", String::from_utf8_lossy(&old.stderr));
    let tmp = std::env::temp_dir().join(format!("prose_census_doc_{}_{seed}.md", std::process::id()));
    std::fs::write(&tmp, &old.stdout).unwrap();
    let listed = Command::new("python3").arg(format!("{root}/experiments/prose_census.py")).args(["list", "--doc"]).arg(&tmp).output().expect("run python3");
    std::fs::remove_file(&tmp).ok();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let count = String::from_utf8_lossy(&listed.stdout).lines().count();
    let written = format!("counts {} prose numbers", count.to_string().as_bytes().rchunks(3).rev().map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join(","));
    assert!(para.contains(&written), "the paragraph should say {written:?} ({sample})");
}

/// The section census of 003_… Figs 6–8 and 001_… Figs 8–9 (every
/// counted number of the sections measured, `prose_census.py run
/// --lines`): its paragraph's counts are the CSV's, and the quoted results
/// it missed, mutated again (`recheck`), are all caught now.
#[test]
fn the_section_census_003_figs6_8_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Figs 6–8 and 001_… Figs 8–9.**",
        "experiments/results/prose_census/section_003_figs6_8_001_figs8_9.csv",
        "experiments/results/prose_census/section_003_figs6_8_001_figs8_9_recheck.csv",
    );
}

#[test]
fn the_section_census_torus_a_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, torus, first part.**",
        "experiments/results/prose_census/section_torus_a.csv",
        "experiments/results/prose_census/section_torus_a_recheck.csv",
    );
}

#[test]
fn the_section_census_torus_a2_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, torus, first part's last paragraphs.**",
        "experiments/results/prose_census/section_torus_a2.csv",
        "experiments/results/prose_census/section_torus_a2_recheck.csv",
    );
}

#[test]
fn the_section_census_000_single_router_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 000_… single router.**",
        "experiments/results/prose_census/section_000_single_router.csv",
        "experiments/results/prose_census/section_000_single_router_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig7_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 7 and 001_… Figs 8–9.**",
        "experiments/results/prose_census/section_003_fig7_001_figs8_9.csv",
        "experiments/results/prose_census/section_003_fig7_001_figs8_9_recheck.csv",
    );
}

#[test]
fn the_section_census_001_table2_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 001_… Table II.**",
        "experiments/results/prose_census/section_001_table2.csv",
        "experiments/results/prose_census/section_001_table2_recheck.csv",
    );
}

#[test]
fn the_section_census_001_fig7_rest_cap_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 001_… Fig. 7's rest and the cap section.**",
        "experiments/results/prose_census/section_001_fig7_rest_cap.csv",
        "experiments/results/prose_census/section_001_fig7_rest_cap_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig4_b_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 4, second part.**",
        "experiments/results/prose_census/section_003_fig4_b.csv",
        "experiments/results/prose_census/section_003_fig4_b_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig4_first_part_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 4, first part.**",
        "experiments/results/prose_census/section_003_fig4_a.csv",
        "experiments/results/prose_census/section_003_fig4_a_recheck.csv",
    );
    // The lines that run did not reach, measured after the ties: the
    // paragraph's counts are that CSV's, and none of it is a quoted result.
    let root = env!("CARGO_MANIFEST_DIR");
    let para = paragraph(root, "**Section census, 003_… Fig. 4, first part.**");
    let after = Census::of(root, "experiments/results/prose_census/section_003_fig4_a_rest_after.csv");
    let kinds = [("parameter", "configuration parameters"), ("reference", "references"), ("log", "of the run log"), ("formula", "numbers of formulas"), ("derived", "derived in the same passage")];
    let mut expected = vec![format!("The {} numbers not measured were measured after the ties", after.n), format!("{} caught; the {} not caught are", after.caught, after.n - after.caught)];
    expected.extend(kinds.iter().filter(|(k, _)| after.kind(k) > 0).map(|(k, phrase)| format!("{} {phrase}", after.kind(k))));
    for e in &expected {
        assert!(para.contains(e.as_str()), "the paragraph should contain {e:?}:\n{para}");
    }
    assert_eq!(after.kind("result"), 0, "the paragraph says no quoted result of the rest is left untied");
}

#[test]
fn the_section_census_003_fig4_c_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 4, third part.**",
        "experiments/results/prose_census/section_003_fig4_c.csv",
        "experiments/results/prose_census/section_003_fig4_c_recheck.csv",
    );
}

#[test]
fn the_section_census_001_figs11_13_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 001_… Figs 11–13.**",
        "experiments/results/prose_census/section_001_mpeg2_fig13.csv",
        "experiments/results/prose_census/section_001_mpeg2_fig13_recheck.csv",
    );
}

#[test]
fn the_section_census_np_static_vcs_rest_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, NP's static real-time VCs, the rest.**",
        "experiments/results/prose_census/section_003_fig4_b_rest.csv",
        "experiments/results/prose_census/section_003_fig4_b_rest_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig5_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 5.**",
        "experiments/results/prose_census/section_003_fig5.csv",
        "experiments/results/prose_census/section_003_fig5_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig4_d_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 4, last part.**",
        "experiments/results/prose_census/section_003_fig4_d.csv",
        "experiments/results/prose_census/section_003_fig4_d_recheck.csv",
    );
}

#[test]
fn the_section_census_torus_b_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, the torus sections, second part.**",
        "experiments/results/prose_census/section_torus_b.csv",
        "experiments/results/prose_census/section_torus_b_recheck.csv",
    );
}

#[test]
fn the_section_census_models_a_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, the analytical models, first part.**",
        "experiments/results/prose_census/section_models_a.csv",
        "experiments/results/prose_census/section_models_a_recheck.csv",
    );
    // Its census's mean seconds per number, and the hand plants of the
    // sentences edited since, as the committed files give them.
    let root = env!("CARGO_MANIFEST_DIR");
    let para = paragraph(root, "**Section census, the analytical models, first part.**");
    let rows = csv_table(root, "experiments/results/prose_census/section_models_a.csv");
    let mean = |verdict: &str| {
        let s: Vec<f64> = rows.iter().filter(|r| r["caught"] == verdict).map(|r| r["seconds"].parse::<f64>().unwrap()).collect();
        s.iter().sum::<f64>() / s.len() as f64
    };
    let plants = std::fs::read_to_string(format!("{root}/experiments/results/prose_census/section_models_a_edited_plants.txt")).unwrap();
    let planted: Vec<&str> = plants.lines().collect();
    assert!(planted.iter().all(|l| l.starts_with("caught |")), "every hand plant caught");
    for want in [format!("{:.1} s per number not caught and {:.2} s per number caught", mean("no"), mean("yes")), format!("{} plants, all caught", planted.len())] {
        assert!(para.contains(&want), "the paragraph should say {want:?}:\n{para}");
    }
}

#[test]
fn the_section_census_residual_wait_second_part_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, the residual wait for L = 3, second part.**",
        "experiments/results/prose_census/section_torus_d.csv",
        "experiments/results/prose_census/section_torus_d_recheck.csv",
    );
}

#[test]
fn the_section_census_torus_c_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, the torus sections, third part.**",
        "experiments/results/prose_census/section_torus_c.csv",
        "experiments/results/prose_census/section_torus_c_recheck.csv",
    );
}

#[test]
fn the_section_census_003_fig9_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 003_… Fig. 9.**",
        "experiments/results/prose_census/section_003_fig9.csv",
        "experiments/results/prose_census/section_003_fig9_recheck.csv",
    );
}

#[test]
fn the_section_census_000_cube_figs_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 000_… Figs 8–10 and two ON/OFF classes.**",
        "experiments/results/prose_census/section_000_cube_figs.csv",
        "experiments/results/prose_census/section_000_cube_figs_recheck.csv",
    );
}

#[test]
fn the_section_census_onoff_a_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 000_… Fig. 12 ON/OFF, first part.**",
        "experiments/results/prose_census/section_onoff_a.csv",
        "experiments/results/prose_census/section_onoff_a_recheck.csv",
    );
}

#[test]
fn the_section_census_onoff_b_sentence_matches_its_csv() {
    section_census_paragraph_matches(
        "**Section census, 000_… Fig. 12 ON/OFF, second part.**",
        "experiments/results/prose_census/section_onoff_b.csv",
        "experiments/results/prose_census/section_onoff_b_recheck.csv",
    );
}

/// The ON/OFF first part's last lines: no quoted result among the numbers
/// not caught, as the paragraph says (so it has no recheck).
#[test]
fn the_section_census_onoff_a2_sentence_matches_its_csv() {
    const CSV: &str = "experiments/results/prose_census/section_onoff_a2.csv";
    let para = section_census_counts_match("**Section census, 000_… Fig. 12 ON/OFF, first part's last lines.**", CSV);
    let results = csv_table(env!("CARGO_MANIFEST_DIR"), CSV).into_iter().filter(|r| r["caught"] == "no" && r["kind"] == "result").count();
    assert_eq!(results, 0, "{CSV}: quoted results not caught, to tie and recheck");
    assert!(para.contains("no quoted result among them"), "{para}");
}

/// The paragraph that starts with `opening` states the counts of the
/// section census `CSV` (measured, caught, the kinds of the numbers not
/// caught) and of its recheck.
fn section_census_paragraph_matches(opening: &str, csv: &str, recheck: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let para = section_census_counts_match(opening, csv);
    check_recheck(root, &para, csv, recheck);
}

/// The paragraph that starts with `opening` states the counts of the
/// section census `csv` (measured, caught, the kinds of the numbers not
/// caught); returns the paragraph.
fn section_census_counts_match(opening: &str, csv: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let para = paragraph(root, opening);
    let census = Census::of(root, csv);
    let (n, caught) = (census.n, census.caught);
    let kind = |k: &str| census.kind(k);
    // (kind, its phrase for one number, for several)
    let kinds = [
        ("parameter", "configuration parameter", "configuration parameters"),
        ("log", "of the run log", "of the run log"),
        ("reference", "reference", "references"),
        ("formula", "number of a formula", "numbers of formulas"),
        ("derived", "derived in the same passage", "derived in the same passage"),
        ("result", "quoted result**", "quoted results**"),
    ];
    let mut expected = vec![format!("**{n} measured**"), format!("**{caught} caught** ({:.1} %)", 100.0 * caught as f64 / n as f64), format!("The {} not caught", n - caught)];
    // a kind none of the rows fell into need not be listed
    expected.extend(kinds.iter().filter(|(k, _, _)| kind(k) > 0).map(|(k, one, several)| format!("{} {}", kind(k), if kind(k) == 1 { one } else { several })));
    for e in &expected {
        assert!(para.contains(e.as_str()), "the section census paragraph should contain {e:?} ({csv}):\n{para}");
    }
    para
}

/// The census's catchers (the tests that caught the last numbers run first,
/// alone) against the whole binary run for every number, on one section
/// measured both ways: the same number by number and the same verdicts,
/// and the times the census paragraph quotes are the CSVs' own.
#[test]
fn catchers_first_gives_the_whole_binarys_verdicts() {
    const DIR: &str = "experiments/results/prose_census";
    let root = env!("CARGO_MANIFEST_DIR");
    let whole = csv_table(root, &format!("{DIR}/catchers_check_whole.csv"));
    let first = csv_table(root, &format!("{DIR}/catchers_check_first.csv"));
    assert_eq!(whole.len(), first.len(), "both runs measure the same numbers");
    for (w, f) in whole.iter().zip(&first) {
        for col in ["line", "number", "caught"] {
            assert_eq!(w[col], f[col], "line {}: {col} differs between the two runs", w["line"]);
        }
    }
    let caught = whole.iter().filter(|r| r["caught"] == "yes").count();
    let secs = |rows: &[std::collections::HashMap<String, String>], verdict: Option<&str>| -> (f64, usize) {
        let picked: Vec<f64> = rows.iter().filter(|r| verdict.map_or(true, |v| r["caught"] == v)).map(|r| r["seconds"].parse::<f64>().unwrap()).collect();
        (picked.iter().sum(), picked.len())
    };
    let mean = |rows, v| {
        let (s, n) = secs(rows, Some(v));
        s / n as f64
    };
    let para = paragraph(root, "**Census of the prose, by mutation.**");
    let want = [
        format!("each of its {} numbers the verdict of the whole binary run each time ({caught} caught)", whole.len()),
        format!("in test runs of {:.1} s against {:.1} s", secs(&first, None).0, secs(&whole, None).0),
        format!("{:.2} s against {:.2} s a caught number", mean(&first, "yes"), mean(&whole, "yes")),
        format!("{:.2} s against {:.2} s one not caught", mean(&first, "no"), mean(&whole, "no")),
    ];
    for w in want {
        assert!(para.contains(&w), "the census paragraph should say {w:?}");
    }
}

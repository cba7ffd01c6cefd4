//! The census's view of the model sections' quoted model − sim errors
//! (issue 23 item 3): each `RelError` of `models.rs` is computed there from
//! its two committed cells and checked by
//! `model_section_numbers_match_the_committed_results`; here each becomes a
//! census tie of its passage (a table row) and its written error, so a row
//! whose cells are tied by `models::claims()` and whose errors are tied by
//! `RelError`s counts as tied.

use super::*;

/// One tie per quoted model − sim error of the model sections.
pub(super) fn error_ties() -> Vec<census::Tie<'static>> {
    models::claims().1.into_iter().map(|e| census::Tie { passage: e.passage, written: vec![e.written] }).collect()
}

/// A quoted sweep parameter: `written` is field `field` of the
/// `:`-separated key in `key_column` of the one row of `csv` whose key is
/// `key` (the committed sweep point the row reports), as written.
pub(super) struct ParamCell {
    pub(super) passage: &'static str,
    pub(super) written: &'static str,
    csv: &'static str,
    key_column: &'static str,
    key: &'static str,
    field: usize,
}

/// 000_… Fig. 4(a), multiplexed crossbar (`fig4_000`): the offered load in
/// brackets of each row is the total of its sweep point's key
/// "total:rt:be" (flits/cycle/port); e.g. R1+R2 = 0.002 messages of M = 32
/// flits is 0.064, best effort 0.01 · 32 = 0.32, total 0.384. The row's
/// other cells are claims of `models.rs` (`single_router_000`).
pub(super) fn param_cells() -> Vec<ParamCell> {
    const F4: &str = "experiments/results/fig4_000/results.csv";
    const MIX: &str = "workload.load+workload.mix";
    [
        ("| 0.002 | 54.0 | 55.6 | 75.3 | 0.381 (0.384) |", "0.384", "0.384:0.064:0.32"),
        ("| 0.004 | 62.3 | 61.8 | 100.4 | 0.446 (0.448) |", "0.448", "0.448:0.128:0.32"),
        ("| 0.006 | 70.1 | 76.8 | 133.9 | 0.510 (0.512) |", "0.512", "0.512:0.192:0.32"),
        ("| 0.008 | 82.8 | 93.5 | 181.1 | 0.566 (0.576) |", "0.576", "0.576:0.256:0.32"),
        ("| 0.010 | 103.7 | 80.7 | 217.9 | 0.577 (0.640) |", "0.640", "0.64:0.32:0.32"),
        ("| 0.012 | 325.4 | 408.1 | 366.4 | 0.296 (0.704) |", "0.704", "0.704:0.384:0.32"),
    ]
    .into_iter()
    .map(|(passage, written, key)| ParamCell { passage, written, csv: F4, key_column: MIX, key, field: 0 })
    .collect()
}

/// Each cell's disagreement with its committed row, or an empty list.
pub(super) fn check_params(cells: &[ParamCell]) -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let mut out = Vec::new();
    for c in cells {
        if let Some(missing) = models::passage_missing(&doc, c.passage) {
            out.push(missing);
            continue;
        }
        if !contains_number(c.passage, c.written) {
            out.push(format!("{:?} is not in its passage {:?}", c.written, c.passage));
        }
        let table = read_csv(c.csv);
        let rows: Vec<_> = table.iter().filter(|r| r.get(c.key_column).map(String::as_str) == Some(c.key)).collect();
        let [row] = rows.as_slice() else {
            out.push(format!("{}: {} rows have {} = {}", c.csv, rows.len(), c.key_column, c.key));
            continue;
        };
        let field = row[c.key_column].split(':').nth(c.field).and_then(|f| f.parse::<f64>().ok());
        match field {
            Some(v) if rounded_like(v, c.written) == c.written => {}
            other => out.push(format!("docs/reproduction.md says {} where {} {} field {} is {other:?}", c.written, c.csv, c.key, c.field)),
        }
    }
    out
}

/// The census ties of the parameter cells.
pub(super) fn param_ties() -> Vec<census::Tie<'static>> {
    param_cells().into_iter().map(|c| census::Tie { passage: c.passage, written: vec![c.written] }).collect()
}

//! What a rerun changed in a committed table: one keyed comparison of two
//! versions of a CSV, read by every tie that quotes which points, rows or
//! columns a rerun changed ("24 of the 28 points reproduce the first run",
//! "changed in 13 columns each", "the load-0.6 rows came out byte for
//! byte"). Six ties used to compare the versions each its own way, with
//! their own ideas of which columns count; they now share this one.

use super::census_ties::committed_csv;
use super::*;

/// A version of a committed CSV.
#[derive(Clone, Copy, Debug)]
pub(super) enum Version<'a> {
    /// As committed at a revision (`"995f09e"`, `"995f09e^"`).
    At(&'a str),
    /// As checked out: the data the document quotes now.
    Checkout,
}

/// Columns that time a run rather than measure it: a rerun changes them
/// however equal its results, so no comparison counts them.
pub(super) const TIMING_COLUMNS: [&str; 2] = ["wall_seconds", "router_cycles_per_second"];

/// One row of the later version against the row with the same key in the
/// earlier one.
#[derive(Clone, Debug)]
pub(super) struct RowChange {
    /// The row's cells in the `keys` columns, in the order the keys were
    /// given.
    pub key: Vec<String>,
    /// The columns both versions have, outside `TIMING_COLUMNS`, whose
    /// cells differ (sorted). A column only one version has is not
    /// compared: a rerun that adds a column has not changed the others.
    pub changed: Vec<String>,
}

impl RowChange {
    /// Whether this row's key is `key`.
    pub fn key_is(&self, key: &[&str]) -> bool {
        self.key.iter().map(String::as_str).eq(key.iter().copied())
    }
}

fn table(path: &str, version: Version) -> Table {
    match version {
        Version::At(rev) => committed_csv(&format!("{rev}:{path}")),
        Version::Checkout => read_csv(path),
    }
}

/// Every row of `path` at `after`, in that version's order, matched by its
/// `keys` cells to the row of `path` at `before`, with the columns that
/// changed.
pub(super) fn row_changes(path: &str, before: Version, after: Version, keys: &[&str]) -> Vec<RowChange> {
    keyed(&table(path, before), &table(path, after), keys, &format!("{path} ({before:?} → {after:?})"))
}

/// Every row of `new`, in its order, against the row of `old` with the same
/// `keys` cells. Panics when the tables hold other rows or a key is not
/// unique: a rerun that adds or drops points is not a rerun of the same
/// points, and a quote about it needs its own check.
fn keyed(old: &Table, new: &Table, keys: &[&str], what: &str) -> Vec<RowChange> {
    assert_eq!(old.len(), new.len(), "{what}: the versions hold other rows");
    let key_of = |r: &HashMap<String, String>| -> Vec<String> {
        keys.iter().map(|k| r.get(*k).unwrap_or_else(|| panic!("{what}: no column {k}")).clone()).collect()
    };
    new.iter()
        .map(|row| {
            let key = key_of(row);
            let matches: Vec<&HashMap<String, String>> = old.iter().filter(|r| key_of(r) == key).collect();
            let [prior] = <[&HashMap<String, String>; 1]>::try_from(matches)
                .unwrap_or_else(|m| panic!("{what}: {} earlier rows keyed {key:?}", m.len()));
            let mut changed: Vec<String> = row
                .iter()
                .filter(|(c, x)| !TIMING_COLUMNS.contains(&c.as_str()) && prior.get(*c).is_some_and(|y| y != *x))
                .map(|(c, _)| c.clone())
                .collect();
            changed.sort();
            RowChange { key, changed }
        })
        .collect()
}

/// A rerun against the run it replaced: `path` at `commit`'s parent and at
/// `commit`.
pub(super) fn rerun_changes(commit: &str, path: &str, keys: &[&str]) -> Vec<RowChange> {
    row_changes(path, Version::At(&format!("{commit}^")), Version::At(commit), keys)
}

/// `path` as checked out against its version at `rev`.
pub(super) fn changes_since(rev: &str, path: &str, keys: &[&str]) -> Vec<RowChange> {
    row_changes(path, Version::At(rev), Version::Checkout, keys)
}

/// Per row, its key and how many columns changed.
pub(super) fn counts(changes: Vec<RowChange>) -> Vec<(Vec<String>, usize)> {
    changes.into_iter().map(|c| (c.key, c.changed.len())).collect()
}

/// Hand-made versions: the comparison finds exactly the cells that differ,
/// ignores the timings and columns only one version has, and refuses rows
/// it cannot match (the tables here are written out, not read from the
/// code under test).
#[test]
fn row_changes_counts_the_cells_that_differ() {
    let before = parse_csv("load,mix,lat,wall_seconds\n0.5,a,10,1\n0.6,a,20,2\n0.6,b,30,3\n");
    let after = parse_csv("mix,load,lat,wall_seconds,extra\nb,0.6,31,9,x\na,0.5,10,5,y\na,0.6,20,2,z\n");
    let got = keyed(&before, &after, &["load", "mix"], "test");
    let want = [(vec!["0.6", "b"], vec!["lat"]), (vec!["0.5", "a"], vec![]), (vec!["0.6", "a"], vec![])];
    assert_eq!(got.len(), want.len());
    for (g, (k, c)) in got.iter().zip(want) {
        assert!(g.key_is(&k), "{g:?}");
        assert_eq!(g.changed, c, "{g:?}");
    }
    let missing = std::panic::catch_unwind(|| keyed(&before, &parse_csv("load,mix,lat\n0.5,a,1\n0.7,a,2\n0.6,b,3\n"), &["load", "mix"], "test"));
    assert!(missing.is_err(), "a point with no earlier row must not pass");
    let ambiguous = std::panic::catch_unwind(|| keyed(&before, &before, &["load"], "test"));
    assert!(ambiguous.is_err(), "a key two rows share must not pass");
}

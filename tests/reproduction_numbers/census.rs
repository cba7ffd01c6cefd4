//! The census of `docs/reproduction.md`'s markdown tables: which tables
//! have every number of every body row tied to data by a claim, and which
//! are listed as untied, with the reason. Functions take the document's
//! text and the claims' passages, so a unit test can feed a small document.

/// One markdown table outside code blocks.
pub struct Table {
    /// The nearest heading above the table (its `#` line, as written).
    pub heading: String,
    /// 1-based line of the header row.
    pub line: usize,
    /// Every line of the table, header and separator included, trimmed.
    pub lines: Vec<String>,
    /// The body rows (after the `|---|` separator), trimmed.
    pub body: Vec<String>,
}

/// What a claim ties: its passage and the numbers it checks, as written.
pub struct Tie<'a> {
    pub passage: &'a str,
    pub written: Vec<&'a str>,
}

/// A table listed as not tied by a claim, with why.
pub struct Untied {
    /// The table's heading, as written.
    pub heading: &'static str,
    /// Text the table contains (the first cells of a row, usually the
    /// first body row), which picks exactly one table under `heading`.
    pub key: &'static str,
    /// "paper's values", "configuration parameters", "not tied yet", "no
    /// committed data" (a number in no committed file), or "tied by
    /// <file>::<test>" for a table another test checks.
    pub reason: &'static str,
}

/// The markdown tables of `doc` outside fenced code blocks. A run of lines
/// starting with `|` is a table when its second line is a separator row.
pub fn tables(doc: &str) -> Vec<Table> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut in_code = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            heading = line.to_string();
        } else if !in_code && line.starts_with('|') {
            let start = i;
            while i < lines.len() && lines[i].trim().starts_with('|') {
                i += 1;
            }
            let block: Vec<String> = lines[start..i].iter().map(|l| l.trim().to_string()).collect();
            if block.len() >= 2 && is_separator(&block[1]) {
                out.push(Table { heading: heading.clone(), line: start + 1, body: block[2..].to_vec(), lines: block });
            }
            continue;
        }
        i += 1;
    }
    out
}

fn is_separator(line: &str) -> bool {
    line.trim_matches('|').split('|').all(|c| {
        let c = c.trim();
        !c.is_empty() && c.chars().all(|x| matches!(x, '-' | ':'))
    })
}

/// The numbers of a body row that a claim must check: those in every cell
/// after the first (the first cell names the row: a load, a mix, a
/// design), in order, thousands separators kept, signs dropped.
pub fn row_numbers(row: &str) -> Vec<&str> {
    let cells = row.trim_matches('|').split_once('|').map_or("", |(_, rest)| rest);
    numbers(cells)
}

/// The unsigned numbers in `text`, in order (thousands separators kept:
/// "18,235" is one number, "0.39, 5" two).
pub fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit() || ((bytes[i] == b'.' || bytes[i] == b',') && i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit()))
            {
                i += 1;
            }
            out.push(&text[start..i]);
        } else {
            i += 1;
        }
    }
    out
}

/// The numbers of `row` that no tie covers: a number is covered when the
/// row lies inside a tie's passage and the number is one of that tie's
/// written numbers.
pub fn unchecked_numbers<'a>(row: &'a str, ties: &[Tie]) -> Vec<&'a str> {
    let covering: Vec<&str> = ties.iter().filter(|t| t.passage.contains(row)).flat_map(|t| t.written.iter().flat_map(|w| numbers(w))).collect();
    row_numbers(row).into_iter().filter(|x| !covering.contains(x)).collect()
}

/// Whether every number of every body row of `table` is covered.
pub fn is_tied(table: &Table, ties: &[Tie]) -> bool {
    table.body.iter().all(|row| unchecked_numbers(row, ties).is_empty())
}

/// Whether `entry` names `table`.
fn names(entry: &Untied, table: &Table) -> bool {
    table.heading == entry.heading && table.lines.iter().any(|l| l.contains(entry.key))
}

/// The census's findings, each a sentence: tables with numbers in their
/// body that no claim ties and `untied` does not list, entries of `untied`
/// that name no table, more than one, or a table that is in fact tied (a
/// stale entry: the list can only shrink).
pub fn census(doc: &str, ties: &[Tie], untied: &[Untied]) -> Vec<String> {
    let tables = tables(doc);
    let mut errors = Vec::new();
    for entry in untied {
        let named: Vec<&Table> = tables.iter().filter(|t| names(entry, t)).collect();
        match named.as_slice() {
            [t] if is_tied(t, ties) => errors.push(format!("stale entry: the table at line {} ({:?}, {:?}) is tied; remove it from the list", t.line, entry.heading, entry.key)),
            [_] => {}
            _ => errors.push(format!("entry ({:?}, {:?}) names {} tables, not one", entry.heading, entry.key, named.len())),
        }
    }
    for t in &tables {
        if untied.iter().any(|e| names(e, t)) {
            continue;
        }
        for row in &t.body {
            let missing = unchecked_numbers(row, ties);
            if !missing.is_empty() {
                errors.push(format!("untied row at line {} under {:?}: {row:?} (numbers {missing:?} checked by no claim)", t.line, t.heading));
            }
        }
    }
    errors
}

//! The generated Verilog's house style, checked on the text of every example
//! and every planted-bug variant (cheap: no external tools).

mod common;

use common::examples;
use wormqos_hdl::{generate, Mutant};

/// Every line of every generated file is at most 100 columns.
#[test]
fn every_generated_line_fits_in_100_columns() {
    let mut checked = 0;
    for (name, cfg) in examples() {
        for mutant in std::iter::once(None).chain(Mutant::all().iter().copied().map(Some)) {
            let files = generate(&cfg, mutant).unwrap();
            for f in &files {
                for (k, line) in f.text.lines().enumerate() {
                    assert!(
                        line.chars().count() <= 100,
                        "{name} {mutant:?} {}:{}: {} columns: {line}",
                        f.file_name,
                        k + 1,
                        line.chars().count()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} files checked");
}

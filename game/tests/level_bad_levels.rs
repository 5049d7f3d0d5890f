//! Every file in `tests/bad_levels/` is a broken level; its sibling `.expected` file holds the
//! exact error `crate-room check` prints for it (with the bare file name as the path): the
//! headline, the offending line with a caret under the column, and the hint.
//!
//! Run with `BLESS=1` to rewrite the `.expected` files after changing a message, then review the
//! diff.

use crate::common;

use std::path::{Path, PathBuf};

use common::bad_levels;
use game::level::{self, DEFAULT_SKINS, LevelError};

/// The error as `check` prints it, with the path shortened to the file name.
fn report(path: &Path, mut err: LevelError) -> String {
    err.path = PathBuf::from(path.file_name().expect("file name"));
    format!("{err}\n")
}

#[test]
fn every_bad_level_reports_its_expected_error() {
    let bless = std::env::var_os("BLESS").is_some();
    let files = bad_levels();
    assert!(files.len() >= 25, "only {} bad levels", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let got = match level::load(path, &DEFAULT_SKINS) {
            Ok(_) => format!("{} loaded without error\n", path.display()),
            Err(err) => report(path, err),
        };
        let expected_path = path.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).expect("write .expected");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "{}:\n  expected: {expected:?}\n  got:      {got:?}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bad_level_errors_quote_the_offending_line_with_a_caret() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_levels/unknown_char.ron");
    let err = level::load(&path, &DEFAULT_SKINS).expect_err("unknown character");
    assert_eq!(err.source_line.as_deref(), Some("        \"#@.x.#\","));
    assert_eq!(err.caret_line().as_deref(), Some("            ^"));
    let shown = err.to_string();
    assert!(
        shown.contains("\n  |         \"#@.x.#\",\n  |             ^\n  = hint: "),
        "{shown}"
    );
}

#[test]
fn check_reports_each_invalid_path_and_fails() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_levels");
    let paths = vec![
        dir.join("two_players.ron"),
        dir.join("no_such_level.ron"),
        dir.clone(),
    ];
    let mut out = Vec::new();
    let status = level::check(&paths, &DEFAULT_SKINS, &mut out);
    let out = String::from_utf8(out).expect("UTF-8 output");
    assert_eq!(status, 1);
    let headlines: Vec<&str> = out.lines().filter(|l| !l.starts_with("  ")).collect();
    assert_eq!(headlines.len(), 3, "{out}");
    assert!(headlines[0].ends_with("two_players.ron:5:14: error: second player start `@` at (4, 1); a level has exactly one"), "{out}");
    assert!(
        headlines[1].ends_with("no_such_level.ron: error: cannot read level file: no such file"),
        "{out}"
    );
    assert!(
        headlines[2].ends_with("bad_levels: error: is a directory, not a level file"),
        "{out}"
    );
}

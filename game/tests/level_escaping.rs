//! Text from a level file is shown escaped wherever an error quotes it (a skin, a legend key, a
//! map character, the source line): a line break in a skin cannot forge a second error line, and
//! ESC, NUL or a bidi override never reach the terminal or the overlay raw.

use std::path::{Path, PathBuf};

use crate::common::TempDir;

use game::level::{self, DEFAULT_SKINS, LevelError, escape_for_display};

/// Characters that must never be printed as themselves.
const NASTY: [&str; 12] = [
    "\n",
    "\r",
    "\r\n",
    "\u{1b}[2J\u{1b}[31m",
    "\0",
    "\u{7}",
    "\u{7f}",
    "\u{85}",
    "\u{202e}",
    "\u{2066}",
    "\u{2028}",
    "\u{200b}\u{feff}",
];

/// Whether `c` would do something other than show itself on a terminal.
fn is_raw_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// Assert that the error, as displayed, has exactly the lines an error has and nothing raw.
fn assert_shown_safely(err: &LevelError, context: &str) {
    let shown = err.to_string();
    let lines = 1 + 2 * usize::from(err.source_line.is_some()) + usize::from(err.hint.is_some());
    assert_eq!(shown.split('\n').count(), lines, "{context}: {shown:?}");
    assert!(
        !shown.chars().any(|c| c != '\n' && is_raw_control(c)),
        "{context}: {shown:?}"
    );
}

/// Level texts that put `nasty` in each place an error can quote.
fn placements(nasty: &str) -> Vec<String> {
    let level = |extra: &str| format!("(name: \"N\", map: [\"#@cx#\"], {extra})");
    vec![
        // An unknown skin, in the legend and in an override.
        level(&format!("legend: {{ 'x': Crate(skin: \"a{nasty}b\") }}")),
        level(&format!(
            "legend: {{ 'x': Wall }}, crates: [(at: (2, 0), skin: \"{nasty}\")]"
        )),
        // A legend key that is not one character.
        level(&format!("legend: {{ \"k{nasty}\": Wall }}")),
        // A map character nobody defined.
        format!("(name: \"N\", map: [\"#@{nasty}#\"])"),
        // A comment on the line of an error, shown as the source line.
        level(&format!("lgend: {{}}, // {nasty}")),
        // Stray text before the level.
        format!("{nasty}x(name: \"N\", map: [\"#@#\"])"),
        // Escaped in RON rather than raw: the decoded skin is what is quoted.
        level(&format!(
            "legend: {{ 'x': Crate(skin: \"{}\") }}",
            nasty.escape_unicode()
        )),
    ]
}

#[test]
fn no_quoted_text_reaches_the_output_raw() {
    for nasty in NASTY {
        for text in placements(nasty) {
            let err = level::parse(Path::new("nasty.ron"), &text, &DEFAULT_SKINS)
                .expect_err("invalid level");
            assert_shown_safely(&err, &format!("{text:?}"));
        }
    }
}

#[test]
fn a_skin_cannot_forge_another_error_line() {
    let text = "(name: \"N\", map: [\"#@x#\"], \
                legend: { 'x': Crate(skin: \"a\\nother.ron:1:1: error: forged\") })";
    let err = level::parse(Path::new("real.ron"), text, &DEFAULT_SKINS).expect_err("bad skin");
    assert_eq!(
        err.message,
        "unknown crate skin `a\\nother.ron:1:1: error: forged`"
    );
    assert_shown_safely(&err, text);
    assert!(
        !err.to_string().lines().any(|l| l.starts_with("other.ron")),
        "{err}"
    );
}

#[test]
fn check_output_has_one_block_per_file_and_nothing_raw() {
    let temp = TempDir::new("escaping");
    let dir = &temp.0;
    let mut paths: Vec<PathBuf> = Vec::new();
    for (i, nasty) in NASTY.iter().enumerate() {
        for (j, text) in placements(nasty).into_iter().enumerate() {
            let path = dir.join(format!("nasty_{i}_{j}.ron"));
            std::fs::write(&path, text).expect("write");
            paths.push(path);
        }
    }
    let mut out = Vec::new();
    assert_eq!(level::check(&paths, &DEFAULT_SKINS, &mut out), 1);
    let out = String::from_utf8(out).expect("UTF-8");
    // Every line is a headline of one of the files, or indented under one.
    let headlines = out.lines().filter(|l| !l.starts_with("  ")).count();
    assert_eq!(headlines, paths.len(), "{out}");
    assert!(
        out.lines()
            .all(|l| l.starts_with("  ") || l.starts_with(&*dir.to_string_lossy())),
        "{out}"
    );
    assert!(
        !out.chars().any(|c| c != '\n' && is_raw_control(c)),
        "{out:?}"
    );
}

#[test]
fn the_level_name_can_be_printed_escaped() {
    // `crate-room sim` prints the name of a level that loaded; a name may hold anything.
    let text = "(name: \"Evil\\u{1b}[2J\\nname\", map: [\"#@#\"])";
    let level = level::parse(Path::new("name.ron"), text, &DEFAULT_SKINS).expect("valid");
    assert_eq!(level.name, "Evil\u{1b}[2J\nname");
    assert_eq!(escape_for_display(&level.name), "Evil\\u{1b}[2J\\nname");
}

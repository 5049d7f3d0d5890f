//! Error positions are exact whatever the file's encoding details: line ends (`\n`, `\r\n`, a
//! lone `\r`), tabs, ideographic spaces and other characters wider or stranger than ASCII; and a
//! string missing its closing quote is reported where it starts.

use crate::common;

use common::{bad_levels, level_error, parse_level};
use game::level::{self, DEFAULT_SKINS, LevelError};

/// Line, column, and the quoted line with its caret.
fn place(err: &LevelError) -> (usize, usize, Option<&str>, Option<String>) {
    (
        err.line,
        err.col,
        err.source_line.as_deref(),
        err.caret_line(),
    )
}

#[test]
fn every_bad_level_reports_the_same_place_with_any_line_ends() {
    let mut compared = 0;
    for path in bad_levels() {
        let lf = std::fs::read(&path).expect("readable");
        if lf.contains(&b'\r') {
            continue;
        }
        let with_ends =
            |end: &[u8]| -> Vec<u8> { lf.split(|&b| b == b'\n').collect::<Vec<_>>().join(end) };
        let parse = |bytes: &[u8]| {
            level::parse_bytes(&path, bytes, &DEFAULT_SKINS).expect_err("a bad level")
        };
        let expected = parse(&lf);
        for end in [&b"\r\n"[..], b"\r"] {
            let got = parse(&with_ends(end));
            assert_eq!(got, expected, "{} with {end:?} line ends", path.display());
        }
        compared += 1;
    }
    assert!(compared >= 25, "only {compared} files compared");
}

#[test]
fn a_cr_only_file_has_lines_and_its_comments_end_with_them() {
    let err = level_error("(\r  name: \"x\",\r  map: [\"#@c#\"],\r  lgend: {},\r)\r");
    assert_eq!(
        place(&err),
        (4, 3, Some("  lgend: {},"), Some("  ^".to_owned()))
    );
    // ron itself ends a line comment only at `\n`; a lone `\r` must end it too.
    let err = level_error(
        "(\r  // The name:\r  name: \"x\",\r  map: [\"#@c#\"], // row 0\r  lgend: {},\r)\r",
    );
    assert_eq!(
        (err.line, err.col, err.message.as_str()),
        (5, 3, "unknown field `lgend`")
    );
    let ok = "(\r  // The name:\r  name: \"x\",\r  map: [\"#@c#\"], // row 0\r)\r";
    assert!(parse_level("ok.ron", ok).is_ok());
}

#[test]
fn a_tab_is_one_column_and_the_caret_follows_it() {
    let err = level_error("(\n\tname: \"x\",\n\tmap: [\"#@c#\"],\n\t\tlgend: {},\n)\n");
    assert_eq!(
        place(&err),
        (
            4,
            3,
            Some("        lgend: {},"),
            Some("        ^".to_owned())
        )
    );
    // A tab inside a map row is an unknown character of its own, one column wide.
    let err = level_error("(name: \"x\", map: [\"#@\t\tx#\"])");
    assert_eq!(err.message, "unknown map character '\\t' at (2, 0)");
    assert_eq!(place(&err).1, 22);
}

#[test]
fn an_ideographic_space_is_one_column_and_is_pointed_at_not_skipped() {
    // ron does not take U+3000 for whitespace: the error is at it, not at the next token.
    let err = level_error("(name: \"x\",\u{3000}map: [\"#@c#\"])");
    assert_eq!((err.line, err.col), (1, 12));
    assert_eq!(
        err.message,
        "unexpected character U+3000, a space that RON does not accept"
    );
    assert_eq!(err.caret_line().as_deref(), Some("           ^"));
    // A no-break space pasted from a web page is the same mistake.
    let err = level_error("(name: \"x\",\u{a0}map: [\"#@c#\"])");
    assert_eq!(
        (err.col, err.message.as_str()),
        (
            12,
            "unexpected character U+00A0, a space that RON does not accept"
        )
    );
    // Inside a string it is one character like any other, and the caret lines up under the
    // next token in a terminal because the caret line copies it.
    let err = level_error("(name: \"名\u{3000}前\", lgend: 1, map: [\"#@c#\"])");
    assert_eq!(
        (err.col, err.message.as_str()),
        (15, "unknown field `lgend`")
    );
    // `(name: "` is 8 columns, each ideograph 2.
    let caret = format!("{}\u{3000}{}^", " ".repeat(8 + 2), " ".repeat(2 + 3));
    assert_eq!(err.caret_line().as_deref(), Some(caret.as_str()));
}

#[test]
fn wide_and_multibyte_characters_are_one_column_each() {
    let err = level_error("(name: \"漢字é\", map: [\"#@é漢x#\"])");
    assert_eq!(err.message, "unknown map character 'é' at (2, 0)");
    assert_eq!(err.col, 24);
    // Wide characters take two columns on a terminal, so the caret moves two per character:
    // `(name: "`, `漢字é`, `", map: ["#@`.
    let caret = format!("{}^", " ".repeat(8 + 5 + 12));
    assert_eq!(err.caret_line().as_deref(), Some(caret.as_str()));
}

#[test]
fn an_unterminated_string_is_reported_where_it_starts() {
    // (text, line and column of the opening quote)
    let cases = [
        // The name runs on into the next line's first quote.
        ("(\n    name: \"Bad,\n    map: [\"#@#\"],\n)\n", 2, 11),
        // A map row in the middle of the map.
        (
            "(\n    name: \"Bad\",\n    map: [\n        \"#@#\",\n        \"#.#,\n        \"###\",\n    ],\n)\n",
            5,
            9,
        ),
        // A skin that never closes: it runs to the end of the file.
        (
            "(name: \"Bad\", map: [\"#@x#\"], legend: { 'x': Crate(skin: \"crate) })\n",
            1,
            57,
        ),
        // An escaped quote does not close a string.
        (
            "(name: \"Bad\", map: [\"#@c#\"],\n crates: [(at: (2, 0), skin: \"a\\\")],\n)",
            2,
            30,
        ),
        // A raw string needs its `#` too.
        ("(name: r#\"Bad\", map: [\"@\"])\n", 1, 8),
        // The same, with CRLF line ends.
        (
            "(\r\n    name: \"Bad,\r\n    map: [\"#@#\"],\r\n)\r\n",
            2,
            11,
        ),
    ];
    for (text, line, col) in cases {
        let err = level_error(text);
        assert_eq!(
            (err.line, err.col, err.message.as_str()),
            (line, col, "string is never closed"),
            "{text:?}: {err}"
        );
        assert_eq!(
            err.caret_line().as_deref().map(str::len),
            Some(col),
            "{err}"
        );
    }
}

#[test]
fn a_string_over_two_lines_is_not_taken_for_an_unterminated_one() {
    // A line break inside a string is allowed; an unrelated error later is reported as itself.
    let text = "(\n    name: \"Two\nlines\",\n    map: [\"#@c#\"],\n    lgend: {},\n)\n";
    let err = level_error(text);
    assert_eq!(
        (err.line, err.col, err.message.as_str()),
        (5, 5, "unknown field `lgend`")
    );
    let ok = "(\n    name: \"Two\nlines\",\n    map: [\"#@c#\"],\n)\n";
    assert!(parse_level("ok.ron", ok).is_ok());
}

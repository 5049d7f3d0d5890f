//! Size limits are enforced with a clear error, before anything big is allocated, and no field
//! of any size makes an error slow or large to show.

use crate::common;

use std::path::PathBuf;

use common::{TempDir, parse_level};
use game::level::{
    self, DEFAULT_SKINS, MAX_FILE_BYTES, MAX_NAME_CHARS, MAX_OVERRIDES, MAX_QUOTED_CHARS,
    MAX_SKIN_CHARS, MAX_SOURCE_COLUMNS,
};

/// `name` in a fresh folder of its own, removed with the returned [`TempDir`].
fn temp_file(name: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new("limits");
    let path = dir.0.join(name);
    (dir, path)
}

#[test]
#[ignore = "heavy: .ci/run runs it"]
fn more_than_ten_million_crates_is_an_error_at_the_first_one_too_many() {
    // 2500 rows of 4001 crates, plus a row holding the player start.
    let crate_row = format!("    \"{}\",\n", "c".repeat(4001));
    let mut text = String::from("(\n name: \"Too many\",\n map: [\n");
    text.push_str(&format!("    \"@{}\",\n", ".".repeat(4000)));
    for _ in 0..2500 {
        text.push_str(&crate_row);
    }
    text.push_str(" ],\n)\n");
    let err = parse_level("many.ron", &text).expect_err("too many");
    // Map rows 1..=2499 hold 9,998,499 crates, so crate 10,000,001 is the 1502nd of map row
    // 2500, which is on line 2504; its row string opens at column 5.
    assert_eq!(
        err.headline(),
        "many.ron:2504:1507: error: more than 10000000 crates; that is the limit"
    );
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let (_dir, path) = temp_file("huge.ron");
    let file = std::fs::File::create(&path).expect("create");
    // A sparse file: large on paper, nothing written.
    file.set_len(MAX_FILE_BYTES + 1).expect("set_len");
    let err = level::load(&path, &DEFAULT_SKINS).expect_err("too big");
    assert_eq!(err.line, 0);
    assert!(
        err.message.contains("limited to 33554432 bytes (32 MiB)"),
        "{}",
        err.message
    );
}

#[test]
fn missing_files_and_directories_are_errors_without_position() {
    let (_dir, missing) = temp_file("does-not-exist.ron");
    let err = level::load(&missing, &DEFAULT_SKINS).expect_err("missing");
    assert_eq!((err.line, err.col), (0, 0));
    assert_eq!(err.message, "cannot read level file: no such file");
    let dir = std::env::temp_dir();
    let err = level::load(&dir, &DEFAULT_SKINS).expect_err("directory");
    assert_eq!(err.message, "is a directory, not a level file");
}

#[test]
fn a_byte_order_mark_is_accepted_and_columns_stay_true() {
    let text = "\u{feff}(name: \"BOM\", map: [\"#@x#\"])";
    let err = parse_level("bom.ron", text).expect_err("x unknown");
    assert_eq!(err.col, 25);
    let ok = "\u{feff}(name: \"BOM\", map: [\"#@c#\"])";
    assert!(parse_level("bom.ron", ok).is_ok());
}

#[test]
fn overrides_and_legend_entries_reach_the_level() {
    let text = r##"(
        name: "Overrides",
        map: ["#@cCxq#"],
        legend: { 'x': Crate(health: 9, coin: true), 'q': Coin },
        crates: [ (at: (2, 0), health: Some(7), skin: "crate_strong"), (at: (4, 0), coin: false) ],
    )"##;
    let level = parse_level("o.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let summary: Vec<(u32, u32, bool, &str)> = level
        .crates
        .iter()
        .map(|c| (c.at.x, c.health, c.coin, c.skin.as_str()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (2, 7, false, "crate_strong"),
            (3, 6, false, "crate_strong"),
            (4, 9, false, "crate")
        ]
    );
    assert_eq!(level.coins.len(), 1);
    assert_eq!(level.coins[0].x, 5);
}

/// `text` with `{}` replaced by `value`.
fn fill(text: &str, value: &str) -> String {
    text.replacen("{}", value, 1)
}

/// Every string field that has a length limit, with that limit and the words of its error.
const LIMITED_STRINGS: [(&str, usize, &str); 3] = [
    (
        "(name: \"{}\", map: [\"#@c#\"])",
        MAX_NAME_CHARS,
        "the level name is",
    ),
    (
        "(name: \"L\", map: [\"#@x#\"], legend: { 'x': Crate(skin: \"{}\") })",
        MAX_SKIN_CHARS,
        "the skin name is",
    ),
    (
        "(name: \"L\", map: [\"#@c#\"], crates: [(at: (2, 0), skin: \"{}\")])",
        MAX_SKIN_CHARS,
        "the skin name is",
    ),
];

#[test]
fn strings_longer_than_their_limit_are_errors_at_the_first_character_over() {
    for (template, limit, what) in LIMITED_STRINGS {
        // Two-byte characters, so that columns must count characters, not bytes.
        let at_limit = fill(template, &"é".repeat(limit));
        match parse_level("limits.ron", &at_limit) {
            Ok(_) => {}
            // A skin of the right length is still an unknown skin; only the length matters here.
            Err(err) => assert!(!err.message.contains("the limit"), "{err}"),
        }
        let over = fill(template, &"é".repeat(limit + 1));
        let err = parse_level("limits.ron", &over).expect_err("over the limit");
        assert_eq!(
            err.message,
            format!("{what} {} characters long; the limit is {limit}", limit + 1)
        );
        let quote = template.find("{}").expect("placeholder");
        assert_eq!((err.line, err.col), (1, quote + 1 + limit), "{err}");
    }
}

#[test]
fn huge_strings_give_a_short_error() {
    // A 100k-character name, a 1 MiB skin and a 1 MiB field name, legend key and kind.
    let huge = "x".repeat(1 << 20);
    let cases = [
        fill(LIMITED_STRINGS[0].0, &huge[..100_000]),
        fill(LIMITED_STRINGS[1].0, &huge),
        fill(LIMITED_STRINGS[2].0, &huge),
        fill("(name: \"L\", map: [\"#@#\"], {}: 1)", &huge),
        fill(
            "(name: \"L\", map: [\"#@#\"], legend: { \"{}\": Wall })",
            &huge,
        ),
        fill("(name: \"L\", map: [\"#@#\"], legend: { 'x': {} })", &huge),
        fill(
            "(name: \"L\", map: [\"#@#\"], legend: { 'x': Crate(coin: \"{}\") })",
            &huge,
        ),
    ];
    for text in &cases {
        let err = parse_level("limits.ron", text).expect_err("invalid");
        let shown = err.to_string();
        assert!(
            shown.chars().count() < 2 * MAX_SOURCE_COLUMNS + 3 * MAX_QUOTED_CHARS + 200,
            "{} characters: {shown}",
            shown.len()
        );
    }
}

#[test]
fn a_million_repeats_of_one_override_stop_at_the_second() {
    let mut text = String::from("(\n name: \"Repeats\",\n map: [\"#@c#\"],\n crates: [\n");
    text.push_str(&"  (at: (2, 0), health: 2),\n".repeat(1_000_000));
    // Whatever follows the second is not read: not even this unknown field.
    text.push_str(" ],\n bogus: 1,\n)\n");
    let err = parse_level("limits.ron", &text).expect_err("repeated override");
    assert_eq!(
        err.headline(),
        "limits.ron:6:8: error: second crate override for (2, 0)"
    );
    assert_eq!(
        err.hint.as_deref(),
        Some("the first is on line 5; merge them into one")
    );
}

#[test]
fn repeats_are_found_by_cell_wherever_they_are_in_the_list() {
    let text = "(name: \"R\", map: [\"#@cc#\"], crates: [
        (at: (2, 0)),
        (at: (3, 0), health: 4),
        (at: (3, 0)),
    ])";
    let err = parse_level("limits.ron", text).expect_err("repeated");
    assert_eq!(
        (err.line, err.col, err.message.as_str()),
        (4, 14, "second crate override for (3, 0)")
    );
    assert_eq!(
        err.hint.as_deref(),
        Some("the first is on line 3; merge them into one")
    );
}

#[test]
#[ignore = "heavy: .ci/run runs it"]
fn more_overrides_than_the_limit_is_an_error_at_the_first_one_too_many() {
    let mut text = String::from("(name: \"Many\", map: [\"#@c#\"], crates: [\n");
    for i in 0..=MAX_OVERRIDES {
        text.push_str(&format!("(at:({},{})),", i % 1000, i / 1000));
    }
    text.push_str("])");
    let err = parse_level("limits.ron", &text).expect_err("too many");
    assert_eq!(
        err.message,
        format!("more than {MAX_OVERRIDES} crate overrides; that is the limit")
    );
    // Override 1,000,000 is at (0, 1000), the 13-character item after 1,000,000 shorter ones.
    let item = "(at:(0,1000))";
    let expected = text.find(item).expect("item") - text.find('\n').expect("newline");
    assert_eq!((err.line, err.col), (2, expected + 4), "{err}");
}

#[test]
#[ignore = "heavy: .ci/run runs it"]
fn millions_of_map_rows_are_counted_not_kept() {
    let mut text = String::from("(name: \"Tall\", map: [\n");
    text.push_str(&"\"#\",\n".repeat(2_000_000));
    text.push_str("])");
    let err = parse_level("limits.ron", &text).expect_err("too tall");
    assert_eq!(err.message, "the map has 2000000 rows; the limit is 4096");
    assert_eq!((err.line, err.col), (4098, 2));
}

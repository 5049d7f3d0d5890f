//! Size limits are enforced with a clear error, before anything big is allocated.

use std::path::{Path, PathBuf};

use game::level::{self, DEFAULT_SKINS, MAX_FILE_BYTES};

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crate-room-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn more_than_a_million_crates_is_an_error_at_the_first_one_too_many() {
    // 1000 rows of 1001 crates, plus a row holding the player start.
    let crate_row = format!("    \"{}\",\n", "c".repeat(1001));
    let mut text = String::from("(\n name: \"Too many\",\n map: [\n");
    text.push_str(&format!("    \"@{}\",\n", ".".repeat(1000)));
    for _ in 0..1000 {
        text.push_str(&crate_row);
    }
    text.push_str(" ],\n)\n");
    let err = level::parse(Path::new("many.ron"), &text, &DEFAULT_SKINS).expect_err("too many");
    // Map rows 1..=999 hold 999,999 crates, so crate 1,000,001 is the second of map row 1000,
    // which is on line 1004; its row string opens at column 5.
    assert_eq!(
        err.headline(),
        "many.ron:1004:7: error: more than 1000000 crates; that is the limit"
    );
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let path = temp_file("huge.ron");
    let file = std::fs::File::create(&path).expect("create");
    // A sparse file: large on paper, nothing written.
    file.set_len(MAX_FILE_BYTES + 1).expect("set_len");
    let err = level::load(&path, &DEFAULT_SKINS).expect_err("too big");
    assert_eq!(err.line, 0);
    assert!(
        err.message.contains("limited to 16777216 bytes (16 MiB)"),
        "{}",
        err.message
    );
    std::fs::remove_file(&path).ok();
}

#[test]
fn missing_files_and_directories_are_errors_without_position() {
    let missing = temp_file("does-not-exist.ron");
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
    let err = level::parse(Path::new("bom.ron"), text, &DEFAULT_SKINS).expect_err("x unknown");
    assert_eq!(err.col, 25);
    let ok = "\u{feff}(name: \"BOM\", map: [\"#@c#\"])";
    assert!(level::parse(Path::new("bom.ron"), ok, &DEFAULT_SKINS).is_ok());
}

#[test]
fn overrides_and_legend_entries_reach_the_level() {
    let text = r##"(
        name: "Overrides",
        map: ["#@cCxk#"],
        legend: { 'x': Crate(health: 9, coin: true), 'k': Coin },
        crates: [ (at: (2, 0), health: Some(7), skin: "crate_strong"), (at: (4, 0), coin: false) ],
    )"##;
    let level =
        level::parse(Path::new("o.ron"), text, &DEFAULT_SKINS).unwrap_or_else(|e| panic!("{e}"));
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

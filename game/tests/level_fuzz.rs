//! The loader never panics (or hangs) on arbitrary input: random bytes, token soup, and mutated
//! copies of the shipped levels; and every error it gives displays as one well-formed block with
//! nothing raw from the file in it. Strings of any length and content in every string field get
//! the length limit's error when over it. 4,000 + 2,000 + 6,000 + 1,500 + 2,000 = 15,500 cases
//! per run.

use crate::common;

use std::path::Path;

use common::mutate::{apply, mutation};
use game::level::{
    self, DEFAULT_SKINS, Level, LevelError, MAX_NAME_CHARS, MAX_SKIN_CHARS, Tile,
    escape_for_display,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Bytes that matter to RON and to maps.
const LEVEL_BYTES: &[u8] = b"()[]{}:,\"'#.@cC$o 0123456789-\n\\/*rSomeCrate";

const SHIPPED: [&str; 4] = [
    include_str!("../../levels/crate_room.ron"),
    include_str!("../../levels/corridors.ron"),
    include_str!("../../levels/vault.ron"),
    include_str!("../../levels/cratetopia.ron"),
];

/// Parse `bytes`; check the level is internally consistent, or the error well-formed.
fn parse_and_check(bytes: &[u8]) {
    match level::parse_bytes(Path::new("fuzz.ron"), bytes, &DEFAULT_SKINS) {
        Ok(level) => assert_consistent(&level),
        Err(err) => assert_well_formed(&err),
    }
}

/// Longest line of a displayed error: the source window (120 columns, each at most a 10-column
/// escape) and a message quoting a few 64-character excerpts stay well under this.
const MAX_SHOWN_LINE: usize = 1500;

/// The error displays as its headline, source and caret lines and hint, and nothing else: no raw
/// control character, no extra line, no line of unbounded length.
fn assert_well_formed(err: &LevelError) {
    let shown = err.to_string();
    let lines = 1 + 2 * usize::from(err.source_line.is_some()) + usize::from(err.hint.is_some());
    assert_eq!(shown.split('\n').count(), lines, "{shown:?}");
    assert!(
        !shown.chars().any(|c| c != '\n' && c.is_control()),
        "{shown:?}"
    );
    assert!(
        shown
            .split('\n')
            .all(|l| l.chars().count() < MAX_SHOWN_LINE),
        "{shown:?}"
    );
    if let Some(caret) = err.caret_line() {
        assert!(
            caret.ends_with('^') && caret.trim_start().len() == 1,
            "{caret:?}"
        );
    }
}

fn assert_consistent(level: &Level) {
    assert_eq!(
        level.tiles.len(),
        level.width as usize * level.height as usize
    );
    let start = level.player_start;
    assert_eq!(level.tile(start.x, start.y), Tile::Floor);
    for spawn in &level.crates {
        assert_eq!(level.tile(spawn.at.x, spawn.at.y), Tile::Floor);
        assert!((1..=1000).contains(&spawn.health));
        assert!(DEFAULT_SKINS.contains(&spawn.skin.as_str()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, failure_persistence: None, rng_seed: RngSeed::Fixed(24), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        parse_and_check(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, rng_seed: RngSeed::Fixed(25), ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(vec![
        "(", ")", "[", "]", "{", "}", ",", ":", "name", "map", "legend", "crates", "at",
        "health", "skin", "coin", "Crate", "Wall", "Some", "\"#@.c#\"", "\"x\"", "'x'", "'#'",
        "0", "7", "-3", "true", " ", "\n", "//c\n", "/*", "*/", "r#\"#\"#",
    ]), 0..60)) {
        parse_and_check(tokens.concat().as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6_000, failure_persistence: None, rng_seed: RngSeed::Fixed(26), ..ProptestConfig::default() })]

    #[test]
    fn mutated_shipped_levels_never_panic(
        which in 0..SHIPPED.len(),
        mutations in prop::collection::vec(mutation(LEVEL_BYTES, 40), 1..6),
    ) {
        // Mostly the small levels; cratetopia is 20x larger and would dominate the run time.
        let which = if which == 3 && mutations.len() > 2 { 0 } else { which };
        let mut bytes = SHIPPED[which].as_bytes().to_vec();
        for m in &mutations {
            bytes = apply(&bytes, m);
        }
        parse_and_check(&bytes);
    }
}

/// A string of any characters but `"` and `\` (which RON would end or escape), of any length:
/// mostly short, often around the limits, now and then huge.
fn any_string() -> impl Strategy<Value = String> {
    let char = prop_oneof![
        4 => proptest::char::range('a', 'z'),
        2 => any::<char>(),
        1 => prop::sample::select(vec!['\n', '\r', '\t', '\0', '\u{1b}', '\u{202e}', '\u{3000}', 'é', '漢']),
    ]
    .prop_filter("RON would end or escape it", |&c| c != '"' && c != '\\');
    let len = prop_oneof![
        4 => 0..80usize,
        2 => 60..70usize,
        1 => 1_000..200_000usize,
    ];
    (char, len).prop_map(|(c, len)| {
        // Vary the characters cheaply, even in huge strings.
        let cycle = [c, 'x', c, 'é'];
        (0..len).map(|i| cycle[i % cycle.len()]).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_500, failure_persistence: None, rng_seed: RngSeed::Fixed(27), ..ProptestConfig::default() })]

    #[test]
    fn strings_of_any_length_in_any_field_are_limited(field in 0..5usize, value in any_string()) {
        let text = match field {
            0 => format!("(name: \"{value}\", map: [\"#@c#\"])"),
            1 => format!("(name: \"L\", map: [\"#@x#\"], legend: {{ 'x': Crate(skin: \"{value}\") }})"),
            2 => format!("(name: \"L\", map: [\"#@c#\"], crates: [(at: (2, 0), skin: \"{value}\")])"),
            3 => format!("(name: \"L\", map: [\"#@#\"], legend: {{ \"{value}\": Wall }})"),
            _ => format!("(name: \"L\", map: [\"#@{value}#\"])"),
        };
        let len = value.chars().count();
        match level::parse(Path::new("long.ron"), &text, &DEFAULT_SKINS) {
            Ok(level) => {
                assert_consistent(&level);
                prop_assert!(level.name.chars().count() <= MAX_NAME_CHARS);
            }
            Err(err) => {
                assert_well_formed(&err);
                let limit = match field {
                    0 if !value.trim().is_empty() => Some(MAX_NAME_CHARS),
                    1 | 2 => Some(MAX_SKIN_CHARS),
                    _ => None,
                };
                if let Some(limit) = limit {
                    let says_limit = err.message.contains(&format!("the limit is {limit}"));
                    prop_assert_eq!(says_limit, len > limit, "{}", err);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, rng_seed: RngSeed::Fixed(28), ..ProptestConfig::default() })]

    #[test]
    fn escaped_text_holds_no_control_character_and_escaping_twice_changes_nothing(text in any::<String>()) {
        let once = escape_for_display(&text);
        prop_assert!(!once.chars().any(char::is_control), "{:?}", once);
        prop_assert_eq!(escape_for_display(&once), once.clone());
        // Printable ASCII, backslashes included, is kept as it is.
        let ascii: String = text.chars().filter(|c| (' '..='~').contains(c)).collect();
        prop_assert_eq!(escape_for_display(&ascii), ascii.as_str());
    }
}

#[test]
fn shipped_levels_are_consistent() {
    for text in SHIPPED {
        let level = level::parse(Path::new("shipped.ron"), text, &DEFAULT_SKINS)
            .unwrap_or_else(|err| panic!("{err}"));
        assert_consistent(&level);
    }
}

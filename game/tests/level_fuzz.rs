//! The loader never panics (or hangs) on arbitrary input: random bytes, token soup, and mutated
//! copies of the shipped levels. 4,000 + 2,000 + 6,000 = 12,000 cases per run.

use std::path::Path;

use game::level::{self, DEFAULT_SKINS, Level, Tile};
use proptest::prelude::*;

const SHIPPED: [&str; 4] = [
    include_str!("../../levels/crate_room.ron"),
    include_str!("../../levels/corridors.ron"),
    include_str!("../../levels/vault.ron"),
    include_str!("../../levels/cratetopia.ron"),
];

/// Parse `bytes`, and if that succeeds check the level is internally consistent.
fn parse_and_check(bytes: &[u8]) {
    if let Ok(level) = level::parse_bytes(Path::new("fuzz.ron"), bytes, &DEFAULT_SKINS) {
        assert_consistent(&level);
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

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, bit: u8 },
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    DuplicateLine { line: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, 0..8u8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        (at, 1..40usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (at, prop::collection::vec(insertable(), 1..12))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        at.prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// Bytes that matter to RON and to maps, plus anything at all now and then.
fn insertable() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(b"()[]{}:,\"'#.@cC$o 0123456789-\n\\/*rSomeCrate".to_vec()),
        1 => any::<u8>(),
    ]
}

fn apply(text: &[u8], mutation: &Mutation) -> Vec<u8> {
    let mut out = text.to_vec();
    let len = out.len().max(1);
    match mutation {
        Mutation::Flip { at, bit } => {
            if !out.is_empty() {
                out[at % len] ^= 1 << bit;
            }
        }
        Mutation::Delete { at, len: n } => {
            let from = at % len;
            let to = (from + n).min(out.len());
            if from < to {
                out.drain(from..to);
            }
        }
        Mutation::Insert { at, bytes } => {
            let at = at % (out.len() + 1);
            out.splice(at..at, bytes.iter().copied());
        }
        Mutation::DuplicateLine { line } => {
            let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
            if !lines.is_empty() {
                let i = line % lines.len();
                let mut joined = Vec::with_capacity(text.len() + lines[i].len());
                for (j, l) in lines.iter().enumerate() {
                    joined.extend_from_slice(l);
                    if j == i {
                        joined.extend_from_slice(l);
                    }
                }
                out = joined;
            }
        }
        Mutation::Truncate { at } => out.truncate(at % len),
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        parse_and_check(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

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
    #![proptest_config(ProptestConfig { cases: 6_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_shipped_levels_never_panic(
        which in 0..SHIPPED.len(),
        mutations in prop::collection::vec(mutation(), 1..6),
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

#[test]
fn shipped_levels_are_consistent() {
    for text in SHIPPED {
        let level = level::parse(Path::new("shipped.ron"), text, &DEFAULT_SKINS)
            .unwrap_or_else(|err| panic!("{err}"));
        assert_consistent(&level);
    }
}

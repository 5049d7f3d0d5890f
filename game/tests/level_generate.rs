//! `level::generate` makes valid, deterministic crate-filled rooms of any requested size, with
//! kegs among the crates when asked (`generate_with_kegs`).

use std::path::Path;

use game::level::{self, DEFAULT_SKINS, Level, MAX_CRATES, MAX_GENERATED_CRATES, MAX_SIDE, Tile};

/// `level::generate` for a count within its limit.
fn generate(crates: usize, seed: u64) -> String {
    level::generate(crates, seed).unwrap_or_else(|err| panic!("{err}"))
}

fn parse(text: &str) -> Level {
    level::parse(Path::new("generated.ron"), text, &DEFAULT_SKINS)
        .unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn generated_levels_have_exactly_the_requested_crates() {
    for n in [0, 1, 50, 2000] {
        for seed in [0, 1, 42, u64::MAX] {
            let level = parse(&generate(n, seed));
            assert_eq!(level.crates.len(), n, "n = {n}, seed = {seed}");
        }
    }
}

#[test]
fn same_arguments_give_byte_identical_text() {
    assert_eq!(generate(2000, 7), generate(2000, 7));
    assert_ne!(generate(2000, 7), generate(2000, 8));
}

#[test]
fn generated_output_is_frozen() {
    // Guards the "never changes" promise: a different layout for the same seed would silently
    // change every generated stress level.
    let text = generate(20, 3);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    assert_eq!(hash, FROZEN_HASH, "generate(20, 3) changed:\n{text}");
}

const FROZEN_HASH: u64 = 3_490_875_574_625_268_535;

#[test]
fn generated_room_is_walled_with_a_clear_start() {
    let level = parse(&generate(500, 9));
    let (w, h) = (level.width, level.height);
    assert!(w.abs_diff(h) <= 1, "roughly square: {w} x {h}");
    for x in 0..w {
        assert_eq!(level.tile(x, 0), Tile::Wall);
        assert_eq!(level.tile(x, h - 1), Tile::Wall);
    }
    for y in 0..h {
        assert_eq!(level.tile(0, y), Tile::Wall);
        assert_eq!(level.tile(w - 1, y), Tile::Wall);
    }
    let start = level.player_start;
    let near_start =
        |c: &level::CrateSpawn| c.at.x.abs_diff(start.x) <= 1 && c.at.y.abs_diff(start.y) <= 1;
    assert!(
        !level.crates.iter().any(near_start),
        "the start and its neighbours are clear"
    );
    let coins = level.crates.iter().filter(|c| c.coin).count();
    assert!(
        coins > 0 && coins < 500 / 5,
        "a few crates drop coins: {coins}"
    );
    assert!(level.crates.iter().any(|c| c.skin == "crate_strong"));
}

#[test]
fn hundred_thousand_crates_generate_and_parse_within_limits() {
    // No timing here: a debug build on a shared machine says nothing about speed.
    let text = generate(100_000, 1);
    let level = parse(&text);
    assert_eq!(level.crates.len(), 100_000);
    assert!(level.width <= MAX_SIDE && level.height <= MAX_SIDE);
    assert!(level.crates.len() <= MAX_CRATES);
}

#[test]
fn the_largest_count_gives_a_level_within_every_limit_and_one_more_is_refused() {
    let level = parse(&generate(MAX_GENERATED_CRATES, 1));
    assert_eq!(level.crates.len(), MAX_GENERATED_CRATES);
    assert!(level.width <= MAX_SIDE && level.height <= MAX_SIDE);
    let err = level::generate(MAX_GENERATED_CRATES + 1, 1).expect_err("too many");
    assert!(
        err.to_string()
            .contains(&format!("at most {MAX_GENERATED_CRATES}")),
        "{err}"
    );
}

#[test]
fn generated_kegs_are_exactly_k_among_exactly_n_crates_and_no_kegs_changes_nothing() {
    assert_eq!(
        level::generate_with_kegs(500, 0, 9).unwrap(),
        level::generate(500, 9).unwrap()
    );
    for (crates, kegs) in [(0, 1), (0, 300), (500, 120), (37, 5)] {
        let text = level::generate_with_kegs(crates, kegs, 4).unwrap();
        assert_eq!(text, level::generate_with_kegs(crates, kegs, 4).unwrap());
        let level = parse(&text);
        let count = level.crates.iter().filter(|c| c.skin == "keg").count();
        assert_eq!((level.crates.len() - count, count), (crates, kegs));
    }
}

#[test]
fn crates_and_kegs_together_are_held_to_the_limit() {
    let half = MAX_GENERATED_CRATES / 2;
    let err = level::generate_with_kegs(half + 1, MAX_GENERATED_CRATES - half, 1)
        .expect_err("one too many");
    assert!(
        err.to_string().contains(&MAX_GENERATED_CRATES.to_string()),
        "{err}"
    );
    assert!(level::generate_with_kegs(usize::MAX, usize::MAX, 1).is_err());
}

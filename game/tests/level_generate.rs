//! `level::generate` makes valid, deterministic crate-filled rooms of any requested size, with
//! kegs among the crates when asked (`generate_with_kegs`).

use crate::common;

use common::valid_level;
use game::level::{self, Layout, MAX_CRATES, MAX_GENERATED_CRATES, MAX_SIDE, Tile};

/// `level::generate` for a count within its limit.
fn generate(crates: usize, seed: u64) -> String {
    level::generate(crates, seed).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn generated_levels_have_exactly_the_requested_crates() {
    for n in [0, 1, 50, 2000] {
        for seed in [0, 1, 42, u64::MAX] {
            let level = valid_level(&generate(n, seed));
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
    let level = valid_level(&generate(500, 9));
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
    let level = valid_level(&text);
    assert_eq!(level.crates.len(), 100_000);
    assert!(level.width <= MAX_SIDE && level.height <= MAX_SIDE);
    assert!(level.crates.len() <= MAX_CRATES);
}

#[test]
fn the_block_layouts_most_crates_are_the_most_whose_room_fits_and_one_more_is_refused() {
    let side = |n| Layout::Blocks.map_side(n);
    assert!(side(MAX_GENERATED_CRATES) <= MAX_SIDE as usize);
    assert!(side(MAX_GENERATED_CRATES + 1) > MAX_SIDE as usize);
    let err = level::generate(MAX_GENERATED_CRATES + 1, 1).expect_err("too many");
    assert!(
        err.to_string()
            .contains(&format!("at most {MAX_GENERATED_CRATES}")),
        "{err}"
    );
}

#[test]
fn map_side_is_the_side_of_the_generated_room() {
    for crates in [0, 1, 12, 500, 5_000, 60_000] {
        let level = valid_level(&generate(crates, 3));
        let side = Layout::Blocks.map_side(crates);
        assert_eq!((level.width as usize, level.height as usize), (side, side));
        let level = valid_level(&level::generate_dense(crates, 0, 3).unwrap());
        let side = Layout::Dense.map_side(crates);
        assert_eq!((level.width as usize, level.height as usize), (side, side));
    }
}

/// Heavy (an 8-million-crate level): `.ci/run` runs it with `--ignored`.
#[test]
#[ignore = "heavy: .ci/run runs it"]
fn the_largest_count_gives_a_level_within_every_limit() {
    let level = valid_level(&generate(MAX_GENERATED_CRATES, 1));
    assert_eq!(level.crates.len(), MAX_GENERATED_CRATES);
    assert!(level.width <= MAX_SIDE && level.height <= MAX_SIDE);
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
        let level = valid_level(&text);
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

#[test]
fn dense_levels_have_exactly_the_requested_crates_and_kegs_identically_for_the_same_arguments() {
    for (crates, kegs) in [
        (0, 0),
        (1, 0),
        (4, 0),
        (2000, 0),
        (2000, 300),
        (0, 50),
        (12_345, 7),
    ] {
        for seed in [0, 9, u64::MAX] {
            let text = level::generate_dense(crates, kegs, seed).unwrap();
            assert_eq!(text, level::generate_dense(crates, kegs, seed).unwrap());
            let level = valid_level(&text);
            let k = level.crates.iter().filter(|c| c.skin == "keg").count();
            assert_eq!((level.crates.len() - k, k), (crates, kegs), "seed {seed}");
        }
    }
    assert_ne!(
        level::generate_dense(2000, 0, 7).unwrap(),
        level::generate_dense(2000, 0, 8).unwrap()
    );
    assert_eq!(
        level::generate_level(level::Layout::Dense, 500, 3, 2).unwrap(),
        level::generate_dense(500, 3, 2).unwrap()
    );
    assert_eq!(
        level::generate_level(level::Layout::Blocks, 500, 3, 2).unwrap(),
        level::generate_with_kegs(500, 3, 2).unwrap()
    );
}

#[test]
fn dense_room_is_walled_full_but_for_its_lanes_and_starts_on_a_lane() {
    let level = valid_level(&level::generate_dense(100_000, 0, 3).unwrap());
    let (w, h) = (level.width, level.height);
    assert_eq!(w, h);
    for i in 0..w {
        for (x, y) in [(i, 0), (i, h - 1), (0, i), (w - 1, i)] {
            assert_eq!(level.tile(x, y), Tile::Wall, "({x}, {y})");
        }
    }
    let crate_at: std::collections::HashSet<(u32, u32)> =
        level.crates.iter().map(|c| (c.at.x, c.at.y)).collect();
    let middle = 1 + (w - 2) / 2;
    let lane = |x: u32, y: u32| (y - 1).is_multiple_of(level::DENSE_PERIOD as u32) || x == middle;
    let (mut cells, mut empty) = (0, 0);
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            assert_eq!(level.tile(x, y), Tile::Floor, "({x}, {y})");
            if lane(x, y) {
                assert!(
                    !crate_at.contains(&(x, y)),
                    "a crate on a lane at ({x}, {y})"
                );
            } else {
                cells += 1;
                empty += usize::from(!crate_at.contains(&(x, y)));
            }
        }
    }
    // The smallest room that holds them: fewer empty cells than one more row and column hold.
    assert_eq!(cells - empty, 100_000);
    assert!(empty < 2 * w as usize, "{empty} empty of {cells}");
    let start = level.player_start;
    assert!(lane(start.x, start.y) && start.x == middle, "{start:?}");
    assert!(start.y.abs_diff(h / 2) <= level::DENSE_PERIOD as u32 / 2 + 1);
    let coins = level.crates.iter().filter(|c| c.coin).count();
    assert!(
        (3_000..7_000).contains(&coins),
        "one in twenty drops a coin: {coins}"
    );
}

#[test]
fn dense_rooms_leave_their_spare_cells_evenly_spread() {
    // 100,000 crates take a room of 323 x 323 inner cells with 100,464 crate cells: the 464
    // spare ones are drawn at random, so each quarter of the room has about a quarter of them
    // (a fill in reading order would leave them all at the bottom).
    let level = valid_level(&level::generate_dense(100_000, 0, 1).unwrap());
    assert_eq!(level.width, 323 + 2);
    let crate_at: std::collections::HashSet<(u32, u32)> =
        level.crates.iter().map(|c| (c.at.x, c.at.y)).collect();
    let middle = 1 + 323 / 2;
    let mut quarters = [0usize; 4];
    for y in 1..=323u32 {
        for x in 1..=323u32 {
            let lane = (y - 1).is_multiple_of(level::DENSE_PERIOD as u32) || x == middle;
            if !lane && !crate_at.contains(&(x, y)) {
                quarters[usize::from(x > middle) + 2 * usize::from(y > middle)] += 1;
            }
        }
    }
    assert_eq!(quarters.iter().sum::<usize>(), 464);
    for q in quarters {
        assert!(
            q.abs_diff(116) < 35,
            "spare cells per quarter: {quarters:?}"
        );
    }
}

#[test]
fn the_dense_layout_holds_the_formats_crate_limit_and_refuses_one_more() {
    assert_eq!(level::MAX_DENSE_CRATES, MAX_CRATES);
    assert!(Layout::Dense.map_side(MAX_CRATES) <= MAX_SIDE as usize);
    for (crates, kegs) in [
        (MAX_CRATES + 1, 0),
        (MAX_CRATES, 1),
        (usize::MAX, usize::MAX),
    ] {
        let err = level::generate_dense(crates, kegs, 1).expect_err("too many");
        assert_eq!(err.layout, level::Layout::Dense);
        assert!(err.to_string().contains("at most 10000000"), "{err}");
    }
    // The block layout's refusal points to the dense one.
    let err = level::generate(MAX_GENERATED_CRATES + 1, 1).unwrap_err();
    assert!(err.to_string().contains("--dense"), "{err}");
}

/// Heavy (a ten-million-crate level): `.ci/run` runs it with `--ignored`.
#[test]
#[ignore = "heavy: .ci/run runs it"]
fn ten_million_dense_crates_parse_within_every_limit() {
    let level = valid_level(&level::generate_dense(MAX_CRATES, 0, 1).unwrap());
    assert_eq!(level.crates.len(), 10_000_000);
    assert!(level.width <= MAX_SIDE && level.height <= MAX_SIDE);
}

//! The editor on mutated copies of real levels: whatever the file holds, opening it never
//! panics; a file `check` accepts always opens, saves unedited byte for byte, and after rows and
//! columns are added round it still describes the same level, moved, with every crate override
//! on its crate. 1,500 cases per run.

use crate::common;

use std::path::Path;

use common::TempDir;
use common::mutate::{apply, mutation};
use game::editor::{Editor, Side};
use game::level::{self, Cell, DEFAULT_SKINS, Level};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Bytes that matter to RON and to maps.
const LEVEL_BYTES: &[u8] = b"()[]{}:,\"'#.@cC$o 0123456789-\n\r\\/*rSomeCrate";

const SOURCES: [&str; 4] = [
    include_str!("../../levels/crate_room.ron"),
    include_str!("../../levels/vault.ron"),
    include_str!("../../levels/corridors.ron"),
    "(name: \"Inline\", map: [\"######\", \"#@c.C#\", \"#.$c.#\", \"######\"], crates: [(at: (2, 1), health: 2), (at: (3, 2), coin: true)])",
];

/// `level` with every cell moved right by `dx` and down by `dy` in a map `dw` wider and `dh`
/// taller (the new cells void).
fn moved(level: &Level, dx: u32, dy: u32, dw: u32, dh: u32) -> Level {
    let shift = |c: Cell| Cell {
        x: c.x + dx,
        y: c.y + dy,
    };
    let (width, height) = (level.width + dw, level.height + dh);
    let mut tiles = vec![level::Tile::Void; (width * height) as usize];
    for y in 0..level.height {
        for x in 0..level.width {
            tiles[((y + dy) * width + x + dx) as usize] = level.tile(x, y);
        }
    }
    let mut out = level.clone();
    out.width = width;
    out.height = height;
    out.tiles = tiles;
    out.player_start = shift(level.player_start);
    for spawn in &mut out.crates {
        spawn.at = shift(spawn.at);
    }
    for coin in &mut out.coins {
        *coin = shift(*coin);
    }
    out
}

fn check_file(dir: &Path, bytes: &[u8]) -> Result<(), TestCaseError> {
    let path = dir.join("fuzz.ron");
    std::fs::write(&path, bytes).expect("write");
    let parsed = level::parse_bytes(&path, bytes, &DEFAULT_SKINS);
    let opened = Editor::open(&path, &DEFAULT_SKINS);
    let (level, mut editor) = match (parsed, opened) {
        (Err(expected), Err(got)) => {
            prop_assert_eq!(got, expected);
            return Ok(());
        }
        (Ok(level), Ok(editor)) => (level, editor),
        (parsed, opened) => {
            return Err(TestCaseError::fail(format!(
                "check says {parsed:?}, the editor {opened:?}"
            )));
        }
    };
    prop_assert_eq!(editor.text().as_bytes(), bytes);
    prop_assert!(!editor.is_modified());
    editor.resize(Side::Top, 1).expect("fits");
    editor.resize(Side::Left, 2).expect("fits");
    editor.resize(Side::Bottom, 1).expect("fits");
    editor.resize(Side::Right, 1).expect("fits");
    prop_assert_eq!(editor.problem(), None, "{}", editor.text());
    prop_assert!(editor.overrides_to_remove().is_empty());
    prop_assert_eq!(editor.level().expect("valid"), moved(&level, 2, 1, 3, 2));
    editor.save().expect("saves");
    prop_assert_eq!(
        level::load(&path, &DEFAULT_SKINS).expect("check passes"),
        moved(&level, 2, 1, 3, 2)
    );
    while editor.undo() {}
    prop_assert_eq!(editor.text().as_bytes(), bytes);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_500, failure_persistence: None, rng_seed: RngSeed::Fixed(23), ..ProptestConfig::default() })]

    #[test]
    #[ignore = "heavy: .ci/run runs it"]
    fn mutated_levels_open_or_fail_as_check_does_and_valid_ones_move_intact(
        which in 0..SOURCES.len(),
        mutations in prop::collection::vec(mutation(LEVEL_BYTES, 8), 1..4),
    ) {
        let mut bytes = SOURCES[which].as_bytes().to_vec();
        for m in &mutations {
            bytes = apply(&bytes, m);
        }
        let dir = TempDir::new("editor-fuzz");
        check_file(&dir.0, &bytes)?;
    }

    #[test]
    #[ignore = "heavy: .ci/run runs it"]
    fn unmutated_sources_move_intact(which in 0..SOURCES.len()) {
        let dir = TempDir::new("editor-fuzz-sources");
        check_file(&dir.0, SOURCES[which].as_bytes())?;
    }
}

//! The levels shipped in `levels/` are valid and fit what the game expects of them, and the
//! browser build carries them and the assets.

use crate::common;

use std::path::{Path, PathBuf};

use game::campaign::Campaign;
use game::level::{self, DEFAULT_SKINS, Level, Tile};

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

fn load(name: &str) -> Level {
    let path = levels_dir().join(name);
    level::load(&path, &DEFAULT_SKINS).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn every_shipped_level_passes_check() {
    let paths = common::shipped_levels();
    assert!(paths.len() >= 3, "{paths:?}");
    let mut out = Vec::new();
    let status = level::check(&paths, &DEFAULT_SKINS, &mut out);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(status, 0, "{out}");
    assert_eq!(out, format!("ok: {} files valid\n", paths.len()));
}

/// The browser build has no file system: every level, the campaign, the atlas and every sound
/// effect must be built in. `fsutil/in_memory.rs` (compiled for the browser only) names each
/// with `include_bytes!`; a file it leaves out is missing in the browser (one missing sound
/// turns all sound off).
#[test]
fn the_browser_build_carries_every_level_and_asset() {
    let repo = common::repo();
    let source = std::fs::read_to_string(repo.join("game/src/headless/fsutil/in_memory.rs"))
        .expect("the browser's built-in files");
    let mut files: Vec<PathBuf> = common::shipped_levels();
    files.push(levels_dir().join("campaign.txt"));
    files.push(repo.join("assets/atlas.png"));
    files.push(repo.join("assets/atlas.ron"));
    let sfx = repo.join("assets").join(game::sfx::SFX_DIR);
    files.extend(game::sfx::Sfx::ALL.iter().map(|s| sfx.join(s.file_name())));
    for file in files {
        let relative = file.strip_prefix(&repo).expect("a file of the repository");
        let relative = relative.to_string_lossy().replace('\\', "/");
        let entry = format!("\"{relative}\",\n        include_bytes!(\"../../../../{relative}\")");
        assert!(
            source.contains(&entry),
            "game/src/headless/fsutil/in_memory.rs does not build {relative} into the browser \
             build: add `(\"{relative}\", include_bytes!(\"../../../../{relative}\"))` to SHIPPED"
        );
    }
}

/// The shipped levels outside the campaign: the sandbox, big rooms to play freely.
const SANDBOX: [&str; 2] = ["crate_sea.ron", "cratetopia.ron"];

#[test]
fn every_shipped_level_is_in_the_campaign_or_the_sandbox_once() {
    let (campaign, problem) = Campaign::load(&levels_dir());
    assert!(problem.is_none(), "{problem:?}");
    let mut listed: Vec<String> = campaign.levels().to_vec();
    assert!(listed.len() >= 10, "{listed:?}");
    listed.extend(SANDBOX.iter().map(|s| (*s).to_owned()));
    listed.sort();
    let shipped: Vec<String> = common::shipped_levels()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        listed, shipped,
        "levels/campaign.txt plus the sandbox and levels/*.ron differ"
    );
}

/// Pacing: each campaign level clears in at most 90 s at gold pace, the campaign in 15 min.
#[test]
fn every_campaign_level_is_at_most_90_seconds_and_the_campaign_15_minutes_at_gold() {
    let (campaign, _) = Campaign::load(&levels_dir());
    let mut total = 0;
    for name in campaign.levels() {
        let par = load(name)
            .par
            .unwrap_or_else(|| panic!("{name} has no `par`"));
        assert!(par.gold <= 90 * 60, "{name}: gold is {} steps", par.gold);
        total += par.gold;
    }
    assert!(
        total <= 15 * 60 * 60,
        "the campaign takes {total} steps at gold"
    );
}

#[test]
fn every_campaign_level_sets_par_times() {
    let (campaign, _) = Campaign::load(&levels_dir());
    for name in campaign.levels() {
        let level = load(name);
        let par = level.par.unwrap_or_else(|| panic!("{name} has no `par`"));
        assert!(par.gold < par.silver && par.silver < par.bronze, "{name}");
    }
}

#[test]
fn the_level_table_in_the_readme_is_the_campaign_in_order() {
    let readme = std::fs::read_to_string(levels_dir().join("README.md")).expect("levels/README.md");
    let table: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |").map(|(file, _)| file))
        .filter(|f| f.ends_with(".ron"))
        .collect();
    let (campaign, _) = Campaign::load(&levels_dir());
    assert_eq!(table, campaign.levels(), "levels/README.md's level table");
}

#[test]
fn crate_room_fits_one_screen_with_both_crate_kinds() {
    let room = load("crate_room.ron");
    // 1280 x 720 pixels at 16-pixel tiles drawn 3x: 26 x 15 cells.
    assert!(room.width <= 1280 / (16 * 3) && room.height <= 720 / (16 * 3));
    assert!(
        (40..=60).contains(&room.crates.len()),
        "{}",
        room.crates.len()
    );
    assert!(room.crates.iter().any(|c| c.skin == "crate"));
    assert!(room.crates.iter().any(|c| c.skin == "crate_strong"));
    assert!(room.crates.iter().filter(|c| c.coin).count() >= 3);
    let walls = (1..room.height - 1)
        .flat_map(|y| (1..room.width - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| room.tile(x, y) == Tile::Wall)
        .count();
    assert!(walls > 0, "the default room has interior walls");
}

#[test]
fn cratetopia_is_crate_filled_and_bigger_than_the_screen() {
    let level = load("cratetopia.ron");
    assert!(level.crates.len() >= 2000, "{}", level.crates.len());
    assert!(level.width > 26 && level.height > 15);
}

#[test]
fn crates_and_coins_stand_on_floor() {
    for path in common::shipped_levels() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let name = name.as_str();
        let level = load(name);
        let start = level.player_start;
        assert_eq!(level.tile(start.x, start.y), Tile::Floor, "{name}");
        for spawn in &level.crates {
            assert_eq!(level.tile(spawn.at.x, spawn.at.y), Tile::Floor, "{name}");
        }
        for coin in &level.coins {
            assert_eq!(level.tile(coin.x, coin.y), Tile::Floor, "{name}");
        }
        let mut sorted = level.crates.clone();
        sorted.sort_by_key(|c| (c.at.y, c.at.x));
        assert_eq!(sorted, level.crates, "{name}: crates are row-major");
    }
}

#[test]
fn readme_example_is_a_valid_level() {
    let readme = std::fs::read_to_string(levels_dir().join("README.md")).expect("levels/README.md");
    let start = readme.find("```ron\n").expect("a ron example") + "```ron\n".len();
    let end = start + readme[start..].find("```").expect("closing fence");
    let level = level::parse(Path::new("README.md"), &readme[start..end], &DEFAULT_SKINS)
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(level.crates.len(), 5);
    assert_eq!(level.crates[0].health, 5, "the override applies");
    assert!(level.crates[4].coin, "the legend crate drops a coin");
}

#[test]
fn legend_crate_fields_are_all_optional() {
    let text = "(name: \"x\", map: [\"@x\"], legend: { 'x': Crate() })";
    let level =
        level::parse(Path::new("x.ron"), text, &DEFAULT_SKINS).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.crates[0].health, 3);
    assert_eq!(level.crates[0].skin, "crate");
    assert!(!level.crates[0].coin);
}

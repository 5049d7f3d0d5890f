//! Two games sharing one data folder: each save merges into the file as it is on disk (best
//! times keep the faster time, progress is the union, settings take only the keys that game
//! changed), so neither undoes the other.

use crate::common;

use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

use common::TempDir;
use common::process::{Running, TOOL_LIMIT};
use game::player_data::progress::Progress;
use game::player_data::settings::{Overrides, SettingsFile};
use game::player_data::{BestTimes, ENV_VAR, Store};

/// How many games clear levels at once.
const GAMES: usize = 4;

/// What game `i` changes in the settings.
fn change_setting(settings: &mut SettingsFile, i: usize) {
    let _ = match i {
        0 => settings.change(|s| s.volume = 30),
        1 => settings.change(|s| s.shake = false),
        2 => settings.change(|s| s.hit_stop = false),
        _ => settings.change(|s| s.fullscreen = true),
    };
}

/// One game of [`games_clearing_levels_at_once_all_keep_their_results`], in a child process:
/// it loads everything, says `loaded`, waits for a line on standard input, then records its
/// clear and changes a setting, each saved at once.
#[test]
#[ignore = "run by games_clearing_levels_at_once_all_keep_their_results"]
fn child_game_clears_its_level() {
    // Under `--include-ignored` without the variables this does nothing.
    let (Some(_), Some(i)) = (
        std::env::var_os(ENV_VAR),
        std::env::var("CRATE_ROOM_TEST_GAME").ok(),
    ) else {
        return;
    };
    let i: usize = i.parse().unwrap();
    let store = Store::locate().unwrap();
    let (mut best, _) = BestTimes::load(&store);
    let (mut progress, _) = Progress::load(&store);
    let (mut settings, _) = SettingsFile::load(&store, Overrides::default());
    println!("loaded");
    std::io::stdout().flush().unwrap();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).unwrap();
    let level = format!("level_{i}.ron");
    best.record(&level, 100 + i as u64).unwrap();
    best.save().unwrap();
    progress.mark_cleared(&level).unwrap();
    progress.save().unwrap();
    change_setting(&mut settings, i);
}

#[test]
fn games_clearing_levels_at_once_all_keep_their_results() {
    let dir = TempDir::new("shared-data");
    // Every game loads the same starting files before any saves: each holds a stale copy,
    // the case where a game writing back what it loaded loses the others' results.
    let mut games: Vec<Running> = (0..GAMES)
        .map(|i| {
            Running::start(
                Command::new(std::env::current_exe().unwrap())
                    .args([
                        "--exact",
                        "data_files_shared::child_game_clears_its_level",
                        "--ignored",
                    ])
                    .arg("--nocapture")
                    .env(ENV_VAR, &dir.0)
                    .env("CRATE_ROOM_TEST_GAME", i.to_string())
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped()),
                TOOL_LIMIT,
            )
        })
        .collect();
    for game in &mut games {
        while game.read_line() != "loaded" {
            assert!(game.try_wait().is_none(), "a game ended before loading");
        }
    }
    // All loaded: let them all save at once.
    let inputs: Vec<_> = games.iter_mut().map(|g| g.take_stdin().unwrap()).collect();
    for mut input in inputs {
        input.write_all(b"go\n").unwrap();
    }
    for game in games {
        let out = game.wait_with_output();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let store = Store::at(&dir.0);
    let (best, problem) = BestTimes::load(&store);
    assert!(problem.is_none(), "{problem:?}");
    let (progress, problem) = Progress::load(&store);
    assert!(problem.is_none(), "{problem:?}");
    for i in 0..GAMES {
        let level = format!("level_{i}.ron");
        assert_eq!(best.best(&level), Some(100 + i as u64), "{level}");
        assert!(progress.is_cleared(&level), "{level}");
    }
    let (settings, problem) = SettingsFile::load(&store, Overrides::default());
    assert!(problem.is_none(), "{problem:?}");
    let s = settings.saved();
    assert_eq!(
        (s.volume, s.shake, s.hit_stop, s.fullscreen),
        (30, false, false, true),
        "every game's setting is kept"
    );
}

#[test]
fn a_game_started_earlier_never_writes_a_slower_time_back() {
    let dir = TempDir::new("earlier-game");
    let store = Store::at(&dir.0);
    let (mut first, _) = BestTimes::load(&store);
    first.record("first_swing.ron", 900).unwrap();
    first.save().unwrap();
    // Game A is running with 900; game B starts, beats it, and saves.
    let (mut b, _) = BestTimes::load(&store);
    assert!(b.record("first_swing.ron", 713).unwrap().new_best);
    b.save().unwrap();
    // A clears another level and saves what it holds.
    first.record("iron_bands.ron", 2000).unwrap();
    first.save().unwrap();
    assert_eq!(
        first.best("first_swing.ron"),
        Some(713),
        "A now shows B's time"
    );
    let (again, _) = BestTimes::load(&store);
    assert_eq!(again.best("first_swing.ron"), Some(713));
    assert_eq!(again.best("iron_bands.ron"), Some(2000));
}

#[test]
fn a_setting_changed_in_one_game_survives_a_toggle_in_another() {
    let dir = TempDir::new("two-windows");
    let store = Store::at(&dir.0);
    let (mut a, _) = SettingsFile::load(&store, Overrides::default());
    let (mut b, _) = SettingsFile::load(&store, Overrides::default());
    a.change(|s| s.volume = 40).unwrap();
    b.change(|s| s.shake = false).unwrap();
    let (again, _) = SettingsFile::load(&store, Overrides::default());
    assert_eq!(again.saved().volume, 40, "the volume set in A");
    assert!(!again.saved().shake, "the shake toggled in B");
}

#[test]
fn progress_saved_by_two_games_is_the_union() {
    let dir = TempDir::new("progress-union");
    let store = Store::at(&dir.0);
    let (mut a, _) = Progress::load(&store);
    let (mut b, _) = Progress::load(&store);
    a.mark_cleared("first_swing.ron").unwrap();
    a.save().unwrap();
    b.mark_cleared("iron_bands.ron").unwrap();
    b.save().unwrap();
    let (again, _) = Progress::load(&store);
    assert!(again.is_cleared("first_swing.ron") && again.is_cleared("iron_bands.ron"));
}

//! What the player's files and folders look like from the window (Xvfb + Mesa), in scripted
//! runs with a data directory of their own: a campaign level that is missing or does not load
//! is shown on the title and says what it does to the levels after it; a clear that cannot be
//! kept says so; a level's own folder is cleaned of the temporary files of killed games.
//! Skipped with a message without `xvfb-run`, unless `CRATE_ROOM_REQUIRE_WINDOW=1`.

use crate::common;

use std::process::Command;

use common::{TempDir, repo, script_report, scripted_run};

/// The id of a process that has ended: no process has it now.
fn ended_process_id() -> u32 {
    let mut ended = Command::new("true").spawn().expect("run true");
    let gone = ended.id();
    ended.wait().unwrap();
    gone
}

#[test]
fn the_title_shows_a_missing_or_broken_campaign_level_and_why_the_next_one_opens() {
    let root = TempDir::new("title-missing");
    std::os::unix::fs::symlink(repo().join("assets"), root.0.join("assets")).unwrap();
    let levels = root.0.join("levels");
    std::fs::create_dir(&levels).unwrap();
    for level in [
        "first_swing.ron",
        "iron_bands.ron",
        "pocket_change.ron",
        "crate_room.ron",
    ] {
        std::fs::copy(repo().join("levels").join(level), levels.join(level)).unwrap();
    }
    std::fs::write(
        levels.join("broken.ron"),
        "(name: \"Broken\", map: [\"#@#\"",
    )
    .unwrap();
    // ghost.ron is listed but not there; broken.ron is there but is no level.
    std::fs::write(
        levels.join("campaign.txt"),
        "first_swing.ron\niron_bands.ron\nghost.ron\npocket_change.ron\nbroken.ron\ncrate_room.ron\n",
    )
    .unwrap();
    let data = root.0.join("data");
    let Some(out) = scripted_run(&root.0, &data, 3, &[]) else {
        return;
    };
    let report = script_report(&out);
    let rows = report["title"].as_array().expect("title rows");
    let files: Vec<&str> = rows.iter().filter_map(|r| r["file"].as_str()).collect();
    assert_eq!(
        files,
        [
            "first_swing.ron",
            "iron_bands.ron",
            "ghost.ron",
            "pocket_change.ron",
            "broken.ron",
            "crate_room.ron"
        ],
        "a missing level keeps its place: {report}"
    );
    let row = |file: &str| rows.iter().find(|r| r["file"] == file).unwrap().clone();
    let why = |file: &str| row(file)["why"].as_str().unwrap_or_default().to_owned();
    assert_eq!(row("ghost.ron")["problem"], "missing", "{report}");
    assert_eq!(row("ghost.ron")["open"], false, "{report}");
    assert!(why("ghost.ron").contains("missing from"), "{report}");
    assert_eq!(row("pocket_change.ron")["open"], true, "{report}");
    assert!(
        why("pocket_change.ron").contains("ghost.ron, is missing"),
        "the title says why the level after a missing one is open: {report}"
    );
    assert_eq!(row("broken.ron")["problem"], "does not load", "{report}");
    assert_eq!(row("crate_room.ron")["open"], false, "{report}");
    assert_eq!(
        why("crate_room.ron"),
        "locked: clear Pocket Change first",
        "the level that keeps it locked is the one that can be played: {report}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ghost.ron"), "named on stderr: {stderr}");
}

#[test]
fn a_clear_of_a_level_whose_name_no_line_can_hold_says_its_progress_is_not_kept() {
    let dir = TempDir::new("odd-name-progress");
    let level = dir.0.join("odd\nname.ron");
    std::fs::write(
        &level,
        "(name: \"Odd\", map: [\"#####\", \"#@.c#\", \"#####\"])",
    )
    .unwrap();
    let data = dir.0.join("data");
    let level_arg = level.to_str().unwrap();
    let args = ["--level", level_arg, "--input", "bot", "--no-hit-stop"];
    let Some(out) = scripted_run(&repo(), &data, 600, &args) else {
        return;
    };
    let report = script_report(&out);
    assert_eq!(report["crates_left"], 0, "the bot clears it: {report}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("progress not saved") && stderr.contains("control character"),
        "{stderr}"
    );
    assert!(stderr.contains("best time not saved"), "{stderr}");
    assert!(
        !stderr.contains("odd\nname"),
        "the name is escaped: {stderr}"
    );
}

#[test]
fn a_start_on_a_level_outside_levels_cleans_its_folder_of_killed_games_temporary_files() {
    let dir = TempDir::new("level-folder-temporaries");
    let level = dir.0.join("mine.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
    let stale = dir.0.join(format!(".mine.ron.{}.tmp", ended_process_id()));
    std::fs::write(&stale, "half a save").unwrap();
    let live = dir.0.join(format!(".mine.ron.{}.tmp", std::process::id()));
    std::fs::write(&live, "a save under way").unwrap();
    let data = dir.0.join("data");
    let args = ["--level", level.to_str().unwrap(), "--input", "idle"];
    if scripted_run(&repo(), &data, 3, &args).is_none() {
        return;
    }
    assert!(!stale.exists(), "the dead game's temporary file is removed");
    assert!(live.exists(), "a live process's file is left alone");
}

//! Replays and the window: a run recorded in a window of any size verifies headless, watching a
//! replay plays the recorded game, and a replay whose level changed opens no window. The window
//! tests are skipped with a message when there is neither a display nor `Xvfb`, unless
//! `CRATE_ROOM_REQUIRE_WINDOW=1` demands them.

use crate::common;

use std::path::Path;

use common::display::Windowed;
use common::process::{WINDOW_LIMIT, output_within};
use common::{TempDir, crate_room, record_bot_run, repo, windowed, windowed_at};

/// Run the window with `args` (data kept in `data`), returning its JSON summary.
fn window(mut cmd: Windowed, args: &[&str], data: &Path) -> serde_json::Value {
    let output = output_within(
        cmd.current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", data)
            .arg("--mute")
            .args(args),
        WINDOW_LIMIT,
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{args:?}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn a_run_recorded_in_a_small_window_verifies_headless() {
    let Some(cmd) = windowed() else { return };
    let dir = TempDir::new("record");
    let file = dir.path("window.replay");
    // Hit-stop on: the window runs fewer steps than frames, and the replay has exactly those:
    // past the first checkpoint (600 steps) and the last.
    let summary = window(
        cmd,
        &[
            "--width",
            "700",
            "--height",
            "500",
            "--level",
            "levels/corridors.ron",
            "--input",
            "bot",
            "--frames",
            "800",
            "--record",
            &file,
        ],
        &dir.0,
    );
    let steps = summary["steps"].as_u64().unwrap();
    assert!(steps > 600, "a checkpoint and the last: {steps} steps");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(&format!("\nsteps {steps}\n")), "{text}");
    let verify = crate_room(&["replay", &file, "--verify"]);
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
}

#[test]
fn watching_a_replay_plays_the_recorded_game() {
    // Checked by its report, not its pixels: the smallest window the game is laid out for.
    let Some(cmd) = windowed_at(640, 360) else {
        return;
    };
    let dir = TempDir::new("watch");
    let file = dir.path("bot.replay");
    let rec = record_bot_run(&file, "900", &["--json"]);
    let sim: serde_json::Value = serde_json::from_slice(&rec.stdout).unwrap();
    // Without hit-stop one frame is one step; past the replay's end the game stands still.
    let watched = window(
        cmd,
        &[
            "--width",
            "640",
            "--height",
            "360",
            "--no-hit-stop",
            "--frames",
            "1000",
            "--screenshot",
            &dir.path("watch.png"),
            "replay",
            &file,
        ],
        &dir.0,
    );
    assert_eq!(watched["steps"], 900);
    for field in ["crates_left", "score"] {
        assert_eq!(watched[field], sim[field], "{field}");
    }
    assert!(
        watched["crates_left"].as_u64() < watched["crates_total"].as_u64(),
        "the bot smashed something: {watched}"
    );
}

#[test]
fn a_replay_whose_level_changed_opens_no_window() {
    let dir = TempDir::new("changed");
    let level = dir.path("room.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
    let file = dir.path("room.replay");
    let rec = crate_room(&[
        "sim", "--level", &level, "--input", "bot", "--frames", "60", "--record", &file,
    ]);
    assert!(rec.status.success());
    std::fs::write(&level, std::fs::read_to_string(&level).unwrap() + "\n").unwrap();
    for args in [vec!["replay", &file], vec!["replay", &file, "--verify"]] {
        let out = crate_room(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("room.ron changed since the replay was recorded"),
            "{err}"
        );
    }
}

//! Hot reload in the real window (under Xvfb): a save is swapped in while the game runs, and a
//! large one does not stop the frames.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common::process::{Running, WINDOW_LIMIT};
use common::{TempDir, repo, windowed};
use notify::event::AccessKind;
use notify::{EventKind, RecursiveMode, Watcher};

/// Save `text` to `path` as editors do: write a temporary file, rename it over.
fn save(path: &Path, text: &str) {
    let temp = path.with_extension("ron.tmp");
    std::fs::write(&temp, text).expect("write");
    std::fs::rename(&temp, path).expect("rename over");
}

#[test]
fn a_large_save_is_swapped_in_while_the_game_runs() {
    let Some(mut cmd) = windowed() else { return };
    let dir = TempDir::new("swap");
    let level = dir.0.join("level.ron");
    save(
        &level,
        "(name: \"Before\", map: [\"#####\", \"#@.c#\", \"#####\"])",
    );
    let after = game::level::generate(50_000, 3).expect("within the limit");

    // The game watches the level before it first reads it, so a save after that read is one it
    // must notice.
    // Only an open of the level file itself counts: a start also opens its folder (to list it,
    // and to clean up the temporary files of killed games), which is no read of the level.
    let (opened, opens) = mpsc::channel();
    let watched = level.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| {
            matches!(e.kind, EventKind::Access(AccessKind::Open(_)))
                && e.paths.iter().any(|p| p.file_name() == watched.file_name())
        }) {
            let _ = opened.send(());
        }
    })
    .expect("watcher");
    watcher
        .watch(&dir.0, RecursiveMode::NonRecursive)
        .expect("watch");

    // Frames run at anything from 60 to several hundred a second under Xvfb: 1,200 leave the
    // watcher's debounce seconds to notice the save, and a scripted run waits for a reload in
    // flight before its report, however slowly this machine parses.
    let child = Running::start(
        cmd.current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", &dir.0)
            .args([
                "--width", "640", "--height", "360", "--mute", "--input", "idle",
            ])
            .args(["--frames", "1200", "--level"])
            .arg(&level)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
        WINDOW_LIMIT,
    );
    opens
        .recv_timeout(Duration::from_secs(120))
        .expect("the game reads the level");
    drop(watcher);
    save(&level, &after);
    let output = child.wait_with_output();

    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .expect("JSON");
    let report: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
    assert_eq!(
        report["level"], "Generated: 50000 crates (seed 3)",
        "{report}"
    );
    assert_eq!(report["crates_total"], 50_000);
    assert_eq!(report["reloads"], 1, "{report}");
    assert_eq!(report["frames"], 1200);
}

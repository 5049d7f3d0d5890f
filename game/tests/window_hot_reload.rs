//! Hot reload in the real window (under Xvfb): a large save is made ready off the frame thread
//! while the frames go on, and the game swapped in plays as `crate-room sim` plays it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::process::{Running, TOOL_LIMIT, WINDOW_LIMIT, output_within};
use common::{TempDir, crate_room, repo, windowed};
use notify::event::AccessKind;
use notify::{EventKind, RecursiveMode, Watcher};

/// Save `text` to `path` as editors do: write a temporary file, rename it over.
fn save(path: &Path, text: &str) {
    let temp = path.with_extension("ron.tmp");
    std::fs::write(&temp, text).expect("write");
    std::fs::rename(&temp, path).expect("rename over");
}

/// Something that says when the game opens the level file `level` (the game watches it before
/// it first reads it, so a save after that read is one it must notice). Only an open of the
/// level file itself counts: a start also opens its folder (to list it, and to clean up the
/// temporary files of killed games), which is no read of the level.
fn level_opened(level: &Path) -> (notify::RecommendedWatcher, mpsc::Receiver<()>) {
    let (opened, opens) = mpsc::channel();
    let watched = level.to_path_buf();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| {
            matches!(e.kind, EventKind::Access(AccessKind::Open(_)))
                && e.paths.iter().any(|p| p.file_name() == watched.file_name())
        }) {
            let _ = opened.send(());
        }
    })
    .expect("watcher");
    let dir = level.parent().expect("a folder");
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .expect("watch");
    (watcher, opens)
}

/// Starts a scripted 640x360 run of `level` with `input`, recording it to `record`, with its
/// data folder in `dir`.
fn start(cmd: &mut Command, dir: &TempDir, level: &Path, record: &Path, input: &str) -> Running {
    Running::start(
        cmd.current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", &dir.0)
            .args([
                "--width", "640", "--height", "360", "--mute", "--input", input,
            ])
            .args(["--frames", "1500", "--record"])
            .arg(record)
            .arg("--level")
            .arg(level)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
        WINDOW_LIMIT,
    )
}

/// Waits for the run to end well and returns its JSON report.
fn finished_report(game: Running) -> serde_json::Value {
    let output = game.wait_with_output();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    report(&stdout)
}

/// The scripted run's JSON report, from its standard output.
fn report(stdout: &str) -> serde_json::Value {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON report in:\n{stdout}"));
    serde_json::from_str(line).expect("valid JSON")
}

/// `crate-room replay FILE --verify` re-simulates the recorded run headless and must find
/// every checkpoint equal; returns the recording's text.
fn assert_verifies(record: &Path) -> String {
    let text = std::fs::read_to_string(record).expect("the run was recorded");
    let file = record.to_str().expect("UTF-8 path");
    let verify = crate_room(&["replay", file, "--verify"]);
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}\n{}\n{text}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
    text
}

/// The number in `line` after `before` and up to the next character that is no digit.
fn number_after(line: &str, before: &str) -> u64 {
    let at = line
        .find(before)
        .unwrap_or_else(|| panic!("no {before:?} in {line:?}"));
    line[at + before.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("no number after {before:?} in {line:?}"))
}

/// Read the game's standard output up to the line starting with `start`, and return it.
fn line_starting(game: &mut Running, start: &str) -> String {
    loop {
        let line = game.read_line();
        if line.starts_with(start) {
            return line;
        }
        assert!(
            !line.starts_with('{'),
            "the run ended before a line starting {start:?}: {line}"
        );
    }
}

#[test]
fn frames_go_on_while_a_large_save_is_prepared_and_then_it_is_swapped_in() {
    let Some(mut cmd) = windowed() else { return };
    let dir = TempDir::new("swap-held");
    let level = dir.0.join("level.ron");
    save(
        &level,
        "(name: \"Before\", map: [\"#####\", \"#@.c#\", \"#####\"])",
    );
    let after = game::level::generate(50_000, 3).expect("within the limit");
    // The loader holds the load until the test opens this FIFO for writing.
    let gate = dir.0.join("gate");
    let made = output_within(Command::new("mkfifo").arg(&gate), TOOL_LIMIT);
    assert!(made.status.success(), "mkfifo: {made:?}");
    let record = dir.0.join("run.replay");
    let (watcher, opens) = level_opened(&level);

    // Frames run at anything from 60 to several hundred a second under Xvfb: 1,500 leave the
    // watcher's debounce (0.1 s) seconds to notice the save before the last frame.
    cmd.env(game::background_loader::HOLD_LOADS, &gate);
    let mut game = start(&mut cmd, &dir, &level, &record, "idle");
    opens
        .recv_timeout(Duration::from_secs(120))
        .expect("the game reads the level");
    drop(watcher);
    save(&level, &after);

    // The load starts, and is held; the frames go on to the scripted run's last frame, which
    // is the one frame that waits for it.
    let held = line_starting(&mut game, "level loader: holding ");
    let requested = number_after(&held, "requested at frame ");
    let waits = line_starting(&mut game, "frame ");
    assert!(
        waits.ends_with(": the last frame waits for the level being prepared"),
        "{waits}"
    );
    let last = number_after(&waits, "frame ");
    assert!(
        requested < last,
        "the save was noticed only at the last frame ({held}); give the run more frames"
    );

    // Let the load go: the open returns once the loader's own open of the FIFO is under way.
    let (opened_gate, gate_open) = mpsc::channel();
    let writer_gate: PathBuf = gate.clone();
    std::thread::spawn(move || {
        let _ = opened_gate.send(std::fs::File::options().write(true).open(&writer_gate));
    });
    gate_open
        .recv_timeout(game.remaining())
        .expect("the loader opens the gate")
        .expect("the gate opens for writing");
    let report = finished_report(game);
    assert_eq!(
        report["level"], "Generated: 50000 crates (seed 3)",
        "{report}"
    );
    assert_eq!(report["crates_total"], 50_000);
    assert_eq!(report["reloads"], 1, "{report}");
    assert_eq!(report["frames"], last);
    // The run swapped in is recorded from the first step the loader ran, and that step is the
    // one a headless run of the saved file takes.
    let text = assert_verifies(&record);
    assert!(text.contains("\nsteps 1\n"), "{text}");
}

#[test]
fn a_level_swapped_in_plays_as_sim_plays_it() {
    let Some(mut cmd) = windowed() else { return };
    let dir = TempDir::new("swap-plays");
    let level = dir.0.join("level.ron");
    save(
        &level,
        "(name: \"Before\", map: [\"#####\", \"#@.c#\", \"#####\"])",
    );
    let after = std::fs::read_to_string(repo().join("levels").join("crate_room.ron"))
        .expect("a shipped level");
    let record = dir.0.join("run.replay");
    let (watcher, opens) = level_opened(&level);
    // The bot plays, so the run swapped in breaks crates; its recording is written at the end.
    let game = start(&mut cmd, &dir, &level, &record, "bot");
    opens
        .recv_timeout(Duration::from_secs(120))
        .expect("the game reads the level");
    drop(watcher);
    save(&level, &after);
    let report = finished_report(game);
    assert_eq!(report["reloads"], 1, "{report}");
    assert_eq!(report["level"], "The Crate Room", "{report}");
    // However many steps the swapped-in run had, each checkpoint in it (every 600 steps, and
    // the last) is the headless run's.
    let text = assert_verifies(&record);
    assert!(
        text.contains(&format!("\nlevel {}\n", level.display())),
        "{text}"
    );
    // And so is its state at the end: `crate-room sim` playing the saved file for as many
    // steps gives the hash the window reports.
    let steps = text
        .lines()
        .find_map(|l| l.strip_prefix("steps "))
        .expect("a step count")
        .to_owned();
    let level_arg = level.to_str().expect("UTF-8 path");
    let sim = crate_room(&[
        "sim", "--level", level_arg, "--input", "bot", "--frames", &steps, "--json",
    ]);
    assert!(sim.status.success(), "{sim:?}");
    let headless: serde_json::Value = serde_json::from_slice(&sim.stdout).expect("JSON");
    assert_eq!(
        report["state_hash"], headless["state_hash"],
        "after {steps} steps: {report}\n{headless}"
    );
}

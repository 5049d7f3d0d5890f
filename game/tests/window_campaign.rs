//! The campaign, medals, settings, fullscreen and gamepads in a real window (Xvfb + Mesa):
//! scripted runs with a data directory of their own, menus driven with `xdotool` like a
//! person would, and the JSON report and files the game keeps checked afterwards. Skipped with
//! a message without `xvfb-run` or `xdotool`, unless `CRATE_ROOM_REQUIRE_WINDOW=1`.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::display::{self, Xvfb};
use common::process::{Running, WINDOW_LIMIT};
use common::{TempDir, can_drive_window, repo, script_report, scripted_run};

/// A scripted run of `frames` frames with `data` as the data directory, to its end: its report
/// and standard error.
fn run(data: &Path, frames: u32, args: &[&str], shot: &str) -> (serde_json::Value, String) {
    let mut args = args.to_vec();
    args.extend(["--screenshot", shot]);
    let out = scripted_run(&repo(), data, frames, &args).expect("can_run checked for Xvfb");
    (
        script_report(&out),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A game on the title screen, in its own Xvfb, that runs until it is quit.
struct Game {
    /// Declared before `xvfb`, so a dropped game ends before its display.
    child: Running,
    xvfb: Xvfb,
    window: String,
}

impl Game {
    fn start(data: &Path, args: &[&str]) -> Game {
        let shot = data.join("last.png");
        let xvfb = Xvfb::start(1280, 720);
        let child = Running::start(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .args(["--width", "1280", "--height", "720", "--mute"])
                // Far more frames than the test needs: it ends the run with Esc.
                .args(["--frames", "10000000", "--screenshot"])
                .arg(&shot)
                .args(args)
                .current_dir(repo())
                .env("CRATE_ROOM_DATA_DIR", data)
                // Each frame that took keys says so: the test waits for that, not for a time.
                .env("CRATE_ROOM_ECHO_KEYS", "1")
                .env("DISPLAY", &xvfb.display)
                .envs(display::GAME_ENV)
                .env_remove("XAUTHORITY")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
            WINDOW_LIMIT,
        );
        let mut game = Game {
            child,
            xvfb,
            window: String::new(),
        };
        let id = game.xdotool(&["search", "--sync", "--name", "^Crate Room$"]);
        game.window = id.lines().next().expect("a window id").trim().to_owned();
        // Under Xvfb there is no window manager: the pointer over the window gives it the keys.
        // Not to the screen's centre (640, 360), where Xvfb starts the pointer: `--sync` waits
        // for the pointer to leave where it was, and gives up only after some 15 s (while the
        // game renders at full speed).
        let window = game.window.clone();
        game.xdotool(&["mousemove", "--sync", "--window", &window, "320", "200"]);
        // The first frame's line: from here on the game reads keys.
        game.wait_for_line("the first frame", |line| line.starts_with("keys 1:"));
        game
    }

    /// Read the game's standard output until a line satisfies `wanted`; fails if the game
    /// ends first (or at its deadline).
    fn wait_for_line(&mut self, what: &str, wanted: impl Fn(&str) -> bool) {
        loop {
            let line = self.child.read_line();
            if wanted(&line) {
                return;
            }
            if line.is_empty()
                && let Some(status) = self.child.try_wait()
            {
                panic!("the game ended ({status:?}) before {what}");
            }
        }
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("timeout")
            .arg("30")
            .arg("xdotool")
            .args(args)
            .env("DISPLAY", &self.xvfb.display)
            .env_remove("XAUTHORITY")
            .output()
            .expect("run xdotool");
        assert!(out.status.success(), "xdotool {args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Press `key` (an xdotool name) and wait until a frame of the game took it.
    fn key(&mut self, key: &str) {
        self.xdotool(&["key", key]);
        // The game names keys as macroquad does.
        let taken = match key {
            "Return" => "Enter".to_owned(),
            "o" => "O".to_owned(),
            other => other.to_owned(),
        };
        self.wait_for_line(&format!("a frame took {key}"), |line| {
            line.starts_with("keys ")
                && line
                    .split_once(": ")
                    .is_some_and(|(_, keys)| keys.split(' ').any(|k| k == taken))
        });
    }

    /// Wait until `file` holds `text` (the game wrote it), for at most a minute.
    fn wait_for(&self, file: &Path, text: &str) {
        let started = Instant::now();
        while !std::fs::read_to_string(file).is_ok_and(|t| t.contains(text)) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{} never held {text:?}",
                file.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Quit with Esc presses (each backs out one screen) and return the report.
    fn quit(mut self, escapes: usize) -> serde_json::Value {
        for _ in 1..escapes {
            self.key("Escape");
        }
        // The last one ends the game before its frame could say so.
        self.xdotool(&["key", "Escape"]);
        let out = self.child.wait_with_output();
        assert!(out.status.success(), "{:?}", out.status);
        script_report(&out)
    }
}

#[test]
fn a_setting_changed_on_the_settings_screen_is_kept_after_a_restart() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("settings-kept");
    let mut game = Game::start(&dir.0, &[]);
    // O opens the settings; the second row is the volume; Left turns it down a step.
    game.key("o");
    game.key("Down");
    game.key("Left");
    let file = dir.0.join("settings.txt");
    game.wait_for(&file, "volume = 70");
    let during = game.quit(2);
    assert_eq!(during["settings"]["volume"], 70);

    // A new run reads it back, and a flag changes a run without touching the file.
    let shot = dir.path("muted.png");
    let (again, _) = run(&dir.0, 3, &[], &shot);
    assert_eq!(again["settings"]["volume"], 70, "{again}");
    assert_eq!(
        again["settings"]["sound"], true,
        "--mute did not reach the file"
    );
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.contains("sound = on") && kept.contains("volume = 70"),
        "{kept}"
    );
}

#[test]
fn f11_toggles_fullscreen_and_the_choice_is_kept() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("fullscreen");
    let mut game = Game::start(&dir.0, &[]);
    game.key("F11");
    let file = dir.0.join("settings.txt");
    game.wait_for(&file, "fullscreen = on");
    let report = game.quit(1);
    assert_eq!(report["fullscreen"], true);
    let shot = dir.path("windowed.png");
    let (next, _) = run(&dir.0, 3, &[], &shot);
    assert_eq!(next["fullscreen"], true, "the next run starts fullscreen");
    let (flag, _) = run(&dir.0, 3, &["--windowed"], &shot);
    assert_eq!(
        flag["fullscreen"], false,
        "--windowed overrides it for one run"
    );
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("fullscreen = on")
    );
}

#[test]
fn clearing_a_campaign_level_wins_its_medal_and_opens_the_next() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("campaign");
    // The first two levels are cleared; the third is open from the start.
    std::fs::write(
        dir.0.join("progress.txt"),
        "\"first_swing.ron\"\n\"iron_bands.ron\"\n",
    )
    .unwrap();
    let shot = dir.path("title_before.png");
    let (before, _) = run(&dir.0, 3, &[], &shot);
    let rows = before["title"].as_array().expect("title rows");
    let row = |rows: &[serde_json::Value], file: &str| {
        rows.iter()
            .find(|r| r["file"] == file)
            .unwrap_or_else(|| panic!("{file} is listed"))
            .clone()
    };
    assert_eq!(rows[0]["file"], "first_swing.ron", "the campaign's order");
    assert_eq!(row(rows, "first_fuse.ron")["open"], false);
    assert_eq!(row(rows, "keg_row.ron")["open"], false);

    // The third level's author route clears it in its author time
    // (levels/gold/pocket_change.input).
    let shot = dir.path("cleared.png");
    let args = [
        "--level",
        "levels/pocket_change.ron",
        "--input",
        "script:levels/gold/pocket_change.input",
        "--no-hit-stop",
    ];
    let (cleared, _) = run(&dir.0, 1450, &args, &shot);
    assert_eq!(cleared["crates_left"], 0, "{cleared}");
    assert_eq!(cleared["cleared"]["medal"], "author", "{cleared}");
    assert_eq!(cleared["cleared"]["unlocked"], "First Fuse", "{cleared}");
    let progress = std::fs::read_to_string(dir.0.join("progress.txt")).unwrap();
    assert!(progress.contains("\"pocket_change.ron\""), "{progress}");

    let shot = dir.path("title_after.png");
    let (after, _) = run(&dir.0, 3, &[], &shot);
    let rows = after["title"].as_array().expect("title rows");
    assert_eq!(row(rows, "first_fuse.ron")["open"], true);
    assert_eq!(row(rows, "keg_row.ron")["open"], false);
    assert_eq!(row(rows, "pocket_change.ron")["medal"], "author");
    // The title opens on the level played last.
    assert_eq!(after["settings"]["last_level"], "pocket_change.ron");
}

#[test]
fn a_locked_level_cannot_be_started_from_the_title() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("locked");
    let mut game = Game::start(&dir.0, &[]);
    // Down three times: the fourth level, locked on a first run.
    for _ in 0..3 {
        game.key("Down");
    }
    game.key("Return");
    let report = game.quit(1);
    assert_eq!(report["showing"], "title", "{report}");
    assert!(!dir.0.join("progress.txt").exists());
}

#[test]
fn the_game_plays_on_the_keyboard_whatever_the_gamepad_backend_says() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("gamepad");
    let shot = dir.path("pad.png");
    let args = ["--level", "levels/crate_room.ron", "--input", "bot"];
    let (report, stderr) = run(&dir.0, 600, &args, &shot);
    assert!(report["crates_left"].as_u64().unwrap() < 48, "{report}");
    let pad = report["gamepad"].as_str().expect("a gamepad status");
    assert!(pad.starts_with("gamepad"), "{pad}");
    for alarming in ["gilrs", "gamepad", "panic", "udev"] {
        assert!(
            !stderr.to_lowercase().contains(alarming),
            "stderr mentions {alarming}: {stderr}"
        );
    }
}

#[test]
fn a_start_removes_the_temporary_files_of_games_killed_mid_save() {
    if !can_drive_window("the campaign window tests") {
        return;
    }
    let dir = TempDir::new("stale-temporaries");
    // A process that has ended: its id is gone.
    let mut ended = Command::new("true").spawn().expect("run true");
    let gone = ended.id();
    ended.wait().unwrap();
    let stale = dir.0.join(format!(".best_times.txt.{gone}.tmp"));
    std::fs::write(&stale, "half a save").unwrap();
    // This test's own process is running: its file may be a save under way.
    let live = dir
        .0
        .join(format!(".progress.txt.{}.tmp", std::process::id()));
    std::fs::write(&live, "a save under way").unwrap();
    let other = dir.0.join(".notes.tmp");
    std::fs::write(&other, "not the game's").unwrap();
    let shot = dir.path("start.png");
    run(&dir.0, 3, &[], &shot);
    assert!(!stale.exists(), "the dead game's temporary file is removed");
    assert!(live.exists() && other.exists(), "the rest is left alone");
}

//! The level editor in a real window (Xvfb + Mesa), driven like a person would: `xdotool`
//! moves the mouse onto map cells and clicks, and types Ctrl+S, E and Esc. Each run works on a
//! copy of a shipped level in a scratch folder. Cells are mapped to screen pixels with the view
//! the game reports (`--frames N --screenshot` prints it), so a flipped or shifted
//! mouse-to-cell mapping paints other cells than the ones asked for, and the byte comparison
//! of the saved file fails. Skipped with a message when there is no `xvfb-run` or `xdotool`
//! (or `python3`, for the test that closes the window), unless `CRATE_ROOM_REQUIRE_WINDOW=1`
//! (set by `.ci/run`) demands the window.

use crate::common;

use std::io::{BufRead, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::display;
use common::{TempDir, can_drive_window, copy_level, have, repo, skip_window_test};

const TILE: f64 = 16.0;
/// A scripted editor run ends when the editor is quit (Esc); this many frames is only a
/// backstop, minutes away.
const BACKSTOP_FRAMES: &str = "200000";

/// How long a test waits for anything the game should do (a window, a line it says, a file
/// it writes) before it fails: far more than any of it takes, even on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(60);

/// `crate-room ARGS` in its own Xvfb, with the display's name and authority for `xdotool`.
struct Game {
    child: Child,
    pid: String,
    /// The Xvfb this game runs in, if it started one (killed after the game).
    xvfb: Option<Child>,
    /// What the Xvfb said on stderr (shown when a wait fails).
    xvfb_said: Arc<Mutex<Vec<String>>>,
    display: String,
    window: Option<String>,
    /// Every line the game wrote on stderr so far (read by a thread as it comes).
    stderr: Arc<Mutex<Vec<String>>>,
    /// How many of those lines a `wait_said` already looked at.
    seen: usize,
    /// Every line the game wrote on stdout so far: the frames that took keys and buttons
    /// (`CRATE_ROOM_ECHO_KEYS`), then the report.
    stdout: Arc<Mutex<Vec<String>>>,
    /// How many of those lines a `wait_taken` already looked at.
    stdout_seen: usize,
    /// The threads reading stdout and stderr; they end when the game has closed both.
    readers: Vec<std::thread::JoinHandle<()>>,
}

/// Read `stream` line by line into a shared list, in a thread, so a test can wait for a line;
/// the thread ends at the end of the stream.
fn collect_lines(
    stream: impl Read + Send + 'static,
) -> (Arc<Mutex<Vec<String>>>, std::thread::JoinHandle<()>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            sink.lock().expect("lines").push(line);
        }
    });
    (lines, reader)
}

/// The name the game's key echo gives the last key of xdotool's `keys` (`ctrl+s` is `S`,
/// `Escape` is `Escape`): macroquad's.
fn taken_name(keys: &str) -> String {
    let last = keys.rsplit('+').next().unwrap_or(keys);
    if last.chars().count() == 1 {
        last.to_uppercase()
    } else {
        last.to_owned()
    }
}

/// The game's name of xdotool mouse `button` (1 left, 2 middle, 3 right).
fn button_name(button: &str) -> &'static str {
    match button {
        "1" => "MouseLeft",
        "2" => "MouseMiddle",
        "3" => "MouseRight",
        other => panic!("no mouse button {other}"),
    }
}

impl Game {
    /// Start `crate-room --width 1280 --height 720 ARGS` (with `--mute`) in a fresh Xvfb.
    ///
    /// Each Xvfb gets a display number no other in this test run had (from this process's id
    /// and a counter), so one test's server shutting down never takes a socket from the next
    /// one; a number some other program holds is skipped (the Xvfb exits at once, and the next
    /// number is tried). `-displayfd` says when the server is ready.
    fn start(args: &[&str], data: &std::path::Path) -> Game {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let base = 1000 + (std::process::id() % 500) * 64;
        let started = Instant::now();
        let (xvfb, number, xvfb_said) = loop {
            let number = base + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 64;
            let mut xvfb = Command::new("Xvfb")
                .arg(format!(":{number}"))
                .args([
                    "-displayfd",
                    "1",
                    // A server resets when its last client leaves (the readiness probe
                    // below), and refuses connections meanwhile: never, here.
                    "-noreset",
                    "-screen",
                    "0",
                    "1280x720x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start Xvfb");
            let (said, _) = collect_lines(xvfb.stderr.take().expect("Xvfb's stderr"));
            let stdout = xvfb.stdout.take().expect("Xvfb's stdout");
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut line = String::new();
                let _ = std::io::BufReader::new(stdout).read_line(&mut line);
                let _ = tx.send(line);
            });
            match rx.recv_timeout(DEADLINE) {
                Ok(line) if line.trim() == number.to_string() => break (xvfb, number, said),
                _ => {
                    let _ = xvfb.kill();
                    let _ = xvfb.wait();
                    let said = said.lock().expect("Xvfb lines").join("\n");
                    assert!(
                        started.elapsed() < DEADLINE,
                        "no Xvfb started within {DEADLINE:?}; the last said:\n{said}"
                    );
                }
            }
        };
        // `-displayfd` can say the number a moment before the server takes connections (a
        // game connecting then fails at once): wait until a client gets in.
        loop {
            let probe = Command::new("timeout")
                .args(["5", "xdotool", "getmouselocation"])
                .env("DISPLAY", format!(":{number}"))
                .env_remove("XAUTHORITY")
                .output()
                .expect("run xdotool");
            if probe.status.success() {
                break;
            }
            assert!(
                started.elapsed() < DEADLINE,
                "display :{number} took no connection within {DEADLINE:?}: {}",
                String::from_utf8_lossy(&probe.stderr)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut game = Game::spawn_on(&format!(":{number}"), args, data);
        game.xvfb = Some(xvfb);
        game.xvfb_said = xvfb_said;
        game
    }

    /// Start a second game on `other`'s display (no Xvfb of its own): two windows, one X
    /// clipboard.
    fn start_beside(other: &Game, args: &[&str], data: &std::path::Path) -> Game {
        Game::spawn_on(&other.display, args, data)
    }

    /// `crate-room --width 1280 --height 720 --mute ARGS` on X display `display`.
    fn spawn_on(display: &str, args: &[&str], data: &std::path::Path) -> Game {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .args(["--width", "1280", "--height", "720", "--mute"])
            .args(args)
            .current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", data)
            // Each frame that took keys or buttons says so: the test waits for that.
            .env("CRATE_ROOM_ECHO_KEYS", "1")
            .env("DISPLAY", display)
            .envs(display::GAME_ENV)
            .env_remove("XAUTHORITY")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start crate-room");
        let (stderr, err_reader) = collect_lines(child.stderr.take().expect("stderr"));
        let (stdout, out_reader) = collect_lines(child.stdout.take().expect("stdout"));
        Game {
            pid: child.id().to_string(),
            child,
            xvfb: None,
            xvfb_said: Arc::default(),
            display: display.to_owned(),
            window: None,
            stderr,
            seen: 0,
            stdout,
            stdout_seen: 0,
            readers: vec![err_reader, out_reader],
        }
    }

    /// Wait until a frame of the game took `taken` (a key or button as the echo names it)
    /// after whatever an earlier wait saw; returns the step the game was at then.
    fn wait_taken(&mut self, taken: &str) -> u64 {
        let mut step = 0;
        self.wait_until(&format!("a frame to take {taken}"), |game| {
            let lines = game.stdout.lock().expect("stdout lines");
            let found = lines[game.stdout_seen..].iter().position(|line| {
                line.strip_prefix("keys ")
                    .and_then(|l| l.split_once(": "))
                    .is_some_and(|(_, keys)| keys.split(' ').any(|k| k == taken))
            });
            match found {
                Some(i) => {
                    let line = &lines[game.stdout_seen + i];
                    step = line
                        .rsplit_once(" step ")
                        .and_then(|(_, s)| s.parse().ok())
                        .unwrap_or(0);
                    drop(lines);
                    game.stdout_seen += i + 1;
                    true
                }
                None => false,
            }
        });
        step
    }

    /// Wait until the game being played has run past `step`: Shift (which nothing takes) is
    /// pressed until a frame that takes it reports a later step.
    fn wait_for_step_after(&mut self, step: u64) {
        self.wait_until(&format!("the game to run past step {step}"), |game| {
            game.send(&["key", "shift"]);
            game.wait_taken("LeftShift") > step
        });
    }

    /// Wait for `what` to hold, polling; past the deadline the game is killed (on drop) and
    /// the test fails saying what it waited for and what the game said.
    fn wait_until(&mut self, what: &str, mut done: impl FnMut(&mut Game) -> bool) {
        let started = Instant::now();
        while !done(self) {
            if started.elapsed() > DEADLINE {
                let said = self.stderr.lock().expect("stderr lines").join("\n");
                panic!("waited {DEADLINE:?} for {what}; the game said:\n{said}");
            }
            if self.child.try_wait().ok().flatten().is_some() {
                // The game ended after `done` was asked: once its output is closed, all it
                // will ever say is in, and `done` answers for good.
                self.wait_for_output_closed();
                if done(self) {
                    return;
                }
                let said = self.stderr.lock().expect("stderr lines").join("\n");
                let xvfb = self.xvfb_said.lock().expect("Xvfb lines").join("\n");
                let alive = self.xvfb.as_mut().map(|x| x.try_wait().ok().flatten());
                panic!(
                    "the game ended while waiting for {what}; it said:\n{said}\n\
                     its display {} (ended: {alive:?}) said:\n{xvfb}",
                    self.display
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wait until the editor says something containing `text` (on stderr, `editor: ...`)
    /// after whatever an earlier wait saw; returns the line.
    fn wait_said(&mut self, text: &str) -> String {
        let needle = format!("editor: {text}");
        let mut found = String::new();
        self.wait_until(&format!("the editor to say {text:?}"), |game| {
            let lines = game.stderr.lock().expect("stderr lines");
            match lines[game.seen..].iter().position(|l| l.contains(&needle)) {
                Some(i) => {
                    found = lines[game.seen + i].clone();
                    drop(lines);
                    game.seen += i + 1;
                    true
                }
                None => false,
            }
        });
        found
    }

    /// Wait for the window (a new one, if `other` already has one on this display) and for the
    /// editor to take input (`editor: ready`).
    fn wait_for_editor(&mut self, other: Option<&Game>) -> String {
        let mut id = String::new();
        self.wait_until("the game's window", |game| {
            let out = Command::new("timeout")
                .args([
                    "5",
                    "xdotool",
                    "search",
                    "--onlyvisible",
                    "--name",
                    "^Crate Room$",
                ])
                .env("DISPLAY", &game.display)
                .env_remove("XAUTHORITY")
                .output()
                .expect("run xdotool");
            let other = other.and_then(|o| o.window.as_deref());
            let found = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.trim().to_owned())
                .find(|w| !w.is_empty() && Some(w.as_str()) != other);
            match found {
                Some(w) => {
                    id = w;
                    true
                }
                None => false,
            }
        });
        self.window = Some(id.clone());
        self.wait_said("ready");
        id
    }

    /// Move the mouse to `at` and wait until the window under it is this game's (with two
    /// windows on one display, the keys go where the pointer is).
    fn hover(&mut self, at: (u32, u32)) {
        self.point_at(at);
        let window = self.window.clone().expect("wait_for_editor first");
        self.wait_until("the pointer over the game's window", |game| {
            game.xdotool(&["getmouselocation"])
                .split_whitespace()
                .any(|part| part == format!("window:{window}"))
        });
    }

    /// Type `key` (an xdotool name) and wait until the editor says something containing `text`.
    fn press(&mut self, key: &str, text: &str) {
        self.send(&["key", key]);
        self.wait_said(text);
    }

    /// `xdotool ARGS` at once (no pause after it): what it does is waited for by a condition.
    fn send(&self, args: &[&str]) {
        self.xdotool(args);
    }

    /// Press `button` at window pixel `from`, move to `to`, let go (with `keys` held).
    fn drag(&self, from: (u32, u32), to: (u32, u32), button: &str, keys: &[&str]) {
        for key in keys {
            self.send(&["keydown", key]);
        }
        self.point_at(from);
        self.send(&["mousedown", button]);
        let mid = ((from.0 + to.0) / 2, (from.1 + to.1) / 2);
        self.point_at(mid);
        self.point_at(to);
        self.send(&["mouseup", button]);
        for key in keys {
            self.send(&["keyup", key]);
        }
    }

    /// Click `button` at `at` with `keys` held (`shift`, `alt`), waiting for nothing.
    fn click_with(&self, at: (u32, u32), button: &str, keys: &[&str]) {
        self.point_at(at);
        for key in keys {
            self.send(&["keydown", key]);
        }
        self.send(&["click", button]);
        for key in keys {
            self.send(&["keyup", key]);
        }
    }

    /// Wait for the game to end by itself (after Esc), within the deadline.
    fn wait_exit(mut self) -> serde_json::Value {
        let started = Instant::now();
        while self.child.try_wait().expect("wait").is_none() {
            if started.elapsed() > DEADLINE {
                let said = self.stderr.lock().expect("stderr lines").join("\n");
                panic!("the game did not end within {DEADLINE:?}; it said:\n{said}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.finish()
    }

    /// Run `xdotool ARGS` on this game's display.
    fn xdotool(&self, args: &[&str]) -> String {
        self.run_on_display(
            Command::new("timeout").args(["30", "xdotool"]).args(args),
            &format!("xdotool {args:?}"),
        )
    }

    /// Run `command` on this game's display; its stdout. If it fails, so does the test, saying
    /// `what` was run and what the command said on stderr.
    fn run_on_display(&self, command: &mut Command, what: &str) -> String {
        let out = command
            .env("DISPLAY", &self.display)
            .env_remove("XAUTHORITY")
            .output()
            .unwrap_or_else(|e| panic!("run {what}: {e}"));
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait for the window and for the editor to take input.
    fn wait_for_window(&mut self) -> String {
        self.wait_for_editor(None)
    }

    /// Move the mouse to window pixel `(x, y)`. Under Xvfb there is no window manager, so this
    /// is also how the window gets the keyboard.
    fn point_at(&self, (x, y): (u32, u32)) {
        let window = self.window.as_deref().expect("wait_for_window first");
        self.xdotool(&[
            "mousemove",
            "--window",
            window,
            &x.to_string(),
            &y.to_string(),
        ]);
    }

    /// Click `button` (1 left, 3 right) at window pixel `(x, y)`, and wait until a frame of
    /// the game took the button's release (the click is then handled).
    fn click(&mut self, at: (u32, u32), button: &str) {
        self.point_at(at);
        self.xdotool(&["click", button]);
        self.wait_taken(&format!("{}-up", button_name(button)));
    }

    /// Type `keys` (xdotool names: `ctrl+s`, `e`, `Escape`), and wait until a frame of the game
    /// took it.
    fn key(&mut self, keys: &str) {
        self.xdotool(&["key", keys]);
        self.wait_taken(&taken_name(keys));
    }

    /// Ctrl+S, then Esc (each waited for as [`Game::key`] does); the report of the game's end.
    fn save_and_finish(mut self) -> serde_json::Value {
        self.key("ctrl+s");
        self.xdotool(&["key", "Escape"]);
        self.finish()
    }

    /// Quit from the editor with unsaved edits: Esc asks first, Esc again quits. The report.
    fn quit_unsaved(mut self) -> serde_json::Value {
        self.key("Escape");
        self.xdotool(&["key", "Escape"]);
        self.finish()
    }

    /// Wait, once the game has ended, for the readers of its output to reach the end of it.
    fn wait_for_output_closed(&self) {
        let started = Instant::now();
        while !self
            .readers
            .iter()
            .all(std::thread::JoinHandle::is_finished)
        {
            assert!(
                started.elapsed() < DEADLINE,
                "the game's output was not closed within {DEADLINE:?} of its end"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wait for the game to end by itself (within the deadline), and return its JSON report.
    fn finish(mut self) -> serde_json::Value {
        self.wait_until("the game to end", |game| {
            game.child.try_wait().expect("wait").is_some()
        });
        let status = self.child.try_wait().expect("wait");
        self.wait_for_output_closed();
        let stdout = self.stdout.lock().expect("stdout lines").join("\n");
        let stderr = self.stderr.lock().expect("stderr lines").join("\n");
        assert!(
            status.is_some_and(|s| s.success()),
            "the game did not end well: {status:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
        let line = stdout
            .lines()
            .rev()
            .find(|l| l.starts_with('{'))
            .unwrap_or_else(|| panic!("a JSON report\nstdout: {stdout}\nstderr: {stderr}"));
        serde_json::from_str(line).expect("valid JSON report")
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // A failed test must not leave the game (and its Xvfb) running.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill").args(["-KILL", &self.pid]).status();
            let _ = self.child.wait();
        }
        if let Some(xvfb) = &mut self.xvfb {
            // SIGTERM: the server removes its lock file and socket, so the next test's Xvfb
            // never finds a stale one; SIGKILL only if it does not end in time.
            let _ = Command::new("kill")
                .args(["-TERM", &xvfb.id().to_string()])
                .status();
            let started = Instant::now();
            while xvfb.try_wait().ok().flatten().is_none() {
                if started.elapsed() > Duration::from_secs(10) {
                    let _ = xvfb.kill();
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = xvfb.wait();
        }
    }
}

/// The screen pixel of a point in cell `(x, y)`, `(fx, fy)` of the way across it (0.5 is the
/// centre), from the view and scale a run reported.
fn pixel(report: &serde_json::Value, (x, y): (u32, u32), (fx, fy): (f64, f64)) -> (u32, u32) {
    let view = &report["view"];
    let scale = report["scale"].as_f64().expect("scale");
    let (min_x, min_y) = (
        view[0].as_f64().expect("view"),
        view[1].as_f64().expect("view"),
    );
    let px = ((f64::from(x) + fx) * TILE - min_x) * scale;
    let py = ((f64::from(y) + fy) * TILE - min_y) * scale;
    (px.floor() as u32, py.floor() as u32)
}

/// The map rows of a level file's text, each with the byte offset of its first character.
fn map_rows(text: &str) -> Vec<(usize, String)> {
    let mut rows = Vec::new();
    let mut in_map = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("map:") {
            in_map = true;
        } else if in_map && trimmed.starts_with(']') {
            in_map = false;
        } else if in_map && trimmed.starts_with('"') {
            let start = offset + line.find('"').expect("a quote") + 1;
            let row = trimmed.trim_end_matches(',').trim_matches('"').to_owned();
            rows.push((start, row));
        }
        offset += line.len();
    }
    rows
}

/// `text` with the map character at each `(cell, char)` replaced (single-byte characters).
fn with_cells(text: &str, cells: &[((u32, u32), char)]) -> String {
    let rows = map_rows(text);
    let mut bytes = text.as_bytes().to_vec();
    for &((x, y), ch) in cells {
        let (start, _) = &rows[y as usize];
        bytes[start + x as usize] = ch as u8;
    }
    String::from_utf8(bytes).expect("UTF-8")
}

/// The map's `(width, height)` in an editor report.
fn map_size(editor: &serde_json::Value) -> (Option<u64>, Option<u64>) {
    (editor["width"].as_u64(), editor["height"].as_u64())
}

fn char_at(text: &str, (x, y): (u32, u32)) -> char {
    map_rows(text)[y as usize].1.as_bytes()[x as usize] as char
}

/// The editor's view of `path` at start: a scripted run of three frames.
fn view_at_start(path: &str, dir: &TempDir) -> serde_json::Value {
    let game = Game::start(
        &[
            "--edit",
            path,
            "--frames",
            "3",
            "--screenshot",
            &dir.path("start.png"),
        ],
        &dir.0,
    );
    let report = game.finish();
    assert_eq!(report["showing"], "editing", "{report}");
    report
}

/// Where the shots of these tests go (to look at): `$CRATE_ROOM_SHOTS` if set, else the
/// scratch folder.
fn shot(dir: &TempDir, name: &str) -> String {
    match std::env::var_os("CRATE_ROOM_SHOTS") {
        Some(shots) => {
            let _ = std::fs::create_dir_all(&shots);
            std::path::Path::new(&shots)
                .join(name)
                .to_string_lossy()
                .into_owned()
        }
        None => dir.path(name),
    }
}

/// The editor on `path` in a window that stays up until it is quit, taking input; it saves a
/// screenshot as `shot_name` (in [`shot`]'s folder) if one is given.
fn editing(path: &str, dir: &TempDir, shot_name: Option<&str>) -> Game {
    let screenshot = shot_name.map(|name| shot(dir, name));
    let mut args = vec!["--edit", path, "--frames", BACKSTOP_FRAMES];
    if let Some(screenshot) = &screenshot {
        args.extend(["--screenshot", screenshot.as_str()]);
    }
    let mut game = Game::start(&args, &dir.0);
    game.wait_for_window();
    game
}

/// A scratch folder `editor-NAME` with a copy of `crate_room.ron`: the folder, the copy's path,
/// its text and the editor's report at start on it ([`view_at_start`]); `None` (the test
/// skipped) where the window cannot be driven.
fn crate_room_copy(name: &str) -> Option<(TempDir, String, String, serde_json::Value)> {
    if !can_drive_window("the editor window test") {
        return None;
    }
    let dir = TempDir::new(&format!("editor-{name}"));
    let original =
        std::fs::read_to_string(copy_level(&dir, "crate_room.ron")).expect("copied level");
    let path = dir.path("crate_room.ron");
    let start = view_at_start(&path, &dir);
    Some((dir, path, original, start))
}

#[test]
fn clicks_paint_exactly_the_clicked_cells_and_ctrl_s_saves_only_them() {
    let Some((dir, path, original, start)) = crate_room_copy("clicks") else {
        return;
    };
    let editor = &start["editor"];
    assert_eq!(editor["modified"], false);
    let brush = editor["brush"]
        .as_str()
        .expect("brush")
        .chars()
        .next()
        .unwrap();
    assert_ne!(
        brush, '.',
        "the editor starts with a brush that changes floor"
    );

    let mut game = editing(&path, &dir, Some("editor-saved.png"));
    // Floor cells in all four quadrants, none the mirror of another, each clicked near a
    // different corner: a mapping that is flipped, or off by a cell or by the HUD bar's
    // height, paints some other cell.
    let painted = [
        ((1, 1), (0.1, 0.1)),
        ((23, 1), (0.9, 0.1)),
        ((4, 13), (0.1, 0.9)),
        ((16, 6), (0.9, 0.9)),
        ((11, 8), (0.5, 0.5)),
    ];
    for &(cell, at) in &painted {
        assert_eq!(
            char_at(&original, cell),
            '.',
            "{cell:?} is floor in the level"
        );
        game.click(pixel(editor, cell, at), "1");
    }
    // The right button erases a crate to floor.
    let erased = (2, 2);
    assert_eq!(char_at(&original, erased), 'c');
    game.click(pixel(editor, erased, (0.2, 0.8)), "3");
    let report = game.save_and_finish();
    let saved = std::fs::read_to_string(&path).expect("the saved level");
    let mut expected: Vec<((u32, u32), char)> = painted.iter().map(|&(c, _)| (c, brush)).collect();
    expected.push((erased, '.'));
    assert_eq!(
        saved,
        with_cells(&original, &expected),
        "only the clicked map cells changed; report: {report}"
    );
    assert_eq!(report["editor"]["modified"], false, "{report}");
    assert_eq!(
        report["editor"]["view"], editor["view"],
        "the view did not move"
    );
    // No temporary file is left beside the level.
    let names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron") || n.contains("tmp"))
        .collect();
    assert_eq!(names, ["crate_room.ron"], "{names:?}");
}

#[test]
fn saving_without_edits_leaves_the_file_byte_identical() {
    if !can_drive_window("the editor window test") {
        return;
    }
    let dir = TempDir::new("editor-noop");
    // vault.ron: comments, a legend and overrides, all kept as written.
    let original = std::fs::read_to_string(copy_level(&dir, "vault.ron")).expect("copied level");
    let path = dir.path("vault.ron");
    let game = editing(&path, &dir, None);
    // Point at the window so it has the keyboard (no window manager under Xvfb).
    game.point_at((640, 360));
    let report = game.save_and_finish();
    assert_eq!(report["editor"]["modified"], false, "{report}");
    let saved = std::fs::read(&path).expect("the level");
    assert!(
        saved == original.as_bytes(),
        "the file changed:\n{}",
        String::from_utf8_lossy(&saved)
    );
}

#[test]
fn leaving_edit_mode_plays_the_edited_map_unsaved() {
    let Some((dir, path, original, start)) = crate_room_copy("play") else {
        return;
    };
    let editor = &start["editor"];
    let total = start["crates_total"].as_u64().expect("crates total");
    let brush = editor["brush"].as_str().expect("brush");
    assert!(
        "cC$k".contains(brush),
        "the first brush is a crate: {brush}"
    );

    let mut game = editing(&path, &dir, Some("editor-after-play.png"));
    // Three crates round the player's start (13, 7), in the way of any walk.
    for cell in [(12, 7), (14, 7), (13, 8)] {
        assert_eq!(char_at(&original, cell), '.', "{cell:?}");
        game.click(pixel(editor, cell, (0.5, 0.5)), "1");
    }
    game.key("e");
    game.wait_for_step_after(0);
    game.key("e");
    let report = game.quit_unsaved();
    assert_eq!(report["showing"], "editing", "{report}");
    assert_eq!(
        report["crates_total"].as_u64(),
        Some(total + 3),
        "the level played had the three painted crates: {report}"
    );
    assert!(
        report["steps"].as_u64().unwrap_or(0) > 0,
        "it was played: {report}"
    );
    assert_eq!(report["editor"]["modified"], true);
    assert_eq!(
        std::fs::read_to_string(&path).expect("the level"),
        original,
        "nothing was saved"
    );
}

#[test]
fn the_editors_own_save_is_not_a_reload_but_an_outside_edit_is_noticed_and_edits_kept() {
    let Some((dir, path, original, start)) = crate_room_copy("watch") else {
        return;
    };
    let editor = &start["editor"];
    let mut game = editing(&path, &dir, None);
    game.click(pixel(editor, (1, 1), (0.5, 0.5)), "1");
    game.key("ctrl+s");
    game.wait_said("saved");
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(saved, with_cells(&original, &[((1, 1), 'c')]));
    // Now an unsaved edit, and someone else changes the file.
    game.click(pixel(editor, (2, 1), (0.5, 0.5)), "1");
    let outside = saved.replace("The Crate Room", "The Crate Room, edited outside");
    std::fs::write(&path, &outside).expect("write the level");
    game.wait_said("the file changed on disk");
    // A save now asks before it overwrites that change, and writes nothing yet.
    game.key("ctrl+s");
    let report = game.quit_unsaved();
    let said = report["editor"]["said"].to_string();
    assert!(said.contains("Ctrl+S again"), "{report}");
    assert_eq!(
        report["reloads"], 0,
        "nothing restarted the level: {report}"
    );
    assert_eq!(report["editor"]["disk_changed"], true, "{report}");
    assert_eq!(
        report["editor"]["modified"], true,
        "the edit is kept: {report}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("the level"),
        outside,
        "the outside edit was not overwritten"
    );
}

#[test]
fn a_save_that_fails_says_why_and_keeps_the_edits() {
    if !can_drive_window("the editor window test") {
        return;
    }
    let dir = TempDir::new("editor-gone");
    let level_dir = dir.0.join("levels");
    std::fs::create_dir_all(&level_dir).unwrap();
    let path = level_dir.join("crate_room.ron");
    let path = path.to_str().unwrap();
    std::fs::copy(repo().join("levels/crate_room.ron"), path).unwrap();
    let start = view_at_start(path, &dir);
    let editor = &start["editor"];
    let mut game = editing(path, &dir, Some("editor-save-failed.png"));
    game.click(pixel(editor, (1, 1), (0.5, 0.5)), "1");
    // The folder goes away (root ignores file permissions, so a read-only file would not do).
    std::fs::remove_dir_all(&level_dir).unwrap();
    game.key("ctrl+s");
    let report = game.quit_unsaved();
    assert_eq!(
        report["editor"]["modified"], true,
        "the edit is kept: {report}"
    );
    let said = report["editor"]["said"].to_string();
    assert!(
        said.contains("not saved (your edits are kept): "),
        "{report}"
    );
    assert!(!level_dir.exists(), "nothing was written");
}

#[test]
fn a_save_that_removes_a_crate_override_names_it_and_waits_for_a_second_ctrl_s() {
    let Some((dir, path, original, start)) = crate_room_copy("override") else {
        return;
    };
    let editor = &start["editor"];
    // crate_room.ron overrides the crate at (19, 8): erase that crate.
    assert!(original.contains("(at: (19, 8), health: 5),"));
    assert_eq!(char_at(&original, (19, 8)), 'c');
    let mut game = editing(&path, &dir, None);
    game.click(pixel(editor, (19, 8), (0.5, 0.5)), "3");
    game.key("ctrl+s");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        original,
        "the first Ctrl+S only asks"
    );
    let report = game.save_and_finish();
    let said = report["editor"]["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("removed the crates overrides (at: (19, 8))"),
        "{report}"
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    let expected =
        with_cells(&original, &[((19, 8), '.')]).replace("(at: (19, 8), health: 5),", "");
    // The entry goes; the comment above it, and every other byte, stay.
    assert_eq!(
        saved
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>(),
        expected
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
    );
    assert!(saved.contains("// The crate guarding the strong room takes a little more work."));
}

#[test]
fn a_new_level_is_made_at_the_given_size_and_written_on_the_first_save() {
    if !can_drive_window("the editor window test") {
        return;
    }
    let dir = TempDir::new("editor-new");
    let path = dir.path("fresh.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    assert_eq!(map_size(editor), (Some(26), Some(15)));
    assert_eq!(editor["modified"], true, "a new level is not saved yet");
    assert!(
        !std::path::Path::new(&path).exists(),
        "nothing written before a save"
    );

    let mut game = Game::start(
        &[
            "--edit",
            &path,
            "--size",
            "9x6",
            "--frames",
            BACKSTOP_FRAMES,
        ],
        &dir.0,
    );
    game.wait_for_window();
    game.point_at((640, 360));
    let report = game.save_and_finish();
    assert_eq!(map_size(&report["editor"]), (Some(9), Some(6)));
    // A new level is valid but has no crates yet, which `check` alone refuses.
    let check = common::crate_room(&["check", &path]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.code() == Some(1)
            && said.contains("has no crates")
            && said.lines().count() == 2,
        "the saved level is refused by check for its crates alone: {said}"
    );
}

#[test]
fn edit_arguments_are_checked_before_a_window_opens() {
    let dir = TempDir::new("editor-args");
    let missing = dir.0.join("no such folder").join("x.ron");
    let out = common::crate_room(&["--edit", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no such folder"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = dir.path("bad.ron");
    std::fs::write(&bad, "(name: \"x\", mapp: [])").unwrap();
    let out = common::crate_room(&["--edit", &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.ron:1:13: error: unknown field `mapp`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for size in ["0x5", "5", "4097x3", "axb"] {
        let out = common::crate_room(&["--edit", &dir.path("x.ron"), "--size", size]);
        assert_eq!(out.status.code(), Some(2), "--size {size}");
    }
    let out = common::crate_room(&["--size", "5x5"]);
    assert_eq!(out.status.code(), Some(2), "--size needs --edit");
    let out = common::crate_room(&["--edit", &dir.path("x.ron"), "--level", "levels/vault.ron"]);
    assert_eq!(out.status.code(), Some(2), "--edit or --level, not both");
}

#[test]
fn the_resize_buttons_and_keys_add_and_remove_rows_and_columns() {
    if !can_drive_window("the editor window test") {
        return;
    }
    let dir = TempDir::new("editor-resize");
    copy_level(&dir, "vault.ron");
    let path = dir.path("vault.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    let (w, h) = (
        editor["width"].as_u64().unwrap() as u32,
        editor["height"].as_u64().unwrap() as u32,
    );
    // The map's screen rectangle; the buttons sit beside the middle of each edge: `+` then
    // `-`, 22 pixels square, 6 pixels out.
    let edges = |w: u32, h: u32| {
        let (left, top) = pixel(editor, (0, 0), (0.0, 0.0));
        let (right, bottom) = pixel(editor, (w, h), (0.0, 0.0));
        (right, bottom, (left + right) / 2, (top + bottom) / 2)
    };
    let mut game = editing(&path, &dir, None);
    let (right, _, _, mid_y) = edges(w, h);
    game.click((right + 17, mid_y - 13), "1"); // right `+`: a column
    // The map is a column wider now: its bottom edge's middle moved.
    let (_, bottom, mid_x, _) = edges(w + 1, h);
    game.click((mid_x + 13, bottom + 17), "1"); // bottom `-`: a row fewer
    game.key("ctrl+Up"); // a row on top
    game.key("ctrl+Up");
    game.key("ctrl+shift+Left"); // a column fewer on the left
    game.key("ctrl+z"); // takes back the last
    let report = game.save_and_finish();
    assert_eq!(
        map_size(&report["editor"]),
        (Some(u64::from(w) + 1), Some(u64::from(h) + 1)),
        "{report}"
    );
    let level = game::level::load(std::path::Path::new(&path), &game::level::DEFAULT_SKINS)
        .unwrap_or_else(|e| panic!("the saved level is valid: {e}"));
    assert_eq!((level.width, level.height), (w + 1, h + 1));
    // The two new rows on top are void; the map moved down by two.
    assert_eq!(level.tile(4, 0), game::level::Tile::Void);
    assert_eq!(level.player_start, game::level::Cell { x: 1, y: 3 + 2 });
}

/// Ask the window to close, as a window manager's close button does (`WM_DELETE_WINDOW`;
/// this `xdotool` has no command for it), through libX11 from Python's `ctypes`.
const CLOSE_WINDOW_PY: &str = r#"
import ctypes, sys
x = ctypes.CDLL("libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]
d = x.XOpenDisplay(None)
if not d:
    sys.exit("cannot open the display")
win = int(sys.argv[1])
class Ev(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]
ev = Ev(type=33, window=win, format=32, message_type=x.XInternAtom(d, b"WM_PROTOCOLS", 0))
ev.data[0] = x.XInternAtom(d, b"WM_DELETE_WINDOW", 0)
x.XSendEvent(d, win, 0, 0, ctypes.byref(ev))
x.XFlush(d)
"#;

impl Game {
    /// Ask the window to close, as a window manager does (what follows waits for the result).
    fn close_window(&self) {
        let window = self.window.as_deref().expect("wait_for_window first");
        self.run_on_display(
            Command::new("python3").args(["-c", CLOSE_WINDOW_PY, window]),
            "close the window",
        );
    }

    /// Wait until a frame of the game took a request to close its window (and did not end).
    fn wait_close_taken(&mut self) {
        self.wait_taken("Close");
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

#[test]
fn closing_the_window_with_unsaved_edits_asks_first() {
    if !can_drive_window("the editor window test") {
        return;
    }
    if !have("python3") {
        skip_window_test("no python3 to close the window as a window manager does");
        return;
    }
    let Some((dir, path, original, start)) = crate_room_copy("close") else {
        return;
    };
    let editor = &start["editor"];

    // No edits: the window closes at once.
    let game = editing(&path, &dir, None);
    game.close_window();
    let report = game.finish();
    assert_eq!(report["editor"]["modified"], false, "{report}");

    // An edit: the first close only asks, the second closes; nothing is saved.
    let mut game = editing(&path, &dir, None);
    game.click(pixel(editor, (1, 1), (0.5, 0.5)), "1");
    game.close_window();
    game.wait_close_taken();
    assert!(game.running(), "the first close with unsaved edits asks");
    game.close_window();
    let report = game.finish();
    assert_eq!(report["editor"]["modified"], true, "{report}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
}

/// The level of the tool tests: two rooms, a crate of each built-in kind, no legend.
const TOOLS_LEVEL: &str = "// The tool tests' room.
(
    name: \"Tools\",
    map: [
        \"############\",
        \"#....#.....#\",
        \"#....#..c..#\",
        \"#....#..$..#\",
        \"######.....#\",
        \"#.@.C...o..#\",
        \"############\",
    ],
)
";

/// `TOOLS_LEVEL` in `dir` as `name`; its path.
fn tools_level(dir: &TempDir, name: &str) -> String {
    let path = dir.path(name);
    std::fs::write(&path, TOOLS_LEVEL).expect("write the level");
    path
}

/// The tool tests' start: `TOOLS_LEVEL` in a scratch folder `editor-NAME`, and the editor on it
/// with its window up and taking input (its screenshot `editor-NAME.png`). The folder, the
/// level's path, the game and the view it starts with (from a three-frame scripted run: cell to
/// pixel). `None` (the test skipped) where the window cannot be driven.
fn tools_editor(name: &str) -> Option<(TempDir, String, Game, serde_json::Value)> {
    if !can_drive_window("the editor window test") {
        return None;
    }
    let dir = TempDir::new(&format!("editor-{name}"));
    let path = tools_level(&dir, "tools.ron");
    let start = view_at_start(&path, &dir);
    let game = editing(&path, &dir, Some(&format!("editor-{name}.png")));
    Some((dir, path, game, start["editor"].clone()))
}

/// Ctrl+S, and wait for the editor to say it saved; then Esc, and wait for the game to end.
fn save_and_quit(mut game: Game) -> serde_json::Value {
    game.press("ctrl+s", "saved ");
    game.send(&["key", "Escape"]);
    game.wait_exit()
}

#[test]
fn shift_click_floods_a_region_as_one_undo_step_and_shift_right_click_floods_with_floor() {
    let Some((_dir, path, mut game, view)) = tools_editor("flood") else {
        return;
    };
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    game.press("9", "brush: powder keg 'k'");
    // The left room (12 cells of floor) becomes kegs; the walls stop it.
    game.click_with(at((2, 2)), "1", &["shift"]);
    game.wait_said("flooded from (2, 2) with 'k'");
    // Shift + right click on a keg: the whole room of kegs goes back to floor.
    game.click_with(at((1, 1)), "3", &["shift"]);
    game.wait_said("flooded from (1, 1) with '.'");
    // One Ctrl+Z takes back all twelve cells of that flood.
    game.press("ctrl+z", "undone");
    // A flood of a single crate with floor.
    game.click_with(at((8, 2)), "3", &["shift"]);
    game.wait_said("flooded from (8, 2) with '.'");
    let report = save_and_quit(game);
    let saved = std::fs::read_to_string(&path).expect("saved");
    let expected = TOOLS_LEVEL.replace(
        "\"#....#.....#\",\n        \"#....#..c..#\",\n        \"#....#..$..#\"",
        "\"#kkkk#.....#\",\n        \"#kkkk#.....#\",\n        \"#kkkk#..$..#\"",
    );
    assert_eq!(saved, expected, "{report}");
}

#[test]
fn alt_click_and_a_middle_click_pick_the_brush_from_the_map() {
    let Some((_dir, path, mut game, view)) = tools_editor("eyedropper") else {
        return;
    };
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    game.click_with(at((4, 5)), "1", &["alt"]);
    game.wait_said("brush: strong crate 'C'");
    game.click_with(at((6, 4)), "1", &[]);
    // The middle button without a drag picks too (a drag pans).
    game.click_with(at((8, 5)), "2", &[]);
    game.wait_said("brush: loose coin 'o'");
    game.click_with(at((10, 4)), "1", &[]);
    let report = save_and_quit(game);
    assert_eq!(report["editor"]["brush"], "o", "{report}");
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(
        saved,
        TOOLS_LEVEL.replace("\"######.....#\"", "\"######C...o#\""),
        "{report}"
    );
}

#[test]
fn a_selection_moves_by_mouse_and_arrows_and_pastes_into_another_level_through_the_clipboard() {
    let Some((dir, path, mut game, view)) = tools_editor("select") else {
        return;
    };
    let other_text =
        std::fs::read_to_string(copy_level(&dir, "crate_room.ron")).expect("copied level");
    let other = dir.path("crate_room.ron");
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    // Ctrl + drag selects the 3 x 2 cells round the crate at (8, 2).
    game.drag(at((7, 1)), at((9, 2)), "1", &["ctrl"]);
    game.wait_said("selected 3 x 2 at (7, 1)");
    // Dragged a cell right by its middle, then a cell down with the arrow key.
    game.drag(at((8, 2)), at((9, 2)), "1", &[]);
    game.wait_said("moved 3 x 2 to (8, 1)");
    game.press("Down", "moved 3 x 2 to (8, 2)");
    game.press("ctrl+c", "copied 3 x 2 at (8, 2)");
    game.press("ctrl+s", "saved ");
    let saved = std::fs::read_to_string(&path).expect("saved");
    // The crate moved from (8, 2) to (9, 3), over the coin crate that was at (8, 3)'s row.
    assert_eq!(
        saved,
        TOOLS_LEVEL
            .replace("\"#....#..c..#\"", "\"#....#.....#\"")
            .replace("\"#....#..$..#\"", "\"#....#...c.#\"")
    );

    // A second level in a second game on the same display pastes what the first copied.
    let other_view = view_at_start(&other, &dir)["editor"].clone();
    let mut second = Game::start_beside(
        &game,
        &["--edit", &other, "--frames", BACKSTOP_FRAMES],
        &dir.0,
    );
    second.wait_for_editor(Some(&game));
    let at2 = |cell| pixel(&other_view, cell, (0.5, 0.5));
    second.hover(at2((1, 1)));
    second.press("ctrl+v", "pasted 3 x 2 at (1, 1)");
    // A selection erased with Delete.
    second.drag(at2((2, 12)), at2((3, 13)), "1", &["ctrl"]);
    second.wait_said("selected 2 x 2 at (2, 12)");
    second.press("Delete", "erased 2 x 2 at (2, 12)");
    // Esc lets go of the selection (the Esc after the save then quits).
    second.press("Escape", "selection cleared");
    let report = save_and_quit(second);
    let pasted = std::fs::read_to_string(&other).expect("saved");
    assert_eq!(
        pasted,
        with_cells(&other_text, &[((2, 2), 'c'), ((3, 2), '.'), ((3, 13), '.')]),
        "{report}"
    );
    game.hover(at((1, 1)));
    game.press("Escape", "selection cleared");
    game.send(&["key", "Escape"]);
    game.wait_exit();
}

#[test]
fn the_scatter_brush_paints_a_seeded_share_of_its_square_and_undoes_in_one_step() {
    let Some((_dir, path, mut game, view)) = tools_editor("scatter") else {
        return;
    };
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    game.press("4", "brush: crate 'c'");
    game.press("r", "scatter brush: 30%");
    game.send(&["key", "equal"]);
    game.press("equal", "scatter density 50%");
    game.click_with(at((8, 3)), "1", &[]);
    game.wait_said("scattered at 50% with seed 1");
    game.press("ctrl+z", "undone");
    game.press("ctrl+y", "redone");
    let report = save_and_quit(game);
    // The 5 x 5 square round (8, 3): columns 6 to 10, rows 1 to 5.
    let hits: Vec<(u32, u32)> = (1..=5)
        .flat_map(|y| (6..=10).map(move |x| (x, y)))
        .filter(|&(x, y)| game::editor::scatter_hits(1, x, y, 5))
        .collect();
    assert!(
        (5..=20).contains(&hits.len()),
        "about half of 25 cells: {hits:?}"
    );
    let cells: Vec<((u32, u32), char)> = hits.iter().map(|&c| (c, 'c')).collect();
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(saved, with_cells(TOOLS_LEVEL, &cells), "{report}");
}

#[test]
fn a_selection_saved_as_a_stamp_is_placed_from_the_stamp_palette() {
    let Some((dir, path, mut game, view)) = tools_editor("stamp") else {
        return;
    };
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    game.drag(at((7, 2)), at((9, 3)), "1", &["ctrl"]);
    game.wait_said("selected 3 x 2 at (7, 2)");
    game.press("ctrl+b", "saved \"stamp 1\" (3 x 2)");
    let stamps = std::fs::read_to_string(dir.0.join("stamps.txt")).expect("the stamp file");
    assert_eq!(
        stamps,
        "// Stamps for the levels in this folder: pieces of map saved in the level editor\n\
         // (Ctrl+B saves the selection), placed from its stamp palette. Rename them here.\n\
         (\n    stamps: [\n        (\n            name: \"stamp 1\",\n            rows: [\n                \
         \".c.\",\n                \".$.\",\n            ],\n        ),\n    ],\n)\n"
    );
    // The stamp is the palette's tenth entry, after the nine built-in brushes.
    let row = view["palette_row"].as_f64().expect("palette_row");
    let top = view["palette_y"].as_f64().expect("palette_y");
    let y = top + row * 9.0 + row / 2.0;
    game.click_with((38, y as u32), "1", &[]);
    game.wait_said("stamp \"stamp 1\" (3 x 2)");
    game.click_with(at((1, 1)), "1", &[]);
    game.wait_said("placed \"stamp 1\" at (1, 1)");
    let report = save_and_quit(game);
    assert_eq!(report["editor"]["stamps"], serde_json::json!(["stamp 1"]));
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(
        saved,
        with_cells(TOOLS_LEVEL, &[((2, 1), 'c'), ((2, 2), '$')]),
        "{report}"
    );
}

#[test]
fn a_crates_skin_and_health_and_the_level_name_are_edited_in_place_and_checked_like_check() {
    let Some((_dir, path, mut game, view)) = tools_editor("override-form") else {
        return;
    };
    let at = |cell| pixel(&view, cell, (0.5, 0.5));
    // O over the strong crate at (4, 5): its skin, then its health.
    game.hover(at((4, 5)));
    game.press("o", "crate at (4, 5): skin and health");
    game.send(&["type", "keg"]);
    game.send(&["key", "Tab"]);
    game.send(&["type", "0"]);
    game.send(&["key", "Return"]);
    // Refused with `check`'s own words; the form stays open.
    game.wait_said("not applied: crate health must be between 1 and 1000, found 0");
    game.send(&["key", "BackSpace"]);
    game.send(&["type", "7"]);
    game.press("Return", "crate at (4, 5): skin keg, health 7");
    // P: the level's name (an empty one is refused as `check` refuses it).
    game.press("p", "level properties");
    for _ in 0.."Tools".len() {
        game.send(&["key", "BackSpace"]);
    }
    game.press("Return", "not applied: the level name is empty");
    game.send(&["type", "Tool Shed"]);
    game.press("Return", "level \"Tool Shed\", 12 x 7");
    let report = save_and_quit(game);
    let saved = std::fs::read_to_string(&path).expect("saved");
    let expected = TOOLS_LEVEL.replace("\"Tools\"", "\"Tool Shed\"").replace(
        "    ],\n)\n",
        "    ],\n    crates: [\n        (at: (4, 5), health: 7, skin: \"keg\"),\n    ],\n)\n",
    );
    assert_eq!(saved, expected, "{report}");
    let check = common::crate_room(&["check", &path]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

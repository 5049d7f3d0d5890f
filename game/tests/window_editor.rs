//! The level editor in a real window (Xvfb + Mesa), driven like a person would: `xdotool`
//! moves the mouse onto map cells and clicks, and types Ctrl+S, E and Esc. Each run works on a
//! copy of a shipped level in a scratch folder. Cells are mapped to screen pixels with the view
//! the game reports (`--frames N --screenshot` prints it), so a flipped or shifted
//! mouse-to-cell mapping paints other cells than the ones asked for, and the byte comparison
//! of the saved file fails. Skipped with a message when there is no `Xvfb` or `xdotool`
//! (or `python3`, for the test that closes the window), unless `CRATE_ROOM_REQUIRE_WINDOW=1`
//! (set by `.ci/run`) demands the window.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::display::Xvfb;
use common::process::{Running, TOOL_LIMIT, WINDOW_LIMIT, output_within};
use common::{TempDir, have, repo, skip_window_test};

const TILE: f64 = 16.0;
/// A scripted editor run ends when the editor is quit (Esc); this many frames is only a
/// backstop, minutes away.
const BACKSTOP_FRAMES: &str = "200000";

/// Whether this machine can run these tests (Xvfb and xdotool).
fn can_run() -> bool {
    for tool in ["Xvfb", "xdotool"] {
        if !have(tool) {
            skip_window_test(&format!(
                "no {tool}: install xvfb, xdotool and libgl1-mesa-dri to run the editor window test"
            ));
            return false;
        }
    }
    true
}

/// `crate-room ARGS` in its own Xvfb, whose display `xdotool` is pointed at.
struct Game {
    /// Declared before `xvfb`, so a dropped game ends before its display.
    child: Running,
    xvfb: Xvfb,
    window: Option<String>,
}

impl Game {
    /// Start `crate-room --width 1280 --height 720 ARGS` (with `--mute`) in a fresh Xvfb.
    fn start(args: &[&str], data: &std::path::Path) -> Game {
        let xvfb = Xvfb::start(1280, 720);
        let child = Running::start(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .args(["--width", "1280", "--height", "720", "--mute"])
                .args(args)
                .current_dir(repo())
                .env("CRATE_ROOM_DATA_DIR", data)
                .env("DISPLAY", &xvfb.display)
                .env_remove("XAUTHORITY")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
            WINDOW_LIMIT,
        );
        Game {
            child,
            xvfb,
            window: None,
        }
    }

    /// Run `xdotool ARGS` on this game's display.
    fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("timeout")
            .arg("30")
            .arg("xdotool")
            .args(args)
            .env("DISPLAY", &self.xvfb.display)
            .env_remove("XAUTHORITY")
            .output()
            .expect("run xdotool");
        assert!(
            out.status.success(),
            "xdotool {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait for the window, then for the game to run a while (its input is read from the
    /// first frame on).
    fn wait_for_window(&mut self) -> String {
        let id = self.xdotool(&["search", "--sync", "--name", "^Crate Room$"]);
        let id = id.lines().next().expect("a window id").trim().to_owned();
        std::thread::sleep(Duration::from_millis(2500));
        self.window = Some(id.clone());
        id
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

    /// Click `button` (1 left, 3 right) at window pixel `(x, y)`.
    fn click(&self, at: (u32, u32), button: &str) {
        self.point_at(at);
        std::thread::sleep(Duration::from_millis(150));
        self.xdotool(&["click", button]);
        std::thread::sleep(Duration::from_millis(250));
    }

    /// Type `keys` (xdotool names: `ctrl+s`, `e`, `Escape`).
    fn key(&self, keys: &str) {
        self.xdotool(&["key", keys]);
        std::thread::sleep(Duration::from_millis(400));
    }

    /// Quit from the editor with unsaved edits: Esc asks first, Esc again quits. The report.
    fn quit_unsaved(self) -> serde_json::Value {
        self.key("Escape");
        self.key("Escape");
        self.finish()
    }

    /// Wait for the game to end by itself (until the run's deadline), and return its JSON
    /// report.
    fn finish(self) -> serde_json::Value {
        let out = self.child.wait_with_output();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let status = out.status;
        assert!(
            status.success(),
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

fn char_at(text: &str, (x, y): (u32, u32)) -> char {
    map_rows(text)[y as usize].1.as_bytes()[x as usize] as char
}

/// A copy of `levels/NAME` in `dir`, its text and path.
fn copy_level(dir: &TempDir, name: &str) -> (String, String) {
    let text = std::fs::read_to_string(repo().join("levels").join(name)).expect("shipped level");
    let path = dir.path(name);
    std::fs::write(&path, &text).expect("copy the level");
    (text, path)
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

#[test]
fn clicks_paint_exactly_the_clicked_cells_and_ctrl_s_saves_only_them() {
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-clicks");
    let (original, path) = copy_level(&dir, "crate_room.ron");
    let start = view_at_start(&path, &dir);
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

    let mut game = Game::start(
        &[
            "--edit",
            &path,
            "--frames",
            BACKSTOP_FRAMES,
            "--screenshot",
            &shot(&dir, "editor-saved.png"),
        ],
        &dir.0,
    );
    game.wait_for_window();
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
    game.key("ctrl+s");
    game.key("Escape");
    let report = game.finish();
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-noop");
    // vault.ron: comments, a legend and overrides, all kept as written.
    let (original, path) = copy_level(&dir, "vault.ron");
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    // Point at the window so it has the keyboard (no window manager under Xvfb).
    game.point_at((640, 360));
    game.key("ctrl+s");
    game.key("Escape");
    let report = game.finish();
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-play");
    let (original, path) = copy_level(&dir, "crate_room.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    let total = start["crates_total"].as_u64().expect("crates total");
    let brush = editor["brush"].as_str().expect("brush");
    assert!(
        "cC$k".contains(brush),
        "the first brush is a crate: {brush}"
    );

    let mut game = Game::start(
        &[
            "--edit",
            &path,
            "--frames",
            BACKSTOP_FRAMES,
            "--screenshot",
            &shot(&dir, "editor-after-play.png"),
        ],
        &dir.0,
    );
    game.wait_for_window();
    // Three crates round the player's start (13, 7), in the way of any walk.
    for cell in [(12, 7), (14, 7), (13, 8)] {
        assert_eq!(char_at(&original, cell), '.', "{cell:?}");
        game.click(pixel(editor, cell, (0.5, 0.5)), "1");
    }
    game.key("e");
    std::thread::sleep(Duration::from_millis(1500));
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-watch");
    let (original, path) = copy_level(&dir, "crate_room.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    game.click(pixel(editor, (1, 1), (0.5, 0.5)), "1");
    game.key("ctrl+s");
    // Long enough for the watcher to report the save (a tenth of a second of quiet).
    std::thread::sleep(Duration::from_millis(1000));
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(saved, with_cells(&original, &[((1, 1), 'c')]));
    // Now an unsaved edit, and someone else changes the file.
    game.click(pixel(editor, (2, 1), (0.5, 0.5)), "1");
    let outside = saved.replace("The Crate Room", "The Crate Room, edited outside");
    std::fs::write(&path, &outside).expect("write the level");
    std::thread::sleep(Duration::from_millis(1000));
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
    if !can_run() {
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
    let mut game = Game::start(
        &[
            "--edit",
            path,
            "--frames",
            BACKSTOP_FRAMES,
            "--screenshot",
            &shot(&dir, "editor-save-failed.png"),
        ],
        &dir.0,
    );
    game.wait_for_window();
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-override");
    let (original, path) = copy_level(&dir, "crate_room.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    // crate_room.ron overrides the crate at (19, 8): erase that crate.
    assert!(original.contains("(at: (19, 8), health: 5),"));
    assert_eq!(char_at(&original, (19, 8)), 'c');
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    game.click(pixel(editor, (19, 8), (0.5, 0.5)), "3");
    game.key("ctrl+s");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        original,
        "the first Ctrl+S only asks"
    );
    game.key("ctrl+s");
    game.key("Escape");
    let report = game.finish();
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-new");
    let path = dir.path("fresh.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];
    assert_eq!(
        (editor["width"].as_u64(), editor["height"].as_u64()),
        (Some(26), Some(15))
    );
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
    game.key("ctrl+s");
    game.key("Escape");
    let report = game.finish();
    assert_eq!(
        (
            report["editor"]["width"].as_u64(),
            report["editor"]["height"].as_u64()
        ),
        (Some(9), Some(6))
    );
    let check = common::crate_room(&["check", &path]);
    assert!(
        check.status.success(),
        "the saved level passes check: {}",
        String::from_utf8_lossy(&check.stdout)
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
    for size in ["0x5", "5", "1025x3", "axb"] {
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
    if !can_run() {
        return;
    }
    let dir = TempDir::new("editor-resize");
    let (_, path) = copy_level(&dir, "vault.ron");
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
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    let (right, _, _, mid_y) = edges(w, h);
    game.click((right + 17, mid_y - 13), "1"); // right `+`: a column
    // The map is a column wider now: its bottom edge's middle moved.
    let (_, bottom, mid_x, _) = edges(w + 1, h);
    game.click((mid_x + 13, bottom + 17), "1"); // bottom `-`: a row fewer
    game.key("ctrl+Up"); // a row on top
    game.key("ctrl+Up");
    game.key("ctrl+shift+Left"); // a column fewer on the left
    game.key("ctrl+z"); // takes back the last
    game.key("ctrl+s");
    game.key("Escape");
    let report = game.finish();
    assert_eq!(
        (
            report["editor"]["width"].as_u64(),
            report["editor"]["height"].as_u64()
        ),
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
    fn close_window(&self) {
        let window = self.window.as_deref().expect("wait_for_window first");
        let out = output_within(
            Command::new("python3")
                .args(["-c", CLOSE_WINDOW_PY, window])
                .env("DISPLAY", &self.xvfb.display)
                .env_remove("XAUTHORITY"),
            TOOL_LIMIT,
        );
        assert!(
            out.status.success(),
            "close the window: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(800));
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().is_none()
    }
}

#[test]
fn closing_the_window_with_unsaved_edits_asks_first() {
    if !can_run() {
        return;
    }
    if !have("python3") {
        skip_window_test("no python3 to close the window as a window manager does");
        return;
    }
    let dir = TempDir::new("editor-close");
    let (original, path) = copy_level(&dir, "crate_room.ron");
    let start = view_at_start(&path, &dir);
    let editor = &start["editor"];

    // No edits: the window closes at once.
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    game.close_window();
    let report = game.finish();
    assert_eq!(report["editor"]["modified"], false, "{report}");

    // An edit: the first close only asks, the second closes; nothing is saved.
    let mut game = Game::start(&["--edit", &path, "--frames", BACKSTOP_FRAMES], &dir.0);
    game.wait_for_window();
    game.click(pixel(editor, (1, 1), (0.5, 0.5)), "1");
    game.close_window();
    assert!(game.running(), "the first close with unsaved edits asks");
    game.close_window();
    let report = game.finish();
    assert_eq!(report["editor"]["modified"], true, "{report}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
}

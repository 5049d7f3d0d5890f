//! Shared helpers for the tests: the repository, a `Sim` from inline level text with the
//! repository's atlas, scratch folders, and the `crate-room` binary with or without a window.

#![allow(dead_code)]

pub mod display;
pub mod mutate;
pub mod process;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use game::atlas::AtlasData;
use game::editor::Editor;
use game::level::{self, DEFAULT_SKINS, Level, LevelError};
use game::sim::Sim;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every level file shipped in `levels/` (`*.ron`), sorted by name.
pub fn shipped_levels() -> Vec<PathBuf> {
    ron_files(&repo().join("levels"))
}

/// Every broken level in `tests/bad_levels/` (`*.ron`, each beside its `.expected`), sorted
/// by name.
pub fn bad_levels() -> Vec<PathBuf> {
    ron_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_levels"))
}

/// The `*.ron` files in `dir`, sorted by name.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    files.sort();
    files
}

/// A copy of shipped level `name` (from `levels/`) in `dir`.
pub fn copy_level(dir: &TempDir, name: &str) -> PathBuf {
    let to = dir.0.join(name);
    std::fs::copy(repo().join("levels").join(name), &to).expect("copy level");
    to
}

/// Level `text` parsed as the file `name`, with the default crate skins.
pub fn parse_level(name: &str, text: &str) -> Result<Level, LevelError> {
    level::parse(Path::new(name), text, &DEFAULT_SKINS)
}

/// The level in `text`, which must be valid.
pub fn valid_level(text: &str) -> Level {
    parse_level("test.ron", text).unwrap_or_else(|err| panic!("{err}"))
}

/// The error of the level in `text`, which must be invalid.
pub fn level_error(text: &str) -> LevelError {
    parse_level("test.ron", text).expect_err("invalid level")
}

/// A process's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The editor's map, one string per row.
pub fn editor_map(editor: &Editor) -> Vec<String> {
    (0..editor.height())
        .map(|y| {
            (0..editor.width())
                .map(|x| editor.cell(x, y).expect("inside the map"))
                .collect()
        })
        .collect()
}

pub fn atlas() -> AtlasData {
    AtlasData::load(&repo().join("assets")).expect("repository atlas loads")
}

/// A simulation of the level whose map rows are `rows`.
pub fn sim_from_rows(rows: &[&str]) -> Sim {
    sim_from_rows_and(rows, "")
}

/// A simulation of the level whose map rows are `rows`, with more fields of the level file
/// (`legend: {...}, crates: [...]`) after the map.
pub fn sim_from_rows_and(rows: &[&str], fields: &str) -> Sim {
    let map: String = rows.iter().map(|r| format!("        \"{r}\",\n")).collect();
    let text = format!("(\n    name: \"test\",\n    map: [\n{map}    ],\n{fields}\n)\n");
    let atlas = atlas();
    let level = level::parse(Path::new("test.ron"), &text, &atlas.crate_skins())
        .unwrap_or_else(|e| panic!("test level is valid: {e}"));
    Sim::new(&level, &atlas, 7).unwrap()
}

/// Name of the clip entity `e` shows.
pub fn clip_name(sim: &Sim, e: ecs::Entity) -> String {
    let anim = sim
        .world()
        .get::<game::sim::components::ClipFrame>(e)
        .expect("an animated entity");
    sim.world()
        .resource::<game::sim::Clips>()
        .get(anim.clip)
        .name
        .clone()
}

/// A simulation of a shipped level file.
pub fn sim_from_file(name: &str, seed: u64) -> Sim {
    let path = repo().join("levels").join(name);
    let (_, sim) = Sim::load(&path, &atlas(), seed).unwrap_or_else(|e| panic!("{e}"));
    sim
}

/// A fresh folder under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `crate-room-TEST-PID-N` in the temp dir, emptied: `N` counts the folders this test
    /// program has made, so two tests that pick the same name never share a folder.
    pub fn new(test: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "crate-room-{test}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    /// The path of `name` in the folder, as a string for command lines.
    pub fn path(&self, name: &str) -> String {
        self.0
            .join(name)
            .to_str()
            .expect("UTF-8 temp dir")
            .to_owned()
    }
}

impl Drop for TempDir {
    /// Removes the folder, unless the test is failing: then it stays, for a look at what the
    /// test left in it (screenshots, data files), and its path is printed.
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Whether `program` is on the PATH.
pub fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run `crate-room ARGS` (no window) in the repository and wait for it, for at most
/// [`process::TOOL_LIMIT`].
pub fn crate_room(args: &[&str]) -> Output {
    process::output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .args(args),
        process::TOOL_LIMIT,
    )
}

/// Record the bot playing `levels/crate_room.ron` for `frames` frames into `file`:
/// `crate-room sim ... --frames FRAMES EXTRA --record FILE`. Its output, once it has succeeded.
pub fn record_bot_run(file: &str, frames: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "sim",
        "--level",
        "levels/crate_room.ron",
        "--input",
        "bot",
        "--frames",
        frames,
    ];
    args.extend_from_slice(extra);
    args.extend(["--record", file]);
    let rec = crate_room(&args);
    assert!(rec.status.success(), "{}", stderr(&rec));
    rec
}

/// Run `crate-room ARGS` in the repository with no display at all (for at most
/// [`process::TOOL_LIMIT`]): a run that tried to open a window would fail differently from a
/// refusal before one.
pub fn crate_room_without_display(args: &[&str]) -> Output {
    process::output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY"),
        process::TOOL_LIMIT,
    )
}

/// A command that runs `crate-room` in a window (on a virtual display of its own, 1280x720,
/// when `Xvfb` is installed), or `None` with the reason printed if this machine cannot open
/// one. With `CRATE_ROOM_REQUIRE_WINDOW=1` (set by `.ci/run`) a missing window is a failure
/// instead. Keep the result alive until the game has ended: dropping it ends the display.
pub fn windowed() -> Option<display::Windowed> {
    windowed_at(1280, 720)
}

/// [`windowed`] on a virtual display of `width` x `height` pixels.
pub fn windowed_at(width: u32, height: u32) -> Option<display::Windowed> {
    let exe = env!("CARGO_BIN_EXE_crate-room");
    if have("Xvfb") {
        return Some(display::Windowed::on_xvfb(exe, width, height));
    }
    if std::env::var_os("DISPLAY").is_some() {
        return Some(display::Windowed::on_own_display(exe));
    }
    skip_window_test("no DISPLAY and no Xvfb: install xvfb and libgl1-mesa-dri to run this test");
    None
}

/// Whether this machine can run the window tests that drive the game with `xdotool` (on Xvfb);
/// if not, say so as [`skip_window_test`] does, naming `tests` (what is skipped).
pub fn can_drive_window(tests: &str) -> bool {
    for tool in ["Xvfb", "xdotool"] {
        if !have(tool) {
            skip_window_test(&format!(
                "no {tool}: install xvfb, xdotool and libgl1-mesa-dri to run {tests}"
            ));
            return false;
        }
    }
    true
}

/// Say why a window test is skipped, or fail if `CRATE_ROOM_REQUIRE_WINDOW=1`.
pub fn skip_window_test(why: &str) {
    assert!(
        std::env::var("CRATE_ROOM_REQUIRE_WINDOW").as_deref() != Ok("1"),
        "{why}"
    );
    eprintln!("skipping the real-window test: {why}");
}

/// The window of a [`scripted_run`]: the smallest the game is laid out for. Those runs are
/// checked by their reports and files, never by their pixels, and Mesa's software renderer
/// spends its time in proportion to the pixels it fills: a quarter of 1280x720's.
const SCRIPTED_RUN_SIZE: (u32, u32) = (640, 360);

/// A scripted window run (640x360, muted) of `frames` frames in `cwd`, with `data` as the
/// data directory, to its end; `None` when this machine has no window (the reason is printed,
/// as [`windowed`] does).
///
/// # Panics
/// If the run fails, or is still running after [`process::WINDOW_LIMIT`].
pub fn scripted_run(cwd: &Path, data: &Path, frames: u32, args: &[&str]) -> Option<Output> {
    let (width, height) = SCRIPTED_RUN_SIZE;
    let mut cmd = windowed_at(width, height)?;
    let out = process::output_within(
        cmd.args([
            "--width",
            &width.to_string(),
            "--height",
            &height.to_string(),
        ])
        .arg("--mute")
        .args(["--frames", &frames.to_string()])
        .args(args)
        .current_dir(cwd)
        .env("CRATE_ROOM_DATA_DIR", data),
        process::WINDOW_LIMIT,
    );
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out)
}

/// The JSON report a scripted run ends with: the last line of its output that is an object.
///
/// # Panics
/// If there is none, quoting what the run wrote.
pub fn script_report(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| {
            panic!(
                "a JSON report\nstdout: {stdout}\nstderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    serde_json::from_str(line).expect("valid JSON report")
}

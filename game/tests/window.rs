//! The real `crate-room` binary in a real window (Xvfb + Mesa's software OpenGL), scripted by
//! the bot, checked through its screenshots. Skipped with a message when there is neither a
//! display nor `Xvfb`, unless `CRATE_ROOM_REQUIRE_WINDOW=1` (set by `.ci/run`) demands it.

use crate::common;

use std::sync::OnceLock;

use common::process::{WINDOW_LIMIT, output_within};
use common::{TempDir, repo, windowed_at};

use game::art::colors as palette;
use game::atlas::RgbaImage;

struct Run {
    /// The JSON report without its CPU times: the same for the same arguments.
    summary: serde_json::Value,
    /// The report's CPU times (`timed_frames`, `phases` and the `*_us_*` fields), which vary run
    /// to run.
    cpu: serde_json::Map<String, serde_json::Value>,
    stdout: String,
    stderr: String,
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    /// The folder of the screenshot: removed when the run is dropped, unless a test fails.
    _dir: TempDir,
}

fn play(level: &str, frames: u32, extra: &[&str], name: &str) -> Option<Run> {
    let mut args = vec!["--level", level, "--input", "bot"];
    args.extend_from_slice(extra);
    run_game(frames, &args, name)
}

/// The bot's first 200 frames in the Crate Room at 1280x720, sound on (`play("levels/
/// crate_room.ron", 200, &[], ...)`): it swings, hits, breaks crates and picks up a coin. One
/// run, started by whichever test asks first, checked by every test that asks for it: the run
/// is the same each time (`a_scripted_run_gives_the_same_screenshot_every_time`).
fn crate_room_200_frames() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| play("levels/crate_room.ron", 200, &[], "crate_room_200"))
        .as_ref()
}

/// Run `crate-room ARGS --frames N --screenshot ...` at 1280x720 and read back its summary and
/// screenshot.
fn run_game(frames: u32, args: &[&str], name: &str) -> Option<Run> {
    run_game_at((1280, 720), frames, args, name, None)
}

/// [`run_game`] in a window (and virtual screen) of `size` pixels, with best times kept in
/// `data_dir` (`CRATE_ROOM_DATA_DIR`) if given.
fn run_game_at(
    (width, height): (u32, u32),
    frames: u32,
    args: &[&str],
    name: &str,
    data_dir: Option<&std::path::Path>,
) -> Option<Run> {
    let mut cmd = windowed_at(width, height)?;
    if let Some(dir) = data_dir {
        cmd.env("CRATE_ROOM_DATA_DIR", dir);
    }
    let dir = TempDir::new("window");
    let shot = dir.0.join(format!("{name}.png"));
    let output = output_within(
        cmd.current_dir(repo())
            .args([
                "--width",
                &width.to_string(),
                "--height",
                &height.to_string(),
            ])
            .args(["--frames", &frames.to_string(), "--screenshot"])
            .arg(&shot)
            .args(args),
        WINDOW_LIMIT,
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "crate-room failed: {}\nstdout: {stdout}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let summary_line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .expect("a JSON summary");
    let mut summary: serde_json::Value =
        serde_json::from_str(summary_line).expect("valid JSON summary");
    let fields = summary.as_object_mut().expect("a JSON object");
    let timing: Vec<String> = fields
        .keys()
        .filter(|k| matches!(k.as_str(), "timed_frames" | "phases") || k.contains("_us_"))
        .cloned()
        .collect();
    let cpu = timing
        .into_iter()
        .filter_map(|k| fields.remove_entry(&k))
        .collect();
    let RgbaImage {
        width,
        height,
        pixels,
    } = RgbaImage::load(&shot).expect("a readable screenshot");
    eprintln!("screenshot: {}", shot.display());
    Some(Run {
        summary,
        cpu,
        stdout: stdout.into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        width,
        height,
        pixels,
        _dir: dir,
    })
}

impl Run {
    fn count(&self, rgb: [u8; 3]) -> usize {
        self.pixels
            .chunks_exact(4)
            .filter(|p| p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2])
            .count()
    }

    fn distinct_colours(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self
            .pixels
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

#[test]
fn bot_plays_the_crate_room_in_a_real_window_and_smashes_crates_on_screen() {
    let Some(first) = play("levels/crate_room.ron", 5, &[], "first") else {
        return;
    };
    assert_eq!((first.width, first.height), (1280, 720));
    assert!(
        first.distinct_colours() > 20,
        "not blank: {} colours",
        first.distinct_colours()
    );
    let (floor, crates, player) = (
        first.count(palette::FLOOR_BASE),
        first.count(palette::CRATE_BASE),
        first.count(palette::PLAYER_BASE),
    );
    assert!(floor > 10_000, "floor colour present: {floor} px");
    assert!(crates > 1_000, "crate colour present: {crates} px");
    assert!(player > 10, "player colour present: {player} px");
    let calls = first.summary["world_draw_calls"]
        .as_u64()
        .expect("draw calls measured");
    assert!((1..=3).contains(&calls), "world draw calls: {calls}");

    let later = crate_room_200_frames().expect("window works");
    let (before, after) = (
        first.summary["crates_left"].as_u64().unwrap(),
        later.summary["crates_left"].as_u64().unwrap(),
    );
    assert!(
        after < before,
        "the bot smashed crates: {before} -> {after}"
    );
    let later_crates = later.count(palette::CRATE_BASE);
    assert!(
        later_crates < crates,
        "fewer crate pixels on screen: {crates} -> {later_crates}"
    );
}

#[test]
fn cratetopia_draws_the_world_in_at_most_three_draw_calls() {
    let Some(run) = play("levels/cratetopia.ron", 5, &[], "cratetopia") else {
        return;
    };
    let calls = run.summary["world_draw_calls"]
        .as_u64()
        .expect("draw calls measured");
    assert!((1..=3).contains(&calls), "world draw calls: {calls}");
    assert!(run.count(palette::CRATE_BASE) > 1_000);
}

#[test]
fn every_debug_view_shows_in_a_real_window() {
    let Some(run) = play(
        "levels/crate_room.ron",
        60,
        &["--debug", "all"],
        "debug_all",
    ) else {
        return;
    };
    let matching =
        |pred: &dyn Fn(&[u8]) -> bool| run.pixels.chunks_exact(4).filter(|p| pred(p)).count();
    // egui's dark window fill: the profiler window is open.
    let window_fill = run.count([27, 27, 27]);
    assert!(
        window_fill > 20_000,
        "profiler window present: {window_fill} px"
    );
    // Solid collision boxes are outlined in bright green.
    let green =
        matching(&|p| (70..=82).contains(&p[0]) && p[1] == 255 && (96..=108).contains(&p[2]));
    assert!(green > 500, "collision box outlines present: {green} px");
    let calls = run.summary["world_draw_calls"]
        .as_u64()
        .expect("draw calls measured");
    assert!(
        (1..=3).contains(&calls),
        "debug views do not add world draw calls: {calls}"
    );
}

#[test]
fn sound_with_or_without_a_device_changes_no_output_and_says_at_most_one_line() {
    // 200 frames: the bot swings, hits, breaks a crate and picks up its coin.
    let Some(run) = crate_room_200_frames() else {
        return;
    };
    assert!(
        run.summary["score"].as_u64() >= Some(1),
        "the bot picked up a coin: {}",
        run.summary
    );
    let muted = play("levels/crate_room.ron", 200, &["--mute"], "muted").expect("window works");
    // The HUD bar says the sound is off (M turns it on) in the muted run only.
    let keys = |run: &Run| {
        let items = run.hud_bar();
        let keys = items.iter().find(|(what, ..)| what == "keys");
        keys.expect("the keys hint").1.clone()
    };
    assert_eq!(keys(run), "F1 keys");
    assert_eq!(keys(&muted), "sound off (M)   F1 keys");
    // Nothing else differs. The report's `settings` is what the settings file keeps: `--mute`
    // changes the run only.
    let (mut heard, mut quiet) = (run.summary.clone(), muted.summary.clone());
    heard["hud_bar"].take();
    quiet["hud_bar"].take();
    assert_eq!(heard, quiet);
    for run in [run, &muted] {
        // A dead audio thread answers on stdout ("Audio thread died") if the game talks to it.
        assert_eq!(
            run.stdout.lines().count(),
            1,
            "only the summary:\n{}",
            run.stdout
        );
        let said: Vec<_> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("sound:"))
            .collect();
        assert!(said.len() <= 1, "{said:?}");
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

// Orientation: a small level whose layout tells up from down and left from right
// (`tests/fixtures/orientation.ron`: walls along the top row and the left column only, a crate
// in the top-left corner). These fail if the world is drawn flipped or mirrored, which
// counting colours cannot see.

const ORIENTATION: &str = "game/tests/fixtures/orientation.ron";
const UP_THEN_RIGHT: &str = "script:game/tests/fixtures/up_then_right.txt";
const ORIENTATION_SIZE: (u32, u32) = (10, 8);
const TILE: f32 = 16.0;

const WALL: [[u8; 3]; 5] = [
    palette::WALL_BASE,
    palette::WALL_LIGHT,
    palette::WALL_DARK,
    palette::WALL_TOP,
    palette::MORTAR,
];
const CRATE: [[u8; 3]; 4] = [
    palette::CRATE_BASE,
    palette::CRATE_LIGHT,
    palette::CRATE_DARK,
    palette::CRATE_EDGE,
];
const BODY: [[u8; 3]; 3] = [
    palette::PLAYER_BASE,
    palette::PLAYER_LIGHT,
    palette::PLAYER_DARK,
];
const HAIR: [[u8; 3]; 2] = [palette::HAIR, palette::HAIR_LIGHT];

impl Run {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// The screen rectangle of level cell (column, row), from the view the run reports.
    fn cell_rect(&self, column: u32, row: u32) -> (u32, u32, u32, u32) {
        let view = &self.summary["view"];
        let scale = self.summary["scale"].as_f64().expect("scale reported") as f32;
        let (min_x, min_y) = (
            view[0].as_f64().expect("view reported") as f32,
            view[1].as_f64().expect("view reported") as f32,
        );
        let x0 = ((column as f32 * TILE - min_x) * scale).round() as u32;
        let y0 = ((row as f32 * TILE - min_y) * scale).round() as u32;
        let side = (TILE * scale).round() as u32;
        (x0, y0, x0 + side, y0 + side)
    }

    /// The fraction of the cell's pixels in `colours`.
    fn cell_share(&self, column: u32, row: u32, colours: &[[u8; 3]]) -> f32 {
        let (x0, y0, x1, y1) = self.cell_rect(column, row);
        assert!(x1 <= self.width && y1 <= self.height, "cell on screen");
        let mut hits = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                hits += u32::from(colours.contains(&self.pixel(x, y)));
            }
        }
        hits as f32 / ((x1 - x0) * (y1 - y0)) as f32
    }

    /// Mean screen position of the pixels in `colours` inside the level's rectangle.
    fn centroid(&self, colours: &[[u8; 3]]) -> (f32, f32) {
        let (x0, y0, _, _) = self.cell_rect(0, 0);
        let (_, _, x1, y1) = self.cell_rect(ORIENTATION_SIZE.0 - 1, ORIENTATION_SIZE.1 - 1);
        let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
        for y in y0..y1 {
            for x in x0..x1 {
                if colours.contains(&self.pixel(x, y)) {
                    sx += x as f32;
                    sy += y as f32;
                    n += 1.0;
                }
            }
        }
        assert!(n > 20.0, "{n} pixels of {colours:?} in the level");
        (sx / n, sy / n)
    }
}

#[test]
fn the_levels_top_row_and_left_column_are_drawn_at_the_top_and_left() {
    let Some(run) = run_game(
        1,
        &["--level", ORIENTATION, "--input", "idle"],
        "orientation",
    ) else {
        return;
    };
    assert_oriented(&run);
    let (w, h) = ORIENTATION_SIZE;
    for row in 1..h - 1 {
        let right = run.cell_share(w - 1, row, &WALL);
        assert!(
            right < 0.05,
            "cell ({}, {row}) is no wall: {right:.2}",
            w - 1
        );
    }
    for (column, row) in [(w - 2, 1), (1, h - 2), (w - 2, h - 2)] {
        let elsewhere = run.cell_share(column, row, &CRATE);
        assert!(
            elsewhere < 0.05,
            "no crate at ({column}, {row}): {elsewhere:.2}"
        );
    }
}

/// The orientation checks of the level's top row and left column, at any window size.
fn assert_oriented(run: &Run) {
    let (w, h) = ORIENTATION_SIZE;
    for column in 0..w {
        let top = run.cell_share(column, 0, &WALL);
        let bottom = run.cell_share(column, h - 1, &WALL);
        assert!(top > 0.6, "cell ({column}, 0) is wall on screen: {top:.2}");
        assert!(
            bottom < 0.05,
            "cell ({column}, {}) is no wall: {bottom:.2}",
            h - 1
        );
    }
    for row in 1..h - 1 {
        let left = run.cell_share(0, row, &WALL);
        assert!(left > 0.6, "cell (0, {row}) is wall on screen: {left:.2}");
    }
    let corner = run.cell_share(1, 1, &CRATE);
    assert!(
        corner > 0.3,
        "the crate is in the top-left corner: {corner:.2}"
    );
}

#[test]
fn the_room_stays_framed_and_the_hud_anchored_from_640x360_to_4k() {
    // The HUD bar's fill (`ui::ink::OPAQUE`) and its lower edge (`ui::ink::EDGE`).
    const BAR: [u8; 3] = [15, 12, 20];
    const EDGE: [u8; 3] = [107, 76, 56];
    for size in [(640, 360), (1024, 768), (1920, 1080), (3840, 2160)] {
        let name = format!("framed_{}x{}", size.0, size.1);
        let args = ["--level", ORIENTATION, "--input", "idle"];
        let Some(run) = run_game_at(size, 1, &args, &name, None) else {
            return;
        };
        assert_eq!((run.width, run.height), size);
        assert_oriented(&run);
        // The whole level is on screen, below the bar.
        let (_, top, _, _) = run.cell_rect(0, 0);
        let (_, _, right, bottom) = run.cell_rect(ORIENTATION_SIZE.0 - 1, ORIENTATION_SIZE.1 - 1);
        assert!(
            top >= 40,
            "{size:?}: the level's top ({top}) is under the HUD bar"
        );
        assert!(right <= run.width && bottom <= run.height, "{size:?}");
        // The bar runs along the top edge, its right end included, whatever the width.
        for x in [2, run.width / 2, run.width - 3] {
            assert_eq!(run.pixel(x, 1), BAR, "{size:?}: bar at ({x}, 1)");
            assert_eq!(run.pixel(x, 39), EDGE, "{size:?}: bar edge at ({x}, 39)");
        }
        run.assert_hud_bar_fits(&["level", "crates", "coins", "clock", "keys"]);
    }
}

// The HUD bar's items, as the scripted report gives them (`hud_bar`: each item's text and box),
// checked against the screenshot.

/// `ui::ink::TEXT`, `ui::ink::GOLD` and `ui::ink::DIM` as the screenshot shows them, and the
/// gold medal's ink (`screens::medal_ink`).
const TEXT_INK: [u8; 3] = [242, 237, 219];
const GOLD_INK: [u8; 3] = [255, 209, 76];
const DIM_INK: [u8; 3] = [178, 178, 191];
const GOLD_MEDAL_INK: [u8; 3] = [255, 204, 51];
/// `ui::ink::ERROR`, the burns' ink.
const BURN_INK: [u8; 3] = [255, 114, 102];
/// The author medal's ink (`screens::medal_ink`).
const AUTHOR_MEDAL_INK: [u8; 3] = [114, 242, 216];

impl Run {
    /// The HUD bar's items in the report: what each shows, its text and its box.
    fn hud_bar(&self) -> Vec<(String, String, [f32; 4])> {
        let items = self.summary["hud_bar"]
            .as_array()
            .expect("hud_bar reported");
        items
            .iter()
            .map(|i| {
                let rect = i["rect"].as_array().expect("a rect");
                let n = |k: usize| rect[k].as_f64().expect("a number") as f32;
                (
                    i["item"].as_str().expect("an item").to_owned(),
                    i["text"].as_str().expect("a text").to_owned(),
                    [n(0), n(1), n(2), n(3)],
                )
            })
            .collect()
    }

    /// Every item of the HUD bar is inside the window and in the bar, left of the next one,
    /// and drawn: its ink is on the screenshot inside its box. `wanted` are the items that must
    /// be there.
    fn assert_hud_bar_fits(&self, wanted: &[&str]) {
        let size = (self.width, self.height);
        let items = self.hud_bar();
        let shown: Vec<&str> = items.iter().map(|(what, ..)| what.as_str()).collect();
        for what in wanted {
            assert!(
                shown.contains(what),
                "{size:?}: no {what} in the HUD bar: {items:?}"
            );
        }
        let mut right_of_last = 0.0;
        for (what, text, [x, y, w, h]) in &items {
            assert!(
                *x >= right_of_last && *y >= 0.0 && x + w <= self.width as f32 && y + h <= 38.0,
                "{size:?}: the HUD's {what} {text:?} at {:?} is not inside the bar (0, 0, {}, 38) \
                 right of the item before it (ending at {right_of_last})",
                [x, y, w, h],
                self.width
            );
            right_of_last = x + w;
            // The par time is in the ink of the medal it is for: the author's or gold.
            let ink: &[[u8; 3]] = match what.as_str() {
                "level" => &[GOLD_INK],
                "keys" => &[DIM_INK],
                "par" => &[GOLD_MEDAL_INK, AUTHOR_MEDAL_INK],
                "burns" => &[BURN_INK],
                _ => &[TEXT_INK],
            };
            let (x0, y0) = (x.floor() as u32, y.floor() as u32);
            let (x1, y1) = ((x + w).ceil() as u32, (y + h).ceil() as u32);
            let inked = self.count_in((x0, y0, x1, y1), ink);
            assert!(
                inked > 0,
                "{size:?}: no pixel of the HUD's {what} {text:?} in its ink {ink:?} inside its \
                 box {:?}",
                [x, y, w, h]
            );
        }
    }
}

#[test]
fn a_blast_that_catches_the_player_shows_its_burn_right_of_the_clock() {
    // Light the keg beside the start and stand still: the blast catches the player.
    let args = [
        "--level",
        "game/tests/fixtures/burnt.ron",
        "--input",
        "script:game/tests/fixtures/burnt.txt",
        "--no-hit-stop",
    ];
    let Some(run) = run_game(70, &args, "burnt") else {
        return;
    };
    run.assert_hud_bar_fits(&["crates", "coins", "clock", "burns"]);
    let items = run.hud_bar();
    let at = |what: &str| items.iter().position(|(w, ..)| w == what);
    let burns = &items[at("burns").expect("a burns item")];
    assert_eq!(burns.1, "+2s burnt");
    assert_eq!(
        at("burns"),
        at("clock").map(|c| c + 1),
        "right of the clock: {items:?}"
    );
}

#[test]
fn every_hud_item_fits_a_640x360_window_whatever_the_level_name() {
    // The default level, whose name is of the usual length, and the same level under the
    // longest name a level may have (64 characters).
    let levels = common::TempDir::new("hud-names");
    let long_name = "The Long and Winding Storeroom Behind the Old Harbour Warehouses";
    assert_eq!(long_name.chars().count(), 64);
    let room = std::fs::read_to_string(repo().join("levels/crate_room.ron")).expect("the level");
    assert!(room.contains("name: \"The Crate Room\""));
    let long = levels.path("long_name.ron");
    std::fs::write(
        &long,
        room.replace(
            "name: \"The Crate Room\"",
            &format!("name: \"{long_name}\""),
        ),
    )
    .expect("write the level");
    for (level, name) in [
        ("levels/crate_room.ron", "hud_640"),
        (&long, "hud_640_long"),
    ] {
        // 120 frames: two seconds of play, well inside the gold par time.
        let args = ["--level", level, "--input", "bot", "--mute"];
        let Some(run) = run_game_at((640, 360), 120, &args, name, None) else {
            return;
        };
        // What a player needs most (the crates left, the clock and the time to beat) and the
        // way to the keys.
        run.assert_hud_bar_fits(&["level", "crates", "coins", "clock", "par", "keys"]);
    }
}

#[test]
fn the_player_stands_head_up() {
    let Some(run) = run_game(1, &["--level", ORIENTATION, "--input", "idle"], "standing") else {
        return;
    };
    let (_, hair_y) = run.centroid(&HAIR);
    let (_, body_y) = run.centroid(&BODY);
    assert!(
        hair_y + 6.0 < body_y,
        "hair (y {hair_y:.1}) is above the body (y {body_y:.1})"
    );
}

#[test]
fn holding_up_walks_up_the_screen_then_right_walks_right() {
    let args = ["--level", ORIENTATION, "--input", UP_THEN_RIGHT];
    let Some(start) = run_game(1, &args, "walk_start") else {
        return;
    };
    let after_up = run_game(21, &args, "walk_up").expect("window works");
    let after_right = run_game(41, &args, "walk_right").expect("window works");
    let (x0, y0) = start.centroid(&BODY);
    let (x1, y1) = after_up.centroid(&BODY);
    let (x2, y2) = after_right.centroid(&BODY);
    // 19 steps at up to 1.5 world px, 3 screen px per world px: tens of pixels; the walk
    // cycle's frames move the body's pixels by a few.
    assert!(
        y1 < y0 - 30.0,
        "up moved the player up: y {y0:.1} -> {y1:.1}"
    );
    assert!(
        (x1 - x0).abs() < 12.0,
        "and not sideways: x {x0:.1} -> {x1:.1}"
    );
    assert!(
        x2 > x1 + 30.0,
        "right moved the player right: x {x1:.1} -> {x2:.1}"
    );
    assert!(
        (y2 - y1).abs() < 12.0,
        "and not up or down: y {y1:.1} -> {y2:.1}"
    );
}

#[test]
fn a_scripted_run_gives_the_same_screenshot_every_time() {
    let args = ["--level", "levels/crate_room.ron", "--input", "bot"];
    let Some(first) = run_game(90, &args, "same_a") else {
        return;
    };
    let second = run_game(90, &args, "same_b").expect("window works");
    let differing = first
        .pixels
        .chunks_exact(4)
        .zip(second.pixels.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing, 0,
        "pixels that differ between two identical runs"
    );
}

#[test]
fn the_hud_bar_leaves_the_default_levels_top_row_in_view() {
    let Some(run) = run_game(
        1,
        &["--level", "levels/crate_room.ron", "--input", "idle"],
        "hud",
    ) else {
        return;
    };
    // The default level is 26 cells wide; its top row is all wall, and must be seen whole.
    for column in 0..26 {
        let wall = run.cell_share(column, 0, &WALL);
        assert!(wall > 0.5, "cell ({column}, 0) is visible wall: {wall:.2}");
    }
}

#[test]
fn without_a_level_the_game_opens_on_the_title_screen() {
    let Some(run) = run_game(3, &[], "title") else {
        return;
    };
    assert_eq!(run.summary["showing"], "title");
    // The title is drawn in the HUD's gold ink, and there is no world on screen.
    let gold = run.count([255, 209, 76]);
    assert!(gold > 500, "gold title text: {gold} px");
    assert_eq!(run.count(palette::FLOOR_BASE), 0, "no level drawn");
}

#[test]
fn clearing_a_room_keeps_the_best_time_in_the_data_directory() {
    let temp = TempDir::new("best");
    let dir = &temp.0;
    // A damaged file is reported on screen and set aside, never fatal.
    std::fs::write(dir.join("best_times.txt"), "garbage\n\"vault.ron\" = 99\n").unwrap();
    let args = ["--level", ORIENTATION, "--input", "bot"];
    // Checked by its report and files, not its pixels: the smallest laid-out window.
    let Some(run) = run_game_at((640, 360), 400, &args, "cleared", Some(dir)) else {
        return;
    };
    assert_eq!(run.summary["crates_left"], 0, "the bot cleared the room");
    let kept = std::fs::read_to_string(dir.join("best_times.txt")).unwrap();
    assert!(kept.contains("\"orientation.ron\" = "), "{kept}");
    assert!(
        kept.contains("\"vault.ron\" = 99"),
        "other levels kept: {kept}"
    );
    assert!(dir.join("best_times.damaged.txt").exists());
}

#[test]
fn hit_stop_delays_steps_and_changes_nothing_else() {
    let level = ["--level", "levels/crate_room.ron", "--input", "bot"];
    let Some(felt) = crate_room_200_frames() else {
        return;
    };
    let steps = felt.summary["steps"].as_u64().expect("steps reported");
    assert!(
        steps < 200,
        "the bot's hits held some steps back: {steps} of 200"
    );
    let mut calm_args = level.to_vec();
    calm_args.extend(["--no-hit-stop", "--no-shake"]);
    // The window's size is presentation (`a_window_of_any_size_plays_the_same_game_as_sim`):
    // the smallest laid-out one costs Mesa a quarter of the pixels.
    let calm =
        run_game_at((640, 360), steps as u32, &calm_args, "calm", None).expect("window works");
    assert_eq!(
        calm.summary["steps"], steps,
        "no hit-stop: a step every frame"
    );
    for field in ["crates_left", "score"] {
        assert_eq!(felt.summary[field], calm.summary[field], "{field}");
    }
}

#[test]
fn a_window_of_any_size_plays_the_same_game_as_sim() {
    // The window sizes the camera's view to itself; the camera is presentation, so the state
    // hash (the whole game) is the same as headless `sim`'s at any window size.
    let level = "levels/vault.ron";
    let sim = common::crate_room(&[
        "sim", "--level", level, "--input", "bot", "--frames", "150", "--json",
    ]);
    assert!(sim.status.success(), "{}", common::stderr(&sim));
    let sim: serde_json::Value = serde_json::from_slice(&sim.stdout).expect("sim's JSON");
    for size in [(1280, 720), (640, 360)] {
        let args = ["--level", level, "--input", "bot", "--no-hit-stop"];
        let name = format!("same-as-sim-{}x{}", size.0, size.1);
        let Some(run) = run_game_at(size, 150, &args, &name, None) else {
            return;
        };
        assert_eq!(run.summary["steps"], 150, "a step every frame");
        assert_eq!(
            run.summary["state_hash"], sim["state_hash"],
            "a {}x{} window's state_hash equals `crate-room sim --level {level} --input bot \
             --frames 150`'s",
            size.0, size.1
        );
    }
}

// Debug views that read well: the profiler window keeps off the player, the stats panel is
// opaque and stays clear of the HUD bar.

/// egui's dark window fill: where the profiler window is.
const EGUI_WINDOW_FILL: [u8; 3] = [27, 27, 27];
const UP_THEN_LEFT: &str = "script:game/tests/fixtures/up_then_left.txt";

impl Run {
    /// Pixels in `colours` inside the rectangle `x0..x1` by `y0..y1`.
    fn count_in(&self, (x0, y0, x1, y1): (u32, u32, u32, u32), colours: &[[u8; 3]]) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| colours.contains(&self.pixel(x, y)))
            .count()
    }

    /// Mean x of the pixels of `colour`, and how many there are.
    fn mean_x(&self, colour: [u8; 3]) -> (f32, usize) {
        let (mut sum, mut n) = (0.0, 0);
        for y in 0..self.height {
            for x in 0..self.width {
                if self.pixel(x, y) == colour {
                    sum += x as f32;
                    n += 1;
                }
            }
        }
        (sum / n.max(1) as f32, n)
    }
}

/// The same scripted run with and without the profiler window: every pixel of the player that
/// shows without it shows with it, and the window is on screen, on the side away from the player.
/// The run with the window, for more checks.
fn assert_profiler_keeps_off_the_player(
    args: &[&str],
    frames: u32,
    name: &str,
    side: &str,
) -> Option<Run> {
    let plain = run_game(frames, args, &format!("{name}_plain"))?;
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--debug", "profiler"])
        .collect();
    let profiled = run_game(frames, &with, &format!("{name}_profiler")).expect("window works");
    let everywhere = (0, 0, plain.width, plain.height);
    let (body, hair) = (
        plain.count_in(everywhere, &BODY),
        plain.count_in(everywhere, &HAIR),
    );
    assert!(
        body > 50 && hair > 20,
        "the player is on screen: {body} + {hair} px"
    );
    assert_eq!(
        (
            profiled.count_in(everywhere, &BODY),
            profiled.count_in(everywhere, &HAIR)
        ),
        (body, hair),
        "the player's pixels with the profiler window open"
    );
    let (window_x, window_px) = profiled.mean_x(EGUI_WINDOW_FILL);
    assert!(
        window_px > 20_000,
        "profiler window present: {window_px} px"
    );
    let centre = profiled.width as f32 / 2.0;
    match side {
        "left" => assert!(
            window_x < centre - 200.0,
            "window on the left: x {window_x:.0}"
        ),
        _ => assert!(
            window_x > centre + 200.0,
            "window on the right: x {window_x:.0}"
        ),
    }
    Some(profiled)
}

#[test]
fn profiler_window_docks_left_clear_of_a_player_the_camera_keeps_centred() {
    // Cratetopia is larger than the screen: the camera keeps the player in the middle, which
    // the window leaves clear (300 px across).
    let args = ["--level", "levels/cratetopia.ron", "--input", "bot"];
    let Some(run) = assert_profiler_keeps_off_the_player(&args, 60, "profiler_centre", "left")
    else {
        return;
    };
    let (cx, cy) = (run.width / 2, (run.height + 40) / 2);
    let middle = (cx - 150, cy - 150, cx + 150, cy + 150);
    assert_eq!(
        run.count_in(middle, &[EGUI_WINDOW_FILL]),
        0,
        "no window in the middle of the screen"
    );
}

#[test]
fn profiler_window_moves_right_when_the_player_walks_under_it() {
    // The Crate Room fits on the screen, so the player walks anywhere on it; this script takes
    // them to the room's left side, where the window docks by default.
    let args = ["--level", "levels/crate_room.ron", "--input", UP_THEN_LEFT];
    assert_profiler_keeps_off_the_player(&args, 100, "profiler_walk_left", "right");
}

#[test]
fn stats_panel_is_opaque_on_screen_and_below_the_hud_bar() {
    let Some(run) = play(
        "levels/cratetopia.ron",
        90,
        &["--debug", "stats"],
        "stats_opaque",
    ) else {
        return;
    };
    // The panel's fill, as macroquad turns a colour into vertex bytes.
    let o = game::window::ui::ink::OPAQUE;
    let fill = [o.r, o.g, o.b].map(|c| (c * 255.0) as u8);
    // Its extent: the fill's pixels below the HUD bar (which shares the colour) on the right.
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 40..run.height {
        for x in run.width / 2..run.width {
            if run.pixel(x, y) == fill {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
            }
        }
    }
    assert!(
        x1 > x0 && y1 > y0,
        "an opaque panel on the right: no {fill:?} pixels"
    );
    let area = (x1 - x0) * (y1 - y0);
    assert!(area > 150_000, "panel {x0},{y0} to {x1},{y1}: {area} px");
    assert!(y0 >= 44, "the panel starts below the HUD bar: top {y0}");
    assert!(
        x1 < run.width && y1 < run.height,
        "the panel ends on screen: {x1},{y1}"
    );
    let solid = run.count_in((x0, y0, x1, y1), &[fill]);
    assert!(
        solid as f32 > 0.6 * area as f32,
        "the panel is filled with {fill:?}: {solid} of {area} px"
    );
    let world = [
        palette::FLOOR_BASE,
        palette::FLOOR_LIGHT,
        palette::FLOOR_DARK,
        palette::CRATE_BASE,
        palette::CRATE_LIGHT,
        palette::WALL_BASE,
    ];
    let through = run.count_in((x0, y0, x1, y1), &world);
    assert_eq!(through, 0, "no level pixels show through the panel");
}

#[test]
fn a_scripted_run_reports_frame_update_and_render_cpu_times() {
    let Some(run) = play(
        "levels/cratetopia.ron",
        30,
        &["--vsync", "off"],
        "cpu_times",
    ) else {
        return;
    };
    let us = |name: &str| {
        run.cpu[name]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} in {:?}", run.cpu))
    };
    assert_eq!(run.cpu["timed_frames"], 29, "all frames but the first");
    for part in ["frame", "update", "render"] {
        let (median, p99, max) = (
            us(&format!("{part}_us_median")),
            us(&format!("{part}_us_p99")),
            us(&format!("{part}_us_max")),
        );
        assert!(
            0.0 < median && median <= p99 && p99 <= max,
            "{part}: {median} {p99} {max}"
        );
    }
    // The frame holds both parts: no update or render is longer than the longest frame.
    let frame = us("frame_us_max");
    assert!(
        us("update_us_max") <= frame && us("render_us_max") <= frame,
        "{:?}",
        run.cpu
    );
}

#[test]
fn a_scripted_run_with_an_empty_data_dir_variable_writes_nothing_to_the_players_folder() {
    // Checked by its report and files, not its pixels: the smallest laid-out window.
    let Some(mut cmd) = windowed_at(640, 360) else {
        return;
    };
    let temp = TempDir::new("home");
    let home = &temp.0;
    // The bot clears the room, which would save a best time to the data directory.
    let output = output_within(
        cmd.current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", "")
            .env("HOME", home)
            .env_remove("XDG_DATA_HOME")
            .args(["--width", "640", "--height", "360", "--mute"])
            .args(["--level", ORIENTATION, "--input", "bot"])
            .args(["--frames", "400"]),
        WINDOW_LIMIT,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.contains("\"crates_left\":0"), "{summary}");
    // Where the player's data directory is with this HOME (Mesa may cache shaders elsewhere).
    let written: Vec<_> = walk(&home.join(".local/share"));
    assert!(
        written.is_empty(),
        "wrote into the player's data folder: {written:?}"
    );
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A frame counts as a flash when the screen's mean brightness rises by more than this (out of
/// 255) from the frame before: a blast's flash rises by 60 or more in the Powder Room, while
/// sprites coming and going move it by a few.
const FLASH_RISE: f64 = 20.0;

/// The frames (one step each) on which the screen's brightness jumped up, over the Powder
/// Room's keg chain set off by the bot, with `extra` arguments; and the crates left (checked
/// to show that the chain went off).
fn flashes_over_the_powder_room_chain(extra: &[&str], name: &str) -> Option<(Vec<usize>, u64)> {
    let mut args = vec!["--report-brightness", "--mute"];
    args.extend_from_slice(extra);
    let level = ["--level", "levels/powder_room.ron", "--input", "bot"];
    args.extend_from_slice(&level);
    // A flash lights the whole screen: its mean brightness rises alike at any size, and the
    // smallest laid-out window costs Mesa a quarter of 1280x720's pixels.
    let run = run_game_at((640, 360), 240, &args, name, None)?;
    let brightness: Vec<f64> = run.summary["brightness"]
        .as_array()
        .expect("a brightness per frame")
        .iter()
        .map(|b| b.as_f64().expect("a number"))
        .collect();
    assert_eq!(brightness.len(), 240, "one brightness per frame");
    let rises = (1..brightness.len())
        .filter(|&i| brightness[i] - brightness[i - 1] > FLASH_RISE)
        .collect();
    let left = run.summary["crates_left"].as_u64().expect("crates_left");
    let total = run.summary["crates_total"].as_u64().expect("crates_total");
    assert!(
        left + 10 < total,
        "{name}: the chain did not go off ({left} of {total} crates left)"
    );
    Some((rises, left))
}

#[test]
fn a_keg_chain_in_the_powder_room_flashes_at_most_three_times_in_any_second() {
    let Some((rises, _)) = flashes_over_the_powder_room_chain(&[], "flash_limit") else {
        return;
    };
    assert!(!rises.is_empty(), "a blast still flashes the screen");
    for (i, &start) in rises.iter().enumerate() {
        let in_second = rises[i..].iter().take_while(|&&f| f < start + 60).count();
        assert!(
            in_second <= 3,
            "{in_second} flashes in the second from frame {start}: {rises:?}"
        );
    }
}

#[test]
fn with_reduce_flashing_a_keg_chain_in_the_powder_room_never_flashes() {
    let Some((rises, _)) =
        flashes_over_the_powder_room_chain(&["--reduce-flashing"], "flash_reduced")
    else {
        return;
    };
    assert!(rises.is_empty(), "the screen flashed on frames {rises:?}");
}

/// The gold of a pip worth five hits (`strength::FIVE`), within the rounding of its channels.
fn is_gold_pip(p: [u8; 3]) -> bool {
    (247..=252).contains(&p[0]) && (186..=192).contains(&p[1]) && (43..=49).contains(&p[2])
}

#[test]
fn a_crates_strength_shows_on_it_before_the_first_hit() {
    // The Vault: a ring of 6-hit crates, two of 12 in it, and a door of 20 in the middle.
    let Some(run) = play_idle("levels/vault.ron", 5, "vault_strength") else {
        return;
    };
    let gold_in = |column, row| {
        let (x0, y0, x1, y1) = run.cell_rect(column, row);
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| is_gold_pip(run.pixel(x, y)))
            .count()
    };
    let (ring, twelve, door) = (gold_in(6, 2), gold_in(9, 2), gold_in(9, 4));
    assert!(ring > 0, "a 6-hit crate shows one gold pip: {ring} px");
    assert_eq!(twelve, 2 * ring, "a 12-hit crate shows two");
    assert_eq!(door, 4 * ring, "the 20-hit door shows four");
    assert_eq!(gold_in(7, 4), 0, "a coin's cell has no pip");
}

/// [`play`] with nobody at the keys: the room as it starts.
fn play_idle(level: &str, frames: u32, name: &str) -> Option<Run> {
    run_game(frames, &["--level", level, "--input", "idle"], name)
}

#[test]
fn the_author_runs_ghost_races_on_screen_where_its_own_game_has_it() {
    // The same idle run of First Swing twice, with the ghost on (kept in the settings) and
    // off: the screens differ where the ghost is drawn, and nowhere else. The settings file
    // names the author run `gold`, as files of earlier versions do: it still means the author
    // run.
    let racing = TempDir::new("ghost-on");
    std::fs::write(racing.path("settings.txt"), "ghost = gold\n").expect("settings");
    let alone = TempDir::new("ghost-off");
    let args = [
        "--level",
        "levels/first_swing.ron",
        "--input",
        "idle",
        "--mute",
    ];
    let size = (1280, 720);
    let Some(on) = run_game_at(size, 150, &args, "ghost_on", Some(&racing.0)) else {
        return;
    };
    let off = run_game_at(size, 150, &args, "ghost_off", Some(&alone.0)).expect("window works");
    assert_eq!(
        on.summary["state_hash"], off.summary["state_hash"],
        "the ghost changes no game"
    );
    assert!(off.summary["ghost"].is_null(), "no ghost unless asked for");
    let ghost = &on.summary["ghost"];
    assert_eq!(ghost[1], "author", "{ghost}");
    let n = |i: usize| ghost[0][i].as_f64().expect("the ghost's box") as f32;
    let scale = on.summary["scale"].as_f64().expect("scale") as f32;
    let view = &on.summary["view"];
    let (vx, vy) = (
        view[0].as_f64().unwrap() as f32,
        view[1].as_f64().unwrap() as f32,
    );
    // Its sprite on the screen, and its name over its head (as wide as a few letters).
    let (x0, y0) = ((n(0) - vx) * scale - 16.0, (n(1) - vy) * scale - 30.0);
    let (x1, y1) = (
        (n(0) + n(2) - vx) * scale + 16.0,
        (n(1) + n(3) - vy) * scale,
    );
    let player = &on.summary["player"];
    let (px, py) = (
        (player[0].as_f64().unwrap() as f32 - vx) * scale,
        (player[1].as_f64().unwrap() as f32 - vy) * scale,
    );
    assert!(
        px < x0 || px > x1 || py < y0 || py > y1,
        "the author run has walked away from the idle player: ghost {:?}, player {:?}",
        (x0, y0, x1, y1),
        (px, py)
    );
    // The HUD bar's text is drawn a shade apart at a glyph's edge where the font's glyph
    // cache was packed another way (the ghost's name adds glyphs to it): the room under the
    // bar is compared.
    let differs = |x, y| on.pixel(x, y) != off.pixel(x, y);
    let (mut inside, mut outside) = (0, 0);
    for y in 40..on.height {
        for x in 0..on.width {
            if differs(x, y) {
                let (fx, fy) = (x as f32, y as f32);
                if fx >= x0 && fx <= x1 && fy >= y0 && fy <= y1 {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
        }
    }
    assert!(
        inside > 300,
        "the ghost is drawn in its box: {inside} px differ there"
    );
    assert_eq!(
        outside,
        0,
        "nothing but the ghost differs (its box on screen {:?})",
        (x0, y0, x1, y1)
    );
}

#[test]
fn a_scripted_f1_on_the_title_shows_the_help_over_the_level_list() {
    // `ui::ink::OPAQUE`, the help's boxes: nothing of the list shows through them.
    const OPAQUE: [u8; 3] = [15, 12, 20];
    let Some(plain) = run_game(4, &[], "title_plain") else {
        return;
    };
    let help = run_game(4, &["--press", "F1@2", "--press", "R@2"], "title_help").expect("window");
    assert_eq!(help.summary["showing"], "title");
    let (before, after) = (plain.count(OPAQUE), help.count(OPAQUE));
    assert!(
        after > before + 100_000,
        "the help's opaque boxes cover the title: {before} -> {after} px"
    );
    assert_eq!(
        help.summary["presses_not_taken"],
        serde_json::json!(["R@2: the title screen takes only F1, G and O"]),
        "F1 is taken, R is not"
    );
}

#[test]
fn f1_in_a_level_covers_the_hint_rather_than_printing_over_it() {
    // `ui::ink::OPAQUE`, the help's boxes.
    const OPAQUE: [u8; 3] = [15, 12, 20];
    let level = [
        "--level",
        "levels/first_fuse.ron",
        "--input",
        "idle",
        "--mute",
    ];
    for (size, more) in [((1280, 720), 200_000), ((640, 360), 40_000)] {
        let Some(plain) = run_game_at(size, 10, &level, "hint_plain", None) else {
            return;
        };
        assert!(
            !plain.summary["hint"].is_null(),
            "{size:?}: the level's hint shows in its first seconds"
        );
        let mut args = level.to_vec();
        args.extend(["--press", "F1@2"]);
        let help = run_game_at(size, 10, &args, "hint_help", None).expect("window works");
        assert!(
            help.summary["hint"].is_null(),
            "{size:?}: no hint under the help: {}",
            help.summary["hint"]
        );
        let (before, after) = (plain.count(OPAQUE), help.count(OPAQUE));
        assert!(
            after > before + more,
            "{size:?}: the help's opaque boxes are on screen: {before} -> {after} px"
        );
    }
}

//! The real `crate-room` binary in a real window (Xvfb + Mesa's software OpenGL), scripted by
//! the bot, checked through its screenshots. Skipped with a message when there is neither a
//! display nor `xvfb-run`, unless `CRATE_ROOM_REQUIRE_WINDOW=1` (set by `.ci/run`) demands it.

mod common;

use common::repo;
use std::process::Command;

use game::app::render::load_png_rgba;
use game::atlas::palette;

fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A command that runs `crate-room` in a window, or `None` (with the reason printed) if this
/// machine cannot open one.
fn windowed() -> Option<Command> {
    let exe = env!("CARGO_BIN_EXE_crate-room");
    if have("xvfb-run") {
        let mut cmd = Command::new("xvfb-run");
        cmd.args(["-a", "-s", "-screen 0 1280x720x24", exe]);
        return Some(cmd);
    }
    if std::env::var_os("DISPLAY").is_some() {
        return Some(Command::new(exe));
    }
    let why = "no DISPLAY and no xvfb-run: install xvfb and libgl1-mesa-dri to run this test";
    assert!(
        std::env::var("CRATE_ROOM_REQUIRE_WINDOW").as_deref() != Ok("1"),
        "{why}"
    );
    eprintln!("skipping the real-window test: {why}");
    None
}

struct Run {
    summary: serde_json::Value,
    stdout: String,
    stderr: String,
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

fn play(level: &str, frames: u32, extra: &[&str], name: &str) -> Option<Run> {
    let mut cmd = windowed()?;
    let out_dir = std::env::temp_dir().join(format!("crate-room-window-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let shot = out_dir.join(format!("{name}.png"));
    let output = cmd
        .current_dir(repo())
        .args([
            "--level", level, "--input", "bot", "--width", "1280", "--height", "720",
        ])
        .args(["--frames", &frames.to_string(), "--screenshot"])
        .arg(&shot)
        .args(extra)
        .output()
        .expect("start crate-room");
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
    let summary = serde_json::from_str(summary_line).expect("valid JSON summary");
    let (width, height, pixels) = load_png_rgba(&shot).expect("a readable screenshot");
    eprintln!("screenshot: {}", shot.display());
    Some(Run {
        summary,
        stdout: stdout.into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        width,
        height,
        pixels,
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

    let later = play("levels/crate_room.ron", 900, &[], "later").expect("window works");
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
        120,
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
    // 300 frames: the bot swings, hits, breaks a crate and picks up its coin.
    let Some(run) = play("levels/crate_room.ron", 300, &[], "sound") else {
        return;
    };
    let muted = play("levels/crate_room.ron", 300, &["--mute"], "muted").expect("window works");
    assert_eq!(run.summary, muted.summary);
    for run in [&run, &muted] {
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

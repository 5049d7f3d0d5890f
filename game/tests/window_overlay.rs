//! The debug overlay's figures in a real window (Xvfb + Mesa), the bot playing `cratetopia`:
//! F7 pressed in a scripted run (`--press F7@FRAME`) pins the comparison of the steps before
//! and after it on screen, and the stats panel (F6) and the profiler window (F2) show the same
//! figure for a system. Skipped with a message when there is neither a display nor `Xvfb`,
//! unless `CRATE_ROOM_REQUIRE_WINDOW=1` (set by `.ci/run`) demands it.

use crate::common;

use common::process::{WINDOW_LIMIT, output_within};
use common::{TempDir, repo, sim_from_file, windowed_at};
use game::atlas::RgbaImage;
use game::sim::Input;

/// A scripted run's report and screenshot.
struct Run {
    report: serde_json::Value,
    shot: RgbaImage,
    /// The folder of the screenshot: removed when the run is dropped, unless a test fails.
    _dir: TempDir,
}

/// `crate-room --level levels/cratetopia.ron --input bot --frames N ARGS` at `width` x `height`.
fn run(size: (u32, u32), frames: u32, args: &[&str], name: &str) -> Option<Run> {
    let mut cmd = windowed_at(size.0, size.1)?;
    let dir = TempDir::new("overlay");
    let shot = dir.0.join(format!("{name}.png"));
    let out = output_within(
        cmd.current_dir(repo())
            .args([
                "--width",
                &size.0.to_string(),
                "--height",
                &size.1.to_string(),
            ])
            .args([
                "--level",
                "levels/cratetopia.ron",
                "--input",
                "bot",
                "--mute",
            ])
            .args(["--frames", &frames.to_string(), "--screenshot"])
            .arg(&shot)
            .args(args),
        WINDOW_LIMIT,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "crate-room failed: {}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout.lines().rev().find(|l| l.starts_with('{'));
    let report = serde_json::from_str(line.expect("a JSON report")).expect("valid JSON");
    eprintln!("screenshot: {}", shot.display());
    let shot = RgbaImage::load(&shot).expect("a readable screenshot");
    Some(Run {
        report,
        shot,
        _dir: dir,
    })
}

/// Pixels of the overlay's gold ink in the bottom `rows` rows of the screenshot: the F7
/// banner's text (gold over its opaque panel; the level has no such colour).
fn gold_at_bottom(shot: &RgbaImage, rows: u32) -> usize {
    let (w, h) = (shot.width as f32, shot.height as f32);
    gold_in(shot, [0.0, h - rows as f32, w, rows as f32])
}

/// Pixels of gold ink (the banner's and the level hint's text) inside `[x, y, w, h]`.
fn gold_in(shot: &RgbaImage, [x, y, w, h]: [f32; 4]) -> usize {
    let g = game::window::ui::ink::GOLD;
    let gold = [g.r, g.g, g.b].map(|c| (c * 255.0) as u8);
    let span = |from: f32, len: f32, max: u32| {
        (from.max(0.0) as u32).min(max)..((from + len).max(0.0) as u32).min(max)
    };
    let (xs, ys) = (span(x, w, shot.width), span(y, h, shot.height));
    ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let i = ((y * shot.width + x) * 4) as usize;
            shot.pixels[i..i + 3] == gold
        })
        .count()
}

/// A rectangle `[x, y, w, h]` of the report.
fn rect(value: &serde_json::Value, what: &str) -> [f32; 4] {
    let numbers: Vec<f32> = value
        .as_array()
        .unwrap_or_else(|| panic!("{what} on screen: {value}"))
        .iter()
        .map(|v| v.as_f64().expect("a number") as f32)
        .collect();
    numbers.try_into().expect("[x, y, w, h]")
}

#[test]
fn pressing_f7_pins_the_comparison_of_before_and_after_on_screen() {
    // 60 steps with tracking off, then 60 with it on: each side's median has steps enough.
    let Some(off_then_on) = run(
        (1280, 720),
        120,
        &["--no-dirty", "--press", "F7@60"],
        "f7_pinned",
    ) else {
        return;
    };
    let text = off_then_on.report["comparison"]
        .as_str()
        .unwrap_or_else(|| panic!("a pinned comparison: {}", off_then_on.report));
    // The frame in the player's units, the step, and what tracking left out.
    let parts: Vec<&str> = text.split("; ").collect();
    let [frame, step, skipped] = parts[..] else {
        panic!("three parts: {text}");
    };
    let (before, after) = frame.split_once(" -> ").expect("before -> after");
    assert!(
        before.starts_with("off: ") && before.contains(" FPS, update ") && before.ends_with(" ms"),
        "{text}"
    );
    assert!(
        after.starts_with("on: ") && after.ends_with(" ms"),
        "{text}"
    );
    let (before, after) = step.split_once(" -> ").expect("before -> after");
    assert!(
        before.starts_with("step off ") && before.ends_with(" µs"),
        "{text}"
    );
    assert!(
        after.starts_with("on ") && after.contains(" µs ("),
        "{text}"
    );
    assert!(
        skipped.contains(" entities not looked at this step ("),
        "{text}"
    );
    let figure = |part: &str| -> f64 {
        let n = part.split_whitespace().rev().nth(1).expect("a figure");
        n.replace(',', "").parse().expect("a number")
    };
    assert!(
        figure(before) > figure(after.split(" (").next().expect("the figure")),
        "tracking makes cratetopia's step cheaper: {text}"
    );
    // Each stretch of play in the report, with its frame rate and the update's share of it.
    let phases = off_then_on.report["phases"].as_array().expect("phases");
    let tracking: Vec<bool> = phases
        .iter()
        .map(|p| p["tracking"].as_bool().expect("tracking"))
        .collect();
    assert_eq!(tracking, [false, true], "{phases:?}");
    for p in phases {
        let (fps, share) = (
            p["fps"].as_f64().unwrap(),
            p["update_share"].as_f64().unwrap(),
        );
        assert!(fps > 0.0 && (0.0..=1.0).contains(&share), "{p}");
    }
    let shown = gold_at_bottom(&off_then_on.shot, 60);
    assert!(
        shown > 200,
        "the banner's text on screen: {shown} gold pixels"
    );

    // Without the key, nothing is pinned and the bottom of the screen has no banner (in the
    // smallest window, a quarter of the pixels for Mesa to fill).
    let Some(plain) = run((640, 360), 80, &["--no-dirty"], "f7_not_pressed") else {
        return;
    };
    assert_eq!(plain.report["comparison"], serde_json::Value::Null);
    assert_eq!(gold_at_bottom(&plain.shot, 60), 0);

    // With the profiler window (F2) open and the stats panel (F6) closed, the level's hint
    // shows at the bottom in the level's first seconds, where the banner goes: it goes above
    // the banner, and both texts can be read.
    let Some(with_hint) = run(
        (1280, 720),
        120,
        &["--debug", "profiler", "--no-dirty", "--press", "F7@60"],
        "f7_with_hint",
    ) else {
        return;
    };
    let report = &with_hint.report;
    let banner = rect(&report["banner"], "the banner");
    let hint = rect(&report["hint"], "the level's hint");
    let [bx, by, bw, bh] = banner;
    let [hx, hy, hw, hh] = hint;
    let apart = hy + hh <= by || by + bh <= hy || hx + hw <= bx || bx + bw <= hx;
    assert!(apart, "the hint {hint:?} and the banner {banner:?} overlap");
    assert!(by + bh <= 720.0 && hy >= 0.0, "{hint:?} {banner:?}");
    let (in_banner, in_hint) = (
        gold_in(&with_hint.shot, banner),
        gold_in(&with_hint.shot, hint),
    );
    assert!(
        in_banner > 200 && in_hint > 200,
        "both texts on screen: {in_banner} gold pixels in the banner, {in_hint} in the hint"
    );

    // At 640x360 the profiler window reaches the bottom of the screen unless it stops above
    // the banner and the hint: both texts read across their whole width.
    let Some(small) = run(
        (640, 360),
        120,
        &["--debug", "profiler", "--no-dirty", "--press", "F7@60"],
        "f7_small",
    ) else {
        return;
    };
    for what in ["banner", "hint"] {
        let [x, y, w, h] = rect(&small.report[what], what);
        let halves = [[x, y, w / 2.0, h], [x + w / 2.0, y, w / 2.0, h]];
        let [left, right] = halves.map(|r| gold_in(&small.shot, r));
        eprintln!("640x360 {what}: {left} gold pixels in its left half, {right} in its right");
        assert!(
            left > 50 && right > 50,
            "at 640x360 with F2 open the {what}'s text is covered: {left} gold pixels in its \
             left half, {right} in its right (panels {})",
            small.report["panels"]
        );
    }
}

/// "on A µs/step, off B µs/step (Rx)…": A and B, and what follows the ratio's "x)".
fn on_off_figures<'a>(text: &'a str, line: &str) -> (f64, f64, &'a str) {
    let number = |s: &str| -> f64 { s.replace(',', "").parse().expect("a number") };
    let rest = text
        .strip_prefix("on ")
        .unwrap_or_else(|| panic!("on first: {line}"));
    let (on, rest) = rest
        .split_once(" µs/step, off ")
        .unwrap_or_else(|| panic!("then off: {line}"));
    let (off, rest) = rest
        .split_once(" µs/step (")
        .unwrap_or_else(|| panic!("then the ratio: {line}"));
    let (_, rest) = rest
        .split_once("x)")
        .unwrap_or_else(|| panic!("the ratio: {line}"));
    (number(on), number(off), rest)
}

#[test]
fn compare_mode_shows_the_same_steps_with_tracking_on_and_off() {
    // F8 mid-run: the other runs catch up with the game, then step with it: one a step a
    // frame, two in bursts, back to back.
    let Some(both) = run((1280, 720), 130, &["--press", "F8@40"], "compare") else {
        return;
    };
    let text = both.report["compare"]
        .as_str()
        .unwrap_or_else(|| panic!("compare mode's lines: {}", both.report));
    let (frame_line, back_line) = text.split_once('\n').expect("two lines");
    let rest = frame_line
        .strip_prefix("each frame (cold caches): ")
        .unwrap_or_else(|| panic!("the each-frame line first, saying what it is: {text}"));
    let (on, off, rest) = on_off_figures(rest, frame_line);
    assert_eq!(rest, ", same state", "{text}");
    assert!(off > on, "tracking makes cratetopia's step cheaper: {text}");
    let rest = back_line
        .strip_prefix("back to back (the work itself): ")
        .unwrap_or_else(|| panic!("the back-to-back line: {text}"));
    let (on, off, rest) = on_off_figures(rest, back_line);
    assert_eq!(rest, "", "{text}");
    assert!(off > on, "back to back too: {text}");
    // Both lines on screen, in the banner at the bottom (no stats panel is open).
    let [x, y, w, h] = rect(&both.report["banner"], "the banner");
    for (half, top) in [("upper", y), ("lower", y + h / 2.0)] {
        let shown = gold_in(&both.shot, [x, top, w, h / 2.0]);
        assert!(shown > 200, "the banner's {half} half: {shown} gold pixels");
    }
}

#[test]
fn compare_modes_runs_keep_the_games_state_one_step_a_frame_and_in_bursts() {
    use game::window::debug::compare::{BURST, Compare};
    let level = "crate_room.ron";
    let mut game_run = sim_from_file(level, 1);
    game_run.set_bot(true);
    // Compare mode starts mid-run: its runs catch up first.
    for _ in 0..25 {
        game_run.step(Input::default());
    }
    let mut compare = Compare::new(&game_run, || Ok(sim_from_file(level, 1)), None)
        .unwrap_or_else(|e| panic!("compare mode could not follow the game: {e}"));
    compare.step_both(&mut game_run, Input::default());
    let text = compare.text().expect("figures after a step");
    assert!(
        text.ends_with(&format!(
            "back to back (the work itself): the first {BURST} steps in {}",
            BURST - 1
        )),
        "{text}"
    );
    for _ in 1..2 * BURST + 5 {
        compare.step_both(&mut game_run, Input::default());
    }
    assert!(compare.follows(&game_run));
    let text = compare.text().expect("figures");
    let (frame_line, back_line) = text.split_once('\n').expect("two lines");
    assert!(frame_line.ends_with(", same state"), "{text}");
    assert!(
        back_line.starts_with("back to back (the work itself): on ") && back_line.ends_with("x)"),
        "two bursts have run: {text}"
    );
}

/// The profiler window's rows as `(name, tracked, dirty)`: every line but the total and the
/// debug line.
fn tracked_and_dirty(report: &serde_json::Value) -> Vec<(String, f64, f64)> {
    let lines = report["profiler_text"]
        .as_array()
        .expect("the profiler's rows");
    lines
        .iter()
        .filter_map(|l| l.as_str())
        .filter(|l| !l.starts_with("game systems") && !l.starts_with("debug (apart)"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let number = |i: usize| -> f64 { words[i].parse().unwrap_or_else(|_| panic!("{l}")) };
            (words[0].to_owned(), number(1), number(2))
        })
        .collect()
}

#[test]
fn f2_at_640x360_shows_every_system_with_dirty_never_above_tracked_on_and_off() {
    let systems: Vec<String> = sim_from_file("cratetopia.ron", 1)
        .world()
        .systems()
        .map(|s| s.name.to_owned())
        .collect();
    // Off, then on after F7 with its banner up at the bottom (the stats panel closed).
    for (name, args) in [
        ("f2_off", &["--no-dirty"][..]),
        ("f2_on_banner", &["--no-dirty", "--press", "F7@20"][..]),
    ] {
        let mut all = vec!["--debug", "profiler"];
        all.extend(args);
        let Some(shown) = run((640, 360), 40, &all, name) else {
            return;
        };
        let rows = tracked_and_dirty(&shown.report);
        for (system, tracked, dirty) in &rows {
            assert!(
                dirty <= tracked,
                "{name}: {system} has {dirty} dirty of {tracked} tracked"
            );
        }
        let listed: Vec<&str> = rows.iter().map(|(n, ..)| n.as_str()).collect();
        for system in &systems {
            assert!(
                listed.contains(&system.as_str()),
                "{name}: {system} is not in view in the profiler window: {listed:?}"
            );
        }
        let total = shown.report["profiler_text"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().is_some_and(|l| l.starts_with("game systems")));
        assert!(total, "{name}: the total in view");
    }
    // Beside the stats panel (F6), the profiler window keeps clear of it.
    let Some(both) = run(
        (640, 360),
        40,
        &["--debug", "profiler,stats"],
        "f2_f6_small",
    ) else {
        return;
    };
    let panels = both.report["panels"].as_array().expect("the panels");
    let [stats, profiler] = [&panels[0], &panels[1]].map(|p| rect(p, "a panel"));
    let apart = profiler[0] + profiler[2] <= stats[0] || stats[0] + stats[2] <= profiler[0];
    assert!(apart, "F2 {profiler:?} over F6 {stats:?}");
    assert_eq!(tracked_and_dirty(&both.report).len(), systems.len());
}

/// A system's figure in the stats panel's lines: the number after its name.
fn stats_figure(lines: &[serde_json::Value], system: &str) -> Option<String> {
    lines.iter().filter_map(|l| l.as_str()).find_map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == system)?;
        words.get(at + 1).map(|s| (*s).to_owned())
    })
}

#[test]
fn the_stats_panel_and_the_profiler_window_agree_on_a_system() {
    let Some(both) = run((1280, 720), 100, &["--debug", "stats,profiler"], "f2_f6") else {
        return;
    };
    let empty = Vec::new();
    let stats = both.report["stats_text"].as_array().unwrap_or(&empty);
    let profiler = both.report["profiler_text"].as_array().unwrap_or(&empty);
    for system in ["attack", "draw_data", "debug_stats"] {
        let in_f6 = stats_figure(stats, system)
            .unwrap_or_else(|| panic!("{system} in the stats panel: {stats:?}"));
        // The profiler's row: name, tracked, dirty, µs.
        let row = profiler
            .iter()
            .filter_map(|l| l.as_str())
            .find(|l| l.split_whitespace().next() == Some(system))
            .unwrap_or_else(|| panic!("{system} in the profiler window: {profiler:?}"));
        let in_f2 = row.split_whitespace().nth(3).expect("a µs column");
        assert_eq!(in_f6, in_f2, "{system}: F6 {in_f6} µs, F2 `{row}`");
    }
}

/// The player's box on screen, a tile (16 world pixels) bigger on every side so the crates
/// next to it count: `[x0, y0, x1, y1]` in screen pixels, from the report's view and scale.
fn around_player(report: &serde_json::Value) -> [f64; 4] {
    let f = |v: &serde_json::Value| v.as_f64().expect("a number");
    let player = report["player"].as_array().expect("the player's position");
    let view = report["view"].as_array().expect("the view");
    let scale = f(&report["scale"]);
    let (x, y) = (
        (f(&player[0]) - f(&view[0])) * scale,
        (f(&player[1]) - f(&view[1])) * scale,
    );
    let reach = (8.0 + 16.0) * scale;
    [x - reach, y - reach, x + reach, y + reach]
}

#[test]
fn the_debug_panels_leave_the_player_and_the_crates_beside_it_in_view() {
    for (size, views) in [((640, 360), "stats"), ((1280, 720), "stats,profiler")] {
        let name = format!("panels_{}x{}", size.0, size.1);
        let Some(shown) = run(size, 80, &["--debug", views], &name) else {
            return;
        };
        let report = &shown.report;
        let panels = report["panels"].as_array().expect("the panels' rectangles");
        assert_eq!(panels.len(), views.split(',').count(), "{report}");
        let [px0, py0, px1, py1] = around_player(report);
        let screen = f64::from(size.0 * size.1);
        let mut covered = 0.0;
        for panel in panels {
            let r: Vec<f64> = panel
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let (x0, y0, x1, y1) = (r[0], r[1], r[0] + r[2], r[1] + r[3]);
            covered += r[2] * r[3];
            let overlaps = x0 < px1 && px0 < x1 && y0 < py1 && py0 < y1;
            assert!(
                !overlaps,
                "at {size:?} with {views}, the panel {r:?} covers the player's surroundings \
                 {:?}",
                [px0, py0, px1, py1]
            );
        }
        if size.1 < 480 {
            assert!(
                covered <= screen / 4.0,
                "at {size:?} the stats panel covers {:.0} % of the screen",
                covered / screen * 100.0
            );
        }
    }
}

#[test]
fn a_saved_profile_opens_with_puffins_own_loader() {
    let dir = TempDir::new("profile");
    let file = dir.0.join("run.puffin");
    let path = file.to_str().expect("a UTF-8 temp path");
    let Some(_) = run((1280, 720), 90, &["--save-profile", path], "profile") else {
        return;
    };
    let mut bytes = std::fs::File::open(&file).expect("the .puffin file is written");
    let view = puffin::FrameView::read(&mut bytes).expect("puffin reads the file");
    let frames: Vec<_> = view.all_uniq().collect();
    // Every frame but the last (puffin ends a frame when the next begins).
    assert!(frames.len() >= 80, "{} frames saved of 90", frames.len());
    let names: Vec<String> = view
        .scope_collection()
        .scopes_by_id()
        .values()
        .map(|d| d.name().to_string())
        .collect();
    for scope in ["frame", "update", "render", "draw_data"] {
        assert!(names.iter().any(|n| n == scope), "{scope} in {names:?}");
    }
}

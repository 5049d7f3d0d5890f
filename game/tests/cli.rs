//! The `crate-room` binary's tools: `sim` (a smoke run of every shipped level), `gen-level`,
//! `check`, and its exit codes; and what none of them may do: hang on a FIFO, panic on a closed
//! or full output, allocate for an absurd count, or run on incomplete or corrupt assets.

use crate::common;

use common::process::{Running, TOOL_LIMIT, output_within};
use common::{TempDir, crate_room, crate_room_without_display, record_bot_run, repo, stderr};
use game::level::{MAX_DENSE_CRATES, MAX_GENERATED_CRATES};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn sim_runs_every_shipped_level_and_reports_json() {
    let levels = common::shipped_levels();
    assert!(levels.len() >= 2);
    for level in levels {
        let level = level.to_str().unwrap();
        let out = crate_room(&[
            "sim", "--level", level, "--frames", "30", "--input", "bot", "--json",
        ]);
        assert!(
            out.status.success(),
            "{level}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        for field in [
            "level",
            "frames",
            "entities",
            "crates_total",
            "crates_left",
            "score",
            "state_hash",
            "load_ms",
            "update_us_mean",
            "update_us_p99",
        ] {
            assert!(report.get(field).is_some(), "{level}: no `{field}`");
        }
        assert_eq!(report["frames"], 30);
        let systems = report["systems"].as_array().unwrap();
        assert!(systems.iter().any(|s| s["name"] == "draw_data"));
        for s in systems {
            for field in ["name", "mean_us", "tracked", "dirty_mean"] {
                assert!(s.get(field).is_some(), "{level}: system without `{field}`");
            }
        }
    }
}

#[test]
fn sim_no_dirty_gives_the_same_state_hash() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--frames",
            "400",
            "--input",
            "bot",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = crate_room(&args);
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        (
            v["state_hash"].as_str().unwrap().to_owned(),
            v["dirty"].as_bool().unwrap(),
        )
    };
    let (on, dirty_on) = run(&[]);
    let (off, dirty_off) = run(&["--no-dirty"]);
    assert!(dirty_on && !dirty_off);
    assert_eq!(on, off);
}

#[test]
fn gen_level_kegs_alone_writes_a_room_of_exactly_k_kegs() {
    let out = crate_room(&["gen-level", "--kegs", "40", "--seed", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let map_chars: usize = text
        .lines()
        .filter(|l| l.trim_start().starts_with("\"#"))
        .map(|l| l.matches('k').count())
        .sum();
    assert_eq!(map_chars, 40, "{text}");
}

#[test]
fn gen_level_writes_exactly_n_crates_identically_for_the_same_arguments() {
    let a = crate_room(&["gen-level", "--crates", "123", "--seed", "4"]);
    let b = crate_room(&["gen-level", "--crates", "123", "--seed", "4"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let temp = TempDir::new("gen");
    let out = temp.0.join("gen.ron");
    let w = crate_room(&[
        "gen-level",
        "--crates",
        "123",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(w.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), a.stdout);
    let sim = crate_room(&[
        "sim",
        "--level",
        out.to_str().unwrap(),
        "--frames",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&sim)).unwrap();
    assert_eq!(v["crates_total"], 123);
    let _ = std::fs::remove_file(out);
}

#[test]
fn check_exits_0_for_valid_levels_1_for_invalid_ones_and_2_for_usage_errors() {
    let ok = crate_room(&["check", "levels/crate_room.ron", "levels/cratetopia.ron"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    assert_eq!(stdout(&ok), "ok: 2 files valid\n");

    let bad = crate_room(&[
        "check",
        "levels/crate_room.ron",
        "game/tests/bad_levels/unknown_field.ron",
        "levels/nope.ron",
        "levels",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let text = stdout(&bad);
    assert!(
        text.contains("unknown_field.ron:8:5: error: unknown field `lgend`\n  |     lgend: { 'x': Wall },\n  |     ^\n  = hint: did you mean `legend`?\n"),
        "the error, its line with a caret, and the hint: {text}"
    );
    assert!(!text.contains("ok:"), "{text}");
    assert!(text.contains("nope.ron"), "a missing path is named: {text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("levels:") || l.starts_with("levels ")),
        "a directory is named: {text}"
    );

    let usage = crate_room(&["check"]);
    assert_eq!(usage.status.code(), Some(2));
    let usage = crate_room(&["sim", "--frames", "x"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn bad_level_in_sim_is_reported_with_file_line_and_column_not_a_panic() {
    let out = crate_room(&["sim", "--level", "game/tests/bad_levels/unknown_field.ron"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown_field.ron:") && !err.contains("panicked"),
        "{err}"
    );
}

/// Run crate-room in `dir`, killing it if it has not ended within `limit`.
fn crate_room_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(dir)
            .args(args),
        limit,
    )
}

#[test]
fn fifo_and_device_level_paths_are_refused_at_once_naming_the_path() {
    let dir = TempDir::new("fifo");
    let fifo = dir.0.join("level.ron");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let fifo = fifo.to_str().unwrap();
    let out = crate_room_within(
        &repo(),
        &["check", fifo, "/dev/null"],
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "{fifo}: error: cannot read level file: it is a named pipe (FIFO), not a regular file"
        )),
        "{text}"
    );
    assert!(
        text.contains("/dev/null: error: cannot read level file: it is a character device"),
        "{text}"
    );
    // `sim` and the window refuse it the same way, before any window opens.
    let sim = crate_room_within(&repo(), &["sim", "--level", fifo], Duration::from_secs(60));
    assert_eq!(sim.status.code(), Some(1));
    assert!(
        stderr(&sim).contains("named pipe (FIFO)"),
        "{}",
        stderr(&sim)
    );
    let play = crate_room_within(&repo(), &["--level", fifo], Duration::from_secs(60));
    assert_eq!(play.status.code(), Some(1));
    assert!(
        stderr(&play).contains("named pipe (FIFO)"),
        "{}",
        stderr(&play)
    );
    let script = format!("script:{fifo}");
    let sim = crate_room_within(
        &repo(),
        &[
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--input",
            &script,
        ],
        Duration::from_secs(60),
    );
    assert_eq!(sim.status.code(), Some(1));
    assert!(
        stderr(&sim).contains("named pipe (FIFO)"),
        "{}",
        stderr(&sim)
    );
}

#[test]
fn missing_level_is_refused_on_the_terminal_before_a_window_opens() {
    let out = output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .args(["--level", "levels/no_such_level.ron"])
            // No display: had it tried to open a window, it would fail differently.
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY"),
        TOOL_LIMIT,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: --level levels/no_such_level.ron: no such file\n"
    );
}

/// Run crate-room with its standard output a pipe whose reading end is already closed.
fn with_closed_stdout(args: &[&str]) -> Output {
    // The reading end is closed before the child starts, so its first write fails however
    // fast it is: a pipe closed after the start would race with a short output.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Running::start(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .args(args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped()),
        TOOL_LIMIT,
    )
    .wait_with_output()
}

#[test]
fn closed_stdout_ends_sim_and_gen_level_quietly_with_exit_code_141() {
    for args in [
        &["gen-level", "--crates", "400000"][..],
        &[
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--frames",
            "300",
            "--json",
        ],
        &["sim", "--level", "levels/crate_room.ron", "--frames", "300"],
    ] {
        let out = with_closed_stdout(args);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn full_disk_is_an_error_message_and_exit_1_not_a_panic() {
    for args in [
        &["gen-level", "--crates", "10"][..],
        &[
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--frames",
            "3",
            "--json",
        ],
        &["check", "levels/crate_room.ron"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Running::start(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .current_dir(repo())
                .args(args)
                .stdin(Stdio::null())
                .stdout(full)
                .stderr(Stdio::piped()),
            TOOL_LIMIT,
        )
        .wait_with_output();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            "error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn gen_level_refuses_more_than_its_limit_naming_the_limit() {
    let max = MAX_GENERATED_CRATES.to_string();
    let one_more = (MAX_GENERATED_CRATES + 1).to_string();
    for count in [
        one_more.as_str(),
        "1000000000",
        "18446744073709551615",
        "1e99",
    ] {
        let out = crate_room(&["gen-level", "--crates", count]);
        assert_eq!(out.status.code(), Some(2), "{count}");
        assert!(stdout(&out).is_empty());
        assert!(stderr(&out).contains(&max), "{count}: {}", stderr(&out));
    }
    let dense_max = MAX_DENSE_CRATES.to_string();
    let dense_one_more = (MAX_DENSE_CRATES + 1).to_string();
    for args in [
        &["gen-level", "--dense", "--crates", &dense_one_more][..],
        &[
            "gen-level",
            "--dense",
            "--crates",
            &dense_max,
            "--kegs",
            "1",
        ],
    ] {
        let out = crate_room(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty());
        assert!(
            stderr(&out).contains(&dense_max),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // Without --dense the block layout's limit holds, and the refusal says what fits more.
    let out = crate_room(&["gen-level", "--crates", "9000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--dense"), "{}", stderr(&out));
}

/// Heavy (levels of 8 and 10 million crates, a million simulated): `.ci/run` runs it with
/// `--ignored`.
#[test]
#[ignore = "heavy: .ci/run runs it"]
fn gen_level_at_its_limits_passes_check_and_a_million_dense_crates_simulate() {
    let dir = TempDir::new("gen-max");
    let path = dir.path("max.ron");
    let max = MAX_GENERATED_CRATES.to_string();
    let out = crate_room(&["gen-level", "--crates", &max, "--out", &path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = crate_room(&["check", &path]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));

    let path = dir.path("dense.ron");
    let max = MAX_DENSE_CRATES.to_string();
    let out = crate_room(&["gen-level", "--dense", "--crates", &max, "--out", &path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = crate_room(&["check", &path]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    // Simulating the largest level takes gigabytes (BENCHMARKS.md); a million crates show
    // that a dense level runs.
    let million = dir.path("million.ron");
    let out = crate_room(&[
        "gen-level",
        "--dense",
        "--crates",
        "1000000",
        "--out",
        &million,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let sim = crate_room(&["sim", "--level", &million, "--frames", "2", "--json"]);
    assert!(sim.status.success(), "{}", stderr(&sim));
    let report: serde_json::Value = serde_json::from_str(&stdout(&sim)).unwrap();
    assert_eq!(report["crates_total"], 1_000_000);
}

#[test]
fn ci_runs_exactly_the_readmes_test_command() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let command = readme
        .lines()
        .find_map(|l| l.trim().split_once("# test").map(|(cmd, _)| cmd.trim()))
        .expect("README's first lines name the test command");
    assert!(command.starts_with("cargo test"), "{command}");
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    let want = format!("CRATE_ROOM_REQUIRE_WINDOW=1 {command}");
    assert!(
        ci.lines().any(|l| l.trim() == want),
        ".ci/run does not run `{want}`:\n{ci}"
    );
}

#[test]
fn readmes_first_block_names_the_apt_line_that_ci_installs_before_the_two_commands() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("    "))
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    assert_eq!(block.len(), 3, "{block:?}");
    let packages = block[0]
        .strip_prefix("apt-get install -y ")
        .expect("the first line installs the packages")
        .split('#')
        .next()
        .unwrap()
        .split_whitespace();
    assert!(block[1].starts_with("cargo run") && block[2].starts_with("cargo test"));
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    let ci_line = ci
        .lines()
        .find(|l| l.trim().starts_with("apt-get install"))
        .expect(".ci/run installs packages");
    for package in packages {
        assert!(
            ci_line.split_whitespace().any(|p| p == package),
            ".ci/run does not install {package}: {ci_line}"
        );
    }
}

#[test]
fn readme_states_the_exact_gen_level_limit() {
    // With a comma between each group of three digits: 8,029,440.
    let digits = MAX_GENERATED_CRATES.to_string();
    let mut exact = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            exact.push(',');
        }
        exact.push(digit);
    }
    for doc in ["README.md", "levels/README.md"] {
        let text = std::fs::read_to_string(repo().join(doc)).unwrap();
        assert!(text.contains(&exact), "{doc} does not state {exact}");
        assert!(
            !text.contains("about 500,000"),
            "{doc} still says about 500,000"
        );
    }
}

/// The CPU time (user and system) process `pid` has used so far, in clock ticks, and its
/// resident memory in KiB; `None` once it has ended.
#[cfg(target_os = "linux")]
fn cpu_and_memory(pid: u32) -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime
    // are fields 14 and 15, the 12th and 13th after it.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    if fields.first() == Some(&"Z") {
        return None;
    }
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())?;
    Some((ticks, rss))
}

/// `sim` with a frame count no run could finish steps on with memory that does not grow: it
/// works (uses CPU time, whatever the machine's load) and stays small. A process that ends
/// early, allocates for the count, or hangs without working fails; the deadline is only for
/// a hang.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "heavy: .ci/run runs it"]
fn sim_with_a_huge_frame_count_steps_without_allocating_for_it() {
    /// CPU time to see used: 2 s at the usual 100 ticks a second, hundreds of thousands of
    /// steps of the crate room.
    const WORK_TICKS: u64 = 200;
    /// The crate room's simulation needs a few MiB; a table of one byte per frame would need
    /// 16 EiB.
    const MAX_RSS_KIB: u64 = 256 * 1024;
    for frames in ["18446744073709551615", "10000000000"] {
        let mut child = Running::start(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .current_dir(repo())
                .args([
                    "sim",
                    "--level",
                    "levels/crate_room.ron",
                    "--frames",
                    frames,
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped()),
            TOOL_LIMIT,
        );
        let (mut ticks, mut most_rss) = (0, 0);
        while ticks < WORK_TICKS {
            let Some((used, rss)) = cpu_and_memory(child.pid()) else {
                let status = child.try_wait();
                let out = child.wait_with_output();
                panic!(
                    "--frames {frames} ended after {ticks} ticks ({status:?}): {}",
                    stderr(&out)
                );
            };
            (ticks, most_rss) = (used, most_rss.max(rss));
            assert!(
                most_rss <= MAX_RSS_KIB,
                "--frames {frames}: {most_rss} KiB resident"
            );
            assert!(
                child.remaining() > Duration::ZERO,
                "--frames {frames}: only {ticks} ticks of work within {TOOL_LIMIT:?}: a hang"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        child.stop();
    }
}

/// A data folder copied from the repository's, for breaking.
fn data_copy(test: &str) -> TempDir {
    let dir = TempDir::new(test);
    for sub in ["assets", "levels"] {
        std::fs::create_dir_all(dir.0.join(sub)).unwrap();
    }
    for file in [
        "assets/atlas.ron",
        "assets/atlas.png",
        "levels/crate_room.ron",
    ] {
        std::fs::copy(repo().join(file), dir.0.join(file)).unwrap();
    }
    dir
}

#[test]
fn corrupt_atlas_png_stops_sim_saying_the_cause_once() {
    let png = std::fs::read(repo().join("assets/atlas.png")).unwrap();
    // Cut inside the pixel data, and inside the header.
    for keep in [png.len() / 2, 20] {
        let dir = data_copy("corrupt-png");
        std::fs::write(dir.0.join("assets/atlas.png"), &png[..keep]).unwrap();
        let out = crate_room_within(
            &dir.0,
            &["sim", "--level", "levels/crate_room.ron", "--frames", "3"],
            Duration::from_secs(120),
        );
        assert_eq!(out.status.code(), Some(1), "cut at {keep}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("atlas.png is not a usable PNG: "), "{err}");
        let cause = err.rsplit(": ").next().unwrap().trim();
        assert_eq!(
            err.matches(cause).count(),
            1,
            "the cause is said once: {err}"
        );
    }
}

#[test]
fn incomplete_assets_are_named_not_replaced_by_another_copy() {
    let dir = data_copy("no-table");
    std::fs::remove_file(dir.0.join("assets/atlas.ron")).unwrap();
    let out = crate_room_within(
        &dir.0.join("levels"),
        &["sim", "--level", "crate_room.ron", "--frames", "3"],
        Duration::from_secs(120),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("`assets/` is incomplete") && err.contains("atlas.ron is missing"),
        "{err}"
    );
}

#[test]
fn replay_verify_exits_0_for_a_recorded_run_1_naming_the_step_for_a_changed_one_2_for_usage() {
    let dir = TempDir::new("replay-verify");
    let file = dir.0.join("bot.replay");
    let file_arg = file.to_str().unwrap();
    record_bot_run(file_arg, "1300", &[]);
    let ok = crate_room(&["replay", file_arg, "--verify"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("ok: 1300 steps, all 3 checkpoints match"),
        "{}",
        stdout(&ok)
    );

    // Step 700 stands still where the bot walked or swung: a one-step run of its own.
    let text = std::fs::read_to_string(&file).unwrap();
    let replay = game::replay::Replay::parse(&text).unwrap();
    let mut changed = replay.clone();
    let held = replay.input_at(700);
    let other = game::sim::Input {
        move_x: if held.move_x == 0 { 1 } else { 0 },
        ..held
    };
    changed.set_input(700, other);
    std::fs::write(&file, changed.to_text()).unwrap();
    let bad = crate_room(&["replay", file_arg, "--verify"]);
    assert_eq!(bad.status.code(), Some(1));
    let err = stderr(&bad);
    assert!(
        err.starts_with("error: ")
            && err.contains("diverged by step 1200")
            && err.contains("601..=1200"),
        "{err}"
    );

    std::fs::write(&file, "crate-room replay 3\nlevel x.ron\n").unwrap();
    let garbage = crate_room(&["replay", file_arg, "--verify"]);
    assert_eq!(garbage.status.code(), Some(1));
    assert!(
        stderr(&garbage).contains("bot.replay:3:1: error:"),
        "{}",
        stderr(&garbage)
    );

    let usage = crate_room(&["replay", "--verify"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn record_refuses_to_replace_a_fifo_or_device() {
    let dir = TempDir::new("record-fifo");
    let fifo = dir.0.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for target in [fifo.to_str().unwrap(), dir.0.to_str().unwrap()] {
        let out = crate_room_within(
            &repo(),
            &[
                "sim",
                "--level",
                "levels/vault.ron",
                "--frames",
                "10",
                "--record",
                target,
            ],
            Duration::from_secs(60),
        );
        assert_eq!(out.status.code(), Some(1), "{target}");
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
    }
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "still a FIFO"
    );
    assert!(!dir.0.join("fifo.tmp").exists());
}

#[test]
fn record_and_screenshot_refuse_the_games_own_data_files() {
    let dir = TempDir::new("record-data-files");
    let data = dir.0.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let best = data.join("best_times.txt");
    std::fs::write(&best, "\"first_swing.ron\" = 713\n").unwrap();
    let link = dir.0.join("link.txt");
    std::os::unix::fs::symlink(&best, &link).unwrap();
    let spelled = data.join(".").join("progress.txt");
    for target in [&best, &data.join("settings.txt"), &spelled, &link] {
        let out = output_within(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .current_dir(repo())
                .env("CRATE_ROOM_DATA_DIR", &data)
                .args([
                    "sim",
                    "--level",
                    "levels/vault.ron",
                    "--frames",
                    "10",
                    "--record",
                ])
                .arg(target),
            TOOL_LIMIT,
        );
        assert_eq!(out.status.code(), Some(1), "{}", target.display());
        assert!(
            stderr(&out).contains("one of the game's own files"),
            "{}",
            stderr(&out)
        );
    }
    // The window's flags are checked before a window opens; a screenshot is a `.png`, so only
    // a link can lead one to a data file.
    let shot = dir.0.join("shot.png");
    std::os::unix::fs::symlink(&best, &shot).unwrap();
    let out = output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", &data)
            .env_remove("DISPLAY")
            .args(["--frames", "3", "--screenshot"])
            .arg(&shot),
        TOOL_LIMIT,
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("one of the game's own files"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&best).unwrap(),
        "\"first_swing.ron\" = 713\n",
        "the best times are untouched"
    );
    assert!(!data.join("settings.txt").exists() && !data.join("progress.txt").exists());
}

#[test]
fn options_that_would_do_nothing_or_crash_the_window_are_usage_errors() {
    let dir = TempDir::new("usage");
    let existing = dir.path("room.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &existing).unwrap();
    let cases: [(&[&str], &str); 10] = [
        (&["--width", "32768"], "from 90 to 16384"),
        (&["--width", "0"], "from 90 to 16384"),
        (&["--height=-5"], "from 90 to 16384"),
        (&["--width", "65536", "--height", "1"], "from 90 to 16384"),
        (&["--width", "100000"], "from 90 to 16384"),
        (&["--frames", "0"], "at least 1 frame"),
        (&["--frames", "3", "--screenshot", "x.jpg"], "PNG"),
        (
            &["--edit", &existing, "--size", "10x10"],
            "--size makes a new level",
        ),
        (
            &["--width", "500", "check", "levels/vault.ron"],
            "`check` opens none",
        ),
        (
            &["gen-level", "--dense", "--crates", "10000001"],
            "10000000 with --dense",
        ),
    ];
    for (args, wanted) in cases {
        let out = crate_room_without_display(args);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: {:?}",
            out.status
        );
        let err = stderr(&out);
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("display"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn without_a_display_play_replay_and_edit_say_so_in_one_line() {
    let dir = TempDir::new("no-display");
    let replay = dir.path("run.replay");
    let rec = crate_room(&[
        "sim",
        "--level",
        "levels/crate_room.ron",
        "--frames",
        "10",
        "--record",
        &replay,
    ]);
    assert!(rec.status.success(), "{}", stderr(&rec));
    let new_level = dir.path("new.ron");
    for args in [
        &["--level", "levels/crate_room.ron"][..],
        &["replay", &replay],
        &["--edit", &new_level],
    ] {
        let out = crate_room_without_display(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            "error: this needs a display to open its window, and there is none ($DISPLAY is \
             not set); `crate-room sim` runs without one\n",
            "{args:?}"
        );
    }
}

#[test]
fn input_script_errors_escape_control_characters_and_cut_long_words() {
    let dir = TempDir::new("script-errors");
    let long_count = "9".repeat(100_000);
    for (text, wanted) in [
        ("20 up up\n".to_owned(), ":1:7: error: "),
        ("20 up down\n".to_owned(), ":1:7: error: "),
        ("5 \u{1b}[2J\u{0}\u{202e}x\n".to_owned(), "\\u{1b}"),
        (format!("{long_count} up\n"), "..."),
    ] {
        let script = dir.path("script.txt");
        std::fs::write(&script, &text).unwrap();
        let out = crate_room(&[
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--input",
            &format!("script:{script}"),
        ]);
        assert_eq!(out.status.code(), Some(1), "{text:?}");
        let err = stderr(&out);
        assert!(err.contains(wanted), "{text:?}: {err}");
        assert!(!err.starts_with("error: "), "said once: {err}");
        assert!(
            !err.trim_end()
                .chars()
                .any(|c| c.is_control() || c == '\u{202e}'),
            "{err:?}"
        );
        assert!(err.len() < 300, "{} bytes: {err:.300}", err.len());
    }
}

#[test]
fn a_positioned_error_is_not_called_an_error_twice() {
    let out = crate_room(&[
        "sim",
        "--level",
        "game/tests/bad_levels/unknown_field.ron",
        "--frames",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("game/tests/bad_levels/unknown_field.ron:") && !err.starts_with("error:"),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

#[test]
fn the_sim_summary_escapes_the_level_path() {
    let dir = TempDir::new("summary-path");
    let level = dir.0.join("esc\u{1b}[31m.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
    let out = crate_room(&["sim", "--level", level.to_str().unwrap(), "--frames", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("esc\\u{1b}[31m.ron"), "{text}");
}

#[test]
fn a_room_that_can_never_be_cleared_is_neither_generated_nor_passed_by_check() {
    let none = crate_room(&["gen-level", "--crates", "0"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains("can never be cleared"),
        "{}",
        stderr(&none)
    );
    assert!(none.stdout.is_empty());
    let kegs = crate_room(&["gen-level", "--kegs", "2"]);
    assert_eq!(
        kegs.status.code(),
        Some(0),
        "kegs alone are a clearable room"
    );

    let dir = TempDir::new("no-crates");
    let empty = dir.path("empty.ron");
    std::fs::write(
        &empty,
        "(name: \"Empty\", map: [\"#####\", \"#@..#\", \"#####\"])\n",
    )
    .unwrap();
    let check = crate_room(&["check", &empty]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stdout(&check).contains("has no crates"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn a_press_after_the_last_frame_is_refused_before_the_window() {
    let out = crate_room_without_display(&["--frames", "5", "--press", "F7@50"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("--press at frame 50")
            && err.contains("--frames 5")
            && !err.contains("display"),
        "{err}"
    );
}

#[test]
fn a_script_path_that_is_not_utf8_is_taken_and_named() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("script-bytes");
    let script = dir.0.join(std::ffi::OsStr::from_bytes(b"walk\xff.txt"));
    std::fs::write(&script, "20 up\n").unwrap();
    let mut arg = std::ffi::OsString::from("script:");
    arg.push(&script);
    let run = |arg: &std::ffi::OsStr| {
        output_within(
            Command::new(env!("CARGO_BIN_EXE_crate-room"))
                .current_dir(repo())
                .args([
                    "sim",
                    "--level",
                    "levels/vault.ron",
                    "--frames",
                    "5",
                    "--input",
                ])
                .arg(arg),
            TOOL_LIMIT,
        )
    };
    let out = run(&arg);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::remove_file(&script).unwrap();
    let out = run(&arg);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("cannot read the input script"), "{err}");
    assert!(!err.contains("invalid UTF-8 was detected"), "{err}");
}

#[test]
fn replay_verify_escapes_the_path_it_prints() {
    let dir = TempDir::new("verify-escape");
    let file = dir.path("a\u{202e}b.replay");
    record_bot_run(&file, "100", &[]);
    let out = crate_room(&["replay", &file, "--verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stdout(&out);
    assert!(
        said.contains("a\\u{202e}b.replay: ok") && !said.contains('\u{202e}'),
        "{said}"
    );
}

#[test]
fn an_atlas_table_that_is_a_fifo_is_named_as_one_not_missing() {
    let dir = data_copy("atlas-fifo");
    let table = dir.0.join("assets/atlas.ron");
    std::fs::remove_file(&table).unwrap();
    let made = Command::new("mkfifo").arg(&table).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let out = crate_room_within(
        &dir.0,
        &["sim", "--level", "levels/crate_room.ron", "--frames", "3"],
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("atlas.ron is a named pipe (FIFO)") && !err.contains("missing"),
        "{err}"
    );
}

//! Replays: a recorded bot run verifies; one changed input fails at the first checkpoint after
//! it; a level edited since the recording is reported; and the reader, like the level loader,
//! never panics on hostile files (truncated, garbage, huge counts, huge files, fuzzed copies).

use crate::common;

use std::path::{Path, PathBuf};

use common::mutate::{apply, mutation};
use common::{TempDir, atlas, repo};
use game::input::InputSource;
use game::replay::{self, MAX_FILE_BYTES, MAX_STEPS, Replay, ReplayError, VerifyOutcome};
use game::sim::Input;
use game::sim_run::{self, SimOptions};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Bytes that matter to the replay format.
const REPLAY_BYTES: &[u8] = b" \n0123456789abcdefupdownleftrightattackend";

/// Record `frames` steps of the bot on `level`, as `crate-room sim --record` does.
fn record_bot(level: &Path, frames: u64) -> Replay {
    let report = sim_run::run(
        &SimOptions {
            level: level.to_path_buf(),
            frames,
            input: InputSource::Bot,
            seed: 5,
            dirty: true,
            record: true,
            cold: false,
        },
        &atlas(),
    )
    .expect("the bot run loads");
    report.replay.expect("a replay was asked for")
}

fn crate_room_level() -> PathBuf {
    repo().join("levels/crate_room.ron")
}

#[test]
fn a_recorded_bot_run_verifies_and_survives_its_text_form() {
    let replay = record_bot(&crate_room_level(), 2_000);
    assert_eq!(replay.steps(), 2_000);
    let steps: Vec<u64> = replay.checkpoints().iter().map(|&(s, _)| s).collect();
    assert_eq!(steps, [600, 1200, 1800, 2000]);
    let reread = Replay::parse(&replay.to_text()).expect("its own text parses");
    assert_eq!(reread, replay);
    assert_eq!(
        replay::verify(&reread, &atlas(), None).unwrap(),
        VerifyOutcome::Matched {
            steps: 2_000,
            checkpoints: 4
        }
    );
}

#[test]
fn one_changed_input_fails_at_the_first_checkpoint_after_it() {
    let mut replay = record_bot(&crate_room_level(), 2_000);
    // A step between the first and second checkpoints where the bot walks: stand still instead.
    let step = (700..1_200)
        .find(|&s| {
            let held = replay.input_at(s);
            held.move_x != 0 || held.move_y != 0
        })
        .expect("the bot walks between steps 700 and 1200");
    replay.set_input(step, Input::default());
    let outcome = replay::verify(&replay, &atlas(), None).unwrap();
    let VerifyOutcome::Diverged {
        step: at,
        last_match,
        ..
    } = outcome
    else {
        panic!("a changed input verifies: {outcome:?}");
    };
    assert_eq!((last_match, at), (600, 1200), "changed step {step}");
    let shown = outcome.to_string();
    assert!(
        shown.starts_with("diverged by step 1200") && shown.contains("601..=1200"),
        "{shown}"
    );
}

#[test]
fn a_level_edited_since_the_recording_is_reported_not_replayed() {
    let dir = TempDir::new("edited");
    let level = dir.0.join("room.ron");
    std::fs::copy(crate_room_level(), &level).unwrap();
    let replay = record_bot(&level, 700);
    assert!(matches!(
        replay::verify(&replay, &atlas(), None),
        Ok(VerifyOutcome::Matched { .. })
    ));

    // A comment changes no rule, but it is not the file recorded.
    let mut text = std::fs::read_to_string(&level).unwrap();
    text.push_str("// edited\n");
    std::fs::write(&level, text).unwrap();
    let err = replay::verify(&replay, &atlas(), None).unwrap_err();
    assert!(matches!(err, ReplayError::LevelChanged { .. }), "{err:?}");
    let shown = err.to_string();
    assert!(
        shown.contains("room.ron") && shown.contains("changed since the replay was recorded"),
        "{shown}"
    );

    std::fs::remove_file(&level).unwrap();
    let err = replay::verify(&replay, &atlas(), None).unwrap_err();
    assert!(err.to_string().contains("no such file"), "{err}");
}

#[test]
fn a_level_missing_where_recorded_is_found_by_name_in_the_levels_folder() {
    let mut replay = record_bot(&crate_room_level(), 100);
    replay.level_file = "/nowhere/crate_room.ron".into();
    let levels = repo().join("levels");
    assert!(matches!(
        replay::verify(&replay, &atlas(), Some(&levels)),
        Ok(VerifyOutcome::Matched { .. })
    ));
}

/// A small valid replay text whose lines the hostile cases below edit.
fn sample_text() -> String {
    let mut replay = Replay::new(Path::new("levels/crate_room.ron"), b"(...)", 1);
    for step in 0..30u64 {
        replay.push_input(Input {
            move_x: [-1, 0, 1][(step / 10) as usize],
            move_y: 0,
            attack: step / 10 == 1,
        });
    }
    replay.push_checkpoint(30, 0x0123_4567_89ab_cdef);
    replay.to_text()
}

#[test]
fn every_truncation_of_a_replay_is_an_error() {
    let text = sample_text();
    assert!(Replay::parse(&text).is_ok());
    // Up to the last newline, every prefix lacks the `end` line or part of it.
    for cut in 0..text.len() - 1 {
        let Some(prefix) = text.get(..cut) else {
            continue;
        };
        assert!(
            Replay::parse(prefix).is_err(),
            "prefix of {cut} bytes parsed"
        );
    }
}

#[test]
fn hostile_replays_are_refused_with_their_line_and_column() {
    let text = sample_text();
    let swap = |from: &str, to: &str| text.replace(from, to);
    let swap_first = |from: &str, to: &str| text.replacen(from, to, 1);
    let cases: Vec<(String, usize, &str)> = vec![
        ("garbage\u{0}\u{7f}".into(), 1, "not a replay file"),
        (String::new(), 1, "truncated"),
        (
            swap("replay 3", "replay 99"),
            1,
            "made by a newer version of Crate Room (replay format version 99",
        ),
        (
            swap("replay 3", "replay 1"),
            1,
            "made by an older version of Crate Room (replay format version 1",
        ),
        (
            swap("steps 30", "steps 18446744073709551616"),
            5,
            "expected a whole number",
        ),
        (
            swap("steps 30", &format!("steps {}", MAX_STEPS + 1)),
            5,
            "expected a whole number",
        ),
        (
            swap_first("\n10 left", "\n99999999999999 left"),
            7,
            "expected a whole number",
        ),
        (swap("steps 30", "steps 40"), 5, "cover 30"),
        (swap_first("\n10 left", "\n40 left"), 7, "run past"),
        (swap_first("\n10 left", "\n10 left right"), 7, "axis"),
        (swap_first("\n10 left", "\n10 jump"), 7, "`jump`"),
        (swap_first("\n10 left", "\n0 left"), 7, "0 steps"),
        (swap("30 0123", "31 0123"), 0, "expected a whole number"),
        (swap("0123456789abcdef", "0123"), 0, "hexadecimal"),
        (swap("end\n", "end\nmore\n"), 0, "after `end`"),
        (swap("level levels", "level \u{1b}[2Jlevels"), 2, "control"),
        (swap("levels/crate_room.ron", "/etc/passwd"), 2, "`.ron`"),
        (
            swap("30 0123456789abcdef\n", ""),
            0,
            "last checkpoint must be at the last step",
        ),
    ];
    for (text, line, wanted) in cases {
        let err = Replay::parse(&text)
            .err()
            .unwrap_or_else(|| panic!("accepted:\n{text}"));
        let (at, message) = (err.line, err.message());
        if line != 0 {
            assert_eq!(at, line, "{message}\n{text}");
        }
        assert!(message.contains(wanted), "{message:?} lacks {wanted:?}");
        assert!(!message.chars().any(char::is_control), "{message:?}");
    }
}

#[test]
fn a_huge_or_special_replay_file_is_refused_without_reading_it() {
    let dir = TempDir::new("huge");
    let huge = dir.0.join("huge.replay");
    let file = std::fs::File::create(&huge).unwrap();
    // A sparse 100 MiB file: refused by its size, before a byte is read.
    file.set_len(100 * 1024 * 1024).unwrap();
    let err = Replay::load(&huge).unwrap_err().to_string();
    assert!(
        err.contains("104857600 bytes") && err.contains(&MAX_FILE_BYTES.to_string()),
        "{err}"
    );

    let binary = dir.0.join("binary.replay");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let err = Replay::load(&binary).unwrap_err().to_string();
    assert!(err.contains("not UTF-8"), "{err}");

    let err = Replay::load(&dir.0).unwrap_err().to_string();
    assert!(err.contains("not a regular file"), "{err}");
    let err = Replay::load(&dir.0.join("missing.replay"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing.replay"), "{err}");
}

/// Parse `text`: a replay that parses writes itself back to text that parses to the same
/// replay; an error is one line with no control character, at a line the text has.
fn parse_and_check(text: &str) {
    match Replay::parse(text) {
        Ok(replay) => {
            assert_eq!(Replay::parse(&replay.to_text()), Ok(replay.clone()));
            assert!(replay.steps() <= MAX_STEPS);
        }
        Err(err) => {
            let (line, column, message) = (err.line, err.column, err.message());
            assert!(line >= 1 && line <= text.lines().count() + 1, "{line}");
            assert!(column >= 1);
            assert!(!message.chars().any(char::is_control), "{message:?}");
            assert!(message.len() < 300, "{message:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        // A fixed seed: the same cases on every run.
        rng_seed: RngSeed::Fixed(29),
        ..ProptestConfig::with_cases(3_000)
    })]

    #[test]
    fn mutated_replays_never_panic(mutations in prop::collection::vec(mutation(REPLAY_BYTES, 20), 1..6)) {
        let mut bytes = sample_text().into_bytes();
        for m in &mutations {
            bytes = apply(&bytes, m);
        }
        parse_and_check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_never_panics(text in "(crate-room replay 3\n)?[ -~\n]{0,300}") {
        parse_and_check(&text);
    }
}

#[test]
fn a_run_saved_when_the_room_is_cleared_ends_at_the_clear_and_verifies() {
    // What the room-cleared screen's "save replay" does, without the window.
    let level = repo().join("levels/corridors.ron");
    let atlas = atlas();
    let (_, mut sim) = game::sim::Sim::load(&level, &atlas, 1).unwrap();
    sim.set_bot(true);
    let mut recorder = replay::Recorder::for_level(&level, 1).unwrap();
    while sim.state().cleared_at.is_none() {
        assert!(sim.state().step < 10_000, "the bot clears corridors");
        sim.step(Input::default());
        recorder.record(&sim);
    }
    let cleared = recorder.finish(&sim);
    let dir = TempDir::new("cleared");
    let path = replay::saved_path(&dir.0, &level, cleared.steps());
    assert_eq!(
        path,
        dir.0
            .join("replays")
            .join(format!("corridors-{}.replay", sim.state().step))
    );
    // The game makes its data directory's `replays/` folder; `save` makes no folders.
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    cleared.save(&path).unwrap();
    let loaded = Replay::load(&path).unwrap();
    assert_eq!(loaded.checkpoints().last().unwrap().0, sim.state().step);
    assert!(matches!(
        replay::verify(&loaded, &atlas, None),
        Ok(VerifyOutcome::Matched { .. })
    ));
}

#[test]
fn a_replay_missing_a_checkpoint_is_refused() {
    let dir = TempDir::new("missing-checkpoint");
    let file = dir.path("run.replay");
    common::record_bot_run(&file, "1300", &[]);
    let text = std::fs::read_to_string(&file).unwrap();
    let checkpoints: Vec<&str> = text
        .split("checkpoints\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| *l != "end")
        .collect();
    assert_eq!(checkpoints.len(), 3, "600, 1200 and 1300: {checkpoints:?}");
    for line in &checkpoints[..2] {
        let without = text.replace(&format!("{line}\n"), "");
        let message = Replay::parse(&without)
            .err()
            .unwrap_or_else(|| panic!("accepted without `{line}`"))
            .message();
        assert!(message.contains("a checkpoint is missing"), "{message}");
    }
}

#[test]
fn a_divergence_at_step_0_says_so() {
    let dir = TempDir::new("diverge-0");
    let file = dir.path("run.replay");
    let rec = common::crate_room(&[
        "sim",
        "--level",
        "levels/crate_room.ron",
        "--frames",
        "0",
        "--record",
        &file,
    ]);
    assert!(
        rec.status.success(),
        "{}",
        String::from_utf8_lossy(&rec.stderr)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let (head, tail) = text.split_once("checkpoints\n0 ").unwrap();
    let (hash, rest) = tail.split_once('\n').unwrap();
    let other = u64::from_str_radix(hash, 16).unwrap() ^ 1;
    let flipped = format!("{head}checkpoints\n0 {other:016x}\n{rest}");
    std::fs::write(&file, flipped).unwrap();
    let out = common::crate_room(&["replay", &file, "--verify"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("diverged at step 0"), "{err}");
    assert!(!err.contains("1..=0"), "{err}");
}

#[test]
fn a_replay_whose_level_is_a_directory_says_what_it_is() {
    let dir = TempDir::new("level-dir");
    let file = dir.path("run.replay");
    let level = dir.path("room.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
    let rec = common::crate_room(&["sim", "--level", &level, "--frames", "5", "--record", &file]);
    assert!(rec.status.success());
    std::fs::remove_file(&level).unwrap();
    std::fs::create_dir(&level).unwrap();
    let out = common::crate_room(&["replay", &file, "--verify"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("it is a directory, not a regular file"),
        "{err}"
    );
    assert!(!err.contains("no such file"), "{err}");
}

/// A replay written by the build before the generator and the swing's hash changed (format 2,
/// `levels/gold/first_swing.replay` as it was then): its checkpoints hash another game, so it
/// is refused as old, with what to do, not re-simulated into a divergence.
#[test]
fn a_replay_of_the_previous_format_is_refused_with_what_to_do() {
    let file = repo().join("game/tests/fixtures/first_swing_format2.replay");
    let err = Replay::load(&file).unwrap_err().to_string();
    assert!(
        err.contains("made by an older version of Crate Room (replay format version 2;")
            && err.contains("record the run again"),
        "{err}"
    );
    let out = common::crate_room(&["replay", file.to_str().unwrap(), "--verify"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("first_swing_format2.replay:1:")
            && stderr.contains("replay format version 2"),
        "{stderr}"
    );
}

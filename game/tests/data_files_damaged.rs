//! The player's data files when something is wrong with them: a damaged file is kept under a
//! second name before the new one replaces it (never leaving nothing), every data file keeps
//! up to ten damaged copies, a missing file beside a damaged copy is reported, and no content
//! of any data file makes a number overflow or a message carry raw control bytes.

use crate::common;

use std::path::Path;

use common::TempDir;
use game::player_data::progress::Progress;
use game::player_data::settings::{KEYS, Overrides, SettingsFile, to_text};
use game::player_data::{BestTimes, MAX_DAMAGED_FILES, MAX_STEPS, RecordsError, Store};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Make the next save's temporary file impossible to create in `dir` (a folder holds its
/// name), so the save fails at its last step as on a full disk.
fn block_the_temporary_file(dir: &Path, file: &str) {
    let tmp = dir.join(format!(".{file}.{}.tmp", std::process::id()));
    std::fs::create_dir_all(tmp.join("in-the-way")).unwrap();
}

#[test]
fn a_failed_save_of_a_damaged_file_leaves_the_file_where_it_was() {
    let dir = TempDir::new("damaged-full-disk");
    let store = Store::at(&dir.0);
    let text = "\"first_swing.ron\" = 900\nthis line is damaged\n";
    std::fs::write(store.path(), text).unwrap();
    let (mut best, problem) = BestTimes::load(&store);
    assert!(matches!(problem, Some(RecordsError::Damaged { .. })));
    best.record("first_swing.ron", 1000).unwrap();
    best.record("iron_bands.ron", 500).unwrap();
    block_the_temporary_file(&dir.0, "best_times.txt");
    assert!(best.save().is_err(), "the save cannot write");
    assert_eq!(
        std::fs::read_to_string(store.path()).unwrap(),
        text,
        "the file is still there, as it was"
    );
    // The next start still has the time, so a worse one is not taken for a best.
    let (mut next, _) = BestTimes::load(&store);
    assert_eq!(next.best("first_swing.ron"), Some(900));
    assert!(!next.record("first_swing.ron", 1000).unwrap().new_best);
}

#[test]
fn progress_and_settings_keep_every_damaged_copy_up_to_ten() {
    let dir = TempDir::new("damaged-copies");
    let store = Store::at(&dir.0);
    for n in 1..=MAX_DAMAGED_FILES + 2 {
        let damage = format!("damage number {n}\n");
        std::fs::write(dir.0.join("progress.txt"), &damage).unwrap();
        std::fs::write(dir.0.join("settings.txt"), &damage).unwrap();
        let (mut progress, problem) = Progress::load(&store);
        assert!(problem.is_some());
        progress.mark_cleared(&format!("level_{n}.ron")).unwrap();
        progress.save().unwrap();
        let (mut settings, problem) = SettingsFile::load(&store, Overrides::default());
        assert!(problem.is_some());
        settings.change(|s| s.volume = n as u8).unwrap();
        for stem in ["progress", "settings"] {
            let copies: Vec<String> = std::fs::read_dir(&dir.0)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with(&format!("{stem}.damaged")))
                .map(|name| std::fs::read_to_string(dir.0.join(name)).unwrap())
                .collect();
            let kept = (n.saturating_sub(MAX_DAMAGED_FILES - 1)..=n)
                .map(|k| format!("damage number {k}\n"));
            for damage in kept.filter(|d| d != "damage number 0\n") {
                assert!(copies.contains(&damage), "{stem}: {damage:?} in {copies:?}");
            }
            assert!(copies.len() <= MAX_DAMAGED_FILES, "{stem}: {copies:?}");
        }
    }
}

#[test]
fn a_missing_file_beside_a_damaged_copy_is_reported() {
    let dir = TempDir::new("missing-with-copy");
    let store = Store::at(&dir.0);
    std::fs::write(dir.0.join("best_times.damaged.txt"), "\"a.ron\" = 5\n").unwrap();
    std::fs::write(dir.0.join("progress.damaged.3.txt"), "\"a.ron\"\n").unwrap();
    std::fs::write(dir.0.join("settings.damaged.txt"), "volume = 5\n").unwrap();
    let (_, problem) = BestTimes::load(&store);
    let problem = problem.expect("reported").to_string();
    assert!(
        problem.contains("best_times.txt is missing") && problem.contains("best_times.damaged.txt"),
        "{problem}"
    );
    let (_, problem) = Progress::load(&store);
    let problem = problem.expect("reported").to_string();
    assert!(problem.contains("progress.damaged.3.txt"), "{problem}");
    let (_, problem) = SettingsFile::load(&store, Overrides::default());
    assert!(problem.is_some());
    // Without a damaged copy a missing file is a first run, and says nothing.
    let fresh = TempDir::new("missing-first-run");
    assert!(BestTimes::load(&Store::at(&fresh.0)).1.is_none());
}

#[test]
fn best_times_are_held_to_one_step_and_a_documented_most() {
    let dir = TempDir::new("bounded-times");
    let store = Store::at(&dir.0);
    std::fs::write(
        store.path(),
        "\"iron_bands.ron\" = 18446744073709551615\n\"pocket_change.ron\" = 1\n\"zero.ron\" = 0\n",
    )
    .unwrap();
    let (mut best, problem) = BestTimes::load(&store);
    match problem {
        Some(RecordsError::Damaged { skipped: 2, .. }) => {}
        other => panic!("two lines out of range are damaged, got {other:?}"),
    }
    assert_eq!(best.best("pocket_change.ron"), Some(1));
    assert_eq!(best.best("iron_bands.ron"), None);
    for steps in [0, MAX_STEPS + 1, u64::MAX] {
        assert!(
            matches!(
                best.record("a.ron", steps),
                Err(RecordsError::BadTime { .. })
            ),
            "{steps}"
        );
    }
    assert!(best.record("a.ron", MAX_STEPS).unwrap().new_best);
}

#[test]
fn messages_quote_the_files_bytes_escaped() {
    let dir = TempDir::new("escaped\u{1b}[2Jdir");
    let store = Store::at(&dir.0);
    std::fs::write(store.path(), "\"a.ron\" = \u{1b}[2J\n").unwrap();
    std::fs::write(dir.0.join("progress.txt"), "\"a.ron\" \u{1b}[2J\n").unwrap();
    let (_, best) = BestTimes::load(&store);
    let (_, progress) = Progress::load(&store);
    for message in [best.unwrap().to_string(), progress.unwrap().to_string()] {
        assert!(!message.contains('\u{1b}'), "{message:?}");
        assert!(message.contains("\\u{1b}[2J"), "{message:?}");
    }
}

#[test]
fn the_settings_keys_are_the_ones_the_file_writes() {
    let mut settings = SettingsFile::in_memory(Overrides::default())
        .current()
        .clone();
    settings.last_level = Some("a.ron".into());
    let text = to_text(&settings);
    let mut written: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(" = ").next().unwrap())
        .collect();
    written.sort_unstable();
    let mut keys = KEYS.to_vec();
    keys.sort_unstable();
    assert_eq!(written, keys, "{text}");
}

/// A line of a data file: bytes of any kind, or lines shaped like the files' own with any
/// names and numbers.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let name = "[a-z_\"\\\\\u{1b}\n\u{feff} =#]{0,12}";
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40),
        (name, any::<u64>()).prop_map(|(n, v)| format!("\"{n}.ron\" = {v}").into_bytes()),
        (name, 0u64..10_000_000).prop_map(|(n, v)| format!("\"{n}.ron\" = {v}").into_bytes()),
        name.prop_map(|n| format!("\"{n}.ron\"").into_bytes()),
        (
            prop::sample::select(KEYS.iter().copied().chain(["x"]).collect::<Vec<_>>()),
            "[a-z0-9\"\u{1b} ]{0,8}"
        )
            .prop_map(|(k, v)| format!("{k} = {v}").into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        // A fixed seed: the same cases on every run.
        rng_seed: RngSeed::Fixed(31),
        ..ProptestConfig::with_cases(128)
    })]

    #[test]
    fn any_data_file_loads_bounded_and_saves_to_a_file_that_loads_back(
        lines in proptest::collection::vec(line(), 0..40),
    ) {
        let bytes = lines.join(&b'\n');
        let dir = TempDir::new("any-data-file");
        let store = Store::at(&dir.0);
        for file in ["best_times.txt", "progress.txt", "settings.txt"] {
            std::fs::write(dir.0.join(file), &bytes).unwrap();
        }
        let (mut best, problem) = BestTimes::load(&store);
        if let Some(problem) = &problem {
            prop_assert!(!problem.to_string().chars().any(char::is_control), "{problem}");
        }
        // Every time is in range, so no total of them overflows.
        let mut total = 0u64;
        for (_, steps) in best.iter() {
            prop_assert!((1..=MAX_STEPS).contains(&steps));
            total = total.checked_add(steps).expect("a total of best times fits");
        }
        best.save().unwrap();
        let (again, problem) = BestTimes::load(&store);
        prop_assert!(problem.is_none(), "{problem:?}");
        prop_assert_eq!(again.iter().collect::<Vec<_>>(), best.iter().collect::<Vec<_>>());

        let (mut progress, problem) = Progress::load(&store);
        if let Some(problem) = &problem {
            prop_assert!(!problem.to_string().chars().any(char::is_control), "{problem}");
        }
        progress.save().unwrap();
        prop_assert!(Progress::load(&store).1.is_none());

        let (mut settings, problem) = SettingsFile::load(&store, Overrides::default());
        if let Some(problem) = &problem {
            prop_assert!(!problem.to_string().chars().any(char::is_control), "{problem}");
        }
        let volume = settings.saved().volume;
        settings.change(|s| s.volume = if volume == 0 { 1 } else { 0 }).unwrap();
        prop_assert!(SettingsFile::load(&store, Overrides::default()).1.is_none());
    }
}

#[test]
fn a_data_file_that_is_a_symlink_is_written_through_and_its_damaged_copy_kept() {
    let dir = TempDir::new("symlinked-data");
    let elsewhere = TempDir::new("symlinked-target");
    let store = Store::at(&dir.0);
    let target = elsewhere.0.join("my_best_times.txt");
    let damaged = "\"first_swing.ron\" = 900\nthis line is damaged\n";
    std::fs::write(&target, damaged).unwrap();
    std::os::unix::fs::symlink(&target, store.path()).unwrap();
    let (mut best, problem) = BestTimes::load(&store);
    assert!(matches!(problem, Some(RecordsError::Damaged { .. })));
    best.record("iron_bands.ron", 500).unwrap();
    best.save().unwrap();

    let link = std::fs::symlink_metadata(store.path()).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(
        written.contains("\"first_swing.ron\" = 900")
            && written.contains("\"iron_bands.ron\" = 500"),
        "the file the link names gets the new table: {written}"
    );
    let copy = dir.0.join("best_times.damaged.txt");
    assert!(
        !std::fs::symlink_metadata(&copy)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the damaged copy is a file of its own, not a second link to the file just replaced"
    );
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        damaged,
        "the damaged copy holds the damaged text"
    );
}

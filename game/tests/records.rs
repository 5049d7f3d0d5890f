//! Best times on disk: round trips, damaged and oversized files, unwritable folders, and the
//! `CRATE_ROOM_DATA_DIR` override. Every test works in its own scratch folder under the target
//! directory; none touches the real data directory.

use crate::common;

use std::path::{Path, PathBuf};

use common::TempDir;

use game::player_data::{
    BestTimes, DAMAGED_FILE_NAME, ENV_VAR, FILE_NAME, MAX_FILE_BYTES, MAX_LEVELS, MAX_NAME_BYTES,
    Outcome, RecordsError, Store,
};

/// A fresh, empty folder for one test (emptied again by the next run, so nothing piles up).
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("records")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn store_with(test: &str, contents: &[u8]) -> Store {
    let store = Store::at(scratch(test));
    std::fs::write(store.path(), contents).unwrap();
    store
}

#[test]
fn saved_times_load_back() {
    let store = Store::at(scratch("round-trip"));
    let (mut best, problem) = BestTimes::load(&store);
    assert!(problem.is_none());
    best.record("crate_room.ron", 5421).unwrap();
    best.record("vault.ron", 900).unwrap();
    best.save().unwrap();

    let (again, problem) = BestTimes::load(&store);
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(again.best("crate_room.ron"), Some(5421));
    assert_eq!(again.best("vault.ron"), Some(900));
    assert_eq!(again.len(), 2);
}

#[test]
fn the_file_is_readable_text() {
    let store = Store::at(scratch("text"));
    let (mut best, _) = BestTimes::load(&store);
    best.record("crate_room.ron", 5421).unwrap();
    best.save().unwrap();
    let text = std::fs::read_to_string(store.path()).unwrap();
    assert!(text.starts_with("# Crate Room best times"), "{text}");
    assert!(
        text.contains("\"crate_room.ron\" = 5421  # 1:30.35\n"),
        "{text}"
    );
}

#[test]
fn faster_time_is_a_new_best_and_slower_or_equal_is_not() {
    let mut best = BestTimes::in_memory();
    let first = best.record("a.ron", 600).unwrap();
    assert_eq!(
        first,
        Outcome {
            new_best: true,
            previous: None
        }
    );
    let slower = best.record("a.ron", 700).unwrap();
    assert_eq!(
        slower,
        Outcome {
            new_best: false,
            previous: Some(600)
        }
    );
    let equal = best.record("a.ron", 600).unwrap();
    assert!(!equal.new_best);
    let faster = best.record("a.ron", 500).unwrap();
    assert_eq!(
        faster,
        Outcome {
            new_best: true,
            previous: Some(600)
        }
    );
    assert_eq!(best.best("a.ron"), Some(500));
    assert_eq!(best.best("b.ron"), None);
}

#[test]
fn missing_or_empty_file_is_an_empty_table_without_error() {
    let missing = Store::at(scratch("missing").join("not-yet-created"));
    let (best, problem) = BestTimes::load(&missing);
    assert!(best.is_empty() && problem.is_none());
    assert!(
        !missing.dir().exists(),
        "loading must not create the folder"
    );

    let empty = store_with("empty", b"");
    let (best, problem) = BestTimes::load(&empty);
    assert!(best.is_empty() && problem.is_none());
}

#[test]
fn unreadable_lines_are_skipped_and_reported_and_the_rest_kept() {
    let store = store_with(
        "damaged",
        b"\"good.ron\" = 100\nthis is not a record\n\"bad.ron\" = soon\n\"also_good.ron\" = 7\n",
    );
    let (best, problem) = BestTimes::load(&store);
    assert_eq!(best.best("good.ron"), Some(100));
    assert_eq!(best.best("also_good.ron"), Some(7));
    assert_eq!(best.len(), 2);
    match problem {
        Some(RecordsError::Damaged {
            path,
            skipped: 2,
            first_line: 2,
            kept: 2,
            ..
        }) => assert_eq!(path, store.path()),
        other => panic!("expected Damaged, got {other:?}"),
    }
}

#[test]
fn binary_garbage_is_reported_not_fatal() {
    let store = store_with("garbage", &[0xff, 0xfe, 0x00, b'\n', 0x80, b'=', b'1']);
    let (best, problem) = BestTimes::load(&store);
    assert!(best.is_empty());
    let message = problem.expect("garbage is reported").to_string();
    assert!(message.contains(FILE_NAME), "{message}");
    assert!(message.contains("not valid UTF-8"), "{message}");
}

#[test]
fn oversized_file_is_refused_unread() {
    let big = vec![b'#'; MAX_FILE_BYTES as usize + 1];
    let store = store_with("oversized", &big);
    let (best, problem) = BestTimes::load(&store);
    assert!(best.is_empty());
    assert!(
        matches!(problem, Some(RecordsError::TooLarge { .. })),
        "{problem:?}"
    );

    let exactly = vec![b'#'; MAX_FILE_BYTES as usize];
    std::fs::write(store.path(), exactly).unwrap();
    assert!(BestTimes::load(&store).1.is_none());
}

#[test]
fn damaged_file_is_untouched_until_a_save_moves_it_aside() {
    let original = b"\"kept.ron\" = 100\nhand edit gone wrong\n";
    let store = store_with("move-aside", original);
    let (mut best, problem) = BestTimes::load(&store);
    assert!(problem.is_some());
    assert_eq!(std::fs::read(store.path()).unwrap(), original);

    best.record("new.ron", 50).unwrap();
    best.save().unwrap();
    let moved = store.dir().join(DAMAGED_FILE_NAME);
    assert_eq!(std::fs::read(&moved).unwrap(), original);
    let (again, problem) = BestTimes::load(&store);
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(again.best("kept.ron"), Some(100));
    assert_eq!(again.best("new.ron"), Some(50));

    // Once replaced, later saves leave the moved-aside copy alone.
    std::fs::write(&moved, b"older").unwrap();
    let (mut again, _) = BestTimes::load(&store);
    again.record("new.ron", 40).unwrap();
    again.save().unwrap();
    assert_eq!(std::fs::read(&moved).unwrap(), b"older");
}

#[test]
fn oversized_file_is_moved_aside_not_lost() {
    let big = vec![b'#'; MAX_FILE_BYTES as usize + 10];
    let store = store_with("oversized-aside", &big);
    let (mut best, _) = BestTimes::load(&store);
    best.record("a.ron", 1).unwrap();
    best.save().unwrap();
    assert_eq!(
        std::fs::metadata(store.dir().join(DAMAGED_FILE_NAME))
            .unwrap()
            .len(),
        big.len() as u64
    );
    assert_eq!(BestTimes::load(&store).0.best("a.ron"), Some(1));
}

#[test]
fn unwritable_folder_gives_errors_not_panics() {
    // A folder "inside" a regular file can be neither created nor read, even as root.
    let file = scratch("unwritable").join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let store = Store::at(file.join("data"));

    let (mut best, problem) = BestTimes::load(&store);
    assert!(
        matches!(problem, Some(RecordsError::Read { .. })),
        "{problem:?}"
    );
    best.record("a.ron", 10).unwrap();
    let err = best.save().unwrap_err();
    assert!(matches!(err, RecordsError::Write { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("a-file"), "{message}");
    assert!(message.contains(ENV_VAR), "{message}");
    // The table keeps working for the rest of the session.
    assert_eq!(best.best("a.ron"), Some(10));
    assert!(best.save().is_err());
}

#[test]
fn save_creates_the_folder_and_leaves_no_temporary_file() {
    let dir = scratch("tidy").join("nested").join("deeper");
    let store = Store::at(&dir);
    let (mut best, _) = BestTimes::load(&store);
    best.record("a.ron", 10).unwrap();
    best.save().unwrap();
    best.record("a.ron", 5).unwrap();
    best.save().unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The file, and the empty lock file that two games' saves take turns on.
    assert_eq!(names, [".best_times.lock", FILE_NAME]);
}

#[test]
fn a_level_listed_twice_keeps_the_faster_time() {
    let store = store_with(
        "duplicate",
        b"\"a.ron\" = 90\n\"a.ron\" = 30\n\"a.ron\" = 60\n",
    );
    let (best, problem) = BestTimes::load(&store);
    assert!(problem.is_none());
    assert_eq!(best.best("a.ron"), Some(30));
}

#[test]
fn bad_level_names_are_refused_and_the_table_unchanged() {
    let mut best = BestTimes::in_memory();
    let long = "x".repeat(MAX_NAME_BYTES + 1);
    for name in ["", "line\nbreak.ron", long.as_str()] {
        let err = best.record(name, 1).unwrap_err();
        assert!(
            matches!(err, RecordsError::BadLevelName { .. }),
            "{name:?}: {err:?}"
        );
    }
    assert!(best.is_empty());
}

#[test]
fn a_full_table_refuses_new_levels_but_still_improves_old_ones() {
    let mut best = BestTimes::in_memory();
    for i in 0..MAX_LEVELS {
        best.record(&format!("{i}.ron"), 100).unwrap();
    }
    let err = best.record("one-too-many.ron", 1).unwrap_err();
    assert!(matches!(err, RecordsError::TableFull { .. }), "{err:?}");
    assert!(best.record("0.ron", 50).unwrap().new_best);
    assert_eq!(best.len(), MAX_LEVELS);
}

#[test]
fn a_full_table_of_the_longest_names_saves_to_a_file_that_loads() {
    let store = Store::at(scratch("full"));
    let (mut best, _) = BestTimes::load(&store);
    for i in 0..MAX_LEVELS {
        // Quotes and backslashes double when escaped: the longest possible lines.
        let name = format!("{i:04}{}", "\"\\".repeat((MAX_NAME_BYTES - 4) / 2));
        best.record(&name, game::player_data::MAX_STEPS).unwrap();
    }
    best.save().unwrap();
    assert!(std::fs::metadata(store.path()).unwrap().len() <= MAX_FILE_BYTES);
    let (again, problem) = BestTimes::load(&store);
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(again.len(), MAX_LEVELS);
}

#[test]
fn lines_past_the_level_limit_are_reported() {
    let mut text = String::new();
    for i in 0..=MAX_LEVELS {
        text.push_str(&format!("\"{i}.ron\" = 1\n"));
    }
    let store = store_with("too-many", text.as_bytes());
    let (best, problem) = BestTimes::load(&store);
    assert_eq!(best.len(), MAX_LEVELS);
    match problem {
        Some(RecordsError::Damaged {
            skipped: 1, reason, ..
        }) => assert!(reason.contains("levels"), "{reason}"),
        other => panic!("expected Damaged, got {other:?}"),
    }
}

#[test]
fn in_memory_table_saves_nothing() {
    let mut best = BestTimes::in_memory();
    best.record("a.ron", 1).unwrap();
    assert!(best.save().is_ok());
}

/// Run by [`data_dir_env_var_is_honoured`] in a child process with the variable set: the
/// process environment is the real thing under test, and setting it in this process would race
/// the other tests.
#[test]
#[ignore = "run by data_dir_env_var_is_honoured with CRATE_ROOM_DATA_DIR set"]
fn child_saves_where_the_env_var_says() {
    // Under `--include-ignored` without the variable this would save into the real data
    // directory; the parent test is the one that checks anything.
    let Some(expected) = std::env::var_os(ENV_VAR) else {
        return;
    };
    let store = Store::locate().unwrap();
    assert_eq!(store.dir(), Path::new(&expected));
    let (mut best, problem) = BestTimes::open();
    assert!(problem.is_none(), "{problem:?}");
    best.record("env.ron", 42).unwrap();
    best.save().unwrap();
}

#[test]
fn data_dir_env_var_is_honoured() {
    let dir = scratch("env");
    let child = common::process::output_within(
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "records::child_saves_where_the_env_var_says",
                "--ignored",
            ])
            .env(ENV_VAR, &dir),
        common::process::TOOL_LIMIT,
    );
    // Captured, so the child's own test summary does not mix into this run's.
    assert!(
        child.status.success(),
        "{}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    let (best, problem) = BestTimes::load(&Store::at(&dir));
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(best.best("env.ron"), Some(42));
}

#[test]
fn a_fifo_in_place_of_the_file_is_an_error_not_a_hang() {
    let temp = TempDir::new("records-fifo");
    let dir = &temp.0;
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join(game::player_data::FILE_NAME))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo is not available");
        return;
    }
    let (best, problem) = game::player_data::BestTimes::load(&game::player_data::Store::at(dir));
    assert!(best.is_empty());
    let problem = problem.expect("reported").to_string();
    assert!(problem.contains("best_times.txt"), "{problem}");
}

#[test]
fn every_damaged_file_is_kept_numbered_up_to_a_bound() {
    let store = store_with("damaged-twice", b"first damage\n");
    for n in 1..=game::player_data::MAX_DAMAGED_FILES + 2 {
        let damage = format!("damage number {n}\n");
        std::fs::write(store.path(), &damage).unwrap();
        let (mut best, problem) = BestTimes::load(&store);
        assert!(problem.is_some());
        best.record("a.ron", 100 + n as u64).unwrap();
        best.save().unwrap();
        let kept: Vec<String> = std::fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|path| !path.ends_with(".best_times.lock"))
            .map(|path| std::fs::read_to_string(path).unwrap())
            .collect();
        assert!(kept.contains(&damage), "damage {n} is kept: {kept:?}");
        if n >= 2 {
            let previous = format!("damage number {}\n", n - 1);
            assert!(
                kept.contains(&previous),
                "damage {} is kept: {kept:?}",
                n - 1
            );
        }
        // The best-times file and at most MAX_DAMAGED_FILES damaged ones.
        assert!(
            kept.len() <= game::player_data::MAX_DAMAGED_FILES + 1,
            "{kept:?}"
        );
    }
    assert!(store.dir().join(DAMAGED_FILE_NAME).exists());
    assert!(store.dir().join("best_times.damaged.2.txt").exists());
}

#[test]
fn a_data_directory_that_is_a_file_is_named_as_such() {
    let dir = scratch("dir-is-file");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let (mut best, _) = BestTimes::load(&Store::at(&file));
    best.record("a.ron", 1).unwrap();
    let err = best.save().unwrap_err().to_string();
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn an_empty_data_dir_variable_counts_as_unset() {
    assert_eq!(
        Store::locate_with(Some("".into())).ok(),
        Store::locate_with(None).ok()
    );
}

//! `LevelWatcher` reports each settled save of the watched file once, however the editor saves.

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use game::level::{self, DEFAULT_SKINS, LevelWatcher};

const GOOD: &str = "(name: \"Good\", map: [\"#@c#\"])";
const BROKEN: &str = "(name: \"Broken\", map: [\"#@c#\"";

/// How long a reported change may take to show up.
const WITHIN: Duration = Duration::from_millis(500);

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "crate-room-watch-{test}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Poll until the watcher reports a change; how long that took, or `None` after `limit`.
fn wait_for_change(watcher: &mut LevelWatcher, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if watcher.poll() {
            return Some(started.elapsed());
        }
        sleep(Duration::from_millis(5));
    }
    None
}

/// How many changes the watcher reports while polling for `period`.
fn count_changes(watcher: &mut LevelWatcher, period: Duration) -> usize {
    let started = Instant::now();
    let mut count = 0;
    while started.elapsed() < period {
        count += usize::from(watcher.poll());
        sleep(Duration::from_millis(5));
    }
    count
}

fn watch(path: &Path) -> LevelWatcher {
    LevelWatcher::new(path).expect("watcher starts")
}

#[test]
fn plain_write_is_reported_once_within_half_a_second() {
    let dir = TempDir::new("plain");
    let path = dir.file("level.ron", GOOD);
    let mut watcher = watch(&path);
    assert!(!watcher.poll(), "nothing changed yet");
    dir.file("level.ron", GOOD);
    let took = wait_for_change(&mut watcher, WITHIN).expect("change reported");
    assert!(took < WITHIN, "{took:?}");
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(300)), 0);
}

#[test]
fn write_to_temp_then_rename_over_is_reported() {
    let dir = TempDir::new("rename");
    let path = dir.file("level.ron", GOOD);
    let mut watcher = watch(&path);
    let temp = dir.file(".level.ron.swp", GOOD);
    std::fs::rename(&temp, &path).expect("rename over");
    assert!(wait_for_change(&mut watcher, WITHIN).is_some());
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(300)), 0);
}

#[test]
fn burst_of_writes_is_reported_exactly_once_after_settling() {
    let dir = TempDir::new("burst");
    let path = dir.file("level.ron", GOOD);
    let mut watcher = watch(&path);
    let mut reported = 0;
    for _ in 0..8 {
        dir.file("level.ron", GOOD);
        // Polling during the burst must not report a half-saved file.
        reported += count_changes(&mut watcher, Duration::from_millis(20));
    }
    reported += count_changes(&mut watcher, Duration::from_millis(600));
    assert_eq!(reported, 1);
}

#[test]
fn broken_then_fixed_saves_are_each_reported() {
    let dir = TempDir::new("broken");
    let path = dir.file("level.ron", GOOD);
    let mut watcher = watch(&path);

    dir.file("level.ron", BROKEN);
    assert!(
        wait_for_change(&mut watcher, WITHIN).is_some(),
        "broken save"
    );
    let err = level::load(&path, &DEFAULT_SKINS).expect_err("broken");
    assert_eq!(err.message, "unexpected end of file");

    dir.file("level.ron", GOOD);
    assert!(
        wait_for_change(&mut watcher, WITHIN).is_some(),
        "fixed save"
    );
    assert!(level::load(&path, &DEFAULT_SKINS).is_ok());
    // Loading reads the file; reads are not changes.
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(300)), 0);
}

#[test]
fn other_files_in_the_directory_are_ignored() {
    let dir = TempDir::new("others");
    let path = dir.file("level.ron", GOOD);
    let mut watcher = watch(&path);
    dir.file("other.ron", GOOD);
    dir.file("level.ron.bak", GOOD);
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(300)), 0);
}

#[test]
fn set_file_switches_to_the_new_level() {
    let first_dir = TempDir::new("switch-a");
    let second_dir = TempDir::new("switch-b");
    let first = first_dir.file("one.ron", GOOD);
    let second = second_dir.file("two.ron", GOOD);
    let mut watcher = watch(&first);
    watcher.set_file(&second).expect("switch");
    assert_eq!(watcher.file(), second.canonicalize().expect("exists"));
    first_dir.file("one.ron", GOOD);
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(300)), 0);
    second_dir.file("two.ron", GOOD);
    assert!(wait_for_change(&mut watcher, WITHIN).is_some());
}

#[test]
fn set_file_within_the_same_directory_spelled_differently_keeps_watching() {
    let dir = TempDir::new("respell");
    let first = dir.file("one.ron", GOOD);
    dir.file("two.ron", GOOD);
    let mut watcher = watch(&first);
    let respelled = dir.0.join(".").join("two.ron");
    watcher.set_file(&respelled).expect("switch");
    dir.file("two.ron", GOOD);
    assert!(wait_for_change(&mut watcher, WITHIN).is_some());
}

#[test]
fn watching_in_a_missing_directory_is_an_error_not_a_panic() {
    let dir = TempDir::new("missing");
    let path = dir.0.join("no-such-dir").join("level.ron");
    let err = LevelWatcher::new(&path).expect_err("no directory");
    assert!(err.to_string().starts_with("cannot watch "), "{err}");
}

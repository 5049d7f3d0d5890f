//! `LevelWatcher` reports each settled save of the watched file once, however the editor saves
//! and even when the whole directory is replaced; `BackgroundLoader` reads saves off the
//! caller's thread, newest first.

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use game::level::watch::{BackgroundLoader, Loaded};
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
    watcher.set_file(&second);
    assert!(watcher.problem().is_none(), "{:?}", watcher.problem());
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
    watcher.set_file(&respelled);
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

fn loader() -> BackgroundLoader {
    BackgroundLoader::new(DEFAULT_SKINS.iter().map(|s| s.to_string()).collect())
        .expect("loader thread starts")
}

/// Poll until the loader hands over a result, or `None` after `limit`.
fn wait_for_load(loader: &mut BackgroundLoader, limit: Duration) -> Option<Loaded> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(loaded) = loader.poll() {
            return Some(loaded);
        }
        sleep(Duration::from_millis(5));
    }
    None
}

/// A level large enough that parsing it takes a while (about 1.5 MB of map).
fn big_level(dir: &TempDir) -> PathBuf {
    let text = level::generate(200_000, 1).expect("within the limit");
    dir.file("big.ron", &text)
}

#[test]
fn background_load_hands_over_the_level_without_blocking_the_caller() {
    let dir = TempDir::new("bg-load");
    let big = big_level(&dir);
    let mut loader = loader();
    let started = Instant::now();
    let generation = loader.request(&big);
    assert!(
        started.elapsed() < Duration::from_millis(50),
        "request returns at once"
    );
    assert!(loader.is_loading());
    assert!(loader.poll().is_none(), "a large level is not parsed yet");
    let loaded = wait_for_load(&mut loader, Duration::from_secs(60)).expect("loaded");
    assert_eq!(loaded.generation, generation);
    assert_eq!(loaded.path, big);
    assert_eq!(loaded.level.expect("valid").crates.len(), 200_000);
    assert!(!loader.is_loading());
    assert!(loader.poll().is_none(), "handed over once");
}

#[test]
fn background_load_of_a_broken_save_hands_over_its_error() {
    let dir = TempDir::new("bg-broken");
    let path = dir.file("level.ron", BROKEN);
    let mut loader = loader();
    loader.request(&path);
    let loaded = wait_for_load(&mut loader, Duration::from_secs(10)).expect("loaded");
    assert_eq!(
        loaded.level.expect_err("broken").message,
        "unexpected end of file"
    );
}

#[test]
fn newer_save_supersedes_an_older_one_still_being_parsed() {
    let dir = TempDir::new("bg-supersede");
    let big = big_level(&dir);
    let small = dir.file("small.ron", GOOD);
    let mut loader = loader();
    loader.request(&big);
    // Give the worker time to start on the big file, then queue two more: the middle one is
    // skipped, the big one's result dropped.
    sleep(Duration::from_millis(20));
    loader.request(&big);
    let newest = loader.request(&small);
    let loaded = wait_for_load(&mut loader, Duration::from_secs(60)).expect("loaded");
    assert_eq!((loaded.generation, &loaded.path), (newest, &small));
    assert_eq!(loaded.level.expect("valid").name, "Good");
    // Nothing older turns up later.
    assert!(wait_for_load(&mut loader, Duration::from_millis(300)).is_none());
}

#[test]
fn cancel_drops_the_result_of_a_load_under_way() {
    let dir = TempDir::new("bg-cancel");
    let path = dir.file("level.ron", GOOD);
    let mut loader = loader();
    loader.request(&path);
    loader.cancel();
    assert!(!loader.is_loading());
    assert!(wait_for_load(&mut loader, Duration::from_millis(300)).is_none());
}

/// A fresh scratch folder (`test` names it) with a directory `levels` holding `level.ron`
/// (`GOOD`), watched: the folder, the directory, the level's path and its watcher.
fn watched_levels_dir(test: &str) -> (TempDir, PathBuf, PathBuf, LevelWatcher) {
    let root = TempDir::new(test);
    let levels = root.0.join("levels");
    std::fs::create_dir(&levels).expect("mkdir");
    let path = levels.join("level.ron");
    std::fs::write(&path, GOOD).expect("write");
    let watcher = watch(&path);
    (root, levels, path, watcher)
}

#[test]
fn replacing_the_whole_directory_keeps_hot_reload_working() {
    let (root, levels, path, mut watcher) = watched_levels_dir("replace-dir");

    // Swap in a new directory holding a new version, as `git checkout` or some editors do.
    let staged = root.0.join("levels.new");
    std::fs::create_dir(&staged).expect("mkdir");
    std::fs::write(staged.join("level.ron"), BROKEN).expect("write");
    std::fs::rename(&levels, root.0.join("levels.old")).expect("move away");
    std::fs::rename(&staged, &levels).expect("move in");
    assert!(
        wait_for_change(&mut watcher, Duration::from_secs(2)).is_some(),
        "the replacement is a change"
    );
    assert!(watcher.problem().is_none(), "{:?}", watcher.problem());

    // Saves into the new directory are noticed; saves into the old one are not.
    std::fs::write(root.0.join("levels.old").join("level.ron"), BROKEN).expect("write");
    assert_eq!(count_changes(&mut watcher, Duration::from_millis(400)), 0);
    std::fs::write(&path, GOOD).expect("write");
    assert!(
        wait_for_change(&mut watcher, WITHIN).is_some(),
        "save in the new directory"
    );
}

#[test]
fn removed_directory_is_reported_until_it_is_back_then_watched_again() {
    let (_root, levels, path, mut watcher) = watched_levels_dir("remove-dir");

    std::fs::remove_dir_all(&levels).expect("remove");
    let started = Instant::now();
    while watcher.problem().is_none() && started.elapsed() < Duration::from_secs(2) {
        watcher.poll();
        sleep(Duration::from_millis(5));
    }
    let problem = watcher
        .problem()
        .expect("the removal is reported")
        .to_string();
    assert!(
        problem.contains("levels") && problem.contains("is gone"),
        "{problem}"
    );

    // Made again at once, with the file: it may even get the old inode number back.
    std::fs::create_dir(&levels).expect("mkdir");
    std::fs::write(&path, GOOD).expect("write");
    assert!(wait_for_change(&mut watcher, Duration::from_secs(2)).is_some());
    assert!(watcher.problem().is_none(), "{:?}", watcher.problem());
    std::fs::write(&path, BROKEN).expect("write");
    assert!(
        wait_for_change(&mut watcher, WITHIN).is_some(),
        "watched again"
    );
}

#[test]
fn directory_removed_and_made_again_between_polls_is_watched_again() {
    let (_root, levels, path, mut watcher) = watched_levels_dir("remake-dir");
    // No poll in between: the new directory can have the old one's inode number.
    std::fs::remove_dir_all(&levels).expect("remove");
    std::fs::create_dir(&levels).expect("mkdir");
    std::fs::write(&path, GOOD).expect("write");
    assert!(wait_for_change(&mut watcher, Duration::from_secs(2)).is_some());
    std::fs::write(&path, BROKEN).expect("write");
    assert!(
        wait_for_change(&mut watcher, WITHIN).is_some(),
        "watched again"
    );
}

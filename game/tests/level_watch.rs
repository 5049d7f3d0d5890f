//! `LevelWatcher` reports each settled save of the watched file once, however the editor saves
//! and even when the whole directory is replaced.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use game::level::watch::{Clock, DIR_CHECK, ManualClock, QUIET};
use game::level::{self, DEFAULT_SKINS, LevelWatcher};

const GOOD: &str = "(name: \"Good\", map: [\"#@c#\"])";
const BROKEN: &str = "(name: \"Broken\", map: [\"#@c#\"";

/// How long the file system may take to deliver an event, however loaded the machine: only a
/// deadline for a test that would otherwise wait for ever, never a measure of anything.
const DEADLINE: Duration = Duration::from_secs(60);

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

/// A watcher on a clock that moves only when the test moves it.
struct Watched {
    watcher: LevelWatcher,
    clock: ManualClock,
}

impl Watched {
    fn new(path: &Path) -> Self {
        let clock = ManualClock::new();
        let watcher =
            LevelWatcher::with_clock(path, Clock::Manual(clock.clone())).expect("watcher starts");
        Watched { watcher, clock }
    }

    /// Poll until `done` holds, failing with `what` after [`DEADLINE`]; the clock stands still.
    /// How many changes were reported meanwhile.
    fn poll_until(&mut self, what: &str, done: impl Fn(&LevelWatcher) -> bool) -> usize {
        let started = Instant::now();
        let mut reported = 0;
        loop {
            reported += usize::from(self.watcher.poll());
            if done(&self.watcher) {
                return reported;
            }
            assert!(
                started.elapsed() < DEADLINE,
                "{what}: not within {DEADLINE:?}"
            );
            std::thread::yield_now();
        }
    }

    /// Wait until every event of what the test did so far has been received: write a marker
    /// file into the watched directory and poll until its event arrives (events come in
    /// order). How many changes were reported meanwhile (none, unless the clock was moved).
    fn settle(&mut self) -> usize {
        static MARKERS: AtomicUsize = AtomicUsize::new(0);
        let name = format!("marker-{}", MARKERS.fetch_add(1, Ordering::Relaxed));
        let dir = self
            .watcher
            .file()
            .parent()
            .expect("a directory")
            .to_owned();
        std::fs::write(dir.join(&name), "").expect("write marker");
        self.poll_until(&format!("the event of {name}"), |w| {
            w.latest_event_file()
                .is_some_and(|f| f.to_str() == Some(name.as_str()))
        })
    }

    /// Let the quiet period pass; whether a change was reported.
    fn after_quiet(&mut self) -> bool {
        self.clock.advance(QUIET);
        self.watcher.poll()
    }

    /// Settle, then let the quiet period pass: whether a change is reported (once).
    fn reports_a_change(&mut self) -> bool {
        assert_eq!(self.settle(), 0, "reported before the quiet period passed");
        let reported = self.after_quiet();
        assert!(!self.watcher.poll(), "reported twice");
        reported
    }
}

#[test]
fn plain_write_is_reported_once_after_the_quiet_period() {
    let dir = TempDir::new("plain");
    let path = dir.file("level.ron", GOOD);
    let mut w = Watched::new(&path);
    assert!(!w.watcher.poll(), "nothing changed yet");
    dir.file("level.ron", GOOD);
    assert_eq!(w.settle(), 0);
    assert!(w.watcher.is_settling(), "the write was noticed");
    w.clock.advance(QUIET - Duration::from_millis(1));
    assert!(!w.watcher.poll(), "not before the quiet period is over");
    w.clock.advance(Duration::from_millis(1));
    assert!(
        w.watcher.poll(),
        "reported once the file was quiet for {QUIET:?}"
    );
    assert!(!w.watcher.poll(), "reported once");
    assert!(!w.reports_a_change(), "nothing more to report");
}

#[test]
fn write_to_temp_then_rename_over_is_reported() {
    let dir = TempDir::new("rename");
    let path = dir.file("level.ron", GOOD);
    let mut w = Watched::new(&path);
    let temp = dir.file(".level.ron.swp", GOOD);
    std::fs::rename(&temp, &path).expect("rename over");
    assert!(w.reports_a_change());
    assert!(!w.reports_a_change());
}

#[test]
fn burst_of_writes_is_reported_exactly_once_after_settling() {
    let dir = TempDir::new("burst");
    let path = dir.file("level.ron", GOOD);
    let mut w = Watched::new(&path);
    for _ in 0..8 {
        dir.file("level.ron", GOOD);
        // Polling during the burst must not report a half-saved file: each write starts the
        // quiet period again, although the burst lasts longer than one.
        assert_eq!(w.settle(), 0);
        w.clock.advance(QUIET / 5);
        assert!(!w.watcher.poll(), "reported during the burst");
    }
    assert!(w.after_quiet(), "reported after the burst");
    assert!(!w.reports_a_change(), "reported once");
}

#[test]
fn broken_then_fixed_saves_are_each_reported() {
    let dir = TempDir::new("broken");
    let path = dir.file("level.ron", GOOD);
    let mut w = Watched::new(&path);

    dir.file("level.ron", BROKEN);
    assert!(w.reports_a_change(), "broken save");
    let err = level::load(&path, &DEFAULT_SKINS).expect_err("broken");
    assert_eq!(err.message, "unexpected end of file");

    dir.file("level.ron", GOOD);
    assert!(w.reports_a_change(), "fixed save");
    assert!(level::load(&path, &DEFAULT_SKINS).is_ok());
    // Loading reads the file; reads are not changes.
    assert!(!w.reports_a_change());
}

#[test]
fn other_files_in_the_directory_are_ignored() {
    let dir = TempDir::new("others");
    let path = dir.file("level.ron", GOOD);
    let mut w = Watched::new(&path);
    dir.file("other.ron", GOOD);
    dir.file("level.ron.bak", GOOD);
    assert_eq!(w.settle(), 0);
    assert!(!w.watcher.is_settling(), "another file counted as a change");
    assert!(!w.after_quiet());
}

#[test]
fn set_file_switches_to_the_new_level() {
    let first_dir = TempDir::new("switch-a");
    let second_dir = TempDir::new("switch-b");
    let first = first_dir.file("one.ron", GOOD);
    let second = second_dir.file("two.ron", GOOD);
    let mut w = Watched::new(&first);
    w.watcher.set_file(&second);
    assert!(w.watcher.problem().is_none(), "{:?}", w.watcher.problem());
    assert_eq!(w.watcher.file(), second.canonicalize().expect("exists"));
    first_dir.file("one.ron", GOOD);
    assert!(!w.reports_a_change(), "the old level is not watched");
    second_dir.file("two.ron", GOOD);
    assert!(w.reports_a_change());
}

#[test]
fn set_file_within_the_same_directory_spelled_differently_keeps_watching() {
    let dir = TempDir::new("respell");
    let first = dir.file("one.ron", GOOD);
    dir.file("two.ron", GOOD);
    let mut w = Watched::new(&first);
    let respelled = dir.0.join(".").join("two.ron");
    w.watcher.set_file(&respelled);
    dir.file("two.ron", GOOD);
    assert!(w.reports_a_change());
}

#[test]
fn watching_in_a_missing_directory_is_an_error_not_a_panic() {
    let dir = TempDir::new("missing");
    let path = dir.0.join("no-such-dir").join("level.ron");
    let err = LevelWatcher::new(&path).expect_err("no directory");
    assert!(err.to_string().starts_with("cannot watch "), "{err}");
}

/// A fresh scratch folder (`test` names it) with a directory `levels` holding `level.ron`
/// (`GOOD`), watched: the folder, the directory, the level's path and its watcher.
fn watched_levels_dir(test: &str) -> (TempDir, PathBuf, PathBuf, Watched) {
    let root = TempDir::new(test);
    let levels = root.0.join("levels");
    std::fs::create_dir(&levels).expect("mkdir");
    let path = levels.join("level.ron");
    std::fs::write(&path, GOOD).expect("write");
    let watched = Watched::new(&path);
    (root, levels, path, watched)
}

#[test]
fn replacing_the_whole_directory_keeps_hot_reload_working() {
    let (root, levels, path, mut w) = watched_levels_dir("replace-dir");

    // Swap in a new directory holding a new version, as `git checkout` or some editors do.
    let staged = root.0.join("levels.new");
    std::fs::create_dir(&staged).expect("mkdir");
    std::fs::write(staged.join("level.ron"), BROKEN).expect("write");
    std::fs::rename(&levels, root.0.join("levels.old")).expect("move away");
    std::fs::rename(&staged, &levels).expect("move in");
    // The directory check notices the swap (or an event did already).
    w.clock.advance(DIR_CHECK);
    assert!(!w.watcher.poll(), "not before the quiet period");
    assert!(w.watcher.is_settling(), "the replacement is a change");
    assert!(w.after_quiet(), "the replacement is reported");
    assert!(w.watcher.problem().is_none(), "{:?}", w.watcher.problem());

    // Saves into the new directory are noticed; saves into the old one are not.
    std::fs::write(root.0.join("levels.old").join("level.ron"), BROKEN).expect("write");
    assert!(!w.reports_a_change(), "a save in the old directory");
    std::fs::write(&path, GOOD).expect("write");
    assert!(w.reports_a_change(), "save in the new directory");
}

#[test]
fn removed_directory_is_reported_until_it_is_back_then_watched_again() {
    let (_root, levels, path, mut w) = watched_levels_dir("remove-dir");

    std::fs::remove_dir_all(&levels).expect("remove");
    w.clock.advance(DIR_CHECK);
    w.watcher.poll();
    let problem = w
        .watcher
        .problem()
        .expect("the removal is reported")
        .to_string();
    assert!(
        problem.contains("levels") && problem.contains("is gone"),
        "{problem}"
    );
    assert!(!w.after_quiet(), "nothing to load while it is gone");

    // Made again at once, with the file: it may even get the old inode number back.
    std::fs::create_dir(&levels).expect("mkdir");
    std::fs::write(&path, GOOD).expect("write");
    w.clock.advance(DIR_CHECK);
    assert!(!w.watcher.poll());
    assert!(w.watcher.problem().is_none(), "{:?}", w.watcher.problem());
    assert!(w.after_quiet(), "its return is a change");
    std::fs::write(&path, BROKEN).expect("write");
    assert!(w.reports_a_change(), "watched again");
}

#[test]
fn directory_removed_and_made_again_between_polls_is_watched_again() {
    let (_root, levels, path, mut w) = watched_levels_dir("remake-dir");
    // No poll in between: the new directory can have the old one's inode number, so only the
    // removal's event tells the two apart.
    std::fs::remove_dir_all(&levels).expect("remove");
    std::fs::create_dir(&levels).expect("mkdir");
    std::fs::write(&path, GOOD).expect("write");
    w.poll_until("the removal's event", |w| {
        w.latest_event_file().is_some_and(|f| f == "levels")
    });
    assert!(w.watcher.problem().is_none(), "{:?}", w.watcher.problem());
    assert!(w.after_quiet(), "the new directory is a change");
    std::fs::write(&path, BROKEN).expect("write");
    assert!(w.reports_a_change(), "watched again");
}

//! Noticing that the level file being played was saved ([`LevelWatcher`]). The saved file is
//! made ready to play off the frame thread by [`crate::background_loader`].
//!
//! Editors rarely write a file in place: many write a temporary file and rename it over the
//! original, which replaces the inode a file watch would be attached to. So [`LevelWatcher`]
//! watches the *directory* holding the level and filters events by file name. A save arrives as
//! a burst of events (create, several writes, close, rename); the watcher reports it once, after
//! the file has been quiet for [`QUIET`].
//!
//! ```text
//! events:  c w w w   r                     (c create, w write, r rename)
//! time:    |-------------|-- QUIET --|
//! poll():  false ...  false          true   false ...
//! ```
//!
//! The same trouble one level up: some tools (and `git checkout`, switching branches) replace the
//! whole directory, and the watch stays on the old one, which no longer receives saves. So the
//! watcher also checks every [`DIR_CHECK`] that the directory's path still names the directory
//! it watches. If not, it watches the new one and reports a change; while the path names nothing,
//! [`LevelWatcher::problem`] says so, and watching resumes when it is back.
//!
//! Time comes from a [`Clock`]: the system's in the game, a [`ManualClock`] in tests, which
//! move it by hand and so never depend on how fast the machine is.

use std::ffi::OsStr;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long the file must stay untouched before a change is reported. Long enough to cover one
/// editor save, short enough that the game reacts well within half a second.
pub const QUIET: Duration = Duration::from_millis(100);

/// How often [`LevelWatcher::poll`] checks that the watched directory was not replaced: one
/// `stat` per check, and a replaced directory is noticed within half a second of it (with
/// [`QUIET`]).
pub const DIR_CHECK: Duration = Duration::from_millis(250);

/// Where a [`LevelWatcher`] reads the time: stamps its events and measures [`QUIET`] and
/// [`DIR_CHECK`] with it.
#[derive(Clone, Debug, Default)]
pub enum Clock {
    /// The system's monotonic clock.
    #[default]
    System,
    /// A clock that moves only when told to.
    Manual(ManualClock),
}

impl Clock {
    /// The time now, by this clock.
    pub fn now(&self) -> Instant {
        match self {
            Clock::System => Instant::now(),
            Clock::Manual(clock) => clock.now(),
        }
    }
}

/// A clock that stands still until [`advance`](Self::advance)d; clones share one time.
#[derive(Clone, Debug)]
pub struct ManualClock {
    start: Instant,
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock standing at the moment it was made.
    pub fn new() -> Self {
        ManualClock {
            start: Instant::now(),
            nanos: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Move the clock (and every clone of it) forward by `by`.
    pub fn advance(&self, by: Duration) {
        let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::AcqRel);
    }

    /// The time it stands at.
    pub fn now(&self) -> Instant {
        self.start + Duration::from_nanos(self.nanos.load(Ordering::Acquire))
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

/// Why hot reload could not start, or stopped; the game keeps running without it.
///
/// Each message carries its cause, so none is also given as a `source`.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("{} does not name a file to watch", .0.display())]
    NotAFile(PathBuf),
    #[error("cannot watch {} for changes: {error}", .dir.display())]
    Directory { dir: PathBuf, error: std::io::Error },
    #[error("cannot watch {} for changes: {error}", .dir.display())]
    Notify { dir: PathBuf, error: notify::Error },
    /// The directory was removed (or moved away) and nothing has taken its place yet.
    #[error("{} is gone; reloading resumes when it is back", .0.display())]
    Gone(PathBuf),
}

/// Watcher of one level file that reports each settled change once.
#[derive(Debug)]
pub struct LevelWatcher {
    watcher: RecommendedWatcher,
    events: Events,
    /// The level file as given, to find its directory again after it was replaced.
    given: PathBuf,
    /// Its directory, canonical: what `watcher` watches.
    dir: PathBuf,
    file_name: OsString,
    /// Identity of the directory `watcher` watches; `None` while the path names none.
    dir_id: Option<DirId>,
    /// When the directory was last checked.
    dir_checked: Instant,
    /// Why the file is not being watched right now, if it is not.
    problem: Option<WatchError>,
    /// Time of the latest relevant event not yet reported.
    last_change: Option<Instant>,
    /// The file name of the latest event received, relevant or not.
    latest_event: Option<OsString>,
    clock: Clock,
}

impl LevelWatcher {
    /// Start watching `file` (which need not exist yet; its directory must).
    pub fn new(file: &Path) -> Result<Self, WatchError> {
        Self::with_clock(file, Clock::System)
    }

    /// Start watching `file`, reading the time from `clock`.
    pub fn with_clock(file: &Path, clock: Clock) -> Result<Self, WatchError> {
        let (dir, file_name) = split(file)?;
        let dir_id = dir_id(&dir);
        let (watcher, events) = watch(&dir, &clock)?;
        Ok(LevelWatcher {
            watcher,
            events,
            given: file.to_path_buf(),
            dir,
            file_name,
            dir_id,
            dir_checked: clock.now(),
            problem: None,
            last_change: None,
            latest_event: None,
            clock,
        })
    }

    /// Switch to watching `file`, e.g. when the player moves to the next level. Changes to the
    /// previous file that were not reported yet are dropped.
    ///
    /// If `file`'s directory cannot be watched, [`problem`](Self::problem) says why, and the
    /// watcher tries again every [`DIR_CHECK`].
    pub fn set_file(&mut self, file: &Path) {
        self.given = file.to_path_buf();
        self.last_change = None;
        let switched = split(file).and_then(|(dir, file_name)| {
            if dir != self.dir || self.problem.is_some() {
                let (watcher, events) = watch(&dir, &self.clock)?;
                self.watcher = watcher;
                self.events = events;
                self.dir_id = dir_id(&dir);
                self.dir = dir;
            }
            self.file_name = file_name;
            Ok(())
        });
        while self.events.try_recv().is_ok() {}
        if let Err(e) = switched {
            self.dir_id = None;
            self.problem = Some(e);
        } else {
            self.problem = None;
        }
    }

    /// The file being watched, in its directory's canonical form.
    pub fn file(&self) -> PathBuf {
        self.dir.join(&self.file_name)
    }

    /// Why changes to the file are not being noticed right now (its directory is gone, or
    /// cannot be watched), if they are not. Clears itself once watching resumes.
    pub fn problem(&self) -> Option<&WatchError> {
        self.problem.as_ref()
    }

    /// Whether a change was noticed and waits for [`QUIET`] before it is reported.
    pub fn is_settling(&self) -> bool {
        self.last_change.is_some()
    }

    /// The name of the file the latest event received was about, relevant or not. Events
    /// arrive in the order the file system made them, so once a file made after others shows
    /// here, every event of the others has been received.
    pub fn latest_event_file(&self) -> Option<&OsStr> {
        self.latest_event.as_deref()
    }

    /// Whether the file changed and has since been quiet for [`QUIET`]. Never blocks; returns
    /// `true` once per settled change. Also notices, within [`DIR_CHECK`], that the directory
    /// was replaced: that counts as a change.
    pub fn poll(&mut self) -> bool {
        let mut dir_touched = false;
        let mut dir_replaced = false;
        while let Ok((at, event)) = self.events.try_recv() {
            if let Some(name) = event
                .as_ref()
                .ok()
                .and_then(|event| event.paths.last())
                .and_then(|path| path.file_name())
            {
                self.latest_event = Some(name.to_owned());
            }
            // An error from the OS (e.g. an overflowed event queue) may hide a change.
            let relevant = event.as_ref().map_or(true, |event| {
                is_content_change(&event.kind)
                    && event
                        .paths
                        .iter()
                        .any(|p| p.file_name() == Some(self.file_name.as_os_str()))
            });
            if relevant {
                self.last_change = Some(self.last_change.map_or(at, |last| last.max(at)));
            }
            if let Ok(event) = event
                && event.paths.contains(&self.dir)
            {
                dir_touched = true;
                // The watched directory itself was removed or moved away.
                dir_replaced |= matches!(
                    event.kind,
                    EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
                );
            }
        }
        if dir_replaced {
            // Forget its identity: a new directory made at once may reuse its inode number.
            self.dir_id = None;
        }
        let now = self.clock.now();
        if dir_touched || now.saturating_duration_since(self.dir_checked) >= DIR_CHECK {
            self.check_dir();
        }
        if matches!(self.problem, Some(WatchError::Gone(_))) {
            // Nothing to load; the directory's return will count as a change.
            self.last_change = None;
            return false;
        }
        match self.last_change {
            Some(last) if self.clock.now().saturating_duration_since(last) >= QUIET => {
                self.last_change = None;
                true
            }
            _ => false,
        }
    }

    /// Watch the directory anew if its path now names another one (or names one again).
    fn check_dir(&mut self) {
        self.dir_checked = self.clock.now();
        let dir = match self.given.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let now = dir_id(dir);
        if now.is_some() && now == self.dir_id && self.problem.is_none() {
            return;
        }
        if now.is_none() {
            self.dir_id = None;
            self.problem = Some(WatchError::Gone(self.dir.clone()));
            return;
        }
        let rewatched = split(&self.given).and_then(|(dir, file_name)| {
            let (watcher, events) = watch(&dir, &self.clock)?;
            Ok((dir, file_name, watcher, events))
        });
        match rewatched {
            Ok((dir, file_name, watcher, events)) => {
                self.watcher = watcher;
                self.events = events;
                self.dir_id = dir_id(&dir);
                self.dir = dir;
                self.file_name = file_name;
                self.problem = None;
                // The new directory's file may differ from the one last loaded.
                self.last_change = Some(self.clock.now());
            }
            Err(e) => {
                self.dir_id = None;
                self.problem = Some(e);
            }
        }
    }
}

/// Events of a directory watch, stamped with their arrival.
type Events = Receiver<(Instant, notify::Result<Event>)>;

/// A watcher of `dir` and the channel of its events.
fn watch(dir: &Path, clock: &Clock) -> Result<(RecommendedWatcher, Events), WatchError> {
    let (sender, events) = mpsc::channel();
    let clock = clock.clone();
    // Events are stamped on arrival so debouncing does not depend on how often `poll` runs.
    let handler = move |event: notify::Result<Event>| {
        // The receiver is gone only when the watcher is being dropped.
        let _ = sender.send((clock.now(), event));
    };
    let notify_error = |error| WatchError::Notify {
        dir: dir.to_path_buf(),
        error,
    };
    let mut watcher = notify::recommended_watcher(handler).map_err(notify_error)?;
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .map_err(notify_error)?;
    Ok((watcher, events))
}

/// What tells one directory from another that took its path.
type DirId = (u64, u64);

/// The identity of the directory at `dir` (following symlinks), or `None` if there is none.
fn dir_id(dir: &Path) -> Option<DirId> {
    let metadata = std::fs::metadata(dir)
        .ok()
        .filter(std::fs::Metadata::is_dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    // Elsewhere only a directory's absence and return are noticed.
    #[cfg(not(unix))]
    {
        let _ = metadata;
        Some((0, 0))
    }
}

/// Everything but reads: the game's own loading opens and closes the file, which must not
/// trigger another reload.
fn is_content_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

fn split(file: &Path) -> Result<(PathBuf, OsString), WatchError> {
    let file_name = file
        .file_name()
        .ok_or_else(|| WatchError::NotAFile(file.to_owned()))?
        .to_owned();
    let dir = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // Canonical, so that `levels` and `./levels` are recognised as one directory when switching
    // files.
    let dir = std::fs::canonicalize(dir).map_err(|error| WatchError::Directory {
        dir: dir.to_owned(),
        error,
    })?;
    Ok((dir, file_name))
}

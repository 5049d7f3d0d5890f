//! Hot reload: noticing that the level file being played was saved.
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

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long the file must stay untouched before a change is reported. Long enough to cover one
/// editor save, short enough that the game reacts well within half a second.
pub const QUIET: Duration = Duration::from_millis(100);

/// Why hot reload could not start; the game keeps running without it.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("{} does not name a file to watch", .0.display())]
    NotAFile(PathBuf),
    #[error("cannot watch {} for changes: {source}", .dir.display())]
    Directory {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot watch {} for changes: {source}", .dir.display())]
    Notify {
        dir: PathBuf,
        #[source]
        source: notify::Error,
    },
}

/// Watcher of one level file that reports each settled change once.
#[derive(Debug)]
pub struct LevelWatcher {
    watcher: RecommendedWatcher,
    events: Receiver<(Instant, notify::Result<Event>)>,
    dir: PathBuf,
    file_name: OsString,
    /// Time of the latest relevant event not yet reported.
    last_change: Option<Instant>,
}

impl LevelWatcher {
    /// Start watching `file` (which need not exist yet; its directory must).
    pub fn new(file: &Path) -> Result<Self, WatchError> {
        let (dir, file_name) = split(file)?;
        let (sender, events) = mpsc::channel();
        // Events are stamped on arrival so debouncing does not depend on how often `poll` runs.
        let handler = move |event: notify::Result<Event>| {
            // The receiver is gone only when the watcher is being dropped.
            let _ = sender.send((Instant::now(), event));
        };
        let mut watcher =
            notify::recommended_watcher(handler).map_err(|source| WatchError::Notify {
                dir: dir.clone(),
                source,
            })?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|source| WatchError::Notify {
                dir: dir.clone(),
                source,
            })?;
        Ok(LevelWatcher {
            watcher,
            events,
            dir,
            file_name,
            last_change: None,
        })
    }

    /// Switch to watching `file`, e.g. when the player moves to the next level. Changes to the
    /// previous file that were not reported yet are dropped.
    pub fn set_file(&mut self, file: &Path) -> Result<(), WatchError> {
        let (dir, file_name) = split(file)?;
        if dir != self.dir {
            self.watcher
                .watch(&dir, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError::Notify {
                    dir: dir.clone(),
                    source,
                })?;
            // The old directory may be gone already; nothing to undo then.
            let _ = self.watcher.unwatch(&self.dir);
            self.dir = dir;
        }
        self.file_name = file_name;
        while self.events.try_recv().is_ok() {}
        self.last_change = None;
        Ok(())
    }

    /// The file being watched, in its directory's canonical form.
    pub fn file(&self) -> PathBuf {
        self.dir.join(&self.file_name)
    }

    /// Whether the file changed and has since been quiet for [`QUIET`]. Never blocks; returns
    /// `true` once per settled change.
    pub fn poll(&mut self) -> bool {
        while let Ok((at, event)) = self.events.try_recv() {
            // An error from the OS (e.g. an overflowed event queue) may hide a change.
            let relevant = event.map_or(true, |event| {
                is_content_change(&event.kind)
                    && event
                        .paths
                        .iter()
                        .any(|p| p.file_name() == Some(self.file_name.as_os_str()))
            });
            if relevant {
                self.last_change = Some(self.last_change.map_or(at, |last| last.max(at)));
            }
        }
        match self.last_change {
            Some(last) if last.elapsed() >= QUIET => {
                self.last_change = None;
                true
            }
            _ => false,
        }
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
    // files (unwatching one spelling would otherwise drop the watch on both).
    let dir = std::fs::canonicalize(dir).map_err(|source| WatchError::Directory {
        dir: dir.to_owned(),
        source,
    })?;
    Ok((dir, file_name))
}

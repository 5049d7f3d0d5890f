//! Best times per level, kept in a small text file in the player's data directory.
//!
//! The file is `best_times.txt` in the folder [`Store::locate`] finds: `$CRATE_ROOM_DATA_DIR`
//! when that is set (tests and CI point it at a scratch folder so they never touch the real
//! home), otherwise the platform's data directory for `crate-room` (on Linux
//! `$XDG_DATA_HOME/crate-room` or `~/.local/share/crate-room`). One level per line, keyed by the
//! level's file name, the time in simulation steps (60 per second) and, as a comment for people,
//! the same time on a clock:
//!
//! ```text
//! # Crate Room best times: "level file" = steps (60 steps per second)
//! "crate_room.ron" = 5421  # 1:30.35
//! ```
//!
//! Steps rather than seconds because they are what the deterministic simulation counts: a replay
//! of the same input clears in the same number of steps, whatever the frame rate.
//!
//! # Failure never stops the game
//! Nothing here panics on anything the file system or the file's contents can do; every problem
//! is a [`RecordsError`] value naming the path and what to do. The caller shows each error it
//! gets once and keeps playing:
//! - [`BestTimes::load`] of a missing file is an empty table and no error (the first run).
//! - An unreadable, oversized or damaged file still gives a table (empty, or the lines that
//!   parsed) together with the error. Loading never writes.
//! - A missing file while a damaged copy of it is kept is reported ([`RecordsError::Missing`]).
//! - The file on disk is left exactly as it is until [`BestTimes::save`] succeeds, which the
//!   caller does after a new best. A save reads the file again under a lock and merges this
//!   game's times into it, keeping the faster time of each level, so two games sharing the
//!   folder never undo each other's bests. If the file on disk has problems, the save first
//!   keeps it as `best_times.damaged.txt`, or `best_times.damaged.2.txt` and so on when that
//!   is taken, so a hand edit gone wrong is never lost silently. At most [`MAX_DAMAGED_FILES`]
//!   are kept: past that the oldest is replaced. (`datafile` has the steps, for every data
//!   file.)
//! - Saves go through [`crate::fsutil::write_atomic`]: a temporary file in the same folder,
//!   synced, then renamed over the old one, so a crash mid-save leaves the old file or the new
//!   one, never half of either.
//! - A time is a whole number of steps from 1 to [`MAX_STEPS`]; anything else in the file is a
//!   damaged line, and [`BestTimes::record`] refuses it, so sums of times never overflow.
//! - An unwritable folder makes [`BestTimes::save`] return [`RecordsError::Write`]; the table in
//!   memory keeps working for the session.
//!
//! ```
//! use game::player_data::{BestTimes, Store};
//!
//! let dir = std::env::temp_dir().join(format!("crate-room-doc-{}", std::process::id()));
//! let store = Store::at(&dir);
//! let (mut best, problem) = BestTimes::load(&store);
//! assert!(problem.is_none() && best.best("crate_room.ron").is_none());
//!
//! let first = best.record("crate_room.ron", 5421).unwrap();
//! assert!(first.new_best && first.previous.is_none());
//! let slower = best.record("crate_room.ron", 6000).unwrap();
//! assert!(!slower.new_best && slower.previous == Some(5421));
//! best.save().unwrap();
//!
//! let (again, _) = BestTimes::load(&store);
//! assert_eq!(again.best("crate_room.ron"), Some(5421));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub(crate) mod datafile;
pub mod progress;
pub mod settings;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use crate::fsutil::BoundedReadError;
use crate::level::escape_for_display;
use crate::sim::STEPS_PER_SECOND;
use datafile::shown;

/// Environment variable that, when set to a non-empty path, is used as the data directory.
pub const ENV_VAR: &str = "CRATE_ROOM_DATA_DIR";

/// The data directory [`ENV_VAR`] names: `None` when it is unset or set but empty. The one
/// reading of the variable, so that every part of the game treats an empty value alike.
///
/// In a browser the page's storage is the data directory of every run, scripted or not
/// (`fsutil::in_memory`'s `data/`).
pub fn env_data_dir() -> Option<PathBuf> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    return Some(Path::new(crate::fsutil::in_memory::ROOT).join("data"));
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    non_empty(std::env::var_os(ENV_VAR))
}

fn non_empty(value: Option<OsString>) -> Option<PathBuf> {
    value.filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Name of the best-times file inside the data directory.
pub const FILE_NAME: &str = "best_times.txt";

/// Name a damaged best-times file is moved to by the first save after loading it (later ones
/// are numbered: `best_times.damaged.2.txt`, ...).
pub const DAMAGED_FILE_NAME: &str = "best_times.damaged.txt";

pub use datafile::MAX_DAMAGED_FILES;

/// The file's name without `.txt`.
const FILE_STEM: &str = "best_times";

/// Longest best time kept, in steps: a day at 60 steps a second, 5,184,000. A run that long is
/// not a best time anyone will beat; a sum of [`MAX_LEVELS`] of them is far from overflowing.
pub const MAX_STEPS: u64 = 24 * 60 * 60 * STEPS_PER_SECOND as u64;

/// Largest file [`BestTimes::load`] reads; a bigger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Most levels a table holds.
pub const MAX_LEVELS: usize = 1024;

/// Longest level name, in bytes (the common file-name limit).
///
/// With quotes and escapes a line is at most about `2 * 255 + 50` bytes, so a full table of
/// [`MAX_LEVELS`] lines (~570 KiB) always fits under [`MAX_FILE_BYTES`]: a saved file is
/// never one that loading would refuse.
pub const MAX_NAME_BYTES: usize = 255;

const HEADER: &str = "# Crate Room best times: \"level file\" = steps (60 steps per second)\n\
     # Written by the game; a line it cannot read is skipped and reported, not fatal.\n";

/// A problem finding, reading or writing best times. Each names the file and what to do.
///
/// The I/O error is part of the message (and not a [`source`](std::error::Error::source)), so
/// showing `to_string()` once is enough.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// The platform reports no home directory and [`ENV_VAR`] is not set.
    #[error(
        "cannot find a data directory for best times (no home directory); set {ENV_VAR} to a writable folder to keep them"
    )]
    NoDataDir,
    /// The file exists but could not be read.
    #[error(
        "cannot read best times from {}: {}; best times start empty, and {}",
        shown(.path), escape_for_display(&.error.to_string()), datafile::next_save(.error)
    )]
    Read {
        /// The best-times file.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`] and was not read.
    #[error(
        "{} is over {limit} bytes, too large for a best-times file, and was not read; best times start empty, and the next save keeps a copy of the file aside",
        shown(.path)
    )]
    TooLarge {
        /// The best-times file.
        path: PathBuf,
        /// [`MAX_FILE_BYTES`].
        limit: u64,
    },
    /// Some lines could not be read; the others were kept.
    #[error(
        "{}:{first_line}: {}; skipped {skipped} unreadable line(s), kept {kept} best time(s); the next save keeps the file as {DAMAGED_FILE_NAME} (or a numbered copy)",
        shown(.path), escape_for_display(.reason)
    )]
    Damaged {
        /// The best-times file.
        path: PathBuf,
        /// How many lines were skipped.
        skipped: usize,
        /// 1-based number of the first skipped line.
        first_line: usize,
        /// What is wrong with the first skipped line.
        reason: String,
        /// How many levels were read.
        kept: usize,
    },
    /// The file could not be written (or the damaged one kept).
    #[error(
        "cannot save best times to {}: {}{}",
        shown(.path), escape_for_display(&.error.to_string()), datafile::write_hint(.error)
    )]
    Write {
        /// The file or folder the failing operation was on.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
    /// The file is missing while a damaged copy of it is kept.
    #[error(
        "{} is missing, but {} holds an earlier, damaged copy of it; best times start empty (copy lines back from the damaged copy to keep them)",
        shown(.path), shown(.damaged)
    )]
    Missing {
        /// The best-times file.
        path: PathBuf,
        /// The newest damaged copy.
        damaged: PathBuf,
    },
    /// A time out of range given to [`BestTimes::record`].
    #[error("cannot record a best time of {steps} steps: a time is from 1 to {MAX_STEPS} steps")]
    BadTime {
        /// The time given.
        steps: u64,
    },
    /// The level name cannot be a key: empty, too long, holding control characters, or not
    /// UTF-8.
    #[error("cannot record a best time for level \"{}\": {reason}", escape_for_display(.name))]
    BadLevelName {
        /// The name given to [`BestTimes::record`].
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// The table already holds [`MAX_LEVELS`] other levels.
    #[error(
        "cannot record a best time for level \"{}\": best times already hold {MAX_LEVELS} levels", escape_for_display(.name)
    )]
    TableFull {
        /// The name given to [`BestTimes::record`].
        name: String,
    },
}

/// Where best times live: a folder holding [`FILE_NAME`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Find the data directory: `$CRATE_ROOM_DATA_DIR` if set and non-empty, otherwise the
    /// platform's data directory for `crate-room`. Creates nothing.
    ///
    /// # Errors
    /// [`RecordsError::NoDataDir`] when the variable is unset and the platform has no home
    /// directory.
    pub fn locate() -> Result<Self, RecordsError> {
        Self::locate_with(std::env::var_os(ENV_VAR))
    }

    /// [`locate`](Self::locate) with the value of [`ENV_VAR`] given rather than read, so the rule
    /// can be tested without touching the process environment.
    ///
    /// # Errors
    /// [`RecordsError::NoDataDir`], as for [`locate`](Self::locate).
    pub fn locate_with(env_value: Option<OsString>) -> Result<Self, RecordsError> {
        if let Some(dir) = non_empty(env_value) {
            return Ok(Self::at(dir));
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        return Ok(Self::at(
            Path::new(crate::fsutil::in_memory::ROOT).join("data"),
        ));
        // WASI (the headless core under Node.js) has no home folder to look up.
        #[cfg(all(target_arch = "wasm32", not(target_os = "unknown")))]
        return Err(RecordsError::NoDataDir);
        #[cfg(not(target_arch = "wasm32"))]
        directories::ProjectDirs::from("", "", "crate-room")
            .map(|p| Self::at(p.data_dir()))
            .ok_or(RecordsError::NoDataDir)
    }

    /// A store in `dir` (which need not exist yet; the first save creates it).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The best-times file, `dir/best_times.txt`.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }
}

/// The files the game keeps in its data folder, without `.txt`: the best times, the campaign's
/// progress and the settings.
pub const DATA_FILE_STEMS: [&str; 3] = [FILE_STEM, progress::FILE_STEM, settings::FILE_STEM];

/// Whether `output` names one of the game's own files in `store`'s folder (a data file, one
/// of its damaged copies or its lock), however the path spells it: such a file is the
/// player's, never a place for a replay or a screenshot.
pub fn is_data_file(store: &Store, output: &Path) -> bool {
    let Some(name) = output.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let ours = DATA_FILE_STEMS.iter().any(|stem| {
        name == format!("{stem}.txt")
            || name == format!(".{stem}.lock")
            || datafile::damaged_names(Path::new(""), stem).any(|d| d.as_os_str() == name)
    });
    let real = |path: &Path| {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        std::fs::canonicalize(dir).ok()
    };
    // A symbolic link (or a hard link) elsewhere that leads to a data file is one too.
    let same_inode = DATA_FILE_STEMS.iter().any(|stem| {
        let file = store.dir().join(format!("{stem}.txt"));
        crate::fsutil::check_not_input(output, [file.as_path()]).is_err()
    });
    same_inode || (ours && real(output).is_some_and(|dir| real(&store.path()) == Some(dir)))
}

/// What [`BestTimes::record`] made of a finished run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The run beat the previous best (or there was none); the table now holds it.
    pub new_best: bool,
    /// The best time before this run, in steps.
    pub previous: Option<u64>,
}

/// The best time of each level, in simulation steps, and where to save them.
#[derive(Clone, Debug)]
pub struct BestTimes {
    /// `None` for a table that is never saved ([`in_memory`](Self::in_memory)).
    store: Option<Store>,
    /// Sorted, so the file's order is stable and diffs between saves are small.
    times: BTreeMap<String, u64>,
}

impl BestTimes {
    /// Find the store and load from it: what the game calls at start-up.
    ///
    /// Without a data directory the table lives in memory only (saving does nothing), and the
    /// [`RecordsError::NoDataDir`] is returned once here.
    pub fn open() -> (Self, Option<RecordsError>) {
        match Store::locate() {
            Ok(store) => Self::load(&store),
            Err(e) => (Self::in_memory(), Some(e)),
        }
    }

    /// An empty table that [`save`](Self::save) never writes.
    pub fn in_memory() -> Self {
        Self {
            store: None,
            times: BTreeMap::new(),
        }
    }

    /// Load the best times in `store`. Never writes and never fails: a problem gives the table
    /// that could be read (possibly empty) together with the error to show the player once.
    ///
    /// A missing file is no problem (the first run). A file over [`MAX_FILE_BYTES`] is not read.
    /// Unreadable lines (bad syntax, a bad name, not UTF-8, past [`MAX_LEVELS`]) are skipped and
    /// counted in one [`RecordsError::Damaged`]. A level listed twice keeps the faster time.
    pub fn load(store: &Store) -> (Self, Option<RecordsError>) {
        let mut table = Self {
            store: Some(store.clone()),
            times: BTreeMap::new(),
        };
        let path = store.path();
        let bytes = match read_bounded(&path) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                let missing = datafile::newest_damaged(store.dir(), FILE_STEM)
                    .map(|damaged| RecordsError::Missing { path, damaged });
                return (table, missing);
            }
            Err(e) => return (table, Some(e)),
        };
        let (times, damage) = parse_table(&bytes);
        table.times = times;
        let error = damage.map(|damage| RecordsError::Damaged {
            path,
            skipped: damage.skipped,
            first_line: damage.first_line,
            reason: damage.reason,
            kept: table.times.len(),
        });
        (table, error)
    }

    /// The best time of `level` in steps, if it was ever cleared.
    pub fn best(&self, level: &str) -> Option<u64> {
        self.times.get(level).copied()
    }

    /// Every level with a best time, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.times.iter().map(|(k, &v)| (k.as_str(), v))
    }

    /// Number of levels with a best time.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether no level has a best time.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Record that `level` was cleared in `steps`; keep it if it beats the best. Only changes
    /// the table in memory: call [`save`](Self::save) when `new_best`.
    ///
    /// # Errors
    /// [`RecordsError::BadLevelName`] for a name that is empty, longer than
    /// [`MAX_NAME_BYTES`], holds control characters or U+FFFD (what a file name that is not
    /// UTF-8 shows as); [`RecordsError::TableFull`] for a new
    /// level when [`MAX_LEVELS`] others are held. The table is unchanged.
    pub fn record(&mut self, level: &str, steps: u64) -> Result<Outcome, RecordsError> {
        check_name(level).map_err(|reason| RecordsError::BadLevelName {
            name: level.to_owned(),
            reason,
        })?;
        if !(1..=MAX_STEPS).contains(&steps) {
            return Err(RecordsError::BadTime { steps });
        }
        let previous = self.best(level);
        if previous.is_none() && self.times.len() >= MAX_LEVELS {
            return Err(RecordsError::TableFull {
                name: level.to_owned(),
            });
        }
        let new_best = previous.is_none_or(|p| steps < p);
        if new_best {
            self.times.insert(level.to_owned(), steps);
        }
        Ok(Outcome { new_best, previous })
    }

    /// Write the table to its store atomically, creating the folder if needed, merged into
    /// the file as it is on disk now (the faster time of each level; this table then holds the
    /// merge). A file on disk with problems is first kept as [`DAMAGED_FILE_NAME`] (or a
    /// numbered name). Does nothing for an [`in_memory`](Self::in_memory) table.
    ///
    /// # Errors
    /// [`RecordsError::Write`] naming the path that failed; the file on disk is then unchanged.
    pub fn save(&mut self) -> Result<(), RecordsError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let mut merged = self.times.clone();
        datafile::save_merged(store.dir(), FILE_STEM, MAX_FILE_BYTES, |bytes| {
            let (disk, damage) = bytes.map_or_else(|| (BTreeMap::new(), None), parse_table);
            for (name, steps) in disk {
                let held = merged.len();
                match merged.get_mut(&name) {
                    Some(best) => *best = (*best).min(steps),
                    None if held < MAX_LEVELS => {
                        merged.insert(name, steps);
                    }
                    None => {}
                }
            }
            datafile::Merged {
                text: text_of(&merged),
                damaged: damage.is_some(),
            }
        })
        .map_err(|(path, error)| RecordsError::Write { path, error })?;
        self.times = merged;
        Ok(())
    }

    /// The file's text: the header, then one line per level in name order.
    pub fn to_text(&self) -> String {
        text_of(&self.times)
    }
}

/// The file's text for `times`.
fn text_of(times: &BTreeMap<String, u64>) -> String {
    let mut text = String::from(HEADER);
    for (name, &steps) in times {
        // Names passed check_name, so quoting only escapes `"` and `\`.
        let quoted = ron::to_string(name).unwrap_or_else(|_| format!("{name:?}"));
        let _ = writeln!(text, "{quoted} = {steps}  # {}", clock(steps));
    }
    text
}

/// The lines of a file that could not be read: how many, and the first one's number and why.
struct Damage {
    skipped: usize,
    first_line: usize,
    reason: String,
}

/// The table in a file's `bytes`: unreadable lines (bad syntax, a bad name or time, not UTF-8,
/// past [`MAX_LEVELS`]) are skipped and counted; a level listed twice keeps the faster time.
fn parse_table(bytes: &[u8]) -> (BTreeMap<String, u64>, Option<Damage>) {
    let mut times = BTreeMap::new();
    let mut skipped = 0;
    let mut first: Option<(usize, String)> = None;
    for (i, line) in crate::text_lines::byte_lines(bytes).enumerate() {
        let parsed = std::str::from_utf8(line)
            .map_err(|_| "not valid UTF-8".to_owned())
            .and_then(parse_line);
        let problem = match parsed {
            Ok(None) => continue,
            Ok(Some((name, steps))) => {
                let held = times.len();
                match times.get_mut(&name) {
                    Some(best) => {
                        *best = steps.min(*best);
                        continue;
                    }
                    None if held < MAX_LEVELS => {
                        times.insert(name, steps);
                        continue;
                    }
                    None => format!("more than {MAX_LEVELS} levels"),
                }
            }
            Err(reason) => reason,
        };
        skipped += 1;
        first.get_or_insert((i + 1, problem));
    }
    let damage = first.map(|(first_line, reason)| Damage {
        skipped,
        first_line,
        reason,
    });
    (times, damage)
}

/// `steps` as `m:ss.cc` (minutes, seconds, hundredths).
pub fn clock(steps: u64) -> String {
    let per_second = u64::from(STEPS_PER_SECOND);
    let hundredths = steps % per_second * 100 / per_second;
    let seconds = steps / per_second;
    format!("{}:{:02}.{hundredths:02}", seconds / 60, seconds % 60)
}

/// Why `name` cannot be a level key, if it cannot.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("the name is empty")
    } else if name.len() > MAX_NAME_BYTES {
        Err("the name is longer than 255 bytes")
    } else if name.chars().any(char::is_control) {
        Err("the name holds a control character")
    } else if name.contains(char::REPLACEMENT_CHARACTER) {
        // What a file name that is not UTF-8 becomes when shown: two such levels would share
        // one key, and one would lose its record to the other.
        Err(
            "the file name is not valid UTF-8 (or holds U+FFFD), so it could be taken for another \
             level's; rename the file",
        )
    } else {
        Ok(())
    }
}

/// One line: `Ok(None)` for a blank or comment line, the entry, or why it is unreadable.
fn parse_line(line: &str) -> Result<Option<(String, u64)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    // The name is a quoted string that may hold `=` or `#`; the steps after the last `=` cannot.
    let Some((name, rest)) = line.rsplit_once('=') else {
        return Err("expected `\"level file\" = steps`".to_owned());
    };
    let steps = rest.split_once('#').map_or(rest, |(s, _)| s).trim();
    let steps = steps
        .parse::<u64>()
        .ok()
        .filter(|s| (1..=MAX_STEPS).contains(s))
        .ok_or_else(|| {
            format!(
                "`{}` is not a whole number of steps from 1 to {MAX_STEPS}",
                escape_for_display(steps)
            )
        })?;
    let name = name.trim();
    if !name.starts_with('"') {
        return Err("the level name must be in double quotes".to_owned());
    }
    let name: String =
        ron::from_str(name).map_err(|_| format!("`{name}` is not a quoted level name"))?;
    check_name(&name)?;
    Ok(Some((name, steps)))
}

/// Read `path` if it exists: `Ok(None)` when it does not, at most [`MAX_FILE_BYTES`] otherwise.
fn read_bounded(path: &Path) -> Result<Option<Vec<u8>>, RecordsError> {
    let read_err = |error| RecordsError::Read {
        path: path.to_owned(),
        error,
    };
    match crate::fsutil::read_bounded(path, MAX_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(BoundedReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(BoundedReadError::Io(e)) => Err(read_err(e)),
        Err(BoundedReadError::TooLarge { .. }) => Err(RecordsError::TooLarge {
            path: path.to_owned(),
            limit: MAX_FILE_BYTES,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_shows_minutes_seconds_and_hundredths() {
        assert_eq!(clock(0), "0:00.00");
        assert_eq!(clock(5421), "1:30.35");
        assert_eq!(clock(60 * 60 * 61 + 59), "61:00.98");
    }

    #[test]
    fn lines_parse_with_comments_spaces_and_awkward_names() {
        assert_eq!(parse_line("  # comment"), Ok(None));
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(
            parse_line(r#""a = b #c.ron"=12#x"#),
            Ok(Some(("a = b #c.ron".to_owned(), 12)))
        );
        assert_eq!(
            parse_line(r#" "q\"uote.ron"  =  7  # 0:00.11 "#),
            Ok(Some(("q\"uote.ron".to_owned(), 7)))
        );
    }

    #[test]
    fn unreadable_lines_say_why() {
        for (line, why) in [
            ("crate_room.ron = 5", "double quotes"),
            (r#""crate_room.ron" 5"#, "expected"),
            (r#""crate_room.ron" = -5"#, "whole number"),
            (r#""crate_room.ron" = 99999999999999999999"#, "whole number"),
            (r#""unclosed = 5"#, "quoted level name"),
            (r#""" = 5"#, "empty"),
            (r#""tab\there" = 5"#, "control character"),
        ] {
            let err = parse_line(line).unwrap_err();
            assert!(err.contains(why), "{line:?}: {err}");
        }
    }

    #[test]
    fn every_recordable_name_survives_the_file() {
        let mut best = BestTimes::in_memory();
        let names = [
            "crate_room.ron",
            "a = b.ron",
            "# hash.ron",
            "q\"uo\\te.ron",
            " spaced .ron",
            "ünïcødé.ron",
        ];
        for (i, name) in names.iter().enumerate() {
            best.record(name, i as u64 + 1).unwrap();
        }
        let parsed: BTreeMap<String, u64> = best
            .to_text()
            .lines()
            .filter_map(|l| parse_line(l).unwrap())
            .collect();
        assert_eq!(parsed, best.times);
    }

    #[test]
    #[cfg(unix)]
    fn names_that_are_not_utf8_are_refused_rather_than_shared() {
        use std::os::unix::ffi::OsStrExt;
        let mut best = BestTimes::in_memory();
        for bytes in [&b"\xfe.ron"[..], b"\xff.ron"] {
            let shown = std::ffi::OsStr::from_bytes(bytes).to_string_lossy();
            let err = best.record(&shown, 100).unwrap_err();
            assert!(err.to_string().contains("not valid UTF-8"), "{err}");
        }
        assert!(best.is_empty());
    }

    #[test]
    fn env_value_overrides_the_platform_directory() {
        let store = Store::locate_with(Some("/tmp/crate-room-elsewhere".into())).unwrap();
        assert_eq!(store.dir(), Path::new("/tmp/crate-room-elsewhere"));
        assert_eq!(
            store.path(),
            Path::new("/tmp/crate-room-elsewhere/best_times.txt")
        );
    }

    #[test]
    fn empty_env_value_means_unset() {
        let platform = Store::locate_with(None);
        let empty = Store::locate_with(Some(OsString::new()));
        assert_eq!(platform.ok(), empty.ok());
    }
}

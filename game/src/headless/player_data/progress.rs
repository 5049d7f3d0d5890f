//! Campaign progress: which levels have been cleared, kept beside the best times (in the same
//! data directory, [`player_data::Store`]) in `progress.txt`, one quoted level file name per line:
//!
//! ```text
//! # Crate Room progress: the level files cleared at least once
//! "first_swing.ron"
//! ```
//!
//! Like the best times, loading never writes and never fails (a damaged line costs only
//! itself, and is reported once), and saving merges into the file as it is on disk (the union:
//! two games sharing the folder both keep their clears) and is atomic, keeping a damaged file
//! as `progress.damaged.txt` first. Which levels a clear opens is [`crate::campaign`]'s rule.
//!
//! ```
//! use game::player_data::progress::Progress;
//! use game::player_data::Store;
//!
//! let dir = std::env::temp_dir().join(format!("crate-room-progress-doc-{}", std::process::id()));
//! let store = Store::at(&dir);
//! let (mut progress, problem) = Progress::load(&store);
//! assert!(problem.is_none() && !progress.is_cleared("first_swing.ron"));
//! assert!(progress.mark_cleared("first_swing.ron").unwrap());
//! assert!(!progress.mark_cleared("first_swing.ron").unwrap(), "already cleared");
//! assert!(progress.mark_cleared("two\nlines.ron").is_err(), "no line can hold it");
//! progress.save().unwrap();
//! let (again, _) = Progress::load(&store);
//! assert!(again.is_cleared("first_swing.ron"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::collections::BTreeSet;

use crate::player_data::datafile::{self, DataFile, DataFileError, Merged, escape_for_display};
use crate::player_data::{self, Store};

/// The file's name without `.txt`, in the data directory.
pub const FILE_STEM: &str = "progress";

/// Most levels the file holds; lines past it are reported as damaged.
pub const MAX_LEVELS: usize = 1024;

const HEADER: &str = "# Crate Room progress: the level files cleared at least once\n\
     # Written by the game; a line it cannot read is skipped and reported, not fatal.\n";

/// Why a clear cannot be kept in the progress.
#[derive(Debug, thiserror::Error)]
pub enum NotKept {
    /// The level's file name cannot be a line of the file.
    #[error("cannot keep level \"{}\" as cleared: {reason}", escape_for_display(.name))]
    BadName {
        /// The name given to [`Progress::mark_cleared`].
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// The progress already holds [`MAX_LEVELS`] other levels.
    #[error("cannot keep level \"{}\" as cleared: the progress already holds {MAX_LEVELS} levels", escape_for_display(.name))]
    Full {
        /// The name given to [`Progress::mark_cleared`].
        name: String,
    },
}

/// The levels cleared at least once, and where to save them.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// `None` for progress that is never saved ([`in_memory`](Self::in_memory)).
    file: Option<DataFile>,
    cleared: BTreeSet<String>,
}

impl Progress {
    /// Progress that [`save`](Self::save) never writes (scripted runs without a data folder).
    pub fn in_memory() -> Self {
        Self::default()
    }

    /// Find the data directory (as the best times do) and load from it: what the game calls at
    /// start-up. Without a data directory progress lives in memory, with the error.
    pub fn open() -> (Self, Option<String>) {
        match Store::locate() {
            Ok(store) => {
                let (progress, problem) = Self::load(&store);
                (progress, problem.map(|e| e.to_string()))
            }
            Err(e) => (Self::in_memory(), Some(e.to_string())),
        }
    }

    /// Load the progress kept in `store`. Never writes and never fails: a problem gives what
    /// could be read together with the error to show once.
    pub fn load(store: &Store) -> (Self, Option<DataFileError>) {
        let file = DataFile::new(store.dir(), FILE_STEM);
        let (names, problem) = file.load(line_parser());
        let progress = Self {
            file: Some(file),
            cleared: names.into_iter().collect(),
        };
        (progress, problem)
    }

    /// Whether `level` (a level file name) has been cleared.
    pub fn is_cleared(&self, level: &str) -> bool {
        self.cleared.contains(level)
    }

    /// Every cleared level, in name order.
    pub fn cleared(&self) -> impl Iterator<Item = &str> {
        self.cleared.iter().map(String::as_str)
    }

    /// Note that `level` was cleared; `Ok(true)` if it had not been (then
    /// [`save`](Self::save)).
    ///
    /// # Errors
    /// [`NotKept`] for a name that cannot be a line of the file (empty, too long, holding
    /// control characters) or a new level when the table is full; the progress is unchanged,
    /// and the caller says so: the clear is not lost silently.
    pub fn mark_cleared(&mut self, level: &str) -> Result<bool, NotKept> {
        player_data::check_name(level).map_err(|reason| NotKept::BadName {
            name: level.to_owned(),
            reason,
        })?;
        if self.cleared.contains(level) {
            return Ok(false);
        }
        if self.cleared.len() >= MAX_LEVELS {
            return Err(NotKept::Full {
                name: level.to_owned(),
            });
        }
        Ok(self.cleared.insert(level.to_owned()))
    }

    /// Write the progress atomically, merged into the file as it is on disk now: the levels
    /// either holds (a damaged file is kept aside first). Does nothing for
    /// [`in_memory`](Self::in_memory) progress.
    ///
    /// # Errors
    /// [`DataFileError::Write`]; the progress in memory keeps working.
    pub fn save(&mut self) -> Result<(), DataFileError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mut merged = self.cleared.clone();
        file.save_merged(|bytes| {
            let (names, problem) =
                bytes.map_or((Vec::new(), None), |b| file.parse(b, line_parser()));
            for name in names {
                if merged.len() < MAX_LEVELS {
                    merged.insert(name);
                }
            }
            Merged {
                text: text_of(&merged),
                damaged: problem.is_some(),
            }
        })?;
        self.cleared = merged;
        Ok(())
    }

    /// The file's text: the header, then one quoted name per line in name order.
    pub fn to_text(&self) -> String {
        text_of(&self.cleared)
    }
}

/// The file's text for `cleared`.
fn text_of(cleared: &BTreeSet<String>) -> String {
    let mut text = String::from(HEADER);
    for name in cleared {
        text.push_str(&datafile::quote(name));
        text.push('\n');
    }
    text
}

/// The reader of the file's lines: a quoted level name each, at most [`MAX_LEVELS`].
fn line_parser() -> impl FnMut(&str) -> Result<Option<String>, String> {
    let mut count = 0;
    move |line| {
        let (name, rest) = datafile::unquote(line)?;
        let rest = rest.trim();
        if !(rest.is_empty() || rest.starts_with('#')) {
            return Err(format!("unexpected `{rest}` after the level name"));
        }
        if name.len() > player_data::MAX_NAME_BYTES {
            return Err("the level name is longer than 255 bytes".to_owned());
        }
        count += 1;
        if count > MAX_LEVELS {
            return Err(format!("more than {MAX_LEVELS} levels"));
        }
        Ok(Some(name))
    }
}

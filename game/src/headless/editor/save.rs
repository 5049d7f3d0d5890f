//! Saving a level file: through the game's one gate for outputs ([`crate::fsutil::write_atomic`]),
//! in the editor's words ("cannot save ..."), and what a save did or why it did not happen.

use std::path::{Path, PathBuf};

use crate::level::LevelError;

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {message}", .path.display())]
pub struct WriteError {
    /// The file or directory that failed.
    pub path: PathBuf,
    /// What went wrong, in words.
    pub message: String,
}

/// Write `bytes` to `path` atomically (see [`crate::fsutil::write_atomic`]), then remove the
/// temporary files that games killed mid-save left in its folder: levels are saved wherever
/// the author keeps them, not only in `levels/`, which a start cleans.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    crate::fsutil::write_atomic(path, bytes).map_err(|e| WriteError {
        path: e.path,
        message: e.message,
    })?;
    crate::fsutil::remove_stale_temporaries(crate::fsutil::folder_of(path));
    Ok(())
}

/// Why a save did not happen; the edits are still in memory.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The level a save would write does not pass `check`; its error.
    #[error("not saved: {0}")]
    Invalid(LevelError),
    /// The file on disk is not what this editor last read or wrote: someone else changed (or
    /// created) it since. Saving would replace their edit; [`Editor::save_overwriting`](super::Editor::save_overwriting) does
    /// that on purpose.
    #[error(
        "not saved: {} changed on disk since the editor read it; reopen it, or save over it",
        .0.display()
    )]
    ChangedOnDisk(PathBuf),
    /// Writing failed (read-only file or directory, missing directory, full disk, ...).
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A crate override (`crates: [ (at: ...) ]`) that a save removes because its cell no longer
/// holds a crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedOverride {
    /// Its `at`, as written in the file.
    pub at: (u32, u32),
    /// Its line in the file as opened (1-based).
    pub line: usize,
    /// Where its cell is on the map being edited; `None` if a resize removed the cell.
    pub now: Option<(u32, u32)>,
}

/// What a successful save wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveReport {
    pub path: PathBuf,
    pub bytes: usize,
    /// The overrides the save left out (shown before saving by
    /// [`Editor::overrides_to_remove`](super::Editor::overrides_to_remove)).
    pub dropped_overrides: Vec<DroppedOverride>,
    /// How many overrides had their `at` rewritten because rows or columns were added or
    /// removed at the top or left.
    pub moved_overrides: usize,
}

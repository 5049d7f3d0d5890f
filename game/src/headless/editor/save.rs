//! Saving a level file: through the game's one gate for outputs ([`crate::fsutil::write_atomic`]),
//! in the editor's words ("cannot save ...").

use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {message}", .path.display())]
pub struct WriteError {
    /// The file or directory that failed.
    pub path: PathBuf,
    /// What went wrong, in words.
    pub message: String,
}

/// Write `bytes` to `path` atomically (see [`crate::fsutil::write_atomic`]).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    crate::fsutil::write_atomic(path, bytes).map_err(|e| WriteError {
        path: e.path,
        message: e.message,
    })
}

//! [`ReplayError`]: why a replay could not be read, written or verified.

use crate::level::escape_for_display;

/// Why a replay could not be read, written or verified. Paths and text from files are escaped
/// as they are shown (`\u{202e}` rather than the character itself).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The replay file could not be read (missing, not a regular file, too large, not UTF-8),
    /// or is malformed.
    #[error(transparent)]
    File(crate::input::TextFileError),
    /// The replay's level file cannot be found or read.
    #[error("the replay's level {}: {}", escape_for_display(.level), escape_for_display(.message))]
    Level {
        /// The level as the replay names it.
        level: String,
        /// Why it cannot be used.
        message: String,
    },
    /// The level file's bytes are not those recorded.
    #[error(
        "the level {} changed since the replay was recorded (its bytes hash to {found:016x}, the replay was recorded on {recorded:016x}); replaying it would be a different game",
        escape_for_display(.path)
    )]
    LevelChanged {
        /// The level file found.
        path: String,
        /// Hash in the replay.
        recorded: u64,
        /// Hash of the file now.
        found: u64,
    },
    /// The level loads no more (invalid, or the atlas lacks a clip).
    #[error(transparent)]
    Load(#[from] crate::sim::LoadError),
    /// The level's path cannot be written into a replay as it is, so the replay could never
    /// find its level again.
    #[error(
        "cannot record a replay of {path}: {reason}, which a replay cannot store; rename the level file or give it by another path"
    )]
    UnstorablePath {
        /// The path, escaped for display.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

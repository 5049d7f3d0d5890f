//! The error that stops the window before or during a run.

use super::render::TextureError;
use crate::atlas::AtlasError;
use crate::game_data::GameDataError;
use crate::paths::DataDirsError;

/// What stops the window before or during a run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// `assets/` and `levels/` are nowhere to be found.
    #[error(transparent)]
    DataDirs(#[from] DataDirsError),
    /// The atlas's frame table or image is missing or invalid.
    #[error(transparent)]
    Atlas(#[from] AtlasError),
    /// The atlas image is too large for a texture.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// The profile server could not start.
    #[error("{0}")]
    Profiler(String),
    /// A scripted run's level did not load (a window player sees the error on screen instead).
    #[error("{0}")]
    Level(String),
    /// The screenshot could not be written.
    #[error("screenshot not saved: {0}")]
    Screenshot(crate::fsutil::WriteError),
    /// A scripted run's `--record` file could not be written.
    #[error("{0}")]
    Record(String),
}

impl From<GameDataError> for AppError {
    /// The window says the cause alone: it has no subcommand's context to add.
    fn from(error: GameDataError) -> Self {
        match error {
            GameDataError::Dirs(e) => Self::DataDirs(e),
            GameDataError::Atlas(e) => Self::Atlas(e),
        }
    }
}

//! The one loader of the game's data: the data folders ([`DataDirs`]) and the sprite atlas in
//! them. Every tool and the window start from it.

use crate::atlas::{AtlasData, AtlasError, RgbaImage};
use crate::paths::{DataDirs, DataDirsError};

/// The data folders and the atlas read from them.
#[derive(Debug)]
pub struct GameData {
    /// Where `assets/` and `levels/` are.
    pub dirs: DataDirs,
    /// The atlas's frame table, validated against its image.
    pub atlas: AtlasData,
}

/// Why the game's data could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GameDataError {
    /// `assets/` and `levels/` are nowhere to be found, or incomplete.
    #[error(transparent)]
    Dirs(#[from] DataDirsError),
    /// The atlas's frame table or image is missing or invalid.
    #[error("loading the sprite atlas")]
    Atlas(#[source] AtlasError),
}

impl GameData {
    /// Locate the data folders and read the atlas's table, checked against the image's size.
    ///
    /// # Errors
    /// [`GameDataError`]: no usable data folders, or no valid atlas in them.
    pub fn load() -> Result<Self, GameDataError> {
        let dirs = DataDirs::locate()?;
        let atlas = AtlasData::load(&dirs.assets).map_err(GameDataError::Atlas)?;
        Ok(Self { dirs, atlas })
    }

    /// Like [`GameData::load`], and decode the whole atlas image too, as the window and `sim`
    /// do: a corrupt image fails here, not as a blank texture later.
    ///
    /// # Errors
    /// [`GameDataError`]: no usable data folders, or no valid atlas in them.
    pub fn load_with_image() -> Result<(Self, RgbaImage), GameDataError> {
        let dirs = DataDirs::locate()?;
        let (atlas, image) =
            AtlasData::load_with_image(&dirs.assets).map_err(GameDataError::Atlas)?;
        Ok((Self { dirs, atlas }, image))
    }
}

//! The level a replay names: finding its file, reading its bytes as the level loader does,
//! and loading it into a simulation after checking its hash.

use std::path::{Path, PathBuf};

use super::model::{Replay, fnv1a64};
use super::replay_error::ReplayError;
use crate::atlas::AtlasData;
use crate::sim::Sim;

/// The level file a replay names: the stored path if it is a file, otherwise the file of that
/// name in `levels_dir`.
///
/// # Errors
/// [`ReplayError::Level`] when neither exists.
pub fn find_level(replay: &Replay, levels_dir: Option<&Path>) -> Result<PathBuf, ReplayError> {
    let stored = PathBuf::from(&replay.level_file);
    if crate::fsutil::is_file(&stored) {
        return Ok(stored);
    }
    if let (Some(dir), Some(name)) = (levels_dir, stored.file_name()) {
        let candidate = dir.join(name);
        if crate::fsutil::is_file(&candidate) {
            return Ok(candidate);
        }
    }
    // Say what the stored path is when it exists but is no level file (a FIFO, a directory).
    let what = match crate::fsutil::regular_file_metadata(&stored) {
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => e.to_string(),
        _ => "no such file".to_owned(),
    };
    Err(ReplayError::Level {
        level: replay.level_file.clone(),
        message: match levels_dir {
            Some(dir) => format!(
                "{what}, and there is no file of that name in {}",
                dir.display()
            ),
            None => what,
        },
    })
}

/// Read a level file's bytes as the level loader does: a regular file, capped in size.
pub(super) fn read_level(path: &Path, shown: &str) -> Result<Vec<u8>, ReplayError> {
    let level_error = |message: String| ReplayError::Level {
        level: shown.to_owned(),
        message,
    };
    let max = crate::level::MAX_FILE_BYTES;
    crate::fsutil::read_bounded(path, max).map_err(|e| match e {
        crate::fsutil::BoundedReadError::Io(e) => level_error(e.to_string()),
        crate::fsutil::BoundedReadError::TooLarge { .. } => {
            level_error(format!("over the {max} bytes a level may have"))
        }
    })
}

/// Load the replay's level (found by [`find_level`]) checking its hash, and build its
/// simulation with the recorded seed, the bot off.
///
/// # Errors
/// The level is missing, changed since the recording, or no longer loads.
pub fn load_sim(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
) -> Result<(PathBuf, crate::level::Level, Sim), ReplayError> {
    let path = find_level(replay, levels_dir)?;
    let shown = path.display().to_string();
    let bytes = read_level(&path, &shown)?;
    let found = fnv1a64(&bytes);
    if found != replay.level_hash {
        return Err(ReplayError::LevelChanged {
            path: shown,
            recorded: replay.level_hash,
            found,
        });
    }
    let level = crate::level::parse_bytes(&path, &bytes, &atlas.crate_skins())
        .map_err(|e| ReplayError::Load(e.into()))?;
    let sim = Sim::new(&level, atlas, replay.seed)
        .map_err(|e| ReplayError::Load(crate::sim::LoadError::Clips(e)))?;
    Ok((path, level, sim))
}

//! The one gate every file the game makes goes through: `gen-level --out`, `--record`,
//! `--screenshot`, `--save-profile`, the profile key and V on the cleared screen.
//!
//! On top of [`crate::fsutil::write_atomic`] (atomic, never onto a FIFO, device or folder, the
//! folder must exist), an output never replaces one of the game's own files, however the path
//! spells it (symbolic links followed, hard links caught by inode):
//!
//! | the path names                                  | a level (`gen-level`) | any other output |
//! |-------------------------------------------------|-----------------------|------------------|
//! | a file in `assets/` (the atlas, the sounds)     | refused               | refused          |
//! | `levels/campaign.txt`, any non-level there      | refused               | refused          |
//! | a new name in `levels/`                         | written               | refused          |
//! | an existing level (`.ron`), anywhere            | only with `--force`   | refused          |
//! | a data file (`best_times.txt`, ...)             | refused               | refused          |
//! | an input of the same run (the level played)     | refused               | refused          |
//!
//! [`check`] says all of that without writing, so the command line can refuse an output before
//! a run starts; [`write`] checks again and writes.

use std::path::{Path, PathBuf};

use crate::fsutil::WriteError;
use crate::level::escape_for_display;

/// What an output is, which decides what it may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A level file (`gen-level --out`): a new name in `levels/` is fine; an existing level is
    /// replaced only when `force` is set.
    Level {
        /// `--force`: replace an existing level file.
        force: bool,
    },
    /// A replay, a screenshot or a profile: never into the game's folders, never onto a level.
    Other,
}

/// The game's own folders and files, as far as they can be found (any of them may be
/// missing, in a test's scratch folder or in a browser).
struct OwnFiles {
    assets: Option<PathBuf>,
    levels: Option<PathBuf>,
    store: Option<crate::player_data::Store>,
}

impl OwnFiles {
    fn locate() -> Self {
        let dirs = crate::paths::DataDirs::locate().ok();
        OwnFiles {
            assets: dirs.as_ref().and_then(|d| real(&d.assets)),
            levels: dirs.as_ref().and_then(|d| real(&d.levels)),
            store: crate::player_data::Store::locate().ok(),
        }
    }
}

/// `path` with every symbolic link resolved: the file itself if it exists, else its folder's
/// real path joined with its name. `None` when the folder cannot be resolved either.
fn real(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let dir = crate::fsutil::folder_of(path);
    std::fs::canonicalize(dir).ok().map(|d| d.join(name))
}

fn is_level_file(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "ron")
}

/// Check that `path` may receive an output of kind `output` in a run that reads `inputs`,
/// without writing anything (see the module docs for the rules).
///
/// # Errors
/// A [`WriteError`] naming `path` and saying what it is and what to do.
pub fn check(path: &Path, output: Output, inputs: &[&Path]) -> Result<(), WriteError> {
    crate::fsutil::check_output(path)?;
    crate::fsutil::check_not_input(path, inputs.iter().copied())?;
    let own = OwnFiles::locate();
    let refuse = |message: String| {
        Err(WriteError {
            path: path.to_owned(),
            message,
        })
    };
    let shown = |p: &Path| escape_for_display(&p.display().to_string()).into_owned();
    let exists = crate::fsutil::exists(path);
    let target = real(path);
    if let (Some(assets), Some(target)) = (&own.assets, &target)
        && target.starts_with(assets)
    {
        return refuse(format!(
            "it is in the game's assets folder {}, which the game reads; choose a file outside it",
            shown(assets)
        ));
    }
    let in_levels = matches!((&own.levels, &target),
        (Some(levels), Some(target)) if target.parent() == Some(levels.as_path()));
    // A hard link elsewhere to the campaign list or the atlas is that file too.
    if let Some(levels) = &own.levels {
        let campaign = levels.join(crate::campaign::FILE_NAME);
        if crate::fsutil::check_not_input(path, [campaign.as_path()]).is_err() {
            return refuse(format!(
                "it is the campaign's list of levels {}; choose another file",
                shown(&campaign)
            ));
        }
    }
    if let Some(assets) = &own.assets {
        let files = crate::fsutil::files_in(assets);
        if crate::fsutil::check_not_input(path, files.iter().map(PathBuf::as_path)).is_err() {
            return refuse(format!(
                "it is one of the game's files in {}; choose another file",
                shown(assets)
            ));
        }
    }
    if let Some(store) = &own.store
        && crate::player_data::is_data_file(store, path)
    {
        return refuse(format!(
            "it is one of the game's own files in its data folder {}; choose another file",
            shown(store.dir())
        ));
    }
    match output {
        Output::Other if in_levels => refuse(format!(
            "the levels folder {} holds the game's levels; choose a file outside it",
            shown(own.levels.as_deref().unwrap_or(Path::new("levels")))
        )),
        Output::Other if exists && is_level_file(path) => refuse(
            "it is a level file, which a replay, screenshot or profile never replaces; \
             choose another file"
                .to_owned(),
        ),
        Output::Level { .. } if in_levels && !is_level_file(path) => refuse(format!(
            "a level in the levels folder {} is named NAME.ron; choose such a name",
            shown(own.levels.as_deref().unwrap_or(Path::new("levels")))
        )),
        Output::Level { force: false } if exists && is_level_file(path) => refuse(
            "it is a level file already; give --force to replace it, or choose a new name"
                .to_owned(),
        ),
        _ => Ok(()),
    }
}

/// Write `bytes` to `path` after [`check`] (with no inputs: a run checks those before it
/// starts), atomically through [`crate::fsutil::write_atomic`].
///
/// # Errors
/// What [`check`] refuses, or the write failing; the old file is then unchanged.
pub fn write(path: &Path, output: Output, bytes: &[u8]) -> Result<(), WriteError> {
    check(path, output, &[])?;
    crate::fsutil::write_atomic(path, bytes)
}

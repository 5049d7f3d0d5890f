//! Finding `assets/` and `levels/`: from the working directory or any parent of it (so
//! `cargo run` works from anywhere in the repository), then next to the executable, then the
//! repository this binary was built from.

use std::path::{Path, PathBuf};

/// The two data folders the game reads; nothing outside them is ever read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDirs {
    /// Art: `atlas.png`, `atlas.ron`.
    pub assets: PathBuf,
    /// Level files.
    pub levels: PathBuf,
}

/// Neither folder pair was found; lists every place looked in.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot find the game's `assets/` and `levels/` folders; looked in:\n{}\nrun the game from the repository (or a folder inside it)",
    .searched.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n")
)]
pub struct DataDirsNotFound {
    /// Folders searched for an `assets/` + `levels/` pair.
    pub searched: Vec<PathBuf>,
}

impl DataDirs {
    /// Locate the data folders.
    ///
    /// # Errors
    /// [`DataDirsNotFound`] naming every folder searched.
    pub fn locate() -> Result<Self, DataDirsNotFound> {
        let mut candidates = Vec::new();
        if let Ok(cwd) = std::env::current_dir() {
            candidates.extend(cwd.ancestors().map(Path::to_path_buf));
        }
        if let Some(exe_dir) = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            candidates.extend(exe_dir.ancestors().map(Path::to_path_buf));
        }
        // The workspace this binary was built in (`game/..`).
        candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
        for c in &mut candidates {
            if let Ok(canonical) = c.canonicalize() {
                *c = canonical;
            }
        }
        Self::locate_in(&candidates)
    }

    /// Locate the data folders in the first of `roots` that has both.
    ///
    /// # Errors
    /// [`DataDirsNotFound`] naming every folder searched.
    pub fn locate_in(roots: &[PathBuf]) -> Result<Self, DataDirsNotFound> {
        let mut searched = Vec::new();
        for root in roots {
            if searched.contains(root) {
                continue;
            }
            let (assets, levels) = (root.join("assets"), root.join("levels"));
            if assets.join("atlas.ron").is_file() && levels.is_dir() {
                return Ok(Self { assets, levels });
            }
            searched.push(root.clone());
        }
        Err(DataDirsNotFound { searched })
    }

    /// The level files in `levels/`, sorted by name (the order N / B cycle through).
    pub fn level_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.levels)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
            .collect();
        files.sort();
        files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_data_dirs_error_lists_every_place_searched() {
        let roots = vec![
            PathBuf::from("/nonexistent/a"),
            PathBuf::from("/nonexistent/b"),
        ];
        let err = DataDirs::locate_in(&roots).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("/nonexistent/a") && text.contains("/nonexistent/b"),
            "{text}"
        );
    }

    #[test]
    fn repository_data_dirs_are_found() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dirs = DataDirs::locate_in(&[root]).expect("repository has assets/ and levels/");
        assert!(
            dirs.level_files()
                .iter()
                .any(|p| p.ends_with("crate_room.ron"))
        );
    }
}

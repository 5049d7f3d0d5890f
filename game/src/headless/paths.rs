//! Finding `assets/` and `levels/`: from the working directory or any parent of it (so
//! `cargo run` works from anywhere in the repository), then next to the executable, then the
//! repository this binary was built from. The first place that has them must have all of
//! them: an incomplete `assets/` is an error, never a reason to use another copy further up.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::path::Path;
use std::path::PathBuf;

use crate::atlas::ATLAS_RON;

/// The two data folders the game reads; nothing outside them is ever read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDirs {
    /// Art: `atlas.png`, `atlas.ron`.
    pub assets: PathBuf,
    /// Level files.
    pub levels: PathBuf,
}

/// Why the data folders could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DataDirsError {
    /// No folder pair anywhere; lists every place looked in.
    #[error(
        "cannot find the game's `assets/` and `levels/` folders; looked in:\n{}\nrun the game from the repository (or a folder inside it)",
        .searched.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n")
    )]
    NotFound {
        /// Folders searched for an `assets/` + `levels/` pair.
        searched: Vec<PathBuf>,
    },
    /// The first place that has the game's folders lacks part of them. The search stops there
    /// rather than going on to another copy further up, which would run different data
    /// without a word.
    #[error("{}: {missing}", .root.display())]
    Incomplete {
        /// The folder holding the incomplete pair.
        root: PathBuf,
        /// What is missing, and how to get it.
        missing: String,
    },
}

impl DataDirs {
    /// Locate the data folders.
    ///
    /// # Errors
    /// [`DataDirsError`]: nothing found (naming every folder searched), or the first find is
    /// incomplete.
    pub fn locate() -> Result<Self, DataDirsError> {
        // In a browser the data is built into the game (`fsutil::in_memory`).
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        let candidates = vec![PathBuf::from(crate::fsutil::in_memory::ROOT)];
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        let candidates = Self::candidates();
        Self::locate_in(&candidates)
    }

    /// Where to look: the working directory and its parents, the executable's folder and its
    /// parents, then the workspace this binary was built in.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn candidates() -> Vec<PathBuf> {
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
        candidates
    }

    /// Locate the data folders in the first of `roots` that has them.
    ///
    /// A root has them if it holds `assets/atlas.ron` or both an `assets/` and a `levels/`
    /// folder; the first such root must then hold all of `assets/atlas.ron` and `levels/`.
    ///
    /// # Errors
    /// [`DataDirsError`]: no root has them (naming every folder searched), or the first that
    /// has them lacks a part.
    pub fn locate_in(roots: &[PathBuf]) -> Result<Self, DataDirsError> {
        let mut searched = Vec::new();
        for root in roots {
            if searched.contains(root) {
                continue;
            }
            let (assets, levels) = (root.join("assets"), root.join("levels"));
            let table = assets.join(ATLAS_RON);
            let has_table = crate::fsutil::is_file(&table);
            let has_levels = crate::fsutil::is_dir(&levels);
            if has_table && has_levels {
                return Ok(Self { assets, levels });
            }
            let incomplete = |missing: String| DataDirsError::Incomplete {
                root: root.clone(),
                missing,
            };
            if has_table {
                return Err(incomplete(format!(
                    "`assets/` has the atlas but there is no `levels/` folder beside it (expected {})",
                    levels.display()
                )));
            }
            if crate::fsutil::is_dir(&assets) && has_levels {
                // Something else in the table's place (a FIFO, a folder) is not missing.
                let what = match crate::fsutil::regular_file_metadata(&table) {
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                        format!("{e}: move it aside")
                    }
                    _ => "is missing".to_owned(),
                };
                let what = what.strip_prefix("it ").unwrap_or(&what);
                return Err(incomplete(format!(
                    "`assets/` is incomplete: {} {what} (`cargo run --bin gen-assets` writes it)",
                    table.display()
                )));
            }
            searched.push(root.clone());
        }
        Err(DataDirsError::NotFound { searched })
    }

    /// The level files in `levels/`, sorted by name (the order N / B cycle through).
    #[cfg_attr(
        not(feature = "window"),
        expect(dead_code, reason = "the window's N / B keys")
    )]
    pub fn level_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = crate::fsutil::files_in(&self.levels)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
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

    /// A fresh folder under the system temp dir holding `dirs` and `files`.
    fn root_with(test: &str, dirs: &[&str], files: &[&str]) -> PathBuf {
        let root = std::env::temp_dir().join(format!("paths-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in dirs {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in files {
            std::fs::write(root.join(f), "").unwrap();
        }
        root
    }

    #[test]
    fn incomplete_assets_are_reported_not_skipped_for_a_copy_further_up() {
        let complete = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let no_table = root_with("no-table", &["assets", "levels"], &[]);
        let err = DataDirs::locate_in(&[no_table.clone(), complete.clone()]).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(
                &no_table
                    .join("assets")
                    .join("atlas.ron")
                    .display()
                    .to_string()
            ) && text.contains("is missing"),
            "{text}"
        );

        let no_levels = root_with("no-levels", &["assets"], &["assets/atlas.ron"]);
        let err = DataDirs::locate_in(&[no_levels.clone(), complete]).unwrap_err();
        assert!(err.to_string().contains("no `levels/` folder"), "{err}");
        for root in [no_table, no_levels] {
            let _ = std::fs::remove_dir_all(root);
        }
    }

    #[test]
    fn an_unrelated_assets_folder_alone_is_passed_over() {
        let complete = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let unrelated = root_with("unrelated", &["assets"], &[]);
        let dirs = DataDirs::locate_in(&[unrelated.clone(), complete]).expect("found further up");
        assert!(!dirs.assets.starts_with(&unrelated));
        let _ = std::fs::remove_dir_all(unrelated);
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

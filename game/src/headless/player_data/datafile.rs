//! The small text files the game keeps in the player's data directory beside the best times
//! (`progress.txt`, `settings.txt`): read with a size limit, parsed line by line so a damaged
//! line costs only itself, and saved by [`save_merged`], which every data file (the best times
//! too) goes through:
//!
//! ```text
//! lock .NAME.lock ─> read NAME.txt again ─> merge with this game's changes
//!   ─> damaged? link (or copy) it to NAME.damaged[.N].txt ─> write_atomic NAME.txt ─> unlock
//! ```
//!
//! Two games sharing a data folder each merge into what the other saved (the lock makes the
//! read-merge-write of one finish before the other's starts), so neither undoes the other. The
//! damaged file is kept under a second name *before* the new file replaces it, so a full disk
//! or a kill at any moment leaves the old file or the new one, and never nothing.
//!
//! Nothing here panics or stops the game: every problem is a [`DataFileError`] naming the file
//! and what to do, which the caller shows once.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::fsutil::BoundedReadError;
pub use crate::level::escape_for_display;
use crate::player_data::ENV_VAR;

/// Largest data file read; a bigger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// A problem reading or writing a data file. The I/O error is in the message, so showing
/// `to_string()` once is enough.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    /// The file exists but could not be read.
    #[error("cannot read {}: {}; using the defaults, and {}", shown(.path), escape_for_display(&.error.to_string()), next_save(.error))]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`] and was not read.
    #[error("{} is over {MAX_FILE_BYTES} bytes and was not read; using the defaults, and the next save keeps a copy of the file aside", shown(.path))]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Some lines could not be read; the others were kept.
    #[error("{}:{first_line}: {}; skipped {skipped} unreadable line(s), kept the rest; the next save keeps the file as {}", shown(.path), escape_for_display(.reason), shown(.damaged))]
    Damaged {
        /// The file.
        path: PathBuf,
        /// 1-based number of the first skipped line.
        first_line: usize,
        /// What is wrong with it.
        reason: String,
        /// How many lines were skipped.
        skipped: usize,
        /// Where the next save moves the file.
        damaged: PathBuf,
    },
    /// The file could not be written (or the damaged one kept).
    #[error("cannot save {}: {}{}", shown(.path), escape_for_display(&.error.to_string()), write_hint(.error))]
    Write {
        /// The file or folder the failing operation was on.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
    /// The file is missing while a damaged copy of it is kept: a save was cut short, or the
    /// file was removed by hand.
    #[error("{} is missing, but {} holds an earlier, damaged copy of it; starting from the defaults (copy lines back from the damaged copy to keep them)", shown(.path), shown(.damaged))]
    Missing {
        /// The file.
        path: PathBuf,
        /// The newest damaged copy.
        damaged: PathBuf,
    },
}

/// Most damaged copies kept of each data file; past that the oldest is replaced.
pub const MAX_DAMAGED_FILES: usize = 10;

/// The names damaged copies of `stem` take in `dir`: `stem.damaged.txt`, then
/// `stem.damaged.2.txt` up to [`MAX_DAMAGED_FILES`].
pub fn damaged_names(dir: &Path, stem: &str) -> impl Iterator<Item = PathBuf> {
    (1..=MAX_DAMAGED_FILES).map(move |n| match n {
        1 => dir.join(format!("{stem}.damaged.txt")),
        n => dir.join(format!("{stem}.damaged.{n}.txt")),
    })
}

/// Where the next damaged copy of `stem` goes: the first free name, else the oldest copy.
pub fn next_damaged(dir: &Path, stem: &str) -> PathBuf {
    let mut oldest: Option<(std::time::SystemTime, PathBuf)> = None;
    for path in damaged_names(dir, stem) {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return path;
        };
        let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
        if oldest.as_ref().is_none_or(|(t, _)| modified < *t) {
            oldest = Some((modified, path));
        }
    }
    oldest.map_or_else(|| dir.join(format!("{stem}.damaged.txt")), |(_, path)| path)
}

/// The newest damaged copy of `stem` in `dir`, if there is one.
pub fn newest_damaged(dir: &Path, stem: &str) -> Option<PathBuf> {
    damaged_names(dir, stem)
        .filter_map(|path| {
            let modified = fs::symlink_metadata(&path).ok()?.modified().ok()?;
            Some((modified, path))
        })
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, path)| path)
}

/// What a save writes, from the file as it is on disk now.
#[derive(Debug)]
pub struct Merged {
    /// The new text of the file.
    pub text: String,
    /// The file on disk had lines that could not be read: keep a copy of it first.
    pub damaged: bool,
}

/// What the next save does with a file that could not be read because of `error`: keeps a
/// copy aside, or, for a folder or FIFO in its place, nothing until the player moves it.
pub fn next_save(error: &io::Error) -> &'static str {
    if is_not_a_file(error) {
        "nothing is saved there until it is moved or removed (move it out of the data folder)"
    } else {
        "the next save keeps a copy of the file aside"
    }
}

/// What a save says when the file's name is taken by a folder or FIFO.
#[derive(Debug, thiserror::Error)]
#[error("{0}; move or remove it, and the game saves its file there")]
struct InTheWay(String);

/// The advice after a failed save: to move what is in the way, or to check the folder.
pub fn write_hint(error: &io::Error) -> String {
    if error.get_ref().is_some_and(|e| e.is::<InTheWay>()) {
        String::new()
    } else {
        format!("; check that the folder is writable, or set {ENV_VAR} to one that is")
    }
}

fn is_not_a_file(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|e| e.is::<crate::fsutil::read::NotRegularFile>())
}

/// Save the data file `stem`.txt in `dir`: under the folder's lock for it, read the file as it
/// is now (at most `limit` bytes), let `merge` make the text to write from its bytes (`None`
/// when it is missing or cannot be read), keep a damaged (or unreadable) file under
/// [`next_damaged`]'s name, and write the text atomically. See the module docs.
///
/// # Errors
/// The path that failed and why; the file on disk is then unchanged.
pub fn save_merged(
    dir: &Path,
    stem: &str,
    limit: u64,
    merge: impl FnOnce(Option<&[u8]>) -> Merged,
) -> Result<(), (PathBuf, io::Error)> {
    crate::fsutil::create_dir_all(dir).map_err(|e| (dir.to_owned(), e))?;
    let lock_path = dir.join(format!(".{stem}.lock"));
    // Held until `lock` is dropped at the end of this function (or the process ends).
    let lock = crate::fsutil::lock_exclusive(&lock_path).map_err(|e| (lock_path.clone(), e))?;
    let path = dir.join(format!("{stem}.txt"));
    let (bytes, unreadable) = match crate::fsutil::read_bounded(&path, limit) {
        Ok(bytes) => (Some(bytes), false),
        Err(BoundedReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => (None, false),
        // A folder or FIFO in the file's place is the player's to move: it is never linked
        // aside (a link to a FIFO is no copy) nor replaced.
        Err(BoundedReadError::Io(e)) if is_not_a_file(&e) => {
            return Err((path, io::Error::other(InTheWay(e.to_string()))));
        }
        Err(_) => (None, true),
    };
    let merged = merge(bytes.as_deref());
    if merged.damaged || unreadable {
        keep_damaged(&path, &next_damaged(dir, stem))?;
    }
    crate::fsutil::write_atomic(&path, merged.text.as_bytes())
        .map_err(|e| (path.clone(), io::Error::other(e.message)))?;
    drop(lock);
    Ok(())
}

/// Keep `path` as it is under the name `aside` too, before it is replaced.
fn keep_damaged(path: &Path, aside: &Path) -> Result<(), (PathBuf, io::Error)> {
    crate::fsutil::keep_copy(path, aside).map_err(|e| (aside.to_owned(), e))
}

/// One data file: its folder and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// The data folder.
    pub dir: PathBuf,
    /// The file's name without `.txt`.
    pub stem: &'static str,
    /// The file, `dir/stem.txt`.
    pub path: PathBuf,
}

impl DataFile {
    /// `dir/stem.txt`, damaged copies kept as `dir/stem.damaged.txt` and so on.
    pub fn new(dir: &Path, stem: &'static str) -> Self {
        Self {
            dir: dir.to_owned(),
            stem,
            path: dir.join(format!("{stem}.txt")),
        }
    }

    /// Read and parse the file line by line with `parse_line` (`Ok(None)` for a line that holds
    /// nothing, such as a comment). A missing file is no lines and no error, unless a damaged
    /// copy of it is kept ([`DataFileError::Missing`]); an unreadable or oversized one is no
    /// lines and its error; bad lines are skipped and counted in one
    /// [`DataFileError::Damaged`].
    pub fn load<T>(
        &self,
        parse_line: impl FnMut(&str) -> Result<Option<T>, String>,
    ) -> (Vec<T>, Option<DataFileError>) {
        let bytes = match crate::fsutil::read_bounded(&self.path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(BoundedReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                let missing =
                    newest_damaged(&self.dir, self.stem).map(|damaged| DataFileError::Missing {
                        path: self.path.clone(),
                        damaged,
                    });
                return (Vec::new(), missing);
            }
            Err(BoundedReadError::Io(error)) => {
                let path = self.path.clone();
                return (Vec::new(), Some(DataFileError::Read { path, error }));
            }
            Err(BoundedReadError::TooLarge { .. }) => {
                let path = self.path.clone();
                return (Vec::new(), Some(DataFileError::TooLarge { path }));
            }
        };
        self.parse(&bytes, parse_line)
    }

    /// Parse the file's `bytes` as [`load`](Self::load) does.
    pub fn parse<T>(
        &self,
        bytes: &[u8],
        mut parse_line: impl FnMut(&str) -> Result<Option<T>, String>,
    ) -> (Vec<T>, Option<DataFileError>) {
        let mut items = Vec::new();
        let mut skipped = 0;
        let mut first: Option<(usize, String)> = None;
        for (i, line) in crate::text_lines::byte_lines(bytes).enumerate() {
            let parsed = std::str::from_utf8(line)
                .map_err(|_| "not valid UTF-8".to_owned())
                .and_then(|l| {
                    let l = l.trim();
                    if l.is_empty() || l.starts_with('#') {
                        Ok(None)
                    } else {
                        parse_line(l)
                    }
                });
            match parsed {
                Ok(Some(item)) => items.push(item),
                Ok(None) => {}
                Err(reason) => {
                    skipped += 1;
                    first.get_or_insert((i + 1, reason));
                }
            }
        }
        let error = first.map(|(first_line, reason)| DataFileError::Damaged {
            path: self.path.clone(),
            first_line,
            reason,
            skipped,
            damaged: next_damaged(&self.dir, self.stem),
        });
        (items, error)
    }

    /// Save the file through [`save_merged`]: `merge` makes the text to write from the file's
    /// bytes on disk now.
    ///
    /// # Errors
    /// [`DataFileError::Write`] naming the path that failed; the file is then unchanged.
    pub fn save_merged(
        &self,
        merge: impl FnOnce(Option<&[u8]>) -> Merged,
    ) -> Result<(), DataFileError> {
        save_merged(&self.dir, self.stem, MAX_FILE_BYTES, merge)
            .map_err(|(path, error)| DataFileError::Write { path, error })
    }
}

/// `path` as a message shows it: through [`escape_for_display`], as every piece of file text
/// and every path the records quote.
pub fn shown(path: &Path) -> String {
    escape_for_display(&path.display().to_string()).into_owned()
}

/// A quoted level file name, as the data files write it (`"first_swing.ron"`).
pub fn quote(name: &str) -> String {
    ron::to_string(name).unwrap_or_else(|_| format!("{name:?}"))
}

/// The quoted name at the start of `text` and what follows it, or why there is none.
pub fn unquote(text: &str) -> Result<(String, &str), String> {
    if !text.starts_with('"') {
        return Err("the level name must be in double quotes".to_owned());
    }
    // The closing quote: the first `"` not escaped by a backslash.
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => {
                let quoted = &text[..=i];
                let name: String = ron::from_str(quoted)
                    .map_err(|_| format!("`{quoted}` is not a quoted level name"))?;
                if name.is_empty() || name.chars().any(char::is_control) {
                    return Err("the level name is empty or holds a control character".into());
                }
                return Ok((name, &text[i + 1..]));
            }
            _ => escaped = false,
        }
    }
    Err("the level name has no closing quote".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names_round_trip() {
        for name in ["a.ron", "q\"uo\\te.ron", "# x = y.ron", "ünï.ron"] {
            let text = format!("{} = 3", quote(name));
            let (back, rest) = unquote(&text).unwrap();
            assert_eq!(back, name);
            assert_eq!(rest, " = 3");
        }
        assert!(unquote("a.ron").is_err());
        assert!(unquote("\"a.ron").is_err());
        assert!(unquote("\"\"").is_err());
    }
}

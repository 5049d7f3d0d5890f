//! The small text files the game keeps in the player's data directory beside the best times
//! (`progress.txt`, `settings.txt`): read with a size limit, parsed line by line so a damaged
//! line costs only itself, and saved atomically through the one output gate
//! ([`crate::fsutil::write_atomic`], as the best times are), a damaged file first moved aside.
//!
//! Nothing here panics or stops the game: every problem is a [`DataFileError`] naming the file
//! and what to do, which the caller shows once.

use std::io;
use std::path::{Path, PathBuf};

use crate::fsutil::BoundedReadError;
use crate::records::ENV_VAR;

/// Largest data file read; a bigger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// A problem reading or writing a data file. The I/O error is in the message, so showing
/// `to_string()` once is enough.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    /// The file exists but could not be read.
    #[error("cannot read {}: {error}; using the defaults, and the file is moved aside at the next save", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`] and was not read.
    #[error("{} is over {MAX_FILE_BYTES} bytes and was not read; using the defaults, and the file is moved aside at the next save", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Some lines could not be read; the others were kept.
    #[error("{}:{first_line}: {reason}; skipped {skipped} unreadable line(s), kept the rest; the file is moved to {} at the next save", .path.display(), .damaged.display())]
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
    /// The file could not be written (or the damaged one moved aside).
    #[error("cannot save {}: {error}; check that the folder is writable, or set {ENV_VAR} to one that is", .path.display())]
    Write {
        /// The file or folder the failing operation was on.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
}

/// One data file: where it is and where a damaged copy goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// The file.
    pub path: PathBuf,
    /// Where a damaged file is moved by the next save (`name.damaged.txt`).
    pub damaged: PathBuf,
}

impl DataFile {
    /// `dir/name.txt`, damaged copies to `dir/name.damaged.txt`.
    pub fn new(dir: &Path, stem: &str) -> Self {
        Self {
            path: dir.join(format!("{stem}.txt")),
            damaged: dir.join(format!("{stem}.damaged.txt")),
        }
    }

    /// Read and parse the file line by line with `parse_line` (`Ok(None)` for a line that holds
    /// nothing, such as a comment). A missing file is no lines and no error; an unreadable or
    /// oversized one is no lines and its error; bad lines are skipped and counted in one
    /// [`DataFileError::Damaged`].
    pub fn load<T>(
        &self,
        mut parse_line: impl FnMut(&str) -> Result<Option<T>, String>,
    ) -> (Vec<T>, Option<DataFileError>) {
        let bytes = match crate::fsutil::read_bounded(&self.path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(BoundedReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                return (Vec::new(), None);
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
        let mut items = Vec::new();
        let mut skipped = 0;
        let mut first: Option<(usize, String)> = None;
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
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
            damaged: self.damaged.clone(),
        });
        (items, error)
    }

    /// Write `text` atomically through [`crate::fsutil::write_atomic`] (a temporary file in
    /// the same folder, synced, renamed over the file), creating the folder if needed. With
    /// `move_damaged`, the old file is first moved to [`damaged`](Self::damaged), so a hand edit
    /// gone wrong is never lost silently.
    ///
    /// # Errors
    /// [`DataFileError::Write`] naming the path that failed; the file is then unchanged (or
    /// moved aside intact).
    pub fn save(&self, text: &str, move_damaged: bool) -> Result<(), DataFileError> {
        let write_err = |path: &Path| {
            let path = path.to_owned();
            move |error| DataFileError::Write { path, error }
        };
        let dir = self.path.parent().unwrap_or(Path::new("."));
        crate::fsutil::create_dir_all(dir).map_err(write_err(dir))?;
        if move_damaged {
            match crate::fsutil::rename(&self.path, &self.damaged) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(write_err(&self.damaged)(e)),
            }
        }
        crate::fsutil::write_atomic(&self.path, text.as_bytes())
            .map_err(|e| write_err(&self.path)(io::Error::other(e.message)))
    }
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

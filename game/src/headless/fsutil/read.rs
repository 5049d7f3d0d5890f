//! Reading without blocking: [`open_regular`] and [`read_bounded`] refuse anything but a regular
//! file, and a file over a size limit.
//!
//! `open()` on a FIFO waits for a writer, and a read from one waits for data: a level path that
//! names a FIFO would hang `check` and freeze the window's frame thread. So [`open_regular`]
//! refuses anything but a regular file, twice: by the path's type before opening, and by the
//! open file's type after opening with `O_NONBLOCK`, which covers a file swapped for a FIFO in
//! between (a FIFO opened that way returns at once, and is then refused). On a regular file
//! `O_NONBLOCK` changes nothing.

use std::fmt;
use std::fs::{File, FileType, Metadata, OpenOptions};
use std::io;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::io::Read;
use std::path::Path;

/// A path names something other than a regular file; the kind of thing it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("it is {0}, not a regular file")]
pub struct NotRegularFile(pub FileKind);

/// What a path that is not a regular file names, as shown in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe.
    Fifo,
    /// A Unix-domain socket.
    Socket,
    /// A character device, like `/dev/null`.
    CharDevice,
    /// A block device, like a disk.
    BlockDevice,
    /// Anything else the platform has.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a named pipe (FIFO)",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Other => "a special file",
        })
    }
}

impl FileKind {
    /// The kind of a file type that is not a regular file; `None` for a regular file.
    pub(crate) fn of(file_type: FileType) -> Option<Self> {
        if file_type.is_file() {
            return None;
        }
        if file_type.is_dir() {
            return Some(FileKind::Directory);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return Some(FileKind::Fifo);
            }
            if file_type.is_socket() {
                return Some(FileKind::Socket);
            }
            if file_type.is_char_device() {
                return Some(FileKind::CharDevice);
            }
            if file_type.is_block_device() {
                return Some(FileKind::BlockDevice);
            }
        }
        Some(FileKind::Other)
    }
}

/// The metadata of `path` (following symlinks) if it is a regular file.
///
/// # Errors
/// The error of `stat`, or an [`io::ErrorKind::InvalidInput`] error wrapping
/// [`NotRegularFile`] (its message says what the path is instead).
pub fn regular_file_metadata(path: &Path) -> io::Result<Metadata> {
    let metadata = std::fs::metadata(path)?;
    check_regular(&metadata)?;
    Ok(metadata)
}

/// Open `path` for reading if it is a regular file, without blocking whatever it is.
///
/// # Errors
/// The error of `stat` or `open`, or an [`io::ErrorKind::InvalidInput`] error wrapping
/// [`NotRegularFile`] when `path` (or what was opened) is a FIFO, socket, device or directory.
///
/// ```
/// use std::io::ErrorKind;
/// use std::path::Path;
/// use game::fsutil::open_regular;
///
/// let err = open_regular(Path::new("/dev/null")).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidInput);
/// assert_eq!(err.to_string(), "it is a character device, not a regular file");
/// ```
pub fn open_regular(path: &Path) -> io::Result<File> {
    regular_file_metadata(path)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    // The path may have been replaced between the check and the open.
    check_regular(&file.metadata()?)?;
    Ok(file)
}

/// Why [`read_bounded`] gave no bytes.
#[derive(Debug, thiserror::Error)]
pub enum BoundedReadError {
    /// Opening or reading failed (including [`NotRegularFile`], and `NotFound`).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The file holds more than the limit.
    #[error("the file is larger than {limit} bytes")]
    TooLarge {
        /// The limit it was read with.
        limit: u64,
        /// Its size, when the file system said it before reading (not when it grew while read).
        size: Option<u64>,
    },
}

/// Read the regular file at `path` whole, refusing it if it holds more than `limit` bytes.
///
/// Opens with [`open_regular`] (never blocks on a FIFO or device) and reads at most one byte
/// past the limit, so a file that grows while it is read costs no more than the limit either.
///
/// # Errors
/// [`BoundedReadError::Io`] if it cannot be opened or read, [`BoundedReadError::TooLarge`] past
/// `limit`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(BoundedReadError::TooLarge {
            limit,
            size: Some(size),
        });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedReadError::TooLarge { limit, size: None });
    }
    Ok(bytes)
}

/// [`read_bounded`] in a browser: the file from [`super::in_memory`].
///
/// # Errors
/// As on other platforms: `NotFound`, a folder as [`NotRegularFile`], or past `limit`.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    let bytes = super::in_memory::read(path)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedReadError::TooLarge {
            limit,
            size: Some(bytes.len() as u64),
        });
    }
    Ok(bytes)
}

/// Whether `path` names anything (following symbolic links): `false` only when it is not
/// there.
pub fn exists(path: &Path) -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let there = super::in_memory::stat(path).is_ok();
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let there = !matches!(std::fs::metadata(path), Err(e) if e.kind() == io::ErrorKind::NotFound);
    there
}

/// Whether `path` names a folder (following symbolic links).
pub fn is_dir(path: &Path) -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let dir = super::in_memory::stat(path).is_ok_and(|e| e == super::in_memory::Entry::Dir);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let dir = path.is_dir();
    dir
}

/// Whether `path` names a regular file (following symbolic links).
pub fn is_file(path: &Path) -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let file = super::in_memory::stat(path).is_ok_and(|e| e != super::in_memory::Entry::Dir);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let file = path.is_file();
    file
}

/// The regular files directly in the folder `dir` (none when it cannot be read), unsorted.
pub fn files_in(dir: &Path) -> Vec<std::path::PathBuf> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let files = super::in_memory::files_in(dir);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let files = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files
}

fn check_regular(metadata: &Metadata) -> io::Result<()> {
    match FileKind::of(metadata.file_type()) {
        None => Ok(()),
        Some(kind) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            NotRegularFile(kind),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::time::{Duration, Instant};

    fn kind_of(err: &io::Error) -> Option<FileKind> {
        err.get_ref()
            .and_then(|e| e.downcast_ref::<NotRegularFile>())
            .map(|e| e.0)
    }

    #[test]
    fn regular_file_opens_and_reads() {
        let path = std::env::temp_dir().join(format!("fsutil-regular-{}", std::process::id()));
        std::fs::write(&path, "hello").unwrap();
        let mut text = String::new();
        open_regular(&path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "hello");
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn device_directory_and_missing_paths_are_refused_by_kind() {
        let dev_null = open_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(kind_of(&dev_null), Some(FileKind::CharDevice));
        let dir = open_regular(&std::env::temp_dir()).unwrap_err();
        assert_eq!(kind_of(&dir), Some(FileKind::Directory));
        let missing = open_regular(Path::new("/nonexistent/fsutil")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn fifo_is_refused_at_once_without_a_writer() {
        let path = std::env::temp_dir().join(format!("fsutil-fifo-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let started = Instant::now();
        let err = open_regular(&path).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(kind_of(&err), Some(FileKind::Fifo));
        assert_eq!(
            err.to_string(),
            "it is a named pipe (FIFO), not a regular file"
        );
        let _ = std::fs::remove_file(path);
    }
}

//! Writing a level file atomically: a temporary file in the same directory, synced, renamed over
//! the target. A crash at any moment leaves either the old file or the new one, never half of
//! one; a failure leaves the old file and no temporary file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {message}", .path.display())]
pub struct WriteError {
    /// The file or directory that failed.
    pub path: PathBuf,
    /// What went wrong, in words.
    pub message: String,
}

impl WriteError {
    fn new(path: &Path, message: impl Into<String>) -> Self {
        WriteError {
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

/// An I/O error in the words the editor shows.
fn reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "the directory does not exist".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::StorageFull => "the disk is full".to_owned(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_owned(),
        _ => error.to_string(),
    }
}

/// Write `bytes` to `path` atomically.
///
/// A symbolic link is followed (the file it names is replaced, the link stays). The target must
/// be a regular file or not exist; a read-only target is refused (a rename would replace it
/// regardless of its permissions), and an existing file's permissions carry over. Every error
/// names `path`, the file the author knows.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let fail = |e: &io::Error| WriteError::new(path, reason(e));
    let target = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_owned(),
        Err(e) => return Err(fail(&e)),
    };
    let permissions = match fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => {
            return Err(WriteError::new(path, "it is not a regular file"));
        }
        Ok(meta) if meta.permissions().readonly() => {
            return Err(WriteError::new(path, "the file is read-only"));
        }
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(&e)),
    };
    let Some(name) = target.file_name() else {
        return Err(WriteError::new(path, "the path names no file"));
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(WriteError::new(path, "the directory does not exist"));
    }
    // Hidden, and named by the process, so two games saving at once never share one.
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let written = match write_new(&tmp, bytes, permissions) {
        Err(Stage::Create(e)) => Err(WriteError::new(
            path,
            format!("cannot create a file in {}: {}", dir.display(), reason(&e)),
        )),
        Err(Stage::Fill(e)) => Err(fail(&e)),
        Ok(()) => fs::rename(&tmp, &target).map_err(|e| fail(&e)),
    };
    match written {
        Ok(()) => {
            // The rename is durable once the directory is synced; where a directory cannot be
            // opened for that, the data is still safe in the renamed file.
            if let Ok(dir) = File::open(&dir) {
                let _ = dir.sync_all();
            }
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Where writing the temporary file failed.
enum Stage {
    Create(io::Error),
    Fill(io::Error),
}

/// Create `tmp` (replacing a leftover of an earlier crash of this process id) and fill it.
fn write_new(tmp: &Path, bytes: &[u8], permissions: Option<fs::Permissions>) -> Result<(), Stage> {
    let open = || OpenOptions::new().write(true).create_new(true).open(tmp);
    let mut file = match open() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(tmp).map_err(Stage::Create)?;
            open()
        }
        other => other,
    }
    .map_err(Stage::Create)?;
    file.write_all(bytes).map_err(Stage::Fill)?;
    if let Some(permissions) = permissions {
        file.set_permissions(permissions).map_err(Stage::Fill)?;
    }
    file.sync_all().map_err(Stage::Fill)
}

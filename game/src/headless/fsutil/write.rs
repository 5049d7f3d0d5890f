//! Writing the files the game makes (levels, replays, screenshots, best times, the editor's
//! saves) so that none is ever lost: the one gate every output goes through.
//!
//! - Atomic: the bytes go to a temporary file in the same folder, synced, then renamed over
//!   the target. A crash or a full disk at any moment leaves the old file or the new one,
//!   never part of one; a failure leaves the old file and no temporary file.
//! - Only onto a regular file or a new path: a FIFO, a device or a directory is refused by its
//!   type before anything is opened, so nothing blocks and nothing is replaced.
//! - Never onto an input of the same run, however the path spells it ([`check_not_input`]).
//! - A missing directory is an error, not created.

use std::fs;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::fs::{File, OpenOptions};
use std::io;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::io::Write;
use std::path::{Path, PathBuf};

use super::read::NotRegularFile;

/// Why a file could not be written; its message names the path as the user gave it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {}: {message}", .path.display())]
pub struct WriteError {
    /// The path that failed, as given.
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

/// An I/O error in the words a person reads.
fn reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "the directory does not exist".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::StorageFull => "the disk is full".to_owned(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_owned(),
        _ => error.to_string(),
    }
}

/// Where a checked output goes: the file the rename will replace (a symbolic link followed),
/// its folder, and the permissions to carry over.
#[derive(Debug)]
// A browser's files need no rename (`in_memory`): only the check is used there.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub struct Target {
    file: PathBuf,
    dir: PathBuf,
    permissions: Option<fs::Permissions>,
}

/// Check that `path` can be written by [`write_atomic`], without writing anything: it is a
/// regular file that is not read-only, or a new name in a folder that exists.
///
/// # Errors
/// A [`WriteError`] saying what is wrong with `path`.
pub fn check_output(path: &Path) -> Result<Target, WriteError> {
    let fail = |e: &io::Error| WriteError::new(path, reason(e));
    let file = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_owned(),
        Err(e) => return Err(fail(&e)),
    };
    let permissions = match fs::metadata(&file) {
        Ok(meta) => {
            if let Some(kind) = super::read::FileKind::of(meta.file_type()) {
                return Err(WriteError::new(path, NotRegularFile(kind).to_string()));
            }
            if meta.permissions().readonly() {
                return Err(WriteError::new(path, "the file is read-only"));
            }
            Some(meta.permissions())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(&e)),
    };
    if file.file_name().is_none() {
        return Err(WriteError::new(path, "the path names no file"));
    }
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    match fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(WriteError::new(
                path,
                format!("{} is not a directory", dir.display()),
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(WriteError::new(path, "the directory does not exist"));
        }
        Err(e) => return Err(fail(&e)),
    }
    Ok(Target {
        file,
        dir,
        permissions,
    })
}

/// Refuse to write `output` if it is the same file as one of `inputs` (by device and inode,
/// so any spelling of the path, a hard link or a symbolic link is caught). Inputs that do not
/// exist are skipped.
///
/// # Errors
/// A [`WriteError`] naming the input it would overwrite.
pub fn check_not_input<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), WriteError> {
    let Ok(out) = fs::metadata(output) else {
        return Ok(());
    };
    for input in inputs {
        if fs::metadata(input).is_ok_and(|meta| same_file(&meta, &out)) {
            return Err(WriteError::new(
                output,
                format!(
                    "it is {}, an input of this run; choose another file",
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// Write `bytes` to `path` atomically (see the module docs).
///
/// A symbolic link is followed (the file it names is replaced, the link stays). The target must
/// be a regular file or not exist; a read-only target is refused (a rename would replace it
/// regardless of its permissions), and an existing file's permissions carry over.
///
/// # Errors
/// A [`WriteError`] naming `path`, the file the user knows; the old file is then unchanged.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let target = check_output(path)?;
    let fail = |e: &io::Error| WriteError::new(path, reason(e));
    let name = target.file.file_name().unwrap_or_default();
    // Hidden, and named by the process, so two games writing at once never share one.
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = target.dir.join(tmp_name);
    let written = match write_new(&tmp, bytes, target.permissions) {
        Err(Stage::Create(e)) => Err(WriteError::new(
            path,
            format!(
                "cannot create a file in {}: {}",
                target.dir.display(),
                reason(&e)
            ),
        )),
        Err(Stage::Fill(e)) => Err(fail(&e)),
        Ok(()) => fs::rename(&tmp, &target.file).map_err(|e| fail(&e)),
    };
    match written {
        Ok(()) => {
            // The rename is durable once the folder is synced; where a folder cannot be opened
            // for that, the data is still safe in the renamed file.
            if let Ok(dir) = File::open(&target.dir) {
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

/// [`write_atomic`] in a browser: the file goes to [`super::in_memory`] whole, in one step,
/// and from there to the browser's storage.
///
/// # Errors
/// A [`WriteError`] when `path` names a folder.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    if super::read::is_dir(path) {
        return Err(WriteError::new(
            path,
            "it is a directory, not a regular file",
        ));
    }
    super::in_memory::write(path, bytes);
    Ok(())
}

/// Make the folder `dir` and its parents where missing.
///
/// # Errors
/// `dir` or a parent is a file, or cannot be made.
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let not_a_folder = super::read::is_file(dir);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let not_a_folder = fs::metadata(dir).is_ok_and(|meta| !meta.is_dir());
    if not_a_folder {
        let message = format!("{} is a file, not a folder", dir.display());
        return Err(io::Error::other(message));
    }
    // A symbolic link to nothing: `create_dir_all` would say only "File exists".
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    if fs::metadata(dir).is_err()
        && let Ok(target) = fs::read_link(dir)
    {
        let message = format!(
            "{} is a symbolic link to {}, which does not exist: make that folder, or remove the \
             link",
            dir.display(),
            target.display()
        );
        return Err(io::Error::other(message));
    }
    // In a browser a folder is there once a file is in it.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fs::create_dir_all(dir)?;
    Ok(())
}

/// Move the file `from` to `to`, replacing `to`.
///
/// # Errors
/// `NotFound` when there is no `from`, or the platform's error.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let moved = super::in_memory::rename(from, to);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let moved = fs::rename(from, to);
    moved
}

/// An exclusive lock on a lock file, held until it is dropped: what a data file's save holds
/// while it reads, merges and writes, so that two games sharing a folder take turns.
#[derive(Debug)]
pub struct Lock {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    _file: File,
}

/// Take the exclusive lock on the file `path` (made if missing), waiting for whoever holds it.
/// A browser page's files are in its own memory, written through to storage in one step: there
/// is nothing to wait for.
///
/// # Errors
/// The lock file cannot be made or locked.
pub fn lock_exclusive(path: &Path) -> io::Result<Lock> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        file.lock()?;
        Ok(Lock { _file: file })
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        let _ = path;
        Ok(Lock {})
    }
}

/// Keep the file `path` as it is under the name `aside` too, replacing `aside`: a hard link (no
/// bytes copied, nothing to run out of), or a copy where links are not possible. A missing
/// `path` keeps nothing. A symbolic link is followed: `aside` keeps the file it names, never a
/// second link to a file that is about to be replaced.
///
/// # Errors
/// `aside` cannot be replaced or written; it is then left absent, never half-written.
pub fn keep_copy(path: &Path, aside: &Path) -> io::Result<()> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        match fs::remove_file(aside) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        // `hard_link` links a symbolic link itself, not the file it names.
        let real = fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if fs::hard_link(&real, aside).is_ok() {
            return Ok(());
        }
        match fs::copy(path, aside) {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => {
                let _ = fs::remove_file(aside);
                Err(e)
            }
        }
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        match super::in_memory::read(path) {
            Ok(bytes) => super::in_memory::write(aside, &bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }
}

/// Remove from `dir` the temporary files [`write_atomic`] leaves when a game is killed between
/// writing one and renaming it (`.NAME.PID.tmp`), where process PID is gone: what a start calls
/// on the data folder and the levels folder. Files of a running process, and every other
/// file, are left alone. Returns what was removed; a folder that cannot be read removes nothing.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && pid != std::process::id() && process_is_gone(pid) {
            let path = entry.path();
            if fs::remove_file(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    removed
}

/// The folder holding the file `path`: its parent, or `.` for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The process id in a temporary file's name (`.NAME.PID.tmp`), if it is one.
fn temporary_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (file, pid) = inner.rsplit_once('.')?;
    if file.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether no process has id `pid`. Only known where `/proc` lists processes; elsewhere every
/// process counts as running, and nothing is removed.
fn process_is_gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

/// Where writing the temporary file failed.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
enum Stage {
    Create(io::Error),
    Fill(io::Error),
}

/// Create `tmp` (replacing a leftover of an earlier crash of this process id) and fill it.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
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

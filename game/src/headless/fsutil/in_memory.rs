//! The game's files in a browser, where there is no file system: the shipped levels and assets,
//! built into the game, and the files the game writes (best times, progress, settings, the
//! editor's saves), all held in memory under [`ROOT`].
//!
//! The gates of [`crate::fsutil`] read and write here on `wasm32`, so the rest of the game runs
//! unchanged. What is written is also listed until the window layer takes it
//! ([`take_written`]) to keep it in the browser's storage, and the window layer puts back what
//! the storage kept ([`restore`]) before anything reads it.
//!
//! It is the one piece of process-wide state in the game: the browser page is one process with
//! one set of files, as a file system is for a native build.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Where the game's files are: `ROOT/assets`, `ROOT/levels` and `ROOT/data` (the data
/// directory of best times, progress and settings).
pub const ROOT: &str = "/crate-room";

/// The files built into the game: `assets/` and `levels/` as the repository has them, paths
/// relative to [`ROOT`] (but the music loop, synthesised at first use).
const SHIPPED: &[(&str, &[u8])] = &[
    (
        "assets/atlas.png",
        include_bytes!("../../../../assets/atlas.png"),
    ),
    (
        "assets/atlas.ron",
        include_bytes!("../../../../assets/atlas.ron"),
    ),
    (
        "assets/sfx/blast.wav",
        include_bytes!("../../../../assets/sfx/blast.wav"),
    ),
    (
        "assets/sfx/break.wav",
        include_bytes!("../../../../assets/sfx/break.wav"),
    ),
    (
        "assets/sfx/coin.wav",
        include_bytes!("../../../../assets/sfx/coin.wav"),
    ),
    (
        "assets/sfx/hit.wav",
        include_bytes!("../../../../assets/sfx/hit.wav"),
    ),
    (
        "assets/sfx/swing.wav",
        include_bytes!("../../../../assets/sfx/swing.wav"),
    ),
    (
        "assets/sfx/clear.wav",
        include_bytes!("../../../../assets/sfx/clear.wav"),
    ),
    (
        "assets/sfx/fuse.wav",
        include_bytes!("../../../../assets/sfx/fuse.wav"),
    ),
    (
        "assets/sfx/menu.wav",
        include_bytes!("../../../../assets/sfx/menu.wav"),
    ),
    (
        "assets/sfx/sting.wav",
        include_bytes!("../../../../assets/sfx/sting.wav"),
    ),
    (
        "levels/campaign.txt",
        include_bytes!("../../../../levels/campaign.txt"),
    ),
    (
        "levels/back_alleys.ron",
        include_bytes!("../../../../levels/back_alleys.ron"),
    ),
    (
        "levels/corridors.ron",
        include_bytes!("../../../../levels/corridors.ron"),
    ),
    (
        "levels/crate_room.ron",
        include_bytes!("../../../../levels/crate_room.ron"),
    ),
    (
        "levels/crate_sea.ron",
        include_bytes!("../../../../levels/crate_sea.ron"),
    ),
    (
        "levels/cratetopia.ron",
        include_bytes!("../../../../levels/cratetopia.ron"),
    ),
    (
        "levels/first_fuse.ron",
        include_bytes!("../../../../levels/first_fuse.ron"),
    ),
    (
        "levels/first_swing.ron",
        include_bytes!("../../../../levels/first_swing.ron"),
    ),
    (
        "levels/iron_bands.ron",
        include_bytes!("../../../../levels/iron_bands.ron"),
    ),
    (
        "levels/keg_row.ron",
        include_bytes!("../../../../levels/keg_row.ron"),
    ),
    (
        "levels/pocket_change.ron",
        include_bytes!("../../../../levels/pocket_change.ron"),
    ),
    (
        "levels/powder_room.ron",
        include_bytes!("../../../../levels/powder_room.ron"),
    ),
    (
        "levels/vault.ron",
        include_bytes!("../../../../levels/vault.ron"),
    ),
    (
        "levels/warehouse.ron",
        include_bytes!("../../../../levels/warehouse.ron"),
    ),
];

/// The files: their bytes by full path.
#[derive(Debug, Default)]
struct Files {
    bytes: BTreeMap<PathBuf, Vec<u8>>,
    /// Written since the window layer last took them, in the order written.
    written: Vec<PathBuf>,
}

static FILES: Mutex<Option<Files>> = Mutex::new(None);

/// The files, the shipped ones put in at first use. A panic while the lock was held cannot
/// leave a file half-written (every change is one map operation), so a poisoned lock is used.
fn files() -> MutexGuard<'static, Option<Files>> {
    let mut guard = FILES.lock().unwrap_or_else(PoisonError::into_inner);
    if guard.is_none() {
        let mut bytes: BTreeMap<PathBuf, Vec<u8>> = SHIPPED
            .iter()
            .map(|(path, bytes)| (Path::new(ROOT).join(path), bytes.to_vec()))
            .collect();
        // The music loop is synthesised here rather than built in: the same bytes as
        // `assets/music/loop.wav` (which `gen-assets` writes with the same function), without
        // its 0.6 MB in the download.
        bytes.insert(
            Path::new(ROOT).join("assets").join(crate::sfx::MUSIC_FILE),
            crate::art::synth::generate_music(),
        );
        *guard = Some(Files {
            bytes,
            written: Vec::new(),
        });
    }
    guard
}

fn with_files<T>(f: impl FnOnce(&mut Files) -> T) -> T {
    let mut guard = files();
    f(guard.get_or_insert_with(Files::default))
}

/// What a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A file of this many bytes.
    File(u64),
    /// A folder: some file's path starts with it.
    Dir,
}

/// What `path` names.
///
/// # Errors
/// [`io::ErrorKind::NotFound`] when it names nothing.
pub fn stat(path: &Path) -> io::Result<Entry> {
    with_files(|files| {
        if let Some(bytes) = files.bytes.get(path) {
            return Ok(Entry::File(bytes.len() as u64));
        }
        if path == Path::new(ROOT)
            || path.starts_with(ROOT)
                && files
                    .bytes
                    .range(path.to_path_buf()..)
                    .next()
                    .is_some_and(|(p, _)| p.starts_with(path))
        {
            return Ok(Entry::Dir);
        }
        Err(not_found(path))
    })
}

/// The bytes of the file at `path`.
///
/// # Errors
/// [`io::ErrorKind::NotFound`] when there is no such file, [`io::ErrorKind::InvalidInput`]
/// when it is a folder.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    if let Some(bytes) = with_files(|files| files.bytes.get(path).cloned()) {
        return Ok(bytes);
    }
    match stat(path) {
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is a directory, not a regular file",
        )),
        Err(e) => Err(e),
    }
}

/// Write `bytes` as the whole of the file at `path`, and list it for the browser's storage.
/// Folders need not be made first.
pub fn write(path: &Path, bytes: &[u8]) {
    with_files(|files| {
        files.bytes.insert(path.to_path_buf(), bytes.to_vec());
        files.written.retain(|p| p != path);
        files.written.push(path.to_path_buf());
    });
}

/// Move the file at `from` to `to` (both are listed for the storage: `from` as gone).
///
/// # Errors
/// [`io::ErrorKind::NotFound`] when there is no file at `from`.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    with_files(|files| {
        let bytes = files.bytes.remove(from).ok_or_else(|| not_found(from))?;
        files.bytes.insert(to.to_path_buf(), bytes);
        for path in [from, to] {
            files.written.retain(|p| p != path);
            files.written.push(path.to_path_buf());
        }
        Ok(())
    })
}

/// The files directly in the folder `dir`.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    with_files(|files| {
        files
            .bytes
            .range(dir.to_path_buf()..)
            .take_while(|(p, _)| p.starts_with(dir))
            .filter(|(p, _)| p.parent() == Some(dir))
            .map(|(p, _)| p.clone())
            .collect()
    })
}

/// The files written (or moved away: `None`) since the last call, with their bytes now.
pub fn take_written() -> Vec<(PathBuf, Option<Vec<u8>>)> {
    with_files(|files| {
        std::mem::take(&mut files.written)
            .into_iter()
            .map(|path| {
                let bytes = files.bytes.get(&path).cloned();
                (path, bytes)
            })
            .collect()
    })
}

/// Put back a file the browser's storage kept, without listing it as written.
pub fn restore(path: &Path, bytes: Vec<u8>) {
    with_files(|files| {
        files.bytes.insert(path.to_path_buf(), bytes);
    });
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: no such file", path.display()),
    )
}

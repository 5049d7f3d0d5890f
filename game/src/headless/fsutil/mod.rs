//! The game's two gates to the file system: [`open_regular`] for every file it reads (levels,
//! the atlas, sounds, input scripts, replays), which never blocks ([`read`]), and
//! [`write_atomic`] for every file it writes, which never loses one ([`write`]). In a browser both go to files held in memory
//! (`in_memory`, on `wasm32` only).

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod in_memory;
pub mod read;
pub mod write;

pub use read::{
    BoundedReadError, exists, files_in, is_dir, is_file, open_regular, read_bounded,
    regular_file_metadata,
};
pub use write::{
    Lock, WriteError, check_not_input, check_output, create_dir_all, folder_of, keep_copy,
    lock_exclusive, remove_stale_temporaries, rename, write_atomic,
};

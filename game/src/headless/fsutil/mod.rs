//! The game's two gates to the file system: [`open_regular`] for every file it reads (levels,
//! the atlas, sounds, input scripts, replays), which never blocks ([`read`]), and
//! [`write_atomic`] for every file it writes, which never loses one ([`write`]).

pub mod read;
pub mod write;

pub use read::{BoundedReadError, open_regular, read_bounded, regular_file_metadata};
pub use write::{
    WriteError, check_not_input, check_output, remove_stale_temporaries, write_atomic,
};

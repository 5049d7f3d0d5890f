//! Replays: a run's level, seed and every step's input, with checkpoint hashes of its state, so a
//! run can be watched again (`crate-room replay FILE`) or re-simulated and checked
//! (`crate-room replay FILE --verify`).
//!
//! A replay is a text file. Inputs are run-length encoded in the input script's
//! `STEPS [KEY ...]` form, so an hour of bot play (216,000 steps) is a few KB of inputs and two
//! replays diff line by line:
//!
//! ```text
//! crate-room replay 3
//! level levels/crate_room.ron
//! level-fnv1a64 5c1e0f6a2b7d9e43
//! seed 1
//! steps 1250
//! inputs
//! 14 right
//! 3 attack
//! 1233
//! checkpoints
//! 600 0b3f4c2a19d87e65
//! 1200 7a1d0e9c33b2f418
//! 1250 e4c2b1a0f9d83765
//! end
//! ```
//!
//! `level` is the level file as it was opened; `level-fnv1a64` the FNV-1a 64 hash of its
//! bytes, so a level edited since the recording is reported rather than replayed into a
//! different game. A checkpoint `N H` is the [`crate::sim::Sim::checkpoint_hash`] after step
//! N (the game's state without the camera, which follows the window's size, with its entities summed as they
//! change, so a checkpoint costs what changed rather than a walk over every entity): one every
//! [`CHECKPOINT_EVERY`] steps and one at the end. `end` closes the file, so a truncated copy is
//! told apart from a short run.
//!
//! A replay file is untrusted input, like a level: [`Replay::parse`] checks sizes before
//! allocating, never panics, and reports the line and column of the first problem.

pub mod deep;
mod emit;
mod level_file;
mod limits;
mod lines;
mod model;
mod parse;
mod recorder;
mod replay_error;
mod syntax;
mod verify;
pub mod verify_command;

pub use level_file::{find_level, load_sim};
pub use limits::{CHECKPOINT_EVERY, MAX_FILE_BYTES, MAX_LEVEL_PATH_CHARS, MAX_STEPS, VERSION};
pub use model::{Replay, fnv1a64};
pub use recorder::{Recorder, saved_path, unused_saved_path};
pub use replay_error::ReplayError;
pub use syntax::{SyntaxError, SyntaxErrorKind, Wanted};
pub use verify::{VerifyOutcome, verify, verify_with};

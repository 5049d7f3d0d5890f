//! The replay format's version and the limits a replay file is held to.

/// The format version this build writes and reads: version 3 checkpoints
/// [`crate::sim::Sim::checkpoint_hash`] of a simulation that draws from PCG32 and hashes the
/// swing (the `Swing` component). The same inputs gave other checkpoints in older versions
/// (version 2: `rand`'s `StdRng`, the swing outside the hash; version 1: the whole state hash),
/// so their files are refused as made by an older version (record the run again) rather than
/// reported as a divergence.
pub const VERSION: u32 = 3;

/// Steps between two checkpoints: ten seconds of play. The simulation's own constant, on whose
/// steps the `checkpoint` system folds its sum.
pub const CHECKPOINT_EVERY: u64 = crate::sim::state_hash::CHECKPOINT_EVERY;

/// The largest replay file read: at one line of about 10 bytes per input change, 4 MiB is far
/// more than a day of play.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The longest run a replay may hold: a day at 60 steps per second (60 * 60 * 60 * 24).
/// Verifying it re-simulates every step, so the limit bounds the work a file can ask for.
pub const MAX_STEPS: u64 = 60 * 60 * 60 * 24;

/// The longest level path stored, in characters.
pub const MAX_LEVEL_PATH_CHARS: usize = 4096;

/// The first line of every replay file, before the version.
pub(super) const MAGIC: &str = "crate-room replay";

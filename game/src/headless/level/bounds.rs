//! The size limits of a level file, checked before anything is allocated for it.

/// Largest map side, in cells.
pub const MAX_SIDE: u32 = 1024;
/// Largest number of crates in one level.
pub const MAX_CRATES: usize = 1_000_000;
/// Largest number of crate overrides: one per crate.
pub const MAX_OVERRIDES: usize = MAX_CRATES;
/// Longest level name, in characters: what fits the HUD bar beside the score.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest skin name, in characters; the atlas's sprite names are far shorter.
pub const MAX_SKIN_CHARS: usize = 64;
/// Largest level file `load` reads; 16 MiB is several times a full 1024 x 1024 map.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Slowest par time, in seconds: a day, the longest run a replay holds.
pub const MAX_PAR_SECONDS: f64 = 86_400.0;
/// Smallest and largest crate health.
pub const HEALTH_RANGE: std::ops::RangeInclusive<i64> = 1..=1000;

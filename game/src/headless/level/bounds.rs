//! The size limits of a level file, checked before anything is allocated for it.

/// Largest map side, in cells: 4096 x 4096 = 16,777,216 cells, room for [`MAX_CRATES`] in
/// the dense layout (see [`DENSE_PERIOD`](super::DENSE_PERIOD)). Cell and slot indices stay far
/// inside `u32`, and world coordinates (16 px a cell, at most 65,536 px) far inside what an
/// `f32` holds exactly.
pub const MAX_SIDE: u32 = 4096;
/// Largest number of crates in one level.
pub const MAX_CRATES: usize = 10_000_000;
/// Largest number of crate overrides. An override is at least 13 bytes (`(at:(0,0)),`), so a
/// file of [`MAX_FILE_BYTES`] could not hold one per crate anyway.
pub const MAX_OVERRIDES: usize = 1_000_000;
/// Longest level name, in characters: what fits the HUD bar beside the score.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest level hint, in characters: one line across a 640-pixel-wide window.
pub const MAX_HINT_CHARS: usize = 72;
/// Longest skin name, in characters; the atlas's sprite names are far shorter.
pub const MAX_SKIN_CHARS: usize = 64;
/// Largest level file `load` reads: 32 MiB, about twice a full 4096 x 4096 map (a row is its
/// cells plus some 12 bytes of quotes, comma and indent: 4096 x 4108 = 16.8 MB).
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// Slowest par time, in seconds: a day, the longest run a replay holds.
pub const MAX_PAR_SECONDS: f64 = 86_400.0;
/// Smallest and largest crate health.
pub const HEALTH_RANGE: std::ops::RangeInclusive<i64> = 1..=1000;

//! Generated crate-filled rooms, for stress levels like `cratetopia.ron` and for tests.
//!
//! Two layouts ([`Layout`]). **Blocks** ([`generate`], [`generate_with_kegs`]): a square room
//! whose interior is a grid of 4 x 4 blocks separated by one-cell lanes. Crates only ever go in
//! blocks, so every lane stays walkable and the player, who starts on a lane crossing near the
//! centre, can reach every cluster. The four blocks around the start stay empty.
//!
//! ```text
//! #############
//! #...........#
//! #.cc.#.cccc.#     `.` lanes between blocks
//! #.Cc.#.c$cc.#     `c C $` a crate cluster filling part of a block
//! #.cc...cccc.#     `#` a wall pillar in a block no crate needed
//! #...........#
//! #############
//! ```
//!
//! **Dense** ([`generate_dense`]): for the largest levels (up to the format's 10,000,000
//! crates, more than the blocks fit). Crates fill every cell but a lane row every [`DENSE_PERIOD`]
//! rows and one lane column through the middle; the player starts where the middle column
//! crosses the lane row nearest the centre. The cells left empty (when the room holds more
//! than asked for) are spread evenly at random, so every part of the room is equally full.
//!
//! ```text
//! ########      `gen-level --dense --crates 24 --seed 5`:
//! #...@..#      the first row (and every DENSE_PERIOD-th after it) is a lane,
//! #c.C.c$#      and so is the middle column;
//! #cCc.Cc#      `.` elsewhere: a spare cell, as the room holds 25 and 24 were asked for
//! #ccc.CC#
//! #CcC.Cc#
//! #ccC.cc#
//! ########
//! ```

use std::fmt::Write;

use super::bounds::{MAX_CRATES, MAX_SIDE};

/// How [`generate_level`] lays out a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Clusters of crates in 4 x 4 blocks between lanes, a clear plaza at the start: at most
    /// [`MAX_GENERATED_CRATES`].
    #[default]
    Blocks,
    /// Crates in every cell but the lanes: at most [`MAX_DENSE_CRATES`].
    Dense,
}

impl Layout {
    /// The most crates and kegs together this layout places.
    pub const fn max_crates(self) -> usize {
        match self {
            Layout::Blocks => MAX_GENERATED_CRATES,
            Layout::Dense => MAX_DENSE_CRATES,
        }
    }

    /// The side, in cells, of the square map this layout lays `filled` crates and kegs out in,
    /// walls included: arithmetic only, so a limit can be checked without a level that big.
    pub fn map_side(self, filled: usize) -> usize {
        match self {
            Layout::Blocks => map_side(BlockGrid::for_count(filled).per_side),
            Layout::Dense => dense_inner(filled) + 2,
        }
    }
}

/// The interior side of the smallest dense room (at least 3 cells) with room for `filled`.
fn dense_inner(filled: usize) -> usize {
    // Capacity grows with the square of the side: start near the root, then step.
    let mut inner = ((filled as f64).sqrt() as usize).max(3);
    while inner > 3 && dense_capacity(inner - 1) >= filled {
        inner -= 1;
    }
    while dense_capacity(inner) < filled {
        inner += 1;
    }
    inner
}

/// Side of a block of crate cells, and the period of the block grid (block plus lane).
const BLOCK: usize = 4;
const PERIOD: usize = BLOCK + 1;
/// Average crates per block (a block holds `BLOCK * BLOCK` = 16); leaves gaps inside clusters.
const AVERAGE_FILL: usize = 12;
/// Fewest blocks per side, so even an empty level is a room rather than a closet.
const MIN_BLOCKS_PER_SIDE: usize = 3;
/// Blocks around the start that stay empty.
const START_BLOCKS: usize = 4;

/// Side of the map, in cells, for `per_side` blocks per side: a lane, then a block and a lane
/// per block, inside two walls.
const fn map_side(per_side: usize) -> usize {
    per_side * PERIOD + 1 + 2
}

/// Most crates [`generate`] places: the count whose room is the largest that fits the format's
/// [`MAX_SIDE`] limit. (4096 - 3) / 5 = 818 blocks per side, a 4093-cell map; 818 * 818 - 4 =
/// 669,120 blocks for crates at 12 each: 8,029,440 crates. One more needs 819 blocks per side,
/// a 4098-cell map, which `check` would refuse.
pub const MAX_GENERATED_CRATES: usize = {
    let per_side = (MAX_SIDE as usize - map_side(0)) / PERIOD;
    let fits = (per_side * per_side - START_BLOCKS) * AVERAGE_FILL;
    if fits < MAX_CRATES { fits } else { MAX_CRATES }
};

/// Period of the dense layout's lane rows: a lane, then 31 rows of crates. (4096 - 2) interior
/// rows hold 128 lanes, leaving 3,966 rows of 4,093 crate cells (one column is the lane):
/// 16,232,838 cells, enough for the format's 10,000,000 crates (a 3,215-cell room holds them).
pub const DENSE_PERIOD: usize = 32;

/// Crate cells of a dense room whose interior is `inner` x `inner` cells: every cell but the
/// lane rows (the first interior row and every [`DENSE_PERIOD`]-th after it) and the middle
/// column.
const fn dense_capacity(inner: usize) -> usize {
    if inner < 3 {
        return 0;
    }
    (inner - inner.div_ceil(DENSE_PERIOD)) * (inner - 1)
}

/// Most crates [`generate_dense`] places: the format's [`MAX_CRATES`], since a room of
/// [`MAX_SIDE`] cells has room for more (see [`DENSE_PERIOD`]).
pub const MAX_DENSE_CRATES: usize = {
    let fits = dense_capacity(MAX_SIDE as usize - 2);
    if fits < MAX_CRATES { fits } else { MAX_CRATES }
};

/// A crate count larger than its layout places ([`Layout::max_crates`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{requested} crates do not fit in a level: {}", limit_text(*.layout))]
pub struct TooManyCrates {
    /// The count asked for.
    pub requested: u64,
    /// The layout asked for.
    pub layout: Layout,
}

fn limit_text(layout: Layout) -> String {
    match layout {
        Layout::Blocks => format!(
            "at most {MAX_GENERATED_CRATES} do, in a map of at most {MAX_SIDE} x {MAX_SIDE} cells \
             (the dense layout, `gen-level --dense`, packs up to {MAX_DENSE_CRATES})"
        ),
        Layout::Dense => format!(
            "at most {MAX_DENSE_CRATES} do in the dense layout, the format's limit \
             (the block layout takes at most {MAX_GENERATED_CRATES})"
        ),
    }
}

/// Splitmix64: tiny, fast, and frozen here so generated levels never change with a dependency.
#[derive(Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant for level layout.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Generate the RON text of a valid level with exactly `crates` crates.
///
/// The same arguments always give byte-identical text. About one crate in six is strong and one
/// in twenty drops a coin. The room grows as a square with the crate count, up to the format's
/// map size limit: at most [`MAX_GENERATED_CRATES`] crates fit, and the text is then about 17 MB.
///
/// # Errors
/// [`TooManyCrates`] for more than [`MAX_GENERATED_CRATES`], before allocating anything.
pub fn generate(crates: usize, seed: u64) -> Result<String, TooManyCrates> {
    generate_with_kegs(crates, 0, seed)
}

/// Generate the RON text of a valid level with exactly `crates` crates and `kegs` powder kegs
/// (map character `k`), for stress levels whose kegs go off in chains. Kegs take cells like
/// crates, spread evenly among them (each filled cell is a keg with the chance of the kegs left
/// among the cells left), so the room is sized for `crates + kegs`. With no kegs the text is
/// that of [`generate`].
///
/// # Errors
/// [`TooManyCrates`] when `crates + kegs` is more than [`MAX_GENERATED_CRATES`], before
/// allocating anything.
pub fn generate_with_kegs(crates: usize, kegs: usize, seed: u64) -> Result<String, TooManyCrates> {
    check_count(crates, kegs, Layout::Blocks)?;
    let mut rng = SplitMix64(seed);
    let crates_and_kegs = crates + kegs;
    let blocks = BlockGrid::for_count(crates_and_kegs);
    let side = Layout::Blocks.map_side(crates_and_kegs);
    let mut grid = walled_grid(side);
    let fill = block_fill(&blocks, crates_and_kegs, &mut rng);
    let mut draw = KegDraw {
        kegs_left: kegs,
        cells_left: crates_and_kegs,
    };
    let mut cells: Vec<usize> = (0..BLOCK * BLOCK).collect();
    for (block, &count) in fill.iter().enumerate() {
        let (ox, oy) = blocks.origin(block);
        if blocks.near_start(block) {
            continue;
        }
        if count == 0 {
            // An unused block becomes a pillar now and then, for some interior walls.
            if rng.below(4) == 0 {
                for (dx, dy) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
                    grid[(oy + dy) * side + ox + dx] = b'#';
                }
            }
            continue;
        }
        rng.shuffle(&mut cells);
        for &cell in &cells[..count] {
            grid[(oy + cell / BLOCK) * side + ox + cell % BLOCK] = draw.glyph(&mut rng);
        }
    }
    // The lane crossing nearest the centre; lanes never hold crates or pillars.
    let centre = 1 + blocks.centre_lane * PERIOD;
    grid[centre * side + centre] = b'@';

    Ok(match kegs {
        0 => level_text(
            &format!("level::generate({crates}, {seed})"),
            &format!("Generated: {crates} crates (seed {seed})"),
            &grid,
            side,
        ),
        // At most 7 + 7 + 20 digits: within the 64-character name limit.
        _ => level_text(
            &format!("level::generate_with_kegs({crates}, {kegs}, {seed})"),
            &format!("{kegs} kegs, {crates} crates (seed {seed})"),
            &grid,
            side,
        ),
    })
}

/// The square of blocks a blocks level is laid out in, lanes between them.
struct BlockGrid {
    /// Blocks along a side.
    per_side: usize,
    /// The lane the player starts on, across and down.
    centre_lane: usize,
}

impl BlockGrid {
    /// The smallest square that holds `filled` cells at the average fill, with the four empty
    /// blocks around the start.
    fn for_count(filled: usize) -> Self {
        // The four blocks around the start stay empty, so the player starts in a clear plaza.
        let blocks_needed = filled.div_ceil(AVERAGE_FILL) + START_BLOCKS;
        let mut per_side = ((blocks_needed as f64).sqrt().ceil() as usize).max(MIN_BLOCKS_PER_SIDE);
        while per_side * per_side < blocks_needed {
            per_side += 1;
        }
        Self {
            per_side,
            centre_lane: per_side / 2,
        }
    }

    /// Whether `block` is one of the four around the start.
    fn near_start(&self, block: usize) -> bool {
        let (bx, by) = (block % self.per_side, block / self.per_side);
        let lanes = self.centre_lane - 1..=self.centre_lane;
        lanes.contains(&bx) && lanes.contains(&by)
    }

    /// The map cell of `block`'s top-left corner.
    fn origin(&self, block: usize) -> (usize, usize) {
        let (bx, by) = (block % self.per_side, block / self.per_side);
        (1 + 1 + bx * PERIOD, 1 + 1 + by * PERIOD)
    }
}

/// A `side` by `side` map of floor inside a wall.
fn walled_grid(side: usize) -> Vec<u8> {
    let mut grid = vec![b'.'; side * side];
    for i in 0..side {
        grid[i] = b'#';
        grid[(side - 1) * side + i] = b'#';
        grid[i * side] = b'#';
        grid[i * side + side - 1] = b'#';
    }
    grid
}

/// How many cells of each block to fill so that `filled` cells are filled in all, in clusters
/// of varying density (the blocks around the start stay empty).
fn block_fill(blocks: &BlockGrid, filled: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..blocks.per_side * blocks.per_side)
        .filter(|&b| !blocks.near_start(b))
        .collect();
    rng.shuffle(&mut order);
    let mut fill = vec![0usize; blocks.per_side * blocks.per_side];
    let mut remaining = filled;
    // First pass: clusters of varying density; second pass tops blocks up if that fell short.
    for pass in 0..2 {
        for &block in &order {
            if remaining == 0 {
                break;
            }
            let target = if pass == 0 {
                AVERAGE_FILL - 4 + rng.below(9)
            } else {
                BLOCK * BLOCK
            };
            let add = target.saturating_sub(fill[block]).min(remaining);
            fill[block] += add;
            remaining -= add;
        }
    }
    fill
}

/// Which filled cells are kegs: each one with the chance of the kegs left among the cells left,
/// so the kegs spread evenly among the crates.
struct KegDraw {
    kegs_left: usize,
    cells_left: usize,
}

impl KegDraw {
    /// The map character of the next filled cell: a keg or a crate.
    fn glyph(&mut self, rng: &mut SplitMix64) -> u8 {
        // No draw at all without kegs, so those levels stay what they were.
        let keg = self.kegs_left > 0 && rng.below(self.cells_left) < self.kegs_left;
        self.cells_left -= 1;
        if keg {
            self.kegs_left -= 1;
            return b'k';
        }
        crate_glyph(rng)
    }
}

/// Generate the RON text of a valid level in `layout` with exactly `crates` crates and `kegs`
/// powder kegs.
///
/// # Errors
/// [`TooManyCrates`] when `crates + kegs` is more than `layout` places, before allocating
/// anything.
pub fn generate_level(
    layout: Layout,
    crates: usize,
    kegs: usize,
    seed: u64,
) -> Result<String, TooManyCrates> {
    match layout {
        Layout::Blocks => generate_with_kegs(crates, kegs, seed),
        Layout::Dense => generate_dense(crates, kegs, seed),
    }
}

/// `crates + kegs` if `layout` places that many.
fn check_count(crates: usize, kegs: usize, layout: Layout) -> Result<usize, TooManyCrates> {
    crates
        .checked_add(kegs)
        .filter(|&n| n <= layout.max_crates())
        .ok_or(TooManyCrates {
            requested: (crates as u64).saturating_add(kegs as u64),
            layout,
        })
}

/// Generate the RON text of a valid level in the dense layout (see the module docs) with
/// exactly `crates` crates and `kegs` powder kegs: the smallest square room that holds them,
/// at least 5 x 5 cells. The same arguments always give byte-identical text; crates and kegs
/// are drawn as in [`generate_with_kegs`] (about one crate in six strong, one in twenty with a
/// coin).
///
/// # Errors
/// [`TooManyCrates`] when `crates + kegs` is more than [`MAX_DENSE_CRATES`], before allocating
/// anything.
pub fn generate_dense(crates: usize, kegs: usize, seed: u64) -> Result<String, TooManyCrates> {
    let total = check_count(crates, kegs, Layout::Dense)?;
    let inner = dense_inner(total);
    let side = inner + 2;
    let middle = 1 + inner / 2;
    let is_lane = |x: usize, y: usize| (y - 1).is_multiple_of(DENSE_PERIOD) || x == middle;
    let mut rng = SplitMix64(seed);
    // Each crate cell is filled with the chance of the fillings left among the cells left, and a
    // filling is a keg with the chance of the kegs left among the fillings left: exact counts,
    // evenly spread, in one pass.
    let (mut cells_left, mut fill_left, mut kegs_left) = (dense_capacity(inner), total, kegs);
    let mut grid = vec![b'#'; side * side];
    for y in 1..side - 1 {
        for x in 1..side - 1 {
            let cell = &mut grid[y * side + x];
            if is_lane(x, y) {
                *cell = b'.';
                continue;
            }
            let filled = rng.below(cells_left) < fill_left;
            cells_left -= 1;
            if !filled {
                *cell = b'.';
                continue;
            }
            let keg = kegs_left > 0 && rng.below(fill_left) < kegs_left;
            fill_left -= 1;
            *cell = if keg {
                kegs_left -= 1;
                b'k'
            } else {
                crate_glyph(&mut rng)
            };
        }
    }
    // The lane row nearest the centre (interior rows 0, 32, 64, ...), where the middle column
    // crosses it.
    let nearest = (inner / 2 + DENSE_PERIOD / 2) / DENSE_PERIOD * DENSE_PERIOD;
    let lane = if nearest < inner {
        nearest
    } else {
        nearest - DENSE_PERIOD
    };
    grid[(1 + lane) * side + middle] = b'@';
    // At most 7 + 7 + 20 digits: within the 64-character name limit.
    let name = match kegs {
        0 => format!("Dense: {crates} crates (seed {seed})"),
        _ => format!("Dense: {kegs} kegs, {crates} crates (seed {seed})"),
    };
    Ok(level_text(
        &format!("level::generate_dense({crates}, {kegs}, {seed})"),
        &name,
        &grid,
        side,
    ))
}

/// A crate's map character: one in twenty drops a coin (`$`), three in twenty are strong (`C`).
fn crate_glyph(rng: &mut SplitMix64) -> u8 {
    match rng.below(20) {
        0 => b'$',
        1..=3 => b'C',
        _ => b'c',
    }
}

/// The level file for `grid` (`side` x `side` ASCII cells), named `name`, with a comment naming
/// the call that made it.
fn level_text(call: &str, name: &str, grid: &[u8], side: usize) -> String {
    let mut text = String::with_capacity(side * (side + 12) + 200);
    // Writing to a String cannot fail.
    let _ = writeln!(text, "// Generated by `{call}`.");
    let _ = writeln!(text, "(");
    let _ = writeln!(text, "    name: \"{name}\",");
    let _ = writeln!(text, "    map: [");
    for row in grid.chunks(side) {
        text.push_str("        \"");
        // The grid holds ASCII only.
        text.push_str(std::str::from_utf8(row).unwrap_or_default());
        text.push_str("\",\n");
    }
    text.push_str("    ],\n)\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_count_fills_the_largest_map_that_fits() {
        assert_eq!(MAX_GENERATED_CRATES, 8_029_440);
        let side = |crates: usize| {
            let blocks = crates.div_ceil(AVERAGE_FILL) + START_BLOCKS;
            map_side(blocks.isqrt() + usize::from(blocks.isqrt().pow(2) < blocks))
        };
        assert!(side(MAX_GENERATED_CRATES) <= MAX_SIDE as usize);
        assert!(side(MAX_GENERATED_CRATES + 1) > MAX_SIDE as usize);
    }

    #[test]
    fn the_dense_layout_reaches_the_format_limit_within_the_largest_map() {
        assert_eq!(MAX_DENSE_CRATES, MAX_CRATES);
        assert_eq!(dense_capacity(MAX_SIDE as usize - 2), 16_232_838);
        let mut inner = 3;
        while dense_capacity(inner) < MAX_DENSE_CRATES {
            inner += 1;
        }
        assert!(inner + 2 <= MAX_SIDE as usize, "{inner}");
    }

    #[test]
    fn too_many_crates_is_an_error_naming_the_limit() {
        let err = generate(usize::MAX, 1).unwrap_err();
        assert_eq!(err.requested, usize::MAX as u64);
        assert!(err.to_string().contains("at most 8029440"), "{err}");
    }

    #[test]
    fn splitmix_matches_reference_sequence() {
        // First outputs for seed 1234567 from the reference C implementation.
        let mut rng = SplitMix64(1_234_567);
        assert_eq!(rng.next(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next(), 3_203_168_211_198_807_973);
    }
}

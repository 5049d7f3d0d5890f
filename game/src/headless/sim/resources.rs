//! Resources: the singletons systems share (input, clips, game state, camera, random numbers,
//! the collision and render grids, debug counts).

use std::collections::{HashMap, VecDeque};

use ecs::Entity;
use rand::Rng as _;
/// The generator [`SimRng`] draws from.
pub use rand_pcg::Pcg32;

use crate::atlas::clip_names::{self, Facing};
use crate::atlas::{AtlasData, FrameRect};
use crate::level::{Level, Tile};

use super::components::ClipId;
use super::spatial_hash::SpatialHash;
use super::tuning::{BURN_STEPS, TILE};

/// Steps per second of the fixed simulation step.
pub const STEPS_PER_SECOND: u32 = 60;

/// One step's input, however it was produced (keyboard, bot, test script).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// -1 left, 0, +1 right.
    pub move_x: i8,
    /// -1 up, 0, +1 down.
    pub move_y: i8,
    /// Attack held this step.
    pub attack: bool,
}

/// One clip resolved against the atlas: frame rectangles and timing in steps.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipData {
    /// Clip name (`crate_explode`).
    pub name: String,
    /// Atlas rectangle of each frame.
    pub frames: Vec<FrameRect>,
    /// Steps each frame shows (at least 1).
    pub steps_per_frame: u32,
    /// Loops forever, or stops on its last frame.
    pub looping: bool,
}

impl ClipData {
    /// Steps a once-clip takes to play through.
    pub fn duration_steps(&self) -> u32 {
        self.steps_per_frame * self.frames.len() as u32
    }

    /// Whether the clip ever changes frame.
    pub fn animates(&self) -> bool {
        self.frames.len() > 1
    }
}

/// Every clip of the atlas, by id and by name.
#[derive(Clone, Debug, Default)]
pub struct Clips {
    clips: Vec<ClipData>,
    by_name: HashMap<String, ClipId>,
}

/// A clip the game needs that the atlas lacks, or a clip that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ClipError {
    /// A clip the rules need is not in the atlas.
    #[error(
        "the atlas has no clip `{0}`, which the game needs (regenerate assets with `cargo run -p game --bin gen-assets`)"
    )]
    Missing(String),
    /// A clip names a frame that is not in the frame table.
    #[error("clip `{clip}` names frame `{frame}`, which is not in the atlas frame table")]
    MissingFrame {
        /// The clip.
        clip: String,
        /// The frame it names.
        frame: String,
    },
    /// A clip has no frames.
    #[error("clip `{0}` has no frames")]
    Empty(String),
}

impl Clips {
    /// Resolve every clip of `atlas` (frame names to rectangles, seconds to steps).
    ///
    /// # Errors
    /// If a clip is empty or names a missing frame.
    pub fn from_atlas(atlas: &AtlasData) -> Result<Self, ClipError> {
        let mut clips = Self::default();
        for (name, clip) in &atlas.clips {
            if clip.frames.is_empty() {
                return Err(ClipError::Empty(name.clone()));
            }
            let frames = clip
                .frames
                .iter()
                .map(|f| {
                    atlas.frame(f).ok_or_else(|| ClipError::MissingFrame {
                        clip: name.clone(),
                        frame: f.clone(),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let steps = (clip.frame_time * STEPS_PER_SECOND as f32).round().max(1.0) as u32;
            let id = ClipId(clips.clips.len() as u16);
            clips.by_name.insert(name.clone(), id);
            clips.clips.push(ClipData {
                name: name.clone(),
                frames,
                steps_per_frame: steps,
                looping: clip.looping,
            });
        }
        Ok(clips)
    }

    /// Id of the clip called `name`.
    pub fn id(&self, name: &str) -> Option<ClipId> {
        self.by_name.get(name).copied()
    }

    /// The clip with id `id`.
    ///
    /// # Panics
    /// If `id` did not come from this table.
    pub fn get(&self, id: ClipId) -> &ClipData {
        &self.clips[id.0 as usize]
    }
}

/// Score, crate counts and the step counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    /// Steps simulated so far.
    pub step: u64,
    /// Crates the level started with.
    pub crates_total: u32,
    /// Crates not yet broken (a crate whose burst is still playing is broken).
    pub crates_left: u32,
    /// Coins picked up.
    pub score: u32,
    /// Blasts that caught the player while the clock ran, each [`BURN_STEPS`] on the clock.
    pub burns: u32,
    /// Step at which the last crate broke: the room's clock stops there.
    pub cleared_at: Option<u64>,
    /// Steps before the one on which the player first moved or swung: the room's clock starts
    /// there, not when the level appears.
    pub started_at: Option<u64>,
}

/// Steps a coin takes off the room's clock (one second): what coins are for.
pub const COIN_BONUS_STEPS: u64 = 60;

impl GameState {
    /// The room's clock, in steps: from the player's first move or swing to the last crate
    /// (or to now), plus [`BURN_STEPS`] for each burn, less [`COIN_BONUS_STEPS`] for each coin
    /// picked up, never below 0. Best times and medals count this.
    pub fn clock(&self) -> u64 {
        let Some(start) = self.started_at else {
            return 0;
        };
        let end = self.cleared_at.unwrap_or(self.step);
        (end.saturating_sub(start) + u64::from(self.burns) * BURN_STEPS)
            .saturating_sub(u64::from(self.score) * COIN_BONUS_STEPS)
    }

    /// The room's time once it is cleared ([`GameState::clock`] at the clear).
    pub fn room_time(&self) -> Option<u64> {
        self.cleared_at.map(|_| self.clock())
    }
}

/// The level's tile grid, shared by the bot, the renderer and level bounds checks, and the crate
/// standing on each cell. Its size and tiles never change after it is built; crates change only
/// through [`TileMap::set_crate`], which counts the change, so a plan made on the map (the bot's
/// search) stays valid while [`TileMap::changes`] stays the same.
#[derive(Clone, Debug)]
pub struct TileMap {
    /// Width in tiles.
    pub width: u32,
    /// Height in tiles.
    pub height: u32,
    /// Row-major tiles.
    tiles: Vec<Tile>,
    /// Crate standing on each cell (row-major), `None` once broken.
    crates: Vec<Option<Entity>>,
    /// Changes to `crates` since the map was built.
    changes: u64,
}

impl TileMap {
    /// Bytes allocated on the heap (by capacity): the tiles and the crate per cell.
    pub fn heap_bytes(&self) -> usize {
        self.tiles.capacity() * size_of::<Tile>()
            + self.crates.capacity() * size_of::<Option<Entity>>()
    }

    /// Tile grid of `level`, without crates (setup fills them in).
    pub fn new(level: &Level) -> Self {
        Self {
            width: level.width,
            height: level.height,
            tiles: level.tiles.clone(),
            crates: vec![None; level.tiles.len()],
            changes: 0,
        }
    }

    /// Every tile, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The crate standing on the cell with row-major index `i` (`None` when there is none or
    /// `i` is outside the map).
    pub fn crate_at(&self, i: usize) -> Option<Entity> {
        self.crates.get(i).copied().flatten()
    }

    /// Every cell's crate, row-major.
    pub fn crates(&self) -> &[Option<Entity>] {
        &self.crates
    }

    /// Put `entity` (or nothing) on the cell with row-major index `i`, counting a change if it
    /// differs. Does nothing outside the map.
    pub fn set_crate(&mut self, i: usize, entity: Option<Entity>) {
        if let Some(cell) = self.crates.get_mut(i)
            && *cell != entity
        {
            *cell = entity;
            self.changes += 1;
        }
    }

    /// How many times a cell's crate changed since the map was built.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Tile at `(x, y)`; outside the map is void.
    pub fn tile(&self, x: i32, y: i32) -> Tile {
        self.index(x, y).map_or(Tile::Void, |i| self.tiles[i])
    }

    /// Row-major index of `(x, y)` if inside the map.
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    /// Whether walls let a swing whose arc is centred on `(ax, ay)` (world pixels) reach the
    /// crate on cell `(x, y)`, one the arc covers. Walls (and the void) stop the hammer:
    ///
    /// - an arc centred on a wall cell hits nothing (a swing into a wall);
    /// - a crate diagonal to the arc centre's cell is reached through the corner they share
    ///   only if at least one of the two cells beside that corner is open: never squeezed
    ///   between two walls.
    ///
    /// The arc (7 px in radius) covers only the centre's cell and its 8 neighbours, so those
    /// two cases are every way a wall can stand between the arc's centre and a crate under it.
    pub fn swing_reaches(&self, ax: f32, ay: f32, x: i32, y: i32) -> bool {
        let (cx, cy) = ((ax / TILE).floor() as i32, (ay / TILE).floor() as i32);
        let solid = |x: i32, y: i32| self.tile(x, y) != Tile::Floor;
        if solid(cx, cy) {
            return false;
        }
        let diagonal = x != cx && y != cy;
        !(diagonal && solid(x, cy) && solid(cx, y))
    }

    /// Level size in world pixels.
    pub fn size_px(&self) -> (f32, f32) {
        (self.width as f32 * TILE, self.height as f32 * TILE)
    }
}

/// Where the camera looks: the centre of the view in world pixels, and the view size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// View centre, world pixels.
    pub x: f32,
    /// View centre, world pixels.
    pub y: f32,
    /// View width in world pixels (screen width / zoom).
    pub view_w: f32,
    /// View height in world pixels.
    pub view_h: f32,
    /// Jump straight to the target on the next step instead of easing (level start).
    pub snap: bool,
}

impl Default for Camera {
    fn default() -> Self {
        // 1280 x 720 at 3 screen pixels per art pixel.
        Self {
            x: 0.0,
            y: 0.0,
            view_w: 1280.0 / 3.0,
            view_h: 720.0 / 3.0,
            snap: true,
        }
    }
}

/// The simulation's only source of randomness, seeded from the command line: `rand_pcg`'s
/// [`Pcg32`] (O'Neill's PCG-XSH-RR with 64-bit state and 32-bit output,
/// <https://www.pcg-random.org/>), which `rand` documents as portable and reproducible, drawn
/// through `rand`'s [`Rng`] trait. Only integer arithmetic: a replay or a gold time recorded
/// today verifies on any platform, and `Cargo.lock` keeps the crate's version (floats are made
/// from its words by exact IEEE operations, [`SimRng::range_f32`]). `game/tests/sim_rng.rs`
/// pins its first outputs against the PCG paper's reference, so an update that changed them
/// fails there first. It counts the 32-bit words drawn, so that its state is known from two
/// numbers, the seed and the words drawn, which the state hash covers.
#[derive(Clone, Debug)]
pub struct SimRng {
    pcg: Pcg32,
    seed: u64,
    words: u64,
}

impl SimRng {
    /// A generator seeded with `seed` (PCG32 with `seed` as its initial state, on stream
    /// [`SimRng::STREAM`]).
    pub fn new(seed: u64) -> Self {
        Self {
            pcg: Pcg32::new(seed, Self::STREAM),
            seed,
            words: 0,
        }
    }

    /// The PCG32 stream (sequence) every simulation draws from: the one of the PCG paper's demo.
    pub const STREAM: u64 = 54;

    /// The seed it started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// 32-bit words drawn so far.
    pub fn words_drawn(&self) -> u64 {
        self.words
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.words += 1;
        self.pcg.next_u32()
    }

    /// A float between `lo` and `hi`: one word's top 24 bits as a fraction `u` in [0, 1) (exact
    /// in an `f32`), then `lo + (hi - lo) * u`, each operation rounded to nearest as IEEE 754
    /// requires everywhere. Rounding can give `hi` itself.
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        Self::range_f32_of(self.next_u32(), lo, hi)
    }

    /// What [`SimRng::range_f32`] returns when it draws `word`: only its top 24 bits count, so
    /// between any `lo` and `hi` it can return at most 2^24 values.
    pub fn range_f32_of(word: u32, lo: f32, hi: f32) -> f32 {
        let u = (word >> 8) as f32 * (1.0 / (1u32 << 24) as f32);
        lo + (hi - lo) * u
    }
}

/// The bot's plan, as the `bot` system keeps it between steps: the crate or coin it is after,
/// the points it still has to walk through, which way to face at the end, and the steps since it
/// planned (it plans again after [`BotPlan::REPLAN_AFTER`], in case something blocks the way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotPlan {
    /// How it weighs its choices (the default plays the built-in bot).
    pub style: BotStyle,
    /// The crate to smash or keg to light or coin to pick up (`None`: nothing reachable at
    /// the last plan).
    pub target: Option<Entity>,
    /// Points still to walk through, in whole world pixels, next first: cell centres, then
    /// the spot to swing from.
    pub path: VecDeque<(i32, i32)>,
    /// Which way to face at the end of the path.
    pub face: Facing,
    /// Steps since the last plan.
    pub since_plan: u32,
    /// Plans made so far (the first is plan 1): what [`BotStyle::second_best_at`] counts.
    pub plans: u32,
}

impl BotPlan {
    /// Steps after which the bot plans again even though its target stands.
    pub const REPLAN_AFTER: u32 = 600;
}

/// How the bot weighs its choices. The default is the built-in bot, whose runs set the par times
/// where no route beats them; the route search (`crate-room-routes search`) plays many others
/// and keeps the fastest route any of them finds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BotStyle {
    /// How much a step of walking to a stance counts against a step of swinging (3 by
    /// default: a long walk for a little more work leaves crates behind).
    pub walk_weight: f32,
    /// What a coin is worth, as a share of its default worth (1).
    pub coin_scale: f32,
    /// What lighting a keg is worth, as a share of the hits its chain deals (1): below 1,
    /// crates within reach by hand go first.
    pub keg_scale: f32,
    /// Whether a bot in a burning chain's reach walks out of it before anything else (the
    /// default) or goes on with the best stance, which may cost a burn.
    pub flee_blasts: bool,
    /// How much each stance's worth is scaled, up or down, by a number drawn from
    /// `seed`, the stance and the map (0 by default: none). Small values reorder near ties,
    /// which gives a search other target orders to try.
    pub jitter: f32,
    /// Seed of the jitter.
    pub seed: u64,
    /// Plans (counted from 1; 0: none) at which the bot takes its second-best choice, a stance
    /// or coin after another target, instead of its best: the route search's detours from the
    /// greedy order.
    pub second_best_at: [u32; BotStyle::DETOURS],
    /// Plans (as above) at which the bot goes for the best coin, however far, instead.
    pub coin_at: [u32; BotStyle::DETOURS],
}

impl BotStyle {
    /// How many detours a style holds.
    pub const DETOURS: usize = 8;
}

impl Default for BotStyle {
    fn default() -> Self {
        Self {
            walk_weight: 3.0,
            coin_scale: 1.0,
            keg_scale: 1.0,
            flee_blasts: true,
            jitter: 0.0,
            seed: 0,
            second_best_at: [0; Self::DETOURS],
            coin_at: [0; Self::DETOURS],
        }
    }
}

/// The collision broad phase: every enabled collider, kept current by the `collision_grid` system.
#[derive(Clone, Debug)]
pub struct CollisionGrid(pub SpatialHash);

/// The render broad phase: every sprite's box, kept current by the `draw_data` system; the
/// renderer queries it with the camera's view.
#[derive(Clone, Debug)]
pub struct DrawGrid(pub SpatialHash);

/// What is active right now, counted by the `debug_stats` system for the stats panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugCounts {
    /// Crates, whole or exploding.
    pub crates: usize,
    /// Crates playing their explosion.
    pub exploding: usize,
    /// Entities with a velocity (player, coins, debris).
    pub movers: usize,
    /// Entities whose animation advances.
    pub animating: usize,
    /// Short-lived effects (debris, swing arcs).
    pub effects: usize,
    /// Updates `debug_stats` has seen (it keeps counting while paused).
    pub updates: u64,
}

/// Entities the draw-data system recomputed on its last run (the debug overlay's dirty view).
#[derive(Clone, Debug, Default)]
pub struct DrawDirtyLog {
    /// The entities, unless `all`.
    pub entities: Vec<Entity>,
    /// Whether it recomputed every entity it tracks (a level's first step, or tracking off):
    /// then `entities` is empty, so that such a run keeps no handle per sprite.
    pub all: bool,
}

/// The clips the rules refer to by role, resolved once when the level starts.
#[derive(Clone, Debug)]
pub struct RoleClips {
    /// Player standing, by [`Facing`] (down, up, left, right).
    pub player_idle: [ClipId; 4],
    /// Player walking, by facing.
    pub player_walk: [ClipId; 4],
    /// Player swinging, by facing.
    pub player_attack: [ClipId; 4],
    /// Player stunned by a blast, by facing.
    pub player_stunned: [ClipId; 4],
    /// Swing effect, by facing.
    pub slash: [ClipId; 4],
    /// A keg whose fuse burns.
    pub keg_lit: ClipId,
    /// Flying splinter.
    pub debris: ClipId,
    /// Spinning coin.
    pub coin: ClipId,
    /// Wall tile variants.
    pub walls: Vec<ClipId>,
}

impl RoleClips {
    /// Look up every role's clip.
    ///
    /// # Errors
    /// Names the first clip the atlas lacks.
    pub fn resolve(clips: &Clips) -> Result<Self, ClipError> {
        let get = |name: String| clips.id(&name).ok_or(ClipError::Missing(name));
        let by_facing = |name: fn(Facing) -> String| -> Result<[ClipId; 4], ClipError> {
            let [down, up, left, right] = Facing::ALL.map(|facing| get(name(facing)));
            Ok([down?, up?, left?, right?])
        };
        let walls: Vec<ClipId> = (0..)
            .map_while(|i| clips.id(&clip_names::wall(i)))
            .collect();
        if walls.is_empty() {
            return Err(ClipError::Missing(clip_names::wall(0)));
        }
        Ok(Self {
            player_idle: by_facing(clip_names::player_idle)?,
            player_walk: by_facing(clip_names::player_walk)?,
            player_attack: by_facing(clip_names::player_attack)?,
            player_stunned: by_facing(clip_names::player_stunned)?,
            slash: by_facing(clip_names::slash)?,
            keg_lit: get(clip_names::KEG_LIT.into())?,
            debris: get(clip_names::DEBRIS.into())?,
            coin: get(clip_names::COIN.into())?,
            walls,
        })
    }
}

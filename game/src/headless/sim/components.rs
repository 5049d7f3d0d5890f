//! Components of the crate room: plain data, compared with `set_if_neq` so that writing an
//! unchanged value never makes an entity dirty.

use ecs::Entity;

use crate::atlas::FrameRect;
pub use crate::atlas::clip_names::Facing;

/// Centre of an entity in world pixels (one art pixel = one world unit; a tile is 16).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position {
    /// Pixels from the left edge of the level.
    pub x: f32,
    /// Pixels from the top edge of the level.
    pub y: f32,
}

/// Displacement per fixed step, in world pixels. Entities with a velocity are *movers*.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity {
    /// Pixels per step, rightwards.
    pub x: f32,
    /// Pixels per step, downwards.
    pub y: f32,
}

/// Axis-aligned collision box centred on the entity's [`Position`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider {
    /// Half the width, pixels.
    pub half_w: f32,
    /// Half the height, pixels.
    pub half_h: f32,
    /// Solid boxes block movers; non-solid ones (coins) only report contacts.
    pub solid: bool,
    /// Disabled boxes collide with nothing and leave the spatial hash (an exploding crate).
    pub enabled: bool,
}

impl Collider {
    /// An enabled solid box.
    pub fn solid(half_w: f32, half_h: f32) -> Self {
        Self {
            half_w,
            half_h,
            solid: true,
            enabled: true,
        }
    }

    /// An enabled box that reports contacts but blocks nothing.
    pub fn sensor(half_w: f32, half_h: f32) -> Self {
        Self {
            solid: false,
            ..Self::solid(half_w, half_h)
        }
    }
}

/// The player: which way it faces and the state of its swing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Player {
    /// Last direction moved in (a diagonal faces its horizontal part).
    pub facing: Facing,
    /// Whether the player moved this step (picks the walk clip).
    pub walking: bool,
    /// Steps left in the current swing; 0 when not attacking.
    pub swing: u32,
    /// Steps until the next swing may start.
    pub cooldown: u32,
}

/// The player's current swing, as the `attack` system keeps it between steps: the arc it
/// spawned on its first live step, and the crates it has hit (each crate takes at most one hit
/// a swing). Emptied when the next swing starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Swing {
    /// The swing's arc entity, whose position is the disc that hits.
    pub arc: Option<Entity>,
    /// Crates this swing has hit, in the order it hit them.
    pub hit: Vec<Entity>,
}

/// A breakable crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crate {
    /// Hits left.
    pub health: u32,
    /// Hits it started with.
    pub max_health: u32,
    /// Whether it drops a coin when it breaks.
    pub coin: bool,
}

/// Crack stages a crate shows: 0 (whole) to [`CRACK_STAGES`] (heavy).
pub const CRACK_STAGES: usize = crate::atlas::clip_names::CRACK_STAGES as usize;

impl Crate {
    /// Which crack stage the crate shows: the fraction of its health lost, in thirds, rounded
    /// up. `stage = ceil(3 * lost / max_health)`, so the first hit always shows, and a crate
    /// shows heavy cracks (stage 3) only in the last third of its health:
    ///
    /// ```text
    ///  hits taken   0  1  2  3  4  5  6  7  8
    ///  3-hit crate  0  1  2  (breaks)
    ///  6-hit crate  0  1  1  2  2  3  (breaks)
    ///  9-hit crate  0  1  1  1  2  2  2  3  3  (breaks)
    /// ```
    ///
    /// ```
    /// use game::sim::components::Crate;
    ///
    /// let stage = |health| Crate { health, max_health: 6, coin: false }.crack_stage();
    /// assert_eq!([6, 5, 4, 3, 2, 1].map(stage), [0, 1, 1, 2, 2, 3]);
    /// ```
    pub fn crack_stage(&self) -> usize {
        let max = self.max_health as usize;
        if max == 0 {
            return 0;
        }
        let lost = max.saturating_sub(self.health as usize);
        (CRACK_STAGES * lost).div_ceil(max).min(CRACK_STAGES)
    }
}

/// A crate that was just hit: flashes and wobbles for a few steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitFlash {
    /// Steps left.
    pub steps: u32,
}

/// A crate whose health reached zero: plays its explosion, then is despawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exploding {
    /// Steps left until despawn.
    pub steps: u32,
}

/// A powder keg: a crate (skin `keg`) that a hit lights instead of damaging. Its health never
/// drops; it breaks only by blowing up, when its [`Fuse`] burns out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keg;

/// A keg's lit fuse: it blows up when the fuse burns out. Present only while lit, so the fuse
/// system visits burning kegs and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fuse {
    /// Steps left until the blast.
    pub steps: u32,
}

/// A player thrown by a blast: the keys do nothing until it wears off, and the throw slides
/// to a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stunned {
    /// Steps left.
    pub steps: u32,
}

/// Despawn after this many steps (debris).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetime {
    /// Steps left.
    pub steps: u32,
}

/// Scales an entity's velocity each step (debris and coins slide to a stop).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Friction(pub f32);

/// A coin the player picks up by touching it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coin;

/// A splinter thrown by an exploding crate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Debris;

/// Index of a clip in [`Clips`](super::resources::Clips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId(pub u16);

impl ClipId {
    /// No clip yet: `choose_clip` picks one on the entity's first step.
    pub const NONE: Self = Self(u16::MAX);
}

impl Default for ClipId {
    fn default() -> Self {
        Self::NONE
    }
}

/// Which clips an entity plays, resolved once at spawn so per-step code never looks up names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looks {
    /// The player: clips chosen from facing and action (see `PlayerClips`).
    Player,
    /// A crate skin.
    Crate {
        /// Standing, by crack stage ([`Crate::crack_stage`]).
        idle: [ClipId; CRACK_STAGES + 1],
        /// After a hit, by crack stage.
        hit: [ClipId; CRACK_STAGES + 1],
        /// While exploding.
        explode: ClipId,
    },
    /// Always the same clip (walls, coins, debris, effects).
    Fixed(ClipId),
}

/// What an entity looks like and where it sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sprite {
    /// Its clips.
    pub looks: Looks,
    /// Draw order band: lower draws first.
    pub layer: u8,
}

/// Draw layers.
pub mod layer {
    /// Walls.
    pub const WALLS: u8 = 0;
    /// Coins lying on the floor.
    pub const PICKUPS: u8 = 1;
    /// Crates and the player, sorted by their feet.
    pub const BODIES: u8 = 2;
    /// Debris and swing effects, over everything.
    pub const EFFECTS: u8 = 3;
}

/// Which clip plays and which of its frames shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClipFrame {
    /// Current clip.
    pub clip: ClipId,
    /// Frame of the clip on screen.
    pub frame: u16,
    /// A once-clip that reached its last frame.
    pub finished: bool,
}

/// Present while an entity's animation advances (multi-frame clip, not finished). The
/// animation system visits only these, so idle crates cost it nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTimer {
    /// Steps the current frame has been on screen, counting the step just run (0 for a clip
    /// that has not been through `animate` yet).
    pub ticks: u32,
}

/// Everything the renderer needs for one sprite, recomputed only when its inputs change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawData {
    /// Source rectangle in the atlas.
    pub src: FrameRect,
    /// Top-left corner in world pixels.
    pub x: f32,
    /// Top-left corner in world pixels.
    pub y: f32,
    /// Sort key: layer first, then the y of the sprite's feet.
    pub layer: u8,
    /// Sort key within a layer.
    pub sort_y: f32,
}

/// Entity the camera follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CameraTarget;

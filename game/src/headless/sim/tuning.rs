//! Tunable numbers of the game rules, in steps (1/60 s) and world pixels. A leaf module:
//! systems take their constants from here without importing the rest of `sim`.

/// Size of a map cell in world pixels (one art tile).
pub const TILE: f32 = 16.0;

/// Player walking speed: 1.5 px/step = 90 px/s, about 5.6 tiles per second.
pub const PLAYER_SPEED: f32 = 1.5;
/// Player collision box half extents: a 10 x 10 box fits 16 px corridors with room to spare.
pub const PLAYER_HALF: f32 = 5.0;
/// Steps a swing lasts (0.25 s).
pub const SWING_STEPS: u32 = 15;
/// Steps of the swing (counted from its start, the step the key is pressed) during which its
/// arc is on screen and hits: the middle of the swing, 4 steps (~67 ms), as the hammer comes
/// down.
pub const SWING_ACTIVE: std::ops::RangeInclusive<u32> = 3..=6;
/// Steps between the starts of two swings (0.35 s).
pub const SWING_COOLDOWN: u32 = 21;
/// Distance from the player's centre to the centre of the swing's arc: the arc reaches from
/// 12 - 7 = 5 px (the front of the player's box) to 12 + 7 = 19 px in front of the player,
/// well into the next tile.
pub const SWING_REACH: f32 = 12.0;
/// Radius of the swing's arc, the disc a swing hits: 14 px across, so with the player in line
/// with a lane of crates its edge stays 1 px inside the lane, and a player up to 1.5 px off
/// the middle hits only the crate ahead, not its neighbours. The slash sprite is drawn to fill
/// exactly this disc (`gen-assets` reads this constant and must be rerun when it changes; the
/// sprite's 16 x 16 frame allows at most 8).
pub const SWING_RADIUS: f32 = 7.0;
/// Steps a keg's fuse burns after a swing lights it (0.5 s): time to step back.
pub const KEG_FUSE_STEPS: u32 = 30;
/// Steps a keg's fuse burns after a neighbour's blast lights it (0.2 s): a field of kegs goes
/// off as a wave, a ring about two tiles further out every 12 steps.
pub const KEG_CHAIN_FUSE_STEPS: u32 = 12;
/// Reach of a blast: everything whose centre is within 2.5 tiles (40 px) of the keg's centre,
/// so the 8 cells around a keg and the 4 two cells away in line (and the 8 knight's moves
/// away, at sqrt(5) = 2.24 tiles) are in range; the 4 two cells away diagonally (2.83 tiles)
/// are not.
pub const KEG_RADIUS: f32 = 2.5 * TILE;
/// Hits a blast deals to each crate in range: a plain crate breaks, a strong one is halved.
pub const KEG_DAMAGE: u32 = 3;
/// Speed a blast throws the player at, px/step, away from the keg; it slides to a stop at
/// [`FRICTION`] per step: 3.5 / (1 - 0.9) = 35 px, about two tiles, walls permitting.
pub const KNOCKBACK_SPEED: f32 = 3.5;
/// Steps a blast stuns the player for (0.5 s): no walking and no new swings.
pub const STUN_STEPS: u32 = 30;
/// Steps a blast that catches the player adds to the room's clock (2 s, two coins' worth): a
/// **burn**, the run's one way to go wrong. Lighting a keg leaves [`KEG_FUSE_STEPS`] to walk
/// out of reach: 30 x 1.5 = 45 px, from 13 px (flush against the keg) to 58, past the 40 of
/// [`KEG_RADIUS`], so a player who steps straight back is never burnt.
pub const BURN_STEPS: u64 = 120;
/// Debris thrown by a breaking crate.
pub const DEBRIS_PER_CRATE: u32 = 5;
/// Debris lifetime (0.6 s).
pub const DEBRIS_STEPS: u32 = 36;
/// Velocity kept per step by sliding debris and coins.
pub const FRICTION: f32 = 0.9;
/// Speeds below this snap to zero, so sliding things come to rest exactly.
pub const REST_SPEED: f32 = 0.05;
/// Half extents of the box that keeps a mover without a collider (debris) out of the void:
/// 2 x 2 px, about a splinter's size. A box, not a point: a point resting exactly on a cell's
/// edge would overlap neither cell and could slide along the edge into the void.
pub const FREE_MOVER_HALF: f32 = 1.0;
/// Largest move tested for collision in one piece; longer moves are split, so nothing
/// tunnels through a box at least twice this size.
pub const MAX_SUBSTEP: f32 = 4.0;
/// Camera smoothing: fraction of the remaining distance covered per step.
pub const CAMERA_LERP: f32 = 0.15;
/// Cell size of the collision grid (2 x 2 tiles).
pub const COLLISION_CELL: f32 = 32.0;
/// Cell size of the render grid (4 x 4 tiles).
pub const DRAW_CELL: f32 = 64.0;

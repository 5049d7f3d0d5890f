//! One system per file. Priorities and watched components are in `../schedule.rs`.

pub mod animate;
pub mod animation_state;
pub mod attack;
pub mod bot;
pub mod camera;
pub mod collision;
pub mod damage;
pub mod debug_stats;
pub mod draw_data;
pub mod explosion;
pub mod hit_flash;
pub mod lifetime;
pub mod movement;
pub mod pickup;
pub mod player_control;
pub mod spatial_hash;

use super::spatial_hash::SpatialHash;

/// The collision broad phase: every enabled collider, kept current by the `spatial_hash` system.
#[derive(Clone, Debug)]
pub struct CollisionGrid(pub SpatialHash);

/// The render broad phase: every sprite's box, kept current by the `draw_data` system; the
/// renderer queries it with the camera's view.
#[derive(Clone, Debug)]
pub struct DrawGrid(pub SpatialHash);

//! Spawning shared by level setup and the rules: where a map cell's centre lies, and a coin
//! (placed by the level, or dropped by a breaking crate).

use ecs::World;

use super::components::{
    Animation, Coin, Collider, Friction, Looks, Position, Sprite, Velocity, layer,
};
use super::resources::RoleClips;
use super::tuning::{FRICTION, TILE};

/// Centre of map cell `(x, y)` in world pixels.
pub(super) fn cell_center(x: u32, y: u32) -> Position {
    Position {
        x: (x as f32 + 0.5) * TILE,
        y: (y as f32 + 0.5) * TILE,
    }
}

/// Spawn a coin at `at` sliding with `velocity`.
pub(super) fn spawn_coin(world: &mut World, at: Position, velocity: Velocity) {
    let clip = world.resource::<RoleClips>().coin;
    world.spawn((
        at,
        velocity,
        Friction(FRICTION),
        Collider::sensor(4.0, 4.0),
        Coin,
        Sprite {
            looks: Looks::Fixed(clip),
            layer: layer::PICKUPS,
        },
        Animation::default(),
    ));
}

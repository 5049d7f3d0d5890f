//! `debug_stats` (a debug system: it also runs while the game is paused): counts what is active,
//! for the stats panel. Reads column lengths only, so it costs the same at any crate count.

use ecs::{SystemEntities, World};

use crate::sim::components::{Animating, Crate, Exploding, Lifetime, Velocity};

/// What is active right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugCounts {
    /// Live entities.
    pub entities: usize,
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
    /// Updates this system has seen (keeps counting while paused).
    pub updates: u64,
}

/// Run `debug_stats`.
pub fn run(world: &mut World, _: &SystemEntities<'_>) {
    puffin::profile_scope!("debug_stats");
    let len = |n: Option<usize>| n.unwrap_or(0);
    let counts = DebugCounts {
        entities: world.len(),
        crates: len(world.try_column::<Crate>().map(|c| c.len())),
        exploding: len(world.try_column::<Exploding>().map(|c| c.len())),
        movers: len(world.try_column::<Velocity>().map(|c| c.len())),
        animating: len(world.try_column::<Animating>().map(|c| c.len())),
        effects: len(world.try_column::<Lifetime>().map(|c| c.len())),
        updates: world.get_resource::<DebugCounts>().map_or(0, |c| c.updates) + 1,
    };
    world.insert_resource(counts);
}

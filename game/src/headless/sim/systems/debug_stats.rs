//! `debug_stats` (a debug system: it also runs while the game is paused): counts what is active,
//! for the stats panel. Reads column lengths only, so it costs the same at any crate count.

use ecs::{SystemEntities, World};

use crate::sim::components::{Crate, Exploding, FrameTimer, Lifetime, Velocity};
use crate::sim::resources::DebugCounts;

/// Run `debug_stats`.
pub fn run(world: &mut World, _: &SystemEntities<'_>) {
    puffin::profile_scope!("debug_stats");
    let len = |n: Option<usize>| n.unwrap_or(0);
    let mut counts = DebugCounts {
        crates: len(world.try_column::<Crate>().map(|c| c.len())),
        exploding: len(world.try_column::<Exploding>().map(|c| c.len())),
        movers: len(world.try_column::<Velocity>().map(|c| c.len())),
        animating: len(world.try_column::<FrameTimer>().map(|c| c.len())),
        effects: len(world.try_column::<Lifetime>().map(|c| c.len())),
        updates: 1,
    };
    // Written in place: a new resource each update would be an allocation each update.
    match world.get_resource_mut::<DebugCounts>() {
        Some(old) => {
            counts.updates += old.updates;
            *old = counts;
        }
        None => {
            world.insert_resource(counts);
        }
    }
}

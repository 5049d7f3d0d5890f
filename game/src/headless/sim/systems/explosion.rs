//! `explosion`: counts down [`Exploding`]; when a broken crate's burst ends it is despawned
//! (the break itself, and the clear, are counted in `sim/wreck.rs`).

use ecs::{SystemEntities, World};

use crate::sim::components::Exploding;

/// Run `explosion` (tracks Exploding).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("explosion");
    let done = super::tick_down::<Exploding>(world, entities, |t| &mut t.steps);
    for e in done {
        super::despawn(world, e);
    }
}

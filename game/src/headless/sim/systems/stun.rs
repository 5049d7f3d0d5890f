//! `stun`: counts down [`Stunned`] and removes it when done (the keys work again).

use ecs::{SystemEntities, World};

use crate::sim::components::Stunned;

/// Run `stun` (tracks Stunned).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("stun");
    let done = super::tick_down::<Stunned>(world, entities, |t| &mut t.steps);
    for e in done {
        world.remove::<Stunned>(e);
    }
}

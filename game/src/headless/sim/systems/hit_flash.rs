//! `hit_flash`: counts down [`HitFlash`] and removes it when done (the crate goes back to idle).

use ecs::{SystemEntities, World};

use crate::sim::components::HitFlash;

/// Run `hit_flash` (tracks HitFlash).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("hit_flash");
    let done = super::tick_down::<HitFlash>(world, entities, |t| &mut t.steps);
    for e in done {
        world.remove::<HitFlash>(e);
    }
}

//! `lifetime`: counts down [`Lifetime`] and despawns what expires (debris, swing effects).

use ecs::{SystemEntities, World};

use crate::sim::components::Lifetime;

/// Run `lifetime` (tracks Lifetime).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("lifetime");
    let done = super::tick_down::<Lifetime>(world, entities, |t| &mut t.steps);
    for e in done {
        super::despawn(world, e);
    }
}

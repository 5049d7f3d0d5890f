//! `lifetime`: counts down [`Lifetime`] and despawns what expires (debris, swing effects).

use ecs::{SystemEntities, World};

use crate::sim::components::Lifetime;

/// Run `lifetime` (tracks Lifetime).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("lifetime");
    let lifetimes = world.column_mut::<Lifetime>();
    let mut done = Vec::new();
    for &e in entities.tracked() {
        if let Some(mut life) = lifetimes.get_mut(e) {
            life.steps = life.steps.saturating_sub(1);
            if life.steps == 0 {
                done.push(e);
            }
        }
    }
    for e in done {
        world.despawn(e);
    }
}

//! `hit_flash`: counts down [`HitFlash`] and removes it when done (the crate goes back to idle).

use ecs::{SystemEntities, World};

use crate::sim::components::HitFlash;

/// Run `hit_flash` (tracks HitFlash).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("hit_flash");
    let flashes = world.column_mut::<HitFlash>();
    let mut done = Vec::new();
    for &e in entities.tracked() {
        if let Some(mut flash) = flashes.get_mut(e) {
            flash.steps = flash.steps.saturating_sub(1);
            if flash.steps == 0 {
                done.push(e);
            }
        }
    }
    for e in done {
        world.remove::<HitFlash>(e);
    }
}

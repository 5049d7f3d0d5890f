//! `explosion`: counts down [`Exploding`]; when an explosion ends the crate is despawned, and
//! when the last crate goes the room is cleared.

use ecs::{SystemEntities, World};

use crate::sim::components::Exploding;
use crate::sim::resources::GameState;

/// Run `explosion` (tracks Exploding).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("explosion");
    let done = super::tick_down::<Exploding>(world, entities, |t| &mut t.steps);
    for e in done {
        if super::despawn(world, e) {
            let state = world.resource_mut::<GameState>();
            state.crates_left = state.crates_left.saturating_sub(1);
            if state.crates_left == 0 && state.cleared_at.is_none() {
                state.cleared_at = Some(state.step);
            }
        }
    }
}

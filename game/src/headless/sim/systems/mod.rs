//! One system per file. Priorities and watched components are in `../schedule.rs`.

pub mod animate;
pub mod attack;
pub mod bot;
pub mod camera;
pub mod checkpoint;
pub mod choose_clip;
pub mod collision;
pub mod collision_grid;
pub mod damage;
pub mod debug_stats;
pub mod draw_data;
pub mod explosion;
pub mod fuse;
pub mod hit_flash;
pub mod lifetime;
pub mod movement;
pub mod pickup;
pub mod player_control;
pub mod stun;

/// Despawn `e` at the end of this update, noting it for the replay checkpoint sum first: the
/// `checkpoint` system (last in the schedule) hashes its final state in this update, before
/// its components go. Every despawn of the simulation goes through here
/// (`game/tests/architecture.rs` checks). Returns whether `e` was alive.
pub(crate) fn despawn(world: &mut ecs::World, e: ecs::Entity) -> bool {
    if let Some(sum) = world.get_resource_mut::<crate::sim::state_hash::CheckpointSum>() {
        sum.note_despawn(e);
    }
    world.despawn(e)
}

/// Count down a per-entity timer component of every tracked entity by one step; returns the
/// entities whose timer reached zero (the timer systems share this).
pub(crate) fn tick_down<T: ecs::Component>(
    world: &mut ecs::World,
    entities: &ecs::SystemEntities<'_>,
    steps: impl Fn(&mut T) -> &mut u32,
) -> Vec<ecs::Entity> {
    let mut timers = entities.query::<&mut T>(world);
    let mut expired = Vec::new();
    while let Some((e, mut timer)) = timers.next() {
        let left = steps(&mut timer);
        *left = left.saturating_sub(1);
        if *left == 0 {
            expired.push(e);
        }
    }
    expired
}

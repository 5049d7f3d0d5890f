//! One system per file (the four countdowns share `countdown.rs`). Priorities and watched
//! components are in `../schedule.rs`.

pub mod animate;
pub mod attack;
pub mod bot;
pub mod camera;
pub mod checkpoint;
pub mod choose_clip;
pub mod collision;
pub mod collision_grid;
pub mod countdown;
pub mod damage;
pub mod debug_stats;
pub mod draw_data;
pub mod fuse;
pub mod movement;
pub mod player_control;

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

//! One system per file. Priorities and watched components are in `../schedule.rs`.

pub mod animate;
pub mod animation_state;
pub mod attack;
pub mod bot;
pub mod camera;
pub mod checkpoint;
pub mod collision;
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
pub mod spatial_hash;
pub mod stun;

/// Count down a per-entity timer component of every tracked entity by one step; returns the
/// entities whose timer reached zero (the timer systems share this).
pub(crate) fn tick_down<T: ecs::Component>(
    world: &mut ecs::World,
    entities: &ecs::SystemEntities<'_>,
    steps: impl Fn(&mut T) -> &mut u32,
) -> Vec<ecs::Entity> {
    let timers = world.column_mut::<T>();
    let mut expired = Vec::new();
    for &e in entities.tracked() {
        if let Some(mut timer) = timers.get_mut(e) {
            let left = steps(&mut timer);
            *left = left.saturating_sub(1);
            if *left == 0 {
                expired.push(e);
            }
        }
    }
    expired
}

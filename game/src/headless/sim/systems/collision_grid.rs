//! `collision_grid`: keeps the [`CollisionGrid`] in step with colliders. Only entities whose
//! position or collider changed are rehashed, so static walls and idle crates are inserted
//! once; disabled and removed colliders leave the grid.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Collider, Position};
use crate::sim::resources::CollisionGrid;
use crate::sim::spatial_hash::Aabb;

/// More changed entities than this are a burst, worth reserving the grid's room up front.
const CHUNK: usize = 4096;

/// One past the highest slot of `entities` when they are more than a [`CHUNK`] (a burst,
/// worth one allocation up front), else 0.
pub(crate) fn slots_below(entities: &[Entity]) -> usize {
    if entities.len() <= CHUNK {
        return 0;
    }
    entities
        .iter()
        .map(|e| e.index() as usize + 1)
        .max()
        .unwrap_or(0)
}

/// Run `collision_grid` (tracks and watches Position + Collider).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("collision_grid");
    let (mut shapes, resources) = entities
        .changed::<(&Position, &Collider)>(world)
        .with_resources();
    let grid = &mut resources.resource_mut::<CollisionGrid>().0;
    for &e in entities.removed() {
        grid.remove_slot(e.index());
    }
    grid.reserve_slots(slots_below(entities.dirty()));
    while let Some((e, (p, c))) = shapes.next() {
        if c.enabled {
            grid.insert(e, Aabb::centered(p.x, p.y, c.half_w, c.half_h), c.solid);
        } else if grid.contains(e) {
            grid.remove_slot(e.index());
        }
    }
}

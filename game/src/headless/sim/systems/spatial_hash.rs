//! `spatial_hash`: keeps the [`CollisionGrid`] in step with colliders. Only entities whose
//! position or collider changed are rehashed, so static walls and idle crates are inserted
//! once; disabled and removed colliders leave the grid.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Collider, Position};
use crate::sim::grid::Aabb;
use crate::sim::resources::CollisionGrid;

/// Scratch buffer kept between runs: at most [`CHUNK`] entries, so a run that rehashes every
/// entity (the first, or tracking off) costs no memory per entity.
#[derive(Debug, Default)]
pub struct SpatialHashSystem {
    updates: Vec<(Entity, Option<(Aabb, bool)>)>,
}

/// Dirty entities read before their shapes are written to the grid.
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

impl ecs::System for SpatialHashSystem {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("spatial_hash");
        let grid = &mut world.resource_mut::<CollisionGrid>().0;
        for &e in entities.removed() {
            grid.remove_slot(e.index());
        }
        grid.reserve_slots(slots_below(entities.dirty()));
        for chunk in entities.dirty().chunks(CHUNK) {
            self.updates.clear();
            let (Some(positions), Some(colliders)) = (
                world.try_column::<Position>(),
                world.try_column::<Collider>(),
            ) else {
                // Without both columns no entity has a shape to keep.
                break;
            };
            for &e in chunk {
                let (Some(p), Some(c)) = (positions.get(e), colliders.get(e)) else {
                    continue;
                };
                let shape = c
                    .enabled
                    .then(|| (Aabb::centered(p.x, p.y, c.half_w, c.half_h), c.solid));
                self.updates.push((e, shape));
            }
            let grid = &mut world.resource_mut::<CollisionGrid>().0;
            for &(e, shape) in &self.updates {
                match shape {
                    Some((aabb, solid)) => grid.insert(e, aabb, solid),
                    None => {
                        if grid.contains(e) {
                            grid.remove_slot(e.index());
                        }
                    }
                }
            }
        }
    }
}

//! `checkpoint`: keeps the entity part of the replay checkpoint hash
//! ([`state_hash::checkpoint_hash`](crate::sim::state_hash::checkpoint_hash)) up to date. It
//! tracks every entity, watches every hashed component, and rehashes only what changed: for
//! each dirty entity it subtracts the term it added last time and adds the new one; a removed
//! entity subtracts its term. So a checkpoint costs what changed since the last step, not a
//! walk over the whole world. With change tracking off every entity is dirty every step and the
//! sum is the same. The hashed types' ids are looked up once ([`HashedIds`]), their columns by
//! id once per run ([`HashedColumns`]), and each dirty entity's components are then found in
//! the columns its signature names.

use ecs::{SystemEntities, World};

use crate::sim::state_hash::{CheckpointSum, HashedColumns, HashedIds};

/// Each entity slot's current term of the sum (0: none), indexed by [`ecs::Entity::index`]:
/// a removed entity's handle may be stale, and a slot reused by then holds the new entity,
/// which is dirty and so is added after the removal is taken out.
#[derive(Debug, Default)]
pub struct Checkpoint {
    terms: Vec<u64>,
    /// The hashed types' ids, looked up by type only when a new type is registered.
    ids: HashedIds,
}

impl ecs::System for Checkpoint {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("checkpoint");
        let mut sum = world.resource::<CheckpointSum>().entities();
        for &e in entities.removed() {
            if let Some(term) = self.terms.get_mut(e.index() as usize) {
                sum = sum.wrapping_sub(std::mem::take(term));
            }
        }
        self.ids.refresh(world);
        let columns = HashedColumns::from_ids(world, &self.ids);
        for &e in entities.dirty() {
            let i = e.index() as usize;
            if i >= self.terms.len() {
                self.terms.resize(i + 1, 0);
            }
            let term = columns.contribution(world, e);
            sum = sum
                .wrapping_sub(std::mem::replace(&mut self.terms[i], term))
                .wrapping_add(term);
        }
        world.resource_mut::<CheckpointSum>().set_entities(sum);
    }
}

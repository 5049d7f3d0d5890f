//! `checkpoint`: keeps the entity part of the replay checkpoint hash
//! ([`state_hash::checkpoint_hash`](crate::sim::state_hash::checkpoint_hash)) current in
//! [`CheckpointSum`], a wrapping sum of one term per entity. A removed entity's term leaves the
//! sum at once; a dirty entity is only marked pending (a bit and a list entry, once however
//! many steps it changes in) and hashed when the sum is folded: on the first run (every entity
//! is new), on every [`CHECKPOINT_EVERY`]th step (where recordings and verifications read the
//! hash), and in the update that despawns it (`systems::despawn` notes it; its components are
//! gone after that update). Reading the hash between folds hashes the pending entities on the
//! spot, so the value does not depend on when folds happen: with change tracking off every
//! entity is dirty every step and the value is the same.
//!
//! So each change costs a mark, and each entity costs one hash per fold period however often
//! it changed: the player, dirty in every step, is hashed once per 600 steps, and debris that
//! changes in every step of its life is hashed once, when it expires. The system runs on every
//! update (not only on changes) so that the entities despawned in an update are always folded
//! before their components go. The hashed types' ids are looked up once ([`HashedIds`]), their
//! columns by id once per fold ([`HashedColumns`]), and each folded entity's components are
//! then found in the columns its signature names; when every entity changed (the first run,
//! or change tracking off) the fold goes column by column instead, with no lookups, a column
//! of many components split between two threads by slot (each component changes only its own
//! entity's term, so the result is the same bits whatever the split).
//!
//! It walks the entity list `dirty()` rather than a typed query: what it reads of an entity is
//! every type the state hash covers, found by id through `ecs::diagnostics`, which no query of
//! up to eight named types can list; and marking an entity pending reads nothing.

use ecs::{SystemEntities, World};

use crate::sim::resources::GameState;
use crate::sim::state_hash::{CHECKPOINT_EVERY, CheckpointSum, HashedColumns, HashedIds};

/// The system's own state; the sum and its pending entities are in [`CheckpointSum`], where
/// [`checkpoint_hash`](crate::sim::state_hash::checkpoint_hash) reads them.
#[derive(Debug, Default)]
pub struct Checkpoint {
    /// Whether the system has run (its first run folds every entity: all are new).
    started: bool,
    /// The hashed types' ids, looked up by type only when a new type is registered.
    ids: HashedIds,
}

impl ecs::System for Checkpoint {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("checkpoint");
        let step = world.get_resource::<GameState>().map_or(0, |s| s.step);
        let fold_all = !self.started || step.is_multiple_of(CHECKPOINT_EVERY);
        let sum = world.resource_mut::<CheckpointSum>();
        // Removals first: a slot reused in this update is marked for its new entity after.
        for &e in entities.removed() {
            sum.remove(e);
        }
        if !fold_all {
            for &e in entities.dirty() {
                sum.mark(e);
            }
            if !sum.has_dying() {
                return;
            }
        }
        // Folding hashes entities of the world that holds the sum: take it out meanwhile.
        let mut sum = std::mem::take(sum);
        self.ids.refresh(world);
        let columns = HashedColumns::from_ids(world, &self.ids);
        if fold_all {
            self.started = true;
            if entities.dirty().len() >= world.len() {
                sum.fold_world(&columns, world);
            } else {
                for &e in entities.dirty() {
                    sum.fold(&columns, world, e);
                }
                sum.fold_all(&columns, world);
            }
        }
        sum.fold_dying(&columns, world);
        *world.resource_mut::<CheckpointSum>() = sum;
    }
}

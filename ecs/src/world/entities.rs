//! Entities and their components: spawn, insert, remove, despawn, clear, and which systems
//! track each entity.

use std::any::TypeId;

use super::bundle::Bundle;
use super::{BundleInfo, NoSuchEntity, World, downcast_mut};
use crate::Entity;
use crate::column::Mut;
use crate::component::{Component, ComponentId, ComponentSet};

impl World {
    /// Create an entity with the components in `bundle` (a tuple, or `()` for none).
    ///
    /// Systems see the entity (and its watched components as dirty) on their next run.
    pub fn spawn<B: Bundle>(&mut self, bundle: B) -> Entity {
        let entity = self.entities.alloc();
        let b = self.bundle_index::<B>();
        // Moved out (three pointers) so the world can be borrowed mutably while reading it.
        let info = std::mem::take(&mut self.bundles[b]);
        bundle.insert_into(self, entity, &info.ids);
        if let Some(sig) = self.entities.components_mut(entity) {
            *sig = info.signature;
        }
        for &s in &info.systems {
            self.refresh_membership(s, entity);
        }
        self.bundles[b] = info;
        entity
    }

    /// Create one entity per bundle of `bundles`, in order, as [`World::spawn`] would one by
    /// one, and return them. Faster for many: room is reserved from the iterator's size hint
    /// (see [`World::reserve`]), and the bundle's component ids and which systems will track
    /// the new entities are found once for the whole batch instead of once per entity.
    ///
    /// ```
    /// struct Pos(i32);
    /// let mut world = ecs::World::new();
    /// let spawned = world.spawn_batch((0..3).map(|i| (Pos(i),)));
    /// assert_eq!(spawned.len(), 3);
    /// assert_eq!(world.get::<Pos>(spawned[2]).map(|p| p.0), Some(2));
    /// ```
    pub fn spawn_batch<B: Bundle>(&mut self, bundles: impl IntoIterator<Item = B>) -> Vec<Entity> {
        let bundles = bundles.into_iter();
        let expected = bundles.size_hint().0;
        self.reserve::<B>(expected);
        let b = self.bundle_index::<B>();
        let info = std::mem::take(&mut self.bundles[b]);
        // A new entity has exactly the bundle's components: the systems requiring a subset of
        // them track it, the others cannot.
        let tracking: Vec<usize> = info
            .systems
            .iter()
            .copied()
            .filter(|&s| info.signature.is_superset(&self.systems[s].required))
            .collect();
        let mut spawned = Vec::with_capacity(expected);
        for bundle in bundles {
            let entity = self.entities.alloc();
            bundle.insert_into(self, entity, &info.ids);
            if let Some(sig) = self.entities.components_mut(entity) {
                *sig = info.signature;
            }
            for &s in &tracking {
                self.track_new(s, entity);
            }
            spawned.push(entity);
        }
        self.bundles[b] = info;
        spawned
    }

    /// Make system `s` track `entity`, just spawned with components it requires (what
    /// [`World::refresh_membership`] decides for such an entity).
    #[inline]
    fn track_new(&mut self, s: usize, entity: Entity) {
        let slot = &mut self.systems[s];
        if slot.running.is_some() {
            slot.pending_membership.push(entity);
        } else if slot.sets.tracked.insert(entity) {
            slot.sets.removed.remove(entity);
            if slot.watches_any {
                slot.dirty.insert_tracked(entity, &slot.sets.tracked);
                self.sets_pending = true;
            }
        }
    }

    /// Make room for `additional` more entities with the components of bundle `B`: entity
    /// slots, room in each of `B`'s columns, and room in the entity sets of the systems that
    /// will track such entities (a spawn logs no change: those systems receive the new entities
    /// as newly tracked). Capacities are
    /// exact, so a world filled to what was reserved holds no slack from growth by doubling.
    /// Only capacity changes: spawning afterwards behaves as without it, only faster.
    ///
    /// ```
    /// struct Pos(f32);
    /// struct Vel(f32);
    /// let mut world = ecs::World::new();
    /// world.reserve::<(Pos, Vel)>(1_000);
    /// let before = world.memory_use().total();
    /// for i in 0..1_000 {
    ///     world.spawn((Pos(i as f32), Vel(1.0)));
    /// }
    /// assert_eq!(world.memory_use().total(), before, "no reallocation");
    /// ```
    pub fn reserve<B: Bundle>(&mut self, additional: usize) {
        let b = self.bundle_index::<B>();
        let slot_end = self.entities.reserve(additional);
        let info = &self.bundles[b];
        for id in &info.ids {
            self.columns[id.index()].reserve(additional, slot_end);
        }
        for &s in &info.systems {
            let slot = &mut self.systems[s];
            if slot.running.is_some() || !info.signature.is_superset(&slot.required) {
                continue;
            }
            slot.sets.tracked.reserve(additional, slot_end);
            if slot.watches_any {
                slot.dirty.reserve(additional, slot_end, &slot.sets.tracked);
            }
        }
    }

    /// Index into `bundles` of `B`'s cached ids, registering them on first use and refreshing
    /// the systems to notify when systems were added since.
    fn bundle_index<B: Bundle>(&mut self) -> usize {
        let b = match self.bundle_ids.get(&TypeId::of::<B>()) {
            Some(&b) => b,
            None => {
                let mut ids = Vec::new();
                B::register(self, &mut ids);
                let mut signature = ComponentSet::EMPTY;
                for &id in &ids {
                    signature.insert(id);
                }
                self.bundles.push(BundleInfo {
                    ids,
                    signature,
                    systems: Vec::new(),
                    systems_seen: usize::MAX,
                });
                self.bundle_ids
                    .insert(TypeId::of::<B>(), self.bundles.len() - 1);
                self.bundles.len() - 1
            }
        };
        // Systems are never removed, so the count tells whether the list is current.
        if self.bundles[b].systems_seen != self.systems.len() {
            let mut systems = self.requires_nothing.clone();
            for id in self.bundles[b].signature.iter() {
                systems.extend_from_slice(&self.requirers[id.index()]);
            }
            systems.sort_unstable();
            systems.dedup();
            let info = &mut self.bundles[b];
            info.systems = systems;
            info.systems_seen = self.systems.len();
        }
        b
    }

    /// Insert without membership bookkeeping; the caller must be [`Bundle::insert_into`] from
    /// [`World::spawn`], which sets the signature and refreshes membership afterwards.
    #[doc(hidden)]
    pub(crate) fn insert_raw<T: Component>(&mut self, entity: Entity, id: ComponentId, value: T) {
        downcast_mut::<T>(&mut *self.columns[id.index()]).insert_spawned(entity, value);
    }

    /// Add `value` to `entity`, replacing (and returning) any `T` it had. Either way the
    /// component counts as changed for systems watching `T`.
    ///
    /// # Errors
    /// [`NoSuchEntity`] if `entity` is not alive; nothing is stored.
    pub fn insert<T: Component>(
        &mut self,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, NoSuchEntity> {
        if !self.entities.is_alive(entity) {
            return Err(NoSuchEntity(entity));
        }
        let id = self.register::<T>();
        let old = downcast_mut::<T>(&mut *self.columns[id.index()]).insert(entity, value);
        if old.is_none() {
            if let Some(sig) = self.entities.components_mut(entity) {
                sig.insert(id);
            }
            self.refresh_requirers(id, entity);
        }
        Ok(old)
    }

    /// Remove `entity`'s `T` and return it; `None` if it had none or the handle is stale.
    pub fn remove<T: Component>(&mut self, entity: Entity) -> Option<T> {
        let id = self.component_id::<T>()?;
        let value = downcast_mut::<T>(&mut *self.columns[id.index()]).remove(entity)?;
        self.note_removal(id);
        if let Some(sig) = self.entities.components_mut(entity) {
            sig.remove(id);
        }
        self.refresh_requirers(id, entity);
        Some(value)
    }

    /// `entity`'s `T`, or `None` if it has none or the handle is stale.
    #[inline]
    pub fn get<T: Component>(&self, entity: Entity) -> Option<&T> {
        self.try_column::<T>()?.get(entity)
    }

    /// A change-signalling handle to `entity`'s `T` (see [`Mut`]).
    #[inline]
    pub fn get_mut<T: Component>(&mut self, entity: Entity) -> Option<Mut<'_, T>> {
        self.typed_column_mut::<T>()?.get_mut(entity)
    }

    /// Whether `entity` is alive and has the component of id `id`: one read of the entity's
    /// signature, for code that looks components up by id from a table of its own (resolve
    /// each type's column once, then skip, per entity, the columns it has no component in).
    #[inline]
    pub fn has_id(&self, entity: Entity, id: ComponentId) -> bool {
        self.entities
            .components(entity)
            .is_some_and(|sig| sig.contains(id))
    }

    /// Whether `entity` is alive and has a `T`.
    #[inline]
    pub fn has<T: Component>(&self, entity: Entity) -> bool {
        self.try_column::<T>().is_some_and(|c| c.contains(entity))
    }

    /// Whether `entity` is alive (not despawned, not stale).
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.entities.is_alive(entity)
    }

    /// Number of live entities (including ones despawned during this update, until it ends).
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether there are no live entities.
    pub fn is_empty(&self) -> bool {
        self.entities.len() == 0
    }

    /// Every live entity, in slot order.
    pub fn iter_entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.entities.iter().map(|(e, _)| e)
    }

    /// Despawn `entity`: immediately outside an update; at the end of the update when called
    /// from a system, so every system in this update still sees it. Returns whether it was alive.
    pub fn despawn(&mut self, entity: Entity) -> bool {
        if !self.entities.is_alive(entity) {
            return false;
        }
        if self.updating {
            self.pending_despawns.push(entity);
        } else {
            self.despawn_now(entity);
        }
        true
    }

    /// Tell component `id`'s change log, if it has one, that an entity left the column.
    #[inline]
    fn note_removal(&self, id: ComponentId) {
        if let Some(log) = self.logs.get(id.index()).and_then(Option::as_deref) {
            log.borrow_mut().note_removal();
        }
    }

    pub(super) fn despawn_now(&mut self, entity: Entity) {
        let Some(sig) = self.entities.free(entity) else {
            return; // despawned twice in one update
        };
        for id in sig.iter() {
            self.columns[id.index()].despawn(entity);
            self.note_removal(id);
        }
        for slot in &mut self.systems {
            if slot.sets.tracked.remove(entity).is_some() {
                slot.dirty.remove_untracked(entity);
                slot.sets.removed.insert(entity);
                self.sets_pending = true;
            }
        }
    }

    /// Remove every entity and component at once. Systems' [`System::on_clear`](crate::System::on_clear) run afterwards
    /// and may spawn again; old handles stay stale, so nothing new aliases anything old.
    /// Called from a system, the clear happens at the end of the update. Resources remain.
    pub fn clear(&mut self) {
        if self.updating {
            self.pending_clear = true;
        } else {
            self.clear_now();
        }
    }

    pub(super) fn clear_now(&mut self) {
        let live: Vec<Entity> = self.iter_entities().collect();
        for entity in live {
            self.entities.free(entity);
        }
        for column in &mut self.columns {
            column.clear();
        }
        for log in self.logs.iter().flatten() {
            log.borrow_mut().clear();
        }
        for slot in &mut self.systems {
            for w in &mut slot.watches {
                w.cursor = 0;
            }
            for &entity in slot.sets.tracked.as_slice() {
                slot.sets.removed.insert(entity);
            }
            slot.sets.tracked.clear();
            slot.dirty.clear();
            slot.pending_membership.clear();
        }
        self.sets_pending = true;
        self.pending_despawns.clear();
        for k in 0..self.order.len() {
            let s = self.order[k];
            if let Some(mut system) = self.systems[s].system.take() {
                system.on_clear(self);
                self.systems[s].system = Some(system);
            }
        }
    }

    fn refresh_requirers(&mut self, id: ComponentId, entity: Entity) {
        for i in 0..self.requirers[id.index()].len() {
            self.refresh_membership(self.requirers[id.index()][i], entity);
        }
    }

    /// Make system `s` track `entity` iff it is alive and has every required component.
    pub(super) fn refresh_membership(&mut self, s: usize, entity: Entity) {
        let slot = &mut self.systems[s];
        if slot.running.is_some() {
            slot.pending_membership.push(entity);
            return;
        }
        let matches = self
            .entities
            .components(entity)
            .is_some_and(|sig| sig.is_superset(&slot.required));
        if matches {
            if slot.sets.tracked.insert(entity) {
                slot.sets.removed.remove(entity);
                if slot.watches_any {
                    slot.dirty.insert_tracked(entity, &slot.sets.tracked);
                    self.sets_pending = true;
                }
            }
        } else if slot.sets.tracked.remove(entity).is_some() {
            slot.dirty.remove_untracked(entity);
            slot.sets.removed.insert(entity);
            self.sets_pending = true;
        }
    }
}

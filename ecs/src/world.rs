//! The world: entities, component columns, systems and their tracked/dirty sets, resources and
//! events, and the update loop that ties them together.

use std::any::{Any, TypeId, type_name};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::Entity;
use crate::change_log::{ChangeLog, SlotBits};
use crate::column::{AnyColumn, Column, Mut};
use crate::component::{Bundle, Component, ComponentId, ComponentSet, MAX_COMPONENT_TYPES};
use crate::entity::Entities;
use crate::entity_set::{ClearableSet, EntitySet};
use crate::events::{AnyEvents, Events};
use crate::slot_sort::{SlotSorter, Sorted, dedup_sorted};
use crate::system::{
    MemoryUse, System, SystemDesc, SystemEntities, SystemId, SystemInfo, SystemSets, SystemSlot,
    Watch,
};

/// When a system's delivery is put in slot order (memory order; see the crate README,
/// "Slot order from the handles alone") rather than left in change order: when it has at
/// least `min` candidates and at least `fraction` times as many as there are slots. See
/// [`World::set_dense_delivery`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DenseDelivery {
    /// Candidates per entity slot from which slot order pays for putting them in order.
    pub fraction: f64,
    /// Fewest candidates for slot order: below this the tables a delivery touches stay in
    /// cache, and change order costs nothing extra.
    pub min: usize,
}

impl DenseDelivery {
    /// The default: N/10, from 16,384 candidates on (chosen when slot order went through a
    /// scan of a bit set over the slots; see the crate README, "Sparse vs dense").
    pub const DEFAULT: Self = Self {
        fraction: 1.0 / 10.0,
        min: 16_384,
    };
    /// Every delivery in slot order.
    pub const ALWAYS: Self = Self {
        fraction: 0.0,
        min: 0,
    };
    /// Every delivery in change order.
    pub const NEVER: Self = Self {
        fraction: f64::INFINITY,
        min: usize::MAX,
    };
}

impl Default for DenseDelivery {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Error returned when an operation names an entity that is not alive (despawned, or a stale
/// handle whose slot was reused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoSuchEntity(pub Entity);

impl fmt::Display for NoSuchEntity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entity {} is not alive (despawned or a stale handle)",
            self.0
        )
    }
}

impl std::error::Error for NoSuchEntity {}

/// `TypeId`s are already hashes; feeding them through SipHash only costs time.
#[derive(Default)]
struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

type TypeMap<V> = HashMap<TypeId, V, BuildHasherDefault<TypeIdHasher>>;

/// Entries of [`World`]'s cache of recently found component ids.
const RECENT_IDS: usize = 16;

/// Where `T`'s id may be in the cache of recently found ids.
#[inline]
fn recent_slot(t: TypeId) -> usize {
    let mut h = TypeIdHasher::default();
    t.hash(&mut h);
    (h.finish() ^ (h.finish() >> 29)) as usize % RECENT_IDS
}

/// Everything in one ECS: entities, components, systems, resources and events.
///
/// See the [crate documentation](crate) for the model and a walkthrough.
pub struct World {
    entities: Entities,
    component_ids: TypeMap<ComponentId>,
    /// The ids found last, by a few bits of the type's hash (a constant for each type, so
    /// `World::get_mut::<T>` in a loop resolves `T` with one compare instead of a map lookup).
    recent_ids: [Cell<Option<(TypeId, ComponentId)>>; RECENT_IDS],
    columns: Vec<Box<dyn AnyColumn>>,
    /// Per component type: its `TypeId` and name, in registration order (= `ComponentId`).
    component_types: Vec<(TypeId, &'static str)>,
    /// Per component type: systems that require it (their membership can change with it).
    requirers: Vec<Vec<usize>>,
    /// Per component type: systems that watch it.
    watchers: Vec<Vec<usize>>,
    watched: Vec<ComponentId>,
    /// Per component type: its change log, shared with its column, if some system watches it.
    logs: Vec<Option<Rc<RefCell<ChangeLog>>>>,
    /// All-zero between deliveries: deduplicates what a sparse delivery hands out.
    scratch: SlotBits,
    /// Puts what a dense delivery hands out in slot order.
    sorter: SlotSorter,
    dense: DenseDelivery,
    timing: bool,
    /// Stands in for the sets of the running system (see `SystemSlot::sets`).
    placeholder: Option<Box<SystemSets>>,
    /// Systems that require nothing and so track every entity.
    requires_nothing: Vec<usize>,
    systems: Vec<SystemSlot>,
    /// Indices into `systems`, by priority then insertion.
    order: Vec<usize>,
    resources: TypeMap<Resource>,
    events: TypeMap<Box<dyn AnyEvents>>,
    updating: bool,
    pending_despawns: Vec<Entity>,
    pending_clear: bool,
    change_tracking: bool,
    /// Per bundle type: index into `bundles`.
    bundle_ids: TypeMap<usize>,
    bundles: Vec<BundleInfo>,
}

/// One resource and the name of its type (for [`World::resource_types`]).
struct Resource {
    value: Box<dyn Any>,
    name: &'static str,
}

/// What [`World::spawn`] needs to know about one bundle type, computed once.
#[derive(Debug, Default)]
struct BundleInfo {
    /// Component ids in tuple order.
    ids: Vec<ComponentId>,
    signature: ComponentSet,
    /// Systems whose membership a spawn with this bundle can change, each once.
    systems: Vec<usize>,
    /// `systems.len()` of the world when `systems` was computed.
    systems_seen: usize,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("entities", &self.entities.len())
            .field(
                "component_types",
                &self.component_types.iter().map(|t| t.1).collect::<Vec<_>>(),
            )
            .field(
                "systems",
                &self
                    .order
                    .iter()
                    .map(|&s| self.systems[s].desc.name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl World {
    /// Create an empty world with change tracking on.
    pub fn new() -> Self {
        Self {
            entities: Entities::default(),
            component_ids: TypeMap::default(),
            recent_ids: Default::default(),
            columns: Vec::new(),
            component_types: Vec::new(),
            requirers: Vec::new(),
            watchers: Vec::new(),
            watched: Vec::new(),
            logs: Vec::new(),
            scratch: SlotBits::default(),
            sorter: SlotSorter::default(),
            dense: DenseDelivery::DEFAULT,
            timing: false,
            placeholder: Some(Box::default()),
            requires_nothing: Vec::new(),
            systems: Vec::new(),
            order: Vec::new(),
            resources: TypeMap::default(),
            events: TypeMap::default(),
            updating: false,
            pending_despawns: Vec::new(),
            pending_clear: false,
            change_tracking: true,
            bundle_ids: TypeMap::default(),
            bundles: Vec::new(),
        }
    }

    // ----- component types -------------------------------------------------------------------

    /// Register component type `T` (idempotent) and return its id. Spawning, inserting and
    /// adding systems register types implicitly.
    ///
    /// # Panics
    /// If the world already has [`MAX_COMPONENT_TYPES`] other component types.
    pub fn register<T: Component>(&mut self) -> ComponentId {
        if let Some(id) = self.component_id::<T>() {
            return id;
        }
        let index = self.columns.len();
        assert!(
            index < MAX_COMPONENT_TYPES,
            "cannot register `{}`: a world holds at most {MAX_COMPONENT_TYPES} component types",
            type_name::<T>()
        );
        let id = ComponentId(index as u16);
        self.component_ids.insert(TypeId::of::<T>(), id);
        self.columns.push(Box::new(Column::<T>::default()));
        self.component_types
            .push((TypeId::of::<T>(), type_name::<T>()));
        self.requirers.push(Vec::new());
        self.watchers.push(Vec::new());
        self.logs.push(None);
        id
    }

    /// Every component type the world has a column for, in registration order (the order of
    /// their [`ComponentId`]s): its `TypeId` and its [`type_name`]. A type is registered by the
    /// first spawn or insert of one, by a system that requires or watches it, or by
    /// [`World::register`], and stays registered (its column may be empty, even after
    /// [`World::clear`]). For checks that must cover every component type, such as a test that a
    /// state hash or a save format misses none; compare `TypeId`s (the names are for messages,
    /// and `std` does not promise their exact form).
    ///
    /// ```
    /// use std::any::TypeId;
    ///
    /// struct Health(u32);
    /// struct Name(&'static str);
    /// let mut world = ecs::World::new();
    /// world.spawn((Health(3),));
    /// world.register::<Name>();
    /// let types: Vec<TypeId> = world.component_types().map(|(id, _)| id).collect();
    /// assert_eq!(types, [TypeId::of::<Health>(), TypeId::of::<Name>()]);
    /// ```
    pub fn component_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.component_types.iter().copied()
    }

    /// Id of component type `T`, if registered.
    #[inline]
    pub fn component_id<T: Component>(&self) -> Option<ComponentId> {
        let t = TypeId::of::<T>();
        let recent = &self.recent_ids[recent_slot(t)];
        if let Some((seen, id)) = recent.get()
            && seen == t
        {
            return Some(id);
        }
        let id = self.component_ids.get(&t).copied()?;
        recent.set(Some((t, id)));
        Some(id)
    }

    /// Every component of type `T`.
    ///
    /// # Panics
    /// If `T` was never registered (no entity ever had one and no system names it); use
    /// [`World::try_column`] when that is expected.
    #[inline]
    pub fn column<T: Component>(&self) -> &Column<T> {
        self.try_column()
            .unwrap_or_else(|| panic!("component type `{}` was never registered", type_name::<T>()))
    }

    /// Every component of type `T`, or `None` if `T` was never registered.
    #[inline]
    pub fn try_column<T: Component>(&self) -> Option<&Column<T>> {
        let id = self.component_id::<T>()?;
        Some(downcast::<T>(&*self.columns[id.index()]))
    }

    /// Every component of type `T`, found by its id (from [`World::component_id`], kept by
    /// the caller): no lookup by type. `None` if `id` is not `T`'s.
    #[inline]
    pub fn column_by_id<T: Component>(&self, id: ComponentId) -> Option<&Column<T>> {
        self.columns.get(id.index())?.as_any().downcast_ref()
    }

    /// Where the world's heap bytes go: entities, each column, each change log, each system's
    /// entity sets, the delivery buffers (by capacity). Resources and events are left out:
    /// their types are the caller's, who can count them.
    ///
    /// ```
    /// struct Hp(u32);
    /// let mut world = ecs::World::new();
    /// for i in 0..100 {
    ///     world.spawn((Hp(i),));
    /// }
    /// let memory = world.memory_use();
    /// assert!(memory.columns[0].1 >= 100 * (4 + 8 + 8), "values, dense handles, sparse index");
    /// assert!(memory.total() >= memory.entities + memory.columns[0].1);
    /// ```
    pub fn memory_use(&self) -> MemoryUse {
        MemoryUse {
            entities: self.entities.heap_bytes(),
            columns: self
                .component_types
                .iter()
                .zip(&self.columns)
                .map(|((_, name), c)| (*name, c.heap_bytes()))
                .collect(),
            change_logs: self
                .watched
                .iter()
                .map(|id| {
                    let bytes = change_log(&self.logs, *id).borrow().heap_bytes();
                    (self.component_types[id.index()].1, bytes)
                })
                .collect(),
            systems: self
                .order
                .iter()
                .map(|&s| (self.systems[s].desc.name, self.systems[s].heap_bytes()))
                .collect(),
            delivery: self.scratch.heap_bytes() + self.sorter.heap_bytes(),
        }
    }

    /// Number of registered component types; grows by one with each new type, so a cache of
    /// ids is current while this is unchanged.
    #[inline]
    pub fn component_type_count(&self) -> usize {
        self.columns.len()
    }

    /// Every component of type `T`, mutably (registering `T` if needed). Writes through
    /// [`Column::get_mut`] signal changes; adding and removing go through the world.
    #[inline]
    pub fn column_mut<T: Component>(&mut self) -> &mut Column<T> {
        let id = self.register::<T>();
        downcast_mut::<T>(&mut *self.columns[id.index()])
    }

    /// Two columns of different types at once, mutably.
    ///
    /// # Panics
    /// If `A` and `B` are the same type.
    pub fn columns_mut<A: Component, B: Component>(&mut self) -> (&mut Column<A>, &mut Column<B>) {
        let a = self.register::<A>().index();
        let b = self.register::<B>().index();
        assert_ne!(
            a,
            b,
            "columns_mut::<{0}, {0}>: asked for the same column twice",
            type_name::<A>()
        );
        let [ca, cb] = self
            .columns
            .get_disjoint_mut([a, b])
            .expect("distinct registered columns");
        (downcast_mut::<A>(&mut **ca), downcast_mut::<B>(&mut **cb))
    }

    /// Three columns of different types at once, mutably.
    ///
    /// # Panics
    /// If any two of `A`, `B`, `C` are the same type.
    pub fn columns3_mut<A: Component, B: Component, C: Component>(
        &mut self,
    ) -> (&mut Column<A>, &mut Column<B>, &mut Column<C>) {
        let ids = [
            self.register::<A>().index(),
            self.register::<B>().index(),
            self.register::<C>().index(),
        ];
        let [ca, cb, cc] = self.columns.get_disjoint_mut(ids).unwrap_or_else(|_| {
            panic!(
                "columns3_mut::<{}, {}, {}>: asked for the same column twice",
                type_name::<A>(),
                type_name::<B>(),
                type_name::<C>()
            )
        });
        (
            downcast_mut::<A>(&mut **ca),
            downcast_mut::<B>(&mut **cb),
            downcast_mut::<C>(&mut **cc),
        )
    }

    // ----- entities and components -----------------------------------------------------------

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
        downcast_mut::<T>(&mut *self.columns[id.index()]).insert(entity, value);
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
        let id = self.component_id::<T>()?;
        downcast_mut::<T>(&mut *self.columns[id.index()]).get_mut(entity)
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

    fn despawn_now(&mut self, entity: Entity) {
        let Some(sig) = self.entities.free(entity) else {
            return; // despawned twice in one update
        };
        for id in sig.iter() {
            self.columns[id.index()].despawn(entity);
            self.note_removal(id);
        }
        for slot in &mut self.systems {
            if slot.sets.tracked.remove(entity).is_some() {
                slot.dirty.remove(entity);
                slot.sets.removed.insert(entity);
            }
        }
    }

    /// Remove every entity and component at once. Systems' [`System::on_clear`] run afterwards
    /// and may spawn again; old handles stay stale, so nothing new aliases anything old.
    /// Called from a system, the clear happens at the end of the update. Resources remain.
    pub fn clear(&mut self) {
        if self.updating {
            self.pending_clear = true;
        } else {
            self.clear_now();
        }
    }

    fn clear_now(&mut self) {
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
        self.pending_despawns.clear();
        for k in 0..self.order.len() {
            let s = self.order[k];
            if let Some(mut system) = self.systems[s].system.take() {
                system.on_clear(self);
                self.systems[s].system = Some(system);
            }
        }
    }

    // ----- resources and events --------------------------------------------------------------

    /// Store a singleton of type `R` (input, time, camera, ...), replacing and returning any old
    /// one.
    pub fn insert_resource<R: 'static>(&mut self, resource: R) -> Option<R> {
        let resource = Resource {
            value: Box::new(resource),
            name: type_name::<R>(),
        };
        self.resources
            .insert(TypeId::of::<R>(), resource)
            .map(|old| {
                *old.value
                    .downcast::<R>()
                    .expect("resource stored under its own TypeId")
            })
    }

    /// The `R` resource.
    ///
    /// # Panics
    /// If no `R` was inserted; use [`World::get_resource`] when that is expected.
    #[inline]
    pub fn resource<R: 'static>(&self) -> &R {
        self.get_resource().unwrap_or_else(|| {
            panic!(
                "no resource `{}`: call World::insert_resource first",
                type_name::<R>()
            )
        })
    }

    /// The `R` resource, mutably.
    ///
    /// # Panics
    /// If no `R` was inserted; use [`World::get_resource_mut`] when that is expected.
    #[inline]
    pub fn resource_mut<R: 'static>(&mut self) -> &mut R {
        self.get_resource_mut().unwrap_or_else(|| {
            panic!(
                "no resource `{}`: call World::insert_resource first",
                type_name::<R>()
            )
        })
    }

    /// The `R` resource, if inserted.
    #[inline]
    pub fn get_resource<R: 'static>(&self) -> Option<&R> {
        self.resources.get(&TypeId::of::<R>())?.value.downcast_ref()
    }

    /// The `R` resource mutably, if inserted.
    #[inline]
    pub fn get_resource_mut<R: 'static>(&mut self) -> Option<&mut R> {
        self.resources
            .get_mut(&TypeId::of::<R>())?
            .value
            .downcast_mut()
    }

    /// Remove and return the `R` resource.
    pub fn remove_resource<R: 'static>(&mut self) -> Option<R> {
        self.resources.remove(&TypeId::of::<R>()).map(|old| {
            *old.value
                .downcast::<R>()
                .expect("resource stored under its own TypeId")
        })
    }

    /// Every resource type the world holds: its `TypeId` and its [`type_name`], in no
    /// particular order. For checks that must cover every resource, such as a test that a
    /// state hash or a save format misses none; compare `TypeId`s (the names are for messages,
    /// and `std` does not promise their exact form).
    ///
    /// ```
    /// use std::any::TypeId;
    ///
    /// struct Score(u32);
    /// let mut world = ecs::World::new();
    /// world.insert_resource(Score(0));
    /// let types: Vec<_> = world.resource_types().collect();
    /// assert_eq!(types.len(), 1);
    /// assert_eq!(types[0].0, TypeId::of::<Score>());
    /// assert!(types[0].1.ends_with("Score"));
    /// ```
    pub fn resource_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.resources.iter().map(|(&id, r)| (id, r.name))
    }

    /// Send an event to every [`EventReader<E>`](crate::EventReader).
    pub fn send<E: 'static>(&mut self, event: E) {
        self.events
            .entry(TypeId::of::<E>())
            .or_insert_with(|| Box::new(Events::<E>::default()))
            .as_any_mut()
            .downcast_mut::<Events<E>>()
            .expect("events stored under their own TypeId")
            .send(event);
    }

    /// The queue of `E` events, if any were ever sent.
    pub fn events<E: 'static>(&self) -> Option<&Events<E>> {
        self.events.get(&TypeId::of::<E>())?.as_any().downcast_ref()
    }

    // ----- systems ---------------------------------------------------------------------------

    /// Add a system. It tracks every existing entity that matches, all of them dirty (if it
    /// watches anything), so its first run sees the world as new.
    ///
    /// # Panics
    /// If called from inside a system's update.
    pub fn add_system(&mut self, desc: SystemDesc, system: impl System) -> SystemId {
        assert!(!self.updating, "World::add_system called during an update");
        let s = self.systems.len();
        let mut required = ComponentSet::EMPTY;
        for r in &desc.requires {
            let id = (r.register)(self);
            required.insert(id);
            self.requirers[id.index()].push(s);
        }
        let mut watches: Vec<Watch> = Vec::new();
        for w in &desc.watches {
            let id = (w.register)(self);
            if watches.iter().any(|w| w.id == id) {
                continue;
            }
            self.watchers[id.index()].push(s);
            let log = self.logs[id.index()].get_or_insert_with(|| {
                let log = Rc::new(RefCell::new(ChangeLog::default()));
                self.columns[id.index()].watch(Rc::clone(&log));
                self.watched.push(id);
                log
            });
            // Cursors never pass the start of the unread part (see `ChangeLog`); the entries
            // there are harmless: its first run sees every tracked entity dirty anyway.
            let cursor = log.borrow().fresh_from;
            watches.push(Watch { id, cursor });
        }
        if required.is_empty() {
            self.requires_nothing.push(s);
        }
        let mut slot = SystemSlot {
            watches_any: !desc.watches.is_empty(),
            required_only: {
                let mut ids = required.iter();
                match (ids.next(), ids.next()) {
                    (Some(id), None) => Some(id),
                    _ => None,
                }
            },
            desc,
            system: Some(Box::new(system)),
            required,
            enabled: true,
            sets: Box::default(),
            watches,
            dirty: ClearableSet::default(),
            pending_membership: Vec::new(),
            running: None,
            last_dirty: 0,
            last_duration: Duration::ZERO,
            runs: 0,
        };
        for (entity, sig) in self.entities.iter() {
            if sig.is_superset(&slot.required) {
                slot.sets.tracked.insert(entity);
                if slot.watches_any {
                    slot.dirty.insert(entity);
                }
            }
        }
        let priority = slot.desc.priority;
        self.systems.push(slot);
        let at = self
            .order
            .partition_point(|&o| self.systems[o].desc.priority <= priority);
        self.order.insert(at, s);
        SystemId(s)
    }

    /// Enable or disable a system. A disabled system does not run but keeps collecting dirty
    /// entities (each at most once), and receives them all on its first run after re-enabling.
    pub fn set_enabled(&mut self, id: SystemId, enabled: bool) {
        self.slot_mut(id).enabled = enabled;
    }

    /// Whether a system is enabled.
    pub fn is_enabled(&self, id: SystemId) -> bool {
        self.slot(id).enabled
    }

    /// Figures for every system, in run order.
    pub fn systems(&self) -> impl ExactSizeIterator<Item = SystemInfo> + '_ {
        self.order.iter().map(|&s| self.info(SystemId(s)))
    }

    /// Figures for one system.
    pub fn system_info(&self, id: SystemId) -> SystemInfo {
        self.info(id)
    }

    /// The entities `id` currently tracks, would receive as dirty on its next run (in the order
    /// that run would get them), and would receive as removed.
    ///
    /// # Panics
    /// If called from inside a system's update.
    pub fn system_entities(&mut self, id: SystemId) -> SystemEntities<'_> {
        assert!(
            !self.updating,
            "World::system_entities called during an update"
        );
        self.slot(id);
        let s = id.0;
        self.expand_all(s);
        let mut out = std::mem::take(&mut self.systems[s].sets.delivered);
        out.clear();
        let slot = &self.systems[s];
        if slot.watches_any {
            if self.change_tracking {
                let order = if self.is_dense(self.pending_upper_bound(s)) {
                    Order::Slot(&mut self.sorter, self.entities.slot_count())
                } else {
                    Order::Change(&mut self.scratch)
                };
                collect(&self.logs, order, slot, &slot.sets.tracked, &mut out);
            } else {
                out.extend_from_slice(slot.sets.tracked.as_slice());
            }
        }
        let slot = &mut self.systems[s];
        slot.sets.delivered = out;
        SystemEntities {
            tracked: slot.sets.tracked.as_slice(),
            dirty: slot.sets.delivered.as_slice(),
            removed: slot.sets.removed.as_slice(),
        }
    }

    fn info(&self, id: SystemId) -> SystemInfo {
        let slot = self.slot(id);
        SystemInfo {
            id,
            name: slot.desc.name,
            priority: slot.desc.priority,
            debug: slot.desc.debug,
            enabled: slot.enabled,
            tracked: slot.running.unwrap_or(slot.sets.tracked.len()),
            last_dirty: slot.last_dirty,
            last_duration: slot.last_duration,
            runs: slot.runs,
        }
    }

    fn slot(&self, id: SystemId) -> &SystemSlot {
        self.systems
            .get(id.0)
            .unwrap_or_else(|| panic!("{id:?} does not belong to this world"))
    }

    fn slot_mut(&mut self, id: SystemId) -> &mut SystemSlot {
        self.systems
            .get_mut(id.0)
            .unwrap_or_else(|| panic!("{id:?} does not belong to this world"))
    }

    /// Switch change tracking off to hand every system all of its tracked entities as dirty on
    /// every run (the baseline the optimization is measured against), or back on.
    pub fn set_change_tracking(&mut self, on: bool) {
        self.change_tracking = on;
    }

    /// Whether change tracking is on (the default).
    pub fn change_tracking(&self) -> bool {
        self.change_tracking
    }

    /// Time every system run ([`SystemInfo::last_duration`]), or stop (the default). Two clock
    /// reads per system cost more than an update where nothing changed, so turn this on only
    /// while something reads the timings (a stats panel, a profiler, a report). While off,
    /// `last_duration` is zero.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Whether system runs are timed.
    pub fn timing(&self) -> bool {
        self.timing
    }

    /// Choose when a system gets its dirty entities in slot order rather than in the order the
    /// changes were made; see [`DenseDelivery`]. Both
    /// orders are deterministic. The default is [`DenseDelivery::DEFAULT`].
    ///
    /// ```
    /// use ecs::{DenseDelivery, SystemDesc, SystemEntities, World};
    ///
    /// struct Hp(u32);
    /// let mut world = World::new();
    /// let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    /// let out = seen.clone();
    /// world.add_system(
    ///     SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
    ///     move |_: &mut World, e: &SystemEntities| *out.borrow_mut() = e.dirty().to_vec(),
    /// );
    /// let es: Vec<_> = (0..4).map(|i| world.spawn((Hp(i),))).collect();
    /// world.update();
    /// world.set_dense_delivery(DenseDelivery::ALWAYS);
    /// for &e in es.iter().rev() {
    ///     world.get_mut::<Hp>(e).unwrap().0 += 1;
    /// }
    /// world.update();
    /// assert_eq!(*seen.borrow(), es, "slot order, not change order");
    /// ```
    pub fn set_dense_delivery(&mut self, dense: DenseDelivery) {
        self.dense = dense;
    }

    // ----- the update loop -------------------------------------------------------------------

    /// Run every enabled system once, in priority order, then apply deferred despawns and clears.
    ///
    /// # Panics
    /// If called from inside a system.
    pub fn update(&mut self) {
        self.run(false);
    }

    /// Like [`World::update`], but run only enabled debug systems (e.g. while the game is
    /// paused); the other systems keep accumulating dirty entities.
    pub fn update_debug_only(&mut self) {
        self.run(true);
    }

    fn run(&mut self, debug_only: bool) {
        assert!(
            !self.updating,
            "World::update called from inside a system's update"
        );
        self.updating = true;
        for k in 0..self.order.len() {
            let s = self.order[k];
            let slot = &self.systems[s];
            if !slot.enabled || (debug_only && !slot.desc.debug) {
                if slot.watches_any {
                    self.take_over(s);
                }
                continue;
            }
            if slot.desc.reactive && self.change_tracking && self.nothing_pending(s) {
                let slot = &mut self.systems[s];
                slot.last_dirty = 0;
                slot.last_duration = Duration::ZERO;
                continue;
            }
            self.run_system(s);
        }
        for k in 0..self.pending_despawns.len() {
            let entity = self.pending_despawns[k];
            self.despawn_now(entity);
        }
        self.pending_despawns.clear();
        for events in self.events.values_mut() {
            events.end_update();
        }
        self.compact_logs();
        self.updating = false;
        if std::mem::take(&mut self.pending_clear) {
            self.clear_now();
        }
    }

    fn run_system(&mut self, s: usize) {
        let placeholder = self
            .placeholder
            .take()
            .expect("a system is never run re-entrantly");
        let slot = &mut self.systems[s];
        let mut system = slot
            .system
            .take()
            .expect("a system is never run re-entrantly");
        let mut sets = std::mem::replace(&mut slot.sets, placeholder);
        slot.running = Some(sets.tracked.len());
        let SystemSets {
            tracked,
            removed,
            delivered,
        } = &mut *sets;
        let delivery = if !slot.watches_any {
            Delivery::Own
        } else if self.change_tracking {
            self.deliver(s, tracked, delivered)
        } else {
            self.consume(s);
            Delivery::Tracked
        };
        let dirty = match delivery {
            Delivery::Own => delivered.as_slice(),
            Delivery::Tracked => tracked.as_slice(),
            Delivery::Lent(_, from) => &delivered[from..],
        };
        let skip = self.systems[s].desc.reactive && dirty.is_empty() && removed.is_empty();
        let start = self.timing.then(Instant::now);
        if !skip {
            system.update(
                self,
                &SystemEntities {
                    tracked: tracked.as_slice(),
                    dirty,
                    removed: removed.as_slice(),
                },
            );
        }
        let elapsed = start.map_or(Duration::ZERO, |t| t.elapsed());
        let last_dirty = dirty.len();
        if let Delivery::Lent(id, _) = delivery {
            change_log(&self.logs, id).borrow_mut().give_back(delivered);
        }
        let used = delivered.len();
        delivered.clear();
        crate::change_log::release_if_oversized(delivered, used);
        removed.clear();

        let slot = &mut self.systems[s];
        slot.system = Some(system);
        slot.running = None;
        let placeholder = std::mem::replace(&mut slot.sets, sets);
        // Nothing reaches a running system's sets: membership changes wait in
        // `pending_membership`, and value changes wait in the change logs.
        debug_assert!(slot.dirty.is_empty() && placeholder.tracked.len() == 0);
        slot.last_dirty = last_dirty;
        slot.last_duration = elapsed;
        slot.runs += u64::from(!skip);
        self.placeholder = Some(placeholder);
        let slot = &mut self.systems[s];
        if !slot.pending_membership.is_empty() {
            let mut pending = std::mem::take(&mut slot.pending_membership);
            for entity in pending.drain(..) {
                self.refresh_membership(s, entity);
            }
            self.systems[s].pending_membership = pending;
        }
    }

    /// Whether system `s` has no dirty and no removed entity, and no log entry that could be
    /// one (change tracking on): a check that touches neither its sets nor any column.
    #[inline]
    fn nothing_pending(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.dirty.is_empty()
            && slot.sets.removed.is_empty()
            && slot.watches.iter().all(|w| {
                change_log(&self.logs, w.id)
                    .borrow()
                    .is_empty_after(w.cursor)
            })
    }

    /// Whether a delivery of `candidates` entities goes by slot order.
    #[inline]
    fn is_dense(&self, candidates: usize) -> bool {
        candidates >= self.dense.min
            && candidates as f64 >= self.dense.fraction * self.entities.slot_count() as f64
    }

    /// Entries after system `s`'s cursors plus its own dirty set: what a delivery looks at.
    fn pending_upper_bound(&self, s: usize) -> usize {
        let slot = &self.systems[s];
        slot.watches
            .iter()
            .map(|w| change_log(&self.logs, w.id).borrow().entries.len() - w.cursor)
            .sum::<usize>()
            + slot.dirty.len()
    }

    /// Expand [`Column::values_mut`]'s "everything changed" into log entries for the
    /// components system `s` watches.
    fn expand_all(&mut self, s: usize) {
        for w in &self.systems[s].watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if std::mem::take(&mut log.all) {
                for &entity in self.columns[w.id.index()].entities() {
                    log.mark(entity);
                }
            }
        }
    }

    /// Hand system `s` its dirty entities (into `out`, or as a lent log range) and move its
    /// cursors to the ends of the logs.
    fn deliver(&mut self, s: usize, tracked: &EntitySet, out: &mut Vec<Entity>) -> Delivery {
        out.clear();
        let slot = &self.systems[s];
        let mut all = false;
        let mut any = !slot.dirty.is_empty();
        for w in &slot.watches {
            let log = change_log(&self.logs, w.id).borrow();
            all |= log.all;
            any |= !log.is_empty_after(w.cursor);
        }
        if !any {
            // Nothing to deliver: a dirty set left large by a burst gives its memory back.
            self.systems[s].dirty.clear_and_release();
            return Delivery::Own;
        }
        if all {
            self.expand_all(s);
        }
        let candidates = self.pending_upper_bound(s);
        let dense = self.is_dense(candidates);
        let slot = &mut self.systems[s];
        // Every tracked entity is newly tracked (the first update of a level, or a system
        // added to a full world): the tracked set, if in slot order, is the delivery.
        if dense && slot.dirty.len() == tracked.len() && tracked.is_in_slot_order() {
            self.consume(s);
            return Delivery::Tracked;
        }
        if slot.dirty.is_empty() {
            let required_only = slot.required_only;
            let mut pending = slot
                .watches
                .iter_mut()
                .filter(|w| change_log(&self.logs, w.id).borrow().entries.len() > w.cursor);
            if let (Some(watch), None) = (pending.next(), pending.next()) {
                let mut log = change_log(&self.logs, watch.id).borrow_mut();
                let from = watch.cursor;
                // Within one part each entity appears once; if every entry is tracked too,
                // the system can read the shared log itself. A log already in ascending slot
                // order is what a dense delivery would build, so it is lent at any density.
                let lendable = if dense {
                    log.ascending_from(from)
                } else {
                    log.unique_from(from)
                };
                // A system that requires only the watched component tracks exactly its
                // column, so entries whose entities are all still there need no lookups.
                let all_tracked = (required_only == Some(watch.id) && log.present_from(from))
                    || log.entries[from..].iter().all(|&e| tracked.contains(e));
                if lendable && all_tracked {
                    log.seal();
                    watch.cursor = log.entries.len();
                    log.lend(out);
                    return Delivery::Lent(watch.id, from);
                }
                // Every tracked entity changed, each once: the tracked set, if it is in slot
                // order, is the delivery, and costs nothing to hand out.
                let whole = dense
                    && all_tracked
                    && log.unique_from(from)
                    && log.entries.len() - from == tracked.len()
                    && tracked.is_in_slot_order();
                if whole {
                    drop(log);
                    self.consume(s);
                    return Delivery::Tracked;
                }
            }
        }
        let order = if dense {
            Order::Slot(&mut self.sorter, self.entities.slot_count())
        } else {
            Order::Change(&mut self.scratch)
        };
        collect(&self.logs, order, slot, tracked, out);
        self.consume(s);
        Delivery::Own
    }

    /// Move system `s`'s cursors to the ends of the logs and empty its own dirty set.
    fn consume(&mut self, s: usize) {
        self.expand_all(s);
        let slot = &mut self.systems[s];
        for w in &mut slot.watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if log.entries.len() > w.cursor {
                log.seal();
                w.cursor = log.entries.len();
            }
        }
        slot.dirty.clear_and_release();
    }

    /// Move what system `s` (which does not run this update) has pending in the logs into its
    /// own dirty set, so the logs can be compacted however long it stays disabled.
    fn take_over(&mut self, s: usize) {
        self.expand_all(s);
        let slot = &mut self.systems[s];
        for w in &mut slot.watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if log.entries.len() == w.cursor {
                continue;
            }
            for &entity in &log.entries[w.cursor..] {
                if slot.sets.tracked.contains(entity) {
                    slot.dirty.insert(entity);
                }
            }
            log.seal();
            w.cursor = log.entries.len();
        }
    }

    /// Drop log entries every watcher has read.
    fn compact_logs(&mut self) {
        for &id in &self.watched {
            let mut log = change_log(&self.logs, id).borrow_mut();
            if log.entries.is_empty() {
                // Nothing was marked this update: a log left large by a burst lets go.
                crate::change_log::release_if_oversized(&mut log.entries, 0);
                continue;
            }
            let cursor = |s: &usize| {
                let slot = &self.systems[*s];
                slot.watches
                    .iter()
                    .find(|w| w.id == id)
                    .map_or(0, |w| w.cursor)
            };
            let read = self.watchers[id.index()]
                .iter()
                .map(cursor)
                .min()
                .unwrap_or(0);
            if read == 0 {
                continue;
            }
            log.compact(read);
            for &s in &self.watchers[id.index()] {
                if let Some(w) = self.systems[s].watches.iter_mut().find(|w| w.id == id) {
                    w.cursor -= read;
                }
            }
        }
    }

    fn refresh_requirers(&mut self, id: ComponentId, entity: Entity) {
        for i in 0..self.requirers[id.index()].len() {
            self.refresh_membership(self.requirers[id.index()][i], entity);
        }
    }

    /// Make system `s` track `entity` iff it is alive and has every required component.
    fn refresh_membership(&mut self, s: usize, entity: Entity) {
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
                    slot.dirty.insert(entity);
                }
            }
        } else if slot.sets.tracked.remove(entity).is_some() {
            slot.dirty.remove(entity);
            slot.sets.removed.insert(entity);
        }
    }
}

#[inline]
fn downcast<T: Component>(column: &dyn AnyColumn) -> &Column<T> {
    column
        .as_any()
        .downcast_ref()
        .expect("column stored under its own TypeId")
}

#[inline]
fn downcast_mut<T: Component>(column: &mut dyn AnyColumn) -> &mut Column<T> {
    column
        .as_any_mut()
        .downcast_mut()
        .expect("column stored under its own TypeId")
}

/// Where a running system's dirty entities are.
#[derive(Clone, Copy)]
enum Delivery {
    /// In the system's `delivered` buffer (empty when nothing changed).
    Own,
    /// Every tracked entity (change tracking off).
    Tracked,
    /// In a component's change log, lent for the run as the `delivered` buffer, from this
    /// position.
    Lent(ComponentId, usize),
}

/// The change log of a watched component.
#[inline]
fn change_log(logs: &[Option<Rc<RefCell<ChangeLog>>>], id: ComponentId) -> &RefCell<ChangeLog> {
    logs[id.index()]
        .as_deref()
        .expect("a watched component has a change log")
}

/// How [`collect`] orders and deduplicates a delivery.
enum Order<'a> {
    /// Change order (own dirty set first, then log order), deduplicated through a bit set
    /// over the slots that is all-zero before and after.
    Change(&'a mut SlotBits),
    /// Slot order, through a radix sort of the handles (indices below the slot count).
    Slot(&'a mut SlotSorter, usize),
}

/// Put `slot`'s dirty entities into `out` without consuming them: its own dirty set and the log
/// entries after its cursors, each tracked entity once, in `order`.
fn collect(
    logs: &[Option<Rc<RefCell<ChangeLog>>>],
    order: Order<'_>,
    slot: &SystemSlot,
    tracked: &EntitySet,
    out: &mut Vec<Entity>,
) {
    match order {
        Order::Slot(sorter, slot_count) => {
            // A log entry may name a since-despawned entity whose slot a tracked one reuses:
            // the tracked filter drops that stale handle (the new one, tracked after the
            // change, is in the own dirty set anyway).
            let logs: Vec<_> = slot
                .watches
                .iter()
                .map(|w| (w, change_log(logs, w.id).borrow()))
                .collect();
            let mut parts = vec![slot.dirty.as_slice()];
            let mut all_tracked = true;
            for (w, log) in &logs {
                all_tracked &= slot.required_only == Some(w.id) && log.present_from(w.cursor);
                parts.push(&log.entries[w.cursor..]);
            }
            // Within one part of one log each entity appears once.
            let nonempty = parts.iter().filter(|p| !p.is_empty()).count();
            let unique = nonempty <= 1
                && slot.watches.iter().zip(&logs).all(|(w, (_, log))| {
                    log.entries.len() == w.cursor || log.unique_from(w.cursor)
                });
            match sorter.sort_into(&parts, unique, Some(tracked), out, slot_count) {
                Sorted::Tracked => {}
                Sorted::Strict if all_tracked => {}
                // Sorted, the lookups in the tracked set walk it forwards.
                _ => dedup_sorted(out, |e| all_tracked || tracked.contains(e)),
            }
        }
        Order::Change(scratch) => {
            for &e in slot.dirty.as_slice() {
                scratch.set(e.index());
                out.push(e);
            }
            for w in &slot.watches {
                for &e in &change_log(logs, w.id).borrow().entries[w.cursor..] {
                    if tracked.contains(e) && !scratch.test_and_set(e.index()) {
                        out.push(e);
                    }
                }
            }
            for e in out.iter() {
                scratch.clear(e.index());
            }
        }
    }
}

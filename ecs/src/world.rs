//! The `World`: entities, their components in columns, resources and events.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Entity;
use crate::column::{AnyColumn, Column, Mut, downcast_mut};
use crate::component::{Component, ComponentId, ComponentSet, MAX_COMPONENT_TYPES};
use crate::entity::Entities;
use crate::events::{AnyEvents, Events};
use crate::schedule::{SystemSets, SystemSlot};

/// Error returned when an operation names an entity that is not alive (despawned, or stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoSuchEntity(pub Entity);

impl fmt::Display for NoSuchEntity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entity {} is not alive (despawned or stale)", self.0)
    }
}

impl std::error::Error for NoSuchEntity {}

/// `TypeId`s are already hashes; feeding them through SipHash only costs time.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        bytes
            .iter()
            .for_each(|&b| self.0 = self.0.rotate_left(8) ^ u64::from(b));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

pub(crate) type TypeMap<V> = HashMap<TypeId, V, BuildHasherDefault<TypeIdHasher>>;

/// What the world is doing: idle, running system `s`, or running its `on_clear`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Phase {
    #[default]
    Idle,
    Updating(usize),
    Clearing(usize),
}

/// A number no other [`World`] of this process has: [`SystemId`](crate::SystemId)s carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WorldId(u64);

impl Default for WorldId {
    fn default() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Everything in one ECS: entities, components, systems, resources and events (the
/// [crate documentation](crate) has a walkthrough).
///
/// ```
/// use ecs::{SystemDesc, SystemEntities, World};
///
/// let mut world = World::new();
/// let desc = SystemDesc::new("fall").requires::<f32>();
/// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
///     entities.query::<&mut f32>(world).for_each(|_, mut y| *y -= 1.0);
/// });
/// let e = world.spawn((10.0f32,));
/// world.update();
/// assert_eq!(world.get::<f32>(e), Some(&9.0));
/// ```
#[derive(Default)]
pub struct World {
    pub(crate) id: WorldId,
    pub(crate) entities: Entities,
    pub(crate) component_ids: TypeMap<ComponentId>,
    pub(crate) columns: Vec<Box<dyn AnyColumn>>,
    /// Per component type: its `TypeId` and name, in registration order (= `ComponentId`).
    pub(crate) component_types: Vec<(TypeId, &'static str)>,
    /// Per component type: systems that require it (their membership can change with it).
    pub(crate) requirers: Vec<Vec<usize>>,
    /// Per component type: systems that watch it.
    pub(crate) watchers: Vec<Vec<usize>>,
    pub(crate) watched: ComponentSet,
    pub(crate) timing: bool,
    /// What times systems while `timing` is on; `None` is `std::time::Instant`.
    pub(crate) clock: Option<fn() -> std::time::Duration>,
    /// Stands in for the sets of the running system (see `SystemSlot::sets`).
    pub(crate) placeholder: Option<Box<SystemSets>>,
    /// Systems that require nothing and so track every entity.
    pub(crate) requires_nothing: Vec<usize>,
    pub(crate) systems: Vec<SystemSlot>,
    /// Indices into `systems` in run order, each with when it runs and what it watches.
    pub(crate) order: Vec<(usize, RunWhen, ComponentSet)>,
    /// Per system: whether its dirty bits or removed set may hold something.
    pub(crate) pending: Vec<bool>,
    /// Number of systems in `order` that run on something else than changes.
    pub(crate) every_update: usize,
    /// Number of updates begun.
    pub(crate) updates: u64,
    pub(crate) resources: Resources,
    pub(crate) events: TypeMap<Box<dyn AnyEvents>>,
    /// The event types whose queue holds events: the ones an update's end has to visit.
    pub(crate) queued_events: Vec<TypeId>,
    pub(crate) phase: Phase,
    /// Whether some system's dirty bits or removed set may hold something.
    pub(crate) sets_pending: bool,
    /// Columns that may hold change bits (each mutable access to a column adds it).
    pub(crate) changed: ComponentSet,
    pub(crate) pending_despawns: Vec<Entity>,
    pub(crate) pending_clear: bool,
    /// Whether change tracking is off ([`World::set_change_tracking`]).
    pub(crate) tracking_off: bool,
    /// Per bundle type: index into `bundles`.
    pub(crate) bundle_ids: TypeMap<usize>,
    pub(crate) bundles: Vec<BundleInfo>,
}

/// When an update runs a system (see [`SystemDesc::on_changes`] and the two after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunWhen {
    Changes,
    EveryUpdate,
    Events(TypeId),
}

/// One resource and the name of its type (for [`World::resource_types`]).
pub(crate) struct Resource {
    pub(crate) value: Box<dyn Any + Send>,
    pub(crate) name: &'static str,
}

impl Resource {
    fn into_inner<R: 'static>(self) -> R {
        *self.value.downcast().expect("stored under its own TypeId")
    }
}

/// What [`World::spawn`] needs to know about one bundle type, computed once.
#[derive(Debug, Default)]
pub(crate) struct BundleInfo {
    /// Component ids in tuple order.
    pub(crate) ids: Vec<ComponentId>,
    pub(crate) signature: ComponentSet,
    /// Systems whose membership a spawn with this bundle can change, each once.
    pub(crate) systems: Vec<usize>,
    /// `systems.len()` of the world when `systems` was computed.
    pub(crate) systems_seen: usize,
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types: Vec<_> = self.component_types.iter().map(|t| t.1).collect();
        let systems: Vec<_> = self.systems().map(|s| s.name).collect();
        f.debug_struct("World")
            .field("entities", &self.entities.len())
            .field("component_types", &types)
            .field("systems", &systems)
            .finish_non_exhaustive()
    }
}

fn no_resource<R>() -> ! {
    let name = type_name::<R>();
    panic!("no resource `{name}`: call World::insert_resource first")
}

/// Call `f` on the column of each of `ids`; a panic in one (a component's `Drop`) lets the rest
/// run, as `Vec`'s own drop does (a second panic aborts).
fn each_column(
    columns: &mut [Box<dyn AnyColumn>],
    mut ids: impl Iterator<Item = ComponentId>,
    f: impl Fn(&mut dyn AnyColumn),
) {
    // Its `Drop` goes on with the rest when `f` panics.
    struct Rest<'a>(&'a mut dyn FnMut() -> bool);
    impl Drop for Rest<'_> {
        fn drop(&mut self) {
            while (self.0)() {}
        }
    }
    let mut next = || ids.next().map(|id| f(&mut *columns[id.index()])).is_some();
    let rest = Rest(&mut next);
    while (rest.0)() {}
}

impl World {
    /// Create an empty world with change tracking on.
    pub fn new() -> Self {
        Self::default()
    }

    /// `T`'s column, of id `id`, mutably: it may hold change bits from now on.
    fn column_at<T: Component>(&mut self, id: ComponentId) -> &mut Column<T> {
        self.changed.insert(id);
        downcast_mut(&mut *self.columns[id.index()])
    }

    /// Add `value` to `entity`, replacing (and returning) any `T` it had: a change either way.
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
        let old = self.column_at::<T>(id).insert(entity, value);
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
        let value = self.column_at::<T>(id).remove(entity)?;
        if let Some(sig) = self.entities.components_mut(entity) {
            sig.remove(id);
        }
        self.refresh_requirers(id, entity);
        Some(value)
    }

    /// `entity`'s `T`, or `None` if it has none or the handle is stale.
    pub fn get<T: Component>(&self, entity: Entity) -> Option<&T> {
        self.try_column::<T>()?.get(entity)
    }

    /// A change-signalling handle to `entity`'s `T` (see [`Mut`]).
    pub fn get_mut<T: Component>(&mut self, entity: Entity) -> Option<Mut<'_, T>> {
        let id = self.component_id::<T>()?;
        self.column_at::<T>(id).get_mut(entity)
    }

    /// Whether `entity` is alive and has a `T`.
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

    /// Despawn `entity`, returning whether it was alive: at once, or at the end of the update
    /// when called from a system (every system of the update still sees it). A panic from a
    /// component's `Drop` propagates once the world has let go of the entity everywhere.
    pub fn despawn(&mut self, entity: Entity) -> bool {
        if !self.entities.is_alive(entity) {
            return false;
        }
        if matches!(self.phase, Phase::Updating(_)) {
            self.pending_despawns.push(entity);
        } else {
            self.despawn_now(entity);
        }
        true
    }

    pub(crate) fn despawn_now(&mut self, entity: Entity) {
        let Some(sig) = self.entities.free(entity) else {
            return; // despawned twice in one update
        };
        for s in 0..self.systems.len() {
            self.untrack(s, entity);
        }
        // Last, as it runs the components' `Drop`.
        each_column(&mut self.columns, sig.iter(), |c| c.despawn(entity));
    }

    /// The end of an update: deferred despawns, events aged (if `age_events`), a deferred clear.
    #[inline] // an idle update's tail is four checks
    pub(crate) fn end_update(&mut self, age_events: bool) {
        // Listed until all are done: a panicking `Drop` leaves the rest to the next update.
        for i in 0..self.pending_despawns.len() {
            self.despawn_now(self.pending_despawns[i]);
        }
        self.pending_despawns.clear();
        if age_events {
            let events = &mut self.events;
            self.queued_events.retain(|id| {
                let queue = events.get_mut(id).expect("a queued type has a queue");
                queue.end_update();
                !queue.is_empty()
            });
        }
        if std::mem::take(&mut self.pending_clear) {
            self.clear_now();
        }
        if self.sets_pending {
            self.sets_pending = self.pending.contains(&true);
        }
    }

    /// Remove every entity and component (resources remain), then run every system's
    /// [`on_clear`](crate::System::on_clear); old handles stay stale. Called from a system, it
    /// happens at the end of the update; from an `on_clear`, after the current clear's.
    ///
    /// A panic from a component's `Drop` propagates once every column is empty, before any
    /// `on_clear`; a panic in an `on_clear` propagates once the world has the system back.
    pub fn clear(&mut self) {
        if self.phase == Phase::Idle {
            self.clear_now();
        } else {
            self.pending_clear = true;
        }
    }

    pub(crate) fn clear_now(&mut self) {
        self.pending_clear = true;
        while std::mem::take(&mut self.pending_clear) {
            self.clear_once();
        }
    }

    fn clear_once(&mut self) {
        self.sets_pending = true;
        self.pending.fill(true);
        let live: Vec<Entity> = self.iter_entities().collect();
        for entity in live {
            self.entities.free(entity);
        }
        for slot in &mut self.systems {
            for &entity in slot.sets.tracked.as_slice() {
                slot.sets.removed.insert(entity);
            }
            slot.sets.tracked.clear();
            slot.dirty.clear();
            slot.added.clear();
            slot.pending_membership.clear();
        }
        self.pending_despawns.clear();
        let ids = (0..self.columns.len()).map(|i| ComponentId(i as u16));
        each_column(&mut self.columns, ids, |c| c.clear());
        for k in 0..self.order.len() {
            let (s, ..) = self.order[k];
            let Some(mut system) = self.systems[s].system.take() else {
                continue;
            };
            self.phase = Phase::Clearing(s);
            let outcome = catch_unwind(AssertUnwindSafe(|| system.on_clear(self)));
            self.phase = Phase::Idle;
            self.systems[s].system = Some(system);
            if let Err(panic) = outcome {
                self.pending_clear = false;
                resume_unwind(panic);
            }
        }
    }

    fn refresh_requirers(&mut self, id: ComponentId, entity: Entity) {
        for i in 0..self.requirers[id.index()].len() {
            self.refresh_membership(self.requirers[id.index()][i], entity);
        }
    }

    /// Make system `s` track `entity` iff it is alive and has every required component.
    pub(crate) fn refresh_membership(&mut self, s: usize, entity: Entity) {
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
                slot.added.insert(entity.index());
                if !slot.watches.is_empty() {
                    slot.dirty.insert(entity.index());
                }
                self.sets_pending = true;
                self.pending[s] = true;
            }
        } else {
            self.untrack(s, entity);
        }
    }

    /// Make system `s` stop tracking `entity` (listing it as removed), if it does.
    fn untrack(&mut self, s: usize, entity: Entity) {
        let slot = &mut self.systems[s];
        if slot.sets.tracked.remove(entity).is_some() {
            slot.dirty.remove(entity.index());
            slot.added.remove(entity.index());
            slot.sets.removed.insert(entity);
            self.sets_pending = true;
            self.pending[s] = true;
        }
    }

    /// Register component type `T` (idempotent) and return its id.
    ///
    /// # Panics
    /// If the world already has [`MAX_COMPONENT_TYPES`] other component types.
    pub fn register<T: Component>(&mut self) -> ComponentId {
        self.component_id::<T>()
            .unwrap_or_else(|| self.register_new::<T>())
    }

    // Out of line: the lookup above is all that the systems' code carries.
    #[cold]
    #[inline(never)]
    fn register_new<T: Component>(&mut self) -> ComponentId {
        let index = self.columns.len();
        assert!(
            index < MAX_COMPONENT_TYPES,
            "cannot register `{}`: a world holds at most {MAX_COMPONENT_TYPES} component types",
            type_name::<T>()
        );
        let id = ComponentId(index as u16);
        self.columns.push(Box::new(Column::<T>::default()));
        let type_id = TypeId::of::<T>();
        self.component_types.push((type_id, type_name::<T>()));
        self.component_ids.insert(type_id, id);
        self.requirers.push(Vec::new());
        self.watchers.push(Vec::new());
        id
    }

    /// Every registered component type by [`ComponentId`], as `TypeId` and [`type_name`].
    pub fn component_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.component_types.iter().copied()
    }

    /// Id of component type `T`, if registered.
    pub fn component_id<T: Component>(&self) -> Option<ComponentId> {
        self.id_of(TypeId::of::<T>())
    }

    // One copy of the table probe for every type, not one per type and call site (as for
    // resources): less code to fetch when caches are cold.
    #[inline(never)]
    fn id_of(&self, type_id: TypeId) -> Option<ComponentId> {
        self.component_ids.get(&type_id).copied()
    }

    /// Every component of type `T`.
    ///
    /// # Panics
    /// If `T` was never registered ([`World::try_column`] does not panic).
    pub fn column<T: Component>(&self) -> &Column<T> {
        self.try_column()
            .unwrap_or_else(|| panic!("component type `{}` was never registered", type_name::<T>()))
    }

    /// Every component of type `T`, or `None` if `T` was never registered.
    pub fn try_column<T: Component>(&self) -> Option<&Column<T>> {
        self.column_by_id(self.component_id::<T>()?)
    }

    /// Every component of type `T`, found by its id; `None` if `id` is not `T`'s.
    pub(crate) fn column_by_id<T: Component>(&self, id: ComponentId) -> Option<&Column<T>> {
        let column: &dyn Any = &**self.columns.get(id.index())?;
        column.downcast_ref()
    }

    /// Every component of type `T`, mutably, registering `T` if needed.
    pub fn column_mut<T: Component>(&mut self) -> &mut Column<T> {
        let id = self.register::<T>();
        self.column_at::<T>(id)
    }

    /// Two columns of different types at once, mutably.
    ///
    /// # Panics
    /// If `A` and `B` are the same type.
    pub fn columns_mut<A: Component, B: Component>(&mut self) -> (&mut Column<A>, &mut Column<B>) {
        let (a, b) = (self.register::<A>(), self.register::<B>());
        let name = type_name::<A>();
        assert_ne!(
            a, b,
            "columns_mut::<{name}, {name}>: asked for the same column twice"
        );
        self.changed.insert(a);
        self.changed.insert(b);
        let [ca, cb] = self
            .columns
            .get_disjoint_mut([a.index(), b.index()])
            .expect("distinct columns");
        (downcast_mut::<A>(&mut **ca), downcast_mut::<B>(&mut **cb))
    }

    /// Store a singleton of type `R` (input, time, ...), returning the one it replaces.
    pub fn insert_resource<R: 'static + Send>(&mut self, resource: R) -> Option<R> {
        let resource = Resource {
            value: Box::new(resource),
            name: type_name::<R>(),
        };
        let old = self.resources.0.insert(TypeId::of::<R>(), resource);
        old.map(Resource::into_inner)
    }

    /// The `R` resource.
    ///
    /// # Panics
    /// If no `R` was inserted ([`World::get_resource`] does not panic).
    pub fn resource<R: 'static>(&self) -> &R {
        self.resources.resource()
    }

    /// The `R` resource, mutably.
    ///
    /// # Panics
    /// If no `R` was inserted ([`World::get_resource_mut`] does not panic).
    pub fn resource_mut<R: 'static>(&mut self) -> &mut R {
        self.resources.resource_mut()
    }

    /// The `R` resource, if inserted.
    pub fn get_resource<R: 'static>(&self) -> Option<&R> {
        self.resources.get()
    }

    /// The `R` resource mutably, if inserted.
    pub fn get_resource_mut<R: 'static>(&mut self) -> Option<&mut R> {
        self.resources.get_mut()
    }

    /// Remove and return the `R` resource.
    pub fn remove_resource<R: 'static>(&mut self) -> Option<R> {
        let old = self.resources.0.remove(&TypeId::of::<R>());
        old.map(Resource::into_inner)
    }

    /// Every resource type held, in no particular order: its `TypeId` and [`type_name`].
    pub fn resource_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.resources.0.iter().map(|(&id, r)| (id, r.name))
    }

    /// Send an event to every [`EventReader<E>`](crate::EventReader).
    pub fn send<E: 'static + Send>(&mut self, event: E) {
        let events: &mut dyn Any = &mut **self
            .events
            .entry(TypeId::of::<E>())
            .or_insert_with(|| Box::new(Events::<E>::default()));
        let events: &mut Events<E> = events.downcast_mut().expect("stored under its TypeId");
        if events.queue.is_empty() {
            self.queued_events.push(TypeId::of::<E>());
        }
        events.send(event);
    }

    /// The queue of `E` events, if any were ever sent.
    pub(crate) fn events<E: 'static>(&self) -> Option<&Events<E>> {
        let events: &dyn Any = &**self.events.get(&TypeId::of::<E>())?;
        events.downcast_ref()
    }
}

/// A world's resources apart from its components, from [`crate::Query::with_resources`].
#[derive(Default)]
pub struct Resources(pub(crate) TypeMap<Resource>);

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.values().map(|r| r.name))
            .finish()
    }
}

impl Resources {
    /// The `R` resource, as [`World::resource`].
    ///
    /// # Panics
    /// If no `R` was inserted.
    pub fn resource<R: 'static>(&self) -> &R {
        self.get().unwrap_or_else(|| no_resource::<R>())
    }

    /// The `R` resource mutably, as [`World::resource_mut`].
    ///
    /// # Panics
    /// If no `R` was inserted.
    pub fn resource_mut<R: 'static>(&mut self) -> &mut R {
        self.get_mut().unwrap_or_else(|| no_resource::<R>())
    }

    /// The `A` resource mutably and the `B` resource shared, at once.
    ///
    /// # Panics
    /// If either is missing, or `A` and `B` are the same type.
    pub fn pair_mut<A: 'static, B: 'static>(&mut self) -> (&mut A, &B) {
        let keys = [&TypeId::of::<A>(), &TypeId::of::<B>()];
        match self.0.get_disjoint_mut(keys) {
            [Some(a), Some(b)] => match (a.value.downcast_mut(), b.value.downcast_ref()) {
                (Some(a), Some(b)) => (a, b),
                _ => unreachable!("resources stored under their own TypeId"),
            },
            [None, _] => no_resource::<A>(),
            [_, None] => no_resource::<B>(),
        }
    }

    pub(crate) fn get<R: 'static>(&self) -> Option<&R> {
        self.resource_of(TypeId::of::<R>())?.downcast_ref()
    }

    pub(crate) fn get_mut<R: 'static>(&mut self) -> Option<&mut R> {
        self.resource_of_mut(TypeId::of::<R>())?.downcast_mut()
    }

    #[inline(never)]
    fn resource_of(&self, type_id: TypeId) -> Option<&(dyn Any + Send)> {
        Some(&*self.0.get(&type_id)?.value)
    }

    #[inline(never)]
    fn resource_of_mut(&mut self, type_id: TypeId) -> Option<&mut (dyn Any + Send)> {
        Some(&mut *self.0.get_mut(&type_id)?.value)
    }
}

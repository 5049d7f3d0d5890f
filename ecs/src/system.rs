//! Systems: the `System` trait, how one is described (`SystemDesc`), what it receives each
//! update (`SystemEntities`), what the world reports about it, and the update loop that runs them.

use std::any::TypeId;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

use crate::component::{Component, ComponentId, ComponentSet};
use crate::delivery::{DirtySet, empty};
use crate::diagnostics::Clock;
use crate::entity_set::EntitySet;
use crate::query::{Query, QueryData};
use crate::world::{Phase, WorldId};
use crate::{Entity, World};

// What `World::update_observed` calls after each system.
type Observer<'a> = dyn FnMut(&World, &'static str) + 'a;

/// The default [`Clock`]: `std::time::Instant`, counted from its first reading.
fn instant_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Game logic run once per [`World::update`], in priority order.
///
/// A system sees the world only through `&mut World`: components, resources and events. Systems
/// never call each other; that is the one rule for how they communicate (see the crate docs).
///
/// Closures `FnMut(&mut World, &SystemEntities)` are systems too.
///
/// ```
/// use ecs::{System, SystemDesc, SystemEntities, World};
///
/// struct Room;
/// impl System for Room {
///     fn update(&mut self, _: &mut World, _: &SystemEntities<'_>) {}
///     fn on_clear(&mut self, world: &mut World) {
///         world.spawn((1u8,)); // a fresh room
///     }
/// }
/// let mut world = World::new();
/// world.add_system(SystemDesc::new("room"), Room);
/// world.spawn((3u8,));
/// world.clear();
/// assert_eq!(world.len(), 1, "on_clear spawned one");
/// ```
pub trait System: 'static + Send {
    /// Run one update. `entities` holds the tracked entities and the dirty subset.
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>);

    /// React to [`World::clear`], after every entity is gone (e.g. rebuild a pool of entities).
    /// It may spawn, despawn and call [`World::clear`] again (that clear follows this one);
    /// [`World::update`] is refused.
    fn on_clear(&mut self, world: &mut World) {
        let _ = world;
    }
}

impl<F> System for F
where
    F: FnMut(&mut World, &SystemEntities<'_>) + 'static + Send,
{
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        self(world, entities)
    }
}

/// What a system receives each update: the entities it tracks, the changed (dirty) and added
/// subsets, and the removed ones, as the run started: entities spawned, despawned or changed
/// during the run reach the system on its next run. Components are read through a [`Query`]
/// over one of the lists: [`query`](SystemEntities::query) (every tracked entity),
/// [`changed`](SystemEntities::changed) or [`added`](SystemEntities::added).
#[derive(Clone, Copy, Debug)]
pub struct SystemEntities<'a> {
    tracked: &'a [Entity],
    dirty: &'a [Entity],
    added: &'a [Entity],
    removed: &'a [Entity],
    /// The watched columns some change of which reached the system since it last ran.
    columns_changed: ComponentSet,
}

impl<'a> SystemEntities<'a> {
    /// Every entity that has all the required components (in no particular order).
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let desc = SystemDesc::new("s").requires::<u8>();
    /// world.add_system(desc, |_: &mut World, entities: &SystemEntities| {
    ///     assert_eq!(entities.tracked().len(), 1);
    /// });
    /// world.spawn((1u8,));
    /// world.spawn(());
    /// world.update();
    /// ```
    #[inline]
    pub fn tracked(&self) -> &'a [Entity] {
        self.tracked
    }

    /// The entities of [`SystemEntities::changed`], without components: for keying per-entity
    /// state and for counting. Read their components through `changed`.
    ///
    /// ```
    /// use ecs::{Entity, SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Vec::<Entity>::new());
    /// let desc = SystemDesc::new("s").watches::<u8>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     *world.resource_mut() = entities.dirty().to_vec();
    /// });
    /// let spawned: Vec<Entity> = (0..4).map(|i| world.spawn((i as u8,))).collect();
    /// world.update();
    /// for &e in spawned.iter().rev() {
    ///     *world.get_mut::<u8>(e).unwrap() += 1;
    /// }
    /// world.update();
    /// assert_eq!(*world.resource::<Vec<Entity>>(), spawned, "slot order, not write order");
    /// ```
    #[inline]
    pub fn dirty(&self) -> &'a [Entity] {
        self.dirty
    }

    /// Entities that stopped being tracked since this system last ran: despawned, cleared, or
    /// lost a required component. Handles may be stale; use them as keys, not to read
    /// components. Delivered whether or not change tracking is on, so a system that keeps
    /// per-entity state (an index, a cache) can drop it. Holds at most one handle per slot (the
    /// newest), so key such state by [`Entity::index`] when slots may be reused in between.
    ///
    /// ```
    /// use ecs::{Entity, SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Vec::<Entity>::new());
    /// let desc = SystemDesc::new("s").requires::<u8>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     world.resource_mut::<Vec<Entity>>().extend(entities.removed());
    /// });
    /// let a = world.spawn((1u8,));
    /// world.update();
    /// world.despawn(a);
    /// world.update();
    /// assert_eq!(*world.resource::<Vec<Entity>>(), [a]);
    /// ```
    #[inline]
    pub fn removed(&self) -> &'a [Entity] {
        self.removed
    }

    /// Every tracked entity, with the components `D` names.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let desc = SystemDesc::new("age").requires::<u32>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     entities.query::<&mut u32>(world).for_each(|_, mut age| *age += 1);
    /// });
    /// let e = world.spawn((1u32,));
    /// world.update();
    /// world.update();
    /// assert_eq!(world.get::<u32>(e), Some(&3));
    /// ```
    pub fn query<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.tracked)
    }

    /// The tracked entities for which a watched component changed, was added or was removed
    /// since this system last ran, and those that started being tracked since then (as
    /// `Changed<T>` in `bevy_ecs`, which holds for an added component): each once, in slot order
    /// ([`Entity::index`], ascending), with the components `D` names. Empty for a system that
    /// watches nothing; every tracked entity while change tracking is off
    /// ([`World::set_change_tracking`]).
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Vec::<u32>::new());
    /// let desc = SystemDesc::new("hp_log").watches::<u32>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     let (mut changed, resources) = entities.changed::<&u32>(world).with_resources();
    ///     while let Some((_, &hp)) = changed.next() {
    ///         resources.resource_mut::<Vec<u32>>().push(hp);
    ///     }
    /// });
    /// let a = world.spawn((3u32,));
    /// world.spawn((4u32,));
    /// world.update();
    /// *world.get_mut::<u32>(a).unwrap() = 10;
    /// world.update();
    /// assert_eq!(*world.resource::<Vec<u32>>(), [3, 4, 10], "both new, then the one written");
    /// ```
    pub fn changed<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.dirty)
    }

    /// The entities that started being tracked since this system last ran (as `Added<T>` in
    /// `bevy_ecs`), in slot order, with the components `D` names; whether or not the system
    /// watches anything or change tracking is on.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// world.insert_resource(0usize);
    /// let desc = SystemDesc::new("greet").watches::<u32>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     let newcomers = entities.added::<&u32>(world).len();
    ///     *world.resource_mut::<usize>() += newcomers;
    /// });
    /// let a = world.spawn((3u32,));
    /// world.update();
    /// *world.get_mut::<u32>(a).unwrap() = 2; // changed, not added
    /// world.spawn((4u32,));
    /// world.update();
    /// assert_eq!(*world.resource::<usize>(), 2);
    /// ```
    pub fn added<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.added)
    }

    /// Whether some change to a watched `T` (written, inserted or removed) reached this system
    /// since it last ran: one bit per watched type, so it may be a change of an entity the
    /// system does not track. Always true while change tracking is off.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// world.insert_resource(false);
    /// let desc = SystemDesc::new("bounds").watches::<u8>().watches::<u16>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     *world.resource_mut::<bool>() = entities.column_changed::<u16>(world);
    /// });
    /// let e = world.spawn((1u8, 1u16));
    /// world.update();
    /// *world.get_mut::<u8>(e).unwrap() = 2;
    /// world.update();
    /// assert!(!world.resource::<bool>(), "only the u8 changed");
    /// ```
    pub fn column_changed<T: Component>(&self, world: &World) -> bool {
        let id = world.component_id::<T>();
        id.is_some_and(|id| self.columns_changed.contains(id))
    }
}

/// How a system is scheduled and what it tracks: its name, priority, required and watched
/// components, and whether it is a debug system.
#[derive(Clone, Debug)]
pub struct SystemDesc {
    pub(crate) name: &'static str,
    pub(crate) priority: i32,
    pub(crate) debug: bool,
    /// When it runs; `None`: on changes if it watches something, else on every update.
    pub(crate) when: Option<RunWhen>,
    /// Registers a component type with a world (on `add_system`) and returns its id.
    pub(crate) requires: Vec<fn(&mut World) -> ComponentId>,
    pub(crate) watches: Vec<fn(&mut World) -> ComponentId>,
}

impl SystemDesc {
    /// Describe a system called `name`, priority 0, requiring and watching nothing. Once it
    /// watches a component, it runs [on changes](SystemDesc::on_changes) unless told
    /// otherwise; a system that watches nothing runs on every update.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            priority: 0,
            debug: false,
            when: None,
            requires: Vec::new(),
            watches: Vec::new(),
        }
    }

    /// Lower priorities run first; equal priorities run in the order systems were added.
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// Track only entities that have a `T` (on top of the other requirements).
    pub fn requires<T: Component>(mut self) -> Self {
        self.requires.push(World::register::<T>);
        self
    }

    /// Make a tracked entity dirty when its `T` changes, is added or is removed.
    pub fn watches<T: Component>(mut self) -> Self {
        self.watches.push(World::register::<T>);
        self
    }

    /// Mark as a debug system: it also runs in [`World::update_debug_only`] (e.g. while paused).
    pub fn debug(mut self) -> Self {
        self.debug = true;
        self
    }

    /// Run only when it has something to react to: a changed, added or removed entity. The
    /// default for a system that watches something. A skipped update is not counted in
    /// [`SystemInfo::runs`]; its `last_dirty` and `last_duration` read zero.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let desc = SystemDesc::new("bar").requires::<u8>().on_changes();
    /// let id = world.add_system(desc, |_: &mut World, _: &SystemEntities| {});
    /// let e = world.spawn((3u8,));
    /// world.update(); // a new entity: runs
    /// world.update(); // nothing changed: skipped
    /// world.remove::<u8>(e);
    /// world.update(); // an entity stopped being tracked: runs
    /// assert_eq!(world.system_info(id).runs, 2);
    /// ```
    pub fn on_changes(mut self) -> Self {
        self.when = Some(RunWhen::Changes);
        self
    }

    /// Run on every update, even one with nothing changed: for a system with work of its own
    /// each update (counts time down, reads input, clears a per-update resource). The default
    /// for a system that watches nothing.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let nop = |_: &mut World, _: &SystemEntities| {};
    /// let watcher = world.add_system(SystemDesc::new("bar").watches::<u8>(), nop);
    /// let ticker = world.add_system(SystemDesc::new("regen").watches::<u8>().every_update(), nop);
    /// world.spawn((3u8,));
    /// world.update();
    /// world.update(); // nothing changed
    /// assert_eq!(world.system_info(watcher).runs, 1);
    /// assert_eq!(world.system_info(ticker).runs, 2);
    /// ```
    pub fn every_update(mut self) -> Self {
        self.when = Some(RunWhen::EveryUpdate);
        self
    }

    /// Run only in updates where events of type `E` were sent since it last ran (read them with
    /// an [`EventReader`](crate::EventReader)), whatever changed.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// struct Hit;
    /// let mut world = World::new();
    /// let desc = SystemDesc::new("damage").on_event::<Hit>();
    /// let id = world.add_system(desc, |_: &mut World, _: &SystemEntities| {});
    /// world.update(); // no event: skipped
    /// world.send(Hit);
    /// world.update();
    /// world.update(); // none since it ran: skipped
    /// assert_eq!(world.system_info(id).runs, 1);
    /// ```
    pub fn on_event<E: 'static>(mut self) -> Self {
        self.when = Some(RunWhen::Events(TypeId::of::<E>()));
        self
    }

    /// When the update runs this system.
    pub(crate) fn run_when(&self) -> RunWhen {
        let changes = !self.watches.is_empty();
        let default = if changes {
            RunWhen::Changes
        } else {
            RunWhen::EveryUpdate
        };
        self.when.unwrap_or(default)
    }
}

/// When an update runs a system ([`SystemDesc::on_changes`], [`SystemDesc::every_update`],
/// [`SystemDesc::on_event`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunWhen {
    Changes,
    EveryUpdate,
    Events(TypeId),
}

/// Handle to a system added with [`World::add_system`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId {
    world: WorldId,
    pub(crate) index: usize,
}

/// Snapshot of one system's scheduling state and last-run figures.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    /// Handle of the system.
    pub id: SystemId,
    /// Name given in its [`SystemDesc`].
    pub name: &'static str,
    /// Scheduling priority.
    pub priority: i32,
    /// Whether it runs in debug-only updates.
    pub debug: bool,
    /// Whether it runs at all.
    pub enabled: bool,
    /// Entities tracked now.
    pub tracked: usize,
    /// Dirty entities it received in the latest update (zero if that update did not run it).
    pub last_dirty: usize,
    /// Entities it tracked as that run began, of which the dirty ones are a subset (zero if
    /// the latest update did not run it). `tracked` may be lower by then: entities despawned
    /// later in the update.
    pub last_tracked: usize,
    /// Wall time of its run in the latest update (zero if that update did not run it).
    pub last_duration: Duration,
    /// Number of times it has run (not counting updates that skipped it for having nothing
    /// to react to; see [`SystemDesc::every_update`]).
    pub runs: u64,
}

/// A system plus the entity sets the world maintains for it.
pub(crate) struct SystemSlot {
    pub(crate) name: &'static str,
    pub(crate) priority: i32,
    pub(crate) debug: bool,
    /// `None` while the system is running (it is moved out to borrow the world).
    pub(crate) system: Option<Box<dyn System>>,
    pub(crate) required: ComponentSet,
    pub(crate) enabled: bool,
    /// What the system reads while it runs, boxed so that lending it moves one pointer.
    pub(crate) sets: Box<SystemSets>,
    /// Watched components.
    pub(crate) watches: Vec<ComponentId>,
    /// Its dirty entities not handed out yet (see the `delivery` module).
    pub(crate) dirty: DirtySet,
    /// The entities it started tracking since it last ran, not handed out yet.
    pub(crate) added: DirtySet,
    /// The watched columns whose change bits reached `dirty` since it last ran.
    pub(crate) columns_changed: ComponentSet,
    /// With [`RunWhen::Events`]: the queue's end when it last ran.
    pub(crate) events_seen: u64,
    /// Entities whose membership must be re-evaluated once the running system finishes.
    pub(crate) pending_membership: Vec<Entity>,
    /// While it runs: its tracked count (its sets are lent out).
    pub(crate) running: Option<usize>,
    /// The update ([`World`]'s count) that last ran it, and what that run received and took.
    pub(crate) ran_in: u64,
    pub(crate) last_dirty: usize,
    pub(crate) last_tracked: usize,
    pub(crate) last_duration: Duration,
    pub(crate) runs: u64,
}

impl SystemSlot {
    /// Bytes its entity sets allocate on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.sets.tracked.heap_bytes()
            + self.sets.removed.heap_bytes()
            + self.sets.delivered.capacity() * size_of::<Entity>()
            + self.dirty.heap_bytes()
            + self.added.heap_bytes()
            + self.sets.added.capacity() * size_of::<Entity>()
            + self.pending_membership.capacity() * size_of::<Entity>()
    }
}

/// The entity sets a system reads while it runs (lent out meanwhile).
#[derive(Debug, Default)]
pub(crate) struct SystemSets {
    pub(crate) tracked: EntitySet,
    pub(crate) removed: EntitySet,
    /// The dirty list of the run.
    pub(crate) delivered: Vec<Entity>,
    /// The added list of the run.
    pub(crate) added: Vec<Entity>,
}

impl World {
    /// Add a system. It tracks every existing entity that matches, all of them dirty (if it
    /// watches anything), so its first run sees the world as new.
    ///
    /// # Panics
    /// If called from inside a system's update or from [`System::on_clear`].
    pub fn add_system(&mut self, desc: SystemDesc, system: impl System) -> SystemId {
        assert!(
            self.phase == Phase::Idle,
            "World::add_system called during an update or a clear: add systems between updates"
        );
        let s = self.systems.len();
        let mut required = ComponentSet::EMPTY;
        for r in &desc.requires {
            let id = r(self);
            required.insert(id);
            self.requirers[id.index()].push(s);
        }
        let mut watches: Vec<ComponentId> = Vec::new();
        for w in &desc.watches {
            let id = w(self);
            if watches.contains(&id) {
                continue;
            }
            self.watchers[id.index()].push(s);
            self.watched.insert(id);
            // Bits set before now reach this system too, harmlessly: every entity it tracks is
            // new to it.
            self.columns[id.index()].watch();
            watches.push(id);
        }
        if required.is_empty() {
            self.requires_nothing.push(s);
        }
        let mut slot = SystemSlot {
            name: desc.name,
            priority: desc.priority,
            debug: desc.debug,
            system: Some(Box::new(system)),
            required,
            enabled: true,
            sets: Box::default(),
            watches,
            dirty: DirtySet::default(),
            added: DirtySet::default(),
            columns_changed: ComponentSet::EMPTY,
            events_seen: 0,
            pending_membership: Vec::new(),
            running: None,
            ran_in: 0,
            last_dirty: 0,
            last_tracked: 0,
            last_duration: Duration::ZERO,
            runs: 0,
        };
        for (entity, sig) in self.entities.iter() {
            if sig.is_superset(&slot.required) {
                slot.sets.tracked.insert(entity);
                slot.added.insert(entity.index());
                self.sets_pending = true;
                if !slot.watches.is_empty() {
                    slot.dirty.insert(entity.index());
                    self.sets_pending = true;
                }
            }
        }
        let (priority, mut watched) = (slot.priority, ComponentSet::EMPTY);
        slot.watches.iter().for_each(|&id| watched.insert(id));
        self.pending.push(!slot.added.is_empty());
        self.systems.push(slot);
        let at = self
            .order
            .partition_point(|&(o, ..)| self.systems[o].priority <= priority);
        self.order.insert(at, (s, desc.run_when(), watched));
        self.every_update += usize::from(desc.run_when() != RunWhen::Changes);
        SystemId {
            world: self.id,
            index: s,
        }
    }

    /// Enable or disable a system. A disabled system does not run but keeps collecting dirty
    /// entities (each at most once), and receives them all on its first run after re-enabling.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let id = world.add_system(SystemDesc::new("tick"), |_: &mut World, _: &SystemEntities| {});
    /// world.set_enabled(id, false);
    /// world.update();
    /// assert_eq!(world.system_info(id).runs, 0);
    /// ```
    pub fn set_enabled(&mut self, id: SystemId, enabled: bool) {
        self.slot(id);
        self.systems[id.index].enabled = enabled;
    }

    /// Whether a system is enabled.
    pub fn is_enabled(&self, id: SystemId) -> bool {
        self.slot(id).enabled
    }

    /// Figures for every system, in run order.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let nop = |_: &mut World, _: &SystemEntities| {};
    /// world.add_system(SystemDesc::new("late").priority(5), nop);
    /// world.add_system(SystemDesc::new("early"), nop);
    /// let names: Vec<&str> = world.systems().map(|s| s.name).collect();
    /// assert_eq!(names, ["early", "late"]);
    /// ```
    pub fn systems(&self) -> impl ExactSizeIterator<Item = SystemInfo> + '_ {
        self.order.iter().map(|&(s, ..)| {
            self.system_info(SystemId {
                world: self.id,
                index: s,
            })
        })
    }

    /// Figures for one system.
    ///
    /// # Panics
    /// If `id` belongs to another world.
    pub fn system_info(&self, id: SystemId) -> SystemInfo {
        let slot = self.slot(id);
        let ran = slot.ran_in == self.updates;
        SystemInfo {
            id,
            name: slot.name,
            priority: slot.priority,
            debug: slot.debug,
            enabled: slot.enabled,
            tracked: slot.running.unwrap_or(slot.sets.tracked.len()),
            last_dirty: if ran { slot.last_dirty } else { 0 },
            last_tracked: if ran { slot.last_tracked } else { 0 },
            last_duration: slot.last_duration * u32::from(ran),
            runs: slot.runs,
        }
    }

    fn slot(&self, id: SystemId) -> &SystemSlot {
        assert!(
            id.world == self.id,
            "{id:?} belongs to another world: a SystemId works with the World that returned it"
        );
        &self.systems[id.index]
    }

    /// Switch change tracking off to hand every system all of its tracked entities as dirty on
    /// every run (the baseline the optimization is measured against), or back on.
    pub fn set_change_tracking(&mut self, on: bool) {
        self.tracking_off = !on;
    }

    /// Whether change tracking is on (the default).
    pub fn change_tracking(&self) -> bool {
        !self.tracking_off
    }

    /// Time every system run ([`SystemInfo::last_duration`]), or stop (the default). The clock
    /// is read as the update starts and as each run ends, so a run's time includes skipping the
    /// systems before it. A reading costs more than an idle update; while off, it is zero.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Run every enabled system once, in priority order, then apply deferred despawns and
    /// clears.
    ///
    /// A panic in a system propagates out of `update` after the world has taken the system
    /// back and applied the deferred despawns and clears; the systems after it wait for the
    /// next `update`, and so do events for them (they are not aged).
    ///
    /// # Panics
    /// If called from inside a system's update or from [`System::on_clear`], with a message that
    /// says so; and if a system panics.
    pub fn update(&mut self) {
        self.run(false, None);
    }

    /// Like [`World::update`], calling `after` with the world and the system's name after each
    /// system in order, run or skipped (to see which system changed what). The deferred
    /// despawns and clears come after the last call.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let nop = |_: &mut World, _: &SystemEntities| {};
    /// world.add_system(SystemDesc::new("late").priority(2), nop);
    /// world.add_system(SystemDesc::new("early").priority(1), nop);
    /// let mut seen = Vec::new();
    /// world.update_observed(&mut |_, name| seen.push(name));
    /// assert_eq!(seen, ["early", "late"]);
    /// ```
    pub fn update_observed(&mut self, after: &mut dyn FnMut(&World, &'static str)) {
        self.run(false, Some(after));
    }

    /// Like [`World::update`], but run only enabled debug systems (e.g. while the game is
    /// paused); the other systems keep accumulating dirty entities.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let nop = |_: &mut World, _: &SystemEntities| {};
    /// let game = world.add_system(SystemDesc::new("game"), nop);
    /// let overlay = world.add_system(SystemDesc::new("overlay").debug(), nop);
    /// world.update_debug_only();
    /// assert_eq!(world.system_info(game).runs, 0);
    /// assert_eq!(world.system_info(overlay).runs, 1);
    /// ```
    pub fn update_debug_only(&mut self) {
        self.run(true, None);
    }

    fn run(&mut self, debug_only: bool, mut after: Option<&mut Observer<'_>>) {
        match self.phase {
            Phase::Idle => {}
            Phase::Updating(s) => panic!(
                "World::update called from inside system `{}`: an update cannot run inside \
                 another; send an event or set a resource for work that must wait for the next one",
                self.systems[s].name
            ),
            Phase::Clearing(s) => panic!(
                "World::update called from the on_clear of system `{}`: World::clear runs \
                 on_clear between updates; update after World::clear returns",
                self.systems[s].name
            ),
        }
        self.updates += 1;
        // Nothing pending anywhere: no reactive system has anything to react to, until a system
        // runs (it may write). Meanwhile the reactive ones are skipped without touching them.
        let changed = self.changed;
        for id in changed.iter() {
            if !self.watched.contains(id) || self.unchanged(id) {
                self.changed.remove(id);
            }
        }
        let mut quiet = !self.sets_pending && !self.tracking_off && self.changed.is_empty();
        let clock = self.clock.unwrap_or(instant_clock);
        let mut mark = self.timing.then(clock);
        // Only systems that run on changes and nothing to observe: one check skips them all.
        let skip_all = quiet && self.every_update == 0 && after.is_none();
        let mut failed = None;
        for k in 0..if skip_all { 0 } else { self.order.len() } {
            let (s, when, watched) = self.order[k];
            // Passed over without touching it: nothing pending anywhere, or nothing in its sets
            // or in the columns it watches, or no event for it.
            let reactive = when == RunWhen::Changes;
            let waits = reactive && !self.tracking_off;
            if quiet && reactive
                || waits && !self.pending[s] && !self.changed.intersects(&watched)
                || self.no_new_events(s, when)
            {
                // Nothing to take over or react to.
            } else if !self.systems[s].enabled || (debug_only && !self.systems[s].debug) {
                self.take_over(s);
            } else if waits && self.nothing_pending(s) {
                self.pending[s] = false;
            } else {
                failed = self.run_system(s, when, clock, &mut mark).err();
                if failed.is_some() {
                    break;
                }
                quiet = false;
            }
            if let Some(after) = after.as_mut() {
                let name = self.systems[s].name;
                failed = catch_unwind(AssertUnwindSafe(|| after(self, name))).err();
                if failed.is_some() {
                    break;
                }
            }
        }
        // Events age only when every system had its turn to read them.
        self.end_update(!debug_only && failed.is_none());
        if let Some(panic) = failed {
            resume_unwind(panic);
        }
    }

    /// Whether system `s` runs on events and none came since it last ran.
    fn no_new_events(&self, s: usize, when: RunWhen) -> bool {
        let RunWhen::Events(t) = when else {
            return false;
        };
        let end = self.events.get(&t).map_or(0, |queue| queue.end());
        end <= self.systems[s].events_seen
    }

    /// Whether system `s` has no dirty, added or removed entity and no watched column a
    /// change bit.
    #[inline]
    fn nothing_pending(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.dirty.is_empty()
            && slot.added.is_empty()
            && slot.sets.removed.is_empty()
            && slot.watches.iter().all(|&id| self.unchanged(id))
    }

    /// Whether column `id` has no change bit.
    #[inline]
    fn unchanged(&self, id: ComponentId) -> bool {
        let changes = self.columns[id.index()].changes();
        changes.is_none_or(|c| c.is_empty())
    }

    /// Move the change bits of the columns system `s` watches into the dirty bits of every
    /// system watching them.
    fn take_over(&mut self, s: usize) {
        for k in 0..self.systems[s].watches.len() {
            let id = self.systems[s].watches[k];
            let (systems, watchers) = (&mut self.systems, &self.watchers[id.index()]);
            if let Some(changes) = self.columns[id.index()].changes_mut()
                && !changes.is_empty()
            {
                self.sets_pending = true;
                changes.drain_words(|w, bits| {
                    for &t in watchers {
                        systems[t].dirty.insert_word(w, bits);
                        systems[t].columns_changed.insert(id);
                        self.pending[t] = true;
                    }
                });
            }
            self.changed.remove(id);
        }
        self.sets_pending |= !self.systems[s].dirty.is_empty();
    }

    /// Run system `s`, returning its panic if it panicked; `mark` is the last clock reading of
    /// the update (`None`: not timed).
    fn run_system(
        &mut self,
        s: usize,
        when: RunWhen,
        clock: Clock,
        mark: &mut Option<Duration>,
    ) -> std::thread::Result<()> {
        let placeholder = self.placeholder.take().unwrap_or_default();
        self.take_over(s);
        let slot = &mut self.systems[s];
        let mut system = slot.system.take().expect("out only while it runs");
        let mut sets = std::mem::replace(&mut slot.sets, placeholder);
        slot.running = Some(sets.tracked.len());
        let SystemSets {
            tracked,
            removed,
            delivered,
            added: added_list,
        } = &mut *sets;
        if !slot.watches.is_empty() && self.tracking_off {
            for e in tracked.as_slice() {
                slot.dirty.insert(e.index());
            }
            slot.watches
                .iter()
                .for_each(|&id| slot.columns_changed.insert(id));
        }
        let columns_changed = std::mem::take(&mut slot.columns_changed);
        let dirty = deliver(&mut slot.dirty, tracked, delivered);
        let added = deliver(&mut slot.added, tracked, added_list);
        if let RunWhen::Events(t) = when {
            slot.events_seen = self.events.get(&t).map_or(0, |queue| queue.end());
        }
        let reactive = when == RunWhen::Changes;
        let skip = reactive && dirty.is_empty() && added.is_empty() && removed.is_empty();
        let (last_dirty, last_tracked) = (dirty.len(), tracked.len());
        self.phase = Phase::Updating(s);
        let outcome = if skip {
            Ok(())
        } else {
            let entities = SystemEntities {
                tracked: tracked.as_slice(),
                dirty,
                added,
                removed: removed.as_slice(),
                columns_changed,
            };
            catch_unwind(AssertUnwindSafe(|| system.update(self, &entities)))
        };
        self.phase = Phase::Idle;
        empty(delivered);
        empty(added_list);
        removed.clear();
        self.pending[s] = false;

        let slot = &mut self.systems[s];
        slot.system = Some(system);
        slot.running = None;
        self.placeholder = Some(std::mem::replace(&mut slot.sets, sets));
        slot.ran_in = self.updates;
        slot.last_dirty = last_dirty;
        slot.last_tracked = last_tracked;
        slot.runs += u64::from(!skip);
        let mut pending = std::mem::take(&mut slot.pending_membership);
        for entity in pending.drain(..) {
            self.refresh_membership(s, entity);
        }
        let slot = &mut self.systems[s];
        slot.pending_membership = pending;
        slot.last_duration = mark.as_mut().map_or(Duration::ZERO, |before| {
            let now = clock();
            now.saturating_sub(std::mem::replace(before, now))
        });
        outcome
    }
}

/// The entities of `tracked` whose bits are set in `bits`, in slot order, clearing the bits:
/// the tracked list itself when every member's bit is set and positions follow slots, else
/// drained into `out`.
fn deliver<'s>(
    bits: &mut DirtySet,
    tracked: &'s EntitySet,
    out: &'s mut Vec<Entity>,
) -> &'s [Entity] {
    let whole = tracked.slot_range().is_some_and(|slots| bits.covers(slots));
    if whole {
        bits.clear();
        tracked.as_slice()
    } else {
        bits.drain_into(tracked, out);
        out.as_slice()
    }
}

//! Systems: the `System` trait, how one is described (`SystemDesc`), what it receives each
//! update (`SystemEntities`), what the world reports about it, and the update loop that runs them.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

use crate::column::Column;
use crate::component::{Component, ComponentId, ComponentSet};
use crate::delivery::{DirtySet, empty};
use crate::entity_set::EntitySet;
use crate::world::Phase;
use crate::{Entity, World};

/// A time source for system timings ([`World::set_clock`]): the time since any fixed point.
pub type Clock = fn() -> Duration;

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
/// struct Room;
/// impl System for Room {
///     fn update(&mut self, _: &mut World, _: &SystemEntities<'_>) {}
///     fn on_clear(&mut self, world: &mut World) { world.spawn((1u8,)); } // a fresh room
/// }
/// let mut w = World::new(); w.add_system(SystemDesc::new("room"), Room);
/// w.spawn((3u8,)); w.clear(); assert_eq!(w.len(), 1, "on_clear spawned one");
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

/// What a system receives each update: the entities it tracks, the dirty subset and the removed
/// ones, as the run started: entities spawned, despawned or changed during the run reach the
/// system on its next run, and `tracked()`, `dirty()` and `dirty_in()` agree throughout.
///
/// ```
/// # use ecs::{SystemDesc, SystemEntities, World}; let mut w = World::new();
/// w.add_system(SystemDesc::new("s").requires::<u8>(), |_: &mut World, e: &SystemEntities| assert_eq!(e.tracked().len(), 1));
/// w.spawn((1u8,)); w.update();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SystemEntities<'a> {
    tracked: &'a [Entity],
    dirty: &'a [Entity],
    removed: &'a [Entity],
}

impl<'a> SystemEntities<'a> {
    /// Every entity that has all the required components (in no particular order).
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// w.add_system(D::new("s").requires::<u8>(), |_: &mut World, e: &S| assert_eq!(e.tracked().len(), 1));
    /// w.spawn((1u8,)); w.spawn(()); w.update();
    /// ```
    #[inline]
    pub fn tracked(&self) -> &'a [Entity] {
        self.tracked
    }

    /// Tracked entities for which a watched component changed, was added or was removed since
    /// this system last ran, plus entities that started being tracked since then: each once, in
    /// slot order ([`Entity::index`], ascending).
    ///
    /// Empty for systems that watch nothing. When change tracking is switched off
    /// ([`World::set_change_tracking`]) this is every tracked entity, in the same order.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// # w.insert_resource(Vec::<ecs::Entity>::new());
    /// w.add_system(D::new("s").watches::<u8>(), |w: &mut World, e: &S| *w.resource_mut() = e.dirty().to_vec());
    /// let es: Vec<_> = (0..4).map(|i| w.spawn((i as u8,))).collect(); w.update();
    /// es.iter().rev().for_each(|&e| *w.get_mut::<u8>(e).unwrap() += 1); w.update();
    /// assert_eq!(*w.resource::<Vec<ecs::Entity>>(), es, "slot order, not change order");
    /// ```
    #[inline]
    pub fn dirty(&self) -> &'a [Entity] {
        self.dirty
    }

    /// The dirty entities that have a component in `column`, each with that component: the
    /// pairs of `dirty()` looked up in `column`, in the same order. It costs what the loop
    /// `for &e in entities.dirty()` with `column.get(e)` costs, since it is that loop. Writes the
    /// system made to the column before the call are seen.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// # w.insert_resource(0u32);
    /// w.add_system(D::new("hp").watches::<u32>(), |w: &mut World, e: &S| {
    ///     *w.resource_mut::<u32>() = e.dirty_in(w.column::<u32>()).map(|(_, hp)| hp).sum();
    /// });
    /// let a = w.spawn((3u32,)); w.spawn((4u32,)); w.update();
    /// assert_eq!(*w.resource::<u32>(), 7, "both new");
    /// *w.get_mut::<u32>(a).unwrap() = 10; w.update();
    /// assert_eq!(*w.resource::<u32>(), 10, "only the one that changed");
    /// ```
    pub fn dirty_in<'c, T: 'static>(
        &self,
        column: &'c Column<T>,
    ) -> impl Iterator<Item = (Entity, &'c T)> + use<'a, 'c, T> {
        self.dirty
            .iter()
            .filter_map(move |&e| column.get(e).map(|v| (e, v)))
    }

    /// Entities that stopped being tracked since this system last ran: despawned, cleared, or
    /// lost a required component. Handles may be stale; use them as keys, not to read
    /// components. Delivered whether or not change tracking is on, so a system that keeps
    /// per-entity state (an index, a cache) can drop it. Holds at most one handle per slot (the
    /// newest), so key such state by [`Entity::index`] when slots may be reused in between.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// # w.insert_resource(Vec::<ecs::Entity>::new());
    /// w.add_system(D::new("s").requires::<u8>(), |w: &mut World, e: &S| w.resource_mut::<Vec<ecs::Entity>>().extend(e.removed()));
    /// let a = w.spawn((1u8,)); w.update(); w.despawn(a); w.update();
    /// assert_eq!(*w.resource::<Vec<ecs::Entity>>(), [a]);
    /// ```
    #[inline]
    pub fn removed(&self) -> &'a [Entity] {
        self.removed
    }
}

/// How a system is scheduled and what it tracks: its name, priority, required and watched
/// components, and whether it is a debug system.
///
/// ```
/// # let mut w = ecs::World::new(); let desc = ecs::SystemDesc::new("draw_data").watches::<u8>();
/// let id = w.add_system(desc, |_: &mut ecs::World, _: &ecs::SystemEntities| {}); assert_eq!(w.system_info(id).name, "draw_data");
/// ```
#[derive(Clone, Debug)]
pub struct SystemDesc {
    pub(crate) name: &'static str,
    pub(crate) priority: i32,
    pub(crate) debug: bool,
    /// `Some(true)`: only on changes ([`SystemDesc::reactive`]); `Some(false)`: every update
    /// ([`SystemDesc::every_update`]); `None`: on changes if it watches something.
    pub(crate) reactive: Option<bool>,
    /// Registers a component type with a world (on `add_system`) and returns its id.
    pub(crate) requires: Vec<fn(&mut World) -> ComponentId>,
    pub(crate) watches: Vec<fn(&mut World) -> ComponentId>,
}

impl SystemDesc {
    /// Describe a system called `name`, priority 0, requiring and watching nothing. Once it
    /// watches a component, it is called only when it has something to react to, unless
    /// [`every_update`](SystemDesc::every_update).
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let id = w.add_system(ecs::SystemDesc::new("s"), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
    /// assert_eq!((w.system_info(id).name, w.system_info(id).priority), ("s", 0));
    /// ```
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            priority: 0,
            debug: false,
            reactive: None,
            requires: Vec::new(),
            watches: Vec::new(),
        }
    }

    /// Lower priorities run first; equal priorities run in the order systems were added.
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let id = w.add_system(ecs::SystemDesc::new("s").priority(-4), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
    /// assert_eq!(w.system_info(id).priority, -4);
    /// ```
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// Track only entities that have a `T` (on top of the other requirements).
    ///
    /// ```
    /// # let mut w = ecs::World::new(); w.spawn((1u8,)); w.spawn((2u16,));
    /// let id = w.add_system(ecs::SystemDesc::new("s").requires::<u8>(), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
    /// assert_eq!(w.system_info(id).tracked, 1);
    /// ```
    pub fn requires<T: Component>(mut self) -> Self {
        self.requires.push(World::register::<T>);
        self
    }

    /// Make a tracked entity dirty when its `T` changes, is added or is removed.
    ///
    /// ```
    /// # let mut w = ecs::World::new(); let e = w.spawn((1u8,));
    /// let id = w.add_system(ecs::SystemDesc::new("s").watches::<u8>(), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
    /// w.update(); *w.get_mut::<u8>(e).unwrap() = 2; w.update(); assert_eq!(w.system_info(id).last_dirty, 1);
    /// ```
    pub fn watches<T: Component>(mut self) -> Self {
        self.watches.push(World::register::<T>);
        self
    }

    /// Mark as a debug system: it also runs in [`World::update_debug_only`] (e.g. while paused).
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let id = w.add_system(ecs::SystemDesc::new("s").debug(), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
    /// assert!(w.system_info(id).debug);
    /// ```
    pub fn debug(mut self) -> Self {
        self.debug = true;
        self
    }

    /// Run only when [`SystemEntities::dirty`] or [`SystemEntities::removed`] would not be
    /// empty: the default for a system that watches something, and for one that watches nothing
    /// it means "when an entity stopped being tracked". A skipped update is not counted in
    /// [`SystemInfo::runs`]; its `last_dirty` and `last_duration` read zero.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let id = w.add_system(D::new("bar").watches::<u8>().reactive(), |_: &mut World, _: &S| {});
    /// let e = w.spawn((3u8,)); w.update(); w.update(); // new entity: runs; nothing changed: skipped
    /// assert_eq!(w.system_info(id).runs, 1);
    /// *w.get_mut::<u8>(e).unwrap() = 2; w.update(); assert_eq!(w.system_info(id).runs, 2);
    /// ```
    pub fn reactive(mut self) -> Self {
        self.reactive = Some(true);
        self
    }

    /// Run on every update, even one with nothing dirty and nothing removed: for a system
    /// that watches components but also has work of its own each update (reads input or
    /// events, counts time, clears a per-update resource). Systems that watch nothing run on
    /// every update anyway, unless [`reactive`](SystemDesc::reactive).
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let watcher = w.add_system(D::new("bar").watches::<u8>(), |_: &mut World, _: &S| {});
    /// let ticker = w.add_system(D::new("regen").watches::<u8>().every_update(), |_: &mut World, _: &S| {});
    /// w.spawn((3u8,)); w.update(); w.update(); // nothing changed
    /// assert_eq!((w.system_info(watcher).runs, w.system_info(ticker).runs), (1, 2));
    /// ```
    pub fn every_update(mut self) -> Self {
        self.reactive = Some(false);
        self
    }

    /// Whether the update skips this system when it has nothing dirty and nothing removed.
    pub(crate) fn is_reactive(&self) -> bool {
        self.reactive.unwrap_or(!self.watches.is_empty())
    }
}

/// Handle to a system added with [`World::add_system`].
///
/// ```
/// # let mut w = ecs::World::new(); let s = |_: &mut ecs::World, _: &ecs::SystemEntities| {};
/// let (a, b) = (w.add_system(ecs::SystemDesc::new("a"), s), w.add_system(ecs::SystemDesc::new("b"), s)); assert_ne!(a, b);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId(pub(crate) usize);

/// Snapshot of one system's scheduling state and last-run figures.
///
/// ```
/// # let mut w = ecs::World::new();
/// let id = w.add_system(ecs::SystemDesc::new("s"), |_: &mut ecs::World, _: &ecs::SystemEntities| {});
/// w.update(); assert_eq!((w.system_info(id).runs, w.system_info(id).enabled), (1, true));
/// ```
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
}

impl World {
    /// Add a system. It tracks every existing entity that matches, all of them dirty (if it
    /// watches anything), so its first run sees the world as new.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let id = w.add_system(D::new("tick"), |_: &mut World, _: &S| {}); w.update(); assert_eq!(w.system_info(id).runs, 1);
    /// ```
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
                if !slot.watches.is_empty() {
                    slot.dirty.insert(entity.index());
                    self.sets_pending = true;
                }
            }
        }
        let (priority, mut watched) = (slot.priority, ComponentSet::EMPTY);
        slot.watches.iter().for_each(|&id| watched.insert(id));
        self.pending.push(!slot.dirty.is_empty());
        self.systems.push(slot);
        let at = self
            .order
            .partition_point(|&(o, ..)| self.systems[o].priority <= priority);
        self.order.insert(at, (s, desc.is_reactive(), watched));
        self.every_update += usize::from(!desc.is_reactive());
        SystemId(s)
    }

    /// Enable or disable a system. A disabled system does not run but keeps collecting dirty
    /// entities (each at most once), and receives them all on its first run after re-enabling.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let id = w.add_system(D::new("tick"), |_: &mut World, _: &S| {}); w.set_enabled(id, false);
    /// w.update(); assert_eq!(w.system_info(id).runs, 0);
    /// ```
    pub fn set_enabled(&mut self, id: SystemId, enabled: bool) {
        self.slot(id);
        self.systems[id.0].enabled = enabled;
    }

    /// Whether a system is enabled.
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let id = w.add_system(ecs::SystemDesc::new("s"), |_: &mut ecs::World, _: &ecs::SystemEntities| {}); assert!(w.is_enabled(id));
    /// ```
    pub fn is_enabled(&self, id: SystemId) -> bool {
        self.slot(id).enabled
    }

    /// Figures for every system, in run order.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// w.add_system(D::new("late").priority(5), |_: &mut World, _: &S| {}); w.add_system(D::new("early"), |_: &mut World, _: &S| {});
    /// assert_eq!(w.systems().map(|s| s.name).collect::<Vec<_>>(), ["early", "late"]);
    /// ```
    pub fn systems(&self) -> impl ExactSizeIterator<Item = SystemInfo> + '_ {
        self.order
            .iter()
            .map(|&(s, ..)| self.system_info(SystemId(s)))
    }

    /// Figures for one system.
    ///
    /// # Panics
    /// If `id` belongs to another world.
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let id = w.add_system(ecs::SystemDesc::new("s"), |_: &mut ecs::World, _: &ecs::SystemEntities| {}); assert_eq!(w.system_info(id).id, id);
    /// ```
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
        self.systems
            .get(id.0)
            .unwrap_or_else(|| panic!("{id:?} does not belong to this world"))
    }

    /// Switch change tracking off to hand every system all of its tracked entities as dirty on
    /// every run (the baseline the optimization is measured against), or back on.
    ///
    /// ```
    /// let mut w = ecs::World::new(); w.set_change_tracking(false); assert!(!w.change_tracking());
    /// ```
    pub fn set_change_tracking(&mut self, on: bool) {
        self.tracking_off = !on;
    }

    /// Whether change tracking is on (the default).
    ///
    /// ```
    /// assert!(ecs::World::new().change_tracking());
    /// ```
    pub fn change_tracking(&self) -> bool {
        !self.tracking_off
    }

    /// Time every system run ([`SystemInfo::last_duration`]), or stop (the default). The clock
    /// is read as the update starts and as each run ends, so a run's time includes skipping the
    /// systems before it. A reading costs more than an idle update; while off, it is zero.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let id = w.add_system(D::new("s"), |_: &mut World, _: &S| {}); w.update();
    /// assert_eq!(w.system_info(id).last_duration, std::time::Duration::ZERO, "off by default");
    /// ```
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Time system runs with `clock` instead of `std::time::Instant`, which panics where the
    /// platform has no clock of its own (a browser page, whose host has one).
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; use std::time::Duration;
    /// # use std::sync::atomic::{AtomicU64, Ordering::Relaxed}; let mut w = World::new();
    /// static MICROS: AtomicU64 = AtomicU64::new(0); // 5 µs pass between two readings
    /// w.set_clock(|| Duration::from_micros(MICROS.fetch_add(5, Relaxed)));
    /// let id = w.add_system(D::new("s"), |_: &mut World, _: &S| {}); w.set_timing(true); w.update();
    /// assert_eq!(w.system_info(id).last_duration, Duration::from_micros(5));
    /// ```
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = Some(clock);
    }

    /// Run every enabled system once, in priority order, then apply deferred despawns and
    /// clears.
    ///
    /// A panic in a system propagates out of `update` after the world has taken the system
    /// back, so the next `update` runs normally (the systems after the one that panicked wait
    /// for it).
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let id = w.add_system(D::new("tick"), |_: &mut World, _: &S| {}); w.update(); w.update(); assert_eq!(w.system_info(id).runs, 2);
    /// ```
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
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// w.add_system(D::new("late").priority(2), |_: &mut World, _: &S| {}); w.add_system(D::new("early").priority(1), |_: &mut World, _: &S| {});
    /// let mut seen = Vec::new(); w.update_observed(&mut |_, name| seen.push(name)); assert_eq!(seen, ["early", "late"]);
    /// ```
    pub fn update_observed(&mut self, after: &mut dyn FnMut(&World, &'static str)) {
        self.run(false, Some(after));
    }

    /// Like [`World::update`], but run only enabled debug systems (e.g. while the game is
    /// paused); the other systems keep accumulating dirty entities.
    ///
    /// ```
    /// # use ecs::{SystemDesc as D, SystemEntities as S, World}; let mut w = World::new();
    /// let game = w.add_system(D::new("game"), |_: &mut World, _: &S| {}); let overlay = w.add_system(D::new("overlay").debug(), |_: &mut World, _: &S| {});
    /// w.update_debug_only(); assert_eq!((w.system_info(game).runs, w.system_info(overlay).runs), (0, 1));
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
        // Only reactive systems and nothing to observe: one check skips them all.
        let skip_all = quiet && self.every_update == 0 && after.is_none();
        for k in 0..if skip_all { 0 } else { self.order.len() } {
            let (s, reactive, watched) = self.order[k];
            // Passed over without touching it: nothing pending anywhere, or nothing in its sets
            // or in the columns it watches.
            let waits = reactive && !self.tracking_off;
            if quiet && reactive || waits && !self.pending[s] && !self.changed.intersects(&watched)
            {
                // Nothing to take over or react to.
            } else if !self.systems[s].enabled || (debug_only && !self.systems[s].debug) {
                self.take_over(s);
            } else if waits && self.nothing_pending(s) {
                self.pending[s] = false;
            } else {
                self.run_system(s, reactive, clock, &mut mark);
                quiet = false;
            }
            if let Some(after) = after.as_mut() {
                after(self, self.systems[s].name);
            }
        }
        for entity in std::mem::take(&mut self.pending_despawns) {
            self.despawn_now(entity);
        }
        let events = &mut self.events;
        self.queued_events.retain(|id| {
            let queue = events.get_mut(id).expect("a queued type has a queue");
            queue.end_update();
            !queue.is_empty()
        });
        if std::mem::take(&mut self.pending_clear) {
            self.clear_now();
        }
        if self.sets_pending {
            self.sets_pending = self.pending.contains(&true);
        }
    }

    /// Whether system `s` has no dirty or removed entity and no watched column a change bit.
    #[inline]
    fn nothing_pending(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.dirty.is_empty()
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
                        self.pending[t] = true;
                    }
                });
            }
            self.changed.remove(id);
        }
        self.sets_pending |= !self.systems[s].dirty.is_empty();
    }

    /// Run system `s`; `mark` is the last clock reading of the update (`None`: not timed).
    fn run_system(&mut self, s: usize, reactive: bool, clock: Clock, mark: &mut Option<Duration>) {
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
        } = &mut *sets;
        if !slot.watches.is_empty() && self.tracking_off {
            for e in tracked.as_slice() {
                slot.dirty.insert(e.index());
            }
        }
        // Every tracked entity dirty, and positions follow slots: the tracked list is the
        // delivery.
        let whole = tracked
            .slot_range()
            .is_some_and(|slots| slot.dirty.covers(slots));
        let dirty = if whole {
            slot.dirty.clear();
            tracked.as_slice()
        } else {
            slot.dirty.drain_into(tracked, delivered);
            delivered.as_slice()
        };
        let skip = reactive && dirty.is_empty() && removed.is_empty();
        let (last_dirty, last_tracked) = (dirty.len(), tracked.len());
        self.phase = Phase::Updating(s);
        let outcome = if skip {
            Ok(())
        } else {
            let entities = SystemEntities {
                tracked: tracked.as_slice(),
                dirty,
                removed: removed.as_slice(),
            };
            catch_unwind(AssertUnwindSafe(|| system.update(self, &entities)))
        };
        self.phase = Phase::Idle;
        empty(delivered);
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
        if let Err(panic) = outcome {
            resume_unwind(panic);
        }
    }
}

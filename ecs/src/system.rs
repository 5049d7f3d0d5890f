//! Systems: the logic that runs each update, and how each one declares what it tracks.

use std::time::Duration;

use crate::component::{Component, ComponentRef};
use crate::entity_set::{ClearableSet, EntitySet};
use crate::{Entity, World};

/// Game logic run once per [`World::update`], in priority order.
///
/// A system sees the world only through `&mut World`: components, resources and events. Systems
/// never call each other; that is the one rule for how they communicate (see the crate docs).
///
/// Closures `FnMut(&mut World, &SystemEntities)` are systems too.
pub trait System: 'static {
    /// Run one update. `entities` holds the tracked entities and the dirty subset.
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>);

    /// React to [`World::clear`], after every entity is gone (e.g. rebuild a pool of entities).
    fn on_clear(&mut self, world: &mut World) {
        let _ = world;
    }
}

impl<F> System for F
where
    F: FnMut(&mut World, &SystemEntities<'_>) + 'static,
{
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        self(world, entities)
    }
}

/// What a system receives each update: the entities it tracks and the dirty subset.
#[derive(Clone, Copy, Debug)]
pub struct SystemEntities<'a> {
    pub(crate) tracked: &'a [Entity],
    pub(crate) dirty: &'a [Entity],
    pub(crate) removed: &'a [Entity],
}

impl<'a> SystemEntities<'a> {
    /// Every entity that has all the required components (in no particular order).
    #[inline]
    pub fn tracked(&self) -> &'a [Entity] {
        self.tracked
    }

    /// Tracked entities for which a watched component changed, was added or was removed since
    /// this system last ran, plus entities that started being tracked since then.
    ///
    /// Each entity appears at most once. Empty for systems that watch nothing. When change
    /// tracking is switched off ([`World::set_change_tracking`]) this is every tracked entity.
    #[inline]
    pub fn dirty(&self) -> &'a [Entity] {
        self.dirty
    }

    /// Entities that stopped being tracked since this system last ran: despawned, cleared, or
    /// lost a required component. Handles may be stale; use them as keys, not to read
    /// components. Delivered whether or not change tracking is on, so a system that keeps
    /// per-entity state (an index, a cache) can drop it. Holds at most one handle per slot (the
    /// newest), so key such state by [`Entity::index`] when slots may be reused in between.
    #[inline]
    pub fn removed(&self) -> &'a [Entity] {
        self.removed
    }
}

/// Handle to a system added with [`World::add_system`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId(pub(crate) usize);

/// How a system is scheduled and what it tracks: its name, priority, required and watched
/// components, and whether it is a debug system.
///
/// ```
/// use ecs::SystemDesc;
/// # struct Position; struct Sprite; struct Dead;
/// let desc = SystemDesc::new("draw_data")
///     .priority(90)
///     .requires::<Position>()
///     .requires::<Sprite>()
///     .watches::<Position>()
///     .watches::<Dead>(); // watched need not be required
/// ```
#[derive(Clone, Debug)]
pub struct SystemDesc {
    pub(crate) name: &'static str,
    pub(crate) priority: i32,
    pub(crate) debug: bool,
    pub(crate) runs_when: RunsWhen,
    pub(crate) requires: Vec<ComponentRef>,
    pub(crate) watches: Vec<ComponentRef>,
}

impl SystemDesc {
    /// Describe a system called `name`, priority 0, requiring and watching nothing. Once it
    /// watches a component, it is called only when it has something to react to, unless
    /// [`every_update`](SystemDesc::every_update).
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            priority: 0,
            debug: false,
            runs_when: RunsWhen::Default,
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
        self.requires.push(ComponentRef::of::<T>());
        self
    }

    /// Make a tracked entity dirty when its `T` changes, is added or is removed.
    pub fn watches<T: Component>(mut self) -> Self {
        self.watches.push(ComponentRef::of::<T>());
        self
    }

    /// Mark as a debug system: it also runs in [`World::update_debug_only`] (e.g. while paused).
    pub fn debug(mut self) -> Self {
        self.debug = true;
        self
    }

    /// Run only when there is something to react to: when [`SystemEntities::dirty`] or
    /// [`SystemEntities::removed`] would not be empty. This is already the default for a
    /// system that watches something; `reactive` extends it to one that watches nothing (it
    /// then runs when an entity stopped being tracked). For systems whose whole work is their
    /// dirty and removed entities (an index, a cache, derived data). An update where nothing
    /// changed skips the system without calling it; a skipped run leaves
    /// [`SystemInfo::runs`] as it is and reports zero `last_dirty` and `last_duration`.
    ///
    /// ```
    /// use ecs::{SystemDesc, World};
    ///
    /// struct Hp(u32);
    /// let mut world = World::new();
    /// let id = world.add_system(
    ///     SystemDesc::new("hp_bar").requires::<Hp>().watches::<Hp>().reactive(),
    ///     |_: &mut World, _: &ecs::SystemEntities| {},
    /// );
    /// let e = world.spawn((Hp(3),));
    /// world.update(); // new entity: runs
    /// world.update(); // nothing changed: skipped
    /// assert_eq!(world.system_info(id).runs, 1);
    /// world.get_mut::<Hp>(e).unwrap().0 = 2;
    /// world.update();
    /// assert_eq!(world.system_info(id).runs, 2);
    /// ```
    pub fn reactive(mut self) -> Self {
        self.runs_when = RunsWhen::Changed;
        self
    }

    /// Run on every update, even one with nothing dirty and nothing removed: for a system
    /// that watches components but also has work of its own each update (reads input or
    /// events, counts time, clears a per-update resource). Systems that watch nothing run on
    /// every update anyway, unless [`reactive`](SystemDesc::reactive).
    ///
    /// ```
    /// use ecs::{SystemDesc, World};
    ///
    /// struct Hp(u32);
    /// let mut world = World::new();
    /// let watcher = world.add_system(
    ///     SystemDesc::new("hp_bar").requires::<Hp>().watches::<Hp>(),
    ///     |_: &mut World, _: &ecs::SystemEntities| {},
    /// );
    /// let ticker = world.add_system(
    ///     SystemDesc::new("hp_regen").requires::<Hp>().watches::<Hp>().every_update(),
    ///     |_: &mut World, _: &ecs::SystemEntities| {},
    /// );
    /// world.spawn((Hp(3),));
    /// world.update();
    /// world.update(); // nothing changed
    /// assert_eq!(world.system_info(watcher).runs, 1, "a watcher runs on changes");
    /// assert_eq!(world.system_info(ticker).runs, 2);
    /// ```
    pub fn every_update(mut self) -> Self {
        self.runs_when = RunsWhen::EveryUpdate;
        self
    }

    /// Whether the update skips this system when it has nothing dirty and nothing removed.
    pub(crate) fn is_reactive(&self) -> bool {
        match self.runs_when {
            RunsWhen::Default => !self.watches.is_empty(),
            RunsWhen::Changed => true,
            RunsWhen::EveryUpdate => false,
        }
    }
}

/// When a system runs: see [`SystemDesc::reactive`] and [`SystemDesc::every_update`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunsWhen {
    /// On changes if it watches something, else on every update.
    Default,
    /// Only when it has dirty or removed entities.
    Changed,
    /// On every update.
    EveryUpdate,
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
    /// Dirty entities it received on its last run.
    pub last_dirty: usize,
    /// Wall time of its last run.
    pub last_duration: Duration,
    /// Number of times it has run (not counting updates that skipped it for having nothing
    /// to react to; see [`SystemDesc::every_update`]).
    pub runs: u64,
}

/// A system plus the entity sets the world maintains for it.
pub(crate) struct SystemSlot {
    pub(crate) desc: SystemDesc,
    /// `None` while the system is running (it is moved out to borrow the world).
    pub(crate) system: Option<Box<dyn System>>,
    pub(crate) required: crate::component::ComponentSet,
    /// The one component the system requires, if it requires exactly one: then it tracks
    /// exactly the entities of that component's column.
    pub(crate) required_only: Option<crate::component::ComponentId>,
    pub(crate) watches_any: bool,
    /// Skipped by an update in which it has nothing dirty and nothing removed.
    pub(crate) reactive: bool,
    pub(crate) enabled: bool,
    /// What the system reads while it runs, boxed so that running it moves one pointer out
    /// (to lend the sets while the system borrows the world) and back. While it runs, an empty
    /// placeholder stands in.
    pub(crate) sets: Box<SystemSets>,
    /// Watched components and, for each, how far into its change log this system has read.
    pub(crate) watches: Vec<Watch>,
    /// Dirty entities that do not come from a change log: newly tracked ones, and log entries
    /// taken over while the system did not run (disabled, or a debug-only update).
    pub(crate) dirty: ClearableSet,
    /// Entities whose membership must be re-evaluated once the running system finishes.
    pub(crate) pending_membership: Vec<Entity>,
    /// Whether it is running; then `sets` is the placeholder and this is its tracked count.
    pub(crate) running: Option<usize>,
    pub(crate) last_dirty: usize,
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

/// Where a world's heap bytes go, by capacity (what is allocated, used or not):
/// [`World::memory_use`].
#[derive(Clone, Debug, Default)]
pub struct MemoryUse {
    /// The entity allocator: a slot (generation, liveness, component signature) per index.
    pub entities: usize,
    /// Per component type (its name): its column's entity index and values.
    pub columns: Vec<(&'static str, usize)>,
    /// Per watched component type (its name): its change log and the bit set that dedupes it.
    pub change_logs: Vec<(&'static str, usize)>,
    /// Per system (its name): its tracked, dirty, removed and delivered sets.
    pub systems: Vec<(&'static str, usize)>,
    /// The buffers deliveries use (a bit set and the sort's buffers).
    pub delivery: usize,
}

impl MemoryUse {
    /// Everything above, added up.
    pub fn total(&self) -> usize {
        let sum = |v: &[(&'static str, usize)]| v.iter().map(|(_, b)| b).sum::<usize>();
        self.entities
            + sum(&self.columns)
            + sum(&self.change_logs)
            + sum(&self.systems)
            + self.delivery
    }
}

/// One watched component of a system and its cursor into that component's change log.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) id: crate::ComponentId,
    /// Entries before this position were delivered to (or taken over by) the system.
    pub(crate) cursor: usize,
}

/// The entity sets a system reads while it runs.
#[derive(Debug, Default)]
pub(crate) struct SystemSets {
    pub(crate) tracked: EntitySet,
    pub(crate) removed: ClearableSet,
    /// What the last delivery handed out, when it was not a lent log range.
    pub(crate) delivered: Vec<Entity>,
}

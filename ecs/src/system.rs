//! Systems: the `System` trait, how one is described (`SystemDesc`), what it receives each
//! update (`SystemEntities`) and what the world reports about it (`SystemInfo`).

use std::any::TypeId;
use std::time::Duration;

use crate::component::{Component, ComponentId, ComponentSet};
use crate::query::{Query, QueryData};
use crate::world::{RunWhen, WorldId};
use crate::{Entity, World};

/// Game logic run once per [`World::update`], in priority order. It sees the world only
/// through `&mut World`; systems never call each other (see the crate docs). Closures
/// `FnMut(&mut World, &SystemEntities)` are systems too.
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
    /// Run one update over `entities`.
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>);

    /// React to [`World::clear`], after every entity is gone: it may spawn, despawn and clear
    /// again (that clear follows this one); [`World::update`] is refused.
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

/// What a system receives each update, as its run began: the entities it tracks, the changed
/// and added subsets, and the removed ones. Components are read through a [`Query`] over one
/// of the lists: [`query`](SystemEntities::query), [`changed`](SystemEntities::changed) or
/// [`added`](SystemEntities::added).
#[derive(Clone, Copy, Debug)]
pub struct SystemEntities<'a> {
    pub(crate) tracked: &'a [Entity],
    pub(crate) dirty: &'a [Entity],
    pub(crate) added: &'a [Entity],
    pub(crate) removed: &'a [Entity],
    /// The watched columns some change of which reached the system since it last ran.
    pub(crate) columns_changed: ComponentSet,
}

impl<'a> SystemEntities<'a> {
    /// Every entity that has all the required components, in no particular order.
    #[inline]
    pub fn tracked(&self) -> &'a [Entity] {
        self.tracked
    }

    /// The entities [`changed`](SystemEntities::changed) walks, without their components: for
    /// work on the entities alone (counting them, marking them, keying per-entity state).
    #[inline]
    pub fn dirty(&self) -> &'a [Entity] {
        self.dirty
    }

    /// Entities that stopped being tracked since this system last ran (despawned, cleared, or
    /// lost a required component), whether or not it watches anything: at most one handle per
    /// slot, the newest. Handles may be stale: use them as keys, by [`Entity::index`] where
    /// slots may be reused in between.
    #[inline]
    pub fn removed(&self) -> &'a [Entity] {
        self.removed
    }

    /// Every tracked entity, with the components `D` names (the `World` type's example).
    pub fn query<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.tracked)
    }

    /// The tracked entities a watched component of which changed, was added or was removed
    /// since this system last ran, and those newly tracked (as `Changed<T>` in `bevy_ecs`):
    /// each once, in slot order ([`Entity::index`] ascending), with the components `D` names.
    /// Empty for a system that watches nothing; all tracked while change tracking is off.
    /// (The crate's walkthrough and `ecs/README.md` show it in use.)
    pub fn changed<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.dirty)
    }

    /// The entities newly tracked since this system last ran (as `Added<T>` in `bevy_ecs`), in
    /// slot order, with the components `D` names, whatever it watches.
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// let mut world = World::new();
    /// let desc = SystemDesc::new("bonus").watches::<u32>();
    /// world.add_system(desc, |world: &mut World, entities: &SystemEntities| {
    ///     entities.added::<&mut u32>(world).for_each(|_, mut hp| *hp += 100);
    /// });
    /// let a = world.spawn((3u32,));
    /// world.update();
    /// *world.get_mut::<u32>(a).unwrap() = 2;
    /// let b = world.spawn((4u32,));
    /// world.update();
    /// assert_eq!(world.get::<u32>(a), Some(&2), "changed, not added");
    /// assert_eq!(world.get::<u32>(b), Some(&104));
    /// ```
    pub fn added<'w, D: QueryData>(&self, world: &'w mut World) -> Query<'w, 'a, D> {
        Query::new(world, self.added)
    }

    /// Whether some change to a watched `T` reached this system since it last ran: one bit per
    /// type, not per entity, so possibly a change to an entity it does not track. Always true
    /// while change tracking is off.
    pub fn column_changed<T: Component>(&self, world: &World) -> bool {
        let id = world.component_id::<T>();
        id.is_some_and(|id| self.columns_changed.contains(id))
    }
}

/// How a system is scheduled and what it tracks: its name, priority, required and watched
/// components, when it runs, and whether it is a debug system.
///
/// ```
/// let desc = ecs::SystemDesc::new("regen").priority(-1).requires::<u8>().every_update();
/// ```
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
    /// Describe a system called `name`, priority 0, requiring and watching nothing.
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

    /// Run only when it has a changed, added or removed entity: the default for a system that
    /// watches something. A skipped update is not counted in [`SystemInfo::runs`].
    pub fn on_changes(mut self) -> Self {
        self.when = Some(RunWhen::Changes);
        self
    }

    /// Run on every update, whatever changed (timers, input): the default if it watches nothing.
    pub fn every_update(mut self) -> Self {
        self.when = Some(RunWhen::EveryUpdate);
        self
    }

    /// Run only in updates where events of type `E` were sent since it last ran (read them with
    /// an [`EventReader`](crate::EventReader)), whatever changed.
    pub fn on_event<E: 'static>(mut self) -> Self {
        self.when = Some(RunWhen::Events(TypeId::of::<E>()));
        self
    }

    /// When the update runs this system.
    pub(crate) fn run_when(&self) -> RunWhen {
        match self.when {
            Some(when) => when,
            None if self.watches.is_empty() => RunWhen::EveryUpdate,
            None => RunWhen::Changes,
        }
    }
}

/// Handle to a system added with [`World::add_system`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId {
    pub(crate) world: WorldId,
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
    /// Dirty entities its run in the latest update received (zero if that update skipped it).
    pub last_dirty: usize,
    /// Entities it tracked as that run began (zero if skipped).
    pub last_tracked: usize,
    /// Wall time of that run (zero if skipped, or timing is off).
    pub last_duration: Duration,
    /// Number of times it has run (not counting updates that skipped it: nothing to react to).
    pub runs: u64,
}

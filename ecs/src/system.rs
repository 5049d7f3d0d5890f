//! Systems: the `System` trait, how one is described (`SystemDesc`), what it receives each
//! update (`SystemEntities`) and what the world reports about it. The update loop that runs
//! them is `update.rs`.

use std::any::TypeId;
use std::time::Duration;

use crate::component::{Component, ComponentId, ComponentSet};
use crate::query::{Query, QueryData};
use crate::world::{RunWhen, WorldId};
use crate::{Entity, World};

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
    pub(crate) tracked: &'a [Entity],
    pub(crate) dirty: &'a [Entity],
    pub(crate) added: &'a [Entity],
    pub(crate) removed: &'a [Entity],
    /// The watched columns some change of which reached the system since it last ran.
    pub(crate) columns_changed: ComponentSet,
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

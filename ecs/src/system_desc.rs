//! How a system is scheduled and what it tracks: `SystemDesc`, built before it is added.

use crate::component::Component;
use crate::world::columns::ComponentRef;

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
    ///
    /// [`World::update_debug_only`]: crate::World::update_debug_only
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
    ///
    /// [`SystemEntities::dirty`]: crate::SystemEntities::dirty
    /// [`SystemEntities::removed`]: crate::SystemEntities::removed
    /// [`SystemInfo::runs`]: crate::SystemInfo::runs
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

//! What systems receive and report: their entities, ids, run figures and the sets the world keeps
//! for each.

use std::time::Duration;

use crate::Entity;
use crate::entity_set::{ClearableSet, EntitySet};

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
    ///
    /// [`World::set_change_tracking`]: crate::World::set_change_tracking
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
///
/// [`World::add_system`]: crate::World::add_system
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId(pub(crate) usize);

/// Snapshot of one system's scheduling state and last-run figures.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    /// Handle of the system.
    pub id: SystemId,
    /// Name given in its [`SystemDesc`].
    ///
    /// [`SystemDesc`]: crate::SystemDesc
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
    ///
    /// [`SystemDesc::every_update`]: crate::SystemDesc::every_update
    pub runs: u64,
}

/// Where a world's heap bytes go, by capacity (what is allocated, used or not):
/// [`World::memory_use`].
///
/// [`World::memory_use`]: crate::World::memory_use
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

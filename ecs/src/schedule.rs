//! What the world keeps per system: [`SystemSlot`] and the [`SystemSets`] it lends the system.

use std::time::Duration;

use crate::component::{ComponentId, ComponentSet};
use crate::delivery::DirtySet;
use crate::entity_set::EntitySet;
use crate::{Entity, System};

/// A system plus the entity sets the world maintains for it.
#[derive(Default)]
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
    /// The update that last ran it, and that run's figures.
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

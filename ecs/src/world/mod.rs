//! `World` and the `System` trait that runs on it (each names the other, so they share this file):
//! the world's fields, each system's slot, and helpers the other `world/` files share.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;
use std::time::Duration;

use crate::Entity;
use crate::change_log::{ChangeLog, SlotBits};
use crate::column::{AnyColumn, Column};
use crate::component::{Component, ComponentId, ComponentSet};
use crate::entity::Entities;
use crate::events::AnyEvents;
use crate::slot_sort::SlotSorter;
use crate::system::{OwnDirty, SystemEntities, SystemSets, Watch};

pub(crate) mod bundle;
pub(crate) mod columns;
mod delivery;
mod dense_delivery;
mod entities;
mod resource_store;
mod systems;
mod update;

pub use dense_delivery::DenseDelivery;

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

/// Per component type: its change log, if some system watches it.
type Logs = [Option<Rc<RefCell<ChangeLog>>>];

type TypeMap<V> = HashMap<TypeId, V, BuildHasherDefault<TypeIdHasher>>;

/// Where no component type is, in [`TypeTable::ids`].
const NO_TYPE: u16 = u16::MAX;

/// Component ids by `TypeId`: a table in which every registered type has a slot of its own (a
/// perfect hash, rebuilt with another multiplier or twice the size when a new type collides),
/// so finding a type's id is a multiply, a shift and one load, with no probing and no compare
/// of `TypeId`s.
#[derive(Debug)]
struct TypeTable {
    /// Component id by slot, [`NO_TYPE`] where none.
    ids: Vec<u16>,
    multiplier: u64,
    /// `64 - log2(ids.len())`: the slot is the top bits of the multiplied hash.
    shift: u32,
}

impl TypeTable {
    const MIN_BITS: u32 = 4;

    fn new() -> Self {
        Self {
            ids: vec![NO_TYPE; 1 << Self::MIN_BITS],
            multiplier: 0x9e37_79b9_7f4a_7c15,
            shift: 64 - Self::MIN_BITS,
        }
    }

    /// The `TypeId`'s own hash (a constant for each type, folded at compile time).
    #[inline]
    fn hash(t: TypeId) -> u64 {
        let mut h = TypeIdHasher::default();
        t.hash(&mut h);
        h.finish()
    }

    #[inline]
    fn slot(hash: u64, multiplier: u64, shift: u32) -> usize {
        (hash.wrapping_mul(multiplier) >> shift) as usize
    }

    /// The id in `t`'s slot: `t`'s own if `t` is registered, else [`NO_TYPE`] or another
    /// type's id (callers check the type).
    #[inline]
    fn get(&self, t: TypeId) -> u16 {
        let slot = Self::slot(Self::hash(t), self.multiplier, self.shift);
        self.ids.get(slot).copied().unwrap_or(NO_TYPE)
    }

    /// Add `types[id]`; `types` holds every registered type, by id.
    fn insert(&mut self, id: usize, types: &[(TypeId, &'static str)]) {
        let slot = Self::slot(Self::hash(types[id].0), self.multiplier, self.shift);
        if self.ids[slot] == NO_TYPE {
            self.ids[slot] = id as u16;
            return;
        }
        // Another multiplier, a few times, then twice the size: with a table of at least
        // four slots per type, a random multiplier is collision-free more often than not.
        let mut bits = 64 - self.shift;
        let mut multiplier = self.multiplier;
        loop {
            if types.len() * 4 > 1 << bits {
                bits += 1;
                continue;
            }
            for _ in 0..8 {
                multiplier = multiplier
                    .wrapping_mul(0x5851_f42d_4c95_7f2d)
                    .wrapping_add(0x1405_7b7e_f767_814f)
                    | 1;
                let shift = 64 - bits;
                let mut ids = vec![NO_TYPE; 1 << bits];
                let placed = types.iter().enumerate().all(|(i, &(t, _))| {
                    let slot = Self::slot(Self::hash(t), multiplier, shift);
                    let free = ids[slot] == NO_TYPE;
                    ids[slot] = i as u16;
                    free
                });
                if placed {
                    *self = Self {
                        ids,
                        multiplier,
                        shift,
                    };
                    return;
                }
            }
            bits += 1;
        }
    }
}

/// A time source for system timings ([`World::set_clock`]): the time since any fixed point.
pub type Clock = fn() -> Duration;

/// The default [`Clock`]: `std::time::Instant`, from the first reading.
fn instant_clock() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

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

/// A system plus the entity sets the world maintains for it.
pub(crate) struct SystemSlot {
    /// Name given in its [`SystemDesc`](crate::SystemDesc).
    pub(crate) name: &'static str,
    /// Scheduling priority: lower runs first.
    pub(crate) priority: i32,
    /// Whether it runs in debug-only updates.
    pub(crate) debug: bool,
    /// `None` while the system is running (it is moved out to borrow the world).
    pub(crate) system: Option<Box<dyn System>>,
    pub(crate) required: ComponentSet,
    /// The one component the system requires, if it requires exactly one: then it tracks
    /// exactly the entities of that component's column.
    pub(crate) required_only: Option<ComponentId>,
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
    pub(crate) dirty: OwnDirty,
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
            + self.sets.bits.heap_bytes()
            + self.dirty.heap_bytes()
            + self.pending_membership.capacity() * size_of::<Entity>()
    }
}

/// Everything in one ECS: entities, components, systems, resources and events.
///
/// See the [crate documentation](crate) for the model and a walkthrough.
pub struct World {
    entities: Entities,
    /// Component ids by type.
    component_ids: TypeTable,
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
    /// What times systems while `timing` is on.
    clock: Clock,
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
    /// Whether some system's own dirty or removed set may be non-empty: set by whatever
    /// inserts into one, recomputed at the end of an update. While it is false and every
    /// change log is empty, no system has anything to react to (see `World::is_quiet`).
    sets_pending: bool,
    /// Whether every reactive system reports zero `last_dirty` and `last_duration`, as a
    /// skipped one does: then a quiet update need not look at them.
    figures_zeroed: bool,
    /// Positions in `order` of the systems that are not reactive, ascending.
    every_update: Vec<usize>,
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
                    .map(|&s| self.systems[s].name)
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
            component_ids: TypeTable::new(),
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
            clock: instant_clock,
            placeholder: Some(Box::default()),
            requires_nothing: Vec::new(),
            systems: Vec::new(),
            order: Vec::new(),
            resources: TypeMap::default(),
            events: TypeMap::default(),
            updating: false,
            sets_pending: false,
            figures_zeroed: true,
            every_update: Vec::new(),
            pending_despawns: Vec::new(),
            pending_clear: false,
            change_tracking: true,
            bundle_ids: TypeMap::default(),
            bundles: Vec::new(),
        }
    }
}

// Upcast to `dyn Any` (a load from the vtable, no call), then one call to check the type.
#[inline]
fn downcast_mut<T: Component>(column: &mut dyn AnyColumn) -> &mut Column<T> {
    let column: &mut dyn Any = column;
    column
        .downcast_mut()
        .expect("column stored under its own TypeId")
}

/// The change log of a watched component.
#[inline]
fn change_log(logs: &Logs, id: ComponentId) -> &RefCell<ChangeLog> {
    logs[id.index()]
        .as_deref()
        .expect("a watched component has a change log")
}

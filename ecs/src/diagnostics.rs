//! Knobs for benchmarks, memory reports and a state hash: what a system never needs.

use std::time::Duration;

use crate::{Column, Component, ComponentId, Entity, World};

/// A time source for system timings ([`set_clock`]): the time since any fixed point.
pub type Clock = fn() -> Duration;

/// Time system runs with `clock` instead of `std::time::Instant`, which panics where the
/// platform has no clock of its own (a browser page, whose host has one).
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use std::time::Duration;
/// use ecs::{SystemDesc, SystemEntities, World};
///
/// static MICROS: AtomicU64 = AtomicU64::new(0);
/// fn clock() -> Duration {
///     Duration::from_micros(MICROS.fetch_add(5, Ordering::Relaxed)) // 5 µs a reading
/// }
/// let mut world = World::new();
/// ecs::diagnostics::set_clock(&mut world, clock);
/// let id = world.add_system(SystemDesc::new("s"), |_: &mut World, _: &SystemEntities| {});
/// world.set_timing(true);
/// world.update();
/// assert_eq!(world.system_info(id).last_duration, Duration::from_micros(5));
/// ```
pub fn set_clock(world: &mut World, clock: Clock) {
    world.clock = Some(clock);
}

/// Number of registered component types; grows by one with each new type, so a cache of ids
/// is current while this is unchanged.
pub fn component_type_count(world: &World) -> usize {
    world.columns.len()
}

/// The dense index of a component type (`0..component_type_count`), for tables by type.
pub fn component_index(id: ComponentId) -> usize {
    id.index()
}

/// Whether `entity` is alive and has the component of id `id`: one read of the entity's
/// signature, for code that resolves each type's column once and then skips, per entity, the
/// columns it has no component in.
#[inline]
pub fn has_id(world: &World, entity: Entity, id: ComponentId) -> bool {
    let sig = world.entities.components(entity);
    sig.is_some_and(|sig| sig.contains(id))
}

/// Every component of type `T`, found by its id (from [`World::component_id`]) instead of by
/// type; `None` if `id` is not `T`'s.
pub fn column_by_id<T: Component>(world: &World, id: ComponentId) -> Option<&Column<T>> {
    world.column_by_id(id)
}

/// Where the world's heap bytes go (by capacity): entities, each column, each watched column's
/// change bits, each system's entity sets. Resources and events are left out (their types are
/// the caller's, who can count them).
///
/// ```
/// let mut world = ecs::World::new();
/// world.spawn((7u32,));
/// let memory = ecs::diagnostics::memory_use(&world);
/// assert_eq!(memory.columns[0].0, "u32");
/// assert!(memory.total() >= memory.columns[0].1);
/// ```
pub fn memory_use(world: &World) -> MemoryUse {
    let types = &world.component_types;
    let change_bits = world.watched.iter().map(|id| {
        let changes = world.columns[id.index()].changes();
        (types[id.index()].1, changes.map_or(0, |c| c.heap_bytes()))
    });
    let systems = world.systems();
    MemoryUse {
        entities: world.entities.heap_bytes(),
        columns: types
            .iter()
            .zip(&world.columns)
            .map(|((_, name), c)| (*name, c.heap_bytes()))
            .collect(),
        change_bits: change_bits.collect(),
        systems: systems
            .map(|s| (s.name, world.systems[s.id.index].heap_bytes()))
            .collect(),
    }
}

/// Where a world's heap bytes go, by capacity (what is allocated, used or not): [`memory_use`].
#[derive(Clone, Debug, Default)]
pub struct MemoryUse {
    /// The entity allocator: a slot (generation, liveness, component signature) per index.
    pub entities: usize,
    /// Per component type (its name): its column's entity index and values.
    pub columns: Vec<(&'static str, usize)>,
    /// Per watched component type (its name): the bits of its changes not yet moved to its
    /// watchers.
    pub change_bits: Vec<(&'static str, usize)>,
    /// Per system (its name): its tracked, dirty, removed and delivered sets.
    pub systems: Vec<(&'static str, usize)>,
}

impl MemoryUse {
    /// Everything above, added up.
    pub fn total(&self) -> usize {
        let sum = |v: &[(&'static str, usize)]| v.iter().map(|(_, b)| b).sum::<usize>();
        self.entities + sum(&self.columns) + sum(&self.change_bits) + sum(&self.systems)
    }
}

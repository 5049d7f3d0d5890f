//! Knobs for benchmarks, memory reports and a state hash: what a system never needs.

use std::time::Duration;

use crate::{Column, Component, ComponentId, Entity, World};

/// A time source for system timings ([`set_clock`]): the time since any fixed point.
pub type Clock = fn() -> Duration;

/// Time system runs with `clock` instead of `std::time::Instant`, which panics where the
/// platform has no clock of its own (a browser page).
pub fn set_clock(world: &mut World, clock: Clock) {
    world.clock = Some(clock);
}

/// Number of registered component types: a cache of ids is current while it is unchanged.
pub fn component_type_count(world: &World) -> usize {
    world.columns.len()
}

/// The dense index of a component type (`0..component_type_count`), for tables by type.
pub fn component_index(id: ComponentId) -> usize {
    id.index()
}

/// Whether `entity` is alive and has the component of id `id`: one read of its signature.
#[inline]
pub fn has_id(world: &World, entity: Entity, id: ComponentId) -> bool {
    let sig = world.entities.components(entity);
    sig.is_some_and(|sig| sig.contains(id))
}

/// Every component of type `T`, found by its id ([`World::component_id`]); `None` if not `T`'s.
pub fn column_by_id<T: Component>(world: &World, id: ComponentId) -> Option<&Column<T>> {
    world.column_by_id(id)
}

/// Where the world's heap bytes go (by capacity), resources and events left out.
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

/// Where a world's heap bytes go, by capacity: [`memory_use`].
#[derive(Clone, Debug, Default)]
pub struct MemoryUse {
    /// The entity allocator: a slot (generation, liveness, component signature) per index.
    pub entities: usize,
    /// Per component type (its name): its column's entity index and values.
    pub columns: Vec<(&'static str, usize)>,
    /// Per watched component type (its name): its change bits.
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

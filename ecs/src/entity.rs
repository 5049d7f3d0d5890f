//! Entity handles and the allocator that hands them out.

use std::fmt;
use std::num::NonZeroU32;

use crate::component::ComponentSet;

/// Lightweight, copyable handle to an entity: a slot index plus the generation of that slot.
///
/// When an entity is despawned its slot's generation is bumped, so every handle that still names
/// the old generation is *stale*: [`World`](crate::World) operations on it return `None`,
/// `false` or an error, and never reach the entity that later reuses the slot.
///
/// ```
/// # let mut w = ecs::World::new();
/// let e = w.spawn(()); assert!(w.despawn(e)); assert!(!w.is_alive(e), "stale");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity {
    index: u32,
    generation: NonZeroU32,
}

impl Entity {
    /// Slot index of this entity; unique among live entities, reused after despawn.
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let a = w.spawn(()); w.despawn(a); let b = w.spawn(()); assert_eq!(a.index(), b.index());
    /// ```
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// Generation of the slot when this handle was created (starts at 1).
    ///
    /// ```
    /// # let mut w = ecs::World::new();
    /// let a = w.spawn(()); w.despawn(a); assert_eq!(w.spawn(()).generation(), a.generation() + 1);
    /// ```
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation.get()
    }

    /// Pack the handle into a `u64` (generation in the high half), e.g. for hashing or saving.
    ///
    /// ```
    /// # let e = ecs::World::new().spawn(());
    /// assert_eq!(ecs::Entity::from_bits(e.to_bits()), Some(e));
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u64 {
        ((self.generation.get() as u64) << 32) | self.index as u64
    }

    /// Rebuild a handle from [`Entity::to_bits`]; `None` if the generation half is zero.
    ///
    /// ```
    /// assert_eq!(ecs::Entity::from_bits(7), None, "generation 0");
    /// ```
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Self> {
        match NonZeroU32::new((bits >> 32) as u32) {
            Some(generation) => Some(Self {
                index: bits as u32,
                generation,
            }),
            None => None,
        }
    }
}

impl fmt::Debug for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// One slot of the allocator. `generation` is the generation a live entity in this slot has, or
/// the generation the next entity in it will get.
#[derive(Clone, Debug)]
struct Slot {
    generation: NonZeroU32,
    alive: bool,
    components: ComponentSet,
}

/// Generational allocator plus the per-entity component signature.
///
/// Freed slots are reused last-in first-out. A slot whose generation would overflow is retired
/// instead of reused, so a handle can never alias even after four billion reuses.
#[derive(Debug, Default)]
pub(crate) struct Entities {
    slots: Vec<Slot>,
    free: Vec<u32>,
    alive: usize,
}

impl Entities {
    pub(crate) fn alloc(&mut self) -> Entity {
        self.alive += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.alive = true;
            return Entity {
                index,
                generation: slot.generation,
            };
        }
        let index = u32::try_from(self.slots.len()).expect("more than u32::MAX entity slots");
        self.slots.push(Slot {
            generation: NonZeroU32::MIN,
            alive: true,
            components: ComponentSet::EMPTY,
        });
        Entity {
            index,
            generation: NonZeroU32::MIN,
        }
    }

    /// Make room for `additional` more live entities; returns the end of the slot range they
    /// will occupy (freed slots are reused first, so new slots are only needed past them).
    pub(crate) fn reserve(&mut self, additional: usize) -> u32 {
        let new_slots = additional.saturating_sub(self.free.len());
        self.slots.reserve_exact(new_slots);
        u32::try_from(self.slots.len() + new_slots).unwrap_or(u32::MAX)
    }

    /// Free `entity`'s slot; returns its component signature, or `None` if the handle is stale.
    pub(crate) fn free(&mut self, entity: Entity) -> Option<ComponentSet> {
        let slot = self.slot_mut(entity)?;
        slot.alive = false;
        let components = std::mem::take(&mut slot.components);
        // On overflow the slot is retired: reusing it would hand out a generation that some
        // stale handle may still hold.
        if let Some(next) = slot.generation.checked_add(1) {
            slot.generation = next;
            self.free.push(entity.index);
        }
        self.alive -= 1;
        Some(components)
    }

    #[inline]
    pub(crate) fn is_alive(&self, entity: Entity) -> bool {
        self.slot(entity).is_some()
    }

    #[inline]
    fn slot(&self, entity: Entity) -> Option<&Slot> {
        self.slots
            .get(entity.index as usize)
            .filter(|s| s.alive && s.generation == entity.generation)
    }

    #[inline]
    fn slot_mut(&mut self, entity: Entity) -> Option<&mut Slot> {
        self.slots
            .get_mut(entity.index as usize)
            .filter(|s| s.alive && s.generation == entity.generation)
    }

    #[inline]
    pub(crate) fn components(&self, entity: Entity) -> Option<&ComponentSet> {
        self.slot(entity).map(|s| &s.components)
    }

    #[inline]
    pub(crate) fn components_mut(&mut self, entity: Entity) -> Option<&mut ComponentSet> {
        self.slot_mut(entity).map(|s| &mut s.components)
    }

    pub(crate) fn len(&self) -> usize {
        self.alive
    }

    /// Bytes allocated on the heap (by capacity): a slot per index ever used, and the free list.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Slot>() + self.free.capacity() * size_of::<u32>()
    }

    /// Live entities in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Entity, &ComponentSet)> + '_ {
        let entity = |index, s: &Slot| Entity {
            index,
            generation: s.generation,
        };
        let live = self.slots.iter().zip(0..).filter(|(s, _)| s.alive);
        live.map(move |(s, i)| (entity(i, s), &s.components))
    }
}

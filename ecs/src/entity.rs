//! Entity handles and the allocator that hands them out.

use std::fmt;
use std::num::NonZeroU32;

use crate::component::ComponentSet;

/// Lightweight, copyable handle to an entity: a slot index plus the generation of that slot.
///
/// Despawning bumps the slot's generation, so an older handle is *stale*: operations on it
/// return `None`, `false` or an error and never reach the entity that reuses the slot. A handle
/// carries no world id (it stays 8 bytes): another world reads it as one of its own slots.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity {
    index: u32,
    generation: NonZeroU32,
}

impl Entity {
    /// Slot index of this entity; unique among live entities, reused after despawn.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// Generation of the slot when this handle was created (starts at 1).
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation.get()
    }

    /// Pack the handle into a `u64` (generation in the high half), e.g. for hashing or saving.
    #[inline]
    pub const fn to_bits(self) -> u64 {
        ((self.generation.get() as u64) << 32) | self.index as u64
    }

    /// Rebuild a handle from [`Entity::to_bits`]; `None` if the generation half is zero.
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

/// Generational allocator plus the per-entity component signature (see `ecs/DESIGN.md`).
/// `generations[i]` is the generation a live entity in slot `i` has, or the one the next entity
/// in it will get. Freed slots are reused last-in first-out; one whose generation would
/// overflow is retired, so a handle never aliases.
#[derive(Debug, Default)]
pub(crate) struct Entities {
    generations: Vec<NonZeroU32>,
    components: Vec<ComponentSet>,
    alive_bits: Vec<u64>,
    free: Vec<u32>,
    alive: usize,
}

impl Entities {
    pub(crate) fn alloc(&mut self) -> Entity {
        self.alive += 1;
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                let index =
                    u32::try_from(self.generations.len()).expect("more than u32::MAX entity slots");
                self.generations.push(NonZeroU32::MIN);
                self.components.push(ComponentSet::EMPTY);
                if index % 64 == 0 {
                    self.alive_bits.push(0);
                }
                index
            }
        };
        self.alive_bits[index as usize / 64] |= 1 << (index % 64);
        Entity {
            index,
            generation: self.generations[index as usize],
        }
    }

    /// Make room for `additional` more live entities; returns the end of the slot range they
    /// will occupy (freed slots are reused first, so new slots are only needed past them).
    pub(crate) fn reserve(&mut self, additional: usize) -> u32 {
        let new_slots = additional.saturating_sub(self.free.len());
        let end = self.generations.len() + new_slots;
        self.generations.reserve_exact(new_slots);
        self.components.reserve_exact(new_slots);
        self.alive_bits
            .reserve_exact(end.div_ceil(64).saturating_sub(self.alive_bits.len()));
        u32::try_from(end).unwrap_or(u32::MAX)
    }

    /// Free `entity`'s slot; returns its component signature, or `None` if the handle is stale.
    pub(crate) fn free(&mut self, entity: Entity) -> Option<ComponentSet> {
        let i = self.live_slot(entity)?;
        self.alive_bits[i / 64] &= !(1 << (i % 64));
        let components = std::mem::take(&mut self.components[i]);
        // On overflow the slot is retired: reusing it would hand out a generation that some
        // stale handle may still hold.
        if let Some(next) = self.generations[i].checked_add(1) {
            self.generations[i] = next;
            self.free.push(entity.index);
        }
        self.alive -= 1;
        Some(components)
    }

    #[inline]
    pub(crate) fn is_alive(&self, entity: Entity) -> bool {
        self.live_slot(entity).is_some()
    }

    /// The slot of `entity` if it is alive (this exact generation).
    #[inline]
    fn live_slot(&self, entity: Entity) -> Option<usize> {
        let i = entity.index as usize;
        let live = self.generations.get(i) == Some(&entity.generation)
            && self.alive_bits[i / 64] & (1 << (i % 64)) != 0;
        live.then_some(i)
    }

    #[inline]
    pub(crate) fn components(&self, entity: Entity) -> Option<&ComponentSet> {
        self.live_slot(entity).map(|i| &self.components[i])
    }

    #[inline]
    pub(crate) fn components_mut(&mut self, entity: Entity) -> Option<&mut ComponentSet> {
        self.live_slot(entity).map(|i| &mut self.components[i])
    }

    pub(crate) fn len(&self) -> usize {
        self.alive
    }

    /// Bytes allocated on the heap (by capacity): the slots' arrays, and the free list.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.generations.capacity() * size_of::<NonZeroU32>()
            + self.components.capacity() * size_of::<ComponentSet>()
            + self.alive_bits.capacity() * size_of::<u64>()
            + self.free.capacity() * size_of::<u32>()
    }

    /// Live entities in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Entity, &ComponentSet)> + '_ {
        let slots = self.generations.iter().zip(&self.components).zip(0..);
        let live = slots.filter(|&(_, i)| self.alive_bits[i as usize / 64] & (1 << (i % 64)) != 0);
        live.map(|((&generation, components), index)| (Entity { index, generation }, components))
    }
}

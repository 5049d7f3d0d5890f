//! Sets of entities: O(1) insert, remove and membership, iteration over a dense slice.

use crate::Entity;

/// Set of entities: a dense list (insertion order, until a removal swaps the last one in) and a
/// way from a slot to its member's position: the dense list itself while each member sits at
/// `slot - base`, else a table built in one pass (`sparse`; ecs/DESIGN.md, "Columns and tracked sets").
/// At most one generation per slot: a newer handle for a slot replaces the stale one.
#[derive(Clone, Debug, Default)]
pub(crate) struct EntitySet {
    dense: Vec<Entity>,
    /// Once indexed: the entry of slot `base + i` at `i` (a set of entities spawned late, the
    /// player of a level of a million crates, has no table for the slots before them).
    sparse: Vec<Sparse>,
    /// The slot of position 0 (while positions follow slots), or of `sparse[0]` (once indexed).
    base: u32,
    /// Whether `sparse` is the index.
    indexed: bool,
    /// While not indexed: the generation of every member, or 0 if they differ.
    generation: u32,
}

/// One slot's entry: `generation` 0 (never a real generation) marks an empty slot.
#[derive(Clone, Copy, Debug, Default)]
struct Sparse {
    generation: u32,
    position: u32,
}

impl EntitySet {
    /// Position of `entity` (this exact generation) in [`EntitySet::as_slice`].
    #[inline(always)]
    pub(crate) fn index_of(&self, entity: Entity) -> Option<usize> {
        let i = entity.index().wrapping_sub(self.base) as usize;
        if !self.indexed && self.generation != 0 {
            let same = i < self.dense.len() && entity.generation() == self.generation;
            return same.then_some(i);
        }
        if !self.indexed {
            // One compare of the packed handles (the derived `==` makes two).
            let same = self.dense.get(i).map(|e| e.to_bits()) == Some(entity.to_bits());
            return same.then_some(i);
        }
        match self.sparse.get(i) {
            Some(s) if s.generation == entity.generation() => Some(s.position as usize),
            _ => None,
        }
    }

    /// Whether `entity` (this exact generation) is in the set.
    #[inline]
    pub(crate) fn contains(&self, entity: Entity) -> bool {
        self.index_of(entity).is_some()
    }

    /// The member in `slot`, whatever its generation.
    #[inline]
    pub(crate) fn in_slot(&self, slot: u32) -> Option<Entity> {
        let i = slot.wrapping_sub(self.base) as usize;
        if !self.indexed && self.generation != 0 {
            let handle = (u64::from(self.generation) << 32) | u64::from(slot);
            return Entity::from_bits(handle).filter(|_| i < self.dense.len());
        }
        if !self.indexed {
            return self.dense.get(i).copied().filter(|e| e.index() == slot);
        }
        let s = self.sparse.get(i)?;
        Entity::from_bits((u64::from(s.generation) << 32) | u64::from(slot))
    }

    /// Insert `entity`; returns `false` if it was already present.
    #[inline]
    pub(crate) fn insert(&mut self, entity: Entity) -> bool {
        if !self.indexed {
            let slot = entity.index();
            if self.dense.is_empty() {
                self.base = slot;
                self.generation = entity.generation();
            }
            if entity.generation() != self.generation {
                self.generation = 0;
            }
            let i = slot.wrapping_sub(self.base) as usize;
            let len = self.dense.len();
            match self.dense.get_mut(i) {
                Some(e) if e.index() == slot => {
                    // Present, or a stale generation of this slot that the newer one replaces.
                    let fresh = *e != entity;
                    *e = entity;
                    return fresh;
                }
                None if i == len => {
                    self.dense.push(entity);
                    return true;
                }
                _ => self.build_index(),
            }
        }
        self.insert_indexed(entity)
    }

    /// [`EntitySet::insert`] through the sparse table.
    fn insert_indexed(&mut self, entity: Entity) -> bool {
        if entity.index() < self.base || self.sparse.is_empty() {
            self.cover(entity.index());
        }
        let i = (entity.index() - self.base) as usize;
        if i >= self.sparse.len() {
            self.sparse.resize(i + 1, Sparse::default());
        }
        let s = &mut self.sparse[i];
        if s.generation == entity.generation() {
            return false;
        }
        if s.generation != 0 {
            // A stale generation of this slot: the newer handle takes its place.
            s.generation = entity.generation();
            self.dense[s.position as usize] = entity;
            return true;
        }
        *s = Sparse {
            generation: entity.generation(),
            position: self.dense.len() as u32,
        };
        self.dense.push(entity);
        true
    }

    /// Remove `entity`; returns its former position in [`EntitySet::as_slice`].
    #[inline]
    pub(crate) fn remove(&mut self, entity: Entity) -> Option<usize> {
        let p = self.index_of(entity)?;
        if p + 1 != self.dense.len() && !self.indexed {
            // The last member will fill the hole, out of its slot's place.
            self.build_index();
        }
        if self.indexed {
            self.sparse[(entity.index() - self.base) as usize] = Sparse::default();
        }
        self.dense.swap_remove(p);
        if let Some(&last) = self.dense.get(p) {
            self.sparse[(last.index() - self.base) as usize].position = p as u32;
        }
        Some(p)
    }

    /// Switch to the sparse table, in one pass: positions still follow slots, so the members'
    /// slots are `base..base + len` and the entry of position `p` goes to `sparse[p]`.
    #[cold]
    #[inline(never)]
    fn build_index(&mut self) {
        let entry = |(e, position): (&Entity, u32)| Sparse {
            generation: e.generation(),
            position,
        };
        self.sparse = self.dense.iter().zip(0..).map(entry).collect();
        self.indexed = true;
    }

    /// Make `sparse` start at or below `slot`: the first insert sets `base`; one below it
    /// moves `base` down by at least the table's length, so that moves stay amortized O(1).
    fn cover(&mut self, slot: u32) {
        if self.sparse.is_empty() {
            self.base = slot;
        } else if slot < self.base {
            let grow = (self.base - slot).max(self.sparse.len() as u32);
            let base = self.base.saturating_sub(grow);
            let added = (self.base - base) as usize;
            self.sparse
                .splice(0..0, std::iter::repeat_n(Sparse::default(), added));
            self.base = base;
        }
    }

    /// Make room for `additional` more members, all in slots below `slot_end` (once indexed,
    /// the sparse table then covers every slot from the lowest member's up to `slot_end`),
    /// with exact capacities: a set filled to what was reserved holds no slack.
    pub(crate) fn reserve(&mut self, additional: usize, slot_end: u32) {
        self.dense.reserve_exact(additional);
        if self.indexed {
            let wanted = slot_end.saturating_sub(self.base) as usize;
            self.sparse
                .reserve_exact(wanted.saturating_sub(self.sparse.len()));
        }
    }

    /// Remove everything, keeping the dense list's allocation; positions follow slots again.
    pub(crate) fn clear(&mut self) {
        self.dense.clear();
        self.sparse = Vec::new();
        self.indexed = false;
    }

    /// The slots of the members while positions follow slots (then every slot in it has one).
    #[inline]
    pub(crate) fn slot_range(&self) -> Option<std::ops::Range<u32>> {
        (!self.indexed).then(|| self.base..self.base + self.dense.len() as u32)
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[Entity] {
        &self.dense
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.dense.len()
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.dense.is_empty()
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.dense.capacity() * size_of::<Entity>() + self.sparse.capacity() * size_of::<Sparse>()
    }
}

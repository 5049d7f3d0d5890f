//! Delivery: how a watching system receives its dirty entities, one mechanism for every
//! workload (`ecs/README.md`, "Delivery", draws it). Each change is logged once, in its column;
//! each system keeps a cursor per watched log and a [`DirtySet`]. Before it runs, the entries
//! after its cursors set bits and the set is drained, in slot order, into the list it reads; a
//! system that does not run is filled but not drained. A bit stands for whichever entity the
//! system tracks in that slot when drained: an entry of an entity it does not track (or no
//! longer) sets the bit of a slot that is then empty for it (skipped), or held by an entity new
//! to it (dirty anyway). So a fill needs no lookup and nothing is sorted.

use crate::Entity;
use crate::component::ComponentId;
use crate::entity_set::EntitySet;

/// What changed in one watched column: the handles marked, in the order they were marked.
///
/// Every watching system reads the entries after its own cursor (a [`Watch`]). Within the part
/// marked since the last [`ChangeLog::seal`] (the fresh part) each slot appears once: a bit per
/// slot dedupes the marks. Every cursor is at or before the fresh part's start, so a mark
/// deduped away is still ahead of every cursor.
#[derive(Debug, Default)]
pub(crate) struct ChangeLog {
    entries: Vec<Entity>,
    /// A bit per slot with an entry at or after `fresh_from`.
    fresh: Vec<u64>,
    fresh_from: usize,
}

impl ChangeLog {
    /// Record that `entity`'s component changed.
    #[inline]
    pub(crate) fn mark(&mut self, entity: Entity) {
        let slot = entity.index() as usize;
        let bit = 1u64 << (slot % 64);
        match self.fresh.get_mut(slot / 64) {
            Some(word) if *word & bit != 0 => return,
            Some(word) => *word |= bit,
            None => self.grow(slot),
        }
        self.entries.push(entity);
    }

    /// Cover `slot` with the fresh bits and set its bit; out of the marking path.
    #[cold]
    fn grow(&mut self, slot: usize) {
        self.fresh.resize(slot / 64 + 1, 0);
        self.fresh[slot / 64] |= 1 << (slot % 64);
    }

    /// Number of entries (the position one past the newest).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Where a system added now starts reading: the fresh part's start.
    pub(crate) fn fresh_from(&self) -> usize {
        self.fresh_from
    }

    /// End the fresh part: a system has read every entry, so a later mark of any entity must be
    /// logged again. Clears the bits of the fresh entries, or every bit when that is cheaper.
    fn seal(&mut self) {
        let fresh = &self.entries[self.fresh_from..];
        if fresh.len() * 16 >= self.fresh.len() {
            self.fresh.fill(0);
        } else {
            for e in fresh {
                let slot = e.index() as usize;
                self.fresh[slot / 64] &= !(1 << (slot % 64));
            }
        }
        self.fresh_from = self.entries.len();
    }

    /// Set `dirty`'s bits for the slots of the entries after `cursor`, and move the cursor to
    /// the end. When the cursor is at the fresh part's start, the fresh bits are exactly those
    /// slots: with many entries they are moved over a word at a time.
    pub(crate) fn read_into(&mut self, cursor: &mut usize, dirty: &mut DirtySet) {
        let new = self.entries.len() - *cursor;
        if new == 0 {
            return;
        }
        if *cursor == self.fresh_from && new * 4 >= self.fresh.len() {
            dirty.take_words(&mut self.fresh);
            self.fresh_from = self.entries.len();
        } else {
            for e in &self.entries[*cursor..] {
                dirty.insert(e.index());
            }
            self.seal();
        }
        *cursor = self.entries.len();
    }

    /// Drop the first `n` entries, which every cursor has passed.
    pub(crate) fn compact(&mut self, n: usize) {
        if n == self.entries.len() {
            empty(&mut self.entries);
        } else {
            self.entries.drain(..n);
        }
        self.fresh_from -= n;
    }

    /// Forget everything ([`World::clear`](crate::World::clear)).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.fresh.fill(0);
        self.fresh_from = 0;
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entity>() + self.fresh.capacity() * size_of::<u64>()
    }
}

/// Empty `list`, dropping its allocation if a burst (a level's first update) left it large and
/// the list now uses little of it.
pub(crate) fn empty(list: &mut Vec<Entity>) {
    if list.capacity() > 1 << 16 && list.len() < list.capacity() / 4 {
        *list = Vec::new();
    }
    list.clear();
}

/// One watched component of a system and how far into its change log the system has read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) id: ComponentId,
    pub(crate) cursor: usize,
}

/// A system's dirty slots: a bit per entity slot (leaf words) and a bit per leaf word that may
/// be non-zero (summary words), so that draining reads only the words that were touched.
#[derive(Debug, Default)]
pub(crate) struct DirtySet {
    leaves: Vec<u64>,
    summary: Vec<u64>,
    /// Number of bits set in `leaves`.
    len: usize,
}

impl DirtySet {
    /// Set `slot`'s bit.
    #[inline]
    pub(crate) fn insert(&mut self, slot: u32) {
        let w = slot as usize / 64;
        if w >= self.leaves.len() {
            self.grow(w);
        }
        let bit = 1u64 << (slot % 64);
        let leaf = &mut self.leaves[w];
        if *leaf & bit == 0 {
            *leaf |= bit;
            self.summary[w / 64] |= 1 << (w % 64);
            self.len += 1;
        }
    }

    /// Cover leaf word `w` (doubling, so growing slot by slot stays amortized O(1)).
    #[cold]
    fn grow(&mut self, w: usize) {
        let words = (w + 1).max(self.leaves.len() * 2);
        self.leaves.resize(words, 0);
        self.summary.resize(words.div_ceil(64), 0);
    }

    /// Set the bits set in `words` (a bit per slot, as in the leaves), zeroing `words`.
    fn take_words(&mut self, words: &mut [u64]) {
        if words.len() > self.leaves.len() {
            self.grow(words.len() - 1);
        }
        for (w, word) in words.iter_mut().enumerate() {
            let bits = std::mem::take(word);
            if bits != 0 {
                self.len += (bits & !self.leaves[w]).count_ones() as usize;
                self.leaves[w] |= bits;
                self.summary[w / 64] |= 1 << (w % 64);
            }
        }
    }

    /// Whether every slot in `slots` has its bit set, checked a word at a time.
    pub(crate) fn covers(&self, slots: std::ops::Range<u32>) -> bool {
        let (lo, hi) = (slots.start as usize, slots.end as usize);
        slots.is_empty()
            || (lo / 64..hi.div_ceil(64)).all(|w| {
                let (from, to) = (lo.max(w * 64) - w * 64, hi.min(w * 64 + 64) - w * 64);
                let mask = (u64::MAX >> (64 - (to - from))) << from;
                self.leaves.get(w).is_some_and(|&leaf| leaf & mask == mask)
            })
    }

    /// Make room for the bits of slots below `slot_end`, exactly.
    pub(crate) fn reserve(&mut self, slot_end: u32) {
        let words = (slot_end as usize).div_ceil(64);
        if words > self.leaves.len() {
            self.leaves.reserve_exact(words - self.leaves.len());
            self.leaves.resize(words, 0);
            let summary = words.div_ceil(64);
            self.summary
                .reserve_exact(summary.saturating_sub(self.summary.len()));
            self.summary.resize(summary, 0);
        }
    }

    /// Clear `slot`'s bit.
    #[inline]
    pub(crate) fn remove(&mut self, slot: u32) {
        let bit = 1u64 << (slot % 64);
        if let Some(leaf) = self.leaves.get_mut(slot as usize / 64)
            && *leaf & bit != 0
        {
            *leaf &= !bit;
            self.len -= 1;
        }
    }

    /// Whether no bit is set.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append, in slot order, the member of `tracked` in each set slot (skipping the slots it
    /// has none in), and clear every bit.
    pub(crate) fn drain_into(&mut self, tracked: &EntitySet, out: &mut Vec<Entity>) {
        out.reserve(self.len);
        self.drain(Some(|slot| out.extend(tracked.in_slot(slot))));
    }

    /// Clear every bit: the touched words only, a word at a time.
    pub(crate) fn clear(&mut self) {
        self.drain(None::<fn(u32)>);
    }

    /// Call `f` with each set slot, in ascending order, zeroing the words read.
    #[inline]
    fn drain(&mut self, mut f: Option<impl FnMut(u32)>) {
        // No bit set: stale summary bits (of removed slots) wait for a drain with bits.
        let summary = if self.len == 0 { 0 } else { self.summary.len() };
        for s in 0..summary {
            let mut words = std::mem::take(&mut self.summary[s]);
            while words != 0 {
                let w = s * 64 + words.trailing_zeros() as usize;
                words &= words - 1;
                let mut leaf = std::mem::take(&mut self.leaves[w]);
                while let Some(f) = f.as_mut()
                    && leaf != 0
                {
                    f((w * 64) as u32 + leaf.trailing_zeros());
                    leaf &= leaf - 1;
                }
            }
        }
        self.len = 0;
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.leaves.capacity() + self.summary.capacity()) * size_of::<u64>()
    }
}

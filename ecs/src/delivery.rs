//! Delivery: how a watching system receives its dirty entities, in slot order, each once
//! (ecs/DESIGN.md, "Delivery", draws it).

use crate::Entity;
use crate::entity_set::EntitySet;

/// Empty `list`, dropping its allocation if a burst (a level's first update) left it large and
/// the list now uses little of it.
pub(crate) fn empty(list: &mut Vec<Entity>) {
    if list.capacity() > 1 << 16 && list.len() < list.capacity() / 4 {
        *list = Vec::new();
    }
    list.clear();
}

/// A system's dirty slots: a bit per entity slot (leaf words) and a bit per leaf word that may
/// be non-zero (summary words), so that draining reads only the words that were touched. The
/// leaves start at the word of the lowest slot ever set (rounded down to a summary word's
/// span): a set of late slots (the player, past ten million crates) has no words before them.
#[derive(Debug, Default)]
pub(crate) struct DirtySet {
    leaves: Vec<u64>,
    summary: Vec<u64>,
    /// The word number (slot / 64) of `leaves[0]`, a multiple of 64.
    first: usize,
    /// Number of bits set in `leaves`.
    len: usize,
    /// The summary words that may be non-zero (a drain reads only these).
    touched: std::ops::Range<usize>,
}

/// Leaf words a drained set keeps; a larger one (a burst: a level's first update) is freed.
const KEEP_WORDS: usize = 1 << 15; // 2,097,152 slots, 256 KB

impl DirtySet {
    /// Set `slot`'s bit; returns whether it was clear.
    #[inline(always)]
    pub(crate) fn insert(&mut self, slot: u32) -> bool {
        let bit = 1u64 << (slot % 64);
        let i = (slot as usize / 64).wrapping_sub(self.first);
        let Some(leaf) = self.leaves.get_mut(i) else {
            return self.insert_in_new_word(slot);
        };
        let old = std::mem::replace(leaf, *leaf | bit);
        if old == 0 {
            self.summarize(i); // a non-zero leaf has its summary bit
        }
        self.len += usize::from(old & bit == 0);
        old & bit == 0
    }

    /// [`DirtySet::insert`] for a slot whose leaf word is not covered yet.
    #[inline(never)]
    fn insert_in_new_word(&mut self, slot: u32) -> bool {
        self.cover(slot as usize / 64);
        self.insert(slot)
    }

    /// Set the bits set in `bits` in word number `w`.
    pub(crate) fn insert_word(&mut self, w: usize, bits: u64) {
        let i = self.cover(w);
        self.len += (bits & !self.leaves[i]).count_ones() as usize;
        self.leaves[i] |= bits;
        self.summarize(i);
    }

    /// Set the summary bit of `leaves[i]`, widening the touched range to its summary word.
    #[inline(always)]
    fn summarize(&mut self, i: usize) {
        let s = i / 64;
        self.summary[s] |= 1 << (i % 64);
        if self.touched.is_empty() {
            self.touched = s..s + 1;
        } else {
            self.touched.start = self.touched.start.min(s);
            self.touched.end = self.touched.end.max(s + 1);
        }
    }

    /// The index in `leaves` of word number `w`, growing to cover it.
    #[inline]
    fn cover(&mut self, w: usize) -> usize {
        let i = w.wrapping_sub(self.first);
        if i >= self.leaves.len() {
            return self.grow(w);
        }
        i
    }

    /// Cover word number `w`; downwards by at least the length, so moves stay amortized O(1).
    #[cold]
    fn grow(&mut self, w: usize) -> usize {
        let low = w / 64 * 64;
        if self.leaves.is_empty() {
            self.first = low;
        } else if low < self.first {
            let first = low.min(self.first.saturating_sub(self.leaves.len()) / 64 * 64);
            let added = self.first - first;
            self.leaves.splice(0..0, std::iter::repeat_n(0, added));
            self.summary
                .splice(0..0, std::iter::repeat_n(0, added / 64));
            self.first = first;
            if !self.touched.is_empty() {
                let shift = added / 64;
                self.touched = self.touched.start + shift..self.touched.end + shift;
            }
        }
        let words = (w + 1 - self.first).max(self.leaves.len());
        self.leaves.resize(words, 0);
        self.summary.resize(words.div_ceil(64), 0);
        w - self.first
    }

    /// Whether every slot in `slots` has its bit set, checked a word at a time.
    pub(crate) fn covers(&self, slots: std::ops::Range<u32>) -> bool {
        let (lo, hi) = (slots.start as usize, slots.end as usize);
        slots.is_empty()
            || (lo / 64..hi.div_ceil(64)).all(|w| {
                let (from, to) = (lo.max(w * 64) - w * 64, hi.min(w * 64 + 64) - w * 64);
                let mask = (u64::MAX >> (64 - (to - from))) << from;
                let leaf = self.leaves.get(w.wrapping_sub(self.first));
                leaf.is_some_and(|&leaf| leaf & mask == mask)
            })
    }

    /// Make room for the bits of the slots in `slots` (exactly, in a set that had none).
    pub(crate) fn reserve(&mut self, slots: std::ops::Range<u32>) {
        if let Some(last) = slots.end.checked_sub(1) {
            self.cover(slots.start as usize / 64);
            self.cover(last as usize / 64);
        }
    }

    /// Clear `slot`'s bit.
    #[inline]
    pub(crate) fn remove(&mut self, slot: u32) {
        let bit = 1u64 << (slot % 64);
        let i = (slot as usize / 64).wrapping_sub(self.first);
        if let Some(leaf) = self.leaves.get_mut(i)
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
        self.drain_words(|w, mut leaf| {
            while leaf != 0 {
                out.extend(tracked.in_slot((w * 64) as u32 + leaf.trailing_zeros()));
                leaf &= leaf - 1;
            }
        });
    }

    /// Clear every bit: the touched words only, a word at a time.
    pub(crate) fn clear(&mut self) {
        self.drain_words(|_, _| {});
    }

    /// Call `f` with the number and bits of each non-zero leaf word, in ascending order,
    /// zeroing the words read.
    #[inline]
    pub(crate) fn drain_words(&mut self, mut f: impl FnMut(usize, u64)) {
        if self.len == 0 {
            return; // stale summary bits (of removed slots) wait for a drain with bits
        }
        for s in std::mem::take(&mut self.touched) {
            let mut words = std::mem::take(&mut self.summary[s]);
            while words != 0 {
                let i = s * 64 + words.trailing_zeros() as usize;
                words &= words - 1;
                f(self.first + i, std::mem::take(&mut self.leaves[i]));
            }
        }
        self.len = 0;
        if self.leaves.len() > KEEP_WORDS {
            *self = Self::default();
        }
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.leaves.capacity() + self.summary.capacity()) * size_of::<u64>()
    }
}

//! Change logs: one per watched component type, shared by every system that watches it, and the
//! bit sets over entity slots that deduplicate marks and sparse deliveries.

use crate::Entity;

/// One bit per entity slot. Grows on demand; unset bits past the end read as zero.
#[derive(Clone, Debug, Default)]
pub(crate) struct SlotBits {
    words: Vec<u64>,
}

impl SlotBits {
    /// Set `slot`'s bit; returns whether it was already set.
    #[inline]
    pub(crate) fn test_and_set(&mut self, slot: u32) -> bool {
        let bit = 1u64 << (slot % 64);
        match self.words.get_mut(slot as usize / 64) {
            Some(word) => {
                let was = *word & bit != 0;
                *word |= bit;
                was
            }
            None => {
                self.grow_to(slot);
                false
            }
        }
    }

    /// Grow to cover `slot` and set its bit; kept out of the marking path.
    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, slot: u32) {
        self.words.resize(slot as usize / 64 + 1, 0);
        self.words[slot as usize / 64] |= 1u64 << (slot % 64);
    }

    /// Set `slot`'s bit.
    #[inline]
    pub(crate) fn set(&mut self, slot: u32) {
        self.test_and_set(slot);
    }

    /// Clear `slot`'s bit.
    #[inline]
    pub(crate) fn clear(&mut self, slot: u32) {
        if let Some(w) = self.words.get_mut(slot as usize / 64) {
            *w &= !(1u64 << (slot % 64));
        }
    }

    /// Clear every bit, keeping the allocation.
    pub(crate) fn clear_all(&mut self) {
        self.words.fill(0);
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.words.capacity() * size_of::<u64>()
    }

    /// Put `words` in place of the set's words (bit `i % 64` of word `i / 64` for slot `i`)
    /// and return those.
    pub(crate) fn replace_words(&mut self, words: Vec<u64>) -> Vec<u64> {
        std::mem::replace(&mut self.words, words)
    }

    /// Number of 64-bit words; clearing them all costs about as much as clearing this many
    /// bits one by one.
    #[inline]
    pub(crate) fn word_count(&self) -> usize {
        self.words.len()
    }
}

/// Most elements an emptied buffer keeps room for: a burst (the first update of a large level,
/// where everything is new) does not keep megabytes per buffer for the rest of the run.
pub(crate) const KEPT_CAPACITY: usize = 1 << 16;

/// Whether a buffer with room for `capacity` elements, of which it just used `used`, is
/// oversized: past [`KEPT_CAPACITY`] and four times what it used (so a buffer that a steady
/// workload fills every update keeps its room).
#[inline]
pub(crate) fn oversized(capacity: usize, used: usize) -> bool {
    capacity > KEPT_CAPACITY && capacity / 4 > used
}

/// Give back the memory of an emptied `buffer` that is [`oversized`] for the `used` elements
/// it held.
#[inline]
pub(crate) fn release_if_oversized<T>(buffer: &mut Vec<T>, used: usize) {
    if buffer.is_empty() && oversized(buffer.capacity(), used) {
        *buffer = Vec::new();
    }
}

/// What changed in one watched column, shared by every system that watches it.
///
/// Marks append to `entries`; each watching system keeps a cursor into it (in the world) and
/// on its run receives the entries from its cursor to the end. Entries are never removed one by
/// one: a despawned entity's entry stays and is filtered out at delivery (the system's tracked
/// set only holds live handles). Once every cursor has passed an entry the world compacts it
/// away.
///
/// ```text
///                  fresh_from
///                      v
/// entries: [ a b c d | e f ]   `e f`: no system has received them; a mark of e or f is a no-op
///            ^         ^
///   cursor of S1       cursor of S2 (it ran after S1 and after the marks of c and d)
/// ```
///
/// Within the fresh part each entity appears at most once (the `fresh` bits dedupe marks); a
/// system whose cursor is before `fresh_from` may find an entity twice and dedupes on delivery.
#[derive(Debug, Default)]
pub(crate) struct ChangeLog {
    pub(crate) entries: Vec<Entity>,
    /// Start of the entries no system has received yet.
    pub(crate) fresh_from: usize,
    /// Start of the part sealed last (it ends at `fresh_from`): within it too each entity
    /// appears at most once.
    sealed_from: usize,
    /// Slots with an entry at or after `fresh_from`, while `fresh_bits`; while not, no bit is
    /// set and the fresh part is made of the ascending runs `runs` describes (so each entity in
    /// it is there once).
    fresh: SlotBits,
    fresh_bits: bool,
    runs: Runs,
    /// Every entity in the column counts as changed ([`Column::values_mut`]): recorded in O(1)
    /// and expanded to the column's entities before the next delivery.
    ///
    /// [`Column::values_mut`]: crate::Column::values_mut
    pub(crate) all: bool,
    /// Length of `entries` while it is lent (meanwhile marks go to the borrower's buffer).
    lent: Option<usize>,
    /// `entries[ascending_from..]` is in strictly ascending slot order (so it also holds each
    /// entity once). Writes in memory order, the common case of a dense update, log changes
    /// already in slot order, and a delivery can then skip the bit set. Kept with one compare
    /// per mark.
    ascending_from: usize,
    /// `ascending_from` of the lent entries, while they are lent.
    lent_ascending_from: usize,
    /// Every entity of `entries[present_from..]` is still in the column, under the same handle:
    /// it was there when it was marked, and nothing left the column since. A removal or a
    /// despawn moves this to the end ([`ChangeLog::note_removal`]).
    present_from: usize,
    /// `present_from` of the lent entries, while they are lent.
    lent_present_from: usize,
    /// Whether something left the column while the entries were lent.
    removed_while_lent: bool,
}

/// The runs of a fresh part marked without bits: strictly ascending runs of slots, each wholly
/// below the run before it. The default (also after a seal) extends nothing, so the first mark
/// of a fresh part starts its first run.
#[derive(Clone, Copy, Debug, Default)]
struct Runs {
    /// First slot of the current run: the lowest of the fresh part.
    start: u32,
    /// Last slot of the current run.
    last: u32,
    /// First slot of the run before: every earlier run is at or above it.
    ceiling: u32,
}

impl ChangeLog {
    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entity>() + self.fresh.heap_bytes()
    }

    /// Record that `entity`'s component changed.
    ///
    /// While the fresh part is made of ascending runs, each wholly below the one before (writes
    /// in memory order, the common case of a dense update; in reverse order, each run one
    /// entry; wrapping around, two runs), a mark that extends the current run or starts a new
    /// one below everything is new by construction: it is appended without touching the bit
    /// set. The first mark that does neither sets the bits of the fresh part once, and from
    /// then on until [`ChangeLog::seal`] every mark goes through the bits.
    #[inline(always)]
    pub(crate) fn mark(&mut self, entity: Entity) {
        let slot = entity.index();
        let runs = &mut self.runs;
        if self.fresh_bits {
            self.mark_otherwise(entity);
        } else if slot > runs.last && slot < runs.ceiling {
            // Extends the current run: above its last entry, below every earlier run.
            runs.last = slot;
            self.entries.push(entity);
        } else if slot < runs.start && self.entries.len() != self.fresh_from {
            // A new run, below every entry of the fresh part (so below the last one).
            *runs = Runs {
                start: slot,
                last: slot,
                ceiling: runs.start,
            };
            self.ascending_from = self.entries.len();
            self.entries.push(entity);
        } else {
            self.mark_otherwise(entity);
        }
    }

    /// [`ChangeLog::mark`] when the mark neither extends the current run nor starts a new one
    /// below it: the first run of a fresh part, or a mark through the bits.
    #[inline(always)]
    fn mark_otherwise(&mut self, entity: Entity) {
        if !self.fresh_bits {
            let slot = entity.index();
            let runs = &mut self.runs;
            let len = self.entries.len();
            if len == self.fresh_from {
                // The first run of the fresh part.
                *runs = Runs {
                    start: slot,
                    last: slot,
                    ceiling: u32::MAX,
                };
                if self.entries.last().is_some_and(|last| last.index() >= slot) {
                    self.ascending_from = len;
                }
                self.entries.push(entity);
                return;
            }
            if slot < runs.start {
                // A new run, below every entry of the fresh part (so below the last one).
                *runs = Runs {
                    start: slot,
                    last: slot,
                    ceiling: runs.start,
                };
                self.ascending_from = len;
                self.entries.push(entity);
                return;
            }
            self.fill_fresh_bits();
        }
        if !self.fresh.test_and_set(entity.index()) {
            if self
                .entries
                .last()
                .is_some_and(|last| last.index() >= entity.index())
            {
                self.ascending_from = self.entries.len();
            }
            self.entries.push(entity);
        }
    }

    /// Set the bit of every fresh entry, so that marks can be deduplicated by the bits.
    #[cold]
    #[inline(never)]
    fn fill_fresh_bits(&mut self) {
        self.fresh_bits = true;
        for e in &self.entries[self.fresh_from..] {
            self.fresh.set(e.index());
        }
    }

    /// Whether nothing was marked after position `cursor`.
    #[inline]
    pub(crate) fn is_empty_after(&self, cursor: usize) -> bool {
        !self.all && self.entries.len() == cursor
    }

    /// Start a new fresh part: everything logged so far has now been received by some system.
    pub(crate) fn seal(&mut self) {
        if self.fresh_from == self.entries.len() {
            return;
        }
        // No run extends into the next fresh part (`Runs::default()` extends nothing).
        self.runs = Runs::default();
        if !std::mem::take(&mut self.fresh_bits) {
            self.sealed_from = self.fresh_from;
            self.fresh_from = self.entries.len();
            return;
        }
        let fresh = &self.entries[self.fresh_from..];
        // Clearing a bit is a dependent read-modify-write; clearing a word, a quarter of a
        // vector store.
        if fresh.len() * 4 > self.fresh.word_count() {
            self.fresh.clear_all();
        } else {
            for e in fresh {
                self.fresh.clear(e.index());
            }
        }
        self.sealed_from = self.fresh_from;
        self.fresh_from = self.entries.len();
    }

    /// [`ChangeLog::seal`], handing out the fresh part's bits (a bit for the slot of each of
    /// its entries) instead of clearing them: `zeroed`, all zero, takes their place.
    pub(crate) fn seal_taking_bits(&mut self, zeroed: Vec<u64>) -> Vec<u64> {
        // A fresh part marked in runs has no bits yet: set them (what the marks would have).
        if !self.fresh_bits {
            self.fill_fresh_bits();
        }
        self.fresh_bits = false;
        self.runs = Runs::default();
        let bits = self.fresh.replace_words(zeroed);
        self.sealed_from = self.fresh_from;
        self.fresh_from = self.entries.len();
        bits
    }

    /// Whether the entries from `cursor` on hold each entity at most once: they lie within one
    /// part (the fresh one, or the one sealed last with nothing marked since).
    #[inline]
    pub(crate) fn unique_from(&self, cursor: usize) -> bool {
        cursor >= self.fresh_from
            || (cursor >= self.sealed_from && self.fresh_from == self.entries.len())
    }

    /// Whether the entries from `cursor` on are in strictly ascending slot order: each entity
    /// once, in memory order, as a dense delivery would hand them out.
    #[inline]
    pub(crate) fn ascending_from(&self, cursor: usize) -> bool {
        cursor >= self.ascending_from
    }

    /// Record that an entity left the column (its component removed, or it was despawned):
    /// the entries so far may name it.
    #[inline]
    pub(crate) fn note_removal(&mut self) {
        self.present_from = self.entries.len();
        self.removed_while_lent |= self.lent.is_some();
    }

    /// Whether every entity of the entries from `cursor` on is still in the column.
    #[inline]
    pub(crate) fn present_from(&self, cursor: usize) -> bool {
        cursor >= self.present_from
    }

    /// Drop the first `n` entries (every cursor is at or past `n`).
    pub(crate) fn compact(&mut self, n: usize) {
        if n == self.entries.len() {
            self.entries.clear();
            release_if_oversized(&mut self.entries, n);
        } else {
            self.entries.drain(..n);
        }
        self.fresh_from -= n;
        self.ascending_from = self.ascending_from.saturating_sub(n);
        self.present_from = self.present_from.saturating_sub(n);
        // A cursor past the sealed part's start still reads a suffix of that part.
        self.sealed_from = self.sealed_from.saturating_sub(n);
    }

    /// Forget everything ([`World::clear`](crate::World::clear)).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.fresh.clear_all();
        self.fresh_bits = false;
        self.runs = Runs::default();
        self.fresh_from = 0;
        self.sealed_from = 0;
        self.ascending_from = 0;
        self.present_from = 0;
        self.all = false;
    }

    /// Lend the (sealed) entries to a running system by swapping them with its empty buffer
    /// `into`, which collects the marks made meanwhile.
    pub(crate) fn lend(&mut self, into: &mut Vec<Entity>) {
        debug_assert!(self.lent.is_none() && self.fresh_from == self.entries.len());
        debug_assert!(into.is_empty());
        self.lent = Some(self.entries.len());
        self.lent_ascending_from = std::mem::take(&mut self.ascending_from);
        self.lent_present_from = std::mem::take(&mut self.present_from);
        self.removed_while_lent = false;
        self.fresh_from = 0;
        std::mem::swap(&mut self.entries, into);
    }

    /// Take back what [`ChangeLog::lend`] lent, appending the marks made meanwhile, and leave
    /// the borrower's buffer empty.
    pub(crate) fn give_back(&mut self, lent: &mut Vec<Entity>) {
        let len = self.lent.take().expect("the log was lent");
        debug_assert_eq!(lent.len(), len);
        // Marks made meanwhile follow the lent entries: the joined log ascends from where the
        // lent part did only if the meanwhile part ascends throughout and starts above it.
        self.ascending_from = match (lent.last(), self.entries.first()) {
            (_, None) => self.lent_ascending_from,
            (Some(last), Some(first))
                if self.ascending_from == 0 && last.index() < first.index() =>
            {
                self.lent_ascending_from
            }
            _ => len + self.ascending_from,
        };
        // A removal while lent may concern any lent entry; the marks made after it are fine.
        self.present_from = if std::mem::take(&mut self.removed_while_lent) {
            len + self.present_from
        } else {
            self.lent_present_from
        };
        lent.extend_from_slice(&self.entries);
        std::mem::swap(&mut self.entries, lent);
        lent.clear();
        self.fresh_from += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32) -> Entity {
        Entity::from_bits((1u64 << 32) | index as u64).unwrap()
    }

    #[test]
    fn marks_are_deduplicated_within_the_fresh_part_only() {
        let mut log = ChangeLog::default();
        log.mark(e(3));
        log.mark(e(3));
        log.mark(e(70));
        assert_eq!(log.entries, [e(3), e(70)]);
        log.seal();
        log.mark(e(3));
        assert_eq!(log.entries, [e(3), e(70), e(3)], "a new fresh part");
        assert!(log.unique_from(2) && !log.unique_from(0), "3 twice from 0");
        log.seal();
        assert!(
            log.unique_from(2),
            "the part sealed last, nothing marked since"
        );
        log.compact(2);
        assert_eq!((log.entries.as_slice(), log.fresh_from), (&[e(3)][..], 1));
    }

    #[test]
    fn ascending_marks_skip_the_bits_until_one_descends() {
        let mut log = ChangeLog::default();
        for i in [1, 5, 9] {
            log.mark(e(i));
        }
        assert_eq!(log.fresh.word_count(), 0, "no bit touched");
        assert!(log.ascending_from(0));
        log.mark(e(5));
        log.mark(e(3));
        log.mark(e(9));
        log.mark(e(3));
        assert_eq!(log.entries, [e(1), e(5), e(9), e(3)]);
        assert!(!log.ascending_from(0) && log.ascending_from(3));
        log.seal();
        log.mark(e(2));
        log.mark(e(3));
        log.mark(e(3));
        assert_eq!(log.entries[4..], [e(2), e(3)]);
        assert!(log.unique_from(4) && log.ascending_from(4));
    }

    #[test]
    fn descending_and_wrapping_marks_skip_the_bits_too() {
        let mut log = ChangeLog::default();
        for i in [9, 5, 1] {
            log.mark(e(i));
        }
        log.seal();
        for i in [5, 6, 7, 1, 2, 3] {
            log.mark(e(i));
        }
        assert_eq!(log.fresh.word_count(), 0, "no bit touched");
        assert!(log.unique_from(3));
        for i in [2, 6, 4, 7] {
            log.mark(e(i));
        }
        assert_eq!(
            log.entries[3..],
            [e(5), e(6), e(7), e(1), e(2), e(3), e(4)],
            "2, 6 and 7 deduplicated by the bits"
        );
    }

    #[test]
    fn lending_keeps_marks_made_meanwhile_in_order() {
        let mut log = ChangeLog::default();
        log.mark(e(1));
        log.seal();
        let mut lent = Vec::new();
        log.lend(&mut lent);
        assert_eq!(lent, [e(1)]);
        log.mark(e(2));
        log.mark(e(1));
        log.give_back(&mut lent);
        assert!(lent.is_empty());
        assert_eq!(log.entries, [e(1), e(2), e(1)]);
        assert_eq!(log.fresh_from, 1);
        log.mark(e(2));
        assert_eq!(log.entries.len(), 3, "2 is still fresh");
    }
}

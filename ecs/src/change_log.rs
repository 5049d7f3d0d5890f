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
        let w = slot as usize / 64;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let bit = 1u64 << (slot % 64);
        let was = self.words[w] & bit != 0;
        self.words[w] |= bit;
        was
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
    /// Slots with an entry at or after `fresh_from`.
    fresh: SlotBits,
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

impl ChangeLog {
    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entity>() + self.fresh.heap_bytes()
    }

    /// Record that `entity`'s component changed.
    #[inline]
    pub(crate) fn mark(&mut self, entity: Entity) {
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

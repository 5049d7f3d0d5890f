//! Change logs: one per watched component type, shared by every system that watches it, and the
//! bit sets over entity slots that deduplicate marks and put dense deliveries in memory order.

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

    /// Number of 64-bit words; clearing them all costs about as much as clearing this many
    /// bits one by one.
    #[inline]
    pub(crate) fn word_count(&self) -> usize {
        self.words.len()
    }

    /// Visit every set slot in ascending order, clearing the bits as it goes.
    #[inline]
    pub(crate) fn drain_ascending(&mut self, mut visit: impl FnMut(u32)) {
        for (w, word) in self.words.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                visit((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
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
}

impl ChangeLog {
    /// Record that `entity`'s component changed.
    #[inline]
    pub(crate) fn mark(&mut self, entity: Entity) {
        if !self.fresh.test_and_set(entity.index()) {
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

    /// Whether the entries from `cursor` on hold each entity at most once: they lie within one
    /// part (the fresh one, or the one sealed last with nothing marked since).
    #[inline]
    pub(crate) fn unique_from(&self, cursor: usize) -> bool {
        cursor >= self.fresh_from
            || (cursor >= self.sealed_from && self.fresh_from == self.entries.len())
    }

    /// Drop the first `n` entries (every cursor is at or past `n`).
    pub(crate) fn compact(&mut self, n: usize) {
        if n == self.entries.len() {
            self.entries.clear();
        } else {
            self.entries.drain(..n);
        }
        self.fresh_from -= n;
        // A cursor past the sealed part's start still reads a suffix of that part.
        self.sealed_from = self.sealed_from.saturating_sub(n);
    }

    /// Forget everything ([`World::clear`](crate::World::clear)).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.fresh.clear_all();
        self.fresh_from = 0;
        self.sealed_from = 0;
        self.all = false;
    }

    /// Lend the (sealed) entries to a running system by swapping them with its empty buffer
    /// `into`, which collects the marks made meanwhile.
    pub(crate) fn lend(&mut self, into: &mut Vec<Entity>) {
        debug_assert!(self.lent.is_none() && self.fresh_from == self.entries.len());
        debug_assert!(into.is_empty());
        self.lent = Some(self.entries.len());
        self.fresh_from = 0;
        std::mem::swap(&mut self.entries, into);
    }

    /// Take back what [`ChangeLog::lend`] lent, appending the marks made meanwhile, and leave
    /// the borrower's buffer empty.
    pub(crate) fn give_back(&mut self, lent: &mut Vec<Entity>) {
        let len = self.lent.take().expect("the log was lent");
        debug_assert_eq!(lent.len(), len);
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

    #[test]
    fn slot_bits_drain_in_ascending_order() {
        let mut bits = SlotBits::default();
        for slot in [130, 2, 64, 2] {
            bits.set(slot);
        }
        let mut seen = Vec::new();
        bits.drain_ascending(|s| seen.push(s));
        assert_eq!(seen, [2, 64, 130]);
        assert!(!bits.test_and_set(64), "drained");
    }
}

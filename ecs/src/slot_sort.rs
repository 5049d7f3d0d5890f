//! Putting a dense delivery in slot (memory) order, below one change per eight slots without a
//! lookup per entity in a table with an entry per slot (at a million entities each such table
//! is megabytes, and walking one more of them costs the reader as much as its own reads).
//! A run's dense delivery whose handles are all known to be tracked is a bit per slot instead
//! (`world/delivery.rs`); this sort serves the others, and `World::system_entities`.
//!
//! - Changes made in one sweep through memory, forwards or backwards, or in a few sweeps, are
//!   put in order by a copy, a reversed copy or a merge of the sweeps.
//! - Otherwise, from one handle per eight slots, a bit set over the slots and a scan of it that
//!   hands out each set slot's tracked member (the tracked set walked forwards).
//! - Otherwise, when each entity occurs once (the common case: one watched component), a
//!   counting sort on the high bits of the slot groups the handles by ranges of slots, and
//!   each group is put in order through a small table with an entry per slot of its range:
//!   a few passes over the handles, whatever their order, all within the first-level cache,
//!   and no lookup to get a generation back.
//! - Otherwise (an entity may occur several times), a least-significant-digit radix sort of the
//!   handles, after which one pass drops duplicates and untracked handles.

use crate::Entity;
use crate::entity_set::EntitySet;

/// How [`SlotSorter::sort_into`] left its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sorted {
    /// In slot order; an entity may occur twice, or untracked.
    Loose,
    /// Strictly ascending: no entity twice.
    Strict,
    /// Strictly ascending, and every handle is a member of the tracked set.
    Tracked,
}

/// Fewest handles per slot (as 1 / this) from which, in change order, a scan of a bit set over
/// all the slots, each set slot's handle read from the tracked set, costs less than grouping
/// the handles by slot range.
const SCAN_FROM: usize = 8;

/// Widest digit while the handles fit in the caches (at most [`CACHED_HANDLES`]): 2,048
/// buckets, so a million slots take two passes.
const MAX_DIGIT_BITS_CACHED: u32 = 11;
/// Widest digit for more handles: 256 buckets, few enough streams for a pass to scatter
/// through the write-combining buffers and the TLB (with 2,048 buckets a pass over a million
/// handles costs several times more).
const MAX_DIGIT_BITS: u32 = 8;
/// Most handles (2 MB of them) sorted with the wider digits.
const CACHED_HANDLES: usize = 1 << 18;

/// Handles in change order are grouped into at most 2^`GROUP_BITS` ranges of slots before
/// being put in order range by range.
const GROUP_BITS: u32 = 8;

/// Fewest descents (places where the slot index goes down) for which the radix sort beats
/// merging the ascending runs.
const MAX_RUNS_TO_MERGE: usize = 8;

/// Reusable buffers for [`SlotSorter::sort`].
#[derive(Debug, Default)]
pub(crate) struct SlotSorter {
    spare: Vec<Entity>,
    counts: Vec<u32>,
    /// One bit per entry of `table`.
    bits: Vec<u64>,
    /// One group's handles, by slot within the group's range.
    table: Vec<Entity>,
    /// One bit per slot, for the scan; all zero between sorts.
    slots: Vec<u64>,
}

impl SlotSorter {
    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.spare.capacity() + self.table.capacity()) * size_of::<Entity>()
            + self.counts.capacity() * size_of::<u32>()
            + (self.bits.capacity() + self.slots.capacity()) * size_of::<u64>()
    }

    /// Lend the bit set over the slots, all zero, with room for `slot_count` slots.
    pub(crate) fn take_slots(&mut self, slot_count: usize) -> Vec<u64> {
        let mut slots = std::mem::take(&mut self.slots);
        let words = slot_count.div_ceil(64);
        if slots.len() < words {
            slots.resize(words, 0);
        }
        slots
    }

    /// Take back what [`SlotSorter::take_slots`] lent, all zero again.
    pub(crate) fn give_back_slots(&mut self, slots: Vec<u64>) {
        debug_assert!(slots.iter().all(|&w| w == 0));
        self.slots = slots;
    }

    /// Put the handles of `parts` (in order, as if joined) into `out` sorted by slot index,
    /// stably (handles of one slot keep their relative order), every index being below
    /// `slot_count`. `unique`: no entity occurs twice in the joined parts. Returns whether
    /// `out` is strictly ascending (no entity twice) without a further check.
    ///
    /// With `tracked`, a delivery in change order of at least one handle per [`SCAN_FROM`]
    /// slots goes through a scan of a bit set over the slots instead, each set slot's handle
    /// read from `tracked` (a handle whose slot a newer tracked entity took is replaced by
    /// it: that one became tracked after the change, so it is a candidate too).
    pub(crate) fn sort_into(
        &mut self,
        parts: &[&[Entity]],
        unique: bool,
        tracked: Option<&EntitySet>,
        out: &mut Vec<Entity>,
        slot_count: usize,
    ) -> Sorted {
        let strict = |s: bool| if s { Sorted::Strict } else { Sorted::Loose };
        out.clear();
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let (mut descents, mut ascents) = (0, 0);
        let mut last: Option<u32> = None;
        for part in parts.iter().filter(|p| !p.is_empty()) {
            if let Some(last) = last {
                descents += usize::from(part[0].index() < last);
                ascents += usize::from(part[0].index() > last);
            }
            for pair in part.windows(2) {
                descents += usize::from(pair[1].index() < pair[0].index());
                ascents += usize::from(pair[1].index() > pair[0].index());
            }
            last = part.last().map(|e| e.index());
        }
        // Writes that walked memory in one direction, or in a few sweeps, need no radix sort.
        if descents == 0 {
            for part in parts {
                out.extend_from_slice(part);
            }
            return strict(ascents + 1 >= len);
        }
        if ascents == 0 && descents + 1 == len {
            for part in parts.iter().rev() {
                out.extend(part.iter().rev());
            }
            return Sorted::Strict;
        }
        if descents < MAX_RUNS_TO_MERGE {
            // No two neighbours share a slot: then sweeps over disjoint ranges join strictly.
            let distinct = ascents + descents + 1 == len;
            return strict(join_runs(parts, out) && distinct);
        }
        if let Some(tracked) = tracked
            && len * SCAN_FROM >= slot_count
        {
            self.scan(parts, tracked, out, slot_count);
            return Sorted::Tracked;
        }
        if unique {
            self.place_unique(parts, len, out, slot_count);
            return Sorted::Strict;
        }
        self.radix(parts, len, out, slot_count);
        Sorted::Loose
    }

    /// Set a bit per slot of the handles of `parts`, then hand out each set slot's member of
    /// `tracked` in slot order (clearing the bits as it goes).
    fn scan(
        &mut self,
        parts: &[&[Entity]],
        tracked: &EntitySet,
        out: &mut Vec<Entity>,
        slot_count: usize,
    ) {
        let words = slot_count.div_ceil(64);
        if self.slots.len() < words {
            self.slots.resize(words, 0);
        }
        for part in parts {
            for &e in part.iter() {
                self.slots[e.index() as usize / 64] |= 1 << (e.index() % 64);
            }
        }
        for (w, word) in self.slots.iter_mut().enumerate() {
            let mut set = std::mem::take(word);
            while set != 0 {
                if let Some(e) = tracked.in_slot((w * 64) as u32 + set.trailing_zeros()) {
                    out.push(e);
                }
                set &= set - 1;
            }
        }
    }

    /// Put the `len` handles of `parts`, every slot at most once, into `out` in slot order.
    ///
    /// Written straight to their places, handles in change order would store all over `out`
    /// (megabytes: each store a cache miss). So they are first grouped by ranges of slots
    /// (a counting sort on the high bits), into few enough groups that the group fronts stay in
    /// the first-level cache; then each group is placed in a table with an entry per slot of
    /// its range, small enough for that cache too, and read out in slot order through a bit
    /// per entry.
    fn place_unique(
        &mut self,
        parts: &[&[Entity]],
        len: usize,
        out: &mut Vec<Entity>,
        slot_count: usize,
    ) {
        let Some(&first) = parts.iter().find_map(|p| p.first()) else {
            return;
        };
        let bits = usize::BITS - slot_count.saturating_sub(1).leading_zeros();
        let shift = bits.saturating_sub(GROUP_BITS).max(6);
        let groups = (slot_count.saturating_sub(1) >> shift) + 1;
        self.counts.clear();
        self.counts.resize(groups + 1, 0);
        for part in parts {
            for &e in part.iter() {
                self.counts[(e.index() >> shift) as usize + 1] += 1;
            }
        }
        for g in 1..=groups {
            self.counts[g] += self.counts[g - 1];
        }
        self.spare.truncate(len);
        self.spare.resize(len, first);
        for part in parts {
            for &e in part.iter() {
                let g = (e.index() >> shift) as usize;
                self.spare[self.counts[g] as usize] = e;
                self.counts[g] += 1;
            }
        }
        // `counts[g]` is now the end of group g, and the start of group g + 1.
        let width = 1usize << shift;
        self.bits.clear();
        self.bits.resize(width / 64, 0);
        self.table.clear();
        self.table.resize(width, first);
        out.clear();
        let mut start = 0;
        for g in 0..groups {
            let end = self.counts[g] as usize;
            if end == start {
                continue;
            }
            for &e in &self.spare[start..end] {
                let offset = e.index() as usize & (width - 1);
                self.table[offset] = e;
                self.bits[offset / 64] |= 1 << (offset % 64);
            }
            for (w, word) in self.bits.iter_mut().enumerate() {
                let mut set = std::mem::take(word);
                while set != 0 {
                    out.push(self.table[w * 64 + set.trailing_zeros() as usize]);
                    set &= set - 1;
                }
            }
            start = end;
        }
    }

    /// Least-significant-digit radix sort by slot index of the `len` handles of `parts`.
    fn radix(&mut self, parts: &[&[Entity]], len: usize, out: &mut Vec<Entity>, slot_count: usize) {
        let bits = usize::BITS - slot_count.saturating_sub(1).leading_zeros();
        let widest = if len <= CACHED_HANDLES {
            MAX_DIGIT_BITS_CACHED
        } else {
            MAX_DIGIT_BITS
        };
        let passes = bits.div_ceil(widest).max(1);
        let digit_bits = bits.div_ceil(passes).max(1);
        let buckets = 1usize << digit_bits;
        let mask = buckets as u32 - 1;

        // One read for every pass's histogram.
        self.counts.clear();
        self.counts.resize(buckets * passes as usize, 0);
        for part in parts {
            for &e in part.iter() {
                let mut index = e.index();
                for counts in self.counts.chunks_exact_mut(buckets) {
                    counts[(index & mask) as usize] += 1;
                    index >>= digit_bits;
                }
            }
        }
        let Some(&first) = parts.iter().find_map(|p| p.first()) else {
            return;
        };
        // Only grown, never rewritten: every slot is written by a pass before it is read.
        for buffer in [&mut *out, &mut self.spare] {
            buffer.truncate(len);
            buffer.resize(len, first);
        }
        let mut from_parts = true;
        for (pass, counts) in self.counts.chunks_exact_mut(buckets).enumerate() {
            if counts.contains(&(len as u32)) {
                continue; // every handle has the same digit here: the pass would copy
            }
            let mut at = 0;
            for c in counts.iter_mut() {
                let n = *c;
                *c = at;
                at += n;
            }
            let shift = pass as u32 * digit_bits;
            let mut scatter = |e: Entity, to: &mut [Entity]| {
                let d = ((e.index() >> shift) & mask) as usize;
                to[counts[d] as usize] = e;
                counts[d] += 1;
            };
            if from_parts {
                for part in parts {
                    for &e in part.iter() {
                        scatter(e, out);
                    }
                }
                from_parts = false;
            } else {
                for &e in out.iter() {
                    scatter(e, &mut self.spare);
                }
                std::mem::swap(out, &mut self.spare);
            }
        }
        if from_parts {
            out.clear();
            for part in parts {
                out.extend_from_slice(part);
            }
        }
    }
}

/// Put the handles of `parts`, a few ascending runs, into `out` sorted by slot: when the runs
/// cover disjoint ranges of slots (a sweep that wrapped around), by copying them in the order
/// of their ranges; otherwise by a merge. Returns whether the runs were disjoint.
fn join_runs(parts: &[&[Entity]], out: &mut Vec<Entity>) -> bool {
    let mut runs: Vec<&[Entity]> = Vec::with_capacity(MAX_RUNS_TO_MERGE);
    for part in parts.iter().filter(|p| !p.is_empty()) {
        let mut start = 0;
        for i in 1..part.len() {
            if part[i].index() < part[i - 1].index() {
                runs.push(&part[start..i]);
                start = i;
            }
        }
        runs.push(&part[start..]);
    }
    runs.sort_by_key(|r| r[0].index()); // stable: equal starts keep their order
    let disjoint = runs
        .windows(2)
        .all(|w| w[0][w[0].len() - 1].index() < w[1][0].index());
    if disjoint {
        for run in &runs {
            out.extend_from_slice(run);
        }
    } else {
        for part in parts {
            out.extend_from_slice(part);
        }
        out.sort_by_key(|e| e.index()); // stable, and merges the ascending runs
    }
    disjoint
}

/// Keep, of handles sorted by slot, each one `keep` accepts, once.
///
/// A handle may occur several times and beside stale handles of its slot; after the sort,
/// handles of one slot are adjacent, and at most one of them is kept (the tracked one).
pub(crate) fn dedup_sorted(handles: &mut Vec<Entity>, mut keep: impl FnMut(Entity) -> bool) {
    let mut w = 0;
    for r in 0..handles.len() {
        let e = handles[r];
        if (w == 0 || handles[w - 1] != e) && keep(e) {
            handles[w] = e;
            w += 1;
        }
    }
    handles.truncate(w);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32, generation: u32) -> Entity {
        Entity::from_bits((u64::from(generation) << 32) | u64::from(index)).unwrap()
    }

    /// A small deterministic generator, so the test needs no dependency.
    fn next(state: &mut u64) -> u32 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 33) as u32
    }

    #[test]
    fn sorts_by_slot_stably_at_every_width() {
        let mut sorter = SlotSorter::default();
        let mut state = 7;
        for slot_count in [1, 2, 3, 64, 2_048, 2_049, 100_000, 1 << 22, 10_000_000] {
            for len in [0, 1, 2, 17, 5_000, 300_000] {
                let input: Vec<Entity> = (0..len)
                    .map(|_| e(next(&mut state) % slot_count, 1 + next(&mut state) % 3))
                    .collect();
                let mut expected = input.clone();
                expected.sort_by_key(|h| h.index()); // std's sort is stable
                let (a, b) = input.split_at(len / 3);
                let mut handles = vec![e(9, 9)];
                let strict =
                    sorter.sort_into(&[a, b], false, None, &mut handles, slot_count as usize)
                        != Sorted::Loose;
                assert_eq!(handles, expected, "{slot_count} slots, {len} handles");
                if strict {
                    assert!(handles.windows(2).all(|w| w[0].index() < w[1].index()));
                }
            }
        }
    }

    #[test]
    fn descending_wrapped_and_ascending_inputs() {
        let mut sorter = SlotSorter::default();
        let mut out = Vec::new();
        let mut sort = |parts: &[&[Entity]], unique: bool, out: &mut Vec<Entity>, n: usize| {
            sorter.sort_into(parts, unique, None, out, n)
        };
        let up: Vec<Entity> = (0..5_000).map(|i| e(i * 3, 1)).collect();
        let down: Vec<Entity> = up.iter().rev().copied().collect();
        let (d1, d2) = down.split_at(700);
        assert_eq!(sort(&[d1, &[], d2], true, &mut out, 15_000), Sorted::Strict);
        assert_eq!(out, up, "strictly descending, reversed");
        let mut wrapped = up.clone();
        wrapped.rotate_left(1_234);
        assert_eq!(sort(&[&wrapped], true, &mut out, 15_000), Sorted::Strict);
        assert_eq!(out, up, "one wrap");
        let mut interleaved: Vec<Entity> = up.iter().step_by(2).copied().collect();
        interleaved.extend(up.iter().skip(1).step_by(2));
        assert_eq!(sort(&[&interleaved], true, &mut out, 15_000), Sorted::Loose);
        assert_eq!(out, up, "merged");
        assert_eq!(
            sort(&[&up[..10], &up[10..]], true, &mut out, 15_000),
            Sorted::Strict
        );
        assert_eq!(out, up, "ascending");
        let twice = [e(1, 1), e(1, 1), e(2, 1)];
        assert_eq!(sort(&[&twice], false, &mut out, 3), Sorted::Loose);
        assert_eq!(out, twice, "ascending, not strictly");
        assert_eq!(sort(&[&[], &[]], true, &mut out, 3), Sorted::Strict);
        assert!(out.is_empty());
    }

    #[test]
    fn unique_handles_in_any_order_are_put_in_slot_order() {
        let mut sorter = SlotSorter::default();
        let mut state = 3;
        for slot_count in [64, 1_000, 100_000] {
            let mut handles: Vec<Entity> = (0..slot_count as u32)
                .filter(|_| next(&mut state).is_multiple_of(3))
                .map(|i| e(i, 1 + i % 5))
                .collect();
            let expected = handles.clone();
            for i in (1..handles.len()).rev() {
                handles.swap(i, next(&mut state) as usize % (i + 1));
            }
            let (a, b) = handles.split_at(handles.len() / 2);
            let mut out = Vec::new();
            for _ in 0..2 {
                sorter.sort_into(&[a, b], true, None, &mut out, slot_count);
                assert_eq!(
                    out, expected,
                    "{slot_count} slots; the bits are clear again"
                );
            }
        }
    }

    #[test]
    fn a_dense_delivery_in_change_order_scans_the_slots_for_tracked_members() {
        let mut sorter = SlotSorter::default();
        let mut tracked = EntitySet::default();
        for i in 0..64 {
            tracked.insert(e(i, if i == 9 { 2 } else { 1 }));
        }
        let mut handles: Vec<Entity> = (0..64).step_by(3).map(|i| e(i, 1)).collect();
        handles.push(e(9, 1)); // twice, and stale: slot 9 holds 9v2 now
        handles.reverse();
        handles.swap(0, 5);
        let mut out = Vec::new();
        let sorted = sorter.sort_into(&[&handles], false, Some(&tracked), &mut out, 64);
        assert_eq!(sorted, Sorted::Tracked);
        let expected: Vec<Entity> = (0..64)
            .step_by(3)
            .map(|i| e(i, if i == 9 { 2 } else { 1 }))
            .collect();
        assert_eq!(out, expected);
        out.clear();
        sorter.sort_into(&[&handles], false, Some(&tracked), &mut out, 64);
        assert_eq!(out, expected, "the bits are clear again");
    }

    #[test]
    fn dedup_keeps_each_accepted_handle_once() {
        let mut handles = vec![
            e(1, 1),
            e(1, 1),
            e(2, 1),
            e(2, 2),
            e(2, 1),
            e(2, 2),
            e(5, 1),
        ];
        dedup_sorted(&mut handles, |h| h.generation() == 2 || h.index() != 2);
        assert_eq!(handles, [e(1, 1), e(2, 2), e(5, 1)]);
    }
}

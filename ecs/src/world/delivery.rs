//! Delivery: what each system receives as dirty, in change order or in slot order.

use super::SystemSlot;
use crate::Entity;
use crate::change_log::SlotBits;
use crate::component::ComponentId;
use crate::entity_set::EntitySet;
use crate::slot_sort::{SlotSorter, Sorted, dedup_sorted};
use crate::system::DirtyBits;

use super::{Logs, World, change_log};

impl World {
    /// Whether a delivery of `candidates` entities goes by slot order.
    #[inline]
    pub(super) fn is_dense(&self, candidates: usize) -> bool {
        candidates >= self.dense.min
            && candidates as f64 >= self.dense.fraction * self.entities.slot_count() as f64
    }

    /// Entries after system `s`'s cursors plus its own dirty set: what a delivery looks at.
    pub(super) fn pending_upper_bound(&self, s: usize, tracked: &EntitySet) -> usize {
        let slot = &self.systems[s];
        slot.watches
            .iter()
            .map(|w| change_log(&self.logs, w.id).borrow().entries.len() - w.cursor)
            .sum::<usize>()
            + slot.dirty.len(tracked)
    }

    /// Expand [`Column::values_mut`]'s "everything changed" into log entries for the
    /// components system `s` watches.
    pub(super) fn expand_all(&mut self, s: usize) {
        for w in &self.systems[s].watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if std::mem::take(&mut log.all) {
                for &entity in self.columns[w.id.index()].entities() {
                    log.mark(entity);
                }
            }
        }
    }

    /// Hand system `s` its dirty entities (into `out`, as a lent log range, or as `bits`) and
    /// move its cursors to the ends of the logs.
    pub(super) fn deliver(
        &mut self,
        s: usize,
        tracked: &EntitySet,
        out: &mut Vec<Entity>,
        bits: &mut DirtyBits,
    ) -> Delivery {
        out.clear();
        let slot = &self.systems[s];
        let mut all = false;
        let mut any = !slot.dirty.is_empty(tracked);
        for w in &slot.watches {
            let log = change_log(&self.logs, w.id).borrow();
            all |= log.all;
            any |= !log.is_empty_after(w.cursor);
        }
        if !any {
            // Nothing to deliver: a dirty set left large by a burst gives its memory back.
            self.systems[s].dirty.clear_and_release();
            return Delivery::Own;
        }
        if all {
            self.expand_all(s);
        }
        let candidates = self.pending_upper_bound(s, tracked);
        let dense = self.is_dense(candidates);
        let slot = &mut self.systems[s];
        // Every tracked entity is newly tracked (the first update of a level, or a system
        // added to a full world): the tracked set, if in slot order, is the delivery.
        if dense && slot.dirty.len(tracked) == tracked.len() && tracked.is_in_slot_order() {
            self.consume(s);
            return Delivery::Tracked;
        }
        if slot.dirty.is_empty(tracked)
            && let Some(delivery) = self.deliver_one_log(s, tracked, dense, out, bits)
        {
            return delivery;
        }
        if dense && self.entries_tracked(s) {
            self.deliver_bits(s, tracked, bits);
            self.consume(s);
            return Delivery::Bits;
        }
        let slot = &self.systems[s];
        let order = if dense {
            Order::Slot(&mut self.sorter, self.entities.slot_count())
        } else {
            Order::Change(&mut self.scratch)
        };
        collect(&self.logs, order, slot, tracked, out);
        self.consume(s);
        Delivery::Own
    }

    /// When system `s` has changes in one watched log only and nothing of its own: the log
    /// itself (lent), the tracked set, or the log's bits over the slots of its fresh part, if
    /// one of them is the delivery as it stands.
    fn deliver_one_log(
        &mut self,
        s: usize,
        tracked: &EntitySet,
        dense: bool,
        out: &mut Vec<Entity>,
        bits: &mut DirtyBits,
    ) -> Option<Delivery> {
        let slot = &mut self.systems[s];
        let required_only = slot.required_only;
        let mut pending = slot
            .watches
            .iter_mut()
            .filter(|w| change_log(&self.logs, w.id).borrow().entries.len() > w.cursor);
        let (Some(watch), None) = (pending.next(), pending.next()) else {
            return None;
        };
        let mut log = change_log(&self.logs, watch.id).borrow_mut();
        let from = watch.cursor;
        // Within one part each entity appears once; if every entry is tracked too, the system
        // can read the shared log itself. A log already in ascending slot order is what a
        // dense delivery would build, so it is lent at any density.
        let lendable = if dense {
            log.ascending_from(from)
        } else {
            log.unique_from(from)
        };
        // Every tracked entity changed, each once: the tracked set, if it is in slot order, is
        // the delivery, and costs nothing to hand out.
        let whole = dense
            && log.unique_from(from)
            && log.entries.len() - from == tracked.len()
            && tracked.is_in_slot_order();
        // A system that requires only the watched component tracks exactly its column, so
        // entries whose entities are all still there need no lookups.
        let known_tracked = required_only == Some(watch.id) && log.present_from(from);
        // The entries are the fresh part: its bits, which deduplicated the marks, are a bit per
        // dirty slot already.
        let fresh = dense && from == log.fresh_from && known_tracked;
        if !lendable && !whole && !fresh {
            return None;
        }
        let all_tracked = known_tracked || log.entries[from..].iter().all(|&e| tracked.contains(e));
        // The tracked set is preferred to lending an ascending log that holds the same
        // entities: `dirty_in` then walks the column without a lookup per entity.
        if whole && all_tracked {
            drop(log);
            self.consume(s);
            return Some(Delivery::Tracked);
        }
        if !(lendable && all_tracked || fresh) {
            return None;
        }
        if fresh {
            // The log's bits are handed out instead of being cleared by the seal; the sorter's
            // (all zero) take their place.
            let zeroed = self.sorter.take_slots(self.entities.slot_count());
            bits.words = log.seal_taking_bits(zeroed);
            bits.count = log.entries.len() - from;
        } else {
            log.seal();
        }
        watch.cursor = log.entries.len();
        if lendable {
            log.lend(out);
            return Some(Delivery::Lent(watch.id, from, fresh));
        }
        Some(Delivery::Bits)
    }

    /// Whether every log entry pending for system `s` is known to be tracked without a lookup:
    /// each log with entries is that of the one component the system requires, and nothing
    /// left that column since the entries were made.
    fn entries_tracked(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.watches.iter().all(|w| {
            let log = change_log(&self.logs, w.id).borrow();
            log.entries.len() == w.cursor
                || (slot.required_only == Some(w.id) && log.present_from(w.cursor))
        })
    }

    /// Set a bit in `bits` for the slot of each of system `s`'s dirty entities (its own dirty
    /// set and the log entries after its cursors, every one of them tracked).
    fn deliver_bits(&mut self, s: usize, tracked: &EntitySet, bits: &mut DirtyBits) {
        let mut words = self.sorter.take_slots(self.entities.slot_count());
        let slot = &self.systems[s];
        set_bits(&mut words, slot.dirty.as_slice(tracked));
        for w in &slot.watches {
            set_bits(
                &mut words,
                &change_log(&self.logs, w.id).borrow().entries[w.cursor..],
            );
        }
        bits.count = words.iter().map(|w| w.count_ones() as usize).sum();
        bits.words = words;
    }

    /// Give back the bits of a [`Delivery::Bits`] once the run is over.
    pub(super) fn take_back_bits(&mut self, bits: &mut DirtyBits) {
        bits.reset();
        self.sorter.give_back_slots(std::mem::take(&mut bits.words));
    }
}

/// Set the bit of each entity's slot in `words`. Neighbours in one word (writes that walked
/// memory) are gathered in a register and stored once.
fn set_bits(words: &mut [u64], entities: &[Entity]) {
    let Some(first) = entities.first() else {
        return;
    };
    let mut at = first.index() as usize / 64;
    let mut word = 0u64;
    for e in entities {
        let w = e.index() as usize / 64;
        if w != at {
            words[at] |= word;
            at = w;
            word = 0;
        }
        word |= 1 << (e.index() % 64);
    }
    words[at] |= word;
}

/// Where a running system's dirty entities are.
#[derive(Clone, Copy)]
pub(super) enum Delivery {
    /// In the system's `delivered` buffer (empty when nothing changed).
    Own,
    /// Every tracked entity (change tracking off).
    Tracked,
    /// In a component's change log, lent for the run as the `delivered` buffer, from this
    /// position; and in the system's bits too, if set.
    Lent(ComponentId, usize, bool),
    /// In the system's bits (a dense delivery whose entries are all tracked).
    Bits,
}

/// How [`collect`] orders and deduplicates a delivery.
pub(super) enum Order<'a> {
    /// Change order (own dirty set first, then log order), deduplicated through a bit set
    /// over the slots that is all-zero before and after.
    Change(&'a mut SlotBits),
    /// Slot order, through a radix sort of the handles (indices below the slot count).
    Slot(&'a mut SlotSorter, usize),
}

/// Put `slot`'s dirty entities into `out` without consuming them: its own dirty set and the log
/// entries after its cursors, each tracked entity once, in `order`.
pub(super) fn collect(
    logs: &Logs,
    order: Order<'_>,
    slot: &SystemSlot,
    tracked: &EntitySet,
    out: &mut Vec<Entity>,
) {
    match order {
        Order::Slot(sorter, slot_count) => {
            // A log entry may name a since-despawned entity whose slot a tracked one reuses:
            // the tracked filter drops that stale handle (the new one, tracked after the
            // change, is in the own dirty set anyway).
            let logs: Vec<_> = slot
                .watches
                .iter()
                .map(|w| (w, change_log(logs, w.id).borrow()))
                .collect();
            let mut parts = vec![slot.dirty.as_slice(tracked)];
            let mut all_tracked = true;
            for (w, log) in &logs {
                all_tracked &= slot.required_only == Some(w.id) && log.present_from(w.cursor);
                parts.push(&log.entries[w.cursor..]);
            }
            // Within one part of one log each entity appears once.
            let nonempty = parts.iter().filter(|p| !p.is_empty()).count();
            let unique = nonempty <= 1
                && slot.watches.iter().zip(&logs).all(|(w, (_, log))| {
                    log.entries.len() == w.cursor || log.unique_from(w.cursor)
                });
            match sorter.sort_into(&parts, unique, Some(tracked), out, slot_count) {
                Sorted::Tracked => {}
                Sorted::Strict if all_tracked => {}
                // Sorted, the lookups in the tracked set walk it forwards.
                _ => dedup_sorted(out, |e| all_tracked || tracked.contains(e)),
            }
        }
        Order::Change(scratch) => {
            for &e in slot.dirty.as_slice(tracked) {
                scratch.set(e.index());
                out.push(e);
            }
            for w in &slot.watches {
                for &e in &change_log(logs, w.id).borrow().entries[w.cursor..] {
                    if tracked.contains(e) && !scratch.test_and_set(e.index()) {
                        out.push(e);
                    }
                }
            }
            for e in out.iter() {
                scratch.clear(e.index());
            }
        }
    }
}

//! The update loop: each system in priority order, then deferred despawns and clears.

use std::rc::Rc;
use std::time::Duration;

use super::delivery::Delivery;
use super::{World, change_log};
use crate::system::{Dirty, SystemEntities, SystemSets};

impl World {
    /// Run every enabled system once, in priority order, then apply deferred despawns and clears.
    ///
    /// # Panics
    /// If called from inside a system.
    pub fn update(&mut self) {
        self.run(false);
    }

    /// Like [`World::update`], but run only enabled debug systems (e.g. while the game is
    /// paused); the other systems keep accumulating dirty entities.
    pub fn update_debug_only(&mut self) {
        self.run(true);
    }

    fn run(&mut self, debug_only: bool) {
        assert!(
            !self.updating,
            "World::update called from inside a system's update"
        );
        self.updating = true;
        self.run_systems(debug_only);
        for k in 0..self.pending_despawns.len() {
            let entity = self.pending_despawns[k];
            self.despawn_now(entity);
        }
        self.pending_despawns.clear();
        for events in self.events.values_mut() {
            events.end_update();
        }
        self.compact_logs();
        self.updating = false;
        if std::mem::take(&mut self.pending_clear) {
            self.clear_now();
        }
        if self.sets_pending {
            self.sets_pending = self.systems.iter().any(|slot| {
                !slot.dirty.is_empty(&slot.sets.tracked) || !slot.sets.removed.is_empty()
            });
        }
    }

    /// Run or skip each system in priority order.
    ///
    /// While nothing is pending anywhere (`quiet`), reactive systems have nothing to react to:
    /// the loop jumps from one system that runs every update to the next (`every_update`, their
    /// positions in `order`) without looking at the others, and falls back to looking at each
    /// system once one that ran left something pending.
    fn run_systems(&mut self, debug_only: bool) {
        // Jumping pays only when there are reactive systems to jump over.
        let mut quiet =
            self.change_tracking && self.every_update.len() < self.order.len() && self.is_quiet();
        if quiet && !self.figures_zeroed {
            self.zero_skipped_figures(debug_only);
        }
        let mut k = 0;
        let mut e = 0;
        // Whether a system ran since `quiet` was last checked (it may have written).
        let mut ran = false;
        while k < self.order.len() {
            if quiet {
                while self.every_update.get(e).is_some_and(|&at| at < k) {
                    e += 1;
                }
                let at = self
                    .every_update
                    .get(e)
                    .copied()
                    .unwrap_or(self.order.len());
                // Systems before `at` are reactive: skipped only if still nothing is pending.
                if at > k && ran {
                    quiet = self.is_quiet();
                    ran = false;
                }
                if quiet {
                    if at == self.order.len() {
                        break;
                    }
                    k = at;
                }
            }
            let s = self.order[k];
            k += 1;
            let slot = &self.systems[s];
            if !slot.enabled || (debug_only && !slot.debug) {
                if slot.watches_any && (ran || !quiet) {
                    self.take_over(s);
                }
                continue;
            }
            if slot.reactive && self.change_tracking && (quiet || self.nothing_pending(s)) {
                let slot = &mut self.systems[s];
                slot.last_dirty = 0;
                slot.last_duration = Duration::ZERO;
                continue;
            }
            self.run_system(s);
            ran = true;
        }
    }

    /// Zero the figures of every reactive system that this update skips (what a skip reports),
    /// ahead of a quiet update that does not look at them; note whether all are now zero.
    fn zero_skipped_figures(&mut self, debug_only: bool) {
        let mut all = true;
        for slot in self.systems.iter_mut().filter(|slot| slot.reactive) {
            if slot.enabled && (!debug_only || slot.debug) {
                slot.last_dirty = 0;
                slot.last_duration = Duration::ZERO;
            }
            all &= slot.last_dirty == 0 && slot.last_duration == Duration::ZERO;
        }
        self.figures_zeroed = all;
    }

    /// Whether no system has anything dirty or removed pending: no own set may hold an
    /// entity and every change log is empty (so every cursor is at its end). Cost: a flag and
    /// a look at each watched component's log, whatever the number of systems.
    #[inline]
    fn is_quiet(&self) -> bool {
        !self.sets_pending
            && self.watched.iter().all(|&id| {
                let log = change_log(&self.logs, id).borrow();
                log.entries.is_empty() && !log.all
            })
    }

    fn run_system(&mut self, s: usize) {
        let placeholder = self
            .placeholder
            .take()
            .expect("a system is never run re-entrantly");
        let slot = &mut self.systems[s];
        let mut system = slot
            .system
            .take()
            .expect("a system is never run re-entrantly");
        let mut sets = std::mem::replace(&mut slot.sets, placeholder);
        slot.running = Some(sets.tracked.len());
        let SystemSets {
            tracked,
            removed,
            delivered,
            bits,
            whole,
        } = &mut *sets;
        let delivery = if !slot.watches_any {
            Delivery::Own
        } else if self.change_tracking {
            self.deliver(s, tracked, delivered, bits)
        } else {
            self.consume(s);
            Delivery::Tracked
        };
        let dirty = match delivery {
            Delivery::Own => Dirty::List(delivered.as_slice()),
            Delivery::Tracked => Dirty::List(tracked.as_slice()),
            Delivery::Lent(_, from, false) => Dirty::List(&delivered[from..]),
            Delivery::Lent(_, from, true) => Dirty::ListAndBits(&delivered[from..], bits),
            Delivery::Bits => Dirty::Bits(bits),
        };
        let last_dirty = match dirty {
            Dirty::List(list) | Dirty::ListAndBits(list, _) => list.len(),
            Dirty::Bits(bits) => bits.count,
        };
        // Every tracked entity is dirty and they are exactly one column's entities: reading
        // that column's dirty components is a walk of the column while it keeps them.
        *whole = if last_dirty == tracked.len() && last_dirty > 0 {
            self.systems[s]
                .required_only
                .and_then(|id| self.logs[id.index()].as_ref())
                .map(|log| (Rc::clone(log), log.borrow().entries.len()))
        } else {
            None
        };
        let skip = self.systems[s].reactive && last_dirty == 0 && removed.is_empty();
        let start = self.timing.then(self.clock);
        if !skip {
            system.update(
                self,
                &SystemEntities {
                    tracked,
                    dirty,
                    removed: removed.as_slice(),
                    whole: whole.as_ref(),
                },
            );
        }
        let elapsed = start.map_or(Duration::ZERO, |t| (self.clock)().saturating_sub(t));
        *whole = None;
        if let Delivery::Lent(id, _, _) = delivery {
            change_log(&self.logs, id).borrow_mut().give_back(delivered);
        }
        if let Delivery::Bits | Delivery::Lent(_, _, true) = delivery {
            self.take_back_bits(bits);
        }
        let used = delivered.len();
        delivered.clear();
        crate::change_log::release_if_oversized(delivered, used);
        removed.clear();

        let slot = &mut self.systems[s];
        slot.system = Some(system);
        slot.running = None;
        let placeholder = std::mem::replace(&mut slot.sets, sets);
        // Nothing reaches a running system's sets: membership changes wait in
        // `pending_membership`, and value changes wait in the change logs.
        debug_assert!(slot.dirty.is_empty(&slot.sets.tracked) && placeholder.tracked.len() == 0);
        slot.last_dirty = last_dirty;
        slot.last_duration = elapsed;
        if slot.reactive && (last_dirty != 0 || elapsed != Duration::ZERO) {
            self.figures_zeroed = false;
        }
        slot.runs += u64::from(!skip);
        self.placeholder = Some(placeholder);
        let slot = &mut self.systems[s];
        if !slot.pending_membership.is_empty() {
            let mut pending = std::mem::take(&mut slot.pending_membership);
            for entity in pending.drain(..) {
                self.refresh_membership(s, entity);
            }
            self.systems[s].pending_membership = pending;
        }
    }

    /// Whether system `s` has no dirty and no removed entity, and no log entry that could be
    /// one (change tracking on): a check that touches neither its sets nor any column.
    #[inline]
    fn nothing_pending(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.dirty.is_empty(&slot.sets.tracked)
            && slot.sets.removed.is_empty()
            && slot.watches.iter().all(|w| {
                change_log(&self.logs, w.id)
                    .borrow()
                    .is_empty_after(w.cursor)
            })
    }

    /// Move system `s`'s cursors to the ends of the logs and empty its own dirty set.
    pub(super) fn consume(&mut self, s: usize) {
        self.expand_all(s);
        let slot = &mut self.systems[s];
        for w in &mut slot.watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if log.entries.len() > w.cursor {
                log.seal();
                w.cursor = log.entries.len();
            }
        }
        slot.dirty.clear_and_release();
    }

    /// Move what system `s` (which does not run this update) has pending in the logs into its
    /// own dirty set, so the logs can be compacted however long it stays disabled.
    fn take_over(&mut self, s: usize) {
        self.expand_all(s);
        let slot = &mut self.systems[s];
        for w in &mut slot.watches {
            let mut log = change_log(&self.logs, w.id).borrow_mut();
            if log.entries.len() == w.cursor {
                continue;
            }
            for &entity in &log.entries[w.cursor..] {
                if slot.sets.tracked.contains(entity) {
                    slot.dirty.insert(entity);
                }
            }
            log.seal();
            w.cursor = log.entries.len();
        }
        // What moved into the own dirty set is pending: an update after the logs are
        // compacted must not take the world for quiet and skip the system once re-enabled.
        if !slot.dirty.is_empty(&slot.sets.tracked) {
            self.sets_pending = true;
        }
    }

    /// Drop log entries every watcher has read.
    fn compact_logs(&mut self) {
        for &id in &self.watched {
            let mut log = change_log(&self.logs, id).borrow_mut();
            if log.entries.is_empty() {
                // Nothing was marked this update: a log left large by a burst lets go.
                crate::change_log::release_if_oversized(&mut log.entries, 0);
                continue;
            }
            let cursor = |s: &usize| {
                let slot = &self.systems[*s];
                slot.watches
                    .iter()
                    .find(|w| w.id == id)
                    .map_or(0, |w| w.cursor)
            };
            let read = self.watchers[id.index()]
                .iter()
                .map(cursor)
                .min()
                .unwrap_or(0);
            if read == 0 {
                continue;
            }
            log.compact(read);
            for &s in &self.watchers[id.index()] {
                if let Some(w) = self.systems[s].watches.iter_mut().find(|w| w.id == id) {
                    w.cursor -= read;
                }
            }
        }
    }
}

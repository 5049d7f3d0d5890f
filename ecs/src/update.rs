//! The update loop: adding systems, and running them in priority order, each with the entities
//! it tracks and the ones that changed since it last ran.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

use crate::component::{ComponentId, ComponentSet};
use crate::delivery::{DirtySet, empty};
use crate::diagnostics::Clock;
use crate::entity_set::EntitySet;
use crate::schedule::{SystemSets, SystemSlot};
use crate::system::{System, SystemDesc, SystemEntities, SystemId, SystemInfo};
use crate::world::{Phase, RunWhen};
use crate::{Entity, World};

// What `World::update_observed` calls after each system.
type Observer<'a> = dyn FnMut(&World, &'static str) + 'a;

/// The default [`Clock`]: `std::time::Instant`, counted from its first reading.
fn instant_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

impl World {
    /// Add a system. It tracks every existing entity that matches, all of them dirty (if it
    /// watches anything), so its first run sees the world as new.
    ///
    /// # Panics
    /// If called from inside a system's update or from [`System::on_clear`].
    pub fn add_system(&mut self, desc: SystemDesc, system: impl System) -> SystemId {
        assert!(
            self.phase == Phase::Idle,
            "World::add_system called during an update or a clear: add systems between updates"
        );
        let s = self.systems.len();
        let mut required = ComponentSet::EMPTY;
        for r in &desc.requires {
            let id = r(self);
            required.insert(id);
            self.requirers[id.index()].push(s);
        }
        let mut watches: Vec<ComponentId> = Vec::new();
        for w in &desc.watches {
            let id = w(self);
            if watches.contains(&id) {
                continue;
            }
            self.watchers[id.index()].push(s);
            self.watched.insert(id);
            // Bits set before now reach this system too, harmlessly: every entity it tracks is
            // new to it.
            self.columns[id.index()].watch();
            watches.push(id);
        }
        if required.is_empty() {
            self.requires_nothing.push(s);
        }
        let mut slot = SystemSlot {
            name: desc.name,
            priority: desc.priority,
            debug: desc.debug,
            system: Some(Box::new(system)),
            required,
            enabled: true,
            watches,
            ..SystemSlot::default()
        };
        for (entity, sig) in self.entities.iter() {
            if sig.is_superset(&slot.required) {
                slot.sets.tracked.insert(entity);
                slot.added.insert(entity.index());
                self.sets_pending = true;
                if !slot.watches.is_empty() {
                    slot.dirty.insert(entity.index());
                    self.sets_pending = true;
                }
            }
        }
        let (priority, mut watched) = (slot.priority, ComponentSet::EMPTY);
        slot.watches.iter().for_each(|&id| watched.insert(id));
        self.pending.push(!slot.added.is_empty());
        self.systems.push(slot);
        let at = self
            .order
            .partition_point(|&(o, ..)| self.systems[o].priority <= priority);
        self.order.insert(at, (s, desc.run_when(), watched));
        self.every_update += usize::from(desc.run_when() != RunWhen::Changes);
        SystemId {
            world: self.id,
            index: s,
        }
    }

    /// Enable or disable a system. A disabled system does not run but keeps collecting dirty
    /// entities (each at most once), and receives them all on its first run after re-enabling.
    pub fn set_enabled(&mut self, id: SystemId, enabled: bool) {
        self.slot(id);
        self.systems[id.index].enabled = enabled;
    }

    /// Whether a system is enabled.
    pub fn is_enabled(&self, id: SystemId) -> bool {
        self.slot(id).enabled
    }

    /// Figures for every system, in run order.
    pub fn systems(&self) -> impl ExactSizeIterator<Item = SystemInfo> + '_ {
        self.order.iter().map(|&(s, ..)| {
            self.system_info(SystemId {
                world: self.id,
                index: s,
            })
        })
    }

    /// Figures for one system.
    ///
    /// # Panics
    /// If `id` belongs to another world.
    pub fn system_info(&self, id: SystemId) -> SystemInfo {
        let slot = self.slot(id);
        let ran = slot.ran_in == self.updates;
        SystemInfo {
            id,
            name: slot.name,
            priority: slot.priority,
            debug: slot.debug,
            enabled: slot.enabled,
            tracked: slot.running.unwrap_or(slot.sets.tracked.len()),
            last_dirty: if ran { slot.last_dirty } else { 0 },
            last_tracked: if ran { slot.last_tracked } else { 0 },
            last_duration: slot.last_duration * u32::from(ran),
            runs: slot.runs,
        }
    }

    fn slot(&self, id: SystemId) -> &SystemSlot {
        assert!(
            id.world == self.id,
            "{id:?} belongs to another world: a SystemId works with the World that returned it"
        );
        &self.systems[id.index]
    }

    /// Switch change tracking off to hand every system all of its tracked entities as dirty on
    /// every run (the baseline the optimization is measured against), or back on.
    pub fn set_change_tracking(&mut self, on: bool) {
        self.tracking_off = !on;
    }

    /// Whether change tracking is on (the default).
    pub fn change_tracking(&self) -> bool {
        !self.tracking_off
    }

    /// Time every system run ([`SystemInfo::last_duration`]), or stop (the default). The clock
    /// is read as the update starts and as each run ends, so a run's time includes skipping the
    /// systems before it. A reading costs more than an idle update; while off, it is zero.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Run every enabled system once, in priority order, then apply deferred despawns and
    /// clears.
    ///
    /// A panic in a system propagates out of `update` after the world has taken the system
    /// back and applied the deferred despawns and clears; the systems after it wait for the
    /// next `update`, and so do events for them (they are not aged).
    ///
    /// # Panics
    /// If called from inside a system's update or from [`System::on_clear`], with a message that
    /// says so; and if a system panics.
    pub fn update(&mut self) {
        self.run(false, None);
    }

    /// Like [`World::update`], calling `after` with the world and the system's name after each
    /// system in order, run or skipped (to see which system changed what). The deferred
    /// despawns and clears come after the last call.
    pub fn update_observed(&mut self, after: &mut dyn FnMut(&World, &'static str)) {
        self.run(false, Some(after));
    }

    /// Like [`World::update`], but run only enabled debug systems (e.g. while the game is
    /// paused); the other systems keep accumulating dirty entities.
    pub fn update_debug_only(&mut self) {
        self.run(true, None);
    }

    fn run(&mut self, debug_only: bool, mut after: Option<&mut Observer<'_>>) {
        match self.phase {
            Phase::Idle => {}
            Phase::Updating(s) => panic!(
                "World::update called from inside system `{}`: an update cannot run inside \
                 another; send an event or set a resource for work that must wait for the next one",
                self.systems[s].name
            ),
            Phase::Clearing(s) => panic!(
                "World::update called from the on_clear of system `{}`: World::clear runs \
                 on_clear between updates; update after World::clear returns",
                self.systems[s].name
            ),
        }
        self.updates += 1;
        // Nothing pending anywhere: no reactive system has anything to react to, until a system
        // runs (it may write). Meanwhile the reactive ones are skipped without touching them.
        let changed = self.changed;
        for id in changed.iter() {
            if !self.watched.contains(id) || self.unchanged(id) {
                self.changed.remove(id);
            }
        }
        let mut quiet = !self.sets_pending && !self.tracking_off && self.changed.is_empty();
        let clock = self.clock.unwrap_or(instant_clock);
        let mut mark = self.timing.then(clock);
        // Only systems that run on changes and nothing to observe: one check skips them all.
        let skip_all = quiet && self.every_update == 0 && after.is_none();
        let mut failed = None;
        for k in 0..if skip_all { 0 } else { self.order.len() } {
            let (s, when, watched) = self.order[k];
            // Passed over without touching it: nothing pending anywhere, or nothing in its sets
            // or in the columns it watches, or no event for it.
            let reactive = when == RunWhen::Changes;
            let waits = reactive && !self.tracking_off;
            if quiet && reactive
                || waits && !self.pending[s] && !self.changed.intersects(&watched)
                || self.no_new_events(s, when)
            {
                // Nothing to take over or react to.
            } else if !self.systems[s].enabled || (debug_only && !self.systems[s].debug) {
                self.take_over(s);
            } else if waits && self.nothing_pending(s) {
                self.pending[s] = false;
            } else {
                failed = self.run_system(s, when, clock, &mut mark).err();
                if failed.is_some() {
                    break;
                }
                quiet = false;
            }
            if let Some(after) = after.as_mut() {
                let name = self.systems[s].name;
                failed = catch_unwind(AssertUnwindSafe(|| after(self, name))).err();
                if failed.is_some() {
                    break;
                }
            }
        }
        // Events age only when every system had its turn to read them.
        self.end_update(!debug_only && failed.is_none());
        if let Some(panic) = failed {
            resume_unwind(panic);
        }
    }

    /// Whether system `s` runs on events and none came since it last ran.
    fn no_new_events(&self, s: usize, when: RunWhen) -> bool {
        let RunWhen::Events(t) = when else {
            return false;
        };
        let end = self.events.get(&t).map_or(0, |queue| queue.end());
        end <= self.systems[s].events_seen
    }

    /// Whether system `s` has no dirty, added or removed entity and no watched column a
    /// change bit.
    #[inline]
    fn nothing_pending(&self, s: usize) -> bool {
        let slot = &self.systems[s];
        slot.dirty.is_empty()
            && slot.added.is_empty()
            && slot.sets.removed.is_empty()
            && slot.watches.iter().all(|&id| self.unchanged(id))
    }

    /// Whether column `id` has no change bit.
    #[inline]
    fn unchanged(&self, id: ComponentId) -> bool {
        let changes = self.columns[id.index()].changes();
        changes.is_none_or(|c| c.is_empty())
    }

    /// Move the change bits of the columns system `s` watches into the dirty bits of every
    /// system watching them.
    fn take_over(&mut self, s: usize) {
        for k in 0..self.systems[s].watches.len() {
            let id = self.systems[s].watches[k];
            let (systems, watchers) = (&mut self.systems, &self.watchers[id.index()]);
            if let Some(changes) = self.columns[id.index()].changes_mut()
                && !changes.is_empty()
            {
                self.sets_pending = true;
                if let [t] = watchers[..]
                    && systems[t].dirty.is_empty()
                {
                    // The only watcher, with no bits of its own: the bits change hands whole.
                    std::mem::swap(changes, &mut systems[t].dirty);
                    systems[t].columns_changed.insert(id);
                    self.pending[t] = true;
                } else {
                    changes.drain_words(|w, bits| {
                        for &t in watchers {
                            systems[t].dirty.insert_word(w, bits);
                            systems[t].columns_changed.insert(id);
                            self.pending[t] = true;
                        }
                    });
                }
            }
            self.changed.remove(id);
        }
        self.sets_pending |= !self.systems[s].dirty.is_empty();
    }

    /// Run system `s`, returning its panic if it panicked; `mark` is the last clock reading of
    /// the update (`None`: not timed).
    fn run_system(
        &mut self,
        s: usize,
        when: RunWhen,
        clock: Clock,
        mark: &mut Option<Duration>,
    ) -> std::thread::Result<()> {
        let placeholder = self.placeholder.take().unwrap_or_default();
        self.take_over(s);
        let slot = &mut self.systems[s];
        let mut system = slot.system.take().expect("out only while it runs");
        let mut sets = std::mem::replace(&mut slot.sets, placeholder);
        slot.running = Some(sets.tracked.len());
        let SystemSets {
            tracked,
            removed,
            delivered,
            added: added_list,
        } = &mut *sets;
        if !slot.watches.is_empty() && self.tracking_off {
            for e in tracked.as_slice() {
                slot.dirty.insert(e.index());
            }
            slot.watches
                .iter()
                .for_each(|&id| slot.columns_changed.insert(id));
        }
        let columns_changed = std::mem::take(&mut slot.columns_changed);
        let dirty = deliver(&mut slot.dirty, tracked, delivered);
        let added = deliver(&mut slot.added, tracked, added_list);
        if let RunWhen::Events(t) = when {
            slot.events_seen = self.events.get(&t).map_or(0, |queue| queue.end());
        }
        let reactive = when == RunWhen::Changes;
        let skip = reactive && dirty.is_empty() && added.is_empty() && removed.is_empty();
        let (last_dirty, last_tracked) = (dirty.len(), tracked.len());
        self.phase = Phase::Updating(s);
        let outcome = if skip {
            Ok(())
        } else {
            let entities = SystemEntities {
                tracked: tracked.as_slice(),
                dirty,
                added,
                removed: removed.as_slice(),
                columns_changed,
            };
            catch_unwind(AssertUnwindSafe(|| system.update(self, &entities)))
        };
        self.phase = Phase::Idle;
        empty(delivered);
        empty(added_list);
        removed.clear();
        self.pending[s] = false;

        let slot = &mut self.systems[s];
        slot.system = Some(system);
        slot.running = None;
        self.placeholder = Some(std::mem::replace(&mut slot.sets, sets));
        slot.ran_in = self.updates;
        slot.last_dirty = last_dirty;
        slot.last_tracked = last_tracked;
        slot.runs += u64::from(!skip);
        let mut pending = std::mem::take(&mut slot.pending_membership);
        for entity in pending.drain(..) {
            self.refresh_membership(s, entity);
        }
        let slot = &mut self.systems[s];
        slot.pending_membership = pending;
        slot.last_duration = mark.as_mut().map_or(Duration::ZERO, |before| {
            let now = clock();
            now.saturating_sub(std::mem::replace(before, now))
        });
        outcome
    }
}

/// The entities of `tracked` whose bits are set in `bits`, in slot order, clearing the bits:
/// the tracked list itself when every member's bit is set and positions follow slots, else
/// drained into `out`.
fn deliver<'s>(
    bits: &mut DirtySet,
    tracked: &'s EntitySet,
    out: &'s mut Vec<Entity>,
) -> &'s [Entity] {
    let whole = tracked.slot_range().is_some_and(|slots| bits.covers(slots));
    if whole {
        bits.clear();
        tracked.as_slice()
    } else {
        bits.drain_into(tracked, out);
        out.as_slice()
    }
}

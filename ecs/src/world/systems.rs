//! Adding systems, switching them on and off, and what the world reports about them.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use super::DenseDelivery;
use super::World;
use super::delivery::{Order, collect};
use super::{System, SystemSlot};
use crate::change_log::ChangeLog;
use crate::component::ComponentSet;
use crate::system::{Dirty, OwnDirty, SystemEntities, SystemId, SystemInfo, Watch};
use crate::system_desc::SystemDesc;

impl World {
    /// Add a system. It tracks every existing entity that matches, all of them dirty (if it
    /// watches anything), so its first run sees the world as new.
    ///
    /// # Panics
    /// If called from inside a system's update.
    pub fn add_system(&mut self, desc: SystemDesc, system: impl System) -> SystemId {
        assert!(!self.updating, "World::add_system called during an update");
        let s = self.systems.len();
        let mut required = ComponentSet::EMPTY;
        for r in &desc.requires {
            let id = (r.register)(self);
            required.insert(id);
            self.requirers[id.index()].push(s);
        }
        let mut watches: Vec<Watch> = Vec::new();
        for w in &desc.watches {
            let id = (w.register)(self);
            if watches.iter().any(|w| w.id == id) {
                continue;
            }
            self.watchers[id.index()].push(s);
            let log = self.logs[id.index()].get_or_insert_with(|| {
                let log = Rc::new(RefCell::new(ChangeLog::default()));
                self.columns[id.index()].watch(Rc::clone(&log));
                self.watched.push(id);
                log
            });
            // Cursors never pass the start of the unread part (see `ChangeLog`); the entries
            // there are harmless: its first run sees every tracked entity dirty anyway.
            let cursor = log.borrow().fresh_from;
            watches.push(Watch { id, cursor });
        }
        if required.is_empty() {
            self.requires_nothing.push(s);
        }
        let mut slot = SystemSlot {
            watches_any: !desc.watches.is_empty(),
            reactive: desc.is_reactive(),
            required_only: {
                let mut ids = required.iter();
                match (ids.next(), ids.next()) {
                    (Some(id), None) => Some(id),
                    _ => None,
                }
            },
            name: desc.name,
            priority: desc.priority,
            debug: desc.debug,
            system: Some(Box::new(system)),
            required,
            enabled: true,
            sets: Box::default(),
            watches,
            dirty: OwnDirty::default(),
            pending_membership: Vec::new(),
            running: None,
            last_dirty: 0,
            last_duration: Duration::ZERO,
            runs: 0,
        };
        for (entity, sig) in self.entities.iter() {
            if sig.is_superset(&slot.required) {
                slot.sets.tracked.insert(entity);
                if slot.watches_any {
                    slot.dirty.insert_tracked(entity, &slot.sets.tracked);
                    self.sets_pending = true;
                }
            }
        }
        let priority = slot.priority;
        self.systems.push(slot);
        let at = self
            .order
            .partition_point(|&o| self.systems[o].priority <= priority);
        self.order.insert(at, s);
        self.every_update = (0..self.order.len())
            .filter(|&k| !self.systems[self.order[k]].reactive)
            .collect();
        SystemId(s)
    }

    /// Enable or disable a system. A disabled system does not run but keeps collecting dirty
    /// entities (each at most once), and receives them all on its first run after re-enabling.
    pub fn set_enabled(&mut self, id: SystemId, enabled: bool) {
        self.slot_mut(id).enabled = enabled;
    }

    /// Whether a system is enabled.
    pub fn is_enabled(&self, id: SystemId) -> bool {
        self.slot(id).enabled
    }

    /// Figures for every system, in run order.
    pub fn systems(&self) -> impl ExactSizeIterator<Item = SystemInfo> + '_ {
        self.order.iter().map(|&s| self.info(SystemId(s)))
    }

    /// Figures for one system.
    pub fn system_info(&self, id: SystemId) -> SystemInfo {
        self.info(id)
    }

    /// The entities `id` currently tracks, would receive as dirty on its next run (in the order
    /// that run would get them), and would receive as removed.
    ///
    /// # Panics
    /// If called from inside a system's update.
    pub fn system_entities(&mut self, id: SystemId) -> SystemEntities<'_> {
        assert!(
            !self.updating,
            "World::system_entities called during an update"
        );
        self.slot(id);
        let s = id.0;
        self.expand_all(s);
        let mut out = std::mem::take(&mut self.systems[s].sets.delivered);
        out.clear();
        let slot = &self.systems[s];
        if slot.watches_any {
            if self.change_tracking {
                let order = if self.is_dense(self.pending_upper_bound(s, &slot.sets.tracked)) {
                    Order::Slot(&mut self.sorter, self.entities.slot_count())
                } else {
                    Order::Change(&mut self.scratch)
                };
                collect(&self.logs, order, slot, &slot.sets.tracked, &mut out);
            } else {
                out.extend_from_slice(slot.sets.tracked.as_slice());
            }
        }
        let slot = &mut self.systems[s];
        slot.sets.delivered = out;
        SystemEntities {
            tracked: &slot.sets.tracked,
            dirty: Dirty::List(slot.sets.delivered.as_slice()),
            removed: slot.sets.removed.as_slice(),
            whole: None,
        }
    }

    pub(super) fn info(&self, id: SystemId) -> SystemInfo {
        let slot = self.slot(id);
        SystemInfo {
            id,
            name: slot.name,
            priority: slot.priority,
            debug: slot.debug,
            enabled: slot.enabled,
            tracked: slot.running.unwrap_or(slot.sets.tracked.len()),
            last_dirty: slot.last_dirty,
            last_duration: slot.last_duration,
            runs: slot.runs,
        }
    }

    pub(super) fn slot(&self, id: SystemId) -> &SystemSlot {
        self.systems
            .get(id.0)
            .unwrap_or_else(|| panic!("{id:?} does not belong to this world"))
    }

    fn slot_mut(&mut self, id: SystemId) -> &mut SystemSlot {
        self.systems
            .get_mut(id.0)
            .unwrap_or_else(|| panic!("{id:?} does not belong to this world"))
    }

    /// Switch change tracking off to hand every system all of its tracked entities as dirty on
    /// every run (the baseline the optimization is measured against), or back on.
    pub fn set_change_tracking(&mut self, on: bool) {
        self.change_tracking = on;
    }

    /// Whether change tracking is on (the default).
    pub fn change_tracking(&self) -> bool {
        self.change_tracking
    }

    /// Time every system run ([`SystemInfo::last_duration`]), or stop (the default). Two clock
    /// reads per system cost more than an update where nothing changed, so turn this on only
    /// while something reads the timings (a stats panel, a profiler, a report). While off,
    /// `last_duration` is zero.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// Whether system runs are timed.
    pub fn timing(&self) -> bool {
        self.timing
    }

    /// Time system runs with `clock` (time since any fixed point) instead of
    /// `std::time::Instant`, which panics where the platform has no clock of its own (a
    /// browser page, where the caller has one).
    pub fn set_clock(&mut self, clock: super::Clock) {
        self.clock = clock;
    }

    /// Choose when a system gets its dirty entities in slot order rather than in the order the
    /// changes were made; see [`DenseDelivery`]. Both
    /// orders are deterministic. The default is [`DenseDelivery::DEFAULT`].
    ///
    /// ```
    /// use ecs::{DenseDelivery, SystemDesc, SystemEntities, World};
    ///
    /// struct Hp(u32);
    /// let mut world = World::new();
    /// let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    /// let out = seen.clone();
    /// world.add_system(
    ///     SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
    ///     move |_: &mut World, e: &SystemEntities| *out.borrow_mut() = e.dirty().to_vec(),
    /// );
    /// let es: Vec<_> = (0..4).map(|i| world.spawn((Hp(i),))).collect();
    /// world.update();
    /// world.set_dense_delivery(DenseDelivery::ALWAYS);
    /// for &e in es.iter().rev() {
    ///     world.get_mut::<Hp>(e).unwrap().0 += 1;
    /// }
    /// world.update();
    /// assert_eq!(*seen.borrow(), es, "slot order, not change order");
    /// ```
    pub fn set_dense_delivery(&mut self, dense: DenseDelivery) {
        self.dense = dense;
    }
}

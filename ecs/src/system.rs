//! What systems receive and report: their entities, ids, run figures and the sets the world keeps
//! for each.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use crate::Entity;
use crate::change_log::ChangeLog;
use crate::column::Column;
use crate::entity_set::{ClearableSet, EntitySet};

/// What a system receives each update: the entities it tracks and the dirty subset.
///
/// To read the dirty entities' components, [`SystemEntities::dirty_in`] is the way: it walks
/// the column in memory order when much of it changed.
#[derive(Clone, Copy, Debug)]
pub struct SystemEntities<'a> {
    pub(crate) tracked: &'a EntitySet,
    pub(crate) dirty: Dirty<'a>,
    pub(crate) removed: &'a [Entity],
    /// Set when every tracked entity is dirty and the system tracks exactly one column's
    /// entities: that column's change log and its length when the run started (a mark since,
    /// which every insert into or removal from the column makes, ends the shortcut).
    pub(crate) whole: Option<&'a (Rc<RefCell<ChangeLog>>, usize)>,
}

/// Where a run's dirty entities are.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dirty<'a> {
    /// A list, in the order the delivery chose.
    List(&'a [Entity]),
    /// A bit per slot of each dirty entity (a dense delivery): the list is made from it, in
    /// slot order, only if the system asks for it.
    Bits(&'a DirtyBits),
    /// Both: a list in slot order (a lent log that ascends) and its bits.
    ListAndBits(&'a [Entity], &'a DirtyBits),
}

impl<'a> SystemEntities<'a> {
    /// Every entity that has all the required components (in no particular order).
    #[inline]
    pub fn tracked(&self) -> &'a [Entity] {
        self.tracked.as_slice()
    }

    /// Tracked entities for which a watched component changed, was added or was removed since
    /// this system last ran, plus entities that started being tracked since then.
    ///
    /// Each entity appears at most once. Empty for systems that watch nothing. When change
    /// tracking is switched off ([`World::set_change_tracking`]) this is every tracked entity.
    ///
    /// To read their components, prefer [`SystemEntities::dirty_in`]: after a dense delivery
    /// this list is built only when asked for.
    ///
    /// [`World::set_change_tracking`]: crate::World::set_change_tracking
    #[inline]
    pub fn dirty(&self) -> &'a [Entity] {
        match self.dirty {
            Dirty::List(list) | Dirty::ListAndBits(list, _) => list,
            Dirty::Bits(bits) => bits.list(self.tracked),
        }
    }

    /// Number of dirty entities: `dirty().len()`, without building the list.
    #[inline]
    pub fn dirty_len(&self) -> usize {
        match self.dirty {
            Dirty::List(list) | Dirty::ListAndBits(list, _) => list.len(),
            Dirty::Bits(bits) => bits.count,
        }
    }

    /// The dirty entities that have a component in `column`, each with that component: the
    /// way to read what changed.
    ///
    /// The same pairs as `dirty()` looked up in `column` one by one, in an order that walks
    /// memory forwards: when every entity of `column` is dirty, the column in storage order
    /// (a plain walk of its values); after a dense delivery, slot order (through a bit per
    /// slot, never building the dirty list); otherwise the order of `dirty()`. Writes the
    /// system made to the column before the call are seen. `column` must be one of the
    /// world the system runs in.
    ///
    /// Consume it with `for_each` (or `sum`, `fold`, ...: anything built on `fold`), which runs
    /// one plain loop for the kind of delivery at hand; a `for` loop goes through `next`,
    /// which decides again at each entity, and costs up to 1.4 times as much per entity once
    /// the reads miss the caches (as with bevy's `Query::for_each`).
    ///
    /// ```
    /// use ecs::{SystemDesc, SystemEntities, World};
    ///
    /// struct Hp(u32);
    /// struct Total(u32);
    /// let mut world = World::new();
    /// world.insert_resource(Total(0));
    /// world.add_system(
    ///     SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
    ///     |world: &mut World, entities: &SystemEntities| {
    ///         let total: u32 = entities.dirty_in(world.column::<Hp>()).map(|(_, hp)| hp.0).sum();
    ///         world.resource_mut::<Total>().0 = total;
    ///     },
    /// );
    /// let a = world.spawn((Hp(3),));
    /// world.spawn((Hp(4),));
    /// world.update();
    /// assert_eq!(world.resource::<Total>().0, 7, "both new");
    /// world.get_mut::<Hp>(a).unwrap().0 = 10;
    /// world.update();
    /// assert_eq!(world.resource::<Total>().0, 10, "only the one that changed");
    /// ```
    pub fn dirty_in<'c, T: 'static>(
        &self,
        column: &'c Column<T>,
    ) -> impl Iterator<Item = (Entity, &'c T)> + use<'a, 'c, T> {
        let whole = self.whole.is_some_and(|(log, len)| {
            column
                .change_log()
                .is_some_and(|l| Rc::ptr_eq(l, log) && l.borrow().entries.len() == *len)
        });
        if whole {
            return DirtyIn::new(Walk::Column, column, &[], &[]);
        }
        match self.dirty {
            Dirty::List(list) => DirtyIn::new(Walk::List, column, list, &[]),
            Dirty::Bits(bits) | Dirty::ListAndBits(_, bits) => {
                DirtyIn::new(Walk::Bits, column, &[], &bits.words)
            }
        }
    }

    /// Entities that stopped being tracked since this system last ran: despawned, cleared, or
    /// lost a required component. Handles may be stale; use them as keys, not to read
    /// components. Delivered whether or not change tracking is on, so a system that keeps
    /// per-entity state (an index, a cache) can drop it. Holds at most one handle per slot (the
    /// newest), so key such state by [`Entity::index`] when slots may be reused in between.
    #[inline]
    pub fn removed(&self) -> &'a [Entity] {
        self.removed
    }
}

/// How [`DirtyIn`] walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// Every entity of the column is dirty: the column, by position.
    Column,
    /// The dirty list, each looked up.
    List,
    /// The bit set of a dense delivery, each set slot looked up.
    Bits,
}

/// The iterator of [`SystemEntities::dirty_in`]. A struct rather than an enum of iterators, so
/// that a `for` loop, which calls `next` at each entity, can keep its state in registers.
struct DirtyIn<'a, 'c, T> {
    walk: Walk,
    column: &'c Column<T>,
    /// `Walk::List`: the dirty entities.
    list: &'a [Entity],
    /// `Walk::Bits`: the bits.
    words: &'a [u64],
    /// The next position in the column (`Column`) or the list (`List`); one past the word
    /// `word` came from (`Bits`).
    at: usize,
    /// `Walk::Bits`: the bits of `words[at - 1]` not handed out yet.
    word: u64,
}

impl<'a, 'c, T: 'static> DirtyIn<'a, 'c, T> {
    fn new(walk: Walk, column: &'c Column<T>, list: &'a [Entity], words: &'a [u64]) -> Self {
        Self {
            walk,
            column,
            list,
            words,
            at: 0,
            word: 0,
        }
    }
}

impl<'c, T: 'static> Iterator for DirtyIn<'_, 'c, T> {
    type Item = (Entity, &'c T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let column = self.column;
        match self.walk {
            Walk::Column => {
                let e = *column.entities().get(self.at)?;
                let v = &column.values()[self.at];
                self.at += 1;
                Some((e, v))
            }
            Walk::List => {
                while let Some(&e) = self.list.get(self.at) {
                    self.at += 1;
                    if let Some(v) = column.get(e) {
                        return Some((e, v));
                    }
                }
                None
            }
            Walk::Bits => loop {
                while self.word == 0 {
                    self.word = *self.words.get(self.at)?;
                    self.at += 1;
                }
                let slot = ((self.at - 1) * 64) as u32 + self.word.trailing_zeros();
                self.word &= self.word - 1;
                if let Some(hit) = column.get_in_slot(slot) {
                    return Some(hit);
                }
            },
        }
    }

    #[inline]
    fn fold<Acc, F>(self, init: Acc, mut f: F) -> Acc
    where
        F: FnMut(Acc, Self::Item) -> Acc,
    {
        // One loop per walk, each plain enough for the optimizer.
        let column = self.column;
        match self.walk {
            Walk::Column => column.entities()[self.at..]
                .iter()
                .zip(&column.values()[self.at..])
                .fold(init, |acc, (&e, v)| f(acc, (e, v))),
            Walk::List => self.list[self.at..]
                .iter()
                .fold(init, |acc, &e| match column.get(e) {
                    Some(v) => f(acc, (e, v)),
                    None => acc,
                }),
            Walk::Bits => {
                let mut acc = init;
                // `word` is what is left of word `at - 1`; the words from `at` on are whole.
                let first = self.at.checked_sub(1).map(|w| (w, self.word));
                let rest = self.words.iter().copied().enumerate().skip(self.at);
                for (w, mut set) in first.into_iter().chain(rest) {
                    let base = (w * 64) as u32;
                    while set != 0 {
                        if let Some(hit) = column.get_in_slot(base + set.trailing_zeros()) {
                            acc = f(acc, hit);
                        }
                        set &= set - 1;
                    }
                }
                acc
            }
        }
    }
}

/// A dense delivery's dirty entities as a bit per slot, and the list made from it on demand.
#[derive(Debug, Default)]
pub(crate) struct DirtyBits {
    /// Bit `i % 64` of word `i / 64`: slot `i` holds a dirty entity (live and tracked, so no
    /// other entity can hold that slot during the run). All zero outside a run.
    pub(crate) words: Vec<u64>,
    /// Number of bits set.
    pub(crate) count: usize,
    /// The dirty list, in slot order, once asked for.
    list: OnceCell<Vec<Entity>>,
    /// The list's buffer between runs.
    spare: RefCell<Vec<Entity>>,
}

impl DirtyBits {
    /// The dirty list in slot order, built on the first call of the run: each set slot's
    /// member of `tracked`.
    fn list(&self, tracked: &EntitySet) -> &[Entity] {
        self.list.get_or_init(|| {
            let mut list = self.spare.take();
            list.clear();
            list.reserve(self.count);
            for (w, &word) in self.words.iter().enumerate() {
                let mut set = word;
                while set != 0 {
                    if let Some(e) = tracked.in_slot((w * 64) as u32 + set.trailing_zeros()) {
                        list.push(e);
                    }
                    set &= set - 1;
                }
            }
            list
        })
    }

    /// Forget the run's dirty entities (zeroing the bits) and keep the buffers.
    pub(crate) fn reset(&mut self) {
        self.words.fill(0);
        if let Some(mut list) = self.list.take() {
            list.clear();
            crate::change_log::release_if_oversized(&mut list, self.count);
            *self.spare.get_mut() = list;
        }
        self.count = 0;
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.words.capacity() * size_of::<u64>()
            + self.spare.borrow().capacity() * size_of::<Entity>()
    }
}

/// Handle to a system added with [`World::add_system`].
///
/// [`World::add_system`]: crate::World::add_system
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemId(pub(crate) usize);

/// Snapshot of one system's scheduling state and last-run figures.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    /// Handle of the system.
    pub id: SystemId,
    /// Name given in its [`SystemDesc`].
    ///
    /// [`SystemDesc`]: crate::SystemDesc
    pub name: &'static str,
    /// Scheduling priority.
    pub priority: i32,
    /// Whether it runs in debug-only updates.
    pub debug: bool,
    /// Whether it runs at all.
    pub enabled: bool,
    /// Entities tracked now.
    pub tracked: usize,
    /// Dirty entities it received on its last run.
    pub last_dirty: usize,
    /// Wall time of its last run.
    pub last_duration: Duration,
    /// Number of times it has run (not counting updates that skipped it for having nothing
    /// to react to; see [`SystemDesc::every_update`]).
    ///
    /// [`SystemDesc::every_update`]: crate::SystemDesc::every_update
    pub runs: u64,
}

/// Where a world's heap bytes go, by capacity (what is allocated, used or not):
/// [`World::memory_use`].
///
/// [`World::memory_use`]: crate::World::memory_use
#[derive(Clone, Debug, Default)]
pub struct MemoryUse {
    /// The entity allocator: a slot (generation, liveness, component signature) per index.
    pub entities: usize,
    /// Per component type (its name): its column's entity index and values.
    pub columns: Vec<(&'static str, usize)>,
    /// Per watched component type (its name): its change log and the bit set that dedupes it.
    pub change_logs: Vec<(&'static str, usize)>,
    /// Per system (its name): its tracked, dirty, removed and delivered sets.
    pub systems: Vec<(&'static str, usize)>,
    /// The buffers deliveries use (a bit set and the sort's buffers).
    pub delivery: usize,
}

impl MemoryUse {
    /// Everything above, added up.
    pub fn total(&self) -> usize {
        let sum = |v: &[(&'static str, usize)]| v.iter().map(|(_, b)| b).sum::<usize>();
        self.entities
            + sum(&self.columns)
            + sum(&self.change_logs)
            + sum(&self.systems)
            + self.delivery
    }
}

/// One watched component of a system and its cursor into that component's change log.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) id: crate::ComponentId,
    /// Entries before this position were delivered to (or taken over by) the system.
    pub(crate) cursor: usize,
}

/// The entity sets a system reads while it runs.
#[derive(Debug, Default)]
pub(crate) struct SystemSets {
    pub(crate) tracked: EntitySet,
    pub(crate) removed: ClearableSet,
    /// What the last delivery handed out, when it was not a lent log range.
    pub(crate) delivered: Vec<Entity>,
    /// What a dense delivery handed out, as bits (see [`Dirty::Bits`]).
    pub(crate) bits: DirtyBits,
    /// See [`SystemEntities::whole`]; set for the run only.
    pub(crate) whole: Option<(Rc<RefCell<ChangeLog>>, usize)>,
}

/// A system's own dirty set: entities that do not come from a change log (newly tracked ones,
/// and log entries taken over while the system did not run).
///
/// While every tracked entity is newly tracked (the load of a level, or a system added to a
/// full world) the set would repeat the tracked set entry for entry, in the same order: both
/// append an insert, replace a stale generation in place and fill a removal with their last
/// member. It then holds nothing and stands for the tracked set (`mirrors_tracked`), so a
/// level of many entities does not keep a second copy of every system's tracked set until
/// the first update. The first change that the tracked set does not share (a take-over, a
/// delivery) ends the mirroring.
#[derive(Debug, Default)]
pub(crate) struct OwnDirty {
    set: ClearableSet,
    /// Whether the dirty set is the tracked set (then `set` is empty).
    mirrors_tracked: bool,
}

impl OwnDirty {
    /// Note `entity`, just inserted into `tracked` (its insert returned `true`), as newly
    /// tracked.
    #[inline]
    pub(crate) fn insert_tracked(&mut self, entity: Entity, tracked: &EntitySet) {
        if self.mirrors_tracked {
            return;
        }
        if self.set.is_empty() && tracked.len() == 1 {
            // Both held nothing before: from here they change alike.
            self.mirrors_tracked = true;
            return;
        }
        self.set.insert(entity);
    }

    /// Insert `entity`, a member of the tracked set.
    #[inline]
    pub(crate) fn insert(&mut self, entity: Entity) {
        if !self.mirrors_tracked {
            self.set.insert(entity);
        }
    }

    /// Remove `entity`, just removed from the tracked set.
    #[inline]
    pub(crate) fn remove_untracked(&mut self, entity: Entity) {
        if !self.mirrors_tracked {
            self.set.remove(entity);
        }
    }

    /// Make room for `additional` more newly tracked entities in slots below `slot_end`,
    /// unless they will be mirrored (both sets empty now).
    pub(crate) fn reserve(&mut self, additional: usize, slot_end: u32, tracked: &EntitySet) {
        let will_mirror = self.mirrors_tracked || self.set.is_empty() && tracked.len() == 0;
        if !will_mirror {
            self.set.reserve(additional, slot_end);
        }
    }

    /// Remove everything, keeping the allocations.
    pub(crate) fn clear(&mut self) {
        self.mirrors_tracked = false;
        self.set.clear();
    }

    /// Remove everything, giving the memory back after a burst
    /// ([`ClearableSet::clear_and_release`]).
    pub(crate) fn clear_and_release(&mut self) {
        self.mirrors_tracked = false;
        self.set.clear_and_release();
    }

    /// The members, in insertion order (with removals filled by the last member).
    #[inline]
    pub(crate) fn as_slice<'a>(&'a self, tracked: &'a EntitySet) -> &'a [Entity] {
        if self.mirrors_tracked {
            tracked.as_slice()
        } else {
            self.set.as_slice()
        }
    }

    #[inline]
    pub(crate) fn len(&self, tracked: &EntitySet) -> usize {
        if self.mirrors_tracked {
            tracked.len()
        } else {
            self.set.len()
        }
    }

    #[inline]
    pub(crate) fn is_empty(&self, tracked: &EntitySet) -> bool {
        self.len(tracked) == 0
    }

    /// Bytes allocated on the heap (by capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.set.heap_bytes()
    }
}

//! Storage for one component type, and the change-signalling handle [`Mut`].

use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

use crate::Entity;
use crate::change_log::ChangeLog;
use crate::entity_set::EntitySet;

/// Every component of one type, packed densely, with a sparse index by entity.
///
/// Reading is free of bookkeeping. Writing through [`Column::get_mut`] returns a [`Mut`], which
/// signals a change when it is mutably dereferenced; only columns that some system *watches*
/// record those signals, so writes to unwatched types cost nothing extra.
pub struct Column<T> {
    entities: EntitySet,
    values: Vec<T>,
    /// The change log shared with the world, which hands its entries to the watching systems.
    /// `None` while no system watches this type.
    changes: Option<Rc<RefCell<ChangeLog>>>,
}

impl<T> Default for Column<T> {
    fn default() -> Self {
        Self {
            entities: EntitySet::default(),
            values: Vec::new(),
            changes: None,
        }
    }
}

impl<T> fmt::Debug for Column<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Column")
            .field("type", &std::any::type_name::<T>())
            .field("len", &self.values.len())
            .field("watched", &self.changes.is_some())
            .finish()
    }
}

impl<T: 'static> Column<T> {
    /// The component of `entity`, or `None` if it has none (or the handle is stale).
    #[inline]
    pub fn get(&self, entity: Entity) -> Option<&T> {
        self.entities.index_of(entity).map(|i| &self.values[i])
    }

    /// A change-signalling handle to the component of `entity`.
    #[inline]
    pub fn get_mut(&mut self, entity: Entity) -> Option<Mut<'_, T>> {
        let i = self.entities.index_of(entity)?;
        Some(Mut {
            value: &mut self.values[i],
            entity,
            changes: self.changes.as_deref(),
            log: log_change_inline,
        })
    }

    /// Whether `entity` has this component.
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.entities.contains(entity)
    }

    /// Number of entities with this component.
    #[inline]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no entity has this component.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The entities that have this component, in storage order.
    #[inline]
    pub fn entities(&self) -> &[Entity] {
        self.entities.as_slice()
    }

    /// Every component, in storage order: `values()[i]` belongs to `entities()[i]`.
    #[inline]
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Every component mutably, in storage order: `values_mut()[i]` belongs to `entities()[i]`.
    ///
    /// # Warning
    /// A plain `&mut [T]` cannot report which elements were written, so calling this counts as
    /// a change to *every* component in the column for the systems watching `T`, whether or not
    /// you write. Signalling costs O(1) here; the watching systems then receive every entity of
    /// the column as dirty. Use [`Column::get_mut`] or [`Column::iter_mut`] to signal only what
    /// you write.
    ///
    /// ```
    /// use ecs::World;
    ///
    /// struct Age(u32);
    /// let mut world = World::new();
    /// world.spawn((Age(1),));
    /// world.spawn((Age(5),));
    /// for age in world.column_mut::<Age>().values_mut() {
    ///     age.0 += 1;
    /// }
    /// let ages: Vec<u32> = world.column::<Age>().values().iter().map(|a| a.0).collect();
    /// assert_eq!(ages, [2, 6]);
    /// ```
    #[inline]
    pub fn values_mut(&mut self) -> &mut [T] {
        if let Some(changes) = &self.changes {
            changes.borrow_mut().all = true;
        }
        &mut self.values
    }

    /// Iterate over `(entity, &component)` in storage order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Entity, &T)> + '_ {
        self.entities.as_slice().iter().copied().zip(&self.values)
    }

    /// Iterate over `(entity, Mut<component>)` in storage order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Entity, Mut<'_, T>)> + '_ {
        let changes = self.changes.as_deref();
        self.entities
            .as_slice()
            .iter()
            .copied()
            .zip(&mut self.values)
            .map(move |(entity, value)| {
                (
                    entity,
                    Mut {
                        value,
                        entity,
                        changes,
                        log: log_change,
                    },
                )
            })
    }

    /// Component at storage position `i` if it belongs to `entity`, else a sparse lookup.
    ///
    /// Columns filled in the same order mostly keep the same order, so a join that walks one
    /// column and probes another mostly hits this fast path even when they are not identical.
    #[inline]
    pub(crate) fn get_hinted(&self, entity: Entity, i: usize) -> Option<&T> {
        match self.entities.as_slice().get(i) {
            Some(&e) if e == entity => Some(&self.values[i]),
            _ => self.get(entity),
        }
    }

    /// The component of the entity in `slot`, whatever its generation, with that entity.
    #[inline]
    pub(crate) fn get_in_slot(&self, slot: u32) -> Option<(Entity, &T)> {
        let entity = self.entities.in_slot(slot)?;
        self.entities
            .index_of(entity)
            .map(|i| (entity, &self.values[i]))
    }

    /// The change log this column marks, if some system watches it.
    #[inline]
    pub(crate) fn change_log(&self) -> Option<&Rc<RefCell<ChangeLog>>> {
        self.changes.as_ref()
    }

    /// Insert or replace; returns the old value.
    pub(crate) fn insert(&mut self, entity: Entity, value: T) -> Option<T> {
        self.mark_changed(entity);
        match self.entities.index_of(entity) {
            Some(i) => Some(std::mem::replace(&mut self.values[i], value)),
            None => {
                self.entities.insert(entity);
                self.values.push(value);
                None
            }
        }
    }

    /// Insert the component of an entity being spawned, without a change mark: every system
    /// that will track the entity receives it as newly tracked (dirty) anyway, and the others
    /// never receive it, so a log entry would only cost memory and a duplicate to filter.
    pub(crate) fn insert_spawned(&mut self, entity: Entity, value: T) {
        match self.entities.index_of(entity) {
            // A bundle naming the type twice: the later value wins, as with `insert`.
            Some(i) => self.values[i] = value,
            None => {
                self.entities.insert(entity);
                self.values.push(value);
            }
        }
    }

    pub(crate) fn remove(&mut self, entity: Entity) -> Option<T> {
        let i = self.entities.remove(entity)?;
        self.mark_changed(entity);
        Some(self.values.swap_remove(i))
    }

    #[inline]
    fn mark_changed(&self, entity: Entity) {
        if let Some(changes) = &self.changes {
            changes.borrow_mut().mark(entity);
        }
    }
}

/// Type-erased column operations the world needs without knowing `T`.
pub(crate) trait AnyColumn: Any {
    /// Drop `entity`'s component (despawn); not a change signal, the entity is gone.
    fn despawn(&mut self, entity: Entity);
    /// Drop every component; the world clears the change log.
    fn clear(&mut self);
    /// Start recording changes into `log`.
    fn watch(&mut self, log: Rc<RefCell<ChangeLog>>);
    /// The entities in the column, in storage order.
    fn entities(&self) -> &[Entity];
    /// Bytes allocated on the heap (by capacity): the entity index and the values.
    fn heap_bytes(&self) -> usize;
    /// Make room for `additional` more components, of entities in slots below `slot_end`.
    fn reserve(&mut self, additional: usize, slot_end: u32);
}

impl<T: 'static> AnyColumn for Column<T> {
    fn despawn(&mut self, entity: Entity) {
        // Its change-log entry, if any, stays: delivery skips handles that are not tracked.
        if let Some(i) = self.entities.remove(entity) {
            self.values.swap_remove(i);
        }
    }

    fn clear(&mut self) {
        self.entities.clear();
        self.values.clear();
    }

    fn watch(&mut self, log: Rc<RefCell<ChangeLog>>) {
        self.changes = Some(log);
    }

    fn entities(&self) -> &[Entity] {
        self.entities.as_slice()
    }

    fn heap_bytes(&self) -> usize {
        self.entities.heap_bytes() + self.values.capacity() * size_of::<T>()
    }

    fn reserve(&mut self, additional: usize, slot_end: u32) {
        self.entities.reserve(additional, slot_end);
        self.values.reserve_exact(additional);
    }
}

/// Record `entity` in a change log, inline: the [`Mut`] of a single lookup
/// ([`Column::get_mut`], [`World::get_mut`](crate::World::get_mut)), so that a loop of them
/// marks with a few loads and stores and no call.
#[inline(always)]
fn log_change_inline(changes: &RefCell<ChangeLog>, entity: Entity) {
    changes.borrow_mut().mark(entity);
}

/// Record `entity` in a change log, out of line: the [`Mut`]s handed out per element by
/// [`Column::iter_mut`] and [`join_mut`], whose loops stay small enough for the optimizer to
/// keep in registers.
#[cold]
#[inline(never)]
fn log_change(changes: &RefCell<ChangeLog>, entity: Entity) {
    changes.borrow_mut().mark(entity);
}

/// Mutable access to a component that signals a change to the systems watching its type.
///
/// Reading through `Mut` (via [`Deref`]) signals nothing. The first mutable dereference marks
/// the entity changed; [`Mut::set_if_neq`] writes and signals only when the value differs.
///
/// ```
/// use ecs::World;
///
/// #[derive(PartialEq, Debug)]
/// struct Health(u32);
///
/// let mut world = World::new();
/// let e = world.spawn((Health(10),));
/// let mut health = world.get_mut::<Health>(e).unwrap();
/// assert!(!health.set_if_neq(Health(10)), "same value: no write, no change signal");
/// assert!(health.set_if_neq(Health(8)));
/// assert_eq!(*world.get::<Health>(e).unwrap(), Health(8));
/// ```
pub struct Mut<'a, T> {
    value: &'a mut T,
    entity: Entity,
    /// Taken on the first signal: the entity stays logged until the world delivers changes,
    /// which cannot happen while this borrow lives, so later signals would be no-ops.
    changes: Option<&'a RefCell<ChangeLog>>,
    /// How to signal: inline for a single lookup, out of line in per-element loops.
    log: fn(&RefCell<ChangeLog>, Entity),
}

impl<T> Mut<'_, T> {
    /// The entity this component belongs to.
    #[inline]
    pub fn entity(&self) -> Entity {
        self.entity
    }

    /// Signal a change without writing (e.g. after interior mutation).
    #[inline]
    pub fn set_changed(&mut self) {
        if let Some(changes) = self.changes.take() {
            (self.log)(changes, self.entity);
        }
    }

    /// Write `value` and signal a change, only if it differs from the current value.
    /// Returns whether it wrote.
    #[inline]
    pub fn set_if_neq(&mut self, value: T) -> bool
    where
        T: PartialEq,
    {
        if *self.value == value {
            return false;
        }
        *self.value = value;
        self.set_changed();
        true
    }
}

impl<T> Deref for Mut<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T> DerefMut for Mut<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.set_changed();
        self.value
    }
}

impl<T: fmt::Debug> fmt::Debug for Mut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Mut").field(&self.value).finish()
    }
}

/// Iterate over every entity that has both an `A` and a `B`, with `A` mutable.
///
/// Walks `a` in storage order and probes `b`; when the two columns hold the same entities in
/// the same order (as they do when filled together) it is a plain zip of the value slices. Each
/// [`Mut`] signals a change only if written; see [`join_values_mut`] for the faster form that
/// signals every `A`.
pub fn join_mut<'a, A: 'static, B: 'static>(
    a: &'a mut Column<A>,
    b: &'a Column<B>,
) -> impl Iterator<Item = (Entity, Mut<'a, A>, &'a B)> + 'a {
    let changes = a.changes.as_deref();
    Join::new(&a.entities, &mut a.values, b).map(move |(entity, value, b)| {
        (
            entity,
            Mut {
                value,
                entity,
                changes,
                log: log_change,
            },
            b,
        )
    })
}

/// Iterate over every entity that has both an `A` and a `B`, with `A` as a plain `&mut A`.
///
/// For loops that write every `A` (`pos += vel`): there is no [`Mut`] per element, and when the
/// two columns hold the same entities in the same order (as they do when filled together) the
/// loop is a plain zip of the two value slices.
///
/// # Warning
/// Like [`Column::values_mut`], this counts as a change to *every* `A` in the column for the
/// systems watching `A`, whether or not you write (signalled once, in O(1)). Use [`join_mut`]
/// when only some elements are written.
///
/// ```
/// use ecs::{World, join_values_mut};
///
/// struct Pos(f32);
/// struct Vel(f32);
/// let mut world = World::new();
/// let e = world.spawn((Pos(1.0), Vel(0.5)));
/// world.spawn((Pos(7.0),)); // no Vel: skipped
/// let (pos, vel) = world.columns_mut::<Pos, Vel>();
/// for (_, p, v) in join_values_mut(pos, vel) {
///     p.0 += v.0;
/// }
/// assert_eq!(world.get::<Pos>(e).unwrap().0, 1.5);
/// ```
pub fn join_values_mut<'a, A: 'static, B: 'static>(
    a: &'a mut Column<A>,
    b: &'a Column<B>,
) -> impl Iterator<Item = (Entity, &'a mut A, &'a B)> + 'a {
    if let Some(changes) = &a.changes {
        changes.borrow_mut().all = true;
    }
    Join::new(&a.entities, &mut a.values, b)
}

/// Whether two entity slices are equal, without an early exit so that it vectorizes: for the
/// common aligned case it reads both slices once anyway.
fn same_entities(a: &[Entity], b: &[Entity]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .fold(0, |diff, (x, y)| diff | (x.to_bits() ^ y.to_bits()))
            == 0
}

type Walk<'a, A> = std::iter::Zip<std::slice::Iter<'a, Entity>, std::slice::IterMut<'a, A>>;

/// The iterator behind [`join_mut`] and [`join_values_mut`].
enum Join<'a, A, B> {
    /// Both columns hold the same entities in the same order: a zip of the value slices.
    Aligned(std::iter::Zip<Walk<'a, A>, std::slice::Iter<'a, B>>),
    /// Otherwise: walk `A` and probe `B` by entity, trying the same position first.
    Probed(std::iter::Enumerate<Walk<'a, A>>, &'a Column<B>),
}

impl<'a, A: 'static, B: 'static> Join<'a, A, B> {
    fn new(entities: &'a EntitySet, values: &'a mut [A], b: &'a Column<B>) -> Self {
        let entities = entities.as_slice();
        let walk = entities.iter().zip(values.iter_mut());
        if same_entities(entities, b.entities.as_slice()) {
            Self::Aligned(walk.zip(b.values.iter()))
        } else {
            Self::Probed(walk.enumerate(), b)
        }
    }
}

impl<'a, A: 'static, B: 'static> Iterator for Join<'a, A, B> {
    type Item = (Entity, &'a mut A, &'a B);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::Aligned(it) => it.next().map(|((&e, a), b)| (e, a, b)),
            Self::Probed(it, b) => {
                it.find_map(|(i, (&e, a))| b.get_hinted(e, i).map(|b| (e, a, b)))
            }
        }
    }

    #[inline]
    fn fold<Acc, F>(self, init: Acc, mut f: F) -> Acc
    where
        F: FnMut(Acc, Self::Item) -> Acc,
    {
        // One loop per variant, so the aligned one is a plain zip the compiler can optimize.
        match self {
            Self::Aligned(it) => it.fold(init, |acc, ((&e, a), b)| f(acc, (e, a, b))),
            Self::Probed(it, b) => it.fold(init, |acc, (i, (&e, a))| match b.get_hinted(e, i) {
                Some(b) => f(acc, (e, a, b)),
                None => acc,
            }),
        }
    }
}

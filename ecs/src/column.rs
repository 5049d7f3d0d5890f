//! Storage for one component type, and the change-signalling handle [`Mut`].

use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::Entity;
use crate::component::Component;
use crate::delivery::DirtySet;
use crate::entity_set::EntitySet;

/// Every component of one type, packed densely, with an index by entity. Writes go through
/// [`Mut`]; only a column some system watches records them, so other writes cost nothing more.
pub struct Column<T> {
    entities: EntitySet,
    values: Vec<T>,
    /// The slots changed since its watchers last took them; `None` while nothing watches it.
    changes: Option<RefCell<DirtySet>>,
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
    pub fn get(&self, entity: Entity) -> Option<&T> {
        self.entities.index_of(entity).map(|i| &self.values[i])
    }

    /// A change-signalling handle to the component of `entity`.
    pub fn get_mut(&mut self, entity: Entity) -> Option<Mut<'_, T>> {
        let i = self.entities.index_of(entity)?;
        Some(self.mut_at(i, entity))
    }

    /// The position of `entity`'s component in [`Column::values`].
    pub(crate) fn position(&self, entity: Entity) -> Option<usize> {
        self.entities.index_of(entity)
    }

    /// A change-signalling handle to the component at `position`, which is `entity`'s.
    pub(crate) fn mut_at(&mut self, position: usize, entity: Entity) -> Mut<'_, T> {
        Mut {
            value: &mut self.values[position],
            entity,
            changes: self.changes.as_ref(),
        }
    }

    /// Whether `entity` has this component.
    pub fn contains(&self, entity: Entity) -> bool {
        self.entities.contains(entity)
    }

    /// Number of entities with this component.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no entity has this component.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The entities that have this component, in storage order.
    pub fn entities(&self) -> &[Entity] {
        self.entities.as_slice()
    }

    /// Every component, in storage order: `values()[i]` belongs to `entities()[i]`.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// Iterate over `(entity, &component)` in storage order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Entity, &T)> + '_ {
        self.entities.as_slice().iter().copied().zip(&self.values)
    }

    /// Iterate over `(entity, Mut<component>)` in storage order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Entity, Mut<'_, T>)> + '_ {
        let changes = self.changes.as_ref();
        let entities = self.entities.as_slice().iter().copied();
        entities.zip(&mut self.values).map(move |(entity, value)| {
            let value = Mut {
                value,
                entity,
                changes,
            };
            (entity, value)
        })
    }

    /// Insert or replace; returns the old value.
    pub(crate) fn insert(&mut self, entity: Entity, value: T) -> Option<T> {
        self.mark_changed(entity);
        self.insert_spawned(entity, value)
    }

    /// Insert the component of an entity being spawned, without a change mark: every system
    /// that will track the entity receives it as newly tracked anyway.
    pub(crate) fn insert_spawned(&mut self, entity: Entity, value: T) -> Option<T> {
        match self.entities.index_of(entity) {
            Some(i) => Some(std::mem::replace(&mut self.values[i], value)),
            None => {
                self.entities.insert(entity);
                self.values.push(value);
                None
            }
        }
    }

    pub(crate) fn remove(&mut self, entity: Entity) -> Option<T> {
        let i = self.entities.remove(entity)?;
        self.mark_changed(entity);
        Some(self.values.swap_remove(i))
    }

    fn mark_changed(&self, entity: Entity) {
        if let Some(changes) = &self.changes {
            changes.borrow_mut().insert(entity.index());
        }
    }
}

/// Type-erased column operations the world needs without knowing `T`.
pub(crate) trait AnyColumn: Any + Send + fmt::Debug {
    /// Drop `entity`'s component (despawn; not a change).
    fn despawn(&mut self, entity: Entity);
    /// Drop every component and every change bit.
    fn clear(&mut self);
    /// Start recording changes (idempotent).
    fn watch(&mut self);
    /// The change bits, if some system watches this type.
    fn changes(&self) -> Option<std::cell::Ref<'_, DirtySet>>;
    /// [`AnyColumn::changes`], mutably.
    fn changes_mut(&mut self) -> Option<&mut DirtySet>;
    /// Bytes allocated on the heap (by capacity).
    fn heap_bytes(&self) -> usize;
    /// Make room for `additional` more components, of entities in slots below `slot_end`.
    fn reserve(&mut self, additional: usize, slot_end: u32);
}

impl<T: 'static + Send> AnyColumn for Column<T> {
    fn despawn(&mut self, entity: Entity) {
        // Its change bit, if any, stays: delivery skips slots a system does not track.
        if let Some(i) = self.entities.remove(entity) {
            self.values.swap_remove(i);
        }
    }

    fn clear(&mut self) {
        self.entities.clear();
        if let Some(changes) = &mut self.changes {
            changes.get_mut().clear();
        }
        self.values.clear(); // last: it runs the components' `Drop`
    }

    fn watch(&mut self) {
        self.changes.get_or_insert_default();
    }

    fn changes_mut(&mut self) -> Option<&mut DirtySet> {
        self.changes.as_mut().map(RefCell::get_mut)
    }

    fn heap_bytes(&self) -> usize {
        self.entities.heap_bytes() + self.values.capacity() * size_of::<T>()
    }

    fn changes(&self) -> Option<std::cell::Ref<'_, DirtySet>> {
        self.changes.as_ref().map(RefCell::borrow)
    }

    fn reserve(&mut self, additional: usize, slot_end: u32) {
        self.entities.reserve(additional, slot_end);
        self.values.reserve_exact(additional);
    }
}

/// Mutable access to a component that signals a change to the systems watching its type:
/// reading through it signals nothing, the first mutable dereference marks the entity changed.
pub struct Mut<'a, T> {
    value: &'a mut T,
    entity: Entity,
    /// Taken on the first signal: the bit stays set until the world delivers changes, which
    /// cannot happen while this borrow lives, so later signals would be no-ops.
    changes: Option<&'a RefCell<DirtySet>>,
}

impl<T> Mut<'_, T> {
    /// Signal a change without writing (e.g. after interior mutation).
    #[inline(always)]
    pub fn set_changed(&mut self) {
        if let Some(changes) = self.changes.take() {
            changes.borrow_mut().insert(self.entity.index());
        }
    }

    /// Write `value` and signal a change only if it differs; returns whether it wrote.
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

    fn deref(&self) -> &T {
        self.value
    }
}

impl<T> DerefMut for Mut<'_, T> {
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

// Upcast to `dyn Any` (a load from the vtable, no call), then one call to check the type.
pub(crate) fn downcast_mut<T: Component>(column: &mut dyn AnyColumn) -> &mut Column<T> {
    let column: &mut dyn Any = column;
    column
        .downcast_mut()
        .expect("column stored under its own TypeId")
}

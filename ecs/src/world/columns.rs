//! Component types and their columns: registering a type (now, or later through a
//! `ComponentRef`), finding its column.

use std::any::{Any, TypeId, type_name};

use super::{World, change_log, downcast_mut};
use crate::column::Column;
use crate::component::{Component, ComponentId, MAX_COMPONENT_TYPES};
use crate::system::MemoryUse;

/// Reference to a component type that can register itself with a world later.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ComponentRef {
    pub(crate) register: fn(&mut World) -> ComponentId,
}

impl ComponentRef {
    pub(crate) fn of<T: Component>() -> Self {
        Self {
            register: World::register::<T>,
        }
    }
}

impl World {
    /// Register component type `T` (idempotent) and return its id. Spawning, inserting and
    /// adding systems register types implicitly.
    ///
    /// # Panics
    /// If the world already has [`MAX_COMPONENT_TYPES`] other component types.
    pub fn register<T: Component>(&mut self) -> ComponentId {
        if let Some(id) = self.component_id::<T>() {
            return id;
        }
        let index = self.columns.len();
        assert!(
            index < MAX_COMPONENT_TYPES,
            "cannot register `{}`: a world holds at most {MAX_COMPONENT_TYPES} component types",
            type_name::<T>()
        );
        let id = ComponentId(index as u16);
        self.columns.push(Box::new(Column::<T>::default()));
        self.component_types
            .push((TypeId::of::<T>(), type_name::<T>()));
        self.component_ids.insert(index, &self.component_types);
        self.requirers.push(Vec::new());
        self.watchers.push(Vec::new());
        self.logs.push(None);
        id
    }

    /// Every component type the world has a column for, in registration order (the order of
    /// their [`ComponentId`]s): its `TypeId` and its [`type_name`]. A type is registered by the
    /// first spawn or insert of one, by a system that requires or watches it, or by
    /// [`World::register`], and stays registered (its column may be empty, even after
    /// [`World::clear`]). For checks that must cover every component type, such as a test that a
    /// state hash or a save format misses none; compare `TypeId`s (the names are for messages,
    /// and `std` does not promise their exact form).
    ///
    /// ```
    /// use std::any::TypeId;
    ///
    /// struct Health(u32);
    /// struct Name(&'static str);
    /// let mut world = ecs::World::new();
    /// world.spawn((Health(3),));
    /// world.register::<Name>();
    /// let types: Vec<TypeId> = world.component_types().map(|(id, _)| id).collect();
    /// assert_eq!(types, [TypeId::of::<Health>(), TypeId::of::<Name>()]);
    /// ```
    pub fn component_types(&self) -> impl ExactSizeIterator<Item = (TypeId, &'static str)> + '_ {
        self.component_types.iter().copied()
    }

    /// Id of component type `T`, if registered.
    #[inline]
    pub fn component_id<T: Component>(&self) -> Option<ComponentId> {
        let t = TypeId::of::<T>();
        let id = self.component_ids.get(t);
        match self.component_types.get(usize::from(id)) {
            Some(&(seen, _)) if seen == t => Some(ComponentId(id)),
            _ => None,
        }
    }

    /// `T`'s column, if registered: found with one table load, its type checked by the
    /// downcast alone.
    #[inline]
    pub(crate) fn typed_column<T: Component>(&self) -> Option<&Column<T>> {
        let id = self.component_ids.get(TypeId::of::<T>());
        let column: &dyn Any = &**self.columns.get(usize::from(id))?;
        column.downcast_ref()
    }

    /// [`World::typed_column`], mutably.
    #[inline]
    pub(crate) fn typed_column_mut<T: Component>(&mut self) -> Option<&mut Column<T>> {
        let id = self.component_ids.get(TypeId::of::<T>());
        let column: &mut dyn Any = &mut **self.columns.get_mut(usize::from(id))?;
        column.downcast_mut()
    }

    /// Every component of type `T`.
    ///
    /// # Panics
    /// If `T` was never registered (no entity ever had one and no system names it); use
    /// [`World::try_column`] when that is expected.
    #[inline]
    pub fn column<T: Component>(&self) -> &Column<T> {
        self.try_column()
            .unwrap_or_else(|| panic!("component type `{}` was never registered", type_name::<T>()))
    }

    /// Every component of type `T`, or `None` if `T` was never registered.
    #[inline]
    pub fn try_column<T: Component>(&self) -> Option<&Column<T>> {
        self.typed_column()
    }

    /// Every component of type `T`, found by its id (from [`World::component_id`], kept by
    /// the caller): no lookup by type. `None` if `id` is not `T`'s.
    #[inline]
    pub fn column_by_id<T: Component>(&self, id: ComponentId) -> Option<&Column<T>> {
        let column: &dyn Any = &**self.columns.get(id.index())?;
        column.downcast_ref()
    }

    /// Where the world's heap bytes go: entities, each column, each change log, each system's
    /// entity sets, the delivery buffers (by capacity). Resources and events are left out:
    /// their types are the caller's, who can count them.
    ///
    /// ```
    /// struct Hp(u32);
    /// let mut world = ecs::World::new();
    /// for i in 0..100 {
    ///     world.spawn((Hp(i),));
    /// }
    /// let memory = world.memory_use();
    /// // Spawned in slot order, the handles are their own index (see `EntitySet`).
    /// assert!(memory.columns[0].1 >= 100 * (4 + 8), "values, dense handles");
    /// assert!(memory.total() >= memory.entities + memory.columns[0].1);
    /// ```
    pub fn memory_use(&self) -> MemoryUse {
        MemoryUse {
            entities: self.entities.heap_bytes(),
            columns: self
                .component_types
                .iter()
                .zip(&self.columns)
                .map(|((_, name), c)| (*name, c.heap_bytes()))
                .collect(),
            change_logs: self
                .watched
                .iter()
                .map(|id| {
                    let bytes = change_log(&self.logs, *id).borrow().heap_bytes();
                    (self.component_types[id.index()].1, bytes)
                })
                .collect(),
            systems: self
                .order
                .iter()
                .map(|&s| (self.systems[s].name, self.systems[s].heap_bytes()))
                .collect(),
            delivery: self.scratch.heap_bytes() + self.sorter.heap_bytes(),
        }
    }

    /// Number of registered component types; grows by one with each new type, so a cache of
    /// ids is current while this is unchanged.
    #[inline]
    pub fn component_type_count(&self) -> usize {
        self.columns.len()
    }

    /// Every component of type `T`, mutably (registering `T` if needed). Writes through
    /// [`Column::get_mut`] signal changes; adding and removing go through the world.
    #[inline]
    pub fn column_mut<T: Component>(&mut self) -> &mut Column<T> {
        let id = self.register::<T>();
        downcast_mut::<T>(&mut *self.columns[id.index()])
    }

    /// Two columns of different types at once, mutably.
    ///
    /// # Panics
    /// If `A` and `B` are the same type.
    pub fn columns_mut<A: Component, B: Component>(&mut self) -> (&mut Column<A>, &mut Column<B>) {
        let a = self.register::<A>().index();
        let b = self.register::<B>().index();
        assert_ne!(
            a,
            b,
            "columns_mut::<{0}, {0}>: asked for the same column twice",
            type_name::<A>()
        );
        let [ca, cb] = self
            .columns
            .get_disjoint_mut([a, b])
            .expect("distinct registered columns");
        (downcast_mut::<A>(&mut **ca), downcast_mut::<B>(&mut **cb))
    }

    /// Three columns of different types at once, mutably.
    ///
    /// # Panics
    /// If any two of `A`, `B`, `C` are the same type.
    pub fn columns3_mut<A: Component, B: Component, C: Component>(
        &mut self,
    ) -> (&mut Column<A>, &mut Column<B>, &mut Column<C>) {
        let ids = [
            self.register::<A>().index(),
            self.register::<B>().index(),
            self.register::<C>().index(),
        ];
        let [ca, cb, cc] = self.columns.get_disjoint_mut(ids).unwrap_or_else(|_| {
            panic!(
                "columns3_mut::<{}, {}, {}>: asked for the same column twice",
                type_name::<A>(),
                type_name::<B>(),
                type_name::<C>()
            )
        });
        (
            downcast_mut::<A>(&mut **ca),
            downcast_mut::<B>(&mut **cb),
            downcast_mut::<C>(&mut **cc),
        )
    }
}

//! Typed queries: a system's tracked, changed or added entities, each with its components.

use std::any::{TypeId, type_name};

use crate::column::{AnyColumn, Column, Mut, downcast_mut};
use crate::component::Component;
use crate::world::Resources;
use crate::{Entity, World};

/// Most components one query names (a tuple of eight, or nested tuples adding up to eight).
const MAX_TERMS: usize = 8;

/// What a [`Query`] reads of each entity: `&T`, `&mut T` (a change-signalling [`Mut`]),
/// `Option<D>` (for components an entity may lack), or a tuple of those naming each type once.
/// An entity without a component named outside an `Option` is skipped.
pub trait QueryData: sealed::Sealed {
    /// What the query yields for one entity, borrowed from the query for `'q`.
    type Item<'q>;
    #[doc(hidden)]
    type Fetch<'w>;
    #[doc(hidden)]
    type Index<'w>;
    #[doc(hidden)]
    fn terms(terms: &mut Terms);
    #[doc(hidden)]
    fn fetch<'w>(columns: &mut Borrowed<'w>) -> Self::Fetch<'w>;
    #[doc(hidden)]
    fn index<'w>(fetch: &Self::Fetch<'w>, entity: Entity) -> Option<Self::Index<'w>>;
    #[doc(hidden)]
    fn at<'q, 'w: 'q>(
        fetch: &'q mut Self::Fetch<'w>,
        index: Self::Index<'w>,
        entity: Entity,
    ) -> Self::Item<'q>;
}

mod sealed {
    /// Only this crate's term types and their tuples are [`QueryData`](super::QueryData).
    pub trait Sealed {}
}

/// The component types a query names, in order, each with whether it is borrowed mutably.
#[derive(Debug)]
pub struct Terms {
    types: [(TypeId, &'static str, bool); MAX_TERMS],
    len: usize,
}

impl Terms {
    fn push<T: 'static>(&mut self, mutable: bool) {
        assert!(
            self.len < MAX_TERMS,
            "a query names at most {MAX_TERMS} components"
        );
        self.types[self.len] = (TypeId::of::<T>(), type_name::<T>(), mutable);
        self.len += 1;
    }
}

/// The columns a query borrows, in the order of its terms (`None`: never registered).
#[derive(Debug)]
pub struct Borrowed<'w> {
    columns: [Option<&'w mut dyn AnyColumn>; MAX_TERMS],
    next: usize,
}

impl<'w> Borrowed<'w> {
    /// Borrow the columns `terms` name from `world`, each at most once, without `unsafe`:
    /// visited by ascending id, each split off the front of the columns not yet visited; and
    /// the resources beside them.
    fn new(world: &'w mut World, terms: &Terms) -> (Self, &'w mut Resources) {
        let terms = &terms.types[..terms.len];
        let mut ids = [None; MAX_TERMS];
        for (id, &(t, _, mutable)) in ids.iter_mut().zip(terms) {
            *id = world.component_ids.get(&t).map(|&id| {
                if mutable {
                    world.changed.insert(id);
                }
                id.index()
            });
        }
        let mut order: [usize; MAX_TERMS] = std::array::from_fn(|i| i);
        let order = &mut order[..terms.len()];
        order.sort_unstable_by_key(|&i| ids[i]);
        let mut columns = [const { None }; MAX_TERMS];
        let (mut rest, mut first) = (&mut world.columns[..], 0);
        for &i in &*order {
            let Some(id) = ids[i] else { continue };
            assert!(id >= first, "a query names `{}` twice", terms[i].1);
            let (column, tail) = std::mem::take(&mut rest)[id - first..]
                .split_first_mut()
                .expect("a registered id indexes a column");
            columns[i] = Some(&mut **column);
            (rest, first) = (tail, id + 1);
        }
        (Self { columns, next: 0 }, &mut world.resources)
    }

    /// The next term's column, as a `Column<T>` (`None`: never registered).
    fn take<T: Component>(&mut self) -> Option<&'w mut Column<T>> {
        self.next += 1;
        self.columns[self.next - 1].take().map(downcast_mut)
    }
}

impl<T: Component> sealed::Sealed for &T {}
impl<T: Component> QueryData for &T {
    type Item<'q> = &'q T;
    type Fetch<'w> = Option<&'w Column<T>>;
    type Index<'w> = &'w T;
    fn terms(terms: &mut Terms) {
        terms.push::<T>(false);
    }
    fn fetch<'w>(columns: &mut Borrowed<'w>) -> Self::Fetch<'w> {
        columns.take().map(|c| &*c)
    }
    #[inline]
    fn index<'w>(fetch: &Self::Fetch<'w>, entity: Entity) -> Option<&'w T> {
        fetch.and_then(|c| c.get(entity))
    }
    #[inline]
    fn at<'q, 'w: 'q>(_: &'q mut Self::Fetch<'w>, index: &'w T, _: Entity) -> &'q T {
        index
    }
}

impl<T: Component> sealed::Sealed for &mut T {}
impl<T: Component> QueryData for &mut T {
    type Item<'q> = Mut<'q, T>;
    type Fetch<'w> = Option<&'w mut Column<T>>;
    type Index<'w> = usize;
    fn terms(terms: &mut Terms) {
        terms.push::<T>(true);
    }
    fn fetch<'w>(columns: &mut Borrowed<'w>) -> Self::Fetch<'w> {
        columns.take()
    }
    #[inline]
    fn index<'w>(fetch: &Self::Fetch<'w>, entity: Entity) -> Option<Self::Index<'w>> {
        fetch.as_ref()?.position(entity)
    }
    #[inline]
    fn at<'q, 'w: 'q>(fetch: &'q mut Self::Fetch<'w>, i: usize, entity: Entity) -> Mut<'q, T> {
        let column = fetch.as_mut().expect("an index comes from the column");
        column.mut_at(i, entity)
    }
}

impl<D: QueryData> sealed::Sealed for Option<D> {}
impl<D: QueryData> QueryData for Option<D> {
    type Item<'q> = Option<D::Item<'q>>;
    type Fetch<'w> = D::Fetch<'w>;
    type Index<'w> = Option<D::Index<'w>>;
    fn terms(terms: &mut Terms) {
        D::terms(terms);
    }
    fn fetch<'w>(columns: &mut Borrowed<'w>) -> Self::Fetch<'w> {
        D::fetch(columns)
    }
    #[inline]
    fn index<'w>(fetch: &Self::Fetch<'w>, entity: Entity) -> Option<Self::Index<'w>> {
        Some(D::index(fetch, entity))
    }
    #[inline]
    fn at<'q, 'w: 'q>(
        fetch: &'q mut Self::Fetch<'w>,
        index: Self::Index<'w>,
        entity: Entity,
    ) -> Self::Item<'q> {
        Some(D::at(fetch, index?, entity))
    }
}

macro_rules! tuple_query {
    ($($name:ident $index:ident),*) => {
        impl<$($name: QueryData),*> sealed::Sealed for ($($name,)*) {}
        #[allow(non_snake_case, unused_variables, clippy::unused_unit)]
        impl<$($name: QueryData),*> QueryData for ($($name,)*) {
            type Item<'q> = ($($name::Item<'q>,)*);
            type Fetch<'w> = ($($name::Fetch<'w>,)*);
            type Index<'w> = ($($name::Index<'w>,)*);
            fn terms(terms: &mut Terms) {
                $($name::terms(terms);)*
            }
            fn fetch<'w>(columns: &mut Borrowed<'w>) -> Self::Fetch<'w> {
                ($($name::fetch(columns),)*)
            }
            #[inline]
            fn index<'w>(fetch: &Self::Fetch<'w>, entity: Entity) -> Option<Self::Index<'w>> {
                let ($($name,)*) = fetch;
                Some(($($name::index($name, entity)?,)*))
            }
            #[inline]
            fn at<'q, 'w: 'q>(
                fetch: &'q mut Self::Fetch<'w>,
                index: Self::Index<'w>,
                entity: Entity,
            ) -> Self::Item<'q> {
                let (($($name,)*), ($($index,)*)) = (fetch, index);
                ($($name::at($name, $index, entity),)*)
            }
        }
    };
}

all_tuples!(tuple_query; A a, B b, C c, D d, E e, F f, G g, H h);

/// A system's entities (tracked, changed or added) with the components `D` names, from
/// [`SystemEntities::query`](crate::SystemEntities::query),
/// [`changed`](crate::SystemEntities::changed) or [`added`](crate::SystemEntities::added).
///
/// Entities come in the list's order (slot order for changed and added ones). An item borrows
/// the query, so read with `while let Some((entity, item)) = query.next()` or
/// [`Query::for_each`]: without `unsafe`, a mutable component is lent one entity at a time.
///
/// ```
/// use ecs::{SystemDesc, SystemEntities, World};
///
/// struct Pos(f32);
/// struct Vel(f32);
///
/// let mut world = World::new();
/// world.add_system(SystemDesc::new("movement"), |world: &mut World, entities: &SystemEntities| {
///     let mut movers = entities.query::<(&mut Pos, Option<&Vel>)>(world);
///     while let Some((_, (mut pos, vel))) = movers.next() {
///         pos.0 += vel.map_or(1.0, |v| v.0);
///     }
/// });
/// let e = world.spawn((Pos(0.0), Vel(2.0)));
/// let drifter = world.spawn((Pos(0.0),));
/// world.update();
/// assert_eq!(world.get::<Pos>(e).unwrap().0, 2.0);
/// assert_eq!(world.get::<Pos>(drifter).unwrap().0, 1.0);
/// ```
pub struct Query<'w, 's, D: QueryData> {
    fetch: D::Fetch<'w>,
    entities: std::slice::Iter<'s, Entity>,
    resources: Option<&'w mut Resources>,
}

impl<D: QueryData> std::fmt::Debug for Query<'_, '_, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("data", &type_name::<D>())
            .field("left", &self.entities.len())
            .finish()
    }
}

impl<'w, 's, D: QueryData> Query<'w, 's, D> {
    pub(crate) fn new(world: &'w mut World, entities: &'s [Entity]) -> Self {
        let mut terms = Terms {
            types: [(TypeId::of::<()>(), "", false); MAX_TERMS],
            len: 0,
        };
        D::terms(&mut terms);
        let (mut columns, resources) = Borrowed::new(world, &terms);
        Self {
            fetch: D::fetch(&mut columns),
            entities: entities.iter(),
            resources: Some(resources),
        }
    }

    /// The query and the world's resources apart, to use both in one loop.
    pub fn with_resources(mut self) -> (Self, &'w mut Resources) {
        let resources = self.resources.take();
        let resources = resources.expect("a query holds the resources until this call");
        (self, resources)
    }

    /// The next entity of the list that has the components, with them.
    // Not `Iterator::next`: an item borrows the query (see the type's docs). Inlined, as are
    // the terms' `index` and `at`: a call per entity costs a loop several times its lookups.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> Option<(Entity, D::Item<'_>)> {
        let fetch = &self.fetch;
        let (entity, index) = self
            .entities
            .by_ref()
            .find_map(|&e| Some((e, D::index(fetch, e)?)))?;
        Some((entity, D::at(&mut self.fetch, index, entity)))
    }

    /// The components of any `entity` (in the list or not), if it has them.
    #[inline]
    pub fn get(&mut self, entity: Entity) -> Option<D::Item<'_>> {
        let index = D::index(&self.fetch, entity)?;
        Some(D::at(&mut self.fetch, index, entity))
    }

    /// Call `f` with each remaining entity that has the components, and them.
    pub fn for_each(mut self, mut f: impl FnMut(Entity, D::Item<'_>)) {
        while let Some((entity, item)) = self.next() {
            f(entity, item);
        }
    }

    /// Number of entities left in the list: at most the number of items left.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the list has no entity left (see [`Query::len`]).
    pub fn is_empty(&self) -> bool {
        self.entities.len() == 0
    }
}

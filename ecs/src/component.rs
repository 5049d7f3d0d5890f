//! Component identity: dense ids per type, signatures as bit sets, and bundles for spawning.

use crate::World;

/// Marker for types that can be stored as components: any `'static` type.
pub trait Component: 'static {}
impl<T: 'static> Component for T {}

/// Dense index of a component type within one [`World`], assigned on first use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ComponentId(pub(crate) u16);

impl ComponentId {
    /// The index as a `usize`, for indexing per-component tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Most component types one world can hold; signatures are fixed-size bit sets for speed.
pub const MAX_COMPONENT_TYPES: usize = ComponentSet::WORDS * 64;

/// Set of component types, e.g. an entity's signature or a system's requirements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ComponentSet([u64; ComponentSet::WORDS]);

impl ComponentSet {
    /// One word: 64 types, and an entity's slot in the allocator stays at 16 bytes.
    const WORDS: usize = 1;
    pub(crate) const EMPTY: Self = Self([0; Self::WORDS]);

    #[inline]
    pub(crate) fn insert(&mut self, id: ComponentId) {
        self.0[id.index() / 64] |= 1 << (id.index() % 64);
    }

    #[inline]
    pub(crate) fn remove(&mut self, id: ComponentId) {
        self.0[id.index() / 64] &= !(1 << (id.index() % 64));
    }

    #[inline]
    pub(crate) fn contains(&self, id: ComponentId) -> bool {
        self.0[id.index() / 64] & (1 << (id.index() % 64)) != 0
    }

    /// Whether every type in `other` is also in `self`.
    #[inline]
    pub(crate) fn is_superset(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == *b)
    }

    pub(crate) fn is_empty(&self) -> bool {
        *self == Self::EMPTY
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = ComponentId> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| ComponentId((w * 64 + b) as u16))
        })
    }
}

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

/// A group of components inserted together by [`World::spawn`]: `()` and tuples of up to eight
/// distinct component types.
///
/// Inserting as a bundle updates system membership once, after all components are in place.
pub trait Bundle: 'static {
    /// Register every component type, pushing their ids in tuple order.
    #[doc(hidden)]
    fn register(world: &mut World, ids: &mut Vec<ComponentId>);

    /// Insert every component into `world` for `entity`; `ids` is what [`Bundle::register`]
    /// returned.
    #[doc(hidden)]
    fn insert_into(self, world: &mut World, entity: crate::Entity, ids: &[ComponentId]);
}

macro_rules! tuple_bundle {
    ($($name:ident),*) => {
        impl<$($name: Component),*> Bundle for ($($name,)*) {
            #[allow(unused_variables)]
            fn register(world: &mut World, ids: &mut Vec<ComponentId>) {
                $(ids.push(world.register::<$name>());)*
            }

            #[allow(non_snake_case, unused_variables, unused_mut)]
            fn insert_into(self, world: &mut World, entity: crate::Entity, ids: &[ComponentId]) {
                let ($($name,)*) = self;
                let mut ids = ids.iter().copied();
                $(world.insert_raw(entity, ids.next().expect("one id per component"), $name);)*
            }
        }
    };
}

tuple_bundle!();
tuple_bundle!(A);
tuple_bundle!(A, B);
tuple_bundle!(A, B, C);
tuple_bundle!(A, B, C, D);
tuple_bundle!(A, B, C, D, E);
tuple_bundle!(A, B, C, D, E, F);
tuple_bundle!(A, B, C, D, E, F, G);
tuple_bundle!(A, B, C, D, E, F, G, H);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn superset_and_iteration() {
        let mut a = ComponentSet::EMPTY;
        a.insert(ComponentId(1));
        a.insert(ComponentId(60));
        let mut b = ComponentSet::EMPTY;
        b.insert(ComponentId(60));
        assert!(a.is_superset(&b));
        assert!(!b.is_superset(&a));
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            [ComponentId(1), ComponentId(60)]
        );
        a.remove(ComponentId(1));
        assert_eq!(a.iter().collect::<Vec<_>>(), [ComponentId(60)]);
    }
}

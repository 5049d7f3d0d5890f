//! Component identity: dense ids per type and signatures as bit sets.

/// Marker for types that can be stored as components: any `'static + Send` type.
pub trait Component: 'static + Send {}
impl<T: 'static + Send> Component for T {}

/// Dense index of a component type within one [`World`](crate::World), assigned on first use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ComponentId(pub(crate) u16);

impl ComponentId {
    /// The index as a `usize`, for indexing per-component tables.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// Most component types one world can hold (an entity's signature is one 64-bit word);
/// registering one more panics with a message that names the type.
pub const MAX_COMPONENT_TYPES: usize = 64;

/// Set of component types, e.g. an entity's signature or a system's requirements: a bit per
/// type in one word, hence [`MAX_COMPONENT_TYPES`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ComponentSet(u64);

impl ComponentSet {
    pub(crate) const EMPTY: Self = Self(0);

    #[inline]
    pub(crate) fn insert(&mut self, id: ComponentId) {
        self.0 |= 1 << id.0;
    }

    #[inline]
    pub(crate) fn remove(&mut self, id: ComponentId) {
        self.0 &= !(1 << id.0);
    }

    #[inline]
    pub(crate) fn contains(&self, id: ComponentId) -> bool {
        self.0 & (1 << id.0) != 0
    }

    /// Whether every type in `other` is also in `self`.
    #[inline]
    pub(crate) fn is_superset(&self, other: &Self) -> bool {
        self.0 & other.0 == other.0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Whether `self` and `other` share a type.
    #[inline]
    pub(crate) fn intersects(&self, other: &Self) -> bool {
        self.0 & other.0 != 0
    }

    /// The types in the set, by ascending id: one step per type (none for an empty set).
    pub(crate) fn iter(&self) -> impl Iterator<Item = ComponentId> + '_ {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let id = ComponentId(bits.trailing_zeros() as u16);
            (bits != 0).then(|| {
                bits &= bits - 1;
                id
            })
        })
    }
}

//! When a delivery goes by slot order instead of change order: the `DenseDelivery` threshold.

/// When a system's delivery is put in slot order (memory order; see the crate README,
/// "Dense deliveries, in order of preference") rather than left in change order: when it has at
/// least `min` candidates and at least `fraction` times as many as there are slots. See
/// [`World::set_dense_delivery`](crate::World::set_dense_delivery).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DenseDelivery {
    /// Candidates per entity slot from which slot order pays for putting them in order.
    pub fraction: f64,
    /// Fewest candidates for slot order: below this the tables a delivery touches stay in
    /// cache, and change order costs nothing extra.
    pub min: usize,
}

impl DenseDelivery {
    /// The default: N/10, from 16,384 candidates on (see the crate README, "Sparse vs
    /// dense").
    pub const DEFAULT: Self = Self {
        fraction: 1.0 / 10.0,
        min: 16_384,
    };
    /// Every delivery in slot order.
    pub const ALWAYS: Self = Self {
        fraction: 0.0,
        min: 0,
    };
    /// Every delivery in change order.
    pub const NEVER: Self = Self {
        fraction: f64::INFINITY,
        min: usize::MAX,
    };
}

impl Default for DenseDelivery {
    fn default() -> Self {
        Self::DEFAULT
    }
}

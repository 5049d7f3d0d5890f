//! Events systems send each other.

use ecs::Entity;

/// The player's swing reached a crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrateHit {
    /// The crate hit.
    pub target: Entity,
}

/// A mover's box overlaps another box this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contact {
    /// The entity that moved.
    pub mover: Entity,
    /// The entity it overlaps.
    pub other: Entity,
}

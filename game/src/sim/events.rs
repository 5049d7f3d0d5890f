//! Events systems send each other. Some are only news for the window side (sounds): the
//! simulation reads none of [`SwingStarted`], [`CrateBroken`] and [`CoinCollected`].

use ecs::Entity;

/// The player's swing reached a crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrateHit {
    /// The crate hit.
    pub target: Entity,
}

/// A player started a swing this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwingStarted {
    /// The player swinging.
    pub player: Entity,
}

/// A crate's last hit: it starts exploding this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrateBroken {
    /// The crate.
    pub target: Entity,
}

/// A player picked up a coin this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinCollected {
    /// The coin (despawned at the end of the step).
    pub coin: Entity,
}

/// A mover's box overlaps another box this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contact {
    /// The entity that moved.
    pub mover: Entity,
    /// The entity it overlaps.
    pub other: Entity,
}

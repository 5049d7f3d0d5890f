//! Events systems send each other. Some are only news for the window side (sounds): the
//! simulation reads none of [`SwingStarted`], [`CrateBroken`], [`KegExploded`] and
//! [`CoinCollected`].

use ecs::Entity;

use super::components::Position;

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

/// A keg blew up this step (it is exploding; what the blast reached has been harmed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KegExploded {
    /// The keg.
    pub keg: Entity,
    /// Where it blew up: its centre, world pixels.
    pub at: Position,
}

/// A player picked up a coin this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinCollected {
    /// The coin (despawned at the end of the step).
    pub coin: Entity,
}

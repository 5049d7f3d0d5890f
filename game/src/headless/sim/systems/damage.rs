//! `damage`: applies [`CrateHit`]s, one hit per crate per step: a hit crate flashes and
//! wobbles, and breaks at zero health; a hit keg's fuse is lit (the rules are in
//! `sim/wreck.rs`, which keg blasts share).

use ecs::{EventReader, SystemEntities, World};

use crate::sim::game_events::CrateHit;
use crate::sim::tuning::KEG_FUSE_STEPS;
use crate::sim::wreck;

/// The system's event cursor.
#[derive(Debug, Default)]
pub struct Damage {
    hits: EventReader<CrateHit>,
}

impl ecs::System for Damage {
    fn update(&mut self, world: &mut World, _: &SystemEntities<'_>) {
        puffin::profile_scope!("damage");
        let mut targets: Vec<_> = self.hits.read(world).map(|h| h.target).collect();
        if targets.is_empty() {
            return;
        }
        // One swing hits a crate once, whatever else it reaches.
        targets.sort_unstable();
        targets.dedup();
        for target in targets {
            wreck::harm(world, target, 1, KEG_FUSE_STEPS);
        }
    }
}

//! `fuse`: burns down lit kegs' [`Fuse`]s and blows up the kegs whose fuse ran out.
//!
//! The rule of a blast, at the keg's centre:
//!
//! - Everything whose centre is within [`KEG_RADIUS`] (2.5 tiles) and whose collider is in the
//!   collision grid is **in range**: crates, kegs and the player.
//! - Each crate in range takes [`KEG_DAMAGE`] (3) hits; each unlit keg in range is lit with a
//!   [`KEG_CHAIN_FUSE_STEPS`] (12-step) fuse, so a field of kegs goes off as a wave. A lit
//!   keg's fuse burns on unchanged.
//! - The player in range is thrown away from the keg at [`KNOCKBACK_SPEED`] (whatever it was
//!   walking at; throws add up) and [`Stunned`] for [`STUN_STEPS`]; a blast never kills, but
//!   while the room's clock runs it burns: [`BURN_STEPS`](crate::sim::tuning::BURN_STEPS) (2 s) on the clock.
//! - A blast reaches each entity once, however many grid cells it spans; two blasts in the
//!   same step each reach it once. Crates already exploding are out of reach.
//!
//! Blasts in the same step go off in entity order, and each sends [`KegExploded`].

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Crate, Fuse, Player, Position, Stunned, Velocity};
use crate::sim::game_events::KegExploded;
use crate::sim::grid::{Aabb, Hit};
use crate::sim::resources::{CollisionGrid, GameState};
use crate::sim::tuning::{
    KEG_CHAIN_FUSE_STEPS, KEG_DAMAGE, KEG_RADIUS, KNOCKBACK_SPEED, STUN_STEPS,
};
use crate::sim::wreck;

/// Scratch buffers kept between runs.
#[derive(Debug, Default)]
pub struct FuseSystem {
    hits: Vec<Hit>,
    targets: Vec<Entity>,
}

impl ecs::System for FuseSystem {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("fuse");
        let mut blown = super::tick_down::<Fuse>(world, entities, |f| &mut f.steps);
        // Tracked sets are in change order, which differs with tracking off.
        blown.sort_unstable();
        for keg in blown {
            self.blast(world, keg);
        }
    }
}

impl FuseSystem {
    fn blast(&mut self, world: &mut World, keg: Entity) {
        let Some(&at) = world.get::<Position>(keg) else {
            return;
        };
        if world.get::<Crate>(keg).is_none_or(|c| c.health == 0) {
            return;
        }
        wreck::break_crate(world, keg);
        world.send(KegExploded { keg, at });
        let bounds = Aabb::centered(at.x, at.y, KEG_RADIUS, KEG_RADIUS);
        world
            .resource::<CollisionGrid>()
            .0
            .query(&bounds, &mut self.hits);
        self.targets.clear();
        for hit in &self.hits {
            let Some(p) = world.get::<Position>(hit.entity) else {
                continue;
            };
            let (dx, dy) = (p.x - at.x, p.y - at.y);
            if hit.entity != keg && dx * dx + dy * dy <= KEG_RADIUS * KEG_RADIUS {
                self.targets.push(hit.entity);
            }
        }
        // Once per blast, in entity order.
        self.targets.sort_unstable();
        self.targets.dedup();
        for &target in &self.targets {
            if world.has::<Player>(target) {
                throw(world, target, at);
            } else {
                wreck::harm(world, target, KEG_DAMAGE, KEG_CHAIN_FUSE_STEPS);
            }
        }
    }
}

/// Throw the player `target` away from a blast at `from` and stun it. A player standing on the
/// blast's centre is thrown down the screen.
fn throw(world: &mut World, target: Entity, from: Position) {
    let Some(&p) = world.get::<Position>(target) else {
        return;
    };
    let (dx, dy) = (p.x - from.x, p.y - from.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if len > 0.0 {
        (dx / len, dy / len)
    } else {
        (0.0, 1.0)
    };
    let stunned = world.get::<Stunned>(target).copied();
    if let Some(mut v) = world.get_mut::<Velocity>(target) {
        // A throw adds to a throw (two blasts, or one while still sliding from another) but
        // replaces walking: a walking player's velocity is the keys', not momentum.
        let (x, y) = if stunned.is_some() {
            (v.x, v.y)
        } else {
            (0.0, 0.0)
        };
        let pushed = Velocity {
            x: x + ux * KNOCKBACK_SPEED,
            y: y + uy * KNOCKBACK_SPEED,
        };
        v.set_if_neq(pushed);
    }
    let steps = stunned.map_or(STUN_STEPS, |s| s.steps.max(STUN_STEPS));
    let _ = world.insert(target, Stunned { steps });
    let state = world.resource_mut::<GameState>();
    if state.cleared_at.is_none() {
        state.burns += 1;
    }
}

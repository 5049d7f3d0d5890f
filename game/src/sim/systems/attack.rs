//! `attack`: on the hit step of a swing, finds the crates in reach and sends [`CrateHit`]s;
//! at the start of a swing, spawns the slash effect.

use ecs::{SystemEntities, World};

use crate::sim::components::{Animation, Crate, Lifetime, Looks, Player, Position, Sprite, layer};
use crate::sim::events::CrateHit;
use crate::sim::resources::{Clips, RoleClips};
use crate::sim::spatial_hash::{Aabb, Hit};
use crate::sim::systems::CollisionGrid;
use crate::sim::tuning::{SWING_HALF, SWING_HIT_AT, SWING_REACH, SWING_STEPS};

/// State kept between runs: a scratch buffer for grid queries.
#[derive(Debug, Default)]
pub struct Attack {
    hits: Vec<Hit>,
}

impl ecs::System for Attack {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("attack");
        for &e in entities.tracked() {
            let (Some(&player), Some(&pos)) = (world.get::<Player>(e), world.get::<Position>(e))
            else {
                continue;
            };
            let (fx, fy) = player.facing.vector();
            let center = Position {
                x: pos.x + fx * SWING_REACH,
                y: pos.y + fy * SWING_REACH,
            };
            if player.swing == SWING_STEPS {
                spawn_slash(world, center, player.facing as usize);
            }
            if player.swing != SWING_STEPS - SWING_HIT_AT {
                continue;
            }
            let hitbox = Aabb::centered(center.x, center.y, SWING_HALF, SWING_HALF);
            world
                .resource::<CollisionGrid>()
                .0
                .query(&hitbox, &mut self.hits);
            for hit in &self.hits {
                if world.has::<Crate>(hit.entity) {
                    world.send(CrateHit { target: hit.entity });
                }
            }
        }
    }
}

fn spawn_slash(world: &mut World, at: Position, facing: usize) {
    let clip = world.resource::<RoleClips>().slash[facing];
    let steps = world.resource::<Clips>().get(clip).duration_steps();
    world.spawn((
        at,
        Lifetime { steps },
        Sprite {
            looks: Looks::Fixed(clip),
            layer: layer::EFFECTS,
        },
        Animation::default(),
    ));
}

//! `attack`: while a swing's hitbox is live, finds the crates in reach and sends [`CrateHit`]s
//! (one per crate per swing);
//! at the start of a swing, spawns the slash effect and sends [`SwingStarted`].

use ecs::{SystemEntities, World};

use crate::sim::components::{Animation, Crate, Lifetime, Looks, Player, Position, Sprite, layer};
use crate::sim::events::{CrateHit, SwingStarted};
use crate::sim::resources::{Clips, RoleClips};
use crate::sim::spatial_hash::{Aabb, Hit};
use crate::sim::systems::CollisionGrid;
use crate::sim::tuning::{SWING_ACTIVE, SWING_HALF, SWING_REACH, SWING_STEPS};

/// State kept between runs: the crates the current swing has hit, and a scratch buffer.
#[derive(Debug, Default)]
pub struct Attack {
    already_hit: Vec<ecs::Entity>,
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
                world.send(SwingStarted { player: e });
                self.already_hit.clear();
            }
            let since_start = SWING_STEPS.saturating_sub(player.swing);
            if player.swing == 0 || !SWING_ACTIVE.contains(&since_start) {
                continue;
            }
            let hitbox = Aabb::centered(center.x, center.y, SWING_HALF, SWING_HALF);
            world
                .resource::<CollisionGrid>()
                .0
                .query(&hitbox, &mut self.hits);
            for hit in &self.hits {
                // The hitbox is live for several steps; each crate takes one hit per swing.
                if world.has::<Crate>(hit.entity) && !self.already_hit.contains(&hit.entity) {
                    self.already_hit.push(hit.entity);
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

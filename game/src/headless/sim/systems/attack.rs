//! `attack`: the swing. At its start, sends [`SwingStarted`]; while it is live, shows its arc and
//! sends a [`CrateHit`] for each crate the arc covers.
//!
//! The rule, which the player sees on screen:
//!
//! - A swing's **arc** is a disc [`SWING_RADIUS`] (7 px) in radius, 14 px across, whose
//!   centre is [`SWING_REACH`] (12 px) in front of the player (rounded to a whole pixel). It is
//!   placed where the player stands and faces on the swing's first live step and stays there.
//! - The arc is **live** during [`SWING_ACTIVE`]: the 4th to 7th steps of the swing, counting the
//!   step the key is pressed as the 1st (50 to 117 ms in). The slash sprite fills exactly the
//!   disc and is on screen exactly after those 4 steps.
//! - A crate is **hit** iff its collision box overlaps the disc (shares area with it; touching
//!   is not enough) on a live step. Each crate takes at most one hit per swing, however many
//!   steps it stays under the arc; every crate under the arc is hit, so one swing can hit
//!   two or three (an L of three around the corner the arc's centre is on).
//! - **Walls stop the hammer** ([`TileMap::swing_reaches`]): an arc centred on a wall cell hits
//!   nothing, and no crate is hit diagonally past two walls that meet at a corner.
//!
//! ```text
//!              .-------.
//!    (@) -->  (    +    )    @ the player's centre, + the arc's centre 12 px ahead;
//!              '-------'     radius 7, so the arc covers 5 to 19 px ahead
//! ```

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{
    Animation, Crate, Facing, Lifetime, Looks, Player, Position, Sprite, Swing, layer,
};
use crate::sim::game_events::{CrateHit, SwingStarted};
use crate::sim::grid::{Aabb, Hit};
use crate::sim::resources::{CollisionGrid, RoleClips, TileMap};
use crate::sim::tuning::{SWING_ACTIVE, SWING_RADIUS, SWING_REACH, SWING_STEPS, TILE};

/// Scratch buffers kept between runs; the swing's own state (its arc, the crates it hit) is the
/// player's [`Swing`] component, which the state hash covers.
#[derive(Debug, Default)]
pub struct Attack {
    hits: Vec<Hit>,
    /// The players and where they stand: read first, since a swing spawns its arc and sends
    /// events, which need the whole world.
    players: Vec<(Entity, Player, Position)>,
}

impl ecs::System for Attack {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("attack");
        self.players.clear();
        entities
            .query::<(&Player, &Position)>(world)
            .for_each(|e, (&player, &pos)| self.players.push((e, player, pos)));
        for k in 0..self.players.len() {
            let (e, player, pos) = self.players[k];
            if player.swing == SWING_STEPS {
                world.send(SwingStarted { player: e });
                if world.get::<Swing>(e).is_some_and(|s| !s.hit.is_empty())
                    && let Some(mut swing) = world.get_mut::<Swing>(e)
                {
                    swing.hit.clear();
                }
            }
            let since_start = SWING_STEPS.saturating_sub(player.swing);
            if player.swing == 0 || !SWING_ACTIVE.contains(&since_start) {
                continue;
            }
            if since_start == *SWING_ACTIVE.start() {
                let (fx, fy) = player.facing.vector();
                // Whole pixels, so the sprite (drawn at whole pixels) covers exactly the disc.
                let centre = Position {
                    x: (pos.x + fx * SWING_REACH).round(),
                    y: (pos.y + fy * SWING_REACH).round(),
                };
                let arc = spawn_arc(world, centre, player.facing);
                if let Some(mut swing) = world.get_mut::<Swing>(e) {
                    swing.arc = Some(arc);
                }
            }
            // The disc is read back from the arc entity: what hits is what is drawn.
            let arc = world.get::<Swing>(e).and_then(|s| s.arc);
            let Some(&centre) = arc.and_then(|arc| world.get::<Position>(arc)) else {
                continue;
            };
            let bounds = Aabb::centered(centre.x, centre.y, SWING_RADIUS, SWING_RADIUS);
            world
                .resource::<CollisionGrid>()
                .0
                .query(&bounds, &mut self.hits);
            let map = world.resource::<TileMap>();
            self.hits.retain(|hit| {
                let (x, y) = (
                    hit.aabb.min_x + hit.aabb.max_x,
                    hit.aabb.min_y + hit.aabb.max_y,
                );
                let cell = (
                    (x / 2.0 / TILE).floor() as i32,
                    (y / 2.0 / TILE).floor() as i32,
                );
                hit.aabb.overlaps_disc(centre.x, centre.y, SWING_RADIUS)
                    && map.swing_reaches(centre.x, centre.y, cell.0, cell.1)
            });
            for hit in &self.hits {
                let new = world.has::<Crate>(hit.entity)
                    && world
                        .get::<Swing>(e)
                        .is_some_and(|s| !s.hit.contains(&hit.entity));
                if new {
                    if let Some(mut swing) = world.get_mut::<Swing>(e) {
                        swing.hit.push(hit.entity);
                    }
                    world.send(CrateHit { target: hit.entity });
                }
            }
        }
    }
}

/// Spawn the arc of a swing facing `facing`, centred on `at`.
fn spawn_arc(world: &mut World, at: Position, facing: Facing) -> Entity {
    let clip = world.resource::<RoleClips>().slash[facing as usize];
    // `lifetime` counts down in the spawning step too and despawns at the end of the step it
    // reaches zero: one step more than the live steps keeps the arc on screen after each of
    // them, and after no other.
    let live_steps = SWING_ACTIVE.end() - SWING_ACTIVE.start() + 1;
    world.spawn((
        at,
        Lifetime {
            steps: live_steps + 1,
        },
        Sprite {
            looks: Looks::Fixed(clip),
            layer: layer::EFFECTS,
        },
        Animation::default(),
    ))
}

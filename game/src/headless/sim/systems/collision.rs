//! `collision`: finds what each mover that moved (or changed shape) now overlaps, testing it
//! only against its neighbourhood in the [`CollisionGrid`], and collects the coins a player
//! touches among the [`Contact`]s. Static boxes never move, so static-static pairs are never
//! tested.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Coin, Collider, Player, Position};
use crate::sim::game_events::CoinCollected;
use crate::sim::resources::{CollisionGrid, GameState};
use crate::sim::spatial_hash::{Aabb, Hit};

/// A mover's box overlaps another box this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contact {
    /// The entity that moved.
    pub mover: Entity,
    /// The entity it overlaps.
    pub other: Entity,
}

/// Scratch buffers kept between runs.
#[derive(Debug, Default)]
pub struct Collision {
    hits: Vec<Hit>,
    contacts: Vec<Contact>,
}

impl ecs::System for Collision {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("collision");
        self.contacts.clear();
        let (mut shapes, resources) = entities
            .changed::<(&Position, &Collider)>(world)
            .with_resources();
        let grid = &resources.resource::<CollisionGrid>().0;
        while let Some((e, (p, c))) = shapes.next() {
            if !c.enabled {
                continue;
            }
            grid.query(
                &Aabb::centered(p.x, p.y, c.half_w, c.half_h),
                &mut self.hits,
            );
            for hit in &self.hits {
                if hit.entity != e {
                    // One contact per pair, whichever of the two moved.
                    let (mover, other) = if e.index() < hit.entity.index() {
                        (e, hit.entity)
                    } else {
                        (hit.entity, e)
                    };
                    self.contacts.push(Contact { mover, other });
                }
            }
        }
        // Dirty order depends on history; sort so the events are the same with or without the
        // dirty optimization.
        self.contacts
            .sort_unstable_by_key(|c| (c.mover.index(), c.other.index()));
        self.contacts.dedup();
        collect_coins(world, &self.contacts);
    }
}

/// Collect the coins a player touches in `contacts` (score + 1, [`CoinCollected`]; the coin
/// disappears), until the room is cleared. A touch is found only here, so a system of its own
/// would run on every step to find nothing on most.
fn collect_coins(world: &mut World, contacts: &[Contact]) {
    let collected: Vec<_> = contacts
        .iter()
        .filter_map(|c| {
            let pair = [(c.mover, c.other), (c.other, c.mover)];
            pair.into_iter()
                .find(|&(p, coin)| world.has::<Player>(p) && world.has::<Coin>(coin))
                .map(|(_, coin)| coin)
        })
        .collect();
    if collected.is_empty() {
        return; // most contacts: a player against a crate or a wall
    }
    if world.resource::<GameState>().cleared_at.is_some() {
        // The room's clock and its coin count stopped with the last crate: a coin left
        // then stays where it lies.
        return;
    }
    for coin in collected {
        // `remove` succeeds once per coin, even if two contacts name it.
        if world.remove::<Coin>(coin).is_some() {
            world.resource_mut::<GameState>().score += 1;
            world.send(CoinCollected { coin });
            super::despawn(world, coin);
        }
    }
}

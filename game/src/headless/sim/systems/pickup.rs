//! `pickup`: a player touching a coin collects it (score + 1, [`CoinCollected`]) and the coin
//! disappears, until the room is cleared.

use ecs::{EventReader, SystemEntities, World};

use crate::sim::components::{Coin, Player};
use crate::sim::game_events::{CoinCollected, Contact};
use crate::sim::resources::GameState;

/// The system's event cursor.
#[derive(Debug, Default)]
pub struct Pickup {
    contacts: EventReader<Contact>,
}

impl ecs::System for Pickup {
    fn update(&mut self, world: &mut World, _: &SystemEntities<'_>) {
        puffin::profile_scope!("pickup");
        let collected: Vec<_> = self
            .contacts
            .read(world)
            .filter_map(|c| {
                let pair = [(c.mover, c.other), (c.other, c.mover)];
                pair.into_iter()
                    .find(|&(p, coin)| world.has::<Player>(p) && world.has::<Coin>(coin))
                    .map(|(_, coin)| coin)
            })
            .collect();
        if collected.is_empty() {
            return; // most steps: no coin touched, and the game state is not looked up
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
}

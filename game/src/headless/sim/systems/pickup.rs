//! `pickup`: a player touching a coin collects it (score + 1, [`CoinCollected`]) and the coin
//! disappears, until the room is cleared. `collision` applies it to the contacts it finds, in
//! the same run: a touch is found only there, so a system of its own would run on every step
//! to find nothing on most.

use ecs::World;

use super::collision::Contact;
use crate::sim::components::{Coin, Player};
use crate::sim::game_events::CoinCollected;
use crate::sim::resources::GameState;

/// Collect the coins a player touches in `contacts`.
pub(crate) fn collect(world: &mut World, contacts: &[Contact]) {
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

//! `player_control`: turns the [`Input`] resource into the player's velocity, facing and swing.
//! A [`Stunned`] player ignores the keys: its velocity (a blast's throw) slides to a stop at
//! [`FRICTION`] per step, and it starts no swing.

use ecs::{SystemEntities, World};

use crate::sim::components::{Facing, Player, Stunned, Velocity};
use crate::sim::resources::{GameState, Input};
use crate::sim::tuning::{FRICTION, PLAYER_SPEED, REST_SPEED, SWING_COOLDOWN, SWING_STEPS};

/// Run `player_control` (tracks Player + Velocity).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("player_control");
    let input = *world.resource::<Input>();
    // The room's clock starts on the step of the first move or swing (the step before it
    // counts as 0), here, before anything of the step is hashed.
    if input != Input::default() {
        let state = world.resource_mut::<GameState>();
        if state.started_at.is_none() {
            state.started_at = Some(state.step - 1);
        }
    }
    let (dx, dy) = (
        f32::from(input.move_x.signum()),
        f32::from(input.move_y.signum()),
    );
    // Diagonals are normalized so moving diagonally is not faster.
    let len = (dx * dx + dy * dy).sqrt();
    let velocity = if len > 0.0 {
        Velocity {
            x: dx / len * PLAYER_SPEED,
            y: dy / len * PLAYER_SPEED,
        }
    } else {
        Velocity::default()
    };
    let mut players = entities.query::<(&mut Player, &mut Velocity, Option<&Stunned>)>(world);
    while let Some((_, (mut player, mut v, stunned))) = players.next() {
        let mut next = *player;
        next.swing = next.swing.saturating_sub(1);
        next.cooldown = next.cooldown.saturating_sub(1);
        if stunned.is_some() {
            next.walking = false;
            player.set_if_neq(next);
            let slowed = Velocity {
                x: v.x * FRICTION,
                y: v.y * FRICTION,
            };
            let at_rest = slowed.x.abs() < REST_SPEED && slowed.y.abs() < REST_SPEED;
            v.set_if_neq(if at_rest { Velocity::default() } else { slowed });
            continue;
        }
        next.walking = len > 0.0;
        // A diagonal faces its horizontal part, like most top-down games.
        if dx < 0.0 {
            next.facing = Facing::Left;
        } else if dx > 0.0 {
            next.facing = Facing::Right;
        } else if dy < 0.0 {
            next.facing = Facing::Up;
        } else if dy > 0.0 {
            next.facing = Facing::Down;
        }
        if input.attack && next.cooldown == 0 {
            next.swing = SWING_STEPS;
            next.cooldown = SWING_COOLDOWN;
        }
        player.set_if_neq(next);
        v.set_if_neq(velocity);
    }
}

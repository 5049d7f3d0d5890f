//! `damage`: applies [`CrateHit`]s. A hit crate flashes and wobbles; at zero health its
//! collider turns off at once, it starts exploding (sending [`CrateBroken`]), throws debris and
//! maybe a coin.

use ecs::{EventReader, SystemEntities, World};
use rand::RngExt;

use crate::sim::components::{
    Animation, Collider, Crate, Debris, Exploding, Friction, HitFlash, Lifetime, Looks, Position,
    Sprite, Velocity, layer,
};
use crate::sim::events::{CrateBroken, CrateHit};
use crate::sim::resources::{Clips, RoleClips, SimRng, TileMap};
use crate::sim::spawn::spawn_coin;
use crate::sim::tuning::{DEBRIS_PER_CRATE, DEBRIS_STEPS, FRICTION, TILE};

/// The system's event cursor.
#[derive(Debug, Default)]
pub struct Damage {
    hits: EventReader<CrateHit>,
}

impl ecs::System for Damage {
    fn update(&mut self, world: &mut World, _: &SystemEntities<'_>) {
        puffin::profile_scope!("damage");
        let mut targets: Vec<_> = self.hits.read(world).map(|h| h.target).collect();
        // One swing hits a crate once, whatever else it reaches.
        targets.sort_unstable();
        targets.dedup();
        for target in targets {
            hit(world, target);
        }
    }
}

fn hit(world: &mut World, target: ecs::Entity) {
    let Some(mut c) = world.get_mut::<Crate>(target) else {
        return;
    };
    if c.health == 0 {
        return; // already exploding
    }
    c.health -= 1;
    let Crate { health, coin, .. } = *c;
    let stage = c.crack_stage();
    let Some(&Sprite {
        looks: Looks::Crate { hit, explode, .. },
        ..
    }) = world.get::<Sprite>(target)
    else {
        return;
    };
    let clips = world.resource::<Clips>();
    // The flash lasts as long as the hit clip of the stage the crate now shows.
    let (hit_steps, explode_steps) = (
        clips.get(hit[stage]).duration_steps(),
        clips.get(explode).duration_steps(),
    );
    if health > 0 {
        let _ = world.insert(target, HitFlash { steps: hit_steps });
        return;
    }
    if let Some(mut collider) = world.get_mut::<Collider>(target) {
        collider.enabled = false;
    }
    world.remove::<HitFlash>(target);
    let _ = world.insert(
        target,
        Exploding {
            steps: explode_steps,
        },
    );
    world.send(CrateBroken { target });
    let Some(&at) = world.get::<Position>(target) else {
        return;
    };
    let map = world.resource_mut::<TileMap>();
    if let Some(i) = map.index((at.x / TILE) as i32, (at.y / TILE) as i32) {
        map.set_crate(i, None);
    }
    let debris_clip = world.resource::<RoleClips>().debris;
    for _ in 0..DEBRIS_PER_CRATE {
        let velocity = thrown(world, |rng| rng.random_range(1.0..2.5));
        world.spawn((
            at,
            velocity,
            Friction(FRICTION),
            Debris,
            Lifetime {
                steps: DEBRIS_STEPS,
            },
            Sprite {
                looks: Looks::Fixed(debris_clip),
                layer: layer::EFFECTS,
            },
            Animation::default(),
        ));
    }
    if coin {
        let velocity = thrown(world, |_| COIN_SPEED);
        spawn_coin(world, at, velocity);
    }
}

/// Speed of a coin dropped by a breaking crate, px/step.
const COIN_SPEED: f32 = 1.5;

/// The velocity of something a breaking crate throws: a random direction, then a speed from
/// `speed`. The angle is always drawn first, so a run's random sequence stays the same.
fn thrown(world: &mut World, speed: impl FnOnce(&mut SimRng) -> f32) -> Velocity {
    let rng = world.resource_mut::<SimRng>();
    let angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
    let speed = speed(rng);
    Velocity {
        x: angle.cos() * speed,
        y: angle.sin() * speed,
    }
}

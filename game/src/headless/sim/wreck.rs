//! Harm to crates, shared by `damage` (swings) and `fuse` (keg blasts): a hit lights a keg, and
//! costs any other crate health, which flashes it or, at zero, breaks it. A breaking crate's
//! collider turns off at once; it starts exploding (sending [`CrateBroken`]), throws debris and
//! maybe a coin, and the last one to break stops the room's clock.

use std::f32::consts::TAU;

use ecs::{Entity, World};

use super::components::{
    Animation, Collider, Crate, Debris, Exploding, Friction, Fuse, HitFlash, Keg, Lifetime, Looks,
    Position, Sprite, Velocity, layer,
};
use super::game_events::CrateBroken;
use super::hashed::Fnv;
use super::resources::{Clips, GameState, RoleClips, SimRng, TileMap};
use super::spawn::spawn_coin;
use super::tuning::{DEBRIS_PER_CRATE, DEBRIS_STEPS, FRICTION, TILE};

/// Deal `damage` hits to the crate `target`. A keg takes no damage: an unlit keg's fuse is lit
/// with `fuse_steps` to burn, and a lit one is left alone. Nothing happens to a crate that is
/// already exploding or to an entity that is not a crate.
pub(super) fn harm(world: &mut World, target: Entity, damage: u32, fuse_steps: u32) {
    let Some(&c) = world.get::<Crate>(target) else {
        return;
    };
    if c.health == 0 {
        return; // already exploding
    }
    if world.has::<Keg>(target) {
        if !world.has::<Fuse>(target) {
            let _ = world.insert(target, Fuse { steps: fuse_steps });
        }
        return;
    }
    let health = c.health.saturating_sub(damage);
    if health == 0 {
        break_crate(world, target);
        return;
    }
    let Some(mut c) = world.get_mut::<Crate>(target) else {
        return;
    };
    c.health = health;
    let stage = c.crack_stage();
    let Some(&Sprite {
        looks: Looks::Crate { hit, .. },
        ..
    }) = world.get::<Sprite>(target)
    else {
        return;
    };
    // The flash lasts as long as the hit clip of the stage the crate now shows.
    let steps = world.resource::<Clips>().get(hit[stage]).duration_steps();
    let _ = world.insert(target, HitFlash { steps });
}

/// Break the crate `target` whatever its health: it explodes, throws debris and its coin.
pub(super) fn break_crate(world: &mut World, target: Entity) {
    let Some(mut c) = world.get_mut::<Crate>(target) else {
        return;
    };
    if c.health == 0 {
        return;
    }
    c.health = 0;
    let coin = c.coin;
    let explode_steps = match world.get::<Sprite>(target) {
        Some(&Sprite {
            looks: Looks::Crate { explode, .. },
            ..
        }) => world.resource::<Clips>().get(explode).duration_steps(),
        _ => 1,
    };
    if let Some(mut collider) = world.get_mut::<Collider>(target) {
        collider.enabled = false;
    }
    world.remove::<HitFlash>(target);
    world.remove::<Fuse>(target);
    let _ = world.insert(
        target,
        Exploding {
            steps: explode_steps,
        },
    );
    world.send(CrateBroken { target });
    // The room's clock stops at the last break, not when its burst ends: coins count only
    // while the clock runs.
    let state = world.resource_mut::<GameState>();
    state.crates_left = state.crates_left.saturating_sub(1);
    if state.crates_left == 0 && state.cleared_at.is_none() {
        state.cleared_at = Some(state.step);
    }
    let Some(&at) = world.get::<Position>(target) else {
        return;
    };
    let map = world.resource_mut::<TileMap>();
    if let Some(i) = map.index((at.x / TILE) as i32, (at.y / TILE) as i32) {
        map.set_crate(i, None);
    }
    let debris_clip = world.resource::<RoleClips>().debris;
    for _ in 0..DEBRIS_PER_CRATE {
        let velocity = thrown(world, |rng| rng.range_f32(1.0, 2.5));
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
/// `speed`. The angle is always drawn first, so a run's random sequence stays the same. Its
/// cosine and sine come from `libm`, pure Rust that gives the same bits on every platform (the
/// platform's own `f32::sin` differs between, say, Linux and a browser).
fn thrown(world: &mut World, speed: impl FnOnce(&mut SimRng) -> f32) -> Velocity {
    let rng = world.resource_mut::<SimRng>();
    let angle = rng.range_f32(0.0, TAU);
    let speed = speed(rng);
    let (x, y) = direction(angle);
    Velocity {
        x: x * speed,
        y: y * speed,
    }
}

/// The unit vector at `angle` (radians): its cosine and sine.
fn direction(angle: f32) -> (f32, f32) {
    (libm::cosf(angle), libm::sinf(angle))
}

/// A hash of the [`direction`] of every angle [`thrown`] can draw (`SimRng::range_f32` between
/// 0 and τ: 2^24 angles), the bits of both coordinates in FNV-1a. Two builds that give the same
/// value throw debris and coins the same way from any random word; `crate-room-core
/// trig-hash` prints it, and `tools/wasm-check.sh` compares a native build's with
/// WebAssembly's. Platform sines and cosines differ between such builds on about one angle in
/// eighty (glibc's and musl's), so a sim calling them fails that comparison, where a few runs
/// may draw no angle on which they differ.
pub fn directions_hash() -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for k in 0..1u32 << 24 {
        let (x, y) = direction(SimRng::range_f32_of(k << 8, 0.0, TAU));
        h.f32(x);
        h.f32(y);
    }
    h.0
}

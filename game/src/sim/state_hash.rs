//! A hash of the whole simulation state, to compare runs (dirty optimization on vs off, or the
//! same seed twice). FNV-1a over every entity's components in slot order plus the game state:
//! stable across runs and platforms, unlike `std`'s randomly keyed hasher.

use ecs::World;

use super::components::{
    Animating, Animation, Coin, Collider, Crate, Debris, DrawData, Exploding, HitFlash, Lifetime,
    Player, Position, Velocity,
};
use super::resources::{Camera, GameState};

struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.bytes(&v.to_bits().to_le_bytes());
    }
}

pub(super) fn hash_world(world: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let state = world.resource::<GameState>();
    h.u64(state.step);
    h.u64(u64::from(state.crates_left));
    h.u64(u64::from(state.score));
    h.u64(state.cleared_at.map_or(u64::MAX, |s| s));
    let cam = world.resource::<Camera>();
    h.f32(cam.x);
    h.f32(cam.y);
    for e in world.iter_entities() {
        h.u64(e.to_bits());
        // A tag before each component keeps "has A" distinct from "has B" with equal bytes.
        if let Some(p) = world.get::<Position>(e) {
            h.u64(1);
            h.f32(p.x);
            h.f32(p.y);
        }
        if let Some(v) = world.get::<Velocity>(e) {
            h.u64(2);
            h.f32(v.x);
            h.f32(v.y);
        }
        if let Some(c) = world.get::<Collider>(e) {
            h.u64(3);
            h.f32(c.half_w);
            h.f32(c.half_h);
            h.u64(u64::from(c.solid) | u64::from(c.enabled) << 1);
        }
        if let Some(p) = world.get::<Player>(e) {
            h.u64(4);
            h.u64(p.facing as u64);
            h.u64(u64::from(p.walking));
            h.u64(u64::from(p.swing));
            h.u64(u64::from(p.cooldown));
        }
        if let Some(c) = world.get::<Crate>(e) {
            h.u64(5);
            h.u64(u64::from(c.health));
            h.u64(u64::from(c.max_health));
            h.u64(u64::from(c.coin));
        }
        if let Some(f) = world.get::<HitFlash>(e) {
            h.u64(6);
            h.u64(u64::from(f.steps));
        }
        if let Some(x) = world.get::<Exploding>(e) {
            h.u64(7);
            h.u64(u64::from(x.steps));
        }
        if let Some(l) = world.get::<Lifetime>(e) {
            h.u64(8);
            h.u64(u64::from(l.steps));
        }
        if let Some(a) = world.get::<Animation>(e) {
            h.u64(9);
            h.u64(u64::from(a.clip.0));
            h.u64(u64::from(a.frame));
            h.u64(u64::from(a.finished));
        }
        if let Some(a) = world.get::<Animating>(e) {
            h.u64(10);
            h.u64(u64::from(a.ticks));
        }
        if let Some(d) = world.get::<DrawData>(e) {
            h.u64(11);
            h.u64(
                u64::from(d.src.x) << 48
                    | u64::from(d.src.y) << 32
                    | u64::from(d.src.w) << 16
                    | u64::from(d.src.h),
            );
            h.f32(d.x);
            h.f32(d.y);
            // Draw data once carried an RGBA tint that was always opaque white; hashing those
            // bytes still keeps every state hash equal to the ones recorded before it went.
            h.bytes(&[255; 4]);
            h.u64(u64::from(d.layer));
            h.f32(d.sort_y);
        }
        if world.has::<Coin>(e) {
            h.u64(12);
        }
        if world.has::<Debris>(e) {
            h.u64(13);
        }
    }
    h.0
}

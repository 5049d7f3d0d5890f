//! How each hashed type feeds the state hash: the [`Fnv`] hasher and a [`Hashed`] impl per
//! component and resource, each destructuring its type without `..` so a new field does not
//! compile until it is hashed.

use super::components::{
    Animating, Animation, CameraTarget, Coin, Collider, Crate, Debris, DrawData, Exploding,
    Friction, Fuse, HitFlash, Keg, Lifetime, Looks, Player, Position, Sprite, Stunned, Velocity,
};
use super::grid::SpatialHash;
use super::resources::{Camera, CollisionGrid, DrawGrid, GameState, Input, SimRng, TileMap};

/// An FNV-1a 64 hasher fed values by their bytes (floats by their bits).
pub(super) struct Fnv(pub(super) u64);

impl Fnv {
    pub(super) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(super) fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    pub(super) fn f32(&mut self, v: f32) {
        self.bytes(&v.to_bits().to_le_bytes());
    }
    pub(super) fn bool(&mut self, v: bool) {
        self.bytes(&[u8::from(v)]);
    }
}

/// How a type feeds the hash. Impls destructure without `..`: a new field is a compile error
/// until it is hashed.
pub(super) trait Hashed {
    /// Feed `self` to `h`.
    fn hash(&self, h: &mut Fnv);
}

impl Hashed for Position {
    fn hash(&self, h: &mut Fnv) {
        let Self { x, y } = *self;
        h.f32(x);
        h.f32(y);
    }
}

impl Hashed for Velocity {
    fn hash(&self, h: &mut Fnv) {
        let Self { x, y } = *self;
        h.f32(x);
        h.f32(y);
    }
}

impl Hashed for Collider {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            half_w,
            half_h,
            solid,
            enabled,
        } = *self;
        h.f32(half_w);
        h.f32(half_h);
        h.bool(solid);
        h.bool(enabled);
    }
}

impl Hashed for Player {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            facing,
            walking,
            swing,
            cooldown,
        } = *self;
        h.u64(facing as u64);
        h.bool(walking);
        h.u64(u64::from(swing));
        h.u64(u64::from(cooldown));
    }
}

impl Hashed for Crate {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            health,
            max_health,
            coin,
        } = *self;
        h.u64(u64::from(health));
        h.u64(u64::from(max_health));
        h.bool(coin);
    }
}

impl Hashed for HitFlash {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u64(u64::from(steps));
    }
}

impl Hashed for Exploding {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u64(u64::from(steps));
    }
}

impl Hashed for Keg {
    fn hash(&self, _: &mut Fnv) {
        let Self = *self;
    }
}

impl Hashed for Fuse {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u64(u64::from(steps));
    }
}

impl Hashed for Stunned {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u64(u64::from(steps));
    }
}

impl Hashed for Lifetime {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u64(u64::from(steps));
    }
}

impl Hashed for Animation {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            clip,
            frame,
            finished,
        } = *self;
        h.u64(u64::from(clip.0));
        h.u64(u64::from(frame));
        h.bool(finished);
    }
}

impl Hashed for Animating {
    fn hash(&self, h: &mut Fnv) {
        let Self { ticks } = *self;
        h.u64(u64::from(ticks));
    }
}

impl Hashed for DrawData {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            src,
            x,
            y,
            layer,
            sort_y,
        } = *self;
        let crate::atlas::FrameRect {
            x: sx,
            y: sy,
            w,
            h: sh,
        } = src;
        for v in [sx, sy, w, sh] {
            h.u64(u64::from(v));
        }
        h.f32(x);
        h.f32(y);
        h.u64(u64::from(layer));
        h.f32(sort_y);
    }
}

impl Hashed for Coin {
    fn hash(&self, _: &mut Fnv) {
        let Self = *self;
    }
}

impl Hashed for Debris {
    fn hash(&self, _: &mut Fnv) {
        let Self = *self;
    }
}

impl Hashed for CameraTarget {
    fn hash(&self, _: &mut Fnv) {
        let Self = *self;
    }
}

impl Hashed for Friction {
    fn hash(&self, h: &mut Fnv) {
        let Self(keep) = *self;
        h.f32(keep);
    }
}

impl Hashed for Sprite {
    fn hash(&self, h: &mut Fnv) {
        let Self { looks, layer } = *self;
        match looks {
            Looks::Player => h.u64(0),
            Looks::Crate { idle, hit, explode } => {
                h.u64(1);
                for id in idle.iter().chain(&hit).chain([&explode]) {
                    h.u64(u64::from(id.0));
                }
            }
            Looks::Fixed(clip) => {
                h.u64(2);
                h.u64(u64::from(clip.0));
            }
        }
        h.u64(u64::from(layer));
    }
}

impl Hashed for GameState {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            step,
            crates_total,
            crates_left,
            score,
            cleared_at,
        } = *self;
        h.u64(step);
        h.u64(u64::from(crates_total));
        h.u64(u64::from(crates_left));
        h.u64(u64::from(score));
        h.u64(cleared_at.map_or(u64::MAX, |s| s));
    }
}

impl Hashed for Input {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            move_x,
            move_y,
            attack,
        } = *self;
        h.bytes(&[move_x as u8, move_y as u8]);
        h.bool(attack);
    }
}

impl Hashed for Camera {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            x,
            y,
            view_w,
            view_h,
            snap,
        } = *self;
        h.f32(x);
        h.f32(y);
        h.f32(view_w);
        h.f32(view_h);
        h.bool(snap);
    }
}

impl Hashed for TileMap {
    fn hash(&self, h: &mut Fnv) {
        h.u64(u64::from(self.width));
        h.u64(u64::from(self.height));
        h.u64(self.changes());
        for &tile in self.tiles() {
            h.bytes(&[tile as u8]);
        }
        // Only the occupied cells, with their index: a 1024 x 1024 map is mostly empty.
        for (i, e) in self.crates().iter().enumerate() {
            if let Some(e) = e {
                h.u64(i as u64);
                h.u64(e.to_bits());
            }
        }
    }
}

impl Hashed for SimRng {
    fn hash(&self, h: &mut Fnv) {
        h.u64(self.seed());
        h.u64(self.words_drawn());
    }
}

impl Hashed for CollisionGrid {
    fn hash(&self, h: &mut Fnv) {
        let Self(grid) = self;
        hash_grid(grid, h);
    }
}

impl Hashed for DrawGrid {
    fn hash(&self, h: &mut Fnv) {
        let Self(grid) = self;
        hash_grid(grid, h);
    }
}

/// A grid's entries in entity-index order: what it holds, not the history-dependent order of
/// its cell lists.
fn hash_grid(grid: &SpatialHash, h: &mut Fnv) {
    let (cols, rows) = grid.dimensions();
    h.f32(grid.cell_size());
    h.u64(cols as u64);
    h.u64(rows as u64);
    h.u64(grid.len() as u64);
    for hit in grid.entries() {
        h.u64(hit.entity.to_bits());
        h.f32(hit.aabb.min_x);
        h.f32(hit.aabb.min_y);
        h.f32(hit.aabb.max_x);
        h.f32(hit.aabb.max_y);
        h.bool(hit.solid);
    }
}

//! How each hashed type feeds the state hash: the [`Fnv`] hasher and a [`Hashed`] impl per
//! component and resource, each destructuring its type without `..` so a new field does not
//! compile until it is hashed.

use super::components::{
    CameraTarget, ClipFrame, Coin, Collider, Crate, Debris, DrawData, Exploding, FrameTimer,
    Friction, Fuse, HitFlash, Keg, Lifetime, Looks, Player, Position, Sprite, Stunned, Swing,
    Velocity,
};
use super::resources::{
    BotPlan, BotStyle, CollisionGrid, DrawGrid, GameState, Input, SimRng, TileMap,
};
use super::spatial_hash::SpatialHash;

/// An FNV-1a 64 hasher fed values by their bytes (floats by their bits).
///
/// FNV-1a is `h = (h ^ byte) * P` per byte, one dependent multiply each; a zero byte leaves
/// the xor out, so a run of `k` zero bytes is one multiply by `P^k` (wrapping multiplication
/// is associative), folded into the multiply of the byte before it. The integer feeders skip
/// the bytes their type or value makes zero this way (a `u32` fed as a `u64` has four, a small
/// one seven): the same value as feeding every byte, in a third of the multiplies.
pub(super) struct Fnv(pub(super) u64);

/// The FNV-1a 64 prime.
const PRIME: u64 = 0x0100_0000_01b3;

/// `PRIME^k` for `k` in `0..=8`: what a run of `k` zero bytes multiplies the state by.
const PRIME_POW: [u64; 9] = {
    let mut pow = [1u64; 9];
    let mut k = 1;
    while k < pow.len() {
        pow[k] = pow[k - 1].wrapping_mul(PRIME);
        k += 1;
    }
    pow
};

impl Fnv {
    pub(super) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    /// Feed the `N` low little-endian bytes of `v`, where byte `i` is known to be zero unless
    /// bit `i` of `MAYBE` is set: each zero byte's multiply is merged into the one before it.
    #[inline(always)]
    fn le<const N: usize, const MAYBE: u8>(&mut self, v: u64) {
        debug_assert_eq!(
            v & !(0..N)
                .filter(|i| MAYBE & (1 << i) != 0)
                .fold(0u64, |m, i| m | (0xff << (8 * i))),
            0,
            "a byte assumed zero is not"
        );
        // The state is `h * PRIME^zeros`, the multiply deferred while zero bytes go by.
        let mut h = self.0;
        let mut zeros = 0;
        for i in 0..N {
            if MAYBE & (1 << i) != 0 {
                h = h.wrapping_mul(PRIME_POW[zeros]) ^ ((v >> (8 * i)) & 0xff);
                zeros = 1;
            } else {
                zeros += 1;
            }
        }
        self.0 = h.wrapping_mul(PRIME_POW[zeros]);
    }

    /// Feed `v`'s 8 bytes, skipping the multiplies of the zero bytes of small values and of
    /// entity handles (generation below 256, index below 2^24).
    #[inline]
    pub(super) fn u64(&mut self, v: u64) {
        if v >> 32 == 0 {
            self.u32(v as u32);
        } else if v & 0xffff_ff00_ff00_0000 == 0 {
            self.le::<8, 0b0001_0111>(v);
        } else {
            self.le::<8, 0xff>(v);
        }
    }

    /// Feed `v` as [`Fnv::u64`] feeds it widened.
    #[inline]
    pub(super) fn u32(&mut self, v: u32) {
        if v >> 8 == 0 {
            self.le::<8, 0b0001>(u64::from(v));
        } else if v >> 16 == 0 {
            self.le::<8, 0b0011>(u64::from(v));
        } else {
            self.le::<8, 0b1111>(u64::from(v));
        }
    }

    /// Feed `v` as [`Fnv::u64`] feeds it widened.
    #[inline]
    pub(super) fn u16(&mut self, v: u16) {
        if v >> 8 == 0 {
            self.le::<8, 0b0001>(u64::from(v));
        } else {
            self.le::<8, 0b0011>(u64::from(v));
        }
    }

    /// Feed `v` as [`Fnv::u64`] feeds it widened.
    #[inline]
    pub(super) fn u8(&mut self, v: u8) {
        self.le::<8, 0b0001>(u64::from(v));
    }

    /// Feed the 4 bytes of `v`'s bits (those of a whole number of pixels start with zeros).
    #[inline]
    pub(super) fn f32(&mut self, v: f32) {
        let bits = u64::from(v.to_bits());
        if bits & 0xffff == 0 {
            self.le::<4, 0b1100>(bits);
        } else if bits & 0xff == 0 {
            self.le::<4, 0b1110>(bits);
        } else {
            self.le::<4, 0b1111>(bits);
        }
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
        h.u32(swing);
        h.u32(cooldown);
    }
}

impl Hashed for Crate {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            health,
            max_health,
            coin,
        } = *self;
        h.u32(health);
        h.u32(max_health);
        h.bool(coin);
    }
}

impl Hashed for HitFlash {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u32(steps);
    }
}

impl Hashed for Exploding {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u32(steps);
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
        h.u32(steps);
    }
}

impl Hashed for Stunned {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u32(steps);
    }
}

impl Hashed for Lifetime {
    fn hash(&self, h: &mut Fnv) {
        let Self { steps } = *self;
        h.u32(steps);
    }
}

impl Hashed for ClipFrame {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            clip,
            frame,
            finished,
        } = *self;
        h.u16(clip.0);
        h.u16(frame);
        h.bool(finished);
    }
}

impl Hashed for FrameTimer {
    fn hash(&self, h: &mut Fnv) {
        let Self { ticks } = *self;
        h.u32(ticks);
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
            h.u16(v);
        }
        h.f32(x);
        h.f32(y);
        h.u8(layer);
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
                    h.u16(id.0);
                }
            }
            Looks::Fixed(clip) => {
                h.u64(2);
                h.u16(clip.0);
            }
        }
        h.u8(layer);
    }
}

impl Hashed for GameState {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            step,
            crates_total,
            crates_left,
            score,
            burns,
            cleared_at,
            started_at,
        } = *self;
        h.u64(step);
        h.u32(crates_total);
        h.u32(crates_left);
        h.u32(score);
        h.u32(burns);
        h.u64(cleared_at.map_or(u64::MAX, |s| s));
        h.u64(started_at.map_or(u64::MAX, |s| s));
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

impl Hashed for TileMap {
    fn hash(&self, h: &mut Fnv) {
        h.u32(self.width);
        h.u32(self.height);
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

impl Hashed for Swing {
    fn hash(&self, h: &mut Fnv) {
        let Self { arc, hit } = self;
        h.u64(arc.map_or(u64::MAX, |e| e.to_bits()));
        h.u64(hit.len() as u64);
        for e in hit {
            h.u64(e.to_bits());
        }
    }
}

impl Hashed for BotPlan {
    fn hash(&self, h: &mut Fnv) {
        let Self {
            style,
            target,
            path,
            face,
            since_plan,
            plans,
        } = self;
        let BotStyle {
            walk_weight,
            coin_scale,
            keg_scale,
            flee_blasts,
            jitter,
            seed,
            second_best_at,
            coin_at,
        } = style;
        for &at in second_best_at.iter().chain(coin_at) {
            h.u32(at);
        }
        h.u32(*plans);
        h.u32(walk_weight.to_bits());
        h.u32(coin_scale.to_bits());
        h.u32(keg_scale.to_bits());
        h.u64(u64::from(*flee_blasts));
        h.u32(jitter.to_bits());
        h.u64(*seed);
        h.u64(target.map_or(u64::MAX, |e| e.to_bits()));
        h.u64(path.len() as u64);
        for &(x, y) in path {
            h.u32(x as u32);
            h.u32(y as u32);
        }
        h.u64(*face as u64);
        h.u32(*since_plan);
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

#[cfg(test)]
mod tests {
    use super::Fnv;

    /// FNV-1a fed every byte, as the feeders must hash.
    fn every_byte(start: u64, bytes: &[u8]) -> u64 {
        bytes.iter().fold(start, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// Values with zero and non-zero bytes in every place the feeders tell apart.
    fn samples() -> Vec<u64> {
        let mut v = vec![
            0,
            1,
            0xff,
            0x100,
            0xffff,
            0x1_0000,
            0xff_ffff,
            0x100_0000,
            u64::MAX,
        ];
        for shift in 0..64 {
            v.push(1 << shift);
            v.push((1 << shift) - 1);
            v.push(0x9e37_79b9_7f4a_7c15_u64.rotate_left(shift));
        }
        // Entity handles: generation in the high half, around the feeders' bounds.
        for generation in [1u64, 2, 0xff, 0x100, 0xffff_ffff] {
            for index in [
                0u64,
                7,
                0xffff,
                0x1_0000,
                0xff_ffff,
                0x100_0000,
                0xffff_ffff,
            ] {
                v.push(generation << 32 | index);
            }
        }
        v
    }

    #[test]
    fn feeders_skipping_zero_bytes_hash_every_byte() {
        let start = 0xcbf2_9ce4_8422_2325;
        for v in samples() {
            let mut h = Fnv(start);
            h.u64(v);
            assert_eq!(h.0, every_byte(start, &v.to_le_bytes()), "u64 {v:#x}");
            let (v32, v16, v8) = (v as u32, v as u16, v as u8);
            let mut h = Fnv(start);
            h.u32(v32);
            let want = every_byte(start, &u64::from(v32).to_le_bytes());
            assert_eq!(h.0, want, "u32 {v32:#x}");
            let mut h = Fnv(start);
            h.u16(v16);
            let want = every_byte(start, &u64::from(v16).to_le_bytes());
            assert_eq!(h.0, want, "u16 {v16:#x}");
            let mut h = Fnv(start);
            h.u8(v8);
            let want = every_byte(start, &u64::from(v8).to_le_bytes());
            assert_eq!(h.0, want, "u8 {v8:#x}");
            for f in [f32::from_bits(v32), v32 as f32, (v16 as f32) * 16.0 + 8.0] {
                let mut h = Fnv(start);
                h.f32(f);
                let want = every_byte(start, &f.to_bits().to_le_bytes());
                assert_eq!(h.0, want, "f32 {f}");
            }
        }
    }
}

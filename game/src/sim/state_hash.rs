//! A hash of the whole simulation state, to compare runs (dirty optimization on vs off, or the
//! same seed twice). FNV-1a over the resources the simulation changes, then every entity's
//! components in slot order: stable across runs and platforms, unlike `std`'s randomly keyed
//! hasher, and floats are hashed by their bits.
//!
//! What is covered is one list per kind (`COMPONENTS`, `RESOURCES`); hashing walks those
//! same lists, so [`hashed_components`] and [`hashed_resources`] cannot drift from what is
//! hashed. Each component's `Hashed` impl destructures it without `..`, so a new field does not
//! compile until it is hashed; so do those of the resources with public fields (`TileMap` and
//! `SimRng` keep theirs private and are hashed through their accessors, which show all their
//! state). `game/tests/sim_state_hash.rs` checks that every component type
//! and resource a running world holds is covered (or, for resources, listed in
//! [`unhashed_resources`] with the reason).

use std::any::{TypeId, type_name};

use ecs::{Component, Entity, World};

use super::components::{
    Animating, Animation, CameraTarget, Coin, Collider, Crate, Debris, DrawData, Exploding,
    Friction, Fuse, HitFlash, Keg, Lifetime, Looks, Player, Position, Sprite, Stunned, Velocity,
};
use super::grid::SpatialHash;
use super::resources::{
    Camera, Clips, CollisionGrid, DebugCounts, DrawDirtyLog, DrawGrid, GameState, Input, RoleClips,
    SimRng, TileMap,
};

/// The hash: resources in [`RESOURCES`] order, then each entity (slot order) with a tag and the
/// value of each component it has, in [`COMPONENTS`] order.
pub(super) fn hash_world(world: &World) -> u64 {
    hash_with(world, true)
}

/// The hash without the [`Camera`]: what a replay checkpoints. The window sets the camera's
/// view to its own size, which a replay does not record (and may change by resizing), and no
/// system but `camera` reads it, so the rest of the game does not depend on it.
pub(super) fn hash_without_camera(world: &World) -> u64 {
    hash_with(world, false)
}

fn hash_with(world: &World, camera: bool) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for r in &RESOURCES {
        if camera || (r.id)() != TypeId::of::<Camera>() {
            (r.hash)(world, &mut h);
        }
    }
    for e in world.iter_entities() {
        h.u64(e.to_bits());
        // A tag before each component keeps "has A" distinct from "has B" with equal bytes.
        for (tag, c) in (1..).zip(&COMPONENTS) {
            (c.hash)(world, e, tag, &mut h);
        }
    }
    h.0
}

/// Each live entity (slot order) with a hash of the components it has: comparing two steps'
/// lists tells which entities a step spawned, despawned or changed, by value, without asking
/// the dirty sets whose cost is being measured (the keg burst benchmark counts with it).
pub fn entity_hashes(world: &World) -> Vec<(Entity, u64)> {
    world
        .iter_entities()
        .map(|e| {
            let mut h = Fnv(0xcbf2_9ce4_8422_2325);
            for (tag, c) in (1..).zip(&COMPONENTS) {
                (c.hash)(world, e, tag, &mut h);
            }
            (e, h.0)
        })
        .collect()
}

/// Every component type the hash covers: `TypeId` and name.
pub fn hashed_components() -> impl Iterator<Item = (TypeId, &'static str)> {
    COMPONENTS.iter().map(|c| ((c.id)(), (c.name)()))
}

/// Every resource type the hash covers: `TypeId` and name.
pub fn hashed_resources() -> impl Iterator<Item = (TypeId, &'static str)> {
    RESOURCES.iter().map(|r| ((r.id)(), (r.name)()))
}

/// Resources the hash leaves out on purpose: `TypeId`, name and why.
pub fn unhashed_resources() -> impl Iterator<Item = (TypeId, &'static str, &'static str)> {
    UNHASHED.iter().map(|u| ((u.id)(), (u.name)(), u.why))
}

/// The components, in hashing order (the tag of each is its place in the list, from 1).
const COMPONENTS: [ComponentEntry; 19] = [
    component::<Position>(),
    component::<Velocity>(),
    component::<Collider>(),
    component::<Player>(),
    component::<Crate>(),
    component::<HitFlash>(),
    component::<Exploding>(),
    component::<Lifetime>(),
    component::<Animation>(),
    component::<Animating>(),
    component::<DrawData>(),
    component::<Coin>(),
    component::<Debris>(),
    component::<Friction>(),
    component::<Sprite>(),
    component::<CameraTarget>(),
    component::<Keg>(),
    component::<Fuse>(),
    component::<Stunned>(),
];

/// The resources, in hashing order.
const RESOURCES: [ResourceEntry; 7] = [
    resource::<GameState>(),
    resource::<Input>(),
    resource::<Camera>(),
    resource::<TileMap>(),
    resource::<SimRng>(),
    resource::<CollisionGrid>(),
    resource::<DrawGrid>(),
];

const UNHASHED: [Unhashed; 4] = [
    unhashed::<Clips>("built from the atlas when the level loads; nothing changes it"),
    unhashed::<RoleClips>("built from the atlas when the level loads; nothing changes it"),
    unhashed::<DrawDirtyLog>(
        "the debug view of what draw_data recomputed last: with tracking off that is everything, \
         by design",
    ),
    unhashed::<DebugCounts>(
        "the stats panel's counts: updated by paused updates too, which change nothing else",
    ),
];

struct ComponentEntry {
    id: fn() -> TypeId,
    name: fn() -> &'static str,
    hash: fn(&World, Entity, u64, &mut Fnv),
}

const fn component<T: Component + Hashed>() -> ComponentEntry {
    ComponentEntry {
        id: TypeId::of::<T>,
        name: type_name::<T>,
        hash: hash_component::<T>,
    }
}

fn hash_component<T: Component + Hashed>(world: &World, e: Entity, tag: u64, h: &mut Fnv) {
    if let Some(c) = world.get::<T>(e) {
        h.u64(tag);
        c.hash(h);
    }
}

struct ResourceEntry {
    id: fn() -> TypeId,
    name: fn() -> &'static str,
    hash: fn(&World, &mut Fnv),
}

const fn resource<R: Hashed + 'static>() -> ResourceEntry {
    ResourceEntry {
        id: TypeId::of::<R>,
        name: type_name::<R>,
        hash: hash_resource::<R>,
    }
}

fn hash_resource<R: Hashed + 'static>(world: &World, h: &mut Fnv) {
    match world.get_resource::<R>() {
        Some(r) => {
            h.u64(1);
            r.hash(h);
        }
        None => h.u64(0),
    }
}

struct Unhashed {
    id: fn() -> TypeId,
    name: fn() -> &'static str,
    why: &'static str,
}

const fn unhashed<R: 'static>(why: &'static str) -> Unhashed {
    Unhashed {
        id: TypeId::of::<R>,
        name: type_name::<R>,
        why,
    }
}

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
    fn bool(&mut self, v: bool) {
        self.bytes(&[u8::from(v)]);
    }
}

/// How a type feeds the hash. Impls destructure without `..`: a new field is a compile error
/// until it is hashed.
trait Hashed {
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

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
//!
//! Replays checkpoint a second hash, [`checkpoint_hash`], that costs what changed rather than
//! what exists: each entity's hash (its handle and components, through the same
//! [`COMPONENTS`] table) is mixed and added into a wrapping sum, [`CheckpointSum`], which the
//! `checkpoint` system keeps current: a removed entity's term leaves at once, a dirty entity is
//! marked pending and rehashed once at the next fold (every [`CHECKPOINT_EVERY`]th step, the
//! first step, the step that despawns it), however many steps it changed in. Its docs say
//! which resources it covers and what it leaves out.

use std::any::{TypeId, type_name};

use ecs::{Column, Component, ComponentId, Entity, SystemDesc, World};

use super::components::{
    CameraTarget, ClipFrame, Coin, Collider, Crate, Debris, DrawData, Exploding, FrameTimer,
    Friction, Fuse, HitFlash, Keg, Lifetime, Player, Position, Sprite, Stunned, Swing, Velocity,
};
use super::hashed::{Fnv, Hashed};
use super::resources::{
    BotPlan, Camera, Clips, CollisionGrid, DebugCounts, DrawDirtyLog, DrawGrid, GameState, Input,
    RoleClips, SimRng, TileMap,
};

/// The hash: resources in [`RESOURCES`] order, then each entity (slot order) with a tag and the
/// value of each component it has, in [`COMPONENTS`] order. The [`Camera`] is not in it (see
/// [`UNHASHED`]): a run gives the same hash headless, in a window of any size and in a browser.
pub(super) fn hash_world(world: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for r in &RESOURCES {
        (r.hash)(world, &mut h);
    }
    let columns = HashedColumns::new(world);
    for e in world.iter_entities() {
        h.u64(e.to_bits());
        // A tag before each component keeps "has A" distinct from "has B" with equal bytes.
        columns.hash_components(world, e, &mut h);
    }
    h.0
}

/// The replay checkpoint hash: the [`CHECKPOINT_RESOURCES`], the tile grid's hash and change
/// count, and the order-independent sum of every entity's [`entity_contribution`] as the
/// `checkpoint` system (the last of the schedule) keeps it in [`CheckpointSum`]. Its cost does
/// not grow with the number of entities: at a [`CHECKPOINT_EVERY`]th step (where recordings
/// and verifications read it) nothing is pending and it is O(1); between those steps it hashes
/// the entities changed since the last fold.
///
/// Left out, and why:
/// - the [`Camera`], as in [`hash_world`]: the window sets its view to its own size, which a
///   replay does not record (and may change by resizing); no system but `camera` reads it;
/// - the [`CollisionGrid`], the [`DrawGrid`] and the `TileMap`'s crate-per-cell index:
///   derived from entities' components (position, collider, draw data, crates) the sum
///   already covers, and O(N) to hash;
/// - the [`BotPlan`]: the bot's plan only decides the [`Input`] it writes, which a replay
///   records and the checkpoint hashes (a replay watched back has no bot), and its path is
///   O(map) to hash;
/// - the `TileMap`'s size and tiles are hashed once, when the schedule is built: they never
///   change after load (the type has no setter).
///
/// The entity part is the world as the last system left it: an entity despawned in step N
/// (a despawn takes effect at the end of the update) still counts in step N's checkpoint and
/// leaves the sum in step N+1. That is as deterministic as the rest, so a re-simulation
/// agrees; [`checkpoint_hash_from_scratch`], called at the same point of an update, equals it.
/// A world without the [`CheckpointSum`] (no schedule) is hashed from scratch.
pub fn checkpoint_hash(world: &World) -> u64 {
    match world.get_resource::<CheckpointSum>() {
        Some(sum) => combine_checkpoint(world, sum.tiles, sum.entities(world)),
        None => checkpoint_hash_from_scratch(world),
    }
}

/// [`checkpoint_hash`] computed over the whole world, without the maintained sum: what the
/// tests compare the incremental value with. O(N).
pub fn checkpoint_hash_from_scratch(world: &World) -> u64 {
    combine_checkpoint(world, tiles_hash(world), entity_sum(world))
}

/// The wrapping sum of [`entity_contribution`] over every live entity, from scratch.
pub fn entity_sum(world: &World) -> u64 {
    let columns = HashedColumns::new(world);
    world.iter_entities().fold(0u64, |sum, e| {
        sum.wrapping_add(columns.contribution(world, e))
    })
}

/// One entity's term of the checkpoint's sum: its handle's bits and its components, hashed
/// exactly as [`hash_world`] hashes them (the same [`COMPONENTS`] table), then mixed so that
/// a wrapping sum of many terms does not cancel out the way sums of raw FNV values can. For
/// many entities, resolve the columns once with [`HashedColumns`].
pub fn entity_contribution(world: &World, e: Entity) -> u64 {
    HashedColumns::new(world).contribution(world, e)
}

/// The ids of the [`COMPONENTS`] table's types in one world, looked up by type once and kept
/// while no new component type is registered.
#[derive(Debug, Default)]
pub struct HashedIds {
    /// Per registered type of the table: its place in the table and its id.
    ids: Vec<(usize, ComponentId)>,
    /// [`ecs::diagnostics::component_type_count`] when `ids` was made (`None`: never).
    types_seen: Option<usize>,
}

impl HashedIds {
    /// Look the ids up again if a component type was registered since the last call.
    pub fn refresh(&mut self, world: &World) {
        if self.types_seen == Some(ecs::diagnostics::component_type_count(world)) {
            return;
        }
        self.ids = COMPONENTS
            .iter()
            .enumerate()
            .filter_map(|(i, c)| (c.id_in)(world).map(|id| (i, id)))
            .collect();
        self.types_seen = Some(ecs::diagnostics::component_type_count(world));
    }
}

/// The columns of the [`COMPONENTS`] table in one world, for many entities: each entity's
/// components are then found by id, and only in the columns its signature names.
pub struct HashedColumns<'w> {
    /// Per registered type of the table, in table order: its tag (its place in the table, from
    /// 1), its id and its column.
    columns: [Option<(u64, ComponentId, &'w dyn HashColumn)>; COMPONENTS.len()],
}

impl<'w> HashedColumns<'w> {
    /// Resolve the table's columns in `world`, looking each type's id up (types never
    /// registered have no entity).
    pub fn new(world: &'w World) -> Self {
        let mut ids = HashedIds::default();
        ids.refresh(world);
        Self::from_ids(world, &ids)
    }

    /// Resolve the table's columns in `world` by the ids `ids` keeps for it.
    pub fn from_ids(world: &'w World, ids: &HashedIds) -> Self {
        let mut columns = [None; COMPONENTS.len()];
        let resolved = ids
            .ids
            .iter()
            .filter_map(|&(i, id)| Some((i as u64 + 1, id, (COMPONENTS[i].column)(world, id)?)));
        for (slot, column) in columns.iter_mut().zip(resolved) {
            *slot = Some(column);
        }
        Self { columns }
    }

    /// [`entity_contribution`] of `e`.
    pub fn contribution(&self, world: &World, e: Entity) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.u64(e.to_bits());
        self.hash_components(world, e, &mut h);
        mix(h.0)
    }

    /// Every live entity's [`entity_contribution`] at once, into `terms` indexed by slot (0
    /// for slots without a live entity), and their wrapping sum: the same values, computed
    /// column by column. Each entity's hash state waits in its slot while the columns, in
    /// table order, feed their components to it in storage order, so no component is looked
    /// up by entity (and the big columns are fed on two threads, [`HashColumn::hash_each`]).
    fn contributions_of_all(&self, world: &World, terms: &mut Vec<u64>) -> u64 {
        terms.clear();
        for e in world.iter_entities() {
            let i = e.index() as usize;
            if i >= terms.len() {
                terms.resize(i + 1, 0);
            }
            let mut h = Fnv(0xcbf2_9ce4_8422_2325);
            h.u64(e.to_bits());
            terms[i] = h.0;
        }
        for &(tag, _, column) in self.columns.iter().map_while(Option::as_ref) {
            column.hash_each(tag, terms);
        }
        // A slot without a live entity keeps its 0: `mix(0)` is 0.
        terms.iter_mut().fold(0u64, |sum, term| {
            *term = mix(*term);
            sum.wrapping_add(*term)
        })
    }

    /// Feed `e`'s components, each after its tag, in table order.
    fn hash_components(&self, world: &World, e: Entity, h: &mut Fnv) {
        for &(tag, id, column) in self.columns.iter().map_while(Option::as_ref) {
            if ecs::diagnostics::has_id(world, e, id) {
                column.hash_entity(e, tag, h);
            }
        }
    }
}

impl std::fmt::Debug for HashedColumns<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashedColumns")
            .field("columns", &self.columns.len())
            .finish()
    }
}

/// A column of a hashed component type, with its type erased.
trait HashColumn {
    /// Feed `e`'s component, after `tag`, if it has one.
    fn hash_entity(&self, e: Entity, tag: u64, h: &mut Fnv);

    /// Feed each component, after `tag`, to the FNV state its entity's slot holds in `states`.
    fn hash_each(&self, tag: u64, states: &mut [u64]);

    /// The wrapping sum over the column of each entity's handle and component, mixed: the
    /// column's part of the state, whatever order it stores them in.
    fn part_hash(&self) -> u64;

    /// `e`'s component as `Debug` shows it, if it has one.
    fn text(&self, e: Entity) -> Option<String>;
}

impl<T: Component + Hashed + Sync + std::fmt::Debug> HashColumn for Column<T> {
    fn part_hash(&self) -> u64 {
        self.entities()
            .iter()
            .zip(self.values())
            .fold(0u64, |sum, (e, v)| {
                let mut h = Fnv(0xcbf2_9ce4_8422_2325);
                h.u64(e.to_bits());
                v.hash(&mut h);
                sum.wrapping_add(mix(h.0))
            })
    }

    fn text(&self, e: Entity) -> Option<String> {
        self.get(e).map(|c| format!("{c:?}"))
    }

    fn hash_entity(&self, e: Entity, tag: u64, h: &mut Fnv) {
        if let Some(c) = self.get(e) {
            h.u64(tag);
            c.hash(h);
        }
    }

    /// Each component changes its own entity's state only, so the order they go in does not
    /// matter: a column of [`PARALLEL_FROM`] components or more is split in two at the middle
    /// slot and hashed on two threads, the states of the slots below the middle on this one,
    /// the others on a second. A column stored in slot order splits exactly; a component that
    /// sits among the other half's (a slot reused after its neighbours were spawned) is fed
    /// after both threads are done.
    fn hash_each(&self, tag: u64, states: &mut [u64]) {
        let (entities, values) = (self.entities(), self.values());
        let mut late = Vec::new();
        // WebAssembly has no second thread to take.
        if entities.len() < PARALLEL_FROM || cfg!(target_family = "wasm") {
            feed_range(tag, entities, values, 0, states, &mut late);
        } else {
            let middle = states.len() / 2;
            let split = entities.partition_point(|e| (e.index() as usize) < middle);
            let (low, high) = states.split_at_mut(middle);
            let mut late_high = Vec::new();
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    let (entities, values) = (&entities[split..], &values[split..]);
                    feed_range(tag, entities, values, middle, high, &mut late_high);
                });
                feed_range(tag, &entities[..split], &values[..split], 0, low, &mut late);
            });
            late.extend(late_high.into_iter().map(|i| split + i));
        }
        for i in late {
            let mut h = Fnv(states[entities[i].index() as usize]);
            h.u64(tag);
            values[i].hash(&mut h);
            states[entities[i].index() as usize] = h.0;
        }
    }
}

/// Components per column from which [`HashColumn::hash_each`] takes a second thread: below,
/// starting it would cost a noticeable part of the work.
const PARALLEL_FROM: usize = 1 << 14;

/// Feed each of `values` (the components of `entities`), after `tag`, to the FNV state its
/// slot holds in `states` (those of the slots from `first`), and list in `late` the positions
/// of those whose slot is not there.
fn feed_range<T: Hashed>(
    tag: u64,
    entities: &[Entity],
    values: &[T],
    first: usize,
    states: &mut [u64],
    late: &mut Vec<usize>,
) {
    for (i, (e, c)) in entities.iter().zip(values).enumerate() {
        // A slot below `first` wraps around past the end.
        match states.get_mut((e.index() as usize).wrapping_sub(first)) {
            Some(state) => {
                let mut h = Fnv(*state);
                h.u64(tag);
                c.hash(&mut h);
                *state = h.0;
            }
            None => late.push(i),
        }
    }
}

/// Steps between two replay checkpoints (ten seconds of play). The `checkpoint` system folds
/// its pending entities into the sum on these steps, so that a recording's or a
/// verification's read of the hash there hashes nothing.
pub const CHECKPOINT_EVERY: u64 = 600;

/// The entity part of the checkpoint hash, kept by the `checkpoint` system (see
/// [`checkpoint_hash`]), and the hash of the tiles, which never change after load.
///
/// The sum holds one term per entity slot: the [`entity_contribution`] of the slot's entity
/// when it was last hashed ("folded"). A dirty entity is not hashed when it changes but marked
/// pending (a bit per slot, and its handle listed the first time), so an entity that changes
/// in many steps is hashed once, at the next fold: on every [`CHECKPOINT_EVERY`]th step, on
/// the system's first run, and, for an entity being despawned, in the update that despawns it
/// (its components are gone after that update):
///
/// ```text
///   terms    [t0][t1][t2][t3][t4] ...   folded = wrapping sum of the terms
///   pending    .   1   .   1   .         one bit per slot
///   listed   [e3, e1]                    each handle once while its bit is set
///   entities = folded + for each listed live e whose bit is set:
///                         contribution(e) - terms[e.index()]
/// ```
///
/// Between folds, reading the value hashes the pending entities without folding them
/// (reading takes `&World`), so the value is the same at every point, folded or not. A fold
/// of every entity (the first step, change tracking off) goes column by column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckpointSum {
    /// Wrapping sum of `terms`.
    folded: u64,
    /// Hash of the `TileMap`'s size and tiles (0 without a `TileMap`).
    tiles: u64,
    /// Each slot's term of `folded` (0: none), indexed by [`Entity::index`].
    terms: Vec<u64>,
    /// One bit per slot: its entity changed since its term was made.
    pending: Vec<u64>,
    /// The handles marked pending since the last full fold, each once while its bit is set. A
    /// handle whose entity has died since is stale and skipped: its slot's bit, if set again,
    /// belongs to the slot's new entity, which is listed on its own.
    listed: Vec<Entity>,
    /// Entities being despawned in this update (noted by `systems::despawn`), folded by the
    /// system later in the same update while their components are still there.
    dying: Vec<Entity>,
}

impl CheckpointSum {
    /// An empty sum for `world`'s tiles (its `TileMap` must hold its final tiles already).
    pub(crate) fn new(world: &World) -> Self {
        Self {
            tiles: tiles_hash(world),
            ..Self::default()
        }
    }

    /// The wrapping sum of every live entity's [`entity_contribution`] now: the folded sum
    /// with each pending entity's folded term replaced by its current one. O(pending).
    pub fn entities(&self, world: &World) -> u64 {
        let mut live = self
            .listed
            .iter()
            .filter(|&&e| self.is_pending(e) && world.is_alive(e))
            .peekable();
        if live.peek().is_none() {
            return self.folded;
        }
        let columns = HashedColumns::new(world);
        live.fold(self.folded, |sum, &e| {
            sum.wrapping_sub(self.terms[e.index() as usize])
                .wrapping_add(columns.contribution(world, e))
        })
    }

    /// Pending handles listed since the last full fold (some folded or stale since).
    pub fn listed(&self) -> usize {
        self.listed.len()
    }

    /// Take a removed entity's term out of the sum. The `checkpoint` system does this before
    /// marking the update's dirty entities, so a slot reused in the same update is marked for
    /// its new entity afterwards.
    #[inline]
    pub(crate) fn remove(&mut self, e: Entity) {
        let i = e.index() as usize;
        if let Some(term) = self.terms.get_mut(i) {
            self.folded = self.folded.wrapping_sub(std::mem::take(term));
            self.pending[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Note that `e` changed: it is hashed at the next fold.
    #[inline]
    pub(crate) fn mark(&mut self, e: Entity) {
        let i = e.index() as usize;
        if i >= self.terms.len() {
            self.grow(i);
        }
        let (word, bit) = (&mut self.pending[i / 64], 1 << (i % 64));
        if *word & bit == 0 {
            *word |= bit;
            self.listed.push(e);
        }
    }

    /// Note that `e` is despawned at the end of this update (see `systems::despawn`).
    pub(crate) fn note_despawn(&mut self, e: Entity) {
        self.dying.push(e);
    }

    /// Whether entities are being despawned in this update.
    pub(crate) fn has_dying(&self) -> bool {
        !self.dying.is_empty()
    }

    /// Hash `e` (alive, and as the schedule's last system sees it, final for this update) and
    /// make that its term.
    pub(crate) fn fold(&mut self, columns: &HashedColumns<'_>, world: &World, e: Entity) {
        let i = e.index() as usize;
        if i >= self.terms.len() {
            self.grow(i);
        }
        let term = columns.contribution(world, e);
        self.folded = self
            .folded
            .wrapping_sub(std::mem::replace(&mut self.terms[i], term))
            .wrapping_add(term);
        self.pending[i / 64] &= !(1 << (i % 64));
    }

    /// Fold every live entity, column by column, and empty the list: cheaper than folding
    /// each when every entity changed (the first step, or change tracking off).
    pub(crate) fn fold_world(&mut self, columns: &HashedColumns<'_>, world: &World) {
        self.folded = columns.contributions_of_all(world, &mut self.terms);
        self.pending.clear();
        self.pending.resize(self.terms.len().div_ceil(64), 0);
        self.listed.clear();
    }

    /// Fold the entities being despawned in this update that are pending.
    pub(crate) fn fold_dying(&mut self, columns: &HashedColumns<'_>, world: &World) {
        let dying = std::mem::take(&mut self.dying);
        self.dying = self.fold_drained(dying, columns, world);
    }

    /// Fold every pending entity and empty the list.
    pub(crate) fn fold_all(&mut self, columns: &HashedColumns<'_>, world: &World) {
        let listed = std::mem::take(&mut self.listed);
        self.listed = self.fold_drained(listed, columns, world);
    }

    /// Fold each live, pending entity of `list`; returns `list` emptied, its allocation kept.
    fn fold_drained(
        &mut self,
        mut list: Vec<Entity>,
        columns: &HashedColumns<'_>,
        world: &World,
    ) -> Vec<Entity> {
        for e in list.drain(..) {
            if self.is_pending(e) && world.is_alive(e) {
                self.fold(columns, world, e);
            }
        }
        list
    }

    /// Whether `e`'s slot is pending (for a live `e`: whether `e` is).
    fn is_pending(&self, e: Entity) -> bool {
        let i = e.index() as usize;
        self.pending
            .get(i / 64)
            .is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    #[cold]
    fn grow(&mut self, i: usize) {
        self.terms.resize(i + 1, 0);
        self.pending.resize(i / 64 + 1, 0);
    }
}

/// `desc` watching every component type the hash covers: the `checkpoint` system's, built from
/// [`COMPONENTS`] so that what it watches cannot drift from what [`entity_contribution`] reads.
pub(crate) fn watching_hashed_components(desc: SystemDesc) -> SystemDesc {
    COMPONENTS.iter().fold(desc, |desc, c| (c.watch)(desc))
}

/// The resources a checkpoint hashes whole: small, and changed only by the rules.
const CHECKPOINT_RESOURCES: [ResourceEntry; 3] = [
    resource::<GameState>(),
    resource::<Input>(),
    resource::<SimRng>(),
];

fn combine_checkpoint(world: &World, tiles: u64, entities: u64) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for r in &CHECKPOINT_RESOURCES {
        (r.hash)(world, &mut h);
    }
    h.u64(tiles);
    h.u64(world.get_resource::<TileMap>().map_or(0, TileMap::changes));
    h.u64(entities);
    h.0
}

/// The `TileMap`'s size and tiles (not its crate index, which follows the entities).
fn tiles_hash(world: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    if let Some(map) = world.get_resource::<TileMap>() {
        h.u32(map.width);
        h.u32(map.height);
        for &tile in map.tiles() {
            h.bytes(&[tile as u8]);
        }
    }
    h.0
}

/// The SplitMix64 finalizer: every output bit depends on every input bit.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Each live entity (slot order) with a hash of the components it has: comparing two steps'
/// lists tells which entities a step spawned, despawned or changed, by value, without asking
/// the dirty sets whose cost is being measured (the keg burst benchmark counts with it).
pub fn entity_hashes(world: &World) -> Vec<(Entity, u64)> {
    let columns = HashedColumns::new(world);
    world
        .iter_entities()
        .map(|e| {
            let mut h = Fnv(0xcbf2_9ce4_8422_2325);
            columns.hash_components(world, e, &mut h);
            (e, h.0)
        })
        .collect()
}

/// The hash of each part of the state [`hash_world`] covers, by type name: each resource's,
/// then each component type's (every entity that has one, with its handle, in any order). Two
/// worlds that differ differ in at least one part, which names what differs.
pub fn part_hashes(world: &World) -> Vec<(&'static str, u64)> {
    let resources = RESOURCES.iter().map(|r| {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        (r.hash)(world, &mut h);
        (short_name((r.name)()), h.0)
    });
    let columns = HashedColumns::new(world);
    let components = COMPONENTS.iter().enumerate().map(|(i, c)| {
        let column = columns
            .columns
            .iter()
            .flatten()
            .find(|col| col.0 == i as u64 + 1);
        (
            short_name((c.name)()),
            column.map_or(0, |col| col.2.part_hash()),
        )
    });
    resources.chain(components).collect()
}

/// The state [`hash_world`] covers as text, one line per resource and per component of each
/// entity (slot order), as `Debug` shows them: two runs' texts compare with `diff`.
pub fn state_text(world: &World) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for r in &RESOURCES {
        let _ = writeln!(out, "{}: {}", short_name((r.name)()), (r.text)(world));
    }
    let columns = HashedColumns::new(world);
    for e in world.iter_entities() {
        let _ = writeln!(out, "entity {}v{}", e.index(), e.generation());
        for &(_, id, column) in columns.columns.iter().flatten() {
            if ecs::diagnostics::has_id(world, e, id)
                && let Some(text) = column.text(e)
            {
                let _ = writeln!(out, "  {text}");
            }
        }
    }
    out
}

/// A type's name without its module path.
fn short_name(name: &'static str) -> &'static str {
    name.rsplit("::").next().unwrap_or(name)
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
const COMPONENTS: [ComponentEntry; 20] = [
    component::<Position>(),
    component::<Velocity>(),
    component::<Collider>(),
    component::<Player>(),
    component::<Crate>(),
    component::<HitFlash>(),
    component::<Exploding>(),
    component::<Lifetime>(),
    component::<ClipFrame>(),
    component::<FrameTimer>(),
    component::<DrawData>(),
    component::<Coin>(),
    component::<Debris>(),
    component::<Friction>(),
    component::<Sprite>(),
    component::<CameraTarget>(),
    component::<Keg>(),
    component::<Fuse>(),
    component::<Stunned>(),
    component::<Swing>(),
];

/// The resources, in hashing order.
const RESOURCES: [ResourceEntry; 7] = [
    resource::<GameState>(),
    resource::<Input>(),
    resource::<TileMap>(),
    resource::<SimRng>(),
    resource::<CollisionGrid>(),
    resource::<DrawGrid>(),
    resource::<BotPlan>(),
];

const UNHASHED: [Unhashed; 6] = [
    unhashed::<Camera>(
        "presentation: the window sizes the view to itself (a scripted run, a replay and a \
         headless run must agree at any size); no system but `camera`, which writes it, reads it",
    ),
    unhashed::<Clips>("built from the atlas when the level loads; nothing changes it"),
    unhashed::<RoleClips>("built from the atlas when the level loads; nothing changes it"),
    unhashed::<DrawDirtyLog>(
        "the debug view of what draw_data recomputed last: with tracking off that is everything, \
         by design",
    ),
    unhashed::<CheckpointSum>(
        "the replay checkpoint's running sum over the entities, which the hash covers itself",
    ),
    unhashed::<DebugCounts>(
        "the stats panel's counts: updated by paused updates too, which change nothing else",
    ),
];

struct ComponentEntry {
    id: fn() -> TypeId,
    name: fn() -> &'static str,
    id_in: fn(&World) -> Option<ComponentId>,
    column: for<'w> fn(&'w World, ComponentId) -> Option<&'w dyn HashColumn>,
    watch: fn(SystemDesc) -> SystemDesc,
}

const fn component<T: Component + Hashed + Sync + std::fmt::Debug>() -> ComponentEntry {
    ComponentEntry {
        id: TypeId::of::<T>,
        name: type_name::<T>,
        id_in: World::component_id::<T>,
        column: hashed_column::<T>,
        watch: SystemDesc::watches::<T>,
    }
}

fn hashed_column<T: Component + Hashed + Sync + std::fmt::Debug>(
    world: &World,
    id: ComponentId,
) -> Option<&dyn HashColumn> {
    Some(ecs::diagnostics::column_by_id::<T>(world, id)?)
}

struct ResourceEntry {
    id: fn() -> TypeId,
    name: fn() -> &'static str,
    hash: fn(&World, &mut Fnv),
    text: fn(&World) -> String,
}

const fn resource<R: Hashed + std::fmt::Debug + 'static>() -> ResourceEntry {
    ResourceEntry {
        id: TypeId::of::<R>,
        name: type_name::<R>,
        hash: hash_resource::<R>,
        text: resource_text::<R>,
    }
}

fn resource_text<R: std::fmt::Debug + 'static>(world: &World) -> String {
    world
        .get_resource::<R>()
        .map_or_else(|| "(none)".to_owned(), |r| format!("{r:?}"))
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

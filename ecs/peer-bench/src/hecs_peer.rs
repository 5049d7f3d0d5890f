//! The workload on `hecs`, which has no change detection: a full scan against last frame's
//! values, and a hand-kept list of dirty handles (the floor: no deduplication, no lookup).

use std::hint::black_box;

use hecs::{Entity, World};

use crate::workload::{
    Group, Peer, Position, SpawnInGroup, Velocity, group_of, spawn_in_group, weight,
};

/// The position the scanning reader saw last frame.
struct Seen(Position);

/// `hecs`, read by scanning every position and comparing it with the copy kept in [`Seen`].
pub struct HecsScan {
    world: World,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
}

impl std::fmt::Debug for HecsScan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HecsScan")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl HecsScan {
    /// Spawn `n` entities spread over `groups`, each with a copy of its position.
    pub fn new(n: usize, groups: usize) -> Self {
        let mut world = World::new();
        let entities = spawn(&mut world, n, groups, true);
        Self {
            world,
            entities,
            targets: Vec::new(),
        }
    }
}

impl Peer for HecsScan {
    fn name(&self) -> &'static str {
        "hecs scan"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = handles(&self.entities, targets);
    }

    fn write(&mut self) {
        bump_positions(&mut self.world, &self.targets, |_| {});
    }

    fn read(&mut self) -> usize {
        let mut count = 0;
        let mut sum = 0.0;
        for (p, seen) in self.world.query_mut::<(&Position, &mut Seen)>() {
            if *p != seen.0 {
                seen.0 = *p;
                count += 1;
                sum += weight(p);
            }
        }
        black_box(sum);
        count
    }
}

/// `hecs`, with the writer pushing each handle it changes onto a `Vec` the reader drains.
pub struct HecsList {
    world: World,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
    dirty: Vec<Entity>,
}

impl std::fmt::Debug for HecsList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HecsList")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl HecsList {
    /// Spawn `n` entities spread over `groups`.
    pub fn new(n: usize, groups: usize) -> Self {
        let mut world = World::new();
        let entities = spawn(&mut world, n, groups, false);
        Self {
            world,
            entities,
            targets: Vec::new(),
            dirty: Vec::new(),
        }
    }
}

impl Peer for HecsList {
    fn name(&self) -> &'static str {
        "hecs list"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = handles(&self.entities, targets);
    }

    fn write(&mut self) {
        bump_positions(&mut self.world, &self.targets, |e| self.dirty.push(e));
    }

    fn read(&mut self) -> usize {
        let positions = self.world.view_mut::<&Position>();
        let mut count = 0;
        let mut sum = 0.0;
        for e in self.dirty.drain(..) {
            if let Some(p) = positions.get(e) {
                count += 1;
                sum += weight(p);
            }
        }
        black_box(sum);
        count
    }
}

/// Spawn `n` entities spread over `groups` (one: no marker), each with a [`Seen`] copy of its
/// position if `seen`; their handles in spawn order.
fn spawn(world: &mut World, n: usize, groups: usize, seen: bool) -> Vec<Entity> {
    let mut spawner = Spawner {
        world,
        seen,
        entities: Vec::with_capacity(n),
    };
    for i in 0..n {
        if groups == 1 {
            spawner.spawn_with::<Group<0>>(i, None);
        } else {
            spawn_in_group(&mut spawner, i, group_of(i, n, groups));
        }
    }
    spawner.entities
}

struct Spawner<'w> {
    world: &'w mut World,
    seen: bool,
    entities: Vec<Entity>,
}

impl Spawner<'_> {
    fn spawn_with<M: hecs::Component>(&mut self, i: usize, marker: Option<M>) {
        let p = Position::initial(i);
        let mut entity = hecs::EntityBuilder::new();
        entity.add(p).add(Velocity::initial(i));
        if self.seen {
            entity.add(Seen(p));
        }
        if let Some(marker) = marker {
            entity.add(marker);
        }
        let e = self.world.spawn(entity.build());
        self.entities.push(e);
    }
}

impl SpawnInGroup for Spawner<'_> {
    fn spawn<const G: usize>(&mut self, i: usize) {
        self.spawn_with(i, Some(Group::<G>));
    }
}

/// The handles of the entities at `targets` (indices into `entities`).
fn handles(entities: &[Entity], targets: &[usize]) -> Vec<Entity> {
    targets.iter().map(|&i| entities[i]).collect()
}

/// Bump the position of each of `targets` that has one, telling `bumped` each such handle.
fn bump_positions(world: &mut World, targets: &[Entity], mut bumped: impl FnMut(Entity)) {
    let mut positions = world.view_mut::<&mut Position>();
    for &e in targets {
        if let Some(p) = positions.get_mut(e) {
            p.bump();
            bumped(e);
        }
    }
}

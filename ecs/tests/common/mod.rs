//! Shared helpers for the integration tests: probe systems that record what they receive.

#![allow(dead_code)] // each test file uses a different subset

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Component, Entity, SystemDesc, SystemEntities, SystemId, World};

/// What one system received on one run, as sets (order is unspecified by the API).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub tracked: BTreeSet<Entity>,
    pub dirty: BTreeSet<Entity>,
}

/// Every run a probe system made, oldest first.
pub type Runs = Arc<Mutex<Vec<Run>>>;

/// Record a run, asserting the invariants every delivery must keep.
pub fn record(runs: &Runs, entities: &SystemEntities<'_>) {
    let tracked: BTreeSet<Entity> = entities.tracked().iter().copied().collect();
    let dirty: BTreeSet<Entity> = entities.dirty().iter().copied().collect();
    assert_eq!(
        tracked.len(),
        entities.tracked().len(),
        "tracked has duplicates"
    );
    assert_eq!(dirty.len(), entities.dirty().len(), "dirty has duplicates");
    assert!(
        dirty.is_subset(&tracked),
        "dirty entity that is not tracked"
    );
    runs.lock().unwrap().push(Run { tracked, dirty });
}

/// Add a system that only records what it receives.
pub fn probe(world: &mut World, desc: SystemDesc) -> (SystemId, Runs) {
    let runs = Runs::default();
    let log = Arc::clone(&runs);
    // A probe records every update, including ones where it has nothing to react to.
    let id = world.add_system(
        desc.every_update(),
        move |_: &mut World, entities: &SystemEntities<'_>| {
            record(&log, entities);
        },
    );
    (id, runs)
}

/// A new world holding one probe system added from `desc`.
pub fn probed(desc: SystemDesc) -> (World, SystemId, Runs) {
    let mut world = World::new();
    let (id, runs) = probe(&mut world, desc);
    (world, id, runs)
}

/// A system named `name` that tracks every entity with `Pos` and watches `W`.
pub fn watcher<W: Component>(name: &'static str) -> SystemDesc {
    SystemDesc::new(name).requires::<Pos>().watches::<W>()
}

/// The set of `entities`.
pub fn set<const N: usize>(entities: [Entity; N]) -> BTreeSet<Entity> {
    entities.into_iter().collect()
}

/// The last run's dirty set; panics if the probe never ran.
pub fn last_dirty(runs: &Runs) -> BTreeSet<Entity> {
    runs.lock()
        .unwrap()
        .last()
        .expect("probe ran")
        .dirty
        .clone()
}

/// The last run's tracked set; panics if the probe never ran.
pub fn last_tracked(runs: &Runs) -> BTreeSet<Entity> {
    runs.lock()
        .unwrap()
        .last()
        .expect("probe ran")
        .tracked
        .clone()
}

/// How many times the probe ran.
pub fn run_count(runs: &Runs) -> usize {
    runs.lock().unwrap().len()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos(pub i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vel(pub i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag;

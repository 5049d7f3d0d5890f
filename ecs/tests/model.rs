//! Model-based property test: random operation sequences run against the ECS and against a
//! reference model made of hash maps and full recomputation, which must agree after every
//! update on what each system tracked and what it received as dirty and as removed.
//!
//! Five systems watch `A` (at different points of the frame, with different tracked sets, one
//! of them watching `B` too), so one column's change bits are moved to several systems. Two are
//! reactive: they must run exactly when they have dirty or removed entities. Batches of writes
//! come in every order a game makes them in (ascending slots, a sweep that wraps around once,
//! descending, random); every delivery must be in slot order whatever the order. Every system
//! reads its dirty components through `SystemEntities::changed` over each column, before and
//! after its own writes, and must get what `dirty()` looked up one by one gives.
//!
//! One system (`maker`) spawns, despawns, inserts and removes during its run, as each update's
//! script says: its spawns reach the systems after it in the same update (and itself on its next
//! run), its despawns wait for the end of the update, and its inserts and removals act at once.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Component, Entity, SystemDesc, SystemEntities, SystemId, World};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;

/// Component values are small so that `set_if_neq` often meets an equal value.
const VALUES: std::ops::Range<u8> = 0..4;
const COMPONENTS: usize = 3;

trait Val: Component + Copy {
    fn new(v: u8) -> Self;
    fn val(self) -> u8;
    fn val_mut(&mut self) -> &mut u8;
}

macro_rules! val_component {
    ($($name:ident),*) => {$(
        #[derive(Clone, Copy, Debug, PartialEq)]
        struct $name(u8);
        impl Val for $name {
            fn new(v: u8) -> Self { Self(v) }
            fn val(self) -> u8 { self.0 }
            fn val_mut(&mut self) -> &mut u8 { &mut self.0 }
        }
    )*};
}
val_component!(A, B, C);

/// Call `f::<A|B|C>(args)` for component number `c`.
macro_rules! dispatch {
    ($c:expr, $f:ident($($arg:expr),*)) => {
        match $c {
            0 => $f::<A>($($arg),*),
            1 => $f::<B>($($arg),*),
            _ => $f::<C>($($arg),*),
        }
    };
}

/// The systems under test: what each requires and watches, by component number, and its
/// priority. Run order is first_a, early_a, census, sum_a, pair, any_b, late_a (pair and any_b tie; pair
/// was added first).
struct Spec {
    name: &'static str,
    priority: i32,
    requires: &'static [usize],
    watches: &'static [usize],
    /// Runs only when it has dirty or removed entities.
    reactive: bool,
}

const SPECS: [Spec; 8] = [
    // Writes B (flips it) on every dirty entity that has one: reaches any_b in the same frame.
    Spec {
        name: "sum_a",
        priority: 0,
        requires: &[0],
        watches: &[0],
        reactive: false,
    },
    // Watches C without requiring it; bumps A on every dirty entity: reaches sum_a next frame.
    Spec {
        name: "pair",
        priority: 1,
        requires: &[0, 1],
        watches: &[2],
        reactive: false,
    },
    // Watches nothing.
    Spec {
        name: "census",
        priority: -1,
        requires: &[1],
        watches: &[],
        reactive: false,
    },
    // Requires nothing, so tracks every entity.
    Spec {
        name: "any_b",
        priority: 1,
        requires: &[],
        watches: &[1],
        reactive: false,
    },
    // A second watcher of A, before the writers of A: it reads their changes a frame later.
    Spec {
        name: "early_a",
        priority: -2,
        requires: &[2],
        watches: &[0],
        reactive: false,
    },
    // A third watcher of A, after every writer, also watching B, and reactive; flips C on
    // every dirty entity that has one: reaches pair (which watches C) next frame.
    Spec {
        name: "late_a",
        priority: 2,
        requires: &[1],
        watches: &[0, 1],
        reactive: true,
    },
    // Requires and watches A, before every other system: the first to read the marks made
    // between updates.
    Spec {
        name: "first_a",
        priority: -3,
        requires: &[0],
        watches: &[0],
        reactive: true,
    },
    // Requires and watches A; runs every update to play the update's script (`InRun`):
    // spawns, despawns, inserts and removals made inside a system, some of them of entities it
    // tracks.
    Spec {
        name: "maker",
        priority: 0,
        requires: &[0],
        watches: &[0],
        reactive: false,
    },
];
const RUN_ORDER: [usize; 8] = [6, 4, 2, 0, 7, 1, 3, 5];
const MAKER: usize = 7;

/// What `maker` does during its run, in order.
#[derive(Clone, Debug)]
enum InRun {
    Spawn([Option<u8>; COMPONENTS]),
    Despawn(Index),
    Insert(Index, usize, u8),
    Remove(Index, usize),
}

fn in_run() -> impl Strategy<Value = InRun> {
    let value = || proptest::option::of(VALUES);
    prop_oneof![
        [value(), value(), value()].prop_map(InRun::Spawn),
        any::<Index>().prop_map(InRun::Despawn),
        (any::<Index>(), 0..COMPONENTS, VALUES).prop_map(|(e, c, v)| InRun::Insert(e, c, v)),
        (any::<Index>(), 0..COMPONENTS).prop_map(|(e, c)| InRun::Remove(e, c)),
    ]
}

/// The order in which [`Op::MutateMany`] visits the entities it writes.
#[derive(Clone, Copy, Debug)]
enum WriteOrder {
    Ascending,
    /// Ascending from the middle, wrapping to the start once.
    Wrap,
    Descending,
    /// Shuffled with this seed.
    Random(u64),
}

#[derive(Clone, Debug)]
enum Op {
    Spawn([Option<u8>; COMPONENTS]),
    /// Spawn this many entities with these components through `World::spawn_batch` (enough
    /// for batches of writes in random order to take every path that puts a dense delivery in
    /// slot order).
    SpawnMany(usize, [Option<u8>; COMPONENTS]),
    Despawn(Index),
    Insert(Index, usize, u8),
    Remove(Index, usize),
    /// Change the value through `Mut`'s `DerefMut`.
    Mutate(Index, usize),
    /// Change the value of every `step`-th entity (by slot) that has component `c`, in one
    /// batch, in `order`.
    MutateMany(usize, usize, WriteOrder),
    /// Take a `Mut` and only read it.
    ReadMut(Index, usize),
    /// `set_if_neq` with the current value (`same`) or with `value`.
    SetIfNeq(Index, usize, bool, u8),
    SetEnabled(usize, bool),
    ChangeTracking(bool),
    /// An update in which `maker` plays this script.
    Update(Vec<InRun>),
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    let value = || proptest::option::of(VALUES);
    prop_oneof![
        4 => [value(), value(), value()].prop_map(Op::Spawn),
        1 => (10..40_usize, [value(), value(), value()]).prop_map(|(n, v)| Op::SpawnMany(n, v)),
        2 => any::<Index>().prop_map(Op::Despawn),
        3 => (any::<Index>(), 0..COMPONENTS, VALUES).prop_map(|(e, c, v)| Op::Insert(e, c, v)),
        2 => (any::<Index>(), 0..COMPONENTS).prop_map(|(e, c)| Op::Remove(e, c)),
        3 => (any::<Index>(), 0..COMPONENTS).prop_map(|(e, c)| Op::Mutate(e, c)),
        2 => (0..COMPONENTS, 1..4_usize, write_order())
            .prop_map(|(c, step, order)| Op::MutateMany(c, step, order)),
        1 => (any::<Index>(), 0..COMPONENTS).prop_map(|(e, c)| Op::ReadMut(e, c)),
        3 => (any::<Index>(), 0..COMPONENTS, any::<bool>(), VALUES)
            .prop_map(|(e, c, same, v)| Op::SetIfNeq(e, c, same, v)),
        2 => (0..SPECS.len(), any::<bool>()).prop_map(|(s, on)| Op::SetEnabled(s, on)),
        1 => prop::bool::weighted(0.7).prop_map(Op::ChangeTracking),
        5 => prop::collection::vec(in_run(), 0..4).prop_map(Op::Update),
        1 => Just(Op::Clear),
    ]
}

fn write_order() -> impl Strategy<Value = WriteOrder> {
    prop_oneof![
        Just(WriteOrder::Ascending),
        Just(WriteOrder::Wrap),
        Just(WriteOrder::Descending),
        any::<u64>().prop_map(WriteOrder::Random),
    ]
}

/// `entities` (in slot order) put in `order`.
fn arrange(entities: &mut [Entity], order: WriteOrder) {
    match order {
        WriteOrder::Ascending => {}
        WriteOrder::Wrap => entities.rotate_left(entities.len() / 2),
        WriteOrder::Descending => entities.reverse(),
        WriteOrder::Random(mut seed) => {
            for i in (1..entities.len()).rev() {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                entities.swap(i, (seed >> 33) as usize % (i + 1));
            }
        }
    }
}

/// What a system received on one run: tracked, dirty and removed entities.
type Received = (BTreeSet<Entity>, BTreeSet<Entity>, BTreeSet<Entity>);

/// The obviously-correct reference.
#[derive(Debug, Default)]
struct Model {
    alive: HashMap<Entity, [Option<u8>; COMPONENTS]>,
    enabled: [bool; SPECS.len()],
    /// Per system: entities with a watched change, or that became tracked, since it last ran.
    log: [HashSet<Entity>; SPECS.len()],
    /// Per system, by slot index: the newest handle that stopped being tracked since it last
    /// ran (and has not become tracked again).
    removed: [HashMap<u32, Entity>; SPECS.len()],
    change_tracking: bool,
    /// The system running now: its membership changes wait in `deferred` until it finishes.
    running: Option<usize>,
    deferred: Vec<Entity>,
}

impl Model {
    fn tracks(s: usize, comps: &[Option<u8>; COMPONENTS]) -> bool {
        SPECS[s].requires.iter().all(|&c| comps[c].is_some())
    }

    fn membership(&self, e: Entity) -> [bool; SPECS.len()] {
        std::array::from_fn(|s| {
            self.alive
                .get(&e)
                .is_some_and(|comps| Self::tracks(s, comps))
        })
    }

    /// Log entities that became tracked since `before`, and note those that stopped.
    fn note_membership(&mut self, e: Entity, before: [bool; SPECS.len()]) {
        let after = self.membership(e);
        for s in 0..SPECS.len() {
            if self.running == Some(s) {
                self.deferred.push(e);
                continue;
            }
            self.note_change_of_membership(s, e, before[s], after[s]);
        }
    }

    fn note_change_of_membership(&mut self, s: usize, e: Entity, before: bool, after: bool) {
        if after && !before {
            self.log[s].insert(e);
            if self.removed[s].get(&e.index()) == Some(&e) {
                self.removed[s].remove(&e.index());
            }
        }
        if before && !after {
            self.removed[s].insert(e.index(), e);
        }
    }

    fn despawn(&mut self, e: Entity) -> bool {
        let before = self.membership(e);
        let alive = self.alive.remove(&e).is_some();
        self.note_membership(e, before);
        alive
    }

    fn removed(&self, s: usize) -> BTreeSet<Entity> {
        self.removed[s].values().copied().collect()
    }

    fn changed(&mut self, e: Entity, c: usize) {
        for (s, spec) in SPECS.iter().enumerate() {
            if spec.watches.contains(&c) {
                self.log[s].insert(e);
            }
        }
    }

    /// Set component `c` of `e` (which must be alive) and log the change.
    fn write(&mut self, e: Entity, c: usize, value: Option<u8>) {
        let before = self.membership(e);
        self.alive.get_mut(&e).expect("alive")[c] = value;
        self.changed(e, c);
        self.note_membership(e, before);
    }

    fn get(&self, e: Entity, c: usize) -> Option<u8> {
        self.alive.get(&e).and_then(|comps| comps[c])
    }

    fn tracked(&self, s: usize) -> BTreeSet<Entity> {
        self.alive
            .iter()
            .filter(|(_, comps)| Self::tracks(s, comps))
            .map(|(&e, _)| e)
            .collect()
    }

    /// What system `s` would receive as dirty if it ran now.
    fn pending_dirty(&self, s: usize) -> BTreeSet<Entity> {
        let tracked = self.tracked(s);
        if SPECS[s].watches.is_empty() {
            BTreeSet::new()
        } else if !self.change_tracking {
            tracked
        } else {
            tracked
                .into_iter()
                .filter(|e| self.log[s].contains(e))
                .collect()
        }
    }

    /// One update in which `maker` plays `script` (picking among `handles`, and spawning the
    /// entities of `spawned` in turn): what each system receives (`None` if it does not run),
    /// and what each step of the script returned.
    fn update(
        &mut self,
        script: &[InRun],
        handles: &mut Vec<Entity>,
        spawned: &[Entity],
    ) -> ([Option<Received>; SPECS.len()], Vec<String>) {
        let mut received = [const { None }; SPECS.len()];
        let mut outcomes = Vec::new();
        let mut despawns = Vec::new();
        for s in RUN_ORDER {
            if !self.enabled[s] {
                continue;
            }
            let tracked = self.tracked(s);
            let dirty = self.pending_dirty(s);
            self.log[s].clear();
            let removed = self.removed(s);
            self.removed[s].clear();
            if SPECS[s].reactive && dirty.is_empty() && removed.is_empty() {
                continue;
            }
            // The systems' own writes, mirrored.
            for &e in &dirty {
                match SPECS[s].name {
                    "sum_a" => {
                        if let Some(b) = self.get(e, 1) {
                            self.write(e, 1, Some(b ^ 1));
                        }
                    }
                    "pair" => {
                        let a = self.get(e, 0).expect("pair requires A");
                        self.write(e, 0, Some(a.wrapping_add(1)));
                    }
                    "late_a" => {
                        if let Some(c) = self.get(e, 2) {
                            self.write(e, 2, Some(c ^ 1));
                        }
                    }
                    _ => {}
                }
            }
            if s == MAKER {
                self.running = Some(s);
                let picks = handles.clone();
                let mut spawned = spawned.iter();
                for step in script {
                    let pick = |i: &Index| picks[i.index(picks.len())];
                    let outcome = match *step {
                        InRun::Spawn(values) => {
                            let e = *spawned.next().expect("one handle per spawn");
                            record_spawn(self, handles, e, values).expect("a new handle");
                            "spawned".to_owned()
                        }
                        InRun::Despawn(ref i) => {
                            let e = pick(i);
                            despawns.push(e);
                            format!("{}", self.alive.contains_key(&e))
                        }
                        InRun::Insert(ref i, c, v) => {
                            let e = pick(i);
                            let ok = self.alive.contains_key(&e);
                            if ok {
                                self.write(e, c, Some(v));
                            }
                            format!("{ok}")
                        }
                        InRun::Remove(ref i, c) => {
                            let e = pick(i);
                            let got = self.get(e, c);
                            if got.is_some() {
                                self.write(e, c, None);
                            }
                            format!("{got:?}")
                        }
                    };
                    outcomes.push(outcome);
                }
                self.running = None;
                let deferred: BTreeSet<Entity> = self.deferred.drain(..).collect();
                for e in deferred {
                    let now = self.membership(e)[s];
                    let was = tracked.contains(&e);
                    self.note_change_of_membership(s, e, was, now);
                }
            }
            received[s] = Some((tracked, dirty, removed));
        }
        for e in despawns {
            self.despawn(e);
        }
        (received, outcomes)
    }
}

fn get<T: Val>(world: &World, e: Entity) -> Option<u8> {
    world.get::<T>(e).map(|v| v.val())
}

fn insert<T: Val>(world: &mut World, e: Entity, v: u8) -> bool {
    world.insert(e, T::new(v)).is_ok()
}

fn remove<T: Val>(world: &mut World, e: Entity) -> Option<u8> {
    world.remove::<T>(e).map(Val::val)
}

fn mutate<T: Val>(world: &mut World, e: Entity) -> bool {
    match world.get_mut::<T>(e) {
        Some(mut v) => {
            let x = v.val_mut();
            *x = x.wrapping_add(1);
            true
        }
        None => false,
    }
}

fn read_mut<T: Val>(world: &mut World, e: Entity) -> Option<u8> {
    world.get_mut::<T>(e).map(|v| v.val())
}

fn set_if_neq<T: Val + PartialEq>(world: &mut World, e: Entity, same: bool, v: u8) -> Option<bool> {
    let mut m = world.get_mut::<T>(e)?;
    let value = if same { *m } else { T::new(v) };
    Some(m.set_if_neq(value))
}

/// The ECS side: a world with the four systems, each recording what it receives.
struct Subject {
    world: World,
    ids: Vec<SystemId>,
    received: Arc<Mutex<[Option<Received>; SPECS.len()]>>,
    /// `maker`'s script for the next update, and the handles it picks from.
    script: Arc<Mutex<(Vec<InRun>, Vec<Entity>)>>,
    /// What `maker` spawned and what each step of its script returned, in the last update.
    made: Arc<Mutex<(Vec<Entity>, Vec<String>)>>,
}

/// Play `maker`'s script in `world`, from inside a system.
fn play(
    world: &mut World,
    script: &[InRun],
    picks: &[Entity],
    made: &mut (Vec<Entity>, Vec<String>),
) {
    for step in script {
        let pick = |i: &Index| picks[i.index(picks.len())];
        let outcome = match *step {
            InRun::Spawn(values) => {
                made.0.push(spawn_values(world, values));
                "spawned".to_owned()
            }
            InRun::Despawn(ref i) => format!("{}", world.despawn(pick(i))),
            InRun::Insert(ref i, c, v) => format!("{}", dispatch!(c, insert(world, pick(i), v))),
            InRun::Remove(ref i, c) => format!("{:?}", dispatch!(c, remove(world, pick(i)))),
        };
        made.1.push(outcome);
    }
}

impl Subject {
    fn new() -> Self {
        let mut world = World::new();
        let received: Arc<Mutex<[Option<Received>; SPECS.len()]>> = Arc::default();
        let script: Arc<Mutex<(Vec<InRun>, Vec<Entity>)>> = Arc::default();
        let made: Arc<Mutex<(Vec<Entity>, Vec<String>)>> = Arc::default();
        let mut ids = Vec::new();
        for (s, spec) in SPECS.iter().enumerate() {
            let mut desc = SystemDesc::new(spec.name).priority(spec.priority);
            // Writers act whether or not they have something to react to.
            desc = if spec.reactive {
                desc.on_changes()
            } else {
                desc.every_update()
            };
            for &c in spec.requires {
                desc = dispatch!(c, requires(desc));
            }
            for &c in spec.watches {
                desc = dispatch!(c, watches(desc));
            }
            let out = Arc::clone(&received);
            let script = Arc::clone(&script);
            let made = Arc::clone(&made);
            ids.push(world.add_system(
                desc,
                move |world: &mut World, entities: &SystemEntities<'_>| {
                    let tracked: BTreeSet<Entity> = entities.tracked().iter().copied().collect();
                    let dirty: BTreeSet<Entity> = entities.dirty().iter().copied().collect();
                    let removed: BTreeSet<Entity> = entities.removed().iter().copied().collect();
                    assert_eq!(tracked.len(), entities.tracked().len(), "duplicate tracked");
                    assert_eq!(dirty.len(), entities.dirty().len(), "duplicate dirty");
                    assert_eq!(removed.len(), entities.removed().len(), "duplicate removed");
                    assert!(
                        entities.dirty().is_sorted_by_key(|e| e.index()),
                        "{}: a delivery out of slot order: {:?}",
                        SPECS[s].name,
                        entities.dirty()
                    );
                    for c in 0..COMPONENTS {
                        dispatch!(c, check_changed(world, entities, SPECS[s].name));
                    }
                    for &e in entities.dirty() {
                        match s {
                            0 => {
                                if let Some(mut b) = world.get_mut::<B>(e) {
                                    b.0 ^= 1;
                                }
                            }
                            1 => {
                                let mut a = world.get_mut::<A>(e).expect("pair requires A");
                                a.0 = a.0.wrapping_add(1);
                            }
                            5 => {
                                if let Some(mut c) = world.get_mut::<C>(e) {
                                    c.0 ^= 1;
                                }
                            }
                            _ => {}
                        }
                    }
                    if s == MAKER {
                        let (script, picks) = &*script.lock().unwrap();
                        play(world, script, picks, &mut made.lock().unwrap());
                    }
                    // After the system's own writes, spawns, despawns, inserts and removals,
                    // what it received is unchanged, and `changed` still agrees with it.
                    prop_assert_eq_sets(entities, &tracked, &dirty, SPECS[s].name);
                    for c in 0..COMPONENTS {
                        dispatch!(c, check_changed(world, entities, SPECS[s].name));
                    }
                    out.lock().unwrap()[s] = Some((tracked, dirty, removed));
                },
            ));
        }
        Self {
            world,
            ids,
            received,
            script,
            made,
        }
    }
}

/// `tracked()` and `dirty()` still hold what they held when the run started.
fn prop_assert_eq_sets(
    entities: &SystemEntities<'_>,
    tracked: &BTreeSet<Entity>,
    dirty: &BTreeSet<Entity>,
    system: &str,
) {
    let now: BTreeSet<Entity> = entities.tracked().iter().copied().collect();
    assert_eq!(&now, tracked, "{system}: tracked() changed during the run");
    let now: BTreeSet<Entity> = entities.dirty().iter().copied().collect();
    assert_eq!(&now, dirty, "{system}: dirty() changed during the run");
}

/// `SystemEntities::changed::<&T>` hands out each dirty entity that has a `T`,
/// once, with its current value, in the order of `dirty()`.
fn check_changed<T: Val>(world: &mut World, entities: &SystemEntities<'_>, system: &str) {
    let Some(column) = world.try_column::<T>() else {
        return;
    };
    let expected: Vec<(Entity, u8)> = entities
        .dirty()
        .iter()
        .filter_map(|&e| column.get(e).map(|v| (e, v.val())))
        .collect();
    let mut got = Vec::new();
    let mut changed = entities.changed::<&T>(world);
    while let Some((e, v)) = changed.next() {
        got.push((e, v.val()));
    }
    let mut folded = Vec::new();
    entities
        .changed::<Option<&mut T>>(world)
        .for_each(|e, v| folded.extend(v.map(|v| (e, v.val()))));
    assert_eq!(folded, got, "{system}: for_each and next differ");
    assert_eq!(
        got,
        expected,
        "{system}: changed::<&{}>",
        std::any::type_name::<T>()
    );
}

fn requires<T: Val>(desc: SystemDesc) -> SystemDesc {
    desc.requires::<T>()
}

fn watches<T: Val>(desc: SystemDesc) -> SystemDesc {
    desc.watches::<T>()
}

/// Spawn an entity with `values` in both the world and the model.
fn spawn(
    world: &mut World,
    model: &mut Model,
    handles: &mut Vec<Entity>,
    values: [Option<u8>; COMPONENTS],
) -> Result<(), TestCaseError> {
    let e = spawn_values(world, values);
    record_spawn(model, handles, e, values)
}

/// Spawn an entity with `values`.
fn spawn_values(world: &mut World, values: [Option<u8>; COMPONENTS]) -> Entity {
    match values {
        [None, None, None] => world.spawn(()),
        [Some(a), None, None] => world.spawn((A(a),)),
        [None, Some(b), None] => world.spawn((B(b),)),
        [None, None, Some(c)] => world.spawn((C(c),)),
        [Some(a), Some(b), None] => world.spawn((A(a), B(b))),
        [Some(a), None, Some(c)] => world.spawn((A(a), C(c))),
        [None, Some(b), Some(c)] => world.spawn((B(b), C(c))),
        [Some(a), Some(b), Some(c)] => world.spawn((A(a), B(b), C(c))),
    }
}

/// Spawn `n` entities with `values` through `World::spawn_batch`.
fn spawn_batch(
    world: &mut World,
    model: &mut Model,
    handles: &mut Vec<Entity>,
    n: usize,
    values: [Option<u8>; COMPONENTS],
) -> Result<(), TestCaseError> {
    let spawned = match values {
        [None, None, None] => world.spawn_batch((0..n).map(|_| ())),
        [Some(a), None, None] => world.spawn_batch((0..n).map(|_| (A(a),))),
        [None, Some(b), None] => world.spawn_batch((0..n).map(|_| (B(b),))),
        [None, None, Some(c)] => world.spawn_batch((0..n).map(|_| (C(c),))),
        [Some(a), Some(b), None] => world.spawn_batch((0..n).map(|_| (A(a), B(b)))),
        [Some(a), None, Some(c)] => world.spawn_batch((0..n).map(|_| (A(a), C(c)))),
        [None, Some(b), Some(c)] => world.spawn_batch((0..n).map(|_| (B(b), C(c)))),
        [Some(a), Some(b), Some(c)] => world.spawn_batch((0..n).map(|_| (A(a), B(b), C(c)))),
    };
    prop_assert_eq!(spawned.len(), n);
    for e in spawned {
        record_spawn(model, handles, e, values)?;
    }
    Ok(())
}

/// Tell the model about entity `e`, just spawned with `values`.
fn record_spawn(
    model: &mut Model,
    handles: &mut Vec<Entity>,
    e: Entity,
    values: [Option<u8>; COMPONENTS],
) -> Result<(), TestCaseError> {
    prop_assert!(!handles.contains(&e), "handle {e:?} issued twice");
    handles.push(e);
    let before = model.membership(e);
    model.alive.insert(e, values);
    for (c, v) in values.iter().enumerate() {
        if v.is_some() {
            model.changed(e, c);
        }
    }
    model.note_membership(e, before);
    Ok(())
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut subject = Subject::new();
    let mut model = Model {
        enabled: [true; SPECS.len()],
        change_tracking: true,
        ..Model::default()
    };
    // Every handle ever issued, so that operations also hit stale ones.
    let mut handles: Vec<Entity> = Vec::new();
    let world = &mut subject.world;

    for (step, op) in ops.iter().enumerate() {
        let pick = |i: &Index| (!handles.is_empty()).then(|| handles[i.index(handles.len())]);
        match op {
            Op::Spawn(values) => spawn(world, &mut model, &mut handles, *values)?,
            Op::SpawnMany(n, values) => spawn_batch(world, &mut model, &mut handles, *n, *values)?,
            Op::Despawn(i) => {
                let Some(e) = pick(i) else { continue };
                prop_assert_eq!(world.despawn(e), model.despawn(e));
            }
            Op::Insert(i, c, v) => {
                let Some(e) = pick(i) else { continue };
                let ok = dispatch!(*c, insert(world, e, *v));
                prop_assert_eq!(ok, model.alive.contains_key(&e));
                if ok {
                    model.write(e, *c, Some(*v));
                }
            }
            Op::Remove(i, c) => {
                let Some(e) = pick(i) else { continue };
                let got = dispatch!(*c, remove(world, e));
                prop_assert_eq!(got, model.get(e, *c));
                if got.is_some() {
                    model.write(e, *c, None);
                }
            }
            Op::Mutate(i, c) => {
                let Some(e) = pick(i) else { continue };
                let wrote = dispatch!(*c, mutate(world, e));
                prop_assert_eq!(wrote, model.get(e, *c).is_some());
                if let Some(v) = model.get(e, *c) {
                    model.write(e, *c, Some(v.wrapping_add(1)));
                }
            }
            Op::MutateMany(c, step, order) => {
                let mut batch: Vec<Entity> = model
                    .alive
                    .iter()
                    .filter(|(_, comps)| comps[*c].is_some())
                    .map(|(&e, _)| e)
                    .collect();
                batch.sort_by_key(|e| e.index());
                let mut batch: Vec<Entity> = batch.into_iter().step_by(*step).collect();
                arrange(&mut batch, *order);
                for e in batch {
                    prop_assert!(dispatch!(*c, mutate(world, e)));
                    let v = model.get(e, *c).expect("has the component");
                    model.write(e, *c, Some(v.wrapping_add(1)));
                }
            }
            Op::ReadMut(i, c) => {
                let Some(e) = pick(i) else { continue };
                prop_assert_eq!(dispatch!(*c, read_mut(world, e)), model.get(e, *c));
            }
            Op::SetIfNeq(i, c, same, v) => {
                let Some(e) = pick(i) else { continue };
                let wrote = dispatch!(*c, set_if_neq(world, e, *same, *v));
                let expected = model.get(e, *c).map(|old| !*same && old != *v);
                prop_assert_eq!(wrote, expected);
                if expected == Some(true) {
                    model.write(e, *c, Some(*v));
                }
            }
            Op::SetEnabled(s, on) => {
                world.set_enabled(subject.ids[*s], *on);
                model.enabled[*s] = *on;
            }
            Op::ChangeTracking(on) => {
                world.set_change_tracking(*on);
                model.change_tracking = *on;
            }
            Op::Update(script) => {
                *subject.received.lock().unwrap() = Default::default();
                *subject.made.lock().unwrap() = Default::default();
                let picks = if handles.is_empty() {
                    Vec::new()
                } else {
                    handles.clone()
                };
                // With no handle to pick, only the spawns play.
                let script: Vec<InRun> = script
                    .iter()
                    .filter(|step| !picks.is_empty() || matches!(step, InRun::Spawn(_)))
                    .cloned()
                    .collect();
                *subject.script.lock().unwrap() = (script.clone(), picks);
                world.update();
                let (spawned, outcomes) = std::mem::take(&mut *subject.made.lock().unwrap());
                let (expected, expected_outcomes) = model.update(&script, &mut handles, &spawned);
                if model.enabled[MAKER] {
                    prop_assert_eq!(outcomes, expected_outcomes, "step {}: maker's script", step);
                }
                let got = subject.received.lock().unwrap();
                for s in 0..SPECS.len() {
                    prop_assert_eq!(
                        &got[s],
                        &expected[s],
                        "step {}: system {} received (tracked, dirty, removed)",
                        step,
                        SPECS[s].name
                    );
                }
            }
            Op::Clear => {
                world.clear();
                let live: Vec<Entity> = model.alive.keys().copied().collect();
                for e in live {
                    model.despawn(e);
                }
            }
        }

        // Between updates, storage and tracked sets must agree with the model too.
        prop_assert_eq!(world.len(), model.alive.len());
        for &e in &handles {
            prop_assert_eq!(world.is_alive(e), model.alive.contains_key(&e));
            for c in 0..COMPONENTS {
                prop_assert_eq!(dispatch!(c, get(world, e)), model.get(e, c), "{:?}", e);
            }
        }
        for (s, spec) in SPECS.iter().enumerate() {
            prop_assert_eq!(
                world.system_info(subject.ids[s]).tracked,
                model.tracked(s).len(),
                "step {}: {} tracked",
                step,
                spec.name
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // A fixed seed: the same 2,000 cases on every run, so a run on CI cannot fail where
        // the previous one passed; a failure found earlier is replayed from the regressions file.
        rng_seed: RngSeed::Fixed(21),
        ..ProptestConfig::with_cases(2000)
    })]

    #[test]
    fn ecs_matches_reference_model(ops in prop::collection::vec(op(), 1..80)) {
        run(&ops)?;
    }
}

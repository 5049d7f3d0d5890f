//! What a system may do to the world while it runs, and what `System::on_clear` may do: each
//! call is either supported (and what the systems then see is consistent) or refused with a
//! message that says what to do instead; and a panic in a system or an `on_clear` leaves the
//! world usable.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Entity, System, SystemDesc, SystemEntities, World};

#[derive(Debug, PartialEq)]
struct Hp(u32);

/// What the system saw on each run: `dirty().len()`, `changed::<&Hp>` count, `tracked().len()`,
/// after its own spawn.
type Seen = Arc<Mutex<Vec<(usize, usize, usize)>>>;

/// What `watch` saw: its dirty entities and the number of live entities.
type Seen2 = (Vec<Entity>, usize);

#[test]
fn an_entity_spawned_during_a_run_is_seen_alike_by_dirty_changed_and_tracked() {
    let mut world = World::new();
    let seen = Seen::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("breeder").requires::<Hp>().watches::<Hp>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            world.spawn((Hp(0),));
            let mut in_column = 0;
            entities
                .changed::<&Hp>(world)
                .for_each(|_, _| in_column += 1);
            out.lock()
                .unwrap()
                .push((entities.dirty().len(), in_column, entities.tracked().len()));
        },
    );
    for i in 0..4 {
        world.spawn((Hp(i),));
    }
    world.update();
    world.update();
    assert_eq!(
        *seen.lock().unwrap(),
        [(4, 4, 4), (1, 1, 5)],
        "the newcomer waits for the next run, for all three alike"
    );
}

/// A system whose `on_clear` does `what` to the world; `runs` counts its updates.
struct OnClear {
    what: fn(&mut World),
    runs: Arc<Mutex<usize>>,
}

impl System for OnClear {
    fn update(&mut self, _: &mut World, _: &SystemEntities<'_>) {
        *self.runs.lock().unwrap() += 1;
    }

    fn on_clear(&mut self, world: &mut World) {
        (self.what)(world);
    }
}

fn world_with_on_clear(what: fn(&mut World)) -> (World, Arc<Mutex<usize>>) {
    let mut world = World::new();
    let runs = Arc::new(Mutex::new(0));
    world.add_system(
        SystemDesc::new("room").requires::<Hp>(),
        OnClear {
            what,
            runs: Arc::clone(&runs),
        },
    );
    (world, runs)
}

/// The message of a panic payload.
fn message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn update_from_on_clear_is_refused_with_a_clear_message_and_the_world_stays_usable() {
    let (mut world, runs) = world_with_on_clear(|world| world.update());
    world.spawn((Hp(1),));
    let refused = catch_unwind(AssertUnwindSafe(|| world.clear())).expect_err("refused");
    let text = message(refused);
    assert!(
        text.contains("on_clear of system `room`") && text.contains("after World::clear returns"),
        "{text}"
    );
    assert!(world.is_empty(), "the clear itself happened");
    world.spawn((Hp(2),));
    world.update();
    world.update();
    assert_eq!(
        *runs.lock().unwrap(),
        2,
        "later updates run the system again"
    );
}

#[test]
fn update_from_inside_a_system_is_refused_and_later_updates_run() {
    let mut world = World::new();
    let calls = Arc::new(Mutex::new(0));
    let count = Arc::clone(&calls);
    world.add_system(
        SystemDesc::new("nested"),
        move |world: &mut World, _: &SystemEntities<'_>| {
            *count.lock().unwrap() += 1;
            if *count.lock().unwrap() == 1 {
                world.update();
            }
        },
    );
    let refused = catch_unwind(AssertUnwindSafe(|| world.update())).expect_err("refused");
    assert!(
        message(refused).contains("World::update called from inside system `nested`"),
        "names the system"
    );
    world.update();
    world.update();
    assert_eq!(*calls.lock().unwrap(), 3);
}

#[test]
fn a_panic_in_a_system_does_not_poison_later_updates() {
    let mut world = World::new();
    let runs = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&runs);
    world.add_system(
        SystemDesc::new("fragile").requires::<Hp>().watches::<Hp>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            log.lock().unwrap().push(entities.dirty().to_vec());
            if world.resource::<bool>().to_owned() {
                panic!("boom");
            }
        },
    );
    let later = Arc::new(Mutex::new(0));
    let count = Arc::clone(&later);
    world.add_system(
        SystemDesc::new("after").priority(1),
        move |_: &mut World, _: &SystemEntities<'_>| *count.lock().unwrap() += 1,
    );
    world.insert_resource(true);
    let e = world.spawn((Hp(1),));
    assert!(catch_unwind(AssertUnwindSafe(|| world.update())).is_err());
    assert_eq!(*later.lock().unwrap(), 0, "the update stopped at the panic");
    world.insert_resource(false);
    world.get_mut::<Hp>(e).unwrap().0 = 2;
    world.update();
    world.update();
    assert_eq!(
        *runs.lock().unwrap(),
        [vec![e], vec![e]],
        "delivered again after the panic"
    );
    assert_eq!(*later.lock().unwrap(), 2);
}

#[test]
fn a_panic_in_on_clear_does_not_poison_later_clears_or_updates() {
    let (mut world, runs) = world_with_on_clear(|world| {
        if world.get_resource::<bool>().is_some() {
            panic!("boom");
        }
    });
    world.insert_resource(true);
    assert!(catch_unwind(AssertUnwindSafe(|| world.clear())).is_err());
    world.remove_resource::<bool>();
    world.spawn((Hp(1),));
    world.clear();
    world.spawn((Hp(1),));
    world.update();
    assert_eq!(*runs.lock().unwrap(), 1);
}

#[test]
fn on_clear_may_spawn_despawn_and_clear_again() {
    let (mut world, _) = world_with_on_clear(|world| {
        let n = world.get_resource::<u32>().copied().unwrap_or(0);
        world.insert_resource(n + 1);
        let a = world.spawn((Hp(n),));
        let b = world.spawn((Hp(n),));
        assert!(world.despawn(b), "at once: no update is running");
        assert!(!world.is_alive(b));
        if n == 0 {
            world.clear(); // follows this clear: a second round of on_clear
            assert!(world.is_alive(a), "not yet");
        }
    });
    world.spawn((Hp(9),));
    world.clear();
    assert_eq!(*world.resource::<u32>(), 2, "on_clear ran twice");
    let left: Vec<u32> = world.column::<Hp>().values().iter().map(|h| h.0).collect();
    assert_eq!(left, [1], "what the second round spawned");
}

#[test]
fn a_system_may_spawn_despawn_and_clear_with_the_effects_documented() {
    let mut world = World::new();
    let seen: Arc<Mutex<Vec<Seen2>>> = Arc::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("watch").requires::<Hp>().watches::<Hp>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            out.lock()
                .unwrap()
                .push((entities.dirty().to_vec(), world.len()));
        },
    );
    world.add_system(
        SystemDesc::new("maker").priority(-1),
        |world: &mut World, _: &SystemEntities<'_>| match world.resource::<u32>() {
            0 => {
                let e = world.spawn((Hp(0),));
                assert!(world.despawn(e), "deferred: alive until the update ends");
                assert!(world.is_alive(e));
            }
            1 => world.clear(),
            _ => {}
        },
    );
    world.insert_resource(0u32);
    world.update();
    assert_eq!(world.len(), 0, "despawned at the end of the update");
    assert_eq!(
        seen.lock().unwrap()[0].1,
        1,
        "the later system saw it alive"
    );
    world.spawn((Hp(5),));
    *world.resource_mut::<u32>() = 1;
    world.update();
    assert_eq!(
        seen.lock().unwrap()[1].1,
        1,
        "the clear waits for the end of the update"
    );
    assert!(world.is_empty());
}

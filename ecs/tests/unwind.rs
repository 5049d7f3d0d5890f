//! The contract on unwind paths: a panic in a system or in a component's `Drop` leaves the world
//! consistent, and the update's tail (deferred despawns and clears) still runs; ids from another
//! world are refused; events survive debug-only updates.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use ecs::{EventReader, SystemDesc, SystemEntities, World};

#[derive(Debug, PartialEq)]
struct X(u32);

/// A component whose `Drop` panics when armed (and not already unwinding).
struct Bomb(bool);

impl Drop for Bomb {
    fn drop(&mut self) {
        if self.0 && !std::thread::panicking() {
            panic!("bomb went off");
        }
    }
}

/// The message of the panic `f` raises.
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

/// A system that panics on every run.
fn panicking(_: &mut World, _: &SystemEntities<'_>) {
    panic!("system failed");
}

/// Add a system requiring `X` that keeps what it saw as tracked and removed on its last run.
fn x_tracker(world: &mut World) -> Arc<Mutex<(Vec<ecs::Entity>, Vec<ecs::Entity>)>> {
    let seen = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    let log = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("x_tracker").requires::<X>(),
        move |_: &mut World, entities: &SystemEntities<'_>| {
            let tracked = entities.tracked().to_vec();
            *log.lock().unwrap() = (tracked, entities.removed().to_vec());
        },
    );
    seen
}

#[test]
fn a_despawn_before_a_panicking_system_happens_in_that_update() {
    let mut world = World::new();
    let e = world.spawn((X(1),));
    world.add_system(
        SystemDesc::new("despawner").priority(-1),
        move |world: &mut World, _: &SystemEntities<'_>| {
            world.despawn(e);
        },
    );
    world.add_system(SystemDesc::new("panics"), panicking);
    assert_eq!(panic_message(|| world.update()), "system failed");
    assert!(
        !world.is_alive(e),
        "the despawn ran at the end of the update"
    );
    assert!(world.column::<X>().is_empty());
}

#[test]
fn a_clear_before_a_panicking_system_happens_in_that_update() {
    let mut world = World::new();
    world.spawn((X(1),));
    world.add_system(
        SystemDesc::new("clearer").priority(-1),
        |world: &mut World, _: &SystemEntities<'_>| world.clear(),
    );
    world.add_system(SystemDesc::new("panics"), panicking);
    assert_eq!(panic_message(|| world.update()), "system failed");
    assert_eq!(world.len(), 0, "the clear ran at the end of the update");
}

/// A world where a reader at priority 0 collects `u32` events into a `Vec<u32>` resource, and
/// a sender at priority 1 sends `7` on its first run.
fn reader_and_sender() -> World {
    let mut world = World::new();
    world.insert_resource(Vec::<u32>::new());
    let mut reader = EventReader::<u32>::default();
    world.add_system(
        SystemDesc::new("reader"),
        move |world: &mut World, _: &SystemEntities<'_>| {
            let read: Vec<u32> = reader.read(world).copied().collect();
            world.resource_mut::<Vec<u32>>().extend(read);
        },
    );
    let mut sent = false;
    world.add_system(
        SystemDesc::new("sender").priority(1),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if !std::mem::replace(&mut sent, true) {
                world.send(7u32);
            }
        },
    );
    world
}

#[test]
fn an_event_reaches_an_earlier_reader_across_debug_only_updates() {
    for paused in 0..=2 {
        let mut world = reader_and_sender();
        world.update();
        for _ in 0..paused {
            world.update_debug_only();
        }
        world.update();
        assert_eq!(
            *world.resource::<Vec<u32>>(),
            [7],
            "{paused} debug-only updates between"
        );
        world.update();
        assert_eq!(*world.resource::<Vec<u32>>(), [7], "seen once");
    }
}

#[test]
fn an_event_reaches_a_reader_after_the_panicking_system() {
    let mut world = reader_and_sender();
    let fail = Arc::new(Mutex::new(false));
    let failing = Arc::clone(&fail);
    world.add_system(
        SystemDesc::new("fragile").priority(-1),
        move |_: &mut World, _: &SystemEntities<'_>| {
            if *failing.lock().unwrap() {
                panic!("system failed");
            }
        },
    );
    world.update();
    *fail.lock().unwrap() = true;
    assert_eq!(panic_message(|| world.update()), "system failed");
    *fail.lock().unwrap() = false;
    world.update();
    assert_eq!(*world.resource::<Vec<u32>>(), [7]);
}

#[test]
fn a_panicking_drop_in_despawn_leaves_columns_sets_and_slots_consistent() {
    let mut world = World::new();
    world.register::<Bomb>(); // its column is emptied first
    let seen = x_tracker(&mut world);
    let e = world.spawn((Bomb(true), X(1)));
    world.update();
    assert_eq!(
        panic_message(|| {
            world.despawn(e);
        }),
        "bomb went off"
    );
    assert!(!world.is_alive(e));
    assert_eq!(world.column::<X>().len(), 0, "every column let go of it");
    assert_eq!(world.column::<Bomb>().len(), 0);
    let reused = world.spawn((X(2),));
    assert_eq!(reused.index(), e.index(), "the slot is reused");
    assert_eq!(world.get::<X>(reused), Some(&X(2)));
    assert_eq!(world.column::<X>().entities(), [reused]);
    assert_eq!(world.column::<X>().values(), [X(2)]);
    world.update();
    assert_eq!(*seen.lock().unwrap(), (vec![reused], vec![e]));
}

#[test]
fn a_panicking_drop_in_a_deferred_despawn_leaves_the_world_consistent() {
    let mut world = World::new();
    world.register::<Bomb>();
    let seen = x_tracker(&mut world);
    let e = world.spawn((Bomb(true), X(1)));
    world.add_system(
        SystemDesc::new("despawner").priority(-1),
        move |world: &mut World, _: &SystemEntities<'_>| {
            world.despawn(e);
        },
    );
    assert_eq!(panic_message(|| world.update()), "bomb went off");
    assert!(!world.is_alive(e));
    assert_eq!(world.column::<X>().len(), 0);
    let reused = world.spawn((X(2),));
    assert_eq!(world.get::<X>(reused), Some(&X(2)));
    world.update();
    assert_eq!(seen.lock().unwrap().0, [reused]);
}

#[test]
fn a_panicking_drop_in_clear_leaves_columns_sets_and_slots_consistent() {
    let mut world = World::new();
    world.register::<Bomb>();
    let seen = x_tracker(&mut world);
    let a = world.spawn((X(5),));
    let e = world.spawn((Bomb(true), X(1)));
    world.update();
    assert_eq!(panic_message(|| world.clear()), "bomb went off");
    assert!(world.is_empty() && !world.is_alive(a) && !world.is_alive(e));
    assert_eq!(world.column::<X>().len(), 0, "every column emptied");
    let reused = world.spawn((X(2),));
    assert_eq!(world.get::<X>(reused), Some(&X(2)));
    assert_eq!(world.column::<X>().values(), [X(2)]);
    world.update();
    assert_eq!(seen.lock().unwrap().0, [reused]);
}

#[test]
fn a_bundle_naming_a_type_twice_is_refused_before_anything_is_spawned() {
    let mut world = World::new();
    let text = panic_message(|| {
        world.spawn((Bomb(true), Bomb(false)));
    });
    assert!(text.contains("names") && text.contains("Bomb"), "{text}");
    assert_eq!(world.len(), 0, "nothing half-spawned");
    let again = panic_message(|| {
        world.spawn((Bomb(false), Bomb(false)));
    });
    assert_eq!(again, text, "the bundle cache still answers the same");
    let e = world.spawn((Bomb(false), X(1)));
    assert_eq!(world.get::<X>(e), Some(&X(1)));
}

#[test]
fn a_system_id_from_another_world_is_refused() {
    let mut a = World::new();
    let mut b = World::new();
    let noop = |_: &mut World, _: &SystemEntities<'_>| {};
    let in_a = a.add_system(SystemDesc::new("a"), noop);
    let in_b = b.add_system(SystemDesc::new("b"), noop);
    let text = panic_message(|| b.set_enabled(in_a, false));
    assert!(text.contains("another world"), "{text}");
    assert!(b.is_enabled(in_b), "b's own system untouched");
    let text = panic_message(|| {
        b.system_info(in_a);
    });
    assert!(text.contains("another world"), "{text}");
}

#[test]
fn a_panic_in_the_observer_still_ends_the_update() {
    let mut world = World::new();
    let e = world.spawn((X(1),));
    world.add_system(
        SystemDesc::new("despawner"),
        move |world: &mut World, _: &SystemEntities<'_>| {
            world.despawn(e);
        },
    );
    let text = panic_message(|| world.update_observed(&mut |_, _| panic!("observer failed")));
    assert_eq!(text, "observer failed");
    assert!(!world.is_alive(e));
}

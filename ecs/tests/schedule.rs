//! Update order and when changes reach whom: README's "When a system runs".

use crate::common;

use std::sync::Arc;
use std::sync::Mutex;

use common::{Pos, Vel, last_dirty, probe, probed, record, run_count, set, watcher};
use ecs::{Entity, SystemDesc, SystemEntities, World};

/// Add a system watching `Pos` that bumps `Pos` of `target` on the given runs (0-based).
fn writer(world: &mut World, name: &'static str, priority: i32, target: Entity, on_runs: &[u32]) {
    let on_runs = on_runs.to_vec();
    let mut run = 0;
    world.add_system(
        SystemDesc::new(name).priority(priority),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if on_runs.contains(&run) {
                world.get_mut::<Pos>(target).expect("target has Pos").0 += 1;
            }
            run += 1;
        },
    );
}

#[test]
fn dirty_set_is_cleared_only_after_its_system_runs() {
    let (mut world, _, early) = probed(watcher::<Pos>("early").priority(0));
    let (_, late) = probe(&mut world, watcher::<Pos>("late").priority(10));
    let e = world.spawn((Pos(0),));
    world.update();
    world.get_mut::<Pos>(e).expect("has Pos").0 = 1;
    world.update();
    assert_eq!(last_dirty(&early), set([e]));
    assert_eq!(
        last_dirty(&late),
        set([e]),
        "early's run did not clear late's set"
    );
}

#[test]
fn change_by_later_system_reaches_earlier_system_next_frame() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let (_, early) = probe(&mut world, watcher::<Pos>("early").priority(0));
    writer(&mut world, "late_writer", 10, e, &[1]);
    world.update(); // frame 0: e is new to `early`
    assert_eq!(last_dirty(&early), set([e]));
    world.update(); // frame 1: the writer changes e after `early` ran
    assert!(last_dirty(&early).is_empty(), "not in the same frame");
    world.update(); // frame 2
    assert_eq!(last_dirty(&early), set([e]), "the change is not lost");
    world.update();
    assert!(last_dirty(&early).is_empty(), "and not seen twice");
}

#[test]
fn change_by_earlier_system_reaches_later_system_same_frame() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    writer(&mut world, "early_writer", 0, e, &[1]);
    let (_, late) = probe(&mut world, watcher::<Pos>("late").priority(10));
    world.update();
    world.update(); // frame 1: the writer runs first
    assert_eq!(last_dirty(&late), set([e]));
    world.update();
    assert!(last_dirty(&late).is_empty());
}

#[test]
fn system_own_writes_reach_it_on_its_next_update() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let runs = common::Runs::default();
    let log = Arc::clone(&runs);
    let mut run = 0;
    world.add_system(
        watcher::<Pos>("self_writer").every_update(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            record(&log, entities);
            if run == 1 {
                world.get_mut::<Pos>(e).expect("has Pos").0 += 1;
            }
            run += 1;
        },
    );
    world.update(); // run 0: e new
    world.update(); // run 1: nothing dirty, writes e
    assert!(last_dirty(&runs).is_empty());
    world.update(); // run 2: sees its own write
    assert_eq!(last_dirty(&runs), set([e]));
    world.update();
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn disabled_system_is_not_updated() {
    let (mut world, id, runs) = probed(SystemDesc::new("p"));
    world.set_enabled(id, false);
    assert!(!world.is_enabled(id));
    world.update();
    world.update();
    assert_eq!(run_count(&runs), 0);
    world.set_enabled(id, true);
    world.update();
    assert_eq!(run_count(&runs), 1);
}

#[test]
fn disabled_system_accumulates_dirty_deduplicated() {
    let (mut world, id, runs) = probed(watcher::<Pos>("p").watches::<Vel>());
    let a = world.spawn((Pos(0), Vel(0)));
    let b = world.spawn((Pos(0),));
    let _c = world.spawn((Pos(0),));
    world.update();
    world.set_enabled(id, false);
    for frame in 0..5 {
        world.get_mut::<Pos>(a).expect("has Pos").0 += 1;
        world.get_mut::<Vel>(a).expect("has Vel").0 += 1;
        if frame == 3 {
            world.get_mut::<Pos>(b).expect("has Pos").0 += 1;
        }
        world.update();
    }
    assert_eq!(run_count(&runs), 1);
    world.set_enabled(id, true);
    world.update();
    assert_eq!(run_count(&runs), 2);
    assert_eq!(last_dirty(&runs).len(), 2, "a once, b once");
    assert_eq!(last_dirty(&runs), set([a, b]));
    world.update();
    assert!(last_dirty(&runs).is_empty(), "received once");
}

#[test]
fn systems_run_by_ascending_priority_ties_in_insertion_order() {
    let mut world = World::new();
    let order = Arc::new(Mutex::new(Vec::new()));
    for (name, priority) in [("c", 5), ("a", -3), ("d", 5), ("b", 0), ("e", 5), ("z", 99)] {
        let order = Arc::clone(&order);
        world.add_system(
            SystemDesc::new(name).priority(priority),
            move |_: &mut World, _: &SystemEntities<'_>| order.lock().unwrap().push(name),
        );
    }
    world.update();
    assert_eq!(*order.lock().unwrap(), ["a", "b", "c", "d", "e", "z"]);
    let names: Vec<&str> = world.systems().map(|s| s.name).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "z"]);
}

#[test]
fn update_debug_only_runs_only_debug_systems() {
    let (mut world, _, game) = probed(watcher::<Pos>("game"));
    let (_, overlay) = probe(
        &mut world,
        SystemDesc::new("overlay")
            .debug()
            .requires::<Pos>()
            .watches::<Pos>(),
    );
    let e = world.spawn((Pos(0),));
    world.update_debug_only();
    assert_eq!(run_count(&game), 0);
    assert_eq!(run_count(&overlay), 1);
    assert_eq!(last_dirty(&overlay), set([e]));
    world.get_mut::<Pos>(e).expect("has Pos").0 = 1;
    world.update_debug_only();
    assert_eq!(last_dirty(&overlay), set([e]));
    world.update();
    assert_eq!(run_count(&game), 1);
    assert_eq!(
        last_dirty(&game),
        set([e]),
        "the paused system kept its changes, once"
    );
    assert_eq!(
        run_count(&overlay),
        3,
        "debug systems also run in a full update"
    );
}

#[test]
fn disabled_debug_system_does_not_run_in_debug_update() {
    let (mut world, id, overlay) = probed(SystemDesc::new("overlay").debug());
    world.set_enabled(id, false);
    world.update_debug_only();
    assert_eq!(run_count(&overlay), 0);
}

#[test]
fn entity_spawned_by_a_system_is_seen_by_every_system() {
    let (mut world, _, early) = probed(watcher::<Pos>("early").priority(0));
    let spawned = Arc::new(Mutex::new(None));
    let out = Arc::clone(&spawned);
    let mut done = false;
    world.add_system(
        watcher::<Pos>("spawner").priority(5).every_update(),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if !done {
                *out.lock().unwrap() = Some(world.spawn((Pos(0),)));
                done = true;
            }
        },
    );
    let (_, late) = probe(&mut world, watcher::<Pos>("late").priority(10));
    world.update();
    let e = spawned.lock().unwrap().expect("spawned");
    assert_eq!(last_dirty(&late), set([e]), "same frame for later systems");
    assert!(run_count(&early) == 1 && last_dirty(&early).is_empty());
    world.update();
    assert_eq!(
        last_dirty(&early),
        set([e]),
        "next frame for earlier systems"
    );
    assert!(last_dirty(&late).is_empty());
}

#[test]
fn a_watching_system_is_called_only_when_it_has_something_to_react_to() {
    let mut world = World::new();
    let id = world.add_system(
        watcher::<Pos>("watcher"),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    let e = world.spawn((Pos(0),));
    world.update(); // e is new
    world.update(); // nothing changed: not called
    assert_eq!(world.system_info(id).runs, 1);
    world.get_mut::<Pos>(e).expect("has Pos").0 += 1;
    world.update(); // e dirty
    assert_eq!(world.system_info(id).last_dirty, 1);
    world.update();
    assert_eq!(world.system_info(id).runs, 2);
    assert_eq!(
        world.system_info(id).last_dirty,
        0,
        "a skip reports nothing dirty"
    );
    world.despawn(e);
    world.update(); // e removed
    world.update();
    assert_eq!(world.system_info(id).runs, 3);
}

#[test]
fn a_change_by_a_later_system_calls_an_earlier_watcher_next_update() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let (_, early) = probe(&mut world, SystemDesc::new("settle").requires::<Pos>());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("early").priority(0).watches::<Pos>(),
        move |_: &mut World, entities: &SystemEntities<'_>| {
            out.lock().unwrap().push(entities.dirty().to_vec());
        },
    );
    writer(&mut world, "late", 10, e, &[1]);
    world.update(); // e new: early runs
    world.update(); // late writes after early
    world.update(); // early receives it
    world.update(); // nothing: early not called
    assert_eq!(*seen.lock().unwrap(), [vec![e], vec![e]]);
    assert_eq!(
        run_count(&early),
        4,
        "a system that watches nothing runs every update"
    );
}

#[test]
fn an_every_update_watcher_is_called_with_nothing_to_react_to() {
    let mut world = World::new();
    let id = world.add_system(
        watcher::<Pos>("ticker").every_update(),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.spawn((Pos(0),));
    for _ in 0..3 {
        world.update();
    }
    assert_eq!(world.system_info(id).runs, 3);
}

#[test]
fn a_change_made_in_an_update_with_nothing_pending_reaches_a_later_watcher_in_that_update() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    writer(&mut world, "writer", 0, e, &[2]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&seen);
    world.add_system(
        watcher::<Pos>("watcher").priority(10),
        move |_: &mut World, entities: &SystemEntities<'_>| {
            out.lock().unwrap().push(entities.dirty().to_vec());
        },
    );
    world.update(); // e new
    world.update(); // nothing pending: the watcher is not called
    world.update(); // nothing pending before the writer writes e
    assert_eq!(*seen.lock().unwrap(), [vec![e], vec![e]]);
}

#[test]
fn system_info_reports_the_latest_update_and_zero_when_it_did_not_run() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let id = world.add_system(
        SystemDesc::new("watch").watches::<Pos>(),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.update();
    assert_eq!(world.system_info(id).last_dirty, 1, "new entity");
    world.update();
    assert_eq!(
        world.system_info(id).last_dirty,
        0,
        "skipped: nothing changed"
    );
    world.get_mut::<Pos>(e).unwrap().0 += 1;
    world.update();
    assert_eq!(world.system_info(id).last_dirty, 1);
    world.set_enabled(id, false);
    world.get_mut::<Pos>(e).unwrap().0 += 1;
    world.update();
    assert_eq!(
        world.system_info(id).last_dirty,
        0,
        "a disabled system did not run in the latest update"
    );
    world.set_enabled(id, true);
    world.update();
    assert_eq!(world.system_info(id).last_dirty, 1, "kept while disabled");
}

#[test]
fn update_observed_names_every_system_even_in_an_update_with_nothing_pending() {
    let mut world = World::new();
    world.add_system(
        watcher::<Pos>("early watcher").priority(1),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.add_system(
        SystemDesc::new("every update").priority(2),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.add_system(
        watcher::<Pos>("late watcher").priority(3),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.spawn((Pos(0),));
    world.update(); // the entity is new to the watchers
    let mut seen = Vec::new();
    world.update_observed(&mut |_, name| seen.push(name));
    assert_eq!(
        seen,
        ["early watcher", "every update", "late watcher"],
        "skipped systems are observed too, in run order"
    );
}

/// An event a test sends.
struct Ping(u32);

#[test]
fn an_event_system_runs_in_each_update_after_events_came_and_in_no_other() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let seen: Arc<Mutex<Vec<Vec<u32>>>> = Arc::default();
    let out = Arc::clone(&seen);
    let mut pings = ecs::EventReader::<Ping>::default();
    let id = world.add_system(
        // Watching `Pos` does not make it run on changes: it runs on events.
        watcher::<Pos>("pong").priority(5).on_event::<Ping>(),
        move |world: &mut World, _: &SystemEntities<'_>| {
            let got = pings.read(world).map(|p| p.0).collect();
            out.lock().unwrap().push(got);
        },
    );
    // A sender after it in the update: its event wakes it in the next update.
    let mut sends = vec![None, Some(2), None, None];
    world.add_system(
        SystemDesc::new("late_sender").priority(9),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if let Some(Some(n)) = sends.pop() {
                world.send(Ping(n));
            }
        },
    );
    world.update(); // nothing sent yet
    world.send(Ping(1)); // between updates
    world.get_mut::<Pos>(e).unwrap().0 = 1;
    world.update(); // reads 1; late_sender sends 2 after it
    world.update(); // reads 2
    world.get_mut::<Pos>(e).unwrap().0 = 2;
    world.update(); // a change, but no event
    assert_eq!(*seen.lock().unwrap(), [vec![1], vec![2]]);
    assert_eq!(world.system_info(id).runs, 2);
}

#[test]
fn a_timer_that_runs_every_update_needs_no_watch_to_count_down() {
    let mut world = World::new();
    let id = world.add_system(
        SystemDesc::new("countdown")
            .requires::<Pos>()
            .every_update(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut expired = Vec::new();
            let mut timers = entities.query::<&mut Pos>(world);
            while let Some((e, mut left)) = timers.next() {
                left.0 -= 1;
                if left.0 == 0 {
                    expired.push(e);
                }
            }
            for e in expired {
                world.remove::<Pos>(e);
            }
        },
    );
    let e = world.spawn((Pos(3),));
    for _ in 0..4 {
        world.update();
    }
    assert!(!world.has::<Pos>(e), "removed on the third update");
    assert_eq!(world.system_info(id).runs, 4, "and called on every update");
}

/// A clock that advances 5 µs each time it is read.
fn five_micros_a_reading() -> std::time::Duration {
    use std::sync::atomic::{AtomicU64, Ordering};
    static MICROS: AtomicU64 = AtomicU64::new(0);
    std::time::Duration::from_micros(MICROS.fetch_add(5, Ordering::Relaxed))
}

#[test]
fn timing_reads_the_clock_set_in_diagnostics() {
    let mut world = World::new();
    ecs::diagnostics::set_clock(&mut world, five_micros_a_reading);
    let id = world.add_system(
        SystemDesc::new("s"),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.update();
    assert_eq!(
        world.system_info(id).last_duration,
        std::time::Duration::ZERO,
        "off by default"
    );
    world.set_timing(true);
    world.update();
    assert_eq!(
        world.system_info(id).last_duration,
        std::time::Duration::from_micros(5)
    );
}

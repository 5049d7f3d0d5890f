//! Resources and events: README's "Resources and events".

use std::sync::Arc;
use std::sync::Mutex;

use ecs::{EventReader, SystemDesc, SystemEntities, World};

#[derive(Debug, PartialEq)]
struct Score(u32);

#[derive(Debug, PartialEq, Clone, Copy)]
struct Hit(u32);

#[test]
fn resource_is_a_typed_singleton() {
    let mut world = World::new();
    assert!(world.get_resource::<Score>().is_none());
    assert_eq!(world.insert_resource(Score(1)), None);
    assert_eq!(world.insert_resource(Score(2)), Some(Score(1)), "replaced");
    world.resource_mut::<Score>().0 += 1;
    assert_eq!(world.resource::<Score>(), &Score(3));
    assert_eq!(world.remove_resource::<Score>(), Some(Score(3)));
    assert!(world.get_resource_mut::<Score>().is_none());
}

#[test]
fn resources_survive_clear() {
    let mut world = World::new();
    world.insert_resource(Score(5));
    world.spawn(());
    world.clear();
    assert_eq!(world.get_resource::<Score>(), Some(&Score(5)));
}

#[test]
fn systems_share_state_through_resources() {
    let mut world = World::new();
    world.insert_resource(Score(0));
    world.add_system(
        SystemDesc::new("scorer"),
        |world: &mut World, _: &SystemEntities<'_>| world.resource_mut::<Score>().0 += 10,
    );
    world.update();
    world.update();
    assert_eq!(world.resource::<Score>(), &Score(20));
}

#[test]
fn event_reader_sees_each_event_once() {
    let mut world = World::new();
    let mut reader = EventReader::<Hit>::default();
    assert_eq!(reader.read(&world).count(), 0, "no queue yet");
    world.send(Hit(1));
    world.send(Hit(2));
    let got: Vec<Hit> = reader.read(&world).copied().collect();
    assert_eq!(got, [Hit(1), Hit(2)]);
    assert_eq!(reader.read(&world).count(), 0);
    world.send(Hit(3));
    world.update();
    let got: Vec<Hit> = reader.read(&world).copied().collect();
    assert_eq!(got, [Hit(3)]);
}

/// Add a system at `priority` that records every `Hit` it reads, per run.
fn hit_reader(world: &mut World, priority: i32) -> Arc<Mutex<Vec<Vec<u32>>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&log);
    let mut reader = EventReader::<Hit>::default();
    world.add_system(
        SystemDesc::new("reader").priority(priority),
        move |world: &mut World, _: &SystemEntities<'_>| {
            out.lock()
                .unwrap()
                .push(reader.read(world).map(|h| h.0).collect());
        },
    );
    log
}

/// Add a system at `priority` that sends `Hit(frame)` on the given frames.
fn hit_sender(world: &mut World, priority: i32, frames: &'static [u32]) {
    let mut frame = 0;
    world.add_system(
        SystemDesc::new("sender").priority(priority),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if frames.contains(&frame) {
                world.send(Hit(frame));
            }
            frame += 1;
        },
    );
}

#[test]
fn event_from_earlier_system_reaches_later_system_same_frame() {
    let mut world = World::new();
    hit_sender(&mut world, 0, &[1]);
    let log = hit_reader(&mut world, 10);
    for _ in 0..4 {
        world.update();
    }
    assert_eq!(*log.lock().unwrap(), [vec![], vec![1], vec![], vec![]]);
}

#[test]
fn event_from_later_system_reaches_earlier_system_next_frame() {
    let mut world = World::new();
    let log = hit_reader(&mut world, 0);
    hit_sender(&mut world, 10, &[1, 2]);
    for _ in 0..5 {
        world.update();
    }
    assert_eq!(
        *log.lock().unwrap(),
        [vec![], vec![], vec![1], vec![2], vec![]]
    );
}

#[test]
fn several_readers_each_see_every_event_once() {
    let mut world = World::new();
    let early = hit_reader(&mut world, 0);
    hit_sender(&mut world, 5, &[0, 1, 2]);
    let late = hit_reader(&mut world, 10);
    for _ in 0..5 {
        world.update();
    }
    let flat = |log: &Arc<Mutex<Vec<Vec<u32>>>>| log.lock().unwrap().concat();
    assert_eq!(flat(&early), [0, 1, 2]);
    assert_eq!(flat(&late), [0, 1, 2]);
}

#[test]
fn events_are_dropped_after_two_updates() {
    let mut world = World::new();
    world.send(Hit(1));
    world.update();
    assert_eq!(EventReader::<Hit>::default().read(&world).count(), 1);
    world.update();
    let mut late_reader = EventReader::<Hit>::default();
    assert_eq!(late_reader.read(&world).count(), 0);
}

#[test]
fn pair_mut_lends_two_resources_beside_a_query() {
    let mut world = World::new();
    world.insert_resource(Score(1));
    world.insert_resource(Hit(2));
    world.add_system(
        SystemDesc::new("s"),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let (_, resources) = entities.query::<()>(world).with_resources();
            let (score, hit) = resources.pair_mut::<Score, Hit>();
            score.0 += hit.0;
        },
    );
    world.update();
    assert_eq!(world.resource::<Score>(), &Score(3));
}

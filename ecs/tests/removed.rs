//! `SystemEntities::removed`: entities that stopped being tracked since a system last ran.

use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Entity, SystemDesc, SystemEntities, World};

struct Shape;
struct Other;

type Seen = Arc<Mutex<Vec<Vec<Entity>>>>;

fn world_with_recorder() -> (World, Seen) {
    let mut world = World::new();
    let seen: Seen = Arc::default();
    let log = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("recorder").requires::<Shape>(),
        move |_: &mut World, entities: &SystemEntities<'_>| {
            log.lock().unwrap().push(entities.removed().to_vec());
        },
    );
    (world, seen)
}

#[test]
fn despawned_and_stripped_entities_are_reported_removed_once() {
    let (mut world, seen) = world_with_recorder();
    let a = world.spawn((Shape,));
    let b = world.spawn((Shape, Other));
    let c = world.spawn((Other,));
    world.update();
    world.despawn(a);
    world.remove::<Shape>(b);
    world.despawn(c); // never tracked: not reported
    world.update();
    world.update();
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0], []);
    let mut second = seen[1].clone();
    second.sort();
    assert_eq!(second, [a, b]);
    assert_eq!(seen[2], [], "reported once, then cleared");
}

#[test]
fn re_tracked_entity_is_not_reported_removed() {
    let (mut world, seen) = world_with_recorder();
    let a = world.spawn((Shape,));
    world.update();
    world.remove::<Shape>(a);
    world.insert(a, Shape).unwrap();
    world.update();
    assert_eq!(seen.lock().unwrap()[1], []);
}

#[test]
fn clear_reports_every_tracked_entity_removed() {
    let (mut world, seen) = world_with_recorder();
    let a = world.spawn((Shape,));
    world.update();
    world.clear();
    world.update();
    assert_eq!(seen.lock().unwrap()[1], [a]);
}

//! Tracked and dirty sets: README's "What a system sees", and `set_change_tracking`.

use crate::common;

use std::sync::Arc;
use std::sync::Mutex;

use common::{Pos, Tag, Vel, last_dirty, last_tracked, probe, probed, set, watcher};
use ecs::{Entity, SystemDesc, SystemEntities, World};

#[test]
fn tracked_entities_have_all_required_components() {
    let (mut world, _, runs) = probed(
        SystemDesc::new("movement")
            .requires::<Pos>()
            .requires::<Vel>(),
    );
    let both = world.spawn((Pos(0), Vel(1)));
    let _pos_only = world.spawn((Pos(0),));
    let _vel_only = world.spawn((Vel(0),));
    world.update();
    assert_eq!(last_tracked(&runs), set([both]));
}

#[test]
fn system_requiring_nothing_tracks_every_entity() {
    let (mut world, _, runs) = probed(SystemDesc::new("all"));
    let a = world.spawn(());
    let b = world.spawn((Pos(0),));
    world.update();
    assert_eq!(last_tracked(&runs), set([a, b]));
}

#[test]
fn tracked_set_follows_component_add_and_remove() {
    let (mut world, _, runs) = probed(
        SystemDesc::new("movement")
            .requires::<Pos>()
            .requires::<Vel>(),
    );
    let e = world.spawn((Pos(0),));
    world.update();
    assert!(last_tracked(&runs).is_empty());
    world.insert(e, Vel(1)).expect("alive");
    world.update();
    assert_eq!(last_tracked(&runs), set([e]));
    world.remove::<Pos>(e);
    world.update();
    assert!(last_tracked(&runs).is_empty());
}

#[test]
fn mutation_through_mut_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let a = world.spawn((Pos(0),));
    let _b = world.spawn((Pos(0),));
    world.update();
    world.update();
    assert!(last_dirty(&runs).is_empty(), "nothing changed");
    world.get_mut::<Pos>(a).expect("has Pos").0 += 1;
    world.update();
    assert_eq!(last_dirty(&runs), set([a]));
    world.update();
    assert!(last_dirty(&runs).is_empty(), "seen once");
}

#[test]
fn mutation_through_column_iter_mut_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let a = world.spawn((Pos(0),));
    let b = world.spawn((Pos(5),));
    world.update();
    for (_, mut pos) in world.column_mut::<Pos>().iter_mut() {
        if pos.0 == 0 {
            pos.0 = 1;
        }
    }
    world.update();
    assert_eq!(last_dirty(&runs), set([a]), "b was only read: {b:?}");
}

#[test]
fn reading_through_mut_is_not_a_change() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let e = world.spawn((Pos(3),));
    world.update();
    assert_eq!(world.get_mut::<Pos>(e).expect("has Pos").0, 3);
    world.update();
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn set_if_neq_with_equal_value_is_no_change() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let e = world.spawn((Pos(3),));
    world.update();
    assert!(!world.get_mut::<Pos>(e).expect("has Pos").set_if_neq(Pos(3)));
    world.update();
    assert!(last_dirty(&runs).is_empty(), "no false positive");
    assert!(world.get_mut::<Pos>(e).expect("has Pos").set_if_neq(Pos(4)));
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
    assert_eq!(world.get::<Pos>(e), Some(&Pos(4)));
}

#[test]
fn writes_to_unwatched_components_do_not_mark_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let e = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.get_mut::<Vel>(e).expect("has Vel").0 = 9;
    world.insert(e, Tag).expect("alive");
    world.update();
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn change_to_watched_but_not_required_component_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Vel>("p"));
    let e = world.spawn((Pos(0), Vel(0)));
    let _untracked = world.spawn((Vel(0),));
    world.update();
    assert_eq!(last_dirty(&runs), set([e]), "newly tracked");
    world.update();
    world.get_mut::<Vel>(e).expect("has Vel").0 = 1;
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
}

#[test]
fn change_to_any_of_several_watched_components_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p").watches::<Vel>());
    let a = world.spawn((Pos(0), Vel(0)));
    let b = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.get_mut::<Pos>(a).expect("has Pos").0 = 1;
    world.get_mut::<Vel>(b).expect("has Vel").0 = 1;
    world.get_mut::<Vel>(a).expect("has Vel").0 = 1;
    world.update();
    assert_eq!(last_dirty(&runs), set([a, b]), "a once, though two changed");
}

#[test]
fn adding_a_watched_component_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Vel>("p"));
    let e = world.spawn((Pos(0),));
    world.update();
    world.update();
    assert!(last_dirty(&runs).is_empty());
    world.insert(e, Vel(1)).expect("alive");
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
}

#[test]
fn replacing_a_watched_component_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let e = world.spawn((Pos(0),));
    world.update();
    world.insert(e, Pos(0)).expect("alive");
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
}

#[test]
fn removing_a_watched_component_marks_dirty() {
    let (mut world, _, runs) = probed(watcher::<Vel>("p"));
    let e = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.update();
    assert!(last_dirty(&runs).is_empty());
    world.remove::<Vel>(e);
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
}

#[test]
fn freshly_added_component_starts_dirty() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let e = world.spawn((Pos(10),));
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
    world.update();
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn system_added_after_entities_sees_all_of_them_dirty_first() {
    let mut world = World::new();
    let a = world.spawn((Pos(0),));
    let b = world.spawn((Pos(0),));
    let _other = world.spawn((Vel(0),));
    world.update();
    let (_, runs) = probe(&mut world, watcher::<Vel>("late"));
    world.update();
    assert_eq!(last_dirty(&runs), set([a, b]));
    assert_eq!(last_tracked(&runs), set([a, b]));
    world.update();
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn entity_newly_tracked_is_dirty() {
    let (mut world, _, runs) = probed(
        SystemDesc::new("p")
            .requires::<Pos>()
            .requires::<Vel>()
            .watches::<Tag>(),
    );
    let e = world.spawn((Pos(0),));
    world.update();
    assert!(last_dirty(&runs).is_empty());
    world.insert(e, Vel(0)).expect("alive");
    world.update();
    assert_eq!(
        last_dirty(&runs),
        set([e]),
        "Vel is not watched, yet e is new"
    );
}

#[test]
fn untracked_entity_is_never_dirty() {
    let (mut world, _, runs) = probed(watcher::<Vel>("p"));
    let e = world.spawn((Vel(0),));
    world.update();
    world.get_mut::<Vel>(e).expect("has Vel").0 = 1;
    world.update();
    assert!(last_dirty(&runs).is_empty());
    assert!(last_tracked(&runs).is_empty());
}

#[test]
fn entity_that_stops_being_tracked_leaves_the_dirty_set() {
    let (mut world, _, runs) = probed(watcher::<Vel>("p"));
    let e = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.get_mut::<Vel>(e).expect("has Vel").0 = 1;
    world.remove::<Pos>(e);
    world.update();
    assert!(last_dirty(&runs).is_empty());
    assert!(last_tracked(&runs).is_empty());
}

#[test]
fn system_watching_nothing_gets_empty_dirty_slice() {
    let (mut world, _, runs) = probed(SystemDesc::new("p").requires::<Pos>());
    let e = world.spawn((Pos(0),));
    world.update();
    assert!(last_dirty(&runs).is_empty());
    world.get_mut::<Pos>(e).expect("has Pos").0 = 1;
    world.set_change_tracking(false);
    world.update();
    assert!(last_dirty(&runs).is_empty(), "even with tracking off");
    assert_eq!(last_tracked(&runs), set([e]));
}

#[test]
fn change_tracking_off_makes_every_tracked_entity_dirty_every_run() {
    let (mut world, _, runs) = probed(watcher::<Pos>("p"));
    let a = world.spawn((Pos(0),));
    let b = world.spawn((Pos(0),));
    world.update();
    world.set_change_tracking(false);
    assert!(!world.change_tracking());
    world.update();
    assert_eq!(last_dirty(&runs), set([a, b]));
    world.update();
    assert_eq!(last_dirty(&runs), set([a, b]));
    world.set_change_tracking(true);
    world.update();
    assert!(last_dirty(&runs).is_empty(), "back to changes only");
}

#[test]
fn several_watchers_of_one_component_each_receive_each_change_once() {
    let mut world = World::new();
    let watcher = |name| SystemDesc::new(name).requires::<Pos>().watches::<Pos>();
    let (_, early) = probe(&mut world, watcher("early").priority(-1));
    world.add_system(
        SystemDesc::new("writer")
            .requires::<Pos>()
            .requires::<Vel>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            for &e in entities.tracked() {
                world.get_mut::<Pos>(e).expect("tracked").0 += 1;
            }
        },
    );
    let (_, late) = probe(&mut world, watcher("late").priority(1));
    let (_, also_late) = probe(&mut world, watcher("also_late").priority(1));
    let a = world.spawn((Pos(0), Vel(1)));
    let b = world.spawn((Pos(0),));
    world.update();
    world.get_mut::<Pos>(b).expect("has Pos").0 = 5;
    world.update();
    assert_eq!(last_dirty(&early), set([a, b]), "a from the last frame");
    assert_eq!(last_dirty(&late), set([a, b]), "a from this frame");
    assert_eq!(last_dirty(&also_late), set([a, b]));
    world.update();
    for runs in [&early, &late, &also_late] {
        assert_eq!(last_dirty(runs), set([a]), "b only once");
    }
}

#[test]
fn delivery_is_in_slot_order_and_the_same_in_two_identical_runs() {
    fn run() -> Vec<Vec<Entity>> {
        let mut world = World::new();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let out = Arc::clone(&seen);
        world.add_system(
            watcher::<Pos>("p"),
            move |_: &mut World, entities: &SystemEntities<'_>| {
                out.lock().unwrap().push(entities.dirty().to_vec());
            },
        );
        let es: Vec<Entity> = (0..50).map(|i| world.spawn((Pos(i),))).collect();
        for frame in 0..5_usize {
            for i in (0..es.len()).rev().step_by(frame + 1) {
                if let Some(mut p) = world.get_mut::<Pos>(es[(i * 7) % es.len()]) {
                    p.0 += 1;
                }
            }
            world.despawn(es[frame * 3]);
            world.update();
        }
        std::mem::take(&mut *seen.lock().unwrap())
    }
    let first = run();
    assert_eq!(first, run());
    assert!(
        first.iter().all(|d| d.is_sorted_by_key(|e| e.index())),
        "slot order, whatever the write order"
    );
    assert!(first.iter().skip(1).all(|d| !d.is_empty()));
}

/// A system that requires only the component it watches is handed the change log without a
/// lookup per entry while every logged entity is still in the column; an entity that changed and
/// then lost the component (its second mark is deduplicated) must not be delivered.
#[test]
fn an_entity_that_changed_then_lost_the_watched_component_is_not_delivered() {
    let mut world = World::new();
    let a = world.spawn((Pos(0),));
    let b = world.spawn((Pos(0),));
    let (_, runs) = probe(&mut world, watcher::<Pos>("reader"));
    world.update();
    for e in [a, b] {
        world.column_mut::<Pos>().get_mut(e).expect("has Pos").0 += 1;
    }
    world.remove::<Pos>(a);
    world.update();
    assert_eq!(last_tracked(&runs), set([b]));
    assert_eq!(last_dirty(&runs), set([b]));
}

#[test]
fn set_changed_marks_an_entity_dirty_without_a_write() {
    let (mut world, id, _) = probed(watcher::<Pos>("pos"));
    let e = world.spawn((Pos(7),));
    world.update();
    world.get_mut::<Pos>(e).unwrap().set_changed();
    world.update();
    assert_eq!(world.system_info(id).last_dirty, 1);
    assert_eq!(world.get::<Pos>(e), Some(&Pos(7)));
}

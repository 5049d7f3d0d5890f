//! Entity handles and component storage: README's "Entities and components".

use crate::common;

use common::{Pos, Tag, Vel};
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Entity, NoSuchEntity, SystemDesc, SystemEntities, World};

#[test]
fn handles_are_copyable_and_distinct() {
    let mut world = World::new();
    let a = world.spawn((Pos(1),));
    let b = world.spawn((Pos(2),));
    let a_copy = a;
    assert_eq!(a, a_copy);
    assert_ne!(a, b);
    assert_eq!(world.get::<Pos>(a_copy), Some(&Pos(1)));
}

#[test]
fn stale_handle_never_reaches_new_entity() {
    let mut world = World::new();
    let old = world.spawn((Pos(1), Vel(1)));
    assert!(world.despawn(old));
    let new = world.spawn((Pos(2),));
    assert_eq!(old.index(), new.index(), "the slot is reused");
    assert_ne!(old, new);

    assert!(!world.is_alive(old));
    assert_eq!(world.get::<Pos>(old), None);
    assert!(world.get_mut::<Pos>(old).is_none());
    assert!(!world.has::<Pos>(old));
    assert_eq!(world.remove::<Pos>(old), None);
    assert_eq!(world.insert(old, Vel(9)), Err(NoSuchEntity(old)));
    assert!(!world.despawn(old));
    assert!(world.column::<Pos>().get(old).is_none());
    assert!(world.column_mut::<Pos>().get_mut(old).is_none());

    assert_eq!(world.get::<Pos>(new), Some(&Pos(2)), "new entity untouched");
    assert!(
        !world.has::<Vel>(new),
        "old entity's components do not leak"
    );
    assert!(world.is_alive(new));
}

#[test]
fn stale_handle_misuse_never_panics_and_changes_nothing() {
    let mut world = World::new();
    let (_, runs) = common::probe(
        &mut world,
        SystemDesc::new("p").requires::<Pos>().watches::<Pos>(),
    );
    let stale = world.spawn((Pos(1),));
    world.despawn(stale);
    let live = world.spawn((Pos(2),));
    world.update();
    assert_eq!(common::last_dirty(&runs), common::set([live]));

    // Every operation through the stale handle, including ones on never-registered types.
    struct Unregistered;
    assert!(world.get::<Unregistered>(stale).is_none());
    assert!(world.get_mut::<Unregistered>(stale).is_none());
    assert!(world.remove::<Unregistered>(stale).is_none());
    assert!(world.insert(stale, Unregistered).is_err());
    assert!(world.insert(stale, Pos(7)).is_err());
    assert!(world.get_mut::<Pos>(stale).is_none());
    assert!(!world.despawn(stale));

    // A handle that was never issued at all.
    let forged = Entity::from_bits((5 << 32) | 1000).expect("non-zero generation");
    assert!(world.get::<Pos>(forged).is_none());
    assert!(world.insert(forged, Pos(1)).is_err());
    assert!(!world.despawn(forged));

    world.update();
    assert!(
        common::last_dirty(&runs).is_empty(),
        "stale misuse is no change"
    );
    assert_eq!(common::last_tracked(&runs), common::set([live]));
    assert_eq!(world.get::<Pos>(live), Some(&Pos(2)));
    assert_eq!(world.len(), 1);
}

#[test]
fn stale_handle_from_a_system_is_harmless() {
    let mut world = World::new();
    let stale = world.spawn((Pos(1),));
    world.despawn(stale);
    let live = world.spawn((Pos(2),));
    world.add_system(
        SystemDesc::new("misuser"),
        move |world: &mut World, _: &SystemEntities<'_>| {
            assert!(world.get_mut::<Pos>(stale).is_none());
            assert!(world.insert(stale, Vel(1)).is_err());
            assert!(world.remove::<Pos>(stale).is_none());
            assert!(!world.despawn(stale));
        },
    );
    world.update();
    assert!(world.is_alive(live));
    assert!(!world.has::<Vel>(live));
}

#[test]
fn despawning_twice_reports_false_the_second_time() {
    let mut world = World::new();
    let e = world.spawn(());
    assert!(world.despawn(e));
    assert!(!world.despawn(e));
    assert!(world.is_empty());
}

#[test]
fn any_static_type_is_a_component() {
    let mut world = World::new();
    let e = world.spawn((String::from("crate"), vec![1_u8, 2], Tag, 5_u64));
    assert_eq!(world.get::<String>(e).map(String::as_str), Some("crate"));
    assert_eq!(world.get::<Vec<u8>>(e), Some(&vec![1, 2]));
    assert!(world.has::<Tag>(e));
    assert_eq!(world.get::<u64>(e), Some(&5));
}

#[test]
fn insert_replaces_and_returns_the_old_component() {
    let mut world = World::new();
    let e = world.spawn((Pos(1),));
    assert_eq!(world.insert(e, Pos(2)), Ok(Some(Pos(1))));
    assert_eq!(world.insert(e, Vel(3)), Ok(None));
    assert_eq!(world.get::<Pos>(e), Some(&Pos(2)));
    assert_eq!(world.column::<Pos>().len(), 1, "at most one Pos per entity");
}

#[test]
fn get_mut_writes_through() {
    let mut world = World::new();
    let e = world.spawn((Pos(1),));
    world.get_mut::<Pos>(e).expect("has Pos").0 = 5;
    assert_eq!(world.get::<Pos>(e), Some(&Pos(5)));
}

#[test]
fn remove_returns_the_component_and_has_follows() {
    let mut world = World::new();
    let e = world.spawn((Pos(1), Vel(2)));
    assert!(world.has::<Pos>(e));
    assert_eq!(world.remove::<Pos>(e), Some(Pos(1)));
    assert!(!world.has::<Pos>(e));
    assert_eq!(world.remove::<Pos>(e), None, "already removed");
    assert_eq!(world.get::<Vel>(e), Some(&Vel(2)), "other components stay");
}

#[test]
fn missing_component_is_none_not_a_panic() {
    let mut world = World::new();
    let e = world.spawn(());
    struct Never;
    assert!(world.get::<Never>(e).is_none());
    assert!(world.get_mut::<Never>(e).is_none());
    assert!(world.remove::<Never>(e).is_none());
    assert!(!world.has::<Never>(e));
    assert!(world.try_column::<Never>().is_none());
}

#[test]
fn despawn_drops_every_component() {
    let mut world = World::new();
    let e = world.spawn((Pos(1), Vel(2)));
    let other = world.spawn((Pos(3),));
    world.despawn(e);
    assert_eq!(world.column::<Pos>().entities(), [other]);
    assert!(world.column::<Vel>().is_empty());
}

#[test]
fn reserve_changes_capacity_only() {
    let (mut world, _, runs) = common::probed(common::watcher::<Pos>("watch_pos"));
    let old = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.despawn(old);
    world.reserve::<(Pos, Vel)>(1_000);
    let reserved = ecs::diagnostics::memory_use(&world);
    let spawned: Vec<Entity> = (0..1_000).map(|i| world.spawn((Pos(i), Vel(i)))).collect();
    let filled = ecs::diagnostics::memory_use(&world);
    assert_eq!(filled.entities, reserved.entities, "entity slots");
    assert_eq!(filled.columns, reserved.columns, "columns");
    assert_eq!(filled.systems, reserved.systems, "tracked and dirty sets");
    assert_eq!(
        spawned[0].index(),
        old.index(),
        "the freed slot is reused first"
    );
    world.update();
    let all: std::collections::BTreeSet<Entity> = spawned.iter().copied().collect();
    assert_eq!(common::last_tracked(&runs), all);
    assert_eq!(common::last_dirty(&runs), all);
    assert_eq!(world.get::<Pos>(spawned[999]), Some(&Pos(999)));
    world.reserve::<()>(0);
}

/// Sixty-four component types, each registered and found back by type (the id table is
/// rebuilt as types collide in it).
#[test]
fn sixty_four_component_types_are_each_found_by_type_and_a_65th_is_refused() {
    struct C<const I: usize>(usize);
    macro_rules! each {
        ($($i:literal)*) => {{
            let mut world = World::new();
            let e = world.spawn(());
            $(
                world.insert(e, C::<$i>($i)).unwrap();
            )*
            $(
                assert_eq!(world.component_id::<C<$i>>().map(ecs::diagnostics::component_index), Some($i));
                assert_eq!(world.get::<C<$i>>(e).map(|c| c.0), Some($i));
                world.get_mut::<C<$i>>(e).unwrap().0 += 1;
                assert_eq!(world.column::<C<$i>>().values()[0].0, $i + 1);
            )*
            assert!(world.component_id::<Pos>().is_none() && world.get_mut::<Pos>(e).is_none());
            let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                world.register::<Pos>();
            }));
            let text = *refused.expect_err("a 65th type").downcast::<String>().unwrap();
            assert!(text.contains("at most 64 component types"), "{text}");
        }};
    }
    each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
        61 62 63);
}

#[test]
fn spawn_batch_is_spawn_one_by_one() {
    let setup = || {
        let (mut world, _, pos_runs) = common::probed(common::watcher::<Pos>("watch_pos"));
        let (_, vel_runs) = common::probe(&mut world, SystemDesc::new("vel").requires::<Vel>());
        let old = world.spawn((Pos(-1),));
        world.update();
        world.despawn(old);
        (world, pos_runs, vel_runs)
    };
    let (mut one, one_pos, one_vel) = setup();
    let (mut batch, batch_pos, batch_vel) = setup();
    let singles: Vec<Entity> = (0..50).map(|i| one.spawn((Pos(i), Tag))).collect();
    let batched = batch.spawn_batch((0..50).map(|i| (Pos(i), Tag)));
    assert_eq!(singles, batched, "same handles, same order");
    one.update();
    batch.update();
    assert_eq!(
        common::last_tracked(&one_pos),
        common::last_tracked(&batch_pos)
    );
    assert_eq!(common::last_dirty(&one_pos), common::last_dirty(&batch_pos));
    assert_eq!(common::last_tracked(&batch_pos).len(), 50);
    assert!(
        common::last_tracked(&batch_vel).is_empty() && common::last_tracked(&one_vel).is_empty()
    );
    assert_eq!(batch.get::<Pos>(batched[49]), Some(&Pos(49)));
}

#[test]
fn spawn_batch_from_a_running_system_is_tracked_after_it() {
    let (mut world, _, runs) = common::probed(SystemDesc::new("pos").requires::<Pos>().priority(1));
    let spawned = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let out = std::sync::Arc::clone(&spawned);
    world.add_system(
        SystemDesc::new("spawner").requires::<Pos>().priority(0),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if out.lock().unwrap().is_empty() {
                *out.lock().unwrap() = world.spawn_batch((0..3).map(|i| (Pos(i),)));
            }
        },
    );
    world.update();
    let all: std::collections::BTreeSet<Entity> = spawned.lock().unwrap().iter().copied().collect();
    assert_eq!(common::last_tracked(&runs), all);
}

#[test]
fn newly_tracked_entities_are_dirty_in_slot_order_at_a_bit_each() {
    let mut world = World::new();
    let seen: Arc<Mutex<(Vec<Entity>, Vec<Entity>)>> = Arc::default();
    let out = Arc::clone(&seen);
    world.add_system(
        common::watcher::<Pos>("watch_pos"),
        move |_: &mut World, e: &SystemEntities<'_>| {
            *out.lock().unwrap() = (e.tracked().to_vec(), e.dirty().to_vec());
        },
    );
    let spawned = world.spawn_batch((0..20_000).map(|i| (Pos(i),)));
    let one_set = ecs::diagnostics::memory_use(&world).systems[0].1;
    // Removals fill the hole with the last member; a newer generation replaces a stale one.
    world.despawn(spawned[3]);
    world.despawn(spawned[19_999]);
    let reused = world.spawn((Pos(-1),));
    world.update();
    let (mut tracked, dirty) = seen.lock().unwrap().clone();
    tracked.sort_by_key(|e| e.index());
    assert_eq!(dirty, tracked, "every tracked entity, in slot order");
    assert_eq!(tracked.len(), 19_999);
    assert!(tracked.contains(&reused) && !tracked.contains(&spawned[3]));
    assert!(
        one_set < 20_000 * 9,
        "{one_set} bytes: more than a handle per tracked entity and a bit per dirty one"
    );
    // Once delivered, newly tracked entities are a set of their own again.
    let late = world.spawn((Pos(7),));
    world.get_mut::<Pos>(spawned[5]).unwrap().0 = 5;
    world.update();
    assert_eq!(seen.lock().unwrap().1, [late, spawned[5]]);
}

#[test]
fn columns_mut_lends_two_columns_and_refuses_one_twice() {
    let mut world = World::new();
    let e = world.spawn((Pos(7), Vel(2)));
    let (positions, velocities) = world.columns_mut::<Pos, Vel>();
    positions.get_mut(e).unwrap().0 += velocities.get(e).unwrap().0;
    assert_eq!(world.get::<Pos>(e), Some(&Pos(9)));
    let twice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.columns_mut::<Pos, Pos>();
    }));
    assert!(twice.is_err());
}

//! Typed queries: the changed, added or tracked entities that have the named components, with
//! them, in slot order, and still exact after the system changed the columns during its run.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Entity, SystemDesc, SystemEntities, World};

#[derive(Clone, Copy, Debug, PartialEq)]
struct Hp(u32);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Armor(u32);

type Seen = Arc<Mutex<Vec<BTreeMap<Entity, u32>>>>;

/// What `changed::<&Hp>` handed out, as a map (it must not repeat an entity).
fn read_hp(world: &mut World, entities: &SystemEntities<'_>) -> BTreeMap<Entity, u32> {
    let mut pairs: Vec<(Entity, u32)> = Vec::new();
    entities
        .changed::<&Hp>(world)
        .for_each(|e, hp| pairs.push((e, hp.0)));
    let map: BTreeMap<Entity, u32> = pairs.iter().copied().collect();
    assert_eq!(map.len(), pairs.len(), "an entity twice");
    map
}

#[test]
fn every_entity_dirty_yields_the_column_but_not_what_the_run_added_to_it() {
    {
        let mut world = World::new();
        let seen = Seen::default();
        let out = Arc::clone(&seen);
        let late = world.spawn((Armor(0),));
        world.add_system(
            SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
            move |world: &mut World, entities: &SystemEntities<'_>| {
                out.lock().unwrap().push(read_hp(world, entities));
                // The column gains two entities and loses one: same length, other members.
                let first = entities.dirty()[0];
                world.remove::<Hp>(first);
                world.insert(late, Hp(70)).unwrap();
                world.spawn((Hp(80),));
                out.lock().unwrap().push(read_hp(world, entities));
            },
        );
        let es: Vec<Entity> = (0..4).map(|i| world.spawn((Hp(i),))).collect();
        world.update();
        let seen = seen.lock().unwrap();
        let all: BTreeMap<Entity, u32> = es.iter().map(|&e| (e, e.index() - 1)).collect();
        assert_eq!(seen[0], all, "every entity is new");
        let mut left = all.clone();
        left.remove(&es[0]);
        assert_eq!(seen[1], left, "neither the newcomers nor the one removed");
    }
}

#[test]
fn changes_in_any_order_are_read_once_each_in_slot_order() {
    let mut world = World::new();
    let seen = Seen::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            let read = read_hp(world, entities);
            assert_eq!(entities.dirty().len(), read.len());
            assert!(
                entities.dirty().is_sorted_by_key(|e| e.index()),
                "slot order"
            );
            out.lock().unwrap().push(read);
        },
    );
    let es: Vec<Entity> = (0..200).map(|i| world.spawn((Hp(i),))).collect();
    world.update();
    // Every third entity, in a scrambled order, some twice.
    let mut picked: Vec<Entity> = es.iter().step_by(3).copied().collect();
    picked.reverse();
    picked.rotate_left(17);
    picked.extend_from_slice(&es[30..40]);
    for &e in &picked {
        world.get_mut::<Hp>(e).unwrap().0 += 1000;
    }
    world.update();
    let expected: BTreeMap<Entity, u32> = picked
        .iter()
        .map(|&e| (e, world.get::<Hp>(e).unwrap().0))
        .collect();
    assert_eq!(seen.lock().unwrap()[1], expected);
}

#[test]
fn changed_yields_only_the_dirty_entities_that_have_every_named_component() {
    {
        let mut world = World::new();
        let seen: Arc<Mutex<Vec<Entity>>> = Arc::default();
        let out = Arc::clone(&seen);
        world.add_system(
            SystemDesc::new("armor_of_hurt")
                .requires::<Hp>()
                .watches::<Hp>(),
            move |world: &mut World, entities: &SystemEntities<'_>| {
                let mut armored = Vec::new();
                entities
                    .changed::<(&Hp, &Armor)>(world)
                    .for_each(|e, _| armored.push(e));
                *out.lock().unwrap() = armored;
            },
        );
        let plain = world.spawn((Hp(1),));
        let armored = world.spawn((Hp(1), Armor(5)));
        let idle = world.spawn((Hp(1), Armor(6)));
        world.update();
        assert_eq!(*seen.lock().unwrap(), [armored, idle], "all new");
        for e in [plain, armored] {
            world.get_mut::<Hp>(e).unwrap().0 = 0;
        }
        world.update();
        assert_eq!(*seen.lock().unwrap(), [armored]);
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Pos(i32);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Vel(i32);

/// A resource each test system fills with what it saw.
#[derive(Debug, Default, PartialEq)]
struct Log(Vec<Entity>);

#[test]
fn two_columns_written_through_one_query_reach_their_watchers() {
    let mut world = World::new();
    world.insert_resource(Log::default());
    world.add_system(
        SystemDesc::new("movement").requires::<Vel>().every_update(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut movers = entities.query::<(&mut Pos, &mut Vel)>(world);
            while let Some((_, (mut pos, mut vel))) = movers.next() {
                if vel.0 != 0 {
                    pos.0 += vel.0;
                    vel.0 -= vel.0.signum();
                }
            }
        },
    );
    world.add_system(
        SystemDesc::new("watcher")
            .priority(1)
            .requires::<Pos>()
            .watches::<Vel>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut changed = Vec::new();
            entities
                .changed::<()>(world)
                .for_each(|e, ()| changed.push(e));
            world.resource_mut::<Log>().0 = changed;
        },
    );
    let moving = world.spawn((Pos(0), Vel(2)));
    let still = world.spawn((Pos(5), Vel(0)));
    world.update();
    assert_eq!(world.resource::<Log>().0, [moving, still], "both new");
    world.update();
    assert_eq!(world.get::<Pos>(moving), Some(&Pos(3)));
    assert_eq!(world.get::<Vel>(moving), Some(&Vel(0)));
    assert_eq!(world.resource::<Log>().0, [moving], "only the written one");
    assert_eq!(world.get::<Pos>(still), Some(&Pos(5)));
}

/// What a run read through `added` and through `changed`.
type AddedAndChanged = (Vec<Entity>, Vec<Entity>);

#[test]
fn added_holds_the_newly_tracked_and_changed_holds_them_too() {
    let mut world = World::new();
    let seen: Arc<Mutex<Vec<AddedAndChanged>>> = Arc::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("hp").requires::<Hp>().watches::<Hp>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            let (mut added, mut changed) = (Vec::new(), Vec::new());
            entities.added::<&Hp>(world).for_each(|e, _| added.push(e));
            entities
                .changed::<&Hp>(world)
                .for_each(|e, _| changed.push(e));
            out.lock().unwrap().push((added, changed));
        },
    );
    let a = world.spawn((Hp(1),));
    world.update();
    world.get_mut::<Hp>(a).unwrap().0 = 2;
    let b = world.spawn((Hp(1),));
    world.update();
    // Removed and inserted again: tracked anew.
    world.remove::<Hp>(a);
    world.insert(a, Hp(3)).unwrap();
    world.update();
    // Spawned and despawned between two runs: never delivered.
    let gone = world.spawn((Hp(9),));
    world.despawn(gone);
    world.get_mut::<Hp>(b).unwrap().0 = 5;
    world.update();
    assert_eq!(
        *seen.lock().unwrap(),
        [
            (vec![a], vec![a]),
            (vec![b], vec![a, b]),
            (vec![a], vec![a]),
            (vec![], vec![b]),
        ]
    );
}

#[test]
fn added_reaches_a_system_that_watches_nothing_and_wakes_it() {
    let mut world = World::new();
    world.insert_resource(Log::default());
    let id = world.add_system(
        SystemDesc::new("greeter").requires::<Hp>().on_changes(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut added = Vec::new();
            entities.added::<()>(world).for_each(|e, ()| added.push(e));
            world.resource_mut::<Log>().0.extend(added);
        },
    );
    let a = world.spawn((Hp(1),));
    world.update();
    world.update();
    let b = world.spawn((Hp(1),));
    world.update();
    assert_eq!(world.resource::<Log>().0, [a, b]);
    assert_eq!(
        world.system_info(id).runs,
        2,
        "not run when nothing was added"
    );
}

#[test]
fn column_changed_tells_which_watched_type_changed() {
    let mut world = World::new();
    let seen: Arc<Mutex<Vec<(bool, bool)>>> = Arc::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("s").watches::<Pos>().watches::<Vel>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            let flags = (
                entities.column_changed::<Pos>(world),
                entities.column_changed::<Vel>(world),
            );
            out.lock().unwrap().push(flags);
        },
    );
    let e = world.spawn((Pos(0), Vel(0)));
    world.update();
    world.get_mut::<Vel>(e).unwrap().0 = 1;
    world.update();
    world.remove::<Pos>(e);
    world.update();
    world.set_change_tracking(false);
    world.update();
    assert_eq!(
        *seen.lock().unwrap(),
        [(false, false), (false, true), (true, false), (true, true)],
        "spawning is adding, not a column change; tracking off: every column"
    );
}

#[test]
fn get_reaches_any_entity_that_has_the_components() {
    let mut world = World::new();
    let target = world.spawn((Hp(1),));
    let bare = world.spawn(());
    world.insert_resource(Log(vec![target, bare]));
    world.add_system(
        SystemDesc::new("s").requires::<Armor>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let [target, bare] = world.resource::<Log>().0[..] else {
                panic!("two entities");
            };
            let mut query = entities.query::<&mut Hp>(world);
            assert!(query.get(bare).is_none());
            query.get(target).expect("has Hp").0 += 10;
            assert!(query.next().is_none(), "no tracked entity");
        },
    );
    world.update();
    assert_eq!(world.get::<Hp>(target), Some(&Hp(11)));
}

#[test]
fn a_type_never_registered_matches_nothing_and_is_none_in_an_option() {
    let mut world = World::new();
    world.insert_resource(Log::default());
    world.add_system(
        SystemDesc::new("s").requires::<Hp>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            assert!(entities.query::<(&Hp, &Pos)>(world).next().is_none());
            let mut query = entities.query::<(&Hp, Option<&mut Pos>)>(world);
            let mut seen = Vec::new();
            while let Some((e, (_, pos))) = query.next() {
                assert!(pos.is_none());
                seen.push(e);
            }
            world.resource_mut::<Log>().0 = seen;
        },
    );
    let e = world.spawn((Hp(1),));
    world.update();
    assert_eq!(world.resource::<Log>().0, [e]);
}

#[test]
fn a_type_never_registered_before_another_term_leaves_that_term_its_column() {
    let mut world = World::new();
    world.insert_resource(Log::default());
    world.add_system(
        SystemDesc::new("s").requires::<Hp>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut query = entities.query::<(Option<&Pos>, &Hp)>(world);
            let mut seen = Vec::new();
            while let Some((e, (pos, _))) = query.next() {
                assert!(pos.is_none());
                seen.push(e);
            }
            world.resource_mut::<Log>().0 = seen;
        },
    );
    let e = world.spawn((Hp(1),));
    world.update();
    assert_eq!(world.resource::<Log>().0, [e]);
}

#[test]
#[should_panic(expected = "query::Hp` twice")]
fn a_query_naming_a_type_twice_panics() {
    let mut world = World::new();
    world.add_system(
        SystemDesc::new("s").requires::<Hp>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            entities.query::<(&Hp, &mut Hp)>(world);
        },
    );
    world.spawn((Hp(1),));
    world.update();
}

/// Each entity with its written `Vel` and its `Hp`, when it had both.
type Both = Vec<(Entity, Option<(i32, u32)>)>;

#[test]
fn an_optional_tuple_is_there_only_when_all_of_it_is() {
    let mut world = World::new();
    let seen: Arc<Mutex<Both>> = Arc::default();
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("s").requires::<Pos>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            let mut query = entities.query::<(&Pos, Option<(&mut Vel, &Hp)>)>(world);
            while let Some((e, (_, both))) = query.next() {
                let both = both.map(|(mut vel, hp)| {
                    vel.0 += 1;
                    (vel.0, hp.0)
                });
                out.lock().unwrap().push((e, both));
            }
        },
    );
    let full = world.spawn((Pos(0), Vel(1), Hp(7)));
    let half = world.spawn((Pos(0), Vel(1)));
    world.update();
    assert_eq!(*seen.lock().unwrap(), [(full, Some((2, 7))), (half, None)]);
    assert_eq!(world.get::<Vel>(half), Some(&Vel(1)), "not written");
}

#[test]
fn len_counts_the_entities_left_including_those_without_the_components() {
    let mut world = World::new();
    world.spawn(());
    world.spawn((Hp(5),));
    world.add_system(
        SystemDesc::new("s"),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let mut query = entities.query::<&Hp>(world);
            assert_eq!(query.len(), 2);
            assert!(query.next().is_some());
            assert!(query.is_empty(), "the entity without an Hp was passed over");
        },
    );
    world.update();
    assert_eq!(world.systems().next().unwrap().runs, 1);
}

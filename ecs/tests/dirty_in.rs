//! `SystemEntities::dirty_in`: the dirty entities that have a component, with it, in slot order, and still exact after the system changed the column during its run.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::Mutex;

use ecs::{Entity, SystemDesc, SystemEntities, World};

#[derive(Clone, Copy, Debug, PartialEq)]
struct Hp(u32);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Armor(u32);

type Seen = Arc<Mutex<Vec<BTreeMap<Entity, u32>>>>;

/// What `dirty_in` over `Hp`'s column handed out, as a map (it must not repeat an entity).
fn read_hp(world: &World, entities: &SystemEntities<'_>) -> BTreeMap<Entity, u32> {
    let pairs: Vec<(Entity, u32)> = entities
        .dirty_in(world.column::<Hp>())
        .map(|(e, hp)| (e, hp.0))
        .collect();
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
fn dirty_in_another_column_yields_the_dirty_entities_that_have_one() {
    {
        let mut world = World::new();
        let seen: Arc<Mutex<Vec<Entity>>> = Arc::default();
        let out = Arc::clone(&seen);
        world.add_system(
            SystemDesc::new("armor_of_hurt")
                .requires::<Hp>()
                .watches::<Hp>(),
            move |world: &mut World, entities: &SystemEntities<'_>| {
                *out.lock().unwrap() = entities
                    .dirty_in(world.column::<Armor>())
                    .map(|(e, _)| e)
                    .collect();
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

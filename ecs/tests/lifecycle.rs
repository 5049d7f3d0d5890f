//! Despawn and clear (README's "What a system may do while it runs"), including the seed's
//! "walls lacking collision boxes" bug.

use crate::common;

use std::sync::Arc;
use std::sync::Mutex;

use common::{Pos, Vel, last_dirty, last_tracked, probe, set};
use ecs::{Entity, System, SystemDesc, SystemEntities, World};

#[test]
fn despawn_during_update_takes_effect_at_the_end_of_it() {
    let mut world = World::new();
    let e = world.spawn((Pos(7),));
    world.add_system(
        SystemDesc::new("killer").priority(0),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if world.is_alive(e) {
                assert!(world.despawn(e));
            }
        },
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&seen);
    world.add_system(
        SystemDesc::new("later").priority(10).requires::<Pos>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            for &t in entities.tracked() {
                out.lock().unwrap().push(world.get::<Pos>(t).copied());
            }
        },
    );
    world.update();
    assert_eq!(
        *seen.lock().unwrap(),
        [Some(Pos(7))],
        "still there for later systems"
    );
    assert!(!world.is_alive(e), "gone once the update ended");
    assert_eq!(world.get::<Pos>(e), None);
    world.update();
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn despawned_entity_leaves_every_tracked_and_dirty_set() {
    let mut world = World::new();
    let (_, a_runs) = probe(
        &mut world,
        SystemDesc::new("active").requires::<Pos>().watches::<Pos>(),
    );
    let (idle, i_runs) = probe(
        &mut world,
        SystemDesc::new("idle").requires::<Pos>().watches::<Pos>(),
    );
    let (_, all_runs) = probe(&mut world, SystemDesc::new("all"));
    let e = world.spawn((Pos(0),));
    let keep = world.spawn((Pos(0),));
    world.set_enabled(idle, false);
    world.update();
    world.get_mut::<Pos>(e).expect("has Pos").0 = 1;
    world.despawn(e);
    world.update();
    assert!(last_dirty(&a_runs).is_empty());
    assert_eq!(last_tracked(&all_runs), set([keep]));
    world.set_enabled(idle, true);
    world.update();
    assert_eq!(last_dirty(&i_runs), set([keep]));
    assert_eq!(last_tracked(&i_runs), set([keep]));
}

#[test]
fn entity_despawned_by_a_system_leaves_sets_at_the_end_of_the_update() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    let (_, runs) = probe(
        &mut world,
        SystemDesc::new("watcher")
            .priority(0)
            .requires::<Pos>()
            .watches::<Pos>(),
    );
    world.add_system(
        SystemDesc::new("killer").priority(10),
        move |world: &mut World, _: &SystemEntities<'_>| {
            if let Some(mut pos) = world.get_mut::<Pos>(e) {
                pos.0 += 1; // a change the watcher would see next frame...
                world.despawn(e); // ...but e is gone by then
            }
        },
    );
    world.update();
    assert_eq!(last_dirty(&runs), set([e]));
    world.update();
    assert!(last_tracked(&runs).is_empty());
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn change_pending_on_despawned_entity_never_reaches_slot_successor() {
    let mut world = World::new();
    let (_, runs) = probe(
        &mut world,
        SystemDesc::new("p").requires::<Pos>().watches::<Vel>(),
    );
    let old = world.spawn((Pos(0), Vel(0)));
    let quiet = world.spawn((Pos(0),));
    world.update();
    world.remove::<Vel>(old); // a change recorded against `old`
    world.despawn(old);
    let new = world.spawn((Vel(0),)); // reuses old's slot, not tracked
    assert_eq!(new.index(), old.index());
    world.update();
    assert!(last_dirty(&runs).is_empty(), "neither old nor new is dirty");
    assert_eq!(last_tracked(&runs), set([quiet]));
}

#[test]
fn clear_removes_every_entity_and_component() {
    let mut world = World::new();
    let (_, runs) = probe(
        &mut world,
        SystemDesc::new("p").requires::<Pos>().watches::<Pos>(),
    );
    let a = world.spawn((Pos(0), Vel(0)));
    let b = world.spawn(());
    world.get_mut::<Pos>(a).expect("has Pos").0 = 3;
    world.clear();
    assert!(world.is_empty());
    assert!(!world.is_alive(a) && !world.is_alive(b));
    assert!(world.column::<Pos>().is_empty());
    assert!(world.column::<Vel>().is_empty());
    world.update();
    assert!(last_tracked(&runs).is_empty());
    assert!(last_dirty(&runs).is_empty());
}

#[test]
fn clear_from_a_system_happens_at_the_end_of_the_update() {
    let mut world = World::new();
    let e = world.spawn((Pos(0),));
    world.add_system(
        SystemDesc::new("reset").priority(0),
        |world: &mut World, _: &SystemEntities<'_>| world.clear(),
    );
    let (_, runs) = probe(
        &mut world,
        SystemDesc::new("later").priority(1).requires::<Pos>(),
    );
    world.update();
    assert_eq!(last_tracked(&runs), set([e]), "later systems still saw e");
    assert!(world.is_empty());
}

#[derive(Debug, PartialEq)]
struct Wall;
#[derive(Debug, PartialEq)]
struct CollisionBox {
    w: i32,
}
#[derive(Debug, PartialEq)]
struct Crate;

/// Builds the level: walls with collision boxes, rebuilt whenever the world is cleared.
struct LevelBuilder {
    walls: Arc<Mutex<Vec<Entity>>>,
}

impl System for LevelBuilder {
    fn update(&mut self, _: &mut World, _: &SystemEntities<'_>) {}

    fn on_clear(&mut self, world: &mut World) {
        let mut walls = self.walls.lock().unwrap();
        walls.clear();
        for x in 0..4 {
            walls.push(world.spawn((Wall, Pos(x), CollisionBox { w: 16 })));
        }
        // A crate without a collision box, spawned into slots the old walls used.
        walls.push(world.spawn((Crate, Pos(99))));
    }
}

#[test]
fn walls_keep_collision_after_clear_and_refill() {
    let mut world = World::new();
    let walls = Arc::new(Mutex::new(Vec::new()));
    world.add_system(
        SystemDesc::new("level"),
        LevelBuilder {
            walls: Arc::clone(&walls),
        },
    );
    let (_, collision) = probe(
        &mut world,
        SystemDesc::new("collision")
            .requires::<Pos>()
            .requires::<CollisionBox>()
            .watches::<Pos>(),
    );
    // The first level: some walls, some crates, one wall that lost its box.
    let old_walls: Vec<Entity> = (0..6)
        .map(|x| world.spawn((Wall, Pos(x), CollisionBox { w: 8 })))
        .collect();
    let old_crate = world.spawn((Crate, Vel(1)));
    world.remove::<CollisionBox>(old_walls[0]);
    world.update();

    world.clear(); // LevelBuilder::on_clear refills the world
    let new: Vec<Entity> = walls.lock().unwrap().clone();
    assert_eq!(new.len(), 5);

    for &old in old_walls.iter().chain([&old_crate]) {
        assert!(!world.is_alive(old));
        assert!(world.get::<Pos>(old).is_none());
        assert!(world.get::<CollisionBox>(old).is_none());
        assert!(world.get::<Wall>(old).is_none());
        assert!(world.get::<Vel>(old).is_none());
        assert!(!new.contains(&old), "no new handle equals an old one");
    }
    for (x, &wall) in new[..4].iter().enumerate() {
        assert_eq!(world.get::<Pos>(wall), Some(&Pos(x as i32)));
        assert_eq!(
            world.get::<CollisionBox>(wall),
            Some(&CollisionBox { w: 16 }),
            "every new wall has its own collision box"
        );
        assert!(world.has::<Wall>(wall));
        assert!(!world.has::<Vel>(wall) && !world.has::<Crate>(wall));
    }
    let new_crate = new[4];
    assert!(world.has::<Crate>(new_crate));
    assert_eq!(world.get::<Pos>(new_crate), Some(&Pos(99)));
    assert!(
        !world.has::<CollisionBox>(new_crate),
        "no old wall's box leaked in"
    );
    assert!(!world.has::<Wall>(new_crate) && !world.has::<Vel>(new_crate));
    assert_eq!(world.len(), 5);

    world.update();
    let new_walls: std::collections::BTreeSet<Entity> = new[..4].iter().copied().collect();
    assert_eq!(last_tracked(&collision), new_walls);
    assert_eq!(
        last_dirty(&collision),
        new_walls,
        "all new to the collision system"
    );
}

#[test]
fn entities_spawned_after_clear_do_not_collide_with_old_components() {
    let mut world = World::new();
    let old: Vec<Entity> = (0..10).map(|i| world.spawn((Pos(i), Vel(i)))).collect();
    world.clear();
    let fresh: Vec<Entity> = (0..20).map(|_| world.spawn(())).collect();
    for &e in &fresh {
        assert!(!world.has::<Pos>(e) && !world.has::<Vel>(e));
        assert!(!old.contains(&e));
    }
    for &e in &old {
        assert!(world.insert(e, Pos(0)).is_err());
    }
}

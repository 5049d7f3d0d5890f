//! Bit sets over slots start at the lowest slot they hold: a system (or a column's change bits)
//! that only ever sees entities spawned late, past many others, holds no words for the slots
//! before them, and still delivers in slot order when lower slots join it later.

use std::sync::{Arc, Mutex};

use ecs::{Entity, SystemDesc, SystemEntities, World};

struct Value(u32);
struct Tag;

const EARLY: u32 = 100_000;

/// Each run's `dirty()`.
type Runs = Arc<Mutex<Vec<Vec<Entity>>>>;

/// A world of `EARLY` untagged entities and one tagged one past them, with a system that
/// requires `Tag` and watches `Value`, recording each run's `dirty()`.
fn world() -> (World, Vec<Entity>, Entity, Runs) {
    let mut world = World::new();
    let runs = Runs::default();
    let out = Arc::clone(&runs);
    world.add_system(
        SystemDesc::new("late").requires::<Tag>().watches::<Value>(),
        move |_: &mut World, e: &SystemEntities<'_>| out.lock().unwrap().push(e.dirty().to_vec()),
    );
    let early = world.spawn_batch((0..EARLY).map(|i| (Value(i),)));
    let late = world.spawn((Value(EARLY), Tag));
    world.update();
    (world, early, late, runs)
}

#[test]
fn dirty_bits_and_change_bits_of_late_slots_hold_no_words_for_the_slots_before_them() {
    let (mut world, _, late, runs) = world();
    world.get_mut::<Value>(late).unwrap().0 += 1;
    world.update();
    assert_eq!(*runs.lock().unwrap(), [vec![late], vec![late]]);
    let memory = ecs::diagnostics::memory_use(&world);
    let early_bits = EARLY as usize / 8; // a bit per early slot
    let (_, system) = memory.systems[0];
    assert!(system < early_bits / 4, "system sets: {system} bytes");
    let (_, changes) = memory.change_bits[0];
    assert!(changes < early_bits / 4, "change bits: {changes} bytes");
}

#[test]
fn lower_slots_joining_late_bits_are_delivered_in_slot_order() {
    let (mut world, early, late, runs) = world();
    for &e in [early[70_000], early[3], early[99_999], early[40_000]].iter() {
        world.insert(e, Tag).unwrap();
    }
    world.update();
    for &e in [late, early[3], early[99_999]].iter() {
        world.get_mut::<Value>(e).unwrap().0 += 1;
    }
    world.update();
    let runs = runs.lock().unwrap();
    let joined = vec![early[3], early[40_000], early[70_000], early[99_999]];
    assert_eq!(runs[1], joined, "newly tracked, in slot order");
    assert_eq!(runs[2], [early[3], early[99_999], late]);
}

//! The replay checkpoint hash: the sum the `checkpoint` system keeps as entities change equals
//! the same hash recomputed from scratch over the whole world at every step of bot runs
//! (through crates breaking, coins picked up, debris expiring and kegs going off, and across
//! the steps where the sum is folded); with dirty tracking off the sequence is the same; one
//! crate's health changes it; an entity that changes in every step is hashed once per fold,
//! and a checkpoint step leaves nothing to hash when the hash is read; the first fold agrees
//! with the hash from scratch whether columns are in slot order or not.

use crate::common;

use std::sync::Arc;
use std::sync::Mutex;

use common::sim_from_file;
use ecs::{SystemDesc, SystemEntities, World};
use game::sim::components::{Crate, Exploding, Keg, Position};
use game::sim::state_hash::{
    CHECKPOINT_EVERY, CheckpointSum, checkpoint_hash, checkpoint_hash_from_scratch,
};
use game::sim::{Input, Sim};

/// What a bot run showed: the checkpoint hash after every step, and whether kegs went off.
struct Run {
    hashes: Vec<u64>,
    crates_smashed: u32,
    kegs_exploded: bool,
}

/// Play `steps` of the bot on `level`, checking at every step, at the end of the update (where
/// the `checkpoint` system has just run and the step's despawns are not applied yet), that the
/// kept hash equals the one from scratch.
fn bot_run(level: &str, steps: u64, dirty: bool) -> Run {
    let mut sim = sim_from_file(level, 4);
    sim.set_dirty_optimization(dirty);
    sim.set_bot(true);
    let seen: Arc<Mutex<Option<(u64, u64)>>> = Arc::default();
    let probe = Arc::clone(&seen);
    sim.world_mut().add_system(
        SystemDesc::new("probe").priority(i32::MAX),
        move |world: &mut World, _: &SystemEntities<'_>| {
            *probe.lock().unwrap() =
                Some((checkpoint_hash(world), checkpoint_hash_from_scratch(world)));
        },
    );
    let mut run = Run {
        hashes: Vec::new(),
        crates_smashed: 0,
        kegs_exploded: false,
    };
    for step in 1..=steps {
        sim.step(Input::default());
        let (kept, scratch) = seen.lock().unwrap().take().expect("the probe ran");
        assert_eq!(
            kept, scratch,
            "{level}, dirty tracking {dirty}: step {step}'s kept checkpoint hash differs from the one from scratch"
        );
        assert_eq!(sim.checkpoint_hash(), kept, "{level} step {step}");
        run.kegs_exploded |= sim
            .world()
            .column::<Exploding>()
            .entities()
            .iter()
            .any(|&e| sim.world().has::<Keg>(e));
        run.hashes.push(kept);
    }
    let state = sim.state();
    run.crates_smashed = state.crates_total - state.crates_left;
    run
}

fn kept_equals_scratch_on_and_off(level: &str, steps: u64) -> Run {
    let on = bot_run(level, steps, true);
    let off = bot_run(level, steps, false);
    assert!(
        on.hashes == off.hashes,
        "{level}: the checkpoint hashes differ with dirty tracking off, first at step {}",
        on.hashes
            .iter()
            .zip(&off.hashes)
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1)
    );
    on
}

#[test]
fn bot_run_in_crate_room_keeps_the_checkpoint_hash_equal_to_the_one_from_scratch_on_and_off() {
    let run = kept_equals_scratch_on_and_off("crate_room.ron", 2_400);
    assert!(run.crates_smashed >= 3, "{} smashed", run.crates_smashed);
}

#[test]
fn bot_run_in_powder_room_keeps_the_checkpoint_hash_equal_to_the_one_from_scratch_on_and_off() {
    let run = kept_equals_scratch_on_and_off("powder_room.ron", 2_400);
    assert!(
        run.kegs_exploded,
        "no keg went off: the run did not test blasts"
    );
    assert!(run.crates_smashed >= 3, "{} smashed", run.crates_smashed);
}

/// The crate with the most health, so one hit less is still a crate.
fn strongest_crate(sim: &Sim) -> ecs::Entity {
    let crates = sim.world().column::<Crate>();
    let (&e, _) = crates
        .entities()
        .iter()
        .zip(crates.values())
        .max_by_key(|(_, c)| c.health)
        .expect("the level has crates");
    e
}

fn set_health(sim: &mut Sim, e: ecs::Entity, health: u32) {
    sim.world_mut()
        .get_mut::<Crate>(e)
        .expect("the crate is there")
        .health = health;
}

#[test]
fn one_crates_health_changes_the_checkpoint_hash_and_putting_it_back_restores_it() {
    let mut a = sim_from_file("crate_room.ron", 2);
    let mut b = sim_from_file("crate_room.ron", 2);
    for _ in 0..5 {
        a.step(Input::default());
        b.step(Input::default());
    }
    assert_eq!(a.checkpoint_hash(), b.checkpoint_hash());
    let e = strongest_crate(&b);
    let health = b.world().get::<Crate>(e).expect("a crate").health;
    set_health(&mut b, e, health + 1);
    a.step(Input::default());
    b.step(Input::default());
    assert_ne!(
        a.checkpoint_hash(),
        b.checkpoint_hash(),
        "one crate's health differs"
    );
    set_health(&mut b, e, health);
    a.step(Input::default());
    b.step(Input::default());
    assert_eq!(a.checkpoint_hash(), b.checkpoint_hash());
    assert_eq!(a.state_hash(), b.state_hash());
}

fn listed(sim: &Sim) -> usize {
    sim.world().resource::<CheckpointSum>().listed()
}

#[test]
fn an_entity_changing_in_every_step_is_listed_once_until_the_next_fold() {
    let mut sim = sim_from_file("crate_room.ron", 2);
    sim.step(Input::default());
    assert_eq!(listed(&sim), 0, "the first step hashes every entity");
    sim.step(Input::default());
    // Idle, the same few entities (the breathing player, what animates) change in every step.
    let changing = listed(&sim);
    assert!(changing > 0);
    for step in 3..CHECKPOINT_EVERY {
        sim.step(Input::default());
        assert_eq!(listed(&sim), changing, "step {step}: each listed once");
    }
    sim.step(Input::default());
    assert_eq!(listed(&sim), 0, "step {CHECKPOINT_EVERY} folds them");
}

#[test]
fn a_checkpoint_step_leaves_nothing_to_hash_when_the_hash_is_read() {
    let mut sim = sim_from_file("crate_room.ron", 2);
    sim.set_bot(true);
    for step in 1..=2 * CHECKPOINT_EVERY {
        sim.step(Input::default());
        if step % CHECKPOINT_EVERY == 0 {
            assert_eq!(listed(&sim), 0, "step {step}");
        } else if step > 1 {
            assert!(
                listed(&sim) > 0,
                "step {step}: the bot moves, something is pending"
            );
        }
    }
    assert_eq!(
        sim.checkpoint_hash(),
        checkpoint_hash_from_scratch(sim.world())
    );
}

#[test]
fn a_first_fold_over_columns_in_and_out_of_slot_order_equals_the_hash_from_scratch() {
    // Enough crates for the first fold to hash the big columns in two halves of the slots.
    let atlas = common::atlas();
    let text = game::level::generate_dense(30_000, 0, 1).expect("a dense level");
    let level = game::level::parse(
        std::path::Path::new("dense.ron"),
        &text,
        &atlas.crate_skins(),
    )
    .expect("a generated level parses");
    let new_sim = || Sim::new(&level, &atlas, 1).expect("the repository atlas has every clip");
    // In slot order: each half's components on its own thread.
    let mut sim = new_sim();
    sim.step(Input::default());
    assert_eq!(
        sim.checkpoint_hash(),
        checkpoint_hash_from_scratch(sim.world())
    );
    let mut sim = new_sim();
    let world = sim.world_mut();
    let first = world.column::<Crate>().entities()[0];
    let health = world.get::<Crate>(first).expect("a crate").health;
    assert!(world.despawn(first));
    // The freed slot's new entity goes to the end of the columns, among the upper half's.
    let again = world.spawn((
        Position { x: 40.0, y: 56.0 },
        Crate {
            health: health + 1,
            max_health: health + 1,
            coin: true,
        },
    ));
    let ascending = |slots: &[ecs::Entity]| slots.windows(2).all(|w| w[0].index() < w[1].index());
    assert!(
        !ascending(world.column::<Position>().entities()),
        "slot {} was not reused",
        again.index()
    );
    sim.step(Input::default());
    assert_eq!(
        sim.checkpoint_hash(),
        checkpoint_hash_from_scratch(sim.world())
    );
}

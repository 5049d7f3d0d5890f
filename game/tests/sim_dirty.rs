//! The dirty optimization changes cost, never results; and idle crates cost nothing.

mod common;

use common::sim_from_file;
use game::sim::Input;
use game::sim::components::Animating;

fn system(sim: &game::sim::Sim, name: &str) -> ecs::SystemInfo {
    sim.world()
        .systems()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no system {name}"))
}

#[test]
fn idle_cratetopia_gives_collision_and_animation_state_no_dirty_entities_after_the_first_step() {
    let mut sim = sim_from_file("cratetopia.ron", 1);
    assert!(sim.state().crates_total >= 2000);
    sim.step(Input::default());
    assert!(
        system(&sim, "animation_state").last_dirty >= 2000,
        "first step sees everything"
    );
    for _ in 0..120 {
        sim.step(Input::default());
        for name in ["collision", "animation_state", "spatial_hash"] {
            assert_eq!(
                system(&sim, name).last_dirty,
                0,
                "{name} at step {}",
                sim.state().step
            );
        }
        // Only animating things (the player breathing, coins spinning) change frames.
        let animating = sim.world().column::<Animating>().len();
        assert!(animating < 50);
        assert!(system(&sim, "draw_data").last_dirty <= animating);
    }
}

fn run_bot(level: &str, steps: u32, dirty: bool, seed: u64) -> (u64, game::sim::GameState) {
    let mut sim = sim_from_file(level, seed);
    sim.set_dirty_optimization(dirty);
    sim.set_bot(true);
    for _ in 0..steps {
        sim.step(Input::default());
    }
    (sim.state_hash(), sim.state())
}

#[test]
fn bot_run_through_cratetopia_gives_the_same_state_with_dirty_optimization_on_and_off() {
    let (on, state_on) = run_bot("cratetopia.ron", 1200, true, 3);
    let (off, state_off) = run_bot("cratetopia.ron", 1200, false, 3);
    assert!(
        state_on.crates_left < state_on.crates_total,
        "the bot smashed something"
    );
    assert_eq!(state_on, state_off);
    assert_eq!(on, off);
}

#[test]
fn bot_run_through_crate_room_is_identical_with_dirty_optimization_off_at_every_step() {
    let mut a = sim_from_file("crate_room.ron", 5);
    let mut b = sim_from_file("crate_room.ron", 5);
    b.set_dirty_optimization(false);
    a.set_bot(true);
    b.set_bot(true);
    for step in 0..900 {
        a.step(Input::default());
        b.step(Input::default());
        assert_eq!(a.state_hash(), b.state_hash(), "diverged at step {step}");
    }
}

#[test]
fn same_seed_same_game_different_seed_different_debris() {
    assert_eq!(
        run_bot("crate_room.ron", 600, true, 9).0,
        run_bot("crate_room.ron", 600, true, 9).0
    );
    assert_ne!(
        run_bot("crate_room.ron", 600, true, 9).0,
        run_bot("crate_room.ron", 600, true, 10).0
    );
}

#[test]
fn bot_smashes_most_of_the_crate_room_in_a_minute() {
    let (_, state) = run_bot("crate_room.ron", 3600, true, 1);
    let smashed = state.crates_total - state.crates_left;
    assert!(
        smashed * 2 >= state.crates_total,
        "smashed {smashed} of {}",
        state.crates_total
    );
}

//! The dirty optimization changes cost, never results; and idle crates cost nothing.

use crate::common;

use common::{clip_name, sim_from_file, sim_from_rows_and};
use game::sim::Input;
use game::sim::components::{Crate, FrameTimer, Fuse, Keg};
use game::sim::resources::DrawDirtyLog;

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
        system(&sim, "choose_clip").last_dirty >= 2000,
        "first step sees everything"
    );
    for _ in 0..120 {
        sim.step(Input::default());
        for name in ["collision", "choose_clip", "collision_grid"] {
            assert_eq!(
                system(&sim, name).last_dirty,
                0,
                "{name} at step {}",
                sim.state().step
            );
        }
        // Only animating things (the player breathing, coins spinning) change frames.
        let animating = sim.world().column::<FrameTimer>().len();
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

#[test]
fn crack_stages_are_identical_with_dirty_optimization_off_at_every_step() {
    // A 9-hit crate smashed to pieces: every crack stage, its hit flashes and the explosion.
    let level = |dirty| {
        let mut sim = sim_from_rows_and(
            &["######", "#@x..#", "######"],
            "    legend: { 'x': Crate(health: 9, skin: \"crate_strong\") },",
        );
        sim.set_dirty_optimization(dirty);
        sim
    };
    let (mut on, mut off) = (level(true), level(false));
    let target = on.world().column::<Crate>().entities()[0];
    let mut seen = Vec::new();
    for step in 0..400 {
        let input = Input {
            move_x: i8::from(step == 0),
            move_y: 0,
            attack: step > 0,
        };
        on.step(input);
        off.step(input);
        assert_eq!(on.state_hash(), off.state_hash(), "diverged at step {step}");
        if on.world().is_alive(target) {
            let clip = clip_name(&off, target);
            assert_eq!(clip_name(&on, target), clip);
            if seen.last() != Some(&clip) {
                seen.push(clip);
            }
        }
    }
    for stage in 1..=3 {
        let idle = format!("crate_strong_idle_cracks{stage}");
        assert!(seen.contains(&idle), "{idle} never showed: {seen:?}");
    }
    assert!(!on.world().is_alive(target), "the crate broke");
}

#[test]
fn a_health_change_alone_updates_the_crack_stage_with_tracking_on() {
    // Every hit also starts a flash, which would redraw the crate anyway; this checks that
    // `choose_clip` watches `Crate` itself, so health is never shown stale.
    let mut sim = sim_from_rows_and(
        &["#####", "#@x.#", "#####"],
        "    legend: { 'x': Crate(health: 6) },",
    );
    let target = sim.world().column::<Crate>().entities()[0];
    sim.step(Input::default());
    assert_eq!(clip_name(&sim, target), "crate_idle");
    if let Some(mut c) = sim.world_mut().get_mut::<Crate>(target) {
        c.health = 2;
    }
    sim.step(Input::default());
    assert_eq!(clip_name(&sim, target), "crate_idle_cracks2");
}

#[test]
fn a_chain_of_kegs_gives_the_same_state_with_tracking_on_and_off_at_every_step() {
    // A field of kegs with crates of both kinds and coin crates mixed in, and the player close
    // enough to be thrown; the player's swing lights the first keg.
    let rows = [
        "##############",
        "#@kkkkkkkkkkk#",
        "#kkCkkk$kkkkk#",
        "#kkkkckkkkCkk#",
        "#k.kkkkkk.kkk#",
        "#kkkk$kkkkkkk#",
        "#kkCkkkkkkckk#",
        "##############",
    ];
    let mut on = sim_from_rows_and(&rows, "");
    let mut off = sim_from_rows_and(&rows, "");
    off.set_dirty_optimization(false);
    let right = Input {
        move_x: 1,
        ..Input::default()
    };
    let attack = Input {
        attack: true,
        ..Input::default()
    };
    let kegs = on.world().column::<Keg>().len();
    let mut most_burning = 0;
    for step in 0..400 {
        let input = match step {
            0 => right,
            1 => attack,
            _ => Input::default(),
        };
        on.step(input);
        off.step(input);
        most_burning = most_burning.max(on.world().column::<Fuse>().len());
        assert_eq!(on.state_hash(), off.state_hash(), "diverged at step {step}");
    }
    assert!(most_burning > 10, "a wave, not one keg at a time");
    assert_eq!(
        on.world().column::<Keg>().len(),
        0,
        "all {kegs} kegs went off"
    );
    assert_eq!(on.state(), off.state());
}

#[test]
fn the_draw_data_log_notes_a_step_that_recomputed_every_sprite_without_listing_them() {
    let mut sim = sim_from_file("cratetopia.ron", 1);
    sim.step(Input::default());
    let log = sim.world().resource::<DrawDirtyLog>();
    assert!(log.all, "the first step recomputes every sprite");
    assert!(log.entities.is_empty());
    sim.step(Input::default());
    let log = sim.world().resource::<DrawDirtyLog>();
    assert!(!log.all);
    assert_eq!(log.entities.len(), system(&sim, "draw_data").last_dirty);
}

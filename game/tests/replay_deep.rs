//! Deep verification (`replay --verify --deep`): a run recorded with the dirty optimization
//! off, by a build with a system whose result depends on it, fails `--verify`, and the deep
//! check names that system, the step it first acts in and the component it leaves different,
//! with both states as text; a replay this build repeats either way is said to be another game.

use crate::common;

use common::{TempDir, atlas, repo};
use ecs::{SystemDesc, SystemEntities, World};
use game::replay::deep::{self, DeepOutcome};
use game::replay::{self, Recorder, VerifyOutcome};
use game::sim::Sim;
use game::sim::components::{CameraTarget, Position};

/// The step from which `shove` acts.
const SHOVE_FROM: u64 = 700;

/// A broken system, as a bug would write it: it pushes what it is handed as dirty, but it
/// watches `CameraTarget`, which nothing changes after the level loads. With the dirty
/// optimization on it is handed the player once, in step 1, and does nothing; with it off it
/// is handed every tracked entity every step, so from step `SHOVE_FROM` the player moves.
fn add_shove(sim: &mut Sim) {
    let desc = SystemDesc::new("shove")
        .priority(12)
        .requires::<Position>()
        .requires::<CameraTarget>()
        .watches::<CameraTarget>();
    sim.world_mut()
        .add_system(desc, |world: &mut World, entities: &SystemEntities<'_>| {
            if world.resource::<game::sim::GameState>().step < SHOVE_FROM {
                return;
            }
            let shoved = entities.changed::<&mut Position>(world);
            shoved.for_each(|_, mut p| p.x += 0.5);
        });
}

/// 1,300 steps of the bot on the default level, recorded by a build with `shove`, the dirty
/// optimization off (F7 in the window).
fn record_with_shove() -> replay::Replay {
    let level = repo().join("levels/crate_room.ron");
    let (_, mut sim) = Sim::load(&level, &atlas(), 3).expect("the level loads");
    add_shove(&mut sim);
    sim.set_dirty_optimization(false);
    sim.set_bot(true);
    let mut recorder = Recorder::for_level(&level, 3).expect("the level is readable");
    for _ in 0..1_300 {
        sim.step(game::sim::Input::default());
        recorder.record(&sim);
    }
    recorder.finish(&sim)
}

#[test]
fn the_deep_check_names_the_system_a_run_parts_in() {
    let replay = record_with_shove();
    let levels = repo().join("levels");
    let outcome = replay::verify_with(&replay, &atlas(), Some(&levels), &add_shove).unwrap();
    let VerifyOutcome::Diverged {
        step, last_match, ..
    } = outcome
    else {
        panic!("the run verified: {outcome}");
    };
    assert_eq!((last_match, step), (600, 1200), "{outcome}");

    let found = deep::compare_runs(&replay, &atlas(), Some(&levels), step, &add_shove).unwrap();
    println!("{outcome}\ndeep: {found}");
    let DeepOutcome::Parted(parting) = found else {
        panic!("the runs agree: {found}");
    };
    assert_eq!(parting.step, SHOVE_FROM);
    assert_eq!(parting.system, "shove");
    assert_eq!(parting.parts, ["Position"]);
    // Both states, as text: they differ in the player's position only.
    let [a, b] = &parting.states;
    let changed: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
    assert_eq!(a.lines().count(), b.lines().count());
    println!("the states' only differing line: {changed:?}");
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(
        changed[0].0.starts_with("  Position {") && changed[0].1.starts_with("  Position {"),
        "{changed:?}"
    );

    let dir = TempDir::new("replay-deep");
    let file = std::path::PathBuf::from(dir.path("run.replay"));
    let [on, off] = deep::write_states(&file, &parting).unwrap();
    assert!(on.ends_with("run.replay.dirty-on.txt") && off.ends_with("run.replay.dirty-off.txt"));
    assert_eq!(std::fs::read_to_string(&on).unwrap(), *a);
    assert_eq!(std::fs::read_to_string(&off).unwrap(), *b);
    println!(
        "both states: {} lines, {} bytes each; the first lines:\n{}",
        a.lines().count(),
        a.len(),
        a.lines()
            .take(12)
            .map(|l| &l[..l.len().min(150)])
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_replay_this_build_repeats_both_ways_is_called_another_game() {
    let dir = TempDir::new("replay-deep-cli");
    let file = dir.path("doctored.replay");
    let text = std::fs::read_to_string(repo().join("levels/gold/first_swing.replay")).unwrap();
    let (doctored, step) = doctored(&text);
    std::fs::write(&file, doctored).unwrap();
    let out = common::crate_room(&["replay", &file, "--verify", "--deep"]);
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr(&out);
    assert!(
        err.contains(&format!("diverged by step {step}"))
            && err.contains(&format!("deep: re-simulated steps 1..={step} twice"))
            && err.contains(&format!("agree after every step up to {step}"))
            && err.contains("the recording is another one")
            && err.contains(&format!(
                "deep: pass 1 of 2 (finding the step): {step} of {step} steps"
            )),
        "{err}"
    );

    let usage = common::crate_room(&["replay", &file, "--deep"]);
    assert_eq!(usage.status.code(), Some(2), "{}", common::stderr(&usage));
}

/// A replay whose last checkpoint's hash has its lowest bit flipped: as if another build
/// recorded it. Also the step of that checkpoint.
fn doctored(text: &str) -> (String, String) {
    let (head, tail) = text.rsplit_once("\ncheckpoints\n").unwrap();
    let (last, rest) = tail.rsplit_once("\nend").unwrap();
    let (earlier, last) = last.rsplit_once('\n').map_or(("", last), |(e, l)| (e, l));
    let (step, hash) = last.split_once(' ').unwrap();
    let flipped = u64::from_str_radix(hash, 16).unwrap() ^ 1;
    let earlier = if earlier.is_empty() {
        String::new()
    } else {
        format!("{earlier}\n")
    };
    (
        format!("{head}\ncheckpoints\n{earlier}{step} {flipped:016x}\nend{rest}"),
        step.to_owned(),
    )
}

#[test]
fn a_deep_check_over_its_budget_is_refused_at_once_saying_why() {
    let dir = TempDir::new("replay-deep-budget");
    let level = dir.path("big.ron");
    let made = common::crate_room(&["gen-level", "--crates", "100000", "--out", &level]);
    assert!(made.status.success(), "{}", common::stderr(&made));
    let file = dir.path("big.replay");
    let rec = common::crate_room(&[
        "sim", "--level", &level, "--frames", "1200", "--record", &file,
    ]);
    assert!(rec.status.success(), "{}", common::stderr(&rec));
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, doctored(&text).0).unwrap();
    let out = common::crate_room(&["replay", &file, "--verify", "--deep"]);
    assert_eq!(out.status.code(), Some(1));
    let err = common::stderr(&out);
    assert!(
        err.contains("diverged by step 1200")
            && err.contains("deep: not re-simulated: 1200 steps of a room of")
            && err.contains(&format!(
                "over the {}",
                game::replay::deep::MAX_ENTITY_STEPS
            ))
            && !err.contains("deep: pass"),
        "{err}"
    );
}

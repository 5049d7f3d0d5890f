//! Every campaign level's gold par time is reachable: `levels/gold/LEVEL.replay` is a recorded
//! run that clears the level within it, and `crate-room replay --verify` accepts it.

use crate::common;

use std::path::PathBuf;

use game::campaign::Campaign;
use game::replay::{self, Replay};
use game::route::Pacing;

fn campaign() -> Campaign {
    let (campaign, problem) = Campaign::load(&common::repo().join("levels"));
    assert!(problem.is_none(), "{problem:?}");
    campaign
}

fn gold_replay(level: &str) -> PathBuf {
    common::repo()
        .join("levels/gold")
        .join(level.replace(".ron", ".replay"))
}

#[test]
fn each_gold_replay_clears_its_level_within_the_gold_time() {
    let atlas = common::atlas();
    let levels_dir = common::repo().join("levels");
    for level in campaign().levels() {
        let path = gold_replay(level);
        let replay = Replay::load(&path).unwrap_or_else(|e| panic!("{level}: {e}"));
        assert!(
            replay.level_file.ends_with(level.as_str()),
            "{}: the replay is of {}",
            path.display(),
            replay.level_file
        );
        let (_, parsed, mut sim) = replay::load_sim(&replay, &atlas, Some(&levels_dir))
            .unwrap_or_else(|e| panic!("{level}: {e} (re-record the gold replay after an edit)"));
        let par = parsed
            .par
            .unwrap_or_else(|| panic!("{level} has no par times"));
        for step in 0..replay.steps() {
            sim.step(replay.input_at(step));
        }
        let cleared = sim
            .state()
            .room_time()
            .unwrap_or_else(|| panic!("{level}: the gold replay does not clear the room"));
        assert!(
            cleared <= par.gold,
            "{level}: the gold replay clears in {cleared} steps, over the gold par of {}",
            par.gold
        );
    }
}

/// The campaign's pacing: in no level's author run does the player do one thing (walk and
/// hammer crates of strengths already met) for more than ten seconds of the room's clock
/// without something new (a keg, a coin, a burn, a crate of a new strength).
#[test]
fn no_author_run_asks_for_one_action_for_more_than_ten_seconds() {
    const LONGEST: u64 = 10 * game::sim::STEPS_PER_SECOND as u64;
    let atlas = common::atlas();
    let levels_dir = common::repo().join("levels");
    for level in campaign().levels() {
        let replay = Replay::load(&gold_replay(level)).unwrap_or_else(|e| panic!("{level}: {e}"));
        let (_, _, mut sim) = replay::load_sim(&replay, &atlas, Some(&levels_dir))
            .unwrap_or_else(|e| panic!("{level}: {e}"));
        let mut pacing = Pacing::default();
        for step in 0..replay.steps() {
            sim.step(replay.input_at(step));
            pacing.observe(&sim);
        }
        let longest = pacing.longest();
        assert!(
            longest.steps() <= LONGEST,
            "{level}: the author run's longest stretch with nothing new is {longest}"
        );
    }
}

/// Every checkpoint of every gold replay matches: the runs are what the levels play today.
#[test]
fn the_command_line_verifies_every_gold_replay() {
    for level in campaign().levels() {
        let path = gold_replay(level);
        let shown = path.to_str().expect("UTF-8 path");
        let out = common::crate_room(&["replay", shown, "--verify"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("ok: "),
            "{level}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn no_gold_replay_is_left_without_its_level() {
    let campaign = campaign();
    for entry in std::fs::read_dir(common::repo().join("levels/gold")).expect("levels/gold") {
        let path = entry.expect("entry").path();
        let level = path
            .file_stem()
            .map(|s| format!("{}.ron", s.to_string_lossy()))
            .unwrap_or_default();
        assert!(
            campaign.position(&level).is_some(),
            "{} is not the gold replay of a campaign level",
            path.display()
        );
    }
}

/// The route search's bots: a style plays the same route every time, and its knobs change the
/// route (else the search would try one route many times).
#[test]
fn a_bot_style_plays_one_route_and_other_styles_play_others() {
    use game::route::{Driver, play};
    use game::sim::resources::BotStyle;

    let atlas = common::atlas();
    let level = game::level::load(
        &common::repo().join("levels/crate_room.ron"),
        &game::level::DEFAULT_SKINS,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let run = |style: BotStyle| {
        let run = play(&level, &atlas, 1, &Driver::Bot(style), 36_000).unwrap();
        assert!(run.room_time.is_some(), "{style:?} clears the room");
        run.inputs
    };
    let built_in = run(BotStyle::default());
    assert_eq!(run(BotStyle::default()), built_in);
    let jittered = BotStyle {
        jitter: 0.5,
        seed: 3,
        ..BotStyle::default()
    };
    assert_eq!(run(jittered), run(jittered));
    assert_ne!(run(jittered), built_in);
    let walker = BotStyle {
        walk_weight: 1.0,
        ..BotStyle::default()
    };
    assert_ne!(run(walker), built_in);
}

/// The whole game survives the dirty optimization: every author run gives the same state,
/// second by second, with change tracking on and off.
#[test]
fn every_author_run_gives_the_same_states_with_dirty_tracking_on_and_off() {
    let atlas = common::atlas();
    let levels_dir = common::repo().join("levels");
    for level in campaign().levels() {
        let replay = Replay::load(&gold_replay(level)).unwrap_or_else(|e| panic!("{level}: {e}"));
        let hashes = |dirty: bool| {
            let (_, _, mut sim) = replay::load_sim(&replay, &atlas, Some(&levels_dir))
                .unwrap_or_else(|e| panic!("{level}: {e}"));
            sim.set_dirty_optimization(dirty);
            let mut hashes = Vec::new();
            for step in 0..replay.steps() {
                sim.step(replay.input_at(step));
                if step % 60 == 0 || step + 1 == replay.steps() {
                    hashes.push(sim.state_hash());
                }
            }
            hashes
        };
        assert_eq!(hashes(true), hashes(false), "{level}");
    }
}

//! Every campaign level's gold par time is reachable: `levels/gold/LEVEL.replay` is a recorded
//! run that clears the level within it, and `crate-room replay --verify` accepts it.

use crate::common;

use std::path::PathBuf;

use game::campaign::Campaign;
use game::replay::{self, Replay};

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

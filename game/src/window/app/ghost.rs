//! The ghost to race: a recorded run (the level's author run, the fastest route known, whose
//! replay is kept in `levels/gold/`, or the player's own best) played beside the player's, step
//! for step, in a simulation of its own, and drawn as a translucent player in the same room.
//!
//! Architecture Invariant: the ghost's `Sim` is a second world built from the replay's level
//! and seed; nothing of it is shared with the player's game, so it cannot change a step, a
//! hash or a recording of the player's run.

use std::path::{Path, PathBuf};

use crate::atlas::AtlasData;
use crate::player_data::settings::GhostRun;
use crate::replay::{self, Replay};
use crate::sim::Sim;
use crate::sim::components::{DrawData, Player};

/// The folder of the data directory where each level's best run is kept, as
/// `best/<level file stem>.replay`, for the ghost to replay.
pub const BEST_DIR: &str = "best";

/// A recorded run being replayed beside the player's.
#[derive(Debug)]
pub struct Ghost {
    /// Which run it is.
    pub run: GhostRun,
    replay: Replay,
    sim: Sim,
}

impl Ghost {
    /// The ghost of `run` for the level file `level` (in the levels folder `levels_dir`), its
    /// best runs kept in `data_dir`: `Ok(None)` when `run` is off.
    ///
    /// # Errors
    /// Why there is no ghost to race: no such recording, or one of another version of the level.
    pub fn load(
        run: GhostRun,
        level: &Path,
        levels_dir: &Path,
        data_dir: Option<&Path>,
        atlas: &AtlasData,
    ) -> Result<Option<Ghost>, String> {
        let Some(path) = recording_path(run, level, levels_dir, data_dir) else {
            return match run {
                GhostRun::Off => Ok(None),
                _ => Err(format!("no {} run to race here", run.word())),
            };
        };
        if !crate::fsutil::is_file(&path) {
            return Err(match run {
                GhostRun::Best => "no best run of this level to race yet: clear it first".into(),
                _ => format!("no {} run of this level to race", run.word()),
            });
        }
        let replay = Replay::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (_, _, sim) = replay::load_sim(&replay, atlas, Some(levels_dir))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some(Ghost { run, replay, sim }))
    }

    /// Step the ghost's own game until it has run `step` steps, as the player's game has (it
    /// stands still once its recording ends).
    pub fn catch_up(&mut self, step: u64) {
        while self.sim.state().step < step.min(self.replay.steps()) {
            let input = self.replay.input_at(self.sim.state().step);
            self.sim.step(input);
        }
    }

    /// Where and how its player is drawn this step.
    pub fn player(&self) -> Option<DrawData> {
        let world = self.sim.world();
        let player = *world.column::<Player>().entities().first()?;
        world.get::<DrawData>(player).copied()
    }
}

/// The data directory the ghost's best runs are kept in: a scripted run uses only
/// `$CRATE_ROOM_DATA_DIR` (as its best times do), a player's game the player's folder.
pub fn data_dir(scripted: bool) -> Option<PathBuf> {
    if scripted {
        crate::player_data::env_data_dir()
    } else {
        crate::player_data::Store::locate()
            .ok()
            .map(|store| store.dir().to_owned())
    }
}

/// Where the recording `run` of the level file `level` is kept: the author run's replay beside
/// the levels (`levels/gold/<stem>.replay`), or the best run in the data directory.
pub fn recording_path(
    run: GhostRun,
    level: &Path,
    levels_dir: &Path,
    data_dir: Option<&Path>,
) -> Option<PathBuf> {
    let file = format!("{}.replay", level.file_stem()?.to_string_lossy());
    match run {
        GhostRun::Off => None,
        GhostRun::Author => Some(levels_dir.join("gold").join(file)),
        GhostRun::Best => Some(data_dir?.join(BEST_DIR).join(file)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ghosts_recording_is_the_author_replay_or_the_best_run_of_the_level() {
        let (levels, data) = (Path::new("levels"), Path::new("/data"));
        let level = Path::new("levels/vault.ron");
        assert_eq!(
            recording_path(GhostRun::Author, level, levels, Some(data)),
            Some(PathBuf::from("levels/gold/vault.replay"))
        );
        assert_eq!(
            recording_path(GhostRun::Best, level, levels, Some(data)),
            Some(PathBuf::from("/data/best/vault.replay"))
        );
        assert_eq!(recording_path(GhostRun::Best, level, levels, None), None);
        assert_eq!(
            recording_path(GhostRun::Off, level, levels, Some(data)),
            None
        );
    }
}

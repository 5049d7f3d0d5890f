//! Recording a run as it is played: [`Recorder`], and where a cleared run's replay is saved.

use std::path::{Path, PathBuf};

use super::level_file::read_level;
use super::limits::{CHECKPOINT_EVERY, MAX_LEVEL_PATH_CHARS, MAX_STEPS};
use super::model::Replay;
use super::replay_error::ReplayError;
use crate::sim::{Input, Sim};

/// Records a run as it is played: after each step, the input that step used.
#[derive(Clone, Debug)]
pub struct Recorder {
    replay: Replay,
}

impl Recorder {
    /// Start recording a run of the level at `level_file` (its bytes `level_bytes`).
    pub fn new(level_file: &Path, level_bytes: &[u8], seed: u64) -> Self {
        Self {
            replay: Replay::new(level_file, level_bytes, seed),
        }
    }

    /// Start recording a run of the level at `level_file`, reading its bytes for the hash.
    ///
    /// # Errors
    /// If the level file cannot be read.
    pub fn for_level(level_file: &Path, seed: u64) -> Result<Self, ReplayError> {
        check_storable(level_file)?;
        let bytes = read_level(level_file, &level_file.display().to_string())?;
        Ok(Self::new(level_file, &bytes, seed))
    }

    /// Note the step `sim` just ran: the input it used (the bot's too, read from the world)
    /// and, every [`CHECKPOINT_EVERY`] steps, the checkpoint hash (O(1): see
    /// [`Sim::checkpoint_hash`]).
    pub fn record(&mut self, sim: &Sim) {
        // A replay holds at most a day; a longer session keeps its first day.
        if self.replay.steps() >= MAX_STEPS {
            return;
        }
        self.replay.push_input(*sim.world().resource::<Input>());
        let step = self.replay.steps();
        if step.is_multiple_of(CHECKPOINT_EVERY) {
            self.replay.push_checkpoint(step, sim.checkpoint_hash());
        }
    }

    /// Steps recorded.
    pub fn steps(&self) -> u64 {
        self.replay.steps()
    }

    /// The replay so far, with a final checkpoint for `sim`'s current state (`sim` is the
    /// simulation recorded from its first step; past [`MAX_STEPS`] the last checkpoint stands).
    pub fn finish(&self, sim: &Sim) -> Replay {
        let mut replay = self.replay.clone();
        if sim.state().step == replay.steps() {
            replay.push_checkpoint(replay.steps(), sim.checkpoint_hash());
        }
        replay
    }
}

/// Refuse a level path a replay cannot store as it is: not UTF-8, with a control character
/// (a newline would end the line), or too long.
fn check_storable(path: &Path) -> Result<(), ReplayError> {
    let unstorable = |reason| ReplayError::UnstorablePath {
        path: crate::level::escape_for_display(&path.to_string_lossy()).into_owned(),
        reason,
    };
    let Some(text) = path.to_str() else {
        return Err(unstorable("its path is not UTF-8"));
    };
    if text.chars().any(crate::level::needs_escape) {
        return Err(unstorable(
            "its path holds a control or invisible character",
        ));
    }
    if text.is_empty() || text.chars().count() > MAX_LEVEL_PATH_CHARS {
        return Err(unstorable(
            "its path is empty or longer than 4096 characters",
        ));
    }
    Ok(())
}

/// Where the room-cleared screen saves a run's replay:
/// `DATA_DIR/replays/<level file name without .ron>-<steps>.replay`.
pub fn saved_path(data_dir: &Path, level_file: &Path, steps: u64) -> PathBuf {
    let stem = level_file
        .file_stem()
        .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
    data_dir
        .join("replays")
        .join(format!("{stem}-{steps}.replay"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleared_runs_are_saved_by_level_and_steps() {
        assert_eq!(
            saved_path(Path::new("/data"), Path::new("levels/vault.ron"), 1234),
            Path::new("/data/replays/vault-1234.replay")
        );
    }
}

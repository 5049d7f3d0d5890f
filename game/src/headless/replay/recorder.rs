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

    /// Start recording a run of the level at `level_file`, whose bytes were read already as
    /// `level_bytes` (the ones the level was parsed from, so the hash is of the level played).
    ///
    /// # Errors
    /// If the path cannot be stored in a replay.
    pub fn for_bytes(
        level_file: &Path,
        level_bytes: &[u8],
        seed: u64,
    ) -> Result<Self, ReplayError> {
        check_storable(level_file)?;
        Ok(Self::new(level_file, level_bytes, seed))
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

/// Where the room-cleared screen saves a replay whose text is `text`: [`saved_path`], unless a
/// different file already holds that name; then the first of `<stem>-<steps>-2.replay`,
/// `-3`, ... that is free or holds the same text. A saved replay never replaces another, and
/// a name that is not a regular file (a FIFO, a folder) is passed over unopened.
pub fn unused_saved_path(data_dir: &Path, level_file: &Path, steps: u64, text: &str) -> PathBuf {
    let first = saved_path(data_dir, level_file, steps);
    let stem = first
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    // Read through the regular-file gate: a FIFO, a folder or anything too big to be this
    // replay is taken, never opened or waited on.
    let free = |path: &Path| {
        if !crate::fsutil::exists(path) {
            return true;
        }
        let limit = text.len() as u64;
        crate::fsutil::read_bounded(path, limit).is_ok_and(|bytes| bytes == text.as_bytes())
    };
    std::iter::once(first.clone())
        .chain((2..=MAX_SAME_NAME).map(|n| first.with_file_name(format!("{stem}-{n}.replay"))))
        .find(|path| free(path))
        // Past that many, the last is replaced: a folder a person would have tidied long ago.
        .unwrap_or_else(|| first.with_file_name(format!("{stem}-{MAX_SAME_NAME}.replay")))
}

/// Most replays of one level cleared in the same number of steps kept side by side.
const MAX_SAME_NAME: u32 = 1000;

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

    #[test]
    fn a_saved_replay_never_takes_the_name_of_a_different_file() {
        let dir =
            std::env::temp_dir().join(format!("crate-room-replay-names-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("replays")).unwrap();
        let level = Path::new("levels/first_swing.ron");
        let taken = dir.join("replays/first_swing-713.replay");
        std::fs::write(&taken, "another run").unwrap();
        let path = unused_saved_path(&dir, level, 713, "this run");
        assert_eq!(path, dir.join("replays/first_swing-713-2.replay"));
        std::fs::write(&path, "this run").unwrap();
        // The same run saved again keeps its file; a third run takes the next name.
        assert_eq!(unused_saved_path(&dir, level, 713, "this run"), path);
        assert_eq!(
            unused_saved_path(&dir, level, 713, "a third run"),
            dir.join("replays/first_swing-713-3.replay")
        );
        assert_eq!(
            unused_saved_path(&dir, level, 713, "another run"),
            taken,
            "the same text is the same replay"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fifo_at_a_saved_replays_name_is_passed_over_unopened() {
        let dir =
            std::env::temp_dir().join(format!("crate-room-replay-fifo-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("replays")).unwrap();
        let fifo = dir.join("replays/first_swing-416.replay");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        std::fs::create_dir(dir.join("replays/first_swing-416-2.replay")).unwrap();
        let path = unused_saved_path(&dir, Path::new("levels/first_swing.ron"), 416, "a run");
        assert_eq!(path, dir.join("replays/first_swing-416-3.replay"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

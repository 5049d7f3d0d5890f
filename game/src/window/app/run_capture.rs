//! Capturing the window's runs as replays: every run is captured as it is played, so the
//! room-cleared screen can save it (V), and `--record FILE` writes the current run as it goes.

use std::path::{Path, PathBuf};

use crate::player_data;
use crate::replay::{self, Recorder, Replay};
use crate::sim::Sim;

/// The current run's recording and where it goes.
#[derive(Debug, Default)]
pub struct RunCapture {
    /// The current run's inputs (none while watching a replay, or when its level is unreadable).
    recorder: Option<Recorder>,
    /// `--record FILE`.
    record_to: Option<PathBuf>,
    /// The run up to the step the room was cleared.
    cleared: Option<Replay>,
    /// Why the last write to `record_to` failed, until one succeeds.
    failure: Option<String>,
}

impl RunCapture {
    /// Record runs, writing each to `record_to` as it goes when given.
    pub fn new(record_to: Option<PathBuf>) -> Self {
        Self {
            record_to,
            ..Self::default()
        }
    }

    /// A new run of the level at `level_path` starts (`None`: one that is not recorded).
    ///
    /// # Errors
    /// The level file cannot be read for its hash: the run is not recorded.
    pub fn start(&mut self, level: Option<(&Path, u64)>) -> Result<(), String> {
        self.cleared = None;
        self.recorder = None;
        if let Some((path, seed)) = level {
            let recorder = Recorder::for_level(path, seed).map_err(|e| e.to_string())?;
            self.recorder = Some(recorder);
        }
        Ok(())
    }

    /// A new run starts whose recording `recorder` began (hot reload records a level's first
    /// step where it runs it).
    pub fn start_with(&mut self, recorder: Recorder) {
        self.cleared = None;
        self.recorder = Some(recorder);
    }

    /// The current run's inputs so far (`sim` is its simulation), if it is recorded.
    pub fn so_far(&self, sim: &Sim) -> Option<Replay> {
        self.recorder.as_ref().map(|r| r.finish(sim))
    }

    /// Note the step `sim` just ran.
    pub fn record(&mut self, sim: &Sim) {
        if let Some(recorder) = &mut self.recorder {
            recorder.record(sim);
        }
    }

    /// The room was just cleared: keep the run up to here. Returns whether it can be saved.
    pub fn on_clear(&mut self, sim: &Sim) -> bool {
        self.cleared = self.recorder.as_ref().map(|r| r.finish(sim));
        self.cleared.is_some()
    }

    /// `--record FILE`: write the current run there (nothing without `--record`).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&mut self, sim: &Sim) -> Result<(), String> {
        let (Some(path), Some(recorder)) = (&self.record_to, &self.recorder) else {
            return Ok(());
        };
        let written = recorder
            .finish(sim)
            .save(path)
            .map_err(|e| format!("--record: replay not saved: {e}"));
        self.failure = written.as_ref().err().cloned();
        written
    }

    /// Why the last `--record` write failed, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Keep the cleared run at `path` (the level's best run, which the ghost replays),
    /// replacing the one there.
    ///
    /// # Errors
    /// No cleared run, or the file cannot be written.
    pub fn save_best(&self, path: &Path) -> Result<(), String> {
        let replay = self.cleared.as_ref().ok_or("no cleared run to keep")?;
        if let Some(dir) = path.parent() {
            crate::fsutil::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        replay.save(path).map_err(|e| e.to_string())
    }

    /// Save the cleared run in the data directory's `replays/` folder (see
    /// [`replay::saved_path`]); a scripted run saves only under `$CRATE_ROOM_DATA_DIR`, as with
    /// best times. Returns where.
    ///
    /// # Errors
    /// No cleared run, no data directory, or the file cannot be written.
    pub fn save_cleared(&self, level_path: &Path, scripted: bool) -> Result<PathBuf, String> {
        let replay = self.cleared.as_ref().ok_or("no cleared run to save")?;
        if scripted && player_data::env_data_dir().is_none() {
            return Err("a scripted run saves replays only under $CRATE_ROOM_DATA_DIR".into());
        }
        let store = player_data::Store::locate().map_err(|e| e.to_string())?;
        let text = replay.to_text();
        let path = replay::unused_saved_path(store.dir(), level_path, replay.steps(), &text);
        if let Some(dir) = path.parent() {
            // The data directory's own folder for replays: made on first use.
            crate::fsutil::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        replay.save(&path).map_err(|e| e.to_string())?;
        Ok(path)
    }
}

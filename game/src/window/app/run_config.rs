//! What a windowed run is asked to do: the command line's options, and a scripted run's end.

use std::path::PathBuf;

use crate::input::InputSource;
use crate::player_data::settings::Overrides;
use crate::window::debug::views::Views;
use crate::window::editor::EditStart;

/// Options of a windowed run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Level to start with; without one the game opens on the title screen.
    pub level: Option<PathBuf>,
    /// Start in the editor on this level (`--edit`) instead.
    pub edit: Option<EditStart>,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// Who plays.
    pub input: InputSource,
    /// Scripted mode: run exactly this many frames (at most one step each), then exit.
    pub frames: Option<u64>,
    /// Scripted mode: write the last frame here as a PNG.
    pub screenshot: Option<PathBuf>,
    /// Scripted mode: game keys pressed at given frames.
    pub press: Vec<super::keys::ScriptedPress>,
    /// Scripted mode: report each frame's mean brightness.
    pub report_brightness: bool,
    /// Debug views on at start.
    pub debug: Views,
    /// Keep the profiler's frames from the start and write them here as the game ends.
    pub save_profile: Option<PathBuf>,
    /// Serve puffin profiles on this address (for `puffin_viewer`).
    pub puffin_server: Option<String>,
    /// Settings the command line changes for this run (the settings file keeps the rest).
    pub overrides: Overrides,
    /// Start with the dirty-component optimization on (F7 toggles it).
    pub dirty: bool,
    /// Write the current run's replay here (`--record`): every checkpoint, when the room is
    /// cleared and when the game ends.
    pub record: Option<PathBuf>,
}

/// A scripted run (`--frames`): it runs exactly `frames` frames, at most one step each, then
/// ends with a report. Orthogonal to the mode: a script drives the title, the game or the
/// editor like a player.
#[derive(Clone, Debug)]
pub(super) struct Script {
    /// Frames to run.
    pub frames: u64,
    /// Where the last frame is written as a PNG.
    pub screenshot: Option<PathBuf>,
    /// Game keys pressed at given frames.
    pub press: Vec<super::keys::ScriptedPress>,
    /// Each frame's mean brightness so far, when the run reports them.
    pub brightness: Option<Vec<f32>>,
    /// Presses that fell on a screen that takes no game keys, and why (`F7@50: ...`).
    pub presses_not_taken: Vec<String>,
}

impl Script {
    /// The script `opts` asks for, if any.
    pub fn of(opts: &RunConfig) -> Option<Self> {
        opts.frames.map(|frames| Self {
            frames,
            screenshot: opts.screenshot.clone(),
            press: opts.press.clone(),
            brightness: opts.report_brightness.then(Vec::new),
            presses_not_taken: Vec::new(),
        })
    }
}
